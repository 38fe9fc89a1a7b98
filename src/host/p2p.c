/* Peer-to-peer readiness per GPU pair: the IOMMU domain types and the ACS
 * redirect bits of the bridges where the pair's traffic turns around. */
#include "lxgpu/p2p.h"
#include "lxgpu/report.h"

#include <string.h>

/* The ACS control bits that make a port send peer traffic upstream (or
 * block it): what the kernel's pci_bridge_has_acs_redir() tests and
 * pci=disable_acs_redir clears. */
#define ACS_REDIRECT_BITS (LX_ACS_RR | LX_ACS_CR | LX_ACS_EC)

static const char *const verdict_names[] = {
	[LX_P2P_READY] = "ready",
	[LX_P2P_NOT_READY] = "not-ready",
	[LX_P2P_UNKNOWN] = "unknown",
};

const char *lx_p2p_verdict_name(enum lx_p2p_verdict v)
{
	return verdict_names[v];
}

void lx_p2p_path_bridges(const struct lx_gpu *a, const struct lx_gpu *b, struct lx_strv *out)
{
	const struct lx_strv *pa = &a->pcie_path, *pb = &b->pcie_path;
	size_t common = 0;
	while (common < pa->n && common < pb->n && strcmp(pa->items[common], pb->items[common]) == 0)
		common++;
	/* No bridge in common: the GPUs meet in the root complex, which every
	 * peer request reaches whatever ACS says on the way. */
	if (common == 0)
		return;
	/* Below the common bridge (a switch's upstream port), each GPU's request
	 * enters the switch at the downstream port above it: that port routes
	 * it to the peer's port, or redirects it upstream. Bridges further down
	 * forward it upstream anyway (the peer is not below them). */
	if (common < pa->n)
		lx_strv_push(out, pa->items[common]);
	if (common < pb->n)
		lx_strv_push(out, pb->items[common]);
}

enum lx_tristate lx_p2p_bridge_redirects(const struct lx_pci_bridge *bridge)
{
	if (!bridge || bridge->acs == LX_ACS_UNKNOWN)
		return LX_UNSURE;
	if (bridge->acs == LX_ACS_ABSENT)
		return LX_NO;
	return (bridge->acs_ctrl & ACS_REDIRECT_BITS) ? LX_YES : LX_NO;
}

char *lx_acs_control_describe(uint16_t ctrl)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} bits[] = {{LX_ACS_SV, "SV"}, {LX_ACS_TB, "TB"}, {LX_ACS_RR, "RR"}, {LX_ACS_CR, "CR"},
		    {LX_ACS_UF, "UF"}, {LX_ACS_EC, "EC"}, {LX_ACS_DT, "DT"}};
	struct lx_buf b = {0};
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (ctrl & bits[i].bit)
			lx_buf_printf(&b, "%s%s", b.len ? " " : "", bits[i].name);
	if (!b.len)
		lx_buf_puts(&b, "none");
	return lx_buf_steal(&b);
}

static void judge_iommu(const struct lx_host *host, struct lx_p2p_pair *p, bool *translates,
			bool *unknown)
{
	for (int k = 0; k < 2; k++) {
		const struct lx_gpu *g = &host->gpus[p->gpu[k]];
		enum lx_iommu_type t = p->iommu[k];
		if (lx_iommu_type_translates(t)) {
			*translates = true;
			p->causes |= LX_P2P_IOMMU_TRANSLATES;
			lx_strv_push_owned(&p->reasons,
					   lx_xasprintf("GPU %zu's IOMMU group %d has domain type %s: "
							"the IOMMU translates its DMA, peer "
							"addresses included",
							p->gpu[k], g->iommu_group,
							lx_iommu_type_name(t)));
		} else if (t == LX_IOMMU_BLOCKED) {
			*translates = true;
			p->causes |= LX_P2P_IOMMU_BLOCKS;
			lx_strv_push_owned(&p->reasons,
					   lx_xasprintf("GPU %zu's IOMMU group %d blocks DMA", p->gpu[k],
							g->iommu_group));
		} else if (t == LX_IOMMU_UNKNOWN) {
			*unknown = true;
			p->causes |= LX_P2P_IOMMU_UNKNOWN;
			lx_strv_push_owned(
				&p->reasons,
				g->iommu_group == LX_UNKNOWN
					? lx_xasprintf("GPU %zu's IOMMU state is unknown", p->gpu[k])
					: lx_xasprintf("the domain type of GPU %zu's IOMMU group %d is "
						       "unknown (kernels before 5.11 have no "
						       "/sys/kernel/iommu_groups/%d/type; snapshots "
						       "of older lxgpu did not record it)",
						       p->gpu[k], g->iommu_group, g->iommu_group));
		}
	}
}

void lx_p2p_assess_pair(const struct lx_host *host, size_t a, size_t b, struct lx_p2p_pair *p)
{
	memset(p, 0, sizeof(*p));
	if (a > b) {
		size_t t = a;
		a = b;
		b = t;
	}
	const struct lx_gpu *ga = &host->gpus[a], *gb = &host->gpus[b];
	p->gpu[0] = a;
	p->gpu[1] = b;
	p->link = lx_gpu_link(ga, gb);
	p->iommu[0] = ga->iommu_type;
	p->iommu[1] = gb->iommu_type;

	struct lx_strv between = {0};
	lx_p2p_path_bridges(ga, gb, &between);
	p->bridges = lx_xcalloc(between.n ? between.n : 1, sizeof(*p->bridges));
	struct lx_strv redirecting = {0}, unreadable = {0};
	struct lx_buf described = {0};
	p->acs_redirect = LX_NO;
	for (size_t i = 0; i < between.n; i++) {
		struct lx_p2p_bridge *pb = &p->bridges[p->n_bridges++];
		pb->bdf = lx_xstrdup(between.items[i]);
		pb->bridge = lx_host_find_bridge(host, pb->bdf);
		pb->redirect = lx_p2p_bridge_redirects(pb->bridge);
		if (pb->redirect == LX_YES) {
			lx_strv_push(&redirecting, pb->bdf);
			_cleanup_free_ char *bits = lx_acs_control_describe(pb->bridge->acs_ctrl);
			lx_buf_printf(&described, "%s%s (ACS control 0x%04x: %s)",
				      described.len ? ", " : "", pb->bdf, pb->bridge->acs_ctrl, bits);
			p->acs_redirect = LX_YES;
		} else if (pb->redirect == LX_UNSURE) {
			lx_strv_push(&unreadable, pb->bdf);
			if (p->acs_redirect == LX_NO)
				p->acs_redirect = LX_UNSURE;
		}
	}
	lx_strv_free(&between);

	bool translates = false, unknown = false;
	judge_iommu(host, p, &translates, &unknown);
	bool type_unknown = unknown;
	if (translates)
		lx_strv_push(&p->fixes,
			     "boot with iommu=pt on the kernel command line: the groups' domain "
			     "type then reads identity and peer addresses pass untranslated");
	if (redirecting.n) {
		p->causes |= LX_P2P_ACS_REDIRECT;
		_cleanup_free_ char *list = lx_strv_join(&redirecting, ";");
		lx_strv_push_owned(&p->reasons,
				   lx_xasprintf("ACS redirect on %s sends the GPUs' peer traffic up "
						"to the root complex instead of across the switch",
						described.data));
		lx_strv_push_owned(&p->fixes,
				   lx_xasprintf("boot with pci=disable_acs_redir=%s (clears request "
						"and completion redirect and egress control on %s)",
						list, redirecting.n > 1 ? "these ports" : "this port"));
		/* Linux sets ACS only when an IOMMU driver asks for it: without
		 * one, the firmware left these bits on. */
		if (p->iommu[0] == LX_IOMMU_NONE && p->iommu[1] == LX_IOMMU_NONE)
			lx_strv_push(&p->fixes,
				     "or turn PCIe ACS off in the firmware (BIOS) setup: with the "
				     "IOMMU off Linux does not set ACS, the firmware did");
	}
	if (unreadable.n) {
		_cleanup_free_ char *list = lx_strv_join(&unreadable, ", ");
		unknown = true;
		p->causes |= LX_P2P_ACS_UNKNOWN;
		lx_strv_push_owned(&p->reasons,
				   lx_xasprintf("the ACS state of %s is unknown: config space past "
						"its first 64 bytes needs the host's CAP_SYS_ADMIN "
						"(root on the host; root in an unprivileged container "
						"reads 64 bytes), and snapshots of older lxgpu did not "
						"record it",
						list));
		lx_strv_push(&p->fixes, "read the bridges' ACS state as root (or take the snapshot as "
					"root): `lxgpu topo --p2p`");
	}
	if (type_unknown && !translates)
		lx_strv_push(&p->fixes, "look on the host itself with a kernel of 5.11 or later "
					"(lxgpu topo --p2p there); with iommu=pt on its command line "
					"the groups are identity");
	/* Across the socket interconnect (SYS) the GPUs share no PCIe switch, and
	 * NVIDIA's driver then decides by its own table of chipsets (open kernel
	 * modules, p2p_caps.c: no common switch, the platform's answer from the
	 * GSP firmware), which the host does not show; many such platforms get
	 * "not supported". Nothing the host shows makes it ready. */
	bool cross_socket = p->link == LX_LINK_SYS && !translates && !redirecting.n;
	if (cross_socket) {
		unknown = true;
		p->causes |= LX_P2P_CROSS_SOCKET;
		lx_strv_push(&p->reasons,
			     "the GPUs are on different CPU sockets (SYS): their peer traffic "
			     "crosses the socket interconnect, where the NVIDIA driver allows or "
			     "refuses peer-to-peer by its own table of platforms, which the host "
			     "does not show");
		lx_strv_push(&p->fixes,
			     "ask the driver on the host (OK or CNS/NS for the pair): `nvidia-smi topo "
			     "-p2p rw`; for peer-to-peer, give the container GPUs of one socket");
	}
	p->verdict = translates || redirecting.n ? LX_P2P_NOT_READY
			 : unknown		  ? LX_P2P_UNKNOWN
						  : LX_P2P_READY;
	lx_strv_free(&redirecting);
	lx_strv_free(&unreadable);
	lx_buf_free(&described);
}

void lx_p2p_assess(const struct lx_host *host, struct lx_p2p_report *out)
{
	memset(out, 0, sizeof(*out));
	size_t *usable = lx_xcalloc(host->n_gpus ? host->n_gpus : 1, sizeof(*usable)), n = 0;
	for (size_t i = 0; i < host->n_gpus; i++)
		if (host->gpus[i].driver && strcmp(host->gpus[i].driver, "nvidia") == 0)
			usable[n++] = i;
	size_t pairs = n * (n ? n - 1 : 0) / 2;
	out->pairs = lx_xcalloc(pairs ? pairs : 1, sizeof(*out->pairs));
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			lx_p2p_assess_pair(host, usable[i], usable[j], &out->pairs[out->n++]);
	free(usable);
}

void lx_p2p_pair_free(struct lx_p2p_pair *p)
{
	for (size_t i = 0; i < p->n_bridges; i++)
		free(p->bridges[i].bdf);
	free(p->bridges);
	lx_strv_free(&p->reasons);
	lx_strv_free(&p->fixes);
	memset(p, 0, sizeof(*p));
}

void lx_p2p_report_free(struct lx_p2p_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		lx_p2p_pair_free(&r->pairs[i]);
	free(r->pairs);
	memset(r, 0, sizeof(*r));
}

static struct lx_doc *tristate_doc(enum lx_tristate t)
{
	return t == LX_UNSURE ? lx_doc_new_null() : lx_doc_new_bool(t == LX_YES);
}

static struct lx_doc *iommu_doc(enum lx_iommu_type t)
{
	return t == LX_IOMMU_UNKNOWN ? lx_doc_new_null() : lx_doc_new_str(lx_iommu_type_name(t));
}

struct lx_doc *lx_p2p_to_doc(const struct lx_host *host, const struct lx_p2p_report *r)
{
	struct lx_doc *root = lx_doc_new_map(), *pairs = lx_doc_new_list();
	for (size_t i = 0; i < r->n; i++) {
		const struct lx_p2p_pair *p = &r->pairs[i];
		struct lx_doc *d = lx_doc_new_map(), *gpus = lx_doc_new_list(), *bdfs = lx_doc_new_list(),
			      *iommu = lx_doc_new_list(), *bridges = lx_doc_new_list();
		for (int k = 0; k < 2; k++) {
			lx_doc_list_push(gpus, lx_doc_new_int((long long)p->gpu[k]));
			lx_doc_list_push(bdfs, lx_doc_new_str(host->gpus[p->gpu[k]].bdf));
			lx_doc_list_push(iommu, iommu_doc(p->iommu[k]));
		}
		for (size_t j = 0; j < p->n_bridges; j++) {
			const struct lx_p2p_bridge *b = &p->bridges[j];
			struct lx_doc *bd = lx_doc_new_map();
			bool present = b->bridge && b->bridge->acs == LX_ACS_PRESENT;
			_cleanup_free_ char *ctrl =
				present ? lx_xasprintf("0x%04x", b->bridge->acs_ctrl) : NULL;
			lx_doc_map_set(bd, "bdf", lx_doc_new_str(b->bdf));
			lx_doc_map_set(bd, "acs", !b->bridge || b->bridge->acs == LX_ACS_UNKNOWN
							 ? lx_doc_new_null()
							 : lx_doc_new_str(lx_acs_state_name(b->bridge->acs)));
			lx_doc_map_set(bd, "acs_control", ctrl ? lx_doc_new_str(ctrl) : lx_doc_new_null());
			lx_doc_map_set(bd, "redirect", tristate_doc(b->redirect));
			lx_doc_list_push(bridges, bd);
		}
		lx_doc_map_set(d, "gpus", gpus);
		lx_doc_map_set(d, "bdfs", bdfs);
		lx_doc_map_set(d, "link", lx_doc_new_str(lx_link_name(p->link)));
		lx_doc_map_set(d, "iommu", iommu);
		lx_doc_map_set(d, "acs_redirect", tristate_doc(p->acs_redirect));
		lx_doc_map_set(d, "bridges", bridges);
		lx_doc_map_set(d, "verdict", lx_doc_new_str(lx_p2p_verdict_name(p->verdict)));
		lx_doc_map_set(d, "reasons", lx_doc_new_str_list(&p->reasons));
		lx_doc_map_set(d, "fixes", lx_doc_new_str_list(&p->fixes));
		lx_doc_list_push(pairs, d);
	}
	lx_doc_map_set(root, "pairs", pairs);
	return root;
}
