/* What a container's config tells generate and apply. */
#include "cli.h"
#include "lxgpu/config.h"
#include "lxgpu/guard.h"
#include "lxgpu/verify.h"

#include <string.h>
#include <strings.h>

int cli_options_for_container(const struct cli *cli, const struct lx_host *host,
			      const struct lx_conf *conf, bool is_pve, struct lx_plan_options *opts)
{
	if (!is_pve && cli->style_given &&
	    (opts->style == LX_STYLE_DEVN || opts->style == LX_STYLE_RAW))
		return cli_usage_error("%s is a plain LXC config: %s lines are Proxmox's; use --style lxc",
				       conf->path, lx_style_name(opts->style));
	if (!is_pve && !cli->style_given)
		opts->style = LX_STYLE_LXC; /* a plain LXC config takes "key = value" lines */
	if (!cli->privilege_given) {
		opts->unprivileged = lx_conf_unprivileged(conf, is_pve);
	}
	/* devN indexes held by other devices, live or pending, stay theirs.
	 * "Other" by the rules apply replaces lines with (an iGPU's renderD128
	 * keeps its entry, so it keeps its index too). */
	struct lx_gpu_owned owned;
	lx_gpu_owned_from_host(host, &owned);
	for (size_t i = 0; i < conf->n; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		bool pending = l->section >= 0 && conf->lines[l->section].key &&
			       strcasecmp(conf->lines[l->section].key, "pve:pending") == 0;
		int index = l->kind == LX_CONF_PVE_KEY && (l->section == -1 || pending)
				    ? lx_conf_devn_index(l->key)
				    : -1;
		if (index < 0)
			continue;
		struct lx_conf_line as_live = *l;
		as_live.section = -1;
		if (!lx_conf_line_is_gpu_given(&as_live, &owned, true))
			opts->dev_taken[index] = true;
	}
	lx_gpu_owned_free(&owned);
	return 0;
}

int cli_record_gpus(const struct cli *cli, const struct lx_host *host, const char *id,
		    const char *path, bool is_pve, const char *text, size_t len, const char *style,
		    int exclusive)
{
	struct lx_conf conf;
	lx_conf_parse(path, text, len, &conf);
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (cli->lxc_config_dir)
		aopts.lxc_config_dir = cli->lxc_config_dir;
	struct lx_error err = {0};
	struct lx_record rec, old;
	bool has_gpus, had = false;
	int rc = lx_record_from_config(host, id, &conf, is_pve, &aopts, style, &rec, &has_gpus, &err);
	lx_conf_free(&conf);
	if (rc == 0 && exclusive < 0 && has_gpus) {
		/* keep what the record said: rollback does not decide exclusive use */
		rc = lx_record_load(cli->state_dir, id, &old, &had, &err);
		rec.exclusive = had && old.exclusive;
		if (had)
			lx_record_free(&old);
		if (rc < 0) { /* a corrupt record is replaced */
			lx_error_clear(&err);
			rc = 0;
		}
	} else if (rc == 0) {
		rec.exclusive = exclusive > 0;
	}
	if (rc == 0)
		rc = has_gpus ? lx_record_store(cli->state_dir, &rec, &err)
			      : lx_record_remove(cli->state_dir, id, &err);
	if (has_gpus)
		lx_record_free(&rec);
	if (rc < 0) {
		lx_error_prefix(&err, "%s was written, but the start guard's record was not", path);
		return cli_fail(&err);
	}
	cli_verbose(cli, "CT %s: %s %s/containers/%s.yaml", id, has_gpus ? "recorded its GPUs in" :
		    "no GPUs: removed", cli->state_dir, id);
	return 0;
}
