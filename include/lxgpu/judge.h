/* judge: one container's config and running state against what the host
 * offers; every problem is a finding with a stable code (lxgpu/findings.h,
 * docs/findings.md). */
#ifndef LXGPU_JUDGE_H
#define LXGPU_JUDGE_H

#include "lxgpu/access.h"
#include "lxgpu/config.h"
#include "lxgpu/findings.h"
#include "lxgpu/host.h"
#include "lxgpu/observe.h"

#include <stdbool.h>

/* ---- what the container is configured with ---- */

/* A GPU device node the config gives the container. */
struct lx_configured_node {
	char *path;    /* "/dev/nvidia0" */
	int line;      /* the config line */
	bool devn;     /* a devN entry (PVE makes the node at start) */
	bool bind;     /* a bind mount */
	bool optional; /* the mount has "optional": a missing source is skipped silently */
	unsigned mode; /* devN mode (0660 when not given) */
	bool gid_set;
};

struct lx_container_config {
	const char *id;
	const struct lx_conf *conf;
	bool is_pve;
	bool unprivileged;
	struct lx_configured_node *grants;
	size_t n_grants;
	struct lx_strv gpus; /* bdfs of the host GPUs it uses */
	struct lx_gpu_owned owned; /* the host's ownership rules, derived once */
};

/* Read the GPU grants of a config (the live section). */
void lx_container_config_read(const struct lx_host *host, const char *id, const struct lx_conf *conf,
			      bool is_pve, struct lx_container_config *out);
void lx_container_config_free(struct lx_container_config *c);

/* The container's GPUs (bdfs, appended to bdfs): those whose /dev/nvidiaN
 * its effective access reaches, and those a line names although they do
 * not reach it. access may be NULL (lines only). */
void lx_container_gpus(const struct lx_host *host, const struct lx_container_config *cc,
		       const struct lx_access *access, struct lx_strv *bdfs);

/* The host nodes a container's GPUs need, appended to out: each GPU's
 * /dev/nvidiaN, then /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-uvm-tools. */
void lx_needed_nodes(const struct lx_host *host, const struct lx_strv *gpus, struct lx_strv *out);
/* CUDA runs without it (nvidia-uvm-tools: profilers only): a warning. */
bool lx_needed_node_is_optional(const char *path);
/* The container's node that is this host node, preferring one it can open
 * read-write (a node may be reached at two paths); NULL when none. */
const struct lx_access_node *lx_access_reached(const struct lx_access *a, const char *host_path);

/* The fix for GPU lines that hard-code a dynamic major (uvm's, caps'): the
 * style that never does, devN entries on Proxmox, lxgpu's include file
 * (rewritten at every boot) on plain LXC. Plain `lxgpu apply ID` keeps the
 * container's style, so it is not that fix (it says "up to date"). */
char *lx_fix_hard_coded_major(const char *id, bool is_pve);

/* Findings from the config, judged by its effective access (what the
 * container gets at its next start: lx_access_compute of the same config). */
void lx_verify_config(const struct lx_host *host, const struct lx_container_config *cc,
		      const struct lx_access *access, struct lx_findings *out);
/* The same, given the container's GPUs (lx_container_gpus of the same
 * config and access: a caller that needs them too finds them once). */
void lx_verify_config_gpus(const struct lx_host *host, const struct lx_container_config *cc,
			   const struct lx_access *access, const struct lx_strv *gpus,
			   struct lx_findings *out);
/* LXG028 for each line Proxmox cannot parse (the rule apply refuses a file
 * by); needs no host model. Part of lx_verify_config. */
void lx_verify_config_lines(const struct lx_container_config *cc, struct lx_findings *out);
/* Findings about NVIDIA's LXC hook (hooks/nvidia): a start it fails, what
 * the host lacks for it, a GPU it cannot find, nodes it mounts that the
 * device cgroup denies, a setup that gives no CUDA. Part of
 * lx_verify_config. */
void lx_verify_nvhook(const struct lx_host *host, const struct lx_container_config *cc,
		      const struct lx_access *access, struct lx_findings *out);
/* ---- MIG instances (src/judge/mig_check.c) ---- */

/* A MIG instance a config names through its caps nodes' minors (read with
 * the driver's table, so also one that no longer exists). */
struct lx_mig_given {
	int gpu_minor, gi, ci; /* ci -1: only the GI's node is given */
	int line;              /* the first config line naming it */
	bool gi_node, ci_node; /* which of its two caps nodes the config gives */
};
void lx_config_mig_given(const struct lx_host *host, const struct lx_container_config *cc,
			 struct lx_mig_given **out, size_t *n);
/* The instance's GI and CI capabilities exist now. */
bool lx_mig_instance_exists(const struct lx_host *host, int gpu_minor, int gi, int ci);
/* How to get a gone instance back (verify's LXG054, the guard's LXG052). */
char *lx_mig_recreate_fix(const struct lx_host *host, const char *id, int gpu_minor, int gi,
			  int ci);
/* LXG050 (other instances reachable), LXG053 (a GI or CI node alone),
 * LXG054 (an instance that does not exist now); part of lx_verify_config. */
void lx_verify_mig(const struct lx_host *host, const struct lx_container_config *cc,
		   const struct lx_access *access, struct lx_findings *out);

/* Findings about the config's lxgpu include file (the include style):
 * missing (LXC refuses the config), not lxgpu's, not what ensure-nodes
 * writes now, no record to rewrite it from, recorded GPUs it leaves out.
 * nodes: what ensure-nodes would do to the host's nodes (NULL: the nodes
 * as they are, e.g. a snapshot). -1 when the config cannot be read. */
int lx_verify_include(const struct lx_host *host, const struct lx_node_plan *nodes, const char *id,
		      const char *config_path, const char *state_dir, struct lx_findings *out,
		      struct lx_error *err);
/* The same for a config already read (a walk reads each config once). */
void lx_verify_include_conf(const struct lx_host *host, const struct lx_node_plan *nodes,
			    const char *id, const struct lx_conf *conf, const char *state_dir,
			    struct lx_findings *out);


/* Findings from the running container (run->state LX_RUN_RUNNING): its
 * /dev, mounts, device cgroup (v1 devices.list; v2 the device programs
 * read back and evaluated), read through run's fds. access: the effective
 * access of the config on disk (a denied node it allows is "restart
 * pending"). devices: the per-node verdicts (may be NULL). */
void lx_verify_running(const struct lx_host *host, const struct lx_container_config *cc,
		       const struct lx_access *access, const struct lx_runtime_paths *paths,
		       const struct lx_running *run, struct lx_running_devices *devices,
		       struct lx_findings *out);
/* Findings about lxgpu's lxc.hook.mount line (apply --driver-libs): its
 * binary, the userspace it would give; without one, the container's own
 * copy of the driver (root_fd: its root, or -1). */
void lx_verify_hook(const struct lx_host *host, const struct lx_container_config *cc, int root_fd,
		    struct lx_findings *out);
/* Whether a container's driver libraries are its own business: it has GPU
 * lines, the host a loaded module, and no lxgpu hook binds the host's
 * files over them. */
bool lx_rootfs_matters(const struct lx_host *host, const struct lx_container_config *cc);
/* Findings for driver libraries of another version than the loaded module
 * (the version its loader resolves, lx_rootfs_driver_versions). */
void lx_verify_rootfs(const struct lx_host *host, const struct lx_container_config *cc, int root_fd,
		      struct lx_findings *out);

/* Findings for an Intel or AMD GPU's DRM nodes and /dev/kfd whose group
 * inside is not the container's own render (renderD*, kfd) or video
 * (cardN) group, read from its /etc/group inside root_fd (LXG055). */
void lx_verify_drm_groups(const struct lx_host *host, const struct lx_container_config *cc,
			  const struct lx_access *access, int root_fd, struct lx_findings *out);

/* ---- one container, all checks ---- */

struct lx_container_report {
	bool running;              /* state == LX_RUN_RUNNING */
	enum lx_run_state state;
	char *state_why;           /* LX_RUN_UNINSPECTABLE: why */
	const char *found_by;      /* "lxc-info" or "cgroup" (lx_running's source); NULL */
	struct lx_access access; /* what it gets at its next start */
	struct lx_strv gpus; /* bdfs of the GPUs it uses */
	struct lx_strv migs; /* MIG instances its config gives: "0000:1b:00.0:gi1/ci0" */
	size_t n_nodes;      /* GPU nodes it gets at its next start (lx_access_gpu_nodes), or
				their lines in its config where more */
	char *hostname;      /* lx_conf_hostname of its config; NULL when none */
	struct lx_running_devices devices; /* running: what its device cgroup allows */
};

/* Verify one container: its config (at path), and when it runs, the
 * running container; a stopped one's rootfs when it can be reached. Errors
 * (a config that cannot be read) return -1. */
int lx_verify_container(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			const struct lx_runtime_paths *paths, struct lx_findings *out,
			struct lx_container_report *report, struct lx_error *err);
/* The same for a config already read (conf: its whole file). */
int lx_verify_container_conf(const struct lx_host *host, const char *id, const struct lx_conf *conf,
			     bool is_pve, const struct lx_runtime_paths *paths,
			     struct lx_findings *out, struct lx_container_report *report,
			     struct lx_error *err);
void lx_container_report_free(struct lx_container_report *report);

/* storage.cfg as a walk over many containers reads it: once, when the
 * first stopped Proxmox container's root is looked for, instead of once
 * per container (lx_runtime_paths.storage_cfg; other nodes' containers
 * share it: it is the cluster's file). The walk owns it and frees it at
 * its end, so a file changed meanwhile is seen by the next run. */
struct lx_storage_cfg {
	char *path;  /* the file read; NULL: not read yet */
	char *text;  /* NULL: there is none */
	char *error; /* it could not be read: why (text NULL) */
};
void lx_storage_cfg_free(struct lx_storage_cfg *c);
/* The container's root: run's root_fd (a new fd) when it runs, else its
 * rootfs directory: plain LXC's lxc.rootfs.path (dir:), a Proxmox
 * container's volume where its storage keeps it (the "rootfs:" volume ID
 * through paths->pve_dir/storage.cfg, as pve-storage maps it: dir-like
 * storages' PATH/images/VMID/NAME.subvol, zfspool's MOUNTPOINT/subvol-*),
 * or its mount point when `pct mount` mounted it. An O_PATH fd, or -1. run
 * may be NULL. */
int lx_container_open_root(const struct lx_runtime_paths *paths, const char *id,
			   const struct lx_conf *conf, const struct lx_running *run);
/* The same; when -1 for a stopped container whose root is not readable
 * without mounting it (lvmthin, rbd, a disk image, an unknown storage), *why
 * says so and names `pct mount ID` (else NULL). why may be NULL. */
int lx_container_open_root_why(const struct lx_runtime_paths *paths, const char *id,
			       const struct lx_conf *conf, const struct lx_running *run, char **why);

#endif
