/* The DRM GPU drivers' firmware and amdkfd as the host has them now: each
 * file the kernel log says a driver could not load, looked up as the
 * kernel's firmware loader would look it up; the vendor firmware
 * directories of the drivers bound; amdkfd's topology nodes. Files are only
 * stat()ed and /sys read: nothing is loaded or opened as a device. */
#include "lxgpu/host.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROPERTIES_MAX (64u << 10)
/* firmware_loader/main.c: fw_path_para[256] */
#define CLASS_PATH_MAX 256

bool lx_firmware_name_valid(const char *name)
{
	size_t len = name ? strlen(name) : 0;
	if (len == 0 || len > 255 || name[0] == '/')
		return false;
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f || *p == '\\')
			return false;
	/* every component: not empty, not "." nor ".." */
	for (const char *c = name; c;) {
		const char *slash = strchr(c, '/');
		size_t n = slash ? (size_t)(slash - c) : strlen(c);
		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c = slash ? slash + 1 : NULL;
	}
	return true;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The loader's directories in its order (fw_path[]): firmware_class.path
 * when set, then updates/<release>, updates, <release> and the root. */
static void search_dirs(const struct lx_scan_paths *paths, const char *release, struct lx_strv *dirs)
{
	_cleanup_free_ char *class_path = NULL;
	_cleanup_free_ char *param = lx_path_join(paths->sys, "module/firmware_class/parameters/path");
	struct lx_error err = {0};
	if (lx_read_file_optional(param, CLASS_PATH_MAX + 1, &class_path, NULL, &err) < 0)
		lx_error_clear(&err);
	if (class_path) {
		/* firmware_param_path_set() drops one trailing newline */
		size_t len = strlen(class_path);
		if (len && class_path[len - 1] == '\n')
			class_path[--len] = '\0';
		if (len && class_path[0] == '/')
			lx_strv_push(dirs, class_path);
	}
	/* the directory above the GSP firmware's: /lib/firmware */
	const char *nv = paths->firmware ? paths->firmware : "/lib/firmware/nvidia";
	const char *slash = strrchr(nv, '/');
	_cleanup_free_ char *root = slash && slash != nv ? lx_xstrndup(nv, (size_t)(slash - nv))
							  : lx_xstrdup("/lib/firmware");
	bool uts = release && lx_firmware_name_valid(release) && !strchr(release, '/');
	if (uts)
		lx_strv_push_owned(dirs, lx_xasprintf("%s/updates/%s", root, release));
	lx_strv_push_owned(dirs, lx_xasprintf("%s/updates", root));
	if (uts)
		lx_strv_push_owned(dirs, lx_xasprintf("%s/%s", root, release));
	lx_strv_push(dirs, root);
}

/* _request_firmware(): the plain name in every directory, then .zst in
 * every directory, then .xz; a compressed form only with its config. */
static void look_up(const struct lx_strv *dirs, enum lx_tristate zstd, enum lx_tristate xz,
		    struct lx_fw_request *r)
{
	static const char *const suffixes[] = {"", ".zst", ".xz"};
	for (size_t s = 0; s < 3 && !r->found; s++) {
		enum lx_tristate readable = s == 0 ? LX_YES : s == 1 ? zstd : xz;
		for (size_t d = 0; d < dirs->n && !r->found; d++) {
			char *path = lx_xasprintf("%s/%s%s", dirs->items[d], r->name, suffixes[s]);
			if (!is_file(path)) {
				free(path);
			} else if (readable == LX_NO) {
				if (!r->unreadable)
					r->unreadable = path;
				else
					free(path);
			} else {
				r->found = path;
			}
		}
	}
}

/* The firmware directories a driver's files live in: xe takes its older
 * platforms' GuC and HuC from i915/ (xe_uc_fw.c), its newer ones' from xe/. */
static bool vendor_dir_present(const struct lx_strv *dirs, const char *driver)
{
	for (size_t d = 0; d < dirs->n; d++) {
		_cleanup_free_ char *own = lx_path_join(dirs->items[d], driver);
		_cleanup_free_ char *i915 = lx_path_join(dirs->items[d], "i915");
		if (is_dir(own) || (strcmp(driver, "xe") == 0 && is_dir(i915)))
			return true;
	}
	return false;
}

/* "name value" lines of a kfd topology node's properties
 * (kfd_topology.c node_show: sysfs_show_32bit_prop, "%s %u\n"). */
static bool property(const char *text, const char *key, unsigned long long *value)
{
	size_t n = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, n) == 0 && p[n] == ' ') {
			char *end;
			*value = strtoull(p + n + 1, &end, 10);
			return end != p + n + 1;
		}
	return false;
}

/* The PCI addresses of the GPU nodes of amdkfd's topology: a node with
 * SIMDs, its domain (0 before kernels that print it) and location_id
 * (pci_dev_id: bus << 8 | devfn). */
static bool kfd_gpu_nodes(const char *sys, struct lx_strv *out)
{
	_cleanup_free_ char *nodes = lx_path_join(sys, "class/kfd/kfd/topology/nodes");
	DIR *dir = opendir(nodes);
	if (!dir)
		return false;
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		_cleanup_free_ char *rel = lx_xasprintf("%s/properties", de->d_name);
		_cleanup_free_ char *path = lx_path_join(nodes, rel);
		_cleanup_free_ char *text = NULL;
		struct lx_error err = {0};
		if (lx_read_file_optional(path, PROPERTIES_MAX, &text, NULL, &err) < 0)
			lx_error_clear(&err);
		unsigned long long simds = 0, location = 0, domain = 0;
		if (!text || !property(text, "simd_count", &simds) || simds == 0 ||
		    !property(text, "location_id", &location) || location > 0xffff)
			continue;
		if (!property(text, "domain", &domain) || domain > 0xffffffffULL)
			domain = 0;
		lx_strv_push_owned(out, lx_xasprintf("%04llx:%02llx:%02llx.%llx", domain, location >> 8,
						     (location >> 3) & 0x1f, location & 7));
	}
	closedir(dir);
	return true;
}

void lx_host_drm_check(const struct lx_scan_paths *paths, struct lx_host *host,
		       const struct lx_fw_request *requests, size_t n)
{
	struct lx_drm_checks *c = &host->drm_checks;
	lx_drm_checks_free(c);
	c->checked = true;
	struct lx_strv dirs = {0};
	search_dirs(paths, host->kernel, &dirs);
	_cleanup_free_ char *source = NULL;
	_cleanup_free_ char *config = lx_kernel_config_read(paths, host->kernel, &source);
	enum lx_tristate zstd = LX_UNSURE, xz = LX_UNSURE;
	if (config) {
		zstd = lx_kernel_config_option(config, "CONFIG_FW_LOADER_COMPRESS_ZSTD");
		xz = lx_kernel_config_option(config, "CONFIG_FW_LOADER_COMPRESS_XZ");
		/* 5.3 to 5.18: CONFIG_FW_LOADER_COMPRESS alone meant xz */
		if (xz == LX_NO && !strstr(config, "CONFIG_FW_LOADER_COMPRESS_XZ"))
			xz = lx_kernel_config_option(config, "CONFIG_FW_LOADER_COMPRESS");
	}
	c->requests = n ? lx_xcalloc(n, sizeof(*c->requests)) : NULL;
	for (size_t i = 0; i < n; i++) {
		const struct lx_fw_request *q = &requests[i];
		bool seen = false;
		for (size_t j = 0; j < c->n_requests && !seen; j++)
			seen = strcmp(c->requests[j].name, q->name) == 0;
		if (seen || !lx_drm_gpu_driver(q->driver) || !lx_firmware_name_valid(q->name))
			continue;
		struct lx_fw_request *r = &c->requests[c->n_requests++];
		r->name = lx_xstrdup(q->name);
		r->driver = lx_xstrdup(q->driver);
		r->gpu = q->gpu ? lx_xstrdup(q->gpu) : NULL;
		r->error = q->error;
		look_up(&dirs, zstd, xz, r);
	}
	bool amdgpu = false;
	for (size_t i = 0; i < host->n_gpus; i++) {
		const char *driver = host->gpus[i].driver;
		if (!lx_drm_gpu_driver(driver))
			continue;
		amdgpu |= strcmp(driver, "amdgpu") == 0;
		if (!lx_strv_contains(&c->missing_dirs, driver) && !vendor_dir_present(&dirs, driver))
			lx_strv_push(&c->missing_dirs, driver);
	}
	if (amdgpu) {
		struct lx_strv nodes = {0};
		c->kfd_topology = kfd_gpu_nodes(paths->sys, &nodes);
		for (size_t i = 0; i < host->n_gpus; i++) {
			const struct lx_gpu *g = &host->gpus[i];
			if (g->driver && strcmp(g->driver, "amdgpu") == 0 &&
			    !lx_strv_contains(&nodes, g->bdf))
				lx_strv_push(&c->kfd_missing, g->bdf);
		}
		lx_strv_free(&nodes);
	}
	lx_strv_free(&dirs);
}

void lx_fw_requests_free(struct lx_fw_request *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].name);
		free(r[i].driver);
		free(r[i].gpu);
		free(r[i].found);
		free(r[i].unreadable);
	}
	free(r);
}

void lx_drm_checks_free(struct lx_drm_checks *c)
{
	lx_fw_requests_free(c->requests, c->n_requests);
	lx_strv_free(&c->missing_dirs);
	lx_strv_free(&c->kfd_missing);
	memset(c, 0, sizeof(*c));
}
