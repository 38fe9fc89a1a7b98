/* host: everything lxgpu knows about a host, as plain data.
 *
 * The model is filled by the live scanner (lx_host_scan) or loaded from a
 * snapshot (lx_snapshot_load); nothing downstream knows which. The parsers
 * of the /proc files the scanner reads are public so they can be tested on
 * their own. */
#ifndef LXGPU_HOST_H
#define LXGPU_HOST_H

#include "lxgpu/util.h"

#include <stdbool.h>
#include <stdint.h>

#define LX_NVIDIA_VENDOR_ID 0x10de
#define LX_INTEL_VENDOR_ID 0x8086
#define LX_AMD_VENDOR_ID 0x1002
#define LX_UNKNOWN (-1)

enum lx_cgroup_layout {
	LX_CGROUP_UNKNOWN,
	LX_CGROUP_V1,
	LX_CGROUP_V2,
	LX_CGROUP_HYBRID,
};

enum lx_driver_flavor {
	LX_FLAVOR_UNKNOWN, /* no driver loaded, or a version line we cannot read */
	LX_FLAVOR_OPEN,
	LX_FLAVOR_PROPRIETARY,
};

struct lx_drm_node {
	char *name;    /* "card1", "renderD128" */
	char *by_path; /* "pci-0000:01:00.0-card", or NULL when the link is absent */
};

/* One line of a PCI function's sysfs `resource` file: a BAR as the kernel
 * assigned it (0..5 standard BARs). A 64-bit BAR takes two slots; the upper
 * one reads as zeros. */
struct lx_pci_bar {
	unsigned index;
	uint64_t start, end, flags; /* flags: the kernel's IORESOURCE_* bits */
};
#define LX_IORESOURCE_IO 0x00000100ULL
#define LX_IORESOURCE_MEM 0x00000200ULL
#define LX_IORESOURCE_PREFETCH 0x00002000ULL
#define LX_IORESOURCE_MEM_64 0x00100000ULL
#define LX_IORESOURCE_DISABLED 0x10000000ULL
#define LX_IORESOURCE_UNSET 0x20000000ULL

/* The default domain type of a GPU's IOMMU group
 * (/sys/kernel/iommu_groups/N/type, kernel 5.11+). */
enum lx_iommu_type {
	LX_IOMMU_UNKNOWN,   /* a group without a readable type (older kernel, old snapshot) */
	LX_IOMMU_NONE,      /* no IOMMU group: the IOMMU is off or absent */
	LX_IOMMU_IDENTITY,  /* passthrough (iommu=pt): bus addresses untranslated */
	LX_IOMMU_DMA,       /* translated, strict invalidation */
	LX_IOMMU_DMA_FQ,    /* translated, lazy (flush queue) invalidation */
	LX_IOMMU_UNMANAGED, /* owned by a user such as VFIO */
	LX_IOMMU_BLOCKED,
};

/* What a bridge's config space says about ACS (the PCIe extended
 * capability 0x000D). Config space past the first 64 bytes needs the
 * host's CAP_SYS_ADMIN (root in an unprivileged container reads 64 bytes):
 * then the state is unknown, never guessed. */
enum lx_acs_state {
	LX_ACS_UNKNOWN, /* config space not readable past 64 bytes (or 256: no extended space seen) */
	LX_ACS_ABSENT,  /* the extended capability list has no ACS */
	LX_ACS_PRESENT, /* capability and control registers below */
};
#define LX_PCI_EXT_CAP_ID_ACS 0x000d
/* ACS capability/control bits (PCIe Base spec, ACS Extended Capability). */
#define LX_ACS_SV 0x0001 /* Source Validation */
#define LX_ACS_TB 0x0002 /* Translation Blocking */
#define LX_ACS_RR 0x0004 /* P2P Request Redirect */
#define LX_ACS_CR 0x0008 /* P2P Completion Redirect */
#define LX_ACS_UF 0x0010 /* Upstream Forwarding */
#define LX_ACS_EC 0x0020 /* P2P Egress Control */
#define LX_ACS_DT 0x0040 /* Direct Translated P2P */

/* A PCI bridge above some GPU (a root port, a switch port). */
struct lx_pci_bridge {
	char *bdf;
	enum lx_acs_state acs;
	uint16_t acs_cap;  /* the ACS Capability register, when present */
	uint16_t acs_ctrl; /* the ACS Control register, when present */
};

struct lx_gpu {
	char *bdf;         /* "0000:41:00.0": sysfs spelling, domain as 4+ hex digits */
	uint16_t vendor_id;
	uint16_t device_id;
	uint32_t class_code; /* 0x030000 VGA, 0x030200 3D controller */
	char *model;       /* the driver's "Model:", NULL when unknown */
	char *uuid;        /* "GPU-...", NULL when unknown */
	char *vbios;       /* "Video BIOS:", NULL when unknown */
	int minor;         /* /dev/nvidiaN; LX_UNKNOWN when the driver did not say */
	char *driver;      /* bound kernel driver: "nvidia", "vfio-pci", "nouveau"; NULL = none */
	int numa_node;     /* LX_UNKNOWN on single-node hosts (-1 in sysfs) */
	int iommu_group;   /* LX_UNKNOWN when the IOMMU is off */
	enum lx_iommu_type iommu_type;
	struct lx_strv pcie_path; /* PCI bridges above the GPU, root port first */
	/* BARs 0..5 from sysfs `resource`; bars_known false when it could not
	 * be read (or an older snapshot lacks it). */
	struct lx_pci_bar *bars;
	size_t n_bars;
	bool bars_known;
	struct lx_drm_node *drm;
	size_t n_drm;
};

enum lx_node_type {
	LX_NODE_CHAR,
	LX_NODE_BLOCK,
	LX_NODE_OTHER, /* a regular file or anything else where a node should be */
};

struct lx_dev_node {
	char *path; /* absolute: "/dev/nvidia0" */
	enum lx_node_type type;
	unsigned major;
	unsigned minor;
	unsigned mode; /* permission bits only, e.g. 0666 */
	unsigned uid;
	unsigned gid;
};

struct lx_major {
	char *name; /* as in /proc/devices: "nvidia", "nvidia-uvm", "drm", ... */
	unsigned number;
};

/* A capability from /proc/driver/nvidia/capabilities (MIG instances,
 * mig config/monitor, fabric-imex-mgmt): its /dev/nvidia-caps/nvidia-capN minor. */
struct lx_capability {
	char *name; /* "gpu0/mig/gi1/ci0", "mig/config" */
	unsigned minor;
};

/* What a MIG capability name says (src/host/mig.c). The driver names GPUs
 * by their /dev/nvidiaN minor ("gpu%u" from nv_get_dev_minor), GPU
 * instances by their GI ID, compute instances by their CI ID: the IDs
 * nvidia-smi prints. */
struct lx_host;
enum lx_mig_kind {
	LX_MIG_NONE,    /* not a MIG capability (fabric-imex-mgmt, ...) */
	LX_MIG_CONFIG,  /* mig/config: create and destroy instances */
	LX_MIG_MONITOR, /* mig/monitor: see every instance */
	LX_MIG_GI,      /* gpuN/mig/giX: a GPU instance's access */
	LX_MIG_CI,      /* gpuN/mig/giX/ciY: a compute instance's access */
};
struct lx_mig_ref {
	enum lx_mig_kind kind;
	int gpu_minor, gi, ci; /* -1 where the kind has none */
};
/* Split a capability name; LX_MIG_NONE for anything else. */
struct lx_mig_ref lx_mig_ref_of_name(const char *name);
/* The capability name of a reference ("gpu0/mig/gi1/ci0"); NULL for LX_MIG_NONE. */
char *lx_mig_ref_name(const struct lx_mig_ref *ref);
/* Parse mig-minors text ("config 1", "gpu0/gi1/ci0/access 13"; nv-caps.c's
 * nv_procfs_read_mig_minors) into entries named as capabilities, keeping
 * config, monitor and the GPUs whose minor keep_gpu says (every GPU when
 * keep_gpu is NULL). A line that is not one of those shapes is an error
 * naming the line. */
int lx_parse_mig_minors(const char *text, const struct lx_host *keep_gpus,
			struct lx_capability **out, size_t *n, struct lx_error *err);
/* The present capability of this name / with this minor; NULL when none. */
const struct lx_capability *lx_host_find_cap(const struct lx_host *host, const char *name);
const struct lx_capability *lx_host_cap_by_minor(const struct lx_host *host, unsigned minor);
/* What an nvidia-caps minor means: the present capabilities first, then the
 * driver's table of every possible minor. LX_MIG_NONE when neither knows it. */
struct lx_mig_ref lx_host_mig_of_minor(const struct lx_host *host, unsigned minor);
/* The minor the driver gives a MIG capability name, present or not: from
 * the present capabilities, else the mig-minors table; -1 when unknown. */
int lx_host_mig_minor_of(const struct lx_host *host, const char *name);
/* MIG mode as seen without NVML. The driver makes gpuN/mig/ for every GPU
 * whatever its mode (os.c osRmCapRegisterGpu), and exposes the mode itself
 * only through NVML: a GPU with a GPU instance is in MIG mode; one without
 * is either not in MIG mode or in it with no instance yet. */
enum lx_mig_state {
	LX_MIG_NO_INSTANCES, /* no GPU instance: MIG off, or on and empty (unknown which) */
	LX_MIG_ON,           /* GPU instances exist: MIG mode is on */
};
enum lx_mig_state lx_host_gpu_mig_state(const struct lx_host *host, size_t gpu_index);
/* The index of the GPU whose /dev/nvidiaN minor this is; -1 when none. */
int lx_host_gpu_by_minor(const struct lx_host *host, int minor);

/* A MIG device's UUID as NVML names it since R470 ("MIG-<uuid>", what
 * nvidia-smi -L prints) and the instance it names. The driver exposes MIG
 * UUIDs only through NVML: the scan records them from nvidia-smi's -L
 * (UUID by MIG device index under each GPU) and -q -x (GI and CI IDs by
 * the same index). */
struct lx_mig_uuid {
	char *uuid; /* "MIG-c6d4f1ef-42e4-5de3-91c7-45d71c87eb3f" */
	size_t gpu; /* index into host->gpus */
	int gi, ci;
};
/* qsort order of the table: by GPU, GI, CI. */
int lx_mig_uuid_compare(const void *a, const void *b);
/* "MIG-" and a canonical UUID (8-4-4-4-12 hex digits). */
bool lx_mig_uuid_is_canonical(const char *s);
/* Join nvidia-smi -L text and nvidia-smi -q -x XML into the host's MIG
 * UUIDs: each MIG device of a GPU whose UUID the host model has, named in
 * both outputs by one MIG device index. Lines and elements of other shapes
 * are skipped (the output is the tool's, not the user's); the old UUID
 * form (MIG-GPU-...) is not recorded: it names its instance itself. */
void lx_mig_uuids_from_nvsmi(const struct lx_host *host, const char *list_text,
			     const char *query_xml, struct lx_mig_uuid **out, size_t *n);
/* What a MIG UUID names, in either form: "MIG-GPU-<gpu uuid>/<gi>/<ci>"
 * (R450/R460, read directly: the parent by its UUID) or "MIG-<uuid>" (from
 * the recorded table). */
enum lx_mig_lookup {
	LX_MIG_FOUND,
	LX_MIG_MALFORMED,     /* neither form */
	LX_MIG_UNKNOWN_GPU,   /* old form: no GPU of the host has that UUID */
	LX_MIG_UNKNOWN_UUID,  /* new form: not in the recorded table */
};
enum lx_mig_lookup lx_host_mig_by_uuid(const struct lx_host *host, const char *uuid,
				       size_t *gpu, int *gi, int *ci);

/* A fact that can be unknown (a file not readable, an older snapshot). */
enum lx_tristate { LX_NO = 0, LX_YES = 1, LX_UNSURE = -1 };

struct lx_driver {
	char *version;       /* "590.48.01"; NULL when the nvidia module is not loaded */
	enum lx_driver_flavor flavor;
	struct lx_strv modules;  /* loaded nvidia modules, /proc/modules order */
	struct lx_strv firmware; /* /lib/firmware/nvidia/<version> dirs holding GSP firmware */
	bool persistenced;   /* nvidia-persistenced's socket exists */
	/* nvidia_uvm's uvm_disable_hmm parameter as the loaded module has it
	 * (/sys/module/nvidia_uvm/parameters/uvm_disable_hmm, "Y" or "N");
	 * LX_UNSURE when nvidia_uvm is not loaded or an older snapshot */
	enum lx_tristate uvm_disable_hmm;
};

/* The running kernel's build options the driver's features depend on,
 * from /boot/config-<release> or /proc/config.gz. nvidia_uvm builds its HMM
 * support only with both CONFIG_HMM_MIRROR and CONFIG_DEVICE_PRIVATE
 * (kernel-open/nvidia-uvm/uvm_linux.h, UVM_IS_CONFIG_HMM). */
struct lx_kernel_config {
	char *source; /* the file read; NULL: none was readable (all unknown) */
	enum lx_tristate hmm_mirror, device_private;
};

/* Firmware a DRM GPU driver (amdgpu, i915, xe) asked for and the kernel
 * log says it could not load, looked up now as the kernel's loader would
 * (src/host/firmware.c): what doctor needs to tell "still missing" from
 * "came after the driver loaded". Recorded in snapshots, so that doctor on
 * a snapshot answers as on the live host. */
struct lx_fw_request {
	char *name;   /* as the driver asked: "amdgpu/psp_13_0_8_toc.bin" */
	char *driver; /* "amdgpu", "i915", "xe" */
	char *gpu;    /* the PCI address the log names, sysfs spelling */
	int error;    /* the loader's error as logged (-2: not found); 0 when the message gives none */
	/* where the loader would take it now ("/lib/firmware/amdgpu/x.bin.zst"),
	 * NULL when nowhere */
	char *found;
	/* found only in a compressed form this kernel cannot read (its
	 * config lacks CONFIG_FW_LOADER_COMPRESS_ZSTD or _XZ): that form */
	char *unreadable;
};
struct lx_drm_checks {
	/* The checks ran (a live doctor or snapshot); false: an older
	 * snapshot, or a scan alone: nothing is known. */
	bool checked;
	struct lx_fw_request *requests; /* in log order, one per name */
	size_t n_requests;
	/* Vendor firmware directories ("amdgpu", "i915", "xe") of the drivers
	 * bound to the host's GPUs that no search directory has. */
	struct lx_strv missing_dirs;
	/* amdkfd: its topology directory exists (/sys/class/kfd/kfd/topology);
	 * the amdgpu GPUs it has no node for (no node whose domain and
	 * location_id are the GPU's address). */
	bool kfd_topology;
	struct lx_strv kfd_missing;
};

/* Who published a model to the cluster file system, and from which boot
 * (`lxgpu publish`); present only in published models. */
struct lx_publication {
	bool present;
	char *node;          /* the PVE node name it was published as */
	long long boot_time; /* the publisher's boot: /proc/stat btime (epoch s) */
	char *boot_id;       /* /proc/sys/kernel/random/boot_id; NULL when unknown */
	long long scanned_at; /* when the model was scanned (epoch s) */
};

/* How a container uses a GPU: through NVIDIA's nodes (/dev/nvidiaN,
 * nvidiactl, uvm), or through its DRM nodes alone (/dev/dri/cardN and
 * renderD*, and AMD's /dev/kfd): Intel's i915 and xe, AMD's amdgpu. */
enum lx_gpu_kind {
	LX_GPU_UNUSABLE, /* no driver, vfio-pci, nouveau, ...: no container can use it now */
	LX_GPU_NVIDIA,   /* bound to nvidia */
	LX_GPU_DRM,      /* bound to a DRM compute/media driver (lx_drm_gpu_driver) */
};

struct lx_host {
	char *hostname;
	char *kernel; /* running kernel release */
	/* The host's LXC, as `lxc-start --version` prints it ("6.0.4"); NULL:
	 * unknown (a snapshot without it). LXC 7.0 refuses every v1 cgroup key. */
	char *lxc_version;
	/* Proxmox's pve-container ("6.1.6"); NULL: not Proxmox, or unknown.
	 * 6.0.4 and later add a new devN to a running container (hotplug). */
	char *pve_container_version;
	struct lx_publication published;
	enum lx_cgroup_layout cgroup;
	struct lx_gpu *gpus; /* in lx_gpu_compare order; the index is the one `scan` prints */
	size_t n_gpus;
	struct lx_dev_node *nodes; /* sorted by path */
	size_t n_nodes;
	/* Every "Character devices:" entry of /proc/devices, in its order; a
	 * number may appear under several names (195 nvidia, 195 nvidiactl). */
	struct lx_major *majors;
	size_t n_majors;
	/* majors is the whole table (a live scan, a schema 2 snapshot). False
	 * for schema 1 snapshots, which kept only nvidia* and drm: a major not
	 * listed there is unknown, not free. */
	bool majors_complete;
	struct lx_capability *caps; /* sorted by name */
	size_t n_caps;
	/* Every MIG minor the driver can hand out, from
	 * /proc/driver/nvidia-caps/mig-minors, named as caps are ("mig/config",
	 * "gpu0/mig/gi1", "gpu0/mig/gi1/ci0"): config, monitor and the entries of
	 * the host's GPUs (the driver lists 32 GPUs whatever the host has).
	 * Sorted by minor; empty when the file is absent (an older snapshot). */
	struct lx_capability *mig_minors;
	size_t n_mig_minors;
	/* MIG UUIDs recorded from nvidia-smi (lx_mig_uuids_from_nvsmi), sorted
	 * by GPU, GI, CI; empty when the scan did not run it (no instance, no
	 * nvidia-smi, a stand-in --proc-dir) or an older snapshot. */
	struct lx_mig_uuid *mig_uuids;
	size_t n_mig_uuids;
	struct lx_driver driver;
	struct lx_kernel_config kernel_config;
	struct lx_drm_checks drm_checks;
	/* Every bridge on a GPU's pcie_path, sorted by bdf. */
	struct lx_pci_bridge *bridges;
	size_t n_bridges;
};

void lx_host_free(struct lx_host *host);

/* The major number of the host's LXC version (7 for "7.0.0"); -1: unknown. */
int lx_host_lxc_major(const struct lx_host *host);
/* Does the host's pve-container add a new devN entry to a running
 * container at once (`pct set`, pve-container 6.0.4+)? */
bool lx_host_pve_hotplugs_devn(const struct lx_host *host);

/* Lookups; NULL / LX_UNKNOWN when absent. */
const struct lx_gpu *lx_host_find_gpu_by_bdf(const struct lx_host *host, const char *bdf);
const struct lx_dev_node *lx_host_find_node(const struct lx_host *host, const char *path);
/* The GPU major: "nvidia", or "nvidia-frontend" before driver 550.40. */
int lx_host_gpu_major(const struct lx_host *host);
/* The number of the first entry with this name. */
int lx_host_major_by_name(const struct lx_host *host, const char *name);
/* The first name listed for a number; NULL when none (with majors_complete
 * false that means unknown, not unused). */
const char *lx_host_major_name(const struct lx_host *host, unsigned major);
/* Majors the kernel hands out at module load (alloc_chrdev_region: 234-254,
 * 384-511): they change between boots. Static majors (166 ttyACM, 188
 * ttyUSB) belong to their driver even when it is not loaded. */
bool lx_major_is_dynamic(unsigned major);
/* A character major that a config rule may name but that no device has now,
 * so the rule reaches nothing: a dynamic major missing from the host's
 * /proc/devices. Without the whole table (schema-1 snapshots) only a
 * dynamic major that is neither NVIDIA's nor DRM's counts. */
bool lx_host_major_is_stale(const struct lx_host *host, unsigned major);
/* The one "is this a GPU's node" test: N for "/dev/nvidiaN", else -1. */
int lx_gpu_node_minor(const char *path);
/* The index of the GPU whose /dev/nvidiaN a path is, or -1 (any other path,
 * a minor no GPU has). */
int lx_host_gpu_of_node(const struct lx_host *host, const char *path);
bool lx_host_has_module(const struct lx_host *host, const char *module);
const struct lx_pci_bridge *lx_host_find_bridge(const struct lx_host *host, const char *bdf);

/* ---- GPUs of any vendor ---- */

/* i915, xe, amdgpu: drivers whose GPUs containers use through DRM nodes. */
bool lx_drm_gpu_driver(const char *driver);
/* The one decision which PCI functions are GPUs of the model (the scanner's
 * and nothing else's): NVIDIA display controllers whatever their driver
 * (vfio-pci, none: still NVIDIA's GPUs), and display controllers of any
 * vendor bound to a DRM GPU driver that made DRM minors (has_drm: the
 * function has a drm/ child in sysfs). Not an NVIDIA GPU's audio function,
 * not a BMC's VGA (ast, mgag200). */
bool lx_pci_is_gpu(uint16_t vendor, uint32_t class_code, const char *driver, bool has_drm);
enum lx_gpu_kind lx_gpu_kind(const struct lx_gpu *g);
/* A container can be given it now (nvidia or a DRM GPU driver). */
bool lx_gpu_usable(const struct lx_gpu *g);
/* AMD's compute (ROCm) needs /dev/kfd beside the render node. */
bool lx_gpu_needs_kfd(const struct lx_gpu *g);
/* "NVIDIA", "Intel", "AMD", or "vendor 0x1234" (static buffer-free: a
 * fixed string, or NULL for others). */
const char *lx_gpu_vendor_name(const struct lx_gpu *g);
/* The model's GPU order: NVIDIA's first (so their indexes are nvidia-smi's
 * PCI bus order whatever iGPU the host has), then the others, each in PCI
 * address order. For qsort over struct lx_gpu. */
int lx_gpu_compare(const void *a, const void *b);
/* The host's /dev/kfd major ("kfd" in /proc/devices), LX_UNKNOWN. */
int lx_host_kfd_major(const struct lx_host *host);
/* The GPU a DRM path names: /dev/dri/cardN, /dev/dri/renderDN, or a
 * by-path link /dev/dri/by-path/pci-BDF-card|render (by its address, also
 * when the link itself is gone); -1 when none. The DRM half of "is this a
 * GPU's node" (lx_host_gpu_of_node is the NVIDIA half). */
int lx_host_gpu_of_drm_path(const struct lx_host *host, const char *path);
/* For a by-path path: the DRM node of the model it should name
 * ("/dev/dri/renderD128"), or NULL (no such GPU or kind). */
char *lx_host_by_path_target(const struct lx_host *host, const char *path);

/* ---- PCI facts (BARs, IOMMU, ACS) ---- */

/* BAR `index` of a GPU; NULL when the model has no such line. */
const struct lx_pci_bar *lx_gpu_bar(const struct lx_gpu *gpu, unsigned index);
/* The kernel gave the BAR an address: a memory or I/O resource, not marked
 * unset or disabled, with a non-zero start (a BAR the firmware could not
 * place reads as zeros, or as size-1 with IORESOURCE_UNSET). */
bool lx_pci_bar_assigned(const struct lx_pci_bar *bar);
/* end - start + 1; 0 for an all-zero line. */
uint64_t lx_pci_bar_size(const struct lx_pci_bar *bar);
const char *lx_iommu_type_name(enum lx_iommu_type t);
/* The kernel's spelling ("identity", "DMA", "DMA-FQ", "unmanaged",
 * "blocked") and lxgpu's "none"; false for anything else. */
bool lx_iommu_type_from_name(const char *name, enum lx_iommu_type *out);
/* The domain translates DMA addresses (DMA, DMA-FQ, unmanaged). */
bool lx_iommu_type_translates(enum lx_iommu_type t);
const char *lx_acs_state_name(enum lx_acs_state s);

/* The fix of a host without nvidia-uvm (its commands in backticks, as
 * lxgpu/report.h says): load it now, and at every boot. */
#define LX_FIX_LOAD_UVM                                                                        \
	"load nvidia-uvm and create its nodes: `nvidia-modprobe -u -c 0`; at every boot before " \
	"guests start, the unit this prints does it: `lxgpu preflight --print-boot-unit`"

/* Things worth telling the user about the host itself (not about a
 * container): uvm not loaded, a missing node, a node with a stale major. */
struct lx_host_warning {
	char *message;
	char *fix; /* may be NULL */
	unsigned code; /* its finding code (findings.h's enum lx_finding_code), for doctor */
	bool info;     /* worth knowing, not a problem (a GPU given to VMs) */
};
struct lx_host_warnings {
	struct lx_host_warning *items;
	size_t n;
};
void lx_host_check(const struct lx_host *host, struct lx_host_warnings *out);
void lx_host_warnings_free(struct lx_host_warnings *w);

const char *lx_cgroup_layout_name(enum lx_cgroup_layout c);
bool lx_cgroup_layout_from_name(const char *name, enum lx_cgroup_layout *out);
const char *lx_driver_flavor_name(enum lx_driver_flavor f);
bool lx_driver_flavor_from_name(const char *name, enum lx_driver_flavor *out);

/* Normalize a PCI address to sysfs spelling: the /proc/driver/nvidia/gpus
 * directory may carry an 8-digit domain ("00000000:41:00.0"). Lowercase,
 * domain printed with at least 4 hex digits. False when not a PCI address. */
bool lx_pci_address_normalize(const char *in, char **out);

/* ---- topology (as `nvidia-smi topo -m` names links) ---- */

enum lx_link {
	LX_LINK_SELF, /* X */
	LX_LINK_PIX,  /* through one PCIe switch */
	LX_LINK_PXB,  /* through several PCIe bridges, not the host bridge */
	LX_LINK_PHB,  /* through a PCIe host bridge */
	LX_LINK_NODE, /* between host bridges of one NUMA node */
	LX_LINK_SYS,  /* between NUMA nodes (the socket interconnect) */
};
/* The host bridge a GPU is under, as the bus of its root port (or its own,
 * directly on a root bus): *bus points into the model, the length is
 * returned ("0000:15" of "0000:15:01.0"). GPUs whose root buses match meet
 * in one host bridge (PHB). */
size_t lx_gpu_root_bus(const struct lx_gpu *g, const char **bus);
/* The link between two GPUs, from their PCIe paths and NUMA nodes. */
enum lx_link lx_gpu_link(const struct lx_gpu *a, const struct lx_gpu *b);
/* By device id: Blackwell (0x29xx-0x2fxx) is driven by the open kernel
 * modules only; Turing (0x1exx) and later have the GSP the open modules
 * need, older GPUs the proprietary module only. */
bool lx_gpu_needs_open_module(const struct lx_gpu *g);
bool lx_gpu_has_gsp(const struct lx_gpu *g);
const char *lx_link_name(enum lx_link link);
/* What a link class means, in a few words (a legend). */
const char *lx_link_description(enum lx_link link);
/* The n GPUs bound to nvidia with the closest links (lowest sum of link
 * costs; ties: lowest indexes). *out: n indexes, ascending. */
int lx_topo_best(const struct lx_host *host, size_t n, size_t **out, struct lx_error *err);

/* ---- parsers of /proc files (pure functions over the file's text) ---- */

/* /proc/driver/nvidia/version: version and flavour from its first line. */
int lx_parse_nvidia_version(const char *text, char **version, enum lx_driver_flavor *flavor,
			    struct lx_error *err);

/* /proc/driver/nvidia/gpus/<bdf>/information. Fields absent from the file
 * stay NULL / LX_UNKNOWN (some drivers omit "Device Minor"). */
struct lx_gpu_information {
	char *model;
	char *uuid;
	char *vbios;
	char *bus_location;
	int minor;
};
int lx_parse_gpu_information(const char *text, struct lx_gpu_information *info,
			     struct lx_error *err);
void lx_gpu_information_free(struct lx_gpu_information *info);

/* /proc/devices: every character major, in file order (block majors are not kept). */
int lx_parse_proc_devices(const char *text, struct lx_major **majors, size_t *n,
			  struct lx_error *err);
/* /proc/modules: names of the loaded nvidia* modules (and nouveau). */
void lx_parse_proc_modules(const char *text, struct lx_strv *modules);
/* /proc/self/mountinfo: the cgroup layout, as Proxmox decides it: the file
 * system type at /sys/fs/cgroup (of the mount on top when several are
 * stacked there): cgroup2 is v2 (whatever v1 hierarchies sit below it);
 * tmpfs (or anything else) is hybrid when a cgroup2 is visible at
 * /sys/fs/cgroup/unified, else v1; no mount there is unknown. The one
 * layout decision: everything else reads host->cgroup. */
enum lx_cgroup_layout lx_parse_cgroup_layout(const char *mountinfo);
/* A sysfs `resource` file: the standard BARs (lines 0..5; fewer when the
 * file is shorter). */
int lx_parse_pci_resource(const char *text, struct lx_pci_bar **bars, size_t *n,
			  struct lx_error *err);
/* A sysfs `config` file as read (len bytes): ACS from the extended
 * capability list at 0x100. Fewer than 4096 bytes (the 64 a non-root
 * reader gets, the 256 of a function without extended space) is unknown.
 * A list that loops is an error (the state stays unknown). */
int lx_parse_pci_config_acs(const unsigned char *config, size_t len, enum lx_acs_state *state,
			    uint16_t *cap, uint16_t *ctrl, struct lx_error *err);
/* A capabilities "access" file: its DeviceFileMinor. */
int lx_parse_capability_minor(const char *text, unsigned *minor, struct lx_error *err);

/* ---- the live scanner ---- */

/* Where the scanner reads. /sys always comes through libudev; /proc and
 * /dev are read directly (umockdev redirects both). The firmware dir and
 * run dir are not redirected by umockdev, so tests point them elsewhere. */
struct lx_scan_paths {
	const char *proc;     /* "/proc" */
	const char *dev;      /* "/dev" */
	const char *sys;      /* "/sys": for the links libudev does not resolve */
	const char *firmware; /* "/lib/firmware/nvidia" */
	const char *run;      /* "/run" */
	const char *boot;     /* "/boot": config-<release> */
	/* The root nvidia-smi is run from (usr/bin, usr/sbin, bin, sbin
	 * there), for the MIG UUIDs; NULL: not run. Default "/". */
	const char *tools;
	/* The root whose var/lib/dpkg/status gives the LXC and pve-container
	 * versions; NULL: not read. Default "/". */
	const char *packages;
};
void lx_scan_paths_default(struct lx_scan_paths *paths);

/* The raw files the scanner read, for snapshot bundles. */
struct lx_evidence_file {
	char *path; /* as read, e.g. "/proc/devices" */
	char *data;
	size_t len;
};
struct lx_evidence {
	struct lx_evidence_file *files;
	size_t n;
};
void lx_evidence_add(struct lx_evidence *ev, const char *path, const char *data, size_t len);
void lx_evidence_free(struct lx_evidence *ev);

/* Scan the live host. evidence may be NULL. */
int lx_host_scan(const struct lx_scan_paths *paths, struct lx_host *host,
		 struct lx_evidence *evidence, struct lx_error *err);

/* ---- DRM GPUs' firmware and amdkfd, checked now (src/host/firmware.c) ---- */

/* A firmware name (from a kernel log or a snapshot: untrusted) that may be
 * looked up: relative, at most 255 bytes, printable, no empty, "." or ".."
 * component. */
bool lx_firmware_name_valid(const char *name);
/* Fill host->drm_checks (replacing what it held): each request of a DRM
 * driver with a valid name (copied, one per name) looked up as
 * drivers/base/firmware_loader/main.c does: firmware_class.path (<sys>/
 * module/firmware_class/parameters/path), then <fw>/updates/<release>,
 * <fw>/updates, <fw>/<release>, <fw>, first the name itself in each, then
 * name.zst in each, then name.xz, a compressed form only where the running
 * kernel's config has CONFIG_FW_LOADER_COMPRESS_ZSTD or _XZ (unknown
 * config: taken as readable). <fw> is the directory above paths->firmware
 * (/lib/firmware). Also the vendor directories of the drivers bound to the
 * host's GPUs, and amdkfd's topology nodes for its amdgpu GPUs. */
void lx_host_drm_check(const struct lx_scan_paths *paths, struct lx_host *host,
		       const struct lx_fw_request *requests, size_t n);
void lx_drm_checks_free(struct lx_drm_checks *c);
/* n requests and the array that holds them. */
void lx_fw_requests_free(struct lx_fw_request *r, size_t n);
/* The running kernel's config text: /boot/config-<release>, else the
 * kernel's /proc/config.gz; *source its name on the host. NULL (and
 * *source NULL) when neither is readable. */
char *lx_kernel_config_read(const struct lx_scan_paths *paths, const char *release, char **source);
/* "CONFIG_X=y" or "=m": yes; "# CONFIG_X is not set" or no line: no. */
enum lx_tristate lx_kernel_config_option(const char *text, const char *name);

/* ---- snapshots ---- */

/* Load a snapshot: YAML, or a .tar.gz bundle holding host.yaml (detected by
 * content). Errors name the file, line and field. */
int lx_snapshot_load(const char *path, struct lx_host *host, struct lx_error *err);
/* The same from memory (YAML or bundle); `name` is used in error messages. */
int lx_snapshot_load_buffer(const char *name, const char *data, size_t len, struct lx_host *host,
			    struct lx_error *err);
/* Parse snapshot YAML from memory; `name` is used in error messages. */
int lx_snapshot_parse(const char *name, const char *text, size_t len, struct lx_host *host,
		      struct lx_error *err);
struct lx_doc;
/* The model as a document (the schema of docs/schema.md). */
struct lx_doc *lx_host_to_doc(const struct lx_host *host);
/* Add the end marker, the document's last field (after scan's warnings):
 * `end: true`, so that a file cut short is known on load (schema 3
 * requires it). */
void lx_host_doc_end(struct lx_doc *doc);
/* Render the canonical snapshot YAML (also what `scan --format yaml` prints). */
char *lx_snapshot_to_yaml(const struct lx_host *host);
/* Write FILE.yaml (YAML) or FILE.tar.gz / FILE.tgz (bundle with evidence). */
int lx_snapshot_save(const char *path, const struct lx_host *host,
		     const struct lx_evidence *evidence, struct lx_error *err);

/* ---- the NVIDIA nodes the driver makes (src/host/nodes.c) ---- */

/* What ensure-nodes does to one node. */
enum lx_node_action {
	LX_NODE_KEEP,    /* right type, number, mode and owner */
	LX_NODE_CREATE,  /* missing */
	LX_NODE_REPLACE, /* wrong type or major:minor (a stale uvm major) */
	LX_NODE_FIX,     /* right node, wrong mode and/or owner */
};

struct lx_node_step {
	char *path; /* logical, as on the host: "/dev/nvidia-uvm" */
	unsigned major, minor, mode, uid, gid; /* what the driver would make */
	enum lx_node_action action;
	/* What is there now (when have): lstat's view. */
	bool have;
	enum lx_node_type have_type; /* LX_NODE_OTHER also for symlinks and dirs */
	unsigned have_major, have_minor, have_mode, have_uid, have_gid;
};

struct lx_node_plan {
	struct lx_node_step *steps; /* nvidiactl, nvidiaN, modeset, uvm, caps */
	size_t n;
	bool make_caps_dir; /* /dev/nvidia-caps is missing */
	/* Why a node the user may expect is not in the plan ("nvidia-uvm is
	 * not loaded: ..."). */
	struct lx_strv notes;
};

/* The nodes that should exist, as nvidia-modprobe makes them: majors from
 * the model's /proc/devices, GPU minors from the driver's "Device Minor",
 * modes and owners from <proc>/driver/nvidia/params (DeviceFileMode/UID/
 * GID, default 0666 root) for the nvidia-major nodes, 0666 root for uvm, and
 * each capability's access file for /dev/nvidia-caps. Compared with what
 * lstat() finds under dev_dir now. Never opens a node. */
int lx_node_plan_make(const struct lx_host *host, const char *proc_dir, const char *dev_dir,
		      struct lx_node_plan *plan, struct lx_error *err);
/* Add a node for every MIG capability the driver can hand out on this
 * host's GPUs (its mig-minors table: every GI and CI, mig/config and
 * mig/monitor), so an instance created after boot (nvidia-smi mig -cgi)
 * has its node: mode 0400 for mig/config, 0444 for the rest, root:root,
 * as the driver makes them. Instances that exist keep their planned step. */
int lx_node_plan_add_mig_minors(const struct lx_host *host, const char *dev_dir,
				struct lx_node_plan *plan, struct lx_error *err);
/* The number of steps that change something. */
size_t lx_node_plan_changes(const struct lx_node_plan *plan);
/* Carry out the plan under dev_dir: a node is made under a temporary name
 * and renamed into place, so the path never goes missing. Stops at the
 * first failure. */
int lx_node_plan_apply(const struct lx_node_plan *plan, const char *dev_dir,
		       struct lx_error *err);
void lx_node_plan_free(struct lx_node_plan *plan);
/* The host model as it is once the plan is carried out (what ensure-nodes
 * renders include files from, also with --dry-run). */
void lx_node_plan_to_model(const struct lx_node_plan *plan, struct lx_host *host);
/* One line per change: "create /dev/nvidia-uvm c 511:0 0666". */
char *lx_node_step_describe(const struct lx_node_step *step);
/* Run the kernel's modprobe (<proc>/sys/kernel/modprobe, else
 * /sbin/modprobe) for one module, without a shell; an error unless it
 * exits 0. */
/* The modules --load-modules loads: nvidia-uvm unless loaded, and
 * nvidia-modeset where a GPU drives a display and it is not loaded. */
void lx_nodes_modules_to_load(const struct lx_host *host, struct lx_strv *out);
int lx_module_load(const char *proc_dir, const char *module, struct lx_error *err);
/* The systemd oneshot unit that runs `lxgpu ensure-nodes --load-modules`
 * before pve-guests.service and lxc.service (also preflight's). */
const char *lx_nodes_boot_unit_text(void);

/* ---- the host model as text and as documents for output ---- */

/* `lxgpu scan` as text: a GPU table, then nodes, majors, driver, warnings;
 * with color, headings are bold and warnings yellow (ANSI); fitted to a
 * terminal width columns wide (0: not a terminal). */
char *lx_host_text(const struct lx_host *host, const struct lx_host_warnings *warnings,
		   bool color, size_t width);
/* The warnings as a list of {message, fix}. */
struct lx_doc *lx_host_warnings_doc(const struct lx_host_warnings *warnings);

#endif
