/* Findings from a container's config, checked against the host model. */
#include "lxgpu/judge.h"

#include <string.h>
#include <strings.h>


static const char *needed_for(const char *path);

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
	(void)name;
	if (lx_gpu_node_minor(path) >= 0)
		return lx_host_gpu_of_node(host, path);
	return lx_host_gpu_of_drm_path(host, path);
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
			if (!path || !lx_gpu_owned_path(owned, path))
				continue;
			const char *mode = devn_option(l->value, "mode");
			unsigned long long m = 0660; /* what PVE uses without mode= */
			if (mode)
				lx_parse_uint(mode, 8, 07777, &m);
			add_grant(out, path, l->lineno, true, false, (unsigned)m,
				  devn_option(l->value, "gid") != NULL);
		} else if (l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.mount.entry") == 0) {
			_cleanup_free_ char *source = lx_xstrndup(l->value, strcspn(l->value, " \t"));
			if (lx_gpu_owned_path(owned, source))
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

/* ---- verify on the effective access ----
 *
 * Every finding below reads what the container gets at its next start
 * (struct lx_access: nodes it reaches, what the device cgroup lets it open,
 * start failures, what became of each device rule); nothing here judges a
 * config line on its own. */

struct checker {
	const struct lx_host *host;
	const struct lx_container_config *cc;
	const struct lx_access *access;
	struct lx_findings *out;
	bool needed_denied; /* a node the GPUs need is reached but denied (LXG022) */
	const struct lx_strv *needed; /* the nodes its GPUs need; NULL: no GPU known */
};

static void finding(struct checker *k, enum lx_finding_code code, int line, const char *node,
		    char *message, char *fix)
{
	lx_findings_add(k->out, code, k->cc->id, k->cc->conf->path, line, node, message, fix);
}

void lx_container_gpus(const struct lx_host *host, const struct lx_container_config *cc,
		       const struct lx_access *access, struct lx_strv *bdfs)
{
	struct lx_current cur;
	lx_access_current(host, cc->conf, access, &cur);
	for (size_t i = 0; i < cur.bdfs.n; i++)
		if (!lx_strv_contains(bdfs, cur.bdfs.items[i]))
			lx_strv_push(bdfs, cur.bdfs.items[i]);
	lx_current_free(&cur);
}

/* The config line with this number (live section), or NULL. */
static const struct lx_conf_line *conf_line(const struct lx_conf *conf, int lineno)
{
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++)
		if (conf->lines[i].lineno == lineno)
			return &conf->lines[i];
	return NULL;
}

/* A device rule written as an lxc.* line of the config (not one PVE
 * generates for a devN entry, not one of LXC's includes). */
static bool raw_config_rule(const struct checker *k, const struct lx_access_rule *r)
{
	if (!r->from_config)
		return false;
	const struct lx_conf_line *l = conf_line(k->cc->conf, r->line);
	return l && l->kind == LX_CONF_LXC_KEY;
}

/* A rule of the config for a character major no device has now. With the
 * host's whole table that is any major it lacks; a table of only the NVIDIA
 * and DRM majors (schema 1 snapshots) can tell that only for dynamic ones. */
static bool rule_is_stale(const struct checker *k, const struct lx_access_rule *r)
{
	if (!raw_config_rule(k, r) || r->fate != LX_RULE_APPLIED || !r->rule.allow || r->rule.all ||
	    r->rule.major < 0 || r->rule.type == 'b')
		return false;
	return lx_host_major_is_stale(k->host, (unsigned)r->rule.major);
}

/* The stale rule most likely meant for this node: one of the same minor (or
 * '*') first. */
static const struct lx_access_rule *stale_rule_for(const struct checker *k,
						    const struct lx_access_node *n)
{
	const struct lx_access_rule *any = NULL;
	for (size_t i = 0; i < k->access->n_rules; i++) {
		const struct lx_access_rule *r = &k->access->rules[i];
		if (!rule_is_stale(k, r))
			continue;
		if (r->rule.minor < 0 || r->rule.minor == n->minor)
			return r;
		if (!any)
			any = r;
	}
	return any;
}

static const struct lx_access_rule *first_wrong_version_rule(const struct checker *k)
{
	for (size_t i = 0; i < k->access->n_rules; i++)
		if (raw_config_rule(k, &k->access->rules[i]) &&
		    k->access->rules[i].fate == LX_RULE_WRONG_VERSION)
			return &k->access->rules[i];
	return NULL;
}

char *lx_fix_hard_coded_major(const char *id, bool is_pve)
{
	if (is_pve)
		return lx_xasprintf("give the GPUs as devN entries, which never hard-code a major (a "
				    "plain apply keeps the raw lines and writes today's majors): "
				    "`lxgpu apply %s --style devn`",
				    id);
	return lx_xasprintf("give the GPUs as an include file, whose majors ensure-nodes rewrites "
			    "at every boot (a plain apply keeps the lines and writes today's "
			    "majors): `lxgpu apply %s --style include`",
			    id);
}

/* The command that repairs the GPU lines: devN entries where a hard-coded
 * dynamic major is the problem (they never name a major). */
static char *apply_fix(const struct checker *k, bool devn_helps)
{
	if (devn_helps && k->cc->is_pve)
		return lx_fix_hard_coded_major(k->cc->id, true);
	return lx_xasprintf("`lxgpu apply %s`", k->cc->id);
}

/* apply keeps a rule for a major no device has (it cannot tell it is
 * lxgpu's: a module not loaded now may take that major again), so taking
 * the line out is a manual step; apply then writes today's rules. */
static char *stale_fix(const struct checker *k, const struct lx_access_rule *r, bool inert)
{
	_cleanup_free_ char *then = inert ? lx_xstrdup("device rules change nothing in this container")
					  : apply_fix(k, lx_major_is_dynamic((unsigned)r->rule.major));
	_cleanup_free_ char *key = lx_fix_quote(r->key), *value = lx_fix_quote(r->value);
	_cleanup_free_ char *path = lx_fix_quote(k->cc->conf->path);
	return lx_xasprintf("by hand: remove line %d ('%s: %s') from %s (apply keeps rules "
			    "it cannot tell are its own); %s%s",
			    r->line, key, value, path, inert ? "" : "then ", then);
}

static const char *device_allow_key(const struct lx_access *a)
{
	return a->keys == LX_CGROUP_V2 ? "lxc.cgroup2.devices.allow" : "lxc.cgroup.devices.allow";
}

/* How the node reaches the container, for messages. */
static char *granted_how(const struct lx_access_node *n)
{
	switch (n->via) {
	case LX_VIA_DEVN: return lx_xasprintf("given by a devN entry (line %d)", n->line);
	case LX_VIA_BIND: return lx_xasprintf("bind-mounted (line %d)", n->line);
	case LX_VIA_NVHOOK: return lx_xasprintf("mounted by NVIDIA's hook (line %d)", n->line);
	default: return lx_xstrdup("made by LXC");
	}
}

/* ---- start failures ---- */

/* The model's failure for a bind whose source the host lacks (as opposed to
 * one whose mount point is missing). */
static bool failure_is_missing_source(const struct lx_start_failure *f)
{
	return f->path && strstr(f->message, "does not exist on the host") != NULL;
}

static bool failure_on_line(const struct lx_access *a, const char *file, int line)
{
	for (size_t i = 0; i < a->n_failures; i++)
		if (a->failures[i].line == line && a->failures[i].file && file &&
		    strcmp(a->failures[i].file, file) == 0)
			return true;
	return false;
}

static bool failure_for_path(const struct lx_access *a, const char *path)
{
	for (size_t i = 0; i < a->n_failures; i++)
		if (a->failures[i].path && strcmp(a->failures[i].path, path) == 0)
			return true;
	return false;
}

/* "lxgpu apply ID --gpus BDF": the container's GPU lines for a GPU this
 * host has (the first bound to nvidia), for a line naming one it has not. */
static char *existing_gpu_fix(const struct checker *k)
{
	const struct lx_host *h = k->host;
	for (size_t i = 0; i < h->n_gpus; i++)
		if (h->gpus[i].driver && strcmp(h->gpus[i].driver, "nvidia") == 0)
			return lx_xasprintf("give the container a GPU this host has (this one, or "
					    "another that scan lists): `lxgpu apply %s --gpus %s`",
					    k->cc->id, h->gpus[i].bdf);
	return lx_xstrdup("by hand: remove the line; no GPU of this host is bound to nvidia");
}

/* A node the host lacks: uvm's the driver makes on request; a GPU's
 * /dev/nvidiaN exists only for a GPU the host has; others are the user's
 * to create or remove. */
static char *missing_node_fix(const struct checker *k, const char *path, int line)
{
	if (lx_str_starts_with(path, "/dev/nvidia-uvm"))
		return lx_xstrdup(LX_FIX_LOAD_UVM);
	if (lx_gpu_node_minor(path) >= 0)
		return existing_gpu_fix(k);
	return line > 0 ? lx_xasprintf("by hand: create %s on the host, or remove line %d", path,
				       line)
			: lx_xasprintf("by hand: create %s on the host, or remove its entry", path);
}

/* A start failure's fix: the model's own; a GPU line lxgpu owns, apply
 * rewrites; any other line is the user's. */
static char *failure_fix(const struct checker *k, const struct lx_start_failure *f,
			 const struct lx_conf_line *l)
{
	if (f->fix)
		return lx_xstrdup(f->fix);
	if (l && lx_gpu_owned_line(&k->cc->owned, l))
		return lx_xasprintf("rewrite the GPU line: `lxgpu apply %s`", k->cc->id);
	if (f->line > 0)
		return lx_xasprintf("by hand: fix or remove line %d of %s", f->line,
				    f->file ? f->file : k->cc->conf->path);
	return lx_xstrdup("by hand: fix the config as the message says");
}

/* A by-path link the host lacks: PVE's stat (devN) or LXC's mount fails.
 * Say which node the link named when the model has that GPU. */
static void by_path_gone(struct checker *k, const struct lx_start_failure *f, bool devn)
{
	const struct lx_host *h = k->host;
	int g = lx_host_gpu_of_drm_path(h, f->path);
	_cleanup_free_ char *target = lx_host_by_path_target(h, f->path);
	_cleanup_free_ char *why =
		target ? lx_xasprintf("GPU %s is here, but its link is gone; it named %s", h->gpus[g].bdf,
				      target)
		: g >= 0 ? lx_xasprintf("GPU %s is here but has no such DRM node", h->gpus[g].bdf)
			 : lx_xstrdup("no GPU has that PCI address on this host now (moved to another "
				      "slot, removed, or bound to vfio-pci)");
	finding(k, LXG056_BY_PATH_GONE, f->line, f->path,
		lx_xasprintf("%s does not exist on the host (%s): the container will not start",
			     f->path, why),
		target ? lx_xasprintf("let udev remake the link: `udevadm trigger --subsystem-match=drm`; "
				      "or name %s instead (line %d)", target, f->line)
		       : lx_xasprintf("by hand: find the GPU (scan lists the GPUs and their DRM "
				      "nodes), then %s it: `lxgpu apply %s --gpus ADDRESS`",
				      devn ? "give the entry" : "mount", k->cc->id));
}

static void check_failures(struct checker *k)
{
	const struct lx_access *a = k->access;
	for (size_t i = 0; i < a->n_failures; i++) {
		const struct lx_start_failure *f = &a->failures[i];
		bool in_config = f->file && strcmp(f->file, k->cc->conf->path) == 0;
		const struct lx_conf_line *l = in_config ? conf_line(k->cc->conf, f->line) : NULL;
		/* (a devN whose path a mount filled is there: LXG023, not missing) */
		bool devn = l && l->kind == LX_CONF_PVE_KEY && lx_conf_devn_index(l->key) >= 0 &&
			    !f->exists_inside;
		if (f->path && lx_str_starts_with(f->path, "/dev/dri/by-path/") &&
		    (devn || (l && failure_is_missing_source(f)))) {
			by_path_gone(k, f, devn);
		} else if (devn && f->path) {
			finding(k, LXG009_DEVN_NODE_MISSING, f->line, f->path,
				lx_xasprintf("%s does not exist on the host: the container will not start "
					     "(\"Device %s does not exist\")",
					     f->path, f->path),
				missing_node_fix(k, f->path, f->line));
		} else if (l && l->kind == LX_CONF_LXC_KEY && failure_is_missing_source(f)) {
			finding(k, LXG002_MISSING_NODE, f->line, f->path,
				lx_xasprintf("%s does not exist on the host and the mount entry has no "
					     "'optional': the container will not start",
					     f->path),
				missing_node_fix(k, f->path, f->line));
		} else {
			lx_findings_add(k->out, LXG023_WILL_NOT_START, k->cc->id,
					f->file ? f->file : k->cc->conf->path, f->line, f->path,
					lx_xstrdup(f->message),
					failure_fix(k, f, l));
		}
	}
}

/* ---- the nodes the GPUs need ---- */

/* Root of the container may open the node: privileged root; root of a user
 * namespace that maps the owner and the group (CAP_DAC_OVERRIDE holds only
 * then); else the owner bits when root owns it, else "other". */
static bool root_can_open(const struct lx_access *a, const struct lx_access_node *n)
{
	if (!a->unprivileged || (n->uid >= 0 && n->gid >= 0))
		return true;
	unsigned bits = n->uid == 0 ? (n->mode >> 6) & 07 : n->mode & 07;
	return (bits & 06) == 06;
}

/* Users of the container can open it: the model's test, except that the
 * nvidia-caps nodes are only read (they are 0444 on the host). */
static bool users_can_open(const struct lx_access *a, const struct lx_access_node *n)
{
	if (lx_str_starts_with(n->host_path, "/dev/nvidia-caps"))
		return (n->mode & 0004) || (n->gid > 0 && (n->mode & 0040));
	return lx_access_node_usable(n);
}

static char *id_text(long long id, const char *unmapped)
{
	return id < 0 ? lx_xstrdup(unmapped) : lx_xasprintf("%lld", id);
}

static void check_usable(struct checker *k, const struct lx_access_node *n)
{
	const struct lx_access *a = k->access;
	if (users_can_open(a, n))
		return;
	bool root_ok = root_can_open(a, n);
	bool cap = lx_str_starts_with(n->host_path, "/dev/nvidia-caps");
	const struct lx_dev_node *hn = lx_host_find_node(k->host, n->host_path);
	_cleanup_free_ char *uid = id_text(n->uid, "nobody"), *gid = id_text(n->gid, "nogroup");
	if (n->via == LX_VIA_DEVN)
		finding(k, LXG010_UNUSABLE_MODE, n->line, n->path,
			lx_xasprintf("PVE creates %s with mode %04o %s:%s in the container: %s can "
				     "open it",
				     n->path, n->mode, uid, gid, root_ok ? "only root" : "nobody"),
			lx_xasprintf("by hand: add mode=%s (or gid=<the container's video group>) to "
				     "the entry (line %d)",
				     cap ? "0444" : "0666", n->line));
	else
		finding(k, LXG010_UNUSABLE_MODE, n->line, n->path,
			lx_xasprintf("%s is %04o %u:%u on the host; in the container it is %s:%s, so %s "
				     "can open it",
				     n->path, n->mode, hn ? hn->uid : 0, hn ? hn->gid : 0, uid, gid,
				     root_ok ? "only root" : "not even root"),
			lx_xasprintf("give it as a devN entry with mode/gid: `lxgpu apply %s --style "
				     "devn`; or by hand: make it %s on the host, or map gid %u with "
				     "lxc.idmap",
				     k->cc->id, cap ? "0444" : "0666", hn ? hn->gid : 0));
	/* An error when even root cannot open a node the GPUs' work needs. A
	 * DRM card node is not one (CUDA opens the nvidia nodes, VA-API and ROCm
	 * the render node): the GPU still works, a warning. */
	if (!root_ok && (!k->needed || lx_strv_contains(k->needed, n->host_path)))
		lx_findings_last_severity(k->out, LX_SEVERITY_ERROR);
}

static const struct lx_configured_node *optional_bind_of(const struct lx_container_config *cc,
							  const char *path)
{
	for (size_t i = 0; i < cc->n_grants; i++)
		if (cc->grants[i].bind && cc->grants[i].optional && strcmp(cc->grants[i].path, path) == 0)
			return &cc->grants[i];
	return NULL;
}

static void denied_finding(struct checker *k, const struct lx_access_node *n, bool warn_only)
{
	const struct lx_access *a = k->access;
	_cleanup_free_ char *how = granted_how(n);
	_cleanup_free_ char *why = NULL;
	const struct lx_access_rule *stale = stale_rule_for(k, n);
	const struct lx_access_rule *wrong = first_wrong_version_rule(k);
	if (stale)
		why = lx_xasprintf("rule line %d ('%s') allows major %lld, which no device has "
				   "since the last boot",
				   stale->line, stale->value, stale->rule.major);
	else if (wrong)
		why = lx_xasprintf("the rule at line %d is a cgroup %s key, which LXC ignores on this "
				   "host, and no %s rule allows it",
				   wrong->line, a->keys == LX_CGROUP_V2 ? "v1" : "v2",
				   device_allow_key(a));
	else if (n->read)
		why = lx_xstrdup("the rules allow reading it but not writing (deny-write, or an "
				 "'r' rule)");
	else
		why = lx_xasprintf("no %s rule allows it", device_allow_key(a));
	finding(k, LXG022_CGROUP_DENIES_NEEDED, n->line, n->path,
		lx_xasprintf("%s (%c %u:%u) is %s but the device cgroup denies opening it "
			     "read-write: %s. Opening it in the container fails with EPERM: %s",
			     n->path, n->type, n->major, n->minor, how, why,
			     warn_only || strcmp(n->host_path, "/dev/nvidia-uvm-tools") != 0
				     ? needed_for(n->host_path)
				     : "CUDA fails"),
		n->via == LX_VIA_DEVN && n->read && !stale && !wrong
			? lx_xasprintf("by hand: remove deny-write from the devN entry (line %d)",
				       n->line)
			: apply_fix(k, stale && lx_major_is_dynamic((unsigned)stale->rule.major)));
	if (warn_only)
		lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
	else
		k->needed_denied = true;
}

void lx_needed_nodes(const struct lx_host *host, const struct lx_strv *gpus, struct lx_strv *out)
{
	bool nvidia = false, kfd = false;
	for (size_t i = 0; i < gpus->n; i++) {
		const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, gpus->items[i]);
		if (g && lx_gpu_kind(g) == LX_GPU_DRM) {
			/* VA-API, Level Zero, ROCm open the render node. */
			for (size_t d = 0; d < g->n_drm; d++)
				if (lx_str_starts_with(g->drm[d].name, "renderD"))
					lx_strv_push_owned(out, lx_xasprintf("/dev/dri/%s", g->drm[d].name));
			kfd |= lx_gpu_needs_kfd(g);
			continue;
		}
		nvidia = true;
		if (g && g->minor >= 0)
			lx_strv_push_owned(out, lx_xasprintf("/dev/nvidia%d", g->minor));
	}
	if (nvidia || gpus->n == 0) {
		lx_strv_push(out, "/dev/nvidiactl");
		lx_strv_push(out, "/dev/nvidia-uvm");
		lx_strv_push(out, "/dev/nvidia-uvm-tools");
	}
	if (kfd)
		lx_strv_push(out, "/dev/kfd");
}

bool lx_needed_node_is_optional(const char *path)
{
	/* uvm-tools: profilers only; kfd: ROCm only (video decoding on an AMD
	 * GPU needs the render node alone). */
	return strcmp(path, "/dev/nvidia-uvm-tools") == 0 || strcmp(path, "/dev/kfd") == 0;
}

/* What fails without a needed node, for the messages. */
static const char *needed_for(const char *path)
{
	if (strcmp(path, "/dev/kfd") == 0)
		return "ROCm (HIP, ollama) fails; video decoding works without it";
	if (strcmp(path, "/dev/nvidia-uvm-tools") == 0)
		return "CUDA profilers need it";
	if (lx_str_starts_with(path, "/dev/dri/"))
		return "hardware video and compute (VA-API, QSV, OpenCL) fail";
	return "CUDA fails";
}

const struct lx_access_node *lx_access_reached(const struct lx_access *a, const char *host_path)
{
	const struct lx_access_node *found = NULL;
	for (size_t i = 0; i < a->n_nodes; i++) {
		if (strcmp(a->nodes[i].host_path, host_path) != 0)
			continue;
		if (a->nodes[i].read_write)
			return &a->nodes[i];
		if (!found)
			found = &a->nodes[i];
	}
	return found;
}

/* A needed node the container has only at another path: a by-path devN
 * (Proxmox makes the node at the name given), a bind to another target.
 * Programs look for it by its own name (libva and Level Zero open
 * /dev/dri/renderD*, ROCm /dev/kfd): a warning, as one told the other path
 * still works. */
static void check_needed_elsewhere(struct checker *k, const struct lx_access_node *n,
				   const char *path)
{
	if (strcmp(n->path, path) == 0 || lx_access_find(k->access, path))
		return;
	const char *how = n->via == LX_VIA_DEVN ? "its devN entry names it so, and Proxmox makes the "
						  "node at the path given"
			  : n->via == LX_VIA_BIND ? "its mount entry puts it there"
						  : "it is mounted there";
	finding(k, LXG008_PLANNED_NODE_MISSING, n->line, path,
		lx_xasprintf("the container has %s only at %s (%s): nothing is at %s, where %s look "
			     "for it",
			     path, n->path, how, path,
			     strcmp(path, "/dev/kfd") == 0 ? "ROCm and HIP"
							 : "VA-API, QSV, Level Zero and ROCm"),
		lx_xasprintf("give the nodes entries of their own names: `lxgpu apply %s --style %s`",
			     k->cc->id, k->cc->is_pve ? "devn" : "lxc"));
	lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
}

static void check_needed_nodes(struct checker *k, const struct lx_strv *gpus)
{
	const struct lx_host *h = k->host;
	struct lx_strv needed = {0};
	lx_needed_nodes(h, gpus, &needed);
	/* The GPU node the messages name: the first one needed. */
	const char *first_gpu = needed.n > 0 && strcmp(needed.items[0], "/dev/nvidiactl") != 0
					? needed.items[0]
					: NULL;
	/* ... where the container has it (a by-path name, another target) */
	const struct lx_access_node *first_got = first_gpu ? lx_access_reached(k->access, first_gpu) : NULL;
	_cleanup_free_ char *first_text =
		!first_gpu ? lx_xstrdup("/dev/nvidiaN")
		: first_got && strcmp(first_got->path, first_gpu) != 0
			? lx_xasprintf("%s, at %s", first_gpu, first_got->path)
			: lx_xstrdup(first_gpu);
	for (size_t i = 0; i < needed.n; i++) {
		const char *path = needed.items[i];
		bool warn_only = lx_needed_node_is_optional(path);
		if (!lx_host_find_node(h, path)) {
			/* The container starts without it; the host is what to fix. */
			const struct lx_configured_node *g = optional_bind_of(k->cc, path);
			if (g) {
				finding(k, LXG002_MISSING_NODE, g->line, path,
					lx_xasprintf("%s does not exist on the host: the optional mount is "
						     "skipped and the container starts without it%s",
						     path, warn_only ? "" : ", so CUDA fails in it"),
					missing_node_fix(k, path, g->line));
				lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
			}
			continue;
		}
		const struct lx_access_node *n = lx_access_reached(k->access, path);
		/* NVIDIA's hook gives uvm only with compute (LXG064 says so), and a
		 * node it mounts but the cgroup denies is LXG063. */
		if (!n && k->access->nvhook.runs && lx_str_starts_with(path, "/dev/nvidia-uvm"))
			continue;
		if (n && n->via == LX_VIA_NVHOOK)
			continue;
		if (!n) {
			if (failure_for_path(k->access, path))
				continue; /* its line already fails the start */
			const struct lx_configured_node *g = find_grant(k->cc, path);
			_cleanup_free_ char *named =
				g ? lx_xasprintf(" (line %d names it, but LXC does not mount it there)",
						 g->line)
				  : lx_xstrdup("");
			finding(k, LXG008_PLANNED_NODE_MISSING, g ? g->line : 0, path,
				lx_xasprintf("the container has a GPU (%s) but will not have %s%s: %s",
					     first_text, path, named, needed_for(path)),
				lx_xasprintf("`lxgpu apply %s`", k->cc->id));
			if (warn_only)
				lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
		} else if (!n->read_write) {
			denied_finding(k, n, warn_only);
		}
		if (n)
			check_needed_elsewhere(k, n, path);
	}
	lx_strv_free(&needed);
	if (lx_host_major_by_name(h, "nvidia-uvm") == LX_UNKNOWN && h->driver.version)
		lx_findings_add(k->out, LXG020_UVM_NOT_LOADED, k->cc->id, NULL, 0, "/dev/nvidia-uvm",
				lx_xstrdup("nvidia-uvm is not loaded on the host: CUDA in this container "
					   "fails until it is"),
				lx_xstrdup(LX_FIX_LOAD_UVM));
}

/* Nodes of NVIDIA (and its GPUs' DRM nodes) that the container reaches and
 * may open, but its users cannot. */
static void check_modes(struct checker *k)
{
	for (size_t i = 0; i < k->access->n_nodes; i++) {
		const struct lx_access_node *n = &k->access->nodes[i];
		/* The nvidia-caps nodes' modes (0400) are the host's MIG access
		 * policy; only a devN entry, whose mode PVE sets, is judged. */
		bool caps = lx_str_starts_with(n->host_path, "/dev/nvidia-caps/");
		if (n->via != LX_VIA_AUTODEV && n->read_write &&
		    lx_gpu_owned_path(&k->cc->owned, n->host_path) && (!caps || n->via == LX_VIA_DEVN))
			check_usable(k, n);
	}
}

/* ---- device rules ---- */

/* The device cgroup lets through whatever no rule denies: allow rules change
 * nothing (an unprivileged container after userns.conf, a user's "a"). */
static bool cgroup_allows_by_default(const struct lx_dev_cgroup *cg)
{
	return cg->version == LX_CGROUP_V2 ? !cg->v2_block_all || cg->n_rules == 0
					   : cg->v1_default_allow;
}

static void check_stale_rules(struct checker *k)
{
	const struct lx_host *h = k->host;
	int uvm = lx_host_major_by_name(h, "nvidia-uvm");
	bool inert = cgroup_allows_by_default(&k->access->cgroup);
	for (size_t i = 0; i < k->access->n_rules; i++) {
		const struct lx_access_rule *r = &k->access->rules[i];
		if (!rule_is_stale(k, r))
			continue;
		_cleanup_free_ char *today =
			uvm != LX_UNKNOWN ? lx_xasprintf(" (nvidia-uvm is %d now)", uvm) : lx_xstrdup("");
		const char *which = h->majors_complete ? "no device has since the last boot"
				    : lx_host_kfd_major(h) != LX_UNKNOWN
					    ? "no NVIDIA or AMD (kfd) device has now"
					    : "no NVIDIA device has now";
		const char *effect = k->needed_denied
					     ? "the rule grants nothing, and a node the GPUs need is denied "
					       "(LXG022)"
				     : inert ? "the rule grants nothing, and this container needs no allow "
					       "rule: its device cgroup lets every device through"
					     : "the rule grants nothing today";
		finding(k, LXG001_STALE_MAJOR, r->line, NULL,
			lx_xasprintf("'%s: %s' allows major %lld, which %s%s: %s", r->key, r->value,
				     r->rule.major, which, today, effect),
			stale_fix(k, r, inert && !k->needed_denied));
		lx_findings_last_severity(k->out, k->needed_denied ? LX_SEVERITY_ERROR
						  : inert          ? LX_SEVERITY_INFO
								   : LX_SEVERITY_WARNING);
	}
}

/* A cgroup v1 key on a cgroup v2 host is more than ignored: pve-container
 * 6.1.6 warns at every start that it "is deprecated, this will be a hard
 * error in the future" (is_valid_lxc_conf_key), and LXC 7.0 refuses the
 * config (LXG023 where the host has it). */
static bool v1_key_deprecated(const struct checker *k, bool v1_key)
{
	return v1_key && k->host->cgroup == LX_CGROUP_V2;
}

static void check_rule_versions(struct checker *k)
{
	const struct lx_access *a = k->access;
	const char *pve = k->host->pve_container_version;
	bool pve_warns = k->cc->is_pve && pve && lx_version_cmp(pve, "6.1.6") >= 0;
	for (size_t i = 0; i < a->n_rules; i++) {
		const struct lx_access_rule *r = &a->rules[i];
		if (!raw_config_rule(k, r) || r->fate != LX_RULE_WRONG_VERSION)
			continue;
		bool v1_key = lx_str_starts_with(r->key, "lxc.cgroup.");
		bool deprecated = v1_key_deprecated(k, v1_key);
		/* In an unprivileged container the rules change nothing: only
		 * missing access, or a key that will break the start, matters. */
		if (a->unprivileged && !k->needed_denied && !deprecated)
			continue;
		const char *sub = r->key + strlen(v1_key ? "lxc.cgroup." : "lxc.cgroup2.");
		_cleanup_free_ char *future =
			!deprecated ? lx_xstrdup("")
			: pve_warns ? lx_xasprintf(". Proxmox (pve-container %s) warns at every start that "
						   "it is deprecated and will be a hard error, and LXC 7.0 "
						   "refuses it: the container will not start there",
						   pve)
				    : lx_xstrdup(". LXC 7.0 refuses it (\"Unsupported config key\"): the "
						 "container will not start there");
		finding(k, LXG006_WRONG_CGROUP_KEYS, r->line, NULL,
			lx_xasprintf("'%s: %s' is a cgroup %s key, but this host's device controller is "
				     "cgroup %s%s: LXC ignores it%s%s",
				     r->key, r->value, v1_key ? "v1" : "v2", v1_key ? "v2" : "v1",
				     k->host->cgroup == LX_CGROUP_HYBRID ? " (a hybrid host)" : "",
				     k->needed_denied ? ", and a node the GPUs need is denied (LXG022)" : "",
				     future),
			lx_xasprintf("write the host's keys (%s%s): `lxgpu apply %s`",
				     v1_key ? "lxc.cgroup2." : "lxc.cgroup.", sub, k->cc->id));
		if (!k->needed_denied)
			lx_findings_last_severity(k->out, !deprecated || pve_warns || !a->unprivileged
								  ? LX_SEVERITY_WARNING
								  : LX_SEVERITY_INFO);
	}
}

static void check_invalid_rules(struct checker *k)
{
	const struct lx_access *a = k->access;
	for (size_t i = 0; i < a->n_rules; i++) {
		const struct lx_access_rule *r = &a->rules[i];
		/* On cgroup v1 the kernel refuses it and the start fails: a failure. */
		if (!raw_config_rule(k, r) || r->fate != LX_RULE_INVALID ||
		    failure_on_line(a, r->file, r->line))
			continue;
		finding(k, LXG024_INVALID_RULE, r->line, NULL,
			lx_xasprintf("'%s: %s' is not a device rule LXC accepts (\"TYPE MAJOR:MINOR "
				     "ACCESS\", e.g. \"c 195:* rwm\"): LXC logs an error and leaves it "
				     "out, so it grants nothing",
				     r->key, r->value),
			lx_xasprintf("by hand: fix or remove line %d", r->line));
		if (k->needed_denied)
			lx_findings_last_severity(k->out, LX_SEVERITY_ERROR);
	}
}

/* A privileged container that may open a disk or /dev/mem: root in it can
 * read and write the host's devices (mknod is allowed there). */
static void check_over_broad(struct checker *k)
{
	const struct lx_access *a = k->access;
	if (a->unprivileged)
		return; /* no mknod, and only the nodes it is given */
	bool disk = lx_dev_cgroup_allows(&a->cgroup, 'b', 8, 0, LX_ACC_READ | LX_ACC_WRITE);
	bool mem = lx_dev_cgroup_allows(&a->cgroup, 'c', 1, 1, LX_ACC_READ | LX_ACC_WRITE);
	if (!disk && !mem)
		return;
	_cleanup_free_ char *what = lx_xasprintf("%s%s%s", disk ? "disks (b 8:0)" : "",
						 disk && mem ? " and " : "", mem ? "/dev/mem (c 1:1)" : "");
	size_t culprits = 0;
	for (size_t i = 0; i < a->n_rules; i++) {
		const struct lx_access_rule *r = &a->rules[i];
		if (!raw_config_rule(k, r) || r->fate != LX_RULE_APPLIED || !r->rule.allow ||
		    !(r->rule.all || r->rule.major < 0) ||
		    !(r->rule.all || (r->rule.access & (LX_ACC_READ | LX_ACC_WRITE))))
			continue;
		culprits++;
		finding(k, LXG007_OVER_BROAD_RULE, r->line, NULL,
			lx_xasprintf("'%s: %s' lets this privileged container open every %sdevice of "
				     "the host, %s included",
				     r->key, r->value, r->rule.type == 'c' ? "character " : "", what),
			lx_xasprintf("by hand: remove line %d and allow only the devices the container "
				     "needs (apply writes the GPU rules: `lxgpu apply %s`)",
				     r->line, k->cc->id));
	}
	if (!culprits)
		finding(k, LXG007_OVER_BROAD_RULE, 0, NULL,
			lx_xasprintf("the device cgroup of this privileged container lets it open %s: "
				     "no rule denies every device first",
				     what),
			lx_xasprintf("by hand: deny every device first (%s.deny = a), then allow what it "
				     "needs",
				     a->keys == LX_CGROUP_V2 ? "lxc.cgroup2.devices" : "lxc.cgroup.devices"));
}

/* LXC's basic /dev (null, zero, tty, ...) denied: init and most programs
 * fail. On a cgroup v2 host LXC starts from a list that blocks every device;
 * userns.conf's empty values clear the rules but not that list type, so any
 * rule left after them yields a program that blocks all else (LXC 5.0.2;
 * on Proxmox, pve-container's userns.conf.d/01-pve.conf sets "allow = a"). */
static void check_basic_devices(struct checker *k)
{
	const struct lx_access *a = k->access;
	struct lx_buf names = {0};
	for (size_t i = 0; i < a->n_nodes; i++)
		if (a->nodes[i].via == LX_VIA_AUTODEV && !a->nodes[i].read_write)
			lx_buf_printf(&names, "%s%s", names.len ? ", " : "", a->nodes[i].path);
	if (!names.len)
		return;
	_cleanup_free_ char *list = lx_buf_steal(&names);
	int first = 0;
	for (size_t i = 0; i < a->n_rules && !first; i++)
		if (raw_config_rule(k, &a->rules[i]) && a->rules[i].fate == LX_RULE_APPLIED)
			first = a->rules[i].line;
	finding(k, LXG025_BASIC_DEVICES_BLOCKED, first, NULL,
		lx_xasprintf("the device cgroup blocks %s: the container's init fails. %s", list,
			     a->unprivileged && a->keys == LX_CGROUP_V2
				     ? "userns.conf clears the device rules but LXC keeps its "
				       "block-all list type, so the rules left after it allow only "
				       "what they name"
				     : "LXC's device program blocks every device no rule allows, and "
				       "no rule allows these (common.conf's allow list is reset by a "
				       "'deny a', or not included)"),
		lx_xasprintf("by hand: %s; or allow c 1:3, 1:5, 1:7, 1:8, 1:9, 5:0 rwm as LXC's "
			     "common.conf does",
			     a->unprivileged ? "remove the device rules (in an unprivileged container "
					       "the binds, node modes and the idmap decide)"
					     : "keep common.conf's allow list (no 'deny a' after it)"));
}

/* ---- lines that name GPUs ---- */

/* /dev/nvidiaN of no GPU, or of one bound to another driver. */
static void check_gpu_names(struct checker *k, const struct lx_configured_node *g)
{
	const struct lx_host *h = k->host;
	if (lx_gpu_node_minor(g->path) < 0)
		return;
	int index = lx_host_gpu_of_node(h, g->path);
	const struct lx_gpu *gpu = index >= 0 ? &h->gpus[index] : NULL;
	const struct lx_gpu *elsewhere = NULL; /* a GPU bound to another driver */
	for (size_t i = 0; i < h->n_gpus && !elsewhere; i++)
		if (!h->gpus[i].driver || strcmp(h->gpus[i].driver, "nvidia") != 0)
			elsewhere = &h->gpus[i];
	if (!gpu && elsewhere)
		/* vfio-bound GPUs have no minor: the node likely meant this one. */
		finding(k, LXG004_GPU_ON_VFIO, g->line, g->path,
			lx_xasprintf("no GPU bound to nvidia has %s; GPU %s is bound to %s%s, not "
				     "nvidia",
				     g->path, elsewhere->bdf,
				     elsewhere->driver ? elsewhere->driver : "no driver",
				     elsewhere->driver && strcmp(elsewhere->driver, "vfio-pci") == 0
					     ? " (passed through to a VM)"
					     : ""),
			existing_gpu_fix(k));
	else if (!gpu)
		finding(k, LXG003_NO_SUCH_GPU, g->line, g->path,
			lx_xasprintf("%s belongs to no GPU of this host (it has %zu GPU%s; their "
				     "minors are in 'lxgpu scan')",
				     g->path, h->n_gpus, h->n_gpus == 1 ? "" : "s"),
			existing_gpu_fix(k));
	else if (!gpu->driver || strcmp(gpu->driver, "nvidia") != 0)
		finding(k, LXG004_GPU_ON_VFIO, g->line, g->path,
			lx_xasprintf("%s is GPU %s, which is bound to %s, not nvidia", g->path, gpu->bdf,
				     gpu->driver ? gpu->driver : "no driver"),
			existing_gpu_fix(k));
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
		if (!lx_gpu_owned_line(owned, &as_live) || live_has_line(conf, l->text))
			continue;
		const char *section = conf->lines[l->section].key;
		bool pending = strcasecmp(section, "pve:pending") == 0;
		_cleanup_free_ char *key = lx_fix_quote(l->key), *sect = lx_fix_quote(section);
		finding(k, LXG005_LINES_IN_SECTION, l->lineno, NULL,
			pending ? lx_xasprintf("'%s' is a pending change ([pve:pending]): it is not in "
					       "effect yet",
					       l->text)
				: lx_xasprintf("'%s' is inside snapshot [%s], not the live config: it is "
					       "never applied (a script appended it after the snapshot)",
					       l->text, section),
			pending ? lx_xasprintf("by hand: apply the pending changes (restart the "
					       "container), or revert them: `pct revert %s %s`",
					       k->cc->id, key)
				: lx_xasprintf("by hand: remove it from snapshot [%s]; then, as apply "
					       "writes only the live config: `lxgpu apply %s`",
					       sect, k->cc->id));
		if (pending)
			lx_findings_last_severity(k->out, LX_SEVERITY_INFO);
	}
}

/* Lines Proxmox cannot parse, by the rule apply refuses a file by
 * (config.h: LX_CONF_INVALID): PVE warns "unable to parse config" and
 * leaves the line out, so what it meant is not in effect. The one check of
 * a line on its own: it is no part of the container's access. In the live
 * section an error (apply refuses the file until it is fixed); in a
 * snapshot or [pve:pending] a warning (what a rollback or the pending
 * change brings back lacks it). */
void lx_verify_config_lines(const struct lx_container_config *cc, struct lx_findings *out)
{
	struct checker checker = {.cc = cc, .out = out}, *k = &checker;
	const struct lx_conf *conf = cc->conf;
	for (size_t i = 0; i < conf->n; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind != LX_CONF_INVALID)
			continue;
		_cleanup_free_ char *shown = lx_conf_line_shown(l);
		_cleanup_free_ char *where =
			l->section < 0 ? lx_xstrdup("")
				       : lx_xasprintf(" (in [%s])", conf->lines[l->section].key);
		/* PVE reads a NUL byte as any other; LXC splits its config as a C
		 * string (lxc_file_for_each_line_mmap), so nothing after it counts. */
		bool nul = memchr(l->text, '\0', l->len) != NULL;
		finding(k, LXG028_UNPARSEABLE_LINE, l->lineno, NULL,
			lx_xasprintf("this line does not parse as a Proxmox/LXC config line%s: '%s'. "
				     "%s%s",
				     where, shown,
				     nul ? "It holds a NUL byte: where it reaches LXC's config, LXC "
					   "stops reading there"
					 : "Proxmox warns and leaves it out",
				     l->section < 0 ? "; lxgpu apply refuses the file until it is fixed"
						    : ""),
			lx_xasprintf("by hand: fix or remove line %d ('key: value'; a raw LXC key "
				     "'lxc.key: value')",
				     l->lineno));
		if (l->section >= 0)
			lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
	}
}

void lx_verify_config(const struct lx_host *host, const struct lx_container_config *cc,
		      const struct lx_access *access, struct lx_findings *out)
{
	struct lx_strv gpus = {0};
	lx_container_gpus(host, cc, access, &gpus);
	lx_verify_config_gpus(host, cc, access, &gpus, out);
	lx_strv_free(&gpus);
}

void lx_verify_config_gpus(const struct lx_host *host, const struct lx_container_config *cc,
			   const struct lx_access *access, const struct lx_strv *gpus,
			   struct lx_findings *out)
{
	struct checker k = {.host = host, .cc = cc, .access = access, .out = out};
	lx_verify_config_lines(cc, out);
	check_failures(&k);
	for (size_t i = 0; i < cc->n_grants; i++)
		check_gpu_names(&k, &cc->grants[i]);
	/* The needed nodes first: stale and wrong-version rules are errors only
	 * when one of them is then denied. */
	struct lx_strv needed = {0};
	if (gpus->n) {
		check_needed_nodes(&k, gpus);
		lx_needed_nodes(host, gpus, &needed);
		k.needed = &needed;
	}
	check_modes(&k);
	k.needed = NULL;
	lx_strv_free(&needed);
	check_stale_rules(&k);
	check_rule_versions(&k);
	check_invalid_rules(&k);
	check_over_broad(&k);
	check_basic_devices(&k);
	check_sections(&k, &cc->owned);
	lx_verify_mig(host, cc, access, out);
	lx_verify_nvhook(host, cc, access, out);
}

/* ---- the container's render and video groups (Intel and AMD GPUs) ---- */

/* The name of a gid in /etc/group text; NULL when none has it. */
static char *group_name_of(const char *text, long long gid)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		const char *colon = memchr(line, ':', n);
		if (colon) {
			char *name = lx_xstrndup(line, (size_t)(colon - line));
			if (lx_group_text_gid(line, name) == gid)
				return name;
			free(name);
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

void lx_verify_drm_groups(const struct lx_host *host, const struct lx_container_config *cc,
			  const struct lx_access *access, int root_fd, struct lx_findings *out)
{
	if (root_fd < 0)
		return;
	_cleanup_free_ char *groups = NULL;
	bool read = false;
	for (size_t i = 0; i < access->n_nodes; i++) {
		const struct lx_access_node *n = &access->nodes[i];
		bool kfd = strcmp(n->host_path, "/dev/kfd") == 0;
		int g = lx_host_gpu_of_drm_path(host, n->host_path);
		if (n->via == LX_VIA_AUTODEV || !n->read_write ||
		    (!kfd && (g < 0 || lx_gpu_kind(&host->gpus[g]) != LX_GPU_DRM)))
			continue;
		/* Everyone may open it, or only root (LXG010 says so): no group matters. */
		if ((n->mode & 0006) == 0006 || (n->mode & 0060) != 0060)
			continue;
		bool render = kfd || lx_str_starts_with(n->host_path, "/dev/dri/renderD");
		const char *want_name = render ? "render" : "video";
		if (!read) {
			_cleanup_free_ char *why = NULL;
			groups = lx_rootfs_read_group(root_fd, &why);
			read = true;
			/* Distroless and OCI images have none: say that LXG055
			 * was not checked rather than nothing. */
			_cleanup_free_ char *gid = n->gid >= 0 ? lx_xasprintf("gid %lld", n->gid)
							       : lx_xstrdup("a gid its idmap leaves unmapped");
			if (!groups)
				lx_findings_add(
					out, LXG057_GROUP_UNCHECKED, cc->id, cc->conf->path, n->line,
					n->path,
					lx_xasprintf("the container's /etc/group cannot be read (%s): "
						     "whether %s (%04o, %s) is its %s group is not "
						     "checked (LXG055)",
						     why, n->path, n->mode, gid, want_name),
					lx_xasprintf("by hand: the program that opens %s needs %s among "
						     "its groups (an OCI image: its user's supplementary "
						     "groups), or the node mode 0666",
						     n->path, gid));
		}
		if (!groups)
			return;
		long long want = lx_group_text_gid(groups, want_name);
		if (want < 0 || n->gid == want)
			continue;
		_cleanup_free_ char *have_name = n->gid >= 0 ? group_name_of(groups, n->gid) : NULL;
		_cleanup_free_ char *have =
			n->gid < 0 ? lx_xstrdup("nogroup (its gid is not mapped by the container's idmap)")
			: have_name ? lx_xasprintf("gid %lld, which is '%s' there", n->gid, have_name)
				    : lx_xasprintf("gid %lld, which no group of the container has", n->gid);
		lx_findings_add(out, LXG055_DRM_GROUP_MISMATCH, cc->id, cc->conf->path, n->line, n->path,
				lx_xasprintf("%s is %04o with group %s, but the container's %s group is "
					     "gid %lld (its /etc/group): its %s users cannot open it",
					     n->path, n->mode, have, want_name, want, want_name),
				n->via == LX_VIA_DEVN
					/* apply keeps a devN entry it finds ("already has
					 * these GPU lines"): the gid is an edit */
					? lx_xasprintf("by hand: give the entry gid=%lld (line %d)", want,
						       n->line)
					: lx_xasprintf("give it as a devN entry with gid=%lld: `lxgpu apply %s "
						       "--style devn`",
						       want, cc->id));
	}
}
