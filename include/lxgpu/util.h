/* util: errors as values, growable buffers and string lists, safe file I/O.
 *
 * Every fallible function returns 0 on success and -1 on failure, and fills
 * a struct lx_error that the caller prints once at the top (crun's style). */
#ifndef LXGPU_UTIL_H
#define LXGPU_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>

#define LX_EXIT_OK 0
#define LX_EXIT_FINDINGS 1
#define LX_EXIT_ERROR 2

struct lx_error {
	char *message; /* NULL when no error is set */
};

/* Set (or replace) the error message; always returns -1 so callers can
 * write `return lx_error_set(err, ...)`. */
int lx_error_set(struct lx_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Same, appending ": strerror(errnum)". */
int lx_error_set_errno(struct lx_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefix the existing message: "prefix: old message". */
int lx_error_prefix(struct lx_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void lx_error_clear(struct lx_error *err);

/* Allocation that aborts on out-of-memory: a CLI has nothing sane to do. */
void *lx_xmalloc(size_t size);
void *lx_xcalloc(size_t n, size_t size);
void *lx_xrealloc(void *p, size_t size);
/* p (an array of n items of size bytes, grown only by this) with room for
 * item n: reallocated only when n is 0 or a power of two from 8 on, so
 * appending one at a time costs O(log n) reallocations. n may have shrunk
 * meanwhile (the room stays). */
void *lx_xgrow(void *p, size_t n, size_t size);
/* A copy of n items that lx_xgrow can go on growing (NULL when n is 0). */
void *lx_xgrow_copy(const void *src, size_t n, size_t size);
char *lx_xstrdup(const char *s);
/* n bytes of s (NUL bytes too: it does not stop at one), NUL-terminated. */
char *lx_xstrndup(const char *s, size_t n);
char *lx_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *lx_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static inline void lx_freep(void *p) { free(*(void **)p); }
static inline void lx_fclosep(FILE **f) { if (*f) fclose(*f); }
#define _cleanup_free_ __attribute__((cleanup(lx_freep)))
#define _cleanup_fclose_ __attribute__((cleanup(lx_fclosep)))
void lx_closep(int *fd);
#define _cleanup_close_ __attribute__((cleanup(lx_closep)))

/* A growable byte buffer, always NUL terminated. */
struct lx_buf {
	char *data;
	size_t len;
	size_t cap;
};
void lx_buf_append(struct lx_buf *b, const char *s, size_t n);
void lx_buf_puts(struct lx_buf *b, const char *s);
/* w as one word for sh: as it is when it holds only plain path characters,
 * else single-quoted (a ' inside as '\''). */
void lx_buf_shell_word(struct lx_buf *b, const char *w);
void lx_buf_printf(struct lx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lx_buf_vprintf(struct lx_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Hand the data to the caller (never NULL) and reset the buffer. */
char *lx_buf_steal(struct lx_buf *b);
void lx_buf_free(struct lx_buf *b);

/* A growable list of owned strings. */
struct lx_strv {
	char **items;
	size_t n;
};
void lx_strv_push(struct lx_strv *v, const char *s);
void lx_strv_push_owned(struct lx_strv *v, char *s);
bool lx_strv_contains(const struct lx_strv *v, const char *s);
/* The same strings in the same order. */
bool lx_strv_equal(const struct lx_strv *a, const struct lx_strv *b);
void lx_strv_sort(struct lx_strv *v);
void lx_strv_free(struct lx_strv *v);
/* The items joined by sep ("" for none). */
char *lx_strv_join(const struct lx_strv *v, const char *sep);

/* String helpers. */
bool lx_str_starts_with(const char *s, const char *prefix);
bool lx_str_ends_with(const char *s, const char *suffix);
/* Trim ASCII white space at both ends, in place; returns s. */
char *lx_str_strip(char *s);
/* The longest run of plain characters that every text the POSIX extended
 * regex matches contains (newly allocated), NULL when it has none of three
 * or more: a cheap strstr() before regexec(). */
char *lx_ere_required_literal(const char *ere);
/* Parse a whole string as an unsigned/signed integer in the given base. */
bool lx_parse_uint(const char *s, int base, unsigned long long max, unsigned long long *out);
bool lx_parse_int(const char *s, long long min, long long max, long long *out);
/* The index of name in a table of n names, or -1. */
int lx_name_index(const char *const *names, size_t n, const char *name);
/* Join path parts with exactly one '/' between them. */
char *lx_path_join(const char *a, const char *b);
/* a followed by b, in a new string (no format to parse: lx_xasprintf's cost). */
char *lx_str_concat(const char *a, const char *b);

/* Read a whole file (up to max_size bytes; larger is an error).
 * *out is NUL terminated; *len excludes the NUL. */
int lx_read_file(const char *path, size_t max_size, char **out, size_t *len,
		 struct lx_error *err);
/* Read path relative to the directory dir_fd (a /proc/<pid> fd: the
 * files of that process, ESRCH once it is gone). */
int lx_read_file_at(int dir_fd, const char *path, size_t max_size, char **out, size_t *len,
		    struct lx_error *err);
/* Same, but a missing file is not an error: returns 0 with *out = NULL. */
int lx_read_file_optional(const char *path, size_t max_size, char **out, size_t *len,
			  struct lx_error *err);
/* Installed Debian packages (ROOT/var/lib/dpkg/status; a missing file: none)
 * whose name want() accepts, with their full versions ("1:5.0.2-1+deb12u4").
 * src/util/dpkg.c */
struct lx_dpkg_package {
	char *name;
	char *version;
};
int lx_dpkg_installed(const char *root, bool (*want)(const char *package, void *ctx), void *ctx,
		      struct lx_dpkg_package **out, size_t *n, struct lx_error *err);
void lx_dpkg_packages_free(struct lx_dpkg_package *packages, size_t n);
/* A Debian version's upstream part: "1:5.0.2-1+deb12u4" -> "5.0.2". */
char *lx_dpkg_upstream(const char *version);
/* Dotted numeric versions compared part by part ("6.0.10" > "6.0.4"; a
 * missing part is 0); -1, 0 or 1. */
int lx_version_cmp(const char *a, const char *b);

/* Run binary (an absolute path) with argv, no shell, environment PATH and
 * LC_ALL=C only; stdin and stderr on /dev/null. Its stdout when it exited 0
 * within timeout_ms having printed at most max_out bytes, else NULL (it is
 * killed when it takes longer or prints more). src/util/run.c */
char *lx_run_capture(const char *binary, char *const argv[], size_t max_out, int timeout_ms);
/* The same, keeping what it writes to stderr (stdout on /dev/null) in
 * *errors (always set, "" for none; at most max_err bytes, else it is
 * killed): its exit status, -1 when it could not run or was killed. */
int lx_run_errors(const char *binary, char *const argv[], size_t max_err, int timeout_ms,
		  char **errors);
/* The first regular executable file NAME in the absolute directories of a
 * PATH-style list (NULL or empty: /usr/sbin:/usr/bin:/sbin:/bin), or NULL. */
char *lx_find_in_path(const char *path_list, const char *name);
/* write(2) until all of buf is written (EINTR retried); -1 with errno. */
int lx_write_all(int fd, const void *buf, size_t len);
/* Replace path atomically: temp file in the same directory, fsync, rename,
 * fsync of the directory. The old file stays intact on any failure. */
int lx_write_file_atomic(const char *path, const void *data, size_t len, mode_t mode,
			 struct lx_error *err);
/* mkdir -p: dir with mode, its missing parents 0755 (lxgpu's default paths,
 * /var/lib/lxgpu/backups, are made on first use). An existing directory is
 * fine. -1 with errno set, as mkdir(2). */
int lx_mkdir_parents(const char *dir, mode_t mode);
/* The same, giving the new file the mode and owner of `like` (the file it
 * replaces). before_rename, when set, runs just before the rename and may
 * veto it by returning -1 (with err set). */
int lx_replace_file(const char *path, const void *data, size_t len, const struct stat *like,
		    int (*before_rename)(void *ctx, struct lx_error *err), void *ctx,
		    struct lx_error *err);

/* The same as a stream: a temporary file next to path (fd open for
 * writing, mode set), renamed over path by commit after fsync, the
 * directory fsynced too; abort (and a failed commit) removes it. */
struct lx_atomic_file {
	char *path;
	char *tmp;
	int fd;
};
int lx_atomic_open(const char *path, mode_t mode, struct lx_atomic_file *f, struct lx_error *err);
int lx_atomic_commit(struct lx_atomic_file *f, struct lx_error *err);
void lx_atomic_abort(struct lx_atomic_file *f);
/* Remove the temporary files interrupted writes left in dir: only
 * lxgpu's own names (<final>.lxgpu-tmp-XXXXXX) for which want(final, ctx)
 * is true, regular files last changed at least min_age_s ago. Their paths
 * are added to removed (may be NULL). A missing dir is fine. */
int lx_atomic_clean_stale(const char *dir, bool (*want)(const char *final, void *ctx), void *ctx,
			  int min_age_s, struct lx_strv *removed, struct lx_error *err);
/* The same for the temporary names of one path (a minute old): what a
 * SIGKILL left of an earlier write of it. lx_atomic_open and
 * lx_atomic_mknod do this first, so every writer sweeps what it left.
 * err may be NULL. */
int lx_atomic_sweep(const char *path, struct lx_strv *removed, struct lx_error *err);
/* unlink(2), said as a change if the command is interrupted later. */
int lx_remove_file(const char *path);
/* A character device node at path, replaced whole: made under a temporary
 * dot name beside it (scanners of /dev skip dot names), given mode (not
 * the umask's) and owner, renamed over path; never opened. */
int lx_atomic_mknod(const char *path, mode_t mode, dev_t dev, uid_t uid, gid_t gid,
		    struct lx_error *err);

/* SIGINT, SIGTERM and SIGHUP (util/interrupt.c): once installed, each ends
 * the command at once with LX_EXIT_ERROR, after removing the tracked
 * temporary files and killing the tracked process groups, and stderr says
 * which changes were made and which files were not written. A signal the
 * caller ignores (nohup) stays ignored. Installing starts the record of
 * temporary files, groups and changes anew. */
void lx_interrupt_install(void);
/* Between hold and release (nested: the outermost counts) those signals
 * wait: the changes made meanwhile are made whole, and a signal that came
 * is taken at the release. */
void lx_interrupt_hold(void);
void lx_interrupt_release(void);
/* A temporary file in flight, standing for final (lx_atomic_open's). */
void lx_interrupt_track_temp(const char *tmp, const char *final);
void lx_interrupt_untrack_temp(const char *tmp);
/* A change made ("written", "removed", ... path): said when interrupted later. */
void lx_interrupt_changed(const char *verb, const char *path);
/* A child's own process group (a host tool), killed when interrupted. */
void lx_interrupt_track_group(pid_t group);
void lx_interrupt_untrack_group(pid_t group);

/* A library loaded on first use (util/dl.c): each symbol's address goes
 * into its slot. */
struct lx_dl_symbol {
	const char *name;
	void **slot;
};
struct lx_dl_library {
	const char *soname, *needed_for, *package;
	const struct lx_dl_symbol *symbols;
	size_t n_symbols;
	bool loaded;
};
/* Load lib unless it is loaded. Error: "cannot load SONAME (needed for
 * NEEDED_FOR) ...; install PACKAGE", or a symbol it lacks. */
int lx_dl_load(struct lx_dl_library *lib, struct lx_error *err);
/* An lx_dl_symbol for each X(name) of a symbol list, into struct field
 * lib.name typed from the library's header. */
#define LX_DL_FIELD(name) __typeof__(&name) name;
#define LX_DL_ENTRY(lib, name) {#name, (void **)&(lib).name},

/* .tar.gz archives of a few small files. */
struct lx_tar_file {
	const char *name;
	const char *data;
	size_t len;
	unsigned perm; /* 0: 0644 */
};
int lx_targz_build(const struct lx_tar_file *files, size_t n, struct lx_buf *out,
		   struct lx_error *err);
/* An entry name that stays inside the archive: relative, no "..". */
bool lx_tar_name_is_safe(const char *name);
struct lx_tar_want {
	const char *name; /* wanted entry ("./" prefix in the archive is fine) */
	char *data;       /* filled, NUL terminated; NULL when absent */
	size_t len;
};
/* Read the wanted entries of a .tar.gz in memory. Every entry must have a
 * safe path and be a file or directory, or the archive is refused. */
int lx_targz_read(const char *label, const void *data, size_t len, struct lx_tar_want *want,
		  size_t n_want, size_t max_entry, struct lx_error *err);
/* A whole file, plain or compressed (gzip, xz, zstd, ...), of at most max
 * bytes uncompressed. libarchive (these three) is loaded on first use. */
int lx_file_read_decompressed(const char *path, size_t max, struct lx_buf *out,
			      struct lx_error *err);

/* ---- text from untrusted input, for output (util/text.c) ----
 *
 * One rule for every output: a byte that is not part of a valid UTF-8
 * sequence (RFC 3629: no overlong forms, surrogates or code points past
 * U+10FFFF) is written as the four characters \xNN, lower-case hex. Text
 * for a terminal also writes control characters so (C0 but tab, DEL, and
 * U+0080..U+009F, byte by byte), so config bytes cannot drive the terminal.
 * JSON and YAML apply the first half and escape controls their own way. */
/* Length (1..4) of the valid UTF-8 sequence at s, or 0 when there is none. */
size_t lx_utf8_char_len(const char *s, size_t left);
bool lx_utf8_valid(const char *s, size_t len);
enum {
	LX_ESC_CONTROLS = 1u << 0,   /* control characters as \xNN too */
	LX_ESC_KEEP_LINES = 1u << 1, /* with CONTROLS: keep "\n" and a "\r" before it */
};
void lx_buf_append_escaped(struct lx_buf *b, const char *s, size_t len, unsigned flags);
/* Valid UTF-8: invalid bytes as \xNN (for JSON and YAML writers). */
char *lx_utf8_sanitize(const char *s);
/* For a terminal, one field: invalid bytes and controls (newlines too) as
 * \xNN. NULL gives "". */
char *lx_text_escape(const char *s);
/* The same for len bytes that may hold NUL bytes (\x00). */
char *lx_text_escape_bytes(const char *s, size_t len);
/* For a terminal, multi-line text (a diff): the same, but line ends stay. */
char *lx_text_escape_lines(const char *s, size_t len);

/* For a terminal width columns wide: each line longer than that broken at
 * spaces, its continuation lines indented by indent spaces; colour
 * sequences (ESC [ ... m) take no column, a UTF-8 character one. A word
 * longer than the line stays whole. width 0, or too narrow for the indent:
 * the text as it is. */
char *lx_text_wrap(const char *text, size_t width, size_t indent);

/* A unified diff (3 lines of context) between two texts, "" when equal. */
char *lx_diff_unified(const char *old_name, const char *old_text, size_t old_len,
		      const char *new_name, const char *new_text, size_t new_len);

/* Send one message to the syslog socket (journald's /dev/log, a datagram
 * socket) as "<PRI>TAG[PID]: MESSAGE", facility daemon, priority a syslog
 * level (LOG_ERR, LOG_WARNING, LOG_INFO); never blocks. */
int lx_journal_send(const char *socket_path, int priority, const char *tag, const char *message,
		    struct lx_error *err);

/* ---- safe mounts into an untrusted root (util/safemount.c) ---- */

/* Open path inside root_fd (RESOLVE_IN_ROOT, no magic links); -1 with errno. */
int lx_open_in_root(int root_fd, const char *path, int flags);
/* Whether path inside root_fd is a regular file (links followed inside the
 * root only). */
bool lx_root_has_regular_file(int root_fd, const char *path);
/* The one way to read a file lxgpu does not own (a container's): path_fd is
 * an O_PATH descriptor (so nothing was opened yet: no driver's open for a
 * device node, no wait on a FIFO); it is checked to be a regular file of at
 * most max bytes and only then reopened for reading through /proc/self/fd.
 * Closes path_fd. -1 with errno: EINVAL not a regular file, EFBIG too large. */
int lx_reopen_regular(int path_fd, off_t max, struct stat *st);
/* The whole of such a file, through lx_reopen_regular (path_fd closed
 * here): *out NUL terminated, *len without the NUL. -1 with errno: EINVAL
 * not a regular file, EFBIG larger than max (also when it grew since the
 * check), else the open's or the read's. */
int lx_read_regular(int path_fd, size_t max, char **out, size_t *len);

/* Make the directories of dir inside root_fd (each component resolved
 * inside the root; mode 0755) and return an O_PATH fd of it. */
int lx_root_mkdir_p(int root_fd, const char *dir, int *dir_fd, struct lx_error *err);

/* Bind src_fd (an O_PATH fd of a host file) read-only (also nosuid, nodev)
 * onto target inside root_fd: its parent directories and an empty file are
 * made inside the root when missing (*made, may be NULL: the file was); a target that is not a regular file
 * (a symlink, a directory) is refused. The mount is made read-only before
 * it is attached (open_tree + mount_setattr + move_mount), so it is never
 * writable in the container; kernels without the new mount API get
 * mount(2) through /proc/self/fd. */
int lx_root_bind_file_ro(int root_fd, int src_fd, const char *target, bool *made,
			 struct lx_error *err);
/* The same onto a file already opened inside the root (tgt_fd: O_PATH of a
 * regular file); target names it in messages. */
int lx_bind_file_ro_onto(int src_fd, int tgt_fd, const char *target, struct lx_error *err);

/* Make the symlink dir/soname -> name (relative, in the same directory)
 * inside root_fd unless something of that name exists; *made tells which. */
int lx_root_soname_link(int root_fd, const char *dir, const char *soname, const char *name,
			bool *made, struct lx_error *err);

#endif
