/* doctor's host checks: one table of checks, each adding findings. */
#include "lxgpu/doctor.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct check_ctx {
	const struct lx_doctor_input *in;
	struct lx_findings *out;
	struct lx_error *err;
};

/* Doctor's fixes are host administration lxgpu cannot do or check
 * (packages, firmware setup, the boot loader, mokutil, dkms, systemctl, a
 * GPU reset, a reboot): they say "by hand:". The ones lxgpu does itself
 * (ensure-nodes; nvidia-modprobe for the model's uvm rule) stay commands. */
static char *host_fix(enum lx_finding_code code, char *fix)
{
	if (!fix || !*fix || code == LXG020_UVM_NOT_LOADED || code == LXG122_DRIVER_NODE_MISSING ||
	    code == LXG123_DRIVER_NODE_WRONG || code == LXG132_UVM_HMM ||
	    lx_str_starts_with(fix, "by hand:"))
		return fix;
	char *manual = lx_xasprintf("by hand: %s", fix);
	free(fix);
	return manual;
}

static void add(struct check_ctx *c, enum lx_finding_code code, char *message, char *fix,
		char *evidence)
{
	lx_findings_add(c->out, code, NULL, NULL, 0, NULL, message, host_fix(code, fix));
	lx_findings_last_evidence(c->out, evidence);
}

static bool module_loaded(const struct lx_host *host)
{
	return host->driver.version != NULL;
}

/* What the model holds that backs a prerequisite finding: the /proc,
 * /dev and sysfs facts it was scanned from, as the snapshot has them. */
static char *model_evidence(const struct lx_host *host, const struct lx_host_warning *x)
{
	struct lx_buf b = {0};
	switch (x->code) {
	case LXG020_UVM_NOT_LOADED:
	case LXG120_MODULE_NOT_LOADED:
		lx_buf_puts(&b, "/proc/devices:");
		for (size_t i = 0; i < host->n_majors; i++)
			if (lx_str_starts_with(host->majors[i].name, "nvidia"))
				lx_buf_printf(&b, " %u %s;", host->majors[i].number, host->majors[i].name);
		lx_buf_printf(&b, " no %s\n/proc/modules:", x->code == LXG020_UVM_NOT_LOADED ? "nvidia-uvm" : "nvidia");
		for (size_t i = 0; i < host->driver.modules.n; i++)
			lx_buf_printf(&b, " %s", host->driver.modules.items[i]);
		if (!host->driver.modules.n)
			lx_buf_puts(&b, " no nvidia module");
		break;
	case LXG107_GSP_FIRMWARE_MISSING:
		lx_buf_puts(&b, "GSP firmware directories (/lib/firmware/nvidia/<version>):");
		for (size_t i = 0; i < host->driver.firmware.n; i++)
			lx_buf_printf(&b, " %s", host->driver.firmware.items[i]);
		if (!host->driver.firmware.n)
			lx_buf_puts(&b, " none");
		lx_buf_printf(&b, "; loaded module %s", host->driver.version ? host->driver.version : "none");
		break;
	case LXG101_NEEDS_OPEN_MODULE:
	case LXG102_NO_GSP:
	case LXG121_GPU_NOT_ON_NVIDIA:
	case LXG124_NO_DEVICE_MINOR:
		for (size_t i = 0; i < host->n_gpus; i++) {
			const struct lx_gpu *g = &host->gpus[i];
			if (strstr(x->message, g->bdf))
				lx_buf_printf(&b, "/sys/bus/pci/devices/%s: %04x:%04x, driver %s, minor %s%d", g->bdf,
					      g->vendor_id, g->device_id, g->driver ? g->driver : "none",
					      g->minor == LX_UNKNOWN ? "unknown" : "", g->minor == LX_UNKNOWN ? 0 : g->minor);
		}
		break;
	case LXG123_DRIVER_NODE_WRONG:
		for (size_t i = 0; i < host->n_nodes; i++) {
			const struct lx_dev_node *n = &host->nodes[i];
			size_t len = strlen(n->path);
			const char *at = strstr(x->message, n->path);
			if (at && (at[len] == ' ' || at[len] == '\0'))
				lx_buf_printf(&b, "%s: %s %u:%u", n->path,
					      n->type == LX_NODE_CHAR ? "c" : n->type == LX_NODE_BLOCK ? "b" : "not a device",
					      n->major, n->minor);
		}
		break;
	default:
		break;
	}
	/* "GPU %s: the driver does not report its device minor" and the like
	 * print "minor unknown0": trim what the format could not leave out */
	char *text = lx_buf_steal(&b);
	char *unknown0 = strstr(text, "unknown0");
	if (unknown0)
		unknown0[strlen("unknown")] = '\0';
	if (!*text) {
		free(text);
		return NULL;
	}
	return text;
}

/* The fix of a GPU not bound to nvidia, told by its driver and what the
 * kernel command line already says (the model's rule gives none). */
static char *unbound_gpu_fix(const struct lx_host *host, const struct lx_host_facts *f,
			     const char *message)
{
	const struct lx_gpu *g = NULL;
	for (size_t i = 0; i < host->n_gpus && !g; i++)
		if (strstr(message, host->gpus[i].bdf))
			g = &host->gpus[i];
	if (!g)
		return NULL;
	if (!g->driver)
		return lx_xstrdup("load the nvidia module (modprobe nvidia); the kernel log's findings "
				  "say why it did not take the GPU");
	if (strcmp(g->driver, "vfio-pci") == 0)
		return lx_xstrdup("if the GPU is meant for containers, remove its ids from vfio-pci.ids "
				  "(kernel command line or /etc/modprobe.d) and the VM's hostpci entry; "
				  "else nothing");
	if (strcmp(g->driver, "nouveau") == 0 || strcmp(g->driver, "nova_core") == 0) {
		_cleanup_free_ char *mb = f && f->live ? lx_cmdline_get(f->cmdline, "modprobe.blacklist") : NULL;
		_cleanup_free_ char *rd = f && f->live ? lx_cmdline_get(f->cmdline, "rd.driver.blacklist") : NULL;
		if (mb && strstr(mb, "nouveau") && !(rd && strstr(rd, "nouveau")))
			return lx_xasprintf("modprobe.blacklist=%s is on the command line, yet %s took the GPU: "
					    "the initramfs loads it; add rd.driver.blacklist=nouveau, or "
					    "'blacklist nouveau' in /etc/modprobe.d and update-initramfs -u, "
					    "then reboot",
					    mb, g->driver);
		return lx_xasprintf("blacklist %s (modprobe.blacklist=nouveau rd.driver.blacklist=nouveau on "
				    "the kernel command line, or 'blacklist nouveau' in /etc/modprobe.d and "
				    "update-initramfs -u), then reboot",
				    g->driver);
	}
	return lx_xasprintf("unbind it from %s and load nvidia", g->driver);
}

/* The model's fix for a missing node, told whether the driver makes nodes
 * itself (NVreg_ModifyDeviceFiles). With 0, neither the driver nor
 * nvidia-modprobe makes the nvidia-major nodes, and lxgpu ensure-nodes
 * leaves them to the admin too; it still makes the uvm ones. */
static char *missing_node_fix(const struct lx_host_facts *f, const char *message, char *fix)
{
	_cleanup_free_ char *modify = f && f->live ? lx_nvidia_param_get(f->params, "ModifyDeviceFiles") : NULL;
	if (!modify || strcmp(modify, "0") != 0)
		return fix;
	free(fix);
	if (strstr(message, "/dev/nvidia-uvm"))
		return lx_xstrdup("create it (ModifyDeviceFiles is 0 in /proc/driver/nvidia/params: "
				  "the driver leaves the nodes to the admin): `lxgpu ensure-nodes`");
	return lx_xstrdup("by hand: ModifyDeviceFiles is 0 in /proc/driver/nvidia/params: neither "
			  "the driver, nvidia-modprobe nor lxgpu ensure-nodes makes the nvidia-major "
			  "nodes; make it as the driver would (mknod -m 0666 /dev/nvidiaN c 195 N, "
			  "/dev/nvidiactl is minor 255), or take NVreg_ModifyDeviceFiles=0 out of "
			  "/etc/modprobe.d");
}

/* The model's fix for a node of the wrong type or major: ensure-nodes
 * replaces it, but with ModifyDeviceFiles 0 not the nvidia-major ones. */
static char *wrong_node_fix(const struct lx_host_facts *f, const char *message, char *fix)
{
	_cleanup_free_ char *modify = f && f->live ? lx_nvidia_param_get(f->params, "ModifyDeviceFiles") : NULL;
	if (!modify || strcmp(modify, "0") != 0 || !fix || !strstr(fix, "lxgpu ensure-nodes") ||
	    strstr(message, "/dev/nvidia-uvm") || strstr(message, "/dev/nvidia-caps/"))
		return fix;
	free(fix);
	return lx_xstrdup("by hand: ModifyDeviceFiles is 0 in /proc/driver/nvidia/params: neither "
			  "the driver, nvidia-modprobe nor lxgpu ensure-nodes replaces the nvidia-major "
			  "nodes; remake it as the driver would (rm it, then mknod -m 0666 /dev/nvidiaN "
			  "c 195 N, /dev/nvidiactl is minor 255), or take NVreg_ModifyDeviceFiles=0 out "
			  "of /etc/modprobe.d");
}

/* The host model's prerequisites: the rules of lx_host_check (module
 * loaded, GPUs bound, nodes with the live majors, GSP firmware, flavour),
 * each with its finding code. */
static int check_model(struct check_ctx *c)
{
	struct lx_host_warnings w;
	lx_host_check(c->in->host, &w);
	for (size_t i = 0; i < w.n; i++) {
		struct lx_host_warning *x = &w.items[i];
		/* Codes come from model.c's table of rules; an uncoded warning
		 * is the model's alone. */
		if (!x->code || !lx_finding_info((enum lx_finding_code)x->code))
			continue;
		char *evidence = model_evidence(c->in->host, x);
		if (x->code == LXG121_GPU_NOT_ON_NVIDIA && !x->fix)
			x->fix = unbound_gpu_fix(c->in->host, c->in->facts, x->message);
		if (x->code == LXG122_DRIVER_NODE_MISSING)
			x->fix = missing_node_fix(c->in->facts, x->message, x->fix);
		if (x->code == LXG123_DRIVER_NODE_WRONG)
			x->fix = wrong_node_fix(c->in->facts, x->message, x->fix);
		add(c, (enum lx_finding_code)x->code, x->message, x->fix, evidence);
		if (x->info)
			lx_findings_last_severity(c->out, LX_SEVERITY_INFO);
		/* a warning for verify (the container still starts), but CUDA
		 * cannot initialize without nvidia-uvm: doctor's question */
		else if (x->code == LXG020_UVM_NOT_LOADED)
			lx_findings_last_severity(c->out, LX_SEVERITY_ERROR);
		x->message = x->fix = NULL;
	}
	lx_host_warnings_free(&w);
	return 0;
}

/* BAR1 of every GPU bound to nvidia: assigned (sysfs resource). */
static int check_bars(struct check_ctx *c)
{
	const struct lx_host *host = c->in->host;
	const struct lx_host_facts *f = c->in->facts;
	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		if (!g->bars_known || (g->driver && strcmp(g->driver, "vfio-pci") == 0))
			continue;
		const struct lx_pci_bar *bar1 = lx_gpu_bar(g, 1);
		if (bar1 && lx_pci_bar_assigned(bar1))
			continue;
		_cleanup_free_ char *realloc = f && f->live ? lx_cmdline_get(f->cmdline, "pci") : NULL;
		bool has_realloc = realloc && strstr(realloc, "realloc") && !strstr(realloc, "realloc=off");
		add(c, LXG104_BAR_UNASSIGNED,
		    lx_xasprintf("GPU %s: BAR1 has no address (the firmware did not assign it): the "
				 "driver cannot use the GPU",
				 g->bdf),
		    lx_xasprintf("enable Above 4G Decoding (and Resizable BAR) in the firmware "
				 "setup%s",
				 has_realloc ? "" : "; else add pci=realloc to the kernel command line"),
		    bar1 ? lx_xasprintf("/sys/bus/pci/devices/%s/resource line 2: 0x%016llx "
					"0x%016llx 0x%016llx",
					g->bdf, (unsigned long long)bar1->start,
					(unsigned long long)bar1->end, (unsigned long long)bar1->flags)
			 : lx_xasprintf("/sys/bus/pci/devices/%s/resource: no BAR1 line", g->bdf));
	}
	return 0;
}

static bool list_names(const char *list, const char *name)
{
	_cleanup_free_ char *copy = lx_xstrdup(list);
	char *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		/* modprobe treats - and _ in module names alike */
		for (char *p = t; *p; p++)
			if (*p == '-')
				*p = '_';
		if (strcmp(t, name) == 0)
			return true;
	}
	return false;
}

/* The live facts: kernel command line, Secure Boot, the persistence daemon. */
static int check_facts(struct check_ctx *c)
{
	const struct lx_host *host = c->in->host;
	const struct lx_host_facts *f = c->in->facts;
	if (!f || !f->live)
		return 0;
	static const char *const keys[] = {"modprobe.blacklist", "module_blacklist",
					   "rd.driver.blacklist"};
	static const char *const modules[] = {"nvidia", "nvidia_uvm"};
	for (size_t k = 0; k < 3; k++) {
		_cleanup_free_ char *v = lx_cmdline_get(f->cmdline, keys[k]);
		for (size_t m = 0; v && m < 2; m++)
			if (list_names(v, modules[m]))
				add(c, LXG128_CMDLINE_BLACKLIST,
				    lx_xasprintf("the kernel command line blacklists %s (%s=%s)%s",
						 modules[m], keys[k], v,
						 lx_host_has_module(host, modules[m])
							 ? ", although it is loaded now"
							 : ": it does not load at boot"),
				    lx_xasprintf("remove %s from %s= in the boot loader's command line "
						 "(/etc/default/grub, or /etc/kernel/cmdline with "
						 "proxmox-boot-tool refresh)",
						 modules[m], keys[k]),
				    lx_xasprintf("/proc/cmdline: %s", f->cmdline));
	}
	/* Lockdown (what Secure Boot turns on) refuses unsigned modules even
	 * where the log says nothing: modprobe's EPERM is all a user sees. */
	bool locked = f->lockdown && strcmp(f->lockdown, "none") != 0;
	bool sb = f->secure_boot == LX_SECURE_BOOT_ON;
	if ((sb || locked) && host->n_gpus && !module_loaded(host)) {
		_cleanup_free_ char *lock = locked ? lx_xasprintf("kernel lockdown is '%s'", f->lockdown) : NULL;
		_cleanup_free_ char *sb_ev = sb ? lx_xasprintf("%s: 1", f->secure_boot_source) : NULL;
		_cleanup_free_ char *lock_ev =
			locked ? lx_xasprintf("%s: [%s]", f->lockdown_source, f->lockdown) : NULL;
		add(c, LXG127_SECURE_BOOT_UNSIGNED,
		    lx_xasprintf("%s%s%s and the nvidia module is not loaded: the kernel refuses "
				 "modules not signed by a key it trusts (a DKMS build)",
				 sb ? "Secure Boot is on" : "", sb && locked ? ", " : "", lock ? lock : ""),
		    lx_xstrdup("enroll the DKMS signing key (mokutil --import /var/lib/dkms/mok.pub, "
			       "reboot, confirm in MokManager), or use signed driver packages"),
		    lx_xasprintf("%s%s%s", sb_ev ? sb_ev : "", sb && locked ? "\n" : "",
				 lock_ev ? lock_ev : ""));
	}
	/* NVLink 5 (B200, GB200): Fabric Manager's start script needs the
	 * InfiniBand management stack and the NVLink Subnet Manager (NVIDIA's
	 * Fabric Manager user guide, "Systems Using Fourth Generation
	 * NVSwitches"); without them it stays down like a missing Fabric
	 * Manager */
	if (f->nvlink5_ports.n && module_loaded(host) &&
	    (!f->mlx5_ib_loaded || !f->ib_umad_loaded || f->nvlsm_pid < 0)) {
		_cleanup_free_ char *ports = lx_strv_join(&f->nvlink5_ports, ", ");
		struct lx_strv miss = {0};
		if (!f->mlx5_ib_loaded)
			lx_strv_push(&miss, "mlx5_ib is not loaded");
		if (!f->ib_umad_loaded)
			lx_strv_push(&miss, "ib_umad is not loaded");
		if (f->nvlsm_pid < 0)
			lx_strv_push(&miss, "nvlsm (the NVLink Subnet Manager) is not running");
		_cleanup_free_ char *what = lx_strv_join(&miss, ", ");
		add(c, LXG119_NVLINK5_PREREQ,
		    lx_xasprintf("an NVLink 5 fabric (switch management port%s %s) and %s: Fabric Manager "
				 "cannot program the switches, the GPUs' fabric stays 'In Progress' and "
				 "CUDA fails with error 802 (system not yet initialized) in every container",
				 f->nvlink5_ports.n == 1 ? "" : "s", ports, what),
		    lx_xstrdup("modprobe mlx5_ib ib_umad (and name them in /etc/modules-load.d/ for the "
			       "next boot), install nvlsm of the Fabric Manager's version, then systemctl "
			       "restart nvidia-fabricmanager (its start script runs nvlsm)"),
		    lx_xasprintf("/sys/bus/pci/devices: %s (15b3, VPD SW_MNG); /sys/module/mlx5_ib %s, "
				 "/sys/module/ib_umad %s; %s nvlsm process",
				 ports, f->mlx5_ib_loaded ? "present" : "absent",
				 f->ib_umad_loaded ? "present" : "absent", f->nvlsm_pid < 0 ? "no" : "an"));
		lx_strv_free(&miss);
	}
	/* NVSwitch systems: without a Fabric Manager of the module's version
	 * the GPUs stay uninitialized (CUDA error 802, "system not yet
	 * initialized", in every container) */
	if ((f->nvswitches.n || f->nvlink5_ports.n) && module_loaded(host)) {
		/* NVLink 5's switches are not on the host's PCI bus: their
		 * management ports stand for them */
		bool nvl5 = !f->nvswitches.n;
		const struct lx_strv *sw = nvl5 ? &f->nvlink5_ports : &f->nvswitches;
		_cleanup_free_ char *list = lx_strv_join(sw, ", ");
		if (f->fabricmanager_pid < 0)
			add(c, LXG117_FABRIC_NOT_READY,
			    lx_xasprintf("%zu %s%s (%s) and nv-fabricmanager is not running: "
					 "the fabric is not set up, CUDA fails with error 802 (system not "
					 "yet initialized) in every container",
					 sw->n, nvl5 ? "NVLink 5 switch management port" : "NVSwitch function",
					 sw->n == 1 ? "" : "s", list),
			    lx_xasprintf("install the Fabric Manager of the loaded driver (%s: "
					 "nvidia-fabricmanager-%.*s) and systemctl enable --now "
					 "nvidia-fabricmanager",
					 host->driver.version, (int)strcspn(host->driver.version, "."),
					 host->driver.version),
			    lx_xasprintf("/sys/bus/pci/devices: %s (%s); no nv-fabricmanager "
					 "process%s%s",
					 list, nvl5 ? "15b3, VPD SW_MNG" : "10de, class 0680",
					 f->fabricmanager_package ? "; installed: " : "",
					 f->fabricmanager_package ? f->fabricmanager_package : ""));
		else if (f->fabricmanager_version && strcmp(f->fabricmanager_version, host->driver.version) != 0)
			add(c, LXG117_FABRIC_NOT_READY,
			    lx_xasprintf("nv-fabricmanager is %s (%s), the loaded module is %s: Fabric Manager "
					 "refuses a driver of another version and the fabric stays down",
					 f->fabricmanager_version, f->fabricmanager_package, host->driver.version),
			    lx_xasprintf("install the Fabric Manager of version %s (or reboot into the module "
					 "of version %s), then systemctl restart nvidia-fabricmanager",
					 host->driver.version, f->fabricmanager_version),
			    lx_xasprintf("/var/lib/dpkg/status: %s %s; /proc/driver/nvidia/version: %s",
					 f->fabricmanager_package, f->fabricmanager_version, host->driver.version));
	}
	/* The module modprobe would load: none for this kernel, or one built
	 * for another (its vermagic) */
	if (host->n_gpus && !module_loaded(host) && f->modules_checked && f->kernel_release) {
		if (!f->module_path)
			add(c, LXG116_MODULE_WRONG_KERNEL,
			    lx_xasprintf("no nvidia module for the running kernel %s under "
					 "/lib/modules/%s: it was not built for it (a DKMS build that "
					 "failed, or headers missing when the kernel was installed)",
					 f->kernel_release, f->kernel_release),
			    lx_xasprintf("build it for %s: install its headers (proxmox-headers-%s or "
					 "linux-headers-%s) and run dkms autoinstall, or reinstall the "
					 "driver; else boot a kernel it is built for",
					 f->kernel_release, f->kernel_release, f->kernel_release),
			    lx_xasprintf("/proc/sys/kernel/osrelease: %s; no nvidia.ko* under "
					 "/lib/modules/%s", f->kernel_release, f->kernel_release));
		else if (f->module_vermagic && strcmp(f->module_vermagic, f->kernel_release) != 0)
			add(c, LXG116_MODULE_WRONG_KERNEL,
			    lx_xasprintf("%s was built for the kernel %s, the running kernel is %s: "
					 "the kernel refuses it",
					 f->module_path, f->module_vermagic, f->kernel_release),
			    lx_xasprintf("rebuild it for %s (dkms autoinstall, or reinstall the driver "
					 "with this kernel's headers), or boot %s",
					 f->kernel_release, f->module_vermagic),
			    lx_xasprintf("%s: vermagic %s; /proc/sys/kernel/osrelease: %s",
					 f->module_path, f->module_vermagic, f->kernel_release));
	}
	if (module_loaded(host) && f->persistenced_pid < 0)
		add(c, LXG126_NO_PERSISTENCED,
		    lx_xstrdup("nvidia-persistenced is not running: without persistence mode the "
			       "first use of an idle GPU initializes it (seconds per GPU, in every "
			       "container start that opens it)"),
		    lx_xstrdup("systemctl enable --now nvidia-persistenced"),
		    lx_xasprintf("%s: no live nvidia-persistenced", f->persistenced_pidfile));
	return 0;
}

/* Extra advice a log finding gets from the live facts. */
static char *fix_with_facts(const struct lx_doctor_input *in, const struct lx_kmsg_entry *e)
{
	const struct lx_host_facts *f = in->facts;
	if (!f || !f->live)
		return lx_xstrdup(e->fix);
	if (e->code == LXG105_BAR_RESIZE_FAILED) {
		_cleanup_free_ char *v = lx_nvidia_param_get(f->params, "EnableResizableBar");
		if (v && strcmp(v, "0") != 0)
			return lx_xasprintf("%s (/proc/driver/nvidia/params: EnableResizableBar: %s)",
					    e->fix, v);
	}
	if (e->code == LXG113_IOMMU_FAULT) {
		_cleanup_free_ char *v = lx_cmdline_get(f->cmdline, "iommu");
		if (v && strcmp(v, "pt") == 0)
			return lx_xasprintf("iommu=pt is already set (/proc/cmdline): update the "
					    "driver, or turn the IOMMU off where no VM needs it");
	}
	return lx_xstrdup(e->fix);
}

/* One boot of the kernel log against the catalogue. seen: the causes
 * (row, key, GPU) found so far; boot: 0 for the current boot, else the
 * number of an earlier one in the file (1 the oldest): its findings are
 * history (info), said once for a cause, and not when the current boot
 * shows it. */
static int judge_boot(struct check_ctx *c, const struct lx_kmsg *log, unsigned boot, struct lx_strv *seen)
{
	const struct lx_doctor_input *in = c->in;
	struct lx_kmsg_matches m;
	if (lx_kmsg_match_all(log, in->host, &m, c->err) < 0)
		return -1;
	for (size_t i = 0; i < m.n; i++) {
		const struct lx_kmsg_match *x = &m.items[i];
		const struct lx_kmsg_entry *e = x->entry;
		/* a cause: the row, its key (first field) and the GPU */
		_cleanup_free_ char *key = lx_xasprintf("%s %s %s", e->id, x->values[0] ? x->values[0] : "-",
							 x->pci ? x->pci : "-");
		if (boot && lx_strv_contains(seen, key))
			continue;
		lx_strv_push(seen, key);
		/* a file the live check judged: said once, by LXG170/LXG171 */
		if (e->code == LXG140_GPU_FIRMWARE_MISSING && in->host &&
		    lx_doctor_drm_judged(in->host, x->pci, lx_kmsg_match_field(x, "file")))
			continue;
		_cleanup_free_ char *times = x->count > 1 ? lx_xasprintf(" (%zu times)", x->count) : NULL;
		/* the Xid rows' address as the log has it: no address there, elided */
		const char *logged = lx_kmsg_match_field(x, "logged_gpu");
		_cleanup_free_ char *gpu = x->pci ? lx_xasprintf("GPU %s: ", x->pci)
			: logged ? lx_xasprintf("GPU unknown (its address elided in the log: "
							  "\"%s\"): ", logged)
			: NULL;
		_cleanup_free_ char *cause = lx_kmsg_match_fill(x, e->cause);
		char *fix = NULL;
		_cleanup_free_ char *more = NULL;
		if (x->xid) {
			/* the number's meaning and NVIDIA's resolution bucket */
			free(cause);
			const char *action = lx_kmsg_match_field(x, "action");
			cause = lx_xasprintf("Xid %u (%s): %s; NVIDIA's resolution: %s%s%s%s", x->xid->number,
					     x->xid->mnemonic, x->xid->meaning, x->xid->bucket,
					     action ? " (recovery action now: " : "", action ? action : "",
					     action ? ")" : "");
			fix = lx_xstrdup(x->xid->fix);
			/* Xid 45 after another Xid: that one is what to act on */
			const char *root = lx_kmsg_match_field(x, "root_xid");
			const struct lx_xid_info *rx = root ? lx_xid_lookup((unsigned)strtoul(root, NULL, 10)) : NULL;
			if (rx) {
				more = lx_xasprintf(", caused by Xid %u (%s): %s; its resolution: %s", rx->number,
						    rx->mnemonic, rx->meaning, rx->bucket);
				free(fix);
				fix = lx_xstrdup(rx->fix);
			} else if (root) {
				more = lx_xasprintf(", caused by Xid %s (look it up in NVIDIA's Xid catalogue)", root);
			}
		} else if (e->flags & LX_KMSG_NEEDS_CAUSE) {
			/* why, from a message about this same GPU only */
			const struct lx_kmsg_match *why = x->cause ? &m.items[x->cause - 1] : NULL;
			if (why) {
				_cleanup_free_ char *because = why->xid
					? lx_xasprintf("Xid %u (%s): %s", why->xid->number, why->xid->mnemonic,
						       why->xid->meaning)
					: lx_kmsg_match_fill(why, why->entry->cause);
				more = lx_xasprintf(", because %s (line %u)", because,
						    log->lines[why->first].lineno);
				fix = why->xid ? lx_xstrdup(why->xid->fix) : lx_kmsg_match_fill(why, why->entry->fix);
			} else {
				more = lx_xstrdup("; no message about this GPU before it says why: the cause is "
						  "not in the log");
			}
			/* RmInitAdapter's own code still says where it failed */
			const char *stage = lx_kmsg_match_field(x, "stage");
			const char *error = lx_kmsg_match_field(x, "error");
			if (error) {
				const char *words = lx_rm_init_stage_text(stage);
				char *with = stage
					? lx_xasprintf("%s; its code says: the %s stage (%s) failed with %s",
						       more ? more : "", words, stage, error)
					: lx_xasprintf("%s; its code says: it failed with %s", more ? more : "", error);
				free(more);
				more = with;
			}
		}
		if (!fix) {
			_cleanup_free_ char *plain = fix_with_facts(in, e);
			fix = lx_kmsg_match_fill(x, plain);
		}
		/* a GPU that did not come up: the driver the log loaded then
		 * (firmware and GSP failures are version-bound) */
		if (e->code == LXG106_INIT_FAILED || e->code == LXG107_GSP_FIRMWARE_MISSING ||
		    e->code == LXG108_GSP_BOOT_FAILED) {
			_cleanup_free_ char *ver = lx_kmsg_module_version_before(log, x->first);
			if (ver) {
				char *with = lx_xasprintf("%s (driver %s)", more ? more : "", ver);
				free(more);
				more = with;
			}
		}
		_cleanup_free_ char *when = boot
			? lx_xasprintf(" (in an earlier boot of the log, boot %u of %u, lines %u-%u; the current "
				       "boot does not show it)", boot, in->kmsg->boots, log->lines[0].lineno,
				       log->lines[log->n - 1].lineno)
			: NULL;
		lx_findings_add(c->out, e->code, NULL, log->source, (int)log->lines[x->last].lineno, NULL,
				lx_xasprintf("%s%s%s%s%s", gpu ? gpu : "", cause, more ? more : "",
					     times ? times : "", when ? when : ""),
				host_fix(e->code, fix));
		lx_findings_last_severity(c->out, boot ? LX_SEVERITY_INFO : x->severity);
		lx_findings_last_evidence(c->out, lx_kmsg_match_evidence(log, &m, x));
	}
	lx_kmsg_matches_free(&m);
	return 0;
}

/* The kernel log: the current boot, then a saved log's earlier boots, the
 * newest first. */
static int check_kmsg(struct check_ctx *c)
{
	const struct lx_doctor_input *in = c->in;
	if (!in->kmsg) {
		if (in->kmsg_error)
			add(c, LXG129_KMSG_UNREADABLE,
			    lx_xasprintf("the kernel log was not read (%s): its messages are not checked",
					 in->kmsg_error),
			    lx_xstrdup("run doctor as root, or give a saved log: --kmsg FILE"), NULL);
		return 0;
	}
	struct lx_strv seen = {0};
	int rc = judge_boot(c, in->kmsg, 0, &seen);
	size_t first = in->kmsg->boots - in->kmsg->n_earlier; /* earlier[0]'s boot number */
	for (size_t k = in->kmsg->n_earlier; rc == 0 && k-- > 0;)
		rc = judge_boot(c, &in->kmsg->earlier[k], (unsigned)(first + k), &seen);
	lx_strv_free(&seen);
	return rc;
}

/* What on the command line turns DRIVERS off: "amdgpu.modeset=0", or
 * "nomodeset" when none of them is told modeset=1; NULL when nothing. */
static char *modeset_off(const char *cmdline, const char *const *drivers)
{
	bool forced_on = false;
	for (size_t d = 0; drivers[d]; d++) {
		_cleanup_free_ char *key = lx_xasprintf("%s.modeset", drivers[d]);
		_cleanup_free_ char *v = lx_cmdline_get(cmdline, key);
		if (v && strcmp(v, "0") == 0)
			return lx_xasprintf("%s=0", key);
		forced_on |= v && strcmp(v, "1") == 0;
	}
	_cleanup_free_ char *nomodeset = lx_cmdline_get(cmdline, "nomodeset");
	return nomodeset && !forced_on ? lx_xstrdup("nomodeset") : NULL;
}

/* LXG153, live: an AMD or Intel display GPU without a driver while the
 * command line turns modesetting off (drm_nomodeset.c: amdgpu, radeon,
 * i915 and xe then refuse to load). After the log's check: a GPU its
 * LXG153 already names is not told twice. */
static int check_modeset(struct check_ctx *c)
{
	const struct lx_host_facts *f = c->in->facts;
	if (!f || !f->live || !f->cmdline)
		return 0;
	static const char *const amd[] = {"amdgpu", "radeon", NULL};
	static const char *const intel[] = {"i915", "xe", NULL};
	for (size_t v = 0; v < 2; v++) {
		const struct lx_strv *gpus = v == 0 ? &f->driverless_amd : &f->driverless_intel;
		const char *const *drivers = v == 0 ? amd : intel;
		_cleanup_free_ char *off = modeset_off(f->cmdline, drivers);
		for (size_t i = 0; off && i < gpus->n; i++) {
			_cleanup_free_ char *named = lx_xasprintf("GPU %s:", gpus->items[i]);
			bool told = false;
			for (size_t k = 0; k < c->out->n && !told; k++)
				told = c->out->items[k].code == LXG153_MODESET_DISABLED &&
				       strstr(c->out->items[k].message, named);
			if (told)
				continue;
			add(c, LXG153_MODESET_DISABLED,
			    lx_xasprintf("GPU %s: no driver, and the kernel command line has %s: kernel "
					 "modesetting is off, so %s and %s refuse to load; no /dev/dri (or "
					 "/dev/kfd) node, containers get no GPU from it",
					 gpus->items[i], off, drivers[0], drivers[1]),
			    lx_xasprintf("remove %s from the kernel command line (GRUB_CMDLINE_LINUX_DEFAULT "
					 "in /etc/default/grub then update-grub, or /etc/kernel/cmdline then "
					 "proxmox-boot-tool refresh), reboot",
					 off),
			    lx_xasprintf("/proc/cmdline: %s", f->cmdline));
		}
	}
	return 0;
}

/* The checks, in order. A module with findings of its own about the host
 * (peer-to-peer readiness) adds its function here. */
static int check_p2p(struct check_ctx *c)
{
	size_t first = c->out->n;
	lx_doctor_p2p(c->in->host, c->out);
	/* Its fixes are host settings and commands to run as root: by hand. */
	for (size_t i = first; i < c->out->n; i++)
		c->out->items[i].fix = host_fix(c->out->items[i].code, c->out->items[i].fix);
	return 0;
}

/* Causes the kernel log does not show (silent.c). */
static int check_silent(struct check_ctx *c)
{
	lx_doctor_uvm_hmm(c->in->host, c->in->probe, c->out);
	if (c->in->probe)
		lx_doctor_probe(c->in->host, c->in->probe, c->in->probe_timeout_ms, c->out);
	return 0;
}

/* The DRM GPUs' firmware and amdkfd as the host has them now (firmware.c). */
static int check_drm(struct check_ctx *c)
{
	lx_doctor_drm(c->in->host, c->in->kmsg, c->out);
	return 0;
}

static int (*const checks[])(struct check_ctx *) = {
	check_model,
	check_bars,
	check_silent,
	check_p2p,
	check_facts,
	check_kmsg,
	check_modeset,
	check_drm,
};

int lx_doctor_host(const struct lx_doctor_input *in, struct lx_findings *out, struct lx_error *err)
{
	struct check_ctx c = {in, out, err};
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if (checks[i](&c) < 0)
			return -1;
	return 0;
}

/* A GPU the host findings say is unusable (an Xid that needs a reset, off
 * the bus, not initialized): an error for every container holding it, said
 * again as the container's. Host findings about a GPU start "GPU <bdf>: ". */
static void mark_holders(const char *id, const struct lx_strv *gpus, size_t n_host,
			 struct lx_findings *out)
{
	for (size_t i = 0; i < n_host; i++) {
		const struct lx_finding *f = &out->items[i];
		if (f->container || f->severity != LX_SEVERITY_ERROR || !f->message ||
		    !lx_str_starts_with(f->message, "GPU "))
			continue;
		const char *bdf = f->message + strlen("GPU ");
		const char *end = strstr(bdf, ": ");
		if (!end || end - bdf > 16)
			continue;
		_cleanup_free_ char *gpu = lx_xstrndup(bdf, (size_t)(end - bdf));
		if (!lx_strv_contains(gpus, gpu))
			continue;
		enum lx_finding_code code = f->code;
		char *message = lx_xasprintf("the container holds GPU %s, which cannot be used: %s", gpu,
					     end + 2);
		char *fix = f->fix ? lx_xstrdup(f->fix) : NULL;
		char *evidence = f->evidence ? lx_xstrdup(f->evidence) : NULL;
		char *file = f->file ? lx_xstrdup(f->file) : NULL;
		int line = f->line;
		lx_findings_add(out, code, id, file, line, NULL, message, fix);
		lx_findings_last_severity(out, LX_SEVERITY_ERROR);
		lx_findings_last_evidence(out, evidence);
		free(file);
	}
}

/* A host finding that stops CUDA everywhere (HMM on; verify says the
 * container's LXG020 itself): said again as the container's when it holds
 * an NVIDIA GPU. */
static void mark_cuda_users(const struct lx_host *host, const char *id, const struct lx_strv *gpus,
			    size_t n_host, struct lx_findings *out)
{
	bool nvidia = false;
	for (size_t i = 0; i < gpus->n && !nvidia; i++) {
		const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, gpus->items[i]);
		nvidia = g && lx_gpu_kind(g) == LX_GPU_NVIDIA;
	}
	for (size_t i = 0; nvidia && i < n_host; i++) {
		const struct lx_finding *f = &out->items[i];
		if (f->container || f->code != LXG132_UVM_HMM)
			continue;
		enum lx_finding_code code = f->code;
		enum lx_severity severity = f->severity;
		char *message = lx_xasprintf("the container's CUDA goes through the host's nvidia_uvm: %s",
					     f->message);
		char *fix = f->fix ? lx_xasprintf("on the host: %s", f->fix) : NULL;
		char *evidence = f->evidence ? lx_xstrdup(f->evidence) : NULL;
		lx_findings_add(out, code, id, NULL, 0, NULL, message, fix);
		lx_findings_last_severity(out, severity);
		lx_findings_last_evidence(out, evidence);
	}
}

int lx_doctor_container(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			const struct lx_runtime_paths *paths, struct lx_findings *out,
			struct lx_container_report *report, struct lx_doctor_userspace *u,
			struct lx_error *err)
{
	memset(u, 0, sizeof(*u));
	size_t host_findings = out->n;
	/* verify's checks as they are, LXG011 for libraries of another
	 * version among them */
	if (lx_verify_container(host, id, path, is_pve, paths, out, report, err) < 0)
		return -1;
	mark_holders(id, &report->gpus, host_findings, out);
	mark_cuda_users(host, id, &report->gpus, host_findings, out);
	struct lx_conf conf;
	if (lx_conf_load(path, &conf, err) < 0) {
		lx_container_report_free(report);
		return -1;
	}
	struct lx_running run;
	lx_container_find(paths, host->cgroup, id, &run);
	int root_fd = lx_container_open_root(paths, id, &conf, &run);
	lx_running_free(&run);
	lx_conf_free(&conf);
	if (root_fd >= 0) {
		u->checked = true;
		lx_rootfs_driver_versions(root_fd, &u->versions, &u->files);
		lx_doctor_toolkit(root_fd, id, is_pve, report->access.unprivileged, out);
		close(root_fd);
	}
	return 0;
}

void lx_doctor_userspace_free(struct lx_doctor_userspace *u)
{
	lx_strv_free(&u->versions);
	lx_strv_free(&u->files);
	memset(u, 0, sizeof(*u));
}
