/* Unified diffs of small texts (config files), for dry runs. */
#include "lxgpu/util.h"

#include <string.h>

#define CONTEXT 3
/* Beyond this many cells the middle is shown as one replacement. */
#define MAX_LCS_CELLS (16u << 20)

struct line {
	const char *text;
	size_t len;      /* without the newline */
	bool terminated; /* ends with '\n' */
};

struct lines {
	struct line *items;
	size_t n;
};

static void split_lines(const char *text, size_t len, struct lines *out)
{
	out->items = NULL;
	out->n = 0;
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		out->items = lx_xrealloc(out->items, (out->n + 1) * sizeof(*out->items));
		out->items[out->n++] = (struct line){text + pos, end - pos, nl != NULL};
		pos = nl ? end + 1 : len;
	}
}

static bool same(const struct line *a, const struct line *b)
{
	return a->len == b->len && a->terminated == b->terminated &&
	       memcmp(a->text, b->text, a->len) == 0;
}

enum op { OP_KEEP, OP_DEL, OP_ADD };

struct edit {
	enum op op;
	size_t a, b; /* line indexes in old and new */
};

/* The edit script: longest common subsequence on the part between the
 * common prefix and suffix. */
static struct edit *edit_script(const struct lines *a, const struct lines *b, size_t *n_out)
{
	size_t pre = 0;
	while (pre < a->n && pre < b->n && same(&a->items[pre], &b->items[pre]))
		pre++;
	size_t suf = 0;
	while (suf < a->n - pre && suf < b->n - pre &&
	       same(&a->items[a->n - 1 - suf], &b->items[b->n - 1 - suf]))
		suf++;
	size_t m = a->n - pre - suf, n = b->n - pre - suf;
	struct edit *e = lx_xcalloc(a->n + b->n + 1, sizeof(*e));
	size_t k = 0;
	for (size_t i = 0; i < pre; i++)
		e[k++] = (struct edit){OP_KEEP, i, i};
	unsigned *lcs = NULL;
	if (m && n && (m + 1) * (n + 1) <= MAX_LCS_CELLS) {
		lcs = lx_xcalloc((m + 1) * (n + 1), sizeof(*lcs));
		for (size_t i = m; i-- > 0;)
			for (size_t j = n; j-- > 0;)
				lcs[i * (n + 1) + j] =
					same(&a->items[pre + i], &b->items[pre + j])
						? lcs[(i + 1) * (n + 1) + j + 1] + 1
						: (lcs[(i + 1) * (n + 1) + j] > lcs[i * (n + 1) + j + 1]
							   ? lcs[(i + 1) * (n + 1) + j]
							   : lcs[i * (n + 1) + j + 1]);
	}
	size_t i = 0, j = 0;
	while (i < m || j < n) {
		if (lcs && i < m && j < n && same(&a->items[pre + i], &b->items[pre + j])) {
			e[k++] = (struct edit){OP_KEEP, pre + i++, pre + j++};
		} else if (i < m && (j == n || !lcs ||
				     lcs[(i + 1) * (n + 1) + j] >= lcs[i * (n + 1) + j + 1])) {
			e[k++] = (struct edit){OP_DEL, pre + i++, pre + j};
		} else {
			e[k++] = (struct edit){OP_ADD, pre + i, pre + j++};
		}
	}
	free(lcs);
	for (size_t s = 0; s < suf; s++)
		e[k++] = (struct edit){OP_KEEP, a->n - suf + s, b->n - suf + s};
	*n_out = k;
	return e;
}

static void print_line(struct lx_buf *out, char mark, const struct line *l)
{
	lx_buf_append(out, &mark, 1);
	lx_buf_append(out, l->text, l->len);
	lx_buf_puts(out, "\n");
	if (!l->terminated)
		lx_buf_puts(out, "\\ No newline at end of file\n");
}

char *lx_diff_unified(const char *old_name, const char *old_text, size_t old_len,
		      const char *new_name, const char *new_text, size_t new_len)
{
	struct lines a, b;
	split_lines(old_text, old_len, &a);
	split_lines(new_text, new_len, &b);
	size_t n;
	struct edit *e = edit_script(&a, &b, &n);
	struct lx_buf out = {0};
	size_t i = 0;
	while (i < n) {
		if (e[i].op == OP_KEEP) {
			i++;
			continue;
		}
		/* A hunk: CONTEXT lines around a run of changes; changes closer
		 * than 2*CONTEXT lines share one hunk. */
		size_t start = i >= CONTEXT ? i - CONTEXT : 0;
		size_t end = i;
		for (;;) {
			while (end < n && e[end].op != OP_KEEP)
				end++;
			size_t next = end;
			while (next < n && e[next].op == OP_KEEP)
				next++;
			if (next == n || next - end > 2 * CONTEXT)
				break;
			end = next;
		}
		end = end + CONTEXT < n ? end + CONTEXT : n;
		if (!out.len)
			lx_buf_printf(&out, "--- %s\n+++ %s\n", old_name, new_name);
		size_t a_start = e[start].a, b_start = e[start].b, a_count = 0, b_count = 0;
		for (size_t k = start; k < end; k++) {
			a_count += e[k].op != OP_ADD;
			b_count += e[k].op != OP_DEL;
		}
		lx_buf_printf(&out, "@@ -%zu,%zu +%zu,%zu @@\n", a_count ? a_start + 1 : a_start,
			      a_count, b_count ? b_start + 1 : b_start, b_count);
		for (size_t k = start; k < end; k++) {
			if (e[k].op == OP_KEEP)
				print_line(&out, ' ', &a.items[e[k].a]);
			else if (e[k].op == OP_DEL)
				print_line(&out, '-', &a.items[e[k].a]);
			else
				print_line(&out, '+', &b.items[e[k].b]);
		}
		i = end;
	}
	free(e);
	free(a.items);
	free(b.items);
	return lx_buf_steal(&out);
}
