/* lxgpu apply: write the GPU lines into a container's config, safely. */
#include "cli.h"
#include "build-config.h"
#include "lxgpu/config.h"
#include "lxgpu/incfile.h"
#include "lxgpu/reconcile.h"
#include "lxgpu/verify.h"

#include <string.h>
#include <time.h>

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
	char **name;
};

static int store_backup(void *ctx, struct lx_error *err)
{
	struct backup_job *job = ctx;
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
	};
	return lx_backup_write(job->cli->backup_dir, job->txn->text, job->txn->len, &meta,
			       job->name, err);
}

static bool is_name(const char *final, void *name)
{
	return strcmp(final, name) == 0;
}

/* The temporary files an interrupted write of the config left (older than
 * a minute: no writer of this lock is still at it) go when its lock is
 * taken; a failure is a warning. */
static void remove_stale_temps(const struct cli *cli, const char *path)
{
	struct lx_strv removed = {0};
	struct lx_error err = {0};
	_cleanup_free_ char *dir = lx_xstrdup(path);
	char *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : path;
	if (slash)
		*slash = '\0';
	if (lx_atomic_clean_stale(slash ? (*dir ? dir : "/") : ".", is_name, (void *)base, 60,
				  &removed, &err) < 0) {
		cli_warn(cli, "%s", err.message);
		lx_error_clear(&err);
	}
	for (size_t i = 0; i < removed.n; i++)
		cli_verbose(cli, "removed %s", removed.items[i]);
	lx_strv_free(&removed);
}

/* Replace the config, storing a backup of the old one just before; then
 * backups beyond --keep go (a failure there is a warning: the change is in). */
int cli_write_with_backup(const struct cli *cli, struct lx_conf_txn *txn, const char *hostname,
			  const char *text, size_t len, char **backup_name, struct lx_error *err)
{
	struct lx_strv removed = {0};
	struct lx_error clean_err = {0};
	struct backup_job job = {cli, txn, hostname, text, len, backup_name};
	int rc = lx_conf_txn_commit(txn, text, len, store_backup, &job, err);
	if (rc == 0 && lx_backup_prune(cli->backup_dir, txn->id, cli->keep_backups, *backup_name,
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
		remove_stale_temps(cli, txn->path);
	lx_conf_parse(txn->path, txn->text, txn->len, conf);
	const struct lx_conf_line *bad = lx_conf_first_invalid(conf);
	if (bad) {
		_cleanup_free_ char *line = lx_text_escape(bad->text);
		fprintf(stderr,
			"lxgpu: %s:%d: this line does not parse as a Proxmox/LXC config line: '%.80s'; "
			"fix or remove it first (nothing was written)\n",
			txn->path, bad->lineno, line);
		lx_conf_free(conf);
		lx_conf_txn_end(txn);
		return LX_EXIT_ERROR;
	}
	const char *lock = txn->is_pve ? lx_conf_get(conf, "lock") : NULL;
	if (lock && !read_only) {
		fprintf(stderr,
			"lxgpu: CT %s is locked ('lock: %s' in %s): an operation (backup, migration, "
			"snapshot, ...) is running. Wait for it to finish, or clear a stale lock with "
			"'pct unlock %s'; nothing was written\n",
			id, lock, txn->path, id);
		lx_conf_free(conf);
		lx_conf_txn_end(txn);
		return LX_EXIT_ERROR;
	}
	if (lock)
		cli_note(cli, "CT %s is locked ('lock: %s'): apply would refuse", id, lock);
	cli_verbose(cli, "read %s%s", txn->path, read_only ? "" : " (holding Proxmox's lock)");
	return 0;
}

/* Decide privileged vs unprivileged: a flip needs --allow-privilege-change. */
static int privilege_change(const struct cli *cli, const struct lx_conf *conf, bool is_pve,
			    const struct lx_plan_options *opts, int *set_unprivileged)
{
	*set_unprivileged = -1;
	bool now = lx_conf_unprivileged(conf, is_pve);
	if (!cli->privilege_given || opts->unprivileged == now)
		return 0;
	const char *from = now ? "unprivileged" : "privileged";
	const char *to = now ? "privileged" : "unprivileged";
	if (!is_pve)
		return cli_usage_error("%s is %s (lxc.idmap): lxgpu does not change a plain LXC "
				       "container's id mapping; drop --%s",
				       conf->path, from, to);
	if (!cli->allow_privilege_change)
		return cli_usage_error(
			"CT %s is %s but --%s was given. lxgpu does not flip it: changing "
			"'unprivileged' does not remap the rootfs ownership (uid 0 <-> 100000), so the "
			"container would no longer work. Back it up and restore it with the other "
			"mode (vzdump, then pct restore --unprivileged %d), or pass "
			"--allow-privilege-change if its rootfs is already mapped",
			conf->path, from, to, now ? 0 : 1);
	*set_unprivileged = opts->unprivileged ? 1 : 0;
	return 0;
}

static void say_running(const struct cli *cli, const char *id, bool is_pve)
{
	if (lx_container_state(&(struct lx_runtime_paths){cli->cgroup_root, "/proc", cli->lxc_path, NULL},
			       LX_CGROUP_UNKNOWN, id) == LX_RUN_STOPPED)
		return;
	if (is_pve)
		printf("CT %s is running: the new lines apply at its next start. 'pct reboot %s' "
		       "restarts it now (its processes are stopped and started again).\n",
		       id, id);
	else
		printf("%s is running: the new lines apply at its next start ('lxc-stop -n %s' then "
		       "'lxc-start -n %s').\n",
		       id, id, id);
}

/* The config as apply would leave it. */
struct new_config {
	char *text;
	size_t len;
	size_t removed; /* GPU lines taken out */
	size_t added;   /* GPU lines put in */
	int set_unprivileged;
	char *include_path; /* lxgpu's include file of the container */
	char *include_text; /* --style include: its new text; NULL otherwise */
	char *include_old;  /* its text now; NULL when missing */
	enum lx_style style; /* the style the lines take (for the guard's record) */
};

static void new_config_free(struct new_config *c)
{
	free(c->text);
	free(c->include_path);
	free(c->include_text);
	free(c->include_old);
}

/* apply's defaults come from what the container has now: its GPUs, its
 * style, its DRM and caps access. A container without GPUs needs --gpus. */
static int defaults_from_container(const struct cli *cli, const struct lx_host *host,
				   const struct lx_conf *conf, bool is_pve,
				   const struct lx_access_options *aopts, struct lx_plan_options *opts,
				   char **gpus)
{
	struct lx_access now;
	struct lx_error err = {0};
	if (lx_access_compute(host, conf, is_pve, aopts, &now, &err) < 0)
		return cli_fail(&err);
	struct lx_current cur;
	lx_access_current(host, conf, &now, &cur);
	lx_access_free(&now);
	int rc = 0;
	if (!(cli->given & CLI_OPT_GPUS)) {
		if (!cur.gpus) {
			struct lx_buf list = {0};
			for (size_t i = 0; i < host->n_gpus; i++)
				lx_buf_printf(&list, "\n  %zu  %s  %s%s", i, host->gpus[i].bdf,
					      host->gpus[i].model ? host->gpus[i].model : "(model unknown)",
					      host->gpus[i].driver && strcmp(host->gpus[i].driver, "nvidia") == 0
						      ? ""
						      : " (not bound to nvidia)");
			rc = cli_usage_error("%s gives the container no GPU yet: say which with --gpus "
					     "(an index, a PCI address, GPU-<uuid>, numa:N, best:N or all). "
					     "This host's GPUs:%s",
					     conf->path, list.len ? list.data : " none");
			lx_buf_free(&list);
		} else {
			*gpus = lx_xstrdup(cur.gpus);
			opts->gpus = *gpus;
		}
	}
	if (!cli->style_given && lx_incfile_find_line(conf, cli->state_dir))
		opts->style = LX_STYLE_INCLUDE; /* its GPU lines live in lxgpu's include file */
	else if (!cli->style_given && (cur.devn || cur.raw))
		opts->style = cur.devn ? LX_STYLE_DEVN : is_pve ? LX_STYLE_RAW : LX_STYLE_LXC;
	opts->dri |= cur.dri;
	opts->caps |= cur.caps;
	lx_current_free(&cur);
	return rc;
}

static int build_new_config(const struct cli *cli, const struct lx_host *host,
			    const struct lx_conf_txn *txn, const struct lx_conf *conf,
			    struct new_config *out)
{
	memset(out, 0, sizeof(*out));
	struct lx_plan_options opts = cli->plan;
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (cli->lxc_config_dir)
		aopts.lxc_config_dir = cli->lxc_config_dir;
	/* --cgroup says which keys LXC honours here: the simulation too. */
	aopts.cgroup = cli->plan.cgroup;
	_cleanup_free_ char *gpus = NULL;
	int rc = cli_options_for_container(cli, host, conf, txn->is_pve, &opts);
	if (rc == 0)
		rc = defaults_from_container(cli, host, conf, txn->is_pve, &aopts, &opts, &gpus);
	if (rc == 0)
		rc = privilege_change(cli, conf, txn->is_pve, &opts, &out->set_unprivileged);
	if (rc != 0)
		return rc;
	struct lx_error err = {0};
	struct lx_render_options ropts = {.templates_dir = cli->templates_dir,
					  .version = LXGPU_VERSION};
	out->include_path = lx_incfile_path(cli->state_dir, txn->id);
	struct lx_reconcile_input in = {
		.host = host, .conf = conf, .is_pve = txn->is_pve, .access_opts = &aopts,
		.plan_opts = &opts, .render_opts = &ropts, .set_unprivileged = out->set_unprivileged,
		.asked_dri = cli->plan.dri, .asked_caps = cli->plan.caps,
		.include_path = out->include_path};
	struct lx_driver_libs_options driver_libs;
	if (cli_driver_libs_options(cli, false, &driver_libs, &err) < 0)
		return cli_fail(&err);
	ropts.driver_libs = &driver_libs;
	struct lx_reconcile_result res;
	int reconciled = lx_reconcile(&in, &res, &err);
	cli_driver_libs_options_free(&driver_libs);
	if (reconciled < 0)
		return cli_fail(&err);
	for (size_t i = 0; i < res.notes.n; i++)
		cli_warn(cli, "%s", res.notes.items[i]);
	/* The result must start: PVE and LXC refuse what the model refuses. */
	if (res.after.n_failures && !cli->force) {
		for (size_t i = 0; i < res.after.n_failures; i++) {
			const struct lx_start_failure *f = &res.after.failures[i];
			if (f->line)
				fprintf(stderr, "lxgpu: %s:%d: %s\n", f->file, f->line, f->message);
			else
				fprintf(stderr, "lxgpu: %s: %s\n", f->file, f->message);
		}
		fprintf(stderr, "lxgpu: CT %s would not start with this config; nothing was written "
				"(fix the host or the line, or pass --force)\n", txn->id);
		lx_reconcile_result_free(&res);
		return LX_EXIT_ERROR;
	}
	if (res.include_text) {
		/* A file there that lxgpu did not write is the user's: not replaced. */
		if (lx_read_file_optional(out->include_path, 1u << 20, &out->include_old, NULL, &err) < 0) {
			lx_reconcile_result_free(&res);
			return cli_fail(&err);
		}
		if (out->include_old && !lx_incfile_text_is_ours(out->include_old) && !cli->force) {
			fprintf(stderr,
				"lxgpu: %s exists and is not lxgpu's include file (its first line is not "
				"'%s'): move it away, or pass --force to replace it; nothing was written\n",
				out->include_path, LX_INCFILE_MARK);
			lx_reconcile_result_free(&res);
			return LX_EXIT_ERROR;
		}
		out->include_text = res.include_text;
		res.include_text = NULL;
	}
	out->text = res.text;
	out->style = opts.style;
	out->len = res.len;
	out->removed = res.removed;
	out->added = res.added;
	res.text = NULL;
	lx_reconcile_result_free(&res);
	return 0;
}

/* Does the include file need writing? */
static bool include_changes(const struct new_config *next)
{
	return next->include_text &&
	       (!next->include_old || strcmp(next->include_old, next->include_text) != 0);
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
	struct new_config next;
	rc = build_new_config(cli, &host, &txn, &conf, &next);
	bool same_config = rc == 0 && next.len == txn.len && memcmp(next.text, txn.text, next.len) == 0;
	bool same = same_config && !include_changes(&next);
	if (rc != 0) {
		/* the error is printed */
	} else if (cli->dry_run) {
		_cleanup_free_ char *after = lx_xasprintf("%s (after lxgpu apply)", txn.path);
		_cleanup_free_ char *diff =
			lx_diff_unified(txn.path, txn.text, txn.len, after, next.text, next.len);
		fputs(diff, stdout);
		if (include_changes(&next)) {
			const char *old = next.include_old ? next.include_old : "";
			_cleanup_free_ char *inc_after =
				lx_xasprintf("%s (after lxgpu apply)", next.include_path);
			_cleanup_free_ char *inc_diff =
				lx_diff_unified(next.include_path, old, strlen(old), inc_after,
						next.include_text, strlen(next.include_text));
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
		rc = cli_record_gpus(cli, &host, id, txn.path, txn.is_pve, next.text, next.len,
				     lx_style_name(next.style), cli->exclusive);
	} else {
		if (next.set_unprivileged >= 0)
			fprintf(stderr,
				"lxgpu: warning: CT %s: setting unprivileged: %d as asked "
				"(--allow-privilege-change); the rootfs ownership is not remapped\n",
				id, next.set_unprivileged);
		struct lx_error err = {0};
		_cleanup_free_ char *backup = NULL;
		/* The include file first: the config never names a file that is not
		 * there yet (LXC would start the container without its GPUs). */
		if (include_changes(&next) &&
		    lx_incfile_write(next.include_path, next.include_text, &err) < 0) {
			rc = cli_fail(&err);
		} else if (include_changes(&next) && cli->verbosity >= 0) {
			printf("CT %s: wrote %s (lxgpu ensure-nodes rewrites it at every boot).\n", id,
			       next.include_path);
		}
		if (rc != 0) {
			/* nothing else is written */
		} else if (same_config) {
			/* only the include file changed */
		} else if (cli_write_with_backup(cli, &txn, host.hostname, next.text, next.len, &backup,
					  &err) < 0) {
			rc = cli_fail(&err);
		} else if (cli->verbosity >= 0) {
			printf("CT %s: %s: %zu GPU line%s replaced by %zu.\n", id, txn.path,
			       next.removed, next.removed == 1 ? "" : "s", next.added);
			printf("Backup: %s/%s (undo: lxgpu rollback %s %s)\n", cli->backup_dir, backup,
			       id, backup);
			say_running(cli, id, txn.is_pve);
		}
		if (rc == 0)
			rc = cli_record_gpus(cli, &host, id, txn.path, txn.is_pve, next.text, next.len,
					     lx_style_name(next.style), cli->exclusive);
	}
	new_config_free(&next);
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
		"lines are devN entries and lxc.mount.entry lines for /dev/nvidia* and /dev/dri,\n"
		"and device rules for NVIDIA/DRM majors (also a stale dynamic major, when the\n"
		"config has other GPU lines).\n"
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
		"  --allow-privilege-change  let --privileged/--unprivileged flip the container\n"
		"                            (the rootfs ownership is NOT remapped)\n"
		"  --exclusive               record that the container holds its GPUs alone: the\n"
		"                            start guard refuses to start it while another running\n"
		"                            container has one of them (docs/guard.md)\n"
		"  generate's options: --gpus, --style devn|raw|lxc|include, --caps, --dri,\n"
		"  --dev-start, --mode, --uid, --gid, --cgroup, --templates (see 'lxgpu generate\n"
		"  --help'). --style include writes <state-dir>/lxc/CTID.conf (atomically, before\n"
		"  the config) and adds the one lxc.include line; it refuses to replace a file\n"
		"  there that is not lxgpu's unless --force\n",
	.options = CLI_OPT_PLAN | CLI_OPT_GPUS | CLI_OPT_PRIVILEGE | CLI_OPT_TEMPLATES | CLI_OPT_APPLY |
		   CLI_OPT_DRY_RUN | CLI_OPT_BACKUP_DIR | CLI_OPT_EXCLUSIVE,
	.run = run_apply,
};
