/* lxgpu preflight: will the GPU containers come up, now and after a reboot? */
#include "cli.h"
#include "lxgpu/report.h"
#include "lxgpu/incfile.h"
#include "lxgpu/verify.h"

#include <dirent.h>
#include <string.h>
#include <unistd.h>

struct target {
	char *id;
	char *path;
	bool is_pve;
};

static void add_target(struct target **t, size_t *n, const char *id, const char *path, bool is_pve)
{
	*t = lx_xrealloc(*t, (*n + 1) * sizeof(**t));
	(*t)[(*n)++] = (struct target){lx_xstrdup(id), lx_xstrdup(path), is_pve};
}

/* Every container config of the host (GPU or not: those without GPU lines
 * are skipped later). */
static void all_targets(const struct cli *cli, struct target **t, size_t *n)
{
	_cleanup_free_ char *pve_lxc = lx_path_join(cli->pve_dir, "lxc");
	struct lx_strv names = {0};
	DIR *d = opendir(pve_lxc);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (lx_str_ends_with(de->d_name, ".conf"))
			lx_strv_push_owned(&names, lx_xstrndup(de->d_name, strlen(de->d_name) - 5));
	if (d)
		closedir(d);
	lx_strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s.conf", pve_lxc, names.items[i]);
		add_target(t, n, names.items[i], path, true);
	}
	lx_strv_free(&names);
	d = opendir(cli->lxc_path);
	while (d && (de = readdir(d))) {
		_cleanup_free_ char *config = lx_xasprintf("%s/%s/config", cli->lxc_path, de->d_name);
		_cleanup_free_ char *pve_conf = lx_xasprintf("%s/%s.conf", pve_lxc, de->d_name);
		if (de->d_name[0] != '.' && access(config, R_OK) == 0 && access(pve_conf, F_OK) != 0)
			lx_strv_push(&names, de->d_name);
	}
	if (d)
		closedir(d);
	lx_strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s/config", cli->lxc_path, names.items[i]);
		add_target(t, n, names.items[i], path, false);
	}
	lx_strv_free(&names);
}

static void print_verdict(const char *id, const struct lx_preflight *p, struct lx_doc *list,
			  bool text)
{
	if (text) {
		printf("  %-10s %s\n", id, lx_verdict_name(p->verdict));
		for (size_t i = 0; i < p->n; i++) {
			printf("             - %s%s%s\n", p->reasons[i].verdict == LX_VERDICT_OK ? "note: " : "",
			       p->reasons[i].message, "");
			if (p->reasons[i].fix)
				printf("               fix: %s\n", p->reasons[i].fix);
		}
		return;
	}
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "container", lx_doc_new_str(id));
	lx_doc_map_set(d, "verdict", lx_doc_new_str(lx_verdict_name(p->verdict)));
	struct lx_doc *reasons = lx_doc_new_list();
	for (size_t i = 0; i < p->n; i++) {
		struct lx_doc *r = lx_doc_new_map();
		lx_doc_map_set(r, "verdict", lx_doc_new_str(lx_verdict_name(p->reasons[i].verdict)));
		lx_doc_map_set(r, "message", lx_doc_new_str(p->reasons[i].message));
		lx_doc_map_set(r, "fix", lx_doc_new_str(p->reasons[i].fix));
		lx_doc_list_push(reasons, r);
	}
	lx_doc_map_set(d, "reasons", reasons);
	lx_doc_list_push(list, d);
}

static struct lx_doc *next_boot_doc(const struct lx_next_boot *nb)
{
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "kernel", lx_doc_new_str(nb->kernel));
	lx_doc_map_set(d, "kernel_source", lx_doc_new_str(nb->kernel_source));
	if (nb->module_path) {
		struct lx_doc *m = lx_doc_new_map();
		lx_doc_map_set(m, "path", lx_doc_new_str(nb->module_path));
		lx_doc_map_set(m, "version", lx_doc_new_str(nb->module_version));
		lx_doc_map_set(m, "flavor", lx_doc_new_str(lx_driver_flavor_name(nb->module_flavor)));
		lx_doc_map_set(m, "firmware_present", lx_doc_new_bool(nb->firmware_present));
		lx_doc_map_set(d, "module", m);
	} else {
		lx_doc_map_set(d, "module", lx_doc_new_null());
	}
	lx_doc_map_set(d, "uvm_at_boot", lx_doc_new_bool(nb->uvm_at_boot));
	lx_doc_map_set(d, "uvm_source", lx_doc_new_str(nb->uvm_source));
	return d;
}

static int run_preflight(struct cli *cli)
{
	if (cli->migrate_to)
		return cli_preflight_migration(cli);
	if (cli->exclusive)
		return cli_usage_error("--exclusive is for preflight CTID --to NODE");
	if (cli->print_boot_unit) {
		fputs(lx_boot_unit_text(), stdout);
		return LX_EXIT_OK;
	}
	struct lx_error err = {0};
	struct target *targets = NULL;
	size_t n = 0;
	for (int i = 0; i < cli->n_args; i++) {
		_cleanup_free_ char *path = NULL;
		bool is_pve;
		if (lx_conf_find(cli->pve_dir, cli->lxc_path, cli->args[i], &path, &is_pve, &err) < 0) {
			for (size_t t = 0; t < n; t++)
				free(targets[t].id), free(targets[t].path);
			free(targets);
			return cli_fail(&err);
		}
		add_target(&targets, &n, cli->args[i], path, is_pve);
	}
	if (cli->n_args == 0)
		all_targets(cli, &targets, &n);
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	struct lx_next_boot nb = {0};
	int rc = LX_EXIT_OK;
	if (cli->next_boot && lx_next_boot_inspect(cli->root_dir, cli->kernel, &nb, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	bool text = cli->format == CLI_FORMAT_TEXT;
	struct lx_doc *start_list = lx_doc_new_list(), *boot_list = lx_doc_new_list();
	struct lx_runtime_paths paths = {cli->cgroup_root, "/proc", cli->lxc_path, cli->lxc_config_dir};
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (cli->lxc_config_dir)
		aopts.lxc_config_dir = cli->lxc_config_dir;
	bool any_bad = false;
	for (int pass = 0; pass < (cli->next_boot ? 2 : 1); pass++) {
		if (text && pass == 0)
			printf("Next start (the host as it is now: driver %s):\n",
			       host.driver.version ? host.driver.version : "not loaded");
		if (text && pass == 1) {
			printf("\nAfter a reboot into kernel %s (%s):\n", nb.kernel, nb.kernel_source);
			if (nb.module_path)
				printf("  nvidia %s (%s) from %s%s\n", nb.module_version ? nb.module_version : "?",
				       lx_driver_flavor_name(nb.module_flavor), nb.module_path,
				       nb.module_flavor == LX_FLAVOR_OPEN && !nb.firmware_present
					       ? "; its GSP firmware is missing"
					       : "");
			else
				printf("  no nvidia module for this kernel\n");
			printf("  /dev/nvidia-uvm at boot: %s\n",
			       nb.uvm_at_boot ? nb.uvm_source : "nothing creates it before guests start");
		}
		size_t shown = 0;
		for (size_t i = 0; i < n; i++) {
			struct lx_conf conf;
			if (lx_conf_load(targets[i].path, &conf, &err) < 0) {
				rc = cli_fail(&err);
				continue;
			}
			struct lx_container_config cc;
			lx_container_config_read(&host, targets[i].id, &conf, targets[i].is_pve, &cc);
			if (cc.n_grants == 0 && cli->n_args == 0 &&
			    !lx_incfile_find_line(&conf, cli->state_dir)) {
				lx_container_config_free(&cc);
				lx_conf_free(&conf);
				continue; /* not a GPU container */
			}
			struct lx_strv versions = {0}, files = {0};
			struct lx_running run;
			lx_container_find(&paths, host.cgroup, targets[i].id, &run);
			int root_fd = lx_container_open_root(&paths, targets[i].id, &conf, &run);
			lx_running_free(&run);
			if (root_fd >= 0) {
				lx_rootfs_driver_versions(root_fd, &versions, &files);
				close(root_fd);
			}
			struct lx_preflight p;
			if (pass == 0)
				lx_preflight_next_start(&host, &cc, root_fd >= 0 ? &versions : NULL,
							&aopts, &p);
			else
				lx_preflight_next_boot(&host, &cc, root_fd >= 0 ? &versions : NULL, &nb, &p);
			cli_preflight_include(cli, &host, targets[i].id, &conf, pass == 1 ? &nb : NULL, &p);
			any_bad |= p.verdict != LX_VERDICT_OK;
			print_verdict(targets[i].id, &p, pass == 0 ? start_list : boot_list, text);
			shown++;
			lx_preflight_free(&p);
			lx_strv_free(&versions);
			lx_strv_free(&files);
			lx_container_config_free(&cc);
			lx_conf_free(&conf);
		}
		if (text && !shown)
			printf("  (no GPU containers)\n");
	}
	if (!text) {
		struct lx_doc *doc = lx_doc_new_map();
		lx_doc_map_set(doc, "next_start", start_list);
		if (cli->next_boot) {
			struct lx_doc *b = next_boot_doc(&nb);
			lx_doc_map_set(b, "containers", boot_list);
			lx_doc_map_set(doc, "next_boot", b);
		} else {
			lx_doc_free(boot_list);
		}
		cli_print_doc(cli, doc, 1); /* docs/schema/preflight.json */
	} else {
		lx_doc_free(start_list);
		lx_doc_free(boot_list);
	}
	if (rc == LX_EXIT_OK && any_bad)
		rc = LX_EXIT_FINDINGS;
out:
	lx_next_boot_free(&nb);
	for (size_t t = 0; t < n; t++) {
		free(targets[t].id);
		free(targets[t].path);
	}
	free(targets);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_preflight = {
	.name = "preflight",
	.summary = "will the GPU containers work at their next start, and after a reboot?",
	.usage =
		"Usage: lxgpu preflight [CTID...] [--next-boot [--kernel VER] [--root DIR]]\n"
		"       lxgpu preflight CTID --to NODE [--hosts DIR] [--exclusive]\n"
		"       lxgpu preflight --print-boot-unit\n"
		"\n"
		"For each GPU container (all by default): ok, degraded (starts, but CUDA will\n"
		"not work) or will fail (does not start), with the reasons and fixes, for its\n"
		"next start on the host as it is now; with --next-boot also for the first start\n"
		"after a reboot: the kernel that boots next (proxmox-boot-tool pin, GRUB, or\n"
		"the newest), its nvidia module (version and flavour from .modinfo, without\n"
		"loading it), GSP firmware, open vs proprietary for the GPUs, whether anything\n"
		"creates /dev/nvidia-uvm at boot, and rules that hard-code a dynamic major.\n"
		"\n"
		"  --next-boot         also judge the state after a reboot\n"
		"  --kernel VER        the kernel that will boot (instead of finding it)\n"
		"  --root DIR          read /boot, /lib/modules, /etc, /lib/firmware under DIR\n"
		"  --print-boot-unit   print a systemd unit that creates the nodes at boot\n"
		"  --to NODE           check a migration of CTID to NODE against the host model NODE\n"
		"                      published (lxgpu publish): its GPUs there by PCI address or\n"
		"                      UUID, bound to nvidia and reached by the config, not held by\n"
		"                      a VM there (--exclusive: nor given to a container there);\n"
		"                      the driver there against the container's\n"
		"                      libraries; majors and devN there. Exit 1 (refused) when\n"
		"                      the container would lose its GPUs there\n"
		"  --hosts DIR         NODE's model from DIR/NODE.yaml instead\n"
		"\n"
		"Exit 0 when every container is ok, 1 otherwise, 2 when preflight could not run.\n",
	.options = CLI_OPT_FORMAT | CLI_OPT_PREFLIGHT | CLI_OPT_BOOT_UNIT | CLI_OPT_TO | CLI_OPT_HOSTS |
		   CLI_OPT_EXCLUSIVE,
	.run = run_preflight,
};
