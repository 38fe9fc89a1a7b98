/* Safe mounts into an untrusted root (a container's rootfs seen from the
 * host). Every path inside the root is resolved with openat2(RESOLVE_IN_ROOT):
 * ".." and absolute symlinks stay inside it, so a container that makes
 * usr/lib/x86_64-linux-gnu a link to the host's /etc cannot make lxgpu
 * create or mount anything outside. New names are made relative to an
 * already resolved directory fd (mkdirat, openat O_CREAT|O_EXCL, symlinkat
 * never follow a link at the last component), and the mount goes onto the
 * opened target fd, not onto a path walked again. */
#include "lxgpu/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* <sys/mount.h> and <linux/mount.h> clash on glibc 2.36; mount(2) alone. */
extern int mount(const char *source, const char *target, const char *fstype,
		 unsigned long flags, const void *data);
#ifndef MS_RDONLY
#define MS_RDONLY 1
#define MS_NOSUID 2
#define MS_NODEV 4
#define MS_REMOUNT 32
#define MS_BIND 4096
#endif


int lx_open_in_root(int root_fd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	while (*path == '/')
		path++;
	return (int)syscall(SYS_openat2, root_fd, *path ? path : ".", &how, sizeof(how));
}

bool lx_root_has_regular_file(int root_fd, const char *path)
{
	int fd = lx_open_in_root(root_fd, path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	close(fd);
	return ok;
}

int lx_reopen_regular(int path_fd, off_t max, struct stat *st)
{
	struct stat local;
	if (!st)
		st = &local;
	char self[64];
	int fd = -1, e = 0;
	if (fstat(path_fd, st) < 0)
		e = errno;
	else if (!S_ISREG(st->st_mode))
		e = EINVAL;
	else if (st->st_size > max)
		e = EFBIG;
	else if (snprintf(self, sizeof(self), "/proc/self/fd/%d", path_fd) >= (int)sizeof(self))
		e = ENAMETOOLONG;
	else if ((fd = open(self, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)) < 0)
		e = errno;
	close(path_fd);
	errno = e;
	return fd;
}

int lx_read_regular(int path_fd, size_t max, char **out, size_t *len)
{
	*out = NULL;
	if (len)
		*len = 0;
	int fd = lx_reopen_regular(path_fd, (off_t)max, NULL);
	if (fd < 0)
		return -1;
	struct lx_buf b = {0};
	char chunk[65536];
	int e = 0;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : 0;
			break;
		}
		if (b.len + (size_t)n > max) {
			e = EFBIG; /* it grew since the check */
			break;
		}
		lx_buf_append(&b, chunk, (size_t)n);
	}
	close(fd);
	if (e) {
		lx_buf_free(&b);
		errno = e;
		return -1;
	}
	if (len)
		*len = b.len;
	*out = lx_buf_steal(&b);
	return 0;
}

/* One component: a plain name, not "." or "..", no "/". */
static bool plain_name(const char *s, size_t n)
{
	if (n == 0 || n > 255)
		return false;
	if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	return memchr(s, '/', n) == NULL && memchr(s, '\0', n) == NULL;
}

int lx_root_mkdir_p(int root_fd, const char *dir, int *dir_fd, struct lx_error *err)
{
	*dir_fd = -1;
	int cur = lx_open_in_root(root_fd, "/", O_PATH | O_DIRECTORY);
	if (cur < 0)
		return lx_error_set_errno(err, errno, "cannot open the root");
	struct lx_buf prefix = {0};
	const char *p = dir;
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, "/");
		if (!plain_name(p, n)) {
			close(cur);
			lx_buf_free(&prefix);
			return lx_error_set(err, "%s: not a plain path", dir);
		}
		lx_buf_puts(&prefix, "/");
		lx_buf_append(&prefix, p, n);
		_cleanup_free_ char *name = lx_xstrndup(p, n);
		p += n;
		int next = lx_open_in_root(root_fd, prefix.data, O_PATH | O_DIRECTORY);
		if (next < 0 && errno == ENOENT) {
			/* mkdirat relative to the resolved parent: a link of that
			 * name is never followed (EEXIST). */
			if (mkdirat(cur, name, 0755) < 0 && errno != EEXIST) {
				int e = errno;
				close(cur);
				lx_error_set_errno(err, e, "%s: cannot make the directory", prefix.data);
				lx_buf_free(&prefix);
				return -1;
			}
			next = lx_open_in_root(root_fd, prefix.data, O_PATH | O_DIRECTORY);
		}
		if (next < 0) {
			int e = errno;
			close(cur);
			lx_error_set_errno(err, e, "%s: cannot open inside the root", prefix.data);
			lx_buf_free(&prefix);
			return -1;
		}
		close(cur);
		cur = next;
	}
	lx_buf_free(&prefix);
	*dir_fd = cur;
	return 0;
}

/* Split "/a/b/c" into "/a/b" and "c"; the name must be plain. */
static int split_target(const char *target, char **dir, char **name, struct lx_error *err)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (!plain_name(base, strlen(base)))
		return lx_error_set(err, "%s: not a file path", target);
	*dir = slash ? lx_xstrndup(target, (size_t)(slash - target)) : lx_xstrdup("");
	*name = lx_xstrdup(base);
	return 0;
}

/* The target file, made when missing (*made says so): an O_PATH fd of a
 * regular file. */
static int open_target(int root_fd, const char *target, bool *made, struct lx_error *err)
{
	_cleanup_free_ char *dir = NULL, *name = NULL;
	if (split_target(target, &dir, &name, err) < 0)
		return -1;
	_cleanup_close_ int dir_fd = -1;
	if (lx_root_mkdir_p(root_fd, dir, &dir_fd, err) < 0)
		return lx_error_prefix(err, "%s", target);
	/* O_EXCL: an existing name (a link too) is never followed. */
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno != EEXIST)
		return lx_error_set_errno(err, errno, "%s: cannot make the mount target", target);
	if (fd >= 0 && close(fd) < 0)
		return lx_error_set_errno(err, errno, "%s: cannot make the mount target", target);
	*made = fd >= 0;
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	fd = (int)syscall(SYS_openat2, dir_fd, name, &how, sizeof(how));
	if (fd < 0)
		return lx_error_set_errno(err, errno, "%s: cannot open the mount target", target);
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return lx_error_set_errno(err, e, "%s: cannot stat the mount target", target);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return lx_error_set(err, "%s: the container has something other than a file there "
				    "(a link or a directory); not mounting over it", target);
	}
	return fd;
}

/* mount(2) through /proc/self/fd: the magic link names exactly the file
 * already opened (inside the root), so no path in the container is walked
 * again and a link swapped in meanwhile changes nothing. */
static int bind_legacy(int src_fd, int tgt_fd, const char *target, struct lx_error *err)
{
	char src[64], tgt[64];
	snprintf(src, sizeof(src), "/proc/self/fd/%d", src_fd);
	snprintf(tgt, sizeof(tgt), "/proc/self/fd/%d", tgt_fd);
	if (mount(src, tgt, NULL, MS_BIND, NULL) < 0)
		return lx_error_set_errno(err, errno, "%s: cannot bind-mount", target);
	/* The fd still names the file below; the new mount is on top of it,
	 * reached by reopening the fd's own magic link. */
	int top = open(tgt, O_PATH | O_CLOEXEC);
	if (top < 0)
		return lx_error_set_errno(err, errno, "%s: cannot reopen the mount", target);
	char top_path[64];
	snprintf(top_path, sizeof(top_path), "/proc/self/fd/%d", top);
	int r = mount(NULL, top_path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
		      NULL);
	int e = errno;
	close(top);
	if (r < 0)
		return lx_error_set_errno(err, e, "%s: cannot make the mount read-only", target);
	return 0;
}

int lx_bind_file_ro_onto(int src_fd, int tgt_fd, const char *target, struct lx_error *err)
{
	struct stat st;
	if (fstat(src_fd, &st) < 0)
		return lx_error_set_errno(err, errno, "%s: cannot stat the source", target);
	if (!S_ISREG(st.st_mode))
		return lx_error_set(err, "%s: the source is not a regular file", target);
	_cleanup_close_ int tree = (int)syscall(SYS_open_tree, src_fd, "",
						 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (tree < 0) {
		if (errno == ENOSYS)
			return bind_legacy(src_fd, tgt_fd, target, err);
		return lx_error_set_errno(err, errno, "%s: open_tree of the source", target);
	}
	struct mount_attr attr = {
		.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
	};
	/* Read-only before it is attached: never writable in the container. */
	if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
		return lx_error_set_errno(err, errno, "%s: cannot make the mount read-only", target);
	if (syscall(SYS_move_mount, tree, "", tgt_fd, "",
		    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return lx_error_set_errno(err, errno, "%s: cannot attach the mount", target);
	return 0;
}

int lx_root_bind_file_ro(int root_fd, int src_fd, const char *target, bool *made,
			 struct lx_error *err)
{
	bool made_here = false;
	_cleanup_close_ int tgt = open_target(root_fd, target, &made_here, err);
	if (made)
		*made = made_here;
	if (tgt < 0)
		return -1;
	return lx_bind_file_ro_onto(src_fd, tgt, target, err);
}

int lx_root_soname_link(int root_fd, const char *dir, const char *soname, const char *name,
			bool *made, struct lx_error *err)
{
	*made = false;
	if (!plain_name(soname, strlen(soname)) || !plain_name(name, strlen(name)))
		return lx_error_set(err, "%s -> %s: not plain names", soname, name);
	_cleanup_close_ int dir_fd = -1;
	if (lx_root_mkdir_p(root_fd, dir, &dir_fd, err) < 0)
		return lx_error_prefix(err, "%s/%s", dir, soname);
	if (symlinkat(name, dir_fd, soname) < 0) {
		if (errno == EEXIST)
			return 0;
		return lx_error_set_errno(err, errno, "%s/%s: cannot make the link", dir, soname);
	}
	*made = true;
	return 0;
}
