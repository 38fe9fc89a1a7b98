/* verify: what a container is configured with and what it really has,
 * against what the host offers; every problem is a finding with a stable
 * code (docs/findings.md). */
#ifndef LXGPU_VERIFY_H
#define LXGPU_VERIFY_H

#include "lxgpu/access.h"
#include "lxgpu/config.h"
#include "lxgpu/devprog.h"
#include "lxgpu/host.h"

#include <stdbool.h>

enum lx_severity {
	LX_SEVERITY_INFO,
	LX_SEVERITY_WARNING,
	LX_SEVERITY_ERROR,
};

/* The finding codes; their text lives in docs/findings.md. */
enum lx_finding_code {
	LXG001_STALE_MAJOR = 1,   /* a rule for a major no node has now */
	LXG002_MISSING_NODE,      /* a rule or mount for a node the host lacks */
	LXG003_NO_SUCH_GPU,       /* nodes of a GPU that does not exist */
	LXG004_GPU_ON_VFIO,       /* nodes of a GPU bound to vfio-pci (or not to nvidia) */
	LXG005_LINES_IN_SECTION,  /* GPU lines in a snapshot or pending section */
	LXG006_WRONG_CGROUP_KEYS, /* cgroup v1 keys on a v2 host, or v2 keys on a v1 host */
	LXG007_OVER_BROAD_RULE,   /* devices.allow a, c *:* rwm */
	LXG008_PLANNED_NODE_MISSING, /* a node the GPUs need is not in the config */
	LXG009_DEVN_NODE_MISSING, /* devN for a node that does not exist: the start fails */
	LXG010_UNUSABLE_MODE,     /* users in the container cannot open a node */
	LXG011_DRIVER_MISMATCH,   /* userspace driver libraries of another version */
	LXG012_GPU_SHARED,        /* the same GPU in two containers (--exclusive) */
	LXG013_GPU_IN_VM,         /* a GPU in a container and in a VM (hostpciN) */
	LXG014_NO_CGROUP_RULE,    /* a bind-mounted node no cgroup rule allows */
	LXG015_STALE_NODE_INSIDE, /* a node inside the running container with an old major:minor */
	LXG016_NODE_MISSING_INSIDE, /* a configured node absent inside the running container */
	LXG017_MOUNT_MISSING_INSIDE, /* a configured bind mount absent in the running container */
	LXG018_CGROUP_DENIES,     /* the running container's devices.list lacks a node */
	LXG019_RESTART_PENDING,   /* the config changed since the container started */
	LXG020_UVM_NOT_LOADED,    /* nvidia-uvm is not loaded on the host */
	LXG021_NO_HOST_MODEL,     /* a GPU container on a cluster node lxgpu has no model of */
	LXG022_CGROUP_DENIES_NEEDED, /* the device cgroup denies a node the GPUs need */
	LXG023_WILL_NOT_START,    /* PVE or LXC fails the next start */
	LXG024_INVALID_RULE,      /* LXC refuses a device rule (cgroup v2: logs it, ignores it) */
	LXG025_BASIC_DEVICES_BLOCKED, /* the device cgroup blocks /dev/null & co: init fails */
	LXG026_RUNNING_UNCHECKED, /* the running device cgroup could not be read or evaluated */
	/* the start guard (src/verify/guard.c): a recorded GPU changed */
	LXG030_GUARD_RENUMBERED = 30, /* the config no longer gives a recorded GPU's /dev/nvidiaN */
	LXG031_GUARD_GPU_UNAVAILABLE, /* a recorded GPU is gone or not bound to nvidia (vfio-pci) */
	LXG032_GUARD_IN_RUNNING_VM,   /* a recorded GPU is held by a running VM (hostpciN) */
	LXG033_GUARD_IN_RUNNING_CT,   /* exclusive use: another running container has the GPU */
	LXG034_GUARD_OTHER_CARD,      /* another card at the recorded address, or the GPU moved */
	LXG035_GUARD_UNCHECKED,       /* the guard could not check something: the start goes on */
	/* the include style's file (src/verify/include_check.c) */
	LXG040_INCLUDE_MISSING = 40, /* the config includes lxgpu's file, which is not there */
	LXG041_INCLUDE_NOT_OURS,  /* a file at lxgpu's include path that lxgpu did not write */
	LXG042_INCLUDE_STALE,     /* lxgpu's include file is not what ensure-nodes writes now */
	LXG043_INCLUDE_NO_RECORD, /* no GPU record to rewrite the include file from */
	LXG044_INCLUDE_GPU_GONE,  /* a recorded GPU the include file leaves out (gone, vfio) */
	/* the driver userspace hook (src/verify/hook_check.c) */
	LXG045_HOOK_BINARY_MISSING = 45, /* the lxc.hook.mount line runs a binary that is not there */
	LXG046_HOOK_NO_USERSPACE,  /* the hook has no userspace of the loaded version to give */
	LXG047_OWN_DRIVER_COPY,    /* no hook: the container's own copy of the driver */
	/* doctor (src/doctor): the kernel log's messages and the host's prerequisites */
	LXG100_API_MISMATCH = 100, /* a client's driver version differs from the module's */
	LXG101_NEEDS_OPEN_MODULE, /* a GPU the proprietary module does not drive (Blackwell) */
	LXG102_NO_GSP,            /* a GPU the open module does not drive (pre-Turing) */
	LXG103_UNSUPPORTED_GPU,   /* a GPU this driver release does not support */
	LXG104_BAR_UNASSIGNED,    /* a GPU BAR the firmware did not assign */
	LXG105_BAR_RESIZE_FAILED, /* resizable BAR failed */
	LXG106_INIT_FAILED,       /* RmInitAdapter failed */
	LXG107_GSP_FIRMWARE_MISSING, /* GSP firmware of the loaded version missing */
	LXG108_GSP_BOOT_FAILED,   /* GSP did not boot */
	LXG109_FALLEN_OFF_BUS,    /* the GPU no longer answers on PCIe (Xid 79) */
	LXG110_XID,               /* an Xid event */
	LXG111_BOUND_ELSEWHERE,   /* nvidia found the GPU bound to another driver */
	LXG112_UNSIGNED_MODULE,   /* the kernel refused an unsigned module */
	LXG113_IOMMU_FAULT,       /* an IOMMU fault naming a GPU */
	LXG114_ACS_REDIRECT,      /* the kernel refuses P2P DMA: ACS redirect */
	LXG115_OPEN_UNSUPPORTED,  /* the open module refused a GeForce/workstation GPU */
	LXG120_MODULE_NOT_LOADED = 120, /* the nvidia module is not loaded */
	LXG121_GPU_NOT_ON_NVIDIA, /* a GPU bound to no driver, nouveau, vfio-pci */
	LXG122_DRIVER_NODE_MISSING, /* /dev/nvidiactl, nvidiaN, nvidia-uvm missing */
	LXG123_DRIVER_NODE_WRONG, /* a driver node with a wrong or stale major:minor */
	LXG124_NO_DEVICE_MINOR,   /* the driver does not report a GPU's minor */
	LXG125_NO_GPU,            /* no NVIDIA GPU on the host */
	LXG126_NO_PERSISTENCED,   /* nvidia-persistenced is not running */
	LXG127_SECURE_BOOT_UNSIGNED, /* Secure Boot on and nvidia not loaded */
	LXG128_CMDLINE_BLACKLIST, /* the kernel command line blacklists an NVIDIA module */
	LXG129_KMSG_UNREADABLE,   /* the kernel log could not be read */
	/* peer-to-peer readiness (src/doctor/p2p.c over src/host/p2p.c) */
	LXG160_P2P_IOMMU_TRANSLATES = 160, /* GPUs whose IOMMU groups translate peer DMA */
	LXG161_P2P_ACS_REDIRECT,  /* ACS redirect on the switch ports between GPUs */
	LXG162_P2P_UNKNOWN,       /* a fact P2P depends on could not be read */
	/* host models through the cluster file system, migration (src/verify/migrate.c) */
	LXG180_MODEL_STALE = 180, /* a node's published model is from before its last boot */
	LXG181_MODEL_UNDATED,     /* whether a node's published model is current is unknown */
	LXG182_MIGRATE_GPU_ABSENT, /* a GPU of the container is not on the target node */
	LXG183_MIGRATE_GPU_NOT_NVIDIA, /* the GPU is there but not bound to nvidia (vfio-pci) */
	LXG184_MIGRATE_OTHER_GPU, /* the config gives another GPU there (its minor differs) */
	LX_FINDING_CODES_END,
};

struct lx_finding_info {
	const char *code; /* "LXG001" */
	enum lx_severity severity;
	const char *title;
};
const struct lx_finding_info *lx_finding_info(enum lx_finding_code code);
const char *lx_severity_name(enum lx_severity s);

struct lx_finding {
	enum lx_finding_code code;
	enum lx_severity severity;
	char *container; /* id, or NULL for host-wide findings */
	char *file;      /* config file, or NULL */
	int line;        /* 1-based, 0 when none */
	char *node;      /* device node, or NULL */
	char *message;
	char *fix;
	char *evidence; /* the log line(s) or file content that back it, or NULL */
};

struct lx_findings {
	struct lx_finding *items;
	size_t n;
};

/* Add a finding; message and fix are formatted by the caller. Takes
 * ownership of message and fix. */
void lx_findings_add(struct lx_findings *f, enum lx_finding_code code, const char *container,
		     const char *file, int line, const char *node, char *message, char *fix);
/* Lower or raise the severity of the finding added last (a code's default
 * does not fit every case: an optional mount of a missing node is a warning). */
void lx_findings_last_severity(struct lx_findings *f, enum lx_severity severity);
/* Attach evidence (taken over) to the finding added last. */
void lx_findings_last_evidence(struct lx_findings *f, char *evidence);
void lx_findings_free(struct lx_findings *f);
/* Drop the findings after the first n (what an inspection that turned out
 * void had added). */
void lx_findings_truncate(struct lx_findings *f, size_t n);
/* The highest severity present; LX_SEVERITY_INFO when empty. */
bool lx_findings_have_errors(const struct lx_findings *f);

/* The lines lxgpu owns on this host (see lx_conf_line_is_gpu): the host's
 * NVIDIA majors and its NVIDIA GPUs' DRM nodes. */
void lx_gpu_owned_from_host(const struct lx_host *host, struct lx_gpu_owned *out);

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

/* Findings from the config, judged by its effective access (what the
 * container gets at its next start: lx_access_compute of the same config). */
void lx_verify_config(const struct lx_host *host, const struct lx_container_config *cc,
		      const struct lx_access *access, struct lx_findings *out);
/* Findings about the config's lxgpu include file (the include style):
 * missing (LXC refuses the config), not lxgpu's, not what ensure-nodes
 * writes now, no record to rewrite it from, recorded GPUs it leaves out.
 * nodes: what ensure-nodes would do to the host's nodes (NULL: the nodes
 * as they are, e.g. a snapshot). -1 when the config cannot be read. */
int lx_verify_include(const struct lx_host *host, const struct lx_node_plan *nodes, const char *id,
		      const char *config_path, const char *state_dir, struct lx_findings *out,
		      struct lx_error *err);

/* ---- the running container ---- */

struct lx_runtime_paths {
	const char *cgroup_root; /* /sys/fs/cgroup */
	const char *proc;        /* /proc */
	const char *lxc_path;    /* /var/lib/lxc: PVE's effective configs */
	const char *lxc_config_dir; /* LXC's includes; NULL: /usr/share/lxc/config */
};

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
 * of paths->proc/self/mountinfo). Release with lx_running_free. */
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

/* Findings from the running container (run->state LX_RUN_RUNNING): its
 * /dev, mounts, device cgroup (v1 devices.list; v2 the device programs
 * read back and evaluated), read through run's fds. access: the effective
 * access of the config on disk (a denied node it allows is "restart
 * pending"). devices: the per-node verdicts (may be NULL). */
void lx_verify_running(const struct lx_host *host, const struct lx_container_config *cc,
		       const struct lx_access *access, const struct lx_runtime_paths *paths,
		       const struct lx_running *run, struct lx_running_devices *devices,
		       struct lx_findings *out);
struct lx_doc;
/* The verdicts as a document ("running" in verify's JSON/YAML). */
struct lx_doc *lx_running_devices_to_doc(const struct lx_running_devices *d);

/* Userspace driver library versions in a container's root (libcuda.so.X,
 * libnvidia-ml.so.X), read by name only, never following a path out of the
 * root (openat2 RESOLVE_IN_ROOT). root_fd: an O_PATH/O_DIRECTORY fd. */
void lx_rootfs_driver_versions(int root_fd, struct lx_strv *versions, struct lx_strv *files);
/* Findings about lxgpu's lxc.hook.mount line (apply --driver-libs): its
 * binary, the userspace it would give; without one, the container's own
 * copy of the driver (root_fd: its root, or -1). */
void lx_verify_hook(const struct lx_host *host, const struct lx_container_config *cc, int root_fd,
		    struct lx_findings *out);
/* Findings for driver libraries of another version than the loaded module. */
void lx_verify_rootfs(const struct lx_host *host, const struct lx_container_config *cc, int root_fd,
		      struct lx_findings *out);

/* ---- one container, all checks ---- */

struct lx_container_report {
	bool running;              /* state == LX_RUN_RUNNING */
	enum lx_run_state state;
	char *state_why;           /* LX_RUN_UNINSPECTABLE: why */
	const char *found_by;      /* "lxc-info" or "cgroup" (lx_running's source); NULL */
	struct lx_access access; /* what it gets at its next start */
	struct lx_strv gpus; /* bdfs of the GPUs it uses */
	size_t n_nodes;      /* GPU nodes in its config */
	struct lx_running_devices devices; /* running: what its device cgroup allows */
};

/* Verify one container: its config (at path), and when it runs, the
 * running container; a stopped one's rootfs when it can be reached. Errors
 * (a config that cannot be read) return -1. */
int lx_verify_container(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			const struct lx_runtime_paths *paths, struct lx_findings *out,
			struct lx_container_report *report, struct lx_error *err);
void lx_container_report_free(struct lx_container_report *report);
/* The container's root: run's root_fd (a new fd) when it runs, else its
 * rootfs directory when lxgpu can see it (plain LXC dir:, PVE's mount
 * point while mounted). An O_PATH fd, or -1. run may be NULL. */
int lx_container_open_root(const struct lx_runtime_paths *paths, const char *id,
			   const struct lx_conf *conf, const struct lx_running *run);

/* ---- the containers of a host ---- */

/* Container ids in dir, in pct list's order: by number (vmids), names that
 * are not numbers as text. pve: Proxmox's "<vmid>.conf" files (a vmid as
 * pmxcfs takes one: digits, no leading 0; other files there are not
 * containers); else plain LXC's "<name>/config" directories. */
void lx_container_ids(const char *dir, bool pve, struct lx_strv *ids);

/* One container config, valid only during the callback. */
struct lx_container_entry {
	const char *id;
	const char *path; /* its config */
	bool is_pve;
};
/* Each container of a host, in order: Proxmox's (<pve_lxc_dir>/<vmid>.conf),
 * then plain LXC's (<lxc_path>/<name>/config) but for those PVE generates
 * from a config in pve_lxc_dir. Either directory may be NULL. */
void lx_containers_each(const char *pve_lxc_dir, const char *lxc_path,
			void (*fn)(void *ctx, const struct lx_container_entry *c), void *ctx);

/* ---- the next boot ---- */

/* The "key=value" strings of a kernel module's .modinfo section; the file
 * may be plain or compressed (.xz, .zst, .gz; decompressed by libarchive).
 * Nothing is loaded and modinfo(8) is not run. */
int lx_modinfo_read(const char *path, struct lx_strv *fields, struct lx_error *err);
/* The same from an ELF image in memory (bounds-checked: the file is data). */
int lx_modinfo_parse_elf(const char *name, const unsigned char *data, size_t len,
			 struct lx_strv *fields, struct lx_error *err);
/* "version=..." -> "..."; NULL when absent. */
const char *lx_modinfo_get(const struct lx_strv *fields, const char *key);

struct lx_next_boot {
	char *kernel;        /* the kernel that boots next */
	char *kernel_source; /* how lxgpu knows: a pin file, GRUB, newest installed */
	char *module_path;   /* nvidia.ko for that kernel; NULL when there is none */
	char *module_version;
	enum lx_driver_flavor module_flavor;
	bool firmware_present; /* GSP firmware of module_version (open flavour needs it) */
	bool uvm_at_boot;      /* something creates /dev/nvidia-uvm before guests start */
	char *uvm_source;      /* what does */
	char *ensure_nodes_unit; /* an enabled unit that runs lxgpu ensure-nodes (which
				  * rewrites lxgpu's include files at boot); NULL: none */
};

/* Inspect the files under root ("/" on the live host): /etc/kernel pins,
 * /boot/grub, /lib/modules, /lib/firmware/nvidia, systemd units, udev
 * rules. kernel overrides the choice of kernel. */
int lx_next_boot_inspect(const char *root, const char *kernel, struct lx_next_boot *out,
			 struct lx_error *err);
void lx_next_boot_free(struct lx_next_boot *nb);
/* A systemd unit that creates the NVIDIA nodes before guests start. */
const char *lx_boot_unit_text(void);
/* Compare kernel release strings ("6.8.12-4-pve" < "6.8.12-10-pve"). */
int lx_kernel_version_compare(const char *a, const char *b);

/* ---- preflight: will the container come up with working GPUs? ---- */

enum lx_verdict {
	LX_VERDICT_OK,
	LX_VERDICT_DEGRADED,  /* starts, but e.g. CUDA will not work */
	LX_VERDICT_WILL_FAIL, /* does not start */
};
const char *lx_verdict_name(enum lx_verdict v);

struct lx_reason {
	enum lx_verdict verdict; /* what this reason alone means */
	char *message;
	char *fix;
};

struct lx_preflight {
	enum lx_verdict verdict; /* the worst of the reasons */
	struct lx_reason *reasons;
	size_t n;
};
void lx_preflight_free(struct lx_preflight *p);
/* Add a reason (takes message and fix); the verdict is the worst one. */
void lx_preflight_add(struct lx_preflight *p, enum lx_verdict verdict, char *message, char *fix);
/* The include style's file (lxgpu/incfile.h) at the next start (nb NULL)
 * or the first start after a reboot into nb: missing or stale now, and
 * whether lxgpu ensure-nodes rewrites it at boot. nodes as for
 * lx_verify_include. Adds to out. */
void lx_preflight_include(const struct lx_host *host, const struct lx_node_plan *nodes,
			  const char *id, const struct lx_conf *conf, const char *state_dir,
			  const struct lx_next_boot *nb, struct lx_preflight *out);

/* The next start against the host as it is now. driver_versions: versions
 * of the container's driver libraries when known, else NULL. */
/* aopts: how to compute its effective access (LXC's includes); NULL: defaults. */
void lx_preflight_next_start(const struct lx_host *host, const struct lx_container_config *cc,
			     const struct lx_strv *driver_versions,
			     const struct lx_access_options *aopts, struct lx_preflight *out);
/* The first start after a host reboot into nb. */
void lx_preflight_next_boot(const struct lx_host *host, const struct lx_container_config *cc,
			    const struct lx_strv *driver_versions, const struct lx_next_boot *nb,
			    struct lx_preflight *out);

/* ---- preflight of a host's containers ---- */

/* One container, judged. Valid only during the callback. */
struct lx_preflight_container {
	const char *id;
	const char *path; /* its config */
	const struct lx_preflight *preflight; /* NULL when its config could not be read */
	struct lx_error *error; /* then why (the callback may clear it); else NULL */
};

struct lx_preflight_options {
	/* To find the container and its root; lxc_config_dir: LXC's includes. */
	const struct lx_runtime_paths *runtime;
	const char *state_dir; /* lxgpu's include files and records */
	const struct lx_node_plan *nodes; /* as for lx_verify_include */
	/* NULL: the next start on the host as it is now; else the first start
	 * after a reboot into it. */
	const struct lx_next_boot *next_boot;
	/* lx_preflight_walk: each container as it is done, in the walk's order. */
	void (*container)(void *ctx, const struct lx_preflight_container *c);
	void *ctx;
};

/* The preflight of one container (config at path): the lines against the
 * host (lx_preflight_next_start or _next_boot, with the versions of its
 * driver libraries when its root can be reached), then its include file
 * (lx_preflight_include). -1 when the config cannot be read. */
int lx_preflight_container(const struct lx_host *host, const char *id, const char *path,
			   bool is_pve, const struct lx_preflight_options *o,
			   struct lx_preflight *out, struct lx_error *err);
/* Every GPU container of the host (lx_containers_each over <pve_dir>/lxc
 * and lxc_path; one with neither GPU lines nor an lxgpu include file is
 * left out), handed to o->container one at a time. */
void lx_preflight_walk(const struct lx_host *host, const char *pve_dir, const char *lxc_path,
		       const struct lx_preflight_options *o);

#endif
