/* Editing a config without touching anything else: lines dropped, replaced
 * or added, every other byte kept. Which lines are lxgpu's is decided in
 * src/access/owned.c. */
#include "lxgpu/config.h"

#include <stdlib.h>
#include <string.h>

/* The output being built: lines with their ends. */
struct out_line {
	const char *text;
	size_t len;
	const char *eol;
};

struct out {
	struct out_line *lines;
	size_t n;
};

static void out_push(struct out *o, const char *text, size_t len, const char *eol)
{
	o->lines = lx_xrealloc(o->lines, (o->n + 1) * sizeof(*o->lines));
	o->lines[o->n++] = (struct out_line){text, len, eol};
}

static bool is_unprivileged_line(const struct lx_conf_line *l)
{
	return l->section == -1 && l->kind == LX_CONF_PVE_KEY && strcmp(l->key, "unprivileged") == 0;
}

/* The line end for lines that get a new one (NULL eol): the one most of
 * the other lines of the result end with. Decided on the result, not the
 * input, so that a second rewrite of the result decides the same: replaced
 * GPU lines do not vote, and a line that loses or gains its end is counted
 * as it will read. */
static const char *dominant_eol(const struct out *o)
{
	size_t crlf = 0, lf = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct out_line *l = &o->lines[i];
		/* "x\r" that gets an end reads as "x" + CRLF, whatever the end. */
		bool cr_text = l->len && l->text[l->len - 1] == '\r';
		if (!l->eol)
			crlf += cr_text;
		else if (*l->eol)
			crlf += strcmp(l->eol, "\r\n") == 0, lf += strcmp(l->eol, "\n") == 0;
	}
	return crlf > lf ? "\r\n" : "\n";
}

/* The key of a new line that is a Proxmox key ("dev0: /dev/nvidia0" ->
 * "dev0", length in *len); NULL for raw lxc.* lines and anything else. */
static const char *pve_key_of(const char *line, size_t *len)
{
	size_t n = strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789_-");
	if (n == 0 || line[n] != ':' || strncmp(line, "lxc.", 4) == 0)
		return NULL;
	*len = n;
	return line;
}

static int key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	return c ? c : (alen > blen) - (alen < blen);
}

/* Where Proxmox's writer puts a new key: it writes a section's keys sorted
 * by name (Perl's string sort: dev10 before dev2), then its lxc.* lines
 * (PVE::LXC::Config::write_pct_config). So before the first kept key line
 * of the live section that sorts after it, else after the last kept key
 * line; without key lines, at fallback. The file keeps its own order: only
 * the new line's place is chosen. */
static size_t pve_key_place(const struct lx_conf *conf, const bool *drop, const char *key,
			    size_t key_len, size_t fallback)
{
	size_t after_last = 0;
	bool any = false;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (drop[i] || l->kind != LX_CONF_PVE_KEY)
			continue;
		if (key_cmp(l->key, strlen(l->key), key, key_len) > 0)
			return i;
		after_last = i + 1, any = true;
	}
	return any ? after_last : fallback;
}

struct placed {
	const char *text;
	size_t at;
	const char *key; /* NULL: not a key line, in its given order */
	size_t key_len;
};

/* New key lines of one place in Proxmox's order, the others as given. */
static int placed_cmp(const void *x, const void *y)
{
	const struct placed *a = x, *b = y;
	if (a->at != b->at)
		return (a->at > b->at) - (a->at < b->at);
	if (a->key && b->key)
		return key_cmp(a->key, a->key_len, b->key, b->key_len);
	if (!a->key && !b->key) /* key_len holds their given order */
		return (a->key_len > b->key_len) - (a->key_len < b->key_len);
	return (a->key == NULL) - (b->key == NULL);
}

/* The file's last line, without a newline, gets lines after it: PVE splits
 * on \n alone, so it gets "\n" and keeps the bytes PVE read (a "\r\n"
 * would add a \r: "dev:" is no key, "dev:\r" is). Its own trailing \r then
 * makes it a CRLF line, as the next read sees it. */
static void end_last_line(struct out_line *l)
{
	if (l->len && l->text[l->len - 1] == '\r') {
		l->len--;
		l->eol = "\r\n";
	} else {
		l->eol = "\n";
	}
}

/* The edit itself: drop the flagged lines, put the new ones before line
 * insert_at (conf->n: at the end), new Proxmox keys (devN, the unprivileged
 * key) where Proxmox's writer puts them, and inserts[i] (when given:
 * conf->n + 1 lists) before line i. Every other line keeps its bytes and its
 * place. */
static char *edit_lines(const struct lx_conf *conf, const bool *drop, char *const *replace,
			size_t insert_at, const struct lx_strv *lines, const struct lx_strv *inserts,
			int unprivileged, size_t *len, size_t *removed)
{
	static const char unpriv_line[] = "unprivileged: 1";
	bool have_unpriv_line = false;
	for (size_t i = 0; i < conf->n; i++)
		have_unpriv_line |= is_unprivileged_line(&conf->lines[i]);

	size_t n_new = (lines ? lines->n : 0) + 1, n_placed = 0;
	struct placed *placed = lx_xcalloc(n_new, sizeof(*placed));
	for (size_t j = 0; j < n_new; j++) {
		const char *text = j < n_new - 1 ? lines->items[j]
				   : unprivileged == 1 && !have_unpriv_line ? unpriv_line
									    : NULL;
		if (!text)
			continue;
		struct placed *p = &placed[n_placed++];
		p->text = text;
		p->key = pve_key_of(text, &p->key_len);
		p->at = p->key ? pve_key_place(conf, drop, p->key, p->key_len, insert_at) : insert_at;
	}
	/* stable for the non-key lines: qsort is not, so their index decides */
	for (size_t j = 0; j < n_placed; j++)
		if (!placed[j].key)
			placed[j].key_len = j;
	qsort(placed, n_placed, sizeof(*placed), placed_cmp);

	struct out o = {0};
	*removed = 0;
	size_t next_placed = 0;
	for (size_t i = 0; i <= conf->n; i++) {
		for (; next_placed < n_placed && placed[next_placed].at == i; next_placed++)
			out_push(&o, placed[next_placed].text, strlen(placed[next_placed].text), NULL);
		for (size_t j = 0; inserts && j < inserts[i].n; j++)
			out_push(&o, inserts[i].items[j], strlen(inserts[i].items[j]), NULL);
		if (i == conf->n)
			break;
		const struct lx_conf_line *l = &conf->lines[i];
		if (drop[i]) {
			(*removed)++;
			continue;
		}
		if (replace && replace[i]) {
			out_push(&o, replace[i], strlen(replace[i]), l->eol);
			continue;
		}
		if (is_unprivileged_line(l) && unprivileged == 0)
			continue;
		if (is_unprivileged_line(l) && unprivileged == 1 && strcmp(l->value, "1") != 0) {
			out_push(&o, unpriv_line, strlen(unpriv_line), l->eol);
			continue;
		}
		out_push(&o, l->text, l->len, l->eol);
	}

	/* Keep the file's shape: a missing final newline stays missing, and
	 * every line but the last ends (NULL: with the dominant end). */
	bool no_final_newline = conf->n > 0 && !*conf->lines[conf->n - 1].eol;
	for (size_t i = 0; i < o.n; i++) {
		/* An empty last line exists only through its newline. */
		bool last = i + 1 == o.n && o.lines[i].len > 0;
		if (last && no_final_newline)
			/* a CRLF line that becomes the last keeps its \r: PVE read
			 * "tqgs:\r", a key; "tqgs:" is none */
			o.lines[i].eol = o.lines[i].eol && strcmp(o.lines[i].eol, "\r\n") == 0 ? "\r" : "";
		else if (o.lines[i].eol && !*o.lines[i].eol)
			end_last_line(&o.lines[i]);
	}
	const char *eol = dominant_eol(&o);
	for (size_t i = 0; i < o.n; i++)
		if (!o.lines[i].eol)
			o.lines[i].eol = eol;
	struct lx_buf b = {0};
	for (size_t i = 0; i < o.n; i++) {
		lx_buf_append(&b, o.lines[i].text, o.lines[i].len);
		lx_buf_puts(&b, o.lines[i].eol);
	}
	free(o.lines);
	free(placed);
	if (len)
		*len = b.len;
	return lx_buf_steal(&b);
}

/* After the live section's last line that is not blank. */
static size_t end_of_live(const struct lx_conf *conf)
{
	size_t at = 0;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++)
		if (conf->lines[i].kind != LX_CONF_BLANK)
			at = i + 1;
	return at;
}

char *lx_conf_edit(const struct lx_conf *conf, const bool *drop, char *const *replace,
		   long insert_at, const struct lx_strv *lines, int unprivileged, size_t *len,
		   size_t *removed)
{
	size_t at = insert_at >= 0 ? (size_t)insert_at : end_of_live(conf);
	return edit_lines(conf, drop, replace, at, lines, NULL, unprivileged, len, removed);
}

char *lx_conf_edit_at(const struct lx_conf *conf, const bool *drop, const struct lx_strv *inserts,
		      int unprivileged, size_t *len, size_t *removed)
{
	return edit_lines(conf, drop, NULL, end_of_live(conf), NULL, inserts, unprivileged, len,
			  removed);
}
