/* Another node's host model, judged: is it current (LXG180, LXG181), and
 * would a container keep its GPUs there (preflight CTID --to NODE)?
 * include/lxgpu/cluster.h. */
#include "lxgpu/cluster.h"
#include "lxgpu/predict.h"
#include "lxgpu/vm.h"

#include <dirent.h>
#include <string.h>

void lx_node_model_findings(const struct lx_node_model *m, const char *container,
			    const char *file, long long now, struct lx_findings *out)
{
	/* A snapshot handed over with --hosts is the admin's to date. */
	if (!m->have || m->from_hosts_dir)
		return;
	_cleanup_free_ char *desc = lx_node_model_describe(m, now);
	if (m->age == LX_MODEL_STALE)
		lx_findings_add(out, LXG180_MODEL_STALE, container, file, 0, NULL,
				lx_xasprintf("node %s has not published its host model since it "
					     "booted: %s; its GPUs, minors and majors may have changed",
					     m->node, desc),
				lx_xasprintf("on %s (lxgpu-publish.service does it at every boot): "
					     "`lxgpu publish`",
					     m->node));
	else if (m->age == LX_MODEL_UNDATED)
		/* Without the node's status a new publish is undated too. */
		lx_findings_add(out, LXG181_MODEL_UNDATED, container, file, 0, NULL,
				lx_xasprintf("cannot tell whether node %s's host model is from its "
					     "current boot: %s%s",
					     m->node, desc,
					     m->node_boot_time != LX_UNKNOWN
						     ? ""
						     : " (the cluster has no status of the node: it is "
						       "offline, or pvestatd does not run there)"),
				m->node_boot_time != LX_UNKNOWN
					? lx_xasprintf("on %s: `lxgpu publish`", m->node)
					: lx_xasprintf("by hand: bring node %s online with pvestatd running "
						       "(systemctl status pvestatd there), then on it: "
						       "`lxgpu publish`",
						       m->node));
}

static const struct lx_gpu *gpu_by_uuid(const struct lx_host *h, const char *uuid)
{
	for (size_t i = 0; uuid && i < h->n_gpus; i++)
		if (h->gpus[i].uuid && strcmp(h->gpus[i].uuid, uuid) == 0)
			return &h->gpus[i];
	return NULL;
}

static bool on_nvidia(const struct lx_gpu *g)
{
	return g->driver && strcmp(g->driver, "nvidia") == 0;
}

/* Findings a check of the config against the other node added: say where. */
static void mark_node(struct lx_findings *f, size_t from, const char *node)
{
	for (size_t i = from; i < f->n; i++) {
		char *m = lx_xasprintf("on node %s: %s", node, f->items[i].message);
		free(f->items[i].message);
		f->items[i].message = m;
	}
}

/* Containers of the target node (but this one) whose config names the GPU. */
static void other_containers(const struct lx_host *there, const char *lxc_dir, const char *self,
			     const char *bdf, struct lx_strv *ids)
{
	DIR *d = opendir(lxc_dir);
	struct dirent *de;
	struct lx_strv names = {0};
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && lx_str_ends_with(de->d_name, ".conf"))
			lx_strv_push_owned(&names, lx_xstrndup(de->d_name, strlen(de->d_name) - 5));
	if (d)
		closedir(d);
	lx_strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		if (strcmp(names.items[i], self) == 0)
			continue;
		_cleanup_free_ char *path = lx_xasprintf("%s/%s.conf", lxc_dir, names.items[i]);
		struct lx_conf conf;
		struct lx_error err = {0};
		if (lx_conf_load(path, &conf, &err) < 0) {
			lx_error_clear(&err);
			continue;
		}
		struct lx_container_config cc;
		lx_container_config_read(there, names.items[i], &conf, true, &cc);
		struct lx_access access;
		bool have_access = lx_access_compute(there, &conf, true, NULL, &access, &err) == 0;
		lx_error_clear(&err);
		struct lx_strv gpus = {0};
		lx_container_gpus(there, &cc, have_access ? &access : NULL, &gpus);
		if (lx_strv_contains(&gpus, bdf))
			lx_strv_push(ids, names.items[i]);
		lx_strv_free(&gpus);
		if (have_access)
			lx_access_free(&access);
		lx_container_config_free(&cc);
		lx_conf_free(&conf);
	}
	lx_strv_free(&names);
}

/* One GPU of the container: there, on nvidia, reached by the config, free. */
static void check_gpu(const struct lx_host *there, const char *id, const char *to,
		      size_t n_gpus, const struct lx_strv *reached_there, const struct lx_vm_devices *vms,
		      const char *lxc_dir, bool exclusive, struct lx_migration_gpu *mg,
		      struct lx_findings *f)
{
	const struct lx_gpu *tg = lx_host_find_gpu_by_bdf(there, mg->bdf);
	if (!tg)
		tg = gpu_by_uuid(there, mg->uuid); /* the card itself moved to another slot */
	const char *what = mg->model ? mg->model : "unknown model";
	if (!tg) {
		size_t on_nvidia_there = 0;
		for (size_t i = 0; i < there->n_gpus; i++)
			on_nvidia_there += on_nvidia(&there->gpus[i]);
		lx_findings_add(f, LXG182_MIGRATE_GPU_ABSENT, id, NULL, 0, NULL,
				lx_xasprintf("GPU %s (%s%s%s) is not on node %s: no GPU there has that "
					     "PCI address%s",
					     mg->bdf, what, mg->uuid ? ", " : "", mg->uuid ? mg->uuid : "",
					     to, mg->uuid ? " or UUID" : ""),
				on_nvidia_there >= n_gpus
					? lx_xasprintf("after the move, on %s (GPUs of %s in place of the "
						       "container's): `lxgpu apply %s --gpus best:%zu`; or "
						       "migrate to a node that has GPU %s",
						       to, to, id, n_gpus, mg->bdf)
					: lx_xasprintf("by hand: migrate to a node that has GPU %s (%s has "
						       "%zu GPU%s on nvidia, the container %zu)",
						       mg->bdf, to, on_nvidia_there,
						       on_nvidia_there == 1 ? "" : "s", n_gpus));
		return;
	}
	mg->there_bdf = lx_xstrdup(tg->bdf);
	mg->there_minor = tg->minor;
	if (!on_nvidia(tg)) {
		lx_findings_add(f, LXG183_MIGRATE_GPU_NOT_NVIDIA, id, NULL, 0, NULL,
				lx_xasprintf("GPU %s is on node %s but bound to %s there, not to nvidia: "
					     "no /dev/nvidiaN drives it",
					     tg->bdf, to, tg->driver ? tg->driver : "no driver"),
				lx_xasprintf("bind it to nvidia on %s (a VM's GPU is bound to vfio-pci), "
					     "or migrate elsewhere",
					     to));
		return;
	}
	if (!lx_strv_contains(reached_there, tg->bdf)) {
		struct lx_buf others = {0};
		for (size_t i = 0; i < reached_there->n; i++)
			lx_buf_printf(&others, "%s%s", i ? ", " : "", reached_there->items[i]);
		lx_findings_add(f, LXG184_MIGRATE_OTHER_GPU, id, NULL, 0, NULL,
				lx_xasprintf("on node %s GPU %s is /dev/nvidia%d, which the config does "
					     "not give: there it reaches %s",
					     to, tg->bdf, tg->minor, others.len ? others.data : "no GPU"),
				lx_xasprintf("after the move, on %s: `lxgpu apply %s --gpus %s`; or "
					     "use devN entries by the same numbering on every node",
					     to, id, tg->bdf));
		lx_buf_free(&others);
	}
	for (size_t v = 0; v < vms->n; v++)
		if (lx_vm_device_matches(&vms->items[v], tg->bdf))
			lx_findings_add(f, LXG013_GPU_IN_VM, id, NULL, 0, NULL,
					lx_xasprintf("on node %s GPU %s is passed through to VM %s (%s, "
						     "%s:%d): whichever starts second fails or takes it "
						     "from the other",
						     to, tg->bdf, vms->items[v].vmid, vms->items[v].key,
						     vms->items[v].file, vms->items[v].line),
					lx_xasprintf("migrate to a node where the GPU is free, or remove "
						     "the hostpci entry of VM %s",
						     vms->items[v].vmid));
	if (!exclusive)
		return;
	struct lx_strv holders = {0};
	other_containers(there, lxc_dir, id, tg->bdf, &holders);
	for (size_t i = 0; i < holders.n; i++)
		lx_findings_add(f, LXG012_GPU_SHARED, id, NULL, 0, NULL,
				lx_xasprintf("on node %s GPU %s is given to container %s (--exclusive)",
					     to, tg->bdf, holders.items[i]),
				lx_xasprintf("migrate to a node where the GPU is free, or take it from "
					     "container %s",
					     holders.items[i]));
	lx_strv_free(&holders);
}

void lx_migration_check(const struct lx_host *here, const char *id, const struct lx_conf *conf,
			bool is_pve, int root_fd, const struct lx_access_options *aopts,
			const char *pve_dir, const char *to, const struct lx_node_model *there,
			bool exclusive, long long now, struct lx_migration *out)
{
	memset(out, 0, sizeof(*out));
	struct lx_findings *f = &out->findings;
	const struct lx_host *th = &there->host;
	lx_node_model_findings(there, id, NULL, now, f);

	/* Its GPUs here: what its effective access reaches and what its lines name. */
	struct lx_error err = {0};
	struct lx_access access_here;
	bool have_here = lx_access_compute(here, conf, is_pve, aopts, &access_here, &err) == 0;
	lx_error_clear(&err);
	struct lx_container_config cc_here;
	lx_container_config_read(here, id, conf, is_pve, &cc_here);
	struct lx_strv gpus_here = {0};
	lx_container_gpus(here, &cc_here, have_here ? &access_here : NULL, &gpus_here);

	/* The same config on the other node, judged by that node's model: its
	 * nodes, majors (a hand-written one that differs there) and devN. */
	struct lx_access_options there_opts;
	if (aopts)
		there_opts = *aopts;
	else
		lx_access_options_default(&there_opts);
	there_opts.cgroup = LX_CGROUP_UNKNOWN; /* the target's layout */
	struct lx_container_config cc_there;
	lx_container_config_read(th, id, conf, is_pve, &cc_there);
	struct lx_access access_there;
	struct lx_strv reached_there = {0};
	size_t from = f->n;
	if (lx_access_compute(th, conf, is_pve, &there_opts, &access_there, &err) == 0) {
		lx_verify_config(th, &cc_there, &access_there, f);
		lx_container_gpus(th, &cc_there, &access_there, &reached_there);
		lx_access_free(&access_there);
	} else {
		lx_findings_add(f, LXG023_WILL_NOT_START, id, NULL, 0, NULL, lx_xstrdup(err.message),
				NULL);
		lx_error_clear(&err);
	}
	/* Its userspace against the driver loaded there. */
	if (root_fd >= 0)
		lx_verify_rootfs(th, &cc_there, root_fd, f);
	mark_node(f, from, to);

	_cleanup_free_ char *qemu_dir = lx_xasprintf("%s/nodes/%s/qemu-server", pve_dir, to);
	_cleanup_free_ char *lxc_dir = lx_xasprintf("%s/nodes/%s/lxc", pve_dir, to);
	_cleanup_free_ char *mapping = lx_path_join(pve_dir, "mapping/pci.cfg");
	struct lx_vm_devices vms = {0};
	lx_vm_devices_read_mapped(qemu_dir, mapping, to, &vms);
	out->gpus = lx_xcalloc(gpus_here.n ? gpus_here.n : 1, sizeof(*out->gpus));
	for (size_t i = 0; i < gpus_here.n; i++) {
		const struct lx_gpu *g = lx_host_find_gpu_by_bdf(here, gpus_here.items[i]);
		struct lx_migration_gpu *mg = &out->gpus[out->n_gpus++];
		*mg = (struct lx_migration_gpu){.bdf = lx_xstrdup(gpus_here.items[i]),
						.uuid = g && g->uuid ? lx_xstrdup(g->uuid) : NULL,
						.model = g && g->model ? lx_xstrdup(g->model) : NULL,
						.there_minor = LX_UNKNOWN};
		check_gpu(th, id, to, gpus_here.n, &reached_there, &vms, lxc_dir, exclusive, mg, f);
	}
	lx_vm_devices_free(&vms);
	lx_strv_free(&reached_there);
	lx_container_config_free(&cc_there);
	lx_strv_free(&gpus_here);
	lx_container_config_free(&cc_here);
	if (have_here)
		lx_access_free(&access_here);
}

void lx_migration_free(struct lx_migration *m)
{
	for (size_t i = 0; i < m->n_gpus; i++) {
		free(m->gpus[i].bdf);
		free(m->gpus[i].uuid);
		free(m->gpus[i].model);
		free(m->gpus[i].there_bdf);
	}
	free(m->gpus);
	lx_findings_free(&m->findings);
	memset(m, 0, sizeof(*m));
}
