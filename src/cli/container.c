/* What a container's config tells generate and apply. */
#include "cli.h"
#include "lxgpu/config.h"

#include <string.h>
#include <strings.h>

static bool is_gpu_device_path(const char *path)
{
	return lx_str_starts_with(path, "/dev/nvidia") || lx_str_starts_with(path, "/dev/dri/");
}

int cli_options_for_container(const struct cli *cli, const struct lx_conf *conf, bool is_pve,
			      struct lx_plan_options *opts)
{
	if (!is_pve && cli->style_given &&
	    (opts->style == LX_STYLE_DEVN || opts->style == LX_STYLE_RAW))
		return cli_usage_error("%s is a plain LXC config: %s lines are Proxmox's; use --style lxc",
				       conf->path, lx_style_name(opts->style));
	if (!is_pve && !cli->style_given)
		opts->style = LX_STYLE_LXC; /* a plain LXC config takes "key = value" lines */
	if (!cli->privilege_given) {
		const char *unpriv = lx_conf_get(conf, "unprivileged");
		opts->unprivileged = is_pve ? unpriv && strcmp(unpriv, "1") == 0
					    : lx_conf_has_lxc_key(conf, "lxc.idmap");
	}
	/* devN indexes held by other devices, live or pending, stay theirs. */
	for (size_t i = 0; i < conf->n; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		bool pending = l->section >= 0 && conf->lines[l->section].key &&
			       strcasecmp(conf->lines[l->section].key, "pve:pending") == 0;
		int index = l->kind == LX_CONF_PVE_KEY && (l->section == -1 || pending)
				    ? lx_conf_devn_index(l->key)
				    : -1;
		if (index < 0)
			continue;
		_cleanup_free_ char *dev = lx_conf_devn_path(l->value);
		if (!dev || !is_gpu_device_path(dev))
			opts->dev_taken[index] = true;
	}
	return 0;
}
