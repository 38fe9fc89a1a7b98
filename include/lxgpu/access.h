/* access: what a container gets at its next start (effective access).
 *
 * Computed from the container's config and the host model by simulating
 * what pve-container (PVE::LXC::update_lxc_config, the prestart hook) and
 * LXC (confile.c, cgroups/cgfsng.c, cgroup2_devices.c) do with the file:
 * PVE's includes and devN entries, the raw lxc.* lines in their order, the
 * device cgroup rules with LXC's semantics on the host's cgroup version,
 * bind mounts, and the id mapping. Nothing here judges a line on its own:
 * verify and apply ask this model what the container will really get. */
#ifndef LXGPU_ACCESS_H
#define LXGPU_ACCESS_H

#include "lxgpu/config.h"
#include "lxgpu/host.h"

enum lx_acc {
	LX_ACC_READ = 1u << 0,
	LX_ACC_WRITE = 1u << 1,
	LX_ACC_MKNOD = 1u << 2,
};

/* One device cgroup rule, as LXC and the kernel parse it. */
struct lx_dev_rule {
	bool allow;       /* devices.allow (else devices.deny) */
	bool all;         /* the value "a": resets the list */
	char type;        /* 'a', 'b', 'c' */
	long long major;  /* -1: '*' */
	long long minor;  /* -1: '*' */
	unsigned access;  /* enum lx_acc bits */
	char access_text[4]; /* as written ("rw"): LXC compares rules by it */
};
/* Parse a devices.allow/deny value ("c 195:* rwm", "a"): LXC's parser for
 * cgroup2 and the kernel's for v1 accept the same text. False when LXC or
 * the kernel would refuse it (the start then fails). */
bool lx_dev_rule_parse(const char *value, bool allow, struct lx_dev_rule *out);

/* A device cgroup as the container gets it at start. */
struct lx_dev_cgroup {
	enum lx_cgroup_layout version; /* LX_CGROUP_V1 (also hybrid) or LX_CGROUP_V2 */
	/* v2 (LXC's BPF program): rules newest first, as LXC lists them */
	bool v2_block_all;  /* the list type: deny what no rule allows */
	struct lx_dev_rule *rules;
	size_t n_rules;
	/* v1 (the kernel's device controller): exceptions to the default */
	bool v1_default_allow;
};
void lx_dev_cgroup_init(struct lx_dev_cgroup *cg, enum lx_cgroup_layout version);
/* Apply one rule in order, as LXC (v2) or the kernel (v1) does. */
void lx_dev_cgroup_add(struct lx_dev_cgroup *cg, const struct lx_dev_rule *rule);
/* Whether open()/mknod() of type major:minor with every bit of `access`
 * passes the device cgroup. */
bool lx_dev_cgroup_allows(const struct lx_dev_cgroup *cg, char type, unsigned major,
			  unsigned minor, unsigned access);
void lx_dev_cgroup_free(struct lx_dev_cgroup *cg);

/* Why a config line's device rule does what it does. */
enum lx_rule_fate {
	LX_RULE_APPLIED,      /* part of the device cgroup at start */
	LX_RULE_WRONG_VERSION, /* a key of the other cgroup version: LXC ignores it */
	LX_RULE_CLEARED,      /* removed by a later empty value (userns.conf) */
	LX_RULE_RESET,        /* dropped by a later "a" rule */
	LX_RULE_INVALID,      /* LXC or the kernel refuses it (v2: LXC logs an
			       * error and leaves it out; v1: the start fails) */
};

struct lx_access_rule {
	const char *file;  /* the config, or the include it came from */
	int line;          /* 1-based in that file; 0 for PVE's generated lines */
	bool from_config;  /* a line of the container's config */
	const char *key;   /* lxc.cgroup[2].devices.allow|deny (static) */
	char *value;
	struct lx_dev_rule rule; /* valid unless INVALID */
	bool unknown_device;     /* PVE's rule for a devN lxgpu cannot stat */
	enum lx_rule_fate fate;
};

enum lx_grant_via {
	LX_VIA_BIND, /* lxc.mount.entry bind of a host node or directory */
	LX_VIA_DEVN, /* a PVE devN entry: PVE makes the node at start */
	LX_VIA_AUTODEV, /* LXC's own /dev (lxc.autodev): null, zero, tty, ... */
	LX_VIA_NVHOOK, /* NVIDIA's LXC hook (hooks/nvidia) bind-mounts it at start */
};

/* A device node the container can reach at its next start. */
struct lx_access_node {
	char *path;      /* inside the container: "/dev/nvidia0" */
	char *host_path; /* the host node it is (symlinks resolved) */
	enum lx_grant_via via;
	int line;        /* the config line that grants it */
	char type;       /* 'c' or 'b' */
	unsigned major;
	unsigned minor;
	bool read;       /* the device cgroup lets open() read it */
	bool write;      /* ... write it */
	bool read_write; /* ... open it O_RDWR (one rule must cover both) */
	unsigned mode;   /* permission bits inside */
	long long uid;   /* as seen inside; -1: unmapped (shows as nobody) */
	long long gid;   /* -1: unmapped (nogroup) */
};

/* A reason the container will not start. */
struct lx_start_failure {
	const char *file;
	int line;
	char *path;    /* the device or mount source, may be NULL */
	char *message; /* as PVE or LXC would say it */
	char *fix;     /* what makes it start, when more than the line (may be NULL) */
	bool exists_inside; /* a devN path a mount already filled ("File exists") */
};

struct lx_idmap_range {
	char kind; /* 'u' or 'g' */
	unsigned long long ns_id, host_id, count;
	const char *file; /* the config line of the map (PVE's default: "(pve-container)", 0) */
	int line;
};

/* ---- NVIDIA's LXC hook (src/access/nvhook.c, docs/nvidia-hook.md) ----
 *
 * LXC's hooks/nvidia, run as lxc.hook.mount, reads NVIDIA_VISIBLE_DEVICES
 * and NVIDIA_DRIVER_CAPABILITIES from the environment lxc.environment gives
 * hooks and runs "nvidia-container-cli --user configure --no-cgroups":
 * libnvidia-container bind-mounts the selected GPUs' nodes, nvidiactl, the
 * uvm nodes (compute), nvidia-modeset (display) and the driver files of the
 * selected capabilities. It writes no device rule. */
enum lx_nvcap {
	LX_NVCAP_COMPUTE = 1u << 0,
	LX_NVCAP_COMPAT32 = 1u << 1,
	LX_NVCAP_DISPLAY = 1u << 2,
	LX_NVCAP_GRAPHICS = 1u << 3,
	LX_NVCAP_UTILITY = 1u << 4,
	LX_NVCAP_VIDEO = 1u << 5,
};

/* Why the hook fails the start, or gives less than asked. */
enum lx_nvhook_problem {
	LX_NVHOOK_NO_SCRIPT,      /* the hook's script is not on the host: the start fails */
	LX_NVHOOK_NO_CLI,         /* nvidia-container-cli is not on the host: the hook exits 1 */
	LX_NVHOOK_NOT_MOUNT,      /* run as another hook type: the hook exits 1 */
	LX_NVHOOK_PRIVILEGED,     /* no user namespace (or host root mapped): the hook exits 1 */
	LX_NVHOOK_BAD_CAPABILITY, /* a capability the hook does not know: it exits 1 */
	LX_NVHOOK_NO_SUCH_GPU,    /* nvidia-container-cli: "unknown device": the start fails */
	LX_NVHOOK_IDLE,           /* the variables make it exit 0 without giving anything */
	LX_NVHOOK_NO_COMPUTE,     /* it runs without "compute": no libcuda, no nvidia-uvm */
};

struct lx_nvhook_issue {
	enum lx_nvhook_problem kind;
	const char *file; /* the line it is about */
	int line;
	char *message;
};

/* One lxc.environment value as hooks see it (lxc.environment and
 * lxc.environment.hooks; lxc.environment.runtime reaches only init). */
struct lx_nvhook_env {
	char *name;
	char *value; /* NULL: "NAME" alone, inherited from lxc-start's environment */
	const char *file;
	int line;
	bool hooks; /* it reaches hooks */
};

struct lx_nvhook {
	bool present;     /* an lxc.hook.* line runs hooks/nvidia */
	const char *file; /* that line */
	int line;
	char *key;        /* "lxc.hook.mount" */
	char *script;     /* the script's path as written */
	struct lx_nvhook_env *env; /* every lxc.environment* value, in order */
	size_t n_env;
	/* what it does at the next start */
	bool runs;        /* it reaches nvidia-container-cli configure and succeeds */
	const char *visible; /* NVIDIA_VISIBLE_DEVICES as the hook sees it (NULL: unset) */
	unsigned caps;    /* enum lx_nvcap bits it passes */
	struct lx_strv gpus;  /* bdfs of the GPUs it selects */
	struct lx_strv instances; /* MIG instances it selects by UUID, known to the
				     model: CI capability names ("gpu0/mig/gi1/ci0") */
	bool mig;         /* it selects MIG devices the model cannot name: their caps
			     nodes are not modelled */
	struct lx_strv files; /* driver library and binary names the caps select ("libcuda.so") */
	struct lx_nvhook_issue *issues;
	size_t n_issues;
	bool fails;       /* an issue fails the start */
};

struct lx_access;
struct lx_access_options;
/* The simulation's part (access.c calls these): an lxc.hook* or
 * lxc.environment* line at its place in the order (false: another key);
 * then, after the mounts, what the hook does, with the host nodes it
 * bind-mounts appended to nodes. */
bool lx_nvhook_entry(struct lx_access *a, const char *key, const char *value, const char *file,
		     int line);
void lx_nvhook_resolve(const struct lx_host *host, const struct lx_access_options *opts,
		       struct lx_access *a, struct lx_strv *nodes);
void lx_nvhook_free(struct lx_nvhook *h);
/* The hook and environment lines read so far, into an empty to (the same
 * file names: the caller points them at its own copies). */
void lx_nvhook_copy_lines(struct lx_nvhook *to, const struct lx_nvhook *from);
/* Whether the live section's lines run NVIDIA's hook (no simulation). */
bool lx_conf_runs_nvhook(const struct lx_conf *conf);

struct lx_access {
	bool unprivileged;
	enum lx_cgroup_layout keys; /* the device keys LXC honours: V1 or V2 */
	struct lx_dev_cgroup cgroup;
	struct lx_access_rule *rules; /* every device rule LXC reads, in order */
	size_t n_rules;
	struct lx_access_node *nodes; /* sorted by path inside */
	size_t n_nodes;
	struct lx_idmap_range *idmap;
	size_t n_idmap;
	struct lx_start_failure *failures;
	size_t n_failures;
	struct lx_strv unknown_sources; /* bind sources the host model cannot judge */
	struct lx_strv placeholders;    /* empty files where a skipped optional mount
					 * with create=file made its mount point */
	struct lx_strv include_files;   /* the includes read (rules point at these names) */
	struct lx_nvhook nvhook;        /* NVIDIA's LXC hook, when the config runs it */
};

/* LXC's shared config files (those under lx_access_options.lxc_config_dir:
 * common.conf, userns.conf, their .d directories), each read once for a
 * run over many containers instead of once per container. Filled as the
 * simulation asks; the caller owns it and frees it at the end of the run,
 * so a file changed meanwhile is seen by the next run. It also keeps what
 * a PVE container's start has after those files (the rules, mounts and id
 * map they leave), simulated once per ostype and privilege: each
 * container's simulation starts from a copy of it. */
struct lx_lxc_file;
struct lx_lxc_prefix;
struct lx_lxc_files {
	struct lx_lxc_file **items; /* each its own allocation: never moves */
	size_t n;
	struct lx_lxc_prefix **prefixes;
	size_t n_prefixes;
};
void lx_lxc_files_free(struct lx_lxc_files *c);

struct lx_access_options {
	const char *lxc_config_dir; /* LXC's includes: /usr/share/lxc/config */
	/* Where files under lxc_config_dir are kept once read; NULL: read
	 * them again for every container. */
	struct lx_lxc_files *shared;
	enum lx_cgroup_layout cgroup; /* LX_CGROUP_UNKNOWN: the host's */
	/* An include read as if it held this text (apply judges an include
	 * file it has not written yet); NULL: none. */
	const char *include_path;
	const char *include_text;
	/* Where the host's shadow id files and tools are: ROOT/etc/subuid,
	 * ROOT/etc/subgid and newuidmap/newgidmap in ROOT's /usr/local/sbin,
	 * /usr/local/bin, /usr/sbin, /usr/bin, /sbin or /bin. When both tools
	 * are there and privileged (setuid, or file capabilities: LXC checks)
	 * LXC maps the ids with them (as root too, as on every
	 * Proxmox host), and they allow root only the ranges the files give
	 * "root" (or "0") plus its own id 0: a map outside them is a start
	 * failure whose fix names the line to add. NULL (the default): not
	 * checked (a snapshot of another host). */
	const char *subid_root;
	/* Where the host's NVIDIA hook script and nvidia-container-cli are
	 * looked for (the same root: the live host's "/"); NULL: not checked. */
	const char *tools_root;
	/* Leave out the nodes NVIDIA's hook would mount: what the config's
	 * own lines give (apply writes lines that give the GPUs by themselves;
	 * the hook's nodes depend on nvidia-container-cli at every start). */
	bool without_nvhook_nodes;
};
void lx_access_options_default(struct lx_access_options *opts);

/* Simulate the next start of the container whose config is conf (the live
 * section). is_pve: a PVE .conf (PVE's includes, devN, raw lines last);
 * else a plain LXC config read as LXC reads it. */
int lx_access_compute(const struct lx_host *host, const struct lx_conf *conf, bool is_pve,
		      const struct lx_access_options *opts, struct lx_access *out,
		      struct lx_error *err);
void lx_access_free(struct lx_access *a);

const struct lx_access_node *lx_access_find(const struct lx_access *a, const char *path);
/* Whether users of the container other than root can open the node rw. */
bool lx_access_node_usable(const struct lx_access_node *n);
/* The id a devN entry's uid= or gid= (kind 'u' or 'g') shows as inside:
 * PVE maps it to the host through the container's idmap (an id outside
 * every range stays itself) and the container sees that host id through
 * its idmap again; -1 (nobody/nogroup) when the map leaves it out. */
long long lx_access_devn_id_inside(const struct lx_access *a, char kind, long long id);

const char *lx_rule_fate_name(enum lx_rule_fate f);

/* What a container has now (apply's defaults, verify's GPUs of the
 * container): the GPUs whose /dev/nvidiaN it reaches or a line names (a
 * broken setup still says which GPU it meant), and how it is set up. */
struct lx_current {
	/* "0,2": host GPU indexes; NULL: none. A GPU reached with the GI and
	 * CI caps nodes of some of its MIG instances (not all of them) is
	 * named by those instances instead: "0:gi1/ci0,2". */
	char *gpus;
	struct lx_strv bdfs; /* the same GPUs' PCI addresses */
	/* The MIG instances whose GI and CI caps nodes it reaches, as
	 * "GPU-INDEX:giX/ciY", whether or not they exist now (the driver's
	 * table of minors says which instance a minor is). */
	struct lx_strv migs;
	bool dri;            /* it reaches DRM nodes */
	bool caps;           /* it reaches /dev/nvidia-caps nodes no selected instance explains */
	bool mig_config;     /* it reaches mig/config's caps node */
	bool mig_monitor;    /* it reaches mig/monitor's caps node */
	bool devn;           /* NVIDIA nodes given as devN entries */
	bool raw;            /* NVIDIA nodes given as lxc.mount.entry lines */
};
void lx_access_current(const struct lx_host *host, const struct lx_conf *conf,
		       const struct lx_access *a, struct lx_current *out);
void lx_current_free(struct lx_current *c);
/* The GPU nodes the access gives (lx_gpu_owned_path of the host node), each
 * host node once whatever path and how many paths it has inside: their host
 * paths, appended to host_paths. What apply must not lose, what verify counts. */
struct lx_gpu_owned;
void lx_access_gpu_nodes(const struct lx_gpu_owned *owned, const struct lx_access *a,
			 struct lx_strv *host_paths);

struct lx_doc;
/* The access as a document ("access" in verify's JSON/YAML: nodes, start
 * failures, device rules with what became of them). */
struct lx_doc *lx_access_to_doc(const struct lx_access *a);

/* ---- the lines lxgpu owns (src/access/owned.c) ----
 *
 * lxgpu cannot mark its lines with comments (PVE moves every "#" line to
 * the top when it rewrites a config), so ownership is by meaning, and it is
 * ONE rule: apply takes out only lines it owns (and of those only the ones
 * its plan does not want), rollback puts back exactly the owned lines of
 * the backup, the guard and verify find a container's GPU lines by it.
 * Whatever apply removes, rollback can therefore restore.
 *
 * Owned: devN entries and mount entries of /dev/nvidia... and of the GPUs'
 * DRM nodes; lxgpu's include line; character-device allow rules for a
 * major NVIDIA's drivers hold: 195 (nvidia, nvidiactl, nvidia-modeset: a
 * fixed major, NVIDIA's even while the module is not loaded) and every
 * major /proc/devices lists under an NVIDIA name now (nvidia-uvm,
 * nvidia-caps, nvidia-nvswitch, nvidia-nvlink, nvidia-frontend, ...), and
 * kfd's beside an amdgpu GPU; and rules for the GPUs' DRM minors. A rule
 * for a major no device has now is NOT owned: a dynamic major is NVIDIA's
 * only while /proc/devices says so, and without that it may as well be a
 * Coral TPU's (apex, 500) or the major nvidia-uvm gets once it loads. The
 * DRM nodes are every GPU's (NVIDIA's, an Intel iGPU's, an AMD card's):
 * their devN entries and mounts, by name or by-path link, a mount of
 * /dev/dri whole, /dev/kfd beside an amdgpu GPU, and allow rules of their
 * minors; "c 226:* rwm" stays the user's (it is not one GPU's). */
struct lx_gpu_owned {
	unsigned *majors; /* 195 and the host's NVIDIA majors now */
	size_t n_majors;
	unsigned drm_major; /* 226; 0 when unknown */
	unsigned *drm_minors; /* the NVIDIA GPUs' DRM minors */
	size_t n_drm_minors;
	struct lx_strv drm_paths; /* "/dev/dri", "/dev/dri/card1", "/dev/dri/by-path/pci-...-render",
				     "/dev/kfd" */
	/* "<state-dir>/lxc/": an lxc.include of a file there is the include
	 * style's line (lxgpu/incfile.h); NULL: not known here */
	char *include_dir;
};
/* The ownership of this host: its NVIDIA majors (195 always) and its
 * NVIDIA GPUs' DRM nodes. include_dir is left NULL (the caller knows the
 * state directory). */
void lx_gpu_owned_from_host(const struct lx_host *host, struct lx_gpu_owned *out);
void lx_gpu_owned_free(struct lx_gpu_owned *owned);
/* Whether a device path is a GPU's (the paths of the rule above: /dev/nvidia*,
 * a GPU's DRM node or its by-path link, /dev/dri whole, /dev/kfd). */
bool lx_gpu_owned_path(const struct lx_gpu_owned *owned, const char *path);
/* Whether a line of the live section is one lxgpu owns (the rule above). */
bool lx_gpu_owned_line(const struct lx_gpu_owned *owned, const struct lx_conf_line *line);
/* Whether the live section has a line lxgpu owns. */
bool lx_gpu_owned_any(const struct lx_gpu_owned *owned, const struct lx_conf *conf);
/* Whether a line is a character-device allow rule of the live section
 * for a major no device of the host has now (a dynamic major missing from
 * /proc/devices), and *major that major: apply keeps such a rule, as it is
 * not known to be NVIDIA's, and says so. */
bool lx_gpu_unknown_major_rule(const struct lx_host *host, const struct lx_conf_line *line,
			       unsigned *major);

struct lx_conf_rewrite {
	const struct lx_strv *gpu_lines; /* the new GPU lines, without line ends */
	int unprivileged;                /* -1 leave; 0 remove the key; 1 set "unprivileged: 1" */
};

/* The config with its owned lines replaced: new lines go where the first
 * old owned line was (else after the live section's last line); every other
 * line keeps its bytes and its place; sections after the live one are
 * untouched. *removed counts the owned lines taken out. */
char *lx_conf_rewrite(const struct lx_conf *conf, const struct lx_gpu_owned *owned,
		      const struct lx_conf_rewrite *rw, size_t *len, size_t *removed);

/* ---- rollback: undo one change of lxgpu's, and only it (src/access/rollback.c) ---- */

struct lx_rollback {
	char *text; /* the config after the rollback */
	size_t len;
	size_t removed;  /* GPU lines of today's config taken out */
	size_t restored; /* GPU lines of the backup put back */
	/* When refused because the GPU lines changed since lxgpu wrote them: a
	 * unified diff from those lines to today's; else NULL. */
	char *gpu_diff;
};

/* Undo the change a backup records: today's owned lines (lx_gpu_owned_line)
 * are replaced by the backup's (lx_conf_rewrite), and every other line,
 * snapshot and [pve:pending] section stays as it is today; an "unprivileged"
 * key lxgpu changed is put back too, unless it was edited since. When the
 * file is still exactly as lxgpu wrote it, the result is the backup's very
 * bytes. before: the backup's config; written: what lxgpu wrote (NULL when
 * the backup does not record it). Refused (-1, err says why) when today's
 * GPU lines differ from the ones lxgpu wrote (rb->gpu_diff shows how), or
 * when written is NULL; force rolls back anyway. */
int lx_conf_rollback(const struct lx_conf *today, const char *backup_name, const char *before,
		     size_t before_len, const char *written, size_t written_len,
		     const struct lx_gpu_owned *owned, bool force, struct lx_rollback *rb,
		     struct lx_error *err);
void lx_rollback_free(struct lx_rollback *rb);
/* The include file's part of a rollback whose backup recorded it
 * (meta->include_path): *restore is the text it goes back to (NULL: it is
 * removed, as there was none). today: its text now (NULL: missing).
 * Refused (-1) when today's text is not what lxgpu wrote (ensure-nodes
 * renumbered it at a boot since, or someone edited it) unless force. */
int lx_rollback_include(const struct lx_backup_meta *meta, const char *today, bool force,
			const char **restore, struct lx_error *err);

#endif
