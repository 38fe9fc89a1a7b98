#include "lxgpu/util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_fd(int fd, const char *path, size_t max_size, char **out, size_t *len,
		   struct lx_error *err)
{
	struct lx_buf b = {0};
	char chunk[65536];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			lx_buf_free(&b);
			return lx_error_set_errno(err, e, "%s: cannot read", path);
		}
		if (n == 0)
			break;
		if (b.len + (size_t)n > max_size) {
			lx_buf_free(&b);
			return lx_error_set(err, "%s: file is larger than %zu bytes", path, max_size);
		}
		lx_buf_append(&b, chunk, (size_t)n);
	}
	if (len)
		*len = b.len;
	*out = lx_buf_steal(&b);
	return 0;
}

static int read_file(const char *path, size_t max_size, char **out, size_t *len, bool optional,
		     struct lx_error *err)
{
	*out = NULL;
	if (len)
		*len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (optional && (errno == ENOENT || errno == ENOTDIR))
			return 0;
		return lx_error_set_errno(err, errno, "%s: cannot open", path);
	}
	int r = read_fd(fd, path, max_size, out, len, err);
	close(fd);
	return r;
}

int lx_read_file(const char *path, size_t max_size, char **out, size_t *len, struct lx_error *err)
{
	return read_file(path, max_size, out, len, false, err);
}

int lx_read_file_at(int dir_fd, const char *path, size_t max_size, char **out, size_t *len,
		    struct lx_error *err)
{
	*out = NULL;
	if (len)
		*len = 0;
	int fd = openat(dir_fd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return lx_error_set_errno(err, errno, "%s: cannot open", path);
	int r = read_fd(fd, path, max_size, out, len, err);
	close(fd);
	return r;
}

int lx_read_file_optional(const char *path, size_t max_size, char **out, size_t *len,
			  struct lx_error *err)
{
	return read_file(path, max_size, out, len, true, err);
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Temp file in the same directory, fsync, (veto), rename, fsync the dir. */
static int write_replace(const char *path, const void *data, size_t len, mode_t mode, uid_t uid,
			 gid_t gid, bool chown_it, int (*before_rename)(void *, struct lx_error *),
			 void *ctx, struct lx_error *err)
{
	_cleanup_free_ char *dir_copy = lx_xstrdup(path);
	const char *dir = dirname(dir_copy);
	_cleanup_free_ char *tmp = lx_xasprintf("%s.lxgpu-tmp-XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return lx_error_set_errno(err, errno, "%s: cannot create a temporary file next to it",
					  path);
	if (fchmod(fd, mode) < 0 || (chown_it && fchown(fd, uid, gid) < 0) ||
	    write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		int e = errno;
		close(fd);
		unlink(tmp);
		return lx_error_set_errno(err, e, "%s: cannot write the new version", path);
	}
	if (close(fd) < 0) {
		int e = errno;
		unlink(tmp);
		return lx_error_set_errno(err, e, "%s: cannot write the new version", path);
	}
	if (before_rename && before_rename(ctx, err) < 0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		return lx_error_set_errno(err, e, "%s: cannot replace", path);
	}
	/* Make the rename itself durable. */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

int lx_write_file_atomic(const char *path, const void *data, size_t len, mode_t mode,
			 struct lx_error *err)
{
	return write_replace(path, data, len, mode, 0, 0, false, NULL, NULL, err);
}

int lx_replace_file(const char *path, const void *data, size_t len, const struct stat *like,
		    int (*before_rename)(void *ctx, struct lx_error *err), void *ctx,
		    struct lx_error *err)
{
	return write_replace(path, data, len, like->st_mode & 07777, like->st_uid, like->st_gid,
			     geteuid() == 0, before_rename, ctx, err);
}
