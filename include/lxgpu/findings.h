/* findings: the table of stable codes and severities (their text lives in
 * docs/findings.md) and the list every check appends to and every report
 * prints. Data only: it knows nothing of the checks that add findings. */
#ifndef LXGPU_FINDINGS_H
#define LXGPU_FINDINGS_H

#include "lxgpu/util.h"

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
	LXG027_ROOT_UNCHECKED,    /* a stopped container's root cannot be read without mounting it */
	LXG028_UNPARSEABLE_LINE,  /* a config line Proxmox cannot parse (apply refuses the file) */
	/* the start guard (src/fleet/guard.c): a recorded GPU changed */
	LXG030_GUARD_RENUMBERED = 30, /* the config no longer gives a recorded GPU's /dev/nvidiaN */
	LXG031_GUARD_GPU_UNAVAILABLE, /* a recorded GPU is gone or not bound to nvidia (vfio-pci) */
	LXG032_GUARD_IN_RUNNING_VM,   /* a recorded GPU is held by a running VM (hostpciN) */
	LXG033_GUARD_IN_RUNNING_CT,   /* exclusive use: another running container has the GPU */
	LXG034_GUARD_OTHER_CARD,      /* another card at the recorded address, or the GPU moved */
	LXG035_GUARD_UNCHECKED,       /* the guard could not check something: the start goes on */
	/* the include style's file (src/judge/include_check.c) */
	LXG040_INCLUDE_MISSING = 40, /* the config includes lxgpu's file, which is not there */
	LXG041_INCLUDE_NOT_OURS,  /* a file at lxgpu's include path that lxgpu did not write */
	LXG042_INCLUDE_STALE,     /* lxgpu's include file is not what ensure-nodes writes now */
	LXG043_INCLUDE_NO_RECORD, /* no GPU record to rewrite the include file from */
	LXG044_INCLUDE_GPU_GONE,  /* a recorded GPU the include file leaves out (gone, vfio) */
	/* the driver userspace hook (src/judge/hook_check.c) */
	LXG045_HOOK_BINARY_MISSING = 45, /* the lxc.hook.mount line runs a binary that is not there */
	LXG046_HOOK_NO_USERSPACE,  /* the hook has no userspace of the loaded version to give */
	LXG047_OWN_DRIVER_COPY,    /* no hook: the container's own copy of the driver */
	/* Intel and AMD GPUs, by-path nodes (src/judge/config_check.c) */
	/* MIG instances (src/judge/mig_check.c, the guard, audit) */
	LXG050_MIG_NOT_ISOLATED = 50, /* given MIG instances, it can reach other instances' caps nodes */
	LXG051_MIG_SHARED,        /* audit: two containers on one MIG instance */
	LXG052_GUARD_MIG_GONE,    /* guard: a MIG instance the config gives does not exist now */
	LXG053_MIG_INCOMPLETE,    /* a CI's caps node without its GI's, or a GI's without a CI's */
	LXG054_MIG_GONE,          /* verify: a MIG instance the config gives does not exist now */
	LXG055_DRM_GROUP_MISMATCH = 55, /* a DRM node's gid is not the container's render/video group */
	LXG056_BY_PATH_GONE,      /* a /dev/dri/by-path link the host no longer has */
	LXG057_GROUP_UNCHECKED,   /* the container's /etc/group unreadable: LXG055 not checked */
	/* NVIDIA's LXC hook, hooks/nvidia (src/judge/nvhook_check.c) */
	LXG060_NVHOOK_REFUSES = 60, /* the hook exits 1: privileged, not a mount hook, bad capability */
	LXG061_NVHOOK_HOST_LACKS,  /* the host lacks the hook's script or nvidia-container-cli */
	LXG062_NVHOOK_NO_SUCH_GPU, /* NVIDIA_VISIBLE_DEVICES names a GPU the host does not have */
	LXG063_NVHOOK_CGROUP_DENIES, /* the device cgroup denies a node the hook mounts */
	LXG064_NVHOOK_NO_CUDA,     /* the hook gives nothing, or no compute (libcuda, uvm) */
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
	LXG116_MODULE_WRONG_KERNEL, /* an NVIDIA module built for another kernel */
	LXG117_FABRIC_NOT_READY,  /* NVSwitch fabric: Fabric Manager not running or of another version, SXid */
	LXG118_GPU_RESET_REQUIRED, /* the driver says the GPU needs a reset (NV_ERR_RESET_REQUIRED) */
	LXG119_NVLINK5_PREREQ,    /* an NVLink 5 fabric without mlx5_ib/ib_umad or nvlsm */
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
	/* doctor CTID: nvidia-container-toolkit inside the container (src/doctor/toolkit.c) */
	LXG130_TOOLKIT_CGROUPS = 130, /* unprivileged, toolkit inside without no-cgroups = true */
	LXG131_TOOLKIT_UNREAD,    /* the inner toolkit config could not be read or parsed */
	/* causes that leave the kernel log empty (src/doctor/silent.c) */
	LXG132_UVM_HMM,           /* nvidia_uvm's HMM on with the open module: cuInit 3 */
	LXG133_CUDA_PROBE,        /* doctor --probe: cuInit failed (or its answer) */
	/* Intel and AMD drivers' kernel messages (src/doctor/catalogue.c) */
	LXG140_GPU_FIRMWARE_MISSING = 140, /* amdgpu/i915/xe could not load a firmware file */
	LXG141_GPU_INIT_FAILED,   /* amdgpu/i915/xe failed to initialize a GPU (wedged) */
	LXG142_GPU_HANG,          /* ring timeout, GPU hang or reset (VRAM lost) */
	LXG143_KFD_REFUSED,       /* amdkfd refused a GPU (PCIe atomics, unsupported ASIC) */
	LXG144_AMD_MES_HANG,      /* amdgpu's MES scheduler firmware stopped answering */
	LXG145_AMD_PSP_FAILED,    /* amdgpu's security processor (PSP) did not start */
	LXG146_AMD_DMCUB_ERROR,   /* the display microcontroller (DMCUB) failed */
	LXG147_MIG_NO_INSTANCE,   /* nvidia: a GPU in MIG mode without a GPU instance refused CUDA */
	LXG148_VFIO_BAR_BUSY,     /* vfio-pci could not reserve a BAR (the boot framebuffer holds it) */
	LXG149_AMD_SMU_HANG,      /* amdgpu's SMU (power management firmware) did not answer */
	LXG150_AMD_VM_FAULT = 150, /* a process's memory access on an AMD GPU faulted (GPU VM page fault) */
	LXG151_GPU_DRIVER_OOPS = 151, /* an oops, BUG or WARN in a GPU driver's code */
	LXG152_GPU_PCIE_AER,      /* PCIe AER errors reported for a GPU */
	LXG153_MODESET_DISABLED = 153, /* nomodeset / amdgpu.modeset=0: an AMD or Intel GPU's driver does not bind */
	LXG154_AMD_RAS_ERROR = 154, /* amdgpu's RAS: uncorrectable or poison errors, bad pages past the threshold */
	LXG155_INTEL_DMC_LOST = 155, /* i915/xe: the display microcontroller's program or state is not there */
	LXG156_AMD_GPU_TABLES = 156, /* amdgpu could not read the GPU's VBIOS or IP discovery table */
	LXG157_INTEL_NOT_SUPPORTED = 157, /* i915/xe refused the GPU: not supported without force_probe */
	LXG158_GPU_NO_POWER = 158, /* nvidia: the GPU's auxiliary power cables are not connected */
	/* peer-to-peer readiness (src/doctor/p2p.c over src/host/p2p.c) */
	LXG160_P2P_IOMMU_TRANSLATES = 160, /* GPUs whose IOMMU groups translate peer DMA */
	LXG161_P2P_ACS_REDIRECT,  /* ACS redirect on the switch ports between GPUs */
	LXG162_P2P_UNKNOWN,       /* a fact P2P depends on could not be read */
	/* DRM GPUs' firmware and amdkfd as the host has them now (src/doctor/firmware.c) */
	LXG170_GPU_FIRMWARE_STILL_MISSING = 170, /* a firmware file the log says failed is still absent */
	LXG171_GPU_FIRMWARE_ADDED_LATER, /* it is there now: it came after the driver loaded */
	LXG172_GPU_FIRMWARE_DIR_MISSING, /* a bound driver's vendor firmware directory is absent */
	LXG173_KFD_NO_NODE,       /* an amdgpu GPU has no amdkfd node: ROCm does not see it */
	LXG174_GPU_PM_FAILED,     /* a GPU failed to suspend or to resume (kernel log) */
	LXG175_DISPLAY_TIMEOUT,   /* a GPU's display engine did not complete page flips */
	LXG176_PCI_UNRESPONSIVE,  /* a GPU stopped answering on PCI after a reset or power change */
	LXG177_GPU_REMOVED_IN_USE, /* nvidia: a GPU unbound while processes hold it (the unbind waits) */
	LXG178_DISPLAY_OUTPUT_FAILED = 178, /* a display output failed: EDID, MST, link training, PSR, Type-C */
	LXG179_GPU_LINK_DOWN,     /* the hotplug port above a GPU lost its link (eGPU, Thunderbolt, OCuLink) */
	/* host models through the cluster file system, migration (src/predict/migrate.c) */
	LXG180_MODEL_STALE = 180, /* a node's published model is from before its last boot */
	LXG181_MODEL_UNDATED,     /* whether a node's published model is current is unknown */
	LXG182_MIGRATE_GPU_ABSENT, /* a GPU of the container is not on the target node */
	LXG183_MIGRATE_GPU_NOT_NVIDIA, /* the GPU is there but not bound to nvidia (vfio-pci) */
	LXG184_MIGRATE_OTHER_GPU, /* the config gives another GPU there (its minor differs) */
	/* kernel log, continued (src/doctor/catalogue.c) */
	LXG188_IOMMU_RMRR_REFUSED = 188, /* the IOMMU refuses a VM the GPU: the firmware's RMRR needs a 1:1 mapping */
	/* NVIDIA vGPU hosts (kernel log) */
	LXG190_VGPU_START_FAILED = 190, /* the vGPU host driver could not start or create a VM's vGPU */
	LXG191_GPU_DMA_BOUNCE_FULL, /* the kernel's DMA bounce buffer (swiotlb) is full for a GPU's DMA */
	LXG192_GPU_MEMORY_EXHAUSTED = 192, /* no room in a GPU's memory: TTM (VRAM, GTT), NVIDIA BAR1, sysmem */
	LX_FINDING_CODES_END,
};

struct lx_finding_info {
	const char *code; /* "LXG001" */
	enum lx_severity severity;
	const char *title;
};
const struct lx_finding_info *lx_finding_info(enum lx_finding_code code);
const char *lx_severity_name(enum lx_severity s);
/* The one set of colours (ANSI) of every text output: a severity's, and a
 * status's by the severity it stands for (ok: green, as nothing wrong);
 * LX_SGR_RESET after. */
#define LX_SGR_OK "\033[32m"
#define LX_SGR_RESET "\033[0m"
const char *lx_severity_sgr(enum lx_severity s);

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

/* A fix is prose with each command to run in backticks ("load it:
 * `nvidia-modprobe -u -c 0`, then `pct reboot 101`"): the text form prints
 * every command whole on a line of its own, below the prose that explains
 * it, and never wraps it; JSON lists them as "commands". Prose may name a
 * command without backticks ("apply keeps the raw lines"): that is no
 * command to run. */
/* Text from a config or a host quoted in a fix: its backticks made quotes,
 * so that a stranger's bytes never print as a command to run. */
char *lx_fix_quote(const char *text);

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
/* Whether a finding has severity error. */
bool lx_findings_have_errors(const struct lx_findings *f);
/* The exit status of every command that judges (verify, doctor, preflight,
 * guard; the README's "Exit status"): 1 (LX_EXIT_FINDINGS) when a finding
 * it shows is an error, else 2 (LX_EXIT_ERROR) when something could not be
 * checked, else 0. errors: lx_findings_have_errors over what it shows. */
int lx_judged_exit_status(bool errors, bool unchecked);

#endif
