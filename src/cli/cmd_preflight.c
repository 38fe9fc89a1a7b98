/* lxgpu preflight: will the GPU containers come up, now and after a reboot?
 *
 * The walk and the judgments are the library's (lx_preflight_walk,
 * lx_preflight_container in lxgpu/walk.h); this prints each container as
 * it is handed over. */
#include "cli.h"
#include "lxgpu/report.h"
#include "lxgpu/judge.h"
#include "lxgpu/predict.h"
#include "lxgpu/walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct target {
	char *id;
	char *path;
	bool is_pve;
};

static void add_target(struct target **t, size_t *n, const char *id, const char *path, bool is_pve)
{
	*t = lx_xrealloc(*t, (*n + 1) * sizeof(**t));
	(*t)[(*n)++] = (struct target){lx_xstrdup(id), lx_xstrdup(path), is_pve};
}

/* What one pass (next start, next boot) has shown. */
struct shown {
	const struct cli *cli;
	bool text;
	struct lx_doc *list; /* YAML: the pass's containers */
	/* JSON: each container printed as it comes, as audit does, so that
	 * memory stays flat over thousands of containers */
	struct lx_json_writer *stream;
	size_t containers;
	bool errors;    /* a reason shown is an error */
	bool unchecked; /* a container could not be judged (its config unreadable) */
};

/* A container's reasons as findings (verify's form: code, severity,
 * container, message, fix with this run's words), in their order. */
static void reasons_as_findings(const char *id, const struct lx_preflight *p, const struct cli *cli,
				struct lx_findings *out)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct lx_reason *r = &p->reasons[i];
		lx_findings_add(out, r->code, id, r->file, r->line, r->node, lx_xstrdup(r->message),
				r->fix ? cli_with_context(cli, r->fix) : NULL);
		/* the verdict is the container's; each reason's severity is its finding's */
		lx_findings_last_severity(out, lx_reason_severity(r));
	}
}

static void print_verdict(const char *id, const struct lx_preflight *p, struct shown *s)
{
	struct lx_findings f = {0};
	reasons_as_findings(id, p, s->cli, &f);
	s->errors |= lx_findings_have_errors(&f);
	if (s->text) {
		_cleanup_free_ char *id_text = lx_text_escape(id);
		/* coloured as the severity it stands for (lxgpu/report.h) */
		const char *sgr = p->verdict == LX_VERDICT_WILL_FAIL ? lx_severity_sgr(LX_SEVERITY_ERROR)
				  : p->verdict == LX_VERDICT_DEGRADED ? lx_severity_sgr(LX_SEVERITY_WARNING)
								      : LX_SGR_OK;
		bool color = s->cli->color;
		printf("  %-10s %s%s%s\n", id_text, color ? sgr : "", lx_verdict_name(p->verdict),
		       color ? LX_SGR_RESET : "");
		struct lx_buf b = {0};
		lx_buf_puts(&b, "");
		for (size_t i = 0; i < f.n; i++)
			lx_report_finding_text(&b, &f.items[i], s->cli->color, s->cli->wrap_width);
		fputs(b.data, stdout);
		lx_buf_free(&b);
		lx_findings_free(&f);
		return;
	}
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "container", lx_doc_new_str(id));
	lx_doc_map_set(d, "verdict", lx_doc_new_str(lx_verdict_name(p->verdict)));
	lx_doc_map_set(d, "reasons", lx_report_findings_doc(&f));
	lx_findings_free(&f);
	if (!s->stream) {
		lx_doc_list_push(s->list, d);
		return;
	}
	lx_json_value(s->stream, NULL, d);
	lx_doc_free(d);
}

static struct lx_doc *next_boot_doc(const struct lx_next_boot *nb)
{
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "kernel", lx_doc_new_str(nb->kernel));
	lx_doc_map_set(d, "kernel_source", lx_doc_new_str(nb->kernel_source));
	if (nb->module_path) {
		struct lx_doc *m = lx_doc_new_map();
		lx_doc_map_set(m, "path", lx_doc_new_str(nb->module_path));
		lx_doc_map_set(m, "version", lx_doc_new_str(nb->module_version));
		lx_doc_map_set(m, "flavor", lx_doc_new_str(lx_driver_flavor_name(nb->module_flavor)));
		lx_doc_map_set(m, "firmware_present", lx_doc_new_bool(nb->firmware_present));
		lx_doc_map_set(d, "module", m);
	} else {
		lx_doc_map_set(d, "module", lx_doc_new_null());
	}
	lx_doc_map_set(d, "uvm_at_boot", lx_doc_new_bool(nb->uvm_at_boot));
	lx_doc_map_set(d, "uvm_source", lx_doc_new_str(nb->uvm_source));
	return d;
}

static void show_container(void *ctx, const struct lx_preflight_container *c)
{
	struct shown *s = ctx;
	if (c->error) {
		cli_fail(c->error);
		s->unchecked = true;
		return;
	}
	print_verdict(c->id, c->preflight, s);
	s->containers++;
}

static void free_targets(struct target *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].id);
		free(t[i].path);
	}
	free(t);
}

static int run_preflight(struct cli *cli)
{
	if (cli->migrate_to)
		return cli_preflight_migration(cli);
	if (cli->exclusive)
		return cli_usage_error("--exclusive is for preflight CTID --to NODE");
	if (cli->print_boot_unit) {
		fputs(lx_boot_unit_text(), stdout);
		return LX_EXIT_OK;
	}
	/* A snapshot has no /boot, /lib/modules or /etc of its machine: this
	 * machine's would be judged against another host's GPUs. */
	if ((cli->next_boot || cli->kernel) && cli->host_file && !cli->root_dir)
		return cli_usage_error("--next-boot with --host %s needs --root DIR: a copy of that "
				       "host's /boot, /lib/modules, /etc and /lib/firmware (a snapshot "
				       "does not carry them, and this machine's are not that host's)",
				       cli->host_file);
	struct lx_error err = {0};
	struct target *targets = NULL; /* the CTIDs asked for; none: every GPU container */
	size_t n = 0;
	for (int i = 0; i < cli->n_args; i++) {
		_cleanup_free_ char *path = NULL;
		bool is_pve;
		if (lx_conf_find(cli->pve_dir, cli->lxc_path, cli->args[i], &path, &is_pve, &err) < 0) {
			free_targets(targets, n);
			return cli_fail(&err);
		}
		add_target(&targets, &n, cli->args[i], path, is_pve);
	}
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0) {
		free_targets(targets, n);
		return LX_EXIT_ERROR;
	}
	struct lx_next_boot nb = {0};
	int rc = LX_EXIT_OK;
	const char *root = cli->root_dir ? cli->root_dir : "/";
	if (cli->next_boot && lx_next_boot_inspect(root, cli->kernel, &nb, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	bool text = cli->format == CLI_FORMAT_TEXT;
	struct lx_doc *start_list = lx_doc_new_list(), *boot_list = lx_doc_new_list();
	struct lx_runtime_paths paths = {cli->cgroup_root, "/proc", cli->lxc_path, cli->lxc_config_dir,
					 cli->pve_dir, cli->subid_root, NULL, NULL, NULL};
	struct lx_node_plan plan;
	bool planned = cli_plan_nodes(cli, &host, &plan);
	struct lx_json_writer json;
	lx_json_writer_init(&json, stdout, cli->compact);
	struct shown shown = {.cli = cli,
			      .text = text, .stream = cli->format == CLI_FORMAT_JSON ? &json : NULL};
	if (shown.stream) { /* docs/schema/preflight.json, as cli_print_doc writes it */
		struct lx_doc *schema = lx_doc_new_int(1);
		lx_json_open(&json, NULL, true);
		lx_json_value(&json, "schema", schema);
		lx_doc_free(schema);
		lx_json_open(&json, "next_start", false);
	}
	for (int pass = 0; pass < (cli->next_boot ? 2 : 1); pass++) {
		if (shown.stream && pass == 1) {
			/* its fields, then "containers" as the last one */
			struct lx_doc *b = next_boot_doc(&nb);
			lx_json_open(&json, "next_boot", true);
			for (size_t i = 0; i < b->n; i++)
				lx_json_value(&json, b->keys[i], b->items[i]);
			lx_doc_free(b);
			lx_json_open(&json, "containers", false);
		}
		if (text && pass == 0)
			printf("Next start (the host as it is now: driver %s):\n",
			       host.driver.version ? host.driver.version : "not loaded");
		if (text && pass == 1) {
			printf("\nAfter a reboot into kernel %s (%s):\n", nb.kernel, nb.kernel_source);
			if (nb.module_path)
				printf("  nvidia %s (%s) from %s%s\n", nb.module_version ? nb.module_version : "?",
				       lx_driver_flavor_name(nb.module_flavor), nb.module_path,
				       nb.module_flavor == LX_FLAVOR_OPEN && !nb.firmware_present
					       ? "; its GSP firmware is missing"
					       : "");
			else
				printf("  no nvidia module for this kernel\n");
			printf("  /dev/nvidia-uvm at boot: %s\n",
			       nb.uvm_at_boot ? nb.uvm_source : "nothing creates it before guests start");
		}
		shown.list = pass == 0 ? start_list : boot_list;
		shown.containers = 0;
		struct lx_preflight_options o = {
			.runtime = &paths,
			.state_dir = cli->state_dir,
			.nodes = planned ? &plan : NULL,
			.next_boot = pass == 1 ? &nb : NULL,
			.container = show_container,
			.ctx = &shown,
		};
		if (cli->n_args == 0)
			lx_preflight_walk(&host, cli->pve_dir, cli->lxc_path, &o);
		for (size_t i = 0; i < n; i++) {
			struct lx_preflight p;
			struct lx_preflight_container c = {targets[i].id, targets[i].path, &p, NULL};
			if (lx_preflight_container(&host, c.id, c.path, targets[i].is_pve, &o, &p,
						   &err) < 0) {
				c.preflight = NULL;
				c.error = &err;
			}
			show_container(&shown, &c);
			if (c.preflight)
				lx_preflight_free(&p);
			lx_error_clear(&err);
		}
		if (text && !shown.containers)
			printf("  (no GPU containers)\n");
		if (shown.stream)
			lx_json_close(&json); /* the pass's containers */
		if (shown.stream && pass == 1)
			lx_json_close(&json); /* next_boot */
	}
	if (planned)
		lx_node_plan_free(&plan);
	if (shown.stream) {
		lx_json_close(&json);
		lx_doc_free(start_list);
		lx_doc_free(boot_list);
	} else if (!text) {
		struct lx_doc *doc = lx_doc_new_map();
		lx_doc_map_set(doc, "next_start", start_list);
		if (cli->next_boot) {
			struct lx_doc *b = next_boot_doc(&nb);
			lx_doc_map_set(b, "containers", boot_list);
			lx_doc_map_set(doc, "next_boot", b);
		} else {
			lx_doc_free(boot_list);
		}
		cli_print_doc(cli, doc, 1); /* docs/schema/preflight.json */
	} else {
		lx_doc_free(start_list);
		lx_doc_free(boot_list);
	}
	/* verify's rule over every reason shown (will fail is always an error) */
	rc = lx_judged_exit_status(shown.errors, shown.unchecked);
out:
	lx_next_boot_free(&nb);
	free_targets(targets, n);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_preflight = {
	.name = "preflight",
	.summary = "will the GPU containers work at their next start, after a reboot?",
	.usage =
		"Usage: lxgpu preflight [CTID...] [--next-boot [--kernel VER] [--root DIR]]\n"
		"       lxgpu preflight CTID --to NODE [--hosts DIR] [--exclusive]\n"
		"       lxgpu preflight --print-boot-unit\n"
		"\n"
		"For each GPU container (all by default): ok, degraded (starts, but CUDA will\n"
		"not work) or will fail (does not start), with the reasons and fixes, for its\n"
		"next start on the host as it is now; with --next-boot also for the first start\n"
		"after a reboot: the kernel that boots next (proxmox-boot-tool pin, GRUB, or\n"
		"the newest), its nvidia module (version and flavour from .modinfo, without\n"
		"loading it), GSP firmware, open vs proprietary for the GPUs, whether anything\n"
		"creates /dev/nvidia-uvm at boot, and rules that hard-code a dynamic major.\n"
		"\n"
		"  --next-boot         also judge the state after a reboot\n"
		"  --kernel VER        the kernel that will boot (instead of finding it)\n"
		"  --root DIR          read /boot, /lib/modules, /etc, /lib/firmware under DIR\n"
		"                      (needed with --host: a snapshot has none of them)\n"
		"  --print-boot-unit   print a systemd unit that creates the nodes at boot\n"
		"  --to NODE           check a migration of CTID to NODE against the host model\n"
		"                      NODE published (lxgpu publish): its GPUs there by PCI\n"
		"                      address or UUID, bound to nvidia and reached by the\n"
		"                      config, not held by a VM there (--exclusive: nor given to\n"
		"                      a container there); the driver there against the\n"
		"                      container's libraries; majors and devN there. Exit 1\n"
		"                      (refused) when the container would lose its GPUs there\n"
		"  --hosts DIR         NODE's model from DIR/NODE.yaml instead\n"
		"  --format FMT        text, json or yaml (docs/schema/preflight.json)\n"
		"\n"
		"Exit status as verify's: 1 when a reason shown is an error (every will fail,\n"
		"and a degraded start whose reason verify calls an error), else 2 when a\n"
		"container could not be judged, else 0.\n",
	.options = CLI_OPT_FORMAT | CLI_OPT_PREFLIGHT | CLI_OPT_BOOT_UNIT | CLI_OPT_TO | CLI_OPT_HOSTS |
		   CLI_OPT_EXCLUSIVE,
	.run = run_preflight,
};
