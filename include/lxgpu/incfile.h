/* incfile: the include style's file, one per container,
 * <state_dir>/lxc/<id>.conf. The container's config holds one line
 * (`lxc.include: PATH` on Proxmox, `lxc.include = PATH` for plain LXC)
 * and the device rules and bind mounts live in this file, which
 * `lxgpu ensure-nodes` rewrites at every boot from the container's GPU
 * record (lxgpu/record.h: GPUs by UUID and PCI address) and that boot's majors and
 * minors. LXC refuses a config whose include file is missing (the
 * container does not start), so verify and preflight check that it is
 * there, lxgpu's and current. */
#ifndef LXGPU_INCFILE_H
#define LXGPU_INCFILE_H

#include "lxgpu/config.h"
#include "lxgpu/host.h"
#include "lxgpu/plan.h"
#include "lxgpu/record.h"

/* The first line of every file lxgpu writes: what makes a file lxgpu's. */
#define LX_INCFILE_MARK "# lxgpu include file"

/* <state_dir>/lxc/<id>.conf */
char *lx_incfile_path(const char *state_dir, const char *id);
/* "<state_dir>/lxc/": where they are (lx_gpu_owned.include_dir). */
char *lx_incfile_dir(const char *state_dir);
/* The config line that includes path, in the config's form. */
char *lx_incfile_config_line(const char *path, bool is_pve);
/* A live `lxc.include` line of conf naming a file under <state_dir>/lxc/;
 * NULL when there is none. */
const struct lx_conf_line *lx_incfile_find_line(const struct lx_conf *conf, const char *state_dir);
/* Does the text start with lxgpu's mark? */
bool lx_incfile_text_is_ours(const char *text);

/* The file's text for a selection (opts: gpus, unprivileged, dri, caps,
 * cgroup; style, mode and owner are the include style's own). opts->gpus
 * NULL or "" gives a file that grants nothing (every recorded GPU gone).
 * Always the built-in template: ensure-nodes at boot rewrites it with that. */
int lx_incfile_render(const struct lx_host *host, const struct lx_plan_options *opts, char **text,
		      struct lx_error *err);

/* What a record asks for on this host: its GPUs by PCI address (a GPU
 * renumbered since gets its /dev/nvidiaN of today). A recorded GPU that is
 * not there, not bound to nvidia, or holds another card (UUID) is left out
 * and said in gone. */
struct lx_incfile_want {
	struct lx_plan_options opts;
	char *gpus;             /* "0000:18:00.0,0000:39:00.0"; NULL: none left */
	struct lx_strv gone;    /* one message per recorded GPU left out */
	struct lx_strv renumbered; /* "0000:18:00.0 is /dev/nvidia1 now (recorded /dev/nvidia0)" */
};
void lx_incfile_want_from_record(const struct lx_host *host, const struct lx_record *rec,
				 struct lx_incfile_want *out);
void lx_incfile_want_free(struct lx_incfile_want *w);

/* The file as it is on disk against what ensure-nodes would write now. */
enum lx_incfile_state {
	LX_INCFILE_CURRENT, /* lxgpu's and what ensure-nodes would write */
	LX_INCFILE_MISSING, /* no file: LXC refuses the config */
	LX_INCFILE_NOT_OURS, /* no mark: ensure-nodes leaves it alone */
	LX_INCFILE_STALE,   /* lxgpu's, but not this host's numbers and GPUs now */
	LX_INCFILE_NO_RECORD, /* lxgpu's, but no record (or not style include) to rewrite it from */
};

struct lx_incfile_check {
	enum lx_incfile_state state;
	char *path;
	char *have;   /* STALE: the first line of the file the new text lacks, or NULL */
	char *want;   /* STALE: the first line of the new text the file lacks, or NULL */
	char *text;   /* the new text (when a record says what it is), else NULL */
	bool record_found;
	struct lx_incfile_want want_from; /* the record's GPUs on this host */
};
/* Judge one container's include file. nodes: what ensure-nodes would do
 * to the nodes (lx_node_plan_make), so that a stale node counts as what
 * ensure-nodes makes of it; NULL: the host's nodes as they are. -1 on an
 * error reading the file or the record (the error names file and line). */
int lx_incfile_check(const struct lx_host *host, const struct lx_node_plan *nodes,
		     const char *state_dir, const char *id, const char *path,
		     struct lx_incfile_check *out, struct lx_error *err);
void lx_incfile_check_free(struct lx_incfile_check *c);

/* ensure-nodes: every container whose record has style include. */
enum lx_incfile_action {
	LX_INCFILE_KEEP,    /* already current */
	LX_INCFILE_CREATE,  /* missing: written */
	LX_INCFILE_REWRITE, /* stale: rewritten */
	LX_INCFILE_SKIP,    /* not lxgpu's (no mark), or error set: left alone */
};
struct lx_incfile_job {
	char *id;
	enum lx_incfile_action action;
	char *error; /* the record or file could not be read (file and line) */
	struct lx_incfile_check check;
};
struct lx_incfile_jobs {
	struct lx_incfile_job *items;
	size_t n;
};
/* One job per record of style include; a record that cannot be read is a
 * job with error set (the others still go ahead). -1: the records cannot
 * be listed. */
int lx_incfile_plan_all(const struct lx_host *host, const char *state_dir,
			struct lx_incfile_jobs *out, struct lx_error *err);
/* Write what the plan says, atomically, only files whose text changes. */
int lx_incfile_apply_all(const struct lx_incfile_jobs *jobs, struct lx_error *err);
void lx_incfile_jobs_free(struct lx_incfile_jobs *jobs);
/* Write one file atomically (making <state_dir>/lxc as needed). */
int lx_incfile_write(const char *path, const char *text, struct lx_error *err);
/* Put one include file as a transaction of apply or rollback wants it:
 * text written atomically, or (text NULL) the file removed (a missing one is
 * fine). */
int lx_incfile_put(const char *path, const char *text, struct lx_error *err);

#endif
