/* Rollback: undo what lxgpu changed in a config, and nothing else. Writing
 * the whole backup back would silently undo every edit made since (a
 * snapshot taken, memory changed in the GUI); so only the lines lxgpu owns
 * go back, and only when they are still the ones lxgpu wrote. */
#include "lxgpu/config.h"

#include <string.h>

/* The GPU lines of a config's live section, in order, without line ends. */
static void gpu_lines(const struct lx_conf *conf, const struct lx_gpu_owned *owned,
		      struct lx_strv *out)
{
	bool others = lx_conf_has_gpu_lines(conf, owned);
	for (size_t i = 0; i < conf->n; i++)
		if (lx_conf_line_is_gpu_given(&conf->lines[i], owned, others))
			lx_strv_push(out, conf->lines[i].text);
}

static bool same_lines(const struct lx_strv *a, const struct lx_strv *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i], b->items[i]) != 0)
			return false;
	return true;
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

/* The config with the backup's GPU lines back (the checks passed). */
static void restore(const struct lx_conf *today, const struct lx_conf *old,
		    const struct lx_conf *wrote, const struct lx_strv *old_gpu, size_t n_now_gpu,
		    const struct lx_gpu_owned *owned, struct lx_rollback *rb)
{
	rb->restored = old_gpu->n;
	size_t today_len, wrote_len = 0;
	_cleanup_free_ char *today_text = lx_conf_serialize(today, &today_len);
	_cleanup_free_ char *wrote_text = wrote ? lx_conf_serialize(wrote, &wrote_len) : NULL;
	if (wrote_text && today_len == wrote_len && memcmp(today_text, wrote_text, wrote_len) == 0) {
		/* Nothing changed since: the exact bytes from before lxgpu's change. */
		rb->text = lx_conf_serialize(old, &rb->len);
		rb->removed = n_now_gpu;
		return;
	}
	struct lx_conf_rewrite rw = {.gpu_lines = old_gpu, .unprivileged = -1};
	/* apply --allow-privilege-change flips the key: undo that too, unless
	 * someone set it since. */
	if (wrote && unprivileged_key(old) != unprivileged_key(wrote) &&
	    unprivileged_key(today) == unprivileged_key(wrote))
		rw.unprivileged = unprivileged_key(old);
	rb->text = lx_conf_rewrite(today, owned, &rw, &rb->len, &rb->removed);
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
	if (!written && !force) {
		rc = lx_error_set(err,
				  "%s does not record what lxgpu wrote (a backup of an older "
				  "lxgpu), so it cannot tell whether the GPU lines of %s were "
				  "changed since; nothing was written. --force puts the backup's GPU "
				  "lines in place of today's and keeps every other line as it is now",
				  backup_name, today->path);
	} else if (written && !force && !same_lines(&wrote_gpu, &now_gpu)) {
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
		restore(today, &old, written ? &wrote : NULL, &old_gpu, now_gpu.n, owned, rb);
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
