/* walk: the containers of a host, each handed to a callback in pct list's
 * order, and preflight over all of them. */
#ifndef LXGPU_WALK_H
#define LXGPU_WALK_H

#include "lxgpu/host.h"
#include "lxgpu/predict.h"

#include <stdbool.h>

/* ---- the containers of a host ---- */

/* Container ids in dir, in pct list's order: by number (vmids), names that
 * are not numbers as text. pve: Proxmox's "<vmid>.conf" files (a vmid as
 * pmxcfs takes one: digits, no leading 0; other files there are not
 * containers); else plain LXC's "<name>/config" directories. */
void lx_container_ids(const char *dir, bool pve, struct lx_strv *ids);

/* One container config, valid only during the callback. */
struct lx_container_entry {
	const char *id;
	const char *path; /* its config */
	bool is_pve;
};
/* Each container of a host, in order: Proxmox's (<pve_lxc_dir>/<vmid>.conf),
 * then plain LXC's (<lxc_path>/<name>/config) but for those PVE generates
 * from a config in pve_lxc_dir. Either directory may be NULL. */
void lx_containers_each(const char *pve_lxc_dir, const char *lxc_path,
			void (*fn)(void *ctx, const struct lx_container_entry *c), void *ctx);


/* ---- preflight of a host's containers ---- */

/* One container, judged. Valid only during the callback. */
struct lx_preflight_container {
	const char *id;
	const char *path; /* its config */
	const struct lx_preflight *preflight; /* NULL when its config could not be read */
	struct lx_error *error; /* then why (the callback may clear it); else NULL */
};

struct lx_preflight_options {
	/* To find the container and its root; lxc_config_dir: LXC's includes. */
	const struct lx_runtime_paths *runtime;
	const char *state_dir; /* lxgpu's include files and records */
	const struct lx_node_plan *nodes; /* as for lx_verify_include */
	/* NULL: the next start on the host as it is now; else the first start
	 * after a reboot into it. */
	const struct lx_next_boot *next_boot;
	/* lx_preflight_walk: each container as it is done, in the walk's order. */
	void (*container)(void *ctx, const struct lx_preflight_container *c);
	void *ctx;
};

/* The preflight of one container (config at path): the lines against the
 * host (lx_preflight_next_start or _next_boot, with the versions of its
 * driver libraries when its root can be reached), then its include file
 * (lx_preflight_include). -1 when the config cannot be read. */
int lx_preflight_container(const struct lx_host *host, const char *id, const char *path,
			   bool is_pve, const struct lx_preflight_options *o,
			   struct lx_preflight *out, struct lx_error *err);
/* Every GPU container of the host (lx_containers_each over <pve_dir>/lxc
 * and lxc_path; one with neither GPU lines nor an lxgpu include file is
 * left out), handed to o->container one at a time. */
void lx_preflight_walk(const struct lx_host *host, const char *pve_dir, const char *lxc_path,
		       const struct lx_preflight_options *o);

#endif
