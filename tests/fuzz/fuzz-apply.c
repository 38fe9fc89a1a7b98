/* libFuzzer target: apply's reconcile over any config. Oracles: no crash;
 * lines that plainly are not GPU lines (a rule of this harness alone) stay,
 * in order; when the result would start, a second reconcile of it changes
 * nothing (apply is idempotent). */
#include "lxgpu/reconcile.h"
#include "fuzz-host.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool plainly_not_gpu(const char *text)
{
	if (strstr(text, "nvidia") || strstr(text, "/dev/dri") || strstr(text, "devices"))
		return false;
	return true;
}

static char *plain_lines(const char *text, size_t len)
{
	struct lx_conf c;
	lx_conf_parse("plain", text, len, &c);
	struct lx_buf b = {0};
	for (size_t i = 0; i < c.n; i++) {
		/* Only lines PVE reads as lines of the live section count; a
		 * trailing CR is the same line to PVE. */
		if (c.lines[i].section != -1 || c.lines[i].kind == LX_CONF_BLANK ||
		    !plainly_not_gpu(c.lines[i].text))
			continue;
		size_t n = c.lines[i].len;
		while (n && c.lines[i].text[n - 1] == '\r')
			n--;
		lx_buf_append(&b, c.lines[i].text, n);
		lx_buf_puts(&b, "\n");
	}
	lx_conf_free(&c);
	return lx_buf_steal(&b);
}

static int reconcile(const struct lx_host *h, const char *text, size_t len,
		     struct lx_reconcile_result *res)
{
	struct lx_conf conf;
	lx_conf_parse("fuzz.conf", text, len, &conf);
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	aopts.lxc_config_dir = "/nonexistent"; /* built-in include lines */
	struct lx_plan_options opts;
	lx_plan_options_default(&opts);
	opts.gpus = "0";
	opts.unprivileged = lx_conf_unprivileged(&conf, true);
	struct lx_render_options ropts = {.templates_dir = NULL, .version = "fuzz"};
	struct lx_reconcile_input in = {.host = h, .conf = &conf, .is_pve = true,
					.access_opts = &aopts, .plan_opts = &opts,
					.render_opts = &ropts, .set_unprivileged = -1};
	struct lx_error err = {0};
	int rc = lx_reconcile(&in, res, &err);
	lx_error_clear(&err);
	lx_conf_free(&conf);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lx_host h;
	make_host(&h);
	struct lx_conf conf;
	lx_conf_parse("fuzz.conf", (const char *)data, size, &conf);
	bool parses = lx_conf_first_invalid(&conf) == NULL;
	lx_conf_free(&conf);
	if (!parses)
		return 0; /* apply refuses such files before reconciling */
	struct lx_reconcile_result first;
	if (reconcile(&h, (const char *)data, size, &first) < 0)
		return 0;
	char *before = plain_lines((const char *)data, size);
	char *after = plain_lines(first.text, first.len);
	if (strcmp(before, after) != 0)
		__builtin_trap(); /* a line that is not a GPU line moved, changed or vanished */
	free(before);
	free(after);
	if (first.after.n_failures == 0) {
		struct lx_reconcile_result second;
		if (reconcile(&h, first.text, first.len, &second) == 0) {
			if (second.len != first.len || memcmp(second.text, first.text, first.len) != 0)
				__builtin_trap(); /* a second apply must change nothing */
			lx_reconcile_result_free(&second);
		}
	}
	lx_reconcile_result_free(&first);
	return 0;
}
