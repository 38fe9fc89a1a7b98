/* inject: the container's library dir (libnvidia-container's rule,
 * nvc_container.c: /etc/debian_version in the root means the multiarch
 * dir, else /usr/lib64), the loaded version from a made-up proc dir, and
 * the hook line: what /bin/sh makes of the value lxgpu writes (LXC runs it
 * with sh -c "exec VALUE 'name' 'lxc' 'mount'"), which lines are lxgpu's
 * hook, and which one LXC runs (an empty lxc.hook.mount clears the list,
 * LXC's confile.c). argv: none. */
#include "lxgpu/config.h"
#include "lxgpu/inject.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Debian's multiarch tuple of the architecture the test runs on. */
#if defined(__x86_64__)
#define LX_TEST_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define LX_TEST_MULTIARCH "aarch64-linux-gnu"
#elif defined(__powerpc64__)
#define LX_TEST_MULTIARCH "powerpc64le-linux-gnu"
#else
#define LX_TEST_MULTIARCH "riscv64-linux-gnu"
#endif

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

static char *scratch(void)
{
	char tmpl[] = "/tmp/lxgpu-test-inject-XXXXXX";
	if (!mkdtemp(tmpl))
		die("mkdtemp");
	return lx_xstrdup(tmpl);
}

/* Removes and frees a directory scratch() made. */
static void scratch_remove(char *dir)
{
	char *cmd = lx_xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		die(cmd);
	free(cmd);
	free(dir);
}

static void put(const char *dir, const char *rel, const char *text)
{
	_cleanup_free_ char *path = lx_path_join(dir, rel);
	_cleanup_free_ char *parent = lx_xstrdup(path);
	for (char *s = parent + strlen(dir) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(parent, 0755) < 0 && errno != EEXIST)
				die(parent);
			*s = '/';
		}
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		die(path);
}

static const char *lib_dir_of(const char *root)
{
	int fd = open(root, O_PATH | O_DIRECTORY);
	if (fd < 0)
		die(root);
	const char *d = lx_container_lib_dir(fd);
	close(fd);
	return d;
}

static void test_lib_dir(void)
{
	char *root = scratch();
	str_eq(lib_dir_of(root), "/usr/lib64", "a root without /etc/debian_version: /usr/lib64");
	put(root, "etc/debian_version", "12.11\n");
	str_eq(lib_dir_of(root), "/usr/lib/x86_64-linux-gnu",
	       "a Debian-like root: the multiarch dir");
	/* A link to a file the host has but the root has not: looked up inside
	 * the root, so not Debian. */
	_cleanup_free_ char *dv = lx_path_join(root, "etc/debian_version");
	if (unlink(dv) < 0 || symlink("/proc/version", dv) < 0)
		die(dv);
	str_eq(lib_dir_of(root), "/usr/lib64",
	       "/etc/debian_version linked to a host-only path is resolved inside the root");
	scratch_remove(root);

	/* Where the root's own C library is: a dir its loader searches by
	 * default (glibc's built-in system dirs), whatever else it has. */
	root = scratch();
	put(root, "etc/debian_version", "trixie/sid\n");
	put(root, "usr/lib64/libc.so.6", "");
	str_eq(lib_dir_of(root), "/usr/lib64",
	       "a root with /etc/debian_version but its libc in /usr/lib64 (a lib64 glibc): /usr/lib64");
	scratch_remove(root);
	root = scratch();
	put(root, "usr/lib/libc.so.6", "");
	str_eq(lib_dir_of(root), "/usr/lib", "Arch's layout (libc in /usr/lib): /usr/lib");
	scratch_remove(root);
	root = scratch();
	put(root, "usr/lib/" LX_TEST_MULTIARCH "/libc.so.6", "");
	put(root, "usr/lib64/libc.so.6", "");
	str_eq(lib_dir_of(root), "/usr/lib/" LX_TEST_MULTIARCH,
	       "a multiarch libc first (Debian with a lib64 compat copy)");
	scratch_remove(root);
	root = scratch();
	put(root, "lib/" LX_TEST_MULTIARCH "/libc.so.6", "");
	str_eq(lib_dir_of(root), "/lib/" LX_TEST_MULTIARCH,
	       "libc in /lib/TRIPLET only (no merged /usr): that dir");
	scratch_remove(root);
	str_eq(lx_container_lib_dir(-1), "/usr/lib/" LX_TEST_MULTIARCH,
	       "no root known (the CDI spec of a nested container): this architecture's multiarch dir");
}

static void test_loaded_version(void)
{
	char *proc = scratch();
	struct lx_error err = {0};
	char *v = NULL;
	int_eq(lx_driver_loaded_version(proc, &v, &err), 0, "no driver/nvidia/version: not loaded");
	ok(v == NULL, "no version when not loaded");
	/* The first line as the open module prints it (FACTS section 2). */
	put(proc, "driver/nvidia/version",
	    "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  590.48.01  Release Build  "
	    "(dvs-builder@U22-I3-AF03-09-1)  Mon Dec  1 00:00:00 UTC 2025\n"
	    "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
	int_eq(lx_driver_loaded_version(proc, &v, &err), 1, "the open module's version line");
	str_eq(v, "590.48.01", "its version");
	free(v);
	put(proc, "driver/nvidia/version", "garbage\n");
	int_eq(lx_driver_loaded_version(proc, &v, &err), -1, "a line that is not NVRM's: an error");
	ok(err.message && strstr(err.message, "driver/nvidia/version"), "naming the file");
	lx_error_clear(&err);
	scratch_remove(proc);
}

/* The words /bin/sh makes of value. */
static char *sh_words(const char *value)
{
	_cleanup_free_ char *cmd = lx_xasprintf("for w in %s; do printf '[%%s]' \"$w\"; done", value);
	char *argv_cmd = NULL;
	struct lx_buf b = {0};
	FILE *p = NULL;
	/* The value goes to sh exactly as LXC hands it over. */
	argv_cmd = lx_xasprintf("sh -c \"$LXGPU_T\"");
	if (setenv("LXGPU_T", cmd, 1) < 0 || !(p = popen(argv_cmd, "r")))
		die("popen sh");
	char chunk[512];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		lx_buf_append(&b, chunk, n);
	pclose(p);
	free(argv_cmd);
	return lx_buf_steal(&b);
}

static void test_hook_line(void)
{
	struct lx_hook_line h = {.binary = "/usr/bin/lxgpu"};
	_cleanup_free_ char *plain = lx_hook_line_value(&h);
	str_eq(plain, "/usr/bin/lxgpu hook", "the plain line");
	struct lx_hook_line odd = {.binary = "/opt/lx gpu/bin/lxgpu",
				   .driver_root = "/srv/driver root's",
				   .proc_dir = "/tmp/$(touch /tmp/pwned)",
				   .optional = true};
	_cleanup_free_ char *value = lx_hook_line_value(&odd);
	_cleanup_free_ char *words = sh_words(value);
	str_eq(words, "[/opt/lx gpu/bin/lxgpu][--driver-root][/srv/driver root's][--proc-dir]"
		      "[/tmp/$(touch /tmp/pwned)][hook][--optional]",
	       "sh splits the written value into exactly the words given (blanks, quotes, $())");
	struct lx_hook_line back;
	ok(lx_hook_line_parse(value, &back) && strcmp(back.binary, odd.binary) == 0 &&
		   strcmp(back.driver_root, odd.driver_root) == 0 &&
		   strcmp(back.proc_dir, odd.proc_dir) == 0 && back.optional,
	   "the written line reads back as written");
	lx_hook_line_free(&back);

	struct lx_hook_line p;
	ok(lx_hook_line_parse("/usr/bin/lxgpu hook", &p) && !p.optional && !p.driver_root,
	   "'/usr/bin/lxgpu hook' is lxgpu's hook");
	lx_hook_line_free(&p);
	ok(lx_hook_line_parse("/usr/local/bin/lxgpu --proc-dir /x --driver-root=/d -v hook --optional",
			      &p) &&
		   p.optional && strcmp(p.driver_root, "/d") == 0 && strcmp(p.proc_dir, "/x") == 0,
	   "global options before the command, --opt=value, --optional after it");
	lx_hook_line_free(&p);
	ok(!lx_hook_line_parse("/usr/share/lxc/hooks/nvidia", &p), "LXC's nvidia hook is not lxgpu's");
	ok(!lx_hook_line_parse("/usr/bin/lxgpu verify 100", &p), "another lxgpu command is not the hook");
	ok(!lx_hook_line_parse("/usr/bin/lxgpu hook; rm -rf /", &p),
	   "a line the shell would run more of is not claimed");
	ok(!lx_hook_line_parse("/usr/bin/lxgpu --driver-root", &p), "an option without its value");
	ok(!lx_hook_line_parse("/usr/bin/notlxgpu hook", &p), "a binary of another name");
}

static long find_in(const char *text, struct lx_hook_line *h)
{
	struct lx_conf c;
	lx_conf_parse("t.conf", text, strlen(text), &c);
	long i = lx_conf_find_hook(&c, h);
	lx_conf_free(&c);
	return i;
}

static void test_find_hook(void)
{
	struct lx_hook_line h;
	int_eq(find_in("arch: amd64\nlxc.hook.mount: /usr/bin/lxgpu hook\n", &h), 1,
	       "PVE form found");
	lx_hook_line_free(&h);
	int_eq(find_in("lxc.hook.mount = /usr/bin/lxgpu hook\nlxc.hook.mount = /usr/share/lxc/hooks/x\n",
		       NULL),
	       0, "another mount hook after it keeps it (LXC runs every one)");
	int_eq(find_in("lxc.hook.mount = /usr/bin/lxgpu hook\nlxc.hook.mount =\n", NULL), -1,
	       "an empty lxc.hook.mount after it clears it");
	int_eq(find_in("arch: amd64\n[snap1]\nlxc.hook.mount: /usr/bin/lxgpu hook\n", NULL), -1,
	       "a line in a snapshot section is not the live config's");
	_cleanup_free_ char *pve = lx_hook_config_line(&(struct lx_hook_line){.binary = "/usr/bin/lxgpu"},
						      true);
	str_eq(pve, "lxc.hook.mount: /usr/bin/lxgpu hook", "PVE line");
	_cleanup_free_ char *lxc = lx_hook_config_line(&(struct lx_hook_line){.binary = "/usr/bin/lxgpu"},
						      false);
	str_eq(lxc, "lxc.hook.mount = /usr/bin/lxgpu hook", "plain LXC line");
}

/* The OCI state and config.json as runc writes them (runtime-spec
 * runtime.md "State", config.md "root": path relative to the bundle). */
static void test_oci_rootfs(void)
{
	char *bundle = scratch();
	put(bundle, "config.json",
	    "{\"ociVersion\":\"1.0.2-dev\",\"process\":{\"terminal\":false,\"args\":[\"sh\",\"-c\","
	    "\"root: {path: x}\"],\"env\":[\"PATH=/bin\"]},\"hooks\":{\"createContainer\":[{\"path\":"
	    "\"/usr/bin/lxgpu\"}]},\"root\":{\"readonly\":false,\"path\":\"rootfs\"},"
	    "\"mounts\":[{\"destination\":\"/proc\",\"type\":\"proc\"}]}");
	_cleanup_free_ char *state = lx_xasprintf(
		"{\"ociVersion\":\"1.0.2\",\"id\":\"c1\",\"status\":\"creating\",\"pid\":4242,"
		"\"annotations\":{\"bundle\":\"/not/this\",\"io.podman\":\"x\"},\"bundle\":\"%s\"}",
		bundle);
	struct lx_error err = {0};
	char *rootfs = NULL;
	int_eq(lx_oci_rootfs(state, strlen(state), &rootfs, &err), 0, "OCI state and config.json read");
	_cleanup_free_ char *want = lx_path_join(bundle, "rootfs");
	str_eq(rootfs, want, "root.path relative to the bundle (not a nested 'bundle' or 'path')");
	free(rootfs);
	put(bundle, "config.json", "{\"root\": {\"path\": \"/var/lib/c1/merged\"}}");
	int_eq(lx_oci_rootfs(state, strlen(state), &rootfs, &err), 0, "an absolute root.path");
	str_eq(rootfs, "/var/lib/c1/merged", "taken as it is");
	free(rootfs);
	put(bundle, "config.json", "{\"root\": {\"path\": \"../../etc\"}}");
	int_eq(lx_oci_rootfs(state, strlen(state), &rootfs, &err), -1,
	       "a relative root.path with '..': refused");
	ok(err.message && strstr(err.message, ".."), "the error names the '..'");
	lx_error_clear(&err);
	put(bundle, "config.json", "{\"root\": {\"path\": \"rootfs/../../x\"}}");
	int_eq(lx_oci_rootfs(state, strlen(state), &rootfs, &err), -1,
	       "'..' inside a relative root.path: refused");
	lx_error_clear(&err);
	const char *no_bundle = "{\"id\":\"c1\",\"annotations\":{\"bundle\":\"/x\"}}";
	int_eq(lx_oci_rootfs(no_bundle, strlen(no_bundle), &rootfs, &err), -1,
	       "a state without a top-level bundle: an error");
	lx_error_clear(&err);
	scratch_remove(bundle);
}

int main(void)
{
	test_lib_dir();
	test_loaded_version();
	test_hook_line();
	test_find_hook();
	test_oci_rootfs();
	return tap_done();
}
