/* The host's GPU topology as a picture: a layout from the host model, then
 * an SVG writer and a DOT writer of that layout. */
#include "lxgpu/p2p.h"
#include "lxgpu/topodraw.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_BOX SIZE_MAX

/* Geometry of the SVG, in pixels. Text is monospace, so a line's width is
 * its characters times CHAR_W at FONT (DejaVu Sans Mono: 0.602 em). */
#define FONT 12.0
#define CHAR_W 7.3
#define LINE_H 15.0
#define PAD 7.0
#define MARGIN 20.0
#define COL_GAP 22.0
#define ROW_GAP 16.0
#define HEAD_H 64.0
#define CELL_W 72.0
#define CELL_H 40.0
#define NOTE_CHARS 66

enum box_kind {
	BOX_NUMA,
	BOX_HOST_BRIDGE,
	BOX_ROOT_PORT,
	BOX_SWITCH,      /* a switch, drawn at its upstream port */
	BOX_SWITCH_PORT, /* a switch's downstream port */
	BOX_GPU,
};

static const char *const box_class[] = {
	[BOX_NUMA] = "numa",
	[BOX_HOST_BRIDGE] = "host-bridge",
	[BOX_ROOT_PORT] = "root-port",
	[BOX_SWITCH] = "switch",
	[BOX_SWITCH_PORT] = "switch-port",
	[BOX_GPU] = "gpu",
};

struct box {
	enum box_kind kind;
	size_t level; /* its column */
	size_t row0, row1; /* the GPU rows it spans: [row0, row1) */
	size_t parent;     /* NO_BOX: a NUMA node */
	char *key;         /* the NUMA node, the host bridge's bus, a bridge's or GPU's address */
	size_t gpu;        /* BOX_GPU: its index in the model */
	struct lx_strv lines; /* the first is its heading */
	bool blocks;       /* a bridge whose ACS redirect stands in a pair's way */
	double x, y, w, h;
};

/* Pairs of one verdict and one cause, told on one line. */
struct note {
	enum lx_p2p_verdict verdict;
	char *cause; /* "" for ready pairs */
	struct lx_strv pairs; /* "0-1" */
};

struct layout {
	const struct lx_host *host;
	const struct lx_gpu_holders *holders;
	struct box *boxes;
	size_t n_boxes;
	size_t n_rows, n_levels; /* the GPUs' column is the last */
	double *col_x, *col_w, row_h;
	size_t *usable; /* the GPUs bound to nvidia: the pairs' rows and columns */
	size_t n_usable;
	struct lx_p2p_report p2p;
	struct note *notes;
	size_t n_notes;
	char *title, *subtitle;
	double panel_x, panel_y, width, height;
};

void lx_gpu_holders_add(struct lx_gpu_holders *h, const char *bdf, const char *container,
			const char *name, const char *state)
{
	h->items = lx_xrealloc(h->items, (h->n + 1) * sizeof(*h->items));
	h->items[h->n++] = (struct lx_gpu_holder){
		.bdf = lx_xstrdup(bdf),
		.container = lx_xstrdup(container),
		.name = name ? lx_xstrdup(name) : NULL,
		.state = state ? lx_xstrdup(state) : NULL,
	};
}

void lx_gpu_holders_free(struct lx_gpu_holders *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->items[i].bdf);
		free(h->items[i].container);
		free(h->items[i].name);
		free(h->items[i].state);
	}
	free(h->items);
	memset(h, 0, sizeof(*h));
}

/* ---- the layout ---- */

/* Characters a line takes (a UTF-8 sequence one; an invalid byte is
 * written as \xNN, four). */
static size_t text_columns(const char *s)
{
	size_t n = 0, left = strlen(s);
	while (left) {
		size_t len = lx_utf8_char_len(s, left);
		n += len ? 1 : 4;
		len = len ? len : 1;
		s += len;
		left -= len;
	}
	return n;
}

struct row_gpu {
	size_t index;
	const struct lx_gpu *gpu;
};

/* Rows in tree order, so that every group is a run of rows: by NUMA node,
 * host bridge, then the bridges of the path, then address. */
static int compare_rows(const void *pa, const void *pb)
{
	const struct lx_gpu *a = ((const struct row_gpu *)pa)->gpu;
	const struct lx_gpu *b = ((const struct row_gpu *)pb)->gpu;
	if (a->numa_node != b->numa_node)
		return a->numa_node < b->numa_node ? -1 : 1;
	const char *ba, *bb;
	size_t la = lx_gpu_root_bus(a, &ba), lb = lx_gpu_root_bus(b, &bb);
	int c = strncmp(ba, bb, la < lb ? la : lb);
	if (c || la != lb)
		return c ? c : la < lb ? -1 : 1;
	for (size_t i = 0; i < a->pcie_path.n && i < b->pcie_path.n; i++)
		if ((c = strcmp(a->pcie_path.items[i], b->pcie_path.items[i])))
			return c;
	if (a->pcie_path.n != b->pcie_path.n)
		return a->pcie_path.n < b->pcie_path.n ? -1 : 1;
	return strcmp(a->bdf, b->bdf);
}

/* A bridge's role by its place on the path. A PCIe link joins two ports:
 * below a root port, or a switch's downstream port, sits one device, an
 * endpoint or a switch's upstream port; so a path from the root port runs
 * root port, upstream, downstream, upstream, ... (PCIe Base spec, the
 * switch as a set of virtual PCI-to-PCI bridges). */
static enum box_kind bridge_kind(size_t depth)
{
	return depth == 0 ? BOX_ROOT_PORT : depth % 2 ? BOX_SWITCH : BOX_SWITCH_PORT;
}

static char *level_key(const struct lx_gpu *g, size_t level)
{
	if (level == 0)
		return lx_xasprintf("%d", g->numa_node);
	if (level == 1) {
		const char *bus;
		size_t len = lx_gpu_root_bus(g, &bus);
		return lx_xstrndup(bus, len);
	}
	return lx_xstrdup(g->pcie_path.items[level - 2]);
}

static size_t add_box(struct layout *l, enum box_kind kind, size_t level, size_t row,
		      size_t parent, char *key)
{
	l->boxes = lx_xrealloc(l->boxes, (l->n_boxes + 1) * sizeof(*l->boxes));
	l->boxes[l->n_boxes] = (struct box){.kind = kind, .level = level, .row0 = row,
					    .row1 = row + 1, .parent = parent, .key = key};
	return l->n_boxes++;
}

static void build_tree(struct layout *l)
{
	const struct lx_host *host = l->host;
	struct row_gpu *rows = lx_xcalloc(host->n_gpus ? host->n_gpus : 1, sizeof(*rows));
	size_t depth = 0;
	for (size_t i = 0; i < host->n_gpus; i++) {
		rows[i] = (struct row_gpu){i, &host->gpus[i]};
		if (host->gpus[i].pcie_path.n > depth)
			depth = host->gpus[i].pcie_path.n;
	}
	qsort(rows, host->n_gpus, sizeof(*rows), compare_rows);
	l->n_rows = host->n_gpus;
	l->n_levels = depth + 3; /* NUMA, host bridge, the bridges, the GPUs */
	size_t *open = lx_xcalloc(l->n_levels, sizeof(*open));
	for (size_t L = 0; L < l->n_levels; L++)
		open[L] = NO_BOX;
	for (size_t r = 0; r < l->n_rows; r++) {
		const struct lx_gpu *g = rows[r].gpu;
		size_t parent = NO_BOX, levels = g->pcie_path.n + 2;
		for (size_t L = 0; L < levels; L++) {
			char *key = level_key(g, L);
			size_t o = open[L];
			if (o != NO_BOX && l->boxes[o].parent == parent && l->boxes[o].row1 == r &&
			    strcmp(l->boxes[o].key, key) == 0) {
				l->boxes[o].row1 = r + 1;
				free(key);
			} else {
				enum box_kind kind = L == 0 ? BOX_NUMA
						     : L == 1 ? BOX_HOST_BRIDGE
							      : bridge_kind(L - 2);
				open[L] = add_box(l, kind, L, r, parent, key);
			}
			parent = open[L];
		}
		for (size_t L = levels; L < l->n_levels; L++)
			open[L] = NO_BOX;
		size_t b = add_box(l, BOX_GPU, l->n_levels - 1, r, parent, lx_xstrdup(g->bdf));
		l->boxes[b].gpu = rows[r].index;
	}
	free(open);
	free(rows);
}

/* The pairs' causes in a few words, from what lx_p2p_assess found. */
static char *pair_cause(const struct lx_host *host, const struct lx_p2p_pair *p)
{
	struct lx_buf b = {0};
	if (p->causes & LX_P2P_ACS_REDIRECT) {
		lx_buf_puts(&b, "blocked by ACS redirect at ");
		for (size_t i = 0, n = 0; i < p->n_bridges; i++)
			if (p->bridges[i].redirect == LX_YES)
				lx_buf_printf(&b, "%s%s", n++ ? ", " : "", p->bridges[i].bdf);
	}
	for (int k = 0; k < 2; k++) {
		const struct lx_gpu *g = &host->gpus[p->gpu[k]];
		if (lx_iommu_type_translates(p->iommu[k]) || p->iommu[k] == LX_IOMMU_BLOCKED)
			lx_buf_printf(&b, "%sIOMMU group %d of GPU %zu is %s", b.len ? "; " : "",
				      g->iommu_group, p->gpu[k], lx_iommu_type_name(p->iommu[k]));
	}
	if (p->causes & LX_P2P_IOMMU_UNKNOWN)
		lx_buf_printf(&b, "%sIOMMU domain type unknown", b.len ? "; " : "");
	if (p->causes & LX_P2P_ACS_UNKNOWN) {
		lx_buf_printf(&b, "%sACS unknown at ", b.len ? "; " : "");
		for (size_t i = 0, n = 0; i < p->n_bridges; i++)
			if (p->bridges[i].redirect == LX_UNSURE)
				lx_buf_printf(&b, "%s%s", n++ ? ", " : "", p->bridges[i].bdf);
		lx_buf_puts(&b, " (read as root)");
	}
	if (p->causes & LX_P2P_CROSS_SOCKET)
		lx_buf_printf(&b, "%sacross sockets (SYS): the NVIDIA driver decides",
			      b.len ? "; " : "");
	return lx_buf_steal(&b);
}

static void build_pairs(struct layout *l)
{
	const struct lx_host *host = l->host;
	l->usable = lx_xcalloc(host->n_gpus ? host->n_gpus : 1, sizeof(*l->usable));
	for (size_t i = 0; i < host->n_gpus; i++)
		if (host->gpus[i].driver && strcmp(host->gpus[i].driver, "nvidia") == 0)
			l->usable[l->n_usable++] = i;
	lx_p2p_assess(host, &l->p2p);
	for (size_t i = 0; i < l->p2p.n; i++) {
		const struct lx_p2p_pair *p = &l->p2p.pairs[i];
		char *cause = pair_cause(host, p);
		struct note *n = NULL;
		for (size_t k = 0; k < l->n_notes && !n; k++)
			if (l->notes[k].verdict == p->verdict && strcmp(l->notes[k].cause, cause) == 0)
				n = &l->notes[k];
		if (n) {
			free(cause);
		} else {
			l->notes = lx_xrealloc(l->notes, (l->n_notes + 1) * sizeof(*l->notes));
			n = &l->notes[l->n_notes++];
			*n = (struct note){.verdict = p->verdict, .cause = cause};
		}
		lx_strv_push_owned(&n->pairs, lx_xasprintf("%zu-%zu", p->gpu[0], p->gpu[1]));
	}
}

/* The pairs a redirecting bridge blocks: "0-1, 2-3". */
static char *blocked_pairs(const struct layout *l, const char *bdf)
{
	struct lx_strv pairs = {0};
	for (size_t i = 0; i < l->p2p.n; i++) {
		const struct lx_p2p_pair *p = &l->p2p.pairs[i];
		for (size_t j = 0; j < p->n_bridges; j++)
			if (p->bridges[j].redirect == LX_YES && strcmp(p->bridges[j].bdf, bdf) == 0) {
				lx_strv_push_owned(&pairs, lx_xasprintf("%zu-%zu", p->gpu[0], p->gpu[1]));
				break;
			}
	}
	char *s = pairs.n ? lx_strv_join(&pairs, ", ") : NULL;
	lx_strv_free(&pairs);
	return s;
}

static char *acs_line(const struct lx_host *host, const char *bdf)
{
	const struct lx_pci_bridge *br = lx_host_find_bridge(host, bdf);
	if (!br || br->acs == LX_ACS_UNKNOWN)
		return lx_xstrdup("ACS: unknown");
	if (br->acs == LX_ACS_ABSENT)
		return lx_xstrdup("ACS: absent");
	_cleanup_free_ char *bits = lx_acs_control_describe(br->acs_ctrl);
	return lx_xasprintf("ACS ctrl: %s", bits);
}

static void gpu_lines(const struct layout *l, const struct lx_gpu *g, size_t index,
		      struct lx_strv *lines)
{
	lx_strv_push_owned(lines, lx_xasprintf("GPU %zu  %s", index, g->bdf));
	const char *vendor = lx_gpu_vendor_name(g);
	if (g->model)
		lx_strv_push(lines, g->model);
	else if (vendor)
		lx_strv_push_owned(lines, lx_xasprintf("%s device 0x%04x", vendor, g->device_id));
	else
		lx_strv_push_owned(lines, lx_xasprintf("device %04x:%04x", g->vendor_id,
						       g->device_id));
	struct lx_buf nodes = {0};
	if (lx_gpu_kind(g) == LX_GPU_NVIDIA && g->minor != LX_UNKNOWN)
		lx_buf_printf(&nodes, "/dev/nvidia%d", g->minor);
	else
		for (size_t i = 0; i < g->n_drm && lx_gpu_kind(g) == LX_GPU_DRM; i++)
			lx_buf_printf(&nodes, "%s/dev/dri/%s", nodes.len ? " " : "", g->drm[i].name);
	lx_buf_printf(&nodes, "%s%s", nodes.len ? "  " : "",
		      !g->driver			 ? "no driver"
		      : strcmp(g->driver, "vfio-pci") == 0 ? "vfio-pci (for VMs)"
							   : g->driver);
	lx_strv_push_owned(lines, lx_buf_steal(&nodes));
	if (g->iommu_type == LX_IOMMU_NONE || g->iommu_group == LX_UNKNOWN)
		lx_strv_push(lines, "IOMMU off");
	else if (g->iommu_type == LX_IOMMU_UNKNOWN)
		lx_strv_push_owned(lines, lx_xasprintf("IOMMU group %d, type unknown",
						       g->iommu_group));
	else
		lx_strv_push_owned(lines, lx_xasprintf("IOMMU group %d: %s", g->iommu_group,
						       lx_iommu_type_name(g->iommu_type)));
	if (!l->holders)
		return;
	size_t held = 0;
	for (size_t i = 0; i < l->holders->n; i++) {
		const struct lx_gpu_holder *h = &l->holders->items[i];
		if (strcmp(h->bdf, g->bdf) != 0)
			continue;
		held++;
		struct lx_buf b = {0};
		lx_buf_printf(&b, "CT %s", h->container);
		if (h->name)
			lx_buf_printf(&b, " %s", h->name);
		if (h->state)
			lx_buf_printf(&b, " (%s)", h->state);
		lx_strv_push_owned(lines, lx_buf_steal(&b));
	}
	if (!held)
		lx_strv_push(lines, "no container");
}

static void box_lines(struct layout *l, struct box *b)
{
	const struct lx_host *host = l->host;
	size_t gpus = b->row1 - b->row0;
	switch (b->kind) {
	case BOX_NUMA:
		if (strcmp(b->key, "-1") == 0) {
			lx_strv_push(&b->lines, "NUMA node -");
			lx_strv_push(&b->lines, "(none given)");
		} else {
			lx_strv_push_owned(&b->lines, lx_xasprintf("NUMA node %s", b->key));
		}
		lx_strv_push_owned(&b->lines, lx_xasprintf("%zu GPU%s", gpus, gpus == 1 ? "" : "s"));
		break;
	case BOX_HOST_BRIDGE:
		lx_strv_push(&b->lines, "host bridge");
		lx_strv_push_owned(&b->lines, lx_xasprintf("bus %s", b->key));
		break;
	case BOX_ROOT_PORT:
	case BOX_SWITCH_PORT: {
		lx_strv_push(&b->lines, b->kind == BOX_ROOT_PORT ? "root port" : "switch port");
		lx_strv_push(&b->lines, b->key);
		lx_strv_push_owned(&b->lines, acs_line(host, b->key));
		char *blocked = blocked_pairs(l, b->key);
		if (blocked) {
			b->blocks = true;
			lx_strv_push_owned(&b->lines, lx_xasprintf("redirects P2P %s", blocked));
			free(blocked);
		}
		break;
	}
	case BOX_SWITCH:
		lx_strv_push(&b->lines, "PCIe switch");
		lx_strv_push(&b->lines, "upstream port");
		lx_strv_push(&b->lines, b->key);
		break;
	case BOX_GPU:
		gpu_lines(l, &host->gpus[b->gpu], b->gpu, &b->lines);
		break;
	}
}

static double row_y(const struct layout *l, size_t row)
{
	return HEAD_H + (double)row * (l->row_h + ROW_GAP);
}

static void place(struct layout *l)
{
	size_t most_lines = 4;
	l->col_x = lx_xcalloc(l->n_levels + 1, sizeof(*l->col_x));
	l->col_w = lx_xcalloc(l->n_levels + 1, sizeof(*l->col_w));
	for (size_t i = 0; i < l->n_boxes; i++) {
		struct box *b = &l->boxes[i];
		box_lines(l, b);
		if (b->kind == BOX_GPU && b->lines.n > most_lines)
			most_lines = b->lines.n;
		for (size_t j = 0; j < b->lines.n; j++) {
			double w = (double)text_columns(b->lines.items[j]) * CHAR_W + 2 * PAD;
			if (w > l->col_w[b->level])
				l->col_w[b->level] = w;
		}
	}
	l->row_h = (double)most_lines * LINE_H + 2 * PAD;
	/* A switch's frame takes the room of the gap on each side. */
	double x = MARGIN;
	for (size_t L = 0; L < l->n_levels; L++) {
		l->col_x[L] = x;
		x += l->col_w[L] + (l->col_w[L] > 0 ? COL_GAP : 0);
	}
	for (size_t i = 0; i < l->n_boxes; i++) {
		struct box *b = &l->boxes[i];
		b->x = l->col_x[b->level];
		b->w = l->col_w[b->level];
		b->y = row_y(l, b->row0);
		b->h = row_y(l, b->row1 - 1) + l->row_h - b->y;
	}
	l->panel_x = x + 2 * COL_GAP;
	l->panel_y = HEAD_H;
}

static void layout_make(struct layout *l, const struct lx_host *host,
			const struct lx_gpu_holders *holders)
{
	memset(l, 0, sizeof(*l));
	l->host = host;
	l->holders = holders;
	build_pairs(l);
	build_tree(l);
	place(l);
	size_t usable = l->n_usable;
	l->title = lx_xasprintf("GPU topology of %s", host->hostname ? host->hostname : "a host");
	l->subtitle = lx_xasprintf("kernel %s, NVIDIA driver %s, %zu GPU%s (%zu bound to nvidia)",
				   host->kernel ? host->kernel : "unknown",
				   host->driver.version ? host->driver.version : "not loaded",
				   host->n_gpus, host->n_gpus == 1 ? "" : "s", usable);
}

static void layout_free(struct layout *l)
{
	for (size_t i = 0; i < l->n_boxes; i++) {
		free(l->boxes[i].key);
		lx_strv_free(&l->boxes[i].lines);
	}
	free(l->boxes);
	for (size_t i = 0; i < l->n_notes; i++) {
		free(l->notes[i].cause);
		lx_strv_free(&l->notes[i].pairs);
	}
	free(l->notes);
	free(l->col_x);
	free(l->col_w);
	free(l->usable);
	lx_p2p_report_free(&l->p2p);
	free(l->title);
	free(l->subtitle);
}

static const struct lx_p2p_pair *find_pair(const struct layout *l, size_t a, size_t b)
{
	if (a > b) {
		size_t t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < l->p2p.n; i++)
		if (l->p2p.pairs[i].gpu[0] == a && l->p2p.pairs[i].gpu[1] == b)
			return &l->p2p.pairs[i];
	return NULL;
}

/* A note as lines of at most NOTE_CHARS: its verdict and cause, then the
 * pairs. */
static void note_lines(const struct note *n, struct lx_strv *out)
{
	struct lx_buf b = {0};
	lx_buf_printf(&b, "%s (%zu pair%s)%s%s", lx_p2p_verdict_name(n->verdict), n->pairs.n,
		      n->pairs.n == 1 ? "" : "s", n->cause[0] ? ": " : "", n->cause);
	lx_strv_push_owned(out, lx_buf_steal(&b));
	for (size_t i = 0; i < n->pairs.n; i++) {
		if (b.len && b.len + 1 + strlen(n->pairs.items[i]) > NOTE_CHARS - 2) {
			lx_strv_push_owned(out, lx_buf_steal(&b));
		}
		lx_buf_printf(&b, "%s%s", b.len ? " " : "  ", n->pairs.items[i]);
	}
	if (b.len)
		lx_strv_push_owned(out, lx_buf_steal(&b));
}

/* ---- writing: escapes ---- */

/* Text from the model or a config, as XML character data or attribute
 * value (also Graphviz's HTML-like labels): invalid UTF-8 and control
 * characters as \xNN first, then the markup characters. */
static void xml_text(struct lx_buf *b, const char *s)
{
	_cleanup_free_ char *safe = lx_text_escape(s);
	for (const char *p = safe; *p; p++)
		switch (*p) {
		case '&': lx_buf_puts(b, "&amp;"); break;
		case '<': lx_buf_puts(b, "&lt;"); break;
		case '>': lx_buf_puts(b, "&gt;"); break;
		case '"': lx_buf_puts(b, "&quot;"); break;
		case '\'': lx_buf_puts(b, "&#39;"); break;
		default: lx_buf_append(b, p, 1);
		}
}

/* ---- SVG ---- */

static const char *const verdict_fill[] = {
	[LX_P2P_READY] = "#d8f0d2",
	[LX_P2P_NOT_READY] = "#f6c9c9",
	[LX_P2P_UNKNOWN] = "#fbe6b8",
};
static const char *const verdict_stroke[] = {
	[LX_P2P_READY] = "#3d8b37",
	[LX_P2P_NOT_READY] = "#c62828",
	[LX_P2P_UNKNOWN] = "#b7791f",
};

static void svg_text(struct lx_buf *b, double x, double y, double size, bool bold,
		     const char *fill, const char *anchor, const char *text)
{
	lx_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\"%s fill=\"%s\"%s%s%s>", x, y,
		      size, bold ? " font-weight=\"bold\"" : "", fill, anchor ? " text-anchor=\"" : "",
		      anchor ? anchor : "", anchor ? "\"" : "");
	xml_text(b, text);
	lx_buf_puts(b, "</text>\n");
}

static const char *box_fill(const struct layout *l, const struct box *b)
{
	if (b->blocks)
		return "#fde2e2";
	switch (b->kind) {
	case BOX_NUMA: return "#fff7e0";
	case BOX_HOST_BRIDGE: return "#eef1f5";
	case BOX_GPU: return lx_gpu_usable(&l->host->gpus[b->gpu]) ? "#e3eefc" : "#ececec";
	default: return "#f8f9fa";
	}
}

static void svg_box(const struct layout *l, size_t i, struct lx_buf *b);

static void svg_children(const struct layout *l, size_t i, struct lx_buf *b)
{
	const struct box *p = &l->boxes[i];
	for (size_t c = 0; c < l->n_boxes; c++) {
		if (l->boxes[c].parent != i)
			continue;
		const struct box *k = &l->boxes[c];
		/* the connector: from the parent's right edge to the child, at
		 * the middle of the child's rows */
		double y = k->y + (k->kind == BOX_GPU ? l->row_h / 2 : k->h / 2);
		lx_buf_printf(b,
			      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			      "stroke=\"#6b7280\" stroke-width=\"1.2\"/>\n",
			      p->x + p->w, y, k->x, y);
		svg_box(l, c, b);
	}
}

static void svg_box(const struct layout *l, size_t i, struct lx_buf *b)
{
	const struct box *x = &l->boxes[i];
	lx_buf_printf(b, "<g class=\"%s\"", box_class[x->kind]);
	if (x->kind == BOX_NUMA)
		lx_buf_printf(b, " data-numa=\"%s\"", x->key);
	else if (x->kind == BOX_HOST_BRIDGE)
		lx_buf_printf(b, " data-bus=\"%s\"", x->key);
	else
		lx_buf_printf(b, " data-bdf=\"%s\"", x->key);
	if (x->kind == BOX_GPU)
		lx_buf_printf(b, " data-index=\"%zu\"", x->gpu);
	if (x->blocks)
		lx_buf_puts(b, " data-blocks=\"p2p\"");
	lx_buf_puts(b, ">\n");
	if (x->kind == BOX_SWITCH) {
		/* the switch's frame: its upstream port and the column of its
		 * downstream ports */
		double right = x->level + 1 < l->n_levels - 1
				       ? l->col_x[x->level + 1] + l->col_w[x->level + 1]
				       : x->x + x->w;
		lx_buf_printf(b,
			      "<rect class=\"switch-frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			      "height=\"%.1f\" rx=\"8\" fill=\"none\" stroke=\"#4b5563\" "
			      "stroke-width=\"1.2\" stroke-dasharray=\"5 3\"/>\n",
			      x->x - 6, x->y - 6, right - x->x + 12, x->h + 12);
	}
	const char *stroke = x->blocks ? "#c62828" : x->kind == BOX_GPU ? "#1d4ed8" : "#9ca3af";
	lx_buf_printf(b,
		      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"5\" "
		      "fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
		      x->x, x->y, x->w, x->h, box_fill(l, x), stroke, x->blocks ? "2" : "1");
	/* A box spanning several rows has its words at the top. */
	double ty = x->y + PAD + FONT;
	for (size_t j = 0; j < x->lines.n; j++, ty += LINE_H) {
		const char *line = x->lines.items[j];
		bool red = x->blocks && lx_str_starts_with(line, "redirects P2P");
		bool holder = x->kind == BOX_GPU && l->holders && j >= 4;
		svg_text(b, x->x + PAD, ty, FONT, j == 0 || red,
			 red ? "#c62828" : holder ? "#7c2d92" : j == 0 ? "#111827" : "#374151", NULL,
			 line);
	}
	svg_children(l, i, b);
	lx_buf_puts(b, "</g>\n");
}

static double svg_panel(const struct layout *l, struct lx_buf *b)
{
	double x = l->panel_x, y = l->panel_y + FONT;
	lx_buf_puts(b, "<g class=\"pairs\">\n");
	svg_text(b, x, y, 14, true, "#111827", NULL, "GPU pairs: link and peer-to-peer verdict");
	y += 8;
	size_t n = l->n_usable;
	if (n < 2) {
		y += LINE_H + 4;
		svg_text(b, x, y, FONT, false, "#374151", NULL,
			 n ? "One GPU bound to nvidia: no pair to judge."
			   : "No GPU bound to nvidia: no pair to judge.");
		y += LINE_H;
	} else {
		double gx = x + 64, gy = y + 24;
		for (size_t j = 0; j < n; j++)
			lx_buf_printf(b,
				      "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" font-weight=\"bold\" "
				      "fill=\"#111827\" text-anchor=\"middle\">GPU %zu</text>\n",
				      gx + (double)j * CELL_W + CELL_W / 2, gy - 6, FONT, l->usable[j]);
		for (size_t i = 0; i < n; i++) {
			double cy = gy + (double)i * CELL_H;
			lx_buf_printf(b,
				      "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" font-weight=\"bold\" "
				      "fill=\"#111827\">GPU %zu</text>\n",
				      x, cy + CELL_H / 2 + 4, FONT, l->usable[i]);
			for (size_t j = 0; j < n; j++) {
				double cx = gx + (double)j * CELL_W;
				if (i == j) {
					lx_buf_printf(b,
						      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
						      "height=\"%.1f\" fill=\"#e5e7eb\" stroke=\"#ffffff\"/>\n",
						      cx, cy, CELL_W, CELL_H);
					svg_text(b, cx + CELL_W / 2, cy + CELL_H / 2 + 4, FONT, false,
						 "#6b7280", "middle", "X");
					continue;
				}
				const struct lx_p2p_pair *p = find_pair(l, l->usable[i], l->usable[j]);
				bool cross = p->link == LX_LINK_SYS;
				_cleanup_free_ char *cause = pair_cause(l->host, p);
				lx_buf_printf(b,
					      "<g class=\"pair%s\" data-gpus=\"%zu %zu\" data-link=\"%s\" "
					      "data-verdict=\"%s\">\n<title>",
					      cross ? " cross-socket" : "", p->gpu[0], p->gpu[1],
					      lx_link_name(p->link), lx_p2p_verdict_name(p->verdict));
				_cleanup_free_ char *title = lx_xasprintf(
					"GPU %zu - GPU %zu: %s, %s%s%s", p->gpu[0], p->gpu[1],
					lx_link_name(p->link), lx_p2p_verdict_name(p->verdict),
					cause[0] ? ": " : "", cause);
				xml_text(b, title);
				lx_buf_puts(b, "</title>\n");
				/* Across sockets: a dashed, thicker frame. */
				lx_buf_printf(b,
					      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
					      "fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"%s/>\n",
					      cx + 1, cy + 1, CELL_W - 2, CELL_H - 2,
					      verdict_fill[p->verdict], verdict_stroke[p->verdict],
					      cross ? "2" : "1",
					      cross ? " stroke-dasharray=\"4 2\"" : "");
				svg_text(b, cx + CELL_W / 2, cy + 16, FONT, true, "#111827", "middle",
					 lx_link_name(p->link));
				svg_text(b, cx + CELL_W / 2, cy + 31, 10.5, false,
					 verdict_stroke[p->verdict], "middle",
					 lx_p2p_verdict_name(p->verdict));
				lx_buf_puts(b, "</g>\n");
			}
		}
		y = gy + (double)n * CELL_H + 8;
	}
	/* the verdicts, grouped */
	for (size_t i = 0; i < l->n_notes; i++) {
		const struct note *note = &l->notes[i];
		struct lx_strv lines = {0};
		note_lines(note, &lines);
		lx_buf_printf(b, "<g class=\"p2p-note\" data-verdict=\"%s\">\n",
			      lx_p2p_verdict_name(note->verdict));
		y += 6;
		lx_buf_printf(b,
			      "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\" "
			      "stroke=\"%s\"/>\n",
			      x, y + 3, verdict_fill[note->verdict], verdict_stroke[note->verdict]);
		for (size_t j = 0; j < lines.n; j++) {
			y += LINE_H;
			svg_text(b, x + 16, y, FONT, j == 0, j == 0 ? "#111827" : "#374151", NULL,
				 lines.items[j]);
		}
		lx_buf_puts(b, "</g>\n");
		lx_strv_free(&lines);
	}
	/* the legend of the link classes */
	y += 14;
	lx_buf_puts(b, "<g class=\"legend\">\n");
	y += LINE_H;
	svg_text(b, x, y, FONT, true, "#111827", NULL, "Links, as nvidia-smi topo -m names them:");
	for (enum lx_link k = LX_LINK_PIX; k <= LX_LINK_SYS; k++) {
		y += LINE_H;
		_cleanup_free_ char *line =
			lx_xasprintf("%s: %s", lx_link_name(k), lx_link_description(k));
		svg_text(b, x, y, FONT, false, "#374151", NULL, line);
	}
	y += LINE_H;
	svg_text(b, x, y, FONT, false, "#374151", NULL,
		 "Dashed frame: across sockets. Reasons and fixes: lxgpu topo --p2p");
	lx_buf_puts(b, "</g>\n</g>\n");
	return y;
}

static char *write_svg(const struct layout *l)
{
	struct lx_buf body = {0};
	for (size_t i = 0; i < l->n_boxes; i++)
		if (l->boxes[i].parent == NO_BOX)
			svg_box(l, i, &body);
	if (!l->n_rows)
		svg_text(&body, MARGIN, HEAD_H + FONT, FONT, false, "#374151", NULL,
			 "No GPU in the host model.");
	double tree_bottom = l->n_rows ? row_y(l, l->n_rows - 1) + l->row_h : HEAD_H + LINE_H;
	double panel_bottom = svg_panel(l, &body);
	double width = 0;
	/* the panel's widest line: the notes and the legend */
	for (size_t i = 0; i < l->n_notes; i++) {
		struct lx_strv lines = {0};
		note_lines(&l->notes[i], &lines);
		for (size_t j = 0; j < lines.n; j++) {
			double w = 16 + (double)text_columns(lines.items[j]) * CHAR_W;
			width = w > width ? w : width;
		}
		lx_strv_free(&lines);
	}
	double grid = 64 + (double)l->n_usable * CELL_W;
	double legend = (6 + strlen(lx_link_description(LX_LINK_PXB))) * CHAR_W;
	width = grid > width ? grid : width;
	width = legend > width ? legend : width;
	width = 68 * CHAR_W > width ? 68 * CHAR_W : width;
	double total_w = l->panel_x + width + MARGIN;
	double total_h = (tree_bottom > panel_bottom ? tree_bottom : panel_bottom) + MARGIN;
	struct lx_buf b = {0};
	lx_buf_printf(&b,
		      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		      "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, "
		      "monospace\">\n",
		      total_w, total_h, total_w, total_h);
	lx_buf_puts(&b, "<title>");
	xml_text(&b, l->title);
	lx_buf_puts(&b, "</title>\n");
	lx_buf_printf(&b, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", total_w,
		      total_h);
	svg_text(&b, MARGIN, 28, 17, true, "#111827", NULL, l->title);
	svg_text(&b, MARGIN, 48, FONT, false, "#4b5563", NULL, l->subtitle);
	lx_buf_append(&b, body.data ? body.data : "", body.len);
	lx_buf_puts(&b, "</svg>\n");
	lx_buf_free(&body);
	return lx_buf_steal(&b);
}

/* ---- DOT ---- */

static void dot_label(const struct layout *l, struct lx_buf *b, const struct box *x)
{
	/* a GPU's holders are nodes of their own, beside it */
	size_t n = x->kind == BOX_GPU && l->holders ? 4 : x->lines.n;
	for (size_t j = 0; j < n; j++) {
		bool red = x->blocks && lx_str_starts_with(x->lines.items[j], "redirects P2P");
		if (j)
			lx_buf_puts(b, "<br align=\"left\"/>");
		if (red)
			lx_buf_puts(b, "<font color=\"#c62828\">");
		if (j == 0 || red)
			lx_buf_puts(b, "<b>");
		xml_text(b, x->lines.items[j]);
		if (j == 0 || red)
			lx_buf_puts(b, "</b>");
		if (red)
			lx_buf_puts(b, "</font>");
	}
	lx_buf_puts(b, "<br align=\"left\"/>");
}

static void dot_box(const struct layout *l, size_t i, struct lx_buf *b, int depth)
{
	const struct box *x = &l->boxes[i];
	bool cluster = x->kind == BOX_NUMA || x->kind == BOX_HOST_BRIDGE || x->kind == BOX_SWITCH;
	int pad = depth * 2 + 2;
	if (cluster) {
		lx_buf_printf(b, "%*ssubgraph cluster_%zu {\n%*slabel=<", pad, "", i, pad + 2, "");
		if (x->kind == BOX_SWITCH) {
			lx_buf_puts(b, "<b>PCIe switch</b> ");
			xml_text(b, x->key);
		} else {
			for (size_t j = 0; j < x->lines.n; j++) {
				lx_buf_puts(b, j ? " " : "<b>");
				xml_text(b, x->lines.items[j]);
				if (!j)
					lx_buf_puts(b, "</b>");
			}
		}
		lx_buf_printf(b, ">; class=\"%s\"; style=\"rounded%s\"; color=\"#6b7280\";%s\n",
			      box_class[x->kind], x->kind == BOX_SWITCH ? ",dashed" : ",filled",
			      x->kind == BOX_NUMA	       ? " fillcolor=\"#fff7e0\";"
			      : x->kind == BOX_HOST_BRIDGE ? " fillcolor=\"#eef1f5\";"
						       : "");
	}
	if (x->kind != BOX_NUMA && x->kind != BOX_HOST_BRIDGE) {
		lx_buf_printf(b, "%*sn%zu [class=\"%s\" label=<", pad + (cluster ? 2 : 0), "", i,
			      box_class[x->kind]);
		dot_label(l, b, x);
		lx_buf_printf(b, "> fillcolor=\"%s\" color=\"%s\"];\n", box_fill(l, x),
			      x->blocks ? "#c62828" : x->kind == BOX_GPU ? "#1d4ed8" : "#9ca3af");
	}
	for (size_t c = 0; c < l->n_boxes; c++)
		if (l->boxes[c].parent == i)
			dot_box(l, c, b, depth + 1);
	if (cluster)
		lx_buf_printf(b, "%*s}\n", pad, "");
}

/* The box above i when it is drawn as a node (NUMA nodes and host bridges
 * are frames only); NO_BOX else. */
static size_t dot_node_above(const struct layout *l, size_t i)
{
	size_t p = l->boxes[i].parent;
	if (p != NO_BOX && (l->boxes[p].kind == BOX_NUMA || l->boxes[p].kind == BOX_HOST_BRIDGE))
		return NO_BOX;
	return p;
}

static void dot_pairs(const struct layout *l, struct lx_buf *b)
{
	lx_buf_puts(b, "  pairs [shape=plain style=\"\" class=\"pairs\" label=<<table border=\"0\" "
		       "cellborder=\"1\" cellspacing=\"2\" cellpadding=\"4\">\n");
	size_t n = l->n_usable;
	lx_buf_printf(b, "    <tr><td colspan=\"%zu\" border=\"0\"><b>GPU pairs: link and "
			 "peer-to-peer verdict</b></td></tr>\n",
		      n + 1);
	if (n >= 2) {
		lx_buf_puts(b, "    <tr><td border=\"0\"></td>");
		for (size_t j = 0; j < n; j++)
			lx_buf_printf(b, "<td border=\"0\"><b>GPU %zu</b></td>", l->usable[j]);
		lx_buf_puts(b, "</tr>\n");
		for (size_t i = 0; i < n; i++) {
			lx_buf_printf(b, "    <tr><td border=\"0\"><b>GPU %zu</b></td>", l->usable[i]);
			for (size_t j = 0; j < n; j++) {
				if (i == j) {
					lx_buf_puts(b, "<td bgcolor=\"#e5e7eb\">X</td>");
					continue;
				}
				const struct lx_p2p_pair *p = find_pair(l, l->usable[i], l->usable[j]);
				bool cross = p->link == LX_LINK_SYS;
				lx_buf_printf(b,
					      "<td bgcolor=\"%s\" color=\"%s\"%s><b>%s</b><br/>"
					      "<font point-size=\"9\">%s</font></td>",
					      verdict_fill[p->verdict], verdict_stroke[p->verdict],
					      cross ? " style=\"dashed\" border=\"2\"" : "",
					      lx_link_name(p->link), lx_p2p_verdict_name(p->verdict));
			}
			lx_buf_puts(b, "</tr>\n");
		}
	} else {
		lx_buf_printf(b, "    <tr><td border=\"0\">%s</td></tr>\n",
			      n ? "One GPU bound to nvidia: no pair to judge."
				: "No GPU bound to nvidia: no pair to judge.");
	}
	for (size_t i = 0; i < l->n_notes; i++) {
		struct lx_strv lines = {0};
		note_lines(&l->notes[i], &lines);
		lx_buf_printf(b, "    <tr><td colspan=\"%zu\" align=\"left\" balign=\"left\" "
				 "bgcolor=\"%s\">",
			      n + 1, verdict_fill[l->notes[i].verdict]);
		for (size_t j = 0; j < lines.n; j++) {
			if (j)
				lx_buf_puts(b, "<br/>");
			xml_text(b, lines.items[j]);
		}
		lx_buf_puts(b, "</td></tr>\n");
		lx_strv_free(&lines);
	}
	lx_buf_printf(b, "    <tr><td colspan=\"%zu\" border=\"0\" align=\"left\" balign=\"left\">",
		      n + 1);
	for (enum lx_link k = LX_LINK_PIX; k <= LX_LINK_SYS; k++)
		lx_buf_printf(b, "%s%s: %s", k == LX_LINK_PIX ? "" : "<br/>", lx_link_name(k),
			      lx_link_description(k));
	lx_buf_puts(b, "<br/>Dashed: across sockets. Reasons and fixes: lxgpu topo --p2p</td></tr>\n"
		       "  </table>>];\n");
}

static char *write_dot(const struct layout *l)
{
	struct lx_buf b = {0};
	lx_buf_puts(&b, "digraph topo {\n  graph [rankdir=LR fontname=\"DejaVu Sans Mono\" "
			"fontsize=11 nodesep=0.2 ranksep=0.35 ordering=out labelloc=t label=<<b>");
	xml_text(&b, l->title);
	lx_buf_puts(&b, "</b><br/>");
	xml_text(&b, l->subtitle);
	lx_buf_puts(&b, ">];\n  node [shape=box style=\"rounded,filled\" fontname=\"DejaVu Sans "
			"Mono\" fontsize=10];\n  edge [arrowhead=none color=\"#6b7280\"];\n");
	for (size_t i = 0; i < l->n_boxes; i++)
		if (l->boxes[i].parent == NO_BOX)
			dot_box(l, i, &b, 0);
	for (size_t i = 0; i < l->n_boxes; i++) {
		size_t p = dot_node_above(l, i);
		if (p != NO_BOX)
			lx_buf_printf(&b, "  n%zu -> n%zu;\n", p, i);
	}
	for (size_t h = 0; l->holders && h < l->holders->n; h++) {
		const struct lx_gpu_holder *c = &l->holders->items[h];
		size_t gpu = NO_BOX;
		for (size_t i = 0; i < l->n_boxes && gpu == NO_BOX; i++)
			if (l->boxes[i].kind == BOX_GPU && strcmp(l->boxes[i].key, c->bdf) == 0)
				gpu = i;
		if (gpu == NO_BOX)
			continue;
		lx_buf_printf(&b, "  c%zu [class=\"container\" shape=note fillcolor=\"#f3e8ff\" "
				  "label=<<b>CT ",
			      h);
		xml_text(&b, c->container);
		lx_buf_puts(&b, "</b>");
		if (c->name) {
			lx_buf_puts(&b, " ");
			xml_text(&b, c->name);
		}
		if (c->state) {
			lx_buf_puts(&b, " (");
			xml_text(&b, c->state);
			lx_buf_puts(&b, ")");
		}
		lx_buf_printf(&b, ">];\n  n%zu -> c%zu [style=dashed color=\"#7c2d92\"];\n", gpu, h);
	}
	dot_pairs(l, &b);
	lx_buf_puts(&b, "}\n");
	return lx_buf_steal(&b);
}

char *lx_topo_picture(const struct lx_host *host, const struct lx_gpu_holders *holders,
		      enum lx_picture_format format)
{
	struct layout l;
	layout_make(&l, host, holders);
	char *out = format == LX_PICTURE_SVG ? write_svg(&l) : write_dot(&l);
	layout_free(&l);
	return out;
}
