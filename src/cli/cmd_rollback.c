/* lxgpu rollback: restore a config from one of apply's backups. */
#include "cli.h"
#include "lxgpu/incfile.h"
#include "lxgpu/config.h"
#include "lxgpu/judge.h"
#include "lxgpu/predict.h"

#include <string.h>

static int list_backups(const struct cli *cli, const char *id, const struct lx_strv *names)
{
	if (names->n == 0) {
		printf("No backups of CT %s in %s.\n", id, cli->backup_dir);
		return LX_EXIT_OK;
	}
	printf("Backups of CT %s in %s (oldest first):\n", id, cli->backup_dir);
	for (size_t i = 0; i < names->n; i++) {
		_cleanup_free_ char *path = lx_path_join(cli->backup_dir, names->items[i]);
		_cleanup_free_ char *text = NULL;
		size_t len;
		struct lx_backup_meta meta;
		struct lx_error err = {0};
		if (lx_backup_read(path, &text, &len, &meta, &err) < 0) {
			_cleanup_free_ char *why = lx_text_escape(err.message);
			printf("  %s  (unreadable: %s)\n", names->items[i], why);
			lx_error_clear(&err);
			continue;
		}
		_cleanup_free_ char *when = lx_text_escape(meta.time ? meta.time : "-");
		_cleanup_free_ char *command = lx_text_escape(meta.command ? meta.command : "-");
		_cleanup_free_ char *name = lx_text_escape(names->items[i]);
		printf("  %s  %s  %s%s\n", name, when, command,
		       meta.written ? "" : "  (does not record what it wrote: rollback needs --force)");
		lx_backup_meta_free(&meta);
	}
	return LX_EXIT_OK;
}

/* A diff for the terminal: config bytes escaped, line ends kept. */
static void print_diff(const char *diff)
{
	_cleanup_free_ char *text = lx_text_escape_lines(diff, strlen(diff));
	fputs(text, stdout);
}

/* What the rollback changed in a file, line by line: the diff's removed
 * ("-") and put back ("+") lines, escaped, without its headers and hunk
 * lines; *removed and *restored count them. */
static char *changed_lines(const char *path, const char *before, size_t before_len,
			   const char *after, size_t after_len, size_t *removed, size_t *restored)
{
	_cleanup_free_ char *diff = lx_diff_unified(path, before, before_len, path, after, after_len);
	struct lx_buf b = {0};
	*removed = *restored = 0;
	bool header = true;
	for (const char *p = diff; *p;) {
		size_t n = strcspn(p, "\n");
		if (lx_str_starts_with(p, "@@"))
			header = false;
		else if (!header && (*p == '-' || *p == '+')) {
			_cleanup_free_ char *line = lx_text_escape_bytes(p + 1, n - 1);
			lx_buf_printf(&b, "  %s %s\n", *p == '-' ? "removed: " : "restored:", line);
			if (*p == '-')
				(*removed)++;
			else
				(*restored)++;
		}
		p += n + (p[n] == '\n');
	}
	return lx_buf_steal(&b);
}

static int run_rollback(struct cli *cli)
{
	if (cli->n_args < 1 || cli->n_args > 2)
		return cli_usage_error("rollback needs a container id, and optionally a backup "
				       "(see 'lxgpu rollback --help')");
	const char *id = cli->args[0];
	struct lx_error err = {0};
	struct lx_strv names;
	if (lx_backup_list(cli->backup_dir, id, &names, &err) < 0)
		return cli_fail(&err);
	cli_verbose(cli, "%zu backup%s of CT %s in %s", names.n, names.n == 1 ? "" : "s", id,
		    cli->backup_dir);
	if (cli->list) {
		int rc = cli->n_args == 1 ? list_backups(cli, id, &names)
					  : cli_usage_error("--list takes no backup name");
		lx_strv_free(&names);
		return rc;
	}
	_cleanup_free_ char *path = NULL;
	size_t n_backups = names.n;
	lx_strv_free(&names);
	if (cli->n_args == 2 && strcmp(cli->args[1], "latest") != 0) {
		path = strchr(cli->args[1], '/') ? lx_xstrdup(cli->args[1])
						 : lx_path_join(cli->backup_dir, cli->args[1]);
	} else {
		/* The newest apply not undone yet: two rollbacks go back two applies. */
		_cleanup_free_ char *latest = NULL;
		if (lx_backup_latest_apply(cli->backup_dir, id, &latest, &err) < 0)
			return cli_fail(&err);
		if (!latest && n_backups)
			return cli_usage_error("no apply of CT %s left to undo in %s: each was rolled "
					       "back (rollback %s --list shows the backups; name one "
					       "to restore the config it holds)",
					       id, cli->backup_dir, id);
		if (latest)
			path = lx_path_join(cli->backup_dir, latest);
	}
	if (!path)
		return cli_usage_error("no backups of CT %s in %s (--backup-dir chooses where to look)",
				       id, cli->backup_dir);
	char *old = NULL;
	size_t old_len;
	struct lx_backup_meta meta;
	if (lx_backup_read(path, &old, &old_len, &meta, &err) < 0)
		return cli_fail(&err);
	int rc = LX_EXIT_OK;
	struct lx_host host = {0};
	struct lx_gpu_owned owned = {0};
	/* Declared before the first goto: clang refuses a jump past a cleanup. */
	_cleanup_free_ char *include_now = NULL;
	if (!meta.ctid || strcmp(meta.ctid, id) != 0) {
		rc = cli_usage_error("%s is a backup of CT %s, not of CT %s", path,
				     meta.ctid ? meta.ctid : "(unknown)", id);
		goto done;
	}
	/* A backup is data, never a path to trust: the only include file a
	 * rollback may write is the one lxgpu itself keeps for this container. */
	if (meta.include_path) {
		_cleanup_free_ char *own = lx_incfile_path(cli->state_dir, id);
		if (strcmp(meta.include_path, own) != 0) {
			rc = cli_usage_error("%s names the include file %s, but CT %s's include file "
					     "is %s: refusing a backup that names another path "
					     "(nothing written)", path, meta.include_path, id, own);
			goto done;
		}
	}
	/* Which lines are GPU lines is decided by the host, as for apply. */
	if (cli_load_host(cli, &host, NULL) < 0) {
		rc = LX_EXIT_ERROR;
		goto done;
	}
	lx_gpu_owned_from_host(&host, &owned);
	owned.include_dir = lx_incfile_dir(cli->state_dir); /* the include style's line */
	struct lx_conf_txn txn;
	struct lx_conf conf;
	rc = cli_begin_change(cli, id, cli->dry_run, &txn, &conf);
	if (rc != 0)
		goto done;
	struct lx_rollback rb;
	/* lxgpu's include file, when the change wrote it: back to its text
	 * before, in the same transaction as the config. */
	const char *include_back = NULL;
	const char *slash = strrchr(path, '/');
	/* The record keeps its exclusive: rollback does not decide it. */
	struct cli_change change = {.action = "rollback", .undoes = slash ? slash + 1 : path,
				    .exclusive = -1};
	int include_rc = 0;
	if (meta.include_path) {
		include_rc = lx_read_file_optional(meta.include_path, 1u << 20, &include_now, NULL, &err);
		if (include_rc == 0)
			include_rc = lx_rollback_include(&meta, include_now, cli->force, &include_back,
							 &err);
		change.include_path = meta.include_path;
		change.include_old = include_now;
		change.include_text = include_back;
	}
	bool include_changes = meta.include_path && (!include_now != !include_back ||
						     (include_now && strcmp(include_now, include_back) != 0));
	if (include_rc < 0) {
		memset(&rb, 0, sizeof(rb));
		rc = cli_fail(&err);
	} else if (lx_conf_rollback(&conf, path, old, old_len, meta.written, meta.written_len,
				    &owned, cli->force, &rb, &err) < 0) {
		if (rb.gpu_diff)
			print_diff(rb.gpu_diff);
		fflush(stdout); /* the diff before the message that points at it */
		rc = cli_fail(&err);
	} else if (cli->dry_run) {
		_cleanup_free_ char *b = lx_xasprintf("%s (after lxgpu rollback)", txn.path);
		_cleanup_free_ char *diff = lx_diff_unified(txn.path, txn.text, txn.len, b, rb.text,
							    rb.len);
		print_diff(diff);
		if (include_changes) {
			const char *from = include_now ? include_now : "", *to = include_back ? include_back : "";
			_cleanup_free_ char *ib = lx_xasprintf("%s (after lxgpu rollback)", meta.include_path);
			_cleanup_free_ char *idiff = lx_diff_unified(meta.include_path, from, strlen(from),
								     ib, to, strlen(to));
			print_diff(idiff);
		}
		rc = *diff || include_changes ? LX_EXIT_FINDINGS : LX_EXIT_OK;
	} else if (txn.len == rb.len && memcmp(txn.text, rb.text, rb.len) == 0 && !include_changes) {
		printf("CT %s: %s already has the GPU lines of %s; nothing written.\n", id, txn.path,
		       path);
	} else {
		_cleanup_free_ char *backup = NULL;
		/* The current config is backed up too: a rollback can be undone. */
		int written = cli_write_with_backup(cli, &txn, &host, rb.text, rb.len, &change,
						    &backup, &err);
		if (written < 0) {
			rc = cli_fail(&err);
		} else if (cli->verbosity >= 0) {
			if (include_changes)
				printf("CT %s: %s %s.\n", id, include_back ? "restored" : "removed",
				       meta.include_path);
			_cleanup_free_ char *when = lx_text_escape(meta.time ? meta.time : "-");
			_cleanup_free_ char *command = lx_text_escape(meta.command ? meta.command : "-");
			_cleanup_free_ char *file = lx_text_escape(txn.path);
			size_t removed, restored;
			/* What was written, read from the two texts, not from the plan. */
			_cleanup_free_ char *lines = changed_lines(txn.path, txn.text, txn.len, rb.text,
								   rb.len, &removed, &restored);
			printf("CT %s: %s rolled back to %s (saved %s by: %s): %zu line%s removed, %zu "
			       "restored; no other line changed:\n%s",
			       id, file, path, when, command, removed, removed == 1 ? "" : "s", restored,
			       lines);
			printf("The config it replaced: %s/%s\n", cli->backup_dir, backup);
		}
		/* The guard's record follows the GPUs the config gives now (none:
		 * removed), written in the transaction. */
		if (written > 0)
			rc = cli_fail(&err);
	}
	lx_rollback_free(&rb);
	lx_conf_free(&conf);
	lx_conf_txn_end(&txn);
done:
	free(old);
	lx_backup_meta_free(&meta);
	lx_gpu_owned_free(&owned);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_rollback = {
	.name = "rollback",
	.summary = "restore a container's config from one of apply's backups",
	.usage = "Usage: lxgpu rollback CTID [--list | BACKUP | latest] [--force]\n"
		 "                           [--backup-dir DIR]\n"
		 "\n"
		 "--list shows the container's backups (oldest first) with when and by which\n"
		 "command each was taken. BACKUP (a name from --list, or a path; default:\n"
		 "latest, the newest apply not rolled back yet, so two rollbacks undo two\n"
		 "applies) undoes that change, and only it: the backup's GPU lines go back in\n"
		 "place of today's, and every other line, snapshot and [pve:pending] section\n"
		 "stays as it is now (a file unchanged since gets the backup's very bytes).\n"
		 "When the GPU lines were edited since lxgpu wrote them, or the backup is from\n"
		 "an lxgpu that did not record what it wrote, nothing is written (exit 2, with\n"
		 "the diff of the GPU lines) unless --force. Written with apply's safety:\n"
		 "Proxmox's lock, no 'lock:' key, an atomic replace, and a backup of the config\n"
		 "it replaces (then backups beyond --keep N, default 10, are removed). lxgpu's\n"
		 "include file (--style include) goes back with the config, in one transaction.\n"
		 "--dry-run prints the diff instead (exit 1 when something would change).\n"
		 "\n"
		 "  --list              list the container's backups\n"
		 "  --force             write even when the GPU lines were edited since\n"
		 "  --dry-run           print the diff, write nothing\n"
		 "  --backup-dir DIR    where the backups are (default /var/lib/lxgpu/backups)\n"
		 "  --keep N            backups kept per container (default 10)\n"
		 "  --lock-timeout SEC  how long to wait for Proxmox's lock (default 10)\n"
		 "  --lock-dir DIR      where Proxmox's config locks are (/run/lock/lxc)\n",
	.options = CLI_OPT_BACKUP_DIR | CLI_OPT_LIST | CLI_OPT_APPLY | CLI_OPT_DRY_RUN,
	.run = run_rollback,
};
