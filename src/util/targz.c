/* .tar.gz archives of a few small files (snapshot bundles, config backups). */
#include "lxgpu/util.h"

#include <archive.h>
#include <archive_entry.h>
#include <string.h>
#include <time.h>

static la_ssize_t append_cb(struct archive *a, void *data, const void *buf, size_t n)
{
	(void)a;
	lx_buf_append(data, buf, n);
	return (la_ssize_t)n;
}

int lx_targz_build(const struct lx_tar_file *files, size_t n, struct lx_buf *out,
		   struct lx_error *err)
{
	struct archive *a = archive_write_new();
	archive_write_add_filter_gzip(a);
	archive_write_set_format_pax_restricted(a);
	bool ok = archive_write_open(a, out, NULL, append_cb, NULL) == ARCHIVE_OK;
	time_t now = time(NULL);
	for (size_t i = 0; ok && i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		archive_entry_set_pathname(e, files[i].name);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, files[i].perm ? files[i].perm : 0644);
		archive_entry_set_size(e, (la_int64_t)files[i].len);
		archive_entry_set_mtime(e, now, 0);
		ok = archive_write_header(a, e) == ARCHIVE_OK &&
		     (files[i].len == 0 ||
		      archive_write_data(a, files[i].data, files[i].len) == (la_ssize_t)files[i].len);
		archive_entry_free(e);
	}
	ok = ok && archive_write_close(a) == ARCHIVE_OK;
	int rc = ok ? 0 : lx_error_set(err, "cannot build the archive: %s", archive_error_string(a));
	archive_write_free(a);
	return rc;
}

bool lx_tar_name_is_safe(const char *name)
{
	if (!name || !*name || name[0] == '/')
		return false;
	_cleanup_free_ char *copy = lx_xstrdup(name);
	char *save = NULL;
	for (char *part = strtok_r(copy, "/", &save); part; part = strtok_r(NULL, "/", &save))
		if (strcmp(part, "..") == 0)
			return false;
	return true;
}

static struct lx_tar_want *wanted(struct lx_tar_want *want, size_t n, const char *name)
{
	if (lx_str_starts_with(name, "./"))
		name += 2;
	for (size_t i = 0; i < n; i++)
		if (strcmp(want[i].name, name) == 0)
			return &want[i];
	return NULL;
}

int lx_targz_read(const char *label, const void *data, size_t len, struct lx_tar_want *want,
		  size_t n_want, size_t max_entry, struct lx_error *err)
{
	for (size_t i = 0; i < n_want; i++) {
		want[i].data = NULL;
		want[i].len = 0;
	}
	struct archive *a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	int rc = -1;
	struct archive_entry *entry;
	int r;
	if (archive_read_open_memory(a, data, len) != ARCHIVE_OK) {
		lx_error_set(err, "%s: not a readable .tar.gz: %s", label, archive_error_string(a));
		goto out;
	}
	while ((r = archive_read_next_header(a, &entry)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(entry);
		mode_t type = archive_entry_filetype(entry);
		/* An unsafe entry makes the whole archive suspect. */
		if (!lx_tar_name_is_safe(name)) {
			lx_error_set(err, "%s: archive entry '%s' has an unsafe path; refusing the archive",
				     label, name ? name : "(none)");
			goto out;
		}
		if (type != AE_IFREG && type != AE_IFDIR) {
			lx_error_set(err, "%s: archive entry '%s' is not a regular file; refusing the archive",
				     label, name);
			goto out;
		}
		struct lx_tar_want *w = type == AE_IFREG ? wanted(want, n_want, name) : NULL;
		if (!w)
			continue;
		la_int64_t size = archive_entry_size(entry);
		if (size < 0 || (uint64_t)size > max_entry) {
			lx_error_set(err, "%s: %s is too large", label, name);
			goto out;
		}
		free(w->data);
		w->data = lx_xmalloc((size_t)size + 1);
		la_ssize_t got = archive_read_data(a, w->data, (size_t)size);
		if (got != (la_ssize_t)size) {
			lx_error_set(err, "%s: cannot read %s: %s", label, name,
				     got < 0 ? archive_error_string(a) : "truncated");
			goto out;
		}
		w->data[size] = '\0';
		w->len = (size_t)size;
	}
	if (r != ARCHIVE_EOF) {
		lx_error_set(err, "%s: corrupt archive: %s", label, archive_error_string(a));
		goto out;
	}
	rc = 0;
out:
	if (rc < 0)
		for (size_t i = 0; i < n_want; i++) {
			free(want[i].data);
			want[i].data = NULL;
		}
	archive_read_free(a);
	return rc;
}
