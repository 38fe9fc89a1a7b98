/* lx_run_confined against a root set up as LXC leaves it at lxc.hook.mount
 * time (root only; in a private mount namespace): a procfs mounted in the
 * root, so ROOT/proc/PID/root of a process that has not pivoted (there the
 * container's init, PID 1; here this test) is the host's "/", and a link
 * escape -> /proc/PID/root. A static probe (confine-probe.c) asks from inside what it
 * can do. Chrooted alone it reads a host file through the link: the attack
 * is real here; confined it cannot, nor write there, nor open a socket,
 * mount, or outlive the wall clock; its environment is empty and /proc is
 * no procfs. Kernel file systems stacked under other mounts in the root
 * are gone for it too, and a caller's inheritable capabilities do not
 * reach it (its Cap* lines, read by a sibling while it runs). */
#include "lxgpu/inject.h"
#include "../unit/tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

static const char *probe_path;
static int root_fd, probe_fd;

/* The probe confined: 0 when it exited 0; the error message otherwise. */
static int confined(unsigned timeout_ms, char **why, const char *mode, const char *arg)
{
	const char *argv[] = {"confine-probe", mode, arg, NULL};
	struct lx_confined c = {
		.root_fd = root_fd,
		.program_fd = probe_fd,
		.argv = argv,
		.what = "the probe",
		.timeout_ms = timeout_ms,
	};
	struct lx_error err = {0};
	int r = lx_run_confined(&c, &err);
	if (why)
		*why = r < 0 ? lx_xstrdup(err.message) : NULL;
	lx_error_clear(&err);
	return r;
}

/* The probe chrooted in the root, as the hook once ran ldconfig. */
static int chrooted(const char *root, const char *mode, const char *arg)
{
	pid_t pid = fork();
	if (pid == 0) {
		char *const argv[] = {"confine-probe", (char *)mode, (char *)arg, NULL};
		char *const envp[] = {NULL};
		if (chroot(root) < 0 || chdir("/") < 0)
			_exit(125);
		fexecve(probe_fd, argv, envp);
		_exit(126);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void mount_or_die(const char *type, const char *target)
{
	if (mount("none", target, type, 0, NULL) < 0) {
		printf("Bail out! mount %s on %s: %s\n", type, target, strerror(errno));
		exit(1);
	}
}

/* Every mount at path, top first (the test's own clean-up). */
static void detach_all(const char *path)
{
	while (umount2(path, MNT_DETACH) == 0)
		;
}

/* The caller's inheritable set (and ambient set) given cap, or emptied. */
static bool set_inheritable(int cap)
{
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	if (syscall(SYS_capget, &h, d) < 0)
		return false;
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		d[i].inheritable = 0;
	if (cap >= 0)
		d[cap / 32].inheritable = 1u << (cap % 32);
	if (syscall(SYS_capset, &h, d) < 0)
		return false;
	return cap < 0 ? prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == 0
		       : prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) == 0;
}

/* The parent pid in /proc/PID/stat (after the ")" of the name). */
static long parent_of(const char *pid)
{
	char path[300], buf[512];
	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *end = strrchr(buf, ')');
	long ppid = -1;
	return end && sscanf(end + 1, " %*c %ld", &ppid) == 1 ? ppid : -1;
}

/* The confined probe's Cap* lines of /proc/PID/status ("wait": it writes a
 * byte once it runs, then spins). It has no /proc itself: a sibling waits
 * for that byte on the probe's stdout (our stderr, a pipe meanwhile),
 * finds it as our other child, copies the lines and kills it. */
static char *confined_caps(void)
{
	int ready[2], result[2];
	if (pipe(ready) < 0 || pipe(result) < 0)
		die("pipe");
	pid_t self = getpid();
	fflush(stdout);
	pid_t watcher = fork();
	if (watcher == 0) {
		close(ready[1]);
		close(result[0]);
		char byte;
		if (read(ready[0], &byte, 1) != 1)
			_exit(1);
		DIR *d = opendir("/proc");
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
			    atol(de->d_name) == (long)getpid() || parent_of(de->d_name) != (long)self)
				continue;
			char path[300], status[8192];
			snprintf(path, sizeof(path), "/proc/%s/status", de->d_name);
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			ssize_t n = fd >= 0 ? read(fd, status, sizeof(status) - 1) : -1;
			kill((pid_t)atol(de->d_name), SIGKILL);
			if (n <= 0)
				_exit(1);
			status[n] = '\0';
			for (char *save = NULL, *l = strtok_r(status, "\n", &save); l;
			     l = strtok_r(NULL, "\n", &save))
				if (strncmp(l, "Cap", 3) == 0)
					dprintf(result[1], "%s\n", l);
			_exit(0);
		}
		_exit(1);
	}
	close(ready[0]);
	close(result[1]);
	int saved_stderr = dup(STDERR_FILENO);
	if (watcher < 0 || saved_stderr < 0 || dup2(ready[1], STDERR_FILENO) < 0)
		die("the watcher");
	close(ready[1]);
	char *why = NULL;
	int r = confined(20000, &why, "wait", NULL);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	if (r == 0 || !why || !strstr(why, "signal 9"))
		printf("# the waiting probe: %s\n", why ? why : "exit 0");
	free(why);
	int status;
	waitpid(watcher, &status, 0);
	char *lines = lx_xcalloc(4096, 1);
	ssize_t n = read(result[0], lines, 4095);
	close(result[0]);
	if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(lines);
		return NULL;
	}
	return lines;
}

/* The value of a Cap* line ("CapEff:\t0000000000000002"); ~0 without it. */
static unsigned long long cap_line(const char *lines, const char *name)
{
	const char *at = lines ? strstr(lines, name) : NULL;
	unsigned long long v;
	return at && sscanf(at + strlen(name), ":\t%llx", &v) == 1 ? v : ~0ULL;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		die("usage: confine-root PROBE");
	probe_path = argv[1];
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root (mounts)\n");
		return getenv("CI") && strcmp(getenv("CI"), "true") == 0 ? 1 : 0;
	}
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("a private mount namespace");
	char tmpl[] = "/tmp/lxgpu-confine-XXXXXX";
	char *work = mkdtemp(tmpl);
	if (!work)
		die("mkdtemp");
	char *root = lx_xasprintf("%s/root", work), *host_dir = lx_xasprintf("%s/host", work);
	char *secret = lx_xasprintf("%s/secret", host_dir);
	char *proc = lx_xasprintf("%s/proc", root), *link = lx_xasprintf("%s/escape", root);
	char *inside = lx_xasprintf("%s/inside", root);
	if (mkdir(root, 0755) < 0 || mkdir(host_dir, 0755) < 0 || mkdir(proc, 0755) < 0)
		die("mkdir");
	int fd = open(secret, O_WRONLY | O_CREAT, 0600);
	if (fd < 0 || close(fd) < 0 || (fd = open(inside, O_WRONLY | O_CREAT, 0644)) < 0 ||
	    close(fd) < 0)
		die("files");
	if (mount("proc", proc, "proc", 0, NULL) < 0)
		die("mount proc in the root (as LXC does before lxc.hook.mount)");
	/* At hook time ROOT/proc/1 is the container's init before its pivot;
	 * here this very process plays it (the host's PID 1 may be out of
	 * reach even for root): its root is the host's "/". */
	char *init_root = lx_xasprintf("/proc/%d/root", (int)getpid());
	if (symlink(init_root, link) < 0)
		die("symlink");
	free(init_root);
	/* Kernel file systems stacked under other mounts: tracefs under a
	 * tmpfs on the same mount point; proc under two; tracefs at
	 * above/below under a tmpfs over above. */
	char *traced = lx_xasprintf("%s/traced", root), *procs = lx_xasprintf("%s/procs", root);
	char *above = lx_xasprintf("%s/above", root), *below = lx_xasprintf("%s/below", above);
	if (mkdir(traced, 0755) < 0 || mkdir(procs, 0755) < 0 || mkdir(above, 0755) < 0 ||
	    mkdir(below, 0755) < 0)
		die("mkdir");
	mount_or_die("tracefs", traced);
	mount_or_die("tmpfs", traced);
	mount_or_die("proc", procs);
	mount_or_die("tmpfs", procs);
	mount_or_die("tmpfs", procs);
	mount_or_die("tracefs", below);
	mount_or_die("tmpfs", above);
	/* A file of another owner, whose mode only CAP_FOWNER may change. */
	char *not_mine = lx_xasprintf("%s/not-mine", root);
	if ((fd = open(not_mine, O_WRONLY | O_CREAT, 0644)) < 0 || close(fd) < 0 ||
	    chown(not_mine, 1000, 1000) < 0)
		die("not-mine");
	root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	probe_fd = open(probe_path, O_RDONLY | O_CLOEXEC);
	if (root_fd < 0 || probe_fd < 0)
		die("open the root and the probe");
	char *through = lx_xasprintf("/escape%s", secret);
	char *plant = lx_xasprintf("/escape%s/planted", host_dir);
	char *planted = lx_xasprintf("%s/planted", host_dir);
	char *why = NULL;

	int c = chrooted(root, "read", through);
	if (c != 0)
		printf("# chrooted probe: %d\n", c);
	ok(c == 0,
	   "chrooted alone, the probe reads a host file through escape -> /proc/PID/root");
	ok(confined(10000, &why, "read", "/inside") == 0, "confined, it reads a file of the root");
	free(why);
	ok(confined(10000, &why, "read", through) < 0 && why && strstr(why, "exit status 1"),
	   "confined, the host file through /proc/PID/root cannot be opened");
	free(why);
	ok(confined(10000, &why, "write", plant) < 0 && access(planted, F_OK) < 0,
	   "confined, nothing is made in the host dir through /proc/PID/root");
	free(why);
	ok(confined(10000, NULL, "noproc", NULL) == 0, "its /proc is no procfs");
	ok(confined(10000, NULL, "socket", NULL) == 0, "socket() fails with EPERM");
#if defined(__x86_64__)
	ok(confined(10000, NULL, "x32", NULL) == 0, "an x32 call fails with EPERM");
#endif
	ok(confined(10000, NULL, "mount", NULL) == 0, "mount() fails with EPERM");
	ok(confined(10000, NULL, "env", NULL) == 0, "its environment is empty");
	int leaked = open("/etc/hostname", O_RDONLY); /* no O_CLOEXEC, as a careless caller */
	char *leaked_no = lx_xasprintf("%d", leaked);
	ok(leaked >= 0 && confined(10000, NULL, "fd", leaked_no) == 0,
	   "a descriptor the caller left without close-on-exec does not reach it");
	if (leaked >= 0)
		close(leaked);
	free(leaked_no);
	ok(chrooted(root, "rootfs", "/traced") == 1 && chrooted(root, "rootfs", "/procs") == 1 &&
	   chrooted(root, "read", "/above/below") == 1,
	   "chrooted alone, /traced and /procs are mounts and /above/below is covered");
	ok(confined(10000, &why, "rootfs", "/traced") == 0,
	   "confined, a tracefs under a tmpfs stacked on it is gone with it");
	if (why)
		printf("# %s\n", why);
	free(why);
	ok(confined(10000, &why, "read", "/traced/README") < 0 && why &&
	   strstr(why, "exit status 1"),
	   "confined, the tracefs's README cannot be read");
	free(why);
	ok(confined(10000, &why, "rootfs", "/procs") == 0,
	   "confined, a proc under two tmpfs stacked on it is gone with them");
	free(why);
	ok(confined(10000, &why, "rootfs", "/above/below") == 0,
	   "confined, a tracefs under a tmpfs over the directory above it is gone with it");
	free(why);

	/* A caller with an inheritable (and ambient) CAP_FOWNER. */
	why = NULL;
	bool raised = set_inheritable(CAP_FOWNER);
	ok(raised, "the caller's inheritable and ambient sets get CAP_FOWNER");
	char *caps = raised ? confined_caps() : NULL;
	unsigned long long only = 1ULL << CAP_DAC_OVERRIDE;
	for (char *l = caps, *nl; l && (nl = strchr(l, '\n')); l = nl + 1)
		printf("# %.*s\n", (int)(nl - l), l);
	ok(caps && cap_line(caps, "CapInh") == 0 && cap_line(caps, "CapAmb") == 0,
	   "confined, its inheritable and ambient sets are empty");
	ok(caps && cap_line(caps, "CapPrm") == only && cap_line(caps, "CapEff") == only,
	   "confined, it is permitted CAP_DAC_OVERRIDE alone, and has it");
	ok(caps && cap_line(caps, "CapBnd") == only, "confined, its bounding set is that one");
	free(caps);
	ok(raised && confined(10000, &why, "chmod", "/not-mine") == 0,
	   "confined, it cannot chmod a file of another owner (no CAP_FOWNER)");
	free(why);
	ok(raised && chrooted(root, "chmod", "/not-mine") == 1,
	   "chrooted alone (all of root's capabilities), it can: the check can tell");
	if (!set_inheritable(-1))
		die("clearing the inheritable set again");

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int r = confined(500, &why, "spin", NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ok(r < 0 && why && strstr(why, "did not finish") && t1.tv_sec - t0.tv_sec < 5,
	   "one that does not finish is killed at the wall clock");
	free(why);

	umount2(proc, MNT_DETACH);
	detach_all(traced);
	detach_all(procs);
	detach_all(above);
	detach_all(below);
	char *rm = lx_xasprintf("rm -rf '%s'", work);
	if (system(rm) != 0)
		printf("# could not remove %s\n", work);
	free(rm);
	free(root), free(host_dir), free(secret), free(proc), free(link), free(inside);
	free(through), free(plant), free(planted);
	free(traced), free(procs), free(above), free(below), free(not_mine);
	close(root_fd);
	close(probe_fd);
	return tap_done();
}
