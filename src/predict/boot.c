/* The next boot: which kernel, which nvidia module for it, and whether
 * anything creates /dev/nvidia-uvm before guests start. Read from files only. */
#include "lxgpu/predict.h"

#include <ctype.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SMALL_FILE (1u << 20)

int lx_kernel_version_compare(const char *a, const char *b)
{
	/* Natural order: digit runs compare as numbers. */
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long long na = strtoull(a, &ea, 10), nb = strtoull(b, &eb, 10);
			if (na != nb)
				return na < nb ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int compare_versions(const void *x, const void *y)
{
	return lx_kernel_version_compare(*(char *const *)x, *(char *const *)y);
}

static char *under(const char *root, const char *path)
{
	return lx_path_join(root, path);
}

/* A small text file under root, stripped; NULL when absent or empty. */
static char *read_text(const char *root, const char *path)
{
	_cleanup_free_ char *full = under(root, path);
	char *text = NULL;
	struct lx_error err = {0};
	if (lx_read_file_optional(full, SMALL_FILE, &text, NULL, &err) < 0 || !text) {
		lx_error_clear(&err);
		return NULL;
	}
	lx_str_strip(text);
	if (!*text) {
		free(text);
		return NULL;
	}
	return text;
}

/* Installed kernels: /lib/modules/<ver> with /boot/vmlinuz-<ver> when /boot has any. */
static void installed_kernels(const char *root, struct lx_strv *out)
{
	_cleanup_free_ char *modules = under(root, "lib/modules");
	_cleanup_free_ char *boot = under(root, "boot");
	DIR *d = opendir(modules);
	struct dirent *de;
	struct lx_strv all = {0};
	bool any_vmlinuz = false;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		lx_strv_push(&all, de->d_name);
		_cleanup_free_ char *vmlinuz = lx_xasprintf("%s/vmlinuz-%s", boot, de->d_name);
		any_vmlinuz |= access(vmlinuz, F_OK) == 0;
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < all.n; i++) {
		_cleanup_free_ char *vmlinuz = lx_xasprintf("%s/vmlinuz-%s", boot, all.items[i]);
		if (!any_vmlinuz || access(vmlinuz, F_OK) == 0)
			lx_strv_push(out, all.items[i]);
	}
	lx_strv_free(&all);
	if (out->n > 1)
		qsort(out->items, out->n, sizeof(*out->items), compare_versions);
}

/* The installed kernel named in a GRUB entry ("...with Linux 6.8.12-4-pve",
 * "gnulinux-6.8.12-4-pve-advanced-..."): the longest version it contains. */
static const char *kernel_in_entry(const struct lx_strv *kernels, const char *entry)
{
	const char *found = NULL;
	for (size_t i = 0; i < kernels->n; i++)
		if (strstr(entry, kernels->items[i]) && (!found || strlen(kernels->items[i]) > strlen(found)))
			found = kernels->items[i];
	return found;
}

/* "key=value" line of a grubenv or /etc/default/grub (quotes removed). */
static char *config_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, key, n) != 0 || p[n] != '=')
			continue;
		const char *v = p + n + 1;
		size_t len = strcspn(v, "\n");
		char *value = lx_str_strip(lx_xstrndup(v, len));
		size_t vl = strlen(value);
		if (vl >= 2 && (value[0] == '"' || value[0] == '\'') && value[vl - 1] == value[0]) {
			memmove(value, value + 1, vl - 2);
			value[vl - 2] = '\0';
		}
		return value;
	}
	return NULL;
}

static void choose_kernel(const char *root, const char *override, struct lx_next_boot *nb,
			  const struct lx_strv *kernels)
{
	if (override) {
		nb->kernel = lx_xstrdup(override);
		nb->kernel_source = lx_xstrdup("--kernel");
		return;
	}
	static const char *const pins[][2] = {
		{"etc/kernel/next-boot-pin", "proxmox-boot-tool pin --next-boot (/etc/kernel/next-boot-pin)"},
		{"etc/kernel/proxmox-boot-pin", "proxmox-boot-tool kernel pin (/etc/kernel/proxmox-boot-pin)"},
	};
	for (size_t i = 0; i < 2; i++) {
		char *pin = read_text(root, pins[i][0]);
		if (pin) {
			nb->kernel = pin;
			nb->kernel_source = lx_xstrdup(pins[i][1]);
			return;
		}
	}
	_cleanup_free_ char *grubenv = read_text(root, "boot/grub/grubenv");
	_cleanup_free_ char *grub_default_file = read_text(root, "etc/default/grub");
	_cleanup_free_ char *next_entry = grubenv ? config_value(grubenv, "next_entry") : NULL;
	_cleanup_free_ char *saved = grubenv ? config_value(grubenv, "saved_entry") : NULL;
	_cleanup_free_ char *grub_default =
		grub_default_file ? config_value(grub_default_file, "GRUB_DEFAULT") : NULL;
	const char *k;
	if (next_entry && (k = kernel_in_entry(kernels, next_entry))) {
		nb->kernel = lx_xstrdup(k);
		nb->kernel_source = lx_xstrdup("GRUB next_entry (/boot/grub/grubenv)");
		return;
	}
	if (grub_default && strcmp(grub_default, "saved") == 0 && saved &&
	    (k = kernel_in_entry(kernels, saved))) {
		nb->kernel = lx_xstrdup(k);
		nb->kernel_source = lx_xstrdup("GRUB saved_entry (GRUB_DEFAULT=saved)");
		return;
	}
	if (grub_default && (k = kernel_in_entry(kernels, grub_default))) {
		nb->kernel = lx_xstrdup(k);
		nb->kernel_source = lx_xstrdup("GRUB_DEFAULT (/etc/default/grub)");
		return;
	}
	if (kernels->n) {
		nb->kernel = lx_xstrdup(kernels->items[kernels->n - 1]);
		nb->kernel_source = lx_xstrdup("the newest installed kernel (GRUB's first entry)");
	}
}

static bool is_nvidia_module_name(const char *name)
{
	static const char *const names[] = {"nvidia.ko", "nvidia.ko.xz", "nvidia.ko.zst", "nvidia.ko.gz"};
	for (size_t i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static char *find_module(const char *dir, int depth)
{
	if (depth > 5)
		return NULL;
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	struct dirent *de;
	char *found = NULL;
	struct lx_strv subdirs = {0};
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *path = lx_path_join(dir, de->d_name);
		struct stat st;
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			lx_strv_push(&subdirs, path);
		else if (is_nvidia_module_name(de->d_name))
			found = lx_xstrdup(path);
	}
	closedir(d);
	lx_strv_sort(&subdirs);
	for (size_t i = 0; !found && i < subdirs.n; i++)
		found = find_module(subdirs.items[i], depth + 1);
	lx_strv_free(&subdirs);
	return found;
}

/* Where modprobe looks first: updates/ (DKMS), extra/, then the tree. */
static void find_nvidia_module(const char *root, struct lx_next_boot *nb, struct lx_error *err)
{
	static const char *const places[] = {"updates", "extra", "misc", "kernel/drivers/video",
					     "kernel/drivers/gpu"};
	_cleanup_free_ char *base = lx_xasprintf("lib/modules/%s", nb->kernel);
	_cleanup_free_ char *moddir = under(root, base);
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]) && !nb->module_path; i++) {
		_cleanup_free_ char *dir = lx_path_join(moddir, places[i]);
		nb->module_path = find_module(dir, 0);
	}
	if (!nb->module_path)
		return;
	struct lx_strv fields = {0};
	if (lx_modinfo_read(nb->module_path, &fields, err) == 0) {
		const char *version = lx_modinfo_get(&fields, "version");
		const char *license = lx_modinfo_get(&fields, "license");
		nb->module_version = version ? lx_xstrdup(version) : NULL;
		/* The open modules are "Dual MIT/GPL"; the proprietary one is "NVIDIA". */
		nb->module_flavor = !license ? LX_FLAVOR_UNKNOWN
				    : strstr(license, "GPL") ? LX_FLAVOR_OPEN
							     : LX_FLAVOR_PROPRIETARY;
	}
	lx_strv_free(&fields);
}

static bool dir_has_prefix(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;
	while (d && !found && (de = readdir(d)))
		found = lx_str_starts_with(de->d_name, prefix);
	if (d)
		closedir(d);
	return found;
}

/* Does this unit or rule create /dev/nvidia-uvm? */
static bool creates_uvm(const char *text)
{
	bool modprobe_u = strstr(text, "nvidia-modprobe") &&
			  (strstr(text, " -u") || strstr(text, "--unified-memory"));
	bool mknod_uvm = strstr(text, "mknod") && strstr(text, "nvidia-uvm");
	/* lxgpu's own unit (ensure-nodes --print-boot-unit) loads uvm and makes its nodes. */
	bool lxgpu_unit = strstr(text, "ensure-nodes") && strstr(text, "--load-modules");
	return modprobe_u || mknod_uvm || lxgpu_unit || strstr(text, "nvidia-smi");
}

static bool unit_enabled(const char *root, const char *unit)
{
	_cleanup_free_ char *etc = under(root, "etc/systemd/system");
	DIR *d = opendir(etc);
	struct dirent *de;
	bool enabled = false;
	while (d && !enabled && (de = readdir(d))) {
		if (!lx_str_ends_with(de->d_name, ".wants"))
			continue;
		_cleanup_free_ char *link = lx_xasprintf("%s/%s/%s", etc, de->d_name, unit);
		struct stat st;
		enabled = lstat(link, &st) == 0;
	}
	if (d)
		closedir(d);
	return enabled;
}

/* An enabled unit that runs lxgpu ensure-nodes: the include files of
 * --style include are rewritten at boot with that boot's numbers. */
static void find_ensure_nodes(const char *root, struct lx_next_boot *nb)
{
	static const char *const unit_dirs[] = {"etc/systemd/system", "lib/systemd/system",
						"usr/lib/systemd/system"};
	for (size_t i = 0; i < 3 && !nb->ensure_nodes_unit; i++) {
		_cleanup_free_ char *dir = under(root, unit_dirs[i]);
		DIR *d = opendir(dir);
		struct dirent *de;
		while (d && !nb->ensure_nodes_unit && (de = readdir(d))) {
			if (!lx_str_ends_with(de->d_name, ".service"))
				continue;
			_cleanup_free_ char *rel = lx_xasprintf("%s/%s", unit_dirs[i], de->d_name);
			_cleanup_free_ char *text = read_text(root, rel);
			if (text && strstr(text, "lxgpu ensure-nodes") && unit_enabled(root, de->d_name))
				nb->ensure_nodes_unit = lx_xstrdup(de->d_name);
		}
		if (d)
			closedir(d);
	}
}

static void find_uvm_creator(const char *root, struct lx_next_boot *nb)
{
	static const char *const unit_dirs[] = {"etc/systemd/system", "lib/systemd/system",
						"usr/lib/systemd/system"};
	static const char *const rule_dirs[] = {"etc/udev/rules.d", "lib/udev/rules.d",
						"usr/lib/udev/rules.d"};
	for (size_t i = 0; i < 3 && !nb->uvm_at_boot; i++) {
		_cleanup_free_ char *dir = under(root, unit_dirs[i]);
		DIR *d = opendir(dir);
		struct dirent *de;
		while (d && !nb->uvm_at_boot && (de = readdir(d))) {
			if (!lx_str_ends_with(de->d_name, ".service"))
				continue;
			_cleanup_free_ char *rel = lx_xasprintf("%s/%s", unit_dirs[i], de->d_name);
			_cleanup_free_ char *text = read_text(root, rel);
			bool persistenced = strcmp(de->d_name, "nvidia-persistenced.service") == 0;
			if (!text || !(persistenced || creates_uvm(text)) || !unit_enabled(root, de->d_name))
				continue;
			nb->uvm_at_boot = true;
			nb->uvm_source = lx_xasprintf("%s (enabled)%s", de->d_name,
						      strstr(text, "pve-guests.service")
							      ? ", ordered before pve-guests.service"
							      : "; not ordered before pve-guests.service: "
								"containers started at boot may race it");
		}
		if (d)
			closedir(d);
	}
	for (size_t i = 0; i < 3 && !nb->uvm_at_boot; i++) {
		_cleanup_free_ char *dir = under(root, rule_dirs[i]);
		DIR *d = opendir(dir);
		struct dirent *de;
		while (d && !nb->uvm_at_boot && (de = readdir(d))) {
			if (!lx_str_ends_with(de->d_name, ".rules"))
				continue;
			_cleanup_free_ char *rel = lx_xasprintf("%s/%s", rule_dirs[i], de->d_name);
			_cleanup_free_ char *text = read_text(root, rel);
			if (text && creates_uvm(text)) {
				nb->uvm_at_boot = true;
				nb->uvm_source = lx_xasprintf("udev rule /%s", rel);
			}
		}
		if (d)
			closedir(d);
	}
}

/* DKMS's names for the nvidia driver: NVIDIA's installer ("nvidia"), Debian's
 * packages ("nvidia-current", "nvidia-current-open", "nvidia-tesla-535"...),
 * NVIDIA's CUDA repository ("nvidia-open"); not nvidia-fs, nvidia-peermem's own. */
static bool is_nvidia_dkms_name(const char *name)
{
	return strcmp(name, "nvidia") == 0 || lx_str_starts_with(name, "nvidia-current") ||
	       lx_str_starts_with(name, "nvidia-open") || lx_str_starts_with(name, "nvidia-tesla");
}

/* /var/lib/dkms/NAME/VERSION/ is a registered module version (NAME/kernel-*
 * are links to built ones); the newest version of the first name wins. */
static void find_dkms_module(const char *root, struct lx_next_boot *nb)
{
	_cleanup_free_ char *tree = under(root, "var/lib/dkms");
	struct lx_strv names = {0};
	DIR *d = opendir(tree);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (is_nvidia_dkms_name(de->d_name))
			lx_strv_push(&names, de->d_name);
	if (d)
		closedir(d);
	lx_strv_sort(&names);
	for (size_t i = 0; i < names.n && !nb->dkms_module; i++) {
		_cleanup_free_ char *dir = lx_path_join(tree, names.items[i]);
		_cleanup_free_ char *best = NULL;
		DIR *v = opendir(dir);
		while (v && (de = readdir(v))) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			_cleanup_free_ char *path = lx_path_join(dir, de->d_name);
			struct stat st;
			if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
				continue;
			if (!best || lx_kernel_version_compare(de->d_name, best) > 0) {
				free(best);
				best = lx_xstrdup(de->d_name);
			}
		}
		if (v)
			closedir(v);
		if (best)
			nb->dkms_module = lx_xasprintf("%s/%s", names.items[i], best);
	}
	lx_strv_free(&names);
}

/* Debian's headers: /lib/modules/KVER/build, a link to /usr/src/linux-headers-KVER
 * (absolute, so looked up under root by its target's name). */
static bool headers_installed(const char *root, const char *kernel)
{
	_cleanup_free_ char *src = lx_xasprintf("usr/src/linux-headers-%s", kernel);
	_cleanup_free_ char *build = lx_xasprintf("lib/modules/%s/build", kernel);
	_cleanup_free_ char *src_dir = under(root, src), *build_dir = under(root, build);
	struct stat st;
	return (stat(src_dir, &st) == 0 && S_ISDIR(st.st_mode)) ||
	       (lstat(build_dir, &st) == 0 && S_ISDIR(st.st_mode));
}

char *lx_next_boot_module_fix(const struct lx_next_boot *nb, const char *running)
{
	const char *k = nb->kernel;
	/* Proxmox's boot tool keeps the kernel that works (pve-kernel-helper). */
	_cleanup_free_ char *other = running && strcmp(running, k) != 0
					     ? lx_xasprintf("or keep booting %s: `proxmox-boot-tool kernel pin %s`",
							    running, running)
					     : lx_xstrdup("or boot another kernel");
	if (!nb->dkms_module)
		return lx_xasprintf("build it before rebooting (proxmox-headers-%s, or the matching "
				    "linux-headers): `apt install proxmox-headers-%s`, then `dkms "
				    "autoinstall -k %s`; %s",
				    k, k, k, other);
	if (!nb->headers_installed)
		return lx_xasprintf("build it before rebooting: `apt install proxmox-headers-%s`, "
				    "then `dkms install %s -k %s`; %s",
				    k, nb->dkms_module, k, other);
	/* Headers there and no module: DKMS's build for this kernel failed. */
	return lx_xasprintf("DKMS did not build %s for %s (its log: /var/lib/dkms/%s/build/make.log): "
			    "`dkms install %s -k %s`; if it fails again, this driver does not "
			    "build for %s: install a driver release that supports it; %s",
			    nb->dkms_module, k, nb->dkms_module, nb->dkms_module, k, k, other);
}

int lx_next_boot_inspect(const char *root, const char *kernel, struct lx_next_boot *out,
			 struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	struct lx_strv kernels = {0};
	installed_kernels(root, &kernels);
	choose_kernel(root, kernel, out, &kernels);
	lx_strv_free(&kernels);
	if (!out->kernel) {
		_cleanup_free_ char *modules = under(root, "lib/modules");
		return lx_error_set(err, "no installed kernel in %s: cannot tell which kernel boots "
				    "next (--kernel VER names it)",
				    modules);
	}
	struct lx_error module_err = {0};
	find_nvidia_module(root, out, &module_err);
	if (module_err.message) {
		lx_error_set(err, "%s", module_err.message);
		lx_error_clear(&module_err);
		lx_next_boot_free(out);
		return -1;
	}
	if (out->module_version) {
		_cleanup_free_ char *fw = lx_xasprintf("lib/firmware/nvidia/%s", out->module_version);
		_cleanup_free_ char *fw_dir = under(root, fw);
		out->firmware_present = dir_has_prefix(fw_dir, "gsp");
	}
	if (!out->module_path) {
		find_dkms_module(root, out);
		out->headers_installed = headers_installed(root, out->kernel);
	}
	find_uvm_creator(root, out);
	find_ensure_nodes(root, out);
	return 0;
}

void lx_next_boot_free(struct lx_next_boot *nb)
{
	free(nb->kernel);
	free(nb->kernel_source);
	free(nb->module_path);
	free(nb->module_version);
	free(nb->uvm_source);
	free(nb->ensure_nodes_unit);
	free(nb->dkms_module);
	memset(nb, 0, sizeof(*nb));
}

const char *lx_boot_unit_text(void)
{
	/* One unit for both commands: ensure-nodes makes what nvidia-modprobe
	 * would, from lxgpu's own scan (src/host/nodes.c). */
	return lx_nodes_boot_unit_text();
}
