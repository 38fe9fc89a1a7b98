/* The include style's file as verify sees it: the config's lxc.include of
 * lxgpu's file must name a file that is there (LXC refuses a config whose
 * include file is missing: the container does not start), lxgpu's, and what
 * ensure-nodes writes for the host now. */
#include "lxgpu/incfile.h"
#include "lxgpu/judge.h"

/* apply in the include style with the recorded GPUs still on this host
 * (a gone one is left out: apply refuses it); without a record, the GPUs
 * the config gives now. */
static char *apply_fix(const char *id, const struct lx_incfile_check *c, const char *force)
{
	if (c->want_from.gpus)
		return lx_xasprintf("`lxgpu apply %s --style include%s --gpus %s`", id, force,
				    c->want_from.gpus);
	return lx_xasprintf("give it its GPUs in the include style (add --gpus when it should get "
			    "other GPUs): `lxgpu apply %s --style include%s`",
			    id, force);
}

static void check_line(const struct lx_host *host, const struct lx_node_plan *nodes, const char *id,
		       const struct lx_conf *conf, const struct lx_conf_line *l, const char *state_dir,
		       struct lx_findings *out)
{
	const char *file = conf->path, *path = l->value;
	struct lx_incfile_check c;
	struct lx_error err = {0};
	if (lx_incfile_check(host, nodes, state_dir, id, path, &c, &err) < 0) {
		lx_findings_add(out, LXG043_INCLUDE_NO_RECORD, id, file, l->lineno, NULL,
				lx_xasprintf("%s: lxgpu cannot tell whether %s is current", err.message,
					     path),
				lx_xstrdup("fix or remove the file named (apply rewrites the record)"));
		lx_findings_last_severity(out, LX_SEVERITY_ERROR);
		lx_error_clear(&err);
		return;
	}
	switch (c.state) {
	case LX_INCFILE_MISSING:
		lx_findings_add(out, LXG040_INCLUDE_MISSING, id, file, l->lineno, NULL,
				lx_xasprintf("line %d includes %s, which does not exist: LXC refuses the "
					     "config (\"Failed to parse config file\") and the container "
					     "does not start",
					     l->lineno, path),
				c.record_found ? lx_xstrdup("write it from the GPU record: `lxgpu "
							    "ensure-nodes`")
					       : apply_fix(id, &c, ""));
		break;
	case LX_INCFILE_NOT_OURS: {
		_cleanup_free_ char *force_fix = apply_fix(id, &c, " --force");
		lx_findings_add(out, LXG041_INCLUDE_NOT_OURS, id, file, l->lineno, NULL,
				lx_xasprintf("%s is at lxgpu's include path but lxgpu did not write it "
					     "(its first line is not '%s'): ensure-nodes leaves it alone, "
					     "so numbers in it go stale",
					     path, LX_INCFILE_MARK),
				lx_xasprintf("replace it: %s; or by hand: move its lines into %s",
					     force_fix, file));
		break;
	}
	case LX_INCFILE_NO_RECORD:
		lx_findings_add(out, LXG043_INCLUDE_NO_RECORD, id, file, l->lineno, NULL,
				lx_xasprintf("no GPU record of style include for CT %s: ensure-nodes does "
					     "not rewrite %s, so its numbers go stale at the next change",
					     id, path),
				apply_fix(id, &c, ""));
		break;
	case LX_INCFILE_STALE:
		lx_findings_add(out, LXG042_INCLUDE_STALE, id, file, l->lineno, NULL,
				c.have && c.want
					? lx_xasprintf("%s is not what lxgpu ensure-nodes writes for the "
						       "host now: it has '%s' where the host needs '%s'",
						       path, c.have, c.want)
					: lx_xasprintf("%s is not what lxgpu ensure-nodes writes for the "
						       "host now: it %s '%s'",
						       path, c.have ? "has" : "lacks",
						       c.have ? c.have : c.want),
				lx_xstrdup("rewrite it, then restart the container: `lxgpu "
					   "ensure-nodes`; at every boot the unit this prints does it: "
					   "`lxgpu ensure-nodes --print-boot-unit`"));
		break;
	case LX_INCFILE_CURRENT: break;
	}
	for (size_t i = 0; i < c.want_from.gone.n; i++)
		lx_findings_add(out, LXG044_INCLUDE_GPU_GONE, id, file, l->lineno, NULL,
				lx_xasprintf("%s: lxgpu ensure-nodes leaves it out of %s, so the "
					     "container gets none of it",
					     c.want_from.gone.items[i], path),
				apply_fix(id, &c, ""));
	lx_incfile_check_free(&c);
}

void lx_verify_include_conf(const struct lx_host *host, const struct lx_node_plan *nodes,
			    const char *id, const struct lx_conf *conf, const char *state_dir,
			    struct lx_findings *out)
{
	const struct lx_conf_line *l = lx_incfile_find_line(conf, state_dir);
	if (l)
		check_line(host, nodes, id, conf, l, state_dir, out);
}

int lx_verify_include(const struct lx_host *host, const struct lx_node_plan *nodes, const char *id,
		      const char *config_path, const char *state_dir, struct lx_findings *out,
		      struct lx_error *err)
{
	struct lx_conf conf;
	if (lx_conf_load(config_path, &conf, err) < 0)
		return -1;
	lx_verify_include_conf(host, nodes, id, &conf, state_dir, out);
	lx_conf_free(&conf);
	return 0;
}
