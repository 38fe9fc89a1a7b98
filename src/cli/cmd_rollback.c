/* lxgpu rollback: restore a config from one of apply's backups. */
#include "cli.h"
#include "lxgpu/config.h"

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
			printf("  %s  (unreadable: %s)\n", names->items[i], err.message);
			lx_error_clear(&err);
			continue;
		}
		printf("  %s  %s  %s\n", names->items[i], meta.time ? meta.time : "-",
		       meta.command ? meta.command : "-");
		lx_backup_meta_free(&meta);
	}
	return LX_EXIT_OK;
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
	if (cli->list) {
		int rc = cli->n_args == 1 ? list_backups(cli, id, &names)
					  : cli_usage_error("--list takes no backup name");
		lx_strv_free(&names);
		return rc;
	}
	_cleanup_free_ char *path = NULL;
	if (cli->n_args == 2 && strcmp(cli->args[1], "latest") != 0)
		path = strchr(cli->args[1], '/') ? lx_xstrdup(cli->args[1])
						 : lx_path_join(cli->backup_dir, cli->args[1]);
	else if (names.n)
		path = lx_path_join(cli->backup_dir, names.items[names.n - 1]);
	lx_strv_free(&names);
	if (!path)
		return cli_usage_error("no backups of CT %s in %s (--backup-dir chooses where to look)",
				       id, cli->backup_dir);
	char *old = NULL;
	size_t old_len;
	struct lx_backup_meta meta;
	if (lx_backup_read(path, &old, &old_len, &meta, &err) < 0)
		return cli_fail(&err);
	int rc = LX_EXIT_OK;
	if (!meta.ctid || strcmp(meta.ctid, id) != 0) {
		rc = cli_usage_error("%s is a backup of CT %s, not of CT %s", path,
				     meta.ctid ? meta.ctid : "(unknown)", id);
		goto done;
	}
	struct lx_conf_txn txn;
	struct lx_conf conf;
	rc = cli_begin_change(cli, id, cli->dry_run, &txn, &conf);
	if (rc != 0)
		goto done;
	if (cli->dry_run) {
		_cleanup_free_ char *b = lx_xasprintf("%s (after lxgpu rollback)", txn.path);
		_cleanup_free_ char *diff = lx_diff_unified(txn.path, txn.text, txn.len, b, old, old_len);
		fputs(diff, stdout);
		rc = *diff ? LX_EXIT_FINDINGS : LX_EXIT_OK;
	} else if (txn.len == old_len && memcmp(txn.text, old, old_len) == 0) {
		printf("CT %s: %s is already as in %s; nothing written.\n", id, txn.path, path);
	} else {
		_cleanup_free_ char *backup = NULL;
		/* The current config is backed up too: a rollback can be undone. */
		if (cli_write_with_backup(cli, &txn, NULL, old, old_len, &backup, &err) < 0) {
			rc = cli_fail(&err);
		} else if (cli->verbosity >= 0) {
			printf("CT %s: %s restored from %s (saved %s by: %s).\n", id, txn.path, path,
			       meta.time ? meta.time : "-", meta.command ? meta.command : "-");
			printf("The config it replaced: %s/%s\n", cli->backup_dir, backup);
		}
	}
	lx_conf_free(&conf);
	lx_conf_txn_end(&txn);
done:
	free(old);
	lx_backup_meta_free(&meta);
	return rc;
}

const struct cli_command cli_cmd_rollback = {
	.name = "rollback",
	.summary = "restore a container's config from one of apply's backups",
	.usage = "Usage: lxgpu rollback CTID [--list | BACKUP | latest] [--backup-dir DIR]\n"
		 "\n"
		 "--list shows the container's backups (oldest first) with when and by which\n"
		 "command each was taken. BACKUP (a name from --list, or a path; default: the\n"
		 "latest) is restored with apply's safety: Proxmox's lock, no 'lock:' key, an\n"
		 "atomic replace, and a backup of the config it replaces. --dry-run prints the\n"
		 "diff instead (exit 1 when something would change).\n",
	.options = CLI_OPT_BACKUP_DIR | CLI_OPT_LIST | CLI_OPT_APPLY,
	.run = run_rollback,
};
