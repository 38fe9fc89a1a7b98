/* Backups of configs before lxgpu changes them: <dir>/<ctid>-<time>.tar.gz
 * holding "config" (the old bytes), "written" (the bytes lxgpu put in their
 * place, so that rollback can tell lxgpu's change from later edits; older
 * backups lack it), "meta.yaml", and when the change also wrote lxgpu's
 * include file, "include.before" (its old text, when it had one) and
 * "include.written". */
#include "lxgpu/config.h"
#include "lxgpu/report.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BACKUP_MAX_SIZE (16u << 20)

static char *meta_yaml(const struct lx_backup_meta *m)
{
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "ctid", lx_doc_new_str(m->ctid));
	lx_doc_map_set(d, "config_path", lx_doc_new_str(m->config_path));
	lx_doc_map_set(d, "time", lx_doc_new_str(m->time));
	lx_doc_map_set(d, "lxgpu_version", lx_doc_new_str(m->lxgpu_version));
	lx_doc_map_set(d, "hostname", lx_doc_new_str(m->hostname));
	lx_doc_map_set(d, "command", lx_doc_new_str(m->command));
	if (m->action)
		lx_doc_map_set(d, "action", lx_doc_new_str(m->action));
	if (m->undoes)
		lx_doc_map_set(d, "undoes", lx_doc_new_str(m->undoes));
	if (m->include_path)
		lx_doc_map_set(d, "include_path", lx_doc_new_str(m->include_path));
	char *text = lx_doc_to_yaml(d);
	lx_doc_free(d);
	return text;
}

int lx_backup_write(const char *dir, const char *text, size_t len,
		    const struct lx_backup_meta *meta, char **name, struct lx_error *err)
{
	*name = NULL;
	if (lx_mkdir_parents(dir, 0700) < 0)
		return lx_error_set_errno(err, errno, "%s: cannot create the backup directory "
					  "(--backup-dir chooses another)", dir);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct tm tm;
	gmtime_r(&now.tv_sec, &tm);
	char stamp[32];
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	/* Nanoseconds keep names unique and in time order. */
	_cleanup_free_ char *file = lx_xasprintf("%s-%s.%09ldZ.tar.gz", meta->ctid, stamp, now.tv_nsec);
	_cleanup_free_ char *meta_text = meta_yaml(meta);

	struct lx_buf tar = {0};
	struct lx_tar_file files[5] = {
		{"config", text, len, 0600},
		{"meta.yaml", meta_text, strlen(meta_text), 0600},
	};
	size_t n = 2;
	if (meta->written)
		files[n++] = (struct lx_tar_file){"written", meta->written, meta->written_len, 0600};
	if (meta->include_path && meta->include_before)
		files[n++] = (struct lx_tar_file){"include.before", meta->include_before,
						  meta->include_before_len, 0600};
	if (meta->include_path && meta->include_written)
		files[n++] = (struct lx_tar_file){"include.written", meta->include_written,
						  meta->include_written_len, 0600};
	int rc = lx_targz_build(files, n, &tar, err);
	_cleanup_free_ char *path = lx_path_join(dir, file);
	if (rc == 0 && lx_write_file_atomic(path, tar.data, tar.len, 0600, err) < 0)
		rc = lx_error_prefix(err, "cannot store the backup (nothing else was written)");
	lx_buf_free(&tar);
	if (rc == 0)
		*name = lx_xstrdup(file);
	return rc;
}

/* <ctid>-<UTC time>.tar.gz, as lx_backup_write names them. */
static bool is_backup_of(const char *name, void *ctid)
{
	size_t n = strlen(ctid);
	return strncmp(name, ctid, n) == 0 && name[n] == '-' && name[n + 1] >= '0' &&
	       name[n + 1] <= '9' && strlen(name) > n + 9 && lx_str_ends_with(name, ".tar.gz");
}

int lx_backup_prune(const char *dir, const char *ctid, int keep, const char *just_written,
		    struct lx_strv *removed, struct lx_error *err)
{
	/* A backup whose write was interrupted is a temporary file: older than a
	 * minute, no apply is still writing it. */
	if (lx_atomic_clean_stale(dir, is_backup_of, (void *)ctid, 60, removed, err) < 0)
		return -1;
	struct lx_strv names;
	if (lx_backup_list(dir, ctid, &names, err) < 0)
		return -1;
	int rc = 0;
	/* Oldest first: all but the newest `keep`, never the one just written. */
	for (size_t i = 0; rc == 0 && keep > 0 && i + (size_t)keep < names.n; i++) {
		if (just_written && strcmp(names.items[i], just_written) == 0)
			continue;
		_cleanup_free_ char *path = lx_path_join(dir, names.items[i]);
		if (lx_remove_file(path) < 0 && errno != ENOENT)
			rc = lx_error_set_errno(err, errno, "%s: cannot remove this old backup", path);
		else if (removed)
			lx_strv_push(removed, path);
	}
	lx_strv_free(&names);
	return rc;
}

int lx_backup_list(const char *dir, const char *ctid, struct lx_strv *names,
		   struct lx_error *err)
{
	memset(names, 0, sizeof(*names));
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return lx_error_set_errno(err, errno, "%s: cannot list backups", dir);
	}
	struct dirent *de;
	while ((de = readdir(d)))
		if (is_backup_of(de->d_name, (void *)ctid))
			lx_strv_push(names, de->d_name);
	closedir(d);
	lx_strv_sort(names);
	return 0;
}

static int read_meta(const char *path, const char *yaml, size_t len, struct lx_backup_meta *m,
		     struct lx_error *err)
{
	struct lx_doc *d;
	_cleanup_free_ char *name = lx_xasprintf("%s:meta.yaml", path);
	if (lx_doc_from_yaml(name, yaml, len, &d, err) < 0)
		return -1;
	static const char *const keys[] = {"ctid", "config_path", "time", "lxgpu_version",
					   "hostname", "command"};
	char **fields[] = {&m->ctid, &m->config_path, &m->time, &m->lxgpu_version, &m->hostname,
			   &m->command};
	int rc = 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct lx_doc *v = lx_doc_map_get(d, keys[i]);
		if (v && v->kind == LX_DOC_STR)
			*fields[i] = lx_xstrdup(v->str);
		else if (!v || v->kind != LX_DOC_NULL)
			rc = lx_error_set(err, "%s: field '%s' is missing or not a string", name,
					  keys[i]);
	}
	/* Fields older backups lack. */
	static const char *const optional[] = {"action", "undoes", "include_path"};
	char **ofields[] = {&m->action, &m->undoes, &m->include_path};
	for (size_t i = 0; rc == 0 && i < sizeof(optional) / sizeof(optional[0]); i++) {
		const struct lx_doc *v = lx_doc_map_get(d, optional[i]);
		if (v && v->kind == LX_DOC_STR)
			*ofields[i] = lx_xstrdup(v->str);
		else if (v && v->kind != LX_DOC_NULL)
			rc = lx_error_set(err, "%s: field '%s' is not a string", name, optional[i]);
	}
	lx_doc_free(d);
	return rc;
}

int lx_backup_read(const char *path, char **text, size_t *len, struct lx_backup_meta *meta,
		   struct lx_error *err)
{
	*text = NULL;
	memset(meta, 0, sizeof(*meta));
	_cleanup_free_ char *data = NULL;
	size_t data_len;
	if (lx_read_file(path, BACKUP_MAX_SIZE, &data, &data_len, err) < 0)
		return -1;
	return lx_backup_read_buffer(path, data, data_len, text, len, meta, err);
}

int lx_backup_read_buffer(const char *path, const char *data, size_t data_len, char **text,
			  size_t *len, struct lx_backup_meta *meta, struct lx_error *err)
{
	*text = NULL;
	memset(meta, 0, sizeof(*meta));
	struct lx_tar_want want[] = {{.name = "config"},
				     {.name = "meta.yaml"},
				     {.name = "written"},
				     {.name = "include.before"},
				     {.name = "include.written"}};
	if (lx_targz_read(path, data, data_len, want, 5, BACKUP_MAX_SIZE, err) < 0)
		return -1;
	int rc = -1;
	if (!want[0].data || !want[1].data)
		lx_error_set(err, "%s: not an lxgpu backup (no config or meta.yaml)", path);
	else
		rc = read_meta(path, want[1].data, want[1].len, meta, err);
	if (rc == 0) {
		*text = want[0].data;
		*len = want[0].len;
		meta->written = want[2].data; /* NULL in older backups */
		meta->written_len = want[2].len;
		meta->include_before = want[3].data;
		meta->include_before_len = want[3].len;
		meta->include_written = want[4].data;
		meta->include_written_len = want[4].len;
	} else {
		free(want[0].data);
		free(want[2].data);
		free(want[3].data);
		free(want[4].data);
		lx_backup_meta_free(meta);
	}
	free(want[1].data);
	return rc;
}

void lx_backup_meta_free(struct lx_backup_meta *m)
{
	free(m->ctid);
	free(m->config_path);
	free(m->time);
	free(m->lxgpu_version);
	free(m->hostname);
	free(m->command);
	free(m->written);
	free(m->action);
	free(m->undoes);
	free(m->include_path);
	free(m->include_before);
	free(m->include_written);
	memset(m, 0, sizeof(*m));
}

int lx_backup_latest_apply(const char *dir, const char *ctid, char **name, struct lx_error *err)
{
	*name = NULL;
	struct lx_strv names, done = {0};
	if (lx_backup_list(dir, ctid, &names, err) < 0)
		return -1;
	int rc = 0;
	for (size_t i = names.n; rc == 0 && !*name && i-- > 0;) {
		if (lx_strv_contains(&done, names.items[i]))
			continue; /* undone by a later rollback: its own undoing is void too */
		_cleanup_free_ char *path = lx_path_join(dir, names.items[i]);
		_cleanup_free_ char *text = NULL;
		size_t len;
		struct lx_backup_meta meta;
		if (lx_backup_read(path, &text, &len, &meta, err) < 0) {
			rc = lx_error_prefix(err, "cannot tell which change 'latest' is (name a backup: "
						  "rollback --list shows them)");
			break;
		}
		if (meta.action && strcmp(meta.action, "rollback") == 0) {
			if (meta.undoes)
				lx_strv_push(&done, meta.undoes);
		} else {
			*name = lx_xstrdup(names.items[i]);
		}
		lx_backup_meta_free(&meta);
	}
	lx_strv_free(&done);
	lx_strv_free(&names);
	return rc;
}
