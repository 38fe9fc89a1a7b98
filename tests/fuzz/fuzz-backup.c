/* libFuzzer target: a backup (tar.gz with meta.yaml, config, written,
 * include.*) as rollback reads it, then rollback's restore of it. A backup
 * is a stranger's data (issue 28). Oracles: no crash, no leak; when the
 * restore succeeds, every line of the result that is neither a GPU line nor
 * `unprivileged:` is today's line, in order (rollback restores only the
 * lines lxgpu owns, docs/apply.md), and an include file is restored only to
 * the backup's own text. Today's config is the backup's `written` (the
 * common case: nothing changed since the apply), else its `config`. */
#include "lxgpu/access.h"
#include "lxgpu/config.h"
#include "fuzz-host.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The lines a restore must keep: neither owned nor unprivileged. */
static char *kept_lines(const struct lx_gpu_owned *owned, const char *text, size_t len)
{
	struct lx_conf c;
	lx_conf_parse("kept", text, len, &c);
	struct lx_buf b = {0};
	for (size_t i = 0; i < c.n; i++) {
		const struct lx_conf_line *l = &c.lines[i];
		if (lx_gpu_owned_line(owned, l) ||
		    (l->key && l->section == -1 && strcmp(l->key, "unprivileged") == 0))
			continue;
		lx_buf_append(&b, l->text, l->len);
		lx_buf_puts(&b, "\n");
	}
	lx_conf_free(&c);
	return lx_buf_steal(&b);
}

static void restore(const struct lx_gpu_owned *owned, const char *config, size_t config_len,
		    const struct lx_backup_meta *meta, const char *today, size_t today_len, bool force)
{
	struct lx_conf conf;
	lx_conf_parse("fuzz.conf", today, today_len, &conf);
	struct lx_rollback rb;
	struct lx_error err = {0};
	if (lx_conf_rollback(&conf, "fuzz.tar.gz", config, config_len, meta->written,
			     meta->written_len, owned, force, &rb, &err) == 0) {
		char *want = kept_lines(owned, today, today_len);
		char *got = kept_lines(owned, rb.text, rb.len);
		if (strcmp(want, got) != 0)
			__builtin_trap(); /* a line rollback does not own was changed */
		free(want);
		free(got);
	}
	lx_rollback_free(&rb);
	lx_error_clear(&err);
	lx_conf_free(&conf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *config;
	size_t config_len;
	struct lx_backup_meta meta;
	struct lx_error err = {0};
	if (lx_backup_read_buffer("fuzz.tar.gz", (const char *)data, size, &config, &config_len,
				  &meta, &err) < 0) {
		lx_error_clear(&err);
		return 0;
	}
	struct lx_host h;
	make_host(&h);
	struct lx_gpu_owned owned;
	lx_gpu_owned_from_host(&h, &owned);
	owned.include_dir = lx_xstrdup("/var/lib/lxgpu/lxc/");
	const char *today = meta.written ? meta.written : config;
	size_t today_len = meta.written ? meta.written_len : config_len;
	restore(&owned, config, config_len, &meta, today, today_len, false);
	restore(&owned, config, config_len, &meta, today, today_len, true);
	/* The include file: back to the backup's text before, or removed. */
	for (int force = 0; force < 2; force++) {
		const char *back = NULL;
		if (meta.include_path &&
		    lx_rollback_include(&meta, meta.include_written, force, &back, &err) == 0 &&
		    back && (back != meta.include_before || strlen(back) != meta.include_before_len))
			__builtin_trap(); /* restored to text the backup does not hold, or cut */
		lx_error_clear(&err);
	}
	lx_gpu_owned_free(&owned);
	lx_backup_meta_free(&meta);
	free(config);
	return 0;
}
