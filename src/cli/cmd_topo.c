/* lxgpu topo: the GPU-to-GPU link matrix, and the closest N GPUs. */
#include "cli.h"
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
	if (!r.n)
		printf("No pair of GPUs bound to nvidia: nothing to check.\n");
	else
		printf("%-11s %-5s %-21s %-13s %s\n", "PAIR", "LINK", "IOMMU", "ACS REDIRECT",
		       "VERDICT");
	for (size_t i = 0; i < r.n; i++) {
		const struct lx_p2p_pair *p = &r.pairs[i];
		_cleanup_free_ char *pair = lx_xasprintf("GPU%zu-GPU%zu", p->gpu[0], p->gpu[1]);
		_cleanup_free_ char *iommu = lx_xasprintf("%s/%s", lx_iommu_type_name(p->iommu[0]),
							  lx_iommu_type_name(p->iommu[1]));
		printf("%-11s %-5s %-21s %-13s %s\n", pair, lx_link_name(p->link), iommu,
		       p->n_bridges ? tristate_word(p->acs_redirect) : "no (via RC)",
		       lx_p2p_verdict_name(p->verdict));
	}
	for (size_t i = 0; i < r.n; i++) {
		const struct lx_p2p_pair *p = &r.pairs[i];
		if (p->verdict == LX_P2P_READY)
			continue;
		printf("\nGPU%zu-GPU%zu (%s, %s): %s\n", p->gpu[0], p->gpu[1], host->gpus[p->gpu[0]].bdf,
		       host->gpus[p->gpu[1]].bdf, lx_p2p_verdict_name(p->verdict));
		for (size_t j = 0; j < p->reasons.n; j++)
			printf("  - %s\n", p->reasons.items[j]);
		for (size_t j = 0; j < p->fixes.n; j++)
			printf("  fix: %s\n", p->fixes.items[j]);
	}
	printf("\nACS REDIRECT: request/completion redirect or egress control on the switch ports\n"
	       "where the pair's traffic turns around; 'via RC' when the GPUs meet only in the\n"
	       "root complex, which their traffic reaches whatever ACS says.\n");
	lx_p2p_report_free(&r);
	return LX_EXIT_OK;
}

static int run_topo(struct cli *cli)
{
	if (cli->n_args)
		return cli_usage_error("topo takes no arguments (got '%s')", cli->args[0]);
	if (cli->p2p && cli->plan.gpus)
		return cli_usage_error("topo: --p2p and --gpus do not go together");
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
	if (cli->p2p) {
		int rc = run_p2p(cli, &host);
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
		printf("%-6s", "");
		for (size_t j = 0; j < n; j++)
			printf(" GPU%-3zu", usable[j]);
		printf(" NUMA  PCI\n");
		for (size_t i = 0; i < n; i++) {
			const struct lx_gpu *a = &host.gpus[usable[i]];
			printf("GPU%-3zu", usable[i]);
			for (size_t j = 0; j < n; j++)
				printf(" %-6s", lx_link_name(lx_gpu_link(a, &host.gpus[usable[j]])));
			if (a->numa_node == LX_UNKNOWN)
				printf(" %-4s  %s\n", "-", a->bdf);
			else
				printf(" %-4d  %s\n", a->numa_node, a->bdf);
		}
		if (!n)
			printf("No GPU bound to nvidia.\n");
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
			printf(" (farthest link %s); use: lxgpu generate --gpus best:%zu\n",
			       lx_link_name(worst), want);
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
	.usage = "Usage: lxgpu topo [--gpus N | --p2p] [--format text|json|yaml]\n"
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
		 "setting). Bridges' ACS needs root to read; as another user it is unknown.\n",
	.options = CLI_OPT_FORMAT | CLI_OPT_GPUS | CLI_OPT_P2P,
	.run = run_topo,
};
