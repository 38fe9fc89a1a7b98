#include "lxgpu/report.h"

/* Invalid UTF-8 becomes \xNN text first (util.h's one rule), so the output
 * is always valid JSON; control characters, C1 ones too, become \u escapes
 * so that JSON printed to a terminal cannot drive it. */
static void json_string(struct lx_buf *b, const char *raw)
{
	/* Plain ASCII, nearly every string lxgpu writes, is valid UTF-8 as it
	 * is: no sanitized copy of it (audit writes thousands of them). */
	bool ascii = true;
	for (const unsigned char *p = (const unsigned char *)raw; *p && ascii; p++)
		ascii = *p < 0x80;
	_cleanup_free_ char *copy = ascii ? NULL : lx_utf8_sanitize(raw);
	const char *s = ascii ? raw : copy;
	lx_buf_puts(b, "\"");
	/* Runs of bytes that need no escape are appended whole. */
	const unsigned char *run = (const unsigned char *)s, *p;
	for (p = run; *p; p++) {
		bool c1 = *p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0;
		if (*p >= 0x20 && *p != '"' && *p != '\\' && *p != 0x7f && !c1)
			continue;
		lx_buf_append(b, (const char *)run, (size_t)(p - run));
		switch (*p) {
		case '"': lx_buf_puts(b, "\\\""); break;
		case '\\': lx_buf_puts(b, "\\\\"); break;
		case '\n': lx_buf_puts(b, "\\n"); break;
		case '\t': lx_buf_puts(b, "\\t"); break;
		case '\r': lx_buf_puts(b, "\\r"); break;
		default:
			if (c1) {
				lx_buf_printf(b, "\\u%04x", p[1]);
				p++;
			} else {
				lx_buf_printf(b, "\\u%04x", *p);
			}
		}
		run = p + 1;
	}
	lx_buf_append(b, (const char *)run, (size_t)(p - run));
	lx_buf_puts(b, "\"");
}

static void indent(struct lx_buf *b, int depth)
{
	for (int i = 0; i < depth; i++)
		lx_buf_puts(b, "  ");
}

static void json_value(struct lx_buf *b, const struct lx_doc *d, int depth)
{
	switch (d->kind) {
	case LX_DOC_NULL: lx_buf_puts(b, "null"); return;
	case LX_DOC_BOOL: lx_buf_puts(b, d->boolean ? "true" : "false"); return;
	case LX_DOC_INT: lx_buf_printf(b, "%lld", d->integer); return;
	case LX_DOC_STR: json_string(b, d->str); return;
	case LX_DOC_LIST:
	case LX_DOC_MAP:
		break;
	}
	bool is_map = d->kind == LX_DOC_MAP;
	if (d->n == 0) {
		lx_buf_puts(b, is_map ? "{}" : "[]");
		return;
	}
	lx_buf_puts(b, is_map ? "{\n" : "[\n");
	for (size_t i = 0; i < d->n; i++) {
		indent(b, depth + 1);
		if (is_map) {
			json_string(b, d->keys[i]);
			lx_buf_puts(b, ": ");
		}
		json_value(b, d->items[i], depth + 1);
		lx_buf_puts(b, i + 1 < d->n ? ",\n" : "\n");
	}
	indent(b, depth);
	lx_buf_puts(b, is_map ? "}" : "]");
}

char *lx_doc_to_json(const struct lx_doc *doc)
{
	struct lx_buf b = {0};
	json_value(&b, doc, 0);
	lx_buf_puts(&b, "\n");
	return lx_buf_steal(&b);
}
