/* Which config lines are GPU lines, and replacing them without touching
 * anything else. lxgpu cannot mark its lines with comments: PVE moves every
 * "#" line to the top when it rewrites a config. So ownership is by meaning. */
#include "lxgpu/config.h"
#include "lxgpu/host.h"

#include <ctype.h>
#include <string.h>

static bool is_gpu_dev_path(const char *path, const struct lx_gpu_owned *owned)
{
	return lx_str_starts_with(path, "/dev/nvidia") || lx_strv_contains(&owned->drm_paths, path);
}

void lx_gpu_owned_free(struct lx_gpu_owned *owned)
{
	free(owned->majors);
	free(owned->drm_minors);
	lx_strv_free(&owned->drm_paths);
	free(owned->include_dir);
	memset(owned, 0, sizeof(*owned));
}

static bool is_cgroup_allow_key(const char *key)
{
	return strcmp(key, "lxc.cgroup.devices.allow") == 0 ||
	       strcmp(key, "lxc.cgroup2.devices.allow") == 0;
}

/* The major and minor of a "c MAJ:MIN perms" rule (*minor -1 for "*");
 * false for anything else ("a", block devices, "c *:* rwm"). */
static bool rule_char_device(const char *value, unsigned *major, long *minor)
{
	const char *p = value;
	if (*p != 'c')
		return false;
	p++;
	if (!isspace((unsigned char)*p))
		return false;
	while (isspace((unsigned char)*p))
		p++;
	char *end;
	unsigned long m = strtoul(p, &end, 10);
	if (end == p || *end != ':' || m > 4095)
		return false;
	*major = (unsigned)m;
	p = end + 1;
	if (*p == '*') {
		*minor = -1;
		return true;
	}
	unsigned long n = strtoul(p, &end, 10);
	if (end == p)
		return false;
	*minor = (long)n;
	return true;
}

static bool contains(const unsigned *list, size_t n, unsigned v)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == v)
			return true;
	return false;
}

enum ownership { NOT_GPU, GPU, GPU_IF_OTHERS };

static enum ownership classify_line(const struct lx_conf_line *l,
				    const struct lx_gpu_owned *owned)
{
	if (l->section != -1)
		return NOT_GPU;
	if (l->kind == LX_CONF_PVE_KEY && lx_conf_devn_index(l->key) >= 0) {
		_cleanup_free_ char *path = lx_conf_devn_path(l->value);
		return path && is_gpu_dev_path(path, owned) ? GPU : NOT_GPU;
	}
	if (l->kind != LX_CONF_LXC_KEY)
		return NOT_GPU;
	if (strcmp(l->key, "lxc.include") == 0)
		return owned->include_dir && lx_str_starts_with(l->value, owned->include_dir) &&
				       !strchr(l->value + strlen(owned->include_dir), '/')
			       ? GPU
			       : NOT_GPU;
	if (strcmp(l->key, "lxc.mount.entry") == 0) {
		_cleanup_free_ char *source = lx_xstrndup(l->value, strcspn(l->value, " \t"));
		return is_gpu_dev_path(source, owned) ? GPU : NOT_GPU;
	}
	unsigned major;
	long minor;
	if (!is_cgroup_allow_key(l->key) || !rule_char_device(l->value, &major, &minor))
		return NOT_GPU;
	if (contains(owned->majors, owned->n_majors, major))
		return GPU;
	if (owned->drm_major && major == owned->drm_major)
		return minor >= 0 && contains(owned->drm_minors, owned->n_drm_minors, (unsigned)minor)
			       ? GPU
			       : NOT_GPU;
	return lx_major_is_dynamic(major) ? GPU_IF_OTHERS : NOT_GPU;
}

bool lx_conf_has_gpu_lines(const struct lx_conf *conf, const struct lx_gpu_owned *owned)
{
	for (size_t i = 0; i < conf->n; i++)
		if (classify_line(&conf->lines[i], owned) == GPU)
			return true;
	return false;
}

bool lx_conf_line_is_gpu_given(const struct lx_conf_line *line, const struct lx_gpu_owned *owned,
			       bool config_has_gpu_lines)
{
	enum ownership own = classify_line(line, owned);
	return own == GPU || (own == GPU_IF_OTHERS && config_has_gpu_lines);
}

bool lx_conf_line_is_gpu(const struct lx_conf *conf, const struct lx_conf_line *line,
			 const struct lx_gpu_owned *owned)
{
	return lx_conf_line_is_gpu_given(line, owned, lx_conf_has_gpu_lines(conf, owned));
}

/* The output being built: lines with their ends. */
struct out_line {
	const char *text;
	size_t len;
	const char *eol;
};

struct out {
	struct out_line *lines;
	size_t n;
};

static void out_push(struct out *o, const char *text, size_t len, const char *eol)
{
	o->lines = lx_xrealloc(o->lines, (o->n + 1) * sizeof(*o->lines));
	o->lines[o->n++] = (struct out_line){text, len, eol};
}

static bool is_unprivileged_line(const struct lx_conf_line *l)
{
	return l->section == -1 && l->kind == LX_CONF_PVE_KEY && strcmp(l->key, "unprivileged") == 0;
}

/* The line end for lines that get a new one (NULL eol): the one most of
 * the other lines of the result end with. Decided on the result, not the
 * input, so that a second rewrite of the result decides the same: replaced
 * GPU lines do not vote, and a line that loses or gains its end is counted
 * as it will read. */
static const char *dominant_eol(const struct out *o)
{
	size_t crlf = 0, lf = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct out_line *l = &o->lines[i];
		/* "x\r" that gets an end reads as "x" + CRLF, whatever the end. */
		bool cr_text = l->len && l->text[l->len - 1] == '\r';
		if (!l->eol)
			crlf += cr_text;
		else if (*l->eol)
			crlf += strcmp(l->eol, "\r\n") == 0, lf += strcmp(l->eol, "\n") == 0;
	}
	return crlf > lf ? "\r\n" : "\n";
}

/* The edit itself: drop the flagged lines, put the new ones (and the
 * unprivileged key) before line insert_at (conf->n: at the end). Every
 * other line keeps its bytes and its place. */
static char *edit_lines(const struct lx_conf *conf, const bool *drop, char *const *replace,
			size_t insert_at, const struct lx_strv *lines, int unprivileged, size_t *len,
			size_t *removed)
{
	static const char unpriv_line[] = "unprivileged: 1";
	bool have_unpriv_line = false;
	for (size_t i = 0; i < conf->n; i++)
		have_unpriv_line |= is_unprivileged_line(&conf->lines[i]);

	struct out o = {0};
	*removed = 0;
	for (size_t i = 0; i <= conf->n; i++) {
		if (i == insert_at) {
			if (unprivileged == 1 && !have_unpriv_line)
				out_push(&o, unpriv_line, strlen(unpriv_line), NULL);
			for (size_t j = 0; lines && j < lines->n; j++)
				out_push(&o, lines->items[j], strlen(lines->items[j]), NULL);
		}
		if (i == conf->n)
			break;
		const struct lx_conf_line *l = &conf->lines[i];
		if (drop[i]) {
			(*removed)++;
			continue;
		}
		if (replace && replace[i]) {
			out_push(&o, replace[i], strlen(replace[i]), l->eol);
			continue;
		}
		if (is_unprivileged_line(l) && unprivileged == 0)
			continue;
		if (is_unprivileged_line(l) && unprivileged == 1 && strcmp(l->value, "1") != 0) {
			out_push(&o, unpriv_line, strlen(unpriv_line), l->eol);
			continue;
		}
		out_push(&o, l->text, l->len, l->eol);
	}

	/* Keep the file's shape: a missing final newline stays missing, and
	 * every line but the last ends (NULL: with the dominant end). */
	bool no_final_newline = conf->n > 0 && !*conf->lines[conf->n - 1].eol;
	for (size_t i = 0; i < o.n; i++) {
		/* An empty last line exists only through its newline. */
		bool last = i + 1 == o.n && o.lines[i].len > 0;
		if (last && no_final_newline)
			o.lines[i].eol = "";
		else if (o.lines[i].eol && !*o.lines[i].eol)
			o.lines[i].eol = NULL;
	}
	const char *eol = dominant_eol(&o);
	for (size_t i = 0; i < o.n; i++)
		if (!o.lines[i].eol)
			o.lines[i].eol = eol;
	struct lx_buf b = {0};
	for (size_t i = 0; i < o.n; i++) {
		lx_buf_append(&b, o.lines[i].text, o.lines[i].len);
		lx_buf_puts(&b, o.lines[i].eol);
	}
	free(o.lines);
	if (len)
		*len = b.len;
	return lx_buf_steal(&b);
}

/* After the live section's last line that is not blank. */
static size_t end_of_live(const struct lx_conf *conf)
{
	size_t at = 0;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++)
		if (conf->lines[i].kind != LX_CONF_BLANK)
			at = i + 1;
	return at;
}

char *lx_conf_edit(const struct lx_conf *conf, const bool *drop, char *const *replace,
		   long insert_at, const struct lx_strv *lines, int unprivileged, size_t *len,
		   size_t *removed)
{
	size_t at = insert_at >= 0 ? (size_t)insert_at : end_of_live(conf);
	return edit_lines(conf, drop, replace, at, lines, unprivileged, len, removed);
}

char *lx_conf_rewrite(const struct lx_conf *conf, const struct lx_gpu_owned *owned,
		      const struct lx_conf_rewrite *rw, size_t *len, size_t *removed)
{
	bool others = lx_conf_has_gpu_lines(conf, owned) || (rw->gpu_lines && rw->gpu_lines->n);
	/* The new lines go where the first GPU line was, else after the live
	 * section's last non-blank line. */
	bool *drop = lx_xcalloc(conf->n + 1, sizeof(*drop));
	size_t insert_at = end_of_live(conf);
	bool first = true;
	for (size_t i = 0; i < conf->n; i++) {
		enum ownership own = classify_line(&conf->lines[i], owned);
		drop[i] = own == GPU || (own == GPU_IF_OTHERS && others);
		if (drop[i] && first)
			insert_at = i, first = false;
	}
	char *text = edit_lines(conf, drop, NULL, insert_at, rw->gpu_lines, rw->unprivileged, len,
				removed);
	free(drop);
	return text;
}
