#include "doc-arena.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

static struct lx_doc *doc_new(enum lx_doc_kind kind)
{
	struct lx_doc *d = lx_xcalloc(1, sizeof(*d));
	d->kind = kind;
	return d;
}

struct lx_doc *lx_doc_new_null(void)
{
	return doc_new(LX_DOC_NULL);
}

struct lx_doc *lx_doc_new_bool(bool b)
{
	struct lx_doc *d = doc_new(LX_DOC_BOOL);
	d->boolean = b;
	return d;
}

struct lx_doc *lx_doc_new_int(long long i)
{
	struct lx_doc *d = doc_new(LX_DOC_INT);
	d->integer = i;
	return d;
}

struct lx_doc *lx_doc_new_str(const char *s)
{
	if (!s)
		return lx_doc_new_null();
	struct lx_doc *d = doc_new(LX_DOC_STR);
	d->str = lx_xstrdup(s);
	return d;
}

struct lx_doc *lx_doc_new_list(void)
{
	return doc_new(LX_DOC_LIST);
}

struct lx_doc *lx_doc_new_map(void)
{
	return doc_new(LX_DOC_MAP);
}

/* Arrays of n entries hold the next power of two: they grow only when n is
 * 0 or a power of two (a snapshot load builds thousands of small maps). */
static bool full(size_t n)
{
	return (n & (n - 1)) == 0;
}

static size_t grown(size_t n)
{
	return n ? 2 * n : 1;
}

/* A parsed tree is read-only: growing it would mix heap and arena memory. */
static void check_mutable(const struct lx_doc *d)
{
	if (d->arena) {
		fprintf(stderr, "lxgpu: internal error: a parsed document was modified\n");
		abort();
	}
}

void lx_doc_list_push(struct lx_doc *list, struct lx_doc *value)
{
	check_mutable(list);
	if (full(list->n))
		list->items = lx_xrealloc(list->items, grown(list->n) * sizeof(*list->items));
	list->items[list->n++] = value;
}

void lx_doc_map_set(struct lx_doc *map, const char *key, struct lx_doc *value)
{
	check_mutable(map);
	if (full(map->n)) {
		map->keys = lx_xrealloc(map->keys, grown(map->n) * sizeof(*map->keys));
		map->key_lines = lx_xrealloc(map->key_lines, grown(map->n) * sizeof(*map->key_lines));
	}
	map->keys[map->n] = lx_xstrdup(key);
	map->key_lines[map->n] = value->line;
	lx_doc_list_push(map, value);
}

struct lx_doc *lx_doc_new_str_list(const struct lx_strv *v)
{
	struct lx_doc *list = lx_doc_new_list();
	for (size_t i = 0; i < v->n; i++)
		lx_doc_list_push(list, lx_doc_new_str(v->items[i]));
	return list;
}

const struct lx_doc *lx_doc_map_get(const struct lx_doc *map, const char *key)
{
	if (!map || map->kind != LX_DOC_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (strcmp(map->keys[i], key) == 0)
			return map->items[i];
	return NULL;
}

/* ---- arena-built trees ---- */

struct arena_block {
	struct arena_block *next;
	size_t size, used;
	alignas(max_align_t) unsigned char data[];
};

struct lx_doc_arena {
	struct arena_block *blocks; /* newest first */
	struct lx_doc *root;
};

static struct arena_block *block_new(size_t size)
{
	struct arena_block *b = lx_xmalloc(sizeof(*b) + size);
	b->next = NULL;
	b->size = size;
	b->used = 0;
	return b;
}

struct lx_doc_arena *lx_doc_arena_new(size_t hint)
{
	struct lx_doc_arena *a = lx_xcalloc(1, sizeof(*a));
	a->blocks = block_new(hint < 4096 ? 4096 : hint);
	return a;
}

void lx_doc_arena_free(struct lx_doc_arena *arena)
{
	if (!arena)
		return;
	for (struct arena_block *b = arena->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(arena);
}

static void *arena_alloc(struct lx_doc_arena *a, size_t size)
{
	size = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	struct arena_block *b = a->blocks;
	if (b->size - b->used < size) {
		/* Blocks double, so a tree of n bytes takes O(log n) of them. */
		size_t want = 2 * b->size;
		b = block_new(want < size ? size : want);
		b->next = a->blocks;
		a->blocks = b;
	}
	void *p = b->data + b->used;
	b->used += size;
	return p;
}

struct lx_doc *lx_doc_arena_value(struct lx_doc_arena *arena, enum lx_doc_kind kind, int line)
{
	struct lx_doc *d = arena_alloc(arena, sizeof(*d));
	*d = (struct lx_doc){.kind = kind, .line = line, .arena = arena};
	return d;
}

char *lx_doc_arena_strndup(struct lx_doc_arena *arena, const char *s, size_t len)
{
	char *p = arena_alloc(arena, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void lx_doc_arena_fill(struct lx_doc *coll, const struct lx_doc_entry *entries, size_t n)
{
	struct lx_doc_arena *a = coll->arena;
	coll->n = n;
	if (!n)
		return;
	coll->items = arena_alloc(a, n * sizeof(*coll->items));
	for (size_t i = 0; i < n; i++)
		coll->items[i] = entries[i].value;
	if (coll->kind != LX_DOC_MAP)
		return;
	coll->keys = arena_alloc(a, n * sizeof(*coll->keys));
	coll->key_lines = arena_alloc(a, n * sizeof(*coll->key_lines));
	for (size_t i = 0; i < n; i++) {
		coll->keys[i] = entries[i].key;
		coll->key_lines[i] = entries[i].key_line;
	}
}

void lx_doc_arena_set_root(struct lx_doc_arena *arena, struct lx_doc *root)
{
	arena->root = root;
}

void lx_doc_free(struct lx_doc *doc)
{
	if (!doc)
		return;
	if (doc->arena) {
		/* The tree goes with its root; its other values are not freed one by one. */
		if (doc->arena->root == doc)
			lx_doc_arena_free(doc->arena);
		return;
	}
	for (size_t i = 0; i < doc->n; i++) {
		lx_doc_free(doc->items[i]);
		if (doc->keys)
			free(doc->keys[i]);
	}
	free(doc->items);
	free(doc->keys);
	free(doc->key_lines);
	free(doc->str);
	free(doc);
}

const char *lx_doc_kind_name(enum lx_doc_kind kind)
{
	switch (kind) {
	case LX_DOC_NULL: return "null";
	case LX_DOC_BOOL: return "a boolean";
	case LX_DOC_INT: return "an integer";
	case LX_DOC_STR: return "a string";
	case LX_DOC_LIST: return "a list";
	case LX_DOC_MAP: return "a mapping";
	}
	return "unknown";
}
