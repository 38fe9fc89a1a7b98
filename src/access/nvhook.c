/* NVIDIA's LXC hook (lxc/lxc hooks/nvidia) in the access model: what the
 * hook gives a container at its next start, and why it would not.
 *
 * The script (read for this: lxc/lxc e7b855a, hooks/nvidia), in order:
 *   - NVIDIA_VISIBLE_DEVICES set but empty, or "void": exit 0, nothing given;
 *     unset: exit 0 too, unless CUDA_VERSION is set and NVIDIA_REQUIRE_CUDA
 *     is not (a "legacy CUDA image": all devices, all capabilities);
 *   - nvidia-container-cli not on PATH (+ /usr/sbin:/usr/bin:/sbin:/bin):
 *     exit 1 ("Missing tool nvidia-container-cli");
 *   - not run as a mount hook: exit 1;
 *   - no user namespace (a privileged container), or one that maps host
 *     uid 0 alone ("userns-root"): exit 1 ("only works in unprivileged mode");
 *   - NVIDIA_DRIVER_CAPABILITIES: comma-separated; exactly "all" is the six
 *     below; empty or unset is "utility"; any other word: exit 1;
 *   - then "nvidia-container-cli --user configure --no-cgroups
 *     [--device=VISIBLE] --CAP... [--require=...] ROOTFS", with no --device
 *     for "none". Every exit 1 fails the start (a mount hook).
 * nvidia-container-cli (NVIDIA/libnvidia-container src/cli/common.c
 * select_devices, src/nvc_mount.c, src/nvc_info.c): each comma-separated
 * word is "all" (any case), a GPU UUID, a PCI bus id, an NVML index (the
 * GPUs the driver drives, in PCI order), a MIG UUID or "GPU:MIG" index;
 * anything else is "unknown device" and the configure fails. It always
 * mounts /dev/nvidiactl and each selected GPU's /dev/nvidiaN; nvidia-uvm
 * and nvidia-uvm-tools only with compute, nvidia-modeset only with display
 * (each only when the host has it); with --no-cgroups it writes no device
 * rule, so the container's own device cgroup must let them through. */
#include "lxgpu/access.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *word;
	enum lx_nvcap cap;
} capabilities[] = {
	{"compute", LX_NVCAP_COMPUTE}, {"compat32", LX_NVCAP_COMPAT32}, {"display", LX_NVCAP_DISPLAY},
	{"graphics", LX_NVCAP_GRAPHICS}, {"utility", LX_NVCAP_UTILITY}, {"video", LX_NVCAP_VIDEO},
};

/* The driver files each capability selects (nvc_info.c's lists; compat32
 * adds the 32-bit copies of the same libraries, display only the
 * nvidia-modeset node). */
static const struct {
	enum lx_nvcap cap;
	const char *names;
} cap_files[] = {
	{LX_NVCAP_UTILITY, "nvidia-smi nvidia-debugdump nvidia-persistenced nv-fabricmanager "
			   "libnvidia-ml.so libnvidia-cfg.so libnvidia-nscq.so"},
	{LX_NVCAP_COMPUTE, "nvidia-cuda-mps-control nvidia-cuda-mps-server libcuda.so "
			   "libcudadebugger.so libnvidia-opencl.so libnvidia-gpucomp.so "
			   "libnvidia-ptxjitcompiler.so libnvidia-fatbinaryloader.so "
			   "libnvidia-allocator.so libnvidia-compiler.so libnvidia-pkcs11.so "
			   "libnvidia-pkcs11-openssl3.so libnvidia-nvvm.so"},
	{LX_NVCAP_VIDEO, "libvdpau_nvidia.so libnvidia-encode.so libnvidia-opticalflow.so "
			 "libnvcuvid.so"},
	{LX_NVCAP_GRAPHICS, "libnvidia-eglcore.so libnvidia-glcore.so libnvidia-tls.so "
			    "libnvidia-glsi.so libnvidia-fbc.so libnvidia-ifr.so libnvidia-rtcore.so "
			    "libnvoptix.so libGLX_nvidia.so libEGL_nvidia.so libGLESv2_nvidia.so "
			    "libGLESv1_CM_nvidia.so libnvidia-glvkspirv.so libnvidia-cbl.so"},
};

static bool is_nvidia_hook(const char *value, char **script)
{
	size_t len = strcspn(value, " \t");
	_cleanup_free_ char *first = lx_xstrndup(value, len);
	const char *base = strrchr(first, '/');
	base = base ? base + 1 : first;
	/* LXC's own script, wherever it is installed (/usr/share/lxc/hooks). */
	if (strcmp(base, "nvidia") != 0 || !strstr(first, "hooks/"))
		return false;
	*script = lx_xstrdup(first);
	return true;
}

bool lx_nvhook_entry(struct lx_access *a, const char *key, const char *value, const char *file,
		     int line)
{
	struct lx_nvhook *h = &a->nvhook;
	if (strcmp(key, "lxc.environment") == 0 || strcmp(key, "lxc.environment.hooks") == 0 ||
	    strcmp(key, "lxc.environment.runtime") == 0) {
		if (!*value) {
			/* An empty value clears the list (lxc_clear_environment). */
			for (size_t i = 0; i < h->n_env; i++) {
				free(h->env[i].name);
				free(h->env[i].value);
			}
			h->n_env = 0;
			return true;
		}
		const char *eq = strchr(value, '=');
		h->env = lx_xrealloc(h->env, (h->n_env + 1) * sizeof(*h->env));
		h->env[h->n_env++] = (struct lx_nvhook_env){
			.name = lx_xstrndup(value, eq ? (size_t)(eq - value) : strlen(value)),
			.value = eq ? lx_xstrdup(eq + 1) : NULL,
			.file = file,
			.line = line,
			.hooks = strcmp(key, "lxc.environment.runtime") != 0,
		};
		return true;
	}
	if (!lx_str_starts_with(key, "lxc.hook"))
		return false;
	char *script = NULL;
	if (!*value) {
		/* "lxc.hook.X =" clears that hook list, "lxc.hook =" every list. */
		if (h->present && (strcmp(key, "lxc.hook") == 0 || strcmp(key, h->key) == 0)) {
			free(h->key);
			free(h->script);
			h->key = h->script = NULL;
			h->present = false;
		}
		return true;
	}
	if (!is_nvidia_hook(value, &script))
		return true;
	free(h->key);
	free(h->script);
	h->present = true;
	h->file = file, h->line = line;
	h->key = lx_xstrdup(key);
	h->script = script;
	return true;
}

/* The value the hook sees: the last lxc.environment that reaches hooks
 * (LXC setenv()s them in order). *line: where it was set; *runtime_only:
 * set only for init (lxc.environment.runtime). */
static const struct lx_nvhook_env *hook_env(const struct lx_nvhook *h, const char *name,
					    bool *runtime_only)
{
	const struct lx_nvhook_env *found = NULL;
	if (runtime_only)
		*runtime_only = false;
	for (size_t i = 0; i < h->n_env; i++) {
		if (strcmp(h->env[i].name, name) != 0)
			continue;
		if (!h->env[i].hooks) {
			if (runtime_only)
				*runtime_only = true;
			continue;
		}
		/* "NAME" alone inherits lxc-start's environment: pve-container@
		 * and lxc@ services have none of NVIDIA's variables. */
		found = h->env[i].value ? &h->env[i] : NULL;
	}
	if (found && runtime_only)
		*runtime_only = false;
	return found;
}

static void add_issue(struct lx_nvhook *h, enum lx_nvhook_problem kind, const char *file, int line,
		      char *message)
{
	h->issues = lx_xrealloc(h->issues, (h->n_issues + 1) * sizeof(*h->issues));
	h->issues[h->n_issues++] =
		(struct lx_nvhook_issue){.kind = kind, .file = file, .line = line, .message = message};
	if (kind != LX_NVHOOK_IDLE && kind != LX_NVHOOK_NO_COMPUTE)
		h->fails = true;
}

/* The directories the hook's PATH has: systemd's default PATH, which
 * pve-container@.service and lxc@.service run lxc-start with, and what
 * the script appends. */
static bool tool_present(const char *root, const char *name)
{
	static const char *const dirs[] = {"usr/local/sbin", "usr/local/bin", "usr/sbin",
					   "usr/bin",        "sbin",          "bin"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		_cleanup_free_ char *dir = lx_path_join(root, dirs[i]);
		_cleanup_free_ char *path = lx_path_join(dir, name);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
			return true;
	}
	return false;
}

/* The GPUs nvidia-container-cli sees: those the nvidia driver drives, in
 * PCI order (NVML's index order). */
static size_t nvml_gpus(const struct lx_host *host, const struct lx_gpu **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < host->n_gpus && n < max; i++)
		if (host->gpus[i].driver && strcmp(host->gpus[i].driver, "nvidia") == 0)
			out[n++] = &host->gpus[i];
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(out[j - 1]->bdf, out[j]->bdf) > 0; j--) {
			const struct lx_gpu *t = out[j - 1];
			out[j - 1] = out[j];
			out[j] = t;
		}
	return n;
}

/* One word of --device as select_devices reads it; false: "unknown device". */
static bool select_word(struct lx_nvhook *h, const struct lx_host *host, const char *word,
			const struct lx_gpu **gpus, size_t n)
{
	const struct lx_gpu *g = NULL;
	if (strncasecmp(word, "GPU-", 4) == 0 && word[4])
		for (size_t i = 0; i < n && !g; i++)
			if (gpus[i]->uuid && strcasecmp(gpus[i]->uuid, word) == 0)
				g = gpus[i];
	unsigned dom, bus, dev;
	if (!g && sscanf(word, "%x:%2x:%2x", &dom, &bus, &dev) == 3)
		for (size_t i = 0; i < n && !g; i++) {
			unsigned d2, b2, v2;
			if (sscanf(gpus[i]->bdf, "%x:%x:%x", &d2, &b2, &v2) == 3 && d2 == dom &&
			    b2 == bus && v2 == dev)
				g = gpus[i];
		}
	unsigned long long index;
	if (!g && lx_parse_uint(word, 10, n ? n - 1 : 0, &index) && n)
		g = gpus[index];
	if (g) {
		if (!lx_strv_contains(&h->gpus, g->bdf))
			lx_strv_push(&h->gpus, g->bdf);
		return true;
	}
	/* MIG devices: NVML resolves their UUIDs; lxgpu where the old form names
	 * the instance or the scan recorded the UUID (nvidia-smi). The CLI then
	 * mounts the parent GPU's node and that instance's GI and CI access
	 * caps (nvc_mig_device_access_caps_mount); otherwise the instance is
	 * not modelled. */
	if (strncasecmp(word, "MIG-", 4) == 0 && word[4]) {
		size_t at;
		int gi, ci;
		const struct lx_gpu *parent = NULL;
		if (lx_host_mig_by_uuid(host, word, &at, &gi, &ci) == LX_MIG_FOUND)
			parent = &host->gpus[at];
		if (!parent || parent->minor < 0) {
			h->mig = true;
			return true;
		}
		if (!lx_strv_contains(&h->gpus, parent->bdf))
			lx_strv_push(&h->gpus, parent->bdf);
		struct lx_mig_ref r = {LX_MIG_CI, parent->minor, gi, ci};
		char *name = lx_mig_ref_name(&r);
		if (lx_strv_contains(&h->instances, name))
			free(name);
		else
			lx_strv_push_owned(&h->instances, name);
		return true;
	}
	unsigned long long gi, mi;
	char tail;
	if (sscanf(word, "%llu:%llu%c", &gi, &mi, &tail) == 2 && gi < n) {
		h->mig = true;
		if (!lx_strv_contains(&h->gpus, gpus[gi]->bdf))
			lx_strv_push(&h->gpus, gpus[gi]->bdf);
		return true;
	}
	return false;
}

static char *gpu_list(const struct lx_gpu **gpus, size_t n)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < n; i++)
		lx_buf_printf(&b, "%s%zu (%s%s%s)", i ? ", " : "", i, gpus[i]->bdf,
			      gpus[i]->uuid ? " " : "", gpus[i]->uuid ? gpus[i]->uuid : "");
	return b.len ? lx_buf_steal(&b) : lx_xstrdup("none");
}

/* true when the value selects "all" (every GPU and every MIG device). */
static bool select_devices(struct lx_nvhook *h, const struct lx_host *host, const char *value,
			   const struct lx_nvhook_env *at)
{
	const struct lx_gpu *gpus[256];
	size_t n = nvml_gpus(host, gpus, 256);
	_cleanup_free_ char *copy = lx_xstrdup(value);
	for (char *p = copy, *word; (word = strsep(&p, ","));) {
		if (!*word)
			continue;
		if (strcasecmp(word, "all") == 0) {
			for (size_t i = 0; i < n; i++)
				if (!lx_strv_contains(&h->gpus, gpus[i]->bdf))
					lx_strv_push(&h->gpus, gpus[i]->bdf);
			return true;
		}
		if (select_word(h, host, word, gpus, n))
			continue;
		_cleanup_free_ char *list = gpu_list(gpus, n);
		add_issue(h, LX_NVHOOK_NO_SUCH_GPU, at ? at->file : h->file, at ? at->line : h->line,
			  lx_xasprintf("NVIDIA_VISIBLE_DEVICES=%s names '%s', which is no GPU the "
				       "nvidia driver drives on this host (its GPUs by index, PCI "
				       "address and UUID: %s): nvidia-container-cli fails (\"device "
				       "error: %s: unknown device\") and the container does not start",
				       value, word, list, word));
		return false;
	}
	return false;
}

/* The /dev/nvidia-caps node of a present capability, when the host has it. */
static void push_cap_node(const struct lx_host *host, const char *name, struct lx_strv *nodes)
{
	const struct lx_capability *c = lx_host_find_cap(host, name);
	if (!c)
		return;
	_cleanup_free_ char *path = lx_xasprintf("/dev/nvidia-caps/nvidia-cap%u", c->minor);
	if (lx_host_find_node(host, path) && !lx_strv_contains(nodes, path))
		lx_strv_push(nodes, path);
}

/* The MIG devices named by UUID: each instance's GI and CI access caps,
 * when the instance exists and the nvidia-caps major does. */
static void named_mig_caps(struct lx_nvhook *h, const struct lx_host *host, struct lx_strv *nodes)
{
	if (lx_host_major_by_name(host, "nvidia-caps") == LX_UNKNOWN)
		return;
	for (size_t i = 0; i < h->instances.n; i++) {
		struct lx_mig_ref r = lx_mig_ref_of_name(h->instances.items[i]);
		struct lx_mig_ref gi = {LX_MIG_GI, r.gpu_minor, r.gi, -1};
		_cleanup_free_ char *gi_name = lx_mig_ref_name(&gi);
		if (!lx_host_find_cap(host, h->instances.items[i]) || !lx_host_find_cap(host, gi_name))
			continue;
		push_cap_node(host, gi_name, nodes);
		push_cap_node(host, h->instances.items[i], nodes);
	}
}

/* "all" selects every MIG device too (select_all_mig_devices): for each, a
 * compute instance, the GI's and the CI's access caps nodes are mounted
 * (nvc_mig_device_access_caps_mount), when the nvidia-caps major exists. */
static void all_mig_caps(struct lx_nvhook *h, const struct lx_host *host, struct lx_strv *nodes)
{
	if (lx_host_major_by_name(host, "nvidia-caps") == LX_UNKNOWN)
		return;
	for (size_t i = 0; i < host->n_caps; i++) {
		unsigned gpu, gi, ci;
		char tail;
		if (sscanf(host->caps[i].name, "gpu%u/mig/gi%u/ci%u%c", &gpu, &gi, &ci, &tail) != 3)
			continue;
		bool selected = false;
		for (size_t g = 0; g < h->gpus.n && !selected; g++) {
			const struct lx_gpu *p = lx_host_find_gpu_by_bdf(host, h->gpus.items[g]);
			selected = p && p->minor >= 0 && (unsigned)p->minor == gpu;
		}
		_cleanup_free_ char *gi_name = lx_xasprintf("gpu%u/mig/gi%u", gpu, gi);
		for (size_t k = 0; selected && k < host->n_caps; k++) {
			if (k != i && strcmp(host->caps[k].name, gi_name) != 0)
				continue;
			_cleanup_free_ char *path =
				lx_xasprintf("/dev/nvidia-caps/nvidia-cap%u", host->caps[k].minor);
			if (lx_host_find_node(host, path) && !lx_strv_contains(nodes, path))
				lx_strv_push(nodes, path);
			h->mig = true;
		}
	}
}

static void add_files(struct lx_nvhook *h)
{
	for (size_t i = 0; i < sizeof(cap_files) / sizeof(cap_files[0]); i++) {
		if (!(h->caps & cap_files[i].cap))
			continue;
		_cleanup_free_ char *copy = lx_xstrdup(cap_files[i].names);
		for (char *p = copy, *w; (w = strsep(&p, " "));)
			if (*w && !lx_strv_contains(&h->files, w))
				lx_strv_push(&h->files, w);
	}
}

/* The capabilities the hook passes; false (with an issue) for a word it
 * refuses. */
static bool parse_caps(struct lx_nvhook *h, const struct lx_nvhook_env *e)
{
	const char *value = e && e->value ? e->value : "";
	_cleanup_free_ char *words = lx_xstrdup(value);
	for (char *c = words; *c; c++)
		if (*c == ',')
			*c = ' ';
	/* The script compares the whole value with "all", then word-splits. */
	if (strcmp(words, "all") == 0) {
		for (size_t i = 0; i < sizeof(capabilities) / sizeof(capabilities[0]); i++)
			h->caps |= capabilities[i].cap;
		return true;
	}
	for (char *p = words, *w; (w = strsep(&p, " \t\n"));) {
		if (!*w)
			continue;
		size_t i = 0;
		while (i < sizeof(capabilities) / sizeof(capabilities[0]) &&
		       strcmp(capabilities[i].word, w) != 0)
			i++;
		if (i == sizeof(capabilities) / sizeof(capabilities[0])) {
			add_issue(h, LX_NVHOOK_BAD_CAPABILITY, e->file, e->line,
				  lx_xasprintf("NVIDIA_DRIVER_CAPABILITIES=%s has '%s', which the hook "
					       "does not know (it takes compute, compat32, display, "
					       "graphics, utility, video, or 'all' alone): it exits 1 "
					       "(\"ERROR: Unknown driver capability\") and the container "
					       "does not start",
					       value, w));
			return false;
		}
		h->caps |= capabilities[i].cap;
	}
	if (!h->caps)
		h->caps = LX_NVCAP_UTILITY; /* the script's default */
	return true;
}

/* Whether the id map makes the hook's in_userns say "no" or "userns-root":
 * no map (privileged), or host uid 0 mapped alone. */
static bool hook_sees_userns(const struct lx_access *a)
{
	if (!a->unprivileged)
		return false;
	for (size_t i = 0; i < a->n_idmap; i++)
		if (a->idmap[i].kind == 'u' && a->idmap[i].host_id == 0 && a->idmap[i].count == 1)
			return false;
	return true;
}

void lx_nvhook_resolve(const struct lx_host *host, const struct lx_access_options *opts,
		       struct lx_access *a, struct lx_strv *nodes)
{
	struct lx_nvhook *h = &a->nvhook;
	if (!h->present)
		return;
	if (opts->tools_root) {
		_cleanup_free_ char *script = lx_path_join(opts->tools_root, h->script);
		struct stat st;
		if (h->script[0] != '/' || stat(script, &st) < 0 || !S_ISREG(st.st_mode) ||
		    access(script, X_OK) < 0)
			add_issue(h, LX_NVHOOK_NO_SCRIPT, h->file, h->line,
				  lx_xasprintf("'%s: %s' runs %s, which is not an executable file on "
					       "this host: LXC fails the start (\"Failed to run %s "
					       "hooks\")",
					       h->key, h->script, h->script, h->key + strlen("lxc.hook.")));
	}
	bool visible_runtime, cuda_runtime;
	const struct lx_nvhook_env *visible = hook_env(h, "NVIDIA_VISIBLE_DEVICES", &visible_runtime);
	const struct lx_nvhook_env *caps = hook_env(h, "NVIDIA_DRIVER_CAPABILITIES", NULL);
	const struct lx_nvhook_env *cuda = hook_env(h, "CUDA_VERSION", &cuda_runtime);
	const struct lx_nvhook_env *require = hook_env(h, "NVIDIA_REQUIRE_CUDA", NULL);
	const char *devices = visible ? visible->value : NULL;
	bool legacy = !visible && cuda && *cuda->value && !(require && *require->value);
	if (legacy)
		devices = "all"; /* a legacy CUDA image: all devices and capabilities */
	h->visible = devices;
	if (h->fails)
		return; /* LXC never gets to run it */
	if (!devices || !*devices || strcmp(devices, "void") == 0) {
		const char *why =
			!devices ? (visible_runtime
					    ? "is set only by lxc.environment.runtime, which reaches "
					      "the container's init but not hooks"
					    : "is not set by any lxc.environment line")
			: !*devices ? "is empty"
				    : "is \"void\"";
		add_issue(h, LX_NVHOOK_IDLE, visible ? visible->file : h->file,
			  visible ? visible->line : h->line,
			  lx_xasprintf("NVIDIA_VISIBLE_DEVICES %s: the hook (line %d) exits without "
				       "giving the container anything (no GPU, no driver files)",
				       why, h->line));
		return;
	}
	if (opts->tools_root && !tool_present(opts->tools_root, "nvidia-container-cli"))
		add_issue(h, LX_NVHOOK_NO_CLI, h->file, h->line,
			  lx_xstrdup("nvidia-container-cli is not installed on this host: the hook "
				     "exits 1 (\"ERROR: Missing tool nvidia-container-cli\") and the "
				     "container does not start"));
	if (strcmp(h->key, "lxc.hook.mount") != 0)
		add_issue(h, LX_NVHOOK_NOT_MOUNT, h->file, h->line,
			  lx_xasprintf("the hook runs as %s: it works only as lxc.hook.mount and "
				       "exits 1 (\"ERROR: This hook must be used as a \\\"mount\\\" "
				       "hook.\"), and the container does not start",
				       h->key));
	if (!hook_sees_userns(a))
		add_issue(h, LX_NVHOOK_PRIVILEGED, h->file, h->line,
			  lx_xstrdup(a->unprivileged
					     ? "the id map gives the container the host's uid 0: the "
					       "hook exits 1 (\"FIXME: This hook currently only works in "
					       "unprivileged mode.\") and the container does not start"
					     : "the container is privileged: the hook exits 1 (\"FIXME: "
					       "This hook currently only works in unprivileged mode.\", a "
					       "limit of libnvidia-container) and the container does not "
					       "start"));
	if (legacy && !(caps && *caps->value))
		h->caps = LX_NVCAP_COMPUTE | LX_NVCAP_COMPAT32 | LX_NVCAP_DISPLAY | LX_NVCAP_GRAPHICS |
			  LX_NVCAP_UTILITY | LX_NVCAP_VIDEO;
	else if (!parse_caps(h, caps))
		return;
	bool all = strcmp(devices, "none") != 0 && select_devices(h, host, devices, visible);
	if (h->fails)
		return;
	h->runs = true;
	add_files(h);
	if (!(h->caps & LX_NVCAP_COMPUTE))
		add_issue(h, LX_NVHOOK_NO_COMPUTE, caps ? caps->file : h->file,
			  caps ? caps->line : h->line,
			  lx_xasprintf("%s%s%s: the hook gives no libcuda.so and no /dev/nvidia-uvm, "
				       "so CUDA (and what runs on it: ollama, NVENC through CUDA) "
				       "fails in the container",
				       caps ? "NVIDIA_DRIVER_CAPABILITIES=" : "",
				       caps ? caps->value : "NVIDIA_DRIVER_CAPABILITIES is not set, so "
							    "the hook passes only 'utility'",
				       caps ? " has no 'compute'" : ""));
	/* The nodes, as nvc_driver_mount and device_mount_native mount them. */
	if (lx_host_find_node(host, "/dev/nvidiactl"))
		lx_strv_push(nodes, "/dev/nvidiactl");
	if (h->caps & LX_NVCAP_COMPUTE) {
		if (lx_host_find_node(host, "/dev/nvidia-uvm"))
			lx_strv_push(nodes, "/dev/nvidia-uvm");
		if (lx_host_find_node(host, "/dev/nvidia-uvm-tools"))
			lx_strv_push(nodes, "/dev/nvidia-uvm-tools");
	}
	if ((h->caps & LX_NVCAP_DISPLAY) && lx_host_find_node(host, "/dev/nvidia-modeset"))
		lx_strv_push(nodes, "/dev/nvidia-modeset");
	for (size_t i = 0; i < h->gpus.n; i++) {
		const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, h->gpus.items[i]);
		if (!g || g->minor < 0)
			continue;
		_cleanup_free_ char *path = lx_xasprintf("/dev/nvidia%d", g->minor);
		if (lx_host_find_node(host, path))
			lx_strv_push(nodes, path);
	}
	if (all)
		all_mig_caps(h, host, nodes);
	else
		named_mig_caps(h, host, nodes);
}

bool lx_conf_runs_nvhook(const struct lx_conf *conf)
{
	bool runs = false;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		char *script = NULL;
		if (l->kind != LX_CONF_LXC_KEY || !lx_str_starts_with(l->key, "lxc.hook"))
			continue;
		if (!*l->value)
			runs = false;
		else if (is_nvidia_hook(l->value, &script))
			runs = true;
		free(script);
	}
	return runs;
}

void lx_nvhook_copy_lines(struct lx_nvhook *to, const struct lx_nvhook *from)
{
	to->present = from->present;
	to->file = from->file, to->line = from->line;
	to->key = from->key ? lx_xstrdup(from->key) : NULL;
	to->script = from->script ? lx_xstrdup(from->script) : NULL;
	if (!from->n_env)
		return;
	to->env = lx_xmalloc(from->n_env * sizeof(*to->env));
	for (size_t i = 0; i < from->n_env; i++) {
		to->env[i] = from->env[i];
		to->env[i].name = lx_xstrdup(from->env[i].name);
		to->env[i].value = from->env[i].value ? lx_xstrdup(from->env[i].value) : NULL;
	}
	to->n_env = from->n_env;
}

void lx_nvhook_free(struct lx_nvhook *h)
{
	free(h->key);
	free(h->script);
	for (size_t i = 0; i < h->n_env; i++) {
		free(h->env[i].name);
		free(h->env[i].value);
	}
	free(h->env);
	lx_strv_free(&h->gpus);
	lx_strv_free(&h->instances);
	lx_strv_free(&h->files);
	for (size_t i = 0; i < h->n_issues; i++) {
		free(h->issues[i].message);
	}
	free(h->issues);
	memset(h, 0, sizeof(*h));
}
