/* Reading the block YAML that lxgpu writes, without libyaml.
 *
 * libyaml's scanner costs some 200 instructions a byte: for a snapshot of
 * eight GPUs, more than everything else `generate` does. What lxgpu's
 * writer (and a person editing its files) produces is a small subset of
 * YAML that can be read line by line: block mappings and sequences
 * (compact "- key: value" items, sequences not indented under their key),
 * one-line plain, single- and double-quoted scalars, empty [] and {},
 * comments, a leading "---". Anything else, and anything this reader is
 * not sure of, is left to libyaml: it answers 0 and the caller reads the
 * text again with libyaml, which also words every error. The tree it
 * builds is the libyaml reader's exactly (values, kinds, lines); the
 * yaml-lines unit test and fuzzer hold the two to that. */
#include "doc-arena.h"

#include <string.h>

/* Nesting beyond this is left to libyaml (which refuses past 64). */
#define MAX_DEPTH 64

struct line {
	const char *s; /* content, after the indentation */
	size_t len;    /* to the end of the line, trailing spaces cut */
	int indent;
	int number; /* 1-based */
};

struct lines_reader {
	const char *text;
	size_t len, pos; /* pos: where the line after the current one starts */
	int number;      /* of the last line looked at */
	struct line line; /* the current line: the reader looks one line ahead, no more */
	bool have_line;
	bool past_first; /* a line was returned: "---" is no longer the document's start */
	bool refused; /* a byte or line this reader leaves to libyaml */
	int depth;
	struct lx_doc_arena *arena;
	struct lx_doc_stack stack;
	struct lx_buf quoted; /* a quoted scalar's text, reused */
};

/* A quoted scalar at s into r->quoted; *after: past its closing quote. */
static bool read_quoted(struct lines_reader *r, const char *s, const char *end, const char **after);

/* Move to the next line that is neither blank nor a comment. Bytes this
 * reader leaves to libyaml (tab, CR, control, non-ASCII), document markers
 * past the opening "---" set refused. */
static void next_line(struct lines_reader *r)
{
	r->have_line = false;
	while (r->pos < r->len && !r->refused) {
		const char *text = r->text;
		size_t pos = r->pos, end = pos;
		r->number++;
		while (end < r->len && text[end] != '\n') {
			unsigned char c = (unsigned char)text[end];
			if (c < 0x20 || c > 0x7e)
				r->refused = true;
			end++;
		}
		r->pos = end + 1;
		size_t indent = 0;
		while (pos + indent < end && text[pos + indent] == ' ')
			indent++;
		size_t stop = end;
		while (stop > pos + indent && text[stop - 1] == ' ')
			stop--;
		const char *s = text + pos + indent;
		size_t n = stop - (pos + indent);
		if (n == 0 || s[0] == '#')
			continue;
		/* Document markers: only a "---" line opening the text is read here. */
		bool marker = indent == 0 && n >= 3 &&
			      (memcmp(s, "---", 3) == 0 || memcmp(s, "...", 3) == 0);
		if (indent > 1000 || (marker && (r->past_first || n != 3 || s[0] != '-')))
			r->refused = true;
		if (r->refused)
			return;
		r->line = (struct line){s, n, (int)indent, r->number};
		r->have_line = true;
		r->past_first = true;
		return;
	}
}

static struct line *current(struct lines_reader *r)
{
	return r->have_line ? &r->line : NULL;
}

static bool is_entry(const struct line *l)
{
	return l->s[0] == '-' && (l->len == 1 || l->s[1] == ' ');
}

/* The rest of a line after a scalar: nothing, or a comment after a space. */
static bool only_comment(const char *s, const char *end)
{
	const char *p = s;
	while (p < end && *p == ' ')
		p++;
	return p == end || (*p == '#' && p > s);
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A double-quoted scalar from s (at the quote) within the line; *after is
 * past the closing quote. Only escapes that give ASCII other than NUL. */
static bool double_quoted(const char *s, const char *end, struct lx_buf *out, const char **after)
{
	static const char escapes[] = "\\\\\"\"//n\nt\tr\ra\ab\be\033f\fv\v";
	for (const char *p = s + 1; p < end; p++) {
		const char *run = p;
		while (p < end && *p != '"' && *p != '\\')
			p++;
		lx_buf_append(out, run, (size_t)(p - run));
		if (p == end)
			return false;
		if (*p == '"') {
			*after = p + 1;
			return true;
		}
		if (++p == end)
			return false;
		const char *e = NULL;
		for (size_t k = 0; escapes[k]; k += 2)
			if (escapes[k] == *p) {
				e = &escapes[k + 1];
				break;
			}
		if (e) {
			lx_buf_append(out, e, 1);
			continue;
		}
		int digits = *p == 'x' ? 2 : *p == 'u' ? 4 : 0;
		if (!digits || end - p <= digits)
			return false;
		int v = 0;
		for (int k = 1; k <= digits; k++) {
			int h = hex_value(p[k]);
			if (h < 0)
				return false;
			v = v * 16 + h;
		}
		if (v == 0 || v > 0x7f)
			return false;
		char c = (char)v;
		lx_buf_append(out, &c, 1);
		p += digits;
	}
	return false;
}

static bool single_quoted(const char *s, const char *end, struct lx_buf *out, const char **after)
{
	for (const char *p = s + 1; p < end; p++) {
		const char *run = p;
		while (p < end && *p != '\'')
			p++;
		lx_buf_append(out, run, (size_t)(p - run));
		if (p == end)
			return false;
		if (p + 1 < end && p[1] == '\'') {
			lx_buf_append(out, "'", 1);
			p++;
			continue;
		}
		*after = p + 1;
		return true;
	}
	return false;
}

static bool read_quoted(struct lines_reader *r, const char *s, const char *end, const char **after)
{
	r->quoted.len = 0;
	lx_buf_append(&r->quoted, "", 0); /* data is a string, also when empty */
	return s[0] == '"' ? double_quoted(s, end, &r->quoted, after)
			   : single_quoted(s, end, &r->quoted, after);
}

/* Characters that cannot start a plain scalar here: libyaml reads the
 * flow indicators as tokens wherever a token starts, in block context too.
 * Inside a block plain scalar they are ordinary characters ("UHD Graphics
 * [770]", "a, b"): libyaml's plain scanner stops at them only at a flow
 * level above zero, which this reader never enters. */
static bool plain_char_ok(char c)
{
	switch (c) {
	case '[': case ']': case '{': case '}': case ',':
		return false;
	default:
		return true;
	}
}

static bool plain_can_start(const char *s, const char *end)
{
	switch (s[0]) {
	case '#': case '&': case '*': case '!': case '|': case '>': case '\'': case '"':
	case '%': case '@': case '`': case '?': case ':':
		return false;
	case '-':
		return s + 1 < end && s[1] != ' ';
	default:
		return plain_char_ok(s[0]);
	}
}

/* A mapping key at the start of s: its text and where its value starts
 * (after ": ", or the end of the line). false: not a key this reader reads. */
static bool read_key(struct lines_reader *r, const char *s, const char *end, char **key,
		     const char **value)
{
	const char *colon;
	if (s[0] == '"' || s[0] == '\'') {
		const char *after = NULL;
		if (!read_quoted(r, s, end, &after) || after == end || after[0] != ':' ||
		    !(after + 1 == end || after[1] == ' '))
			return false;
		*key = lx_doc_arena_strndup(r->arena, r->quoted.data, r->quoted.len);
		colon = after;
	} else {
		if (!plain_can_start(s, end))
			return false;
		colon = NULL;
		for (const char *p = s; p < end && !colon; p++) {
			if (*p == '#' && p[-1] == ' ')
				return false;
			if (*p == ':' && (p + 1 == end || p[1] == ' '))
				colon = p;
		}
		if (!colon)
			return false;
		const char *k_end = colon;
		while (k_end > s && k_end[-1] == ' ')
			k_end--;
		*key = lx_doc_arena_strndup(r->arena, s, (size_t)(k_end - s));
	}
	/* libyaml takes a key only if its ':' is within 1024 characters of its start. */
	if (colon - s > 1000)
		return false;
	*value = colon + 1;
	while (*value < end && **value == ' ')
		(*value)++;
	if (*value < end && **value == '#')
		*value = end; /* "key: # comment" */
	return true;
}

/* Does the line hold a mapping entry ("key: ...")? */
static bool is_mapping_entry(struct lines_reader *r, const struct line *l)
{
	/* A key is read into the arena; a few bytes lost when it is not one. */
	char *key;
	const char *value;
	return read_key(r, l->s, l->s + l->len, &key, &value);
}

/* A scalar (or [] / {}) filling s..end of one line. NULL: not one that
 * this reader reads. */
static struct lx_doc *read_scalar(struct lines_reader *r, const char *s, const char *end,
				  int line)
{
	if (s[0] == '"' || s[0] == '\'') {
		const char *after = NULL;
		if (!read_quoted(r, s, end, &after) || !only_comment(after, end))
			return NULL;
		return lx_doc_arena_scalar(r->arena, r->quoted.data, r->quoted.len, false, line);
	}
	if ((s[0] == '[' || s[0] == '{') && end - s >= 2 && s[1] == (s[0] == '[' ? ']' : '}') &&
	    only_comment(s + 2, end))
		return lx_doc_arena_value(r->arena, s[0] == '[' ? LX_DOC_LIST : LX_DOC_MAP, line);
	if (!plain_can_start(s, end))
		return NULL;
	const char *stop = end;
	for (const char *p = s; p < end; p++) {
		if (*p == '#' && p[-1] == ' ') {
			stop = p;
			break;
		}
		if (*p == ':' && (p + 1 == end || p[1] == ' '))
			return NULL;
	}
	while (stop > s && stop[-1] == ' ')
		stop--;
	return lx_doc_arena_scalar(r->arena, s, (size_t)(stop - s), true, line);
}

static struct lx_doc *read_block(struct lines_reader *r, int indent);

/* A value on the line after its key: a deeper block, a sequence at the
 * key's own indentation, or nothing (null, on the key's line). */
static bool read_value_below(struct lines_reader *r, int map_indent, int key_line,
			     struct lx_doc **out)
{
	const struct line *next = current(r);
	if (next && next->indent > map_indent)
		*out = read_block(r, next->indent);
	else if (next && next->indent == map_indent && is_entry(next))
		*out = read_block(r, map_indent);
	else
		*out = lx_doc_arena_value(r->arena, LX_DOC_NULL, key_line);
	return *out != NULL;
}

/* After a value that ended its line: the next line may not be deeper. */
static bool ends_here(struct lines_reader *r, int indent)
{
	const struct line *next = current(r);
	return !next || next->indent <= indent;
}

static struct lx_doc *read_mapping(struct lines_reader *r, int indent)
{
	struct lx_doc *map = lx_doc_arena_value(r->arena, LX_DOC_MAP, current(r)->number);
	size_t first = r->stack.n;
	for (struct line *l; (l = current(r)) && l->indent == indent;) {
		char *key;
		const char *value;
		const char *end = l->s + l->len;
		if (!read_key(r, l->s, end, &key, &value) ||
		    lx_doc_stack_has_key(&r->stack, first, key))
			return NULL;
		int key_line = l->number;
		next_line(r);
		struct lx_doc *v;
		if (value == end) {
			if (!read_value_below(r, indent, key_line, &v))
				return NULL;
		} else if (!(v = read_scalar(r, value, end, key_line)) || !ends_here(r, indent)) {
			return NULL;
		}
		lx_doc_stack_push(&r->stack, key, key_line, v);
	}
	if (!ends_here(r, indent))
		return NULL;
	lx_doc_arena_fill(map, &r->stack, first);
	return map;
}

static struct lx_doc *read_sequence(struct lines_reader *r, int indent)
{
	struct lx_doc *seq = lx_doc_arena_value(r->arena, LX_DOC_LIST, current(r)->number);
	size_t first = r->stack.n;
	for (struct line *l; (l = current(r)) && l->indent == indent && is_entry(l);) {
		if (l->len == 1)
			return NULL; /* "-" alone: its item on the next lines */
		/* The item starts after "- ": read the rest of the line as a
		 * line of its own, indented that far (compact notation). */
		size_t skip = 1;
		while (l->s[skip] == ' ')
			skip++;
		l->s += skip;
		l->len -= skip;
		l->indent += (int)skip;
		struct lx_doc *item;
		if (is_entry(l) || is_mapping_entry(r, l)) {
			item = read_block(r, l->indent);
		} else {
			item = read_scalar(r, l->s, l->s + l->len, l->number);
			next_line(r);
			if (item && !ends_here(r, indent))
				item = NULL;
		}
		if (!item)
			return NULL;
		lx_doc_stack_push(&r->stack, NULL, 0, item);
	}
	if (!ends_here(r, indent))
		return NULL;
	lx_doc_arena_fill(seq, &r->stack, first);
	return seq;
}

/* The collection whose first line is the current one, at indent. */
static struct lx_doc *read_block(struct lines_reader *r, int indent)
{
	const struct line *l = current(r);
	if (!l || l->indent != indent || r->depth >= MAX_DEPTH)
		return NULL;
	r->depth++;
	struct lx_doc *d = is_entry(l) ? read_sequence(r, indent) : read_mapping(r, indent);
	r->depth--;
	return d;
}

int lx_yaml_read_lines(const char *text, size_t len, struct lx_doc **out)
{
	struct lines_reader r = {.text = text, .len = len};
	*out = NULL;
	int rc = 0;
	next_line(&r);
	const struct line *first = current(&r);
	if (first && first->indent == 0 && first->len == 3 && memcmp(first->s, "---", 3) == 0)
		next_line(&r);
	if (!current(&r))
		goto out;
	r.arena = lx_doc_arena_new(len * 8);
	struct lx_doc *root = read_block(&r, current(&r)->indent);
	/* All of the text read, and nothing in it left to libyaml. */
	if (!root || current(&r) || r.refused)
		goto out;
	*out = lx_doc_arena_adopt(&r.arena, root);
	rc = 1;
out:
	lx_doc_arena_free(r.arena);
	lx_doc_stack_free(&r.stack);
	free(r.quoted.data);
	return rc;
}
