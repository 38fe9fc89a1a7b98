/* lxgpu snapshot: save the host model for offline use. */
#include "cli.h"
#include "lxgpu/doctor.h"

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
	/* A live host: what doctor would judge of its DRM GPUs (the firmware
	 * files its kernel log asked for, amdkfd), so that doctor on the
	 * snapshot answers as on the host. A log that cannot be read: nothing
	 * asked for. */
	if (!cli->host_file) {
		struct lx_kmsg kmsg = {0};
		int read = cli->kmsg_file ? lx_kmsg_read_file(cli->kmsg_file, &kmsg, &err)
					  : lx_kmsg_read_device("/dev/kmsg", &kmsg, &err);
		if (read < 0 && cli->kmsg_file) {
			lx_evidence_free(&evidence);
			lx_host_free(&host);
			return cli_fail(&err);
		}
		if (read < 0) {
			cli_verbose(cli, "the kernel log was not read (%s): no firmware requests recorded",
				    err.message);
			lx_error_clear(&err);
		}
		cli_drm_check(cli, &host, read == 0 ? &kmsg : NULL);
		lx_kmsg_free(&kmsg);
	}
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
		 "snapshot back with --host FILE. The file is replaced atomically. Of a live\n"
		 "host it also records what doctor checks of its Intel and AMD GPUs: whether\n"
		 "the firmware files the kernel log says their drivers could not load are there\n"
		 "now, their firmware directories, amdkfd's nodes.\n"
		 "\n"
		 "  --mig-uuids   also record the MIG instances' UUIDs (MIG-...), which only\n"
		 "                NVML knows: runs nvidia-smi -L and -q -x, which open the\n"
		 "                device nodes and initialize the GPUs\n"
		 "  --kmsg FILE   the kernel log to take the firmware requests from (default:\n"
		 "                /dev/kmsg)\n",
	.options = CLI_OPT_OUTPUT | CLI_OPT_MIG_UUIDS | CLI_OPT_KMSG,
	.own_output = true,
	.run = run_snapshot,
};
