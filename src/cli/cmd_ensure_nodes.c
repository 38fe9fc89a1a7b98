/* lxgpu ensure-nodes: make the NVIDIA device nodes the driver would, with
 * this boot's majors; the boot unit runs it before guests start. */
#include "cli.h"

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
	for (size_t i = 0; i < plan->notes.n; i++)
		fprintf(stderr, "lxgpu: note: %s\n", plan->notes.items[i]);
	if (lx_node_plan_changes(plan) == 0)
		printf("nothing to do: every NVIDIA node is in place\n");
	return 0;
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
	lx_host_free(&host);
	if (rc < 0)
		return cli_fail(&err);
	print_plan(&plan, cli->dry_run, cli->verbosity < 1);
	rc = cli->dry_run ? 0 : lx_node_plan_apply(&plan, cli->scan_paths.dev, &err);
	lx_node_plan_free(&plan);
	if (rc < 0)
		return cli_fail(&err);
	return LX_EXIT_OK;
}

const struct cli_command cli_cmd_ensure_nodes = {
	.name = "ensure-nodes",
	.summary = "create the NVIDIA device nodes with this boot's majors (boot unit)",
	.usage = "Usage: lxgpu ensure-nodes [--dry-run] [--load-modules] [--print-boot-unit]\n"
		 "\n"
		 "Create what nvidia-modprobe would: /dev/nvidiactl, /dev/nvidiaN for each GPU\n"
		 "bound to nvidia, /dev/nvidia-modeset when nvidia_modeset is loaded,\n"
		 "/dev/nvidia-uvm and -uvm-tools when nvidia-uvm is in /proc/devices, and the\n"
		 "/dev/nvidia-caps nodes the driver lists, with the majors of /proc/devices now\n"
		 "and the driver's modes. A node with a stale major or minor is replaced (made\n"
		 "under a temporary name and renamed over it); a wrong mode or owner is fixed.\n"
		 "Never opens a node. Running it again changes nothing.\n"
		 "\n"
		 "  --dry-run          print what it would do, change nothing\n"
		 "  --load-modules     first modprobe nvidia-uvm (and nvidia-modeset where a GPU\n"
		 "                     drives a display) when not loaded, without a shell\n"
		 "  --print-boot-unit  print a systemd oneshot unit that runs\n"
		 "                     `lxgpu ensure-nodes --load-modules` before\n"
		 "                     pve-guests.service and lxc.service\n",
	.options = CLI_OPT_DRY_RUN | CLI_OPT_BOOT_UNIT | CLI_OPT_LOAD_MODULES,
	.run = run_ensure_nodes,
};
