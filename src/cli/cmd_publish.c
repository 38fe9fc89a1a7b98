/* lxgpu publish: this node's host model into the cluster file system, for
 * the other nodes' audit --cluster and preflight --to. */
#include "cli.h"
#include "lxgpu/cluster.h"

#include <stdlib.h>
#include <time.h>

static int run_publish(struct cli *cli)
{
	if (cli->n_args > 0)
		return cli_usage_error("publish takes no arguments (got '%s'); the node is --node NAME",
				       cli->args[0]);
	struct lx_error err = {0};
	_cleanup_free_ char *node = cli->node_name ? lx_xstrdup(cli->node_name)
						   : lx_cluster_local_node(&err);
	if (!node)
		return cli_fail(&err);
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	_cleanup_free_ char *written = NULL;
	int rc = LX_EXIT_OK;
	if (lx_publication_stamp(&host, cli->scan_paths.proc, node, (long long)time(NULL), &err) < 0 ||
	    lx_cluster_publish(cli->pve_dir, &host, &written, &err) < 0)
		rc = cli_fail(&err);
	else
		cli_note(cli, "published %s (%zu GPUs, driver %s)", written, host.n_gpus,
			 host.driver.version ? host.driver.version : "not loaded");
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_publish = {
	.name = "publish",
	.summary = "share this node's host model with the cluster (pmxcfs)",
	.usage = "Usage: lxgpu publish [--node NAME] [--mig-uuids] [--pve-dir DIR] [--host FILE]\n"
		 "\n"
		 "Scan this host and write its model (the snapshot YAML, docs/schema.md) to\n"
		 "<pve-dir>/nodes/<node>/lxgpu-host.yaml, stamped with the node's name, its boot\n"
		 "time (/proc/stat btime), boot id and the scan time. pmxcfs copies it to every\n"
		 "node: 'audit --cluster' and 'preflight CTID --to NODE' read it there. The file\n"
		 "is written next to its place and renamed over it (mode 0640, as pmxcfs allows);\n"
		 "pmxcfs takes files up to 1 MiB. lxgpu-publish.service runs this at boot and\n"
		 "when the nvidia module loads or a GPU changes driver (udev).\n"
		 "\n"
		 "  --node NAME   the node's name in the cluster (default: the host name up to\n"
		 "                the first dot, as Proxmox names nodes)\n"
		 "  --mig-uuids   also record the MIG instances' UUIDs (MIG-...), which only\n"
		 "                NVML knows: runs nvidia-smi -L and -q -x, which open the\n"
		 "                device nodes and initialize the GPUs\n"
		 "  --host FILE   publish that snapshot instead of a scan (stamped with this\n"
		 "                host's boot and the time now)\n"
		 "\n"
		 "Exit 0 when published, 2 when not (no nodes/<node> directory, a read-only\n"
		 "cluster file system without quorum, ...).\n",
	.options = CLI_OPT_NODE | CLI_OPT_MIG_UUIDS,
	.run = run_publish,
};
