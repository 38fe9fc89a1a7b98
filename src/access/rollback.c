/* Rollback: undo what lxgpu changed in a config, and nothing else. Writing
 * the whole backup back would silently undo every edit made since (a
 * snapshot taken, memory changed in the GUI); so only the lines lxgpu owns
 * go back, and only when they are still the ones lxgpu wrote. */
#include "lxgpu/access.h"

#include <string.h>

/* The owned lines of a config's live section, in order, without line ends:
 * by the rule apply took lines out by, so that every line apply removed is
 * among those put back. */
static void gpu_lines(const struct lx_conf *conf, const struct lx_gpu_owned *owned,
		      struct lx_strv *out)
{
	for (size_t i = 0; i < conf->n; i++)
		if (lx_gpu_owned_line(owned, &conf->lines[i]))
			lx_strv_push(out, conf->lines[i].text);
}

static char *joined(const struct lx_strv *lines)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < lines->n; i++)
		lx_buf_printf(&b, "%s\n", lines->items[i]);
	return lx_buf_steal(&b);
}

/* PVE's "unprivileged" key as a boolean (absent: privileged). */
static int unprivileged_key(const struct lx_conf *conf)
{
	const char *v = lx_conf_get(conf, "unprivileged");
	return v && lx_pve_bool(v) == 1;
}

/* Which line of b each line of a is, by a longest common subsequence of
 * their texts (lines flagged in skip_a/skip_b match nothing): map[i] is
 * the index in b, or -1. The rollback's anchors come from it. Configs are
 * small (pmxcfs holds 1 MiB at most); a pair too large for the table maps
 * nothing, and the restored lines then go together (see restore). */
static long *match_lines(const struct lx_conf *a, const bool *skip_a, const struct lx_conf *b,
			 const bool *skip_b)
{
	size_t na = a->n, nb = b->n;
	long *map = lx_xmalloc((na + 1) * sizeof(*map));
	for (size_t i = 0; i < na; i++)
		map[i] = -1;
	if (na == 0 || nb == 0 || na + 1 > ((size_t)8 << 20) / (nb + 1))
		return map;
	/* len[i][j]: the LCS of a[i..] and b[j..] */
	unsigned *len = lx_xcalloc((na + 1) * (nb + 1), sizeof(*len));
#define LEN(i, j) len[(i) * (nb + 1) + (j)]
	for (size_t i = na; i-- > 0;)
		for (size_t j = nb; j-- > 0;) {
			const struct lx_conf_line *x = &a->lines[i], *y = &b->lines[j];
			bool same = !skip_a[i] && !skip_b[j] && x->len == y->len &&
				    memcmp(x->text, y->text, x->len) == 0;
			LEN(i, j) = same ? LEN(i + 1, j + 1) + 1
					 : LEN(i + 1, j) > LEN(i, j + 1) ? LEN(i + 1, j) : LEN(i, j + 1);
		}
	for (size_t i = 0, j = 0; i < na && j < nb;) {
		const struct lx_conf_line *x = &a->lines[i], *y = &b->lines[j];
		if (!skip_a[i] && !skip_b[j] && x->len == y->len && memcmp(x->text, y->text, x->len) == 0)
			map[i++] = (long)j++;
		else if (LEN(i + 1, j) >= LEN(i, j + 1))
			i++;
		else
			j++;
	}
#undef LEN
	free(len);
	return map;
}

static bool *owned_flags(const struct lx_conf *conf, const struct lx_gpu_owned *owned)
{
	bool *flags = lx_xcalloc(conf->n + 1, sizeof(*flags));
	for (size_t i = 0; i < conf->n; i++)
		flags[i] = lx_gpu_owned_line(owned, &conf->lines[i]);
	return flags;
}

/* The config with the backup's GPU lines back (the checks passed). Each
 * owned line of the backup goes back after the line it followed there (the
 * nearest line before it that is not lxgpu's), found in today's config
 * through what lxgpu wrote (apply kept every such line, in order) and the
 * edits made since; so a config whose other lines are as they were gets
 * its very bytes back. A line whose anchor is gone (edited or removed
 * since) follows the line restored before it, else goes where today's
 * first owned line is. */
static void restore(const struct lx_conf *today, const struct lx_conf *old,
		    const struct lx_conf *wrote, size_t n_restored,
		    const struct lx_gpu_owned *owned, struct lx_rollback *rb)
{
	rb->restored = n_restored;
	/* apply --allow-privilege-change flips the key: undo that too, unless
	 * someone set it since. */
	int unprivileged = -1;
	if (wrote && unprivileged_key(old) != unprivileged_key(wrote) &&
	    unprivileged_key(today) == unprivileged_key(wrote))
		unprivileged = unprivileged_key(old);

	bool *old_owned = owned_flags(old, owned), *today_owned = owned_flags(today, owned);
	/* old -> today, through what lxgpu wrote when the backup records it */
	long *old_to_today, *old_to_wrote = NULL, *wrote_to_today = NULL;
	if (wrote) {
		bool *wrote_owned = owned_flags(wrote, owned);
		old_to_wrote = match_lines(old, old_owned, wrote, wrote_owned);
		wrote_to_today = match_lines(wrote, wrote_owned, today, today_owned);
		free(wrote_owned);
		old_to_today = lx_xmalloc((old->n + 1) * sizeof(*old_to_today));
		for (size_t i = 0; i < old->n; i++)
			old_to_today[i] = old_to_wrote[i] >= 0 ? wrote_to_today[old_to_wrote[i]] : -1;
	} else {
		old_to_today = match_lines(old, old_owned, today, today_owned);
	}
	long first_owned = -1;
	for (size_t j = 0; j < today->n && first_owned < 0; j++)
		if (today_owned[j])
			first_owned = (long)j;
	struct lx_strv *inserts = lx_xcalloc(today->n + 1, sizeof(*inserts));
	long last = -1; /* where the previous restored line went */
	for (size_t i = 0; i < old->n; i++) {
		if (!old_owned[i])
			continue;
		long anchor = -1; /* old's line this one follows; -1: the file's start */
		for (size_t k = i; k-- > 0 && anchor < 0;)
			if (!old_owned[k])
				anchor = (long)k;
		long at;
		if (anchor < 0)
			at = 0;
		else if (old_to_today[anchor] >= 0 &&
			 today->lines[old_to_today[anchor]].section == -1)
			at = old_to_today[anchor] + 1;
		else
			at = last >= 0 ? last : first_owned;
		if (at < 0 || at < last)
			at = last; /* the backup's order holds */
		if (at < 0) {
			/* after the live section's last line that is not blank */
			at = 0;
			for (size_t j = 0; j < today->n && today->lines[j].section == -1; j++)
				if (today->lines[j].kind != LX_CONF_BLANK)
					at = (long)j + 1;
		}
		lx_strv_push(&inserts[at], old->lines[i].text);
		last = at;
	}
	rb->text = lx_conf_edit_at(today, today_owned, inserts, unprivileged, &rb->len, &rb->removed);
	for (size_t j = 0; j <= today->n; j++)
		lx_strv_free(&inserts[j]);
	free(inserts);
	free(old_to_today);
	free(old_to_wrote);
	free(wrote_to_today);
	free(old_owned);
	free(today_owned);
}

/* The first line from i on that is neither lxgpu's nor the unprivileged key. */
static size_t next_other_line(const struct lx_conf *c, const bool *lxgpu_owned, size_t i)
{
	while (i < c->n && (lxgpu_owned[i] ||
			    (c->lines[i].key && strcmp(c->lines[i].key, "unprivileged") == 0)))
		i++;
	return i;
}

/* Whether the lines lxgpu does not own (the unprivileged key aside, which
 * apply may flip) are the same in the backup's before and written: an
 * apply changes nothing else, so a backup that differs there was not made
 * by it and is not restored. */
static bool others_match(const struct lx_conf *old, const struct lx_conf *wrote,
			 const struct lx_gpu_owned *owned, long *first_diff)
{
	bool *a_owned = owned_flags(old, owned), *b_owned = owned_flags(wrote, owned);
	size_t i = 0, j = 0;
	bool same = true;
	for (;;) {
		i = next_other_line(old, a_owned, i);
		j = next_other_line(wrote, b_owned, j);
		if (i >= old->n || j >= wrote->n) {
			same = i >= old->n && j >= wrote->n;
			break;
		}
		if (old->lines[i].len != wrote->lines[j].len ||
		    memcmp(old->lines[i].text, wrote->lines[j].text, old->lines[i].len) != 0) {
			same = false;
			break;
		}
		i++;
		j++;
	}
	*first_diff = i < old->n ? (long)i : -1;
	free(a_owned);
	free(b_owned);
	return same;
}

int lx_conf_rollback(const struct lx_conf *today, const char *backup_name, const char *before,
		     size_t before_len, const char *written, size_t written_len,
		     const struct lx_gpu_owned *owned, bool force, struct lx_rollback *rb,
		     struct lx_error *err)
{
	memset(rb, 0, sizeof(*rb));
	struct lx_conf old, wrote = {0};
	lx_conf_parse(backup_name, before, before_len, &old);
	if (written)
		lx_conf_parse(backup_name, written, written_len, &wrote);
	struct lx_strv old_gpu = {0}, wrote_gpu = {0}, now_gpu = {0};
	gpu_lines(&old, owned, &old_gpu);
	gpu_lines(&wrote, owned, &wrote_gpu);
	gpu_lines(today, owned, &now_gpu);
	int rc = 0;
	long other_line = -1;
	if (written && !others_match(&old, &wrote, owned, &other_line)) {
		if (other_line >= 0)
			rc = lx_error_set(err,
					  "%s does not match what lxgpu wrote: its config before the "
					  "change has line %ld (\"%s\") that is neither a GPU line nor "
					  "in what lxgpu wrote; a backup of lxgpu's differs only in "
					  "GPU lines, so this one is not restored and nothing was written",
					  backup_name, (long)old.lines[other_line].lineno,
					  old.lines[other_line].text);
		else
			rc = lx_error_set(err,
					  "%s does not match what lxgpu wrote: lines other than GPU "
					  "lines differ between its config before and after the change; "
					  "a backup of lxgpu's differs only in GPU lines, so this one is "
					  "not restored and nothing was written",
					  backup_name);
	} else if (!written && !force) {
		rc = lx_error_set(err,
				  "%s does not record what lxgpu wrote (a backup of an older "
				  "lxgpu), so it cannot tell whether the GPU lines of %s were "
				  "changed since; nothing was written. --force puts the backup's GPU "
				  "lines in place of today's and keeps every other line as it is now",
				  backup_name, today->path);
	} else if (written && !force && !lx_strv_equal(&wrote_gpu, &now_gpu)) {
		_cleanup_free_ char *a = joined(&wrote_gpu), *b = joined(&now_gpu);
		_cleanup_free_ char *a_name = lx_xasprintf("%s (GPU lines lxgpu wrote)", backup_name);
		_cleanup_free_ char *b_name = lx_xasprintf("%s (GPU lines now)", today->path);
		rb->gpu_diff = lx_diff_unified(a_name, a, strlen(a), b_name, b, strlen(b));
		rc = lx_error_set(err,
				  "the GPU lines of %s were changed since lxgpu wrote them (diff "
				  "above); a rollback would undo that edit too, so nothing was "
				  "written. --force puts the backup's GPU lines back anyway",
				  today->path);
	}
	if (rc == 0)
		restore(today, &old, written ? &wrote : NULL, old_gpu.n, owned, rb);
	lx_strv_free(&old_gpu);
	lx_strv_free(&wrote_gpu);
	lx_strv_free(&now_gpu);
	lx_conf_free(&old);
	lx_conf_free(&wrote);
	return rc;
}

void lx_rollback_free(struct lx_rollback *rb)
{
	free(rb->text);
	free(rb->gpu_diff);
	memset(rb, 0, sizeof(*rb));
}

int lx_rollback_include(const struct lx_backup_meta *meta, const char *today, bool force,
			const char **restore, struct lx_error *err)
{
	*restore = meta->include_before;
	/* lxgpu writes the include file as text: a NUL in the text to put back
	 * would cut it short where it is written. */
	if (meta->include_before && strlen(meta->include_before) != meta->include_before_len)
		return lx_error_set(err,
				    "the backup's include.before (the text of %s to put back) holds a "
				    "NUL byte: lxgpu never wrote it so; nothing was written",
				    meta->include_path);
	const char *wrote = meta->include_written;
	bool same = (!today && !wrote) || (today && wrote && strlen(today) == meta->include_written_len &&
					    memcmp(today, wrote, meta->include_written_len) == 0);
	if (same || force)
		return 0;
	return lx_error_set(err,
			    "%s is not what lxgpu wrote with this change (ensure-nodes rewrites it "
			    "at boot with that boot's numbers, or it was edited); nothing was "
			    "written. --force puts back its text from before the change (then run "
			    "lxgpu ensure-nodes to renumber it)",
			    meta->include_path);
}
