/* audit: every container of the host or cluster, one at a time
 * (include/lxgpu/audit.h). */
#include "lxgpu/audit.h"
#include "lxgpu/cluster.h"
#include "lxgpu/predict.h"
#include "lxgpu/walk.h"
#include "lxgpu/vm.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const status_names[LX_AUDIT_N_STATUS] = {"error", "warning", "unknown", "ok",
							      "no_gpus"};

const char *lx_audit_status_name(enum lx_audit_status s)
{
	return s < LX_AUDIT_N_STATUS ? status_names[s] : "?";
}

struct gpu_owner {
	char *bdf;
	char *container;
};

/* One Proxmox node (or the plain LXC host). */
struct node {
	char *name;
	bool local;
	const struct lx_host *host; /* NULL: lxgpu has no model of it */
	struct lx_node_model model; /* another node's, holding its host */
	struct gpu_owner *owners;
	size_t n_owners;
	struct gpu_owner *mig_owners; /* bdf holds "BDF:giX/ciY" */
	size_t n_mig_owners;
	struct lx_vm_devices vms; /* hostpciN entries of the node's VMs */
	/* About its host model (stale, undated): told for each GPU container. */
	struct lx_findings model_findings;
};

struct audit {
	const struct lx_audit_options *o;
	struct lx_audit_totals *totals;
	/* o->runtime with what the whole run shares: which containers run on
	 * this node (found once), LXC's shared config files and storage.cfg
	 * (read once). */
	struct lx_runtime_paths local_rt;
	/* Another node's containers run there, not here: never looked up. */
	struct lx_runtime_paths remote_rt;
};

static void node_free(struct node *n)
{
	free(n->name);
	lx_node_model_free(&n->model);
	for (size_t i = 0; i < n->n_owners; i++) {
		free(n->owners[i].bdf);
		free(n->owners[i].container);
	}
	free(n->owners);
	for (size_t i = 0; i < n->n_mig_owners; i++) {
		free(n->mig_owners[i].bdf);
		free(n->mig_owners[i].container);
	}
	free(n->mig_owners);
	lx_vm_devices_free(&n->vms);
	lx_findings_free(&n->model_findings);
}

/* The VMs of a node, hostpciN mappings resolved by its own map line. */
static void node_read_vms(struct node *n, const char *pve_dir, const char *qemu_dir)
{
	_cleanup_free_ char *mapping = lx_path_join(pve_dir, "mapping/pci.cfg");
	lx_vm_devices_read_mapped(qemu_dir, mapping, n->name, &n->vms);
}

/* ---- conflicts between guests ---- */

/* Two containers on one MIG instance share it (its memory and compute
 * slices): whatever isolation MIG gives is between instances, not between
 * the containers of one. Always said, --exclusive or not. */
static void check_mig_shared(struct node *n, const char *id, const struct lx_container_report *rep,
			     struct lx_findings *f)
{
	for (size_t i = 0; i < rep->migs.n; i++) {
		const char *inst = rep->migs.items[i];
		const struct gpu_owner *owner = NULL;
		for (size_t o = 0; o < n->n_mig_owners && !owner; o++)
			if (strcmp(n->mig_owners[o].bdf, inst) == 0 &&
			    strcmp(n->mig_owners[o].container, id) != 0)
				owner = &n->mig_owners[o];
		if (owner) {
			lx_findings_add(f, LXG051_MIG_SHARED, id, NULL, 0, NULL,
					lx_xasprintf("MIG instance %s is also given to container %s: "
						     "the two share it, they are not isolated from "
						     "each other",
						     inst, owner->container),
					lx_xasprintf("by hand: give each container its own instance, "
						     "one no other container has (scan lists them): "
						     "`lxgpu apply %s --gpus INDEX:giX/ciY`",
						     id));
			continue;
		}
		n->mig_owners = lx_xrealloc(n->mig_owners, (n->n_mig_owners + 1) * sizeof(*n->mig_owners));
		n->mig_owners[n->n_mig_owners++] = (struct gpu_owner){lx_xstrdup(inst), lx_xstrdup(id)};
	}
}

static void check_conflicts(const struct audit *a, struct node *n, const char *id,
			    const struct lx_container_report *rep, struct lx_findings *f)
{
	check_mig_shared(n, id, rep, f);
	lx_vm_gpu_findings(&n->vms, id, &rep->gpus, f);
	for (size_t i = 0; i < rep->gpus.n; i++) {
		const char *bdf = rep->gpus.items[i];
		if (!a->o->exclusive)
			continue;
		const struct gpu_owner *owner = NULL;
		for (size_t o = 0; o < n->n_owners && !owner; o++)
			if (strcmp(n->owners[o].bdf, bdf) == 0)
				owner = &n->owners[o];
		if (owner) {
			lx_findings_add(f, LXG012_GPU_SHARED, id, NULL, 0, NULL,
					lx_xasprintf("GPU %s is also given to container %s (--exclusive)",
						     bdf, owner->container),
					lx_xasprintf("by hand: give each container its own GPUs, ones "
						     "no other container has: `lxgpu apply %s --gpus GPUS`",
						     id));
			continue;
		}
		n->owners = lx_xrealloc(n->owners, (n->n_owners + 1) * sizeof(*n->owners));
		n->owners[n->n_owners++] = (struct gpu_owner){lx_xstrdup(bdf), lx_xstrdup(id)};
	}
}

/* ---- status ---- */

/* The worst finding decides; without one, a container whose GPU lines
 * could not be checked (no host model of its node) is "unknown". */
static enum lx_audit_status status_of(const struct lx_findings *f, bool has_gpus, bool gpus_known)
{
	enum lx_severity worst = LX_SEVERITY_INFO;
	for (size_t i = 0; i < f->n; i++)
		if (f->items[i].severity > worst)
			worst = f->items[i].severity;
	if (worst == LX_SEVERITY_ERROR)
		return LX_AUDIT_ERROR;
	if (worst == LX_SEVERITY_WARNING)
		return LX_AUDIT_WARNING;
	if (!has_gpus)
		return LX_AUDIT_NO_GPUS;
	return gpus_known ? LX_AUDIT_OK : LX_AUDIT_UNKNOWN;
}

/* Count the container and hand it over. */
static void hand_over(const struct audit *a, const struct node *n, const char *id,
		      const char *path, const struct lx_container_report *rep,
		      const struct lx_findings *f)
{
	struct lx_audit_container c = {
		.id = id,
		.path = path,
		.node = n->name,
		.name = rep->hostname,
		.local = n->local,
		.gpus_known = n->host != NULL,
		.has_gpus = rep->n_nodes > 0,
		.state = rep->state,
		.gpus = &rep->gpus,
		.findings = f,
	};
	c.status = status_of(f, c.has_gpus, c.gpus_known);
	struct lx_audit_totals *t = a->totals;
	t->containers++;
	t->by_status[c.status]++;
	for (size_t i = 0; i < f->n; i++)
		t->by_severity[f->items[i].severity]++;
	if (a->o->container)
		a->o->container(a->o->ctx, &c);
}

/* A container of a node lxgpu has no model of: only whether it has GPU
 * lines, and the lines Proxmox cannot parse. */
static void check_without_model(const struct node *n, const char *id, const char *path,
				bool is_pve, struct lx_container_report *rep,
				struct lx_findings *f, struct lx_error *err)
{
	struct lx_conf conf;
	if (lx_conf_load(path, &conf, err) < 0)
		return;
	const char *hostname = lx_conf_hostname(&conf);
	rep->hostname = hostname ? lx_xstrdup(hostname) : NULL;
	struct lx_host empty = {0};
	struct lx_container_config cc;
	lx_container_config_read(&empty, id, &conf, is_pve, &cc);
	lx_verify_config_lines(&cc, f);
	rep->n_nodes = cc.n_grants;
	/* NVIDIA's hook gives GPUs without a GPU line: how many, only the
	 * node's model could say. */
	if (!rep->n_nodes && lx_conf_runs_nvhook(&conf))
		rep->n_nodes = 1;
	if (rep->n_nodes)
		lx_findings_add(f, LXG021_NO_HOST_MODEL, id, path, 0, NULL,
				lx_xasprintf("a GPU container on node %s, which lxgpu has no host "
					     "model of",
					     n->name),
				lx_xasprintf("on %s (or pass its snapshot with --hosts DIR): "
					     "`lxgpu publish`",
					     n->name));
	lx_container_config_free(&cc);
	lx_conf_free(&conf);
}

static void audit_one(const struct audit *a, struct node *n, const char *id, const char *path,
		      bool is_pve)
{
	const struct lx_audit_options *o = a->o;
	struct lx_findings f = {0};
	struct lx_container_report rep = {0};
	struct lx_error err = {0};
	if (!n->host) {
		check_without_model(n, id, path, is_pve, &rep, &f, &err);
	} else {
		/* read once for every check of it */
		struct lx_conf conf = {0};
		if (lx_conf_load(path, &conf, &err) == 0 &&
		    lx_verify_container_conf(n->host, id, &conf, is_pve,
					     n->local ? &a->local_rt : &a->remote_rt, &f, &rep, &err) == 0) {
			/* lxgpu's include files and records are this node's */
			if (n->local)
				lx_verify_include_conf(n->host, o->nodes, id, &conf, o->state_dir, &f);
			if (!n->local) {
				rep.running = false;
				rep.state = LX_RUN_STOPPED;
			}
			check_conflicts(a, n, id, &rep, &f);
		}
		lx_conf_free(&conf);
	}
	for (size_t i = 0; rep.n_nodes && i < n->model_findings.n; i++) {
		const struct lx_finding *m = &n->model_findings.items[i];
		lx_findings_add(&f, m->code, id, path, 0, NULL, lx_xstrdup(m->message),
				m->fix ? lx_xstrdup(m->fix) : NULL);
		lx_findings_last_severity(&f, m->severity);
	}
	if (err.message) {
		lx_findings_add(&f, LXG021_NO_HOST_MODEL, id, path, 0, NULL,
				lx_xasprintf("cannot read the config: %s", err.message), NULL);
		lx_findings_last_severity(&f, LX_SEVERITY_ERROR);
		lx_error_clear(&err);
	}
	hand_over(a, n, id, path, &rep, &f);
	lx_container_report_free(&rep);
	lx_findings_free(&f);
}

struct audit_node {
	const struct audit *a;
	struct node *n;
};

static void audit_entry(void *ctx, const struct lx_container_entry *c)
{
	struct audit_node *an = ctx;
	audit_one(an->a, an->n, c->id, c->path, c->is_pve);
}

/* The node's containers: those of pve_lxc_dir, and of lxc_path (may be NULL). */
static void audit_containers(const struct audit *a, struct node *n, const char *pve_lxc_dir,
			     const char *lxc_path)
{
	struct audit_node an = {a, n};
	lx_containers_each(pve_lxc_dir, lxc_path, audit_entry, &an);
}

char *lx_audit_local_node(const char *pve_dir, const struct lx_host *host)
{
	_cleanup_free_ char *lxc = lx_path_join(pve_dir, "lxc");
	char resolved[PATH_MAX];
	if (realpath(lxc, resolved)) {
		char *end = strstr(resolved, "/lxc");
		char *start = end ? end : NULL;
		while (start && start > resolved && start[-1] != '/')
			start--;
		if (end && start && lx_str_ends_with(resolved, "/lxc") && strstr(resolved, "/nodes/"))
			return lx_xstrndup(start, (size_t)(end - start));
	}
	return lx_xstrdup(host->hostname ? host->hostname : "localhost");
}

/* Another node, with the host model it published (or the one --hosts DIR
 * holds); a model that does not load is warned about. */
static void node_load_model(const struct audit *a, struct node *n)
{
	const struct lx_audit_options *o = a->o;
	struct lx_error err = {0};
	if (lx_node_model_load(o->pve_dir, o->hosts_dir, n->name, &n->model, &err) < 0) {
		if (o->warn) {
			_cleanup_free_ char *message =
				lx_xasprintf("%s (node %s is audited without it)", err.message, n->name);
			o->warn(o->ctx, message);
		}
		lx_error_clear(&err);
	} else if (n->model.have) {
		lx_node_model_findings(&n->model, NULL, NULL, o->now, &n->model_findings);
		n->host = &n->model.host;
	}
}

/* The other nodes of the cluster, by name. */
static void audit_cluster(const struct audit *a, const char *local_node)
{
	const struct lx_audit_options *o = a->o;
	_cleanup_free_ char *nodes_dir = lx_path_join(o->pve_dir, "nodes");
	struct lx_strv names = {0};
	DIR *d = opendir(nodes_dir);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && strcmp(de->d_name, local_node) != 0)
			lx_strv_push(&names, de->d_name);
	if (d)
		closedir(d);
	lx_strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		struct node n = {.name = lx_xstrdup(names.items[i])};
		node_load_model(a, &n);
		_cleanup_free_ char *node_dir = lx_xasprintf("%s/%s", nodes_dir, n.name);
		_cleanup_free_ char *qemu = lx_path_join(node_dir, "qemu-server");
		_cleanup_free_ char *lxc = lx_path_join(node_dir, "lxc");
		node_read_vms(&n, o->pve_dir, qemu);
		audit_containers(a, &n, lxc, NULL);
		node_free(&n);
	}
	lx_strv_free(&names);
}

void lx_audit_run(const struct lx_host *host, const char *local_node,
		  const struct lx_audit_options *o, struct lx_audit_totals *totals)
{
	memset(totals, 0, sizeof(*totals));
	struct audit a = {.o = o, .totals = totals, .local_rt = *o->runtime};
	struct lx_running_index running, elsewhere = {.elsewhere = true};
	struct lx_lxc_files lxc_files = {0};
	struct lx_storage_cfg storage_cfg = {0};
	lx_running_index_build(o->runtime, host->cgroup, &running);
	a.local_rt.running = &running;
	a.local_rt.lxc_files = &lxc_files;
	a.local_rt.storage_cfg = &storage_cfg;
	a.remote_rt = a.local_rt;
	a.remote_rt.running = &elsewhere;
	struct node local = {.name = lx_xstrdup(local_node), .local = true, .host = host};
	_cleanup_free_ char *qemu = lx_path_join(o->pve_dir, "qemu-server");
	_cleanup_free_ char *pve_lxc = lx_path_join(o->pve_dir, "lxc");
	node_read_vms(&local, o->pve_dir, qemu);
	audit_containers(&a, &local, pve_lxc, o->lxc_path);
	node_free(&local);
	if (o->cluster)
		audit_cluster(&a, local_node);
	lx_running_index_free(&running);
	lx_lxc_files_free(&lxc_files);
	lx_storage_cfg_free(&storage_cfg);
}

static void hold(void *ctx, const struct lx_audit_container *c)
{
	struct lx_gpu_holders *out = ctx;
	for (size_t i = 0; i < c->gpus->n; i++)
		lx_gpu_holders_add(out, c->gpus->items[i], c->id, c->name,
				   c->local ? lx_run_state_name(c->state) : NULL);
}

void lx_audit_gpu_holders(const struct lx_host *host, const char *local_node,
			  const struct lx_audit_options *o, struct lx_gpu_holders *out)
{
	struct lx_audit_options mine = *o;
	mine.container = hold;
	mine.ctx = out;
	mine.cluster = false;
	struct lx_audit_totals totals;
	lx_audit_run(host, local_node, &mine, &totals);
}
