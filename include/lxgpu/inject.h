/* inject: the host's driver userspace in a container at every start
 * (`lxgpu hook`, run by LXC as lxc.hook.mount), and the hook line that
 * generate/apply write and verify recognises (issue 11, item 3).
 *
 * The hook runs in the container's mount namespace before pivot_root (for
 * an unprivileged container also in its user namespace, as its root), with
 * the container's root at LXC_ROOTFS_MOUNT and the host's files still
 * visible at their host paths. The files come from lx_driver_files_find;
 * every mount target is resolved inside the container's root
 * (lxgpu/userspace.h). */
#ifndef LXGPU_INJECT_H
#define LXGPU_INJECT_H

#include "lxgpu/util.h"

#include <stdbool.h>

/* The loaded module's version: the first line of PROC/driver/nvidia/version
 * (proc_dir NULL: "/proc"). Returns 1 with *version set, 0 when the module
 * is not loaded (no such file; *version NULL), -1 on a file that cannot be
 * read or parsed. */
int lx_driver_loaded_version(const char *proc_dir, char **version, struct lx_error *err);

/* The directory the container's loader searches for the driver's libraries:
 * where its own libc.so.6 is among this architecture's multiarch dir
 * (/usr/lib/x86_64-linux-gnu, /lib/...), /usr/lib64, /lib64, /usr/lib, /lib
 * (a dir glibc's loader searches by default); a root without a libc goes by
 * libnvidia-container's rule (nvc_container.c): /etc/debian_version, the
 * multiarch dir, else /usr/lib64. root_fd < 0 (no root known: the CDI spec
 * of a nested container): the multiarch dir. */
const char *lx_container_lib_dir(int root_fd);

/* The host's ldconfig: /sbin/ldconfig.real where it exists (Ubuntu's
 * /sbin/ldconfig is a shell wrapper around it), else /sbin/ldconfig. */
const char *lx_host_ldconfig(void);

struct lx_inject_options {
	const char *rootfs;      /* the container's root as the hook sees it (LXC_ROOTFS_MOUNT) */
	const char *proc_dir;    /* NULL: "/proc" */
	const char *driver_root; /* NULL: "/" */
	const char *ldconfig;    /* NULL: lx_host_ldconfig() */
};

struct lx_inject_result {
	char *version;        /* the loaded module's; NULL when not loaded */
	const char *lib_dir;  /* inside the container */
	struct lx_strv mounted; /* "host path -> container path" */
	struct lx_strv links;   /* soname links made or repointed */
	struct lx_strv notes;   /* files left out, with why */
	bool no_driver;         /* the failure was: no module, or no userspace of its version */
};

/* Take back what the last start made (lx_made_undo), then bind the host's
 * driver files of the loaded version read-only into the container's root
 * (libraries into lx_container_lib_dir, tools into /usr/bin) over the
 * container's own files: the file each soname (libcuda.so.1) leads to
 * inside the root is covered; where there is none an empty target and a
 * link are made and listed. Then rebuild the container's /etc/ld.so.cache
 * with the host's ldconfig confined to the root (lx_run_confined), the
 * library directory first and without touching links (-X), so the host's
 * version wins over any copy the container has. On failure r->no_driver tells whether the cause was a
 * missing driver (what `hook --optional` tolerates). */
int lx_inject_driver(const struct lx_inject_options *o, struct lx_inject_result *r,
		     struct lx_error *err);
void lx_inject_result_free(struct lx_inject_result *r);

/* ---- what the hook made in a root (src/inject/made.c) ---- */

/* Where a container has no file of a name the hook needs, it makes an empty
 * mount target or a soname link (or repoints a link that leads nowhere);
 * the list of those is kept in LIB_DIR/.lxgpu-hook-made in the root and
 * taken back at the next start, each only while unchanged. */
struct lx_made {
	struct lx_strv entries; /* "file\tPATH", "link\tPATH\tTARGET", "relink\tPATH\tTARGET\tOLD" */
};
void lx_made_add(struct lx_made *m, const char *kind, const char *path, const char *target,
		 const char *old);
void lx_made_free(struct lx_made *m);
int lx_made_save(int root_fd, const char *lib_dir, const struct lx_made *m, struct lx_error *err);
/* Take back what the last start's list names; notes: what could not be. */
int lx_made_undo(int root_fd, const char *lib_dir, struct lx_strv *notes, struct lx_error *err);

/* ---- a host program on a container's files (src/inject/confine.c) ---- */

/* A program of the host run on an untrusted root where nothing of the host
 * can be reached: new mount, PID, IPC and UTS namespaces, pivoted into the
 * root (its submounts kept but every kernel file system detached: no
 * /proc/1/root back to the host), nosuid/nodev/noexec, limits on CPU time,
 * memory, file size and open files, a wall-clock limit, the capability
 * bounding set emptied but CAP_DAC_OVERRIDE, no new privileges, a seccomp
 * allowlist, an empty environment. Fails when any of it cannot be set up,
 * when the program is killed (a limit) or exits non-zero. */
struct lx_confined {
	int root_fd;            /* the container's root (an fd of a path the host trusts) */
	int program_fd;         /* the program, opened on the host: a static binary */
	const char *const *argv;
	const char *what;       /* for messages: "ldconfig" */
	unsigned timeout_ms;    /* wall clock */
};
int lx_run_confined(const struct lx_confined *c, struct lx_error *err);

/* ---- the CDI spec's ldcache hook (an OCI createContainer hook) ---- */

/* The container's root from the OCI state a runtime passes on stdin: its
 * "bundle", and root.path of the bundle's config.json (relative to it; a
 * '..' component is refused). */
int lx_oci_rootfs(const char *state, size_t len, char **rootfs, struct lx_error *err);
/* The container's /etc/ld.so.cache rebuilt by the host's (here: the LXC
 * container's) static ldconfig confined to rootfs (lx_run_confined), dirs
 * (absolute, inside it; NULL-terminated) scanned first, soname links made. */
int lx_ldcache_update(const char *rootfs, const char *const *dirs, struct lx_error *err);

/* ---- the hook line ---- */

/* What the hook line says (lxc.hook.mount = BINARY [global options] hook
 * [--optional]). */
struct lx_hook_line {
	char *binary;
	char *driver_root; /* NULL: not given */
	char *proc_dir;    /* NULL: not given */
	bool optional;
};

/* The value of the lxc.hook.mount line, quoted for the shell LXC runs it
 * with (sh -c "exec VALUE 'name' 'lxc' 'mount'"). */
char *lx_hook_line_value(const struct lx_hook_line *h);
/* Parse a lxc.hook.mount value: true when it runs `lxgpu hook` (a binary
 * named lxgpu, the hook command), with *out filled (free with
 * lx_hook_line_free); false for any other hook. */
bool lx_hook_line_parse(const char *value, struct lx_hook_line *out);
void lx_hook_line_free(struct lx_hook_line *h);

struct lx_conf;
/* The lxgpu hook line of a config's live section that LXC will run: the
 * last lxc.hook.mount line running `lxgpu hook` that no later empty
 * `lxc.hook.mount =` clears (LXC empties the list on an empty value).
 * Returns its line index or -1; *out filled when found (may be NULL). */
long lx_conf_find_hook(const struct lx_conf *conf, struct lx_hook_line *out);
/* The line for a config: PVE "key: value", plain LXC "key = value". */
char *lx_hook_config_line(const struct lx_hook_line *h, bool is_pve);

/* A file the hook gives the container: the host's path, and where it is
 * inside the container after the hook ran. */
struct lx_injected_file {
	char *host_path;
	char *path;
};

/* --driver-libs: the hook line generate and apply write, and for the CDI
 * spec the files the hook puts into the container. */
struct lx_driver_libs_options {
	bool enabled;            /* --driver-libs */
	const char *binary;      /* lxgpu's installed path */
	const char *driver_root; /* --driver-root when given, else NULL */
	const char *proc_dir;    /* --proc-dir when given, else NULL */
	const char *lib_dir;     /* the container's library dir the files are listed in */
	struct lx_injected_file *files;
	size_t n_files;
};

/* The files of the loaded version (lx_driver_loaded_version under proc_dir,
 * lx_driver_files_find under driver_root) as the hook places them in a
 * container whose library dir is lib_dir (libraries, soname links, tools).
 * No module loaded or no userspace of its version: an error. */
int lx_driver_libs_files(const char *proc_dir, const char *driver_root, const char *lib_dir,
			 struct lx_driver_libs_options *o, struct lx_error *err);
void lx_driver_libs_files_free(struct lx_driver_libs_options *o);

#endif
