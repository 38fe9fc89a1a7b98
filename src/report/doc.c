#include "lxgpu/report.h"

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

void lx_doc_list_push(struct lx_doc *list, struct lx_doc *value)
{
	if (full(list->n))
		list->items = lx_xrealloc(list->items, grown(list->n) * sizeof(*list->items));
	list->items[list->n++] = value;
}

void lx_doc_map_set(struct lx_doc *map, const char *key, struct lx_doc *value)
{
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

void lx_doc_free(struct lx_doc *doc)
{
	if (!doc)
		return;
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
