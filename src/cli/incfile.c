/* The CLI side of lxgpu's include files: verify's and preflight's checks,
 * on the live host against the nodes as ensure-nodes makes them. */
#include "cli.h"
#include "lxgpu/verify.h"

bool cli_plan_nodes(const struct cli *cli, const struct lx_host *host, struct lx_node_plan *plan)
{
	struct lx_error ignored = {0};
	bool ok = !cli->host_file &&
		  lx_node_plan_make(host, cli->scan_paths.proc, cli->scan_paths.dev, plan, &ignored) == 0;
	lx_error_clear(&ignored);
	return ok;
}

int cli_verify_include(const struct cli *cli, const struct lx_host *host, const char *id,
		       const char *config_path, struct lx_findings *out, struct lx_error *err)
{
	struct lx_node_plan plan;
	bool planned = cli_plan_nodes(cli, host, &plan);
	int rc = lx_verify_include(host, planned ? &plan : NULL, id, config_path, cli->state_dir, out,
				   err);
	if (planned)
		lx_node_plan_free(&plan);
	return rc;
}

void cli_preflight_include(const struct cli *cli, const struct lx_host *host, const char *id,
			   const struct lx_conf *conf, const struct lx_next_boot *nb,
			   struct lx_preflight *p)
{
	struct lx_node_plan plan;
	bool planned = cli_plan_nodes(cli, host, &plan);
	lx_preflight_include(host, planned ? &plan : NULL, id, conf, cli->state_dir, nb, p);
	if (planned)
		lx_node_plan_free(&plan);
}
