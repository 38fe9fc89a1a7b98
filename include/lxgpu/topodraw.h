/* topodraw: the host's GPU topology as a picture (`topo --format svg|dot`).
 *
 * A layout is computed from the host model alone: a tree drawn from left
 * to right (NUMA node, host bridge, the bridges of each GPU's pcie_path:
 * the root port, then each switch's upstream and downstream ports; the
 * GPUs), and beside it every pair of GPUs bound to nvidia with its link as
 * `topo` names it (lx_gpu_link) and its peer-to-peer verdict as `topo
 * --p2p` judges it (lx_p2p_assess). The layout is then written as SVG
 * (self-contained: no font, script, image or style sheet from elsewhere;
 * presentation attributes only) or as Graphviz DOT (`dot -Tsvg`). */
#ifndef LXGPU_TOPODRAW_H
#define LXGPU_TOPODRAW_H

#include "lxgpu/host.h"

enum lx_picture_format {
	LX_PICTURE_SVG,
	LX_PICTURE_DOT,
};

/* A container whose config gives it a GPU (as audit reads the configs). */
struct lx_gpu_holder {
	char *bdf;
	char *container; /* its id: "101" */
	char *name;      /* its hostname; NULL when it has none */
	char *state;     /* "running", "stopped", ...; NULL when unknown */
};
struct lx_gpu_holders {
	struct lx_gpu_holder *items;
	size_t n;
};
void lx_gpu_holders_add(struct lx_gpu_holders *h, const char *bdf, const char *container,
			const char *name, const char *state);
void lx_gpu_holders_free(struct lx_gpu_holders *h);

/* The picture of the host; holders NULL: containers were not asked for
 * (an empty list: none holds a GPU). Strings from the model and the
 * configs are escaped for the format. */
char *lx_topo_picture(const struct lx_host *host, const struct lx_gpu_holders *holders,
		      enum lx_picture_format format);

#endif
