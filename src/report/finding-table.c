/* Findings: stable codes, severities, and the list commands print. */
#include "lxgpu/findings.h"

#include <string.h>

static const struct lx_finding_info infos[LX_FINDING_CODES_END] = {
	[LXG001_STALE_MAJOR] = {"LXG001", LX_SEVERITY_WARNING, "cgroup rule for a stale major"},
	[LXG002_MISSING_NODE] = {"LXG002", LX_SEVERITY_ERROR, "bind mount of a node the host lacks"},
	[LXG003_NO_SUCH_GPU] = {"LXG003", LX_SEVERITY_ERROR, "node of a GPU that does not exist"},
	[LXG004_GPU_ON_VFIO] = {"LXG004", LX_SEVERITY_ERROR, "node of a GPU not bound to nvidia"},
	[LXG005_LINES_IN_SECTION] = {"LXG005", LX_SEVERITY_WARNING,
				     "GPU lines in a snapshot or pending section"},
	[LXG006_WRONG_CGROUP_KEYS] = {"LXG006", LX_SEVERITY_ERROR,
				      "cgroup keys of the other cgroup version"},
	[LXG007_OVER_BROAD_RULE] = {"LXG007", LX_SEVERITY_WARNING, "over-broad device rule"},
	[LXG008_PLANNED_NODE_MISSING] = {"LXG008", LX_SEVERITY_ERROR,
					 "a node the GPUs need is not configured"},
	[LXG009_DEVN_NODE_MISSING] = {"LXG009", LX_SEVERITY_ERROR,
				      "devN for a node that does not exist"},
	[LXG010_UNUSABLE_MODE] = {"LXG010", LX_SEVERITY_WARNING,
				  "container users cannot open a node"},
	[LXG011_DRIVER_MISMATCH] = {"LXG011", LX_SEVERITY_ERROR,
				    "userspace driver of another version than the host's module"},
	[LXG012_GPU_SHARED] = {"LXG012", LX_SEVERITY_ERROR, "a GPU in more than one container"},
	[LXG013_GPU_IN_VM] = {"LXG013", LX_SEVERITY_ERROR, "a GPU in a container and in a VM"},
	[LXG014_NO_CGROUP_RULE] = {"LXG014", LX_SEVERITY_ERROR,
				   "a bind-mounted node no cgroup rule allows"},
	[LXG015_STALE_NODE_INSIDE] = {"LXG015", LX_SEVERITY_ERROR,
				      "a node inside the container with a stale major:minor"},
	[LXG016_NODE_MISSING_INSIDE] = {"LXG016", LX_SEVERITY_ERROR,
					"a configured node is missing inside the container"},
	[LXG017_MOUNT_MISSING_INSIDE] = {"LXG017", LX_SEVERITY_ERROR,
					 "a configured bind mount is missing inside the container"},
	[LXG018_CGROUP_DENIES] = {"LXG018", LX_SEVERITY_ERROR,
				  "the container's device cgroup denies a node"},
	[LXG019_RESTART_PENDING] = {"LXG019", LX_SEVERITY_INFO,
				    "the config changed since the container started"},
	[LXG020_UVM_NOT_LOADED] = {"LXG020", LX_SEVERITY_WARNING, "nvidia-uvm is not loaded"},
	[LXG021_NO_HOST_MODEL] = {"LXG021", LX_SEVERITY_INFO,
				  "a GPU container on a node lxgpu has no model of"},
	[LXG022_CGROUP_DENIES_NEEDED] = {"LXG022", LX_SEVERITY_ERROR,
					 "the device cgroup denies a node the GPUs need"},
	[LXG023_WILL_NOT_START] = {"LXG023", LX_SEVERITY_ERROR, "the container will not start"},
	[LXG024_INVALID_RULE] = {"LXG024", LX_SEVERITY_WARNING, "LXC refuses this device rule"},
	[LXG025_BASIC_DEVICES_BLOCKED] = {"LXG025", LX_SEVERITY_ERROR,
					  "the device cgroup blocks the container's basic devices"},
	[LXG026_RUNNING_UNCHECKED] = {"LXG026", LX_SEVERITY_WARNING,
				      "the running device cgroup could not be checked"},
	[LXG027_ROOT_UNCHECKED] = {"LXG027", LX_SEVERITY_WARNING,
				   "the stopped container's root could not be inspected"},
	[LXG028_UNPARSEABLE_LINE] = {"LXG028", LX_SEVERITY_ERROR,
				     "a config line Proxmox cannot parse"},
	[LXG030_GUARD_RENUMBERED] = {"LXG030", LX_SEVERITY_ERROR,
				     "a recorded GPU is another /dev/nvidiaN than the config gives"},
	[LXG031_GUARD_GPU_UNAVAILABLE] = {"LXG031", LX_SEVERITY_ERROR,
					  "a recorded GPU is gone or not bound to nvidia"},
	[LXG032_GUARD_IN_RUNNING_VM] = {"LXG032", LX_SEVERITY_ERROR,
					"a recorded GPU is held by a running VM"},
	[LXG033_GUARD_IN_RUNNING_CT] = {"LXG033", LX_SEVERITY_ERROR,
					"a GPU recorded for exclusive use is in a running container"},
	[LXG034_GUARD_OTHER_CARD] = {"LXG034", LX_SEVERITY_ERROR,
				     "another card at a recorded GPU's address, or the GPU moved"},
	[LXG035_GUARD_UNCHECKED] = {"LXG035", LX_SEVERITY_WARNING,
				    "the start guard could not check something"},
	[LXG040_INCLUDE_MISSING] = {"LXG040", LX_SEVERITY_ERROR,
				    "the include file with the container's GPU lines is missing"},
	[LXG041_INCLUDE_NOT_OURS] = {"LXG041", LX_SEVERITY_WARNING,
				     "the include file at lxgpu's path is not lxgpu's"},
	[LXG042_INCLUDE_STALE] = {"LXG042", LX_SEVERITY_ERROR,
				  "the include file is stale against the host's devices"},
	[LXG043_INCLUDE_NO_RECORD] = {"LXG043", LX_SEVERITY_WARNING,
				      "no GPU record to rewrite the include file from"},
	[LXG044_INCLUDE_GPU_GONE] = {"LXG044", LX_SEVERITY_ERROR,
				     "a recorded GPU is left out of the include file"},
	[LXG045_HOOK_BINARY_MISSING] = {"LXG045", LX_SEVERITY_ERROR,
					"the driver hook line runs a binary that is not there"},
	[LXG046_HOOK_NO_USERSPACE] = {"LXG046", LX_SEVERITY_ERROR,
				      "the driver hook has no userspace of the loaded version"},
	[LXG047_OWN_DRIVER_COPY] = {"LXG047", LX_SEVERITY_WARNING,
				    "the container's own copy of the driver userspace, no hook"},
	[LXG050_MIG_NOT_ISOLATED] = {"LXG050", LX_SEVERITY_WARNING,
				     "a MIG container can reach other instances"},
	[LXG051_MIG_SHARED] = {"LXG051", LX_SEVERITY_WARNING,
			       "a MIG instance in more than one container"},
	[LXG052_GUARD_MIG_GONE] = {"LXG052", LX_SEVERITY_ERROR,
				   "a MIG instance the config gives does not exist (guard)"},
	[LXG053_MIG_INCOMPLETE] = {"LXG053", LX_SEVERITY_WARNING,
				   "a MIG instance without its GPU or compute instance node"},
	[LXG054_MIG_GONE] = {"LXG054", LX_SEVERITY_ERROR,
			     "a MIG instance the config gives does not exist"},
	[LXG055_DRM_GROUP_MISMATCH] = {"LXG055", LX_SEVERITY_ERROR,
				       "a DRM node's group is not the container's render or video group"},
	[LXG056_BY_PATH_GONE] = {"LXG056", LX_SEVERITY_ERROR,
				 "a /dev/dri/by-path link the host no longer has"},
	[LXG057_GROUP_UNCHECKED] = {"LXG057", LX_SEVERITY_INFO,
				    "the container's /etc/group could not be read: DRM groups not checked"},
	[LXG060_NVHOOK_REFUSES] = {"LXG060", LX_SEVERITY_ERROR,
				   "NVIDIA's LXC hook refuses the container's start"},
	[LXG061_NVHOOK_HOST_LACKS] = {"LXG061", LX_SEVERITY_ERROR,
				      "the host lacks what NVIDIA's LXC hook runs"},
	[LXG062_NVHOOK_NO_SUCH_GPU] = {"LXG062", LX_SEVERITY_ERROR,
				       "NVIDIA_VISIBLE_DEVICES names a GPU the host does not have"},
	[LXG063_NVHOOK_CGROUP_DENIES] = {"LXG063", LX_SEVERITY_ERROR,
					 "the device cgroup denies a node NVIDIA's hook mounts"},
	[LXG064_NVHOOK_NO_CUDA] = {"LXG064", LX_SEVERITY_WARNING,
				   "NVIDIA's hook gives no GPU or no CUDA"},
	[LXG100_API_MISMATCH] = {"LXG100", LX_SEVERITY_ERROR,
				 "a driver client of another version than the module"},
	[LXG101_NEEDS_OPEN_MODULE] = {"LXG101", LX_SEVERITY_ERROR,
				      "a GPU that needs the open kernel modules"},
	[LXG102_NO_GSP] = {"LXG102", LX_SEVERITY_ERROR, "a GPU the open kernel modules do not drive"},
	[LXG103_UNSUPPORTED_GPU] = {"LXG103", LX_SEVERITY_ERROR,
				    "a GPU this driver release does not support"},
	[LXG104_BAR_UNASSIGNED] = {"LXG104", LX_SEVERITY_ERROR, "a GPU BAR without an address"},
	[LXG105_BAR_RESIZE_FAILED] = {"LXG105", LX_SEVERITY_WARNING, "resizing a GPU BAR failed"},
	[LXG106_INIT_FAILED] = {"LXG106", LX_SEVERITY_ERROR, "the driver could not initialize a GPU"},
	[LXG107_GSP_FIRMWARE_MISSING] = {"LXG107", LX_SEVERITY_ERROR,
					 "GSP firmware of the loaded driver is missing"},
	[LXG108_GSP_BOOT_FAILED] = {"LXG108", LX_SEVERITY_ERROR, "the GPU's GSP did not boot"},
	[LXG109_FALLEN_OFF_BUS] = {"LXG109", LX_SEVERITY_ERROR, "a GPU fell off the bus"},
	[LXG110_XID] = {"LXG110", LX_SEVERITY_WARNING, "an Xid event"},
	[LXG111_BOUND_ELSEWHERE] = {"LXG111", LX_SEVERITY_ERROR,
				    "a GPU already bound to another driver"},
	[LXG112_UNSIGNED_MODULE] = {"LXG112", LX_SEVERITY_ERROR, "an unsigned module was refused"},
	[LXG113_IOMMU_FAULT] = {"LXG113", LX_SEVERITY_ERROR, "an IOMMU fault by a GPU"},
	[LXG114_ACS_REDIRECT] = {"LXG114", LX_SEVERITY_WARNING,
				 "the kernel refuses peer-to-peer DMA: ACS redirect"},
	[LXG115_OPEN_UNSUPPORTED] = {"LXG115", LX_SEVERITY_ERROR,
				     "the open module refuses a GeForce or workstation GPU"},
	[LXG116_MODULE_WRONG_KERNEL] = {"LXG116", LX_SEVERITY_ERROR,
					"an NVIDIA module built for another kernel"},
	[LXG117_FABRIC_NOT_READY] = {"LXG117", LX_SEVERITY_ERROR,
				     "the NVSwitch fabric is not ready (Fabric Manager, SXid)"},
	[LXG118_GPU_RESET_REQUIRED] = {"LXG118", LX_SEVERITY_ERROR, "the driver says a GPU needs a reset"},
	[LXG119_NVLINK5_PREREQ] = {"LXG119", LX_SEVERITY_ERROR,
				   "an NVLink 5 fabric lacks its prerequisites (ib_umad, nvlsm)"},
	[LXG120_MODULE_NOT_LOADED] = {"LXG120", LX_SEVERITY_ERROR,
				      "the nvidia kernel module is not loaded"},
	[LXG121_GPU_NOT_ON_NVIDIA] = {"LXG121", LX_SEVERITY_ERROR, "a GPU not bound to nvidia"},
	[LXG122_DRIVER_NODE_MISSING] = {"LXG122", LX_SEVERITY_ERROR, "a driver node is missing"},
	[LXG123_DRIVER_NODE_WRONG] = {"LXG123", LX_SEVERITY_ERROR,
				      "a driver node with a wrong major:minor"},
	[LXG124_NO_DEVICE_MINOR] = {"LXG124", LX_SEVERITY_WARNING,
				    "the driver does not report a GPU's minor"},
	[LXG125_NO_GPU] = {"LXG125", LX_SEVERITY_WARNING, "no NVIDIA GPU on this host"},
	[LXG126_NO_PERSISTENCED] = {"LXG126", LX_SEVERITY_INFO, "nvidia-persistenced is not running"},
	[LXG127_SECURE_BOOT_UNSIGNED] = {"LXG127", LX_SEVERITY_ERROR,
					 "Secure Boot is on and the nvidia module is not loaded"},
	[LXG128_CMDLINE_BLACKLIST] = {"LXG128", LX_SEVERITY_ERROR,
				      "the kernel command line blacklists an NVIDIA module"},
	[LXG129_KMSG_UNREADABLE] = {"LXG129", LX_SEVERITY_WARNING, "the kernel log could not be read"},
	[LXG130_TOOLKIT_CGROUPS] = {"LXG130", LX_SEVERITY_ERROR,
				    "the toolkit inside an unprivileged container lacks no-cgroups = true"},
	[LXG131_TOOLKIT_UNREAD] = {"LXG131", LX_SEVERITY_WARNING,
				   "the toolkit config inside the container could not be read"},
	[LXG132_UVM_HMM] = {"LXG132", LX_SEVERITY_WARNING,
			    "nvidia_uvm's HMM is on with the open module (cuInit error 3)"},
	[LXG133_CUDA_PROBE] = {"LXG133", LX_SEVERITY_ERROR, "CUDA does not initialize (doctor --probe)"},
	[LXG140_GPU_FIRMWARE_MISSING] = {"LXG140", LX_SEVERITY_WARNING,
					 "an Intel or AMD GPU driver could not load a firmware file"},
	[LXG141_GPU_INIT_FAILED] = {"LXG141", LX_SEVERITY_ERROR,
				    "an Intel or AMD GPU failed to initialize"},
	[LXG142_GPU_HANG] = {"LXG142", LX_SEVERITY_WARNING,
			     "an Intel or AMD GPU hung or was reset"},
	[LXG143_KFD_REFUSED] = {"LXG143", LX_SEVERITY_ERROR,
				"amdkfd (ROCm) refused an AMD GPU"},
	[LXG144_AMD_MES_HANG] = {"LXG144", LX_SEVERITY_ERROR,
				 "an AMD GPU's MES scheduler firmware stopped answering"},
	[LXG145_AMD_PSP_FAILED] = {"LXG145", LX_SEVERITY_ERROR,
				   "an AMD GPU's security processor (PSP) did not start"},
	[LXG146_AMD_DMCUB_ERROR] = {"LXG146", LX_SEVERITY_WARNING,
				    "an AMD GPU's display microcontroller (DMCUB) failed"},
	[LXG147_MIG_NO_INSTANCE] = {"LXG147", LX_SEVERITY_ERROR,
				    "a GPU in MIG mode without a GPU instance refused a CUDA context"},
	[LXG148_VFIO_BAR_BUSY] = {"LXG148", LX_SEVERITY_ERROR,
				  "vfio-pci could not reserve a passed-through GPU's BAR"},
	[LXG149_AMD_SMU_HANG] = {"LXG149", LX_SEVERITY_WARNING,
				 "an AMD GPU's SMU (power management firmware) did not answer"},
	[LXG150_AMD_VM_FAULT] = {"LXG150", LX_SEVERITY_WARNING,
				 "a program's memory access on an AMD GPU faulted (GPU page fault)"},
	[LXG151_GPU_DRIVER_OOPS] = {"LXG151", LX_SEVERITY_ERROR,
				    "a GPU driver crashed (oops, BUG) or warned (WARN) in the kernel"},
	[LXG152_GPU_PCIE_AER] = {"LXG152", LX_SEVERITY_ERROR,
				 "PCIe errors (AER) reported for a GPU"},
	[LXG153_MODESET_DISABLED] = {"LXG153", LX_SEVERITY_ERROR,
				     "kernel modesetting is off: an AMD or Intel GPU has no driver"},
	[LXG154_AMD_RAS_ERROR] = {"LXG154", LX_SEVERITY_ERROR,
				  "an AMD GPU reported uncorrectable memory or poison errors (RAS)"},
	[LXG155_INTEL_DMC_LOST] = {"LXG155", LX_SEVERITY_WARNING,
				   "an Intel GPU's display microcontroller (DMC) program is not loaded"},
	[LXG156_AMD_GPU_TABLES] = {"LXG156", LX_SEVERITY_ERROR,
				   "amdgpu could not read an AMD GPU's VBIOS or IP discovery table"},
	[LXG157_INTEL_NOT_SUPPORTED] = {"LXG157", LX_SEVERITY_ERROR,
					"an Intel GPU driver refused the GPU (not supported without force_probe)"},
	[LXG158_GPU_NO_POWER] = {"LXG158", LX_SEVERITY_ERROR,
				 "an NVIDIA GPU's power cables are not connected"},
	[LXG160_P2P_IOMMU_TRANSLATES] = {"LXG160", LX_SEVERITY_WARNING,
					 "peer-to-peer DMA between GPUs goes through a translating IOMMU"},
	[LXG161_P2P_ACS_REDIRECT] = {"LXG161", LX_SEVERITY_WARNING,
				     "ACS redirect on the switch ports between GPUs"},
	[LXG162_P2P_UNKNOWN] = {"LXG162", LX_SEVERITY_INFO,
				"whether peer-to-peer DMA between GPUs works is unknown"},
	[LXG170_GPU_FIRMWARE_STILL_MISSING] = {"LXG170", LX_SEVERITY_WARNING,
					       "a GPU firmware file the driver could not load is still missing"},
	[LXG171_GPU_FIRMWARE_ADDED_LATER] = {"LXG171", LX_SEVERITY_WARNING,
					     "a GPU firmware file the driver could not load is there now"},
	[LXG172_GPU_FIRMWARE_DIR_MISSING] = {"LXG172", LX_SEVERITY_WARNING,
					     "a GPU driver's firmware directory is missing"},
	[LXG173_KFD_NO_NODE] = {"LXG173", LX_SEVERITY_WARNING,
				"an AMD GPU has no amdkfd node: ROCm does not see it"},
	[LXG174_GPU_PM_FAILED] = {"LXG174", LX_SEVERITY_ERROR,
				  "a GPU failed to suspend or to resume"},
	[LXG175_DISPLAY_TIMEOUT] = {"LXG175", LX_SEVERITY_WARNING,
				    "a GPU's display engine did not complete page flips"},
	[LXG176_PCI_UNRESPONSIVE] = {"LXG176", LX_SEVERITY_ERROR,
				     "a GPU stopped answering on PCI after a reset or power change"},
	[LXG177_GPU_REMOVED_IN_USE] = {"LXG177", LX_SEVERITY_ERROR,
				       "an NVIDIA GPU was unbound while in use: the unbind waits"},
	[LXG178_DISPLAY_OUTPUT_FAILED] = {"LXG178", LX_SEVERITY_WARNING,
					  "a display output of a GPU failed (monitor, cable, MST dock, link, panel self refresh)"},
	[LXG179_GPU_LINK_DOWN] = {"LXG179", LX_SEVERITY_ERROR,
				  "the hotplug port above a GPU lost its link: the GPU left the bus"},
	[LXG180_MODEL_STALE] = {"LXG180", LX_SEVERITY_WARNING,
				"a node's published host model is from before its last boot"},
	[LXG181_MODEL_UNDATED] = {"LXG181", LX_SEVERITY_INFO,
				  "whether a node's published host model is current is unknown"},
	[LXG182_MIGRATE_GPU_ABSENT] = {"LXG182", LX_SEVERITY_ERROR,
				       "a GPU of the container is not on the target node"},
	[LXG183_MIGRATE_GPU_NOT_NVIDIA] = {"LXG183", LX_SEVERITY_ERROR,
					   "the container's GPU is on the target node but not bound to nvidia"},
	[LXG184_MIGRATE_OTHER_GPU] = {"LXG184", LX_SEVERITY_ERROR,
				      "on the target node the config gives another GPU"},
	[LXG188_IOMMU_RMRR_REFUSED] = {"LXG188", LX_SEVERITY_ERROR,
				       "the IOMMU refuses a VM the GPU: the firmware requires a 1:1 mapping (RMRR)"},
	[LXG190_VGPU_START_FAILED] = {"LXG190", LX_SEVERITY_ERROR,
				      "the NVIDIA vGPU host driver could not start or create a VM's vGPU"},
	[LXG191_GPU_DMA_BOUNCE_FULL] = {"LXG191", LX_SEVERITY_ERROR,
					"the kernel's DMA bounce buffer (swiotlb) ran out for a GPU's DMA"},
	[LXG192_GPU_MEMORY_EXHAUSTED] = {"LXG192", LX_SEVERITY_WARNING,
					 "a GPU driver could not make room in the GPU's memory or address space (VRAM, GTT, BAR1)"},
};

const struct lx_finding_info *lx_finding_info(enum lx_finding_code code)
{
	/* The table has holes between the ranges of the code blocks. */
	return code > 0 && code < LX_FINDING_CODES_END && infos[code].code ? &infos[code] : NULL;
}

const char *lx_severity_name(enum lx_severity s)
{
	return s == LX_SEVERITY_ERROR ? "error" : s == LX_SEVERITY_WARNING ? "warning" : "info";
}

static char *dup_or_null(const char *s)
{
	return s ? lx_xstrdup(s) : NULL;
}

void lx_findings_add(struct lx_findings *f, enum lx_finding_code code, const char *container,
		     const char *file, int line, const char *node, char *message, char *fix)
{
	f->items = lx_xrealloc(f->items, (f->n + 1) * sizeof(*f->items));
	struct lx_finding *x = &f->items[f->n++];
	x->code = code;
	x->severity = infos[code].severity;
	x->container = dup_or_null(container);
	x->file = dup_or_null(file);
	x->line = line;
	x->node = dup_or_null(node);
	x->message = message;
	x->fix = fix;
	x->evidence = NULL;
}

void lx_findings_last_evidence(struct lx_findings *f, char *evidence)
{
	if (f->n) {
		free(f->items[f->n - 1].evidence);
		f->items[f->n - 1].evidence = evidence;
	} else {
		free(evidence);
	}
}

void lx_findings_last_severity(struct lx_findings *f, enum lx_severity severity)
{
	if (f->n)
		f->items[f->n - 1].severity = severity;
}

void lx_findings_truncate(struct lx_findings *f, size_t n)
{
	for (size_t i = n; i < f->n; i++) {
		free(f->items[i].container);
		free(f->items[i].file);
		free(f->items[i].node);
		free(f->items[i].message);
		free(f->items[i].fix);
		free(f->items[i].evidence);
	}
	if (n < f->n)
		f->n = n;
}

void lx_findings_free(struct lx_findings *f)
{
	lx_findings_truncate(f, 0);
	free(f->items);
	memset(f, 0, sizeof(*f));
}

bool lx_findings_have_errors(const struct lx_findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->items[i].severity == LX_SEVERITY_ERROR)
			return true;
	return false;
}

int lx_judged_exit_status(bool errors, bool unchecked)
{
	return errors ? LX_EXIT_FINDINGS : unchecked ? LX_EXIT_ERROR : LX_EXIT_OK;
}
