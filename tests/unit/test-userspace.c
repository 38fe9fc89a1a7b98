/* The host's userspace driver files of one version, found in a made-up
 * driver root: through the standard dirs, through an ld.so.cache made by
 * the real ldconfig -r, and a truncated or corrupt cache refused.
 * argv: fake libcuda (soname libcuda.so.1), fake libnvidia-ml (soname
 * libnvidia-ml.so.1), ldconfig. */
#include "lxgpu/userspace.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *root;

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

static void mkdirs(const char *rel)
{
	char *p = lx_xasprintf("%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			die(p);
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		die(p);
	free(p);
}

static void write_file(const char *rel, const void *data, size_t len)
{
	char *p = lx_xasprintf("%s/%s", root, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || close(fd) < 0)
		die(p);
	free(p);
}

static void copy_in(const char *src, const char *rel)
{
	char *data = NULL;
	size_t len = 0;
	struct lx_error err = {0};
	if (lx_read_file(src, 64 << 20, &data, &len, &err) < 0) {
		printf("Bail out! %s\n", err.message);
		exit(1);
	}
	write_file(rel, data, len);
	free(data);
}

static const struct lx_driver_file *find(const struct lx_driver_files *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->items[i].path, path) == 0)
			return &f->items[i];
	return NULL;
}

static bool any_of_version(const struct lx_driver_files *f, const char *v)
{
	for (size_t i = 0; i < f->n; i++)
		if (strstr(f->items[i].path, v))
			return true;
	return false;
}

static int run(char *const argv[])
{
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void cache_case(const char *what, const void *data, size_t len, const char *expect)
{
	write_file("etc/ld.so.cache", data, len);
	struct lx_driver_files f = {0};
	struct lx_error err = {0};
	int r = lx_driver_files_find(root, "595.10", &f, &err);
	ok(r < 0, what);
	ok(err.message && strstr(err.message, expect) && strstr(err.message, "ld.so.cache"),
	   "the error names the cache and says what is wrong");
	if (err.message)
		printf("#   %s\n", err.message);
	lx_error_clear(&err);
	lx_driver_files_free(&f);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		printf("Bail out! usage: test-userspace FAKECUDA FAKEML LDCONFIG\n");
		return 2;
	}
	char tmpl[] = "/tmp/lxgpu-userspace-XXXXXX";
	if (!mkdtemp(tmpl))
		die("mkdtemp");
	root = tmpl;

	/* libnvidia-ml of two versions in a standard dir; libcuda of the wanted
	 * version only in a dir the cache knows (ld.so.conf), an older one in
	 * the standard dir. */
	mkdirs("usr/lib/x86_64-linux-gnu");
	mkdirs("opt/nvidia/lib");
	mkdirs("usr/bin");
	mkdirs("etc");
	copy_in(argv[2], "usr/lib/x86_64-linux-gnu/libnvidia-ml.so.595.10");
	copy_in(argv[2], "usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.65.06");
	copy_in(argv[1], "usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06");
	copy_in(argv[1], "opt/nvidia/lib/libcuda.so.595.10");
	write_file("usr/bin/nvidia-smi", "#!/bin/sh\n", 10);
	const char *conf = "/opt/nvidia/lib\n/usr/lib/x86_64-linux-gnu\n";
	write_file("etc/ld.so.conf", conf, strlen(conf));

	/* No cache: the standard dirs. */
	struct lx_driver_files f = {0};
	struct lx_error err = {0};
	int r = lx_driver_files_find(root, "595.10", &f, &err);
	if (!ok(r == 0, "no cache: found through the standard dirs"))
		printf("#   %s\n", err.message);
	const struct lx_driver_file *ml = find(&f, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.595.10");
	ok(ml != NULL && ml->kind == LX_DRIVER_LIBRARY, "libnvidia-ml.so.595.10 found");
	str_eq(ml ? ml->soname : NULL, "libnvidia-ml.so.1", "its soname from the ELF file");
	ok(!any_of_version(&f, "580.65"), "no file of the other version");
	ok(find(&f, "/opt/nvidia/lib/libcuda.so.595.10") == NULL,
	   "no cache: a dir outside the standard ones is not searched");
	const struct lx_driver_file *smi = find(&f, "/usr/bin/nvidia-smi");
	ok(smi && smi->kind == LX_DRIVER_BINARY && !smi->soname, "nvidia-smi (versionless)");
	lx_driver_files_free(&f);

	/* The real ldconfig writes the root's cache. */
	char *ld_argv[] = {argv[3], "-r", root, NULL};
	int_eq(run(ld_argv), 0, "ldconfig -r ROOT");
	r = lx_driver_files_find(root, "595.10", &f, &err);
	if (!ok(r == 0, "with ldconfig's cache"))
		printf("#   %s\n", err.message);
	const struct lx_driver_file *cuda = find(&f, "/opt/nvidia/lib/libcuda.so.595.10");
	ok(cuda != NULL, "libcuda.so.595.10 found in the dir the cache names");
	str_eq(cuda ? cuda->soname : NULL, "libcuda.so.1", "libcuda's soname");
	ok(find(&f, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.595.10") != NULL,
	   "libnvidia-ml.so.595.10 found through the cache");
	ok(!any_of_version(&f, "580.65"), "still no file of the other version");
	size_t libs = 0;
	for (size_t i = 0; i < f.n; i++)
		libs += f.items[i].kind == LX_DRIVER_LIBRARY;
	int_eq((long long)libs, 2, "exactly the two libraries of the version");
	lx_driver_files_free(&f);

	/* The cache parsed directly: its entries are x86-64 with sonames as keys. */
	char *cpath = lx_xasprintf("%s/etc/ld.so.cache", root);
	char *cache = NULL;
	size_t clen = 0;
	if (lx_read_file(cpath, 64 << 20, &cache, &clen, &err) < 0) {
		printf("Bail out! %s\n", err.message);
		return 1;
	}
	struct lx_ldcache lc = {0};
	r = lx_ldcache_parse(cpath, cache, clen, &lc, &err);
	ok(r == 0, "ldconfig's cache parses");
	bool have_key = false;
	for (size_t i = 0; i < lc.n; i++)
		if (strcmp(lc.items[i].key, "libcuda.so.1") == 0 &&
		    strcmp(lc.items[i].value, "/opt/nvidia/lib/libcuda.so.1") == 0 &&
		    lc.items[i].flags == LX_LDCACHE_X86_64)
			have_key = true;
	ok(have_key, "libcuda.so.1 -> /opt/nvidia/lib/libcuda.so.1, an x86-64 entry");
	lx_ldcache_free(&lc);

	/* No files of the version: an error naming the version and the root. */
	r = lx_driver_files_find(root, "999.99", &f, &err);
	ok(r == LX_DRIVER_FILES_NONE && f.n == 0, "no files of version 999.99: LX_DRIVER_FILES_NONE");
	ok(err.message && strstr(err.message, "999.99") && strstr(err.message, root),
	   "the error names the version and the root");
	if (err.message)
		printf("#   %s\n", err.message);
	lx_error_clear(&err);
	r = lx_driver_files_find(root, "../../etc", &f, &err);
	ok(r < 0, "a version that is not a number is refused");
	lx_error_clear(&err);

	/* Truncated and corrupt caches: refused, no crash. */
	for (size_t cut = 0; cut < clen; cut += (cut < 128 ? 1 : 97)) {
		r = lx_ldcache_parse("cut", cache, cut, &lc, &err);
		if (r == 0)
			lx_ldcache_free(&lc);
		lx_error_clear(&err);
	}
	ok(true, "every truncation of the cache parses or fails cleanly");
	cache_case("a cache cut inside its header is refused", cache, 30, "truncated");
	cache_case("a cache cut inside its entries is refused", cache, 48 + 24, "corrupt");
	char *bad = lx_xmalloc(clen);
	memcpy(bad, cache, clen);
	uint32_t huge = 0xfffffff0u;
	memcpy(bad + 48 + 4, &huge, 4); /* the first entry's key offset */
	cache_case("a string offset past the end is refused", bad, clen, "out of the file");
	memcpy(bad, cache, clen);
	memcpy(bad + 20, &huge, 4); /* nlibs */
	cache_case("an entry count past the end is refused", bad, clen, "corrupt");
	cache_case("garbage is refused", "not a cache at all, just text", 29, "format");
	free(bad);
	free(cache);
	free(cpath);

	/* Not an ELF file: lx_elf_soname says so. */
	char *smi_path = lx_xasprintf("%s/usr/bin/nvidia-smi", root);
	int fd = open(smi_path, O_RDONLY | O_CLOEXEC);
	char *so = NULL;
	ok(fd >= 0 && lx_elf_soname(fd, smi_path, &so, &err) < 0 && !so,
	   "a script is not an ELF shared object");
	lx_error_clear(&err);
	if (fd >= 0)
		close(fd);
	free(smi_path);

	char *rm_argv[] = {"/bin/rm", "-rf", root, NULL};
	run(rm_argv);
	return tap_done();
}
