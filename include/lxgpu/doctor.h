/* doctor: why CUDA does not start on this host (or in one container).
 *
 * Three sources, none of which opens a GPU node: the kernel log of the
 * current boot matched against a catalogue of known messages (each with its
 * cause and fix), the host model (module loaded and bound, nodes with the
 * live majors, GSP firmware, BARs), and facts a live host shows in /proc,
 * /sys and /run (kernel command line, module parameters, Secure Boot, the
 * persistence daemon). Every problem is a finding (findings.h) with the log
 * line or file that backs it as evidence. */
#ifndef LXGPU_DOCTOR_H
#define LXGPU_DOCTOR_H

#include "lxgpu/host.h"
#include "lxgpu/judge.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- the kernel log (src/doctor/kmsg.c) ---- */

struct lx_kmsg_line {
	char *text; /* the message: timestamp, host and "kernel:" prefixes removed */
	char *raw;  /* as read (what evidence quotes) */
	unsigned lineno; /* 1-based line of the saved log; 0 for /dev/kmsg */
	/* The line carries on the record before it: a kmsg record's later
	 * lines, an indented dmesg/journalctl line, syslog's "#012". */
	bool continuation;
};

/* The current boot's lines of a kernel log. */
struct lx_kmsg {
	char *source; /* "/dev/kmsg" or the saved log's path */
	struct lx_kmsg_line *lines;
	size_t n;
	unsigned boots; /* boots the saved log held, the current one included */
	/* A saved log's boots before the current one, oldest first, each with
	 * its own lines (and no earlier of its own): what the GPUs went
	 * through before the last restart (a crash the user rebooted after). */
	struct lx_kmsg *earlier;
	size_t n_earlier;
};

/* Read the kernel's ring buffer from its first record without blocking
 * (EAGAIN ends it; EPIPE, records overwritten while reading, is skipped).
 * path: "/dev/kmsg". Everything in it is the current boot. */
int lx_kmsg_read_device(const char *path, struct lx_kmsg *out, struct lx_error *err);
/* A saved log: dmesg (with or without timestamps, -T, -r, -x), journalctl
 * -k (short formats, with or without "-- Boot" separators) or syslog text.
 * The current boot is the lines after the last "-- Boot" separator or
 * "Linux version" line; the boots before it are kept apart in earlier
 * (each judged on its own). A log newest first (journalctl -r:
 * its times go down) is read oldest first, its lines keeping the file's
 * numbers. name is used in messages. */
void lx_kmsg_parse_text(const char *name, const char *text, size_t len, struct lx_kmsg *out);
int lx_kmsg_read_file(const char *path, struct lx_kmsg *out, struct lx_error *err);
void lx_kmsg_free(struct lx_kmsg *k);
/* The version nv.c's "NVRM: loading NVIDIA UNIX ... Kernel Module <ver>"
 * banner names, the last one at or before line; NULL when none. */
char *lx_kmsg_module_version_before(const struct lx_kmsg *log, size_t line);

/* ---- kernel oopses, BUGs and WARNs (src/doctor/oops.c) ---- */

/* One oops (or WARN) of the log and the module it happened in. */
struct lx_oops {
	const char *kind;   /* "NULL pointer dereference", "WARN", "soft lockup", ... */
	bool fatal;         /* an oops, BUG() or fault: the code it was in cannot go on */
	size_t start;       /* its first line: "cut here" before a WARN's own message */
	size_t first, last; /* the header to the line that names the module (the evidence) */
	size_t end;         /* its last line (the call trace's end) */
	char *module;       /* the module it happened in, NULL for the kernel's own code */
	const char *driver; /* the GPU driver that module is part of ("nvidia", "amdgpu",
			     * "i915", "xe"), NULL for another module */
	char *function;     /* "func+0x1f/0x170" of the WARN or the faulting instruction */
	char *process;      /* the CPU line's Comm */
	size_t message;     /* a WARN's own message after its header (kernels before
			     * 4.11 printed it there), 0 when none */
	/* The power transition it happened in: the call trace's sure frames
	 * of its own context run through a suspend or resume callback
	 * (dpm_run_callback, pci_pm_resume, amdgpu_pmops_suspend, ...).
	 * pm_step: "suspend", "resume", "runtime suspend", "runtime resume"
	 * or "power transition"; NULL when the trace shows none. */
	const char *pm_step;
	char *pm_callback; /* its innermost such frame, "pci_pm_resume+0x0/0xe0" */
	/* What else the fault's own context shows the driver doing: "GPU
	 * reset" (a ring timeout handler or the reset itself), "wait for the GPU" (a
	 * task hung waiting for the GPU's work), "probe", "shutdown" (the host
	 * rebooting or powering off: device_shutdown()); NULL when none. */
	const char *context;
	char *context_frame; /* its innermost such frame */
	bool cut;            /* no location, instruction nor trace: the driver is
			      * the one whose message the header follows */
	bool traced;         /* the report shows its call trace */
};
/* The oops whose header is line i of log: false when the line opens none.
 * The module is the WARN's location or the faulting instruction's; for the
 * kernel's code or a DRM helper's (drm, ttm, gpu_sched), the first sure
 * frame of another module in the call trace. "Modules linked in:" never
 * counts. */
bool lx_oops_read(const struct lx_kmsg *log, size_t i, struct lx_oops *out);
void lx_oops_free(struct lx_oops *o);

/* ---- the catalogue of known messages (src/doctor/catalogue.c) ---- */

enum {
	/* Counts only when the line names a GPU the host drives with a GPU
	 * driver, or one a GPU driver's line of the log names (or the nvidia
	 * driver as the device's): IOMMU faults of other devices, and of GPUs
	 * given to VMs, are not ours. */
	LX_KMSG_GPU_ONLY = 1u << 0,
	/* Counts only when an NVIDIA module is not loaded: a refused module
	 * while nvidia and nvidia_uvm run is someone else's (or history). */
	LX_KMSG_NVIDIA_MISSING = 1u << 1,
	/* The message says that a GPU failed, not why (RmInitAdapter): its
	 * cause is the message about the same GPU before it, found by
	 * lx_kmsg_match_all (struct lx_kmsg_match's cause). */
	LX_KMSG_NEEDS_CAUSE = 1u << 2,
	/* The message names no GPU but another driver holds them (nvidia's
	 * probe was not called): the GPUs are those the log shows that driver
	 * (nouveau, nova_core, nvidiafb, rivafb) binding. */
	LX_KMSG_OWNER_FROM_LOG = 1u << 3,
	/* The message may go on in the next "NVRM: " records (older drivers
	 * printed one record a line; RmInitAdapter's record is followed by
	 * rm_init_adapter's). Other rows match within their own record: an
	 * Xid line never runs into the next Xid. */
	LX_KMSG_RECORDS = 1u << 4,
	/* An amdgpu message that older kernels print without the address
	 * (DRM_ERROR, "[drm:func [amdgpu]] *ERROR* ..."): when the log's
	 * amdgpu lines ("amdgpu 0000:03:00.0: ...") name one GPU only, it is
	 * about that GPU; with two or more it stays unnamed. */
	LX_KMSG_SOLE_AMDGPU = 1u << 5,
	/* The driver's own report of a failure the kernel already logged
	 * (i915's "fetch failed" and "Failed to load DMC firmware" after the
	 * firmware loader's "Direct firmware load ... failed" for the same
	 * file; a reset step after the hang it follows: amdgpu's "GPU reset
	 * begin!" after a ring timeout, i915's "Resetting chip for ..." after
	 * "GPU HANG"): merged into that finding, it does not count again. */
	LX_KMSG_RESTATES = 1u << 6,
	/* Kernel modesetting turned off (nomodeset, amdgpu.modeset=0, the
	 * VGACON line): the GPUs are the AMD or Intel display devices the log
	 * shows enumerated ("pci 0000:0d:00.0: [1002:687f] type 00 class
	 * 0x030000") that no line of amdgpu, radeon, i915 or xe names (the
	 * driver did not take them), one finding each; none found: a message
	 * naming a driver stays without a GPU, a bare nomodeset is no finding
	 * (an NVIDIA host may boot with it). */
	LX_KMSG_DISPLAY_GPU = 1u << 7,
	/* A message naming no device: the log's only GPU (of the driver its
	 * "driver" field names, else of any GPU driver: amdgpu, radeon, i915,
	 * xe, nvidia, nouveau) is the one; with two or more it stays unnamed. */
	LX_KMSG_SOLE_GPU = 1u << 8,
	/* The PCI core's message about any device ("vfio-pci 0000:0b:00.0:
	 * not ready ..."): it counts when a GPU driver's line names the device
	 * or the kernel enumerated it as an NVIDIA, AMD or Intel display device. */
	LX_KMSG_PCI_GPU = 1u << 9,
	/* An i915 message that older kernels print without the address
	 * (DRM_ERROR "[drm:func [i915]] *ERROR* ...", DRM_INFO "[drm] ..."): as
	 * LX_KMSG_SOLE_GPU for i915 when the row captures no driver (the log's
	 * i915 lines, "[drm] Initialized i915 ... for 0000:00:02.0" included). */
	LX_KMSG_SOLE_INTEL = 1u << 10,
	/* A driver's refusal of a GPU that another driver of the same vendor
	 * may take (xe declines a GPU i915 drives, and the reverse): no finding
	 * when the log shows the other driver's lines for that GPU. */
	LX_KMSG_UNLESS_DRIVEN = 1u << 11,
	/* The header of an oops, BUG or WARN (lx_oops_read): it counts when
	 * the code it happened in is a GPU driver's; its GPU is the address of
	 * a WARN's own message, else of that driver's nearest line before it,
	 * else the log's only GPU of that driver (bind_sole_gpu). */
	LX_KMSG_OOPS = 1u << 12,
	/* A catch-all row (any line of nouveau): its finding gives way to a
	 * row of the same code that says more about the same GPU (nvidia's
	 * "probe routine was not called", "already bound to nouveau"). With
	 * LX_KMSG_RESTATES too (amdgpu's errors by IP block), its messages
	 * join a row that says more without counting, and a restating row
	 * does not give way to it. */
	LX_KMSG_FALLBACK = 1u << 13,
	/* A second reading of a message that another row names first (Xid
	 * 119, a GSP RPC timeout: an Xid, and the GSP that stopped answering):
	 * never a line's first match; its finding comes beside that row's, so
	 * the cause is named whichever way the log is read. */
	LX_KMSG_ALSO = 1u << 14,
	/* A message that announces the next one about the same device (AER's
	 * port: "error received: 0000:01:00.0", then the device's own "PCIe Bus
	 * Error" line): no event of its own when that next line is a message
	 * of the same code about the same GPU. */
	LX_KMSG_ANNOUNCES = 1u << 15,
	/* An NVRM message that names no GPU (NV_ERR_RESET_REQUIRED's
	 * assertion, an API mismatch): as LX_KMSG_SOLE_GPU for nvidia, the
	 * log's only NVIDIA GPU ("nvidia 0000:01:00.0:", "NVRM: GPU ..."). */
	LX_KMSG_SOLE_NVIDIA = 1u << 16,
	/* drm_edid's dump of the EDID it rejected follows the message, a line
	 * each ("[00] BAD  00 ff ff ...", "[00] ZERO 00 00 ..."): the dump is
	 * part of the message, and an EDID of zeroes only (a port with nothing
	 * behind it, a KVM switch answering for no monitor) is no failure. */
	LX_KMSG_EDID_DUMP = 1u << 17,
	/* A message of Intel's IOMMU (VT-d) about a requester no line of the
	 * log shows to be a GPU: 0000:00:02.0 is the integrated GPU (Intel's
	 * fixed address for it) unless the log enumerates another device
	 * there (catalogue.c intel_igd()). */
	LX_KMSG_INTEL_IGD = 1u << 18,
	/* A PCIe port's message (its "port" field, pciehp's "Slot(3): Link
	 * Down"): about the one GPU the log shows below that port, on a bus in
	 * the range the log's "PCI bridge to [bus 05-2e]" line of the port
	 * gives; none or several: no finding (PCI_GPU). */
	LX_KMSG_BEHIND_PORT = 1u << 19,
	/* A line of the firmware's error record (APEI/GHES, "{3}[Hardware
	 * Error]: ..."): counts unless the record's header says the hardware
	 * corrected the error ("Error 0, type: corrected", "event severity:
	 * corrected"; catalogue.c cper_corrected()). */
	LX_KMSG_CPER_RECORD = 1u << 20,
	/* Counts only inside a system sleep: the log shows one starting
	 * ("PM: suspend entry", "Freezing user space processes", "ACPI: PM:
	 * Waking up from system sleep state S3") before the line, and neither
	 * its end ("Restarting tasks", "PM: suspend exit") nor a GPU reset
	 * between (amdgpu prints the same IP-block lines in a reset). */
	LX_KMSG_IN_SLEEP = 1u << 21,
	/* Counts only inside an Intel driver's probe of the GPU: a frame of
	 * i915's or xe's probe path in a call trace before or after the line
	 * (i915_driver_probe, intel_gt_probe_all, intel_sseu_info_init, ...),
	 * or the driver's "[drm] Initialized i915 ... for" after it with none
	 * before it (catalogue.c in_driver_probe()). */
	LX_KMSG_IN_PROBE = 1u << 22,
	/* Counts only when the system has just come back from a sleep: the
	 * nearest PM line before it, within a page of log, ends one ("PM:
	 * suspend exit", "Restarting tasks", systemd-sleep's "System returned
	 * from sleep operation"), and no line of the same kind
	 * (an Xid) came before that sleep: the first fault after a resume
	 * (catalogue.c first_after_resume()). */
	LX_KMSG_AFTER_RESUME = 1u << 23,
	/* A row whose pattern starts with nvidia's "NVRM: " prefix counts
	 * without it too, at the start of a record: a paste that lost the
	 * prefix (a grep for the words after it, a copy from the middle of
	 * the line) still holds nvidia's own sentence. This flag keeps the
	 * prefix required where the words after it are ones other drivers
	 * print as well (catalogue.c nvrm_prefix()). */
	LX_KMSG_NVRM_REQUIRED = 1u << 24,
	/* A line amdkfd prints about a device it names by PCI ID only
	 * ("kfd kfd: skipped device 1002:67df, PCI rejects atomics"): amdgpu
	 * probes one GPU at a time and calls amdkfd from that probe, so the
	 * GPU is the one amdgpu's nearest line before it names (catalogue.c
	 * bind_probing_gpu()). */
	LX_KMSG_IN_AMDGPU_PROBE = 1u << 25,
	/* A reset a working GPU also goes through: counts only outside the
	 * driver's start of that GPU (the line's address; the driver's "[drm]
	 * Initialized amdgpu ... for" it after the line, with none before it)
	 * and outside a system sleep (LX_KMSG_IN_SLEEP's test): amdgpu resets
	 * at probe a GPU the firmware or an earlier driver left running, and
	 * every GPU before S3 and hibernation, printing the same line as after
	 * a hang (catalogue.c in_amdgpu_probe()). */
	LX_KMSG_NOT_ROUTINE = 1u << 26,
	/* A warning the driver goes past: no finding when the start of the
	 * GPU it is printed in completes ("[drm] Initialized amdgpu ... for"
	 * after it, none before it; the line's address, else the GPU amdgpu is
	 * probing) or when it is printed inside a system sleep: amdgpu_psp.c
	 * psp_cmd_submit_buf() only warns of a command's status, "to avoid
	 * breaking hw_init", and fails it on a timeout or an SR-IOV VF, where
	 * the start does not complete (catalogue.c amdgpu_probe_end()). */
	LX_KMSG_UNLESS_STARTED = 1u << 27,
};
/* The rows whose lines without an address are the log's only GPU of a driver. */
#define LX_KMSG_SOLE_ANY (LX_KMSG_SOLE_AMDGPU | LX_KMSG_SOLE_GPU | LX_KMSG_SOLE_INTEL | LX_KMSG_SOLE_NVIDIA)
/* A row whose single message is noise a working machine prints (one DP
 * AUX transfer that timed out, a FIFO underrun): its messages about one
 * GPU with one key (the row's first field: an AUX channel, a driver)
 * count only when they came at least N times in the boot; fewer are no
 * event, and they never join another row's finding (corrected PCIe
 * errors: a few at boot are common). N (1-127) in bits 32-38 of the
 * flags, above the enum's flags (bits 28-31 are free for new ones). */
#define LX_KMSG_REPEATS(n) ((uint64_t)(n) << 32)
#define LX_KMSG_REPEATS_OF(flags) ((unsigned)(((uint64_t)(flags) >> 32) & 0x7f))

/* A part of a message the row's pattern captures: name, and the number of
 * the pattern's parenthesised subexpression that holds it. The field
 * "gpu" is a PCI address (normalised, completed from the host's GPUs);
 * "xid" is an Xid number, looked up in the Xid catalogue. Group 0: a
 * field doctor derives ("action" of Xid 154, "driver" holding the GPUs). A row's first
 * field is its key: two messages of one row are one cause only when their
 * keys are equal (the same client version, the same module, the same Xid). */
#define LX_KMSG_FIELDS_MAX 10
struct lx_kmsg_field {
	const char *name;
	unsigned group;
};

/* One known message. The rows live in one table (catalogue.c), documented
 * in docs/kmsg-catalogue.md; tests/doctor/kmsg/<id>.log holds a real line
 * from a public report (or the format string as the driver fills it) for
 * each, and test-doctor says by hand what each must give. */
struct lx_kmsg_entry {
	const char *id;      /* stable name: "api-mismatch", "xid-79" */
	const char *pattern; /* POSIX extended regex over the message (continuations joined) */
	enum lx_finding_code code;
	enum lx_severity severity; /* the Xid row: the number's (struct lx_xid_info) */
	/* cause and fix may name fields as {name}: the finding says them */
	const char *cause;
	const char *fix;
	uint64_t flags; /* LX_KMSG_* bits, and LX_KMSG_REPEATS(n) */
	struct lx_kmsg_field fields[LX_KMSG_FIELDS_MAX];
	const char *source; /* where the message is printed: file, function, format string */
};
const struct lx_kmsg_entry *lx_kmsg_catalogue(size_t *n);

/* NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors, "Analyzing
 * Xid Errors with the Xid Catalog", Ampere and newer; the archived one
 * for older GPUs) for the numbers doctor names: the mnemonic (nverror.h
 * of open-gpu-kernel-modules), what it means, NVIDIA's resolution bucket
 * (immediate action) and what doctor makes of it. An Xid whose bucket
 * says the GPU must be reset (or the host restarted) is an error. */
struct lx_xid_info {
	unsigned number;
	const char *mnemonic;
	const char *meaning;
	const char *bucket; /* "RESET_GPU", "RESTART_APP", ... as the catalogue spells it */
	enum lx_severity severity;
	const char *fix;
};
const struct lx_xid_info *lx_xid_catalogue(size_t *n);
const struct lx_xid_info *lx_xid_lookup(unsigned number);
/* RmInitAdapter's stage (osinit.c's rm_init_status name, the "stage"
 * field of its finding) in words, NULL for a name not known. */
const char *lx_rm_init_stage_text(const char *name);

/* One message of the log that a row matched (the same row, device and key
 * again: counted in it). */
struct lx_kmsg_match {
	const struct lx_kmsg_entry *entry;
	size_t first, last; /* the lines of its first occurrence */
	char *pci;          /* the GPU it is about, sysfs spelling; NULL when the log does not say */
	size_t count;       /* how often the same row matched for the same device and key */
	char *values[LX_KMSG_FIELDS_MAX]; /* entry->fields[i]'s text; NULL where the message lacks it */
	const struct lx_xid_info *xid;    /* the Xid row: the number's entry, NULL for one not in it */
	enum lx_severity severity;        /* the row's, or the Xid's */
	/* LX_KMSG_NEEDS_CAUSE: 1 + the index of the match that says why (a
	 * message about the same GPU before it), 0 when the log does not say */
	size_t cause;
};
struct lx_kmsg_matches {
	struct lx_kmsg_match *items; /* in log order of their first occurrence */
	size_t n;
};
/* Match every message against the catalogue (first matching row wins; the
 * same row for the same device and key is counted once). A message that
 * names no GPU is bound to the one a later RmInitAdapter failure names when
 * no line between them is about another GPU. host: for GPU-only rows and to
 * complete a short PCI address (may be NULL: then every row counts). */
int lx_kmsg_match_all(const struct lx_kmsg *log, const struct lx_host *host,
		      struct lx_kmsg_matches *out, struct lx_error *err);
void lx_kmsg_matches_free(struct lx_kmsg_matches *m);
/* The value of a field of a match; NULL when absent. */
const char *lx_kmsg_match_field(const struct lx_kmsg_match *m, const char *name);
/* text with every {name} replaced by the match's field ("?" when absent). */
char *lx_kmsg_match_fill(const struct lx_kmsg_match *m, const char *text);
/* The lines of a match, joined by newlines (the evidence); with a cause,
 * the cause's lines first. */
char *lx_kmsg_match_evidence(const struct lx_kmsg *log, const struct lx_kmsg_matches *all,
			     const struct lx_kmsg_match *m);

/* ---- facts only a live host shows (src/doctor/facts.c) ---- */

enum lx_secure_boot {
	LX_SECURE_BOOT_UNKNOWN, /* EFI without a readable SecureBoot variable */
	LX_SECURE_BOOT_OFF,     /* the variable says 0, or a BIOS (non-EFI) boot */
	LX_SECURE_BOOT_ON,
};

struct lx_host_facts {
	bool live;            /* read from this machine (false: a snapshot, none of these known) */
	char *cmdline;        /* /proc/cmdline, NULL when unreadable */
	char *params;         /* /proc/driver/nvidia/params, NULL when absent */
	enum lx_secure_boot secure_boot;
	char *secure_boot_source; /* the efivar file read, or why none */
	int persistenced_pid; /* a live nvidia-persistenced, else -1 */
	char *persistenced_pidfile;
	/* kernel lockdown (/sys/kernel/security/lockdown, the mode in
	 * brackets: "none", "integrity", "confidentiality"); NULL without LSM */
	char *lockdown;
	char *lockdown_source;
	char *kernel_release; /* /proc/sys/kernel/osrelease */
	/* the nvidia module modprobe would load for the running kernel (as
	 * predict finds it under <root>/lib/modules/<release>), and the
	 * kernel its vermagic names (its first word); NULL when none */
	char *module_path;
	char *module_vermagic;
	bool modules_checked; /* the module tree was looked at */
	/* NVSwitch systems (HGX/DGX): the switches' PCI functions (vendor
	 * 0x10de, class 0x0680xx), a live nv-fabricmanager, and the version of
	 * the installed Fabric Manager package (<root>/var/lib/dpkg/status);
	 * the last two only looked for when there are switches */
	struct lx_strv nvswitches;
	int fabricmanager_pid; /* -1: none running */
	char *fabricmanager_package;
	char *fabricmanager_version; /* upstream version, "550.54.15" */
	/* NVLink 5 systems (HGX/DGX B200, GB200): the switches are managed
	 * through ConnectX functions (vendor 0x15b3) whose VPD says "SW_MNG",
	 * as NVIDIA's driver container detects them; Fabric Manager then
	 * needs mlx5_ib and ib_umad loaded and nvlsm (the NVLink Subnet
	 * Manager) running. Looked for only when there are such ports. */
	struct lx_strv nvlink5_ports;
	bool mlx5_ib_loaded, ib_umad_loaded; /* <sys>/module/NAME */
	/* AMD (0x1002) and Intel (0x8086) display functions (class 0x03xxxx)
	 * with no driver bound: the host model leaves them out (no DRM node),
	 * kernel modesetting off (nomodeset) leaves them so */
	struct lx_strv driverless_amd, driverless_intel;
	int nvlsm_pid;                       /* -1: none running */
};
/* Read them under paths (proc, sys, run) and, for the module tree, root
 * ("/"); nothing is opened but files. */
void lx_host_facts_read(const struct lx_scan_paths *paths, struct lx_host_facts *out);
void lx_host_facts_read_root(const struct lx_scan_paths *paths, const char *root,
			     struct lx_host_facts *out);
void lx_host_facts_free(struct lx_host_facts *f);
/* The value of a kernel command line parameter ("iommu" -> "pt"), the
 * last one given; "" for a bare flag; NULL when absent. */
char *lx_cmdline_get(const char *cmdline, const char *key);
/* The value of a module parameter in /proc/driver/nvidia/params text
 * ("EnableResizableBar" -> "0"); NULL when absent. */
char *lx_nvidia_param_get(const char *params, const char *key);
struct lx_doc;
/* All of them as a map (doctor's JSON); null without params. */
struct lx_doc *lx_nvidia_params_doc(const char *params);

/* ---- the checks (src/doctor/doctor.c) ---- */

struct lx_doctor_input {
	const struct lx_host *host;
	const struct lx_host_facts *facts; /* NULL or !live: only the model is judged */
	const struct lx_kmsg *kmsg;        /* NULL: the kernel log was not read */
	const char *kmsg_error;            /* why it was not read (LXG129), or NULL */
	const struct lx_cuda_probe *probe; /* doctor --probe's answer, or NULL */
	int probe_timeout_ms;
};

/* Every host check, in order: the host model's prerequisites, the live
 * facts, the kernel log. A module adds its checks to the table in
 * doctor.c. */
int lx_doctor_host(const struct lx_doctor_input *in, struct lx_findings *out, struct lx_error *err);
/* Peer-to-peer readiness of the GPUs bound to nvidia (lx_p2p_assess):
 * LXG160 for GPUs whose IOMMU group translates, LXG161 per set of
 * redirecting switch ports, LXG162 when a fact is unknown; none with
 * fewer than two GPUs on nvidia (src/doctor/p2p.c). */
void lx_doctor_p2p(const struct lx_host *host, struct lx_findings *out);

/* The container's userspace driver libraries against the loaded module:
 * versions found in its root (lx_rootfs_driver_versions), and whether they
 * match. */
struct lx_doctor_userspace {
	bool checked;        /* its root could be read */
	struct lx_strv versions;
	struct lx_strv files;
};
void lx_doctor_userspace_free(struct lx_doctor_userspace *u);
/* verify's findings of one container (lx_verify_container: config,
 * running container, rootfs) and the versions of the driver libraries in
 * its root. */
int lx_doctor_container(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			const struct lx_runtime_paths *paths, struct lx_findings *out,
			struct lx_container_report *report, struct lx_doctor_userspace *u,
			struct lx_error *err);

/* ---- doctor --probe: CUDA asked (src/doctor/probe.c) ---- */

struct lx_cuda_probe {
	char *library;    /* the file the loader took for the soname; NULL when unknown */
	char *load_error; /* dlopen's error (or a library without cuInit); NULL when loaded */
	bool answered;    /* cuInit returned */
	int init;         /* its CUresult */
	char *init_name;  /* "CUDA_ERROR_NOT_INITIALIZED" (cuGetErrorName, else cuda.h's) */
	int devices;      /* cuDeviceGetCount after a successful cuInit; -1 otherwise */
	bool timed_out;   /* killed at the deadline */
	int crashed_signal; /* the signal that ended it, 0 when none */
	char *enter_error; /* inside a container: what could not be set up (nothing ran); NULL */
	bool unprobed;     /* with CTID: the container is not running, nothing was asked */
};
/* Where a probe runs inside a running container: its init as pinned by
 * lx_container_find, and what the child takes from it (src/doctor/enter.c). */
struct lx_probe_target {
	int pidfd;          /* the init's (borrowed from the lx_running) */
	struct lx_strv cgroup_procs; /* its cgroups' cgroup.procs, the device hierarchy's first */
	bool own_userns;    /* its user namespace is not ours (an unprivileged container) */
	unsigned long long cap_bnd, cap_prm, cap_eff, cap_inh; /* its /proc/<pid>/status */
	char *environ;      /* its /proc/<pid>/environ; NULL when unreadable */
	size_t environ_len;
	char *apparmor;     /* its AppArmor label; NULL when unconfined or none */
};
int lx_probe_target_of(const struct lx_runtime_paths *paths, const struct lx_running *run,
		       struct lx_probe_target *t, struct lx_error *err);
void lx_probe_target_free(struct lx_probe_target *t);
/* In a forked child: become a process of the target container and call
 * run(reply_fd, ctx) in a grandchild inside it; never returns. What could
 * not be set up is written to reply_fd as "enter WHAT: ERROR". */
_Noreturn void lx_probe_enter_and_run(const struct lx_probe_target *t, int reply_fd,
				      void (*run)(int reply_fd, void *ctx), void *ctx);
/* Load soname ("libcuda.so.1") in a child process, call cuInit(0) and
 * cuDeviceGetCount; the child is killed after timeout_ms. With target, the
 * child does it as a process of that running container (its library, its
 * loader's cache, its environment's LD_LIBRARY_PATH). -1 only when no
 * child could be started. */
int lx_cuda_probe_run(const char *soname, const struct lx_probe_target *target, int timeout_ms,
		      struct lx_cuda_probe *out, struct lx_error *err);
/* doctor --probe CTID: the probe inside container id when it runs
 * (out->unprobed when it does not). -1 when it could not be started. */
int lx_cuda_probe_container(const struct lx_runtime_paths *paths, const struct lx_host *host,
			    const char *id, int timeout_ms, struct lx_cuda_probe *out,
			    struct lx_error *err);
void lx_cuda_probe_free(struct lx_cuda_probe *p);
/* cuda.h's name of a CUresult doctor knows; NULL for others. */
const char *lx_cuda_error_name(int code);
/* LXG133: what the probe says, and which of the host's causes its code
 * points to (error; info when cuInit succeeded). */
void lx_doctor_probe(const struct lx_host *host, const struct lx_cuda_probe *p, int timeout_ms,
		     struct lx_findings *out);
/* LXG133 for the probe inside container id, its code checked against the
 * host's causes and the container's findings already in out (verify's:
 * libraries of another version, a node the GPUs need missing). */
void lx_doctor_probe_container(const struct lx_host *host, const char *id,
			       const struct lx_cuda_probe *p, int timeout_ms, struct lx_findings *out);

/* ---- causes that leave the kernel log empty (src/doctor/silent.c) ---- */

/* nvidia_uvm runs with HMM on: the open module (r530 and later) loaded
 * with uvm_disable_hmm N on a kernel built with CONFIG_HMM_MIRROR and
 * CONFIG_DEVICE_PRIVATE. Unknown facts (an older snapshot): false. */
bool lx_doctor_uvm_hmm_on(const struct lx_host *host);
/* LXG132 when it does: the known cause of cuInit error 3 with nvidia-smi
 * working and nothing in the kernel log. With a probe (may be NULL): an
 * error when cuInit returned 3, a note when it succeeded. */
void lx_doctor_uvm_hmm(const struct lx_host *host, const struct lx_cuda_probe *probe,
		       struct lx_findings *out);

/* ---- DRM GPUs' firmware and amdkfd as the host has them (src/doctor/firmware.c) ---- */

/* The firmware files the kernel log says amdgpu, i915 or xe could not
 * load: the firmware loader's "Direct firmware load for %s failed with
 * error %d", i915's and xe's "%s firmware %s: fetch failed ..." (their
 * GuC/HuC files, asked for without the loader's warning), amdgpu's
 * "Failed to load firmware \"%s\"". Names that are not safe relative paths
 * (lx_firmware_name_valid) are dropped; one request per name, at most 256.
 * What lx_host_drm_check looks up; free with lx_fw_requests_free. */
void lx_kmsg_firmware_requests(const struct lx_kmsg *log, struct lx_fw_request **out, size_t *n);
/* From host->drm_checks (nothing when they did not run): LXG170 for a file
 * still missing, LXG171 for one there now, LXG172 for a bound driver's
 * vendor directory missing, LXG173 for an amdgpu GPU without an amdkfd
 * node (with kfd's reason from log, which may be NULL). */
/* Whether lx_doctor_drm reports the firmware file the log says the driver
 * could not load for that GPU (LXG170/LXG171 from the live check): the
 * log's LXG140 for it is then left out, the live finding has the more
 * precise fix. */
bool lx_doctor_drm_judged(const struct lx_host *host, const char *gpu, const char *file);
void lx_doctor_drm(const struct lx_host *host, const struct lx_kmsg *log, struct lx_findings *out);

/* ---- NVIDIA's container toolkit inside a container (src/doctor/toolkit.c) ---- */

enum lx_toolkit_setting {
	LX_TOOLKIT_UNSET,   /* no such key (or only commented out): the toolkit's default, false */
	LX_TOOLKIT_TRUE,
	LX_TOOLKIT_FALSE,
	LX_TOOLKIT_INVALID, /* another value ("true" quoted is a string) */
};
/* no-cgroups under [nvidia-container-cli] in a config.toml's text (also
 * written as the dotted key nvidia-container-cli.no-cgroups at the top;
 * comments, blanks and quoted keys as TOML has them); *line and *value
 * (owned) of the line that set it last. */
enum lx_toolkit_setting lx_toolkit_no_cgroups(const char *text, int *line, char **value);
/* In an unprivileged container with the toolkit inside, a config that does
 * not set no-cgroups = true (LXG130); a config that cannot be read
 * (LXG131). root_fd: the container's root, every path opened inside it. */
void lx_doctor_toolkit(int root_fd, const char *id, bool is_pve, bool unprivileged,
		       struct lx_findings *out);

#endif
