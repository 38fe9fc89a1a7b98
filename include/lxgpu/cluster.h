/* cluster: host models shared through the Proxmox cluster file system.
 *
 * Each node publishes its host model (the snapshot YAML, stamped with the
 * node's name, boot and scan time) as <pve-dir>/nodes/<node>/lxgpu-host.yaml.
 * pmxcfs replicates it to every node, so audit --cluster and preflight --to
 * read another node's model without being handed it. What pmxcfs allows
 * (pve-cluster src/pmxcfs): files up to 1 MiB (MEMDB_MAX_FILE_SIZE, a
 * bigger write is EFBIG), rename inside the file system (what PVE itself
 * does: temp file, then rename), modes 0640 only (chmod to anything else
 * is EPERM), no fsync operation (the kernel's FUSE client then treats
 * fsync as done), node directories named by the LDH rule. */
#ifndef LXGPU_CLUSTER_H
#define LXGPU_CLUSTER_H

#include "lxgpu/host.h"

#define LX_CLUSTER_MODEL_NAME "lxgpu-host.yaml"
#define LX_PMXCFS_MAX_FILE (1024 * 1024)
/* A node's published boot time and the one the cluster reports may differ
 * by clock adjustments; a reboot moves it by more than this (seconds). */
#define LX_BOOT_TIME_SLACK 300

/* pmxcfs's rule for node directory names (memdb.c valid_nodename):
 * letters, digits, and '-' neither first nor last. */
bool lx_cluster_node_name_valid(const char *name);
/* This node's name as PVE uses it (PVE::INotify::nodename): uname's
 * nodename up to the first dot. */
char *lx_cluster_local_node(struct lx_error *err);
/* <pve_dir>/nodes/<node>/lxgpu-host.yaml */
char *lx_cluster_model_path(const char *pve_dir, const char *node);

/* Stamp the model as published by node from this boot: the boot time
 * (<proc_dir>/stat btime), the boot id (<proc_dir>/sys/kernel/random/
 * boot_id, optional) and now as the scan time. */
int lx_publication_stamp(struct lx_host *host, const char *proc_dir, const char *node,
			 long long now, struct lx_error *err);
/* Write the stamped model to <pve_dir>/nodes/<node>/lxgpu-host.yaml: a
 * temporary file in that directory, renamed into place (mode 0640, what
 * pmxcfs allows). The node directory must exist (pmxcfs makes it when the
 * node joins; a missing one is a wrong --pve-dir or --node); a model over
 * 1 MiB is refused before anything is written. *written: the path. */
int lx_cluster_publish(const char *pve_dir, const struct lx_host *host, char **written,
		       struct lx_error *err);

/* A node's current boot time as the cluster sees it: pvestatd broadcasts
 * "pve2-node/<node>:<uptime>:<sublevel>:<ctime>:..." (PVE 9:
 * "pve-node-9.0/<node>:...") every few seconds, and pmxcfs lists the
 * entries of the last five minutes in <pve_dir>/.rrd; the boot is ctime -
 * uptime. False when the node has no entry (offline, pvestatd stopped, a
 * directory that is not pmxcfs). */
bool lx_cluster_node_boot_time(const char *pve_dir, const char *node, long long *boot_time,
			       long long *status_time);
/* The same from the text of a .rrd file (tests; fuzzing). */
bool lx_rrd_node_boot_time(const char *text, size_t len, const char *node, long long *boot_time,
			   long long *status_time);

/* Is a published model from the node's current boot? */
enum lx_model_age {
	LX_MODEL_CURRENT, /* published during the boot the cluster reports */
	LX_MODEL_STALE,   /* published before the node's last boot */
	LX_MODEL_UNDATED, /* the node's boot time is not known here (or the model has no stamp) */
};

/* Another node's host model, as lxgpu found it. */
struct lx_node_model {
	char *node;
	char *source; /* the file read; NULL when there is none */
	bool have;
	bool from_hosts_dir; /* --hosts DIR (a snapshot handed over by hand: not dated) */
	struct lx_host host;
	enum lx_model_age age;
	long long node_boot_time; /* from .rrd; LX_UNKNOWN */
};

/* Load a node's model: <hosts_dir>/<node>.yaml or .tar.gz when hosts_dir
 * has one (it wins; such a model is not dated), else the one the node
 * published. No file: have is false and 0 is returned; a file that does not
 * load is -1 (err names it). */
int lx_node_model_load(const char *pve_dir, const char *hosts_dir, const char *node,
		       struct lx_node_model *out, struct lx_error *err);
void lx_node_model_free(struct lx_node_model *m);
/* "published 2026-12-01 10:00:00 UTC, booted 2026-12-01 09:58:10 UTC" and
 * what .rrd says about the node's boot, for messages. */
char *lx_node_model_describe(const struct lx_node_model *m, long long now);

#endif
