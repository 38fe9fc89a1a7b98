/* preflight CTID --to NODE: a migration judged against the host model
 * that node published (the checks are lx_migration_check's). */
#include "cli.h"
#include "lxgpu/cluster.h"
#include "lxgpu/predict.h"
#include "lxgpu/report.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

static struct lx_doc *migration_doc(const char *id, const char *to, const struct lx_node_model *m,
				    const struct lx_migration *mig, bool refused)
{
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "container", lx_doc_new_str(id));
	lx_doc_map_set(d, "to", lx_doc_new_str(to));
	struct lx_doc *model = lx_doc_new_map();
	const struct lx_publication *p = &m->host.published;
	lx_doc_map_set(model, "file", lx_doc_new_str(m->source));
	lx_doc_map_set(model, "published", p->present ? lx_doc_new_int(p->scanned_at) : lx_doc_new_null());
	lx_doc_map_set(model, "boot_time", p->present ? lx_doc_new_int(p->boot_time) : lx_doc_new_null());
	lx_doc_map_set(model, "node_boot_time", m->node_boot_time == LX_UNKNOWN
							? lx_doc_new_null()
							: lx_doc_new_int(m->node_boot_time));
	lx_doc_map_set(model, "age", lx_doc_new_str(m->age == LX_MODEL_STALE     ? "stale"
						    : m->age == LX_MODEL_CURRENT ? "current"
										 : "unknown"));
	lx_doc_map_set(model, "driver", lx_doc_new_str(m->host.driver.version));
	lx_doc_map_set(d, "model", model);
	struct lx_doc *gpus = lx_doc_new_list();
	for (size_t i = 0; i < mig->n_gpus; i++) {
		const struct lx_migration_gpu *g = &mig->gpus[i];
		struct lx_doc *x = lx_doc_new_map();
		lx_doc_map_set(x, "bdf", lx_doc_new_str(g->bdf));
		lx_doc_map_set(x, "uuid", lx_doc_new_str(g->uuid));
		lx_doc_map_set(x, "there", lx_doc_new_str(g->there_bdf));
		lx_doc_map_set(x, "there_minor", g->there_minor == LX_UNKNOWN ? lx_doc_new_null()
									   : lx_doc_new_int(g->there_minor));
		lx_doc_list_push(gpus, x);
	}
	lx_doc_map_set(d, "gpus", gpus);
	lx_doc_map_set(d, "findings", lx_report_findings_doc(&mig->findings));
	lx_doc_map_set(d, "verdict", lx_doc_new_str(refused ? "refused" : "ok"));
	return d;
}

static void print_migration_text(const struct cli *cli, const char *id, const char *to,
				 const struct lx_node_model *m, const struct lx_migration *mig,
				 bool refused)
{
	_cleanup_free_ char *desc = lx_node_model_describe(m, (long long)time(NULL));
	_cleanup_free_ char *desc_text = lx_text_escape(desc);
	_cleanup_free_ char *to_text = lx_text_escape(to);
	_cleanup_free_ char *version = lx_text_escape(m->host.driver.version ? m->host.driver.version
									  : "not loaded");
	cli_printf_wrapped(cli, 2, "Migration of %s to node %s (its host model: %s; driver %s there):\n",
			   id, to_text, desc_text, version);
	for (size_t i = 0; i < mig->n_gpus; i++) {
		const struct lx_migration_gpu *g = &mig->gpus[i];
		_cleanup_free_ char *there =
			g->there_bdf && g->there_minor != LX_UNKNOWN
				? lx_xasprintf("there as %s, /dev/nvidia%d", g->there_bdf, g->there_minor)
			: g->there_bdf ? lx_xasprintf("there as %s, no /dev/nvidiaN", g->there_bdf)
				       : lx_xstrdup("not there");
		_cleanup_free_ char *model = lx_text_escape(g->model ? g->model : "unknown model");
		cli_printf_wrapped(cli, 4, "  GPU %s (%s): %s\n", g->bdf, model, there);
	}
	if (!mig->n_gpus)
		printf("  (the container has no GPU here)\n");
	if (mig->findings.n) {
		_cleanup_free_ char *text = lx_report_findings_text(&mig->findings, cli->color, cli->wrap_width);
		fputs(text, stdout);
	}
	printf("%s\n", refused ? "refused: the container would not keep its GPUs there"
			      : "ok: the container keeps its GPUs there");
}

int cli_preflight_migration(struct cli *cli)
{
	const char *to = cli->migrate_to;
	if (cli->n_args != 1)
		return cli_usage_error("preflight --to NODE checks one container (CTID --to NODE)");
	if (cli->next_boot)
		return cli_usage_error("preflight --to judges the other node as it is now; it does not "
				       "take --next-boot");
	if (!lx_cluster_node_name_valid(to))
		return cli_usage_error("--to '%s' is not a Proxmox node name (letters, digits, '-')", to);
	const char *id = cli->args[0];
	struct lx_error err = {0};
	_cleanup_free_ char *path = NULL;
	bool is_pve;
	if (lx_conf_find(cli->pve_dir, cli->lxc_path, id, &path, &is_pve, &err) < 0)
		return cli_fail(&err);
	struct lx_node_model model;
	if (lx_node_model_load(cli->pve_dir, cli->hosts_dir, to, &model, &err) < 0)
		return cli_fail(&err);
	if (!model.have) {
		_cleanup_free_ char *published = lx_cluster_model_path(cli->pve_dir, to);
		lx_node_model_free(&model);
		return cli_usage_error("no host model of node %s: %s does not exist; run 'lxgpu "
				       "publish' on %s%s",
				       to, published, to, cli->hosts_dir ? " (nor is it in --hosts)" : "");
	}
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0) {
		lx_node_model_free(&model);
		return LX_EXIT_ERROR;
	}
	int rc = LX_EXIT_OK;
	struct lx_conf conf;
	if (lx_conf_load(path, &conf, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	struct lx_runtime_paths paths = {.cgroup_root = cli->cgroup_root, .proc = "/proc",
					 .lxc_path = cli->lxc_path, .lxc_config_dir = cli->lxc_config_dir,
					 .pve_dir = cli->pve_dir};
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (cli->lxc_config_dir)
		aopts.lxc_config_dir = cli->lxc_config_dir;
	struct lx_running run;
	lx_container_find(&paths, host.cgroup, id, &run);
	int root_fd = lx_container_open_root(&paths, id, &conf, &run);
	lx_running_free(&run);
	struct lx_migration mig;
	lx_migration_check(&host, id, &conf, is_pve, root_fd, &aopts, cli->pve_dir, to, &model,
			   cli->exclusive, (long long)time(NULL), &mig);
	if (root_fd >= 0)
		close(root_fd);
	bool refused = lx_findings_have_errors(&mig.findings);
	cli_fixes_with_context(cli, &mig.findings);
	if (cli->format == CLI_FORMAT_TEXT)
		print_migration_text(cli, id, to, &model, &mig, refused);
	else
		cli_print_doc(cli, migration_doc(id, to, &model, &mig, refused), 1);
	rc = lx_judged_exit_status(refused, false);
	lx_migration_free(&mig);
	lx_conf_free(&conf);
out:
	lx_host_free(&host);
	lx_node_model_free(&model);
	return rc;
}

