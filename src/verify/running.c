/* The running container: its /dev, mounts and device cgroup, seen from the
 * host. The container is untrusted: paths inside it are resolved with
 * openat2(RESOLVE_IN_ROOT), so no symlink in it can lead to a host file,
 * and nodes are opened with O_PATH only (never the driver's open). */
#include "lxgpu/inject.h"
#include "lxgpu/verify.h"
#include "lxgpu/report.h"

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

/* The config on disk is fixed; only a new start applies it. */
static char *pending_fix(const struct runtime *r)
{
	_cleanup_free_ char *fix = restart_fix(r);
	return lx_xasprintf("restart pending (the fixed config applies at the next start): %s", fix);
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

/* The nodes to judge: the ones the GPUs need, then the other configured
 * nodes, each once, as the host has them now (what an open inside asks). */
static void devices_nodes(struct runtime *r, const struct lx_access *access,
			  struct lx_running_devices *d)
{
	struct lx_strv gpus = {0}, paths = {0};
	lx_container_gpus(r->host, r->cc, access, &gpus);
	if (gpus.n)
		lx_needed_nodes(r->host, &gpus, &paths);
	size_t n_needed = paths.n;
	for (size_t i = 0; i < r->cc->n_grants; i++)
		if (!lx_strv_contains(&paths, r->cc->grants[i].path))
			lx_strv_push(&paths, r->cc->grants[i].path);
	d->nodes = lx_xcalloc(paths.n ? paths.n : 1, sizeof(*d->nodes));
	for (size_t i = 0; i < paths.n; i++) {
		const struct lx_dev_node *hn = lx_host_find_node(r->host, paths.items[i]);
		if (!hn || hn->type != LX_NODE_CHAR)
			continue; /* LXG002/LXG016 say what is missing */
		struct lx_running_node *n = &d->nodes[d->n_nodes++];
		n->path = lx_xstrdup(hn->path);
		n->type = 'c';
		n->major = hn->major;
		n->minor = hn->minor;
		n->needed = i < n_needed;
		n->read = n->write = n->read_write = LX_DEVPROG_UNKNOWN;
	}
	lx_strv_free(&gpus);
	lx_strv_free(&paths);
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

/* Read the running device cgroup and judge every node: v1 its devices.list,
 * v2 the programs the kernel runs for the init's cgroup. */
static void read_devices(struct runtime *r, const struct lx_access *access,
			 struct lx_running_devices *d)
{
	devices_nodes(r, access, d);
	struct lx_error err = {0};
	if (r->run->layout == LX_CGROUP_V1 || r->run->layout == LX_CGROUP_HYBRID) {
		d->source = "devices.list";
		d->where = lx_path_join(r->run->init_cgroup, "devices.list");
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
	if (r->run->layout != LX_CGROUP_V2) {
		d->why = lx_xstrdup("could not check: the host's cgroup layout is not known");
		return;
	}
	d->where = init_cgroup_rel(r->run);
	if (!d->where) {
		d->why = lx_xasprintf("could not check: %s is not below the container's cgroup %s",
				      r->run->init_cgroup, r->run->cgroup);
		return;
	}
	struct lx_devprog_chain chain;
	if (lx_devprog_chain_read(r->paths->cgroup_root, d->where, &chain, &err) < 0) {
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

/* "could not check: X" -> "X": the finding says "could not check" itself. */
static const char *why_text(const char *why)
{
	return lx_str_starts_with(why, "could not check: ") ? why + strlen("could not check: ") : why;
}

static void check_devices_cgroup(struct runtime *r, const struct lx_access *access,
				 struct lx_running_devices *d)
{
	read_devices(r, access, d);
	if (!d->checked) {
		finding(r, LXG026_RUNNING_UNCHECKED, NULL,
			lx_xasprintf("could not check the running device cgroup: %s", why_text(d->why)),
			lx_xstrdup("run lxgpu verify as root on the host (reading the device cgroup "
				   "needs CAP_SYS_ADMIN); else open the nodes inside the container: "
				   "EPERM means denied"));
		return;
	}
	for (size_t i = 0; i < d->n_nodes; i++) {
		const struct lx_running_node *n = &d->nodes[i];
		/* A node the config does not give at all: LXG008 says so already. */
		const struct lx_access_node *an = lx_access_reached(access, n->path);
		bool configured = an != NULL;
		for (size_t g = 0; !configured && g < r->cc->n_grants; g++)
			configured = strcmp(r->cc->grants[g].path, n->path) == 0;
		if (!configured)
			continue;
		if (n->read_write == LX_DEVPROG_UNKNOWN) {
			finding(r, LXG026_RUNNING_UNCHECKED, n->path,
				lx_xasprintf("could not check the running device cgroup: %s (%c %u:%u)",
					     why_text(n->reason ? n->reason : "no verdict"), n->type,
					     n->major, n->minor),
				lx_xstrdup("check by hand: open the node inside the container (EPERM: "
					   "denied)"));
			continue;
		}
		if (n->read_write != LX_DEVPROG_DENY)
			continue;
		_cleanup_free_ char *by =
			n->denied_by ? lx_xasprintf(" of %s: device program %u on %s", d->where,
						    n->denied_by, n->denied_on ? n->denied_on : "?")
				     : lx_xasprintf(" %s", d->where);
		bool pending = an && an->read_write;
		finding(r, LXG018_CGROUP_DENIES, n->path,
			lx_xasprintf("the running container's device cgroup (%s%s) denies opening %s "
				     "(%c %u:%u) read-write: it fails with EPERM%s",
				     d->source, by, n->path, n->type, n->major, n->minor,
				     pending ? ". The config on disk allows it now: restart pending, "
					       "the container still runs with the rules of its start"
					     : ""),
			pending ? pending_fix(r)
				: lx_xasprintf("fix the rules (lxgpu apply %s) and restart the container",
					       r->cc->id));
		if (n->needed && lx_needed_node_is_optional(n->path))
			lx_findings_last_severity(r->out, LX_SEVERITY_WARNING);
	}
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
		       const struct lx_access *access, const struct lx_runtime_paths *paths,
		       const struct lx_running *run, struct lx_running_devices *devices,
		       struct lx_findings *out)
{
	struct lx_running_devices local = {0};
	struct lx_running_devices *d = devices ? devices : &local;
	memset(d, 0, sizeof(*d));
	if (run->state != LX_RUN_RUNNING)
		return;
	struct runtime r = {host, cc, paths, run, out};
	check_nodes(&r, run->root_fd);
	lx_verify_rootfs(host, cc, run->root_fd, out);
	check_mounts(&r);
	check_devices_cgroup(&r, access, d);
	check_restart_pending(&r);
	lx_running_devices_free(&local);
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
	/* lxgpu hook gives it the host's files at every start, over its own
	 * (LXG046 says when it cannot). */
	if (!host->driver.version || cc->n_grants == 0 || lx_conf_find_hook(cc->conf, NULL) >= 0)
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
				lx_xasprintf("lxgpu apply %s --driver-libs (the host's driver files at "
					     "every start), or install the %s userspace driver in the "
					     "container (no kernel module: e.g. NVIDIA-Linux-x86_64-%s.run "
					     "--no-kernel-module)",
					     cc->id, host->driver.version, host->driver.version));
		lx_buf_free(&which);
	}
	lx_strv_free(&versions);
	lx_strv_free(&files);
}
