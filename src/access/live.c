/* apply --live: which of apply's changes a running Proxmox container takes
 * at once, and which wait for its next start (include/lxgpu/reconcile.h).
 *
 * pve-container's rule, read at proxmox/pve-container 94f5585 (6.1.10+):
 * `pct set CTID --devN VALUE` (PVE::API2::LXC::Config update_vm) stores the
 * value in $conf->{pending} (PVE::LXC::Config::update_pct_config, which
 * first checks that the path is a device node on the host), then, for a
 * running container, PVE::LXC::Config::vmconfig_hotplug_pending hotplugs a
 * pending devN only when `!exists($conf->{devN})`: an existing key is
 * skipped ("don't try to hotplug over existing dev") and stays in
 * [pve:pending] until the next start. The hotplug itself is
 * PVE::LXC::device_passthrough_hotplug (node made under
 * /var/lib/lxc/ID/passthrough with the idmap, move_mount'ed into the
 * container, then lxc-cgroup devices.allow). Added in 6.0.4, commit c702167
 * "implement device hotplug" (debian/changelog: "hot-unplug or editing a
 * existing device is not yet supported"). A failure is "unable to hotplug
 * devN: ..." and update_vm writes no config (raise_param_exc before
 * write_config). Nothing else apply writes (lxc.* lines) is hotplugged. */
#include "lxgpu/reconcile.h"

#include <string.h>

void lx_live_split_free(struct lx_live_split *s)
{
	lx_strv_free(&s->keys);
	lx_strv_free(&s->values);
	lx_strv_free(&s->restart);
	free(s->text);
	free(s->after_pct);
	memset(s, 0, sizeof(*s));
}

/* Whether a devN key is set in the live section, or in [pve:pending]. */
static bool key_in(const struct lx_conf *c, const char *key, bool pending)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct lx_conf_line *l = &c->lines[i];
		if (l->kind != LX_CONF_PVE_KEY || strcmp(l->key, key) != 0)
			continue;
		if (!pending && l->section < 0)
			return true;
		if (pending && l->section >= 0 && strcmp(c->lines[l->section].key, "pve:pending") == 0)
			return true;
	}
	return false;
}

/* The live section's raw lines of c that the other has not (each matched
 * once): "KEY: VALUE what" into out. */
static void lxc_lines_not_in(const struct lx_conf *c, const struct lx_conf *other, const char *what,
			     struct lx_strv *out)
{
	bool *used = lx_xcalloc(other->n + 1, sizeof(bool));
	for (size_t i = 0; i < c->n; i++) {
		const struct lx_conf_line *l = &c->lines[i];
		if (l->kind != LX_CONF_LXC_KEY || l->section >= 0)
			continue;
		bool found = false;
		for (size_t j = 0; j < other->n && !found; j++) {
			const struct lx_conf_line *o = &other->lines[j];
			if (!used[j] && o->kind == LX_CONF_LXC_KEY && o->section < 0 &&
			    strcmp(o->key, l->key) == 0 && strcmp(o->value, l->value) == 0)
				found = used[j] = true;
		}
		if (!found)
			lx_strv_push_owned(out, lx_xasprintf("%s: %s %s", l->key, l->value, what));
	}
	free(used);
}

/* now with the keys of out as "KEY: VALUE" lines where PVE's write_config
 * puts them: its keys are written sorted (perl's sort, byte order), so each
 * goes after the live section's last key that sorts before it, else before
 * its first key (a live section without keys: at its end). */
static void with_keys_added(const struct lx_conf *now, struct lx_live_split *out)
{
	struct lx_strv *inserts = lx_xcalloc(now->n + 1, sizeof(*inserts));
	for (size_t k = 0; k < out->keys.n; k++) {
		long first_key = -1, after = -1, end = (long)now->n;
		for (size_t i = 0; i < now->n; i++) {
			const struct lx_conf_line *l = &now->lines[i];
			if (l->section >= 0) {
				end = end < (long)i ? end : (long)i;
				continue;
			}
			if (l->kind != LX_CONF_PVE_KEY)
				continue;
			if (first_key < 0)
				first_key = (long)i;
			if (strcmp(l->key, out->keys.items[k]) < 0)
				after = (long)i;
		}
		size_t at = (size_t)(after >= 0 ? after + 1 : first_key >= 0 ? first_key : end);
		lx_strv_push_owned(&inserts[at], lx_xasprintf("%s: %s", out->keys.items[k],
							     out->values.items[k]));
	}
	bool *drop = lx_xcalloc(now->n + 1, sizeof(bool)); /* none: pct only adds */
	size_t removed = 0;
	out->after_pct = lx_conf_edit_at(now, drop, inserts, -1, &out->after_pct_len, &removed);
	for (size_t i = 0; i <= now->n; i++)
		lx_strv_free(&inserts[i]);
	free(inserts);
	free(drop);
}

void lx_live_split(const struct lx_conf *now, const char *new_text, size_t new_len,
		   struct lx_live_split *out)
{
	memset(out, 0, sizeof(*out));
	struct lx_conf next;
	lx_conf_parse(now->path, new_text, new_len, &next);
	bool *drop = lx_xcalloc(next.n + 1, sizeof(bool));
	/* PVE keys: a new devN with a free index goes live; every other
	 * change of a key waits (last value wins, as lx_conf_get reads). */
	for (size_t i = 0; i < next.n; i++) {
		const struct lx_conf_line *l = &next.lines[i];
		if (l->kind != LX_CONF_PVE_KEY || l->section >= 0 || lx_conf_get(&next, l->key) != l->value)
			continue;
		const char *before = lx_conf_get(now, l->key);
		if (before && strcmp(before, l->value) == 0)
			continue;
		bool devn = lx_conf_devn_index(l->key) >= 0;
		if (devn && !key_in(now, l->key, false) && !key_in(now, l->key, true)) {
			lx_strv_push(&out->keys, l->key);
			lx_strv_push(&out->values, l->value);
			drop[i] = true;
		} else if (before) {
			lx_strv_push_owned(&out->restart, lx_xasprintf("%s changed", l->key));
		} else {
			lx_strv_push_owned(&out->restart,
					   lx_xasprintf("%s added%s", l->key,
							devn ? " (its index has a pending change)" : ""));
		}
	}
	for (size_t i = 0; i < now->n; i++) {
		const struct lx_conf_line *l = &now->lines[i];
		if (l->kind == LX_CONF_PVE_KEY && l->section < 0 && lx_conf_get(now, l->key) == l->value &&
		    !lx_conf_get(&next, l->key))
			lx_strv_push_owned(&out->restart, lx_xasprintf("%s removed", l->key));
	}
	lxc_lines_not_in(&next, now, "added", &out->restart);
	lxc_lines_not_in(now, &next, "removed", &out->restart);
	size_t removed = 0;
	struct lx_strv none = {0};
	out->text = lx_conf_edit(&next, drop, NULL, -1, &none, -1, &out->len, &removed);
	with_keys_added(now, out);
	free(drop);
	lx_conf_free(&next);
}

bool lx_live_may(const char *id, bool is_pve, const struct lx_host *host, bool running,
		 bool have_pct, struct lx_refusal *why)
{
	char *message = NULL, *fix = NULL;
	if (!is_pve) {
		message = lx_xasprintf("--live adds devN entries through Proxmox's pct, and %s is a "
				       "plain LXC container",
				       id);
		fix = lx_xasprintf("run `lxgpu apply %s` without --live, then restart it", id);
	} else if (host->pve_container_version && !lx_host_pve_hotplugs_devn(host)) {
		message = lx_xasprintf("pve-container %s does not add a devN entry to a running "
				       "container (6.0.4 and later do)",
				       host->pve_container_version);
		fix = lx_xasprintf("run `lxgpu apply %s` without --live, then `pct reboot %s`", id, id);
	} else if (!running) {
		message = lx_xasprintf("CT %s is not running: --live is for a running container", id);
		fix = lx_xasprintf("run `lxgpu apply %s` without --live (it gets the lines at its "
				   "next start)",
				   id);
	} else if (!have_pct) {
		message = lx_xstrdup("--live runs Proxmox's `pct set`, and no pct is in PATH");
		fix = lx_xasprintf("run it on the Proxmox node, or run `lxgpu apply %s` without "
				   "--live, then `pct reboot %s`",
				   id, id);
	} else {
		return true;
	}
	lx_refusal_free(why);
	*why = (struct lx_refusal){LX_REFUSAL_NOT_LIVE, 0, message, fix};
	return false;
}
