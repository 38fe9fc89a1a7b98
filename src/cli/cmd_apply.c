/* lxgpu apply: write the GPU lines into a container's config, safely. */
#include "cli.h"
#include "build-config.h"
#include "lxgpu/config.h"
#include "lxgpu/incfile.h"
#include "lxgpu/reconcile.h"
#include "lxgpu/judge.h"
#include "lxgpu/predict.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The rollback that undoes this apply, as it can be pasted (with this
 * run's --host, --pve-dir, --backup-dir, ... when not the defaults). */
static char *undo_command(const struct cli *cli, const char *id, const char *backup)
{
	_cleanup_free_ char *words = cli_command_words(cli, "rollback");
	return lx_xasprintf("%s rollback %s %s", words, id, backup);
}

static char *utc_now(void)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	char text[32];
	strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return lx_xstrdup(text);
}

struct backup_job {
	const struct cli *cli;
	struct lx_conf_txn *txn;
	const char *hostname;
	const char *text; /* what replaces the config: recorded for rollback */
	size_t len;
	const struct cli_change *change;
	char **name;
	bool include_written; /* the include file holds change->include_text now */
	bool held;            /* interrupts wait: the transaction's commit point was reached */
};

/* A backup's record of who wrote what, where and when (the strings are
 * borrowed). */
static struct lx_backup_meta backup_meta(const struct cli *cli, const struct lx_conf_txn *txn,
					 const char *hostname, char *time_text, const char *written,
					 size_t written_len)
{
	return (struct lx_backup_meta){
		.ctid = txn->id,
		.config_path = txn->path,
		.time = time_text,
		.lxgpu_version = (char *)LXGPU_VERSION,
		.hostname = (char *)hostname,
		.command = (char *)cli->command_line,
		.written = (char *)written,
		.written_len = written_len,
	};
}

/* Runs once the new config is in its temporary file, before the rename:
 * the backup, then the include file (a failure vetoes the rename). The
 * transaction's commit point: from here to its end (the record written,
 * or all undone) an interrupt waits; before it, one leaves nothing. */
static int store_backup(void *ctx, struct lx_error *err)
{
	struct backup_job *job = ctx;
	lx_interrupt_hold();
	job->held = true;
	const struct cli_change *ch = job->change;
	_cleanup_free_ char *time_text = utc_now();
	struct lx_backup_meta meta =
		backup_meta(job->cli, job->txn, job->hostname, time_text, job->text, job->len);
	meta.action = (char *)ch->action;
	meta.undoes = (char *)ch->undoes;
	meta.include_path = (char *)ch->include_path;
	meta.include_before = (char *)ch->include_old;
	meta.include_before_len = ch->include_old ? strlen(ch->include_old) : 0;
	meta.include_written = (char *)ch->include_text;
	meta.include_written_len = ch->include_text ? strlen(ch->include_text) : 0;
	const char *before = ch->before ? ch->before : job->txn->text;
	size_t before_len = ch->before ? ch->before_len : job->txn->len;
	if (lx_backup_write(job->cli->backup_dir, before, before_len, &meta, job->name, err) < 0)
		return -1;
	/* A new include file goes in before the config that names it; a
	 * removal waits for the config that no longer does. */
	if (!ch->include_path || !ch->include_text)
		return 0;
	if (lx_incfile_put(ch->include_path, ch->include_text, err) < 0)
		return -1;
	job->include_written = true;
	return 0;
}

/* The temporary files an interrupted write of the config left go when
 * its lock is taken; a failure is a warning. */
static void remove_stale_temps(const struct cli *cli, const struct lx_conf_txn *txn)
{
	struct lx_strv removed = {0};
	struct lx_error err = {0};
	if (lx_atomic_sweep(txn->path, &removed, &err) < 0) {
		cli_warn(cli, "%s", err.message);
		lx_error_clear(&err);
	}
	for (size_t i = 0; i < removed.n; i++)
		cli_verbose(cli, "removed %s", removed.items[i]);
	lx_strv_free(&removed);
}

/* A backup of a change that was not made (or that a later backup holds)
 * goes; *name is then NULL. */
static void remove_backup(const struct cli *cli, char **name)
{
	if (!*name)
		return;
	_cleanup_free_ char *path = lx_path_join(cli->backup_dir, *name);
	if (lx_remove_file(path) < 0 && errno != ENOENT)
		cli_warn(cli, "%s: cannot remove this backup of a change that was not made: %s", path,
			 strerror(errno));
	free(*name);
	*name = NULL;
}

/* The config was not replaced: what the transaction wrote before goes. */
static void undo_unmade(const struct cli *cli, const struct cli_change *change,
			const struct backup_job *job)
{
	struct lx_error err = {0};
	if (job->include_written && lx_incfile_put(change->include_path, change->include_old, &err) < 0) {
		cli_warn(cli, "%s", err.message);
		lx_error_clear(&err);
	}
	remove_backup(cli, job->name);
}

int cli_write_with_backup(const struct cli *cli, struct lx_conf_txn *txn,
			  const struct lx_host *host, const char *text, size_t len,
			  const struct cli_change *change, char **backup_name, struct lx_error *err)
{
	struct lx_strv removed = {0};
	struct lx_error clean_err = {0};
	struct backup_job job = {cli, txn, host->hostname, text, len, change, backup_name, false, false};
	int rc = lx_conf_txn_commit(txn, text, len, store_backup, &job, err);
	if (rc < 0)
		undo_unmade(cli, change, &job);
	if (rc == 0 && change->include_path && !change->include_text &&
	    lx_incfile_put(change->include_path, NULL, &clean_err) < 0) {
		cli_warn(cli, "%s", clean_err.message);
		lx_error_clear(&clean_err);
	}
	if (rc == 0 && cli_store_record(cli, host, txn->id, txn->path, txn->is_pve, text, len,
					change->style, change->exclusive, err) < 0)
		rc = 1;
	if (job.held)
		lx_interrupt_release(); /* an interrupt that came meanwhile is taken here */
	/* Backups beyond --keep go (a failure is a warning: the change is in). */
	if (rc >= 0 && lx_backup_prune(cli->backup_dir, txn->id, cli->keep_backups, *backup_name,
				       &removed, &clean_err) < 0) {
		cli_warn(cli, "%s", clean_err.message);
		lx_error_clear(&clean_err);
	}
	for (size_t i = 0; i < removed.n; i++)
		cli_verbose(cli, "removed %s", removed.items[i]);
	lx_strv_free(&removed);
	return rc;
}

/* Lock and read the config, and refuse what must not be changed. */
int cli_begin_change(const struct cli *cli, const char *id, bool read_only,
		     struct lx_conf_txn *txn, struct lx_conf *conf)
{
	struct lx_error err = {0};
	struct lx_conf_txn_options topts = {
		.pve_dir = cli->pve_dir,
		.lxc_path = cli->lxc_path,
		.lock_dir = cli->lock_dir,
		.lock_timeout_s = cli->lock_timeout_s,
		.no_lock = read_only,
	};
	if (lx_conf_txn_begin(&topts, id, txn, &err) < 0)
		return cli_fail(&err);
	if (!read_only)
		remove_stale_temps(cli, txn);
	lx_conf_parse(txn->path, txn->text, txn->len, conf);
	const char *lock;
	struct lx_refusal why = {0};
	if (!lx_apply_may_change(txn, conf, read_only, &lock, &why)) {
		lx_conf_free(conf);
		lx_conf_txn_end(txn);
		return cli_refused(&why);
	}
	if (lock)
		cli_note(cli, "CT %s is locked ('lock: %s'): apply would refuse", id, lock);
	cli_verbose(cli, "read %s%s", txn->path, read_only ? "" : " (holding Proxmox's lock)");
	return 0;
}

static enum lx_run_state container_state(const struct cli *cli, const char *id)
{
	return lx_container_state(&(struct lx_runtime_paths){cli->cgroup_root, "/proc", cli->lxc_path,
							     NULL, cli->pve_dir, cli->subid_root,
							     NULL, NULL, NULL},
				  LX_CGROUP_UNKNOWN, id);
}

/* A running container gets the lines at its next start; on a Proxmox VE 9
 * host (pve-container 6.0.4+) new devN entries could go in at once, with
 * --live, before apply writes them (written, pct set would keep them pending). */
static void say_running(const struct cli *cli, const char *id, bool is_pve, bool hotplug_new_devn)
{
	if (container_state(cli, id) == LX_RUN_STOPPED)
		return;
	if (is_pve)
		printf("CT %s is running: the new lines apply at its next start. 'pct reboot %s' "
		       "restarts it now (its processes are stopped and started again).%s\n",
		       id, id,
		       hotplug_new_devn ? " Its new devN entries could have gone in without a restart: "
					  "next time run apply with --live (pct set adds a devN only "
					  "while the config does not have it yet)."
					: "");
	else {
		_cleanup_free_ char *stop_cmd = lx_xasprintf("lxc-stop -n %s", id);
		_cleanup_free_ char *start_cmd = lx_xasprintf("lxc-start -n %s", id);
		_cleanup_free_ char *stop = cli_command_with_context(cli, stop_cmd);
		_cleanup_free_ char *start = cli_command_with_context(cli, start_cmd);
		printf("%s is running: the new lines apply at its next start ('%s' then '%s').\n", id,
		       stop, start);
	}
}

/* What apply would write, as the library decides it; the reconcile's notes
 * are warnings, a refusal is said here. */
static int build_new_config(const struct cli *cli, const struct lx_host *host,
			    const struct lx_conf_txn *txn, const struct lx_conf *conf,
			    struct lx_apply_result *out)
{
	memset(out, 0, sizeof(*out));
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (cli->lxc_config_dir)
		aopts.lxc_config_dir = cli->lxc_config_dir;
	/* --cgroup says which keys LXC honours here: the simulation too. */
	aopts.cgroup = cli->plan.cgroup;
	struct lx_error err = {0};
	struct lx_driver_libs_options driver_libs;
	if (cli_driver_libs_options(cli, false, &driver_libs, &err) < 0)
		return cli_fail(&err);
	struct lx_render_options ropts = {.templates_dir = cli->templates_dir,
					  .version = LXGPU_VERSION,
					  .driver_libs = &driver_libs};
	/* A GPU a VM of this node passes through is refused (LXG013). */
	struct lx_vm_devices vms = {0};
	if (txn->is_pve)
		cli_read_vms(cli, host, &vms);
	/* A DRM GPU's devN nodes get the container's own render/video gid. */
	struct lx_plan_options popts = cli->plan;
	_cleanup_free_ char *groups_why = NULL;
	cli_container_groups(cli, host, txn->id, conf, &popts, &groups_why);
	struct lx_apply_input in = {
		.host = host, .txn = txn, .conf = conf, .state_dir = cli->state_dir,
		.access_opts = &aopts, .plan_opts = &popts, .render_opts = &ropts,
		.given = cli_apply_given(cli), .vms = txn->is_pve ? &vms : NULL};
	struct lx_refusal why;
	int rc = lx_apply_prepare(&in, out, &why, &err);
	lx_vm_devices_free(&vms);
	cli_driver_libs_options_free(&driver_libs);
	for (size_t i = 0; i < out->reconciled.notes.n; i++)
		cli_warn(cli, "%s", out->reconciled.notes.items[i]);
	if (rc < 0)
		return cli_fail(&err);
	if (why.kind == LX_REFUSAL_WOULD_NOT_START) {
		const struct lx_access *after = &out->reconciled.after;
		for (size_t i = 0; i < after->n_failures; i++) {
			const struct lx_start_failure *f = &after->failures[i];
			if (f->line)
				fprintf(stderr, "lxgpu: %s:%d: %s\n", f->file, f->line, f->message);
			else
				fprintf(stderr, "lxgpu: %s: %s\n", f->file, f->message);
		}
	}
	return why.kind == LX_REFUSAL_NONE ? 0 : cli_refused(&why);
}

/* What a write of next changed, said after it: the include file, the
 * lines replaced, the backup and its undo. */
static void say_written(const struct cli *cli, const char *id, const struct lx_conf_txn *txn,
			const struct lx_apply_result *next, const char *backup)
{
	const struct lx_reconcile_result *res = &next->reconciled;
	if (next->include_changes)
		printf("CT %s: wrote %s (lxgpu ensure-nodes rewrites it at every boot).\n", id,
		       next->include_path);
	if (next->config_changes) {
		/* A rule kept but moved to the key LXC honours here is a change
		 * too: say it, or "0 replaced by 0". */
		_cleanup_free_ char *rekeyed =
			res->rekeyed ? lx_xasprintf("; %zu rule%s rewritten under this host's cgroup key",
						    res->rekeyed, res->rekeyed == 1 ? "" : "s")
				     : NULL;
		_cleanup_free_ char *restated =
			res->restated ? lx_xasprintf("; %zu devN entr%s given the --mode/--uid/--gid "
						     "asked for",
						     res->restated, res->restated == 1 ? "y" : "ies")
				      : NULL;
		printf("CT %s: %s: %zu GPU line%s replaced by %zu%s%s.\n", id, txn->path, res->removed,
		       res->removed == 1 ? "" : "s", res->added, rekeyed ? rekeyed : "",
		       restated ? restated : "");
	}
	_cleanup_free_ char *undo = undo_command(cli, id, backup);
	printf("Backup: %s/%s (undo: %s)\n", cli->backup_dir, backup, undo);
}

/* Write next's config (and include file) with a backup of before (NULL:
 * the text read under the lock). 0, or the exit status of a failure
 * (printed). */
static int write_result(const struct cli *cli, const struct lx_host *host, struct lx_conf_txn *txn,
			const struct lx_apply_result *next, const char *before, size_t before_len,
			bool say)
{
	const struct lx_reconcile_result *res = &next->reconciled;
	if (next->set_unprivileged >= 0)
		fprintf(stderr,
			"lxgpu: warning: CT %s: setting unprivileged: %d as asked "
			"(--allow-privilege-change); the rootfs ownership is not remapped\n",
			txn->id, next->set_unprivileged);
	struct lx_error err = {0};
	_cleanup_free_ char *backup = NULL;
	/* The include file is written in the config's transaction, backed up
	 * with it (also when only the file changes: the config is then written
	 * back as it is). */
	struct cli_change change = {.action = "apply", .style = lx_style_name(next->style),
				    .exclusive = cli->exclusive, .before = before,
				    .before_len = before_len};
	if (next->include_changes) {
		change.include_path = next->include_path;
		change.include_old = next->include_old;
		change.include_text = res->include_text;
	}
	int written = cli_write_with_backup(cli, txn, host, res->text, res->len, &change, &backup, &err);
	if (written < 0)
		return cli_fail(&err);
	if (say && cli->verbosity >= 0)
		say_written(cli, txn->id, txn, next, backup);
	return written > 0 ? cli_fail(&err) : 0; /* the record, after what was written */
}

/* --live: the refusal when Proxmox cannot take the change live; *pct: the
 * pct to run. */
static int live_check(const struct cli *cli, const struct lx_host *host,
		      const struct lx_conf_txn *txn, char **pct)
{
	*pct = lx_find_in_path(getenv("PATH"), "pct");
	struct lx_refusal why = {0};
	bool running = container_state(cli, txn->id) == LX_RUN_RUNNING;
	if (lx_live_may(txn->id, txn->is_pve, host, running, *pct != NULL, &why))
		return 0;
	free(*pct);
	*pct = NULL;
	return cli_refused(&why);
}

static void say_restart(const struct cli *cli, const char *id, const struct lx_strv *restart)
{
	if (!restart->n) {
		printf("CT %s: nothing waits for a restart.\n", id);
		return;
	}
	_cleanup_free_ char *what = lx_strv_join(restart, "; ");
	printf("CT %s: restart needed for: %s ('pct reboot %s' restarts it; Proxmox hotplugs only "
	       "new devN entries).\n",
	       id, what, id);
}

/* apply --live stopped after pct ran: its backup from before pct stays. */
static void kept_backup(const struct cli *cli, const char *id, const char *backup)
{
	_cleanup_free_ char *undo = undo_command(cli, id, backup);
	fprintf(stderr,
		"lxgpu: CT %s: the config from before pct is in %s/%s (undo what pct added: %s)\n",
		id, cli->backup_dir, backup, undo);
}

/* lx_hotplug_run's relock: cli_begin_change. */
static int relock(void *ctx, const char *id, struct lx_conf_txn *txn, struct lx_conf *conf)
{
	return cli_begin_change(ctx, id, false, txn, conf);
}

/* apply --live with new devN entries: pct set adds each to the running
 * container (src/access/hotplug.c: the backup first, the lock let go, the
 * config read again), then the rest is written under the lock, from the
 * config as Proxmox left it, with one backup of the config as it was
 * before, which takes the place of the first. A pct failure, or an entry
 * pct kept pending, stops there: what pct added is kept and backed up,
 * nothing else is written. */
static int apply_live(struct cli *cli, const struct lx_host *host, struct lx_conf_txn *txn,
		      struct lx_conf *conf, struct lx_apply_result *next, const char *pct,
		      const struct lx_live_split *split)
{
	_cleanup_free_ char *id = lx_xstrdup(txn->id), *time_text = utc_now();
	struct lx_backup_meta meta = backup_meta(cli, txn, host->hostname, time_text, NULL, 0);
	meta.action = "apply";
	struct lx_hotplug_input in = {pct, cli->backup_dir, &meta, split, relock, cli};
	enum lx_style style = next->style;
	lx_apply_result_free(next);
	struct lx_hotplug hp;
	struct lx_error err = {0};
	int rc = lx_hotplug_run(&in, txn, conf, &hp, &err);
	if (rc < 0)
		return cli_fail(&err);
	if (hp.failure)
		fprintf(stderr, "lxgpu: %s", hp.failure);
	if (rc != 0) {
		kept_backup(cli, id, hp.backup);
		lx_hotplug_free(&hp);
		return rc;
	}
	for (size_t i = 0; i < hp.added.n; i++)
		printf("CT %s: %s added to the running container (pct set).\n", id, hp.added.items[i]);
	/* apply's rest would give a pending entry's node a second one: stop. */
	for (size_t i = 0; i < hp.pending.n; i++)
		fprintf(stderr,
			"lxgpu: CT %s: pct set kept %s in [pve:pending] instead of adding it to the "
			"running container (pve-container 6.0.4 and later add a new devN); it "
			"applies at the next start: `pct reboot %s`\n",
			id, hp.pending.items[i], id);
	/* The first backup goes when a later one holds the change, or when
	 * nothing changed; else it stays for rollback. */
	bool first_needed;
	if (hp.failure || hp.pending.n) {
		rc = LX_EXIT_ERROR;
		first_needed = false;
		/* Nothing else is written; what pct added is backed up so that
		 * rollback takes it out again. */
		if (hp.changed) {
			fprintf(stderr, "lxgpu: CT %s: nothing else was written; what pct changed is in "
				"the backup below (rollback takes it out)\n", id);
			struct lx_apply_result kept = {.set_unprivileged = -1, .style = style};
			kept.reconciled.text = lx_xstrndup(txn->text, txn->len);
			kept.reconciled.len = txn->len;
			int w = write_result(cli, host, txn, &kept, hp.before, hp.before_len, true);
			lx_apply_result_free(&kept);
			if (w != 0) {
				rc = w;
				first_needed = true;
			}
		} else {
			fprintf(stderr, "lxgpu: nothing was written\n");
		}
	} else {
		rc = build_new_config(cli, host, txn, conf, next);
		if (rc == 0)
			rc = write_result(cli, host, txn, next, hp.before, hp.before_len, true);
		first_needed = rc != 0;
	}
	if (first_needed)
		kept_backup(cli, id, hp.backup);
	else
		remove_backup(cli, &hp.backup);
	if (rc == 0 && cli->verbosity >= 0) {
		struct lx_strv restart = {0};
		for (size_t i = 0; i < split->restart.n; i++)
			lx_strv_push(&restart, split->restart.items[i]);
		if (next->include_changes)
			lx_strv_push_owned(&restart, lx_xasprintf("%s rewritten", next->include_path));
		say_restart(cli, id, &restart);
		lx_strv_free(&restart);
	}
	lx_hotplug_free(&hp);
	return rc;
}

static int run_apply(struct cli *cli)
{
	if (cli->n_args != 1)
		return cli_usage_error("apply needs exactly one container id (see 'lxgpu apply --help')");
	const char *id = cli->args[0];
	if (cli->plan.style == LX_STYLE_CDI)
		return cli_usage_error("--style cdi writes a CDI spec, not container config lines; "
				       "use 'lxgpu generate --style cdi'");
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	struct lx_conf_txn txn;
	struct lx_conf conf;
	int rc = cli_begin_change(cli, id, cli->dry_run, &txn, &conf);
	if (rc != 0) {
		lx_host_free(&host);
		return rc;
	}
	struct lx_apply_result next;
	struct lx_live_split split = {0};
	_cleanup_free_ char *pct = NULL;
	rc = build_new_config(cli, &host, &txn, &conf, &next);
	if (rc == 0 && cli->live)
		rc = live_check(cli, &host, &txn, &pct);
	const struct lx_reconcile_result *res = &next.reconciled;
	bool same = !next.config_changes && !next.include_changes;
	/* Without --live too: what --live would have added at once. */
	if (rc == 0 && txn.is_pve && (cli->live || lx_host_pve_hotplugs_devn(&host)))
		lx_live_split(&conf, res->text, res->len, &split);
	if (rc != 0) {
		/* the error is printed */
	} else if (cli->dry_run) {
		/* --live: the diff is what apply writes itself, after pct. */
		const char *text = cli->live ? split.text : res->text;
		size_t len = cli->live ? split.len : res->len;
		_cleanup_free_ char *after = lx_xasprintf("%s (after lxgpu apply)", txn.path);
		_cleanup_free_ char *diff = lx_diff_unified(txn.path, txn.text, txn.len, after, text, len);
		fputs(diff, stdout);
		if (next.include_changes) {
			const char *old = next.include_old ? next.include_old : "";
			_cleanup_free_ char *inc_after =
				lx_xasprintf("%s (after lxgpu apply)", next.include_path);
			_cleanup_free_ char *inc_diff =
				lx_diff_unified(next.include_path, old, strlen(old), inc_after,
						res->include_text, strlen(res->include_text));
			fputs(inc_diff, stdout);
		}
		for (size_t i = 0; cli->live && i < split.keys.n; i++)
			printf("would run: pct set %s --%s %s\n", id, split.keys.items[i],
			       split.values.items[i]);
		if (!cli->live && split.keys.n && container_state(cli, id) == LX_RUN_RUNNING)
			cli_note(cli, "CT %s runs: with --live its new devN entries go in at once (pct "
				 "set), without a restart", id);
		if (same && cli->verbosity >= 0)
			fprintf(stderr, "lxgpu: %s: already up to date\n", txn.path);
		rc = same ? LX_EXIT_OK : LX_EXIT_FINDINGS;
	} else if (same) {
		if (cli->verbosity >= 0)
			printf("CT %s: %s already has these GPU lines; nothing written.\n", id, txn.path);
		/* The record still follows this apply (its --exclusive, the GPUs as
		 * they are now): it is how the guard's fix takes a changed GPU. */
		rc = cli_record_gpus(cli, &host, id, txn.path, txn.is_pve, res->text, res->len,
				     lx_style_name(next.style), cli->exclusive);
	} else if (cli->live && split.keys.n) {
		rc = apply_live(cli, &host, &txn, &conf, &next, pct, &split);
	} else {
		rc = write_result(cli, &host, &txn, &next, NULL, 0, true);
		if (rc == 0 && cli->verbosity >= 0) {
			if (cli->live)
				say_restart(cli, id, &split.restart);
			else
				say_running(cli, id, txn.is_pve, split.keys.n > 0);
		}
	}
	lx_live_split_free(&split);
	lx_apply_result_free(&next);
	lx_conf_free(&conf);
	lx_conf_txn_end(&txn);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_apply = {
	.name = "apply",
	.summary = "write the GPU lines into a container's config (diff, backup)",
	.usage =
		"Usage: lxgpu apply CTID [--dry-run] [--live] [generate options]\n"
		"                        [--backup-dir DIR]\n"
		"\n"
		"Replace the GPU lines of the container's live config with the plan's, and leave\n"
		"every other line as it was, byte for byte: other devN entries keep their\n"
		"numbers, other lxc.* lines their order, snapshots and [pve:pending] are\n"
		"untouched. GPU lines are devN entries and lxc.mount.entry lines for /dev/nvidia*\n"
		"and the NVIDIA GPUs' /dev/dri nodes, and device rules for NVIDIA majors (195,\n"
		"and those /proc/devices lists under NVIDIA names now) and those DRM nodes. A\n"
		"rule for a major no device has now is kept, with a warning (another device's, or\n"
		"nvidia-uvm's once it loads): rollback restores exactly these lines.\n"
		"\n"
		"Takes Proxmox's lock (/run/lock/lxc/pve-config-CTID.lock), refuses a config with\n"
		"'lock:', stores a backup (tar.gz: old config + metadata) before it writes, and\n"
		"replaces the file atomically (temp file, fsync, rename). Applying twice changes\n"
		"nothing the second time. A running container gets the change at its next start.\n"
		"Then the GPUs the config gives are recorded for the start guard, by PCI address\n"
		"and UUID, in <state-dir>/containers/CTID.yaml (also when nothing was written).\n"
		"\n"
		"  --dry-run                 print a unified diff and write nothing; exit 1 when\n"
		"                            something would change, 0 when nothing would\n"
		"  --live                    a running Proxmox container: each new devN entry (an\n"
		"                            index free in the config and in [pve:pending]) is\n"
		"                            added with `pct set CTID --devN ...`, which gives\n"
		"                            it to the container at once (pve-container 6.0.4+),\n"
		"                            not written by apply; the rest (changed or removed\n"
		"                            devN, lxc.* lines) is written and says \"restart\n"
		"                            needed\". Exit 2, nothing written, for a container\n"
		"                            that is stopped or not Proxmox's, or without pct;\n"
		"                            a pct failure shows its errors, exit 2, nothing\n"
		"                            else written (what pct added is in the backup)\n"
		"  --backup-dir DIR          where backups go (default /var/lib/lxgpu/backups)\n"
		"  --keep N                  backups kept per container (default 10; older ones\n"
		"                            are removed after a write)\n"
		"  --lock-timeout SEC        how long to wait for the lock (default 10)\n"
		"  --lock-dir DIR            where Proxmox's config locks are (/run/lock/lxc)\n"
		"  --force                   write a result that would not start, or that gives\n"
		"                            a GPU a VM also has (LXG013); --style include:\n"
		"                            replace a file there that is not lxgpu's\n"
		"  --allow-privilege-change  let --privileged/--unprivileged flip the container\n"
		"                            (the rootfs ownership is NOT remapped)\n"
		"  --exclusive               record that the container holds its GPUs alone: the\n"
		"                            start guard refuses to start it while another\n"
		"                            running container has one of them (docs/guard.md)\n"
		"  --gpus SEL, --style devn|raw|lxc|include, --privileged, --unprivileged,\n"
		"  --caps, --mig-config, --mig-monitor, --dri, --dev-start N, --mode MODE,\n"
		"  --uid N, --gid N,\n"
		"  --cgroup v1|v2, --templates DIR, --driver-libs\n"
		"                            generate's options (see 'lxgpu generate --help').\n"
		"                            --style include writes <state-dir>/lxc/CTID.conf\n"
		"                            (atomically, in the config's transaction: after\n"
		"                            the backup, which holds it too, and before the\n"
		"                            config) and adds the one lxc.include line\n",
	.options = CLI_OPT_PLAN | CLI_OPT_GPUS | CLI_OPT_PRIVILEGE | CLI_OPT_TEMPLATES | CLI_OPT_APPLY |
		   CLI_OPT_PRIVILEGE_CHANGE |
		   CLI_OPT_DRY_RUN | CLI_OPT_BACKUP_DIR | CLI_OPT_EXCLUSIVE | CLI_OPT_LIVE,
	.run = run_apply,
};
