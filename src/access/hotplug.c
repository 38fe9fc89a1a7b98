/* apply --live's run (include/lxgpu/reconcile.h): the new devN entries that
 * lx_live_split chose are handed to Proxmox's `pct set`, which hotplugs each
 * into the running container (src/access/live.c says what pve-container
 * does), between a backup made under the config's lock and the config read
 * again under it. What apply then writes, and what is said, is the caller's.
 *
 * Order: the backup of the config as read comes first, so that rollback has
 * it whatever happens once pct has changed the config (lxgpu killed, its own
 * write failing); the lock is let go, since pct takes the same flock and
 * would wait for it ("can't lock file ... got timeout"); pct runs per key and
 * stops at the first failure; then the lock is taken again and each key
 * handed over is looked for in the live section, with the value given. */
#include "lxgpu/reconcile.h"

#include <string.h>

void lx_hotplug_free(struct lx_hotplug *h)
{
	lx_strv_free(&h->added);
	lx_strv_free(&h->pending);
	free(h->failure);
	free(h->before);
	free(h->backup);
	memset(h, 0, sizeof(*h));
}

/* `pct set ID --KEY VALUE` for each key in order; the first failure is
 * said in out->failure (the command, why, pct's stderr). The count run
 * with success. */
static size_t hand_to_pct(const char *pct, const char *id, const struct lx_live_split *split,
			  struct lx_hotplug *out)
{
	for (size_t i = 0; i < split->keys.n; i++) {
		_cleanup_free_ char *opt = lx_xasprintf("--%s", split->keys.items[i]);
		char *argv[] = {"pct", "set", (char *)id, opt, split->values.items[i], NULL};
		_cleanup_free_ char *errors = NULL;
		int status = lx_run_errors(pct, argv, 64 << 10, 120000, &errors);
		if (status == 0)
			continue;
		_cleanup_free_ char *why = status < 0 ? lx_xstrdup("it did not finish")
						      : lx_xasprintf("exit status %d", status);
		size_t n = strlen(errors);
		out->failure = lx_xasprintf("`pct set %s %s %s` failed (%s)%s%s%s", id, opt,
					    split->values.items[i], why, n ? ":\n" : "", errors,
					    n && errors[n - 1] == '\n' ? "" : "\n");
		return i;
	}
	return split->keys.n;
}

int lx_hotplug_run(const struct lx_hotplug_input *in, struct lx_conf_txn *txn,
		   struct lx_conf *conf, struct lx_hotplug *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	const struct lx_live_split *split = in->split;
	struct lx_backup_meta meta = *in->meta;
	meta.written = split->after_pct;
	meta.written_len = split->after_pct_len;
	if (lx_backup_write(in->backup_dir, txn->text, txn->len, &meta, &out->backup, err) < 0)
		return -1;
	_cleanup_free_ char *id = lx_xstrdup(txn->id);
	out->before = lx_xstrndup(txn->text, txn->len);
	out->before_len = txn->len;
	lx_conf_free(conf);
	lx_conf_txn_end(txn);
	size_t done = hand_to_pct(in->pct, id, split, out);
	int locked = in->relock(in->ctx, id, txn, conf);
	if (locked != 0)
		return locked;
	out->changed = txn->len != out->before_len || memcmp(txn->text, out->before, txn->len) != 0;
	for (size_t i = 0; i < done; i++) {
		const char *now = lx_conf_get(conf, split->keys.items[i]);
		/* Not there with our value: pct kept it pending (a pve-container
		 * older than 6.0.4, its version unknown to lxgpu), or another
		 * writer took the index meanwhile. */
		if (now && strcmp(now, split->values.items[i]) == 0)
			lx_strv_push_owned(&out->added, lx_xasprintf("%s: %s", split->keys.items[i], now));
		else
			lx_strv_push(&out->pending, split->keys.items[i]);
	}
	return 0;
}
