/* The device plan: which nodes a container gets, and how each is granted. */
#include "lxgpu/plan.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define PVE_MAX_DEV_INDEX 255

static const char *const role_names[] = {
	[LX_ROLE_GPU] = "gpu",         [LX_ROLE_CONTROL] = "control",
	[LX_ROLE_UVM] = "uvm",         [LX_ROLE_UVM_TOOLS] = "uvm-tools",
	[LX_ROLE_MODESET] = "modeset", [LX_ROLE_CAP] = "cap",
	[LX_ROLE_DRI_CARD] = "dri-card", [LX_ROLE_DRI_RENDER] = "dri-render",
	[LX_ROLE_KFD] = "kfd",
};

const char *lx_node_role_name(enum lx_node_role role)
{
	return role_names[role];
}

const char *lx_plan_cgroup_key(const struct lx_plan *plan)
{
	return plan->cgroup_keys == LX_CGROUP_V1 ? "lxc.cgroup.devices.allow"
						 : "lxc.cgroup2.devices.allow";
}

void lx_plan_options_default(struct lx_plan_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->style = LX_STYLE_DEVN;
	opts->mode = -1;
	opts->uid = opts->gid = -1;
	opts->cgroup = LX_CGROUP_UNKNOWN;
	opts->render_gid = opts->video_gid = -1;
}

/* ---- selection ---- */

static bool on_nvidia(const struct lx_gpu *g)
{
	return g->driver && strcmp(g->driver, "nvidia") == 0;
}

static char *gpu_listing(const struct lx_host *host)
{
	struct lx_buf b = {0};
	lx_buf_puts(&b, "GPUs on this host:");
	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		lx_buf_printf(&b, " %zu (%s, %s)%s", i, g->bdf, g->driver ? g->driver : "no driver",
			      i + 1 < host->n_gpus ? "," : "");
	}
	if (host->n_gpus == 0)
		lx_buf_puts(&b, " none");
	return lx_buf_steal(&b);
}

static int selection_error(const struct lx_host *host, struct lx_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int selection_error(const struct lx_host *host, struct lx_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = lx_xvasprintf(fmt, ap);
	va_end(ap);
	_cleanup_free_ char *listing = gpu_listing(host);
	return lx_error_set(err, "--gpus: %s; %s", msg, listing);
}

static void add_index(size_t **out, size_t *n, size_t index)
{
	for (size_t i = 0; i < *n; i++)
		if ((*out)[i] == index)
			return;
	*out = lx_xrealloc(*out, (*n + 1) * sizeof(**out));
	(*out)[(*n)++] = index;
}

static int select_one(const struct lx_host *host, const char *token, size_t **out, size_t *n,
		      struct lx_error *err)
{
	unsigned long long v;
	if (lx_str_starts_with(token, "best:")) {
		/* The N GPUs with the closest links (lxgpu topo). */
		if (!lx_parse_uint(token + 5, 10, 1024, &v) || v == 0)
			return selection_error(host, err, "'%s': best:N needs a number of GPUs", token);
		size_t *best;
		if (lx_topo_best(host, (size_t)v, &best, err) < 0) {
			_cleanup_free_ char *why = lx_xstrdup(err->message);
			return selection_error(host, err, "%s", why);
		}
		for (size_t i = 0; i < (size_t)v; i++)
			add_index(out, n, best[i]);
		free(best);
		return 0;
	}
	if (lx_str_starts_with(token, "numa:")) {
		if (!lx_parse_uint(token + 5, 10, 65535, &v))
			return selection_error(host, err, "'%s': NUMA node must be a number", token);
		size_t before = *n;
		for (size_t i = 0; i < host->n_gpus; i++)
			if (on_nvidia(&host->gpus[i]) && host->gpus[i].numa_node == (int)v)
				add_index(out, n, i);
		if (*n == before)
			return selection_error(host, err, "no GPU bound to nvidia on NUMA node %llu", v);
		return 0;
	}
	size_t index = host->n_gpus;
	if (lx_parse_uint(token, 10, 1000000, &v)) {
		index = (size_t)v;
		if (index >= host->n_gpus)
			return selection_error(host, err, "there is no GPU %s", token);
	} else if (strncasecmp(token, "GPU-", 4) == 0) {
		for (size_t i = 0; i < host->n_gpus; i++)
			if (host->gpus[i].uuid && strcasecmp(host->gpus[i].uuid, token) == 0)
				index = i;
		if (index == host->n_gpus)
			return selection_error(host, err, "no GPU has UUID %s", token);
	} else if (strchr(token, ':')) {
		const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, token);
		if (!g)
			return selection_error(host, err, "no GPU at PCI address %s", token);
		index = (size_t)(g - host->gpus);
	} else {
		return selection_error(host, err,
				       "'%s' is not a GPU: use all, indexes (0,2), a PCI address, "
				       "GPU-<uuid>, numa:N or best:N",
				       token);
	}
	const struct lx_gpu *g = &host->gpus[index];
	if (!lx_gpu_usable(g))
		return selection_error(host, err,
				       "GPU %zu (%s) is bound to %s, not nvidia, i915, xe or amdgpu%s",
				       index, g->bdf,
				       g->driver ? g->driver : "no driver",
				       g->driver && strcmp(g->driver, "vfio-pci") == 0
					       ? " (passed through to a VM)"
					       : "");
	add_index(out, n, index);
	return 0;
}

static int compare_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

static char *instance_listing(const struct lx_host *host, const struct lx_gpu *g)
{
	struct lx_buf b = {0};
	for (size_t c = 0; c < host->n_caps; c++) {
		struct lx_mig_ref r = lx_mig_ref_of_name(host->caps[c].name);
		if (r.kind == LX_MIG_CI && r.gpu_minor == g->minor)
			lx_buf_printf(&b, "%sgi%d/ci%d", b.len ? ", " : "", r.gi, r.ci);
	}
	if (!b.len)
		lx_buf_puts(&b, "none");
	return lx_buf_steal(&b);
}

static char *uuid_listing(const struct lx_host *host)
{
	/* A few, to spot a typo; a host of 8 GPUs can have 56. */
	enum { SHOWN = 8 };
	struct lx_buf b = {0};
	for (size_t i = 0; i < host->n_mig_uuids && i < SHOWN; i++)
		lx_buf_printf(&b, "%s%s (%zu:gi%d/ci%d)", b.len ? ", " : "", host->mig_uuids[i].uuid,
			      host->mig_uuids[i].gpu, host->mig_uuids[i].gi, host->mig_uuids[i].ci);
	if (host->n_mig_uuids > SHOWN)
		lx_buf_printf(&b, " and %zu more", host->n_mig_uuids - SHOWN);
	return b.len ? lx_buf_steal(&b) : NULL;
}

/* A MIG UUID -> its GPU and instance: the old form names them itself, the
 * new one is looked up in what the scan recorded from nvidia-smi. */
static int mig_of_uuid(const struct lx_host *host, const char *token, size_t *index, int *gi,
		       int *ci, struct lx_error *err)
{
	switch (lx_host_mig_by_uuid(host, token, index, gi, ci)) {
	case LX_MIG_FOUND: return 0;
	case LX_MIG_UNKNOWN_GPU:
		return selection_error(host, err, "'%s': no GPU has the UUID it names", token);
	case LX_MIG_MALFORMED:
		return selection_error(host, err,
				       "'%s' is not a MIG UUID: write it as nvidia-smi -L prints it "
				       "(MIG-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, or "
				       "MIG-GPU-<uuid>/<gi>/<ci> from drivers before R470)",
				       token);
	case LX_MIG_UNKNOWN_UUID: break;
	}
	_cleanup_free_ char *known = uuid_listing(host);
	if (known)
		return selection_error(host, err,
				       "no MIG device has UUID %s (the host's, as nvidia-smi named "
				       "them at the scan: %s); list them with nvidia-smi -L, or give "
				       "the instance as GPU:giX/ciY (nvidia-smi mig -lci)",
				       token, known);
	return selection_error(host, err,
			       "no MIG device has UUID %s: the host model records no MIG UUIDs "
			       "(a live scan asks nvidia-smi for them when --gpus names one; a "
			       "snapshot has them when taken with --mig-uuids); list them with "
			       "nvidia-smi -L, or give the instance as GPU:giX/ciY (nvidia-smi mig "
			       "-lci prints both IDs)",
			       token);
}

/* "<gpu>:gi<X>/ci<Y>" or a MIG UUID: a MIG instance, which must exist now
 * (its GI and CI access files: what Incus checks before it gives one). */
static int select_mig(const struct lx_host *host, const char *token, size_t **gpus,
		      size_t *n_gpus, struct lx_mig_sel **migs, size_t *n_migs,
		      struct lx_error *err)
{
	size_t index;
	int gi, ci;
	if (strncasecmp(token, "MIG-", 4) == 0) {
		if (mig_of_uuid(host, token, &index, &gi, &ci, err) < 0)
			return -1;
		if (!lx_gpu_usable(&host->gpus[index]))
			return selection_error(host, err, "'%s' is on GPU %zu (%s), which is bound "
					       "to %s, not nvidia", token, index, host->gpus[index].bdf,
					       host->gpus[index].driver ? host->gpus[index].driver
									: "no driver");
	} else {
		const char *at = NULL;
		for (const char *p = strstr(token, ":gi"); p; p = strstr(p + 1, ":gi"))
			at = p;
		_cleanup_free_ char *gpu_part = lx_xstrndup(token, (size_t)(at - token));
		/* The driver's own spelling below gpuN/mig/ is "giX/ciY": one parser. */
		_cleanup_free_ char *as_name = lx_xasprintf("gpu0/mig/%s", at + 1);
		struct lx_mig_ref asked = lx_mig_ref_of_name(as_name);
		if (asked.kind != LX_MIG_CI)
			return selection_error(host, err,
					       "'%s' is not a MIG instance: write GPU:giX/ciY (\"0:gi1/ci0\"; "
					       "both IDs as nvidia-smi mig -lci prints them)",
					       token);
		gi = asked.gi, ci = asked.ci;
		size_t *one = NULL, n_one = 0;
		if (select_one(host, gpu_part, &one, &n_one, err) < 0)
			return -1;
		index = one[0];
		free(one);
	}
	const struct lx_gpu *g = &host->gpus[index];
	if (g->minor == LX_UNKNOWN)
		return selection_error(host, err,
				       "GPU %zu (%s): the driver does not say its Device Minor, which "
				       "names its MIG instances (capabilities/gpuN)",
				       index, g->bdf);
	struct lx_mig_ref want = {LX_MIG_CI, g->minor, gi, ci};
	_cleanup_free_ char *ci_name = lx_mig_ref_name(&want);
	want.kind = LX_MIG_GI;
	_cleanup_free_ char *gi_name = lx_mig_ref_name(&want);
	if (!lx_host_find_cap(host, ci_name) || !lx_host_find_cap(host, gi_name)) {
		_cleanup_free_ char *have = instance_listing(host, g);
		return selection_error(host, err,
				       "GPU %zu (%s) has no MIG instance gi%d/ci%d now (no "
				       "/proc/driver/nvidia/capabilities/%s/access); its instances: %s",
				       index, g->bdf, gi, ci, ci_name, have);
	}
	for (size_t i = 0; i < *n_migs; i++)
		if ((*migs)[i].gpu == index && (*migs)[i].gi == gi && (*migs)[i].ci == ci)
			return 0;
	*migs = lx_xrealloc(*migs, (*n_migs + 1) * sizeof(**migs));
	(*migs)[(*n_migs)++] = (struct lx_mig_sel){index, gi, ci};
	add_index(gpus, n_gpus, index);
	return 0;
}

static bool is_mig_token(const char *tok)
{
	return strncasecmp(tok, "MIG-", 4) == 0 || strstr(tok, ":gi") != NULL;
}

static int compare_mig(const void *a, const void *b)
{
	const struct lx_mig_sel *x = a, *y = b;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	if (x->gi != y->gi)
		return x->gi < y->gi ? -1 : 1;
	return (x->ci > y->ci) - (x->ci < y->ci);
}

int lx_select_with_mig(const struct lx_host *host, const char *spec, size_t **out, size_t *n,
		       struct lx_mig_sel **migs, size_t *n_migs, struct lx_error *err)
{
	*out = NULL;
	*n = 0;
	*migs = NULL;
	*n_migs = 0;
	if (!spec || strcmp(spec, "all") == 0) {
		for (size_t i = 0; i < host->n_gpus; i++)
			if (on_nvidia(&host->gpus[i]))
				add_index(out, n, i);
		/* An Intel or AMD host: its DRM GPUs. With NVIDIA's there, an
		 * iGPU joins only when asked for by index or address. */
		for (size_t i = 0; *n == 0 && i < host->n_gpus; i++)
			if (lx_gpu_kind(&host->gpus[i]) == LX_GPU_DRM)
				add_index(out, n, i);
		if (*n == 0)
			return selection_error(host, err, "no GPU is bound to nvidia, i915, xe or amdgpu");
		return 0;
	}
	_cleanup_free_ char *copy = lx_xstrdup(spec);
	size_t *whole = NULL, n_whole = 0;
	char *save = NULL;
	int rc = 0;
	for (char *tok = strtok_r(copy, ",", &save); rc == 0 && tok; tok = strtok_r(NULL, ",", &save)) {
		lx_str_strip(tok);
		if (strcmp(tok, "all") == 0)
			rc = selection_error(host, err, "'all' cannot be combined with other GPUs");
		else if (is_mig_token(tok))
			rc = select_mig(host, tok, out, n, migs, n_migs, err);
		else if ((rc = select_one(host, tok, &whole, &n_whole, err)) == 0)
			for (size_t i = 0; i < n_whole; i++)
				add_index(out, n, whole[i]);
	}
	/* A whole GPU reaches every instance on it: naming one of its
	 * instances too says the user meant something else. */
	for (size_t i = 0; rc == 0 && i < n_whole; i++)
		for (size_t m = 0; rc == 0 && m < *n_migs; m++)
			if ((*migs)[m].gpu == whole[i])
				rc = selection_error(host, err,
						     "GPU %zu is selected whole and by its MIG instance "
						     "gi%d/ci%d: give either the GPU or its instances",
						     whole[i], (*migs)[m].gi, (*migs)[m].ci);
	free(whole);
	if (rc == 0 && *n == 0)
		rc = selection_error(host, err, "empty selection '%s'", spec);
	if (rc < 0) {
		free(*out);
		free(*migs);
		*out = NULL;
		*migs = NULL;
		*n = *n_migs = 0;
		return -1;
	}
	qsort(*out, *n, sizeof(**out), compare_size);
	if (*n_migs > 1)
		qsort(*migs, *n_migs, sizeof(**migs), compare_mig);
	return 0;
}

int lx_select_gpus(const struct lx_host *host, const char *spec, size_t **out, size_t *n,
		   struct lx_error *err)
{
	struct lx_mig_sel *migs;
	size_t n_migs;
	int rc = lx_select_with_mig(host, spec, out, n, &migs, &n_migs, err);
	free(migs);
	return rc;
}

bool lx_plan_gpu_is_mig_only(const struct lx_plan *plan, size_t gpu)
{
	for (size_t i = 0; i < plan->n_migs; i++)
		if (plan->migs[i].gpu == gpu)
			return true;
	return false;
}

/* ---- the plan ---- */

struct planner {
	const struct lx_host *host;
	const struct lx_plan_options *opts;
	struct lx_plan *plan;
	struct lx_error *err;
	bool drm_group_warned;
};

static void plan_warn(struct lx_plan *plan, char *message, char *fix)
{
	struct lx_host_warnings *w = &plan->warnings;
	w->items = lx_xrealloc(w->items, (w->n + 1) * sizeof(*w->items));
	w->items[w->n].message = message;
	w->items[w->n].fix = fix;
	w->n++;
}

static const char *major_name_for_role(const struct lx_host *host, enum lx_node_role role)
{
	switch (role) {
	case LX_ROLE_UVM:
	case LX_ROLE_UVM_TOOLS: return "nvidia-uvm";
	case LX_ROLE_CAP: return "nvidia-caps";
	case LX_ROLE_DRI_CARD:
	case LX_ROLE_DRI_RENDER: return "drm";
	case LX_ROLE_KFD: return "kfd";
	default:
		return lx_host_major_by_name(host, "nvidia") == LX_UNKNOWN &&
				       lx_host_major_by_name(host, "nvidia-frontend") != LX_UNKNOWN
			       ? "nvidia-frontend"
			       : "nvidia";
	}
}

static bool role_has_dynamic_major(enum lx_node_role role)
{
	return role == LX_ROLE_UVM || role == LX_ROLE_UVM_TOOLS || role == LX_ROLE_CAP ||
	       role == LX_ROLE_KFD;
}

/* Add a node the container should get. expected_minor is used when the
 * host lacks the node (its major then comes from /proc/devices). */
static struct lx_plan_node *plan_add(struct planner *p, const char *path, enum lx_node_role role,
				     int gpu, unsigned expected_minor)
{
	struct lx_plan *plan = p->plan;
	for (size_t i = 0; i < plan->n_nodes; i++)
		if (strcmp(plan->nodes[i].path, path) == 0)
			return &plan->nodes[i];
	plan->nodes = lx_xrealloc(plan->nodes, (plan->n_nodes + 1) * sizeof(*plan->nodes));
	struct lx_plan_node *n = &plan->nodes[plan->n_nodes++];
	memset(n, 0, sizeof(*n));
	n->path = lx_xstrdup(path);
	n->role = role;
	n->gpu = gpu;
	n->dev_index = -1;
	n->mig_gi = n->mig_ci = -1;
	n->major_name = major_name_for_role(p->host, role);
	n->dynamic_major = role_has_dynamic_major(role);
	const struct lx_dev_node *host_node = lx_host_find_node(p->host, path);
	if (host_node && host_node->type == LX_NODE_CHAR) {
		n->present = n->major_known = true;
		n->major = host_node->major;
		n->minor = host_node->minor;
		n->mode = host_node->mode;
		n->uid = host_node->uid;
		n->gid = host_node->gid;
	} else {
		int major = lx_host_major_by_name(p->host, n->major_name);
		n->major_known = major != LX_UNKNOWN;
		n->major = major == LX_UNKNOWN ? 0 : (unsigned)major;
		n->minor = expected_minor;
		n->mode = 0666;
	}
	return n;
}

static void add_gpu_nodes(struct planner *p)
{
	const struct lx_host *h = p->host;
	bool unknown_minor = false;
	for (size_t i = 0; i < p->plan->n_gpus; i++) {
		const struct lx_gpu *g = &h->gpus[p->plan->gpus[i]];
		if (lx_gpu_kind(g) == LX_GPU_DRM)
			continue; /* add_drm_gpu_nodes */
		if (g->minor == LX_UNKNOWN) {
			unknown_minor = true;
			continue;
		}
		_cleanup_free_ char *path = lx_xasprintf("/dev/nvidia%d", g->minor);
		plan_add(p, path, LX_ROLE_GPU, (int)p->plan->gpus[i], (unsigned)g->minor);
	}
	if (!unknown_minor)
		return;
	/* The driver did not say which /dev/nvidiaN is which GPU: with every
	 * GPU selected that does not matter, so grant every GPU node. */
	for (size_t i = 0; i < h->n_nodes; i++) {
		if (lx_gpu_node_minor(h->nodes[i].path) >= 0)
			plan_add(p, h->nodes[i].path, LX_ROLE_GPU, -1, h->nodes[i].minor);
	}
}

/* A DRM GPU (i915, xe, amdgpu): its card and render nodes, and for amdgpu
 * /dev/kfd (ROCm opens it beside the render node); no NVIDIA node. */
/* A GPU's DRM nodes (card and render) as the host model lists them. */
static void plan_gpu_drm_nodes(struct planner *p, size_t index, const struct lx_gpu *g)
{
	for (size_t d = 0; d < g->n_drm; d++) {
		_cleanup_free_ char *path = lx_xasprintf("/dev/dri/%s", g->drm[d].name);
		bool render = lx_str_starts_with(g->drm[d].name, "renderD");
		unsigned minor = (unsigned)strtoul(g->drm[d].name + (render ? 7 : 4), NULL, 10);
		plan_add(p, path, render ? LX_ROLE_DRI_RENDER : LX_ROLE_DRI_CARD, (int)index, minor);
	}
}

static void add_drm_gpu_nodes(struct planner *p)
{
	for (size_t i = 0; i < p->plan->n_gpus; i++) {
		size_t index = p->plan->gpus[i];
		const struct lx_gpu *g = &p->host->gpus[index];
		if (lx_gpu_kind(g) != LX_GPU_DRM)
			continue;
		plan_gpu_drm_nodes(p, index, g);
		if (!g->n_drm)
			plan_warn(p->plan,
				  lx_xasprintf("GPU %zu (%s, %s) has no DRM card or render node", index,
					       g->bdf, g->driver),
				  lx_xasprintf("check that %s initialized it: dmesg | grep %s", g->driver,
					       g->driver));
		if (lx_gpu_needs_kfd(g))
			plan_add(p, "/dev/kfd", LX_ROLE_KFD, -1, 0);
	}
}

static bool any_nvidia_selected(const struct planner *p)
{
	for (size_t i = 0; i < p->plan->n_gpus; i++)
		if (lx_gpu_kind(&p->host->gpus[p->plan->gpus[i]]) != LX_GPU_DRM)
			return true;
	return false;
}

static void add_shared_nodes(struct planner *p)
{
	if (!any_nvidia_selected(p))
		return;
	plan_add(p, "/dev/nvidiactl", LX_ROLE_CONTROL, -1, 255);
	plan_add(p, "/dev/nvidia-uvm", LX_ROLE_UVM, -1, 0);
	plan_add(p, "/dev/nvidia-uvm-tools", LX_ROLE_UVM_TOOLS, -1, 1);
	if (lx_host_find_node(p->host, "/dev/nvidia-modeset"))
		plan_add(p, "/dev/nvidia-modeset", LX_ROLE_MODESET, -1, 254);
}

static void add_caps_nodes(struct planner *p)
{
	for (size_t i = 0; i < p->plan->n_gpus; i++) {
		size_t index = p->plan->gpus[i];
		const struct lx_gpu *g = &p->host->gpus[index];
		if (lx_plan_gpu_is_mig_only(p->plan, index))
			continue; /* its instances' nodes only: add_mig_nodes */
		_cleanup_free_ char *prefix = lx_xasprintf("gpu%d/", g->minor);
		size_t found = 0;
		for (size_t c = 0; g->minor != LX_UNKNOWN && c < p->host->n_caps; c++) {
			if (!lx_str_starts_with(p->host->caps[c].name, prefix))
				continue;
			_cleanup_free_ char *path =
				lx_xasprintf("/dev/nvidia-caps/nvidia-cap%u", p->host->caps[c].minor);
			plan_add(p, path, LX_ROLE_CAP, (int)index, p->host->caps[c].minor);
			found++;
		}
		if (!found)
			plan_warn(p->plan,
				  lx_xasprintf("--caps: GPU %zu (%s) has no MIG instances "
					       "(no capabilities under /proc/driver/nvidia/capabilities/gpu%d)",
					       index, g->bdf, g->minor),
				  lx_xstrdup("create MIG instances first (nvidia-smi mig -cgi ... -C), "
					     "or leave out --caps"));
	}
}

/* What CUDA needs for one MIG instance beside the parent GPU, nvidiactl and
 * uvm: the GPU instance's and the compute instance's access nodes, as
 * libnvidia-container mounts them (nvc_mig_device_access_caps_mount). */
static void add_mig_nodes(struct planner *p)
{
	for (size_t i = 0; i < p->plan->n_migs; i++) {
		const struct lx_mig_sel *m = &p->plan->migs[i];
		const struct lx_gpu *g = &p->host->gpus[m->gpu];
		for (int level = 0; level < 2; level++) {
			struct lx_mig_ref r = {level ? LX_MIG_CI : LX_MIG_GI, g->minor, m->gi,
					       level ? m->ci : -1};
			_cleanup_free_ char *name = lx_mig_ref_name(&r);
			const struct lx_capability *c = lx_host_find_cap(p->host, name);
			if (!c)
				continue; /* the selection checked both exist */
			_cleanup_free_ char *path =
				lx_xasprintf("/dev/nvidia-caps/nvidia-cap%u", c->minor);
			struct lx_plan_node *n = plan_add(p, path, LX_ROLE_CAP, (int)m->gpu, c->minor);
			/* A GI node two selected CIs share keeps the first CI's IDs:
			 * its mig_ci stays -1 (it is the GI's own node). */
			n->mig_gi = m->gi;
			if (level)
				n->mig_ci = m->ci;
		}
	}
	const char *const global[] = {"mig/config", "mig/monitor"};
	const bool asked[] = {p->opts->mig_config, p->opts->mig_monitor};
	for (size_t k = 0; k < 2; k++) {
		if (!asked[k])
			continue;
		const struct lx_capability *c = lx_host_find_cap(p->host, global[k]);
		if (!c) {
			plan_warn(p->plan,
				  lx_xasprintf("--mig-%s: the driver lists no %s capability "
					       "(/proc/driver/nvidia/capabilities/%s)",
					       global[k] + 4, global[k], global[k]),
				  lx_xstrdup("load the nvidia module of a driver with MIG support "
					     "(R450 and later), or leave the option out"));
			continue;
		}
		_cleanup_free_ char *path = lx_xasprintf("/dev/nvidia-caps/nvidia-cap%u", c->minor);
		plan_add(p, path, LX_ROLE_CAP, -1, c->minor);
	}
}

static void add_dri_nodes(struct planner *p)
{
	for (size_t i = 0; i < p->plan->n_gpus; i++) {
		size_t index = p->plan->gpus[i];
		const struct lx_gpu *g = &p->host->gpus[index];
		plan_gpu_drm_nodes(p, index, g);
		if (!g->n_drm)
			plan_warn(p->plan,
				  lx_xasprintf("--dri: GPU %zu (%s) has no DRM card or render node",
					       index, g->bdf),
				  lx_xstrdup("load nvidia-drm (modprobe nvidia-drm modeset=1), or leave "
					     "out --dri"));
	}
}

/* Tell the user about nodes the host lacks, and drop them where a line
 * cannot be written without them. */
static void handle_missing_nodes(struct planner *p)
{
	struct lx_plan *plan = p->plan;
	bool devn = plan->style == LX_STYLE_DEVN;
	const char *consequence = devn ? "the devN lines for missing nodes make the container fail "
					 "to start until they exist"
				       : "missing nodes are left out of the lines; run lxgpu "
					 "generate again once they exist";
	size_t kept = 0;
	bool uvm_missing = false;
	for (size_t i = 0; i < plan->n_nodes; i++) {
		struct lx_plan_node *n = &plan->nodes[i];
		if (n->present) {
			plan->nodes[kept++] = *n;
			continue;
		}
		if (n->role == LX_ROLE_UVM) {
			uvm_missing = true;
			bool loaded = lx_host_major_by_name(p->host, "nvidia-uvm") != LX_UNKNOWN;
			plan_warn(plan,
				  lx_xasprintf("/dev/nvidia-uvm does not exist on the host (%s; CUDA "
					       "needs it and /dev/nvidia-uvm-tools): %s",
					       loaded ? "nvidia-uvm is loaded but made no node"
						      : "nvidia-uvm is not loaded",
					       consequence),
				  lx_xstrdup("create them at every boot before guests start: "
					     "nvidia-modprobe -u -c 0 (e.g. a oneshot unit with "
					     "Before=pve-guests.service)"));
		} else if (n->role == LX_ROLE_KFD) {
			bool loaded = lx_host_kfd_major(p->host) != LX_UNKNOWN;
			plan_warn(plan,
				  lx_xasprintf("/dev/kfd does not exist on the host (%s; ROCm needs it): %s",
					       loaded ? "amdgpu registered kfd but made no node"
						      : "no kfd in /proc/devices",
					       consequence),
				  lx_xstrdup("check that amdgpu loaded with its compute part (HSA_AMD in "
					     "the kernel config) and let udev make the node: udevadm "
					     "trigger --subsystem-match=kfd"));
		} else if ((n->role == LX_ROLE_DRI_CARD || n->role == LX_ROLE_DRI_RENDER) &&
			   n->gpu >= 0 && lx_gpu_kind(&p->host->gpus[n->gpu]) == LX_GPU_DRM) {
			plan_warn(plan, lx_xasprintf("%s does not exist on the host: %s", n->path, consequence),
				  lx_xstrdup("let udev make it: udevadm trigger --subsystem-match=drm"));
		} else if (!(n->role == LX_ROLE_UVM_TOOLS && uvm_missing)) {
			plan_warn(plan,
				  lx_xasprintf("%s does not exist on the host: %s", n->path, consequence),
				  lx_xstrdup("create the nodes: nvidia-modprobe -c 0 (or run nvidia-smi once)"));
		}
		if (devn)
			plan->nodes[kept++] = *n;
		else
			free(n->path);
	}
	plan->n_nodes = kept;
}

/* A GPU's DRM node or kfd made anew (devN, CDI; an NVIDIA card's too):
 * 0660 owned by the container's own render group (renderD*, kfd) or video
 * group (cardN), as the distro
 * inside has them (render is 104 on Proxmox, 993 or 109 elsewhere); 0666
 * when the container's groups are not known. */
static void drm_node_group(struct planner *p, struct lx_plan_node *n)
{
	bool render = n->role == LX_ROLE_DRI_RENDER || n->role == LX_ROLE_KFD;
	if (!render && n->role != LX_ROLE_DRI_CARD)
		return;
	long long gid = render ? p->opts->render_gid : p->opts->video_gid;
	if (gid < 0) {
		if (!p->drm_group_warned && p->opts->groups_why)
			plan_warn(p->plan,
				  lx_xasprintf("the container's %s group is unknown (%s): its DRM nodes "
					       "are made 0666",
					       render ? "render" : "video", p->opts->groups_why),
				  lx_xstrdup("give the group with --gid N (the gid of 'render' in the "
					     "container's /etc/group) and --mode 0660"));
		p->drm_group_warned |= p->opts->groups_why != NULL;
		return;
	}
	n->mode = 0660;
	n->gid_set = true;
	n->gid = (unsigned)gid;
}

/* How a node looks from inside, and whether its users can open it. */
static int apply_modes(struct planner *p)
{
	struct lx_plan *plan = p->plan;
	const struct lx_plan_options *o = p->opts;
	bool explicit = o->mode >= 0 || o->uid >= 0 || o->gid >= 0;
	bool bind = plan->style == LX_STYLE_RAW || plan->style == LX_STYLE_LXC ||
		    plan->style == LX_STYLE_INCLUDE;
	if (bind && explicit)
		return lx_error_set(p->err,
				    "--mode, --uid and --gid apply to the devn and cdi styles: a bind "
				    "mount shows the host node as it is. Change the host node "
				    "(chmod/chgrp, a udev rule) or use --style devn");
	for (size_t i = 0; i < plan->n_nodes; i++) {
		struct lx_plan_node *n = &plan->nodes[i];
		/* Capability nodes are only ever read (NVIDIA makes them 0444 in containers). */
		unsigned wanted = n->role == LX_ROLE_CAP ? 0004 : 0006;
		if (!bind)
			/* The node is made anew in the container (PVE for devN, the nested
			 * runtime for CDI), with 0660 root by default: not the host's mode. */
			n->mode = o->mode >= 0 ? (unsigned)o->mode : n->role == LX_ROLE_CAP ? 0444 : 0666;
		/* Options taken from the container's NVIDIA devN lines are
		 * theirs: a DRM node gets the container's own groups. */
		bool own = o->modes_inherited && (n->role == LX_ROLE_DRI_CARD ||
						  n->role == LX_ROLE_DRI_RENDER || n->role == LX_ROLE_KFD);
		if (!bind) {
			n->uid_set = o->uid >= 0 && !own;
			n->gid_set = o->gid >= 0 && !own;
			n->uid = n->uid_set ? (unsigned)o->uid : 0;
			n->gid = n->gid_set ? (unsigned)o->gid : 0;
			if (own)
				n->mode = 0666;
			if (!explicit || own)
				drm_node_group(p, n);
			continue;
		}
		if ((n->mode & wanted) == wanted)
			continue;
		if (plan->unprivileged)
			plan_warn(plan,
				  lx_xasprintf("%s is %04o %u:%u on the host: an unprivileged container "
					       "sees it as nobody:nogroup, and its users cannot open it",
					       n->path, n->mode, n->uid, n->gid),
				  lx_xasprintf("make it %s on the host (a udev rule keeps it so), map gid "
					       "%u into the container with lxc.idmap, or use --style devn "
					       "with --gid",
					       wanted == 0004 ? "0444" : "0666", n->gid));
		else
			plan_warn(plan,
				  lx_xasprintf("%s is %04o %u:%u on the host: in the container only root "
					       "and members of gid %u can open it",
					       n->path, n->mode, n->uid, n->gid, n->gid),
				  lx_xasprintf("add the container's users to gid %u, or make the node %s "
					       "on the host",
					       n->gid, wanted == 0004 ? "0444" : "0666"));
	}
	return 0;
}

static int apply_grants(struct lx_plan *plan, const struct lx_plan_options *opts,
			struct lx_error *err)
{
	int next_dev = opts->dev_start;
	for (size_t i = 0; i < plan->n_nodes; i++) {
		struct lx_plan_node *n = &plan->nodes[i];
		switch (plan->style) {
		case LX_STYLE_DEVN:
			n->grant = LX_GRANT_DEVN;
			while (next_dev <= PVE_MAX_DEV_INDEX && opts->dev_taken[next_dev])
				next_dev++;
			if (next_dev > PVE_MAX_DEV_INDEX)
				return lx_error_set(err,
						    "no free devN index for %s: PVE numbers devN from 0 "
						    "to %d (--dev-start %d)",
						    n->path, PVE_MAX_DEV_INDEX, opts->dev_start);
			n->dev_index = next_dev++;
			break;
		case LX_STYLE_RAW:
			/* PVE gives unprivileged containers "devices.allow = a": rules are no-ops. */
			n->grant = plan->unprivileged ? LX_GRANT_BIND : LX_GRANT_CGROUP | LX_GRANT_BIND;
			break;
		case LX_STYLE_LXC: n->grant = LX_GRANT_CGROUP | LX_GRANT_BIND; break;
		case LX_STYLE_INCLUDE:
			/* As raw: an unprivileged container's lists are cleared by
			 * userns.conf; on PVE its userns.conf.d then allows every
			 * device, and with LXC alone a rule would turn the v2 program
			 * into a block-all list. */
			n->grant = plan->unprivileged ? LX_GRANT_BIND : LX_GRANT_CGROUP | LX_GRANT_BIND;
			break;
		case LX_STYLE_CDI: n->grant = LX_GRANT_CDI; break;
		}
	}
	return 0;
}

int lx_plan_build(const struct lx_host *host, const struct lx_plan_options *opts,
		  struct lx_plan *plan, struct lx_error *err)
{
	memset(plan, 0, sizeof(*plan));
	plan->style = opts->style;
	plan->unprivileged = opts->unprivileged;
	enum lx_cgroup_layout layout = opts->cgroup != LX_CGROUP_UNKNOWN ? opts->cgroup : host->cgroup;
	/* On hybrid hosts the devices controller is a v1 hierarchy. */
	plan->cgroup_keys = layout == LX_CGROUP_V1 || layout == LX_CGROUP_HYBRID ? LX_CGROUP_V1
										 : LX_CGROUP_V2;
	if (opts->dev_start < 0 || opts->dev_start > PVE_MAX_DEV_INDEX)
		return lx_error_set(err, "--dev-start %d: PVE numbers devN from 0 to %d",
				    opts->dev_start, PVE_MAX_DEV_INDEX);
	if (opts->mode > 07777)
		return lx_error_set(err, "--mode %o is not a file mode", (unsigned)opts->mode);
	if (lx_select_with_mig(host, opts->gpus, &plan->gpus, &plan->n_gpus, &plan->migs,
			       &plan->n_migs, err) < 0)
		return -1;
	struct planner p = {.host = host, .opts = opts, .plan = plan, .err = err};
	size_t known = 0, nvidia_bound = 0;
	for (size_t i = 0; i < host->n_gpus; i++)
		nvidia_bound += on_nvidia(&host->gpus[i]);
	size_t nvidia_selected = 0;
	for (size_t i = 0; i < plan->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[plan->gpus[i]];
		if (lx_gpu_kind(g) == LX_GPU_DRM)
			continue;
		nvidia_selected++;
		known += g->minor != LX_UNKNOWN;
	}
	if (known < nvidia_selected && nvidia_selected < nvidia_bound) {
		lx_plan_free(plan);
		return lx_error_set(err,
				    "--gpus: the driver does not report which /dev/nvidiaN belongs to "
				    "which GPU (no 'Device Minor'), so only all GPUs together can be "
				    "given: use --gpus all");
	}
	add_gpu_nodes(&p);
	add_drm_gpu_nodes(&p);
	add_shared_nodes(&p);
	if (opts->caps)
		add_caps_nodes(&p);
	add_mig_nodes(&p);
	if (opts->dri)
		add_dri_nodes(&p);
	handle_missing_nodes(&p);
	if (apply_modes(&p) < 0) {
		lx_plan_free(plan);
		return -1;
	}
	if (apply_grants(plan, opts, err) < 0) {
		lx_plan_free(plan);
		return -1;
	}
	/* pve-container writes each devN's rule as an lxc.cgroup2 key
	 * (update_lxc_config), which a v1 devices controller never reads: a
	 * privileged container's common.conf deny-all then holds. */
	if (plan->style == LX_STYLE_DEVN && !plan->unprivileged && plan->cgroup_keys == LX_CGROUP_V1 &&
	    plan->n_nodes > 0)
		plan_warn(plan,
			  lx_xstrdup("this host's devices controller is cgroup v1: Proxmox writes the "
				     "rule of a devN entry as an lxc.cgroup2 key, which LXC does not apply "
				     "there, so in a privileged container these nodes open with EPERM"),
			  lx_xstrdup("use --style include (v1 rules with this boot's majors, rewritten "
				     "by lxgpu ensure-nodes at every boot), or an unprivileged container, "
				     "or boot the host with cgroup v2"));
	return 0;
}

void lx_plan_free(struct lx_plan *plan)
{
	for (size_t i = 0; i < plan->n_nodes; i++)
		free(plan->nodes[i].path);
	free(plan->nodes);
	free(plan->gpus);
	free(plan->migs);
	lx_host_warnings_free(&plan->warnings);
	memset(plan, 0, sizeof(*plan));
}
