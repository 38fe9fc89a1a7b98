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

#define XID(n) "NVRM: Xid \\((PCI:)?[0-9a-fA-F:.]+\\): " #n ","
/* A PCI address as the driver prints it: domain:bus:device.function. */
#define BDF "[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]"

static const struct lx_kmsg_entry catalogue[] = {
	{"api-mismatch", "NVRM: API mismatch: the client", LXG100_API_MISMATCH, LX_SEVERITY_ERROR,
	 "a program's userspace driver (libcuda, libnvidia-ml, often a container's) is of another "
	 "version than the loaded kernel module, so the module refuses it",
	 "install the module's version of the userspace driver in that program's root (a container: "
	 "`lxgpu doctor CTID` names its libraries), or reboot into the module the libraries belong to",
	 0},
	{"open-module-required",
	 "NVRM: The NVIDIA GPU " BDF " .*requires use of the NVIDIA open kernel modules",
	 LXG101_NEEDS_OPEN_MODULE, LX_SEVERITY_ERROR,
	 "the GPU (Blackwell or later) is driven by the open kernel modules only; the proprietary "
	 "module is loaded",
	 "install the open flavour of the same driver (nvidia-open, or the .run file's "
	 "--kernel-module-type=open)",
	 0},
	{"open-module-no-gsp",
	 "NVRM: The NVIDIA GPU " BDF " .*is not supported by open nvidia.ko because it does "
	 "not include the required GPU System Processor",
	 LXG102_NO_GSP, LX_SEVERITY_ERROR,
	 "the GPU is older than Turing and has no GSP; the open kernel modules cannot drive it",
	 "install the proprietary kernel module, of a branch that still supports this GPU", 0},
	{"open-module-unsupported-gpu", "NVRM: Open nvidia.ko is only ready for use on Data Center GPUs",
	 LXG115_OPEN_UNSUPPORTED, LX_SEVERITY_ERROR,
	 "this open module (before 555) drives data-center GPUs only unless told otherwise",
	 "set `options nvidia NVreg_OpenRmEnableUnsupportedGpus=1` (/etc/modprobe.d), or install 555 "
	 "or later",
	 0},
	{"unsupported-by-release",
	 "NVRM: The NVIDIA GPU " BDF " .*is not supported by the( [0-9.]+)? NVIDIA( Linux)?( "
	 "[0-9.]+)?( graphics)? driver release",
	 LXG103_UNSUPPORTED_GPU, LX_SEVERITY_ERROR, "this driver branch does not support the GPU",
	 "install a branch that lists the GPU in its README's supported products (a newer one for a "
	 "new GPU, a legacy branch for an old one)",
	 0},
	{"pci-region-invalid", "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid",
	 LXG104_BAR_UNASSIGNED, LX_SEVERITY_ERROR,
	 "the firmware did not give the GPU's BAR an address (BARn is 0M @ 0x0): the GPU cannot be "
	 "used",
	 "enable Above 4G Decoding (and Resizable BAR) in the firmware setup; else add pci=realloc to "
	 "the kernel command line",
	 0},
	{"bar-resize-no-space", "NVRM: No address space to allocate resized BAR1",
	 LXG105_BAR_RESIZE_FAILED, LX_SEVERITY_WARNING,
	 "the driver tried to enlarge BAR1 (resizable BAR) and the bridge above has no room for it",
	 "set `options nvidia NVreg_EnableResizableBar=0`, or give the bridge more address space "
	 "(Above 4G Decoding, pci=realloc)",
	 0},
	{"bar-resize-failed", "NVRM: BAR resizing failed with error", LXG105_BAR_RESIZE_FAILED,
	 LX_SEVERITY_WARNING, "resizing BAR1 (resizable BAR) failed",
	 "set `options nvidia NVreg_EnableResizableBar=0`", 0},
	{"gsp-firmware-missing", "NVRM: RmFetchGspRmImages: No firmware image found",
	 LXG107_GSP_FIRMWARE_MISSING, LX_SEVERITY_ERROR,
	 "the GSP firmware of the loaded module's version is not on disk (/lib/firmware/nvidia/<version>): "
	 "a driver upgraded or removed without reloading the module, or a module built without its "
	 "firmware package",
	 "reinstall the driver package of the loaded version, or reboot into the module whose "
	 "firmware is installed",
	 0},
	{"gsp-firmware-load-failed",
	 "Direct firmware load for nvidia/[0-9.]+/gsp_[a-z0-9_]+\\.bin failed with error",
	 LXG107_GSP_FIRMWARE_MISSING, LX_SEVERITY_ERROR,
	 "the kernel could not load the GSP firmware file the module asked for",
	 "reinstall the driver package of the loaded version (it ships the firmware)", 0},
	{"gsp-wpr2-up", "_kgspBootGspRm: unexpected WPR2 already up", LXG108_GSP_BOOT_FAILED,
	 LX_SEVERITY_ERROR,
	 "the GPU's GSP was left running by an earlier driver instance (a VM, a crashed module): it "
	 "needs a reset",
	 "reset the GPU (nvidia-smi -r when nothing uses it) or power-cycle the host; a warm reboot "
	 "may not clear it",
	 0},
	{"gsp-init-failed", "RmInitAdapter: Cannot initialize GSP firmware RM", LXG108_GSP_BOOT_FAILED,
	 LX_SEVERITY_ERROR, "the GSP firmware did not start on the GPU",
	 "update the driver (and the firmware package of the same version); reset or power-cycle the "
	 "GPU",
	 0},
	{"gsp-bootstrap-failed", "kgspInitRm_IMPL: cannot bootstrap riscv/gsp", LXG108_GSP_BOOT_FAILED,
	 LX_SEVERITY_ERROR, "the GSP firmware did not start on the GPU",
	 "update the driver (and the firmware package of the same version); reset or power-cycle the "
	 "GPU",
	 0},
	{"rm-init-adapter-failed", "NVRM: GPU " BDF ": RmInitAdapter failed!", LXG106_INIT_FAILED,
	 LX_SEVERITY_ERROR,
	 "the driver could not initialize the GPU; the message before it says why",
	 "follow the message before it (quoted as evidence)", LX_KMSG_WITH_PREVIOUS},
	{"fallen-off-bus", "NVRM: (The NVIDIA GPU|GPU) " BDF
	 "( \\(PCI ID: [0-9a-fA-F:]+\\))?( installed in this system has|: GPU has) fallen off the bus",
	 LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "the GPU stopped answering on PCIe (power, heat, a bad riser or slot, link errors)",
	 "check power cables, cooling and seating, update the system firmware; reboot (often a power "
	 "cycle) to get the GPU back",
	 0},
	{"xid-79", XID(79), LXG109_FALLEN_OFF_BUS, LX_SEVERITY_ERROR,
	 "Xid 79: the GPU has fallen off the bus (it no longer answers on PCIe)",
	 "check power cables, cooling and seating, update the system firmware; reboot (often a power "
	 "cycle) to get the GPU back",
	 0},
	{"xid-13", XID(13), LXG110_XID, LX_SEVERITY_INFO,
	 "Xid 13: graphics engine exception, usually an application fault (illegal instruction or "
	 "address, out-of-range access)",
	 "debug the application (compute-sanitizer); a driver or hardware problem only when it recurs "
	 "with every program",
	 0},
	{"xid-31", XID(31), LXG110_XID, LX_SEVERITY_INFO,
	 "Xid 31: GPU memory page fault, usually an application's illegal memory access",
	 "debug the application (compute-sanitizer); a driver problem only when it recurs with every "
	 "program",
	 0},
	{"xid-32", XID(32), LXG110_XID, LX_SEVERITY_WARNING,
	 "Xid 32: invalid or corrupted push buffer stream (driver, memory corruption, or PCIe errors)",
	 "update the driver; check the PCIe link (seating, riser) if it recurs", 0},
	{"xid-45", XID(45), LXG110_XID, LX_SEVERITY_INFO,
	 "Xid 45: preemptive cleanup: the driver stopped a program's channel (the program was killed, "
	 "or an earlier Xid forced it)",
	 "nothing when the program was ended on purpose; else follow the Xid before it", 0},
	{"xid-62", XID(62), LXG110_XID, LX_SEVERITY_ERROR,
	 "Xid 62: internal micro-controller halt (driver or firmware fault)",
	 "reset the GPU (nvidia-smi -r) or reboot; update the driver", 0},
	{"xid-63", XID(63), LXG110_XID, LX_SEVERITY_WARNING,
	 "Xid 63: ECC page retirement or row remapping recorded: memory cells went bad and are "
	 "replaced at the next GPU reset",
	 "reset the GPU when it is idle (nvidia-smi -r) to activate the remapping; contact the vendor "
	 "if it recurs",
	 0},
	{"xid-69", XID(69), LXG110_XID, LX_SEVERITY_WARNING,
	 "Xid 69: graphics engine class error (driver or application)",
	 "update the driver; debug the application if it recurs with one program", 0},
	{"xid-94", XID(94), LXG110_XID, LX_SEVERITY_WARNING,
	 "Xid 94: contained ECC error: the program that touched the bad memory was stopped, the GPU "
	 "keeps running",
	 "restart the program; reset the GPU when it is idle to remap the memory", 0},
	{"xid-109", XID(109), LXG110_XID, LX_SEVERITY_WARNING,
	 "Xid 109: context switch timeout (an application that hangs the GPU, or a driver fault)",
	 "restart the application; update the driver if it recurs", 0},
	{"xid-120", XID(120), LXG110_XID, LX_SEVERITY_ERROR,
	 "Xid 120: GSP error: the GPU's firmware processor faulted", "reset the GPU or reboot; update the driver",
	 0},
	{"xid", "NVRM: Xid \\((PCI:)?[0-9a-fA-F:.]+\\): [0-9]+,", LXG110_XID, LX_SEVERITY_WARNING,
	 "an Xid event: the driver reported a GPU error (the number's meaning: NVIDIA's Xid "
	 "catalogue, docs.nvidia.com/deploy/xid-errors)",
	 "look the number up in NVIDIA's Xid catalogue", 0},
	{"bound-to-vfio", "NVRM: GPU " BDF " is already bound to vfio-pci", LXG111_BOUND_ELSEWHERE,
	 LX_SEVERITY_INFO,
	 "nvidia found the GPU bound to vfio-pci (given to virtual machines) and left it",
	 "nothing, unless the GPU was meant for containers: then unbind it from vfio-pci "
	 "(remove its ids from vfio-pci.ids / the VM's hostpci)",
	 0},
	{"bound-elsewhere", "NVRM: GPU " BDF " is already bound to", LXG111_BOUND_ELSEWHERE,
	 LX_SEVERITY_ERROR,
	 "another driver (nouveau, nova) took the GPU before nvidia loaded",
	 "blacklist it: modprobe.blacklist=nouveau (and rd.driver.blacklist=nouveau for the initramfs, "
	 "or 'blacklist nouveau' in /etc/modprobe.d plus update-initramfs -u), then reboot",
	 0},
	{"lockdown-unsigned", "Lockdown: [^:]+: unsigned module loading is restricted",
	 LXG112_UNSIGNED_MODULE, LX_SEVERITY_ERROR,
	 "Secure Boot (kernel lockdown) refused an unsigned module: a DKMS-built nvidia module whose "
	 "signing key is not enrolled",
	 "enroll the DKMS key (mokutil --import /var/lib/dkms/mok.pub, reboot, confirm in MokManager), "
	 "or turn Secure Boot off",
	 LX_KMSG_NVIDIA_MISSING},
	{"unsigned-rejected", "Loading of unsigned module is rejected", LXG112_UNSIGNED_MODULE,
	 LX_SEVERITY_ERROR,
	 "the kernel enforces module signatures and refused an unsigned module (a DKMS-built nvidia "
	 "module)",
	 "enroll the DKMS key (mokutil --import /var/lib/dkms/mok.pub, reboot, confirm in MokManager), "
	 "or sign the module",
	 LX_KMSG_NVIDIA_MISSING},
	{"amd-vi-page-fault", "AMD-Vi: Event logged \\[IO_PAGE_FAULT", LXG113_IOMMU_FAULT,
	 LX_SEVERITY_ERROR,
	 "the AMD IOMMU blocked a DMA of the GPU to an address it had not mapped (often peer-to-peer "
	 "or a driver bug)",
	 "iommu=pt on the kernel command line (identity domains for host devices); update the driver",
	 LX_KMSG_GPU_ONLY},
	{"dmar-fault", "DMAR: \\[DMA (Read|Write)[^]]*\\] Request device \\[[0-9a-fA-Fx:.]+\\]",
	 LXG113_IOMMU_FAULT, LX_SEVERITY_ERROR,
	 "the Intel IOMMU blocked a DMA of the GPU to an address it had not mapped (often "
	 "peer-to-peer or a driver bug)",
	 "iommu=pt on the kernel command line (identity domains for host devices); update the driver",
	 LX_KMSG_GPU_ONLY},
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
	 LX_KMSG_GPU_ONLY},
};

const struct lx_kmsg_entry *lx_kmsg_catalogue(size_t *n)
{
	*n = sizeof(catalogue) / sizeof(catalogue[0]);
	return catalogue;
}

void lx_kmsg_matches_free(struct lx_kmsg_matches *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->items[i].pci);
	free(m->items);
	memset(m, 0, sizeof(*m));
}

/* The lines a message may span: its own and the next ones that carry on
 * (continuations, or "NVRM: " lines of a message printed line by line). */
#define WINDOW_MAX 8

struct window {
	struct lx_buf text;
	size_t ends[WINDOW_MAX]; /* text offset where each line ends */
	size_t n;
};

static void window_build(const struct lx_kmsg *log, size_t i, struct window *w)
{
	memset(w, 0, sizeof(*w));
	lx_buf_puts(&w->text, log->lines[i].text);
	w->ends[w->n++] = w->text.len;
	for (size_t j = i + 1; j < log->n && w->n < WINDOW_MAX; j++) {
		const char *t = log->lines[j].text;
		bool nvrm = lx_str_starts_with(t, "NVRM: ") && lx_str_starts_with(log->lines[i].text, "NVRM");
		if (!log->lines[j].continuation && !nvrm)
			break;
		if (lx_str_starts_with(t, "NVRM: "))
			t += strlen("NVRM: ");
		while (*t == ' ')
			t++;
		lx_buf_puts(&w->text, " ");
		lx_buf_puts(&w->text, t);
		w->ends[w->n++] = w->text.len;
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
		if ((d == 4 || d == 8) && q[d] == ':') {
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
		if (*q == '.' && *++q >= '0' && *q <= '7')
			fn = *q;
		else if (*q == '.' || isxdigit((unsigned char)*q))
			continue;
		_cleanup_free_ char *text = lx_xasprintf("%s:%s:%s.%c", domain, bus, dev, fn);
		char *norm = NULL;
		if (!lx_pci_address_normalize(text, &norm))
			continue;
		/* A short address ("41:00.0") belongs to the GPU with that bus. */
		for (size_t g = 0; host && g < host->n_gpus; g++)
			if (lx_str_ends_with(host->gpus[g].bdf, norm + strlen(norm) - 7)) {
				free(norm);
				return lx_xstrdup(host->gpus[g].bdf);
			}
		return norm;
	}
	return NULL;
}

static bool names_nvidia_device(const char *text)
{
	/* dev_printk's "nvidia 0000:07:00.0: ..." */
	return lx_str_starts_with(text, "nvidia ");
}

/* One finding per cause and GPU: rows of one code tell the same story
 * (two lines of a missing firmware, Xid 79 and "fallen off the bus"),
 * except Xid events, whose numbers differ in meaning. A line without an
 * address joins the one with it. */
static bool same_cause(const struct lx_kmsg_match *m, const struct lx_kmsg_entry *row,
		       const char *pci)
{
	if (m->entry->code != row->code || (row->code == LXG110_XID && m->entry != row))
		return false;
	return !pci || !m->pci || strcmp(pci, m->pci) == 0;
}

static bool nvidia_missing(const struct lx_host *host)
{
	return !host || !host->driver.version || !lx_host_has_module(host, "nvidia_uvm");
}

int lx_kmsg_match_all(const struct lx_kmsg *log, const struct lx_host *host,
		      struct lx_kmsg_matches *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	size_t n;
	const struct lx_kmsg_entry *rows = lx_kmsg_catalogue(&n);
	regex_t *re = lx_xcalloc(n, sizeof(*re));
	int rc = 0;
	size_t compiled = 0;
	for (; compiled < n; compiled++)
		if (regcomp(&re[compiled], rows[compiled].pattern, REG_EXTENDED) != 0) {
			rc = lx_error_set(err, "kernel log catalogue: row '%s' does not compile",
					  rows[compiled].id);
			goto out;
		}
	for (size_t i = 0; i < log->n; i++) {
		struct window w;
		window_build(log, i, &w);
		size_t own = w.ends[0];
		for (size_t r = 0; r < n; r++) {
			regmatch_t m;
			if (regexec(&re[r], w.text.data, 1, &m, 0) != 0 || (size_t)m.rm_so >= own)
				continue;
			size_t last = 0;
			while (last + 1 < w.n && (size_t)m.rm_eo > w.ends[last])
				last++;
			/* the whole record: its continuation lines are the same message */
			while (last + 1 < w.n && log->lines[i + last + 1].continuation)
				last++;
			_cleanup_free_ char *span = lx_xstrndup(w.text.data, w.ends[last]);
			char *pci = find_pci(span, host);
			bool keep = true;
			if ((rows[r].flags & LX_KMSG_GPU_ONLY) && host) {
				/* a GPU of the host that nvidia drives: one given to a VM
				 * (vfio-pci) faults in the VM's IOMMU domain, not ours */
				const struct lx_gpu *g = pci ? lx_host_find_gpu_by_bdf(host, pci) : NULL;
				keep = names_nvidia_device(log->lines[i].text) ||
				       (g && (!g->driver || strcmp(g->driver, "nvidia") == 0));
			}
			if (rows[r].flags & LX_KMSG_NVIDIA_MISSING)
				keep = nvidia_missing(host);
			if (!keep) {
				free(pci);
				break;
			}
			struct lx_kmsg_match *same = NULL;
			for (size_t k = 0; k < out->n && !same; k++)
				if (same_cause(&out->items[k], &rows[r], pci))
					same = &out->items[k];
			if (same) {
				same->count++;
				if (!same->pci)
					same->pci = pci;
				else
					free(pci);
			} else {
				/* the message before it: the whole previous record */
				size_t first = i;
				if ((rows[r].flags & LX_KMSG_WITH_PREVIOUS) && i > 0)
					for (first = i - 1; first > 0 && log->lines[first].continuation;)
						first--;
				out->items = lx_xrealloc(out->items, (out->n + 1) * sizeof(*out->items));
				out->items[out->n++] = (struct lx_kmsg_match){&rows[r], first, i + last, pci, 1};
			}
			i += last; /* the lines it spans are this message's */
			break;
		}
		lx_buf_free(&w.text);
	}
out:
	for (size_t r = 0; r < compiled; r++)
		regfree(&re[r]);
	free(re);
	if (rc < 0)
		lx_kmsg_matches_free(out);
	return rc;
}

char *lx_kmsg_match_evidence(const struct lx_kmsg *log, const struct lx_kmsg_match *m)
{
	struct lx_buf b = {0};
	for (size_t i = m->first; i <= m->last && i < log->n; i++)
		lx_buf_printf(&b, "%s%s", i > m->first ? "\n" : "", log->lines[i].raw);
	return lx_buf_steal(&b);
}
