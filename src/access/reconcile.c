/* apply's reconcile: the smallest edit of a container's config after which
 * its effective access gives it the plan's nodes.
 *
 * 1. Only a line lxgpu owns (lx_gpu_owned_line: the rule rollback puts
 *    lines back by) is ever taken out, and only when the access it gives is
 *    not planned (a GPU that is deselected) or --style asks for the other
 *    form; an NVIDIA rule under the key of the cgroup version LXC ignores
 *    here is rewritten in place under the other. Rules for other devices
 *    (hidraw's 242, a USB serial, a Coral TPU's 500, "c 226:*"), caps lines
 *    and everything that is not a GPU line stay as they are. A rule for a
 *    major no device has now stays too, with a note: it is not known to be
 *    NVIDIA's (nvidia-uvm not loaded: its major is unknown, not stale).
 * 2. The plan, rendered in the container's style, offers lines; each one
 *    goes in only when the config without it would not give what it gives
 *    (a node not there, a node the device cgroup denies), checked by
 *    simulating the start with the line and without it.
 * 3. The result is simulated once more: whether it starts, and whether the
 *    planned nodes are reachable read-write. */
#include "lxgpu/incfile.h"
#include "lxgpu/reconcile.h"
#include "lxgpu/access.h"
#include "lxgpu/findings.h"

#include <ctype.h>
#include <string.h>

void lx_reconcile_result_free(struct lx_reconcile_result *r)
{
	free(r->text);
	free(r->include_text);
	lx_access_free(&r->after);
	lx_strv_free(&r->notes);
	memset(r, 0, sizeof(*r));
}

static const struct lx_plan_node *planned(const struct lx_plan *plan, const char *path)
{
	for (size_t i = 0; i < plan->n_nodes; i++)
		if (strcmp(plan->nodes[i].path, path) == 0)
			return &plan->nodes[i];
	return NULL;
}

static bool rule_reaches_planned(const struct lx_plan *plan, const struct lx_dev_rule *r)
{
	for (size_t i = 0; i < plan->n_nodes; i++) {
		const struct lx_plan_node *n = &plan->nodes[i];
		if (n->major_known && (r->type == 'a' || r->type == 'c') &&
		    (r->major < 0 || r->major == n->major) && (r->minor < 0 || r->minor == n->minor))
			return true;
	}
	return false;
}

static const struct lx_access_rule *rule_of_line(const struct lx_access *a, int line,
						  const char *key)
{
	for (size_t i = 0; i < a->n_rules; i++)
		if (a->rules[i].from_config && a->rules[i].line == line &&
		    strcmp(a->rules[i].key, key) == 0)
			return &a->rules[i];
	return NULL;
}

struct job {
	const struct lx_reconcile_input *in;
	const struct lx_plan *plan;
	const struct lx_access *before;
	struct lx_gpu_owned owned;
	bool *drop;
	char **replace; /* per line: its rewrite in place (a key of the right version) */
	bool fresh;     /* the container has no GPU yet: it gets the whole plan */
	struct lx_strv *notes;
	/* how candidates are simulated: with --style include, the include
	 * file read as the text apply will write */
	struct lx_access_options sim_opts;
};

/* The config's line that includes lxgpu's include file of this container. */
static bool is_include_line(const struct lx_reconcile_input *in, const struct lx_conf_line *l)
{
	return in->include_path && l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.include") == 0 &&
	       strcmp(l->value, in->include_path) == 0;
}

/* Styles whose GPU lines are not raw lines of the config: hand-written
 * mounts and rules of NVIDIA nodes give way to them. */
static bool replaces_raw_lines(enum lx_style style)
{
	return style == LX_STYLE_DEVN || style == LX_STYLE_INCLUDE;
}

static bool is_gpu_path(const struct job *j, const char *path)
{
	return lx_gpu_owned_path(&j->owned, path);
}

/* The host node a GPU line's path names: a by-path link's node
 * ("/dev/dri/renderD128"), else the path itself. */
static char *host_node_path(const struct job *j, const char *path)
{
	char *node = lx_str_starts_with(path, "/dev/dri/by-path/")
			     ? lx_host_by_path_target(j->in->host, path)
			     : NULL;
	return node ? node : lx_xstrdup(path);
}

/* A node the planned GPUs need, planned or not: the plan leaves out nodes
 * the host lacks now (nvidia-uvm not loaded), but a line for one is not
 * wrong; the host is. */
static bool needed_path(const struct job *j, const char *path)
{
	static const char *const shared[] = {"/dev/nvidiactl", "/dev/nvidia-uvm",
					     "/dev/nvidia-uvm-tools"};
	if (planned(j->plan, path))
		return true;
	for (size_t i = 0; i < 3; i++)
		if (strcmp(path, shared[i]) == 0)
			return j->plan->n_gpus > 0;
	for (size_t i = 0; i < j->plan->n_gpus; i++) {
		_cleanup_free_ char *node =
			lx_xasprintf("/dev/nvidia%d", j->in->host->gpus[j->plan->gpus[i]].minor);
		if (strcmp(node, path) == 0)
			return true;
	}
	return false;
}

/* The access has the planned node's device at any path inside (a by-path
 * link's name, a node mounted at another target), read-write if need_rw. */
static bool reaches_node(const struct lx_access *a, const struct lx_plan_node *n, bool need_rw)
{
	for (size_t i = 0; i < a->n_nodes; i++) {
		const struct lx_access_node *got = &a->nodes[i];
		if (n->major_known && got->via != LX_VIA_AUTODEV && got->type == 'c' &&
		    got->major == n->major &&
		    got->minor == n->minor && (!need_rw || got->read_write))
			return true;
	}
	return false;
}

/* MIG and IMEX capability nodes are the user's choice (which instances a
 * container may use); apply keeps whatever access to them it finds. */
static bool is_caps_path(const char *path)
{
	return lx_str_starts_with(path, "/dev/nvidia-caps");
}

/* A node a line may be added for: one CUDA needs for the selected GPUs,
 * what the user asked for (--dri, --caps), or anything planned when the
 * container has no GPU yet. Other nodes (nvidia-modeset, a card node next to
 * the render node it has) stay as the container has them. */
static bool may_add(const struct job *j, const char *path)
{
	if (j->fresh || lx_gpu_node_minor(path) >= 0 || strcmp(path, "/dev/nvidiactl") == 0 ||
	    lx_str_starts_with(path, "/dev/nvidia-uvm"))
		return true;
	/* A node it has now, at any path, keeps a line (--style turns a bind,
	 * a by-path devN or a node mounted elsewhere into a devN of its name). */
	const struct lx_plan_node *n = planned(j->plan, path);
	if (n && reaches_node(j->before, n, false))
		return true;
	if (lx_str_starts_with(path, "/dev/dri/"))
		return j->in->asked_dri;
	if (lx_str_starts_with(path, "/dev/nvidia-caps")) {
		/* a MIG instance's own nodes: the --gpus GPU:giX/ciY asked for */
		return j->in->asked_caps || (n && n->mig_gi >= 0);
	}
	return false;
}

/* Whether a GPU line of another form than the style's gives way to the
 * style's lines: with --style, in the include style (its file has every GPU
 * line), and for NVIDIA's lines, which follow the container's own style
 * (the one its NVIDIA lines mostly have). Without --style an Intel or AMD
 * GPU's line keeps its form: a by-path devN, a node mounted at another
 * target, a /dev/dri directory bind give what they give. */
static bool converts(const struct job *j, bool nvidia_line)
{
	return j->in->style_given || j->plan->style == LX_STYLE_INCLUDE || nvidia_line;
}

/* An explicit --mode, --uid or --gid on a devN entry that stays: the entry
 * rewritten in place with them (its path and index kept). */
static void restate_devn(struct job *j, const struct lx_conf_line *l)
{
	const struct lx_plan_options *asked = j->in->plan_opts;
	if (asked->mode < 0 && asked->uid < 0 && asked->gid < 0)
		return;
	struct lx_devn d;
	struct lx_error e = {0};
	if (lx_conf_devn_parse(l->value, &d, &e) < 0) {
		lx_error_clear(&e);
		return;
	}
	if ((asked->mode < 0 || d.mode == asked->mode) && (asked->uid < 0 || d.uid == asked->uid) &&
	    (asked->gid < 0 || d.gid == asked->gid)) {
		lx_devn_free(&d);
		return;
	}
	if (asked->mode >= 0)
		d.mode = asked->mode;
	if (asked->uid >= 0)
		d.uid = asked->uid;
	if (asked->gid >= 0)
		d.gid = asked->gid;
	_cleanup_free_ char *value = lx_devn_format(&d);
	j->replace[l - j->in->conf->lines] = lx_xasprintf("%s: %s", l->key, value);
	lx_devn_free(&d);
}

/* Whether an old line goes (rule 1 above). */
static bool should_drop(struct job *j, const struct lx_conf_line *l)
{
	const struct lx_reconcile_input *in = j->in;
	enum lx_style style = j->plan->style;
	if (!lx_gpu_owned_line(&j->owned, l))
		return false; /* not lxgpu's: rollback could not put it back */
	if (l->kind == LX_CONF_PVE_KEY && lx_conf_devn_index(l->key) >= 0) {
		_cleanup_free_ char *path = lx_conf_devn_path(l->value);
		if (!path || !is_gpu_path(j, path))
			return false;
		_cleanup_free_ char *node = host_node_path(j, path);
		bool convert = converts(j, lx_str_starts_with(path, "/dev/nvidia"));
		bool drop = !is_caps_path(path) &&
			    (!needed_path(j, node) ||
			     (convert && (style != LX_STYLE_DEVN || strcmp(node, path) != 0)));
		if (!drop)
			restate_devn(j, l);
		return drop;
	}
	if (l->kind != LX_CONF_LXC_KEY)
		return false;
	if (is_include_line(in, l))
		return style != LX_STYLE_INCLUDE; /* another style asked for */
	if (strcmp(l->key, "lxc.mount.entry") == 0) {
		_cleanup_free_ char *source = lx_xstrndup(l->value, strcspn(l->value, " \t"));
		if (!is_gpu_path(j, source) || is_caps_path(source))
			return false;
		if (converts(j, lx_str_starts_with(source, "/dev/nvidia")) && replaces_raw_lines(style))
			return true;
		/* Kept while it brings a planned node (a directory bind of
		 * /dev/nvidia-caps or /dev/dri brings the nodes under it), or
		 * names one the host lacks. */
		_cleanup_free_ char *node = host_node_path(j, source);
		bool brings_planned = needed_path(j, node);
		for (size_t i = 0; i < j->before->n_nodes && !brings_planned; i++) {
			const struct lx_access_node *n = &j->before->nodes[i];
			brings_planned = n->via == LX_VIA_BIND && n->line == l->lineno &&
					 planned(j->plan, n->host_path);
		}
		return !brings_planned;
	}
	const struct lx_access_rule *ar = rule_of_line(j->before, l->lineno, l->key);
	if (!ar || !lx_str_ends_with(ar->key, ".allow"))
		return false;
	struct lx_dev_rule r;
	if (!lx_dev_rule_parse(ar->value, true, &r) || r.all || r.major < 0 || r.type == 'b')
		return false; /* owned lines are character rules of one major */
	/* The capability lines the config keeps need their rules: the include
	 * file has caps nodes only when --caps asks (a devN makes its own). */
	if (style == LX_STYLE_INCLUDE && !in->asked_caps &&
	    (r.major == lx_host_major_by_name(in->host, "nvidia-caps") ||
	     r.major == lx_host_major_by_name(in->host, "nvidia-caps-imex-channels")))
		return false;
	bool nvidia_rule = r.major != j->owned.drm_major && r.major != lx_host_kfd_major(in->host);
	if ((converts(j, nvidia_rule) && replaces_raw_lines(style)) ||
	    !rule_reaches_planned(j->plan, &r))
		return true;
	if (ar->fate == LX_RULE_WRONG_VERSION) {
		/* The same rule under the key LXC honours here, in its place. */
		const char *from = j->before->keys == LX_CGROUP_V2 ? "lxc.cgroup." : "lxc.cgroup2.";
		const char *to = j->before->keys == LX_CGROUP_V2 ? "lxc.cgroup2." : "lxc.cgroup.";
		j->replace[l - in->conf->lines] =
			lx_xasprintf("%s%s", to, l->text + strlen(from));
	}
	return false;
}

/* Rules for a major no device has now stay (they are not lxgpu's): say
 * so, and what they may be. */
static void note_unknown_major_rules(const struct job *j)
{
	const struct lx_conf *conf = j->in->conf;
	const struct lx_host *host = j->in->host;
	/* NVIDIA's modules with a dynamic major that are not loaded now */
	static const char *const dynamic[] = {"nvidia-uvm", "nvidia-caps"};
	struct lx_buf unloaded = {0};
	for (size_t m = 0; m < 2; m++)
		if (lx_host_major_by_name(host, dynamic[m]) == LX_UNKNOWN)
			lx_buf_printf(&unloaded, "%s%s", unloaded.len ? " and " : "", dynamic[m]);
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		unsigned major;
		if (j->drop[i] || !lx_gpu_unknown_major_rule(host, l, &major))
			continue;
		_cleanup_free_ char *text = lx_text_escape(l->text);
		if (unloaded.len)
			lx_strv_push_owned(
				j->notes,
				lx_xasprintf("%s:%d: '%s' is kept: no device has major %u now, and %s "
					     "%s not loaded, so %s major is not known yet (if it is %u "
					     "once loaded, the rule is NVIDIA's; see /proc/devices then)",
					     conf->path, l->lineno, text, major, unloaded.data,
					     strchr(unloaded.data, ' ') ? "are" : "is",
					     strchr(unloaded.data, ' ') ? "their" : "its", major));
		else
			lx_strv_push_owned(
				j->notes,
				lx_xasprintf("%s:%d: '%s' is kept: no device has major %u now, and it is "
					     "not one of the NVIDIA drivers' majors here (another "
					     "device's, or an earlier boot's; remove it if nothing needs it)",
					     conf->path, l->lineno, text, major));
	}
	lx_buf_free(&unloaded);
}

/* The config as text with the drops and the chosen new lines. */
static char *candidate(const struct job *j, const struct lx_strv *lines, long insert_at,
		       size_t *len, size_t *removed)
{
	return lx_conf_edit(j->in->conf, j->drop, j->replace, insert_at, lines,
			    j->in->set_unprivileged, len, removed);
}

static int simulate(const struct job *j, const char *text, size_t len, struct lx_access *a,
		    struct lx_error *err)
{
	struct lx_conf c;
	lx_conf_parse(j->in->conf->path, text, len, &c);
	int rc = lx_access_compute(j->in->host, &c, j->in->is_pve, &j->sim_opts, a, err);
	lx_conf_free(&c);
	return rc;
}

/* What a rendered line gives: the node path it brings (devN, mount), or
 * for a rule, nothing (rules are judged by the nodes they allow). */
static char *line_node(const char *line, bool *is_rule)
{
	struct lx_conf c;
	lx_conf_parse("(rendered)", line, strlen(line), &c);
	char *path = NULL;
	*is_rule = false;
	if (c.n == 1) {
		const struct lx_conf_line *l = &c.lines[0];
		if (l->kind == LX_CONF_PVE_KEY && lx_conf_devn_index(l->key) >= 0)
			path = lx_conf_devn_path(l->value);
		else if (l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.mount.entry") == 0)
			path = lx_xstrndup(l->value, strcspn(l->value, " \t"));
		else if (l->kind == LX_CONF_LXC_KEY)
			*is_rule = strstr(l->key, ".devices.") != NULL;
	}
	lx_conf_free(&c);
	return path;
}

/* Does the access give the planned node (read-write if need_rw)? At its
 * path; where lines keep their form (converts), at any path it has now. */
static bool gives(const struct job *j, const struct lx_access *a, const struct lx_plan_node *n,
		  bool need_rw)
{
	const struct lx_access_node *got = lx_access_find(a, n->path);
	if (got && got->major == n->major && got->minor == n->minor)
		return !need_rw || got->read_write;
	return !converts(j, lx_str_starts_with(n->path, "/dev/nvidia")) && reaches_node(a, n, need_rw);
}

/* Where new lines go: after the last GPU line that stays, else where the
 * first dropped one was, else after the live section. */
static long insert_position(const struct job *j)
{
	const struct lx_conf *conf = j->in->conf;
	long last_kept = -1, first_dropped = -1;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		if (j->drop[i] && first_dropped < 0)
			first_dropped = (long)i;
		if (!j->drop[i] && lx_gpu_owned_line(&j->owned, &conf->lines[i]))
			last_kept = (long)i;
	}
	return last_kept >= 0 ? last_kept + 1 : first_dropped;
}

/* Options of the NVIDIA devN lines that stay, when they all agree: new
 * devN lines get the same (the user's video group, mode). */
static void inherit_devn_options(struct job *j, struct lx_plan_options *opts)
{
	const struct lx_conf *conf = j->in->conf;
	long long mode = -2, uid = -2, gid = -2;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		struct lx_devn d;
		struct lx_error e = {0};
		if (j->drop[i] || l->kind != LX_CONF_PVE_KEY || lx_conf_devn_index(l->key) < 0)
			continue;
		if (lx_conf_devn_parse(l->value, &d, &e) < 0) {
			lx_error_clear(&e);
			continue;
		}
		if (lx_str_starts_with(d.path, "/dev/nvidia")) {
			mode = mode == -2 || mode == d.mode ? d.mode : -3;
			uid = uid == -2 || uid == d.uid ? d.uid : -3;
			gid = gid == -2 || gid == d.gid ? d.gid : -3;
		}
		lx_devn_free(&d);
	}
	bool given = opts->mode >= 0 || opts->uid >= 0 || opts->gid >= 0;
	if (opts->mode < 0 && mode >= 0)
		opts->mode = (int)mode;
	if (opts->uid < 0 && uid >= 0)
		opts->uid = uid;
	if (opts->gid < 0 && gid >= 0)
		opts->gid = gid;
	opts->modes_inherited = !given && (opts->mode >= 0 || opts->uid >= 0 || opts->gid >= 0);
}

/* Whether every NVIDIA bind that stays is "optional": new ones then are
 * too, so that the container's convention (start without a missing node,
 * or fail) holds for all its GPU nodes. */
static bool binds_are_optional(const struct job *j)
{
	const struct lx_conf *conf = j->in->conf;
	size_t binds = 0, optional = 0;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (j->drop[i] || l->kind != LX_CONF_LXC_KEY || strcmp(l->key, "lxc.mount.entry") != 0 ||
		    !lx_str_starts_with(l->value, "/dev/nvidia"))
			continue;
		binds++;
		optional += strstr(l->value, "optional") != NULL;
	}
	return binds && binds == optional;
}

/* The rendered plan's config lines (its comments would become the
 * container's description in PVE). */
static void rendered_lines(const struct job *j, const char *rendered, struct lx_strv *lines)
{
	bool optional = binds_are_optional(j);
	struct lx_conf parsed;
	lx_conf_parse("(rendered)", rendered, strlen(rendered), &parsed);
	for (size_t i = 0; i < parsed.n; i++) {
		const struct lx_conf_line *l = &parsed.lines[i];
		if (l->kind != LX_CONF_PVE_KEY && l->kind != LX_CONF_LXC_KEY)
			continue;
		if (l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.hook.mount") == 0)
			continue; /* --driver-libs' hook line: added once, after the GPU lines */
		const char *bind = strstr(l->text, " bind,");
		if (optional && l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.mount.entry") == 0 &&
		    bind && !strstr(l->text, "optional"))
			lx_strv_push_owned(lines, lx_xasprintf("%.*s bind,optional,%s",
								 (int)(bind - l->text), l->text,
								 bind + strlen(" bind,")));
		else
			lx_strv_push(lines, l->text);
	}
	lx_conf_free(&parsed);
}

static int choose_lines(struct job *j, const struct lx_strv *offered, long at, struct lx_strv *chosen,
			struct lx_error *err)
{
	/* Lines that bring nodes first, then rules: a rule is only needed for
	 * nodes that are there. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < offered->n; i++) {
			bool is_rule;
			_cleanup_free_ char *path = line_node(offered->items[i], &is_rule);
			if ((pass == 0) != (path != NULL))
				continue;
			if (pass == 1 && !is_rule)
				return lx_error_set(err,
						    "the template gave a line that is not a GPU line: '%s' "
						    "(templates for apply may only emit devN, device rules and "
						    "mount entries of GPU nodes)",
						    offered->items[i]);
			size_t len, removed;
			_cleanup_free_ char *text = candidate(j, chosen, at, &len, &removed);
			struct lx_access now;
			if (simulate(j, text, len, &now, err) < 0)
				return -1;
			bool needed = false;
			if (path) {
				const struct lx_plan_node *n = planned(j->plan, path);
				needed = n && n->present && may_add(j, path) && !gives(j, &now, n, false);
			} else {
				struct lx_dev_rule r;
				const char *value = strchr(offered->items[i], ':');
				const char *eq = strchr(offered->items[i], '=');
				const char *v = value && (!eq || value < eq) ? value : eq;
				_cleanup_free_ char *vs = lx_str_strip(lx_xstrdup(v ? v + 1 : ""));
				if (lx_dev_rule_parse(vs, true, &r))
					for (size_t k = 0; k < j->plan->n_nodes && !needed; k++) {
						const struct lx_plan_node *n = &j->plan->nodes[k];
						needed = n->present && may_add(j, n->path) &&
							 gives(j, &now, n, false) && !gives(j, &now, n, true) &&
							 (r.major < 0 || r.major == n->major) &&
							 (r.minor < 0 || r.minor == n->minor);
					}
			}
			lx_access_free(&now);
			if (needed)
				lx_strv_push(chosen, offered->items[i]);
		}
	}
	return 0;
}

static bool gives_all(const struct job *j, const struct lx_access *a)
{
	for (size_t i = 0; i < j->plan->n_nodes; i++)
		if (j->plan->nodes[i].present && !gives(j, a, &j->plan->nodes[i], true))
			return false;
	return true;
}

/* When planned nodes are still denied, the culprit can be an NVIDIA rule
 * that stays: in a container whose lists userns.conf cleared, any rule
 * makes LXC build a block-all program (cgroup v2), so the rule itself hides
 * the rest. Taking the container's NVIDIA rules out is tried, and kept
 * when the start then gives every planned node. */
static int drop_blocking_rules(struct job *j, const struct lx_strv *chosen, long at,
			       struct lx_error *err)
{
	const struct lx_conf *conf = j->in->conf;
	size_t len, removed;
	_cleanup_free_ char *text = candidate(j, chosen, at, &len, &removed);
	struct lx_access now;
	if (simulate(j, text, len, &now, err) < 0)
		return -1;
	bool ok = gives_all(j, &now);
	lx_access_free(&now);
	if (ok)
		return 0;
	bool *saved = lx_xmalloc((conf->n + 1) * sizeof(bool));
	memcpy(saved, j->drop, (conf->n + 1) * sizeof(bool));
	size_t tried = 0;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		const struct lx_access_rule *ar =
			l->kind == LX_CONF_LXC_KEY ? rule_of_line(j->before, l->lineno, l->key) : NULL;
		struct lx_dev_rule r;
		if (j->drop[i] || !ar || !lx_str_ends_with(ar->key, ".allow") ||
		    !lx_dev_rule_parse(ar->value, true, &r) || r.all || r.major < 0 ||
		    !lx_gpu_owned_line(&j->owned, l) || r.major == j->owned.drm_major)
			continue; /* NVIDIA majors' rules only: DRM rules stay */
		j->drop[i] = true;
		tried++;
	}
	free(text);
	text = tried ? candidate(j, chosen, at, &len, &removed) : NULL;
	ok = false;
	if (text) {
		if (simulate(j, text, len, &now, err) < 0) {
			free(saved);
			return -1;
		}
		ok = gives_all(j, &now);
		lx_access_free(&now);
	}
	if (!ok)
		memcpy(j->drop, saved, (conf->n + 1) * sizeof(bool));
	free(saved);
	return 0;
}

/* New devN entries take the lowest free indexes (the rendered plan numbered
 * every planned node, also those the container already has). */
static void renumber_devn(const struct lx_plan_options *opts, struct lx_strv *chosen)
{
	bool taken[256];
	memcpy(taken, opts->dev_taken, sizeof(taken));
	int next = opts->dev_start;
	for (size_t i = 0; i < chosen->n; i++) {
		char *line = chosen->items[i];
		size_t key_len = strcspn(line, ":");
		_cleanup_free_ char *key = lx_xstrndup(line, key_len);
		if (lx_conf_devn_index(key) < 0 || !line[key_len])
			continue;
		while (next < 256 && taken[next])
			next++;
		if (next >= 256)
			return; /* the plan already refused more than PVE's 256 */
		taken[next] = true;
		chosen->items[i] = lx_xasprintf("dev%d%s", next, line + key_len);
		free(line);
	}
}

/* --driver-libs: the lxc.hook.mount line running lxgpu hook, unless the
 * config already has one that LXC runs (kept as the user has it). */
static void add_driver_libs_hook(struct job *j, struct lx_strv *chosen)
{
	const struct lx_driver_libs_options *dl = j->in->render_opts ? j->in->render_opts->driver_libs
								      : NULL;
	if (!dl || !dl->enabled)
		return;
	struct lx_hook_line have;
	if (lx_conf_find_hook(j->in->conf, &have) >= 0) {
		lx_hook_line_free(&have);
		return;
	}
	struct lx_hook_line h = {.binary = (char *)dl->binary,
				 .driver_root = (char *)dl->driver_root,
				 .proc_dir = (char *)dl->proc_dir};
	lx_strv_push_owned(chosen, lx_hook_config_line(&h, j->in->is_pve));
}

/* The result's hook line must be one LXC runs: a later empty
 * lxc.hook.mount the user has clears it. */
static void check_driver_libs_hook(const struct job *j, struct lx_reconcile_result *out)
{
	const struct lx_driver_libs_options *dl = j->in->render_opts ? j->in->render_opts->driver_libs
								      : NULL;
	if (!dl || !dl->enabled)
		return;
	struct lx_conf c;
	lx_conf_parse(j->in->conf->path, out->text, out->len, &c);
	if (lx_conf_find_hook(&c, NULL) < 0)
		lx_strv_push(&out->notes, "the lxgpu hook line is cleared by an empty lxc.hook.mount "
					  "line after it: LXC will not run it (remove that line)");
	lx_conf_free(&c);
}

int lx_reconcile(const struct lx_reconcile_input *in, struct lx_reconcile_result *out,
		 struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	const struct lx_conf *conf = in->conf;
	struct lx_access before;
	if (lx_access_compute(in->host, conf, in->is_pve, in->access_opts, &before, err) < 0)
		return -1;
	struct lx_plan plan = {0};
	struct lx_plan_options opts = *in->plan_opts;
	struct job j = {.in = in, .plan = &plan, .before = &before, .notes = &out->notes};
	if (in->access_opts)
		j.sim_opts = *in->access_opts;
	else
		lx_access_options_default(&j.sim_opts);
	/* Candidates are judged by what lxgpu's lines give: a container that
	 * NVIDIA's hook gives GPUs to still gets lines for the GPUs asked for. */
	j.sim_opts.without_nvhook_nodes = true;
	bool include = opts.style == LX_STYLE_INCLUDE;
	if (include && !in->include_path) {
		lx_access_free(&before);
		return lx_error_set(err, "internal error: --style include without the include file's path");
	}
	lx_gpu_owned_from_host(in->host, &j.owned);
	if (in->include_path) { /* the include line counts as a GPU line (where new lines go) */
		char *slash = strrchr(in->include_path, '/');
		j.owned.include_dir = slash ? lx_xstrndup(in->include_path,
							  (size_t)(slash - in->include_path) + 1)
					    : NULL;
	}
	j.drop = lx_xcalloc(conf->n + 1, sizeof(bool));
	j.replace = lx_xcalloc(conf->n + 1, sizeof(char *));
	struct lx_current cur;
	lx_access_current(in->host, conf, &before, &cur);
	j.fresh = cur.gpus == NULL;
	lx_current_free(&cur);
	struct lx_strv offered = {0}, chosen = {0};
	_cleanup_free_ char *rendered = NULL;
	int rc = lx_plan_build(in->host, &opts, &plan, err);
	for (size_t i = 0; rc == 0 && i < conf->n && conf->lines[i].section == -1; i++)
		j.drop[i] = should_drop(&j, &conf->lines[i]);
	if (rc == 0) {
		/* devN indexes of the lines that stay are theirs. */
		for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
			int index = conf->lines[i].kind == LX_CONF_PVE_KEY
					    ? lx_conf_devn_index(conf->lines[i].key)
					    : -1;
			if (index >= 0 && !j.drop[i])
				opts.dev_taken[index] = true;
		}
		inherit_devn_options(&j, &opts);
		lx_plan_free(&plan);
		rc = lx_plan_build(in->host, &opts, &plan, err);
	}
	if (rc == 0 && include) {
		/* Capability lines the config has stay there, as in every style;
		 * the include file gets capability nodes only when asked. */
		struct lx_plan_options iopts = opts;
		iopts.caps = in->asked_caps;
		rc = lx_incfile_render(in->host, &iopts, &out->include_text, err);
		j.sim_opts.include_path = in->include_path;
		j.sim_opts.include_text = out->include_text;
	} else if (rc == 0) {
		rc = lx_render_plan(in->host, &plan, in->render_opts, &rendered, err);
	}
	long at = -1;
	if (rc == 0 && include) {
		at = insert_position(&j);
		bool has_line = false;
		for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++)
			has_line |= is_include_line(in, &conf->lines[i]);
		if (!has_line)
			lx_strv_push_owned(&chosen, lx_incfile_config_line(in->include_path, in->is_pve));
	} else if (rc == 0) {
		rendered_lines(&j, rendered, &offered);
		at = insert_position(&j);
		rc = choose_lines(&j, &offered, at, &chosen, err);
	}
	if (rc == 0)
		rc = drop_blocking_rules(&j, &chosen, at, err);
	if (rc == 0)
		note_unknown_major_rules(&j);
	if (rc == 0)
		renumber_devn(&opts, &chosen);
	if (rc == 0)
		add_driver_libs_hook(&j, &chosen);
	if (rc == 0) {
		out->text = candidate(&j, &chosen, at, &out->len, &out->removed);
		out->added = chosen.n;
		for (size_t i = 0; i < in->conf->n; i++) {
			bool devn = in->conf->lines[i].kind == LX_CONF_PVE_KEY;
			out->rekeyed += j.replace[i] && !j.drop[i] && !devn;
			out->restated += j.replace[i] && !j.drop[i] && devn;
		}
		rc = simulate(&j, out->text, out->len, &out->after, err);
	}
	if (rc == 0)
		check_driver_libs_hook(&j, out);
	for (size_t i = 0; rc == 0 && i < plan.n_nodes; i++) {
		const struct lx_plan_node *n = &plan.nodes[i];
		if (!may_add(&j, n->path) && !lx_access_find(&before, n->path))
			continue; /* not the container's, and not asked for */
		if (!n->present)
			lx_strv_push_owned(&out->notes,
					   lx_xasprintf("%s is not on the host: no line for it was added", n->path));
		else if (!gives(&j, &out->after, n, true))
			lx_strv_push_owned(&out->notes,
					   lx_xasprintf("%s: the result still does not give it read-write "
							"(a line of the config that lxgpu keeps denies or hides it)",
							n->path));
	}
	/* The plan's warnings that hold for the result: nvidia-uvm not loaded,
	 * and modes only for nodes whose users cannot open them as the result
	 * maps them (the plan does not know the container's idmap). */
	for (size_t i = 0; rc == 0 && i < plan.warnings.n; i++) {
		const char *w = plan.warnings.items[i].message;
		bool about_result = strstr(w, "nvidia-uvm") != NULL;
		for (size_t k = 0; k < out->after.n_nodes && !about_result; k++) {
			const struct lx_access_node *n = &out->after.nodes[k];
			const char *hit = strstr(w, n->path);
			about_result = hit && !isalnum((unsigned char)hit[strlen(n->path)]) &&
				       !lx_access_node_usable(n);
		}
		if (about_result)
			lx_strv_push(&out->notes, w);
	}
	lx_strv_free(&offered);
	lx_strv_free(&chosen);
	for (size_t i = 0; i < conf->n; i++)
		free(j.replace[i]);
	free(j.replace);
	free(j.drop);
	lx_gpu_owned_free(&j.owned);
	lx_plan_free(&plan);
	lx_access_free(&before);
	if (rc < 0)
		lx_reconcile_result_free(out);
	return rc;
}
