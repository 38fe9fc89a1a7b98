/* Changing a config safely: PVE's lock, change detection, atomic replace. */
#include "lxgpu/config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define CONF_MAX_SIZE (8u << 20)

static int take_lock(const char *path, bool is_dir, int timeout_s, int *fd_out,
		     struct lx_error *err)
{
	int fd = is_dir ? open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
			: open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return lx_error_set_errno(err, errno, "%s: cannot open the lock", path);
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			*fd_out = fd;
			return 0;
		}
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;
			close(fd);
			return lx_error_set_errno(err, e, "%s: cannot lock", path);
		}
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long waited_ms = (now.tv_sec - start.tv_sec) * 1000LL +
				      (now.tv_nsec - start.tv_nsec) / 1000000;
		if (waited_ms >= timeout_s * 1000LL) {
			close(fd);
			return lx_error_set(err,
					    "%s is held by another process (Proxmox or another tool is "
					    "changing this container) and was not released within %d s; "
					    "nothing was written: try again when it is done",
					    path, timeout_s);
		}
		struct timespec pause = {0, 50 * 1000 * 1000};
		nanosleep(&pause, NULL);
	}
}

int lx_conf_txn_begin(const struct lx_conf_txn_options *opts, const char *id,
		      struct lx_conf_txn *txn, struct lx_error *err)
{
	memset(txn, 0, sizeof(*txn));
	txn->lock_fd = -1;
	_cleanup_free_ char *found = NULL;
	if (lx_conf_find(opts->pve_dir, opts->lxc_path, id, &found, &txn->is_pve, err) < 0)
		return -1;
	txn->id = lx_xstrdup(id);
	/* Replace the file the link points at, not the link (pmxcfs: /etc/pve/lxc
	 * is a link to this node's directory). */
	char resolved[PATH_MAX];
	txn->path = lx_xstrdup(realpath(found, resolved) ? resolved : found);
	if (!opts->no_lock) {
		int rc;
		if (txn->is_pve) {
			if (lx_mkdir_parents(opts->lock_dir, 0755) < 0) {
				int e = errno;
				lx_conf_txn_end(txn);
				return lx_error_set_errno(err, e, "%s: cannot create the lock directory",
							  opts->lock_dir);
			}
			_cleanup_free_ char *lock = lx_xasprintf("%s/pve-config-%s.lock", opts->lock_dir, id);
			rc = take_lock(lock, false, opts->lock_timeout_s, &txn->lock_fd, err);
		} else {
			_cleanup_free_ char *dir = lx_xasprintf("%s/%s", opts->lxc_path, id);
			rc = take_lock(dir, true, opts->lock_timeout_s, &txn->lock_fd, err);
		}
		if (rc < 0) {
			lx_conf_txn_end(txn);
			return -1;
		}
	}
	if (stat(txn->path, &txn->st) < 0)
		lx_error_set_errno(err, errno, "%s: cannot read", txn->path);
	else if (lx_read_file(txn->path, CONF_MAX_SIZE, &txn->text, &txn->len, err) == 0)
		return 0;
	lx_conf_txn_end(txn);
	return -1;
}

struct commit_hook {
	struct lx_conf_txn *txn;
	int (*before_replace)(void *ctx, struct lx_error *err);
	void *ctx;
};

/* Refuse to replace a file someone changed since it was read; then run the
 * caller's hook. */
static int before_rename(void *ctx, struct lx_error *err)
{
	struct commit_hook *hook = ctx;
	struct lx_conf_txn *txn = hook->txn;
	_cleanup_free_ char *now = NULL;
	size_t len;
	struct lx_error ignored = {0};
	int rc = lx_read_file(txn->path, CONF_MAX_SIZE, &now, &len, &ignored);
	lx_error_clear(&ignored);
	if (rc < 0 || len != txn->len || memcmp(now, txn->text, len) != 0)
		return lx_error_set(err,
				    "%s changed while lxgpu was working on it (another tool wrote "
				    "it); nothing was written: run the command again",
				    txn->path);
	return hook->before_replace ? hook->before_replace(hook->ctx, err) : 0;
}

int lx_conf_txn_commit(struct lx_conf_txn *txn, const char *text, size_t len,
		       int (*before_replace)(void *ctx, struct lx_error *err), void *ctx,
		       struct lx_error *err)
{
	struct commit_hook hook = {txn, before_replace, ctx};
	return lx_replace_file(txn->path, text, len, &txn->st, before_rename, &hook, err);
}

void lx_conf_txn_end(struct lx_conf_txn *txn)
{
	if (txn->lock_fd >= 0)
		close(txn->lock_fd); /* releases the flock */
	free(txn->id);
	free(txn->path);
	free(txn->text);
	memset(txn, 0, sizeof(*txn));
	txn->lock_fd = -1;
}
