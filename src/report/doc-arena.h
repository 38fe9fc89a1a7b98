/* Documents built in one arena: what lx_doc_from_yaml makes. A snapshot is
 * thousands of small values; an allocation and a free for each cost more
 * than parsing it. Private to src/report. */
#ifndef LXGPU_DOC_ARENA_H
#define LXGPU_DOC_ARENA_H

#include "lxgpu/report.h"

struct lx_doc_arena;

/* hint: about how many bytes the tree will need (the first block). */
struct lx_doc_arena *lx_doc_arena_new(size_t hint);
void lx_doc_arena_free(struct lx_doc_arena *arena);
/* A value of the tree (zeroed but for kind and line). */
struct lx_doc *lx_doc_arena_value(struct lx_doc_arena *arena, enum lx_doc_kind kind, int line);
char *lx_doc_arena_strndup(struct lx_doc_arena *arena, const char *s, size_t len);
/* One entry of a collection being read (key NULL in a list). */
struct lx_doc_entry {
	char *key; /* a string of the arena */
	int key_line;
	struct lx_doc *value;
};
/* The entries of the collections being read, innermost last: one stack for
 * the whole file, so that reading allocates little but the arena. */
struct lx_doc_stack {
	struct lx_doc_entry *items;
	size_t n, size;
};
void lx_doc_stack_push(struct lx_doc_stack *s, char *key, int key_line, struct lx_doc *value);
/* Is key among the entries from index first on? */
bool lx_doc_stack_has_key(const struct lx_doc_stack *s, size_t first, const char *key);
/* Move the entries from index first on into coll (the arena's copy). */
void lx_doc_arena_fill(struct lx_doc *coll, struct lx_doc_stack *s, size_t first);
void lx_doc_stack_free(struct lx_doc_stack *s);

/* A scalar as lx_doc_from_yaml resolves it: a plain one by YAML 1.2's core
 * schema for null, booleans and integers, anything else as a string. NULL:
 * an integer out of range. */
struct lx_doc *lx_doc_arena_scalar(struct lx_doc_arena *arena, const char *s, size_t len,
				   bool plain, int line);

/* Reading YAML without libyaml: the block subset that lxgpu's own writer
 * produces (yaml-lines.c). 1: *out is the tree, exactly as the libyaml
 * reader makes it; 0: not in the subset, or an error: read it with libyaml
 * (which says what is wrong). */
int lx_yaml_read_lines(const char *text, size_t len, struct lx_doc **out);
/* Same kinds, values, keys and lines throughout (for tests). */
bool lx_doc_identical(const struct lx_doc *a, const struct lx_doc *b);
/* The libyaml reader alone (for tests comparing the two). */
int lx_yaml_read_libyaml(const char *name, const char *text, size_t len, struct lx_doc **out,
			 struct lx_error *err);
/* From now on lx_doc_free(root) frees the arena; *arena is set to NULL
 * (the reader's cleanup no longer owns it). Returns root. */
struct lx_doc *lx_doc_arena_adopt(struct lx_doc_arena **arena, struct lx_doc *root);

#endif
