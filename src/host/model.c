/* The host model: ownership, lookups, names, and host-level warnings. */
#include "build-config.h"
#include "lxgpu/host.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void gpu_free(struct lx_gpu *g)
{
	free(g->bdf);
	free(g->model);
	free(g->uuid);
	free(g->vbios);
	free(g->driver);
	lx_strv_free(&g->pcie_path);
	free(g->bars);
	for (size_t i = 0; i < g->n_drm; i++) {
		free(g->drm[i].name);
		free(g->drm[i].by_path);
	}
	free(g->drm);
}

void lx_host_free(struct lx_host *host)
{
	free(host->hostname);
	free(host->kernel);
	free(host->lxc_version);
	free(host->pve_container_version);
	free(host->published.node);
	free(host->published.boot_id);
	for (size_t i = 0; i < host->n_gpus; i++)
		gpu_free(&host->gpus[i]);
	free(host->gpus);
	for (size_t i = 0; i < host->n_nodes; i++)
		free(host->nodes[i].path);
	free(host->nodes);
	for (size_t i = 0; i < host->n_majors; i++)
		free(host->majors[i].name);
	free(host->majors);
	for (size_t i = 0; i < host->n_caps; i++)
		free(host->caps[i].name);
	free(host->caps);
	for (size_t i = 0; i < host->n_mig_minors; i++)
		free(host->mig_minors[i].name);
	free(host->mig_minors);
	for (size_t i = 0; i < host->n_mig_uuids; i++)
		free(host->mig_uuids[i].uuid);
	free(host->mig_uuids);
	for (size_t i = 0; i < host->n_bridges; i++)
		free(host->bridges[i].bdf);
	free(host->bridges);
	free(host->driver.version);
	lx_strv_free(&host->driver.modules);
	lx_strv_free(&host->driver.firmware);
	free(host->kernel_config.source);
	lx_drm_checks_free(&host->drm_checks);
	memset(host, 0, sizeof(*host));
}

const struct lx_gpu *lx_host_find_gpu_by_bdf(const struct lx_host *host, const char *bdf)
{
	_cleanup_free_ char *normal = NULL;
	if (!lx_pci_address_normalize(bdf, &normal))
		return NULL;
	for (size_t i = 0; i < host->n_gpus; i++)
		if (strcmp(host->gpus[i].bdf, normal) == 0)
			return &host->gpus[i];
	return NULL;
}

const struct lx_dev_node *lx_host_find_node(const struct lx_host *host, const char *path)
{
	for (size_t i = 0; i < host->n_nodes; i++)
		if (strcmp(host->nodes[i].path, path) == 0)
			return &host->nodes[i];
	return NULL;
}

int lx_host_major_by_name(const struct lx_host *host, const char *name)
{
	for (size_t i = 0; i < host->n_majors; i++)
		if (strcmp(host->majors[i].name, name) == 0)
			return (int)host->majors[i].number;
	return LX_UNKNOWN;
}

const char *lx_host_major_name(const struct lx_host *host, unsigned major)
{
	for (size_t i = 0; i < host->n_majors; i++)
		if (host->majors[i].number == major)
			return host->majors[i].name;
	return NULL;
}

int lx_host_lxc_major(const struct lx_host *host)
{
	const char *v = host->lxc_version;
	if (!v || !isdigit((unsigned char)v[0]))
		return -1;
	char *end;
	errno = 0;
	long major = strtol(v, &end, 10);
	if (errno || major > 1000 || (*end && *end != '.'))
		return -1;
	return (int)major;
}

bool lx_host_pve_hotplugs_devn(const struct lx_host *host)
{
	/* pve-container 6.0.4 (debian/changelog): "implement device hotplug" */
	return host->pve_container_version &&
	       lx_version_cmp(host->pve_container_version, "6.0.4") >= 0;
}

int lx_host_gpu_major(const struct lx_host *host)
{
	int m = lx_host_major_by_name(host, "nvidia");
	return m != LX_UNKNOWN ? m : lx_host_major_by_name(host, "nvidia-frontend");
}

bool lx_host_has_module(const struct lx_host *host, const char *module)
{
	return lx_strv_contains(&host->driver.modules, module);
}

static const char *const cgroup_names[] = {
	[LX_CGROUP_UNKNOWN] = "unknown",
	[LX_CGROUP_V1] = "v1",
	[LX_CGROUP_V2] = "v2",
	[LX_CGROUP_HYBRID] = "hybrid",
};

static const char *const flavor_names[] = {
	[LX_FLAVOR_UNKNOWN] = "unknown",
	[LX_FLAVOR_OPEN] = "open",
	[LX_FLAVOR_PROPRIETARY] = "proprietary",
};

#define N_NAMES(table) (sizeof(table) / sizeof((table)[0]))

const char *lx_cgroup_layout_name(enum lx_cgroup_layout c)
{
	return cgroup_names[c];
}

bool lx_cgroup_layout_from_name(const char *name, enum lx_cgroup_layout *out)
{
	int i = lx_name_index(cgroup_names, N_NAMES(cgroup_names), name);
	if (i >= 0)
		*out = (enum lx_cgroup_layout)i;
	return i >= 0;
}

const char *lx_driver_flavor_name(enum lx_driver_flavor f)
{
	return flavor_names[f];
}

bool lx_driver_flavor_from_name(const char *name, enum lx_driver_flavor *out)
{
	int i = lx_name_index(flavor_names, N_NAMES(flavor_names), name);
	if (i >= 0)
		*out = (enum lx_driver_flavor)i;
	return i >= 0;
}

static bool parse_hex_field(const char *s, size_t n, size_t max_digits, unsigned long *out)
{
	if (n == 0 || n > max_digits)
		return false;
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		v = v * 16 + (unsigned long)(isdigit((unsigned char)s[i]) ? s[i] - '0'
								 : (tolower((unsigned char)s[i]) - 'a' + 10));
	}
	*out = v;
	return true;
}

bool lx_pci_address_normalize(const char *in, char **out)
{
	/* domain:bus:device.function; domain 1..8 hex digits (optional). */
	unsigned long domain = 0, bus, dev, fn;
	const char *p = in;
	const char *colon1 = strchr(p, ':');
	if (!colon1)
		return false;
	const char *colon2 = strchr(colon1 + 1, ':');
	const char *bus_start = p;
	if (colon2) {
		if (!parse_hex_field(p, (size_t)(colon1 - p), 8, &domain))
			return false;
		bus_start = colon1 + 1;
	} else {
		colon2 = colon1;
	}
	const char *dot = strchr(colon2 + 1, '.');
	if (!dot || !parse_hex_field(bus_start, (size_t)(colon2 - bus_start), 2, &bus) ||
	    !parse_hex_field(colon2 + 1, (size_t)(dot - colon2 - 1), 2, &dev) ||
	    !parse_hex_field(dot + 1, strlen(dot + 1), 1, &fn) || dev > 0x1f || fn > 7)
		return false;
	/* "%04lx:%02lx:%02lx.%lx" by hand: this runs for every address a
	 * snapshot holds, and printf costs more than the parsing. */
	static const char hex[] = "0123456789abcdef";
	char text[32], *w = text + sizeof(text);
	*--w = '\0';
	*--w = hex[fn];
	*--w = '.';
	*--w = hex[dev & 0xf];
	*--w = hex[dev >> 4];
	*--w = ':';
	*--w = hex[bus & 0xf];
	*--w = hex[bus >> 4];
	*--w = ':';
	int width = 0;
	do {
		*--w = hex[domain & 0xf];
		domain >>= 4;
	} while (++width < 4 || domain);
	*out = lx_xstrdup(w);
	return true;
}

/* ---- host-level warnings ---- */

static void warn(struct lx_host_warnings *w, unsigned code, char *message, char *fix)
{
	w->items = lx_xrealloc(w->items, (w->n + 1) * sizeof(*w->items));
	w->items[w->n] = (struct lx_host_warning){message, fix, code, false};
	w->n++;
}

bool lx_gpu_needs_open_module(const struct lx_gpu *g)
{
	return g->device_id >= 0x2900 && g->device_id <= 0x2fff; /* Blackwell: GB1xx, GB2xx */
}

bool lx_gpu_has_gsp(const struct lx_gpu *g)
{
	return g->device_id >= 0x1e00; /* Turing and later */
}

/* /dev/nvidiaN, /dev/nvidiactl and /dev/nvidia-modeset share the GPU major. */
static bool is_gpu_major_node(const char *path)
{
	const char *name = path + strlen("/dev/");
	return strcmp(name, "nvidiactl") == 0 || strcmp(name, "nvidia-modeset") == 0 ||
	       lx_gpu_node_minor(path) >= 0;
}

/* How to remake a node of the wrong type or major. lxgpu ensure-nodes
 * replaces the ones it makes (nvidiactl, nvidiaN, nvidia-modeset, uvm,
 * caps; in the caller's --dev-dir); udev makes the DRM ones. */
static char *stale_node_fix(const char *path)
{
	if (lx_str_starts_with(path, "/dev/dri/") || strcmp(path, "/dev/kfd") == 0)
		return lx_xasprintf("by hand: recreate it, or reboot: `rm %s && udevadm trigger`", path);
	if (is_gpu_major_node(path) || lx_str_starts_with(path, "/dev/nvidia-uvm") ||
	    lx_str_starts_with(path, "/dev/nvidia-caps/"))
		return lx_xstrdup("recreate it (ensure-nodes replaces a node of the wrong type or "
				  "major), or reboot: `lxgpu ensure-nodes`");
	return lx_xasprintf("by hand: recreate it: rm %s, then load the module again (or reboot)",
			    path);
}

static void check_node_major(const struct lx_host *host, struct lx_host_warnings *w,
			     const struct lx_dev_node *node, const char *major_name)
{
	int expected = lx_host_major_by_name(host, major_name);
	if (expected == LX_UNKNOWN || node->type != LX_NODE_CHAR || node->major == (unsigned)expected)
		return;
	warn(w, 123,
	     lx_xasprintf("%s has major %u but /proc/devices gives %s major %d: the node is stale "
			  "(made before a driver reload)",
			  node->path, node->major, major_name, expected),
	     stale_node_fix(node->path));
}

static const char *major_name_for_node(const char *path)
{
	if (lx_str_starts_with(path, "/dev/nvidia-uvm"))
		return "nvidia-uvm";
	if (lx_str_starts_with(path, "/dev/nvidia-caps-imex-channels/"))
		return "nvidia-caps-imex-channels";
	if (lx_str_starts_with(path, "/dev/nvidia-caps/"))
		return "nvidia-caps";
	if (lx_str_starts_with(path, "/dev/nvidia-nvswitch"))
		return "nvidia-nvswitch";
	if (lx_str_starts_with(path, "/dev/nvidia-nvlink"))
		return "nvidia-nvlink";
	if (lx_str_starts_with(path, "/dev/dri/"))
		return "drm";
	if (strcmp(path, "/dev/kfd") == 0)
		return "kfd";
	return NULL;
}


/* Intel and AMD GPUs: their DRM nodes exist, and amdgpu made /dev/kfd. */
static void check_drm_gpus(const struct lx_host *host, struct lx_host_warnings *w)
{
	bool kfd_needed = false;
	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		if (lx_gpu_kind(g) != LX_GPU_DRM)
			continue;
		kfd_needed |= lx_gpu_needs_kfd(g);
		for (size_t d = 0; d < g->n_drm; d++) {
			_cleanup_free_ char *path = lx_xasprintf("/dev/dri/%s", g->drm[d].name);
			if (!lx_host_find_node(host, path))
				warn(w, 122, lx_xasprintf("GPU %s (%s) has DRM minor %s but %s does not exist",
						     g->bdf, g->driver, g->drm[d].name, path),
				     lx_xstrdup("let udev make it: `udevadm trigger --subsystem-match=drm`"));
		}
	}
	if (kfd_needed && lx_host_kfd_major(host) != LX_UNKNOWN && !lx_host_find_node(host, "/dev/kfd"))
		warn(w, 122, lx_xstrdup("amdgpu registered kfd in /proc/devices but /dev/kfd does not exist"),
		     lx_xstrdup("let udev make it: `udevadm trigger --subsystem-match=kfd`"));
}

void lx_host_check(const struct lx_host *host, struct lx_host_warnings *w)
{
	memset(w, 0, sizeof(*w));
	size_t bound_to_nvidia = 0, nvidia_gpus = 0;
	for (size_t i = 0; i < host->n_gpus; i++) {
		if (host->gpus[i].driver && strcmp(host->gpus[i].driver, "nvidia") == 0)
			bound_to_nvidia++;
		nvidia_gpus += host->gpus[i].vendor_id == LX_NVIDIA_VENDOR_ID;
	}

	if (host->n_gpus == 0) {
		/* Installed, the example hosts are in the package's data dir; from
		 * a clone they are in its examples/hosts. */
		_cleanup_free_ char *installed = lx_path_join(LXGPU_EXAMPLES_DIR,
							      "pve-8x-rtx-pro-6000.yaml");
		warn(w, 125, lx_xstrdup("no NVIDIA GPU found on this host"),
		     lx_xasprintf("to try lxgpu without one, use a bundled example host: `lxgpu "
				  "--host %s scan`",
				  access(installed, R_OK) == 0 ? installed
							       : "examples/hosts/pve-8x-rtx-pro-6000.yaml"));
		return;
	}
	/* An Intel or AMD host without NVIDIA hardware needs no NVIDIA driver. */
	if (nvidia_gpus == 0 && !host->driver.version) {
		check_drm_gpus(host, w);
		return;
	}
	if (!host->driver.version && bound_to_nvidia > 0)
		warn(w, 120, lx_xstrdup("GPUs are bound to nvidia but /proc/driver/nvidia/version is missing"),
		     NULL);
	if (!host->driver.version && bound_to_nvidia == 0)
		warn(w, 120, lx_xstrdup("the nvidia kernel module is not loaded"),
		     lx_xstrdup("install the NVIDIA driver (or DKMS module) for the running kernel, "
				"then load it: `modprobe nvidia`"));
	if (host->driver.version && lx_host_major_by_name(host, "nvidia-uvm") == LX_UNKNOWN)
		warn(w, 20, lx_xstrdup("nvidia-uvm is not loaded: CUDA will not work in containers"),
		     lx_xstrdup(LX_FIX_LOAD_UVM));
	else if (lx_host_major_by_name(host, "nvidia-uvm") != LX_UNKNOWN &&
		 !lx_host_find_node(host, "/dev/nvidia-uvm"))
		warn(w, 122, lx_xstrdup("nvidia-uvm is loaded but /dev/nvidia-uvm does not exist"),
		     lx_xstrdup("create it: `nvidia-modprobe -u -c 0`"));
	if (host->driver.version && !lx_host_find_node(host, "/dev/nvidiactl"))
		warn(w, 122, lx_xstrdup("/dev/nvidiactl does not exist"),
		     lx_xstrdup("create the nodes: `nvidia-modprobe -c 0`; or run nvidia-smi once"));

	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		if (lx_gpu_kind(g) == LX_GPU_DRM)
			continue; /* check_drm_gpus */
		if (!g->driver) {
			warn(w, 121, lx_xasprintf("GPU %s is not bound to any driver", g->bdf), NULL);
			continue;
		}
		if (strcmp(g->driver, "nvidia") != 0) {
			warn(w, 121, lx_xasprintf("GPU %s is bound to %s: containers cannot use it", g->bdf,
					     g->driver),
			     NULL);
			/* vfio-pci: given to VMs on purpose */
			w->items[w->n - 1].info = strcmp(g->driver, "vfio-pci") == 0;
			continue;
		}
		if (g->minor == LX_UNKNOWN) {
			warn(w, 124, lx_xasprintf("GPU %s: the driver does not report its device minor",
					     g->bdf),
			     lx_xstrdup("its /dev/nvidiaN node cannot be told apart; upgrade the driver"));
			continue;
		}
		_cleanup_free_ char *path = lx_xasprintf("/dev/nvidia%d", g->minor);
		if (!lx_host_find_node(host, path))
			warn(w, 122, lx_xasprintf("GPU %s has minor %d but %s does not exist", g->bdf,
					     g->minor, path),
			     lx_xasprintf("create the nodes: `nvidia-modprobe -c %d`; or run nvidia-smi once",
					  g->minor));
	}

	if (host->driver.flavor == LX_FLAVOR_OPEN && host->driver.version &&
	    !lx_strv_contains(&host->driver.firmware, host->driver.version))
		warn(w, 107, lx_xasprintf("open kernel module %s but no GSP firmware for it under "
				     "/lib/firmware/nvidia/%s",
				     host->driver.version, host->driver.version),
		     lx_xstrdup("reinstall the driver package that matches the loaded module"));

	for (size_t i = 0; host->driver.version && i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		if (g->vendor_id != LX_NVIDIA_VENDOR_ID)
			continue;
		if (host->driver.flavor == LX_FLAVOR_PROPRIETARY && lx_gpu_needs_open_module(g))
			warn(w, 101,
			     lx_xasprintf("GPU %s (%s) needs the open kernel modules; the loaded %s "
					  "module is proprietary",
					  g->bdf, g->model ? g->model : "Blackwell", host->driver.version),
			     lx_xstrdup("install the open flavour of the driver (nvidia-open, or "
					"--kernel-module-type=open)"));
		if (host->driver.flavor == LX_FLAVOR_OPEN && !lx_gpu_has_gsp(g))
			warn(w, 102,
			     lx_xasprintf("GPU %s (%s) is older than Turing: the open kernel module %s "
					  "cannot drive it",
					  g->bdf, g->model ? g->model : "no GSP", host->driver.version),
			     lx_xstrdup("install the proprietary kernel module"));
	}

	check_drm_gpus(host, w);
	int gpu_major = lx_host_gpu_major(host);
	for (size_t i = 0; i < host->n_nodes; i++) {
		const struct lx_dev_node *node = &host->nodes[i];
		if (node->type != LX_NODE_CHAR) {
			warn(w, 123, lx_xasprintf("%s is not a character device", node->path),
			     stale_node_fix(node->path));
			continue;
		}
		const char *name = major_name_for_node(node->path);
		if (name)
			check_node_major(host, w, node, name);
		else if (is_gpu_major_node(node->path) && gpu_major != LX_UNKNOWN &&
			 node->major != (unsigned)gpu_major)
			warn(w, 123, lx_xasprintf("%s has major %u but the nvidia major is %d", node->path,
					     node->major, gpu_major),
			     stale_node_fix(node->path));
	}
}

void lx_host_warnings_free(struct lx_host_warnings *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->items[i].message);
		free(w->items[i].fix);
	}
	free(w->items);
	memset(w, 0, sizeof(*w));
}

bool lx_major_is_dynamic(unsigned major)
{
	return (major >= 234 && major <= 254) || (major >= 384 && major <= 511);
}

bool lx_host_major_is_stale(const struct lx_host *host, unsigned major)
{
	if (!lx_major_is_dynamic(major))
		return false;
	if (host->majors_complete)
		return lx_host_major_name(host, major) == NULL;
	for (size_t i = 0; i < host->n_majors; i++)
		if (host->majors[i].number == major &&
		    (lx_str_starts_with(host->majors[i].name, "nvidia") ||
		     strcmp(host->majors[i].name, "drm") == 0 || strcmp(host->majors[i].name, "kfd") == 0))
			return false;
	return true;
}

int lx_gpu_node_minor(const char *path)
{
	const char *digits = path + strlen("/dev/nvidia");
	if (!lx_str_starts_with(path, "/dev/nvidia") || !*digits ||
	    strspn(digits, "0123456789") != strlen(digits) || strlen(digits) > 6)
		return -1;
	return atoi(digits);
}

int lx_host_gpu_of_node(const struct lx_host *host, const char *path)
{
	int minor = lx_gpu_node_minor(path);
	if (minor < 0) {
		/* A DRM GPU's card/render node is its GPU node; an NVIDIA GPU's
		 * is not (CUDA needs /dev/nvidiaN). */
		int g = lx_host_gpu_of_drm_path(host, path);
		return g >= 0 && lx_gpu_kind(&host->gpus[g]) == LX_GPU_DRM ? g : -1;
	}
	return lx_host_gpu_by_minor(host, minor);
}

/* ---- GPUs of any vendor ---- */

bool lx_drm_gpu_driver(const char *driver)
{
	return driver && (strcmp(driver, "i915") == 0 || strcmp(driver, "xe") == 0 ||
			  strcmp(driver, "amdgpu") == 0);
}

bool lx_pci_is_gpu(uint16_t vendor, uint32_t class_code, const char *driver, bool has_drm)
{
	if ((class_code >> 16) != 0x03) /* display controller: VGA, XGA, 3D, other */
		return false;
	return vendor == LX_NVIDIA_VENDOR_ID || (lx_drm_gpu_driver(driver) && has_drm);
}

enum lx_gpu_kind lx_gpu_kind(const struct lx_gpu *g)
{
	if (g->driver && strcmp(g->driver, "nvidia") == 0)
		return LX_GPU_NVIDIA;
	if (lx_drm_gpu_driver(g->driver))
		return LX_GPU_DRM;
	return LX_GPU_UNUSABLE;
}

bool lx_gpu_usable(const struct lx_gpu *g)
{
	return lx_gpu_kind(g) != LX_GPU_UNUSABLE;
}

bool lx_gpu_needs_kfd(const struct lx_gpu *g)
{
	return g->driver && strcmp(g->driver, "amdgpu") == 0;
}

const char *lx_gpu_vendor_name(const struct lx_gpu *g)
{
	switch (g->vendor_id) {
	case LX_NVIDIA_VENDOR_ID: return "NVIDIA";
	case LX_INTEL_VENDOR_ID: return "Intel";
	case LX_AMD_VENDOR_ID: return "AMD";
	default: return NULL;
	}
}

int lx_gpu_compare(const void *a, const void *b)
{
	const struct lx_gpu *x = a, *y = b;
	bool nx = x->vendor_id == LX_NVIDIA_VENDOR_ID, ny = y->vendor_id == LX_NVIDIA_VENDOR_ID;
	if (nx != ny)
		return nx ? -1 : 1;
	return strcmp(x->bdf, y->bdf);
}

int lx_host_kfd_major(const struct lx_host *host)
{
	return lx_host_major_by_name(host, "kfd");
}

/* "pci-0000:07:00.0-card" -> GPU index and kind ("card"/"render"). */
static int by_path_gpu(const struct lx_host *host, const char *path, bool *render)
{
	if (!lx_str_starts_with(path, "/dev/dri/by-path/pci-"))
		return -1;
	const char *bdf = path + strlen("/dev/dri/by-path/pci-");
	const char *dash = strrchr(bdf, '-');
	if (!dash || (strcmp(dash, "-card") != 0 && strcmp(dash, "-render") != 0))
		return -1;
	*render = strcmp(dash, "-render") == 0;
	_cleanup_free_ char *addr = lx_xstrndup(bdf, (size_t)(dash - bdf));
	const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, addr);
	return g ? (int)(g - host->gpus) : -1;
}

int lx_host_gpu_of_drm_path(const struct lx_host *host, const char *path)
{
	bool render;
	int g = by_path_gpu(host, path, &render);
	if (g >= 0 || !lx_str_starts_with(path, "/dev/dri/"))
		return g;
	const char *name = path + strlen("/dev/dri/");
	for (size_t i = 0; i < host->n_gpus; i++)
		for (size_t d = 0; d < host->gpus[i].n_drm; d++)
			if (strcmp(host->gpus[i].drm[d].name, name) == 0)
				return (int)i;
	return -1;
}

char *lx_host_by_path_target(const struct lx_host *host, const char *path)
{
	bool render;
	int g = by_path_gpu(host, path, &render);
	if (g < 0)
		return NULL;
	const struct lx_gpu *gpu = &host->gpus[g];
	for (size_t d = 0; d < gpu->n_drm; d++)
		if (lx_str_starts_with(gpu->drm[d].name, render ? "renderD" : "card"))
			return lx_xasprintf("/dev/dri/%s", gpu->drm[d].name);
	return NULL;
}
