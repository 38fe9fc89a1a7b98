/* The host's userspace driver files of one version, found the way
 * nvidia-container-cli finds them: the library names through the ld.so
 * cache, the tools by name. Everything read (the cache, ELF headers) is
 * data and checked before use. */
#include "lxgpu/userspace.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The names libnvidia-container selects (NVIDIA/libnvidia-container,
 * src/nvc_info.c: utility_libs, compute_libs, video_libs, graphics_libs,
 * graphics_libs_glvnd; utility_bins, compute_bins). Not taken: its
 * graphics_libs_compat (libGL.so & co: GLVND loaders, selected there only
 * after an ELF dependency check), ngx and dxcore (WSL) libraries. */
const char *const lx_driver_library_names[] = {
	/* utility */
	"libnvidia-ml.so", "libnvidia-cfg.so", "libnvidia-nscq.so",
	/* compute */
	"libcuda.so", "libcudadebugger.so", "libnvidia-opencl.so", "libnvidia-gpucomp.so",
	"libnvidia-ptxjitcompiler.so", "libnvidia-fatbinaryloader.so", "libnvidia-allocator.so",
	"libnvidia-compiler.so", "libnvidia-pkcs11.so", "libnvidia-pkcs11-openssl3.so",
	"libnvidia-nvvm.so", "libnvidia-tileiras.so",
	/* video */
	"libvdpau_nvidia.so", "libnvidia-encode.so", "libnvidia-opticalflow.so", "libnvcuvid.so",
	/* graphics */
	"libnvidia-eglcore.so", "libnvidia-glcore.so", "libnvidia-tls.so", "libnvidia-glsi.so",
	"libnvidia-fbc.so", "libnvidia-ifr.so", "libnvidia-rtcore.so", "libnvoptix.so",
	/* graphics, GLVND vendor libraries */
	"libGLX_nvidia.so", "libEGL_nvidia.so", "libGLESv2_nvidia.so", "libGLESv1_CM_nvidia.so",
	"libnvidia-glvkspirv.so", "libnvidia-cbl.so",
	NULL,
};

/* Versionless: any file of the name is the driver's (nvc_info.c does the
 * same); a tool left from another driver version cannot be told apart here. */
const char *const lx_driver_binary_names[] = {
	"nvidia-smi", "nvidia-debugdump", "nvidia-persistenced", "nv-fabricmanager",
	"nvidia-cuda-mps-control", "nvidia-cuda-mps-server", NULL,
};

static const char *const standard_lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", NULL,
};
static const char *const binary_dirs[] = {"/usr/bin", "/usr/sbin", NULL};

#define LDCACHE_MAX (64u << 20)

/* ---- ld.so.cache ---- */

/* glibc's sysdeps/generic/dl-cache.h layout, read field by field. */
#define OLD_MAGIC "ld.so-1.7.0"
#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define OLD_HEADER 16u    /* magic[11], pad to 12, uint32 nlibs */
#define OLD_ENTRY 12u     /* int32 flags, uint32 key, value */
#define NEW_HEADER 48u    /* magic 20, nlibs, len_strings, flags, pad 3, ext, unused[3] */
#define NEW_ENTRY 24u     /* int32 flags, uint32 key, value, osversion, uint64 hwcap */

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* A NUL-terminated string at off inside [0, len). */
static const char *string_at(const unsigned char *base, size_t len, uint32_t off)
{
	if (off >= len)
		return NULL;
	const void *nul = memchr(base + off, '\0', len - off);
	return nul ? (const char *)base + off : NULL;
}

int lx_ldcache_parse(const char *label, const void *data, size_t len, struct lx_ldcache *out,
		     struct lx_error *err)
{
	*out = (struct lx_ldcache){0};
	const unsigned char *p = data;
	size_t start = 0;
	if (len >= OLD_HEADER && memcmp(p, OLD_MAGIC, strlen(OLD_MAGIC)) == 0) {
		uint32_t n_old = get32(p + 12);
		if (n_old > (len - OLD_HEADER) / OLD_ENTRY)
			return lx_error_set(err, "%s: corrupt ld.so cache (old header: %u entries "
					    "past the end)", label, n_old);
		start = OLD_HEADER + (size_t)n_old * OLD_ENTRY;
		start = (start + 7u) & ~(size_t)7u; /* cache_file_new is 8-aligned */
	}
	if (start > len || len - start < NEW_HEADER ||
	    memcmp(p + start, NEW_MAGIC, strlen(NEW_MAGIC)) != 0)
		return lx_error_set(err, "%s: not an ld.so cache in the \"%s\" format (truncated "
				    "or corrupt)", label, NEW_MAGIC);
	const unsigned char *h = p + start;
	size_t hlen = len - start; /* string offsets count from the new header */
	uint32_t nlibs = get32(h + 20);
	if (h[28] != 0 && h[28] != 2) /* 2: little endian; 0: not recorded */
		return lx_error_set(err, "%s: ld.so cache of another byte order", label);
	if (nlibs > (hlen - NEW_HEADER) / NEW_ENTRY)
		return lx_error_set(err, "%s: corrupt ld.so cache (%u entries, file of %zu bytes)",
				    label, nlibs, len);
	out->items = lx_xcalloc(nlibs ? nlibs : 1, sizeof(*out->items));
	for (uint32_t i = 0; i < nlibs; i++) {
		const unsigned char *e = h + NEW_HEADER + (size_t)i * NEW_ENTRY;
		const char *key = string_at(h, hlen, get32(e + 4));
		const char *value = string_at(h, hlen, get32(e + 8));
		if (!key || !value) {
			lx_ldcache_free(out);
			return lx_error_set(err, "%s: corrupt ld.so cache (entry %u: string offset "
					    "out of the file)", label, i);
		}
		struct lx_ldcache_entry *d = &out->items[out->n++];
		d->flags = (int32_t)get32(e);
		d->key = lx_xstrdup(key);
		d->value = lx_xstrdup(value);
	}
	return 0;
}

void lx_ldcache_free(struct lx_ldcache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->items[i].key);
		free(c->items[i].value);
	}
	free(c->items);
	*c = (struct lx_ldcache){0};
}

/* ---- ELF DT_SONAME ---- */

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	if (off > (uint64_t)INT64_MAX - n)
		return -1;
	ssize_t r = pread(fd, buf, n, (off_t)off);
	return r == (ssize_t)n ? 0 : -1;
}

int lx_elf_soname(int fd, const char *label, char **soname, struct lx_error *err)
{
	*soname = NULL;
	struct stat st;
	if (fstat(fd, &st) < 0)
		return lx_error_set_errno(err, errno, "%s: cannot stat", label);
	uint64_t size = (uint64_t)st.st_size;
	Elf64_Ehdr eh;
	if (pread_all(fd, &eh, sizeof(eh), 0) < 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return lx_error_set(err, "%s: not an ELF64 little-endian file", label);
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > 256 ||
	    eh.e_phoff > size || size - eh.e_phoff < (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr))
		return lx_error_set(err, "%s: corrupt ELF program headers", label);
	Elf64_Phdr ph[256];
	if (pread_all(fd, ph, (size_t)eh.e_phnum * sizeof(Elf64_Phdr), eh.e_phoff) < 0)
		return lx_error_set(err, "%s: cannot read the ELF program headers", label);
	const Elf64_Phdr *dyn = NULL;
	for (unsigned i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = &ph[i];
	if (!dyn)
		return 0; /* static: no soname */
	if (dyn->p_offset > size || dyn->p_filesz > size - dyn->p_offset ||
	    dyn->p_filesz > (1u << 20))
		return lx_error_set(err, "%s: corrupt ELF dynamic section", label);
	size_t n_dyn = (size_t)(dyn->p_filesz / sizeof(Elf64_Dyn));
	_cleanup_free_ Elf64_Dyn *d = lx_xcalloc(n_dyn ? n_dyn : 1, sizeof(*d));
	if (pread_all(fd, d, n_dyn * sizeof(*d), dyn->p_offset) < 0)
		return lx_error_set(err, "%s: cannot read the ELF dynamic section", label);
	uint64_t strtab = 0, strsz = 0, so = 0;
	bool has_so = false, has_tab = false;
	for (size_t i = 0; i < n_dyn && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag == DT_STRTAB) {
			strtab = d[i].d_un.d_ptr;
			has_tab = true;
		} else if (d[i].d_tag == DT_STRSZ) {
			strsz = d[i].d_un.d_val;
		} else if (d[i].d_tag == DT_SONAME) {
			so = d[i].d_un.d_val;
			has_so = true;
		}
	}
	if (!has_so)
		return 0;
	if (!has_tab || so >= strsz)
		return lx_error_set(err, "%s: corrupt ELF DT_SONAME", label);
	/* DT_STRTAB is an address: the PT_LOAD holding it gives its file offset. */
	uint64_t off = 0;
	bool mapped = false;
	for (unsigned i = 0; i < eh.e_phnum && !mapped; i++) {
		if (ph[i].p_type != PT_LOAD || strtab < ph[i].p_vaddr ||
		    strtab - ph[i].p_vaddr >= ph[i].p_filesz)
			continue;
		off = strtab - ph[i].p_vaddr + ph[i].p_offset;
		mapped = true;
	}
	if (!mapped || off > size || so > size - off)
		return lx_error_set(err, "%s: corrupt ELF string table", label);
	char buf[256];
	uint64_t avail = size - off - so;
	if (avail > strsz - so)
		avail = strsz - so;
	size_t want = avail < sizeof(buf) ? (size_t)avail : sizeof(buf);
	if (want == 0 || pread_all(fd, buf, want, off + so) < 0)
		return lx_error_set(err, "%s: cannot read the ELF soname", label);
	char *nul = memchr(buf, '\0', want);
	if (!nul || nul == buf || memchr(buf, '/', (size_t)(nul - buf)))
		return lx_error_set(err, "%s: corrupt ELF soname", label);
	*soname = lx_xstrdup(buf);
	return 0;
}

int lx_elf_has_interp(int fd, const char *label, bool *has, struct lx_error *err)
{
	*has = false;
	Elf64_Ehdr eh;
	if (pread_all(fd, &eh, sizeof(eh), 0) < 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return lx_error_set(err, "%s: not an ELF64 little-endian file", label);
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > 256)
		return lx_error_set(err, "%s: corrupt ELF program headers", label);
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		if (pread_all(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t)i * sizeof(ph)) < 0)
			return lx_error_set(err, "%s: cannot read the ELF program headers", label);
		if (ph.p_type == PT_INTERP)
			*has = true;
	}
	return 0;
}

/* ---- finding the files ---- */

static bool version_is_plain(const char *v)
{
	return *v && strspn(v, "0123456789.") == strlen(v) && v[0] != '.';
}

static void push_file(struct lx_driver_files *f, enum lx_driver_file_kind kind, char *path,
		      char *soname)
{
	f->items = lx_xrealloc(f->items, (f->n + 1) * sizeof(*f->items));
	f->items[f->n++] = (struct lx_driver_file){.kind = kind, .path = path, .soname = soname};
}

static bool have_path(const struct lx_driver_files *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->items[i].path, path) == 0)
			return true;
	return false;
}

/* A regular file at path inside the root: its fd (O_RDONLY), else -1. */
static int open_regular(int root_fd, const char *path)
{
	int fd = lx_open_in_root(root_fd, path, O_RDONLY | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int add_library(struct lx_driver_files *out, int root_fd, const char *dir,
		       const char *name, const char *version, struct lx_error *err)
{
	_cleanup_free_ char *path = lx_xasprintf("%s/%s.%s", dir, name, version);
	if (have_path(out, path))
		return 0;
	int fd = open_regular(root_fd, path);
	if (fd < 0)
		return 0;
	char *soname = NULL;
	int r = lx_elf_soname(fd, path, &soname, err);
	close(fd);
	if (r < 0)
		return -1;
	push_file(out, LX_DRIVER_LIBRARY, path, soname);
	path = NULL;
	return 0;
}

/* The directories the cache names for a library stem (x86-64 entries). */
static void cache_dirs(const struct lx_ldcache *c, const char *name, struct lx_strv *dirs)
{
	size_t nlen = strlen(name);
	for (size_t i = 0; i < c->n; i++) {
		const struct lx_ldcache_entry *e = &c->items[i];
		if (e->flags != LX_LDCACHE_X86_64 || strncmp(e->key, name, nlen) != 0 ||
		    (e->key[nlen] != '.' && e->key[nlen] != '\0'))
			continue;
		const char *slash = strrchr(e->value, '/');
		if (!slash || slash == e->value)
			continue;
		_cleanup_free_ char *dir = lx_xstrndup(e->value, (size_t)(slash - e->value));
		if (!lx_strv_contains(dirs, dir))
			lx_strv_push(dirs, dir);
	}
}

/* The whole file open at fd, up to max bytes. */
static int read_fd_all(int fd, const char *label, size_t max, char **out, size_t *len,
		       struct lx_error *err)
{
	struct lx_buf b = {0};
	char chunk[65536];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			lx_buf_free(&b);
			return lx_error_set_errno(err, e, "%s: cannot read", label);
		}
		if (n == 0)
			break;
		if (b.len + (size_t)n > max) {
			lx_buf_free(&b);
			return lx_error_set(err, "%s: larger than %zu bytes", label, max);
		}
		lx_buf_append(&b, chunk, (size_t)n);
	}
	*len = b.len;
	*out = lx_buf_steal(&b);
	return 0;
}

int lx_driver_files_find(const char *driver_root, const char *version,
			 struct lx_driver_files *out, struct lx_error *err)
{
	*out = (struct lx_driver_files){0};
	const char *root = driver_root && *driver_root ? driver_root : "/";
	if (!version || !version_is_plain(version))
		return lx_error_set(err, "driver version '%s' is not a version number",
				    version ? version : "");
	int root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return lx_error_set_errno(err, errno, "driver root %s", root);

	/* The cache, when the root has one. */
	struct lx_ldcache cache = {0};
	bool have_cache = false;
	int cfd = lx_open_in_root(root_fd, "/etc/ld.so.cache", O_RDONLY | O_NOCTTY);
	if (cfd < 0 && errno != ENOENT) {
		int e = errno;
		close(root_fd);
		return lx_error_set_errno(err, e, "%s: cannot open etc/ld.so.cache", root);
	}
	if (cfd >= 0) {
		_cleanup_free_ char *data = NULL;
		size_t len = 0;
		_cleanup_free_ char *label = lx_path_join(root, "etc/ld.so.cache");
		int r = read_fd_all(cfd, label, LDCACHE_MAX, &data, &len, err);
		close(cfd);
		if (r < 0 || lx_ldcache_parse(label, data, len, &cache, err) < 0) {
			close(root_fd);
			return -1;
		}
		have_cache = true;
	}

	int rc = 0;
	for (size_t i = 0; lx_driver_library_names[i] && rc == 0; i++) {
		const char *name = lx_driver_library_names[i];
		struct lx_strv dirs = {0};
		if (have_cache)
			cache_dirs(&cache, name, &dirs);
		else
			for (size_t d = 0; standard_lib_dirs[d]; d++)
				lx_strv_push(&dirs, standard_lib_dirs[d]);
		for (size_t d = 0; d < dirs.n && rc == 0; d++)
			rc = add_library(out, root_fd, dirs.items[d], name, version, err);
		lx_strv_free(&dirs);
	}
	lx_ldcache_free(&cache);
	if (rc < 0) {
		close(root_fd);
		lx_driver_files_free(out);
		return -1;
	}
	if (out->n == 0) {
		close(root_fd);
		lx_error_set(err, "no userspace driver libraries of version %s under %s "
				    "(looked for %s.%s & co through %s)", version, root,
				    "libcuda.so", version,
				    have_cache ? "its /etc/ld.so.cache"
					       : "/usr/lib/x86_64-linux-gnu, /usr/lib64, /usr/lib");
		return LX_DRIVER_FILES_NONE;
	}
	for (size_t i = 0; lx_driver_binary_names[i]; i++) {
		for (size_t d = 0; binary_dirs[d]; d++) {
			char *path = lx_xasprintf("%s/%s", binary_dirs[d], lx_driver_binary_names[i]);
			int fd = open_regular(root_fd, path);
			if (fd < 0) {
				free(path);
				continue;
			}
			close(fd);
			push_file(out, LX_DRIVER_BINARY, path, NULL);
			break;
		}
	}
	close(root_fd);
	return 0;
}

void lx_driver_files_free(struct lx_driver_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->items[i].path);
		free(f->items[i].soname);
	}
	free(f->items);
	*f = (struct lx_driver_files){0};
}
