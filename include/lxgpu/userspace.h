/* The host's userspace driver (libraries and tools of one driver version)
 * and the safe mounting of its files into an untrusted container root: the
 * library core of `lxgpu hook` (issue 11, item 3).
 *
 * Every path is resolved inside a root with openat2(RESOLVE_IN_ROOT):
 * the driver root (the host's, default "/") and the container's root alike,
 * so no symlink leads out of either. */
#ifndef LXGPU_USERSPACE_H
#define LXGPU_USERSPACE_H

#include "lxgpu/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the host's ld.so cache ("glibc-ld.so.cache1.1") ---- */

struct lx_ldcache_entry {
	char *key;      /* the soname, "libcuda.so.1" */
	char *value;    /* the path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1" */
	int32_t flags;  /* glibc's FLAG_*: 0x0303 is an x86-64 libc6 library */
};
struct lx_ldcache {
	struct lx_ldcache_entry *items;
	size_t n;
};
#define LX_LDCACHE_X86_64 0x0303

/* Parse a cache file in memory; the data is untrusted: every offset is
 * checked, a truncated or corrupt file is an error naming label. Accepts the
 * new format alone (glibc >= 2.32's default) and behind the old
 * "ld.so-1.7.0" header. */
int lx_ldcache_parse(const char *label, const void *data, size_t len, struct lx_ldcache *out,
		     struct lx_error *err);
void lx_ldcache_free(struct lx_ldcache *c);

/* The DT_SONAME of an ELF64 little-endian shared object open at fd
 * (bounds-checked; *soname NULL when it has none). */
int lx_elf_soname(int fd, const char *label, char **soname, struct lx_error *err);
/* Whether the ELF64 little-endian executable open at fd names a program
 * interpreter (PT_INTERP: dynamically linked). */
int lx_elf_has_interp(int fd, const char *label, bool *has, struct lx_error *err);

/* ---- the driver's files on the host ---- */

enum lx_driver_file_kind {
	LX_DRIVER_LIBRARY,
	LX_DRIVER_BINARY,
};

struct lx_driver_file {
	enum lx_driver_file_kind kind;
	char *path;   /* inside the driver root: "/usr/lib/x86_64-linux-gnu/libcuda.so.595.10" */
	char *soname; /* libraries: "libcuda.so.1" (ELF DT_SONAME); NULL when none or a binary */
};
struct lx_driver_files {
	struct lx_driver_file *items;
	size_t n;
};

/* The library stems lxgpu looks for ("libcuda.so", ...), NULL-terminated. */
extern const char *const lx_driver_library_names[];
/* The tools ("nvidia-smi", ...), NULL-terminated. */
extern const char *const lx_driver_binary_names[];

/* The host's userspace driver files of exactly `version` under driver_root
 * (NULL: "/"): `<name>.<version>` for each library name, in the directories
 * the root's /etc/ld.so.cache names for that library (x86-64 entries), or
 * in /usr/lib/x86_64-linux-gnu, /usr/lib64, /usr/lib when the root has no
 * cache; the tools from /usr/bin and /usr/sbin (versionless: any file of
 * that name is taken). Returns 0; -1 on an error (a corrupt cache); and
 * LX_DRIVER_FILES_NONE when the root has no library of the version, with
 * err naming the version and the root (the one failure `hook --optional`
 * lets a start survive). */
#define LX_DRIVER_FILES_NONE (-2)
int lx_driver_files_find(const char *driver_root, const char *version,
			 struct lx_driver_files *out, struct lx_error *err);
void lx_driver_files_free(struct lx_driver_files *f);

#endif
