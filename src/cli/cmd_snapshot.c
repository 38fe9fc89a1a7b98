/* lxgpu snapshot: save the host model for offline use. */
#include "cli.h"

#include <string.h>

static int run_snapshot(struct cli *cli)
{
	if (cli->n_args > 0)
		return cli_usage_error("snapshot takes no arguments (got '%s'); use -o FILE",
				       cli->args[0]);
	if (!cli->output)
		return cli_usage_error("snapshot needs -o FILE.yaml or -o FILE.tar.gz");
	struct lx_host host;
	struct lx_evidence evidence = {0};
	if (cli_load_host(cli, &host, &evidence) < 0)
		return LX_EXIT_ERROR;
	struct lx_error err = {0};
	int rc = LX_EXIT_OK;
	if (strcmp(cli->output, "-") == 0) {
		char *yaml = lx_snapshot_to_yaml(&host);
		fputs(yaml, stdout);
		free(yaml);
	} else if (lx_snapshot_save(cli->output, &host, &evidence, &err) < 0) {
		rc = cli_fail(&err);
	} else if (cli->verbosity >= 0) {
		fprintf(stderr, "lxgpu: wrote %s (%zu GPUs, %zu nodes)\n", cli->output, host.n_gpus,
			host.n_nodes);
	}
	lx_evidence_free(&evidence);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_snapshot = {
	.name = "snapshot",
	.summary = "save the host model (and its evidence) for offline use",
	.usage = "Usage: lxgpu snapshot -o FILE.yaml|FILE.tar.gz|- [--mig-uuids] [--host FILE]\n"
		 "\n"
		 "Save the host model. FILE.yaml holds the model (docs/schema.md); FILE.tar.gz\n"
		 "is a bundle of that YAML plus the raw /proc files and the /dev listing it was\n"
		 "scanned from. '-' writes the YAML to standard output. Every command reads a\n"
		 "snapshot back with --host FILE. The file is replaced atomically.\n"
		 "\n"
		 "  --mig-uuids   also record the MIG instances' UUIDs (MIG-...), which only\n"
		 "                NVML knows: runs nvidia-smi -L and -q -x, which open the\n"
		 "                device nodes and initialize the GPUs\n",
	.options = CLI_OPT_OUTPUT | CLI_OPT_MIG_UUIDS,
	.own_output = true,
	.run = run_snapshot,
};
