/* The text form of `lxgpu scan`. */
#include "lxgpu/host.h"
#include "lxgpu/report.h"

#include <ctype.h>
#include <string.h>

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* Every string of the model may come from a snapshot file: escaped for the
 * terminal (util.h's rule), kept in pool until the text is built. */
static const char *esc(struct lx_strv *pool, const char *s)
{
	if (!s)
		return NULL;
	lx_strv_push_owned(pool, lx_text_escape(s));
	return pool->items[pool->n - 1];
}

static char *int_or_dash(int v)
{
	return v == LX_UNKNOWN ? lx_xstrdup("-") : lx_xasprintf("%d", v);
}

/* The model name (the driver's, or udev's hwdb for Intel and AMD) with the
 * vendor in front where it lacks it; else the vendor and PCI ids. */
static char *gpu_model_text(const struct lx_gpu *g)
{
	const char *vendor = g->vendor_id == LX_NVIDIA_VENDOR_ID ? NULL : lx_gpu_vendor_name(g);
	if (g->model && vendor && !lx_str_starts_with(g->model, vendor)) {
		_cleanup_free_ char *named = lx_xasprintf("%s %s", vendor, g->model);
		return lx_text_escape(named);
	}
	if (g->model)
		return lx_text_escape(g->model);
	return lx_xasprintf("%s%s[%04x:%04x]", vendor ? vendor : "", vendor ? " " : "", g->vendor_id,
			    g->device_id);
}

/* One row a GPU; the model wraps in its cell on a narrow terminal. */
static void gpu_table(struct lx_buf *b, const struct lx_host *h, struct lx_strv *pool, size_t width)
{
	static const char *const titles[] = {"#", "BDF", "MODEL", "MINOR", "DRIVER", "NUMA"};
	struct lx_table t;
	lx_table_init(&t, 6, titles);
	t.wrap = 1u << 2;
	for (size_t i = 0; i < h->n_gpus; i++) {
		const struct lx_gpu *g = &h->gpus[i];
		_cleanup_free_ char *index = lx_xasprintf("%zu", i);
		_cleanup_free_ char *minor = int_or_dash(g->minor);
		_cleanup_free_ char *numa = int_or_dash(g->numa_node);
		_cleanup_free_ char *model = gpu_model_text(g);
		const char *row[] = {index, esc(pool, g->bdf), model, minor, or_dash(esc(pool, g->driver)),
				     numa};
		lx_table_add_row(&t, row);
	}
	_cleanup_free_ char *text = lx_table_text(&t, width, 2);
	lx_table_free(&t);
	lx_buf_printf(b, "GPUs (%zu)\n%s", h->n_gpus, text);
}

static void node_list(struct lx_buf *b, const struct lx_host *h, struct lx_strv *pool)
{
	lx_buf_printf(b, "\nDevice nodes (%zu)\n", h->n_nodes);
	for (size_t i = 0; i < h->n_nodes; i++) {
		const struct lx_dev_node *n = &h->nodes[i];
		char type = n->type == LX_NODE_CHAR ? 'c' : n->type == LX_NODE_BLOCK ? 'b' : '?';
		_cleanup_free_ char *numbers = lx_xasprintf("%u:%u", n->major, n->minor);
		lx_buf_printf(b, "  %-40s %c %-9s %04o %u:%u\n", esc(pool, n->path), type, numbers, n->mode,
			      n->uid, n->gid);
	}
}

static void driver_section(struct lx_buf *b, const struct lx_host *h, struct lx_strv *pool,
			   size_t width)
{
	/* its lists wrap under their values */
	struct lx_buf majors = {0}, drv = {0};
	struct lx_buf *out = b;
	b = &majors;
	const struct lx_driver *d = &h->driver;
	/* The GPU majors; the rest of the table is in --format json/yaml. */
	lx_buf_puts(b, "\nMajors\n ");
	size_t shown = 0;
	for (size_t i = 0; i < h->n_majors; i++) {
		if (!lx_str_starts_with(h->majors[i].name, "nvidia") &&
		    strcmp(h->majors[i].name, "drm") != 0 && strcmp(h->majors[i].name, "kfd") != 0)
			continue;
		lx_buf_printf(b, " %s=%u", esc(pool, h->majors[i].name), h->majors[i].number);
		shown++;
	}
	if (h->n_majors > shown)
		lx_buf_printf(b, " (and %zu other character majors)", h->n_majors - shown);
	lx_buf_puts(b, h->n_majors ? "\n" : " (none)\n");
	_cleanup_free_ char *majors_text = lx_text_wrap(majors.data, width, 2);
	lx_buf_puts(out, majors_text);
	lx_buf_free(&majors);

	b = &drv;
	lx_buf_puts(b, "\nDriver\n");
	if (d->version)
		lx_buf_printf(b, "  version       %s (%s kernel module)\n", esc(pool, d->version),
			      lx_driver_flavor_name(d->flavor));
	else
		lx_buf_puts(b, "  version       - (nvidia module not loaded)\n");
	lx_buf_puts(b, "  modules      ");
	for (size_t i = 0; i < d->modules.n; i++)
		lx_buf_printf(b, " %s", esc(pool, d->modules.items[i]));
	lx_buf_puts(b, d->modules.n ? "\n" : " -\n");
	lx_buf_puts(b, "  gsp firmware ");
	for (size_t i = 0; i < d->firmware.n; i++)
		lx_buf_printf(b, " %s", esc(pool, d->firmware.items[i]));
	lx_buf_puts(b, d->firmware.n ? "\n" : " -\n");
	lx_buf_printf(b, "  persistenced  %s\n", d->persistenced ? "running" : "not running");
	if (h->n_caps) {
		lx_buf_printf(b, "  capabilities  %zu (", h->n_caps);
		for (size_t i = 0; i < h->n_caps; i++)
			lx_buf_printf(b, "%s%s=%u", i ? ", " : "", esc(pool, h->caps[i].name),
				      h->caps[i].minor);
		lx_buf_puts(b, ")\n");
	}
	/* What --gpus MIG-<uuid> resolves to (recorded from nvidia-smi). */
	if (h->n_mig_uuids) {
		lx_buf_printf(b, "  MIG UUIDs     %zu (", h->n_mig_uuids);
		for (size_t i = 0; i < h->n_mig_uuids; i++)
			lx_buf_printf(b, "%s%zu:gi%d/ci%d=%s", i ? ", " : "", h->mig_uuids[i].gpu,
				      h->mig_uuids[i].gi, h->mig_uuids[i].ci,
				      esc(pool, h->mig_uuids[i].uuid));
		lx_buf_puts(b, ")\n");
	}
	_cleanup_free_ char *drv_text = lx_text_wrap(drv.data, width, 16);
	lx_buf_puts(out, drv_text);
	lx_buf_free(&drv);
}

char *lx_host_text(const struct lx_host *h, const struct lx_host_warnings *w, bool color,
		   size_t width)
{
	const char *yellow = color ? "\033[33m" : "", *reset = color ? "\033[0m" : "";
	struct lx_strv pool = {0};
	struct lx_buf b = {0};
	lx_buf_printf(&b, "Host %s, kernel %s, cgroup %s\n\n", or_dash(esc(&pool, h->hostname)),
		      or_dash(esc(&pool, h->kernel)), lx_cgroup_layout_name(h->cgroup));
	if (h->n_gpus == 0 && h->n_nodes == 0 && !h->driver.version) {
		/* Nothing NVIDIA here at all: say so instead of printing empty tables. */
		lx_buf_puts(&b, "No NVIDIA GPU, driver or device node on this host.\n");
		for (size_t i = 0; i < w->n; i++)
			if (w->items[i].fix && *w->items[i].fix)
				lx_report_fix_text(&b, w->items[i].fix, 0, width);
	} else {
		gpu_table(&b, h, &pool, width);
		node_list(&b, h, &pool);
		driver_section(&b, h, &pool, width);
		if (w->n)
			lx_buf_printf(&b, "\nWarnings (%zu)\n", w->n);
		for (size_t i = 0; i < w->n; i++) {
			_cleanup_free_ char *line = lx_xasprintf("  - %s%s%s\n", yellow,
								 esc(&pool, w->items[i].message), reset);
			_cleanup_free_ char *wrapped = lx_text_wrap(line, width, 4);
			lx_buf_puts(&b, wrapped);
			if (w->items[i].fix)
				lx_report_fix_text(&b, w->items[i].fix, 4, width);
		}
	}
	lx_strv_free(&pool);
	return lx_buf_steal(&b);
}

struct lx_doc *lx_host_warnings_doc(const struct lx_host_warnings *w)
{
	struct lx_doc *list = lx_doc_new_list();
	for (size_t i = 0; i < w->n; i++) {
		struct lx_doc *m = lx_doc_new_map();
		lx_doc_map_set(m, "message", lx_doc_new_str(w->items[i].message));
		lx_doc_map_set(m, "fix", lx_doc_new_str(w->items[i].fix));
		/* its commands as a finding's (docs/schema/finding.json) */
		struct lx_strv commands = {0};
		lx_fix_commands(w->items[i].fix, &commands);
		lx_doc_map_set(m, "commands", lx_doc_new_str_list(&commands));
		lx_strv_free(&commands);
		lx_doc_list_push(list, m);
	}
	return list;
}
