/* GPU-to-GPU topology from sysfs PCIe paths and NUMA nodes. */
#include "lxgpu/host.h"

#include <string.h>

static const char *const link_names[] = {
	[LX_LINK_SELF] = "X",   [LX_LINK_PIX] = "PIX",   [LX_LINK_PXB] = "PXB",
	[LX_LINK_PHB] = "PHB",  [LX_LINK_NODE] = "NODE", [LX_LINK_SYS] = "SYS",
};

/* What a link costs when choosing GPUs that work together. */
static const unsigned link_cost[] = {
	[LX_LINK_SELF] = 0, [LX_LINK_PIX] = 1, [LX_LINK_PXB] = 2,
	[LX_LINK_PHB] = 3,  [LX_LINK_NODE] = 4, [LX_LINK_SYS] = 6,
};

const char *lx_link_name(enum lx_link link)
{
	return link_names[link];
}

const char *lx_link_description(enum lx_link link)
{
	static const char *const descriptions[] = {
		[LX_LINK_SELF] = "the same GPU",
		[LX_LINK_PIX] = "through one PCIe switch",
		[LX_LINK_PXB] = "through several PCIe bridges, not the host bridge",
		[LX_LINK_PHB] = "through a PCIe host bridge (the CPU)",
		[LX_LINK_NODE] = "between host bridges of one NUMA node",
		[LX_LINK_SYS] = "between NUMA nodes: the CPU sockets' interconnect",
	};
	return descriptions[link];
}

size_t lx_gpu_root_bus(const struct lx_gpu *g, const char **bus)
{
	/* "0000:15:01.0" -> "0000:15": the bus of the root port, or of the GPU
	 * itself when it sits directly on the root bus. */
	*bus = g->pcie_path.n ? g->pcie_path.items[0] : g->bdf;
	const char *last = strrchr(*bus, ':');
	return last ? (size_t)(last - *bus) : strlen(*bus);
}

enum lx_link lx_gpu_link(const struct lx_gpu *a, const struct lx_gpu *b)
{
	if (a == b || strcmp(a->bdf, b->bdf) == 0)
		return LX_LINK_SELF;
	const struct lx_strv *pa = &a->pcie_path, *pb = &b->pcie_path;
	size_t common = 0;
	while (common < pa->n && common < pb->n &&
	       strcmp(pa->items[common], pb->items[common]) == 0)
		common++;
	if (common >= 2 && pa->n - common <= 1 && pb->n - common <= 1)
		return LX_LINK_PIX; /* sibling ports of one switch */
	if (common >= 1)
		return LX_LINK_PXB;
	/* No bridge in common: the same host bridge when the root ports (or the
	 * GPUs themselves, when directly on the root bus) share a bus. */
	const char *ra, *rb;
	size_t la = lx_gpu_root_bus(a, &ra), lb = lx_gpu_root_bus(b, &rb);
	if (la == lb && strncmp(ra, rb, la) == 0)
		return LX_LINK_PHB;
	if (a->numa_node != LX_UNKNOWN && b->numa_node != LX_UNKNOWN && a->numa_node != b->numa_node)
		return LX_LINK_SYS;
	return LX_LINK_NODE;
}

struct chooser {
	const struct lx_host *host;
	const size_t *candidates;
	size_t n_candidates;
	size_t want;
	size_t *current;
	size_t *best;
	unsigned best_cost;
	bool found;
};

static unsigned combo_cost(const struct chooser *c, const size_t *pick, size_t n)
{
	unsigned cost = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			cost += link_cost[lx_gpu_link(&c->host->gpus[pick[i]], &c->host->gpus[pick[j]])];
	return cost;
}

/* Every combination, in lexicographic order: the first minimum wins ties. */
static void choose(struct chooser *c, size_t depth, size_t from)
{
	if (depth == c->want) {
		unsigned cost = combo_cost(c, c->current, c->want);
		if (!c->found || cost < c->best_cost) {
			c->found = true;
			c->best_cost = cost;
			memcpy(c->best, c->current, c->want * sizeof(*c->best));
		}
		return;
	}
	for (size_t i = from; i + (c->want - depth) <= c->n_candidates; i++) {
		c->current[depth] = c->candidates[i];
		choose(c, depth + 1, i + 1);
	}
}

static double combinations(size_t n, size_t k)
{
	double r = 1;
	for (size_t i = 0; i < k; i++)
		r = r * (double)(n - i) / (double)(i + 1);
	return r;
}

/* Too many GPUs to try every set: grow a set from each start, greedily. */
static void choose_greedy(struct chooser *c)
{
	for (size_t s = 0; s < c->n_candidates; s++) {
		size_t n = 0;
		c->current[n++] = c->candidates[s];
		while (n < c->want) {
			size_t pick = 0;
			unsigned pick_cost = 0;
			bool have = false;
			for (size_t i = 0; i < c->n_candidates; i++) {
				bool used = false;
				for (size_t j = 0; j < n; j++)
					used |= c->current[j] == c->candidates[i];
				if (used)
					continue;
				c->current[n] = c->candidates[i];
				unsigned cost = combo_cost(c, c->current, n + 1);
				if (!have || cost < pick_cost) {
					have = true;
					pick = c->candidates[i];
					pick_cost = cost;
				}
			}
			c->current[n++] = pick;
		}
		unsigned cost = combo_cost(c, c->current, n);
		if (!c->found || cost < c->best_cost) {
			c->found = true;
			c->best_cost = cost;
			memcpy(c->best, c->current, n * sizeof(*c->best));
		}
	}
}

static int compare_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

int lx_topo_best(const struct lx_host *host, size_t n, size_t **out, struct lx_error *err)
{
	*out = NULL;
	size_t *candidates = lx_xcalloc(host->n_gpus, sizeof(*candidates));
	size_t n_candidates = 0;
	for (size_t i = 0; i < host->n_gpus; i++)
		if (lx_gpu_kind(&host->gpus[i]) == LX_GPU_NVIDIA)
			candidates[n_candidates++] = i;
	/* As --gpus all: an Intel or AMD host's DRM GPUs when it has no NVIDIA one. */
	bool drm = n_candidates == 0;
	for (size_t i = 0; drm && i < host->n_gpus; i++)
		if (lx_gpu_kind(&host->gpus[i]) == LX_GPU_DRM)
			candidates[n_candidates++] = i;
	if (n == 0 || n > n_candidates) {
		free(candidates);
		return lx_error_set(err, "best:%zu: the host has %zu GPUs bound to %s", n,
				    n_candidates, drm ? "nvidia, i915, xe or amdgpu" : "nvidia");
	}
	struct chooser c = {.host = host, .candidates = candidates, .n_candidates = n_candidates,
			    .want = n};
	c.current = lx_xcalloc(n, sizeof(*c.current));
	c.best = lx_xcalloc(n, sizeof(*c.best));
	if (combinations(n_candidates, n) <= 200000)
		choose(&c, 0, 0);
	else
		choose_greedy(&c);
	qsort(c.best, n, sizeof(*c.best), compare_size);
	*out = c.best;
	free(c.current);
	free(candidates);
	return 0;
}
