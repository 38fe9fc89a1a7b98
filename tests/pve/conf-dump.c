/* pve-conf-dump FILE: lxgpu's view of a PVE container config as JSON, for
 * run-oracle.sh to compare with what Proxmox's own parser made of the same
 * file (tests/pve/oracle/). Test-only; it reports what the config module
 * says and applies no PVE rule of its own.
 *
 * Strings are the config's bytes, one JSON character per byte (bytes from
 * 0x80 as \u0080..\u00ff): the form the oracle's Perl JSON writes raw bytes
 * in, so that jq compares the two as they are. */
#include "lxgpu/config.h"

#include <stdio.h>
#include <string.h>

static void json_str(struct lx_buf *b, const char *s, size_t n)
{
	lx_buf_puts(b, "\"");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			lx_buf_printf(b, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			lx_buf_printf(b, "\\u%04x", c);
		else
			lx_buf_append(b, (const char *)&c, 1);
	}
	lx_buf_puts(b, "\"");
}

static void json_cstr(struct lx_buf *b, const char *s)
{
	if (s)
		json_str(b, s, strlen(s));
	else
		lx_buf_puts(b, "null");
}

static const char *kind_name(enum lx_conf_line_kind k)
{
	static const char *const names[] = {"blank", "comment", "section", "pve", "lxc", "invalid"};
	return names[k];
}

/* devN as PVE's dev_checks name them: dev followed by digits only. */
static bool devn_like(const char *key)
{
	return lx_str_starts_with(key, "dev") && key[3] && strspn(key + 3, "0123456789") == strlen(key + 3);
}

static void dump_devn(struct lx_buf *b, const char *value)
{
	struct lx_devn d;
	struct lx_error err = {0};
	if (lx_conf_devn_parse(value, &d, &err) < 0) {
		lx_buf_puts(b, "{\"ok\": false, \"error\": ");
		json_cstr(b, err.message);
		lx_buf_puts(b, "}");
		lx_error_clear(&err);
		return;
	}
	lx_buf_puts(b, "{\"ok\": true, \"path\": ");
	json_cstr(b, d.path);
	lx_buf_printf(b, ", \"mode\": %d, \"uid\": %lld, \"gid\": %lld, \"deny_write\": %s}", d.mode,
		      d.uid, d.gid, d.deny_write ? "true" : "false");
	lx_devn_free(&d);
}

/* One section: its keys line by line (run-oracle.sh takes the last of each),
 * its lxc lines in order, and its devN values through lx_conf_devn_parse. */
static void dump_section(struct lx_buf *b, const struct lx_conf *c, int section)
{
	lx_buf_puts(b, "{\"name\": ");
	json_cstr(b, section < 0 ? NULL : c->lines[section].key);
	lx_buf_puts(b, ", \"keys\": [");
	const char *sep = "";
	for (size_t i = 0; i < c->n; i++) {
		const struct lx_conf_line *l = &c->lines[i];
		if (l->section != section || l->kind != LX_CONF_PVE_KEY)
			continue;
		lx_buf_printf(b, "%s{\"key\": ", sep);
		json_cstr(b, l->key);
		lx_buf_puts(b, ", \"value\": ");
		json_cstr(b, l->value);
		lx_buf_printf(b, ", \"bool\": %d, \"devn_index\": %d", lx_pve_bool(l->value),
			      lx_conf_devn_index(l->key));
		if (section < 0) { /* the accessor, for the live section */
			lx_buf_puts(b, ", \"get\": ");
			json_cstr(b, lx_conf_get(c, l->key));
		}
		if (devn_like(l->key)) {
			lx_buf_puts(b, ", \"devn\": ");
			dump_devn(b, l->value);
		}
		lx_buf_puts(b, "}");
		sep = ", ";
	}
	lx_buf_puts(b, "], \"lxc\": [");
	sep = "";
	for (size_t i = 0; i < c->n; i++) {
		const struct lx_conf_line *l = &c->lines[i];
		if (l->section != section || l->kind != LX_CONF_LXC_KEY)
			continue;
		lx_buf_printf(b, "%s[", sep);
		json_cstr(b, l->key);
		lx_buf_puts(b, ", ");
		json_cstr(b, l->value);
		lx_buf_puts(b, "]");
		sep = ", ";
	}
	lx_buf_puts(b, "]}");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	struct lx_conf c;
	struct lx_error err = {0};
	if (lx_conf_load(argv[1], &c, &err) < 0) {
		fprintf(stderr, "%s\n", err.message);
		return 2;
	}
	struct lx_buf b = {0};
	lx_buf_puts(&b, "{\"lines\": [");
	for (size_t i = 0; i < c.n; i++) {
		const struct lx_conf_line *l = &c.lines[i];
		/* raw: the line as PVE sees it, split on "\n" only */
		lx_buf_printf(&b, "%s{\"lineno\": %d, \"kind\": \"%s\", \"section\": %d, \"raw\": ",
			      i ? ", " : "", l->lineno, kind_name(l->kind), l->section);
		struct lx_buf raw = {0};
		lx_buf_append(&raw, l->text, l->len);
		if (strcmp(l->eol, "\r\n") == 0)
			lx_buf_puts(&raw, "\r");
		json_str(&b, raw.data ? raw.data : "", raw.len);
		lx_buf_free(&raw);
		lx_buf_puts(&b, "}");
	}
	lx_buf_puts(&b, "], \"live\": ");
	dump_section(&b, &c, -1);
	lx_buf_puts(&b, ", \"sections\": [");
	const char *sep = "";
	for (size_t i = 0; i < c.n; i++) {
		if (c.lines[i].kind != LX_CONF_SECTION)
			continue;
		lx_buf_puts(&b, sep);
		dump_section(&b, &c, (int)i);
		sep = ", ";
	}
	const char *unpriv = lx_conf_get(&c, "unprivileged");
	lx_buf_puts(&b, "], \"unprivileged\": {\"value\": ");
	json_cstr(&b, unpriv);
	lx_buf_printf(&b, ", \"bool\": %d, \"effective\": %s}", unpriv ? lx_pve_bool(unpriv) : -2,
		      lx_conf_unprivileged(&c, true) ? "true" : "false");
	const struct lx_conf_line *bad = lx_conf_first_invalid(&c);
	lx_buf_printf(&b, ", \"first_invalid\": %d}\n", bad ? bad->lineno : 0);
	fwrite(b.data, 1, b.len, stdout);
	lx_buf_free(&b);
	lx_conf_free(&c);
	return 0;
}
