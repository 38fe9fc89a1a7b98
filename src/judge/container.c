/* Verify one container: config, running state, rootfs. */
#include "lxgpu/judge.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The rootfs of a stopped container, when it is a directory lxgpu can see:
 * plain LXC's lxc.rootfs.path = dir:/path, or PVE's mount point while mounted. */
int lx_container_open_root(const struct lx_runtime_paths *paths, const char *id,
			   const struct lx_conf *conf, const struct lx_running *run)
{
	if (run && run->state == LX_RUN_RUNNING)
		return fcntl(run->root_fd, F_DUPFD_CLOEXEC, 0);
	if (run && run->state == LX_RUN_UNINSPECTABLE)
		return -1; /* its rootfs on disk may not be what it runs */
	_cleanup_free_ char *path = NULL;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.rootfs.path") == 0) {
			const char *v = lx_str_starts_with(l->value, "dir:") ? l->value + 4 : l->value;
			if (v[0] == '/') {
				free(path);
				path = lx_xstrdup(v);
			}
		}
	}
	if (!path)
		path = lx_xasprintf("%s/%s/rootfs", paths->lxc_path, id);
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int lx_verify_container(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			const struct lx_runtime_paths *paths, struct lx_findings *out,
			struct lx_container_report *report, struct lx_error *err)
{
	memset(report, 0, sizeof(*report));
	struct lx_conf conf;
	if (lx_conf_load(path, &conf, err) < 0)
		return -1;
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (paths->lxc_config_dir)
		aopts.lxc_config_dir = paths->lxc_config_dir;
	if (lx_access_compute(host, &conf, is_pve, &aopts, &report->access, err) < 0) {
		lx_conf_free(&conf);
		return -1;
	}
	struct lx_container_config cc;
	lx_container_config_read(host, id, &conf, is_pve, &cc);
	lx_verify_config(host, &cc, &report->access, out);
	struct lx_running run;
	lx_container_find(paths, host->cgroup, id, &run);
	if (run.state == LX_RUN_RUNNING) {
		size_t before = out->n;
		lx_verify_running(host, &cc, &report->access, paths, &run, &report->devices, out);
		lx_verify_hook(host, &cc, run.root_fd, out);
		/* Its init gone meanwhile: what was read may be of nothing (or of
		 * a dying container), so it is neither a finding nor a pass. */
		if (!lx_running_recheck(&run)) {
			lx_findings_truncate(out, before);
			lx_running_devices_free(&report->devices);
		}
	} else if (run.state == LX_RUN_STOPPED) {
		int root_fd = lx_container_open_root(paths, id, &conf, &run);
		lx_verify_hook(host, &cc, root_fd, out);
		if (root_fd >= 0) {
			lx_verify_rootfs(host, &cc, root_fd, out);
			close(root_fd);
		}
	} else {
		lx_verify_hook(host, &cc, -1, out);
	}
	report->state = run.state;
	report->running = run.state == LX_RUN_RUNNING;
	report->state_why = run.why;
	report->found_by = run.source;
	run.why = NULL;
	lx_running_free(&run);
	lx_container_gpus(host, &cc, &report->access, &report->gpus);
	report->n_nodes = cc.n_grants;
	/* GPU lines in an included file (the include style): its binds. */
	for (size_t i = 0; cc.n_grants == 0 && i < report->access.n_nodes; i++) {
		const struct lx_access_node *n = &report->access.nodes[i];
		report->n_nodes += n->via == LX_VIA_BIND && lx_str_starts_with(n->host_path, "/dev/nvidia");
	}
	lx_container_config_free(&cc);
	lx_conf_free(&conf);
	return 0;
}

void lx_container_report_free(struct lx_container_report *report)
{
	lx_strv_free(&report->gpus);
	lx_access_free(&report->access);
	lx_running_devices_free(&report->devices);
	free(report->state_why);
	memset(report, 0, sizeof(*report));
}
