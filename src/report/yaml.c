/* YAML text form of struct lx_doc, through libyaml's event API. */
#include "doc-arena.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

/* libyaml, loaded on first use (util/dl.c): lxgpu's own files are read
 * without it (yaml-lines.c), so generate, verify and the start hook do not
 * map it; writing YAML and reading other YAML do. */
#define YAML_SYMBOLS(X) \
	X(yaml_document_end_event_initialize) \
	X(yaml_document_start_event_initialize) \
	X(yaml_emitter_delete) \
	X(yaml_emitter_emit) \
	X(yaml_emitter_initialize) \
	X(yaml_emitter_set_indent) \
	X(yaml_emitter_set_output) \
	X(yaml_emitter_set_unicode) \
	X(yaml_emitter_set_width) \
	X(yaml_event_delete) \
	X(yaml_mapping_end_event_initialize) \
	X(yaml_mapping_start_event_initialize) \
	X(yaml_parser_delete) \
	X(yaml_parser_initialize) \
	X(yaml_parser_parse) \
	X(yaml_parser_set_input_string) \
	X(yaml_scalar_event_initialize) \
	X(yaml_sequence_end_event_initialize) \
	X(yaml_sequence_start_event_initialize) \
	X(yaml_stream_end_event_initialize) \
	X(yaml_stream_start_event_initialize)

static struct yaml_lib {
	YAML_SYMBOLS(LX_DL_FIELD)
} yaml_lib;

#define ENTRY(name) LX_DL_ENTRY(yaml_lib, name)
static const struct lx_dl_symbol yaml_symbols[] = {YAML_SYMBOLS(ENTRY)};
#undef ENTRY
static struct lx_dl_library yaml_library = {
	"libyaml-0.so.2", "reading and writing YAML", "libyaml-0-2", yaml_symbols,
	sizeof(yaml_symbols) / sizeof(yaml_symbols[0]), false};

static const struct yaml_lib *libyaml(struct lx_error *err)
{
	return lx_dl_load(&yaml_library, err) < 0 ? NULL : &yaml_lib;
}


/* ---- writing ---- */

static int write_to_buf(void *data, unsigned char *buffer, size_t size)
{
	lx_buf_append(data, (const char *)buffer, size);
	return 1;
}

/* Would a plain scalar with this text be read back as something other than
 * a string, by us or by a YAML 1.1 reader (PyYAML: yes/no, 0x.., 1:2)? */
static bool plain_would_change_type(const char *s)
{
	static const char *const words[] = {"null", "~", "true", "false", "yes", "no",
					    "on", "off", "y", "n"};
	if (!*s)
		return true;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i]) == 0)
			return true;
	return isdigit((unsigned char)s[0]) || strchr("-+.", s[0]) != NULL;
}

static bool emit_scalar(yaml_emitter_t *em, const char *text, yaml_scalar_style_t style)
{
	yaml_event_t ev;
	if (!yaml_lib.yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)text, (int)strlen(text),
					  1, 1, style))
		return false;
	return yaml_lib.yaml_emitter_emit(em, &ev);
}

/* A string from outside (a config line, a snapshot): libyaml refuses
 * invalid UTF-8, so it gets util.h's \xNN rule first; control characters
 * are then escaped by libyaml in a double-quoted scalar. */
static bool emit_string(yaml_emitter_t *em, const char *raw)
{
	_cleanup_free_ char *text = lx_utf8_sanitize(raw);
	return emit_scalar(em, text,
			   plain_would_change_type(text) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
							 : YAML_ANY_SCALAR_STYLE);
}

static bool emit_value(yaml_emitter_t *em, const struct lx_doc *d)
{
	yaml_event_t ev;
	char number[32];
	switch (d->kind) {
	case LX_DOC_NULL: return emit_scalar(em, "null", YAML_PLAIN_SCALAR_STYLE);
	case LX_DOC_BOOL: return emit_scalar(em, d->boolean ? "true" : "false", YAML_PLAIN_SCALAR_STYLE);
	case LX_DOC_INT:
		snprintf(number, sizeof(number), "%lld", d->integer);
		return emit_scalar(em, number, YAML_PLAIN_SCALAR_STYLE);
	case LX_DOC_STR: return emit_string(em, d->str);
	case LX_DOC_LIST:
		yaml_lib.yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						     d->n ? YAML_BLOCK_SEQUENCE_STYLE
							  : YAML_FLOW_SEQUENCE_STYLE);
		if (!yaml_lib.yaml_emitter_emit(em, &ev))
			return false;
		for (size_t i = 0; i < d->n; i++)
			if (!emit_value(em, d->items[i]))
				return false;
		yaml_lib.yaml_sequence_end_event_initialize(&ev);
		return yaml_lib.yaml_emitter_emit(em, &ev);
	case LX_DOC_MAP:
		yaml_lib.yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
						    d->n ? YAML_BLOCK_MAPPING_STYLE
							 : YAML_FLOW_MAPPING_STYLE);
		if (!yaml_lib.yaml_emitter_emit(em, &ev))
			return false;
		for (size_t i = 0; i < d->n; i++) {
			if (!emit_string(em, d->keys[i]) || !emit_value(em, d->items[i]))
				return false;
		}
		yaml_lib.yaml_mapping_end_event_initialize(&ev);
		return yaml_lib.yaml_emitter_emit(em, &ev);
	}
	return false;
}

char *lx_doc_to_yaml(const struct lx_doc *doc)
{
	struct lx_error err = {0};
	if (!libyaml(&err)) {
		/* As when a linked library is missing: nothing can be done. */
		fprintf(stderr, "lxgpu: %s\n", err.message);
		exit(2);
	}
	struct lx_buf b = {0};
	yaml_emitter_t em;
	yaml_event_t ev;
	yaml_lib.yaml_emitter_initialize(&em);
	yaml_lib.yaml_emitter_set_output(&em, write_to_buf, &b);
	yaml_lib.yaml_emitter_set_unicode(&em, 1);
	yaml_lib.yaml_emitter_set_width(&em, -1);
	yaml_lib.yaml_emitter_set_indent(&em, 2);
	bool ok = true;
	yaml_lib.yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = ok && yaml_lib.yaml_emitter_emit(&em, &ev);
	yaml_lib.yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	ok = ok && yaml_lib.yaml_emitter_emit(&em, &ev);
	ok = ok && emit_value(&em, doc);
	yaml_lib.yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_lib.yaml_emitter_emit(&em, &ev);
	yaml_lib.yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_lib.yaml_emitter_emit(&em, &ev);
	if (!ok) {
		/* Strings are valid UTF-8 by now (emit_string): a bug if it gets here. */
		fprintf(stderr, "lxgpu: internal error: YAML emitter: %s\n",
			em.problem ? em.problem : "unknown");
		abort();
	}
	yaml_lib.yaml_emitter_delete(&em);
	return lx_buf_steal(&b);
}

/* ---- reading ---- */

/* Collections nest at most this deep (a snapshot needs 4): reading,
 * freeing and walking a document recurse, and a file must not be able to
 * exhaust the stack. */
#define MAX_DEPTH 64

struct yaml_reader {
	const char *name;
	yaml_parser_t parser;
	struct lx_error *err;
	int depth; /* of the collection being read */
	struct lx_doc_arena *arena;
	struct lx_doc_stack stack;
};

static int reader_syntax_error(struct yaml_reader *r)
{
	yaml_parser_t *p = &r->parser;
	return lx_error_set(r->err, "%s:%zu:%zu: invalid YAML: %s%s%s", r->name,
			    p->problem_mark.line + 1, p->problem_mark.column + 1,
			    p->problem ? p->problem : "syntax error",
			    p->context ? " " : "", p->context ? p->context : "");
}

static int next_event(struct yaml_reader *r, yaml_event_t *ev)
{
	if (!yaml_lib.yaml_parser_parse(&r->parser, ev))
		return reader_syntax_error(r);
	return 0;
}

static int read_node(struct yaml_reader *r, yaml_event_t *ev, struct lx_doc **out);

/* The entries up to end_type, onto the stack from its current top. */
static int read_entries(struct yaml_reader *r, bool is_map, yaml_event_type_t end_type)
{
	size_t first = r->stack.n;
	for (;;) {
		yaml_event_t ev;
		if (next_event(r, &ev) < 0)
			return -1;
		if (ev.type == end_type) {
			yaml_lib.yaml_event_delete(&ev);
			return 0;
		}
		if (!is_map) {
			struct lx_doc *item;
			int rc = read_node(r, &ev, &item);
			yaml_lib.yaml_event_delete(&ev);
			if (rc < 0)
				return -1;
			lx_doc_stack_push(&r->stack, NULL, 0, item);
			continue;
		}
		/* A mapping: a key scalar, then a value node. */
		int key_line = (int)ev.start_mark.line + 1;
		if (ev.type != YAML_SCALAR_EVENT) {
			yaml_lib.yaml_event_delete(&ev);
			return lx_error_set(r->err, "%s:%d: mapping keys must be plain strings",
					    r->name, key_line);
		}
		size_t key_len = ev.data.scalar.length;
		char *key = lx_doc_arena_strndup(r->arena, (const char *)ev.data.scalar.value, key_len);
		yaml_lib.yaml_event_delete(&ev);
		if (strlen(key) != key_len)
			return lx_error_set(r->err, "%s:%d: NUL byte in a key", r->name, key_line);
		if (lx_doc_stack_has_key(&r->stack, first, key))
			return lx_error_set(r->err, "%s:%d: duplicate key '%s'", r->name, key_line,
					    key);
		yaml_event_t vev;
		if (next_event(r, &vev) < 0)
			return -1;
		struct lx_doc *value;
		int rc = read_node(r, &vev, &value);
		yaml_lib.yaml_event_delete(&vev);
		if (rc < 0)
			return -1;
		lx_doc_stack_push(&r->stack, key, key_line, value);
	}
}

static int read_node(struct yaml_reader *r, yaml_event_t *ev, struct lx_doc **out)
{
	int line = (int)ev->start_mark.line + 1;
	*out = NULL;
	const yaml_char_t *anchor = NULL, *tag = NULL;
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return lx_error_set(r->err, "%s:%d: YAML aliases are not supported here", r->name,
				    line);
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		tag = ev->data.scalar.tag;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
		break;
	default:
		return lx_error_set(r->err, "%s:%d: unexpected YAML structure", r->name, line);
	}
	if (anchor)
		return lx_error_set(r->err, "%s:%d: YAML anchors are not supported here", r->name,
				    line);
	bool tagged_str = tag && strcmp((const char *)tag, YAML_STR_TAG) == 0;
	if (tag && !tagged_str && strcmp((const char *)tag, YAML_SEQ_TAG) != 0 &&
	    strcmp((const char *)tag, YAML_MAP_TAG) != 0)
		return lx_error_set(r->err, "%s:%d: unsupported YAML tag %s", r->name, line,
				    (const char *)tag);

	if (ev->type == YAML_SCALAR_EVENT) {
		const char *text = (const char *)ev->data.scalar.value;
		size_t len = ev->data.scalar.length;
		if (strlen(text) != len)
			return lx_error_set(r->err, "%s:%d: NUL byte in a value", r->name, line);
		bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !tagged_str;
		*out = lx_doc_arena_scalar(r->arena, text, len, plain, line);
		if (!*out)
			return lx_error_set(r->err, "%s:%d: integer out of range: %s", r->name, line,
					    text);
		return 0;
	}
	bool is_map = ev->type == YAML_MAPPING_START_EVENT;
	if (r->depth >= MAX_DEPTH)
		return lx_error_set(r->err, "%s:%d: nested deeper than %d levels", r->name, line,
				    MAX_DEPTH);
	struct lx_doc *coll = lx_doc_arena_value(r->arena, is_map ? LX_DOC_MAP : LX_DOC_LIST, line);
	size_t first = r->stack.n;
	r->depth++;
	int rc = read_entries(r, is_map, is_map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT);
	r->depth--;
	if (rc < 0)
		return -1; /* the arena goes as a whole */
	lx_doc_arena_fill(coll, &r->stack, first);
	*out = coll;
	return 0;
}

static int expect_event(struct yaml_reader *r, yaml_event_type_t type, const char *what)
{
	yaml_event_t ev;
	if (next_event(r, &ev) < 0)
		return -1;
	bool ok = ev.type == type;
	int line = (int)ev.start_mark.line + 1;
	yaml_lib.yaml_event_delete(&ev);
	if (!ok)
		return lx_error_set(r->err, "%s:%d: %s", r->name, line, what);
	return 0;
}

int lx_yaml_read_libyaml(const char *name, const char *text, size_t len, struct lx_doc **out,
			 struct lx_error *err)
{
	/* A parsed tree takes about ten times its text (values, keys, arrays). */
	*out = NULL;
	if (!libyaml(err))
		return -1;
	struct yaml_reader r = {.name = name, .err = err, .arena = lx_doc_arena_new(len * 8)};
	yaml_lib.yaml_parser_initialize(&r.parser);
	yaml_lib.yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
	int rc = -1;
	yaml_event_t ev;
	struct lx_doc *doc = NULL;
	if (expect_event(&r, YAML_STREAM_START_EVENT, "not a YAML stream") < 0)
		goto out;
	if (next_event(&r, &ev) < 0)
		goto out;
	if (ev.type != YAML_DOCUMENT_START_EVENT) {
		yaml_lib.yaml_event_delete(&ev);
		lx_error_set(err, "%s: empty file: expected a YAML document", name);
		goto out;
	}
	yaml_lib.yaml_event_delete(&ev);
	if (next_event(&r, &ev) < 0)
		goto out;
	rc = read_node(&r, &ev, &doc);
	yaml_lib.yaml_event_delete(&ev);
	if (rc < 0)
		goto out;
	rc = -1;
	if (expect_event(&r, YAML_DOCUMENT_END_EVENT, "expected the end of the document") < 0 ||
	    expect_event(&r, YAML_STREAM_END_EVENT, "more than one YAML document in the file") < 0)
		goto out;
	*out = lx_doc_arena_adopt(&r.arena, doc);
	rc = 0;
out:
	lx_doc_arena_free(r.arena);
	lx_doc_stack_free(&r.stack);
	yaml_lib.yaml_parser_delete(&r.parser);
	return rc;
}

int lx_doc_from_yaml(const char *name, const char *text, size_t len, struct lx_doc **out,
		     struct lx_error *err)
{
	/* A snapshot of many GPUs is some 10 KiB that libyaml takes longer to
	 * read than generate takes for all the rest; lxgpu's own files are
	 * read without it when they keep to the subset that lxgpu writes. */
	if (lx_yaml_read_lines(text, len, out) == 1)
		return 0;
	return lx_yaml_read_libyaml(name, text, len, out, err);
}

/* ---- one string out of a large document ---- */

/* Walks the events without building a tree: an OCI config.json is large
 * and holds numbers (uint64 limits) the tree refuses. */
char *lx_yaml_string_at(const char *text, size_t len, const char *const *path, size_t depth_want)
{
	yaml_parser_t p;
	if (!libyaml(NULL) || !yaml_lib.yaml_parser_initialize(&p))
		return NULL;
	yaml_lib.yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	char *found = NULL;
	size_t depth = 0, matched = 0; /* mapping depth; keys of path matched so far */
	bool want_key = false, take_value = false, skip_value = false;
	int skip_level = 0;
	for (bool done = false; !done && !found;) {
		yaml_event_t e;
		if (!yaml_lib.yaml_parser_parse(&p, &e))
			break;
		if (skip_value) {
			/* Skip a whole value we do not want. */
			if (e.type == YAML_MAPPING_START_EVENT || e.type == YAML_SEQUENCE_START_EVENT)
				skip_level++;
			else if (e.type == YAML_MAPPING_END_EVENT || e.type == YAML_SEQUENCE_END_EVENT)
				skip_level--;
			if (skip_level == 0) {
				skip_value = false;
				want_key = true;
			}
			yaml_lib.yaml_event_delete(&e);
			continue;
		}
		switch (e.type) {
		case YAML_MAPPING_START_EVENT:
			depth++;
			if (take_value)
				matched++; /* into the value of a key on the path */
			want_key = true;
			take_value = false;
			break;
		case YAML_MAPPING_END_EVENT:
			if (matched > 0 && depth == matched + 1)
				done = true; /* left the mapping the path went into */
			depth--;
			want_key = true;
			break;
		case YAML_SCALAR_EVENT: {
			const char *v = (const char *)e.data.scalar.value;
			if (want_key) {
				if (depth == matched + 1 && strcmp(v, path[matched]) == 0) {
					take_value = true;
				} else {
					skip_value = true;
					skip_level = 0;
				}
				want_key = false;
				/* A scalar value to skip is one event: handled below. */
				break;
			}
			if (take_value && matched + 1 == depth_want)
				found = lx_xstrdup(v);
			want_key = true;
			take_value = false;
			break;
		}
		case YAML_SEQUENCE_START_EVENT:
			skip_value = true;
			skip_level = 1;
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_lib.yaml_event_delete(&e);
	}
	yaml_lib.yaml_parser_delete(&p);
	return found;
}
