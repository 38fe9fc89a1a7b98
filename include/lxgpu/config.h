/* config: container configs (Proxmox /etc/pve/lxc/<vmid>.conf and plain LXC
 * /var/lib/lxc/<name>/config), parsed line by line so that every byte can
 * be written back as it was.
 *
 * PVE's own parser (PVE::LXC::Config::parse_pct_config) is the reference:
 * "key: value" PVE keys, raw "lxc.x: v" / "lxc.x = v" keys in order, "#"
 * lines are the description, blank lines are skipped, and everything after
 * the first "[section]" line is a snapshot or pending change, not the live
 * config. */
#ifndef LXGPU_CONFIG_H
#define LXGPU_CONFIG_H

#include "lxgpu/util.h"

enum lx_conf_line_kind {
	LX_CONF_BLANK,
	LX_CONF_COMMENT,
	LX_CONF_SECTION, /* [snapname] or [pve:pending] */
	LX_CONF_PVE_KEY, /* key: value */
	LX_CONF_LXC_KEY, /* lxc.key: value or lxc.key = value */
	LX_CONF_INVALID, /* a line PVE would reject */
};

struct lx_conf_line {
	enum lx_conf_line_kind kind;
	int lineno;     /* 1-based */
	char *text;     /* the line's bytes, without its terminator */
	const char *eol; /* "\n", "\r\n" or "" (a last line without newline) */
	char *key;      /* PVE_KEY, LXC_KEY; the section name for SECTION */
	char *value;    /* stripped */
	int section;    /* -1: the live (main) config; else the index of its SECTION line */
};

struct lx_conf {
	char *path;
	struct lx_conf_line *lines;
	size_t n;
};

/* Parse text; never fails on content (bad lines are LX_CONF_INVALID). */
void lx_conf_parse(const char *path, const char *text, size_t len, struct lx_conf *conf);
int lx_conf_load(const char *path, struct lx_conf *conf, struct lx_error *err);
void lx_conf_free(struct lx_conf *conf);

/* The last value of a PVE key in the live section (PVE: last wins), or NULL. */
const char *lx_conf_get(const struct lx_conf *conf, const char *key);
/* True when the live section has any raw key starting with prefix. */
bool lx_conf_has_lxc_key(const struct lx_conf *conf, const char *prefix);

/* The path of a devN value ("[path=]/dev/x[,opt=v...]"), newly allocated. */
char *lx_conf_devn_path(const char *value);
/* devN index of a key ("dev3" -> 3), or -1 when the key is not devN. */
int lx_conf_devn_index(const char *key);

/* Where a container's config lives: <pve_dir>/lxc/<id>.conf when present,
 * else <lxc_path>/<id>/config. An error names both when neither exists. */
int lx_conf_find(const char *pve_dir, const char *lxc_path, const char *id, char **path,
		 bool *is_pve, struct lx_error *err);

#endif
