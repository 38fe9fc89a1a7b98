/* report: structured documents and their text forms.
 *
 * A small tree (maps keep insertion order) that commands build once and
 * print as JSON or YAML, and that YAML input is parsed into, with the line
 * every value came from so that validation errors can point at it. */
#ifndef LXGPU_REPORT_H
#define LXGPU_REPORT_H

#include "lxgpu/util.h"

#include <stdbool.h>

enum lx_doc_kind {
	LX_DOC_NULL,
	LX_DOC_BOOL,
	LX_DOC_INT,
	LX_DOC_STR,
	LX_DOC_LIST,
	LX_DOC_MAP,
};

struct lx_doc {
	enum lx_doc_kind kind;
	int line; /* 1-based line in the source text; 0 when built in memory */
	bool boolean;
	long long integer;
	char *str;
	/* LX_DOC_LIST: items[0..n); LX_DOC_MAP: keys[i] -> items[i] */
	struct lx_doc **items;
	char **keys;
	int *key_lines;
	size_t n;
	/* A parsed tree lives in one arena (set on every node of it): freeing
	 * its root frees it all, and nothing may be added to it. */
	struct lx_doc_arena *arena;
};

struct lx_doc *lx_doc_new_null(void);
struct lx_doc *lx_doc_new_bool(bool b);
struct lx_doc *lx_doc_new_int(long long i);
/* NULL s gives a null value: absent facts print as null. */
struct lx_doc *lx_doc_new_str(const char *s);
struct lx_doc *lx_doc_new_list(void);
struct lx_doc *lx_doc_new_map(void);
/* Append; the container takes ownership of value. */
void lx_doc_list_push(struct lx_doc *list, struct lx_doc *value);
void lx_doc_map_set(struct lx_doc *map, const char *key, struct lx_doc *value);
/* A list of strings from a strv. */
struct lx_doc *lx_doc_new_str_list(const struct lx_strv *v);
const struct lx_doc *lx_doc_map_get(const struct lx_doc *map, const char *key);
void lx_doc_free(struct lx_doc *doc);
/* Two scalars of the same kind and value (false for lists and maps). */
bool lx_doc_scalar_equal(const struct lx_doc *a, const struct lx_doc *b);
const char *lx_doc_kind_name(enum lx_doc_kind kind);

/* Render as pretty JSON (two-space indent, trailing newline). Strings and
 * keys that are not valid UTF-8 get util.h's \xNN rule; the output is always
 * valid UTF-8 and valid JSON. */
char *lx_doc_to_json(const struct lx_doc *doc);
/* The column a finding's "fix:" starts at in lx_report_findings_text: a
 * long message wraps there on a terminal. */
#define LX_FINDING_FIX_INDENT 17
/* The same; compact: on one line (--compact). */
char *lx_doc_to_json_layout(const struct lx_doc *doc, bool compact);

/* A JSON document written as it is made (audit, preflight: thousands of
 * containers without holding them): the bytes lx_doc_to_json_layout gives
 * for the whole document. Open a map or list (key: its key in the
 * enclosing map, NULL in a list or at the top), add values, close; the
 * last close ends the line. */
#define LX_JSON_MAX_DEPTH 16
struct lx_json_writer {
	FILE *out;
	bool compact;
	int depth;
	bool is_map[LX_JSON_MAX_DEPTH];
	size_t count[LX_JSON_MAX_DEPTH];
};
void lx_json_writer_init(struct lx_json_writer *w, FILE *out, bool compact);
void lx_json_open(struct lx_json_writer *w, const char *key, bool map);
void lx_json_value(struct lx_json_writer *w, const char *key, const struct lx_doc *d);
void lx_json_close(struct lx_json_writer *w);
/* Render as block YAML (libyaml's emitter), with a leading "---"; strings
 * as for JSON, control characters escaped in double-quoted scalars. */
char *lx_doc_to_yaml(const struct lx_doc *doc);
/* Parse one YAML document. Plain scalars resolve as YAML 1.2's core schema
 * does for integers, booleans and null; quoted scalars are strings.
 * Anchors, aliases, duplicate keys, non-string keys and collections nested
 * more than 64 deep are errors ("name:line: ..."). */
int lx_doc_from_yaml(const char *name, const char *text, size_t len, struct lx_doc **out,
		     struct lx_error *err);

/* The string at key path[0] / path[1] / ... / path[depth - 1] of a YAML
 * or JSON document, read as a stream (any size, any numbers); NULL when
 * absent, not a string, or the text is not YAML. */
char *lx_yaml_string_at(const char *text, size_t len, const char *const *path, size_t depth);

/* ---- text tables ---- */

/* A table of text cells (escaped by the caller) with a title row. Columns
 * whose bit is set in wrap may wrap inside their cells, at spaces, when the
 * row is wider than the terminal; right: right-aligned (numbers). */
struct lx_table {
	size_t n_cols;
	unsigned wrap, right;
	struct lx_strv cells; /* the titles, then each row, row-major */
};
void lx_table_init(struct lx_table *t, size_t n_cols, const char *const *titles);
void lx_table_add_row(struct lx_table *t, const char *const *cells);
/* The table, each line starting with indent spaces, fitted to width
 * columns (0: as wide as its cells); two spaces between columns. */
char *lx_table_text(const struct lx_table *t, size_t width, size_t indent);
void lx_table_free(struct lx_table *t);

/* ---- reports ---- */

/* Fixes: prose with their commands in backticks (lxgpu/findings.h). */
/* The commands of a fix, in order (pushed onto out). */
void lx_fix_commands(const char *fix, struct lx_strv *out);
/* A fix as text: "fix: " at column indent, its prose from there (wrapped at
 * width, 0: never, continued at indent + 5), each command alone on a line
 * at column indent + 7. Escaped for a terminal. */
#define LX_FIX_COMMAND_OFFSET 7
void lx_report_fix_text(struct lx_buf *b, const char *fix, size_t indent, size_t width);

struct lx_findings;
struct lx_finding;
/* Findings as text, grouped by severity (errors first), each with its fix;
 * for a terminal width columns wide (0: not a terminal, nothing wrapped). */
char *lx_report_findings_text(const struct lx_findings *findings, bool color, size_t width);
/* One finding as lx_report_findings_text prints it. */
void lx_report_finding_text(struct lx_buf *b, const struct lx_finding *f, bool color, size_t width);
/* Findings as a list of {code, severity, container, file, line, node,
 * message, fix, commands[, evidence]}. */
struct lx_doc *lx_report_findings_doc(const struct lx_findings *findings);
/* A Prometheus label value, escaped (\\, \", \n), invalid UTF-8 as \xNN. */
char *lx_prometheus_label(const char *value);

#endif
