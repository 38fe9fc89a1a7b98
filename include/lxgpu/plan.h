/* plan: the desired device state of one container, from the host model, a
 * GPU selection and options. Render, apply, verify and CDI all derive from
 * the plan; none of them looks at the host model on its own. */
#ifndef LXGPU_PLAN_H
#define LXGPU_PLAN_H

#include "lxgpu/config.h"
#include "lxgpu/host.h"

/* How a node is granted (bits). */
enum lx_grant {
	LX_GRANT_DEVN = 1u << 0,   /* a devN entry: PVE makes the node and the rule */
	LX_GRANT_CGROUP = 1u << 1, /* a devices.allow rule */
	LX_GRANT_BIND = 1u << 2,   /* a bind mount of the host node */
	LX_GRANT_CDI = 1u << 3,    /* a CDI deviceNode */
};

enum lx_node_role {
	LX_ROLE_GPU,       /* /dev/nvidiaN */
	LX_ROLE_CONTROL,   /* /dev/nvidiactl */
	LX_ROLE_UVM,       /* /dev/nvidia-uvm */
	LX_ROLE_UVM_TOOLS, /* /dev/nvidia-uvm-tools */
	LX_ROLE_MODESET,   /* /dev/nvidia-modeset */
	LX_ROLE_CAP,       /* /dev/nvidia-caps/nvidia-capN */
	LX_ROLE_DRI_CARD,  /* /dev/dri/cardN */
	LX_ROLE_DRI_RENDER, /* /dev/dri/renderDN */
	LX_ROLE_KFD        /* /dev/kfd: AMD's compute node, one for every amdgpu GPU */
};

struct lx_plan_node {
	char *path;
	enum lx_node_role role;
	int gpu;          /* index into host->gpus; -1 for nodes every GPU shares */
	bool present;     /* the host has the node now */
	bool major_known; /* major/minor are valid (from the node, or /proc/devices) */
	unsigned major;
	unsigned minor;
	const char *major_name; /* "nvidia", "nvidia-uvm", "drm", ... */
	bool dynamic_major;     /* allocated at module load: may change at any reboot */
	unsigned grant;         /* enum lx_grant bits */
	unsigned mode;          /* in the container */
	unsigned uid;
	unsigned gid;
	bool uid_set; /* uid/gid given explicitly (devn, cdi) */
	bool gid_set;
	int dev_index; /* devN index, -1 unless devn */
	/* A MIG instance's capability node: its GPU instance ID and compute
	 * instance ID (ci -1 for the GI's own access node); -1 otherwise. */
	int mig_gi, mig_ci;
};

/* One MIG instance a selection names ("0:gi1/ci0"). */
struct lx_mig_sel {
	size_t gpu; /* index into host->gpus: the parent GPU */
	int gi, ci; /* GPU instance ID, compute instance ID (nvidia-smi's) */
};

struct lx_plan_options {
	/* "all" (NULL too), "0,2", a bdf, "GPU-<uuid>", "numa:1", a MIG
	 * instance "0:gi1/ci0" (any GPU selector before ":gi") */
	const char *gpus;
	enum lx_style style;
	bool unprivileged;
	bool caps; /* MIG capability nodes of the selected GPUs */
	bool mig_config;  /* /dev/nvidia-caps node of mig/config (create/destroy instances) */
	bool mig_monitor; /* /dev/nvidia-caps node of mig/monitor (see every instance) */
	bool dri;  /* DRM card/render nodes of the selected GPUs */
	int dev_start;       /* devN numbering starts here ... */
	bool dev_taken[256]; /* ... and skips the indexes other devices use */
	int mode;           /* -1: the style's default */
	long long uid, gid; /* -1: not set */
	/* mode, uid and gid are the container's NVIDIA devN lines' (apply keeps
	 * what they agree on), not the command line's: DRM nodes and kfd still
	 * get the container's render/video group. */
	bool modes_inherited;
	enum lx_cgroup_layout cgroup; /* LX_CGROUP_UNKNOWN: the host's */
	/* The container's own render and video groups (its /etc/group), for
	 * the devN/cdi gid of a DRM GPU's nodes (render: renderD* and kfd,
	 * video: cardN); -1: unknown (then the nodes are made 0666). */
	long long render_gid, video_gid;
	const char *groups_why; /* why they are unknown (NULL: no container named) */
};

struct lx_plan {
	enum lx_style style;
	bool unprivileged;
	enum lx_cgroup_layout cgroup_keys; /* LX_CGROUP_V1 or LX_CGROUP_V2 */
	size_t *gpus;                      /* selected GPU indices, ascending */
	size_t n_gpus;
	struct lx_mig_sel *migs; /* MIG instances selected; their parents are in gpus */
	size_t n_migs;
	struct lx_plan_node *nodes;
	size_t n_nodes;
	struct lx_host_warnings warnings; /* problems the user must know about, with fixes */
};

void lx_plan_options_default(struct lx_plan_options *opts);
/* Resolve a --gpus selection to GPU indices. A GPU that does not exist, or
 * that no container can use (lx_gpu_usable: nvidia, or a DRM GPU driver),
 * is an error naming it and listing what exists. "all" is every GPU bound
 * to nvidia; on a host without any, every DRM GPU. */
int lx_select_gpus(const struct lx_host *host, const char *spec, size_t **out, size_t *n,
		   struct lx_error *err);
/* The same selection with its MIG instances: gpus gets every GPU (a MIG
 * instance's parent too), migs the instances. An instance the host does not
 * have, or a GPU selected both whole and by instance, is an error. */
int lx_select_with_mig(const struct lx_host *host, const char *spec, size_t **gpus,
		       size_t *n_gpus, struct lx_mig_sel **migs, size_t *n_migs,
		       struct lx_error *err);
/* The GPU is selected only through MIG instances. */
bool lx_plan_gpu_is_mig_only(const struct lx_plan *plan, size_t gpu);
int lx_plan_build(const struct lx_host *host, const struct lx_plan_options *opts,
		  struct lx_plan *plan, struct lx_error *err);
void lx_plan_free(struct lx_plan *plan);

const char *lx_node_role_name(enum lx_node_role role);
/* The cgroup key for the plan: lxc.cgroup.devices.allow or lxc.cgroup2.devices.allow. */
const char *lx_plan_cgroup_key(const struct lx_plan *plan);

#endif
