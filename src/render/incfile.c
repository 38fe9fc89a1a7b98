/* The include style's per-container file: its text, whether the one on
 * disk is current, and ensure-nodes' rewrite of all of them. */
#include "lxgpu/incfile.h"
#include "lxgpu/render.h"

#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define INCFILE_DIR "lxc"
#define INCFILE_MAX_SIZE (1u << 20)

char *lx_incfile_path(const char *state_dir, const char *id)
{
	_cleanup_free_ char *dir = lx_path_join(state_dir, INCFILE_DIR);
	_cleanup_free_ char *name = lx_xasprintf("%s.conf", id);
	return lx_path_join(dir, name);
}

char *lx_incfile_config_line(const char *path, bool is_pve)
{
	return lx_xasprintf(is_pve ? "lxc.include: %s" : "lxc.include = %s", path);
}

char *lx_incfile_dir(const char *state_dir)
{
	_cleanup_free_ char *dir = lx_path_join(state_dir, INCFILE_DIR);
	return lx_xasprintf("%s/", dir);
}

const struct lx_conf_line *lx_incfile_find_line(const struct lx_conf *conf, const char *state_dir)
{
	_cleanup_free_ char *prefix = lx_incfile_dir(state_dir);
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.include") == 0 &&
		    lx_str_starts_with(l->value, prefix) && !strchr(l->value + strlen(prefix), '/'))
			return l;
	}
	return NULL;
}

bool lx_incfile_text_is_ours(const char *text)
{
	return text && lx_str_starts_with(text, LX_INCFILE_MARK);
}

static const char mark_lines[] =
	LX_INCFILE_MARK ": do not edit. 'lxgpu ensure-nodes' rewrites it at every boot\n"
	"# from the container's GPU record (GPUs by PCI address) and this boot's device numbers.\n";

int lx_incfile_render(const struct lx_host *host, const struct lx_plan_options *opts, char **text,
		      struct lx_error *err)
{
	*text = NULL;
	if (!opts->gpus || !*opts->gpus) {
		*text = lx_xasprintf("%s# No GPU: every GPU of the record is gone from this host "
				     "(lxgpu ensure-nodes said which).\n",
				     mark_lines);
		return 0;
	}
	struct lx_plan_options o = *opts;
	o.style = LX_STYLE_INCLUDE;
	o.mode = -1;
	o.uid = o.gid = -1;
	struct lx_plan plan;
	if (lx_plan_build(host, &o, &plan, err) < 0)
		return -1;
	/* Built in, never --templates: ensure-nodes rewrites it at boot with
	 * these, and verify compares against them. */
	struct lx_render_options ropts = {.templates_dir = NULL, .version = "-"};
	_cleanup_free_ char *body = NULL;
	int rc = lx_render_plan(host, &plan, &ropts, &body, err);
	lx_plan_free(&plan);
	if (rc < 0)
		return -1;
	*text = lx_xasprintf("%s%s", mark_lines, body);
	return 0;
}

/* ---- a record on this host ---- */

void lx_incfile_want_from_record(const struct lx_host *host, const struct lx_record *rec,
				 struct lx_incfile_want *out)
{
	memset(out, 0, sizeof(*out));
	lx_plan_options_default(&out->opts);
	out->opts.style = LX_STYLE_INCLUDE;
	out->opts.unprivileged = rec->unprivileged;
	out->opts.dri = rec->dri;
	out->opts.caps = rec->caps;
	struct lx_buf sel = {0};
	for (size_t i = 0; i < rec->n_gpus; i++) {
		const struct lx_record_gpu *r = &rec->gpus[i];
		/* The card by its UUID: a bus numbered anew moves it, not the
		 * container's GPU. */
		const struct lx_gpu *g = lx_record_gpu_now(host, r);
		_cleanup_free_ char *was = r->minor >= 0 ? lx_xasprintf(" (recorded as /dev/nvidia%d)", r->minor)
							 : lx_xstrdup("");
		if (!g) {
			lx_strv_push_owned(&out->gone, lx_xasprintf("GPU %s%s is not on this host any more",
								    r->pci, was));
		} else if (!g->driver || strcmp(g->driver, "nvidia") != 0) {
			lx_strv_push_owned(&out->gone, lx_xasprintf("GPU %s%s is bound to %s now, not nvidia",
								    r->pci, was,
								    g->driver ? g->driver : "no driver"));
		} else if (r->uuid && g->uuid && strcasecmp(r->uuid, g->uuid) != 0) {
			/* Another card in the same slot: not the one the record gave. */
			lx_strv_push_owned(&out->gone,
					   lx_xasprintf("GPU %s%s holds another card now (UUID %s, "
							"recorded %s)",
							r->pci, was, g->uuid, r->uuid));
		} else {
			lx_buf_printf(&sel, "%s%s", sel.len ? "," : "", g->bdf);
			if (strcmp(g->bdf, r->pci) != 0)
				lx_strv_push_owned(&out->renumbered,
						   lx_xasprintf("GPU %s, recorded at %s, is at %s now",
								g->uuid, r->pci, g->bdf));
			if (r->minor >= 0 && g->minor >= 0 && r->minor != g->minor)
				lx_strv_push_owned(&out->renumbered,
						   lx_xasprintf("GPU %s is /dev/nvidia%d now (recorded as "
								"/dev/nvidia%d)",
								g->bdf, g->minor, r->minor));
		}
	}
	out->gpus = sel.len ? lx_buf_steal(&sel) : NULL;
	lx_buf_free(&sel);
	out->opts.gpus = out->gpus;
}

void lx_incfile_want_free(struct lx_incfile_want *w)
{
	free(w->gpus);
	lx_strv_free(&w->gone);
	lx_strv_free(&w->renumbered);
	memset(w, 0, sizeof(*w));
}

/* ---- the file on disk ---- */

void lx_incfile_check_free(struct lx_incfile_check *c)
{
	free(c->path);
	free(c->have);
	free(c->want);
	free(c->text);
	lx_incfile_want_free(&c->want_from);
	memset(c, 0, sizeof(*c));
}

/* The first line of a that b lacks (whole lines). */
static char *first_line_missing(const char *a, const char *b)
{
	for (const char *p = a; *p;) {
		size_t len = strcspn(p, "\n");
		bool found = false;
		for (const char *q = b; *q && !found;) {
			size_t qlen = strcspn(q, "\n");
			found = qlen == len && memcmp(p, q, len) == 0;
			q += qlen + (q[qlen] == '\n');
		}
		if (!found)
			return lx_xstrndup(p, len);
		p += len + (p[len] == '\n');
	}
	return NULL;
}

/* The host as ensure-nodes leaves it: the same model with its own copy of
 * the node list, the plan carried out on it. */
static void host_after_nodes(const struct lx_host *host, const struct lx_node_plan *nodes,
			     struct lx_host *after)
{
	*after = *host;
	after->nodes = lx_xcalloc(host->n_nodes + 1, sizeof(*after->nodes));
	for (size_t i = 0; i < host->n_nodes; i++) {
		after->nodes[i] = host->nodes[i];
		after->nodes[i].path = lx_xstrdup(host->nodes[i].path);
	}
	lx_node_plan_to_model(nodes, after);
}

static void host_after_free(struct lx_host *after)
{
	for (size_t i = 0; i < after->n_nodes; i++)
		free(after->nodes[i].path);
	free(after->nodes);
}

static int check_file(const struct lx_host *host, const char *state_dir, const char *id,
		      const char *path, struct lx_incfile_check *out, struct lx_error *err);

int lx_incfile_check(const struct lx_host *host, const struct lx_node_plan *nodes,
		     const char *state_dir, const char *id, const char *path,
		     struct lx_incfile_check *out, struct lx_error *err)
{
	if (!nodes)
		return check_file(host, state_dir, id, path, out, err);
	struct lx_host after;
	host_after_nodes(host, nodes, &after);
	int rc = check_file(&after, state_dir, id, path, out, err);
	host_after_free(&after);
	return rc;
}

static int check_file(const struct lx_host *host, const char *state_dir, const char *id,
		      const char *path, struct lx_incfile_check *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	out->path = lx_xstrdup(path);
	_cleanup_free_ char *have = NULL;
	if (lx_read_file_optional(path, INCFILE_MAX_SIZE, &have, NULL, err) < 0)
		goto fail;
	struct lx_record rec;
	bool found = false;
	if (lx_record_load(state_dir, id, &rec, &found, err) < 0)
		goto fail;
	out->record_found = found && rec.style && strcmp(rec.style, "include") == 0;
	if (out->record_found) {
		lx_incfile_want_from_record(host, &rec, &out->want_from);
		if (lx_incfile_render(host, &out->want_from.opts, &out->text, err) < 0) {
			lx_record_free(&rec);
			goto fail;
		}
	}
	if (found)
		lx_record_free(&rec);
	if (!have)
		out->state = LX_INCFILE_MISSING;
	else if (!lx_incfile_text_is_ours(have))
		out->state = LX_INCFILE_NOT_OURS;
	else if (!out->record_found)
		out->state = LX_INCFILE_NO_RECORD;
	else if (strcmp(have, out->text) != 0) {
		out->state = LX_INCFILE_STALE;
		out->have = first_line_missing(have, out->text);
		out->want = first_line_missing(out->text, have);
	} else
		out->state = LX_INCFILE_CURRENT;
	return 0;
fail:
	lx_incfile_check_free(out);
	return -1;
}

int lx_incfile_write(const char *path, const char *text, struct lx_error *err)
{
	_cleanup_free_ char *dir = lx_xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		/* <state_dir>/lxc, and the state dir and its parents on a first use */
		if (lx_mkdir_parents(dir, 0755) < 0)
			return lx_error_set_errno(err, errno,
						  "%s: cannot create lxgpu's state directory "
						  "(--state-dir chooses another)",
						  dir);
	}
	if (lx_write_file_atomic(path, text, strlen(text), 0644, err) < 0)
		return lx_error_prefix(err, "cannot write the include file");
	return 0;
}

int lx_incfile_put(const char *path, const char *text, struct lx_error *err)
{
	if (text)
		return lx_incfile_write(path, text, err);
	if (lx_remove_file(path) < 0 && errno != ENOENT)
		return lx_error_set_errno(err, errno, "%s: cannot remove the include file", path);
	return 0;
}

/* ---- ensure-nodes: all of them ---- */

void lx_incfile_jobs_free(struct lx_incfile_jobs *jobs)
{
	for (size_t i = 0; i < jobs->n; i++) {
		free(jobs->items[i].id);
		free(jobs->items[i].error);
		lx_incfile_check_free(&jobs->items[i].check);
	}
	free(jobs->items);
	memset(jobs, 0, sizeof(*jobs));
}

int lx_incfile_plan_all(const struct lx_host *host, const char *state_dir,
			struct lx_incfile_jobs *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	struct lx_strv ids;
	if (lx_record_list(state_dir, &ids, err) < 0)
		return -1;
	for (size_t i = 0; i < ids.n; i++) {
		_cleanup_free_ char *path = lx_incfile_path(state_dir, ids.items[i]);
		struct lx_incfile_check c;
		struct lx_error e = {0};
		char *error = NULL;
		if (lx_incfile_check(host, NULL, state_dir, ids.items[i], path, &c, &e) < 0) {
			error = lx_xstrdup(e.message);
			lx_error_clear(&e);
			memset(&c, 0, sizeof(c));
			c.path = lx_xstrdup(path);
		} else if (!c.record_found) { /* another style: no include file of lxgpu's */
			lx_incfile_check_free(&c);
			continue;
		}
		out->items = lx_xrealloc(out->items, (out->n + 1) * sizeof(*out->items));
		struct lx_incfile_job *j = &out->items[out->n++];
		j->id = lx_xstrdup(ids.items[i]);
		j->check = c;
		j->error = error;
		if (error) {
			j->action = LX_INCFILE_SKIP;
			continue;
		}
		switch (c.state) {
		case LX_INCFILE_CURRENT: j->action = LX_INCFILE_KEEP; break;
		case LX_INCFILE_MISSING: j->action = LX_INCFILE_CREATE; break;
		case LX_INCFILE_NOT_OURS: j->action = LX_INCFILE_SKIP; break;
		case LX_INCFILE_STALE:
		case LX_INCFILE_NO_RECORD: j->action = LX_INCFILE_REWRITE; break;
		}
	}
	lx_strv_free(&ids);
	return 0;
}

int lx_incfile_apply_all(const struct lx_incfile_jobs *jobs, struct lx_error *err)
{
	for (size_t i = 0; i < jobs->n; i++) {
		const struct lx_incfile_job *j = &jobs->items[i];
		if (j->action != LX_INCFILE_CREATE && j->action != LX_INCFILE_REWRITE)
			continue;
		if (lx_incfile_write(j->check.path, j->check.text, err) < 0)
			return -1;
	}
	return 0;
}
