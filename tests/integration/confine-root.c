/* lx_run_confined against a root set up as LXC leaves it at lxc.hook.mount
 * time (root only; in a private mount namespace): a procfs mounted in the
 * root, so ROOT/proc/PID/root of a process that has not pivoted (there the
 * container's init, PID 1; here this test) is the host's "/", and a link
 * escape -> /proc/PID/root. A static probe (confine-probe.c) asks from inside what it
 * can do. Chrooted alone it reads a host file through the link: the attack
 * is real here; confined it cannot, nor write there, nor open a socket,
 * mount, or outlive the wall clock; its environment is empty and /proc is
 * no procfs. */
#include "lxgpu/inject.h"
#include "../unit/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
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
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int r = confined(500, &why, "spin", NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ok(r < 0 && why && strstr(why, "did not finish") && t1.tv_sec - t0.tv_sec < 5,
	   "one that does not finish is killed at the wall clock");
	free(why);

	umount2(proc, MNT_DETACH);
	char *rm = lx_xasprintf("rm -rf '%s'", work);
	if (system(rm) != 0)
		printf("# could not remove %s\n", work);
	free(rm);
	free(root), free(host_dir), free(secret), free(proc), free(link), free(inside);
	free(through), free(plant), free(planted);
	close(root_fd);
	close(probe_fd);
	return tap_done();
}
