/* What the running container has, read from the host: the verdicts of its
 * device cgroup for each node (v1 devices.list, v2 the device programs run
 * by src/observe/devprog.c), and the driver libraries its loader resolves,
 * read inside its root, never following a path out of it. */
#include "lxgpu/observe.h"
#include "lxgpu/report.h"
#include "lxgpu/userspace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* cgroup v1: does devices.list let open() of type major:minor ask for every
 * bit of access? The kernel wants one entry that covers all of them
 * (match_exception). A cgroup in default-allow mode lists only "a *:* rwm". */
static bool devices_list_allows(const char *list, char type, unsigned major, unsigned minor,
				unsigned access)
{
	const char *p = list;
	while (*p) {
		size_t len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, len);
		char t, maj[16], min[16], perms[8];
		if (sscanf(line, "%c %15[0-9*]:%15[0-9*] %7s", &t, maj, min, perms) == 4 &&
		    (t == 'a' || t == type) && (!(access & LX_ACC_READ) || strchr(perms, 'r')) &&
		    (!(access & LX_ACC_WRITE) || strchr(perms, 'w')) &&
		    (!(access & LX_ACC_MKNOD) || strchr(perms, 'm')) &&
		    (strcmp(maj, "*") == 0 || strtoul(maj, NULL, 10) == major) &&
		    (strcmp(min, "*") == 0 || strtoul(min, NULL, 10) == minor))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

static enum lx_devprog_verdict list_verdict(const char *list, const struct lx_running_node *n,
					    unsigned access)
{
	return devices_list_allows(list, n->type, n->major, n->minor, access) ? LX_DEVPROG_ALLOW
									       : LX_DEVPROG_DENY;
}

/* The init's cgroup relative to the cgroup2 mount ("/lxc/101/ns/init.scope"):
 * run->init_cgroup is the container's directory and a path below it. */
static char *init_cgroup_rel(const struct lx_running *run)
{
	size_t len = strlen(run->cgroup);
	if (!run->cgroup_rel || strncmp(run->init_cgroup, run->cgroup, len) != 0 ||
	    (run->init_cgroup[len] && run->init_cgroup[len] != '/'))
		return NULL;
	const char *below = run->init_cgroup + len;
	return strcmp(run->cgroup_rel, "/") == 0 && *below ? lx_xstrdup(below)
							   : lx_xasprintf("%s%s", run->cgroup_rel, below);
}

void lx_running_devices_read(const struct lx_runtime_paths *paths, const struct lx_running *run,
			     struct lx_running_devices *d)
{
	struct lx_error err = {0};
	if (run->layout == LX_CGROUP_V1 || run->layout == LX_CGROUP_HYBRID) {
		d->source = "devices.list";
		d->where = lx_path_join(run->init_cgroup, "devices.list");
		_cleanup_free_ char *list = NULL;
		if (lx_read_file(d->where, 1 << 20, &list, NULL, &err) < 0) {
			d->why = lx_xasprintf("could not check: %s", err.message);
			lx_error_clear(&err);
			return;
		}
		d->checked = true;
		for (size_t i = 0; i < d->n_nodes; i++) {
			struct lx_running_node *n = &d->nodes[i];
			n->read = list_verdict(list, n, LX_ACC_READ);
			n->write = list_verdict(list, n, LX_ACC_WRITE);
			n->read_write = list_verdict(list, n, LX_ACC_READ | LX_ACC_WRITE);
		}
		return;
	}
	d->source = "device programs";
	if (run->layout != LX_CGROUP_V2) {
		d->why = lx_xstrdup("could not check: the host's cgroup layout is not known");
		return;
	}
	d->where = init_cgroup_rel(run);
	if (!d->where) {
		d->why = lx_xasprintf("could not check: %s is not below the container's cgroup %s",
				      run->init_cgroup, run->cgroup);
		return;
	}
	struct lx_devprog_chain chain;
	if (lx_devprog_chain_read(paths->cgroup_root, d->where, &chain, &err) < 0) {
		d->why = lx_xstrdup(err.message);
		lx_error_clear(&err);
		return;
	}
	d->checked = true;
	d->programs = lx_xcalloc(chain.n_progs ? chain.n_progs : 1, sizeof(*d->programs));
	for (size_t i = 0; i < chain.n_progs; i++)
		d->programs[d->n_programs++] = chain.progs[i].id;
	for (size_t i = 0; i < d->n_nodes; i++) {
		struct lx_running_node *n = &d->nodes[i];
		struct lx_devprog_node v;
		lx_devprog_judge_node(&chain, n->path, n->type, n->major, n->minor, &v);
		n->read = v.read;
		n->write = v.write;
		n->read_write = v.read_write;
		n->denied_by = v.denied_by;
		for (size_t p = 0; n->denied_by && p < chain.n_progs; p++)
			if (chain.progs[p].id == n->denied_by && chain.progs[p].cgroup) {
				n->denied_on = lx_xstrdup(chain.progs[p].cgroup);
				break;
			}
		n->reason = v.reason;
		v.reason = NULL;
		lx_devprog_node_free(&v);
	}
	lx_devprog_chain_free(&chain);
}

void lx_running_devices_free(struct lx_running_devices *d)
{
	for (size_t i = 0; i < d->n_nodes; i++) {
		free(d->nodes[i].path);
		free(d->nodes[i].denied_on);
		free(d->nodes[i].reason);
	}
	free(d->nodes);
	free(d->programs);
	free(d->where);
	free(d->why);
	memset(d, 0, sizeof(*d));
}

bool lx_running_devices_complete(const struct lx_running_devices *d)
{
	if (!d->checked)
		return false;
	for (size_t i = 0; i < d->n_nodes; i++)
		if (d->nodes[i].read == LX_DEVPROG_UNKNOWN || d->nodes[i].write == LX_DEVPROG_UNKNOWN ||
		    d->nodes[i].read_write == LX_DEVPROG_UNKNOWN)
			return false;
	return true;
}

struct lx_doc *lx_running_devices_to_doc(const struct lx_running_devices *d)
{
	struct lx_doc *doc = lx_doc_new_map();
	lx_doc_map_set(doc, "source", d->source ? lx_doc_new_str(d->source) : lx_doc_new_null());
	lx_doc_map_set(doc, "checked", lx_doc_new_bool(d->checked));
	lx_doc_map_set(doc, "cgroup", d->where ? lx_doc_new_str(d->where) : lx_doc_new_null());
	if (d->why)
		lx_doc_map_set(doc, "reason", lx_doc_new_str(d->why));
	if (d->source && strcmp(d->source, "device programs") == 0) {
		struct lx_doc *progs = lx_doc_new_list();
		for (size_t i = 0; i < d->n_programs; i++)
			lx_doc_list_push(progs, lx_doc_new_int(d->programs[i]));
		lx_doc_map_set(doc, "programs", progs);
	}
	struct lx_doc *nodes = lx_doc_new_list();
	for (size_t i = 0; i < d->n_nodes; i++) {
		const struct lx_running_node *n = &d->nodes[i];
		struct lx_doc *m = lx_doc_new_map();
		lx_doc_map_set(m, "path", lx_doc_new_str(n->path));
		_cleanup_free_ char *type = lx_xasprintf("%c", n->type);
		lx_doc_map_set(m, "type", lx_doc_new_str(type));
		lx_doc_map_set(m, "major", lx_doc_new_int(n->major));
		lx_doc_map_set(m, "minor", lx_doc_new_int(n->minor));
		lx_doc_map_set(m, "needed", lx_doc_new_bool(n->needed));
		lx_doc_map_set(m, "read", lx_doc_new_str(lx_devprog_verdict_name(n->read)));
		lx_doc_map_set(m, "write", lx_doc_new_str(lx_devprog_verdict_name(n->write)));
		lx_doc_map_set(m, "read_write", lx_doc_new_str(lx_devprog_verdict_name(n->read_write)));
		if (n->denied_by)
			lx_doc_map_set(m, "denied_by", lx_doc_new_int(n->denied_by));
		if (n->denied_on)
			lx_doc_map_set(m, "denied_on", lx_doc_new_str(n->denied_on));
		if (n->reason)
			lx_doc_map_set(m, "reason", lx_doc_new_str(n->reason));
		lx_doc_list_push(nodes, m);
	}
	lx_doc_map_set(doc, "nodes", nodes);
	return doc;
}

/* ---- driver libraries the container's loader resolves ---- */

/* The sonames CUDA and NVML are opened by (dlopen("libcuda.so.1")): what
 * the loader inside finds for them is what runs; other files of the driver
 * beside them (a leftover libcuda.so.535.183.01) are never loaded. */
static const char *const driver_sonames[] = {"libcuda.so.1", "libnvidia-ml.so.1"};

/* Where glibc's loader looks when its cache has no entry (its system
 * directories: Debian's multiarch ones first, then the lib64 and plain
 * ones other distributions use). */
static const char *const loader_dirs[] = {
#if defined(__aarch64__)
	"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
#else
	"/lib/x86_64-linux-gnu",  "/usr/lib/x86_64-linux-gnu",
#endif
	"/lib64",                 "/usr/lib64",
	"/lib",                   "/usr/lib",
};

/* glibc's cache flags of a 64-bit libc6 library of this machine's kind
 * (FLAG_ELF_LIBC6 | FLAG_X8664_LIB64, or FLAG_AARCH64_LIB64). */
#if defined(__aarch64__)
#define ROOT_LDCACHE_FLAGS 0x0a03
#else
#define ROOT_LDCACHE_FLAGS LX_LDCACHE_X86_64
#endif

#define ROOT_LDCACHE_MAX (64u << 20)
#define MAX_LINK_HOPS 40 /* the kernel's own limit (MAXSYMLINKS) */

/* "libcuda.so.550.127.05" -> "550.127.05"; NULL for libcuda.so.1. */
static const char *driver_library_version(const char *name)
{
	static const char *const stems[] = {"libcuda.so.", "libnvidia-ml.so."};
	for (size_t i = 0; i < 2; i++) {
		if (!lx_str_starts_with(name, stems[i]))
			continue;
		const char *v = name + strlen(stems[i]);
		if (!strchr(v, '.') || strspn(v, "0123456789.") != strlen(v))
			return NULL;
		return v;
	}
	return NULL;
}

/* The root's /etc/ld.so.cache, parsed; false when it has none that can be
 * read (the loader then ignores it as well). It is the container's file:
 * opened O_PATH and checked to be a regular file before it is read, so a
 * FIFO or a device node there is never opened. */
static bool read_root_ldcache(int root_fd, struct lx_ldcache *cache)
{
	int pfd = lx_open_in_root(root_fd, "/etc/ld.so.cache", O_PATH);
	if (pfd < 0)
		return false;
	_cleanup_free_ char *data = NULL;
	size_t len = 0;
	if (lx_read_regular(pfd, ROOT_LDCACHE_MAX, &data, &len) < 0)
		return false;
	struct lx_error err = {0};
	bool ok = lx_ldcache_parse("etc/ld.so.cache", data, len, cache, &err) == 0;
	lx_error_clear(&err); /* a corrupt cache: the loader skips it too */
	return ok;
}

/* Follow path's symlinks inside the root as the kernel would, one link at
 * a time: the link is read with readlinkat in its directory (opened with
 * RESOLVE_IN_ROOT, so its own path cannot leave the root either) and its
 * target is data, joined to that directory or, when absolute, taken from
 * the root. *final: the path of the regular file it ends at. */
static bool follow_in_root(int root_fd, const char *path, char **final)
{
	_cleanup_free_ char *cur = lx_xstrdup(path);
	for (int hop = 0; hop <= MAX_LINK_HOPS; hop++) {
		const char *slash = strrchr(cur, '/');
		const char *name = slash ? slash + 1 : cur;
		if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			return false; /* a directory, not a library */
		_cleanup_free_ char *dir = slash && slash != cur ? lx_xstrndup(cur, (size_t)(slash - cur))
								  : lx_xstrdup("/");
		int dfd = lx_open_in_root(root_fd, dir, O_PATH | O_DIRECTORY);
		if (dfd < 0)
			return false;
		char target[4096];
		ssize_t n = readlinkat(dfd, name, target, sizeof(target));
		if (n < 0) {
			struct stat st;
			bool file = errno == EINVAL && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISREG(st.st_mode);
			close(dfd);
			if (!file)
				return false;
			*final = cur;
			cur = NULL;
			return true;
		}
		close(dfd);
		if ((size_t)n >= sizeof(target) || n == 0 || memchr(target, '\0', (size_t)n))
			return false;
		target[n] = '\0';
		char *next = target[0] == '/' ? lx_xstrdup(target)
					      : lx_xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", target);
		free(cur);
		cur = next;
	}
	return false; /* ELOOP, as the loader's open would get */
}

/* The file the loader opens for soname: the cache's entry first (the first
 * of this machine's kind, as glibc's lookup takes it), then the system
 * directories; an entry whose file is not there is skipped, as the loader
 * goes on when its open fails. *link: the path looked up. */
static bool resolve_soname(int root_fd, const struct lx_ldcache *cache, const char *soname,
			   char **link, char **final)
{
	for (size_t i = 0; cache && i < cache->n; i++) {
		const struct lx_ldcache_entry *e = &cache->items[i];
		if (e->flags != ROOT_LDCACHE_FLAGS || strcmp(e->key, soname) != 0 || e->value[0] != '/')
			continue;
		if (follow_in_root(root_fd, e->value, final)) {
			*link = lx_xstrdup(e->value);
			return true;
		}
	}
	for (size_t i = 0; i < sizeof(loader_dirs) / sizeof(loader_dirs[0]); i++) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s", loader_dirs[i], soname);
		if (follow_in_root(root_fd, path, final)) {
			*link = lx_xstrdup(path);
			return true;
		}
	}
	return false;
}

void lx_rootfs_driver_versions(int root_fd, struct lx_strv *versions, struct lx_strv *files)
{
	struct lx_ldcache cache = {0};
	bool have_cache = read_root_ldcache(root_fd, &cache);
	for (size_t i = 0; i < sizeof(driver_sonames) / sizeof(driver_sonames[0]); i++) {
		_cleanup_free_ char *link = NULL, *final = NULL;
		if (!resolve_soname(root_fd, have_cache ? &cache : NULL, driver_sonames[i], &link,
				    &final))
			continue;
		const char *base = strrchr(final, '/');
		const char *v = driver_library_version(base ? base + 1 : final);
		if (!v)
			continue; /* a file without a version in its name: nothing to compare */
		if (!lx_strv_contains(versions, v))
			lx_strv_push(versions, v);
		lx_strv_push_owned(files, strcmp(link, final) == 0
						  ? lx_xstrdup(final)
						  : lx_xasprintf("%s -> %s", link, final));
	}
	lx_ldcache_free(&cache);
	lx_strv_sort(versions);
}

/* ---- the container's groups ---- */

#define ROOT_GROUP_MAX (1u << 20)

long long lx_group_text_gid(const char *text, const char *name)
{
	size_t len = strlen(name);
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		/* name:password:GID:members */
		if (n > len + 1 && strncmp(line, name, len) == 0 && line[len] == ':') {
			const char *pw_end = memchr(line + len + 1, ':', n - len - 1);
			if (pw_end) {
				const char *gid = pw_end + 1;
				const char *gid_end = memchr(gid, ':', (size_t)(line + n - gid));
				_cleanup_free_ char *digits =
					lx_xstrndup(gid, gid_end ? (size_t)(gid_end - gid)
								 : (size_t)(line + n - gid));
				unsigned long long v;
				if (lx_parse_uint(digits, 10, 0xfffffffeULL, &v))
					return (long long)v;
			}
		}
		line = end ? end + 1 : NULL;
	}
	return -1;
}

char *lx_rootfs_read_group(int root_fd, char **why)
{
	/* The container's file: O_PATH first, a regular file of sane size, then
	 * read through its fd (never a FIFO or a device someone put there). */
	int pfd = lx_open_in_root(root_fd, "/etc/group", O_PATH);
	char *text = NULL;
	if (pfd >= 0 && lx_read_regular(pfd, ROOT_GROUP_MAX, &text, NULL) == 0)
		return text;
	int e = errno;
	if (!why)
		return NULL;
	if (pfd < 0)
		*why = e == ENOENT ? lx_xstrdup("there is none") : lx_xstrdup(strerror(e));
	else if (e == EINVAL)
		*why = lx_xstrdup("not a regular file");
	else if (e == EFBIG)
		*why = lx_xasprintf("larger than %u bytes", ROOT_GROUP_MAX);
	else
		*why = lx_xstrdup(strerror(e));
	return NULL;
}
