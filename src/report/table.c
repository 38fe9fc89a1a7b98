/* Text tables that fit a terminal: each column as wide as its widest cell,
 * and when the row is wider than the terminal, the columns that may wrap
 * give up width (the widest first, never below their longest word) and
 * their cells continue on the lines below, in their column. */
#include "lxgpu/report.h"

#include <string.h>

void lx_table_init(struct lx_table *t, size_t n_cols, const char *const *titles)
{
	*t = (struct lx_table){.n_cols = n_cols};
	for (size_t c = 0; c < n_cols; c++)
		lx_strv_push(&t->cells, titles[c]);
}

void lx_table_add_row(struct lx_table *t, const char *const *cells)
{
	for (size_t c = 0; c < t->n_cols; c++)
		lx_strv_push(&t->cells, cells[c] ? cells[c] : "");
}

void lx_table_free(struct lx_table *t)
{
	lx_strv_free(&t->cells);
}

/* Columns of a UTF-8 string: one per character, none for a colour
 * sequence (ESC [ ... m). */
static size_t columns(const char *s, size_t n)
{
	size_t cols = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			while (i < n && s[i] != 'm')
				i++;
			continue;
		}
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	}
	return cols;
}

static size_t longest_word(const char *s)
{
	size_t most = 0;
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, " ");
		size_t w = columns(p, n);
		if (w > most)
			most = w;
		p += n + (p[n] == ' ');
	}
	return most;
}

/* The next line of cell text *p for a column width wide: whole words, a
 * word longer than the column alone. */
static size_t next_line(const char **p, size_t width)
{
	const char *s = *p;
	size_t len = 0, cols = 0;
	for (;;) {
		size_t n = strcspn(s + len + (len > 0), " ");
		size_t w = columns(s + len + (len > 0), n);
		if (len > 0 && cols + 1 + w > width)
			break;
		cols += (len > 0) + w;
		len += (len > 0) + n;
		if (!s[len])
			break;
	}
	*p = s + len + (s[len] == ' ');
	return len;
}

char *lx_table_text(const struct lx_table *t, size_t width, size_t indent)
{
	size_t n = t->n_cols, rows = t->cells.n / n;
	size_t *w = lx_xmalloc(n * sizeof(*w)), *floor = lx_xmalloc(n * sizeof(*floor));
	size_t total = indent + 2 * (n - 1);
	for (size_t c = 0; c < n; c++) {
		w[c] = floor[c] = 0;
		for (size_t r = 0; r < rows; r++) {
			const char *cell = t->cells.items[r * n + c];
			size_t cw = columns(cell, strlen(cell)), lw = longest_word(cell);
			if (cw > w[c])
				w[c] = cw;
			if (lw > floor[c])
				floor[c] = lw;
		}
		if (!(t->wrap & (1u << c)))
			floor[c] = w[c];
		total += w[c];
	}
	/* the widest column that may still give, one column at a time */
	while (width && total > width) {
		size_t pick = n;
		for (size_t c = 0; c < n; c++)
			if (w[c] > floor[c] && (pick == n || w[c] > w[pick]))
				pick = c;
		if (pick == n)
			break;
		w[pick]--;
		total--;
	}
	struct lx_buf b = {0};
	lx_buf_puts(&b, "");
	const char **at = lx_xmalloc(n * sizeof(*at));
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < n; c++)
			at[c] = t->cells.items[r * n + c];
		bool more = true;
		for (bool first = true; more; first = false) {
			struct lx_buf line = {0};
			lx_buf_printf(&line, "%*s", (int)indent, "");
			more = false;
			for (size_t c = 0; c < n; c++) {
				const char *s = at[c];
				size_t len = next_line(&at[c], w[c]);
				size_t pad = w[c] - (columns(s, len) < w[c] ? columns(s, len) : w[c]);
				bool right = (t->right & (1u << c)) && first;
				if (right)
					lx_buf_printf(&line, "%*s", (int)pad, "");
				lx_buf_append(&line, s, len);
				if (!right && c + 1 < n)
					lx_buf_printf(&line, "%*s", (int)pad, "");
				if (c + 1 < n)
					lx_buf_puts(&line, "  ");
				more |= *at[c] != '\0';
			}
			/* no padding at the end of a line */
			while (line.len && line.data[line.len - 1] == ' ')
				line.data[--line.len] = '\0';
			lx_buf_printf(&b, "%s\n", line.data ? line.data : "");
			lx_buf_free(&line);
		}
	}
	free(at);
	free(w);
	free(floor);
	return lx_buf_steal(&b);
}
