/* lxgpu verify: one container's config and running state against the host. */
#include "cli.h"
#include "lxgpu/report.h"
#include "lxgpu/judge.h"
#include "lxgpu/predict.h"
#include "lxgpu/vm.h"

static int run_verify(struct cli *cli)
{
	if (cli->n_args != 1)
		return cli_usage_error("verify needs exactly one container id");
	const char *id = cli->args[0];
	struct lx_error err = {0};
	_cleanup_free_ char *path = NULL;
	bool is_pve;
	if (lx_conf_find(cli->pve_dir, cli->lxc_path, id, &path, &is_pve, &err) < 0)
		return cli_fail(&err);
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	struct lx_runtime_paths paths = {cli->cgroup_root, "/proc", cli->lxc_path, cli->lxc_config_dir,
					 cli->pve_dir, cli->subid_root, NULL, NULL, NULL};
	struct lx_findings findings = {0};
	struct lx_container_report report;
	int rc = LX_EXIT_OK;
	if (lx_verify_container(&host, id, path, is_pve, &paths, &findings, &report, &err) < 0 ||
	    cli_verify_include(cli, &host, id, path, &findings, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	if (is_pve) {
		/* A GPU a VM of this node passes through too: LXG013, by audit's check. */
		struct lx_vm_devices vms;
		cli_read_vms(cli, &host, &vms);
		lx_vm_gpu_findings(&vms, id, &report.gpus, &findings);
		lx_vm_devices_free(&vms);
	}
	cli_fixes_with_context(cli, &findings);
	if (cli->format == CLI_FORMAT_TEXT) {
		_cleanup_free_ char *id_text = lx_text_escape(id);
		_cleanup_free_ char *path_text = lx_text_escape(path);
		_cleanup_free_ char *state =
			report.state == LX_RUN_UNINSPECTABLE
				? lx_xasprintf("could not inspect: %s (config checked)", report.state_why)
				: lx_xstrdup(report.running ? "running" : "stopped (config checked)");
		_cleanup_free_ char *head =
			lx_xasprintf("%s %s (%s): %s, %zu GPU node%s configured\n",
				     is_pve ? "CT" : "Container", id_text, path_text, state,
				     report.n_nodes, report.n_nodes == 1 ? "" : "s");
		cli_print_wrapped(cli, head, 2);
		_cleanup_free_ char *text = lx_report_findings_text(&findings, cli->color, cli->wrap_width);
		fputs(text, stdout);
	} else {
		struct lx_doc *doc = lx_doc_new_map();
		lx_doc_map_set(doc, "container", lx_doc_new_str(id));
		lx_doc_map_set(doc, "file", lx_doc_new_str(path));
		lx_doc_map_set(doc, "state", lx_doc_new_str(lx_run_state_name(report.state)));
		if (report.found_by)
			lx_doc_map_set(doc, "found_by", lx_doc_new_str(report.found_by));
		if (report.state_why)
			lx_doc_map_set(doc, "state_detail", lx_doc_new_str(report.state_why));
		lx_doc_map_set(doc, "gpus", lx_doc_new_str_list(&report.gpus));
		lx_doc_map_set(doc, "findings", lx_report_findings_doc(&findings));
		lx_doc_map_set(doc, "access", lx_access_to_doc(&report.access));
		if (report.running)
			lx_doc_map_set(doc, "running", lx_running_devices_to_doc(&report.devices));
		cli_print_doc(cli, doc, 1); /* docs/schema/verify.json */
	}
	/* A container lxgpu could not look into, or whose device cgroup it
	 * could not judge, is not clean: "could not check". */
	bool unchecked = report.state == LX_RUN_UNINSPECTABLE ||
			 (report.running && !lx_running_devices_complete(&report.devices));
	rc = lx_judged_exit_status(lx_findings_have_errors(&findings), unchecked);
	lx_container_report_free(&report);
out:
	lx_findings_free(&findings);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_verify = {
	.name = "verify",
	.summary = "check a container's GPU setup: config, running container, host",
	.usage = "Usage: lxgpu verify CTID [--format text|json|yaml]\n"
		 "\n"
		 "Check the container's config against the host (stale majors, missing nodes,\n"
		 "wrong cgroup keys, GPU lines in snapshots, modes its users cannot open, ...)\n"
		 "and, when it runs, the running container: the nodes in its /dev (major:minor),\n"
		 "its bind mounts, its device cgroup (v1 devices.list; v2 the device programs,\n"
		 "read back and evaluated for every node the GPUs need), and the driver libraries\n"
		 "its loader resolves in its root (never following a path out of it; a stopped\n"
		 "Proxmox container's root where its storage keeps it). Each finding has a stable\n"
		 "code (docs/findings.md) and a fix. A GPU a VM also passes through (hostpciN in\n"
		 "<pve-dir>/qemu-server) is LXG013, as in audit. Exit 0 when clean, 1 with errors,\n"
		 "2 when it could not check.\n",
	.options = CLI_OPT_FORMAT,
	.run = run_verify,
};
