/* apply's decisions around the reconcile (include/lxgpu/reconcile.h): the
 * options the container's config gives where the command line says
 * nothing, and the refusals: a config that does not parse or that Proxmox
 * has locked, a privilege flip, a container without GPUs
 * and no --gpus, a result that would not start, an include file that is
 * not lxgpu's. */
#include "lxgpu/incfile.h"
#include "lxgpu/reconcile.h"

#include <string.h>
#include <strings.h>

void lx_refusal_free(struct lx_refusal *r)
{
	free(r->message);
	free(r->fix);
	memset(r, 0, sizeof(*r));
}

/* Takes message and fix; false, for `return refuse(...)`. */
static bool refuse(struct lx_refusal *why, enum lx_refusal_kind kind, enum lx_finding_code code,
		   char *message, char *fix)
{
	lx_refusal_free(why);
	*why = (struct lx_refusal){kind, code, message, fix};
	return false;
}

bool lx_apply_may_change(const struct lx_conf_txn *txn, const struct lx_conf *conf, bool read_only,
			 const char **lock, struct lx_refusal *why)
{
	*lock = txn->is_pve ? lx_conf_get(conf, "lock") : NULL;
	const struct lx_conf_line *bad = lx_conf_first_invalid(conf);
	if (bad) {
		_cleanup_free_ char *line = lx_conf_line_shown(bad);
		return refuse(why, LX_REFUSAL_INVALID_LINE, 0,
			      lx_xasprintf("%s:%d: this line does not parse as a Proxmox/LXC config "
					   "line: '%s'",
					   txn->path, bad->lineno, line),
			      lx_xstrdup("fix or remove it first"));
	}
	if (*lock && !read_only)
		return refuse(why, LX_REFUSAL_LOCKED, 0,
			      lx_xasprintf("CT %s is locked ('lock: %s' in %s): an operation (backup, "
					   "migration, snapshot, ...) is running.",
					   txn->id, *lock, txn->path),
			      lx_xasprintf("Wait for it to finish, or clear a stale lock with "
					   "'pct unlock %s'",
					   txn->id));
	return true;
}

bool lx_plan_options_for_container(const struct lx_host *host, const struct lx_conf *conf,
				   bool is_pve, const struct lx_apply_given *given,
				   struct lx_plan_options *opts, struct lx_refusal *why)
{
	if (!is_pve && given->style && (opts->style == LX_STYLE_DEVN || opts->style == LX_STYLE_RAW))
		return refuse(why, LX_REFUSAL_PVE_STYLE, 0,
			      lx_xasprintf("%s is a plain LXC config: %s lines are Proxmox's",
					   conf->path, lx_style_name(opts->style)),
			      lx_xstrdup("use --style lxc"));
	if (!is_pve && !given->style)
		opts->style = LX_STYLE_LXC; /* a plain LXC config takes "key = value" lines */
	if (!given->privilege)
		opts->unprivileged = lx_conf_unprivileged(conf, is_pve);
	/* devN indexes held by other devices, live or pending, stay theirs.
	 * "Other" by the rules apply replaces lines with (an iGPU's renderD128
	 * keeps its entry, so it keeps its index too). */
	struct lx_gpu_owned owned;
	lx_gpu_owned_from_host(host, &owned);
	for (size_t i = 0; i < conf->n; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		bool pending = l->section >= 0 && conf->lines[l->section].key &&
			       strcasecmp(conf->lines[l->section].key, "pve:pending") == 0;
		int index = l->kind == LX_CONF_PVE_KEY && (l->section == -1 || pending)
				    ? lx_conf_devn_index(l->key)
				    : -1;
		if (index < 0)
			continue;
		struct lx_conf_line as_live = *l;
		as_live.section = -1;
		if (!lx_gpu_owned_line(&owned, &as_live))
			opts->dev_taken[index] = true;
	}
	lx_gpu_owned_free(&owned);
	return true;
}

bool lx_apply_privilege(const struct lx_conf *conf, bool is_pve, const struct lx_apply_given *given,
			bool unprivileged, int *set_unprivileged, struct lx_refusal *why)
{
	*set_unprivileged = -1;
	bool now = lx_conf_unprivileged(conf, is_pve);
	if (!given->privilege || unprivileged == now)
		return true;
	const char *from = now ? "unprivileged" : "privileged";
	const char *to = now ? "privileged" : "unprivileged";
	if (!is_pve)
		return refuse(why, LX_REFUSAL_LXC_IDMAP, 0,
			      lx_xasprintf("%s is %s (lxc.idmap): lxgpu does not change a plain LXC "
					   "container's id mapping",
					   conf->path, from),
			      lx_xasprintf("drop --%s", to));
	if (!given->allow_privilege_change)
		return refuse(why, LX_REFUSAL_PRIVILEGE_FLIP, 0,
			      lx_xasprintf("%s is %s but --%s was given. lxgpu does not flip it: "
					   "changing 'unprivileged' does not remap the rootfs ownership "
					   "(uid 0 <-> 100000), so the container would no longer work.",
					   conf->path, from, to),
			      lx_xasprintf("Back it up and restore it with the other mode (vzdump, then "
					   "pct restore --unprivileged %d), or pass "
					   "--allow-privilege-change if its rootfs is already mapped",
					   now ? 0 : 1));
	*set_unprivileged = unprivileged ? 1 : 0;
	return true;
}

/* "\n  0  0000:01:00.0  NVIDIA ..." per GPU: what --gpus can name. */
static char *host_gpu_list(const struct lx_host *host)
{
	struct lx_buf list = {0};
	for (size_t i = 0; i < host->n_gpus; i++)
		lx_buf_printf(&list, "\n  %zu  %s  %s%s", i, host->gpus[i].bdf,
			      host->gpus[i].model ? host->gpus[i].model : "(model unknown)",
			      host->gpus[i].driver && strcmp(host->gpus[i].driver, "nvidia") == 0
				      ? ""
				      : " (not bound to nvidia)");
	char *text = lx_xstrdup(list.len ? list.data : " none");
	lx_buf_free(&list);
	return text;
}

/* apply's defaults come from what the container has now: its GPUs, its
 * style, its DRM and caps access. A container without GPUs needs --gpus. */
static int defaults_from_container(const struct lx_apply_input *in, struct lx_plan_options *opts,
				   char **gpus, struct lx_refusal *why, struct lx_error *err)
{
	const struct lx_conf *conf = in->conf;
	bool is_pve = in->txn->is_pve;
	struct lx_access now;
	if (lx_access_compute(in->host, conf, is_pve, in->access_opts, &now, err) < 0)
		return -1;
	struct lx_current cur;
	lx_access_current(in->host, conf, &now, &cur);
	lx_access_free(&now);
	if (!in->given.gpus && !cur.gpus) {
		_cleanup_free_ char *list = host_gpu_list(in->host);
		refuse(why, LX_REFUSAL_NO_GPUS, 0,
		       lx_xasprintf("%s gives the container no GPU yet", conf->path),
		       lx_xasprintf("say which with --gpus (an index, a PCI address, GPU-<uuid>, "
				    "numa:N, best:N or all). This host's GPUs:%s",
				    list));
	} else if (!in->given.gpus) {
		*gpus = lx_xstrdup(cur.gpus);
		opts->gpus = *gpus;
	}
	if (!in->given.style && lx_incfile_find_line(conf, in->state_dir))
		opts->style = LX_STYLE_INCLUDE; /* its GPU lines live in lxgpu's include file */
	else if (!in->given.style && (cur.devn || cur.raw))
		opts->style = cur.devn ? LX_STYLE_DEVN : is_pve ? LX_STYLE_RAW : LX_STYLE_LXC;
	opts->dri |= cur.dri;
	opts->caps |= cur.caps;
	opts->mig_config |= cur.mig_config;
	opts->mig_monitor |= cur.mig_monitor;
	lx_current_free(&cur);
	return 0;
}

/* A GPU the result gives that a VM passes through too: audit's and
 * verify's LXG013, refused. */
static bool check_vms(const struct lx_apply_input *in, const struct lx_reconcile_result *res,
		      struct lx_refusal *why)
{
	if (!in->vms || in->given.force)
		return true;
	struct lx_conf after;
	lx_conf_parse(in->conf->path, res->text, res->len, &after);
	struct lx_current cur;
	lx_access_current(in->host, &after, &res->after, &cur);
	struct lx_findings found = {0};
	lx_vm_gpu_findings(in->vms, in->txn->id, &cur.bdfs, &found);
	bool ok = found.n == 0;
	if (!ok) {
		struct lx_buf msg = {0};
		for (size_t i = 0; i < found.n; i++)
			lx_buf_printf(&msg, "%s%s", i ? "; " : "", found.items[i].message);
		refuse(why, LX_REFUSAL_GPU_IN_VM, LXG013_GPU_IN_VM, lx_buf_steal(&msg),
		       lx_xasprintf("%s, or pass --force to give it to the container anyway",
				    found.items[0].fix));
		lx_buf_free(&msg);
	}
	lx_findings_free(&found);
	lx_current_free(&cur);
	lx_conf_free(&after);
	return ok;
}

/* A lost node --gpus allows: one of a GPU it leaves out, or a node GPUs of
 * one vendor share (nvidiactl, nvidia-uvm, kfd) when it selects none of
 * that vendor's GPUs. */
static bool deselected(const struct lx_host *host, const size_t *sel, size_t n_sel,
		       const char *host_path)
{
	int g = lx_gpu_node_minor(host_path) >= 0 ? lx_host_gpu_of_node(host, host_path)
						   : lx_host_gpu_of_drm_path(host, host_path);
	bool kfd = strcmp(host_path, "/dev/kfd") == 0;
	for (size_t i = 0; i < n_sel; i++) {
		const struct lx_gpu *s = &host->gpus[sel[i]];
		if (g >= 0 ? (int)sel[i] == g
			   : kfd ? lx_gpu_needs_kfd(s) : lx_gpu_kind(s) != LX_GPU_DRM)
			return false;
	}
	return true;
}

/* apply's invariant: the result gives the container every GPU node it has
 * now (at the path it has it, or another), unless --gpus leaves its GPU
 * out. Both sides are what the config's own lines give (as the reconcile
 * judges them: NVIDIA's hook left out). */
static int check_keeps_nodes(const struct lx_apply_input *in, const char *gpus,
			     const struct lx_reconcile_result *res, struct lx_refusal *why,
			     struct lx_error *err)
{
	struct lx_access_options opts;
	if (in->access_opts)
		opts = *in->access_opts;
	else
		lx_access_options_default(&opts);
	opts.without_nvhook_nodes = true;
	struct lx_access now;
	if (lx_access_compute(in->host, in->conf, in->txn->is_pve, &opts, &now, err) < 0)
		return -1;
	size_t *sel = NULL, n_sel = 0;
	if (in->given.gpus && lx_select_gpus(in->host, gpus, &sel, &n_sel, err) < 0) {
		lx_access_free(&now);
		return -1;
	}
	struct lx_gpu_owned owned;
	lx_gpu_owned_from_host(in->host, &owned);
	struct lx_strv had = {0}, kept = {0};
	lx_access_gpu_nodes(&owned, &now, &had);
	lx_access_gpu_nodes(&owned, &res->after, &kept);
	struct lx_buf lost = {0};
	for (size_t i = 0; i < had.n; i++) {
		const char *p = had.items[i];
		if (lx_strv_contains(&kept, p) || (in->given.gpus && deselected(in->host, sel, n_sel, p)))
			continue;
		const struct lx_access_node *inside = NULL;
		for (size_t k = 0; k < now.n_nodes && !inside; k++)
			if (strcmp(now.nodes[k].host_path, p) == 0)
				inside = &now.nodes[k];
		lx_buf_printf(&lost, "%s%s", lost.len ? ", " : "", p);
		if (inside && strcmp(inside->path, p) != 0)
			lx_buf_printf(&lost, " (at %s)", inside->path);
	}
	if (lost.len)
		refuse(why, LX_REFUSAL_LOSES_NODES, 0,
		       lx_xasprintf("the new config of CT %s would not give it %s, which it has now: "
				    "apply keeps every GPU node a container has unless --gpus leaves its "
				    "GPU out",
				    in->txn->id, lost.data),
		       lx_xstrdup("name the GPUs the container is to keep with --gpus, or change "
				  "those lines by hand; this is lxgpu's own check, please report the "
				  "config"));
	lx_buf_free(&lost);
	lx_strv_free(&had);
	lx_strv_free(&kept);
	lx_gpu_owned_free(&owned);
	free(sel);
	lx_access_free(&now);
	return 0;
}

/* The result must keep the container's GPU nodes, start, give no VM's GPU,
 * and its include file may replace only lxgpu's. */
static int check_result(const struct lx_apply_input *in, const char *gpus,
			struct lx_apply_result *out, struct lx_refusal *why, struct lx_error *err)
{
	const struct lx_reconcile_result *res = &out->reconciled;
	if (check_keeps_nodes(in, gpus, res, why, err) < 0)
		return -1;
	if (why->kind != LX_REFUSAL_NONE)
		return 0;
	if (res->after.n_failures && !in->given.force) {
		/* PVE and LXC refuse what the model refuses. */
		refuse(why, LX_REFUSAL_WOULD_NOT_START, LXG023_WILL_NOT_START,
		       lx_xasprintf("CT %s would not start with this config", in->txn->id),
		       lx_xstrdup("fix the host or the line, or pass --force"));
		return 0;
	}
	if (!check_vms(in, res, why))
		return 0;
	if (!res->include_text)
		return 0;
	if (lx_read_file_optional(out->include_path, 1u << 20, &out->include_old, NULL, err) < 0)
		return -1;
	/* A file there that lxgpu did not write is the user's: not replaced. */
	if (out->include_old && !lx_incfile_text_is_ours(out->include_old) && !in->given.force)
		refuse(why, LX_REFUSAL_INCLUDE_NOT_OURS, LXG041_INCLUDE_NOT_OURS,
		       lx_xasprintf("%s exists and is not lxgpu's include file (its first line is "
				    "not '%s')",
				    out->include_path, LX_INCFILE_MARK),
		       lx_xstrdup("move it away, or pass --force to replace it"));
	return 0;
}

void lx_apply_result_free(struct lx_apply_result *r)
{
	lx_reconcile_result_free(&r->reconciled);
	free(r->include_path);
	free(r->include_old);
	memset(r, 0, sizeof(*r));
}

int lx_apply_prepare(const struct lx_apply_input *in, struct lx_apply_result *out,
		     struct lx_refusal *why, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	memset(why, 0, sizeof(*why));
	out->set_unprivileged = -1;
	const struct lx_conf_txn *txn = in->txn;
	struct lx_plan_options opts = *in->plan_opts;
	_cleanup_free_ char *gpus = NULL;
	if (!lx_plan_options_for_container(in->host, in->conf, txn->is_pve, &in->given, &opts, why))
		return 0;
	if (defaults_from_container(in, &opts, &gpus, why, err) < 0)
		return -1;
	if (why->kind != LX_REFUSAL_NONE ||
	    !lx_apply_privilege(in->conf, txn->is_pve, &in->given, opts.unprivileged,
				&out->set_unprivileged, why))
		return 0;
	out->include_path = lx_incfile_path(in->state_dir, txn->id);
	struct lx_reconcile_input rin = {
		.host = in->host, .conf = in->conf, .is_pve = txn->is_pve,
		.access_opts = in->access_opts, .plan_opts = &opts, .render_opts = in->render_opts,
		.set_unprivileged = out->set_unprivileged, .style_given = in->given.style,
		.asked_dri = in->plan_opts->dri,
		.asked_caps = in->plan_opts->caps, .include_path = out->include_path};
	if (lx_reconcile(&rin, &out->reconciled, err) < 0 ||
	    check_result(in, opts.gpus, out, why, err) < 0)
		return -1;
	const struct lx_reconcile_result *res = &out->reconciled;
	out->style = opts.style;
	out->config_changes = res->len != txn->len || memcmp(res->text, txn->text, res->len) != 0;
	out->include_changes = res->include_text && (!out->include_old ||
						     strcmp(out->include_old, res->include_text) != 0);
	return 0;
}
