/* doctor's kernel log. The answers here are written by hand from the
 * message itself (its public report, or the driver's or kernel's source
 * that prints it: tests/doctor/kmsg/README.md names each), never read from
 * the catalogue: for every log the code, severity, GPU and fields a finding
 * must have. Also: every row and every Xid of the table has a log here
 * (so removing one, changing its severity or what it extracts fails a
 * case below), clean boots give nothing, a GPU's failure is explained only
 * by a message about that GPU, the log forms are read as written, and the
 * documentation lists the table (test-doctor --print-doc writes it). */
#include "lxgpu/doctor.h"
#include "tap.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

static const char *kmsg_dir;

static void parse(const char *text, struct lx_kmsg *k)
{
	lx_kmsg_parse_text("test", text, strlen(text), k);
}

static size_t count_matches(const struct lx_kmsg *k, const struct lx_host *host,
			    struct lx_kmsg_matches *m)
{
	struct lx_error err = {0};
	if (lx_kmsg_match_all(k, host, m, &err) < 0) {
		printf("# %s\n", err.message);
		lx_error_clear(&err);
		return (size_t)-1;
	}
	return m->n;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static const char *code_of(const struct lx_kmsg_match *m)
{
	return lx_finding_info(m->entry->code)->code;
}

static bool load(const char *file, struct lx_kmsg *k, struct lx_kmsg_matches *m)
{
	_cleanup_free_ char *path = lx_xasprintf("%s/%s", kmsg_dir, file);
	struct lx_error err = {0};
	if (!ok(lx_kmsg_read_file(path, k, &err) == 0, path)) {
		printf("# %s\n", err.message);
		lx_error_clear(&err);
		return false;
	}
	if (count_matches(k, NULL, m) == (size_t)-1) {
		lx_kmsg_free(k);
		return false;
	}
	return true;
}

/* What one log must give, by hand. fields: "name=value" separated by
 * "|"; "mnemonic" and "bucket" are the Xid catalogue's, "times" how often
 * the message came. cause: for a failure, the code of the message that
 * says why ("-": the log does not say). */
struct expect {
	const char *file;
	const char *code;
	enum lx_severity severity;
	const char *gpu;
	const char *fields;
	const char *cause;
};

#define E LX_SEVERITY_ERROR
#define W LX_SEVERITY_WARNING
#define I LX_SEVERITY_INFO

static const struct expect expects[] = {
	/* the API mismatch: both versions, the client where the driver names it */
	{"api-mismatch.log", "LXG100", E, NULL,
	 "client_version=595.84|module_version=595.80|client=kwin_wayland|pid=1005", NULL},
	{"api-mismatch-journal.log", "LXG100", E, NULL,
	 "client_version=570.133.07|module_version=575.51.02|client=nvidia-powerd|pid=849", NULL},
	{"api-mismatch-old.log", "LXG100", E, NULL,
	 "client_version=570.153.02|module_version=570.144|times=1", NULL},
	{"api-mismatch-syslog.log", "LXG100", E, NULL, "client_version=535.54.03|module_version=530.30.02",
	 NULL},
	/* the GPU and the module flavour or branch */
	{"open-module-required.log", "LXG101", E, "0000:02:00.0", "pci_id=10de:2c58", NULL},
	{"open-module-no-gsp.log", "LXG102", E, "0000:09:00.0", "pci_id=10de:1d01", NULL},
	{"open-module-unsupported-gpu.log", "LXG115", E, NULL, NULL, NULL},
	{"legacy-branch.log", "LXG103", E, NULL,
	 "branch=580.xx|model=NVIDIA GeForce GTX 1050|driver_version=595.71.05", NULL},
	{"legacy-branch.log", "LXG125", W, NULL, NULL, NULL},
	{"legacy-branch-journal.log", "LXG103", E, NULL,
	 "branch=580.xx|model=NVIDIA GeForce GTX 1050|driver_version=595.58.03", NULL},
	{"unsupported-by-release.log", "LXG103", E, "0000:01:00.0",
	 "pci_id=10de:25a0|driver_version=520.56.06", NULL},
	{"no-gpu-found.log", "LXG125", W, NULL, NULL, NULL},
	/* nvidia_init_module() when each GPU went to another driver (NovaCore) */
	{"bound-elsewhere.log", "LXG125", W, NULL, NULL, NULL},
	/* another driver holds the GPU */
	{"probe-not-called.log", "LXG111", E, NULL, "count=1|driver=nouveau, nvidiafb or rivafb", NULL},
	{"probe-not-called-3.log", "LXG111", E, NULL, "count=3", NULL},
	{"bound-elsewhere.log", "LXG111", E, "0000:01:00.0", "driver=NovaCore", NULL},
	{"bound-to-vfio.log", "LXG111", I, "0000:01:00.0", NULL, NULL},
	/* BARs */
	{"pci-region-invalid.log", "LXG104", E, "0000:14:00.0", "bar=1|bar_size=0|bar_address=0", NULL},
	{"pci-bar-no-space.log", "LXG104", W, "0000:48:00.0", "bar=0|size=0x800000000", NULL},
	{"pci-bar-no-space-old.log", "LXG104", W, "0000:01:00.0", "bar=1|size=0x400000000|times=2", NULL},
	{"bar-resize-no-space.log", "LXG105", W, NULL, NULL, NULL},
	/* xe, i915 and amdgpu: a VRAM BAR left small (info-level lines) */
	{"gpu-bar-resize-refused-xe.log", "LXG105", W, "0000:07:00.0",
	 "driver=xe|what=Failed to resize BAR2 to 16384M (-ENOSPC)", NULL},
	{"gpu-bar-resize-refused-i915.log", "LXG105", W, "0000:03:00.0", "driver=i915|times=2", NULL},
	{"gpu-bar-resize-refused-amdgpu.log", "LXG105", W, "0000:0c:00.0",
	 "what=Not enough PCI address space for a large BAR", NULL},
	/* the PCI core's lines of the driver's own resize, the driver's prefix */
	{"gpu-bar-resize-no-space.log", "LXG105", W, "0000:03:00.0", "driver=amdgpu|bar=0|size=0x400000000|times=4",
	 NULL},
	{"gpu-bar-resize-no-space-6x.log", "LXG105", W, "0000:03:00.0", "driver=xe|bar=2|size=0x400000000|times=2",
	 NULL},
	{"bar-resize-failed.log", "LXG105", W, NULL, "error=-28", NULL},
	/* GSP */
	{"gsp-firmware-missing.log", "LXG107", E, NULL, NULL, NULL},
	{"gsp-firmware-load-failed.log", "LXG107", E, "0000:07:00.0",
	 "version=570.144|file=gsp_ga10x.bin|error=-2", NULL},
	{"gsp-firmware-read-failed.log", "LXG107", E, "0000:06:00.0",
	 "version=570.172.08|file=gsp_ga10x.bin|error=-4", NULL},
	{"gsp-wpr2-up.log", "LXG108", E, NULL, NULL, NULL},
	{"gsp-firmware-version.log", "LXG107", E, NULL, "expected=550.90.07|got=550.54.14|file=GSP firmware image", NULL},
	{"gsp-heartbeat.log", "LXG108", E, NULL, NULL, NULL},
	{"legacy-ignored.log", "LXG103", E, "0000:01:00.0", NULL, NULL},
	{"probe-failed-count.log", "LXG106", E, NULL, "count=1|times=2", NULL},
	{"request-mem-region.log", "LXG111", E, NULL, "size=16|address=f6000000", NULL},
	{"no-irq.log", "LXG106", E, NULL, NULL, NULL},
	{"pci-enable-failed.log", "LXG106", E, NULL, NULL, NULL},
	{"gsp-init-failed.log", "LXG108", E, NULL, NULL, NULL},
	{"gsp-bootstrap-failed.log", "LXG108", E, NULL, NULL, NULL},
	/* a failed GPU and why, from messages about that GPU only */
	{"rm-init-adapter-failed.log", "LXG106", E, "0000:07:00.0", "status=0x61:0x56:1770|minor=0",
	 "LXG107"},
	{"rm-init-adapter-failed.log", "LXG107", E, "0000:07:00.0", NULL, NULL},
	{"rm-init-gsp-timeout.log", "LXG106", E, "0000:01:00.0", "status=0x62:0x65:1859|minor=0", "LXG108"},
	{"rm-init-gsp-timeout.log", "LXG108", E, "0000:01:00.0", NULL, NULL},
	{"rm-init-gsp-nvdec.log", "LXG106", E, "0000:01:00.0", "status=0x63:0x56:1689", "LXG108"},
	{"rm-init-two-gpus.log", "LXG104", E, "0000:05:00.0", "bar=1|bar_size=0|bar_address=0", NULL},
	{"rm-init-two-gpus.log", "LXG106", E, "0000:06:00.0", "status=0x25:0x65:1470|minor=1", "-"},
	{"rm-init-barrier.log", "LXG106", E, "0000:06:00.0", NULL, "-"},
	{"rm-init-reverse.log", "LXG106", E, "0000:09:00.0", "status=0x26:0x65:1290|times=2", "-"},
	{"probe-failed.log", "LXG106", E, "0000:01:00.0", "error=-1", "-"},
	{"open-module-no-gsp.log", "LXG106", E, "0000:09:00.0", "error=-1", "LXG102"},
	{"pci-region-invalid.log", "LXG106", E, "0000:14:00.0", "error=-1", "LXG104"},
	/* nv11: older and newer wordings of the rows above, and RmInitAdapter's
	 * steps (filled from the format strings, README) */
	{"request-mem-region-unassigned.log", "LXG104", E, "0000:01:00.0", NULL, NULL},
	{"request-mem-region-unassigned.log", "LXG106", E, "0000:01:00.0", "error=-1", "LXG104"},
	{"pci-region-invalid-bar-alone.log", "LXG104", E, "0000:01:00.0", "bar=1|bar_size=0|bar_address=0", NULL},
	{"gsp-wpr2-up-535.log", "LXG108", E, "0000:01:00.0", NULL, NULL},
	{"gsp-wpr2-up-535.log", "LXG106", E, "0000:01:00.0", "status=0x62:0x40:1579|minor=0", "LXG108"},
	{"rm-init-adapter-minor.log", "LXG106", E, "0000:02:00.0", "minor=0", "-"},
	{"rm-init-adapter-minor-old.log", "LXG106", E, "0000:01:00.0", "minor=0", "-"},
	{"rm-init-step-failed.log", "LXG106", E, "0000:01:00.0", "step=Cannot load state into the device", NULL},
	{"probe-step-failed.log", "LXG106", E, "0000:41:00.0", "step=failed to wait for bar firewall to lower", NULL},
	{"gpu-not-attached.log", "LXG109", E, "0000:41:00.0", "times=2", NULL},
	{"nvidia-yield-atomic.log", "LXG151", W, "0000:01:00.0", "times=2", NULL},
	{"nvidia-yield-atomic-old.log", "LXG151", W, "0000:03:00.0", NULL, NULL},
	{"nvidia-drm-register-failed.log", "LXG106", E, "0000:01:00.0", "gpu_id=00000100|what=register device", NULL},
	{"gsp-rpc-timeout.log", "LXG108", E, "0000:a1:00.0", NULL, NULL},
	{"gsp-rpc-recv-poll-timeout.log", "LXG108", E, "0000:41:00.0", "what=rpcRecvPoll timedout", NULL},
	{"gsp-rpc-recv-poll-timeout.log", "LXG110", E, "0000:41:00.0", "xid=119", NULL},
	/* 595's classification of an RPC timeout with both heartbeats running */
	{"gsp-rm-is-slow.log", "LXG108", E, "0000:41:00.0", "times=2", NULL},
	{"gsp-rm-is-slow.log", "LXG110", E, "0000:41:00.0", "xid=119|mnemonic=GSP_RPC_TIMEOUT|bucket=RESET_GPU", NULL},
	{"xid-old-paste-form.log", "LXG110", I, "0000:02:00.0", "xid=13", NULL},
	{"amdgpu-vf-mailbox-failed.log", "LXG141", E, "0000:05:00.0",
	 "what=Doesn't get TRN_MSG_ACK from pf in 5000 msec", NULL},
	{"amdgpu-vf-mailbox-stuck.log", "LXG141", E, "0000:06:00.0", "what=trn=2 ACK should not assert", NULL},
	/* three lines of the loop shown, 1654 held back by the ratelimit */
	{"amdgpu-vf-mailbox-suppressed.log", "LXG141", E, "0000:08:00.0", "suppressed=1654", NULL},
	{"swiotlb-overflow.log", "LXG191", E, "0001:01:00.0", "mask=ffffffff|driver=nvidia", NULL},
	{"amdgpu-vm-fault-detail-utcl2.log", "LXG150", W, "0000:0c:00.0", NULL, NULL},
	{"amdgpu-powerplay-last-message-failed.log", "LXG149", W, "0000:02:00.0",
	 "what=last message was failed|ret=0", NULL},
	{"rpc-gpu-lost.log", "LXG109", E, "0000:07:00.0", NULL, NULL},
	{"nvswitch-init-failed.log", "LXG117", E, NULL, "switch=nvidia-nvswitch0|what=Failed to initialize device|error=-7",
	 NULL},
	{"nvswitch-version-mismatch.log", "LXG100", E, NULL, "client_version=450.51.06|module_version=450.80.02", NULL},
	{"nvidia-modeset-idle-old.log", "LXG175", W, NULL, "index=0|state=0x0000917d:0:0|times=2", NULL},
	{"nvidia-modeset-push-buffer.log", "LXG175", W, NULL,
	 "index=0|what=Display engine push buffer channel allocation failed|state=0x65", NULL},
	/* the vGPU host driver (LXG190) */
	{"vgpu-start-failed.log", "LXG190", E, NULL, "vgpu=00eac34d-8b67-401e-9faa-feb8f2456c29|status=0x1",
	 NULL},
	/* nvidia-modeset's GPU:1: the GPU its "Allocated GPU:1 ..." line names */
	{"nvidia-modeset-two-gpus.log", "LXG175", W, "0000:41:00.0", "index=1", NULL},
	/* nouveau of 3.7 to 4.2 ("nouveau E[  PGRAPH][0000:01:00.0] ...") */
	{"nouveau-old.log", "LXG111", E, "0000:01:00.0", "line=BOOT0  : 0x0e63a0a2", NULL},
	{"nouveau-unknown-chipset-old.log", "LXG111", E, "0000:02:00.0", "line=unknown chipset, 0x172000a1", NULL},
	/* the GPU gone */
	{"fallen-off-bus.log", "LXG109", E, "0000:b3:00.0", NULL, NULL},
	{"xid-79.log", "LXG109", E, "0000:2b:00.0", "text=GPU has fallen off the bus.", NULL},
	/* Xid events: NVIDIA's mnemonic and resolution bucket; those that
	 * need the GPU reset (or the host restarted) are errors */
	{"xid-13.log", "LXG110", I, "0000:41:00.0",
	 "xid=13|mnemonic=ROBUST_CHANNEL_GR_EXCEPTION|bucket=RESTART_APP", NULL},
	{"xid-31.log", "LXG110", I, "0000:01:00.0",
	 "xid=31|mnemonic=ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT|bucket=RESTART_APP", NULL},
	{"xid-32.log", "LXG110", W, "0000:01:00.0", "xid=32|mnemonic=ROBUST_CHANNEL_PBDMA_ERROR|bucket=RESTART_APP",
	 NULL},
	{"xid-43.log", "LXG110", I, "0000:00:05.0",
	 "xid=43|mnemonic=ROBUST_CHANNEL_RESETCHANNEL_VERIF_ERROR|bucket=IGNORE", NULL},
	{"xid-45.log", "LXG110", I, "0000:0a:00.0",
	 "xid=45|mnemonic=ROBUST_CHANNEL_PREEMPTIVE_REMOVAL|bucket=WORKFLOW_XID_45", NULL},
	{"xid-48.log", "LXG110", E, "0000:3b:00.0", "xid=48|mnemonic=ROBUST_CHANNEL_GPU_ECC_DBE|bucket=WORKFLOW_XID_48",
	 NULL},
	/* 61: NVIDIA's r555 Xid catalogue, "PMU Breakpoint. Report a GPU Issue
	 * and Reset GPU(s) reporting the XID" */
	{"xid-61.log", "LXG110", E, "0000:01:00.0", "xid=61|mnemonic=PMU_BREAKPOINT|bucket=RESET_GPU", NULL},
	{"xid-62.log", "LXG110", E, "0000:0a:00.0", "xid=62|mnemonic=PMU_HALT_ERROR|bucket=RESET_GPU", NULL},
	{"xid-63.log", "LXG110", W, "0000:10:1c.0", "xid=63|mnemonic=INFOROM_DRAM_RETIREMENT_EVENT|bucket=IGNORE",
	 NULL},
	{"xid-64.log", "LXG110", E, "0000:65:00.0",
	 "xid=64|mnemonic=INFOROM_DRAM_RETIREMENT_FAILURE|bucket=RESET_GPU", NULL},
	{"xid-69.log", "LXG110", W, "0000:01:00.0", "xid=69|mnemonic=ROBUST_CHANNEL_GR_CLASS_ERROR|bucket=RESTART_APP",
	 NULL},
	{"xid-74.log", "LXG110", E, "0000:07:00.0", "xid=74|mnemonic=NVLINK_ERROR|bucket=WORKFLOW_NVLINK_ERR", NULL},
	{"xid-92.log", "LXG110", I, "0000:86:00.0", "xid=92|mnemonic=EXCESSIVE_SBE_INTERRUPTS|bucket=IGNORE", NULL},
	{"xid-94.log", "LXG110", W, "0000:9b:00.0",
	 "xid=94|mnemonic=ROBUST_CHANNEL_CONTAINED_ERROR|bucket=RESTART_APP", NULL},
	{"xid-94-mig.log", "LXG110", W, "0000:01:00.0", "xid=94|gpu_instance=05", NULL},
	{"xid-95.log", "LXG110", E, "0000:01:00.0",
	 "xid=95|mnemonic=ROBUST_CHANNEL_UNCONTAINED_ERROR|bucket=RESET_GPU", NULL},
	{"xid-109.log", "LXG110", E, "0000:cb:00.0",
	 "xid=109|mnemonic=ROBUST_CHANNEL_CTXSW_TIMEOUT_ERROR|bucket=RESET_GPU", NULL},
	{"xid-119.log", "LXG110", E, "0000:61:00.0", "xid=119|mnemonic=GSP_RPC_TIMEOUT|bucket=RESET_GPU|times=2", NULL},
	{"xid-120.log", "LXG110", E, "0000:02:00.0", "xid=120|mnemonic=GSP_ERROR|bucket=RESET_GPU", NULL},
	/* the same lines' second reading: the GSP stopped (row xid-gsp) */
	{"xid-119.log", "LXG108", E, "0000:61:00.0", "number=119|times=2", NULL},
	{"xid-120.log", "LXG108", E, "0000:02:00.0", "number=120", NULL},
	/* the first Xid after a resume: the Xid, and the sleep that lost the
	 * GPU's memory (row xid-after-resume) */
	/* Intel's uC init failing with -ENOENT: the missing file beside it */
	{"i915-uc-init-enoent.log", "LXG140", W, "0000:00:02.0", "uc=GuC|error=-ENOENT", NULL},
	{"i915-uc-init-enoent.log", "LXG141", E, "0000:00:02.0", "uc=GuC|error=-ENOENT", NULL},
	{"xe-uc-init-enoent.log", "LXG140", W, "0000:03:00.0", "error=-ENOENT", NULL},
	{"xe-uc-init-enoent.log", "LXG141", E, "0000:03:00.0", "ret=-ENOENT", NULL},
	/* the display could not pin a frame buffer: VRAM full */
	{"amdgpu-pin-fb-no-memory.log", "LXG192", W, "0000:03:00.0", "error=-12", NULL},
	/* amdgpu's IP block failing with ENOENT: the missing file, beside the
	 * init failure; another error is the init failure only */
	{"amdgpu-ip-block-enoent.log", "LXG140", W, "0000:04:00.0", "block=psp|phase=sw_init|error=-2", NULL},
	{"amdgpu-ip-block-enoent.log", "LXG141", E, "0000:04:00.0", "block=psp|phase=sw_init|ret=-2", NULL},
	{"amdgpu-ip-block-einval.log", "LXG141", E, "0000:04:00.0", "block=gfx_v9_0|phase=hw_init|ret=-22", NULL},
	/* nv's invalid-region record alone, its GPU the probe's after it */
	{"pci-region-invalid-alone.log", "LXG104", E, "0000:01:00.0", NULL, NULL},
	{"pci-region-invalid-alone.log", "LXG106", E, "0000:01:00.0", NULL, "LXG104"},
	/* the open module's refusal and RmInitAdapter pasted without "NVRM: " */
	{"open-module-unsupported-no-prefix.log", "LXG115", E, "0000:05:00.0", NULL, NULL},
	{"open-module-unsupported-no-prefix.log", "LXG106", E, "0000:05:00.0", NULL, "LXG115"},
	{"xid-after-resume.log", "LXG110", I, "0000:01:00.0", "xid=13|times=2", NULL},
	{"xid-after-resume.log", "LXG174", W, "0000:01:00.0", "number=13|times=2", NULL},
	/* Xid 79 right after a resume: off the bus, and the sleep that lost it */
	{"xid79-after-resume.log", "LXG109", E, "0000:04:00.0", NULL, NULL},
	{"xid79-after-resume.log", "LXG174", E, "0000:04:00.0", NULL, NULL},
	{"xid-154.log", "LXG110", E, "0000:3b:00.0",
	 "xid=154|mnemonic=GPU_RECOVERY_ACTION_CHANGED|bucket=XID_154|action=GPU Reset Required", NULL},
	{"xid.log", "LXG110", E, "0019:01:00.0", "xid=149|mnemonic=NVLINK_NETIR_ERROR|bucket=WORKFLOW_NVLINK5_ERR", NULL},
	{"xid-144.log", "LXG110", W, "0000:01:00.0", "xid=144|mnemonic=NVLINK_SAW_ERROR|bucket=WORKFLOW_NVLINK5_ERR", NULL},
	{"xid-145.log", "LXG110", W, "0018:01:00.0", "xid=145|mnemonic=NVLINK_RLW_ERROR|bucket=WORKFLOW_NVLINK5_ERR", NULL},
	{"xid-8.log", "LXG110", W, "0000:41:00.0", "xid=8|mnemonic=ROBUST_CHANNEL_FIFO_ERROR_IDLE_TIMEOUT|bucket=RESTART_APP", NULL},
	{"xid-46.log", "LXG110", E, "0000:41:00.0", "xid=46|mnemonic=ROBUST_CHANNEL_GPU_TIMEOUT_ERROR|bucket=RESET_GPU", NULL},
	{"xid-110.log", "LXG110", E, "0000:1b:00.0", "xid=110|mnemonic=SEC_FAULT_ERROR|bucket=RESET_GPU", NULL},
	{"xid-136.log", "LXG110", E, "0000:1b:00.0", "xid=136|mnemonic=ALI_TRAINING_FAIL|bucket=RESET_GPU", NULL},
	{"xid-140.log", "LXG110", E, "0000:1b:00.0", "xid=140|mnemonic=UNRECOVERABLE_ECC_ERROR_ESCAPE|bucket=RESET_GPU", NULL},
	{"xid-143.log", "LXG110", E, "0000:1b:00.0", "xid=143|mnemonic=GPU_INIT_ERROR|bucket=RESET_GPU", NULL},
	{"xid-155.log", "LXG110", E, "0000:1b:00.0", "xid=155|mnemonic=NVLINK_SW_DEFINED_ERROR|bucket=RESET_GPU", NULL},
	{"xid-157.log", "LXG110", W, "0000:1b:00.0", "xid=157|mnemonic=RESOURCE_RETIREMENT_FAILURE|bucket=IGNORE", NULL},
	{"xid-158.log", "LXG110", E, "0000:1b:00.0", "xid=158|mnemonic=GPU_FATAL_TIMEOUT|bucket=RESET_GPU", NULL},
	/* the rest of NVIDIA's current catalogue with a resolution bucket (NVLink 5, C2C, CC) */
	{"xid-121.log", "LXG110", I, "0009:01:00.0", "xid=121|mnemonic=C2C_ERROR|bucket=IGNORE", NULL},
	{"xid-137.log", "LXG110", I, "0000:1b:00.0", "xid=137|mnemonic=NVLINK_PRIV_ERR|bucket=IGNORE", NULL},
	{"xid-146.log", "LXG110", E, "0000:04:00.0", "xid=146|mnemonic=NVLINK_TLW_ERROR|bucket=WORKFLOW_NVLINK5_ERR",
	 NULL},
	{"xid-147.log", "LXG110", W, "0000:04:00.0", "xid=147|mnemonic=NVLINK_TREX_ERROR", NULL},
	{"xid-148.log", "LXG110", W, "0000:04:00.0", "xid=148|mnemonic=NVLINK_NVLPW_CTRL_ERROR", NULL},
	{"xid-150.log", "LXG110", E, "0000:04:00.0", "xid=150|mnemonic=NVLINK_MSE_ERROR", NULL},
	{"xid-151.log", "LXG110", E, "0000:1b:00.0", "xid=151|mnemonic=ROBUST_CHANNEL_KEY_ROTATION_ERROR|bucket=RESTART_VM",
	 NULL},
	{"xid-156.log", "LXG110", E, "0000:1b:00.0", "xid=156|mnemonic=RESOURCE_RETIREMENT_EVENT|bucket=RESET_GPU", NULL},
	{"xid-159.log", "LXG110", W, "0009:01:00.0", "xid=159|mnemonic=ROBUST_CHANNEL_CHI_NON_DATA_ERROR|bucket=CHECK_UVM",
	 NULL},
	/* the rest of 595.45.04's nverror.h the catalogue does not mark unused
	 * (173-176: nverror.h only); the message as the catalogue or the
	 * source words it */
	{"xid-14.log", "LXG110", I, "0000:1b:00.0", "xid=14|mnemonic=ROBUST_CHANNEL_FAKE_ERROR|bucket=IGNORE", NULL},
	{"xid-39.log", "LXG110", W, "0000:1b:00.0", "xid=39|mnemonic=ROBUST_CHANNEL_CE0_ERROR|bucket=RESTART_APP", NULL},
	{"xid-40.log", "LXG110", W, "0000:1b:00.0", "xid=40|mnemonic=ROBUST_CHANNEL_CE1_ERROR|bucket=RESTART_APP", NULL},
	{"xid-41.log", "LXG110", W, "0000:1b:00.0", "xid=41|mnemonic=ROBUST_CHANNEL_CE2_ERROR|bucket=RESTART_APP", NULL},
	{"xid-44.log", "LXG110", I, "0000:1b:00.0", "xid=44|mnemonic=ROBUST_CHANNEL_GR_FAULT_DURING_CTXSW|bucket=IGNORE", NULL},
	{"xid-60.log", "LXG110", W, "0000:1b:00.0", "xid=60|mnemonic=ROBUST_CHANNEL_SEC2_ERROR|bucket=RESTART_APP", NULL},
	{"xid-68.log", "LXG110", W, "0000:1b:00.0", "xid=68|mnemonic=ROBUST_CHANNEL_NVDEC0_ERROR|bucket=RESTART_APP", NULL},
	{"xid-70.log", "LXG110", W, "0000:1b:00.0", "xid=70|mnemonic=ROBUST_CHANNEL_CE3_ERROR|bucket=RESTART_APP", NULL},
	{"xid-71.log", "LXG110", W, "0000:1b:00.0", "xid=71|mnemonic=ROBUST_CHANNEL_CE4_ERROR|bucket=RESTART_APP", NULL},
	{"xid-72.log", "LXG110", W, "0000:1b:00.0", "xid=72|mnemonic=ROBUST_CHANNEL_CE5_ERROR|bucket=RESTART_APP", NULL},
	{"xid-75.log", "LXG110", W, "0000:1b:00.0", "xid=75|mnemonic=ROBUST_CHANNEL_CE6_ERROR|bucket=RESTART_APP", NULL},
	{"xid-76.log", "LXG110", W, "0000:1b:00.0", "xid=76|mnemonic=ROBUST_CHANNEL_CE7_ERROR|bucket=RESTART_APP", NULL},
	{"xid-77.log", "LXG110", W, "0000:1b:00.0", "xid=77|mnemonic=ROBUST_CHANNEL_CE8_ERROR|bucket=RESTART_APP", NULL},
	{"xid-78.log", "LXG110", E, "0000:1b:00.0", "xid=78|mnemonic=VGPU_START_ERROR|bucket=UPDATE_SWFW", NULL},
	{"xid-80.log", "LXG110", W, "0000:1b:00.0", "xid=80|mnemonic=PBDMA_PUSHBUFFER_CRC_MISMATCH|bucket=RESTART_APP", NULL},
	{"xid-82.log", "LXG110", W, "0000:1b:00.0", "xid=82|mnemonic=ROBUST_CHANNEL_NVJPG0_ERROR|bucket=RESTART_APP", NULL},
	{"xid-83.log", "LXG110", W, "0000:1b:00.0", "xid=83|mnemonic=ROBUST_CHANNEL_NVDEC1_ERROR|bucket=RESTART_APP", NULL},
	{"xid-84.log", "LXG110", W, "0000:1b:00.0", "xid=84|mnemonic=ROBUST_CHANNEL_NVDEC2_ERROR|bucket=RESTART_APP", NULL},
	{"xid-85.log", "LXG110", W, "0000:1b:00.0", "xid=85|mnemonic=ROBUST_CHANNEL_CE9_ERROR|bucket=RESTART_APP", NULL},
	{"xid-86.log", "LXG110", W, "0000:1b:00.0", "xid=86|mnemonic=ROBUST_CHANNEL_OFA0_ERROR|bucket=RESTART_APP", NULL},
	{"xid-88.log", "LXG110", W, "0000:1b:00.0", "xid=88|mnemonic=ROBUST_CHANNEL_NVDEC3_ERROR|bucket=RESTART_APP", NULL},
	{"xid-89.log", "LXG110", W, "0000:1b:00.0", "xid=89|mnemonic=ROBUST_CHANNEL_NVDEC4_ERROR|bucket=RESTART_APP", NULL},
	{"xid-93.log", "LXG110", W, "0000:1b:00.0", "xid=93|mnemonic=INFOROM_ERASE_LIMIT_EXCEEDED|bucket=IGNORE", NULL},
	{"xid-96.log", "LXG110", W, "0000:1b:00.0", "xid=96|mnemonic=ROBUST_CHANNEL_NVDEC5_ERROR|bucket=RESTART_APP", NULL},
	{"xid-97.log", "LXG110", W, "0000:1b:00.0", "xid=97|mnemonic=ROBUST_CHANNEL_NVDEC6_ERROR|bucket=RESTART_APP", NULL},
	{"xid-98.log", "LXG110", W, "0000:1b:00.0", "xid=98|mnemonic=ROBUST_CHANNEL_NVDEC7_ERROR|bucket=RESTART_APP", NULL},
	{"xid-99.log", "LXG110", W, "0000:1b:00.0", "xid=99|mnemonic=ROBUST_CHANNEL_NVJPG1_ERROR|bucket=RESTART_APP", NULL},
	{"xid-100.log", "LXG110", W, "0000:1b:00.0", "xid=100|mnemonic=ROBUST_CHANNEL_NVJPG2_ERROR|bucket=RESTART_APP", NULL},
	{"xid-101.log", "LXG110", W, "0000:1b:00.0", "xid=101|mnemonic=ROBUST_CHANNEL_NVJPG3_ERROR|bucket=RESTART_APP", NULL},
	{"xid-102.log", "LXG110", W, "0000:1b:00.0", "xid=102|mnemonic=ROBUST_CHANNEL_NVJPG4_ERROR|bucket=RESTART_APP", NULL},
	{"xid-103.log", "LXG110", W, "0000:1b:00.0", "xid=103|mnemonic=ROBUST_CHANNEL_NVJPG5_ERROR|bucket=RESTART_APP", NULL},
	{"xid-104.log", "LXG110", W, "0000:1b:00.0", "xid=104|mnemonic=ROBUST_CHANNEL_NVJPG6_ERROR|bucket=RESTART_APP", NULL},
	{"xid-105.log", "LXG110", W, "0000:1b:00.0", "xid=105|mnemonic=ROBUST_CHANNEL_NVJPG7_ERROR|bucket=RESTART_APP", NULL},
	{"xid-108.log", "LXG110", I, "0000:1b:00.0", "xid=108|mnemonic=NVLINK_REMOTE_TRANSLATION_ERROR|bucket=IGNORE", NULL},
	{"xid-126.log", "LXG110", W, "0000:1b:00.0", "xid=126|mnemonic=ROBUST_CHANNEL_CE10_ERROR|bucket=RESTART_APP", NULL},
	{"xid-127.log", "LXG110", W, "0000:1b:00.0", "xid=127|mnemonic=ROBUST_CHANNEL_CE11_ERROR|bucket=RESTART_APP", NULL},
	{"xid-128.log", "LXG110", W, "0000:1b:00.0", "xid=128|mnemonic=ROBUST_CHANNEL_CE12_ERROR|bucket=RESTART_APP", NULL},
	{"xid-129.log", "LXG110", W, "0000:1b:00.0", "xid=129|mnemonic=ROBUST_CHANNEL_CE13_ERROR|bucket=RESTART_APP", NULL},
	{"xid-130.log", "LXG110", W, "0000:1b:00.0", "xid=130|mnemonic=ROBUST_CHANNEL_CE14_ERROR|bucket=RESTART_APP", NULL},
	{"xid-131.log", "LXG110", W, "0000:1b:00.0", "xid=131|mnemonic=ROBUST_CHANNEL_CE15_ERROR|bucket=RESTART_APP", NULL},
	{"xid-132.log", "LXG110", W, "0000:1b:00.0", "xid=132|mnemonic=ROBUST_CHANNEL_CE16_ERROR|bucket=RESTART_APP", NULL},
	{"xid-133.log", "LXG110", W, "0000:1b:00.0", "xid=133|mnemonic=ROBUST_CHANNEL_CE17_ERROR|bucket=RESTART_APP", NULL},
	{"xid-134.log", "LXG110", W, "0000:1b:00.0", "xid=134|mnemonic=ROBUST_CHANNEL_CE18_ERROR|bucket=RESTART_APP", NULL},
	{"xid-135.log", "LXG110", W, "0000:1b:00.0", "xid=135|mnemonic=ROBUST_CHANNEL_CE19_ERROR|bucket=RESTART_APP", NULL},
	{"xid-139.log", "LXG110", W, "0000:1b:00.0", "xid=139|mnemonic=ROBUST_CHANNEL_OFA1_ERROR|bucket=RESTART_APP", NULL},
	{"xid-141.log", "LXG110", I, "0000:1b:00.0", "xid=141|mnemonic=ROBUST_CHANNEL_FAST_PATH_ERROR|bucket=IGNORE", NULL},
	{"xid-142.log", "LXG110", W, "0000:1b:00.0", "xid=142|mnemonic=ROBUST_CHANNEL_NVENC3_ERROR|bucket=CONTACT_SUPPORT", NULL},
	{"xid-160.log", "LXG110", I, "0000:1b:00.0", "xid=160|mnemonic=CHANNEL_RETIREMENT_EVENT|bucket=IGNORE", NULL},
	{"xid-161.log", "LXG110", W, "0000:1b:00.0", "xid=161|mnemonic=CHANNEL_RETIREMENT_FAILURE|bucket=IGNORE", NULL},
	{"xid-162.log", "LXG110", I, "0000:1b:00.0", "xid=162|mnemonic=ISINK_REENGAGED|bucket=none given", NULL},
	{"xid-163.log", "LXG110", W, "0000:1b:00.0", "xid=163|mnemonic=ISINK_DISENGAGED|bucket=none given", NULL},
	{"xid-164.log", "LXG110", W, "0000:1b:00.0", "xid=164|mnemonic=ISINK_LOW_LIFETIME|bucket=none given", NULL},
	{"xid-165.log", "LXG110", W, "0000:1b:00.0", "xid=165|mnemonic=ISINK_ZERO_LIFETIME|bucket=none given", NULL},
	{"xid-166.log", "LXG110", W, "0000:1b:00.0", "xid=166|mnemonic=NVLINK_SECURE_NVLE_ERROR|bucket=none given", NULL},
	{"xid-167.log", "LXG110", E, "0000:1b:00.0", "xid=167|mnemonic=PCIE_FATAL_TIMEOUT|bucket=none given", NULL},
	{"xid-168.log", "LXG110", W, "0000:1b:00.0", "xid=168|mnemonic=REDUCED_GPU_MEMORY_CAPACITY|bucket=none given", NULL},
	{"xid-169.log", "LXG110", E, "0000:1b:00.0", "xid=169|mnemonic=SEC2_HALT_ERROR|bucket=none given", NULL},
	{"xid-170.log", "LXG110", W, "0000:1b:00.0", "xid=170|mnemonic=NVLINK_SECURE_ERROR|bucket=none given", NULL},
	{"xid-171.log", "LXG110", E, "0000:1b:00.0", "xid=171|mnemonic=UNCORRECTABLE_DRAM_ERROR|bucket=none given", NULL},
	{"xid-172.log", "LXG110", E, "0000:1b:00.0", "xid=172|mnemonic=UNCORRECTABLE_SRAM_ERROR|bucket=none given", NULL},
	{"xid-173.log", "LXG110", E, "0000:1b:00.0", "xid=173|mnemonic=C2C_FATAL_LINK_FAILURE|bucket=none given (nverror.h only)", NULL},
	{"xid-174.log", "LXG110", I, "0000:1b:00.0", "xid=174|mnemonic=ROBUST_CHANNEL_RESETCHANNEL_KILL_PROCESS_SILENT|bucket=none given (nverror.h only)", NULL},
	{"xid-175.log", "LXG110", E, "0000:1b:00.0", "xid=175|mnemonic=MEMORY_SUBSYSTEM_ERROR|bucket=none given (nverror.h only)", NULL},
	{"xid-176.log", "LXG110", W, "0000:1b:00.0", "xid=176|mnemonic=PCIE_CORRECTABLE_ERROR_FAULT|bucket=none given (nverror.h only)", NULL},
	{"xid-177.log", "LXG110", W, "0000:1b:00.0", "xid=177|mnemonic=BANK_REMAPPING_EVENT|bucket=none given (newer than the catalogue)", NULL},
	/* a number NVIDIA's catalogue marks unused: a warning that names it */
	{"xid-unlisted.log", "LXG110", W, "0000:1b:00.0", "xid=7|mnemonic=", NULL},
	/* signing, lockdown */
	{"lockdown-unsigned.log", "LXG112", E, NULL, "program=modprobe", NULL},
	{"unsigned-rejected.log", "LXG112", E, NULL, NULL, NULL},
	{"unavailable-key-rejected.log", "LXG112", E, NULL, NULL, NULL},
	{"pkcs7-untrusted.log", "LXG112", W, NULL, NULL, NULL},
	{"modprobe-not-permitted.log", "LXG112", E, NULL, "module=nvidia", NULL},
	{"modprobe-key-rejected.log", "LXG112", E, NULL, "module=nvidia|error=Key was rejected by service", NULL},
	{"modprobe-key-rejected-gdm.log", "LXG112", E, NULL, "module=nvidia|error=Key was rejected by service|times=2", NULL},
	{"modprobe-not-permitted-bottlerocket.log", "LXG112", E, NULL, "module=nvidia|times=1", NULL},
	/* a module built for another kernel */
	{"module-vermagic.log", "LXG116", E, NULL,
	 "module=nvidia|built_for=5.4.18-100.fc30.x86_64 SMP mod_unload |kernel=5.4.18-200.fc31.x86_64 SMP mod_unload ",
	 NULL},
	{"module-symbol-version.log", "LXG116", E, NULL, "module=nvidia|symbol=i2c_get_adapter|times=4", NULL},
	{"module-symbol-version-alone.log", "LXG116", E, NULL, "module=nvidia|symbol=i2c_get_adapter|times=1", NULL},
	{"module-nv-peer-mem.log", "LXG116", E, NULL, "module=nv_peer_mem|symbol=nvidia_p2p_get_pages|times=3", NULL},
	{"module-unknown-symbol.log", "LXG116", E, NULL, "module=nvidia_fs|symbol=nvidia_p2p_dma_unmap_pages", NULL},
	{"modprobe-exec-format.log", "LXG116", E, NULL, "module=nvidia|error=Exec format error", NULL},
	/* the NVSwitch fabric */
	{"sxid.log", "LXG117", W, NULL, "sxid=22013|switch=nvswitch3|address=0000:04:00.0|times=3", NULL},
	{"sxid-fatal.log", "LXG117", E, NULL, "sxid=24007|switch=nvswitch2|address=0000:07:00.0", NULL},
	{"sxid-dmesg-x.log", "LXG117", W, NULL, "sxid=12028|switch=nvswitch1", NULL},
	/* the IOMMU and P2P */
	{"amd-vi-page-fault.log", "LXG113", E, "0000:07:00.0", NULL, NULL},
	{"dmar-fault.log", "LXG113", E, "0000:06:00.0", NULL, NULL},
	/* Xen's console form, filled in from drivers/passthrough/vtd/iommu.c's format */
	{"dmar-fault-xen.log", "LXG113", E, "0000:00:02.0", NULL, NULL},
	/* filled from the IOMMU drivers' format strings */
	{"dmar-fault-intr-remap.log", "LXG113", E, "0000:01:00.0", "what=INTR-REMAP", NULL},
	{"amd-vi-page-fault-4x.log", "LXG113", E, "0000:0a:00.0", "event=IO_PAGE_FAULT", NULL},
	{"amd-vi-iotlb-timeout.log", "LXG113", E, "0000:0a:00.0", "event=IOTLB_INV_TIMEOUT", NULL},
	{"amd-vi-completion-wait.log", "LXG113", E, "0000:0a:00.0", "times=2", NULL},
	/* arm-smmu-v3's fault before 6.14 names no device: the log's only GPU */
	{"arm-smmu-fault-old.log", "LXG113", E, "0009:01:00.0", "event=0x10|times=2", NULL},
	{"p2pdma-acs-redirect.log", "LXG114", W, "0000:34:00.0", NULL, NULL},
	/* filled: the IOMMU refuses a VM the GPU (RMRR) */
	{"iommu-rmrr-refused.log", "LXG188", E, "0000:07:00.0", "driver=vfio-pci", NULL},
	{"iommu-rmrr-refused-6x.log", "LXG188", E, "0000:07:00.0", "driver=vfio-pci", NULL},
	/* Logs of public reports read only after the catalogue was built
	 * (the measurement of issue 20; README: the threads). RmInitAdapter's
	 * code is (rm_init_status, NV_STATUS, line): osinit.c's enum and
	 * nvstatuscodes.h name the stage and the status by hand here. */
	{"rm-init-dma-vmware.log", "LXG106", E, "0000:13:00.0",
	 "status=0x26:0x56:1463|stage=RM_INIT_GPU_DMA_CONFIGURATION_FAILED|error=NV_ERR_NOT_SUPPORTED", "-"},
	{"rm-init-gsp-gfw-boot.log", "LXG106", E, "0000:98:00.0",
	 "status=0x62:0x65:1792|stage=RM_INIT_FIRMWARE_INIT_FAILED|error=NV_ERR_TIMEOUT", "LXG108"},
	{"rm-init-gsp-gfw-boot.log", "LXG108", E, "0000:98:00.0", NULL, NULL},
	{"rm-init-two-gpus-irq.log", "LXG106", E, "0000:04:01.0",
	 "status=0x11:0x45:2525|minor=0|times=2|stage=RM_INIT_SYS_ENVIRONMENT_FAILED|error=NV_ERR_IRQ_NOT_FIRING", "-"},
	{"rm-init-two-gpus-irq.log", "LXG106", E, "0000:04:02.0", "status=0x11:0x45:2525|minor=1|times=2", "-"},
	{"rm-init-syslog-bracket.log", "LXG106", E, "0000:0a:00.0",
	 "status=0x24:0x72:1568|minor=5|times=2|stage=RM_INIT_GPU_STATE_INIT_FAILED|error=NV_ERR_MEMORY_ERROR", "-"},
	{"rm-init-attach.log", "LXG106", E, "0000:01:00.0",
	 "status=0x22:0x56:894|times=2|stage=RM_INIT_GPU_GPUMGR_ATTACH_GPU_FAILED|error=NV_ERR_NOT_SUPPORTED", "-"},
	{"rm-init-old.log", "LXG106", E, NULL, "status=0x26:0xffff:1375|minor=0|error=NV_ERR_GENERIC", "-"},
	{"rm-init-fsp-h100.log", "LXG106", E, "0000:01:00.0",
	 "status=0x62:0x1a:1792|minor=0|stage=RM_INIT_FIRMWARE_INIT_FAILED|error=NV_ERR_INSUFFICIENT_RESOURCES", "LXG108"},
	{"pci-region-invalid-bar0.log", "LXG104", E, "0000:06:00.0", "bar=0|bar_size=0|bar_address=0", NULL},
	{"pci-region-invalid-bar0.log", "LXG106", E, "0000:06:00.0", "error=-1", "LXG104"},
	{"pci-region-invalid-egpu.log", "LXG104", E, "0000:0a:00.0", "bar=1|bar_size=0|bar_address=0", NULL},
	{"legacy-branch-talos.log", "LXG103", E, NULL,
	 "branch=470.xx|model=GeForce GT 710|driver_version=535.129.03", NULL},
	{"legacy-branch-talos.log", "LXG125", W, NULL, NULL, NULL},
	{"api-mismatch-journal-367.log", "LXG100", E, NULL, "client_version=367.44|module_version=367.35", NULL},
	{"api-mismatch-515.log", "LXG100", E, NULL, "client_version=515.48.07|module_version=510.73.05", NULL},
	{"api-mismatch-repeated-stamp.log", "LXG100", E, NULL, "client_version=535.183.01|module_version=535.161.07",
	 NULL},
	{"api-mismatch-vgpu-guest.log", "LXG100", E, NULL, "client_version=570.148.08|module_version=570.148.06", NULL},
	{"no-graphics-adapter-old.log", "LXG125", W, NULL, NULL, NULL},
	{"module-unknown-symbol-uvm.log", "LXG116", E, NULL, "module=nvidia_uvm|symbol=radix_tree_preloads", NULL},
	{"module-unknown-symbol-uvm-old.log", "LXG116", E, NULL, "module=nvidia_uvm|symbol=radix_tree_preloads", NULL},
	{"module-unknown-symbol-depmod.log", "LXG116", E, NULL, "module=nvidia-uvm|times=3", NULL},
	/* Xid 45 names the Xid it follows: that one is the cause */
	{"xid-45-caused-by.log", "LXG110", W, "0000:dc:00.0", "xid=45|root_xid=149", NULL},
	{"xid-45-caused-by.log", "LXG110", W, "0000:ed:00.0", "xid=45|root_xid=145", NULL},
	/* "NVRM: GPU0" is no address; the log's only NVIDIA GPU is 0000:05:00.0 */
	{"gsp-heartbeat-journal.log", "LXG108", E, "0000:05:00.0", NULL, NULL},
	/* the log's only NVIDIA GPU by nvidia-drm's GPU ID of it (0x00000900) */
	{"gsp-heartbeat-gpu-id.log", "LXG108", E, "0000:09:00.0", NULL, NULL},
	{"xid-62-154-proxmox.log", "LXG110", E, "0000:01:00.0", "xid=62|bucket=RESET_GPU", NULL},
	{"xid-62-154-proxmox.log", "LXG110", E, "0000:01:00.0", "xid=154|action=GPU Reset Required", NULL},
	/* the driver's own status names in its check lines */
	{"reset-required.log", "LXG118", E, NULL, NULL, NULL},
	{"gpu-is-lost.log", "LXG109", E, NULL, "times=2", NULL},
	/* Intel and AMD: the GPU from the dev_printk prefix, the firmware
	 * file, the ring; a failed init explained by the file before it */
	/* an Xid whose address the poster elided: counted, its GPU unknown */
	{"xid-79-elided.log", "LXG109", E, NULL, "logged_gpu=...|text=GPU has fallen off the bus.", NULL},
	{"xid-13-elided.log", "LXG110", I, NULL, "xid=13|logged_gpu=0000:XX:00", NULL},
	{"amdgpu-psp-toc-missing.log", "LXG140", W, "0000:04:00.0",
	 "file=amdgpu/psp_13_0_8_toc.bin|driver=amdgpu|error=-2", NULL},
	{"amdgpu-psp-toc-missing.log", "LXG141", E, "0000:04:00.0", NULL, "LXG140"},
	{"amdgpu-gpu-info-missing.log", "LXG140", W, "0000:23:00.0", "file=amdgpu/arcturus_gpu_info.bin|error=-2", NULL},
	{"amdgpu-gpu-info-missing.log", "LXG141", E, "0000:23:00.0", NULL, "LXG140"},
	{"i915-dmc-missing.log", "LXG140", W, "0000:00:02.0", "file=i915/adlp_dmc.bin|driver=i915|times=1", NULL},
	{"i915-dmc-missing.log", "LXG140", W, "0000:00:02.0", "file=i915/adlp_dmc_ver2_16.bin", NULL},
	/* i915's "fetch failed" restates the loader's line for the same file:
	 * one finding, once */
	{"i915-guc-fetch-failed.log", "LXG140", W, "0000:03:00.0", "file=i915/dg2_guc_70.2.0.bin|error=-2|times=1", NULL},
	{"i915-guc-fetch-alone.log", "LXG140", W, "0000:03:00.0", "file=i915/dg2_guc_70.2.0.bin|error=-2|uc=GuC", NULL},
	/* the uC lines without the driver's prefix: the integrated GPU, or the
	 * log's only Intel GPU */
	{"intel-uc-fetch-unprefixed.log", "LXG140", W, "0000:00:02.0", "file=i915/adlp_guc_70.1.1.bin|error=-2|uc=GuC", NULL},
	{"intel-uc-init-unprefixed.log", "LXG141", E, "0000:00:02.0", "uc=GuC|error=-ENOEXEC", "-"},
	{"i915-dmc-load-failed.log", "LXG140", W, "0000:00:02.0", "file=i915/skl_dmc_ver1_27.bin|driver=i915", NULL},
	{"xe-guc-load-failed.log", "LXG141", E, "0000:04:00.0", "status=0x400000A0|driver=xe", "-"},
	{"gsp-firmware-515.log", "LXG107", E, "0000:41:00.0", "file=gsp.bin|version=515.65.01|error=-2", NULL},
	{"i915-gpu-hang-no-context.log", "LXG142", W, "0000:03:00.0", "ecode=12:0:00000000", NULL},
	{"amdgpu-atombios-stuck.log", "LXG141", E, "0000:0a:00.0", "seconds=20", NULL},
	/* kmsg4: the format strings of the reset, ring-test, kfd and PSP paths
	 * (one real line alone where another row's finding takes it in) */
	{"fallen-off-bus-old.log", "LXG109", E, "0000:02:00.0", NULL, NULL},
	{"bar-64bit-no-window.log", "LXG104", E, NULL, NULL, NULL},
	{"amdgpu-gpu-reset-failed.log", "LXG142", E, "0000:0b:00.0", "count=1", NULL},
	/* the GPU gone from the bus when amdgpu came to reset it */
	{"amdgpu-device-lost.log", "LXG109", E, "0000:03:00.0", NULL, NULL},
	/* firmware-first PCIe errors: the firmware's record of a GPU */
	{"ghes-pcie-error.log", "LXG152", E, "0000:3b:00.0", NULL, NULL},
	/* the record of the root port above it: the GPU below that port */
	{"ghes-pcie-error-root-port.log", "LXG152", E, "0000:e3:00.0", NULL, NULL},
	{"amdgpu-ring-test-failed.log", "LXG142", W, "0000:03:00.0", "ring=kiq_2.1.0|error=-110", NULL},
	/* the 4.x wordings without the address: each block's own test, the
	 * scratch register's value; radeon's of the same form */
	{"amdgpu-ring-test-scratch.log", "LXG142", W, "0005:03:00.0", "ring=9|error=scratch(0xC040)=0xFFFFFFFF|driver=amdgpu",
	 NULL},
	{"radeon-ring-test-scratch.log", "LXG142", W, NULL, "ring=0|error=scratch(0x850C)=0xCAFEDEAD|driver=radeon", NULL},
	{"radeon-ib-test-failed.log", "LXG142", W, "0000:01:00.0", "ring=GFX|error=-110|driver=radeon|times=1", NULL},
	{"kfd-not-supported-asic.log", "LXG143", W, "0000:06:00.0", NULL, NULL},
	{"kfd-not-supported-asic.log", "LXG143", W, "0000:23:00.0", NULL, NULL},
	/* the 4.x DMC line names no file: it restates the loader's line before it */
	{"i915-dmc-load-failed-old.log", "LXG140", W, "0000:00:02.0", "file=i915/skl_dmc_ver1_27.bin|times=1", NULL},
	{"i915-dmc-load-failed-old-alone.log", "LXG140", W, "0000:00:02.0",
	 "url=https://01.org/linuxgraphics/intel-linux-graphics-firmwares", NULL},
	{"amdgpu-gpu-reset-5x.log", "LXG142", W, "0000:03:00.0", "method=BACO|times=2", NULL},
	{"amdgpu-psp-tmr-failed.log", "LXG145", E, "0000:0c:00.0", "step=load tmr|times=2", NULL},
	{"amdgpu-psp-tmr-failed.log", "LXG174", E, "0000:0c:00.0", NULL, "LXG145"},
	{"i915-reset.log", "LXG142", W, "0000:00:02.0", "engine=chip|reason=stopped heartbeat on rcs0|times=1", NULL},
	{"i915-reset-old.log", "LXG142", W, "0000:00:02.0", "engine=chip|reason=gpu hang", NULL},
	{"i915-reset-pr-notice.log", "LXG142", W, "0000:00:02.0", "ecode=8:0:0x84dffffc", NULL},
	{"i915-reset-pr-notice-alone.log", "LXG142", W, "0000:00:02.0", "engine=chip|reason=gpu hang", NULL},
	{"i915-reset-failed.log", "LXG142", E, "0000:00:02.0", NULL, NULL},
	{"xe-engine-reset.log", "LXG142", W, "0000:03:00.0", "engine=ccs|times=1", NULL},
	{"xe-gt-reset-failed.log", "LXG142", E, "0000:00:02.0", "error=-ETIMEDOUT", NULL},
	{"i915-guc-wedged.log", "LXG141", E, "0000:00:02.0", "uc=GuC|error=-ENXIO|times=2", "-"},
	{"i915-guc-init-old.log", "LXG141", E, "0000:00:02.0", "uc=GuC|error=-2", "-"},
	{"i915-wedged-alone.log", "LXG141", E, "0000:00:02.0", "driver=i915", "-"},
	/* 4.x DRM_ERROR without the address: the log's only i915 GPU */
	{"i915-wedged-old.log", "LXG141", E, "0000:00:02.0",
	 "what=Failed to initialize GPU, declaring it wedged", "-"},
	{"i915-rewedged-resume-old.log", "LXG141", E, "0000:00:02.0",
	 "what=failed to re-initialize GPU, declaring wedged", "-"},
	{"amdgpu-ring-timeout-reset.log", "LXG142", E, "0000:28:00.0",
	 "ring=gfx_0.0.0|signaled=57638|emitted=57641|times=3", NULL},
	{"amdgpu-vram-lost.log", "LXG142", E, "0000:28:00.0", NULL, NULL},
	{"amdgpu-baco-reset.log", "LXG142", W, "0000:28:00.0", "method=BACO", NULL},
	{"amdgpu-ring-timeout-mode1.log", "LXG142", W, "0000:03:00.0",
	 "ring=gfx_0.0.0, kiq_2.1.0|signaled=228661|emitted=228662|times=2", NULL},
	{"amdgpu-ring-timeout-old.log", "LXG142", W, NULL, "ring=gfx_0.0.0|signaled=9910|emitted=9912", NULL},
	{"i915-gpu-hang.log", "LXG142", W, "0000:00:10.0", "ecode=9:4:c47d807d|process=ffmpeg|times=3", NULL},
	{"kfd-atomics.log", "LXG143", E, NULL, "pci_id=1002:67df", NULL},
	{"kfd-atomics-old.log", "LXG143", E, NULL, "pci_id=1002:67df", NULL},
	{"kfd-atomics-counts.log", "LXG143", E, NULL, "pci_id=1002:67df|times=1", NULL},
	/* kfd without the GPU (GCN 1, a GC IP newer than the kernel): a
	 * warning, graphics and transcoding still work */
	{"kfd-unsupported.log", "LXG143", W, NULL, "asic=PITCAIRN", NULL},
	{"kfd-unsupported-gc-ip.log", "LXG143", W, NULL, "asic=GC IP 0b0004", NULL},
	{"kfd-unsupported-did.log", "LXG143", W, NULL, "asic=DID 15dd", NULL},
	{"kfd-unsupported-did-bound.log", "LXG143", W, "0000:06:00.0", "asic=DID 15dd", NULL},
	/* MES, PSP, DMCUB: the GPU where the line names it, the request */
	{"amdgpu-mes-timeout.log", "LXG144", E, "0000:c5:00.0", "msg=REMOVE_QUEUE|times=4", NULL},
	/* the general layer of amdgpu's errors: the IP block by the DRM_ERROR's
	 * function or by the block the dev_err line names; the log's only
	 * amdgpu GPU where the line has no address */
	{"amdgpu-bar-resize-failed.log", "LXG105", W, "0000:03:00.0", "error=-16", NULL},
	{"radeon-no-ums.log", "LXG153", E, "0000:01:00.0", "driver=radeon", NULL},
	{"radeon-module-vermagic.log", "LXG116", E, NULL, "module=radeon", NULL},
	{"amdgpu-error-pm.log", "LXG174", W, "0000:0b:00.0",
	 "where=amdgpu_device_resume|message=amdgpu asic init failed", NULL},
	{"amdgpu-error-tables.log", "LXG156", W, "0000:0b:00.0", "where=amdgpu_discovery_init", NULL},
	{"amdgpu-error-psp.log", "LXG145", W, "0000:0b:00.0", "where=tmr|message=Failed to terminate tmr",
	 NULL},
	{"amdgpu-error-mes.log", "LXG144", W, "0000:0b:00.0", "where=amdgpu_mes_unmap_legacy_queue", NULL},
	{"amdgpu-error-smu.log", "LXG149", W, "0000:0b:00.0",
	 "where=powerplay|message=Failed to load smu firmware!", NULL},
	{"amdgpu-error-firmware.log", "LXG140", W, "0000:04:00.0", "where=amdgpu_sdma_init_microcode", NULL},
	{"amdgpu-error-dmub.log", "LXG146", W, "0000:04:00.0",
	 "where=dm_dmub_hw_init|message=No firmware provided for DMUB.", NULL},
	{"amdgpu-error-display.log", "LXG178", W, "0000:04:00.0", "where=handle_hpd_irq|times=3", NULL},
	{"amdgpu-error-engine.log", "LXG142", W, "0000:0b:00.0",
	 "where=gfx_v10_0_hw_fini|message=KGQ disable failed", NULL},
	{"amdgpu-error-init.log", "LXG141", W, "0000:0b:00.0", "where=amdgpu_atom_execute_table_locked",
	 NULL},
	/* 3.x radeon's DRM_ERROR names no module: the log's only radeon GPU
	 * (no amdgpu one), here by drm_dev_register()'s "Initialized" line */
	{"amdgpu-error-init-radeon-no-module.log", "LXG141", W, "0000:01:05.0", "where=r600_startup", NULL},
	{"amdgpu-error-init-radeon-no-module.log", "LXG140", W, "0000:01:05.0",
	 "file=radeon/R600_rlc.bin|where=r600_cp|driver=radeon", NULL},
	/* radeon's own "r600_cp: Failed to load firmware" names the file: a
	 * bug mail's comment that ran the records into one line; a forum's
	 * typographic quotes */
	{"gpu-microcode-load-failed.log", "LXG140", W, "0000:01:00.0",
	 "file=radeon/RV730_pfp.bin|where=r600_cp|driver=radeon", NULL},
	{"gpu-microcode-load-failed.log", "LXG141", E, "0000:01:00.0", "driver=radeon", NULL},
	{"gpu-microcode-load-failed-quotes.log", "LXG140", W, "0000:01:00.0",
	 "file=radeon/CAICOS_pfp.bin|where=ni_cp", NULL},
	/* amd14's sweep of amdgpu's format strings (6.18 and older wordings),
	 * filled in as the driver fills them: the families the rows above
	 * missed. A TLB flush nobody acknowledges (6.x dev_err, 5.x DRM_ERROR) */
	{"amdgpu-vm-flush-timeout.log", "LXG142", W, "0000:0b:00.0", "step=Timeout waiting for VM flush ACK!",
	 NULL},
	{"amdgpu-vm-flush-timeout-old.log", "LXG142", W, "0000:0b:00.0",
	 "step=Timeout waiting for VM flush hub: 0!", NULL},
	/* the dev_err lines that name the block by what it does, not by name */
	{"amdgpu-error-psp-ta.log", "LXG145", W, "0000:0b:00.0", "where=ras ta", NULL},
	/* 5.x to 6.1's DRM_WARN of a failed PSP command: no address, and no
	 * amdgpu line with one in the post (an arm64 board's W6400) */
	{"amdgpu-error-psp-drm-warn.log", "LXG145", W, NULL,
	 "where=ID_LOAD_TOC(0x20)|message=psp gfx command ID_LOAD_TOC(0x20) failed and response status is (0x0)",
	 NULL},
	{"amdgpu-error-smu-features.log", "LXG149", W, "0000:0b:00.0", "where=features control", NULL},
	/* smu_dpm_set_power_gate()'s gfxoff and power gate errors are the SMU's
	 * (a real RX 6900 XT whose SMU stopped answering), not an engine hang */
	{"amdgpu-smu-gfxoff-failed.log", "LXG149", W, "0000:09:00.0",
	 "where=gfxoff|message=Failed to enable gfxoff!", NULL},
	{"amdgpu-error-mes-reg-wait.log", "LXG144", W, "0000:0b:00.0", "where=reg_write_reg_wait", NULL},
	{"amdgpu-error-engine-ib.log", "LXG142", W, "0000:0b:00.0",
	 "message=Error scheduling IBs (-22) in ring(sdma0)", NULL},
	{"amdgpu-error-tables-atombios.log", "LXG156", W, "0000:0b:00.0", "where=atombios_init", NULL},
	/* amdgpu_device_init()'s and kfd's own steps, 6.x wordings */
	{"kfd-device-not-added-dqm.log", "LXG143", E, NULL, "pci_id=1002:15dd", NULL},
	{"amdgpu-vbios-not-found-6x.log", "LXG156", E, "0000:0b:00.0", "times=2", NULL},
	{"amdgpu-gpu-reset-failed-link.log", "LXG142", E, "0000:0b:00.0", "failure=GPU link reset failed", NULL},
	{"amdgpu-gpu-reset-failed-pre-asic.log", "LXG142", E, "0000:0b:00.0",
	 "failure=GPU pre asic reset failed with err, -110", NULL},
	{"amdgpu-device-resume-asic-init.log", "LXG174", E, "0000:0b:00.0", "error=amdgpu asic init failed",
	 NULL},
	{"amdgpu-ip-late-init-failed.log", "LXG141", E, "0000:0b:00.0", NULL, NULL},
	/* amdkfd's runlist the hardware scheduler did not take (6.x dev_err, filled in) */
	{"kfd-runlist-failed.log", "LXG142", W, "0000:0b:00.0", "step=failed to execute runlist", NULL},
	/* radeon's per-ASIC resume (si.c's DRM_ERROR, filled in) */
	{"radeon-error-pm-resume.log", "LXG174", W, "0000:01:00.0",
	 "where=si_resume|message=si startup failed on resume", NULL},
	/* DRM_ERROR lines name no GPU; these logs' amdgpu lines name one only
	 * (read by hand: 0000:03:00.0, 0000:c7:00.0, 0000:0b:00.0, 0000:0d:00.0) */
	{"amdgpu-mes-timeout-old.log", "LXG144", E, "0000:03:00.0", "msg=3", NULL},
	{"amdgpu-psp-ring-failed.log", "LXG145", E, "0000:c7:00.0", "step=create ring", NULL},
	/* the PSP failure names no GPU; the init failure after it does
	 * (0000:03:00.0, the report's "amdgpu_device_ip_init failed"): one
	 * LXG141 with the IP block as context and the PSP as its cause */
	{"amdgpu-psp-firmware-failed.log", "LXG145", E, "0000:03:00.0", "step=firmware loading", NULL},
	{"amdgpu-psp-firmware-failed.log", "LXG141", E, "0000:03:00.0",
	 "block=psp|phase=hw_init|ret=-22|times=2", "LXG145"},
	{"amdgpu-ip-init-alone.log", "LXG141", E, "0000:03:00.0", "times=1", "-"},
	/* the SMU's newer "No response" form, then the init failure it caused */
	{"amdgpu-smu-no-response.log", "LXG149", W, "0000:03:00.0", "msg=6|resp=0", NULL},
	{"amdgpu-smu-no-response.log", "LXG141", E, "0000:03:00.0", "block=smu|phase=hw_init|ret=-62|times=2",
	 "LXG149"},
	{"amdgpu-psp-ucode-refused.log", "LXG140", W, "0000:0b:00.0", "ucode=VCN", NULL},
	{"amdgpu-psp-ucode-refused-id.log", "LXG140", W, "0000:0b:00.0", "ucode=ucode id (8)", NULL},
	{"xe-declared-wedged.log", "LXG142", E, "0000:03:00.0", NULL, NULL},
	{"xe-uc-init-failed.log", "LXG140", W, "0000:03:00.0", "file=xe/bmg_guc_70.bin|driver=xe", NULL},
	{"xe-uc-init-failed.log", "LXG141", E, "0000:03:00.0", "ret=-ENOENT", "LXG140"},
	{"amdgpu-psp-resume-failed.log", "LXG145", E, "0000:0b:00.0", "step=create ring", NULL},
	{"amdgpu-psp-resume-failed.log", "LXG142", E, "0000:0b:00.0", NULL, NULL},
	{"amdgpu-dmcub-error.log", "LXG146", W, "0000:03:00.0", "times=3", NULL},
	{"amdgpu-dmcub-error-journal.log", "LXG146", W, "0000:03:00.0", "times=1", NULL},
	/* suspend and resume, any GPU driver: a GPU that did not resume is an
	 * error (unusable until a reboot), one that refused to suspend a warning */
	{"gpu-pm-resume-failed.log", "LXG174", E, "0000:07:00.0", "driver=amdgpu|step=resume|error=-62", NULL},
	{"gpu-pm-suspend-callback.log", "LXG174", W, "0000:01:00.0",
	 "driver=nvidia|callback=nv_pmops_suspend|error=-5", NULL},
	{"nvidia-pm-no-procfs.log", "LXG174", W, "0000:01:00.0", NULL, NULL},
	/* 595's ioctl check: a caller of another interface */
	{"nvidia-ioctl-invalid.log", "LXG100", W, "0000:21:00.0", "what=unknown NVRM ioctl command: 0x5e", NULL},
	{"nvidia-ioctl-invalid.log", "LXG100", W, "0000:21:00.0", "what=invalid 214 structure size, expected 16, got 24!", NULL},
	{"nvidia-ioctl-invalid.log", "LXG100", W, "0000:21:00.0", "what=invalid 43 structure size!", NULL},
	/* 595's kernel suspend notifier: the sleep refused, the resume failed */
	{"nvidia-pm-notifier-suspend.log", "LXG174", W, "0000:0b:00.0", "step=suspend|status=0x51", NULL},
	{"nvidia-pm-notifier-resume.log", "LXG174", E, "0000:0b:00.0", "step=resume|status=0x56", NULL},
	{"gpu-pm-suspend-failed.log", "LXG174", W, "0000:01:00.0", "driver=nvidia|step=suspend|error=-5", NULL},
	/* pci_pm_runtime_suspend()'s pci_err, filled in */
	{"gpu-pm-runtime-suspend.log", "LXG174", W, "0000:41:00.0",
	 "driver=nvidia|callback=nv_pmops_runtime_suspend|error=-5", NULL},
	{"gpu-pm-prepare.log", "LXG174", W, "0000:01:00.0", "driver=amdgpu|callback=pci_pm_prepare|error=-12|times=2", NULL},
	/* the PM core's old wordings name the device without the driver: a GPU
	 * the log shows (drm's "Initialized ... for"), never the USB controller */
	{"gpu-pm-not-prepared.log", "LXG174", W, "0000:03:00.0", "error=-16|times=1", NULL},
	{"gpu-pm-resume-failed-old.log", "LXG174", E, "0000:01:00.0", "step=resume|error=-110|times=1", NULL},
	{"gpu-pm-suspend-failed-old.log", "LXG174", W, "0000:01:00.0", "step=suspend|error=-16", NULL},
	/* i915 could not idle the GPU before the suspend (4.19-5.x, and 4.x's) */
	{"i915-gem-idle-failed.log", "LXG174", W, "0000:00:02.0", "times=1", NULL},
	{"i915-gem-idle-failed-old.log", "LXG174", W, "0000:00:02.0", NULL, NULL},
	/* i915's reset watchdog gave up: the GPU is wedged (6.x with GT, 4.19-5.x) */
	{"i915-reset-timed-out.log", "LXG142", E, "0000:00:02.0", "step=intel_gt_reset_global", NULL},
	{"i915-reset-timed-out-old.log", "LXG142", E, "0000:00:02.0", "step=i915_reset_device", NULL},
	{"gpu-pm-resume-callback.log", "LXG174", E, "0000:07:00.0",
	 "driver=amdgpu|callback=pci_pm_resume|error=-62", NULL},
	{"gpu-pm-suspend-callback-old.log", "LXG174", W, "0000:01:00.0",
	 "driver=nouveau|callback=nouveau_pmops_suspend|error=-16", NULL},
	{"gpu-pm-suspend-callback-old-pm.log", "LXG174", W, NULL,
	 "driver=nvidia|callback=nv_pmops_suspend|error=-5", NULL},
	{"gpu-pm-resume-callback-old.log", "LXG174", E, "0000:0b:00.0",
	 "driver=amdgpu|callback=amdgpu_pmops_resume|error=-5", NULL},
	/* the display engine: page flips that never complete (a warning: the
	 * screen, not the GPU's other engines) */
	{"drm-flip-timeout.log", "LXG175", W, "0000:03:00.0", "driver=amdgpu|what=hw_done or flip_done|times=6", NULL},
	{"drm-flip-timeout-old.log", "LXG175", W, NULL, "what=flip_done|times=4", NULL},
	{"drm-flip-timeout-old-intel.log", "LXG175", W, "0000:00:02.0", "what=flip_done|crtc=pipe A", NULL},
	{"drm-vblank-wait-timeout.log", "LXG175", W, "0000:03:00.0", "driver=amdgpu|crtc=0", NULL},
	{"drm-vblank-wait-timeout-drm-warn.log", "LXG175", W, "0000:00:02.0", "driver=i915|crtc=1", NULL},
	/* the GPU from nvidia-drm's GPU ID: (domain << 16) | (bus << 8) | slot */
	{"nvidia-drm-flip-timeout.log", "LXG175", W, "0000:08:00.0", "gpu_id=00000800|head=0", NULL},
	{"nvidia-modeset-idle-timeout.log", "LXG175", W, NULL, "index=0|state=0x0000c67d:0:0:1051|times=3", NULL},
	/* filled from the sources (nvidia-drm-modeset.c 570's LUT notifier;
	 * nvkms-evo3.c's core channel and nvkms-hw-flip.c's idle waits; nvkms-evo.c's
	 * display engine allocation after a failed RM call; nvkms-hdmi.c's FRL
	 * fallback; os-pci.c's FLR; nv-pci.c's VF probe without an IOMMU) */
	{"nvidia-drm-lut-timeout.log", "LXG175", W, "0000:01:00.0", "gpu_id=00000100|head=0|what=LUT notifier",
	 NULL},
	{"nvidia-modeset-core-idle-timeout.log", "LXG175", W, NULL, "index=0|times=2", NULL},
	{"nvidia-modeset-display-init-failed.log", "LXG175", W, "0000:01:00.0",
	 "index=0|what=Failed to initialize display engine: 0x62|status=0x62", NULL},
	{"nvidia-modeset-frl-training-failed.log", "LXG178", W, NULL, "index=0", NULL},
	{"nvidia-flr-failed.log", "LXG176", E, "0000:41:00.0", "what=FLR might have failed", NULL},
	{"vgpu-vf-no-iommu.log", "LXG106", E, "0000:41:00.4", NULL, NULL},
	/* a display output: the monitor, cable, adapter or hub (a warning: the
	 * GPU's other engines go on); a dump of zeroes is no finding
	 * (clean-display-notes.log) */
	{"drm-edid-invalid.log", "LXG178", W, "0000:00:02.0", "driver=i915|connector=HDMI-A-2|times=1", NULL},
	/* the display state buffer of i915 and xe (filled in from intel_dsb.c):
	 * the wait for it, then its poll's error interrupt, one cause */
	{"intel-dsb-timeout.log", "LXG175", W, "0000:00:02.0",
	 "driver=xe|crtc=pipe A|what=[CRTC:151:pipe A] DSB 0 timed out waiting for idle|times=2", NULL},
	{"drm-edid-invalid-drm.log", "LXG178", W, "0000:00:02.0", "driver=i915|connector=HDMI-A-2|times=1", NULL},
	{"drm-mst-act-timeout.log", "LXG178", W, "0000:00:02.0", "driver=i915|ms=3000|times=2", NULL},
	{"drm-mst-act-timeout-old.log", "LXG178", W, "0000:00:02.0", "ms=3000|times=1", NULL},
	{"i915-dp-link-training-failed.log", "LXG178", W, "0000:00:02.0",
	 "driver=i915|what=Link Training Unsuccessful|times=2", NULL},
	{"i915-dp-link-training-old.log", "LXG178", W, "0000:00:02.0", "what=failed to train DP, aborting|times=2", NULL},
	/* 6.x intel_dp_link_training.c lt_err(), filled in: the DPCD write that starts training failed */
	{"i915-dp-link-training-enable.log", "LXG178", W, "0000:00:02.0",
	 "driver=i915|what=Failed to enable link training|connector=DP-1", NULL},
	/* filled in from the sources (tests/doctor/kmsg/README.md): a link
	 * training step (6.x lt_err(), the clock recovery's count of tries; 5.x
	 * DRM_ERROR, the log's one i915 GPU), the MST stream's payload and ACT,
	 * a Type-C PHY, a display PLL (DG2's SNPS PHY; the C10/C20 PHY's warning) */
	{"i915-dp-link-training-step.log", "LXG178", W, "0000:00:02.0",
	 "driver=i915|what=Failed clock recovery 10 times, giving up!|connector=DP-3|phy=DPRX|times=2", NULL},
	{"i915-dp-link-training-step-old.log", "LXG178", W, "0000:00:02.0",
	 "driver=i915|what=failed to update link training|times=1", NULL},
	/* xe's panel self refresh that never went idle (omacom/omarchy#11016):
	 * the re-enable's wait, then the disable's; the 5.4 and 5.15 forms */
	{"intel-psr-idle-timeout.log", "LXG178", W, "0000:00:02.0",
	 "driver=xe|what=Timed out waiting for PSR Idle for re-enable|times=2", NULL},
	{"intel-psr-idle-timeout-old.log", "LXG178", W, "0000:00:02.0",
	 "driver=i915|what=Timed out waiting for PSR Idle for re-enable|times=1", NULL},
	{"intel-psr-idle-timeout-5x.log", "LXG178", W, "0000:00:02.0",
	 "driver=i915|what=PSR idle timed out 0x40040000, atomic update may fail", NULL},
	{"intel-dp-mst-payload-failed.log", "LXG178", W, "0000:00:02.0",
	 "driver=i915|what=Failed to create MST payload for DP-6: -5|connector=DP-6|error=-5|times=2", NULL},
	{"drm-mst-payload-failed.log", "LXG178", W, "0000:00:02.0",
	 "driver=i915|what=Step 2 of creating MST payload for 00000000c2f1a6e4 failed: -110|error=-110|times=2", NULL},
	{"intel-tc-phy-disconnected.log", "LXG178", W, "0000:00:02.0", "driver=i915|port=D/TC#1|streams=1", NULL},
	/* an AUX channel's transfers stuck: counted from five messages of one
	 * channel; one failed try and its "not done" join nothing (the link
	 * training failure after them counts alone, once) */
	{"intel-dp-aux-stuck.log", "LXG178", W, "0000:00:02.0", "channel=AUX USBC1/DDI TC1/PHY TC1|driver=i915|times=6",
	 NULL},
	{"intel-dp-aux-stuck-old.log", "LXG178", W, "0000:00:02.0", "driver=i915|what=dp aux hw did not signal timeout",
	 NULL},
	{"intel-dp-aux-once.log", "LXG178", W, "0000:00:02.0", "what=Link Training Unsuccessful|times=1", NULL},
	/* FIFO underruns again and again (ten or more of one GPU); a few are quiet */
	{"intel-fifo-underrun-repeated.log", "LXG178", W, "0000:00:02.0", "what=CPU pipe B FIFO underrun|times=22", NULL},
	/* a display pipe's faults, five or more of one GPU (clean-intel-display-notes.log's
	 * four at boot are quiet) */
	{"intel-pipe-fault.log", "LXG178", W, "0000:00:02.0", "what=Fault errors on pipe A|pipe=A|times=6", NULL},
	{"intel-display-pll-unlocked.log", "LXG178", W, "0000:03:00.0", "driver=i915|what=Port C PLL not locked", NULL},
	{"intel-display-pll-unlocked-cx0.log", "LXG178", W, "0000:00:02.0", "driver=xe|what=Port B PLL not locked",
	 NULL},
	{"amdgpu-dc-sink-unread.log", "LXG178", W, "0000:0a:00.0",
	 "what=EDID err: 2, on connector: DP-3|connector=DP-3|times=2", NULL},
	{"amdgpu-dc-no-edid-journal.log", "LXG178", W, "0000:03:00.0", "what=No EDID read|times=1", NULL},
	/* a GPU that no longer answers on PCI: the PCI core's lines, the GPU
	 * known from the nvidia prefix; RmInitAdapter's cause is it */
	{"pci-not-ready.log", "LXG176", E, "0000:01:00.0", "driver=nvidia|ms=65535|event=resume", NULL},
	{"pci-not-ready.log", "LXG106", E, "0000:01:00.0", NULL, "LXG176"},
	{"pci-power-inaccessible.log", "LXG176", E, "0000:01:00.0", "driver=nvidia|from=D3cold", NULL},
	{"pci-power-inaccessible-5x.log", "LXG176", E, "0000:02:00.0", "driver=nvidia|from=D3cold", NULL},
	/* the line wrapped on the page after "to D0," (or after "from D3cold"), the
	 * probe failure's cause; indented as a block, each message still its own */
	{"pci-power-inaccessible-wrapped.log", "LXG176", E, "0000:03:00.0", "driver=xe|from=D3cold", NULL},
	{"pci-power-inaccessible-wrapped.log", "LXG141", E, "0000:03:00.0", NULL, "LXG176"},
	{"pci-power-inaccessible-indented.log", "LXG176", E, "0000:03:00.0", "driver=xe|from=D3cold", NULL},
	/* the device a GPU only by nvidia-drm's GPU ID of it */
	{"pci-power-inaccessible-nvidia-drm.log", "LXG176", E, "0000:01:00.0", "driver=pci|from=D3cold", NULL},
	/* filled from the PCI core's and vfio-pci's format strings */
	{"pci-link-not-active.log", "LXG176", E, "0000:01:00.0", "port=0000:00:01.1|ms=1000", NULL},
	{"pci-power-refused.log", "LXG176", E, "0000:0b:00.0", "driver=vfio-pci|from=D3", NULL},
	{"pci-power-refused-6x.log", "LXG176", E, "0000:03:00.0", "driver=amdgpu|from=D3hot", NULL},
	{"pci-flr-pending.log", "LXG176", W, "0000:41:00.0", "driver=vfio-pci|reset=function level reset", NULL},
	/* nouveau drives the GPU: its own errors, and no CUDA */
	{"nouveau-drives-gpu.log", "LXG111", E, "0000:02:00.0", "line=fifo: SCHED_ERROR 08 []|times=4", NULL},
	/* contexts lost in a reset: the hang before the excerpt */
	{"amdgpu-cs-context-lost.log", "LXG142", W, NULL, NULL, NULL},
	/* the DRM core's scheduler and memory manager: no device, the log's only GPU */
	{"drm-sched-killed-entity.log", "LXG142", W, NULL, NULL, NULL},
	{"ttm-eviction-failed.log", "LXG192", W, NULL, NULL, NULL},
	/* amdgpu's and radeon's command submission refused with -ENOMEM: the
	 * DRM_ERROR form names no GPU (an excerpt without amdgpu's lines stays
	 * unnamed), drm_err's and a log with the driver's lines name it */
	/* radeon's soft reset after a hang, seen by the registers it pulses
	 * (the "GPU softreset:" line before them not in the excerpt) */
	{"radeon-soft-reset-registers.log", "LXG142", W, "0000:01:00.0", "step=GRBM_SOFT_RESET=0x00010001", NULL},
	/* Debian's radeon without its firmware package: the GPU is the AMD
	 * display device the log enumerates that no driver took */
	{"radeon-firmware-required.log", "LXG140", W, "0000:01:00.0", "driver=radeon", NULL},
	{"radeon-firmware-required-paste.log", "LXG140", W, NULL, "driver=radeon", NULL},
	/* the same Debian patch in amdgpu: not its catch-all init failure (LXG141) */
	{"amdgpu-firmware-required.log", "LXG140", W, "0000:0a:00.0", "driver=amdgpu", NULL},
	/* amdgpu declines a GPU its table flags experimental (Renoir on 5.4): no address, the
	 * AMD display device no driver took */
	{"amdgpu-exp-hw-support.log", "LXG141", E, "0000:04:00.0", "driver=amdgpu", NULL},
	/* amdkfd refused its module parameter: no GPU gets a ROCm node; the
	 * log's only amdgpu GPU is named */
	{"kfd-module-param-invalid.log", "LXG143", E, "0000:2f:00.0", "param=sched_policy", NULL},
	{"kfd-module-param-invalid-queues.log", "LXG143", E, "0000:03:00.0",
	 "param=max_num_of_queues_per_device", NULL},
	{"amdgpu-cs-no-memory.log", "LXG192", W, NULL, "driver=amdgpu|times=3", NULL},
	{"amdgpu-cs-no-memory-vm.log", "LXG192", W, NULL, "driver=amdgpu|times=2", NULL},
	{"amdgpu-cs-no-memory-drm-err.log", "LXG192", W, "0000:03:00.0", "driver=amdgpu|times=2", NULL},
	{"radeon-cs-no-memory.log", "LXG192", W, "0000:01:00.0", "driver=radeon", NULL},
	/* 4.x-5.9's DMA page pool names the GPU */
	{"ttm-pool-page-failed.log", "LXG192", W, "0000:03:00.0", NULL, NULL},
	/* the NVIDIA RM out of room: BAR1's address space (the log's only
	 * NVIDIA GPU: its "nvidia 0000:01:00.0:" line, nvidia-drm's GPU ID),
	 * and system memory, no longer an RmInitAdapter step */
	{"nvidia-va-space-exhausted.log", "LXG192", W, "0000:01:00.0", "what=can't alloc VA space for mapping|times=3", NULL},
	{"nvidia-va-space-assert.log", "LXG192", W, "0000:09:00.0", "what=Out of memory [NV_ERR_NO_MEMORY]", NULL},
	{"nvidia-sysmem-alloc-failed.log", "LXG192", W, NULL, "what=Cannot allocate sysmem through fb heap", NULL},
	/* inside a suspend: the failed suspend's (its amdgpu line names the GPU) */
	{"ttm-eviction-failed-sleep.log", "LXG174", W, "0000:03:00.0", NULL, NULL},
	{"amdgpu-evict-resources-failed.log", "LXG174", W, "0000:03:00.0", NULL, NULL},
	/* the SMU stops answering, then the ring times out (old form, no address) */
	{"amdgpu-smu-timeout.log", "LXG149", W, "0000:0d:00.0", "msg=0x00000012|param=0x00000005|times=3", NULL},
	{"amdgpu-smu-timeout.log", "LXG142", W, "0000:0d:00.0", "ring=gfx_0.0.0|signaled=613206|emitted=613208", NULL},
	{"amdgpu-smu-timeout-no-regs.log", "LXG149", W, "0000:0f:00.0", NULL, NULL},
	/* powerplay's SMU7/CI message path: the message on the line after
	 * "amdgpu: [powerplay] ", no address (one SMU, one cause: two
	 * messages count twice), and the 5.10 dev_info form with it */
	{"amdgpu-powerplay-send-failed.log", "LXG149", W, NULL, "msg=146|ret=65535|times=2", NULL},
	{"amdgpu-powerplay-send-failed-dev.log", "LXG149", W, "0000:02:00.0", "msg=16a|ret=0|times=2", NULL},
	/* the SMU does not turn its features off on suspend: two lines of one
	 * failure, counted once */
	{"amdgpu-smu-disable-features.log", "LXG149", W, "0000:0d:00.0",
	 "step=Failed to disable smu features.|times=1", NULL},
	/* at init: the SMU's silence is why amdgpu gave the GPU up; the
	 * interface-version notice before it is no finding */
	{"amdgpu-smu-init-failed.log", "LXG149", W, "0000:03:00.0", "msg=0x00000006|param=0x00000000", NULL},
	{"amdgpu-smu-init-failed.log", "LXG141", E, "0000:03:00.0", NULL, "LXG149"},
	/* amdgpu's GPU VM page faults: one finding per GPU, the process from
	 * the headline or the record after it, the detail lines joined */
	{"amdgpu-vm-fault-process.log", "LXG150", W, "0000:c6:00.0",
	 "process=pt_main_thread|pid=12924|pasid=32769|hub=gfxhub0|times=2", NULL},
	{"amdgpu-vm-fault-gfx10.log", "LXG150", W, "0000:0d:00.0", "process=cosmic-comp|pid=4732|hub=gfxhub|times=2",
	 NULL},
	{"amdgpu-vm-fault-two-gpus.log", "LXG150", W, "0000:88:00.0", "process=python3|pasid=32772|times=1", NULL},
	{"amdgpu-vm-fault-two-gpus.log", "LXG150", W, "0000:8b:00.0", NULL, NULL},
	{"amdgpu-vm-fault-process-alone.log", "LXG150", W, "0000:c2:00.0", "process=python|pid=25454", NULL},
	{"amdgpu-gpu-fault-detected.log", "LXG150", W, "0000:01:00.0", "src=147|times=2", NULL},
	/* the same with amdgpu's dev_fmt "amdgpu: " of newer kernels (filled in) */
	{"amdgpu-gpu-fault-detected-6x.log", "LXG150", W, "0000:01:00.0", "src=147", NULL},
	{"amdgpu-gpu-fault-process.log", "LXG150", W, "0005:01:00.0", "process=Media1251|pid=19092|src=146", NULL},
	/* engines that stop answering: IB tests, the KIQ, amdkfd's HWS */
	{"amdgpu-ib-test-failed.log", "LXG142", W, "0000:c1:00.0", "ring=vpe|error=-110|times=1", NULL},
	{"amdgpu-ib-ring-tests-alone.log", "LXG142", W, "0000:c1:00.0", "error=-110", NULL},
	{"amdgpu-ib-test-two-gpus.log", "LXG142", W, "0005:01:00.0", "ring=comp_1.2.0, comp_1.3.0|times=2", NULL},
	{"amdgpu-ib-test-two-gpus.log", "LXG142", W, "000d:31:00.0", "ring=comp_1.2.0, comp_1.3.0|times=2", NULL},
	{"amdgpu-kiq-timeout.log", "LXG142", W, "0000:05:00.0", "step=failed to write reg 1a6f4 wait reg 1a706|times=2",
	 NULL},
	{"amdgpu-kiq-reg-failed.log", "LXG142", W, "0000:05:00.0", "rw=read|reg=2a0c|times=2", NULL},
	{"kfd-preemption-timeout.log", "LXG142", E, "0000:03:00.0",
	 "step=HIQ MQD's queue_doorbell_id0 is not 0, Queue preemption time out|times=2", NULL},
	{"kfd-qcm-fence-timeout.log", "LXG142", E, "0000:01:00.0", "step=qcm fence wait loop timeout expired|times=3",
	 NULL},
	{"amdgpu-gpu-reset-begin.log", "LXG142", W, "0000:c5:00.0", NULL, NULL},
	/* kernel modesetting off: the log's AMD or Intel display GPUs that no
	 * DRM driver's line names (nomodeset: the driver of the GPU's vendor) */
	{"modeset-nomodeset-amd.log", "LXG153", E, "0000:03:00.0", "param=nomodeset|driver=amdgpu", NULL},
	{"modeset-vgacon.log", "LXG153", E, "0000:0d:00.0", "driver=amdgpu", NULL},
	{"modeset-i915-off.log", "LXG153", E, "0000:00:02.0", "param=i915.modeset=0|driver=i915", NULL},
	/* AMD RAS: fatal, uncorrectable and poison errors, retired pages past
	 * the threshold (the init failure it causes names it) */
	{"amdgpu-ras-athub.log", "LXG154", E, "0000:e3:00.0", "event=uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) detected!", NULL},
	{"amdgpu-ras-athub-seq.log", "LXG154", E, "0000:1c:00.0", NULL, NULL},
	{"amdgpu-ras-ue.log", "LXG154", E, "0000:c1:00.0", "count=2|block=umc|times=2", NULL},
	{"amdgpu-ras-poison.log", "LXG154", E, "0000:c1:00.0", "client=12", NULL},
	{"amdgpu-ras-bad-pages.log", "LXG154", E, "0000:c1:00.0", "records=129|threshold=128", NULL},
	{"amdgpu-ras-bad-pages.log", "LXG141", E, "0000:c1:00.0", NULL, "LXG154"},
	/* the SMU that does not come up or refuses a message */
	{"amdgpu-smc-not-ready.log", "LXG149", W, "0000:c8:00.0", "step=SMC is not ready|times=2", NULL},
	{"amdgpu-smc-not-ready.log", "LXG141", E, "0000:c8:00.0", "block=smu|phase=resume|ret=-5", "LXG149"},
	{"amdgpu-smu-response.log", "LXG149", W, "0000:03:00.0", "msg=GetSmuVersion|answer=response:0xFFFFFFFF for|times=2",
	 NULL},
	/* its answer of all ones is also the GPU gone from the bus */
	{"amdgpu-smu-response.log", "LXG109", E, "0000:03:00.0", "msg=GetSmuVersion", NULL},
	{"amdgpu-smu-all-ones-egpu.log", "LXG109", E, "0000:0c:00.0", "msg=TransferTableSmu2Dram|times=2", NULL},
	{"amdgpu-smu-all-ones-egpu.log", "LXG149", W, "0000:0c:00.0", "msg=TransferTableSmu2Dram", NULL},
	{"amdgpu-smu-enable-features-failed.log", "LXG149", W, "0000:0b:00.0", NULL, NULL},
	{"amdgpu-smu-enable-features-failed.log", "LXG141", E, "0000:0b:00.0", "block=smu|ret=-62", "LXG149"},
	/* the driver core's probe failure; the VBIOS and IP discovery tables */
	{"amdgpu-vbios-not-found.log", "LXG156", E, "0000:01:00.0", NULL, NULL},
	{"amdgpu-vbios-not-found.log", "LXG141", E, "0000:01:00.0", "times=1", "LXG156"},
	/* radeon's DRM_ERROR of the same text, bound to radeon's one GPU */
	{"radeon-vbios-not-found.log", "LXG156", E, "0000:01:00.0", "driver=radeon", NULL},
	/* vendor-reset's failure on the AMD GPU vfio-pci holds */
	{"vendor-reset-failed.log", "LXG176", E, "0000:0b:00.0", NULL, NULL},
	/* no enumeration line: vendor-reset's own "AMD_VEGA10:" lines show the
	 * device vfio-pci holds to be an AMD GPU */
	{"vendor-reset-unenumerated.log", "LXG176", E, "0000:0b:00.0", NULL, NULL},
	/* DisplayPort link training: DC's last attempt, DC's earlier attempts (three), the DCE code's */
	{"amdgpu-dp-link-training-failed.log", "LXG178", W, "0000:0b:00.0", "link=1|attempt=4 of 4", NULL},
	{"amdgpu-dp-link-training-retries.log", "LXG178", W, "0000:0b:00.0", "times=3", NULL},
	{"amd-dce-dp-link-training-failed.log", "LXG178", W, "0000:01:00.0", "driver=radeon|tries=5", NULL},
	{"amdgpu-probe-driver-failed.log", "LXG141", E, "0000:83:00.0", "error=-12", "-"},
	{"amdgpu-ip-discovery-failed.log", "LXG156", E, "0000:02:00.0", "step=invalid ip discovery binary checksum", NULL},
	{"amdgpu-ip-discovery-failed.log", "LXG141", E, "0000:02:00.0", NULL, "LXG156"},
	{"amdgpu-recovery-disabled.log", "LXG142", E, "0000:0c:00.0", "ring=gfx_0.0.0", NULL},
	{"amdgpu-recovery-disabled-alone.log", "LXG142", E, "0000:0c:00.0", NULL, NULL},
	{"amdgpu-recovery-disabled-drm-info.log", "LXG142", E, "0000:0b:00.0", NULL, NULL},
	{"amdgpu-ring-soft-recovered.log", "LXG142", W, "0000:04:00.0", "ring=gfx_0.0.0|times=2", NULL},
	/* the state captured of a hung GPU, the lines of the timeout's dump alone */
	{"amdgpu-hang-coredump.log", "LXG142", W, "0000:0b:00.0", "what=Dumping IP State", NULL},
	{"amdgpu-ring-reset-failed.log", "LXG142", W, "0000:c5:00.0", "ring=gfx_0.0.0", NULL},
	/* the VBIOS hung: the post error and the fatal line are the same failure */
	{"amdgpu-gpu-post-error.log", "LXG141", E, "0000:67:00.0", "seconds=5|times=2", NULL},
	{"amdgpu-gpu-post-error-alone.log", "LXG141", E, "0000:67:00.0", NULL, "-"},
	/* radeon: each stalled ring once, its lockup line restating it */
	{"radeon-gpu-lockup.log", "LXG142", W, "0000:01:00.0", "ring=4, 3, 0|ms=13024|times=3", NULL},
	{"radeon-gpu-lockup-alone.log", "LXG142", W, "0000:01:00.0", "ring=0", NULL},
	{"amdgpu-dmub-idle-timeout.log", "LXG146", W, "0000:0d:00.0", "step=waiting for DMUB idle|status=3", NULL},
	/* a reset that failed, every wording (filled from the format strings):
	 * the SMU's, the ASIC's, the recovery's, one finding of the GPU */
	{"amdgpu-gpu-reset-failed-mode2.log", "LXG142", E, "0000:7c:00.0", "failure=Mode2 reset failed|times=5", NULL},
	{"amdgpu-asic-reset-failed-old.log", "LXG142", E, "0000:0a:00.0",
	 "failure=ASIC reset failed with error, -110 for drm dev, 0000:0a:00.0|times=2", NULL},
	{"radeon-gpu-reset-failed.log", "LXG142", E, "0000:01:00.0", "failure=GPU reset failed", NULL},
	{"radeon-cp-stall-softreset.log", "LXG142", W, "0000:01:00.0", "ms=10000|times=1", NULL},
	{"amdgpu-gpu-reset-done.log", "LXG142", W, "0000:03:00.0", "step=GPU reset succeeded, trying to resume", NULL},
	{"amdgpu-gpu-reset-succeeded.log", "LXG142", W, "0000:0c:00.0", "step=GPU reset(2) succeeded!", NULL},
	{"amdgpu-ring-reset-failure.log", "LXG142", W, "0000:03:00.0", "ring=sdma0|failure=Ring sdma0 reset failure", NULL},
	{"amdgpu-vpe-queue-reset-failed.log", "LXG142", W, "0000:c3:00.0", "ring=VPE", NULL},
	{"amdgpu-dmub-init-failed.log", "LXG146", W, "0000:0d:00.0", "step=Error initializing DMUB HW: |status=1", NULL},
	{"amdgpu-dmub-resume-failed.log", "LXG146", W, "0000:0d:00.0", "status=-22", NULL},
	{"amdgpu-dmub-queue-failed-old.log", "LXG146", W, "0000:0d:00.0", "step=queuing DMUB command|status=3", NULL},
	{"kfd-device-not-added.log", "LXG143", E, NULL, "pci_id=1002:15dd|times=2", NULL},
	{"kfd-process-vm-failed.log", "LXG143", W, "0000:04:00.0", "step=Failed to create process VM object|times=2", NULL},
	{"amdgpu-smu-send-failed-old.log", "LXG149", W, "0000:03:00.0", "msg=SetHardMinFreqByFreq|response=0xffffffc2", NULL},
	{"amdgpu-smu8-busy.log", "LXG149", W, "0000:00:01.0", "msg=0x0001", NULL},
	{"amdgpu-smu-msg-timeout.log", "LXG149", W, "0000:03:00.0", "msg=RunDcBtc|times=2", NULL},
	{"amdgpu-smu-msg-timeout.log", "LXG141", E, "0000:03:00.0", "block=smu|phase=resume|ret=-62", "LXG149"},
	{"amdgpu-smu-hanged.log", "LXG149", W, "0000:03:00.0",
	 "failure=SMU is in hanged state, failed to send smu message!", NULL},
	{"amdgpu-ras-ue-old.log", "LXG154", E, "0000:c1:00.0", "count=2|block=UMC", NULL},
	{"amdgpu-ras-ue-deferred.log", "LXG154", E, "0000:c1:00.0", "count=1|block=UMC", NULL},
	{"amdgpu-illegal-command.log", "LXG142", W, "0000:0b:00.0", "what=register access|driver=amdgpu", NULL},
	{"radeon-illegal-sdma.log", "LXG142", W, "0000:01:00.0", "what=instruction|driver=radeon", NULL},
	{"amdgpu-mes-timeout-xcc.log", "LXG144", E, "0000:19:00.0", "msg=REMOVE_QUEUE", NULL},
	{"amdgpu-mes-unrecoverable.log", "LXG144", E, "0000:c6:00.0",
	 "step=failed to remove hardware queue from MES, doorbell=0x1004|times=2", NULL},
	{"kfd-evict-queue-failed.log", "LXG142", W, "0000:c6:00.0", "step=Failed to evict queue 3", NULL},
	{"kfd-queue-preemption-failed.log", "LXG142", E, "0000:74:00.0",
	 "step=Queue preemption failed for queue with doorbell_id: 80004008", NULL},
	{"amdgpu-vcn-not-responding.log", "LXG142", W, "0000:05:00.0",
	 "engine=VCN|action=trying to reset the VCPU|driver=amdgpu|times=3", NULL},
	{"radeon-uvd-not-responding.log", "LXG142", W, "0000:01:00.0", "engine=UVD|driver=radeon", NULL},
	{"amdgpu-dm-fence-timeout.log", "LXG142", W, "0000:0b:00.0", NULL, NULL},
	{"radeon-accel-disabled.log", "LXG141", E, "0000:01:00.0", NULL, "LXG142"},
	{"radeon-ib-ring-tests-reset.log", "LXG142", W, "0000:01:00.0", "step=GPU reset succeeded, trying to resume", NULL},
	{"radeon-init-fatal.log", "LXG141", E, "0000:01:00.0", "driver=radeon", "-"},
	{"radeon-ib-get-failed.log", "LXG142", W, "0000:01:00.0", "error=-35|driver=radeon", NULL},
	{"radeon-firmware-missing.log", "LXG140", W, "0000:01:00.0",
	 "file=radeon/hawaii_pfp.bin|driver=radeon|error=-2", NULL},
	{"amdgpu-ip-unknown.log", "LXG141", E, "0000:03:00.0", "block=common|hwip=GC_HWIP|version=0xc0001", NULL},
	{"amdgpu-ring-timeout-4x.log", "LXG142", W, "0000:01:00.0", "ring=gfx|signaled=8153|emitted=8155", NULL},
	{"radeon-gpu-lockup-old.log", "LXG142", W, "0000:01:00.0", "ms=10000|times=1", NULL},
	{"radeon-gpu-lockup-waiting.log", "LXG142", W, "0000:01:00.0", "driver=radeon", NULL},
	{"amdgpu-rlc-autoload-timeout.log", "LXG141", E, "0000:0b:00.0",
	 "step=rlc autoload: gc ucode autoload timeout|times=2", NULL},
	{"amdgpu-probe-failed-alone.log", "LXG141", E, "0000:01:00.0", "error=-22", "-"},
	{"amdgpu-gpu-info-alone.log", "LXG140", W, "0000:23:00.0", "file=amdgpu/arcturus_gpu_info.bin", NULL},
	/* MIG mode without a GPU instance: the channel code's refusal, no GPU named */
	{"mig-no-instance.log", "LXG147", E, NULL, NULL, NULL},
	/* a passthrough host: the boot framebuffer holds the GPU's BAR */
	{"vfio-bar-reserve.log", "LXG148", E, "0000:05:00.0", "bar=0|range=0xd0000000-0xdfffffff", NULL},
	{"vfio-bar-reserve-simpledrm.log", "LXG148", E, "0000:c3:00.0", "bar=0|range=0x2800000000-0x2fffffffff",
	 NULL},
	/* Intel (session 7): a GT that does not answer (the forcewake lines
	 * without the address are the log's only Intel GPU's), the GuC's
	 * channel, engine resets that fail */
	{"intel-forcewake-clear.log", "LXG142", E, "0000:06:10.0",
	 "domain=render|message=timed out waiting for forcewake ack to clear|times=3", NULL},
	{"intel-forcewake-request.log", "LXG142", E, "0000:00:02.0",
	 "domain=gt|message=timed out waiting for forcewake ack request|times=2", NULL},
	/* the same messages while i915 probes the GPU (a probe frame in the
	 * trace before them, or the probe's fuse WARN after them): it cannot
	 * initialize it (a guest's i915 on an SR-IOV VF) */
	{"intel-forcewake-at-probe.log", "LXG141", E, "0000:01:00.0",
	 "domain=gt|message=timed out waiting for forcewake ack request|times=4", NULL},
	{"intel-forcewake-at-probe-warn.log", "LXG141", E, "0000:01:00.0",
	 "domain=gt|message=timed out waiting for forcewake ack request|times=2", NULL},
	{"xe-forcewake-timeout.log", "LXG142", E, "0000:03:00.0", "message=Force wake domain 0 failed to ack wake|times=2",
	 NULL},
	/* engines that do not idle at init: the hang is why the GPU is wedged */
	{"i915-idle-wedged.log", "LXG142", E, "0000:01:00.0", NULL, NULL},
	{"i915-idle-wedged.log", "LXG141", E, "0000:01:00.0", NULL, "LXG142"},
	{"i915-hangcheck-old.log", "LXG142", W, "0000:00:02.0", "engine=render ring|state=idle", NULL},
	{"i915-guc-ct-failed.log", "LXG142", W, "0000:30:00.0", "what=No response for request|times=3", NULL},
	/* 4.16-5.x: DRM_ERROR without the address, lowercase, %#X's "0X" */
	{"i915-guc-ct-old.log", "LXG142", W, "0000:00:02.0", "what=send action 0X3003 failed|times=1", NULL},
	{"intel-guc-mmio-old.log", "LXG141", W, "0000:00:02.0", "request=0x3003|answer=ret=-110", NULL},
	/* 5.x's GuC exception at load, then the GuC init failure: one finding */
	{"i915-guc-exception-old.log", "LXG141", E, "0000:00:02.0", "what=GuC firmware exception. EIP: 0x4c8d8|times=2",
	 NULL},
	{"xe-guc-no-response.log", "LXG142", W, "0000:00:02.0", "what=Timed out wait for G2H", NULL},
	{"xe-guc-engine-reset-failed.log", "LXG142", W, "0000:00:02.0", "engine=0:0|times=2", NULL},
	{"i915-guc-engine-reset-failed.log", "LXG142", W, "0000:00:02.0", "engine=0:0|times=4", NULL},
	{"i915-engine-reset-timeout.log", "LXG142", W, "0000:00:02.0", "engine=vcs0", NULL},
	/* init steps: the GuC's answers, the HuC, a refused or unreadable file */
	{"intel-guc-mmio-failed.log", "LXG141", W, "0000:00:02.0", "request=0x4100|answer=failure|times=1", NULL},
	{"intel-hwconfig-failed.log", "LXG141", W, "0000:00:02.0", "error=-ENOENT", NULL},
	{"intel-huc-auth-failed.log", "LXG141", W, "0000:00:02.0", "what=clear media authentication failed", NULL},
	{"intel-huc-auth-old.log", "LXG141", W, "0000:00:02.0", "what=Authentication failed", NULL},
	{"intel-uc-upload-failed.log", "LXG141", W, "0000:03:00.0", "uc=HuC|file=i915/dg2_huc_gsc.bin", NULL},
	{"intel-uc-version-mismatch.log", "LXG140", W, "0000:00:02.0",
	 "file=i915/tgl_guc_70.bin|found=69.0|wanted=70.1|times=1", NULL},
	{"i915-dmc-parse-failed.log", "LXG140", W, "0000:00:02.0", "file=i915/adlp_dmc.bin|error=-ENOEXEC", NULL},
	{"intel-dmc-lost.log", "LXG155", W, "0000:00:02.0", "check=program storage start is NULL", NULL},
	{"intel-dmc-lost-csr.log", "LXG155", W, "0000:00:02.0", "check=SSP Base Not fine", NULL},
	{"intel-device-init-failed.log", "LXG141", E, "0000:0c:00.0", "error=-110|times=2", "-"},
	{"intel-probe-failed.log", "LXG141", E, "0000:03:00.0", "driver=xe|error=-22", "-"},
	/* Intel's GT and firmware beyond the first rows (intelgt): from the
	 * format strings of i915's gt/ and uc/ and of xe, filled in (README) */
	{"intel-guc-crashed.log", "LXG142", W, "0000:03:00.0", "what=GuC Crash dump notification|times=1", NULL},
	{"intel-guc-crashed-i915.log", "LXG142", W, "0000:00:02.0", "what=GUC: Exception notification|times=2", NULL},
	{"xe-engine-cat-error.log", "LXG142", W, "0000:0b:00.0", "engine=ccs|error=-EIO", NULL},
	{"intel-gt-reset-step-failed.log", "LXG142", E, "0000:03:00.0",
	 "step=GuC reset timed out, GDRST=|error=-110|times=2", NULL},
	{"intel-gt-reset-step-failed-old.log", "LXG142", E, "0000:00:02.0",
	 "step=Failed to reset GuC, ret = -110|error=-110", NULL},
	{"xe-gt-reset.log", "LXG142", W, "0000:03:00.0", "step=queued|times=1", NULL},
	/* no GSM: xe gives the GPU up; the probe failure after it names it as its cause */
	{"xe-no-gsm.log", "LXG141", E, "0000:01:00.0", "times=2", NULL},
	{"xe-gt-reset-trying.log", "LXG142", W, "0000:03:00.0", "step=trying", NULL},
	/* a devcoredump of a timed-out job: xe's hang, when the excerpt has no more */
	{"xe-devcoredump.log", "LXG142", W, "0000:03:00.0", "times=1", NULL},
	{"intel-gt-reset-step-failed-guc.log", "LXG142", E, "0000:00:02.0", NULL, NULL},
	{"intel-fence-timeout.log", "LXG142", W, "0000:00:02.0", "times=2", NULL},
	{"intel-fence-timeout-async.log", "LXG142", W, "0000:00:02.0", "timeline=Xorg[882]:13ae0", NULL},
	{"intel-gt-stalled.log", "LXG142", W, "0000:00:02.0", "engine=rcs0|times=2", NULL},
	{"i915-context-reset.log", "LXG142", W, "0000:00:02.0", "context=ffmpeg[3120]", NULL},
	{"intel-uc-init-step-failed.log", "LXG141", E, "0000:00:02.0",
	 "step=Unsuccessful WOPCM partitioning|driver=i915|times=1", NULL},
	{"i915-enabling-uc-failed.log", "LXG141", E, "0000:00:02.0", "error=-5|driver=i915", NULL},
	{"xe-guc-init-step-failed.log", "LXG141", E, "0000:03:00.0",
	 "step=Failed to enable GuC CT|error=-ETIMEDOUT|times=2", NULL},
	{"intel-guc-pm-failed.log", "LXG141", W, "0000:00:02.0", "what=GUC: SLPC not enabled", NULL},
	{"intel-guc-pm-failed-xe.log", "LXG141", W, "0000:03:00.0", "what=GuC PC Start failed", NULL},
	{"intel-gsc-failed.log", "LXG141", W, "0000:00:02.0", "what=GSC proxy component not bound|times=2", NULL},
	{"intel-gsc-failed-i915.log", "LXG141", W, "0000:00:02.0", "what=GSC init failed -ETIMEDOUT|error=-ETIMEDOUT",
	 NULL},
	{"intel-uc-fw-invalid.log", "LXG140", W, "0000:00:02.0",
	 "file=i915/adlp_guc_70.bin|uc=GuC|problem=invalid size|times=1", NULL},
	{"xe-guc-too-old.log", "LXG140", W, "0000:00:02.0", "found=70.20.0|wanted=70.29.2|times=1", NULL},
	{"i915-sriov-vf-failed.log", "LXG141", E, "0000:06:10.0", "what=Unable to confirm ABI version", NULL},
	{"xe-sriov-vf-failed.log", "LXG141", E, "0000:00:02.1", "what=Unable to confirm VF/PF ABI version", NULL},
	{"intel-sriov-pf-failed.log", "LXG141", W, "0000:00:02.0", "what=Failed to provision VF1|driver=xe",
	 NULL},
	{"intel-sriov-pf-failed-i915.log", "LXG141", W, "0000:00:02.0",
	 "what=Failed to auto provision 7 VFs|driver=i915", NULL},
	/* intel14: filled from the format strings (tests/doctor/kmsg/README.md):
	 * xe 6.17's "Tile0: GT0: PF: " order, i915-sriov-dkms' VF FLR and MEMIRQ
	 * lines, a VF guest without GuC submission, probe steps, Driver-FLR */
	{"intel-sriov-pf-failed-xe-gt-order.log", "LXG141", W, "0000:03:00.0",
	 "what=Failed to provision VF2|driver=xe", NULL},
	{"intel-sriov-pf-failed-i915-save.log", "LXG141", W, "0000:00:02.0",
	 "what=Failed to save VF3|driver=i915", NULL},
	{"xe-sriov-vf-failed-gt-order.log", "LXG141", E, "0000:00:02.1", "what=Unable to confirm GuC version", NULL},
	{"i915-sriov-vf-memirq.log", "LXG141", E, "0000:00:02.1", "what=Failed to register MEMIRQ", NULL},
	{"i915-sriov-vf-guc-off.log", "LXG141", E, "0000:06:10.0", "times=2", NULL},
	/* sriov16: an SR-IOV PF whose GuC submission is off (the backport's
	 * IOV0: prefix), a VF's later check of it, the VF-PF relay, an xe VF
	 * whose migration did not recover, the GSC's proxy to the ME, a GSC-era
	 * firmware file that does not parse, a write to sriov_numvfs that the
	 * kernel's own i915 cannot serve */
	{"i915-sriov-pf-init-failed.log", "LXG141", W, "0000:00:02.0",
	 "what=Initialization failed (-EIO) GuC|error=-EIO|reason=GuC|times=1", NULL},
	{"i915-sriov-pf-init-failed-novfs.log", "LXG141", W, "0000:00:02.0",
	 "what=Initialization failed (-EIO) GuC|reason=GuC|times=2", NULL},
	{"i915-sriov-vf-guc-off-warn.log", "LXG141", E, "0000:00:02.4", "times=1", NULL},
	{"intel-sriov-relay-failed.log", "LXG141", W, "0000:00:02.1",
	 "what=Failed to send request.1 to 0 (-ENODEV)|error=-ENODEV|driver=i915", NULL},
	{"intel-sriov-relay-failed-xe.log", "LXG141", W, "0000:03:00.0",
	 "what=Failed to handle request.3 from 2 (-EOPNOTSUPP)|error=-EOPNOTSUPP|driver=xe", NULL},
	{"xe-sriov-vf-failed-migration.log", "LXG141", E, "0000:00:02.1", "what=migration recovery failed", NULL},
	{"intel-gsc-failed-csme.log", "LXG141", W, "0000:03:00.0", "what=Failed to send CSME proxy message", NULL},
	{"intel-uc-fw-layout-invalid.log", "LXG140", W, "0000:03:00.0", "what=FW too small!|driver=xe", NULL},
	{"i915-gpu-hang-comm-space.log", "LXG142", W, "0000:00:02.0", "process=Plex Transcoder|ecode=12:10:85def5fa",
	 NULL},
	{"gpu-sriov-no-pf-driver.log", "LXG141", W, "0000:00:02.0",
	 "driver=i915|what=driver does not support SR-IOV configuration via sysfs", NULL},
	{"intel-probe-hw-failed.log", "LXG141", E, "0000:01:00.0", "what=Failed to request MSI IRQ|driver=xe", NULL},
	{"intel-probe-hw-failed-old.log", "LXG141", E, "0000:00:02.0", "what=Unknown GMADR size|driver=i915", NULL},
	{"intel-driver-flr-failed.log", "LXG176", E, "0000:03:00.0",
	 "what=Driver-FLR-teardown wait completion failed|driver=xe", NULL},
	{"intel-display-pll-unlocked-vlv.log", "LXG178", W, "0000:00:02.0", "driver=i915|what=DPLL 1 failed to lock", NULL},
	{"xe-guc-ct-broken-h2g.log", "LXG142", W, "0000:00:02.1", "what=H2G channel broken on read", NULL},
	{"intel-uc-error-huc-gsc.log", "LXG141", W, "0000:03:00.0", NULL, NULL},
	{"xe-survivability-mode.log", "LXG141", E, "0000:03:00.0",
	 "what=Survivability Boot Status : Critical Failure|times=2", NULL},
	{"intel-pcode-init-failed.log", "LXG141", E, "0000:03:00.0", "driver=xe", NULL},
	{"xe-vram-unusable.log", "LXG141", E, "0000:03:00.0", "what=Tile without any CPU visible VRAM", NULL},
	{"xe-unknown-ip-version.log", "LXG157", E, "0000:03:00.0", "version=30.03", NULL},
	{"xe-unknown-media-version.log", "LXG141", W, "0000:03:00.0", "version=30.02", NULL},
	{"intel-resume-failed.log", "LXG174", E, "0000:03:00.0", "what=GT0: resume failed (-ETIMEDOUT)|driver=xe",
	 NULL},
	{"intel-resume-failed-i915.log", "LXG174", E, "0000:00:02.0",
	 "what=Runtime resume failed, disabling it (-110)|driver=i915", NULL},
	{"intel-suspend-failed.log", "LXG174", W, "0000:03:00.0", "what=GuC suspend failed|times=2", NULL},
	/* the general i915/xe rows: an error line of a family no row above
	 * names (GT prefix, GuC/HuC text, DRM_ERROR's function), its GPU the
	 * line's or the log's only Intel GPU */
	{"intel-guc-runtime-error.log", "LXG142", W, "0000:00:02.0",
	 "where=i915|message=GT0: GUC: Bad context sched_state 0x0, ctx_id 12", NULL},
	{"intel-uc-error.log", "LXG141", W, "0000:00:02.0",
	 "where=i915|message=GT0: GUC: Failed to allocate SLPC struct: -ENOMEM", NULL},
	{"intel-pm-error.log", "LXG174", W, "0000:00:02.0",
	 "where=i915_drm_resume_early|message=Resume prepare failed: -110, continuing anyway|driver=i915", NULL},
	{"intel-dmc-error.log", "LXG140", W, "0000:00:02.0", "where=i915|message=Truncated DMC firmware, refusing.",
	 NULL},
	{"intel-gt-error.log", "LXG142", W, "0000:00:02.0",
	 "where=i915|message=GT0: INTR_IDENTITY_REG0:1 0x00000000 not valid!", NULL},
	{"intel-gt-error.log", "LXG142", W, "0000:03:00.0", "where=xe|message=Tile0: GT0: Failed to apply, err=-ETIMEDOUT",
	 NULL},
	/* new forms of the rows above */
	{"xe-guc-ct-broken.log", "LXG142", W, "0000:03:00.0", "what=G2H channel broken on read|times=2", NULL},
	{"i915-guc-ct-stalled.log", "LXG142", W, "0000:00:02.0", "what=Communication stalled for|times=2", NULL},
	{"intel-huc-gsc-auth.log", "LXG141", W, "0000:03:00.0", "what=auth failed with GSC error", NULL},
	{"intel-huc-init-failed-xe.log", "LXG141", W, "0000:00:02.0", "what=initialization failed|driver=xe", NULL},
	/* 6.2-6.3: drm_info without "HuC: ", a kernel lacking the ME's GSC/PXP drivers */
	{"intel-huc-init-failed-mei.log", "LXG141", W, "0000:c3:00.0", "what=Can't load HuC due to missing MEI modules|driver=i915", NULL},
	{"xe-uc-early-init-failed.log", "LXG141", E, "0000:03:00.0", "ret=-ENOENT", "-"},
	{"intel-uc-version-mismatch-xe.log", "LXG140", W, "0000:03:00.0",
	 "file=xe/bmg_guc_70.bin|found=70.29.2|wanted=70.44.1", NULL},
	{"xe-forcewake-mmio.log", "LXG142", E, "0000:03:00.0",
	 "domain=0|message=Force wake domain 0: wake. MMIO unreliable (forcewake register returns 0xFFFFFFFF)",
	 NULL},
	{"intel-mmio-lost.log", "LXG142", E, "0000:00:02.0",
	 "message=Lost access to MMIO BAR; all registers now read back as 0xFFFFFFFF", NULL},
	{"intel-guc-load-status.log", "LXG141", E, "0000:00:02.0", "status=0x800007EC|times=1", "-"},
	{"intel-guc-load-failed-old.log", "LXG141", E, "0000:00:02.0", "status=0x80007134|times=1", "-"},
	{"intel-guc-load-status-alone.log", "LXG141", E, "0000:03:00.0", "what=load failed: status: Reset = |times=1",
	 "-"},
	{"xe-check-job-timeout.log", "LXG142", W, "0000:03:00.0", NULL, NULL},
	{"xe-engine-reset-old.log", "LXG142", W, "0000:03:00.0", "times=1", NULL},
	/* the 4.x kernels' GuC and HuC lines, no address: the log's only i915 GPU */
	{"i915-guc-load-failed-old.log", "LXG141", E, "0000:00:02.0",
	 "what=GuC firmware signature verification failed|times=2", NULL},
	/* 4.2-4.9: "failed to fetch GuC firmware from" and "failed to initialize GuC, error -5
	 * (ignored)", no i915 line with the address: no GPU named */
	{"i915-guc-fetch-failed-4x.log", "LXG140", W, "0000:00:02.0", "file=i915/skl_dmc_ver4.bin|uc=GuC|error=-2", NULL},
	{"i915-guc-fetch-failed-4x.log", "LXG141", E, "0000:00:02.0", "what=failed to initialize GuC, error -5", NULL},
	{"i915-guc-fetch-failed-4x.log", "LXG140", W, "0000:00:02.0", "file=i915/skl_dmc_ver1.bin|error=0", NULL},
	{"i915-uc-fetch-failed-old.log", "LXG140", W, "0000:00:02.0", "file=i915/kbl_huc_ver02_00_1810.bin|times=1",
	 NULL},
	{"i915-uc-fetch-failed-old-alone.log", "LXG140", W, "0000:00:02.0",
	 "file=i915/kbl_huc_ver02_00_1810.bin|uc=HuC|error=-2", NULL},
	{"i915-uc-version-old.log", "LXG140", W, "0000:00:02.0", "uc=GuC|found=9.14|wanted=9.39", NULL},
	/* a GPU no Intel driver takes */
	{"intel-not-supported.log", "LXG157", E, "0000:03:00.0", "device=4908|driver=i915", NULL},
	{"intel-not-supported-xe.log", "LXG157", E, "0000:03:00.0", "device=e20b|driver=xe", NULL},
	{"intel-probe-blocked.log", "LXG157", E, "0000:03:00.0", "device=56a0|driver=i915", NULL},
	/* oopses and WARNs of GPU drivers: the faulting instruction's module
	 * (6.18's "Oops: Oops:", 4.x's "IP:"), the WARN's [module] or, i915
	 * built in, its path; the GPU of drm_WARN's own message */
	/* AMD and Intel driver modules the kernel refuses (LXG116 widened):
	 * the GPU is the AMD or Intel display device the log shows enumerated
	 * and no driver took */
	{"gpu-module-unknown-symbol.log", "LXG116", E, NULL, "module=amdgpu|times=3", NULL},
	{"gpu-module-unknown-symbol-i915.log", "LXG116", E, NULL,
	 "module=i915|symbol=backport_drm_dp_dsc_sink_max_slice_throughput|times=4", NULL},
	{"gpu-module-vermagic.log", "LXG116", E, "0000:03:00.0",
	 "module=amdgpu|built_for=6.8.12-4-pve SMP preempt mod_unload modversions ", NULL},
	{"gpu-module-symbol-version.log", "LXG116", E, "0000:00:02.0", "module=i915|symbol=drm_dp_dpcd_read|times=2",
	 NULL},
	/* PCIe AER on a GPU: the device the port names or the device's own
	 * lines; a port naming itself is no GPU; corrected errors only when
	 * they repeat (clean-aer-corrected.log: three reports, quiet) */
	{"aer-gpu-no-recovery.log", "LXG152", E, "0000:03:00.0", "driver=nvidia|times=2", NULL},
	{"aer-no-aer-driver.log", "LXG152", E, "0000:06:00.0", "driver=amdgpu|times=1", NULL},
	{"aer-uncorrected.log", "LXG152", E, "0000:01:00.0", "kind=Non-Fatal|times=1", NULL},
	/* filled from the AER and DPC format strings: a requester ID decoded */
	{"aer-received-uncorrected-4x.log", "LXG152", E, "0000:03:00.0", "kind=Non-Fatal|requester_id=0300", NULL},
	{"aer-recovery-failed.log", "LXG152", E, "0000:01:00.0", "port=0000:00:01.1|what=subordinate device reset failed", NULL},
	{"aer-corrected-port-storm.log", "LXG152", W, "0000:01:00.0", "port=0000:00:01.1|times=12", NULL},
	{"aer-uncorrected-port.log", "LXG152", E, "0000:01:00.0", "kind=Fatal|port=0000:00:01.1", NULL},
	/* core15: the GPU's own AER line, no bridge line in the excerpt */
	{"aer-uncorrected-self.log", "LXG152", E, "0000:01:00.0", "kind=Fatal|driver=nvidia", NULL},
	{"dpc-containment.log", "LXG152", E, "0000:03:00.0", "requester_id=0x0300", NULL},
	{"dpc-containment-6x.log", "LXG152", E, "0000:41:00.0", "reason=ERR_FATAL", NULL},
	{"dpc-containment-uncor.log", "LXG152", E, "0000:01:00.0", "port=0000:00:01.1|reason=unmasked uncorrectable error", NULL},
	/* filled from pciehp's format strings: the GPU below the port */
	{"pciehp-link-down.log", "LXG179", E, "0000:07:00.0", "port=0000:00:07.0|slot=3|times=2", NULL},
	{"pciehp-link-down-4x.log", "LXG179", E, "0000:06:00.0", "port=0000:00:1c.4|slot=8|what=Link Down", NULL},
	/* core15: filled from the format strings (tests/doctor/kmsg/README.md) */
	{"pciehp-cannot-train.log", "LXG179", E, "0000:07:00.0", "port=0000:00:07.0|slot=3|what=Cannot train link", NULL},
	{"pciehp-link-training-4x.log", "LXG179", E, "0000:06:00.0", "port=0000:00:1c.4|what=link training error", NULL},
	{"pci-sriov-no-space.log", "LXG104", E, "0000:03:00.0", "driver=amdgpu|what=not enough MMIO resources for SR-IOV", NULL},
	{"arm-smmu-fault.log", "LXG113", E, "0009:01:00.0", "event=F_TRANSLATION", NULL},
	{"swiotlb-full.log", "LXG191", E, "0000:03:00.0", "driver=amdgpu|size=2097152", NULL},
	{"dmar-invalidation-timeout.log", "LXG113", E, "0000:53:00.0", "requester_id=5300", NULL},
	{"swiotlb-full-old.log", "LXG191", E, "0000:01:00.0", "size=65536", NULL},
	{"aer-corrected-repeated.log", "LXG152", W, "0000:03:00.0", "times=12", NULL},
	{"aer-received-alone.log", "LXG152", E, "0000:01:00.0", "kind=Fatal|times=1", NULL},
	{"aer-corrected-port-only.log", "LXG152", W, "0000:01:00.0", "times=10", NULL},
	/* firmware-first: the kernel's decodes of the firmware's corrected records,
	 * eleven of the GPU's (its audio function's not counted) */
	{"ghes-aer-corrected-flood.log", "LXG152", W, "0000:01:00.0", "times=11", NULL},
	/* NVIDIA: the power cables (the cause of the init failure after it),
	 * an init failure whose address the poster elided, the reset-required
	 * assertion named for the log's only NVIDIA GPU */
	{"insufficient-power.log", "LXG158", E, "0000:01:00.0", NULL, NULL},
	{"insufficient-power.log", "LXG106", E, "0000:01:00.0", "error=NV_ERR_INSUFFICIENT_POWER", "LXG158"},
	{"rm-init-elided.log", "LXG106", E, NULL, "logged_gpu=XXXX:XX:XX.X|status=0x62:0x65:1792", "-"},
	{"reset-required-sole.log", "LXG118", E, "0000:41:00.0", NULL, NULL},
	/* NVIDIA, nvrules: a GPU unbound while held open (nv-pci.c's remove
	 * path), its address in the line or, before 515.65, only a minor */
	{"remove-in-use.log", "LXG177", E, "0000:01:00.0", NULL, NULL},
	{"remove-in-use-minor.log", "LXG177", E, "0000:01:00.0", "minor=0", NULL},
	{"unbind-locked-open.log", "LXG177", E, "0000:41:00.0", NULL, NULL},
	/* the crash dump osHandleGpuLost() makes: alone, the log's only NVIDIA
	 * GPU fell off the bus; after "GPU has fallen off the bus" of that GPU,
	 * one finding (the crash dump's catch-all row gives way) */
	{"gpu-crash-dump.log", "LXG109", E, "0000:0b:00.0", NULL, NULL},
	{"gpu-crash-dump-fallen.log", "LXG109", E, "0000:0b:00.0", "times=2", NULL},
	/* no interrupt when the GPU is opened (nv.c nv_start_device) */
	{"irq-request-failed.log", "LXG106", E, "0000:01:00.0", "error=-16", NULL},
	{"irq-request-none.log", "LXG106", E, "0000:05:00.0", NULL, NULL},
	/* resizable BAR: the old BAR1 not given back, the probe fails (the
	 * log's only NVIDIA GPU); the probe failure names it as its cause */
	{"bar-resize-fatal.log", "LXG105", E, "0000:2d:00.0", "times=2", NULL},
	{"bar-resize-fatal.log", "LXG106", E, "0000:2d:00.0", "error=-1", "LXG105"},
	/* the GPU's GFW boot did not finish: the cause of the init failure */
	{"gfw-boot-timeout.log", "LXG108", E, "0000:01:00.0", NULL, NULL},
	{"gfw-boot-timeout.log", "LXG106", E, "0000:01:00.0", "status=0x62:0x55:2969|minor=0", "LXG108"},
	/* nvlongtail: the GSP boot's own steps, the cause of the init failure
	 * (filled from kernel_gsp_tu102.c and kern_fsp_gh100.c: no public thread
	 * found by their wording) */
	{"gsp-boot-step-failed.log", "LXG108", E, "0000:01:00.0", "step=failed to execute Booter Load", NULL},
	{"gsp-boot-step-failed.log", "LXG106", E, "0000:01:00.0", "status=0x62:0x55:2004|minor=0", "LXG108"},
	{"gsp-boot-step-fsp.log", "LXG108", E, "0000:41:00.0", "step=FSP boot cmds failed", NULL},
	{"gsp-boot-step-fsp.log", "LXG106", E, "0000:41:00.0", "status=0x62:0x65:2004", "LXG108"},
	/* the RM's error lines no row names, by the family of the function that
	 * printed them; a Markdown quote's "> ", a GPU named without its function */
	{"nvrm-gsp-family.log", "LXG108", E, "0000:41:00.0", "function=kbifPreOsGlobalErotGrantRequest_AD102", NULL},
	{"nvrm-fsp-short-gpu.log", "LXG108", E, "0000:41:00.0", "function=kfspPollForQueueEmpty_IMPL", NULL},
	{"nvrm-init-family.log", "LXG106", E, "0000:01:00.0",
	 "function=gpuStateLoad_IMPL|message=Error initializing SRIOV: 0x40", NULL},
	{"nvrm-nvlink-family.log", "LXG117", E, "0000:41:00.0", "function=_knvlinkActivateDiscoveredConns", NULL},
	{"nvrm-pm-family.log", "LXG174", W, "0000:01:00.0", "function=RmPowerManagement", NULL},
	/* the families' other functions (filled): GSP's booter, BAR2 set-up at
	 * init, 570's RmGcxPowerManagement() for RmPowerManagement() */
	{"nvrm-gsp-booter.log", "LXG108", E, "0000:01:00.0",
	 "function=s_executeBooterUcode_TU102|message=failed to execute Booter: status 0x3, mailbox 0xbadf4100", NULL},
	{"nvrm-init-bar2.log", "LXG106", E, "0000:01:00.0",
	 "function=kbusBindBar2_GM107|message=timed out waiting for bar2 binding to complete", NULL},
	{"nvrm-pm-gcx.log", "LXG174", W, "0000:01:00.0", "function=RmGcxPowerManagement", NULL},
	/* GSP stopped answering at run time (595's classification; filled),
	 * with the Xid 119 it comes with */
	{"gsp-unresponsive.log", "LXG108", E, "0000:01:00.0", "what=GSP-RM", NULL},
	{"gsp-unresponsive.log", "LXG110", E, "0000:01:00.0", "xid=119", NULL},
	/* the RM says the GPU needs a reset, or the host a reboot (filled:
	 * kernel_gsp.c's rate limit with its address, the PMU halt and
	 * nv_gpu_ops.c's uvm fatal error naming no GPU: the log's only one) */
	{"gsp-rpc-rate-limited.log", "LXG118", E, "0000:01:00.0", NULL, NULL},
	{"gsp-pmu-halted.log", "LXG118", E, "0000:01:00.0", NULL, NULL},
	/* a line naming no GPU is the GPU of the log's only Xid address */
	{"gsp-pmu-halted-xid.log", "LXG118", E, "0000:41:00.0", NULL, NULL},
	{"gsp-pmu-halted-xid.log", "LXG110", E, "0000:41:00.0", "xid=62", NULL},
	{"uvm-fatal-error.log", "LXG118", E, "0000:09:00.0", "status=0x60", NULL},
	/* the VBIOS could not be read: the init failure's own story (Bumblebee#204) */
	{"vbios-copy-failed.log", "LXG106", E, NULL, NULL, NULL},
	/* nvidia-drm could not get the GPU from nvidia-modeset (open-gpu-kernel-modules#828) */
	{"nvidia-drm-no-device.log", "LXG106", E, "0000:01:00.0", "gpu_id=00000100|what=allocate NvKmsKapiDevice", NULL},
	/* the display engine stopped answering after a GPU failure
	 * (open-gpu-kernel-modules#1252, the unload after it); GPU:0 is the
	 * log's only NVIDIA GPU, 0000:03:00.0 by nvidia-drm's GPU ID of it */
	{"nvidia-modeset-gpu-progress.log", "LXG175", W, "0000:03:00.0",
	 "index=0|what=Failed to query display engine channel state|state=0x0000ca7e:0:0:0x00000062", NULL},
	/* nvidia-modeset and nvidia-drm of another version than the module
	 * under them (void-linux/void-packages#4473; the nvidia-drm form filled
	 * from nvidia-drm.c nv_drm_init()) */
	{"module-version-mismatch.log", "LXG100", E, NULL,
	 "client_version=390.87|module_version=410.73|client=nvidia-modeset.ko|module=nvidia.ko", NULL},
	{"module-version-mismatch-drm.log", "LXG100", E, "0000:2b:00.0",
	 "client_version=595.58.03|module_version=595.45.04|client=nvidia-drm.ko|module=nvidia-modeset.ko", NULL},
	{"gpu-driver-oops.log", "LXG151", E, NULL,
	 "module=nvidia|kind=NULL pointer dereference|function=nvidia_vma_access+0x1b/0x350|process=python3.14|times=1",
	 NULL},
	{"gpu-driver-oops-old.log", "LXG151", E, NULL,
	 "module=amdgpu|kind=NULL pointer dereference|function=amdgpu_bo_list_set+0x196/0x3d0|times=1", NULL},
	{"gpu-driver-warn.log", "LXG151", W, "0000:00:02.0",
	 "module=i915|kind=WARN|function=intel_pps_vdd_on_unlocked+0x32b/0x340", NULL},
	{"gpu-driver-warn-builtin.log", "LXG151", W, "0000:00:02.0", "module=i915|function=gen8_write32+0x1e7/0x240|process=clr_power",
	 NULL},
	{"gpu-driver-warn-nvidia.log", "LXG151", W, NULL, "module=nvidia|function=nv_restore_user_channels+0x4e/0x1d0",
	 NULL},
	/* a GPU driver's WARN or oops whose call trace runs through a suspend
	 * or resume callback: the driver warning (LXG151) and the failed power
	 * transition (LXG174), the innermost PM frame its callback; an oops an
	 * error. Traces filled in as the kernel prints them (__warn(),
	 * show_fault_oops(), dpm_run_callback() and the drivers' dev_pm_ops) */
	{"gpu-pm-callback-oops.log", "LXG151", W, "0000:03:00.0", "module=amdgpu|function=amdgpu_irq_put+0x9a/0xb0",
	 NULL},
	{"gpu-pm-callback-oops.log", "LXG174", W, "0000:03:00.0",
	 "step=suspend|callback=amdgpu_device_suspend+0xc4/0x190|module=amdgpu|kind=WARN", NULL},
	{"gpu-pm-callback-oops-resume.log", "LXG151", E, "0000:01:00.0", "module=nvidia|kind=NULL pointer dereference",
	 NULL},
	{"gpu-pm-callback-oops-resume.log", "LXG174", E, "0000:01:00.0",
	 "step=resume|callback=nvidia_resume.constprop.0+0x5f/0xc0|module=nvidia|kind=NULL pointer dereference", NULL},
	{"gpu-pm-callback-oops-runtime.log", "LXG174", W, "0000:00:02.0",
	 "step=runtime resume|callback=intel_runtime_resume+0x118/0x2b0|module=i915", NULL},
	/* a WARN in an interrupt that stopped a resume (its PM frames past
	 * "</IRQ>"), one in an ioctl with an unsure "? pci_pm_runtime_resume":
	 * driver warnings only (test_pm_oops_outside_pm) */
	{"gpu-pm-callback-oops-not-pm.log", "LXG151", W, "0000:03:00.0", "module=amdgpu|times=2", NULL},
	/* a 2025 kernel's WARN in nvidia's own suspend (nv_suspend_devices, from
	 * its PM notifier): the function is the callback */
	{"gpu-pm-callback-oops-notifier.log", "LXG174", W, "0000:01:00.0",
	 "step=suspend|callback=nv_suspend_devices+0x2ec/0x4a0|module=nvidia", NULL},
	/* the RM's suspend entry point reporting that the GSP did not unload
	 * (filled in from the RM's format): the suspend failed, the GSP
	 * the step */
	{"nvrm-pm-gsp-unload.log", "LXG174", W, "0000:01:00.0", "function=gpuPowerManagementEnter", NULL},
	/* its second reading: the GSP that failed the step (row pm-gsp-step) */
	{"nvrm-pm-gsp-unload.log", "LXG108", E, "0000:01:00.0", "step=unload|when=suspend|status=0x65", NULL},
	/* amdgpu's IP-block lines inside a system sleep: the failed power
	 * transition (filled in from amdgpu_device.c's formats after the PM
	 * core's and ACPI's sleep lines); in a reset they are not
	 * (test_pm_oops_outside_pm) */
	{"amdgpu-pm-ip-resume-failed.log", "LXG174", E, "0000:0c:00.0", "block=smu|error=-62", NULL},
	/* amdgpu_device_resume() fails only in a power transition: no sleep line needed */
	{"amdgpu-device-resume-failed.log", "LXG174", E, "0000:05:00.0", "error=-110", NULL},
	{"amdgpu-pm-ip-suspend-failed.log", "LXG174", W, "0000:03:00.0", "block=gfx_v10_0|error=-110", NULL},
	/* a task blocked in the GPU driver (hung_task.c): a warning, the driver
	 * the first sure frame past the scheduler's (amdkcl: the DKMS amdgpu) */
	{"oops-hung-task-amdgpu.log", "LXG151", W, NULL, "kind=hung task|module=amdkcl|process=python", NULL},
	/* its trace waits on the GPU's fences: the GPU hung too (LXG142) */
	{"oops-hung-task-amdgpu.log", "LXG142", W, NULL,
	 "context=wait for the GPU|frame=kcl_fence_default_wait+0x1ca/0x260|module=amdkcl", NULL},
	/* Crash reports whole or cut, each filled in from the kernel's printers
	 * (arch/x86/mm/fault.c show_fault_oops(), dumpstack.c __die() and
	 * show_trace_log_lvl(), lib/dump_stack.c, kernel/workqueue.c
	 * print_worker_info(), kernel/rcu/tree_stall.h, kernel/watchdog.c,
	 * kernel/hung_task.c, arch/arm64/kernel/process.c __show_regs()) and
	 * the drivers' function names of 6.x: an oops cut right after its
	 * header, after a GPU driver's own message (that driver's, the GPU its
	 * nearest line's) */
	{"oops-cut-after-header-amdgpu.log", "LXG151", E, "0000:03:00.0",
	 "module=amdgpu|kind=NULL pointer dereference|process=kwin_wayland", NULL},
	{"oops-cut-after-drm-helper.log", "LXG151", E, "0000:00:02.0", "module=i915", NULL},
	/* a call trace without its header (the excerpt starts at it) */
	{"oops-trace-only-amdgpu.log", "LXG151", W, "0000:0c:00.0",
	 "module=amdgpu|kind=call trace|function=amdgpu_vm_bo_update+0x3b1/0xa70", NULL},
	/* a trace of unsure frames only, build IDs after the module (5.19+) */
	{"oops-unsure-frames-nvidia.log", "LXG151", E, "0000:01:00.0",
	 "module=nvidia|kind=page fault|function=memcpy_orig+0x31/0x140|process=python3", NULL},
	/* a fault in the GPU scheduler cut before its trace: the work item is
	 * drm_sched's timeout handler on amdgpu's reset workqueue (the
	 * driver, and a GPU reset: LXG142) */
	{"oops-workqueue-reset-amdgpu.log", "LXG151", E, "0000:03:00.0",
	 "module=amdgpu|function=drm_sched_increase_karma+0x41/0x160|process=kworker/u64:7", NULL},
	{"oops-workqueue-reset-amdgpu.log", "LXG142", E, "0000:03:00.0",
	 "context=GPU reset|frame=drm_sched_job_timedout|module=amdgpu", NULL},
	/* an RCU stall whose CPU spins in a kernel delay the driver called */
	{"oops-rcu-stall-amdgpu.log", "LXG151", W, "0000:0b:00.0",
	 "module=amdgpu|kind=RCU stall|function=delay_tsc+0x4c/0xa0|process=kworker/5:2", NULL},
	/* a hung task waiting for an i915 request: a driver warning and the
	 * GPU's hang */
	{"oops-hung-task-i915.log", "LXG151", W, "0000:00:02.0",
	 "module=i915|kind=hung task|function=i915_request_wait_timeout+0x1b4/0x3f0|process=ffmpeg", NULL},
	{"oops-hung-task-i915.log", "LXG142", W, "0000:00:02.0",
	 "context=wait for the GPU|frame=i915_request_wait_timeout+0x1b4/0x3f0|module=i915", NULL},
	/* an oops in the driver's probe: the GPU did not initialize (AMD:
	 * LXG141, NVIDIA: LXG106) */
	{"oops-probe-amdgpu.log", "LXG151", E, "0000:07:00.0", "module=amdgpu|function=amdgpu_device_ip_init+0x2d6/0x820", NULL},
	{"oops-probe-amdgpu.log", "LXG141", E, "0000:07:00.0",
	 "context=probe|frame=amdgpu_device_ip_init+0x2d6/0x820|module=amdgpu", NULL},
	{"oops-probe-nvidia.log", "LXG151", E, "0000:01:00.0", "module=nvidia|function=_nv013177rm+0x1c/0x30", NULL},
	/* a mail that quoted the header (its address wrapped by the poster)
	 * and three frames without the "Call Trace:" line, amid its own
	 * words: the first frame line starts the trace; the GPU the log's
	 * only amdgpu one (linux-libre's missing gpu_info firmware) */
	/* nouveau built into the kernel: its frames have no module bracket */
	{"oops-builtin-nouveau.log", "LXG151", E, "0000:01:00.0", "module=nouveau|kind=NULL pointer dereference", NULL},
	{"oops-builtin-nouveau.log", "LXG111", E, "0000:01:00.0", NULL, NULL},
	/* a WARN in i915's probe that unwinds it (intel_modeset_cleanup under
	 * i915_driver_load): the probe failed, though the excerpt ends there */
	{"intel-probe-warn-unwinding.log", "LXG141", E, "0000:00:02.0", "kind=WARN", NULL},
	{"intel-probe-warn-unwinding.log", "LXG151", W, "0000:00:02.0", "module=i915", NULL},
	/* arm64's SError panic: a register read of amdgpu's probe answered
	 * with a bus error (no address in the report: no GPU named) */
	{"oops-probe-serror-arm64.log", "LXG141", E, NULL,
	 "kind=SError (a bus error on a device access)|function=amdgpu_device_rreg+0x60/0xe4", NULL},
	{"oops-probe-no-trace-marker-amdgpu.log", "LXG151", E, "0000:03:00.0",
	 "module=amdgpu|kind=NULL pointer dereference|function=amdgpu_pci_probe+0x100/0x180", NULL},
	{"oops-probe-no-trace-marker-amdgpu.log", "LXG141", E, "0000:03:00.0",
	 "context=probe|frame=amdgpu_pci_probe+0x100/0x180|module=amdgpu", NULL},
	{"oops-probe-no-trace-marker-amdgpu.log", "LXG140", W, "0000:03:00.0", NULL, NULL},
	{"oops-probe-nvidia.log", "LXG106", E, "0000:01:00.0",
	 "context=probe|frame=nv_pci_probe+0x2a2/0xa70|module=nvidia", NULL},
	/* arm64: a kernel memcpy that faulted, the driver its caller ("lr :") */
	{"oops-arm64-lr-amdgpu.log", "LXG151", E, "0000:01:00.0",
	 "module=amdgpu|kind=paging request|function=__memcpy+0x110/0x230|process=ollama", NULL},
	/* arm64's fault on a write to read-only memory, the post cut to the
	 * call trace: gpu_sched's frame is a helper's, amdgpu's the next */
	{"oops-arm64-read-only-amdgpu.log", "LXG151", E, NULL,
	 "module=amdgpu|kind=write to read-only memory|function=amdgpu_fence_driver_sw_fini+0x154/0x19c", NULL},
	/* a WARN cut before its call trace, inside the system sleep the log
	 * shows (after ACPI's "Waking up from system sleep state"): a failed
	 * resume too (LXG174) */
	{"oops-cut-in-resume-amdgpu.log", "LXG151", W, "0000:03:00.0",
	 "module=amdgpu|kind=WARN|function=smu_cmn_send_smc_msg_with_param+0x3a5/0x3f0", NULL},
	{"oops-cut-in-resume-amdgpu.log", "LXG174", W, "0000:03:00.0", "step=resume|module=amdgpu|kind=WARN", NULL},
	/* a soft lockup in a kernel spinlock, cut at RIP: the CPU's task is
	 * nvidia's interrupt thread */
	{"oops-soft-lockup-kthread-nvidia.log", "LXG151", W, "0000:01:00.0",
	 "module=nvidia|kind=soft lockup|process=irq/130-nvidia", NULL},
	/* a card whose memory or bus is gone at init: the reason, then the
	 * driver giving the GPU up (one finding, or the hang as its cause) */
	{"intel-lmem-not-initialized.log", "LXG141", E, "0000:01:00.0", "memory=LMEM|times=2", NULL},
	{"intel-non-operational.log", "LXG142", E, "0000:01:00.0",
	 "message=Device is non-operational; MMIO access returns 0xFFFFFFFF", NULL},
	{"intel-non-operational.log", "LXG141", E, "0000:01:00.0", "error=-5", "LXG142"},
	{"intel-region-setup-failed.log", "LXG141", E, "0000:03:00.0", "error=-22|type=1|times=2", NULL},
	{"xe-gt-init-job-failed.log", "LXG141", E, "0000:00:04.0", "engine=rcs0|step=emit_wa_job|error=-ETIME|times=3",
	 NULL},
	{"xe-gt-init-job-failed.log", "LXG142", W, "0000:00:04.0", "what=Kernel-submitted job timed out", NULL},
	{"intel-sriov-enable-failed.log", "LXG141", W, "0000:00:02.0", "count=7|error=-EIO", NULL},
	{"i915-reset-failed-old.log", "LXG142", E, "0000:00:02.0", NULL, NULL},
	{"intel-tlb-timeout.log", "LXG142", W, "0000:30:00.0", "what=tlb invalidation response timed out|times=2", NULL},
};

/* The value a field of the expectation names, as the match has it. */
static const char *actual(const struct lx_kmsg_match *m, const char *name, char *buf, size_t len)
{
	if (strcmp(name, "mnemonic") == 0)
		return m->xid ? m->xid->mnemonic : "";
	if (strcmp(name, "bucket") == 0)
		return m->xid ? m->xid->bucket : "";
	if (strcmp(name, "times") == 0) {
		snprintf(buf, len, "%zu", m->count);
		return buf;
	}
	return lx_kmsg_match_field(m, name);
}

static bool fields_match(const struct lx_kmsg_match *m, const char *fields, bool say)
{
	if (!fields)
		return true;
	bool all = true;
	_cleanup_free_ char *copy = lx_xstrdup(fields);
	char *save = NULL;
	for (char *t = strtok_r(copy, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
		char *eq = strchr(t, '=');
		if (!eq)
			continue;
		*eq = '\0';
		char buf[32];
		const char *got = actual(m, t, buf, sizeof(buf));
		if (!got || strcmp(got, eq + 1) != 0) {
			if (say)
				printf("#   field %s: '%s', want '%s'\n", t, got ? got : "(none)", eq + 1);
			all = false;
		}
	}
	return all;
}

static void test_expectations(void)
{
	for (size_t x = 0; x < sizeof(expects) / sizeof(expects[0]); x++) {
		const struct expect *e = &expects[x];
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		if (!load(e->file, &k, &m))
			continue;
		/* the finding of that code about that GPU */
		const struct lx_kmsg_match *hit = NULL;
		for (size_t i = 0; i < m.n; i++)
			if (strcmp(code_of(&m.items[i]), e->code) == 0 && same_str(m.items[i].pci, e->gpu) &&
			    (!hit || fields_match(&m.items[i], e->fields, false)))
				hit = hit && fields_match(hit, e->fields, false) ? hit : &m.items[i];
		_cleanup_free_ char *what = lx_xasprintf("%s: %s about GPU %s", e->file, e->code,
							 e->gpu ? e->gpu : "(none)");
		if (!ok(hit != NULL, what)) {
			for (size_t i = 0; i < m.n; i++)
				printf("#   got %s (%s) GPU %s\n", code_of(&m.items[i]), m.items[i].entry->id,
				       m.items[i].pci ? m.items[i].pci : "(none)");
		} else {
			_cleanup_free_ char *sev = lx_xasprintf("%s: %s is %s", e->file, e->code,
								lx_severity_name(e->severity));
			if (!ok(hit->severity == e->severity, sev))
				printf("#   got %s\n", lx_severity_name(hit->severity));
			_cleanup_free_ char *fw = lx_xasprintf("%s: %s says %s", e->file, e->code,
							       e->fields ? e->fields : "no fields");
			ok(fields_match(hit, e->fields, true), fw);
			if (e->cause) {
				const struct lx_kmsg_match *why = hit->cause ? &m.items[hit->cause - 1] : NULL;
				_cleanup_free_ char *cw = lx_xasprintf("%s: its cause is %s", e->file,
								       strcmp(e->cause, "-") == 0 ? "not in the log" : e->cause);
				if (strcmp(e->cause, "-") == 0)
					ok(why == NULL, cw);
				else if (!ok(why && strcmp(code_of(why), e->cause) == 0 && same_str(why->pci, hit->pci), cw))
					printf("#   got %s\n", why ? code_of(why) : "none");
			}
		}
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
}

/* The same answers at the report's level: doctor's finding for each log
 * (lx_doctor_host, what the command prints) has the code and the severity
 * written above, about that GPU; a severity doctor.c sets on its findings
 * is checked here, not only the catalogue's. */
static void test_report_severity(void)
{
	for (size_t x = 0; x < sizeof(expects) / sizeof(expects[0]); x++) {
		const struct expect *e = &expects[x];
		/* the log's GPU on nvidia (the rows of GPUs nvidia drives count) */
		struct lx_gpu g0 = {.bdf = (char *)e->gpu, .driver = (char *)"nvidia", .minor = 0};
		struct lx_host host = {0};
		if (e->gpu) {
			host.gpus = &g0;
			host.n_gpus = 1;
		}
		_cleanup_free_ char *path = lx_xasprintf("%s/%s", kmsg_dir, e->file);
		struct lx_kmsg k;
		struct lx_error err = {0};
		if (!ok(lx_kmsg_read_file(path, &k, &err) == 0, path)) {
			lx_error_clear(&err);
			continue;
		}
		struct lx_doctor_input in = {&host, NULL, &k, NULL, NULL, 0};
		struct lx_findings f = {0};
		_cleanup_free_ char *gpu = e->gpu ? lx_xasprintf("GPU %s", e->gpu) : NULL;
		bool coded = false, right = false;
		if (lx_doctor_host(&in, &f, &err) == 0)
			for (size_t i = 0; i < f.n; i++) {
				const struct lx_finding *g = &f.items[i];
				if (strcmp(lx_finding_info(g->code)->code, e->code) != 0 ||
				    (gpu && !strstr(g->message, gpu)))
					continue;
				coded = true;
				right |= g->severity == e->severity;
			}
		_cleanup_free_ char *what = lx_xasprintf("%s: doctor reports %s%s%s as %s", e->file, e->code,
							 gpu ? " about " : "", gpu ? gpu : "",
							 lx_severity_name(e->severity));
		if (!ok(coded && right, what)) {
			if (err.message)
				printf("#   %s\n", err.message);
			for (size_t i = 0; i < f.n; i++)
				printf("#   got %s %s: %.80s\n", lx_finding_info(f.items[i].code)->code,
				       lx_severity_name(f.items[i].severity), f.items[i].message);
		}
		lx_error_clear(&err);
		lx_findings_free(&f);
		lx_kmsg_free(&k);
	}
}

/* The kernel's line inside a shipper's record or a reader's rewriting:
 * one finding of the line's own code and fields, as the plain line gives. */
static void one_finding(const char *text, const char *code, const char *gpu, const char *fields,
			const char *what)
{
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	parse(text, &k);
	size_t n = count_matches(&k, NULL, &m);
	bool right = n == 1 && strcmp(code_of(&m.items[0]), code) == 0 && same_str(m.items[0].pci, gpu) &&
		     fields_match(&m.items[0], fields, true);
	if (!ok(right, what))
		for (size_t i = 0; n != (size_t)-1 && i < m.n; i++)
			printf("#   got %s GPU %s\n", code_of(&m.items[i]), m.items[i].pci ? m.items[i].pci : "(none)");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* text gives no finding; the test is named by its first line */
static void no_finding(const char *text)
{
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	parse(text, &k);
	size_t n = count_matches(&k, NULL, &m);
	_cleanup_free_ char *what = lx_xstrndup(text, strcspn(text, "\n"));
	if (!ok(n == 0, what))
		for (size_t j = 0; n != (size_t)-1 && j < m.n; j++)
			printf("#   got %s (%s)\n", code_of(&m.items[j]), m.items[j].entry->id);
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

static void test_wrapped_forms(void)
{
	/* the field ends at its closing quote: the Xid's text is the driver's
	 * alone; a record of another program gives nothing */
	one_finding("level=info msg=\"Started Jellyfin\" unit=jellyfin.service\n"
		    "ts=2026-12-05T10:00:07Z level=info job=systemd-journal msg=\"[82659.755847] NVRM: Xid "
		    "(PCI:0000:41:00): 13, Graphics Exception: ESR 0x5067b0=0x9\" host=pve1\n",
		    "LXG110", "0000:41:00.0", "xid=13|text=Graphics Exception: ESR 0x5067b0=0x9",
		    "logfmt msg=\"...\": the kernel line inside, up to its closing quote");
	one_finding("level=warn msg=\"NVRM: API mismatch: the client has the version 535.54.03, but\\nNVRM: this kernel "
		    "module has the version 530.30.02.  Please\\nNVRM: make sure that this kernel module and all NVIDIA "
		    "driver\" source=kmsg\n",
		    "LXG100", NULL, "client_version=535.54.03|module_version=530.30.02",
		    "logfmt msg=\"...\\n...\": one message over its escaped newlines");
	one_finding("{\"__REALTIME_TIMESTAMP\":\"1733392807000000\",\"_TRANSPORT\":\"kernel\",\"MESSAGE\":\"NVRM: Xid "
		    "(PCI:0000:2b:00): 79, GPU has fallen off the bus.\",\"SYSLOG_IDENTIFIER\":\"kernel\"}\n",
		    "LXG109", "0000:2b:00.0", "text=GPU has fallen off the bus.",
		    "journalctl -o json: the MESSAGE field, without the record's other fields");
	one_finding("{\"MESSAGE\":\"NVRM: Can\\u2019t find an IRQ for your NVIDIA card!\",\"PRIORITY\":\"3\"}\n",
		    "LXG106", NULL, NULL, "journalctl -o json: a \\u2019 apostrophe is the kernel's '");
	one_finding("[    5.120000] NVRM: Can\xe2\x80\x99t find an IRQ for your NVIDIA card!\n", "LXG106", NULL, NULL,
		    "a typographic apostrophe (U+2019) in a pasted line");
	/* a forum's markdown took DRM_ERROR's "*ERROR*" for emphasis
	 * (ubuntu-mate.community 15793: "[drm:evergreen_init [radeon]] ERROR
	 * Failed to load firmware!"); "ERROR" elsewhere is left as it is */
	one_finding("[ 0.780000] radeon 0000:01:00.0: VRAM: 1024M 0x0000000000000000 - 0x000000003FFFFFFF (1024M used)\n"
		    "[ 0.783163] [drm:evergreen_init [radeon]] ERROR Failed to load firmware!\n",
		    "LXG141", "0000:01:00.0", "where=evergreen_init|message=Failed to load firmware!",
		    "DRM_ERROR's stars lost to a forum's markdown");
	{
		struct lx_kmsg k;
		static const char md[] = "[ 1.0] [drm] ERROR x\n[ 1.1] usb 1-1: ERROR y] ERROR z\n";
		lx_kmsg_parse_text("md", md, sizeof(md) - 1, &k);
		ok(k.n == 2 && strcmp(k.lines[0].text, "[drm] *ERROR* x") == 0 &&
			   strcmp(k.lines[1].text, "usb 1-1: ERROR y] ERROR z") == 0,
		   "'[drm] ERROR' is DRM_ERROR's tag; another line's 'ERROR' stays");
		lx_kmsg_free(&k);
	}
	/* a paste's markdown quote marker or inline-code backtick before the
	 * stamp: the quoted line still names the GPU the unquoted lines
	 * about it leave out (kfsp's boot failure has no address) */
	one_finding("> [    4.211873] nvidia 0000:00:16.0: enabling device (0000 -> 0002)\n"
		    "[73750.262579] NVRM: kfspSendBootCommands_GH100: FSP boot cmds failed. RM cannot boot.\n",
		    "LXG108", "0000:00:16.0", "step=FSP boot cmds failed",
		    "a line quoted with '> ' names the GPU of the NVRM lines without an address");
	one_finding("> > `[  812.400211] NVRM: Xid (PCI:0000:65:00): 79, pid=1220, GPU has fallen off the bus.`\n",
		    "LXG109", "0000:65:00.0", NULL, "nested quote markers and a backtick fused to the stamp");
}

/* Every way a kernel log is pasted: each form of one catalogue line gives
 * the finding its plain form gives (the forms from their own sources:
 * util-linux dmesg(1), systemd's journalctl(1) output modes and
 * systemd.journal-fields(7), rsyslog's templates and RFC 3164/5424, the
 * kernel's Documentation/ABI/testing/dev-kmsg, Docker's json-file driver,
 * the CRI log format of containerd/CRI-O). */
#define XID "NVRM: Xid (PCI:0000:65:00): 79, pid=1220, GPU has fallen off the bus."
#define XID_AT "[  812.400211] " XID
#define XID_FIELDS "text=pid=1220, GPU has fallen off the bus."

static void test_paste_forms(void)
{
	static const struct {
		const char *text, *what, *fields; /* fields: the Xid's text when not XID's */
	} forms[] = {
		{XID_AT "\n", "dmesg", NULL},
		{XID "\n", "dmesg -t, journalctl -o cat", NULL},
		{"[Mon Dec  7 05:58:31 2026] " XID "\n", "dmesg -T", NULL},
		{"[\xe4\xb8\x80 12\xe6\x9c\x88  7 05:58:31 2026] " XID "\n", "dmesg -T in a Chinese locale", NULL},
		{"[\xd0\x9f\xd0\xbd \xd0\xb4\xd0\xb5\xd0\xba  7 05:58:31 2026] " XID "\n",
		 "dmesg -T in a Russian locale", NULL},
		{"[Dec 7 05:58] " XID "\n", "dmesg -H", NULL},
		{"[  +0.000421] " XID "\n", "dmesg -H's delta", NULL},
		{"kern  :err   : [  812.400211] " XID "\n", "dmesg -x", NULL},
		{"<3>[  812.400211] " XID "\n", "dmesg -r", NULL},
		{"<3>" XID "\n", "dmesg -r -t", NULL},
		{"\x1b[32m[  812.400211] \x1b[0m\x1b[33mNVRM: \x1b[0m\x1b[1;31mXid (PCI:0000:65:00): 79, pid=1220, GPU has "
		 "fallen off the bus.\x1b[0m\n",
		 "dmesg --color=always", NULL},
		{"[32m[  812.400211] [0m[33mNVRM: [0m[1;31mXid (PCI:0000:65:00): 79, pid=1220, GPU has fallen off the "
		 "bus.[0m\n",
		 "terminal colour that lost its ESC", NULL},
		{"^[[32m[  812.400211] ^[[0m" XID "\n", "terminal colour as less and cat -v show it", NULL},
		{"Dec 07 05:58:31 pve kernel: " XID "\n", "journalctl -o short", NULL},
		{"Dec 07 05:58:31.123456 pve kernel: " XID "\n", "journalctl -o short-precise", NULL},
		{"2026-12-07T05:58:31+0000 pve kernel: " XID "\n", "journalctl -o short-iso", NULL},
		{"2026-12-07T05:58:31.123456+00:00 pve kernel: " XID "\n", "journalctl -o short-iso-precise", NULL},
		{"[  812.400211] pve kernel: " XID "\n", "journalctl -o short-monotonic", NULL},
		{"1796536711.123456 pve kernel: " XID "\n", "journalctl -o short-unix", NULL},
		{"Mon 2026-12-07 05:58:31 UTC pve kernel: " XID "\n", "journalctl -o short-full", NULL},
		{"Mon 2026-12-07 05:58:31.123456 UTC [s=8c2e;i=4f1;b=27d0;m=306d2a4b;t=5f3c;x=9a1e]\n"
		 "    _TRANSPORT=kernel\n    PRIORITY=3\n    SYSLOG_IDENTIFIER=kernel\n    MESSAGE=" XID "\n"
		 "    _KERNEL_DEVICE=+pci:0000:65:00.0\n    _KERNEL_SUBSYSTEM=pci\n    _HOSTNAME=pve\n",
		 "journalctl -o verbose", NULL},
		{"__CURSOR=s=8c2e;i=4f1\n__REALTIME_TIMESTAMP=1796536711123456\n_TRANSPORT=kernel\nPRIORITY=3\nMESSAGE=" XID
		 "\n_HOSTNAME=pve\n\n",
		 "journalctl -o export", NULL},
		{"{\n\t\"__CURSOR\" : \"s=8c2e;i=4f1\",\n\t\"_TRANSPORT\" : \"kernel\",\n\t\"PRIORITY\" : \"3\",\n"
		 "\t\"MESSAGE\" : \"" XID "\",\n\t\"_HOSTNAME\" : \"pve\"\n}\n",
		 "journalctl -o json-pretty", NULL},
		{"\x1e{\"_TRANSPORT\":\"kernel\",\"MESSAGE\":\"" XID "\"}\n", "journalctl -o json-seq", NULL},
		{"data: {\"_TRANSPORT\":\"kernel\",\"MESSAGE\":\"" XID "\"}\n\n", "journalctl -o json-sse", NULL},
		{"Dec  7 05:58:31 pve kernel: [  812.400211] " XID "\n", "kern.log (RFC 3164) with the kernel's stamp", NULL},
		{"Dec  7 05:58:31 pve kernel: " XID "\n", "kern.log without the kernel's stamp", NULL},
		{"2026-12-07T05:58:31.123456+00:00 pve kernel: [  812.400211] " XID "\n",
		 "rsyslog's high-precision time (RSYSLOG_FileFormat)", NULL},
		{"<3>1 2026-12-07T05:58:31.123456+00:00 pve kernel - - - " XID "\n", "RFC 5424", NULL},
		{"<3>1 2026-12-07T05:58:31.123456+00:00 pve kernel - - [timeQuality tzKnown=\"1\" isSynced=\"0\"] "
		 "\xef\xbb\xbf" XID "\n",
		 "RFC 5424 with structured data and the BOM", NULL},
		{"3,1234,812400211,-;" XID "\n SUBSYSTEM=pci\n DEVICE=+pci:0000:65:00.0\n", "/dev/kmsg with its fields", NULL},
		{"{\"log\":\"[  812.400211] " XID "\\n\",\"stream\":\"stdout\",\"time\":\"2026-12-07T05:58:31.1234Z\"}\n",
		 "Docker's json-file", NULL},
		{"2026-12-07T05:58:31.123456789Z stdout F [  812.400211] " XID "\n", "CRI (containerd, CRI-O)", NULL},
		{"2026-12-07T05:58:31.123456789Z [  812.400211] " XID "\n", "docker logs -t", NULL},
		{"dmesg-1  | [  812.400211] " XID "\n", "docker compose logs", NULL},
		{XID_AT "\r\n", "Windows line ends", NULL},
		{"[  811.000000] audit: type=1400 audit(1.2:3): apparmor=\"STATUS\"\r" XID_AT "\r", "old Mac line ends", NULL},
		{"[  812.400211]\tNVRM:\tXid (PCI:0000:65:00):\t79, pid=1220, GPU has fallen off the bus.\n", "tabs", NULL},
		{"[  812.400211]\xc2\xa0NVRM:\xc2\xa0Xid\xe2\x80\xaf(PCI:0000:65:00):\xe3\x80\x80" "79,\xe2\x80\x8b pid=1220, "
		 "GPU has fallen off the bus.\n",
		 "NBSP, other Unicode spaces, a zero-width space", NULL},
		{"&gt; &#91;  812.400211&#93; NVRM: Xid (PCI:0000:65:00): 79, pid=1220, GPU has fallen off the bus.\n",
		 "a web page's HTML entities", NULL},
		{"12 " XID_AT "\n", "a line number", NULL},
		{"12: " XID_AT "\n", "a line number and ':'", NULL},
		{"| " XID_AT " |\n", "a table's borders", NULL},
		{"> 7. `" XID_AT "`\n", "a quote marker, a line number, backticks", NULL},
		{"[  811.000000] audit: type=1400 audit(1.2:3): apparmor=\"STATUS\" operation=\"profile_load\"" XID_AT "\n",
		 "a lost newline", NULL},
		{"Dec  7 05:58:30 pve kernel: audit: type=1400 audit(1.2:3): apparmor=\"STATUS\"Dec  7 05:58:31 pve "
		 "kernel: " XID "\n",
		 "a lost newline in kern.log", NULL},
		{"2026-12-07T05:58:30+0000 pve kernel: audit: type=1400 audit(1.2:3): apparmor=\"STATUS\"2026-12-07T05:"
		 "58:31+0000 pve kernel: " XID "\n",
		 "a lost newline in journalctl -o short-iso", NULL},
		{"[Mon Dec  7 05:58:30 2026] audit: type=1400 audit(1.2:3): apparmor=\"STATUS\"[Mon Dec  7 05:58:31 2026] "
		 XID "\n",
		 "a lost newline in dmesg -T", NULL},
		{"[\xe4\xb8\x80 12\xe6\x9c\x88  7 05:58:30 2026] audit: type=1400 audit(1.2:3): apparmor=\"STATUS\" "
		 "[\xe4\xb8\x80 12\xe6\x9c\x88  7 05:58:31 2026] " XID "\n",
		 "a lost newline in a Chinese locale's dmesg -T (a page that joined the lines with blanks)", NULL},
		/* the Xid cut at 80 columns by a terminal (inside a word) and at
		 * 72 by a mail client (at a blank, which it drops) */
		{"[  811.000000] audit: type=1400 audit(1.2:3): apparmor=\"STATUS\" operation=\"profi\n"
		 "le_load\"\n"
		 "[  812.400211] NVRM: Xid (PCI:0000:65:00): 79, pid=122000, GPU has fallen off th\n"
		 "e bus.\n",
		 "lines wrapped by a terminal at 80 columns", "text=pid=122000, GPU has fallen off the bus."},
		{"[  812.400211] NVRM: Xid (PCI:0000:65:00): 79, pid=1220, GPU has fallen\n"
		 "off the bus.\n",
		 "lines wrapped by a mail client at 72 columns", NULL},
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		one_finding(forms[i].text, "LXG109", "0000:65:00.0", forms[i].fields ? forms[i].fields : XID_FIELDS,
			    forms[i].what);

	/* journalctl -o json's MESSAGE as a number array (bytes JSON cannot
	 * hold as a string) */
	struct lx_buf b = {0};
	lx_buf_puts(&b, "{\"_TRANSPORT\":\"kernel\",\"MESSAGE\":[");
	static const char xid[] = XID;
	for (size_t i = 0; xid[i]; i++)
		lx_buf_printf(&b, "%s%d", i ? "," : "", xid[i]);
	lx_buf_puts(&b, "]}\n");
	one_finding(b.data, "LXG109", "0000:65:00.0", XID_FIELDS,
		    "journalctl -o json: MESSAGE as a number array");
	lx_buf_free(&b);

	/* saved by Windows PowerShell's ">": UTF-16LE with its BOM, CRLF */
	lx_buf_free(&b);
	lx_buf_append(&b, "\xff\xfe", 2);
	for (const char *c = XID_AT "\r\n"; *c; c++) {
		lx_buf_append(&b, c, 1);
		lx_buf_append(&b, "", 1);
	}
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	lx_kmsg_parse_text("test", b.data, b.len, &k);
	size_t got = count_matches(&k, NULL, &m);
	ok(got == 1 && strcmp(code_of(&m.items[0]), "LXG109") == 0 && same_str(m.items[0].pci, "0000:65:00.0"),
	   "a log saved as UTF-16LE");
	if (got != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	lx_buf_free(&b);

	/* a log whose newlines were all lost: every message read (a long
	 * line is read a message at a time) */
	lx_buf_puts(&b, "");
	for (int i = 0; i < 200; i++)
		lx_buf_printf(&b, "[  811.%06d] usb 1-1: new high-speed USB device number %d using xhci_hcd", i, i);
	lx_buf_puts(&b, "Dec  7 05:58:31 pve kernel: [  812.400211] " XID);
	for (int i = 0; i < 200; i++)
		lx_buf_printf(&b, "[  813.%06d] usb 1-1: new high-speed USB device number %d using xhci_hcd", i, i);
	lx_buf_puts(&b, "\n");
	parse(b.data, &k);
	int_eq((long long)k.n, 401, "a long line of lost newlines: each message a line");
	str_eq(k.n == 401 ? k.lines[200].text : NULL, XID, "the kern.log message among them");
	lx_kmsg_free(&k);
	one_finding(b.data, "LXG109", "0000:65:00.0", XID_FIELDS, "a long line of lost newlines: the Xid found");
	lx_buf_free(&b);

	/* the wrap's rest is joined into its message, not read as its own;
	 * a line with a stamp of its own, an "NVRM: " line, a short line's
	 * next line, a shell prompt and a log with no stamps are never joined (no line here
	 * is wider than 72: a mail client's wrap) */
	parse("[  812.400211] NVRM: Xid (PCI:0000:65:00): 79, pid=1220, GPU has fallen\n"
	      "off the bus.\n"
	      "[  812.5] short\n"
	      "not a wrap\n"
	      "[  812.6] NVRM: The NVIDIA GTX 1050 GPU installed in this system is\n"
	      "NVRM:  supported through the NVIDIA 580.xx Legacy drivers.\n"
	      "[  812.7] nvidia 0000:65:00.0: a message long enough to be wrapped\n"
	      "root@pve:~# nvidia-smi\n",
	      &k);
	int_eq((long long)k.n, 7, "a wrap's rest is no line of its own; the others are");
	str_eq(k.n == 7 ? k.lines[0].text : NULL, XID, "the wrapped message whole");
	lx_kmsg_free(&k);
	parse("NVRM: Xid (PCI:0000:65:00): 79, pid=1220, GPU has fallen off the bus, and more words here\n"
	      "nvidia-smi: a line of its own\n",
	      &k);
	int_eq((long long)k.n, 2, "a log without stamps: no line is a wrap's rest");
	lx_kmsg_free(&k);
}

/* nvidia's lines pasted without their "NVRM: " prefix (a grep for the
 * words after it, a copy from the middle of the line): the same message,
 * by the same rows and fields; the words after a prefix other drivers
 * print too, or nvidia's words after another prefix, stay no finding.
 * Each line is the driver's format string filled in (the rows' sources). */
static void test_nvrm_prefix_cut(void)
{
	one_finding("[  812.400211] Xid (PCI:0000:65:00): 79, pid=1220, GPU has fallen off the bus.\n", "LXG109",
		    "0000:65:00.0", XID_FIELDS, "an Xid without 'NVRM: '");
	one_finding("Xid (PCI:0000:41:00): 13, pid=3391, name=python3, Graphics Exception: ESR 0x5067b0=0x9\n",
		    "LXG110", "0000:41:00.0", "xid=13", "an Xid without 'NVRM: ' or its stamp (dmesg -t | grep Xid)");
	one_finding("[   31.118431] API mismatch: the client 'nvidia-smi' (pid 2205) has the version 550.90.07, but "
		    "this kernel module has the version 550.54.14.  Please make sure that this kernel module and all "
		    "NVIDIA driver components have the same version.\n",
		    "LXG100", NULL, "client_version=550.90.07|module_version=550.54.14|client=nvidia-smi|pid=2205",
		    "the API mismatch without 'NVRM: ': its fields");
	one_finding("[    4.501233] GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:897)\n"
		    "[    4.501300] GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n"
		    "[    4.502000] nvidia 0000:01:00.0: kfspSendBootCommands_GH100: FSP boot cmds failed\n",
		    "LXG106", "0000:01:00.0", NULL, "RmInitAdapter without 'NVRM: '");
	one_finding("[    9.1] GPU 0000:41:00.0: kgspBootstrap_GH100: GSP-FMC reported an error while attempting "
		    "to boot GSP: 0x1\n",
		    "LXG108", "0000:41:00.0", NULL, "an RM function's failure without 'NVRM: '");
	/* a later record of a message, or an old driver's form, on its own */
	one_finding("[    4.501233] BAR1 is 0M @ 0x0 (PCI:0000:01:00.0)\n", "LXG104", "0000:01:00.0",
		    "bar=1|bar_size=0|bar_address=0", "the invalid region's BAR record without 'NVRM: '");
	one_finding("[   14.799939] rm_init_adapter(0) failed\n", "LXG106", NULL, "minor=0",
		    "an old driver's rm_init_adapter(%d) without 'NVRM: '");
	static const char *const quiet[] = {
		/* nv_pci_probe()'s words are any driver's (nvrm-required) */
		"[    4.5] pci_enable_device failed, aborting\n",
		/* nvidia's words after another driver's prefix: not nvidia's line */
		"[    4.5] foo 0000:01:00.0: Xid (PCI:0000:01:00): 79, pid=1, GPU has fallen off the bus.\n",
		"[    4.5] snd_hda_intel 0000:01:00.1: No NVIDIA GPU found\n",
		"[    4.5] foo 0000:01:00.0: BAR1 is 0M @ 0x0 (PCI:0000:01:00.0)\n",
	};
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		no_finding(quiet[i]);
}

/* A line pasted without its trailing status (the errno, the NV_STATUS,
 * "with error -N"): the words before it still say what failed, so the
 * same row counts, the status unknown; the same words going on with
 * others are not that message. Each line is the format string filled in
 * and cut (the rows' sources). */
static void test_status_cut(void)
{
	static const struct {
		const char *text, *code, *gpu, *fields;
	} cut[] = {
		{"[    4.1] nvidia: probe of 0000:14:00.0 failed\n", "LXG106", "0000:14:00.0", NULL},
		{"[    4.1] nvidia 0000:14:00.0: probe with driver nvidia failed\n", "LXG106", "0000:14:00.0", NULL},
		{"[    4.1] amdgpu: probe of 0000:03:00.0 failed\n", "LXG141", "0000:03:00.0", NULL},
		{"[    4.1] amdgpu 0000:03:00.0: probe with driver amdgpu failed\n", "LXG141", "0000:03:00.0", NULL},
		{"[    4.1] i915: probe of 0000:00:02.0 failed\n", "LXG141", "0000:00:02.0", "driver=i915"},
		{"[   61.7] amdgpu 0000:07:00.0: PM: failed to resume async:\n", "LXG174", "0000:07:00.0", "driver=amdgpu"},
		{"[   61.7] amdgpu 0000:07:00.0: PM: failed to resume async\n", "LXG174", "0000:07:00.0", "driver=amdgpu"},
		{"[   61.7] nvidia 0000:01:00.0: PM: failed to suspend async:\n", "LXG174", "0000:01:00.0", "driver=nvidia"},
		{"[   61.7] nvidia 0000:01:00.0: PM: dpm_run_callback(): pci_pm_suspend+0x0/0x1b0 returns\n", "LXG174",
		 "0000:01:00.0", "driver=nvidia|callback=pci_pm_suspend"},
		{"[   61.7] nvidia 0000:01:00.0: PM: pci_pm_resume(): nv_pmops_resume+0x0/0x50 [nvidia] returns\n",
		 "LXG174", "0000:01:00.0", "driver=nvidia|callback=nv_pmops_resume"},
		{"[ 3605.2] NVRM: PM suspend notifier failed\n", "LXG174", NULL, "step=suspend"},
		{"[    3.6] i915 0000:00:02.0: Direct firmware load for i915/adlp_dmc.bin failed\n", "LXG140",
		 "0000:00:02.0", "file=i915/adlp_dmc.bin|driver=i915"},
		{"[   23.9] nvidia 0000:07:00.0: Direct firmware load for nvidia/570.144/gsp_ga10x.bin failed\n",
		 "LXG107", "0000:07:00.0", "version=570.144|file=gsp_ga10x.bin"},
		{"[    3.1] amdgpu 0000:03:00.0: amdgpu: Problem resizing BAR0\n", "LXG105", "0000:03:00.0",
		 "what=Problem resizing BAR0"},
		{"[   44.7] vfio-pci 0000:05:00.0: BAR 0: can't reserve\n", "LXG148", "0000:05:00.0", "bar=0"},
		{"[  659.7] radeon 0000:01:00.0: GPU lockup\n", "LXG142", "0000:01:00.0", "driver=radeon"},
		{"[   12.3] NVRM: GPU 0000:01:00.0: request_irq() failed\n", "LXG106", "0000:01:00.0", NULL},
		{"[    3.4] i915 0000:00:02.0: [drm] *ERROR* GT0: Enabling uc failed\n", "LXG141", "0000:00:02.0",
		 "driver=i915"},
		{"[   12.2] i915 0000:03:00.0: [drm] GuC firmware i915/dg2_guc_70.2.0.bin: fetch failed\n", "LXG140",
		 "0000:03:00.0", "uc=GuC|file=i915/dg2_guc_70.2.0.bin"},
		{"[    3.1] [drm:i915_firmware_load_error_print [i915]] *ERROR* failed to load firmware "
		 "i915/skl_dmc_ver1.bin\n",
		 "LXG140", "0000:00:02.0", "file=i915/skl_dmc_ver1.bin"},
		{"[  634.1] i915 0000:00:02.0: [drm] *ERROR* GT0: Failed to reset GuC\n", "LXG142", "0000:00:02.0",
		 "step=Failed to reset GuC"},
		/* a record of several lines without its stamp (dmesg --notime):
		 * its lines after the first unindented */
		{"NVRM: This is a 64-bit BAR mapped above 4GB by the system\nNVRM: BIOS or the Linux kernel, but the "
		 "PCI bridge\nNVRM: immediately upstream of this GPU does not define\nNVRM: a matching prefetchable "
		 "memory window.\n",
		 "LXG104", NULL, NULL},
		{"[    0.300000] pci 0000:01:00.0: [10de:2684] type 00 class 0x030000\n"
		 "[    0.612402] pci 0000:01:00.0: BAR 1: no space for\n",
		 "LXG104", "0000:01:00.0", "bar=1"},
		{"[    5.101048] amdgpu 0000:03:00.0: BAR 0: no space for\n", "LXG105", "0000:03:00.0",
		 "driver=amdgpu|bar=0"},
		{"[    9.424670] NVRM: API mismatch: the client 'kwin_wayland'\n"
		 "               NVRM: has the version 595.84, but this kernel module has\n"
		 "               NVRM: the version 595.80.  Please make sure that this\n",
		 "LXG100", NULL, "client=kwin_wayland|client_version=595.84|module_version=595.80"},
		/* the driver's closing '!' left out */
		{"GPU 0000:05:00.0: RmInitAdapter failed\n", "LXG106", "0000:05:00.0", NULL},
		{"[ 8812.4] amdgpu 0000:03:00.0: device lost from bus\n", "LXG109", "0000:03:00.0", NULL},
		{"amdgpu 0000:67:00.0: gpu post error\n", "LXG141", "0000:67:00.0", NULL},
		/* a record's continuation lines wrapped by a mail client at 80 */
		{"[Sun May 17 15:55:50 2026] NVRM: The NVIDIA NVIDIA GeForce GTX 1050 GPU\n"
		 "installed in this system is\n"
		 "                           NVRM:  supported through the NVIDIA 580.xx Legacy\n"
		 "drivers. Please\n"
		 "                           NVRM:  visit http://www.nvidia.com/object/unix.html\n"
		 "for more\n"
		 "                           NVRM:  information.  The 595.71.05 NVIDIA driver will\n"
		 "ignore\n"
		 "                           NVRM:  this GPU.  Continuing probe...\n",
		 "LXG103", NULL, "branch=580.xx|model=NVIDIA GeForce GTX 1050|driver_version=595.71.05"},
		/* a mail client's wrap at 80, a URL longer than that on its own line */
		{"[   64.593060] i915 0000:00:02.0: Failed to load DMC firmware\ni915/skl_dmc_ver1_27.bin. Disabling "
		 "runtime power management.\n[   64.593066] i915 0000:00:02.0: DMC firmware homepage:\n"
		 "https://git.kernel.org/pub/scm/linux/kernel/git/firmware/linux-firmware.git/tree/i915\n",
		 "LXG140", "0000:00:02.0", "file=i915/skl_dmc_ver1_27.bin"},
		/* a mail client's wrap at 80 before a long word leaves a short line */
		{"[ 6851.473414] amdgpu 0000:01:00.0: PM: device_prepare():\npci_pm_prepare+0x0/0x80 returns -12\n",
		 "LXG174", "0000:01:00.0", "callback=pci_pm_prepare|error=-12"},
		/* the PCI core's line cut right after "from" (a mail client's
		 * wrap that no width rule explains) */
		{"[ 6176.462281] nouveau 0000:01:00.0: can't change power state from\n", "LXG176", "0000:01:00.0",
		 "driver=nouveau"},
		/* a mail client that broke before a word that would have fit
		 * (its widest line 79): the "[" the line opens, the next closes */
		{"[    0.724589] pci 0000:06:00.0: [10de:20b2] type 00 class 0x030200\n"
		 "[    0.725343] pci 0000:06:00.0: Max Payload Size set to 128 (was 256, max 256)\n"
		 "[    1.421549] pci 0000:06:00.0: BAR 1: no space for [mem size\n0x2000000000 64bit pref]\n",
		 "LXG104", "0000:06:00.0", "bar=1|size=0x2000000000"},
		/* a message of several records, its first one alone (a grep for
		 * "API mismatch"): it names the failure and the client */
		{"[    9.4] NVRM: API mismatch: the client 'kwin_wayland' (pid 1005)\n", "LXG100", NULL,
		 "client=kwin_wayland|pid=1005"},
		{"[   12.0] NVRM: API mismatch: the client has the version 570.153.02, but\n", "LXG100", NULL,
		 "client_version=570.153.02"},
	};
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		_cleanup_free_ char *what = lx_xstrndup(cut[i].text, strcspn(cut[i].text, "\n"));
		one_finding(cut[i].text, cut[i].code, cut[i].gpu, cut[i].fields, what);
	}
	static const char *const quiet[] = {
		"[   61.7] nvidia 0000:01:00.0: PM: failed to suspend the display engine\n",
		"[    4.1] amdgpu: probe of 0000:03:00.0 failed to map a register\n",
	};
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		no_finding(quiet[i]);
}

/* A clean boot stays quiet in every form a paste gives it: wrapped by a
 * terminal at 80 columns, by a mail client at 72, with Windows line ends,
 * as a web page's HTML, with line numbers, coloured. */
static void test_paste_forms_clean(void)
{
	static const char *const clean[] = {"clean-this-machine.log", "clean-public.log", "clean-intel-amd.log",
					  "clean-oops-other-drivers.log"};
	for (size_t c = 0; c < sizeof(clean) / sizeof(clean[0]); c++) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s", kmsg_dir, clean[c]);
		char *text = NULL;
		size_t len = 0;
		struct lx_error err = {0};
		if (!ok(lx_read_file(path, 1u << 24, &text, &len, &err) == 0, path)) {
			lx_error_clear(&err);
			continue;
		}
		for (int form = 0; form < 5; form++) {
			struct lx_buf b = {0};
			unsigned lineno = 0;
			for (const char *p = text; *p;) {
				size_t n = strcspn(p, "\n");
				lineno++;
				if (form == 0) { /* a terminal at 80 columns */
					for (size_t at = 0; at < n || at == 0; at += 80) {
						lx_buf_append(&b, p + at, n - at < 80 ? n - at : 80);
						lx_buf_puts(&b, "\n");
					}
				} else if (form == 1) { /* a mail client at 72, at blanks */
					size_t at = 0;
					while (n - at > 72) {
						size_t cut = at + 72;
						while (cut > at && p[cut] != ' ')
							cut--;
						if (cut == at)
							cut = at + 72;
						lx_buf_append(&b, p + at, cut - at);
						lx_buf_puts(&b, "\n");
						at = cut + (p[cut] == ' ');
					}
					lx_buf_append(&b, p + at, n - at);
					lx_buf_puts(&b, "\n");
				} else if (form == 2) {
					lx_buf_append(&b, p, n);
					lx_buf_puts(&b, "\r\n");
				} else if (form == 3) { /* HTML, numbered */
					lx_buf_printf(&b, "%u: ", lineno);
					for (size_t i = 0; i < n; i++)
						lx_buf_puts(&b, p[i] == '<'   ? "&lt;"
								: p[i] == '>' ? "&gt;"
								: p[i] == '&' ? "&amp;"
								: p[i] == '"' ? "&quot;"
								: p[i] == '\'' ? "&#39;"
									       : (char[]){p[i], 0});
					lx_buf_puts(&b, "\n");
				} else { /* coloured */
					lx_buf_printf(&b, "\x1b[32m");
					lx_buf_append(&b, p, n);
					lx_buf_puts(&b, "\x1b[0m\n");
				}
				p += n + (p[n] == '\n');
			}
			struct lx_kmsg k;
			struct lx_kmsg_matches m;
			parse(b.data ? b.data : "", &k);
			size_t got = count_matches(&k, NULL, &m);
			static const char *const names[] = {"wrapped at 80", "wrapped at 72", "CRLF", "HTML, numbered",
							    "coloured"};
			_cleanup_free_ char *what = lx_xasprintf("%s %s: no row matches", clean[c], names[form]);
			if (!int_eq((long long)got, 0, what))
				for (size_t i = 0; got != (size_t)-1 && i < m.n; i++)
					printf("#   %s: %s\n", m.items[i].entry->id, k.lines[m.items[i].first].raw);
			if (got != (size_t)-1)
				lx_kmsg_matches_free(&m);
			lx_kmsg_free(&k);
			lx_buf_free(&b);
		}
		free(text);
	}
}

/* An old-form power-management callback line names its driver, not its
 * device: amdgpu's lone GPU is amdgpu's callback's, never nvidia's. */
/* The PCI core's messages are about any device: a network card's, a
 * bridge's, and a vfio-pci device the log never shows to be a GPU give
 * nothing (the kernel's enumeration line or a GPU driver's would); nor do
 * the firmware's record of a corrected error and vfio-pci's BAR restore
 * after a guest reset its GPU (working hosts print both). */
static void test_pci_core_not_gpu(void)
{
	static const char *const logs[] = {"clean-pci-nic-d3cold.log", "pci-power-inaccessible-vfio.log",
					   "clean-pciehp-dock.log", "clean-ghes-corrected.log",
					   "clean-vfio-nic-qemu-vga.log", "clean-vfio-bar-restore.log",
					   "clean-pci-sriov-nic.log"};
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		if (!load(logs[i], &k, &m))
			continue;
		_cleanup_free_ char *what = lx_xasprintf("%s: no finding (no GPU failure)", logs[i]);
		int_eq((long long)m.n, 0, what);
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
	one_finding("[    0.412000] pci 0000:01:00.0: [10de:2684] type 00 class 0x030000 PCIe Legacy Endpoint\n"
		    "[586739.359281] vfio-pci 0000:01:00.0: Unable to change power state from D3cold to D0, "
		    "device inaccessible\n",
		    "LXG176", "0000:01:00.0", "driver=vfio-pci|from=D3cold",
		    "vfio-pci's device the kernel enumerated as an NVIDIA display device: a GPU");
	/* lines only a VGA device gets, with no GPU driver bound: vgaarb's
	 * (5.x on, 4.x's "PCI:" form, vfio-pci's decodes change) and x86's
	 * shadowed video ROM */
	static const char *const vga[] = {
		"[    0.404247] pci 0000:0a:00.0: vgaarb: VGA device added: decodes=io+mem,owns=none,locks=none\n",
		"[    0.404247] vgaarb: device added: PCI:0000:0a:00.0,decodes=io+mem,owns=none,locks=none\n",
		("[   50.000000] vfio-pci 0000:0a:00.0: vgaarb: changed VGA decodes: "
		 "olddecodes=io+mem,decodes=io+mem:owns=none\n"),
		"[    0.404247] pci 0000:0a:00.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]\n"};
	for (size_t i = 0; i < sizeof(vga) / sizeof(vga[0]); i++) {
		_cleanup_free_ char *log = lx_xasprintf(
			"%s[  185.913481] vfio-pci 0000:0a:00.0: not ready 65535ms after FLR; giving up\n", vga[i]);
		one_finding(log, "LXG176", "0000:0a:00.0", "driver=vfio-pci|ms=65535|event=FLR", vga[i]);
	}
}

static void test_pm_callback_driver(void)
{
	one_finding("[  412.118904] amdgpu 0000:0b:00.0: amdgpu: SMU is resuming...\n"
		    "[  412.122604] PM: pci_pm_suspend(): nv_pmops_suspend+0x0/0x40 [nvidia] returns -5\n",
		    "LXG174", NULL, "driver=nvidia|callback=nv_pmops_suspend",
		    "nvidia's callback beside one AMD GPU: no GPU named, not the AMD one");
	/* the DRM core names no device: the log's only GPU, of any driver */
	one_finding("[    4.100000] i915 0000:00:02.0: [drm] Finished loading DMC firmware i915/adlp_dmc.bin (v2.20)\n"
		    "[  491.868816] [drm:drm_atomic_helper_commit_cleanup_done [drm_kms_helper]] *ERROR* "
		    "[CRTC:34:crtc-0] flip_done timed out\n",
		    "LXG175", "0000:00:02.0", "what=flip_done", "the DRM core's flip timeout: the log's one GPU (i915)");
	one_finding("[    4.100000] i915 0000:00:02.0: [drm] Finished loading DMC firmware i915/adlp_dmc.bin (v2.20)\n"
		    "[    5.200000] nvidia 0000:01:00.0: enabling device (0000 -> 0003)\n"
		    "[  491.868816] [drm:drm_atomic_helper_commit_cleanup_done [drm_kms_helper]] *ERROR* "
		    "[CRTC:34:crtc-0] flip_done timed out\n",
		    "LXG175", NULL, "what=flip_done", "the DRM core's flip timeout beside two GPUs: none named");
}

/* The last match of CODE among M's; NULL when none. */
static const struct lx_kmsg_match *last_of_code(const struct lx_kmsg_matches *m, const char *code)
{
	const struct lx_kmsg_match *hit = NULL;
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(code_of(&m->items[i]), code) == 0)
			hit = &m->items[i];
	return hit;
}

/* TEXT's matches, and its init failure (LXG141) and PSP finding (LXG145) */
static size_t amd_init_findings(const char *text, struct lx_kmsg *k, struct lx_kmsg_matches *m,
				const struct lx_kmsg_match **fail, const struct lx_kmsg_match **psp)
{
	parse(text, k);
	size_t n = count_matches(k, NULL, m);
	*fail = n == (size_t)-1 ? NULL : last_of_code(m, "LXG141");
	*psp = n == (size_t)-1 ? NULL : last_of_code(m, "LXG145");
	return n;
}

/* amdgpu's init failure names the PSP failure before it as its cause,
 * and the PSP line (DRM_ERROR: no address) gets the failing GPU: the lines
 * of ROCm/legacy-rocm-build#2747, then amdgpu_device.c's "Fatal error
 * during GPU init" filled for that GPU (the report's title names it). */
static void test_amd_init_causes(void)
{
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	const struct lx_kmsg_match *fail, *psp;
	size_t n = amd_init_findings(
		"[Mon Dec 18 08:34:36 2023] amdgpu 0000:c7:00.0: amdgpu: Will use PSP to load VCN firmware\n"
		"[Mon Dec 18 08:34:36 2023] [drm:psp_hw_start [amdgpu]] *ERROR* PSP create ring failed!\n"
		"[Mon Dec 18 08:34:37 2023] [drm:psp_v13_0_ring_destroy [amdgpu]] *ERROR* Fail to stop psp ring\n"
		"[Mon Dec 18 08:34:37 2023] amdgpu 0000:c7:00.0: amdgpu: Fatal error during GPU init\n",
		&k, &m, &fail, &psp);
	ok(n == 2 && fail && psp, "PSP failure and init failure: two findings");
	ok(fail && fail->cause && &m.items[fail->cause - 1] == psp,
	   "Fatal error during GPU init: its cause is the PSP failure before it");
	ok(psp && same_str(psp->pci, "0000:c7:00.0"), "the PSP line without an address: the failing GPU's");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* Whose oops it is (kernel/panic.c, arch/x86's dumpstack.c: the header,
 * "Modules linked in:", the faulting instruction, "Call Trace:" with "? "
 * before unsure frames). The frames are zen-kernel#207's (a core-kernel
 * spinlock under ttm for amdgpu); the headers the kernel's format strings
 * filled in. */
static void test_oops_owner(void)
{
	static const char lockup[] =
		"[ 100.1] watchdog: BUG: soft lockup - CPU#3 stuck for 22s! [Xorg:1234]\n"
		"[ 100.1] Modules linked in: nvidia_drm(POE) nvidia(POE) amdgpu ttm e1000e\n"
		"[ 100.1] CPU: 3 PID: 1234 Comm: Xorg Tainted: P           OE     5.12.0 #1\n"
		"[ 100.1] RIP: 0010:_raw_spin_lock+0x21/0x30\n"
		"[ 100.1] Call Trace:\n"
		"[ 100.1]  ? e1000e_poll+0x10/0x20 [e1000e]\n"
		"[ 100.1]  __get_locked_pte+0x10a/0x180\n"
		"[ 100.1]  ttm_bo_vm_fault_reserved+0x1ca/0x6b0 [ttm]\n"
		"[ 100.1]  amdgpu_ttm_fault+0x53/0x80 [amdgpu]\n"
		"[ 100.1]  __do_fault+0x36/0xd0\n"
		"[ 100.1] ---[ end trace 0000000000000000 ]---\n"
		"[ 100.1] RIP: 0010:_raw_spin_lock+0x21/0x30\n";
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	parse(lockup, &k);
	size_t n = count_matches(&k, NULL, &m);
	const char *mod = n == 1 ? lx_kmsg_match_field(&m.items[0], "module") : NULL;
	ok(n == 1 && same_str(mod, "amdgpu") && m.items[0].severity == LX_SEVERITY_WARNING,
	   "a soft lockup in the kernel's code under ttm for amdgpu: amdgpu's, one warning (the RIP "
	   "repeated after the end of the trace is the same oops; the unsure e1000e frame does not count)");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	/* the same fault under another module: nobody's GPU, although the
	 * module list names nvidia and amdgpu */
	static const char net[] =
		"[ 100.1] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		"[ 100.1] Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
		"[ 100.1] Modules linked in: nvidia_drm(POE) nvidia(POE) amdgpu ttm e1000e\n"
		"[ 100.1] RIP: 0010:_raw_spin_lock+0x21/0x30\n"
		"[ 100.1] Call Trace:\n"
		"[ 100.1]  <IRQ>\n"
		"[ 100.1]  e1000e_poll+0x10/0x20 [e1000e]\n"
		"[ 100.1]  amdgpu_ttm_fault+0x53/0x80 [amdgpu]\n";
	parse(net, &k);
	ok(count_matches(&k, NULL, &m) == 0, "an oops whose first sure module frame is e1000e's: no finding");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	/* two GPUs of the driver: the line just before the oops names its
	 * GPU, a line long before it does not */
	struct lx_buf b = {0};
	lx_buf_puts(&b, "[ 1.0] amdgpu 0000:03:00.0: amdgpu: SMU is initialized successfully!\n"
			"[ 1.0] amdgpu 0000:04:00.0: amdgpu: SMU is initialized successfully!\n");
	for (int l = 0; l < 50; l++)
		lx_buf_puts(&b, "[ 2.0] usb 1-1: new high-speed USB device number 2 using xhci_hcd\n");
	lx_buf_puts(&b, "[ 9.0] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
			"[ 9.0] RIP: 0010:amdgpu_bo_list_set+0x196/0x3d0 [amdgpu]\n");
	parse(b.data, &k);
	n = count_matches(&k, NULL, &m);
	ok(n == 1 && m.items[0].pci == NULL, "two AMD GPUs named long before the oops: no GPU named");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	lx_buf_free(&b);
	parse("[ 1.0] amdgpu 0000:03:00.0: amdgpu: SMU is initialized successfully!\n"
	      "[ 1.0] amdgpu 0000:04:00.0: amdgpu: SMU is initialized successfully!\n"
	      "[ 9.0] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	      "[ 9.0] RIP: 0010:amdgpu_bo_list_set+0x196/0x3d0 [amdgpu]\n",
	      &k);
	n = count_matches(&k, NULL, &m);
	ok(n == 1 && same_str(m.items[0].pci, "0000:04:00.0"), "the amdgpu line just before the oops: its GPU");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* amdgpu's DRM_ERROR lines name no GPU: with one AMD GPU in the log they
 * are that GPU's, with two they stay unnamed (the yuzu#2559 ring line and
 * an amdgpu line that is no finding, "SMU is resumed successfully!", of
 * 0000:03:00.0, then the same line of a second GPU filled in; pop-os/pop#2132's
 * "GPU reset begin!" is a finding of its own since amdgpu-gpu-reset-begin). A "hw_init of IP block" step before "Fatal error
 * during GPU init" is one finding whose cause is the first failure
 * (legacy-rocm-build#384's lines, then amdgpu_device.c's fatal line). */
static void test_amd_sole_gpu(void)
{
	static const char ring[] = "[drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx timeout, "
				   "signaled seq=9910, emitted seq=9912\n";
	static const char *const logs[] = {
		"[ 37937.169164] amdgpu 0000:03:00.0: amdgpu: SMU is resumed successfully!\n",
		"[ 37937.169164] amdgpu 0000:03:00.0: amdgpu: SMU is resumed successfully!\n"
		"[ 37937.169170] amdgpu 0000:04:00.0: amdgpu: SMU is resumed successfully!\n",
	};
	_cleanup_free_ char *bound = lx_xasprintf("%s[ 3.2] snd_hda_intel 0000:0b:00.1: bound 0000:0b:00.0 (ops "
						  "amdgpu_dm_audio_component_bind_ops [amdgpu])\n", ring);
	one_finding(bound, "LXG142", "0000:0b:00.0", NULL,
		    "a ring timeout without the address, snd_hda_intel bound to amdgpu's 0000:0b:00.0: that GPU");
	for (size_t l = 0; l < 2; l++) {
		_cleanup_free_ char *text = lx_xasprintf("%s%s", ring, logs[l]);
		one_finding(text, "LXG142", l == 0 ? "0000:03:00.0" : NULL, NULL,
			    l == 0 ? "a ring timeout without the address, one AMD GPU in the log: that GPU"
				   : "a ring timeout without the address, two AMD GPUs in the log: no GPU");
	}
	/* two AMD GPUs and the same timeout with and without the address: the
	 * one without is no GPU's, not the other's (either order) */
	static const char addressed[] = "[ 37937.1] amdgpu 0000:04:00.0: amdgpu: ring gfx_0.0.0 timeout, "
					"signaled seq=1, emitted seq=3\n";
	static const char unaddressed[] = "[ 37937.2] [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 "
					  "timeout, signaled seq=1, emitted seq=3\n";
	for (size_t order = 0; order < 2; order++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		_cleanup_free_ char *text = order == 0 ? lx_xasprintf("%s%s%s", logs[1], addressed, unaddressed)
						       : lx_xasprintf("%s%s%s", logs[1], unaddressed, addressed);
		parse(text, &k);
		size_t n = count_matches(&k, NULL, &m);
		bool named = false, unnamed = false;
		for (size_t i = 0; n == 2 && i < n; i++) {
			named |= same_str(m.items[i].pci, "0000:04:00.0") && m.items[i].count == 1;
			unnamed |= m.items[i].pci == NULL && m.items[i].count == 1;
		}
		ok(named && unnamed, order == 0 ? "two AMD GPUs, a ring timeout of one, then one without the "
						  "address: two findings, the second no GPU's"
						: "two AMD GPUs, a ring timeout without the address, then one of "
						  "0000:04:00.0: two findings, the first no GPU's");
		if (n != (size_t)-1)
			lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	const struct lx_kmsg_match *fail, *psp;
	size_t n = amd_init_findings(
		"[    1.492690] [drm:psp_hw_init [amdgpu]] *ERROR* PSP firmware loading failed\n"
		"[    1.492719] [drm:amdgpu_device_init [amdgpu]] *ERROR* hw_init of IP block <psp> failed -22\n"
		"[    1.492722] amdgpu 0000:03:00.0: amdgpu_device_ip_init failed\n"
		"[    1.492730] amdgpu 0000:03:00.0: amdgpu: Fatal error during GPU init\n",
		&k, &m, &fail, &psp);
	ok(n == 2 && fail && psp && fail->count == 3,
	   "PSP failure, hw_init step, ip_init and fatal lines: the PSP finding and one init failure");
	ok(fail && fail->cause && &m.items[fail->cause - 1] == psp && same_str(fail->pci, "0000:03:00.0"),
	   "the init failure of 0000:03:00.0: its cause is the PSP failure, the first one");
	ok(fail && same_str(lx_kmsg_match_field(fail, "block"), "psp"), "the init failure says the IP block (psp)");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* i915's DRM_ERROR lines name no GPU: with one Intel GPU in the log (its
 * "i915 BDF:" lines, or drm's "Initialized i915 ... for BDF") they are that
 * GPU's, with an iGPU and an Arc card they stay unnamed (strongtz/i915-sriov-dkms#55's
 * forcewake line). A refusal of a GPU another Intel driver takes is no
 * finding; two refusals of one GPU are one. */
/* A row with no flag: a message naming its driver in words ("NVRM:")
 * but no device is the log's only GPU of that driver, none with two, and
 * none when the log's only GPU is another driver's. */
static void test_named_driver_sole_gpu(void)
{
	static const char gsp[] = "[ 9.1] NVRM: GPU0 _kgspRpcRecvPoll: GSP RM heartbeat timed out\n";
	static const struct {
		const char *others, *gpu, *what;
	} cases[] = {
		{"[ 9.2] nvidia 0000:05:00.0: Enabling HDA controller\n", "0000:05:00.0",
		 "an NVRM message naming no GPU, one NVIDIA GPU in the log: that GPU"},
		{"[ 9.2] nvidia 0000:05:00.0: Enabling HDA controller\n"
		 "[ 9.3] nvidia 0000:06:00.0: Enabling HDA controller\n",
		 NULL, "an NVRM message naming no GPU, two NVIDIA GPUs in the log: no GPU"},
		{"[ 9.2] amdgpu 0000:03:00.0: amdgpu: SMU is resumed successfully!\n", NULL,
		 "an NVRM message naming no GPU, the log's only GPU an AMD one: no GPU"},
		/* no line with nvidia's prefix: its other mentions of a GPU */
		{"[ 9.2] NVRM: GPU at PCI:0000:05:00: GPU-7d0a9c55-5a7d-1b3c-0f32-0b4e3c7f7a11\n", "0000:05:00.0",
		 "an NVRM message naming no GPU, nvidia's \"GPU at PCI:\" line names one: that GPU"},
		{"[ 0.4] pci 0000:05:00.0: [10de:2684] type 00 class 0x030000 PCIe Legacy Endpoint\n",
		 "0000:05:00.0", "an NVRM message naming no GPU, one NVIDIA display device enumerated: that GPU"},
		{"[ 0.4] pci 0000:05:00.0: [10de:2684] type 00 class 0x030000 PCIe Legacy Endpoint\n"
		 "[ 0.4] pci 0000:06:00.0: [10de:2684] type 00 class 0x030000 PCIe Legacy Endpoint\n",
		 NULL, "an NVRM message naming no GPU, two NVIDIA display devices enumerated: no GPU"},
		{"[ 0.4] pci 0000:05:00.0: [1002:744c] type 00 class 0x030000 PCIe Legacy Endpoint\n", NULL,
		 "an NVRM message naming no GPU, an AMD display device enumerated: no GPU"},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		_cleanup_free_ char *text = lx_xasprintf("%s%s", gsp, cases[c].others);
		one_finding(text, "LXG108", cases[c].gpu, NULL, cases[c].what);
	}
}

/* An oops in a GPU driver's code cut to its call trace, no line before it
 * naming a GPU: the log's only GPU of that driver, a line after it
 * included (linuxboot/heads#2039: i915_drm_suspend_late's trace, no address
 * in the excerpt: the integrated GPU). */
static void test_oops_sole_gpu(void)
{
	static const char trace[] = "[ 5.1] Call Trace:\n"
				    "[ 5.1]  <TASK>\n"
				    "[ 5.1]  %s\n"
				    "[ 5.1]  dpm_run_callback+0x47/0x150\n"
				    "[ 5.1]  device_suspend_late+0x9a/0x1f0\n"
				    "[ 5.1]  </TASK>\n"
				    "[ 5.1] ---[ end trace 0000000000000000 ]---\n%s";
	static const struct {
		const char *frame, *after, *gpu, *what;
	} cases[] = {
		{"i915_drm_suspend_late+0x101/0x110 [i915]", "", "0000:00:02.0",
		 "i915's suspend callback in a cut trace, no Intel GPU named: the integrated GPU"},
		{"amdgpu_pmops_suspend+0x1c/0x40 [amdgpu]", "[ 5.2] amdgpu 0000:03:00.0: amdgpu: SMU is suspended\n",
		 "0000:03:00.0", "amdgpu's suspend callback in a cut trace, the log's only AMD GPU named after it: that GPU"},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		_cleanup_free_ char *text = lx_xasprintf(trace, cases[c].frame, cases[c].after);
		parse(text, &k);
		size_t n = count_matches(&k, NULL, &m);
		bool pm = false, all = n != (size_t)-1 && n > 0;
		for (size_t i = 0; n != (size_t)-1 && i < n; i++) {
			pm |= strcmp(code_of(&m.items[i]), "LXG174") == 0;
			all &= same_str(m.items[i].pci, cases[c].gpu);
		}
		ok(pm && all, cases[c].what);
		if (n != (size_t)-1)
			lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
}

/* intel_display_irq.c's pipe faults in every kernel's wording: 6.13's
 * plane fault with its CRTC, the 3.14-4.4 DRM_ERROR whose value went to a
 * line of its own; five of one GPU are a finding. */
static void test_intel_pipe_fault(void)
{
	static const struct {
		const char *line, *gpu, *pipe, *what;
	} forms[] = {
		{"xe 0000:03:00.0: [drm] *ERROR* [CRTC:151:pipe A][PLANE:33:plane 1A] fault (CTL=0x84000408, "
		 "SURF=0x1100000, SURFLIVE=0x1100000)\n",
		 "0000:03:00.0", "pipe A", "a 6.13 plane fault of xe's display, five times: LXG178 of that GPU"},
		{"i915 0000:00:02.0: [drm] *ERROR* [CRTC:80:pipe B] PIPEDMC fault\n", "0000:00:02.0", "pipe B",
		 "a 6.13 PIPEDMC fault, five times: LXG178 of that GPU"},
		{"[drm:gen8_de_irq_handler [i915]] *ERROR* Fault errors on pipe C\n: 0x00000080\n", "0000:00:02.0", "C",
		 "a 3.x DRM_ERROR pipe fault (its value on the next line), five times: LXG178 of the integrated GPU"},
	};
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		_cleanup_free_ char *text = lx_xasprintf("%s%s%s%s%s", forms[f].line, forms[f].line, forms[f].line,
							 forms[f].line, forms[f].line);
		_cleanup_free_ char *fields = lx_xasprintf("pipe=%s|times=5", forms[f].pipe);
		one_finding(text, "LXG178", forms[f].gpu, fields, forms[f].what);
	}
}

static void test_intel_sole_gpu(void)
{
	static const char fw[] = "[   14.458687] [drm:fw_domains_get_with_fallback [i915]] *ERROR* render: timed out "
				 "waiting for forcewake ack to clear.\n";
	static const char *const logs[] = {
		"[    1.9] [drm] Initialized i915 1.6.0 20201103 for 0000:00:02.0 on minor 0\n",
		"[    1.9] [drm] Initialized i915 1.6.0 20201103 for 0000:00:02.0 on minor 0\n"
		"[    2.1] i915 0000:03:00.0: [drm] Local memory IO size: 0x0000000010000000\n",
	};
	for (size_t l = 0; l < 2; l++) {
		_cleanup_free_ char *text = lx_xasprintf("%s%s", logs[l], fw);
		one_finding(text, "LXG142", l == 0 ? "0000:00:02.0" : NULL, NULL,
			    l == 0 ? "a forcewake timeout without the address, one Intel GPU in the log: that GPU"
				   : "a forcewake timeout without the address, two Intel GPUs in the log: no GPU");
	}
	/* no line names an Intel GPU (a 4.x log of i915's DRM_ERRORs alone):
	 * the integrated GPU at 0000:00:02.0, unless the log enumerates
	 * another kind of device there or the host model has an Intel GPU
	 * elsewhere */
	one_finding(fw, "LXG142", "0000:00:02.0", NULL,
		    "a forcewake timeout without the address, no Intel GPU named in the log: the integrated GPU");
	/* the component framework's bind line names the GPU i915 drives */
	_cleanup_free_ char *bound = lx_xasprintf("[    2.0] snd_hda_intel 0000:04:00.0: bound 0000:03:00.0 (ops "
						  "i915_audio_component_bind_ops [i915])\n%s", fw);
	one_finding(bound, "LXG142", "0000:03:00.0", NULL,
		    "a forcewake timeout without the address, snd_hda_intel bound to i915's 0000:03:00.0: that GPU");
	_cleanup_free_ char *port = lx_xasprintf("[    0.3] pci 0000:00:02.0: [8086:6f04] type 01 class 0x060400\n%s", fw);
	one_finding(port, "LXG142", NULL, NULL,
		    "a forcewake timeout without the address, a PCI bridge at 0000:00:02.0: no GPU");
	struct lx_gpu arc = {.bdf = (char *)"0000:03:00.0", .vendor_id = 0x8086, .minor = 0};
	struct lx_host host = {.gpus = &arc, .n_gpus = 1};
	struct lx_kmsg hk;
	struct lx_kmsg_matches hm;
	parse(fw, &hk);
	size_t hn = count_matches(&hk, &host, &hm);
	ok(hn == 1 && hm.items[0].pci == NULL,
	   "a forcewake timeout without the address, the host's Intel GPU at 0000:03:00.0: no GPU");
	if (hn != (size_t)-1)
		lx_kmsg_matches_free(&hm);
	lx_kmsg_free(&hk);
	static const char refused[] = "[    2.8] i915 0000:03:00.0: Your graphics device 56a0 is not properly supported "
				      "by i915 in this\n";
	static const char *const after[] = {
		"[    3.1] xe 0000:03:00.0: [drm] Tile0: GT0: Using GuC firmware from xe/dg2_guc_70.bin\n",
		"[    3.1] xe 0000:03:00.0: Your graphics device 56a0 is not officially supported\n",
	};
	for (size_t a = 0; a < 2; a++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		_cleanup_free_ char *text = lx_xasprintf("%s%s", refused, after[a]);
		parse(text, &k);
		size_t n = count_matches(&k, NULL, &m);
		if (a == 0)
			ok(n == 0, "i915 declines 0000:03:00.0 and xe takes it: no finding");
		else
			ok(n == 1 && strcmp(code_of(&m.items[0]), "LXG157") == 0 && m.items[0].count == 2 &&
				   same_str(m.items[0].pci, "0000:03:00.0"),
			   "i915 and xe both decline 0000:03:00.0: one LXG157 finding, counted twice");
		if (n != (size_t)-1)
			lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
}

/* amdkfd names a GPU it skips by PCI ID only; it runs inside amdgpu's
 * probe of that GPU (kgd2kfd_probe from amdgpu_device_init), one GPU after
 * the other: the GPU is the one amdgpu's nearest line before it names.
 * Lines filled from the format strings of drivers/pci/probe.c, pci.c's
 * "enabling device", drm_drv.c's "Initialized" and kfd_device.c. */
static void test_kfd_probing_gpu(void)
{
	static const char two[] =
		"[    0.108259] pci 0000:02:00.0: [1002:67df] type 00 class 0x030000\n"
		"[    0.109041] pci 0000:03:00.0: [1002:67df] type 00 class 0x030000\n"
		"[    1.164049] amdgpu 0000:02:00.0: enabling device (0000 -> 0003)\n"
		"[    1.171819] kfd kfd: skipped device 1002:67df, PCI rejects atomics\n"
		"[    2.529983] [drm] Initialized amdgpu 3.26.0 20150101 for 0000:02:00.0 on minor 0\n"
		"[    2.530379] amdgpu 0000:03:00.0: enabling device (0000 -> 0003)\n"
		"[    2.535706] kfd kfd: skipped device 1002:67df, PCI rejects atomics\n"
		"[    3.871048] [drm] Initialized amdgpu 3.26.0 20150101 for 0000:03:00.0 on minor 1\n";
	struct lx_kmsg k;
	parse(two, &k);
	struct lx_kmsg_matches m;
	size_t n = count_matches(&k, NULL, &m);
	ok(n == 2 && same_str(code_of(&m.items[0]), "LXG143") && same_str(m.items[0].pci, "0000:02:00.0") &&
		   same_str(code_of(&m.items[1]), "LXG143") && same_str(m.items[1].pci, "0000:03:00.0"),
	   "two GPUs of one PCI ID skipped by amdkfd: each line is the GPU amdgpu was probing");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);

	/* the address enumerated with another ID: not that GPU (two amdgpu
	 * GPUs, so the log's only one does not name it either) */
	parse("[    0.108259] pci 0000:02:00.0: [1002:73bf] type 00 class 0x030000\n"
	      "[    0.109041] pci 0000:03:00.0: [1002:67df] type 00 class 0x030000\n"
	      "[    1.164049] amdgpu 0000:03:00.0: enabling device (0000 -> 0003)\n"
	      "[    1.164049] amdgpu 0000:02:00.0: enabling device (0000 -> 0003)\n"
	      "[    1.171819] kfd kfd: skipped device 1002:67df, PCI rejects atomics\n",
	      &k);
	n = count_matches(&k, NULL, &m);
	ok(n == 1 && m.items[0].pci == NULL, "the nearest amdgpu GPU enumerated as 1002:73bf is not 1002:67df's");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);

	/* after amdgpu's probe ended: no GPU was being probed */
	parse("[    1.164049] amdgpu 0000:02:00.0: enabling device (0000 -> 0003)\n"
	      "[    2.529983] [drm] Initialized amdgpu 3.26.0 20150101 for 0000:02:00.0 on minor 0\n"
	      "[    2.530379] amdgpu 0000:03:00.0: enabling device (0000 -> 0003)\n"
	      "[    3.871048] [drm] Initialized amdgpu 3.26.0 20150101 for 0000:03:00.0 on minor 1\n"
	      "[    9.171819] kfd kfd: skipped device 1002:67df, PCI rejects atomics\n",
	      &k);
	n = count_matches(&k, NULL, &m);
	ok(n == 1 && m.items[0].pci == NULL, "a kfd line after the probe ended names no GPU by itself");
	if (n != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* An Xid without its address: doctor's finding says the address was
 * elided (not that the GPU is gone or unnamed for another reason). */
static void test_elided_xid(void)
{
	struct lx_kmsg k;
	parse("[82659.755847] NVRM: Xid (PCI:...): 79, GPU has fallen off the bus.\n", &k);
	struct lx_host host = {0};
	struct lx_doctor_input in = {&host, NULL, &k, NULL, NULL, 0};
	struct lx_findings f = {0};
	struct lx_error err = {0};
	bool said = false;
	if (lx_doctor_host(&in, &f, &err) == 0)
		for (size_t i = 0; i < f.n; i++)
			said |= f.items[i].code == LXG109_FALLEN_OFF_BUS &&
				strstr(f.items[i].message, "address elided in the log: \"...\"") != NULL;
	ok(said, "an Xid 79 with the address elided: LXG109 says the address was elided");
	lx_error_clear(&err);
	lx_findings_free(&f);
	lx_kmsg_free(&k);
}

/* A format string a row's source cites, as an extended regex of the text
 * it prints: a conversion (%s, %04x, %pR) is any text, a run of spaces or a
 * "\n" (and the next line's "NVRM:") any white space, "..." the rest; "[ "
 * opens an optional part (the row's notation for words the driver adds
 * only sometimes), any other bracket is literal. */
static char *format_regex(const char *f, size_t len)
{
	struct lx_buf b = {0};
	bool optional[16];
	size_t depth = 0;
	for (size_t i = 0; i < len;) {
		char c = f[i];
		if (c == '%' && i + 1 < len && f[i + 1] == '%') {
			lx_buf_puts(&b, "%");
			i += 2;
		} else if (c == '%') {
			i++;
			while (i < len && strchr("-+ #0123456789.*", f[i]))
				i++;
			while (i < len && strchr("hlzjt", f[i]))
				i++;
			if (i < len && f[i++] == 'p')
				while (i < len && ((f[i] >= 'A' && f[i] <= 'Z') || (f[i] >= 'a' && f[i] <= 'z')))
					i++;
			lx_buf_puts(&b, ".*");
		} else if (c == '\\' && i + 1 < len && (f[i + 1] == 'n' || f[i + 1] == 't')) {
			i += 2;
			lx_buf_puts(&b, "[[:space:]]*");
			if (len - i >= 5 && strncmp(f + i, "NVRM:", 5) == 0) {
				lx_buf_puts(&b, "(NVRM:)?[[:space:]]*");
				i += 5;
			}
		} else if (c == '\\' && i + 1 < len) {
			lx_buf_printf(&b, "\\%c", f[i + 1]);
			i += 2;
		} else if (c == ' ') {
			while (i < len && f[i] == ' ')
				i++;
			lx_buf_puts(&b, "[[:space:]]+");
		} else if (len - i >= 3 && strncmp(f + i, "...", 3) == 0) {
			lx_buf_puts(&b, ".*");
			i += 3;
		} else if (c == '[' && i + 1 < len && f[i + 1] == ' ' && depth < 16) {
			optional[depth++] = true;
			lx_buf_puts(&b, "(");
			i++;
		} else if (c == '[' && depth < 16) {
			optional[depth++] = false;
			lx_buf_puts(&b, "\\[");
			i++;
		} else if (c == ']' && depth > 0) {
			lx_buf_puts(&b, optional[--depth] ? ")?" : "\\]");
			i++;
		} else {
			if (strchr(".^$*+?(){}|[]", c))
				lx_buf_puts(&b, "\\");
			lx_buf_printf(&b, "%c", c);
			i++;
		}
	}
	return lx_buf_steal(&b);
}

/* The format strings a row's source cites (each between double quotes),
 * compiled; false when it cites none or one does not compile. */
static bool cited_formats(const char *source, regex_t *re, size_t max, size_t *n)
{
	*n = 0;
	for (const char *p = source ? strchr(source, '"') : NULL; p && *n < max; p = strchr(p, '"')) {
		const char *end = p + 1;
		while (*end && *end != '"')
			end += *end == '\\' && end[1] ? 2 : 1;
		if (!*end)
			return false;
		_cleanup_free_ char *rx = format_regex(p + 1, (size_t)(end - p - 1));
		if (regcomp(&re[*n], rx, REG_EXTENDED | REG_NOSUB) != 0) {
			printf("#   cannot compile %s\n", rx);
			return false;
		}
		(*n)++;
		p = end + 1;
	}
	return *n > 0;
}

/* the format strings of a row's source that are compared (the oops rows
 * quote one per kind of report) */
#define FORMATS_MAX 6

/* Every row names where its message is printed and quotes the format
 * string: that string (one of them) matches the text the row matched in
 * every real log above, so a row whose pattern drifted from its source, or
 * a source that does not say this message, fails here. */
static void test_sources_match(void)
{
	size_t n;
	const struct lx_kmsg_entry *rows = lx_kmsg_catalogue(&n);
	bool *bad = lx_xcalloc(n, sizeof(*bad));
	size_t *checked = lx_xcalloc(n, sizeof(*checked));
	regex_t(*re)[FORMATS_MAX] = lx_xcalloc(n, sizeof(*re));
	size_t *n_re = lx_xcalloc(n, sizeof(*n_re));
	for (size_t r = 0; r < n; r++)
		bad[r] = !cited_formats(rows[r].source, re[r], FORMATS_MAX, &n_re[r]);
	for (size_t x = 0; x < sizeof(expects) / sizeof(expects[0]); x++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		if (!load(expects[x].file, &k, &m))
			continue;
		for (size_t i = 0; i < m.n; i++) {
			size_t r = (size_t)(m.items[i].entry - rows);
			if (bad[r] && n_re[r] == 0)
				continue;
			struct lx_buf t = {0};
			for (size_t l = m.items[i].first; l <= m.items[i].last; l++)
				lx_buf_printf(&t, "%s%s", l > m.items[i].first ? "\n" : "", k.lines[l].text);
			bool any = false;
			for (size_t j = 0; j < n_re[r] && !any; j++)
				any = regexec(&re[r][j], t.data ? t.data : "", 0, NULL, 0) == 0;
			/* a line a pager cut (less -S ends it with '>') is not the message */
			bool cut = false;
			for (size_t l = m.items[i].first; l <= m.items[i].last; l++)
				cut |= lx_str_ends_with(k.lines[l].text, ">");
			if (!any) {
				printf("# row %s: its source's format string does not match %s line %u%s:\n",
				       rows[r].id, expects[x].file, k.lines[m.items[i].first].lineno,
				       cut ? " (cut by a pager: not compared)" : "");
				/* one TAP comment line per log line */
				for (size_t l = m.items[i].first; l <= m.items[i].last; l++)
					printf("#   %s\n", k.lines[l].text);
			}
			bad[r] |= !any && !cut;
			checked[r] += any;
			free(t.data);
		}
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
	for (size_t r = 0; r < n; r++) {
		_cleanup_free_ char *what = lx_xasprintf(
			"row %s names its source: its format string matches the text it matched (%zu)",
			rows[r].id, checked[r]);
		ok(!bad[r] && checked[r] > 0, what);
		for (size_t j = 0; j < n_re[r]; j++)
			regfree(&re[r][j]);
	}
	free(bad);
	free(checked);
	free(re);
	free(n_re);
}

/* Every row and every Xid of the table is exercised by a log above: a row
 * the expectations do not reach is untested. */
static void test_every_row_has_a_case(void)
{
	size_t n;
	const struct lx_kmsg_entry *rows = lx_kmsg_catalogue(&n);
	bool *seen = lx_xcalloc(n, sizeof(*seen));
	size_t nx;
	const struct lx_xid_info *xids = lx_xid_catalogue(&nx);
	bool *xseen = lx_xcalloc(nx, sizeof(*xseen));
	for (size_t x = 0; x < sizeof(expects) / sizeof(expects[0]); x++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		if (!load(expects[x].file, &k, &m))
			continue;
		for (size_t i = 0; i < m.n; i++) {
			seen[m.items[i].entry - rows] = true;
			if (m.items[i].xid)
				xseen[m.items[i].xid - xids] = true;
		}
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
	for (size_t r = 0; r < n; r++) {
		_cleanup_free_ char *what = lx_xasprintf("row %s has a real log among the cases", rows[r].id);
		ok(seen[r], what);
	}
	for (size_t r = 0; r < nx; r++) {
		_cleanup_free_ char *what = lx_xasprintf("Xid %u has a real log among the cases", xids[r].number);
		ok(xseen[r], what);
	}
	free(seen);
	free(xseen);
}

/* Modesetting off names the GPUs the driver did not take, no other: the
 * NVIDIA GPU (nvidia ignores nomodeset), the Intel iGPU i915 took, the
 * AMD GPU amdgpu took are none of its GPUs. */
/* An address the line gives with its domain is that GPU's: 0005:01:00.0
 * (a host with PCI domains, Requiem4Eternity/Appstream#91) is not the
 * host's 0000:01:00.0; a short one ("01:00.0") and an Xid's, which names no
 * function, are completed from the host's GPU. */
static void test_address_domain(void)
{
	struct lx_gpu g0 = {.bdf = (char *)"0000:01:00.0", .driver = (char *)"amdgpu"};
	struct lx_host host = {.gpus = &g0, .n_gpus = 1};
	static const struct {
		const char *line, *gpu, *what;
	} cases[] = {
		{"amdgpu 0005:01:00.0: GPU fault detected: 146 0x0000480c\n", "0005:01:00.0",
		 "another domain's 01:00.0: its own address, not the host's GPU"},
		{"amdgpu 0000:01:00.0: GPU fault detected: 146 0x0000480c\n", "0000:01:00.0",
		 "the host GPU's own address: that GPU"},
		{"NVRM: Xid (PCI:0000:01:00): 79, pid=1, GPU has fallen off the bus.\n", "0000:01:00.0",
		 "an Xid's address without a function: the host's GPU of that domain and bus"},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		parse(cases[c].line, &k);
		size_t n = count_matches(&k, &host, &m);
		if (!ok(n == 1 && same_str(m.items[0].pci, cases[c].gpu), cases[c].what) && n != (size_t)-1)
			for (size_t i = 0; i < m.n; i++)
				printf("#   got %s\n", m.items[i].pci ? m.items[i].pci : "(none)");
		if (n != (size_t)-1)
			lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
}

static void test_modeset_gpus(void)
{
	static const char *const logs[] = {"modeset-nomodeset-amd.log", "modeset-vgacon.log",
					   "modeset-i915-off.log"};
	for (size_t l = 0; l < sizeof(logs) / sizeof(logs[0]); l++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		if (!load(logs[l], &k, &m))
			continue;
		size_t n = 0;
		for (size_t i = 0; i < m.n; i++)
			n += strcmp(code_of(&m.items[i]), "LXG153") == 0;
		_cleanup_free_ char *what = lx_xasprintf("%s: one LXG153, for the GPU no driver took", logs[l]);
		int_eq((long long)n, 1, what);
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
}

/* A WARN in a probe the driver then finished (nvidia's "NVRM: loading",
 * the DRM core's "Initialized i915 ... for" the GPU) failed no probe: the
 * WARN is LXG151's warning, no LXG106 or LXG141; where the driver then says
 * the probe failed, it did. */
static size_t codes_in(const struct lx_kmsg_matches *m, const char *code)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		n += strcmp(code_of(&m->items[i]), code) == 0;
	return n;
}

static void test_probe_warn_went_on(void)
{
	static const struct {
		const char *file, *init_code;
	} logs[] = {{"nvidia-probe-warn-went-on.log", "LXG106"}, {"intel-probe-warn-went-on.log", "LXG141"}};
	for (size_t l = 0; l < sizeof(logs) / sizeof(logs[0]); l++) {
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		if (!load(logs[l].file, &k, &m))
			continue;
		_cleanup_free_ char *warn = lx_xasprintf("%s: the WARN is LXG151", logs[l].file);
		int_eq((long long)codes_in(&m, "LXG151"), 1, warn);
		_cleanup_free_ char *init = lx_xasprintf("%s: the probe went on: no %s", logs[l].file, logs[l].init_code);
		int_eq((long long)codes_in(&m, logs[l].init_code), 0, init);
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
	/* the same WARN, then the driver's word that the probe failed, or
	 * its going on without the word that it finished; a log that ends
	 * with the WARN does not say how the probe ended: LXG151 only */
	static const struct {
		const char *after;
		long long n106;
	} failed[] = {{"[    6.200600] NVRM: The NVIDIA probe routine failed for 1 device(s).\n", 1},
		      {"[    6.200600] nvidia 0000:04:00.0: probe with driver nvidia failed with error -1\n", 1},
		      {"[    6.200600] nvidia 0000:04:00.0: vgaarb: VGA decodes changed: "
		       "olddecodes=io+mem,decodes=none:owns=none\n", 1},
		      {"[    6.200600] usb 1-4: new high-speed USB device number 3 using xhci_hcd\n", 0},
		      {"", 0}};
	_cleanup_free_ char *path = lx_xasprintf("%s/nvidia-probe-warn-went-on.log", kmsg_dir);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	if (!ok(lx_read_file(path, 1u << 20, &text, &len, NULL) == 0, path))
		return;
	/* the WARN's report alone: the lines after its end cut */
	char *end = strstr(text, "---[ end trace");
	if (!ok(end != NULL, "the fixture has the WARN's end line"))
		return;
	end += strcspn(end, "\n");
	if (*end)
		end[1] = '\0';
	for (size_t f = 0; f < sizeof(failed) / sizeof(failed[0]); f++) {
		_cleanup_free_ char *log = lx_str_concat(text, failed[f].after);
		struct lx_kmsg k;
		struct lx_kmsg_matches m;
		parse(log, &k);
		if (count_matches(&k, NULL, &m) == (size_t)-1) {
			lx_kmsg_free(&k);
			continue;
		}
		const char *then = *failed[f].after ? failed[f].after + 15 : "the log's end";
		_cleanup_free_ char *what = lx_xasprintf("a probe WARN, then '%.*s': %lld LXG106",
							 (int)strcspn(then, "\n"), then, failed[f].n106);
		int_eq((long long)codes_in(&m, "LXG106"), failed[f].n106, what);
		_cleanup_free_ char *warn = lx_xasprintf("a probe WARN, then '%.*s': the WARN's LXG151", (int)strcspn(then, "\n"), then);
		int_eq((long long)codes_in(&m, "LXG151"), 1, warn);
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
}

/* An IOMMU fault by the GPU before the kernel enumerated it is the system
 * firmware's scanout (clean-dmar-fault-before-pci-enumeration.log); the
 * same fault after the enumeration is the GPU's (LXG113). */
static void test_iommu_fault_before_enumeration(void)
{
	_cleanup_free_ char *path = lx_xasprintf("%s/clean-dmar-fault-before-pci-enumeration.log", kmsg_dir);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	if (!ok(lx_read_file(path, 1u << 20, &text, &len, NULL) == 0, path))
		return;
	const char *fault = strstr(text, "[    0.121936] DMAR: [DMA Read]");
	const char *enumerated = strstr(text, "[    0.467707] pci 0000:00:02.0: [8086:8a52]");
	if (!ok(fault && enumerated && fault < enumerated, "the fixture's fault comes before the enumeration"))
		return;
	size_t fault_len = strcspn(fault, "\n") + 1;
	size_t enum_len = strcspn(enumerated, "\n") + 1;
	/* the fault moved to just after the enumeration line */
	_cleanup_free_ char *moved = lx_xasprintf("%.*s%.*s%.*s%.*s%s", (int)(fault - text), text,
						  (int)(enumerated - fault - fault_len), fault + fault_len, (int)enum_len,
						  enumerated, (int)fault_len, fault, enumerated + enum_len);
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	parse(moved, &k);
	if (count_matches(&k, NULL, &m) != (size_t)-1) {
		int_eq((long long)codes_in(&m, "LXG113"), 1, "a DMAR fault after the GPU's enumeration: LXG113");
		lx_kmsg_matches_free(&m);
	}
	lx_kmsg_free(&k);
}

/* A WARN outside a PM callback is no failed power transition, however
 * many PM names its trace shows elsewhere. */
static void test_pm_oops_outside_pm(void)
{
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	if (!load("gpu-pm-callback-oops-not-pm.log", &k, &m))
		return;
	size_t pm = 0;
	for (size_t i = 0; i < m.n; i++)
		pm += strcmp(code_of(&m.items[i]), "LXG174") == 0;
	int_eq((long long)pm, 0, "WARNs in an interrupt and an ioctl, PM frames unsure or past </IRQ>: no LXG174");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	if (!load("amdgpu-pm-ip-in-reset.log", &k, &m))
		return;
	pm = 0;
	for (size_t i = 0; i < m.n; i++)
		pm += strcmp(code_of(&m.items[i]), "LXG174") == 0;
	int_eq((long long)pm, 0, "an IP block's suspend failing in a GPU reset after the sleep ended: no LXG174");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	/* the SMU failing to gate gfx is the SMU's error: no engine hang */
	if (!load("amdgpu-smu-gfxoff-failed.log", &k, &m))
		return;
	pm = 0;
	for (size_t i = 0; i < m.n; i++)
		pm += strcmp(code_of(&m.items[i]), "LXG142") == 0;
	int_eq((long long)pm, 0, "smu_dpm_set_power_gate()'s 'Failed to enable gfxoff!': no LXG142");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

static void test_clean_logs(void)
{
	static const char *const clean[] = {"clean-public.log", "clean-this-machine.log", "clean-unseen.log",
					  "clean-intel-amd.log", "clean-amd-smu-resume.log", "clean-nomodeset.log",
					  "clean-amd-ras-corrected.log", "clean-amdgpu-securedisplay-ta.log",
					  "clean-intel-display.log", "clean-display-notes.log", "clean-intel-display-notes.log",
					  "clean-oops-other-drivers.log", "clean-aer-corrected.log",
					  "clean-nvrm-asserts.log", "clean-intel-gvt.log",
					  /* a user program's fault ("traps:"), an ext4 oops with
					   * GPU modules loaded after an amdgpu line, a dump_stack()
					   * trace in the network stack */
					  "clean-oops-cut-other-code.log", "clean-amdgpu-vf-mailbox-retry.log",
					  "clean-oops-cut-after-drm-two-drivers.log",
					  /* the TA failures in 5.x to 6.1's DRM_WARN wordings */
					  "clean-amdgpu-securedisplay-ta-old.log",
					  /* an LSPCON not found at a reload; xe after an FLR, as a
					   * mail archive wraps and mangles it */
					  "clean-intel-lspcon.log", "clean-xe-flr-mail-archive.log",
					  /* the OOM killer's dump_stack() with an unsure i915
					   * shrinker frame (3.16, every frame "? ") */
					  "clean-oom-killer-trace.log",
					  /* a Renoir APU's reset at probe (soc15_need_reset_on_init()) */
					  "clean-amdgpu-renoir-init-reset.log",
					  /* a Raven APU's PSP refusing the RLC restore lists, the
					   * probe going on (psp_cmd_submit_buf() only warns) */
					  "clean-amdgpu-raven-psp-rlc-restore-list.log",
					  /* mm's warn_alloc() dump_stack() of a huge-page
					   * allocation TTM makes for amdgpu and falls back from */
					  "clean-ttm-page-allocation-failure.log",
					  /* a VMware guest's vmwgfx: its display, no GPU */
					  "clean-vmwgfx-flip-timeout.log",
					  /* the IOMMU's start faulting the iGPU's read of its
					   * RMRR, before the kernel enumerated the GPU */
					  "clean-dmar-fault-before-pci-enumeration.log",
					  /* i915's WARN in its shutdown hook, from reboot(2) */
					  "clean-i915-warn-at-reboot.log",
					  /* the NVIDIA GPU's own USB-C functions (xHCI, UCSI i2c)
					   * failing at resume; DPC on a Thunderbolt root port
					   * with no GPU behind it */
					  "clean-nvidia-usbc-functions.log", "clean-dpc-other-port.log"};
	for (size_t c = 0; c < sizeof(clean) / sizeof(clean[0]); c++) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s", kmsg_dir, clean[c]);
		struct lx_kmsg k;
		struct lx_error err = {0};
		if (!ok(lx_kmsg_read_file(path, &k, &err) == 0, path)) {
			lx_error_clear(&err);
			continue;
		}
		/* clean-unseen.log: three short excerpts, one a boot's start */
		ok(k.n > (c == 2 ? 5u : 10u), "the clean log has lines");
		struct lx_kmsg_matches m;
		size_t got = count_matches(&k, NULL, &m);
		_cleanup_free_ char *what = lx_xasprintf("no row matches %s", clean[c]);
		if (!int_eq((long long)got, 0, what))
			for (size_t i = 0; i < m.n; i++)
				printf("#   %s: %s\n", m.items[i].entry->id, k.lines[m.items[i].first].raw);
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
	/* This machine's ring buffer, read as doctor reads it (root only
	 * where dmesg_restrict is set). */
	struct lx_kmsg k;
	struct lx_error err = {0};
	if (lx_kmsg_read_device("/dev/kmsg", &k, &err) == 0) {
		ok(k.n > 0, "/dev/kmsg has records");
		ok(k.n > 0 && k.lines[0].raw[0] == '[' && strstr(k.lines[0].raw, "] ") &&
			   strcmp(strstr(k.lines[0].raw, "] ") + 2, k.lines[0].text) == 0,
		   "a record's evidence is its text after its time, as dmesg prints it");
		struct lx_kmsg_matches m;
		int_eq((long long)count_matches(&k, NULL, &m), 0, "no row matches this machine's /dev/kmsg");
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	} else {
		printf("# /dev/kmsg not readable here: %s\n", err.message);
		lx_error_clear(&err);
	}
}

/* A table cell: '|' escaped as Markdown needs it, newlines as spaces. */
static char *md_cell(const char *s)
{
	struct lx_buf b = {0};
	for (; s && *s; s++)
		lx_buf_puts(&b, *s == '|' ? "\\|" : *s == '\n' ? " " : (char[]){*s, 0});
	return lx_buf_steal(&b);
}

static const char *flag_names(uint64_t fl, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s", fl & LX_KMSG_GPU_ONLY ? "gpu " : "",
		 fl & LX_KMSG_NVIDIA_MISSING ? "no-nvidia " : "", fl & LX_KMSG_NEEDS_CAUSE ? "cause " : "",
		 fl & LX_KMSG_OWNER_FROM_LOG ? "owner " : "", fl & LX_KMSG_SOLE_ANY ? "sole " : "",
		 fl & LX_KMSG_UNLESS_DRIVEN ? "driven " : "", fl & LX_KMSG_OOPS ? "oops " : "",
		 fl & LX_KMSG_FALLBACK ? "fallback " : "", fl & LX_KMSG_ANNOUNCES ? "announces " : "",
		 fl & LX_KMSG_EDID_DUMP ? "edid-dump " : "", fl & LX_KMSG_IN_PROBE ? "in-probe " : "",
		 fl & LX_KMSG_NVRM_REQUIRED ? "nvrm-required " : "",
		 fl & LX_KMSG_IN_AMDGPU_PROBE ? "in-amdgpu-probe " : "",
		 fl & LX_KMSG_NOT_ROUTINE ? "not-routine " : "", fl & LX_KMSG_UNLESS_STARTED ? "unless-started " : "");
	size_t n = strlen(buf);
	if (LX_KMSG_REPEATS_OF(fl) && n + 16 < len)
		n += (size_t)snprintf(buf + n, len - n, "repeats-%u ", LX_KMSG_REPEATS_OF(fl));
	if (n)
		buf[n - 1] = '\0';
	return buf;
}

/* docs/kmsg-catalogue.md, from the table (tools/gen-kmsg-catalogue.py runs
 * this). */
static char *catalogue_doc(void)
{
	struct lx_buf b = {0};
	lx_buf_puts(&b,
		    "# The kernel log catalogue\n\n"
		    "`lxgpu doctor` reads the kernel log of the current boot (`/dev/kmsg`, or a\n"
		    "saved `dmesg` / `journalctl -k` / syslog / `talosctl dmesg` text given with\n"
		    "`--kmsg FILE`) and matches every message against this table\n"
		    "(`src/doctor/catalogue.c`, one row per message; the first matching row wins).\n"
		    "A match is a finding with the row's code ([findings.md](findings.md)),\n"
		    "severity, cause and fix, the fields the message carries (`{name}` in the\n"
		    "cause and fix: the GPU, versions, module, branch), and the matched line(s)\n"
		    "as its `evidence`; the same cause on the same GPU with the same key (the\n"
		    "row's first field) is one finding, counted. The current boot is what\n"
		    "counts: in a saved log, the lines after the last `-- Boot` separator\n"
		    "(journalctl) or `Linux version` line (dmesg). A saved log's earlier boots\n"
		    "are matched each on its own, and their findings are info, said once for a\n"
		    "cause (row, key and GPU) and not when the current boot shows it: what the\n"
		    "GPUs went through before the last restart.\n\n"
		    "Patterns are POSIX extended regular expressions over the message with its\n"
		    "timestamp, host and `kernel:` prefix removed; a message printed over several\n"
		    "lines (continuation lines, `NVRM:` lines of one message, syslog's `#012`,\n"
		    "`/dev/kmsg`'s `\\x0a` as `talosctl dmesg` shows it, journalctl's `>`-cut\n"
		    "lines) is matched as one line. A kernel line inside a log\n"
		    "shipper's quoted field (logfmt `msg=\"...\"`, `journalctl -o json`/`json-pretty`/\n"
		    "`json-seq`/`json-sse`'s `MESSAGE`, also as a number array, Docker json-file's `log`)\n"
		    "is read with its escapes undone (`\\n` a new line of the message); `journalctl -o\n"
		    "verbose`/`export`'s `MESSAGE=` is the message and their other fields (and a\n"
		    "`/dev/kmsg` record's ` SUBSYSTEM=`/` DEVICE=` lines) are none. Every prefix of\n"
		    "`dmesg` (`-T`, `-H`, `-x`, `-r`, `-d`, `--time-format iso`), `journalctl`'s short\n"
		    "modes (`short-unix` too), syslog (RFC 3164, RFC 5424, rsyslog's precise time),\n"
		    "`/dev/kmsg`, CRI (`stdout F `) and `docker logs -t` / `docker compose logs` is\n"
		    "dropped; syslog's note of a message it wrote once for several (rsyslog's\n"
		    "`message repeated 3 times: [ ...]`, syslogd's `last message repeated 3 times`)\n"
		    "is that message again, as often. A paste's marks are undone: terminal colour (with or without its ESC),\n"
		    "HTML entities, Unicode spaces and typographic quotes, CR line ends, UTF-16, markdown\n"
		    "quote markers (`> `) and inline-code backticks, markdown emphasis that took\n"
		    "DRM_ERROR's `*ERROR*` (\"[drm:func [radeon]] ERROR ...\"), a forum's line numbers and a\n"
		    "table's `|` borders before a stamp; a line where a newline was lost is split\n"
		    "at the next message's stamp, and a line a terminal (at its width) or a mail\n"
		    "client (at 72-78 columns) wrapped is joined again where its rest has no stamp\n"
		    "and the log's other lines do. An Xid whose address the poster elided still\n"
		    "counts, its GPU unknown (`logged_gpu`: the address as written). Fields are the pattern's\n"
		    "subexpressions (field = group number). Flags: `gpu` counts only when the line\n"
		    "names a GPU that the host drives with a GPU driver (not vfio-pci), that a GPU\n"
		    "driver's line of the log names, or the nvidia driver as the device; `no-nvidia` only when nvidia or nvidia_uvm is not loaded, or no later line of the log shows the refused module loading; `cause`:\n"
		    "the message says a GPU failed, not why: the finding names the message about\n"
		    "the same GPU before it (one that names that GPU, or names none with no line\n"
		    "about another GPU in between), else says the cause is not in the log;\n"
		    "`owner`: the GPUs are those the log shows another driver (nouveau) binding;\n"
		    "`sole`: the row's messages are amdgpu's (or, where the log has no amdgpu GPU,\n"
		    "radeon's), i915's or nvidia's even where they do\n"
		    "not say so, or (the DRM core's) any GPU driver's (a message that names no\n"
		    "device is about the log's only GPU of its driver: the one the row's `driver`\n"
		    "field names, else the one its flag says, else the one the message names as a\n"
		    "word, `NVRM`, `nvidia-uvm`, `[amdgpu]`, `kfd`, `i915`; a driver's lines\n"
		    "include drm's \"Initialized <driver> ... for <address>\", and a component's\n"
		    "\"bound <address> (ops ... [<driver>])\"; none when the log shows two or more; i915's, where no line names an Intel GPU, the integrated\n"
		    "GPU at 0000:00:02.0 unless the log enumerates another kind of device there or\n"
		    "the host has an Intel GPU elsewhere); `driven`: no\n"
		    "finding when the log shows the other Intel driver (i915 or xe) taking the GPU;\n"
		    "`oops`: the header of an oops, BUG or WARN, which counts when the code it\n"
		    "happened in is a GPU driver's (nvidia*, amdgpu, i915, xe): the WARN's location,\n"
		    "else the faulting instruction's module, else (the kernel's own code or a DRM\n"
		    "helper: drm, ttm, gpu_sched) the call trace's first sure frame of another\n"
		    "module; never the \"Modules linked in:\" list. One finding per oops, its GPU\n"
		    "the device of a WARN's own message or the driver's nearest line before it,\n"
		    "else the log's only GPU of that driver (`sole`);\n"
		    "`fallback`: a catch-all row whose finding gives way to a row of the same code\n"
		    "about the same GPU; `repeated`: counts only from a number of messages (corrected\n"
		    "PCIe errors); `announces`: no finding of its own when the next line says the same\n"
		    "of the same GPU (AER's port line before the device's); `repeats-N`: a message\n"
		    "working machines print once or twice (a DP AUX transfer that timed out) counts\n"
		    "only when the row's messages about one GPU with one key (its first field: an\n"
		    "AUX channel, a driver) came N times in the boot; fewer are no finding and join\n"
		    "none; `in-probe`: counts only inside i915's or xe's probe of the GPU (a frame of\n"
		    "the probe path, `i915_driver_probe`, `intel_gt_probe_all`, `intel_sseu_info_init`,\n"
		    "`xe_pci_probe`, ..., in a call trace before or after the line, or the driver's\n"
		    "\"Initialized\" or \"probe of ... failed\" line after it with none before it);\n"
		    "`not-routine`: a reset a working GPU also goes through, no finding inside amdgpu's\n"
		    "start of that GPU (drm's \"Initialized amdgpu ... for\" or its probe failure after the\n"
		    "line, none before it) or inside a system sleep; `unless-started`: a warning the\n"
		    "driver goes past, no finding when the start of the GPU it is in completes\n"
		    "(\"Initialized amdgpu ... for\" after it) or inside a system sleep.\n"
		    "A row whose pattern starts with nvidia's `NVRM: ` also counts without it at the\n"
		    "start of a message (a paste that cut the prefix: the words after it are nvidia's\n"
		    "own); `nvrm-required`: not this row, whose words other drivers print too.\n\n"
		    "Each row has a real line from a public report (or, where none was found, the\n"
		    "format string filled as the driver fills it) in `tests/doctor/kmsg/`, sources\n"
		    "in the README there; `test-doctor` says by hand, per log, the code, severity,\n"
		    "GPU and fields the finding must have. This page is written by\n"
		    "`tools/gen-kmsg-catalogue.py` from the table.\n\n"
		    "| id | code | severity | pattern | fields | cause | fix | flags | source |\n"
		    "|---|---|---|---|---|---|---|---|---|\n");
	size_t n;
	const struct lx_kmsg_entry *rows = lx_kmsg_catalogue(&n);
	for (size_t r = 0; r < n; r++) {
		struct lx_buf f = {0};
		for (size_t i = 0; i < LX_KMSG_FIELDS_MAX && rows[r].fields[i].name; i++)
			lx_buf_printf(&f, "%s%s=%u", f.len ? ", " : "", rows[r].fields[i].name,
				      rows[r].fields[i].group);
		_cleanup_free_ char *fields = lx_buf_steal(&f);
		_cleanup_free_ char *pattern = md_cell(rows[r].pattern);
		_cleanup_free_ char *cause = md_cell(rows[r].cause);
		_cleanup_free_ char *fix = md_cell(rows[r].fix);
		_cleanup_free_ char *source = md_cell(rows[r].source);
		char flags[256];
		lx_buf_printf(&b, "| `%s` | %s | %s | `%s` | %s | %s | %s | %s | %s |\n", rows[r].id,
			      lx_finding_info(rows[r].code)->code, lx_severity_name(rows[r].severity), pattern,
			      fields ? fields : "", cause, fix, flag_names(rows[r].flags, flags, sizeof(flags)),
			      source);
	}
	lx_buf_puts(&b, "\n## Xid numbers\n\n"
			"The `xid` row's severity, meaning and fix come from the number: NVIDIA's\n"
			"Xid catalogue (docs.nvidia.com/deploy/xid-errors, \"Analyzing Xid Errors\n"
			"with the Xid Catalog\"; 61 from the archived catalogue for older GPUs), the\n"
			"mnemonic as `src/common/sdk/nvidia/inc/nverror.h` of open-gpu-kernel-modules\n"
			"names it. A bucket that says the GPU must be reset or the host restarted\n"
			"(RESET_GPU, RESTART_BM, WORKFLOW_XID_48, WORKFLOW_NVLINK_ERR) is an error:\n"
			"the GPU is unusable for every container holding it until then. Xid 154\n"
			"carries the action itself (`action`): an error when it asks for a reset or a\n"
			"reboot. A number not listed is a warning that names it.\n\n"
			"| Xid | mnemonic | meaning | NVIDIA's bucket | severity | fix |\n"
			"|---|---|---|---|---|---|\n");
	size_t nx;
	const struct lx_xid_info *xids = lx_xid_catalogue(&nx);
	for (size_t x = 0; x < nx; x++) {
		_cleanup_free_ char *meaning = md_cell(xids[x].meaning);
		_cleanup_free_ char *fix = md_cell(xids[x].fix);
		lx_buf_printf(&b, "| %u | `%s` | %s | %s | %s | %s |\n", xids[x].number, xids[x].mnemonic, meaning,
			      xids[x].bucket, lx_severity_name(xids[x].severity), fix);
	}
	return lx_buf_steal(&b);
}

static void test_doc(const char *doc_path)
{
	char *doc = NULL;
	struct lx_error err = {0};
	if (!ok(lx_read_file(doc_path, 1 << 20, &doc, NULL, &err) == 0, doc_path)) {
		lx_error_clear(&err);
		return;
	}
	_cleanup_free_ char *want = catalogue_doc();
	if (!ok(strcmp(doc, want) == 0, "docs/kmsg-catalogue.md is the table (tools/gen-kmsg-catalogue.py)"))
		printf("#   regenerate it: tools/gen-kmsg-catalogue.py BUILD_DIR\n");
	free(doc);
}

/* journalctl -k without -b: "-- Boot <id> --" separates boots; the last
 * is the current one (journalctl(1): the separator starts each boot's
 * entries), the one before it is kept apart. */
static void test_journal_boots(void)
{
	struct lx_kmsg k;
	parse("-- Logs begin at Mon 2025-06-02 10:00:00 UTC, end at Tue 2025-06-03 10:00:00 UTC. --\n"
	      "Jun 02 10:00:01 pve kernel: Linux version 6.8.12-4-pve\n"
	      "Jun 02 10:00:05 pve kernel: NVRM: API mismatch: the client has the version 550.54, but\n"
	      "                                NVRM: this kernel module has the version 550.40.\n"
	      "-- Boot 9f0c2d1e3b4a4c5d8e7f6a5b4c3d2e1f --\n"
	      "Jun 03 09:00:01 pve kernel: Linux version 6.8.12-4-pve\n"
	      "Jun 03 09:00:02 pve kernel: nvidia-nvlink: Nvlink Core is being initialized, major device number 240\n",
	      &k);
	int_eq(k.boots, 2, "two boots seen");
	int_eq((long long)k.n, 2, "the last boot's lines are the current boot");
	str_eq(k.n ? k.lines[0].text : NULL, "Linux version 6.8.12-4-pve", "journal prefix removed");
	struct lx_kmsg_matches m;
	int_eq((long long)count_matches(&k, NULL, &m), 0, "the earlier boot's mismatch is not the current boot's");
	lx_kmsg_matches_free(&m);
	int_eq((long long)k.n_earlier, 1, "the earlier boot kept apart");
	if (k.n_earlier == 1) {
		int_eq((long long)k.earlier[0].n, 3, "with its lines (the mismatch's second one a continuation)");
		int_eq(k.earlier[0].n ? (long long)k.earlier[0].lines[0].lineno : 0, 2, "numbered as in the file");
	}
	lx_kmsg_free(&k);
}

/* dmesg of a saved file that holds two boots (a concatenated log): the
 * kernel prints "Linux version" first at every boot. */
static void test_dmesg_boots(void)
{
	struct lx_kmsg k;
	parse("[    0.000000] Linux version 6.5.13-1-pve\n"
	      "[    5.100000] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n"
	      "[    0.000000] Linux version 6.8.12-4-pve\n"
	      "[    5.200000] NVRM: GPU 0000:01:00.0 is already bound to nouveau.\n",
	      &k);
	int_eq(k.boots, 2, "dmesg: two boots");
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, NULL, &m);
	int_eq((long long)got, 1, "dmesg: one message of the current boot");
	if (got == 1) {
		str_eq(code_of(&m.items[0]), "LXG111", "the current boot's message: another driver has the GPU");
		str_eq(m.items[0].pci, "0000:01:00.0", "its GPU");
		str_eq(lx_kmsg_match_field(&m.items[0], "driver"), "nouveau", "and the driver");
	}
	lx_kmsg_matches_free(&m);
	/* doctor: the earlier boot's Xid 79 is history (info, said as such);
	 * the current boot's message keeps its severity */
	struct lx_host host = {0};
	struct lx_doctor_input in = {&host, NULL, &k, NULL, NULL, 0};
	struct lx_findings f = {0};
	struct lx_error err = {0};
	const struct lx_finding *xid = NULL, *bound = NULL;
	if (lx_doctor_host(&in, &f, &err) == 0)
		for (size_t i = 0; i < f.n; i++) {
			if (f.items[i].code == LXG109_FALLEN_OFF_BUS)
				xid = &f.items[i];
			if (f.items[i].code == LXG111_BOUND_ELSEWHERE)
				bound = &f.items[i];
		}
	ok(xid && xid->severity == LX_SEVERITY_INFO && strstr(xid->message, "GPU 0000:01:00.0: ") &&
		   strstr(xid->message, "in an earlier boot of the log, boot 1 of 2, lines 1-2") && xid->line == 2,
	   "dmesg: the earlier boot's Xid 79 is an info finding about its GPU, said to be from boot 1");
	ok(bound && bound->severity == LX_SEVERITY_ERROR && !strstr(bound->message, "earlier boot"),
	   "dmesg: the current boot's finding is an error as before");
	lx_error_clear(&err);
	lx_findings_free(&f);
	lx_kmsg_free(&k);
}

/* An earlier boot's message that the current boot shows again is the
 * current boot's finding only; two earlier boots with one cause, one
 * finding (the newer boot's). */
static void test_earlier_boots_once(void)
{
	struct lx_kmsg k;
	parse("[    0.000000] Linux version 6.5.13-1-pve\n"
	      "[    5.100000] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n"
	      "[    0.000000] Linux version 6.5.13-1-pve\n"
	      "[    6.100000] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n"
	      "[    6.200000] NVRM: Xid (PCI:0000:01:00): 13, Graphics Exception: ESR 0x404600=0x80000001\n"
	      "[    0.000000] Linux version 6.8.12-4-pve\n"
	      "[    7.100000] NVRM: Xid (PCI:0000:01:00): 13, Graphics Exception: ESR 0x404600=0x80000001\n",
	      &k);
	int_eq((long long)k.n_earlier, 2, "three boots: two earlier ones");
	struct lx_host host = {0};
	struct lx_doctor_input in = {&host, NULL, &k, NULL, NULL, 0};
	struct lx_findings f = {0};
	struct lx_error err = {0};
	size_t xid79 = 0, xid13 = 0;
	const struct lx_finding *fell = NULL;
	if (lx_doctor_host(&in, &f, &err) == 0)
		for (size_t i = 0; i < f.n; i++) {
			if (f.items[i].code == LXG109_FALLEN_OFF_BUS) {
				xid79++;
				fell = &f.items[i];
			}
			xid13 += f.items[i].code == LXG110_XID;
		}
	int_eq((long long)xid13, 1, "Xid 13 of the current boot and of boot 2: one finding");
	int_eq((long long)xid79, 1, "Xid 79 of boots 1 and 2: one finding");
	ok(fell && fell->line == 4 && strstr(fell->message, "boot 2 of 3"), "the newer earlier boot's (line 4)");
	lx_error_clear(&err);
	lx_findings_free(&f);
	lx_kmsg_free(&k);
}

/* One finding per cause and GPU, Xid numbers apart. */
static void test_grouping(void)
{
	struct lx_kmsg k;
	parse("May 18 19:02:39 host kernel: NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.\n"
	      "May 18 19:02:39 host kernel: NVRM: GPU 0000:2b:00.0: GPU has fallen off the bus.\n"
	      "May 18 19:02:40 host kernel: NVRM: Xid (PCI:0000:2b:00): 13, Graphics Exception\n"
	      "May 18 19:02:41 host kernel: NVRM: Xid (PCI:0000:2b:00): 31, Ch 00000013\n"
	      "May 18 19:02:41 host kernel: NVRM: Xid (PCI:0000:3b:00): 31, Ch 00000013\n"
	      "May 18 19:02:42 host kernel: nvidia 0000:07:00.0: Direct firmware load for nvidia/570.144/gsp_ga10x.bin failed with error -2\n"
	      "May 18 19:02:42 host kernel: NVRM: RmFetchGspRmImages: No firmware image found\n"
	      "May 18 19:02:42 host kernel: NVRM: GPU 0000:07:00.0: RmInitAdapter failed! (0x61:0x56:1770)\n",
	      &k);
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, NULL, &m);
	int_eq((long long)got, 6, "fallen off (2 lines), Xid 13, Xid 31 on two GPUs, firmware (2 lines), RmInitAdapter");
	if (got == 6) {
		str_eq(code_of(&m.items[0]), "LXG109", "Xid 79 and the text: one cause");
		int_eq((long long)m.items[0].count, 2, "counted twice");
		str_eq(m.items[0].pci, "0000:2b:00.0", "Xid's short address completed");
		ok(m.items[1].xid && m.items[2].xid && m.items[1].xid != m.items[2].xid, "Xid 13 and 31 stay apart");
		ok(m.items[2].pci && m.items[3].pci && strcmp(m.items[2].pci, m.items[3].pci) != 0,
		   "Xid 31 of two GPUs: two findings");
		str_eq(code_of(&m.items[4]), "LXG107", "firmware");
		int_eq((long long)m.items[4].count, 2, "both firmware lines one finding");
		str_eq(code_of(&m.items[5]), "LXG106", "RmInitAdapter");
		_cleanup_free_ char *ev = lx_kmsg_match_evidence(&k, &m, &m.items[5]);
		ok(strstr(ev, "gsp_ga10x.bin") && strstr(ev, "RmInitAdapter failed"),
		   "RmInitAdapter's evidence has its cause's lines");
	}
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* IOMMU faults count only for the host's GPUs. */
static void test_gpu_only(void)
{
	struct lx_host host = {0};
	struct lx_gpu gpus[2] = {{.bdf = (char *)"0000:41:00.0", .driver = (char *)"nvidia"},
				 {.bdf = (char *)"0000:81:00.0", .driver = (char *)"vfio-pci"}};
	host.gpus = gpus;
	host.n_gpus = 2;
	struct lx_kmsg k;
	parse("[ 10.1] DMAR: [DMA Read NO_PASID] Request device [0x00:0x02.0] fault addr 0x7c346000 [fault reason 0x06] PTE Read access is not set\n"
	      "[ 10.2] DMAR: [DMA Write] Request device [41:00.0] PASID ffffffff fault addr 9c000000 [fault reason 05] PTE Write access is not set\n"
	      "[ 10.3] vfio-pci 0000:81:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0003 address=0x80000040 flags=0x0020]\n",
	      &k);
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, &host, &m);
	int_eq((long long)got, 1, "the iGPU's fault and the VM's GPU's are not the nvidia GPU's");
	if (got == 1)
		str_eq(m.items[0].pci, "0000:41:00.0", "the GPU's fault, address completed");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	/* a GPU the host's model lacks (a saved log of another machine) that an
	 * amdgpu line of the log names: its fault counts; the host's amdgpu GPU
	 * too; the vfio-pci GPU still does not */
	gpus[0] = (struct lx_gpu){.bdf = (char *)"0000:05:00.0", .driver = (char *)"amdgpu"};
	parse("[ 5.0] amdgpu 0000:03:00.0: amdgpu: SMU is initialized successfully!\n"
	      "[ 10.1] AMD-Vi: Event logged [IO_PAGE_FAULT device=03:00.0 domain=0x000c address=0x1234000 flags=0x0020]\n"
	      "[ 10.2] amdgpu 0000:05:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000d address=0x0 flags=0x0020]\n"
	      "[ 10.3] vfio-pci 0000:81:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0003 address=0x80000040 flags=0x0020]\n",
	      &k);
	got = count_matches(&k, &host, &m);
	int_eq((long long)got, 2, "the log's amdgpu GPU and the host's amdgpu GPU fault, the VM's GPU not");
	if (got == 2) {
		str_eq(m.items[0].pci, "0000:03:00.0", "the log's amdgpu GPU");
		str_eq(m.items[1].pci, "0000:05:00.0", "the host's amdgpu GPU");
	}
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	/* a saved log of an Intel machine (no line names a GPU of the host):
	 * the IOMMU's requester 00:02.0 is its integrated GPU, unless the log
	 * enumerates another device there (a root port of an older Xeon) */
	gpus[0] = (struct lx_gpu){.bdf = (char *)"0000:41:00.0", .driver = (char *)"nvidia"};
	parse("(XEN) [VT-D]DMAR:[DMA Write] Request device [0000:00:02.0] fault addr 7fe0000, iommu reg = ffff82c000203000\n",
	      &k);
	got = count_matches(&k, &host, &m);
	int_eq((long long)got, 1, "Xen's fault of 00:02.0 in a saved log");
	if (got == 1)
		str_eq(m.items[0].pci, "0000:00:02.0", "the integrated GPU");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	parse("[ 0.3] pci 0000:00:02.0: [8086:2f04] type 01 class 0x060400\n"
	      "[ 10.1] DMAR: [DMA Read NO_PASID] Request device [00:02.0] fault addr 0x7c346000 [fault reason 0x06] PTE Read access is not set\n",
	      &k);
	int_eq((long long)count_matches(&k, &host, &m), 0, "a root port at 00:02.0 is no GPU");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	/* a saved log whose only mention of the GPU is nvidia's Xid line */
	parse("[ 100.1] NVRM: Xid (PCI:0000:3b:00): 31, pid=1234, name=python3, Ch 00000008\n"
	      "[ 100.2] DMAR: [DMA Read NO_PASID] Request device [3b:00.0] fault addr 0x7c346000 [fault reason 0x06] PTE Read access is not set\n",
	      &k);
	got = count_matches(&k, &host, &m);
	int_eq((long long)got, 2, "the Xid and the IOMMU fault of the GPU the Xid names");
	if (got == 2)
		str_eq(m.items[1].pci, "0000:3b:00.0", "the IOMMU fault's GPU");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* A refused NVIDIA module on a host that runs the driver now: history
 * when the log shows the module loading after it, else the log's state. */
static void test_module_refusal_history(void)
{
	struct lx_host host = {0};
	host.driver.version = (char *)"550.127.05";
	char *mods[] = {(char *)"nvidia", (char *)"nvidia_uvm"};
	host.driver.modules = (struct lx_strv){.items = mods, .n = 2};
	struct lx_kmsg k;
	struct lx_kmsg_matches m;
	parse("[ 12.0] nvidia_uvm: Unknown symbol nvUvmInterfaceRegisterGpu (err -2)\n", &k);
	int_eq((long long)count_matches(&k, &host, &m), 1, "a refusal the log does not see undone");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	parse("[ 12.0] nvidia_uvm: Unknown symbol nvUvmInterfaceRegisterGpu (err -2)\n"
	      "[ 80.0] nvidia-uvm: Loaded the UVM driver, major device number 508.\n",
	      &k);
	int_eq((long long)count_matches(&k, &host, &m), 0, "the module loaded later: history");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	parse("[ 12.0] nvidia: disagrees about version of symbol module_layout\n"
	      "[ 80.0] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.127.05  Tue Oct  8 03:22:07 UTC 2024\n",
	      &k);
	int_eq((long long)count_matches(&k, &host, &m), 0, "nvidia loaded later: history");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* The text forms a user pastes, each read down to the message. */
static void test_formats(void)
{
	struct lx_kmsg k;
	parse("Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version 535.54.03, but#012NVRM: this kernel module has the version 530.30.02.\n"
	      "<4>[   12.3] NVRM: GPU 0000:01:00.0 is already bound to nouveau.\n"
	      "kern  :warn  : [   12.4] NVRM: GPU 0000:02:00.0 is already bound to nouveau.\n"
	      /* talosctl dmesg (siderolabs/talos issues; open-gpu-kernel-modules#446) */
	      "192.168.11.119: kern: warning: [2026-04-22T21:27:51.291660856Z]: NVRM: GPU 0000:03:00.0 is already bound to nouveau.\n"
	      /* journalctl -o short-iso */
	      "2026-04-13T16:41:14+0200 nixos kernel: NVRM: GPU 0000:04:00.0 is already bound to nouveau.\n",
	      &k);
	int_eq((long long)k.n, 6, "syslog #012 splits the record");
	ok(k.n == 6 && k.lines[1].continuation, "its second part is a continuation");
	str_eq(k.n == 6 ? k.lines[2].text : NULL, "NVRM: GPU 0000:01:00.0 is already bound to nouveau.",
	       "dmesg -r level removed");
	str_eq(k.n == 6 ? k.lines[3].text : NULL, "NVRM: GPU 0000:02:00.0 is already bound to nouveau.",
	       "dmesg -x facility and level removed");
	str_eq(k.n == 6 ? k.lines[4].text : NULL, "NVRM: GPU 0000:03:00.0 is already bound to nouveau.",
	       "talosctl dmesg's node, facility, level and time removed");
	str_eq(k.n == 6 ? k.lines[5].text : NULL, "NVRM: GPU 0000:04:00.0 is already bound to nouveau.",
	       "journalctl short-iso prefix removed");
	lx_kmsg_free(&k);

	/* a mail archive's raw view of a quoted-printable mail (the dri-devel
	 * lspcon patch's report as lore's raw link shows it): a line cut at 76
	 * columns with "=" goes on at the next line, "=3D" is "="; without the
	 * header nothing is decoded */
	parse("Content-Type: text/plain; charset=\"us-ascii\"\n"
	      "Content-Transfer-Encoding: quoted-printable\n"
	      "\n"
	      "> [    3.031945] [drm:intel_ddi_init [i915]] *ERROR* LSPCON init failed on =\n"
	      "port D\n"
	      "[ 5.1] xe 0000:03:00.0: Unable to change power state from D3cold to D0, device inacc=\n"
	      "essible\n"
	      "[ 6.0] i915 0000:00:02.0: [drm] GPU HANG: ecode 9:1:85dffffb, in ffmpeg [1234], x=3D1\n",
	      &k);
	ok(k.n == 5, "quoted-printable: each soft line break's rest joined to its line");
	str_eq(k.n == 5 ? k.lines[2].text : NULL, "[drm:intel_ddi_init [i915]] *ERROR* LSPCON init failed on port D",
	       "quoted-printable: the quoted line whole again");
	str_eq(k.n == 5 ? k.lines[3].text : NULL,
	       "xe 0000:03:00.0: Unable to change power state from D3cold to D0, device inaccessible",
	       "quoted-printable: cut inside a word");
	str_eq(k.n == 5 ? k.lines[4].text : NULL, "i915 0000:00:02.0: [drm] GPU HANG: ecode 9:1:85dffffb, in ffmpeg [1234], x=1",
	       "quoted-printable: =3D is =");
	lx_kmsg_free(&k);
	parse("[ 6.0] i915 0000:00:02.0: [drm] GPU HANG: ecode 9:1:85dffffb, in ffmpeg [1234], x=3D1\n", &k);
	str_eq(k.n == 1 ? k.lines[0].text : NULL, "i915 0000:00:02.0: [drm] GPU HANG: ecode 9:1:85dffffb, in ffmpeg [1234], x=3D1",
	       "no quoted-printable header: =3D stays");
	lx_kmsg_free(&k);

	/* a page rendering Markdown turns "*ERROR*" into an emphasized "ERROR"
	 * (gitlab.freedesktop.org drm/i915/kernel#26, a log pasted outside a code
	 * block): after a "[drm...]" prefix the asterisks are put back; other
	 * words stay as they are */
	parse("[drm:pwm_setup_backlight [i915]] ERROR Failed to own the pwm chip\n"
	      "[   12.0] i915 0000:00:02.0: [drm] ERROR Link Training Unsuccessful\n"
	      "[   13.0] i915 0000:00:02.0: [drm] GPU HANG: ecode 9:1:85dffffb, in ERROR [1234]\n"
	      "[   14.0] ACPI Error: AE_NOT_FOUND, ERROR while evaluating\n",
	      &k);
	str_eq(k.n == 4 ? k.lines[0].text : NULL, "[drm:pwm_setup_backlight [i915]] *ERROR* Failed to own the pwm chip",
	       "Markdown's 'ERROR' after DRM_ERROR's prefix: '*ERROR*' again");
	str_eq(k.n == 4 ? k.lines[1].text : NULL, "i915 0000:00:02.0: [drm] *ERROR* Link Training Unsuccessful",
	       "and after drm_err()'s '[drm]'");
	str_eq(k.n == 4 ? k.lines[2].text : NULL, "i915 0000:00:02.0: [drm] GPU HANG: ecode 9:1:85dffffb, in ERROR [1234]",
	       "a word ERROR elsewhere in a drm line stays");
	str_eq(k.n == 4 ? k.lines[3].text : NULL, "ACPI Error: AE_NOT_FOUND, ERROR while evaluating",
	       "and in a line without a drm prefix");
	lx_kmsg_free(&k);

	/* a paste indented as a block (a mail's or a forum's code block, after
	 * a blank line): each line as far in as the one before is a message of
	 * its own, a line indented deeper is the rest of the one above it
	 * (lore.kernel.org mirrors, linux-pci, an Arc Pro B70's D3cold report) */
	parse("then fails with -EPROTO:\n"
	      "\n"
	      "    pcieport 0000:02:01.0: Unable to change power state from D3cold\n"
	      "                           to D0, device inaccessible\n"
	      "    xe 0000:03:00.0: Unable to change power state from D3cold to D0,\n"
	      "                     device inaccessible\n"
	      "    xe 0000:03:00.0: probe with driver xe failed with error -71\n",
	      &k);
	ok(k.n == 6 && !k.lines[1].continuation && k.lines[2].continuation && !k.lines[3].continuation &&
	       k.lines[4].continuation && !k.lines[5].continuation,
	   "a block indented as a whole: its lines messages, the deeper ones their rests");
	str_eq(k.n == 6 ? k.lines[3].text : NULL, "xe 0000:03:00.0: Unable to change power state from D3cold to D0,",
	       "the xe line is not the bridge's continuation");
	lx_kmsg_free(&k);
	/* the same without the blank line: the first indented line is the rest
	 * of the unindented one above it, as before */
	parse("[ 1.0] pcieport 0000:02:01.0: AER: found\n"
	      "    more of it\n"
	      "[ 1.1] xe 0000:03:00.0: probe with driver xe failed with error -71\n",
	      &k);
	ok(k.n == 3 && k.lines[1].continuation && !k.lines[2].continuation,
	   "an indented line under an unindented message is still its continuation");
	lx_kmsg_free(&k);

	/* syslog's notes of a message it wrote once for several: rsyslog's
	 * "message repeated N times: [ ...]" and BSD syslogd's "last message
	 * repeated N times" (FreeBSDDesktop/DEPRECATED-freebsd-base-graphics#68)
	 * are that message N times more; a note after nothing repeats nothing */
	parse("Aug 14 16:13:12 pve kernel: [  912.1] i915 0000:00:02.0: [drm] *ERROR* CPU pipe A FIFO underrun\n"
	      "Aug 14 16:13:12 pve kernel: message repeated 3 times: [ [  912.2] i915 0000:00:02.0: [drm] *ERROR* CPU pipe A "
	      "FIFO underrun]\n"
	      "Aug 14 16:13:13 pve kernel: [  913.0] i915 0000:00:02.0: [drm] *ERROR* Fault errors on pipe A: 0x00000080\n"
	      "Aug 14 16:13:13 pve last message repeated 2 times\n",
	      &k);
	size_t underruns = 0, faults = 0;
	for (size_t i = 0; i < k.n; i++) {
		underruns += strcmp(k.lines[i].text, "i915 0000:00:02.0: [drm] *ERROR* CPU pipe A FIFO underrun") == 0;
		faults += strcmp(k.lines[i].text, "i915 0000:00:02.0: [drm] *ERROR* Fault errors on pipe A: 0x00000080") == 0;
	}
	ok(k.n == 7 && underruns == 4 && faults == 3,
	   "rsyslog's 'message repeated 3 times' and syslogd's 'last message repeated 2 times': the message again");
	lx_kmsg_free(&k);
	parse("Aug 14 16:13:12 pve last message repeated 2 times\n", &k);
	int_eq((long long)k.n, 0, "a repetition note with no message before it: no line");
	lx_kmsg_free(&k);

	/* The legacy notice as talosctl dmesg writes a record of several
	 * lines: the record's later lines as the kernel has them (the text of
	 * nixos-hardware#1880, the prefix of siderolabs/talos#7043). */
	parse("10.20.30.29: kern:   err: [2026-05-17T15:55:50.123456789Z]: NVRM: The NVIDIA NVIDIA GeForce GTX 1050 GPU installed in this system is\n"
	      "NVRM:  supported through the NVIDIA 580.xx Legacy drivers. Please\n"
	      "NVRM:  visit http://www.nvidia.com/object/unix.html for more\n"
	      "NVRM:  information.  The 595.71.05 NVIDIA driver will ignore\n"
	      "NVRM:  this GPU.  Continuing probe...\n"
	      "10.20.30.29: kern:   err: [2026-05-17T15:55:50.123466789Z]: NVRM: No NVIDIA GPU found.\n",
	      &k);
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, NULL, &m);
	int_eq((long long)got, 2, "talos: the legacy notice and no GPU found");
	if (got == 2) {
		str_eq(code_of(&m.items[0]), "LXG103", "talos: the legacy notice");
		str_eq(lx_kmsg_match_field(&m.items[0], "branch"), "580.xx", "talos: the branch");
		str_eq(lx_kmsg_match_field(&m.items[0], "driver_version"), "595.71.05", "talos: the driver");
	}
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);

	/* /dev/kmsg escapes a record's newlines as "\x0a", and talosctl dmesg
	 * and `cat /dev/kmsg` show them so: the parts are the record's later
	 * lines (nv.c's probe refusal, filled from its format string) */
	parse("kern: warning: [2026-03-02T10:11:12.131415161Z]: NVRM: The NVIDIA GPU 0000:41:00.0 (PCI ID: 10de:26b5)\\x0aNVRM: "
	      "installed in this system is not supported by the\\x0aNVRM: NVIDIA 535.104.05 driver release.\\x0aNVRM: Please see "
	      "'Appendix A - Supported NVIDIA GPU Products'\n"
	      "4,1301,9123456,-;NVRM: API mismatch: the client has the version 535.54.03, but\\x0aNVRM: this kernel module has "
	      "the version 530.30.02.\n",
	      &k);
	int_eq((long long)k.n, 6, "/dev/kmsg's \\x0a splits the record");
	ok(k.n == 6 && k.lines[1].continuation && k.lines[3].continuation && !k.lines[4].continuation &&
	       k.lines[5].continuation,
	   "its later parts are continuations");
	str_eq(k.n == 6 ? k.lines[2].text : NULL, "NVRM: NVIDIA 535.104.05 driver release.", "a later part's text");
	got = count_matches(&k, NULL, &m);
	bool refused = false;
	for (size_t i = 0; i < got; i++)
		refused |= strcmp(code_of(&m.items[i]), "LXG103") == 0 &&
			   strcmp(lx_kmsg_match_field(&m.items[i], "gpu") ? lx_kmsg_match_field(&m.items[i], "gpu") : "",
				  "0000:41:00.0") == 0;
	ok(refused, "the escaped probe refusal is LXG103 for 0000:41:00.0");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);

	/* `cat /dev/kmsg`, dmesg -d, dmesg --time-format iso */
	parse("4,1234,5678901,-;NVRM: GPU 0000:05:00.0 is already bound to nouveau.\n"
	      "[  +0.000005 <    0.000005>] NVRM: GPU 0000:06:00.0 is already bound to nouveau.\n"
	      "2025-01-25T10:34:54,859532+00:00 NVRM: GPU 0000:07:00.0 is already bound to nouveau.\n",
	      &k);
	str_eq(k.n == 3 ? k.lines[0].text : NULL, "NVRM: GPU 0000:05:00.0 is already bound to nouveau.",
	       "a /dev/kmsg record's header removed");
	str_eq(k.n == 3 ? k.lines[1].text : NULL, "NVRM: GPU 0000:06:00.0 is already bound to nouveau.",
	       "dmesg -d's delta removed");
	str_eq(k.n == 3 ? k.lines[2].text : NULL, "NVRM: GPU 0000:07:00.0 is already bound to nouveau.",
	       "dmesg --time-format iso's time removed");
	lx_kmsg_free(&k);

	/* an Xid after a resume is the sleep's only when it is the first: the
	 * GPU faulted before the sleep too, the application is the cause */
	parse("[  100.000001] NVRM: Xid (PCI:0000:01:00): 13, pid=2211, name=game, Graphics Exception: ESR 0x404600=0x80000003\n"
	      "[  200.000001] PM: suspend entry (deep)\n"
	      "[  205.000001] Restarting tasks ... done.\n"
	      "[  205.000002] PM: suspend exit\n"
	      "[  206.000001] NVRM: Xid (PCI:0000:01:00): 13, pid=2211, name=game, Graphics Exception: ESR 0x404600=0x80000003\n",
	      &k);
	got = count_matches(&k, NULL, &m);
	bool after = false;
	for (size_t i = 0; i < got; i++)
		after |= strcmp(code_of(&m.items[i]), "LXG174") == 0;
	ok(got == 1 && !after, "an Xid before the sleep and after it: the Xid only, not the resume");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	/* a journal with systemd-sleep's lines (not -k only): its end of the
	 * sleep counts (systemd's "System returned from sleep operation") */
	parse("Dec 07 10:00:00 host systemd-sleep[123]: Entering sleep state 'suspend'...\n"
	      "Dec 07 10:05:00 host systemd-sleep[123]: System returned from sleep operation 'suspend'.\n"
	      "Dec 07 10:05:02 host kernel: NVRM: Xid (PCI:0000:01:00): 31, pid=5, name=kwin, Ch 00000010, "
	      "intr 00000000. MMU Fault\n",
	      &k);
	got = count_matches(&k, NULL, &m);
	after = false;
	for (size_t i = 0; i < got; i++)
		after |= strcmp(code_of(&m.items[i]), "LXG174") == 0 && same_str(m.items[i].pci, "0000:01:00.0");
	ok(got == 2 && after, "an Xid after systemd-sleep's 'System returned from sleep': the Xid and the resume");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
	/* and an Xid long after the resume (more than a page of log) is not its */
	{
		struct lx_buf b = {0};
		lx_buf_puts(&b, "[  205.000001] Restarting tasks ... done.\n");
		for (int l = 0; l < 150; l++)
			lx_buf_printf(&b, "[  %d.000001] usb 1-1: new high-speed USB device number %d using xhci_hcd\n", 300 + l, l);
		lx_buf_puts(&b, "[  999.000001] NVRM: Xid (PCI:0000:01:00): 31, pid=7, name=x, Ch 00000010, intr 00000000. MMU Fault\n");
		parse(b.data, &k);
		free(b.data);
	}
	got = count_matches(&k, NULL, &m);
	after = false;
	for (size_t i = 0; i < got; i++)
		after |= strcmp(code_of(&m.items[i]), "LXG174") == 0;
	ok(got == 1 && !after, "an Xid 150 lines after the resume: the Xid only");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);

	/* an unknown form is read as plain text, never dropped */
	parse("gpu-node-7 | 2026-01-02 03:04:05 | NVRM: Xid (PCI:0000:61:00): 119, pid=1, name=x, Timeout waiting for RPC from GSP!\n",
	      &k);
	got = count_matches(&k, NULL, &m);
	/* Xid 119 is two findings: the Xid, and the GSP that stopped (LXG108) */
	ok(got == 2 && m.items[0].xid && m.items[0].xid->number == 119, "an unknown prefix: the Xid still found");
	ok(got == 2 && strcmp(code_of(&m.items[1]), "LXG108") == 0, "Xid 119's second reading: the GSP stopped");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* journalctl -r: newest first. rm-init-gsp-timeout.log's lines (siderolabs/
 * extensions#909) and api-mismatch-journal.log's record, reversed by hand
 * as journalctl -r prints them (an entry's continuation lines stay under
 * it): read oldest first, the GSP failure is still RmInitAdapter's cause,
 * the minor joins its record, and the findings name the file's lines. */
static void test_reversed(void)
{
	const char *text =
		"Apr 19 12:34:42 Kyrios kernel: NVRM: API mismatch: the client 'nvidia-powerd' (pid 849)\n"
		"                               NVRM: has the version 570.133.07, but this kernel module has\n"
		"                               NVRM: the version 575.51.02.  Please make sure that this\n"
		"Apr 19 12:30:22 Kyrios kernel: NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n"
		"Apr 19 12:30:22 Kyrios kernel: NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x62:0x65:1859)\n"
		"Apr 19 12:30:22 Kyrios kernel: NVRM: iovaspaceDestruct_IMPL: 1 left-over mappings in IOVAS 0x100\n"
		"Apr 19 12:30:22 Kyrios kernel: NVRM: RmInitAdapter: Cannot initialize GSP firmware RM\n"
		"Apr 19 12:30:21 Kyrios kernel: NVRM: nvAssertOkFailedNoLog: Assertion failed: Call timed out [NV_ERR_TIMEOUT] (0x00000065) returned from kgspWaitForRmInitDone(pGpu, pKernelGsp)\n"
		"Apr 19 12:30:17 Kyrios kernel: NVRM: nvAssertFailedNoLog: Assertion failed: 0 @ kernel_gsp.c:1443\n"
		"Apr 19 12:30:13 Kyrios kernel: NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.172.08  Release Build\n"
		"Apr 19 12:30:01 Kyrios kernel: Linux version 6.12.40-talos (gcc 14.2.0)\n";
	struct lx_kmsg k;
	parse(text, &k);
	ok(k.n >= 10 && strstr(k.lines[0].text, "Linux version"), "journalctl -r: read oldest first (the boot's first line)");
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, NULL, &m);
	const struct lx_kmsg_match *init = NULL, *gsp = NULL, *mm = NULL;
	for (size_t i = 0; got != (size_t)-1 && i < m.n; i++) {
		if (strcmp(code_of(&m.items[i]), "LXG106") == 0)
			init = &m.items[i];
		if (strcmp(code_of(&m.items[i]), "LXG108") == 0)
			gsp = &m.items[i];
		if (strcmp(code_of(&m.items[i]), "LXG100") == 0)
			mm = &m.items[i];
	}
	ok(init && init->pci && strcmp(init->pci, "0000:01:00.0") == 0, "journalctl -r: RmInitAdapter of 0000:01:00.0");
	ok(init && gsp && init->cause && &m.items[init->cause - 1] == gsp,
	   "journalctl -r: the GSP failure logged before it is its cause");
	str_eq(init ? lx_kmsg_match_field(init, "minor") : NULL, "0", "journalctl -r: the minor joins its record");
	int_eq(init ? (long long)k.lines[init->first].lineno : -1, 5, "journalctl -r: the finding names the file's line");
	str_eq(mm ? lx_kmsg_match_field(mm, "module_version") : NULL, "575.51.02",
	       "journalctl -r: the API mismatch's continuation lines stay its own");
	if (got != (size_t)-1)
		lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);

	/* in order, with a later boot's times starting again: not reversed */
	parse("[    1.0] a\n[    2.0] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x62:0x65:1859)\n"
	      "[    2.1] NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n"
	      "[    0.0] Linux version 6.8\n[    3.0] b\n[    4.0] c\n",
	      &k);
	ok(k.n == 3 && strstr(k.lines[0].text, "Linux version"), "a log in order stays in order");
	lx_kmsg_free(&k);
}

/* nvidia's probe was not called: the GPUs are the ones nouveau took. */
static void test_owner_from_log(void)
{
	struct lx_kmsg k;
	/* nouveau's "NVIDIA %s (%08x)" of nvkm_device_ctor (drivers/gpu/drm/
	 * nouveau/nvkm/engine/device/base.c), then nv.c's notice */
	parse("[    3.100000] nouveau 0000:01:00.0: NVIDIA GP107 (137000a1)\n"
	      "[    3.200000] nouveau 0000:02:00.0: NVIDIA TU117 (167000a1)\n"
	      "[    9.215135] NVRM: The NVIDIA probe routine was not called for 2 device(s).\n"
	      "[    9.215145] NVRM: This can occur when another driver was loaded and \n"
	      "               NVRM: obtained ownership of the NVIDIA device(s).\n",
	      &k);
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, NULL, &m);
	int_eq((long long)got, 2, "one finding per GPU nouveau holds");
	if (got == 2) {
		str_eq(m.items[0].pci, "0000:01:00.0", "the first GPU");
		str_eq(m.items[1].pci, "0000:02:00.0", "the second GPU");
		str_eq(lx_kmsg_match_field(&m.items[0], "driver"), "nouveau", "the driver that has them");
		_cleanup_free_ char *cause = lx_kmsg_match_fill(&m.items[0], m.items[0].entry->cause);
		ok(strstr(cause, "nouveau") && strstr(cause, "2 NVIDIA device(s)"), "the cause names driver and count");
	}
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* doctor's findings say the GPU and the values, never "follow the message
 * before it". */
static void test_doctor_messages(void)
{
	struct lx_host host = {0};
	struct lx_kmsg k;
	_cleanup_free_ char *path = lx_xasprintf("%s/rm-init-two-gpus.log", kmsg_dir);
	struct lx_error err = {0};
	if (!ok(lx_kmsg_read_file(path, &k, &err) == 0, path)) {
		lx_error_clear(&err);
		return;
	}
	struct lx_doctor_input in = {&host, NULL, &k, NULL, NULL, 0};
	struct lx_findings f = {0};
	ok(lx_doctor_host(&in, &f, &err) == 0, "doctor runs");
	const struct lx_finding *bar = NULL, *init = NULL;
	for (size_t i = 0; i < f.n; i++) {
		if (f.items[i].code == LXG104_BAR_UNASSIGNED)
			bar = &f.items[i];
		if (f.items[i].code == LXG106_INIT_FAILED)
			init = &f.items[i];
	}
	ok(bar && strstr(bar->message, "GPU 0000:05:00.0") && strstr(bar->message, "BAR1 is 0M @ 0x0"),
	   "the BAR finding names the GPU and the BAR");
	ok(init && strstr(init->message, "GPU 0000:06:00.0") && strstr(init->message, "not in the log") &&
		   !strstr(init->message, "BAR"),
	   "the other GPU's failure is not explained by the first GPU's BAR");
	for (size_t i = 0; i < f.n; i++)
		ok(!strstr(f.items[i].fix, "message before it"), "no fix says 'follow the message before it'");
	lx_findings_free(&f);
	lx_kmsg_free(&k);

	/* the driver the log loaded before a GPU failed: its banner
	 * (rm-init-gsp-timeout.log, siderolabs/extensions#909: 570.172.08) */
	_cleanup_free_ char *gt = lx_xasprintf("%s/rm-init-gsp-timeout.log", kmsg_dir);
	if (ok(lx_kmsg_read_file(gt, &k, &err) == 0, gt)) {
		struct lx_doctor_input in3 = {&host, NULL, &k, NULL, NULL, 0};
		struct lx_findings f3 = {0};
		lx_doctor_host(&in3, &f3, &err);
		bool named = false;
		for (size_t i = 0; i < f3.n; i++)
			named |= f3.items[i].code == LXG106_INIT_FAILED && strstr(f3.items[i].message, "(driver 570.172.08)");
		ok(named, "the GPU's failure names the driver the log loaded (570.172.08)");
		lx_findings_free(&f3);
		lx_kmsg_free(&k);
	}
	lx_error_clear(&err);

	_cleanup_free_ char *mm = lx_xasprintf("%s/api-mismatch.log", kmsg_dir);
	if (lx_kmsg_read_file(mm, &k, &err) == 0) {
		struct lx_doctor_input in2 = {&host, NULL, &k, NULL, NULL, 0};
		struct lx_findings f2 = {0};
		lx_doctor_host(&in2, &f2, &err);
		const struct lx_finding *x = NULL;
		for (size_t i = 0; i < f2.n; i++)
			if (f2.items[i].code == LXG100_API_MISMATCH)
				x = &f2.items[i];
		ok(x && strstr(x->message, "kwin_wayland") && strstr(x->message, "595.84") &&
			   strstr(x->message, "595.80") && strstr(x->fix, "595.80"),
		   "the API mismatch says the client and both versions");
		lx_findings_free(&f2);
		lx_kmsg_free(&k);
	}
	lx_error_clear(&err);
}

static void write_at(const char *root, const char *rel, const char *text)
{
	_cleanup_free_ char *path = lx_path_join(root, rel);
	_cleanup_free_ char *dir = lx_xstrdup(path);
	*strrchr(dir, '/') = '\0';
	_cleanup_free_ char *cmd = lx_xasprintf("mkdir -p '%s'", dir);
	if (system(cmd) != 0)
		return;
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* What a live host shows without a log line: lockdown on with nvidia not
 * loaded (lockdown.c's file), no module for the running kernel, a module
 * whose vermagic names another kernel. */
static void test_live_facts(void)
{
	char tmpl[] = "/tmp/lxgpu-doctor-XXXXXX";
	const char *root = mkdtemp(tmpl);
	if (!ok(root != NULL, "a scratch root"))
		return;
	write_at(root, "proc/sys/kernel/osrelease", "6.8.12-4-pve\n");
	write_at(root, "proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1\n");
	write_at(root, "sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	write_at(root, "lib/modules/6.8.12-4-pve/modules.dep", "kernel/fs/fat/fat.ko:\n");
	write_at(root, "lib/modules/6.5.13-1-pve/updates/dkms/nvidia.ko", "not an ELF\n");
	_cleanup_free_ char *proc = lx_path_join(root, "proc");
	_cleanup_free_ char *sys = lx_path_join(root, "sys");
	_cleanup_free_ char *run = lx_path_join(root, "run");
	_cleanup_free_ char *dev = lx_path_join(root, "dev");
	struct lx_scan_paths paths = {.proc = proc, .dev = dev, .sys = sys, .firmware = "", .run = run};
	struct lx_host_facts f;
	lx_host_facts_read_root(&paths, root, &f);
	str_eq(f.lockdown, "integrity", "the lockdown mode in brackets");
	str_eq(f.kernel_release, "6.8.12-4-pve", "the running kernel");
	ok(f.modules_checked && f.module_path == NULL, "no nvidia module for the running kernel (only 6.5's)");

	struct lx_host host = {0};
	struct lx_gpu gpu = {.bdf = (char *)"0000:01:00.0"};
	host.gpus = &gpu;
	host.n_gpus = 1;
	struct lx_doctor_input in = {&host, &f, NULL, NULL, NULL, 0};
	struct lx_findings out = {0};
	struct lx_error err = {0};
	lx_doctor_host(&in, &out, &err);
	const struct lx_finding *lock = NULL, *mod = NULL;
	for (size_t i = 0; i < out.n; i++) {
		if (out.items[i].code == LXG127_SECURE_BOOT_UNSIGNED)
			lock = &out.items[i];
		if (out.items[i].code == LXG116_MODULE_WRONG_KERNEL)
			mod = &out.items[i];
	}
	ok(lock && strstr(lock->message, "lockdown is 'integrity'") && lock->evidence &&
		   strstr(lock->evidence, "[integrity]"),
	   "lockdown on, nvidia not loaded: LXG127 with the lockdown file as evidence");
	ok(mod && strstr(mod->message, "no nvidia module for the running kernel 6.8.12-4-pve"),
	   "no module for the running kernel: LXG116");
	lx_findings_free(&out);

	/* a module on disk whose vermagic names another kernel */
	free(f.module_path);
	f.module_path = lx_xstrdup("/lib/modules/6.8.12-4-pve/weak-updates/nvidia.ko");
	f.module_vermagic = lx_xstrdup("6.8.12-2-pve");
	lx_doctor_host(&in, &out, &err);
	mod = NULL;
	for (size_t i = 0; i < out.n; i++)
		if (out.items[i].code == LXG116_MODULE_WRONG_KERNEL)
			mod = &out.items[i];
	ok(mod && strstr(mod->message, "built for the kernel 6.8.12-2-pve") && strstr(mod->message, "6.8.12-4-pve"),
	   "a module built for another kernel: LXG116 names both kernels");
	lx_findings_free(&out);
	/* the same host with nvidia loaded: nothing of the kind */
	host.driver.version = (char *)"590.48.01";
	lx_doctor_host(&in, &out, &err);
	bool none = true;
	for (size_t i = 0; i < out.n; i++)
		none &= out.items[i].code != LXG116_MODULE_WRONG_KERNEL && out.items[i].code != LXG127_SECURE_BOOT_UNSIGNED;
	ok(none, "with nvidia loaded: no lockdown or module finding");
	lx_findings_free(&out);
	lx_host_facts_free(&f);

	/* An NVSwitch system (vendor 10de, class 0x0680 in sysfs) with the
	 * Fabric Manager package of 550.54.14 (dpkg's status file) */
	write_at(root, "sys/bus/pci/devices/0000:05:00.0/vendor", "0x10de\n");
	write_at(root, "sys/bus/pci/devices/0000:05:00.0/class", "0x068000\n");
	write_at(root, "sys/bus/pci/devices/0000:18:00.0/vendor", "0x10de\n");
	write_at(root, "sys/bus/pci/devices/0000:18:00.0/class", "0x030200\n");
	write_at(root, "var/lib/dpkg/status",
		 "Package: bash\nStatus: install ok installed\nVersion: 5.2.15-2+b7\n\n"
		 "Package: nvidia-fabricmanager-550\nStatus: install ok installed\nPriority: optional\n"
		 "Version: 550.54.14-1\n\nPackage: zlib1g\nStatus: install ok installed\nVersion: 1:1.2.13\n");
	lx_host_facts_read_root(&paths, root, &f);
	ok(f.nvswitches.n == 1 && strcmp(f.nvswitches.items[0], "0000:05:00.0") == 0, "the NVSwitch function, not the GPU");
	str_eq(f.fabricmanager_version, "550.54.14", "the Fabric Manager package's version");
	int_eq(f.fabricmanager_pid, -1, "no nv-fabricmanager process");
	host.driver.version = (char *)"550.54.14";
	lx_doctor_host(&in, &out, &err);
	const struct lx_finding *fm = NULL;
	for (size_t i = 0; i < out.n; i++)
		if (out.items[i].code == LXG117_FABRIC_NOT_READY)
			fm = &out.items[i];
	ok(fm && strstr(fm->message, "nv-fabricmanager is not running") && strstr(fm->message, "802") &&
		   strstr(fm->fix, "nvidia-fabricmanager-550"),
	   "switches without Fabric Manager: LXG117, CUDA error 802, the package to install");
	lx_findings_free(&out);
	lx_host_facts_free(&f);
	/* running, of another version than the module */
	write_at(root, "proc/4242/comm", "nv-fabricmanage\n");
	lx_host_facts_read_root(&paths, root, &f);
	int_eq(f.fabricmanager_pid, 4242, "nv-fabricmanager runs");
	host.driver.version = (char *)"550.90.07";
	lx_doctor_host(&in, &out, &err);
	fm = NULL;
	for (size_t i = 0; i < out.n; i++)
		if (out.items[i].code == LXG117_FABRIC_NOT_READY)
			fm = &out.items[i];
	ok(fm && strstr(fm->message, "550.54.14") && strstr(fm->message, "550.90.07"),
	   "Fabric Manager of another version than the module: LXG117 names both");
	lx_findings_free(&out);
	host.driver.version = (char *)"550.54.14";
	lx_doctor_host(&in, &out, &err);
	none = true;
	for (size_t i = 0; i < out.n; i++)
		none &= out.items[i].code != LXG117_FABRIC_NOT_READY;
	ok(none, "Fabric Manager of the module's version, running: no LXG117");
	lx_findings_free(&out);
	lx_host_facts_free(&f);

	/* An HGX B200: no NVSwitch on the host's PCI bus, ConnectX functions
	 * whose VPD says SW_MNG (the check of NVIDIA's gpu-driver-container,
	 * gpu-operator#2781), Fabric Manager running, mlx5_ib loaded, ib_umad
	 * not and no nvlsm: the user guide's NVLink 5 prerequisites missing */
	_cleanup_free_ char *nvsw = lx_path_join(root, "sys/bus/pci/devices/0000:05:00.0");
	_cleanup_free_ char *rmsw = lx_xasprintf("rm -rf '%s'", nvsw);
	if (system(rmsw) != 0)
		printf("# could not remove %s\n", nvsw);
	write_at(root, "sys/bus/pci/devices/0000:1a:00.0/vendor", "0x15b3\n");
	write_at(root, "sys/bus/pci/devices/0000:1a:00.0/class", "0x020700\n");
	write_at(root, "sys/bus/pci/devices/0000:1a:00.0/vpd", "\x82\x10" "ConnectX-7 SW_MNG\x90\x04" "PN:");
	write_at(root, "sys/bus/pci/devices/0000:1b:00.0/vendor", "0x15b3\n");
	write_at(root, "sys/bus/pci/devices/0000:1b:00.0/vpd", "\x82\x10" "ConnectX-7 HCA\x90");
	write_at(root, "sys/module/mlx5_ib/refcnt", "0\n");
	lx_host_facts_read_root(&paths, root, &f);
	ok(f.nvswitches.n == 0 && f.nvlink5_ports.n == 1 && strcmp(f.nvlink5_ports.items[0], "0000:1a:00.0") == 0,
	   "NVLink 5: the SW_MNG port, not the plain HCA");
	ok(f.mlx5_ib_loaded && !f.ib_umad_loaded && f.nvlsm_pid == -1, "mlx5_ib loaded, ib_umad not, no nvlsm");
	lx_doctor_host(&in, &out, &err);
	const struct lx_finding *nvl5 = NULL;
	for (size_t i = 0; i < out.n; i++)
		if (out.items[i].code == LXG119_NVLINK5_PREREQ)
			nvl5 = &out.items[i];
	ok(nvl5 && strstr(nvl5->message, "0000:1a:00.0") && strstr(nvl5->message, "ib_umad is not loaded") &&
		   strstr(nvl5->message, "nvlsm") && !strstr(nvl5->message, "mlx5_ib is not") &&
		   strstr(nvl5->message, "802") && strstr(nvl5->fix, "modprobe mlx5_ib ib_umad"),
	   "NVLink 5 without ib_umad and nvlsm: LXG119 names both and CUDA's 802");
	lx_findings_free(&out);
	lx_host_facts_free(&f);
	write_at(root, "sys/module/ib_umad/refcnt", "0\n");
	write_at(root, "proc/5151/comm", "nvlsm\n");
	lx_host_facts_read_root(&paths, root, &f);
	lx_doctor_host(&in, &out, &err);
	none = true;
	for (size_t i = 0; i < out.n; i++)
		none &= out.items[i].code != LXG119_NVLINK5_PREREQ && out.items[i].code != LXG117_FABRIC_NOT_READY;
	ok(f.nvlsm_pid == 5151 && none, "NVLink 5 with ib_umad, nvlsm and Fabric Manager: no LXG119 or LXG117");
	lx_findings_free(&out);
	lx_host_facts_free(&f);
	/* Fabric Manager stopped: LXG117 names the management ports */
	_cleanup_free_ char *fmproc = lx_path_join(root, "proc/4242");
	_cleanup_free_ char *rmfm = lx_xasprintf("rm -rf '%s'", fmproc);
	if (system(rmfm) != 0)
		printf("# could not remove %s\n", fmproc);
	lx_host_facts_read_root(&paths, root, &f);
	lx_doctor_host(&in, &out, &err);
	fm = NULL;
	for (size_t i = 0; i < out.n; i++)
		if (out.items[i].code == LXG117_FABRIC_NOT_READY)
			fm = &out.items[i];
	ok(fm && strstr(fm->message, "NVLink 5 switch management port (0000:1a:00.0)") &&
		   strstr(fm->message, "nv-fabricmanager is not running"),
	   "NVLink 5 without Fabric Manager: LXG117 names the management port");
	lx_findings_free(&out);
	lx_host_facts_free(&f);
	lx_error_clear(&err);
	_cleanup_free_ char *rm = lx_xasprintf("rm -rf '%s'", root);
	if (system(rm) != 0)
		printf("# could not remove %s\n", root);
}

static void test_cmdline_and_params(void)
{
	const char *cmd = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 iommu=on quiet iommu=pt "
			  "modprobe.blacklist=nouveau,nvidia_drm pci=realloc,noaer flag -- iommu=off";
	_cleanup_free_ char *iommu = lx_cmdline_get(cmd, "iommu");
	str_eq(iommu, "pt", "the last iommu= before -- wins");
	_cleanup_free_ char *flag = lx_cmdline_get(cmd, "flag");
	str_eq(flag, "", "a bare flag");
	_cleanup_free_ char *none = lx_cmdline_get(cmd, "nomodeset");
	ok(none == NULL, "absent");
	_cleanup_free_ char *pci = lx_cmdline_get(cmd, "pci");
	str_eq(pci, "realloc,noaer", "pci=");
	const char *params = "ResmanDebugLevel: 4294967295\nEnableResizableBar: 0\nModifyDeviceFiles: 1\n";
	_cleanup_free_ char *rebar = lx_nvidia_param_get(params, "EnableResizableBar");
	str_eq(rebar, "0", "a module parameter");
	_cleanup_free_ char *no = lx_nvidia_param_get(params, "EnableGpuFirmware");
	ok(no == NULL, "an absent parameter");
}

/* doctor --probe CTID: the container's code checked against the
 * container's own findings (verify's), never another container's: cuda.h
 * says 803 is CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (libcuda and the module of
 * different versions: LXG011), 100 CUDA_ERROR_NO_DEVICE (no node to open:
 * LXG016). */
static void test_container_probe_causes(void)
{
	struct lx_host host = {0};
	host.driver.version = (char *)"550.54.14";
	struct lx_findings f = {0};
	lx_findings_add(&f, LXG011_DRIVER_MISMATCH, "102", NULL, 0, NULL,
			lx_xstrdup("the container has driver libraries 535.183.01 (another container)"), NULL);
	lx_findings_add(&f, LXG016_NODE_MISSING_INSIDE, "102", NULL, 0, NULL,
			lx_xstrdup("/dev/nvidia0 is not in the running container (another container)"), NULL);
	struct lx_cuda_probe p = {.answered = true, .init = 803, .devices = -1,
				  .init_name = (char *)"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
				  .library = (char *)"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
	lx_doctor_probe_container(&host, "101", &p, 60000, &f);
	const struct lx_finding *last = &f.items[f.n - 1];
	ok(last->code == LXG133_CUDA_PROBE && strcmp(last->container, "101") == 0 &&
		   !strstr(last->message, "another container") && strstr(last->message, "in the container with 803"),
	   "803 in 101: another container's LXG011 is not its cause");
	lx_findings_add(&f, LXG011_DRIVER_MISMATCH, "101", NULL, 0, NULL,
			lx_xstrdup("the container has driver libraries 535.183.01 (/usr/lib/x86_64-linux-gnu/"
				   "libcuda.so.535.183.01) but the host runs kernel module 550.54.14"),
			NULL);
	lx_findings_add(&f, LXG016_NODE_MISSING_INSIDE, "101", NULL, 0, NULL,
			lx_xstrdup("/dev/nvidia-uvm is not in the running container"), NULL);
	lx_doctor_probe_container(&host, "101", &p, 60000, &f);
	last = &f.items[f.n - 1];
	ok(last->severity == LX_SEVERITY_ERROR && strstr(last->message, "libraries 535.183.01") &&
		   strstr(last->message, "(LXG011)") && !strstr(last->message, "nvidia-uvm"),
	   "803 in 101: its own LXG011 is the cause");
	p.init = 100;
	p.init_name = (char *)"CUDA_ERROR_NO_DEVICE";
	lx_doctor_probe_container(&host, "101", &p, 60000, &f);
	last = &f.items[f.n - 1];
	ok(strstr(last->message, "/dev/nvidia-uvm is not in the running container (LXG016)") &&
		   !strstr(last->message, "535.183.01"),
	   "100 in 101: its missing node (LXG016) is the cause, not its libraries");
	struct lx_cuda_probe stopped = {.unprobed = true, .devices = -1};
	lx_doctor_probe_container(&host, "101", &stopped, 60000, &f);
	last = &f.items[f.n - 1];
	ok(last->severity == LX_SEVERITY_INFO && strstr(last->message, "not running"),
	   "a stopped container: a note, nothing asked");
	struct lx_cuda_probe refused = {.enter_error = (char *)"setns into the init's namespaces: Operation not permitted",
					.devices = -1};
	lx_doctor_probe_container(&host, "101", &refused, 60000, &f);
	last = &f.items[f.n - 1];
	ok(last->severity == LX_SEVERITY_WARNING && strstr(last->message, "nothing of it was run") &&
		   strstr(last->message, "setns"),
	   "could not enter: a warning saying nothing ran and why");
	lx_findings_free(&f);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--print-doc") == 0) {
		_cleanup_free_ char *doc = catalogue_doc();
		fputs(doc, stdout);
		return 0;
	}
	if (argc < 3)
		return 2;
	kmsg_dir = argv[1];
	test_expectations();
	test_elided_xid();
	test_amd_init_causes();
	test_amd_sole_gpu();
	test_intel_sole_gpu();
	test_intel_pipe_fault();
	test_oops_sole_gpu();
	test_named_driver_sole_gpu();
	test_oops_owner();
	test_wrapped_forms();
	test_paste_forms();
	test_nvrm_prefix_cut();
	test_status_cut();
	test_paste_forms_clean();
	test_pm_callback_driver();
	test_pci_core_not_gpu();
	test_report_severity();
	test_every_row_has_a_case();
	test_sources_match();
	test_clean_logs();
	test_pm_oops_outside_pm();
	test_probe_warn_went_on();
	test_iommu_fault_before_enumeration();
	test_modeset_gpus();
	test_address_domain();
	test_doc(argv[2]);
	test_journal_boots();
	test_dmesg_boots();
	test_earlier_boots_once();
	test_kfd_probing_gpu();
	test_grouping();
	test_gpu_only();
	test_module_refusal_history();
	test_formats();
	test_reversed();
	test_owner_from_log();
	test_doctor_messages();
	test_live_facts();
	test_cmdline_and_params();
	test_container_probe_causes();
	return tap_done();
}
