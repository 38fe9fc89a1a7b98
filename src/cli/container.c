/* What a container's config tells generate and apply. */
#include "cli.h"
#include "lxgpu/config.h"
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
