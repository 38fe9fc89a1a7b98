/* The running container: its /dev, mounts and device cgroup, seen from the
 * host. The container is untrusted: paths inside it are resolved with
 * openat2(RESOLVE_IN_ROOT), so no symlink in it can lead to a host file,
 * and nodes are opened with O_PATH only (never the driver's open). */
#include "lxgpu/verify.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* Open path inside the tree at root_fd; never leaves it. */
static int open_in_root(int root_fd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	while (*path == '/')
		path++;
	long fd = syscall(SYS_openat2, root_fd, *path ? path : ".", &how, sizeof(how));
	if (fd < 0 && errno == EXDEV) {
		/* A mount inside the root (a bind-mounted node): allow crossing it,
		 * still without escaping the root. */
		how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
		fd = syscall(SYS_openat2, root_fd, *path ? path : ".", &how, sizeof(how));
	}
	return (int)fd;
}

struct runtime {
	const struct lx_host *host;
	const struct lx_container_config *cc;
	const struct lx_runtime_paths *paths;
	const struct lx_running *run;
	struct lx_findings *out;
};

static void finding(struct runtime *r, enum lx_finding_code code, const char *node, char *message,
		    char *fix)
{
	lx_findings_add(r->out, code, r->cc->id, NULL, 0, node, message, fix);
}

static char *restart_fix(const struct runtime *r)
{
	return r->cc->is_pve ? lx_xasprintf("restart the container: pct reboot %s", r->cc->id)
			     : lx_xasprintf("restart the container: lxc-stop -n %s; lxc-start -n %s",
					    r->cc->id, r->cc->id);
}

static void check_nodes(struct runtime *r, int root_fd)
{
	for (size_t i = 0; i < r->cc->n_grants; i++) {
		const struct lx_configured_node *g = &r->cc->grants[i];
		const struct lx_dev_node *host_node = lx_host_find_node(r->host, g->path);
		int fd = open_in_root(root_fd, g->path, O_PATH | O_NOFOLLOW);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0) {
			if (fd >= 0)
				close(fd);
			if (host_node || !g->optional)
				finding(r, LXG016_NODE_MISSING_INSIDE, g->path,
					lx_xasprintf("%s is in the config but not inside the running "
						     "container%s",
						     g->path,
						     g->optional ? " (its optional mount was skipped at start: "
								   "the node did not exist then)"
								 : ""),
					restart_fix(r));
			continue;
		}
		close(fd);
		if (!host_node || host_node->type != LX_NODE_CHAR)
			continue;
		if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != host_node->major ||
		    minor(st.st_rdev) != host_node->minor)
			finding(r, LXG015_STALE_NODE_INSIDE, g->path,
				lx_xasprintf("%s inside the container is %s %u:%u, the host's is c %u:%u now "
					     "(the driver was reloaded after the container started)",
					     g->path, S_ISCHR(st.st_mode) ? "c" : "not a character device,",
					     major(st.st_rdev), minor(st.st_rdev), host_node->major,
					     host_node->minor),
				restart_fix(r));
	}
}

/* Mount points of the container, from /proc/<pid>/mountinfo (field 5). */
static bool is_mount_point(const char *mountinfo, const char *path)
{
	const char *p = mountinfo;
	while (*p) {
		size_t line_len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, line_len);
		char *save = NULL, *field = strtok_r(line, " ", &save);
		for (int i = 1; field && i < 5; i++)
			field = strtok_r(NULL, " ", &save);
		if (field && strcmp(field, path) == 0)
			return true;
		p += line_len;
		if (*p)
			p++;
	}
	return false;
}

static void check_mounts(struct runtime *r)
{
	_cleanup_free_ char *mountinfo = NULL;
	struct lx_error err = {0};
	if (lx_read_file_at(r->run->proc_fd, "mountinfo", 16 << 20, &mountinfo, NULL, &err) < 0) {
		lx_error_clear(&err);
		return;
	}
	for (size_t i = 0; i < r->cc->n_grants; i++) {
		const struct lx_configured_node *g = &r->cc->grants[i];
		if (g->bind && lx_host_find_node(r->host, g->path) && !is_mount_point(mountinfo, g->path))
			finding(r, LXG017_MOUNT_MISSING_INSIDE, g->path,
				lx_xasprintf("the config bind-mounts %s but the running container has no "
					     "such mount%s",
					     g->path, g->optional ? " (skipped at start as optional)" : ""),
				restart_fix(r));
	}
}

/* cgroup v1: does devices.list allow c major:minor for read and write? */
static bool devices_list_allows(const char *list, unsigned major, unsigned minor)
{
	const char *p = list;
	while (*p) {
		size_t len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, len);
		char type, maj[16], min[16], perms[8];
		if (sscanf(line, "%c %15[0-9*]:%15[0-9*] %7s", &type, maj, min, perms) == 4 &&
		    (type == 'a' || type == 'c') && strchr(perms, 'r') && strchr(perms, 'w') &&
		    (strcmp(maj, "*") == 0 || (unsigned)atol(maj) == major) &&
		    (strcmp(min, "*") == 0 || (unsigned)atol(min) == minor))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

static void check_devices_cgroup(struct runtime *r)
{
	/* Only cgroup v1 (and hybrid hosts' devices controller) exposes the
	 * rules as text; on v2 they are a BPF program. */
	if (r->run->layout != LX_CGROUP_V1 && r->run->layout != LX_CGROUP_HYBRID)
		return;
	_cleanup_free_ char *list_path = lx_path_join(r->run->init_cgroup, "devices.list");
	_cleanup_free_ char *list = NULL;
	struct lx_error err = {0};
	if (lx_read_file(list_path, 1 << 20, &list, NULL, &err) < 0) {
		lx_error_clear(&err);
		return;
	}
	for (size_t i = 0; i < r->cc->n_grants; i++) {
		const struct lx_dev_node *n = lx_host_find_node(r->host, r->cc->grants[i].path);
		if (n && n->type == LX_NODE_CHAR && !devices_list_allows(list, n->major, n->minor))
			finding(r, LXG018_CGROUP_DENIES, n->path,
				lx_xasprintf("the running container's device cgroup (%s) does not allow "
					     "c %u:%u (%s): opening it fails with EPERM",
					     list_path, n->major, n->minor, n->path),
				lx_xasprintf("fix the rules (lxgpu apply %s) and restart the container",
					     r->cc->id));
	}
}

/* When did the container start? Its process's start time. */
static bool process_start_time(const struct runtime *r, time_t *out)
{
	_cleanup_free_ char *proc_stat_path = lx_path_join(r->paths->proc, "stat");
	_cleanup_free_ char *st = NULL, *ps = NULL;
	struct lx_error err = {0};
	if (lx_read_file_at(r->run->proc_fd, "stat", 1 << 16, &st, NULL, &err) < 0 ||
	    lx_read_file(proc_stat_path, 1 << 20, &ps, NULL, &err) < 0) {
		lx_error_clear(&err);
		return false;
	}
	/* Field 22 (starttime, in clock ticks since boot) comes after "(comm)". */
	const char *p = strrchr(st, ')');
	unsigned long long start_ticks = 0;
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	const char *btime = strstr(ps, "\nbtime ");
	if (!p || !btime || sscanf(p + 1, "%llu", &start_ticks) != 1)
		return false;
	long hz = sysconf(_SC_CLK_TCK);
	*out = (time_t)(strtoll(btime + 7, NULL, 10) + (long long)(start_ticks / (unsigned long long)hz));
	return true;
}

static void check_restart_pending(struct runtime *r)
{
	struct stat conf_st;
	time_t started;
	if (stat(r->cc->conf->path, &conf_st) < 0 || !process_start_time(r, &started))
		return;
	if (conf_st.st_mtime > started + 1)
		finding(r, LXG019_RESTART_PENDING, NULL,
			lx_xasprintf("%s changed after the container started: the running container "
				     "still has the old devices",
				     r->cc->conf->path),
			restart_fix(r));
}

void lx_verify_running(const struct lx_host *host, const struct lx_container_config *cc,
		       const struct lx_runtime_paths *paths, const struct lx_running *run,
		       struct lx_findings *out)
{
	if (run->state != LX_RUN_RUNNING)
		return;
	struct runtime r = {host, cc, paths, run, out};
	check_nodes(&r, run->root_fd);
	lx_verify_rootfs(host, cc, run->root_fd, out);
	check_mounts(&r);
	check_devices_cgroup(&r);
	check_restart_pending(&r);
}

/* ---- driver libraries in the root ---- */

static const char *const library_dirs[] = {
	"usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu", "usr/lib64", "lib64",
	"usr/lib",                  "lib",                  "usr/lib/aarch64-linux-gnu",
	"usr/local/nvidia/lib64",   "usr/local/nvidia/lib", "usr/local/cuda/compat",
};

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

void lx_rootfs_driver_versions(int root_fd, struct lx_strv *versions, struct lx_strv *files)
{
	for (size_t i = 0; i < sizeof(library_dirs) / sizeof(library_dirs[0]); i++) {
		int fd = open_in_root(root_fd, library_dirs[i], O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			continue;
		DIR *dir = fdopendir(fd);
		if (!dir) {
			close(fd);
			continue;
		}
		struct dirent *de;
		/* Names are enough: the versions are in them; no link is followed. */
		while ((de = readdir(dir))) {
			const char *v = driver_library_version(de->d_name);
			if (!v)
				continue;
			if (!lx_strv_contains(versions, v))
				lx_strv_push(versions, v);
			lx_strv_push_owned(files, lx_xasprintf("/%s/%s", library_dirs[i], de->d_name));
		}
		closedir(dir);
	}
	lx_strv_sort(versions);
}

void lx_verify_rootfs(const struct lx_host *host, const struct lx_container_config *cc, int root_fd,
		      struct lx_findings *out)
{
	if (!host->driver.version || cc->n_grants == 0)
		return;
	struct lx_strv versions = {0}, files = {0};
	lx_rootfs_driver_versions(root_fd, &versions, &files);
	for (size_t i = 0; i < versions.n; i++) {
		if (strcmp(versions.items[i], host->driver.version) == 0)
			continue;
		struct lx_buf which = {0};
		for (size_t f = 0; f < files.n; f++)
			if (lx_str_ends_with(files.items[f], versions.items[i]))
				lx_buf_printf(&which, "%s%s", which.len ? ", " : "", files.items[f]);
		lx_findings_add(out, LXG011_DRIVER_MISMATCH, cc->id, NULL, 0, NULL,
				lx_xasprintf("the container has driver libraries %s (%s) but the host runs "
					     "kernel module %s: \"NVML: Driver/library version mismatch\"",
					     versions.items[i], which.data, host->driver.version),
				lx_xasprintf("install the %s userspace driver in the container (no kernel "
					     "module: e.g. NVIDIA-Linux-x86_64-%s.run --no-kernel-module)",
					     host->driver.version, host->driver.version));
		lx_buf_free(&which);
	}
	lx_strv_free(&versions);
	lx_strv_free(&files);
}
