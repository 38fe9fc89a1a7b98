/* Backups of configs before lxgpu changes them: <dir>/<ctid>-<time>.tar.gz
 * holding "config" (the old bytes) and "meta.yaml". */
#include "lxgpu/config.h"
#include "lxgpu/report.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define BACKUP_MAX_SIZE (16u << 20)

static la_ssize_t append_cb(struct archive *a, void *data, const void *buf, size_t n)
{
	(void)a;
	lx_buf_append(data, buf, n);
	return (la_ssize_t)n;
}

static bool add_entry(struct archive *a, const char *name, const char *data, size_t len)
{
	struct archive_entry *e = archive_entry_new();
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0600);
	archive_entry_set_size(e, (la_int64_t)len);
	archive_entry_set_mtime(e, time(NULL), 0);
	bool ok = archive_write_header(a, e) == ARCHIVE_OK &&
		  (len == 0 || archive_write_data(a, data, len) == (la_ssize_t)len);
	archive_entry_free(e);
	return ok;
}

static char *meta_yaml(const struct lx_backup_meta *m)
{
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "ctid", lx_doc_new_str(m->ctid));
	lx_doc_map_set(d, "config_path", lx_doc_new_str(m->config_path));
	lx_doc_map_set(d, "time", lx_doc_new_str(m->time));
	lx_doc_map_set(d, "lxgpu_version", lx_doc_new_str(m->lxgpu_version));
	lx_doc_map_set(d, "hostname", lx_doc_new_str(m->hostname));
	lx_doc_map_set(d, "command", lx_doc_new_str(m->command));
	char *text = lx_doc_to_yaml(d);
	lx_doc_free(d);
	return text;
}

int lx_backup_write(const char *dir, const char *text, size_t len,
		    const struct lx_backup_meta *meta, char **name, struct lx_error *err)
{
	*name = NULL;
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
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
	struct archive *a = archive_write_new();
	archive_write_add_filter_gzip(a);
	archive_write_set_format_pax_restricted(a);
	int rc = 0;
	if (archive_write_open(a, &tar, NULL, append_cb, NULL) != ARCHIVE_OK ||
	    !add_entry(a, "config", text, len) ||
	    !add_entry(a, "meta.yaml", meta_text, strlen(meta_text)) ||
	    archive_write_close(a) != ARCHIVE_OK)
		rc = lx_error_set(err, "cannot build the backup: %s", archive_error_string(a));
	archive_write_free(a);
	_cleanup_free_ char *path = lx_path_join(dir, file);
	if (rc == 0 && lx_write_file_atomic(path, tar.data, tar.len, 0600, err) < 0)
		rc = lx_error_prefix(err, "cannot store the backup (nothing else was written)");
	lx_buf_free(&tar);
	if (rc == 0)
		*name = lx_xstrdup(file);
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
	_cleanup_free_ char *prefix = lx_xasprintf("%s-", ctid);
	struct dirent *de;
	while ((de = readdir(d)))
		if (lx_str_starts_with(de->d_name, prefix) && lx_str_ends_with(de->d_name, ".tar.gz") &&
		    strchr("0123456789", de->d_name[strlen(prefix)]) &&
		    strlen(de->d_name) > strlen(prefix) + 8)
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
	lx_doc_free(d);
	return rc;
}

int lx_backup_read(const char *path, char **text, size_t *len, struct lx_backup_meta *meta,
		   struct lx_error *err)
{
	*text = NULL;
	memset(meta, 0, sizeof(*meta));
	struct archive *a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	int rc = -1;
	_cleanup_free_ char *meta_text = NULL;
	size_t meta_len = 0;
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		lx_error_set(err, "%s: not a readable backup: %s", path, archive_error_string(a));
		goto out;
	}
	struct archive_entry *e;
	int r;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		char **dest = strcmp(name, "config") == 0      ? text
			      : strcmp(name, "meta.yaml") == 0 ? &meta_text
							       : NULL;
		if (!dest || archive_entry_filetype(e) != AE_IFREG)
			continue;
		la_int64_t size = archive_entry_size(e);
		if (size < 0 || size > (la_int64_t)BACKUP_MAX_SIZE) {
			lx_error_set(err, "%s: %s is too large", path, name);
			goto out;
		}
		free(*dest);
		*dest = lx_xmalloc((size_t)size + 1);
		if (archive_read_data(a, *dest, (size_t)size) != (la_ssize_t)size) {
			lx_error_set(err, "%s: cannot read %s: %s", path, name, archive_error_string(a));
			goto out;
		}
		(*dest)[size] = '\0';
		*(dest == text ? len : &meta_len) = (size_t)size;
	}
	if (r != ARCHIVE_EOF) {
		lx_error_set(err, "%s: corrupt backup: %s", path, archive_error_string(a));
		goto out;
	}
	if (!*text || !meta_text) {
		lx_error_set(err, "%s: not an lxgpu backup (no config or meta.yaml)", path);
		goto out;
	}
	rc = read_meta(path, meta_text, meta_len, meta, err);
out:
	archive_read_free(a);
	if (rc < 0) {
		free(*text);
		*text = NULL;
		lx_backup_meta_free(meta);
	}
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
	memset(m, 0, sizeof(*m));
}
