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
	size_t len;     /* of text (a line may hold NUL bytes; they make it invalid) */
	const char *eol; /* "\n", "\r\n" or "" (a last line without newline) */
	char *key;      /* PVE_KEY, LXC_KEY; the section name for SECTION */
	char *value;    /* as PVE stores it: stripped, but "tags: " gives " " (its regex
			 * keeps one character); lines split on "\n" only, so
			 * "tags:\r\n" gives "\r" */
	int section;    /* -1: the live (main) config; else the index of its SECTION line */
};

struct lx_conf {
	char *path;
	struct lx_conf_line *lines;
	size_t n;
};

/* Parse text; never fails on content (bad lines are LX_CONF_INVALID). */
void lx_conf_parse(const char *path, const char *text, size_t len, struct lx_conf *conf);
/* The text again: for an unedited parse, the very bytes it came from. */
char *lx_conf_serialize(const struct lx_conf *conf, size_t *len);
/* The first line of the live section PVE could not parse, or NULL. */
const struct lx_conf_line *lx_conf_first_invalid(const struct lx_conf *conf);
/* A line for a message: its bytes escaped (lx_text_escape_bytes: "\x00" for
 * NUL, invalid UTF-8 and controls as \xNN), its first 80 bytes only
 * (whole characters), "..." when cut. */
char *lx_conf_line_shown(const struct lx_conf_line *l);
/* "\r\n" when the file's lines mostly end so, else "\n". */
const char *lx_conf_eol(const struct lx_conf *conf);
int lx_conf_load(const char *path, struct lx_conf *conf, struct lx_error *err);
void lx_conf_free(struct lx_conf *conf);

/* The last value of a PVE key in the live section (PVE: last wins), or NULL. */
const char *lx_conf_get(const struct lx_conf *conf, const char *key);
/* The container's name as pct list and lxc-ls show it: PVE's hostname,
 * else the last lxc.uts.name of the live section; NULL when neither. */
const char *lx_conf_hostname(const struct lx_conf *conf);
/* True when the live section has any raw key starting with prefix. */
bool lx_conf_has_lxc_key(const struct lx_conf *conf, const char *prefix);

/* The path of a devN value ("[path=]/dev/x[,opt=v...]"), newly allocated;
 * NULL when the value does not parse (lx_conf_devn_parse). */
char *lx_conf_devn_path(const char *value);

/* A devN value as pve-container reads it ($dev_desc property string): items
 * "key=value" in any order, the default key (path) may stand alone anywhere. */
struct lx_devn {
	char *path;      /* required, under /dev/ */
	int mode;        /* -1: not given (PVE then makes the node 0660) */
	long long uid;   /* -1: not given (0); PVE takes any digits: saturates */
	long long gid;   /* -1: not given (0) */
	bool deny_write;
};
/* 0, or -1 with err naming what PVE would reject. */
int lx_conf_devn_parse(const char *value, struct lx_devn *out, struct lx_error *err);
void lx_devn_free(struct lx_devn *d);
/* The value of a devN entry as lxgpu writes one: "PATH[,gid=G][,mode=0MMM]
 * [,uid=U][,deny-write=1]" (the order generate's devn lines have). */
char *lx_devn_format(const struct lx_devn *d);

/* A PVE boolean (pve-common JSONSchema): 1/yes/true/on -> 1, 0/no/false/off
 * -> 0 (case-insensitive), anything else -> -1. */
int lx_pve_bool(const char *value);
/* The one privilege test: a container runs in a user namespace when its
 * config has lxc.idmap lines, or (PVE) "unprivileged:" is not a PVE false
 * (pve-container tests Perl truth: "maybe" counts); it then includes
 * userns.conf (PVE::LXC::update_lxc_config). */
bool lx_conf_unprivileged(const struct lx_conf *conf, bool is_pve);
/* devN index of a key ("dev3" -> 3), or -1 when the key is not devN. */
int lx_conf_devn_index(const char *key);

/* Where a container's config lives: <pve_dir>/lxc/<id>.conf when present,
 * else <lxc_path>/<id>/config. An error names both when neither exists. */
int lx_conf_find(const char *pve_dir, const char *lxc_path, const char *id, char **path,
		 bool *is_pve, struct lx_error *err);

/* The config with the lines flagged in drop[] (one flag per line) taken
 * out, lines with a replace[] text (NULL: none) rewritten in place, and
 * `lines` put in before line index insert_at (-1: after the live section's
 * last non-blank line); unprivileged: -1 leave the "unprivileged" key, 0
 * remove it, 1 set "unprivileged: 1". Every other line keeps its bytes and
 * its place. *removed counts dropped lines. Which lines are lxgpu's is
 * decided in src/access (lx_gpu_owned_line), never here. */
char *lx_conf_edit(const struct lx_conf *conf, const bool *drop, char *const *replace,
		   long insert_at, const struct lx_strv *lines, int unprivileged, size_t *len,
		   size_t *removed);
/* The same with lines put in at several places: inserts (conf->n + 1
 * lists) holds the lines that go before line i, inserts[conf->n] those at
 * the end; a new "unprivileged: 1" goes after the live section's last
 * non-blank line. */
char *lx_conf_edit_at(const struct lx_conf *conf, const bool *drop, const struct lx_strv *inserts,
		      int unprivileged, size_t *len, size_t *removed);

/* ---- changing a config safely ---- */

/* One container's config, locked for a change: PVE's flock on
 * <lock_dir>/pve-config-<vmid>.lock (plain LXC: the container directory). */
struct lx_conf_txn {
	char *id;
	char *path; /* the config, symlinks resolved */
	bool is_pve;
	int lock_fd;
	char *text; /* the config as read under the lock */
	size_t len;
	struct stat st;
};

struct lx_conf_txn_options {
	const char *pve_dir;
	const char *lxc_path;
	const char *lock_dir; /* PVE's: /run/lock/lxc */
	int lock_timeout_s;   /* PVE waits 10 s */
	bool no_lock;         /* read only (dry runs) */
};

/* Find the config, take the lock (waiting up to the timeout), read it. */
int lx_conf_txn_begin(const struct lx_conf_txn_options *opts, const char *id,
		      struct lx_conf_txn *txn, struct lx_error *err);
/* Replace the config with text: atomically, with the old file's mode and
 * owner, and only if nobody changed the file since it was read. The new
 * version is written to a temp file first; then before_replace (when set:
 * the backup) runs, and may veto; only then is the temp file renamed over
 * the config. A full disk or read-only directory thus fails before anything,
 * backup included, is written; and the backup and the rename are made
 * with interrupts held (lx_interrupt_hold): together or not at all. */
int lx_conf_txn_commit(struct lx_conf_txn *txn, const char *text, size_t len,
		       int (*before_replace)(void *ctx, struct lx_error *err), void *ctx,
		       struct lx_error *err);
void lx_conf_txn_end(struct lx_conf_txn *txn);

/* ---- backups: tar.gz of the old config, what replaced it, meta.yaml ---- */

struct lx_backup_meta {
	char *ctid;
	char *config_path;
	char *time; /* UTC, ISO 8601 */
	char *lxgpu_version;
	char *hostname;
	char *command;
	/* The config as lxgpu wrote it in place of the backed-up one (entry
	 * "written"); NULL when not given, and in backups made before lxgpu
	 * recorded it. */
	char *written;
	size_t written_len;
	/* What made it: "apply" or "rollback" (NULL in backups of an older
	 * lxgpu, which only apply made); a rollback's also names the backup
	 * whose change it undid (undoes), so that "rollback latest" steps back
	 * through applies instead of undoing the rollback. */
	char *action;
	char *undoes;
	/* lxgpu's include file (--style include), changed in the same
	 * transaction as the config: its path (NULL: not touched), its text
	 * before (entry "include.before"; NULL: there was none) and what was
	 * written in its place (entry "include.written"; NULL: removed). */
	char *include_path;
	char *include_before;
	size_t include_before_len;
	char *include_written;
	size_t include_written_len;
};

/* Store a backup of text under dir (made 0700 if missing); *name is its file name. */
int lx_backup_write(const char *dir, const char *text, size_t len,
		    const struct lx_backup_meta *meta, char **name, struct lx_error *err);
/* A container's backups in dir, oldest first (file names). */
int lx_backup_list(const char *dir, const char *ctid, struct lx_strv *names,
		   struct lx_error *err);
int lx_backup_read(const char *path, char **text, size_t *len, struct lx_backup_meta *meta,
		   struct lx_error *err);
/* The same from memory (the fuzz target's way in); path names it in errors. */
int lx_backup_read_buffer(const char *path, const char *data, size_t data_len, char **text,
			  size_t *len, struct lx_backup_meta *meta, struct lx_error *err);
void lx_backup_meta_free(struct lx_backup_meta *meta);
/* The backup "rollback latest" undoes: going from the newest back, a
 * rollback's backup marks the one it undid as done (unless that rollback
 * was itself undone), and the first apply's backup not done is it. *name:
 * NULL when every apply was undone (or there is none). */
int lx_backup_latest_apply(const char *dir, const char *ctid, char **name, struct lx_error *err);
/* Keep the newest `keep` backups of a container in dir (never removing
 * just_written, when given) and remove the temporary files of backup writes
 * that were interrupted (older than a minute). Paths removed go to removed
 * (may be NULL). */
int lx_backup_prune(const char *dir, const char *ctid, int keep, const char *just_written,
		    struct lx_strv *removed, struct lx_error *err);

/* ---- the styles lxgpu writes a container's GPU lines in ---- */

enum lx_style {
	LX_STYLE_DEVN, /* PVE >= 8.1 devN: lines */
	LX_STYLE_RAW,  /* lxc.cgroup*.devices.allow + lxc.mount.entry, PVE's "key: value" */
	LX_STYLE_LXC,  /* the same as plain LXC "key = value" lines */
	LX_STYLE_CDI,  /* a CDI spec for a runtime nested in the container */
	/* one lxc.include line; the rules and mounts live in lxgpu's include
	 * file, which ensure-nodes rewrites at boot with that boot's numbers */
	LX_STYLE_INCLUDE,
};

const char *lx_style_name(enum lx_style style);
bool lx_style_from_name(const char *name, enum lx_style *out);

#endif
