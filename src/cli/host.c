/* The host model a command works on: the snapshot --host names, else a
 * live scan of this machine. */
#include "cli.h"

int cli_load_host(const struct cli *cli, struct lx_host *host, struct lx_evidence *evidence)
{
	struct lx_error err = {0};
	int rc = cli->host_file ? lx_snapshot_load(cli->host_file, host, &err)
				: lx_host_scan(&cli->scan_paths, host, evidence, &err);
	if (rc < 0) {
		cli_fail(&err);
		return -1;
	}
	if (cli->host_file)
		cli_verbose(cli, "host model: the snapshot %s (%zu GPUs, driver %s)", cli->host_file,
			    host->n_gpus, host->driver.version ? host->driver.version : "not loaded");
	else
		cli_verbose(cli, "host model: scanned %s, %s and %s (%zu GPUs, driver %s)",
			    cli->scan_paths.proc, cli->scan_paths.sys, cli->scan_paths.dev, host->n_gpus,
			    host->driver.version ? host->driver.version : "not loaded");
	return 0;
}
