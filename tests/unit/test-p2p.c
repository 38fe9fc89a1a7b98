/* Peer-to-peer readiness on made-up hosts. The expectations come from the
 * PCIe rules, not from lxgpu: a switch routes a request between two of its
 * downstream ports unless ACS P2P Request Redirect (or Completion Redirect
 * for the answers, Egress Control) on the ingress port sends it upstream
 * (PCIe Base spec, ACS: "P2P Request Redirect ... redirect peer-to-peer
 * Requests upstream"); the kernel's pci_bridge_has_acs_redir() tests RR,
 * CR and EC, and pci=disable_acs_redir clears those three. A translating
 * IOMMU domain (DMA, DMA-FQ) remaps every DMA address; identity (iommu=pt)
 * does not. */
#include "lxgpu/p2p.h"
#include "tap.h"

#include <string.h>

static void gpu(struct lx_gpu *g, const char *bdf, int numa, enum lx_iommu_type t,
		const char *const *path)
{
	memset(g, 0, sizeof(*g));
	g->bdf = lx_xstrdup(bdf);
	g->driver = lx_xstrdup("nvidia");
	g->numa_node = numa;
	g->minor = LX_UNKNOWN;
	g->iommu_type = t;
	g->iommu_group = t == LX_IOMMU_NONE ? LX_UNKNOWN : 10;
	for (size_t i = 0; path[i]; i++)
		lx_strv_push(&g->pcie_path, path[i]);
}

static void bridge(struct lx_host *h, const char *bdf, enum lx_acs_state acs, uint16_t ctrl)
{
	h->bridges = lx_xrealloc(h->bridges, (h->n_bridges + 1) * sizeof(*h->bridges));
	h->bridges[h->n_bridges++] = (struct lx_pci_bridge){
		.bdf = lx_xstrdup(bdf), .acs = acs, .acs_cap = acs == LX_ACS_PRESENT ? 0x7f : 0,
		.acs_ctrl = ctrl};
}

static bool has(const struct lx_strv *v, const char *needle)
{
	for (size_t i = 0; i < v->n; i++)
		if (strstr(v->items[i], needle))
			return true;
	return false;
}

int main(void)
{
	struct lx_host h = {0};
	h.n_gpus = 6;
	h.gpus = lx_xcalloc(h.n_gpus, sizeof(*h.gpus));
	/* 0 and 1 under one switch (downstream ports 02:00.0, 02:01.0); 2 one
	 * switch further down below port 02:02.0; 3 on another root port of the
	 * same host bridge; 4 on the other socket; 5 under a second switch. */
	gpu(&h.gpus[0], "0000:03:00.0", 0, LX_IOMMU_IDENTITY,
	    (const char *const[]){"0000:00:01.0", "0000:01:00.0", "0000:02:00.0", NULL});
	gpu(&h.gpus[1], "0000:04:00.0", 0, LX_IOMMU_IDENTITY,
	    (const char *const[]){"0000:00:01.0", "0000:01:00.0", "0000:02:01.0", NULL});
	gpu(&h.gpus[2], "0000:07:00.0", 0, LX_IOMMU_IDENTITY,
	    (const char *const[]){"0000:00:01.0", "0000:01:00.0", "0000:02:02.0", "0000:05:00.0",
				  "0000:06:00.0", NULL});
	gpu(&h.gpus[3], "0000:09:00.0", 0, LX_IOMMU_IDENTITY, (const char *const[]){"0000:00:02.0", NULL});
	gpu(&h.gpus[4], "0000:83:00.0", 1, LX_IOMMU_DMA_FQ,
	    (const char *const[]){"0000:80:01.0", "0000:81:00.0", "0000:82:00.0", NULL});
	gpu(&h.gpus[5], "0000:84:00.0", 1, LX_IOMMU_DMA_FQ,
	    (const char *const[]){"0000:80:01.0", "0000:81:00.0", "0000:82:01.0", NULL});
	/* Sorted by bdf, as the model keeps them. Root ports and the upstream
	 * port redirect (Linux's defaults), which must not matter here. */
	bridge(&h, "0000:00:01.0", LX_ACS_PRESENT, 0x1d);
	bridge(&h, "0000:00:02.0", LX_ACS_PRESENT, 0x1d);
	bridge(&h, "0000:01:00.0", LX_ACS_ABSENT, 0);
	bridge(&h, "0000:02:00.0", LX_ACS_PRESENT, 0x1d); /* SV RR CR UF */
	bridge(&h, "0000:02:01.0", LX_ACS_PRESENT, 0x11); /* SV UF: no redirect */
	bridge(&h, "0000:02:02.0", LX_ACS_PRESENT, 0x01);
	bridge(&h, "0000:05:00.0", LX_ACS_ABSENT, 0);
	bridge(&h, "0000:06:00.0", LX_ACS_PRESENT, 0x1d); /* below the turn: must not matter */
	bridge(&h, "0000:80:01.0", LX_ACS_PRESENT, 0x1d);
	bridge(&h, "0000:81:00.0", LX_ACS_ABSENT, 0);
	bridge(&h, "0000:82:00.0", LX_ACS_UNKNOWN, 0);
	bridge(&h, "0000:82:01.0", LX_ACS_PRESENT, 0x20); /* Egress Control alone */

	struct lx_strv between = {0};
	lx_p2p_path_bridges(&h.gpus[0], &h.gpus[1], &between);
	ok(between.n == 2 && strcmp(between.items[0], "0000:02:00.0") == 0 &&
		   strcmp(between.items[1], "0000:02:01.0") == 0,
	   "one switch: its two downstream ports, not the upstream port or the root port");
	lx_strv_free(&between);
	lx_p2p_path_bridges(&h.gpus[0], &h.gpus[2], &between);
	ok(between.n == 2 && strcmp(between.items[1], "0000:02:02.0") == 0,
	   "nested switch: the top switch's ports, where the request turns");
	lx_strv_free(&between);
	lx_p2p_path_bridges(&h.gpus[0], &h.gpus[3], &between);
	ok(between.n == 0, "different root ports: none (the root complex is on the path anyway)");
	lx_strv_free(&between);

	struct lx_p2p_pair p;
	lx_p2p_assess_pair(&h, 0, 1, &p);
	ok(p.link == LX_LINK_PIX && p.acs_redirect == LX_YES && p.verdict == LX_P2P_NOT_READY,
	   "0-1: RR/CR on 02:00.0: not ready");
	ok(p.fixes.n == 1 && strcmp(p.fixes.items[0], "boot with pci=disable_acs_redir=0000:02:00.0 "
						       "(clears request and completion redirect "
						       "and egress control on this port)") == 0,
	   "the fix names only the redirecting port");
	ok(p.n_bridges == 2 && p.bridges[1].redirect == LX_NO, "02:01.0 (SV UF) does not redirect");
	ok(p.causes == LX_P2P_ACS_REDIRECT, "0-1's cause: ACS redirect alone");
	lx_p2p_pair_free(&p);

	lx_p2p_assess_pair(&h, 1, 2, &p);
	ok(p.acs_redirect == LX_NO && p.verdict == LX_P2P_READY,
	   "1-2: identity, SV-only ports; 06:00.0 below the turn ignored: ready");
	ok(p.causes == 0, "1-2: a ready pair has no cause");
	lx_p2p_pair_free(&p);

	lx_p2p_assess_pair(&h, 3, 1, &p);
	ok(p.gpu[0] == 1 && p.gpu[1] == 3, "pairs are ordered by index");
	ok(p.link == LX_LINK_PHB && p.n_bridges == 0 && p.acs_redirect == LX_NO &&
		   p.verdict == LX_P2P_READY,
	   "1-3 across root ports, identity: ready, whatever ACS the root ports have");
	lx_p2p_pair_free(&p);

	lx_p2p_assess_pair(&h, 4, 5, &p);
	ok(p.link == LX_LINK_PIX && p.acs_redirect == LX_YES && p.verdict == LX_P2P_NOT_READY,
	   "4-5: egress control on 82:01.0 counts (unknown 82:00.0 does not hide it)");
	ok(has(&p.fixes, "iommu=pt") && has(&p.fixes, "pci=disable_acs_redir=0000:82:01.0 ") &&
		   has(&p.reasons, "DMA-FQ") && has(&p.reasons, "0000:82:00.0 is unknown"),
	   "both fixes, the unknown port named");
	ok(!has(&p.fixes, "firmware"), "with an IOMMU on, Linux set ACS: no firmware advice");
	ok(p.causes == (LX_P2P_ACS_REDIRECT | LX_P2P_IOMMU_TRANSLATES | LX_P2P_ACS_UNKNOWN),
	   "4-5's causes: redirect, a translating IOMMU, an unreadable port");
	lx_p2p_pair_free(&p);

	lx_p2p_assess_pair(&h, 3, 4, &p);
	ok(p.link == LX_LINK_SYS && p.verdict == LX_P2P_NOT_READY && p.fixes.n == 1 &&
		   has(&p.fixes, "iommu=pt"),
	   "3-4 across sockets, one side DMA-FQ: iommu=pt only");
	ok(p.causes == LX_P2P_IOMMU_TRANSLATES, "3-4 with DMA-FQ: not also a cross-socket cause");
	lx_p2p_pair_free(&p);
	/* Across sockets with nothing in the way: NVIDIA's driver decides by
	 * its own platform table (open kernel modules, p2p_caps.c: the GPUs
	 * share no PCIe switch), which no host fact shows: unknown, never
	 * ready, and the fix asks the driver. */
	enum lx_iommu_type saved = h.gpus[4].iommu_type;
	h.gpus[4].iommu_type = LX_IOMMU_IDENTITY;
	lx_p2p_assess_pair(&h, 3, 4, &p);
	ok(p.link == LX_LINK_SYS && p.verdict == LX_P2P_UNKNOWN && has(&p.reasons, "CPU sockets") &&
		   has(&p.fixes, "nvidia-smi topo -p2p"),
	   "3-4 across sockets, both identity: unknown (the driver's platform table), ask nvidia-smi");
	ok(p.causes == LX_P2P_CROSS_SOCKET, "3-4 both identity: the cross-socket cause alone");
	lx_p2p_pair_free(&p);
	h.gpus[4].iommu_type = saved;

	/* Unknown alone gives unknown, never ready. */
	h.bridges[10].acs = LX_ACS_UNKNOWN; /* 82:00.0 (already) */
	h.bridges[11].acs = LX_ACS_UNKNOWN; /* 82:01.0 */
	h.gpus[4].iommu_type = h.gpus[5].iommu_type = LX_IOMMU_IDENTITY;
	lx_p2p_assess_pair(&h, 4, 5, &p);
	ok(p.acs_redirect == LX_UNSURE && p.verdict == LX_P2P_UNKNOWN && has(&p.fixes, "as root"),
	   "ACS unreadable on both ports: unknown, read it as root");
	ok(p.causes == LX_P2P_ACS_UNKNOWN, "the unreadable-ACS cause alone");
	lx_p2p_pair_free(&p);

	/* No IOMMU: Linux leaves ACS as the firmware set it. */
	for (size_t i = 0; i < h.n_gpus; i++) {
		h.gpus[i].iommu_type = LX_IOMMU_NONE;
		h.gpus[i].iommu_group = LX_UNKNOWN;
	}
	lx_p2p_assess_pair(&h, 0, 1, &p);
	ok(p.verdict == LX_P2P_NOT_READY && p.fixes.n == 2 && has(&p.fixes, "firmware"),
	   "no IOMMU, redirect on: disable_acs_redir or the firmware's ACS setting");
	lx_p2p_pair_free(&p);
	h.gpus[0].iommu_type = LX_IOMMU_UNKNOWN;
	h.gpus[0].iommu_group = 10;
	lx_p2p_assess_pair(&h, 0, 3, &p);
	ok(p.verdict == LX_P2P_UNKNOWN && has(&p.reasons, "/sys/kernel/iommu_groups/10/type"),
	   "a group without a type file: unknown");
	ok(p.causes == LX_P2P_IOMMU_UNKNOWN, "the unknown-IOMMU cause alone");
	lx_p2p_pair_free(&p);

	struct lx_p2p_report r;
	h.gpus[5].driver[0] = 'x'; /* not bound to nvidia: left out */
	lx_p2p_assess(&h, &r);
	int_eq((long long)r.n, 10, "every pair of the five GPUs bound to nvidia");
	lx_p2p_report_free(&r);
	lx_host_free(&h);
	return tap_done();
}
