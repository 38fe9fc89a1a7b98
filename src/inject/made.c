/* What the start hook made in a container's root, kept in the root so the
 * next start takes it back first. The hook shadows the container's own
 * files with mounts, which leave nothing behind; only where the container
 * has no file of a name (a container without a driver of its own) does it
 * make an empty mount target and a soname link, or repoint a link that
 * leads nowhere. Those are listed in LIB_DIR/.lxgpu-hook-made and undone at
 * the next start (also one that --optional lets go on without the
 * driver), each only while it is still exactly what the hook made.
 *
 * The list lives in the container's root, so it is the container's input:
 * an entry is acted on only inside the lib dir or /usr/bin, every path is
 * resolved inside the root (no magic links), and only an empty file, or a
 * link whose target is the one written, is ever removed. */
#include "lxgpu/inject.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MADE_NAME ".lxgpu-hook-made"
#define MADE_MAX (64u << 10)

void lx_made_free(struct lx_made *m)
{
	lx_strv_free(&m->entries);
}

static bool plain(const char *s)
{
	return *s && !strchr(s, '\t') && !strchr(s, '\n');
}

void lx_made_add(struct lx_made *m, const char *kind, const char *path, const char *target,
		 const char *old)
{
	if (!plain(path) || (target && !plain(target)) || (old && !plain(old)))
		return; /* never written, so never taken back: names come from the host */
	lx_strv_push_owned(&m->entries, lx_xasprintf("%s\t%s%s%s%s%s", kind, path, target ? "\t" : "",
						    target ? target : "", old ? "\t" : "",
						    old ? old : ""));
}

/* An entry's directory, opened inside the root, and its last component. */
static int open_parent(int root_fd, const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	if (!slash || !slash[1] || strcmp(slash + 1, "..") == 0 || strcmp(slash + 1, ".") == 0)
		return -1;
	*name = slash + 1;
	_cleanup_free_ char *dir = lx_xstrndup(path, (size_t)(slash - path));
	return lx_open_in_root(root_fd, *dir ? dir : "/", O_PATH | O_DIRECTORY);
}

static bool link_is(int dir_fd, const char *name, const char *target)
{
	char buf[4096];
	ssize_t n = readlinkat(dir_fd, name, buf, sizeof(buf) - 1);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return strcmp(buf, target) == 0;
}

/* One entry taken back; a note when it is no longer what the hook made. */
static void undo_one(int root_fd, const char *lib_dir, char *line, struct lx_strv *notes)
{
	char *save = NULL, *kind = strtok_r(line, "\t", &save), *path = strtok_r(NULL, "\t", &save);
	char *target = strtok_r(NULL, "\t", &save), *old = strtok_r(NULL, "\t", &save);
	if (!kind || !path)
		return;
	size_t lib_len = strlen(lib_dir);
	bool in_lib = strncmp(path, lib_dir, lib_len) == 0 && path[lib_len] == '/' &&
		      !strchr(path + lib_len + 1, '/');
	bool in_bin = lx_str_starts_with(path, "/usr/bin/") && !strchr(path + 9, '/');
	if (!in_lib && !in_bin)
		return;
	const char *name;
	int dir_fd = open_parent(root_fd, path, &name);
	if (dir_fd < 0)
		return;
	struct stat st;
	if (strcmp(kind, "file") == 0) {
		if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size == 0 && st.st_nlink == 1) {
			if (unlinkat(dir_fd, name, 0) < 0)
				lx_strv_push_owned(notes, lx_xasprintf("%s: cannot remove the empty mount "
								       "target of the last start: %s",
								       path, strerror(errno)));
		}
	} else if (strcmp(kind, "link") == 0 && target) {
		if (link_is(dir_fd, name, target))
			(void)unlinkat(dir_fd, name, 0);
	} else if (strcmp(kind, "relink") == 0 && target && old) {
		_cleanup_free_ char *tmp = lx_xasprintf(".%s.lxgpu-old", name);
		if (link_is(dir_fd, name, target)) {
			(void)unlinkat(dir_fd, tmp, 0);
			if (symlinkat(old, dir_fd, tmp) < 0 || renameat(dir_fd, tmp, dir_fd, name) < 0) {
				lx_strv_push_owned(notes, lx_xasprintf("%s: cannot point the link back at "
								       "%s: %s", path, old,
								       strerror(errno)));
				(void)unlinkat(dir_fd, tmp, 0);
			}
		}
	}
	close(dir_fd);
}

int lx_made_undo(int root_fd, const char *lib_dir, struct lx_strv *notes, struct lx_error *err)
{
	_cleanup_free_ char *list = lx_xasprintf("%s/%s", lib_dir, MADE_NAME);
	const char *name;
	int dir_fd = open_parent(root_fd, list, &name);
	if (dir_fd < 0)
		return 0; /* no lib dir: nothing was made there */
	/* O_PATH first: root in the container may have planted a device node
	 * here, whose driver must never see an open from the host's hook. */
	int pfd = openat(dir_fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0) {
		int e = errno;
		close(dir_fd);
		return e == ENOENT ? 0 : lx_error_set_errno(err, e, "%s in the container", list);
	}
	_cleanup_free_ char *text = NULL;
	if (lx_read_regular(pfd, MADE_MAX, &text, NULL) < 0) {
		int e = errno;
		close(dir_fd);
		if (e == EINVAL || e == EFBIG)
			return lx_error_set(err, "%s in the container is not the list the hook "
					    "writes (a regular file of at most 64 KiB)", list);
		return lx_error_set_errno(err, e, "%s in the container", list);
	}
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		undo_one(root_fd, lib_dir, line, notes);
	int r = unlinkat(dir_fd, name, 0);
	int e = errno;
	close(dir_fd);
	if (r < 0 && e != ENOENT)
		return lx_error_set_errno(err, e, "%s in the container: cannot remove it", list);
	return 0;
}

int lx_made_save(int root_fd, const char *lib_dir, const struct lx_made *m, struct lx_error *err)
{
	if (m->entries.n == 0)
		return 0;
	_cleanup_close_ int dir_fd = -1;
	if (lx_root_mkdir_p(root_fd, lib_dir, &dir_fd, err) < 0)
		return -1;
	static const char tmp[] = MADE_NAME ".new";
	(void)unlinkat(dir_fd, tmp, 0);
	int fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return lx_error_set_errno(err, errno, "%s/%s in the container", lib_dir, tmp);
	struct lx_buf b = {0};
	for (size_t i = 0; i < m->entries.n; i++)
		lx_buf_printf(&b, "%s\n", m->entries.items[i]);
	int rc = lx_write_all(fd, b.data, b.len) < 0 || fsync(fd) < 0 ? -1 : 0;
	int e = errno;
	lx_buf_free(&b);
	if (close(fd) < 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	if (rc == 0 && renameat(dir_fd, tmp, dir_fd, MADE_NAME) < 0) {
		rc = -1;
		e = errno;
	}
	if (rc < 0) {
		(void)unlinkat(dir_fd, tmp, 0);
		return lx_error_set_errno(err, e, "%s/%s in the container: cannot write the list of "
					  "what the hook made", lib_dir, MADE_NAME);
	}
	return 0;
}
