/* Proxmox VMs: the PCI devices their configs pass through, and whether
 * they run here (include/lxgpu/vm.h). */
#include "lxgpu/vm.h"
#include "lxgpu/config.h"
#include "lxgpu/host.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static void add_device(struct lx_vm_devices *out, char *pci, const char *vmid, const char *file,
		       const struct lx_conf_line *l)
{
	out->items = lx_xrealloc(out->items, (out->n + 1) * sizeof(*out->items));
	out->items[out->n++] = (struct lx_vm_device){pci, lx_xstrdup(vmid), lx_xstrdup(file),
						     l->lineno, lx_xstrdup(l->key)};
}

/* The cluster's PCI mappings (<pve-dir>/mapping/pci.cfg, PVE 8): a line
 * "NAME" opens a mapping, its tab-indented "map id=...,node=N,path=IDS"
 * lines say which device it is on each node. */
struct mappings {
	const char *text; /* the file, or NULL */
	const char *node; /* this node's name */
};

/* The path= of mapping name's map line for this node, or NULL. */
static char *mapping_path(const struct mappings *m, const char *name)
{
	if (!m || !m->text || !m->node)
		return NULL;
	_cleanup_free_ char *copy = lx_xstrdup(m->text);
	bool in = false;
	char *save = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != ' ' && line[0] != '\t') {
			/* "NAME" (or "pci: NAME") */
			char *n = lx_str_strip(line);
			char *colon = strchr(n, ':');
			in = strcmp(colon ? lx_str_strip(colon + 1) : n, name) == 0;
			continue;
		}
		char *v = lx_str_strip(line);
		if (!in || !lx_str_starts_with(v, "map "))
			continue;
		char *node = NULL, *path = NULL, *save2 = NULL;
		for (char *kv = strtok_r(v + 4, ",", &save2); kv; kv = strtok_r(NULL, ",", &save2)) {
			kv = lx_str_strip(kv);
			if (lx_str_starts_with(kv, "node="))
				node = kv + 5;
			else if (lx_str_starts_with(kv, "path="))
				path = kv + 5;
		}
		if (node && path && strcmp(node, m->node) == 0)
			return lx_xstrdup(path);
	}
	return NULL;
}

/* One hostpciN value: "[host=]ID[;ID...][,opt=...]", or "mapping=NAME"
 * (a cluster mapping: this node's path of it); the host key may also come
 * after other options. */
static void read_hostpci(struct lx_vm_devices *out, const char *vmid, const char *file,
			 const struct lx_conf_line *l, const struct mappings *m)
{
	_cleanup_free_ char *copy = lx_xstrdup(l->value);
	char *save = NULL;
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		const char *ids = item;
		_cleanup_free_ char *mapped = NULL;
		if (lx_str_starts_with(item, "host="))
			ids = item + 5;
		else if (lx_str_starts_with(item, "mapping=") && (mapped = mapping_path(m, item + 8)))
			ids = mapped;
		else if (strchr(item, '='))
			continue; /* pcie=1, x-vga=1, a mapping without this node, ... */
		_cleanup_free_ char *list = lx_xstrdup(ids);
		char *save2 = NULL;
		for (char *one = strtok_r(list, ";", &save2); one; one = strtok_r(NULL, ";", &save2)) {
			/* qemu-server allows the domain to be left out: 0000 */
			_cleanup_free_ char *full = strchr(one, ':') == strrchr(one, ':')
							    ? lx_xasprintf("0000:%s", one)
							    : lx_xstrdup(one);
			bool whole = strchr(full, '.') == NULL;
			_cleanup_free_ char *with_fn = whole ? lx_xasprintf("%s.0", full) : NULL;
			char *normal = NULL;
			if (!lx_pci_address_normalize(whole ? with_fn : full, &normal))
				continue;
			if (whole) /* every function: keep "dddd:bb:dd" */
				normal[strlen(normal) - 2] = '\0';
			add_device(out, normal, vmid, file, l);
		}
	}
}

void lx_vm_devices_read(const char *qemu_dir, struct lx_vm_devices *out)
{
	lx_vm_devices_read_mapped(qemu_dir, NULL, NULL, out);
}

void lx_vm_devices_read_mapped(const char *qemu_dir, const char *mapping_file, const char *node,
			       struct lx_vm_devices *out)
{
	memset(out, 0, sizeof(*out));
	_cleanup_free_ char *map_text = NULL;
	_cleanup_free_ char *short_node = node ? lx_xstrndup(node, strcspn(node, ".")) : NULL;
	if (mapping_file) {
		struct lx_error err = {0};
		if (lx_read_file_optional(mapping_file, 1u << 20, &map_text, NULL, &err) < 0) {
			lx_strv_push(&out->unreadable, err.message);
			lx_error_clear(&err);
		}
	}
	struct mappings m = {map_text, short_node};
	DIR *d = opendir(qemu_dir);
	if (!d) {
		if (errno != ENOENT)
			lx_strv_push_owned(&out->unreadable,
					   lx_xasprintf("%s: %s", qemu_dir, strerror(errno)));
		return;
	}
	struct lx_strv names = {0};
	struct dirent *de;
	while ((de = readdir(d)))
		if (lx_str_ends_with(de->d_name, ".conf") && de->d_name[0] != '.')
			lx_strv_push(&names, de->d_name);
	closedir(d);
	lx_strv_sort(&names);
	for (size_t k = 0; k < names.n; k++) {
		_cleanup_free_ char *path = lx_path_join(qemu_dir, names.items[k]);
		_cleanup_free_ char *vmid = lx_xstrndup(names.items[k], strlen(names.items[k]) - 5);
		struct lx_conf conf;
		struct lx_error err = {0};
		if (lx_conf_load(path, &conf, &err) < 0) {
			lx_strv_push(&out->unreadable, err.message);
			lx_error_clear(&err);
			continue;
		}
		for (size_t i = 0; i < conf.n && conf.lines[i].section == -1; i++) {
			const struct lx_conf_line *l = &conf.lines[i];
			if (l->kind == LX_CONF_PVE_KEY && lx_str_starts_with(l->key, "hostpci"))
				read_hostpci(out, vmid, path, l, &m);
		}
		lx_conf_free(&conf);
	}
	lx_strv_free(&names);
}

void lx_vm_devices_free(struct lx_vm_devices *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->items[i].pci);
		free(v->items[i].vmid);
		free(v->items[i].file);
		free(v->items[i].key);
	}
	free(v->items);
	lx_strv_free(&v->unreadable);
	memset(v, 0, sizeof(*v));
}

bool lx_vm_device_matches(const struct lx_vm_device *d, const char *bdf)
{
	size_t n = strlen(d->pci);
	/* "0000:41:00" names every function "0000:41:00.N" */
	return strncmp(d->pci, bdf, n) == 0 && (bdf[n] == '\0' || (bdf[n] == '.' && !strchr(d->pci, '.')));
}

static enum lx_vm_state unknown(char **why, char *text)
{
	if (why)
		*why = text;
	else
		free(text);
	return LX_VM_UNKNOWN;
}

/* argv[0] as qemu-server's parse_cmdline accepts it: "...kvm" or
 * ".../qemu-system-ARCH". */
static bool is_qemu(const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	return lx_str_ends_with(argv0, "kvm") || lx_str_starts_with(base, "qemu-system-");
}

/* The same file: by identity, since the process names it as qemu-server
 * does (/var/run/qemu-server/N.pid) and lxgpu may read it as /run/... */
static bool same_file(const char *a, const struct stat *b)
{
	struct stat st;
	return stat(a, &st) == 0 && st.st_dev == b->st_dev && st.st_ino == b->st_ino;
}

enum lx_vm_state lx_vm_state(const char *run_dir, const char *proc_dir, const char *vmid,
			     char **why)
{
	if (why)
		*why = NULL;
	_cleanup_free_ char *pidfile = lx_xasprintf("%s/qemu-server/%s.pid", run_dir, vmid);
	_cleanup_free_ char *text = NULL;
	struct lx_error err = {0};
	if (lx_read_file_optional(pidfile, 4096, &text, NULL, &err) < 0) {
		enum lx_vm_state s = unknown(why, lx_xstrdup(err.message));
		lx_error_clear(&err);
		return s;
	}
	if (!text)
		return LX_VM_STOPPED;
	struct stat pid_st;
	if (stat(pidfile, &pid_st) < 0)
		return LX_VM_STOPPED; /* removed meanwhile: the VM stopped */
	unsigned long long pid;
	text[strcspn(text, "\n")] = '\0';
	if (!lx_parse_uint(text, 10, 4194304, &pid) || pid == 0)
		return LX_VM_STOPPED; /* qemu-server: not "^\d+$": not running */
	_cleanup_free_ char *cmdline_path = lx_xasprintf("%s/%llu/cmdline", proc_dir, pid);
	_cleanup_free_ char *cmdline = NULL;
	size_t len = 0;
	if (lx_read_file_optional(cmdline_path, 1u << 20, &cmdline, &len, &err) < 0) {
		/* It may have exited while being read (ESRCH). */
		_cleanup_free_ char *dir = lx_xasprintf("%s/%llu", proc_dir, pid);
		struct stat st;
		bool gone = stat(dir, &st) < 0 && errno == ENOENT;
		enum lx_vm_state s = gone ? LX_VM_STOPPED : unknown(why, lx_xstrdup(err.message));
		lx_error_clear(&err);
		return s;
	}
	if (!cmdline || len == 0 || !is_qemu(cmdline))
		return LX_VM_STOPPED; /* no such process, a zombie, or a pid reused */
	bool named = false;
	for (size_t at = 0; at < len && !named;) {
		const char *arg = cmdline + at;
		size_t n = strlen(arg);
		at += n + 1;
		if ((strcmp(arg, "-pidfile") == 0 || strcmp(arg, "--pidfile") == 0) && at < len) {
			const char *value = cmdline + at;
			named = strcmp(value, pidfile) == 0 || same_file(value, &pid_st);
		}
	}
	if (!named)
		return LX_VM_STOPPED;
	/* A zombie keeps no cmdline, but check its state as qemu-server does. */
	_cleanup_free_ char *stat_path = lx_xasprintf("%s/%llu/stat", proc_dir, pid);
	_cleanup_free_ char *stat_text = NULL;
	if (lx_read_file_optional(stat_path, 4096, &stat_text, NULL, &err) < 0) {
		lx_error_clear(&err);
		return LX_VM_STOPPED;
	}
	const char *close_paren = stat_text ? strrchr(stat_text, ')') : NULL;
	if (!close_paren || close_paren[1] != ' ' || close_paren[2] == 'Z')
		return LX_VM_STOPPED;
	return LX_VM_RUNNING;
}

void lx_vm_gpu_findings(const struct lx_vm_devices *vms, const char *id,
			const struct lx_strv *bdfs, struct lx_findings *out)
{
	for (size_t i = 0; i < bdfs->n; i++)
		for (size_t v = 0; v < vms->n; v++)
			if (lx_vm_device_matches(&vms->items[v], bdfs->items[i]))
				lx_findings_add(out, LXG013_GPU_IN_VM, id, NULL, 0, NULL,
						lx_xasprintf("GPU %s is also passed through to VM %s "
							     "(hostpci): whichever starts second fails "
							     "or takes it from the other",
							     bdfs->items[i], vms->items[v].vmid),
						lx_xstrdup("give the container another GPU, or remove the "
							   "hostpci entry from the VM"));
}
