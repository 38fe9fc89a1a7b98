/* The DRM GPU drivers' firmware and amdkfd as the host has them now: the
 * firmware files the kernel log says amdgpu, i915 or xe could not load,
 * against what the firmware directories hold now (the model's drm_checks,
 * src/host/firmware.c); vendor firmware directories missing; amdgpu GPUs
 * amdkfd has no node for. */
#include "lxgpu/doctor.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REQUESTS_MAX 256
#define PCI "([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7])"

/* The messages that name a firmware file a DRM driver could not load.
 * Groups: driver, GPU, file, error (0: the message has none). */
static const struct {
	const char *pattern;
	unsigned driver, gpu, file, error;
} forms[] = {
	/* drivers/base/firmware_loader/main.c _request_firmware(): dev_warn(
	 * device, "Direct firmware load for %s failed with error %d\n"):
	 * amdgpu's required files (amdgpu_ucode_request), i915's DMC */
	{"^(amdgpu|i915|xe) " PCI ": Direct firmware load for ([^ ]+) failed with error (-[0-9]+)", 1,
	 2, 3, 4},
	/* i915 gt/uc/intel_uc_fw.c intel_uc_fw_fetch(): gt_probe_error(gt,
	 * "%s firmware %s: fetch failed %pe\n") (older: "... fetch failed with
	 * error %d\n"); xe_uc_fw.c alike. The GuC/HuC files are asked for with
	 * firmware_request_nowarn(): this is their only line. */
	{"^(i915|xe) " PCI ": .*[A-Za-z]+ firmware ([^ :]+): fetch failed (with error )?(-[0-9]+|-E[A-Z0-9]+)",
	 1, 2, 3, 5},
	/* Debian's kernels log every firmware load against its device
	 * (debian/patches, "firmware_class: Log every success and failure"):
	 * "firmware: failed to load %s (%d)" */
	{"^(amdgpu|i915|xe) " PCI ": firmware: failed to load ([^ ]+) \\((-[0-9]+)\\)", 1, 2, 3, 4},
	/* i915 display/intel_dmc.c: "Failed to load DMC firmware %s (%pe).
	 * Disabling runtime power management." (older: "... %s. Disabling ...") */
	{"^(i915|xe) " PCI ": .*Failed to load DMC firmware ([^ ]+[^ .])\\.?( \\((-[0-9]+|-E[A-Z0-9]+)\\))?", 1,
	 2, 3, 5},
	/* amdgpu's IP blocks: dev_err(adev->dev, "gfx11: Failed to load
	 * firmware \"%s\"\n", fw_name) (also when the file was there but
	 * refused: no error code) */
	{"^(amdgpu) " PCI ": .*Failed to load firmware \"(amdgpu/[^\"]+)\"", 1, 2, 3, 0},
};

/* %pe prints -ENOENT with CONFIG_SYMBOLIC_ERRNAME, else the number; the
 * names the loader and the uC fetch return (Linux's numbers, as errno.h's) */
static int error_number(const char *text)
{
	static const struct {
		const char *name;
		int number;
	} names[] = {{"ENOENT", ENOENT}, {"EAGAIN", EAGAIN}, {"ENOEXEC", ENOEXEC}, {"ENXIO", ENXIO},
		     {"EIO", EIO},       {"EINVAL", EINVAL}, {"ENOMEM", ENOMEM},   {"ENOSPC", ENOSPC},
		     {"EFBIG", EFBIG},   {"E2BIG", E2BIG},   {"ENODATA", ENODATA}, {"ETIMEDOUT", ETIMEDOUT},
		     {"EPERM", EPERM},   {"EACCES", EACCES}, {"EBUSY", EBUSY},     {"ENODEV", ENODEV}};
	if (text[1] >= '0' && text[1] <= '9')
		return (int)strtol(text, NULL, 10);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(text + 1, names[i].name) == 0)
			return -names[i].number;
	return 0; /* a name not listed: unknown */
}

static char *group(const char *text, const regmatch_t *m, unsigned i)
{
	if (!i || m[i].rm_so < 0)
		return NULL;
	return lx_xstrndup(text + m[i].rm_so, (size_t)(m[i].rm_eo - m[i].rm_so));
}

void lx_kmsg_firmware_requests(const struct lx_kmsg *log, struct lx_fw_request **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	size_t n_forms = sizeof(forms) / sizeof(forms[0]);
	regex_t re[sizeof(forms) / sizeof(forms[0])];
	for (size_t f = 0; f < n_forms; f++)
		if (regcomp(&re[f], forms[f].pattern, REG_EXTENDED) != 0)
			abort(); /* the patterns are ours */
	for (size_t l = 0; log && l < log->n && *n < REQUESTS_MAX; l++) {
		const char *text = log->lines[l].text;
		regmatch_t m[6];
		for (size_t f = 0; f < n_forms; f++) {
			if (regexec(&re[f], text, 6, m, 0) != 0)
				continue;
			_cleanup_free_ char *name = group(text, m, forms[f].file);
			bool seen = !lx_firmware_name_valid(name);
			for (size_t i = 0; i < *n && !seen; i++)
				seen = strcmp((*out)[i].name, name) == 0;
			if (seen)
				break;
			*out = lx_xrealloc(*out, (*n + 1) * sizeof(**out));
			struct lx_fw_request *r = &(*out)[(*n)++];
			memset(r, 0, sizeof(*r));
			r->name = name;
			name = NULL;
			r->driver = group(text, m, forms[f].driver);
			_cleanup_free_ char *gpu = group(text, m, forms[f].gpu);
			if (!gpu || !lx_pci_address_normalize(gpu, &r->gpu))
				r->gpu = NULL;
			_cleanup_free_ char *error = group(text, m, forms[f].error);
			r->error = error ? error_number(error) : 0;
			break;
		}
	}
	for (size_t f = 0; f < n_forms; f++)
		regfree(&re[f]);
}

/* The package that ships a driver's firmware: Proxmox VE's own (it
 * replaces Debian's firmware packages), else Debian's from
 * non-free-firmware. */
static const char *package_of(const struct lx_host *host, const char *driver)
{
	if (host->pve_container_version)
		return "pve-firmware (apt install --reinstall pve-firmware, or a newer one: apt "
		       "update && apt install pve-firmware)";
	if (strcmp(driver, "amdgpu") == 0)
		return "firmware-amd-graphics (Debian's non-free-firmware component)";
	return "firmware-intel-graphics (Debian 13; firmware-misc-nonfree on Debian 12; the "
	       "non-free-firmware component)";
}

static bool gpu_bound_to(const struct lx_host *host, const char *gpu, const char *driver)
{
	const struct lx_gpu *g = gpu ? lx_host_find_gpu_by_bdf(host, gpu) : NULL;
	return g && g->driver && strcmp(g->driver, driver) == 0;
}

/* Whether the live check says LXG170 or LXG171 of a request: another
 * error than "not found" with the file there means the driver refused it
 * (the log's LXG140 says that); a file missing now is missing all the same. */
static bool judged_live(const struct lx_fw_request *r)
{
	return !(r->found && r->error != -2 && r->error != 0);
}

bool lx_doctor_drm_judged(const struct lx_host *host, const char *gpu, const char *file)
{
	const struct lx_drm_checks *c = &host->drm_checks;
	if (!c->checked || !file)
		return false;
	for (size_t i = 0; i < c->n_requests; i++) {
		const struct lx_fw_request *r = &c->requests[i];
		if (strcmp(r->name, file) == 0 && (!gpu || !r->gpu || strcasecmp(r->gpu, gpu) == 0) &&
		    judged_live(r))
			return true;
	}
	return false;
}

static void firmware_findings(const struct lx_host *host, struct lx_findings *out)
{
	const struct lx_drm_checks *c = &host->drm_checks;
	for (size_t i = 0; i < c->n_requests; i++) {
		const struct lx_fw_request *r = &c->requests[i];
		if (!judged_live(r))
			continue;
		_cleanup_free_ char *gpu = r->gpu ? lx_xasprintf("GPU %s: ", r->gpu) : NULL;
		_cleanup_free_ char *error = r->error ? lx_xasprintf(" (error %d)", r->error)
						      : lx_xstrdup("");
		if (!r->found) {
			bool down = !gpu_bound_to(host, r->gpu, r->driver);
			_cleanup_free_ char *where =
				r->unreadable
					? lx_xasprintf(": only %s is there, a compressed form this kernel "
						       "cannot read (its config lacks "
						       "CONFIG_FW_LOADER_COMPRESS_%s)",
						       r->unreadable,
						       lx_str_ends_with(r->unreadable, ".zst") ? "ZSTD" : "XZ")
					: lx_xstrdup(" from every firmware directory");
			lx_findings_add(
				out, LXG170_GPU_FIRMWARE_STILL_MISSING, NULL, NULL, 0, NULL,
				lx_xasprintf("%s%s could not load the firmware file %s%s and it is still "
					     "missing%s: the engine it is for (GuC/HuC/DMC, PSP/SOS/TOC, "
					     "SMU, MES, DMCUB, VCN) does not start%s",
					     gpu ? gpu : "", r->driver, r->name, error, where,
					     down ? "; the GPU is not bound to it now: no container gets it"
						  : ", and transcoding or ROCm on it fail in the containers "
						    "holding it"),
				lx_xasprintf("by hand: install the package that ships %s: %s; then "
					     "update-initramfs -u -k all and reboot (the driver loads it from "
					     "the initramfs at boot)%s",
					     r->name, package_of(host, r->driver),
					     r->unreadable ? "; or decompress the file the kernel cannot read "
							     "next to it, under the name without its suffix"
							   : ""));
			if (down)
				lx_findings_last_severity(out, LX_SEVERITY_ERROR);
			lx_findings_last_evidence(
				out, lx_xasprintf("kernel log: %s asked for %s%s; now: not in the firmware "
						  "search path%s%s",
						  r->driver, r->name, error,
						  r->unreadable ? ", but for " : "",
						  r->unreadable ? r->unreadable : ""));
			continue;
		}
		lx_findings_add(
			out, LXG171_GPU_FIRMWARE_ADDED_LATER, NULL, NULL, 0, NULL,
			lx_xasprintf("%s%s could not load the firmware file %s%s at boot, and it is "
				     "there now (%s): it came after the driver asked for it (installed "
				     "since, or missing from the initramfs the driver loaded from)%s; the "
				     "GPU runs without it until the driver loads again",
				     gpu ? gpu : "", r->driver, r->name, error, r->found,
				     r->error ? "" : ", or the driver refused its content"),
			lx_xstrdup("by hand: update-initramfs -u -k all, then reboot (the driver "
				   "loads the file from the initramfs at boot)"));
		lx_findings_last_evidence(out, lx_xasprintf("kernel log: %s asked for %s%s; now: %s",
							    r->driver, r->name, error, r->found));
	}
	for (size_t i = 0; i < c->missing_dirs.n; i++) {
		const char *driver = c->missing_dirs.items[i];
		struct lx_strv gpus = {0};
		for (size_t g = 0; g < host->n_gpus; g++)
			if (host->gpus[g].driver && strcmp(host->gpus[g].driver, driver) == 0)
				lx_strv_push(&gpus, host->gpus[g].bdf);
		_cleanup_free_ char *list = lx_strv_join(&gpus, ", ");
		lx_findings_add(
			out, LXG172_GPU_FIRMWARE_DIR_MISSING, NULL, NULL, 0, NULL,
			lx_xasprintf("GPU %s: bound to %s, and no firmware directory has %s/%s: the "
				     "driver took its firmware from the initramfs of this boot; the next "
				     "update-initramfs (a kernel update) builds one without it, and at the "
				     "next boot the GPU comes up without its firmware (amdgpu: not at all)",
				     list, driver, driver,
				     strcmp(driver, "xe") == 0 ? " nor i915/" : ""),
			lx_xasprintf("by hand: install %s before the next kernel update or reboot",
				     package_of(host, driver)));
		lx_findings_last_evidence(out, lx_xasprintf("no %s/ under firmware_class.path, "
							    "/lib/firmware/updates/%s, /lib/firmware/updates, "
							    "/lib/firmware/%s, /lib/firmware",
							    driver, host->kernel ? host->kernel : "<release>",
							    host->kernel ? host->kernel : "<release>"));
		lx_strv_free(&gpus);
	}
}

/* kfd's reason for not serving a GPU, from the log: "skipped device
 * %x:%x, PCI rejects atomics" names the GPU's PCI ids; "%s not supported
 * in kfd" names its ASIC only (kfd_device.c kgd2kfd_probe,
 * kgd2kfd_device_init). */
static char *kfd_reason(const struct lx_kmsg *log, const struct lx_gpu *g)
{
	if (!log)
		return NULL;
	char *reason = NULL;
	_cleanup_free_ char *ids = lx_xasprintf("skipped device %x:%x, PCI rejects atomics", g->vendor_id,
						g->device_id);
	for (size_t l = 0; l < log->n && !reason; l++) {
		const char *text = log->lines[l].text;
		if (!lx_str_starts_with(text, "kfd kfd: "))
			continue;
		if (strstr(text, ids) || strstr(text, " not supported in kfd"))
			reason = lx_xasprintf("the kernel log says why (line %u): \"%s\"", log->lines[l].lineno,
					      text);
	}
	return reason;
}

static void kfd_findings(const struct lx_host *host, const struct lx_kmsg *log, struct lx_findings *out)
{
	const struct lx_drm_checks *c = &host->drm_checks;
	for (size_t i = 0; i < c->kfd_missing.n; i++) {
		const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, c->kfd_missing.items[i]);
		if (!g)
			continue;
		_cleanup_free_ char *reason = kfd_reason(log, g);
		bool atomics = reason && strstr(reason, "PCI rejects atomics");
		lx_findings_add(
			out, LXG173_KFD_NO_NODE, NULL, NULL, 0, NULL,
			lx_xasprintf("GPU %s: bound to amdgpu, but %s: ROCm (through /dev/kfd) does not "
				     "see it, on the host nor in any container; graphics and VA-API "
				     "transcoding are not affected%s%s",
				     g->bdf,
				     c->kfd_topology ? "amdkfd has no node for it (no node under "
						       "/sys/class/kfd/kfd/topology/nodes with its "
						       "domain and location_id)"
						     : "amdkfd is not running (no /sys/class/kfd/kfd/topology: "
						       "a kernel without CONFIG_HSA_AMD, or kfd failed to start)",
				     reason ? "; " : "", reason ? reason : ""),
			lx_xstrdup(atomics ? "by hand: put the GPU in a slot wired to the CPU on a platform "
					     "with PCIe AtomicOps (lspci -vvv: AtomicOpsCap on the root port), "
					     "or use a GPU that needs none (gfx9 and later)"
				   : reason ? "by hand: a newer kernel whose amdkfd supports the GPU "
					      "(Proxmox: an opt-in proxmox-kernel of a later series), or "
					      "another GPU, if the containers need ROCm"
					    : "by hand: look for kfd's lines in the kernel log (dmesg | grep "
					      "-i kfd) and check that the kernel has CONFIG_HSA_AMD=y; a kernel "
					      "whose amdkfd supports the GPU, if the containers need ROCm"));
		lx_findings_last_evidence(
			out, c->kfd_topology
				     ? lx_xasprintf("/sys/class/kfd/kfd/topology/nodes: no GPU node for %s "
						    "(%04x:%04x)", g->bdf, g->vendor_id, g->device_id)
				     : lx_xstrdup("/sys/class/kfd/kfd/topology: absent"));
	}
}

void lx_doctor_drm(const struct lx_host *host, const struct lx_kmsg *log, struct lx_findings *out)
{
	if (!host->drm_checks.checked)
		return;
	firmware_findings(host, out);
	kfd_findings(host, log, out);
}
