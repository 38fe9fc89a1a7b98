/* Preflight: will a container come up with working GPUs at its next start,
 * or at the first start after a host reboot? */
#include "lxgpu/predict.h"

#include <string.h>

const char *lx_verdict_name(enum lx_verdict v)
{
	return v == LX_VERDICT_WILL_FAIL ? "will fail" : v == LX_VERDICT_DEGRADED ? "degraded" : "ok";
}

static void push(struct lx_preflight *p, struct lx_reason r)
{
	/* The verdict and the exit status agree: an error reason (exit 1 by
	 * lx_judged_exit_status) is never an "ok" start. One of verify's
	 * errors whose effect on the start preflight does not model (a line
	 * Proxmox leaves out, LXG028; a group the users are not in, LXG055)
	 * means the container does not start as configured: degraded. */
	if (r.severity == LX_SEVERITY_ERROR && r.verdict == LX_VERDICT_OK)
		r.verdict = LX_VERDICT_DEGRADED;
	p->reasons = lx_xrealloc(p->reasons, (p->n + 1) * sizeof(*p->reasons));
	p->reasons[p->n++] = r;
	if (r.verdict > p->verdict)
		p->verdict = r.verdict;
}

/* The severity of a reason only preflight gives: a start that fails is an
 * error; a degraded one has its code's severity, as verify gives the code
 * (a missing module or a stale include file an error, nvidia-uvm not made
 * at boot a warning), at least a warning; a reason that leaves the start
 * ok is a note. The exit status follows it (lx_judged_exit_status). */
static enum lx_severity reason_severity(enum lx_finding_code code, enum lx_verdict v)
{
	if (v == LX_VERDICT_WILL_FAIL)
		return LX_SEVERITY_ERROR;
	if (v == LX_VERDICT_OK)
		return LX_SEVERITY_INFO;
	enum lx_severity s = lx_finding_info(code)->severity;
	return s > LX_SEVERITY_WARNING ? s : LX_SEVERITY_WARNING;
}

static void reason(struct lx_preflight *p, enum lx_finding_code code, enum lx_verdict verdict,
		   char *message, char *fix)
{
	push(p, (struct lx_reason){.code = code, .verdict = verdict,
				   .severity = reason_severity(code, verdict),
				   .message = message, .fix = fix});
}

void lx_preflight_add_finding(struct lx_preflight *p, struct lx_finding *x,
			      enum lx_verdict verdict)
{
	push(p, (struct lx_reason){.code = x->code, .verdict = verdict, .severity = x->severity,
				   .file = x->file, .line = x->line, .node = x->node,
				   .message = x->message, .fix = x->fix});
	x->file = x->node = x->message = x->fix = NULL;
}

void lx_preflight_free(struct lx_preflight *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->reasons[i].file);
		free(p->reasons[i].node);
		free(p->reasons[i].message);
		free(p->reasons[i].fix);
	}
	free(p->reasons);
	memset(p, 0, sizeof(*p));
}

void lx_preflight_add(struct lx_preflight *p, enum lx_finding_code code, enum lx_verdict verdict,
		      char *message, char *fix)
{
	reason(p, code, verdict, message, fix);
}

enum lx_severity lx_reason_severity(const struct lx_reason *r)
{
	return r->severity;
}

static const struct lx_configured_node *grant_of(const struct lx_container_config *cc,
						  const char *path)
{
	for (size_t i = 0; path && i < cc->n_grants; i++)
		if (strcmp(cc->grants[i].path, path) == 0)
			return &cc->grants[i];
	return NULL;
}

/* Nodes without which CUDA does not work. */
static bool essential(const char *path)
{
	const char *name = path + strlen("/dev/");
	return strcmp(name, "nvidiactl") == 0 || strcmp(name, "nvidia-uvm") == 0 ||
	       lx_gpu_node_minor(path) >= 0;
}

/* What a node missing at start does to this container. */
static enum lx_verdict missing_node_verdict(const struct lx_configured_node *g)
{
	if (g->devn || !g->optional)
		return LX_VERDICT_WILL_FAIL; /* PVE: "Device ... does not exist"; LXC: mount fails */
	return essential(g->path) ? LX_VERDICT_DEGRADED : LX_VERDICT_OK;
}

void lx_preflight_next_start(const struct lx_host *host, const struct lx_container_config *cc,
			     const struct lx_strv *driver_versions,
			     const struct lx_access_options *aopts, struct lx_preflight *out)
{
	memset(out, 0, sizeof(*out));
	struct lx_findings f = {0};
	struct lx_access access;
	struct lx_error err = {0};
	if (lx_access_compute(host, cc->conf, cc->is_pve, aopts, &access, &err) < 0) {
		reason(out, LXG023_WILL_NOT_START, LX_VERDICT_WILL_FAIL, lx_xstrdup(err.message),
		       lx_xstrdup("fix the config's lxc.include lines"));
		lx_error_clear(&err);
		return;
	}
	lx_verify_config(host, cc, &access, &f);
	lx_access_free(&access);
	for (size_t i = 0; i < f.n; i++) {
		struct lx_finding *x = &f.items[i];
		bool error = x->severity == LX_SEVERITY_ERROR;
		enum lx_verdict v = LX_VERDICT_OK;
		switch (x->code) {
		case LXG009_DEVN_NODE_MISSING:
		case LXG023_WILL_NOT_START:
		case LXG025_BASIC_DEVICES_BLOCKED:
		/* NVIDIA's hook exits 1, or nvidia-container-cli fails: the start fails */
		case LXG060_NVHOOK_REFUSES:
		case LXG061_NVHOOK_HOST_LACKS:
		case LXG062_NVHOOK_NO_SUCH_GPU: v = LX_VERDICT_WILL_FAIL; break;
		/* it starts without a node or without CUDA (a note: the hook is off on purpose) */
		case LXG063_NVHOOK_CGROUP_DENIES:
		case LXG064_NVHOOK_NO_CUDA:
			v = x->severity == LX_SEVERITY_INFO ? LX_VERDICT_OK : LX_VERDICT_DEGRADED;
			break;
		/* error: a mount without "optional" fails the start; warning: a
		 * node CUDA needs is skipped */
		case LXG002_MISSING_NODE: v = error ? LX_VERDICT_WILL_FAIL : LX_VERDICT_DEGRADED; break;
		case LXG003_NO_SUCH_GPU:
		case LXG004_GPU_ON_VFIO:
		case LXG010_UNUSABLE_MODE:
		case LXG020_UVM_NOT_LOADED: v = LX_VERDICT_DEGRADED; break;
		case LXG001_STALE_MAJOR:
		case LXG006_WRONG_CGROUP_KEYS:
		case LXG008_PLANNED_NODE_MISSING:
		case LXG022_CGROUP_DENIES_NEEDED:
			v = error ? LX_VERDICT_DEGRADED : LX_VERDICT_OK;
			break;
		default: v = LX_VERDICT_OK; break;
		}
		lx_preflight_add_finding(out, x, v);
	}
	lx_findings_free(&f);
	for (size_t i = 0; driver_versions && host->driver.version && i < driver_versions->n; i++)
		if (strcmp(driver_versions->items[i], host->driver.version) != 0)
			reason(out, LXG011_DRIVER_MISMATCH, LX_VERDICT_DEGRADED,
			       lx_xasprintf("its driver libraries are %s, the loaded module is %s: NVML "
					    "and CUDA fail (version mismatch)",
					    driver_versions->items[i], host->driver.version),
			       lx_xasprintf("install the %s userspace driver in the container",
					    host->driver.version));
}

/* Blackwell needs the open module; pre-Turing (no GSP) the proprietary one. */
static bool is_pre_turing(const struct lx_gpu *g)
{
	return !lx_gpu_has_gsp(g);
}

/* Give every GPU node of the container the same fate (no module, no firmware...). */
static void gpu_nodes_fail(struct lx_preflight *out, enum lx_finding_code code,
			   const struct lx_container_config *cc, const char *why, const char *fix)
{
	enum lx_verdict worst = LX_VERDICT_OK;
	for (size_t i = 0; i < cc->n_grants; i++) {
		enum lx_verdict v = missing_node_verdict(&cc->grants[i]);
		if (v > worst)
			worst = v;
	}
	if (cc->n_grants)
		reason(out, code, worst == LX_VERDICT_OK ? LX_VERDICT_DEGRADED : worst,
		       lx_xasprintf("%s: no GPU node will exist%s", why,
				    worst == LX_VERDICT_WILL_FAIL ? ", and its config needs them to start"
								  : ""),
		       lx_xstrdup(fix));
}

static bool container_uses_gpu(const struct lx_host *host, const struct lx_container_config *cc,
			       bool (*test)(const struct lx_gpu *), const struct lx_gpu **which)
{
	for (size_t i = 0; i < cc->gpus.n; i++) {
		const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, cc->gpus.items[i]);
		if (g && test(g)) {
			*which = g;
			return true;
		}
	}
	return false;
}

static bool rule_hard_codes_dynamic_major(const struct lx_host *host, const struct lx_conf *conf,
					  const char **line)
{
	static const char *const dynamic[] = {"nvidia-uvm", "nvidia-caps", "nvidia-caps-imex-channels"};
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind != LX_CONF_LXC_KEY || !strstr(l->key, "devices.allow"))
			continue;
		for (size_t d = 0; d < 3; d++) {
			int major = lx_host_major_by_name(host, dynamic[d]);
			char needle[16];
			snprintf(needle, sizeof(needle), " %d:", major);
			if (major != LX_UNKNOWN && strstr(l->value, needle)) {
				*line = l->text;
				return true;
			}
		}
	}
	return false;
}

void lx_preflight_next_boot(const struct lx_host *host, const struct lx_container_config *cc,
			    const struct lx_strv *driver_versions, const struct lx_next_boot *nb,
			    struct lx_preflight *out)
{
	memset(out, 0, sizeof(*out));
	if (cc->n_grants == 0)
		return;
	if (!nb->module_path) {
		_cleanup_free_ char *why = lx_xasprintf("kernel %s (%s) has no nvidia module", nb->kernel,
							nb->kernel_source);
		_cleanup_free_ char *fix = lx_next_boot_module_fix(nb, host->kernel);
		gpu_nodes_fail(out, LXG120_MODULE_NOT_LOADED, cc, why, fix);
		return;
	}
	const char *loaded = host->driver.version;
	const char *next = nb->module_version ? nb->module_version : "unknown";
	const struct lx_gpu *g;
	if (nb->module_flavor == LX_FLAVOR_PROPRIETARY &&
	    container_uses_gpu(host, cc, lx_gpu_needs_open_module, &g)) {
		_cleanup_free_ char *why = lx_xasprintf(
			"the proprietary module %s does not support GPU %s (%s, Blackwell)", next, g->bdf,
			g->model ? g->model : "");
		gpu_nodes_fail(out, LXG101_NEEDS_OPEN_MODULE, cc, why,
			       "install the open kernel modules (nvidia-open / --kernel-module-type=open)");
	}
	if (nb->module_flavor == LX_FLAVOR_OPEN && container_uses_gpu(host, cc, is_pre_turing, &g)) {
		_cleanup_free_ char *why = lx_xasprintf("the open module %s does not support GPU %s (%s, "
							"older than Turing)",
							next, g->bdf, g->model ? g->model : "");
		gpu_nodes_fail(out, LXG102_NO_GSP, cc, why, "install the proprietary kernel module");
	}
	if (nb->module_flavor == LX_FLAVOR_OPEN && nb->module_version && !nb->firmware_present) {
		_cleanup_free_ char *why = lx_xasprintf(
			"the open module %s needs GSP firmware in /lib/firmware/nvidia/%s, which is "
			"missing",
			next, next);
		gpu_nodes_fail(out, LXG107_GSP_FIRMWARE_MISSING, cc, why,
			       "reinstall the driver package that matches the module");
	}
	if (loaded && nb->module_version && strcmp(loaded, nb->module_version) != 0) {
		bool matches_today = false;
		for (size_t i = 0; driver_versions && i < driver_versions->n; i++)
			matches_today |= strcmp(driver_versions->items[i], loaded) == 0;
		if (matches_today)
			reason(out, LXG011_DRIVER_MISMATCH, LX_VERDICT_DEGRADED,
			       lx_xasprintf("the module that loads after the reboot is %s (%s); the "
					    "container's driver libraries are %s: NVML and CUDA will fail "
					    "(version mismatch)",
					    next, nb->module_path, loaded),
			       lx_xasprintf("install the %s userspace driver in the container with the "
					    "reboot",
					    next));
		else
			reason(out, LXG011_DRIVER_MISMATCH, LX_VERDICT_OK,
			       lx_xasprintf("the driver changes from %s to %s with the reboot: the "
					    "container's userspace must be %s then",
					    loaded, next, next),
			       NULL);
	}
	const struct lx_configured_node *uvm = grant_of(cc, "/dev/nvidia-uvm");
	if (uvm && !nb->uvm_at_boot) {
		enum lx_verdict v = missing_node_verdict(uvm);
		const char *onboot = lx_conf_get(cc->conf, "onboot");
		reason(out, LXG020_UVM_NOT_LOADED, v,
		       lx_xasprintf("nothing creates /dev/nvidia-uvm at boot before guests start: "
				    "%s%s",
				    v == LX_VERDICT_WILL_FAIL ? "the container will not start"
							      : "the container starts without CUDA",
				    onboot && strcmp(onboot, "1") == 0 ? " (it starts at boot: onboot: 1)"
								       : " if started before the node exists"),
		       lx_xstrdup("install the unit this prints: `lxgpu preflight --print-boot-unit`"));
	}
	const char *line;
	bool changes = (nb->module_version && loaded && strcmp(nb->module_version, loaded) != 0) ||
		       (host->kernel && strcmp(host->kernel, nb->kernel) != 0);
	if (rule_hard_codes_dynamic_major(host, cc->conf, &line))
		reason(out, LXG001_STALE_MAJOR, changes ? LX_VERDICT_DEGRADED : LX_VERDICT_OK,
		       lx_xasprintf("'%s' hard-codes a major that is assigned when the module loads%s",
				    line,
				    changes ? ": with a new kernel or driver it is likely to change"
					    : ": it can change at any boot"),
		       lx_fix_hard_coded_major(cc->id, cc->is_pve));
}
