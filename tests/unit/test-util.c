/* util: strings, buffers, numbers, paths, safe file I/O. */
#include "lxgpu/util.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The required literal of an extended regex: what every match contains,
 * worked out by hand for each pattern (and each checked against regexec on
 * a text the pattern matches, below). */
static void test_ere_required_literal(void)
{
	static const struct {
		const char *ere, *want, *matching;
	} cases[] = {
		{"NVRM: Xid \\(PCI:", "NVRM: Xid (PCI:", "NVRM: Xid (PCI:0000:01:00): 79"},
		{"abc(def)?ghi", "abc", "abcghi"},
		{"a|bcdef", NULL, "a"},
		{"(x|y)hello world", "hello world", "yhello world"},
		{"fooo?bar", "foo", "foobar"},
		{"ab+cdef", "cdef", "abbbcdef"},
		{"[abc]defg", "defg", "bdefg"},
		{"x{2,3}yzw", "yzw", "xxyzw"},
		{"\\.\\*abc", ".*abc", "x.*abc"},
		{"^Linux version ", "Linux version ", "Linux version 6.8"},
		{"a[]b]cdef", "cdef", "a]cdef"},
		{"[[:digit:]]+ items", " items", "12 items"},
		{"ring ([a-z_]+) timeout", " timeout", "ring gfx timeout"},
		{"ab", NULL, "ab"},
		{"(a(b)c)", NULL, "abc"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = lx_ere_required_literal(cases[i].ere);
		str_eq(got, cases[i].want, cases[i].ere);
		regex_t re;
		bool sound = regcomp(&re, cases[i].ere, REG_EXTENDED) == 0 &&
			     regexec(&re, cases[i].matching, 0, NULL, 0) == 0 &&
			     (!got || strstr(cases[i].matching, got));
		ok(sound, "a text it matches contains the literal");
		regfree(&re);
		free(got);
	}
}

static void test_strings(void)
{
	char s[] = "  \t padded \n";
	str_eq(lx_str_strip(s), "padded", "strip");
	ok(lx_str_starts_with("nvidia-uvm", "nvidia"), "starts_with");
	ok(!lx_str_starts_with("nv", "nvidia"), "starts_with shorter");
	ok(lx_str_ends_with("a.tar.gz", ".tar.gz"), "ends_with");
	ok(!lx_str_ends_with("gz", ".tar.gz"), "ends_with shorter");

	struct lx_buf b = {0};
	for (int i = 0; i < 1000; i++)
		lx_buf_printf(&b, "%d,", i);
	ok(b.len == strlen(b.data), "buffer grows and stays terminated");
	char *data = lx_buf_steal(&b);
	ok(strncmp(data, "0,1,2,", 6) == 0 && b.data == NULL, "steal hands over the data");
	free(data);

	struct lx_strv v = {0};
	lx_strv_push(&v, "b");
	lx_strv_push(&v, "a");
	lx_strv_sort(&v);
	str_eq(v.items[0], "a", "sorted");
	ok(lx_strv_contains(&v, "b") && !lx_strv_contains(&v, "c"), "contains");
	lx_strv_free(&v);
}

static void test_numbers(void)
{
	unsigned long long u;
	long long i;
	ok(lx_parse_uint("0666", 8, 07777, &u) && u == 0666, "octal");
	ok(!lx_parse_uint("0999", 8, 07777, &u), "bad octal");
	ok(!lx_parse_uint("-1", 10, 100, &u), "negative unsigned");
	ok(!lx_parse_uint("101", 10, 100, &u), "above max");
	ok(!lx_parse_uint("", 10, 100, &u), "empty");
	ok(!lx_parse_uint(" 1", 10, 100, &u), "leading space");
	ok(lx_parse_int("-1", -1, 5, &i) && i == -1, "signed");
	ok(!lx_parse_int("6", -1, 5, &i), "signed above max");
	ok(!lx_parse_int("1x", -1, 5, &i), "trailing garbage");
}

static void test_paths(void)
{
	char *p = lx_path_join("/proc/", "/devices");
	str_eq(p, "/proc/devices", "join drops duplicate slashes");
	free(p);
	p = lx_path_join("/", "dev");
	str_eq(p, "/dev", "join at root");
	free(p);
}

static void test_files(void)
{
	char dir[] = "/tmp/lxgpu-test-XXXXXX";
	ok(mkdtemp(dir) != NULL, "temp dir");
	char *path = lx_path_join(dir, "f.txt");
	struct lx_error err = {0};
	ok(lx_write_file_atomic(path, "one\n", 4, 0640, &err) == 0, "atomic write");
	ok(lx_write_file_atomic(path, "two\n", 4, 0640, &err) == 0, "atomic replace");
	char *data = NULL;
	size_t len = 0;
	ok(lx_read_file(path, 100, &data, &len, &err) == 0 && len == 4, "read back");
	str_eq(data, "two\n", "new content");
	free(data);
	struct stat st;
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640, "mode applied");
	ok(lx_read_file(path, 2, &data, &len, &err) < 0 && strstr(err.message, "larger"),
	   "size limit");
	lx_error_clear(&err);
	char *missing = lx_path_join(dir, "missing");
	ok(lx_read_file_optional(missing, 100, &data, &len, &err) == 0 && data == NULL,
	   "optional read of a missing file");
	ok(lx_read_file(missing, 100, &data, &len, &err) < 0 && strstr(err.message, missing),
	   "missing file names the path");
	lx_error_clear(&err);
	char *nodir = lx_path_join(dir, "no/such/dir/f");
	ok(lx_write_file_atomic(nodir, "x", 1, 0644, &err) < 0 && err.message,
	   "atomic write into a missing dir fails cleanly");
	lx_error_clear(&err);
	unlink(path);
	rmdir(dir);
	free(nodir);
	free(missing);
	free(path);
}

/* lx_read_regular on what a container may plant: only a regular file is
 * read; a FIFO (an open would block), a device node (its driver's open)
 * and a directory are refused without opening (EINVAL), a file over the
 * limit is EFBIG; the O_PATH fd is closed in every case. */
static int path_fd(const char *path)
{
	return open(path, O_PATH | O_CLOEXEC);
}

static void test_read_regular(void)
{
	char dir[] = "/tmp/lxgpu-test-XXXXXX";
	ok(mkdtemp(dir) != NULL, "temp dir");
	char *file = lx_path_join(dir, "group"), *fifo = lx_path_join(dir, "fifo");
	struct lx_error err = {0};
	ok(lx_write_file_atomic(file, "a:x:1:\n", 7, 0644, &err) == 0 && mkfifo(fifo, 0644) == 0,
	   "a file and a FIFO");
	char *text = NULL;
	size_t len = 0;
	int pfd = path_fd(file);
	ok(lx_read_regular(pfd, 100, &text, &len) == 0 && len == 7 && text && strcmp(text, "a:x:1:\n") == 0,
	   "a regular file is read whole");
	ok(fcntl(pfd, F_GETFD) < 0 && errno == EBADF, "its O_PATH fd is closed");
	free(text);
	text = NULL;
	ok(lx_read_regular(path_fd(file), 6, &text, &len) < 0 && errno == EFBIG && !text,
	   "one over the limit: EFBIG, nothing read");
	ok(lx_read_regular(path_fd(fifo), 100, &text, &len) < 0 && errno == EINVAL && !text,
	   "a FIFO: EINVAL, never opened (no wait for a writer)");
	ok(lx_read_regular(path_fd("/dev/null"), 100, &text, &len) < 0 && errno == EINVAL,
	   "a device node: EINVAL");
	ok(lx_read_regular(path_fd(dir), 100, &text, &len) < 0 && errno == EINVAL,
	   "a directory: EINVAL");
	unlink(file);
	unlink(fifo);
	rmdir(dir);
	free(file);
	free(fifo);
}

/* mkdir -p as coreutils' mkdir -p behaves: parents made, an existing
 * directory fine, a file in the way ENOTDIR. */
static void test_mkdir_parents(void)
{
	umask(022);
	char dir[] = "/tmp/lxgpu-test-XXXXXX";
	ok(mkdtemp(dir) != NULL, "temp dir");
	_cleanup_free_ char *leaf = lx_xasprintf("%s/var/lib/lxgpu/backups", dir);
	_cleanup_free_ char *mid = lx_xasprintf("%s/var/lib/lxgpu", dir);
	ok(lx_mkdir_parents(leaf, 0700) == 0, "leaf and three missing parents made");
	struct stat st;
	ok(stat(leaf, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	   "leaf has the mode asked");
	ok(stat(mid, &st) == 0 && (st.st_mode & 0777) == 0755, "a parent is 0755");
	ok(lx_mkdir_parents(leaf, 0700) == 0, "an existing directory is fine");
	_cleanup_free_ char *slash = lx_xasprintf("%s/", leaf);
	ok(lx_mkdir_parents(slash, 0700) == 0, "a trailing slash is fine");
	_cleanup_free_ char *file = lx_xasprintf("%s/file", dir);
	struct lx_error err = {0};
	ok(lx_write_file_atomic(file, "x", 1, 0644, &err) == 0, "a file");
	_cleanup_free_ char *under = lx_xasprintf("%s/file/sub", dir);
	errno = 0;
	ok(lx_mkdir_parents(file, 0755) < 0 && errno == ENOTDIR, "a file in the way: ENOTDIR");
	ok(lx_mkdir_parents(under, 0755) < 0 && errno == ENOTDIR, "a file as a parent: ENOTDIR");
	unlink(file);
	rmdir(leaf);
	rmdir(mid);
	_cleanup_free_ char *lib = lx_xasprintf("%s/var/lib", dir);
	_cleanup_free_ char *var = lx_xasprintf("%s/var", dir);
	rmdir(lib);
	rmdir(var);
	ok(rmdir(dir) == 0, "nothing else was made");
}

static bool is_f(const char *final, void *ctx)
{
	return strcmp(final, ctx) == 0;
}

/* The streamed atomic file: nothing at the path until commit; abort and
 * a failed commit leave the old file; the stale-temp sweep takes only
 * lxgpu's own names of the file asked, regular and old enough. */
static void test_atomic_stream(void)
{
	char dir[] = "/tmp/lxgpu-test-XXXXXX";
	ok(mkdtemp(dir) != NULL, "temp dir");
	_cleanup_free_ char *path = lx_path_join(dir, "f");
	struct lx_error err = {0};
	struct lx_atomic_file f;
	ok(lx_atomic_open(path, 0600, &f, &err) == 0 && write(f.fd, "new", 3) == 3, "open, write");
	ok(access(path, F_OK) < 0 && access(f.tmp, F_OK) == 0, "only the temporary file exists");
	ok(lx_atomic_commit(&f, &err) == 0 && f.tmp == NULL, "commit");
	char *data = NULL;
	ok(lx_read_file(path, 10, &data, NULL, &err) == 0 && strcmp(data, "new") == 0, "committed");
	free(data);
	ok(lx_atomic_open(path, 0600, &f, &err) == 0 && write(f.fd, "other", 5) == 5, "again");
	_cleanup_free_ char *tmp = lx_xstrdup(f.tmp);
	lx_atomic_abort(&f);
	ok(access(tmp, F_OK) < 0 && lx_read_file(path, 10, &data, NULL, &err) == 0 &&
		   strcmp(data, "new") == 0,
	   "abort: temporary file gone, old content kept");
	free(data);
	const char *names[] = {"f.lxgpu-tmp-aB3dE9", "f.lxgpu-tmp-young1", "f.lxgpu-tmp-toolong",
			       "g.lxgpu-tmp-aB3dE9", "f.lxgpu-tmp-a.b-c0"};
	for (size_t i = 0; i < 5; i++) {
		_cleanup_free_ char *p = lx_path_join(dir, names[i]);
		ok(lx_write_file_atomic(p, "x", 1, 0600, &err) == 0, names[i]);
		struct timespec old[2] = {{.tv_sec = time(NULL) - 120}, {.tv_sec = time(NULL) - 120}};
		if (i != 1)
			utimensat(AT_FDCWD, p, old, 0);
	}
	_cleanup_free_ char *link = lx_path_join(dir, "f.lxgpu-tmp-Link01");
	ok(symlink("f", link) == 0, "a symbolic link with the name");
	struct lx_strv removed = {0};
	ok(lx_atomic_clean_stale(dir, is_f, "f", 60, &removed, &err) == 0 && removed.n == 1 &&
		   lx_str_ends_with(removed.items[0], "/f.lxgpu-tmp-aB3dE9"),
	   "only the old temporary file of f is removed");
	lx_strv_free(&removed);
	for (size_t i = 1; i < 5; i++) {
		_cleanup_free_ char *p = lx_path_join(dir, names[i]);
		ok(access(p, F_OK) == 0, names[i]); /* kept */
		unlink(p);
	}
	ok(lx_atomic_clean_stale("/nonexistent-lxgpu", is_f, "f", 60, NULL, &err) == 0,
	   "a missing directory is fine");
	unlink(link);
	unlink(path);
	ok(rmdir(dir) == 0, "nothing else left");
}

/* Old enough for lx_atomic_sweep. */
static void age(const char *path)
{
	struct timespec old[2] = {{.tv_sec = time(NULL) - 120}, {.tv_sec = time(NULL) - 120}};
	utimensat(AT_FDCWD, path, old, AT_SYMLINK_NOFOLLOW);
}

/* The entries of dir, sorted, joined by spaces: the file system's word. */
static char *listing(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	struct lx_buf b = {0};
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' || (strcmp(names[i]->d_name, ".") != 0 &&
						   strcmp(names[i]->d_name, "..") != 0))
			lx_buf_printf(&b, "%s%s", b.len ? " " : "", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return b.data ? lx_buf_steal(&b) : lx_xstrdup("");
}

static void test_sweep(void)
{
	char dir[] = "/tmp/lxgpu-sweep-XXXXXX";
	ok(mkdtemp(dir) != NULL, "sweep: temp dir");
	const char *names[] = {"f.lxgpu-tmp-aB3dE9", ".f.lxgpu-tmp-Zz0009", "f.lxgpu-tmp-young1",
			       "g.lxgpu-tmp-aB3dE9", ".g.lxgpu-tmp-aB3dE9"};
	for (size_t i = 0; i < 5; i++) {
		_cleanup_free_ char *p = lx_path_join(dir, names[i]);
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
		close(fd);
		if (i != 2)
			age(p);
	}
	_cleanup_free_ char *f = lx_path_join(dir, "f");
	struct lx_error err = {0};
	ok(lx_write_file_atomic(f, "x", 1, 0644, &err) == 0, "a write of f");
	_cleanup_free_ char *left = listing(dir);
	str_eq(left, ".g.lxgpu-tmp-aB3dE9 f f.lxgpu-tmp-young1 g.lxgpu-tmp-aB3dE9",
	       "the write of f removed f's old temporary files (both forms), not g's nor a young one");
	for (size_t i = 0; i < 5; i++) {
		_cleanup_free_ char *p = lx_path_join(dir, names[i]);
		unlink(p);
	}
	if (geteuid() == 0) {
		_cleanup_free_ char *node = lx_path_join(dir, "nvidia7");
		_cleanup_free_ char *stale = lx_path_join(dir, ".nvidia7.lxgpu-tmp-Q1w2E3");
		ok(mknod(stale, S_IFCHR | 0600, makedev(195, 7)) == 0, "a stale node temporary file");
		age(stale);
		mode_t um = umask(077);
		ok(lx_atomic_mknod(node, 0666, makedev(195, 7), 12, 34, &err) == 0, "mknod");
		umask(um);
		struct stat st;
		ok(lstat(node, &st) == 0 && S_ISCHR(st.st_mode) && (st.st_mode & 07777) == 0666 &&
			   major(st.st_rdev) == 195 && minor(st.st_rdev) == 7 && st.st_uid == 12 &&
			   st.st_gid == 34,
		   "the node: c 195:7 0666 12:34 (not the umask's mode)");
		_cleanup_free_ char *after = listing(dir);
		str_eq(after, "f nvidia7", "no temporary node left, the stale one swept");
		unlink(node);
	} else {
		skip("lx_atomic_mknod needs root");
	}
	unlink(f);
	ok(rmdir(dir) == 0, "sweep: nothing else left");
}

/* A child that installs the handlers, runs body, and ends with exit 0;
 * its exit status and stderr (in err_out) for the parent. */
static int in_child(void (*body)(const char *dir), const char *dir, char **err_out)
{
	_cleanup_free_ char *err_path = lx_path_join(dir, "../stderr");
	fflush(NULL); /* the child must not print the TAP lines buffered so far */
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		close(fd);
		free(err_path); /* the child ends with _exit: no cleanup runs */
		err_path = NULL;
		lx_interrupt_install();
		body(dir);
		_exit(0);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	struct lx_error err = {0};
	lx_read_file(err_path, 1 << 16, err_out, NULL, &err);
	lx_error_clear(&err);
	unlink(err_path);
	return status;
}

static void interrupted_mid_write(const char *dir)
{
	/* on the stack: the handler's _exit leaves a heap copy unfreed, which
	 * valgrind 3.24 (Debian 13) counts as definitely lost in the child */
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/conf", dir);
	struct lx_atomic_file f;
	struct lx_error err = {0};
	if (lx_atomic_open(path, 0644, &f, &err) < 0 || write(f.fd, "half", 4) != 4)
		_exit(9);
	raise(SIGTERM);
	_exit(8); /* not reached: the handler exits */
}

static void interrupted_in_hold(const char *dir)
{
	char path[PATH_MAX]; /* on the stack: as interrupted_mid_write */
	snprintf(path, sizeof path, "%s/conf", dir);
	struct lx_error err = {0};
	lx_interrupt_hold();
	raise(SIGINT);
	if (lx_write_file_atomic(path, "whole\n", 6, 0644, &err) < 0)
		_exit(9);
	lx_interrupt_release(); /* the signal is taken here */
	_exit(8);
}

static void ignored_stays_ignored(const char *dir)
{
	(void)dir;
	signal(SIGHUP, SIG_IGN);
	lx_interrupt_install();
	raise(SIGHUP);
}

static void test_interrupt(void)
{
	char dir[] = "/tmp/lxgpu-intr-XXXXXX";
	ok(mkdtemp(dir) != NULL, "interrupt: temp dir");
	_cleanup_free_ char *sub = lx_path_join(dir, "d");
	mkdir(sub, 0755);
	_cleanup_free_ char *said = NULL;
	int status = in_child(interrupted_mid_write, sub, &said);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 2, "SIGTERM mid-write: exit 2");
	_cleanup_free_ char *left = listing(sub);
	str_eq(left, "", "SIGTERM mid-write: the temporary file is gone, nothing made");
	ok(said && strstr(said, "lxgpu: interrupted by SIGTERM") && strstr(said, "not written: ") &&
		   strstr(said, "/d/conf (its unfinished temporary file") &&
		   strstr(said, "was removed)") && strstr(said, "nothing was written"),
	   "SIGTERM mid-write: the message says conf was not written");
	free(said);
	said = NULL;

	status = in_child(interrupted_in_hold, sub, &said);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 2, "SIGINT in a hold: exit 2 at its release");
	_cleanup_free_ char *path = lx_path_join(sub, "conf");
	char *data = NULL;
	struct lx_error err = {0};
	ok(lx_read_file(path, 100, &data, NULL, &err) == 0 && strcmp(data, "whole\n") == 0,
	   "SIGINT in a hold: the write was made whole first");
	free(data);
	free(left);
	left = listing(sub);
	str_eq(left, "conf", "SIGINT in a hold: no temporary file");
	ok(said && strstr(said, "interrupted by SIGINT before it was done") &&
		   strstr(said, "lxgpu: written: ") && strstr(said, "nothing else was changed"),
	   "SIGINT in a hold: the message names what was written");
	free(said);
	said = NULL;
	unlink(path);

	status = in_child(ignored_stays_ignored, sub, &said);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "an ignored SIGHUP stays ignored");
	rmdir(sub);
	ok(rmdir(dir) == 0, "interrupt: nothing else left");
}

static void test_errors(void)
{
	struct lx_error err = {0};
	ok(lx_error_set(&err, "inner %d", 1) == -1, "set returns -1");
	lx_error_prefix(&err, "outer");
	str_eq(err.message, "outer: inner 1", "prefix");
	lx_error_clear(&err);
	ok(err.message == NULL, "clear");
}

static void test_wrap(void)
{
	char *w = lx_text_wrap("  error   LXG001 one two three four five six\n", 24, 4);
	str_eq(w, "  error   LXG001 one two\n    three four five six\n", "wrapped at a space, indented");
	free(w);
	w = lx_text_wrap("short\n", 24, 4);
	str_eq(w, "short\n", "a short line as it is");
	free(w);
	/* colour takes no column; the words are 4, 5 and 4 columns */
	w = lx_text_wrap("\033[31merror\033[0m aaaa bbbbb cccc dddd eeee", 24, 2);
	str_eq(w, "\033[31merror\033[0m aaaa bbbbb cccc\n  dddd eeee", "colour sequences take no column");
	free(w);
	/* a UTF-8 character is one column */
	w = lx_text_wrap("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 aaaa bbbbbbbb cccccc dd", 24, 2);
	str_eq(w, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 aaaa bbbbbbbb\n  cccccc dd", "UTF-8 counted by character");
	free(w);
	w = lx_text_wrap("x /a/very/long/path/that/does/not/fit/anywhere y", 24, 2);
	str_eq(w, "x\n  /a/very/long/path/that/does/not/fit/anywhere\n  y", "a long word stays whole");
	free(w);
	w = lx_text_wrap("                      indented only", 24, 2);
	str_eq(w, "                      indented\n  only", "leading spaces are no break");
	free(w);
	w = lx_text_wrap("a b c d e f g h i j k l m n o p q r s t u v w x y z", 0, 2);
	str_eq(w, "a b c d e f g h i j k l m n o p q r s t u v w x y z", "width 0: as it is");
	free(w);
	w = lx_text_wrap("", 80, 2);
	str_eq(w, "", "empty");
	free(w);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* lx_run_capture's deadline: the bounds are 10x the timeout, far from the
 * 20 s that an unbounded wait takes here. */
static void test_run_capture(void)
{
	char *echo[] = {"sh", "-c", "echo hello", NULL};
	char *out = lx_run_capture("/bin/sh", echo, 1024, 5000);
	str_eq(out, "hello\n", "a tool's output");
	free(out);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	char *closes[] = {"sh", "-c", "exec >&-; sleep 20", NULL};
	out = lx_run_capture("/bin/sh", closes, 1024, 200);
	ok(out == NULL && seconds_since(&t0) < 2.0, "the deadline holds after the tool closes its stdout");
	free(out);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	char pidfile[] = "/tmp/lxgpu-test-run-XXXXXX";
	int pfd = mkstemp(pidfile);
	ok(pfd >= 0, "a scratch file");
	_cleanup_free_ char *script = lx_xasprintf("sleep 20 & echo $! >%s; sleep 20", pidfile);
	char *forks[] = {"sh", "-c", script, NULL};
	out = lx_run_capture("/bin/sh", forks, 1024, 200);
	ok(out == NULL && seconds_since(&t0) < 2.0, "a tool whose child holds its stdout: timed out");
	free(out);
	/* The child is gone or a zombie (killed, nobody here reaps it). */
	char pidtext[32] = "";
	ssize_t n = pfd >= 0 ? pread(pfd, pidtext, sizeof(pidtext) - 1, 0) : -1;
	pidtext[n > 0 ? n : 0] = '\0';
	_cleanup_free_ char *stat_path = lx_xasprintf("/proc/%ld/stat", strtol(pidtext, NULL, 10));
	_cleanup_free_ char *stat = NULL;
	struct timespec nap = {0, 50 * 1000 * 1000};
	nanosleep(&nap, NULL);
	bool alive = false;
	if (n > 0 && lx_read_file(stat_path, 4096, &stat, NULL, NULL) == 0) {
		const char *paren = strrchr(stat, ')');
		alive = paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
	}
	ok(n > 0 && !alive, "the timeout kills the tool's children too");
	if (pfd >= 0) {
		close(pfd);
		unlink(pidfile);
	}
}

static bool is_lxc_or_pve(const char *package, void *ctx)
{
	(void)ctx;
	return strcmp(package, "lxc-pve") == 0 || strcmp(package, "lxc") == 0 ||
	       strcmp(package, "pve-container") == 0;
}

/* dpkg's status file as dpkg writes it (stanzas of a Proxmox VE 9 node:
 * lxc-pve replaces Debian's lxc, whose config files stay behind). */
static void test_dpkg(void)
{
	char root[] = "/tmp/lxgpu-dpkg-XXXXXX";
	ok(mkdtemp(root) != NULL, "scratch root");
	_cleanup_free_ char *dir = lx_path_join(root, "var/lib/dpkg");
	struct lx_error err = {0};
	ok(lx_mkdir_parents(dir, 0755) == 0, "var/lib/dpkg");
	_cleanup_free_ char *status = lx_path_join(dir, "status");
	const char *text = "Package: lxc\nStatus: deinstall ok config-files\nPriority: optional\n"
			   "Version: 1:5.0.2-1+deb12u4\nConffiles:\n /etc/default/lxc 0a1b\n\n"
			   "Package: lxc-pve\nStatus: install ok installed\nPriority: optional\n"
			   "Architecture: amd64\nVersion: 6.0.5-3\nProvides: liblxc1, lxc\n"
			   "Description: Linux containers userspace tools\n ships LXC 6.0\n\n"
			   "Package: pve-container\nStatus: install ok installed\nVersion: 6.1.6\n";
	ok(lx_write_file_atomic(status, text, strlen(text), 0644, &err) == 0, "status written");
	struct lx_dpkg_package *p;
	size_t n;
	ok(lx_dpkg_installed(root, is_lxc_or_pve, NULL, &p, &n, &err) == 0, "read");
	int_eq((long long)n, 2, "two installed; lxc's config files are not an install");
	if (n == 2) {
		str_eq(p[0].name, "lxc-pve", "lxc-pve");
		str_eq(p[0].version, "6.0.5-3", "its version");
		str_eq(p[1].name, "pve-container", "pve-container, the last stanza without a blank line");
		str_eq(p[1].version, "6.1.6", "its version");
	}
	lx_dpkg_packages_free(p, n);
	_cleanup_free_ char *none = lx_path_join(root, "nothing");
	ok(lx_dpkg_installed(none, is_lxc_or_pve, NULL, &p, &n, &err) == 0 && n == 0,
	   "no status file: nothing installed");
	unlink(status);
	rmdir(dir);
	_cleanup_free_ char *lib = lx_path_join(root, "var/lib");
	_cleanup_free_ char *var = lx_path_join(root, "var");
	rmdir(lib);
	rmdir(var);
	rmdir(root);

	_cleanup_free_ char *u1 = lx_dpkg_upstream("1:5.0.2-1+deb12u4");
	_cleanup_free_ char *u2 = lx_dpkg_upstream("6.1.6");
	_cleanup_free_ char *u3 = lx_dpkg_upstream("590.44.01-0ubuntu1-1");
	str_eq(u1, "5.0.2", "epoch and revision dropped");
	str_eq(u2, "6.1.6", "a native version stays");
	str_eq(u3, "590.44.01-0ubuntu1", "the revision is after the last '-'");
	ok(lx_version_cmp("6.0.10", "6.0.4") > 0, "6.0.10 > 6.0.4 (numeric, not string)");
	ok(lx_version_cmp("6.0.4", "6.0.4") == 0, "equal");
	ok(lx_version_cmp("6.0", "6.0.0") == 0, "a missing part is 0");
	ok(lx_version_cmp("5.0.2", "6.0.4") < 0, "5.0.2 < 6.0.4");
	ok(lx_version_cmp("7.0.0", "6.0.5") > 0, "7.0.0 > 6.0.5");
}

int main(void)
{
	test_run_capture();
	test_strings();
	test_ere_required_literal();
	test_numbers();
	test_paths();
	test_files();
	test_read_regular();
	test_mkdir_parents();
	test_atomic_stream();
	test_sweep();
	test_interrupt();
	test_errors();
	test_wrap();
	test_dpkg();
	return tap_done();
}
