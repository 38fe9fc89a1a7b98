/* guard: the checks a Proxmox hookscript runs when a container starts
 * (lxgpu guard CTID PHASE, docs/guard.md).
 *
 * pre-start compares the container's record (include/lxgpu/record.h: its
 * GPUs by PCI address and UUID as apply gave them) with the host now, and
 * refuses the start when the container would get another GPU or a GPU
 * something else holds. It refuses only on a change it has seen: what it
 * cannot read is a warning (LXG035), never a refusal, and a container
 * without GPU lines or without a record is never checked. */
#ifndef LXGPU_GUARD_H
#define LXGPU_GUARD_H

#include "lxgpu/access.h"
#include "lxgpu/config.h"
#include "lxgpu/host.h"
#include "lxgpu/record.h"
#include "lxgpu/judge.h"

struct lx_guard_paths {
	const char *pve_dir;   /* <pve_dir>/qemu-server (VMs), <pve_dir>/lxc (containers) */
	const char *run_dir;   /* /run: qemu-server/<vmid>.pid */
	const char *proc_dir;  /* /proc */
	const char *state_dir; /* the records */
	const struct lx_runtime_paths *runtime; /* to find other running containers */
	const struct lx_access_options *access; /* NULL: defaults */
};

/* What pre-start found: error findings (LXG030-LXG034) refuse the start;
 * LXG035 warnings say what could not be checked. checked is false when
 * there was nothing to check (why says so: no GPU lines, no record). */
struct lx_guard_report {
	bool checked;
	char *why;
	/* "lxgpu apply ID --gpus ..." with the recorded GPUs where they are
	 * now: what every refusal's fix names; NULL when not needed. */
	char *apply_command;
};
void lx_guard_report_free(struct lx_guard_report *r);

/* Whether the live config has lines lxgpu owns as GPU lines, or the
 * include style's line naming lxgpu's file under <state_dir>/lxc/: the
 * guard checks nothing (and never blocks) otherwise. */
bool lx_guard_has_gpu_lines(const struct lx_host *host, const struct lx_conf *conf,
			    const char *state_dir);

/* The pre-start checks of container id (its config conf, read without
 * Proxmox's lock, which the start holds). Findings go to out. */
void lx_guard_pre_start(const struct lx_host *host, const char *id, const struct lx_conf *conf,
			bool is_pve, const struct lx_guard_paths *paths, struct lx_findings *out,
			struct lx_guard_report *report);

/* The post-start check of container id: verify the running container
 * (lx_verify_container of the config at path); one that runs but cannot be
 * inspected is LXG035 (report->state LX_RUN_UNINSPECTABLE). -1 when the
 * config cannot be read (err). */
int lx_guard_post_start(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			const struct lx_runtime_paths *runtime, struct lx_findings *out,
			struct lx_container_report *report, struct lx_error *err);

/* The record of a container as its config gives GPUs now (the GPUs its
 * effective access reaches, whether it reaches DRM and capability nodes),
 * for apply and rollback after they wrote it. style: the style apply
 * chose; NULL: the one the lines show. exclusive is false. *has_gpus
 * false: the config gives none (no record). */
int lx_record_from_config(const struct lx_host *host, const char *id, const struct lx_conf *conf,
			  bool is_pve, const struct lx_access_options *aopts, const char *style,
			  struct lx_record *out, bool *has_gpus, struct lx_error *err);

#endif
