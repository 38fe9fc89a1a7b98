#include "lxgpu/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
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

void lx_closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

int lx_write_all(int fd, const void *buf, size_t len)
{
	const char *data = buf;
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

#define TEMP_MARK ".lxgpu-tmp-"

int lx_atomic_open(const char *path, mode_t mode, struct lx_atomic_file *f, struct lx_error *err)
{
	/* What a SIGKILL left of an earlier write of path goes first. */
	lx_atomic_sweep(path, NULL, NULL);
	f->path = lx_xstrdup(path);
	f->tmp = lx_xasprintf("%s" TEMP_MARK "XXXXXX", path);
	/* Tracked from its making on: an interrupt removes it. */
	lx_interrupt_hold();
	f->fd = mkostemp(f->tmp, O_CLOEXEC);
	int e = errno;
	if (f->fd >= 0)
		lx_interrupt_track_temp(f->tmp, path);
	lx_interrupt_release();
	if (f->fd < 0) {
		f->fd = -2; /* nothing was made */
		lx_atomic_abort(f);
		return lx_error_set_errno(err, e, "%s: cannot create a temporary file next to it",
					  path);
	}
	if (fchmod(f->fd, mode) < 0) {
		e = errno;
		lx_atomic_abort(f);
		return lx_error_set_errno(err, e, "%s: cannot write the new version", path);
	}
	return 0;
}

void lx_atomic_abort(struct lx_atomic_file *f)
{
	lx_interrupt_hold();
	if (f->fd >= 0)
		close(f->fd);
	if (f->tmp && f->fd != -2)
		unlink(f->tmp);
	if (f->tmp)
		lx_interrupt_untrack_temp(f->tmp);
	lx_interrupt_release();
	free(f->path);
	free(f->tmp);
	*f = (struct lx_atomic_file){.fd = -1};
}

/* fsync, close, (veto), rename, fsync the dir. From the veto on,
 * interrupts wait: what before_rename writes (a backup) and the rename are
 * made together or not at all. */
static int atomic_commit(struct lx_atomic_file *f, int (*before_rename)(void *, struct lx_error *),
			 void *ctx, struct lx_error *err)
{
	int rc = 0;
	bool held = false;
	if (fsync(f->fd) < 0) {
		rc = lx_error_set_errno(err, errno, "%s: cannot write the new version", f->path);
		goto out;
	}
	int fd = f->fd;
	f->fd = -1;
	if (close(fd) < 0) {
		rc = lx_error_set_errno(err, errno, "%s: cannot write the new version", f->path);
		goto out;
	}
	lx_interrupt_hold();
	held = true;
	if (before_rename && before_rename(ctx, err) < 0) {
		rc = -1;
		goto out;
	}
	if (rename(f->tmp, f->path) < 0) {
		rc = lx_error_set_errno(err, errno, "%s: cannot replace", f->path);
		goto out;
	}
	f->fd = -2; /* renamed: nothing left to remove */
	lx_interrupt_changed("written", f->path);
	/* Make the rename itself durable. */
	char *dir_copy = lx_xstrdup(f->path);
	int dfd = open(dirname(dir_copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir_copy);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
out:
	lx_atomic_abort(f);
	if (held)
		lx_interrupt_release();
	return rc;
}

int lx_atomic_commit(struct lx_atomic_file *f, struct lx_error *err)
{
	return atomic_commit(f, NULL, NULL, err);
}

/* Temp file in the same directory, written, then committed. */
static int write_replace(const char *path, const void *data, size_t len, mode_t mode, uid_t uid,
			 gid_t gid, bool chown_it, int (*before_rename)(void *, struct lx_error *),
			 void *ctx, struct lx_error *err)
{
	struct lx_atomic_file f;
	if (lx_atomic_open(path, mode, &f, err) < 0)
		return -1;
	if ((chown_it && fchown(f.fd, uid, gid) < 0) || lx_write_all(f.fd, data, len) < 0) {
		int e = errno;
		lx_atomic_abort(&f);
		return lx_error_set_errno(err, e, "%s: cannot write the new version", path);
	}
	return atomic_commit(&f, before_rename, ctx, err);
}

/* Only names lx_atomic_open makes: <final>.lxgpu-tmp-XXXXXX (mkstemp's six
 * letters and digits); the final name goes to *final. */
static bool temp_name_final(const char *name, char **final)
{
	const char *mark = strstr(name, TEMP_MARK);
	if (!mark || mark == name)
		return false;
	const char *x = mark + strlen(TEMP_MARK);
	if (strlen(x) != 6)
		return false;
	for (; *x; x++)
		if (!((*x >= 'a' && *x <= 'z') || (*x >= 'A' && *x <= 'Z') || (*x >= '0' && *x <= '9')))
			return false;
	*final = lx_xstrndup(name, (size_t)(mark - name));
	return true;
}

int lx_atomic_clean_stale(const char *dir, bool (*want)(const char *final, void *ctx), void *ctx,
			  int min_age_s, struct lx_strv *removed, struct lx_error *err)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return lx_error_set_errno(err, errno, "%s: cannot list", dir);
	}
	time_t now = time(NULL);
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat st;
		_cleanup_free_ char *final = NULL;
		/* A regular file, or a device node lx_atomic_mknod made. */
		if (!temp_name_final(de->d_name, &final) || !want(final, ctx) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)) || now - st.st_mtime < min_age_s)
			continue;
		_cleanup_free_ char *path = lx_path_join(dir, de->d_name);
		if (lx_remove_file(path) < 0 && errno != ENOENT) {
			rc = lx_error_set_errno(err, errno, "%s: cannot remove this stale temporary file",
						path);
			break;
		}
		if (removed)
			lx_strv_push(removed, path);
	}
	closedir(d);
	return rc;
}

/* The temporary names of path: "<base>.lxgpu-tmp-XXXXXX" (lx_atomic_open)
 * and ".<base>.lxgpu-tmp-XXXXXX" (lx_atomic_mknod). */
static bool is_temp_of(const char *final, void *base)
{
	return strcmp(final, base) == 0 || (final[0] == '.' && strcmp(final + 1, base) == 0);
}

/* path's directory, "." or "/" where it names no other; *base points at
 * the last component, inside path. */
static char *split_path(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	if (!slash)
		return lx_xstrdup(".");
	return slash == path ? lx_xstrdup("/") : lx_xstrndup(path, (size_t)(slash - path));
}

int lx_atomic_sweep(const char *path, struct lx_strv *removed, struct lx_error *err)
{
	const char *base;
	_cleanup_free_ char *dir = split_path(path, &base);
	/* A minute old: no writer of path still at it (the config's lock
	 * holder, another lxgpu) has one that old. */
	struct lx_error ignored = {0};
	int rc = lx_atomic_clean_stale(dir, is_temp_of, (void *)base, 60, removed,
				       err ? err : &ignored);
	lx_error_clear(&ignored);
	return rc;
}

int lx_remove_file(const char *path)
{
	lx_interrupt_hold();
	int rc = unlink(path);
	int e = errno;
	if (rc == 0)
		lx_interrupt_changed("removed", path);
	lx_interrupt_release();
	errno = e;
	return rc;
}

/* Six letters or digits, as mkstemp's. */
static void random_suffix(char *x)
{
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char b[6];
	if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b)) {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		unsigned long long v = (unsigned long long)t.tv_nsec * 2654435761u ^ (unsigned long long)getpid();
		for (size_t i = 0; i < sizeof(b); i++, v >>= 6)
			b[i] = (unsigned char)v;
	}
	for (size_t i = 0; i < sizeof(b); i++)
		x[i] = letters[b[i] % (sizeof(letters) - 1)];
}

int lx_atomic_mknod(const char *path, mode_t mode, dev_t dev, uid_t uid, gid_t gid,
		    struct lx_error *err)
{
	lx_atomic_sweep(path, NULL, NULL);
	const char *base;
	_cleanup_free_ char *dir = split_path(path, &base);
	_cleanup_free_ char *tmp = NULL;
	for (int tries = 0;; tries++) {
		free(tmp);
		tmp = lx_xasprintf("%s/.%s" TEMP_MARK "XXXXXX", dir, base);
		random_suffix(tmp + strlen(tmp) - 6);
		lx_interrupt_hold();
		int rc = mknod(tmp, S_IFCHR | (mode & 0777), dev);
		int e = errno;
		if (rc == 0)
			lx_interrupt_track_temp(tmp, path);
		lx_interrupt_release();
		if (rc == 0)
			break;
		if (e != EEXIST || tries == 100)
			return lx_error_set_errno(err, e, "%s: cannot make c %u:%u", tmp, major(dev),
						  minor(dev));
	}
	/* mknod's mode went through the umask. */
	const char *failed = NULL;
	int saved = 0;
	if (chmod(tmp, mode) < 0)
		failed = "chmod", saved = errno;
	else if (lchown(tmp, uid, gid) < 0)
		failed = "chown", saved = errno;
	lx_interrupt_hold();
	if (!failed && rename(tmp, path) < 0)
		failed = "rename into place", saved = errno;
	bool left = failed && unlink(tmp) < 0 && errno != ENOENT;
	if (!failed)
		lx_interrupt_changed("made", path);
	lx_interrupt_untrack_temp(tmp);
	lx_interrupt_release();
	if (!failed)
		return 0;
	/* The error that matters is the first. */
	if (left)
		return lx_error_set_errno(err, saved, "%s: cannot %s (and cannot remove %s)", path,
					  failed, tmp);
	return lx_error_set_errno(err, saved, "%s: cannot %s", path, failed);
}

int lx_mkdir_parents(const char *dir, mode_t mode)
{
	if (mkdir(dir, mode) == 0)
		return 0;
	if (errno == EEXIST) {
		struct stat st;
		if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
		return 0;
	}
	if (errno != ENOENT)
		return -1;
	_cleanup_free_ char *parent = lx_xstrdup(dir);
	char *slash = strrchr(parent, '/');
	while (slash && slash > parent && slash[-1] == '/')
		slash--;
	if (!slash || slash == parent)
		return -1; /* ENOENT with no parent left to make */
	*slash = '\0';
	if (lx_mkdir_parents(parent, 0755) < 0)
		return -1;
	return mkdir(dir, mode) == 0 || errno == EEXIST ? 0 : -1;
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
