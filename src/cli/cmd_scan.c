/* lxgpu scan: what the host has. */
#include "cli.h"
#include "lxgpu/report.h"

static int run_scan(struct cli *cli)
{
	if (cli->n_args > 0)
		return cli_usage_error("scan takes no arguments (got '%s')", cli->args[0]);
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	struct lx_host_warnings warnings;
	lx_host_check(&host, &warnings);
	/* the text's fixes' commands with this run's words (the JSON is the
	 * host's model, the same whatever the run's options) */
	for (size_t i = 0; cli->format == CLI_FORMAT_TEXT && i < warnings.n; i++)
		if (warnings.items[i].fix) {
			char *with = cli_with_context(cli, warnings.items[i].fix);
			free(warnings.items[i].fix);
			warnings.items[i].fix = with;
		}
	char *text;
	if (cli->format == CLI_FORMAT_TEXT) {
		text = lx_host_text(&host, &warnings, cli->color, cli->wrap_width);
	} else {
		struct lx_doc *doc = lx_host_to_doc(&host);
		lx_doc_map_set(doc, "warnings", lx_host_warnings_doc(&warnings));
		lx_host_doc_end(doc);
		text = cli->format == CLI_FORMAT_JSON ? lx_doc_to_json_layout(doc, cli->compact) : lx_doc_to_yaml(doc);
		lx_doc_free(doc);
	}
	fputs(text, stdout);
	free(text);
	lx_host_warnings_free(&warnings);
	lx_host_free(&host);
	return LX_EXIT_OK; /* main checks that stdout got it all */
}

const struct cli_command cli_cmd_scan = {
	.name = "scan",
	.summary = "what the host has: GPUs, device nodes, majors, driver, cgroup",
	.usage = "Usage: lxgpu scan [--format text|json|yaml] [--mig-uuids] [--host FILE]\n"
		 "\n"
		 "Scan the host (or read the --host snapshot) and print its GPUs (index, PCI\n"
		 "address, model, device minor, driver, NUMA node), the /dev/nvidia* and DRM\n"
		 "nodes with their majors and modes, the majors from /proc/devices, the driver\n"
		 "(version, open or proprietary, modules, GSP firmware) and warnings.\n"
		 "Never opens a device node: safe on a busy host and from a start hook.\n"
		 "The json and yaml forms follow docs/schema.md.\n"
		 "\n"
		 "  --mig-uuids   also record the MIG instances' UUIDs (MIG-...), which only\n"
		 "                NVML knows: runs nvidia-smi -L and -q -x, which open the\n"
		 "                device nodes and initialize the GPUs\n",
	.options = CLI_OPT_FORMAT | CLI_OPT_MIG_UUIDS,
	.run = run_scan,
};
