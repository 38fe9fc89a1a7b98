/* libFuzzer target: the template engine, parsing and rendering any input
 * against a fixed context. Any input: no crash, and failures say why. */
#include "lxgpu/template.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct lx_doc *context(void)
{
	struct lx_doc *c = lx_doc_new_map();
	lx_doc_map_set(c, "name", lx_doc_new_str("x"));
	lx_doc_map_set(c, "n", lx_doc_new_int(3));
	lx_doc_map_set(c, "flag", lx_doc_new_bool(true));
	struct lx_doc *list = lx_doc_new_list();
	for (int i = 0; i < 3; i++) {
		struct lx_doc *m = lx_doc_new_map();
		lx_doc_map_set(m, "path", lx_doc_new_str("/dev/nvidia0"));
		lx_doc_map_set(m, "sub", lx_doc_new_list());
		lx_doc_list_push(list, m);
	}
	lx_doc_map_set(c, "items", list);
	return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = lx_xstrndup((const char *)data, size);
	struct lx_template *t = NULL;
	struct lx_error err = {0};
	if (lx_template_parse("fuzz.tmpl", text, &t, &err) == 0) {
		struct lx_doc *ctx = context();
		char *out = NULL;
		if (lx_template_render(t, ctx, &out, &err) < 0 && !err.message)
			__builtin_trap();
		free(out);
		lx_doc_free(ctx);
		lx_template_free(t);
	} else if (!err.message) {
		__builtin_trap();
	}
	lx_error_clear(&err);
	free(text);
	return 0;
}
