/* The host model a command works on: the snapshot --host names, else a
 * live scan of this machine. */
#include "cli.h"
#include "lxgpu/doctor.h"

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

void cli_drm_check(const struct cli *cli, struct lx_host *host, const struct lx_kmsg *log)
{
	struct lx_fw_request *requests;
	size_t n;
	lx_kmsg_firmware_requests(log, &requests, &n);
	lx_host_drm_check(&cli->scan_paths, host, requests, n);
	lx_fw_requests_free(requests, n);
	cli_verbose(cli, "DRM GPUs: %zu firmware file%s the kernel log asked for looked up, %zu vendor "
		    "firmware director%s missing, %zu amdgpu GPU%s without an amdkfd node",
		    host->drm_checks.n_requests, host->drm_checks.n_requests == 1 ? "" : "s",
		    host->drm_checks.missing_dirs.n, host->drm_checks.missing_dirs.n == 1 ? "y" : "ies",
		    host->drm_checks.kfd_missing.n, host->drm_checks.kfd_missing.n == 1 ? "" : "s");
}
