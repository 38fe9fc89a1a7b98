/* lxgpu ensure-nodes: make the NVIDIA device nodes the driver would, with
 * this boot's majors; the boot unit runs it before guests start. */
#include "cli.h"
#include "lxgpu/incfile.h"

static int print_plan(const struct lx_node_plan *plan, bool dry_run, bool quiet)
{
	const char *prefix = dry_run ? "would " : "";
	if (plan->make_caps_dir)
		printf("%screate /dev/nvidia-caps (directory, 0755)\n", prefix);
	for (size_t i = 0; i < plan->n; i++) {
		if (plan->steps[i].action == LX_NODE_KEEP && quiet)
			continue;
		_cleanup_free_ char *line = lx_node_step_describe(&plan->steps[i]);
		if (plan->steps[i].action == LX_NODE_KEEP)
			printf("%s\n", line);
		else
			printf("%s%s\n", prefix, line);
	}
	if (lx_node_plan_changes(plan) == 0)
		printf("nothing to do: every NVIDIA node is in place\n");
	return 0;
}

/* The include files of containers applied with --style include, from
 * their records and the host as the nodes now are. 0, 1 when a recorded
 * GPU was left out or a file is not lxgpu's, 2 when a record or file
 * could not be read or written. */
static int regenerate_includes(const struct cli *cli, const struct lx_host *host)
{
	struct lx_error err = {0};
	struct lx_incfile_jobs jobs;
	if (lx_incfile_plan_all(host, cli->state_dir, &jobs, &err) < 0)
		return cli_fail(&err);
	const char *prefix = cli->dry_run ? "would " : "";
	int rc = LX_EXIT_OK;
	for (size_t i = 0; i < jobs.n; i++) {
		const struct lx_incfile_job *j = &jobs.items[i];
		const struct lx_incfile_check *c = &j->check;
		switch (j->action) {
		case LX_INCFILE_KEEP:
			if (cli->verbosity >= 1)
				printf("keep %s (CT %s)\n", c->path, j->id);
			break;
		case LX_INCFILE_CREATE: printf("%screate %s (CT %s)\n", prefix, c->path, j->id); break;
		case LX_INCFILE_REWRITE:
			if (c->have || c->want)
				printf("%srewrite %s (CT %s): '%s' becomes '%s'\n", prefix, c->path, j->id,
				       c->have ? c->have : "", c->want ? c->want : "");
			else
				printf("%srewrite %s (CT %s)\n", prefix, c->path, j->id);
			break;
		case LX_INCFILE_SKIP:
			if (j->error) {
				fprintf(stderr, "lxgpu: CT %s: %s; its include file is left as it is\n",
					j->id, j->error);
				rc = LX_EXIT_ERROR;
			} else {
				fprintf(stderr,
					"lxgpu: CT %s: %s is not lxgpu's (its first line is not '%s'): left "
					"as it is; 'lxgpu apply %s --style include --force' replaces it\n",
					j->id, c->path, LX_INCFILE_MARK, j->id);
				if (rc == LX_EXIT_OK)
					rc = LX_EXIT_FINDINGS;
			}
			break;
		}
		for (size_t k = 0; k < c->want_from.renumbered.n; k++)
			cli_note(cli, "CT %s: %s: the include file follows it", j->id,
				 c->want_from.renumbered.items[k]);
		for (size_t k = 0; k < c->want_from.gone.n; k++) {
			fprintf(stderr,
				"lxgpu: CT %s: %s: left out of %s, so the container starts without it "
				"('lxgpu apply %s --style include --gpus ...' gives it another)\n",
				j->id, c->want_from.gone.items[k], c->path, j->id);
			if (rc == LX_EXIT_OK)
				rc = LX_EXIT_FINDINGS;
		}
	}
	if (!cli->dry_run && lx_incfile_apply_all(&jobs, &err) < 0)
		rc = cli_fail(&err);
	lx_incfile_jobs_free(&jobs);
	return rc;
}

static int run_ensure_nodes(struct cli *cli)
{
	if (cli->print_boot_unit) {
		fputs(lx_nodes_boot_unit_text(), stdout);
		return LX_EXIT_OK; /* main checks that stdout got it all */
	}
	if (cli->n_args > 0)
		return cli_usage_error("ensure-nodes takes no arguments (got '%s')", cli->args[0]);
	if (cli->host_file)
		return cli_usage_error("ensure-nodes acts on the live host: it does not take --host");
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	struct lx_error err = {0};
	if (cli->load_modules) {
		struct lx_strv load = {0};
		lx_nodes_modules_to_load(&host, &load);
		int rc = 0;
		for (size_t i = 0; i < load.n && rc == 0; i++) {
			if (cli->dry_run) {
				printf("would run modprobe %s\n", load.items[i]);
				continue;
			}
			rc = lx_module_load(cli->scan_paths.proc, load.items[i], &err);
			if (rc == 0)
				printf("loaded %s\n", load.items[i]);
		}
		bool rescan = load.n > 0 && !cli->dry_run;
		lx_strv_free(&load);
		if (rc < 0) {
			lx_host_free(&host);
			return cli_fail(&err);
		}
		/* The new module's major is in /proc/devices only now. */
		if (rescan) {
			lx_host_free(&host);
			if (cli_load_host(cli, &host, NULL) < 0)
				return LX_EXIT_ERROR;
		}
	}
	struct lx_node_plan plan;
	int rc = lx_node_plan_make(&host, cli->scan_paths.proc, cli->scan_paths.dev, &plan, &err);
	if (rc == 0 && cli->all_mig)
		rc = lx_node_plan_add_mig_minors(&host, cli->scan_paths.dev, &plan, &err);
	if (rc < 0) {
		lx_host_free(&host);
		return cli_fail(&err);
	}
	print_plan(&plan, cli->dry_run, cli->verbosity < 1);
	for (size_t i = 0; i < plan.notes.n; i++)
		cli_note(cli, "%s", plan.notes.items[i]);
	rc = cli->dry_run ? 0 : lx_node_plan_apply(&plan, cli->scan_paths.dev, &err);
	/* The include files get the nodes as they are once made. */
	lx_node_plan_to_model(&plan, &host);
	lx_node_plan_free(&plan);
	if (rc < 0) {
		lx_host_free(&host);
		return cli_fail(&err);
	}
	rc = regenerate_includes(cli, &host);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_ensure_nodes = {
	.name = "ensure-nodes",
	.summary = "create the NVIDIA device nodes with this boot's majors",
	.usage = "Usage: lxgpu ensure-nodes [--dry-run] [--load-modules] [--all-mig]\n"
		 "                          [--print-boot-unit]\n"
		 "\n"
		 "Create what nvidia-modprobe would: /dev/nvidiactl, /dev/nvidiaN for each GPU\n"
		 "bound to nvidia, /dev/nvidia-modeset when nvidia_modeset is loaded,\n"
		 "/dev/nvidia-uvm and -uvm-tools when nvidia-uvm is in /proc/devices, and the\n"
		 "/dev/nvidia-caps nodes the driver lists, with the majors of /proc/devices now\n"
		 "and the driver's modes. A node with a stale major or minor is replaced (made\n"
		 "under a temporary name and renamed over it); a wrong mode or owner is fixed.\n"
		 "Never opens a node. Running it again changes nothing.\n"
		 "\n"
		 "Then it rewrites the include file of every container applied with --style\n"
		 "include (<state-dir>/lxc/CTID.conf) from its GPU record and these nodes: each\n"
		 "recorded GPU by its UUID (at its PCI address when none was recorded), so a\n"
		 "renumbered one keeps its own card, also on a bus numbered anew; a file is\n"
		 "written (atomically) only when its text changes. A recorded GPU that is\n"
		 "gone, bound to another driver or holds another card is left out, and said.\n"
		 "\n"
		 "Exit status: 0 done; 1 a recorded GPU was left out, or an include file there\n"
		 "is not lxgpu's (left alone); 2 an error (a record that cannot be read: the\n"
		 "other files are still rewritten).\n"
		 "\n"
		 "  --dry-run          print what it would do, change nothing\n"
		 "  --load-modules     first modprobe nvidia-uvm (and nvidia-modeset where a GPU\n"
		 "                     drives a display) when not loaded, without a shell\n"
		 "  --all-mig          also a node for every MIG instance the driver can create\n"
		 "                     (/proc/driver/nvidia-caps/mig-minors), so one created after\n"
		 "                     boot has its node (mig/config 0400, the rest 0444)\n"
		 "  --print-boot-unit  print a systemd oneshot unit that runs\n"
		 "                     `lxgpu ensure-nodes --load-modules` before\n"
		 "                     pve-guests.service and lxc.service\n",
	.options = CLI_OPT_DRY_RUN | CLI_OPT_BOOT_UNIT | CLI_OPT_LOAD_MODULES | CLI_OPT_ALL_MIG,
	.run = run_ensure_nodes,
};
