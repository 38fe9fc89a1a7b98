#include "lxgpu/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

static void out_of_memory(void)
{
	fputs("lxgpu: out of memory\n", stderr);
	abort();
}

void *lx_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *lx_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *lx_xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		out_of_memory();
	return q;
}

void *lx_xgrow(void *p, size_t n, size_t size)
{
	if (n == 0)
		return lx_xrealloc(p, 8 * size);
	if (n < 8 || (n & (n - 1)) != 0)
		return p;
	if (n > SIZE_MAX / 2 / size)
		out_of_memory();
	return lx_xrealloc(p, 2 * n * size);
}

void *lx_xgrow_copy(const void *src, size_t n, size_t size)
{
	if (n == 0)
		return NULL;
	size_t room = 8; /* what lx_xgrow has allocated by the time it holds n */
	while (room < n) {
		if (room > SIZE_MAX / 2 / size)
			out_of_memory();
		room *= 2;
	}
	void *p = lx_xmalloc(room * size);
	memcpy(p, src, n * size);
	return p;
}

char *lx_str_concat(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *s = lx_xmalloc(na + nb + 1);
	memcpy(s, a, na);
	memcpy(s + na, b, nb + 1);
	return s;
}

char *lx_xstrdup(const char *s)
{
	return lx_xstrndup(s, strlen(s));
}

char *lx_xstrndup(const char *s, size_t n)
{
	char *p = lx_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *lx_xvasprintf(const char *fmt, va_list ap)
{
	struct lx_buf b = {0};
	lx_buf_vprintf(&b, fmt, ap);
	return lx_buf_steal(&b);
}

char *lx_xasprintf(const char *fmt, ...)
{
	struct lx_buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	lx_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return lx_buf_steal(&b);
}

static void buf_reserve(struct lx_buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->data = lx_xrealloc(b->data, cap);
	b->cap = cap;
}

void lx_buf_append(struct lx_buf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void lx_buf_puts(struct lx_buf *b, const char *s)
{
	lx_buf_append(b, s, strlen(s));
}

void lx_buf_vprintf(struct lx_buf *b, const char *fmt, va_list ap)
{
	/* Formatted once where it fits (a message, a fix: nearly every text
	 * lxgpu formats), again only when it did not: formatting costs more
	 * than the copy. */
	char text[512];
	size_t room = b->cap - b->len;
	bool in_place = room > sizeof(text);
	va_list copy;
	va_copy(copy, ap);
	int n = in_place ? vsnprintf(b->data + b->len, room, fmt, copy)
			 : vsnprintf(text, sizeof(text), fmt, copy);
	va_end(copy);
	if (n < 0) {
		fputs("lxgpu: bad format string\n", stderr);
		abort();
	}
	if (!in_place && (size_t)n < sizeof(text)) {
		lx_buf_append(b, text, (size_t)n);
		return;
	}
	if ((size_t)n >= room) {
		buf_reserve(b, (size_t)n);
		if (vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap) != n)
			abort();
	}
	b->len += (size_t)n;
}

void lx_buf_printf(struct lx_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lx_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *lx_buf_steal(struct lx_buf *b)
{
	char *p = b->data ? b->data : lx_xstrdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void lx_buf_free(struct lx_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void lx_strv_push_owned(struct lx_strv *v, char *s)
{
	v->items = lx_xrealloc(v->items, (v->n + 1) * sizeof(*v->items));
	v->items[v->n++] = s;
}

void lx_strv_push(struct lx_strv *v, const char *s)
{
	lx_strv_push_owned(v, lx_xstrdup(s));
}

bool lx_strv_contains(const struct lx_strv *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->items[i], s) == 0)
			return true;
	return false;
}

bool lx_strv_equal(const struct lx_strv *a, const struct lx_strv *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i], b->items[i]) != 0)
			return false;
	return true;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void lx_strv_sort(struct lx_strv *v)
{
	if (v->n > 1)
		qsort(v->items, v->n, sizeof(*v->items), compare_strings);
}

void lx_strv_free(struct lx_strv *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->items[i]);
	free(v->items);
	v->items = NULL;
	v->n = 0;
}

char *lx_strv_join(const struct lx_strv *v, const char *sep)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < v->n; i++)
		lx_buf_printf(&b, "%s%s", i ? sep : "", v->items[i]);
	return lx_buf_steal(&b);
}

bool lx_str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool lx_str_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lf = strlen(suffix);
	return ls >= lf && memcmp(s + ls - lf, suffix, lf) == 0;
}

char *lx_str_strip(char *s)
{
	char *start = s;
	while (*start && isspace((unsigned char)*start))
		start++;
	size_t n = strlen(start);
	while (n > 0 && isspace((unsigned char)start[n - 1]))
		n--;
	memmove(s, start, n);
	s[n] = '\0';
	return s;
}

bool lx_parse_uint(const char *s, int base, unsigned long long max, unsigned long long *out)
{
	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, base);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

bool lx_parse_int(const char *s, long long min, long long max, long long *out)
{
	if (!s || !*s || isspace((unsigned char)*s) || *s == '+')
		return false;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

int lx_name_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

char *lx_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);
	while (la > 1 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	if (la == 1 && a[0] == '/')
		return lx_xasprintf("/%s", b);
	return lx_xasprintf("%.*s/%s", (int)la, a, b);
}

void lx_buf_shell_word(struct lx_buf *b, const char *w)
{
	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+,=:@") ==
			  strlen(w)) {
		lx_buf_puts(b, w);
		return;
	}
	lx_buf_puts(b, "'");
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			lx_buf_puts(b, "'\\''");
		else
			lx_buf_append(b, p, 1);
	}
	lx_buf_puts(b, "'");
}

/* The end of the bracket expression or group that starts at p ('[' or
 * '('): one past its closing ']' or ')'. */
static const char *skip_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++; /* a ']' first is literal */
	while (*p && *p != ']') {
		if (p[0] == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *end = strchr(p + 2, ']'); /* "[:alpha:]" */
			p = end ? end + 1 : p + strlen(p);
		} else {
			p++;
		}
	}
	return *p ? p + 1 : p;
}

static const char *skip_group(const char *p)
{
	unsigned depth = 0;
	while (*p) {
		if (*p == '\\' && p[1]) {
			p += 2;
		} else if (*p == '[') {
			p = skip_bracket(p);
		} else {
			depth += *p == '(';
			depth -= *p == ')';
			p++;
			if (depth == 0)
				return p;
		}
	}
	return p;
}

/* The longest run of plain characters that every text a POSIX extended
 * regex matches must contain (its top level: no alternation there, no
 * group, bracket, wildcard or optional character in the run); NULL when
 * none of three characters or more. */
char *lx_ere_required_literal(const char *pattern)
{
	struct lx_buf cur = {0};
	char *best = NULL;
	size_t best_len = 0;
	bool alternation = false;
	for (const char *p = pattern; *p && !alternation;) {
		bool literal = false;
		char c = 0;
		const char *next;
		if (*p == '\\' && p[1]) {
			literal = !isalnum((unsigned char)p[1]);
			c = p[1];
			next = p + 2;
		} else if (*p == '[') {
			next = skip_bracket(p);
		} else if (*p == '(') {
			next = skip_group(p);
		} else if (*p == '|') {
			alternation = true;
			next = p + 1;
		} else {
			literal = !strchr(".^$*+?{})", *p);
			c = *p;
			next = p + 1;
		}
		/* a quantifier after the atom: an optional one is not required, a
		 * repeated one ends the run after it */
		bool optional = *next == '?' || *next == '*' || *next == '{';
		bool repeated = *next == '+';
		if (literal && !optional)
			lx_buf_printf(&cur, "%c", c);
		if (!literal || optional || repeated) {
			if (cur.len > best_len) {
				free(best);
				best_len = cur.len;
				best = lx_buf_steal(&cur);
			}
			lx_buf_free(&cur);
		}
		p = next;
		if (optional || repeated) {
			p++;
			if (p[-1] == '{')
				while (*p && p[-1] != '}')
					p++;
		}
	}
	if (cur.len > best_len) {
		free(best);
		best_len = cur.len;
		best = lx_buf_steal(&cur);
	}
	lx_buf_free(&cur);
	if (alternation || best_len < 3) {
		free(best);
		return NULL;
	}
	return best;
}
