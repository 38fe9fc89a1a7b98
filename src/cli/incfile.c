/* The CLI side of lxgpu's include files: verify's check on the live host. */
#include "cli.h"
#include "lxgpu/verify.h"

int cli_verify_include(const struct cli *cli, const struct lx_host *host, const char *id,
		       const char *config_path, struct lx_findings *out, struct lx_error *err)
{
	struct lx_node_plan plan;
	const struct lx_node_plan *nodes = NULL;
	struct lx_error ignored = {0};
	/* A snapshot has no /dev to plan against: its nodes as recorded. */
	if (!cli->host_file &&
	    lx_node_plan_make(host, cli->scan_paths.proc, cli->scan_paths.dev, &plan, &ignored) == 0)
		nodes = &plan;
	lx_error_clear(&ignored);
	int rc = lx_verify_include(host, nodes, id, config_path, cli->state_dir, out, err);
	if (nodes)
		lx_node_plan_free(&plan);
	return rc;
}
