/* Findings from the running container: its /dev, mounts and device cgroup
 * (observed by src/observe) against its config. The container is untrusted:
 * paths inside it are resolved with openat2(RESOLVE_IN_ROOT), so no symlink
 * in it can lead to a host file, and nodes are opened with O_PATH only
 * (never the driver's open). */
#include "lxgpu/inject.h"
#include "lxgpu/judge.h"
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

/* Each command of a fix in backticks: one command line a user (or the
 * fix-execution test) runs in turn; lxc-* commands get -P when the
 * caller's --lxc-path is not LXC's default (cli_with_context). */
static char *restart_command(const struct runtime *r)
{
	return r->cc->is_pve ? lx_xasprintf("`pct reboot %s`", r->cc->id)
			     : lx_xasprintf("`lxc-stop -n %s`, then `lxc-start -n %s`", r->cc->id,
					    r->cc->id);
}

static char *restart_fix(const struct runtime *r)
{
	_cleanup_free_ char *restart = restart_command(r);
	return lx_xasprintf("restart the container: %s", restart);
}

/* The config on disk is fixed; only a new start applies it. */
static char *pending_fix(const struct runtime *r)
{
	_cleanup_free_ char *restart = restart_command(r);
	return lx_xasprintf("restart pending (the fixed config applies at the next start): %s",
			    restart);
}

static void check_nodes(struct runtime *r, int root_fd)
{
	for (size_t i = 0; i < r->cc->n_grants; i++) {
		const struct lx_configured_node *g = &r->cc->grants[i];
		const struct lx_dev_node *host_node = lx_host_find_node(r->host, g->path);
		int fd = lx_open_in_root(root_fd, g->path, O_PATH | O_NOFOLLOW);
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

/* "could not check: X" -> "X": the finding says "could not check" itself. */
static const char *why_text(const char *why)
{
	return lx_str_starts_with(why, "could not check: ") ? why + strlen("could not check: ") : why;
}

/* Whether `lxgpu apply ID --live` gives the running container this node
 * without a restart: a Proxmox container of a host whose pve-container
 * hotplugs devN entries (6.0.4+), whose GPU lines are devN entries (apply
 * keeps that style) and which has no devN entry for the node yet, so that
 * apply's fix for it is a new devN key, the one kind `pct set` hotplugs
 * (PVE::LXC::Config::vmconfig_hotplug_pending skips a key the config has:
 * an edited or removed entry waits for the next start). */
static bool new_devn_goes_live(const struct runtime *r, const char *path)
{
	if (!r->cc->is_pve || !lx_host_pve_hotplugs_devn(r->host))
		return false;
	bool devn_style = false;
	for (size_t i = 0; i < r->cc->n_grants; i++) {
		const struct lx_configured_node *g = &r->cc->grants[i];
		if (g->devn && strcmp(g->path, path) == 0)
			return false;
		devn_style |= g->devn;
	}
	return devn_style;
}

static void check_devices_cgroup(struct runtime *r, const struct lx_access *access,
				 struct lx_running_devices *d)
{
	devices_nodes(r, access, d);
	lx_running_devices_read(r->paths, r->run, d);
	if (!d->checked) {
		finding(r, LXG026_RUNNING_UNCHECKED, NULL,
			lx_xasprintf("could not check the running device cgroup: %s", why_text(d->why)),
			lx_xasprintf("as root on the host (reading the device cgroup needs "
				     "CAP_SYS_ADMIN): `lxgpu verify %s`; else open the nodes inside the "
				     "container: EPERM means denied",
				     r->cc->id));
		return;
	}
	_cleanup_free_ char *restart = restart_command(r);
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
				lx_xstrdup("by hand: open the node inside the container (EPERM: "
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
			: new_devn_goes_live(r, n->path)
				? lx_xasprintf("add it as a new devN entry, which Proxmox gives the "
					       "running container at once (pct set, no restart): "
					       "`lxgpu apply %s --live`",
					       r->cc->id)
				: lx_xasprintf("fix the rules, then restart the container: `lxgpu apply %s`, "
					       "then %s",
					       r->cc->id, restart));
		if (n->needed && lx_needed_node_is_optional(n->path))
			lx_findings_last_severity(r->out, LX_SEVERITY_WARNING);
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

static const struct lx_configured_node *grant_of(const struct runtime *r, const char *path)
{
	for (size_t i = 0; i < r->cc->n_grants; i++)
		if (strcmp(r->cc->grants[i].path, path) == 0)
			return &r->cc->grants[i];
	return NULL;
}

/* What of the running container's GPU devices the config no longer says:
 * a host GPU node it still has that the config does not give (a removed
 * line), or a devN node whose mode is not the entry's (an edited one).
 * NULL when the container has what the config gives: then a newer config
 * changed nothing a restart would bring (another key, or a devN Proxmox
 * hotplugged into the running container, pve-container 6.0.4+). Missing
 * nodes are LXG016's. */
static char *pending_device_change(const struct runtime *r)
{
	for (size_t i = 0; i < r->host->n_nodes; i++) {
		const struct lx_dev_node *n = &r->host->nodes[i];
		if (n->type != LX_NODE_CHAR)
			continue;
		int fd = lx_open_in_root(r->run->root_fd, n->path, O_PATH | O_NOFOLLOW);
		struct stat st;
		bool inside = fd >= 0 && fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
			      major(st.st_rdev) == n->major && minor(st.st_rdev) == n->minor;
		if (fd >= 0)
			close(fd);
		if (!inside)
			continue;
		const struct lx_configured_node *g = grant_of(r, n->path);
		if (!g)
			return lx_xasprintf("it still has %s, which the config no longer gives", n->path);
		if (g->devn && (st.st_mode & 07777) != g->mode)
			return lx_xasprintf("its %s is mode %04o, the config's entry says %04o", n->path,
					    (unsigned)(st.st_mode & 07777), g->mode);
	}
	return NULL;
}

static void check_restart_pending(struct runtime *r)
{
	struct stat conf_st;
	time_t started;
	if (stat(r->cc->conf->path, &conf_st) < 0 || !process_start_time(r, &started) ||
	    conf_st.st_mtime <= started + 1)
		return;
	_cleanup_free_ char *change = pending_device_change(r);
	if (change)
		finding(r, LXG019_RESTART_PENDING, NULL,
			lx_xasprintf("%s changed after the container started and the running "
				     "container still has the old devices: %s",
				     r->cc->conf->path, change),
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

bool lx_rootfs_matters(const struct lx_host *host, const struct lx_container_config *cc)
{
	/* lxgpu hook gives it the host's files at every start, over its own
	 * (LXG046 says when it cannot). */
	return host->driver.version && cc->n_grants > 0 && lx_conf_find_hook(cc->conf, NULL) < 0;
}

void lx_verify_rootfs(const struct lx_host *host, const struct lx_container_config *cc, int root_fd,
		      struct lx_findings *out)
{
	if (!lx_rootfs_matters(host, cc))
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
				lx_xasprintf("give it the host's driver files at every start: `lxgpu "
					     "apply %s --driver-libs`; or install the %s userspace driver "
					     "in the container (no kernel module: e.g. "
					     "NVIDIA-Linux-x86_64-%s.run --no-kernel-module)",
					     cc->id, host->driver.version, host->driver.version));
		lx_buf_free(&which);
	}
	lx_strv_free(&versions);
	lx_strv_free(&files);
}
