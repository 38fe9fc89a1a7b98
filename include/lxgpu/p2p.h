/* p2p: will peer-to-peer DMA between two GPUs work, from the host model
 * alone (no GPU opened, no NVML)?
 *
 * Two facts decide it beyond the topology NVIDIA's tools look at:
 * - the IOMMU's domain type of each GPU's group: a translating domain
 *   (DMA, DMA-FQ) remaps the peer addresses; `iommu=pt` makes it identity;
 * - ACS on the bridges where the two GPUs' traffic would turn around: a
 *   downstream port of the switch both sit under (the ports directly below
 *   their common bridge) routes a peer request straight to the other port
 *   unless ACS P2P Request/Completion Redirect or Egress Control is set on
 *   it, which sends it up to the root complex. Across root ports the
 *   traffic goes through the root complex whatever ACS says, so no bridge's
 *   ACS changes that path.
 * Unreadable facts (config space as non-root, a group without a type) are
 * unknown, never guessed. */
#ifndef LXGPU_P2P_H
#define LXGPU_P2P_H

#include "lxgpu/host.h"

enum lx_p2p_verdict {
	LX_P2P_READY,     /* no translating IOMMU, no redirecting bridge on the path */
	LX_P2P_NOT_READY, /* something known stands in the way: reasons and fixes say what */
	LX_P2P_UNKNOWN,   /* nothing known in the way, but a fact could not be read */
};

struct lx_p2p_bridge {
	const struct lx_pci_bridge *bridge; /* into the host model; NULL when the model lacks it */
	char *bdf;
	enum lx_tristate redirect; /* RR, CR or EC set in its ACS control register */
};

/* What stands in a pair's way, as bits of lx_p2p_pair.causes (the reasons
 * say it in sentences): for a picture that names each cause in a few words. */
enum lx_p2p_cause {
	LX_P2P_IOMMU_TRANSLATES = 1u << 0, /* a group's domain translates (DMA, DMA-FQ, unmanaged) */
	LX_P2P_IOMMU_BLOCKS = 1u << 1,     /* a group's domain blocks DMA */
	LX_P2P_IOMMU_UNKNOWN = 1u << 2,    /* a group's domain type could not be read */
	LX_P2P_ACS_REDIRECT = 1u << 3,     /* a bridge on the path redirects (bridges[].redirect) */
	LX_P2P_ACS_UNKNOWN = 1u << 4,      /* a bridge's ACS could not be read */
	LX_P2P_CROSS_SOCKET = 1u << 5,     /* SYS: the driver's platform table decides */
};

struct lx_p2p_pair {
	size_t gpu[2]; /* host model indexes, gpu[0] < gpu[1] */
	enum lx_link link;
	enum lx_iommu_type iommu[2];
	/* The bridges whose ACS decides this pair's path (none across root ports). */
	struct lx_p2p_bridge *bridges;
	size_t n_bridges;
	enum lx_tristate acs_redirect;
	enum lx_p2p_verdict verdict;
	unsigned causes;        /* enum lx_p2p_cause bits */
	struct lx_strv reasons; /* one sentence per problem or unknown */
	struct lx_strv fixes;   /* what to do, in order */
};

struct lx_p2p_report {
	struct lx_p2p_pair *pairs; /* every pair of GPUs bound to nvidia, by index */
	size_t n;
};

/* The bridges between two GPUs whose ACS decides their peer path: the
 * first bridge below their common bridge on each GPU's pcie_path; none
 * when the paths share no bridge (they meet in the root complex). */
void lx_p2p_path_bridges(const struct lx_gpu *a, const struct lx_gpu *b, struct lx_strv *out);
/* ACS redirect of one bridge: yes when RR, CR or EC is set (the bits the
 * kernel's pci=disable_acs_redir clears), no when ACS is absent or clear,
 * unsure when its config space could not be read. */
enum lx_tristate lx_p2p_bridge_redirects(const struct lx_pci_bridge *bridge);
/* The bits set in an ACS control register, by their spec names: "SV RR CR
 * UF" ("none" for 0). */
char *lx_acs_control_describe(uint16_t ctrl);
/* Judge one pair / every pair of GPUs bound to nvidia. */
void lx_p2p_assess_pair(const struct lx_host *host, size_t a, size_t b, struct lx_p2p_pair *out);
void lx_p2p_assess(const struct lx_host *host, struct lx_p2p_report *out);
void lx_p2p_pair_free(struct lx_p2p_pair *pair);
void lx_p2p_report_free(struct lx_p2p_report *report);
const char *lx_p2p_verdict_name(enum lx_p2p_verdict v); /* "ready", "not-ready", "unknown" */

struct lx_doc;
/* {pairs: [{gpus, bdfs, link, iommu, acs_redirect, bridges, verdict,
 * reasons, fixes}]} (docs/lxgpu.1.scd, topo --p2p). */
struct lx_doc *lx_p2p_to_doc(const struct lx_host *host, const struct lx_p2p_report *report);

#endif
