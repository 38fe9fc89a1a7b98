/* The catalogue of known kernel messages: one table, one row per message.
 *
 * Texts come from NVIDIA's kernel modules (open-gpu-kernel-modules:
 * nv.c, nv-pci.c, the RM's init and GSP paths), the kernel (IOMMU drivers,
 * module signing, p2pdma) and NVIDIA's Xid catalogue for the meaning of the
 * numbers. Every row has a real line from a public report in
 * tests/doctor/kmsg/<id>.log, and docs/kmsg-catalogue.md documents the
 * table (a test keeps the two in step). The first matching row wins, so a
 * specific Xid comes before the generic one. */
#include "lxgpu/doctor.h"

#include <ctype.h>
#include <regex.h>
#include <string.h>

/* A PCI address as the driver prints it: domain:bus:device.function. */
#define BDF "[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]"
/* A PCI address as the driver prints it or as a poster elided it
 * ("XXXX:XX:XX.X"): the message still counts, its GPU unknown. */
#define BDF_SEEN "[0-9a-fA-FX]{4,8}:[0-9a-fA-FX]{2}:[0-9a-fA-FX]{2}\\.[0-7X]"
/* kernel_rc.c's Xid line: "NVRM: Xid (PCI:%04x:%02x:%02x[ GPU-I:%02u[
 * GPU-CI:%02u]]): %d, ..." (older drivers without "PCI:"). Groups: 2 the
 * GPU, 5 the GPU instance (MIG), 7 the compute instance. A user posting a
 * log often elides the address ("PCI:...", "PCI:0000:XX:00"): the Xid
 * still counts, its GPU unknown (group 2 then holds no address). Posts
 * from old drivers' logs also show "NVRM Xid (PCI:0000:0b:00) : 32, ...". */
#define XID_PREFIX                                                                                 \
	"NVRM:? Xid \\((PCI:)?([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(\\.[0-7])?|"          \
	"[^ ()]*[^ ()0-9a-fA-F:.][^ ()]*|\\.*)( GPU-I:([0-9]+))?( GPU-CI:([0-9]+))?\\) ?: "
/* kmod's modprobe ("could not insert '%s': %s", tools/modprobe.c) and
 * systemd-modules-load ("Failed to insert module '%s': %m") for an NVIDIA
 * module; group 2 the module. */
#define INSERT_FAILED "(could not insert|[Ff]ailed to insert module) '(nvidia[a-z0-9_-]*|nv_peer_mem)': "
/* nvidia, nvidia_uvm, nvidia_drm, nvidia_modeset, nvidia_peermem, nvidia_fs,
 * and Mellanox's GPUDirect module of the same driver, nv_peer_mem */
#define NVIDIA_MODULE "(nvidia[a-z0-9_-]*|nv_peer_mem)"

/* Intel's and AMD's drivers enlarge the VRAM BAR themselves at probe and
 * say only at info level when they cannot: the GPU goes on with a small
 * BAR (256 MiB), which Arc's media and compute stacks do not work with. */
#define FIX_SMALL_BAR                                                                               \
	"enable Resizable BAR (and Above 4G Decoding) in the firmware setup; in a VM give the guest a " \
	"64-bit MMIO window large enough for the BAR (QEMU/Proxmox: a q35 machine and a larger "     \
	"64-bit PCI hole), or add pci=realloc to the kernel command line"

/* The RM's own error lines: NV_PRINTF's release prefix "NVRM: %s: " with the
 * function's name (newer drivers "NVRM: GPU%d %s: ", NV_DEV_PRINTF's "NVRM:
 * GPU 0000:01:00.0: ", 515's "NVRM %s: "). Groups: 2 the GPU, 4 the
 * function; RM_FAILURE then holds the message. */
#define RM_PREFIX "NVRM:? (GPU (" BDF_SEEN "): )?(GPU[0-9]+ )?"
/* The failure words of the RM's error lines: a family's notices at
 * LEVEL_ERROR ("FSP microcode v%u.%u", "GSP bin buildId: %s", "Attempted to
 * process RPC event ... during bootup") say none and match no family row. */
#define RM_FAILURE                                                                                 \
	": (.*([Ff]ail|[Ee]rror|[Tt]imed? ?out|[Cc]annot|[Cc]an't|[Uu]nable|[Uu]nexpected|[Ii]nvalid|" \
	"[Mm]ismatch|[Mm]issing|[Cc]rash|[Hh]ung|[Bb]ailing|[Uu]nresponsive|[Ff]atal|[Bb]ugcheck).*)"

#define FIX_ENROLL                                                                                 \
	"enroll the key the module is signed with (DKMS: mokutil --import /var/lib/dkms/mok.pub, "  \
	"or /var/lib/shim-signed/mok/MOK.der; reboot and confirm in MokManager), use the "          \
	"distribution's signed driver packages, or turn Secure Boot off"
#define FIX_REBUILD                                                                                \
	"rebuild the NVIDIA modules for the running kernel (dkms autoinstall, or reinstall the "    \
	"driver package with this kernel's headers), or boot the kernel they were built for"
/* The AMD and Intel GPU driver modules and the DKMS backports' own
 * modules that come with them; group 1 the module. */
#define GPU_MODULE "(amdgpu|amdkcl|amdttm|amd_sched|amdxcp|radeon|i915|i915_compat|xe)"
#define FIX_GPU_MODULE                                                                             	"give the running kernel its own {module}: install its modules package (Ubuntu, Debian: "    	"linux-modules-extra-$(uname -r); Proxmox: reinstall the running proxmox-kernel package); "  	"with a DKMS backport (amdgpu-dkms, intel-i915-dkms, i915-sriov-dkms), rebuild it for this " 	"kernel (dkms autoinstall, with this kernel's headers) or remove it; for amdgpu's "           	"amd_iommu_* symbols load amd_iommu_v2 (linux-modules-extra); then update-initramfs -u and " 	"reboot"
#define FIX_AER                                                                                    \
	"reboot the host (power it off if the GPU does not come back); if it recurs, reseat the GPU, " \
	"take out a riser or extension, try another slot, check its power cables, set the slot's "   \
	"PCIe generation lower in the firmware setup, and update the system firmware"
#define FIX_AER_CORRECTED                                                                          \
	"nothing while the GPU works; if it recurs: reseat the GPU, take out a riser or extension, " \
	"try another slot or a lower PCIe generation in the firmware setup; pcie_aspm=off on the "   \
	"kernel command line if ASPM is the cause (pci=noaer only hides the reports)"
#define FIX_BLACKLIST                                                                              \
	"blacklist it: modprobe.blacklist=nouveau (and rd.driver.blacklist=nouveau for the "        \
	"initramfs, or 'blacklist nouveau' in /etc/modprobe.d plus update-initramfs -u), then "     \
	"reboot"
/* what a flood of corrected PCIe errors of a GPU's link means */
#define AER_NOISY_LINK                                                                             \
	"the hardware corrected them, but a link this noisy (a riser, the slot, signal integrity, " \
	"ASPM) often goes on to uncorrectable errors or a GPU that falls off the bus"
#define FIX_FALLEN                                                                                 \
	"check power cables, cooling and seating, update the system firmware; power-cycle the "     \
	"host to get the GPU back (a warm reboot may not)"

/* The drivers whose devices are GPUs, as dev_printk names them. */
#define GPU_DRIVER "(nvidia|amdgpu|radeon|i915|xe|nouveau)"
#define FIX_PM_RESUME                                                                              \
	"reboot the host to get the GPU back; a Proxmox node should not sleep: systemctl mask "    \
	"sleep.target suspend.target hibernate.target hybrid-sleep.target; if runtime power "       \
	"management suspends an idle GPU, turn it off for that GPU (amdgpu.runpm=0, "              \
	"NVreg_DynamicPowerManagement=0x00) and update the kernel and the driver or firmware"
#define FIX_PM_SUSPEND                                                                             \
	"a Proxmox node should not sleep: systemctl mask sleep.target suspend.target "             \
	"hibernate.target hybrid-sleep.target; else look at the driver's message before it (NVIDIA: "\
	"enable nvidia-suspend.service and nvidia-hibernate.service)"

#define FIX_DISPLAY                                                                                \
	"update the kernel and the GPU's driver or firmware (linux-firmware for amdgpu's and i915's "\
	"display firmware); a hang of the GPU in the same log is the cause to fix first; a Proxmox " \
	"node needs no display on a GPU it gives to containers"

/* A display output (a connector, its cable, adapter, dock or monitor):
 * the display engine's other outputs and the GPU's engines go on. */
#define FIX_DISPLAY_OUTPUT                                                                         \
	"replace or reseat the cable, adapter or monitor, try another port of the GPU, update the " \
	"firmware of the dock or MST hub (fwupdmgr update), or connect the monitor directly; a "    \
	"Proxmox node needs no display on a GPU it gives to containers"
#define DISPLAY_OUTPUT_ONLY                                                                        \
	"; the display only: compute, transcoding and CUDA or ROCm in containers on the GPU are "  \
	"not affected"
/* The display code of i915, which xe builds too (drivers/gpu/drm/i915/
 * display): drm_err's "i915 0000:00:02.0: [drm] *ERROR* " (xe: "xe ...";
 * DRM_DEV_ERROR's "[drm:func [i915]]" in place of "[drm]"), or DRM_ERROR's
 * "[drm:func [i915]] *ERROR* " of kernels before 5.8, which names no GPU
 * (LX_KMSG_SOLE_INTEL). Groups: 2 the driver, 3 the GPU; the message's
 * own groups start at 7. */
#define INTEL_DISPLAY_ERROR                                                                        \
	"((i915|xe) (" BDF "): \\[drm(:[a-z0-9_.]+ \\[(i915[a-z_]*|xe)\\])?\\] |"                   \
	"\\[drm:[a-z0-9_.]+ \\[(i915[a-z_]*|xe)\\]\\] )\\*ERROR\\* "
/* The panel's self refresh (PSR, PSR2, Panel Replay) of an Intel GPU */
#define FIX_INTEL_PSR                                                                              \
	"turn panel self refresh off on the kernel command line (i915.enable_psr=0 "                \
	"i915.enable_panel_replay=0; for the xe driver xe.enable_psr=0 xe.enable_panel_replay=0), " \
	"then update-grub or proxmox-boot-tool refresh and reboot; update the kernel and the laptop's "  \
	"firmware; a Proxmox node needs no display on a GPU it gives to containers"

#define FIX_PCI_UNRESPONSIVE                                                                       \
	"power-cycle the host (a warm reboot may not bring it back); a GPU given to VMs: options "   \
	"vfio-pci disable_idle_d3=1 in /etc/modprobe.d, update-initramfs -u, and for an AMD GPU of "\
	"the reset bug the vendor-reset module; on the host: runtime power management off for the "\
	"GPU (amdgpu.runpm=0, NVreg_DynamicPowerManagement=0x00), update the system firmware"

/* amdgpu's probe failure, in the driver core's two wordings */
#define CAUSE_AMDGPU_PROBE                                                                         \
	"amdgpu gave the AMD GPU up (probe failed with {error}; -12: out of memory or PCI "         \
	"address space, -22: an init step failed, -2: a firmware file missing): no /dev/dri or "    \
	"/dev/kfd node for it, containers holding it get no GPU"
#define FIX_AMDGPU_PROBE                                                                           \
	"see the message before it about the same GPU; for -12 enable Above 4G Decoding (and "      \
	"Resizable BAR) in the system firmware; otherwise install the linux-firmware of the "       \
	"kernel's release or revert the update after which it began, update-initramfs -u, reboot"

/* What i915 and xe put before a GT's message, each part optional (5.x's
 * DRM_ERROR has no address): "xe 0000:03:00.0: [drm] *ERROR* Tile0: GT0: ",
 * i915's "[drm] *ERROR* GT0: ", Intel's backports' "GT0 [GUC COMMUNICATION] ",
 * xe's SR-IOV "VF: ", "[drm:func [i915]] *ERROR* ". Groups: 2 the driver,
 * 3 the GPU, 6 the driver of the function tag; the message's are 13 on. */
#define INTEL_GT_PREFIX                                                                            \
	"((i915|xe) (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[(i915|xe)\\]\\] )?(\\*ERROR\\* )?"    \
	"((PF|VF): )?(Tile[0-9]+: )?(GT[0-9]+( \\[[A-Z ]+\\])?:? )?"
/* i915's forcewake acks that did not come (intel_uncore.c, every
 * kernel's wording). Groups: 2 the driver, 3 the GPU, 10 the domain, 11
 * the message. */
#define INTEL_FORCEWAKE_TIMEOUT                                                                    \
	"((i915|xe) (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] )?(\\*ERROR\\* )?(GT[0-9]+( \\[[A-Z ]+\\])?:? )?" \
	"(([a-z]+[0-9]*): )?([Tt]imed out waiting for forcewake (old )?(ack to clear|ack request|to ack "   \
	"request)|MMIO unreliable \\(forcewake register returns 0xFFFFFFFF\\)|Device is non-operational; MMIO " \
	"access returns 0xFFFFFFFF)"
#define FIX_INTEL_GUC                                                                              \
	"install the linux-firmware of the kernel's release (its i915/ or xe/ GuC, HuC and GSC "     \
	"files must suit the kernel), or revert the kernel or firmware update after which it "      \
	"began; update-initramfs -u and reboot"
/* Every header lx_oops_read reads a report from (the rows that add a code
 * to an oops's LXG151 for what its trace shows take them all). */
#define OOPS_ANY_HEADER                                                                            \
	"^(WARNING: (CPU: |at |.* at .*CPU#)|RIP: |EIP: |pc : |Call [Tt]race:)|^.{0,24}(BUG: |general "    \
	"protection fault|kernel BUG at |Internal error: Oops|Oops: |Unable to handle kernel |SError "  \
	"Interrupt on CPU)|^IP: "                                                                        \
	"|^INFO: task .* blocked for more than |^(rcu: )?INFO: .*(self-detected stall|detected "         \
	"(expedited )?stalls) on CPU"
#define FIX_INTEL_HANG                                                                             \
	"restart the programs using the GPU; if it recurs, update the kernel, linux-firmware "       \
	"(GuC/HuC) and the media or compute runtime in the container together, or revert the "     \
	"update after which it began"
#define FIX_INTEL_WEDGED                                                                           \
	"stop what uses the GPU and reboot the host (xe: or rebind the driver); if it recurs, "    \
	"update the kernel and linux-firmware together, or revert the update after which it began"
#define FIX_INTEL_SRIOV                                                                            \
	"use the same driver on both sides: the PF's i915-sriov-dkms or xe and the VF's driver "   \
	"in the guest of the same release, the GuC firmware in SR-IOV mode on the host "           \
	"(i915.enable_guc=3 or xe's PF mode), then recreate the VFs and restart the guest"

/* amdgpu's and radeon's errors by IP block (the rows "amdgpu-error-*" at
 * the catalogue's end). The DRM_ERROR form: "[drm:FUNC [amdgpu]] *ERROR* "
 * (before 4.x without the module; DRM_DEV_ERROR after the address),
 * FUNCS the prefixes of the block's functions (no parentheses in them:
 * the groups below count on it). The dev_err/drm_err form: the GPU's line
 * that names the block (WORDS) and says it failed (AMD_FAIL; dev_info
 * lines of a working GPU do neither). Groups: 3 and 12 the GPU, 6 the
 * function, 9 the driver of the module tag, 10 and 17 the message, 18
 * and 21 the block's word. */
#define AMD_FAIL                                                                                   \
	"[Ff]ail|FAIL|[Tt]ime ?out|[Tt]imed out|TIMEOUT|not respond|[Hh]ung|[Hh]ang|\\*ERROR\\*|"   \
	"[Cc]ould not|[Cc]ouldn't|[Cc]annot|[Uu]nable to|[Ee]rror scheduling|[Ee]rror initializing|"   \
	"[Ee]rror starting|[Ee]rror flushing|[Ee]rror processing|[Ee]rror disabling|[Ee]rror getting|" \
	"[Ee]rror setting|[Ee]rror adding"
#define AMD_ERROR_FN(FUNCS)                                                                        \
	"((amdgpu|radeon) (" BDF "): )?((amdgpu|radeon): )?\\[drm:((" FUNCS ")[a-z0-9_.]*)"             \
	"( \\[(amdgpu|radeon)\\]| \\[amdkfd\\])?\\] \\*ERROR\\* (.+)"
#define AMD_ERROR_OF(FUNCS, WORDS)                                                                 \
	AMD_ERROR_FN(FUNCS) "|(amdgpu|radeon) (" BDF "): ((amdgpu|radeon): )?(\\[drm\\] )?"            \
	"(\\*ERROR\\* )?(.*(" WORDS ").*(" AMD_FAIL ").*|.*(" AMD_FAIL ").*(" WORDS ").*)"
#define AMD_ERROR_FLAGS (LX_KMSG_FALLBACK | LX_KMSG_RESTATES | LX_KMSG_SOLE_AMDGPU)
#define AMD_ERROR_FIELDS                                                                           \
	{{"gpu", 3}, {"where", 6}, {"driver", 9}, {"message", 10}, {"gpu", 12}, {"message", 17},     \
	 {"where", 18}, {"where", 21}}
#define AMD_ERROR_SOURCE                                                                           \
	"drivers/gpu/drm/drm_print.c __drm_err() (DRM_ERROR): printk(KERN_ERR \"[drm:%ps] *ERROR* "   \
	"%pV\") (before 4.x [drm:%s] with __func__); dev_err(adev->dev, ...): \"%s %s: %pV\" "         \
	"(amdgpu's amdgpu: prefix after the address; drm_dev_printk()'s DRM_DEV_ERROR puts "         \
	"[drm:%ps] *ERROR* and __drm_printk()'s drm_err [drm] *ERROR* there); "                        \
	"every error of drivers/gpu/drm/amd/amdgpu and drivers/gpu/drm/radeon is one of these, its "  \
	"function (or the block its text names) the IP block's: amdgpu_psp.c and psp_v*.c psp_*(), "  \
	"amdgpu_smu.c and smu_v*.c smu_*(), the powerplay hwmgr's and *_ppt.c's, amdgpu_mes.c and "    \
	"mes_v*.c, gfx_v*.c, sdma_v*.c, vcn_v*.c, uvd_v*.c, vce_v*.c, jpeg_v*.c, gmc_v*.c "            \
	"*_flush_gpu_tlb(), display/ dm_*() and dc_*(), " \
	"amdgpu_device.c amdgpu_device_ip_*(), radeon's r600.c, evergreen.c, si.c, cik.c *_startup(), " \
	"*_ring_test(), *_ib_test()"
/* The general i915/xe rows' parts (the last rows of the table). drm_err's
 * "i915 0000:00:02.0: [drm] *ERROR* " (xe: "xe ..."): groups 1 the driver,
 * 2 the GPU; the message is group 3. */
#define INTEL_ERR_DEV "(i915|xe) (" BDF "): \\[drm\\] \\*ERROR\\* "
/* what gt_err, guc_err, xe_gt_err and xe_tile_err put first ("PF: Tile0:
 * GT0: ", the backports' "GT0 [GUC COMMUNICATION] "): 5 groups; _REQ (4
 * groups): a GT named */
#define INTEL_GT_TAG "((PF|VF): )?(Tile[0-9]+: )?(GT[0-9]+( \\[[A-Z ]+\\])?:? )?"
#define INTEL_GT_TAG_REQ "((PF|VF): )?(Tile[0-9]+: )?GT[0-9]+( \\[[A-Z ]+\\])?:? "
/* DRM_ERROR's "[drm:func [i915]] *ERROR* " (DRM_DEV_ERROR: after the
 * address) of a function whose name begins with one of FUNCS: groups 1-3
 * the address part (3 the GPU, 2 the driver), 4 the function, 6 the driver */
#define INTEL_ERR_FUNC(funcs)                                                                      \
	"((i915|xe) (" BDF "): )?\\[drm:((" funcs ")[a-z0-9_.]*) \\[(i915[a-z_]*|xe)\\]\\] \\*ERROR\\* "
/* words that say a message is about a failure (one group) */
#define INTEL_FAILED                                                                               \
	"([Ff]ail|FAIL|[Tt]imed ?out|TIMEOUT|[Tt]imeout|[Ee]rror|[Ii]nvalid|[Uu]nexpected|[Uu]nable|"   \
	"[Cc]an't|[Cc]annot|[Cc]ouldn't|[Nn]o response|[Nn]o reply|[Nn]ot enabled|[Nn]ot complete|"     \
	"[Nn]ot ready|[Nn]ot bound|[Nn]ot loaded|[Nn]ot running|[Nn]ot supported|[Nn]ot responding|"     \
	"[Nn]ot found|[Nn]ot started|[Nn]ot verified|[Nn]ot valid|[Ll]ost|[Ww]edged|[Hh]ang|[Hh]ung|[Cc]orrupt|"      \
	"[Mm]ismatch|[Ii]llegal|[Ee]xception|[Cc]rash|[Bb]ad |[Ww]rong|[Tt]oo small|[Tt]oo big|"          \
	"[Tt]oo old|[Tt]runcated|[Rr]efus|[Rr]eject|[Aa]bort|[Ss]tuck|-E[A-Z]+|\\(-[0-9]+\\)|"             \
	"[Ee]rr[=:]? ?-[0-9]+|ret ?= ?-[0-9]+)"
/* the GuC, HuC and GSC firmwares and their memory, and what i915_driver.c
 * and xe_device.c set up at probe (GGTT, DMA mask, LMEM/VRAM; one group) */
#define INTEL_UC                                                                                   \
	"(GUC|GuC|HuC|HUC| huc |GSC|WOPCM|SLPC|hwconfig| uC |GGTT|PPGTT|DMA mask|[Ww]orkqueue|LMEM|VRAM)"
/* the GT's engines and their wake-ups, as 5.8-6.3's drm_err says them
 * without the GT prefix ("rcs0 reset request timed out"; one group) */
#define INTEL_GT_WORK "([Ff]orcewake|(^|[^a-z])(rcs|bcs|vcs|vecs|ccs)[0-9]|[Ee]ngine|GPU hang|[Rr]ing buffer)"
/* the GuC at work: its command channel, engine resets, its crashes (one group) */
#define INTEL_GUC_WORK                                                                             \
	"(CT: |CT read|CT write|G2H|H2G|CTB|[Ee]ngine reset|[Cc]rash dump|[Ee]xception notification|"  \
	"[Ff]irmware exception|TLB invalidation|guc_id|ctx_id|sched_state)"
/* a power transition (one group) */
#define INTEL_PM "([Ss]uspend|[Rr]esume|[Hh]ibernat|[Ff]reeze|[Tt]haw|D0 power state)"

static const struct lx_kmsg_entry catalogue[] = {
	{"api-mismatch",
	 "NVRM: API mismatch: the client '([^']*)'( \\(pid ([0-9]+)\\))?( has the version ([^ ,]+), but "
	 "this kernel module has the version ([0-9][0-9.]*[0-9]))?",
	 LXG100_API_MISMATCH, LX_SEVERITY_ERROR,
	 "the program '{client}' (pid {pid}) brings userspace driver {client_version}, the loaded "
	 "kernel module is {module_version}: the module refuses it (often a container's libraries "
	 "after a host driver update)",
	 "give that program's root the module's version {module_version} of the userspace driver (a "
	 "container: `lxgpu doctor CTID` names its libraries), or reboot into the module "
	 "{client_version}",
	 LX_KMSG_RECORDS | LX_KMSG_SOLE_NVIDIA,
	 {{"client_version", 5}, {"module_version", 6}, {"client", 1}, {"pid", 3}, {"gpu", 0}},
	 "src/nvidia/arch/nvalloc/unix/src/osapi.c (the client's version check): \"NVRM: API "
	 "mismatch: the client '%s' (pid %u)\\nNVRM: has the version %s, but this kernel module "
	 "has\\nNVRM: the version %s.  Please make sure that this\\n...\"; its first record alone (a "
	 "grep): \"NVRM: API mismatch: the client '%s' (pid %u)\""},
	{"api-mismatch-old",
	 "NVRM: API mismatch: the client has the version ([^ ,]+), but( this kernel module has the "
	 "version ([0-9][0-9.]*[0-9]))?",
	 LXG100_API_MISMATCH, LX_SEVERITY_ERROR,
	 "a program brings userspace driver {client_version}, the loaded kernel module is "
	 "{module_version}: the module refuses it (often a container's libraries after a host "
	 "driver update)",
	 "give that program's root the module's version {module_version} of the userspace driver (a "
	 "container: `lxgpu doctor CTID` names its libraries), or reboot into the module "
	 "{client_version}",
	 LX_KMSG_RECORDS | LX_KMSG_SOLE_NVIDIA, {{"client_version", 1}, {"module_version", 3}, {"gpu", 0}},
	 "the same check before the driver named the client (up to the 550 branch): \"NVRM: API "
	 "mismatch: the client has the version %s, but\\nNVRM: this kernel module has the version "
	 "%s.  Please\\n...\"; its first record alone (a grep): \"NVRM: API mismatch: the client has "
	 "the version %s, but\""},
	/* 595 checks each ioctl's number and size before it runs it: a
	 * number it does not know, or a structure of another size, comes from
	 * a program built for another driver's interface */
	{"nvidia-ioctl-invalid",
	 "NVRM: ?(unknown NVRM ioctl command: (0x[0-9a-fA-F]+)|invalid ([0-9]+) structure size"
	 "(, expected ([0-9]+), got ([0-9]+))?!)",
	 LXG100_API_MISMATCH, LX_SEVERITY_WARNING,
	 "a program called the nvidia module with a request it does not know or of another size "
	 "(\"{what}\"): the module refused it, so the program fails; such a program was built for "
	 "another driver version's interface (most often a container's userspace driver of another "
	 "version than the host's module)",
	 "give the program's root the module's version of the userspace driver (a container: `lxgpu "
	 "doctor CTID` names its libraries), or update the program",
	 LX_KMSG_SOLE_NVIDIA | LX_KMSG_NVRM_REQUIRED, {{"what", 1}, {"gpu", 0}},
	 "kernel-open/nvidia/nv.c nv_validate_ioctls() (595.45.04): nv_printf(NV_DBG_ERRORS, "
	 "\"NVRM:unknown NVRM ioctl command: 0x%x\\n\", arg_cmd) for a number in none of the ioctl "
	 "tables, nv_printf(NV_DBG_ERRORS, \"NVRM: invalid %d structure size, expected %d, got "
	 "%d!\\n\") for a known one of another size (also osapi.c rm_validate_ioctls() and "
	 "escape.c RmValidateIoctl() for the RM's ioctls), escape.c: \"NVRM: invalid %d structure "
	 "size!\\n\" for an NV_ESC_RM_ALLOC of neither size; nvidia_ioctl() then fails the call"},
	/* nvidia-modeset and nvidia-drm check the module they load on */
	{"module-version-mismatch",
	 "(nvidia-modeset: |\\[nvidia-drm\\] )Version mismatch: (nvidia(-modeset)?\\.ko)\\(([^)]*)\\) "
	 "(nvidia-(modeset|drm)(\\.ko)?)\\(([^)]*)\\)",
	 LXG100_API_MISMATCH, LX_SEVERITY_ERROR,
	 "{client} is version {client_version}, the loaded {module} is {module_version}: {client} "
	 "refuses to load (NVIDIA modules of two driver versions: one upgraded on disk while the old "
	 "one stays loaded, or a DKMS build that failed for one of them); no nvidia-modeset or "
	 "nvidia-drm, so no /dev/dri node and no display on the GPU",
	 "install one driver version for every NVIDIA module (dkms status; rebuild for this kernel), "
	 "then unload and load them again (rmmod nvidia_drm nvidia_modeset nvidia_uvm nvidia; "
	 "modprobe nvidia_drm) or reboot",
	 LX_KMSG_SOLE_NVIDIA,
	 {{"client_version", 8}, {"module_version", 4}, {"client", 5}, {"module", 2}, {"gpu", 0}},
	 "kernel-open/nvidia-modeset/nvidia-modeset-linux.c nvkms_alloc_rm(): printk(KERN_ERR "
	 "NVKMS_LOG_PREFIX \"Version mismatch: nvidia.ko(%s) nvidia-modeset.ko(%s)\\n\") when "
	 "nvidia_get_rm_ops() refuses another version (NVKMS_LOG_PREFIX \"nvidia-modeset: \"); "
	 "kernel-open/nvidia-drm/nvidia-drm.c nv_drm_init(): NV_DRM_LOG_ERR(\"Version mismatch: "
	 "nvidia-modeset.ko(%s) nvidia-drm.ko(%s)\"), printed as \"[drm:nv_drm_init [nvidia_drm]] "
	 "*ERROR* [nvidia-drm] Version mismatch: ...\""},
	{"open-module-required",
	 "NVRM: The NVIDIA GPU (" BDF ")( \\(PCI ID: ([0-9a-fA-F:]+)\\))? installed in this system "
	 "requires use of the NVIDIA open kernel modules",
	 LXG101_NEEDS_OPEN_MODULE, LX_SEVERITY_ERROR,
	 "the GPU (PCI ID {pci_id}; Blackwell or later) is driven by the open kernel modules only; "
	 "the proprietary module is loaded",
	 "install the open flavour of the same driver (nvidia-open, or the .run file's "
	 "--kernel-module-type=open)",
	 LX_KMSG_RECORDS, {{"gpu", 1}, {"pci_id", 3}},
	 "the proprietary module's probe (its RM is not in open-gpu-kernel-modules): \"NVRM: The "
	 "NVIDIA GPU %04x:%02x:%02x.%x (PCI ID: %04x:%04x)\\nNVRM: installed in this system "
	 "requires use of the NVIDIA open kernel modules.\""},
	{"open-module-no-gsp",
	 "NVRM: The NVIDIA GPU (" BDF ") \\(PCI ID: ([0-9a-fA-F:]+)\\) installed in this system is "
	 "not supported by open nvidia.ko because it does not include the required GPU System "
	 "Processor",
	 LXG102_NO_GSP, LX_SEVERITY_ERROR,
	 "the GPU (PCI ID {pci_id}) is older than Turing and has no GSP; the open kernel modules "
	 "cannot drive it",
	 "install the proprietary kernel module, of a branch that still supports this GPU",
	 LX_KMSG_RECORDS, {{"gpu", 1}, {"pci_id", 2}},
	 "src/nvidia/arch/nvalloc/unix/src/osapi.c rm_is_supported_device(): \"NVRM: The NVIDIA "
	 "GPU %04x:%02x:%02x.%x (PCI ID: %04x:%04x)\\nNVRM: installed in this system is not "
	 "supported by open\\nNVRM: nvidia.ko because it does not include the required "
	 "GPU\\nNVRM: System Processor (GSP).\\n...\""},
	/* the sentence is nv's alone: a paste that lost the "NVRM: " prefix counts */
	{"open-module-unsupported-gpu", "(NVRM: )?Open nvidia.ko is only ready for use on Data Center GPUs",
	 LXG115_OPEN_UNSUPPORTED, LX_SEVERITY_ERROR,
	 "this open module (before 555) drives data-center GPUs only unless told otherwise",
	 "set `options nvidia NVreg_OpenRmEnableUnsupportedGpus=1` (/etc/modprobe.d), or install 555 "
	 "or later",
	 0, {{NULL, 0}},
	 "open-gpu-kernel-modules 515 to 550, src/nvidia/arch/nvalloc/unix/src/osapi.c: \"NVRM: "
	 "Open nvidia.ko is only ready for use on Data Center GPUs.\\n\"; as pasted without the "
	 "prefix: \"Open nvidia.ko is only ready for use on Data Center GPUs.\""},
	{"legacy-branch",
	 "NVRM: The NVIDIA (.+) GPU installed in this system.*supported through the NVIDIA "
	 "([0-9]+\\.xx) Legacy drivers.*The ([0-9][0-9.]*[0-9]) NVIDIA driver will ignore",
	 LXG103_UNSUPPORTED_GPU, LX_SEVERITY_ERROR,
	 "the {model} is supported by the {branch} legacy driver branch only: the {driver_version} "
	 "driver ignores it",
	 "install the {branch} legacy driver (kernel module and userspace; the distribution's "
	 "nvidia-{branch} packages) on the host and the same version in the containers",
	 LX_KMSG_RECORDS, {{"branch", 2}, {"model", 1}, {"driver_version", 3}},
	 "rm_is_legacy_device() of the proprietary RM (a stub in open-gpu-kernel-modules' osapi.c), "
	 "as public reports quote it: \"NVRM: The NVIDIA %s GPU installed in this system is\\nNVRM:  "
	 "supported through the NVIDIA %s Legacy drivers. Please\\nNVRM:  visit "
	 "http://www.nvidia.com/object/unix.html for more\\nNVRM:  information.  The %s NVIDIA "
	 "driver will ignore\\nNVRM:  this GPU.  Continuing probe...\""},
	{"unsupported-by-release",
	 "NVRM: The NVIDIA GPU (" BDF ") \\(PCI ID: ([0-9a-fA-F:]+)\\) installed in this system is "
	 "not supported by the (NVIDIA ([0-9][0-9.]*[0-9])|([0-9][0-9.]*[0-9]) NVIDIA( Linux)?( "
	 "graphics)?) driver release",
	 LXG103_UNSUPPORTED_GPU, LX_SEVERITY_ERROR,
	 "the {driver_version} driver release does not support this GPU (PCI ID {pci_id})",
	 "install a branch that lists the GPU in its README's supported products (a newer one for a "
	 "new GPU, a legacy branch for an old one)",
	 LX_KMSG_RECORDS, {{"gpu", 1}, {"pci_id", 2}, {"driver_version", 4}},
	 "src/nvidia/arch/nvalloc/unix/src/osapi.c rm_is_supported_device(), print_unsupported: "
	 "\"NVRM: The NVIDIA GPU %04x:%02x:%02x.%x (PCI ID: %04x:%04x)\\nNVRM: installed in this "
	 "system is not supported by the\\nNVRM: NVIDIA %s driver release.\\n...\""},
	{"no-gpu-found", "NVRM: No NVIDIA (GPU|graphics adapter|PCI devices) found|NVRM: No NVIDIA devices probed",
	 LXG125_NO_GPU,
	 LX_SEVERITY_WARNING,
	 "the nvidia module found no GPU it drives (a GPU of a legacy branch, GPUs held by another "
	 "driver, or none) and did not load",
	 "see the messages before it: a legacy branch to install, a driver to blacklist", 
	 LX_KMSG_NVIDIA_MISSING, {{NULL, 0}},
	 "kernel-open/nvidia/nv.c nvidia_init_module(): \"NVRM: No NVIDIA GPU found.\\n\" (older "
	 "drivers: \"NVRM: No NVIDIA graphics adapter found!\\n\"), \"NVRM: No NVIDIA devices "
	 "probed.\\n\" when no GPU was probed (none there, or each held by another driver or "
	 "refused); nv_drivers_init(): \"NVRM: No NVIDIA PCI devices found.\\n\" when registering "
	 "the PCI driver failed (515+)"},
	{"legacy-ignored", "NVRM: ignoring the legacy GPU (" BDF ")", LXG103_UNSUPPORTED_GPU,
	 LX_SEVERITY_ERROR,
	 "the GPU belongs to a legacy driver branch: this driver ignores it",
	 "install the legacy branch that supports the GPU (NVIDIA's legacy GPU list; 580.xx for "
	 "Maxwell, Pascal and Volta), kernel module and userspace alike",
	 0, {{"gpu", 1}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_probe(): \"NVRM: ignoring the legacy GPU "
	 "%04x:%02x:%02x.%x\\n\""},
	{"probe-failed-count",
	 "NVRM: (The NVIDIA probe routine failed for ([0-9]+) device\\(s\\)|None of the NVIDIA devices "
	 "were initialized)",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the nvidia module could not take the GPUs it probed ({count} failed)",
	 "look at the messages before it about each GPU (BAR, GSP, another driver)", 0,
	 {{"count", 2}},
	 "kernel-open/nvidia/nv.c nvidia_init_module(): \"NVRM: The NVIDIA probe routine failed for "
	 "%d device(s).\\n\", \"NVRM: None of the NVIDIA devices were initialized.\\n\""},
	/* "0M @ 0x0": BAR0 has no address, nothing else holds it */
	{"request-mem-region-unassigned",
	 "NVRM: request_mem_region failed for 0M @ 0x0+([^0-9a-fA-F]|$)",
	 LXG104_BAR_UNASSIGNED, LX_SEVERITY_ERROR,
	 "the GPU's registers (BAR0) have no address (request_mem_region failed for 0M @ 0x0): the "
	 "firmware or the kernel left the BAR unassigned, or the GPU was powered off (a laptop's "
	 "switched-off GPU: bbswitch, a hybrid-graphics switch) when nvidia probed it; the driver "
	 "cannot use the GPU",
	 "keep the GPU powered when nvidia loads (no bbswitch or GPU switcher turning it off); enable "
	 "Above 4G Decoding (and Resizable BAR) in the firmware setup; else add pci=realloc to the "
	 "kernel command line",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 0}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_probe(): \"NVRM: request_mem_region failed for %lluM @ "
	 "0x%llx. This can\\nNVRM: occur when a driver such as rivatv is loaded and claims\\nNVRM: "
	 "ownership of the device's registers.\\n\" with BAR0's start and size "
	 "(NV_PCI_RESOURCE_START/SIZE of NV_GPU_BAR_INDEX_REGS): both 0 when the BAR has no address"},
	{"request-mem-region",
	 "NVRM: request_mem_region failed for ([0-9]+)M @ 0x([0-9a-fA-F]+)",
	 LXG111_BOUND_ELSEWHERE, LX_SEVERITY_ERROR,
	 "another driver claims the GPU's registers ({size}M @ 0x{address}): nvidia cannot map them",
	 "find the driver that holds the region (grep in /proc/iomem; a framebuffer driver or "
	 "nouveau), blacklist it, then reboot",
	 LX_KMSG_SOLE_NVIDIA, {{"size", 1}, {"address", 2}, {"gpu", 0}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_probe(): \"NVRM: request_mem_region failed for %lluM @ "
	 "0x%llx. This can\\nNVRM: occur when a driver such as rivatv is loaded and claims\\nNVRM: "
	 "ownership of the device's registers.\\n\""},
	{"no-irq", "NVRM: Can't find an IRQ for your NVIDIA card", LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the firmware gave the GPU no interrupt: the driver cannot use it",
	 "in the firmware setup: Plug & Play OS off, Assign IRQ to VGA on (as the driver says); "
	 "check the slot",
	 0, {{NULL, 0}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_probe(): \"NVRM: Can't find an IRQ for your NVIDIA "
	 "card!\\n\""},
	{"irq-request-failed",
	 "NVRM: GPU (" BDF "): (request_irq\\(\\) failed( \\((-?[0-9]+)\\)|$)|No interrupts of any type are "
	 "available\\. Cannot use this GPU)",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the driver got no interrupt for the GPU when a program opened it (request_irq() failed, or "
	 "no MSI, MSI-X or legacy interrupt was there): nvidia-smi and CUDA cannot use the GPU",
	 "error -16 (EBUSY): another driver holds the GPU's legacy interrupt line and does not share "
	 "it (the line before names the IRQ): unload that driver or move the card to another slot; in "
	 "a VM, give the GPU MSI or MSI-X (the hypervisor's PCI passthrough settings); in the firmware "
	 "setup, Assign IRQ to VGA on; update the system firmware",
	 0, {{"gpu", 1}, {"error", 4}},
	 "kernel-open/nvidia/nv.c nv_start_device(): NV_DEV_PRINTF(NV_DBG_ERRORS, nv, \"request_irq() "
	 "failed (%d)\\n\", rc) (for -EBUSY after \"Tried to get IRQ %d, but another driver\\nNVRM: has "
	 "it and is not sharing it.\\n\"), and NV_DEV_PRINTF(NV_DBG_ERRORS, nv, \"No interrupts of any "
	 "type are available. Cannot use this GPU.\\n\"), with NV_DEV_PRINTF's prefix \"NVRM: GPU "
	 "%04x:%02x:%02x.%x: \""},
	/* The vGPU host driver refuses a GPU's SR-IOV virtual functions when
	 * the IOMMU is off: no vGPU for VMs on Ampere and later. */
	{"vgpu-vf-no-iommu",
	 "NVRM: Aborting probe for VF (" BDF ") since IOMMU is not present on the system",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the nvidia vGPU host driver refused the GPU's SR-IOV virtual function {gpu} because the "
	 "IOMMU is off: no vGPU (mediated device) for virtual machines on this GPU",
	 "turn the IOMMU on: VT-d or AMD-Vi (IOMMU) in the firmware setup, intel_iommu=on on the "
	 "kernel command line of an Intel host (not iommu=off or amd_iommu=off), reboot, then enable "
	 "the virtual functions again (sriov-manage -e ALL)",
	 0, {{"gpu", 1}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_probe() (vGPU host builds, 515 on): "
	 "nv_printf(NV_DBG_ERRORS, \"NVRM: Aborting probe for VF %04x:%02x:%02x.%x since IOMMU is not "
	 "present on the system.\\n\", ...)"},
	{"pci-enable-failed", "NVRM: pci_enable_device failed, aborting", LXG106_INIT_FAILED,
	 LX_SEVERITY_ERROR, "the kernel could not enable the GPU's PCI device",
	 "look at the PCI core's messages about the GPU before it (BARs, power state); reseat the "
	 "card or update the system firmware",
	 LX_KMSG_NVRM_REQUIRED, {{NULL, 0}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_probe(): \"NVRM: pci_enable_device failed, "
	 "aborting\\n\""},
	{"probe-not-called",
	 "NVRM: The NVIDIA probe routine was not called for ([0-9]+) device\\(s\\)",
	 LXG111_BOUND_ELSEWHERE, LX_SEVERITY_ERROR,
	 "another driver ({driver}) obtained {count} NVIDIA device(s) before nvidia loaded: nvidia "
	 "never probed them",
	 FIX_BLACKLIST, LX_KMSG_OWNER_FROM_LOG, {{"count", 1}, {"driver", 0}},
	 "kernel-open/nvidia/nv.c nvidia_init_module(): \"NVRM: The NVIDIA probe routine was not "
	 "called for %d device(s).\\n\" then \"NVRM: This can occur when another driver was loaded "
	 "and \\nNVRM: obtained ownership of the NVIDIA device(s).\\n\" (older drivers: \"when a "
	 "driver such as nouveau, rivafb,\\nNVRM: nvidiafb, or rivatv was loaded and obtained "
	 "ownership of\\n...\")"},
	{"pci-region-invalid",
	 "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:?( BAR([0-9]+) is "
	 "([0-9]+)M @ 0x([0-9a-fA-F]+) \\(PCI:(" BDF ")\\))|"
	 "(NVRM: |^)BAR([0-9]+) is ([0-9]+)M @ 0x([0-9a-fA-F]+) \\(PCI:(" BDF ")\\)",
	 LXG104_BAR_UNASSIGNED, LX_SEVERITY_ERROR,
	 "the firmware did not give the GPU's BAR{bar} an address (BAR{bar} is {bar_size}M @ "
	 "0x{bar_address}): the driver cannot use the GPU",
	 "enable Above 4G Decoding (and Resizable BAR) in the firmware setup; else add pci=realloc to "
	 "the kernel command line",
	 LX_KMSG_RECORDS,
	 {{"gpu", 5}, {"bar", 2}, {"bar_size", 3}, {"bar_address", 4}, {"gpu", 10}, {"bar", 7},
	  {"bar_size", 8}, {"bar_address", 9}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_validate_bars(): \"NVRM: This PCI I/O region assigned "
	 "to your NVIDIA device is invalid:\\nNVRM: BAR%d is %lluM @ 0x%llx "
	 "(PCI:%04x:%02x:%02x.%x)\\n\"; its second record alone (a grep): \"NVRM: BAR%d is %lluM @ "
	 "0x%llx (PCI:%04x:%02x:%02x.%x)\\n\""},
	/* the first record without the BAR record after it (a grep, a paste
	 * of one line): which BAR is not said, the GPU is the probe's after it */
	{"pci-region-invalid-alone", "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid",
	 LXG104_BAR_UNASSIGNED, LX_SEVERITY_ERROR,
	 "the firmware did not give a BAR of the NVIDIA GPU a valid address (the record naming which "
	 "did not come with this line): the driver cannot use the GPU",
	 "enable Above 4G Decoding (and Resizable BAR) in the firmware setup; else add pci=realloc to "
	 "the kernel command line",
	 0, {{NULL, 0}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_validate_bars(): \"NVRM: This PCI I/O region assigned "
	 "to your NVIDIA device is invalid:\\n\" (the BAR record after it missing)"},
	/* one record of four lines: a paste without the stamps (dmesg
	 * --notime, journalctl -o cat) shows them unindented, as records */
	{"bar-64bit-no-window",
	 "NVRM: This is a 64-bit BAR mapped above 4GB by the system BIOS or the [A-Za-z]+ kernel, but "
	 "the PCI bridge immediately upstream of this GPU does not define a matching prefetchable "
	 "memory window",
	 LXG104_BAR_UNASSIGNED, LX_SEVERITY_ERROR,
	 "the firmware put a GPU's 64-bit BAR above 4 GB, but the bridge above the GPU has no "
	 "prefetchable window there: the driver refuses the GPU (its probe fails)",
	 "enable Above 4G Decoding (and Resizable BAR) in the firmware setup and update the system "
	 "firmware; else add pci=realloc to the kernel command line",
	 LX_KMSG_RECORDS, {{NULL, 0}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_validate_bars() (nv_pci_probe() in older drivers): "
	 "nv_printf(NV_DBG_ERRORS, \"NVRM: This is a 64-bit BAR mapped above 4GB by the system\\n"
	 "NVRM: BIOS or the %s kernel, but the PCI bridge\\nNVRM: immediately upstream of this GPU "
	 "does not define\\nNVRM: a matching prefetchable memory window.\\n\", NV_KERNEL_NAME) (older "
	 "drivers: \"... the Linux kernel ...\" in one message with \"This may be due to a known Linux "
	 "kernel bug\")"},
	{"pci-bar-no-space",
	 "pci (" BDF "): (BAR ([0-5]) \\[mem size (0x[0-9a-fA-F]+)[^]]*\\]: (can't assign; no space|failed "
	 "to assign)|BAR ([0-5]): (no space for|failed to assign)( \\[mem size (0x[0-9a-fA-F]+)|$))",
	 LXG104_BAR_UNASSIGNED, LX_SEVERITY_WARNING,
	 "the kernel found no address space for the GPU's BAR{bar} ({size} bytes): the window the "
	 "firmware gave its bridge is too small",
	 "enable Above 4G Decoding (and Resizable BAR) in the firmware setup; else add pci=realloc to "
	 "the kernel command line",
	 LX_KMSG_GPU_ONLY, {{"gpu", 1}, {"bar", 3}, {"size", 4}, {"bar", 6}, {"size", 9}},
	 "drivers/pci/setup-res.c pci_assign_resource(): pci_info(\"%s %pR: can't assign; no "
	 "space\\n\") and \"%s %pR: failed to assign\\n\" (before 6.8: \"BAR %d: no space for %pR\" "
	 "and \"BAR %d: failed to assign %pR\"); only for a memory BAR 0-5 of a GPU (BAR 6, the "
	 "ROM, and 7-12, the SR-IOV VFs', leave the GPU working)"},
	/* Enabling a GPU's SR-IOV virtual functions (AMD MxGPU, Intel's SR-IOV
	 * GPUs, NVIDIA's vGPU on Ampere and newer): the firmware left the VF
	 * BARs no address space, so the VFs are not created. */
	{"pci-sriov-no-space",
	 "([a-z0-9_-]+) (" BDF "): (not enough MMIO resources for SR-IOV|SR-IOV: bus number out of range|"
	 "can't enable [0-9]+ VFs \\(bus [0-9a-fA-F]+ out of range|SR-IOV: IOV BARS not allocated)",
	 LXG104_BAR_UNASSIGNED, LX_SEVERITY_ERROR,
	 "the kernel could not enable the GPU's SR-IOV virtual functions ({what}): the firmware gave "
	 "their BARs (or bus numbers) no room, so no VF exists to give to VMs or containers (vGPU, "
	 "SR-IOV); the GPU itself ({driver}) keeps working",
	 "enable SR-IOV, Above 4G Decoding (and Resizable BAR) in the firmware setup and update the "
	 "system firmware; else add pci=realloc (pci=assign-busses for bus numbers) to the kernel "
	 "command line",
	 LX_KMSG_PCI_GPU, {{"gpu", 2}, {"driver", 1}, {"what", 3}},
	 "drivers/pci/iov.c sriov_enable(): pci_err(dev, \"not enough MMIO resources for "
	 "SR-IOV\\n\") (dev_err before 4.x pci_err), pci_err(dev, \"SR-IOV: bus number out of "
	 "range\\n\"); 5.x and later also pci_iov_add_virtfn()'s caller: pci_err(dev, \"can't enable %d "
	 "VFs (bus %02x out of range of %pR)\\n\"); 6.x pci_err(dev, \"SR-IOV: IOV BARS not "
	 "allocated\\n\") when pci_enable_resources() fails for the VF BARs; counted for a device the log "
	 "shows to be a GPU"},
	/* Writing sriov_numvfs of a GPU whose driver cannot make VFs: on an
	 * Intel iGPU the kernel's own i915 (i915-sriov-dkms not loaded). The
	 * boot's "i915: unknown parameter 'max_vfs' ignored" alone is no
	 * finding: hosts that do not use the VFs print it and work. */
	{"gpu-sriov-no-pf-driver",
	 "([a-z0-9_-]+) (" BDF "): ([Dd]river (does not|doesn't) support (SR-IOV|SRIOV) configuration via "
	 "sysfs|no driver bound to device; cannot configure SR-IOV)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the GPU's SR-IOV virtual functions could not be created ({what}; driver: {driver}): no VF "
	 "exists to give to VMs or containers; on an Intel iGPU (Tiger Lake, Alder Lake, Raptor "
	 "Lake) this is the kernel's own i915, which has no SR-IOV: i915-sriov-dkms is not loaded "
	 "(not built for the running kernel, or another i915 comes first); the GPU's own function is "
	 "not affected",
	 "Intel iGPU: build i915-sriov-dkms for the running kernel (dkms status; install the "
	 "kernel's headers, Proxmox: proxmox-headers-$(uname -r), then dkms autoinstall), check "
	 "that modinfo -n i915 names the dkms module (updates/dkms), update-initramfs -u and reboot, "
	 "then write the count to sriov_numvfs again; an xe GPU: a kernel whose xe supports SR-IOV "
	 "for it; no driver bound: load the GPU's driver first",
	 LX_KMSG_PCI_GPU, {{"gpu", 2}, {"driver", 1}, {"what", 3}},
	 "drivers/pci/iov.c sriov_numvfs_store() (a write to /sys/bus/pci/devices/ADDRESS/"
	 "sriov_numvfs): pci_info(pdev, \"driver does not support SR-IOV configuration via "
	 "sysfs\\n\") when the bound driver has no sriov_configure() (the kernel's i915; "
	 "i915-sriov-dkms and xe have one), pci_info(pdev, \"no driver bound to device; cannot "
	 "configure SR-IOV\\n\"), then -ENOENT (before 5.12, one message for both: 4.19-5.11 "
	 "pci_info(pdev, \"Driver does not support SRIOV configuration via sysfs\\n\"), 4.x "
	 "drivers/pci/pci-sysfs.c dev_info(&pdev->dev, \"Driver doesn't support SRIOV configuration via "
	 "sysfs\\n\"))"},
	{"bar-resize-no-space", "NVRM: No address space to allocate resized BAR1",
	 LXG105_BAR_RESIZE_FAILED, LX_SEVERITY_WARNING,
	 "the driver tried to enlarge BAR1 (resizable BAR) and the bridge above has no room for it",
	 "set `options nvidia NVreg_EnableResizableBar=0`, or give the bridge more address space "
	 "(Above 4G Decoding, pci=realloc)",
	 0, {{NULL, 0}},
	 "kernel-open/nvidia/nv-pci.c nv_resize_pcie_bars(): \"NVRM: No address space to allocate "
	 "resized BAR1.\\n\""},
	{"bar-resize-failed", "NVRM: BAR resizing failed with error `?(-?[0-9]+)",
	 LXG105_BAR_RESIZE_FAILED, LX_SEVERITY_WARNING, "resizing BAR1 (resizable BAR) failed with error {error}",
	 "set `options nvidia NVreg_EnableResizableBar=0`", 0, {{"error", 1}},
	 "kernel-open/nvidia/nv-pci.c nv_resize_pcie_bars(): \"NVRM: BAR resizing failed with error "
	 "`%d`.\\n\""},
	/* amdgpu's own wording: the PCI core could not give BAR0 the VRAM's size */
	{"bar-resize-fatal",
	 "NVRM: (FATAL: Failed to re-allocate BAR1|Fatal Error while attempting to resize PCIe BARs)",
	 LXG105_BAR_RESIZE_FAILED, LX_SEVERITY_ERROR,
	 "resizing the GPU's BARs (resizable BAR) failed and the kernel could not give them back their "
	 "old size: the driver refuses the GPU (its probe fails), nvidia-smi does not list it",
	 "set `options nvidia NVreg_EnableResizableBar=0` (/etc/modprobe.d, then update-initramfs -u) "
	 "and reboot; or give the bridge more address space (Above 4G Decoding, pci=realloc)",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 0}},
	 "kernel-open/nvidia/nv-pci.c nv_resize_pcie_bars(): nv_printf(NV_DBG_ERRORS, \"NVRM: FATAL: "
	 "Failed to re-allocate BAR1.\\n\"), then nv_pci_probe(): nv_printf(NV_DBG_ERRORS, \"NVRM: Fatal "
	 "Error while attempting to resize PCIe BARs.\\n\") and the probe fails"},
	{"gpu-bar-resize-refused",
	 "(xe|i915) (" BDF "): (\\[drm\\] )?(Can't resize (VRAM|LMEM) BAR - platform support is missing|"
	 "Failed to resize BAR[0-9]+ to [0-9]+Mi?B? \\(([^)]*)\\)|Using a reduced BAR size of [0-9]+MiB)",
	 LXG105_BAR_RESIZE_FAILED, LX_SEVERITY_WARNING,
	 "the {driver} driver could not enlarge the GPU's VRAM BAR ({what}): the GPU runs with a small "
	 "BAR, through which the CPU sees only part of its memory: Intel Arc's media and compute "
	 "stacks (transcoding in Jellyfin or Plex containers, Level Zero, OpenVINO) fail or crawl",
	 FIX_SMALL_BAR, 0, {{"gpu", 2}, {"driver", 1}, {"what", 4}},
	 "drivers/gpu/drm/xe/xe_vram.c xe_vram_resize_bar() (6.8-6.14 xe_mmio.c): drm_info(\"Can't "
	 "resize VRAM BAR - platform support is missing. Consider enabling 'Resizable BAR' support in "
	 "your BIOS\\n\"), resize_bar(): drm_info(\"Failed to resize BAR%d to %dM (%pe). Consider "
	 "enabling 'Resizable BAR' support in your BIOS\\n\") (7.0's xe_pci_rebar.c prints MiB); "
	 "drivers/gpu/drm/i915/gt/intel_region_lmem.c i915_resize_lmem_bar(): drm_info(\"Can't resize "
	 "LMEM BAR - platform support is missing\\n\"), setup_lmem(): drm_info(\"Using a reduced BAR "
	 "size of %lluMiB. Consider enabling 'Resizable BAR' or similar, if available in the BIOS.\\n\")"},
	{"amdgpu-bar-resize-refused",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:amdgpu_device_resize_fb_bar( \\[amdgpu\\])?\\] \\*ERROR\\* )?"
	 "(Not enough PCI address space for a large BAR|Problem resizing BAR0( \\((-?[0-9]+)\\)|$))",
	 LXG105_BAR_RESIZE_FAILED, LX_SEVERITY_WARNING,
	 "amdgpu could not enlarge the GPU's VRAM BAR ({what}): the GPU runs with a small BAR, through "
	 "which the CPU sees only part of its memory: ROCm, games and peer-to-peer transfers slow "
	 "down, and with large allocations some programs fail",
	 FIX_SMALL_BAR, LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"what", 6}, {"error", 8}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_resize_fb_bar(): dev_info(adev->dev, "
	 "\"Not enough PCI address space for a large BAR.\") (5.x: DRM_INFO(\"Not enough PCI address "
	 "space for a large BAR.\")) when pci_resize_resource() fails with -ENOSPC, else "
	 "dev_err(adev->dev, \"Problem resizing BAR0 (%d).\") (5.x: DRM_ERROR)"},
	/* The PCI core's own lines of that resize: pci_resize_resource()
	 * reassigns the GPU's BAR while its driver is bound, so the driver's
	 * name prefixes them (at boot, unbound, "pci" does: pci-bar-no-space) */
	{"gpu-bar-resize-no-space",
	 "(amdgpu|i915|xe|nvidia) (" BDF "): (BAR ([0-5]) \\[mem size (0x[0-9a-fA-F]+)[^]]*\\]: (can't "
	 "assign; no space|failed to assign)|BAR ([0-5]): (no space for|failed to assign)( \\[mem size "
	 "(0x[0-9a-fA-F]+)|$))",
	 LXG105_BAR_RESIZE_FAILED, LX_SEVERITY_WARNING,
	 "the {driver} driver tried to enlarge the GPU's BAR{bar} to {size} bytes (resizable BAR) and "
	 "the kernel found no address space for it: the GPU goes on with its small BAR, through which "
	 "the CPU sees only part of its memory (Intel Arc's media and compute stacks fail or crawl; "
	 "ROCm and peer-to-peer transfers slow down)",
	 FIX_SMALL_BAR, 0, {{"gpu", 2}, {"driver", 1}, {"bar", 4}, {"size", 5}, {"bar", 7}, {"size", 10}},
	 "drivers/pci/setup-res.c pci_assign_resource(): pci_info(\"%s %pR: can't assign; no "
	 "space\\n\") and \"%s %pR: failed to assign\\n\" (before 6.8: \"BAR %d: no space for %pR\" "
	 "and \"BAR %d: failed to assign %pR\"), reached from drivers/pci/setup-res.c "
	 "pci_resize_resource() (pci_reassign_bridge_resources()) that amdgpu_device_resize_fb_bar(), "
	 "i915_resize_lmem_bar(), xe's resize_vram_bar() and nvidia's nv_resize_pcie_bars() call; BARs "
	 "0-5 only"},
	{"gsp-firmware-missing", "NVRM: RmFetchGspRmImages: No firmware image found",
	 LXG107_GSP_FIRMWARE_MISSING, LX_SEVERITY_ERROR,
	 "the GSP firmware of the loaded module's version is not on disk (/lib/firmware/nvidia/<version>): "
	 "a driver upgraded or removed without reloading the module, or a module built without its "
	 "firmware package",
	 "reinstall the driver package of the loaded version, or reboot into the module whose "
	 "firmware is installed",
	 0, {{NULL, 0}},
	 "src/nvidia/arch/nvalloc/unix/src/osinit.c RmFetchGspRmImages(): NV_PRINTF(LEVEL_ERROR, "
	 "\"No firmware image found\\n\")"},
	{"gsp-firmware-load-failed",
	 "(nvidia (" BDF "): )?Direct firmware load for nvidia/([0-9.]+)/(gsp(_[a-z0-9_]+)?\\.bin) "
	 "failed( with error (-?[0-9]+)|$)",
	 LXG107_GSP_FIRMWARE_MISSING, LX_SEVERITY_ERROR,
	 "the kernel could not load the GSP firmware {file} of version {version} (error {error}: "
	 "/lib/firmware/nvidia/{version}/{file} is missing)",
	 "reinstall the driver package of version {version} (it ships the firmware), or reboot into "
	 "the module whose firmware is installed",
	 0, {{"version", 3}, {"gpu", 2}, {"file", 4}, {"error", 7}},
	 "the kernel's firmware loader, drivers/base/firmware_loader/main.c: dev_warn(\"Direct "
	 "firmware load for %s failed with error %d\\n\"), for the files kernel-open/nvidia/nv.c asks "
	 "for (nvidia/<version>/gsp_tu10x.bin, gsp_ga10x.bin...; before 525 one file, "
	 "NV_FIRMWARE_GSP_FILENAME \"nvidia/\" NV_VERSION_STRING \"/gsp.bin\")"},
	/* the same loader when the file is there but reading it fails (any
	 * error but -ENOENT, which it logs at debug level only) */
	{"gsp-firmware-read-failed",
	 "(nvidia (" BDF "): )?loading [^ ]*/nvidia/([0-9.]+)/(gsp(_[a-z0-9_]+)?\\.bin) failed with "
	 "error (-?[0-9]+)",
	 LXG107_GSP_FIRMWARE_MISSING, LX_SEVERITY_ERROR,
	 "the kernel could not read the GSP firmware {file} of version {version} (error {error}; the "
	 "file is there, a missing one is not logged this way): the driver cannot start the GPU "
	 "without it",
	 "load the driver again (reboot the host); if it recurs, reinstall the driver package of "
	 "version {version} (it ships the firmware: the file may be damaged or cut short)",
	 0, {{"version", 3}, {"gpu", 2}, {"file", 4}, {"error", 6}},
	 "the kernel's firmware loader, drivers/base/firmware_loader/main.c "
	 "fw_get_filesystem_firmware(): dev_warn(device, \"loading %s failed with error %d\\n\", path, "
	 "rc) for any error but -ENOENT (the path is the search directory, "
	 "/lib/firmware[/updates][/<release>], and the name), for the files kernel-open/nvidia/nv.c "
	 "asks for (nvidia/<version>/gsp_tu10x.bin, gsp_ga10x.bin...); \"Direct firmware load for "
	 "%s failed\" follows it"},
	{"gsp-firmware-version",
	 "(GSP firmware image|GSP firmware log) version mismatch: got version ([^ ,]+), expected version "
	 "([0-9][0-9.]*[0-9])",
	 LXG107_GSP_FIRMWARE_MISSING, LX_SEVERITY_ERROR,
	 "the GSP firmware on disk is version {got}, the loaded module needs {expected}: a driver "
	 "upgraded on disk without reloading the module, or mixed packages",
	 "install the firmware of version {expected} (the driver package of the loaded module), or "
	 "reboot into the module of version {got}",
	 0, {{"expected", 3}, {"got", 2}, {"file", 1}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c _kgspFwContainerVerifyVersion(): "
	 "NV_PRINTF(LEVEL_ERROR, \"%s version mismatch: got version %s, expected version %s\\n\") with "
	 "\"GSP firmware image\""},
	{"gsp-heartbeat", "GSP RM heartbeat timed out", LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's GSP firmware stopped answering (its heartbeat timed out)",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power-cycle the host; update the "
	 "driver if it recurs",
	 0, {{NULL, 0}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c: NV_PRINTF(LEVEL_ERROR, \"GSP RM heartbeat timed "
	 "out\\n\")"},
	/* _kgspBootGspRm() since 550; kgspInitRm_IMPL() printed it in 535 and
	 * 545 (lower-case "gsp") */
	{"gsp-wpr2-up", "unexpected WPR2 already up", LXG108_GSP_BOOT_FAILED,
	 LX_SEVERITY_ERROR,
	 "the GPU's GSP was left running by an earlier driver instance (a VM, a crashed module): it "
	 "needs a reset",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power-cycle the host; a warm reboot "
	 "may not clear it",
	 0, {{NULL, 0}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c _kgspBootGspRm(): NV_PRINTF(LEVEL_ERROR, "
	 "\"unexpected WPR2 already up, cannot proceed with booting GSP\\n\"), then \"(the GPU is "
	 "likely in a bad state and may need to be reset)\\n\"; 535 and 545 kgspInitRm_IMPL(): "
	 "\"unexpected WPR2 already up, cannot proceed with booting gsp\\n\""},
	{"gsp-init-failed", "RmInitAdapter: Cannot initialize GSP firmware RM", LXG108_GSP_BOOT_FAILED,
	 LX_SEVERITY_ERROR, "the GSP firmware did not start on the GPU",
	 "update the driver (and the firmware package of the same version); reset or power-cycle the "
	 "GPU",
	 0, {{NULL, 0}},
	 "src/nvidia/arch/nvalloc/unix/src/osinit.c RmInitAdapter(): NV_PRINTF(LEVEL_ERROR, "
	 "\"Cannot initialize GSP firmware RM\\n\")"},
	{"gsp-bootstrap-failed", "kgspInitRm_IMPL: cannot bootstrap riscv/gsp", LXG108_GSP_BOOT_FAILED,
	 LX_SEVERITY_ERROR, "the GSP firmware did not start on the GPU",
	 "update the driver (and the firmware package of the same version); reset or power-cycle the "
	 "GPU",
	 0, {{NULL, 0}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c kgspInitRm_IMPL() (515 to 535): \"cannot "
	 "bootstrap riscv/gsp: 0x%x\\n\""},
	{"gfw-boot-timeout",
	 "failed to wait for GFW_BOOT|failed to wait for GFW boot complete",
	 LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's own firmware (the VBIOS's GFW boot, which must finish before GSP can start) did "
	 "not complete, at boot or on resume: the driver cannot start the GPU (the driver: \"the GPU "
	 "may be in a bad state and may need to be reset\")",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power the host off and on (a warm "
	 "reboot may not clear it); on resume, keep the node from sleeping; update the driver and the "
	 "GPU's VBIOS if it recurs",
	 0, {{NULL, 0}},
	 "src/nvidia/src/kernel/gpu/arch/turing/kern_gpu_tu102.c gpuWaitForGfwBootComplete_TU102(): "
	 "NV_PRINTF(LEVEL_ERROR, \"failed to wait for GFW_BOOT: (progress 0x%x)\\n\"); "
	 "kernel_gsp_tu102.c kgspWaitForGfwBootOk_TU102(): \"failed to wait for GFW boot complete: "
	 "0x%x VBIOS version %s\\n\" then \"(the GPU may be in a bad state and may need to be "
	 "reset)\\n\""},
	/* The GSP boot's own steps (the RM's prints before "Cannot initialize
	 * GSP firmware RM"): newer drivers put "GPU%d " before the function
	 * name, an NV_ASSERT_FAILED's text comes after "Assertion failed: ". */
	{"gsp-boot-step-failed",
	 "NVRM:? .*(failed to execute Booter Load|Failed to boot GSP|Timeout waiting for lockdown "
	 "release|Timeout waiting for GSP target mask release|failed to extract VBIOS image from "
	 "ROM|failed to parse FWSEC ucode( desc)? from VBIOS image|GSP-FMC reported an error|Fatal "
	 "GSP-FMC Error|Max GSP-RM boot attempts exceeded|FSP boot cmds failed)",
	 LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's GSP firmware did not boot ({step}): the driver cannot start the GPU (the GPU may "
	 "be in a bad state, its VBIOS unreadable, or the GSP firmware refused)",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power the host off and on (a warm "
	 "reboot may not clear it); update the driver and its GSP firmware package together; if it "
	 "recurs, update the GPU's VBIOS or contact the vendor",
	 LX_KMSG_NVRM_REQUIRED, {{"step", 1}},
	 "src/nvidia/src/kernel/gpu/gsp/arch/turing/kernel_gsp_tu102.c kgspBootstrap_TU102(): "
	 "NV_PRINTF(LEVEL_ERROR, \"failed to execute Booter Load (ucode for initial boot): 0x%x\\n\"); "
	 "fsp/arch/hopper/kern_fsp_gh100.c (535+): \"FSP boot cmds failed. RM cannot boot.\\n\"; "
	 "gsp/arch/hopper/kernel_gsp_gh100.c (535+): \"Timeout waiting for lockdown release. It's also "
	 "possible that bootrom may have failed. ...\"; kernel_gsp.c: \"failed to extract VBIOS image "
	 "from ROM: 0x%x\\n\", also \"failed to parse FWSEC ucode from VBIOS image (VBIOS version %s): "
	 "0x%x\\n\", \"Max GSP-RM boot attempts exceeded: %u/%u\\n\" (580+); kernel_gsp_tu102.c "
	 "\"Failed to boot GSP.\\n\" (kernel_gsp_booter_tu102.c \"failed to execute Booter Load: "
	 "0x%x\\n\"; kernel_gsp_falcon_tu102.c NV_ASSERT_FAILED(\"Failed to boot GSP\")); "
	 "kernel_gsp_gh100.c \"Timeout waiting for GSP target mask release. This error may be caused "
	 "by several reasons: ...\", \"GSP-FMC reported an error while attempting to boot GSP: "
	 "0x%x\\n\", \"Fatal GSP-FMC Error: ...\" (595)"},
	{"gsp-unresponsive",
	 "NVRM: .*((LibOS) heartbeat timed out|=+ (GSP-RM|GSP core) unresponsive =+)",
	 LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's GSP firmware stopped answering (its {what} did not answer): every call into the "
	 "GPU times out until it is reset (Xid 119 comes with it)",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power-cycle the host; update the "
	 "driver if it recurs",
	 0, {{"what", 2}, {"what", 3}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c (595): NV_PRINTF(LEVEL_ERROR, \"LibOS heartbeat "
	 "timed out\\n\") beside \"GSP RM heartbeat timed out\\n\"; the RPC timeout's classification: "
	 "\"================ GSP core unresponsive ===============\\n\", \"=============== GSP-RM "
	 "unresponsive ==================\\n\""},
	/* the RM's report of an RPC timeout (with Xid 119 where the log has it)
	 * and 595's heartbeat check, each without the GPU's address */
	{"gsp-rpc-timeout",
	 "NVRM:? .*(\\*+ (GSP Timeout) \\*+|(Heartbeat timed out), currentTimeMs|(rpcRecvPoll timedout) for fn)",
	 LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's GSP firmware stopped answering ({what}): every call into the GPU times out until "
	 "it is reset (Xid 119 comes with it)",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power-cycle the host; update the "
	 "driver if it recurs",
	 0, {{"what", 2}, {"what", 3}, {"what", 4}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c _kgspLogXid119() (550 to 580), _kgspLogRpcTimeout() "
	 "(595): NV_PRINTF(LEVEL_ERROR, \"********************************* GSP Timeout "
	 "**********************************\\n\") before the Xid 119 line; _kgspIsHeartbeatTimedOut() "
	 "(595): \"Heartbeat timed out, currentTimeMs %u heartbeat %u heartbeatWithOffsetMs %u diff %u "
	 "timeout %u\\n\"; src/nvidia/src/kernel/vgpu/rpc.c _issueRpcAndWait() (the RPC path to GSP, "
	 "and to the host in a vGPU guest): NV_PRINTF(LEVEL_ERROR, \"rpcRecvPoll timedout for fn "
	 "%d!\\n\") (560, 570), \"rpcRecvPoll timedout for fn %d sequence %u!\\n\" (580 on)"},
	/* 595's classification of an RPC timeout when both of the GSP's
	 * heartbeats still ran: it answers, too late (Xid 119 follows) */
	{"gsp-rm-slow", "NVRM: .*=+ GSP-RM is slow =+",
	 LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's GSP firmware did not answer a call in time though it still runs (\"GSP-RM is "
	 "slow\"): the call failed (Xid 119 comes with it), and more time out while it stays so",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power-cycle the host; update the "
	 "driver if it recurs",
	 0, {{"gpu", 0}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c _kgspClassifyGspTimeout() (595.45.04): "
	 "NV_PRINTF(LEVEL_ERROR, \"=================== GSP-RM is slow ===================\\n\") "
	 "when an RPC timed out while the GSP-RM and LibOS heartbeats both still ran, before the "
	 "timeout's Xid 119"},
	/* GPU needs a reset, in the RM's own words: not an Xid line. */
	{"gsp-rpc-rate-limited",
	 "NVRM: .*Rate limiting GSP RPC error prints (for GPU at PCI:(" BDF_SEEN "|[0-9a-fA-F]{4,8}:"
	 "[0-9a-fA-F]{2}:[0-9a-fA-F]{2}) )?\\(printing 1 of every",
	 LXG118_GPU_RESET_REQUIRED, LX_SEVERITY_ERROR,
	 "the GPU's GSP firmware timed out so often that the driver rate-limits its reports (\"the "
	 "GPU likely needs to be reset\"): calls into the GPU keep failing (Xid 119), CUDA on it "
	 "hangs or fails",
	 "stop what uses the GPU (every container holding it) and reset it (nvidia-smi -r -i <gpu>), "
	 "else reboot the host; update the driver if it recurs",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 2}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c _kgspRpcIncrementTimeoutCountAndRateLimitPrints() "
	 "(535+): portDbgPrintf(\"NVRM: Rate limiting GSP RPC error prints for GPU at "
	 "PCI:%04x:%02x:%02x (printing 1 of every %d).  The GPU likely needs to be reset.\\n\"), and "
	 "NV_PRINTF(LEVEL_WARNING, \"Rate limiting GSP RPC error prints (printing 1 of every %d)\\n\")"},
	{"gsp-pmu-halted",
	 "NVRM: .*Received signal from GSP that PMU has halted",
	 LXG118_GPU_RESET_REQUIRED, LX_SEVERITY_ERROR,
	 "the GPU's PMU (its power-management microcontroller) halted, as GSP reports: it cannot be "
	 "recovered and the driver marked the GPU for reset (Xid 62 comes with it); nothing can use "
	 "the GPU until then",
	 "stop what uses the GPU (every container holding it) and reset it (nvidia-smi -r -i <gpu>), "
	 "else reboot the host; report it to NVIDIA (nvidia-bug-report.sh) if it recurs",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 0}},
	 "src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c _kgspRpcGspEventPmuHalted() (595): "
	 "NV_PRINTF(LEVEL_ERROR, \"Received signal from GSP that PMU has halted.\\n\"), with the "
	 "comment \"PMU cannot be recovered at this point and the GPU was marked for reset\""},
	{"vbios-copy-failed",
	 "NVRM: (GPU (" BDF_SEEN "): )?[Ff]ailed to copy vbios to system memory",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the driver could not read the GPU's VBIOS (the GPU's own firmware; a laptop's comes from the "
	 "system firmware through ACPI), so it cannot initialize the GPU (RmInitAdapter fails with "
	 "stage 0x30, VBIOS)",
	 "update the system firmware; a laptop GPU: keep it powered on when nvidia loads (no "
	 "bbswitch or other power switch turning it off) and boot in the firmware mode that exposes "
	 "its VBIOS; a GPU given to a VM: give the VM the card's VBIOS (qemu-server's "
	 "hostpciN: ...,romfile=<file>)",
	 0, {{"gpu", 2}},
	 "the proprietary RM's VBIOS copy (no source in open-gpu-kernel-modules; the driver's README's "
	 "known issues quote it): \"NVRM: failed to copy vbios to system memory.\" then "
	 "\"NVRM: RmInitAdapter failed! (0x30:0xffffffff:...)\"; since the driver names the GPU, "
	 "NV_DEV_PRINTF's \"NVRM: GPU %04x:%02x:%02x.%x: Failed to copy vbios to system memory.\""},
	{"rm-init-adapter-failed",
	 "(NVRM: )?(GPU (" BDF_SEEN "): )?RmInitAdapter failed!?( \\(([^)]*)\\))?( (GPU " BDF_SEEN
	 ": )?rm_init_adapter failed(, device minor number| for device bearing minor number) ([0-9]+))?",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the driver could not initialize the GPU (RmInitAdapter {status})",
	 "look at the driver's earlier messages about this GPU (dmesg | grep -i nvrm), or collect "
	 "nvidia-bug-report.sh for NVIDIA",
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_RECORDS,
	 {{"gpu", 3}, {"status", 5}, {"minor", 9}, {"stage", 0}, {"error", 0}, {"logged_gpu", 3}},
	 "src/nvidia/arch/nvalloc/unix/src/osinit.c RmInitAdapter(): NV_DEV_PRINTF(\"RmInitAdapter "
	 "failed! (0x%x:0x%x:%d)\\n\") = \"NVRM: GPU %04x:%02x:%02x.%x: RmInitAdapter failed! ...\" "
	 "(before the GPU was named: \"NVRM: RmInitAdapter failed! ...\"; pasted without the prefix "
	 "and the status: \"GPU %04x:%02x:%02x.%x: RmInitAdapter failed!\"), then kernel-open/nvidia/nv.c "
	 "nv_start_device(): \"rm_init_adapter failed, device minor number %d\\n\" (older: \"failed "
	 "for device bearing minor number %d\"). The code is (rm_init_status, NV_STATUS, line): the "
	 "stage that failed (osinit.c's rm_init_status) and the status it failed with "
	 "(nvstatuscodes.h)"},
	/* nv_pci_probe()'s own refusals before and after the RM took the GPU */
	{"probe-step-failed",
	 "NVRM: (failed to wait for bar firewall to lower|Device start failed for (" BDF ") \\(ret=(-?[0-9]+)\\)|"
	 "GPU (" BDF "): rm_init_private_state\\(\\) failed)",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "nvidia could not take the GPU ({step}): its probe fails and nvidia-smi does not list it",
	 "reset the GPU or power the host off and on; update the driver and the system firmware; "
	 "collect nvidia-bug-report.sh for NVIDIA if it recurs",
	 LX_KMSG_SOLE_NVIDIA, {{"step", 1}, {"gpu", 2}, {"error", 3}, {"gpu", 4}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_probe(): nv_printf(NV_DBG_ERRORS, \"NVRM: failed to wait "
	 "for bar firewall to lower\\n\") (Hopper and later), NV_DEV_PRINTF(NV_DBG_ERRORS, nv, "
	 "\"rm_init_private_state() failed!\\n\"), nv_printf(NV_DBG_ERRORS, \"NVRM: Device start failed "
	 "for %04x:%02x:%02x.%x (ret=%d)\\n\") when the GPU is started at probe"},
	/* nv_start_device()'s line after RmInitAdapter's, when the log (a grep,
	 * a journal's interleaving) has it apart: the same failure */
	{"rm-init-adapter-minor",
	 "NVRM: (GPU (" BDF_SEEN "): )?rm_init_adapter failed(, device minor number| for device bearing "
	 "minor number) ([0-9]+)|(NVRM: |^)nvidia_frontend_open: minor ([0-9]+), module->open\\(\\) failed, "
	 "error (-?[0-9]+)|(NVRM: |^)rm_init_adapter\\(([0-9]+)\\) failed",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the driver could not initialize the GPU when a program opened it (minor {minor})",
	 "look at the driver's earlier messages about this GPU (dmesg | grep -i nvrm), or collect "
	 "nvidia-bug-report.sh for NVIDIA",
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_RESTATES | LX_KMSG_SOLE_NVIDIA,
	 {{"gpu", 2}, {"minor", 4}, {"logged_gpu", 2}, {"minor", 6}, {"error", 7}, {"minor", 9}},
	 "kernel-open/nvidia/nv.c nv_start_device(): NV_DEV_PRINTF(NV_DBG_ERRORS, nv, \"rm_init_adapter "
	 "failed, device minor number %d\\n\") = \"NVRM: GPU %04x:%02x:%02x.%x: rm_init_adapter failed, "
	 "...\"; older drivers: \"NVRM: rm_init_adapter failed for device bearing minor number %d\\n\" "
	 "(before 2012, nv.c nv_kern_open(): \"NVRM: rm_init_adapter(%d) failed\\n\", the device's "
	 "number); "
	 "then (before 550) nv-frontend.c nvidia_frontend_open(): printk(\"NVRM: %s: minor %d, "
	 "module->open() failed, error %d\\n\", __FUNCTION__, ...)"},
	/* RmInitAdapter's steps (osinit.c), printed before its "RmInitAdapter
	 * failed!": the same failure, told by the step that failed */
	{"rm-init-step-failed",
	 "NVRM:? (GPU (" BDF "): )?.*(\\*\\*\\* ([Cc]annot (get valid gpu instance|allocate GPU lock|"
	 "attach( bc)? gpu|allocate gpuAttachArg|pre-initialize the device|initialize the device|load "
	 "state into the device)|Failed universal validation)|(([A-Za-z0-9_]+(\\(\\))?) failed, bailing)|"
	 "(Cannot configure the device for DMA|Failed to map regs registers))",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the driver could not initialize the GPU (RmInitAdapter's step: {step})",
	 "look at the driver's earlier messages about this GPU (dmesg | grep -i nvrm), or collect "
	 "nvidia-bug-report.sh for NVIDIA",
	 LX_KMSG_RESTATES | LX_KMSG_SOLE_NVIDIA | LX_KMSG_NVRM_REQUIRED,
	 {{"step", 4}, {"step", 7}, {"step", 10}, {"gpu", 2}},
	 "src/nvidia/arch/nvalloc/unix/src/osinit.c RmInitAdapter(), osInitNvMapping(), "
	 "RmInitNvDevice(): NV_PRINTF(LEVEL_ERROR, \"*** Cannot attach gpu\\n\"), \"*** Cannot load "
	 "state into the device\\n\", \"RmInitNvDevice failed, bailing out of RmInitAdapter\\n\", "
	 "\"Cannot configure the device for DMA\\n\" (also \"*** Cannot initialize the device\", "
	 "\"*** Cannot pre-initialize the device\", \"*** Cannot attach bc gpu\", \"*** Cannot get "
	 "valid gpu instance\", \"*** cannot allocate GPU lock\", \"*** Cannot allocate "
	 "gpuAttachArg\", \"*** Failed universal validation\", \"osInitNvMapping "
	 "failed, bailing out of RmInitAdapter\", \"osVerifySystemEnvironment failed, bailing!\"; "
	 "osinit.c's own steps only: the RM's other \"*** Cannot ...\" lines are no init step "
	 "(system_mem.c's \"*** Cannot allocate sysmem through fb heap\", LXG192); "
	 "RmSetupRegisters(): NV_DEV_PRINTF \"Failed to map regs registers!!\")"},
	{"insufficient-power",
	 "NVRM: GPU (" BDF "): GPU does not have the necessary power cables connected",
	 LXG158_GPU_NO_POWER, LX_SEVERITY_ERROR,
	 "the GPU's auxiliary power is not connected (or its power sense sees none): the driver "
	 "refuses to initialize it (RmInitAdapter fails with NV_ERR_INSUFFICIENT_POWER), so "
	 "nvidia-smi shows no such GPU and containers holding it get none",
	 "power the host off and connect every power connector of the GPU from the power supply "
	 "(data-center cards such as the Tesla P40 take a CPU/EPS 8-pin, not a PCIe one), check "
	 "the power supply, then boot",
	 0, {{"gpu", 1}},
	 "src/nvidia/arch/nvalloc/unix/src/osinit.c RmInitAdapter(): for NV_ERR_INSUFFICIENT_POWER, "
	 "NV_DEV_PRINTF(NV_DBG_ERRORS, nv, \"GPU does not have the necessary power cables "
	 "connected.\\n\") = \"NVRM: GPU %04x:%02x:%02x.%x: GPU does not have ...\", then \"RmInitAdapter "
	 "failed! (0x24:0x1c:...)\""},
	{"reset-required",
	 "Reset required \\[NV_ERR_RESET_REQUIRED\\]", LXG118_GPU_RESET_REQUIRED, LX_SEVERITY_ERROR,
	 "the driver's calls to the GPU fail with NV_ERR_RESET_REQUIRED: the GPU must be reset before "
	 "anything can use it (CUDA: \"busy or unavailable\")",
	 "stop what uses the GPU (every container holding it) and reset it (nvidia-smi -r -i <gpu>), "
	 "else reboot the host",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 0}},
	 "src/nvidia/src/libraries/utils/nvassert.c: \"Assertion failed: %s (0x%08X) returned from "
	 "...\" (and \"Check failed: ...\") with nvstatusToString(), whose text for 0x62 is "
	 "nvstatuscodes.h's \"Reset required\" and the name [NV_ERR_RESET_REQUIRED]"},
	{"gpu-is-lost",
	 "GPU lost from the bus \\[NV_ERR_GPU_IS_LOST\\]", LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the driver's calls to the GPU fail with NV_ERR_GPU_IS_LOST: the GPU stopped answering on "
	 "PCIe",
	 FIX_FALLEN, LX_KMSG_SOLE_NVIDIA, {{"gpu", 0}},
	 "src/nvidia/src/libraries/utils/nvassert.c's \"Assertion failed: %s (0x%08X) returned from "
	 "...\" with nvstatusToString(0x0F): nvstatuscodes.h's \"GPU lost from the bus\" "
	 "[NV_ERR_GPU_IS_LOST]"},
	{"probe-failed",
	 "nvidia (" BDF "): probe with driver nvidia failed( with error (-?[0-9]+)|$)|nvidia: probe of (" BDF
	 ") failed( with error (-?[0-9]+)|$)",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "nvidia could not take the GPU (its probe failed with error {error})",
	 "look at the driver's earlier messages about this GPU (dmesg | grep -i nvrm)",
	 LX_KMSG_NEEDS_CAUSE, {{"gpu", 1}, {"error", 3}, {"gpu", 4}, {"error", 6}},
	 "the kernel's driver core, drivers/base/dd.c really_probe()/call_driver_probe(): "
	 "dev_err(\"probe with driver %s failed with error %d\\n\") (before 5.x: pr_warn(\"%s: probe of %s "
	 "failed with error %d\\n\")), after nv-pci.c's nv_pci_probe() refused it"},
	{"fallen-off-bus",
	 "NVRM: (The NVIDIA GPU|GPU) (" BDF_SEEN ")( \\(PCI ID: [0-9a-fA-F:]+\\))?( installed in this "
	 "system has|: GPU has) fallen off the bus",
	 LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the GPU stopped answering on PCIe (power, heat, a bad riser or slot, link errors)",
	 FIX_FALLEN, LX_KMSG_RECORDS, {{"gpu", 2}, {"logged_gpu", 2}},
	 "src/nvidia/arch/nvalloc/unix/src/osapi.c rm_is_supported_device(): \"NVRM: The NVIDIA GPU "
	 "%04x:%02x:%02x.%x\\nNVRM: (PCI ID: %04x:%04x) installed in this system has\\nNVRM: fallen "
	 "off the bus and is not responding to commands.\\n\"; osinit.c: NV_DEV_PRINTF(\"GPU has "
	 "fallen off the bus.\\n\")"},
	{"fallen-off-bus-old",
	 "NVRM: GPU at (" BDF ") has fallen off the bus",
	 LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the GPU stopped answering on PCIe (power, heat, a bad riser or slot, link errors)",
	 FIX_FALLEN, 0, {{"gpu", 1}},
	 "the proprietary driver before its RM was published (no source to cite: the wording as "
	 "its public logs quote it): \"NVRM: GPU at 0000:02:00.0 has fallen off the bus.\" "
	 "(ubuntuforums.org, \"The Nvidia crashes thread rides again\", Ubuntu 12.04, 2012), the "
	 "same with 0000:01:00.0 on Debian jessie's 3.13 (a Quadro K2000M); the open RM's "
	 "osinit.c says \"GPU has fallen off the bus.\\n\" after its NV_DEV_PRINTF prefix"},
	/* amdgpu checks the GPU's config space before a reset: all ones is a
	 * GPU gone from the bus (the resets, MES and SMU failures after it
	 * follow from that) */
	{"amdgpu-device-lost",
	 "amdgpu (" BDF "): (amdgpu: )?device lost from bus!?",
	 LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the AMD GPU stopped answering on PCIe: its config space reads back all ones when amdgpu "
	 "comes to reset it (power, heat, a bad riser or slot, link errors); every container "
	 "holding it loses it until the host is power-cycled",
	 FIX_FALLEN, 0, {{"gpu", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu.h amdgpu_device_bus_status_check(), called by "
	 "amdgpu_device.c's GPU recovery (amdgpu_device_health_check()) and aqua_vanjaram.c: "
	 "dev_err(adev->dev, \"device lost from bus!\") when the PCI_COMMAND register reads back "
	 "PCI_POSSIBLE_ERROR (6.9 and later)"},
	/* thread_state.c: the RM's timeout check finds the GPU disconnected */
	{"gpu-not-attached",
	 "NVRM:? .*API_GPU_ATTACHED_SANITY_CHECK failed",
	 LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the driver found the GPU no longer connected (or held in a bus reset): it stopped answering "
	 "on PCIe, and every call into it fails",
	 FIX_FALLEN, LX_KMSG_SOLE_NVIDIA | LX_KMSG_FALLBACK, {{"gpu", 0}},
	 "src/nvidia/src/kernel/core/thread_state.c _threadNodeCheckTimeout(): NV_PRINTF(LEVEL_ERROR, "
	 "\"API_GPU_ATTACHED_SANITY_CHECK failed!\\n\") when API_GPU_ATTACHED_SANITY_CHECK(pGpu) "
	 "(g_gpu_nvoc.h: PDB_PROP_GPU_IS_CONNECTED set, PDB_PROP_GPU_IN_SECONDARY_BUS_RESET not) is "
	 "false"},
	/* an RPC to GSP refused with NV_ERR_GPU_IS_LOST (0x0F) */
	{"rpc-gpu-lost",
	 "NVRM:? .*rpcSendMessage failed with status 0x0000000[fF] for fn",
	 LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the driver's calls to the GPU's GSP fail with NV_ERR_GPU_IS_LOST: the GPU stopped answering "
	 "on PCIe",
	 FIX_FALLEN, LX_KMSG_SOLE_NVIDIA | LX_KMSG_RESTATES, {{"gpu", 0}},
	 "src/nvidia/src/kernel/vgpu/rpc.c _issueRpcAndWait(): NV_PRINTF(LEVEL_ERROR, \"rpcSendMessage "
	 "failed with status 0x%08x for fn %d!\\n\"), the status nvstatuscodes.h's NV_ERR_GPU_IS_LOST "
	 "(0x0000000F) once the GPU is gone; also \"rpcSendMessage failed with status 0x%08x for fn %d "
	 "sequence %d!\\n\""},
	{"gpu-crash-dump",
	 "NVRM: A GPU crash dump has been created",
	 LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the driver saved a crash dump of the GPU, which it does when the GPU stopped answering on "
	 "PCIe (fell off the bus, or a PCIe error the kernel could not recover from)",
	 FIX_FALLEN, LX_KMSG_SOLE_NVIDIA | LX_KMSG_FALLBACK, {{"gpu", 0}},
	 "src/nvidia/arch/nvalloc/unix/src/osapi.c RmLogGpuCrash(): nv_printf(NV_DBG_ERRORS, \"NVRM: A "
	 "GPU crash dump has been created. If possible, please run\\n\" \"NVRM: nvidia-bug-report.sh "
	 "as root to collect this data before\\n\" \"NVRM: the NVIDIA kernel module is unloaded.\\n\"), "
	 "called "
	 "from osinit.c osHandleGpuLost() after \"GPU has fallen off the bus.\" (before 595 also from "
	 "nv-pci.c's PCI error recovery, rm_log_gpu_crash(), when the GPU stays unreachable)"},
	{"uvm-fatal-error",
	 "NVRM: .*uvm encountered global fatal error (0x[0-9a-fA-F]+), requiring os reboot to recover",
	 LXG118_GPU_RESET_REQUIRED, LX_SEVERITY_ERROR,
	 "nvidia_uvm hit a global fatal error ({status}, after a GPU failure: a GPU lost, an RPC "
	 "timeout): the driver says only a reboot of the host recovers it; until then CUDA fails in "
	 "every container and on the host",
	 "find the GPU failure before it in the log (an Xid, a GPU off the bus) and fix that; stop "
	 "the GPU users and reboot the host",
	 LX_KMSG_SOLE_NVIDIA, {{"status", 1}, {"gpu", 0}},
	 "src/nvidia/src/kernel/rmapi/nv_gpu_ops.c nvGpuOpsReportFatalError() (570+), called by "
	 "nvidia_uvm's uvm_global_set_fatal_error(): NV_PRINTF(LEVEL_ERROR, \"uvm encountered global "
	 "fatal error 0x%x, requiring os reboot to recover.\\n\") (nvidia_uvm's own \"Encountered a "
	 "global fatal error: %s\" is printed only with uvm_debug_prints)"},
	/* os-interface.c: the RM asked to sleep where it may not, a driver bug */
	{"nvidia-yield-atomic",
	 "NVRM: os_schedule: Attempted to yield the CPU while in atomic or interrupt context",
	 LXG151_GPU_DRIVER_OOPS, LX_SEVERITY_WARNING,
	 "the nvidia driver tried to sleep while in atomic or interrupt context (a bug of the driver, "
	 "often of a driver older than the kernel): the call that did it failed, and the GPU's work "
	 "may hang",
	 "update the NVIDIA driver to a release that supports the running kernel, or boot a kernel "
	 "the driver supports; report it to NVIDIA (nvidia-bug-report.sh) if it recurs",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 0}},
	 "kernel-open/nvidia/os-interface.c os_schedule(): nv_printf(NV_DBG_ERRORS, \"NVRM: os_schedule: "
	 "Attempted to yield the CPU while in atomic or interrupt context\\n\") when "
	 "NV_MAY_SLEEP() is false (it returns NV_ERR_ILLEGAL_ACTION)"},
	{"xid-79", XID_PREFIX "79, (.*)", LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "Xid 79 (ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS): the GPU no longer answers on PCIe; "
	 "NVIDIA's resolution: RESTART_BM",
	 FIX_FALLEN, 0, {{"gpu", 2}, {"text", 8}, {"logged_gpu", 2}},
	 "src/nvidia/src/kernel/gpu/rc/kernel_rc.c krcReportXid(): \"NVRM: Xid (PCI:%04x:%02x:%02x): "
	 "%d, %s\\n\" with 79 (nverror.h ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS); as logs are "
	 "posted with the address elided: \"NVRM: Xid (PCI:%s): %d, %s\""},
	{"xid", XID_PREFIX "([0-9]+), (.*)", LXG110_XID, LX_SEVERITY_WARNING,
	 "Xid {xid}: an error the driver reported for the GPU",
	 "look the number up in NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors)", 0,
	 {{"xid", 8}, {"gpu", 2}, {"text", 9}, {"gpu_instance", 5}, {"compute_instance", 7}, {"action", 0},
	  {"root_xid", 0}, {"logged_gpu", 2}},
	 "src/nvidia/src/kernel/gpu/rc/kernel_rc.c krcReportXid(): \"NVRM: Xid (PCI:%04x:%02x:%02x[ "
	 "GPU-I:%02u[ GPU-CI:%02u]]): %d, pid=%s, name=%s, %s%s\\n\", without a process name \"NVRM: Xid "
	 "(PCI:%04x:%02x:%02x[ GPU-I:%02u[ GPU-CI:%02u]]): %d, %s%s\\n\" (the last %s is Xid 45's "
	 "' caused by previous Xid %d', its root cause); the drivers before the RM was published "
	 "(3xx), as their logs show it, without the PCI: before the address: \"NVRM: Xid "
	 "(%04x:%02x:%02x): %d, %s\", and as posts of old logs show it: \"NVRM Xid "
	 "(PCI:%04x:%02x:%02x) : %d, %s\"; the number's meaning: the Xid table below"},
	/* Xid 119 and 120 are the GSP's failures in NVIDIA's catalogue: the
	 * Xid row names the number, this one the firmware that stopped (the
	 * cause the GSP rows give when the log has the RM's banner too); its
	 * field is "number", not "xid": the Xid table's wording is the Xid
	 * row's */
	{"xid-gsp", XID_PREFIX "(119|120), (.*)", LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's GSP firmware stopped working (Xid {number}: {text}): every call into the GPU fails or "
	 "times out until it is reset, and CUDA on it hangs or fails",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power-cycle the host; update the "
	 "driver if it recurs",
	 LX_KMSG_ALSO, {{"number", 8}, {"gpu", 2}, {"text", 9}},
	 "src/nvidia/src/kernel/gpu/rc/kernel_rc.c krcReportXid(): \"NVRM: Xid (PCI:%04x:%02x:%02x): "
	 "%d, pid=%s, name=%s, %s\\n\", without a process \"NVRM: Xid (PCI:%04x:%02x:%02x): %d, %s\\n\", "
	 "with 119 (nverror.h GSP_RPC_TIMEOUT, kernel_gsp.c's RPC timeout) or 120 (GSP_ERROR, the "
	 "GSP's own fault report); NVIDIA's Xid catalogue files both under GSP, resolution RESET_GPU"},
	/* an application's channel error as the first Xid after a resume: the
	 * work faulted on video memory the sleep did not keep (the driver
	 * saves it only when asked), the Xid row names the number */
	{"xid-after-resume", XID_PREFIX "(13|31|43|69|109), (.*)", LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "Xid {number} came right after the system resumed from a sleep, with no Xid before the "
	 "sleep: the GPU's video memory most likely did not survive it (the driver keeps it only "
	 "with NVreg_PreserveVideoMemoryAllocations=1 and its suspend services), and the work "
	 "that used it faulted ({text})",
	 "keep video memory over sleep: 'options nvidia NVreg_PreserveVideoMemoryAllocations=1' in "
	 "/etc/modprobe.d/nvidia-pm.conf, update-initramfs -u, systemctl enable nvidia-suspend.service "
	 "nvidia-hibernate.service nvidia-resume.service, reboot; a Proxmox node should not sleep "
	 "(systemctl mask sleep.target suspend.target hibernate.target hybrid-sleep.target)",
	 LX_KMSG_ALSO | LX_KMSG_AFTER_RESUME, {{"number", 8}, {"gpu", 2}, {"text", 9}},
	 "src/nvidia/src/kernel/gpu/rc/kernel_rc.c krcReportXid(): \"NVRM: Xid (PCI:%04x:%02x:%02x): "
	 "%d, pid=%s, name=%s, %s\\n\", without a process \"NVRM: Xid (PCI:%04x:%02x:%02x): %d, %s\\n\" "
	 "(13 GR exception, 31 MMU fault, 43 channel stopped, 69 class error, 109 context switch "
	 "timeout), after kernel/power/suspend.c's \"PM: suspend exit\\n\" or process.c's "
	 "\"Restarting tasks ... \"; kernel-open/nvidia/nv.c: video memory is saved over a sleep "
	 "only with NVreg_PreserveVideoMemoryAllocations (NVIDIA's README, chapter \"Configuring "
	 "Power Management Support\")"},
	{"xid79-after-resume", XID_PREFIX "79, (.*)", LXG174_GPU_PM_FAILED, LX_SEVERITY_ERROR,
	 "the GPU fell off the bus right after the system resumed from a sleep, with no Xid 79 "
	 "before the sleep: it did not come back from the sleep's power-down (a laptop's or "
	 "hybrid system's dGPU, a slot or riser that loses power), and it is unusable until the "
	 "host reboots ({text})",
	 FIX_PM_RESUME, LX_KMSG_ALSO | LX_KMSG_AFTER_RESUME, {{"gpu", 2}, {"text", 8}},
	 "src/nvidia/src/kernel/gpu/rc/kernel_rc.c krcReportXid(): \"NVRM: Xid (PCI:%04x:%02x:%02x): "
	 "79, GPU has fallen off the bus.\" (ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS), after "
	 "kernel/power/suspend.c's \"PM: suspend exit\\n\" or process.c's \"Restarting tasks ... \": "
	 "the GPU lost at resume, the cause LXG174 names beside the Xid's LXG109"},
	/* nvidia.ko's NVSwitch driver (linux_nvswitch.c): a switch it could
	 * not bring up, and Fabric Manager of another version than the module */
	{"nvswitch-init-failed",
	 "(nvidia-nvswitch[0-9]+): (Failed to (register|initialize) device|Failed to initialize "
	 "interrupt|Failed to enable PCI device|Interrupts disabled to avoid a storm|Blacklisted "
	 "nvswitch device)( : (-?[0-9]+))?",
	 LXG117_FABRIC_NOT_READY, LX_SEVERITY_ERROR,
	 "the driver could not bring up NVSwitch {switch} ({what}): the fabric through it (the GPUs' "
	 "NVLink) is not ready, CUDA fails with error 802 in every container",
	 "reboot the host (a cold power cycle if it recurs); update the driver, the switch's firmware "
	 "and Fabric Manager together; contact the vendor if the switch stays blacklisted",
	 0, {{"switch", 1}, {"what", 2}, {"error", 5}},
	 "kernel-open/nvidia/linux_nvswitch.c nvswitch_init_device(): printk(KERN_ERR \"%s: Failed to "
	 "initialize device : %d\\n\"), also \"%s: Failed to register device : %d\\n\", \"%s: Failed "
	 "to initialize interrupt : %d\\n\", \"%s: Blacklisted nvswitch device\\n\" (the name "
	 "\"nvidia-nvswitch%d\"); nvswitch_probe(): \"%s: Failed to enable PCI device : %d\\n\"; the "
	 "interrupt handler: \"%s: Interrupts disabled to avoid a storm\\n\""},
	/* NVML and Fabric Manager open the NVSwitch driver's control node (on
	 * hosts without NVSwitches too): the same check as "API mismatch" */
	{"nvswitch-version-mismatch",
	 "nvidia-nvswitch: Version mismatch, kernel version ([^ ,]+) user version ([^ ,]+)",
	 LXG100_API_MISMATCH, LX_SEVERITY_ERROR,
	 "a program with userspace driver {client_version} (NVML: nvidia-smi, DCGM, a GPU operator's "
	 "driver container, or Fabric Manager) opened the NVSwitch driver of module version "
	 "{module_version}: the module refuses it (a container's libraries or a driver container of "
	 "another version than the host's module, or a host upgraded without reloading the module)",
	 "give that program's root the module's version {module_version} of the userspace driver (a "
	 "container: `lxgpu doctor CTID` names its libraries; Fabric Manager of the same version), or "
	 "reboot into the module {client_version}",
	 LX_KMSG_SOLE_NVIDIA, {{"client_version", 2}, {"module_version", 1}, {"gpu", 0}},
	 "kernel-open/nvidia/linux_nvswitch.c nvswitch_ctl_check_version(): printk(KERN_ERR "
	 "\"nvidia-nvswitch: Version mismatch, kernel version %s user version %s\\n\") when "
	 "nvswitch_lib_check_api_version() returns -NVL_ERR_NOT_SUPPORTED"},
	{"sxid-fatal",
	 "nvidia-(nvswitch[0-9]+): SXid \\(PCI:(" BDF ")\\): ([0-9]+), (Fatal, .*)",
	 LXG117_FABRIC_NOT_READY, LX_SEVERITY_ERROR,
	 "NVSwitch {switch} ({address}) reported the fatal SXid {sxid}: the fabric (every GPU's "
	 "NVLink through it) stops working until it is reset",
	 "reset the fabric: stop the GPU users and reboot the host (Fabric Manager resets the "
	 "switches at start); contact the vendor if the SXid recurs",
	 0, {{"sxid", 3}, {"switch", 1}, {"address", 2}, {"text", 4}},
	 "src/common/nvswitch/kernel/inc/common_nvswitch.h NVSWITCH_PRINT_SXID(): \"nvidia-%s: SXid "
	 "(PCI:%04x:%02x:%02x.%x): %05d, \" with intr_nvswitch.h's \"Fatal, Link %02d %s%s\\n\""},
	{"sxid",
	 "nvidia-(nvswitch[0-9]+): SXid \\(PCI:(" BDF ")\\): ([0-9]+), (.*)",
	 LXG117_FABRIC_NOT_READY, LX_SEVERITY_WARNING,
	 "NVSwitch {switch} ({address}) reported SXid {sxid} ({text})",
	 "nothing while it stays non-fatal; look it up in NVIDIA's Fabric Manager user guide "
	 "(SXid errors) if it recurs",
	 0, {{"sxid", 3}, {"switch", 1}, {"address", 2}, {"text", 4}},
	 "src/common/nvswitch/kernel/inc/common_nvswitch.h NVSWITCH_PRINT_SXID(): \"nvidia-%s: SXid "
	 "(PCI:%04x:%02x:%02x.%x): %05d, \" with error_nvswitch.h's \"Non-fatal, Link %02d \""},
	{"remove-in-use",
	 "NVRM: Attempting to remove (device (" BDF ")|minor device ([0-9]+)) with non-zero usage count",
	 LXG177_GPU_REMOVED_IN_USE, LX_SEVERITY_ERROR,
	 "the GPU was being unbound from nvidia (a VM's passthrough detaching it for vfio-pci, a driver "
	 "unload, a GPU switcher) while processes still held it open: the driver waits until every one "
	 "of them closes it, so the unbind and what started it (libvirt, qemu-server, rmmod) hang",
	 "stop what holds the GPU (fuser -v /dev/nvidia*: nvidia-persistenced, the display manager or "
	 "Xorg, CUDA services, containers given the GPU) before detaching or unloading it; a GPU meant "
	 "only for VMs: bind it to vfio-pci at boot (vfio-pci.ids=10de:XXXX, softdep nvidia pre: "
	 "vfio-pci) so nvidia never takes it; if the wait does not end once nothing holds it, reboot",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 2}, {"minor", 3}},
	 "kernel-open/nvidia/nv-pci.c nv_pci_remove_helper(): nv_printf(NV_DBG_ERRORS, \"NVRM: "
	 "Attempting to remove device %04x:%02x:%02x.%x with non-zero usage count!\\n\"), then it "
	 "waits (os_delay) for the count to reach zero and prints \"NVRM: Continuing with GPU removal "
	 "for device %04x:%02x:%02x.%x\\n\"; before 515.65 (nv_pci_remove()): \"NVRM: Attempting to "
	 "remove minor device %u with non-zero usage count!\\n\""},
	{"unbind-locked-open",
	 "NVRM: GPU (" BDF "): Open failed as GPU is locked for unbind operation",
	 LXG177_GPU_REMOVED_IN_USE, LX_SEVERITY_ERROR,
	 "a program tried to open the GPU while it is locked for unbinding (its unbindLock in "
	 "/proc/driver/nvidia/gpus/<address>/ set, as VM passthrough and GPU-switching scripts do "
	 "before detaching it): every open fails until it is unbound or unlocked, so nvidia-smi and "
	 "CUDA, in containers too, cannot use it",
	 "a GPU meant for a VM: let the detach finish and keep containers off it; else unlock it "
	 "(echo 0 > /proc/driver/nvidia/gpus/<address>/unbindLock) or reboot",
	 0, {{"gpu", 1}},
	 "kernel-open/nvidia/nv.c nv_open_device(): NV_DEV_PRINTF(NV_DBG_ERRORS, nv, \"Open failed as "
	 "GPU is locked for unbind operation\\n\") while NV_FLAG_UNBIND_LOCK is set (nv-procfs.c's "
	 "unbindLock file), with NV_DEV_PRINTF's prefix \"NVRM: GPU %04x:%02x:%02x.%x: \""},
	{"bound-to-vfio", "NVRM: GPU (" BDF ") is already bound to vfio-pci", LXG111_BOUND_ELSEWHERE,
	 LX_SEVERITY_INFO,
	 "nvidia found the GPU bound to vfio-pci (given to virtual machines) and left it",
	 "if the GPU was meant for containers, unbind it from vfio-pci (remove its ids from "
	 "vfio-pci.ids / the VM's hostpci); else nothing",
	 0, {{"gpu", 1}},
	 "kernel-open/nvidia/nv-pci.c check_for_bound_driver(): \"NVRM: GPU %04x:%02x:%02x.%x is "
	 "already bound to %s.\\n\""},
	{"bound-elsewhere", "NVRM: GPU (" BDF ") is already bound to ([^ .]+)", LXG111_BOUND_ELSEWHERE,
	 LX_SEVERITY_ERROR, "another driver ({driver}) took the GPU before nvidia loaded", FIX_BLACKLIST,
	 0, {{"gpu", 1}, {"driver", 2}},
	 "kernel-open/nvidia/nv-pci.c check_for_bound_driver(): \"NVRM: GPU %04x:%02x:%02x.%x is "
	 "already bound to %s.\\n\""},
	/* nvidia-vgpu-vfio (the vGPU host driver's module): NV_VGPU_DEV_LOG's
	 * "[nvidia-vgpu-vfio] <mdev uuid or VF address>: " at KERN_ERR */
	{"vgpu-start-failed",
	 "\\[nvidia-vgpu-vfio\\] ([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
	 "[0-9a-fA-F]{12}|" BDF "): start failed\\. status: (0x[0-9a-fA-F]+)( Timeout Occured)?|\\[nvidia-vgpu-vfio\\] vGPU "
	 "creation failed on device (0x[0-9a-fA-F]+)\\. (-?[0-9]+)",
	 LXG190_VGPU_START_FAILED, LX_SEVERITY_ERROR,
	 "the NVIDIA vGPU host driver could not start (or create) a virtual machine's vGPU: the VM "
	 "does not start (QEMU: \"error getting device from group N: Input/output error\"); "
	 "nvidia-vgpu-mgr's own log says why. Containers on the host are not affected",
	 "read journalctl -u nvidia-vgpu-mgr at the VM's start: a GPU or vGPU type the host's vGPU "
	 "driver does not support, a guest driver of another vGPU release than the host's, no free "
	 "vGPU capacity (framebuffer) left on the GPU, nvidia-vgpu-mgr not running, or a vGPU left by "
	 "an earlier VM (restart nvidia-vgpu-mgr, or reboot); then start the VM again",
	 LX_KMSG_SOLE_NVIDIA,
	 {{"vgpu", 1}, {"status", 2}, {"timeout", 3}, {"device", 4}, {"error", 5}, {"gpu", 0}},
	 "nvidia-vgpu-vfio.c (the vGPU host driver's source, not in open-gpu-kernel-modules) "
	 "nv_vgpu_vfio_open(): NV_VGPU_DEV_LOG(VGPU_ERR, mdev, \"start failed. status: 0x%x %s\", ...) "
	 "with \"Timeout Occured\\n\" when nvidia-vgpu-mgr did not answer, NV_VGPU_DEV_LOG being "
	 "printk(KERN_ERR \"[nvidia-vgpu-vfio] \" \"%pUl: \" fmt); the create path: NV_VGPU_LOG(VGPU_ERR, "
	 "\"vGPU creation failed on device 0x%x. %d\\n\")"},
	{"lockdown-unsigned", "Lockdown: ([^:]+): unsigned module loading is restricted",
	 LXG112_UNSIGNED_MODULE, LX_SEVERITY_ERROR,
	 "Secure Boot (kernel lockdown) refused a module {program} loaded, not signed by a key the "
	 "kernel trusts: a DKMS-built nvidia module whose key is not enrolled",
	 FIX_ENROLL, LX_KMSG_NVIDIA_MISSING, {{"program", 1}},
	 "security/lockdown/lockdown.c lockdown_is_locked_down(): \"Lockdown: %s: %s is restricted; "
	 "see man kernel_lockdown.7\\n\" with lockdown_reasons[LOCKDOWN_MODULE_SIGNATURE] = "
	 "\"unsigned module loading\""},
	{"unsigned-rejected", "(([a-z0-9_]+): )?[Ll]oading of unsigned module is rejected",
	 LXG112_UNSIGNED_MODULE, LX_SEVERITY_ERROR,
	 "the kernel enforces module signatures and refused an unsigned module (a DKMS-built nvidia "
	 "module)",
	 FIX_ENROLL, LX_KMSG_NVIDIA_MISSING, {{"module", 2}},
	 "kernel/module/signing.c module_sig_check(): pr_notice(\"Loading of %s is rejected\\n\") "
	 "with \"unsigned module\" (5.4 and 5.10 stable: \"%s: loading of %s is rejected\")"},
	{"unavailable-key-rejected",
	 "(([a-z0-9_]+): )?[Ll]oading of module with unavailable key is rejected",
	 LXG112_UNSIGNED_MODULE, LX_SEVERITY_ERROR,
	 "the kernel enforces module signatures and refused a module signed with a key it does not "
	 "trust (a DKMS key not enrolled in MOK)",
	 FIX_ENROLL, LX_KMSG_NVIDIA_MISSING, {{"module", 2}},
	 "kernel/module/signing.c module_sig_check(): pr_notice(\"Loading of %s is rejected\\n\") "
	 "with \"module with unavailable key\""},
	{"pkcs7-untrusted", "PKCS#7 signature not signed with a trusted key", LXG112_UNSIGNED_MODULE,
	 LX_SEVERITY_WARNING,
	 "a module is signed with a key the kernel does not trust: where signatures are enforced "
	 "(Secure Boot) the kernel refuses it, and an NVIDIA module is not loaded",
	 FIX_ENROLL, LX_KMSG_NVIDIA_MISSING, {{NULL, 0}},
	 "kernels up to 4.x, kernel/module_signing.c (later certs/system_keyring.c) "
	 "verify_pkcs7_signature(): pr_err(\"PKCS#7 signature not signed with a trusted key\\n\") "
	 "(pr_devel since 4.7)"},
	{"modprobe-not-permitted", INSERT_FAILED "Operation not permitted", LXG112_UNSIGNED_MODULE,
	 LX_SEVERITY_ERROR,
	 "loading {module} was refused (EPERM): under kernel lockdown (Secure Boot) the kernel "
	 "refuses a module not signed by a key it trusts",
	 FIX_ENROLL, LX_KMSG_NVIDIA_MISSING, {{"module", 2}},
	 "kmod tools/modprobe.c insmod(): ERR(\"could not insert '%s': %s\\n\", strerror(EPERM)), "
	 "the error security_locked_down(LOCKDOWN_MODULE_SIGNATURE) returns"},
	{"modprobe-key-rejected",
	 INSERT_FAILED "(Key was rejected by service|Required key not available)",
	 LXG112_UNSIGNED_MODULE, LX_SEVERITY_ERROR,
	 "loading {module} was refused ({error}): the kernel enforces module signatures and the "
	 "module is not signed by a key it trusts",
	 FIX_ENROLL, LX_KMSG_NVIDIA_MISSING, {{"module", 2}, {"error", 3}},
	 "kmod tools/modprobe.c: \"could not insert '%s': %s\" with strerror(EKEYREJECTED) "
	 "(module_sig_check under sig_enforce) or strerror(ENOKEY) (kernels before 4.x); "
	 "systemd-modules-load, src/shared/module-util.c: \"Failed to insert module '%s': %m\" with "
	 "the same errors"},
	{"module-vermagic", NVIDIA_MODULE ": version magic '([^']*)' should be '([^']*)'",
	 LXG116_MODULE_WRONG_KERNEL, LX_SEVERITY_ERROR,
	 "{module} was built for the kernel '{built_for}', the running kernel is '{kernel}': the "
	 "kernel refuses it",
	 FIX_REBUILD, LX_KMSG_NVIDIA_MISSING, {{"module", 1}, {"built_for", 2}, {"kernel", 3}},
	 "kernel/module/main.c check_modinfo(): pr_err(\"%s: version magic '%s' should be "
	 "'%s'\\n\")"},
	{"module-symbol-version", NVIDIA_MODULE ": disagrees about version of symbol ([A-Za-z0-9_.]+)",
	 LXG116_MODULE_WRONG_KERNEL, LX_SEVERITY_ERROR,
	 "{module} was built against another kernel: its symbol versions (first: {symbol}) are not "
	 "the running kernel's, the kernel refuses it",
	 FIX_REBUILD, LX_KMSG_NVIDIA_MISSING, {{"module", 1}, {"symbol", 2}},
	 "kernel/module/version.c check_version(): pr_warn(\"%s: disagrees about version of symbol "
	 "%s\\n\")"},
	/* the kernel's refusal, or depmod's finding when the module is
	 * installed (dkms, akmods, RHEL's weak-updates of another kernel) */
	{"module-unknown-symbol",
	 NVIDIA_MODULE ": Unknown symbol ([A-Za-z0-9_.]+)|/" NVIDIA_MODULE "\\.ko(\\.[a-z]+)? needs "
	 "unknown symbol ([A-Za-z0-9_.]+)",
	 LXG116_MODULE_WRONG_KERNEL, LX_SEVERITY_ERROR,
	 "{module} needs symbols the running kernel does not give it (first: {symbol}): built for "
	 "another kernel, or a module it depends on is not loaded",
	 FIX_REBUILD, LX_KMSG_NVIDIA_MISSING,
	 {{"module", 1}, {"symbol", 2}, {"module", 3}, {"symbol", 5}},
	 "kernel/module/main.c resolve_symbol_wait() / simplify_symbols(): pr_warn(\"%s: Unknown "
	 "symbol %s (err %d)\\n\"); kmod tools/depmod.c depmod_load_modules(): WRN(\"%s needs "
	 "unknown symbol %s\\n\", mod->path, name) = \"depmod: WARNING: <path>/nvidia-uvm.ko.xz needs "
	 "unknown symbol ...\" (module-init-tools: \"WARNING: %s needs unknown symbol %s\")"},
	{"modprobe-exec-format",
	 INSERT_FAILED "(Exec format error|Invalid module format|Unknown symbol in module)",
	 LXG116_MODULE_WRONG_KERNEL, LX_SEVERITY_ERROR,
	 "loading {module} failed ({error}): the module was built for another kernel (or, for an "
	 "unknown symbol, a module parameter it does not know)",
	 FIX_REBUILD, LX_KMSG_NVIDIA_MISSING, {{"module", 2}, {"error", 3}},
	 "kmod tools/modprobe.c: \"could not insert '%s': %s\" with strerror(ENOEXEC) (the kernel's "
	 "version magic check) or \"Unknown symbol in module, or unknown parameter (see dmesg)\" "
	 "(ENOENT)"},
	/* The same refusals for the AMD and Intel GPU drivers: amdgpu, i915
	 * and xe come with the kernel (or its modules-extra package), or from
	 * a DKMS backport (amdgpu-dkms with amdkcl, amdttm, amd_sched, amdxcp;
	 * intel-i915-dkms, i915-sriov-dkms with i915_compat) built for another
	 * kernel. The GPU: the AMD or Intel display devices no driver took. */
	{"gpu-module-vermagic", GPU_MODULE ": version magic '([^']*)' should be '([^']*)'",
	 LXG116_MODULE_WRONG_KERNEL, LX_SEVERITY_ERROR,
	 "{module} was built for the kernel '{built_for}', the running kernel is '{kernel}': the "
	 "kernel refuses it, the GPU has no driver (no /dev/dri or /dev/kfd node for containers)",
	 FIX_GPU_MODULE, LX_KMSG_DISPLAY_GPU,
	 {{"module", 1}, {"gpu", 0}, {"built_for", 2}, {"kernel", 3}, {"driver", 1}},
	 "kernel/module/main.c check_modinfo(): pr_err(\"%s: version magic '%s' should be "
	 "'%s'\\n\")"},
	{"gpu-module-symbol-version", GPU_MODULE ": disagrees about version of symbol ([A-Za-z0-9_.]+)",
	 LXG116_MODULE_WRONG_KERNEL, LX_SEVERITY_ERROR,
	 "{module} was built against another kernel: its symbol versions (first: {symbol}) are not "
	 "the running kernel's, the kernel refuses it and the GPU has no driver (no /dev/dri or "
	 "/dev/kfd node for containers)",
	 FIX_GPU_MODULE, LX_KMSG_DISPLAY_GPU, {{"module", 1}, {"gpu", 0}, {"symbol", 2}, {"driver", 1}},
	 "kernel/module/version.c check_version(): pr_warn(\"%s: disagrees about version of symbol "
	 "%s\\n\")"},
	{"gpu-module-unknown-symbol", GPU_MODULE ": Unknown symbol ([A-Za-z0-9_.]+)",
	 LXG116_MODULE_WRONG_KERNEL, LX_SEVERITY_ERROR,
	 "{module} needs symbols the running kernel does not give it (first: {symbol}): built for "
	 "another kernel, or a module it needs is missing (old amdgpu: amd_iommu_v2, in "
	 "linux-modules-extra); the kernel refuses it and the GPU has no driver (no /dev/dri or "
	 "/dev/kfd node for containers)",
	 FIX_GPU_MODULE, LX_KMSG_DISPLAY_GPU, {{"module", 1}, {"gpu", 0}, {"symbol", 2}, {"driver", 1}},
	 "kernel/module/main.c resolve_symbol_wait() / simplify_symbols(): pr_warn(\"%s: Unknown "
	 "symbol %s (err %d)\\n\")"},
	{"gpu-modprobe-exec-format",
	 "(could not insert|[Ff]ailed to insert module) '" GPU_MODULE "': (Exec format error|Invalid "
	 "module format|Unknown symbol in module)",
	 LXG116_MODULE_WRONG_KERNEL, LX_SEVERITY_ERROR,
	 "loading {module} failed ({error}): the module was built for another kernel, or a module "
	 "it needs is missing; the GPU has no driver (no /dev/dri or /dev/kfd node for containers)",
	 FIX_GPU_MODULE, LX_KMSG_DISPLAY_GPU, {{"module", 2}, {"gpu", 0}, {"error", 3}, {"driver", 2}},
	 "kmod tools/modprobe.c: \"could not insert '%s': %s\" with strerror(ENOEXEC) or \"Unknown "
	 "symbol in module, or unknown parameter (see dmesg)\" (ENOENT); systemd-modules-load: "
	 "\"Failed to insert module '%s': %m\""},
	/* Debian's radeon refuses an R600-or-later GPU at probe when the
	 * firmware package is not installed (a patch of its kernels), and its
	 * amdgpu any GPU (the same patch): the driver then names no GPU, the
	 * GPU is the AMD display device the log enumerates that no driver
	 * took. */
	{"radeon-firmware-required",
	 "(radeon) kernel modesetting for R600 or later requires (firmware installed|"
	 "firmware-linux-nonfree)|(amdgpu) requires firmware installed",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "{driver} refused the AMD GPU: the distribution's {driver} needs its firmware (radeon for "
	 "an R600 or later GPU) and the firmware package is not installed; the GPU has no driver (no "
	 "acceleration, no /dev/dri render node for containers)",
	 "install the distribution's AMD GPU firmware (Debian: firmware-amd-graphics from non-free-"
	 "firmware; older releases firmware-linux-nonfree; Ubuntu: linux-firmware), then "
	 "update-initramfs -u and reboot",
	 LX_KMSG_DISPLAY_GPU, {{"gpu", 0}, {"driver", 1}, {"driver", 3}},
	 "Debian's kernel patch radeon-firmware-is-required-for-drm-and-kms-on-r600-onward "
	 "(\"radeon, amdgpu: Firmware is required for DRM and KMS on R600 onward\") "
	 "of drivers/gpu/drm/radeon/radeon_drv.c radeon_pci_probe(): "
	 "DRM_ERROR(\"radeon kernel modesetting for R600 or later requires firmware installed\\n\") "
	 "(older releases: \"... requires firmware-linux-nonfree.\\n\"), and of "
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c amdgpu_pci_probe(): DRM_ERROR(\"amdgpu requires "
	 "firmware installed\\n\") when the firmware is not installed under /lib/firmware; then \"See "
	 "https://wiki.debian.org/Firmware for information about missing firmware\", and the probe "
	 "returns -ENODEV"},
	/* amdgpu's table marks a GPU whose support is new in that kernel
	 * (Renoir APUs in 5.4) AMD_EXP_HW_SUPPORT, and the probe declines it
	 * unless amdgpu.exp_hw_support=1: DRM_INFO, no address, no driver
	 * named; the GPU is the AMD display device the log enumerates that no
	 * driver took (as for nomodeset: none, no finding). */
	{"amdgpu-exp-hw-support",
	 "This hardware requires experimental hardware support",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "{driver} declined the AMD GPU: this kernel's amdgpu lists it as experimental hardware (its "
	 "support was new in this kernel release) and does not drive it without "
	 "amdgpu.exp_hw_support=1; the GPU has no driver (no acceleration, no /dev/dri or /dev/kfd "
	 "node for containers)",
	 "boot a newer kernel whose amdgpu supports the GPU (Proxmox: the current kernel series; "
	 "a distribution's hardware-enablement kernel), or, at your own risk, add "
	 "amdgpu.exp_hw_support=1 to the kernel command line; reboot",
	 LX_KMSG_DISPLAY_GPU, {{"gpu", 0}, {"driver", 0}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c amdgpu_pci_probe(): if ((flags & "
	 "AMD_EXP_HW_SUPPORT) && !amdgpu_exp_hw_support) DRM_INFO(\"This hardware requires "
	 "experimental hardware support.\\n\" \"See modparam exp_hw_support\\n\"), then return "
	 "-ENODEV; the pciidlist entries flagged AMD_EXP_HW_SUPPORT are the chips whose support is "
	 "not yet declared stable in that release"},
	/* The device is dev_printk's (6.x: "amdgpu 0000:0a:00.0: AMD-Vi: Event
	 * logged [IO_PAGE_FAULT domain=..."), or "device=0a:00.0" (4.x) or
	 * "device=0000:0a:00.0" (5.x on; the IOMMU's own "iommu ivhd0: ..."). */
	{"amd-vi-page-fault", "AMD-Vi: Event logged \\[(IO_PAGE_FAULT|IOTLB_INV_TIMEOUT)", LXG113_IOMMU_FAULT,
	 LX_SEVERITY_ERROR,
	 "the AMD IOMMU reported the GPU ({event}): a DMA of the GPU to an address it had not mapped "
	 "(IO_PAGE_FAULT: often peer-to-peer or a driver bug), or an address translation cache "
	 "invalidation the GPU never completed (IOTLB_INV_TIMEOUT: the GPU hung or left the bus)",
	 "iommu=pt on the kernel command line (identity domains for host devices); update the driver",
	 LX_KMSG_GPU_ONLY, {{"event", 1}},
	 "drivers/iommu/amd/iommu.c amd_iommu_report_page_fault(): pci_err/dev_err(\"Event logged "
	 "[IO_PAGE_FAULT domain=0x%04x address=0x%llx flags=0x%04x]\\n\") under pr_fmt \"AMD-Vi: \", "
	 "without a device pr_err(\"Event logged [IO_PAGE_FAULT device=%04x:%02x:%02x.%x domain=...\") "
	 "(4.x: \"AMD-Vi: Event logged [IO_PAGE_FAULT device=%02x:%02x.%x domain=0x%04x "
	 "address=0x%016llx flags=0x%04x]\\n\"); iommu_print_event(): dev_err(dev, \"Event logged "
	 "[IOTLB_INV_TIMEOUT device=%04x:%02x:%02x.%x address=0x%llx]\\n\")"},
	/* The IOMMU's command queue stopped (an invalidation the device
	 * behind it never answered): no device named, the log's only GPU. */
	{"amd-vi-completion-wait",
	 "AMD-Vi: Completion-Wait loop timed out",
	 LXG113_IOMMU_FAULT, LX_SEVERITY_ERROR,
	 "the AMD IOMMU's command queue stopped (Completion-Wait loop timed out): an invalidation "
	 "was never completed, mostly by a GPU that hung or left the bus (a GPU given to a VM without "
	 "a working reset, an amdgpu hang); DMA of the devices behind it stalls until a reboot",
	 "reboot the host; iommu=pt on the kernel command line (identity domains for host devices), "
	 "update the system firmware and the kernel; for a GPU given to VMs, a working reset "
	 "(vendor-reset for AMD GPUs of the reset bug)",
	 LX_KMSG_SOLE_GPU, {{"gpu", 0}},
	 "drivers/iommu/amd/iommu.c wait_on_sem(): pr_alert(\"Completion-Wait loop timed out\\n\") "
	 "under pr_fmt \"AMD-Vi: \" (older: pr_alert(\"AMD-Vi: Completion-Wait loop timed "
	 "out\\n\"))"},
	/* Xen's console ("(XEN) [VT-D]DMAR:[DMA Write] Request device
	 * [0000:00:02.0] ...", drivers/passthrough/vtd/iommu.c) has no space */
	{"dmar-fault", "DMAR: ?\\[(DMA (Read|Write)[^]]*|INTR-REMAP)\\] ?Request device \\[[0-9a-fA-Fx:.]+\\]",
	 LXG113_IOMMU_FAULT, LX_SEVERITY_ERROR,
	 "the Intel IOMMU blocked a DMA of the GPU to an address it had not mapped, or an interrupt "
	 "it had not remapped ({what}; often peer-to-peer or a driver bug)",
	 "iommu=pt on the kernel command line (identity domains for host devices); update the driver",
	 LX_KMSG_GPU_ONLY | LX_KMSG_INTEL_IGD, {{"what", 1}},
	 "drivers/iommu/intel/dmar.c dmar_fault_do_one(): pr_err(\"[%s NO_PASID] Request device "
	 "[%02x:%02x.%d] fault addr 0x%llx [fault reason 0x%02x] %s\\n\") (older: \"[DMA %s] "
	 "Request device [%02x:%02x.%d] PASID %x fault addr %llx ...\"); Xen's console, "
	 "drivers/passthrough/vtd/iommu.c iommu_page_fault_do_one(): printk(VTDPREFIX "
	 "\"DMAR:[%s] Request device [%04x:%02x:%02x.%u] fault addr %lx\\n\") (address as PRIx64); "
	 "dmar.c's interrupt remapping fault: pr_err(\"[INTR-REMAP] Request device [%02x:%02x.%d] "
	 "fault index 0x%llx [fault reason 0x%02x] %s\\n\"); a requester at 00:02.0 that no line "
	 "shows is the integrated GPU (LX_KMSG_INTEL_IGD)"},
	/* Intel's IOMMU waited for a device to complete an invalidation of
	 * its own address translation cache (ATS device TLB), and it never
	 * did: the requester ID names it (ffff: unknown). */
	{"dmar-invalidation-timeout",
	 "DMAR: VT-d detected Invalidation Time-out Error: SID ([0-9a-fA-F]{1,4})",
	 LXG113_IOMMU_FAULT, LX_SEVERITY_ERROR,
	 "the Intel IOMMU timed out waiting for the GPU to invalidate its address translation cache "
	 "(ATS device TLB): the GPU hung, was being reset (a VM's start or stop) or left the bus; "
	 "DMA behind the IOMMU stalls and the host may lock up until a power cycle",
	 "reboot the host; for a GPU given to VMs boot with pci=noats (ATS off), update the system "
	 "firmware and the kernel; a GPU that hangs first: its driver's lines before this one say why",
	 LX_KMSG_PCI_GPU, {{"requester_id", 1}},
	 "drivers/iommu/intel/dmar.c qi_check_fault(): pr_err(\"VT-d detected Invalidation Time-out "
	 "Error: SID %llx\\n\", DMAR_IQER_REG_ITESID(iqe_err)) under pr_fmt \"DMAR: \" (6.x; before, "
	 "pr_info(\"Invalidation Time-out Error (ITE) cleared\\n\") names no device), the SID a "
	 "requester ID (bus << 8 | devfn); counted for a device the log shows to be a GPU"},
	/* ARM servers' IOMMU (SMMUv3: Grace Hopper, Ampere Altra), about a
	 * device the log shows to be a GPU the host drives: newer kernels
	 * name the client device; older ones print only the stream ID and the
	 * raw event words ("event 0x10 received:"), which name no device. */
	{"arm-smmu-fault",
	 "arm-smmu-v3 [^ ]+: event: ([A-Za-z_]+) client: (" BDF ") sid: ",
	 LXG113_IOMMU_FAULT, LX_SEVERITY_ERROR,
	 "the ARM SMMU (the IOMMU) blocked a DMA of the GPU to an address it had not mapped "
	 "({event}; often peer-to-peer or a driver bug)",
	 "iommu.passthrough=1 on the kernel command line (identity domains for host devices); update "
	 "the driver and the kernel",
	 LX_KMSG_GPU_ONLY | LX_KMSG_PCI_GPU, {{"event", 1}, {"gpu", 2}},
	 "drivers/iommu/arm/arm-smmu-v3/arm-smmu-v3.c arm_smmu_dump_event(): dev_err(smmu->dev, "
	 "\"event: %s client: %s sid: %#x ssid: %#x iova: %#llx ipa: %#llx\", ...) for translation, "
	 "address size, access and permission faults (F_TRANSLATION, F_ADDR_SIZE, F_ACCESS, "
	 "F_PERMISSION), the client the master's device name"},
	/* The same faults before 6.14: the event's number, then its raw words
	 * on lines of their own (the stream ID in the first word's top half,
	 * no device name): the log's only GPU. */
	{"arm-smmu-fault-old",
	 "arm-smmu-v3 [^ ]+: event (0x1[0-3]) received:",
	 LXG113_IOMMU_FAULT, LX_SEVERITY_ERROR,
	 "the ARM SMMU (the IOMMU) blocked a DMA of the GPU to an address it had not mapped (event "
	 "{event}: a translation, address size, access or permission fault; often peer-to-peer or a "
	 "driver bug)",
	 "iommu.passthrough=1 on the kernel command line (identity domains for host devices); update "
	 "the driver and the kernel",
	 LX_KMSG_SOLE_GPU, {{"event", 1}},
	 "drivers/iommu/arm/arm-smmu-v3/arm-smmu-v3.c arm_smmu_evtq_thread() (4.x to 6.13): "
	 "dev_info(smmu->dev, \"event 0x%02x received:\\n\", id), then dev_info(smmu->dev, "
	 "\"\\t0x%016llx\\n\", evt[i]) for each of the event's four words, ids 0x10-0x13 "
	 "F_TRANSLATION, F_ADDR_SIZE, F_ACCESS, F_PERMISSION"},
	/* vfio-pci's attach of a GPU to a VM's IOMMU domain, refused for the
	 * firmware's reserved region (RMRR) that must stay mapped 1:1 */
	{"iommu-rmrr-refused",
	 "([a-z0-9_-]+) (" BDF "): (DMAR: )?(Device is ineligible for IOMMU domain attach due to platform "
	 "RMRR requirement|Firmware has requested this device have a 1:1 IOMMU mapping, rejecting "
	 "configuring the device without a 1:1 mapping)",
	 LXG188_IOMMU_RMRR_REFUSED, LX_SEVERITY_ERROR,
	 "the IOMMU refused to let {driver} give the GPU to a virtual machine: the system firmware "
	 "reserved memory for this device that must stay mapped 1:1 (an ACPI DMAR RMRR, common on "
	 "HPE ProLiant slots); the VM does not start (QEMU: \"vfio: failed to set iommu for "
	 "container: Operation not permitted\"); containers on the host are not affected",
	 "exclude the slot from the firmware's reserved regions (HPE: the slot exclusion of HPE's "
	 "Scripting Toolkit, conrep with the RMRDS setting), move the card to a slot without an RMRR, "
	 "update the system firmware; or give the GPU to containers on the host instead of to a VM",
	 LX_KMSG_PCI_GPU, {{"gpu", 2}, {"driver", 1}},
	 "drivers/iommu/intel/iommu.c intel_iommu_attach_device() (3.17 to 6.x): dev_warn(dev, "
	 "\"Device is ineligible for IOMMU domain attach due to platform RMRR requirement.  Contact "
	 "your platform vendor.\\n\") (its dev_fmt is pr_fmt, \"DMAR: \"); drivers/iommu/iommu.c "
	 "__iommu_device_set_domain() (6.x): dev_warn(dev, \"Firmware has requested this device have "
	 "a 1:1 IOMMU mapping, rejecting configuring the device without a 1:1 mapping. Contact your "
	 "platform vendor.\\n\")"},
	{"p2pdma-acs-redirect",
	 /* "cannot be used for peer-to-peer DMA as ..." before kernel 5.10, the
	  * shorter text since, "ACS blocks the direct P2P path" on the newest */
	 "ACS redirect is set between the client and provider|ACS blocks the direct P2P path to "
	 "provider",
	 LXG114_ACS_REDIRECT, LX_SEVERITY_WARNING,
	 "a bridge between the devices redirects peer-to-peer requests upstream (ACS), so the kernel "
	 "refuses direct DMA between them",
	 "pci=disable_acs_redir=<bridges> on the kernel command line (the kernel's next line, and "
	 "lxgpu topo --p2p, name them)",
	 LX_KMSG_GPU_ONLY, {{NULL, 0}},
	 "drivers/pci/p2pdma.c calc_map_type_and_dist(): pci_warn(client, \"ACS redirect is set "
	 "between the client and provider (%s)\\n\")"},
	/* The kernel's bounce buffer (kernel/dma/swiotlb.c) for a device whose
	 * DMA it bounces (no IOMMU translation for it, a DMA mask below the
	 * memory, a confidential VM): full, its mappings fail. */
	{"swiotlb-full",
	 "(([a-z0-9_-]+) (" BDF "): (swiotlb buffer is full \\(sz: ([0-9]+) bytes\\)|DMA: Out of SW-IOMMU "
	 "space for ([0-9]+) bytes)|(PCI-)?DMA: Out of SW-IOMMU space for ([0-9]+) bytes at device (" BDF "))",
	 LXG191_GPU_DMA_BOUNCE_FULL, LX_SEVERITY_ERROR,
	 "the kernel could not map {size} bytes of the GPU's DMA: its bounce buffer (swiotlb) is full. "
	 "The GPU's DMA is bounced (the IOMMU off or iommu=soft, a DMA mask below the memory it must "
	 "reach, a confidential VM), and the driver's transfers to and from the GPU fail: ring "
	 "timeouts, hangs, out-of-memory errors in the containers using it",
	 "turn the IOMMU on (amd_iommu=on or intel_iommu=on, with iommu=pt; drop iommu=soft and "
	 "iommu=off), or enlarge the bounce buffer: swiotlb=262144 (512 MB) on the kernel command "
	 "line; reboot, and update the GPU's driver",
	 LX_KMSG_PCI_GPU, {{"gpu", 3}, {"driver", 2}, {"size", 5}, {"size", 6}, {"size", 8}, {"gpu", 9}},
	 "kernel/dma/swiotlb.c swiotlb_tbl_map_single(): dev_warn_ratelimited(dev, \"swiotlb buffer is "
	 "full (sz: %zd bytes), total %lu (slots), used %lu (slots)\\n\") (5.0 and older: dev_warn "
	 "with printk_ratelimit(), \"swiotlb buffer is full (sz: %zd bytes)\\n\"); 4.x swiotlb_full(): "
	 "dev_err_ratelimited(dev, \"DMA: Out of SW-IOMMU space for %zu bytes\\n\"), older printk(\"DMA: "
	 "Out of SW-IOMMU space for %zu bytes at device %s\\n\") (x86-64's \"PCI-DMA: \"); counted "
	 "for a device the log shows to be a GPU"},
	/* the bounce buffer itself lies above what the device's DMA mask
	 * reaches (a 32-bit mask on an ARM board or a large-memory host) */
	{"swiotlb-overflow",
	 "([a-z0-9_-]+) (" BDF "): swiotlb addr (0x[0-9a-fA-F]+)\\+([0-9]+) overflow \\(mask ([0-9a-fA-F]+), "
	 "bus limit ([0-9a-fA-F]+)\\)",
	 LXG191_GPU_DMA_BOUNCE_FULL, LX_SEVERITY_ERROR,
	 "the kernel could not map the GPU's DMA through its bounce buffer (swiotlb): the buffer "
	 "lies above what the GPU's DMA mask ({mask}) reaches, so the driver's transfers to and "
	 "from the GPU fail (the kernel warns once; probes, ring tests and programs fail after it)",
	 "turn the IOMMU on (amd_iommu=on or intel_iommu=on, with iommu=pt), or put the bounce "
	 "buffer low enough for the GPU (an ARM board's firmware or device tree dma-ranges, or a "
	 "kernel that places swiotlb in the GPU's reach); update the GPU's driver",
	 LX_KMSG_PCI_GPU, {{"gpu", 2}, {"driver", 1}, {"mask", 5}},
	 "kernel/dma/swiotlb.c swiotlb_map(): dev_WARN_ONCE(dev, 1, \"swiotlb addr %pad+%zu overflow "
	 "(mask %llx, bus limit %llx).\\n\") when the bounce slot it found is not DMA-capable for "
	 "the device; counted for a device the log shows to be a GPU"},
	{"mig-no-instance",
	 "NVRM:? (kchannelConstruct_IMPL: )?Channel allocation not allowed when MIG is enabled "
	 "without GPU instancing",
	 LXG147_MIG_NO_INSTANCE, LX_SEVERITY_ERROR,
	 "a program asked for a CUDA context on a GPU in MIG mode that has no GPU instance: the "
	 "driver refuses every context there (cuInit or the first CUDA call fails) while nvidia-smi "
	 "lists the GPU; the line does not say which GPU",
	 "find the GPU (nvidia-smi --query-gpu=index,pci.bus_id,mig.mode.current --format=csv: "
	 "MIG mode Enabled), then create its GPU and compute instances (nvidia-smi mig -cgi "
	 "PROFILES -C) and give containers those, or turn MIG off there (nvidia-smi -i N -mig 0 "
	 "with its processes stopped)",
	 0, {{NULL, 0}},
	 "src/nvidia/src/kernel/gpu/fifo/kernel_channel.c kchannelConstruct_IMPL(): "
	 "NV_PRINTF(LEVEL_ERROR, \"Channel allocation not allowed when MIG is enabled without GPU "
	 "instancing\\n\"), with NV_PRINTF's prefix NVRM: and the function's name (older "
	 "drivers: no colon after NVRM)"},
	{"vfio-bar-reserve",
	 "vfio-pci (" BDF "): BAR ([0-9]+): can't reserve( \\[(mem|io) +([0-9a-fA-Fx]+-[0-9a-fA-Fx]+)|$)",
	 LXG148_VFIO_BAR_BUSY, LX_SEVERITY_ERROR,
	 "the GPU is given to a virtual machine (vfio-pci), and vfio-pci could not reserve its BAR "
	 "{bar} ({range}): another driver holds that range, on a boot GPU the boot framebuffer "
	 "(efifb, simplefb or simpledrm; /proc/iomem shows BOOTFB inside the BAR); the VM gets a "
	 "GPU its driver cannot use (Windows: code 43; amdgpu: PSP failures)",
	 "keep the host's boot framebuffer off that GPU: initcall_blacklist=sysfb_init on the "
	 "kernel command line (/etc/kernel/cmdline then proxmox-boot-tool refresh, or "
	 "GRUB_CMDLINE_LINUX_DEFAULT then update-grub; older kernels: video=efifb:off), reboot; or "
	 "boot the host from another GPU",
	 0, {{"bar", 2}, {"gpu", 1}, {"range", 5}},
	 "drivers/pci/pci.c __pci_request_region(): pci_warn(pdev, \"BAR %d: can't reserve "
	 "%pR\\n\", bar, &pdev->resource[bar]) (older kernels: dev_warn), for vfio-pci's "
	 "pci_request_selected_regions() when the VM starts"},
	/* Suspend and resume, any GPU driver (drivers/base/power/main.c and
	 * drivers/pci/pci-driver.c): the dev_printk prefix names the driver and
	 * the GPU. A GPU that did not resume is unusable until a reboot; one
	 * that refused to suspend keeps working (the system stays awake). */
	{"gpu-pm-resume-failed",
	 "(" GPU_DRIVER " (" BDF "): (PM: )?|(PM: )?Device (" BDF ") )failed to (resume|thaw|restore|recover)"
	 "(( async)?( early| late| noirq)?)(: error (-?[0-9]+)|:?$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_ERROR,
	 "the GPU did not come back from a suspend or hibernation: its {step} failed "
	 "({error}), so the GPU is unusable until the host reboots (containers holding it lose it)",
	 FIX_PM_RESUME,
	 LX_KMSG_PCI_GPU, {{"gpu", 3}, {"driver", 2}, {"step", 7}, {"error", 12}, {"gpu", 6}},
	 "drivers/base/power/main.c pm_dev_err(): dev_err(dev, \"failed to %s%s: error %d\\n\", "
	 "pm_verb(state.event), info, error) under pr_fmt \"PM: \" (before 6.2: pr_err(\"Device %s "
	 "failed to %s%s: error %d\\n\"), without the driver: counted for a device the log shows "
	 "to be a GPU)"},
	{"gpu-pm-resume-callback",
	 GPU_DRIVER " (" BDF "): (PM: )?[a-z_]+\\(\\): ([a-z0-9_]*(resume|thaw|restore)[a-z0-9_]*)"
	 "(\\+0x[0-9a-f]+/0x[0-9a-f]+)?( \\[[a-z0-9_]+\\]?)? returns( (-?[0-9]+)|$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_ERROR,
	 "the GPU did not come back from a suspend or hibernation: {callback} returned {error}, so "
	 "the GPU is unusable until the host reboots (containers holding it lose it)",
	 FIX_PM_RESUME,
	 0, {{"gpu", 2}, {"driver", 1}, {"callback", 4}, {"error", 9}},
	 "drivers/base/power/main.c dpm_run_callback() and drivers/pci/pci-driver.c: "
	 "suspend_report_result(): dev_err(dev, \"%s(): %ps returns %d\\n\", function, fn, ret) "
	 "(\"%pS\" with the offset before 6.x)"},
	{"gpu-pm-suspend-failed",
	 "(" GPU_DRIVER " (" BDF "): (PM: )?|(PM: )?Device (" BDF ") )failed to (suspend|freeze|quiesce|"
	 "hibernate|poweroff|power off)(( async)?( early| late| noirq)?)(: error (-?[0-9]+)|:?$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the GPU refused to suspend (its {step} failed: {error}): the host did not sleep; the "
	 "GPU itself keeps working",
	 FIX_PM_SUSPEND,
	 LX_KMSG_PCI_GPU, {{"gpu", 3}, {"driver", 2}, {"step", 7}, {"error", 12}, {"gpu", 6}},
	 "drivers/base/power/main.c pm_dev_err(): dev_err(dev, \"failed to %s%s: error %d\\n\", "
	 "pm_verb(state.event), info, error), for a suspend, freeze (hibernation), quiesce or "
	 "poweroff step (before 6.2: pr_err(\"Device %s failed to %s%s: error %d\\n\"), without the "
	 "driver: counted for a device the log shows to be a GPU)"},
	/* A device that refused the PM core's prepare step: the suspend is
	 * aborted before any device sleeps; it restates the prepare callback's
	 * "returns" line before it, where the kernel prints one. */
	{"gpu-pm-not-prepared",
	 "(([a-z0-9_-]+) (" BDF "): (PM: )?|(PM: )?Device (" BDF ") )not prepared for power transition: "
	 "code( (-?[0-9]+)|$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the GPU refused to prepare for a suspend (code {error}; -512: the sleep was interrupted "
	 "while the driver waited for the GPU to go idle, -12: no memory to save its VRAM): the "
	 "host did not sleep; the GPU itself keeps working",
	 FIX_PM_SUSPEND,
	 LX_KMSG_PCI_GPU | LX_KMSG_RESTATES, {{"gpu", 3}, {"error", 8}, {"driver", 2}, {"gpu", 6}},
	 "drivers/base/power/main.c dpm_prepare(): dev_info(dev, \"not prepared for power "
	 "transition: code %d\\n\", error) under pr_fmt \"PM: \" (before 5.x: pr_info(\"Device %s "
	 "not prepared for power transition: code %d\\n\", dev_name(dev), error), without the "
	 "driver): counted for a device the log shows to be a GPU"},
	/* i915 itself, before the PM core's line: the GPU did not go idle */
	{"i915-gem-idle-failed",
	 "(i915 (" BDF "): )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] \\*ERROR\\* )?GEM idle failed, "
	 "((suspend/)?resume (might|may) fail)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "i915 could not idle the Intel GPU before a suspend (its last requests did not finish, a "
	 "hung GPU, or the sleep was interrupted while it waited): the suspend was aborted and the "
	 "host did not sleep; the GPU itself keeps working (a hang in the same log, LXG142, is the "
	 "one to fix)",
	 FIX_PM_SUSPEND,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 2}},
	 "drivers/gpu/drm/i915/i915_drv.c i915_drm_prepare() (4.19-5.x): dev_err(&i915->drm.pdev->dev, "
	 "\"GEM idle failed, suspend/resume might fail\\n\") when i915_gem_suspend() fails; before "
	 "it i915_drm_suspend(): dev_err(&dev->pdev->dev, \"GEM idle failed, resume might "
	 "fail\\n\") (2.6.x: DRM_ERROR(\"GEM idle failed, resume may fail\\n\"))"},
	{"gpu-pm-suspend-callback",
	 GPU_DRIVER " (" BDF "): (PM: )?[a-z_]+\\(\\): ([a-z0-9_]*(suspend|freeze|poweroff|prepare)[a-z0-9_]*)"
	 "(\\+0x[0-9a-f]+/0x[0-9a-f]+)?( \\[[a-z0-9_]+\\]?)? returns( (-?[0-9]+)|$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the GPU refused to suspend ({callback} returned {error}): the host did not sleep; the GPU "
	 "itself keeps working",
	 FIX_PM_SUSPEND,
	 0, {{"gpu", 2}, {"driver", 1}, {"callback", 4}, {"error", 9}},
	 "drivers/base/power/main.c dpm_run_callback() and drivers/pci/pci-driver.c: "
	 "suspend_report_result(): dev_err(dev, \"%s(): %ps returns %d\\n\", function, fn, ret), "
	 "for a prepare, suspend, freeze or poweroff callback"},
	{"gpu-pm-runtime-suspend",
	 GPU_DRIVER " (" BDF "): can't suspend \\(([a-z0-9_]+)(\\+0x[0-9a-f]+/0x[0-9a-f]+)?"
	 "( \\[[a-z0-9_]+\\])? returned (-?[0-9]+)\\)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the GPU refused runtime suspend ({callback} returned {error}): it stays powered (a laptop's "
	 "dGPU never sleeps) and a later suspend of the host may fail; the GPU itself keeps working",
	 "turn runtime power management off for that GPU (NVreg_DynamicPowerManagement=0x00, "
	 "amdgpu.runpm=0), and update the driver",
	 0, {{"gpu", 2}, {"driver", 1}, {"callback", 3}, {"error", 6}},
	 "drivers/pci/pci-driver.c pci_pm_runtime_suspend(): pci_err(pci_dev, \"can't suspend (%ps "
	 "returned %d)\\n\", pm->runtime_suspend, error) for an error other than -EBUSY and -EAGAIN "
	 "(those: \"can't suspend now\", debug level)"},
	/* Before 6.x the callback line had no device prefix: the module in
	 * brackets names the driver, and the log's lone GPU of it is the one. */
	{"gpu-pm-resume-callback-old",
	 "(PM: )?[a-z_]+\\(\\): ([a-z0-9_]+_pmops_[a-z_]*(resume|thaw|restore)[a-z_]*)"
	 "\\+0x[0-9a-f]+/0x[0-9a-f]+ \\[" GPU_DRIVER "\\]? returns( (-?[0-9]+)|$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_ERROR,
	 "a GPU of {driver} did not come back from a suspend or hibernation: {callback} returned "
	 "{error}, so the GPU is unusable until the host reboots (containers holding it lose it)",
	 FIX_PM_RESUME,
	 LX_KMSG_SOLE_GPU, {{"callback", 2}, {"driver", 4}, {"error", 6}},
	 "drivers/base/power/main.c suspend_report_result() before 6.x: pr_err(\"%s(): %pS returns "
	 "%d\\n\") under pr_fmt \"PM: \" (older: without it), without the device"},
	{"gpu-pm-suspend-callback-old",
	 "(PM: )?[a-z_]+\\(\\): ([a-z0-9_]+_pmops_[a-z_]*(suspend|freeze|poweroff)[a-z_]*)"
	 "\\+0x[0-9a-f]+/0x[0-9a-f]+ \\[" GPU_DRIVER "\\]? returns( (-?[0-9]+)|$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "a GPU of {driver} refused to suspend ({callback} returned {error}): the host did not "
	 "sleep; the GPU itself keeps working",
	 FIX_PM_SUSPEND,
	 LX_KMSG_SOLE_GPU, {{"callback", 2}, {"driver", 4}, {"error", 6}},
	 "drivers/base/power/main.c suspend_report_result() before 6.x: pr_err(\"%s(): %pS returns "
	 "%d\\n\"), for a suspend, freeze or poweroff callback"},
	{"nvidia-pm-no-procfs",
	 "NVRM: GPU (" BDF "): PreserveVideoMemoryAllocations module parameter is set\\.[[:space:]]*"
	 "System Power Management attempted without driver procfs suspend interface",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "nvidia refused to suspend the GPU: NVreg_PreserveVideoMemoryAllocations is set, and the "
	 "system slept without NVIDIA's sleep services, which save the GPU's memory through "
	 "/proc/driver/nvidia/suspend first; the host did not sleep",
	 "enable NVIDIA's sleep services (systemctl enable nvidia-suspend.service "
	 "nvidia-hibernate.service nvidia-resume.service), or set "
	 "options nvidia NVreg_PreserveVideoMemoryAllocations=0; a Proxmox node should not sleep "
	 "at all: systemctl mask sleep.target suspend.target hibernate.target hybrid-sleep.target",
	 LX_KMSG_RECORDS, {{"gpu", 1}},
	 "kernel-open/nvidia/nv.c nv_power_management() / nvidia_suspend(): \"NVRM: GPU "
	 "%04x:%02x:%02x.%x: PreserveVideoMemoryAllocations module parameter is set. System Power "
	 "Management attempted without driver procfs suspend interface. Please refer to the "
	 "'Configuring Power Management Support' section in the driver README.\\n\""},
	/* 595's kernel suspend notifier (NVreg_UseKernelSuspendNotifiers):
	 * the driver saves or restores every GPU itself around a sleep; its
	 * failure names no GPU (the log's only NVIDIA GPU is the one) */
	{"nvidia-pm-notifier-suspend", "NVRM: PM (suspend|hibernate) notifier failed(: (0x[0-9a-fA-F]+)|:?$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "nvidia could not prepare its GPUs for the {step} (its kernel suspend notifier failed with "
	 "NV_STATUS {status}): the kernel cancelled the sleep, the host did not sleep; the GPU "
	 "itself keeps working",
	 FIX_PM_SUSPEND,
	 LX_KMSG_SOLE_NVIDIA, {{"step", 1}, {"status", 3}, {"gpu", 0}},
	 "kernel-open/nvidia/nv.c nv_pm_notifier() (595.45.04, with NVreg_UseKernelSuspendNotifiers=1): "
	 "nv_printf(NV_DBG_ERRORS, \"NVRM: PM %s notifier failed: 0x%x\\n\", name, status) when "
	 "nv_set_system_power_state() fails at PM_SUSPEND_PREPARE (\"suspend\") or "
	 "PM_HIBERNATION_PREPARE (\"hibernate\"); it returns NOTIFY_BAD, which aborts the sleep"},
	{"nvidia-pm-notifier-resume", "NVRM: PM (resume) notifier failed(: (0x[0-9a-fA-F]+)|:?$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_ERROR,
	 "nvidia could not bring its GPUs back after a sleep (its kernel suspend notifier failed "
	 "at {step} with NV_STATUS {status}): the GPU is unusable until the host reboots (containers "
	 "holding it lose it)",
	 FIX_PM_RESUME,
	 LX_KMSG_SOLE_NVIDIA, {{"step", 1}, {"status", 3}, {"gpu", 0}},
	 "kernel-open/nvidia/nv.c nv_pm_notifier() (595.45.04, with NVreg_UseKernelSuspendNotifiers=1): "
	 "nv_printf(NV_DBG_ERRORS, \"NVRM: PM %s notifier failed: 0x%x\\n\", name, status) with "
	 "\"resume\" when nv_set_system_power_state(NV_POWER_STATE_RUNNING) fails at PM_POST_SUSPEND "
	 "or PM_POST_HIBERNATION"},
	/* The PCI core about a GPU (drivers/pci/pci.c, vfio-pci): after a reset
	 * or a power-state change the device no longer answers config reads.
	 * Any driver's device: LX_KMSG_PCI_GPU keeps the GPUs'. */
	{"pci-power-inaccessible",
	 "([a-z0-9_-]+) (" BDF "): ([Uu]nable to|can't) change power state from( (D[0-3](hot|cold)?|"
	 "unknown)( to (D[0-3](hot|cold)?)(, device inaccessible| \\(config space inaccessible\\)|,?$)|$)|$)",
	 LXG176_PCI_UNRESPONSIVE, LX_SEVERITY_ERROR,
	 "the GPU did not come out of the power state {from}: it no longer answers on PCI (config "
	 "reads return all ones), so {driver} cannot use it and a VM or container holding it has "
	 "no GPU",
	 FIX_PCI_UNRESPONSIVE,
	 LX_KMSG_PCI_GPU, {{"gpu", 2}, {"driver", 1}, {"from", 5}},
	 "drivers/pci/pci.c pci_power_up(): pci_err(dev, \"Unable to change power state from %s to "
	 "D0, device inaccessible\\n\", pci_power_name(dev->current_state)); before 6.x "
	 "pci_raw_set_power_state(): \"Unable to change power state from %s to %s, device "
	 "inaccessible\\n\"; 4.x-5.x the same function: pci_err(dev, \"can't change power state "
	 "from %s to %s (config space inaccessible)\\n\", ...); a page that wrapped the line shows "
	 "it cut after \"from\", \"from D3cold\" or \"to D0,\" (the rest on a line of its own): the "
	 "words before the cut are these functions' alone"},
	{"pci-not-ready",
	 "([a-z0-9_-]+) (" BDF "): not ready ([0-9]+)ms after ([A-Za-z0-9_ >-]+); giving up",
	 LXG176_PCI_UNRESPONSIVE, LX_SEVERITY_ERROR,
	 "the GPU did not answer on PCI {ms} ms after {event}: the kernel gave up waiting, so {driver} "
	 "cannot use it and a VM or container holding it has no GPU",
	 FIX_PCI_UNRESPONSIVE,
	 LX_KMSG_PCI_GPU, {{"gpu", 2}, {"driver", 1}, {"ms", 3}, {"event", 4}},
	 "drivers/pci/pci.c pci_dev_wait(): pci_info(dev, \"not ready %dms after %s; giving up\\n\", "
	 "delay - 1, reset_type) (before 6.x: \"not ready %dms after %s; giving up\\n\" with "
	 "pci_warn), reset_type \"FLR\", \"AF_FLR\", \"PM D3hot->D0\", \"bus reset\", \"resume\", "
	 "for whichever driver holds the device (vfio-pci, Xen's pciback, a GPU driver)"},
	/* The port above the GPU waited for its link to come back after a
	 * reset or resume, and it did not: the GPU below is gone. */
	{"pci-link-not-active",
	 "([a-z0-9_-]+) (" BDF "): Data Link Layer Link Active not set in ([0-9]+) msec",
	 LXG176_PCI_UNRESPONSIVE, LX_SEVERITY_ERROR,
	 "the PCIe link to the GPU did not come back within {ms} ms after a reset or resume (the port "
	 "{port} above it waited): the GPU is gone from the bus, so its driver cannot use it and a VM "
	 "or container holding it has no GPU",
	 FIX_PCI_UNRESPONSIVE,
	 LX_KMSG_PCI_GPU | LX_KMSG_BEHIND_PORT, {{"port", 2}, {"ms", 3}, {"driver", 1}},
	 "drivers/pci/pci.c pci_bridge_wait_for_secondary_bus() (6.x): pci_info(dev, \"Data Link Layer "
	 "Link Active not set in %d msec\\n\", delay); before, pcie_wait_for_link_delay(): "
	 "pci_info(pdev, \"Data Link Layer Link Active not %s in 1000 msec\\n\") with \"set\"; "
	 "printed on the port: the GPU is the one the log shows below it"},
	/* The PM control register still reads D3 after the kernel wrote D0
	 * (all ones: config space gone): the GPU stays off. A refusal to
	 * enter a sleep state is left out (the device stays on). */
	{"pci-power-refused",
	 "([a-z0-9_-]+) (" BDF "): Refused to change power state(, currently in (D3)| from "
	 "(D3(hot|cold)?) to D0)",
	 LXG176_PCI_UNRESPONSIVE, LX_SEVERITY_ERROR,
	 "the GPU did not leave the power state {from} when the kernel set it to D0: it no longer "
	 "answers on PCI (config reads return all ones), so {driver} cannot use it and a VM or "
	 "container holding it has no GPU",
	 FIX_PCI_UNRESPONSIVE,
	 LX_KMSG_PCI_GPU, {{"gpu", 2}, {"driver", 1}, {"from", 4}, {"from", 5}},
	 "drivers/pci/pci.c pci_set_full_power_state() (6.x): pci_info_ratelimited(dev, \"Refused to "
	 "change power state from %s to D0\\n\", pci_power_name(dev->current_state)); 5.x "
	 "pci_raw_set_power_state(): \"Refused to change power state from %s to %s\\n\" (to D0 only "
	 "here); 4.x-5.9: pci_info/dev_info(\"Refused to change power state, currently in D%d\\n\", "
	 "dev->current_state) (D3 only here: PMCSR read as all ones)"},
	/* A reset of a GPU that still had requests outstanding: hung, the
	 * FLR goes ahead and may or may not bring it back. */
	{"pci-flr-pending",
	 "([a-z0-9_-]+) (" BDF "): timed out waiting for pending transaction; performing ((AF )?function "
	 "level reset) anyway",
	 LXG176_PCI_UNRESPONSIVE, LX_SEVERITY_WARNING,
	 "the GPU still had PCIe transactions outstanding when the kernel reset it ({reset}): it had "
	 "hung; {driver} or the VM holding it loses what ran on it, and the GPU may not come back (a "
	 "\"not ready ... giving up\" line after it says so)",
	 FIX_PCI_UNRESPONSIVE,
	 LX_KMSG_PCI_GPU, {{"gpu", 2}, {"driver", 1}, {"reset", 3}},
	 "drivers/pci/pci.c pcie_flr(): pci_err(dev, \"timed out waiting for pending transaction; "
	 "performing function level reset anyway\\n\"); pci_af_flr(): \"timed out waiting for "
	 "pending transaction; performing AF function level reset anyway\\n\" (dev_err before 4.x "
	 "pci_err, same text)"},
	/* nvidia's own function level reset of a GPU (the RM resets a GPU
	 * this way when it recovers one that needs a reset) failed: the GPU
	 * may not come back. */
	{"nvidia-flr-failed",
	 "NVRM: ([a-z_]+)\\(\\) PCI (FLR might have failed|save state failed, Skip FLR)",
	 LXG176_PCI_UNRESPONSIVE, LX_SEVERITY_ERROR,
	 "the nvidia driver's function level reset of the GPU failed ({what}): the GPU it tried to "
	 "recover may not answer until the host is power-cycled",
	 FIX_PCI_UNRESPONSIVE,
	 LX_KMSG_SOLE_NVIDIA, {{"what", 2}, {"function", 1}},
	 "kernel-open/nvidia/os-pci.c os_pci_trigger_flr() (570 on): nv_printf(NV_DBG_ERRORS, "
	 "\"NVRM: %s() PCI FLR might have failed\\n\", __FUNCTION__) when pcie_reset_flr() fails, "
	 "\"NVRM: %s() PCI save state failed, Skip FLR\\n\" when pci_save_state() does"},
	/* the out-of-tree vendor-reset module (AMD GPUs of the reset bug)
	 * could not reset the GPU of a VM: its per-GPU lines ("AMD_NAVI10:
	 * ...") and this one, on the device vfio-pci holds. (vfio-pci's own
	 * "vfio_bar_restore: reset recovery - restoring BARs" is no row:
	 * working passthrough hosts print it when a guest resets its GPU.) */
	{"vendor-reset-failed",
	 "(vfio-pci|pci) (" BDF "): (AMD_[A-Z0-9_]+: )?[Ff]ailed to reset device",
	 LXG176_PCI_UNRESPONSIVE, LX_SEVERITY_ERROR,
	 "the vendor-reset module could not reset the GPU given to a VM (an AMD GPU of the reset "
	 "bug): the GPU stays in the state the VM left it, so the VM's next start finds a GPU that "
	 "does not initialize until the host is power-cycled",
	 FIX_PCI_UNRESPONSIVE,
	 LX_KMSG_PCI_GPU, {{"gpu", 2}},
	 "gnif/vendor-reset src/vendor-reset-dev.c vendor_reset_dev_locked(): pci_warn(dev, \"Failed "
	 "to reset device\\n\") when the GPU's reset op (src/amd/navi10.c, vega10.c, vega20.c, "
	 "polaris10.c) fails; older src/amd/vega10.c amd_vega10_reset(): vr_warn(dev, \"failed to "
	 "reset device\\n\"), vr_warn() printing pci_warn(pdev, \"%s: \" fmt, cfg->info_str) "
	 "(\"AMD_VEGA10: \")"},
	/* PCIe AER (drivers/pci/pcie/aer.c) about a GPU: the reporting port
	 * names the device ("received from"), the device's own lines say the
	 * severity. LX_KMSG_PCI_GPU keeps the GPUs' (a port naming itself is
	 * not one); corrected errors count only when they repeat. */
	{"aer-uncorrected",
	 "([a-z0-9_-]+) (" BDF "): (AER: )?PCIe Bus Error: severity=(Uncorrected|Uncorrectable) "
	 "\\((Fatal|Non-Fatal)\\), type=([^,]+)",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_ERROR,
	 "the GPU's PCIe link reported an uncorrectable error ({kind}, {type}): the transaction was "
	 "lost; the driver ({driver}) must recover the GPU or it is unusable until a reset (nvidia "
	 "cannot: its GPU falls off the bus), for every container holding it",
	 FIX_AER, LX_KMSG_PCI_GPU | LX_KMSG_BEHIND_PORT,
	 {{"gpu", 2}, {"driver", 1}, {"kind", 5}, {"type", 6}, {"port", 2}},
	 "drivers/pci/pcie/aer.c aer_print_error(): pci_err(dev, \"PCIe Bus Error: severity=%s, "
	 "type=%s, (%s)\\n\", aer_error_severity_string[info->severity], ...) (\"Uncorrected "
	 "(Fatal)\", \"Uncorrected (Non-Fatal)\"; 6.x: \"Uncorrectable (...)\"; 6.13 and later with "
	 "\"AER: \" before it; before 4.16 \"id=%04x(%s)\"), on the line of the device that "
	 "reported it; a port's own report (\"pcieport ...\": a Surprise Down, a malformed TLP it "
	 "received) is the GPU's the log shows below that port"},
	{"aer-received-uncorrected",
	 "AER: (Multiple )?(Uncorrected|Uncorrectable) \\((Fatal|Non-Fatal)\\) error (message )?"
	 "received(: id=([0-9a-fA-F]{4})|(:| from) (" BDF "))",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_ERROR,
	 "the GPU sent an uncorrectable PCIe error ({kind}): the transaction was lost; its driver "
	 "must recover it or it is unusable until a reset, for every container holding it",
	 FIX_AER, LX_KMSG_PCI_GPU | LX_KMSG_ANNOUNCES, {{"gpu", 8}, {"kind", 3}, {"requester_id", 6}},
	 "drivers/pci/pcie/aer.c aer_isr_one_error() / aer_print_port_info(): pci_info(dev, "
	 "\"%s%s error received: %04x:%02x:%02x.%d\\n\", multi ? \"Multiple \" : \"\", "
	 "\"Uncorrected (Non-Fatal)\" or \"Uncorrected (Fatal)\"; 6.x: \"%s%s error message "
	 "received from %s\\n\" with \"Uncorrectable (...)\"; before 4.16: dev_info/pci_info(dev, "
	 "\"AER: %s%s error received: id=%04x\\n\"), the requester ID (bus << 8 | devfn); the device "
	 "named is the one that reported it (a root port naming itself is no GPU)"},
	/* PCIe hotplug (drivers/pci/hotplug/pciehp_ctrl.c): the slot's link
	 * or card went away; the GPU is the one below that port (an eGPU
	 * behind Thunderbolt or USB4, OCuLink, a hot-plug slot). */
	{"pciehp-link-down",
	 "(pciehp|pcieport) (" BDF ")(:pcie[0-9]+)?: (pciehp: )?Slot\\(([^)]*)\\): (Link Down|Card not "
	 "present|Power fault|Cannot train link)|(pciehp|pcieport) (" BDF ")(:pcie[0-9]+)?: (pciehp: )?(link "
	 "training error)",
	 LXG179_GPU_LINK_DOWN, LX_SEVERITY_ERROR,
	 "the PCIe hotplug port {port} above the GPU reported \"{what}\" (slot {slot}): the GPU "
	 "left the bus (an eGPU's Thunderbolt, USB4 or OCuLink cable or enclosure, its power supply, "
	 "a hot-plug slot), its driver lost it, and programs, containers or a VM using it fail until "
	 "it is back and the driver has taken it again",
	 "check the eGPU's cable (a certified Thunderbolt or USB4 cable, directly to the host's port, "
	 "no dock or hub between), the enclosure's power supply and the GPU's power cables; update "
	 "the enclosure's and the host's firmware (fwupdmgr update); for Thunderbolt turn its PCIe "
	 "power management off (pcie_port_pm=off on the kernel command line); a GPU that does not "
	 "come back needs a reboot",
	 LX_KMSG_PCI_GPU | LX_KMSG_BEHIND_PORT, {{"port", 2}, {"slot", 5}, {"what", 6}, {"port", 8}, {"what", 11}},
	 "drivers/pci/hotplug/pciehp_hpc.c pciehp_check_link_status(): ctrl_info(ctrl, \"Slot(%s): "
	 "Cannot train link: status %#06x\\n\") when the link of a card present does not come up "
	 "(4.x: ctrl_err(ctrl, \"link training error: status %#06x\\n\")); "
	 "drivers/pci/hotplug/pciehp_ctrl.c pciehp_handle_presence_or_link_change(): ctrl_info(ctrl, "
	 "\"Slot(%s): Link Down\\n\", slot_name(ctrl)), ctrl_info(ctrl, \"Slot(%s): Card not "
	 "present\\n\"); pciehp_handle_disable_request()/power fault: ctrl_err(ctrl, \"Slot(%s): Power "
	 "fault\\n\"); ctrl_info is pci_info on the port under dev_fmt \"pciehp: \" (4.x: dev_info on "
	 "the port service, \"pciehp 0000:00:1c.0:pcie004: Slot(0-1): Link Down\"); the GPU is the "
	 "one below the port (probe.c's \"PCI bridge to %pR\" gives the port's buses)"},
	/* Downstream port containment (drivers/pci/pcie/dpc.c): the port cut
	 * the link below it off after an uncorrectable error; the device that
	 * sent it is named (6.12 on) or its requester ID is (before). */
	{"dpc-containment",
	 "([a-z0-9_-]+) (" BDF ")(:pcie[0-9]+)?: DPC:? containment event, status:0x[0-9a-fA-F]+( "
	 "source:(0x[0-9a-fA-F]{1,4})|, (ERR_FATAL|ERR_NONFATAL) received from (" BDF ")|: ([A-Za-z ]+) "
	 "detected)",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_ERROR,
	 "the PCIe port above the GPU cut its link off (downstream port containment) after an "
	 "uncorrectable error the GPU sent: the GPU is gone from the bus until the port "
	 "recovers the link and its driver the GPU, else until a reboot, for every container or VM "
	 "holding it",
	 FIX_AER, LX_KMSG_PCI_GPU | LX_KMSG_BEHIND_PORT,
	 {{"gpu", 7}, {"requester_id", 5}, {"reason", 6}, {"reason", 8}, {"port", 2}},
	 "drivers/pci/pcie/dpc.c dpc_process_error() (6.12 on): pci_warn(pdev, \"containment event, "
	 "status:%#06x, %s received from %04x:%02x:%02x.%d\\n\", status, \"ERR_FATAL\" or "
	 "\"ERR_NONFATAL\", ...) under dev_fmt \"DPC: \"; before: pci_info(pdev, \"containment event, "
	 "status:%#06x source:%#06x\\n\", status, source) (4.x dpc_handler(): dev_info(\"DPC "
	 "containment event, status:%#06x source:%#06x\\n\") on the port service device); the "
	 "source, a requester ID, names the device; 6.12 on, a containment the port triggered itself: "
	 "\"containment event, status:%#06x: unmasked uncorrectable error detected\\n\" (or \"%s "
	 "detected\" with RP PIO error, software trigger): then, as for a source of 0x0000 or the "
	 "port's own, the GPU below the port (LX_KMSG_BEHIND_PORT)"},
	/* Firmware-first error handling (servers whose firmware takes PCIe
	 * errors, ACPI APEI/GHES): the kernel prints the firmware's record,
	 * not its own AER lines; the record's device, when the log shows it
	 * to be a GPU (the record's vendor and class lines do); a record of
	 * the port above the GPU (a root port's fatal completion timeout, also
	 * BERT's record of the previous boot's), the GPU the log shows below
	 * that port. */
	{"ghes-pcie-error",
	 "\\[Hardware Error\\]: +device_id: (" BDF ")",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_ERROR,
	 "the system firmware reported an uncorrected PCIe error of the GPU (APEI firmware-first "
	 "error handling: the kernel prints the firmware's record, not its own AER lines): the GPU "
	 "may have stopped answering, for every container or VM holding it, until the host is "
	 "rebooted",
	 FIX_AER, LX_KMSG_PCI_GPU | LX_KMSG_CPER_RECORD | LX_KMSG_BEHIND_PORT, {{"gpu", 1}, {"port", 1}},
	 "drivers/firmware/efi/cper.c cper_print_pcie(): printk(\"%s\"\"device_id: "
	 "%04x:%02x:%02x.%x\\n\", pfx, ...) then \"vendor_id: 0x%04x, device_id: 0x%04x\\n\" and "
	 "\"class_code: %02x%02x%02x\\n\", under cper_estatus_print_section()'s \"Error %d, type: "
	 "%s\\n\" (fatal, recoverable, corrected, info), pfx the record's \"{%u}[Hardware Error]: \" "
	 "(drivers/acpi/apei/ghes.c ghes_print_estatus())"},
	/* The port's recovery of the link after an uncorrectable error failed:
	 * the devices below stay cut off (the GPU the log shows below it). */
	{"aer-recovery-failed",
	 "([a-z0-9_-]+) (" BDF "): (AER: )?([Dd]evice recovery failed|subordinate device reset failed)",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_ERROR,
	 "the PCIe port above the GPU could not recover the link after an uncorrectable error "
	 "({what}): the GPU stays cut off, unusable for every container or VM holding it until the "
	 "host is rebooted",
	 FIX_AER, LX_KMSG_PCI_GPU | LX_KMSG_BEHIND_PORT, {{"gpu", 2}, {"what", 4}, {"port", 2}},
	 "drivers/pci/pcie/err.c pcie_do_recovery(): pci_info(bridge, \"device recovery failed\\n\"), "
	 "pci_warn(bridge, \"subordinate device reset failed\\n\") under dev_fmt \"AER: \" (4.x "
	 "aerdrv_core.c do_recovery(): dev_info(&dev->dev, \"AER: Device recovery failed\\n\")); printed "
	 "on the port: the GPU is the one the log shows below it"},
	{"aer-gpu-no-recovery",
	 "(nvidia|amdgpu|i915|xe) (" BDF "): (AER: can't recover \\(no error_detected callback\\)|device "
	 "has no AER-aware driver)",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_ERROR,
	 "an uncorrectable PCIe error hit the link of the GPU and {driver} cannot recover it (the "
	 "driver has no AER callbacks): the GPU stays unusable, for every container holding it, "
	 "until the host is rebooted",
	 FIX_AER, 0, {{"gpu", 2}, {"driver", 1}},
	 "drivers/pci/pcie/err.c report_error_detected(): pci_info(dev, \"AER: can't recover (no "
	 "error_detected callback)\\n\") (before 5.x: \"can't recover (no error_detected "
	 "callback)\\n\"; 4.x: dev_printk(\"device has no AER-aware driver\\n\")), for a device "
	 "below the port that reported the error"},
	{"aer-corrected",
	 "([a-z0-9_-]+) (" BDF "): (AER: )?PCIe Bus Error: severity=(Corrected|Correctable), "
	 "type=([^,]+)",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_WARNING,
	 "the GPU's PCIe link keeps reporting corrected errors ({type}): " AER_NOISY_LINK,
	 FIX_AER_CORRECTED, LX_KMSG_PCI_GPU | LX_KMSG_REPEATS(10) | LX_KMSG_BEHIND_PORT,
	 {{"gpu", 2}, {"driver", 1}, {"type", 5}, {"port", 2}},
	 "drivers/pci/pcie/aer.c aer_print_error(): pci_err/pci_warn(dev, \"PCIe Bus Error: "
	 "severity=%s, type=%s, (%s)\\n\") with \"Corrected\" (6.x: \"Correctable\"); a finding "
	 "only from ten reports of one GPU on (a few at boot are common); a port's own "
	 "reports (the receiver of the GPU's link) are the GPU's the log shows below it"},
	{"aer-received-corrected",
	 "AER: (Multiple )?(Corrected|Correctable) error (message )?received(: id=([0-9a-fA-F]{4})|(:| "
	 "from) (" BDF "))",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_WARNING,
	 "the GPU's PCIe link keeps reporting corrected errors: " AER_NOISY_LINK,
	 FIX_AER_CORRECTED, LX_KMSG_PCI_GPU | LX_KMSG_REPEATS(10) | LX_KMSG_ANNOUNCES,
	 {{"gpu", 7}, {"requester_id", 5}},
	 "drivers/pci/pcie/aer.c: pci_info(dev, \"%s%s error received: %04x:%02x:%02x.%d\\n\") "
	 "with \"Corrected\"; 6.x: \"%s%s error message received from %s\\n\" with "
	 "\"Correctable\"; before 4.16 \"AER: %s%s error received: id=%04x\\n\"; a finding only from "
	 "ten reports of one GPU on"},
	/* Firmware-first AER (APEI/GHES): the kernel decodes each of the
	 * firmware's PCIe records with the device's AER registers, corrected
	 * ones too (ghes_handle_aer() queues every severity), and prints no
	 * "PCIe Bus Error" line: the same noisy link, counted the same way.
	 * An uncorrected record is ghes-pcie-error's (an error), whose finding
	 * about the same GPU this one joins. */
	{"ghes-aer-status",
	 "([a-z0-9_-]+) (" BDF "): (AER: )?aer_status: (0x[0-9a-fA-F]+), aer_mask: 0x[0-9a-fA-F]+",
	 LXG152_GPU_PCIE_AER, LX_SEVERITY_WARNING,
	 "the system firmware keeps reporting PCIe errors of the GPU's link (firmware-first AER, "
	 "the kernel's decode of its records: aer_status {status}): " AER_NOISY_LINK,
	 FIX_AER_CORRECTED, LX_KMSG_PCI_GPU | LX_KMSG_REPEATS(10) | LX_KMSG_BEHIND_PORT,
	 {{"gpu", 2}, {"driver", 1}, {"status", 4}, {"port", 2}},
	 "drivers/pci/pcie/aer.c cper_print_aer() (6.x pci_print_aer(), aer_printk()) (from "
	 "aer_recover_work_func(), which "
	 "drivers/acpi/apei/ghes.c ghes_handle_aer() queues for each PCIe record of any severity): "
	 "pci_err(dev, \"aer_status: 0x%08x, aer_mask: 0x%08x\\n\", status, mask) under dev_fmt "
	 "\"AER: \", then __aer_print_error()'s bits (\"   [%2d] %-22s%s\\n\", e.g. \"[12] Timeout\"), "
	 "\"aer_layer=%s, aer_agent=%s\\n\" and, for an uncorrectable one only, \"aer_uncor_severity: "
	 "0x%08x\\n\"; a finding only from ten decodes of one GPU on, as for the kernel's own "
	 "reports"},
	/* The display engine, any GPU driver (drm_atomic_helper.c, nvidia-drm,
	 * nvidia-modeset): page flips that never complete freeze or blank the
	 * screen; rendering, compute and video engines are separate. */
	{"drm-flip-timeout",
	 GPU_DRIVER " (" BDF "): (amdgpu: )?\\[drm\\] \\*ERROR\\* (\\[(CRTC|PLANE|CONNECTOR):[0-9]+:[^]]+\\] )?"
	 "(hw_done or flip_done|flip_done|hw_done|cleanup_done|commit wait|vblank wait) timed out",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "the display engine of the GPU ({driver}) did not complete a page flip ({what} timed out): the "
	 "screen froze or went dark; a container's compute or transcoding on the GPU is not hit "
	 "unless the GPU also hung (a ring timeout or an Xid in the same log)",
	 FIX_DISPLAY,
	 0, {{"gpu", 2}, {"driver", 1}, {"what", 6}},
	 "drivers/gpu/drm/drm_atomic_helper.c drm_atomic_helper_wait_for_flip_done(): "
	 "drm_err(dev, \"[CRTC:%d:%s] flip_done timed out\\n\"); "
	 "drm_atomic_helper_wait_for_dependencies(): \"[CRTC:%d:%s] hw_done timed out\\n\", "
	 "\"[CONNECTOR:%d:%s] flip_done timed out\\n\"; amdgpu_dm.c: \"[CRTC:%d:%s] hw_done or "
	 "flip_done timed out\\n\"; drm_atomic_helper_commit_hw_done's waiters: \"[%s:%d:%s] commit "
	 "wait timed out\\n\", \"flip_done timed out\\n\"; stall_checks(): drm_err(crtc->dev, "
	 "\"[CRTC:%d:%s] cleanup_done timed out\\n\")"},
	/* The same without the device, where the CRTC's name is i915's and
	 * xe's ("pipe A"; amdgpu names them "crtc-0", nouveau "head-0"): the
	 * log's Intel GPU, not its only one of any driver. */
	{"drm-flip-timeout-old-intel",
	 "(\\[drm:[a-z0-9_]+ \\[[a-z0-9_]+\\]\\] \\*ERROR\\* )?\\[(CRTC|PLANE):[0-9]+:(pipe [A-D]|plane "
	 "[0-9]+[A-D]|[a-z ]+[A-D])\\] (hw_done|flip_done|cleanup_done|commit wait|vblank wait) timed out",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "the display engine of the Intel GPU did not complete a page flip on {crtc} ({what} timed "
	 "out): the screen froze or went dark; a container's transcoding or compute on the GPU is not "
	 "hit unless the GPU also hung (a GPU HANG in the same log)",
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_INTEL, {{"what", 4}, {"crtc", 3}},
	 "drivers/gpu/drm/drm_atomic_helper.c: DRM_ERROR(\"[CRTC:%d:%s] flip_done timed out\\n\") "
	 "(4.x), WARN(!ret, \"[CRTC:%d:%s] vblank wait timed out\\n\") (every kernel), with i915's "
	 "CRTC and plane names (intel_display.c: \"pipe %c\", \"plane %d%c\", \"primary %c\", "
	 "\"sprite %c\", \"cursor %c\")"},
	{"drm-flip-timeout-old",
	 "(\\[drm:[a-z0-9_]+ \\[[a-z0-9_]+\\]\\] \\*ERROR\\* )?\\[(CRTC|PLANE|CONNECTOR):[0-9]+:[^]]+\\] "
	 "(hw_done|flip_done|cleanup_done|commit wait|vblank wait) timed out",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "a GPU's display engine did not complete a page flip ({what} timed out): the screen froze "
	 "or went dark; a container's compute or transcoding on the GPU is not hit unless the GPU "
	 "also hung (a ring timeout or an Xid in the same log)",
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_GPU, {{"what", 3}},
	 "drivers/gpu/drm/drm_atomic_helper.c before drm_err(): DRM_ERROR(\"[CRTC:%d:%s] flip_done "
	 "timed out\\n\"), DRM_ERROR(\"[PLANE:%d:%s] flip_done timed out\\n\"); "
	 "drm_atomic_helper_wait_for_vblanks(): WARN(!ret, \"[CRTC:%d:%s] vblank wait timed out\\n\"), "
	 "without the device in every kernel; the commit and cleanup waits' DRM_ERROR before 5.x"},
	/* drm_wait_one_vblank(): a CRTC that stopped giving vblank interrupts
	 * (a drm_WARN, so a WARNING follows it): commits waiting on it hang. */
	{"drm-vblank-wait-timeout",
	 "(([a-z0-9_-]+) (" BDF "): (\\[drm\\] )?)?vblank wait timed out on crtc ([0-9]+)",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "a GPU's display engine stopped signalling vblanks on crtc {crtc} (a vblank wait timed "
	 "out): the screen froze or went dark and the commits waiting on it hang; a container's "
	 "compute or transcoding on the GPU is not hit unless the GPU also hung (a ring timeout or "
	 "an Xid in the same log)",
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_GPU, {{"gpu", 3}, {"driver", 2}, {"crtc", 5}},
	 "drivers/gpu/drm/drm_vblank.c drm_wait_one_vblank(): drm_WARN(dev, !ret, \"vblank wait "
	 "timed out on crtc %i\\n\", pipe) (before 5.x: WARN(ret == 0, \"vblank wait timed out on "
	 "crtc %i\\n\", pipe), without the device); drm_WARN's prefix is \"%s %s: [drm] \", the "
	 "driver and the device"},
	{"nvidia-drm-flip-timeout",
	 "\\[(nvidia)-drm\\] \\[GPU ID 0x([0-9a-fA-F]+)\\]:? (Flip event|LUT notifier) timeout on head ([0-9]+)",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "the display engine of the NVIDIA GPU (nvidia-drm GPU ID 0x{gpu_id}) did not complete a page "
	 "flip or colour table update on head {head} ({what} timeout): the screen froze or went dark; "
	 "CUDA and NVENC on the GPU are not hit unless an Xid comes with it",
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_GPU, {{"gpu_id", 2}, {"driver", 1}, {"head", 4}, {"what", 3}},
	 "kernel-open/nvidia-drm/nvidia-drm-crtc.c, nvidia-drm-modeset.c nv_drm_atomic_commit(): "
	 "NV_DRM_DEV_LOG_ERR(nv_dev, \"Flip event timeout on head %u\", ...), which prints "
	 "\"[nvidia-drm] [GPU ID 0x%08x] Flip event timeout on head %u\"; 570 and later also "
	 "\"LUT notifier timeout on head %u\" when the colour lookup table's update does not complete"},
	{"nvidia-modeset-idle-timeout",
	 "(nvidia)-modeset: (ERROR|WARNING): GPU:([0-9]+): (Idling display engine timed out: "
	 "+(0x[0-9a-fA-F]+:[0-9:]+)|Timed out waiting for core channel idle|Timeout while waiting for "
	 "idle)",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "the display engine of the NVIDIA GPU {index} did not go idle ({state}): the screen froze or "
	 "went dark; CUDA and NVENC on the GPU are not hit unless an Xid comes with it",
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_GPU, {{"index", 3}, {"driver", 1}, {"state", 5}, {"state", 4}},
	 "src/nvidia-modeset/src/nvkms-evo.c, nvkms-rm.c (nvkms): nvEvoLogDev(pDevEvo, EVO_LOG_ERROR, "
	 "\"Idling display engine timed out: 0x%08x:%d:%d:%d\"); nvkms-evo3.c (and evo1/evo2, 515 "
	 "on): nvEvoLogDisp(pDispEvo, EVO_LOG_ERROR, \"Timed out waiting for core channel idle.\"); "
	 "nvkms-hw-flip.c (535 on): nvEvoLogDisp(pDispEvo, EVO_LOG_WARN, \"Timeout while waiting for "
	 "idle.\"); printed as \"nvidia-modeset: ERROR: GPU:%d: ...\" (WARNING for EVO_LOG_WARN)"},
	/* i915's and xe's display state buffer (DSB), which writes a frame's
	 * update at the right scanline, did not finish it. */
	{"intel-dsb-timeout",
	 INTEL_DISPLAY_ERROR "(\\[CRTC:[0-9]+:([^]]+)\\] DSB ([0-9]+) (timed out waiting for idle|poll error|"
	 "response timeout)|Timed out waiting for DSB workload completion)",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "the display engine of the Intel GPU ({driver}) did not complete a frame's update (its "
	 "display state buffer: {what}): the screen froze, flickered or tore; a container's "
	 "transcoding or compute on the GPU is not hit unless the GPU also hung",
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"driver", 2}, {"crtc", 8}, {"what", 7}, {"driver", 6}},
	 "drivers/gpu/drm/i915/display/intel_dsb.c intel_dsb_wait(): drm_err(\"[CRTC:%d:%s] DSB %d "
	 "timed out waiting for idle (current head=0x%x, head=0x%x, tail=0x%x)\\n\") (6.6: without "
	 "the registers); intel_dsb_irq_handler() (later kernels): \"[CRTC:%d:%s] DSB %d poll "
	 "error\\n\", \"[CRTC:%d:%s] DSB %d response timeout\\n\"; 6.1 \"Timed out waiting for DSB "
	 "workload completion.\\n\""},
	/* nvidia-drm names the GPU by the RM's id (its address, decoded);
	 * nvidia-modeset by an index: the log's only NVIDIA GPU. */
	{"nvidia-drm-no-device",
	 "\\[(nvidia)-drm\\] \\[GPU ID 0x([0-9a-fA-F]+)\\]:? Failed to (allocate NvKmsKapiDevice|query "
	 "NvKmsKapiDevice resources info|register device)",
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "nvidia-drm could not take the NVIDIA GPU (nvidia-drm GPU ID 0x{gpu_id}; failed to {what}): "
	 "nvidia-modeset could not open it, which happens when the driver could not initialize the "
	 "GPU; no /dev/dri node for it",
	 "look at the driver's earlier messages about this GPU (dmesg | grep -i nvrm): RmInitAdapter's "
	 "failure and its cause; if there are none, check that nvidia, nvidia-modeset and nvidia-drm "
	 "are of one version (modinfo -F version)",
	 LX_KMSG_SOLE_GPU, {{"gpu_id", 2}, {"driver", 1}, {"what", 3}},
	 "kernel-open/nvidia-drm/nvidia-drm-drv.c nv_drm_dev_load() (nv_drm_load() before 560): "
	 "NV_DRM_DEV_LOG_ERR(nv_dev, \"Failed to allocate NvKmsKapiDevice\") when "
	 "nvKms->allocateDevice() fails, and \"Failed to query NvKmsKapiDevice resources info\"; "
	 "NV_DRM_DEV_LOG_ERR is DRM_ERROR(\"[nvidia-drm] [GPU ID 0x%08x] \" ...), printed as "
	 "\"[drm:nv_drm_load [nvidia_drm]] *ERROR* [nvidia-drm] [GPU ID 0x00000100] ...\"; "
	 "nv_drm_register_drm_device(): NV_DRM_DEV_LOG_ERR(nv_dev, \"Failed to register device\") when "
	 "drm_dev_register() fails (535: also after the load failed)"},
	{"nvidia-modeset-gpu-progress",
	 "(nvidia)-modeset: ERROR: GPU:([0-9]+): (Error while waiting for GPU progress|Failed to query "
	 "display engine channel state|Display engine push buffer channel allocation failed): "
	 "(0x[0-9a-fA-F]+(:[0-9: x0-9a-fA-F]*[0-9a-fA-F])?)",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "the display engine of the NVIDIA GPU {index} stopped answering ({what}, {state}): the screen "
	 "froze or went dark; it follows a GPU that stopped working (an Xid, a GPU lost or off the "
	 "bus in the same log is the cause to fix), else CUDA and NVENC are not hit",
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_GPU, {{"index", 2}, {"driver", 1}, {"what", 3}, {"state", 4}},
	 "src/nvidia-modeset/src/nvkms-dma.c nvEvoMakeRoom(): nvEvoLogDev(pDevEvo, EVO_LOG_ERROR, "
	 "\"Error while waiting for GPU progress: 0x%08x:%d %d:%d:%d:%d\") every timeout while the "
	 "push buffer does not drain; nvkms-evo3.c (and nvkms-evo1.c): \"Failed to query display "
	 "engine channel state: 0x%08x:%d:%d:0x%08x\" when the RM control fails; printed as "
	 "\"nvidia-modeset: ERROR: GPU:%d: ...\"; nvkms-rm.c: \"Display engine push buffer channel "
	 "allocation failed: 0x%x (%s)\" when the RM could not give the display engine a channel"},
	/* nvidia-modeset could not set up the GPU's display engine (the RM
	 * refused its display objects): after a GPU that failed or hung, or a
	 * display engine in a bad state; a GPU without one (displayless, data
	 * centre) takes another path and says nothing. */
	{"nvidia-modeset-display-init-failed",
	 "(nvidia)-modeset: ERROR: GPU:([0-9]+): (Failed to initialize display engine: (0x[0-9a-fA-F]+)|"
	 "Failed to allocate display engine (core DMA push buffer|window channels)|Failed to "
	 "initialize the display subsystem for the NVIDIA graphics device)",
	 LXG175_DISPLAY_TIMEOUT, LX_SEVERITY_WARNING,
	 "nvidia-modeset could not set up the display engine of the NVIDIA GPU {index} (\"{what}\"): "
	 "no display on it; it follows a GPU that stopped working (an Xid, a GPU lost or off the bus, "
	 "a failed initialization in the same log is the cause to fix), else CUDA and NVENC are not "
	 "hit",
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_GPU, {{"index", 2}, {"driver", 1}, {"what", 3}, {"status", 4}},
	 "src/nvidia-modeset/src/nvkms-evo.c nvAllocCoreChannelEvo() (515 on): nvEvoLogDev(pDevEvo, "
	 "EVO_LOG_ERROR, \"Failed to initialize display engine: 0x%x (%s)\"), \"Failed to allocate "
	 "display engine core DMA push buffer\", \"Failed to allocate display engine window "
	 "channels\"; nvkms-rm.c nvRmAllocDisplays(): \"Failed to initialize the display subsystem for "
	 "the NVIDIA graphics device!\"; printed as \"nvidia-modeset: ERROR: GPU:%d: ...\""},
	/* HDMI 2.1's fixed-rate link (FRL) would not train at any rate: the
	 * output stays dark; the first failure retries at a lower rate, and
	 * only the fallback's failure is the output's. */
	{"nvidia-modeset-frl-training-failed",
	 "(nvidia)-modeset: ERROR: GPU:([0-9]+): (HDMI FRL fallback link training failed)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "an HDMI output of the NVIDIA GPU {index} did not come up: its HDMI 2.1 link (FRL) failed "
	 "to train even at the lower rates it falls back to" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_GPU, {{"index", 2}, {"driver", 1}, {"what", 3}},
	 "src/nvidia-modeset/src/nvkms-hdmi.c (515 on): nvEvoLogDisp(pDispEvo, EVO_LOG_ERROR, \"HDMI "
	 "FRL fallback link training failed.\") after \"HDMI FRL link training failed.\" "
	 "(EVO_LOG_WARN, retried at a lower rate); printed as \"nvidia-modeset: ERROR: GPU:%d: ...\""},
	/* A display output (any GPU driver): the monitor, its cable, adapter,
	 * dock or MST hub. Messages without a device are left out where a
	 * server's BMC VGA (ast, mgag200) prints them too: drm_edid's 6.x
	 * "EDID block 0 (tag 0x00) checksum is invalid" every 10 s on a port
	 * with no monitor, which would blame the log's only GPU. */
	{"drm-edid-invalid",
	 GPU_DRIVER " (" BDF "): (\\[drm(:[a-z0-9_]+ \\[[a-z0-9_]+\\])?\\] )?(\\[CONNECTOR:[0-9]+:)?"
	 "([A-Za-z0-9]+(-[A-Za-z])?-[0-9]+)\\]?:? "
	 "EDID is invalid",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the monitor on {connector} of the GPU ({driver}), or the adapter, KVM switch or cable "
	 "before it, sent a corrupt EDID: the driver cannot read its modes, so that output stays "
	 "dark or falls back to a low resolution" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_EDID_DUMP, {{"gpu", 2}, {"driver", 1}, {"connector", 6}},
	 "drivers/gpu/drm/drm_edid.c connector_bad_edid(): dev_warn(connector->dev->dev, \"%s: EDID "
	 "is invalid:\\n\", connector->name) (4.x, 5.x; drm_warn in 5.10: \"[drm] %s: ...\"; 6.x "
	 "drm_dbg_kms \"[CONNECTOR:%d:%s] EDID is invalid:\\n\", with drm.debug only), then edid_block_dump()'s "
	 "\"\\t[%02x] BAD  \" / \"ZERO \" / \"GOOD \" lines; zeroes only: no finding"},
	{"drm-mst-act-timeout",
	 "(" GPU_DRIVER " (" BDF "): )?\\[drm(:[a-z0-9_]+ \\[[a-z0-9_]+\\])?\\] \\*ERROR\\* "
	 "Failed to get ACT( bit [0-9]+)? after ([0-9]+) ?ms",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "a DisplayPort MST hub or dock on the GPU did not confirm its new stream allocation (ACT) "
	 "within {ms} ms: the monitors behind it stay dark or flicker" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_GPU, {{"gpu", 3}, {"driver", 2}, {"ms", 6}},
	 "drivers/gpu/drm/display/drm_dp_mst_topology.c drm_dp_check_act_status(): "
	 "DRM_ERROR/drm_err(mgr->dev, \"Failed to get ACT after %dms, last status: %02x\\n\"); "
	 "6.x drm_dp_helper.c drm_dp_dpcd_poll_act_handled(): drm_err(aux->drm_dev, \"Failed to "
	 "get ACT after %d ms, last status: %02x\\n\")"},
	{"drm-mst-payload-failed",
	 "(" GPU_DRIVER " (" BDF "): )?\\[drm(:[a-z0-9_]+ \\[[a-z0-9_]+\\])?\\] (\\*ERROR\\* )?"
	 "(Step 2 of creating MST payload for [0-9a-fx]+ failed: (-?[0-9]+)|Failed to create MST "
	 "payload for port [0-9a-fx]+: (-?[0-9]+))",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "a DisplayPort MST hub or dock on the GPU ({driver}) did not take the new stream's time slots "
	 "({what}): the monitor behind it stays dark" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_GPU, {{"gpu", 3}, {"driver", 2}, {"what", 6}, {"error", 7}, {"error", 8}},
	 "drivers/gpu/drm/display/drm_dp_mst_topology.c drm_dp_add_payload_part2() (6.1 and later): "
	 "drm_err(mgr->dev, \"Step 2 of creating MST payload for %p failed: %d\\n\", payload->port, "
	 "ret); drm_dp_add_payload_part1() (6.1 to 6.6): drm_warn(mgr->dev, \"Failed to create MST "
	 "payload for port %p: %d\\n\", payload->port, ret) (later drm_dbg_kms)"},
	{"i915-dp-link-training-failed",
	 "((i915|xe) (" BDF "): \\[drm\\] |\\[drm:intel_[a-z0-9_]+( \\[(i915[a-z_]*|xe)\\])?\\] )\\*ERROR\\* "
	 "(\\[CONNECTOR:[0-9]+:([^]]+)\\])?(\\[ENCODER:[0-9]+:[^]]+\\])?(\\[[A-Z0-9 ]+\\] ?)?"
	 "(Link Training Unsuccessful|Can't reduce link training parameters after failure|"
	 "failed to train DP, aborting|Failed to enable link training)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the DisplayPort link from the Intel GPU to a monitor did not train, not even at the "
	 "lowest rate and lane count ({what}): that output stays dark" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"driver", 2}, {"what", 10}, {"connector", 7}},
	 "drivers/gpu/drm/i915/display/intel_dp.c and intel_dp_link_training.c "
	 "intel_dp_get_link_train_fallback_values(): drm_err(\"Link Training Unsuccessful\\n\") "
	 "(6.x lt_err(): \"[CONNECTOR:%d:%s][ENCODER:%d:%s][%s] \" before it, at error level only "
	 "while the sink is connected); intel_dp_start_link_train(): lt_err(\"Can't reduce link "
	 "training parameters after failure\\n\"); 3.x/4.x intel_dp_complete_link_train(): "
	 "DRM_ERROR(\"failed to train DP, aborting\\n\") (the steps of a training, 3.x's \"too many "
	 "... retries, give up\" aside, are the next row's)"},
	/* A link training step of i915 failed (6.x lt_err(): at error level
	 * only while the sink is connected): the driver trains again at a lower
	 * rate or lane count (an eDP panel: again at the same), and the output
	 * stays dark until one works. "Failed to enable link training" is the
	 * row above's. */
	{"i915-dp-link-training-step",
	 INTEL_DISPLAY_ERROR "(\\[CONNECTOR:[0-9]+:([^]]+)\\] ?)?(\\[ENCODER:[0-9]+:[^]]+\\] ?)?(\\[([A-Z0-9 ]+)\\] ?)?"
	 "(Failed clock recovery [0-9]+ times, giving up!|[Ff]ailed to start channel equalization|"
	 "[Ff]ailed to update link training|[Ff]ailed to get link status|failed to enable link training|"
	 "Failed to start 128b/132b TPS[12]( CDS)?|Failed to (read|set initial|update) TX FFE "
	 "(presets|settings)|Lane channel eq timeout|Interlane align timeout|CDS timeout|Max loop count "
	 "reached|Downstream link training failure|128b/132b intra-hop not clear|Link Training failed at "
	 "link rate = [0-9]+, lane count = [0-9]+)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the DisplayPort link from the Intel GPU ({driver}) to a monitor, panel or dock failed a step of "
	 "its link training ({what}): the driver trains it again at a lower link rate or lane count, "
	 "and the output stays dark, flickers or comes up at a lower resolution" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"driver", 2}, {"what", 12}, {"connector", 8}, {"phy", 11}, {"driver", 6}},
	 "drivers/gpu/drm/i915/display/intel_dp_link_training.c lt_err() (6.6 and later, with the "
	 "connector, encoder and PHY before the text; 6.1 drm_err with the encoder and PHY): "
	 "\"[CONNECTOR:%d:%s][ENCODER:%d:%s][%s] Failed clock recovery %d times, giving up!\\n\", "
	 "\"[CONNECTOR:%d:%s][ENCODER:%d:%s][%s] Failed to start channel equalization\\n\", the "
	 "128b/132b steps (\"[CONNECTOR:%d:%s][ENCODER:%d:%s][%s] Lane channel eq timeout\\n\", "
	 "likewise Failed to start 128b/132b TPS1 or TPS2, Interlane align timeout, CDS timeout, Max "
	 "loop count reached, Downstream link training failure); 4.x and 5.x DRM_ERROR/drm_err: "
	 "\"failed to update link training\\n\", also failed to get link status, failed to start "
	 "channel equalization, failed to enable link training, and 4.x [CONNECTOR:%d:%s] Link "
	 "Training failed at link rate = %d, lane count = %d"},
	/* The panel's self refresh (PSR, PSR2 selective update, Panel Replay)
	 * did not leave its active state: the driver waited for it before a
	 * frame, a disable or a re-enable, and went on without it. */
	{"intel-psr-idle-timeout",
	 INTEL_DISPLAY_ERROR "(Timed out waiting (for )?PSR2? [Ii]dle [Ss]tate|Timed out waiting for PSR2? "
	 "Idle for re-enable|PSR (wait|idle) timed out( 0x[0-9a-fA-F]+)?, atomic update may fail)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the self refresh (PSR or Panel Replay) of the internal panel on the Intel GPU ({driver}) "
	 "did not go idle when the driver needed it to ({what}): the panel can freeze, show a stale or "
	 "garbled picture or stay black until the display is switched off and on (some panels give it "
	 "at mode sets with no visible effect)" DISPLAY_OUTPUT_ONLY,
	 FIX_INTEL_PSR,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"driver", 2}, {"what", 7}, {"driver", 6}},
	 "drivers/gpu/drm/i915/display/intel_psr.c intel_psr_wait_exit_locked(): drm_err(\"Timed out "
	 "waiting PSR idle state\\n\"); __psr_wait_for_idle_locked(): drm_err(\"Timed out waiting for "
	 "PSR Idle for re-enable\\n\"); intel_psr_wait_for_idle_locked() (6.x): drm_err(\"PSR wait "
	 "timed out, atomic update may fail\\n\") (5.x: \"PSR idle timed out 0x%x, atomic update may "
	 "fail\\n\"); 4.x DRM_ERROR(\"Timed out waiting for PSR Idle State\\n\"), \"Timed out waiting "
	 "for PSR2 Idle for re-enable\\n\""},
	/* i915's side of a DisplayPort MST stream (a dock, a hub): the
	 * stream's time slots (VCPI, payload) could not be allocated, or the
	 * source never sent the allocation change trigger (ACT). */
	{"intel-dp-mst-payload-failed",
	 INTEL_DISPLAY_ERROR "(failed to allocate vcpi|Failed to create MST payload for ([^ :]+): (-?[0-9]+)|"
	 "Timed out waiting for ACT sent)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU ({driver}) could not set up a DisplayPort MST stream through a dock or hub "
	 "({what}): the monitor behind it stays dark or flickers" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"driver", 2}, {"what", 7}, {"connector", 8}, {"error", 9}, {"driver", 6}},
	 "drivers/gpu/drm/i915/display/intel_dp_mst.c intel_mst_pre_enable_dp(): 4.x/5.x "
	 "DRM_ERROR/drm_err(\"failed to allocate vcpi\\n\"), 6.1 to 6.6 drm_err(\"Failed to create MST "
	 "payload for %s: %d\\n\", connector name, ret) (later drm_dbg_kms); "
	 "intel_mst_enable_dp() (later kernels: intel_ddi.c intel_ddi_wait_for_act_sent()): "
	 "drm_err(\"Timed out waiting for ACT sent\\n\") (4.x/5.4 intel_mst_disable_dp()'s \"failed to "
	 "update payload %d\" is left out: a dock unplugged with its monitors on gives it)"},
	/* A Type-C port (DP-alt, Thunderbolt) left with a stream on it while
	 * its PHY is disconnected (6.6 and later at error level, before at
	 * debug level). */
	{"intel-tc-phy-disconnected",
	 INTEL_DISPLAY_ERROR "Port ([A-Z]/TC#[0-9]+): PHY disconnected with ([0-9]+) active (link|stream)\\(s\\)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "Type-C port {port} of the Intel GPU ({driver}) had {streams} display stream(s) running while "
	 "its PHY was disconnected (after boot or resume): the monitor or dock on that port stays "
	 "dark until the next mode set" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"driver", 2}, {"port", 7}, {"streams", 8}, {"driver", 6}},
	 "drivers/gpu/drm/i915/display/intel_tc.c tc_port_has_active_streams() (6.13 and later): "
	 "drm_err(\"Port %s: PHY disconnected with %d active stream(s)\\n\", tc->port_name, ...); "
	 "6.6 to 6.12 intel_tc_port_sanitize_mode(): drm_err(\"Port %s: PHY disconnected with %d "
	 "active link(s)\\n\") (port names \"%c/TC#%d\")"},
	/* A display PLL of a port (or the display's own, DPLL0) that did not
	 * lock: the port gets no clock. */
	{"intel-display-pll-unlocked",
	 "((i915|xe) (" BDF "): \\[drm(:[a-z0-9_.]+ \\[(i915[a-z_]*|xe)\\])?\\] |\\[drm:[a-z0-9_.]+ "
	 "\\[(i915[a-z_]*|xe)\\]\\] )(\\*ERROR\\* )?((DPLL ?[0-9]+|PLL [0-9]+|Port [A-Z] PLL|"
	 "\\[ENCODER:[0-9]+:[^]]+\\]\\[[A-Z]\\] PHY PLL) (not locked|failed to lock))",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "a display PLL of the Intel GPU ({driver}) did not lock ({what}): the port it clocks sends "
	 "no picture, and its monitor stays dark" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"driver", 2}, {"what", 8}, {"driver", 6}},
	 "drivers/gpu/drm/i915/display/intel_dpll_mgr.c: drm_err(\"DPLL %d not locked\\n\", id) "
	 "(skl); intel_dpll.c (Valleyview, Cherryview) vlv_enable_pll()/chv_enable_pll(): "
	 "drm_err(\"DPLL %d failed to lock\\n\") (and \"PLL %d failed to lock\\n\"); intel_snps_phy.c "
	 "intel_mpllb_enable(): drm_err(\"Port %c PLL not locked\\n\") (DG2); intel_cx0_phy.c "
	 "(Meteor Lake and later): drm_warn(\"Port %c PLL not locked after %dus.\\n\"), "
	 "\"[ENCODER:%d:%s][%c] PHY PLL not locked after 100us.\\n\"; intel_dpll_mgr.c: drm_err(\"PLL "
	 "%d not locked\\n\", ...) (bxt, icl and later); intel_cdclk.c: \"DPLL0 not locked\\n\""},
	/* A DP AUX channel whose hardware did not finish transfers (its busy
	 * bit stuck: a sink that merely does not answer is a timeout, at debug
	 * level): one transfer's five tries, its "not done" and the WARN's
	 * "not started" after them. A single error or two is noise working
	 * machines print (a glitch the retry gets past): five on one channel. */
	{"intel-dp-aux-stuck",
	 "((i915|xe) (" BDF "): )?(\\[drm(:[a-z0-9_.]+ \\[(i915[a-z_]*|xe)\\])?\\] )?(\\*ERROR\\* )?"
	 "((AUX [A-Za-z0-9]+/[^:]+): (did not complete or timeout within [0-9]+ ?ms|not done|receive error|not "
	 "started) \\(status 0x[0-9a-fA-F]+\\)|dp aux hw did not signal timeout|dp_aux_ch (not done|receive "
	 "error|not started) status 0x[0-9a-fA-F]+)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "a DisplayPort AUX channel of the Intel GPU ({driver}) stopped completing transfers, try after "
	 "try ({what}): the driver cannot read or set the DPCD and EDID of the monitor, dock or "
	 "Type-C adapter on that port, which stays dark, is not detected or drops out" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_INTEL | LX_KMSG_REPEATS(5), {{"channel", 9}, {"gpu", 3}, {"driver", 2}, {"what", 8}, {"driver", 6}},
	 "drivers/gpu/drm/i915/display/intel_dp_aux.c (5.10-5.x intel_dp.c) intel_dp_aux_wait_done(): "
	 "drm_err(\"%s: did not complete or timeout within %ums (status 0x%08x)\\n\", intel_dp->aux.name, "
	 "...) for each of a transfer's five tries, then intel_dp_aux_xfer(): drm_err(\"%s: not done (status "
	 "0x%08x)\\n\"); 3.x-5.4: DRM_ERROR(\"dp aux hw did not signal timeout[ (has irq: %i)]!\\n\") (5.4 "
	 "without the irq), DRM_ERROR(\"dp_aux_ch not done status 0x%08x\\n\"); also \"%s: receive error "
	 "(status 0x%08x)\\n\" (4.x \"dp_aux_ch receive error status 0x%08x\\n\") and at the next transfer "
	 "drm_WARN(\"%s: not started (status 0x%08x)\\n\") (4.x WARN \"dp_aux_ch not started status "
	 "0x%08x\\n\"); aux.name is \"AUX %s/%s\" (\"AUX USBC1/DDI TC1/PHY TC1\"); a finding from five messages "
	 "of one channel on"},
	/* A display FIFO underrun: the pipe scanned out faster than memory fed
	 * it (a glitch, a line of garbage). i915 turns the report off after one
	 * until the next mode set, and one or two are printed at many boots:
	 * ten of them on one GPU in a boot is an output that keeps failing. */
	{"intel-fifo-underrun-repeated",
	 "((i915|xe) (" BDF "): )?(\\[drm(:[a-z0-9_.]+ \\[(i915[a-z_]*|xe)\\])?\\] )?(\\*ERROR\\* )?"
	 "((CPU pipe|PCH transcoder) [A-Z] FIFO underrun|(uncleared )?(pch )?fifo underrun on (pch transcoder|pipe) "
	 "[A-Z]|pipe [A-Z] underrun)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "a display pipe of the Intel GPU ({driver}) ran out of pixel data again and again ({what}, "
	 "after every mode set): the picture on that output flickers, shows garbage lines or goes "
	 "dark" DISPLAY_OUTPUT_ONLY,
	 "update the kernel (display watermark and bandwidth fixes) and the laptop's or board's "
	 "firmware; try i915.enable_fbc=0 and i915.enable_psr=0 (xe.enable_fbc=0, xe.enable_psr=0) on "
	 "the kernel command line, a lower refresh rate or resolution; a Proxmox node needs no display "
	 "on a GPU it gives to containers",
	 LX_KMSG_SOLE_INTEL | LX_KMSG_REPEATS(10), {{"driver", 2}, {"gpu", 3}, {"what", 8}, {"driver", 6}},
	 "drivers/gpu/drm/i915/display/intel_fifo_underrun.c intel_cpu_fifo_underrun_irq_handler(): "
	 "drm_err(\"CPU pipe %c FIFO underrun\\n\") (4.x-5.x DRM_ERROR, no address), then the report off "
	 "until the next mode set; intel_pch_fifo_underrun_irq_handler(): \"PCH transcoder %c FIFO "
	 "underrun\\n\"; when reporting is turned back on: \"uncleared fifo underrun on pipe %c\\n\", \"uncleared "
	 "pch fifo underrun on pch transcoder %c\\n\" (also \"fifo underrun on pipe %c\\n\", \"pch fifo "
	 "underrun on pch transcoder %c\\n\", GMCH's \"pipe %c underrun\\n\"); a finding from ten such messages "
	 "of one GPU"},
	/* a plane of the display engine read memory it may not (a frame buffer
	 * unmapped under it, after a resume or in a VM): a few at boot on some
	 * laptops, a flood when the picture is garbage */
	{"intel-pipe-fault",
	 "((i915|xe) (" BDF "): )?(\\[drm\\] )?.*(Fault errors on pipe ([A-Z])|\\[CRTC:[0-9]+:([^]]+)\\]"
	 "(\\[PLANE:[0-9]+:[^]]+\\])? ?(fault \\(CTL=|PLANE ATS fault|PIPEDMC ATS fault|PIPEDMC fault))",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "a display pipe of the Intel GPU faulted again and again reading its frame buffer "
	 "({what}): the picture on that output is garbage (stripes, a frozen or black screen), often "
	 "after a resume, or in a VM without the GPU's memory mapped" DISPLAY_OUTPUT_ONLY,
	 "update the kernel; if it began after a resume, avoid suspending this host; in a VM, give "
	 "the guest the GPU whole (legacy IGD passthrough) or use no display on it; a Proxmox node "
	 "needs no display on a GPU it gives to containers",
	 LX_KMSG_SOLE_INTEL | LX_KMSG_REPEATS(5), {{"driver", 2}, {"gpu", 3}, {"what", 5}, {"pipe", 6}, {"pipe", 7}},
	 "drivers/gpu/drm/i915/display/intel_display_irq.c (before 6.5 i915_irq.c) gen8_de_irq_handler(): "
	 "drm_err_ratelimited(\"Fault errors on pipe %c: 0x%08x\\n\") (5.8-5.10 drm_err(); 4.x "
	 "DRM_ERROR(), no address; 3.14-4.4 DRM_ERROR(\"Fault errors on pipe %c\\n: 0x%08x\"), the value "
	 "on a line of its own); 6.13 and later intel_pipe_fault_irq_handler(): handle_plane_fault() "
	 "\"[CRTC:%d:%s][PLANE:%d:%s] fault (CTL=0x%x, SURF=0x%x, SURFLIVE=0x%x)\\n\", "
	 "handle_plane_ats_fault() \"[CRTC:%d:%s] PLANE ATS fault\\n\", \"[CRTC:%d:%s] PIPEDMC ATS "
	 "fault\\n\", \"[CRTC:%d:%s] PIPEDMC fault\\n\"; a finding from five such messages of one GPU"},
	{"amdgpu-dc-sink-unread",
	 "(amdgpu (" BDF "): )?\\[drm(:[a-z0-9_]+ \\[amdgpu\\])?\\] \\*ERROR\\* "
	 "(retrieve_link_cap: Read receiver caps dpcd data failed|No EDID read|"
	 "EDID err: ([0-9]+), on connector: ([A-Za-z0-9-]+))",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU's display driver could not read the monitor on an output ({what}): without "
	 "its EDID or DisplayPort capabilities the output stays dark, is marked disconnected or runs "
	 "at 640x480" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"what", 4}, {"connector", 6}},
	 "drivers/gpu/drm/amd/display/dc/link/protocols/link_dp_capability.c retrieve_link_cap(): "
	 "dm_error(\"%s: Read receiver caps dpcd data failed.\\n\", __func__); "
	 "dc/link/link_detection.c detect_link_and_local_sink(): DC_LOG_ERROR(\"No EDID read.\\n\"); "
	 "amdgpu_dm/amdgpu_dm_helpers.c dm_helpers_read_local_edid(): DRM_ERROR(\"EDID err: %d, on "
	 "connector: %s\", ...)"},
	/* DisplayPort link training that failed for good. DC (5.x on) warns
	 * for a failed attempt; since 6.5 only for the last one (the others at
	 * its link-training debug level), before that for each attempt but
	 * the last on a plain port: "attempt N of N" is the end of the
	 * retries, earlier attempts count when three of one GPU show. */
	{"amdgpu-dp-link-training-failed",
	 "(amdgpu (" BDF "): (amdgpu: )?)?(\\[drm\\] )?(\\*ERROR\\* )?perform_link_training_with_retries: "
	 "Link(\\(([0-9]+)\\))? training attempt (1 of 1|2 of 2|3 of 3|4 of 4|5 of 5|6 of 6|7 of 7|8 of 8|"
	 "9 of 9|10 of 10) failed",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU could not train the DisplayPort link to a monitor (attempt {attempt} failed, "
	 "the last): that output stays dark or falls back to a lower mode"
	 DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"link", 7}, {"attempt", 8}},
	 "drivers/gpu/drm/amd/display/dc/link/protocols/link_dp_training.c (6.2 on; before it "
	 "dc/core/dc_link_dp.c) perform_link_training_with_retries(): DC_LOG_WARNING(\"%s: Link(%d) "
	 "training attempt %u of %d failed @ rate(%d) x lane(%d) @ spread = %x : fail "
	 "reason:(%d)\\n\", ...) (5.x: \"%s: Link training attempt %u of %d failed\\n\"; 5.15: \"... "
	 "failed @ rate(%d) x lane(%d)\\n\"), 6.5 on for j == attempts - 1 only"},
	{"amdgpu-dp-link-training-retries",
	 "(amdgpu (" BDF "): (amdgpu: )?)?(\\[drm\\] )?(\\*ERROR\\* )?perform_link_training_with_retries: "
	 "Link(\\(([0-9]+)\\))? training attempt ([0-9]+ of [0-9]+) failed",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU failed to train the DisplayPort link to a monitor again and again (attempt "
	 "{attempt} failed): that output stays dark, flickers or falls back to a lower mode"
	 DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_REPEATS(3), {{"gpu", 2}, {"link", 7}, {"attempt", 8}},
	 "drivers/gpu/drm/amd/display/dc/core/dc_link_dp.c (5.x to 6.1) "
	 "perform_link_training_with_retries(): DC_LOG_WARNING(\"%s: Link(%d) training attempt %u of "
	 "%d failed @ rate(%d) x lane(%d) : fail reason:(%d)\\n\", ...) for each failed attempt but "
	 "the last (5.4 to 5.10: DRM_WARN(\"%s: Link training attempt %u of %d failed\\n\", ...))"},
	/* radeon's and amdgpu's DCE-era DisplayPort code (atombios_dp.c):
	 * DRM_ERROR at the end of a training that failed */
	{"amd-dce-dp-link-training-failed",
	 "((amdgpu|radeon) (" BDF "): )?\\[drm:([a-z0-9_]*dp_link_train[a-z0-9_]*) \\[(amdgpu|radeon)\\]\\] "
	 "\\*ERROR\\* (clock recovery failed|channel eq failed: ([0-9]+) tries)",
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the {driver} driver could not train the DisplayPort link to a monitor ({what}): that output "
	 "stays dark" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT,
	 LX_KMSG_SOLE_GPU, {{"gpu", 3}, {"driver", 5}, {"what", 6}, {"tries", 7}},
	 "drivers/gpu/drm/radeon/atombios_dp.c radeon_dp_link_train_cr(): DRM_ERROR(\"clock recovery "
	 "failed\\n\"); radeon_dp_link_train_ce(): DRM_ERROR(\"channel eq failed: %d tries\\n\", "
	 "tries); the same in drivers/gpu/drm/amd/amdgpu/atombios_dp.c "
	 "amdgpu_atombios_dp_link_train_cr()/_ce() (the DCE display path)"},
	/* Any line of nouveau about a GPU (after the rows above that read its
	 * power-management and display lines): nouveau, not nvidia, drives it. */
	{"nouveau-drives-gpu",
	 "nouveau ((" BDF "): |[ !EWDTPS]\\[ *[A-Za-z0-9_]+\\]\\[" BDF "\\] *)(.+)|"
	 "nouveau: (probe of (" BDF ") failed with error -?[0-9]+)|nouveau [ !EWDTPS]\\[ *DRM\\] (.+)",
	 LXG111_BOUND_ELSEWHERE, LX_SEVERITY_ERROR,
	 "nouveau, not nvidia, drives this NVIDIA GPU (the log's first nouveau line about it: "
	 "\"{line}\"): CUDA, NVENC, nvidia-smi and NVIDIA's container toolkit need the nvidia driver, "
	 "and nouveau's own errors are nouveau's",
	 "install the NVIDIA driver for the running kernel and " FIX_BLACKLIST,
	 LX_KMSG_FALLBACK,
	 {{"gpu", 2}, {"line", 3}, {"gpu", 1}, {"line", 4}, {"gpu", 5}, {"line", 6}},
	 "drivers/gpu/drm/nouveau: every message about a device is nvdev_printk()/dev_printk(), "
	 "\"nouveau %s: %s\" (e.g. nvkm/engine/fifo: \"fifo: SCHED_ERROR %02x [%s]\\n\", "
	 "nvkm/engine/device/base.c: \"NVIDIA %s (%08x)\\n\"); 3.7 to 4.2, core/core/printk.c "
	 "nv_printk_(): \"%snouveau %c[%8s][%s]%s %s\" (a subdev's: \"nouveau E[  PGRAPH][0000:01:00.0] "
	 "...\") and a client's \"%snouveau %c[%8s] %s\" (\"nouveau E[     DRM] GPU lockup - switching "
	 "to software fbcon\", no address: the log's only nouveau GPU); before 5.x the driver core's "
	 "\"%s: probe of %s failed with error %d\\n\""},
	/* Intel (i915, xe) and AMD (amdgpu, amdkfd): the GPU's address is the
	 * dev_printk prefix ("amdgpu 0000:03:00.0: "); a container holding the
	 * GPU loses transcoding (VA-API, QSV) or ROCm with it. */
	{"gpu-firmware-load-failed",
	 "(amdgpu|radeon|i915|xe) (" BDF "): Direct firmware load for ((amdgpu|radeon|i915|xe)/[^ /]+) "
	 "failed( with error (-?[0-9]+)|$)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the {driver} driver asked for the firmware file {file} and the kernel could not load it "
	 "(error {error}; -2: not in /lib/firmware nor in the initramfs): the engine it is for "
	 "(GuC/HuC/DMC, PSP/SOS/TOC, SMU, MES, DMCUB, VCN) does not start, or the driver tries an "
	 "older file next",
	 "install a linux-firmware of a version that has {file} (Proxmox: pve-firmware; Debian: "
	 "firmware-amd-graphics for amdgpu/ and radeon/, for i915/ and xe/ "
	 "firmware-intel-graphics on Debian 13 "
	 "and firmware-misc-nonfree on Debian 12), or revert the linux-firmware update that removed "
	 "it; then update-initramfs -u and reboot",
	 0, {{"file", 3}, {"gpu", 2}, {"driver", 1}, {"error", 6}},
	 "drivers/base/firmware_loader/main.c _request_firmware(): dev_warn(device, \"Direct "
	 "firmware load for %s failed with error %d\\n\"), for the files amdgpu_ucode.c "
	 "amdgpu_ucode_request(), radeon's ci.c-si.c *_init_microcode() and radeon_uvd.c, i915's "
	 "intel_uc_fw.c and intel_dmc.c, xe_uc_fw.c ask for (files at the top of those directories; "
	 "GVT-g's i915/gvt/*.golden_hw_state, which no linux-firmware has and gvt does without, is "
	 "asked for at every boot with i915.enable_gvt=1)"},
	/* radeon's and older amdgpu's own report of a microcode file it could
	 * not load, naming the file: the only trace of it where the firmware
	 * loader says nothing (before 3.x, a built-in driver without the file;
	 * the reader gives a forum's typographic quotes back as '"') */
	{"gpu-microcode-load-failed",
	 "((amdgpu|radeon) (" BDF "): )?((amdgpu|radeon): )?([A-Za-z0-9_]+( v[0-9.]+)?): Failed to load "
	 "firmware (\")((amdgpu|radeon)/[^\" ]+)(\")",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the {driver} driver could not load the firmware file {file} ({where}): the engine it is for "
	 "does not start, so the GPU runs without acceleration or does not initialize",
	 "install a linux-firmware of a version that has {file} (Proxmox: pve-firmware; Debian: "
	 "firmware-amd-graphics); a driver built into the kernel needs the file built in too "
	 "(CONFIG_EXTRA_FIRMWARE) or in the initramfs; then update-initramfs -u and reboot",
	 LX_KMSG_RESTATES, {{"file", 9}, {"gpu", 3}, {"driver", 10}, {"where", 6}},
	 "drivers/gpu/drm/radeon/r600.c r600_init_microcode(): pr_err(\"r600_cp: Failed to load "
	 "firmware \\\"%s\\\"\\n\", fw_name), ni.c ni_init_microcode(): pr_err(\"ni_cp: Failed to "
	 "load firmware \\\"%s\\\"\\n\", fw_name) (si.c si_cp, cik.c cik_cp, r100.c radeon_cp the "
	 "same; before 4.x printk(KERN_ERR ...)); drivers/gpu/drm/amd/amdgpu/gfx_v8_0.c "
	 "gfx_v8_0_init_microcode(): dev_err(adev->dev, \"gfx8: Failed to load firmware "
	 "\\\"%s\\\"\\n\", fw_name) (4.x to 6.2; gfx_v7_0 gfx7, sdma_v*_0, cik_sdma, psp v*.0 the same)"},
	/* The uC rows take the line without the driver's prefix too (a
	 * grep -o, a commit message's quote, FreeBSD's "drmn0: "): "GuC"
	 * and "i915/" say the driver, the log's only Intel GPU is the one. */
	{"i915-uc-init-failed",
	 INTEL_GT_PREFIX "(GuC|HuC) initialization failed (-?[A-Za-z0-9]+)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the {uc} firmware of the Intel GPU did not start ({error}; -ENOENT/-2: its file is "
	 "missing, -ENXIO or -EIO: the file is of a version this kernel refuses): the driver "
	 "declares the GPU wedged, and media transcoding (QSV, VA-API) and compute fail in every "
	 "container holding it",
	 "install a linux-firmware that has the i915/ (or xe/) GuC and HuC files this kernel asks "
	 "for (the \"Direct firmware load\" line before names it), or revert a broken "
	 "linux-firmware update; update-initramfs -u and reboot. If enable_guc= is set in "
	 "/etc/modprobe.d, check the GPU supports it",
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_SOLE_INTEL, {{"uc", 13}, {"gpu", 3}, {"driver", 2}, {"error", 14},
	 {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/uc/intel_uc.c __uc_init_hw(): gt_probe_error(gt, \"GuC "
	 "initialization failed %pe\\n\"), with i915's prefix \"[drm] *ERROR* GT%u: \" (older "
	 "kernels: i915_probe_error(i915, \"GuC initialization failed %d\\n\")); xe: "
	 "drivers/gpu/drm/xe/xe_uc.c"},
	/* the uC init's -ENOENT is the firmware loader's for a missing file:
	 * the file's absence named as such beside the init failure (LXG141),
	 * where the fetch line is not in the log; with it, that line (which
	 * names the file) leads (xe's row below likewise) */
	{"i915-uc-init-enoent",
	 INTEL_GT_PREFIX "(GuC|HuC) initialization failed (-ENOENT|-2)([^0-9]|$)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the {uc} firmware file of the Intel GPU is missing ({error}: the firmware loader found no "
	 "such file), so the {uc} did not start and the driver declares the GPU wedged",
	 "install a linux-firmware that has the i915/ (or xe/) GuC and HuC files this kernel asks "
	 "for (Proxmox: pve-firmware; Debian 13: firmware-intel-graphics, Debian 12: "
	 "firmware-misc-nonfree); update-initramfs -u and reboot",
	 LX_KMSG_ALSO | LX_KMSG_RESTATES | LX_KMSG_SOLE_INTEL, {{"uc", 13}, {"gpu", 3}, {"driver", 2}, {"error", 14},
	 {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/uc/intel_uc.c __uc_init_hw(): gt_probe_error(gt, \"GuC "
	 "initialization failed %pe\\n\") (older: \"GuC initialization failed %d\\n\") with -ENOENT "
	 "from intel_uc_fw.c intel_uc_fw_fetch()'s firmware_request_nowarn() (drivers/base/"
	 "firmware_loader/main.c: -ENOENT for a file not found)"},
	{"xe-uc-init-enoent",
	 "xe (" BDF "): .*Failed to (early )?initialize uC \\((-ENOENT|-2)\\)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the GuC/HuC firmware file of the Intel GPU is missing ({error}: the firmware loader found "
	 "no such file), so the xe driver does not take the GPU",
	 "install a linux-firmware that has the xe/ GuC, HuC and DMC files this kernel asks for "
	 "(Proxmox: pve-firmware; Debian 13: firmware-intel-graphics); update-initramfs -u and "
	 "reboot",
	 LX_KMSG_ALSO | LX_KMSG_RESTATES, {{"gpu", 1}, {"error", 3}},
	 "drivers/gpu/drm/xe/xe_uc.c xe_uc_init(): xe_gt_err(uc_to_gt(uc), \"Failed to initialize uC "
	 "(%pe)\\n\", ERR_PTR(ret)), xe_uc_init_noalloc(): \"Failed to early initialize uC "
	 "(%pe)\\n\", with -ENOENT from xe_uc_fw.c uc_fw_request()'s firmware_request_nowarn()"},
	{"intel-uc-fetch-failed",
	 INTEL_GT_PREFIX "(GuC|HuC|GSC) firmware ((i915|xe)/[^ :]+): fetch failed(( with error)? "
	 "(-?[A-Za-z0-9]+)|$)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the {uc} firmware {file} of the Intel GPU could not be loaded ({error}; -ENOENT/-2: not in "
	 "/lib/firmware nor in the initramfs): the {uc} does not start, so media transcoding (QSV, "
	 "VA-API low-power encode) and, with GuC submission, rendering fail in every container "
	 "holding the GPU",
	 "install a linux-firmware of a version that has {file} (Proxmox: pve-firmware; Debian: "
	 "firmware-intel-graphics on Debian 13, firmware-misc-nonfree on Debian 12), or revert the "
	 "linux-firmware update that removed it; then update-initramfs -u and reboot",
	 LX_KMSG_RESTATES | LX_KMSG_SOLE_INTEL, {{"file", 14}, {"gpu", 3}, {"driver", 2}, {"error", 18},
	 {"uc", 13}, {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/uc/intel_uc_fw.c intel_uc_fw_fetch(): gt_probe_error(gt, \"%s "
	 "firmware %s: fetch failed %pe\\n\", ...) (older kernels: \"%s firmware %s: fetch failed "
	 "with error %d\\n\")"},
	{"intel-guc-load-failed",
	 "(i915|xe) (" BDF "): .*(GUC: |GT[0-9]+: |GuC )load failed: status = (0x[0-9A-Fa-f]+)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the GuC firmware of the Intel GPU did not start (load status {status}: the GPU refused or "
	 "did not authenticate the file): the driver wedges the GPU or gives it up, and rendering, "
	 "transcoding and compute fail in every container holding it",
	 "install the linux-firmware of the kernel's release (its i915/ or xe/ GuC files: a file "
	 "the kernel does not expect fails to load), or revert the linux-firmware or kernel update "
	 "after which it began; update-initramfs -u and reboot",
	 LX_KMSG_NEEDS_CAUSE, {{"gpu", 2}, {"status", 4}, {"driver", 1}},
	 "drivers/gpu/drm/i915/gt/uc/intel_guc_fw.c guc_wait_ucode(): guc_info(guc, \"load failed: "
	 "status = 0x%08X, time = %lldms, freq = %dMHz, ret = %d\\n\") with the GT%u: GUC: prefix; "
	 "drivers/gpu/drm/xe/xe_guc.c guc_wait_ucode(): xe_gt_err(gt, \"load failed: status = 0x%08X, "
	 "time = %lldms, freq = %dMHz (req %dMHz), done = %d\\n\"); 5.16-6.1 i915: drm_info(drm, \"GuC "
	 "load failed: status = 0x%08X\\n\")"},
	/* the lines decoding that status, printed with it: its finding's */
	{"intel-guc-load-status",
	 "(i915|xe) (" BDF "): .*(GUC: |GT[0-9]+: |GuC )(load failed: status: Reset = |firmware signature "
	 "verification failed|firmware production part check failure|invalid key requested|firmware "
	 "exception\\. EIP|illegal (init/ADS data|register in save/restore workaround list|workaround "
	 "KLV data|feature flag specified))",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the GuC firmware of the Intel GPU did not start ({what}: the GPU refused or did not "
	 "authenticate the file): the driver wedges the GPU or gives it up, and rendering, "
	 "transcoding and compute fail in every container holding it",
	 "install the linux-firmware of the kernel's release (its i915/ or xe/ GuC files: a file "
	 "the kernel does not expect fails to load), or revert the linux-firmware or kernel update "
	 "after which it began; update-initramfs -u and reboot",
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_RESTATES, {{"gpu", 2}, {"what", 4}, {"driver", 1}},
	 "drivers/gpu/drm/i915/gt/uc/intel_guc_fw.c guc_wait_ucode() (6.2 and later; xe_guc.c "
	 "guc_wait_ucode() the same texts with xe_gt_err), around its status line: guc_info(guc, "
	 "\"load failed: status: Reset = %d, BootROM = 0x%02X, UKernel = "
	 "0x%02X, MIA = 0x%02X, Auth = 0x%02X\\n\"), \"firmware signature verification failed\\n\", "
	 "\"firmware production part check failure\\n\"; 5.16-6.1: drm_info(drm, \"GuC load failed: "
	 "status: Reset = %d, ...\"), \"GuC firmware signature verification failed\\n\"; also \"invalid "
	 "key requested, header = 0x%08X\\n\", \"firmware exception. EIP: %#x\\n\", \"illegal init/ADS "
	 "data\\n\""},
	{"i915-dmc-load-failed",
	 "(i915|xe) (" BDF "): (\\[drm\\] )?Failed to load DMC firmware ((i915|xe)/[^ ]+\\.bin)"
	 "( \\((-?[A-Za-z0-9]+)\\))?\\. Disabling runtime power management",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's display microcontroller firmware {file} did not load ({error}): the driver "
	 "runs the GPU without runtime power management (it stays powered; display power saving is "
	 "off); rendering and transcoding in containers are not affected",
	 "install a linux-firmware of a version that has {file} (Proxmox: pve-firmware; Debian: "
	 "firmware-intel-graphics on Debian 13, firmware-misc-nonfree on Debian 12), then "
	 "update-initramfs -u and reboot",
	 LX_KMSG_RESTATES, {{"file", 4}, {"gpu", 2}, {"driver", 1}, {"error", 7}},
	 "drivers/gpu/drm/i915/display/intel_dmc.c dmc_load_work_fn(): drm_notice(&i915->drm, "
	 "\"Failed to load DMC firmware %s (%pe). Disabling runtime power management.\\n\", ...) "
	 "(older kernels, intel_csr.c: \"Failed to load DMC firmware %s. Disabling runtime power "
	 "management.\\n\")"},
	{"i915-dmc-load-failed-old",
	 "i915 (" BDF "): Failed to load DMC firmware \\[(https?://[^] ]+)\\], disabling runtime power "
	 "management",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's display microcontroller (DMC) firmware did not load (a kernel of the 4.x "
	 "series, whose message names no file; the \"Direct firmware load\" line before it does): "
	 "the driver runs the GPU without runtime power management; rendering and transcoding in "
	 "containers are not affected",
	 "install a linux-firmware that has the i915/*_dmc_*.bin file the kernel asks for (Proxmox: "
	 "pve-firmware; Debian: firmware-misc-nonfree), then update-initramfs -u and reboot",
	 LX_KMSG_RESTATES, {{"gpu", 1}, {"url", 2}},
	 "drivers/gpu/drm/i915/intel_csr.c csr_load_work_fn() of the 4.x kernels: dev_notice(\"Failed "
	 "to load DMC firmware [\" FIRMWARE_URL \"], disabling runtime power management.\\n\"), "
	 "FIRMWARE_URL the 01.org firmware page; the wording as quoted in public 4.x logs (Gentoo "
	 "wiki's Intel page: \"i915 0000:00:02.0: Failed to load DMC firmware "
	 "[https://01.org/linuxgraphics/intel-linux-graphics-firmwares], disabling runtime power "
	 "management.\")"},
	{"i915-wedged-on-init",
	 "((i915|xe) (" BDF "): .*|\\[drm:[a-z0-9_]+ \\[i915\\]\\] \\*ERROR\\* )([Ff]ailed to (re-)?initiali[sz]e GPU, "
	 "declaring (it )?wedged)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU failed to initialize (at boot, or again after a resume or reset: {what}) and the "
	 "driver declared it wedged: the display may work, rendering, transcoding and compute do not (in "
	 "every container holding it)",
	 "see the message before it about the same GPU (GuC/HuC firmware, a missing file, a hang); "
	 "install the linux-firmware with the files, update-initramfs -u and reboot",
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"driver", 2}, {"what", 4}},
	 "drivers/gpu/drm/i915/gt/intel_gt.c intel_gt_init(): gt_probe_error(gt, \"Failed to "
	 "initialize GPU, declaring it wedged!\\n\") (5.x intel_gt_pm.c intel_gt_resume() the same after a "
	 "resume); 4.x i915_gem.c i915_gem_init(): DRM_ERROR(\"Failed to initialize GPU, declaring it "
	 "wedged\\n\"), no address, and after a resume i915_gem_resume(): DRM_ERROR(\"failed to "
	 "re-initialize GPU, declaring wedged!\\n\")"},
	{"amdgpu-init-fatal",
	 "(amdgpu|radeon) (" BDF "): (amdgpu: )?Fatal error during GPU init",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU failed to initialize (an IP block's firmware missing or refused, PSP ring "
	 "creation failed): {driver} does not drive it, /dev/dri and /dev/kfd have no node for it "
	 "and containers holding it get no GPU",
	 "see the message before it about the same GPU (a firmware file: install a linux-firmware "
	 "that has it, or revert one whose PSP/SOS/TOC, SMU or MES file does not match the "
	 "kernel); update-initramfs -u and reboot",
	 LX_KMSG_NEEDS_CAUSE, {{"gpu", 2}, {"driver", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_init(): dev_err(adev->dev, "
	 "\"Fatal error during GPU init\\n\"); radeon_kms.c radeon_driver_load_kms(): "
	 "dev_err(dev->dev, the same words) (radeon drives GCN 1 and 2 and older GPUs)"},
	/* radeon's init without the engines: the display works, nothing else */
	{"radeon-accel-disabled",
	 "radeon (" BDF "): [Dd]isabling GPU acceleration",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU (radeon driver) failed to start its engines and runs without acceleration: "
	 "the display works, rendering and video decode (a container's transcode, OpenGL or "
	 "OpenCL) do not",
	 "see the message before it about the same GPU (a firmware file: install linux-firmware "
	 "with its radeon/ files and update-initramfs -u; a ring or IB test: reboot, power it off "
	 "if it recurs); for GCN 1 and 2 GPUs amdgpu may drive it instead (radeon.si_support=0 "
	 "amdgpu.si_support=1, or cik_support)",
	 LX_KMSG_NEEDS_CAUSE, {{"gpu", 1}},
	 "drivers/gpu/drm/radeon/r100.c-cik.c *_init(): after *_startup() failed, "
	 "dev_err(rdev->dev, \"disabling GPU acceleration\\n\") (r300.c, rs690.c and older: "
	 "\"Disabling GPU acceleration\\n\")"},
	/* IP discovery found a block version this kernel's amdgpu has no code
	 * for: a GPU newer than the kernel */
	{"amdgpu-ip-unknown",
	 "amdgpu (" BDF "): (amdgpu: )?Failed to add ([a-z0-9_ ]+) ip block\\(([A-Z0-9_]+_HWIP):"
	 "(0x[0-9a-fA-F]+)\\)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "this kernel's amdgpu does not know the AMD GPU's {block} block (version {version} of "
	 "{hwip}): the GPU is newer than the kernel, amdgpu does not drive it, /dev/dri and /dev/kfd "
	 "have no node for it and containers holding it get no GPU",
	 "boot a kernel that supports the GPU (Proxmox: an opt-in proxmox-kernel of a later "
	 "series; Debian: the backports kernel) with a linux-firmware as new, then "
	 "update-initramfs -u and reboot",
	 0, {{"gpu", 1}, {"block", 3}, {"hwip", 4}, {"version", 5}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_discovery.c amdgpu_discovery_set_*_ip_blocks() "
	 "(5.17 and later): dev_err(adev->dev, \"Failed to add common ip block(GC_HWIP:0x%x)\\n\", "
	 "...), and likewise \"Failed to add gmc ip block(GC_HWIP:0x%x)\\n\", \"Failed to add gfx "
	 "ip block(GC_HWIP:0x%x)\\n\", \"Failed to add smu ip block(MP1_HWIP:0x%x)\\n\" (psp: "
	 "MP0_HWIP, ih: OSSSYS_HWIP, sdma: SDMA0_HWIP, mes, vcn/jpeg: UVD_HWIP, dm: DCE_HWIP)"},
	/* The RLC did not load the graphics firmware it was given (gfx10 and
	 * later, at init and at every resume or reset) */
	{"amdgpu-rlc-autoload-timeout",
	 "amdgpu (" BDF "): (amdgpu: )?(rlc autoload: (xcc[0-9]+ )?gc ucode autoload timeout|"
	 "\\((-?[0-9]+)\\) failed to wait rlc autoload complete)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU's RLC did not finish loading the graphics firmware ({step}): the graphics "
	 "and compute engines do not start (at boot amdgpu gives the GPU up; after a suspend or "
	 "reset the GPU stays unusable), for every container holding it",
	 "power the host off and on; if it recurs, install the linux-firmware of the kernel's "
	 "release (amdgpu/gc_*_rlc.bin, *_pfp.bin, *_me.bin, *_mec.bin) or revert the update after "
	 "which it began, update-initramfs -u and reboot",
	 0, {{"gpu", 1}, {"step", 3}},
	 "drivers/gpu/drm/amd/amdgpu/gfx_v10_0.c, gfx_v11_0.c, gfx_v12_0.c "
	 "*_wait_for_rlc_autoload_complete(): dev_err(adev->dev, \"rlc autoload: gc ucode autoload "
	 "timeout\\n\") (gfx_v12_1.c: \"rlc autoload: xcc%d gc ucode autoload timeout\\n\"); "
	 "gfx_v11_0.c *_hw_init(): dev_err(adev->dev, \"(%d) failed to wait rlc autoload "
	 "complete\\n\", r)"},
	/* The same IP-block lines inside a system sleep: a suspend or resume
	 * step of the GPU failed (a reset prints them too: LX_KMSG_IN_SLEEP) */
	/* amdgpu_device_resume() runs only in a power transition (the
	 * dev_pm_ops' resume, thaw, restore and runtime resume, and
	 * vga_switcheroo's power-on), never in a GPU reset: its failure is one
	 * without a sleep line around it */
	{"amdgpu-device-resume-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_]+( \\[amdgpu\\])?\\] \\*ERROR\\* )?"
	 "(amdgpu_device_ip_resume failed( \\((-?[0-9]+)\\)|$)|amdgpu: (amdgpu asic init failed))",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU did not come back from a suspend, hibernation or runtime suspend: "
	 "amdgpu_device_resume() could not bring it back ({error}), so the GPU is unusable "
	 "until the host reboots (containers holding it lose /dev/dri and /dev/kfd work)",
	 FIX_PM_RESUME, LX_KMSG_SOLE_AMDGPU | LX_KMSG_NEEDS_CAUSE, {{"gpu", 2}, {"error", 8}, {"error", 9}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_resume(): dev_err(adev->dev, "
	 "\"amdgpu_device_ip_resume failed (%d).\\n\", r) (4.x-5.x DRM_ERROR(\"amdgpu_device_ip_resume "
	 "failed (%d).\\n\", r)), and before it, for a GPU the sleep left unposted, "
	 "dev_err(adev->dev, \"amdgpu asic init failed\\n\") (its dev_fmt \"amdgpu: \" before it; "
	 "the DRM_ERROR form is amdgpu-error-pm's); its callers: amdgpu_drv.c's amdgpu_pmops_resume/thaw/restore/"
	 "runtime_resume and amdgpu_switcheroo_set_state()"},
	{"amdgpu-pm-ip-resume-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_]+( \\[amdgpu\\])?\\] \\*ERROR\\* )?"
	 "(resume of IP block <([a-z0-9_]+)> failed( (-?[0-9]+)|$))",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU did not come back from a suspend or hibernation: the resume of its IP block "
	 "{block} failed ({error}), so the GPU is unusable until the host reboots (containers "
	 "holding it lose /dev/dri and /dev/kfd work)",
	 FIX_PM_RESUME,
	 LX_KMSG_IN_SLEEP | LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"block", 7}, {"error", 9}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_ip_resume_phase1/2/3(): "
	 "DRM_ERROR(\"resume of IP block <%s> failed %d\\n\") (dev_err(adev->dev, ...) in newer "
	 "kernels), inside a system resume (a GPU reset prints it too)"},
	{"amdgpu-pm-ip-suspend-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_]+( \\[amdgpu\\])?\\] \\*ERROR\\* )?"
	 "suspend of IP block <([a-z0-9_]+)> failed( (-?[0-9]+)|$)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU failed to suspend: the suspend of its IP block {block} failed ({error}); the "
	 "host may not sleep, or the GPU may not come back from it",
	 FIX_PM_SUSPEND,
	 LX_KMSG_IN_SLEEP | LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"block", 6}, {"error", 8}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_ip_suspend_phase1/2(): "
	 "DRM_ERROR(\"suspend of IP block <%s> failed %d\\n\") (dev_err(adev->dev, ...) in newer "
	 "kernels), inside a system suspend"},
	{"amdgpu-ip-block-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_]+( \\[amdgpu\\])?\\] \\*ERROR\\* )?"
	 "(hw_init|sw_init|early_init|late_init|resume) of IP block <([a-z0-9_]+)> failed (-?[0-9]+)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU failed to initialize: the {phase} of its IP block {block} failed "
	 "({ret}), so amdgpu does not drive it, /dev/dri and /dev/kfd have no node for it and "
	 "containers holding it get no GPU",
	 "see the message before it about the same GPU (a firmware file, the PSP or SMU not "
	 "answering): install the linux-firmware of the kernel's release or revert the update "
	 "after which it began; update-initramfs -u and reboot",
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_SOLE_AMDGPU, {{"block", 7}, {"gpu", 2}, {"phase", 6}, {"ret", 8}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_ip_init(), "
	 "amdgpu_device_ip_hw_init_phase1/2(), amdgpu_device_fw_loading(): DRM_ERROR(\"hw_init "
	 "of IP block <%s> failed %d\\n\"), DRM_ERROR(\"sw_init of IP block <%s> failed %d\\n\"); "
	 "after a suspend or a reset, amdgpu_device_ip_resume_phase1/2() and "
	 "amdgpu_device_fw_loading(): \"resume of IP block <%s> failed %d\\n\"; "
	 "amdgpu_device_ip_early_init(), amdgpu_device_ip_late_init(): \"early_init of IP block <%s> "
	 "failed %d\\n\", \"late_init of IP block <%s> failed %d\\n\" "
	 "(dev_err with the address in newer kernels); one step of the init failure that "
	 "\"amdgpu_device_ip_init failed\" and \"Fatal error during GPU init\" report next"},
	/* its -2 is request_firmware()'s ENOENT: in these phases the IP blocks
	 * ask for their microcode (amdgpu_ucode_request()), the only source of
	 * that error there, so the file is missing even where the firmware
	 * loader's own line is not in the log */
	{"amdgpu-ip-block-enoent",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_.]+( \\[amdgpu\\])?\\] \\*ERROR\\* )?"
	 "(hw_init|sw_init|early_init) of IP block <([a-z0-9_]+)> failed (-2)([^0-9]|$)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the {phase} of the AMD GPU's IP block {block} failed with -2 (ENOENT, what the firmware "
	 "loader answers for a file that is not there): a firmware file that block needs is missing "
	 "from /lib/firmware/amdgpu (or the initramfs), so amdgpu does not drive the GPU",
	 "install a linux-firmware with the GPU's amdgpu/ files (Proxmox: pve-firmware; Debian: "
	 "firmware-amd-graphics; an appliance OS: its amdgpu firmware extension), or revert the "
	 "linux-firmware update that removed them; then update-initramfs -u and reboot",
	 LX_KMSG_ALSO | LX_KMSG_RESTATES | LX_KMSG_SOLE_AMDGPU, {{"block", 7}, {"gpu", 2}, {"phase", 6}, {"error", 8}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_ip_init(), "
	 "amdgpu_device_ip_early_init(): DRM_ERROR(\"sw_init of IP block <%s> failed %d\\n\"), "
	 "\"early_init of IP block <%s> failed %d\\n\", \"hw_init of IP block <%s> failed %d\\n\" with "
	 "-ENOENT from amdgpu_ucode.c amdgpu_ucode_request() (request_firmware(): "
	 "drivers/base/firmware_loader/main.c returns -ENOENT for a file not found)"},
	{"amdgpu-ip-init-failed",
	 "amdgpu (" BDF "): (amdgpu: )?(amdgpu_(device_ip_)?(init|resume|late_init)|amdgpu_ras_late_init|"
	 "amdgpu_mem_scratch_init|amdgpu_device_wb_init|IB initialization|asic reset on init|"
	 "allocate (CSA|seq64)) failed",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU failed to initialize (an IP block's init failed): amdgpu does not drive it, "
	 "/dev/dri and /dev/kfd have no node for it and containers holding it get no GPU",
	 "see the message before it about the same GPU (a firmware file: install a linux-firmware "
	 "that has it, or revert one that does not match the kernel); update-initramfs -u and "
	 "reboot",
	 LX_KMSG_NEEDS_CAUSE, {{"gpu", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_init(): dev_err(adev->dev, "
	 "\"amdgpu_device_ip_init failed\\n\") (before 4.17, around amdgpu_init(): "
	 "\"amdgpu_init failed\\n\"); after a suspend, amdgpu_device_resume(): dev_err(adev->dev, "
	 "\"amdgpu_device_ip_resume failed (%d).\\n\", r); the other steps of amdgpu_device_init() "
	 "(6.x): \"amdgpu_device_ip_late_init failed\\n\", \"asic reset on init failed\\n\", and of "
	 "amdgpu_device_ip_init(): \"amdgpu_mem_scratch_init failed %d\\n\", \"amdgpu_device_wb_init "
	 "failed %d\\n\", \"allocate CSA failed %d\\n\", \"allocate seq64 failed %d\\n\", \"IB "
	 "initialization failed (%d).\\n\"; amdgpu_device_ip_late_init(): \"amdgpu_ras_late_init "
	 "failed %d\""},
	/* An SR-IOV virtual function (or a GPU that believes it is one, as an
	 * MI25 in MxGPU mode) asks its host's driver through a mailbox before
	 * it may touch the GPU: without the host's answer its init stops. */
	{"amdgpu-vf-mailbox-failed",
	 "amdgpu (" BDF "): (amdgpu: )?(Doesn't get (TRN_MSG_ACK|msg:[0-9]+|ack|READY_TO_ACCESS_GPU) "
	 "from pf(, give up| in [0-9]+ msec|, error=-?[0-9]+)?)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU runs as an SR-IOV virtual function and its host's driver did not answer its "
	 "mailbox ({what}): amdgpu cannot initialize or reset it, containers or the VM holding it "
	 "get no GPU",
	 "on the host: the GPU's SR-IOV host driver (AMD's MxGPU GIM) must be loaded and the VF "
	 "assigned; a GPU not meant to run as a VF (an MI25 flashed for MxGPU) needs its "
	 "non-virtualised VBIOS; then reboot the guest",
	 0, {{"gpu", 1}, {"what", 3}},
	 "drivers/gpu/drm/amd/amdgpu/mxgpu_ai.c and mxgpu_nv.c: dev_err(adev->dev, \"Doesn't get "
	 "TRN_MSG_ACK from pf in %d msec\\n\"), \"Doesn't get msg:%d from pf, error=%d\\n\", "
	 "\"Doesn't get READY_TO_ACCESS_GPU from pf, give up\\n\", \"Doesn't get ack from pf, "
	 "continue\\n\""},
	/* the VF's send loop prints this while the host has not cleared its
	 * last answer: a few are a retry, a run of them a mailbox that is stuck */
	{"amdgpu-vf-mailbox-stuck",
	 "amdgpu (" BDF "): (amdgpu: )?(trn=[0-9a-fA-F]+ ACK should not assert)! wait again",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU runs as an SR-IOV virtual function and its mailbox to the host's driver is "
	 "stuck ({what}, again and again): amdgpu cannot initialize it, containers or the VM "
	 "holding it get no GPU",
	 "on the host: the GPU's SR-IOV host driver (AMD's MxGPU GIM) must be loaded and the VF "
	 "assigned; a GPU not meant to run as a VF (an MI25 flashed for MxGPU) needs its "
	 "non-virtualised VBIOS; then reboot the guest",
	 LX_KMSG_REPEATS(10), {{"gpu", 1}, {"what", 3}},
	 "drivers/gpu/drm/amd/amdgpu/mxgpu_ai.c xgpu_ai_mailbox_trans_msg(), mxgpu_nv.c: "
	 "dev_err_ratelimited(adev->dev, \"trn=%x ACK should not assert! wait again !\\n\", trn)"},
	/* The same loop once the ratelimit held its lines back: the kernel
	 * names the function whose dev_err_ratelimited() it silenced, which
	 * it does only after ten of them within five seconds. */
	{"amdgpu-vf-mailbox-suppressed",
	 "^xgpu_(ai|nv)_mailbox_trans_msg: ([0-9]+) callbacks suppressed",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU runs as an SR-IOV virtual function and its mailbox to the host's driver is "
	 "stuck (its retry message, \"ACK should not assert\", came {suppressed} times more than "
	 "the kernel printed): amdgpu cannot initialize it, containers or the VM holding it get no "
	 "GPU",
	 "on the host: the GPU's SR-IOV host driver (AMD's MxGPU GIM) must be loaded and the VF "
	 "assigned; a GPU not meant to run as a VF (bare metal, an eGPU) is taken for one when its "
	 "VBIOS is a virtualised one (an MI25 or MI50 flashed for MxGPU) or its registers read back "
	 "wrong over a failing link (a riser, Thunderbolt): flash its own VBIOS, seat it in a slot; "
	 "then reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 0}, {"suppressed", 2}},
	 "lib/ratelimit.c ___ratelimit(): printk(KERN_WARNING \"%s: %d callbacks suppressed\\n\", "
	 "func, rs->missed) with the function of the silenced dev_err_ratelimited(): mxgpu_ai.c "
	 "xgpu_ai_mailbox_trans_msg(), mxgpu_nv.c xgpu_nv_mailbox_trans_msg() (\"trn=%x ACK should "
	 "not assert! wait again !\\n\"); the line names no GPU: the log's only amdgpu GPU"},
	{"amdgpu-psp-ucode-refused",
	 "(amdgpu (" BDF "): (amdgpu: )?|\\[drm\\] )failed to load (ucode ([A-Za-z0-9_]+)\\(0x[0-9A-Fa-f]+\\)|"
	 "ucode id \\([0-9]+\\))",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the AMD GPU's security processor (PSP) refused to load the {ucode} firmware: the engine "
	 "it is for does not start (SMC: power management; VCN: video decode and encode), and "
	 "the GPU may not initialize",
	 "install the linux-firmware of the kernel's release (its amdgpu/ files must suit the "
	 "kernel and each other), or revert the linux-firmware update after which it began; "
	 "update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_UNLESS_STARTED, {{"ucode", 5}, {"ucode", 4}, {"gpu", 2}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_psp.c psp_cmd_submit_buf(): dev_warn(psp->adev->dev, "
	 "\"failed to load ucode %s(0x%X)\" (and a space), amdgpu_ucode_name(...), ...), then \"psp gfx "
	 "command %s(0x%X) failed and response status is (0x%X)\\n\" (older kernels: DRM_WARN, "
	 "no address; 5.x: DRM_WARN(\"failed to load ucode id (%d)\" and a space, ucode->ucode_id), "
	 "the AMDGPU_UCODE_ID number); psp_cmd_submit_buf() only warns (\"to avoid breaking "
	 "hw_init\": some PSP firmware does not write 0 to the status) and fails the command on a "
	 "timeout or an SR-IOV VF only: a start of the GPU that completes after it went past it "
	 "(a working Raven2's RLC_RESTORE_LIST_CNTL, _GPM_MEM, _SRM_MEM at every boot of 6.2)"},
	{"amdgpu-atombios-stuck",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm[^]]*\\] \\*ERROR\\* )?atombios stuck in loop for more "
	 "than ([0-9]+)secs aborting",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU's VBIOS (an atombios table the driver runs to post or reset it) hung for "
	 "{seconds} s and was aborted: the GPU does not initialize (or come back after a reset), "
	 "and containers holding it get no working /dev/dri or /dev/kfd device",
	 "power the host off and on (a GPU left half-reset by a virtual machine or a failed reset "
	 "needs a cold start); if it fails on every boot, check the slot, power and the system "
	 "firmware's PCIe settings, and update the GPU's VBIOS or the system firmware",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"seconds", 5}},
	 "drivers/gpu/drm/amd/amdgpu/atom.c atom_op_jump(): DRM_ERROR(\"atombios stuck in loop for "
	 "more than %dsecs aborting\\n\", ATOM_CMD_TIMEOUT_SEC) (newer kernels: drm_err() with the "
	 "address)"},
	{"amdgpu-ring-timeout",
	 "(amdgpu (" BDF "): (amdgpu: )?)?(\\[drm:amdgpu_job_timedout \\[amdgpu\\]\\] \\*ERROR\\* )?"
	 "ring ([a-z0-9_.]+) timeout, (last )?signaled seq=([0-9]+), (last )?emitted seq=([0-9]+)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a job on the AMD GPU's ring {ring} did not finish (signaled seq={signaled}, emitted "
	 "seq={emitted}): the driver resets the ring or the GPU, and the program that submitted it "
	 "(in a container: its Jellyfin, Frigate or ROCm job) loses its context",
	 "restart the program; if it recurs, update the kernel and linux-firmware (a firmware "
	 "of the same release as the kernel), or revert the update after which it started",
	 LX_KMSG_SOLE_AMDGPU, {{"ring", 5}, {"gpu", 2}, {"signaled", 7}, {"emitted", 9}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_job.c amdgpu_job_timedout(): dev_err(adev->dev, "
	 "\"ring %s timeout, signaled seq=%u, emitted seq=%u\\n\") (older: DRM_ERROR(\"ring %s "
	 "timeout, signaled seq=%u, emitted seq=%u\\n\")); kernels that define amdgpu's dev_fmt "
	 "print \"amdgpu: \" after the address; 4.9-4.18: DRM_ERROR(\"ring %s timeout, last "
	 "signaled seq=%u, last emitted seq=%u\\n\")"},
	/* A reset that did not bring the GPU back, every wording and kernel:
	 * the recovery's own "GPU reset(N) failed" and "GPU reset end with
	 * ret", the ASIC reset step's (DRM_WARN before 5.x: "[drm] ASIC reset
	 * failed ... for drm dev, ADDRESS"), the timeout handler's "GPU Recovery
	 * Failed", a reset method's ("GPU mode1/mode2 reset failed", the SMU's
	 * "Mode2 reset failed!"), and 4.x amdgpu's and radeon's "GPU reset
	 * failed". Before amdgpu-gpu-reset, whose "GPU mode1 reset" it contains. */
	{"amdgpu-gpu-reset-failed",
	 "((amdgpu|radeon) (" BDF "): (amdgpu: )?|\\[drm\\] |\\[drm:[a-z0-9_]+ \\[amdgpu\\]\\] \\*ERROR\\* )"
	 "(GPU reset\\(([0-9]+)\\) failed|GPU reset failed|GPU reset end with ret = (-?[0-9]+)|"
	 "ASIC reset failed with error, (-?[0-9]+)( for drm dev, (" BDF "))?|"
	 "GPU Recovery Failed: (-?[0-9]+)|(GPU )?([Mm]ode[12]|MODE[12]|BACO) reset failed|"
	 "GPU link reset failed|asic atom init failed!?|PCIe error recovery failed, err: ?(-?[0-9]+)|"
	 "Failed to mode2? reset!|failed to send mode2 reset, error code (-?[0-9]+)|GPU pre asic reset "
	 "failed with err, (-?[0-9]+))",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the AMD GPU hung and the driver's reset of it failed ({failure}): the GPU stays unusable, "
	 "for every container holding it, until the host is power-cycled",
	 "stop what uses the GPU and reboot the host (power it off if the GPU does not come back); "
	 "if it recurs, update the kernel and linux-firmware together, or revert the update after "
	 "which it began",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 3}, {"gpu", 10}, {"failure", 5}, {"count", 6}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_gpu_recover(): "
	 "dev_info(tmp_adev->dev, \"GPU reset(%d) failed\\n\", atomic_read(&tmp_adev->"
	 "gpu_reset_counter)) (later with 'with error %d' after it); amdgpu_do_asic_reset() and "
	 "amdgpu_device_xgmi_reset_func(): dev_err(tmp_adev->dev, \"ASIC reset failed with error, %d "
	 "for drm dev, %s\", ...) (5.x: DRM_WARN, '[drm] ' and no address before it; "
	 "sienna_cichlid.c/smu_v13_0_10.c mode2: the same words without the device); "
	 "pm/swsmu/amdgpu_smu.c smu_mode2_reset(): dev_err(smu->adev->dev, \"Mode2 reset failed!\\n\"); "
	 "before 4.16 amdgpu_gpu_reset() and radeon_device.c radeon_gpu_reset(): "
	 "dev_info(rdev->dev, \"GPU[ pre asic][ link] reset failed\\n\") (\"link\": 6.x "
	 "amdgpu_device_link_reset()'s dev_err; \"pre asic\": 6.x amdgpu_device_asic_reset()'s "
	 "dev_err(tmp_adev->dev, 'GPU pre asic reset failed with err, %d for drm dev, %s ', ...)); "
	 "after them amdgpu_device_gpu_recover()'s "
	 "dev_info(adev->dev, 'GPU reset end with ret = %d'), amdgpu_job.c amdgpu_job_timedout()'s "
	 "dev_err(adev->dev, 'GPU Recovery Failed: %d') (5.x: DRM_ERROR), nv.c/soc21.c "
	 "*_asic_mode2_reset()'s dev_err(adev->dev, 'GPU mode2 reset failed'), "
	 "amdgpu_device_mode1_reset()'s 'GPU mode1 reset failed'; 6.x: amdgpu_device_link_reset()'s "
	 "dev_err(adev->dev, \"GPU link reset failed'), amdgpu_device_reinit_after_reset()'s "
	 "dev_warn(tmp_adev->dev, \"asic atom init failed!\"), amdgpu_pci_slot_reset()'s "
	 "dev_err(adev->dev, \"PCIe error recovery failed, err:%d\\n\", r), the SMU's "
	 "smu_v13_0_5_ppt.c \"Failed to mode reset!\\n\", smu_v14_0_0_ppt.c \"Failed to mode2 "
	 "reset!\\n\", smu_v13_0_6_ppt.c \"failed to send mode2 reset, error code %d\""},
	{"amdgpu-gpu-reset",
	 "amdgpu (" BDF "): (amdgpu: )?(GPU )?((psp |smu )?[Mm][Oo][Dd][Ee]1|MODE2|BACO) reset",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU was reset ({method}) after a hang: every program using it lost its work",
	 "restart the programs using the GPU (in every container holding it); if it recurs, "
	 "update the kernel and linux-firmware together",
	 LX_KMSG_NOT_ROUTINE, {{"gpu", 1}, {"method", 4}},
	 "drivers/gpu/drm/amd/amdgpu/soc15.c, nv.c, soc21.c *_asic_reset(): dev_info(adev->dev, "
	 "\"MODE1 reset\\n\"), \"MODE2 reset\\n\", \"BACO reset\\n\"; the 5.x kernels: "
	 "\"GPU BACO reset\\n\", and amdgpu_device.c amdgpu_device_mode1_reset(): \"GPU mode1 "
	 "reset\\n\", then \"GPU smu mode1 reset\\n\" or \"GPU psp mode1 reset\\n\"; "
	 "amdgpu_asic_reset() also runs in amdgpu_device_init() when amdgpu_asic_need_reset_on_init() "
	 "(soc15.c soc15_need_reset_on_init(): a Renoir-family APU, \"CP hangs in IGT reloading test "
	 "on RN, reset to WA\", as a working 6.2 boot shows it; 5.15 and 5.16 boots of the same APUs "
	 "show none; else a GPU whose PSP the firmware or an earlier driver left running) and before "
	 "S3 and hibernation "
	 "(amdgpu_pmops_suspend_noirq(), amdgpu_pmops_freeze()): there the line is routine"},
	{"amdgpu-vram-lost",
	 "(amdgpu (" BDF "): (amdgpu: )?|\\[drm\\] |\\[drm:amdgpu_device_gpu_recover \\[amdgpu\\]\\] "
	 "\\*ERROR\\* )VRAM is lost( due to GPU reset)?!?",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the AMD GPU was reset and its memory (VRAM) lost: every program on it, in every container "
	 "holding it, must restart (their contexts are gone)",
	 "restart the programs using the GPU (the containers' services); if resets recur, update "
	 "the kernel and linux-firmware together, or revert the update after which they began",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_reinit_after_reset(): "
	 "dev_info(tmp_adev->dev, \"VRAM is lost due to GPU reset!\\n\") (older kernels: "
	 "DRM_INFO with the same text, [drm] and no address; 4.18 to 4.20, "
	 "amdgpu_device_gpu_recover(): DRM_ERROR(\"VRAM is lost!\\n\"))"},
	{"amdgpu-gpu-reset-begin",
	 "amdgpu (" BDF "): (amdgpu: )?GPU reset begin!?",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU hung and the driver began to reset it: every program using it (in every "
	 "container holding it) loses its work",
	 "restart the programs using the GPU; if it recurs, update the kernel and linux-firmware "
	 "together, or revert the update after which it began",
	 LX_KMSG_RESTATES, {{"gpu", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_gpu_recover(): dev_info(adev->dev, "
	 "\"GPU reset begin!\\n\") (2025 kernels: \"GPU reset begin!. Source:  %d\\n\")"},
	/* A reset that went through: amdgpu's full reset (every kernel) and
	 * radeon's soft reset after a lockup */
	{"amdgpu-gpu-reset-done",
	 "(amdgpu|radeon) (" BDF "): (amdgpu: )?(GPU reset succeeded, trying to resume|GPU softreset: "
	 "0x[0-9A-Fa-f]+|GPU reset\\([0-9]+\\) succeeded!?|(R_008020_)?GRBM_SOFT_RESET=0x[0-9A-Fa-f]+|"
	 "(R_000E60_)?SRBM_SOFT_RESET=0x[0-9A-Fa-f]+)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU hung and the driver reset it ({step}): every program using it (in every "
	 "container holding it) lost its work",
	 "restart the programs using the GPU; if it recurs, update the kernel and linux-firmware "
	 "together, or revert the update after which it began",
	 LX_KMSG_RESTATES, {{"gpu", 2}, {"step", 4}, {"driver", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_do_asic_reset() (4.x: "
	 "amdgpu_gpu_reset()): dev_info(tmp_adev->dev, \"GPU reset succeeded, trying to "
	 "resume\\n\"); drivers/gpu/drm/radeon/radeon_device.c radeon_gpu_reset(): the same "
	 "dev_info; evergreen.c, ni.c, si.c, cik.c, r600.c *_gpu_soft_reset(): dev_info(rdev->dev, "
	 "\"GPU softreset: 0x%08X\\n\", reset_mask); amdgpu_device_gpu_recover() at its end: "
	 "dev_info(tmp_adev->dev, \"GPU reset(%d) succeeded!\\n\", ...); the soft resets then "
	 "pulse the reset registers: dev_info(rdev->dev, \"GRBM_SOFT_RESET=0x%08X\\n\", tmp), "
	 "SRBM_SOFT_RESET=0x%08X the same (r600.c: R_008020_GRBM_SOFT_RESET=0x%08X, "
	 "R_000E60_SRBM_SOFT_RESET=0x%08X; amdgpu's gfx_v6-v10 and sdma *_soft_reset() the same, "
	 "in a GPU recovery only)"},
	/* A command buffer the driver could not even allocate: with -35
	 * (EDEADLK) the GPU is locked up and a reset is pending */
	{"amdgpu-ib-get-failed",
	 "(amdgpu|radeon) (" BDF "): (amdgpu: )?failed to get a new IB \\((-?[0-9]+)\\)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the driver could not allocate a command buffer on the AMD GPU ({error}; -35: the GPU is "
	 "locked up and waits for its reset): programs' submissions to it (in every container "
	 "holding it) fail until the reset",
	 "restart the programs using the GPU, reboot if it stays hung; if it recurs, update the "
	 "kernel, linux-firmware and Mesa together, or revert the update after which it began",
	 LX_KMSG_RESTATES, {{"gpu", 2}, {"error", 4}, {"driver", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_ib.c amdgpu_ib_get() and drivers/gpu/drm/radeon/"
	 "radeon_ib.c radeon_ib_get(): dev_err(adev->dev, \"failed to get a new IB (%d)\\n\", r)"},
	{"amdgpu-cs-context-lost",
	 "(amdgpu (" BDF "): (amdgpu: )?)?(\\[drm:amdgpu_cs_ioctl( \\[amdgpu\\])?\\] \\*ERROR\\* |\\[drm\\] "
	 "\\*ERROR\\* )?Failed to initialize parser -125!?",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "programs' submissions to the AMD GPU are refused with ECANCELED: their contexts were lost "
	 "in a reset of the GPU after a hang (the context that caused it, or VRAM lost), and they "
	 "must be restarted",
	 "restart the programs using the GPU (in every container holding it); if the hang recurs, "
	 "update the kernel and linux-firmware together, or revert the update after which it began",
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_RESTATES, {{"gpu", 2}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_cs.c amdgpu_cs_ioctl(): DRM_ERROR(\"Failed to initialize "
	 "parser %d!\\n\", r) with -ECANCELED, which amdgpu_cs_parser_init()/amdgpu_ctx give a "
	 "context found guilty of a hang or older than the last VRAM loss"},
	/* The GPU scheduler (drivers/gpu/drm/scheduler, every DRM driver's
	 * but nvidia's): a job pushed to a context the scheduler had already
	 * killed, after a hang's reset or while its process was being killed
	 * out of a stuck wait: that program's work on the GPU is lost. */
	{"drm-sched-killed-entity",
	 "(" GPU_DRIVER " (" BDF "): )?(\\[drm(:[a-z0-9_]+ \\[[a-z0-9_]+\\])?\\] )?(\\*ERROR\\* )?"
	 "Trying to push to a killed entity",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a program's work was pushed to a GPU context the DRM scheduler had already killed: the "
	 "context's jobs were dropped after the GPU hung and was reset, or while the program was "
	 "killed out of a stuck wait; the program (in whichever container holds the GPU) lost its "
	 "work on the GPU",
	 "restart the programs using the GPU, reboot if it stays hung; if it recurs, update the "
	 "kernel, linux-firmware and Mesa together, or revert the update after which it began",
	 LX_KMSG_SOLE_GPU | LX_KMSG_RESTATES, {{"gpu", 3}, {"driver", 2}},
	 "drivers/gpu/drm/scheduler/sched_entity.c drm_sched_entity_push_job(): DRM_ERROR(\"Trying to "
	 "push to a killed entity\\n\") when entity->stopped (4.19 and later; printed as "
	 "\"[drm:drm_sched_entity_push_job [gpu_sched]] *ERROR* \", amdgpu-dkms' \"[amd_sched]\"; "
	 "6.x drm_sched_rq_add_entity() the same text), no device"},
	/* TTM (drivers/gpu/drm/ttm, the memory manager of amdgpu, radeon,
	 * nouveau, xe and i915's discrete GPUs) could not move a buffer out of
	 * VRAM: inside a system sleep the driver's evacuation of VRAM before
	 * the suspend failed, and the suspend with it. */
	{"ttm-eviction-failed-sleep",
	 "\\[TTM\\] (Buffer eviction failed|Failed to find memory space for buffer (0x)?[0-9a-fA-F]+ "
	 "eviction|Failed to expire sync object before buffer eviction)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "a GPU's memory manager (TTM) could not move a buffer out of VRAM while the host went to "
	 "sleep: the driver's evacuation of VRAM before the suspend failed, so the suspend "
	 "failed or the GPU may not come back from it",
	 FIX_PM_SUSPEND,
	 LX_KMSG_IN_SLEEP | LX_KMSG_SOLE_GPU | LX_KMSG_RESTATES, {{NULL, 0}},
	 "drivers/gpu/drm/ttm/ttm_bo.c ttm_bo_evict() under pr_fmt \"[TTM] \": pr_err(\"Failed to "
	 "find memory space for buffer 0x%p eviction\\n\", bo) when ttm_bo_mem_space() fails, "
	 "pr_err(\"Buffer eviction failed\\n\") when the move fails (not for -ERESTARTSYS, 6.x "
	 "-EINTR); 3.x: \"Failed to expire sync object before buffer eviction\\n\"; called from "
	 "ttm_resource_manager_evict_all() (amdgpu_device_evict_resources(), i915's and xe's "
	 "suspend) inside a system sleep"},
	/* amdgpu's own word for the same failure: its evacuation of VRAM
	 * before a suspend or hibernation (amdgpu_device_prepare(),
	 * amdgpu_device_suspend()) failed, or a buffer could not be moved
	 * without the copy engine (no CPU-visible VRAM: a small BAR) */
	{"amdgpu-evict-resources-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm\\] )?(evicting device resources failed|Move buffer "
	 "fallback to memcpy unavailable)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU could not move its buffers out of VRAM before the host went to sleep: the "
	 "suspend or hibernation failed, or the GPU may not come back from it",
	 FIX_PM_SUSPEND,
	 LX_KMSG_IN_SLEEP | LX_KMSG_SOLE_AMDGPU | LX_KMSG_RESTATES, {{"gpu", 2}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_evict_resources() (5.17 and "
	 "later): DRM_WARN(\"evicting device resources failed\\n\") (6.x dev_warn(adev->dev, ...) "
	 "with the address), called by amdgpu_device_prepare() and amdgpu_device_suspend(); "
	 "amdgpu_ttm.c amdgpu_bo_move(): pr_err(\"Move buffer fallback to memcpy unavailable\\n\") "
	 "under pr_fmt \"amdgpu: \" when the copy engine is off and the buffer is not CPU-visible; "
	 "inside a system sleep only"},
	/* The same outside a sleep: a program's allocation needed room in VRAM
	 * (or GTT) and none could be made. */
	{"ttm-eviction-failed",
	 "\\[TTM\\] ((" BDF "): )?(Buffer eviction failed|Failed to find memory space for buffer "
	 "(0x)?[0-9a-fA-F]+ eviction|Failed to expire sync object before buffer eviction|Unable to get "
	 "page [0-9]+|Unable to allocate table for new pages|Failed to allocate extra pages for large "
	 "request|Failed to fill [a-z0-9 ]+ pool \\(r:-?[0-9]+\\))",
	 LXG192_GPU_MEMORY_EXHAUSTED, LX_SEVERITY_WARNING,
	 "a GPU's memory manager (TTM) could not make room in the GPU's memory (a buffer eviction "
	 "or page allocation failed): VRAM and the "
	 "system memory it spills to (GTT) were full or held, so a program's allocation or buffer "
	 "move failed (out of memory in ROCm, Vulkan, VA-API or OpenGL, a model that does not load, "
	 "a transcode that stops)",
	 "run fewer or smaller jobs on the GPU at once (a model or batch that fits its VRAM; "
	 "containers sharing the GPU share its memory), free system memory for GTT or raise its "
	 "limit (amdgpu.gttsize=, ttm.pages_limit= on the kernel command line); if it comes with no "
	 "load, update the kernel (a leak of the driver's)",
	 LX_KMSG_SOLE_GPU, {{"gpu", 2}},
	 "drivers/gpu/drm/ttm/ttm_bo.c ttm_bo_evict() under pr_fmt \"[TTM] \": pr_err(\"Failed to "
	 "find memory space for buffer 0x%p eviction\\n\", bo) (then ttm_bo_mem_space_debug()'s "
	 "\"No space for %p ...\"), pr_err(\"Buffer eviction failed\\n\") (every kernel since 3.x; "
	 "6.x not for -EINTR); 3.x: \"Failed to expire sync object before buffer eviction\\n\"; the "
	 "page pools of 3.3-5.9 (system memory for GTT): ttm_page_alloc.c ttm_alloc_new_pages(): "
	 "pr_err(\"Unable to get page %u\\n\"), \"Unable to allocate table for new pages\\n\", "
	 "ttm_get_pages(): \"Failed to allocate extra pages for large request\\n\"; "
	 "ttm_page_alloc_dma.c: pr_err(\"%s: Unable to get page %u\\n\", pool->dev_name, i), "
	 "pr_err(\"%s: Failed to fill %s pool (r:%d)!\\n\", pool->dev_name, pool->name, r) with "
	 "the GPU's address; without it the log's only GPU"},
	/* amdgpu's display could not pin a frame buffer for scanout for want of
	 * room (-ENOMEM from amdgpu_bo_pin(): VRAM full, a compute job holding
	 * it): the screen freezes or goes black while the job runs */
	{"amdgpu-pin-fb-no-memory",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_]+( \\[amdgpu\\])?\\] \\*ERROR\\* )?"
	 "Failed to pin framebuffer with error (-12)",
	 LXG192_GPU_MEMORY_EXHAUSTED, LX_SEVERITY_WARNING,
	 "amdgpu could not pin a frame buffer for the display (error {error}, ENOMEM): the GPU's "
	 "memory was full (a compute or render job holding VRAM), so the screen froze or went black "
	 "while it ran",
	 "give the display room: run the job with less VRAM (a smaller model or batch, ROCm's "
	 "low-VRAM options), or on a GPU that drives no display; update the kernel if it happens "
	 "with VRAM free",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"error", 6}},
	 "drivers/gpu/drm/amd/display/amdgpu_dm/amdgpu_dm_plane.c amdgpu_dm_plane_helper_prepare_fb() "
	 "(amdgpu_dm.c dm_plane_helper_prepare_fb() before 6.5): DRM_ERROR(\"Failed to pin "
	 "framebuffer with error %d\\n\", r) after amdgpu_bo_pin(), whose amdgpu_object.c "
	 "amdgpu_bo_pin_restricted() says dev_err(adev->dev, \"%p pin failed\\n\", bo) with the GPU's "
	 "address"},
	/* The NVIDIA RM's own out-of-room messages: no room left for a mapping
	 * in a GPU address space (BAR1's, where CPU mappings of GPU memory go:
	 * 256 MiB without Resizable BAR), and system memory it could not get
	 * for the GPU. They name no GPU: the log's only NVIDIA GPU. */
	{"nvidia-va-space-exhausted",
	 RM_PREFIX "(dmaAllocMapping(_[A-Z0-9]+)?: (can't alloc VA space for mapping)|"
	 "nv(Assert|Check)Ok(Failed|FailedNoLog): (Assertion|Check) failed: (Out of memory "
	 "\\[NV_ERR_NO_MEMORY\\]).* returned from [^@]*([Rr]euse[Mm]apping[Dd]b|pBar1VaInfo))",
	 LXG192_GPU_MEMORY_EXHAUSTED, LX_SEVERITY_WARNING,
	 "the NVIDIA driver found no room in the GPU's address space for a mapping ({what}): the "
	 "BAR1 aperture, through which programs map GPU memory, was full (256 MiB when Resizable BAR "
	 "is off; browsers, compositors and Vulkan or CUDA programs each hold mappings in it), so "
	 "their allocations fail with out of memory while nvidia-smi still shows free VRAM; it can "
	 "end in an Xid 31 or the driver's RC watchdog locking the GPU",
	 "enable Resizable BAR (and Above 4G Decoding) in the firmware setup so that BAR1 spans the "
	 "VRAM, and nvidia.NVreg_EnableResizableBar=1 where the driver does not enlarge it; until "
	 "then run fewer programs with GPU mappings at once (browser tabs with WebGL or video, "
	 "several Vulkan clients); update the driver; reboot the host if the GPU stays locked",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 2}, {"what", 6}, {"what", 10}},
	 "src/nvidia/src/kernel/gpu/mem_mgr/arch/maxwell/virt_mem_allocator_gm107.c dmaAllocMapping_GM107(): "
	 "NV_PRINTF(LEVEL_ERROR, \"can't alloc VA space for mapping.\\n\") when vaspaceAlloc() "
	 "fails, under the RM's release prefix (the function's name; newer drivers GPU%d before "
	 "it); then the assertion of the BAR1 mapping it was for, mapping_reuse.c: \"Assertion "
	 "failed: Out of memory [NV_ERR_NO_MEMORY] (0x00000051) returned from "
	 "pReuseMappingDb->pMapCb(...) @ mapping_reuse.c:...\", kern_bus_gm107.c: \"... Out of "
	 "memory [NV_ERR_NO_MEMORY] (0x00000051) returned from reusemappingdbMap(...) @ "
	 "kern_bus_gm107.c:...\" (nvAssertOkFailedNoLog; 570 and later nvCheckOkFailedNoLog's "
	 "Check failed)"},
	{"nvidia-sysmem-alloc-failed",
	 RM_PREFIX "sysmemConstruct(_IMPL)?: \\*\\*\\* (Cannot allocate sysmem through fb heap)",
	 LXG192_GPU_MEMORY_EXHAUSTED, LX_SEVERITY_WARNING,
	 "the NVIDIA driver could not get system memory for a GPU allocation ({what}, "
	 "NV_ERR_NO_MEMORY): the host's memory was short, or too fragmented for the contiguous pages "
	 "the driver asked for; the program's allocation fails (CUDA out of memory or a failed "
	 "cuInit, NVDEC or NVENC sessions that do not open) while nvidia-smi shows the GPU well",
	 "free host memory (stop or shrink other workloads, cap the ZFS ARC, drop caches), compact "
	 "it (echo 1 > /proc/sys/vm/compact_memory) and retry; if it recurs, give the host more "
	 "memory or run fewer GPU jobs at once (a container's memory limit does not cover these "
	 "pages)",
	 LX_KMSG_SOLE_NVIDIA, {{"gpu", 2}, {"what", 5}},
	 "src/nvidia/src/kernel/mem_mgr/system_mem.c sysmemConstruct_IMPL(): NV_PRINTF(LEVEL_ERROR, "
	 "\"*** Cannot allocate sysmem through fb heap\\n\") when memdescAlloc() of the system "
	 "memory fails (after mem_desc.c's \"Check failed: Out of memory [NV_ERR_NO_MEMORY] ... "
	 "returned from _memdescAllocInternal(pMemDesc)\"); the RM's release prefix \"NVRM: %s: \""},
	/* The same shortage as the submitting program meets it: amdgpu's and
	 * radeon's command-submission ioctl could not place the job's buffers
	 * (-ENOMEM); the program's submission fails (Vulkan's device lost). */
	{"amdgpu-cs-no-memory",
	 "((amdgpu|radeon) (" BDF "): (amdgpu: )?\\[drm\\] \\*ERROR\\* |((amdgpu|radeon) (" BDF "): )?"
	 "\\[drm:(amdgpu|radeon)_cs_ioctl( \\[(amdgpu|radeon)\\])?\\] \\*ERROR\\* )(Not enough memory for "
	 "command submission|Failed to parse relocation -12)!?",
	 LXG192_GPU_MEMORY_EXHAUSTED, LX_SEVERITY_WARNING,
	 "the {driver} driver refused programs' command submissions to the GPU for want of memory "
	 "(-ENOMEM: the job's buffers could not be placed in VRAM or GTT, which were full or "
	 "held): the program's work fails (Vulkan's device lost, a model or video that stops)",
	 "run fewer or smaller jobs on the GPU at once (a model or batch that fits its VRAM; "
	 "containers and the desktop sharing the GPU share its memory), free system memory for GTT "
	 "or raise its limit (amdgpu.gttsize=, ttm.pages_limit= on the kernel command line); if it "
	 "comes with no load, update the kernel",
	 LX_KMSG_SOLE_GPU, {{"gpu", 3}, {"gpu", 7}, {"driver", 2}, {"driver", 6}, {"driver", 8}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_cs.c amdgpu_cs_ioctl(): when amdgpu_cs_parser_bos() "
	 "returns -ENOMEM, DRM_ERROR(\"Not enough memory for command submission!\\n\") (4.2-6.x, "
	 "\"[drm:amdgpu_cs_ioctl [amdgpu]] *ERROR* \"), drm_err(dev, ...) in later kernels (with "
	 "the address, \"[drm] *ERROR* \"); drivers/gpu/drm/radeon/radeon_cs.c radeon_cs_ioctl(): "
	 "DRM_ERROR(\"Failed to parse relocation %d!\\n\", r) with -ENOMEM (-12; other codes are "
	 "other failures); without the address the log's only GPU of that driver"},
	/* A ring the driver's test command did not pass, every wording: the
	 * helper's "ring NAME test failed (ERR)" with the address (4.20 and
	 * later), and before it each IP block's own DRM_ERROR without one,
	 * "amdgpu: ring N test failed (scratch(REG)=VALUE)" (gfx_v6-v9),
	 * "(ME)amdgpu: ring N test failed (VALUE)" (sdma, uvd, vce), and
	 * radeon's "radeon: ring N test failed ..." of every ASIC family. */
	{"amdgpu-ring-test-failed",
	 "((amdgpu|radeon) (" BDF "): (amdgpu: )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[(amdgpu|radeon)\\]\\] )?"
	 "(\\*ERROR\\* )?(\\([0-9]+\\))?((amdgpu|radeon): )?|(\\[drm:[a-z0-9_]+ \\[(amdgpu|radeon)\\]\\] "
	 "\\*ERROR\\* )?(\\([0-9]+\\))?(amdgpu|radeon): )ring (([a-z0-9_.]+) )?test failed"
	 "( \\(((scratch\\(0x[0-9a-fA-F]+\\)=)?-?(0x)?[0-9a-fA-F]+)\\))?",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's ring {ring} did not pass the driver's test ({error}; -110, or a register "
	 "still holding 0xCAFEDEAD: the engine never ran the test command; 0xFFFFFFFF: the GPU no "
	 "longer answers): at boot its engine does not start (an init failure follows), during a "
	 "reset or resume the engine did not come back; programs using it (in every container "
	 "holding the GPU) lose their work",
	 "reboot the host (power it off if it recurs); if it fails on every boot, install the "
	 "linux-firmware of the kernel's release or revert the update after which it began",
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_RESTATES,
	 {{"gpu", 3}, {"ring", 17}, {"error", 19}, {"driver", 2}, {"driver", 15}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_ring.c amdgpu_ring_test_helper(): DRM_DEV_ERROR(adev->dev, "
	 "\"ring %s test failed (%d)\\n\", ring->name, r) (the address and the function's name); "
	 "before 4.20 each block's ring_test_ring(): gfx_v6_0.c-gfx_v9_0.c DRM_ERROR(\"amdgpu: ring %d "
	 "test failed (scratch(0x%04X)=0x%08X)\\n\", ring->idx, scratch, tmp), and radeon's r100.c-cik.c "
	 "DRM_ERROR(\"radeon: ring %d test failed (scratch(0x%04X)=0x%08X)\\n\") (r100: without the "
	 "ring number; 2025 kernels: drm_err() with the address); sdma_v2_4-v4_0.c \"amdgpu: ring %d "
	 "test failed (0x%08x)\\n\" (sdma_v4_0: the instance before it, \"(1)amdgpu: ...\"), uvd and vce "
	 "the same without the value"},
	{"kfd-not-supported-asic",
	 "amdgpu (" BDF "): (amdgpu: )?kfd not supported on this ASIC",
	 LXG143_KFD_REFUSED, LX_SEVERITY_WARNING,
	 "amdgpu does not hand the AMD GPU to amdkfd in this kernel (its list of the GPU families "
	 "amdkfd drives does not have this one), so ROCm (/dev/kfd) has no such GPU on the host nor "
	 "in any container; graphics and VA-API transcoding are not affected",
	 "nothing if the containers only render or transcode; for ROCm: a newer kernel whose amdkfd "
	 "drives the GPU (Proxmox: the current proxmox-kernel series), or another GPU",
	 0, {{"gpu", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_amdkfd.c amdgpu_amdkfd_device_probe() (kernels 4.17 to "
	 "5.x): dev_info(adev->dev, \"kfd not supported on this ASIC\\n\") for a chip its switch "
	 "gives no kfd2kgd functions (the first copy, 4.15-4.16: dev_dbg)"},
	{"i915-gpu-hang",
	 "((i915|xe) (" BDF "): )?(\\[drm\\] )?GPU HANG: ecode ([0-9a-fA-Fx:]+)(, in ([^[]*[^[ ]))?",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU hung (ecode {ecode}; the program on the hung engine: {process}): the "
	 "driver reset the engine and the program lost its context",
	 "restart the program; if it recurs, update the kernel, linux-firmware (GuC/HuC) and the "
	 "media driver in the container (intel-media-va-driver) together",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"ecode", 5}, {"process", 7}, {"driver", 2}},
	 "drivers/gpu/drm/i915/i915_gpu_error.c error_msg(): \"GPU HANG: ecode %d:%x:%08x\", then "
	 "\", in %s [%d]\" only when a context was running on the hung engine (the program's comm, "
	 "spaces included: \"Plex Transcoder\"; older kernels: "
	 "\"GPU HANG: ecode %d:%x:0x%08x\", printed by dev_notice without [drm]; newer ones by "
	 "drm_info in i915_capture_error_state(); 4.x: DRM_INFO, \"[drm] GPU HANG: ...\" with no "
	 "address)"},
	{"i915-reset",
	 "(i915 (" BDF "): (\\[drm\\] )?(GT[0-9]+: )?|drm/i915: )Resetting (chip|[a-z]+[0-9]*) (for|after) "
	 "(.+)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU hung ({reason}) and the driver reset {engine}: the programs running on it "
	 "(in every container holding the GPU) lost their contexts",
	 "restart the programs; if it recurs, update the kernel, linux-firmware (GuC/HuC) and the "
	 "media driver in the container (intel-media-va-driver) together",
	 LX_KMSG_RESTATES | LX_KMSG_SOLE_INTEL, {{"engine", 5}, {"gpu", 2}, {"reason", 7}},
	 "drivers/gpu/drm/i915/gt/intel_reset.c intel_gt_reset(): gt_notice(gt, \"Resetting chip "
	 "for %s\\n\", reason) and __intel_engine_reset_bh(): \"Resetting %s for %s\\n\" (engine, "
	 "msg: the heartbeat's stopped heartbeat on <engine>, preemption time out); before the GT "
	 "prefix dev_notice() or drm_notice() with the same texts; the 4.x i915_reset()'s "
	 "\"Resetting chip after gpu hang\\n\" (4.0 to 4.10: pr_notice(\"drm/i915: Resetting chip "
	 "after gpu hang\\n\"), no address)"},
	{"i915-reset-failed",
	 "(i915 (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] )?(\\*ERROR\\* )?(GT[0-9]+: )?Failed "
	 "to reset chip",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the Intel GPU hung and the driver could not reset it: it declares the GPU wedged, and "
	 "rendering, transcoding and compute fail in every container holding it until the host is "
	 "rebooted",
	 "stop what uses the GPU and reboot the host; if it recurs, update the kernel and "
	 "linux-firmware together",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 2}},
	 "drivers/gpu/drm/i915/gt/intel_reset.c intel_gt_reset(): gt_err(gt, \"Failed to reset "
	 "chip\\n\") before it wedges the GT (older: dev_err()/drm_err() without the GT prefix; 4.x "
	 "i915_reset(): DRM_ERROR(\"Failed to reset chip: %i\\n\", ret), no address)"},
	{"xe-declared-wedged",
	 "CRITICAL: Xe has declared device (" BDF ") as wedged",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the Intel GPU (xe) hung and could not be reset: the driver declared it wedged and blocks "
	 "every ioctl and job on it, so rendering, transcoding and compute fail in every container "
	 "holding it until the driver is rebound or the host rebooted",
	 "stop what uses the GPU, then rebind the driver (echo the address to "
	 "/sys/bus/pci/drivers/xe/unbind and bind) or reboot the host; if it recurs, update the "
	 "kernel and linux-firmware (xe/ and i915/ GuC files) together",
	 0, {{"gpu", 1}},
	 "drivers/gpu/drm/xe/xe_device.c xe_device_declare_wedged(): drm_err(&xe->drm, "
	 "\"CRITICAL: Xe has declared device %s as wedged.\\n...\", dev_name(xe->drm.dev))"},
	{"xe-engine-reset",
	 "xe (" BDF "): (\\[drm\\] )?(Tile[0-9]+: )?(GT[0-9]+: )?(Engine reset: engine_class=([a-z]+)|"
	 "Timedout job: seqno=)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a job on the Intel GPU (xe) did not finish in time or the GuC reset its engine ({engine}): "
	 "the program that submitted it (in a container: its transcode or compute job) lost its "
	 "context",
	 "restart the program; if it recurs, update the kernel and linux-firmware (the xe/ GuC "
	 "file) together, or revert the update after which it began",
	 LX_KMSG_RESTATES, {{"gpu", 1}, {"engine", 6}},
	 "drivers/gpu/drm/xe/xe_guc_submit.c xe_guc_exec_queue_reset_handler(): xe_gt_info(gt, "
	 "\"Engine reset: engine_class=%s, logical_mask: 0x%x, guc_id=%d\", ...) (later with "
	 "\", state=0x%0x\"); guc_exec_queue_timedout_job(): xe_gt_notice(gt, \"Timedout job: "
	 "seqno=%u, lrc_seqno=%u, guc_id=%d, flags=0x%lx in %s [%d]\", ...) (first kernels: "
	 "drm_notice(\"Timedout job: seqno=%u, guc_id=%d, flags=0x%lx\"))"},
	{"xe-gt-reset-failed",
	 "xe (" BDF "): .*GT[0-9]+: reset failed \\((-?[A-Za-z0-9]+)\\)",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the Intel GPU (xe) hung and the driver could not reset it ({error}): it declares the GPU "
	 "wedged, and rendering, transcoding and compute fail in every container holding it until "
	 "the driver is rebound or the host rebooted",
	 "stop what uses the GPU, then rebind the driver (echo the address to "
	 "/sys/bus/pci/drivers/xe/unbind and bind) or reboot the host; if it recurs, update the "
	 "kernel and linux-firmware together",
	 0, {{"gpu", 1}, {"error", 2}},
	 "drivers/gpu/drm/xe/xe_gt.c gt_reset(): xe_gt_err(gt, \"reset failed (%pe)\\n\", "
	 "ERR_PTR(err)), with xe's \"[drm] *ERROR* Tile%u: GT%u: \" prefix"},
	{"xe-uc-init-failed",
	 "xe (" BDF "): .*Failed to (early )?initialize uC \\((-?[A-Za-z0-9]+)\\)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the GuC/HuC firmware of the Intel GPU (xe) did not start ({ret}; -ENOENT: its file "
	 "is missing, -EINVAL: a version this kernel refuses): the xe driver does not take the "
	 "GPU, and transcoding and compute fail in every container holding it",
	 "install a linux-firmware that has the xe/ (and i915/) GuC, HuC and DMC files of the "
	 "version this kernel asks for (the lines before it name them), or revert a broken "
	 "linux-firmware update; update-initramfs -u and reboot",
	 LX_KMSG_NEEDS_CAUSE, {{"gpu", 1}, {"ret", 3}},
	 "drivers/gpu/drm/xe/xe_uc.c xe_uc_init(): xe_gt_err(uc_to_gt(uc), \"Failed to "
	 "initialize uC (%pe)\\n\", ERR_PTR(ret)), with xe's \"[drm] *ERROR* Tile%u: GT%u: \" "
	 "prefix; xe_uc_init_noalloc(): \"Failed to early initialize uC (%pe)\\n\""},
	/* Intel: a GT that stops answering, the GuC's channel, init steps,
	 * a GPU the driver does not take, the display microcontroller. Old
	 * kernels print many of these with DRM_ERROR (no address): the log's
	 * only Intel GPU's (LX_KMSG_SOLE_INTEL). */
	/* before the forcewake row: xe's "MMIO unreliable" leads with its
	 * domain, which that row's pattern would skip (taking no address) */
	{"intel-mmio-lost",
	 INTEL_GT_PREFIX "(Force wake domain ([0-9]+): [a-z]+\\. MMIO unreliable \\(forcewake register returns "
	 "0xFFFFFFFF\\)|Lost access to MMIO BAR; all registers now read back as 0xFFFFFFFF)",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the Intel GPU stopped answering the driver ({message}): its registers read all ones, the "
	 "GPU is hung or gone from the bus, and every job on it (transcoding, compute, in every "
	 "container holding the GPU) fails; the driver may declare it wedged",
	 "stop what uses the GPU and reboot the host (power it off if it recurs at once); if it "
	 "recurs, update the kernel and linux-firmware together, turn off ASPM or deep package "
	 "C-states for the GPU's slot in the system firmware (a discrete Arc card), and check the "
	 "card's power and seating",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"domain", 14}, {"message", 13}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/xe/xe_force_wake.c __domain_wait(): xe_gt_err(gt, \"Force wake domain %d: "
	 "%s. MMIO unreliable (forcewake register returns 0xFFFFFFFF)!\\n\", ...); "
	 "drivers/gpu/drm/i915/intel_uncore.c check_for_unclaimed_mmio() (5.x-6.x): drm_err(\"Lost "
	 "access to MMIO BAR; all registers now read back as 0xFFFFFFFF!\\n\")"},
	/* before the forcewake row: the same messages while i915 sets the GPU
	 * up are a GPU it cannot initialize (a VM's SR-IOV VF the guest's
	 * i915 does not drive), not a hang */
	{"intel-forcewake-at-probe", INTEL_FORCEWAKE_TIMEOUT,
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU did not answer the driver while it set the GPU up ({message}): i915 cannot "
	 "initialize it, so there is no usable GPU (no render node, or one that hangs at once) for "
	 "the containers or the VM given it; in a VM guest given an SR-IOV virtual function this is "
	 "the guest's i915 not driving the VF (the kernel's own i915, or an i915-sriov-dkms release "
	 "or branch not made for the guest's kernel)",
	 "in a VM guest given an SR-IOV VF: install the i915-sriov-dkms release (or branch) made for "
	 "the guest's kernel, boot the guest with i915.enable_guc=3, update-initramfs -u and reboot "
	 "it; on a host: update the kernel and linux-firmware together, check the GPU is enabled in "
	 "the firmware setup, and power the host off and on",
	 LX_KMSG_SOLE_INTEL | LX_KMSG_IN_PROBE, {{"gpu", 3}, {"domain", 10}, {"message", 11}, {"driver", 2}},
	 "drivers/gpu/drm/i915/intel_uncore.c fw_domain_wait_ack_set(): drm_err(&i915->drm, \"%s: "
	 "timed out waiting for forcewake ack request.\\n\"), fw_domain_wait_ack_clear(): \"%s: timed "
	 "out waiting for forcewake ack to clear.\\n\" (5.x: DRM_ERROR, no address) during "
	 "i915_driver_probe(): i915_driver_mmio_probe() -> "
	 "intel_gt_init_mmio() -> intel_sseu_info_init() read the GT's fuses under forcewake; a GT "
	 "that does not answer then leaves the driver with all-zero fuses (\"L3 bank mask is all "
	 "zero!\", gen12_sseu_info_init()'s drm_WARN_ON(s_en != 0x1))"},
	{"intel-forcewake-timeout", INTEL_FORCEWAKE_TIMEOUT,
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the Intel GPU did not answer the driver ({message}): its GT is hung or gone "
	 "(0xFFFFFFFF: the GPU no longer answers on PCIe), register access fails and "
	 "every job on it (transcoding, compute, in every container holding the GPU) stalls or is "
	 "reset; the driver may declare the GPU wedged",
	 "stop what uses the GPU and reboot the host (power it off if it recurs at once); if it "
	 "recurs, update the kernel and linux-firmware (GuC/HuC) together, turn off deep package "
	 "C-states or ASPM in the system firmware for the GPU's slot (a discrete Arc card), and "
	 "check the card's power and seating",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"domain", 10}, {"message", 11}, {"driver", 2}},
	 "drivers/gpu/drm/i915/intel_uncore.c fw_domain_wait_ack_clear(): drm_err(&i915->drm, "
	 "\"%s: timed out waiting for forcewake ack to clear.\\n\", "
	 "intel_uncore_forcewake_domain_to_str(d->id)) (5.x: DRM_ERROR, no address; 6.x: gt_err with "
	 "GT%u:), fw_domain_wait_ack_set(): \"%s: timed out waiting for forcewake ack request.\\n\"; "
	 "intel_uncore.c's check of a device that reads all ones (5.x-6.x): drm_err(&i915->drm, "
	 "\"Device is non-operational; MMIO access returns 0xFFFFFFFF!\\n\"), and fw_domain_wait_ack_clear() "
	 "when the ack register reads so: \"%s: MMIO unreliable (forcewake register returns "
	 "0xFFFFFFFF)!\\n\"; the 3.x-4.x gen6 path: DRM_ERROR(\"Timed out waiting for forcewake old ack "
	 "to clear.\\n\") and \"Timed out waiting for forcewake to ack request.\\n\""},
	{"xe-forcewake-timeout",
	 "xe (" BDF "): .*(Force wake domain ([0-9]+) failed to ack (wake|sleep)|Forcewake domains? "
	 "(0x[0-9a-fA-F]+) failed to acknowledge (awake|sleep) request)",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the Intel GPU (xe) did not answer the driver's wake request ({message}): its GT is hung or "
	 "gone, register access fails and every job on it (transcoding, compute, in every container "
	 "holding the GPU) stalls or is reset",
	 "stop what uses the GPU and reboot the host; if it recurs, update the kernel and "
	 "linux-firmware (the xe/ and i915/ GuC files) together, turn off ASPM for the GPU's slot in "
	 "the system firmware (a discrete Arc card), and check the card's power and seating",
	 0, {{"gpu", 1}, {"message", 2}},
	 "drivers/gpu/drm/xe/xe_force_wake.c __domain_wait(): xe_gt_err(gt, \"Force wake domain %d "
	 "failed to ack %s (%pe) reg[%#x] = %#x\\n\", ...) (first kernels: drm_notice), then "
	 "xe_force_wake_get(): xe_gt_WARN(gt, awake_failed, \"Forcewake domain%s %#x failed to "
	 "acknowledge awake request\\n\", ...)"},
	{"i915-idle-wedged",
	 "(i915 (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] )?(\\*ERROR\\* )?(GT[0-9]+: )?"
	 "Failed to idle engines, declaring wedged",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the Intel GPU's engines did not go idle when the driver asked (on suspend, driver unload "
	 "or a GT reset): the driver declared the GPU wedged, and rendering, transcoding and compute "
	 "fail in every container holding it until the host is rebooted",
	 "stop what uses the GPU and reboot the host; if it recurs on suspend, avoid suspending this "
	 "host; update the kernel and linux-firmware (GuC/HuC) together, or revert the update after "
	 "which it began",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 2}},
	 "drivers/gpu/drm/i915/gt/intel_gt_pm.c (earlier i915_gem.c, intel_gt.c) "
	 "wait_for_suspend()/switch_to_kernel_context_sync(): drm_err(&i915->drm, \"Failed to idle "
	 "engines, declaring wedged!\\n\") before intel_gt_set_wedged() (5.x: DRM_ERROR, no address; "
	 "6.x: gt_err with \"GT%u: \")"},
	/* the reset itself did not finish in time: i915 gives up and wedges */
	{"i915-reset-timed-out",
	 "(i915 (" BDF "): )?(\\[drm\\] )?(\\*ERROR\\* )?(GT[0-9]+: )?([A-Za-z0-9_ ]+) timed out, cancelling all "
	 "in-flight rendering",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the Intel GPU hung and its reset ({step}) did not finish in time: the driver cancelled all "
	 "in-flight rendering and declared the GPU wedged, so rendering, transcoding and compute fail "
	 "in every container holding it until the host is rebooted",
	 "stop what uses the GPU and reboot the host; if it recurs (often after a resume or "
	 "hibernation), update the kernel and linux-firmware (GuC/HuC) together, or revert the "
	 "update after which it began",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 2}, {"step", 6}},
	 "drivers/gpu/drm/i915/gt/intel_reset.c intel_wedge_me(): gt_err(w->gt, \"%s timed out, "
	 "cancelling all in-flight rendering.\\n\", w->name) (the watchdog of intel_gt_reset_global(), "
	 "named by __func__; 5.x: dev_err() or drm_err() without the GT prefix; 4.19 i915_reset.c "
	 "i915_wedge_me(): dev_err(w->i915->drm.dev, \"%s timed out, cancelling all in-flight "
	 "rendering.\\n\", w->name)), then intel_gt_set_wedged()"},
	{"i915-hangcheck-old",
	 "(\\[drm:[a-z0-9_]+ \\[i915\\]\\] \\*ERROR\\* )?Hangcheck timer elapsed\\.\\.\\. ([a-z0-9 ]+ "
	 "ring|GPU) (idle|hung)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU hung ({engine} {state}; a kernel of the 3.x-4.x series): the driver resets "
	 "it and the programs running on it lose their contexts",
	 "restart the programs; if it recurs, a current kernel (its i915 reports hangs with the "
	 "program's name) and the media driver in the container (intel-media-va-driver) of the "
	 "same age",
	 LX_KMSG_SOLE_INTEL, {{"engine", 2}, {"state", 3}},
	 "drivers/gpu/drm/i915/i915_irq.c (3.x-4.x) i915_hangcheck_elapsed(): DRM_ERROR(\"Hangcheck "
	 "timer elapsed... %s idle\\n\", ring->name) and \"Hangcheck timer elapsed... GPU "
	 "hung\\n\" (3.x), then i915_handle_error()'s \"GPU HANG\" report"},
	{"i915-guc-ct-failed",
	 "(i915 (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] )?(\\*ERROR\\* )?(GT[0-9]+( \\[[A-Z ]+\\])?:? )?"
	 "(GUC: )?(CT: (No response for request|[Ss]end(ing)? action (0[xX])?[0-9a-fA-F]+ failed|[Uu]nsolicited "
	 "response|[Cc]orrupted (descriptor|message|response)|Failed to process (CT message|request)|Communication stalled "
	 "for|Unexpected G2H after GuC has stopped|Failed to handle HXG message|(Head|Tail) was "
	 "modified|Invalid (head|tail) offset|[Ii]ncomplete message|[Rr]esponse [0-9]+ too long|unexpected request|dropping "
	 "request)|[Tt][Ll][Bb] invalidation response timed out)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU's GuC (the firmware that schedules its engines) did not answer the driver "
	 "over its command channel ({what}): jobs on the GPU stall, the driver resets the GuC or "
	 "the GPU, and programs using it (in every container holding it) lose their work",
	 "restart the programs using the GPU; if it recurs, install the linux-firmware of the "
	 "kernel's release (its i915/*_guc_*.bin must suit the kernel) or revert the kernel or "
	 "firmware update after which it began; update-initramfs -u and reboot",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 2}, {"what", 10}, {"what", 9}},
	 "drivers/gpu/drm/i915/gt/uc/intel_guc_ct.c ct_send(): CT_ERROR(ct, \"No response for "
	 "request %#x (fence %u)\\n\") with the prefix GT%u: GUC: CT: (5.x: DRM_ERROR, no "
	 "address; Intel's backports: GT%u [GUC COMMUNICATION] CT:); intel_guc.c / intel_tlb.c "
	 "(6.5 and later, GuC TLB invalidation): gt_err(gt, \"TLB invalidation response timed out "
	 "for seqno %u\\n\") (backports: \"tlb invalidation response timed out for seqno %u\\n\"); "
	 "4.16-5.x intel_guc_ct.c: DRM_ERROR(\"CT: send action %#X failed; err=%d status=%#X\\n\") after "
	 "\"CT: fence %u err %d\\n\", also \"CT: unsolicited response %*ph\\n\", \"CT: incomplete message "
	 "%*ph %*ph %*ph\\n\", \"CT: response %u too long %*ph\\n\", \"CT: corrupted response %*ph\\n\", "
	 "\"CT: corrupted message detected!\\n\", \"CT: unexpected request %x %*ph\\n\", \"CT: dropping "
	 "request %*ph\\n\"; later intel_guc_ct_send(): \"Sending action %#x failed (%pe) "
	 "status=%#X\\n\"; ct_handle_response(): \"Unsolicited response message: len %u, data %#x (fence "
	 "%u, last %u)\\n\" (older: \"Unsolicited response (fence %u)\\n\"), ct_read(): \"Corrupted "
	 "descriptor head=%u tail=%u status=%#x\\n\", ct_handle_msg(): \"Failed to process CT "
	 "message (%pe) %*ph\\n\", ct_write()/ct_read(): \"Communication stalled for %lld ms, desc "
	 "status=%#x,%#x\\n\", \"Head was modified %u != %u\\n\", \"Invalid tail offset %u >= %u)\\n\", "
	 "\"Unexpected G2H after GuC has stopped!\\n\""},
	{"xe-guc-no-response",
	 "xe (" BDF "): .*(Timed out wait for G2H|Schedule disable failed to respond|Kernel-submitted job "
	 "timed out|GuC mmio request (0x[0-9a-fA-F]+): no reply|Schedule enable failed to "
	 "respond|Pending enable/disable failed to respond|Suspend fence, guc_id=[0-9]+, failed to "
	 "respond|VM job timed out on non-killed execqueue)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU's GuC (the firmware that schedules its engines, xe) did not answer the "
	 "driver ({what}): jobs on the GPU stall, the driver resets the GT, and programs using it (in "
	 "every container holding it) lose their work",
	 "restart the programs using the GPU; if it recurs, install the linux-firmware of the "
	 "kernel's release (its xe/ and i915/ GuC files must suit the kernel) or revert the kernel "
	 "or firmware update after which it began; update-initramfs -u and reboot",
	 0, {{"gpu", 1}, {"what", 2}},
	 "drivers/gpu/drm/xe/xe_guc_ct.c guc_ct_send_recv(): xe_gt_err(gt, \"Timed out wait for "
	 "G2H, fence %u, action %04x, done %s\", ...) (first kernels: drm_err(\"Timed out wait for "
	 "G2H, fence %u, action %04x\")); xe_guc_submit.c: xe_gt_warn(q->gt, \"Schedule disable "
	 "failed to respond, guc_id=%d\", ...) and guc_exec_queue_timedout_job(): \"Kernel-submitted "
	 "job timed out\\n\"; xe_guc.c xe_guc_mmio_send_recv(): \"GuC mmio request %#x: no reply "
	 "%#x\\n\"; xe_guc_submit.c: \"Schedule enable failed to respond\", "
	 "\"Pending enable/disable failed to respond\\n\", \"Suspend fence, guc_id=%d, failed to "
	 "respond\", \"VM job timed out on non-killed execqueue\\n\""},
	{"intel-guc-engine-reset-failed",
	 "(i915|xe) (" BDF "): (.*[] :])?(([Ee]ngine reset (request )?failed on ([0-9]+:[0-9]+))|(([a-z]+[0-9]+) "
	 "reset request timed out))",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "an engine of the Intel GPU hung and its reset failed (engine {engine}): the "
	 "driver resets the whole GT, and every program on the GPU (in every container holding it) "
	 "loses its work; a failed GT reset then wedges the GPU",
	 "restart the programs using the GPU; if it recurs, update the kernel and linux-firmware "
	 "(the GuC file) together, or revert the update after which it began",
	 0, {{"gpu", 2}, {"engine", 7}, {"engine", 9}, {"driver", 1}},
	 "drivers/gpu/drm/i915/gt/uc/intel_guc_submission.c "
	 "intel_guc_engine_failure_process_msg(): drm_err(&gt->i915->drm, \"GuC engine reset request "
	 "failed on %d:%d (%s) because 0x%08X\") (5.16-6.2; later guc_err(guc, \"notification: Engine "
	 "reset request failed on %d:%d (%s) because 0x%08X\\n\")); intel_reset.c "
	 "gen8_engine_reset_prepare(): \"%s reset request timed out: {request: %08x, RESET_CTL: "
	 "%08x}\\n\"; "
	 "drivers/gpu/drm/xe/xe_guc_submit.c xe_guc_exec_queue_reset_failure_handler(): "
	 "xe_gt_err(gt, \"GuC engine reset request failed on %d:%d because 0x%08X\", ...)"},
	{"intel-guc-mmio-failed",
	 "((i915|xe) (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] )?(\\*ERROR\\* )?"
	 "(Tile[0-9]+: )?(GT[0-9]+: )?(GUC: |GuC )?(mmio request (0x[0-9a-fA-F]+): (failure|no reply|"
	 "unexpected reply)|MMIO: GuC action (0x[0-9a-fA-F]+) failed with error|INTEL_GUC_SEND: Action "
	 "(0x[0-9a-fA-F]+) failed; (ret=-?[0-9]+))",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's GuC refused or did not answer the driver's request {request} ({answer}): at "
	 "boot the step it belongs to fails (the hardware configuration table: user space that "
	 "needs it, Mesa and the compute runtime on DG2 and later, cannot use the GPU; with GuC "
	 "submission the GPU may be wedged), so transcoding and compute in containers holding it "
	 "may fail",
	 "install the linux-firmware of the kernel's release (a GuC file of another version than "
	 "the kernel expects answers requests it does not know) or revert the kernel or firmware "
	 "update after which it began; update-initramfs -u and reboot",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"request", 11}, {"answer", 12}, {"request", 13}, {"driver", 2},
	 {"request", 14}, {"answer", 15}},
	 "drivers/gpu/drm/i915/gt/uc/intel_guc.c intel_guc_send_mmio(): guc_err(guc, \"mmio "
	 "request %#x: failure %x/%u\\n\", ...), \"mmio request %#x: no reply %x\\n\" (6.x with the GT%u: "
	 "GUC: prefix; 5.13-6.2 drm_err without it; 5.4-5.12 DRM_ERROR(\"MMIO: GuC action %#x failed with "
	 "error %d %#x\\n\"), no address; 4.x DRM_WARN(\"INTEL_GUC_SEND: Action 0x%X failed; ret=%d "
	 "status=0x%08X response=0x%08X\\n\")), also \"mmio request %#x: unexpected reply %#x\\n\"; "
	 "drivers/gpu/drm/xe/xe_guc.c xe_guc_mmio_send_recv(): \"GuC mmio request %#x: failure %#x "
	 "hint %#x\\n\" (first kernels: drm_err(\"mmio request %#x: failure %x/%u\\n\"))"},
	{"intel-hwconfig-failed",
	 "(i915|xe) (" BDF "): .*Failed to retrieve hwconfig table: (-?[A-Za-z0-9]+)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's GuC did not give the driver the hardware configuration table ({error}): "
	 "the driver goes on, but user space that needs the table (Mesa, the media driver and the "
	 "compute runtime on DG2, Meteor Lake and later) cannot use the GPU, in every container "
	 "holding it",
	 "install the linux-firmware of the kernel's release (its i915/*_guc_*.bin; the GuC line "
	 "before it says what the GuC answered) or revert the kernel or firmware update after which "
	 "it began; update-initramfs -u and reboot",
	 LX_KMSG_RESTATES, {{"gpu", 2}, {"error", 3}, {"driver", 1}},
	 "drivers/gpu/drm/i915/gt/intel_gt.c intel_gt_init(): gt_err(gt, \"Failed to retrieve "
	 "hwconfig table: %pe\\n\", ERR_PTR(err)) (\"Table failure is bad but not currently fatal\"; "
	 "6.0-6.2: drm_err, first version drm_notice in intel_uc.c)"},
	{"intel-huc-auth-failed",
	 "((i915|xe) (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] )?(\\*ERROR\\* )?"
	 "(Tile[0-9]+: )?(GT[0-9]+: )?HuC: ([a-z ]*[Aa]uthentication( via [A-Za-z]+)? failed|[Ff]irmware "
	 "not verified)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's HuC (the media firmware) was not authenticated ({what}): the media driver "
	 "cannot use it, so low-power (VDEnc) H.264/HEVC encoding with bitrate control, which "
	 "Jellyfin, Plex and Frigate use through QSV and VA-API, fails in every container holding "
	 "the GPU; decoding and rendering still work",
	 "install the linux-firmware of the kernel's release (its i915/*_huc*.bin and GuC files, "
	 "which authenticate each other), or revert the firmware or kernel update after which it "
	 "began; update-initramfs -u and reboot. On Meteor Lake and later the GSC firmware and "
	 "the mei_gsc_proxy module must be there too",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"what", 9}, {"driver", 2}},
	 "drivers/gpu/drm/i915/gt/uc/intel_huc.c intel_huc_auth(): huc_probe_error(huc, \"%s "
	 "authentication failed %pe\\n\", auth_mode_string(...)) (\"clear media\", \"all "
	 "workloads\"; 5.x: i915_probe_error(\"HuC: Authentication failed %d\\n\"); 4.x: "
	 "DRM_ERROR(\"HuC: Firmware not verified %#x\\n\"), no address); xe: xe_huc.c "
	 "xe_huc_auth(): xe_gt_err(gt, \"HuC: authentication via %s failed: %pe\\n\", ...), \"HuC: "
	 "firmware not verified: %pe\\n\""},
	/* 6.2-6.3 said the HuC's init failure without the "HuC: " prefix
	 * (drm_info), and on DG2 without the ME's GSC and PXP drivers built
	 * in the kernel why: group 17, the first "what" (a finding keeps its
	 * first line's) */
	{"intel-huc-load-failed",
	 INTEL_GT_PREFIX "(HuC: (initialization failed|auth failed with GSC error|failed to (submit GSC request "
	 "to auth|trigger auth)|invalid GSC reply for auth|HW requires a GSC-enabled blob|HW in DMA mode, "
	 "but we have an incompatible GSC-enabled blob|timed out waiting for MEI (GSC|PXP)|GuC did not "
	 "ack Auth request|[Cc]an't load due to missing MEI modules)|(HuC init failed with -?[0-9]+|Can't "
	 "load HuC due to missing MEI modules))",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's HuC (the media firmware) did not start or could not be authenticated "
	 "({what}): the media driver cannot use it, so low-power (VDEnc) H.264/HEVC encoding with "
	 "bitrate control, which Jellyfin, Plex and Frigate use through QSV and VA-API, fails in "
	 "every container holding the GPU; decoding and rendering still work",
	 "install the linux-firmware of the kernel's release (its HuC and GuC files, and on DG2 and "
	 "later the GSC file); for \"timed out waiting for MEI\" load the ME's modules (mei_gsc, "
	 "mei_pxp, mei_me) in the initramfs; for \"missing MEI modules\" boot a kernel built with "
	 "CONFIG_INTEL_MEI_GSC and CONFIG_INTEL_MEI_PXP (Proxmox's and the distributions' kernels "
	 "are); update-initramfs -u and reboot",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"what", 17}, {"what", 14}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/xe/xe_huc.c xe_huc_init(): xe_gt_err(gt, \"HuC: initialization failed: "
	 "%pe\\n\"); drivers/gpu/drm/i915/gt/uc/intel_huc_fw.c (DG2, authentication through the GSC): "
	 "huc_err(huc, \"auth failed with GSC error = 0x%x\\n\"); drivers/gpu/drm/i915/gt/uc/intel_huc.c "
	 "(6.2-6.3) check_huc_loading_mode(): drm_info(\"Can't load HuC due to missing MEI modules\\n\") "
	 "(-EIO: a DG2 HuC loads through the GSC, and the kernel lacks CONFIG_INTEL_MEI_PXP or "
	 "CONFIG_INTEL_MEI_GSC), then intel_huc_init()'s drm_info(\"HuC init failed with %d\\n\", err); "
	 "6.4 and later huc_info(huc, \"initialization failed %pe\\n\") and \"can't load due to missing "
	 "MEI modules\\n\" with the \"HuC: \" prefix; intel_huc_fw.c \"failed to submit GSC request to "
	 "auth: %d\\n\"; intel_huc.c: huc_notice(huc, \"timed out waiting for MEI GSC\\n\") (the ME's "
	 "mei_gsc driver never bound), huc_err(huc, \"HW requires a GSC-enabled blob, but we found a "
	 "legacy one\\n\"); xe_huc.c: \"HuC: failed to trigger auth via %s: %pe\\n\"; 4.x intel_huc.c: "
	 "DRM_ERROR(\"HuC: GuC did not ack Auth request %d\\n\")"},
	{"intel-uc-upload-failed",
	 "(i915|xe) (" BDF "): .*Failed to load (GuC|HuC|GSC) firmware ((i915|xe)/[^ ]+)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the driver could not start the Intel GPU's {uc} firmware {file} (the file was read, its "
	 "transfer to the GPU or its start failed): without the HuC, low-power encoding (QSV, "
	 "VA-API) fails; without the GuC, the GuC initialization failure that follows wedges the "
	 "GPU; in every container holding it",
	 "install the linux-firmware of the kernel's release or revert the firmware or kernel "
	 "update after which it began; update-initramfs -u and reboot; if it persists, power the "
	 "host off and on",
	 0, {{"file", 4}, {"gpu", 2}, {"uc", 3}, {"driver", 1}},
	 "drivers/gpu/drm/i915/gt/uc/intel_uc_fw.c intel_uc_fw_upload(): i915_probe_error(\"Failed "
	 "to load %s firmware %s (%d)\\n\", intel_uc_fw_type_repr(type), path, err) (6.x: "
	 "gt_probe_error(gt, \"Failed to load %s firmware %s %pe\\n\")); xe_uc_fw.c "
	 "uc_fw_xfer/xe_uc_fw_upload(): \"Failed to load %s firmware %s (%pe)\\n\""},
	{"intel-uc-version-mismatch",
	 "(i915|xe) (" BDF "): .*(GuC|HuC|GSC) firmware ((i915|xe)/[^ :]+): unexpected version: "
	 "([0-9]+\\.[0-9]+(\\.[0-9]+)?) != ([0-9]+\\.[0-9]+(\\.[0-9]+)?)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's {uc} firmware file {file} is version {found}, and this kernel needs "
	 "{wanted}: the driver refuses it (-ENOEXEC), so the {uc} does not start (HuC: no "
	 "low-power encoding; GuC: the GPU is wedged or runs without it), in every container "
	 "holding the GPU",
	 "install the linux-firmware of the kernel's release (a file of the version the kernel "
	 "asks for), and drop any i915.guc_firmware_path=/huc_firmware_path= or a hand-copied "
	 "file under /lib/firmware/i915 (or xe/); update-initramfs -u and reboot",
	 0, {{"file", 4}, {"gpu", 2}, {"uc", 3}, {"found", 6}, {"wanted", 8}, {"driver", 1}},
	 "drivers/gpu/drm/i915/gt/uc/intel_uc_fw.c intel_uc_fw_fetch(): gt_notice(gt, \"%s "
	 "firmware %s: unexpected version: %u.%u != %u.%u\\n\", ...) then err = -ENOEXEC (5.x: "
	 "drm_notice/dev_notice with the same text); xe_uc_fw.c uc_fw_check_version_requirements(): "
	 "drm_notice(\"%s firmware %s: unexpected version: %u.%u.%u != %u.%u.%u\\n\") (xe's first "
	 "kernels: %u.%u)"},
	{"i915-dmc-parse-failed",
	 "(i915|xe) (" BDF "): (\\[drm\\] )?Failed to parse DMC firmware ((i915|xe)/[^ ]+\\.bin) "
	 "\\((-?[A-Za-z0-9]+)\\)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's display microcontroller firmware {file} is there but the driver could not "
	 "read it ({error}: a damaged or truncated file, or one of a layout this kernel does not "
	 "know): it runs the GPU without runtime power management (it stays powered; display power "
	 "saving is off); rendering and transcoding in containers are not affected",
	 "reinstall the linux-firmware package (Proxmox: pve-firmware), or install the one of the "
	 "kernel's release; remove a hand-copied {file}; update-initramfs -u and reboot",
	 0, {{"file", 4}, {"gpu", 2}, {"driver", 1}, {"error", 6}},
	 "drivers/gpu/drm/i915/display/intel_dmc.c dmc_load_work_fn(): drm_notice(display->drm, "
	 "\"Failed to parse DMC firmware %s (%pe). Disabling runtime power management.\\n\", "
	 "dmc->fw_path, ERR_PTR(err)) (6.7 and later; before, a file that did not parse gave "
	 "\"Failed to load DMC firmware %s. Disabling runtime power management.\\n\")"},
	{"intel-dmc-lost",
	 "((i915|xe) (" BDF "): )?(\\[drm\\] )?(DMC|CSR) ([0-9]+ )?(program storage start (is NULL|"
	 "incorrect)|mmio\\[[0-9]+\\]/0x[0-9a-fA-F]+ incorrect|SSP Base Not fine|HTP Not fine|not "
	 "initialized)",
	 LXG155_INTEL_DMC_LOST, LX_SEVERITY_WARNING,
	 "the driver's check of the Intel GPU's display microcontroller (DMC) failed ({check}): the "
	 "DMC's program or registers are not what the driver loaded (lost over a power state, "
	 "overwritten, or never loaded: a DMC file that does not suit the kernel, an out-of-tree "
	 "i915/xe such as i915-sriov-dkms, a GPU behind an unusual PCIe host): display power "
	 "states (DC5/DC6) misbehave, the display may flicker or go dark and the GPU may not "
	 "runtime-suspend; transcoding and compute in containers are not affected by it",
	 "install the linux-firmware of the kernel's release (its i915/*_dmc*.bin) and the kernel's "
	 "own i915/xe (an out-of-tree module of another kernel version: rebuild or remove it); "
	 "update-initramfs -u and reboot; on a headless host i915.enable_dc=0 (or xe's "
	 "enable_dc=0) keeps the display out of the DC states",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"check", 7}, {"driver", 2}},
	 "drivers/gpu/drm/i915/display/intel_dmc.c assert_dmc_loaded() (built into xe too), a "
	 "drm_WARN with the device prefix: 5.x-6.14 drm_WARN_ONCE(..., \"DMC program storage start "
	 "is NULL\\n\"); 4.x-5.x intel_csr.c/intel_runtime_pm.c assert_csr_loaded(), no address: "
	 "WARN_ONCE(..., \"CSR SSP Base Not fine\\n\"); 6.15 and later drm_WARN(display->drm, found != "
	 "expected, \"DMC %d mmio[%d]/0x%x incorrect (expected 0x%x, current 0x%x)\\n\") and \"DMC %d "
	 "program storage start incorrect (expected 0x%x, current 0x%x)\\n\"; the other checks of "
	 "5.x-6.14: \"DMC SSP Base Not fine\\n\", \"DMC HTP Not fine\\n\", \"DMC not "
	 "initialized\\n\" (4.x: \"CSR program storage start is NULL\\n\", \"CSR HTP Not fine\\n\")"},
	{"intel-lmem-not-initialized",
	 "(i915|xe) (" BDF "): .*(LMEM|VRAM) not initialized by firmware",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the discrete Intel GPU's own firmware did not bring up its local memory ({memory}), so "
	 "the {driver} driver gives the card up (-ENODEV): /dev/dri has no node for it and no "
	 "container holding it can render, transcode or compute; seen after a virtual machine "
	 "that had the card was stopped without a reset, or on a platform whose firmware did not "
	 "initialize the card",
	 "reset the card with a secondary bus reset (echo bus > /sys/bus/pci/devices/ADDRESS/"
	 "reset_method, then echo 1 > .../reset; Arc cards ignore a function-level reset) or power "
	 "the host off and on; for a card a VM gets, do the bus reset before the VM starts (a "
	 "hookscript); if it recurs at every boot, update the system firmware and check the card's "
	 "power and seating",
	 0, {{"gpu", 2}, {"memory", 3}, {"driver", 1}},
	 "drivers/gpu/drm/i915/intel_uncore.c intel_uncore_init_mmio(): drm_err(&i915->drm, \"LMEM "
	 "not initialized by firmware\\n\") (6.x: gt_err) and returns -ENODEV, then "
	 "i915_driver_probe()'s \"Device initialization failed (-19)\"; drivers/gpu/drm/xe/xe_mmio.c "
	 "(later xe_device.c) xe_mmio_probe_vram()/wait_for_lmem_ready(): drm_err(&xe->drm, \"LMEM not "
	 "initialized by firmware\\n\")"},
	{"intel-region-setup-failed",
	 "(i915 (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] )?(\\*ERROR\\* )?(GT[0-9]+: )?Failed to setup "
	 "region\\((-?[0-9]+)\\) type=([0-9]+)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the i915 driver could not set up a memory region of the Intel GPU (error {error}, type "
	 "{type}: 0 system memory, 1 the card's local memory, 2 and 3 stolen memory): it gives the GPU up, "
	 "/dev/dri has no node for it and no container holding it can render, transcode or compute; "
	 "for an Arc card's local memory the usual cause is a BAR the platform could not map "
	 "(Resizable BAR or Above 4G Decoding off)",
	 "enable Above 4G Decoding and Resizable BAR in the system firmware (or give the card a slot "
	 "whose root port can map its BAR); then reboot. If it persists, update the kernel",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 2}, {"error", 7}, {"type", 8}},
	 "drivers/gpu/drm/i915/intel_memory_region.c intel_memory_regions_hw_probe(): "
	 "drm_err(&i915->drm, \"Failed to setup region(%d) type=%d\\n\", err, type) (5.4-5.6: "
	 "DRM_ERROR, no address); gt/intel_gt.c intel_gt_probe_lmem(): gt_err(gt, \"Failed to setup "
	 "region(%d) type=%d\\n\", err, INTEL_MEMORY_LOCAL)"},
	{"xe-gt-init-job-failed",
	 "xe (" BDF "): .*hwe ([a-z]+[0-9]+): (emit_wa_job|emit_nop_job|nop emit_nop_job|"
	 "xe_exec_queue_create|nop xe_exec_queue_create|xe_engine_create|nop xe_engine_create) failed "
	 "\\((-?[A-Za-z0-9]+)\\)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU's engine {engine} did not run the driver's first job at init ({step}: "
	 "{error}; -ETIME: the engine or its GuC did not answer): the xe driver gives the GPU up, "
	 "/dev/dri has no node for it and no container holding it can render, transcode or compute",
	 "install the linux-firmware of the kernel's release (its xe/ and i915/ GuC files) or "
	 "revert the kernel or firmware update after which it began; an out-of-tree xe (SR-IOV "
	 "builds) must match the running kernel; update-initramfs -u and reboot",
	 0, {{"gpu", 1}, {"engine", 2}, {"step", 3}, {"error", 4}},
	 "drivers/gpu/drm/xe/xe_gt.c all_fw_domain_init()/xe_gt_record_default_lrcs(): "
	 "xe_gt_err(gt, \"hwe %s: emit_wa_job failed (%pe) guc_id=%u\\n\", ...), and the steps "
	 "around it: \"hwe %s: xe_exec_queue_create failed (%pe)\\n\", \"hwe %s: nop "
	 "emit_nop_job failed (%pe) guc_id=%u\\n\" (first kernels: xe_engine_create)"},
	{"intel-sriov-enable-failed",
	 "(i915|xe) (" BDF "): .*Failed to enable ([0-9]+) VFs?,? \\((error )?(-?[A-Za-z0-9]+)\\)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's SR-IOV virtual functions were not created ({count} asked, {error}): the GPU "
	 "itself goes on, but the containers or virtual machines meant to get a VF get no GPU",
	 "check what the VFs need: the GuC firmware in SR-IOV mode (i915.enable_guc=3 with "
	 "i915-sriov-dkms, or xe's PF mode), SR-IOV and VT-d on in the system firmware, an "
	 "out-of-tree module built for the running kernel, and fewer VFs than max_vfs; then write "
	 "the count to /sys/bus/pci/devices/ADDRESS/sriov_numvfs again",
	 0, {{"gpu", 2}, {"count", 3}, {"error", 5}, {"driver", 1}},
	 "drivers/gpu/drm/xe/xe_pci_sriov.c pf_enable_vfs(): xe_sriov_notice(xe, \"Failed to enable "
	 "%u VF%s (%pe)\\n\", ...) (with xe_sriov's \"PF: \" prefix); i915 SR-IOV (Intel's "
	 "backports, i915-sriov-dkms) i915_sriov_pf_enable_vfs(): drm_err(&i915->drm, \"Failed to "
	 "enable %u VFs (%pe)\\n\"), the first versions IOV_ERROR(iov, \"Failed to enable %u VFs, (error "
	 "%d)\\n\")"},
	{"intel-device-init-failed",
	 "(i915|xe) (" BDF "): .*Device initialization failed \\((-?[0-9A-Za-z]+)\\)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the i915 driver gave the Intel GPU up ({error}): /dev/dri has no node for it, so no "
	 "container holding it can render, transcode or compute",
	 "see the message before it about the same GPU (firmware, a GT that did not answer); "
	 "install the linux-firmware of the kernel's release or revert the update after which it "
	 "began; update-initramfs -u and reboot",
	 LX_KMSG_NEEDS_CAUSE, {{"gpu", 2}, {"error", 3}, {"driver", 1}},
	 "drivers/gpu/drm/i915/i915_driver.c (earlier i915_drv.c) i915_driver_probe(): "
	 "i915_probe_error(i915, \"Device initialization failed (%d)\\n\", ret), printed with the "
	 "device's address (drm_err, or dev_err with \"[drm:i915_driver_probe [i915]] *ERROR* \")"},
	{"intel-probe-failed",
	 "(i915|xe) (" BDF "): probe with driver (i915|xe) failed( with error (-?[0-9]+)|$)|(i915|xe): "
	 "probe of (" BDF ") failed( with error (-?[0-9]+)|$)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the {driver} driver could not take the Intel GPU (its probe failed with error {error}): "
	 "/dev/dri has no node for it, so no container holding it can render, transcode or compute",
	 "see the message before it about the same GPU (firmware, a GT that did not answer, memory "
	 "it could not map); install the linux-firmware of the kernel's release or revert the "
	 "update after which it began; update-initramfs -u and reboot",
	 LX_KMSG_NEEDS_CAUSE, {{"gpu", 2}, {"error", 5}, {"driver", 3}, {"driver", 6}, {"gpu", 7},
	 {"error", 9}},
	 "the kernel's driver core, drivers/base/dd.c really_probe()/call_driver_probe(): "
	 "dev_err(dev, \"probe with driver %s failed with error %d\\n\") (before 5.x: "
	 "pr_warn(\"%s: probe of %s failed with error %d\\n\")), after i915_pci_probe() or "
	 "xe_pci_probe() failed (not for -ENODEV, which they return for a GPU they do not take)"},
	{"intel-not-supported",
	 "(i915|xe) (" BDF "): Your graphics device ([0-9a-fA-F]{4}) is not (properly|officially) "
	 "supported",
	 LXG157_INTEL_NOT_SUPPORTED, LX_SEVERITY_ERROR,
	 "the {driver} driver of this kernel does not support the Intel GPU (device ID {device}) "
	 "without force_probe and did not take it, and the log shows no other Intel driver taking "
	 "it: /dev/dri has no node for it, so containers get no GPU (no transcoding, no compute)",
	 "boot a kernel whose i915 or xe supports the GPU (Proxmox: the opt-in proxmox-kernel of "
	 "the latest series; Arc A-series (DG2): i915 of 6.2 or later; Meteor Lake: 6.7; Lunar "
	 "Lake: xe of 6.11; Arc B-series (Battlemage): xe of 6.12), or force it at your own risk: "
	 "{driver}.force_probe={device} on the kernel command line (for xe also "
	 "i915.force_probe=!{device}), then reboot",
	 LX_KMSG_UNLESS_DRIVEN, {{"device", 3}, {"gpu", 2}, {"driver", 1}},
	 "drivers/gpu/drm/i915/i915_pci.c i915_pci_probe(): dev_info(&pdev->dev, \"Your graphics "
	 "device %04x is not properly supported by i915 in this\\n\" \"kernel version. To force "
	 "driver probe anyway, use i915.force_probe=%04x\\n\" ...) (5.x: \"Your graphics device %04x is "
	 "not properly supported by the driver in this\\n\"), returning -ENODEV; "
	 "drivers/gpu/drm/xe/xe_pci.c xe_pci_probe(): dev_info(&pdev->dev, \"Your graphics device %04x "
	 "is not officially supported\\n\" \"by xe driver in this kernel version. To force Xe "
	 "probe,\\n\" ...) (no finding when the log shows the other driver taking the GPU: xe says it "
	 "on every GPU i915 drives)"},
	{"intel-probe-blocked",
	 "(i915|xe) (" BDF "): (I915 probe blocked for Device ID ([0-9a-fA-F]{4})|Probe blocked for "
	 "device \\[[0-9a-fA-F]{4}:([0-9a-fA-F]{4})\\])",
	 LXG157_INTEL_NOT_SUPPORTED, LX_SEVERITY_ERROR,
	 "the {driver} driver was told not to take the Intel GPU (device ID {device}: "
	 "{driver}.force_probe=!{device}), and the log shows no other Intel driver taking it: "
	 "/dev/dri has no node for it, so containers get no GPU",
	 "drop {driver}.force_probe=!{device} from the kernel command line or /etc/modprobe.d, or "
	 "make the other driver take it (xe.force_probe={device} with i915.force_probe=!{device}); "
	 "update-initramfs -u and reboot",
	 LX_KMSG_UNLESS_DRIVEN, {{"device", 4}, {"gpu", 2}, {"driver", 1}, {"device", 5}},
	 "drivers/gpu/drm/i915/i915_pci.c i915_pci_probe(): dev_info(&pdev->dev, \"I915 probe "
	 "blocked for Device ID %04x.\\n\") when i915.force_probe names it with '!'; "
	 "drivers/gpu/drm/xe/xe_pci.c xe_pci_probe(): dev_info(&pdev->dev, \"Probe blocked for "
	 "device [%04x:%04x].\\n\", vendor, device)"},
	/* Intel's GT and firmware (issue 31, intelgt): the GuC crashing, a
	 * program's context faulting, reset steps that fail, init steps of
	 * the GuC, HuC, GSC and PCODE, SR-IOV handshakes, power transitions. */
	{"intel-guc-crashed",
	 INTEL_GT_PREFIX "((GUC: )?(CT: )?Received (early )?(GuC )?(crash dump|exception) notification|"
	 "(GUC: |GuC )([Cc]rash dump|[Ee]xception) notification|(GUC: )?Unknown (GuC )?crash notification)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU's GuC (the firmware that schedules its engines) crashed ({what}): the "
	 "driver resets the GT, and every program on the GPU (in every container holding it) loses "
	 "its work; a reset that fails then wedges the GPU",
	 FIX_INTEL_GUC,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"what", 13}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/uc/intel_guc.c intel_guc_to_host_process_recv_msg(): guc_err(guc, "
	 "\"Crash dump notification\\n\"), \"Exception notification\\n\", \"Unknown crash "
	 "notification: 0x%04X\\n\" and, before the CT is up, \"Received early crash dump "
	 "notification!\\n\" (\"GT%u: GUC: \"; 5.x-6.1: intel_guc_ct.c CT_ERROR(ct, \"Received GuC "
	 "crash dump notification!\\n\")); drivers/gpu/drm/xe/xe_guc_ct.c: xe_gt_err(gt, \"GuC Crash "
	 "dump notification\\n\"), \"GuC Exception notification\\n\", \"Unknown GuC crash "
	 "notification: 0x%04X\\n\"; xe_guc.c: \"Received early GuC crash dump notification!\\n\""},
	{"xe-engine-cat-error",
	 "xe (" BDF "): .*(Engine memory (CAT|cat) error( \\[[0-9]+\\])?: (engine_)?class=([a-z]+)|"
	 "Memory CAT error reported by GuC|Fault response: Unsuccessful (-?[A-Za-z0-9]+))",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a program's work on the Intel GPU (xe) accessed GPU memory it has no mapping for (a page "
	 "fault or catastrophic memory error, engine {engine}): the GuC resets that engine and the "
	 "program (in a container: its compute, inference or transcode job) loses its context "
	 "(Level Zero, SYCL: device lost)",
	 "update or report the program (the timed-out job's line names it); run the compute or "
	 "media runtime of the container at a release that supports the GPU; if every program "
	 "faults, update the kernel and linux-firmware together",
	 LX_KMSG_RESTATES, {{"gpu", 1}, {"engine", 6}, {"error", 7}},
	 "drivers/gpu/drm/xe/xe_guc_submit.c xe_guc_exec_queue_memory_cat_error_handler(): "
	 "xe_gt_info(gt, \"Engine memory CAT error [%u]: class=%s, logical_mask: 0x%x, guc_id=%d\", "
	 "...) (first kernels: xe_gt_dbg \"Engine memory cat error: engine_class=%s, ...\"), for an "
	 "unknown context xe_gt_err_ratelimited(gt, \"Memory CAT error reported by GuC!\\n\"); "
	 "xe_gt_pagefault.c (later xe_pagefault.c) pf_queue_work_func(): \"Fault response: "
	 "Unsuccessful %pe\\n\" (xe_gt_info in some releases, else debug)"},
	{"intel-gt-reset-step-failed",
	 INTEL_GT_PREFIX "(GUC: )?(Failed to reset GuC(, ret = (-?[0-9]+)|$)|GuC reset timed out, GDRST=|GuC "
	 "status: (0x)?[0-9a-fA-F]+, MIA core expected to be in reset|Failed to initialise HW "
	 "following reset \\((-?[0-9]+)\\)|failed to clear GRDOM_FULL \\((-?[A-Za-z0-9]+)\\))",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "a step of the Intel GPU's reset failed ({step}): the GuC or the GT did not come back, "
	 "the driver declares the GPU wedged (or, at boot, does not start its GuC), and rendering, "
	 "transcoding and compute fail in every container holding it until the host is rebooted",
	 FIX_INTEL_WEDGED,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"step", 14}, {"error", 16}, {"error", 18}, {"error", 19},
	 {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/uc/intel_uc.c __uc_sanitize(): gt_err(gt, \"Failed to reset GuC, "
	 "ret = %d\\n\") (5.x: DRM_ERROR, no address; xe_uc.c: drm_err with the same text); "
	 "drivers/gpu/drm/xe/xe_guc.c xe_guc_reset(): xe_gt_err(gt, \"GuC reset timed out, "
	 "GDRST=%#x\\n\"), then \"GuC status: %#x, MIA core expected to be in reset\\n\" (i915: the "
	 "same as a gt_WARN); intel_reset.c resume(): gt_err(gt, \"Failed to initialise HW following "
	 "reset (%d)\\n\"); xe_gt.c do_gt_reset(): xe_gt_err(gt, \"failed to clear GRDOM_FULL "
	 "(%pe)\\n\")"},
	{"xe-gt-reset",
	 "xe (" BDF "): (\\[drm\\] )?(Tile[0-9]+: )?GT[0-9]+: (reset (queued|started|done)|(trying) reset from)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU (xe) reset its GT (a hang, a GuC that stopped answering, a job that timed "
	 "out): the programs running on it (in every container holding the GPU) lost their work",
	 FIX_INTEL_HANG,
	 LX_KMSG_RESTATES, {{"gpu", 1}, {"step", 5}, {"step", 6}},
	 "drivers/gpu/drm/xe/xe_gt.c xe_gt_reset_async(): xe_gt_info(gt, \"reset queued\\n\"), "
	 "gt_reset(): xe_gt_info(gt, \"reset started\\n\"), \"reset done\\n\", and before the queueing "
	 "xe_gt_info(gt, \"trying reset from %ps\\n\", ...) (called only from xe_guc_submit.c's and "
	 "xe_guc_ct.c's failure paths, and debugfs)"},
	{"xe-guc-ct-broken",
	 "xe (" BDF "): .*(G2H channel broken on read|No forward process on H2G|CTB receive failed|CT dequeue "
	 "failed|H2G action (0x)?[0-9a-fA-F]+ reached retry limit|H2G request (0x)?[0-9a-fA-F]+ failed|G2H action "
	 "(0x)?[0-9a-fA-F]+ failed|unexpected G2H action|CT (read|write): [a-z]|FAST_REQ H2G fence|"
	 "H2G channel broken on read|CTB is dead)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the command channel between xe and the Intel GPU's GuC broke ({what}): the driver resets "
	 "the GT, and programs using the GPU (in every container holding it) lose their work; if "
	 "the reset fails the GPU is wedged",
	 FIX_INTEL_GUC,
	 0, {{"gpu", 1}, {"what", 2}},
	 "drivers/gpu/drm/xe/xe_guc_ct.c: xe_gt_err(gt, \"G2H channel broken on read, origin=%u, "
	 "reset required\\n\", ...); 6.17 and later ct_fixup_ggtt_in_buffer() (a VF's channel after a "
	 "migration): xe_gt_err(gt, \"H2G channel broken on read, avail=%d, len=%d, fixups "
	 "skipped\\n\"); \"No forward process on H2G, reset required\\n\", \"CTB receive "
	 "failed (%pe)\", \"CT dequeue failed: %d\", and \"H2G action %#x reached retry limit=%u, "
	 "aborting\\n\", \"H2G request %#x failed: error %#x hint %#x\\n\", \"G2H action 0x%04x failed "
	 "(%pe)\\n\", \"CT read: non-zero status: %u\\n\", \"CT write: tail was modified %u != %u\\n\"; "
	 "ct_dead_print(): \"CTB is dead for no reason!?\\n\" (a dead channel whose reason bits are "
	 "clear)"},
	/* the first xe's engine reset, and a job that timed out before it ran */
	{"xe-job-timeout-other",
	 "xe (" BDF "): (\\[drm\\] )?(Tile[0-9]+: )?(GT[0-9]+: )?(Engine reset: guc_id=|Check job timeout: seqno=|Xe "
	 "device coredump has been created)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a job on the Intel GPU (xe) did not finish in time and the GuC reset its engine: the "
	 "program that submitted it (in a container: its transcode or compute job) lost its context",
	 "restart the program; if it recurs, update the kernel and linux-firmware (the xe/ GuC "
	 "file) together, or revert the update after which it began",
	 LX_KMSG_RESTATES, {{"gpu", 1}},
	 "drivers/gpu/drm/xe/xe_guc_submit.c of the first xe (6.8): drm_info(&xe->drm, \"Engine reset: "
	 "guc_id=%d\", guc_id); check_timeout(): xe_gt_warn(gt, \"Check job timeout: seqno=%u, "
	 "lrc_seqno=%u, guc_id=%d, not started\", ...); xe_devcoredump.c xe_devcoredump(): drm_info(&xe->drm, "
	 "\"Xe device coredump has been created\\n\") when a timed-out job, a schedule disable the GuC "
	 "did not answer or a long-running job cleaned up with work left is captured (only "
	 "xe_guc_submit.c's failure paths call it)"},
	/* i915's requests waiting on fences that never signal: its GPU hung */
	{"intel-fence-timeout",
	 "Fence expiration time out i915-(" BDF "):|Asynchronous wait on fence i915:([^ ]*) timed out",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "work on the Intel GPU (i915) did not complete for seconds (a request's fence never "
	 "signalled): the GPU hung, and the programs waiting on it (the display, a transcode or "
	 "compute job in a container) stall until the driver resets it",
	 FIX_INTEL_HANG,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 1}, {"timeline", 2}},
	 "drivers/gpu/drm/i915/gt/intel_gt_requests.c intel_gt_watchdog_work() (earlier "
	 "i915_request.c): pr_notice(\"Fence expiration time out i915-%s:%s:%llx!\\n\", "
	 "dev_name(...), timeline name, seqno); i915_sw_fence.c timer_i915_sw_fence_wake(): "
	 "pr_notice(\"Asynchronous wait on fence %s:%s:%llx timed out (hint:%ps)\\n\", driver "
	 "name, timeline name, seqno, ...)"},
	{"intel-gt-stalled",
	 INTEL_GT_PREFIX "(([a-z]+[0-9]*) TLB invalidation did not complete in [0-9]+ ?ms|TD flush timeout|Global "
	 "invalidation timeout)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU's GT did not answer the driver in time ({what}): it is hung or about to be "
	 "reset, and the programs on it (in every container holding the GPU) stall or lose their "
	 "work",
	 FIX_INTEL_HANG,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"what", 13}, {"engine", 14}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/intel_tlb.c (5.19-6.x; earlier intel_gt.c) "
	 "mmio_invalidate_full(): gt_err_ratelimited(gt, \"%s TLB invalidation did not complete in "
	 "%ums!\\n\", engine->name, ...) (5.x: drm_err without GT%u:); "
	 "drivers/gpu/drm/xe/xe_device.c xe_device_td_flush(): xe_gt_err_once(gt, \"TD flush timeout\\n\"), "
	 "xe_device_l2_flush(): \"Global invalidation timeout\\n\""},
	{"i915-context-reset",
	 "i915 (" BDF "): (\\[drm\\] )?(.*[^ ]) context reset due to GPU hang",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the Intel GPU hung and the driver reset it; the program whose work hung ({context}) lost "
	 "its GPU context (a transcode or compute job in a container fails or restarts)",
	 FIX_INTEL_HANG,
	 LX_KMSG_RESTATES, {{"gpu", 1}, {"context", 3}},
	 "drivers/gpu/drm/i915/gt/intel_reset.c client_mark_guilty() (4.x-5.x i915_gem.c "
	 "i915_gem_context_mark_guilty()): drm_notice(&ctx->i915->drm, \"%s context reset due to "
	 "GPU hang\\n\", ctx->name) (4.x: dev_notice), the context's name \"comm[pid]\""},
	{"intel-uc-init-step-failed",
	 INTEL_GT_PREFIX "(GUC: failed with (-E[A-Z]+)|(GUC: )?(CT: )?(Unsuccessful WOPCM partitioning|WOPCM: "
	 "invalid GuC region|WOPCM: no space for|Failed to init uC WOPCM registers|DMA for (GuC|HuC|GSC) fw "
	 "failed|Failed to enable CTB|Failed to register [A-Z]+ buffer|Failed to control/[a-z]+ "
	 "CTB|register [A-Za-z]+ buffer failed|can't open channel|Unsuccessful self-config|Failed to "
	 "initialize [A-Za-z ]*GT!|Failed to re-initialize GPU\\[[0-9]+\\], declaring it wedged|Failed to "
	 "restart (rcs|bcs|vcs|vecs|ccs)[0-9]+ \\())",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "a step of the Intel GPU's start failed ({step}; at boot or on resume): the GuC is not "
	 "running (its memory region, its transfer or its command channel failed), so i915 declares "
	 "the GPU wedged or gives it up, and rendering, transcoding and compute fail in every "
	 "container holding it",
	 "see the message before it about the same GPU; " FIX_INTEL_GUC "; after a warm reboot "
	 "or kexec (the GuC's memory region stays locked) power the host off and on",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"step", 17}, {"step", 13}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/uc/intel_uc.c uc_init_wopcm(): gt_probe_error(gt, \"Unsuccessful "
	 "WOPCM partitioning\\n\"), \"Failed to init uC WOPCM registers!\\n\"; intel_wopcm.c: "
	 "drm_err(\"WOPCM: invalid GuC region size: %uK < %uK\\n\"); intel_guc_ct.c: CT_PROBE_ERROR(ct, "
	 "\"Failed to enable CTB (%pe)\\n\"), \"Failed to register %s buffer (%pe)\\n\" (4.x-5.x "
	 "DRM_ERROR(\"CT: can't open channel %d; err=%d\\n\"), \"CT: register %s buffer failed; "
	 "err=%d\\n\"); intel_uc_fw.c: gt_err(gt, \"DMA for %s fw failed, DMA_CTRL=%u\\n\"); "
	 "intel_guc.c intel_guc_init(): guc_probe_error(guc, \"failed with %pe\\n\"); intel_gt.c "
	 "intel_gt_probe_all(): i915_probe_error(\"Failed to initialize %s! (%d)\\n\"); "
	 "gem/i915_gem_pm.c: dev_err(\"Failed to re-initialize GPU[%u], declaring it wedged!\\n\"); "
	 "intel_gt_pm.c: gt_err(gt, \"Failed to restart %s (%d)\\n\")"},
	/* intel_gt_init_hw()'s report of the uC failure just logged */
	{"i915-enabling-uc-failed",
	 INTEL_GT_PREFIX "Enabling uc failed( \\((-?[0-9]+)\\)|$)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU's GuC or HuC did not start ({error}): i915 declares the GPU wedged, and "
	 "rendering, transcoding and compute fail in every container holding it",
	 "see the message before it about the same GPU; " FIX_INTEL_GUC,
	 LX_KMSG_SOLE_INTEL | LX_KMSG_RESTATES, {{"gpu", 3}, {"error", 14}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/intel_gt.c intel_gt_init_hw(): gt_probe_error(gt, \"Enabling uc "
	 "failed (%d)\\n\", ret) (5.x: i915_probe_error / DRM_ERROR without the GT prefix) after "
	 "intel_uc_init_hw() failed"},
	{"xe-guc-init-step-failed",
	 "xe (" BDF "): .*(GuC init failed with|Failed to enable GuC CT|DMA for (GuC|HuC|GSC) fw failed) "
	 "?\\(?(-?[A-Za-z0-9]+)?",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "a step of the Intel GPU's GuC start failed ({step}: {error}): xe does not take the GPU (or "
	 "declares it wedged), /dev/dri has no node for it and no container holding it can render, "
	 "transcode or compute",
	 "see the message before it about the same GPU; " FIX_INTEL_GUC,
	 0, {{"gpu", 1}, {"step", 2}, {"error", 4}},
	 "drivers/gpu/drm/xe/xe_guc.c xe_guc_init()/xe_guc_init_post_hwconfig(): xe_gt_err(gt, \"GuC "
	 "init failed with %pe\\n\", ...); xe_guc_ct.c xe_guc_ct_enable(): xe_gt_err(gt, \"Failed to "
	 "enable GuC CT (%pe)\\n\", ...); xe_uc_fw.c uc_fw_xfer(): drm_err(\"DMA for %s fw failed, "
	 "DMA_CTRL=%u\\n\")"},
	{"intel-guc-pm-failed",
	 INTEL_GT_PREFIX "(GUC: (SLPC not enabled|SLPC Reset event returned|Failed to set SLPC|Failed to "
	 "query task state|Failed to set efficient freq|Failed to (enable|disable) RC)|SLPC not "
	 "enabled! State = |GuC PC (Start|reset|query task state) failed|GuC RC enable mode=[0-9]+ "
	 "failed)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's GuC did not start its power and frequency management ({what}): the GPU "
	 "runs at a fixed, often its lowest, frequency without its sleep states, so transcoding "
	 "and compute in containers holding it are slow (and the GPU draws power when idle)",
	 FIX_INTEL_GUC,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"what", 13}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/uc/intel_guc_slpc.c: guc_probe_error(guc, \"SLPC not enabled! "
	 "State = %s\\n\"); drivers/gpu/drm/xe/xe_guc_pc.c: xe_gt_err(gt, \"GuC PC Start failed: "
	 "Dynamic GT frequency control and GT sleep states are now disabled.\\n\"); intel_guc_rc.c: "
	 "guc_probe_error(guc, \"Failed to %s RC (%pe)\\n\"); xe_guc_pc.c: \"GuC PC reset failed: "
	 "%pe\\n\", \"GuC RC enable mode=%u failed: %pe\\n\"; intel_guc_slpc.c: \"SLPC Reset event "
	 "returned: %pe\\n\", \"Failed to set SLPC max to RP0: %pe\\n\", \"Failed to query task "
	 "state: %pe\\n\""},
	{"intel-gsc-failed",
	 INTEL_GT_PREFIX "(GSC init failed( with)? (-?[A-Za-z0-9]+)|Request submission for GSC load "
	 "failed|Failed to wait for GSC load|Failed to emit GSC FW upload|GSC (FW|status) reports "
	 "proxy init not complete|GSC proxy handler failed to init|GSC proxy component (not "
	 "bound|didn't bind within the expected timeout)|Failed to add GSC_PROXY component|GSC ER "
	 "timed out|GSC proxy error: |failed to create GSC CS ctx|Failed to create queue for GSC "
	 "submission|Failed to (send|receive) CSME (proxy )?message|Failed to submit gsc proxy rq|Invalid "
	 "gsc header in proxy reply|Failed to get a proxy reply from gsc|failed to send proxy message to "
	 "(GSC|CSME)|[Ii]nvalid (GSC to CSME|CSME to GSC) proxy header|CSME to GSC proxy msg too "
	 "small|Invalid (CSME|GSC proxy) message size|GSC proxy (worker called|irq received) without "
	 "the component being bound)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's GSC (its security controller, Meteor Lake, Lunar Lake, Arc B-series and "
	 "later) did not start or could not reach the ME ({what}): the HuC is not authenticated, "
	 "so low-power encoding (QSV, VA-API) and protected content fail in every container "
	 "holding the GPU; rendering and decoding still work",
	 "install the linux-firmware of the kernel's release (its GSC file, i915/mtl_gsc_1.bin or "
	 "xe/*_gsc*.bin) and load the ME's proxy modules (mei_gsc_proxy, mei_gsc, mei_me: "
	 "CONFIG_INTEL_MEI_GSC_PROXY); update-initramfs -u and reboot",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"what", 13}, {"error", 15}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/i915/gt/uc/intel_gsc_uc.c: gt_probe_error(gt, \"GSC init failed %pe\\n\"); "
	 "drivers/gpu/drm/xe/xe_gsc_proxy.c: xe_gt_err(gt, \"GSC proxy component not bound!\\n\"), "
	 "proxy_send_to_csme(): \"Failed to send CSME proxy message\\n\", "
	 "\"GSC FW reports proxy init not completed\\n\"; xe_gsc.c: xe_gt_err(gt, \"GSC init failed "
	 "with %d\", ...), \"Failed to wait for GSC load (%pe)\\n\", \"GSC ER timed out!\\n\"; "
	 "intel_gsc_uc.c: gt_err(gt, \"GSC status reports proxy init not complete\\n\"); "
	 "intel_gsc_fw.c: \"Request submission for GSC load failed %pe\\n\"; intel_gsc_proxy.c: \"GSC "
	 "proxy component didn't bind within the expected timeout\\n\"; xe_gsc_proxy.c: \"GSC proxy "
	 "error: s=0x%x[0x%x], ...\"; the messages between the GSC and the ME (CSME) it proxies: "
	 "intel_gsc_proxy.c gt_err(gt, \"Failed to send CSME message\\n\"), \"Failed to receive CSME "
	 "message\\n\", \"Failed to get a proxy reply from gsc\\n\", \"failed to send proxy message to "
	 "GSC! %d\\n\", \"invalid GSC to CSME proxy header! %d\\n\"; xe_gsc_proxy.c xe_gt_err(gt, \"Failed "
	 "to receive CSME proxy message\\n\"), \"Failed to submit gsc proxy rq (%pe)\\n\", \"Invalid gsc "
	 "header in proxy reply (%pe)\\n\", \"CSME to GSC proxy msg too small: 0x%x\\n\""},
	{"intel-uc-fw-invalid",
	 "(i915|xe) (" BDF "): .*(GuC|HuC|GSC) firmware ((i915|xe)/[^ :]+): (invalid size|unexpected header "
	 "size): [0-9]+ [<>!]=? [0-9]+",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's {uc} firmware file {file} is damaged or of a layout this kernel does not "
	 "know ({problem}): the driver refuses it and the {uc} does not start (HuC: no low-power "
	 "encoding; GuC: the GPU is wedged or runs without it), in every container holding the GPU",
	 "reinstall the linux-firmware package (Proxmox: pve-firmware) or install the one of the "
	 "kernel's release; remove a hand-copied {file}; update-initramfs -u and reboot",
	 0, {{"file", 4}, {"gpu", 2}, {"uc", 3}, {"problem", 6}, {"driver", 1}},
	 "drivers/gpu/drm/i915/gt/uc/intel_uc_fw.c check_ccs_header()/check_fw_header(): "
	 "gt_warn(gt, \"%s firmware %s: invalid size: %zu < %zu\\n\", ...), \"%s firmware %s: "
	 "unexpected header size: %zu != %zu\\n\" (5.x: drm_warn), then \"fetch failed\"; "
	 "drivers/gpu/drm/xe/xe_uc_fw.c parse_css_header(): drm_warn(\"%s firmware %s: invalid size: "
	 "%zu < %zu\\n\")"},
	/* the same refusal for the layout inside a GSC-era binary (the HuC of
	 * DG2 and Meteor Lake and later, the GSC), whose lines name no file */
	{"intel-uc-fw-layout-invalid",
	 INTEL_GT_PREFIX "(HuC: )?((GSC )?FW too small( for boot section)?!|GSC FW boot section too small for "
	 "(BPDT header|BPDT entries|CPD offset|CPD header|CPD entries)|invalid signature for BPDT "
	 "header|couldn't find CPD header in GSC binary|invalid marker for CPD header|invalid CPD "
	 "header(/entry version| length)|Failed to find [A-Za-z]+ manifest)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "a GuC, HuC or GSC firmware file of the Intel GPU is damaged or of a layout this kernel "
	 "does not know ({what}): the driver refuses it and that engine does not start (HuC or GSC: no "
	 "low-power encoding for Jellyfin, Plex or Frigate through QSV and VA-API; GuC: the GPU is "
	 "wedged or runs without it), in every container holding the GPU",
	 "reinstall the linux-firmware package (Proxmox: pve-firmware) or install the one of the "
	 "kernel's release; remove hand-copied files under /lib/firmware/i915 and /lib/firmware/xe; "
	 "update-initramfs -u and reboot",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"what", 14}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/xe/xe_uc_fw.c parse_cpd_header(): xe_gt_err(gt, \"invalid CPD header length "
	 "%u!\\n\"), \"FW too small! %zu < %zu\\n\", \"Failed to find %s manifest!\\n\", "
	 "parse_gsc_layout(): \"GSC FW too small! %zu < %zu\\n\", \"GSC FW boot section too small for "
	 "BPDT header: %u < %zu\\n\", \"invalid signature for BPDT header: 0x%08x!\\n\", \"couldn't find "
	 "CPD header in GSC binary!\\n\"; drivers/gpu/drm/i915/gt/uc/intel_gsc_fw.c (6.4 and later) "
	 "gt_err(gt, \"GSC FW boot section too small for BPDT header: %u < %zu\\n\"), \"invalid marker "
	 "for CPD header in GSC bin: 0x%08x!\\n\"; intel_huc_fw.c huc_err(huc, \"invalid CPD header "
	 "length %u!\\n\") with \"GT%u: HuC: \""},
	{"xe-guc-too-old",
	 "xe (" BDF "): .*Unsupported GuC v([0-9]+\\.[0-9]+\\.[0-9]+)! v([0-9]+\\.[0-9]+\\.[0-9]+) or newer is "
	 "required",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's GuC firmware file is version {found}, older than any xe accepts ({wanted} "
	 "or newer): the driver refuses it, the GuC does not start and xe does not take the GPU, so "
	 "no container holding it can render, transcode or compute",
	 "install the linux-firmware of the kernel's release (a newer i915/ or xe/ GuC file), and "
	 "drop any xe.guc_firmware_path= or a hand-copied older file; update-initramfs -u and reboot",
	 0, {{"gpu", 1}, {"found", 2}, {"wanted", 3}},
	 "drivers/gpu/drm/xe/xe_uc_fw.c guc_read_css_info(): xe_gt_err(gt, \"Unsupported GuC "
	 "v%u.%u.%u! v70.29.2 or newer is required\\n\", ...) then -EINVAL and \"%s firmware %s: "
	 "fetch failed with error %pe\\n\""},
	{"i915-sriov-vf-failed",
	 "(i915 (" BDF "): )?(\\[drm\\] )?(\\[drm:[a-z0-9_]+ \\[i915\\]\\] )?(\\*ERROR\\* )?(GT[0-9]+: )?"
	 "IOV[0-9]*: (Unable to confirm (ABI )?version|Found interface version|Failed to (get "
	 "(version|runtime) info|reset GuC state|notify GuC about resource fixup done|register "
	 "MEMIRQ|limit (contexts|doorbells) to)|Unexpected "
	 "(interface version change|(GT|GGTT|CTXs|DBs) reassignment)|Invalid GT assignment|GuC re-init "
	 "failed on [A-Za-z0-9]+)|i915 (" BDF "): (\\[drm\\] )?\\*ERROR\\* (migration recovery failed|Enabling IOV "
	 "failed)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU's SR-IOV virtual function could not agree with the GuC or the PF ({what}): "
	 "i915 does not take the VF (after a live migration: the VF stops working), so the guest or "
	 "container given it has no GPU (a VF driver and a PF of different i915-sriov-dkms or kernel "
	 "releases, or a GuC of another version)",
	 FIX_INTEL_SRIOV,
	 LX_KMSG_SOLE_INTEL, {{"gpu", 2}, {"what", 7}, {"gpu", 14}, {"what", 16}},
	 "i915 with SR-IOV (Intel's backports, i915-sriov-dkms) gt/iov/intel_iov_query.c "
	 "vf_handshake_with_guc(): IOV_PROBE_ERROR(iov, \"Unable to confirm version %u.%u "
	 "(%pe)\\n\") and \"Found interface version %u.%u.%u.%u\\n\", vf_handshake_with_pf(): "
	 "\"Unable to confirm ABI version %u.%02u (%pe)\\n\"; intel_iov_memirq.c: IOV_ERROR(iov, "
	 "\"Failed to register MEMIRQ %#x:%#x (%pe)\\n\"); intel_iov_query.c: \"Failed to get runtime "
	 "info (%pe)\\n\", \"Failed to reset GuC state (%pe)\\n\", IOV_ERROR(iov, \"Unexpected GGTT "
	 "reassignment: %lluK != %lluK\\n\"), the prefix gt_probe_error's \"GT%u: IOV: \"; "
	 "intel_iov.c vf_tweak_guc_submission(): \"Failed to limit %s to %u (%pe)\\n\" (contexts, "
	 "doorbells); a VF moved to another host (live migration) whose state did not come back: "
	 "intel_iov_migration.c: IOV_ERROR(iov, \"GuC re-init failed on %s (%pe)\\n\"), i915_sriov.c "
	 "vf_post_migration_recovery(): drm_err(&i915->drm, \"migration recovery failed (%pe)\\n\"); "
	 "gt/intel_gt.c intel_gt_init_hw(): i915_probe_error(i915, \"Enabling IOV failed (%pe)\\n\") when "
	 "intel_iov_init_hw() fails (only a VF's, its runtime query to the GuC)"},
	{"xe-sriov-vf-failed",
	 "xe (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?((Tile[0-9]+: )?(GT[0-9]+: )?VF: |VF: )(Tile[0-9]+: )?(GT[0-9]+: )?(Unable to confirm (VF/PF "
	 "ABI|GuC) version|Unsupported GuC version|New GuC interface version detected|Failed to "
	 "(get (version|runtime) info|reset GuC state|notify GuC about resource fixup done|obtain "
	 "[a-z]+ GMDID)|Unexpected (GGTT|LMEM|CTXs|DBs) reassignment|(tile[0-9]+: )?Invalid GGTT "
	 "configuration|migration recovery failed|migration (is )?not supported|Recovery failed at GuC "
	 "[A-Z_]+ step|Suballocator init failed)|xe (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?(migration "
	 "recovery failed|MEMIRQ[0-9]+: Failed to (allocate memirq page|setup report pages))",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU's SR-IOV virtual function (xe) could not agree with the GuC or the PF "
	 "({what}): xe does not take the VF (after a live migration: declares it wedged), so the "
	 "guest or container given it has no GPU (a PF and VF kernels of different releases, or a "
	 "GuC firmware of another version)",
	 FIX_INTEL_SRIOV,
	 0, {{"gpu", 1}, {"what", 9}, {"gpu", 16}, {"what", 19}},
	 "drivers/gpu/drm/xe/xe_gt_sriov_vf.c: xe_gt_sriov_err(gt, \"Unable to confirm VF/PF ABI "
	 "version %u.%u (%pe)\\n\"), \"Unable to confirm GuC version %u.%u (%pe)\\n\"; after a live "
	 "migration xe_sriov_vf.c vf_post_migration_recovery(): drm_err(&xe->drm, \"migration recovery "
	 "failed (%pe)\\n\") (6.18: without VF:), then the device is declared wedged; xe_gt_sriov_vf.c "
	 "\"Unsupported GuC version %u.%u.%u.%u (%pe)\\n\", \"Failed to get runtime info (%pe)\\n\", \"Failed to "
	 "reset GuC state (%pe)\\n\", \"Unexpected GGTT reassignment: %lluK != %lluK\\n\", with "
	 "xe_sriov's \"VF: \" and the \"Tile%u: GT%u: \" prefix (6.11-6.16: \"VF: GT%u: \"; 6.17 and later, xe_gt_sriov_printk() inside xe_gt_printk(): \"Tile%u: GT%u: VF: \"); "
	 "xe_tile_sriov_vf.c: \"tile%u: Invalid GGTT configuration: %#llx-%#llx\\n\"; before the "
	 "migration's recovery fails xe_sriov_vf.c: xe_sriov_err(xe, \"migration is not "
	 "supported\\n\") (7.0: xe_gt_sriov_vf.c \"migration not supported\\n\", \"Recovery failed at GuC "
	 "RESFIX_DONE step (%pe)\\n\"); xe_sriov_vf_ccs.c alloc_bb_pool(): "
	 "xe_sriov_err(xe, \"Suballocator init failed with error: %pe\\n\"); xe_memirq.c (a VF's "
	 "interrupts through memory): memirq_err(m, \"Failed to allocate memirq page (%pe)\\n\"), "
	 "\"Failed to setup report pages in %s (%pe)\\n\" with the \"MEMIRQ%u: \" prefix"},
	{"intel-sriov-pf-failed",
	 /* i915-sriov-dkms: "GT0: IOV: "; xe before 6.17 "PF: Tile0: GT0: ", 6.17 and later
	  * (xe_gt_sriov_printk() inside xe_gt_printk()) "Tile0: GT0: PF: " */
	 "(i915|xe) (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?((GT[0-9]+: )?IOV[0-9]*: (Failed to ((provision|"
	 "unprovision|(start|confirm) FLR for|pause|save|restore|query) VF[0-9]+|auto provision [0-9]+ VFs|"
	 "push configurations|update VFs PTE by PF|set threshold [^ ]+ for VF[0-9]+|update policy "
	 "'[^']*'|enable '[^']*' policy|disable '[^']*' policy|limit PF [^ ]+ to [0-9]+|force VGT mode|"
	 "trigger VF[0-9]+ pause|get size of VF[0-9]+ GuC state|setup sysfs)|VF[0-9]+ (FLR|pause) didn't "
	 "complete)|"
	 "(Tile[0-9]+: )?(GT[0-9]+: )?PF: "
	 "(Tile[0-9]+: )?(GT[0-9]+: )?(Failed to (bulk )?provision (VF[0-9]+|PF)|VF[0-9]+ failed to "
	 "negotiate ABI|Failed to (push|refresh) (self configuration|[0-9]+ of [0-9]+ VFs? "
	 "configurations|VF[0-9]+ configuration|(VF[0-9]+|PF) [0-9]+ config KLVs?|[0-9]+ policy KLVs?)|"
	 "VF[0-9]+ (FLR|RESTORE|SAVE) (failed|didn't finish)|VF[0-9]+ control command [a-z_]+ failed|VF[0-9]+ "
	 "(unprovisioning|resource sanitizing) failed|Failed to update policy (0x)?[0-9a-fA-F]+ "
	 "'[^']*'|Failed linking VF[0-9]+|Cannot find VF[0-9]+ device|Failed to initialize service)|(PF: )?"
	 "(Failed to set number of VFs to [0-9]+|Aborting migration, [a-z ]+|Received invalid restore "
	 "packet for VF[0-9]+)|(Failed to (stop|pause|resume|unprovision) VF[0-9]+ on gt[0-9]+))",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's PF could not set up or reset its SR-IOV virtual functions ({what}): the "
	 "GPU itself goes on, but the guests or containers given those VFs get no GPU, or lose it",
	 "check what the VFs need: the GuC firmware in SR-IOV mode (i915.enable_guc=3 with "
	 "i915-sriov-dkms, or xe's PF mode), fewer VFs than max_vfs, the same driver release in "
	 "the guests; then write 0 and the count to the PF's sriov_numvfs again",
	 0, {{"gpu", 2}, {"what", 7}, {"what", 16}, {"what", 26}, {"what", 27}, {"driver", 1}},
	 "drivers/gpu/drm/xe/xe_gt_sriov_pf_config.c: xe_gt_sriov_notice(gt, \"Failed to provision %s "
	 "with %llu (%s) %s (%pe)\\n\") with xe_sriov's PF: prefix; i915 with SR-IOV (i915-sriov-dkms, "
	 "Intel's backports, IOV: or IOV%u: prefix) gt/iov/intel_iov_provisioning.c: IOV_ERROR(iov, "
	 "\"Failed to auto provision %u VFs (%pe)\"); i915-sriov-dkms gt/iov/intel_iov_state.c: "
	 "IOV_ERROR(iov, \"Failed to save VF%u state (%pe)\\n\") (a VF's state saved by the PF); "
	 "intel_iov_provisioning.c: \"Failed to push configurations (%pe)\", \"Failed to provision "
	 "VF%u with %llu of GGTT (%pe)\\n\", \"Failed to unprovision VF%u (%pe)\\n\"; intel_iov_state.c: "
	 "\"Failed to start FLR for VF%u (%pe)\\n\", \"Failed to confirm FLR for VF%u (%pe)\\n\"; xe_gt_sriov_pf_control.c: \"VF%u FLR didn't finish in %u ms "
	 "(%pe)\\n\"; intel_iov_provisioning.c: \"Failed to set "
	 "threshold %s=%u for VF%u (%pe)\\n\", \"Failed to update policy '%s=%u' (%pe)\\n\", \"Failed to %s '%s' policy (%pe)\\n\" (enable, disable), \"Failed "
	 "to limit PF %s to %u (%pe)\\n\", \"Failed to force VGT mode (%pe)\\n\" (IOV_ERROR is "
	 "gt_notice() with \"IOV: \"); i915_sriov.c: \"VF%u FLR didn't complete within %u ms\\n\"; "
	 "xe_sriov_pf_service.c: \"VF%u failed to negotiate ABI %u.%u (%pe)\\n\"; "
	 "xe_gt_sriov_pf_config.c: xe_gt_sriov_err(gt, \"Failed to push self configuration "
	 "(%pe)\\n\"), \"VF%u unprovisioning failed with error (%pe)%s\\n\", \"VF%u resource "
	 "sanitizing failed (%pe)\\n\", \"Failed to %s VF%u configuration (%pe)\\n\" (push or "
	 "refresh), \"Failed to push %s %u config KLV%s (%pe)\\n\"; xe_sriov_pf.c: \"Failed to set "
	 "number of VFs to %d (%pe)\\n\"; xe_gt_sriov_pf_control.c: \"VF%u FLR failed!\\n\"; "
	 "xe_gt_sriov_pf_policy.c: \"Failed to update policy %#x '%s' to '%s' (%pe)\\n\", \"Failed to "
	 "push %u policy KLV%s (%pe)\\n\"; xe_pci_sriov.c: xe_sriov_notice(xe, \"Failed linking "
	 "VF%u\\n\"), xe_sriov_err(xe, \"Cannot find VF%u device, aborting link%s creation!\\n\"); the "
	 "GT prefix: xe 6.17 and later \"Tile%u: GT%u: PF: \", before \"PF: Tile%u: GT%u: \"; a VF's "
	 "state saved, restored or paused by the PF (i915-sriov-dkms intel_iov_state.c: IOV_ERROR(iov, "
	 "\"Failed to query VF%u save state size (%pe)\\n\"), "
	 "\"Failed to restore VF%u state (%pe) %*ph\\n\", \"Failed to pause VF%u: (%pe)\", \"Failed to "
	 "trigger VF%u pause (%pe)\\n\", \"VF%u pause didn't complete within %lu ms\\n\"; i915_sriov.c: "
	 "\"Failed to get size of VF%u GuC state: (%pe)\\n\", \"Failed to save VF%u GuC state: "
	 "(%pe)\\n\", \"Failed to restore VF%u GuC state: (%pe)\\n\", dev_warn(dev, \"Failed to pause "
	 "VF%u on gt%u (%pe)\\n\") and the same for stop, resume and unprovision); "
	 "i915-sriov-dkms intel_iov_sysfs.c: IOV_PROBE_ERROR(iov, \"Failed to setup sysfs (%pe)\\n\"); "
	 "xe_gt_sriov_pf_service.c: xe_gt_sriov_err(gt, \"Failed to initialize service (%pe)\\n\"); "
	 "a VF migrated by the PF (xe of 7.0, as i915-sriov-dkms ships it): xe_gt_sriov_pf_control.c "
	 "\"VF%u RESTORE didn't finish in %u ms (%pe)\\n\", xe_sriov_packet.c xe_sriov_warn(xe, "
	 "\"Aborting migration, devid mismatch %#06x!=%#06x\\n\") (revid, KLV format), "
	 "xe_sriov_pf_migration.c: \"Received invalid restore packet for VF%u (type:%u, tile:%u, "
	 "GT:%u)\\n\""},
	/* i915-sriov-dkms's PF giving its VFs up at start: most often a host
	 * whose i915 runs without GuC submission (i915.enable_guc=3 missing) */
	{"i915-sriov-pf-init-failed",
	 "i915 (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?((GT[0-9]+: )?IOV[0-9]*: (Initialization failed "
	 "\\((-?[A-Za-z0-9]+)\\) ?([A-Za-z ]*[A-Za-z])?)|(No VFs could be associated with this PF))",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's SR-IOV PF (i915-sriov-dkms) gave its virtual functions up at start "
	 "({what}): no VF can be created, so the VMs or containers meant to get one get no GPU; "
	 "\"GuC\": the host's i915 runs without GuC submission (i915.enable_guc=3 missing, or not "
	 "reaching the module), \"GT wedged\": the GPU itself did not start (the message before it); "
	 "the GPU goes on as a plain GPU",
	 "on the host give i915 enable_guc=3 (kernel command line i915.enable_guc=3 i915.max_vfs=7, "
	 "or 'options i915 enable_guc=3 max_vfs=7' in /etc/modprobe.d, then update-initramfs -u; "
	 "update-grub or proxmox-boot-tool refresh) and reboot; for \"GT wedged\" fix the GPU's start "
	 "first (its firmware: the message before it)",
	 0, {{"gpu", 1}, {"what", 6}, {"what", 9}, {"error", 7}, {"reason", 8}},
	 "i915-sriov-dkms gt/iov/intel_iov_utils.h pf_update_status(): IOV_PROBE_ERROR(iov, "
	 "\"Initialization failed (%pe) %s\\n\", ERR_PTR(status), reason) (gt_probe_error's \"GT%u: "
	 "IOV: \"; Intel's backports for 6.1-6.2: \"IOV0: \" without [drm]), reason \"GuC\" from "
	 "intel_iov.c intel_iov_init_late() when the PF has no GuC submission, also \"provisioning\", "
	 "\"state\", \"runtime\", and i915_sriov.c pf_checklist()'s \"GT wedged\"; then "
	 "i915_sriov_pf_confirm(): dev_notice(dev, \"No VFs could be associated with this PF!\\n\") and "
	 "the VF count set to 0"},
	/* SR-IOV's VF-PF messages, relayed by the GuC (i915-sriov-dkms and xe
	 * alike: "GT0: IOV: relay: ", xe "Tile0: GT0: VF: relay: "): a VF that
	 * asks its PF for its configuration and gets no answer or a refusal */
	{"intel-sriov-relay-failed",
	 "(i915|xe) (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?" INTEL_GT_TAG "((IOV[0-9]*|PF|VF): )?relay: "
	 "((Failed to (send|handle|process)|Unsuccessful|Unexpected data=)[^(]*[^ (]( \\((-?[A-Za-z0-9]+)\\))?)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "a message between the Intel GPU's SR-IOV virtual function and its PF (relayed by the GuC) "
	 "failed ({what}): the VF does not get its configuration or its requests are "
	 "refused, so the guest or container given it has no working GPU (the PF's and the VF's "
	 "drivers of different releases, or a GuC firmware of another version)",
	 FIX_INTEL_SRIOV,
	 0, {{"gpu", 2}, {"what", 12}, {"error", 16}, {"driver", 1}},
	 "i915-sriov-dkms gt/iov/intel_iov_relay.c relay_send(): RELAY_PROBE_ERROR(relay, \"Failed to "
	 "send %s.%u to %u (%pe) %*ph\\n\"), \"Unsuccessful %s.%u %#x:%u to %u (%pe) %*ph\\n\", "
	 "relay_handle_request(): RELAY_ERROR(relay, \"Failed to handle %s.%u from %u (%pe) %*ph\\n\") "
	 "(RELAY_ERROR is IOV_ERROR, gt_notice() with GT%u: IOV: relay:); drivers/gpu/drm/xe/"
	 "xe_guc_relay.c (6.9 and later) relay_send_transaction(): relay_notice(relay, \"Unexpected "
	 "data=%d from GuC, wrong ABI?\\n\") and the same texts as i915's, also \"Failed to process %s.%u "
	 "from %u (%pe) %*ph\\n\", \"Failed to send %s.%x to GuC (%pe) %*ph ...\\n\", \"Failed to process "
	 "action.%u (%pe) %*ph\\n\" (relay_notice is xe_gt_sriov_notice() with relay:, after Tile%u: GT%u: "
	 "PF: or VF:, before 6.17 PF: Tile%u: GT%u:)"},
	/* i915-sriov-dkms in a guest: a VF has no execlists, only GuC
	 * submission, which i915.enable_guc chooses (on Alder Lake and Raptor
	 * Lake its default loads the HuC only) */
	{"i915-sriov-vf-guc-off",
	 "i915 (" BDF "): ((\\[drm\\] )?\\*ERROR\\* GuC submission disabled|GuC submission is disabled)$",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "i915 does not take the Intel GPU's SR-IOV virtual function: a VF works only with GuC "
	 "submission, and the guest's i915 runs without it, so the guest has no GPU",
	 "in the guest, add i915.enable_guc=3 to the kernel command line (or 'options i915 "
	 "enable_guc=3' in /etc/modprobe.d, then update-initramfs -u) and reboot the guest; use the "
	 "guest's i915-sriov-dkms of the host's release",
	 0, {{"gpu", 1}},
	 "i915-sriov-dkms drivers/gpu/drm/i915/i915_sriov.c vf_check_guc_submission_support(): "
	 "drm_err(&i915->drm, \"GuC submission disabled\\n\") and -ENODEV when "
	 "intel_guc_submission_is_wanted() is false on a VF; gt/iov/intel_iov.c intel_iov_init_late(): "
	 "dev_warn(gt->i915->drm.dev, \"GuC submission is %s\\n\", str_enabled_disabled(false)) and -EIO "
	 "(a VF without GuC submission at a later step: no GEM, no render node)"},
	/* i915's and xe's probe steps that need the device's BARs, interrupts
	 * and (i915) its GGTT aperture: a VM whose firmware or machine type
	 * does not give them, or a GPU passed through without them */
	{"intel-probe-hw-failed",
	 "((i915|xe) (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?|\\[drm:[a-z0-9_]+ \\[(i915|xe)\\]\\] \\*ERROR\\* )"
	 "(failed to map registers|Failed to (request MSI IRQ|allocate IRQ vectors|request IRQ for "
	 "MSI-X|map the ggtt page table|register driver for userspace access)|Failed getting MSI-X "
	 "vectors count|No supported interrupt handler|Unknown GMADR size|Scratch setup failed|"
	 "mappable aperture extends past end of GGTT|(incompatible|old) vGPU (host )?found)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU driver could not set up the GPU's hardware at probe ({what}): it gives the "
	 "GPU up, so /dev/dri has no node for it and containers or the guest given it have no GPU",
	 "on bare metal: enable Above 4G Decoding and Resizable BAR in the firmware setup and update "
	 "it; in a VM: a q35 machine with OVMF and a 64-bit MMIO window large enough for the GPU's "
	 "BARs, MSI for the device, and for a GVT-g guest a host kernel as new as the guest's; "
	 "then reboot",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 3}, {"what", 7}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/i915/intel_uncore.c intel_uncore_setup_mmio() and "
	 "drivers/gpu/drm/xe/xe_mmio.c xe_mmio_probe_early(): drm_err(\"failed to map registers\\n\") "
	 "(4.x i915_drv.c i915_mmio_setup(): DRM_ERROR, no address); drivers/gpu/drm/xe/xe_irq.c: "
	 "drm_err(\"Failed to request MSI IRQ %d\\n\"); drivers/gpu/drm/i915/gt/intel_ggtt.c "
	 "i915_gmch_probe()/gen6_gmch_probe(): drm_err(\"Unknown GMADR size (%pa)\\n\") (4.x-5.x "
	 "i915_gem_gtt.c, DRM_ERROR), ggtt_probe_common(): \"Failed to map the ggtt page table\\n\", "
	 "\"Scratch setup failed\\n\", i915_ggtt_probe_hw(): \"mappable aperture extends past end of "
	 "GGTT, aperture=%pa, total=%llx\\n\"; xe_irq.c: \"Failed to allocate IRQ vectors: %d\\n\", "
	 "\"Failed getting MSI-X vectors count: %d\\n\", \"Failed to request IRQ for MSI-X %d\\n\", "
	 "\"No supported interrupt handler\"; i915_driver.c i915_driver_hw_probe(): "
	 "drm_err(\"incompatible vGPU found, support for isolated ppGTT required\\n\"), \"old vGPU "
	 "host found, support for HWSP emulation required\\n\"; i915_driver_register(): "
	 "i915_probe_error(\"Failed to register driver for userspace access!\\n\")"},
	/* the driver's own reset of the GPU (Driver-FLR) at unbind or after a
	 * failed load: the GPU is left in an unknown state */
	{"intel-driver-flr-failed",
	 "(i915|xe) (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?(Driver-FLR-(prepare wait for ready|teardown wait "
	 "completion|reinit wait completion) failed|Failed to wait for Driver-FLR bit to clear)",
	 LXG176_PCI_UNRESPONSIVE, LX_SEVERITY_ERROR,
	 "the Intel GPU ({driver}) did not finish the reset its driver asked of it when letting go "
	 "of it ({what}): the GPU stays in an unknown state, so the next load of the driver, a "
	 "virtual machine given it (vfio-pci) or a container using it may find it dead until the "
	 "host is powered off",
	 "power the host off and on (a warm reboot may not reset the GPU); update the system "
	 "firmware (the GPU's firmware comes with it on Arc cards: the vendor's update tool), the "
	 "kernel and linux-firmware; when it happens at every unbind for a VM, keep the GPU on "
	 "vfio-pci from boot (vfio-pci.ids=) so the driver never takes it",
	 0, {{"gpu", 2}, {"what", 5}, {"driver", 1}},
	 "drivers/gpu/drm/xe/xe_device.c __xe_driver_flr() (xe_driver_flr_fini(), at unbind): "
	 "drm_err(&xe->drm, \"Driver-FLR-prepare wait for ready failed! %d\\n\"), "
	 "\"Driver-FLR-teardown wait completion failed! %d\\n\", \"Driver-FLR-reinit wait completion "
	 "failed! %d\\n\"; drivers/gpu/drm/i915/intel_uncore.c driver_initiated_flr() (DG2, from "
	 "intel_uncore_fini_mmio()): \"Failed to wait for Driver-FLR bit to clear! %d\\n\" and the "
	 "same teardown and reinit lines"},
	{"xe-survivability-mode",
	 "xe (" BDF "): (\\[drm\\] )?(In Survivability Mode|Runtime Survivability [Mm]ode enabled|Firmware "
	 "flash required|Survivability Boot Status : Critical Failure)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the discrete Intel GPU's own firmware (on the card's flash) did not boot ({what}): xe "
	 "starts it in survivability mode, only to update that firmware, so no container holding "
	 "it can render, transcode or compute",
	 "update the card's firmware (fwupdmgr update, or Intel's igsc tool; the message's "
	 "userspace documentation), then power the host off and on; if it recurs, reseat the card "
	 "and check its power cables",
	 0, {{"gpu", 1}, {"what", 3}},
	 "drivers/gpu/drm/xe/xe_survivability_mode.c (6.15 and later): dev_err(dev, \"In "
	 "Survivability Mode\\n\"), dev_info(\"Survivability Boot Status : Critical Failure "
	 "(%d)\\n\"), and at run time dev_err(\"Runtime Survivability mode enabled\\n\"), "
	 "\"Firmware flash required, Please refer to the userspace documentation for more "
	 "details!\\n\""},
	{"intel-pcode-init-failed",
	 "(i915|xe) (" BDF "): .*(PCODE initialization timedout|intel_pcode_init failed (-?[0-9]+))",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the discrete Intel GPU's power controller (PCODE) did not report the card ready: the "
	 "{driver} driver gives the card up, /dev/dri has no node for it and no container holding "
	 "it can render, transcode or compute",
	 "power the host off and on; check the card's power cables and seating; update the card's "
	 "firmware (fwupdmgr) and the system firmware",
	 0, {{"gpu", 2}, {"driver", 1}, {"error", 4}},
	 "drivers/gpu/drm/xe/xe_pcode.c xe_pcode_ready(): drm_err(&xe->drm, \"PCODE initialization "
	 "timedout after: %d min\\n\" ...) (\"3 min\"); drivers/gpu/drm/i915/i915_driver.c "
	 "i915_driver_hw_probe(): gt_err(gt, \"intel_pcode_init failed %d\\n\", ret)"},
	{"xe-vram-unusable",
	 "xe (" BDF "): .*(Tile without any CPU visible VRAM|pci resource is not valid)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the discrete Intel GPU's memory cannot be reached through its PCI BAR ({what}): xe gives "
	 "the card up, /dev/dri has no node for it and no container holding it can render, "
	 "transcode or compute",
	 "enable Above 4G Decoding and Resizable BAR in the system firmware (or give the card a slot "
	 "whose root port can map its BAR), then reboot; a VM: give it a 64-bit MMIO window large "
	 "enough for the BAR",
	 0, {{"gpu", 1}, {"what", 2}},
	 "drivers/gpu/drm/xe/xe_vram.c (6.8-6.14 xe_mmio.c) xe_vram_probe(): drm_err(&xe->drm, "
	 "\"Tile without any CPU visible VRAM. Aborting.\\n\"), determine_lmem_bar_size(): "
	 "drm_err(&xe->drm, \"pci resource is not valid\\n\")"},
	/* xe's GGTT lives in stolen memory the firmware preallocates (GSM):
	 * none in a VM given a whole iGPU without it, or a VF that xe takes for
	 * a whole GPU (no VF support for that platform in the guest's xe). */
	{"xe-no-gsm",
	 "xe (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?(Tile[0-9]+: )?Hardware reported no preallocated GSM",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "xe found no graphics stolen memory preallocated for the Intel GPU's page table (GSM): the "
	 "firmware, or a VM's firmware for a passed-through iGPU or SR-IOV VF, gave it none; xe gives the "
	 "GPU up, /dev/dri has no node for it and no container holding it can render, transcode or "
	 "compute",
	 "bare metal: set the iGPU's pre-allocated graphics memory (DVMT Pre-Allocated) in the system "
	 "firmware; a VM given a VF: a guest driver that supports VFs of this GPU (i915-sriov-dkms or a "
	 "kernel whose xe does) in the guest; a VM given the whole iGPU: its legacy IGD passthrough "
	 "(QEMU x-igd-gms) or a VF instead; then reboot the guest",
	 0, {{"gpu", 1}},
	 "drivers/gpu/drm/xe/xe_ggtt.c xe_ggtt_init_early(): xe_tile_err(ggtt->tile, \"Hardware reported "
	 "no preallocated GSM\\n\") when probe_gsm_size() reads 0 from the GMCH control word (earlier "
	 "xe: drm_err(&xe->drm, \"Hardware reported no preallocated GSM\\n\")), then -ENOMEM"},
	{"intel-resume-failed",
	 "(i915|xe) (" BDF "): .*(GT[0-9]+: resume failed \\((-?[A-Za-z0-9]+)\\)|Runtime resume failed, "
	 "disabling it \\((-?[0-9]+)\\)|failed to set PCI D0 power state \\((-?[0-9]+)\\)|failed to "
	 "re-enable GGTT)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU did not come back from a suspend or runtime power-down ({what}): it is "
	 "unusable until a reboot, so rendering, transcoding and compute fail in every container "
	 "holding it",
	 FIX_PM_RESUME,
	 0, {{"gpu", 2}, {"what", 3}, {"driver", 1}},
	 "drivers/gpu/drm/xe/xe_gt.c xe_gt_resume(): xe_gt_err(gt, \"resume failed (%pe)\\n\"); "
	 "drivers/gpu/drm/i915/i915_driver.c intel_runtime_resume(): drm_err(\"Runtime resume "
	 "failed, disabling it (%d)\\n\"), i915_drm_resume_early(): \"failed to set PCI D0 power "
	 "state (%d)\\n\", i915_drm_resume(): \"failed to re-enable GGTT\\n\""},
	{"intel-suspend-failed",
	 "(i915|xe) (" BDF "): .*(GT[0-9]+: suspend failed \\((-?[A-Za-z0-9]+)\\)|GuC suspend failed|GUC: "
	 "suspend: RESET_CLIENT action failed|Suspend complete failed: (-?[0-9]+)|Runtime suspend "
	 "failed, disabling it \\((-?[0-9]+)\\))",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU refused to suspend ({what}): the host or the GPU stayed awake (a runtime "
	 "suspend failure turns runtime power management off for it); the GPU works",
	 FIX_PM_SUSPEND,
	 0, {{"gpu", 2}, {"what", 3}, {"driver", 1}},
	 "drivers/gpu/drm/xe/xe_gt.c xe_gt_suspend(): xe_gt_err(gt, \"suspend failed (%pe)\\n\"); "
	 "xe_guc.c xe_guc_suspend(): \"GuC suspend failed: %pe\\n\"; drivers/gpu/drm/i915/"
	 "i915_driver.c i915_drm_suspend_late(): drm_err(\"Suspend complete failed: %d\\n\"), "
	 "intel_runtime_suspend(): \"Runtime suspend failed, disabling it (%d)\\n\"; "
	 "gt/uc/intel_guc.c intel_guc_suspend(): guc_err(guc, \"suspend: RESET_CLIENT action "
	 "failed with %pe\\n\")"},
	/* i915 of the 4.x kernels (DRM_ERROR, DRM_WARN, DRM_NOTE: no address):
	 * the log's only Intel GPU's */
	{"i915-guc-load-failed-old",
	 "(GuC firmware signature verification failed|GuC init failed: (-?[0-9]+)|GuC reset failed, ret = "
	 "(-?[0-9]+)|GuC firmware load failed: (-?[0-9]+)|GuC firmware (code |signature )?xfer error "
	 "(-?[0-9]+)|Failed to complete HuC uCode load with ret (-?[0-9]+)|Firmware is too large to fit "
	 "in WOPCM|GuC firmware exception\\. EIP: (0x)?[0-9a-fA-F]+|[Ff]ailed to initialize GuC, error (-?[0-9]+))",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the Intel GPU's GuC or HuC firmware did not start ({what}; a kernel of the 4.x or 5.x series): "
	 "with enable_guc set the driver wedges the GPU or runs it without the GuC, and media "
	 "encoding (HuC) fails in every container holding it",
	 "install a linux-firmware that has the i915/ GuC and HuC files of the versions this kernel "
	 "asks for, or drop i915.enable_guc= (4.x kernels run without GuC by default); "
	 "update-initramfs -u and reboot",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 0}, {"what", 1}},
	 "drivers/gpu/drm/i915/intel_guc_loader.c (4.10-4.15): DRM_ERROR(\"GuC firmware signature "
	 "verification failed\\n\"); 5.3-5.15 gt/uc/intel_guc_fw.c guc_wait_ucode(): DRM_ERROR(\"GuC "
	 "firmware exception. EIP: %#x\\n\"); 4.2-4.9 i915_gem.c i915_gem_init_hw(): DRM_ERROR(\"failed to "
	 "initialize GuC, error %d (ignored)\\n\"); intel_guc_loader.c: \"GuC init failed: %d\\n\", \"GuC reset "
	 "failed, ret = %d\\n\", DRM_NOTE(\"GuC firmware load failed: %d\\n\"), \"Firmware is too large to fit "
	 "in WOPCM\\n\"; intel_guc_fw.c (4.16-4.19): DRM_WARN(\"GuC firmware code xfer error %d\\n\"); "
	 "intel_huc.c: DRM_ERROR(\"Failed to complete HuC uCode load with ret %d\\n\")"},
	{"i915-uc-fetch-failed-old",
	 "(GuC|HuC): Failed to (fetch|load) (valid uC )?firmware (from )?(i915/[^ ]+) \\(error (-?[0-9]+)\\)|[Ff]ailed "
	 "to fetch (valid )?(uC|GuC) firmware from (i915/[^ ]+) \\(error (-?[0-9]+)\\)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's {uc} firmware {file} could not be loaded ({error}; -2: not in /lib/firmware "
	 "nor in the initramfs; a kernel of the 4.x series): the driver runs the GPU without it, so "
	 "media encoding that needs the HuC fails in every container holding it",
	 "install a linux-firmware of a version that has {file} (Debian: firmware-misc-nonfree), "
	 "or drop i915.enable_guc=; then update-initramfs -u and reboot",
	 LX_KMSG_SOLE_INTEL | LX_KMSG_RESTATES, {{"file", 5}, {"file", 9}, {"gpu", 0}, {"uc", 1},
	 {"error", 6}, {"error", 10}, {"uc", 8}},
	 "drivers/gpu/drm/i915/intel_uc_fw.c (4.16-4.19) intel_uc_fw_fetch(): DRM_WARN(\"%s: Failed "
	 "to fetch firmware %s (error %d)\\n\", intel_uc_fw_type_repr(), path, err); "
	 "intel_guc_loader.c (4.10-4.15): DRM_WARN(\"Failed to fetch valid uC firmware from %s "
	 "(error %d)\\n\"); 4.3-4.9: DRM_ERROR(\"Failed to fetch GuC firmware from %s (error %d)\\n\") (4.2 "
	 "\"failed to fetch GuC firmware from %s (error %d)\\n\")"},
	/* 4.2-4.5: the DMC (CSR) file request failed (error 0: no reason
	 * given, "most usually" a missing file; a built-in i915 adds a note
	 * that the file must be in the kernel or the initramfs) */
	{"i915-fw-load-error-old",
	 "failed to load firmware (i915/[^ ]+)( \\((-?[0-9]+)\\)|$)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's firmware {file} could not be loaded (error {error}; 0 or -2: most often the file "
	 "is missing, or i915 is built into the kernel and the file is not in the initramfs; a kernel of "
	 "the 4.x series): the display microcontroller does not start and runtime power management is "
	 "off; rendering and transcoding in containers are not affected",
	 "install a linux-firmware that has {file} and put it into the initramfs (update-initramfs -u; "
	 "a kernel with i915 built in: CONFIG_EXTRA_FIRMWARE), then reboot",
	 LX_KMSG_SOLE_INTEL, {{"file", 1}, {"gpu", 0}, {"error", 3}},
	 "drivers/gpu/drm/i915/i915_drv.c (4.2-4.5) i915_firmware_load_error_print(), called by "
	 "intel_csr.c's loader: DRM_ERROR(\"failed to load firmware %s (%d)\\n\", fw_path, err) (\"If the "
	 "reason is not known assume -ENOENT\"), then for a built-in i915 \"The driver is built-in, so to "
	 "load the firmware you need to\\ninclude it either in the kernel (see CONFIG_EXTRA_FIRMWARE) "
	 "or\\nin your initrd/initramfs image.\\n\""},
	{"i915-uc-version-old",
	 "((GuC|HuC): Wrong firmware version|uC firmware version) \\(?([0-9]+\\.[0-9]+), required ([0-9]+\\.[0-9]+)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "the Intel GPU's {uc} firmware file is version {found}, and this kernel needs {wanted}: "
	 "the driver refuses it and runs the GPU without it (a kernel of the 4.x series), so media "
	 "encoding that needs the HuC fails in every container holding it",
	 "install the linux-firmware of the kernel's release (a file of the version the kernel asks "
	 "for), and drop any i915.guc_firmware_path= or i915.huc_firmware_path=; update-initramfs "
	 "-u and reboot",
	 LX_KMSG_SOLE_INTEL, {{"gpu", 0}, {"uc", 2}, {"found", 3}, {"wanted", 4}},
	 "drivers/gpu/drm/i915/intel_uc_fw.c (4.16-4.19) intel_uc_fw_fetch(): DRM_NOTE(\"%s: Wrong "
	 "firmware version (%u.%u, required %u.%u)\\n\"); intel_guc_loader.c (4.10-4.15): "
	 "DRM_NOTE(\"uC firmware version %d.%d, required %d.%d\\n\")"},
	{"xe-unknown-ip-version",
	 "(xe) (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?Hardware reports unknown graphics version ([0-9]+\\.[0-9]+)",
	 LXG157_INTEL_NOT_SUPPORTED, LX_SEVERITY_ERROR,
	 "the Intel GPU's graphics IP reports version {version}, which this kernel's xe does not "
	 "know (a GPU newer than the kernel, forced with xe.force_probe): xe does not take it, "
	 "/dev/dri has no node for it, so containers get no GPU",
	 "boot a kernel whose xe supports the GPU (Proxmox: the opt-in proxmox-kernel of the latest "
	 "series), and drop the xe.force_probe= that forced it",
	 LX_KMSG_UNLESS_DRIVEN, {{"gpu", 2}, {"version", 5}, {"driver", 1}},
	 "drivers/gpu/drm/xe/xe_pci.c handle_gmdid(): drm_err(&xe->drm, \"Hardware reports unknown "
	 "graphics version %u.%02u\\n\", ...), then xe_info_init() returns -ENODEV (\"If we couldn't "
	 "detect the graphics IP, that's considered a fatal error\")"},
	{"xe-unknown-media-version",
	 "xe (" BDF "): (\\[drm\\] )?(\\*ERROR\\* )?Hardware reports unknown media version ([0-9]+\\.[0-9]+)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the Intel GPU's media IP reports version {version}, which this kernel's xe does not know: "
	 "xe runs the GPU without its media engines, so hardware decoding and encoding (VA-API, "
	 "QSV) fail in every container holding it; rendering and compute work",
	 "boot a kernel whose xe supports the GPU's media IP (Proxmox: the opt-in proxmox-kernel of "
	 "the latest series)",
	 0, {{"gpu", 1}, {"version", 4}},
	 "drivers/gpu/drm/xe/xe_pci.c handle_gmdid(): drm_err(&xe->drm, \"Hardware reports unknown "
	 "media version %u.%02u\\n\", ...) (\"Failing to detect media IP is non-fatal; we'll just "
	 "proceed without enabling media support\")"},
	{"kfd-atomics",
	 "kfd kfd: (amdgpu: )?skipped device ([0-9a-fA-F]{4}:[0-9a-fA-F]{4}), PCI rejects atomics",
	 LXG143_KFD_REFUSED, LX_SEVERITY_ERROR,
	 "amdkfd refused the GPU (PCI ID {pci_id}): it needs PCIe atomics and the path to the CPU "
	 "does not support them, so ROCm (/dev/kfd) has no such GPU on the host nor in any container",
	 "put the GPU in a slot wired to the CPU (not the chipset) on a platform with PCIe "
	 "AtomicOps (lspci -vvv: AtomicOpsCap on the root port), or use a GPU that needs no "
	 "atomics (gfx9 and later); graphics and transcoding are not affected",
	 LX_KMSG_IN_AMDGPU_PROBE, {{"pci_id", 2}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_device.c kgd2kfd_probe(): dev_info(kfd_device, \"skipped "
	 "device %x:%x, PCI rejects atomics\\n\"); newer kernels, kgd2kfd_device_init(): \"skipped "
	 "device %x:%x, PCI rejects atomics %d<%d\\n\" (the MEC firmware's version and the one "
	 "that needs no atomics, 0 for none)"},
	{"kfd-unsupported",
	 "kfd kfd: (amdgpu: )?((GC IP [0-9a-fA-F]{6}|[A-Z][A-Z0-9_]*) +(VF +)?not supported in kfd|"
	 "(DID [0-9a-fA-F]{4}) is missing in supported_devices)",
	 LXG143_KFD_REFUSED, LX_SEVERITY_WARNING,
	 "amdkfd has no support for the AMD GPU {asic} in this kernel (GCN 1 GPUs such as TAHITI, "
	 "PITCAIRN, OLAND never have it; a \"GC IP\" version: a GPU newer than the kernel's "
	 "amdkfd), so ROCm (/dev/kfd) has no such GPU on the host nor in any container; graphics "
	 "and VA-API transcoding are not affected",
	 "nothing if the containers only render or transcode; for ROCm: a newer kernel whose "
	 "amdkfd lists the GPU (Proxmox: an opt-in proxmox-kernel of a later series) for a new "
	 "GPU, another GPU for a GCN 1 one",
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_IN_AMDGPU_PROBE, {{"asic", 3}, {"asic", 5}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_device.c kgd2kfd_probe(): dev_err(kfd_device, \"%s %s not "
	 "supported in kfd\\n\", amdgpu_asic_name[...], VF or nothing), for a GPU found by IP "
	 "discovery dev_err(kfd_device, \"GC IP %06x %s not supported in kfd\\n\", ...); 4.15 to "
	 "5.x, lookup_device_info(): dev_warn(kfd_device, \"DID %04x is missing in "
	 "supported_devices\\n\", did), then \"kgd2kfd_probe failed\\n\""},
	/* amdkfd's own start refused a module parameter: it takes no GPU at
	 * all (amdgpu drives them for graphics); the line names none */
	{"kfd-module-param-invalid",
	 "^(amdgpu: |kfd: )?(sched_policy) has invalid value|^(amdgpu: |kfd: )?"
	 "(max_num_of_queues_per_device) must be between 1 to KFD_MAX_NUM_OF_QUEUES_PER_DEVICE",
	 LXG143_KFD_REFUSED, LX_SEVERITY_ERROR,
	 "amdkfd did not start: its module parameter {param} has a value out of range, so no "
	 "AMD GPU has a ROCm node (/dev/kfd) on the host nor in any container; graphics and "
	 "VA-API transcoding are not affected",
	 "remove or correct amdgpu.{param}= (amdkfd.{param}= on kernels before 4.20) on the "
	 "kernel command line and in /etc/modprobe.d (sched_policy: 0, 1 or 2), update-initramfs "
	 "-u and reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 0}, {"param", 2}, {"param", 4}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_module.c kfd_init() (4.20 and later, under amdgpu's "
	 "pr_fmt \"amdgpu: \"; before, kfd_module_init() of the amdkfd module): "
	 "pr_err(\"sched_policy has invalid value\\n\"), pr_err(\"max_num_of_queues_per_device "
	 "must be between 1 to KFD_MAX_NUM_OF_QUEUES_PER_DEVICE\\n\") (4.x: \"kfd: ...\"), "
	 "then -EINVAL: amdkfd is not initialized"},
	/* amdkfd's init of a GPU failed after it accepted it: no ROCm node */
	{"kfd-device-not-added",
	 "kfd kfd: (amdgpu: )?(device ([0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,4}) NOT added due to errors|"
	 "Failed to resume IOMMU for device ([0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,4})|Error initializing "
	 "iommuv2 for device ([0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,4})|Error initializing KFD node|"
	 "Error adding device to topology|Error initializing (interrupts|queue manager|gtt "
	 "sub-allocator|doorbell aperture)|Error starting queue manager for device "
	 "([0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,4})|Could not allocate [0-9]+ gws)",
	 LXG143_KFD_REFUSED, LX_SEVERITY_ERROR,
	 "amdkfd could not set up the AMD GPU ({step}): ROCm (/dev/kfd) has no "
	 "such GPU on the host nor in any container; graphics and VA-API transcoding are not "
	 "affected",
	 "for the IOMMU (an APU: Raven, Picasso, Renoir, Carrizo): turn the IOMMU on in the system "
	 "firmware, or boot with iommu=pt or amd_iommu=off, and update the system firmware; "
	 "otherwise see the message before it, and update the kernel and linux-firmware together",
	 0, {{"pci_id", 3}, {"pci_id", 4}, {"pci_id", 5}, {"pci_id", 7}, {"step", 2}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_device.c kgd2kfd_device_init(): dev_err(kfd_device, "
	 "\"device %x:%x NOT added due to errors\\n\", vendor, device) after \"Error initializing "
	 "...\\n\" (KFD node; kfd_init_node()'s interrupts, queue manager; gtt sub-allocator, "
	 "doorbell aperture) or \"Error adding device to topology\\n\"; kfd_resume() (kgd2kfd_resume_iommu() "
	 "from 5.16): dev_err(kfd_device, \"Failed to resume IOMMU for device %x:%x\\n\", ...); "
	 "4.x-5.x kfd_iommu.c: \"Error initializing iommuv2 for device %x:%x\\n\"; the steps of "
	 "kfd_init_node() and kgd2kfd_device_init() before \"NOT added\": \"Could not allocate %d "
	 "gws\\n\"; "
	 "kfd_resume(): \"Error starting queue manager for device %x:%x\\n\""},
	/* amdkfd could not give a ROCm process the GPU (its VM, its per-device
	 * data): the process finds no usable GPU */
	{"kfd-process-vm-failed",
	 "(amdgpu (" BDF "): (amdgpu: )?|amdgpu: |kfd kfd: (amdgpu: )?)(Failed to create process VM "
	 "object|Failed to create process device data)",
	 LXG143_KFD_REFUSED, LX_SEVERITY_WARNING,
	 "amdkfd could not set up the AMD GPU for a ROCm program ({step}): the program (a "
	 "container's ROCm, OpenCL or HIP client: clinfo, rocminfo, ollama, Blender) sees no "
	 "usable GPU or fails at its first allocation",
	 "update the kernel (a Raven/Picasso APU on 6.8-6.9 kernels needs the fix of 2024-03); "
	 "else check that the program's user may open /dev/kfd and the GPU's render node, and "
	 "that the GPU has free memory",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 5}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_process.c kfd_process_device_init_vm(): pr_err(\"Failed "
	 "to create process VM object\\n\") (later dev_err); kfd_flat_memory.c kfd_init_apertures(): "
	 "pr_err(\"Failed to create process device data\\n\") (later dev_err)"},
	{"amdgpu-mes-timeout",
	 "(amdgpu (" BDF "): )?(amdgpu: )?MES(\\([0-9]+(, ?[0-9]+)?\\))? failed to (respond to|response) "
	 "msg=([A-Za-z0-9_]+)( \\(([A-Z_]+)\\))?",
	 LXG144_AMD_MES_HANG, LX_SEVERITY_ERROR,
	 "the MES firmware (the AMD GPU's queue scheduler, RDNA3 and later) did not answer the "
	 "driver's request msg={msg}: its queues hang, the driver resets the GPU, and ROCm and "
	 "Vulkan programs on it (in every container holding it) lose their work",
	 "restart the programs that used the GPU; if it recurs, install the linux-firmware of the "
	 "kernel's release (its MES files, amdgpu/gc_11_*_mes*.bin and gc_12_*, must suit the "
	 "kernel), or revert the linux-firmware or kernel update after which it began; "
	 "update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"msg", 7}, {"gpu", 2}, {"detail", 9}},
	 "drivers/gpu/drm/amd/amdgpu/mes_v11_0.c mes_v11_0_submit_pkt_and_poll_completion(): "
	 "dev_err(adev->dev, \"MES failed to respond to msg=%s\\n\") or \"MES failed to respond to "
	 "msg=%s (%s)\\n\" (mes_v12_0.c: \"MES(%d) failed to respond to msg=%s\\n\", "
	 "mes_v12_1.c: 'MES(%d, %d) failed to respond to msg=%s' with the XCC and pipe; older "
	 "kernels: DRM_ERROR(\"MES failed to response msg=%d\\n\"))"},
	/* MES gave up on a queue it could not remove (6.2 and later, RDNA3 on) */
	{"amdgpu-mes-unrecoverable",
	 "(amdgpu (" BDF "): (amdgpu: )?|amdgpu: )(MES might be in unrecoverable state, issue a GPU "
	 "reset|failed to remove hardware queue from MES, doorbell=(0x[0-9a-fA-F]+))",
	 LXG144_AMD_MES_HANG, LX_SEVERITY_ERROR,
	 "the MES firmware (the AMD GPU's queue scheduler, RDNA3 and later) could not remove a "
	 "program's queue ({step}): the driver resets the GPU, and ROCm and Vulkan programs on it "
	 "(in every container holding it) lose their work",
	 "restart the programs using the GPU; if it recurs, install the linux-firmware of the "
	 "kernel's release (amdgpu/gc_11_*_mes*.bin, gc_12_*_mes*.bin) or revert the firmware "
	 "update after which it began, or update the kernel; update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 4}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_device_queue_manager.c remove_queue_mes(): "
	 "dev_err(adev->dev, \"failed to remove hardware queue from MES, doorbell=0x%x\\n\", ...), "
	 "then dev_err(adev->dev, \"MES might be in unrecoverable state, issue a GPU reset\\n\") "
	 "(6.2-6.5: pr_err, \"amdgpu: \" and no address)"},
	/* A program's command buffer the command processor or SDMA refused
	 * (every GCN and RDNA generation, amdgpu and radeon): the job is
	 * failed at once and the ring reset, as after a timeout */
	{"amdgpu-illegal-command",
	 "((amdgpu|radeon) (" BDF "): (amdgpu: )?(\\[drm\\] \\*ERROR\\* )?|\\[drm:[a-z0-9_]+ "
	 "\\[(amdgpu|radeon)\\]\\] \\*ERROR\\* )Illegal (register access|instruction|opcode) in "
	 "(SDMA )?command stream",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a program's command buffer on the AMD GPU did an illegal {what}: the driver fails its job "
	 "and resets the ring (often the GPU), the program (a container's Mesa, Vulkan or ROCm "
	 "client) loses its context, and the display may freeze with it",
	 "restart the program; if it recurs, update the container's Mesa or ROCm and the host's "
	 "kernel and linux-firmware together, or revert the update after which it began",
	 LX_KMSG_SOLE_GPU, {{"gpu", 3}, {"what", 7}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/amd/amdgpu/gfx_v6_0.c-gfx_v12_0.c *_priv_reg_irq(): DRM_ERROR(\"Illegal "
	 "register access in command stream\\n\"), *_priv_inst_irq(): DRM_ERROR(\"Illegal "
	 "instruction in command stream\\n\"), *_bad_op_irq(): DRM_ERROR(\"Illegal opcode in command "
	 "stream\\n\"); sdma_v3_0.c-sdma_v7_0.c, cik_sdma.c, si_dma.c: DRM_ERROR(\"Illegal instruction "
	 "in SDMA command stream\\n\"); radeon's cik.c and evergreen.c irq handlers the same"},
	/* The video engine (UVD before Vega/Raven, VCN since) did not come up
	 * when started, at boot or at the first decode or encode after it was
	 * power-gated: the driver resets its VCPU up to ten times */
	{"amdgpu-vcn-not-responding",
	 "((amdgpu|radeon) (" BDF "): (amdgpu: )?|\\[drm:[a-z0-9_]+ \\[(amdgpu|radeon)\\]\\] \\*ERROR\\* )"
	 "(VCN|UVD)(\\[[0-9]+\\]|\\([0-9]+\\))?( decode| is)? not responding, (trying to reset the "
	 "VCPU|giving up)!!!",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's video engine ({engine}) did not answer when the driver started it ({action}): "
	 "hardware video decode and encode on the GPU (a container's Jellyfin, Plex or Frigate "
	 "transcode, VA-API) fail or stall, and a ring timeout or GPU reset may follow",
	 "restart the program; if it recurs, update the kernel and linux-firmware (amdgpu/*_vcn.bin, "
	 "*_uvd.bin) together or revert the update after which it began; a memory overclock or "
	 "XMP/EXPO profile of the host can cause it: try the RAM at its default speed",
	 LX_KMSG_SOLE_GPU, {{"gpu", 3}, {"engine", 6}, {"action", 9}, {"driver", 2}, {"driver", 5}},
	 "drivers/gpu/drm/amd/amdgpu/vcn_v1_0.c-vcn_v3_0.c *_start(): DRM_ERROR(\"VCN decode not "
	 "responding, trying to reset the VCPU!!!\\n\") (5.x with instances: 'VCN[%d] decode not "
	 "responding, ...'; vcn_v4_0.c and later: dev_err(adev->dev, \"VCN[%d] is not responding, "
	 "trying to reset the VCPU!!!\\n\", i)); uvd_v4_2.c-uvd_v7_0.c and radeon's uvd_v1_0.c: "
	 "DRM_ERROR(\"UVD not responding, trying to reset the VCPU!!!\\n\") (uvd_v7_0.c: 'UVD(%d) "
	 "not responding, ...'); after ten tries \"... giving up!!!\\n\""},
	/* The display's commit waited for the GPU to finish the frames it
	 * shows (amdgpu's display code, 10 s); the ring timeout right after it
	 * says which ring hung */
	{"amdgpu-dm-fence-timeout",
	 "(amdgpu (" BDF "): (amdgpu: )?\\[drm\\] \\*ERROR\\* |\\[drm:amdgpu_dm_[a-z_]+(\\.[a-z]+\\.[0-9]+)?"
	 "( \\[amdgpu\\])?\\] \\*ERROR\\* )Waiting for fences timed out",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU did not finish rendering the frames its display waited for (10 s): the GPU "
	 "is hung or stalled, the screen freezes, and a ring timeout and a GPU reset usually follow, "
	 "with what containers run on it",
	 "restart the programs using the GPU; if it recurs, update the kernel, linux-firmware and "
	 "Mesa together, or revert the update after which it began; a GPU or memory overclock can "
	 "cause it",
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_ANNOUNCES, {{"gpu", 2}},
	 "drivers/gpu/drm/amd/display/amdgpu_dm/amdgpu_dm.c amdgpu_dm_atomic_commit_tail() and "
	 "amdgpu_dm_commit_planes(): DRM_ERROR(\"Waiting for fences timed out!\") after "
	 "dma_resv_wait_timeout() of the planes' buffers (later drm_err with the address)"},
	{"amdgpu-psp-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?PSP (create ring|load [a-z_]+|tmr init|firmware loading|resume) "
	 "failed",
	 LXG145_AMD_PSP_FAILED, LX_SEVERITY_ERROR,
	 "the AMD GPU's security processor (PSP) did not start ({step} failed): amdgpu cannot load "
	 "the other engines' firmware, so the GPU does not initialize (or, after a reset, does not "
	 "come back) and no container holding it gets a working /dev/dri or /dev/kfd device",
	 "power the host off and on (a GPU left in a bad state by a virtual machine or a failed "
	 "reset needs a cold start); if it fails on every boot, install the linux-firmware of the "
	 "kernel's release (its amdgpu/psp_*_sos, _ta and _toc files) or revert the update after "
	 "which it began, then update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 4}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_psp.c psp_hw_start(): dev_err(adev->dev, \"PSP create "
	 "ring failed!\\n\"), \"PSP load %s failed!\\n\" (sos, tmr, kdb, spl, sysdrv, soc_drv, "
	 "intf_drv, dbg_drv, ras_drv, toc, asd); psp_hw_init(): \"PSP firmware loading failed\\n\"; "
	 "after a suspend or a reset, psp_resume(): \"PSP resume failed\\n\"; and \"PSP tmr init "
	 "failed!\\n\" (older kernels: DRM_ERROR with the same texts)"},
	{"amdgpu-smu-timeout",
	 "amdgpu (" BDF "): (amdgpu: )?SMU: I'm not done with your previous command(: "
	 "SMN_C2PMSG_66:(0x[0-9A-Fa-f]+) SMN_C2PMSG_82:(0x[0-9A-Fa-f]+)|!?)",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's SMU (its power management firmware) did not answer the driver (its last "
	 "request still pending): clocks, sensors and power states stop changing, and a ring "
	 "timeout, a GPU reset or (at boot) a failed init often follows, for every container "
	 "holding the GPU",
	 "restart the programs using the GPU; if it persists, reboot the host; if it recurs, "
	 "install the linux-firmware of the kernel's release (amdgpu/smu_*.bin) or revert the "
	 "update after which it began, update-initramfs -u and reboot",
	 0, {{"msg", 4}, {"gpu", 1}, {"param", 5}},
	 "drivers/gpu/drm/amd/pm/swsmu/smu_cmn.c __smu_cmn_reg_print_error(), no response "
	 "(SMU_RESP_NONE): dev_err_ratelimited(adev->dev, \"SMU: I'm not done with your previous "
	 "command: SMN_C2PMSG_66:0x%08X SMN_C2PMSG_82:0x%08X\", msg_idx, prm) (its first form, 5.13 "
	 "to 5.x: \"SMU: I'm not done with your previous command!\", no registers)"},
	{"amdgpu-smu-no-response",
	 "amdgpu (" BDF "): (amdgpu: )?SMU: No response msg_reg: ([0-9a-fA-F]+) resp_reg: ([0-9a-fA-F]+)",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's SMU (its power management firmware) did not answer the driver's message "
	 "{msg} (resp_reg {resp}): clocks, sensors and power states stop changing, and a ring "
	 "timeout, a GPU reset or (at boot) a failed init often follows, for every container "
	 "holding the GPU",
	 "restart the programs using the GPU; if it persists, reboot the host; if it recurs, "
	 "install the linux-firmware of the kernel's release (amdgpu/smu_*.bin, *_smc.bin) or "
	 "revert the kernel or firmware update after which it began, update-initramfs -u and "
	 "reboot",
	 0, {{"msg", 3}, {"gpu", 1}, {"resp", 4}},
	 "drivers/gpu/drm/amd/pm/swsmu/smu_cmn.c of the SMU message-control rework (2025-2026 "
	 "kernels), __smu_msg_v1_print_error(): for SMU_RESP_NONE, "
	 "__smu_msg_v1_print_err_limited(ctl, args, \"SMU: No response\"), which prints "
	 "dev_err(adev->dev, \"%s msg_reg: %x resp_reg: %x\", err_msg, ...); the text as printed: "
	 "\"SMU: No response msg_reg: %x resp_reg: %x\""},
	/* The SMU message path's other wordings: 5.4-6.x "failed send
	 * message" (%10s, later %15s, pads the name with spaces) and "is
	 * timeout (no response)", the pre-check of 5.4-5.15, 6.x's hung SMU,
	 * smu8's (Carrizo, Stoney APUs), and the init or resume step that
	 * gives up after them */
	{"amdgpu-smu-send-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(failed send message: *([A-Za-z0-9_]+) \\(([0-9]+)\\)"
	 "[[:space:]]*(param: (0x[0-9a-fA-F]+) )?response (-?(0x)?[0-9a-fA-F]+)|message: *([A-Za-z0-9_]+) "
	 "\\(([0-9]+)\\)[[:space:]]*param: (0x[0-9a-fA-F]+) is timeout \\(no response\\)|Msg issuing "
	 "pre-check failed(\\((0x[0-9a-fA-F]+)\\))? and SMU may be not in the right state!|SMU is in "
	 "hanged state, failed to send smu message!|Failed to setup smc hw!|"
	 "(smu8_send_msg_to_smc[a-z_]*)\\((0x[0-9a-fA-F]+)\\) aborted; SMU still servicing msg "
	 "\\((0x[0-9a-fA-F]+)\\))",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's SMU (its power management firmware) did not answer the driver ({failure}): "
	 "clocks, sensors and power states stop changing, and a ring timeout, a GPU reset or (at "
	 "boot or resume) a failed init often follows, for every container holding the GPU",
	 "restart the programs using the GPU; if it persists, reboot the host; if it recurs, "
	 "install the linux-firmware of the kernel's release (amdgpu/smu_*.bin, *_smc.bin) or "
	 "revert the kernel or firmware update after which it began, update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU,
	 {{"msg", 5}, {"msg", 11}, {"msg", 17}, {"gpu", 2}, {"response", 9}, {"failure", 4}},
	 "drivers/gpu/drm/amd/powerplay/smu_v11_0.c (5.4-5.9) smu_v11_0_send_msg_with_param(): "
	 "pr_err(\"failed send message: %10s (%d) \\tparam: 0x%08x response %#x\\n\", "
	 "smu_get_message_name(smu, msg), index, param, ret) (5.10 pm/swsmu/smu_cmn.c: dev_err, "
	 "later %15s), and for a timeout dev_err(adev->dev, \"message: %15s (%d) \\tparam: 0x%08x is "
	 "timeout (no response)\\n\", ...); pm/powerplay/smumgr/smu8_smumgr.c "
	 "smu8_send_msg_to_smc_with_parameter(): pr_err(\"%s(0x%04x) aborted; SMU still servicing "
	 "msg (0x%04x)\\n\", __func__, msg, val); 6.x smu_cmn.c: dev_err(adev->dev, \"SMU is in hanged "
	 "state, failed to send smu message!\\n\"); 5.4-5.15 the pre-check: 'Msg issuing pre-check "
	 "failed(0x%x) and SMU may be not in the right state!' (5.4-5.9 pr_err without the value); "
	 "amdgpu_smu.c smu_smc_hw_setup()'s caller: dev_err(adev->dev, 'Failed to setup smc hw!')"},
	{"amdgpu-powerplay-send-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[powerplay\\] *)?(failed to send (pre )?message "
	 "([0-9a-fA-F]+)|last message was failed) ret is (-?[0-9]+)",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's SMU (its power management firmware; powerplay's message path of GPUs "
	 "before Vega 20: Polaris, Fiji, Tonga, Hawaii) did not complete a message of the driver "
	 "({what}; response {ret}; 0: no answer yet, 65535: the GPU no longer answers on PCIe): "
	 "clocks and power states stop changing, boot "
	 "or resume stalls on it, and a ring timeout or a failed GPU reset often follows, for "
	 "every container holding the GPU",
	 "restart the programs using the GPU; if it persists, reboot the host; if it recurs, "
	 "install the linux-firmware of the kernel's release (amdgpu/*_smc.bin) or revert the "
	 "kernel or firmware update after which it began, update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"msg", 7}, {"ret", 8}, {"what", 5}},
	 "drivers/gpu/drm/amd/powerplay/smumgr/smu7_smumgr.c smu7_send_msg_to_smc() (until the "
	 "dev_* conversion of 5.10, which prints it at debug level only; pr_fmt amdgpu: "
	 "[powerplay], so the message goes on on its own line): "
	 "pr_info(\"\\n failed to send message %x ret is %d \\n\", msg, ret), before it "
	 "(5.10 on: dev_info) \"\\nlast message was failed ret is %d\\n\" when the message before "
	 "had not completed, and the older "
	 "\"\\n failed to send pre message %x ret is %d \\n\"; ci_smumgr.c ci_send_msg_to_smc() "
	 "(Hawaii, Bonaire): \"\\n failed to send message %x ret is %d\\n\", since 5.10 "
	 "dev_info(adev->dev, \"failed to send message %x ret is %d\\n\", msg, ret); ret is "
	 "SMC_RESP_0 (1: done, 0xFE: not supported, logged at debug level only)"},
	{"amdgpu-smu-disable-features-failed",
	 "amdgpu (" BDF "): (amdgpu: )?(Fail to disable dpm features!|Failed to disable smu features\\.)",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's SMU (its power management firmware) did not complete the driver's "
	 "request to turn its power features off ({step}), on suspend, GPU reset or driver "
	 "unload: the suspend or reset that needed it fails, the GPU often comes back dark or "
	 "not at all, for every container holding the GPU",
	 "power the host off and on (a GPU left in a bad state needs a cold start); if it recurs "
	 "on every suspend, avoid suspend on this host, install the linux-firmware of the "
	 "kernel's release (amdgpu/smu_*.bin) or revert the kernel or firmware update after "
	 "which it began, update-initramfs -u and reboot",
	 LX_KMSG_RESTATES, {{"gpu", 1}, {"step", 3}},
	 "drivers/gpu/drm/amd/pm/swsmu/amdgpu_smu.c (earlier powerplay/amdgpu_smu.c): smu_disable_dpms(): "
	 "dev_err(adev->dev, \"Failed to disable smu features.\\n\") when the SMU does not "
	 "complete the message that turns its features off; smu_smc_hw_cleanup(), from "
	 "smu_suspend() and smu_hw_fini(): dev_err(adev->dev, \"Fail to disable dpm "
	 "features!\\n\") (both after the SMU's own line, I'm not done or response, when that "
	 "was logged: one cause, not counted again)"},
	{"amdgpu-dmcub-error",
	 "(amdgpu (" BDF "): )?(\\[drm[^]]*\\] \\*ERROR\\* )?dc_dmub_srv_log_diagnostic_data: DMCUB "
	 "error - collecting diagnostic data",
	 LXG146_AMD_DMCUB_ERROR, LX_SEVERITY_WARNING,
	 "the AMD GPU's display microcontroller (DMCUB) stopped answering the display driver: "
	 "the display freezes or stays dark and the GPU may hang with it, and with it what "
	 "containers run on it (transcoding, ROCm); seen when linux-firmware's DMCUB file "
	 "(amdgpu/dcn_*_dmcub.bin) does not suit the kernel (linux-firmware 20250613 and 20250621)",
	 "install the linux-firmware of a release that worked with this kernel (revert the update "
	 "after which it began), update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}},
	 "drivers/gpu/drm/amd/display/dc/dc_dmub_srv.c dc_dmub_srv_log_diagnostic_data(): "
	 "DC_LOG_ERROR(\"%s: DMCUB error - collecting diagnostic data\\n\", __func__), printed by "
	 "drm_err with its [drm] *ERROR* prefix"},	/* amdgpu's GPU VM page faults (gmc_v6-v12): one finding per GPU, the
	 * processes its lines name; the detail lines join it */
	{"amdgpu-vm-fault",
	 "amdgpu (" BDF "): (amdgpu: )?\\[([a-z]+hub[0-9]*)\\] ((no-)?retry |VMC |UTCL2 )?page fault "
	 "\\(src_id:[0-9]+ ring:[0-9]+ vm_?id:([0-9]+) pas_?id:([0-9]+)(, for process (.*) pid ([0-9]+) "
	 "thread .* pid [0-9]+\\))?",
	 LXG150_AMD_VM_FAULT, LX_SEVERITY_WARNING,
	 "a program's memory access on the AMD GPU faulted ({hub}: process {process}, pid {pid}, "
	 "pasid {pasid}): the GPU page it used is not mapped or not allowed; the program's GPU "
	 "work is ended (ROCm: \"Memory access fault by GPU\"), and a GPU hang and reset often "
	 "follow (a container's ROCm, Vulkan or VA-API program on it)",
	 "see which program it is (the process named; pasid 0: the kernel's own work); run ROCm "
	 "and Mesa releases that support this GPU, without HSA_OVERRIDE_GFX_VERSION passing it off "
	 "as another GPU; update the program or report it to its authors; if every program "
	 "faults, update the kernel and linux-firmware together",
	 0, {{"gpu", 1}, {"hub", 3}, {"process", 9}, {"pid", 10}, {"pasid", 7}, {"kind", 4}},
	 "drivers/gpu/drm/amd/amdgpu/gmc_v9_0.c gmc_v9_0_process_interrupt(): dev_err(adev->dev, "
	 "\"[%s] %s page fault (src_id:%u ring:%u vmid:%u pasid:%u)\\n\", hub_name, retry or "
	 "no-retry, ...); gmc_v10_0.c, gmc_v11_0.c, gmc_v12_0.c: \"[%s] page fault (src_id:%u "
	 "ring:%u vmid:%u pasid:%u)\\n\" (hub_name gfxhub0, mmhub0, mmhub1; 5.x: \"...pasid:%u, "
	 "for process %s pid %d thread %s pid %d)\\n\" on the same line; 4.15-4.19: \"[%s] VMC "
	 "page fault (src_id:%u ring:%u vmid:%u pasid:%u)\\n\" or \"UTCL2 page fault\", hub gfxhub "
	 "or mmhub; gmc_v10 of 5.x with the process on the line too)"},
	{"amdgpu-vm-fault-process",
	 "amdgpu (" BDF "): (amdgpu: )? *(for|in) process (.*) pid ([0-9]+) thread .* pid [0-9]+\\)",
	 LXG150_AMD_VM_FAULT, LX_SEVERITY_WARNING,
	 "a program's memory access on the AMD GPU faulted (process {process}, pid {pid}; the "
	 "fault's headline is not in the log): its GPU work is ended, and a hang and reset often "
	 "follow",
	 "see which program it is; run ROCm and Mesa releases that support this GPU, without "
	 "HSA_OVERRIDE_GFX_VERSION; update the program or report it to its authors",
	 LX_KMSG_RESTATES, {{"gpu", 1}, {"process", 4}, {"pid", 5}},
	 "the faulting process, printed as a record of its own after the page fault's headline "
	 "(6.x kernels): gmc_v9_0.c dev_err(adev->dev, \" for process %s pid %d thread %s pid "
	 "%d)\\n\", ...), gmc_v10_0.c, gmc_v11_0.c dev_err(adev->dev, \" in process %s pid %d "
	 "thread %s pid %d)\\n\", ...)"},
	{"amdgpu-vm-fault-detail",
	 "(amdgpu|radeon) (" BDF "): (amdgpu: )?( *in page starting at address (0x[0-9a-fA-F]+)|"
	 "[ \t]*Faulty UTCL2 client ID: [A-Za-z0-9_]+ \\(0x[0-9a-fA-F]+\\)|"
	 "((GC|MM)?VM_L2_PROTECTION_FAULT_STATUS):0x[0-9A-Fa-f]+| *at page (0x[0-9a-fA-F]+) from [0-9]+|"
	 " *VM_CONTEXT1_PROTECTION_FAULT_(ADDR|STATUS) +0x[0-9A-Fa-f]+|VM fault \\(0x[0-9a-f]+, vmid "
	 "[0-9]+(, pasid [0-9]+)?\\) at page [0-9]+)",
	 LXG150_AMD_VM_FAULT, LX_SEVERITY_WARNING,
	 "a memory access on the AMD GPU faulted (the page fault's detail lines; the line that "
	 "names the process is not in the log): the program's GPU work is ended, and a hang and "
	 "reset often follow",
	 "find the program (the lines before these in the full log: \"page fault\" and \"process\"); "
	 "run ROCm and Mesa releases that support this GPU, without HSA_OVERRIDE_GFX_VERSION; "
	 "update the program or report it; if every program faults, update the kernel and "
	 "linux-firmware together",
	 LX_KMSG_RESTATES, {{"gpu", 2}, {"driver", 1}, {"detail", 4}},
	 "the lines after a fault's headline: gfxhub_v2_0.c, gfxhub_v3_0.c, mmhub_v2_0.c "
	 "print_l2_protection_fault_status(): \"\\t Faulty UTCL2 client ID: %s (0x%x)\\n\"; "
	 "gmc_v9_0.c \"  in page starting at address 0x%016llx "
	 "from IH client 0x%x (%s)\\n\" (5.x: \"from client %d\"; 4.x: \"  at page 0x%016llx from "
	 "%d\\n\"), \"VM_L2_PROTECTION_FAULT_STATUS:0x%08X\\n\"; gfxhub_v2_0.c, gfxhub_v3_0.c "
	 "\"GCVM_L2_PROTECTION_FAULT_STATUS:0x%08X\\n\", mmhub_v2_0.c \"MMVM_L2_PROTECTION_FAULT_"
	 "STATUS:0x%08X\\n\"; gmc_v6/v7/v8_0.c \"  VM_CONTEXT1_PROTECTION_FAULT_ADDR   0x%08X\\n\", "
	 "\"  VM_CONTEXT1_PROTECTION_FAULT_STATUS 0x%08X\\n\", gmc_v8_0_vm_decode_fault(): \"VM fault "
	 "(0x%02x, vmid %d, pasid %d) at page %u, %s from '%s' (0x%08x) (%d)\\n\" (radeon's cik.c, "
	 "si.c the same)"},
	{"amdgpu-gpu-fault-detected",
	 "(amdgpu|radeon) (" BDF "): (amdgpu: )?GPU fault detected: ([0-9]+) (0x[0-9a-fA-F]+)( for "
	 "process (.*) pid ([0-9]+) thread .* pid [0-9]+)?",
	 LXG150_AMD_VM_FAULT, LX_SEVERITY_WARNING,
	 "a program's memory access on the AMD GPU faulted (GPU fault {src}, process {process}, pid "
	 "{pid}; a GCN GPU of the gmc_v6-v8 generations: Southern Islands to Polaris): its GPU work "
	 "is ended, and a hang and reset often follow",
	 "see which program it is (the process named); run ROCm and Mesa releases that support "
	 "this GPU; update the program or report it to its authors; if every program faults, update "
	 "the kernel and linux-firmware together",
	 0, {{"gpu", 2}, {"src", 4}, {"process", 7}, {"pid", 8}, {"driver", 1}},
	 "drivers/gpu/drm/amd/amdgpu/gmc_v8_0.c gmc_v8_0_process_interrupt(): dev_err(adev->dev, "
	 "\"GPU fault detected: %d 0x%08x\\n\", entry->src_id, entry->src_data[0]) (4.19-5.x: "
	 "\"GPU fault detected: %d 0x%08x for process %s pid %d thread %s pid %d\\n\"); gmc_v6_0.c, "
	 "gmc_v7_0.c, radeon's cik.c and si.c the same headline (amdgpu's dev_fmt \"amdgpu: \" after "
	 "the address in newer kernels)"},
	/* the engines that stop answering: IB tests, KIQ register access,
	 * amdkfd's hardware scheduler (HWS) preemption */
	{"amdgpu-ib-test-failed",
	 "((amdgpu|radeon) (" BDF "): )?(amdgpu: |\\[drm\\] \\*ERROR\\* )?(\\[drm:[a-z0-9_]+ \\[(amdgpu|radeon)\\]\\] "
	 "\\*ERROR\\* )?(\\(([0-9]+)\\))?((amdgpu|radeon): )?((IB test failed on|failed testing IB on( ring)?) "
	 "([A-Za-z0-9_.]+)( ring)?|(amdgpu|radeon): ib test failed) "
	 "\\(((scratch\\(0x[0-9a-fA-F]+\\)=)?-?(0x)?[0-9a-fA-F]+)\\)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's ring {ring} did not run the driver's test command buffer (IB test, {error}; "
	 "-110: no answer in time): its engine does not work (at boot the driver goes on without it, "
	 "or without acceleration when it is the GFX ring; after a reset or resume it did not come "
	 "back); programs using it (ROCm compute on comp_* rings, video on vcn/uvd, in every "
	 "container holding the GPU) fail or hang",
	 "reboot the host (power it off if it recurs); if it fails on every boot, install the "
	 "linux-firmware of the kernel's release or revert the kernel or firmware update after "
	 "which it began",
	 LX_KMSG_SOLE_AMDGPU,
	 {{"gpu", 3}, {"ring", 14}, {"error", 17}, {"driver", 2}, {"driver", 10}, {"driver", 16}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_ib.c amdgpu_ib_ring_tests(): DRM_DEV_ERROR(adev->dev, "
	 "\"IB test failed on %s (%d).\\n\", ring->name, r) (newer: dev_err); drivers/gpu/drm/radeon/"
	 "radeon_ib.c radeon_ib_ring_tests(): DRM_ERROR(\"radeon: failed testing IB on GFX ring "
	 "(%d).\\n\", r) and, for another ring, \"radeon: failed testing IB on ring %d (%d).\\n\", which "
	 "amdgpu_ib.c printed as \"amdgpu: ...\" before 4.16; each block's test_ib() of those kernels: "
	 "gfx_v6_0.c-gfx_v9_0.c and r600.c/cik.c DRM_ERROR(\"amdgpu: ib test failed "
	 "(scratch(0x%04X)=0x%08X)\\n\") (radeon: \"radeon: ...\"), sdma the value alone"},
	{"amdgpu-ib-ring-tests-failed",
	 "((amdgpu|radeon) (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_]+ \\[(amdgpu|radeon)\\]\\] \\*ERROR\\* )?"
	 "ib ring test failed \\((-?[0-9]+)\\)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "an engine of the AMD GPU did not run the driver's test command buffer ({error}; -110: no "
	 "answer in time): programs using it (in every container holding the GPU) fail or hang",
	 "reboot the host (power it off if it recurs); if it fails on every boot, install the "
	 "linux-firmware of the kernel's release or revert the update after which it began",
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_RESTATES, {{"gpu", 3}, {"error", 7}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_delayed_init_work_handler() "
	 "(and amdgpu_device_ip_late_init() of 4.x): DRM_ERROR(\"ib ring test failed (%d).\\n\", "
	 "r), after amdgpu_ib.c's line naming the ring (newer kernels: dev_err); radeon_device.c "
	 "radeon_gpu_reset() after a reset: dev_err(rdev->dev, the same words)"},
	{"amdgpu-kiq-timeout",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_]+ \\[amdgpu\\]\\] \\*ERROR\\* )?"
	 "(failed to write reg [0-9a-fA-F]+ wait reg [0-9a-fA-F]+|timeout waiting for kiq fence|"
	 "wait for kiq fence error: -?[0-9]+)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's kernel interface queue (KIQ, the compute engine's firmware the driver "
	 "sends register writes and TLB flushes through) did not answer ({step}): the GPU's "
	 "compute and graphics engines have stopped; programs on it (in every container holding "
	 "it) hang, and a GPU reset often follows",
	 "restart the programs using the GPU, reboot the host if it persists; if it recurs, update "
	 "the kernel and linux-firmware together, or revert the update after which it began "
	 "(APUs: check the system firmware's UMA/IOMMU settings)",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 5}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_virt.c amdgpu_virt_kiq_reg_write_reg_wait() (later "
	 "amdgpu_gmc.c amdgpu_gmc_fw_reg_write_reg_wait()): dev_err(adev->dev, \"failed to write "
	 "reg %x wait reg %x\\n\", reg0, reg1) (older: pr_err); amdgpu_gmc.c "
	 "amdgpu_gmc_flush_gpu_tlb_pasid(): dev_err(adev->dev, \"timeout waiting for kiq "
	 "fence\\n\"); gmc_v9_0.c of 5.x: DRM_ERROR(\"wait for kiq fence error: %ld.\\n\", r)"},
	{"amdgpu-kiq-reg-failed",
	 "(amdgpu (" BDF "): (amdgpu: )?|amdgpu: |\\[drm:[a-z0-9_]+ \\[amdgpu\\]\\] \\*ERROR\\* )failed to "
	 "(read|write) reg:([0-9a-fA-F]+)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's kernel interface queue (KIQ) did not complete a register {rw} of "
	 "{reg}: the GPU's compute and graphics engines have stopped; programs on it (in every "
	 "container holding it) hang, and a GPU reset often follows",
	 "restart the programs using the GPU, reboot the host if it persists; if it recurs, update "
	 "the kernel and linux-firmware together, or revert the update after which it began",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"rw", 4}, {"reg", 5}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_gfx.c amdgpu_kiq_rreg(): dev_err(adev->dev, \"failed "
	 "to read reg:%x\\n\", reg), amdgpu_kiq_wreg(): \"failed to write reg:%x\\n\" (older: "
	 "pr_err with amdgpu's \"amdgpu: \" prefix)"},
	/* The GPU did not acknowledge a flush of its page-table caches (TLB):
	 * its memory hub, or the engine asked to flush, no longer answers */
	{"amdgpu-vm-flush-timeout",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:[a-z0-9_]+( \\[amdgpu\\])?\\] \\*ERROR\\* )?"
	 "(Timeout waiting for VM flush (ACK|hub: ?[0-9]+)!?|Timeout waiting for sem acquire in VM "
	 "flush!?|Error flushing GPU TLB using the SDMA \\((-?[0-9]+)\\)!?|TLB flush failed for "
	 "PASID ([0-9]+)\\.?)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU did not finish a flush of its page-table caches (\"{step}\"): its memory hub "
	 "or the engine doing the flush no longer answers, so programs using it (in every "
	 "container holding it) see their jobs time out or fault, and a GPU reset usually follows",
	 "restart the programs using the GPU, reboot if it stays hung; if it recurs, update the "
	 "kernel and linux-firmware together, or revert the update after which it began",
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_RESTATES, {{"gpu", 2}, {"step", 6}},
	 "drivers/gpu/drm/amd/amdgpu/gmc_v9_0.c, gmc_v11_0.c *_flush_gpu_tlb(): dev_err(adev->dev, "
	 "\"Timeout waiting for VM flush ACK!\\n\") (4.x-5.x: DRM_ERROR, no address); gmc_v10_0.c: "
	 "\"Timeout waiting for VM flush hub: %d!\\n\"; gmc_v12_0.c gmc_v12_0_flush_vm_hub(): "
	 "\"Timeout waiting for sem acquire in VM flush!\\n\"; amdgpu_gmc.c amdgpu_gmc_flush_gpu_tlb() "
	 "(gmc_v10_0.c before 6.x): \"Error flushing GPU TLB using the SDMA (%d)!\\n\"; "
	 "amdgpu_vm_tlb_fence.c amdgpu_tlb_fence_work(): \"TLB flush failed for PASID %d.\\n\""},
	{"kfd-preemption-timeout",
	 "(amdgpu (" BDF "): )?(amdgpu: |kfd kfd: (amdgpu: )?)?(HIQ MQD's queue_doorbell_id0 is not 0, Queue "
	 "preemption time out|The cp might be in an unrecoverable state due to an unsuccessful "
	 "queues preemption|qcm fence wait loop timeout expired|(XCC [0-9]+: )?Queue preemption failed "
	 "for queue with doorbell_id: [0-9a-fA-F]+)",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "amdkfd's hardware scheduler on the AMD GPU (the compute firmware that runs ROCm queues) "
	 "did not preempt its queues in time ({step}): ROCm programs on the GPU hang (in every "
	 "container holding it), and the driver resets the GPU, ending all their work",
	 "stop the ROCm programs using the GPU and reboot the host if it stays hung; if it recurs, "
	 "run ROCm and the kernel of releases that support the GPU (no HSA_OVERRIDE_GFX_VERSION), "
	 "update the kernel and linux-firmware together, or revert the update after which it began",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 5}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_device_queue_manager.c unmap_queues_cpsch(): "
	 "dev_err(dev, \"HIQ MQD's queue_doorbell_id0 is not 0, Queue preemption time out\\n\") "
	 "(older: pr_err), then kfd_hws_hang(); execute_queues_cpsch() (4.x-5.x): pr_err(\"The cp "
	 "might be in an unrecoverable state due to an unsuccessful queues preemption\\n\"); "
	 "amdkfd_fence_wait_timeout(): \"qcm fence wait loop timeout expired\\n\"; 6.x "
	 "kfd_check_hiq_mqd_doorbell_id(): dev_err(dev, \"Queue preemption failed for queue with "
	 "doorbell_id: %x\\n\", doorbell_id) (partitioned GPUs: 'XCC %d: ' before it)"},
	{"kfd-evict-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: |kfd kfd: (amdgpu: )?)?(Failed to (evict|restore) process "
	 "queues|Failed to quiesce KFD|Resetting wave fronts \\((no)?cpsch\\) on dev|Failed to evict "
	 "queue [0-9]+|Failed to suspend process (pid )?(0x[0-9a-fA-F]+|[0-9]+)|remove_all_(kfd_)?queues_mes: "
	 "Failed to remove queue [0-9]+ for dev [0-9]+|add_all_(kfd_)?queues_mes: Failed to add queue "
	 "[0-9]+ for dev [0-9]+|Failed to restore queue [0-9]+|failed to execute runlist)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "amdkfd could not stop or restart a ROCm program's queues on the AMD GPU ({step}): the "
	 "hardware scheduler is hung, ROCm programs on the GPU (in every container holding it) "
	 "stop, and a GPU reset often follows",
	 "stop the ROCm programs using the GPU and reboot the host if it stays hung; if it recurs, "
	 "update the kernel and linux-firmware together, or revert the update after which it began",
	 LX_KMSG_SOLE_AMDGPU | LX_KMSG_RESTATES, {{"gpu", 2}, {"step", 5}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_process.c kfd_process_evict_queues(): \"Failed to evict "
	 "...\\n\" ('Failed to evict process queues', pr_err, newer dev_err; with MES, 6.2 and "
	 "later, kfd_device_queue_manager.c evict_process_queues_cpsch()'s 'Failed to evict queue %d'), "
	 "kfd_process_restore_queues(): 'Failed to "
	 "restore process queues'; kgd2kfd_quiesce_mm(): \"Failed to quiesce KFD\\n\"; "
	 "map_queues_cpsch(): dev_err(dev, \"failed to execute runlist\\n\") (6.x), "
	 "remove_all_queues_mes() (later remove_all_kfd_queues_mes()): pr_err(\"%s: Failed to remove "
	 "queue %d for dev %d\", __func__, ...) (later dev_err); "
	 "dbgdev_wave_reset_wavefronts() path: pr_err('Resetting wave fronts (%s) on dev %p', "
	 "'cpsch' or 'nocpsch', dev) when a process's queues could not be preempted; "
	 "kfd_suspend_all_processes(): pr_err('Failed to suspend process 0x%x', pasid) (6.x: 'Failed "
	 "to suspend process pid 0x%x', later 'pid %d'); 6.x add_all_kfd_queues_mes(): '%s: Failed to "
	 "add queue %d for dev %d', restore_process_queues_cpsch(): 'Failed to restore queue %d', "
	 "each after the preemption failure "
	 "it follows"},
	/* kernel modesetting off: amdgpu, radeon, i915 and xe refuse to load */
	{"modeset-disabled-vgacon",
	 "(\\[drm:[a-z_]+( \\[(amdgpu|radeon)\\])?\\] \\*ERROR\\* |\\[drm\\] )?(VGACON disables? |No UMS "
	 "support in )(amdgpu|radeon) (kernel modesetting|module)",
	 LXG153_MODESET_DISABLED, LX_SEVERITY_ERROR,
	 "kernel modesetting is off (nomodeset, or a text console forced with vga=/vgacon), so "
	 "{driver} refused to load: the AMD GPU has no driver, no /dev/dri or /dev/kfd node, and "
	 "containers get no GPU from it",
	 "remove nomodeset (and {driver}.modeset=0) from the kernel command line "
	 "(GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub then update-grub, or /etc/kernel/cmdline "
	 "then proxmox-boot-tool refresh), reboot; a recovery boot entry adds nomodeset itself",
	 LX_KMSG_DISPLAY_GPU, {{"driver", 5}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c amdgpu_init() (4.x-5.13, vgacon_text_force() with "
	 "modeset unset): DRM_ERROR(\"VGACON disables amdgpu kernel modesetting.\\n\"); radeon_drv.c "
	 "radeon_module_init(): DRM_INFO(\"VGACON disable radeon kernel modesetting.\\n\"), and with "
	 "radeon.modeset=0 or nomodeset (4.x-5.x) DRM_ERROR(\"No UMS support in radeon module!\\n\"); later "
	 "kernels (drm_firmware_drivers_only(), nomodeset) refuse silently: the command line says "
	 "it"},
	{"modeset-disabled-cmdline",
	 "Kernel command line: (.* )?(nomodeset|(amdgpu|radeon|i915|xe)\\.modeset=0)( .*)?$",
	 LXG153_MODESET_DISABLED, LX_SEVERITY_ERROR,
	 "the kernel command line has {param}: kernel modesetting is off, so {driver} does not "
	 "load (drm_firmware_drivers_only) and the GPU has no driver, no /dev/dri (or /dev/kfd) "
	 "node, and containers get no GPU from it",
	 "remove {param} from the kernel command line (GRUB_CMDLINE_LINUX_DEFAULT in "
	 "/etc/default/grub then update-grub, or /etc/kernel/cmdline then proxmox-boot-tool "
	 "refresh), reboot; a recovery boot entry adds nomodeset itself",
	 LX_KMSG_DISPLAY_GPU, {{"param", 2}, {"driver", 3}},
	 "init/main.c start_kernel(): pr_notice(\"Kernel command line: %s\\n\", saved_command_line); "
	 "drivers/gpu/drm/drm_nomodeset.c: nomodeset sets drm_firmware_drivers_only(), which "
	 "amdgpu_init(), radeon_module_init(), i915's i915_module_init() (i915_pci_register_driver "
	 "skipped) and xe_module.c check; <driver>.modeset=0 does the same for one driver"},	/* AMD RAS: uncorrectable (ECC) and poison errors, retired pages */
	{"amdgpu-ras-ue",
	 "(amdgpu (" BDF "): (amdgpu: )?|amdgpu: |\\[drm\\] )(\\{[0-9]+\\})?(socket: [0-9]+, die: [0-9]+, )?"
	 "(([1-9][0-9]*) (new )?uncorrectable hardware errors( and [0-9]+ deferred hardware errors)?|"
	 "0 uncorrectable hardware errors and ([1-9][0-9]*) deferred hardware errors|([1-9][0-9]*) new "
	 "deferred hardware errors) detected in ([A-Za-z0-9_]+) block",
	 LXG154_AMD_RAS_ERROR, LX_SEVERITY_ERROR,
	 "the AMD GPU's RAS reported uncorrectable hardware errors ({count} in its {block} block; "
	 "umc: its memory, ECC could not correct them): the data of the programs using it is "
	 "corrupt, they are stopped and the GPU reset; pages that failed are retired",
	 "restart the programs on the GPU after its reset; if it recurs, the GPU's memory is "
	 "failing: move the work off it and have it serviced (AMD's Service Action Guide), check "
	 "its cooling and power",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"count", 7}, {"count", 10}, {"count", 11}, {"block", 12}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_ras.c amdgpu_ras_error_print_error_data() and the "
	 "query paths: dev_info(adev->dev, \"%ld uncorrectable hardware errors detected in %s "
	 "block\\n\", ...); 6.5 and later: \"socket: %d, die: %d, %lld new uncorrectable hardware "
	 "errors detected in %s block\\n\" (with RAS event ids: '{%llu}' before it); "
	 "amdgpu_umc.c amdgpu_umc_do_page_retirement() (6.x): \"%ld uncorrectable hardware errors "
	 "and %ld deferred hardware errors detected in UMC block\\n\" (5.x: '%ld uncorrectable "
	 "hardware errors detected in UMC block', without the address: 'amdgpu: ' or DRM_INFO's "
	 "'[drm] ' before it); for poisoned data \"socket: %d, die: %d, %lld new deferred hardware "
	 "errors detected in %s block\\n\"; correctable ones ('... correctable hardware errors "
	 "detected in %s block') are no finding"},
	{"amdgpu-ras-fatal",
	 "amdgpu (" BDF "): (amdgpu: )?(\\{[0-9]+\\})?(uncorrectable hardware error ?\\((ERREVENT_ATHUB_"
	 "INTERRUPT)\\) detected!?|RAS controller interrupt triggered by NBIF error)",
	 LXG154_AMD_RAS_ERROR, LX_SEVERITY_ERROR,
	 "the AMD GPU raised a fatal RAS error (\"{event}\": an uncorrectable hardware error "
	 "the data fabric could not contain): the driver resets the GPU, every program on it (in "
	 "every container holding it) loses its work",
	 "restart the programs after the reset; if it recurs, the GPU (or its slot, riser or "
	 "power) is failing: move the work off it and have it serviced",
	 0, {{"gpu", 1}, {"event", 4}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_ras.c amdgpu_ras_global_ras_isr(): dev_info(adev->dev, "
	 "\"uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) detected!\\n\") (6.x with the RAS "
	 "event id: \"{%llu}uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) detected!\\n\"); "
	 "nbio_v7_4.c nbio_v7_4_handle_ras_controller_intr_no_bifring(): \"RAS controller "
	 "interrupt triggered by NBIF error\\n\""},
	{"amdgpu-ras-poison",
	 "amdgpu (" BDF "): (amdgpu: )?(\\{[0-9]+\\})?(poison is consumed by client ([0-9]+)|RAS poison "
	 "consumption, fall back to gpu reset flow: client id ([0-9]+))",
	 LXG154_AMD_RAS_ERROR, LX_SEVERITY_ERROR,
	 "a program on the AMD GPU read memory the GPU had marked poisoned (an uncorrectable "
	 "error, RAS client {client}): amdkfd signals the program and the driver resets the GPU, "
	 "every program on it (in every container holding it) loses its work",
	 "restart the programs after the reset; if it recurs, the GPU's memory is failing: move "
	 "the work off it and have it serviced",
	 0, {{"gpu", 1}, {"client", 5}},
	 "drivers/gpu/drm/amd/amdkfd/kfd_int_process_v9.c event_interrupt_poison_consumption_v9(): "
	 "dev_warn(dev->adev->dev, \"poison is consumed by client %d, kick off gpu reset flow\\n\", "
	 "client_id) (6.x: RAS_EVENT_LOG with the event id \"{%llu}\"); 5.19-6.1: \"RAS poison "
	 "consumption, fall back to gpu reset flow: client id %d\\n\""},
	{"amdgpu-ras-bad-pages",
	 "amdgpu (" BDF "): (amdgpu: )?(RAS records:([0-9]+) exceed threshold:([0-9]+)|Saved bad pages "
	 "([0-9]+) reaches threshold value ([0-9]+))",
	 LXG154_AMD_RAS_ERROR, LX_SEVERITY_ERROR,
	 "the AMD GPU has retired more bad memory pages ({records}) than its threshold "
	 "({threshold}): amdgpu marks it for replacement and, with the default threshold, does "
	 "not initialize it (\"GPU will not be initialized\"); containers get no GPU from it",
	 "have the GPU serviced or replaced (AMD's Service Action Guide); to run it anyway, "
	 "amdgpu.bad_page_threshold=-2 (or a higher count) on the kernel command line or in "
	 "/etc/modprobe.d, then reboot",
	 0, {{"gpu", 1}, {"records", 4}, {"threshold", 5}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_ras_eeprom.c amdgpu_ras_eeprom_init(): dev_err(adev->dev, "
	 "\"RAS records:%d exceed threshold:%d, GPU will not be initialized. Replace this GPU or "
	 "increase the threshold\", ...) (later: \"RAS records:%d exceed threshold:%d\" then \"GPU "
	 "will be initialized due to bad_page_threshold = -1.\" or the SAG notice); "
	 "amdgpu_ras_eeprom_append(): \"Saved bad pages %d reaches threshold value %d\\n\""},
	/* the SMU does not come up, or refuses a message */
	{"amdgpu-smc-not-ready",
	 "^(amdgpu (" BDF "): |amdgpu: )?(amdgpu: )?(SMC is not ready|SMU is not ready yet!|SMC engine is "
	 "not correctly up!)",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's SMU (its power management firmware) did not come up ({step}), at init or "
	 "on resume: amdgpu cannot start the GPU's power management, the init or resume fails "
	 "and containers holding the GPU get no working GPU",
	 "power the host off and on (a GPU left in a bad state by a suspend, a VM or a failed "
	 "reset needs a cold start); if it recurs, avoid suspend on this host, install the "
	 "linux-firmware of the kernel's release (amdgpu/smu_*.bin) or revert the update after "
	 "which it began, update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 4}},
	 "drivers/gpu/drm/amd/pm/swsmu/amdgpu_smu.c smu_start_smc_engine(): dev_err(adev->dev, \"SMC "
	 "is not ready\\n\") (5.x: pr_err), then smu_hw_init() and smu_resume(): dev_err(adev->dev, "
	 "\"SMC engine is not correctly up!\\n\") (5.x: pr_err(\"SMU is not ready yet!\\n\"))"},
	/* the SMU's answer read back as all ones: the GPU no longer answers
	 * its register reads (also the SMU's LXG149 above) */
	{"amdgpu-smu-all-ones",
	 "amdgpu (" BDF "): (amdgpu: )?SMU: response:0xFFFFFFFF for index:([0-9]+) param:(0x[0-9A-Fa-f]+) "
	 "message:([A-Za-z0-9_]+)",
	 LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the AMD GPU stopped answering on PCIe: its SMU's answer to {msg} read back as all ones "
	 "(0xFFFFFFFF), as every read of a device gone from the bus does (power, heat, a bad riser, "
	 "slot or cable, an eGPU unplugged); every container holding it loses it until the host is "
	 "power-cycled",
	 FIX_FALLEN, LX_KMSG_ALSO, {{"gpu", 1}, {"msg", 5}},
	 "drivers/gpu/drm/amd/pm/swsmu/smu_cmn.c __smu_cmn_reg_print_error(): dev_err(adev->dev, "
	 "\"SMU: response:0x%08X for index:%d param:0x%08X message:%s?\", ...) for SMU_RESP_UNEXP "
	 "(~0U), printed at once when amdgpu_device_bus_status_check() finds the device off the bus "
	 "(6.9 and later; before, the same line through dev_err_ratelimited())"},
	{"amdgpu-smu-response",
	 "amdgpu (" BDF "): (amdgpu: )?SMU: (response:(0x[0-9A-Fa-f]+) for|I'm very busy for your "
	 "command:|valid command, bad prerequisites:|unknown command:) index:([0-9]+) "
	 "param:(0x[0-9A-Fa-f]+) message:([A-Za-z0-9_]+)",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's SMU (its power management firmware) refused or failed the driver's "
	 "message {msg} ({answer}; 0xFFFFFFFF: the GPU no longer answers on the bus): clocks "
	 "and power states stop changing, a ring timeout, a reset or a failed resume often "
	 "follows, for every container holding the GPU",
	 "restart the programs using the GPU; if it persists, reboot the host; if it recurs, "
	 "install the linux-firmware of the kernel's release (amdgpu/smu_*.bin: an \"unknown "
	 "command\" is a firmware older than the kernel) or revert the update after which it "
	 "began, update-initramfs -u and reboot",
	 0, {{"gpu", 1}, {"msg", 7}, {"answer", 3}, {"index", 5}},
	 "drivers/gpu/drm/amd/pm/swsmu/smu_cmn.c __smu_cmn_reg_print_error(): "
	 "dev_err_ratelimited(adev->dev, \"SMU: response:0x%08X for index:%d param:0x%08X "
	 "message:%s?\", ...) and, by the response, \"SMU: unknown command: index:%d param:0x%08X "
	 "message:%s\", \"SMU: valid command, bad prerequisites: index:%d param:0x%08X "
	 "message:%s\", \"SMU: I'm very busy for your command: index:%d param:0x%08X message:%s\""},
	{"amdgpu-smu-enable-features-failed",
	 "amdgpu (" BDF "): (amdgpu: )?Failed to enable requested dpm features!",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's SMU (its power management firmware) did not turn its power features on, "
	 "at init or on resume: the init or resume of its SMU fails, and containers holding the "
	 "GPU get no working GPU",
	 "power the host off and on; if it recurs, install the linux-firmware of the kernel's "
	 "release (amdgpu/smu_*.bin) or revert the update after which it began, "
	 "update-initramfs -u and reboot",
	 LX_KMSG_RESTATES, {{"gpu", 1}},
	 "drivers/gpu/drm/amd/pm/swsmu/amdgpu_smu.c smu_smc_hw_setup(): dev_err(adev->dev, "
	 "\"Failed to enable requested dpm features!\\n\")"},
	/* init failures: the driver core's probe failure, gpu_info, recovery off */
	{"amdgpu-probe-failed",
	 "amdgpu: probe of (" BDF ") failed( with error (-?[0-9]+)|$)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 CAUSE_AMDGPU_PROBE, FIX_AMDGPU_PROBE,
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_RESTATES, {{"gpu", 1}, {"error", 3}},
	 "drivers/base/dd.c really_probe() (before 6.2): pr_warn(\"%s: probe of %s failed with "
	 "error %d\\n\", drv->name, dev_name(dev), ret), after amdgpu_pci_probe() returned an error"},
	{"amdgpu-probe-driver-failed",
	 "amdgpu (" BDF "): probe with driver amdgpu failed( with error (-?[0-9]+)|$)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 CAUSE_AMDGPU_PROBE, FIX_AMDGPU_PROBE,
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_RESTATES, {{"gpu", 1}, {"error", 3}},
	 "drivers/base/dd.c call_driver_probe() (6.2 and later): dev_err(dev, \"probe with driver "
	 "%s failed with error %d\\n\", drv->name, ret)"},
	{"amdgpu-gpu-info-failed",
	 "amdgpu (" BDF "): (amdgpu: )?Failed to (load|get) gpu_info firmware \"(amdgpu/[^\"]+)\"",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "amdgpu could not load the AMD GPU's gpu_info firmware {file} (the table of the GPU's "
	 "configuration it needs at init): the GPU does not initialize",
	 "install a linux-firmware of a version that has {file} (Proxmox: pve-firmware; Debian: "
	 "firmware-amd-graphics), or revert the update that removed it; update-initramfs -u and "
	 "reboot",
	 LX_KMSG_RESTATES, {{"file", 4}, {"gpu", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_parse_gpu_info_fw(): "
	 "dev_err(adev->dev, \"Failed to load gpu_info firmware \\\"%s\\\"\\n\", fw_name) (6.x, "
	 "amdgpu_ucode_request(): \"Failed to get gpu_info firmware \\\"%s\\\"\\n\"), after the "
	 "loader's \"Direct firmware load\" line for the same file"},
	{"amdgpu-recovery-disabled",
	 "(amdgpu (" BDF "): (amdgpu: )?|\\[drm\\] )GPU recovery disabled",
	 LXG142_GPU_HANG, LX_SEVERITY_ERROR,
	 "the AMD GPU hung and amdgpu does not reset it (GPU recovery disabled: amdgpu.gpu_recovery=0, "
	 "or an SR-IOV guest): it stays hung, every program on it (in every container holding it) "
	 "hangs until the host is rebooted",
	 "reboot the host; remove amdgpu.gpu_recovery=0 from the kernel command line or "
	 "/etc/modprobe.d so the next hang is reset; if hangs recur, update the kernel and "
	 "linux-firmware together",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_should_recover_gpu(): "
	 "dev_info(adev->dev, \"GPU recovery disabled.\\n\"), after a job timeout (older kernels, "
	 "as 4.18 and 5.x logs show: DRM_INFO(\"GPU recovery disabled.\\n\"), \"[drm] \" and no "
	 "address)"},
	/* the GPU's own tables: VBIOS, IP discovery */
	{"amdgpu-vbios-not-found",
	 "((amdgpu|radeon) (" BDF "): )?(amdgpu: )?(\\[drm:(amdgpu|radeon)_get_bios( \\[(amdgpu|radeon)\\])?\\] "
	 "\\*ERROR\\* )?(Unable to locate a BIOS ROM|no vBIOS found)",
	 LXG156_AMD_GPU_TABLES, LX_SEVERITY_ERROR,
	 "the driver (amdgpu or radeon) found no VBIOS for the AMD GPU (not in its ROM BAR, the ACPI VFCT table or the "
	 "platform's copy): it cannot post or initialize the GPU, so no /dev/dri or /dev/kfd node "
	 "for it; typical of a GPU passed through to a VM without its ROM, a secondary GPU whose "
	 "ROM the firmware did not expose, or a laptop's dGPU",
	 "on a VM host give the VM the GPU's ROM (hostpci romfile=, a dump of this card's VBIOS); "
	 "on bare metal update the system firmware and enable the GPU's option ROM (CSM or UEFI "
	 "GOP setting), or reseat the card",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 3}, {"driver", 2}, {"driver", 6}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_bios.c amdgpu_get_bios(): DRM_ERROR(\"Unable to locate a "
	 "BIOS ROM\\n\") (newer kernels: dev_err with the address), then amdgpu_device.c "
	 "amdgpu_device_init(): dev_err(adev->dev, \"no vBIOS found\\n\") (6.x, the same failure); "
	 "drivers/gpu/drm/radeon/"
	 "radeon_bios.c radeon_get_bios(): the same text, DRM_ERROR (\"[drm:radeon_get_bios [radeon]] "
	 "*ERROR* \") or dev_err"},
	{"amdgpu-ip-discovery-failed",
	 "(amdgpu (" BDF "): )?(amdgpu: )?(\\[drm:amdgpu_discovery_init \\[amdgpu\\]\\] \\*ERROR\\* )?((get "
	 ")?invalid ip discovery binary (signature|checksum)( from file)?|failed to read ip discovery "
	 "binary( from file)?)$",
	 LXG156_AMD_GPU_TABLES, LX_SEVERITY_ERROR,
	 "amdgpu could not read the AMD GPU's IP discovery table ({step}; the table, in the GPU's "
	 "memory or amdgpu/*_ip_discovery.bin, that says which engines it has): the GPU does not "
	 "initialize, no /dev/dri or /dev/kfd node for it",
	 "power the host off and on (a GPU left half-reset reads back garbage); install the "
	 "linux-firmware of the kernel's release (its amdgpu/*_ip_discovery.bin), or a kernel "
	 "that knows the GPU; an eGPU: reload amdgpu after the enclosure is up",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 5}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_discovery.c amdgpu_discovery_init(): dev_err(adev->dev, "
	 "\"get invalid ip discovery binary signature\\n\"), dev_err(adev->dev, \"invalid ip "
	 "discovery binary checksum\\n\"), \"failed to read ip discovery binary from file\\n\" "
	 "(5.x: DRM_ERROR(\"invalid ip discovery binary signature\\n\"), \"failed to read ip "
	 "discovery binary\\n\"); the warning \"... signature from vram\" is followed by a retry "
	 "from the file and is no finding"},
	/* more hangs: soft-recovered timeouts, per-ring resets; the DMCUB's silence */
	{"amdgpu-ring-soft-recovered",
	 "(amdgpu (" BDF "): (amdgpu: )?)?(\\[drm:amdgpu_job_timedout \\[amdgpu\\]\\] \\*ERROR\\* )?ring "
	 "([a-z0-9_.]+) timeout, but soft recovered",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a job on the AMD GPU's ring {ring} did not finish in time; the driver killed it without a "
	 "reset (soft recovery): the program that submitted it (a container's game, transcode or "
	 "ROCm job) lost that work, the others run on",
	 "restart the program if it misbehaves; if it recurs, update the kernel, linux-firmware "
	 "and the container's Mesa together, or revert the update after which it began",
	 LX_KMSG_SOLE_AMDGPU, {{"ring", 5}, {"gpu", 2}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_job.c amdgpu_job_timedout(): DRM_ERROR(\"ring %s "
	 "timeout, but soft recovered\\n\", s_job->sched->name) (newer: dev_err with the address)"},
	/* The state amdgpu captures of a hung GPU: a job's timeout (before its
	 * "ring ... timeout" line, which a grep of the excerpt may lose) or a
	 * reset dumps the IP blocks and writes a devcoredump; nothing else
	 * does, so these lines alone are a hang */
	{"amdgpu-hang-coredump",
	 "amdgpu (" BDF "): (amdgpu: )?(\\[drm\\] )?(Dumping IP State|AMDGPU device coredump file has been created)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a job on the AMD GPU did not finish in time or the GPU was reset: the driver captured the "
	 "GPU's state ({what}; /sys/class/drm/cardN/device/devcoredump/data until it is read or "
	 "five minutes pass): the program that submitted the job (a container's game, transcode or "
	 "ROCm job) lost that work",
	 "save the devcoredump for a bug report, restart the program; if it recurs, update the "
	 "kernel, linux-firmware and the container's Mesa or ROCm together, or revert the update "
	 "after which it began",
	 LX_KMSG_RESTATES, {{"gpu", 1}, {"what", 4}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_job.c amdgpu_job_do_core_dump() (6.12 and later, from "
	 "amdgpu_job_timedout() before its \"ring %s timeout\" line) and amdgpu_device.c "
	 "amdgpu_device_pre_asic_reset() before a reset: dev_info(adev->dev, \"Dumping "
	 "IP State\\n\"), \"Dumping IP State Completed\\n\"; amdgpu_dev_coredump.c amdgpu_coredump(): "
	 "drm_info(dev, \"AMDGPU device coredump file has been created\\n\"), then \"Check your "
	 "/sys/class/drm/card%d/device/devcoredump/data\\n\" (only the job timeout and the reset "
	 "call it)"},
	/* A hung queue the driver could not reset alone (6.12 and later):
	 * the timeout handler's verdict in both wordings, and the per-engine
	 * steps before it (MES's legacy queue reset, the pipe reset after it,
	 * VPE's queue reset). */
	{"amdgpu-ring-reset-failed",
	 "(amdgpu (" BDF "): (amdgpu: )?|\\[drm:[a-z0-9_]+ \\[amdgpu\\]\\] \\*ERROR\\* )"
	 "(Ring ([a-z0-9_.]+) reset (failed|failure)|(VPE) queue reset failed|"
	 "failed to reset legacy queue|reset via MES failed and try pipe reset)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "a queue of the AMD GPU hung and the driver could not reset that queue alone ({failure}): "
	 "it resets the whole GPU, and every program on it (in every container holding it) loses "
	 "its work",
	 "restart the programs using the GPU; if it recurs, update the kernel and linux-firmware "
	 "together, or revert the update after which it began",
	 LX_KMSG_RESTATES | LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"ring", 5}, {"ring", 7}, {"failure", 4}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_job.c amdgpu_job_timedout() (6.12 and later, per-queue "
	 "reset, after its 'Starting %s ring reset' notice): dev_err(adev->dev, \"Ring %s reset "
	 "failed\\n\", ...) (6.12-6.15: \"Ring %s reset failure\\n\") before the full GPU reset; "
	 "amdgpu_mes.c amdgpu_mes_reset_legacy_queue(): DRM_ERROR, later dev_err(adev->dev, \"failed "
	 "to reset legacy queue\\n\"); vpe_v6_1.c/vpe_v2_0.c ring stop: dev_err(adev->dev, \"VPE queue "
	 "reset failed\\n\"); gfx_v11_0.c/gfx_v12_0.c *_reset_kgq(): dev_err(adev->dev, 'reset via MES "
	 "failed and try pipe reset %d', r)"},
	{"amdgpu-dmub-idle-timeout",
	 "(amdgpu (" BDF "): (amdgpu: )?)?(\\[drm:[a-z0-9_]+ \\[amdgpu\\]\\] \\*ERROR\\* |\\[drm\\] "
	 "\\*ERROR\\* )Error (waiting for DMUB idle|queue?ing DMUB command|starting DMUB execution|"
	 "querying DMUB hw power up status|querying DMUB boot status): (status|error)=(-?[0-9]+)",
	 LXG146_AMD_DMCUB_ERROR, LX_SEVERITY_WARNING,
	 "the AMD GPU's display microcontroller (DMCUB) did not answer the display driver ({step}, "
	 "status {status}): the display stutters, freezes or stays dark after a resume, and the "
	 "GPU may hang with it, with what containers run on it",
	 "install the linux-firmware of the kernel's release (amdgpu/dcn_*_dmcub.bin) or revert "
	 "the update after which it began, update-initramfs -u and reboot; on a Xen dom0 or with "
	 "PSR trouble, a newer kernel",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 5}, {"status", 7}},
	 "drivers/gpu/drm/amd/display/dc/dc_dmub_srv.c dc_dmub_srv_wait_idle(): DC_ERROR(\"Error "
	 "waiting for DMUB idle: status=%d\\n\", status); dc_dmub_srv_cmd_queue(): \"Error queueing "
	 "DMUB command: status=%d\\n\" (5.x: \"Error queuing DMUB command: status=%d\\n\"); "
	 "dc_dmub_srv_cmd_execute(): \"Error starting DMUB execution: status=%d\\n\"; "
	 "dc_dmub_srv_is_hw_pwr_up(): \"Error querying DMUB hw power up status: error=%d\\n\"; "
	 "dc_dmub_srv_optimized_init_done()/_is_restore_required(): \"Error querying DMUB boot "
	 "status: error=%d\\n\" (printed by DRM_ERROR: \"[drm:dc_dmub_srv_wait_idle [amdgpu]] "
	 "*ERROR* ...\", or drm_err with the address)"},
	/* The display microcontroller's start (amdgpu_dm.c dm_dmub_hw_init),
	 * at boot and at every resume */
	{"amdgpu-dmub-init-failed",
	 "(amdgpu (" BDF "): (amdgpu: )?)?(\\[drm:[a-z0-9_]+ \\[amdgpu\\]\\] \\*ERROR\\* |\\[drm\\] "
	 "\\*ERROR\\* )(Error initializing DMUB HW: |DMUB interface failed to initialize: status=|"
	 "Error checking HW support for DMUB: )(-?[0-9]+)",
	 LXG146_AMD_DMCUB_ERROR, LX_SEVERITY_WARNING,
	 "the AMD GPU's display microcontroller (DMCUB) did not start ({step}{status}): no display "
	 "output from the GPU (at boot the display block's init fails, after a resume the screens "
	 "stay dark), and the GPU may hang with it, with what containers run on it",
	 "install the linux-firmware of the kernel's release (amdgpu/dcn_*_dmcub.bin) or revert "
	 "the update after which it began, update-initramfs -u and reboot",
	 LX_KMSG_SOLE_AMDGPU, {{"gpu", 2}, {"step", 5}, {"status", 6}},
	 "drivers/gpu/drm/amd/display/amdgpu_dm/amdgpu_dm.c dm_dmub_hw_init(): DRM_ERROR(\"Error "
	 "initializing DMUB HW: %d\\n\", status), DRM_ERROR(\"Error checking HW support for DMUB: "
	 "%d\\n\", status); dm_dmub_hw_resume(): DRM_ERROR(\"DMUB interface failed to initialize: "
	 "status=%d\\n\", r) (6.x: drm_err(adev_to_drm(adev), ...), \"[drm] *ERROR* \" after the "
	 "address)"},
	/* radeon (GCN 1-2 and older AMD GPUs): the ring stalls, the lockup */
	{"radeon-ring-stalled",
	 "radeon (" BDF "): (ring ([0-9]+) stalled for more than ([0-9]+)msec|GPU lockup CP stall for "
	 "more than ([0-9]+)msec)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU (radeon driver) stopped processing its commands (ring {ring}) for more than "
	 "{ms} ms: the "
	 "driver declares a GPU lockup and resets the GPU; programs using it (a container's "
	 "transcode or rendering) lose their work, and the screen may stay black",
	 "restart the programs using the GPU, reboot if it stays hung; if it recurs, update the "
	 "kernel and Mesa together, or drive the GPU with amdgpu (radeon.si_support=0 "
	 "amdgpu.si_support=1, or cik_support, for GCN 1 and 2 GPUs)",
	 0, {{"gpu", 1}, {"ring", 3}, {"ms", 4}, {"ms", 5}},
	 "drivers/gpu/drm/radeon/radeon_ring.c radeon_ring_test_lockup(): dev_err(rdev->dev, \"ring "
	 "%d stalled for more than %llumsec\\n\", ring->idx, elapsed) (3.x-4.1: dev_err(rdev->dev, "
	 "\"GPU lockup CP stall for more than %lumsec\\n\", elapsed))"},
	{"radeon-gpu-lockup",
	 "(radeon|amdgpu) (" BDF "): GPU lockup( \\((current fence id|waiting for) 0x[0-9a-fA-F]+( last "
	 "fence id 0x[0-9a-fA-F]+)?( on ring ([0-9]+))?\\)|$)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU (radeon driver) locked up (ring {ring}): the driver resets it; programs using "
	 "it (a container's transcode or rendering) lose their work, and the screen may stay black",
	 "restart the programs using the GPU, reboot if it stays hung; if it recurs, update the "
	 "kernel and Mesa together, or drive the GPU with amdgpu (radeon.si_support=0 "
	 "amdgpu.si_support=1, or cik_support, for GCN 1 and 2 GPUs)",
	 LX_KMSG_RESTATES, {{"gpu", 2}, {"ring", 7}, {"driver", 1}},
	 "drivers/gpu/drm/radeon/radeon_fence.c radeon_fence_check_lockup(): dev_warn(rdev->dev, "
	 "\"GPU lockup (current fence id 0x%016llx last fence id 0x%016llx on ring %d)\\n\", ...), "
	 "after radeon_ring.c's \"ring %d stalled\" line (amdgpu_fence.c of 4.2-4.4 the same); "
	 "3.x-4.1 radeon_fence_wait_seq(): dev_warn(rdev->dev, \"GPU lockup (waiting for 0x%016llx "
	 "last fence id 0x%016llx)\\n\", ...) (3.9-3.10: \"GPU lockup (waiting for 0x%016llx)\\n\")"},
	{"amdgpu-gpu-post-error",
	 "amdgpu (" BDF "): (amdgpu: )?gpu post error!?",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "amdgpu could not post the AMD GPU (run its VBIOS init tables): the GPU does not "
	 "initialize, no /dev/dri or /dev/kfd node for it, containers holding it get no GPU",
	 "power the host off and on (a GPU left half-reset by a VM or a failed reset needs a cold "
	 "start); if it fails on every boot, check the slot, riser and power, update the system "
	 "firmware or the GPU's VBIOS",
	 LX_KMSG_NEEDS_CAUSE | LX_KMSG_RESTATES, {{"gpu", 1}},
	 "drivers/gpu/drm/amd/amdgpu/amdgpu_device.c amdgpu_device_init(): dev_err(adev->dev, \"gpu "
	 "post error!\\n\") when amdgpu_atom_asic_init() fails, after atom.c's \"atombios stuck in "
	 "loop\" when that was the reason"},
	/* The general layer of amdgpu's and radeon's errors, after every row
	 * above (a line one of them reads is theirs): a DRM_ERROR or
	 * DRM_DEV_ERROR line ("[drm:psp_hw_start [amdgpu]] *ERROR* ...") whose
	 * function is an IP block's, or a dev_err/drm_err line of the GPU
	 * ("amdgpu 0000:03:00.0: amdgpu: ...", "... [drm] *ERROR* ...") that names
	 * the block and says it failed. Its finding gives way to a row of the
	 * same code about the same GPU (LX_KMSG_FALLBACK). The first row whose
	 * family fits takes the line: firmware before the blocks that load it. */
	{"amdgpu-error-pm",
	 /* radeon's per-ASIC resume (r600_resume() ... cik_resume()): "%s startup
	  * failed on resume" */
	 AMD_ERROR_FN("amdgpu_device_suspend|amdgpu_device_resume|amdgpu_device_prepare|amdgpu_pmops_|"
		      "radeon_suspend_kms|radeon_resume_kms|radeon_pmops_|r[0-9]+_resume|rv[0-9]+_resume|"
		      "rs[0-9]+_resume|evergreen_resume|cayman_resume|si_resume|cik_resume"),
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU failed a step of a suspend or a resume ({where}: \"{message}\"): after it the "
	 "GPU may stay dark or hang, and containers holding it lose /dev/dri and /dev/kfd work",
	 FIX_PM_RESUME, AMD_ERROR_FLAGS, {{"gpu", 3}, {"where", 6}, {"driver", 9}, {"message", 10}},
	 AMD_ERROR_SOURCE},
	{"amdgpu-error-tables",
	 /* not amdgpu_get_bios(): a broken ACPI VFCT table is one of the places
	  * it tries, the ROM the next one */
	 AMD_ERROR_OF("amdgpu_discovery_|amdgpu_read_bios|radeon_read_bios",
		      "VBIOS|vbios|IP discovery|ip discovery|atombios_init|atombios_get_clock_info|"
		      "atomfirmware_get_clock_info"),
	 LXG156_AMD_GPU_TABLES, LX_SEVERITY_WARNING,
	 "amdgpu could not read one of the GPU's tables, the VBIOS or the IP discovery table "
	 "({where}: \"{message}\"): without it the driver does not know the GPU and does not drive it",
	 "see the other findings about the same GPU; power the host off and on; in a virtual machine "
	 "give the GPU its ROM (romfile=) or turn on the host's Above 4G Decoding; update the system "
	 "firmware",
	 AMD_ERROR_FLAGS, AMD_ERROR_FIELDS, AMD_ERROR_SOURCE},
	{"amdgpu-error-firmware",
	 AMD_ERROR_OF("amdgpu_ucode_|radeon_ucode_|[a-z0-9_]+_init_microcode|[a-z0-9_]+_load_microcode|"
		      "[a-z0-9_]+_init_firmware|[a-z0-9_]+_request_firmware",
		      "[Mm]icrocode|ucode|[Ff]irmware"),
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "amdgpu could not load or validate a firmware of the GPU ({where}: \"{message}\"): the "
	 "engine that needs it does not start",
	 "install the linux-firmware of the kernel's release (its amdgpu/ or radeon/ files), "
	 "update-initramfs -u and reboot",
	 AMD_ERROR_FLAGS, AMD_ERROR_FIELDS, AMD_ERROR_SOURCE},
	{"amdgpu-error-psp",
	 AMD_ERROR_OF("psp_|amdgpu_psp_",
		      "PSP|psp|TMR|tmr|SOS|sOS|KDB|TOC|load toc|TOS|ucode id|[Mm]emory training|training msg|"
		      "xgmi ta|ras ta|dtm ta|hdcp ta|rap ta|securedisplay ta|terminate asd|fw reservation|fw region")
	 /* 5.x to 6.1's DRM_WARN of a failed PSP command: "[drm] ", no address */
	 "|\\[drm\\] (psp (gfx )?command ([A-Za-z0-9_]*\\(0x[0-9A-Fa-f]+\\)|\\([A-Za-z0-9_]+\\)) failed and "
	 "response status is \\(0x[0-9A-Fa-f]+\\))",
	 LXG145_AMD_PSP_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU's security processor (PSP) reported an error ({where}: \"{message}\"): the PSP "
	 "loads the other engines' firmware, so the GPU may not initialize, resume or come back from "
	 "a reset, and containers holding it get no working /dev/dri or /dev/kfd device",
	 "power the host off and on (a GPU left in a bad state by a virtual machine or a failed "
	 "reset needs a cold start); if it recurs, install the linux-firmware of the kernel's "
	 "release (its amdgpu/psp_* files) or revert the update after which it began, then "
	 "update-initramfs -u and reboot",
	 AMD_ERROR_FLAGS | LX_KMSG_UNLESS_STARTED,
	 {{"gpu", 3}, {"where", 6}, {"driver", 9}, {"message", 10}, {"gpu", 12}, {"message", 17},
	  {"where", 18}, {"where", 21}, {"message", 22}, {"where", 24}},
	 AMD_ERROR_SOURCE "; and 5.15 to 6.1's amdgpu_psp.c psp_cmd_submit_buf(): DRM_WARN(\"psp gfx "
	 "command %s(0x%X) failed and response status is (0x%X)\\n\", psp_gfx_cmd_name(...), "
	 "cmd_id, resp.status) (5.x \"psp command (0x%X) failed ...\", 5.13-5.14 \"psp gfx command "
	 "(%s) failed ...\"; 6.2 and later dev_warn(), the form above), status 0 when the PSP did "
	 "not answer in time; a trusted application's command (LOAD_TA, UNLOAD_TA, INVOKE_CMD) left "
	 "out"},
	{"amdgpu-error-mes",
	 AMD_ERROR_OF("mes_v[0-9_]+|amdgpu_mes_",
		      "MES|mes_|all gangs|legacy queue|reg_write_reg_wait|detect and reset|"
		      "read reg \\(|write reg \\("),
	 LXG144_AMD_MES_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's MES (the firmware that schedules its queues) reported an error ({where}: "
	 "\"{message}\"): queues of ROCm and graphics programs, in containers too, stop being "
	 "scheduled and the GPU is reset or hangs",
	 "restart the programs using the GPU; if it recurs, update the kernel and linux-firmware "
	 "together (amdgpu/gc_*_mes*.bin must suit the kernel) or revert the update after which "
	 "it began",
	 AMD_ERROR_FLAGS, AMD_ERROR_FIELDS, AMD_ERROR_SOURCE},
	/* not smu_v11_0_i2c_xfer: the I2C of a RAS EEPROM a board lacks */
	{"amdgpu-error-smu",
	 AMD_ERROR_OF("smu_v[0-9_]+[a-hj-z]|smu_v[0-9_]+in|smu_[a-uw-z]|smu[0-9]+_|"
		      "smum_|pp_|phm_|amdgpu_dpm_|amdgpu_smu_|[a-z0-9]+_hwmgr_|vega10_hwmgr|"
		      "vega1[02]_|vega20_|polaris10_|fiji_|tonga_|iceland_|navi10_|sienna_cichlid_|"
		      "arcturus_|aldebaran_|vangogh_|renoir_|yellow_carp_|cyan_skillfish_|"
		      "[a-z0-9]+_dpm_|[a-z0-9]+_smc_",
		      "SMU|SMC|smc |smu_|PMFW|pmfw|PPTable|pptable|[Pp]owerplay|DPM|dpm|BACO|"
		      "features control|DramAddr|ppfeatures|PrepareMp1|MP1|sustainable clocks|"
		      "thermal alert|driver allowed features|gfxoff|power gate |power ungate ")
	 /* 4.x to 5.x powerplay's pr_err(): "amdgpu: [powerplay] ", no address */
	 "|amdgpu: \\[(powerplay)\\] (.*(" AMD_FAIL ").*)",
	 LXG149_AMD_SMU_HANG, LX_SEVERITY_WARNING,
	 "the AMD GPU's power management firmware (SMU) reported an error ({where}: \"{message}\"): "
	 "clocks, power and resets go through it, so the GPU may not initialize, resume or reset, "
	 "or runs at the wrong clocks",
	 "power the host off and on; if it recurs, install the linux-firmware of the kernel's "
	 "release (amdgpu/*_smc.bin) or revert the kernel or firmware update after which it began, "
	 "update-initramfs -u and reboot",
	 AMD_ERROR_FLAGS,
	 {{"gpu", 3}, {"where", 6}, {"driver", 9}, {"message", 10}, {"gpu", 12}, {"message", 17},
	  {"where", 18}, {"where", 21}, {"where", 22}, {"message", 23}},
	 "4.x to 5.x powerplay's pr_err() with pp_debug.h's pr_fmt: \"amdgpu: [powerplay] %s\" "
	 "(amdgpu_smu.c smu_hw_init(): \"Failed to load smu firmware!\\n\"); " AMD_ERROR_SOURCE
	 "; amdgpu_smu.c smu_dpm_set_power_gate(): dev_err(\"Failed to %s gfxoff!\\n\") when "
	 "smu_gfx_off_control() fails and \"Failed to power %s VCN!\\n\" (UVD, SDMA, JPEG) when "
	 "the SMU's gate or ungate message fails: the SMU's error, not the engine's"},
	{"amdgpu-error-dmub",
	 AMD_ERROR_OF("dmub_|dc_dmub_|dm_dmub_|amdgpu_dm_dmub_", "DMUB|dmub|DMCUB|dmcub"),
	 LXG146_AMD_DMCUB_ERROR, LX_SEVERITY_WARNING,
	 "the AMD GPU's display microcontroller (DMCUB) reported an error ({where}: \"{message}\"): "
	 "outputs may go dark or freeze, and a hang of it can take the GPU down with it",
	 "update the kernel and linux-firmware together (amdgpu/*_dmcub.bin must suit the kernel) "
	 "or revert the update after which it began; update-initramfs -u and reboot",
	 AMD_ERROR_FLAGS, AMD_ERROR_FIELDS, AMD_ERROR_SOURCE},
	/* DC's errors: one is noise a working machine prints (a monitor's
	 * DPCD read, an LTTPR's answer): three of one GPU are a finding */
	{"amdgpu-error-display",
	 AMD_ERROR_FN("amdgpu_dm_|dm_|dc_|dce[0-9]*_|dcn[0-9]*_|dce_v[0-9]+_[0-9]+_|link_|dp_|edp_|"
		      "dpcd_|hpd_|handle_hpd_|amdgpu_connector_|amdgpu_display_|amdgpu_atombios_encoder_|"
		      "radeon_dp_|radeon_connector_|radeon_display_"),
	 LXG178_DISPLAY_OUTPUT_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU's display driver reported errors ({where}: \"{message}\"): an output may stay "
	 "dark, flicker or run at a lower mode" DISPLAY_OUTPUT_ONLY,
	 FIX_DISPLAY_OUTPUT, AMD_ERROR_FLAGS | LX_KMSG_REPEATS(3),
	 {{"gpu", 3}, {"where", 6}, {"driver", 9}, {"message", 10}}, AMD_ERROR_SOURCE},
	{"amdgpu-error-engine",
	 AMD_ERROR_OF("amdgpu_job_|amdgpu_ring_|amdgpu_fence_|amdgpu_ib_|amdgpu_device_gpu_recover|"
		      "amdgpu_reset_|amdgpu_gfx_|amdgpu_sdma_|amdgpu_vcn_|amdgpu_uvd_|amdgpu_vce_|"
		      "amdgpu_jpeg_|amdgpu_vpe_|amdgpu_rlc_|"
		      "gfx_v[0-9_]+[a-df-rt-z]|gfx_v[0-9_]+e[b-z]|gfx_v[0-9_]+s[a-vx-z]|"
		      "sdma_v[0-9_]+[a-df-rt-z]|sdma_v[0-9_]+e[b-z]|sdma_v[0-9_]+s[a-vx-z]|"
		      "vcn_v[0-9_]+[a-df-rt-z]|vcn_v[0-9_]+e[b-z]|vcn_v[0-9_]+s[a-vx-z]|"
		      "uvd_v[0-9_]+[a-df-rt-z]|uvd_v[0-9_]+e[b-z]|uvd_v[0-9_]+s[a-vx-z]|"
		      "vce_v[0-9_]+[a-df-rt-z]|vce_v[0-9_]+e[b-z]|vce_v[0-9_]+s[a-vx-z]|"
		      "jpeg_v[0-9_]+[a-df-rt-z]|jpeg_v[0-9_]+e[b-z]|jpeg_v[0-9_]+s[a-vx-z]|"
		      "vpe_v[0-9_]+[a-df-rt-z]|vpe_v[0-9_]+e[b-z]|vpe_v[0-9_]+s[a-vx-z]|"
		      "gmc_v[0-9_]+flush|gmc_v[0-9_]+emit_flush|"
		      "cik_sdma_|"
		      "si_dma_|cayman_dma_|r600_dma_|radeon_fence_|radeon_ring_|radeon_ib_|radeon_uvd_|"
		      "radeon_vce_|radeon_gpu_reset|[a-z0-9]+_ring_test|[a-z0-9]+_ib_test|"
		      "[a-z0-9]+_irq_process|[a-z0-9]+_cp_|[a-z0-9]+_rlc_|[a-z0-9]+_asic_reset|"
		      "[a-z0-9]+_gpu_soft_reset",
		      /* whole words: not "during", "Restoring", "hdcp " */
		      "[^A-Za-z]ring|[^A-Za-z]Ring|[Ff]ence|GFX|gfx|SDMA|sdma|VCN|vcn|UVD|uvd|VCE|vce|JPEG|VPE|"
		      "KIQ|kiq|KCQ|KGQ|RLC|rlc|[^A-Za-z]CP |[^A-Za-z]cp |[Ll]ockup| IBs?[ .!(]| IBs?$|[Ii][Bb] submit|get ib|kcq|kgq|"
		      "hqd deactiv|remap queue|compute queue"),
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "an engine of the AMD GPU (graphics, compute, SDMA or video) reported an error ({where}: "
	 "\"{message}\"): it did not answer the driver, so its jobs, in containers too, time out "
	 "and the GPU is reset or hangs",
	 "restart the programs using the GPU; if it recurs, update the kernel, linux-firmware and "
	 "the Mesa or ROCm release in the container together, or revert the update after which it "
	 "began",
	 AMD_ERROR_FLAGS, AMD_ERROR_FIELDS, AMD_ERROR_SOURCE},
	{"amdgpu-error-init",
	 /* not amdgpu_init() or radeon_init(): modesetting off (LXG153) */
	 AMD_ERROR_OF("amdgpu_device_[a-hj-z]|amdgpu_device_i[a-oq-z]|amdgpu_device_ip_[a-rt-z]|"
		      "[a-z0-9_]+_sw_init|[a-z0-9_]+_early_init|amdgpu_driver_load_kms|amdgpu_pci_probe|"
		      "amdgpu_atom_|atom_|amdgpu_atombios_init|amdgpu_atombios_asic_init|amdgpu_irq_init|"
		      "amdgpu_ih_|amdgpu_virt_|amdgpu_xgmi_|amdgpu_gart_|"
		      "radeon_driver_load_kms|radeon_atombios_asic_init|r[0-9]+_startup|"
		      "r[0-9]+_init|rv[0-9]+_startup|rv[0-9]+_init|rs[0-9]+_startup|rs[0-9]+_init|"
		      "evergreen_startup|evergreen_init|cayman_startup|cayman_init|si_startup|si_init|"
		      "cik_startup|cik_init",
		      "init of IP block|hw_init|sw_init|[Ii]nitiali[sz]e|[Pp]robe|[Ss]tartup"),
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "the AMD GPU failed a step of its initialization ({where}: \"{message}\"): amdgpu or "
	 "radeon may not drive it, and containers holding it get no /dev/dri or /dev/kfd device "
	 "for it",
	 "see the other findings about the same GPU; install the linux-firmware of the kernel's "
	 "release or revert the update after which it began, update-initramfs -u and reboot",
	 AMD_ERROR_FLAGS, AMD_ERROR_FIELDS, AMD_ERROR_SOURCE},
	/* Oopses and WARNs of any GPU driver: the header matches, lx_oops_read
	 * reads the lines after it and says whose code it was. */
	{"gpu-driver-oops",
	 "^.{0,24}(BUG: (unable to handle (kernel )?(NULL pointer dereference|paging request|page "
	 "fault)|kernel NULL pointer dereference)|Unable to handle kernel (NULL pointer dereference|"
	 "paging request|write to read-only memory|execute from non-executable memory|read from "
	 "unreadable memory|access to user memory outside uaccess routines)|general protection "
	 "fault|kernel BUG at |Internal error: Oops|Oops: )|^IP: ",
	 LXG151_GPU_DRIVER_OOPS, LX_SEVERITY_ERROR,
	 "the GPU driver crashed in the kernel ({kind} in {function}, module {module}): the driver "
	 "and its GPU are unusable until the host reboots, and every container holding the GPU "
	 "loses it",
	 "reboot the host; if it recurs, run another driver version (NVIDIA: another branch, the "
	 "open or the proprietary module; amdgpu, i915, xe: a newer kernel such as the current "
	 "Proxmox kernel series, or the one before it began) and report the whole oops (dmesg) "
	 "to the driver's tracker",
	 LX_KMSG_OOPS, {{"module", 0}, {"gpu", 0}, {"kind", 0}, {"function", 0}, {"process", 0}},
	 "arch/x86/mm/fault.c show_fault_oops(): \"BUG: kernel NULL pointer dereference, address: "
	 "%px\", \"BUG: unable to handle page fault for address: %px\" (before 4.20: \"BUG: "
	 "unable to handle kernel NULL pointer dereference at %p\", ... kernel paging request at "
	 "%p, then IP: %pS); arch/arm64/mm/fault.c die_kernel_fault(): \"Unable to handle kernel %s "
	 "at virtual address %016lx\" (__do_kernel_fault()'s kinds: NULL pointer dereference, "
	 "paging request, write to read-only memory, execute from non-executable memory, read from "
	 "unreadable memory; 5.x: access to user memory outside uaccess routines); "
	 "arch/x86/kernel/traps.c: \"general protection fault, probably "
	 "for non-canonical address 0x%lx\"; arch/x86/kernel/dumpstack.c __die(): \"Oops: %04lx "
	 "[#%d]\" then show_regs()'s \"RIP: %04x:%pS\"; lib/bug.c report_bug(): \"kernel BUG at "
	 "%s:%u!\"; arch/arm64/mm/fault.c: \"Internal error: %s: %016lx [#%d]\", \"pc : %pS\". "
	 "Whose code: the faulting instruction's [module] (for the kernel's own code or a DRM helper's, drm, ttm, gpu_sched: "
	 "the call trace's first sure frame of another module), never \"Modules linked in:\""},
	/* The RM's error lines no row above names, by the engine whose
	 * function printed them (after every specific row: a catch-all that
	 * gives way to a row of its code about the same GPU). NV_ASSERT's
	 * "nvAssertFailedNoLog:", "nvCheckOkFailedNoLog:" lines, which working
	 * machines print, name no family. */
	/* GspMsgQueuesInit() is left out: its "Allocation failed with big page
	 * size, retrying with default page size" is a retry that works. */
	{"nvrm-gsp-family",
	 RM_PREFIX "(_?(kfsp|kgsp|kflcn|ksec2|kcrashcat|kbifPreOsGlobalErotGrant|kbifPreOsCheckErotGrant|"
	 "_gspMsgQueueInit|GspMsgQueueSend|GspMsgQueueReceive|GspStatusQueue|s_executeBooterUcode|"
	 "s_patchBooterUcodeSignature|"
	 "s_prepareForFwsec|s_romImgFindPciHeader|s_dmaPoll)[A-Za-z0-9]*(_[A-Za-z0-9]+)?)" RM_FAILURE,
	 LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's boot and management microcontrollers (GSP, FSP, SEC2, a falcon) failed, as the "
	 "driver's {function} reports (\"{message}\"): the driver cannot start the GPU or drive it "
	 "until it is reset",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power the host off and on (a warm "
	 "reboot may not clear it); update the driver and its GSP firmware package together; if it "
	 "recurs, update the GPU's VBIOS or contact the vendor",
	 LX_KMSG_SOLE_NVIDIA | LX_KMSG_FALLBACK, {{"gpu", 2}, {"function", 4}, {"message", 7}},
	 "NV_PRINTF(LEVEL_ERROR, ...) in src/nvidia/src/kernel/gpu/gsp, fsp, falcon, sec2 and "
	 "bif/arch/ada (the ERoT grant), whose release prefix is \"NVRM: %s: %s\" with the "
	 "function (kernel_falcon_tu102.c kflcnWaitForHalt_TU102(): \"Timeout waiting for Falcon to "
	 "halt\\n\"; kernel_bif_ad102.c kbifPreOsGlobalErotGrantRequest_AD102(): \"Timed out waiting "
	 "for preOs to grant access to EEPROM\\n\"; kern_fsp.c kfspPollForQueueEmpty_IMPL(): \"Timed "
	 "out waiting for FSP command queue to be empty.\\n\"; kernel_sec2.c: \"SEC2 command timed "
	 "out\\n\"; message_queue_cpu.c GspMsgQueueReceiveStatus(): \"Read failed after %d "
	 "retries.\\n\", \"Bad checksum.\\n\"; kernel_gsp_booter_tu102.c s_executeBooterUcode_TU102(): "
	 "\"failed to execute Booter: status 0x%x, mailbox 0x%x\\n\", \"Booter failed with non-zero "
	 "error code: 0x%x\\n\"; kernel_gsp_frts_tu102.c s_prepareForFwsec_TU102(): \"failed to "
	 "prepare interface data for FWSEC cmd 0x%x: 0x%x\\n\"; kernel_gsp_falcon_ga102.c "
	 "s_dmaPoll_GA102(): \"Error while waiting for Falcon DMA; mode: %d, status: 0x%08x\\n\"; "
	 "kernel_gsp.c _kgspRpcGspTriggerBugcheck(): \"Received signal from GSP to trigger "
	 "bugcheck! BugCode=0x%x\\n\"), 515's \"NVRM %s: %s\""},
	{"nvrm-init-family",
	 RM_PREFIX "((RmInit[A-Za-z0-9]*|osInit[A-Za-z0-9]*|gpuState(Pre|Post)?(Init|Load)|gpumgrAttachGpu|"
	 "kbus(BindBar2|Bar1InstBlkBind|WriteBar2BlockRegisters|SetupBar2CpuAperture|InitBar1))"
	 "(_[A-Za-z0-9]+)?)" RM_FAILURE,
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the driver could not initialize the GPU ({function}: \"{message}\")",
	 "look at the driver's earlier messages about this GPU (dmesg | grep -i nvrm), or collect "
	 "nvidia-bug-report.sh for NVIDIA",
	 LX_KMSG_SOLE_NVIDIA | LX_KMSG_FALLBACK, {{"gpu", 2}, {"function", 4}, {"message", 10}},
	 "NV_PRINTF(LEVEL_ERROR, ...) in RmInitAdapter()'s steps (src/nvidia/arch/nvalloc/unix/src/"
	 "osinit.c) and src/nvidia/src/kernel/gpu/gpu.c gpuStatePreInit/Init/Load_IMPL(), prefix "
	 "\"NVRM: %s: %s\" (gpuStateLoad_IMPL(): \"Error initializing SRIOV: 0x%0x\\n\", \"RPC "
	 "buffers setup failed: 0x%x\\n\"; RmInitAdapter(): \"RmInitX86Emu failed, bailing out of "
	 "RmInitAdapter\\n\"), and src/nvidia/src/kernel/gpu/bus's BAR1 and BAR2 set-up at init "
	 "(kern_bus_gm107.c kbusBindBar2_GM107(), kern_bus_gh100.c kbusWriteBar2BlockRegisters_GH100(): "
	 "\"timed out waiting for bar2 binding to complete\\n\", kbusBar1InstBlkBind_GM107/GH100(): "
	 "\"timed out waiting for bar1 binding to complete\\n\", kbusSetupBar2CpuAperture_GM107(): "
	 "\"- Unable to map bar2!\\n\", kbusInitBar1_GM107(): \"Unable to set BAR1 alloc range to "
	 "aperture size!\\n\"), 515's \"NVRM %s: %s\""},
	{"nvrm-pm-family",
	 RM_PREFIX "((Rm(Gcx)?PowerManagement|gpuPowerManagement[A-Za-z0-9]*|"
	 "gpu(EnterStandby|EnterHibernate|Resume)[A-Za-z]*|"
	 "_?kperfSendPostPowerStateCallback|memmgr(Save|Restore)PowerMgmtState|_?fbsr[A-Za-z0-9]*)"
	 "(_[A-Za-z0-9]+)?)" RM_FAILURE,
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the driver's suspend or resume of the GPU failed ({function}: \"{message}\"): the host may "
	 "not sleep, or the GPU comes back unusable from it",
	 FIX_PM_SUSPEND,
	 LX_KMSG_SOLE_NVIDIA | LX_KMSG_FALLBACK, {{"gpu", 2}, {"function", 4}, {"message", 10}},
	 "NV_PRINTF(LEVEL_ERROR, ...) of the RM's power management, prefix \"NVRM: %s: %s\" "
	 "(src/nvidia/src/kernel/gpu, gpuPowerManagementEnter(): \"GSP unload failed at "
	 "suspend (bootMode 0x%x, newLevel 0x%x): 0x%x\\n\" (older: \"GSP unload failed at suspend: "
	 "0x%x\"; the GSP is the step that failed, the suspend the failure), gpuPowerManagementResume(): "
	 "\"cannot init libOS PMU logging structures: 0x%x\\n\", \"GSP boot failed at resume (bootMode 0x%x): 0x%x\\n\"; "
	 "src/nvidia/arch/nvalloc/unix/src/dynamic-power.c RmPowerManagement(): \"System suspend "
	 "failed with current system suspend configuration. Please change the system suspend "
	 "configuration to s2idle in /sys/power/mem_sleep.\\n\"; mem_mgr_pwr_mgmt.c "
	 "memmgrSavePowerMgmtState_KERNEL(): \"!!!!! Calling Suspend on a suspended GPU or \" \"the "
	 "previous Resume call might have failed !!!!!!\\n\"; fbsr.c: \"Failure during allocation of "
	 "FBSR Reserved ranges: %d\\n\"), 515's \"NVRM %s: %s\""},
	/* the GSP step of a sleep that failed: a GSP failure as well as the
	 * sleep's (row nvrm-pm-family names the sleep) */
	{"pm-gsp-step",
	 RM_PREFIX "(gpuPowerManagement(Enter|Resume)(_[A-Za-z0-9]+)?): (GSP (unload|boot) failed at "
	 "(suspend|resume)[^:]*: (0x[0-9a-fA-F]+))",
	 LXG108_GSP_BOOT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU's GSP firmware did not {step} at {when} (status {status}): it stopped answering the "
	 "driver, and the GPU stays unusable until it is reset",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power-cycle the host; update the "
	 "driver if it recurs; a Proxmox node should not sleep (systemctl mask sleep.target "
	 "suspend.target hibernate.target hybrid-sleep.target)",
	 LX_KMSG_ALSO | LX_KMSG_SOLE_NVIDIA, {{"gpu", 2}, {"step", 8}, {"when", 9}, {"status", 10}},
	 "src/nvidia/src/kernel/gpu/gpu.c gpuPowerManagementEnter(): NV_PRINTF(LEVEL_ERROR, \"GSP "
	 "unload failed at suspend (bootMode 0x%x, newLevel 0x%x): 0x%x\\n\") after kgspUnloadRm() "
	 "(older: \"GSP unload failed at suspend: 0x%x\\n\"), gpuPowerManagementResume(): \"GSP boot "
	 "failed at resume (bootMode 0x%x): 0x%x\\n\" after kgspBootstrap(), with NV_PRINTF's "
	 "\"NVRM: %s: \" prefix; open-gpu-kernel-modules#1142 and #1271 (the GSP firmware failing "
	 "at suspend)"},
	{"nvrm-nvlink-family",
	 RM_PREFIX "(_?(knvlink|kioctrl)[A-Za-z0-9]*(_[A-Za-z0-9]+)?)" RM_FAILURE,
	 LXG117_FABRIC_NOT_READY, LX_SEVERITY_ERROR,
	 "the GPU's NVLink failed ({function}: \"{message}\"): its links to peer GPUs or the NVSwitch "
	 "fabric are not up, peer access over NVLink (and with NVSwitches CUDA itself) fails",
	 "reboot the host (a cold power cycle if it recurs); reseat the NVLink bridge or check the "
	 "baseboard; update the driver, and with NVSwitches their firmware and Fabric Manager, "
	 "together",
	 LX_KMSG_SOLE_NVIDIA | LX_KMSG_FALLBACK, {{"gpu", 2}, {"function", 4}, {"message", 7}},
	 "NV_PRINTF(LEVEL_ERROR, ...) in src/nvidia/src/kernel/gpu/nvlink (kernel_nvlink.c, "
	 "kernel_nvlinkcorelib*.c, kernel_ioctrl.c), prefix \"NVRM: %s: %s\" "
	 "(kernel_nvlinkcorelibtrain.c: \"Failed to activate link%d on GPU%d!!!\\n\"), 515's "
	 "\"NVRM %s: %s\""},
	{"gpu-driver-warn",
	 "^(WARNING: (CPU: |at |.* at .*CPU#)|RIP: |EIP: |pc : |Call [Tt]race:)|^.{0,24}BUG: (soft lockup|"
	 "scheduling while atomic|sleeping function called from invalid context)|^INFO: task .* "
	 "blocked for more than |^(rcu: )?INFO: .*(self-detected stall|detected (expedited )?stalls) on CPU",
	 LXG151_GPU_DRIVER_OOPS, LX_SEVERITY_WARNING,
	 "the GPU driver hit a kernel warning ({kind} in {function}, module {module}): it found a "
	 "state it did not expect and went on; what depends on it (display, a reset, power "
	 "management, the next job) may fail next, on the host and in every container holding the "
	 "GPU",
	 "nothing if nothing else fails; if it recurs or other findings come with it, update the "
	 "driver (NVIDIA: another branch; amdgpu, i915, xe: a newer kernel) and report the whole "
	 "warning (dmesg) to the driver's tracker",
	 LX_KMSG_OOPS, {{"module", 0}, {"gpu", 0}, {"kind", 0}, {"function", 0}, {"process", 0}},
	 "kernel/hung_task.c check_hung_task(): \"INFO: task %s:%d blocked for more than %ld "
	 "seconds.\\n\" (a task stuck in the driver: its call trace says whose); "
	 "kernel/watchdog.c: \"BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]\"; "
	 "arch/x86/kernel/dumpstack.c show_trace_log_lvl(): \"Call Trace:\" (arm64 dump_backtrace()'s "
	 "with a small t; alone: a log cut above it, a warning, its header unknown); kernel/panic.c "
	 "__warn(), every form of it with \"at %pS\": \"WARNING: CPU: %d PID: %d at %s:%d %pS\" "
	 "(without a file: \"... at %pS\"), before 3.12: \"WARNING: at %s:%d %pS()\", 2025 kernels: \"WARNING: %s:%d at "
	 "%pS, CPU#%d: %s/%d\", after \"------------[ cut here ]------------\" and the WARN's own "
	 "message (drm_WARN: \"%s %s: [drm] \" with the driver and the device); kernel/sched/core.c: \"BUG: "
	 "scheduling while atomic: %s/%d/0x%08x\", \"BUG: sleeping function called from invalid "
	 "context at %s:%d\"; kernel/rcu/tree_stall.h: \"INFO: %s self-detected stall on CPU\", "
	 "\"INFO: %s detected stalls on CPUs/tasks:\" (\"rcu: \" since 4.20); a lone \"RIP: %04x:%pS\" "
	 "(a log cut by grep) is a warning, its header unknown; "
	 "whose code, past the location, instruction and trace: arm64's \"lr : %pS\", "
	 "print_worker_info()'s \"Workqueue: %s %ps\" (its function's module, else a workqueue "
	 "named for the driver, \"amdgpu-reset-dev\"), a trace of unsure \"? \" frames only, the "
	 "Comm of a driver's kernel thread (\"irq/130-nvidia\", \"nv_queue\", \"gfx_0.0.0\")"},
	/* The same oopses and WARNs once more, for the power transition they
	 * broke: when the call trace's sure frames of the fault's own context
	 * run through a suspend or resume callback (lx_oops_read's pm_step),
	 * the GPU failed that transition too (LXG174, an error for a fault
	 * that stopped the callback); a report cut before its trace, when it
	 * falls inside a system sleep. Never reached by a line (the rows above
	 * take every header): lx_kmsg_match_all adds it to their finding. */
	{"gpu-pm-callback-oops",
	 OOPS_ANY_HEADER,
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "the GPU driver hit a kernel {kind} inside a power transition ({step}: {callback}, in "
	 "{function}): the GPU may not have suspended or come back from it, and containers holding "
	 "it lose it until a reboot",
	 FIX_PM_RESUME,
	 LX_KMSG_OOPS, {{"step", 0}, {"callback", 0}, {"module", 0}, {"gpu", 0}, {"kind", 0}, {"function", 0},
			{"process", 0}},
	 "kernel/panic.c __warn(): \"WARNING: CPU: %d PID: %d at %s:%d %pS\" (before 3.12: "
	 "\"WARNING: at %s:%d %pS()\"; 2025 kernels: \"WARNING: %s:%d at %pS, CPU#%d: %s/%d\"), "
	 "arch/x86/mm/fault.c show_fault_oops(): \"BUG: kernel NULL "
	 "pointer dereference, address: %px\", \"BUG: unable to handle page fault for address: "
	 "%px\", arch/x86/kernel/dumpstack.c __die(): \"Oops: %04lx [#%d]\", kernel/hung_task.c: "
	 "\"INFO: task %s:%d blocked for more than %ld seconds.\\n\", whose call trace runs through "
	 "drivers/base/power/main.c dpm_run_callback(), drivers/pci/pci-driver.c pci_pm_suspend()/"
	 "pci_pm_resume()/pci_pm_freeze()/pci_pm_thaw()/pci_pm_restore()[_early|_noirq], "
	 "runtime.c rpm_callback(), or a GPU driver's dev_pm_ops (amdgpu_pmops_*, "
	 "i915_pm_*, xe_pm_*, nv_pmops_*, radeon_pmops_*, nouveau_pmops_*)"},
	/* The same oopses once more, for what else their fault's own context
	 * shows the driver doing (lx_oops_read's context): a GPU reset or the
	 * job timeout handler that starts one, or, for a hung task, a wait
	 * for the GPU's work (AMD and Intel drivers: the GPU hung, LXG142); a
	 * probe (the GPU did not initialize: LXG141, NVIDIA's LXG106). Added
	 * beside their LXG151 like the row above. */
	{"gpu-reset-oops",
	 OOPS_ANY_HEADER,
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "the GPU driver hit a kernel {kind} in a {context} ({frame}, in {function}): the GPU's "
	 "work stalled or was reset, programs using it (in every container holding it) lose their "
	 "work, and a fault in the reset leaves the GPU unusable until a reboot",
	 FIX_INTEL_HANG,
	 LX_KMSG_OOPS, {{"context", 0}, {"frame", 0}, {"module", 0}, {"gpu", 0}, {"kind", 0}, {"function", 0},
			{"process", 0}},
	 "kernel/hung_task.c check_hung_task(): \"INFO: task %s:%d blocked for more than %ld "
	 "seconds.\\n\", kernel/panic.c __warn(): \"WARNING: CPU: %d PID: %d at %s:%d %pS\", "
	 "arch/x86/mm/fault.c show_fault_oops(): \"BUG: kernel NULL pointer dereference, address: %px\", "
	 "kernel/workqueue.c print_worker_info(): \"Workqueue: %s %ps\" (arch/x86/kernel/dumpstack.c "
	 "__die(), show_trace_log_lvl()), whose call trace (or the work item) runs through "
	 "drivers/gpu/drm/scheduler/sched_main.c drm_sched_job_timedout(), amdgpu_job.c "
	 "amdgpu_job_timedout(), amdgpu_device.c amdgpu_device_gpu_recover(), i915's "
	 "intel_gt_reset()/intel_gt_handle_error()/intel_gt_set_wedged(), xe_gt.c gt_reset_worker(), "
	 "xe_guc_submit.c guc_exec_queue_timedout_job(), radeon_gpu_reset(); a hung task's through "
	 "dma_fence_wait_timeout(), amdgpu_fence_wait*, i915_request_wait(), dma_resv_wait_timeout()"},
	{"gpu-probe-oops",
	 OOPS_ANY_HEADER,
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the GPU driver hit a kernel {kind} while initializing the GPU ({frame}, in {function}): the "
	 "GPU may not have initialized, and containers holding it get no /dev/dri or /dev/kfd device "
	 "for it",
	 "reboot the host; if it recurs, another kernel (a newer one, or the one before it began) "
	 "with the linux-firmware of its release, update-initramfs -u, and report the whole oops "
	 "(dmesg) to the driver's tracker",
	 LX_KMSG_OOPS, {{"context", 0}, {"frame", 0}, {"module", 0}, {"gpu", 0}, {"kind", 0}, {"function", 0},
			{"process", 0}},
	 "arch/x86/mm/fault.c show_fault_oops(): \"BUG: kernel NULL pointer dereference, address: %px\", "
	 "\"BUG: unable to handle page fault for address: %px\", kernel/panic.c __warn(): \"WARNING: "
	 "CPU: %d PID: %d at %s:%d %pS\", lib/bug.c report_bug(): \"kernel BUG at %s:%u!\", "
	 "arch/arm64/kernel/traps.c arm64_serror_panic(): pr_crit(\"SError Interrupt on CPU%d, code "
	 "0x%016lx -- %s\\n\"), whose call trace runs through the driver's PCI probe: "
	 "amdgpu_pci_probe(), amdgpu_driver_load_kms(), amdgpu_device_init(), amdgpu_device_ip_init(), "
	 "i915_pci_probe(), i915_driver_probe() (before 5.x i915_driver_load()), xe_pci_probe(), "
	 "xe_device_probe(), radeon_pci_probe(), radeon_driver_load_kms(); a WARN (or lockup) the "
	 "probe went on after, the DRM core's drm_dev_register() \"Initialized %s %d.%d.%d %s for %s "
	 "on minor %d\" for the GPU following it before any \"probe of %s failed\", is no failed "
	 "init, nor is one after which the log has no line of the driver (an excerpt that ends "
	 "with it: the kernel goes on after a WARN) (the WARN stays gpu-driver-warn's)"},
	{"nvidia-probe-oops",
	 OOPS_ANY_HEADER,
	 LXG106_INIT_FAILED, LX_SEVERITY_ERROR,
	 "the nvidia driver hit a kernel {kind} while probing the GPU ({frame}, in {function}): the "
	 "driver could not initialize it, nvidia-smi and containers get no such GPU",
	 "reboot the host; if it recurs, another driver branch or the other module flavour (open or "
	 "proprietary), and collect nvidia-bug-report.sh for NVIDIA",
	 LX_KMSG_OOPS, {{"context", 0}, {"frame", 0}, {"module", 0}, {"gpu", 0}, {"kind", 0}, {"function", 0},
			{"process", 0}},
	 "arch/x86/mm/fault.c show_fault_oops(): \"BUG: kernel NULL pointer dereference, address: %px\", "
	 "\"BUG: unable to handle page fault for address: %px\", kernel/panic.c __warn(): \"WARNING: "
	 "CPU: %d PID: %d at %s:%d %pS\", lib/bug.c report_bug(): \"kernel BUG at %s:%u!\", whose "
	 "call trace runs through kernel-open/nvidia/nv-pci.c nv_pci_probe(); a WARN (or lockup) the "
	 "probe went on after, nv.c nvidia_init_module()'s \"NVRM: loading %s\" (printed only when a "
	 "probe finished, num_nv_devices > 0) following it before \"NVRM: The NVIDIA probe routine "
	 "failed for %d device(s).\" or the GPU's \"probe of %s failed\", is no failed probe, nor is "
	 "one after which the log has no line of the driver (an excerpt that ends with it) (the WARN "
	 "stays gpu-driver-warn's)"},
	/* The general layer for i915 and xe, after every other row (a line a
	 * row above names stays that row's): an *ERROR* line that says it
	 * failed and whose GT prefix (gt_err's "GT0: ", guc_err's "GT0: GUC: ",
	 * xe_gt_err's "Tile0: GT0: "), text (GuC, HuC, DMC, suspend) or
	 * DRM_ERROR function ("[drm:intel_guc_init [i915]]", kernels before
	 * 5.8, no address: the log's only Intel GPU) belongs to a family gets
	 * the family's code; a specific row of that code about the same GPU
	 * leads its finding (LX_KMSG_FALLBACK). Display and PCODE lines have
	 * no general row: working machines print some (FIFO underruns, AUX
	 * timeouts, "Unexpected DP dual mode adaptor", pcode mailbox errors). */
	{"intel-guc-runtime-error",
	 INTEL_ERR_DEV "(" INTEL_GT_TAG "(GUC: )?(.*" INTEL_GUC_WORK ".*" INTEL_FAILED ".*|.*" INTEL_FAILED ".*"
	 INTEL_GUC_WORK ".*|.*([Cc]rash (dump )?notification|[Ee]xception notification|[Ff]irmware exception).*))|"
	 INTEL_ERR_FUNC("intel_guc_ct|guc_ct|ct_|intel_guc_send|guc_send|intel_guc_to_host|guc_handle|"
			"i915_guc_submission|intel_guc_submission|guc_submission|guc_exec|guc_lrc|guc_context|"
			"__guc|guc_engine|guc_reset") "(.*" INTEL_FAILED ".*)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "{where} reported that the Intel GPU's GuC (the firmware that schedules its engines) failed "
	 "at work (\"{message}\"): jobs on the GPU stall or are reset, and programs using it (in every "
	 "container holding it) may lose their work",
	 FIX_INTEL_HANG,
	 LX_KMSG_SOLE_INTEL | LX_KMSG_FALLBACK,
	 {{"gpu", 2}, {"message", 3}, {"where", 1}, {"gpu", 19}, {"where", 20}, {"message", 23}, {"driver", 18},
	  {"driver", 22}},
	 "i915 6.x gt/uc/intel_guc_submission.c: guc_err(guc, \"Bad context sched_state 0x%x, ctx_id "
	 "%u\\n\"), \"Invalid ctx_id %u\\n\", \"Engine reset failed on %d:%d (%s) because 0x%08X\"; "
	 "intel_guc_ct.c: \"Communication stalled for %lld ms, desc status=%#x,%#x\\n\" (CT_ERROR(): "
	 "guc_err() with CT:, guc_err(): gt_err() with GUC:, gt_err(): drm_err() with GT%u:); "
	 "intel_guc.c \"Crash dump notification\\n\"; xe xe_gt_printk.h xe_gt_err(): \"Tile%u: GT%u: \" fmt "
	 "(xe_guc_ct.c \"CT write: tail was modified %u != %u\\n\", xe_guc.c \"GuC Crash dump "
	 "notification\\n\"); 4.x-5.x DRM_ERROR() in intel_guc_ct.c and intel_guc_submission.c "
	 "(\"[drm:ct_send [i915]] *ERROR* CT: fence %u err %d\")"},
	{"intel-uc-error",
	 INTEL_ERR_DEV "(" INTEL_GT_TAG "(.*" INTEL_UC ".*" INTEL_FAILED ".*|.*" INTEL_FAILED ".*" INTEL_UC ".*))|"
	 INTEL_ERR_FUNC("intel_guc|intel_uc|intel_huc|intel_gsc|__intel_uc|__uc|uc_|guc_|huc_|gsc_|i915_guc|"
			"i915_huc|intel_wopcm|i915_driver_probe|i915_driver_hw_probe|i915_driver_load|"
			"i915_driver_init|i915_driver_mmio_probe|i915_driver_early_probe|i915_load_modeset_init|"
			"i915_gem_init|intel_gt_init|i915_ggtt_probe|i915_ggtt_init|i915_pci_probe|i915_mmio_setup|"
			"intel_uncore_init|xe_device_probe|"
			"xe_pci_probe") "(.*" INTEL_FAILED ".*)",
	 LXG141_GPU_INIT_FAILED, LX_SEVERITY_WARNING,
	 "{where} reported that a part of the Intel GPU's start failed (\"{message}\"): the GuC, "
	 "HuC or GSC firmware or a step of the driver's init did not come up, so the GPU may be "
	 "declared wedged or run without its media engines, and transcoding or compute in containers "
	 "holding it fail",
	 "see the message before it about the same GPU; " FIX_INTEL_GUC,
	 LX_KMSG_SOLE_INTEL | LX_KMSG_FALLBACK,
	 {{"gpu", 2}, {"message", 3}, {"where", 1}, {"gpu", 16}, {"where", 17}, {"message", 20}, {"driver", 15},
	  {"driver", 19}},
	 "i915 6.x gt/uc/intel_guc_slpc.c: guc_probe_error(guc, \"Failed to allocate SLPC struct: "
	 "%pe\\n\"), pxp/intel_pxp_tee.c: gt_probe_error(gt, \"failed to load huc via gsc %d\\n\"), "
	 "and every guc_err()/huc_err() (prefixed GT%u: GUC: or GT%u: HuC:) and gt_err() "
	 "(intel_uc.c \"%s initialization failed\\n\", intel_uc_fw.c \"%s firmware %s: fetch failed "
	 "%pe\\n\", intel_gsc_uc.c \"GSC init failed %pe\\n\", intel_guc_slpc.c \"SLPC not enabled! "
	 "State = %s\\n\"); 5.8-6.2 drm_err() without the GT prefix (\"GuC initialization failed "
	 "%d\\n\"); i915_driver.c drm_err() \"failed to enable GGTT\\n\", \"Can't set DMA "
	 "mask/consistent mask (%d)\\n\", intel_region_lmem.c \"LMEM: reserving low memory region "
	 "failed\\n\"; xe xe_gt_err() (\"Tile%u: GT%u: \", xe_uc_fw.c, xe_gsc.c \"GSC proxy component not "
	 "bound!\\n\"); "
	 "4.x-5.x DRM_ERROR() in intel_guc*.c, intel_huc.c, intel_uc*.c, i915_drv.c "
	 "(\"[drm:intel_huc_auth [i915]] *ERROR* HuC: Firmware not verified %#x\\n\")"},
	{"intel-pm-error",
	 INTEL_ERR_DEV "(" INTEL_GT_TAG "(.*" INTEL_PM ".*" INTEL_FAILED ".*|.*" INTEL_FAILED ".*" INTEL_PM ".*))|"
	 INTEL_ERR_FUNC("intel_runtime_suspend|intel_runtime_resume|i915_drm_suspend|i915_drm_resume|"
			"i915_drm_freeze|i915_drm_thaw|i915_drm_prepare|i915_pm_|vlv_suspend|vlv_resume|"
			"intel_runtime_pm|xe_pm_") "(.*" INTEL_FAILED ".*)",
	 LXG174_GPU_PM_FAILED, LX_SEVERITY_WARNING,
	 "{where} reported that the Intel GPU failed a power transition (\"{message}\"): it may not "
	 "come back from a suspend or runtime suspend, and containers holding it lose it until a "
	 "reboot",
	 FIX_PM_RESUME,
	 LX_KMSG_SOLE_INTEL | LX_KMSG_FALLBACK,
	 {{"gpu", 2}, {"message", 3}, {"where", 1}, {"gpu", 16}, {"where", 17}, {"message", 20}, {"driver", 15},
	  {"driver", 19}},
	 "i915 i915_driver.c (earlier i915_drv.c) i915_drm_resume_early(): DRM_ERROR(\"Resume prepare "
	 "failed: %d, continuing anyway\\n\") (5.8 and later drm_err()), i915_drm_resume(): \"failed to "
	 "re-enable GGTT\\n\"; i915_drm_suspend_late(), "
	 "intel_runtime_suspend()/intel_runtime_resume(): drm_err() (\"Suspend complete failed: %d\\n\", "
	 "\"Runtime suspend failed, disabling it (%d)\\n\"; 4.x-5.x DRM_ERROR(), \"[drm:i915_drm_resume "
	 "[i915]] *ERROR* ...\"); xe xe_pm.c xe_pm_suspend()/xe_pm_resume(): drm_dbg() and "
	 "xe_gt_err(gt, \"suspend failed (%pe)\\n\") in xe_gt.c"},
	{"intel-dmc-error",
	 INTEL_ERR_DEV "((.*(DMC|CSR) ([Ff]irmware|FW|fw)|.*[Tt]runcated DMC|Reading beyond the fw_size).*)|"
	 INTEL_ERR_FUNC("intel_dmc|intel_csr|dmc_|csr_|parse_dmc|parse_csr") "(.*)",
	 LXG140_GPU_FIRMWARE_MISSING, LX_SEVERITY_WARNING,
	 "{where} reported that the Intel GPU's display firmware (DMC) was refused (\"{message}\"): "
	 "the display engine runs without it, so its deep power states (and runtime power management) "
	 "are off" DISPLAY_OUTPUT_ONLY,
	 "install the linux-firmware of the kernel's release (its i915/*_dmc*.bin must suit the "
	 "kernel), update-initramfs -u and reboot",
	 LX_KMSG_SOLE_INTEL | LX_KMSG_FALLBACK,
	 {{"gpu", 2}, {"message", 3}, {"where", 1}, {"gpu", 9}, {"where", 10}, {"message", 13}, {"driver", 8},
	  {"driver", 12}},
	 "i915 display/intel_dmc.c (before 5.15 intel_csr.c) parse_dmc_fw(): drm_err(\"Truncated DMC "
	 "firmware, refusing.\\n\"); parse_dmc_fw_header(), parse_dmc_fw_package(), parse_dmc_fw_css(): "
	 "drm_err() (\"DMC firmware has wrong CSS header "
	 "length (%u bytes)\\n\", \"Unknown DMC fw header version: %u\\n\", \"Truncated DMC firmware, "
	 "refusing.\\n\", \"DMC FW too big (%u bytes)\\n\", \"Reading beyond the fw_size\\n\"); 4.x-5.x "
	 "DRM_ERROR() (\"[drm:csr_load_work_fn [i915]] *ERROR* ...\")"},
	{"intel-gt-error",
	 INTEL_ERR_DEV "(" INTEL_GT_TAG_REQ ".*" INTEL_FAILED ".*|(.*" INTEL_GT_WORK ".*" INTEL_FAILED ".*|.*"
	 INTEL_FAILED ".*" INTEL_GT_WORK ".*))|"
	 INTEL_ERR_FUNC("i915_gem|i915_reset|intel_reset|i915_gpu|intel_gpu_reset|gen[0-9]+_reset|"
			"gen[0-9]+_engine|i915_request|__i915_request|i915_wait|__i915_wait|intel_engine|"
			"intel_gt|__intel_gt|intel_ring|intel_init_ring|init_ring|intel_lr|intel_logical_ring|"
			"logical_ring|execlists|intel_execlists|__execlists|intel_context|i915_handle_error|"
			"i915_capture|intel_uncore|__intel_uncore|fw_domain|intel_wait_for_register|"
			"__intel_wait_for_register|i915_hangcheck|hangcheck") "(.*" INTEL_FAILED ".*)",
	 LXG142_GPU_HANG, LX_SEVERITY_WARNING,
	 "{where} reported an error of the Intel GPU's GT, its engines and their scheduling "
	 "(\"{message}\"): jobs on the GPU stall, are reset or fail, and programs using it (in every "
	 "container holding it) may lose their work",
	 FIX_INTEL_HANG,
	 LX_KMSG_SOLE_INTEL | LX_KMSG_FALLBACK,
	 {{"gpu", 2}, {"message", 3}, {"where", 1}, {"gpu", 20}, {"where", 21}, {"message", 24}, {"driver", 19},
	  {"driver", 23}},
	 "i915 6.x gt/intel_gt_irq.c gen11_gt_engine_identity(): gt_err(gt, \"INTR_IDENTITY_REG%u:%u "
	 "0x%08x not valid!\\n\"); xe xe_reg_sr.c xe_reg_sr_apply_mmio(): xe_gt_err(gt, \"Failed to apply, err=-ETIMEDOUT\\n\"); "
	 "every "
	 "gt_err() (drm_err() with GT%u:; 5.8-6.3 drm_err() without it: lines that name an engine, "
	 "rcs0 to ccs3, or forcewake) (intel_reset.c \"Failed to "
	 "reset chip\\n\", intel_gt_pm.c \"Failed to restart %s (%d)\\n\", intel_gt.c \"Failed to "
	 "initialise HW following reset (%d)\\n\"); xe xe_gt_printk.h xe_gt_err(): \"Tile%u: GT%u: \" "
	 "fmt, xe_tile_printk.h xe_tile_err(): \"Tile%u: \" fmt; 4.x-5.x DRM_ERROR() in i915_gem.c, "
	 "intel_engine_cs.c, intel_lrc.c, intel_uncore.c, i915_gpu_error.c (\"[drm:i915_reset [i915]] "
	 "*ERROR* Failed to reset chip\")"},
};

#define ACTION_RESET                                                                               \
	"stop what uses the GPU (every container holding it) and reset it (nvidia-smi -r -i "     \
	"<gpu>), else reboot the host; if it recurs after a reboot, contact the vendor"
#define NVLINK5_FIX                                                                                \
	"decode its registers with NVIDIA's Xid catalogue (XID 144-150 decode); a fatal one on a "  \
	"link that stays down needs a reboot"
#define ACTION_ENGINE                                                                              \
	"restart the application that used the engine; if it recurs with every program, reset the "   \
	"GPU and contact NVIDIA"
#define ACTION_APP                                                                                 \
	"restart the application; if it recurs, debug it (compute-sanitizer, cuda-gdb); a driver "  \
	"or hardware problem only when every program hits it"

/* NVIDIA's Xid catalogue: mnemonic, description and immediate-action
 * bucket as docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html
 * gives them (61: the r555 catalogue's text; the current one no longer
 * lists it). The severity is doctor's reading of the bucket:
 * RESET_GPU, RESTART_BM and the reset workflows are errors (the GPU is
 * unusable until reset), RESTART_APP and IGNORE are notes or warnings. */
static const struct lx_xid_info xids[] = {
	{13, "ROBUST_CHANNEL_GR_EXCEPTION", "graphics engine exception: usually an application "
	 "fault (out-of-bounds access, illegal instruction)", "RESTART_APP", LX_SEVERITY_INFO, ACTION_APP},
	{31, "ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT", "GPU memory page fault: usually an "
	 "application's illegal address", "RESTART_APP", LX_SEVERITY_INFO, ACTION_APP},
	{32, "ROBUST_CHANNEL_PBDMA_ERROR", "invalid or corrupted push buffer stream (mostly PCIe "
	 "quality)", "RESTART_APP", LX_SEVERITY_WARNING,
	 "restart the application; check the PCIe link (seating, riser) if it recurs"},
	{43, "ROBUST_CHANNEL_RESETCHANNEL_VERIF_ERROR", "GPU stopped processing: an application hit "
	 "a software-induced fault and was ended; the GPU stays healthy", "IGNORE", LX_SEVERITY_INFO,
	 "nothing for the GPU; the application that was ended should be debugged if it recurs"},
	{45, "ROBUST_CHANNEL_PREEMPTIVE_REMOVAL", "preemptive cleanup: the driver tore down an "
	 "application (ended by the user, or after an earlier error)", "WORKFLOW_XID_45",
	 LX_SEVERITY_INFO, "follow the Xid before it, if any; alone it needs nothing"},
	{8, "ROBUST_CHANNEL_FIFO_ERROR_IDLE_TIMEOUT", "GPU stopped processing", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_APP},
	{46, "ROBUST_CHANNEL_GPU_TIMEOUT_ERROR", "GPU stopped processing: it must be reset", "RESET_GPU",
	 LX_SEVERITY_ERROR, ACTION_RESET},
	{48, "ROBUST_CHANNEL_GPU_ECC_DBE", "double-bit ECC error: uncorrectable memory error",
	 "WORKFLOW_XID_48", LX_SEVERITY_ERROR,
	 "reset the GPU (nvidia-smi -r) or reboot to clear it; with Xid 63/64, or if it recurs, "
	 "drain the GPU and run field diagnostics"},
	/* 61: the r555 catalogue (the current one no longer lists it): "PMU
	 * Breakpoint. Report a GPU Issue and Reset GPU(s) reporting the XID" */
	{61, "PMU_BREAKPOINT", "internal micro-controller breakpoint/warning (PMU breakpoint): the GPU's "
	 "internal engine stops working", "RESET_GPU", LX_SEVERITY_ERROR,
	 "stop what uses the GPU (every container holding it) and reset it (nvidia-smi -r -i <gpu>), "
	 "else reboot the host; report it to NVIDIA (nvidia-bug-report.sh)"},
	{62, "PMU_HALT_ERROR", "internal micro-controller halt", "RESET_GPU", LX_SEVERITY_ERROR,
	 ACTION_RESET},
	{63, "INFOROM_DRAM_RETIREMENT_EVENT", "GPU memory remapping (or page retirement) event: "
	 "bad memory is replaced at the next GPU reset", "IGNORE", LX_SEVERITY_WARNING,
	 "reset the GPU when it is idle (nvidia-smi -r) to activate the remapping"},
	{64, "INFOROM_DRAM_RETIREMENT_FAILURE", "GPU memory remapping failure", "RESET_GPU",
	 LX_SEVERITY_ERROR, ACTION_RESET},
	{69, "ROBUST_CHANNEL_GR_CLASS_ERROR", "graphics engine class error", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_APP},
	{74, "NVLINK_ERROR", "NVLink error: a link to another GPU or NVSwitch failed (a GPU reset or "
	 "reboot clears it)", "WORKFLOW_NVLINK_ERR", LX_SEVERITY_ERROR,
	 "reset the GPU or reboot; nvidia-smi nvlink -e shows the link's errors; contact the "
	 "vendor if it recurs"},
	{92, "EXCESSIVE_SBE_INTERRUPTS", "high single-bit ECC error rate (corrected)", "IGNORE",
	 LX_SEVERITY_INFO, "watch for Xid 48 or 64 on the same GPU"},
	{94, "ROBUST_CHANNEL_CONTAINED_ERROR", "contained memory error: the application that hit "
	 "it must restart, the others run on", "RESTART_APP", LX_SEVERITY_WARNING,
	 "restart the application; reset the GPU when convenient"},
	{95, "ROBUST_CHANNEL_UNCONTAINED_ERROR", "uncontained memory error: every application on "
	 "the GPU is affected, the GPU must be reset", "RESET_GPU", LX_SEVERITY_ERROR, ACTION_RESET},
	{109, "ROBUST_CHANNEL_CTXSW_TIMEOUT_ERROR", "context switch timeout", "RESET_GPU",
	 LX_SEVERITY_ERROR, ACTION_RESET},
	{110, "SEC_FAULT_ERROR", "security fault error: uncommon unless hardware fails", "RESET_GPU",
	 LX_SEVERITY_ERROR, "revert recent hardware changes and cold-reset the host; contact the vendor if "
	 "it recurs"},
	{119, "GSP_RPC_TIMEOUT", "GSP RPC timeout: the GPU's firmware processor did not answer",
	 "RESET_GPU", LX_SEVERITY_ERROR, ACTION_RESET},
	{120, "GSP_ERROR", "GSP error: code on the GPU's firmware processor faulted", "RESET_GPU",
	 LX_SEVERITY_ERROR, ACTION_RESET},
	{121, "C2C_ERROR", "C2C error: corrected errors on the NVLink-C2C link to a Grace CPU (no "
	 "operational impact)", "IGNORE", LX_SEVERITY_INFO,
	 "nothing now; reset the GPU at a service window to retrain the link"},
	{136, "ALI_TRAINING_FAIL", "NVLink link training failed", "RESET_GPU", LX_SEVERITY_ERROR,
	 ACTION_RESET},
	/* 137: nverror.h names it NVLINK_FLA_PRIV_ERR */
	{137, "NVLINK_PRIV_ERR", "NVLink privilege error: the remote MMU refused an illegal NVLink "
	 "peer-to-peer access (usually an application bug)", "IGNORE", LX_SEVERITY_INFO, ACTION_APP},
	{140, "UNRECOVERABLE_ECC_ERROR_ESCAPE", "ECC unrecovered error: uncorrectable memory errors the "
	 "driver could not retire or remap", "RESET_GPU", LX_SEVERITY_ERROR, ACTION_RESET},
	{143, "GPU_INIT_ERROR", "GPU initialization error", "RESET_GPU", LX_SEVERITY_ERROR, ACTION_RESET},
	/* 144-150: NVLink 5 (Blackwell); fatal or not is in the message */
	{144, "NVLINK_SAW_ERROR", "NVLink SAW error (NVLink 5)", "WORKFLOW_NVLINK5_ERR", LX_SEVERITY_WARNING,
	 NVLINK5_FIX},
	{145, "NVLINK_RLW_ERROR", "NVLink RLW error (NVLink 5)", "WORKFLOW_NVLINK5_ERR", LX_SEVERITY_WARNING,
	 NVLINK5_FIX},
	{146, "NVLINK_TLW_ERROR", "NVLink TLW error (NVLink 5)", "WORKFLOW_NVLINK5_ERR", LX_SEVERITY_WARNING,
	 NVLINK5_FIX},
	{147, "NVLINK_TREX_ERROR", "NVLink TREX error (NVLink 5)", "WORKFLOW_NVLINK5_ERR",
	 LX_SEVERITY_WARNING, NVLINK5_FIX},
	{148, "NVLINK_NVLPW_CTRL_ERROR", "NVLink NVLPW_CTRL error (NVLink 5)", "WORKFLOW_NVLINK5_ERR",
	 LX_SEVERITY_WARNING, NVLINK5_FIX},
	{149, "NVLINK_NETIR_ERROR", "NVLink NETIR error (NVLink 5)", "WORKFLOW_NVLINK5_ERR",
	 LX_SEVERITY_WARNING, NVLINK5_FIX},
	{150, "NVLINK_MSE_ERROR", "NVLink MSE error (NVLink 5)", "WORKFLOW_NVLINK5_ERR",
	 LX_SEVERITY_WARNING, NVLINK5_FIX},
	{151, "ROBUST_CHANNEL_KEY_ROTATION_ERROR", "key rotation error (confidential computing)",
	 "RESTART_VM", LX_SEVERITY_ERROR,
	 "restart the virtual machine the GPU is given to (on the host itself: reboot); contact "
	 "the vendor if it recurs"},
	{154, "GPU_RECOVERY_ACTION_CHANGED", "GPU recovery action changed: what the GPU needs now",
	 "XID_154", LX_SEVERITY_WARNING, "do what the recovery action says"},
	{155, "NVLINK_SW_DEFINED_ERROR", "NVLink software-defined error (a link brought down on "
	 "purpose)", "RESET_GPU", LX_SEVERITY_ERROR, ACTION_RESET},
	{156, "RESOURCE_RETIREMENT_EVENT", "resource retirement event: the driver retired a faulty "
	 "resource of the GPU; NVIDIA's action: reset the GPU", "RESET_GPU", LX_SEVERITY_ERROR,
	 ACTION_RESET},
	{157, "RESOURCE_RETIREMENT_FAILURE", "resource retirement failure: no repair left for lack of "
	 "spare resources", "IGNORE", LX_SEVERITY_WARNING,
	 "the GPU goes on working but may report the Xid again; plan its replacement"},
	{158, "GPU_FATAL_TIMEOUT", "GPU fatal timeout", "RESET_GPU", LX_SEVERITY_ERROR, ACTION_RESET},
	{159, "ROBUST_CHANNEL_CHI_NON_DATA_ERROR", "CHI non-data error (seen on any GPU linked to a CPU "
	 "by C2C)", "CHECK_UVM", LX_SEVERITY_WARNING,
	 "check nvidia_uvm (the kernel log around it, the driver's version); contact the vendor if "
	 "it recurs"},
	/* The rest of nverror.h (595.45.04, the newest open-gpu-kernel-modules
	 * the mirror has) that the catalogue does not mark unused: its
	 * description and immediate-action bucket; 160-172 as the catalogue
	 * lists them (no bucket for 162-172: its trigger text instead), 173-176
	 * from the source only (nverror.h's name, kernel_gsp.c). */
	{14, "ROBUST_CHANNEL_FAKE_ERROR", "fake or injected error from user space (a test, not a "
	 "fault)", "IGNORE", LX_SEVERITY_INFO, "nothing, unless nobody injected errors on purpose"},
	{39, "ROBUST_CHANNEL_CE0_ERROR", "copy engine exception (CE0)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{40, "ROBUST_CHANNEL_CE1_ERROR", "copy engine exception (CE1)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{41, "ROBUST_CHANNEL_CE2_ERROR", "copy engine exception (CE2)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{44, "ROBUST_CHANNEL_GR_FAULT_DURING_CTXSW", "graphics engine fault during a context switch",
	 "IGNORE", LX_SEVERITY_INFO, ACTION_APP},
	{60, "ROBUST_CHANNEL_SEC2_ERROR", "video processor exception (SEC2)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{68, "ROBUST_CHANNEL_NVDEC0_ERROR", "video decoder exception (NVDEC0): the decode job "
	 "(ffmpeg, a media server's transcode) failed", "RESTART_APP", LX_SEVERITY_WARNING, ACTION_ENGINE},
	{70, "ROBUST_CHANNEL_CE3_ERROR", "copy engine error (CE3)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{71, "ROBUST_CHANNEL_CE4_ERROR", "copy engine error (CE4)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{72, "ROBUST_CHANNEL_CE5_ERROR", "copy engine error (CE5)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{75, "ROBUST_CHANNEL_CE6_ERROR", "copy engine error (CE6)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{76, "ROBUST_CHANNEL_CE7_ERROR", "copy engine error (CE7)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{77, "ROBUST_CHANNEL_CE8_ERROR", "copy engine error (CE8)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{78, "VGPU_START_ERROR", "vGPU start error: the virtual GPU could not start (gpu.c, rpc.c: "
	 "e.g. \"vGPU type is not supported\")", "UPDATE_SWFW", LX_SEVERITY_ERROR,
	 "update the host's vGPU manager and the guest driver to matching releases, and the GPU's "
	 "firmware"},
	{80, "PBDMA_PUSHBUFFER_CRC_MISMATCH", "corrupted data sent to the GPU (push buffer CRC "
	 "mismatch)", "RESTART_APP", LX_SEVERITY_WARNING,
	 "restart the application; check the PCIe link (seating, riser) and the host's memory if it "
	 "recurs"},
	{82, "ROBUST_CHANNEL_NVJPG0_ERROR", "JPEG engine error (NVJPG0)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{83, "ROBUST_CHANNEL_NVDEC1_ERROR", "video decoder error (NVDEC1)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{84, "ROBUST_CHANNEL_NVDEC2_ERROR", "video decoder error (NVDEC2)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{85, "ROBUST_CHANNEL_CE9_ERROR", "copy engine error (CE9)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{86, "ROBUST_CHANNEL_OFA0_ERROR", "optical flow accelerator exception (OFA0)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{88, "ROBUST_CHANNEL_NVDEC3_ERROR", "video decoder error (NVDEC3)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{89, "ROBUST_CHANNEL_NVDEC4_ERROR", "video decoder error (NVDEC4)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{93, "INFOROM_ERASE_LIMIT_EXCEEDED", "the driver could not update the InfoROM: the wear "
	 "limit provisioned with nvflash is reached (non-fatal)", "IGNORE", LX_SEVERITY_WARNING,
	 "clear the InfoROM erase limit (nvflash --elsessionclear); report it to NVIDIA if that does "
	 "not help"},
	{96, "ROBUST_CHANNEL_NVDEC5_ERROR", "video decoder error (NVDEC5)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{97, "ROBUST_CHANNEL_NVDEC6_ERROR", "video decoder error (NVDEC6)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{98, "ROBUST_CHANNEL_NVDEC7_ERROR", "video decoder error (NVDEC7)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{99, "ROBUST_CHANNEL_NVJPG1_ERROR", "JPEG engine error (NVJPG1)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{100, "ROBUST_CHANNEL_NVJPG2_ERROR", "JPEG engine error (NVJPG2)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{101, "ROBUST_CHANNEL_NVJPG3_ERROR", "JPEG engine error (NVJPG3)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{102, "ROBUST_CHANNEL_NVJPG4_ERROR", "JPEG engine error (NVJPG4)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{103, "ROBUST_CHANNEL_NVJPG5_ERROR", "JPEG engine error (NVJPG5)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{104, "ROBUST_CHANNEL_NVJPG6_ERROR", "JPEG engine error (NVJPG6)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{105, "ROBUST_CHANNEL_NVJPG7_ERROR", "JPEG engine error (NVJPG7)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	/* 108: the catalogue's description says unused, yet lists it for every
	 * GPU with a bucket; kern_gmmu_ga100.c reports it for a remote
	 * (NVLink peer) translation fault */
	{108, "NVLINK_REMOTE_TRANSLATION_ERROR", "NVLink remote translation error: a peer GPU's MMU "
	 "faulted on an NVLink access (usually an application bug, as Xid 137)", "IGNORE",
	 LX_SEVERITY_INFO, ACTION_APP},
	{126, "ROBUST_CHANNEL_CE10_ERROR", "copy engine error (CE10)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{127, "ROBUST_CHANNEL_CE11_ERROR", "copy engine error (CE11)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{128, "ROBUST_CHANNEL_CE12_ERROR", "copy engine error (CE12)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{129, "ROBUST_CHANNEL_CE13_ERROR", "copy engine error (CE13)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{130, "ROBUST_CHANNEL_CE14_ERROR", "copy engine error (CE14)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{131, "ROBUST_CHANNEL_CE15_ERROR", "copy engine error (CE15)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{132, "ROBUST_CHANNEL_CE16_ERROR", "copy engine error (CE16)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{133, "ROBUST_CHANNEL_CE17_ERROR", "copy engine error (CE17)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{134, "ROBUST_CHANNEL_CE18_ERROR", "copy engine error (CE18)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{135, "ROBUST_CHANNEL_CE19_ERROR", "copy engine error (CE19)", "RESTART_APP", LX_SEVERITY_WARNING,
	 ACTION_ENGINE},
	{139, "ROBUST_CHANNEL_OFA1_ERROR", "optical flow accelerator error (OFA1)", "RESTART_APP",
	 LX_SEVERITY_WARNING, ACTION_ENGINE},
	{141, "ROBUST_CHANNEL_FAST_PATH_ERROR", "CUDA fast path error", "IGNORE", LX_SEVERITY_INFO,
	 "nothing for the GPU; contact NVIDIA if it recurs"},
	{142, "ROBUST_CHANNEL_NVENC3_ERROR", "video encoder error (NVENC3)", "CONTACT_SUPPORT",
	 LX_SEVERITY_WARNING, "restart the application; report it to NVIDIA (nvidia-bug-report.sh) if "
	 "it recurs"},
	{160, "CHANNEL_RETIREMENT_EVENT", "channel retirement event: the driver marked a faulty "
	 "memory channel or L2 slice of the GPU, with its pair, for repair (R575 and later)", "IGNORE", LX_SEVERITY_INFO,
	 "nothing now; the repair takes effect at the next GPU reset"},
	{161, "CHANNEL_RETIREMENT_FAILURE", "channel retirement failure: no spare channel or L2 "
	 "slice is left to repair with (R575 and later)", "IGNORE", LX_SEVERITY_WARNING,
	 "the GPU goes on working but may report memory errors again; plan its replacement"},
	/* 162-165: nverror.h's ISINK_*, the catalogue's PSHC_* */
	{162, "ISINK_REENGAGED", "power smoothing hardware (PSHC) re-engaged", "none given",
	 LX_SEVERITY_INFO, "nothing"},
	{163, "ISINK_DISENGAGED", "power smoothing hardware (PSHC) disengaged: the GPU's power "
	 "draw swings", "none given", LX_SEVERITY_WARNING,
	 "no GPU reset needed; to have power smoothing back, resolve the thermal events, or reload "
	 "the driver or reset the GPU when it was disabled by a timeout"},
	{164, "ISINK_LOW_LIFETIME", "power smoothing hardware (PSHC) low lifetime reached: power "
	 "smoothing will soon be disabled", "none given", LX_SEVERITY_WARNING,
	 "watch the power swings; plan to replace the GPU if power smoothing is needed"},
	{165, "ISINK_ZERO_LIFETIME", "power smoothing hardware (PSHC) lifetime exhausted: the "
	 "driver disables power smoothing and the power draw swings", "none given", LX_SEVERITY_WARNING,
	 "replace the GPU if the power swings are not acceptable"},
	/* 166, 170: the catalogue's NVLINK_SECURE_CRYPTO_ERR, NVLINK_SECURE_OTHER */
	{166, "NVLINK_SECURE_NVLE_ERROR", "confidential computing: NVLink traffic seen before the "
	 "link was configured for encryption", "none given", LX_SEVERITY_WARNING,
	 "only in confidential computing mode: reset the GPU; contact NVIDIA if it recurs"},
	{167, "PCIE_FATAL_TIMEOUT", "fatal PCIe timeout: the GPU's PCIe accesses timed out",
	 "none given", LX_SEVERITY_ERROR,
	 "stop what uses the GPU (every container holding it) and reset it, else reboot the host; "
	 "check the PCIe link (seating, riser, slot) if it recurs"},
	{168, "REDUCED_GPU_MEMORY_CAPACITY", "errors found in the write-protected region (WPR): the "
	 "GPU runs with less memory (only with ECC disabled)", "none given", LX_SEVERITY_WARNING,
	 "enable ECC (nvidia-smi -e 1, then reset the GPU) so that the rows are remapped, or reboot"},
	{169, "SEC2_HALT_ERROR", "internal micro-controller halt (SEC2)", "none given", LX_SEVERITY_ERROR,
	 ACTION_RESET},
	{170, "NVLINK_SECURE_ERROR", "confidential computing: an NVLink interrupt seen in CC mode",
	 "none given", LX_SEVERITY_WARNING,
	 "only in confidential computing mode: reset the GPU; contact NVIDIA if it recurs"},
	{171, "UNCORRECTABLE_DRAM_ERROR", "uncorrectable DRAM (video memory) error: the detail of an "
	 "Xid 48", "none given", LX_SEVERITY_ERROR,
	 "reset the GPU (nvidia-smi -r) or reboot to clear it; if it recurs, drain the GPU and run "
	 "field diagnostics"},
	{172, "UNCORRECTABLE_SRAM_ERROR", "uncorrectable SRAM (on-chip memory) error: the detail of "
	 "an Xid 48", "none given", LX_SEVERITY_ERROR,
	 "reset the GPU (nvidia-smi -r) or reboot to clear it; check the SRAM error threshold "
	 "(nvidia-smi -q -d ECC) and RMA the GPU if it is exceeded"},
	{173, "C2C_FATAL_LINK_FAILURE", "fatal failure of the NVLink-C2C link to the CPU (Grace)",
	 "none given (nverror.h only)", LX_SEVERITY_ERROR,
	 "reboot the node; contact the vendor if it recurs"},
	{174, "ROBUST_CHANNEL_RESETCHANNEL_KILL_PROCESS_SILENT", "a channel reset that ended its "
	 "process quietly", "none given (nverror.h only)", LX_SEVERITY_INFO, ACTION_APP},
	{175, "MEMORY_SUBSYSTEM_ERROR", "a GSP RPC timed out because of a memory subsystem error "
	 "(kernel_gsp.c's timeout classification)", "none given (nverror.h only)", LX_SEVERITY_ERROR,
	 ACTION_RESET},
	{176, "PCIE_CORRECTABLE_ERROR_FAULT", "PCIe correctable errors reported as a fault",
	 "none given (nverror.h only)", LX_SEVERITY_WARNING,
	 "check the PCIe link (seating, riser, slot, ASPM); reset the GPU if it recurs"},
	/* 177: newer than 595.45.04: a 2026 tree's RAS events (ras_events.c,
	 * "Bank Remapper: New bank marked for remapping, reset gpu to
	 * activate.") name BANK_REMAPPING_EVENT; the same file's event keeps
	 * it in its xid177 record */
	{177, "BANK_REMAPPING_EVENT", "GPU memory bank remapping event: a bad memory bank is "
	 "replaced at the next GPU reset (as Xid 63 for a row)", "none given (newer than the catalogue)",
	 LX_SEVERITY_WARNING, "reset the GPU when it is idle (nvidia-smi -r) to activate the remapping"},
};

const struct lx_xid_info *lx_xid_catalogue(size_t *n)
{
	*n = sizeof(xids) / sizeof(xids[0]);
	return xids;
}

const struct lx_xid_info *lx_xid_lookup(unsigned number)
{
	for (size_t i = 0; i < sizeof(xids) / sizeof(xids[0]); i++)
		if (xids[i].number == number)
			return &xids[i];
	return NULL;
}

const struct lx_kmsg_entry *lx_kmsg_catalogue(size_t *n)
{
	*n = sizeof(catalogue) / sizeof(catalogue[0]);
	return catalogue;
}

static void match_clear(struct lx_kmsg_match *m)
{
	free(m->pci);
	for (size_t f = 0; f < LX_KMSG_FIELDS_MAX; f++)
		free(m->values[f]);
	memset(m, 0, sizeof(*m));
}

void lx_kmsg_matches_free(struct lx_kmsg_matches *m)
{
	for (size_t i = 0; i < m->n; i++)
		match_clear(&m->items[i]);
	free(m->items);
	memset(m, 0, sizeof(*m));
}

static int field_index(const struct lx_kmsg_entry *e, const char *name, size_t len)
{
	for (size_t f = 0; f < LX_KMSG_FIELDS_MAX && e->fields[f].name; f++)
		if (strlen(e->fields[f].name) == len && strncmp(e->fields[f].name, name, len) == 0)
			return (int)f;
	return -1;
}

const char *lx_kmsg_match_field(const struct lx_kmsg_match *m, const char *name)
{
	/* the normalised address, whichever field (or the record) gave it */
	if (strcmp(name, "gpu") == 0)
		return m->pci;
	/* a pattern of two forms names a field twice: the form that matched */
	for (size_t f = 0; f < LX_KMSG_FIELDS_MAX && m->entry->fields[f].name; f++)
		if (strcmp(m->entry->fields[f].name, name) == 0 && m->values[f])
			return m->values[f];
	return NULL;
}

char *lx_kmsg_match_fill(const struct lx_kmsg_match *m, const char *text)
{
	struct lx_buf b = {0};
	for (const char *p = text; *p;) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;
		size_t len = close ? (size_t)(close - p - 1) : 0;
		if (!close || len == 0 || len > 32 || strspn(p + 1, "abcdefghijklmnopqrstuvwxyz_") != len) {
			lx_buf_append(&b, p, 1);
			p++;
			continue;
		}
		_cleanup_free_ char *name = lx_xstrndup(p + 1, len);
		const char *v = lx_kmsg_match_field(m, name);
		lx_buf_puts(&b, v && *v ? v : "?");
		p = close + 1;
	}
	return lx_buf_steal(&b);
}

/* The lines a message may span: its own and the next ones that carry on
 * (continuations, or "NVRM: " lines of a message printed line by line). */
#define WINDOW_MAX 8

/* A row's compiled pattern (compiled_catalogue()). */
struct compiled_row {
	regex_t re;
	/* lx_ere_required_literal(): a line without it cannot match, and
	 * strstr() costs far less than regexec() on the lines no row is
	 * about (most of a boot); NULL when the pattern has none */
	char *literal;
};

struct window {
	struct lx_buf text;
	size_t ends[WINDOW_MAX]; /* text offset where each line ends */
	size_t n;
	size_t record; /* lines of the first record (itself and its continuation lines) */
};

static void window_build(const struct lx_kmsg *log, size_t i, struct window *w)
{
	memset(w, 0, sizeof(*w));
	lx_buf_puts(&w->text, log->lines[i].text);
	w->ends[w->n++] = w->text.len;
	w->record = 1;
	for (size_t j = i + 1; j < log->n && w->n < WINDOW_MAX; j++) {
		const char *t = log->lines[j].text;
		bool nvrm = lx_str_starts_with(t, "NVRM: ") && lx_str_starts_with(log->lines[i].text, "NVRM");
		if (!log->lines[j].continuation && !nvrm)
			break;
		if (lx_str_starts_with(t, "NVRM: "))
			t += strlen("NVRM: ");
		while (*t == ' ')
			t++;
		/* journalctl's pager cuts a long line with '>' (what followed is
		 * lost): the message goes on with the next line ("...in this
		 * system>" then "NVRM:  supported through ...") */
		const char *prev = w->text.data + w->text.len - 1;
		if (w->text.len && *prev == '>' && !memchr(w->text.data, '<', w->text.len))
			w->text.data[--w->text.len] = '\0';
		lx_buf_puts(&w->text, " ");
		lx_buf_puts(&w->text, t);
		w->ends[w->n++] = w->text.len;
		if (w->record == w->n - 1 && log->lines[j].continuation)
			w->record = w->n;
	}
}

static bool hex_run(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* The first PCI address in s: "0000:41:00.0", "41:00.0", "[0x41:0x00.0]"
 * (DMAR), "PCI:0000:2b:00" (Xid, no function). Completed from the host's
 * GPUs when it lacks the domain or function. */
static char *find_pci(const char *s, const struct lx_host *host)
{
	for (const char *p = s; *p; p++) {
		/* an address starts a word ("PCI:" before it is Xid's spelling) */
		bool after_pci = p - s >= 4 && strncmp(p - 4, "PCI:", 4) == 0;
		if (p != s && (isalnum((unsigned char)p[-1]) || (p[-1] == ':' && !after_pci)))
			continue;
		char bus[3] = {0}, dev[3] = {0};
		const char *q = p;
		char domain[9] = "0000";
		/* optional domain of 4 or 8 hex digits */
		size_t d = strspn(q, "0123456789abcdefABCDEF");
		bool had_domain = (d == 4 || d == 8) && q[d] == ':';
		if (had_domain) {
			memcpy(domain, q, d);
			domain[d] = '\0';
			q += d + 1;
		}
		if (lx_str_starts_with(q, "0x"))
			q += 2;
		if (!hex_run(q, 2) || q[2] != ':')
			continue;
		memcpy(bus, q, 2);
		q += 3;
		if (lx_str_starts_with(q, "0x"))
			q += 2;
		if (!hex_run(q, 2))
			continue;
		memcpy(dev, q, 2);
		q += 2;
		char fn = '0';
		bool had_fn = *q == '.';
		if (*q == '.' && *++q >= '0' && *q <= '7')
			fn = *q;
		else if (*q == '.' || *q == ':' || isxdigit((unsigned char)*q))
			continue; /* "10:00:05" is a time */
		_cleanup_free_ char *text = lx_xasprintf("%s:%s:%s.%c", domain, bus, dev, fn);
		char *norm = NULL;
		if (!lx_pci_address_normalize(text, &norm))
			continue;
		/* A short address ("41:00.0") belongs to the GPU with that bus;
		 * one with its domain only to a GPU of that domain (0005:01:00.0
		 * is not the host's 0000:01:00.0), any function where it names none. */
		size_t n = strlen(norm);
		for (size_t g = 0; host && g < host->n_gpus; g++) {
			const char *b = host->gpus[g].bdf;
			bool same = had_domain ? strlen(b) == n && strncmp(b, norm, n - 1) == 0 &&
							 (!had_fn || b[n - 1] == norm[n - 1])
					       : lx_str_ends_with(b, norm + n - 7);
			if (same) {
				free(norm);
				return lx_xstrdup(b);
			}
		}
		return norm;
	}
	return NULL;
}

/* nvidia-drm's "[GPU ID 0x%08x]": the RM's id of the GPU, (domain & 0xffff)
 * << 16 | bus << 8 | slot (osinit.c nv_generate_id_from_pci_info(), gpu.c
 * gpuGenerate32BitId()), function 0. Domain 0 only: another domain's id
 * keeps its low 16 bits (Hyper-V's 25bed32b is d32b), so it is left to the
 * log's only NVIDIA GPU. NULL for one that is no address. */
static char *gpu_id_pci(const char *id, const struct lx_host *host)
{
	char *end = NULL;
	unsigned long v = strtoul(id, &end, 16);
	if (!end || end == id || *end || v > 0xffffUL || (v & 0xff) > 0x1f)
		return NULL;
	_cleanup_free_ char *text = lx_xasprintf("0000:%02lx:%02lx.0", v >> 8, v & 0xff);
	return find_pci(text, host);
}

static bool names_nvidia_device(const char *text)
{
	/* dev_printk's "nvidia 0000:07:00.0: ..." */
	return lx_str_starts_with(text, "nvidia ");
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* One finding per cause, GPU and key: rows of one code tell the same story
 * (two lines of a missing firmware, Xid 79 and "fallen off the bus");
 * Xid events only with the same number; one row's messages only with the
 * same key (its first field: another client version is another program).
 * A line without an address joins the one with it. */
static bool same_cause(const struct lx_kmsg_match *m, const struct lx_kmsg_match *ev)
{
	if (m->entry->code != ev->entry->code)
		return false;
	if (ev->entry->code == LXG110_XID && !same_text(m->values[0], ev->values[0]))
		return false;
	/* one row's messages with different keys are different causes; a
	 * message without the key (the other form of the row) joins */
	if (m->entry == ev->entry && m->values[0] && ev->values[0] && strcmp(m->values[0], ev->values[0]) != 0)
		return false;
	/* two rows' reports of firmware files: one cause per file */
	const char *mf = lx_kmsg_match_field(m, "file"), *ef = lx_kmsg_match_field(ev, "file");
	if (mf && ef && strcmp(mf, ef) != 0)
		return false;
	/* a line still without its address after bind_sole_gpu: the log shows
	 * several GPUs of its driver, and it is none of them in particular */
	if (((m->entry->flags | ev->entry->flags) & LX_KMSG_SOLE_ANY) &&
	    !m->pci != !ev->pci)
		return false;
	return !ev->pci || !m->pci || strcmp(ev->pci, m->pci) == 0;
}

/* What a later message of one finding adds to it: a field the first one
 * lacked (the page fault's process, printed on the record after it), and
 * every process its messages name ("Xorg, python3": two programs' page
 * faults on one GPU are one finding). */
static void merge_fields(struct lx_kmsg_match *same, const struct lx_kmsg_match *ev)
{
	for (size_t f = 0; f < LX_KMSG_FIELDS_MAX && same->entry->fields[f].name; f++) {
		const char *name = same->entry->fields[f].name;
		const char *v = strcmp(name, "gpu") == 0 ? NULL : lx_kmsg_match_field(ev, name);
		char *cur = same->values[f];
		if (!v || !*v)
			continue;
		if (!cur || !*cur) {
			free(cur);
			same->values[f] = lx_xstrdup(v);
			continue;
		}
		/* the processes a GPU's faults name, the rings its tests failed on */
		if (strcmp(name, "process") != 0 && strcmp(name, "ring") != 0)
			continue;
		size_t n = strlen(v);
		bool listed = false;
		for (const char *q = cur; q && !listed; q = strstr(q, ", ")) {
			q += q == cur ? 0 : 2;
			listed = strncmp(q, v, n) == 0 && (q[n] == '\0' || q[n] == ',');
		}
		if (!listed) {
			same->values[f] = lx_xasprintf("%s, %s", cur, v);
			free(cur);
		}
	}
}

static bool nvidia_missing(const struct lx_host *host)
{
	return !host || !host->driver.version || !lx_host_has_module(host, "nvidia_uvm");
}

/* The line each NVIDIA module prints when it loads (nv.c's "NVRM: loading
 * NVIDIA UNIX ... Kernel Module", uvm.c's "nvidia-uvm: Loaded the UVM
 * driver", nvidia-modeset-linux.c's "nvidia-modeset: Loading NVIDIA ...",
 * nvidia-drm's "[nvidia-drm] [GPU ID 0x...] Loading driver" and the DRM
 * core's "Initialized nvidia-drm"); NULL for a module that says nothing. */
static const char *const *module_loaded_marks(const char *module)
{
	static const char *const nvidia[] = {"NVRM: loading NVIDIA", NULL};
	static const char *const uvm[] = {"nvidia-uvm: Loaded", NULL};
	static const char *const modeset[] = {"nvidia-modeset: Loading NVIDIA", NULL};
	static const char *const drm[] = {"] Loading driver", "Initialized nvidia-drm", NULL};
	if (!module)
		return NULL;
	if (strcmp(module, "nvidia") == 0)
		return nvidia;
	if (strcmp(module, "nvidia_uvm") == 0 || strcmp(module, "nvidia-uvm") == 0)
		return uvm;
	if (strcmp(module, "nvidia_modeset") == 0 || strcmp(module, "nvidia-modeset") == 0)
		return modeset;
	if (strcmp(module, "nvidia_drm") == 0 || strcmp(module, "nvidia-drm") == 0)
		return drm;
	return NULL;
}

/* A refused NVIDIA module is history when the host runs the driver now and
 * the log shows that module loading after the refusal (a rebuild, the
 * next boot's load); a log that ends with the module refused is that
 * machine's state, whatever the host (a log read from a file, another
 * machine's, a boot the host is not in now). */
static bool module_refusal_counts(const struct lx_kmsg *log, const struct lx_host *host, size_t i,
				  const struct lx_kmsg_match *ev)
{
	if (nvidia_missing(host))
		return true;
	const char *const *marks = module_loaded_marks(lx_kmsg_match_field(ev, "module"));
	if (!marks)
		return false;
	for (size_t j = i + 1; j < log->n; j++)
		for (const char *const *m = marks; *m; m++)
			if (strstr(log->lines[j].text, *m))
				return false;
	return true;
}

/* Xid 154 says what the GPU needs now: "GPU recovery action changed from
 * 0x0 (None) to 0x1 (GPU Reset Required)" (gpu.c, _gpuRecoveryActionName). */
static char *xid154_action(const char *text)
{
	const char *to = text ? strstr(text, " to 0x") : NULL;
	const char *open = to ? strchr(to, '(') : NULL;
	const char *close = open ? strchr(open, ')') : NULL;
	if (!close || close - open > 64)
		return NULL;
	return lx_xstrndup(open + 1, (size_t)(close - open - 1));
}

static void set_xid(struct lx_kmsg_match *ev)
{
	const char *num = lx_kmsg_match_field(ev, "xid");
	if (!num)
		return;
	char *end = NULL;
	unsigned long n = strtoul(num, &end, 10);
	ev->xid = end && *end == '\0' && n < 100000 ? lx_xid_lookup((unsigned)n) : NULL;
	if (ev->xid)
		ev->severity = ev->xid->severity;
	/* NVLink 5 Xids say Fatal or Nonfatal themselves */
	const char *text = lx_kmsg_match_field(ev, "text");
	if (ev->xid && n >= 144 && n <= 150 && text && strstr(text, " Fatal "))
		ev->severity = LX_SEVERITY_ERROR;
	/* Xid 45 names the Xid that made the driver tear the application
	 * down (kernel_rc.c's " caused by previous Xid %d"): that one is the
	 * cause, and the event weighs as much as it */
	const char *by = text ? strstr(text, " caused by previous Xid ") : NULL;
	int root = field_index(ev->entry, "root_xid", strlen("root_xid"));
	if (by && root >= 0) {
		unsigned long r = strtoul(by + strlen(" caused by previous Xid "), &end, 10);
		const struct lx_xid_info *rx = r > 0 && r < 100000 ? lx_xid_lookup((unsigned)r) : NULL;
		ev->values[root] = lx_xasprintf("%lu", r);
		if (rx && rx->severity > ev->severity)
			ev->severity = rx->severity;
	}
	int a = field_index(ev->entry, "action", strlen("action"));
	if (n == 154 && a >= 0) {
		ev->values[a] = xid154_action(lx_kmsg_match_field(ev, "text"));
		const char *act = ev->values[a];
		if (act && (strstr(act, "Reset") || strstr(act, "Reboot")))
			ev->severity = LX_SEVERITY_ERROR;
		else if (act && strcmp(act, "None") == 0)
			ev->severity = LX_SEVERITY_INFO;
	}
}

/* RmInitAdapter's code (0x%x:0x%x:%d): the stage that failed, as
 * osinit.c's rm_init_status numbers them (the open driver's sources;
 * older drivers may number otherwise), and the NV_STATUS it failed with
 * (nvstatuscodes.h). */
static const struct {
	unsigned value;
	const char *name, *what;
} rm_init_stages[] = {
	{0x10, "RM_INIT_REG_SETUP_FAILED", "registry setup"},
	{0x11, "RM_INIT_SYS_ENVIRONMENT_FAILED", "system environment"},
	{0x20, "RM_INIT_GPU_GPUMGR_ALLOC_GPU_FAILED", "GPU allocation"},
	{0x21, "RM_INIT_GPU_GPUMGR_CREATE_DEV_FAILED", "GPU device creation"},
	{0x22, "RM_INIT_GPU_GPUMGR_ATTACH_GPU_FAILED", "GPU attach"},
	{0x23, "RM_INIT_GPU_PRE_INIT_FAILED", "GPU pre-initialization"},
	{0x24, "RM_INIT_GPU_STATE_INIT_FAILED", "GPU state initialization"},
	{0x25, "RM_INIT_GPU_LOAD_FAILED", "GPU state load"},
	{0x26, "RM_INIT_GPU_DMA_CONFIGURATION_FAILED", "DMA configuration"},
	{0x27, "RM_INIT_GPU_GPUMGR_EXPANDED_VISIBILITY_FAILED", "expanded visibility"},
	{0x30, "RM_INIT_VBIOS_FAILED", "VBIOS"},
	{0x31, "RM_INIT_VBIOS_POST_FAILED", "VBIOS POST"},
	{0x32, "RM_INIT_VBIOS_X86EMU_FAILED", "VBIOS x86 emulation"},
	{0x40, "RM_INIT_SCALABILITY_FAILED", "scalability"},
	{0x41, "RM_INIT_WATCHDOG_FAILED", "watchdog"},
	{0x42, "RM_FIFO_GET_UD_BAR1_MAP_INFO_FAILED", "BAR1 mapping"},
	{0x43, "RM_GPUDB_REGISTER_FAILED", "GPU database registration"},
	{0x44, "RM_INIT_ALLOC_RMAPI_FAILED", "RM API allocation"},
	{0x45, "RM_INIT_GPUINFO_WITH_RMAPI_FAILED", "GPU information"},
	{0x60, "RM_INIT_FIRMWARE_POLICY_FAILED", "firmware policy"},
	{0x61, "RM_INIT_FIRMWARE_FETCH_FAILED", "firmware fetch (the GSP firmware file)"},
	{0x62, "RM_INIT_FIRMWARE_INIT_FAILED", "firmware initialization (GSP boot)"},
};

static const struct {
	unsigned value;
	const char *name;
} nv_statuses[] = {
	{0x01, "NV_ERR_BROKEN_FB"},
	{0x05, "NV_ERR_CARD_NOT_PRESENT"},
	{0x0B, "NV_ERR_ECC_ERROR"},
	{0x0F, "NV_ERR_GPU_IS_LOST"},
	{0x10, "NV_ERR_GPU_IN_FULLCHIP_RESET"},
	{0x11, "NV_ERR_GPU_NOT_FULL_POWER"},
	{0x1A, "NV_ERR_INSUFFICIENT_RESOURCES"},
	{0x1B, "NV_ERR_INSUFFICIENT_PERMISSIONS"},
	{0x1C, "NV_ERR_INSUFFICIENT_POWER"},
	{0x1E, "NV_ERR_INVALID_ADDRESS"},
	{0x1F, "NV_ERR_INVALID_ARGUMENT"},
	{0x25, "NV_ERR_INVALID_DATA"},
	{0x26, "NV_ERR_INVALID_DEVICE"},
	{0x38, "NV_ERR_INVALID_OPERATION"},
	{0x3B, "NV_ERR_INVALID_PARAMETER"},
	{0x40, "NV_ERR_INVALID_STATE"},
	{0x45, "NV_ERR_IRQ_NOT_FIRING"},
	{0x47, "NV_ERR_MEMORY_TRAINING_FAILED"},
	{0x4B, "NV_ERR_MODULE_LOAD_FAILED"},
	{0x51, "NV_ERR_NO_MEMORY"},
	{0x54, "NV_ERR_NOT_COMPATIBLE"},
	{0x55, "NV_ERR_NOT_READY"},
	{0x56, "NV_ERR_NOT_SUPPORTED"},
	{0x57, "NV_ERR_OBJECT_NOT_FOUND"},
	{0x59, "NV_ERR_OPERATING_SYSTEM"},
	{0x5A, "NV_ERR_OTHER_DEVICE_FOUND"},
	{0x5F, "NV_ERR_PROTECTION_FAULT"},
	{0x61, "NV_ERR_REJECTED_VBIOS"},
	{0x62, "NV_ERR_RESET_REQUIRED"},
	{0x65, "NV_ERR_TIMEOUT"},
	{0x6B, "NV_ERR_PRIV_SEC_VIOLATION"},
	{0x6E, "NV_ERR_RESOURCE_LOST"},
	{0x6F, "NV_ERR_PMU_NOT_READY"},
	{0x70, "NV_ERR_FLCN_ERROR"},
	{0x71, "NV_ERR_FATAL_ERROR"},
	{0x72, "NV_ERR_MEMORY_ERROR"},
	{0x74, "NV_ERR_NVLINK_INIT_ERROR"},
	{0x79, "NV_ERR_RISCV_ERROR"},
	{0x7F, "NV_ERR_SECURE_BOOT_FAILED"},
	{0xFFFF, "NV_ERR_GENERIC"},
};

/* "stage" and "error" of an RmInitAdapter failure, from its code. */
const char *lx_rm_init_stage_text(const char *name)
{
	for (size_t i = 0; name && i < sizeof(rm_init_stages) / sizeof(rm_init_stages[0]); i++)
		if (strcmp(rm_init_stages[i].name, name) == 0)
			return rm_init_stages[i].what;
	return NULL;
}

static void set_rm_init(struct lx_kmsg_match *ev)
{
	int st = field_index(ev->entry, "stage", strlen("stage"));
	int er = field_index(ev->entry, "error", strlen("error"));
	const char *code = lx_kmsg_match_field(ev, "status");
	unsigned stage, status;
	if (st < 0 || er < 0 || !code || sscanf(code, "0x%x:0x%x", &stage, &status) != 2)
		return;
	for (size_t i = 0; i < sizeof(rm_init_stages) / sizeof(rm_init_stages[0]); i++)
		if (rm_init_stages[i].value == stage)
			ev->values[st] = lx_xstrdup(rm_init_stages[i].name);
	for (size_t i = 0; i < sizeof(nv_statuses) / sizeof(nv_statuses[0]); i++)
		if (nv_statuses[i].value == status)
			ev->values[er] = lx_xstrdup(nv_statuses[i].name);
	if (!ev->values[er])
		ev->values[er] = lx_xasprintf("NV_STATUS 0x%x", status);
}

/* the most subexpressions a row's pattern may capture, plus one: the rows that
 * take each driver's old and new wordings have many */
#define GROUPS_MAX 32

static char *gpu_line_pci(const char *text, const char *driver, const struct lx_host *host);

/* How close before an oops a line of its driver must be to name its GPU
 * when the log shows that driver with several GPUs. */
#define OOPS_NEAR_LINES 40

/* The GPU an oops is about: the device of a WARN's own message (drm_WARN
 * prints "i915 0000:00:02.0: [drm] ..."), else the driver's nearest line
 * before it that names one: in a log where that driver has several GPUs,
 * only a line just before it. NULL when the log does not say. */
static char *oops_gpu(const struct lx_kmsg *log, const struct lx_host *host, const struct lx_oops *o)
{
	for (size_t l = o->start; l <= o->first; l++) {
		char *pci = gpu_line_pci(log->lines[l].text, o->driver, host);
		if (pci)
			return pci;
	}
	char *nearest = NULL;
	size_t at = 0;
	for (size_t l = o->start; l-- > 0 && !nearest;) {
		nearest = gpu_line_pci(log->lines[l].text, o->driver, host);
		at = l;
	}
	if (!nearest || o->start - at <= OOPS_NEAR_LINES)
		return nearest;
	for (size_t l = 0; l < log->n; l++) {
		_cleanup_free_ char *pci = gpu_line_pci(log->lines[l].text, o->driver, host);
		if (pci && strcmp(pci, nearest) != 0) {
			free(nearest);
			return NULL; /* several GPUs, none of them near */
		}
	}
	return nearest;
}

static char *initialized_line_pci(const char *text, const char *name, const struct lx_host *host);

/* How far after a report in a probe the driver's word on how the probe
 * ended is looked for. */
#define PROBE_END_LINES 1000

/* Whether the driver finished the probe that a report the kernel goes on
 * after (a WARN, a lockup) happened in: after it, the driver's own word
 * that the GPU came up before any word that the probe failed. The DRM
 * core's "[drm] Initialized %s %d.%d.%d %s for %s on minor %d"
 * (drm_dev_register(), the end of amdgpu's, i915's, xe's and radeon's
 * probe) for the GPU; nvidia's "NVRM: loading %s" (kernel-open/nvidia/nv.c
 * nvidia_init_module(), printed after every probe and only when one
 * finished: num_nv_devices > 0), with no "NVRM: The NVIDIA probe routine
 * failed for %d device(s)." or "NVRM: None of the NVIDIA devices were
 * initialized." before it. A failed probe ends with the driver core's
 * "probe of %s failed with error %d" (6.x: "probe with driver %s failed
 * with error %d") for the GPU. */
static bool probe_went_on(const struct lx_kmsg *log, const struct lx_host *host, const struct lx_oops *o,
			  const char *pci)
{
	bool nvidia = strcmp(o->driver, "nvidia") == 0;
	for (size_t l = o->end + 1; l < log->n && l - o->end <= PROBE_END_LINES; l++) {
		const char *t = log->lines[l].text;
		if ((strstr(t, "probe of ") || strstr(t, "probe with driver ")) && strstr(t, " failed") &&
		    (pci ? strstr(t, pci) != NULL : strstr(t, o->driver) != NULL))
			return false;
		if (nvidia) {
			if (strstr(t, "NVRM: The NVIDIA probe routine failed") || strstr(t, "NVRM: None of the NVIDIA"))
				return false;
			if (lx_str_starts_with(t, "NVRM: loading "))
				return true;
			continue;
		}
		_cleanup_free_ char *up = initialized_line_pci(t, o->driver, host);
		if (up && (!pci || strcmp(up, pci) == 0))
			return true;
	}
	return false;
}

/* Whether the driver of a report says anything after it ("amdgpu
 * 0000:03:00.0: ...", "[drm:func [amdgpu]] ...", nvidia's "NVRM: ...",
 * "i915: ..."): an excerpt that ends with the report does not show how
 * the probe it happened in ended. */
static bool driver_speaks_after(const struct lx_kmsg *log, const struct lx_oops *o)
{
	bool nvidia = strcmp(o->driver, "nvidia") == 0;
	_cleanup_free_ char *bracketed = lx_xasprintf("[%s]", o->driver);
	size_t n = strlen(o->driver);
	for (size_t l = o->end + 1; l < log->n && l - o->end <= PROBE_END_LINES; l++) {
		const char *t = log->lines[l].text;
		if ((nvidia && lx_str_starts_with(t, "NVRM")) || strstr(t, bracketed) ||
		    (strncmp(t, o->driver, n) == 0 && (t[n] == ' ' || t[n] == ':')))
			return true;
	}
	return false;
}

/* Whether a report's call trace shows the driver undoing what its probe
 * set up ("intel_modeset_cleanup+0xbc/0x130 [i915]" under
 * "i915_driver_load+0xbad/0xdc0"): the probe's error path, so the probe
 * failed however the excerpt ends. */
static bool probe_unwinding(const struct lx_kmsg *log, const struct lx_oops *o)
{
	static const char *const undo[] = {"_cleanup+", "_fini+", "_fini_hw+", "_fini_sw+", "_unload+", "_teardown+"};
	for (size_t l = o->first; l <= o->end && l < log->n; l++)
		for (size_t u = 0; u < sizeof(undo) / sizeof(undo[0]); u++)
			if (strstr(log->lines[l].text, undo[u]))
				return true;
	return false;
}

/* An oops row's header at line i: whether it is a GPU driver's, the
 * fields, and the lines it spans (through: its last one). claimed: one past
 * the last line an earlier message took; a WARN whose own message a row
 * already named (intel_dmc.c's "DMC ... incorrect") is that row's. */
static const char *sleep_step(const struct lx_kmsg *log, size_t i);

static bool match_oops(const struct lx_kmsg *log, const struct lx_host *host, size_t i,
		       const struct lx_kmsg_entry *row, size_t claimed, struct lx_kmsg_match *ev, size_t *through)
{
	struct lx_oops o;
	if (!lx_oops_read(log, i, &o))
		return false;
	*ev = (struct lx_kmsg_match){.entry = row, .first = i, .last = o.last, .count = 1,
				     .severity = row->severity};
	*through = o.end;
	bool explained = !o.fatal && o.start < i && claimed > o.start;
	/* in the host's shutdown or reboot (device_shutdown() calling the
	 * driver's shutdown hook): no container runs on the GPU then, and the
	 * next boot starts it afresh */
	bool going_down = o.context && strcmp(o.context, "shutdown") == 0;
	if (!o.driver || explained || going_down) {
		lx_oops_free(&o);
		ev->entry = NULL; /* an oops, someone else's: its lines are no other row's */
		return true;
	}
	/* the power-transition row: only for a fault inside a PM callback */
	if (row->code == LXG174_GPU_PM_FAILED) {
		/* a report cut before its call trace, inside the system sleep the
		 * log shows: tasks are frozen then, the driver runs its suspend
		 * or resume callbacks */
		const char *sleep = !o.pm_step && !o.traced ? sleep_step(log, i) : NULL;
		if (sleep) {
			o.pm_step = sleep;
			o.pm_callback = lx_xstrdup("the excerpt ends before the call trace");
		}
		if (!o.pm_step) {
			lx_oops_free(&o);
			return false;
		}
		if (o.fatal)
			ev->severity = LX_SEVERITY_ERROR;
	}
	/* the rows for a reset, a hung wait or a probe in the trace: AMD's and
	 * Intel's drivers hang (LXG142) or fail their init (LXG141), nvidia's
	 * probe fails (LXG106) */
	bool nvidia = strcmp(o.driver, "nvidia") == 0;
	bool probe = o.context && strcmp(o.context, "probe") == 0;
	if ((row->code == LXG142_GPU_HANG && (!o.context || probe || nvidia)) ||
	    (row->code == LXG141_GPU_INIT_FAILED && (!probe || nvidia)) ||
	    (row->code == LXG106_INIT_FAILED && (!probe || !nvidia))) {
		lx_oops_free(&o);
		return false;
	}
	/* a WARN in a probe the driver then finished failed no probe, nor
	 * does one the excerpt ends with (the kernel goes on after a WARN:
	 * what became of the probe is not in the log) unless its trace shows
	 * the probe undoing itself: it stays the warning it is
	 * (gpu-driver-warn, LXG151) */
	if ((row->code == LXG141_GPU_INIT_FAILED || row->code == LXG106_INIT_FAILED) && !o.fatal) {
		_cleanup_free_ char *pci = oops_gpu(log, host, &o);
		if (probe_went_on(log, host, &o, pci) || (!driver_speaks_after(log, &o) && !probe_unwinding(log, &o))) {
			lx_oops_free(&o);
			return false;
		}
	}
	if (row->code == LXG142_GPU_HANG && o.fatal)
		ev->severity = LX_SEVERITY_ERROR;
	const char *values[] = {"module", o.module, "kind", o.kind, "function", o.function,
				"process", o.process, "step", o.pm_step, "callback", o.pm_callback,
				"context", o.context, "frame", o.context_frame};
	for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v += 2) {
		int f = field_index(row, values[v], strlen(values[v]));
		if (f >= 0 && values[v + 1])
			ev->values[f] = lx_xstrdup(values[v + 1]);
	}
	ev->pci = oops_gpu(log, host, &o);
	lx_oops_free(&o);
	return true;
}

/* The message at line i against row r: false when it does not match. */
/* A line of drm_edid's dump of an EDID block (edid_block_dump(): "\t[%02x]
 * BAD  ", "ZERO ", "GOOD " and 16 bytes); *bad set when the block is BAD. */
static bool edid_dump_line(const char *text, bool *bad)
{
	text += strspn(text, " \t");
	if (text[0] != '[' || !isxdigit((unsigned char)text[1]) || !isxdigit((unsigned char)text[2]) ||
	    strncmp(text + 3, "] ", 2) != 0)
		return false;
	text += 5;
	if (strncmp(text, "BAD ", 4) == 0)
		*bad = true;
	else if (strncmp(text, "ZERO ", 5) != 0 && strncmp(text, "GOOD ", 5) != 0)
		return false;
	return true;
}

/* A PCIe requester ID ("0300", "0x0300": bus << 8 | device << 3 |
 * function), as AER and DPC of older kernels name the device that sent an
 * error, in the domain of the reporting port (the message's first address). */
static char *requester_pci(const char *id, const char *text, const struct lx_host *host)
{
	char *end = NULL;
	unsigned long v = strtoul(id, &end, 16);
	/* 0: no source (DPC's own trigger) */
	if (!end || end == id || *end || v == 0 || v > 0xffffUL)
		return NULL;
	_cleanup_free_ char *port = find_pci(text, NULL);
	size_t d = port ? strcspn(port, ":") : 0;
	_cleanup_free_ char *domain = d == 4 || d == 8 ? lx_xstrndup(port, d) : lx_xstrdup("0000");
	_cleanup_free_ char *addr = lx_xasprintf("%s:%02lx:%02lx.%lu", domain, v >> 8, (v >> 3) & 0x1f, v & 7);
	return find_pci(addr, host);
}

/* Whether line i is inside a system sleep (LX_KMSG_IN_SLEEP): the nearest
 * of the PM core's and ACPI's sleep lines before it (kernel/power/
 * suspend.c, hibernate.c, process.c, drivers/acpi/sleep.c, over the
 * kernels' wordings) starts one, with no GPU reset after it. */
#define SLEEP_LINES_MAX 400
static bool in_system_sleep(const struct lx_kmsg *log, size_t i)
{
	return sleep_step(log, i) != NULL;
}

/* The step of the system sleep line i is in: "resume" after the lines that
 * start the way back (ACPI's "Waking up from system sleep state", the
 * image's restore), else "suspend"; NULL outside one. */
static const char *sleep_step(const struct lx_kmsg *log, size_t i)
{
	static const char *const starts[] = {
		"PM: suspend entry", "PM: hibernation", "PM: Syncing filesystems", "Freezing user space processes",
		"Freezing remaining freezable tasks", "PM: Preparing system for", "Preparing to enter system sleep state",
		"Waking up from system sleep state", "Low-level resume complete", "PM: resume from",
		"PM: Image loading", "PM: Creating hibernation image", "PM: Restoring platform NVS memory",
		"PM: Image restored", "PM: Loading and decompressing image", "Disabling non-boot CPUs",
		"Enabling non-boot CPUs", "PM: suspend-to-idle", "PM: Triggering wakeup from IRQ",
	};
	static const char *const ends[] = {
		"Restarting tasks", "PM: suspend exit", "PM: hibernation: exit", "GPU reset begin", "GPU reset(",
		"MODE1 reset", "MODE2 reset", "BACO reset", "GPU recovery", "GPU reset succeeded",
	};
	for (size_t l = i; l-- > 0 && i - l <= SLEEP_LINES_MAX;) {
		const char *t = log->lines[l].text;
		for (size_t e = 0; e < sizeof(ends) / sizeof(ends[0]); e++)
			if (strstr(t, ends[e]))
				return NULL;
		for (size_t b = 0; b < sizeof(starts) / sizeof(starts[0]); b++)
			if (strstr(t, starts[b]))
				return strstr(starts[b], "Waking") || strstr(starts[b], "resume") ||
						       strstr(starts[b], "Enabling") || strstr(starts[b], "Image") ||
						       strstr(starts[b], "Restoring") || strstr(starts[b], "decompressing")
					       ? "resume"
					       : "suspend";
	}
	return NULL;
}

/* Whether text contains one of the n needles. */
static bool mentions_any(const char *text, const char *const *needles, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(text, needles[i]))
			return true;
	return false;
}

/* Whether line i comes right after a system sleep ended (within
 * RESUME_LINES_MAX lines of "PM: suspend exit", "PM: hibernation: exit"
 * or "Restarting tasks", with no sleep line between) and no line before
 * that sleep matches re (the same row's message: the first after it). */
#define RESUME_LINES_MAX 100
static bool first_after_resume(const struct lx_kmsg *log, size_t i, const regex_t *re)
{
	/* the kernel's (kernel/power), and systemd-sleep's in a journal that
	 * is not -k only ("System returned from sleep operation", before
	 * systemd 256 "System resumed.") */
	static const char *const ends[] = {"PM: suspend exit", "PM: hibernation: exit", "Restarting tasks",
					   "System returned from sleep", "System resumed."};
	static const char *const sleeps[] = {"PM: suspend entry", "PM: hibernation: hibernation entry",
					     "Freezing user space processes", "Entering sleep state"};
	size_t end = i;
	for (size_t l = i; l-- > 0 && i - l <= RESUME_LINES_MAX;) {
		const char *t = log->lines[l].text;
		if (mentions_any(t, sleeps, sizeof(sleeps) / sizeof(sleeps[0])))
			return false;
		if (mentions_any(t, ends, sizeof(ends) / sizeof(ends[0]))) {
			end = l;
			break;
		}
	}
	if (end == i)
		return false;
	for (size_t l = 0; l < end; l++)
		if (regexec(re, log->lines[l].text, 0, NULL, 0) == 0)
			return false;
	return true;
}

/* Whether line i is inside i915's or xe's probe of a GPU (LX_KMSG_IN_PROBE):
 * a call trace frame of the probe path (functions that only the probe
 * runs) before it, with no "[drm] Initialized i915|xe ... for" between, or
 * after it; or the driver's "Initialized" or "probe of ... failed" line
 * after it with none before it. Without either the log does not say. */
#define PROBE_LINES_MAX 300
static bool probe_frame(const char *t)
{
	static const char *const frames[] = {
		"i915_driver_probe", "i915_pci_probe", "i915_driver_mmio_probe", "intel_gt_probe_all",
		"intel_gt_init_mmio", "intel_sseu_info_init", "sseu_info_init+", "xe_pci_probe",
		"xe_device_probe",
	};
	return mentions_any(t, frames, sizeof(frames) / sizeof(frames[0]));
}

static bool probe_ended(const char *t)
{
	return strstr(t, "Initialized i915 ") || strstr(t, "Initialized xe ") ||
	       ((strstr(t, "i915: probe of ") || strstr(t, "xe: probe of ")) && strstr(t, " failed"));
}

static bool in_driver_probe(const struct lx_kmsg *log, size_t i)
{
	for (size_t l = i; l-- > 0 && i - l <= PROBE_LINES_MAX;) {
		if (probe_ended(log->lines[l].text))
			return false;
		if (probe_frame(log->lines[l].text))
			return true;
	}
	for (size_t l = i + 1; l < log->n && l - i <= PROBE_LINES_MAX; l++)
		if (probe_ended(log->lines[l].text) || probe_frame(log->lines[l].text))
			return true;
	return false;
}

static char *dev_line_pci(const char *text, const char *name, const struct lx_host *host);
static char *initialized_line_pci(const char *text, const char *name, const struct lx_host *host);

/* How amdgpu's start of a GPU that line i is inside ends (LX_KMSG_NOT_ROUTINE,
 * LX_KMSG_UNLESS_STARTED): 1 with drm's "Initialized amdgpu ... for
 * 0000:04:00.0", -1 with the driver core's probe failure of that address,
 * 0 outside a start (such a line before it, or none after it). The GPU:
 * the line's own address, else any (amdgpu probes one GPU at a time). */
static int amdgpu_probe_end(const char *text, const char *pci, const struct lx_host *host)
{
	_cleanup_free_ char *done = initialized_line_pci(text, "amdgpu", host);
	if (done)
		return !pci || strcmp(done, pci) == 0 ? 1 : 0;
	if (!strstr(text, "probe") || !strstr(text, "failed") || !strstr(text, "amdgpu"))
		return 0;
	_cleanup_free_ char *failed = find_pci(text, host);
	return failed && (!pci || strcmp(failed, pci) == 0) ? -1 : 0;
}

static int in_amdgpu_probe(const struct lx_kmsg *log, const struct lx_host *host, size_t i)
{
	_cleanup_free_ char *pci = dev_line_pci(log->lines[i].text, "amdgpu", host);
	for (size_t l = i; l-- > 0 && i - l <= PROBE_LINES_MAX;)
		if (amdgpu_probe_end(log->lines[l].text, pci, host))
			return 0;
	for (size_t l = i + 1; l < log->n && l - i <= PROBE_LINES_MAX; l++) {
		int end = amdgpu_probe_end(log->lines[l].text, pci, host);
		if (end)
			return end;
	}
	return 0;
}

/* psp_cmd_submit_buf()'s failure of a trusted application's command,
 * "psp gfx command LOAD_TA(0x1) failed and response status is (0x7)"
 * (UNLOAD_TA, INVOKE_CMD): the TAs (securedisplay, HDCP, DTM, RAP, RAS,
 * XGMI) are optional, their callers say when one matters ("Failed to
 * initialize XGMI TA"), and APUs' securedisplay TA fails so at every
 * boot while psp_securedisplay_initialize() goes on: no line of amdgpu's
 * general error layer (LX_KMSG_FALLBACK) by itself. */
static bool psp_ta_command(const char *text)
{
	/* 5.13-5.14 "psp gfx command (LOAD_TA)"; 5.x "psp command (0x1)" by
	 * the number (GFX_CMD_ID_LOAD_TA 1, UNLOAD_TA 2, INVOKE_CMD 3) */
	static const char *const cmds[] = {"psp gfx command LOAD_TA(",	 "psp gfx command UNLOAD_TA(",
					   "psp gfx command INVOKE_CMD(", "psp gfx command (LOAD_TA)",
					   "psp gfx command (UNLOAD_TA)", "psp gfx command (INVOKE_CMD)",
					   "psp command (0x1)",		 "psp command (0x2)",
					   "psp command (0x3)"};
	return mentions_any(text, cmds, sizeof(cmds) / sizeof(cmds[0]));
}

/* The length of the "NVRM: " a row's pattern starts with ("NVRM: ",
 * "NVRM:? ", "NVRM: ?", "NVRM:"), 0 when it starts otherwise or the row
 * keeps it required (LX_KMSG_NVRM_REQUIRED). Such a row is compiled as
 * "(NVRM:? |NVRM:|^)" and the rest: the prefix, or nothing before the
 * sentence at the record's start (a paste that cut the prefix; nvidia's
 * own words after it); its fields' groups move up by one. */
static size_t nvrm_prefix(const struct lx_kmsg_entry *row)
{
	static const char *const forms[] = {"NVRM:? ", "NVRM: ?", "NVRM: ", "NVRM:"};
	if (row->flags & LX_KMSG_NVRM_REQUIRED)
		return 0;
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++)
		if (lx_str_starts_with(row->pattern, forms[f]))
			return strlen(forms[f]);
	return 0;
}

static bool match_row(const struct lx_kmsg *log, const struct lx_host *host, size_t i,
		      const struct window *w, const struct lx_kmsg_entry *row, const struct compiled_row *cr,
		      size_t claimed, struct lx_kmsg_match *ev, size_t *through)
{
	regmatch_t pm[GROUPS_MAX];
	if (cr->literal && !strstr(w->text.data, cr->literal))
		return false;
	const regex_t *re = &cr->re;
	if (row->flags & LX_KMSG_OOPS)
		return regexec(re, log->lines[i].text, 0, NULL, 0) == 0 &&
		       match_oops(log, host, i, row, claimed, ev, through);
	/* a row of one record sees only that record's text */
	_cleanup_free_ char *own = (row->flags & LX_KMSG_RECORDS)
		? NULL : lx_xstrndup(w->text.data, w->ends[w->record - 1]);
	const char *text = own ? own : w->text.data;
	if (regexec(re, text, GROUPS_MAX, pm, 0) != 0 || (size_t)pm[0].rm_so >= w->ends[0])
		return false;
	if ((row->flags & LX_KMSG_FALLBACK) && psp_ta_command(log->lines[i].text))
		return false;
	if ((row->flags & LX_KMSG_IN_SLEEP) && !in_system_sleep(log, i))
		return false;
	if ((row->flags & LX_KMSG_IN_PROBE) && !in_driver_probe(log, i))
		return false;
	if ((row->flags & LX_KMSG_NOT_ROUTINE) && (in_system_sleep(log, i) || in_amdgpu_probe(log, host, i)))
		return false;
	if ((row->flags & LX_KMSG_UNLESS_STARTED) && (in_system_sleep(log, i) || in_amdgpu_probe(log, host, i) > 0))
		return false;
	if ((row->flags & LX_KMSG_AFTER_RESUME) && !first_after_resume(log, i, re))
		return false;
	size_t last = 0;
	while (last + 1 < w->n && (size_t)pm[0].rm_eo > w->ends[last])
		last++;
	/* the whole record: its continuation lines are the same message */
	while (last + 1 < w->n && log->lines[i + last + 1].continuation)
		last++;
	memset(ev, 0, sizeof(*ev));
	*ev = (struct lx_kmsg_match){.entry = row, .first = i, .last = i + last, .count = 1,
				     .severity = row->severity};
	bool has_gpu_field = false;
	unsigned shift = nvrm_prefix(row) ? 1 : 0; /* the optional prefix's group */
	for (size_t f = 0; f < LX_KMSG_FIELDS_MAX && row->fields[f].name; f++) {
		unsigned g = row->fields[f].group;
		if (g)
			g += shift;
		if (strcmp(row->fields[f].name, "gpu") == 0)
			has_gpu_field = true;
		if (g == 0 || g >= GROUPS_MAX || pm[g].rm_so < 0)
			continue;
		ev->values[f] = lx_xstrndup(text + pm[g].rm_so, (size_t)(pm[g].rm_eo - pm[g].rm_so));
		if (strcmp(row->fields[f].name, "gpu") == 0 && !ev->pci)
			ev->pci = find_pci(ev->values[f], host);
	}
	if (!has_gpu_field && ((row->flags & LX_KMSG_GPU_ONLY) || names_nvidia_device(log->lines[i].text))) {
		/* rows without an address of their own: the device the record
		 * names (the IOMMU's requester, dev_printk's "nvidia BDF:");
		 * elsewhere digits and colons are times, not GPUs */
		_cleanup_free_ char *span = lx_xstrndup(w->text.data, w->ends[last]);
		ev->pci = find_pci(span, host);
	}
	const char *gpu_id = ev->pci ? NULL : lx_kmsg_match_field(ev, "gpu_id");
	if (gpu_id)
		ev->pci = gpu_id_pci(gpu_id, host);
	const char *rid = ev->pci ? NULL : lx_kmsg_match_field(ev, "requester_id");
	if (rid)
		ev->pci = requester_pci(rid, text, host);
	set_xid(ev);
	set_rm_init(ev);
	*through = ev->last;
	bool keep = true;
	if (row->flags & LX_KMSG_NVIDIA_MISSING)
		keep = module_refusal_counts(log, host, i, ev);
	if (row->flags & LX_KMSG_EDID_DUMP) {
		/* the dump's lines are this message's; zeroes only: nothing
		 * answered with an EDID (an empty port), not a bad one */
		bool bad = false, dumped = false;
		for (size_t j = i + 1; j < log->n && edid_dump_line(log->lines[j].text, &bad); j++) {
			dumped = true;
			if (j > ev->last)
				ev->last = j;
		}
		*through = ev->last;
		if (dumped && !bad)
			keep = false;
	}
	if (!keep) {
		size_t spans = ev->last;
		match_clear(ev);
		/* the lines are this row's message all the same: no other row
		 * may claim them */
		ev->last = spans;
		*through = ev->last;
		ev->entry = NULL;
	}
	return true;
}

struct events {
	struct lx_kmsg_match *items;
	size_t n;
};

static void events_push(struct events *e, struct lx_kmsg_match *ev)
{
	e->items = lx_xrealloc(e->items, (e->n + 1) * sizeof(*e->items));
	e->items[e->n++] = *ev;
	memset(ev, 0, sizeof(*ev));
}

/* The drivers that take NVIDIA GPUs before nvidia can, as dev_printk names
 * them at the start of a line: "nouveau 0000:01:00.0: NVIDIA GP107 ...". */
static const char *const gpu_owners[] = {"nouveau", "nova_core", "nova-core", "nvidiafb", "rivafb"};

/* The device a line of driver NAME is about, as dev_printk starts it:
 * "NAME 0000:01:00.0: ..."; NULL for another driver's line or none. */
static char *dev_line_pci(const char *text, const char *name, const struct lx_host *host)
{
	size_t n = strlen(name);
	if (strncmp(text, name, n) != 0 || text[n] != ' ')
		return NULL;
	const char *addr = text + n + 1;
	/* "0000:01:00.0:": the address runs to the colon before a space */
	const char *colon_space = strstr(addr, ": ");
	if (!colon_space || colon_space - addr > 16)
		return NULL;
	_cleanup_free_ char *a = lx_xstrndup(addr, (size_t)(colon_space - addr));
	return find_pci(a, host);
}

/* The device of nouveau's 3.7-4.2 lines, "nouveau E[  PGRAPH][0000:01:00.0]
 * ..." (core/core/printk.c nv_printk_()); NULL for another line. */
static char *nouveau_old_line_pci(const char *text, const struct lx_host *host)
{
	if (!lx_str_starts_with(text, "nouveau ") || !text[8] || text[9] != '[')
		return NULL;
	const char *sub = strchr(text + 10, ']');
	const char *end = sub && sub[1] == '[' ? strchr(sub + 2, ']') : NULL;
	if (!end || end - (sub + 2) > 16)
		return NULL;
	_cleanup_free_ char *a = lx_xstrndup(sub + 2, (size_t)(end - (sub + 2)));
	return find_pci(a, host);
}

static char *owner_of_line(const char *text, const struct lx_host *host, char **driver)
{
	char *old = nouveau_old_line_pci(text, host);
	if (old) {
		*driver = lx_xstrdup("nouveau");
		return old;
	}
	for (size_t o = 0; o < sizeof(gpu_owners) / sizeof(gpu_owners[0]); o++) {
		char *pci = dev_line_pci(text, gpu_owners[o], host);
		if (pci) {
			*driver = lx_xstrdup(gpu_owners[o]);
			return pci;
		}
	}
	return NULL;
}

/* The GPU drivers whose dev_printk lines ("amdgpu 0000:03:00.0: ...") say
 * which GPUs a log is about. */
static const char *const gpu_drivers[] = {"amdgpu", "radeon", "i915", "xe", "nvidia", "nouveau"};

/* The GPU a "[drm] Initialized NAME 1.6.0 20201103 for 0000:00:02.0 on
 * minor 0" line names (drm_dev_register()'s, which older kernels print
 * without the driver's dev_printk prefix); NULL for another line. */
static char *initialized_line_pci(const char *text, const char *name, const struct lx_host *host)
{
	const char *at = strstr(text, "Initialized ");
	size_t n = strlen(name);
	if (!at || strncmp(at + strlen("Initialized "), name, n) != 0 || at[strlen("Initialized ") + n] != ' ')
		return NULL;
	const char *for_ = strstr(at, " for ");
	return for_ ? find_pci(for_ + strlen(" for "), host) : NULL;
}

/* The GPU a line of DRIVER (NULL: any GPU driver) is about: its
 * dev_printk prefix, or nvidia's own "NVRM: GPU 0000:01:00.0: ". */
static char *gpu_line_pci(const char *text, const char *driver, const struct lx_host *host)
{
	for (size_t d = 0; d < sizeof(gpu_drivers) / sizeof(gpu_drivers[0]); d++) {
		if (driver && strcmp(driver, gpu_drivers[d]) != 0)
			continue;
		char *pci = dev_line_pci(text, gpu_drivers[d], host);
		if (!pci)
			pci = initialized_line_pci(text, gpu_drivers[d], host);
		if (!pci && strcmp(gpu_drivers[d], "nouveau") == 0)
			pci = nouveau_old_line_pci(text, host);
		if (pci)
			return pci;
	}
	if ((!driver || strcmp(driver, "nvidia") == 0) && lx_str_starts_with(text, "NVRM: GPU "))
		return dev_line_pci(text + strlen("NVRM: "), "GPU", host);
	return NULL;
}

/* The drivers that take AMD and Intel display GPUs, and the vendor each is
 * for (PCI vendor IDs as the kernel's enumeration line prints them). */
static const struct {
	const char *driver, *vendor;
} drm_drivers[] = {{"amdgpu", "1002"}, {"radeon", "1002"}, {"i915", "8086"}, {"xe", "8086"}};

/* The device of the kernel's enumeration line "pci 0000:0d:00.0: [1002:687f]
 * type 00 class 0x030000" (drivers/pci/probe.c pci_setup_device()), its
 * vendor ID ("1002") in VENDOR and whether its class is a display
 * device's (0x03) in *DISPLAY; NULL for another line. */
static char *enumerated_device(const char *text, char vendor[5], bool *display, const struct lx_host *host)
{
	const char *id = strstr(text, ": [");
	const char *cls = id ? strstr(id, "] type ") : NULL;
	if (!cls || strlen(id) < 8 || id[7] != ':')
		return NULL;
	char *pci = dev_line_pci(text, "pci", host);
	if (!pci)
		return NULL;
	memcpy(vendor, id + 3, 4);
	vendor[4] = '\0';
	*display = strstr(cls, " class 0x03") != NULL;
	return pci;
}

/* The device of an enumeration line when it is a display device; its
 * vendor ID in VENDOR. */
static char *enumerated_display(const char *text, char vendor[5], const struct lx_host *host)
{
	bool display = false;
	char *pci = enumerated_device(text, vendor, &display, host);
	if (pci && !display) {
		free(pci);
		pci = NULL;
	}
	return pci;
}

/* The firmware's error record (drivers/firmware/efi/cper.c): each line
 * after "[Hardware Error]:" ("{3}[Hardware Error]:   device_id: ..."),
 * NULL for another line. */
static const char *cper_field(const char *text)
{
	const char *at = strstr(text, "[Hardware Error]:");
	return at ? at + strlen("[Hardware Error]:") + strspn(at + strlen("[Hardware Error]:"), " ") : NULL;
}

/* The device of a PCIe error record's "device_id: 0000:01:00.0" at line I
 * when the record's next lines show it to be a display device ("class_code:
 * 030000"), or, where the excerpt ends before the class, the first
 * function of an NVIDIA or AMD device ("vendor_id: 0x10de, device_id:
 * 0x2204"; their other functions are the GPU's audio); its vendor in
 * VENDOR. */
static char *cper_display(const struct lx_kmsg *log, size_t i, char vendor[5], const struct lx_host *host)
{
	const char *f = cper_field(log->lines[i].text);
	if (!f || !lx_str_starts_with(f, "device_id: "))
		return NULL;
	char *pci = find_pci(f, host);
	int display = -1; /* the class line: not seen yet */
	for (size_t l = i + 1; pci && l < log->n && l <= i + 4; l++) {
		const char *g = cper_field(log->lines[l].text);
		if (!g)
			break;
		if (lx_str_starts_with(g, "vendor_id: 0x") && strlen(g) >= 17) {
			memcpy(vendor, g + 13, 4);
			vendor[4] = '\0';
		} else if (lx_str_starts_with(g, "class_code: ")) {
			display = lx_str_starts_with(g + strlen("class_code: "), "03");
		}
	}
	bool gpu = display == 1 || (display < 0 && (strcmp(vendor, "10de") == 0 || strcmp(vendor, "1002") == 0) &&
				     pci && lx_str_ends_with(pci, ".0"));
	if (!gpu) {
		free(pci);
		return NULL;
	}
	return pci;
}

/* The PCI vendor ID of the GPUs DRIVER takes ("10de"), NULL when it is no
 * GPU driver. */
static const char *vendor_of(const char *driver)
{
	if (strcmp(driver, "nvidia") == 0 || strcmp(driver, "nouveau") == 0)
		return "10de";
	for (size_t d = 0; d < sizeof(drm_drivers) / sizeof(drm_drivers[0]); d++)
		if (strcmp(driver, drm_drivers[d].driver) == 0)
			return drm_drivers[d].vendor;
	return NULL;
}

/* Whether VENDOR ("10de") is NVIDIA's, AMD's or Intel's. */
static bool gpu_vendor(const char *vendor)
{
	return strcmp(vendor, "10de") == 0 || strcmp(vendor, "1002") == 0 || strcmp(vendor, "8086") == 0;
}

/* The GPU a line of DRIVER (NULL: any) names in a form other than its own
 * prefix: nvidia's "NVRM: GPU at PCI:0000:01:00: GPU-..." (printed with
 * the first Xid), the Xid line's "NVRM: Xid (PCI:0000:01:00): ..." and
 * nvidia-modeset's "GPU:0 (GPU-...) @ PCI:0000:01:00.0", or the kernel's
 * enumeration of a display device of the driver's vendor ("pci
 * 0000:01:00.0: [10de:2684] type 00 class 0x030000"). */
static char *gpu_mentioned_pci(const char *text, const char *driver, const struct lx_host *host)
{
	bool nvidia = !driver || strcmp(driver, "nvidia") == 0;
	/* the line printed with a GPU's first Xid ("NVRM: GPU at PCI:0000:01:00:
	 * GPU-..."; the 3xx drivers without "PCI:") */
	const char *addr = NULL, *at = strstr(text, "NVRM: GPU at ");
	if (at) {
		addr = at + strlen("NVRM: GPU at ");
		if (lx_str_starts_with(addr, "PCI:"))
			addr += strlen("PCI:");
	} else if ((at = strstr(text, "NVRM: Xid (")) != NULL) {
		/* an Xid's own address ("NVRM: Xid (PCI:0000:01:00): 62, ..."; before
		 * the 4xx drivers "NVRM: Xid (0000:01:00): 8, ..."; an elided one
		 * names none) */
		addr = at + strlen("NVRM: Xid (");
		if (lx_str_starts_with(addr, "PCI:"))
			addr += strlen("PCI:");
	} else if (lx_str_starts_with(text, "NVRM") && text[4] && (at = strstr(text + strlen("NVRM:"), ": GPU ")) != NULL &&
		   isxdigit((unsigned char)at[strlen(": GPU ")])) {
		/* an RM line naming the GPU after its function as the bus does
		 * ("NVRM: kfspDumpDebugState_GH100: GPU 0000:01:00", "GPU
		 * %04x:%02x:%02x"); not NV_DEV_PRINTF's own "NVRM: GPU ..." */
		addr = at + strlen(": GPU ");
	} else if (lx_str_starts_with(text, "nvidia-modeset: ")) {
		at = strstr(text, " @ PCI:");
		addr = at ? at + strlen(" @ PCI:") : NULL;
	} else if (nvidia && (at = strstr(text, "[nvidia-drm] [GPU ID 0x")) != NULL) {
		/* nvidia-drm's lines name the GPU by the RM's id of it ("[drm]
		 * [nvidia-drm] [GPU ID 0x00000100] Loading driver") */
		const char *id = at + strlen("[nvidia-drm] [GPU ID 0x");
		_cleanup_free_ char *hex = lx_xstrndup(id, strspn(id, "0123456789abcdefABCDEF"));
		return id[strlen(hex)] == ']' ? gpu_id_pci(hex, host) : NULL;
	}
	if (addr && nvidia) {
		/* "0000:01:00" without the function (as Xid lines print it) */
		size_t n = strspn(addr, "0123456789abcdefABCDEF:.");
		if (n && addr[n - 1] == ':')
			n--;
		_cleanup_free_ char *a = lx_xstrndup(addr, n);
		_cleanup_free_ char *full = strchr(a, '.') ? lx_xstrdup(a) : lx_xasprintf("%s.0", a);
		return find_pci(full, host);
	}
	/* the component framework binding a GPU driver's audio, HDCP or GSC
	 * component (drivers/base/component.c: dev_info(parent, "bound %s (ops
	 * %ps)\n")): "snd_hda_intel 0000:00:1f.3: bound 0000:00:02.0 (ops
	 * i915_audio_component_bind_ops [i915])"; built in, the ops without the
	 * module tag */
	if ((at = strstr(text, ": bound ")) != NULL) {
		const char *ops = strstr(at, " (ops ");
		for (size_t d = 0; ops && d < sizeof(gpu_drivers) / sizeof(gpu_drivers[0]); d++) {
			const char *name = gpu_drivers[d];
			_cleanup_free_ char *tag = lx_xasprintf("[%s])", name);
			_cleanup_free_ char *fn = lx_xasprintf(" (ops %s_", name);
			if ((driver && strcmp(driver, name) != 0) || (!strstr(ops, tag) && !lx_str_starts_with(ops, fn)))
				continue;
			return find_pci(at + strlen(": bound "), host);
		}
	}
	char vendor[5];
	char *pci = enumerated_display(text, vendor, host);
	const char *want = driver ? vendor_of(driver) : NULL;
	if (pci && (driver ? want && strcmp(vendor, want) == 0 : gpu_vendor(vendor)))
		return pci;
	free(pci);
	return NULL;
}

/* The one GPU the lines of FORM name; NULL when none or several (then
 * *several). */
static char *sole_of(const struct lx_kmsg *log, const struct lx_host *host, const char *driver,
		     char *(*form)(const char *, const char *, const struct lx_host *), bool *several)
{
	char *sole = NULL;
	for (size_t i = 0; i < log->n; i++) {
		char *pci = form(log->lines[i].text, driver, host);
		if (!pci || (sole && strcmp(pci, sole) == 0)) {
			free(pci);
			continue;
		}
		if (sole) {
			free(pci);
			free(sole);
			*several = true;
			return NULL;
		}
		sole = pci;
	}
	return sole;
}

/* The Intel GPU of an i915 message in a log that names none: kernels
 * before 5.8 print i915's errors and notices without an address (DRM_ERROR
 * "[drm:i915_hangcheck_elapsed [i915]] *ERROR* ...", DRM_INFO "[drm] GPU
 * HANG: ..."), and i915 then drove integrated GPUs only, which every Intel
 * chipset puts at 0000:00:02.0. Not when the host model has an Intel GPU
 * elsewhere (this host's log: its discrete card), nor when the log
 * enumerates another kind of device at that address (an older Xeon's root
 * port); an Intel display device the log enumerates elsewhere is already
 * the log's sole one (gpu_mentioned_pci). */
static char *old_intel_igd(const struct lx_kmsg *log, const struct lx_host *host)
{
	static const char igd[] = "0000:00:02.0";
	for (size_t g = 0; host && g < host->n_gpus; g++)
		if (host->gpus[g].vendor_id == 0x8086 && strcmp(host->gpus[g].bdf, igd) != 0)
			return NULL;
	for (size_t i = 0; i < log->n; i++) {
		char vendor[5];
		bool display = false;
		_cleanup_free_ char *dev = enumerated_device(log->lines[i].text, vendor, &display, host);
		if (dev && strcmp(dev, igd) == 0 && (!display || strcmp(vendor, "8086") != 0))
			return NULL;
	}
	return lx_xstrdup(igd);
}

/* The one GPU the log's lines of DRIVER (NULL: of any GPU driver) name;
 * where they name none (an old driver's lines carry no address, a "grep
 * NVRM" of the log), the one its other mentions of such a GPU name; NULL
 * when none or several. */
static char *sole_gpu(const struct lx_kmsg *log, const struct lx_host *host, const char *driver)
{
	bool several = false;
	char *sole = sole_of(log, host, driver, gpu_line_pci, &several);
	if (!sole && !several)
		sole = sole_of(log, host, driver, gpu_mentioned_pci, &several);
	if (!sole && !several && driver && strcmp(driver, "i915") == 0)
		sole = old_intel_igd(log, host);
	return sole;
}

/* The GPU driver a message names as a word ("[drm:func [amdgpu]]", "kfd
 * kfd: amdgpu:", "NVRM:", "nvidia-modeset:", "i915"), NULL for none: the
 * driver whose only GPU a message without an address is about. */
static const char *driver_named_by(const char *text)
{
	static const struct {
		const char *word, *driver;
	} words[] = {
		{"amdgpu", "amdgpu"}, {"kfd", "amdgpu"},   {"radeon", "radeon"}, {"i915", "i915"},
		{"nouveau", "nouveau"}, {"NVRM", "nvidia"}, {"nvidia", "nvidia"}, {"xe", "xe"},
	};
	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		size_t n = strlen(words[w].word);
		for (const char *at = strstr(text, words[w].word); at; at = strstr(at + 1, words[w].word)) {
			/* a word of its own: "nvidia-uvm" counts, "Xen"/"axe" do not */
			bool starts = at == text || !isalnum((unsigned char)at[-1]);
			bool ends = !isalnum((unsigned char)at[n]) && at[n] != '_';
			if (starts && ends)
				return words[w].driver;
		}
	}
	return NULL;
}

/* Messages without the address are the log's only GPU's: of the driver
 * the row captures (a power-management callback: "[nvidia]") or its flag
 * says (LX_KMSG_SOLE_AMDGPU, _INTEL, _NVIDIA), else of the driver the
 * message names; the DRM core's (LX_KMSG_SOLE_GPU) of any GPU driver. A
 * message naming no driver and no such flag (a module refused, the IOMMU)
 * stays without a GPU. */
static void bind_sole_gpu(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	/* the answers so far, per driver (the last slot: any driver) */
	enum { ANY = sizeof(gpu_drivers) / sizeof(gpu_drivers[0]) };
	char *sole[ANY + 1] = {0};
	bool asked[ANY + 1] = {0};
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		/* their own binding: another driver's GPUs, display devices */
		if (m->pci || (m->entry->flags & (LX_KMSG_OWNER_FROM_LOG | LX_KMSG_DISPLAY_GPU)))
			continue;
		const char *driver = lx_kmsg_match_field(m, "driver");
		/* amdgpu's rows are radeon's too: 3.x's "[drm:r600_startup]
		 * *ERROR* ..." names no module; with no amdgpu GPU in the log,
		 * the log's only radeon GPU (below) */
		bool amd_by_flag = !driver && (m->entry->flags & LX_KMSG_SOLE_AMDGPU);
		if (amd_by_flag)
			driver = "amdgpu";
		/* i915's DRM_ERROR and DRM_INFO lines ("[drm:func [i915]] ...") */
		if (!driver && (m->entry->flags & LX_KMSG_SOLE_INTEL))
			driver = "i915";
		if (!driver && (m->entry->flags & LX_KMSG_SOLE_NVIDIA))
			driver = "nvidia";
		/* an oops in a GPU driver's code whose report and the lines before
		 * it name no GPU: the log's only one of that driver ("nvidia_uvm"
		 * and "nvidia_modeset" are nvidia's) */
		const char *module = (m->entry->flags & LX_KMSG_OOPS) ? lx_kmsg_match_field(m, "module") : NULL;
		for (size_t d = 0; !driver && module && d < ANY; d++)
			if (strcmp(module, gpu_drivers[d]) == 0 ||
			    (strcmp(gpu_drivers[d], "nvidia") == 0 && lx_str_starts_with(module, "nvidia")))
				driver = gpu_drivers[d];
		if (!driver)
			driver = driver_named_by(log->lines[m->first].text);
		if (!driver && !(m->entry->flags & LX_KMSG_SOLE_GPU))
			continue;
		size_t slot = ANY;
		for (size_t d = 0; driver && d < ANY; d++)
			if (strcmp(driver, gpu_drivers[d]) == 0)
				slot = d;
		if (driver && slot == ANY)
			continue; /* not a GPU driver's */
		if (!asked[slot]) {
			sole[slot] = sole_gpu(log, host, driver);
			asked[slot] = true;
		}
		if (!sole[slot] && amd_by_flag) {
			size_t r = 0;
			while (r < ANY && strcmp(gpu_drivers[r], "radeon") != 0)
				r++;
			if (!asked[r]) {
				sole[r] = sole_gpu(log, host, gpu_drivers[r]);
				asked[r] = true;
			}
			slot = r;
		}
		if (sole[slot])
			m->pci = lx_xstrdup(sole[slot]);
	}
	for (size_t d = 0; d <= ANY; d++)
		free(sole[d]);
}

/* "another driver holds them": one event per GPU the log shows that driver
 * binding (none found: the event stays without a GPU). */
static void bind_owners(const struct lx_kmsg *log, const struct lx_host *host, struct events *in,
			struct events *out)
{
	for (size_t e = 0; e < in->n; e++) {
		struct lx_kmsg_match *ev = &in->items[e];
		int d = field_index(ev->entry, "driver", strlen("driver"));
		if (!(ev->entry->flags & LX_KMSG_OWNER_FROM_LOG) || ev->pci || d < 0) {
			events_push(out, ev);
			continue;
		}
		struct lx_strv seen = {0};
		for (size_t i = 0; i < log->n; i++) {
			char *driver = NULL;
			char *pci = owner_of_line(log->lines[i].text, host, &driver);
			if (!pci || lx_strv_contains(&seen, pci)) {
				free(pci);
				free(driver);
				continue;
			}
			lx_strv_push(&seen, pci);
			struct lx_kmsg_match copy = *ev;
			copy.pci = pci;
			for (size_t f = 0; f < LX_KMSG_FIELDS_MAX; f++)
				copy.values[f] = ev->values[f] ? lx_xstrdup(ev->values[f]) : NULL;
			free(copy.values[d]);
			copy.values[d] = driver;
			events_push(out, &copy);
		}
		if (seen.n) {
			match_clear(ev);
		} else {
			/* the log does not show which: say the usual ones */
			ev->values[d] = lx_xstrdup("nouveau, nvidiafb or rivafb");
			events_push(out, ev);
		}
		lx_strv_free(&seen);
	}
	free(in->items);
	memset(in, 0, sizeof(*in));
}

/* The GPU of such a line when its vendor is one VENDOR names ("1002",
 * "8086", NULL: either). */
static char *display_gpu_line(const char *text, const char *vendor, const struct lx_host *host)
{
	char id[5];
	char *pci = enumerated_display(text, id, host);
	bool ours = false;
	for (size_t d = 0; pci && d < sizeof(drm_drivers) / sizeof(drm_drivers[0]); d++)
		ours |= strcmp(id, drm_drivers[d].vendor) == 0 && (!vendor || strcmp(vendor, drm_drivers[d].vendor) == 0);
	if (!ours)
		free(pci);
	return ours ? pci : NULL;
}

/* The device of a line that only a VGA-class device gets, printed with no
 * GPU driver bound (PCI core or vfio-pci prefix): vgaarb's (drivers/pci/
 * vgaarb.c: "pci 0000:0a:00.0: vgaarb: VGA device added: ...", "...:
 * vgaarb: setting as boot VGA device", "vfio-pci 0000:0a:00.0: vgaarb:
 * changed VGA decodes: ...", 4.x's "vgaarb: device added:
 * PCI:0000:0a:00.0,decodes=...") and x86's pci_fixup_video() ("pci
 * 0000:0a:00.0: Video device with shadowed ROM at [mem ...]"). */
static char *vga_line_pci(const char *text, const struct lx_host *host)
{
	const char *old = strstr(text, "vgaarb: device added: PCI:");
	if (old) {
		old += strlen("vgaarb: device added: PCI:");
		const char *comma = strchr(old, ',');
		if (!comma || comma - old > 16)
			return NULL;
		_cleanup_free_ char *a = lx_xstrndup(old, (size_t)(comma - old));
		return find_pci(a, host);
	}
	if (!strstr(text, ": vgaarb: ") && !strstr(text, ": Video device with shadowed ROM at "))
		return NULL;
	char *pci = dev_line_pci(text, "pci", host);
	return pci ? pci : dev_line_pci(text, "vfio-pci", host);
}

/* The device of a line of the out-of-tree vendor-reset module, which
 * resets AMD GPUs only: vr_info()/vr_warn() (src/vendor-reset-dev.h)
 * print pci_info(pdev, "%s: " fmt, cfg->info_str), the GPU's family from
 * src/device-db.h ("vfio-pci 0000:0b:00.0: AMD_VEGA10: performing
 * reset"). */
static char *vendor_reset_line_pci(const char *text, const struct lx_host *host)
{
	char *pci = dev_line_pci(text, "vfio-pci", host);
	if (!pci)
		pci = dev_line_pci(text, "pci", host);
	const char *at = pci ? strstr(text, ": AMD_") : NULL;
	size_t n = at ? strspn(at + 6, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") : 0;
	if (n && at[6 + n] == ':' && at[7 + n] == ' ')
		return pci;
	free(pci);
	return NULL;
}

/* The devices the log shows to be GPUs: a GPU driver's line names them,
 * the kernel enumerated them as display devices of NVIDIA, AMD or Intel,
 * vgaarb or the video ROM fixup names them (vga_line_pci()) and the log
 * does not enumerate them as another vendor's (QEMU's VGA, a BMC's), the
 * firmware's error record describes one, or vendor-reset's lines name
 * one. One pass for all messages
 * that ask (a storm of a port's AER reports, a VGA line at each VM start). */
static void gpus_shown(const struct lx_kmsg *log, const struct lx_host *host, struct lx_strv *shown)
{
	struct lx_strv vga = {0}, listed = {0}, vendors = {0}; /* vendors->items[k]: listed->items[k]'s */
	for (size_t i = 0; i < log->n; i++) {
		const char *text = log->lines[i].text;
		char vendor[5] = "";
		bool display = false;
		char *gpu = gpu_line_pci(text, NULL, host);
		if (!gpu && (gpu = enumerated_device(text, vendor, &display, host))) {
			if (!lx_strv_contains(&listed, gpu)) {
				lx_strv_push(&listed, gpu);
				lx_strv_push(&vendors, vendor);
			}
			if (!display) {
				free(gpu);
				gpu = NULL;
			}
		}
		if (!gpu)
			gpu = cper_display(log, i, vendor, host);
		/* nvidia's lines that name a GPU in a form of their own (an Xid's
		 * address, "GPU at PCI:", nvidia-drm's GPU ID) */
		if (!gpu)
			gpu = gpu_mentioned_pci(text, "nvidia", host);
		if (!gpu)
			gpu = vendor_reset_line_pci(text, host);
		if (!gpu) {
			char *v = vga_line_pci(text, host);
			if (v && !lx_strv_contains(&vga, v))
				lx_strv_push(&vga, v);
			free(v);
		}
		if (gpu && (!*vendor || gpu_vendor(vendor)) && !lx_strv_contains(shown, gpu))
			lx_strv_push(shown, gpu);
		free(gpu);
	}
	for (size_t g = 0; g < vga.n; g++) {
		size_t k = 0;
		while (k < listed.n && strcmp(listed.items[k], vga.items[g]) != 0)
			k++;
		if ((k == listed.n || gpu_vendor(vendors.items[k])) && !lx_strv_contains(shown, vga.items[g]))
			lx_strv_push(shown, vga.items[g]);
	}
	lx_strv_free(&vga);
	lx_strv_free(&listed);
	lx_strv_free(&vendors);
}

/* Whether the host's driver of GPU PCI is a GPU driver (not vfio-pci):
 * unknown counts as one. */
static bool host_drives(const struct lx_host *host, const char *pci)
{
	const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, pci);
	if (!g)
		return false;
	if (!g->driver)
		return true;
	for (size_t d = 0; d < sizeof(gpu_drivers) / sizeof(gpu_drivers[0]); d++)
		if (strcmp(g->driver, gpu_drivers[d]) == 0)
			return true;
	return false;
}

/* Whether PCI is the integrated GPU of an Intel machine, for a message of
 * Intel's IOMMU (LX_KMSG_INTEL_IGD): 0000:00:02.0 is the address Intel
 * gives its integrated GPU (Xen's VT-d code knows it as IS_IGD; a Xen
 * console log has no dom0 driver lines), unless the host knows that
 * device (given to a VM) or the log enumerates another kind of device
 * there (a root port of older Xeons). Asked for a saved log of another
 * machine only (hosts_log()): on this host its model says where its GPUs are. */
static bool intel_igd(const struct lx_kmsg *log, const struct lx_host *host, const char *pci)
{
	if (strcmp(pci, "0000:00:02.0") != 0 || lx_host_find_gpu_by_bdf(host, pci))
		return false;
	for (size_t i = 0; i < log->n; i++) {
		char vendor[5];
		bool display = false;
		_cleanup_free_ char *dev = enumerated_device(log->lines[i].text, vendor, &display, host);
		if (dev && strcmp(dev, pci) == 0 && !display)
			return false;
	}
	return true;
}

/* Whether the log is this host's: a message or a GPU driver's line of it
 * names a GPU of the host model (then the model says which devices are
 * GPUs; a saved log of another machine it does not describe). */
static bool hosts_log(const struct lx_kmsg *log, const struct lx_host *host, const struct events *ev)
{
	for (size_t e = 0; e < ev->n; e++)
		if (ev->items[e].pci && lx_host_find_gpu_by_bdf(host, ev->items[e].pci))
			return true;
	for (size_t i = 0; i < log->n; i++) {
		_cleanup_free_ char *pci = gpu_line_pci(log->lines[i].text, NULL, host);
		if (pci && lx_host_find_gpu_by_bdf(host, pci))
			return true;
	}
	return false;
}

/* A message about a device that counts only for a GPU of this host
 * (LX_KMSG_GPU_ONLY: IOMMU faults, a BAR left unassigned) counts when it
 * names an NVIDIA device, or the host drives the GPU with a GPU driver, or
 * a GPU driver's line of the log names it (a saved log of another
 * machine): one given to a VM (vfio-pci) faults in the VM's IOMMU domain,
 * not ours. */
static void keep_host_gpus(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	if (!host)
		return;
	struct events out = {0};
	struct lx_strv driven = {0};
	bool read = false;
	int igd = -1; /* whether 0000:00:02.0 is the integrated GPU: not asked yet */
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		bool keep = !(m->entry->flags & LX_KMSG_GPU_ONLY) || names_nvidia_device(log->lines[m->first].text) ||
			    (m->pci && host_drives(host, m->pci));
		if (!keep && m->pci) {
			for (size_t i = 0; i < log->n && !read; i++) {
				char *pci = gpu_line_pci(log->lines[i].text, NULL, host);
				/* a GPU the log names otherwise (nvidia's Xid, the
				 * kernel's enumeration of a display device), of a saved
				 * log's machine (the host's own GPUs: by their driver) */
				if (!pci) {
					pci = gpu_mentioned_pci(log->lines[i].text, NULL, host);
					if (pci && lx_host_find_gpu_by_bdf(host, pci)) {
						free(pci);
						pci = NULL;
					}
				}
				if (pci && !lx_strv_contains(&driven, pci))
					lx_strv_push(&driven, pci);
				free(pci);
			}
			read = true;
			keep = lx_strv_contains(&driven, m->pci);
			/* asked once per log: a storm of faults reads it once */
			if (!keep && (m->entry->flags & LX_KMSG_INTEL_IGD) && strcmp(m->pci, "0000:00:02.0") == 0) {
				if (igd < 0)
					igd = !hosts_log(log, host, ev) && intel_igd(log, host, m->pci);
				keep = igd;
			}
		}
		if (keep)
			events_push(&out, m);
		else
			match_clear(m);
	}
	lx_strv_free(&driven);
	free(ev->items);
	*ev = out;
}

/* The buses below port PORT, from the log's "pci 0000:00:07.0: PCI bridge
 * to [bus 05-2e]" (drivers/pci/probe.c, setup-bus.c: the port's bus
 * range); false when the log has no such line. */
static bool port_buses(const struct lx_kmsg *log, const struct lx_host *host, const char *port,
		       unsigned *lo, unsigned *hi)
{
	for (size_t i = 0; i < log->n; i++) {
		const char *text = log->lines[i].text;
		const char *at = strstr(text, ": PCI bridge to [bus ");
		if (!at)
			continue;
		_cleanup_free_ char *dev = lx_xstrndup(text, (size_t)(at - text));
		_cleanup_free_ char *pci = find_pci(dev, host);
		if (!pci || strcmp(pci, port) != 0)
			continue;
		char *end = NULL;
		unsigned long a = strtoul(at + strlen(": PCI bridge to [bus "), &end, 16);
		unsigned long b = a;
		if (end && *end == '-')
			b = strtoul(end + 1, &end, 16);
		if (!end || *end != ']' || b < a || b > 0xff)
			continue;
		*lo = (unsigned)a;
		*hi = (unsigned)b;
		return true;
	}
	return false;
}

/* The one GPU of SHOWN (gpus_shown()) on a bus below PORT; NULL for none
 * or several. */
static char *gpu_below_port(const struct lx_kmsg *log, const struct lx_host *host, const struct lx_strv *shown,
			    const char *port)
{
	unsigned lo, hi;
	if (!port_buses(log, host, port, &lo, &hi))
		return NULL;
	const char *sole = NULL;
	for (size_t g = 0; g < shown->n; g++) {
		const char *gpu = shown->items[g];
		unsigned bus = (unsigned)strtoul(strchr(gpu, ':') + 1, NULL, 16);
		if (strncmp(gpu, port, strcspn(port, ":")) != 0 || bus < lo || bus > hi)
			continue;
		if (sole)
			return NULL; /* several */
		sole = gpu;
	}
	return sole ? lx_xstrdup(sole) : NULL;
}

/* nvidia-modeset's "GPU:%d" (its log index, the first one free when it
 * allocates a GPU): the GPU its latest "nvidia-modeset: Allocated GPU:%d
 * (GPU-...) @ PCI:%04x:%02x:%02x.0" before the message names (nvkms-rm.c
 * AllocSubDevice()). One pass over the log for all messages: the events
 * are in log order, and each index's latest line is kept as it goes. */
static void bind_modeset_gpus(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	static const char allocated[] = "nvidia-modeset: Allocated GPU:";
	struct lx_strv index = {0}, pci = {0}; /* pci->items[k]: index->items[k]'s GPU */
	size_t l = 0;
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		const char *want = m->pci ? NULL : lx_kmsg_match_field(m, "index");
		const char *driver = lx_kmsg_match_field(m, "driver");
		if (!want || !driver || strcmp(driver, "nvidia") != 0)
			continue;
		for (; l < m->first; l++) {
			const char *text = log->lines[l].text;
			const char *at = strstr(text, " @ PCI:");
			if (!lx_str_starts_with(text, allocated) || !at)
				continue;
			const char *num = text + strlen(allocated);
			_cleanup_free_ char *n = lx_xstrndup(num, strcspn(num, " "));
			char *gpu = find_pci(at + strlen(" @ PCI:"), host);
			size_t k = 0;
			while (k < index.n && strcmp(index.items[k], n) != 0)
				k++;
			if (k == index.n) {
				lx_strv_push(&index, n);
				lx_strv_push_owned(&pci, gpu ? gpu : lx_xstrdup(""));
			} else {
				free(pci.items[k]);
				pci.items[k] = gpu ? gpu : lx_xstrdup("");
			}
		}
		for (size_t k = 0; k < index.n; k++)
			if (strcmp(index.items[k], want) == 0 && *pci.items[k])
				m->pci = lx_xstrdup(pci.items[k]);
	}
	lx_strv_free(&index);
	lx_strv_free(&pci);
}

/* A port's message (LX_KMSG_BEHIND_PORT): the one GPU the log shows on a
 * bus below the port. */
static void bind_behind_port(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	/* each port's answer once: a storm of several ports' messages reads
	 * the log once a port, not once a message */
	struct lx_strv ports = {0}, below = {0}; /* below->items[k]: ports->items[k]'s GPU, "" none */
	struct lx_strv shown = {0};
	bool read = false;
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		const char *field = lx_kmsg_match_field(m, "port");
		if (!(m->entry->flags & LX_KMSG_BEHIND_PORT) || !field)
			continue;
		_cleanup_free_ char *port = find_pci(field, host);
		/* a device of its own, unless the port named itself */
		if (m->pci && !(port && strcmp(m->pci, port) == 0))
			continue;
		if (!port)
			continue;
		size_t k = 0;
		while (k < ports.n && strcmp(ports.items[k], port) != 0)
			k++;
		if (k == ports.n) {
			if (!read)
				gpus_shown(log, host, &shown);
			read = true;
			char *gpu = gpu_below_port(log, host, &shown, port);
			lx_strv_push(&ports, port);
			lx_strv_push_owned(&below, gpu ? gpu : lx_xstrdup(""));
		}
		/* none below: a device that named itself keeps its own address
		 * (a GPU's own "PCIe Bus Error" line in an excerpt without the
		 * bridge lines); keep_pci_gpus drops it unless it is a GPU */
		const char *gpu = below.items[k];
		if (*gpu) {
			free(m->pci);
			m->pci = lx_xstrdup(gpu);
		}
	}
	lx_strv_free(&ports);
	lx_strv_free(&below);
	lx_strv_free(&shown);
}

/* An IOMMU fault by a GPU logged before the kernel enumerated the GPU
 * ("pci 0000:00:02.0: [8086:8a52] type 00 class 0x030000") is no driver's
 * DMA: the IOMMU starts before the PCI bus is scanned, while the GPU still
 * scans out the system firmware's boot framebuffer, and that read faults
 * until the IOMMU maps it (Intel's integrated GPU reading its RMRR, the
 * stolen memory: one "DMAR: [DMA Read] Request device [00:02.0]" at boot
 * on working laptops). The driver loads later and finds the GPU as it is;
 * a fault after the enumeration is kept. */
static void drop_faults_before_enumeration(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	struct lx_strv gpus = {0}; /* the display devices the kernel enumerated */
	size_t *line = NULL;       /* the line that enumerated each */
	bool read = false;
	size_t kept = 0;
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		bool early = false;
		if (m->entry->code == LXG113_IOMMU_FAULT && (m->entry->flags & LX_KMSG_GPU_ONLY) && m->pci) {
			for (size_t i = 0; i < log->n && !read; i++) {
				char vendor[5];
				bool display = false;
				_cleanup_free_ char *pci = enumerated_device(log->lines[i].text, vendor, &display, host);
				if (pci && display && !lx_strv_contains(&gpus, pci)) {
					line = lx_xrealloc(line, (gpus.n + 1) * sizeof(*line));
					line[gpus.n] = i;
					lx_strv_push(&gpus, pci);
				}
			}
			read = true;
			for (size_t g = 0; g < gpus.n && !early; g++)
				early = strcmp(gpus.items[g], m->pci) == 0 && line[g] > m->last;
		}
		if (early)
			match_clear(m);
		else
			ev->items[kept++] = *m;
	}
	ev->n = kept;
	free(line);
	lx_strv_free(&gpus);
}

/* A PCI core message about any device (LX_KMSG_PCI_GPU) counts when the
 * log shows the device to be a GPU: a network card given to a VM is not
 * ours. */
static void keep_pci_gpus(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	struct events out = {0};
	struct lx_strv shown = {0};
	bool read = false;
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		if ((m->entry->flags & LX_KMSG_PCI_GPU) && m->pci && !read) {
			gpus_shown(log, host, &shown);
			read = true;
		}
		if ((m->entry->flags & LX_KMSG_PCI_GPU) && !(m->pci && lx_strv_contains(&shown, m->pci)))
			match_clear(m);
		else
			events_push(&out, m);
	}
	lx_strv_free(&shown);
	free(ev->items);
	*ev = out;
}

/* Whether the firmware's error record holding line I says the hardware
 * corrected the error: its header ("Error 0, type: corrected", "event
 * severity: corrected") among the record's lines before it. */
static bool cper_corrected(const struct lx_kmsg *log, size_t i)
{
	for (size_t l = i + 1; l-- > 0 && i - l < 24;) {
		const char *f = cper_field(log->lines[l].text);
		if (!f)
			return false;
		if (strstr(f, "type: corrected") || strstr(f, "event severity: corrected"))
			return true;
		if (lx_str_starts_with(f, "Hardware error from APEI") || strstr(f, "type: fatal") ||
		    strstr(f, "type: recoverable") || strstr(f, "severity: fatal") || strstr(f, "severity: recoverable"))
			return false;
	}
	return false;
}

/* LX_KMSG_CPER_RECORD: a record of an error the hardware corrected is no
 * failure (servers report corrected PCIe errors this way too). */
static void drop_corrected_records(const struct lx_kmsg *log, struct events *ev)
{
	size_t kept = 0;
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		if ((m->entry->flags & LX_KMSG_CPER_RECORD) && cper_corrected(log, m->first))
			match_clear(m);
		else
			ev->items[kept++] = *m;
	}
	ev->n = kept;
}


/* Whether the log's enumeration of pci ("pci 0000:02:00.0: [1002:67df]
 * type 00 ...") names the PCI ID id ("1002:67df", as %x:%x prints it), or
 * the log does not show that address's ID. */
static bool enumerated_as(const struct lx_kmsg *log, const char *pci, const char *id)
{
	unsigned want_vendor, want_device, vendor, device;
	if (sscanf(id, "%x:%x", &want_vendor, &want_device) != 2)
		return true;
	_cleanup_free_ char *head = lx_xasprintf("pci %s: [", pci);
	for (size_t l = 0; l < log->n; l++) {
		const char *at = strstr(log->lines[l].text, head);
		if (at && sscanf(at + strlen(head), "%x:%x]", &vendor, &device) == 2)
			return vendor == want_vendor && device == want_device;
	}
	return true;
}

/* LX_KMSG_IN_AMDGPU_PROBE: amdkfd's line is about the GPU amdgpu is
 * probing (kgd2kfd_probe and kgd2kfd_device_init run inside
 * amdgpu_device_init, one GPU after the other): the one amdgpu's nearest
 * line before it names, unless a probe ended between ("[drm] Initialized
 * amdgpu ... for" with no amdgpu line after it) or the log enumerates that
 * address with another PCI ID. */
static void bind_probing_gpu(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		if (!(m->entry->flags & LX_KMSG_IN_AMDGPU_PROBE) || m->pci)
			continue;
		char *pci = NULL;
		for (size_t l = m->first; l-- > 0 && !pci;) {
			_cleanup_free_ char *done = initialized_line_pci(log->lines[l].text, "amdgpu", host);
			if (done)
				break;
			pci = dev_line_pci(log->lines[l].text, "amdgpu", host);
		}
		const char *id = lx_kmsg_match_field(m, "pci_id");
		if (pci && id && !enumerated_as(log, pci, id)) {
			free(pci);
			pci = NULL;
		}
		m->pci = pci;
	}
}
/* Modesetting off: one event per AMD or Intel display GPU of the log that
 * no DRM driver took (LX_KMSG_DISPLAY_GPU). */
static void bind_display_gpus(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	struct events out = {0};
	struct lx_strv bound = {0};
	bool read = false;
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		int d = field_index(m->entry, "driver", strlen("driver"));
		if (!(m->entry->flags & LX_KMSG_DISPLAY_GPU) || m->pci || d < 0) {
			events_push(&out, m);
			continue;
		}
		for (size_t i = 0; i < log->n && !read; i++)
			for (size_t k = 0; k < sizeof(drm_drivers) / sizeof(drm_drivers[0]); k++) {
				char *pci = dev_line_pci(log->lines[i].text, drm_drivers[k].driver, host);
				if (pci && !lx_strv_contains(&bound, pci))
					lx_strv_push(&bound, pci);
				free(pci);
			}
		read = true;
		const char *vendor = m->values[d] ? vendor_of(m->values[d]) : NULL;
		struct lx_strv seen = {0};
		for (size_t i = 0; i < log->n; i++) {
			char *pci = display_gpu_line(log->lines[i].text, vendor, host);
			if (!pci || lx_strv_contains(&seen, pci) || lx_strv_contains(&bound, pci)) {
				free(pci);
				continue;
			}
			lx_strv_push(&seen, pci);
			struct lx_kmsg_match copy = *m;
			copy.pci = pci;
			for (size_t f = 0; f < LX_KMSG_FIELDS_MAX; f++)
				copy.values[f] = m->values[f] ? lx_xstrdup(m->values[f]) : NULL;
			if (!copy.values[d]) /* nomodeset: the driver of the GPU's vendor */
				copy.values[d] = lx_xstrdup(strstr(log->lines[i].text, ": [1002:") ? "amdgpu" : "i915 or xe");
			events_push(&out, &copy);
		}
		if (seen.n || !m->values[d])
			match_clear(m); /* a bare nomodeset and no AMD or Intel GPU: no finding */
		else
			events_push(&out, m);
		lx_strv_free(&seen);
	}
	lx_strv_free(&bound);
	free(ev->items);
	*ev = out;
}

/* A refusal of a GPU (LX_KMSG_UNLESS_DRIVEN) that the log shows the other
 * Intel driver driving: no finding (xe declines what i915 takes). */
static void drop_driven(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	static const char *const intel_drivers[] = {"i915", "xe"};
	size_t kept = 0;
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		const char *refused_by = lx_kmsg_match_field(m, "driver");
		bool driven = false;
		for (size_t i = 0; (m->entry->flags & LX_KMSG_UNLESS_DRIVEN) && m->pci && i < log->n && !driven; i++)
			for (size_t d = 0; d < sizeof(intel_drivers) / sizeof(intel_drivers[0]) && !driven; d++) {
				const char *t = log->lines[i].text;
				/* the other driver's own refusal is no sign it drives it */
				if ((refused_by && strcmp(refused_by, intel_drivers[d]) == 0) ||
				    strstr(t, "Your graphics device ") || strstr(t, "robe blocked for "))
					continue;
				_cleanup_free_ char *pci = gpu_line_pci(t, intel_drivers[d], host);
				driven = pci && strcmp(pci, m->pci) == 0;
			}
		if (driven)
			match_clear(m);
		else
			ev->items[kept++] = *m;
	}
	ev->n = kept;
}

/* The DRM drivers of virtual and BMC display devices that no container
 * computes or transcodes on (drm_drv.c's "Initialized <name> ..." names
 * them): a VM's or a server's console, not a GPU. */
static const char *const display_only_drivers[] = {"vmwgfx", "virtio_gpu", "qxl", "bochs-drm", "bochs",
						   "cirrus", "vboxvideo", "hyperv_drm", "vkms", "ast", "mgag200"};

/* Whether the log's DRM devices are all display-only ones: an "Initialized"
 * line of such a driver, none of a GPU driver, and no GPU driver's line. */
static bool only_display_devices(const struct lx_kmsg *log, const struct lx_host *host)
{
	bool display = false;
	for (size_t i = 0; i < log->n; i++) {
		const char *t = log->lines[i].text;
		for (size_t d = 0; d < sizeof(gpu_drivers) / sizeof(gpu_drivers[0]); d++) {
			_cleanup_free_ char *pci = gpu_line_pci(t, gpu_drivers[d], host);
			if (pci)
				return false;
		}
		for (size_t d = 0; d < sizeof(display_only_drivers) / sizeof(display_only_drivers[0]) && !display; d++) {
			_cleanup_free_ char *pci = initialized_line_pci(t, display_only_drivers[d], host);
			display = pci != NULL;
		}
	}
	return display;
}

/* A row's message that names no GPU and no driver (LX_KMSG_SOLE_GPU: the
 * DRM core's "[CRTC:38:crtc-0] flip_done timed out") in a log whose only
 * DRM devices are a VM's or a BMC's display (vmwgfx, virtio_gpu, ast):
 * theirs, no GPU's: no finding. */
static void drop_display_only(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	int display_only = -1; /* not read yet */
	size_t kept = 0;
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		bool theirs = false;
		if ((m->entry->flags & LX_KMSG_SOLE_GPU) && !m->pci && !lx_kmsg_match_field(m, "driver")) {
			if (display_only < 0)
				display_only = only_display_devices(log, host);
			theirs = display_only;
		}
		if (theirs)
			match_clear(m);
		else
			ev->items[kept++] = *m;
	}
	ev->n = kept;
}

/* Codes whose message can say why a GPU failed to initialize. */
static bool explains_init(const struct lx_kmsg_entry *e)
{
	switch (e->code) {
	case LXG101_NEEDS_OPEN_MODULE:
	case LXG102_NO_GSP:
	case LXG103_UNSUPPORTED_GPU:
	case LXG104_BAR_UNASSIGNED:
	case LXG105_BAR_RESIZE_FAILED:
	case LXG107_GSP_FIRMWARE_MISSING:
	case LXG108_GSP_BOOT_FAILED:
	case LXG109_FALLEN_OFF_BUS:
	case LXG110_XID:
	case LXG111_BOUND_ELSEWHERE:
	case LXG113_IOMMU_FAULT:
	case LXG115_OPEN_UNSUPPORTED:
	case LXG118_GPU_RESET_REQUIRED:
	case LXG158_GPU_NO_POWER:
	case LXG140_GPU_FIRMWARE_MISSING:
	case LXG142_GPU_HANG:
	case LXG144_AMD_MES_HANG:
	case LXG145_AMD_PSP_FAILED:
	case LXG149_AMD_SMU_HANG:
	case LXG154_AMD_RAS_ERROR:
	case LXG156_AMD_GPU_TABLES:
	case LXG176_PCI_UNRESPONSIVE:
		return true;
	default:
		return false;
	}
}

/* A GPU's failure (RmInitAdapter) explained only by a message about that
 * GPU: one that names it, or one that names none with no line about
 * another GPU between it and the failure (the driver initializes one GPU
 * after another). An unnamed cause then knows its GPU. */
static void bind_causes(const struct lx_kmsg *log, const struct lx_host *host, struct events *ev)
{
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *fail = &ev->items[e];
		if (!(fail->entry->flags & LX_KMSG_NEEDS_CAUSE) || !fail->pci)
			continue;
		/* the nearest line before it about another GPU */
		size_t barrier = 0;
		bool has_barrier = false;
		for (size_t l = fail->first; l-- > 0 && !has_barrier;) {
			_cleanup_free_ char *pci = find_pci(log->lines[l].text, host);
			if (pci && strcmp(pci, fail->pci) != 0) {
				barrier = l;
				has_barrier = true;
			}
		}
		/* a catch-all row's message (LX_KMSG_FALLBACK) is the cause only
		 * when no row that says more is */
		size_t general = 0;
		for (size_t k = e; k-- > 0;) {
			struct lx_kmsg_match *c = &ev->items[k];
			if ((c->entry->flags & LX_KMSG_NEEDS_CAUSE) && c->pci && strcmp(c->pci, fail->pci) == 0)
				break; /* an earlier failure of this GPU: what came before was its cause */
			if (!explains_init(c->entry))
				continue;
			bool mine = c->pci ? strcmp(c->pci, fail->pci) == 0 : !has_barrier || c->first > barrier;
			if (mine && (c->entry->flags & LX_KMSG_FALLBACK)) {
				if (!general)
					general = k + 1;
				continue;
			}
			if (mine) {
				general = k + 1;
				break;
			}
		}
		if (general) {
			struct lx_kmsg_match *c = &ev->items[general - 1];
			if (!c->pci)
				c->pci = lx_xstrdup(fail->pci);
			fail->cause = general;
		}
	}
}

/* LX_KMSG_ANNOUNCES: said again by the next line's message (the same
 * code, the same GPU, or both unnamed): only that one counts. */
static void drop_announcements(struct events *ev)
{
	struct events out = {0};
	for (size_t e = 0; e < ev->n; e++) {
		struct lx_kmsg_match *m = &ev->items[e];
		const struct lx_kmsg_match *next = e + 1 < ev->n ? &ev->items[e + 1] : NULL;
		if ((m->entry->flags & LX_KMSG_ANNOUNCES) && next && !(next->entry->flags & LX_KMSG_ANNOUNCES) &&
		    next->first == m->last + 1 &&
		    next->entry->code == m->entry->code &&
		    (m->pci && next->pci ? strcmp(m->pci, next->pci) == 0 : !m->pci && !next->pci))
			match_clear(m);
		else
			events_push(&out, m);
	}
	free(ev->items);
	*ev = out;
}

/* LX_KMSG_REPEATS(n): a row's messages about one GPU with one key that
 * came fewer than n times are dropped before findings are made, so that
 * neither they nor other rows' messages of the same code count for each
 * other. */
/* NULL sorts first: a message without a GPU or key is a group of its own. */
static int text_cmp(const char *a, const char *b)
{
	return !a || !b ? (a != NULL) - (b != NULL) : strcmp(a, b);
}

/* Orders the events of LX_KMSG_REPEATS rows by row, GPU and key, so that
 * each group's size is the length of its run (a log with a hundred
 * thousand FIFO underruns is counted in one sort, not pairwise). */
static int repeat_group_cmp(const void *pa, const void *pb)
{
	const struct lx_kmsg_match *a = *(const struct lx_kmsg_match *const *)pa;
	const struct lx_kmsg_match *b = *(const struct lx_kmsg_match *const *)pb;
	if (a->entry != b->entry)
		return a->entry < b->entry ? -1 : 1;
	int c = text_cmp(a->pci, b->pci);
	return c ? c : text_cmp(a->values[0], b->values[0]);
}

static void drop_rare(struct events *ev)
{
	struct lx_kmsg_match **group = lx_xcalloc(ev->n ? ev->n : 1, sizeof(*group));
	size_t ng = 0;
	for (size_t e = 0; e < ev->n; e++)
		if (LX_KMSG_REPEATS_OF(ev->items[e].entry->flags))
			group[ng++] = &ev->items[e];
	qsort(group, ng, sizeof(*group), repeat_group_cmp);
	for (size_t start = 0, end; start < ng; start = end) {
		for (end = start + 1; end < ng && repeat_group_cmp(&group[start], &group[end]) == 0; end++)
			;
		if (end - start < LX_KMSG_REPEATS_OF(group[start]->entry->flags))
			for (size_t k = start; k < end; k++)
				match_clear(group[k]); /* entry NULL: not kept below */
	}
	free(group);
	size_t kept = 0;
	for (size_t e = 0; e < ev->n; e++)
		if (ev->items[e].entry)
			ev->items[kept++] = ev->items[e];
	ev->n = kept;
}

/* The first row that matches the message at line i (no oops row when
 * no_oops): false when none does. */
static bool match_line(const struct lx_kmsg *log, const struct lx_host *host, size_t i,
		       const struct lx_kmsg_entry *rows, const struct compiled_row *re, size_t n, size_t claimed,
		       bool no_oops, struct lx_kmsg_match *ev, size_t *through)
{
	struct window w;
	window_build(log, i, &w);
	bool matched = false;
	for (size_t r = 0; r < n && !matched; r++)
		if (!(no_oops && (rows[r].flags & LX_KMSG_OOPS)) && !(rows[r].flags & LX_KMSG_ALSO))
			matched = match_row(log, host, i, &w, &rows[r], &re[r], claimed, ev, through);
	lx_buf_free(&w.text);
	return matched;
}

/* The second readings (LX_KMSG_ALSO rows) of the message at line i, which
 * another row matched first: their events in evs (at most max), how many. */
static size_t match_also(const struct lx_kmsg *log, const struct lx_host *host, size_t i,
			 const struct lx_kmsg_entry *rows, const struct compiled_row *re, size_t n, size_t claimed,
			 struct lx_kmsg_match *evs, size_t max)
{
	struct window w;
	window_build(log, i, &w);
	size_t k = 0;
	for (size_t r = 0; r < n && k < max; r++) {
		size_t through = i;
		if ((rows[r].flags & LX_KMSG_ALSO) &&
		    match_row(log, host, i, &w, &rows[r], &re[r], claimed, &evs[k], &through) && evs[k].entry)
			k++;
	}
	lx_buf_free(&w.text);
	return k;
}

/* The catalogue's patterns, compiled once for the process: compiling them
 * costs more than matching a whole log (audit and the tests match many).
 * A row's leading "NVRM: " is compiled optional at a record's start
 * (nvrm_prefix()). */
static const struct compiled_row *compiled_catalogue(struct lx_error *err)
{
	static struct compiled_row *compiled;
	if (compiled)
		return compiled;
	size_t n;
	const struct lx_kmsg_entry *rows = lx_kmsg_catalogue(&n);
	struct compiled_row *all = lx_xcalloc(n, sizeof(*all));
	for (size_t r = 0; r < n; r++) {
		size_t prefix = nvrm_prefix(&rows[r]);
		_cleanup_free_ char *pattern = prefix ? lx_xasprintf("(NVRM:? |NVRM:|^)%s", rows[r].pattern + prefix)
						      : lx_xstrdup(rows[r].pattern);
		if (regcomp(&all[r].re, pattern, REG_EXTENDED) != 0) {
			while (r--) {
				regfree(&all[r].re);
				free(all[r].literal);
			}
			free(all);
			lx_error_set(err, "kernel log catalogue: row '%s' does not compile", rows[r].id);
			return NULL;
		}
		all[r].literal = lx_ere_required_literal(pattern);
	}
	compiled = all;
	return compiled;
}

int lx_kmsg_match_all(const struct lx_kmsg *log, const struct lx_host *host,
		      struct lx_kmsg_matches *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	size_t n;
	const struct lx_kmsg_entry *rows = lx_kmsg_catalogue(&n);
	const struct compiled_row *re = compiled_catalogue(err);
	if (!re)
		return -1;
	struct events raw = {0}, owned = {0};
	size_t claimed = 0; /* one past the last line a message took */
	for (size_t i = 0; i < log->n; i++) {
		struct lx_kmsg_match ev;
		size_t through = i;
		if (!match_line(log, host, i, rows, re, n, claimed, false, &ev, &through))
			continue;
		/* a WARN of an older kernel prints its own message after its
		 * header: a row that names that message explains the WARN */
		/* a GPU driver's fault inside a suspend or resume callback: the
		 * power transition failed too (row gpu-pm-callback-oops) */
		/* likewise a GPU reset, a hung wait or a probe (rows
		 * gpu-reset-oops, gpu-probe-oops, nvidia-probe-oops) */
		struct lx_kmsg_match pm_evs[4];
		size_t pms = 0;
		if (ev.entry && (ev.entry->flags & LX_KMSG_OOPS) && ev.entry->code == LXG151_GPU_DRIVER_OOPS) {
			for (size_t r = 0; r < n && pms < sizeof(pm_evs) / sizeof(pm_evs[0]); r++) {
				size_t pm_through = through;
				if ((rows[r].flags & LX_KMSG_OOPS) && rows[r].code != LXG151_GPU_DRIVER_OOPS &&
				    match_oops(log, host, i, &rows[r], claimed, &pm_evs[pms], &pm_through) &&
				    pm_evs[pms].entry)
					pms++;
			}
		}
		struct lx_oops o;
		if (ev.entry && (ev.entry->flags & LX_KMSG_OOPS) && lx_oops_read(log, i, &o)) {
			struct lx_kmsg_match named;
			size_t named_through = o.message;
			if (o.message && match_line(log, host, o.message, rows, re, n, claimed, true, &named,
						    &named_through)) {
				match_clear(&ev);
				ev = named;
				if (named_through > through)
					through = named_through;
			}
			lx_oops_free(&o);
		}
		struct lx_kmsg_match also_evs[2];
		size_t also = ev.entry ? match_also(log, host, i, rows, re, n, claimed, also_evs, 2) : 0;
		i = through; /* the lines it spans are this message's */
		claimed = through + 1;
		if (ev.entry)
			events_push(&raw, &ev);
		for (size_t a = 0; a < also; a++)
			events_push(&raw, &also_evs[a]);
		for (size_t p = 0; p < pms; p++)
			events_push(&raw, &pm_evs[p]);
	}
	bind_owners(log, host, &raw, &owned);
	bind_modeset_gpus(log, host, &owned);
	bind_display_gpus(log, host, &owned);
	bind_probing_gpu(log, host, &owned);
	bind_sole_gpu(log, host, &owned);
	bind_behind_port(log, host, &owned);
	keep_host_gpus(log, host, &owned);
	keep_pci_gpus(log, host, &owned);
	drop_faults_before_enumeration(log, host, &owned);
	drop_corrected_records(log, &owned);
	drop_announcements(&owned);
	drop_driven(log, host, &owned);
	drop_display_only(log, host, &owned);
	drop_rare(&owned);
	bind_causes(log, host, &owned);
	/* one finding per cause; map: the finding each event went to */
	size_t *map = lx_xcalloc(owned.n ? owned.n : 1, sizeof(*map));
	for (size_t e = 0; e < owned.n; e++) {
		struct lx_kmsg_match *ev = &owned.items[e];
		size_t k = 0;
		while (k < out->n && !same_cause(&out->items[k], ev))
			k++;
		map[e] = k;
		if (k < out->n) {
			struct lx_kmsg_match *same = &out->items[k];
			/* a catch-all row's finding gives way to a row that says more,
			 * a restatement (i915's "context reset due to GPU hang" printed
			 * before its "GPU HANG") to the message it restates */
			const unsigned both = LX_KMSG_FALLBACK | LX_KMSG_RESTATES;
			bool gives_way = (same->entry->flags & LX_KMSG_FALLBACK) && !(ev->entry->flags & LX_KMSG_FALLBACK);
			if (gives_way || ((same->entry->flags & LX_KMSG_RESTATES) &&
					  !(ev->entry->flags & (LX_KMSG_RESTATES | LX_KMSG_FALLBACK)))) {
				struct lx_kmsg_match general = *same;
				*same = *ev;
				/* a catch-all that restates (amdgpu's errors by IP block):
				 * its messages are not the row's that says more */
				same->count = (general.entry->flags & both) == both ? 1 : general.count;
				*ev = general;
			}
			/* catch-all restatements count among themselves */
			if (!(ev->entry->flags & LX_KMSG_RESTATES) ||
			    ((ev->entry->flags & both) == both && (same->entry->flags & LX_KMSG_FALLBACK)))
				same->count++;
			merge_fields(same, ev);
			if (!same->pci) {
				same->pci = ev->pci;
				ev->pci = NULL;
			}
			/* one GPU's init failure told in steps ("hw_init of IP block"
			 * without the address, then "Fatal error during GPU init"):
			 * the cause a later step found is the failure's */
			if (!same->cause && ev->cause)
				same->cause = ev->cause;
			if (ev->severity > same->severity)
				same->severity = ev->severity;
			match_clear(ev);
			continue;
		}
		out->items = lx_xrealloc(out->items, (out->n + 1) * sizeof(*out->items));
		out->items[out->n++] = *ev;
		memset(ev, 0, sizeof(*ev));
	}
	for (size_t k = 0; k < out->n; k++)
		if (out->items[k].cause)
			out->items[k].cause = map[out->items[k].cause - 1] + 1;
	free(map);
	for (size_t e = 0; e < raw.n; e++)
		match_clear(&raw.items[e]);
	free(raw.items);
	for (size_t e = 0; e < owned.n; e++)
		match_clear(&owned.items[e]);
	free(owned.items);
	return 0;
}

static void evidence_lines(struct lx_buf *b, const struct lx_kmsg *log, size_t first, size_t last)
{
	for (size_t i = first; i <= last && i < log->n; i++)
		lx_buf_printf(b, "%s%s", b->len ? "\n" : "", log->lines[i].raw);
}

char *lx_kmsg_match_evidence(const struct lx_kmsg *log, const struct lx_kmsg_matches *all,
			     const struct lx_kmsg_match *m)
{
	struct lx_buf b = {0};
	if (m->cause && all && m->cause <= all->n) {
		const struct lx_kmsg_match *c = &all->items[m->cause - 1];
		if (c->last < m->first)
			evidence_lines(&b, log, c->first, c->last);
	}
	evidence_lines(&b, log, m->first, m->last);
	return lx_buf_steal(&b);
}
