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

/* Arrays of n entries hold 8, or the next power of two: they grow only
 * when n is 0 or a power of two of 8 or more (a report builds hundreds of
 * small maps, most with 8 to 32 entries). */
static bool full(size_t n)
{
	return n == 0 || (n >= 8 && (n & (n - 1)) == 0);
}

static size_t grown(size_t n)
{
	return n ? 2 * n : 8;
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
	/* The first block at most 1 MiB: a large text is not all values. */
	a->blocks = block_new(hint < 4096 ? 4096 : hint > (1u << 20) ? 1u << 20 : hint);
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

void lx_doc_stack_push(struct lx_doc_stack *s, char *key, int key_line, struct lx_doc *value)
{
	if (s->n == s->size) {
		s->size = s->size ? 2 * s->size : 64;
		s->items = lx_xrealloc(s->items, s->size * sizeof(*s->items));
	}
	s->items[s->n++] = (struct lx_doc_entry){key, key_line, value};
}

bool lx_doc_stack_has_key(const struct lx_doc_stack *s, size_t first, const char *key)
{
	for (size_t i = first; i < s->n; i++)
		if (strcmp(s->items[i].key, key) == 0)
			return true;
	return false;
}

void lx_doc_stack_free(struct lx_doc_stack *s)
{
	free(s->items);
	*s = (struct lx_doc_stack){0};
}

void lx_doc_arena_fill(struct lx_doc *coll, struct lx_doc_stack *s, size_t first)
{
	struct lx_doc_arena *a = coll->arena;
	size_t n = s->n - first;
	s->n = first;
	coll->n = n;
	if (!n)
		return; /* items may be NULL: no pointer arithmetic on it */
	const struct lx_doc_entry *entries = s->items + first;
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

static bool all_digits(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool is_word(const char *s, size_t len, const char *const *words)
{
	for (; *words; words++)
		if (strncmp(s, *words, len) == 0 && (*words)[len] == '\0')
			return true;
	return false;
}

struct lx_doc *lx_doc_arena_scalar(struct lx_doc_arena *arena, const char *s, size_t len,
				   bool plain, int line)
{
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
	static const char *const trues[] = {"true", "True", "TRUE", NULL};
	static const char *const falses[] = {"false", "False", "FALSE", NULL};
	struct lx_doc *d;
	bool word = plain && len <= 5; /* the longest word: "false" */
	if (word && is_word(s, len, nulls))
		return lx_doc_arena_value(arena, LX_DOC_NULL, line);
	if (word && (is_word(s, len, trues) || is_word(s, len, falses))) {
		d = lx_doc_arena_value(arena, LX_DOC_BOOL, line);
		d->boolean = is_word(s, len, trues);
		return d;
	}
	char *text = lx_doc_arena_strndup(arena, s, len);
	if (plain && all_digits(text)) {
		long long v;
		if (!lx_parse_int(text[0] == '+' ? text + 1 : text, -9223372036854775807LL,
				  9223372036854775807LL, &v))
			return NULL;
		d = lx_doc_arena_value(arena, LX_DOC_INT, line);
		d->integer = v;
		return d;
	}
	d = lx_doc_arena_value(arena, LX_DOC_STR, line);
	d->str = text;
	return d;
}

struct lx_doc *lx_doc_arena_adopt(struct lx_doc_arena **arena, struct lx_doc *root)
{
	(*arena)->root = root;
	*arena = NULL;
	return root;
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

bool lx_doc_scalar_equal(const struct lx_doc *a, const struct lx_doc *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case LX_DOC_NULL: return true;
	case LX_DOC_BOOL: return a->boolean == b->boolean;
	case LX_DOC_INT: return a->integer == b->integer;
	case LX_DOC_STR: return strcmp(a->str, b->str) == 0;
	case LX_DOC_LIST:
	case LX_DOC_MAP: break;
	}
	return false;
}

bool lx_doc_identical(const struct lx_doc *a, const struct lx_doc *b)
{
	if (a->kind != b->kind || a->line != b->line || a->n != b->n)
		return false;
	if (a->kind != LX_DOC_LIST && a->kind != LX_DOC_MAP)
		return lx_doc_scalar_equal(a, b);
	for (size_t i = 0; i < a->n; i++) {
		if (a->kind == LX_DOC_MAP &&
		    (strcmp(a->keys[i], b->keys[i]) != 0 || a->key_lines[i] != b->key_lines[i]))
			return false;
		if (!lx_doc_identical(a->items[i], b->items[i]))
			return false;
	}
	return true;
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
