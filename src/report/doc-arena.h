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
/* A collection's entries, copied into the arena at once. */
void lx_doc_arena_fill(struct lx_doc *coll, const struct lx_doc_entry *entries, size_t n);
/* From now on lx_doc_free(root) frees the arena. */
void lx_doc_arena_set_root(struct lx_doc_arena *arena, struct lx_doc *root);

#endif
