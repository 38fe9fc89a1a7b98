/* Container config parsing that keeps every byte. */
#include "lxgpu/config.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <glob.h>
#include <sys/stat.h>

#define CONF_MAX_SIZE (8u << 20)

/* PVE key: ^([a-z][a-z_]*\d*):\s*(.+?)\s*$ */
static bool parse_pve_key(const char *line, char **key, char **value)
{
	const char *p = line;
	if (!islower((unsigned char)*p))
		return false;
	while (islower((unsigned char)*p) || *p == '_')
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p != ':')
		return false;
	/* (.+?)\s*$ needs one character after the colon, a blank one will do:
	 * "tags: " parses (to an empty value), "tags:" does not. */
	if (!p[1])
		return false;
	_cleanup_free_ char *v = lx_str_strip(lx_xstrdup(p + 1));
	*key = lx_xstrndup(line, (size_t)(p - line));
	*value = lx_xstrdup(v);
	return true;
}

/* Section header: ^\[([a-z][a-z0-9_\-]+)\]\s*$ (case-insensitive), or [pve:pending]. */
static bool parse_section(const char *line, char **name)
{
	if (line[0] != '[')
		return false;
	size_t n = strcspn(line + 1, "]");
	if (line[1 + n] != ']')
		return false;
	for (const char *p = line + 2 + n; *p; p++)
		if (!isspace((unsigned char)*p))
			return false;
	_cleanup_free_ char *s = lx_xstrndup(line + 1, n);
	bool ok = strcasecmp(s, "pve:pending") == 0;
	if (!ok && n >= 2 && isalpha((unsigned char)s[0])) {
		ok = true;
		for (size_t i = 1; i < n; i++)
			ok &= isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-';
	}
	if (ok)
		*name = lx_xstrdup(s);
	return ok;
}

/* LXC key: ^(lxc\.[a-z0-9_\-\.]+)(:|\s*=)\s*(.*?)\s*$ */
static bool parse_lxc_key(const char *line, char **key, char **value)
{
	if (!lx_str_starts_with(line, "lxc."))
		return false;
	const char *p = line + 4;
	while (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_' || *p == '-' ||
	       *p == '.')
		p++;
	if (p == line + 4)
		return false;
	const char *key_end = p;
	if (*p != ':') {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '=')
			return false;
	}
	*key = lx_xstrndup(line, (size_t)(key_end - line));
	*value = lx_str_strip(lx_xstrdup(p + 1));
	return true;
}

static void classify(struct lx_conf_line *l, int *section)
{
	const char *t = l->text;
	l->section = *section;
	if (strlen(t) != l->len) {
		l->kind = LX_CONF_INVALID; /* a NUL byte: no parser reads past it */
		return;
	}
	l->section = *section;
	_cleanup_free_ char *stripped = lx_str_strip(lx_xstrdup(t));
	if (!*stripped) {
		l->kind = LX_CONF_BLANK;
	} else if (t[0] == '#') {
		l->kind = LX_CONF_COMMENT;
	} else if (parse_section(t, &l->key)) {
		l->kind = LX_CONF_SECTION;
		*section = l->lineno - 1;
		l->section = *section;
	} else if (parse_lxc_key(t, &l->key, &l->value)) {
		l->kind = LX_CONF_LXC_KEY;
	} else if (parse_pve_key(t, &l->key, &l->value)) {
		l->kind = LX_CONF_PVE_KEY;
	} else {
		l->kind = LX_CONF_INVALID;
	}
}

void lx_conf_parse(const char *path, const char *text, size_t len, struct lx_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->path = lx_xstrdup(path);
	int section = -1;
	size_t pos = 0;
	while (pos < len) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		size_t text_end = end;
		const char *eol = "";
		if (end < len) {
			eol = "\n";
			if (end > pos && text[end - 1] == '\r') {
				text_end = end - 1;
				eol = "\r\n";
			}
		}
		conf->lines = lx_xrealloc(conf->lines, (conf->n + 1) * sizeof(*conf->lines));
		struct lx_conf_line *l = &conf->lines[conf->n];
		memset(l, 0, sizeof(*l));
		l->lineno = (int)conf->n + 1;
		l->text = lx_xstrndup(text + pos, text_end - pos);
		l->len = text_end - pos;
		l->eol = eol;
		conf->n++;
		classify(l, &section);
		pos = end < len ? end + 1 : end;
	}
}

char *lx_conf_serialize(const struct lx_conf *conf, size_t *len)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < conf->n; i++) {
		lx_buf_append(&b, conf->lines[i].text, conf->lines[i].len);
		lx_buf_puts(&b, conf->lines[i].eol);
	}
	if (len)
		*len = b.len;
	return lx_buf_steal(&b);
}

const struct lx_conf_line *lx_conf_first_invalid(const struct lx_conf *conf)
{
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++)
		if (conf->lines[i].kind == LX_CONF_INVALID)
			return &conf->lines[i];
	return NULL;
}

const char *lx_conf_eol(const struct lx_conf *conf)
{
	size_t crlf = 0, lf = 0;
	for (size_t i = 0; i < conf->n; i++) {
		crlf += strcmp(conf->lines[i].eol, "\r\n") == 0;
		lf += strcmp(conf->lines[i].eol, "\n") == 0;
	}
	return crlf > lf ? "\r\n" : "\n";
}

int lx_conf_load(const char *path, struct lx_conf *conf, struct lx_error *err)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	if (lx_read_file(path, CONF_MAX_SIZE, &text, &len, err) < 0)
		return -1;
	lx_conf_parse(path, text, len, conf);
	return 0;
}

void lx_conf_free(struct lx_conf *conf)
{
	for (size_t i = 0; i < conf->n; i++) {
		free(conf->lines[i].text);
		free(conf->lines[i].key);
		free(conf->lines[i].value);
	}
	free(conf->lines);
	free(conf->path);
	memset(conf, 0, sizeof(*conf));
}

const char *lx_conf_get(const struct lx_conf *conf, const char *key)
{
	const char *value = NULL;
	for (size_t i = 0; i < conf->n; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->section != -1)
			break;
		if (l->kind == LX_CONF_PVE_KEY && strcmp(l->key, key) == 0)
			value = l->value;
	}
	return value;
}

bool lx_conf_has_lxc_key(const struct lx_conf *conf, const char *prefix)
{
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++)
		if (conf->lines[i].kind == LX_CONF_LXC_KEY &&
		    lx_str_starts_with(conf->lines[i].key, prefix))
			return true;
	return false;
}

int lx_pve_bool(const char *value)
{
	static const char *const yes[] = {"1", "yes", "true", "on"};
	static const char *const no[] = {"0", "no", "false", "off"};
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(value, yes[i]) == 0)
			return 1;
		if (strcasecmp(value, no[i]) == 0)
			return 0;
	}
	return -1;
}

bool lx_conf_unprivileged(const struct lx_conf *conf, bool is_pve)
{
	const char *v = is_pve ? lx_conf_get(conf, "unprivileged") : NULL;
	return (v && lx_pve_bool(v) == 1) || lx_conf_has_lxc_key(conf, "lxc.idmap");
}

void lx_devn_free(struct lx_devn *d)
{
	free(d->path);
	memset(d, 0, sizeof(*d));
}

/* One item of the property string, "key=value" or the bare default key. */
static int devn_item(struct lx_devn *d, const char *item, bool *seen_path, struct lx_error *err)
{
	const char *eq = strchr(item, '=');
	_cleanup_free_ char *key = eq ? lx_xstrndup(item, (size_t)(eq - item)) : lx_xstrdup("path");
	const char *v = eq ? eq + 1 : item;
	unsigned long long n;
	if (strcmp(key, "path") == 0) {
		if (*seen_path)
			return lx_error_set(err, "the path is given twice");
		*seen_path = true;
		if (!lx_str_starts_with(v, "/dev/") || !v[5])
			return lx_error_set(err, "path '%s' is not under /dev/", v);
		d->path = lx_xstrdup(v);
	} else if (strcmp(key, "mode") == 0) {
		if (!lx_parse_uint(v, 8, 07777, &n))
			return lx_error_set(err, "mode '%s' is not an octal mode", v);
		d->mode = (int)n;
	} else if (strcmp(key, "uid") == 0 || strcmp(key, "gid") == 0) {
		if (!lx_parse_uint(v, 10, 0xffffffffull, &n))
			return lx_error_set(err, "%s '%s' is not a number", key, v);
		*(key[0] == 'u' ? &d->uid : &d->gid) = (long long)n;
	} else if (strcmp(key, "deny-write") == 0) {
		int b = lx_pve_bool(v);
		if (b < 0)
			return lx_error_set(err, "deny-write '%s' is not a boolean", v);
		d->deny_write = b;
	} else {
		return lx_error_set(err, "unknown option '%s'", key);
	}
	return 0;
}

int lx_conf_devn_parse(const char *value, struct lx_devn *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	out->mode = -1, out->uid = -1, out->gid = -1;
	_cleanup_free_ char *copy = lx_xstrdup(value);
	bool seen_path = false;
	char *save = NULL;
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (strspn(item, " \t") == strlen(item))
			continue; /* PVE skips blank items, and strips nothing else */
		if (devn_item(out, item, &seen_path, err) < 0) {
			lx_devn_free(out);
			return -1;
		}
	}
	if (!out->path) {
		lx_devn_free(out);
		return lx_error_set(err, "no path (devN needs [path=]/dev/...)");
	}
	return 0;
}

char *lx_conf_devn_path(const char *value)
{
	struct lx_devn d;
	struct lx_error err = {0};
	if (lx_conf_devn_parse(value, &d, &err) < 0) {
		lx_error_clear(&err);
		return NULL;
	}
	return d.path;
}

int lx_conf_devn_index(const char *key)
{
	if (!lx_str_starts_with(key, "dev") || !key[3])
		return -1;
	unsigned long long v;
	if (key[3] == '0' && key[4])
		return -1;
	return lx_parse_uint(key + 3, 10, 255, &v) ? (int)v : -1;
}

int lx_conf_find(const char *pve_dir, const char *lxc_path, const char *id, char **path,
		 bool *is_pve, struct lx_error *err)
{
	*path = NULL;
	if (!*id || strchr(id, '/') || strcmp(id, ".") == 0 || strcmp(id, "..") == 0)
		return lx_error_set(err, "'%s' is not a container id or name", id);
	_cleanup_free_ char *pve = lx_xasprintf("%s/lxc/%s.conf", pve_dir, id);
	_cleanup_free_ char *lxc = lx_xasprintf("%s/%s/config", lxc_path, id);
	struct stat st;
	if (stat(pve, &st) == 0) {
		*path = lx_xstrdup(pve);
		*is_pve = true;
		return 0;
	}
	if (stat(lxc, &st) == 0) {
		*path = lx_xstrdup(lxc);
		*is_pve = false;
		return 0;
	}
	/* In a cluster, /etc/pve/lxc holds this node's containers only. */
	_cleanup_free_ char *pattern = lx_xasprintf("%s/nodes/*/lxc/%s.conf", pve_dir, id);
	glob_t g;
	if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
		_cleanup_free_ char *found = lx_xstrdup(g.gl_pathv[0]);
		globfree(&g);
		char *node_end = strstr(found, "/lxc/");
		*node_end = '\0';
		return lx_error_set(err,
				    "container %s is configured on node %s (%s/lxc/%s.conf), not on "
				    "this one: run lxgpu there",
				    id, strrchr(found, '/') + 1, found, id);
	}
	globfree(&g);
	return lx_error_set(err,
			    "container %s does not exist: neither %s nor %s is there (list them "
			    "with 'pct list' or 'lxc-ls'; --pve-dir and --lxc-path change where "
			    "lxgpu looks)",
			    id, pve, lxc);
}
