/* Topology: link kinds from PCIe paths, and choosing the closest GPUs. */
#include "examples.h"
#include "lxgpu/host.h"
#include "tap.h"

static void gpu(struct lx_gpu *g, const char *bdf, int numa, const char *const *path)
{
	memset(g, 0, sizeof(*g));
	g->bdf = lx_xstrdup(bdf);
	g->driver = lx_xstrdup("nvidia");
	g->numa_node = numa;
	g->minor = LX_UNKNOWN;
	for (size_t i = 0; path[i]; i++)
		lx_strv_push(&g->pcie_path, path[i]);
}

int main(int argc, char **argv)
{
	struct lx_host h = {0};
	h.n_gpus = 6;
	h.gpus = lx_xcalloc(h.n_gpus, sizeof(*h.gpus));
	/* A and B under one switch; C one switch further down; D on the same
	 * host bridge, another root port; E on the other socket; F on another
	 * host bridge of socket 0. */
	gpu(&h.gpus[0], "0000:03:00.0", 0,
	    (const char *const[]){"0000:00:01.0", "0000:01:00.0", "0000:02:00.0", NULL});
	gpu(&h.gpus[1], "0000:04:00.0", 0,
	    (const char *const[]){"0000:00:01.0", "0000:01:00.0", "0000:02:01.0", NULL});
	gpu(&h.gpus[2], "0000:07:00.0", 0,
	    (const char *const[]){"0000:00:01.0", "0000:01:00.0", "0000:02:02.0", "0000:05:00.0",
				  "0000:06:00.0", NULL});
	gpu(&h.gpus[3], "0000:09:00.0", 0, (const char *const[]){"0000:00:02.0", NULL});
	gpu(&h.gpus[4], "0000:81:00.0", 1, (const char *const[]){"0000:80:01.0", NULL});
	gpu(&h.gpus[5], "0000:41:00.0", 0, (const char *const[]){"0000:40:01.0", NULL});
	const struct lx_gpu *g = h.gpus;
	str_eq(lx_link_name(lx_gpu_link(&g[0], &g[0])), "X", "self");
	str_eq(lx_link_name(lx_gpu_link(&g[0], &g[1])), "PIX", "one switch");
	str_eq(lx_link_name(lx_gpu_link(&g[0], &g[2])), "PXB", "several bridges");
	str_eq(lx_link_name(lx_gpu_link(&g[0], &g[3])), "PHB", "same host bridge");
	str_eq(lx_link_name(lx_gpu_link(&g[0], &g[4])), "SYS", "other socket");
	str_eq(lx_link_name(lx_gpu_link(&g[0], &g[5])), "NODE", "other host bridge, same node");
	str_eq(lx_link_name(lx_gpu_link(&g[5], &g[0])), "NODE", "symmetric");
	size_t *best;
	struct lx_error err = {0};
	ok(lx_topo_best(&h, 2, &best, &err) == 0 && best[0] == 0 && best[1] == 1, "best:2 is the PIX pair");
	free(best);
	ok(lx_topo_best(&h, 3, &best, &err) == 0 && best[0] == 0 && best[1] == 1 && best[2] == 2,
	   "best:3 stays under the switch");
	free(best);
	ok(lx_topo_best(&h, 7, &best, &err) < 0 && strstr(err.message, "6 GPUs"), "best:7 of 6");
	lx_error_clear(&err);
	free(h.gpus[4].driver);
	h.gpus[4].driver = lx_xstrdup("vfio-pci");
	ok(lx_topo_best(&h, 6, &best, &err) < 0, "vfio-bound GPUs are not chosen");
	lx_error_clear(&err);
	lx_host_free(&h);

	if (argc > 1) {
		load_example(argv[1], "pve-8x-rtx-pro-6000", &h);
		ok(lx_topo_best(&h, 4, &best, &err) == 0 && best[0] == 0 && best[3] == 3,
		   "8-GPU example: best:4 is socket 0");
		free(best);
		str_eq(lx_link_name(lx_gpu_link(&h.gpus[0], &h.gpus[3])), "NODE", "GPU0-GPU3: NODE");
		str_eq(lx_link_name(lx_gpu_link(&h.gpus[3], &h.gpus[4])), "SYS", "GPU3-GPU4: SYS");
		lx_host_free(&h);
	}
	return tap_done();
}
