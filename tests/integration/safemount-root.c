/* Mounting host files into an untrusted container root (root only; in a
 * private mount namespace, so nothing leaks to the host):
 * - a root whose usr/lib/x86_64-linux-gnu is a symlink to a host dir
 *   (absolute, or relative with ".." past the root) makes nothing and
 *   mounts nothing in that host dir;
 * - a target that is a symlink to a host file is refused, the host file
 *   untouched;
 * - a normal root gets the file mounted read-only (a write fails with
 *   EROFS), its parent dirs made, and the soname link; a container's own
 *   older copy at the target is covered. */
#include "lxgpu/userspace.h"
#include "../unit/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

static char *path_in(const char *dir, const char *rel)
{
	return lx_xasprintf("%s/%s", dir, rel);
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd) < 0)
		die(path);
}

static char *slurp(const char *path)
{
	char *data = NULL;
	struct lx_error err = {0};
	if (lx_read_file(path, 1 << 20, &data, NULL, &err) < 0) {
		lx_error_clear(&err);
		return NULL;
	}
	return data;
}

static bool dir_is_empty(const char *dir)
{
	char *cmd = lx_xasprintf("test -z \"$(ls -A '%s')\"", dir);
	int r = system(cmd);
	free(cmd);
	return r == 0;
}

/* Is anything mounted at a path under prefix (this namespace)? */
static bool mounted_under(const char *prefix)
{
	char *info = slurp("/proc/self/mountinfo");
	bool found = false;
	for (char *line = info; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		/* field 5 is the mount point */
		char *f = line;
		for (int i = 0; i < 4 && f; i++) {
			f = strchr(f, ' ');
			if (f)
				f++;
		}
		if (f && lx_str_starts_with(f, prefix))
			found = true;
		line = nl ? nl + 1 : NULL;
	}
	free(info);
	return found;
}

static int open_root(const char *dir)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die(dir);
	return fd;
}

#define TARGET "/usr/lib/x86_64-linux-gnu/libcuda.so.595.10"

int main(void)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root (mounts)\n");
		return 0;
	}
	if (unshare(CLONE_NEWNS) < 0)
		die("unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("mount --make-rprivate /");

	char host_t[] = "/tmp/host-target-XXXXXX", src_t[] = "/tmp/lxgpu-src-XXXXXX";
	char evil_t[] = "/tmp/lxgpu-evil-XXXXXX", good_t[] = "/tmp/lxgpu-good-XXXXXX";
	if (!mkdtemp(host_t) || !mkdtemp(src_t) || !mkdtemp(evil_t) || !mkdtemp(good_t))
		die("mkdtemp");
	char *src = path_in(src_t, "libcuda.so.595.10");
	put(src, "HOST LIBRARY 595.10\n");
	char *victim = path_in(host_t, "victim");
	put(victim, "host file\n");
	int src_fd = open(src, O_PATH | O_CLOEXEC);
	if (src_fd < 0)
		die(src);
	struct lx_error err = {0};

	/* 1. usr/lib/x86_64-linux-gnu -> the host dir (absolute link). */
	char *evil_lib = path_in(evil_t, "usr/lib");
	char *cmd = lx_xasprintf("mkdir -p '%s'", evil_lib);
	if (system(cmd) != 0)
		die(cmd);
	free(cmd);
	char *link = path_in(evil_t, "usr/lib/x86_64-linux-gnu");
	if (symlink(host_t, link) < 0)
		die(link);
	int evil_fd = open_root(evil_t);
	int r = lx_root_bind_file_ro(evil_fd, src_fd, TARGET, NULL, &err);
	printf("# absolute link: %s\n", r < 0 ? err.message : "mounted (inside the root)");
	lx_error_clear(&err);
	bool made = false;
	r = lx_root_soname_link(evil_fd, "/usr/lib/x86_64-linux-gnu", "libcuda.so.1",
				"libcuda.so.595.10", &made, &err);
	lx_error_clear(&err);
	char *host_lib = path_in(host_t, "libcuda.so.595.10");
	char *host_so = path_in(host_t, "libcuda.so.1");
	struct stat st;
	ok(lstat(host_lib, &st) < 0 && errno == ENOENT, "absolute link: no file made in the host dir");
	ok(lstat(host_so, &st) < 0 && errno == ENOENT, "absolute link: no soname link in the host dir");
	ok(!mounted_under(host_t), "absolute link: nothing mounted in the host dir");
	/* What RESOLVE_IN_ROOT made of the link: a path inside the evil root. */
	char *inside = lx_xasprintf("%s%s/libcuda.so.595.10", evil_t, host_t);
	if (lstat(inside, &st) == 0)
		printf("# (made inside the root instead: %s)\n", inside);
	free(inside);

	/* 2. A relative link with ".." past the root. */
	if (unlink(link) < 0)
		die(link);
	char *rel = lx_xasprintf("../../../../../../..%s", host_t);
	if (symlink(rel, link) < 0)
		die(link);
	r = lx_root_bind_file_ro(evil_fd, src_fd, TARGET, NULL, &err);
	printf("# relative link: %s\n", r < 0 ? err.message : "mounted (inside the root)");
	lx_error_clear(&err);
	ok(lstat(host_lib, &st) < 0 && errno == ENOENT, "relative link: no file made in the host dir");
	ok(!mounted_under(host_t), "relative link: nothing mounted in the host dir");

	/* 3. The target itself a link to a host file: refused. */
	if (unlink(link) < 0 || mkdir(link, 0755) < 0)
		die(link);
	char *tlink = path_in(evil_t, &TARGET[1]);
	if (symlink(victim, tlink) < 0)
		die(tlink);
	r = lx_root_bind_file_ro(evil_fd, src_fd, TARGET, NULL, &err);
	ok(r < 0, "a target that is a symlink is refused");
	printf("#   %s\n", err.message ? err.message : "");
	lx_error_clear(&err);
	char *vtext = slurp(victim);
	str_eq(vtext, "host file\n", "the host file it points at is untouched");
	free(vtext);
	ok(!mounted_under(host_t), "and nothing is mounted on it");
	close(evil_fd);
	ok(dir_is_empty(host_t) == false, "(the host dir holds only its own file)");

	/* 4. A normal root: parents made, the file mounted read-only. */
	int good_fd = open_root(good_t);
	r = lx_root_bind_file_ro(good_fd, src_fd, TARGET, NULL, &err);
	if (!ok(r == 0, "a normal root: mounted"))
		printf("#   %s\n", err.message);
	lx_error_clear(&err);
	char *gpath = path_in(good_t, &TARGET[1]);
	char *text = slurp(gpath);
	str_eq(text, "HOST LIBRARY 595.10\n", "the container sees the host's file");
	free(text);
	int wfd = open(gpath, O_WRONLY | O_CLOEXEC);
	int werr = errno;
	ok(wfd < 0 && werr == EROFS, "writing it fails with EROFS");
	if (wfd >= 0)
		close(wfd);
	ok(mounted_under(gpath), "the mount is at the target");
	r = lx_root_soname_link(good_fd, "/usr/lib/x86_64-linux-gnu", "libcuda.so.1",
				"libcuda.so.595.10", &made, &err);
	ok(r == 0 && made, "the soname link is made");
	char *so = path_in(good_t, "usr/lib/x86_64-linux-gnu/libcuda.so.1");
	char buf[256] = {0};
	ssize_t n = readlink(so, buf, sizeof(buf) - 1);
	str_eq(n > 0 ? buf : NULL, "libcuda.so.595.10", "libcuda.so.1 -> libcuda.so.595.10");
	r = lx_root_soname_link(good_fd, "/usr/lib/x86_64-linux-gnu", "libcuda.so.1",
				"libcuda.so.595.10", &made, &err);
	ok(r == 0 && !made, "an existing soname link is left alone");

	/* 5. The container's own older copy at the target: covered. */
	char *old = path_in(good_t, "usr/lib/x86_64-linux-gnu/libnvidia-ml.so.595.10");
	put(old, "container's copy\n");
	r = lx_root_bind_file_ro(good_fd, src_fd, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.595.10",
				 NULL, &err);
	ok(r == 0, "an existing file in the container is mounted over");
	lx_error_clear(&err);
	text = slurp(old);
	str_eq(text, "HOST LIBRARY 595.10\n", "it shows the host's file");
	free(text);
	close(good_fd);

	/* Clean up (the namespace goes with the process; the files do not). */
	umount2(old, MNT_DETACH);
	umount2(gpath, MNT_DETACH);
	cmd = lx_xasprintf("rm -rf '%s' '%s' '%s' '%s'", host_t, src_t, evil_t, good_t);
	if (system(cmd) != 0)
		printf("# cleanup failed: %s\n", cmd);
	free(cmd);
	free(src), free(victim), free(evil_lib), free(link), free(rel), free(tlink);
	free(host_lib), free(host_so), free(gpath), free(so), free(old);
	close(src_fd);
	return tap_done();
}
