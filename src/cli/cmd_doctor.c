/* lxgpu doctor: why CUDA does not start on this host or in one container. */
#include "cli.h"
#include "lxgpu/doctor.h"
#include "lxgpu/report.h"

#include <string.h>

static const char *secure_boot_name(enum lx_secure_boot s)
{
	return s == LX_SECURE_BOOT_ON ? "on" : s == LX_SECURE_BOOT_OFF ? "off" : "unknown";
}

/* doctor --probe's answer; null without --probe */
static struct lx_doc *probe_doc(const struct lx_cuda_probe *p)
{
	if (!p)
		return lx_doc_new_null();
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "library", lx_doc_new_str(p->library));
	lx_doc_map_set(d, "load_error", lx_doc_new_str(p->load_error));
	lx_doc_map_set(d, "cu_init", p->answered ? lx_doc_new_int(p->init) : lx_doc_new_null());
	lx_doc_map_set(d, "cu_init_name", lx_doc_new_str(p->answered ? p->init_name : NULL));
	lx_doc_map_set(d, "devices", p->devices >= 0 ? lx_doc_new_int(p->devices) : lx_doc_new_null());
	lx_doc_map_set(d, "timed_out", lx_doc_new_bool(p->timed_out));
	return d;
}

/* the same inside the container, with why it was not asked */
static struct lx_doc *container_probe_doc(const struct lx_cuda_probe *p)
{
	struct lx_doc *d = probe_doc(p);
	if (p) {
		lx_doc_map_set(d, "running", lx_doc_new_bool(!p->unprobed));
		lx_doc_map_set(d, "enter_error", lx_doc_new_str(p->enter_error));
	}
	return d;
}

static struct lx_doc *host_doc(const struct lx_host *host, const struct lx_host_facts *facts,
			       const struct lx_kmsg *kmsg, const char *kmsg_error)
{
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "hostname", lx_doc_new_str(host->hostname));
	lx_doc_map_set(d, "kernel", lx_doc_new_str(host->kernel));
	struct lx_doc *drv = lx_doc_new_map();
	lx_doc_map_set(drv, "version", lx_doc_new_str(host->driver.version));
	lx_doc_map_set(drv, "flavor", lx_doc_new_str(lx_driver_flavor_name(host->driver.flavor)));
	lx_doc_map_set(d, "driver", drv);
	lx_doc_map_set(d, "gpus", lx_doc_new_int((long long)host->n_gpus));
	/* BAR1 per GPU from sysfs resource: assigned, and its size */
	struct lx_doc *bars = lx_doc_new_list();
	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		const struct lx_pci_bar *b = g->bars_known ? lx_gpu_bar(g, 1) : NULL;
		struct lx_doc *e = lx_doc_new_map();
		lx_doc_map_set(e, "gpu", lx_doc_new_str(g->bdf));
		lx_doc_map_set(e, "assigned", b ? lx_doc_new_bool(lx_pci_bar_assigned(b)) : lx_doc_new_null());
		lx_doc_map_set(e, "size", b && lx_pci_bar_assigned(b) ? lx_doc_new_int((long long)lx_pci_bar_size(b))
								   : lx_doc_new_null());
		lx_doc_list_push(bars, e);
	}
	lx_doc_map_set(d, "bar1", bars);
	lx_doc_map_set(d, "live", lx_doc_new_bool(facts->live));
	if (facts->live) {
		lx_doc_map_set(d, "cmdline", lx_doc_new_str(facts->cmdline));
		lx_doc_map_set(d, "secure_boot", lx_doc_new_str(secure_boot_name(facts->secure_boot)));
		lx_doc_map_set(d, "persistenced", lx_doc_new_bool(facts->persistenced_pid > 0));
		lx_doc_map_set(d, "nvidia_params", lx_nvidia_params_doc(facts->params));
	}
	struct lx_doc *log = lx_doc_new_map();
	lx_doc_map_set(log, "source", lx_doc_new_str(kmsg ? kmsg->source : NULL));
	lx_doc_map_set(log, "read", lx_doc_new_bool(kmsg != NULL));
	if (kmsg) {
		lx_doc_map_set(log, "lines", lx_doc_new_int((long long)kmsg->n));
		lx_doc_map_set(log, "boots", lx_doc_new_int(kmsg->boots));
	}
	lx_doc_map_set(log, "error", lx_doc_new_str(kmsg_error));
	lx_doc_map_set(d, "kernel_log", log);
	return d;
}

static void print_host(FILE *out, const struct lx_host *host, const struct lx_host_facts *facts,
		       const struct lx_kmsg *kmsg, const char *kmsg_error, bool snapshot)
{
	_cleanup_free_ char *name = lx_text_escape(host->hostname ? host->hostname : "?");
	fprintf(out, "Host %s: driver %s%s%s, %zu GPU%s\n", name,
	       host->driver.version ? host->driver.version : "not loaded",
	       host->driver.version ? " " : "",
	       host->driver.version ? lx_driver_flavor_name(host->driver.flavor) : "", host->n_gpus,
	       host->n_gpus == 1 ? "" : "s");
	if (kmsg) {
		_cleanup_free_ char *src = lx_text_escape(kmsg->source);
		fprintf(out, "Kernel log: %s, current boot: %zu line%s", src, kmsg->n, kmsg->n == 1 ? "" : "s");
		if (kmsg->boots > 1)
			fprintf(out, " (the last of %u boots in it; what only an earlier one shows is info)",
				kmsg->boots);
		fprintf(out, "\n");
	} else {
		fprintf(out, "Kernel log: not read (%s)\n",
		       kmsg_error ? kmsg_error : "a snapshot: give the host's saved log with --kmsg FILE");
	}
	bool any_bar = false;
	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		const struct lx_pci_bar *b = g->bars_known ? lx_gpu_bar(g, 1) : NULL;
		if (!b)
			continue;
		fprintf(out, "%s %s ", any_bar ? "," : "BAR1:", g->bdf);
		uint64_t size = lx_pci_bar_assigned(b) ? lx_pci_bar_size(b) : 0;
		if (size >= (1ull << 30))
			fprintf(out, "%llu GiB", (unsigned long long)(size >> 30));
		else if (size)
			fprintf(out, "%llu MiB", (unsigned long long)(size >> 20));
		else
			fprintf(out, "unassigned");
		any_bar = true;
	}
	if (any_bar)
		fprintf(out, "\n");
	if (facts->live)
		fprintf(out, "Secure Boot: %s; nvidia-persistenced: %s\n", secure_boot_name(facts->secure_boot),
		       facts->persistenced_pid > 0 ? "running" : "not running");
	else if (snapshot)
		fprintf(out, "Live facts (command line, Secure Boot, persistence daemon): not checked for a "
		       "snapshot\n");
}

static int run_doctor(struct cli *cli)
{
	if (cli->n_args > 1)
		return cli_usage_error("doctor takes at most one container id");
	if (cli->probe && cli->host_file)
		return cli_usage_error("--probe asks this machine's CUDA: it does not go with --host");
	const char *id = cli->n_args ? cli->args[0] : NULL;
	struct lx_error err = {0};
	_cleanup_free_ char *path = NULL;
	bool is_pve = false;
	if (id && lx_conf_find(cli->pve_dir, cli->lxc_path, id, &path, &is_pve, &err) < 0)
		return cli_fail(&err);
	struct lx_kmsg kmsg = {0};
	bool have_kmsg = false;
	_cleanup_free_ char *kmsg_error = NULL;
	if (cli->kmsg_file) {
		if (lx_kmsg_read_file(cli->kmsg_file, &kmsg, &err) < 0)
			return cli_fail(&err);
		have_kmsg = true;
	}
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0) {
		lx_kmsg_free(&kmsg);
		return LX_EXIT_ERROR;
	}
	/* A snapshot is another host: this machine's /proc, /sys and kernel
	 * log say nothing about it. */
	struct lx_host_facts facts = {0};
	if (!cli->host_file) {
		lx_host_facts_read(&cli->scan_paths, &facts);
		if (!have_kmsg) {
			if (lx_kmsg_read_device("/dev/kmsg", &kmsg, &err) == 0) {
				have_kmsg = true;
			} else {
				kmsg_error = lx_xstrdup(err.message);
				lx_error_clear(&err);
			}
		}
	}
	/* The DRM GPUs' firmware the log asked for, and amdkfd, as this host
	 * has them now (a snapshot holds what its host had) */
	if (!cli->host_file)
		cli_drm_check(cli, &host, have_kmsg ? &kmsg : NULL);
	/* --probe: CUDA asked, in a child with a deadline (after the files
	 * are read: it initializes the GPUs) */
	struct lx_cuda_probe probe = {0};
	bool probed = false;
	if (cli->probe) {
		if (lx_cuda_probe_run("libcuda.so.1", NULL, cli->probe_timeout_s * 1000, &probe, &err) < 0) {
			lx_host_facts_free(&facts);
			lx_kmsg_free(&kmsg);
			lx_host_free(&host);
			return cli_fail(&err);
		}
		probed = true;
	}
	struct lx_findings findings = {0};
	struct lx_doctor_input in = {&host, &facts, have_kmsg ? &kmsg : NULL, kmsg_error,
				     probed ? &probe : NULL, cli->probe_timeout_s * 1000};
	int rc = LX_EXIT_OK;
	struct lx_container_report report = {0};
	struct lx_doctor_userspace user = {0};
	bool have_report = false;
	struct lx_cuda_probe ct_probe = {0};
	bool ct_probed = false;
	if (lx_doctor_host(&in, &findings, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	struct lx_runtime_paths paths = {.cgroup_root = cli->cgroup_root,
					 .proc = "/proc",
					 .lxc_path = cli->lxc_path,
					 .lxc_config_dir = cli->lxc_config_dir,
					 .pve_dir = cli->pve_dir,
					 .subid_root = cli->subid_root};
	if (id) {
		if (lx_doctor_container(&host, id, path, is_pve, &paths, &findings, &report, &user,
					&err) < 0) {
			rc = cli_fail(&err);
			goto out;
		}
		have_report = true;
		/* --probe CTID: CUDA asked inside the container (enter.c), its
		 * code checked against its findings just made */
		if (cli->probe) {
			if (lx_cuda_probe_container(&paths, &host, id, cli->probe_timeout_s * 1000,
						    &ct_probe, &err) < 0) {
				rc = cli_fail(&err);
				goto out;
			}
			ct_probed = true;
			lx_doctor_probe_container(&host, id, &ct_probe, cli->probe_timeout_s * 1000,
						  &findings);
		}
	}
	bool problems = false;
	for (size_t i = 0; i < findings.n; i++)
		problems |= findings.items[i].severity != LX_SEVERITY_INFO;
	cli_fixes_with_context(cli, &findings);
	if (cli->format == CLI_FORMAT_TEXT) {
		/* the facts, wrapped for the terminal as the findings are */
		char *head = NULL;
		size_t head_len = 0;
		FILE *out = open_memstream(&head, &head_len);
		if (!out)
			abort();
		print_host(out, &host, &facts, in.kmsg, kmsg_error, cli->host_file != NULL);
		if (id) {
			_cleanup_free_ char *id_text = lx_text_escape(id);
			_cleanup_free_ char *path_text = lx_text_escape(path);
			fprintf(out, "%s %s (%s): %s; userspace driver libraries: %s",
			       is_pve ? "CT" : "Container", id_text, path_text,
			       report.state == LX_RUN_UNINSPECTABLE ? "could not inspect"
			       : report.running                     ? "running"
								    : "stopped",
			       !user.checked     ? "not checked (its root is not reachable)"
			       : user.versions.n ? ""
						 : "none found");
			for (size_t i = 0; i < user.versions.n; i++)
				fprintf(out, "%s%s%s", i ? ", " : "", user.versions.items[i],
				       host.driver.version && strcmp(user.versions.items[i],
								     host.driver.version) == 0
					       ? " (the module's version)"
					       : " (not the module's version)");
			fprintf(out, "\n");
		}
		fclose(out);
		cli_print_wrapped(cli, head, 2);
		free(head);
		_cleanup_free_ char *text = lx_report_findings_text(&findings, cli->color, cli->wrap_width);
		fputs(text, stdout);
		if (!problems)
			printf("Nothing wrong found%s.\n",
			       in.kmsg ? "" : " (the kernel log was not checked)");
	} else {
		struct lx_doc *doc = lx_doc_new_map();
		lx_doc_map_set(doc, "host", host_doc(&host, &facts, in.kmsg, kmsg_error));
		lx_doc_map_set(doc, "probe", probe_doc(in.probe));
		if (id) {
			struct lx_doc *c = lx_doc_new_map();
			lx_doc_map_set(c, "container", lx_doc_new_str(id));
			lx_doc_map_set(c, "file", lx_doc_new_str(path));
			lx_doc_map_set(c, "state", lx_doc_new_str(lx_run_state_name(report.state)));
			lx_doc_map_set(c, "gpus", lx_doc_new_str_list(&report.gpus));
			lx_doc_map_set(c, "userspace_checked", lx_doc_new_bool(user.checked));
			lx_doc_map_set(c, "userspace_versions", lx_doc_new_str_list(&user.versions));
			lx_doc_map_set(c, "userspace_files", lx_doc_new_str_list(&user.files));
			lx_doc_map_set(c, "probe", container_probe_doc(ct_probed ? &ct_probe : NULL));
			lx_doc_map_set(doc, "container", c);
		}
		lx_doc_map_set(doc, "ok", lx_doc_new_bool(!problems));
		lx_doc_map_set(doc, "findings", lx_report_findings_doc(&findings));
		cli_print_doc(cli, doc, 1); /* docs/schema/doctor.json */
	}
	/* As verify: a container it could not look into is not clean. */
	bool unchecked = have_report && (report.state == LX_RUN_UNINSPECTABLE ||
					 (report.running && !lx_running_devices_complete(&report.devices)));
	rc = lx_judged_exit_status(lx_findings_have_errors(&findings), unchecked);
out:
	if (have_report)
		lx_container_report_free(&report);
	lx_doctor_userspace_free(&user);
	lx_findings_free(&findings);
	lx_host_facts_free(&facts);
	lx_kmsg_free(&kmsg);
	lx_host_free(&host);
	lx_cuda_probe_free(&probe);
	lx_cuda_probe_free(&ct_probe);
	return rc;
}

const struct cli_command cli_cmd_doctor = {
	.name = "doctor",
	.summary = "why CUDA does not start: kernel log, prerequisites, a container",
	.usage = "Usage: lxgpu doctor [CTID] [--kmsg FILE] [--probe [--probe-timeout S]]\n"
		 "                    [--format text|json|yaml]\n"
		 "\n"
		 "Find why CUDA fails on this host (or in one container) without opening a GPU\n"
		 "node (unless --probe): the kernel log of the current boot (/dev/kmsg, or a saved\n"
		 "dmesg / journalctl -k text with --kmsg) matched against a catalogue of known\n"
		 "NVIDIA and kernel messages (docs/kmsg-catalogue.md), each quoted as evidence\n"
		 "with its cause and fix; the host's prerequisites (module loaded and bound,\n"
		 "nvidia-uvm and its nodes with the live majors, GSP firmware, BAR1, Secure Boot,\n"
		 "kernel command line, module parameters, persistence daemon); with CTID, verify's\n"
		 "findings for the container and its userspace driver version against the module.\n"
		 "With --host (a snapshot) only the model and --kmsg are judged. Exit 0 when\n"
		 "nothing is wrong, 1 with errors, 2 when it could not check.\n"
		 "\n"
		 "  --kmsg FILE   a saved kernel log instead of /dev/kmsg\n"
		 "  --probe       also ask CUDA: load this host's libcuda.so.1 in a child process\n"
		 "                and call cuInit(0) and cuDeviceGetCount. It opens the GPU nodes\n"
		 "                and initializes every GPU (seconds per GPU without persistence\n"
		 "                mode); the code it returns is checked against the causes above\n"
		 "                (LXG133). With CTID the same inside the running container, with\n"
		 "                its own libcuda.so.1 and environment, as its root in its\n"
		 "                namespaces and cgroup (nothing is copied in). Not with --host\n"
		 "  --probe-timeout S  kill the probe after S seconds (default 60)\n",
	.options = CLI_OPT_FORMAT | CLI_OPT_KMSG | CLI_OPT_PROBE,
	.run = run_doctor,
};
