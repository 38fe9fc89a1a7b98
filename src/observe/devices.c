/* What the running container has, read from the host: the verdicts of its
 * device cgroup for each node (v1 devices.list, v2 the device programs run
 * by src/observe/devprog.c), and the driver libraries in its root, by name,
 * never following a path out of it. */
#include "lxgpu/observe.h"
#include "lxgpu/report.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* cgroup v1: does devices.list let open() of type major:minor ask for every
 * bit of access? The kernel wants one entry that covers all of them
 * (match_exception). A cgroup in default-allow mode lists only "a *:* rwm". */
static bool devices_list_allows(const char *list, char type, unsigned major, unsigned minor,
				unsigned access)
{
	const char *p = list;
	while (*p) {
		size_t len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, len);
		char t, maj[16], min[16], perms[8];
		if (sscanf(line, "%c %15[0-9*]:%15[0-9*] %7s", &t, maj, min, perms) == 4 &&
		    (t == 'a' || t == type) && (!(access & LX_ACC_READ) || strchr(perms, 'r')) &&
		    (!(access & LX_ACC_WRITE) || strchr(perms, 'w')) &&
		    (!(access & LX_ACC_MKNOD) || strchr(perms, 'm')) &&
		    (strcmp(maj, "*") == 0 || strtoul(maj, NULL, 10) == major) &&
		    (strcmp(min, "*") == 0 || strtoul(min, NULL, 10) == minor))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

static enum lx_devprog_verdict list_verdict(const char *list, const struct lx_running_node *n,
					    unsigned access)
{
	return devices_list_allows(list, n->type, n->major, n->minor, access) ? LX_DEVPROG_ALLOW
									       : LX_DEVPROG_DENY;
}

/* The init's cgroup relative to the cgroup2 mount ("/lxc/101/ns/init.scope"):
 * run->init_cgroup is the container's directory and a path below it. */
static char *init_cgroup_rel(const struct lx_running *run)
{
	size_t len = strlen(run->cgroup);
	if (!run->cgroup_rel || strncmp(run->init_cgroup, run->cgroup, len) != 0 ||
	    (run->init_cgroup[len] && run->init_cgroup[len] != '/'))
		return NULL;
	const char *below = run->init_cgroup + len;
	return strcmp(run->cgroup_rel, "/") == 0 && *below ? lx_xstrdup(below)
							   : lx_xasprintf("%s%s", run->cgroup_rel, below);
}

void lx_running_devices_read(const struct lx_runtime_paths *paths, const struct lx_running *run,
			     struct lx_running_devices *d)
{
	struct lx_error err = {0};
	if (run->layout == LX_CGROUP_V1 || run->layout == LX_CGROUP_HYBRID) {
		d->source = "devices.list";
		d->where = lx_path_join(run->init_cgroup, "devices.list");
		_cleanup_free_ char *list = NULL;
		if (lx_read_file(d->where, 1 << 20, &list, NULL, &err) < 0) {
			d->why = lx_xasprintf("could not check: %s", err.message);
			lx_error_clear(&err);
			return;
		}
		d->checked = true;
		for (size_t i = 0; i < d->n_nodes; i++) {
			struct lx_running_node *n = &d->nodes[i];
			n->read = list_verdict(list, n, LX_ACC_READ);
			n->write = list_verdict(list, n, LX_ACC_WRITE);
			n->read_write = list_verdict(list, n, LX_ACC_READ | LX_ACC_WRITE);
		}
		return;
	}
	d->source = "device programs";
	if (run->layout != LX_CGROUP_V2) {
		d->why = lx_xstrdup("could not check: the host's cgroup layout is not known");
		return;
	}
	d->where = init_cgroup_rel(run);
	if (!d->where) {
		d->why = lx_xasprintf("could not check: %s is not below the container's cgroup %s",
				      run->init_cgroup, run->cgroup);
		return;
	}
	struct lx_devprog_chain chain;
	if (lx_devprog_chain_read(paths->cgroup_root, d->where, &chain, &err) < 0) {
		d->why = lx_xstrdup(err.message);
		lx_error_clear(&err);
		return;
	}
	d->checked = true;
	d->programs = lx_xcalloc(chain.n_progs ? chain.n_progs : 1, sizeof(*d->programs));
	for (size_t i = 0; i < chain.n_progs; i++)
		d->programs[d->n_programs++] = chain.progs[i].id;
	for (size_t i = 0; i < d->n_nodes; i++) {
		struct lx_running_node *n = &d->nodes[i];
		struct lx_devprog_node v;
		lx_devprog_judge_node(&chain, n->path, n->type, n->major, n->minor, &v);
		n->read = v.read;
		n->write = v.write;
		n->read_write = v.read_write;
		n->denied_by = v.denied_by;
		for (size_t p = 0; n->denied_by && p < chain.n_progs; p++)
			if (chain.progs[p].id == n->denied_by && chain.progs[p].cgroup) {
				n->denied_on = lx_xstrdup(chain.progs[p].cgroup);
				break;
			}
		n->reason = v.reason;
		v.reason = NULL;
		lx_devprog_node_free(&v);
	}
	lx_devprog_chain_free(&chain);
}

void lx_running_devices_free(struct lx_running_devices *d)
{
	for (size_t i = 0; i < d->n_nodes; i++) {
		free(d->nodes[i].path);
		free(d->nodes[i].denied_on);
		free(d->nodes[i].reason);
	}
	free(d->nodes);
	free(d->programs);
	free(d->where);
	free(d->why);
	memset(d, 0, sizeof(*d));
}

bool lx_running_devices_complete(const struct lx_running_devices *d)
{
	if (!d->checked)
		return false;
	for (size_t i = 0; i < d->n_nodes; i++)
		if (d->nodes[i].read == LX_DEVPROG_UNKNOWN || d->nodes[i].write == LX_DEVPROG_UNKNOWN ||
		    d->nodes[i].read_write == LX_DEVPROG_UNKNOWN)
			return false;
	return true;
}

struct lx_doc *lx_running_devices_to_doc(const struct lx_running_devices *d)
{
	struct lx_doc *doc = lx_doc_new_map();
	lx_doc_map_set(doc, "source", d->source ? lx_doc_new_str(d->source) : lx_doc_new_null());
	lx_doc_map_set(doc, "checked", lx_doc_new_bool(d->checked));
	lx_doc_map_set(doc, "cgroup", d->where ? lx_doc_new_str(d->where) : lx_doc_new_null());
	if (d->why)
		lx_doc_map_set(doc, "reason", lx_doc_new_str(d->why));
	if (d->source && strcmp(d->source, "device programs") == 0) {
		struct lx_doc *progs = lx_doc_new_list();
		for (size_t i = 0; i < d->n_programs; i++)
			lx_doc_list_push(progs, lx_doc_new_int(d->programs[i]));
		lx_doc_map_set(doc, "programs", progs);
	}
	struct lx_doc *nodes = lx_doc_new_list();
	for (size_t i = 0; i < d->n_nodes; i++) {
		const struct lx_running_node *n = &d->nodes[i];
		struct lx_doc *m = lx_doc_new_map();
		lx_doc_map_set(m, "path", lx_doc_new_str(n->path));
		_cleanup_free_ char *type = lx_xasprintf("%c", n->type);
		lx_doc_map_set(m, "type", lx_doc_new_str(type));
		lx_doc_map_set(m, "major", lx_doc_new_int(n->major));
		lx_doc_map_set(m, "minor", lx_doc_new_int(n->minor));
		lx_doc_map_set(m, "needed", lx_doc_new_bool(n->needed));
		lx_doc_map_set(m, "read", lx_doc_new_str(lx_devprog_verdict_name(n->read)));
		lx_doc_map_set(m, "write", lx_doc_new_str(lx_devprog_verdict_name(n->write)));
		lx_doc_map_set(m, "read_write", lx_doc_new_str(lx_devprog_verdict_name(n->read_write)));
		if (n->denied_by)
			lx_doc_map_set(m, "denied_by", lx_doc_new_int(n->denied_by));
		if (n->denied_on)
			lx_doc_map_set(m, "denied_on", lx_doc_new_str(n->denied_on));
		if (n->reason)
			lx_doc_map_set(m, "reason", lx_doc_new_str(n->reason));
		lx_doc_list_push(nodes, m);
	}
	lx_doc_map_set(doc, "nodes", nodes);
	return doc;
}

/* ---- driver libraries in the root ---- */

static const char *const library_dirs[] = {
	"usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu", "usr/lib64", "lib64",
	"usr/lib",                  "lib",                  "usr/lib/aarch64-linux-gnu",
	"usr/local/nvidia/lib64",   "usr/local/nvidia/lib", "usr/local/cuda/compat",
};

/* "libcuda.so.550.127.05" -> "550.127.05"; NULL for libcuda.so.1. */
static const char *driver_library_version(const char *name)
{
	static const char *const stems[] = {"libcuda.so.", "libnvidia-ml.so."};
	for (size_t i = 0; i < 2; i++) {
		if (!lx_str_starts_with(name, stems[i]))
			continue;
		const char *v = name + strlen(stems[i]);
		if (!strchr(v, '.') || strspn(v, "0123456789.") != strlen(v))
			return NULL;
		return v;
	}
	return NULL;
}

void lx_rootfs_driver_versions(int root_fd, struct lx_strv *versions, struct lx_strv *files)
{
	for (size_t i = 0; i < sizeof(library_dirs) / sizeof(library_dirs[0]); i++) {
		int fd = lx_open_in_root(root_fd, library_dirs[i], O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			continue;
		DIR *dir = fdopendir(fd);
		if (!dir) {
			close(fd);
			continue;
		}
		struct dirent *de;
		/* Names are enough: the versions are in them; no link is followed. */
		while ((de = readdir(dir))) {
			const char *v = driver_library_version(de->d_name);
			if (!v)
				continue;
			if (!lx_strv_contains(versions, v))
				lx_strv_push(versions, v);
			lx_strv_push_owned(files, lx_xasprintf("/%s/%s", library_dirs[i], de->d_name));
		}
		closedir(dir);
	}
	lx_strv_sort(versions);
}
