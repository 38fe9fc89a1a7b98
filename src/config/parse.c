/* Container config parsing that keeps every byte. */
#include "lxgpu/config.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <strings.h>
#include <glob.h>
#include <sys/stat.h>

#define CONF_MAX_SIZE (8u << 20)

/* PVE's regexes run on byte strings: \s, [a-z] and \d are ASCII there,
 * whatever the C locale says. */
static bool pve_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static bool pve_lower(char c)
{
	return c >= 'a' && c <= 'z';
}
static bool pve_digit(char c)
{
	return c >= '0' && c <= '9';
}
static bool pve_blank(const char *s)
{
	while (pve_space(*s))
		s++;
	return !*s;
}

/* A copy of s without leading and trailing \s. */
static char *pve_strip(const char *s)
{
	while (pve_space(*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && pve_space(s[n - 1]))
		n--;
	return lx_xstrndup(s, n);
}

/* PVE key: ^([a-z][a-z_]*\d*):\s*(.+?)\s*$ */
static bool parse_pve_key(const char *line, char **key, char **value)
{
	const char *p = line;
	if (!pve_lower(*p))
		return false;
	while (pve_lower(*p) || *p == '_')
		p++;
	while (pve_digit(*p))
		p++;
	if (*p != ':' || !p[1])
		return false;
	/* (.+?) takes at least one character, a blank one if need be: the value
	 * of "tags: " is " " (and "tags:" does not parse), as PVE stores it. */
	char *v = pve_strip(p + 1);
	if (!*v) {
		free(v);
		v = lx_xstrdup(p + strlen(p) - 1);
	}
	*key = lx_xstrndup(line, (size_t)(p - line));
	*value = v;
	return true;
}

/* Section header: ^\[([a-z][a-z0-9_\-]+)\]\s*$ (case-insensitive), or [pve:pending]. */
static bool parse_section(const char *line, char **name)
{
	if (line[0] != '[')
		return false;
	size_t n = strcspn(line + 1, "]");
	if (line[1 + n] != ']' || !pve_blank(line + 2 + n))
		return false;
	_cleanup_free_ char *s = lx_xstrndup(line + 1, n);
	bool ok = strcasecmp(s, "pve:pending") == 0;
	if (!ok && n >= 2 && pve_lower((char)(s[0] | 0x20))) {
		ok = true;
		for (size_t i = 1; i < n; i++)
			ok &= pve_lower((char)(s[i] | 0x20)) || pve_digit(s[i]) || s[i] == '_' ||
			      s[i] == '-';
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
	while (pve_lower(*p) || pve_digit(*p) || *p == '_' || *p == '-' || *p == '.')
		p++;
	if (p == line + 4)
		return false;
	const char *key_end = p;
	if (*p != ':') {
		while (pve_space(*p))
			p++;
		if (*p != '=')
			return false;
	}
	*key = lx_xstrndup(line, (size_t)(key_end - line));
	*value = pve_strip(p + 1);
	return true;
}

/* snapstate:\s*(prepare|delete)\s*$, unanchored: PVE tests it before the key
 * pattern, so "  snapstate: delete" (and "x snapstate: delete") set it. */
static const char *parse_snapstate(const char *line)
{
	for (const char *p = strstr(line, "snapstate:"); p; p = strstr(p + 1, "snapstate:")) {
		const char *v = p + strlen("snapstate:");
		while (pve_space(*v))
			v++;
		static const char *const states[] = {"prepare", "delete"};
		for (size_t i = 0; i < 2; i++)
			if (lx_str_starts_with(v, states[i]) && pve_blank(v + strlen(states[i])))
				return states[i];
	}
	return NULL;
}

/* Classify one line the way PVE::LXC::Config::parse_pct_config tries its
 * patterns, in its order. raw is the line as PVE splits it: on "\n" only,
 * so a CRLF line still ends in "\r" ("tags:\r" is a key with value "\r"). */
static void classify(struct lx_conf_line *l, const char *raw, int *section, bool *pending)
{
	l->section = *section;
	if (strlen(l->text) != l->len) {
		l->kind = LX_CONF_INVALID; /* a NUL byte: no parser reads past it */
		return;
	}
	const char *state;
	if (pve_blank(raw)) {
		l->kind = LX_CONF_BLANK;
	} else if (parse_section(raw, &l->key)) {
		l->kind = LX_CONF_SECTION;
		*section = l->lineno - 1;
		*pending = strcasecmp(l->key, "pve:pending") == 0;
		l->section = *section;
	} else if (raw[0] == '#') {
		l->kind = LX_CONF_COMMENT;
	} else if (parse_lxc_key(raw, &l->key, &l->value)) {
		l->kind = LX_CONF_LXC_KEY;
	} else if (lx_str_starts_with(raw, "description:") && !pve_blank(raw + 12)) {
		l->kind = LX_CONF_PVE_KEY;
		l->key = lx_xstrdup("description");
		l->value = pve_strip(raw + 12);
	} else if ((state = parse_snapstate(raw))) {
		l->kind = LX_CONF_PVE_KEY;
		l->key = lx_xstrdup("snapstate");
		l->value = lx_xstrdup(state);
	} else if (lx_str_starts_with(raw, "delete:") && !pve_blank(raw + 7)) {
		/* PVE drops a delete: outside [pve:pending] (strict parsing dies). */
		l->kind = *pending ? LX_CONF_PVE_KEY : LX_CONF_INVALID;
		if (*pending) {
			l->key = lx_xstrdup("delete");
			l->value = pve_strip(raw + 7);
		}
	} else if (parse_pve_key(raw, &l->key, &l->value)) {
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
	bool pending = false;
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
		conf->lines = lx_xgrow(conf->lines, conf->n, sizeof(*conf->lines));
		struct lx_conf_line *l = &conf->lines[conf->n];
		memset(l, 0, sizeof(*l));
		l->lineno = (int)conf->n + 1;
		l->text = lx_xstrndup(text + pos, text_end - pos);
		l->len = text_end - pos;
		l->eol = eol;
		conf->n++;
		_cleanup_free_ char *raw = lx_xstrndup(text + pos, end - pos);
		classify(l, raw, &section, &pending);
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

char *lx_conf_line_shown(const struct lx_conf_line *l)
{
	enum { SHOWN_MAX = 80 };
	size_t n = 0;
	while (n < l->len) {
		size_t c = lx_utf8_char_len(l->text + n, l->len - n);
		c = c ? c : 1;
		if (n + c > SHOWN_MAX)
			break;
		n += c;
	}
	struct lx_buf b = {0};
	lx_buf_append_escaped(&b, l->text, n, LX_ESC_CONTROLS);
	if (n < l->len)
		lx_buf_puts(&b, "...");
	return lx_buf_steal(&b);
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

const char *lx_conf_hostname(const struct lx_conf *conf)
{
	const char *name = lx_conf_get(conf, "hostname");
	if (name)
		return name;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++)
		if (conf->lines[i].kind == LX_CONF_LXC_KEY &&
		    strcmp(conf->lines[i].key, "lxc.uts.name") == 0)
			name = conf->lines[i].value; /* LXC: the last one wins */
	return name;
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
	/* pve-container tests the stored value for Perl truth. A value that is no
	 * boolean ("maybe", the " " of "unprivileged: ") is warned about, kept
	 * as it is, and true. */
	const char *v = is_pve ? lx_conf_get(conf, "unprivileged") : NULL;
	return (v && lx_pve_bool(v) != 0) || lx_conf_has_lxc_key(conf, "lxc.idmap");
}

void lx_devn_free(struct lx_devn *d)
{
	free(d->path);
	memset(d, 0, sizeof(*d));
}

char *lx_devn_format(const struct lx_devn *d)
{
	struct lx_buf b = {0};
	lx_buf_printf(&b, "%s", d->path);
	if (d->gid >= 0)
		lx_buf_printf(&b, ",gid=%lld", d->gid);
	if (d->mode >= 0)
		lx_buf_printf(&b, ",mode=%04o", (unsigned)d->mode);
	if (d->uid >= 0)
		lx_buf_printf(&b, ",uid=%lld", d->uid);
	if (d->deny_write)
		lx_buf_printf(&b, ",deny-write=1");
	return lx_buf_steal(&b);
}

/* pve-lxc-dev-string: under /dev/, and no "." or ".." component. */
static bool devn_path_ok(const char *v)
{
	if (!lx_str_starts_with(v, "/dev/"))
		return false;
	for (const char *p = strchr(v, '/'); p; p = strchr(p + 1, '/')) {
		size_t dots = strspn(p + 1, ".");
		if ((dots == 1 || dots == 2) && (p[1 + dots] == '/' || !p[1 + dots]))
			return false;
	}
	return true;
}

/* JSONSchema integer with minimum 0: ^[+-]?\d+$ and not below 0 ("-0" is 0).
 * Values past LLONG_MAX parse (PVE takes any digits) and saturate. */
static bool devn_id(const char *v, long long *out)
{
	const char *p = v + (*v == '+' || *v == '-');
	if (!*p || strspn(p, "0123456789") != strlen(p))
		return false;
	unsigned long long n = 0;
	for (; *p; p++)
		n = n > (unsigned long long)LLONG_MAX / 10 ? (unsigned long long)LLONG_MAX
							    : n * 10 + (unsigned)(*p - '0');
	if (*v == '-' && n != 0)
		return false;
	*out = n > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)n;
	return true;
}

static const char *const devn_keys[] = {"path", "mode", "uid", "gid", "deny-write"};
enum { DEVN_KEYS = 5 };

/* Check the items' values, as JSONSchema does once all are read. */
static int devn_check(struct lx_devn *d, char **vals, struct lx_error *err)
{
	if (vals[0] && !devn_path_ok(vals[0]))
		return lx_error_set(err, "path '%s' is not a device path under /dev/", vals[0]);
	d->path = vals[0] ? lx_xstrdup(vals[0]) : NULL;
	const char *v = vals[1];
	if (v) { /* pattern 0[0-7]{3}, anchored */
		if (strlen(v) != 4 || v[0] != '0' || strspn(v + 1, "01234567") != 3)
			return lx_error_set(err, "mode '%s' is not an octal mode 0ooo", v);
		d->mode = (int)strtol(v, NULL, 8);
	}
	for (int k = 2; k <= 3; k++)
		if (vals[k] && !devn_id(vals[k], k == 2 ? &d->uid : &d->gid))
			return lx_error_set(err, "%s '%s' is not a number", devn_keys[k], vals[k]);
	int b = vals[4] ? lx_pve_bool(vals[4]) : 0;
	if (b < 0)
		return lx_error_set(err, "deny-write '%s' is not a boolean", vals[4]);
	d->deny_write = b;
	return 0;
}

/* Read the items: "key=value" (^([^=]+)=(.+)$), or the default key (path)
 * alone when an item has no "=". A key given twice is an error, except that
 * PVE lets a bare path replace a path= whose value is Perl-false ("0"). */
static int devn_items(char *copy, char **vals, struct lx_error *err)
{
	bool bare = false;
	char *save = NULL;
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (pve_blank(item))
			continue; /* PVE skips blank items, and strips nothing else */
		char *eq = strchr(item, '=');
		if (!eq) {
			if (bare || (vals[0] && strcmp(vals[0], "0") != 0))
				return lx_error_set(err, "path is given twice");
			bare = true;
			vals[0] = item;
			continue;
		}
		if (eq == item || !eq[1])
			return lx_error_set(err, "'%s' is not key=value", item);
		*eq = '\0';
		size_t k = 0;
		while (k < DEVN_KEYS && strcmp(item, devn_keys[k]) != 0)
			k++;
		if (k == DEVN_KEYS)
			return lx_error_set(err, "unknown option '%s'", item);
		if (vals[k])
			return lx_error_set(err, "%s is given twice", item);
		vals[k] = eq + 1;
	}
	return 0;
}

int lx_conf_devn_parse(const char *value, struct lx_devn *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	out->mode = -1, out->uid = -1, out->gid = -1;
	_cleanup_free_ char *copy = lx_xstrdup(value);
	char *vals[DEVN_KEYS] = {0};
	if (devn_items(copy, vals, err) < 0 || devn_check(out, vals, err) < 0) {
		lx_devn_free(out);
		return -1;
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
