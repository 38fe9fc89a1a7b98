/* The CLI side of lxgpu's include files: the nodes to judge them by (on the
 * live host, as ensure-nodes makes them; audit and preflight plan once) and
 * verify's check. */
#include "cli.h"
#include "lxgpu/judge.h"
#include "lxgpu/predict.h"

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
