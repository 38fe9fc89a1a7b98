/* lxgpu topo: the GPU-to-GPU link matrix, and the closest N GPUs. */
#include "cli.h"
#include "lxgpu/audit.h"
#include "lxgpu/p2p.h"
#include "lxgpu/report.h"

#include <string.h>

static const char legend[] =
	"Legend:\n"
	"  X    = self\n"
	"  SYS  = between NUMA nodes (the socket interconnect, QPI/UPI/Infinity Fabric)\n"
	"  NODE = between PCIe host bridges within one NUMA node\n"
	"  PHB  = through a PCIe host bridge (typically the CPU)\n"
	"  PXB  = through several PCIe bridges, without the host bridge\n"
	"  PIX  = through one PCIe switch\n";

static const char *tristate_word(enum lx_tristate t)
{
	return t == LX_YES ? "yes" : t == LX_NO ? "no" : "unknown";
}

/* topo --p2p: one line per pair, then what stands in the way and the fixes. */
static int run_p2p(struct cli *cli, const struct lx_host *host)
{
	struct lx_p2p_report r;
	lx_p2p_assess(host, &r);
	if (cli->format != CLI_FORMAT_TEXT) {
		struct lx_doc *doc = lx_p2p_to_doc(host, &r);
		cli_print_doc(cli, doc, 1); /* docs/schema/topo.json */
		lx_p2p_report_free(&r);
		return LX_EXIT_OK;
	}
	if (!r.n) {
		printf("No pair of GPUs bound to nvidia: nothing to check.\n");
	} else {
		static const char *const titles[] = {"PAIR", "LINK", "IOMMU", "ACS REDIRECT", "VERDICT"};
		struct lx_table t;
		lx_table_init(&t, 5, titles);
		for (size_t i = 0; i < r.n; i++) {
			const struct lx_p2p_pair *p = &r.pairs[i];
			_cleanup_free_ char *pair = lx_xasprintf("GPU%zu-GPU%zu", p->gpu[0], p->gpu[1]);
			_cleanup_free_ char *iommu = lx_xasprintf("%s/%s", lx_iommu_type_name(p->iommu[0]),
								  lx_iommu_type_name(p->iommu[1]));
			const char *row[] = {pair, lx_link_name(p->link), iommu,
					     p->n_bridges ? tristate_word(p->acs_redirect) : "no (via RC)",
					     lx_p2p_verdict_name(p->verdict)};
			lx_table_add_row(&t, row);
		}
		_cleanup_free_ char *table = lx_table_text(&t, cli->wrap_width, 0);
		lx_table_free(&t);
		fputs(table, stdout);
	}
	/* The pairs that are not ready, those with the same verdict, reasons
	 * and fixes together (the 16 pairs across two sockets of an 8-GPU
	 * host say one thing). */
	bool *told = lx_xcalloc(r.n ? r.n : 1, sizeof(*told));
	for (size_t i = 0; i < r.n; i++) {
		const struct lx_p2p_pair *p = &r.pairs[i];
		if (p->verdict == LX_P2P_READY || told[i])
			continue;
		struct lx_buf head = {0};
		size_t same = 0;
		for (size_t k = i; k < r.n; k++) {
			const struct lx_p2p_pair *q = &r.pairs[k];
			if (told[k] || q->verdict != p->verdict || !lx_strv_equal(&q->reasons, &p->reasons) ||
			    !lx_strv_equal(&q->fixes, &p->fixes))
				continue;
			told[k] = true;
			lx_buf_printf(&head, "%sGPU%zu-GPU%zu", same++ ? ", " : "", q->gpu[0], q->gpu[1]);
		}
		if (same == 1)
			lx_buf_printf(&head, " (%s, %s)", host->gpus[p->gpu[0]].bdf,
				      host->gpus[p->gpu[1]].bdf);
		else
			lx_buf_printf(&head, " (%zu pairs)", same);
		cli_printf_wrapped(cli, 2, "\n%s: %s\n", head.data, lx_p2p_verdict_name(p->verdict));
		lx_buf_free(&head);
		for (size_t j = 0; j < p->reasons.n; j++)
			cli_printf_wrapped(cli, 4, "  - %s\n", p->reasons.items[j]);
		struct lx_buf fixes = {0};
		for (size_t j = 0; j < p->fixes.n; j++) {
			_cleanup_free_ char *fix = cli_with_context(cli, p->fixes.items[j]);
			lx_report_fix_text(&fixes, fix, 2, cli->wrap_width);
		}
		if (fixes.len)
			fputs(fixes.data, stdout);
		lx_buf_free(&fixes);
	}
	free(told);
	cli_print_wrapped(cli,
			  "\nACS REDIRECT: request/completion redirect or egress control on the switch "
			  "ports where the pair's traffic turns around; 'via RC' when the GPUs meet "
			  "only in the root complex, which their traffic reaches whatever ACS says.\n",
			  0);
	lx_p2p_report_free(&r);
	return LX_EXIT_OK;
}

/* topo --format svg|dot: the picture, with --containers the GPUs' holders
 * as audit reads the configs. */
static int run_picture(struct cli *cli, const struct lx_host *host)
{
	struct lx_gpu_holders holders = {0};
	if (cli->containers) {
		struct lx_runtime_paths paths = {cli->cgroup_root, "/proc", cli->lxc_path,
						 cli->lxc_config_dir, cli->pve_dir, cli->subid_root,
						 NULL, NULL, NULL};
		struct lx_audit_options o = {.pve_dir = cli->pve_dir, .lxc_path = cli->lxc_path,
					     .runtime = &paths, .state_dir = cli->state_dir};
		_cleanup_free_ char *node = lx_audit_local_node(cli->pve_dir, host);
		lx_audit_gpu_holders(host, node, &o, &holders);
	}
	_cleanup_free_ char *picture =
		lx_topo_picture(host, cli->containers ? &holders : NULL, cli->picture_format);
	fputs(picture, stdout);
	lx_gpu_holders_free(&holders);
	return LX_EXIT_OK;
}

static int run_topo(struct cli *cli)
{
	if (cli->n_args)
		return cli_usage_error("topo takes no arguments (got '%s')", cli->args[0]);
	if (cli->p2p && cli->plan.gpus)
		return cli_usage_error("topo: --p2p and --gpus do not go together");
	if (cli->containers && !cli->picture)
		return cli_usage_error("topo --containers is for the picture: add --format svg or dot");
	if (cli->picture && (cli->p2p || cli->plan.gpus))
		return cli_usage_error("topo --format svg|dot draws every GPU and pair: without "
				       "--p2p or --gpus");
	size_t want = 0;
	if (cli->plan.gpus) {
		const char *g = lx_str_starts_with(cli->plan.gpus, "best:") ? cli->plan.gpus + 5
									    : cli->plan.gpus;
		unsigned long long v;
		if (!lx_parse_uint(g, 10, 1024, &v) || v == 0)
			return cli_usage_error("topo --gpus N: how many GPUs to choose (got '%s')",
					       cli->plan.gpus);
		want = (size_t)v;
	}
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	if (cli->p2p || cli->picture) {
		int rc = cli->p2p ? run_p2p(cli, &host) : run_picture(cli, &host);
		lx_host_free(&host);
		return rc;
	}
	size_t *usable = lx_xcalloc(host.n_gpus, sizeof(*usable)), n = 0;
	for (size_t i = 0; i < host.n_gpus; i++)
		if (host.gpus[i].driver && strcmp(host.gpus[i].driver, "nvidia") == 0)
			usable[n++] = i;
	size_t *best = NULL;
	struct lx_error err = {0};
	int rc = LX_EXIT_OK;
	if (want && lx_topo_best(&host, want, &best, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	if (cli->format == CLI_FORMAT_TEXT) {
		/* columns as wide as their words: 8 GPUs fit 80 columns */
		struct lx_strv titles = {0}, cells = {0};
		lx_strv_push(&titles, "");
		for (size_t j = 0; j < n; j++)
			lx_strv_push_owned(&titles, lx_xasprintf("GPU%zu", usable[j]));
		lx_strv_push(&titles, "NUMA");
		lx_strv_push(&titles, "PCI");
		struct lx_table t;
		lx_table_init(&t, n + 3, (const char *const *)titles.items);
		for (size_t i = 0; i < n; i++) {
			const struct lx_gpu *a = &host.gpus[usable[i]];
			lx_strv_free(&cells);
			lx_strv_push(&cells, titles.items[i + 1]);
			for (size_t j = 0; j < n; j++)
				lx_strv_push(&cells, lx_link_name(lx_gpu_link(a, &host.gpus[usable[j]])));
			lx_strv_push_owned(&cells, a->numa_node == LX_UNKNOWN
							   ? lx_xstrdup("-")
							   : lx_xasprintf("%d", a->numa_node));
			lx_strv_push(&cells, a->bdf);
			lx_table_add_row(&t, (const char *const *)cells.items);
		}
		if (n) {
			_cleanup_free_ char *table = lx_table_text(&t, cli->wrap_width, 0);
			fputs(table, stdout);
		} else {
			printf("No GPU bound to nvidia.\n");
		}
		lx_table_free(&t);
		lx_strv_free(&titles);
		lx_strv_free(&cells);
		printf("\n%s", legend);
		if (best) {
			enum lx_link worst = LX_LINK_SELF;
			for (size_t i = 0; i < want; i++)
				for (size_t j = i + 1; j < want; j++) {
					enum lx_link l = lx_gpu_link(&host.gpus[best[i]], &host.gpus[best[j]]);
					if (l > worst)
						worst = l;
				}
			printf("\nClosest %zu GPU%s: ", want, want == 1 ? "" : "s");
			for (size_t i = 0; i < want; i++)
				printf("%s%zu", i ? "," : "", best[i]);
			_cleanup_free_ char *use = lx_xasprintf("lxgpu generate --gpus best:%zu", want);
			_cleanup_free_ char *command = cli_command_with_context(cli, use);
			printf(" (farthest link %s); to give them to a container:\n  %s\n",
			       lx_link_name(worst), command);
		}
	} else {
		struct lx_doc *doc = lx_doc_new_map();
		struct lx_doc *gpus = lx_doc_new_list(), *matrix = lx_doc_new_list();
		for (size_t i = 0; i < n; i++) {
			const struct lx_gpu *a = &host.gpus[usable[i]];
			struct lx_doc *g = lx_doc_new_map();
			lx_doc_map_set(g, "index", lx_doc_new_int((long long)usable[i]));
			lx_doc_map_set(g, "bdf", lx_doc_new_str(a->bdf));
			lx_doc_map_set(g, "numa_node", a->numa_node == LX_UNKNOWN
							       ? lx_doc_new_null()
							       : lx_doc_new_int(a->numa_node));
			lx_doc_list_push(gpus, g);
			struct lx_doc *row = lx_doc_new_list();
			for (size_t j = 0; j < n; j++)
				lx_doc_list_push(row, lx_doc_new_str(lx_link_name(
							      lx_gpu_link(a, &host.gpus[usable[j]]))));
			lx_doc_list_push(matrix, row);
		}
		lx_doc_map_set(doc, "gpus", gpus);
		lx_doc_map_set(doc, "matrix", matrix);
		struct lx_doc *chosen = lx_doc_new_list();
		for (size_t i = 0; best && i < want; i++)
			lx_doc_list_push(chosen, lx_doc_new_int((long long)best[i]));
		lx_doc_map_set(doc, "best", best ? chosen : (lx_doc_free(chosen), lx_doc_new_null()));
		cli_print_doc(cli, doc, 1); /* docs/schema/topo.json */
	}
out:
	free(best);
	free(usable);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_topo = {
	.name = "topo",
	.summary = "GPU-to-GPU PCIe/NUMA link matrix; the closest N GPUs",
	.usage = "Usage: lxgpu topo [--gpus N | --p2p] [--format text|json|yaml] [-o FILE]\n"
		 "       lxgpu topo --format svg|dot [--containers] [-o FILE]\n"
		 "\n"
		 "Print how the GPUs bound to nvidia are connected, as 'nvidia-smi topo -m' names\n"
		 "it (X, PIX, PXB, PHB, NODE, SYS), from the PCIe paths in sysfs and the NUMA\n"
		 "nodes, without opening a GPU. --gpus N suggests the N GPUs with the closest\n"
		 "links ('lxgpu generate --gpus best:N' gives them to a container).\n"
		 "\n"
		 "--p2p: for each pair of GPUs, whether peer-to-peer DMA can work: the link, the\n"
		 "IOMMU domain type of each GPU's group (identity, DMA, DMA-FQ, none), ACS\n"
		 "redirect on the switch ports between them, a verdict (ready, not-ready,\n"
		 "unknown) and the fix (iommu=pt, pci=disable_acs_redir=..., the firmware's ACS\n"
		 "setting). Bridges' ACS needs root to read; as another user it is unknown.\n"
		 "\n"
		 "--format svg: the topology as a picture (SVG, self-contained): NUMA nodes, host\n"
		 "bridges, root ports, PCIe switches and GPUs (model, address, device nodes,\n"
		 "IOMMU group and domain type) as a tree, and every pair's link and P2P verdict\n"
		 "as --p2p judges it (the ACS-redirecting ports in red, pairs across sockets\n"
		 "dashed). --format dot: the same as Graphviz input (dot -Tsvg). --containers:\n"
		 "which container holds each GPU, from the configs as audit reads them.\n"
		 "-o FILE writes the output there, replacing the file whole.\n",
	.options = CLI_OPT_FORMAT | CLI_OPT_GPUS | CLI_OPT_P2P | CLI_OPT_PICTURE | CLI_OPT_OUTPUT,
	.run = run_topo,
};
