/* Kernel oopses, BUGs and WARNs: which code they happened in.
 *
 * An oops spans many lines, each its own record (arch/x86/kernel/dumpstack.c
 * __die(), show_regs(), show_trace_log_lvl(); kernel/panic.c __warn()): the
 * header ("BUG: kernel NULL pointer dereference", "general protection
 * fault", "Oops: 0000 [#1]", arm64's "Unable to handle kernel paging
 * request", "WARNING: CPU: 3 PID: 1 at FILE:LINE func+0x1/0x2 [module]"),
 * "Modules linked in:" (every loaded module: says nothing about the fault),
 * "CPU:", "Hardware name:", the faulting instruction ("RIP: 0010:func+0x1f/
 * 0x170 [module]", 4.x's "IP: [<addr>] func+...", arm64's "pc : func+...")
 * and "Call Trace:" with one frame a line ("? " before a frame the unwinder
 * is not sure of), to "---[ end trace ...]---". The code it happened in is
 * the WARN's location or the faulting instruction's module; where that is
 * the kernel itself or a DRM helper module, the first sure frame of another
 * module in the call trace (the driver the helper ran for). */
#include "lxgpu/doctor.h"

#include <ctype.h>
#include <string.h>

/* How far an oops runs at most: registers, code and a deep call trace. */
#define OOPS_LINES_MAX 160

/* Modules that run for a GPU driver (DRM core and its helpers, TTM, the
 * GPU scheduler; the DKMS amdgpu's own copies of them): a fault in one is
 * the driver's that called it. */
static const char *const helpers[] = {
	"drm",	       "drm_kms_helper", "drm_ttm_helper", "drm_display_helper", "drm_buddy",
	"drm_exec",    "drm_suballoc_helper", "drm_gpuvm", "drm_vram_helper", "drm_shmem_helper",
	"ttm",	       "gpu_sched",	 "amd_sched",	   "amdttm",		 "amdxcp",
	"drm_sched",
};

static bool is_helper(const char *module)
{
	for (size_t h = 0; h < sizeof(helpers) / sizeof(helpers[0]); h++)
		if (strcmp(module, helpers[h]) == 0)
			return true;
	return false;
}

/* The GPU driver a module is part of, as its dev_printk lines name it
 * ("nvidia 0000:01:00.0: ..."); NULL for another module. */
static const char *gpu_driver(const char *module)
{
	if (lx_str_starts_with(module, "nvidia") || strcmp(module, "nv_peer_mem") == 0)
		return "nvidia";
	/* the DKMS amdgpu's kernel compatibility layer; amdkfd, a module of its
	 * own before 4.20 */
	if (strcmp(module, "amdkcl") == 0 || strcmp(module, "amdkfd") == 0)
		return "amdgpu";
	static const char *const drivers[] = {"amdgpu", "i915", "xe", "radeon", "nouveau"};
	for (size_t d = 0; d < sizeof(drivers) / sizeof(drivers[0]); d++)
		if (strcmp(module, drivers[d]) == 0)
			return drivers[d]; /* the table's: it outlives the module's name */
	return NULL;
}

/* "func+0x1f/0x170 [module]": the module in the brackets after a symbol
 * (the first such bracket on the line); NULL for kernel code. */
static char *frame_module(const char *text)
{
	for (const char *p = strstr(text, "/0x"); p; p = strstr(p + 1, "/0x")) {
		const char *q = p + 3;
		while (isxdigit((unsigned char)*q))
			q++;
		if (q[0] != ' ' || q[1] != '[')
			continue;
		size_t n = strspn(q + 2, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
		/* CONFIG_STACKTRACE_BUILD_ID (5.19 and later): "[nvidia 8a3e...]" */
		const char *after = q + 2 + n;
		if (*after == ' ')
			after += 1 + strspn(after + 1, "0123456789abcdef");
		if (n && *after == ']')
			return lx_xstrndup(q + 2, n);
	}
	return NULL;
}

/* The symbol "name+0x1f/0x170" on a line, NULL when none. */
static char *frame_symbol(const char *text)
{
	const char *plus = strstr(text, "+0x");
	if (!plus || !strstr(plus, "/0x"))
		return NULL;
	const char *start = plus;
	while (start > text && (isalnum((unsigned char)start[-1]) || start[-1] == '_' || start[-1] == '.'))
		start--;
	const char *end = plus + 3;
	while (isxdigit((unsigned char)*end))
		end++;
	if (lx_str_starts_with(end, "/0x")) {
		end += 3;
		while (isxdigit((unsigned char)*end))
			end++;
	}
	return start < plus ? lx_xstrndup(start, (size_t)(end - start)) : NULL;
}

/* The proprietary nvidia.ko's RM symbols are obfuscated as _nv012345rm
 * (a trace without the module's bracket still shows them). */
static bool nvidia_rm_symbol(const char *text)
{
	for (const char *p = strstr(text, "_nv"); p; p = strstr(p + 1, "_nv")) {
		size_t d = strspn(p + 3, "0123456789");
		if (d >= 4 && strncmp(p + 3 + d, "rm", 2) == 0)
			return true;
	}
	return false;
}

/* The GPU driver the symbol SYM ("nouveau_gem_ioctl_pushbuf+0x1448/0x1660")
 * of a frame without a module's bracket belongs to: a driver built into the
 * kernel (CONFIG_DRM_NOUVEAU=y, a distribution or vendor kernel with i915
 * or amdgpu built in) prints its frames bare; its functions' own prefixes
 * name it (none of these prefixes is the core kernel's). NULL for others. */
static char *builtin_driver_of(const char *sym)
{
	static const struct {
		const char *prefix, *driver;
	} prefixes[] = {
		{"nouveau_", "nouveau"}, {"nvkm_", "nouveau"}, {"amdgpu_", "amdgpu"}, {"kgd2kfd_", "amdgpu"},
		{"radeon_", "radeon"},   {"i915_", "i915"},    {"xe_", "xe"},
	};
	for (size_t p = 0; sym && p < sizeof(prefixes) / sizeof(prefixes[0]); p++)
		if (strncmp(sym, prefixes[p].prefix, strlen(prefixes[p].prefix)) == 0)
			return lx_xstrdup(prefixes[p].driver);
	return NULL;
}

/* The module a source path belongs to: the kernel's drivers/gpu/drm/amd,
 * i915, xe trees, DKMS builds of them, NVIDIA's kernel-open directories. */
static const char *path_module(const char *path, size_t len)
{
	static const struct {
		const char *dir, *module;
	} dirs[] = {
		{"drivers/gpu/drm/amd/", "amdgpu"}, {"/amd/amdgpu/", "amdgpu"}, {"/amd/amdkfd/", "amdgpu"},
		{"/amd/display/", "amdgpu"}, {"/amd/amdkcl/", "amdkcl"},	    {"drivers/gpu/drm/i915/", "i915"}, {"drivers/gpu/drm/xe/", "xe"},
		{"nvidia-uvm/", "nvidia_uvm"},	    {"nvidia-drm/", "nvidia_drm"},	   {"nvidia-modeset/", "nvidia_modeset"},
		{"nvidia-peermem/", "nvidia_peermem"}, {"/nvidia/nv", "nvidia"},
		{"drivers/gpu/drm/nouveau/", "nouveau"}, {"drivers/gpu/drm/radeon/", "radeon"},
	};
	_cleanup_free_ char *p = lx_xstrndup(path, len);
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		if (strstr(p, dirs[d].dir))
			return dirs[d].module;
	return NULL;
}

/* Whether a call-trace frame's function is a power-management callback
 * or the PM core's step that runs one (drivers/base/power/main.c,
 * runtime.c, drivers/pci/pci-driver.c, the GPU drivers' dev_pm_ops and the
 * functions those call by name); the step its name says, "" when it says
 * none (dpm_run_callback), NULL for another function. Idle callbacks and
 * pci_pm_reset() are no transition. */
static const char *pm_frame_step(const char *name, bool *runtime)
{
	static const char *const frames[] = {
		"dpm_", "device_suspend", "__device_suspend", "device_resume", "device_prepare",
		"device_complete", "async_suspend", "async_resume", "pci_pm_", "pm_generic_", "rpm_",
		"__rpm_", "pm_runtime_work", "amdgpu_pmops_", "radeon_pmops_", "nouveau_pmops_",
		"i915_pm_", "nv_pmops_", "amdgpu_device_suspend", "amdgpu_device_resume",
		"amdgpu_device_prepare", "radeon_suspend_kms", "radeon_resume_kms", "nouveau_do_suspend",
		"nouveau_do_resume", "i915_drm_suspend", "i915_drm_resume", "i915_drm_freeze",
		"i915_drm_thaw", "i915_drm_prepare", "intel_runtime_suspend", "intel_runtime_resume",
		"xe_pm_suspend", "xe_pm_resume", "xe_pm_runtime_suspend", "xe_pm_runtime_resume",
		"xe_pci_suspend", "xe_pci_resume", "xe_pci_runtime_", "nvidia_suspend", "nvidia_resume",
		"nv_set_system_power_state", "nv_suspend_devices", "nv_resume_devices",
		"nv_pm_notifier_callback",
	};
	bool pm = false;
	for (size_t f = 0; f < sizeof(frames) / sizeof(frames[0]) && !pm; f++)
		pm = lx_str_starts_with(name, frames[f]);
	if (!pm || strstr(name, "idle") || strstr(name, "reset"))
		return NULL;
	*runtime |= strstr(name, "runtime") || lx_str_starts_with(name, "rpm_") ||
		    lx_str_starts_with(name, "__rpm_");
	if (strstr(name, "resume") || strstr(name, "thaw") || strstr(name, "restore") ||
	    strstr(name, "complete"))
		return "resume";
	if (strstr(name, "suspend") || strstr(name, "freeze") || strstr(name, "poweroff") ||
	    strstr(name, "prepare") || strstr(name, "quiesce"))
		return "suspend";
	return "";
}

enum header {
	HEADER_NONE,
	HEADER_OOPS,    /* the code cannot go on: oops, BUG(), GPF, paging request */
	HEADER_WARN,    /* WARN(): the kernel goes on */
	HEADER_LOCKUP,  /* soft lockup, a sleeping call in atomic context, a hung task */
	HEADER_IP,      /* a faulting-instruction line seen without its header */
	HEADER_TRACE,   /* a call trace seen without its header (a cut excerpt) */
};

static bool starts(const char *t, const char *prefix)
{
	return lx_str_starts_with(t, prefix);
}

/* What a line opens, with any text before the kernel's (a post's "**")
 * allowed for the oops headers that cannot be mistaken. */
static enum header header_of(const char *t, const char **kind)
{
	static const struct {
		const char *text, *kind;
		enum header h;
	} oopses[] = {
		{"BUG: unable to handle kernel NULL pointer dereference", "NULL pointer dereference", HEADER_OOPS},
		{"BUG: kernel NULL pointer dereference", "NULL pointer dereference", HEADER_OOPS},
		{"BUG: unable to handle kernel paging request", "paging request", HEADER_OOPS},
		{"BUG: unable to handle page fault", "page fault", HEADER_OOPS},
		{"Unable to handle kernel NULL pointer dereference", "NULL pointer dereference", HEADER_OOPS},
		{"Unable to handle kernel paging request", "paging request", HEADER_OOPS},
		/* arm64 __do_kernel_fault()'s other kinds of a kernel fault */
		{"Unable to handle kernel write to read-only memory", "write to read-only memory",
		 HEADER_OOPS},
		{"Unable to handle kernel execute from non-executable memory",
		 "execute from non-executable memory", HEADER_OOPS},
		{"Unable to handle kernel read from unreadable memory", "read from unreadable memory",
		 HEADER_OOPS},
		{"Unable to handle kernel access to user memory outside uaccess routines",
		 "access to user memory outside uaccess routines", HEADER_OOPS},
		{"general protection fault", "general protection fault", HEADER_OOPS},
		{"kernel BUG at ", "BUG()", HEADER_OOPS},
		{"Internal error: Oops", "oops", HEADER_OOPS},
		{"Oops: ", "oops", HEADER_OOPS},
		/* arch/arm64/kernel/traps.c arm64_serror_panic(): pr_crit("SError
		 * Interrupt on CPU%d, code 0x%016lx -- %s\n"), the registers,
		 * then panic: a device (a GPU gone from the bus) answered a read
		 * with a bus error */
		{"SError Interrupt on CPU", "SError (a bus error on a device access)", HEADER_OOPS},
		{"BUG: soft lockup", "soft lockup", HEADER_LOCKUP},
		{"BUG: scheduling while atomic", "scheduling while atomic", HEADER_LOCKUP},
		{"BUG: sleeping function called from invalid context", "sleeping call in atomic context",
		 HEADER_LOCKUP},
	};
	/* arch/x86/kernel/traps.c's report of a user program's fault ("traps:
	 * ollama[1234] general protection fault ip:... in libfoo.so") is no
	 * kernel oops */
	if (starts(t, "traps: "))
		return HEADER_NONE;
	for (size_t o = 0; o < sizeof(oopses) / sizeof(oopses[0]); o++) {
		const char *at = strstr(t, oopses[o].text);
		/* "watchdog: BUG: soft lockup"; a post's "**[   29.775289] BUG: ..."
		 * (the stamp then not taken off) */
		if (at && at - t <= 24) {
			*kind = oopses[o].kind;
			return oopses[o].h;
		}
	}
	/* kernel/hung_task.c check_hung_task(): "INFO: task %s:%d blocked for
	 * more than %ld seconds.", then the task's call trace */
	if (starts(t, "INFO: task ") && strstr(t, " blocked for more than ")) {
		*kind = "hung task";
		return HEADER_LOCKUP;
	}
	/* kernel/rcu/tree_stall.h: "INFO: %s self-detected stall on CPU",
	 * "INFO: %s detected stalls on CPUs/tasks:", "INFO: %s detected
	 * expedited stalls on CPUs/tasks: {" (pr_fmt "rcu: " since 4.20), then
	 * the stalled CPU's registers and trace */
	const char *info = strstr(t, "INFO: ");
	if (info && info - t <= 6 &&
	    (strstr(info, " self-detected stall on CPU") || strstr(info, " detected stalls on CPU") ||
	     strstr(info, " detected expedited stalls on CPU"))) {
		*kind = "RCU stall";
		return HEADER_LOCKUP;
	}
	/* show_trace_log_lvl()'s "Call Trace:", arm64 dump_backtrace()'s "Call
	 * trace:", with no header before it: the excerpt was cut above it */
	if (starts(t, "Call Trace:") || starts(t, "Call trace:")) {
		*kind = "call trace";
		return HEADER_TRACE;
	}
	/* __warn(): "WARNING: CPU: %d PID: %d at %s:%d %pS", without a file
	 * "... at %pS", before 3.12 "WARNING: at %s:%d %pS()", 2025 kernels
	 * "WARNING: %s:%d at %pS, CPU#%d: %s/%d" */
	if (starts(t, "WARNING: CPU: ") || starts(t, "WARNING: at ") ||
	    (starts(t, "WARNING: ") && strstr(t, " at ") && strstr(t, "CPU#"))) {
		*kind = "WARN";
		return HEADER_WARN;
	}
	if (starts(t, "RIP: ") || starts(t, "IP: ") || starts(t, "EIP: ") || starts(t, "pc : ")) {
		*kind = starts(t, "IP: ") ? "oops" : "fault or warning";
		/* 4.x x86 printed "IP:" in the oops header only */
		return HEADER_IP;
	}
	return HEADER_NONE;
}

static bool is_ip_line(const char *t)
{
	return starts(t, "RIP: ") || starts(t, "IP: ") || starts(t, "EIP: ") || starts(t, "pc : ") ||
	       starts(t, "NIP [");
}

/* A line that is a call-trace frame and nothing else ("? " before an unsure
 * one): "amdgpu_pci_probe+0x100/0x180 [amdgpu]", as show_trace_log_lvl()
 * prints it; the faulting instruction's lines ("RIP: ", "pc : ") have a
 * prefix. */
static bool bare_frame(const char *t)
{
	t += strspn(t, " \t");
	if (starts(t, "? "))
		t += 2;
	size_t n = strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
	if (n == 0 || strncmp(t + n, "+0x", 3) != 0)
		return false;
	t += n + 3;
	n = strspn(t, "0123456789abcdef");
	if (n == 0 || strncmp(t + n, "/0x", 3) != 0)
		return false;
	t += n + 3;
	n = strspn(t, "0123456789abcdef");
	if (n == 0)
		return false;
	t += n;
	if (*t == ' ' && t[1] == '[') {
		t += 2 + strspn(t + 2, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (*t++ != ']')
			return false;
	}
	return *t == '\0';
}

/* A driver's ordinary message, which no oops prints: dev_printk's "amdgpu
 * 0000:03:00.0: ", pr_fmt's "amdgpu: ", "NVRM: ", DRM's "[drm". Words an
 * oops itself starts lines with ("task:", "note:", arm64's "pc :" and
 * registers) are not. A log cut by grep goes on with such lines at once. */
static bool driver_message(const char *t)
{
	if (starts(t, "NVRM: ") || starts(t, "[drm"))
		return true;
	size_t w = strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789_-");
	if (w == 0 || !islower((unsigned char)t[0]))
		return false;
	if (t[w] == ':' && t[w + 1] == ' ') {
		static const char *const oops_words[] = {"task", "note", "pc", "lr", "sp", "pstate", "rcu"};
		for (size_t o = 0; o < sizeof(oops_words) / sizeof(oops_words[0]); o++)
			if (w == strlen(oops_words[o]) && strncmp(t, oops_words[o], w) == 0)
				return false;
		return !(t[0] == 'x' && strspn(t + 1, "0123456789") == w - 1);
	}
	/* "amdgpu 0000:03:00.0: " */
	const char *a = t + w;
	return *a == ' ' && strspn(a + 1, "0123456789abcdefABCDEF:.") >= 7 && strchr(a + 1, ':') &&
	       strstr(a + 1, ": ") && (size_t)(strstr(a + 1, ": ") - a) <= 18;
}

/* A line an oops prints after its header (its own message is not one). */
static bool oops_line(const char *t)
{
	static const char *const prefixes[] = {"Modules linked in", "CPU: ", "Hardware name", "RIP: ", "EIP: ",
					       "pc : ", "Call Trace", "Call trace", "Workqueue:", "task:",
					       "Tainted:", "Code:", "RSP:", "---[", "irq event stamp"};
	const char *k;
	for (size_t p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++)
		if (starts(t, prefixes[p]))
			return true;
	return header_of(t, &k) != HEADER_NONE;
}

static bool ends_oops(const char *t)
{
	return strstr(t, "---[ end trace") || strstr(t, "---[ end Kernel panic") || strstr(t, "[ cut here ]") ||
	       driver_message(t);
}

/* The module a WARN's or BUG()'s location names: "[module]" after the
 * symbol, else the file's directory. */
static char *location_module(const char *t)
{
	char *m = frame_module(t);
	if (m)
		return m;
	const char *at = strstr(t, " at ");
	if (!at)
		return NULL;
	at += 4;
	size_t n = strcspn(at, " :!");
	const char *mod = path_module(at, n);
	return mod ? lx_xstrdup(mod) : NULL;
}

void lx_oops_free(struct lx_oops *o)
{
	free(o->module);
	free(o->function);
	free(o->process);
	free(o->pm_callback);
	free(o->context_frame);
	memset(o, 0, sizeof(*o));
}

/* "CPU: 3 PID: 1234 Comm: modprobe Tainted: ..." (and "UID: 0" before Comm
 * in 6.x): the process. */
static char *comm_of(const char *t)
{
	/* a hung task's header: "INFO: task %s:%d blocked ..." */
	if (starts(t, "INFO: task ") && strstr(t, " blocked for more than ")) {
		const char *name = t + strlen("INFO: task ");
		const char *blocked = strstr(name, " blocked for ");
		const char *colon = NULL; /* the last before " blocked": the name may have one */
		for (const char *p = name; p < blocked; p++)
			if (*p == ':')
				colon = p;
		return colon && colon > name ? lx_xstrndup(name, (size_t)(colon - name)) : NULL;
	}
	const char *c = starts(t, "CPU: ") ? strstr(t, " Comm: ") : NULL;
	if (!c)
		return NULL;
	c += strlen(" Comm: ");
	size_t n = strcspn(c, " ");
	return n ? lx_xstrndup(c, n) : NULL;
}

/* A function of the DRM core, TTM, the GPU scheduler or dma-buf's fences,
 * which kernels may build in (no "[module]" after it): it ran for a GPU
 * driver. */
static bool gpu_core_symbol(const char *sym)
{
	static const char *const prefixes[] = {"drm_", "ttm_", "dma_fence", "dma_resv", "dma_buf"};
	for (size_t p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++)
		if (starts(sym, prefixes[p]))
			return true;
	return false;
}

/* A line an oops prints after its task's call trace ("</TASK>"):
 * arch/x86/kernel/dumpstack.c oops_end() and __show_regs(), "Modules linked
 * in:" (6.x), "CR2:", "---[ end trace %016llx ]---", the registers ("RIP:",
 * "RAX:", "R10:", "FS:", "CR0:", "DR0:", "PKRU:"), "Kernel panic - not
 * syncing", "Kernel Offset:", "note: %s[%d] exited with ...". */
static bool trailer_line(const char *t)
{
	static const char *const trailers[] = {"Modules linked in", "---[", "Code:", "note: ", "Kernel panic",
					       "Kernel Offset", "irq event stamp", "hardirqs ", "softirqs "};
	for (size_t p = 0; p < sizeof(trailers) / sizeof(trailers[0]); p++)
		if (starts(t, trailers[p]))
			return true;
	size_t r = strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
	return r >= 2 && r <= 4 && t[r] == ':' && isupper((unsigned char)t[0]);
}

/* The GPU driver of a driver message ("amdgpu 0000:03:00.0: ...",
 * "amdgpu: ...", "NVRM: ...", "[drm:amdgpu_job_timedout [amdgpu]] ..."),
 * NULL for another's. */
static const char *message_driver(const char *t)
{
	if (starts(t, "NVRM: ") || starts(t, "NVRM "))
		return "nvidia";
	if (starts(t, "[drm:")) {
		const char *b = strstr(t, " [");
		size_t n = b ? strcspn(b + 2, "]") : 0;
		_cleanup_free_ char *m = n ? lx_xstrndup(b + 2, n) : NULL;
		return m ? gpu_driver(m) : NULL;
	}
	size_t w = strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789_-");
	_cleanup_free_ char *m = w ? lx_xstrndup(t, w) : NULL;
	return m && driver_message(t) ? gpu_driver(m) : NULL;
}

/* A message of the DRM core or a DRM helper module, which names no driver
 * ("[drm:drm_dp_dual_mode_detect [drm_kms_helper]] *ERROR* ...", "[drm]
 * ..."): it ran for one of the log's GPU drivers. */
static bool drm_core_message(const char *t)
{
	if (starts(t, "[drm] "))
		return true;
	if (!starts(t, "[drm:"))
		return false;
	const char *b = strstr(t, " [");
	size_t n = b ? strcspn(b + 2, "]") : 0;
	_cleanup_free_ char *m = n ? lx_xstrndup(b + 2, n) : NULL;
	return !m || is_helper(m);
}

/* The one GPU driver whose messages the log has; NULL for none or
 * several. */
static const char *sole_message_driver(const struct lx_kmsg *log)
{
	const char *sole = NULL;
	for (size_t l = 0; l < log->n; l++) {
		const char *d = message_driver(log->lines[l].text);
		if (d && sole && strcmp(d, sole) != 0)
			return NULL;
		if (d)
			sole = d;
	}
	return sole;
}

/* The module a workqueue line's function is in: print_worker_info()'s
 * "Workqueue: %s %ps" ("Workqueue: amdgpu-reset-dev drm_sched_job_timedout
 * [gpu_sched]"); else the GPU driver its workqueue's name starts with
 * ("amdgpu-reset-dev", "i915-unordered", "xe-ordered-wq"). */
static char *workqueue_module(const char *t, char **helper)
{
	const char *name = t + strlen("Workqueue: ");
	const char *b = strstr(name, " [");
	size_t n = b ? strcspn(b + 2, "] ") : 0;
	char *m = n ? lx_xstrndup(b + 2, n) : NULL;
	if (m && !is_helper(m) && gpu_driver(m))
		return m;
	if (m && is_helper(m) && !*helper)
		*helper = lx_xstrdup(m);
	free(m);
	static const char *const wqs[] = {"amdgpu", "i915", "xe-", "xe_", "radeon", "nouveau", "nvidia", "nv_"};
	for (size_t q = 0; q < sizeof(wqs) / sizeof(wqs[0]); q++)
		if (starts(name, wqs[q]))
			return lx_xstrdup(q == 2 || q == 3 ? "xe" : q == 7 ? "nvidia" : wqs[q]);
	return NULL;
}

/* A GPU driver's own kernel thread as the CPU line's Comm (15 characters
 * at most): nvidia's "nv_queue", "nv_open_q", "nvidia-modeset/", the
 * interrupt threads "irq/130-nvidia", "irq/45-amdgpu", amdgpu's scheduler
 * threads named after their rings before 6.8 ("gfx_0.0.0", "comp_1.0.1",
 * "sdma0"); NULL for another process. */
static const char *kthread_driver(const char *comm)
{
	if (starts(comm, "irq/")) {
		const char *d = strchr(comm, '-');
		return d ? gpu_driver(d + 1) : NULL;
	}
	if (starts(comm, "nv_queue") || starts(comm, "nv_open_q") || starts(comm, "nvidia-modeset/"))
		return "nvidia";
	if (starts(comm, "gfx_") || starts(comm, "comp_") || starts(comm, "sdma") || starts(comm, "kiq_"))
		return strchr(comm, '.') || starts(comm, "sdma") ? "amdgpu" : NULL;
	return NULL;
}

/* What a frame of the fault's own context says the driver was doing
 * besides power management: a GPU reset or the timeout handler that starts
 * one (drm_sched's, amdgpu's, i915's, xe's), a probe (the driver's PCI
 * probe and device init), a wait for the GPU's work (a hung task's
 * fences); NULL for another frame. */
static const char *context_of(const char *name)
{
	static const struct {
		const char *prefix, *context;
	} frames[] = {
		{"drm_sched_job_timedout", "GPU reset"},   {"amdgpu_job_timedout", "GPU reset"},
		{"amdgpu_device_gpu_recover", "GPU reset"}, {"amdgpu_device_reset", "GPU reset"},
		{"amdgpu_do_asic_reset", "GPU reset"},     {"amdgpu_device_pre_asic_reset", "GPU reset"},
		{"amdgpu_device_mode1_reset", "GPU reset"}, {"amdgpu_ras_do_recovery", "GPU reset"},
		{"amdgpu_reset_", "GPU reset"},            {"amdgpu_amdkfd_gpu_reset", "GPU reset"},
		{"i915_reset", "GPU reset"},               {"i915_handle_error", "GPU reset"},
		{"intel_gt_reset", "GPU reset"},           {"__intel_gt_reset", "GPU reset"},
		{"intel_gt_handle_error", "GPU reset"},    {"intel_engine_reset", "GPU reset"},
		{"__intel_engine_reset", "GPU reset"},     {"intel_gt_set_wedged", "GPU reset"},
		{"i915_gem_set_wedged", "GPU reset"},      {"i915_hangcheck_elapsed", "GPU reset"},
		{"guc_reset", "GPU reset"},                {"intel_guc_submission_reset", "GPU reset"},
		{"xe_gt_reset", "GPU reset"},              {"gt_reset_worker", "GPU reset"},
		{"xe_guc_submit_reset", "GPU reset"},      {"guc_exec_queue_timedout_job", "GPU reset"},
		{"radeon_gpu_reset", "GPU reset"},
		{"amdgpu_pci_probe", "probe"},             {"amdgpu_driver_load_kms", "probe"},
		{"amdgpu_device_init", "probe"},           {"amdgpu_device_ip_init", "probe"},
		{"i915_pci_probe", "probe"},               {"i915_driver_probe", "probe"},
		{"i915_driver_load", "probe"},             {"i915_driver_hw_probe", "probe"},
		{"xe_pci_probe", "probe"},                 {"xe_device_probe", "probe"},
		{"radeon_pci_probe", "probe"},             {"radeon_driver_load_kms", "probe"},
		{"nv_pci_probe", "probe"},                 {"nvidia_probe", "probe"},
		{"dma_fence_wait", "wait for the GPU"},            {"dma_fence_default_wait", "wait for the GPU"},
		{"amdgpu_fence_wait", "wait for the GPU"},         {"i915_request_wait", "wait for the GPU"},
		{"i915_gem_wait", "wait for the GPU"},             {"xe_wait_user_fence", "wait for the GPU"},
		{"dma_resv_wait_timeout", "wait for the GPU"},     {"drm_sched_entity_flush", "wait for the GPU"},
		{"amdgpu_vm_wait_idle", "wait for the GPU"},       {"kcl_fence_default_wait", "wait for the GPU"},
		{"amdkfd_fence_wait", "wait for the GPU"},
		/* kernel/reboot.c: the host going down (reboot(2), poweroff) */
		{"device_shutdown", "shutdown"},           {"pci_device_shutdown", "shutdown"},
		{"kernel_restart", "shutdown"},            {"kernel_power_off", "shutdown"},
		{"kernel_halt", "shutdown"},               {"__do_sys_reboot", "shutdown"},
	};
	for (size_t f = 0; f < sizeof(frames) / sizeof(frames[0]); f++)
		if (starts(name, frames[f].prefix))
			return frames[f].context;
	return NULL;
}

/* A "Workqueue: %s %ps" line: its module (workqueue_module()), its
 * function's name and what that function says the driver was doing. */
static void read_workqueue(const char *t, char **mod, char **helper, char **fn_name, const char **context)
{
	*mod = workqueue_module(t, helper);
	const char *fn = t + strlen("Workqueue: ");
	fn += strcspn(fn, " ");
	fn += strspn(fn, " ");
	*context = context_of(fn);
	free(*fn_name);
	*fn_name = lx_xstrndup(fn, strcspn(fn, " "));
}

/* Whether the call trace at line i is one the kernel prints with a
 * report that is no fault of the code it shows: UBSAN's (lib/ubsan.c
 * "UBSAN: %s in %s:%d:%d", which clean boots of some kernels print for
 * amdgpu's display code), lockdep's and RCU-lockdep's of debug kernels,
 * sysfs' and kobject's duplicate names, an IRQ nobody handled, the OOM
 * killer's (mm/oom_kill.c dump_header(): "%s invoked oom-killer:
 * gfp_mask=...", then dump_stack() of the task that ran out of memory; a
 * GPU driver's frame in it is its shrinker or allocation, not a fault),
 * and an allocation that failed (mm/page_alloc.c warn_alloc(): "%s: page
 * allocation failure: order:%u, mode:...", vmalloc's "%s: vmalloc error:
 * size %lu, ...", then dump_stack(): the caller, nvidia_uvm asking with
 * __GFP_NORETRY, handles the failure). */
static bool trace_of_a_note(const struct lx_kmsg *log, size_t i)
{
	static const char *const notes[] = {
		"UBSAN: ", "WARNING: possible ", "WARNING: suspicious RCU usage", "WARNING: inconsistent lock state",
		"sysfs: cannot create duplicate filename", "kobject_add_internal failed", "nobody cared",
		"INFO: trying to register non-static key", "stack backtrace:", " invoked oom-killer: ",
		": page allocation failure: order:", ": vmalloc error: size ",
	};
	const char *k;
	for (size_t b = i; b-- > 0 && i - b <= 30;) {
		const char *t = log->lines[b].text;
		for (size_t n = 0; n < sizeof(notes) / sizeof(notes[0]); n++)
			if (strstr(t, notes[n]))
				return true;
		if (header_of(t, &k) != HEADER_NONE || strstr(t, "---[ end trace"))
			return false;
	}
	return false;
}

bool lx_oops_read(const struct lx_kmsg *log, size_t i, struct lx_oops *out)
{
	memset(out, 0, sizeof(*out));
	const char *kind = NULL;
	enum header h = header_of(log->lines[i].text, &kind);
	if (h == HEADER_NONE)
		return false;
	out->kind = kind;
	out->fatal = h == HEADER_OOPS || (h == HEADER_IP && starts(log->lines[i].text, "IP: "));
	out->first = out->last = out->end = i;
	/* a WARN's own message is printed between "cut here" and its header */
	out->start = i;
	for (size_t b = i; b-- > 0 && i - b <= 6;) {
		if (strstr(log->lines[b].text, "[ cut here ]")) {
			out->start = b;
			break;
		}
	}
	/* before 4.11 __warn() printed the WARN's own message after its header */
	if (h == HEADER_WARN && i + 1 < log->n && !oops_line(log->lines[i + 1].text))
		out->message = i + 1;
	_cleanup_free_ char *mod = NULL;
	if (h == HEADER_WARN || starts(log->lines[i].text, "kernel BUG at "))
		mod = location_module(log->lines[i].text);
	if (h == HEADER_WARN)
		out->function = frame_symbol(log->lines[i].text);
	size_t decided = i;
	bool in_trace = false, saw_ip = false;
	/* the PM frames count up to the end of the fault's own context: past
	 * "</IRQ>" the trace shows the task an interrupt stopped */
	bool pm_context = true, runtime = false;
	const char *step = NULL;
	_cleanup_free_ char *ip_mod = NULL, *trace_mod = NULL, *lr_mod = NULL, *wq_mod = NULL, *wq_helper = NULL;
	_cleanup_free_ char *unsure_mod = NULL, *ip_sym = NULL, *wq_fn = NULL;
	size_t trace_line = i, unsure_line = i;
	bool sure_frames = false, saw_trace = h == HEADER_TRACE, task_done = false;
	const char *context = NULL, *wq_context = NULL;
	/* a report seen from its faulting instruction or call trace on: the
	 * lines of it just above (dump_stack_print_info()'s "CPU: ... Comm:",
	 * "Hardware name:", "Workqueue:"; "Modules linked in:") still say its
	 * task and work item */
	for (size_t b = i; (h == HEADER_IP || h == HEADER_TRACE) && b-- > 0 && i - b <= 8;) {
		const char *t = log->lines[b].text;
		if (!starts(t, "CPU: ") && !starts(t, "Hardware name") && !starts(t, "Workqueue: ") &&
		    !starts(t, "Modules linked in") && !starts(t, "Tainted: ") && !starts(t, "pstate: "))
			break;
		if (!out->process)
			out->process = comm_of(t);
		if (starts(t, "Workqueue: ") && !wq_mod)
			read_workqueue(t, &wq_mod, &wq_helper, &wq_fn, &wq_context);
	}
	for (size_t j = i; j < log->n && j - i < OOPS_LINES_MAX; j++) {
		const char *t = log->lines[j].text;
		const char *k2;
		if (j == out->message && j > i)
			continue; /* the WARN's own message, whatever it says */
		enum header next = j > i ? header_of(t, &k2) : HEADER_NONE;
		/* after its task's frames an oops prints only its trailer:
		 * "Modules linked in:", "CR2:", the end marker, the registers again */
		if (task_done && !trailer_line(t))
			break;
		if (j > i && (ends_oops(t) || next == HEADER_WARN || next == HEADER_LOCKUP ||
			      (next == HEADER_OOPS && h != HEADER_OOPS && h != HEADER_IP))) {
			/* x86 prints the faulting instruction again after the end
			 * marker: the same oops */
			if (strstr(t, "---[ end trace") && j + 1 < log->n && is_ip_line(log->lines[j + 1].text))
				out->end = j + 1;
			break;
		}
		/* one oops reports one fault: a second header of its own kind
		 * ("Oops: ... [#1]" after "BUG: ...") belongs to it */
		out->end = j;
		/* a trace seen without its header ends with its task's frames:
		 * what follows may be another report's */
		if (h == HEADER_TRACE && strstr(t, "</TASK>"))
			break;
		task_done |= strstr(t, "</TASK>") != NULL;
		if (!out->process)
			out->process = comm_of(t);
		if (is_ip_line(t) && !in_trace) {
			if (!out->function)
				out->function = frame_symbol(t);
			if (!saw_ip) {
				free(ip_sym);
				ip_sym = frame_symbol(t);
				ip_mod = frame_module(t);
				if (!ip_mod && nvidia_rm_symbol(t))
					ip_mod = lx_xstrdup("nvidia");
				if (!ip_mod)
					ip_mod = builtin_driver_of(ip_sym);
				decided = j;
			}
			saw_ip = true;
			out->last = j;
			continue;
		}
		/* arm64's link register: the caller of a kernel function that
		 * faulted */
		if (starts(t, "lr : ") && !in_trace && !lr_mod) {
			lr_mod = frame_module(t);
			continue;
		}
		if (starts(t, "Workqueue: ") && !wq_mod) {
			read_workqueue(t, &wq_mod, &wq_helper, &wq_fn, &wq_context);
			continue;
		}
		if (starts(t, "Call Trace:") || starts(t, "Call trace:") || starts(t, "Backtrace:")) {
			in_trace = saw_trace = true;
			continue;
		}
		/* a post that quoted the frames without the "Call Trace:" line
		 * before them: the first line that is a frame starts the trace */
		if (!in_trace && bare_frame(t))
			in_trace = saw_trace = true;
		if (!in_trace)
			continue;
		if (strstr(t, "</IRQ>") || strstr(t, "<EOI>") || strstr(t, "</NMI>") || strstr(t, "<EOE>"))
			pm_context = false;
		/* the first sure frame of a module other than DRM's helpers */
		if (strstr(t, " ? ") || starts(t, "? ") || strstr(t, "] ? ")) {
			/* a trace of unsure frames only (the unwinder lost the
			 * stack): its first GPU driver's frame, if nothing else */
			_cleanup_free_ char *um = unsure_mod ? NULL : frame_module(t);
			if (um && !is_helper(um) && gpu_driver(um)) {
				unsure_mod = lx_xstrdup(um);
				unsure_line = j;
			}
			continue;
		}
		_cleanup_free_ char *sym = frame_symbol(t);
		sure_frames |= sym != NULL;
		if (pm_context && sym) {
			const char *s = pm_frame_step(sym, &runtime);
			if (s && !out->pm_callback)
				out->pm_callback = lx_xstrdup(sym);
			if (s && *s && !step)
				step = s;
			const char *c = context_of(sym);
			if (c && (strcmp(c, "wait for the GPU") != 0 || strcmp(kind, "hung task") == 0) && !context) {
				context = c;
				out->context_frame = lx_xstrdup(sym);
			}
		}
		if (trace_mod)
			continue;
		_cleanup_free_ char *fm = frame_module(t);
		if (!fm && nvidia_rm_symbol(t))
			fm = lx_xstrdup("nvidia");
		if (!fm)
			fm = builtin_driver_of(sym);
		if (fm && !is_helper(fm)) {
			trace_mod = lx_xstrdup(fm);
			trace_line = j;
		}
	}
	/* the location decides; then the faulting instruction; then, for the
	 * kernel's code or a helper's, the driver it ran for */
	const char *chosen = mod ? mod : ip_mod;
	const char *helper = chosen && is_helper(chosen) ? chosen : wq_helper;
	if (!chosen || is_helper(chosen)) {
		chosen = trace_mod;
		if (trace_mod)
			decided = trace_line;
	}
	/* then arm64's caller, the work item's module or workqueue, a trace
	 * of unsure frames only, the driver's own kernel thread */
	if (!chosen)
		chosen = lr_mod ? lr_mod : wq_mod;
	if (!chosen && !sure_frames && unsure_mod) {
		chosen = unsure_mod;
		decided = unsure_line;
	}
	const char *kthread = out->process ? kthread_driver(out->process) : NULL;
	if (!chosen && kthread)
		chosen = kthread;
	/* the DKMS amdgpu's own copies of TTM and the scheduler run for it alone */
	if (!chosen && helper && lx_str_starts_with(helper, "amd"))
		chosen = "amdgpu";
	/* a fatal oops cut right after its header (no faulting instruction in
	 * a module, no call trace): the GPU driver whose message (or whose DRM
	 * core's message) it follows at once, the task that printed it
	 * faulting next */
	if (!chosen && h == HEADER_OOPS && !saw_trace && (!ip_sym || gpu_core_symbol(ip_sym)) && out->start > 0) {
		const char *prev = log->lines[out->start - 1].text;
		const char *before = message_driver(prev);
		/* after a DRM core message: the driver it ran for, when the
		 * log has one */
		if (!before && drm_core_message(prev))
			before = sole_message_driver(log);
		if (before) {
			chosen = before;
			out->cut = true;
		}
	}
	/* no WARN location nor faulting instruction (a hung task): the
	 * driver's frame that decided */
	if (!out->function && chosen && chosen == trace_mod)
		out->function = frame_symbol(log->lines[trace_line].text);
	if (decided > out->last)
		out->last = decided;
	/* a WARN or fault in a PM callback itself ("WARNING: ... at
	 * nvidia/nv.c:4574 nv_suspend_devices+0x2ec/0x4a0 [nvidia]") */
	if (out->function) {
		const char *s = pm_frame_step(out->function, &runtime);
		if (s) {
			free(out->pm_callback);
			out->pm_callback = lx_xstrdup(out->function);
			if (*s)
				step = s;
		}
	}
	if (out->function && !out->context_frame && context_of(out->function) &&
	    strcmp(context_of(out->function), "wait for the GPU") != 0) {
		context = context_of(out->function);
		out->context_frame = lx_xstrdup(out->function);
	}
	if (!context && wq_context && strcmp(wq_context, "wait for the GPU") != 0) {
		context = wq_context;
		out->context_frame = lx_xstrdup(wq_fn);
	}
	out->context = context;
	if (out->pm_callback)
		out->pm_step = !step ? "power transition"
			: runtime ? (strcmp(step, "resume") == 0 ? "runtime resume" : "runtime suspend")
				  : step;
	if (h == HEADER_TRACE && trace_of_a_note(log, i))
		chosen = NULL; /* read, so that its lines are no one's */
	out->module = chosen ? lx_xstrdup(chosen) : NULL;
	out->driver = chosen ? gpu_driver(chosen) : NULL;
	out->traced = saw_trace;
	if (out->cut && !out->function)
		out->function = lx_xstrdup("? (the excerpt ends before the faulting instruction and call trace)");
	return true;
}
