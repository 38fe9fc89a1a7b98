/* preflight of one container and of every GPU container of a host
 * (include/lxgpu/walk.h): its config, its driver libraries when its root
 * can be reached, the next start or boot, its include file. */
#include "lxgpu/incfile.h"
#include "lxgpu/walk.h"

#include <string.h>
#include <unistd.h>

/* 1 (nothing in out) when gpus_only and the config has neither GPU lines
 * nor an lxgpu include file; -1 when it cannot be read. */
static int preflight_one(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			 const struct lx_preflight_options *o, bool gpus_only,
			 struct lx_preflight *out, struct lx_error *err)
{
	struct lx_conf conf;
	if (lx_conf_load(path, &conf, err) < 0)
		return -1;
	struct lx_container_config cc;
	lx_container_config_read(host, id, &conf, is_pve, &cc);
	if (gpus_only && cc.n_grants == 0 && !lx_incfile_find_line(&conf, o->state_dir)) {
		lx_container_config_free(&cc);
		lx_conf_free(&conf);
		return 1;
	}
	struct lx_strv versions = {0}, files = {0};
	struct lx_running run;
	lx_container_find(o->runtime, host->cgroup, id, &run);
	_cleanup_free_ char *why = NULL;
	int root_fd = lx_container_open_root_why(o->runtime, id, &conf, &run, &why);
	lx_running_free(&run);
	if (root_fd >= 0) {
		lx_rootfs_driver_versions(root_fd, &versions, &files);
		close(root_fd);
	}
	if (o->next_boot) {
		lx_preflight_next_boot(host, &cc, root_fd >= 0 ? &versions : NULL, o->next_boot, out);
	} else {
		struct lx_access_options aopts;
		lx_access_options_default(&aopts);
		if (o->runtime->lxc_config_dir)
			aopts.lxc_config_dir = o->runtime->lxc_config_dir;
		aopts.subid_root = o->runtime->subid_root;
		aopts.tools_root = o->runtime->subid_root; /* NVIDIA's hook: the same host root */
		aopts.shared = o->runtime->lxc_files;
		lx_preflight_next_start(host, &cc, root_fd >= 0 ? &versions : NULL, &aopts, out);
	}
	/* Its driver libraries are unknown: said, never a silent pass. */
	if (why && lx_rootfs_matters(host, &cc)) {
		/* verify's finding (a warning), and the start itself is ok */
		struct lx_findings f = {0};
		lx_findings_add(&f, LXG027_ROOT_UNCHECKED, id, NULL, 0, NULL, lx_xstrdup(why),
				lx_xasprintf("mount its root, check it, unmount it: `pct mount %s`, then "
					     "`lxgpu preflight %s`, then `pct unmount %s`",
					     id, id, id));
		lx_preflight_add_finding(out, &f.items[0], LX_VERDICT_OK);
		lx_findings_free(&f);
	}
	lx_preflight_include(host, o->nodes, id, &conf, o->state_dir, o->next_boot, out);
	lx_strv_free(&versions);
	lx_strv_free(&files);
	lx_container_config_free(&cc);
	lx_conf_free(&conf);
	return 0;
}

int lx_preflight_container(const struct lx_host *host, const char *id, const char *path,
			   bool is_pve, const struct lx_preflight_options *o,
			   struct lx_preflight *out, struct lx_error *err)
{
	return preflight_one(host, id, path, is_pve, o, false, out, err) < 0 ? -1 : 0;
}

struct walk {
	const struct lx_host *host;
	const struct lx_preflight_options *o;
};

static void walk_entry(void *ctx, const struct lx_container_entry *e)
{
	const struct walk *w = ctx;
	struct lx_preflight p;
	struct lx_error err = {0};
	int rc = preflight_one(w->host, e->id, e->path, e->is_pve, w->o, true, &p, &err);
	if (rc == 1)
		return; /* not a GPU container */
	struct lx_preflight_container c = {
		.id = e->id,
		.path = e->path,
		.preflight = rc == 0 ? &p : NULL,
		.error = rc < 0 ? &err : NULL,
	};
	w->o->container(w->o->ctx, &c);
	if (rc == 0)
		lx_preflight_free(&p);
	lx_error_clear(&err);
}

void lx_preflight_walk(const struct lx_host *host, const char *pve_dir, const char *lxc_path,
		       const struct lx_preflight_options *o)
{
	_cleanup_free_ char *pve_lxc = lx_path_join(pve_dir, "lxc");
	/* What every container's preflight shares, found or read once: which
	 * containers run, LXC's shared config files, storage.cfg. */
	struct lx_runtime_paths rt = *o->runtime;
	struct lx_preflight_options shared = *o;
	struct lx_running_index running;
	struct lx_lxc_files lxc_files = {0};
	struct lx_storage_cfg storage_cfg = {0};
	lx_running_index_build(o->runtime, host->cgroup, &running);
	rt.running = &running;
	rt.lxc_files = &lxc_files;
	rt.storage_cfg = &storage_cfg;
	shared.runtime = &rt;
	struct walk w = {host, &shared};
	lx_containers_each(pve_lxc, lxc_path, walk_entry, &w);
	lx_running_index_free(&running);
	lx_lxc_files_free(&lxc_files);
	lx_storage_cfg_free(&storage_cfg);
}
