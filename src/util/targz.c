/* libarchive, loaded on first use: .tar.gz archives of a few small files
 * (snapshot bundles, config backups) and compressed kernel modules.
 *
 * lxgpu is not linked against libarchive: it is dlopen()ed, as systemd loads
 * its optional libraries, so scan, generate, verify and the start hook never
 * map it and the compression and XML libraries it pulls in. Every use of
 * libarchive is in this file. */
#include "lxgpu/util.h"

#include <archive.h>
#include <archive_entry.h>
#include <string.h>
#include <time.h>

/* The soname of Debian 12's libarchive13 (the ABI the headers describe). */
#define ARCHIVE_SONAME "libarchive.so.13"

/* Function pointers typed from the headers, so a mismatch fails to build. */
#define ARCHIVE_SYMBOLS(X)                                                                         \
	X(archive_error_string)                                                                    \
	X(archive_entry_new)                                                                       \
	X(archive_entry_free)                                                                      \
	X(archive_entry_pathname)                                                                  \
	X(archive_entry_filetype)                                                                  \
	X(archive_entry_size)                                                                      \
	X(archive_entry_set_pathname)                                                              \
	X(archive_entry_set_filetype)                                                              \
	X(archive_entry_set_perm)                                                                  \
	X(archive_entry_set_size)                                                                  \
	X(archive_entry_set_mtime)                                                                 \
	X(archive_write_new)                                                                       \
	X(archive_write_add_filter_gzip)                                                           \
	X(archive_write_set_format_pax_restricted)                                                 \
	X(archive_write_open)                                                                      \
	X(archive_write_header)                                                                    \
	X(archive_write_data)                                                                      \
	X(archive_write_close)                                                                     \
	X(archive_write_free)                                                                      \
	X(archive_read_new)                                                                        \
	X(archive_read_support_filter_all)                                                         \
	X(archive_read_support_filter_gzip)                                                        \
	X(archive_read_support_format_raw)                                                         \
	X(archive_read_support_format_tar)                                                         \
	X(archive_read_open_memory)                                                                \
	X(archive_read_open_filename)                                                              \
	X(archive_read_next_header)                                                                \
	X(archive_read_data)                                                                       \
	X(archive_read_free)

static struct archive_lib {
	ARCHIVE_SYMBOLS(LX_DL_FIELD)
} lib;

#define ENTRY(name) LX_DL_ENTRY(lib, name)
static const struct lx_dl_symbol archive_symbols[] = {ARCHIVE_SYMBOLS(ENTRY)};
#undef ENTRY
static struct lx_dl_library archive_library = {
	ARCHIVE_SONAME, ".tar.gz bundles, backups and compressed modules", "libarchive13",
	archive_symbols, sizeof(archive_symbols) / sizeof(archive_symbols[0]), false};

static const struct archive_lib *archive_lib(struct lx_error *err)
{
	return lx_dl_load(&archive_library, err) < 0 ? NULL : &lib;
}

static la_ssize_t append_cb(struct archive *a, void *data, const void *buf, size_t n)
{
	(void)a;
	lx_buf_append(data, buf, n);
	return (la_ssize_t)n;
}

int lx_targz_build(const struct lx_tar_file *files, size_t n, struct lx_buf *out,
		   struct lx_error *err)
{
	const struct archive_lib *L = archive_lib(err);
	if (!L)
		return -1;
	struct archive *a = L->archive_write_new();
	L->archive_write_add_filter_gzip(a);
	L->archive_write_set_format_pax_restricted(a);
	bool ok = L->archive_write_open(a, out, NULL, append_cb, NULL) == ARCHIVE_OK;
	time_t now = time(NULL);
	for (size_t i = 0; ok && i < n; i++) {
		struct archive_entry *e = L->archive_entry_new();
		L->archive_entry_set_pathname(e, files[i].name);
		L->archive_entry_set_filetype(e, AE_IFREG);
		L->archive_entry_set_perm(e, files[i].perm ? files[i].perm : 0644);
		L->archive_entry_set_size(e, (la_int64_t)files[i].len);
		L->archive_entry_set_mtime(e, now, 0);
		ok = L->archive_write_header(a, e) == ARCHIVE_OK &&
		     (files[i].len == 0 || L->archive_write_data(a, files[i].data, files[i].len) ==
						   (la_ssize_t)files[i].len);
		L->archive_entry_free(e);
	}
	ok = ok && L->archive_write_close(a) == ARCHIVE_OK;
	int rc = ok ? 0
		    : lx_error_set(err, "cannot build the archive: %s", L->archive_error_string(a));
	L->archive_write_free(a);
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
	const struct archive_lib *L = archive_lib(err);
	if (!L)
		return -1;
	struct archive *a = L->archive_read_new();
	L->archive_read_support_filter_gzip(a);
	L->archive_read_support_format_tar(a);
	int rc = -1;
	struct archive_entry *entry;
	int r;
	if (L->archive_read_open_memory(a, data, len) != ARCHIVE_OK) {
		lx_error_set(err, "%s: not a readable .tar.gz: %s", label, L->archive_error_string(a));
		goto out;
	}
	while ((r = L->archive_read_next_header(a, &entry)) == ARCHIVE_OK) {
		const char *name = L->archive_entry_pathname(entry);
		mode_t type = L->archive_entry_filetype(entry);
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
		la_int64_t size = L->archive_entry_size(entry);
		if (size < 0 || (uint64_t)size > max_entry) {
			lx_error_set(err, "%s: %s is too large", label, name);
			goto out;
		}
		free(w->data);
		w->data = lx_xmalloc((size_t)size + 1);
		la_ssize_t got = L->archive_read_data(a, w->data, (size_t)size);
		if (got != (la_ssize_t)size) {
			lx_error_set(err, "%s: cannot read %s: %s", label, name,
				     got < 0 ? L->archive_error_string(a) : "truncated");
			goto out;
		}
		w->data[size] = '\0';
		w->len = (size_t)size;
	}
	if (r != ARCHIVE_EOF) {
		lx_error_set(err, "%s: corrupt archive: %s", label, L->archive_error_string(a));
		goto out;
	}
	rc = 0;
out:
	if (rc < 0)
		for (size_t i = 0; i < n_want; i++) {
			free(want[i].data);
			want[i].data = NULL;
		}
	L->archive_read_free(a);
	return rc;
}

int lx_file_read_decompressed(const char *path, size_t max, struct lx_buf *out,
			      struct lx_error *err)
{
	const struct archive_lib *L = archive_lib(err);
	if (!L)
		return -1;
	/* Plain or compressed alike: libarchive's raw format with every filter. */
	struct archive *a = L->archive_read_new();
	L->archive_read_support_filter_all(a);
	L->archive_read_support_format_raw(a);
	struct archive_entry *e;
	int rc = -1;
	struct lx_buf b = {0};
	if (L->archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK ||
	    L->archive_read_next_header(a, &e) != ARCHIVE_OK) {
		lx_error_set(err, "%s: cannot read: %s", path, L->archive_error_string(a));
		goto out;
	}
	char chunk[1 << 16];
	la_ssize_t n;
	while ((n = L->archive_read_data(a, chunk, sizeof(chunk))) > 0) {
		if (b.len + (size_t)n > max) {
			lx_error_set(err, "%s: larger than %zu MiB uncompressed", path, max >> 20);
			goto out;
		}
		lx_buf_append(&b, chunk, (size_t)n);
	}
	if (n < 0) {
		lx_error_set(err, "%s: cannot decompress: %s", path, L->archive_error_string(a));
		goto out;
	}
	*out = b;
	b = (struct lx_buf){0};
	rc = 0;
out:
	lx_buf_free(&b);
	L->archive_read_free(a);
	return rc;
}
