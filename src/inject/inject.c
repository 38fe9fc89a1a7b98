/* The host's driver userspace into a container's root at its start: what
 * nvidia-container-cli does for Docker, for an LXC mount hook. The root is
 * untrusted: every target is resolved inside it (util/safemount.c), the
 * only path walked on the host side is LXC's own LXC_ROOTFS_MOUNT. */
#include "lxgpu/inject.h"
#include "lxgpu/config.h"
#include "lxgpu/host.h"
#include "lxgpu/report.h"
#include "lxgpu/userspace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


int lx_driver_loaded_version(const char *proc_dir, char **version, struct lx_error *err)
{
	*version = NULL;
	_cleanup_free_ char *path = lx_path_join(proc_dir ? proc_dir : "/proc", "driver/nvidia/version");
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	if (lx_read_file_optional(path, 1u << 16, &text, &len, err) < 0)
		return -1;
	if (!text)
		return 0;
	enum lx_driver_flavor flavor;
	if (lx_parse_nvidia_version(text, version, &flavor, err) < 0)
		return lx_error_prefix(err, "%s", path);
	return 1;
}

#if defined(__x86_64__)
#define LX_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define LX_MULTIARCH "aarch64-linux-gnu"
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LX_MULTIARCH "powerpc64le-linux-gnu"
#elif defined(__riscv) && __riscv_xlen == 64
#define LX_MULTIARCH "riscv64-linux-gnu"
#else
#error "lxgpu needs this architecture's multiarch tuple"
#endif

/* Where distributions keep this architecture's libraries: Debian's
 * multiarch dirs, the lib64 of Red Hat and SUSE, Arch's plain lib. */
static const char *const lib_dirs[] = {
	"/usr/lib/" LX_MULTIARCH, "/lib/" LX_MULTIARCH, "/usr/lib64", "/lib64", "/usr/lib", "/lib",
};

/* A regular file dir/name inside the root (links followed inside it). */
static bool has_file(int root_fd, const char *dir, const char *name)
{
	_cleanup_free_ char *path = lx_path_join(dir, name);
	return lx_root_has_regular_file(root_fd, path);
}

const char *lx_container_lib_dir(int root_fd)
{
	if (root_fd < 0)
		return lib_dirs[0];
	/* Where its loader finds its own C library is a dir the loader
	 * searches by default, whatever its ld.so.conf says. /usr's comes
	 * first: with a merged /usr the /lib form is the same dir. */
	for (size_t i = 0; i < sizeof(lib_dirs) / sizeof(lib_dirs[0]); i++)
		if (has_file(root_fd, lib_dirs[i], "libc.so.6"))
			return lib_dirs[i];
	/* No glibc to go by (a root being built): libnvidia-container's rule
	 * (nvc_container.c), Debian and its derivatives the multiarch dir. */
	int fd = lx_open_in_root(root_fd, "/etc/debian_version", O_PATH);
	if (fd >= 0) {
		close(fd);
		return lib_dirs[0];
	}
	return "/usr/lib64";
}

const char *lx_host_ldconfig(void)
{
	return access("/sbin/ldconfig.real", X_OK) == 0 ? "/sbin/ldconfig.real" : "/sbin/ldconfig";
}

void lx_inject_result_free(struct lx_inject_result *r)
{
	free(r->version);
	lx_strv_free(&r->mounted);
	lx_strv_free(&r->links);
	lx_strv_free(&r->notes);
	*r = (struct lx_inject_result){0};
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* What the root has at path, not following a last-component link:
 * 0 nothing, else the S_IFMT bits; -1 with errno. */
static int kind_in_root(int root_fd, const char *path)
{
	int fd = lx_open_in_root(root_fd, path, O_PATH | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	struct stat st;
	int r = fstat(fd, &st);
	int e = errno;
	close(fd);
	if (r < 0) {
		errno = e;
		return -1;
	}
	return (int)(st.st_mode & S_IFMT);
}

/* The hook's work in one root: what it mounted, and what it had to make. */
struct placement {
	int root_fd;
	struct lx_inject_result *r;
	struct lx_made made;
};

/* Cover the container's file at path (a link followed inside the root)
 * with a read-only mount of the host's file: the container's file stays
 * as it is, shadowed while this start lasts. 0: covered (or it already is
 * the host's file), 1: no regular file there to cover. */
static int cover(struct placement *p, int src_fd, const char *src, const char *path,
		 struct lx_error *err)
{
	_cleanup_close_ int fd = lx_open_in_root(p->root_fd, path, O_PATH);
	struct stat st, host;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 1;
	if (fstat(src_fd, &host) == 0 && st.st_dev == host.st_dev && st.st_ino == host.st_ino)
		return 0; /* a second name of a file already covered */
	if (lx_bind_file_ro_onto(src_fd, fd, path, err) < 0)
		return lx_error_prefix(err, "%s", src);
	lx_strv_push_owned(&p->r->mounted, lx_xasprintf("%s -> %s", src, path));
	return 0;
}

/* The host's file at target: over the container's file there, else on an
 * empty mount target made for it (listed, to be taken back). */
static int place(struct placement *p, int src_fd, const char *src, const char *target,
		 struct lx_error *err)
{
	int c = cover(p, src_fd, src, target, err);
	if (c <= 0)
		return c;
	bool made = false;
	if (lx_root_bind_file_ro(p->root_fd, src_fd, target, &made, err) < 0) {
		if (made)
			lx_made_add(&p->made, "file", target, NULL, NULL);
		return lx_error_prefix(err, "%s", src);
	}
	if (made)
		lx_made_add(&p->made, "file", target, NULL, NULL);
	lx_strv_push_owned(&p->r->mounted, lx_xasprintf("%s -> %s", src, target));
	return 0;
}

/* The loader's name dir/soname reaches the host's file `name` (placed at
 * dir/name by the caller when needed): the container's file of that name,
 * or the file its link leads to inside the root, is covered; where there is
 * none, a link to name is made, or the container's link that leads nowhere
 * is repointed (renameat of a new link over it: the name never dangles),
 * each listed to be taken back. */
static int point_soname(struct placement *p, int src_fd, const char *src, const char *dir,
			const char *soname, const char *name, struct lx_error *err)
{
	_cleanup_free_ char *path = lx_xasprintf("%s/%s", dir, soname);
	int c = cover(p, src_fd, src, path, err);
	if (c <= 0)
		return c;
	_cleanup_free_ char *versioned = lx_xasprintf("%s/%s", dir, name);
	if (place(p, src_fd, src, versioned, err) < 0)
		return -1;
	int kind = kind_in_root(p->root_fd, path);
	if (kind < 0)
		return lx_error_set_errno(err, errno, "%s: cannot look at it in the container", path);
	if (kind == 0) {
		bool made;
		if (lx_root_soname_link(p->root_fd, dir, soname, name, &made, err) < 0)
			return -1;
		if (made) {
			lx_made_add(&p->made, "link", path, name, NULL);
			lx_strv_push_owned(&p->r->links, lx_xasprintf("%s -> %s", path, name));
		}
		return 0;
	}
	if (kind != S_IFLNK)
		return lx_error_set(err, "%s: the container has something other than a file or a "
				    "link there; not touching it", path);
	_cleanup_close_ int dir_fd = -1;
	if (lx_root_mkdir_p(p->root_fd, dir, &dir_fd, err) < 0)
		return -1;
	char target[4096];
	ssize_t n = readlinkat(dir_fd, soname, target, sizeof(target) - 1);
	if (n < 0)
		return lx_error_set_errno(err, errno, "%s: cannot read the link", path);
	target[n] = '\0';
	if (strcmp(target, name) == 0)
		return 0;
	_cleanup_free_ char *tmp = lx_xasprintf(".%s.lxgpu-new", soname);
	(void)unlinkat(dir_fd, tmp, 0);
	if (symlinkat(name, dir_fd, tmp) < 0)
		return lx_error_set_errno(err, errno, "%s/%s: cannot make the link", dir, tmp);
	if (renameat(dir_fd, tmp, dir_fd, soname) < 0) {
		int e = errno;
		(void)unlinkat(dir_fd, tmp, 0);
		return lx_error_set_errno(err, e, "%s: cannot replace the link", path);
	}
	lx_made_add(&p->made, "relink", path, name, target);
	lx_strv_push_owned(&p->r->links, lx_xasprintf("%s -> %s (was -> %s)", path, name, target));
	return 0;
}

/* ldconfig reads /etc/ld.so.conf and the files its include lines name
 * (Debian's and Red Hat's: ld.so.conf.d/ *.conf). A FIFO there blocks it, a
 * device makes it read without end: each must be a regular file (or be
 * absent), and none a link out of the root. */
static int check_loader_config(int root_fd, struct lx_error *err)
{
	static const char *const conf = "/etc/ld.so.conf", *const conf_dir = "/etc/ld.so.conf.d";
	int fd = lx_open_in_root(root_fd, conf, O_PATH);
	struct stat st;
	if (fd < 0 && errno != ENOENT)
		return lx_error_set_errno(err, errno, "the container's %s (a link out of its root?): "
					  "refusing to run ldconfig on it", conf);
	if (fd >= 0) {
		int r = fstat(fd, &st);
		close(fd);
		if (r < 0 || !S_ISREG(st.st_mode))
			return lx_error_set(err, "the container's %s is not a regular file: refusing to "
					    "run ldconfig on it", conf);
	}
	_cleanup_close_ int dir_fd = lx_open_in_root(root_fd, conf_dir, O_RDONLY | O_DIRECTORY);
	if (dir_fd < 0)
		return 0;
	DIR *dir = fdopendir(dup(dir_fd));
	if (!dir)
		return lx_error_set_errno(err, errno, "the container's %s", conf_dir);
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *path = lx_path_join(conf_dir, de->d_name);
		int efd = lx_open_in_root(root_fd, path, O_PATH);
		bool regular = efd >= 0 && fstat(efd, &st) == 0 && S_ISREG(st.st_mode);
		if (efd >= 0)
			close(efd);
		if (!regular)
			rc = lx_error_set(err, "the container's %s is not a regular file (or leads out "
					  "of its root): refusing to run ldconfig on it", path);
	}
	closedir(dir);
	return rc;
}

/* The container's loader cache, rebuilt by the host's ldconfig confined
 * to the root (lx_run_confined). The container's own ldconfig is never
 * run: it is the container's code. The host's must be static, or its
 * loader would come from the container. -X: links are lxgpu's or the
 * container's, never re-chosen by "newest file name wins", which would
 * pick the container's copy after a driver downgrade; the library dirs on
 * the command line are scanned first, so their entries come first in the
 * cache and shadow a copy elsewhere (/usr/local/lib). */
static int refresh_ldcache(int root_fd, const char *ldconfig, const char *const *dirs,
			   bool keep_links, struct lx_error *err)
{
	if (check_loader_config(root_fd, err) < 0)
		return -1;
	_cleanup_close_ int fd = open(ldconfig, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lx_error_set_errno(err, errno, "%s (the host's ldconfig)", ldconfig);
	bool dynamic;
	if (lx_elf_has_interp(fd, ldconfig, &dynamic, err) < 0)
		return -1;
	if (dynamic)
		return lx_error_set(err, "%s is dynamically linked: run in the container's root it "
				    "would load the container's libraries; lxgpu needs a static "
				    "ldconfig (glibc's is)", ldconfig);
	const char *argv[24] = {"ldconfig", "-f", "/etc/ld.so.conf", "-C", "/etc/ld.so.cache"};
	size_t n = 5;
	if (keep_links)
		argv[n++] = "-X";
	for (size_t i = 0; dirs[i] && n < 23; i++)
		argv[n++] = dirs[i];
	argv[n] = NULL;
	struct lx_confined c = {
		.root_fd = root_fd,
		.program_fd = fd,
		.argv = argv,
		.what = "ldconfig",
		.timeout_ms = 10000,
	};
	if (lx_run_confined(&c, err) < 0)
		return lx_error_prefix(err, "%s in the container's root: its /etc/ld.so.cache was "
				       "not refreshed", ldconfig);
	return 0;
}

/* The extra link libnvidia-container makes for a library (nvc_mount.c):
 * libcuda.so, which many programs dlopen() though only the soname is
 * promised, and GLVND's libGLX_indirect.so.0. */
static const char *extra_link(const char *name)
{
	if (lx_str_starts_with(name, "libcuda.so."))
		return "libcuda.so";
	if (lx_str_starts_with(name, "libGLX_nvidia.so."))
		return "libGLX_indirect.so.0";
	return NULL;
}

/* Where the hook puts a driver file in the container: libraries in its
 * library dir, tools in /usr/bin, under their host names. */
static char *target_of(const struct lx_driver_file *f, const char *lib_dir)
{
	return lx_xasprintf("%s/%s", f->kind == LX_DRIVER_BINARY ? "/usr/bin" : lib_dir,
			    base_name(f->path));
}

int lx_inject_driver(const struct lx_inject_options *o, struct lx_inject_result *r,
		     struct lx_error *err)
{
	*r = (struct lx_inject_result){0};
	const char *droot = o->driver_root && *o->driver_root ? o->driver_root : "/";
	if (!o->rootfs || o->rootfs[0] != '/')
		return lx_error_set(err, "the container's root is not an absolute path ('%s'): "
				    "lxgpu hook runs as lxc.hook.mount, which sets LXC_ROOTFS_MOUNT",
				    o->rootfs ? o->rootfs : "");
	_cleanup_close_ int root_fd = open(o->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return lx_error_set_errno(err, errno, "%s", o->rootfs);
	r->lib_dir = lx_container_lib_dir(root_fd);
	/* First what the last start made, also when this one goes on without
	 * the driver (hook --optional): no empty file is left in its place. */
	struct lx_error undo_err = {0};
	if (lx_made_undo(root_fd, r->lib_dir, &r->notes, &undo_err) < 0) {
		lx_strv_push_owned(&r->notes, lx_xstrdup(undo_err.message));
		lx_error_clear(&undo_err);
	}
	int loaded = lx_driver_loaded_version(o->proc_dir, &r->version, err);
	if (loaded < 0)
		return -1;
	if (loaded == 0) {
		r->no_driver = true;
		return lx_error_set(err, "the nvidia kernel module is not loaded (no %s/driver/nvidia/"
				    "version): no driver userspace to give the container",
				    o->proc_dir ? o->proc_dir : "/proc");
	}
	struct lx_driver_files files;
	int found = lx_driver_files_find(droot, r->version, &files, err);
	if (found < 0) {
		r->no_driver = found == LX_DRIVER_FILES_NONE;
		return lx_error_prefix(err, "the loaded module is %s", r->version);
	}
	_cleanup_close_ int droot_fd = open(droot, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (droot_fd < 0) {
		int e = errno;
		lx_driver_files_free(&files);
		return lx_error_set_errno(err, e, "%s", droot);
	}
	int rc = 0;
	struct placement p = {.root_fd = root_fd, .r = r};
	struct lx_strv targets = {0};
	for (size_t i = 0; i < files.n && rc == 0; i++) {
		const struct lx_driver_file *f = &files.items[i];
		_cleanup_close_ int src = lx_open_in_root(droot_fd, f->path, O_PATH);
		if (src < 0) {
			rc = lx_error_set_errno(err, errno, "%s in the driver root %s", f->path, droot);
			break;
		}
		const char *name = base_name(f->path);
		_cleanup_free_ char *target = target_of(f, r->lib_dir);
		if (f->kind == LX_DRIVER_BINARY) {
			int c = cover(&p, src, f->path, target, err);
			if (c <= 0) {
				rc = c;
				continue;
			}
			if (kind_in_root(root_fd, target) != 0) {
				/* A tool is not worth failing the start for. */
				lx_strv_push_owned(&r->notes, lx_xasprintf("%s: the container has something "
									   "other than a file there; "
									   "%s left out", target, name));
				continue;
			}
			rc = place(&p, src, f->path, target, err);
			continue;
		}
		if (lx_strv_contains(&targets, target))
			continue; /* the same name in two of the host's dirs: the first one */
		lx_strv_push(&targets, target);
		const char *soname = f->soname && strcmp(f->soname, name) != 0 ? f->soname : NULL;
		if (soname)
			rc = point_soname(&p, src, f->path, r->lib_dir, soname, name, err);
		if (rc == 0 && extra_link(name))
			rc = point_soname(&p, src, f->path, r->lib_dir, extra_link(name), name, err);
		if (rc == 0 && !soname && !extra_link(name))
			rc = place(&p, src, f->path, target, err);
		else if (rc == 0 && cover(&p, src, f->path, target, err) < 0)
			rc = -1; /* the container's own copy under the host's name */
	}
	lx_strv_free(&targets);
	lx_driver_files_free(&files);
	struct lx_error save_err = {0};
	if (lx_made_save(root_fd, r->lib_dir, &p.made, rc == 0 ? err : &save_err) < 0) {
		if (rc == 0)
			rc = -1;
		lx_error_clear(&save_err);
	}
	lx_made_free(&p.made);
	const char *dirs[] = {r->lib_dir, NULL};
	if (rc == 0)
		rc = refresh_ldcache(root_fd, o->ldconfig ? o->ldconfig : lx_host_ldconfig(), dirs,
				     true, err);
	return rc;
}

/* ---- the hook line ---- */

/* Single-quoted for sh when it holds anything but plain path characters. */
static void push_word(struct lx_buf *b, const char *w)
{
	if (b->len)
		lx_buf_puts(b, " ");
	lx_buf_shell_word(b, w);
}

char *lx_hook_line_value(const struct lx_hook_line *h)
{
	struct lx_buf b = {0};
	push_word(&b, h->binary);
	if (h->driver_root) {
		push_word(&b, "--driver-root");
		push_word(&b, h->driver_root);
	}
	if (h->proc_dir) {
		push_word(&b, "--proc-dir");
		push_word(&b, h->proc_dir);
	}
	push_word(&b, "hook");
	if (h->optional)
		push_word(&b, "--optional");
	return lx_buf_steal(&b);
}

void lx_hook_line_free(struct lx_hook_line *h)
{
	free(h->binary);
	free(h->driver_root);
	free(h->proc_dir);
	*h = (struct lx_hook_line){0};
}

/* sh words of the simple kinds lxgpu writes and people type: blanks
 * separate, single and double quotes and backslashes quote. false on
 * anything the shell would expand or run ($, `, ;, |, &, <, >, ...): such
 * a line is not one lxgpu can vouch for. */
static bool split_words(const char *s, struct lx_strv *words)
{
	struct lx_buf w = {0};
	bool in_word = false;
	for (const char *p = s;; p++) {
		char c = *p;
		if (c == '\0' || c == ' ' || c == '\t') {
			if (in_word)
				lx_strv_push_owned(words, lx_buf_steal(&w));
			in_word = false;
			if (c == '\0')
				return true;
			continue;
		}
		in_word = true;
		if (c == '\'') {
			const char *end = strchr(p + 1, '\'');
			if (!end)
				break;
			lx_buf_append(&w, p + 1, (size_t)(end - p - 1));
			p = end;
		} else if (c == '"') {
			const char *end = strchr(p + 1, '"');
			if (!end || memchr(p + 1, '$', (size_t)(end - p - 1)) ||
			    memchr(p + 1, '`', (size_t)(end - p - 1)) ||
			    memchr(p + 1, '\\', (size_t)(end - p - 1)))
				break;
			lx_buf_append(&w, p + 1, (size_t)(end - p - 1));
			p = end;
		} else if (c == '\\' && p[1]) {
			lx_buf_append(&w, ++p, 1);
		} else if (strchr("$`;|&<>()*?[#~{}\n", c)) {
			break;
		} else {
			lx_buf_append(&w, &c, 1);
		}
	}
	lx_buf_free(&w);
	lx_strv_free(words);
	return false;
}

bool lx_hook_line_parse(const char *value, struct lx_hook_line *out)
{
	*out = (struct lx_hook_line){0};
	struct lx_strv w = {0};
	if (!split_words(value, &w))
		return false;
	size_t i = 0;
	bool ok = w.n >= 2 && strcmp(base_name(w.items[0]), "lxgpu") == 0;
	if (ok)
		out->binary = lx_xstrdup(w.items[i++]);
	bool seen_hook = false;
	for (; ok && i < w.n; i++) {
		const char *a = w.items[i];
		char **slot = NULL;
		const char *eq = NULL;
		if (strcmp(a, "--driver-root") == 0 || lx_str_starts_with(a, "--driver-root="))
			slot = &out->driver_root, eq = strchr(a, '=');
		else if (strcmp(a, "--proc-dir") == 0 || lx_str_starts_with(a, "--proc-dir="))
			slot = &out->proc_dir, eq = strchr(a, '=');
		if (slot) {
			if (!eq && i + 1 >= w.n) {
				ok = false;
				break;
			}
			free(*slot);
			*slot = lx_xstrdup(eq ? eq + 1 : w.items[++i]);
		} else if (strcmp(a, "--optional") == 0) {
			out->optional = true;
		} else if (strcmp(a, "hook") == 0 && !seen_hook) {
			seen_hook = true;
		} else if (a[0] == '-') {
			continue; /* another global option (-v, -q): not lxgpu's business here */
		} else {
			ok = false; /* another command, or arguments hook does not take */
		}
	}
	lx_strv_free(&w);
	if (!ok || !seen_hook) {
		lx_hook_line_free(out);
		return false;
	}
	return true;
}

/* ---- the files as the hook places them (for generate's CDI spec) ---- */

int lx_driver_libs_files(const char *proc_dir, const char *driver_root, const char *lib_dir,
			 struct lx_driver_libs_options *o, struct lx_error *err)
{
	o->files = NULL;
	o->n_files = 0;
	o->lib_dir = lib_dir;
	_cleanup_free_ char *version = NULL;
	int loaded = lx_driver_loaded_version(proc_dir, &version, err);
	if (loaded < 0)
		return -1;
	if (loaded == 0)
		return lx_error_set(err, "--driver-libs: the nvidia kernel module is not loaded (no "
				    "%s/driver/nvidia/version): no driver files to list",
				    proc_dir ? proc_dir : "/proc");
	struct lx_driver_files files;
	if (lx_driver_files_find(driver_root, version, &files, err) < 0)
		return lx_error_prefix(err, "--driver-libs");
	o->files = lx_xcalloc(files.n ? files.n : 1, sizeof(*o->files));
	for (size_t i = 0; i < files.n; i++) {
		const struct lx_driver_file *f = &files.items[i];
		o->files[o->n_files++] = (struct lx_injected_file){
			.host_path = lx_xstrdup(f->path),
			.path = target_of(f, lib_dir),
		};
	}
	lx_driver_files_free(&files);
	return 0;
}

void lx_driver_libs_files_free(struct lx_driver_libs_options *o)
{
	for (size_t i = 0; i < o->n_files; i++) {
		free(o->files[i].host_path);
		free(o->files[i].path);
	}
	free(o->files);
	o->files = NULL;
	o->n_files = 0;
}

long lx_conf_find_hook(const struct lx_conf *conf, struct lx_hook_line *out)
{
	long found = -1;
	if (out)
		*out = (struct lx_hook_line){0};
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind != LX_CONF_LXC_KEY || strcmp(l->key, "lxc.hook.mount") != 0)
			continue;
		struct lx_hook_line h;
		if (l->value[strspn(l->value, " \t")] == '\0') {
			found = -1; /* LXC clears the mount hooks here */
			if (out)
				lx_hook_line_free(out);
		} else if (lx_hook_line_parse(l->value, &h)) {
			found = (long)i;
			if (out) {
				lx_hook_line_free(out);
				*out = h;
			} else {
				lx_hook_line_free(&h);
			}
		}
	}
	return found;
}

char *lx_hook_config_line(const struct lx_hook_line *h, bool is_pve)
{
	_cleanup_free_ char *value = lx_hook_line_value(h);
	return lx_xasprintf(is_pve ? "lxc.hook.mount: %s" : "lxc.hook.mount = %s", value);
}

/* ---- the CDI ldcache hook (an OCI createContainer hook) ---- */

int lx_oci_rootfs(const char *state, size_t len, char **rootfs, struct lx_error *err)
{
	*rootfs = NULL;
	static const char *const bundle_key[] = {"bundle"};
	static const char *const root_key[] = {"root", "path"};
	_cleanup_free_ char *bundle = lx_yaml_string_at(state, len, bundle_key, 1);
	if (!bundle || bundle[0] != '/')
		return lx_error_set(err, "the OCI state on stdin has no absolute \"bundle\": lxgpu "
				    "oci-hook is run by the container runtime as a CDI createContainer "
				    "hook");
	_cleanup_free_ char *config_path = lx_path_join(bundle, "config.json");
	_cleanup_free_ char *config = NULL;
	size_t config_len = 0;
	if (lx_read_file(config_path, 16u << 20, &config, &config_len, err) < 0)
		return -1;
	_cleanup_free_ char *root = lx_yaml_string_at(config, config_len, root_key, 2);
	if (!root || !*root)
		return lx_error_set(err, "%s: no root.path", config_path);
	/* A runtime writes a plain path; one that climbs out of the bundle
	 * would point the ldconfig run at another tree. */
	for (const char *p = root; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return lx_error_set(err, "%s: root.path '%s' has a '..' component: refusing it",
					    config_path, root);
		p += n;
		p += strspn(p, "/");
	}
	*rootfs = root[0] == '/' ? lx_xstrdup(root) : lx_path_join(bundle, root);
	return 0;
}

int lx_ldcache_update(const char *rootfs, const char *const *dirs, struct lx_error *err)
{
	for (size_t i = 0; dirs[i]; i++)
		if (dirs[i][0] != '/' || strstr(dirs[i], ".."))
			return lx_error_set(err, "'%s': the library folders are absolute paths inside "
					    "the container", dirs[i]);
	_cleanup_close_ int root_fd = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return lx_error_set_errno(err, errno, "the container's root %s", rootfs);
	/* Links made by ldconfig here: the nested container has only the
	 * versioned files the spec mounts. */
	return refresh_ldcache(root_fd, lx_host_ldconfig(), dirs, false, err);
}
