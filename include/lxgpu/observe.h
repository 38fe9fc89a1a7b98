/* observe: the running container as the host sees it: its init, found and
 * pinned (lx_container_find), what its device cgroup lets through for each
 * node, the driver libraries in its root. Reads only; judging is judge's. */
#ifndef LXGPU_OBSERVE_H
#define LXGPU_OBSERVE_H

#include "lxgpu/access.h"
#include "lxgpu/devprog.h"
#include "lxgpu/host.h"

#include <stdbool.h>

/* ---- the running container ---- */

struct lx_running_index;
struct lx_storage_cfg; /* judge's (lxgpu/judge.h) */

struct lx_runtime_paths {
	const char *cgroup_root; /* /sys/fs/cgroup */
	const char *proc;        /* /proc */
	const char *lxc_path;    /* /var/lib/lxc: PVE's effective configs */
	const char *lxc_config_dir; /* LXC's includes; NULL: /usr/share/lxc/config */
	const char *pve_dir;     /* storage.cfg's directory; NULL: /etc/pve */
	/* where /etc/subuid, /etc/subgid and newuidmap/newgidmap are read
	 * (lx_access_options.subid_root); NULL: not read (a snapshot's host) */
	const char *subid_root;
	/* Which containers may run, found once for a walk over many (audit,
	 * preflight): NULL: each lookup asks LXC and the cgroup itself. */
	const struct lx_running_index *running;
	/* LXC's shared config files read once for the walk (access's
	 * lx_access_options.shared); NULL: read for every container. */
	struct lx_lxc_files *lxc_files;
	/* storage.cfg read once for the walk (judge's lx_storage_cfg); NULL:
	 * read again for every stopped container whose root is looked for. */
	struct lx_storage_cfg *storage_cfg;
};

/* Which containers may be running on this host, from one look for every
 * container a walk visits, instead of an lxc-info process per container:
 * the names of the containers' cgroups on the hierarchy that holds the
 * device rules (PVE's lxc/<id>, LXC's lxc.payload.<name>, early 4.0's
 * lxc.payload/<name>: those init_from_cgroup walks), and the names one
 * "lxc-ls -P LXCPATH --running -1" lists (LXC's own answer, which also
 * knows containers with an lxc.cgroup.dir of their own). A container in
 * neither is stopped; one in either is looked up as lx_container_find does
 * (its cgroup walked for its init first, LXC asked when that finds none),
 * and pinned the same way. */
struct lx_running_index {
	enum lx_cgroup_layout layout; /* the layout it was built for */
	bool elsewhere;  /* another node's containers: none of them runs here */
	struct lx_strv cgroups; /* sorted */
	bool listed;     /* lxc-ls answered (else LXC is asked per container) */
	struct lx_strv lxc_running; /* sorted */
};
/* layout as for lx_container_find (LX_CGROUP_UNKNOWN: the host's). */
void lx_running_index_build(const struct lx_runtime_paths *paths, enum lx_cgroup_layout layout,
			    struct lx_running_index *out);
void lx_running_index_free(struct lx_running_index *idx);

/* The state of a container, as lxgpu could see it. */
enum lx_run_state {
	LX_RUN_STOPPED,
	LX_RUN_RUNNING,
	LX_RUN_UNINSPECTABLE, /* it runs (or did a moment ago) but lxgpu cannot look: why says */
};
/* "stopped", "running", "could not inspect". */
const char *lx_run_state_name(enum lx_run_state s);

/* A running container, found and pinned. Every fd is -1 when not open. */
struct lx_running {
	enum lx_run_state state;
	char *why;          /* LX_RUN_UNINSPECTABLE: "the container's init went away", ... */
	const char *source; /* who named the init: "lxc-info" or "cgroup"; NULL when stopped */
	int pid;            /* the container's init in lxgpu's pid namespace; -1 */
	int pidfd;          /* pidfd_open(pid): the same process, or none (-1: kernel < 5.3) */
	int proc_fd;        /* /proc/<pid> (O_DIRECTORY): that process's files, never a new pid's */
	int root_fd;        /* /proc/<pid>/root (O_PATH): the container's root */
	unsigned long long start_ticks; /* the init's start time (stat field 22) */
	/* cgroup directories on the hierarchy that holds the device rules
	 * (v2: the unified one; v1 and hybrid: the devices controller's). */
	char *cgroup;      /* the container's: ".../lxc/101", ".../lxc.payload.NAME" */
	char *init_cgroup; /* its init's, at or below it: ".../lxc/101/ns/init.scope" */
	char *cgroup_rel;  /* the container's as /proc/<pid>/cgroup names it: "/lxc/101" */
	enum lx_cgroup_layout layout; /* the layout it was found on */
};

/* Find the container's init and pin it. LXC is asked first (lxc-info, run
 * without a shell, its output parsed strictly); else its cgroup is walked
 * (PVE's lxc/<id> and every cgroup below it, LXC's lxc.payload.<name>, the
 * older lxc/<name>). The init is the outermost process of the container's
 * own pid namespace (NSpid ending in 1), checked after /proc/<pid>/root is
 * open to be that same process, still in the container's cgroup; tried
 * twice. layout: the host model's (LX_CGROUP_UNKNOWN: lx_parse_cgroup_layout
 * of paths->proc/self/mountinfo). With paths->running (built for the same
 * layout), a container it does not name is stopped without a look, and
 * one it names is found by its cgroup first (source "cgroup"), LXC asked
 * only when that finds no init. Release with lx_running_free. */
void lx_container_find(const struct lx_runtime_paths *paths, enum lx_cgroup_layout layout,
		       const char *id, struct lx_running *out);
/* Is the pinned init still alive and in the container's cgroup? After an
 * inspection, so that what was read is known to be the container's; when
 * not, r becomes LX_RUN_UNINSPECTABLE ("the container's init went away"). */
bool lx_running_recheck(struct lx_running *r);
void lx_running_free(struct lx_running *r);
/* lx_container_find for a caller that needs the state only. */
enum lx_run_state lx_container_state(const struct lx_runtime_paths *paths,
				     enum lx_cgroup_layout layout, const char *id);

/* What the running container's device cgroup lets through for one node,
 * as the kernel enforces it now. */
struct lx_running_node {
	char *path; /* the host node: "/dev/nvidia-uvm" */
	char type;  /* the host's node now: 'c' */
	unsigned major, minor;
	bool needed; /* one the GPUs need (else a configured node) */
	enum lx_devprog_verdict read, write, read_write;
	uint32_t denied_by; /* v2: the first program that denies; 0 */
	char *denied_on;    /* the cgroup it is attached to ("/lxc/101"), or NULL */
	char *reason;       /* why a verdict is LX_DEVPROG_UNKNOWN */
};

struct lx_running_devices {
	bool checked;       /* the rules were read (verdicts may still be unknown) */
	const char *source; /* "devices.list" (v1, hybrid) or "device programs" (v2) */
	char *where;        /* the devices.list read, or the v2 cgroup evaluated */
	char *why;          /* not checked: "could not check: ..." */
	uint32_t *programs; /* v2: the effective array's program ids */
	size_t n_programs;
	struct lx_running_node *nodes;
	size_t n_nodes;
};
void lx_running_devices_free(struct lx_running_devices *d);
/* Was every verdict read and evaluated (none unknown)? */
bool lx_running_devices_complete(const struct lx_running_devices *d);
/* Read what the running device cgroup lets through for each node already
 * in d->nodes (read, write, read-write): v1 the init's devices.list, v2 the
 * programs the kernel runs for the init's cgroup. d->checked says whether it
 * could be read, d->why why not. */
void lx_running_devices_read(const struct lx_runtime_paths *paths, const struct lx_running *run,
			     struct lx_running_devices *d);


struct lx_doc;
/* The verdicts as a document ("running" in verify's JSON/YAML). */
struct lx_doc *lx_running_devices_to_doc(const struct lx_running_devices *d);

/* The userspace driver versions a container's loader resolves: for
 * libcuda.so.1 and libnvidia-ml.so.1 the path its /etc/ld.so.cache names
 * (else the loader's system directories), its links followed one by one
 * inside the root (readlinkat; every path opened with openat2
 * RESOLVE_IN_ROOT, so nothing leads out of it), and the version in the name
 * of the file they end at. Files the loader never opens (a leftover
 * libcuda.so.535.183.01) are not counted. versions: sorted, unique; files:
 * "LINK -> FILE" (or FILE) per library resolved. root_fd: an O_PATH fd. */
void lx_rootfs_driver_versions(int root_fd, struct lx_strv *versions, struct lx_strv *files);

/* The container's /etc/group (root_fd: its root, O_PATH), opened inside the
 * root only (RESOLVE_IN_ROOT) and read only when a regular file of at most
 * 1 MiB; NULL when it cannot be read, and then *why (when why is not NULL)
 * says why: "there is none" (distroless and OCI images), "not a regular
 * file", "larger than ... bytes", or the error. */
char *lx_rootfs_read_group(int root_fd, char **why);
/* The gid of a group in /etc/group text ("render:x:993:"), -1 when absent. */
long long lx_group_text_gid(const char *text, const char *name);

#endif
