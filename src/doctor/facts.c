/* Facts only a live host shows: the kernel command line, the nvidia
 * module's parameters, Secure Boot, the persistence daemon. Files only:
 * no node is opened, nothing is run. */
#include "lxgpu/doctor.h"
#include "lxgpu/predict.h"
#include "lxgpu/report.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FACT_FILE_MAX (1u << 20)

/* The EFI global variable GUID (UEFI spec): SecureBoot-<guid> holds four
 * attribute bytes and one data byte, 1 when Secure Boot is enforced. */
#define SECURE_BOOT_VAR "SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"

static char *read_optional(const char *dir, const char *rel, size_t *len)
{
	_cleanup_free_ char *path = lx_path_join(dir, rel);
	char *text = NULL;
	struct lx_error err = {0};
	if (lx_read_file_optional(path, FACT_FILE_MAX, &text, len, &err) < 0)
		lx_error_clear(&err); /* unreadable is unknown, as absent */
	return text;
}

static void read_secure_boot(const char *sys, struct lx_host_facts *f)
{
	_cleanup_free_ char *efi = lx_path_join(sys, "firmware/efi");
	struct stat st;
	if (stat(efi, &st) != 0) {
		f->secure_boot = LX_SECURE_BOOT_OFF;
		f->secure_boot_source = lx_xasprintf("%s absent: a BIOS (non-EFI) boot", efi);
		return;
	}
	const char *rel = "firmware/efi/efivars/" SECURE_BOOT_VAR;
	size_t len = 0;
	_cleanup_free_ char *data = read_optional(sys, rel, &len);
	f->secure_boot_source = lx_path_join(sys, rel);
	if (!data || len < 5) {
		f->secure_boot = LX_SECURE_BOOT_UNKNOWN;
		return;
	}
	f->secure_boot = data[4] == 1 ? LX_SECURE_BOOT_ON : LX_SECURE_BOOT_OFF;
}

/* The pid file the daemon writes, and that pid alive as nvidia-persistenced
 * (comm is cut at 15 characters). */
static void read_persistenced(const struct lx_scan_paths *paths, struct lx_host_facts *f)
{
	f->persistenced_pid = -1;
	f->persistenced_pidfile =
		lx_path_join(paths->run, "nvidia-persistenced/nvidia-persistenced.pid");
	char *text = NULL;
	struct lx_error err = {0};
	if (lx_read_file_optional(f->persistenced_pidfile, 64, &text, NULL, &err) < 0)
		lx_error_clear(&err);
	if (!text)
		return;
	long long pid;
	bool valid = lx_parse_int(lx_str_strip(text), 1, 1 << 22, &pid);
	free(text);
	if (!valid)
		return;
	_cleanup_free_ char *rel = lx_xasprintf("%lld/comm", pid);
	_cleanup_free_ char *comm = read_optional(paths->proc, rel, NULL);
	if (comm && lx_str_starts_with(comm, "nvidia-persiste"))
		f->persistenced_pid = (int)pid;
}

/* "none [integrity] confidentiality": the mode in brackets
 * (security/lockdown/lockdown.c lockdown_read()). */
static void read_lockdown(const char *sys, struct lx_host_facts *f)
{
	_cleanup_free_ char *text = read_optional(sys, "kernel/security/lockdown", NULL);
	f->lockdown_source = lx_path_join(sys, "kernel/security/lockdown");
	const char *open = text ? strchr(text, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;
	if (close && close - open < 32)
		f->lockdown = lx_xstrndup(open + 1, (size_t)(close - open - 1));
}

/* The module modprobe loads for the running kernel and the kernel it was
 * built for: a DKMS build that failed for a new kernel leaves none, a copy
 * (weak-updates, a module tree copied over) one whose vermagic names
 * another kernel. */
static void read_module(const char *root, struct lx_host_facts *f)
{
	if (!f->kernel_release)
		return;
	struct lx_next_boot nb;
	struct lx_error err = {0};
	if (lx_next_boot_inspect(root, f->kernel_release, &nb, &err) < 0) {
		lx_error_clear(&err);
		return;
	}
	f->modules_checked = true;
	if (nb.module_path) {
		f->module_path = lx_xstrdup(nb.module_path);
		struct lx_strv fields = {0};
		if (lx_modinfo_read(nb.module_path, &fields, &err) == 0) {
			const char *magic = lx_modinfo_get(&fields, "vermagic");
			if (magic)
				f->module_vermagic = lx_xstrndup(magic, strcspn(magic, " "));
		} else {
			lx_error_clear(&err);
		}
		lx_strv_free(&fields);
	}
	lx_next_boot_free(&nb);
}

/* One walk over the PCI functions, each vendor file read once: AMD and
 * Intel display GPUs no driver is bound to (no driver link: what
 * nomodeset leaves), NVSwitch functions (vendor 0x10de, class 0x0680xx
 * "bridge, other", as nvidia-nvswitch binds them) and NVLink 5 switch management ports
 * (ConnectX, vendor 0x15b3, whose VPD holds "SW_MNG": what NVIDIA's
 * gpu-driver-container looks for in /sys/class/infiniband/x/device/vpd;
 * read here from the PCI function, which is there without mlx5_ib too). */
static void read_pci_functions(const char *sys, struct lx_host_facts *f)
{
	_cleanup_free_ char *dir = lx_path_join(sys, "bus/pci/devices");
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *vrel = lx_xasprintf("bus/pci/devices/%s/vendor", de->d_name);
		_cleanup_free_ char *vendor = read_optional(sys, vrel, NULL);
		const char *v = vendor ? lx_str_strip(vendor) : "";
		bool amd = lx_str_starts_with(v, "0x1002"), intel = lx_str_starts_with(v, "0x8086");
		bool nvidia = lx_str_starts_with(v, "0x10de");
		_cleanup_free_ char *crel = lx_xasprintf("bus/pci/devices/%s/class", de->d_name);
		_cleanup_free_ char *class = amd || intel || nvidia ? read_optional(sys, crel, NULL) : NULL;
		const char *cls = class ? lx_str_strip(class) : "";
		if ((amd || intel) && lx_str_starts_with(cls, "0x03")) {
			_cleanup_free_ char *drel = lx_xasprintf("bus/pci/devices/%s/driver", de->d_name);
			_cleanup_free_ char *driver = lx_path_join(sys, drel);
			struct stat st;
			if (lstat(driver, &st) != 0)
				lx_strv_push(amd ? &f->driverless_amd : &f->driverless_intel, de->d_name);
		} else if (nvidia) {
			if (lx_str_starts_with(cls, "0x0680"))
				lx_strv_push(&f->nvswitches, de->d_name);
		} else if (lx_str_starts_with(v, "0x15b3")) {
			_cleanup_free_ char *rel = lx_xasprintf("bus/pci/devices/%s/vpd", de->d_name);
			size_t len = 0;
			_cleanup_free_ char *vpd = read_optional(sys, rel, &len);
			if (vpd && memmem(vpd, len, "SW_MNG", 6))
				lx_strv_push(&f->nvlink5_ports, de->d_name);
		}
	}
	if (d)
		closedir(d);
	lx_strv_sort(&f->nvswitches);
	lx_strv_sort(&f->nvlink5_ports);
	lx_strv_sort(&f->driverless_amd);
	lx_strv_sort(&f->driverless_intel);
}

static bool module_dir(const char *sys, const char *name)
{
	_cleanup_free_ char *rel = lx_xasprintf("module/%s", name);
	_cleanup_free_ char *path = lx_path_join(sys, rel);
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first live process whose comm starts so (comm is cut at 15), or -1. */
static int find_process(const char *proc, const char *comm_prefix)
{
	int pid = -1;
	DIR *d = opendir(proc);
	struct dirent *de;
	while (d && pid < 0 && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		_cleanup_free_ char *rel = lx_xasprintf("%s/comm", de->d_name);
		_cleanup_free_ char *comm = read_optional(proc, rel, NULL);
		if (comm && lx_str_starts_with(comm, comm_prefix))
			pid = atoi(de->d_name);
	}
	if (d)
		closedir(d);
	return pid;
}

/* A live nv-fabricmanager: a process whose comm it is (cut at 15). */
static void read_fabricmanager_pid(const char *proc, struct lx_host_facts *f)
{
	f->fabricmanager_pid = find_process(proc, "nv-fabricmanage");
}

/* The Fabric Manager package dpkg has installed (nvidia-fabricmanager-550,
 * nvidia-fabricmanager, cuda-drivers-fabricmanager-550), not its -dev. */
static bool is_fabricmanager_package(const char *package, void *ctx)
{
	(void)ctx;
	return (lx_str_starts_with(package, "nvidia-fabricmanager") ||
		lx_str_starts_with(package, "cuda-drivers-fabricmanager")) &&
	       !strstr(package, "-dev");
}

/* Its version without epoch and Debian revision ("1:550.54.15-1ubuntu1":
 * 550.54.15); the last one dpkg lists when there are several. */
static void read_fabricmanager_package(const char *root, struct lx_host_facts *f)
{
	struct lx_dpkg_package *p = NULL;
	size_t n = 0;
	struct lx_error err = {0};
	if (lx_dpkg_installed(root, is_fabricmanager_package, NULL, &p, &n, &err) < 0)
		lx_error_clear(&err);
	if (n) {
		f->fabricmanager_package = lx_xstrdup(p[n - 1].name);
		f->fabricmanager_version = lx_dpkg_upstream(p[n - 1].version);
	}
	lx_dpkg_packages_free(p, n);
}

void lx_host_facts_read(const struct lx_scan_paths *paths, struct lx_host_facts *out)
{
	lx_host_facts_read_root(paths, "/", out);
}

void lx_host_facts_read_root(const struct lx_scan_paths *paths, const char *root,
			     struct lx_host_facts *out)
{
	memset(out, 0, sizeof(*out));
	out->live = true;
	out->cmdline = read_optional(paths->proc, "cmdline", NULL);
	if (out->cmdline)
		lx_str_strip(out->cmdline);
	out->params = read_optional(paths->proc, "driver/nvidia/params", NULL);
	read_secure_boot(paths->sys, out);
	read_persistenced(paths, out);
	read_lockdown(paths->sys, out);
	out->kernel_release = read_optional(paths->proc, "sys/kernel/osrelease", NULL);
	if (out->kernel_release)
		lx_str_strip(out->kernel_release);
	read_module(root, out);
	read_pci_functions(paths->sys, out);
	out->fabricmanager_pid = -1;
	out->nvlsm_pid = -1;
	if (out->nvswitches.n || out->nvlink5_ports.n) {
		read_fabricmanager_pid(paths->proc, out);
		read_fabricmanager_package(root, out);
	}
	if (out->nvlink5_ports.n) {
		out->mlx5_ib_loaded = module_dir(paths->sys, "mlx5_ib");
		out->ib_umad_loaded = module_dir(paths->sys, "ib_umad");
		out->nvlsm_pid = find_process(paths->proc, "nvlsm");
	}
}

void lx_host_facts_free(struct lx_host_facts *f)
{
	free(f->cmdline);
	free(f->params);
	free(f->secure_boot_source);
	free(f->persistenced_pidfile);
	free(f->lockdown);
	free(f->lockdown_source);
	free(f->kernel_release);
	free(f->module_path);
	free(f->module_vermagic);
	lx_strv_free(&f->nvswitches);
	lx_strv_free(&f->nvlink5_ports);
	lx_strv_free(&f->driverless_amd);
	lx_strv_free(&f->driverless_intel);
	free(f->fabricmanager_package);
	free(f->fabricmanager_version);
	memset(f, 0, sizeof(*f));
}

char *lx_cmdline_get(const char *cmdline, const char *key)
{
	if (!cmdline)
		return NULL;
	size_t klen = strlen(key);
	char *found = NULL;
	const char *p = cmdline;
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		/* A word, where double quotes may hold spaces (param="a b"). */
		const char *start = p;
		bool quoted = false;
		while (*p && (quoted || !isspace((unsigned char)*p))) {
			quoted ^= *p == '"';
			p++;
		}
		size_t n = (size_t)(p - start);
		if (n >= klen && strncmp(start, key, klen) == 0 && (n == klen || start[klen] == '=')) {
			free(found);
			const char *v = n == klen ? start + n : start + klen + 1;
			size_t vlen = (size_t)(start + n - v);
			if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"')
				v++, vlen -= 2;
			found = lx_xstrndup(v, vlen);
		}
		if (n == 2 && strncmp(start, "--", 2) == 0)
			break; /* the rest is init's */
	}
	return found;
}

/* The next "Key: value" line of params text; false at its end. */
static bool next_param(const char **p, char **key, char **value)
{
	while (**p) {
		const char *line = *p;
		size_t n = strcspn(line, "\n");
		*p += n + (line[n] == '\n');
		const char *colon = memchr(line, ':', n);
		if (!colon)
			continue;
		*key = lx_str_strip(lx_xstrndup(line, (size_t)(colon - line)));
		*value = lx_str_strip(lx_xstrndup(colon + 1, n - (size_t)(colon + 1 - line)));
		return true;
	}
	return false;
}

char *lx_nvidia_param_get(const char *params, const char *key)
{
	char *k, *v, *found = NULL;
	for (const char *p = params ? params : ""; !found && next_param(&p, &k, &v); free(k)) {
		if (strcmp(k, key) == 0)
			found = v;
		else
			free(v);
	}
	return found;
}

struct lx_doc *lx_nvidia_params_doc(const char *params)
{
	if (!params)
		return lx_doc_new_null();
	struct lx_doc *d = lx_doc_new_map();
	char *k, *v;
	for (const char *p = params; next_param(&p, &k, &v); free(k), free(v))
		lx_doc_map_set(d, k, lx_doc_new_str(v));
	return d;
}
