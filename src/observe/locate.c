/* The running container: which process is its init, pinned so that what
 * verify reads is that container's and not a process that took over its pid.
 *
 * LXC is asked first (lxc-info, which asks the container's monitor); the
 * container's cgroup is the fallback (lxc-info missing, not root, another
 * lxc path). Either way the init is checked to be the outermost process of
 * the container's own pid namespace (NSpid ending in 1), in the container's
 * cgroup, and alive after /proc/<pid>/root is open. */
#include "lxgpu/observe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

const char *lx_run_state_name(enum lx_run_state s)
{
	switch (s) {
	case LX_RUN_RUNNING:
		return "running";
	case LX_RUN_UNINSPECTABLE:
		return "could not inspect";
	case LX_RUN_STOPPED:
		break;
	}
	return "stopped";
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void lx_running_free(struct lx_running *r)
{
	close_fd(&r->pidfd);
	close_fd(&r->proc_fd);
	close_fd(&r->root_fd);
	free(r->why);
	free(r->cgroup);
	free(r->init_cgroup);
	free(r->cgroup_rel);
	r->why = r->cgroup = r->init_cgroup = r->cgroup_rel = NULL;
	r->pid = -1;
}

static void running_reset(struct lx_running *r)
{
	lx_running_free(r);
	r->state = LX_RUN_STOPPED;
	r->source = NULL;
	r->start_ticks = 0;
}

/* A small /proc file relative to dir_fd; 0, or the errno (ESRCH: the
 * process is gone, EACCES: not ours to read). */
static int read_small(int dir_fd, const char *name, char **out)
{
	*out = NULL;
	int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno;
	struct lx_buf b = {0};
	char chunk[4096];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || b.len + (size_t)n > (1u << 20)) {
			int e = n < 0 ? errno : EFBIG;
			close(fd);
			lx_buf_free(&b);
			return e;
		}
		if (n == 0)
			break;
		lx_buf_append(&b, chunk, (size_t)n);
	}
	close(fd);
	*out = lx_buf_steal(&b);
	return 0;
}

/* ---- asking LXC ---- */

enum lxc_answer {
	LXC_CANNOT_SAY, /* no lxc-info, no such container in this lxc path, output not understood */
	LXC_STOPPED,
	LXC_RUNNING,
};

/* "State:          RUNNING\nPID:            8175\n": every line must be one
 * of these two, or lxgpu does not trust the answer. */
static enum lxc_answer parse_lxc_info(char *text, int *pid)
{
	const char *state = NULL;
	long long found_pid = -1;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *value;
		if (lx_str_starts_with(line, "State:")) {
			value = line + strlen("State:");
			value += strspn(value, " \t");
			if (!*value || strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(value) || state)
				return LXC_CANNOT_SAY;
			state = value;
		} else if (lx_str_starts_with(line, "PID:")) {
			value = line + strlen("PID:");
			value += strspn(value, " \t");
			if (found_pid >= 0 || !lx_parse_int(value, 1, INT_MAX, &found_pid))
				return LXC_CANNOT_SAY;
		} else {
			return LXC_CANNOT_SAY;
		}
	}
	if (!state)
		return LXC_CANNOT_SAY;
	if (strcmp(state, "STOPPED") == 0 && found_pid < 0)
		return LXC_STOPPED;
	/* FROZEN runs too; STARTING, STOPPING, ABORTING: the cgroup tells. */
	if ((strcmp(state, "RUNNING") == 0 || strcmp(state, "FROZEN") == 0) && found_pid > 0) {
		*pid = (int)found_pid;
		return LXC_RUNNING;
	}
	return LXC_CANNOT_SAY;
}

/* One of LXC's tools (lxc-info, lxc-ls) where distributions install it:
 * never looked up in the caller's PATH (the guard runs as root from
 * Proxmox's hookscript). */
static const char *lxc_binary(const char *name, char *buf, size_t size)
{
	static const char *const dirs[] = {"/usr/bin", "/usr/sbin", "/bin", "/sbin"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int n = snprintf(buf, size, "%s/%s", dirs[i], name);
		if (n > 0 && (size_t)n < size && access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

/* Run one of LXC's tools (lx_run_capture: no shell, a minimal
 * environment), killed after 10 s or when it writes more than max_out
 * bytes; its output when it exited 0, else NULL. */
static char *run_lxc_tool(const char *name, char *const argv[], size_t max_out)
{
	char binary_buf[64];
	const char *binary = lxc_binary(name, binary_buf, sizeof(binary_buf));
	return binary ? lx_run_capture(binary, argv, max_out, 10000) : NULL;
}

/* lxc-info -P LXCPATH -n NAME -s -p -H. */
static enum lxc_answer ask_lxc(const char *lxc_path, const char *name, int *pid)
{
	char *argv[] = {"lxc-info", "-P", (char *)lxc_path, "-n", (char *)name,
			"-s",       "-p", "-H",             NULL};
	_cleanup_free_ char *out = run_lxc_tool("lxc-info", argv, 4096);
	return out && *out ? parse_lxc_info(out, pid) : LXC_CANNOT_SAY;
}

/* ---- the cgroup ---- */

/* The hierarchy that holds the device rules, as a directory under the
 * cgroup root ("" on v2) and the /proc/<pid>/cgroup line that names it. */
static const char *device_hierarchy(enum lx_cgroup_layout layout)
{
	return layout == LX_CGROUP_V1 || layout == LX_CGROUP_HYBRID ? "devices" : "";
}

/* The process's cgroup on that hierarchy, from /proc/<pid>/cgroup:
 * "0::/lxc/101/ns" on v2, "5:devices:/lxc/101/ns" on v1. */
static char *cgroup_of(const char *proc_cgroup, enum lx_cgroup_layout layout)
{
	bool v1 = *device_hierarchy(layout) != '\0';
	const char *p = proc_cgroup;
	while (*p) {
		size_t len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, len);
		char *colon1 = strchr(line, ':');
		char *colon2 = colon1 ? strchr(colon1 + 1, ':') : NULL;
		if (colon2 && colon2[1] == '/') {
			*colon1 = *colon2 = '\0';
			const char *controllers = colon1 + 1;
			bool match = false;
			if (!v1) {
				match = strcmp(line, "0") == 0 && !*controllers;
			} else {
				_cleanup_free_ char *list = lx_xasprintf(",%s,", controllers);
				match = strstr(list, ",devices,") != NULL;
			}
			if (match)
				return lx_xstrdup(colon2 + 1);
		}
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}

static char *cgroup_dir(const struct lx_runtime_paths *paths, enum lx_cgroup_layout layout,
			const char *rel)
{
	const char *h = device_hierarchy(layout);
	return *h ? lx_xasprintf("%s/%s%s", paths->cgroup_root, h, rel)
		  : lx_xasprintf("%s%s", paths->cgroup_root, rel);
}

/* The container's cgroup within a process's ("/lxc/101/ns/init.scope" ->
 * "/lxc/101"): PVE's and older LXC's lxc/<id>, LXC >= 4's lxc.payload.<name>
 * (lxc.payload/<name> in early 4.0). NULL when none is there. */
static char *container_cgroup_in(const char *rel, const char *id)
{
	const char *p = rel;
	while (*p == '/') {
		const char *comp = p + 1;
		size_t len = strcspn(comp, "/");
		const char *next = comp + len;
		_cleanup_free_ char *name = lx_xstrndup(comp, len);
		_cleanup_free_ char *payload = lx_xasprintf("lxc.payload.%s", id);
		if (strcmp(name, payload) == 0)
			return lx_xstrndup(rel, (size_t)(next - rel));
		if ((strcmp(name, "lxc") == 0 || strcmp(name, "lxc.payload") == 0) && *next == '/') {
			size_t id_len = strcspn(next + 1, "/");
			if (id_len == strlen(id) && strncmp(next + 1, id, id_len) == 0)
				return lx_xstrndup(rel, (size_t)(next + 1 + id_len - rel));
		}
		p = next;
	}
	return NULL;
}

static bool path_at_or_below(const char *path, const char *top)
{
	size_t n = strlen(top);
	return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* NSpid: the pid in each pid namespace, outermost first; the container's
 * init ends in 1. Returns how many there are (0: no such line). */
static size_t nspid_depth(const char *status, long long *last)
{
	const char *line = strstr(status, "\nNSpid:");
	if (!line)
		return 0;
	_cleanup_free_ char *copy = lx_xstrndup(line + strlen("\nNSpid:"),
						strcspn(line + strlen("\nNSpid:"), "\n"));
	size_t depth = 0;
	char *save = NULL;
	for (char *f = strtok_r(copy, " \t", &save); f; f = strtok_r(NULL, " \t", &save)) {
		if (!lx_parse_int(f, 1, INT_MAX, last))
			return 0;
		depth++;
	}
	return depth;
}

/* Field 22 of /proc/<pid>/stat (start time in ticks), after "(comm)". */
static bool stat_start_ticks(const char *stat, unsigned long long *out)
{
	const char *p = strrchr(stat, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	return p && sscanf(p + 1, "%llu", out) == 1;
}

struct walk {
	const struct lx_runtime_paths *paths;
	int best_pid;
	size_t best_depth;
	int denied_errno; /* a process lxgpu could not read */
	int denied_pid;
	size_t entries;
};

static void consider_pid(struct walk *w, int pid)
{
	_cleanup_free_ char *name = lx_xasprintf("%s/%d/status", w->paths->proc, pid);
	_cleanup_free_ char *status = NULL;
	int e = read_small(AT_FDCWD, name, &status);
	if (e) {
		if ((e == EACCES || e == EPERM) && !w->denied_errno) {
			w->denied_errno = e;
			w->denied_pid = pid;
		}
		return;
	}
	long long last = 0;
	size_t depth = nspid_depth(status, &last);
	/* The outermost init: a container in the container has one too. */
	if (depth >= 2 && last == 1 && (w->best_pid < 0 || depth < w->best_depth)) {
		w->best_pid = pid;
		w->best_depth = depth;
	}
}

/* Every cgroup at and below dir_fd: PVE's ns, ns/init.scope,
 * ns/system.slice/... */
static void walk_cgroup(struct walk *w, int dir_fd, int depth)
{
	char *procs = NULL;
	if (read_small(dir_fd, "cgroup.procs", &procs) == 0) {
		char *save = NULL;
		for (char *l = strtok_r(procs, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			long long pid;
			if (lx_parse_int(l, 1, INT_MAX, &pid))
				consider_pid(w, (int)pid);
		}
	}
	free(procs);
	if (depth >= 32)
		return;
	int fd = dup(dir_fd);
	if (fd < 0)
		return;
	DIR *dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	struct dirent *de;
	while ((de = readdir(dir)) && w->entries < 100000) {
		w->entries++;
		if (de->d_type != DT_DIR || strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		int sub = openat(dirfd(dir), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		walk_cgroup(w, sub, depth + 1);
		close(sub);
	}
	closedir(dir);
}

/* The container's init from its cgroup; 0 with *pid = -1 when the cgroup
 * holds none; -1 with why when lxgpu may not look. */
static int init_from_cgroup(const struct lx_runtime_paths *paths, enum lx_cgroup_layout layout,
			    const char *id, int *pid, char **why)
{
	static const char *const prefixes[] = {"/lxc/", "/lxc.payload.", "/lxc.payload/"};
	*pid = -1;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		_cleanup_free_ char *rel = lx_xasprintf("%s%s", prefixes[i], id);
		_cleanup_free_ char *dir = cgroup_dir(paths, layout, rel);
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		struct walk w = {.paths = paths, .best_pid = -1};
		walk_cgroup(&w, fd, 0);
		close(fd);
		if (w.best_pid > 0) {
			*pid = w.best_pid;
			return 0;
		}
		if (w.denied_errno) {
			*why = lx_xasprintf("cannot read %s/%d/status: %s (run lxgpu as root)", paths->proc,
					    w.denied_pid, strerror(w.denied_errno));
			return -1;
		}
	}
	return 0;
}

/* ---- pinning ---- */

enum pin_result {
	PIN_OK,
	PIN_GONE,   /* not (or no longer) the container's init: look again */
	PIN_DENIED, /* lxgpu may not look: why says */
};

static bool init_alive(struct lx_running *r)
{
	if (r->pidfd >= 0) {
		/* A pidfd polls readable once its process has exited. */
		struct pollfd pfd = {.fd = r->pidfd, .events = POLLIN};
		int n;
		do
			n = poll(&pfd, 1, 0);
		while (n < 0 && errno == EINTR);
		if (n != 0)
			return false;
	}
	/* Without a pidfd: the same start time through the same /proc dir
	 * (which reads ESRCH once that process is gone), and not a zombie. */
	_cleanup_free_ char *stat = NULL;
	unsigned long long ticks;
	if (read_small(r->proc_fd, "stat", &stat) != 0 || !stat_start_ticks(stat, &ticks) ||
	    ticks != r->start_ticks)
		return false;
	const char *state = strrchr(stat, ')');
	return state && state[1] == ' ' && state[2] != 'Z' && state[2] != 'X';
}

/* The init's cgroup now (relative, as /proc/<pid>/cgroup names it), when
 * it is at or below the container's; NULL otherwise. */
static char *init_cgroup_now(struct lx_running *r)
{
	_cleanup_free_ char *cg = NULL;
	if (read_small(r->proc_fd, "cgroup", &cg) != 0)
		return NULL;
	char *rel = cgroup_of(cg, r->layout);
	if (rel && r->cgroup_rel && path_at_or_below(rel, r->cgroup_rel))
		return rel;
	free(rel);
	return NULL;
}

static char *denied(const struct lx_runtime_paths *paths, int pid, const char *what, int e)
{
	return lx_xasprintf("cannot open %s/%d%s: %s (lxgpu needs root to look into a container)",
			    paths->proc, pid, what, strerror(e));
}

static enum pin_result pin(const struct lx_runtime_paths *paths, const char *id, int pid,
			   struct lx_running *r)
{
	r->pid = pid;
	r->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (r->pidfd < 0 && errno == ESRCH)
		return PIN_GONE;
	/* ENOSYS (before 5.3) or a seccomp filter: the start time stands in. */
	_cleanup_free_ char *proc_dir = lx_xasprintf("%s/%d", paths->proc, pid);
	r->proc_fd = open(proc_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->proc_fd < 0) {
		if (errno == ENOENT || errno == ESRCH)
			return PIN_GONE;
		r->why = denied(paths, pid, "", errno);
		return PIN_DENIED;
	}
	r->root_fd = openat(r->proc_fd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->root_fd < 0) {
		if (errno == ENOENT || errno == ESRCH)
			return PIN_GONE;
		r->why = denied(paths, pid, "/root", errno);
		return PIN_DENIED;
	}
	_cleanup_free_ char *status = NULL, *stat = NULL, *cg = NULL;
	int e = read_small(r->proc_fd, "status", &status);
	if (!e)
		e = read_small(r->proc_fd, "stat", &stat);
	if (!e)
		e = read_small(r->proc_fd, "cgroup", &cg);
	if (e == EACCES || e == EPERM) {
		r->why = denied(paths, pid, "/status", e);
		return PIN_DENIED;
	}
	long long last = 0;
	if (e || nspid_depth(status, &last) < 2 || last != 1 || !stat_start_ticks(stat, &r->start_ticks))
		return PIN_GONE;
	_cleanup_free_ char *rel = cgroup_of(cg, r->layout);
	if (!rel)
		return PIN_GONE;
	/* A cgroup layout lxgpu does not know (lxc.cgroup.dir set by hand):
	 * the init's own cgroup is the container's. */
	char *top = container_cgroup_in(rel, id);
	r->cgroup_rel = top ? top : lx_xstrdup(rel);
	r->cgroup = cgroup_dir(paths, r->layout, r->cgroup_rel);
	/* Only now, with root open and the files read: was it that process? */
	_cleanup_free_ char *now = init_cgroup_now(r);
	if (!now || !init_alive(r))
		return PIN_GONE;
	r->init_cgroup = cgroup_dir(paths, r->layout, now);
	return PIN_OK;
}

static enum lx_cgroup_layout layout_of_host(const struct lx_runtime_paths *paths)
{
	_cleanup_free_ char *path = lx_xasprintf("%s/self/mountinfo", paths->proc);
	_cleanup_free_ char *mountinfo = NULL;
	struct lx_error err = {0};
	if (lx_read_file(path, 16 << 20, &mountinfo, NULL, &err) < 0) {
		lx_error_clear(&err);
		return LX_CGROUP_UNKNOWN;
	}
	return lx_parse_cgroup_layout(mountinfo);
}

/* ---- which containers may run: one look for a walk over many ---- */

/* The subdirectories of dir (cgroups: the kernel fills d_type), each with
 * prefix cut off (and only those that have it). */
static void subcgroups(const char *dir, const char *prefix, struct lx_strv *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	size_t n = strlen(prefix);
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 || strncmp(de->d_name, prefix, n) != 0 ||
		    !de->d_name[n])
			continue;
		lx_strv_push(out, de->d_name + n);
	}
	closedir(d);
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool sorted_has(const struct lx_strv *v, const char *s)
{
	return v->n && bsearch(&s, v->items, v->n, sizeof(*v->items), compare_strings) != NULL;
}

void lx_running_index_build(const struct lx_runtime_paths *paths, enum lx_cgroup_layout layout,
			    struct lx_running_index *out)
{
	memset(out, 0, sizeof(*out));
	out->layout = layout != LX_CGROUP_UNKNOWN ? layout : layout_of_host(paths);
	/* The same three places init_from_cgroup looks in. */
	_cleanup_free_ char *top = cgroup_dir(paths, out->layout, "");
	_cleanup_free_ char *lxc = cgroup_dir(paths, out->layout, "/lxc");
	_cleanup_free_ char *payload = cgroup_dir(paths, out->layout, "/lxc.payload");
	subcgroups(top, "lxc.payload.", &out->cgroups);
	subcgroups(lxc, "", &out->cgroups);
	subcgroups(payload, "", &out->cgroups);
	lx_strv_sort(&out->cgroups);
	char *argv[] = {"lxc-ls", "-P", (char *)paths->lxc_path, "--running", "-1", NULL};
	_cleanup_free_ char *listing = paths->lxc_path ? run_lxc_tool("lxc-ls", argv, 16u << 20) : NULL;
	if (listing) {
		out->listed = true;
		char *save = NULL;
		for (char *l = strtok_r(listing, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			lx_strv_push(&out->lxc_running, l);
		lx_strv_sort(&out->lxc_running);
	}
}

void lx_running_index_free(struct lx_running_index *idx)
{
	lx_strv_free(&idx->cgroups);
	lx_strv_free(&idx->lxc_running);
	memset(idx, 0, sizeof(*idx));
}

/* The pid of the container's init, to pin: -1 with state set (stopped, or
 * uninspectable with why) when there is none to pin. Without an index LXC
 * is asked first, then the cgroup walked; with one, a container it does
 * not name is stopped, and its cgroup is walked before LXC is asked. */
static int init_to_pin(const struct lx_runtime_paths *paths, const struct lx_running_index *idx,
		       const char *id, struct lx_running *out)
{
	bool in_cgroup = !idx || sorted_has(&idx->cgroups, id);
	bool lxc_may = !idx || !idx->listed || sorted_has(&idx->lxc_running, id);
	int pid = -1;
	if (!idx) {
		out->source = "lxc-info";
		if (ask_lxc(paths->lxc_path, id, &pid) == LXC_RUNNING)
			return pid;
		pid = -1;
	}
	/* STOPPED from lxc-info is not the last word: as another user, or for
	 * another lxc path, it says so of a running container. */
	if (in_cgroup) {
		out->source = "cgroup";
		if (init_from_cgroup(paths, out->layout, id, &pid, &out->why) < 0) {
			out->state = LX_RUN_UNINSPECTABLE;
			return -1;
		}
		if (pid > 0)
			return pid;
	}
	if (idx && lxc_may) {
		out->source = "lxc-info";
		if (ask_lxc(paths->lxc_path, id, &pid) == LXC_RUNNING)
			return pid;
	}
	running_reset(out);
	return -1;
}

void lx_container_find(const struct lx_runtime_paths *paths, enum lx_cgroup_layout layout,
		       const char *id, struct lx_running *out)
{
	memset(out, 0, sizeof(*out));
	out->pid = out->pidfd = out->proc_fd = out->root_fd = -1;
	const struct lx_running_index *idx = paths->running;
	if (idx && idx->elsewhere)
		return; /* another node's: stopped here, whatever runs here */
	out->layout = layout != LX_CGROUP_UNKNOWN ? layout : idx ? idx->layout : layout_of_host(paths);
	if (idx && idx->layout != out->layout)
		idx = NULL; /* built for another layout: not this one's answer */
	for (int attempt = 0; attempt < 2; attempt++) {
		running_reset(out);
		int pid = init_to_pin(paths, idx, id, out);
		if (pid < 0)
			return;
		switch (pin(paths, id, pid, out)) {
		case PIN_OK:
			out->state = LX_RUN_RUNNING;
			return;
		case PIN_DENIED:
			out->state = LX_RUN_UNINSPECTABLE;
			return;
		case PIN_GONE:
			break;
		}
	}
	const char *source = out->source;
	running_reset(out);
	out->source = source;
	out->state = LX_RUN_UNINSPECTABLE;
	out->why = lx_xstrdup("the container's init went away");
}

bool lx_running_recheck(struct lx_running *r)
{
	if (r->state != LX_RUN_RUNNING)
		return false;
	_cleanup_free_ char *now = r->proc_fd >= 0 ? init_cgroup_now(r) : NULL;
	if (now && init_alive(r))
		return true;
	free(r->why);
	r->why = lx_xstrdup("the container's init went away");
	r->state = LX_RUN_UNINSPECTABLE;
	return false;
}

enum lx_run_state lx_container_state(const struct lx_runtime_paths *paths,
				     enum lx_cgroup_layout layout, const char *id)
{
	struct lx_running r;
	lx_container_find(paths, layout, id, &r);
	enum lx_run_state state = r.state;
	lx_running_free(&r);
	return state;
}
