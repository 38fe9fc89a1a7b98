/* The effective access of a container: its next start, simulated.
 *
 * The order is pve-container's (PVE::LXC::update_lxc_config): the include
 * of <ostype>.common.conf (else common.conf), for unprivileged containers
 * <ostype>.userns.conf (else userns.conf), the fuse feature's mount, one
 * "lxc.cgroup2.devices.allow = TYPE MAJ:MIN rw|r" per devN (plus a deny of
 * "w" with deny-write), "deny c 5:1 rwm" without a console, PVE's default
 * idmap for unprivileged containers without their own, then the config's
 * raw lxc.* lines in their order. LXC then reads that file top to bottom. */
#include "lxgpu/access.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAX_INCLUDE_DEPTH 16
#define INCLUDE_MAX_SIZE (1u << 20)
#define PVE_ORIGIN "(pve-container)"

/* Used when LXC's own files are not on this machine (a snapshot read on a
 * laptop): the device lines of LXC's common.conf and userns.conf. */
static const char builtin_common_conf[] =
	"lxc.cgroup.devices.deny = a\n"
	"lxc.cgroup.devices.allow = c *:* m\n"
	"lxc.cgroup.devices.allow = b *:* m\n"
	"lxc.cgroup.devices.allow = c 1:3 rwm\n"
	"lxc.cgroup.devices.allow = c 1:5 rwm\n"
	"lxc.cgroup.devices.allow = c 1:7 rwm\n"
	"lxc.cgroup.devices.allow = c 5:0 rwm\n"
	"lxc.cgroup.devices.allow = c 5:1 rwm\n"
	"lxc.cgroup.devices.allow = c 5:2 rwm\n"
	"lxc.cgroup.devices.allow = c 1:8 rwm\n"
	"lxc.cgroup.devices.allow = c 1:9 rwm\n"
	"lxc.cgroup.devices.allow = c 136:* rwm\n"
	"lxc.cgroup.devices.allow = c 10:229 rwm\n"
	"lxc.cgroup2.devices.deny = a\n"
	"lxc.cgroup2.devices.allow = c *:* m\n"
	"lxc.cgroup2.devices.allow = b *:* m\n"
	"lxc.cgroup2.devices.allow = c 1:3 rwm\n"
	"lxc.cgroup2.devices.allow = c 1:5 rwm\n"
	"lxc.cgroup2.devices.allow = c 1:7 rwm\n"
	"lxc.cgroup2.devices.allow = c 5:0 rwm\n"
	"lxc.cgroup2.devices.allow = c 5:1 rwm\n"
	"lxc.cgroup2.devices.allow = c 5:2 rwm\n"
	"lxc.cgroup2.devices.allow = c 1:8 rwm\n"
	"lxc.cgroup2.devices.allow = c 1:9 rwm\n"
	"lxc.cgroup2.devices.allow = c 136:* rwm\n"
	"lxc.cgroup2.devices.allow = c 10:229 rwm\n";
static const char builtin_userns_conf[] = "lxc.cgroup.devices.deny =\n"
					  "lxc.cgroup.devices.allow =\n"
					  "lxc.cgroup2.devices.deny =\n"
					  "lxc.cgroup2.devices.allow =\n";
/* pve-container installs userns.conf.d/01-pve.conf (its lxc-pve-userns.conf):
 * after the reset it makes the v2 device list a deny-list, so in PVE's
 * unprivileged containers allow rules change nothing. Every host that
 * starts PVE containers has it; a machine that only reads their configs
 * (a snapshot on a laptop, plain Debian LXC) may not. */
static const char pve_userns_conf_d[] = "userns.conf.d/01-pve.conf";
static const char builtin_pve_userns_conf[] = "lxc.cgroup2.devices.deny =\n"
					      "lxc.cgroup2.devices.allow =\n"
					      "lxc.cgroup2.devices.allow = a\n";

void lx_access_options_default(struct lx_access_options *opts)
{
	/* Every field zero first: a field added later is never garbage. */
	*opts = (struct lx_access_options){
		.lxc_config_dir = "/usr/share/lxc/config",
		.cgroup = LX_CGROUP_UNKNOWN,
	};
}

/* One include path as LXC finds it: a directory (its *.conf, sorted), a
 * file (its text), or neither. */
enum lxc_file_kind { LXC_FILE_MISSING, LXC_FILE_TEXT, LXC_FILE_DIR };
struct lxc_entry {
	char *key, *value; /* both stripped, as read_lxc_text gives them */
	int line;
};
struct lx_lxc_file {
	char *path;
	enum lxc_file_kind kind;
	bool exists; /* LXC_FILE_MISSING: something is there, unreadable */
	char *text;
	struct lx_strv names;
	/* LXC_FILE_TEXT in the cache: its "key = value" lines, split once */
	struct lxc_entry *entries;
	size_t n_entries;
	bool split;
};

static void prefix_free(struct lx_lxc_prefix *p);

void lx_lxc_files_free(struct lx_lxc_files *c)
{
	for (size_t i = 0; i < c->n_prefixes; i++)
		prefix_free(c->prefixes[i]);
	free(c->prefixes);
	c->prefixes = NULL;
	c->n_prefixes = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct lx_lxc_file *f = c->items[i];
		free(f->path);
		free(f->text);
		lx_strv_free(&f->names);
		for (size_t e = 0; e < f->n_entries; e++) {
			free(f->entries[e].key);
			free(f->entries[e].value);
		}
		free(f->entries);
		free(f);
	}
	free(c->items);
	c->items = NULL;
	c->n = 0;
}

const char *lx_rule_fate_name(enum lx_rule_fate f)
{
	static const char *const names[] = {"applied", "wrong-version", "cleared", "reset",
					     "invalid"};
	return names[f];
}

/* A mount entry as LXC reads it (fstab fields). */
struct mount_entry {
	const char *file;
	int line;
	char *source;
	char *target; /* relative to the rootfs, no leading '/' */
	bool bind, optional, create, absolute_outside;
};

/* A devN entry whose node lxc-pve-autodev-hook makes (after the mounts). */
struct devn_entry {
	const char *key; /* "dev0" (the config's, alive during the simulation) */
	char *path;      /* inside the container, as written */
	const struct lx_dev_node *host_node;
	int line;
	unsigned mode;
	long long uid, gid;
};

struct sim {
	const struct lx_host *host;
	const struct lx_access_options *opts;
	struct lx_access *out;
	struct lx_strv files; /* include paths read, owned (entries point into it) */
	size_t *pending[2];   /* device rules LXC holds, per version (0: v1, 1: v2) */
	size_t n_pending[2];
	struct mount_entry *mounts;
	size_t n_mounts;
	struct devn_entry *devns; /* PVE's devN nodes, made by its autodev hook */
	size_t n_devns;
	bool autodev;
	bool builtin; /* reading a built-in stand-in for LXC's own file */
	const char *conf_file; /* the config's name, owned by files (outlives conf) */
	struct lx_error *err;
};

/* What the simulation holds besides out (files excepted: out keeps them). */
static void sim_free(struct sim *s)
{
	for (size_t i = 0; i < s->n_mounts; i++) {
		free(s->mounts[i].source);
		free(s->mounts[i].target);
	}
	free(s->mounts);
	for (size_t i = 0; i < s->n_devns; i++)
		free(s->devns[i].path);
	free(s->devns);
	free(s->pending[0]);
	free(s->pending[1]);
}

static void add_failure(struct lx_access *a, const char *file, int line, const char *path,
			char *message)
{
	a->failures = lx_xrealloc(a->failures, (a->n_failures + 1) * sizeof(*a->failures));
	a->failures[a->n_failures++] = (struct lx_start_failure){
		.file = file, .line = line, .path = path ? lx_xstrdup(path) : NULL, .message = message};
}

/* "lxc.cgroup2.devices.allow" -> version index 1, "devices.allow". */
static bool device_key(const char *key, int *version, const char **sub)
{
	if (lx_str_starts_with(key, "lxc.cgroup2.")) {
		*version = 1, *sub = key + strlen("lxc.cgroup2.");
	} else if (lx_str_starts_with(key, "lxc.cgroup.")) {
		*version = 0, *sub = key + strlen("lxc.cgroup.");
	} else {
		return false;
	}
	return strcmp(*sub, "devices.allow") == 0 || strcmp(*sub, "devices.deny") == 0;
}

static void clear_pending(struct sim *s, int version, const char *key)
{
	size_t kept = 0;
	for (size_t i = 0; i < s->n_pending[version]; i++) {
		struct lx_access_rule *r = &s->out->rules[s->pending[version][i]];
		if (key && strcmp(r->key, key) != 0) {
			s->pending[version][kept++] = s->pending[version][i];
			continue;
		}
		r->fate = LX_RULE_CLEARED;
	}
	s->n_pending[version] = kept;
}

static void add_device_rule(struct sim *s, int version, const char *key, const char *value,
			    const char *file, int line, bool from_config)
{
	struct lx_access *a = s->out;
	a->rules = lx_xgrow(a->rules, a->n_rules, sizeof(*a->rules));
	struct lx_access_rule *r = &a->rules[a->n_rules];
	memset(r, 0, sizeof(*r));
	r->file = file, r->line = line, r->from_config = from_config;
	/* The key is one of the four device keys: LXC's spelling, not a copy. */
	static const char *const keys[2][2] = {
		{"lxc.cgroup.devices.allow", "lxc.cgroup.devices.deny"},
		{"lxc.cgroup2.devices.allow", "lxc.cgroup2.devices.deny"}};
	r->key = keys[version][!lx_str_ends_with(key, ".allow")];
	r->value = lx_xstrdup(value);
	s->pending[version] = lx_xgrow(s->pending[version], s->n_pending[version], sizeof(size_t));
	s->pending[version][s->n_pending[version]++] = a->n_rules++;
}

/* Unescape fstab's octal escapes ("\040" is a blank). */
static char *fstab_field(const char **p)
{
	while (isspace((unsigned char)**p))
		(*p)++;
	struct lx_buf b = {0};
	const char *run = *p; /* bytes taken as they are, appended at once */
	while (**p && !isspace((unsigned char)**p)) {
		const char *q = *p;
		if (q[0] == '\\' && q[1] >= '0' && q[1] <= '3' && q[2] >= '0' && q[2] <= '7' &&
		    q[3] >= '0' && q[3] <= '7') {
			lx_buf_append(&b, run, (size_t)(q - run));
			char c = (char)((q[1] - '0') * 64 + (q[2] - '0') * 8 + (q[3] - '0'));
			lx_buf_append(&b, &c, 1);
			*p += 4;
			run = *p;
			continue;
		}
		(*p)++;
	}
	if (*p > run)
		lx_buf_append(&b, run, (size_t)(*p - run));
	return b.data ? lx_buf_steal(&b) : NULL;
}

static bool has_option(const char *opts, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = opts; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len >= n && strncmp(p, name, n) == 0 && (len == n || p[n] == '='))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

static void add_mount(struct sim *s, const char *value, const char *file, int line,
		      const char *rootfs)
{
	const char *p = value;
	char *source = fstab_field(&p), *target = fstab_field(&p), *type = fstab_field(&p),
	     *opts = fstab_field(&p);
	if (source && target) {
		struct mount_entry m = {.file = file, .line = line, .source = source};
		m.bind = has_option(opts, "bind") || has_option(opts, "rbind");
		m.optional = has_option(opts, "optional");
		m.create = has_option(opts, "create");
		if (target[0] == '/') {
			/* LXC: an absolute target must lie under the rootfs, else it is
			 * ignored ("Ignoring mount point"). */
			size_t n = rootfs ? strlen(rootfs) : 0;
			if (n && strncmp(target, rootfs, n) == 0 && (target[n] == '/' || !target[n]))
				m.target = lx_xstrdup(target + n + (target[n] == '/'));
			else
				m.absolute_outside = true, m.target = lx_xstrdup(target);
		} else {
			m.target = lx_xstrdup(target);
		}
		free(target);
		s->mounts = lx_xrealloc(s->mounts, (s->n_mounts + 1) * sizeof(*s->mounts));
		s->mounts[s->n_mounts++] = m;
	} else {
		free(source);
		free(target);
	}
	free(type);
	free(opts);
}

static void add_idmap(struct sim *s, const char *value, const char *file, int line)
{
	struct lx_access *a = s->out;
	if (!*value) {
		a->n_idmap = 0; /* an empty value clears the map */
		return;
	}
	char kind;
	unsigned long long ns, host, count;
	if (sscanf(value, " %c %llu %llu %llu", &kind, &ns, &host, &count) != 4)
		return;
	for (int k = 0; k < 2; k++) {
		char each = kind == 'b' ? (k ? 'g' : 'u') : kind;
		if (kind != 'b' && k)
			break;
		a->idmap = lx_xrealloc(a->idmap, (a->n_idmap + 1) * sizeof(*a->idmap));
		a->idmap[a->n_idmap++] = (struct lx_idmap_range){each, ns, host, count, file, line};
	}
}

static int read_lxc_file(struct sim *s, const char *path, int depth, bool builtin_ok,
			 const char *from, int from_line);

/* A cgroup v1 key ("lxc.cgroup.devices.allow", "lxc.cgroup" itself), which
 * LXC 7.0 removed: its config parser (confile.c) knows only lxc.cgroup.dir*
 * and lxc.cgroup.relative under "lxc.cgroup". */
static bool cgroup_v1_key(const char *key)
{
	if (strcmp(key, "lxc.cgroup") == 0)
		return true;
	return lx_str_starts_with(key, "lxc.cgroup.") && !lx_str_starts_with(key, "lxc.cgroup.dir") &&
	       strcmp(key, "lxc.cgroup.relative") != 0;
}

/* One of the files LXC itself installs in its config dir: common.conf,
 * userns.conf and the per-distribution ones (debian.common.conf). */
static bool lxc_shipped_file(const struct sim *s, const char *file)
{
	const char *dir = s->opts->lxc_config_dir;
	size_t n = dir ? strlen(dir) : 0;
	if (!n || strncmp(file, dir, n) != 0 || file[n] != '/' || strchr(file + n + 1, '/'))
		return false;
	return lx_str_ends_with(file, "common.conf") || lx_str_ends_with(file, "userns.conf");
}

/* One "key = value" line, as LXC handles it at its place in the order. */
static int handle_entry(struct sim *s, const char *key, const char *value, const char *file,
			int line, bool from_config, int depth)
{
	int version;
	const char *sub;
	if (strcmp(key, "lxc.include") == 0)
		return read_lxc_file(s, value, depth + 1, false, file, line);
	if (cgroup_v1_key(key) && lx_host_lxc_major(s->host) >= 7) {
		/* LXC's own common.conf and userns.conf are those of the version
		 * installed: LXC 7's have no v1 key, and the built-in ones, or an
		 * older LXC's read here for another host's model, are not the
		 * host's. A line the user or Proxmox wrote fails the start. */
		if (!s->builtin && !lxc_shipped_file(s, file))
			add_failure(s->out, file, line, NULL,
				    lx_xasprintf("Unsupported config key \"%s\": LXC %s refuses the "
						 "config (\"Failed to parse config file\"): the container "
						 "does not start; LXC 7 has no cgroup v1 keys: write "
						 "lxc.cgroup2%s instead",
						 key, s->host->lxc_version, key + strlen("lxc.cgroup")));
		return 0;
	}
	if ((strcmp(key, "lxc.cgroup") == 0 || strcmp(key, "lxc.cgroup2") == 0) && !*value) {
		clear_pending(s, key[10] == '2', NULL);
	} else if (device_key(key, &version, &sub)) {
		if (!*value)
			clear_pending(s, version, key);
		else
			add_device_rule(s, version, key, value, file, line, from_config);
	} else if (strcmp(key, "lxc.mount.entry") == 0) {
		add_mount(s, value, file, line, NULL);
	} else if (strcmp(key, "lxc.idmap") == 0) {
		add_idmap(s, value, file, line);
	} else if (strcmp(key, "lxc.autodev") == 0) {
		s->autodev = strcmp(value, "0") != 0;
	} else {
		lx_nvhook_entry(s->out, key, value, file, line);
	}
	return 0;
}

/* Lines of an LXC-format file ("key = value"; "#" comments). */
/* The next "key = value" line of *p (LXC's syntax: blank lines, comments
 * and lines without '=' skipped), stripped, in *l (owned); *lineno counts
 * every line. false at the end of the text. */
static bool next_lxc_line(const char **p, int *lineno, char **l, char **key, char **value)
{
	while (**p) {
		size_t len = strcspn(*p, "\n");
		*l = lx_str_strip(lx_xstrndup(*p, len));
		*p += len + ((*p)[len] == '\n');
		++*lineno;
		char *eq = strchr(*l, '=');
		if (!**l || (*l)[0] == '#' || !eq) {
			free(*l);
			*l = NULL;
			continue;
		}
		*eq = '\0';
		*key = lx_str_strip(*l);
		*value = lx_str_strip(eq + 1);
		return true;
	}
	return false;
}

static int read_lxc_text(struct sim *s, const char *file, const char *text, int depth)
{
	int lineno = 0;
	char *l, *key, *value;
	while (next_lxc_line(&text, &lineno, &l, &key, &value)) {
		int rc = handle_entry(s, key, value, file, lineno, false, depth);
		free(l);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* A cached file's lines, split on first use and then read from there:
 * what read_lxc_text does, without splitting the same text again for
 * every container. */
static int read_lxc_entries(struct sim *s, const char *file, struct lx_lxc_file *f, int depth)
{
	if (!f->split) {
		const char *p = f->text;
		int lineno = 0;
		char *l, *key, *value;
		while (next_lxc_line(&p, &lineno, &l, &key, &value)) {
			f->entries = lx_xrealloc(f->entries, (f->n_entries + 1) * sizeof(*f->entries));
			f->entries[f->n_entries++] =
				(struct lxc_entry){lx_xstrdup(key), lx_xstrdup(value), lineno};
			free(l);
		}
		f->split = true;
	}
	for (size_t i = 0; i < f->n_entries; i++)
		if (handle_entry(s, f->entries[i].key, f->entries[i].value, file, f->entries[i].line,
				 false, depth) < 0)
			return -1;
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What is at path, read from disk: a directory's *.conf names (LXC reads
 * every one of an included directory, in this order), a file's text. An
 * unreadable file counts as missing. */
static void lxc_file_read(const char *path, struct lx_lxc_file *f)
{
	f->kind = LXC_FILE_MISSING;
	f->exists = true;
	f->text = NULL;
	f->names = (struct lx_strv){0};
	DIR *dir = opendir(path);
	if (dir) {
		struct dirent *de;
		while ((de = readdir(dir)))
			if (lx_str_ends_with(de->d_name, ".conf"))
				lx_strv_push(&f->names, de->d_name);
		closedir(dir);
		if (f->names.n > 1)
			qsort(f->names.items, f->names.n, sizeof(char *), compare_names);
		f->kind = LXC_FILE_DIR;
		return;
	}
	size_t len;
	struct lx_error ignored = {0};
	if (lx_read_file_optional(path, INCLUDE_MAX_SIZE, &f->text, &len, &ignored) < 0 || !f->text) {
		lx_error_clear(&ignored);
		free(f->text);
		f->text = NULL;
		struct stat st;
		f->exists = stat(path, &st) == 0;
		return;
	}
	f->kind = LXC_FILE_TEXT;
}

/* One of LXC's shared files (under lxc_config_dir) from the run's cache,
 * read on first use; any other path, or any path without a cache, read
 * now into *scratch (freed with lxc_file_scratch_free). */
static struct lx_lxc_file *lxc_file_get(const struct sim *s, const char *path,
					struct lx_lxc_file *scratch)
{
	struct lx_lxc_files *c = s->opts->shared;
	const char *dir = s->opts->lxc_config_dir;
	size_t n = dir ? strlen(dir) : 0;
	bool shared = c && n && strncmp(path, dir, n) == 0 && (path[n] == '/' || dir[n - 1] == '/');
	if (!shared) {
		lxc_file_read(path, scratch);
		return scratch;
	}
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->items[i]->path, path) == 0)
			return c->items[i];
	/* Its own allocation: an include read while this one is being read
	 * (debian.common.conf's of common.conf) adds to the list. */
	struct lx_lxc_file *f = lx_xcalloc(1, sizeof(*f));
	c->items = lx_xrealloc(c->items, (c->n + 1) * sizeof(*c->items));
	c->items[c->n++] = f;
	f->path = lx_xstrdup(path);
	lxc_file_read(path, f);
	return f;
}

static void lxc_file_scratch_free(struct lx_lxc_file *scratch, const struct lx_lxc_file *got)
{
	if (got != scratch)
		return;
	free(scratch->text);
	lx_strv_free(&scratch->names);
}

static int read_lxc_file(struct sim *s, const char *path, int depth, bool builtin_ok,
			 const char *from, int from_line)
{
	if (depth > MAX_INCLUDE_DEPTH)
		return lx_error_set(s->err, "%s: lxc.include nests deeper than %d levels", path,
				    MAX_INCLUDE_DEPTH);
	lx_strv_push(&s->files, path);
	const char *file = s->files.items[s->files.n - 1];
	if (s->opts->include_path && strcmp(path, s->opts->include_path) == 0)
		return read_lxc_text(s, file, s->opts->include_text, depth);
	struct lx_lxc_file scratch = {0};
	struct lx_lxc_file *f = lxc_file_get(s, path, &scratch);
	int rc = 0;
	if (f->kind == LXC_FILE_DIR) {
		for (size_t i = 0; i < f->names.n && rc == 0; i++) {
			_cleanup_free_ char *child = lx_path_join(path, f->names.items[i]);
			rc = read_lxc_file(s, child, depth + 1, false, file, 0);
		}
	} else if (f->kind == LXC_FILE_TEXT && f != &scratch) {
		rc = read_lxc_entries(s, file, f, depth);
	} else if (f->kind == LXC_FILE_TEXT) {
		rc = read_lxc_text(s, file, f->text, depth);
	} else if (builtin_ok) {
		bool userns = lx_str_ends_with(path, "userns.conf");
		s->builtin = true;
		rc = read_lxc_text(s, file, userns ? builtin_userns_conf : builtin_common_conf, depth);
		s->builtin = false;
	} else if (!lx_str_ends_with(path, "/")) {
		/* LXC (confile.c set_config_includefiles) takes a value ending in
		 * '/' as a directory and skips a missing one (userns.conf's
		 * userns.conf.d/); a missing file fails the config ("Failed to
		 * parse config file"): the container does not start. */
		add_failure(s->out, from ? from : file, from_line, path,
			    lx_xasprintf("lxc.include %s: the file does not exist, and LXC refuses "
					 "the config (\"Failed to parse config file\"): the container "
					 "does not start",
					 path));
	}
	lxc_file_scratch_free(&scratch, f);
	return rc;
}

/* <dir>/<ostype>.<name>.conf when it exists, else <dir>/<name>.conf. */
static char *pve_include(const struct sim *s, const char *ostype, const char *name)
{
	if (ostype) {
		char *p = lx_xasprintf("%s/%s.%s.conf", s->opts->lxc_config_dir, ostype, name);
		struct lx_lxc_file scratch = {0};
		const struct lx_lxc_file *f = lxc_file_get(s, p, &scratch);
		bool exists = f->exists; /* as stat(2) says */
		lxc_file_scratch_free(&scratch, f);
		if (exists)
			return p;
		free(p);
	}
	return lx_xasprintf("%s/%s.conf", s->opts->lxc_config_dir, name);
}

/* ---- devN ---- */

/* The host node a path names: itself, or a GPU DRM by-path link. */
static const struct lx_dev_node *resolve_host_node(const struct lx_host *h, const char *path)
{
	const struct lx_dev_node *n = lx_host_find_node(h, path);
	if (n || !lx_str_starts_with(path, "/dev/dri/by-path/"))
		return n;
	const char *link = path + strlen("/dev/dri/by-path/");
	for (size_t i = 0; i < h->n_gpus; i++)
		for (size_t d = 0; d < h->gpus[i].n_drm; d++)
			if (h->gpus[i].drm[d].by_path && strcmp(h->gpus[i].drm[d].by_path, link) == 0) {
				_cleanup_free_ char *target =
					lx_xasprintf("/dev/dri/%s", h->gpus[i].drm[d].name);
				return lx_host_find_node(h, target);
			}
	return NULL;
}

/* Whether the host model knows every node under this path, so that a path
 * it lacks is missing on the host: /dev/nvidia* is scanned whole, and the
 * NVIDIA GPUs' DRM nodes and by-path links. Other paths (a USB serial, an
 * iGPU's renderD128) lxgpu cannot judge. */
static bool host_knows(const struct lx_host *h, const char *path)
{
	if (lx_str_starts_with(path, "/dev/nvidia"))
		return true;
	if (strcmp(path, "/dev/kfd") == 0)
		for (size_t i = 0; i < h->n_gpus; i++)
			if (lx_gpu_needs_kfd(&h->gpus[i]))
				return true;
	for (size_t i = 0; i < h->n_gpus; i++) {
		if (!lx_gpu_usable(&h->gpus[i]))
			continue;
		_cleanup_free_ char *by_path = lx_xasprintf("/dev/dri/by-path/pci-%s-", h->gpus[i].bdf);
		if (lx_str_starts_with(path, by_path))
			return true;
		for (size_t d = 0; d < h->gpus[i].n_drm; d++) {
			_cleanup_free_ char *p = lx_xasprintf("/dev/dri/%s", h->gpus[i].drm[d].name);
			if (strcmp(p, path) == 0)
				return true;
		}
	}
	return false;
}

static char node_type_char(const struct lx_dev_node *n)
{
	return n->type == LX_NODE_BLOCK ? 'b' : 'c';
}

static struct lx_access_node *add_node(struct lx_access *a, const char *path,
				       const struct lx_dev_node *host_node, enum lx_grant_via via,
				       int line)
{
	/* A later mount over the same path wins, as it does in the container (a
	 * devN path already there fails the start instead: pve_autodev_hook). */
	struct lx_access_node *n = (struct lx_access_node *)lx_access_find(a, path);
	if (n) {
		free(n->host_path);
	} else {
		a->nodes = lx_xgrow(a->nodes, a->n_nodes, sizeof(*a->nodes));
		n = &a->nodes[a->n_nodes++];
		memset(n, 0, sizeof(*n));
		n->path = lx_xstrdup(path);
	}
	n->host_path = lx_xstrdup(host_node->path);
	n->via = via, n->line = line;
	n->type = node_type_char(host_node);
	n->major = host_node->major, n->minor = host_node->minor;
	return n;
}

static void pve_devices(struct sim *s, const struct lx_conf *conf)
{
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind != LX_CONF_PVE_KEY || lx_conf_devn_index(l->key) < 0)
			continue;
		struct lx_devn d;
		struct lx_error err = {0};
		if (lx_conf_devn_parse(l->value, &d, &err) < 0) {
			add_failure(s->out, s->conf_file, l->lineno, NULL,
				    lx_xasprintf("%s: %s: PVE refuses to start the container",
						 l->key, err.message));
			lx_error_clear(&err);
			continue;
		}
		/* PVE stats the path, following a by-path link (lxc-pve-prestart-hook). */
		const struct lx_dev_node *hn = resolve_host_node(s->host, d.path);
		if (!hn && host_knows(s->host, d.path)) {
			add_failure(s->out, s->conf_file, l->lineno, d.path,
				    lx_xasprintf("Device %s does not exist", d.path));
		} else if (hn) {
			char type = node_type_char(hn);
			_cleanup_free_ char *allow =
				lx_xasprintf("%c %u:%u %s", type, hn->major, hn->minor,
					     d.deny_write ? "r" : "rw");
			add_device_rule(s, 1, "lxc.cgroup2.devices.allow", allow, s->conf_file, l->lineno,
					true);
			if (d.deny_write) {
				_cleanup_free_ char *deny =
					lx_xasprintf("%c %u:%u w", type, hn->major, hn->minor);
				add_device_rule(s, 1, "lxc.cgroup2.devices.deny", deny, s->conf_file,
						l->lineno, true);
			}
			s->devns = lx_xgrow(s->devns, s->n_devns, sizeof(*s->devns));
			s->devns[s->n_devns++] = (struct devn_entry){
				.key = l->key,
				.path = lx_xstrdup(d.path),
				.host_node = hn,
				.line = l->lineno,
				.mode = d.mode >= 0 ? (unsigned)d.mode : 0660,
				.uid = d.uid >= 0 ? d.uid : 0,
				.gid = d.gid >= 0 ? d.gid : 0,
			};
		} else {
			/* A device lxgpu cannot see (a USB serial): PVE's rule for it
			 * still counts in the list, as one no node lxgpu knows matches. */
			_cleanup_free_ char *allow = lx_xasprintf("c ?:? %s (the numbers of %s)",
								  d.deny_write ? "r" : "rw", d.path);
			add_device_rule(s, 1, "lxc.cgroup2.devices.allow", allow, s->conf_file, l->lineno,
					true);
			s->out->rules[s->out->n_rules - 1].unknown_device = true;
		}
		lx_devn_free(&d);
	}
}

/* ---- the simulation ---- */

/* LXC's shared files as pve-container includes them first: the common
 * part, for an unprivileged container the userns part and PVE's own. */
static int pve_shared_files(struct sim *s, const char *ostype)
{
	_cleanup_free_ char *common = pve_include(s, ostype, "common");
	if (read_lxc_file(s, common, 0, true, NULL, 0) < 0)
		return -1;
	if (!s->out->unprivileged)
		return 0;
	_cleanup_free_ char *userns = pve_include(s, ostype, "userns");
	if (read_lxc_file(s, userns, 0, true, NULL, 0) < 0)
		return -1;
	bool read_pve_part = false;
	for (size_t i = 0; i < s->files.n; i++)
		read_pve_part |= lx_str_ends_with(s->files.items[i], pve_userns_conf_d) &&
				 access(s->files.items[i], R_OK) == 0;
	if (!read_pve_part && read_lxc_text(s, PVE_ORIGIN, builtin_pve_userns_conf, 0) < 0)
		return -1;
	return 0;
}

/* ---- LXC's shared files, simulated once per run ----
 *
 * What they leave (the device rules LXC holds, mounts, an id map, hook and
 * environment lines, failures) depends on nothing of the container but its
 * ostype and privilege, so a run over many containers simulates them once
 * for each pair (kept in lx_lxc_files) and every container's simulation
 * starts from a copy: the same state, at a fraction of the cost. */
struct lx_lxc_prefix {
	char *config_dir, *ostype; /* what it is for (NULL: none) */
	bool unprivileged;
	char *error;        /* the shared files fail every start: the message */
	struct sim s;       /* its files, pending rules, mounts, autodev */
	struct lx_access a; /* its rules, id map, failures, hook lines */
};

static void prefix_free(struct lx_lxc_prefix *p)
{
	free(p->config_dir);
	free(p->ostype);
	free(p->error);
	sim_free(&p->s);
	lx_strv_free(&p->s.files);
	lx_access_free(&p->a);
	free(p);
}

static bool same_or_null(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static struct lx_lxc_prefix *prefix_build(const struct sim *from, const char *ostype)
{
	struct lx_lxc_prefix *p = lx_xcalloc(1, sizeof(*p));
	p->config_dir = from->opts->lxc_config_dir ? lx_xstrdup(from->opts->lxc_config_dir) : NULL;
	p->ostype = ostype ? lx_xstrdup(ostype) : NULL;
	p->unprivileged = p->a.unprivileged = from->out->unprivileged;
	p->a.keys = from->out->keys;
	struct lx_error err = {0};
	p->s = (struct sim){.host = from->host, .opts = from->opts, .out = &p->a, .autodev = true,
			    .err = &err};
	if (pve_shared_files(&p->s, ostype) < 0)
		p->error = err.message;
	/* Kept beyond this container: nothing of its own. */
	p->s.host = NULL, p->s.opts = NULL, p->s.out = NULL, p->s.err = NULL;
	return p;
}

/* The prefix for this container: the run's, simulated on first use;
 * without a run's cache (or with an include read as other text: apply's),
 * simulated now (*built: the caller frees it). */
static const struct lx_lxc_prefix *prefix_get(const struct sim *s, const char *ostype,
					      struct lx_lxc_prefix **built)
{
	struct lx_lxc_files *c = s->opts->shared;
	*built = NULL;
	if (!c || s->opts->include_path)
		return *built = prefix_build(s, ostype);
	for (size_t i = 0; i < c->n_prefixes; i++) {
		const struct lx_lxc_prefix *p = c->prefixes[i];
		if (p->unprivileged == s->out->unprivileged && same_or_null(p->ostype, ostype) &&
		    same_or_null(p->config_dir, s->opts->lxc_config_dir))
			return p;
	}
	struct lx_lxc_prefix *p = prefix_build(s, ostype);
	c->prefixes = lx_xgrow(c->prefixes, c->n_prefixes, sizeof(*c->prefixes));
	c->prefixes[c->n_prefixes++] = p;
	return p;
}

/* A file name of the prefix as the container's copy has it (at base in its
 * files); PVE's own lines keep their literal name. */
static const char *prefix_file(const struct lx_lxc_prefix *p, const struct sim *s, size_t base,
			       const char *file)
{
	for (size_t i = 0; i < p->s.files.n; i++)
		if (file == p->s.files.items[i])
			return s->files.items[base + i];
	return file;
}

static char *strdup_or_null(const char *v)
{
	return v ? lx_xstrdup(v) : NULL;
}

/* The container's simulation takes the prefix's state: s has read nothing
 * but its config's name yet. */
static void prefix_copy(struct sim *s, const struct lx_lxc_prefix *p)
{
	struct lx_access *a = s->out;
	const struct lx_access *b = &p->a;
	size_t base = s->files.n;
	for (size_t i = 0; i < p->s.files.n; i++)
		lx_strv_push(&s->files, p->s.files.items[i]);
	if (b->n_rules) {
		a->rules = lx_xgrow_copy(b->rules, b->n_rules, sizeof(*a->rules));
		for (size_t i = 0; i < b->n_rules; i++) {
			a->rules[i].file = prefix_file(p, s, base, b->rules[i].file);
			a->rules[i].value = lx_xstrdup(b->rules[i].value);
		}
		a->n_rules = b->n_rules;
	}
	for (int v = 0; v < 2; v++) {
		if (!p->s.n_pending[v])
			continue;
		s->pending[v] = lx_xgrow_copy(p->s.pending[v], p->s.n_pending[v], sizeof(size_t));
		s->n_pending[v] = p->s.n_pending[v];
	}
	if (p->s.n_mounts) {
		s->mounts = lx_xmalloc(p->s.n_mounts * sizeof(*s->mounts));
		for (size_t i = 0; i < p->s.n_mounts; i++) {
			s->mounts[i] = p->s.mounts[i];
			s->mounts[i].file = prefix_file(p, s, base, p->s.mounts[i].file);
			s->mounts[i].source = lx_xstrdup(p->s.mounts[i].source);
			s->mounts[i].target = lx_xstrdup(p->s.mounts[i].target);
		}
		s->n_mounts = p->s.n_mounts;
	}
	s->autodev = p->s.autodev;
	if (b->n_idmap) {
		a->idmap = lx_xmalloc(b->n_idmap * sizeof(*a->idmap));
		for (size_t i = 0; i < b->n_idmap; i++) {
			a->idmap[i] = b->idmap[i];
			a->idmap[i].file = prefix_file(p, s, base, b->idmap[i].file);
		}
		a->n_idmap = b->n_idmap;
	}
	if (b->n_failures) {
		a->failures = lx_xmalloc(b->n_failures * sizeof(*a->failures));
		for (size_t i = 0; i < b->n_failures; i++) {
			const struct lx_start_failure *f = &b->failures[i];
			a->failures[i] = (struct lx_start_failure){
				.file = prefix_file(p, s, base, f->file), .line = f->line,
				.path = strdup_or_null(f->path), .message = strdup_or_null(f->message),
				.fix = strdup_or_null(f->fix)};
		}
		a->n_failures = b->n_failures;
	}
	lx_nvhook_copy_lines(&a->nvhook, &b->nvhook);
	a->nvhook.file = prefix_file(p, s, base, a->nvhook.file);
	for (size_t i = 0; i < a->nvhook.n_env; i++)
		a->nvhook.env[i].file = prefix_file(p, s, base, a->nvhook.env[i].file);
}

static int simulate_pve(struct sim *s, const struct lx_conf *conf)
{
	const char *ostype = lx_conf_get(conf, "ostype");
	struct lx_lxc_prefix *built;
	const struct lx_lxc_prefix *p = prefix_get(s, ostype, &built);
	int rc = p->error ? lx_error_set(s->err, "%s", p->error) : 0;
	if (rc == 0)
		prefix_copy(s, p);
	if (built)
		prefix_free(built);
	if (rc < 0)
		return -1;
	const char *features = lx_conf_get(conf, "features");
	if (features && (strstr(features, "fuse=1") || strstr(features, "fuse=on")))
		add_mount(s, "/dev/fuse dev/fuse none bind,create=file 0 0", PVE_ORIGIN, 0, NULL);
	pve_devices(s, conf);
	const char *console = lx_conf_get(conf, "console");
	if (console && lx_pve_bool(console) == 0)
		add_device_rule(s, 1, "lxc.cgroup2.devices.deny", "c 5:1 rwm", PVE_ORIGIN, 0, false);
	if (s->out->unprivileged && !lx_conf_has_lxc_key(conf, "lxc.idmap")) {
		add_idmap(s, "u 0 100000 65536", PVE_ORIGIN, 0);
		add_idmap(s, "g 0 100000 65536", PVE_ORIGIN, 0);
	}
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind == LX_CONF_LXC_KEY &&
		    handle_entry(s, l->key, l->value, s->conf_file, l->lineno, true, 0) < 0)
			return -1;
	}
	return 0;
}

static int simulate_lxc(struct sim *s, const struct lx_conf *conf)
{
	for (size_t i = 0; i < conf->n; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind == LX_CONF_LXC_KEY &&
		    handle_entry(s, l->key, l->value, s->conf_file, l->lineno, true, 0) < 0)
			return -1;
	}
	return 0;
}

/* LXC's other form of a cgroup2 allow rule: "PATH ACCESS" (the device's
 * type and numbers from a stat of PATH when the container starts). The host
 * model answers for the paths it knows; a device it cannot see matches no
 * node it knows. False when LXC would refuse the value. */
static bool devpath_rule(const struct sim *s, const char *value, struct lx_dev_rule *out)
{
	const char *blank = strchr(value, ' ');
	if (!blank)
		return false; /* LXC wants an access field */
	_cleanup_free_ char *path = lx_xstrndup(value, (size_t)(blank - value));
	_cleanup_free_ char *as_rule = lx_xasprintf("c 0:0 %s", blank + strspn(blank, " "));
	if (!lx_dev_rule_parse(as_rule, true, out))
		return false;
	const struct lx_dev_node *hn = resolve_host_node(s->host, path);
	if (!hn && host_knows(s->host, path))
		return false; /* the stat fails: LXC refuses the rule */
	out->type = hn ? node_type_char(hn) : 'c';
	out->major = hn ? hn->major : 0xffffffffll;
	out->minor = hn ? hn->minor : 0xffffffffll;
	return true;
}

/* The device cgroup from the rules LXC still holds, of the version it uses. */
static void program_cgroup(struct sim *s)
{
	struct lx_access *a = s->out;
	int active = a->keys == LX_CGROUP_V2;
	lx_dev_cgroup_init(&a->cgroup, a->keys);
	for (size_t i = 0; i < s->n_pending[!active]; i++)
		a->rules[s->pending[!active][i]].fate = LX_RULE_WRONG_VERSION;
	for (size_t i = 0; i < s->n_pending[active]; i++) {
		struct lx_access_rule *r = &a->rules[s->pending[active][i]];
		bool allow = lx_str_ends_with(r->key, ".allow");
		if (r->unknown_device) {
			/* Numbers no device in the host model has (12-bit majors). */
			r->rule = (struct lx_dev_rule){.allow = true, .type = 'c', .major = 0xffffffffll,
						       .minor = 0xffffffffll,
						       .access = LX_ACC_READ | LX_ACC_WRITE,
						       .access_text = "rw"};
		} else if (!(a->keys == LX_CGROUP_V2 && allow && r->value[0] == '/'
				     ? devpath_rule(s, r->value, &r->rule)
				     : lx_dev_rule_parse(r->value, allow, &r->rule))) {
			r->fate = LX_RULE_INVALID;
			/* LXC logs "Failed to parse device rule" and goes on (seen
			 * with LXC 5.0.2); the v1 kernel refuses the write and LXC
			 * stops the start. */
			if (a->keys != LX_CGROUP_V2)
				add_failure(a, r->file, r->line, NULL,
					    lx_xasprintf("'%s = %s' is not a device rule the kernel "
							 "accepts (\"TYPE MAJOR:MINOR ACCESS\", e.g. "
							 "\"c 195:* rwm\"): the container does not start",
							 r->key, r->value));
			continue;
		}
		/* An "a" rule (v1: any "a..." value) resets what came before it. */
		if (r->rule.all || (a->keys != LX_CGROUP_V2 && r->rule.type == 'a'))
			for (size_t j = 0; j < i; j++)
				if (a->rules[s->pending[active][j]].fate == LX_RULE_APPLIED)
					a->rules[s->pending[active][j]].fate = LX_RULE_RESET;
		lx_dev_cgroup_add(&a->cgroup, &r->rule);
	}
}

/* An id inside the container for a host id through the map; -1 when
 * unmapped. Without a map (privileged) the ids are the host's. */
static long long map_to_ns(const struct lx_access *a, char kind, unsigned long long host_id)
{
	if (!a->unprivileged)
		return (long long)host_id;
	for (size_t i = 0; i < a->n_idmap; i++) {
		const struct lx_idmap_range *r = &a->idmap[i];
		if (r->kind == kind && host_id >= r->host_id && host_id - r->host_id < r->count)
			return (long long)(r->ns_id + (host_id - r->host_id));
	}
	return -1;
}

/* PVE's map_ct_id_to_host: a container id in a range maps to the host's;
 * one outside every range is used as the host id itself. */
static unsigned long long pve_ct_to_host(const struct lx_access *a, char kind, unsigned long long id)
{
	for (size_t i = 0; i < a->n_idmap; i++) {
		const struct lx_idmap_range *r = &a->idmap[i];
		if (r->kind == kind && id >= r->ns_id && id - r->ns_id < r->count)
			return r->host_id + (id - r->ns_id);
	}
	return id;
}

/* An unprivileged container's devN node: PVE chowns it to the host ids its
 * uid/gid map to (lxc-pve-prestart-hook), which the container sees through
 * its idmap again: nobody/nogroup when the map leaves the id out. */
static void devn_ids_inside(struct lx_access *a)
{
	if (!a->unprivileged)
		return;
	for (size_t i = 0; i < a->n_nodes; i++) {
		struct lx_access_node *n = &a->nodes[i];
		if (n->via != LX_VIA_DEVN)
			continue;
		n->uid = lx_access_devn_id_inside(a, 'u', n->uid);
		n->gid = lx_access_devn_id_inside(a, 'g', n->gid);
	}
}

long long lx_access_devn_id_inside(const struct lx_access *a, char kind, long long id)
{
	if (!a->unprivileged || id < 0)
		return id;
	return map_to_ns(a, kind, pve_ct_to_host(a, kind, (unsigned long long)id));
}

static void bind_node(struct sim *s, const struct mount_entry *m, const char *inside,
		      const struct lx_dev_node *hn)
{
	struct lx_access_node *n = add_node(s->out, inside, hn, LX_VIA_BIND, m->line);
	n->mode = hn->mode;
	n->uid = map_to_ns(s->out, 'u', hn->uid);
	n->gid = map_to_ns(s->out, 'g', hn->gid);
}

/* What each bind mount of a /dev path brings into the container. */
static void resolve_mounts(struct sim *s)
{
	const struct lx_host *h = s->host;
	for (size_t i = 0; i < s->n_mounts; i++) {
		const struct mount_entry *m = &s->mounts[i];
		if (!m->bind || !lx_str_starts_with(m->source, "/dev/"))
			continue;
		if (m->absolute_outside)
			continue; /* LXC ignores it: nothing is mounted */
		_cleanup_free_ char *inside = lx_str_concat("/", m->target);
		const struct lx_dev_node *hn = resolve_host_node(h, m->source);
		_cleanup_free_ char *prefix = lx_str_concat(m->source, "/");
		size_t under = 0;
		for (size_t k = 0; !hn && k < h->n_nodes; k++)
			under += lx_str_starts_with(h->nodes[k].path, prefix);
		bool exists = hn || under;
		if (!exists && !host_knows(h, m->source)) {
			if (!lx_strv_contains(&s->out->unknown_sources, m->source))
				lx_strv_push(&s->out->unknown_sources, m->source);
			continue;
		}
		if (!exists) {
			if (!m->optional)
				add_failure(s->out, m->file, m->line, m->source,
					    lx_xasprintf("%s does not exist on the host: LXC fails to "
							 "mount it and the container does not start",
							 m->source));
			else if (m->create && !lx_strv_contains(&s->out->placeholders, inside))
				lx_strv_push(&s->out->placeholders, inside);
			continue;
		}
		/* autodev's /dev has none of these: without create= the mount point
		 * is missing and the mount fails. */
		if (!m->create && s->autodev && lx_str_starts_with(m->target, "dev/")) {
			if (!m->optional)
				add_failure(s->out, m->file, m->line, m->source,
					    lx_xasprintf("/%s does not exist in the container and the "
							 "entry has no create=%s: the mount fails and the "
							 "container does not start",
							 m->target, hn ? "file" : "dir"));
			continue;
		}
		if (hn) {
			bind_node(s, m, inside, hn);
			continue;
		}
		for (size_t k = 0; k < h->n_nodes; k++)
			if (lx_str_starts_with(h->nodes[k].path, prefix)) {
				_cleanup_free_ char *p =
					lx_xasprintf("%s/%s", inside, h->nodes[k].path + strlen(prefix));
				bind_node(s, m, p, &h->nodes[k]);
			}
	}
}

/* What NVIDIA's hook bind-mounts: after LXC's mount entries (a mount hook),
 * the host's nodes as they are, owners through the id map. */
static void nvhook_nodes(struct sim *s)
{
	if (s->opts && s->opts->without_nvhook_nodes)
		return;
	struct lx_strv paths = {0};
	lx_nvhook_resolve(s->host, s->opts, s->out, &paths);
	for (size_t i = 0; i < paths.n; i++) {
		const struct lx_dev_node *hn = lx_host_find_node(s->host, paths.items[i]);
		struct lx_access_node *n =
			add_node(s->out, paths.items[i], hn, LX_VIA_NVHOOK, s->out->nvhook.line);
		n->mode = hn->mode;
		n->uid = map_to_ns(s->out, 'u', hn->uid);
		n->gid = map_to_ns(s->out, 'g', hn->gid);
	}
	lx_strv_free(&paths);
}

/* The last mount entry that made or bound something at path: its target is
 * path, or a directory above it. */
static const struct mount_entry *mount_at(const struct sim *s, const char *path)
{
	for (size_t i = s->n_mounts; i-- > 0;) {
		const struct mount_entry *m = &s->mounts[i];
		_cleanup_free_ char *inside = lx_str_concat("/", m->target);
		size_t len = strlen(inside);
		if (strcmp(inside, path) == 0 ||
		    (lx_str_starts_with(path, inside) && path[len] == '/'))
			return &s->mounts[i];
	}
	return NULL;
}

/* The last mount entry whose create= makes path itself, whatever its
 * source: LXC makes the file or directory before it mounts (conf.c
 * mount_entry_create_dir_file) and leaves it when an optional entry's
 * source is missing, so the path is there when the autodev hooks run
 * (real LXC 5.0.2 with a by-path source that does not exist: access case
 * 63). */
static const struct mount_entry *mount_creating(const struct sim *s, const char *path)
{
	for (size_t i = s->n_mounts; i-- > 0;) {
		const struct mount_entry *m = &s->mounts[i];
		if (!m->create || m->absolute_outside)
			continue;
		_cleanup_free_ char *inside = lx_str_concat("/", m->target);
		if (strcmp(inside, path) == 0)
			return m;
	}
	return NULL;
}

/* lxc-pve-autodev-hook, an lxc.hook.autodev: after the mount entries and
 * the mount hooks, it mknods each devN path (a regular file, the prepared
 * node bound onto it) and dies on any error. A path a mount entry (a bind
 * of the node, of its directory, or any entry's create= at that path) or
 * NVIDIA's mount hook already filled gives "File exists": no start. */
static void pve_autodev_hook(struct sim *s)
{
	for (size_t i = 0; i < s->n_devns; i++) {
		const struct devn_entry *d = &s->devns[i];
		const struct lx_access_node *there = lx_access_find(s->out, d->path);
		bool placeholder = lx_strv_contains(&s->out->placeholders, d->path);
		const struct mount_entry *made =
			there || placeholder ? NULL : mount_creating(s, d->path);
		if (!there && !placeholder && !made) {
			struct lx_access_node *n =
				add_node(s->out, d->path, d->host_node, LX_VIA_DEVN, d->line);
			n->mode = d->mode, n->uid = d->uid, n->gid = d->gid;
			continue;
		}
		const struct mount_entry *m = made ? made : mount_at(s, d->path);
		_cleanup_free_ char *by =
			there && there->via == LX_VIA_NVHOOK
				? lx_xasprintf("NVIDIA's mount hook (lxc.hook.mount, line %d) already "
					       "mounted %s",
					       there->line, d->path)
			: there && there->via == LX_VIA_DEVN
				? lx_xasprintf("%s is also on line %d", d->path, there->line)
			: m ? lx_xasprintf("the lxc.mount.entry on line %d of %s (%s at %s) already "
					   "put %s there",
					   m->line, m->file, m->source, m->target,
					   there       ? "the host's node"
					   : made      ? "its node or, when that source is missing, the "
							 "empty file its create= makes first"
						       : "an empty file")
			    : lx_xasprintf("something already made %s", d->path);
		struct lx_start_failure *f;
		add_failure(s->out, s->conf_file, d->line, d->path,
			    lx_xasprintf("%s: %s; lxc-pve-autodev-hook runs after the mounts and "
					 "dies on it (\"Could not mknod %s: File exists\", \"Failed to "
					 "run autodev hooks\"): the container does not start",
					 d->key, by, d->path));
		f = &s->out->failures[s->out->n_failures - 1];
		f->exists_inside = true;
		f->fix = there && there->via == LX_VIA_NVHOOK
				 ? lx_xasprintf("remove line %d (%s): the hook gives the node", d->line,
						d->key)
			 : m ? lx_xasprintf("keep one of the two: remove line %d (%s) or line %d of %s",
					    d->line, d->key, m->line, m->file)
			     : lx_xasprintf("remove line %d (%s)", d->line, d->key);
	}
}

/* The nodes LXC puts into an autodev /dev (conf.c lxc_setup_dev_console and
 * lxc_fill_autodev): every container has them, and a device program that
 * blocks them breaks its init. */
static void autodev_nodes(struct sim *s)
{
	static const struct {
		const char *path;
		unsigned major, minor;
	} basic[] = {{"/dev/null", 1, 3},   {"/dev/zero", 1, 5},    {"/dev/full", 1, 7},
		     {"/dev/random", 1, 8}, {"/dev/urandom", 1, 9}, {"/dev/tty", 5, 0}};
	if (!s->autodev)
		return;
	for (size_t i = 0; i < sizeof(basic) / sizeof(basic[0]); i++) {
		const char *path = basic[i].path;
		if (lx_access_find(s->out, path))
			continue;
		/* (add_node only reads the host node: its path is copied) */
		struct lx_dev_node hn = {.path = (char *)path, .type = LX_NODE_CHAR,
					 .major = basic[i].major, .minor = basic[i].minor, .mode = 0666};
		struct lx_access_node *n = add_node(s->out, path, &hn, LX_VIA_AUTODEV, 0);
		n->mode = 0666;
		n->uid = n->gid = map_to_ns(s->out, 'u', 0);
	}
}

/* ---- the id map as the host's newuidmap/newgidmap allow it ---- */

/* Where LXC finds newuidmap and newgidmap (it searches PATH; these are the
 * directories of systemd's default PATH, which pve-container@.service and
 * lxc@.service run lxc-start with). */
static const char *const shadow_tool_dirs[] = {"usr/local/sbin", "usr/local/bin", "usr/sbin",
					       "usr/bin",        "sbin",          "bin"};

/* LXC uses the first one on PATH only when it is privileged (conf.c
 * idmaptool_on_path_and_privileged: setuid, or file capabilities), as the
 * uidmap package installs them. */
static bool shadow_tool_present(const char *root, const char *name)
{
	for (size_t i = 0; i < sizeof(shadow_tool_dirs) / sizeof(shadow_tool_dirs[0]); i++) {
		_cleanup_free_ char *dir = lx_path_join(root, shadow_tool_dirs[i]);
		_cleanup_free_ char *path = lx_path_join(dir, name);
		struct stat st;
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || access(path, X_OK) < 0)
			continue;
		return (st.st_mode & S_ISUID) ||
		       getxattr(path, "security.capability", NULL, 0) >= 0;
	}
	return false;
}

struct subid_range {
	unsigned long long start, count;
};

/* root's ranges in a subuid/subgid file ("owner:start:count" lines, the
 * owner a name or a number: shadow's subordinateio.c); false when the file
 * exists but cannot be read (lxgpu then cannot tell). A missing file gives
 * none, as newuidmap finds none. */
static bool read_root_subids(const char *path, struct subid_range **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	_cleanup_free_ char *text = NULL;
	struct lx_error err = {0};
	if (lx_read_file_optional(path, 16u << 20, &text, NULL, &err) < 0) {
		lx_error_clear(&err);
		return false;
	}
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, len);
		p += len + (p[len] == '\n');
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2 || strchr(c2 + 1, ':'))
			continue;
		*c1 = *c2 = '\0';
		unsigned long long start, count;
		if ((strcmp(line, "root") != 0 && strcmp(line, "0") != 0) ||
		    !lx_parse_uint(c1 + 1, 10, ULLONG_MAX, &start) ||
		    !lx_parse_uint(c2 + 1, 10, ULLONG_MAX, &count) || count == 0)
			continue;
		*out = lx_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = (struct subid_range){start, count};
	}
	return true;
}

/* shadow's have_range: [start, start + count) covered by root's ranges,
 * one range after another. */
static bool subids_cover(const struct subid_range *r, size_t n, unsigned long long start,
			 unsigned long long count)
{
	unsigned long long end = start + count; /* exclusive */
	bool progress = true;
	while (start < end && progress) {
		progress = false;
		for (size_t i = 0; i < n; i++)
			if (start >= r[i].start && start - r[i].start < r[i].count) {
				start = r[i].start + r[i].count;
				progress = true;
				break;
			}
	}
	return start >= end;
}

/* Each range of the map that newuidmap/newgidmap refuse: a start failure
 * naming the line to add to /etc/subuid or /etc/subgid. */
static void check_idmap_allowed(struct lx_access *a, const char *root, const char *conf_file)
{
	if (!root || !a->unprivileged || a->n_idmap == 0 || !shadow_tool_present(root, "newuidmap") ||
	    !shadow_tool_present(root, "newgidmap"))
		return; /* LXC writes the map itself: root may map anything */
	for (int k = 0; k < 2; k++) {
		char kind = k ? 'g' : 'u';
		const char *file = k ? "/etc/subgid" : "/etc/subuid";
		_cleanup_free_ char *etc = lx_path_join(root, "etc");
		_cleanup_free_ char *path = lx_path_join(etc, k ? "subgid" : "subuid");
		struct subid_range *r;
		size_t n;
		if (!read_root_subids(path, &r, &n))
			continue;
		for (size_t i = 0; i < a->n_idmap; i++) {
			const struct lx_idmap_range *m = &a->idmap[i];
			/* newuidmap also lets the caller map its own id alone (root: 0). */
			if (m->kind != kind || m->count == 0 || (m->count == 1 && m->host_id == 0) ||
			    subids_cover(r, n, m->host_id, m->count))
				continue;
			bool from_pve = m->line == 0;
			a->failures = lx_xrealloc(a->failures, (a->n_failures + 1) * sizeof(*a->failures));
			a->failures[a->n_failures++] = (struct lx_start_failure){
				.file = from_pve ? conf_file : m->file,
				.line = m->line,
				.message = lx_xasprintf(
					"%s %c %llu %llu %llu maps host %cids %llu-%llu, which %s does not "
					"give root: LXC maps ids with new%cidmap (installed on this host) "
					"and the container does not start (\"new%cidmap: %cid range "
					"[%llu-%llu) -> [%llu-%llu) not allowed\")",
					from_pve ? "PVE's default map" : "lxc.idmap", kind, m->ns_id,
					m->host_id, m->count, kind, m->host_id, m->host_id + m->count - 1,
					file, kind, kind, kind, m->ns_id, m->ns_id + m->count, m->host_id,
					m->host_id + m->count),
				.fix = lx_xasprintf("add the line 'root:%llu:%llu' to %s", m->host_id,
						    m->count, file),
			};
		}
		free(r);
	}
}

static int compare_access_nodes(const void *a, const void *b)
{
	return strcmp(((const struct lx_access_node *)a)->path,
		      ((const struct lx_access_node *)b)->path);
}

int lx_access_compute(const struct lx_host *host, const struct lx_conf *conf, bool is_pve,
		      const struct lx_access_options *opts, struct lx_access *out,
		      struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	struct lx_access_options defaults;
	if (!opts) {
		lx_access_options_default(&defaults);
		opts = &defaults;
	}
	enum lx_cgroup_layout layout = opts->cgroup != LX_CGROUP_UNKNOWN ? opts->cgroup : host->cgroup;
	/* cgroup2 device keys count only on a pure cgroup v2 host (LXC: "Ignoring
	 * cgroup2 limits on legacy cgroup system"); an unknown layout is taken
	 * as today's default, v2. */
	out->keys = layout == LX_CGROUP_V1 || layout == LX_CGROUP_HYBRID ? LX_CGROUP_V1 : LX_CGROUP_V2;
	out->unprivileged = lx_conf_unprivileged(conf, is_pve);
	struct sim s = {.host = host, .opts = opts, .out = out, .autodev = true, .err = err};
	lx_strv_push(&s.files, conf->path);
	s.conf_file = s.files.items[0];
	int rc = is_pve ? simulate_pve(&s, conf) : simulate_lxc(&s, conf);
	if (rc == 0) {
		/* The rules LXC holds (it programs the device cgroup after
		 * lxc_setup; computed first, nothing below changes them), then
		 * lxc_setup's order: the mount entries, the mount hooks, the
		 * autodev hooks (PVE's), LXC's own /dev nodes. */
		program_cgroup(&s);
		resolve_mounts(&s);
		nvhook_nodes(&s);
		pve_autodev_hook(&s);
		devn_ids_inside(out);
		autodev_nodes(&s);
		for (size_t i = 0; i < out->n_nodes; i++) {
			struct lx_access_node *n = &out->nodes[i];
			n->read = lx_dev_cgroup_allows(&out->cgroup, n->type, n->major, n->minor,
						       LX_ACC_READ);
			n->write = lx_dev_cgroup_allows(&out->cgroup, n->type, n->major, n->minor,
							LX_ACC_WRITE);
			n->read_write = lx_dev_cgroup_allows(&out->cgroup, n->type, n->major, n->minor,
							     LX_ACC_READ | LX_ACC_WRITE);
		}
		if (out->n_nodes > 1)
			qsort(out->nodes, out->n_nodes, sizeof(*out->nodes), compare_access_nodes);
		check_idmap_allowed(out, opts->subid_root, s.conf_file);
	}
	sim_free(&s);
	/* The include names are referenced by rules and failures: keep them. */
	out->include_files = s.files;
	if (rc < 0)
		lx_access_free(out);
	return rc;
}

void lx_access_free(struct lx_access *a)
{
	for (size_t i = 0; i < a->n_rules; i++) {
		free(a->rules[i].value);
	}
	free(a->rules);
	for (size_t i = 0; i < a->n_nodes; i++) {
		free(a->nodes[i].path);
		free(a->nodes[i].host_path);
	}
	free(a->nodes);
	for (size_t i = 0; i < a->n_failures; i++) {
		free(a->failures[i].path);
		free(a->failures[i].message);
		free(a->failures[i].fix);
	}
	free(a->failures);
	free(a->idmap);
	lx_strv_free(&a->unknown_sources);
	lx_strv_free(&a->placeholders);
	lx_strv_free(&a->include_files);
	lx_dev_cgroup_free(&a->cgroup);
	lx_nvhook_free(&a->nvhook);
	memset(a, 0, sizeof(*a));
}

const struct lx_access_node *lx_access_find(const struct lx_access *a, const char *path)
{
	for (size_t i = 0; i < a->n_nodes; i++)
		if (strcmp(a->nodes[i].path, path) == 0)
			return &a->nodes[i];
	return NULL;
}

bool lx_access_node_usable(const struct lx_access_node *n)
{
	/* "other" rw, or a group inside that users can be put in. */
	return (n->mode & 0006) == 0006 || (n->gid > 0 && (n->mode & 0060) == 0060);
}
