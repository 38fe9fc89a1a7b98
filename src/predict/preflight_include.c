/* preflight and the include style: the include file must be there and
 * current at the next start (LXC refuses the config without it), and rewritten at boot for the first start
 * after a reboot (lxgpu ensure-nodes in the boot unit). */
#include "lxgpu/incfile.h"
#include "lxgpu/predict.h"

static void next_start(const char *id, const struct lx_incfile_check *c, struct lx_preflight *out)
{
	switch (c->state) {
	case LX_INCFILE_MISSING:
		lx_preflight_add(out, LXG040_INCLUDE_MISSING, LX_VERDICT_WILL_FAIL,
				 lx_xasprintf("%s is missing: LXC refuses a config whose lxc.include "
					      "file is not there",
					      c->path),
				 c->record_found ? lx_xstrdup("`lxgpu ensure-nodes`")
						 : lx_xasprintf("`lxgpu apply %s --style include`", id));
		break;
	case LX_INCFILE_STALE:
		lx_preflight_add(out, LXG042_INCLUDE_STALE, LX_VERDICT_DEGRADED,
				 lx_xasprintf("%s is stale: it has '%s' where the host needs '%s'", c->path,
					      c->have ? c->have : "", c->want ? c->want : ""),
				 lx_xstrdup("`lxgpu ensure-nodes`"));
		break;
	case LX_INCFILE_NOT_OURS:
		lx_preflight_add(out, LXG041_INCLUDE_NOT_OURS, LX_VERDICT_OK,
				 lx_xasprintf("%s is not lxgpu's: lxgpu does not rewrite it", c->path),
				 NULL);
		break;
	case LX_INCFILE_NO_RECORD:
		lx_preflight_add(out, LXG043_INCLUDE_NO_RECORD, LX_VERDICT_OK,
				 lx_xasprintf("no GPU record for CT %s: lxgpu ensure-nodes does not "
					      "rewrite %s",
					      id, c->path),
				 lx_xasprintf("`lxgpu apply %s --style include`", id));
		break;
	case LX_INCFILE_CURRENT: break;
	}
}

static void next_boot(const char *id, const struct lx_incfile_check *c, const struct lx_next_boot *nb,
		      const char *running_kernel, struct lx_preflight *out)
{
	if (c->state == LX_INCFILE_NOT_OURS || !c->record_found) {
		lx_preflight_add(out,
				 c->state == LX_INCFILE_NOT_OURS ? LXG041_INCLUDE_NOT_OURS
								 : LXG043_INCLUDE_NO_RECORD,
				 LX_VERDICT_DEGRADED,
				 lx_xasprintf("nothing rewrites %s at boot (%s): the numbers in it are "
					      "this boot's, and a uvm or caps major that changes with the "
					      "reboot leaves the container without CUDA",
					      c->path,
					      c->state == LX_INCFILE_NOT_OURS ? "it is not lxgpu's"
									: "no GPU record"),
				 lx_xasprintf("`lxgpu apply %s --style include`", id));
		return;
	}
	if (!nb->module_path) {
		/* The checks of the lines (lx_preflight_next_boot) see no GPU
		 * lines in an include-form config: this one is the include's. */
		lx_preflight_add(out, LXG120_MODULE_NOT_LOADED, LX_VERDICT_DEGRADED,
				 lx_xasprintf("kernel %s has no nvidia module: there is no GPU at boot, "
					      "and lxgpu ensure-nodes leaves every GPU out of %s (the "
					      "container starts without them)",
					      nb->kernel, c->path),
				 lx_next_boot_module_fix(nb, running_kernel));
		return;
	}
	if (nb->ensure_nodes_unit) {
		lx_preflight_add(out, LXG042_INCLUDE_STALE, LX_VERDICT_OK,
				 lx_xasprintf("%s (enabled) runs lxgpu ensure-nodes, which rewrites %s "
					      "at boot with that boot's device numbers",
					      nb->ensure_nodes_unit, c->path),
				 NULL);
		return;
	}
	lx_preflight_add(out, LXG042_INCLUDE_STALE, LX_VERDICT_DEGRADED,
			 lx_xasprintf("nothing runs lxgpu ensure-nodes at boot: %s %s, and a uvm or "
				      "caps major that changes with the reboot leaves the container "
				      "without CUDA",
				      c->path,
				      c->state == LX_INCFILE_MISSING ? "stays missing"
								     : "keeps this boot's numbers"),
			 lx_xstrdup("install and enable the unit this prints: `lxgpu ensure-nodes "
				    "--print-boot-unit`"));
}

void lx_preflight_include(const struct lx_host *host, const struct lx_node_plan *nodes,
			  const char *id, const struct lx_conf *conf, const char *state_dir,
			  const struct lx_next_boot *nb, struct lx_preflight *out)
{
	const struct lx_conf_line *l = lx_incfile_find_line(conf, state_dir);
	if (!l)
		return;
	struct lx_incfile_check c;
	struct lx_error err = {0};
	if (lx_incfile_check(host, nodes, state_dir, id, l->value, &c, &err) < 0) {
		lx_preflight_add(out, LXG040_INCLUDE_MISSING, LX_VERDICT_DEGRADED, lx_xstrdup(err.message),
				 lx_xasprintf("fix or remove the file named, then `lxgpu apply %s "
					      "--style include`",
					      id));
		lx_error_clear(&err);
		return;
	}
	if (nb)
		next_boot(id, &c, nb, host->kernel, out);
	else
		next_start(id, &c, out);
	for (size_t i = 0; i < c.want_from.gone.n; i++)
		lx_preflight_add(out, LXG044_INCLUDE_GPU_GONE, LX_VERDICT_DEGRADED,
				 lx_xasprintf("%s: lxgpu ensure-nodes leaves it out of %s",
					      c.want_from.gone.items[i], c.path),
				 lx_xasprintf("give it the recorded GPUs still here: `lxgpu apply %s "
					      "--style include --gpus GPUS`",
					      id));
	lx_incfile_check_free(&c);
}
