/* reconcile: apply's minimal edit of a container config, judged by the
 * effective-access model (src/access/reconcile.c says the rules), and
 * apply's decisions around it (src/access/apply.c): what it takes from the
 * container where the command line says nothing, and what it refuses. */
#ifndef LXGPU_RECONCILE_H
#define LXGPU_RECONCILE_H

#include "lxgpu/access.h"
#include "lxgpu/plan.h"
#include "lxgpu/render.h"
#include "lxgpu/findings.h"
#include "lxgpu/vm.h"

struct lx_reconcile_input {
	const struct lx_host *host;
	const struct lx_conf *conf; /* the config as it is */
	bool is_pve;
	const struct lx_access_options *access_opts; /* NULL: defaults */
	const struct lx_plan_options *plan_opts;     /* GPUs, style, dri/caps, ... */
	const struct lx_render_options *render_opts;
	int set_unprivileged; /* as lx_conf_rewrite's */
	/* --style given: GPU lines of another form give way to the style's
	 * (a bind, a by-path devN, a /dev/dri directory bind become devN
	 * entries of the nodes' own names). Else each line keeps its form. */
	bool style_given;
	bool asked_dri;  /* --dri given: DRM nodes may be added */
	bool asked_caps; /* --caps given: capability nodes may be added */
	/* lxgpu's include file of this container (lx_incfile_path): --style
	 * include writes it and adds the one line; another style takes that
	 * line out. NULL: no include file is considered. */
	const char *include_path;
};

struct lx_reconcile_result {
	char *text; /* the new config */
	size_t len;
	size_t removed, added; /* lines */
	size_t rekeyed;        /* rules rewritten in place under the host's cgroup key */
	size_t restated;       /* devN entries rewritten in place with an explicit --mode/--uid/--gid */
	struct lx_access after; /* the new config's next start */
	struct lx_strv notes;   /* what the user should know (nodes the host lacks, ...) */
	char *include_text;     /* --style include: the include file's new text; else NULL */
};

int lx_reconcile(const struct lx_reconcile_input *in, struct lx_reconcile_result *out,
		 struct lx_error *err);
void lx_reconcile_result_free(struct lx_reconcile_result *r);

/* ---- apply's decisions ----
 * Each says what apply does, or why it does not go on: a refusal, with the
 * finding code that names the problem where there is one, a message (what
 * and where) and a fix. Nothing is printed: the caller says it and chooses
 * the exit status. */

enum lx_refusal_kind {
	LX_REFUSAL_NONE,           /* go on */
	LX_REFUSAL_INVALID_LINE,   /* a live line Proxmox cannot parse (it would drop it) */
	LX_REFUSAL_LOCKED,         /* Proxmox's 'lock:' key: a backup, migration, ... runs */
	LX_REFUSAL_PVE_STYLE,      /* a plain LXC config and --style devn or raw (Proxmox's lines) */
	LX_REFUSAL_NO_GPUS,        /* no --gpus, and the config gives no GPU to keep */
	LX_REFUSAL_LXC_IDMAP,      /* plain LXC: its privilege is its lxc.idmap, not lxgpu's to change */
	LX_REFUSAL_PRIVILEGE_FLIP, /* Proxmox: a flip without --allow-privilege-change */
	LX_REFUSAL_WOULD_NOT_START,  /* the result fails its next start (LXG023) */
	LX_REFUSAL_INCLUDE_NOT_OURS, /* a file lxgpu did not write is at the include path (LXG041) */
	LX_REFUSAL_GPU_IN_VM,        /* a GPU the result gives is a VM's hostpciN too (LXG013) */
	LX_REFUSAL_LOSES_NODES,      /* the result gives fewer GPU nodes, and --gpus does not ask so */
	LX_REFUSAL_NOT_LIVE,         /* apply --live where Proxmox cannot hotplug (lx_live_may) */
};

struct lx_refusal {
	enum lx_refusal_kind kind;
	enum lx_finding_code code; /* 0 where no finding code names it */
	char *message;
	char *fix;
};
void lx_refusal_free(struct lx_refusal *r);

/* What the command line said; the container's config fills in the rest. */
struct lx_apply_given {
	bool gpus;      /* --gpus */
	bool style;     /* --style */
	bool privilege; /* --privileged or --unprivileged */
	bool allow_privilege_change;
	/* write a result that would not start, or that gives a GPU a VM also
	 * has; replace a foreign include file */
	bool force;
};

/* Whether apply or rollback may change the config read under its lock
 * (conf: txn's text, parsed): not when a line of its live section does not
 * parse, nor (unless read_only, a dry run) while Proxmox holds the
 * container's 'lock:'. *lock: that key's value, NULL when there is none
 * (a dry run says what a change would meet). false: refused (why). */
bool lx_apply_may_change(const struct lx_conf_txn *txn, const struct lx_conf *conf, bool read_only,
			 const char **lock, struct lx_refusal *why);

/* generate's and apply's options from a container's config: a plain LXC
 * config takes "key = value" lines (devN and the PVE form refused), the
 * privilege is the container's unless given, and the devN indexes other
 * devices hold (live or pending) stay theirs. false: refused (why). */
bool lx_plan_options_for_container(const struct lx_host *host, const struct lx_conf *conf,
				   bool is_pve, const struct lx_apply_given *given,
				   struct lx_plan_options *opts, struct lx_refusal *why);

/* Privileged or unprivileged, as Proxmox keeps it: 'unprivileged' is
 * read-only there (pct set refuses it) because the rootfs ownership goes
 * with it, and only a restore (pct restore --unprivileged) shifts that; so
 * a flip needs allow_privilege_change. A plain LXC container's privilege is
 * its lxc.idmap, which lxgpu never changes. *set_unprivileged: -1 keep the
 * key as it is, else the value to write. false: refused (why). */
bool lx_apply_privilege(const struct lx_conf *conf, bool is_pve, const struct lx_apply_given *given,
			bool unprivileged, int *set_unprivileged, struct lx_refusal *why);

struct lx_apply_input {
	const struct lx_host *host;
	const struct lx_conf_txn *txn; /* the config as read under its lock */
	const struct lx_conf *conf;    /* txn's text, parsed */
	const char *state_dir;         /* lxgpu's include files */
	const struct lx_access_options *access_opts;
	const struct lx_plan_options *plan_opts; /* the command line's */
	const struct lx_render_options *render_opts;
	struct lx_apply_given given;
	/* The node's VMs' passed-through PCI devices (lx_vm_devices_read_mapped
	 * of <pve-dir>/qemu-server); NULL: not checked. */
	const struct lx_vm_devices *vms;
};

/* The config as apply would leave it. */
struct lx_apply_result {
	struct lx_reconcile_result reconciled; /* text, lines removed and added, notes, include text */
	int set_unprivileged; /* as lx_apply_privilege's */
	enum lx_style style;  /* the style the lines take (for the guard's record) */
	char *include_path;   /* lxgpu's include file of the container */
	char *include_old;    /* its text now; NULL when missing or not read */
	bool config_changes;  /* the new text is not the config's */
	bool include_changes; /* --style include: the file is to be written */
};
void lx_apply_result_free(struct lx_apply_result *r);

/* apply's whole decision: with no --gpus the GPUs the config gives now
 * (none: LX_REFUSAL_NO_GPUS), with no --style the style its GPU lines have
 * (lxgpu's include line, devN, raw), the DRM and capability nodes it
 * reaches kept; the privilege (lx_apply_privilege); then the reconcile,
 * whose result must start, may give no GPU a VM also passes through
 * (lx_vm_gpu_findings, as audit and verify report it) and may replace only
 * lxgpu's own include file, unless given.force. -1: an error (err). 0: out is what to write when
 * why->kind is LX_REFUSAL_NONE, else nothing is to be written. out holds
 * what was decided before a refusal or an error (the reconcile's notes,
 * the result's start failures); free it in every case. */
int lx_apply_prepare(const struct lx_apply_input *in, struct lx_apply_result *out,
		     struct lx_refusal *why, struct lx_error *err);

/* apply --live (src/access/live.c): what of apply's new config a running
 * Proxmox container whose pve-container hotplugs devN (6.0.4+) takes at
 * once. keys/values: the new devN entries, an index set neither in the live
 * section nor in [pve:pending] (`pct set CTID --KEY VALUE`, in this order);
 * text: the new config without them, what apply itself writes once pct has
 * added them; restart: each other change, one phrase each ("dev0 changed",
 * "dev1 removed", "lxc.mount.entry: ... added"), which waits for the next
 * start. after_pct: the config as read (now) with the new devN entries
 * where Proxmox's write_config puts them (its keys in sorted order): what
 * the config is once pct has added them all, recorded as "written" in the
 * backup made before the first pct call (rollback's check). */
struct lx_live_split {
	struct lx_strv keys, values;
	char *text;
	size_t len;
	struct lx_strv restart;
	char *after_pct;
	size_t after_pct_len;
};
void lx_live_split(const struct lx_conf *now, const char *new_text, size_t new_len,
		   struct lx_live_split *out);
void lx_live_split_free(struct lx_live_split *s);
/* Whether apply --live can run for container id: a Proxmox container
 * (is_pve), running, pct found, a pve-container that hotplugs devN (unknown
 * counts as yes: pct says). false: why (LX_REFUSAL_NOT_LIVE, its fix the
 * command to run instead). */
bool lx_live_may(const char *id, bool is_pve, const struct lx_host *host, bool running,
		 bool have_pct, struct lx_refusal *why);

/* apply --live's run (src/access/hotplug.c): split's new devN entries handed
 * to `pct set` (pct: its path) for the container of txn, which is locked and
 * read (conf: its text parsed). First the backup of the config as read, in
 * backup_dir (meta: its record; its "written" is split's after_pct); then
 * the lock is let go (pct takes it) and txn, conf are ended; `pct set ID
 * --KEY VALUE` runs per key, stopping at the first failure; then relock
 * (the caller's: lock, read, refuse what must not be changed; 0 or an exit
 * status, nothing held) fills txn and conf again. */
struct lx_hotplug_input {
	const char *pct;
	const char *backup_dir;
	const struct lx_backup_meta *meta;
	const struct lx_live_split *split;
	int (*relock)(void *ctx, const char *id, struct lx_conf_txn *txn, struct lx_conf *conf);
	void *ctx;
};
/* added: "KEY: VALUE" of each entry now in the live section as given (in
 * the running container); pending: each key pct set ran for that is not
 * (kept in [pve:pending]); failure: the pct call that failed, why, and its
 * stderr (NULL: none did); changed: the config is no longer before (the
 * text first read); backup: the backup's file name in backup_dir, which the
 * caller removes once a later backup holds the change, or keeps. */
struct lx_hotplug {
	struct lx_strv added, pending;
	char *failure;
	bool changed;
	char *before;
	size_t before_len;
	char *backup;
};
/* -1: the backup could not be made (err; nothing else done, txn and conf
 * as they were); else relock's status: 0, the config locked and read again. */
int lx_hotplug_run(const struct lx_hotplug_input *in, struct lx_conf_txn *txn,
		   struct lx_conf *conf, struct lx_hotplug *out, struct lx_error *err);
void lx_hotplug_free(struct lx_hotplug *h);

#endif
