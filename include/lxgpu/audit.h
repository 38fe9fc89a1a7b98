/* audit: verify every container of a host, or of a Proxmox cluster.
 *
 * The walk: Proxmox's containers (<pve-dir>/lxc/<vmid>.conf), then plain
 * LXC ones (<lxc-path>/<name>/config, those PVE generates left out), then
 * with cluster the other nodes' (<pve-dir>/nodes/<node>/lxc), each judged
 * by the host model its node published (lxgpu/cluster.h). Besides verify's
 * findings, a GPU also passed through to a VM of its node (hostpciN) is
 * LXG013, and with exclusive a GPU an earlier container of its node has is
 * LXG012.
 *
 * Containers are checked one at a time and handed to the caller as each is
 * done, so memory does not grow with their number: only container ids (to
 * sort them) and the first container of each GPU (for exclusive) are kept. */
#ifndef LXGPU_AUDIT_H
#define LXGPU_AUDIT_H

#include "lxgpu/host.h"
#include "lxgpu/judge.h"
#include "lxgpu/topodraw.h"
#include "lxgpu/walk.h"

#include <stdbool.h>
#include <stddef.h>

/* Each container has exactly one status, so the counts add up. */
enum lx_audit_status {
	LX_AUDIT_ERROR,   /* a finding at error level */
	LX_AUDIT_WARNING, /* else one at warning level */
	LX_AUDIT_UNKNOWN, /* GPU lines, but its node has no host model to judge them by */
	LX_AUDIT_OK,
	LX_AUDIT_NO_GPUS, /* no GPU lines and nothing wrong */
	LX_AUDIT_N_STATUS,
};
/* "error", "warning", "unknown", "ok", "no_gpus". */
const char *lx_audit_status_name(enum lx_audit_status s);

/* One container, checked. Valid only during the callback. */
struct lx_audit_container {
	const char *id;
	const char *path; /* its config */
	const char *node; /* its node's name */
	const char *name; /* its hostname (lx_conf_hostname); NULL when it has none */
	bool local;       /* on this node: state is what lxgpu saw (else stopped, unknown) */
	bool gpus_known;  /* its node has a host model: gpus are the GPUs it uses */
	bool has_gpus;    /* its config has GPU nodes */
	enum lx_run_state state;
	const struct lx_strv *gpus; /* bdfs */
	const struct lx_findings *findings;
	enum lx_audit_status status;
};

struct lx_audit_totals {
	size_t containers;
	size_t by_status[LX_AUDIT_N_STATUS];
	size_t by_severity[LX_SEVERITY_ERROR + 1]; /* findings */
};

struct lx_node_plan;

struct lx_audit_options {
	const char *pve_dir;  /* /etc/pve */
	const char *lxc_path; /* /var/lib/lxc */
	const struct lx_runtime_paths *runtime;
	const char *state_dir; /* lxgpu's include files and records (this node's) */
	/* What ensure-nodes would do to this node's nodes, to judge include
	 * files by (lx_verify_include); NULL: the nodes as they are. */
	const struct lx_node_plan *nodes;
	bool exclusive; /* a GPU in two containers of a node is LXG012 */
	bool cluster;   /* also the other nodes of <pve-dir>/nodes */
	const char *hosts_dir; /* other nodes' models as <hosts-dir>/<node>.yaml: they win */
	long long now;  /* to date the published models */
	/* Each container as it is done, in the order of the walk. */
	void (*container)(void *ctx, const struct lx_audit_container *c);
	/* A node's model that did not load (the node is audited without it). */
	void (*warn)(void *ctx, const char *message);
	void *ctx;
};

/* This node's name: the one <pve-dir>/lxc links to (nodes/<name>/lxc),
 * else the host model's hostname, else "localhost". */
char *lx_audit_local_node(const char *pve_dir, const struct lx_host *host);

/* Audit this node (host, named local_node) and, with o->cluster, the
 * others. totals: the counts of every container handed over. */
void lx_audit_run(const struct lx_host *host, const char *local_node,
		  const struct lx_audit_options *o, struct lx_audit_totals *totals);

/* Which container holds which GPU: each GPU the config of a container of
 * this node gives it, as lx_audit_run reads them (o->container, o->ctx and
 * o->cluster are not used), with its hostname and, as the audit saw it,
 * its state. */
void lx_audit_gpu_holders(const struct lx_host *host, const char *local_node,
			  const struct lx_audit_options *o, struct lx_gpu_holders *out);

#endif
