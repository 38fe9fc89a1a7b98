#include "lxgpu/report.h"

#include <stdlib.h>
#include <string.h>

/* Invalid UTF-8 becomes \xNN text first (util.h's one rule), so the output
 * is always valid JSON; control characters, C1 ones too, become \u escapes
 * so that JSON printed to a terminal cannot drive it. */
static void json_string(struct lx_buf *b, const char *raw)
{
	/* Plain ASCII, nearly every string lxgpu writes, is valid UTF-8 as it
	 * is: written in one pass, no sanitized copy of it (audit writes
	 * thousands of them); at the first other byte, written again from a
	 * sanitized copy. */
	_cleanup_free_ char *copy = NULL;
	lx_buf_append(b, "\"", 1);
	size_t start = b->len;
	/* Runs of bytes that need no escape are appended whole. */
	const unsigned char *run = (const unsigned char *)raw, *p = run;
	while (*p) {
		if (*p >= 0x80 && !copy) {
			copy = lx_utf8_sanitize(raw);
			b->len = start;
			b->data[b->len] = '\0';
			run = p = (const unsigned char *)copy;
			continue;
		}
		bool c1 = *p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0;
		if (*p >= 0x20 && *p != '"' && *p != '\\' && *p != 0x7f && !c1) {
			p++;
			continue;
		}
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
		run = ++p;
	}
	lx_buf_append(b, (const char *)run, (size_t)(p - run));
	lx_buf_append(b, "\"", 1);
}

/* The layout of every JSON lxgpu prints: two spaces a level, one item a
 * line; compact: the whole document on one line, no spaces. */
static void newline(struct lx_buf *b, int depth, bool compact)
{
	if (compact)
		return;
	/* (the line break and two spaces a level, appended in long runs) */
	static const char spaces[] = "                                ";
	lx_buf_append(b, "\n", 1);
	for (size_t want = 2 * (size_t)depth; want;) {
		size_t n = want < sizeof(spaces) - 1 ? want : sizeof(spaces) - 1;
		lx_buf_append(b, spaces, n);
		want -= n;
	}
}

static void json_value(struct lx_buf *b, const struct lx_doc *d, int depth, bool compact)
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
	lx_buf_puts(b, is_map ? "{" : "[");
	for (size_t i = 0; i < d->n; i++) {
		newline(b, depth + 1, compact);
		if (is_map) {
			json_string(b, d->keys[i]);
			lx_buf_puts(b, compact ? ":" : ": ");
		}
		json_value(b, d->items[i], depth + 1, compact);
		if (i + 1 < d->n)
			lx_buf_puts(b, ",");
	}
	newline(b, depth, compact);
	lx_buf_puts(b, is_map ? "}" : "]");
}

char *lx_doc_to_json_layout(const struct lx_doc *doc, bool compact)
{
	struct lx_buf b = {0};
	json_value(&b, doc, 0, compact);
	lx_buf_puts(&b, "\n");
	return lx_buf_steal(&b);
}

char *lx_doc_to_json(const struct lx_doc *doc)
{
	return lx_doc_to_json_layout(doc, false);
}

/* ---- streamed: the same bytes, one value at a time ---- */

void lx_json_writer_init(struct lx_json_writer *w, FILE *out, bool compact)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->compact = compact;
}

/* Before the next value of the innermost open map or list: the comma, the
 * line break and indent, the key. */
static void next_item(struct lx_json_writer *w, struct lx_buf *b, const char *key)
{
	if (w->depth == 0)
		return;
	if (w->count[w->depth - 1]++)
		lx_buf_puts(b, ",");
	newline(b, w->depth, w->compact);
	if (key) {
		json_string(b, key);
		lx_buf_puts(b, w->compact ? ":" : ": ");
	}
}

static void flush(struct lx_json_writer *w, struct lx_buf *b)
{
	if (b->len)
		fwrite(b->data, 1, b->len, w->out);
	lx_buf_free(b);
}

void lx_json_open(struct lx_json_writer *w, const char *key, bool map)
{
	struct lx_buf b = {0};
	next_item(w, &b, key);
	lx_buf_puts(&b, map ? "{" : "[");
	flush(w, &b);
	if (w->depth >= LX_JSON_MAX_DEPTH)
		abort(); /* lxgpu's streamed documents are three levels deep */
	w->is_map[w->depth] = map;
	w->count[w->depth] = 0;
	w->depth++;
}

void lx_json_value(struct lx_json_writer *w, const char *key, const struct lx_doc *d)
{
	struct lx_buf b = {0};
	next_item(w, &b, key);
	json_value(&b, d, w->depth, w->compact);
	flush(w, &b);
}

void lx_json_close(struct lx_json_writer *w)
{
	if (w->depth == 0)
		return;
	w->depth--;
	struct lx_buf b = {0};
	if (w->count[w->depth])
		newline(&b, w->depth, w->compact);
	lx_buf_puts(&b, w->is_map[w->depth] ? "}" : "]");
	if (w->depth == 0)
		lx_buf_puts(&b, "\n");
	flush(w, &b);
}
