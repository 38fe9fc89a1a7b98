/* The containers of a host, in the order pct list shows them: one listing
 * for audit and preflight (include/lxgpu/walk.h). */
#include "lxgpu/walk.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* By number when both are (pct list sorts vmids with <=>), else as text. */
static int compare_ids(const void *x, const void *y)
{
	const char *a = *(char *const *)x, *b = *(char *const *)y;
	unsigned long long na, nb;
	bool numeric = lx_parse_uint(a, 10, ULLONG_MAX, &na) && lx_parse_uint(b, 10, ULLONG_MAX, &nb);
	if (numeric)
		return na < nb ? -1 : na > nb;
	return strcmp(a, b);
}

/* "<vmid>.conf" as pmxcfs lists a guest (pve-cluster src/pmxcfs/memdb.c,
 * name_is_vm_config): digits not starting with 0, then ".conf"; vmids stop
 * at 999999999 (pve-vmid). Anything else in the directory is no container. */
static bool is_vmid_conf(const char *name, char **id)
{
	size_t digits = strspn(name, "0123456789");
	unsigned long long vmid;
	if (name[0] < '1' || name[0] > '9' || strcmp(name + digits, ".conf") != 0)
		return false;
	*id = lx_xstrndup(name, digits);
	if (lx_parse_uint(*id, 10, 999999999, &vmid))
		return true;
	free(*id);
	*id = NULL;
	return false;
}

void lx_container_ids(const char *dir, bool pve, struct lx_strv *ids)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (pve) {
			char *id;
			if (is_vmid_conf(de->d_name, &id))
				lx_strv_push_owned(ids, id);
		} else {
			_cleanup_free_ char *config = lx_xasprintf("%s/%s/config", dir, de->d_name);
			if (access(config, R_OK) == 0)
				lx_strv_push(ids, de->d_name);
		}
	}
	closedir(d);
	if (ids->n > 1)
		qsort(ids->items, ids->n, sizeof(*ids->items), compare_ids);
}

static void each_in(const char *dir, bool pve, const char *pve_lxc_dir,
		    void (*fn)(void *ctx, const struct lx_container_entry *c), void *ctx)
{
	struct lx_strv ids = {0};
	lx_container_ids(dir, pve, &ids);
	for (size_t i = 0; i < ids.n; i++) {
		_cleanup_free_ char *path = pve ? lx_xasprintf("%s/%s.conf", dir, ids.items[i])
						: lx_xasprintf("%s/%s/config", dir, ids.items[i]);
		if (!pve && pve_lxc_dir) {
			/* /var/lib/lxc/<vmid>/config of a PVE container is generated from
			 * its PVE config: that one is the container, not this. */
			_cleanup_free_ char *pve_conf = lx_xasprintf("%s/%s.conf", pve_lxc_dir, ids.items[i]);
			if (access(pve_conf, F_OK) == 0)
				continue;
		}
		fn(ctx, &(struct lx_container_entry){ids.items[i], path, pve});
	}
	lx_strv_free(&ids);
}

void lx_containers_each(const char *pve_lxc_dir, const char *lxc_path,
			void (*fn)(void *ctx, const struct lx_container_entry *c), void *ctx)
{
	if (pve_lxc_dir)
		each_in(pve_lxc_dir, true, NULL, fn, ctx);
	if (lxc_path)
		each_in(lxc_path, false, pve_lxc_dir, fn, ctx);
}
