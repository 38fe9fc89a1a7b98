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
	struct lx_backup_meta meta = {
		.ctid = job->txn->id,
		.config_path = job->txn->path,
		.time = time_text,
		.lxgpu_version = (char *)LXGPU_VERSION,
		.hostname = (char *)job->hostname,
		.command = (char *)job->cli->command_line,
		.written = (char *)job->text,
		.written_len = job->len,
		.action = (char *)ch->action,
		.undoes = (char *)ch->undoes,
		.include_path = (char *)ch->include_path,
		.include_before = (char *)ch->include_old,
		.include_before_len = ch->include_old ? strlen(ch->include_old) : 0,
		.include_written = (char *)ch->include_text,
		.include_written_len = ch->include_text ? strlen(ch->include_text) : 0,
	};
	if (lx_backup_write(job->cli->backup_dir, job->txn->text, job->txn->len, &meta, job->name,
			    err) < 0)
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

/* The config was not replaced: what the transaction wrote before goes. */
static void undo_unmade(const struct cli *cli, const struct cli_change *change,
			const struct backup_job *job)
{
	struct lx_error err = {0};
	if (job->include_written && lx_incfile_put(change->include_path, change->include_old, &err) < 0) {
		cli_warn(cli, "%s", err.message);
		lx_error_clear(&err);
	}
	if (!*job->name)
		return;
	_cleanup_free_ char *path = lx_path_join(cli->backup_dir, *job->name);
	if (lx_remove_file(path) < 0)
		cli_warn(cli, "%s: cannot remove this backup of a change that was not made: %s", path,
			 strerror(errno));
	free(*job->name);
	*job->name = NULL;
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

static void say_running(const struct cli *cli, const char *id, bool is_pve)
{
	if (lx_container_state(&(struct lx_runtime_paths){cli->cgroup_root, "/proc", cli->lxc_path, NULL,
							    cli->pve_dir, cli->subid_root, NULL, NULL, NULL},
			       LX_CGROUP_UNKNOWN, id) == LX_RUN_STOPPED)
		return;
	if (is_pve)
		printf("CT %s is running: the new lines apply at its next start. 'pct reboot %s' "
		       "restarts it now (its processes are stopped and started again).\n",
		       id, id);
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
	rc = build_new_config(cli, &host, &txn, &conf, &next);
	const struct lx_reconcile_result *res = &next.reconciled;
	bool same = !next.config_changes && !next.include_changes;
	if (rc != 0) {
		/* the error is printed */
	} else if (cli->dry_run) {
		_cleanup_free_ char *after = lx_xasprintf("%s (after lxgpu apply)", txn.path);
		_cleanup_free_ char *diff =
			lx_diff_unified(txn.path, txn.text, txn.len, after, res->text, res->len);
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
	} else {
		if (next.set_unprivileged >= 0)
			fprintf(stderr,
				"lxgpu: warning: CT %s: setting unprivileged: %d as asked "
				"(--allow-privilege-change); the rootfs ownership is not remapped\n",
				id, next.set_unprivileged);
		struct lx_error err = {0};
		_cleanup_free_ char *backup = NULL;
		/* The include file is written in the config's transaction, backed
		 * up with it (also when only the file changes: the config is then
		 * written back as it is). */
		struct cli_change change = {.action = "apply", .style = lx_style_name(next.style),
					    .exclusive = cli->exclusive};
		if (next.include_changes) {
			change.include_path = next.include_path;
			change.include_old = next.include_old;
			change.include_text = res->include_text;
		}
		int written = cli_write_with_backup(cli, &txn, &host, res->text, res->len, &change,
						    &backup, &err);
		if (written < 0) {
			rc = cli_fail(&err);
		} else if (cli->verbosity >= 0) {
			if (next.include_changes)
				printf("CT %s: wrote %s (lxgpu ensure-nodes rewrites it at every boot).\n",
				       id, next.include_path);
			if (next.config_changes) {
				/* A rule kept but moved to the key LXC honours here
				 * is a change too: say it, or "0 replaced by 0". */
				_cleanup_free_ char *rekeyed =
					res->rekeyed ? lx_xasprintf("; %zu rule%s rewritten under this "
								    "host's cgroup key",
								    res->rekeyed, res->rekeyed == 1 ? "" : "s")
						     : NULL;
				_cleanup_free_ char *restated =
					res->restated ? lx_xasprintf("; %zu devN entr%s given the "
								     "--mode/--uid/--gid asked for",
								     res->restated,
								     res->restated == 1 ? "y" : "ies")
						      : NULL;
				printf("CT %s: %s: %zu GPU line%s replaced by %zu%s%s.\n", id, txn.path,
				       res->removed, res->removed == 1 ? "" : "s", res->added,
				       rekeyed ? rekeyed : "", restated ? restated : "");
			}
			_cleanup_free_ char *undo = undo_command(cli, id, backup);
			printf("Backup: %s/%s (undo: %s)\n", cli->backup_dir, backup, undo);
			say_running(cli, id, txn.is_pve);
		}
		if (written > 0)
			rc = cli_fail(&err); /* the record, after what was written */
	}
	lx_apply_result_free(&next);
	lx_conf_free(&conf);
	lx_conf_txn_end(&txn);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_apply = {
	.name = "apply",
	.summary = "write the GPU lines into a container's config (diff, lock, backup)",
	.usage =
		"Usage: lxgpu apply CTID [--dry-run] [generate options] [--backup-dir DIR]\n"
		"\n"
		"Replace the GPU lines of the container's live config with the plan's, and leave\n"
		"every other line as it was, byte for byte: other devN entries keep their numbers,\n"
		"other lxc.* lines their order, snapshots and [pve:pending] are untouched. GPU\n"
		"lines are devN entries and lxc.mount.entry lines for /dev/nvidia* and the NVIDIA\n"
		"GPUs' /dev/dri nodes, and device rules for NVIDIA majors (195, and those\n"
		"/proc/devices lists under NVIDIA names now) and those DRM nodes. A rule for a\n"
		"major no device has now is kept, with a warning (another device's, or\n"
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
		"                            start guard refuses to start it while another running\n"
		"                            container has one of them (docs/guard.md)\n"
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
		   CLI_OPT_DRY_RUN | CLI_OPT_BACKUP_DIR | CLI_OPT_EXCLUSIVE,
	.run = run_apply,
};
