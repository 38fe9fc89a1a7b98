/* The live scanner: libudev for PCI and DRM, /proc and /dev read directly.
 *
 * It never opens a /dev/nvidia* node and never loads NVML: opening a node
 * initializes the GPU (seconds per GPU without persistence mode), and the
 * scanner must stay safe to run from a container start hook. stat() and
 * /proc, /sys reads are enough. */
#include "lxgpu/host.h"

#include <dirent.h>
#include <errno.h>
#include <libudev.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PROC_FILE_MAX (4u << 20)
#define CAPS_MAX_DEPTH 6

/* libudev, loaded on first use (util/dl.c): commands on a saved host
 * model, and the start hook, never map it. */
#define UDEV_SYMBOLS(X) \
	X(udev_device_get_driver) \
	X(udev_device_get_parent_with_subsystem_devtype) \
	X(udev_device_get_property_value) \
	X(udev_device_get_sysattr_value) \
	X(udev_device_get_sysname) \
	X(udev_device_get_syspath) \
	X(udev_device_new_from_syspath) \
	X(udev_device_unref) \
	X(udev_enumerate_add_match_subsystem) \
	X(udev_enumerate_add_match_sysattr) \
	X(udev_enumerate_get_list_entry) \
	X(udev_enumerate_new) \
	X(udev_enumerate_scan_devices) \
	X(udev_enumerate_unref) \
	X(udev_list_entry_get_name) \
	X(udev_list_entry_get_next) \
	X(udev_new) \
	X(udev_unref)

static struct udev_lib {
	UDEV_SYMBOLS(LX_DL_FIELD)
} libudev;

#define ENTRY(name) LX_DL_ENTRY(libudev, name)
static const struct lx_dl_symbol udev_symbols[] = {UDEV_SYMBOLS(ENTRY)};
#undef ENTRY
static struct lx_dl_library udev_library = {
	"libudev.so.1", "the live scan of this host", "libudev1", udev_symbols,
	sizeof(udev_symbols) / sizeof(udev_symbols[0]), false};

static struct udev_device *parent_pci(struct udev_device *dev)
{
	return libudev.udev_device_get_parent_with_subsystem_devtype(dev, "pci", NULL);
}

struct scanner {
	const struct lx_scan_paths *paths;
	struct lx_host *host;
	struct lx_evidence *evidence;
	struct lx_buf dev_listing;
	struct udev *udev;
	struct lx_error *err;
};

void lx_scan_paths_default(struct lx_scan_paths *paths)
{
	paths->proc = "/proc";
	paths->dev = "/dev";
	paths->sys = "/sys";
	paths->firmware = "/lib/firmware/nvidia";
	paths->run = "/run";
	paths->boot = "/boot";
	paths->tools = "/";
	paths->packages = "/";
}

void lx_evidence_add(struct lx_evidence *ev, const char *path, const char *data, size_t len)
{
	ev->files = lx_xrealloc(ev->files, (ev->n + 1) * sizeof(*ev->files));
	struct lx_evidence_file *f = &ev->files[ev->n++];
	f->path = lx_xstrdup(path);
	f->data = lx_xstrndup(data, len);
	f->len = len;
}

void lx_evidence_free(struct lx_evidence *ev)
{
	for (size_t i = 0; i < ev->n; i++) {
		free(ev->files[i].path);
		free(ev->files[i].data);
	}
	free(ev->files);
	memset(ev, 0, sizeof(*ev));
}

/* Text read from the kernel ends up in YAML and on terminals: keep it to
 * printable ASCII. */
static char *sanitized(const char *s)
{
	if (!s)
		return NULL;
	char *copy = lx_str_strip(lx_xstrdup(s));
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	return copy;
}

/* Read <proc>/<rel>; a missing file gives *out = NULL when optional. */
static int read_proc(struct scanner *s, const char *rel, bool optional, char **out)
{
	_cleanup_free_ char *path = lx_path_join(s->paths->proc, rel);
	size_t len = 0;
	int r = optional ? lx_read_file_optional(path, PROC_FILE_MAX, out, &len, s->err)
			 : lx_read_file(path, PROC_FILE_MAX, out, &len, s->err);
	if (r < 0)
		return -1;
	if (*out && s->evidence) {
		_cleanup_free_ char *logical = lx_path_join("/proc", rel);
		lx_evidence_add(s->evidence, logical, *out, len);
	}
	return 0;
}

static int scan_kernel(struct scanner *s)
{
	_cleanup_free_ char *hostname = NULL, *release = NULL, *mountinfo = NULL;
	if (read_proc(s, "sys/kernel/hostname", true, &hostname) < 0 ||
	    read_proc(s, "sys/kernel/osrelease", true, &release) < 0 ||
	    read_proc(s, "self/mountinfo", true, &mountinfo) < 0)
		return -1;
	struct utsname uts;
	bool have_uts = uname(&uts) == 0;
	if (hostname)
		s->host->hostname = sanitized(hostname);
	else if (have_uts)
		s->host->hostname = sanitized(uts.nodename);
	if (release)
		s->host->kernel = sanitized(release);
	else if (have_uts)
		s->host->kernel = sanitized(uts.release);
	s->host->cgroup = mountinfo ? lx_parse_cgroup_layout(mountinfo) : LX_CGROUP_UNKNOWN;
	return 0;
}

static int scan_majors_and_modules(struct scanner *s)
{
	_cleanup_free_ char *devices = NULL, *modules = NULL;
	if (read_proc(s, "devices", false, &devices) < 0)
		return -1;
	if (lx_parse_proc_devices(devices, &s->host->majors, &s->host->n_majors, s->err) < 0)
		return lx_error_prefix(s->err, "%s/devices", s->paths->proc);
	s->host->majors_complete = true;
	if (read_proc(s, "modules", true, &modules) < 0)
		return -1;
	if (modules)
		lx_parse_proc_modules(modules, &s->host->driver.modules);
	return 0;
}

static int scan_driver_version(struct scanner *s)
{
	_cleanup_free_ char *text = NULL;
	if (read_proc(s, "driver/nvidia/version", true, &text) < 0)
		return -1;
	if (!text)
		return 0; /* nvidia not loaded: the model says so by a NULL version */
	struct lx_driver *d = &s->host->driver;
	if (lx_parse_nvidia_version(text, &d->version, &d->flavor, s->err) == 0)
		return 0;
	/* An unknown line format must not break lxgpu: the module's version in
	 * sysfs is the bare version string. */
	_cleanup_free_ char *path = lx_path_join(s->paths->sys, "module/nvidia/version");
	_cleanup_free_ char *bare = NULL;
	struct lx_error ignored = {0};
	lx_read_file_optional(path, 256, &bare, NULL, &ignored);
	lx_error_clear(&ignored);
	if (!bare)
		return lx_error_prefix(s->err, "%s/driver/nvidia/version", s->paths->proc);
	lx_error_clear(s->err);
	d->version = sanitized(bare);
	d->flavor = LX_FLAVOR_UNKNOWN;
	return 0;
}

static struct lx_gpu *add_gpu(struct lx_host *host, const char *bdf)
{
	host->gpus = lx_xrealloc(host->gpus, (host->n_gpus + 1) * sizeof(*host->gpus));
	struct lx_gpu *g = &host->gpus[host->n_gpus++];
	memset(g, 0, sizeof(*g));
	g->bdf = lx_xstrdup(bdf);
	g->minor = LX_UNKNOWN;
	g->numa_node = LX_UNKNOWN;
	g->iommu_group = LX_UNKNOWN;
	g->iommu_type = LX_IOMMU_NONE;
	return g;
}

static struct lx_gpu *find_gpu(struct lx_host *host, const char *bdf)
{
	return (struct lx_gpu *)lx_host_find_gpu_by_bdf(host, bdf);
}

static unsigned long hex_attr(struct udev_device *dev, const char *name)
{
	const char *v = libudev.udev_device_get_sysattr_value(dev, name);
	unsigned long long n;
	if (!v || !lx_parse_uint(v, 16, 0xffffffffULL, &n))
		return 0;
	return (unsigned long)n;
}

/* The last path element of a sysfs link (iommu_group -> .../iommu_groups/12). */
static char *link_basename(const char *syspath, const char *link)
{
	_cleanup_free_ char *path = lx_path_join(syspath, link);
	char target[4096];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	return lx_xstrdup(base ? base + 1 : target);
}

/* Vendor and device ids from the sysfs attributes, else from the udev
 * property PCI_ID ("10DE:2BB5"); the class likewise from PCI_CLASS. */
static void pci_ids(struct udev_device *dev, unsigned long *vendor, unsigned long *device,
		    unsigned long *class_code)
{
	*vendor = hex_attr(dev, "vendor");
	*device = hex_attr(dev, "device");
	*class_code = hex_attr(dev, "class");
	const char *id = libudev.udev_device_get_property_value(dev, "PCI_ID");
	if ((!*vendor || !*device) && id && strlen(id) == 9 && id[4] == ':') {
		_cleanup_free_ char *v = lx_xstrndup(id, 4);
		*vendor = strtoul(v, NULL, 16);
		*device = strtoul(id + 5, NULL, 16);
	}
	const char *cls = libudev.udev_device_get_property_value(dev, "PCI_CLASS");
	if (!*class_code && cls)
		*class_code = strtoul(cls, NULL, 16);
}

/* A sysfs file of a device that may be missing or unreadable: NULL then.
 * Never an error: these facts are optional in the model. */
static char *read_sys_optional(const char *syspath, const char *name, size_t max, size_t *len)
{
	_cleanup_free_ char *path = lx_path_join(syspath, name);
	char *data = NULL;
	struct lx_error ignored = {0};
	if (lx_read_file_optional(path, max, &data, len, &ignored) < 0)
		data = NULL;
	lx_error_clear(&ignored);
	return data;
}

static void scan_gpu_bars(struct scanner *s, struct lx_gpu *g, const char *syspath)
{
	size_t len = 0;
	_cleanup_free_ char *text = read_sys_optional(syspath, "resource", 64 * 1024, &len);
	if (!text)
		return;
	struct lx_error ignored = {0};
	if (lx_parse_pci_resource(text, &g->bars, &g->n_bars, &ignored) == 0)
		g->bars_known = true;
	lx_error_clear(&ignored);
	if (s->evidence) {
		_cleanup_free_ char *logical = lx_xasprintf("/sys/bus/pci/devices/%s/resource", g->bdf);
		lx_evidence_add(s->evidence, logical, text, len);
	}
}

/* The group's default domain type; a group without a type file (kernels
 * before 5.11) is unknown, no group at all is no IOMMU. */
static void scan_gpu_iommu_type(struct scanner *s, struct lx_gpu *g)
{
	if (g->iommu_group == LX_UNKNOWN) {
		g->iommu_type = LX_IOMMU_NONE;
		return;
	}
	g->iommu_type = LX_IOMMU_UNKNOWN;
	_cleanup_free_ char *dir = lx_xasprintf("%s/kernel/iommu_groups/%d", s->paths->sys,
						g->iommu_group);
	size_t len = 0;
	_cleanup_free_ char *type = read_sys_optional(dir, "type", 256, &len);
	enum lx_iommu_type t;
	if (type && lx_iommu_type_from_name(lx_str_strip(type), &t) && t != LX_IOMMU_NONE)
		g->iommu_type = t;
}

/* Add a bridge above a GPU once, with ACS from its config space. Reading
 * config resumes a runtime-suspended bridge, which is harmless; a GPU's
 * config is never read. Without the host's CAP_SYS_ADMIN the kernel gives
 * 64 bytes: ACS unknown. */
static void scan_bridge(struct scanner *s, struct udev_device *bridge)
{
	_cleanup_free_ char *bdf = NULL;
	if (!lx_pci_address_normalize(libudev.udev_device_get_sysname(bridge), &bdf) ||
	    lx_host_find_bridge(s->host, bdf))
		return;
	struct lx_host *h = s->host;
	h->bridges = lx_xrealloc(h->bridges, (h->n_bridges + 1) * sizeof(*h->bridges));
	struct lx_pci_bridge *b = &h->bridges[h->n_bridges++];
	memset(b, 0, sizeof(*b));
	b->bdf = lx_xstrdup(bdf);
	b->acs = LX_ACS_UNKNOWN;
	size_t len = 0;
	_cleanup_free_ char *config =
		read_sys_optional(libudev.udev_device_get_syspath(bridge), "config", 64 * 1024, &len);
	struct lx_error ignored = {0};
	if (config && lx_parse_pci_config_acs((const unsigned char *)config, len, &b->acs,
					      &b->acs_cap, &b->acs_ctrl, &ignored) < 0)
		b->acs = LX_ACS_UNKNOWN; /* a list that loops: say unknown, never guess */
	lx_error_clear(&ignored);
}

/* The bound driver: its link, else the DRIVER property (hand-written fixtures). */
static const char *udev_driver(struct udev_device *dev)
{
	const char *driver = libudev.udev_device_get_driver(dev);
	return driver ? driver : libudev.udev_device_get_property_value(dev, "DRIVER");
}

/* The function made DRM minors: sysfs has its drm/ directory. */
static bool has_drm_children(struct udev_device *dev)
{
	_cleanup_free_ char *path = lx_path_join(libudev.udev_device_get_syspath(dev), "drm");
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void fill_gpu_from_udev(struct scanner *s, struct lx_gpu *g, struct udev_device *dev)
{
	unsigned long vendor, device, class_code;
	pci_ids(dev, &vendor, &device, &class_code);
	g->vendor_id = (uint16_t)vendor;
	g->device_id = (uint16_t)device;
	g->class_code = (uint32_t)class_code;
	const char *driver = udev_driver(dev);
	if (driver)
		g->driver = sanitized(driver);
	/* Only nvidia names its GPUs in /proc; for the others udev's PCI
	 * database does ("Alder Lake-S GT1 [UHD Graphics 730]"). */
	const char *hwdb = libudev.udev_device_get_property_value(dev, "ID_MODEL_FROM_DATABASE");
	if (vendor != LX_NVIDIA_VENDOR_ID && hwdb)
		g->model = sanitized(hwdb);
	long long v;
	const char *numa = libudev.udev_device_get_sysattr_value(dev, "numa_node");
	if (numa && lx_parse_int(numa, 0, 65535, &v))
		g->numa_node = (int)v;
	_cleanup_free_ char *group = link_basename(libudev.udev_device_get_syspath(dev), "iommu_group");
	if (group && lx_parse_int(group, 0, 1000000, &v))
		g->iommu_group = (int)v;
	scan_gpu_iommu_type(s, g);
	scan_gpu_bars(s, g, libudev.udev_device_get_syspath(dev));
	/* The bridges above the GPU, collected bottom-up, stored root first. */
	struct lx_strv up = {0};
	for (struct udev_device *p = parent_pci(dev); p; p = parent_pci(p)) {
		lx_strv_push(&up, libudev.udev_device_get_sysname(p));
		scan_bridge(s, p);
	}
	for (size_t i = up.n; i > 0; i--)
		lx_strv_push(&g->pcie_path, up.items[i - 1]);
	lx_strv_free(&up);
}

/* Call visit() for every device of a subsystem (with one sysattr match
 * when attr is not NULL). */
static int for_each_udev_device(struct scanner *s, const char *subsystem, const char *attr,
				const char *value,
				void (*visit)(struct scanner *, struct udev_device *))
{
	struct udev_enumerate *en = libudev.udev_enumerate_new(s->udev);
	if (!en)
		return lx_error_set(s->err, "libudev: cannot enumerate devices");
	libudev.udev_enumerate_add_match_subsystem(en, subsystem);
	if (attr)
		libudev.udev_enumerate_add_match_sysattr(en, attr, value);
	if (libudev.udev_enumerate_scan_devices(en) < 0) {
		libudev.udev_enumerate_unref(en);
		return lx_error_set(s->err, "libudev: cannot scan %s devices under /sys", subsystem);
	}
	struct udev_list_entry *entry;
	for (entry = libudev.udev_enumerate_get_list_entry(en); entry;
	     entry = libudev.udev_list_entry_get_next(entry))
	{
		struct udev_device *dev =
			libudev.udev_device_new_from_syspath(s->udev, libudev.udev_list_entry_get_name(entry));
		if (dev) {
			visit(s, dev);
			libudev.udev_device_unref(dev);
		}
	}
	libudev.udev_enumerate_unref(en);
	return 0;
}

static void visit_pci(struct scanner *s, struct udev_device *dev)
{
	/* Display controllers lx_pci_is_gpu keeps: not a GPU's HDA function,
	 * not NVSwitches, not a BMC's VGA. */
	unsigned long vendor, device, class_code;
	pci_ids(dev, &vendor, &device, &class_code);
	if ((class_code >> 16) != 0x03)
		return;
	const char *driver = udev_driver(dev);
	if (!lx_pci_is_gpu((uint16_t)vendor, (uint32_t)class_code, driver,
			   vendor != LX_NVIDIA_VENDOR_ID && lx_drm_gpu_driver(driver) &&
				   has_drm_children(dev)))
		return;
	_cleanup_free_ char *bdf = NULL;
	if (lx_pci_address_normalize(libudev.udev_device_get_sysname(dev), &bdf) && !find_gpu(s->host, bdf))
		fill_gpu_from_udev(s, add_gpu(s->host, bdf), dev);
}

static int scan_proc_gpus(struct scanner *s)
{
	_cleanup_free_ char *dir_path = lx_path_join(s->paths->proc, "driver/nvidia/gpus");
	DIR *dir = opendir(dir_path);
	if (!dir)
		return 0; /* no nvidia module, or every GPU bound elsewhere */
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(dir))) {
		_cleanup_free_ char *bdf = NULL;
		if (de->d_name[0] == '.' || !lx_pci_address_normalize(de->d_name, &bdf))
			continue;
		_cleanup_free_ char *rel = lx_xasprintf("driver/nvidia/gpus/%s/information", de->d_name);
		_cleanup_free_ char *text = NULL;
		if (read_proc(s, rel, true, &text) < 0) {
			rc = -1;
			break;
		}
		if (!text)
			continue;
		struct lx_gpu_information info;
		if (lx_parse_gpu_information(text, &info, s->err) < 0) {
			rc = lx_error_prefix(s->err, "%s/%s", s->paths->proc, rel);
			break;
		}
		struct lx_gpu *g = find_gpu(s->host, bdf);
		if (!g) {
			/* Known to the driver but not in sysfs: keep what the driver says. */
			g = add_gpu(s->host, bdf);
			g->iommu_type = LX_IOMMU_UNKNOWN;
			g->vendor_id = LX_NVIDIA_VENDOR_ID;
			g->driver = lx_xstrdup("nvidia");
		}
		if (!g->driver) /* only the nvidia driver makes this /proc entry */
			g->driver = lx_xstrdup("nvidia");
		free(g->model);
		free(g->uuid);
		free(g->vbios);
		g->model = sanitized(info.model);
		g->uuid = sanitized(info.uuid);
		g->vbios = sanitized(info.vbios);
		g->minor = info.minor;
		lx_gpu_information_free(&info);
	}
	closedir(dir);
	return rc;
}

static void add_drm_node(struct scanner *s, struct lx_gpu *g, const char *name)
{
	const char *kind = lx_str_starts_with(name, "render") ? "render" : "card";
	_cleanup_free_ char *by_path = lx_xasprintf("pci-%s-%s", g->bdf, kind);
	_cleanup_free_ char *link = lx_xasprintf("%s/dri/by-path/%s", s->paths->dev, by_path);
	struct stat st;
	bool have_link = lstat(link, &st) == 0;
	g->drm = lx_xrealloc(g->drm, (g->n_drm + 1) * sizeof(*g->drm));
	g->drm[g->n_drm].name = sanitized(name);
	g->drm[g->n_drm].by_path = have_link ? lx_xstrdup(by_path) : NULL;
	g->n_drm++;
}

static int compare_drm(const void *a, const void *b)
{
	return strcmp(((const struct lx_drm_node *)a)->name, ((const struct lx_drm_node *)b)->name);
}

static void visit_drm(struct scanner *s, struct udev_device *dev)
{
	const char *name = libudev.udev_device_get_sysname(dev);
	/* Minors only (card1, renderD128): not connectors (card1-DP-1). */
	if (!name || !(lx_str_starts_with(name, "card") || lx_str_starts_with(name, "renderD")) ||
	    strchr(name, '-'))
		return;
	struct udev_device *pci = parent_pci(dev);
	_cleanup_free_ char *bdf = NULL;
	struct lx_gpu *g = NULL;
	if (pci && lx_pci_address_normalize(libudev.udev_device_get_sysname(pci), &bdf))
		g = find_gpu(s->host, bdf);
	if (g)
		add_drm_node(s, g, name);
}

static int scan_drm(struct scanner *s)
{
	if (for_each_udev_device(s, "drm", NULL, NULL, visit_drm) < 0)
		return -1;
	for (size_t i = 0; i < s->host->n_gpus; i++)
		if (s->host->gpus[i].n_drm > 1)
			qsort(s->host->gpus[i].drm, s->host->gpus[i].n_drm,
			      sizeof(*s->host->gpus[i].drm), compare_drm);
	return 0;
}

/* stat() one /dev entry (never open it) and add it to the model. */
static void add_node(struct scanner *s, const char *rel)
{
	_cleanup_free_ char *path = lx_path_join(s->paths->dev, rel);
	struct stat st;
	if (stat(path, &st) < 0)
		return;
	struct lx_host *h = s->host;
	h->nodes = lx_xrealloc(h->nodes, (h->n_nodes + 1) * sizeof(*h->nodes));
	struct lx_dev_node *n = &h->nodes[h->n_nodes++];
	n->path = lx_path_join("/dev", rel);
	n->type = S_ISCHR(st.st_mode) ? LX_NODE_CHAR : S_ISBLK(st.st_mode) ? LX_NODE_BLOCK
									     : LX_NODE_OTHER;
	bool is_dev = n->type != LX_NODE_OTHER;
	n->major = is_dev ? major(st.st_rdev) : 0;
	n->minor = is_dev ? minor(st.st_rdev) : 0;
	n->mode = st.st_mode & 07777;
	n->uid = st.st_uid;
	n->gid = st.st_gid;
	lx_buf_printf(&s->dev_listing, "%s %c %u:%u %04o %u %u\n", n->path,
		      n->type == LX_NODE_CHAR ? 'c' : n->type == LX_NODE_BLOCK ? 'b' : '-', n->major,
		      n->minor, n->mode, n->uid, n->gid);
}

/* Add every entry of /dev/<rel> (one level: the caps dirs are flat). */
static void scan_node_dir(struct scanner *s, const char *rel)
{
	_cleanup_free_ char *path = lx_path_join(s->paths->dev, rel);
	DIR *dir = opendir(path);
	if (!dir)
		return;
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *child = lx_xasprintf("%s/%s", rel, de->d_name);
		add_node(s, child);
	}
	closedir(dir);
}

static int compare_nodes(const void *a, const void *b)
{
	return strcmp(((const struct lx_dev_node *)a)->path, ((const struct lx_dev_node *)b)->path);
}

static int scan_nodes(struct scanner *s)
{
	DIR *dir = opendir(s->paths->dev);
	if (!dir)
		return lx_error_set_errno(s->err, errno, "%s: cannot list", s->paths->dev);
	struct dirent *de;
	while ((de = readdir(dir))) {
		/* Dot entries: umockdev keeps its node table in dev/.node. */
		if (de->d_name[0] == '.' || !lx_str_starts_with(de->d_name, "nvidia"))
			continue;
		_cleanup_free_ char *path = lx_path_join(s->paths->dev, de->d_name);
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			scan_node_dir(s, de->d_name);
		else
			add_node(s, de->d_name);
	}
	closedir(dir);
	/* AMD's compute node, one for every amdgpu GPU (major "kfd", dynamic). */
	for (size_t i = 0; i < s->host->n_gpus; i++)
		if (lx_gpu_needs_kfd(&s->host->gpus[i])) {
			add_node(s, "kfd");
			break;
		}
	for (size_t i = 0; i < s->host->n_gpus; i++)
		for (size_t j = 0; j < s->host->gpus[i].n_drm; j++) {
			_cleanup_free_ char *rel =
				lx_xasprintf("dri/%s", s->host->gpus[i].drm[j].name);
			add_node(s, rel);
		}
	if (s->host->n_nodes > 1)
		qsort(s->host->nodes, s->host->n_nodes, sizeof(*s->host->nodes), compare_nodes);
	return 0;
}

static void add_capability(struct lx_host *h, const char *name, unsigned minor)
{
	h->caps = lx_xrealloc(h->caps, (h->n_caps + 1) * sizeof(*h->caps));
	h->caps[h->n_caps].name = lx_xstrdup(name);
	h->caps[h->n_caps].minor = minor;
	h->n_caps++;
}

/* Walk <proc>/driver/nvidia/capabilities/<rel>. Each capability is a file
 * with a DeviceFileMinor line: "mig/config", "fabric-imex-mgmt", or an
 * "access" file whose directory names it ("gpu0/mig/gi1/ci0/access"). */
static int scan_capabilities_dir(struct scanner *s, const char *rel, int depth)
{
	if (depth > CAPS_MAX_DEPTH)
		return 0;
	_cleanup_free_ char *base = lx_path_join(s->paths->proc, "driver/nvidia/capabilities");
	_cleanup_free_ char *path = *rel ? lx_path_join(base, rel) : lx_xstrdup(base);
	DIR *dir = opendir(path);
	if (!dir)
		return 0;
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *child = *rel ? lx_xasprintf("%s/%s", rel, de->d_name)
						  : lx_xstrdup(de->d_name);
		_cleanup_free_ char *child_path = lx_path_join(base, child);
		struct stat st;
		if (stat(child_path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = scan_capabilities_dir(s, child, depth + 1);
			continue;
		}
		bool is_access = strcmp(de->d_name, "access") == 0;
		if (is_access && !*rel)
			continue;
		_cleanup_free_ char *file_rel = lx_xasprintf("driver/nvidia/capabilities/%s", child);
		_cleanup_free_ char *text = NULL;
		unsigned minor;
		if (read_proc(s, file_rel, true, &text) < 0)
			rc = -1;
		else if (text && lx_parse_capability_minor(text, &minor, s->err) < 0)
			rc = lx_error_prefix(s->err, "%s/%s", s->paths->proc, file_rel);
		else if (text)
			add_capability(s->host, is_access ? rel : child, minor);
	}
	closedir(dir);
	return rc;
}

/* Every minor the driver can give a MIG capability, for the host's GPUs:
 * what a config's caps minor means after the instance is gone, and what
 * ensure-nodes makes ahead of instances. */
static int scan_mig_minors(struct scanner *s)
{
	_cleanup_free_ char *text = NULL;
	if (read_proc(s, "driver/nvidia-caps/mig-minors", true, &text) < 0)
		return -1;
	if (text && lx_parse_mig_minors(text, s->host, &s->host->mig_minors,
					&s->host->n_mig_minors, s->err) < 0)
		return lx_error_prefix(s->err, "%s/driver/nvidia-caps/mig-minors", s->paths->proc);
	return 0;
}

/* nvidia-smi where NVIDIA's installer and Debian's packages put it, under
 * the tools root: never from the caller's PATH (scan runs as root). */
static char *find_nvidia_smi(const char *root)
{
	static const char *const dirs[] = {"usr/bin", "usr/sbin", "bin", "sbin"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		_cleanup_free_ char *dir = lx_path_join(root, dirs[i]);
		char *path = lx_path_join(dir, "nvidia-smi");
		struct stat st;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
			return path;
		free(path);
	}
	return NULL;
}

/* The MIG UUIDs, which only NVML knows: from nvidia-smi, and only when a
 * GPU has instances (it is slow, and there is nothing to name otherwise).
 * No tool, a failure or a timeout leave the table empty: --gpus then asks
 * for GPU:giX/ciY. */
static void scan_mig_uuids(struct scanner *s)
{
	bool instances = false;
	for (size_t i = 0; i < s->host->n_gpus && !instances; i++)
		instances = lx_host_gpu_mig_state(s->host, i) == LX_MIG_ON;
	_cleanup_free_ char *smi = instances && s->paths->tools ? find_nvidia_smi(s->paths->tools)
								: NULL;
	if (!smi)
		return;
	char *list_argv[] = {"nvidia-smi", "-L", NULL};
	char *query_argv[] = {"nvidia-smi", "-q", "-x", NULL};
	_cleanup_free_ char *list = lx_run_capture(smi, list_argv, 1u << 20, 10000);
	_cleanup_free_ char *query = list ? lx_run_capture(smi, query_argv, 16u << 20, 30000) : NULL;
	if (!list || !query)
		return;
	if (s->evidence) {
		lx_evidence_add(s->evidence, "nvidia-smi-L.txt", list, strlen(list));
		lx_evidence_add(s->evidence, "nvidia-smi-q-x.xml", query, strlen(query));
	}
	lx_mig_uuids_from_nvsmi(s->host, list, query, &s->host->mig_uuids, &s->host->n_mig_uuids);
}

static int compare_caps(const void *a, const void *b)
{
	return strcmp(((const struct lx_capability *)a)->name,
		      ((const struct lx_capability *)b)->name);
}

static bool dir_has_gsp_firmware(const char *path)
{
	DIR *dir = opendir(path);
	if (!dir)
		return false;
	struct dirent *de;
	bool found = false;
	while (!found && (de = readdir(dir)))
		found = lx_str_starts_with(de->d_name, "gsp");
	closedir(dir);
	return found;
}

static void scan_firmware_and_daemons(struct scanner *s)
{
	DIR *dir = opendir(s->paths->firmware);
	if (dir) {
		struct dirent *de;
		while ((de = readdir(dir))) {
			/* Version dirs only; nouveau's firmware lives in chip-named dirs. */
			if (de->d_name[0] < '0' || de->d_name[0] > '9')
				continue;
			_cleanup_free_ char *path = lx_path_join(s->paths->firmware, de->d_name);
			if (dir_has_gsp_firmware(path))
				lx_strv_push_owned(&s->host->driver.firmware, sanitized(de->d_name));
		}
		closedir(dir);
		lx_strv_sort(&s->host->driver.firmware);
	}
	_cleanup_free_ char *socket = lx_path_join(s->paths->run, "nvidia-persistenced/socket");
	struct stat st;
	s->host->driver.persistenced = stat(socket, &st) == 0;
}

/* A bool module parameter as sysfs prints it (param_get_bool: "Y" or "N"). */
static enum lx_tristate read_bool_param(const char *sys, const char *rel)
{
	_cleanup_free_ char *path = lx_path_join(sys, rel);
	_cleanup_free_ char *text = NULL;
	struct lx_error err = {0};
	if (lx_read_file_optional(path, 64, &text, NULL, &err) < 0)
		lx_error_clear(&err);
	const char *v = text ? lx_str_strip(text) : "";
	return strcmp(v, "Y") == 0 ? LX_YES : strcmp(v, "N") == 0 ? LX_NO : LX_UNSURE;
}

enum lx_tristate lx_kernel_config_option(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return p[n + 1] == 'y' || p[n + 1] == 'm' ? LX_YES : LX_NO;
	return LX_NO;
}

/* The distribution's /boot/config-<release> (Debian, Proxmox), else the
 * kernel's own /proc/config.gz (IKCONFIG_PROC). */
char *lx_kernel_config_read(const struct lx_scan_paths *paths, const char *release, char **source)
{
	*source = NULL;
	struct lx_buf text = {0};
	struct lx_error err = {0};
	_cleanup_free_ char *name = release ? lx_xasprintf("config-%s", release) : NULL;
	_cleanup_free_ char *boot = name && paths->boot && !strchr(release, '/')
					    ? lx_path_join(paths->boot, name)
					    : NULL;
	_cleanup_free_ char *proc = lx_path_join(paths->proc, "config.gz");
	char *plain = NULL;
	/* source: the file's name on the host (with the default directories),
	 * so that a fixture's model does not name the test's directory */
	if (boot && lx_read_file_optional(boot, 16u << 20, &plain, NULL, &err) == 0 && plain) {
		*source = lx_xasprintf("/boot/%s", name);
		lx_error_clear(&err);
		return plain;
	}
	lx_error_clear(&err);
	if (access(proc, R_OK) == 0 && lx_file_read_decompressed(proc, 16u << 20, &text, &err) == 0) {
		*source = lx_xstrdup("/proc/config.gz");
		lx_buf_puts(&text, "");
		return lx_buf_steal(&text);
	}
	lx_error_clear(&err);
	lx_buf_free(&text);
	return NULL;
}

/* The running kernel's config; neither file readable: unknown. */
static void scan_kernel_config(struct scanner *s)
{
	struct lx_kernel_config *kc = &s->host->kernel_config;
	kc->hmm_mirror = kc->device_private = LX_UNSURE;
	_cleanup_free_ char *text = lx_kernel_config_read(s->paths, s->host->kernel, &kc->source);
	if (text) {
		kc->hmm_mirror = lx_kernel_config_option(text, "CONFIG_HMM_MIRROR");
		kc->device_private = lx_kernel_config_option(text, "CONFIG_DEVICE_PRIVATE");
	}
}

/* nvidia_uvm's HMM switch, read only while nvidia_uvm is loaded. */
static void scan_uvm_params(struct scanner *s)
{
	s->host->driver.uvm_disable_hmm =
		lx_host_has_module(s->host, "nvidia_uvm")
			? read_bool_param(s->paths->sys, "module/nvidia_uvm/parameters/uvm_disable_hmm")
			: LX_UNSURE;
}

static int compare_bridges(const void *a, const void *b)
{
	return strcmp(((const struct lx_pci_bridge *)a)->bdf, ((const struct lx_pci_bridge *)b)->bdf);
}

static bool is_lxc_package(const char *package, void *ctx)
{
	(void)ctx;
	/* Debian's lxc, or Proxmox's lxc-pve that replaces it */
	return strcmp(package, "lxc") == 0 || strcmp(package, "lxc-pve") == 0 ||
	       strcmp(package, "pve-container") == 0;
}

/* The versions that decide how a container starts: LXC's (7.0 refuses
 * cgroup v1 keys) and Proxmox's pve-container (devN hotplug), from dpkg's
 * status file, without running either program. Unknown stays NULL. */
static void scan_platform(struct scanner *s)
{
	struct lx_dpkg_package *p = NULL;
	size_t n = 0;
	struct lx_error e = {0};
	if (!s->paths->packages ||
	    lx_dpkg_installed(s->paths->packages, is_lxc_package, NULL, &p, &n, &e) < 0) {
		lx_error_clear(&e);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char **slot = strcmp(p[i].name, "pve-container") == 0 ? &s->host->pve_container_version
									 : &s->host->lxc_version;
		free(*slot);
		*slot = lx_dpkg_upstream(p[i].version);
	}
	lx_dpkg_packages_free(p, n);
}

int lx_host_scan(const struct lx_scan_paths *paths, struct lx_host *host,
		 struct lx_evidence *evidence, struct lx_error *err)
{
	memset(host, 0, sizeof(*host));
	struct scanner s = {.paths = paths, .host = host, .evidence = evidence, .err = err};
	if (lx_dl_load(&udev_library, err) < 0)
		return -1;
	s.udev = libudev.udev_new();
	if (!s.udev)
		return lx_error_set(err, "libudev: cannot initialize");
	int rc = -1;
	if (scan_kernel(&s) < 0 || scan_majors_and_modules(&s) < 0 || scan_driver_version(&s) < 0 ||
	    for_each_udev_device(&s, "pci", NULL, NULL, visit_pci) < 0 || scan_proc_gpus(&s) < 0)
		goto out;
	if (host->n_gpus > 1)
		qsort(host->gpus, host->n_gpus, sizeof(*host->gpus), lx_gpu_compare);
	if (host->n_bridges > 1)
		qsort(host->bridges, host->n_bridges, sizeof(*host->bridges), compare_bridges);
	if (scan_drm(&s) < 0 || scan_nodes(&s) < 0 || scan_capabilities_dir(&s, "", 0) < 0 ||
	    scan_mig_minors(&s) < 0)
		goto out;
	if (host->n_caps > 1)
		qsort(host->caps, host->n_caps, sizeof(*host->caps), compare_caps);
	scan_mig_uuids(&s);
	scan_firmware_and_daemons(&s);
	scan_platform(&s);
	scan_uvm_params(&s);
	scan_kernel_config(&s);
	if (evidence)
		lx_evidence_add(evidence, "dev-listing.txt",
				s.dev_listing.data ? s.dev_listing.data : "", s.dev_listing.len);
	rc = 0;
out:
	lx_buf_free(&s.dev_listing);
	libudev.udev_unref(s.udev);
	if (rc < 0)
		lx_host_free(host);
	return rc;
}
