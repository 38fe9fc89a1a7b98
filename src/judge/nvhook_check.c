/* Findings about NVIDIA's LXC hook (hooks/nvidia, docs/nvidia-hook.md):
 * the access model says what it does at the next start (lx_nvhook); this
 * says what is wrong with that and what to do. */
#include "lxgpu/judge.h"

#include <string.h>

static const char *allow_key(const struct lx_access *a)
{
	return a->keys == LX_CGROUP_V2 ? "lxc.cgroup2.devices.allow" : "lxc.cgroup.devices.allow";
}

static char *issue_fix(const struct lx_container_config *cc, const struct lx_nvhook *h,
		       const struct lx_nvhook_issue *i, const struct lx_access *a)
{
	switch (i->kind) {
	case LX_NVHOOK_NO_SCRIPT:
		return lx_xasprintf("by hand: install LXC's hook script (it comes with LXC as "
				    "/usr/share/lxc/hooks/nvidia) or correct the path on line %d",
				    h->line);
	case LX_NVHOOK_NO_CLI:
		return lx_xasprintf("by hand: install nvidia-container-cli on the host (package "
				    "libnvidia-container-tools from NVIDIA's repository), or give the "
				    "GPUs with device lines instead: remove line %d, then `lxgpu apply "
				    "%s --gpus all --driver-libs`",
				    h->line, cc->id);
	case LX_NVHOOK_NOT_MOUNT:
		return lx_xasprintf("by hand: make line %d 'lxc.hook.mount: %s'", h->line, h->script);
	case LX_NVHOOK_PRIVILEGED:
		return a->unprivileged
			       ? lx_xstrdup("by hand: map host uid 0 only as part of a larger range, or "
					    "not at all (the lxc.idmap 'u ... 0 1' line)")
			       : lx_xasprintf("by hand: the hook works only in unprivileged "
					      "containers: move the service to an unprivileged container; "
					      "or remove line %d and give the GPUs with device lines: "
					      "`lxgpu apply %s --gpus all --driver-libs`",
					      h->line, cc->id);
	case LX_NVHOOK_BAD_CAPABILITY:
		return lx_xasprintf("by hand: use only compute, compat32, display, graphics, "
				    "utility and video (or 'all' alone) on line %d, e.g. "
				    "NVIDIA_DRIVER_CAPABILITIES=compute,utility,video",
				    i->line);
	case LX_NVHOOK_NO_SUCH_GPU:
		return lx_xasprintf("by hand: set NVIDIA_VISIBLE_DEVICES on line %d to an index, "
				    "PCI address or UUID that scan shows, or to all",
				    i->line);
	case LX_NVHOOK_IDLE:
		return lx_xstrdup("by hand: add 'lxc.environment: NVIDIA_VISIBLE_DEVICES=all' "
				  "(or the GPUs' indexes) to the config, or remove the hook line when the container "
				  "needs no GPU");
	case LX_NVHOOK_NO_COMPUTE:
		return lx_xstrdup("by hand: set 'lxc.environment: "
				  "NVIDIA_DRIVER_CAPABILITIES=compute,utility' "
				  "(add video for NVENC/NVDEC)");
	}
	return NULL;
}

static enum lx_finding_code issue_code(enum lx_nvhook_problem kind)
{
	switch (kind) {
	case LX_NVHOOK_NO_SCRIPT:
	case LX_NVHOOK_NO_CLI: return LXG061_NVHOOK_HOST_LACKS;
	case LX_NVHOOK_NO_SUCH_GPU: return LXG062_NVHOOK_NO_SUCH_GPU;
	case LX_NVHOOK_IDLE:
	case LX_NVHOOK_NO_COMPUTE: return LXG064_NVHOOK_NO_CUDA;
	default: return LXG060_NVHOOK_REFUSES;
	}
}

/* The config's applied deny rule that covers the node, or NULL. */
static const struct lx_access_rule *denying_rule(const struct lx_access *a,
						  const struct lx_access_node *n)
{
	const struct lx_access_rule *found = NULL;
	for (size_t i = 0; i < a->n_rules; i++) {
		const struct lx_access_rule *r = &a->rules[i];
		if (!r->from_config || r->fate != LX_RULE_APPLIED || r->rule.allow)
			continue;
		if (r->rule.all || ((r->rule.type == 'a' || r->rule.type == n->type) &&
				    (r->rule.major < 0 || r->rule.major == n->major) &&
				    (r->rule.minor < 0 || r->rule.minor == n->minor)))
			found = r;
	}
	return found;
}

void lx_verify_nvhook(const struct lx_host *host, const struct lx_container_config *cc,
		      const struct lx_access *a, struct lx_findings *out)
{
	(void)host;
	const struct lx_nvhook *h = &a->nvhook;
	if (!h->present)
		return;
	for (size_t i = 0; i < h->n_issues; i++) {
		const struct lx_nvhook_issue *is = &h->issues[i];
		lx_findings_add(out, issue_code(is->kind), cc->id, is->file, is->line, NULL,
				lx_xstrdup(is->message), issue_fix(cc, h, is, a));
		/* "void" or empty: the hook switched off on purpose. */
		if (is->kind == LX_NVHOOK_IDLE && h->visible)
			lx_findings_last_severity(out, LX_SEVERITY_INFO);
	}
	if (h->runs && h->visible && strcmp(h->visible, "none") == 0)
		lx_findings_add(out, LXG064_NVHOOK_NO_CUDA, cc->id, h->file, h->line, NULL,
				lx_xstrdup("NVIDIA_VISIBLE_DEVICES=none: the hook gives the driver files "
					   "and /dev/nvidiactl but no GPU"),
				lx_xstrdup("by hand: set NVIDIA_VISIBLE_DEVICES to all or the GPUs' indexes when "
					   "the container should have a GPU"));
	if (!h->runs)
		return;
	/* It passes --no-cgroups: the container's own device cgroup decides. */
	for (size_t i = 0; i < a->n_nodes; i++) {
		const struct lx_access_node *n = &a->nodes[i];
		if (n->via != LX_VIA_NVHOOK || n->read_write)
			continue;
		bool tools = strcmp(n->host_path, "/dev/nvidia-uvm-tools") == 0;
		const struct lx_access_rule *deny = denying_rule(a, n);
		lx_findings_add(out, LXG063_NVHOOK_CGROUP_DENIES, cc->id, h->file, h->line, n->path,
				lx_xasprintf("NVIDIA's hook (line %d) bind-mounts %s (%c %u:%u) but "
					     "writes no device rule (--no-cgroups), and the container's "
					     "device cgroup denies opening it read-write: it fails with "
					     "EPERM, so %s",
					     h->line, n->path, n->type, n->major, n->minor,
					     tools ? "CUDA profilers fail" : "CUDA fails"),
				deny ? lx_xasprintf("by hand: remove line %d ('%s: %s'), which denies it",
						    deny->line, deny->key, deny->value)
				     : lx_xasprintf("by hand: add '%s: %c %u:%u rwm' to the config",
						    allow_key(a), n->type, n->major, n->minor));
		if (tools)
			lx_findings_last_severity(out, LX_SEVERITY_WARNING);
	}
}
