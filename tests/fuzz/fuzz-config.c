/* libFuzzer target: container configs. Oracles: parse-serialize is the
 * identity on any input; replacing the GPU lines keeps every other line in
 * order, leaves the sections after the live one alone, and is idempotent. */
#include "lxgpu/access.h"
#include "lxgpu/config.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Lines that are not lxgpu's (lx_gpu_owned_line). */
static char *not_gpu_lines(const struct lx_conf *conf, const struct lx_gpu_owned *owned)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < conf->n; i++)
		if (!lx_gpu_owned_line(owned, &conf->lines[i])) {
			/* A last line "x\r" without newline reads back as "x" + "\r\n"
			 * once it gets one: the same line to PVE, which splits on \n
			 * and ignores trailing white space. */
			size_t len = conf->lines[i].len;
			while (len && conf->lines[i].text[len - 1] == '\r')
				len--;
			lx_buf_append(&b, conf->lines[i].text, len);
			lx_buf_puts(&b, "\n");
		}
	return lx_buf_steal(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lx_conf conf;
	lx_conf_parse("fuzz.conf", (const char *)data, size, &conf);
	size_t len;
	char *again = lx_conf_serialize(&conf, &len);
	if (len != size || memcmp(again, data, size) != 0)
		__builtin_trap(); /* parse then write must give back every byte */
	free(again);

	unsigned majors[] = {195, 509, 511};
	unsigned drm_minors[] = {1, 128};
	struct lx_gpu_owned owned = {.majors = majors, .n_majors = 3, .drm_major = 226,
				     .drm_minors = drm_minors, .n_drm_minors = 2};
	lx_strv_push(&owned.drm_paths, "/dev/dri/renderD128");
	struct lx_strv lines = {0};
	lx_strv_push(&lines, "dev0: /dev/nvidia0,mode=0666");
	lx_strv_push(&lines, "lxc.mount.entry: /dev/nvidiactl dev/nvidiactl none bind,create=file");
	struct lx_conf_rewrite rw = {.gpu_lines = &lines, .unprivileged = -1};
	size_t new_len, removed;
	char *new_text = lx_conf_rewrite(&conf, &owned, &rw, &new_len, &removed);
	struct lx_conf after;
	lx_conf_parse("fuzz-after.conf", new_text, new_len, &after);
	/* devN lines of the plan may collide in name with the user's (the CLI
	 * picks free indexes); compare everything else. */
	char *before_kept = not_gpu_lines(&conf, &owned);
	char *after_kept = not_gpu_lines(&after, &owned);
	if (strcmp(before_kept, after_kept) != 0)
		__builtin_trap(); /* a line that is not lxgpu's moved, changed or vanished */
	size_t twice_len, removed2;
	char *twice = lx_conf_rewrite(&after, &owned, &rw, &twice_len, &removed2);
	if (twice_len != new_len || memcmp(twice, new_text, new_len) != 0)
		__builtin_trap(); /* a second apply must change nothing */
	free(twice);
	free(before_kept);
	free(after_kept);
	lx_conf_free(&after);
	free(new_text);
	lx_strv_free(&lines);
	lx_strv_free(&owned.drm_paths);
	lx_conf_free(&conf);
	return 0;
}
