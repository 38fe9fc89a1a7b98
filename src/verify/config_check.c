/* Findings from a container's config, checked against the host model. */
#include "lxgpu/verify.h"

#include <string.h>
#include <strings.h>

/* NVIDIA nodes, and the DRM nodes of NVIDIA GPUs (not an iGPU's renderD128). */
static bool is_gpu_path(const char *path, const struct lx_gpu_owned *owned)
{
	return lx_str_starts_with(path, "/dev/nvidia") || lx_strv_contains(&owned->drm_paths, path);
}

/* "mode=0666" etc. of a devN value. */
static const char *devn_option(const char *value, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strchr(value, ','); p; p = strchr(p + 1, ','))
		if (strncmp(p + 1, name, n) == 0 && p[1 + n] == '=')
			return p + 2 + n;
	return NULL;
}

static void add_grant(struct lx_container_config *c, const char *path, int line, bool devn,
		      bool optional, unsigned mode, bool gid_set)
{
	c->grants = lx_xrealloc(c->grants, (c->n_grants + 1) * sizeof(*c->grants));
	c->grants[c->n_grants++] = (struct lx_configured_node){
		.path = lx_xstrdup(path), .line = line, .devn = devn, .bind = !devn,
		.optional = optional, .mode = mode, .gid_set = gid_set};
}

/* The host GPU a node belongs to, or -1. */
static int gpu_of_node(const struct lx_host *host, const char *path)
{
	const char *name = path + strlen("/dev/");
	if (lx_str_starts_with(name, "nvidia") && name[6] &&
	    strspn(name + 6, "0123456789") == strlen(name + 6)) {
		int minor = atoi(name + 6);
		for (size_t i = 0; i < host->n_gpus; i++)
			if (host->gpus[i].minor == minor)
				return (int)i;
		return -1;
	}
	if (lx_str_starts_with(name, "dri/"))
		for (size_t i = 0; i < host->n_gpus; i++)
			for (size_t d = 0; d < host->gpus[i].n_drm; d++)
				if (strcmp(host->gpus[i].drm[d].name, name + 4) == 0)
					return (int)i;
	return -1;
}

void lx_container_config_read(const struct lx_host *host, const char *id, const struct lx_conf *conf,
			      bool is_pve, struct lx_container_config *out)
{
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->conf = conf;
	out->is_pve = is_pve;
	out->unprivileged = lx_conf_unprivileged(conf, is_pve);
	lx_gpu_owned_from_host(host, &out->owned);
	const struct lx_gpu_owned *owned = &out->owned;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind == LX_CONF_PVE_KEY && lx_conf_devn_index(l->key) >= 0) {
			_cleanup_free_ char *path = lx_conf_devn_path(l->value);
			if (!path || !is_gpu_path(path, owned))
				continue;
			const char *mode = devn_option(l->value, "mode");
			unsigned long long m = 0660; /* what PVE uses without mode= */
			if (mode)
				lx_parse_uint(mode, 8, 07777, &m);
			add_grant(out, path, l->lineno, true, false, (unsigned)m,
				  devn_option(l->value, "gid") != NULL);
		} else if (l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.mount.entry") == 0) {
			_cleanup_free_ char *source = lx_xstrndup(l->value, strcspn(l->value, " \t"));
			if (is_gpu_path(source, owned))
				add_grant(out, source, l->lineno, false, strstr(l->value, "optional") != NULL,
					  0, false);
		}
	}
	for (size_t i = 0; i < out->n_grants; i++) {
		int gpu = gpu_of_node(host, out->grants[i].path);
		if (gpu >= 0 && !lx_strv_contains(&out->gpus, host->gpus[gpu].bdf))
			lx_strv_push(&out->gpus, host->gpus[gpu].bdf);
	}
}

void lx_container_config_free(struct lx_container_config *c)
{
	for (size_t i = 0; i < c->n_grants; i++)
		free(c->grants[i].path);
	free(c->grants);
	lx_strv_free(&c->gpus);
	lx_gpu_owned_free(&c->owned);
	memset(c, 0, sizeof(*c));
}

static const struct lx_configured_node *find_grant(const struct lx_container_config *c, const char *path)
{
	for (size_t i = 0; i < c->n_grants; i++)
		if (strcmp(c->grants[i].path, path) == 0)
			return &c->grants[i];
	return NULL;
}

struct checker {
	const struct lx_host *host;
	const struct lx_container_config *cc;
	struct lx_findings *out;
};

static void finding(struct checker *k, enum lx_finding_code code, int line, const char *node,
		    char *message, char *fix)
{
	lx_findings_add(k->out, code, k->cc->id, k->cc->conf->path, line, node, message, fix);
}

/* "c MAJ:MIN perms" with "*" allowed; false for other rule forms. */
static bool parse_rule(const char *value, char *type, long *major, long *minor)
{
	char t;
	char maj[16], min[16];
	if (sscanf(value, " %c %15[0-9*]:%15[0-9*]", &t, maj, min) != 3)
		return false;
	*type = t;
	*major = strcmp(maj, "*") == 0 ? -1 : atol(maj);
	*minor = strcmp(min, "*") == 0 ? -1 : atol(min);
	return true;
}

static bool is_allow_key(const char *key)
{
	return strcmp(key, "lxc.cgroup.devices.allow") == 0 ||
	       strcmp(key, "lxc.cgroup2.devices.allow") == 0;
}

/* cgroup key version and breadth; stale GPU majors. */
static void check_rules(struct checker *k, const struct lx_gpu_owned *owned)
{
	const struct lx_conf *conf = k->cc->conf;
	enum lx_cgroup_layout layout = k->host->cgroup;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind != LX_CONF_LXC_KEY)
			continue;
		bool v1_key = lx_str_starts_with(l->key, "lxc.cgroup.");
		bool v2_devices = lx_str_starts_with(l->key, "lxc.cgroup2.devices.");
		if (v1_key && layout == LX_CGROUP_V2)
			finding(k, LXG006_WRONG_CGROUP_KEYS, l->lineno, NULL,
				lx_xasprintf("%s is a cgroup v1 key on a cgroup v2 host: LXC ignores it",
					     l->key),
				lx_xasprintf("use lxc.cgroup2.%s (lxgpu apply %s writes the right keys)",
					     l->key + strlen("lxc.cgroup."), k->cc->id));
		else if (v2_devices && (layout == LX_CGROUP_V1 || layout == LX_CGROUP_HYBRID))
			finding(k, LXG006_WRONG_CGROUP_KEYS, l->lineno, NULL,
				lx_xasprintf("%s is a cgroup v2 key, but this host's devices controller is "
					     "cgroup v1 (%s): the rule has no effect",
					     l->key, lx_cgroup_layout_name(layout)),
				lx_xasprintf("use lxc.cgroup.%s", l->key + strlen("lxc.cgroup2.")));
		if (!is_allow_key(l->key))
			continue;
		char type;
		long major, minor;
		bool parsed = parse_rule(l->value, &type, &major, &minor);
		if (strcmp(l->value, "a") == 0 || (parsed && major < 0)) {
			finding(k, LXG007_OVER_BROAD_RULE, l->lineno, NULL,
				lx_xasprintf("'%s: %s' lets the container use every %sdevice of the host",
					     l->key, l->value, parsed && type == 'c' ? "character " : ""),
				lx_xasprintf("allow only the GPU nodes: lxgpu apply %s", k->cc->id));
			continue;
		}
		if (!parsed || type != 'c' || !lx_conf_line_is_gpu(conf, l, owned) ||
		    lx_host_major_is_current(k->host, (unsigned)major))
			continue;
		int uvm = lx_host_major_by_name(k->host, "nvidia-uvm");
		finding(k, LXG001_STALE_MAJOR, l->lineno, NULL,
			uvm != LX_UNKNOWN
				? lx_xasprintf("'%s' names major %ld, which no NVIDIA device has now "
					       "(nvidia-uvm is %d since the last module load): CUDA fails "
					       "with error 999",
					       l->value, major, uvm)
				: lx_xasprintf("'%s' names major %ld, which no NVIDIA device has now",
					       l->value, major),
			lx_xasprintf("lxgpu apply %s (devN lines never hard-code a major)", k->cc->id));
	}
}

/* Is major:minor allowed by a live rule of the keys this host honours? */
static bool rule_allows(const struct lx_host *host, const struct lx_conf *conf, unsigned major,
			unsigned minor)
{
	const char *key = host->cgroup == LX_CGROUP_V2 ? "lxc.cgroup2.devices.allow"
						       : "lxc.cgroup.devices.allow";
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind != LX_CONF_LXC_KEY || strcmp(l->key, key) != 0)
			continue;
		if (strcmp(l->value, "a") == 0)
			return true;
		char type;
		long ma, mi;
		if (parse_rule(l->value, &type, &ma, &mi) && type == 'c' &&
		    (ma < 0 || ma == (long)major) && (mi < 0 || mi == (long)minor))
			return true;
	}
	return false;
}

static void check_grant(struct checker *k, const struct lx_configured_node *g)
{
	const struct lx_host *h = k->host;
	const struct lx_dev_node *node = lx_host_find_node(h, g->path);
	int gpu = gpu_of_node(h, g->path);
	const char *name = g->path + strlen("/dev/");
	bool gpu_node = lx_str_starts_with(name, "nvidia") && name[6] &&
			strspn(name + 6, "0123456789") == strlen(name + 6);
	const struct lx_gpu *elsewhere = NULL; /* a GPU bound to another driver */
	for (size_t i = 0; i < h->n_gpus && !elsewhere; i++)
		if (!h->gpus[i].driver || strcmp(h->gpus[i].driver, "nvidia") != 0)
			elsewhere = &h->gpus[i];
	if (gpu_node && gpu < 0 && elsewhere)
		/* vfio-bound GPUs have no minor: the node likely meant this one. */
		finding(k, LXG004_GPU_ON_VFIO, g->line, g->path,
			lx_xasprintf("no GPU bound to nvidia has %s; GPU %s is bound to %s%s, not "
				     "nvidia",
				     g->path, elsewhere->bdf,
				     elsewhere->driver ? elsewhere->driver : "no driver",
				     elsewhere->driver && strcmp(elsewhere->driver, "vfio-pci") == 0
					     ? " (passed through to a VM)"
					     : ""),
			lx_xstrdup("give the container a GPU that is bound to nvidia (lxgpu scan)"));
	else if (gpu_node && gpu < 0)
		finding(k, LXG003_NO_SUCH_GPU, g->line, g->path,
			lx_xasprintf("%s belongs to no GPU of this host (it has %zu GPUs; their "
				     "minors are in 'lxgpu scan')",
				     g->path, h->n_gpus),
			lx_xasprintf("remove it, or give the container an existing GPU: lxgpu apply %s "
				     "--gpus ...",
				     k->cc->id));
	else if (gpu >= 0 && (!h->gpus[gpu].driver || strcmp(h->gpus[gpu].driver, "nvidia") != 0))
		finding(k, LXG004_GPU_ON_VFIO, g->line, g->path,
			lx_xasprintf("%s is GPU %d (%s), which is bound to %s, not nvidia", g->path, gpu,
				     h->gpus[gpu].bdf,
				     h->gpus[gpu].driver ? h->gpus[gpu].driver : "no driver"),
			lx_xstrdup("give the container a GPU that is bound to nvidia"));
	if (!node) {
		if (g->devn)
			finding(k, LXG009_DEVN_NODE_MISSING, g->line, g->path,
				lx_xasprintf("%s does not exist on the host: the container will not start "
					     "(\"Device %s does not exist\")",
					     g->path, g->path),
				lx_xstrdup(lx_str_starts_with(g->path, "/dev/nvidia-uvm")
						   ? "load nvidia-uvm and create its nodes at boot: "
						     "nvidia-modprobe -u -c 0"
						   : "create the node (nvidia-modprobe -c 0), or remove the entry"));
		else
			finding(k, LXG002_MISSING_NODE, g->line, g->path,
				g->optional ? lx_xasprintf("%s does not exist on the host: the optional "
							   "mount is skipped and the container starts "
							   "without it",
							   g->path)
					    : lx_xasprintf("%s does not exist on the host: the container "
							   "will not start",
							   g->path),
				lx_xstrdup(lx_str_starts_with(g->path, "/dev/nvidia-uvm")
						   ? "load nvidia-uvm and create its nodes at boot: "
						     "nvidia-modprobe -u -c 0"
						   : "create the node, or remove the mount entry"));
		/* A skipped optional mount only hurts when CUDA needs the node. */
		if (!g->devn && g->optional && !lx_str_starts_with(g->path, "/dev/nvidia-uvm") &&
		    strcmp(g->path, "/dev/nvidiactl") != 0)
			lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
		return;
	}
	bool cap = lx_str_starts_with(g->path, "/dev/nvidia-caps/");
	unsigned wanted = cap ? 0004 : 0006;
	if (g->bind && k->cc->unprivileged && (node->mode & wanted) != wanted)
		finding(k, LXG010_UNUSABLE_MODE, g->line, g->path,
			lx_xasprintf("%s is %04o %u:%u on the host: in this unprivileged container it "
				     "shows as nobody:nogroup and its users cannot open it",
				     g->path, node->mode, node->uid, node->gid),
			lx_xasprintf("make it %s on the host, map gid %u with lxc.idmap, or use a devN "
				     "entry with mode/gid (lxgpu apply %s --gid N)",
				     cap ? "0444" : "0666", node->gid, k->cc->id));
	if (g->devn && (g->mode & wanted) != wanted && !g->gid_set)
		finding(k, LXG010_UNUSABLE_MODE, g->line, g->path,
			lx_xasprintf("PVE creates %s with mode %04o root:root: only root in the container "
				     "can open it",
				     g->path, g->mode),
			lx_xasprintf("add mode=%s (or gid=<the container's video group>) to the entry",
				     cap ? "0444" : "0666"));
	/* Privileged containers need a rule for each bind-mounted node; PVE's
	 * unprivileged containers allow every device, devN adds its own rule. */
	bool rules_matter = g->bind && !(k->cc->is_pve && k->cc->unprivileged);
	if (rules_matter && !rule_allows(h, k->cc->conf, node->major, node->minor))
		finding(k, LXG014_NO_CGROUP_RULE, g->line, g->path,
			lx_xasprintf("%s (c %u:%u) is bind-mounted but no %s rule allows it: opening it "
				     "in the container fails with EPERM",
				     g->path, node->major, node->minor,
				     h->cgroup == LX_CGROUP_V2 ? "lxc.cgroup2.devices.allow"
							       : "lxc.cgroup.devices.allow"),
			lx_xasprintf("lxgpu apply %s", k->cc->id));
}

/* With any GPU, CUDA needs nvidiactl and nvidia-uvm (and -tools for profilers). */
static void check_needed_nodes(struct checker *k)
{
	bool has_gpu = false;
	for (size_t i = 0; i < k->cc->n_grants; i++) {
		const char *name = k->cc->grants[i].path + strlen("/dev/");
		has_gpu |= lx_str_starts_with(name, "nvidia") && name[6] &&
			   strspn(name + 6, "0123456789") == strlen(name + 6);
	}
	if (!has_gpu)
		return;
	static const char *const needed[] = {"/dev/nvidiactl", "/dev/nvidia-uvm",
					     "/dev/nvidia-uvm-tools"};
	for (size_t i = 0; i < 3; i++) {
		if (find_grant(k->cc, needed[i]))
			continue;
		lx_findings_add(k->out, LXG008_PLANNED_NODE_MISSING, k->cc->id, k->cc->conf->path, 0,
				needed[i],
				lx_xasprintf("the container has a GPU but not %s%s", needed[i],
					     i == 2 ? " (CUDA profilers need it)" : ": CUDA fails"),
				lx_xasprintf("lxgpu apply %s", k->cc->id));
		if (i == 2) /* uvm-tools: a warning, not an error */
			lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
	}
	if (lx_host_major_by_name(k->host, "nvidia-uvm") == LX_UNKNOWN && k->host->driver.version)
		lx_findings_add(k->out, LXG020_UVM_NOT_LOADED, k->cc->id, NULL, 0, "/dev/nvidia-uvm",
				lx_xstrdup("nvidia-uvm is not loaded on the host: CUDA in this container "
					   "fails until it is"),
				lx_xstrdup("load it at boot before guests start: nvidia-modprobe -u -c 0 "
					   "(lxgpu preflight --print-boot-unit)"));
}

static bool live_has_line(const struct lx_conf *conf, const char *text)
{
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++)
		if (strcmp(conf->lines[i].text, text) == 0)
			return true;
	return false;
}

/* GPU lines in snapshots (never applied) or pending changes. */
static void check_sections(struct checker *k, const struct lx_gpu_owned *owned)
{
	const struct lx_conf *conf = k->cc->conf;
	for (size_t i = 0; i < conf->n; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->section < 0)
			continue;
		struct lx_conf_line as_live = *l;
		as_live.section = -1;
		if (!lx_conf_line_is_gpu_given(&as_live, owned, true) || live_has_line(conf, l->text))
			continue;
		const char *section = conf->lines[l->section].key;
		bool pending = strcasecmp(section, "pve:pending") == 0;
		finding(k, LXG005_LINES_IN_SECTION, l->lineno, NULL,
			pending ? lx_xasprintf("'%s' is a pending change ([pve:pending]): it is not in "
					       "effect yet",
					       l->text)
				: lx_xasprintf("'%s' is inside snapshot [%s], not the live config: it is "
					       "never applied (a script appended it after the snapshot)",
					       l->text, section),
			pending ? lx_xasprintf("apply pending changes (restart the container), or "
					       "revert them: pct revert %s ...",
					       k->cc->id)
				: lx_xasprintf("remove it from the snapshot section and run lxgpu apply %s",
					       k->cc->id));
		if (pending)
			lx_findings_last_severity(k->out, LX_SEVERITY_INFO);
	}
}

void lx_verify_config(const struct lx_host *host, const struct lx_container_config *cc,
		      struct lx_findings *out)
{
	struct checker k = {host, cc, out};
	check_rules(&k, &cc->owned);
	for (size_t i = 0; i < cc->n_grants; i++)
		check_grant(&k, &cc->grants[i]);
	check_needed_nodes(&k);
	check_sections(&k, &cc->owned);
}
