/* Snapshots: the host model as YAML (docs/schema.md), or a .tar.gz bundle
 * holding that YAML plus the raw files it was scanned from.
 *
 * Loading is strict: a snapshot may come from another machine or be edited
 * by hand, so every field is type- and range-checked and unknown fields
 * are errors, each naming the file, line and field. */
#include "lxgpu/host.h"
#include "lxgpu/report.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* 3: the end marker (`end:`, last) is required; 2 (still read, without
 * one): majors is the whole character table, a list; 1 (still read): a map
 * of the nvidia* and drm majors only. */
#define SNAPSHOT_SCHEMA 3
#define SNAPSHOT_SCHEMA_OLDEST 1
#define SNAPSHOT_SCHEMA_END 3 /* the first with the end marker */
#define SNAPSHOT_MAX_SIZE (16u << 20)
#define BUNDLE_HOST_ENTRY "host.yaml"

/* ---- model -> document ---- */

static struct lx_doc *hex_str(unsigned long v, int width)
{
	_cleanup_free_ char *s = lx_xasprintf("0x%0*lx", width, v);
	return lx_doc_new_str(s);
}

static struct lx_doc *hex64(uint64_t v)
{
	_cleanup_free_ char *s = lx_xasprintf("0x%016llx", (unsigned long long)v);
	return lx_doc_new_str(s);
}

static struct lx_doc *int_or_null(int v)
{
	return v == LX_UNKNOWN ? lx_doc_new_null() : lx_doc_new_int(v);
}

static const char *node_type_name(enum lx_node_type t)
{
	return t == LX_NODE_CHAR ? "char" : t == LX_NODE_BLOCK ? "block" : "other";
}

static struct lx_doc *gpu_to_doc(const struct lx_gpu *g, size_t index)
{
	struct lx_doc *m = lx_doc_new_map();
	lx_doc_map_set(m, "index", lx_doc_new_int((long long)index));
	lx_doc_map_set(m, "bdf", lx_doc_new_str(g->bdf));
	lx_doc_map_set(m, "vendor_id", hex_str(g->vendor_id, 4));
	lx_doc_map_set(m, "device_id", hex_str(g->device_id, 4));
	lx_doc_map_set(m, "class", hex_str(g->class_code, 6));
	lx_doc_map_set(m, "model", lx_doc_new_str(g->model));
	lx_doc_map_set(m, "uuid", lx_doc_new_str(g->uuid));
	lx_doc_map_set(m, "vbios", lx_doc_new_str(g->vbios));
	lx_doc_map_set(m, "minor", int_or_null(g->minor));
	lx_doc_map_set(m, "driver", lx_doc_new_str(g->driver));
	lx_doc_map_set(m, "numa_node", int_or_null(g->numa_node));
	lx_doc_map_set(m, "iommu_group", int_or_null(g->iommu_group));
	lx_doc_map_set(m, "iommu_type", g->iommu_type == LX_IOMMU_UNKNOWN
						? lx_doc_new_null()
						: lx_doc_new_str(lx_iommu_type_name(g->iommu_type)));
	lx_doc_map_set(m, "pcie_path", lx_doc_new_str_list(&g->pcie_path));
	struct lx_doc *bars = g->bars_known ? lx_doc_new_list() : lx_doc_new_null();
	for (size_t i = 0; g->bars_known && i < g->n_bars; i++) {
		const struct lx_pci_bar *b = &g->bars[i];
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "index", lx_doc_new_int(b->index));
		lx_doc_map_set(d, "start", hex64(b->start));
		lx_doc_map_set(d, "end", hex64(b->end));
		lx_doc_map_set(d, "flags", hex64(b->flags));
		lx_doc_list_push(bars, d);
	}
	lx_doc_map_set(m, "bars", bars);
	struct lx_doc *drm = lx_doc_new_list();
	for (size_t i = 0; i < g->n_drm; i++) {
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "name", lx_doc_new_str(g->drm[i].name));
		lx_doc_map_set(d, "by_path", lx_doc_new_str(g->drm[i].by_path));
		lx_doc_list_push(drm, d);
	}
	lx_doc_map_set(m, "drm", drm);
	return m;
}

/* true, false, or null for unknown */
static struct lx_doc *tristate_doc(enum lx_tristate t)
{
	return t == LX_UNSURE ? lx_doc_new_null() : lx_doc_new_bool(t == LX_YES);
}

struct lx_doc *lx_host_to_doc(const struct lx_host *h)
{
	struct lx_doc *root = lx_doc_new_map();
	lx_doc_map_set(root, "schema", lx_doc_new_int(SNAPSHOT_SCHEMA));
	lx_doc_map_set(root, "hostname", lx_doc_new_str(h->hostname));
	lx_doc_map_set(root, "kernel", lx_doc_new_str(h->kernel));
	lx_doc_map_set(root, "cgroup", lx_doc_new_str(lx_cgroup_layout_name(h->cgroup)));
	if (h->lxc_version)
		lx_doc_map_set(root, "lxc_version", lx_doc_new_str(h->lxc_version));
	if (h->pve_container_version)
		lx_doc_map_set(root, "pve_container_version",
			       lx_doc_new_str(h->pve_container_version));
	if (h->published.present) {
		struct lx_doc *p = lx_doc_new_map();
		lx_doc_map_set(p, "node", lx_doc_new_str(h->published.node));
		lx_doc_map_set(p, "boot_time", lx_doc_new_int(h->published.boot_time));
		lx_doc_map_set(p, "boot_id", lx_doc_new_str(h->published.boot_id));
		lx_doc_map_set(p, "scanned_at", lx_doc_new_int(h->published.scanned_at));
		lx_doc_map_set(root, "published", p);
	}
	struct lx_doc *driver = lx_doc_new_map();
	lx_doc_map_set(driver, "version", lx_doc_new_str(h->driver.version));
	lx_doc_map_set(driver, "flavor", lx_doc_new_str(lx_driver_flavor_name(h->driver.flavor)));
	lx_doc_map_set(driver, "modules", lx_doc_new_str_list(&h->driver.modules));
	lx_doc_map_set(driver, "firmware", lx_doc_new_str_list(&h->driver.firmware));
	lx_doc_map_set(driver, "persistenced", lx_doc_new_bool(h->driver.persistenced));
	lx_doc_map_set(driver, "uvm_disable_hmm", tristate_doc(h->driver.uvm_disable_hmm));
	lx_doc_map_set(root, "driver", driver);
	if (h->kernel_config.source) {
		struct lx_doc *kc = lx_doc_new_map();
		lx_doc_map_set(kc, "source", lx_doc_new_str(h->kernel_config.source));
		lx_doc_map_set(kc, "hmm_mirror", tristate_doc(h->kernel_config.hmm_mirror));
		lx_doc_map_set(kc, "device_private", tristate_doc(h->kernel_config.device_private));
		lx_doc_map_set(root, "kernel_config", kc);
	} else {
		lx_doc_map_set(root, "kernel_config", lx_doc_new_null());
	}

	struct lx_doc *gpus = lx_doc_new_list();
	for (size_t i = 0; i < h->n_gpus; i++)
		lx_doc_list_push(gpus, gpu_to_doc(&h->gpus[i], i));
	lx_doc_map_set(root, "gpus", gpus);

	struct lx_doc *nodes = lx_doc_new_list();
	for (size_t i = 0; i < h->n_nodes; i++) {
		const struct lx_dev_node *n = &h->nodes[i];
		struct lx_doc *d = lx_doc_new_map();
		_cleanup_free_ char *mode = lx_xasprintf("%04o", n->mode);
		lx_doc_map_set(d, "path", lx_doc_new_str(n->path));
		lx_doc_map_set(d, "type", lx_doc_new_str(node_type_name(n->type)));
		lx_doc_map_set(d, "major", lx_doc_new_int(n->major));
		lx_doc_map_set(d, "minor", lx_doc_new_int(n->minor));
		lx_doc_map_set(d, "mode", lx_doc_new_str(mode));
		lx_doc_map_set(d, "uid", lx_doc_new_int(n->uid));
		lx_doc_map_set(d, "gid", lx_doc_new_int(n->gid));
		lx_doc_list_push(nodes, d);
	}
	lx_doc_map_set(root, "nodes", nodes);

	struct lx_doc *caps = lx_doc_new_list();
	for (size_t i = 0; i < h->n_caps; i++) {
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "name", lx_doc_new_str(h->caps[i].name));
		lx_doc_map_set(d, "minor", lx_doc_new_int(h->caps[i].minor));
		lx_doc_list_push(caps, d);
	}
	lx_doc_map_set(root, "capabilities", caps);
	/* Only when the driver gave the table: models of hosts without it stay
	 * as they were. */
	if (h->n_mig_minors) {
		struct lx_doc *table = lx_doc_new_list();
		for (size_t i = 0; i < h->n_mig_minors; i++) {
			struct lx_doc *d = lx_doc_new_map();
			lx_doc_map_set(d, "name", lx_doc_new_str(h->mig_minors[i].name));
			lx_doc_map_set(d, "minor", lx_doc_new_int(h->mig_minors[i].minor));
			lx_doc_list_push(table, d);
		}
		lx_doc_map_set(root, "mig_minors", table);
	}
	/* Only when the scan recorded them (nvidia-smi ran): as mig_minors. */
	if (h->n_mig_uuids) {
		struct lx_doc *list = lx_doc_new_list();
		for (size_t i = 0; i < h->n_mig_uuids; i++) {
			const struct lx_mig_uuid *m = &h->mig_uuids[i];
			struct lx_doc *d = lx_doc_new_map();
			lx_doc_map_set(d, "uuid", lx_doc_new_str(m->uuid));
			lx_doc_map_set(d, "gpu", lx_doc_new_int((long long)m->gpu));
			lx_doc_map_set(d, "gi", lx_doc_new_int(m->gi));
			lx_doc_map_set(d, "ci", lx_doc_new_int(m->ci));
			lx_doc_list_push(list, d);
		}
		lx_doc_map_set(root, "mig_uuids", list);
	}

	/* Only when doctor's or snapshot's checks found something to say. */
	const struct lx_drm_checks *dc = &h->drm_checks;
	if (dc->checked && (dc->n_requests || dc->missing_dirs.n || dc->kfd_missing.n)) {
		struct lx_doc *c = lx_doc_new_map();
		struct lx_doc *list = lx_doc_new_list();
		for (size_t i = 0; i < dc->n_requests; i++) {
			const struct lx_fw_request *r = &dc->requests[i];
			struct lx_doc *d = lx_doc_new_map();
			lx_doc_map_set(d, "name", lx_doc_new_str(r->name));
			lx_doc_map_set(d, "driver", lx_doc_new_str(r->driver));
			lx_doc_map_set(d, "gpu", lx_doc_new_str(r->gpu));
			lx_doc_map_set(d, "error", r->error ? lx_doc_new_int(r->error) : lx_doc_new_null());
			lx_doc_map_set(d, "found", lx_doc_new_str(r->found));
			lx_doc_map_set(d, "unreadable", lx_doc_new_str(r->unreadable));
			lx_doc_list_push(list, d);
		}
		lx_doc_map_set(c, "firmware_requests", list);
		lx_doc_map_set(c, "missing_firmware_dirs", lx_doc_new_str_list(&dc->missing_dirs));
		lx_doc_map_set(c, "kfd_topology", lx_doc_new_bool(dc->kfd_topology));
		lx_doc_map_set(c, "kfd_missing", lx_doc_new_str_list(&dc->kfd_missing));
		lx_doc_map_set(root, "drm_checks", c);
	}

	struct lx_doc *bridges = lx_doc_new_list();
	for (size_t i = 0; i < h->n_bridges; i++) {
		const struct lx_pci_bridge *b = &h->bridges[i];
		bool present = b->acs == LX_ACS_PRESENT;
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "bdf", lx_doc_new_str(b->bdf));
		lx_doc_map_set(d, "acs", b->acs == LX_ACS_UNKNOWN ? lx_doc_new_null()
								  : lx_doc_new_str(lx_acs_state_name(b->acs)));
		lx_doc_map_set(d, "acs_capability", present ? hex_str(b->acs_cap, 4) : lx_doc_new_null());
		lx_doc_map_set(d, "acs_control", present ? hex_str(b->acs_ctrl, 4) : lx_doc_new_null());
		lx_doc_list_push(bridges, d);
	}
	lx_doc_map_set(root, "bridges", bridges);

	/* Last: the table is long, the GPUs are what a reader looks for first. */
	lx_doc_map_set(root, "majors_complete", lx_doc_new_bool(h->majors_complete));
	struct lx_doc *majors = lx_doc_new_list();
	for (size_t i = 0; i < h->n_majors; i++) {
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "major", lx_doc_new_int(h->majors[i].number));
		lx_doc_map_set(d, "name", lx_doc_new_str(h->majors[i].name));
		lx_doc_list_push(majors, d);
	}
	lx_doc_map_set(root, "majors", majors);
	return root;
}

void lx_host_doc_end(struct lx_doc *doc)
{
	lx_doc_map_set(doc, "end", lx_doc_new_bool(true));
}

char *lx_snapshot_to_yaml(const struct lx_host *host)
{
	struct lx_doc *doc = lx_host_to_doc(host);
	lx_host_doc_end(doc);
	char *text = lx_doc_to_yaml(doc);
	lx_doc_free(doc);
	return text;
}

/* ---- document -> model, with validation ---- */

struct loader {
	const char *file;
	struct lx_error *err;
};

/* A mapping being read: which of its keys were consumed, so that the
 * leftovers can be reported as unknown fields. */
struct fields {
	const struct lx_doc *map;
	const char *where; /* "gpus[2]" or "" at the top */
	bool used[64];
};

/* "parent.list[index]" (parent NULL at the top): the name of a list
 * element in error messages. Built for every element read, so without
 * printf, which costs more than reading the element. */
static char *element_name(const char *parent, const char *list, size_t index)
{
	struct lx_buf b = {0};
	char digits[24];
	size_t n = sizeof(digits);
	do
		digits[--n] = (char)('0' + index % 10);
	while (index /= 10);
	if (parent) {
		lx_buf_puts(&b, parent);
		lx_buf_append(&b, ".", 1);
	}
	lx_buf_puts(&b, list);
	lx_buf_append(&b, "[", 1);
	lx_buf_append(&b, digits + n, sizeof(digits) - n);
	lx_buf_append(&b, "]", 1);
	return lx_buf_steal(&b);
}

static char *field_name(const struct fields *f, const char *key)
{
	return *f->where ? lx_xasprintf("%s.%s", f->where, key) : lx_xstrdup(key);
}

static int bad_field(struct loader *l, int line, const struct fields *f, const char *key,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int bad_field(struct loader *l, int line, const struct fields *f, const char *key,
		     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = lx_xvasprintf(fmt, ap);
	va_end(ap);
	_cleanup_free_ char *name = field_name(f, key);
	return lx_error_set(l->err, "%s:%d: field '%s': %s", l->file, line, name, msg);
}

static int open_fields(struct loader *l, const struct lx_doc *d, const char *where,
		       struct fields *f)
{
	memset(f, 0, sizeof(*f));
	f->map = d;
	f->where = where;
	if (d->kind != LX_DOC_MAP)
		return lx_error_set(l->err, "%s:%d: %s%smust be a mapping, not %s", l->file, d->line,
				    *where ? where : "", *where ? " " : "the snapshot ",
				    lx_doc_kind_name(d->kind));
	if (d->n > sizeof(f->used) / sizeof(f->used[0]))
		return lx_error_set(l->err, "%s:%d: %s has too many fields", l->file, d->line,
				    *where ? where : "the snapshot");
	return 0;
}

/* Look a field up; *out NULL when absent (an error when required). */
static int get_field(struct loader *l, struct fields *f, const char *key, bool required,
		     const struct lx_doc **out)
{
	*out = NULL;
	for (size_t i = 0; i < f->map->n; i++)
		if (strcmp(f->map->keys[i], key) == 0) {
			f->used[i] = true;
			*out = f->map->items[i];
			return 0;
		}
	if (required)
		return bad_field(l, f->map->line, f, key, "missing (it is required)");
	return 0;
}

static int close_fields(struct loader *l, const struct fields *f)
{
	for (size_t i = 0; i < f->map->n; i++)
		if (!f->used[i])
			return bad_field(l, f->map->key_lines[i], f, f->map->keys[i],
					 "unknown field (see docs/schema.md)");
	return 0;
}

static int expect_kind(struct loader *l, struct fields *f, const char *key,
		       const struct lx_doc *d, enum lx_doc_kind kind, bool nullable)
{
	if (d->kind == kind || (nullable && d->kind == LX_DOC_NULL))
		return 0;
	return bad_field(l, d->line, f, key, "must be %s%s, not %s", lx_doc_kind_name(kind),
			 nullable ? " or null" : "", lx_doc_kind_name(d->kind));
}

/* Optional-or-required string field; NULL for null or absent. */
/* A string field as it is in the document (*out NULL when absent or null). */
static int peek_str(struct loader *l, struct fields *f, const char *key, bool required,
		    const struct lx_doc **out)
{
	const struct lx_doc *d;
	*out = NULL;
	if (get_field(l, f, key, required, &d) < 0)
		return -1;
	if (!d)
		return 0;
	if (expect_kind(l, f, key, d, LX_DOC_STR, !required) < 0)
		return -1;
	if (d->kind == LX_DOC_STR)
		*out = d;
	return 0;
}

static int read_str(struct loader *l, struct fields *f, const char *key, bool required,
		    char **out)
{
	const struct lx_doc *d;
	*out = NULL;
	if (peek_str(l, f, key, required, &d) < 0)
		return -1;
	if (d)
		*out = lx_xstrdup(d->str);
	return 0;
}

/* Integer field in [min, max]; null or absent gives LX_UNKNOWN when allowed. */
static int read_int(struct loader *l, struct fields *f, const char *key, bool required,
		    long long min, long long max, long long *out)
{
	const struct lx_doc *d;
	*out = LX_UNKNOWN;
	if (get_field(l, f, key, required, &d) < 0)
		return -1;
	if (!d)
		return 0;
	if (expect_kind(l, f, key, d, LX_DOC_INT, !required) < 0)
		return -1;
	if (d->kind == LX_DOC_INT && (d->integer < min || d->integer > max))
		return bad_field(l, d->line, f, key, "%lld is out of range (%lld..%lld)", d->integer,
				 min, max);
	if (d->kind == LX_DOC_INT)
		*out = d->integer;
	return 0;
}

static int read_hex(struct loader *l, struct fields *f, const char *key, unsigned long max,
		    unsigned long *out)
{
	const struct lx_doc *d;
	*out = 0;
	if (peek_str(l, f, key, false, &d) < 0)
		return -1;
	if (!d)
		return 0;
	unsigned long long v;
	if (!lx_str_starts_with(d->str, "0x") || !lx_parse_uint(d->str + 2, 16, max, &v))
		return bad_field(l, d->line, f, key, "'%s' is not a hex number like \"0x%0*lx\"",
				 d->str, max > 0xffff ? 6 : 4, max > 0xffff ? 0x030200UL : 0x10deUL);
	*out = (unsigned long)v;
	return 0;
}

static int read_bool(struct loader *l, struct fields *f, const char *key, bool *out)
{
	const struct lx_doc *d;
	*out = false;
	if (get_field(l, f, key, false, &d) < 0)
		return -1;
	if (!d)
		return 0;
	if (expect_kind(l, f, key, d, LX_DOC_BOOL, false) < 0)
		return -1;
	*out = d->boolean;
	return 0;
}

/* An optional boolean that may be unknown: absent or null is LX_UNSURE. */
static int read_tristate(struct loader *l, struct fields *f, const char *key,
			 enum lx_tristate *out)
{
	const struct lx_doc *d;
	*out = LX_UNSURE;
	if (get_field(l, f, key, false, &d) < 0)
		return -1;
	if (!d || d->kind == LX_DOC_NULL)
		return 0;
	if (expect_kind(l, f, key, d, LX_DOC_BOOL, true) < 0)
		return -1;
	*out = d->boolean ? LX_YES : LX_NO;
	return 0;
}

static int read_str_list(struct loader *l, struct fields *f, const char *key,
			 struct lx_strv *out)
{
	const struct lx_doc *d;
	if (get_field(l, f, key, false, &d) < 0)
		return -1;
	if (!d)
		return 0;
	if (expect_kind(l, f, key, d, LX_DOC_LIST, false) < 0)
		return -1;
	for (size_t i = 0; i < d->n; i++) {
		if (d->items[i]->kind != LX_DOC_STR)
			return bad_field(l, d->items[i]->line, f, key, "item %zu must be a string", i);
		lx_strv_push(out, d->items[i]->str);
	}
	return 0;
}

/* A list field; *out NULL when absent. */
static int read_list(struct loader *l, struct fields *f, const char *key, bool required,
		     const struct lx_doc **out)
{
	if (get_field(l, f, key, required, out) < 0)
		return -1;
	if (*out && expect_kind(l, f, key, *out, LX_DOC_LIST, false) < 0)
		return -1;
	return 0;
}

static int load_drm(struct loader *l, const struct lx_doc *list, const char *where,
		    struct lx_gpu *g)
{
	g->drm = lx_xcalloc(list->n, sizeof(*g->drm));
	for (size_t i = 0; i < list->n; i++) {
		_cleanup_free_ char *sub = element_name(where, "drm", i);
		struct fields f;
		if (open_fields(l, list->items[i], sub, &f) < 0)
			return -1;
		struct lx_drm_node *d = &g->drm[g->n_drm++];
		if (read_str(l, &f, "name", true, &d->name) < 0 ||
		    read_str(l, &f, "by_path", false, &d->by_path) < 0 || close_fields(l, &f) < 0)
			return -1;
		if (!(lx_str_starts_with(d->name, "card") || lx_str_starts_with(d->name, "renderD")) ||
		    strchr(d->name, '/'))
			return bad_field(l, list->items[i]->line, &f, "name",
					 "'%s' is not a DRM node name (cardN, renderDN)", d->name);
	}
	return 0;
}

/* A 64-bit value written as "0x" and hex digits (BAR addresses, flags). */
static int read_hex64(struct loader *l, struct fields *f, const char *key, uint64_t *out)
{
	const struct lx_doc *d;
	if (peek_str(l, f, key, true, &d) < 0)
		return -1;
	unsigned long long v; /* required, not nullable: d is a string here */
	if (!lx_str_starts_with(d->str, "0x") || !lx_parse_uint(d->str + 2, 16, UINT64_MAX, &v))
		return bad_field(l, d->line, f, key,
				 "'%s' is not a hex number like \"0x000000a000000000\"", d->str);
	*out = v;
	return 0;
}

static int load_bars(struct loader *l, const struct lx_doc *list, const char *where,
		     struct lx_gpu *g)
{
	g->bars = lx_xcalloc(list->n ? list->n : 1, sizeof(*g->bars));
	g->bars_known = true;
	for (size_t i = 0; i < list->n; i++) {
		_cleanup_free_ char *sub = element_name(where, "bars", i);
		struct fields f;
		long long v;
		struct lx_pci_bar *b = &g->bars[g->n_bars++];
		if (open_fields(l, list->items[i], sub, &f) < 0 ||
		    read_int(l, &f, "index", true, 0, 5, &v) < 0)
			return -1;
		b->index = (unsigned)v;
		if (read_hex64(l, &f, "start", &b->start) < 0 ||
		    read_hex64(l, &f, "end", &b->end) < 0 ||
		    read_hex64(l, &f, "flags", &b->flags) < 0 || close_fields(l, &f) < 0)
			return -1;
		if (lx_gpu_bar(&(struct lx_gpu){.bars = g->bars, .n_bars = g->n_bars - 1}, b->index))
			return bad_field(l, list->items[i]->line, &f, "index", "BAR %u is listed twice",
					 b->index);
	}
	return 0;
}

static int load_gpu(struct loader *l, const struct lx_doc *d, size_t index, struct lx_gpu *g)
{
	_cleanup_free_ char *where = element_name(NULL, "gpus", index);
	struct fields f;
	long long v;
	unsigned long hex;
	_cleanup_free_ char *bdf = NULL;
	g->minor = g->numa_node = g->iommu_group = LX_UNKNOWN;
	if (open_fields(l, d, where, &f) < 0)
		return -1;
	if (read_int(l, &f, "index", false, 0, 1000000, &v) < 0)
		return -1;
	if (v != LX_UNKNOWN && v != (long long)index)
		return bad_field(l, lx_doc_map_get(d, "index")->line, &f, "index",
				 "is %lld but this is GPU %zu in the list", v, index);
	if (read_str(l, &f, "bdf", true, &bdf) < 0)
		return -1;
	if (!lx_pci_address_normalize(bdf, &g->bdf))
		return bad_field(l, lx_doc_map_get(d, "bdf")->line, &f, "bdf",
				 "'%s' is not a PCI address like \"0000:41:00.0\"", bdf);
	/* Without vendor_id: a snapshot of a lxgpu that kept NVIDIA's GPUs only. */
	bool has_vendor = lx_doc_map_get(d, "vendor_id") && lx_doc_map_get(d, "vendor_id")->kind == LX_DOC_STR;
	if (read_hex(l, &f, "vendor_id", 0xffff, &hex) < 0)
		return -1;
	g->vendor_id = has_vendor ? (uint16_t)hex : LX_NVIDIA_VENDOR_ID;
	if (read_hex(l, &f, "device_id", 0xffff, &hex) < 0)
		return -1;
	g->device_id = (uint16_t)hex;
	if (read_hex(l, &f, "class", 0xffffff, &hex) < 0)
		return -1;
	g->class_code = (uint32_t)hex;
	if (read_str(l, &f, "model", false, &g->model) < 0 ||
	    read_str(l, &f, "uuid", false, &g->uuid) < 0 ||
	    read_str(l, &f, "vbios", false, &g->vbios) < 0 ||
	    read_str(l, &f, "driver", false, &g->driver) < 0)
		return -1;
	if (read_int(l, &f, "minor", false, 0, 255, &v) < 0)
		return -1;
	g->minor = (int)v;
	if (read_int(l, &f, "numa_node", false, 0, 65535, &v) < 0)
		return -1;
	g->numa_node = (int)v;
	if (read_int(l, &f, "iommu_group", false, 0, 1000000, &v) < 0)
		return -1;
	g->iommu_group = (int)v;
	_cleanup_free_ char *iommu_type = NULL;
	if (read_str(l, &f, "iommu_type", false, &iommu_type) < 0)
		return -1;
	/* Absent (older snapshots): no group is no IOMMU, a group's type unknown. */
	g->iommu_type = g->iommu_group == LX_UNKNOWN ? LX_IOMMU_NONE : LX_IOMMU_UNKNOWN;
	if (iommu_type) {
		int line = lx_doc_map_get(d, "iommu_type")->line;
		if (!lx_iommu_type_from_name(iommu_type, &g->iommu_type) ||
		    g->iommu_type == LX_IOMMU_UNKNOWN)
			return bad_field(l, line, &f, "iommu_type",
					 "'%s' is not one of none, identity, DMA, DMA-FQ, unmanaged, "
					 "blocked (or null)",
					 iommu_type);
		if ((g->iommu_type == LX_IOMMU_NONE) != (g->iommu_group == LX_UNKNOWN))
			return bad_field(l, line, &f, "iommu_type",
					 "'%s' does not fit iommu_group %s (none means no group)",
					 iommu_type, g->iommu_group == LX_UNKNOWN ? "null" : "given");
	}
	if (read_str_list(l, &f, "pcie_path", &g->pcie_path) < 0)
		return -1;
	for (size_t i = 0; i < g->pcie_path.n; i++) {
		_cleanup_free_ char *normal = NULL;
		if (!lx_pci_address_normalize(g->pcie_path.items[i], &normal))
			return bad_field(l, lx_doc_map_get(d, "pcie_path")->line, &f, "pcie_path",
					 "'%s' is not a PCI address", g->pcie_path.items[i]);
		free(g->pcie_path.items[i]);
		g->pcie_path.items[i] = lx_xstrdup(normal);
	}
	const struct lx_doc *bars;
	if (get_field(l, &f, "bars", false, &bars) < 0 ||
	    (bars && expect_kind(l, &f, "bars", bars, LX_DOC_LIST, true) < 0) ||
	    (bars && bars->kind == LX_DOC_LIST && load_bars(l, bars, where, g) < 0))
		return -1;
	const struct lx_doc *drm;
	if (read_list(l, &f, "drm", false, &drm) < 0 || (drm && load_drm(l, drm, where, g) < 0))
		return -1;
	return close_fields(l, &f);
}

static int load_node(struct loader *l, const struct lx_doc *d, size_t index,
		     struct lx_dev_node *n)
{
	_cleanup_free_ char *where = element_name(NULL, "nodes", index);
	struct fields f;
	long long v;
	_cleanup_free_ char *type = NULL, *mode = NULL;
	if (open_fields(l, d, where, &f) < 0 || read_str(l, &f, "path", true, &n->path) < 0)
		return -1;
	if (!lx_str_starts_with(n->path, "/dev/") || strstr(n->path, "/../") ||
	    lx_str_ends_with(n->path, "/.."))
		return bad_field(l, lx_doc_map_get(d, "path")->line, &f, "path",
				 "'%s' is not a path under /dev/", n->path);
	if (read_str(l, &f, "type", false, &type) < 0)
		return -1;
	n->type = LX_NODE_CHAR;
	if (type && strcmp(type, "block") == 0)
		n->type = LX_NODE_BLOCK;
	else if (type && strcmp(type, "other") == 0)
		n->type = LX_NODE_OTHER;
	else if (type && strcmp(type, "char") != 0)
		return bad_field(l, lx_doc_map_get(d, "type")->line, &f, "type",
				 "'%s' is not one of char, block, other", type);
	if (read_int(l, &f, "major", true, 0, 4095, &v) < 0)
		return -1;
	n->major = (unsigned)v;
	if (read_int(l, &f, "minor", true, 0, 1048575, &v) < 0)
		return -1;
	n->minor = (unsigned)v;
	if (read_str(l, &f, "mode", true, &mode) < 0)
		return -1;
	unsigned long long m;
	if (!lx_parse_uint(mode, 8, 07777, &m))
		return bad_field(l, lx_doc_map_get(d, "mode")->line, &f, "mode",
				 "'%s' is not an octal mode like \"0666\"", mode);
	n->mode = (unsigned)m;
	if (read_int(l, &f, "uid", true, 0, 4294967294LL, &v) < 0)
		return -1;
	n->uid = (unsigned)v;
	if (read_int(l, &f, "gid", true, 0, 4294967294LL, &v) < 0)
		return -1;
	n->gid = (unsigned)v;
	return close_fields(l, &f);
}

static int load_driver(struct loader *l, const struct lx_doc *d, struct lx_driver *drv)
{
	struct fields f;
	_cleanup_free_ char *flavor = NULL;
	if (open_fields(l, d, "driver", &f) < 0 ||
	    read_str(l, &f, "version", false, &drv->version) < 0 ||
	    read_str(l, &f, "flavor", false, &flavor) < 0)
		return -1;
	if (flavor && !lx_driver_flavor_from_name(flavor, &drv->flavor))
		return bad_field(l, lx_doc_map_get(d, "flavor")->line, &f, "flavor",
				 "'%s' is not one of open, proprietary, unknown", flavor);
	if (read_str_list(l, &f, "modules", &drv->modules) < 0 ||
	    read_str_list(l, &f, "firmware", &drv->firmware) < 0 ||
	    read_bool(l, &f, "persistenced", &drv->persistenced) < 0 ||
	    read_tristate(l, &f, "uvm_disable_hmm", &drv->uvm_disable_hmm) < 0)
		return -1;
	return close_fields(l, &f);
}

/* Optional (null or absent: not read, as in snapshots from before it). */
static int load_kernel_config(struct loader *l, const struct lx_doc *d, struct lx_kernel_config *kc)
{
	kc->hmm_mirror = kc->device_private = LX_UNSURE;
	if (!d || d->kind == LX_DOC_NULL)
		return 0;
	struct fields f;
	if (open_fields(l, d, "kernel_config", &f) < 0 ||
	    read_str(l, &f, "source", true, &kc->source) < 0 ||
	    read_tristate(l, &f, "hmm_mirror", &kc->hmm_mirror) < 0 ||
	    read_tristate(l, &f, "device_private", &kc->device_private) < 0)
		return -1;
	return close_fields(l, &f);
}

/* Schema 1: `majors` maps name -> number, nvidia* and drm only. */
static int load_majors_v1(struct loader *l, const struct lx_doc *d, struct lx_host *h)
{
	struct fields f = {.map = d, .where = "majors"};
	if (d->kind != LX_DOC_MAP)
		return bad_field(l, d->line, &(struct fields){.map = d, .where = ""}, "majors",
				 "must be a mapping of name: number");
	h->majors = lx_xcalloc(d->n, sizeof(*h->majors));
	for (size_t i = 0; i < d->n; i++) {
		const struct lx_doc *v = d->items[i];
		if (v->kind != LX_DOC_INT || v->integer < 0 || v->integer > 4095)
			return bad_field(l, v->line, &f, d->keys[i],
					 "must be a major number (0..4095)");
		h->majors[i].name = lx_xstrdup(d->keys[i]);
		h->majors[i].number = (unsigned)v->integer;
		h->n_majors++;
	}
	h->majors_complete = false;
	return 0;
}

/* Schema 2: `majors` lists {major, name}, /proc/devices order; a number and
 * a name may each appear more than once, as they do there. */
static int load_majors_v2(struct loader *l, const struct lx_doc *list, struct lx_host *h)
{
	h->majors = lx_xcalloc(list->n, sizeof(*h->majors));
	for (size_t i = 0; i < list->n; i++) {
		_cleanup_free_ char *where = element_name(NULL, "majors", i);
		struct fields f;
		long long v;
		struct lx_major *m = &h->majors[h->n_majors++];
		if (open_fields(l, list->items[i], where, &f) < 0 ||
		    read_int(l, &f, "major", true, 0, 4095, &v) < 0 ||
		    read_str(l, &f, "name", true, &m->name) < 0 || close_fields(l, &f) < 0)
			return -1;
		m->number = (unsigned)v;
		if (!*m->name || strchr(m->name, '\n'))
			return bad_field(l, lx_doc_map_get(list->items[i], "name")->line, &f, "name",
					 "must be a name as /proc/devices prints it");
	}
	return 0;
}

static int load_cap_list(struct loader *l, const struct lx_doc *list, const char *key,
			 struct lx_capability **caps, size_t *n)
{
	*caps = lx_xcalloc(list->n + 1, sizeof(**caps));
	for (size_t i = 0; i < list->n; i++) {
		_cleanup_free_ char *where = element_name(NULL, key, i);
		struct fields f;
		long long v;
		struct lx_capability *c = &(*caps)[(*n)++];
		if (open_fields(l, list->items[i], where, &f) < 0 ||
		    read_str(l, &f, "name", true, &c->name) < 0 ||
		    read_int(l, &f, "minor", true, 0, 1048575, &v) < 0 || close_fields(l, &f) < 0)
			return -1;
		c->minor = (unsigned)v;
		/* The table holds MIG names only: anything else is a hand edit
		 * that would make a minor mean something the driver never said. */
		if (strcmp(key, "mig_minors") == 0 && lx_mig_ref_of_name(c->name).kind == LX_MIG_NONE)
			return bad_field(l, lx_doc_map_get(list->items[i], "name")->line, &f, "name",
					 "'%s' is not a MIG capability (mig/config, mig/monitor, "
					 "gpuN/mig/giX, gpuN/mig/giX/ciY)", c->name);
	}
	return 0;
}

/* A path the firmware loader would read: absolute, no ".." component. */
static bool firmware_path_valid(const char *path)
{
	return path[0] == '/' && lx_firmware_name_valid(path + 1);
}

#define DRM_CHECKS_MAX 256

/* drm_checks (docs/schema.md): untrusted like the rest; every name is a
 * relative firmware name, every path absolute without "..", every address
 * a PCI address, every driver a DRM GPU driver. */
static int load_drm_checks(struct loader *l, const struct lx_doc *d, struct lx_drm_checks *c)
{
	struct fields f;
	const struct lx_doc *list;
	if (open_fields(l, d, "drm_checks", &f) < 0 ||
	    read_list(l, &f, "firmware_requests", false, &list) < 0)
		return -1;
	c->checked = true;
	if (list && list->n > DRM_CHECKS_MAX)
		return bad_field(l, list->line, &f, "firmware_requests", "more than %d entries",
				 DRM_CHECKS_MAX);
	c->requests = list && list->n ? lx_xcalloc(list->n, sizeof(*c->requests)) : NULL;
	for (size_t i = 0; list && i < list->n; i++) {
		_cleanup_free_ char *where = element_name("drm_checks", "firmware_requests", i);
		struct fields rf;
		long long error;
		struct lx_fw_request *r = &c->requests[c->n_requests++];
		_cleanup_free_ char *gpu = NULL;
		if (open_fields(l, list->items[i], where, &rf) < 0 ||
		    read_str(l, &rf, "name", true, &r->name) < 0 ||
		    read_str(l, &rf, "driver", true, &r->driver) < 0 ||
		    read_str(l, &rf, "gpu", false, &gpu) < 0 ||
		    read_int(l, &rf, "error", false, -4095, -1, &error) < 0 ||
		    read_str(l, &rf, "found", false, &r->found) < 0 ||
		    read_str(l, &rf, "unreadable", false, &r->unreadable) < 0)
			return -1;
		const struct lx_doc *item = list->items[i];
		if (!lx_firmware_name_valid(r->name))
			return bad_field(l, lx_doc_map_get(item, "name")->line, &rf, "name",
					 "'%s' is not a firmware name (relative, no '..')", r->name);
		if (!lx_drm_gpu_driver(r->driver))
			return bad_field(l, lx_doc_map_get(item, "driver")->line, &rf, "driver",
					 "'%s' is not one of amdgpu, i915, xe", r->driver);
		if (gpu && !lx_pci_address_normalize(gpu, &r->gpu))
			return bad_field(l, lx_doc_map_get(item, "gpu")->line, &rf, "gpu",
					 "'%s' is not a PCI address", gpu);
		r->error = error == LX_UNKNOWN ? 0 : (int)error;
		if ((r->found && !firmware_path_valid(r->found)) ||
		    (r->unreadable && !firmware_path_valid(r->unreadable)))
			return bad_field(l, lx_doc_map_get(item, r->found && !firmware_path_valid(r->found)
								   ? "found" : "unreadable")->line,
					 &rf, r->found && !firmware_path_valid(r->found) ? "found" : "unreadable",
					 "not an absolute path without '..'");
		if (close_fields(l, &rf) < 0)
			return -1;
	}
	if (read_str_list(l, &f, "missing_firmware_dirs", &c->missing_dirs) < 0 ||
	    read_bool(l, &f, "kfd_topology", &c->kfd_topology) < 0 ||
	    read_str_list(l, &f, "kfd_missing", &c->kfd_missing) < 0)
		return -1;
	for (size_t i = 0; i < c->missing_dirs.n; i++)
		if (!lx_drm_gpu_driver(c->missing_dirs.items[i]))
			return bad_field(l, lx_doc_map_get(d, "missing_firmware_dirs")->line, &f,
					 "missing_firmware_dirs", "'%s' is not one of amdgpu, i915, xe",
					 c->missing_dirs.items[i]);
	for (size_t i = 0; i < c->kfd_missing.n; i++) {
		char *normal = NULL;
		if (!lx_pci_address_normalize(c->kfd_missing.items[i], &normal))
			return bad_field(l, lx_doc_map_get(d, "kfd_missing")->line, &f, "kfd_missing",
					 "'%s' is not a PCI address", c->kfd_missing.items[i]);
		free(c->kfd_missing.items[i]);
		c->kfd_missing.items[i] = normal;
	}
	return close_fields(l, &f);
}

/* mig_uuids: {uuid, gpu, gi, ci}; each UUID and each instance once, on an
 * NVIDIA GPU of this model. */
static int load_mig_uuids(struct loader *l, const struct lx_doc *list, struct lx_host *h)
{
	h->mig_uuids = lx_xcalloc(list->n + 1, sizeof(*h->mig_uuids));
	for (size_t i = 0; i < list->n; i++) {
		_cleanup_free_ char *where = element_name(NULL, "mig_uuids", i);
		const struct lx_doc *item = list->items[i];
		struct fields f;
		long long gpu, gi, ci;
		struct lx_mig_uuid *m = &h->mig_uuids[h->n_mig_uuids++];
		if (open_fields(l, item, where, &f) < 0 ||
		    read_str(l, &f, "uuid", true, &m->uuid) < 0 ||
		    read_int(l, &f, "gpu", true, 0, 1000000, &gpu) < 0 ||
		    read_int(l, &f, "gi", true, 0, 1000, &gi) < 0 ||
		    read_int(l, &f, "ci", true, 0, 1000, &ci) < 0 || close_fields(l, &f) < 0)
			return -1;
		m->gpu = (size_t)gpu;
		m->gi = (int)gi;
		m->ci = (int)ci;
		if (!lx_mig_uuid_is_canonical(m->uuid))
			return bad_field(l, lx_doc_map_get(item, "uuid")->line, &f, "uuid",
					 "'%s' is not a MIG UUID as nvidia-smi -L prints it "
					 "(MIG-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)",
					 m->uuid);
		if (m->gpu >= h->n_gpus || lx_gpu_kind(&h->gpus[m->gpu]) != LX_GPU_NVIDIA)
			return bad_field(l, lx_doc_map_get(item, "gpu")->line, &f, "gpu",
					 "%lld is not the index of an NVIDIA GPU in gpus", gpu);
		for (size_t k = 0; k + 1 < h->n_mig_uuids; k++) {
			const struct lx_mig_uuid *o = &h->mig_uuids[k];
			if (strcasecmp(o->uuid, m->uuid) == 0)
				return bad_field(l, lx_doc_map_get(item, "uuid")->line, &f, "uuid",
						 "%s is listed twice (mig_uuids[%zu])", m->uuid, k);
			if (o->gpu == m->gpu && o->gi == m->gi && o->ci == m->ci)
				return bad_field(l, item->line, &f, "gi",
						 "GPU %zu's gi%d/ci%d is listed twice (mig_uuids[%zu]): "
						 "one instance has one UUID",
						 m->gpu, m->gi, m->ci, k);
		}
	}
	return 0;
}

static int load_caps(struct loader *l, const struct lx_doc *list, struct lx_host *h)
{
	return load_cap_list(l, list, "capabilities", &h->caps, &h->n_caps);
}

static int compare_cap_minor(const void *a, const void *b)
{
	unsigned x = ((const struct lx_capability *)a)->minor;
	unsigned y = ((const struct lx_capability *)b)->minor;
	return x < y ? -1 : x > y;
}

static int compare_bridge_bdf(const void *a, const void *b)
{
	return strcmp(((const struct lx_pci_bridge *)a)->bdf, ((const struct lx_pci_bridge *)b)->bdf);
}

static bool on_some_path(const struct lx_host *h, const char *bdf)
{
	for (size_t i = 0; i < h->n_gpus; i++)
		for (size_t j = 0; j < h->gpus[i].pcie_path.n; j++)
			if (strcmp(h->gpus[i].pcie_path.items[j], bdf) == 0)
				return true;
	return false;
}

static int load_bridges(struct loader *l, const struct lx_doc *list, struct lx_host *h)
{
	size_t n = list ? list->n : 0;
	h->bridges = lx_xcalloc(n ? n : 1, sizeof(*h->bridges));
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *where = element_name(NULL, "bridges", i);
		struct fields f;
		_cleanup_free_ char *bdf = NULL, *acs = NULL;
		const struct lx_doc *item = list->items[i];
		if (open_fields(l, item, where, &f) < 0 || read_str(l, &f, "bdf", true, &bdf) < 0 ||
		    read_str(l, &f, "acs", false, &acs) < 0)
			return -1;
		struct lx_pci_bridge *b = &h->bridges[h->n_bridges];
		memset(b, 0, sizeof(*b));
		if (!lx_pci_address_normalize(bdf, &b->bdf))
			return bad_field(l, lx_doc_map_get(item, "bdf")->line, &f, "bdf",
					 "'%s' is not a PCI address", bdf);
		h->n_bridges++;
		if (lx_host_find_bridge(&(struct lx_host){.bridges = h->bridges,
							 .n_bridges = h->n_bridges - 1},
					b->bdf))
			return bad_field(l, lx_doc_map_get(item, "bdf")->line, &f, "bdf",
					 "'%s' is listed twice", b->bdf);
		if (!on_some_path(h, b->bdf))
			return bad_field(l, lx_doc_map_get(item, "bdf")->line, &f, "bdf",
					 "'%s' is on no GPU's pcie_path", b->bdf);
		b->acs = LX_ACS_UNKNOWN;
		if (acs && strcmp(acs, "present") == 0)
			b->acs = LX_ACS_PRESENT;
		else if (acs && strcmp(acs, "absent") == 0)
			b->acs = LX_ACS_ABSENT;
		else if (acs)
			return bad_field(l, lx_doc_map_get(item, "acs")->line, &f, "acs",
					 "'%s' is not one of present, absent (or null: unknown)", acs);
		unsigned long cap, ctrl;
		if (read_hex(l, &f, "acs_capability", 0xffff, &cap) < 0 ||
		    read_hex(l, &f, "acs_control", 0xffff, &ctrl) < 0)
			return -1;
		bool have = lx_doc_map_get(item, "acs_capability") &&
			    lx_doc_map_get(item, "acs_capability")->kind == LX_DOC_STR &&
			    lx_doc_map_get(item, "acs_control") &&
			    lx_doc_map_get(item, "acs_control")->kind == LX_DOC_STR;
		bool any = (lx_doc_map_get(item, "acs_capability") &&
			    lx_doc_map_get(item, "acs_capability")->kind == LX_DOC_STR) ||
			   (lx_doc_map_get(item, "acs_control") &&
			    lx_doc_map_get(item, "acs_control")->kind == LX_DOC_STR);
		if (b->acs == LX_ACS_PRESENT && !have)
			return bad_field(l, item->line, &f, "acs",
					 "present needs acs_capability and acs_control");
		if (b->acs != LX_ACS_PRESENT && any)
			return bad_field(l, item->line, &f, "acs",
					 "acs_capability/acs_control are only for acs: present");
		b->acs_cap = (uint16_t)cap;
		b->acs_ctrl = (uint16_t)ctrl;
		if (close_fields(l, &f) < 0)
			return -1;
	}
	/* Older snapshots have no list: every bridge on a path, ACS unknown. */
	for (size_t i = 0; i < h->n_gpus; i++)
		for (size_t j = 0; j < h->gpus[i].pcie_path.n; j++) {
			const char *bdf = h->gpus[i].pcie_path.items[j];
			if (lx_host_find_bridge(h, bdf))
				continue;
			h->bridges = lx_xrealloc(h->bridges, (h->n_bridges + 1) * sizeof(*h->bridges));
			h->bridges[h->n_bridges++] =
				(struct lx_pci_bridge){.bdf = lx_xstrdup(bdf), .acs = LX_ACS_UNKNOWN};
		}
	if (h->n_bridges > 1)
		qsort(h->bridges, h->n_bridges, sizeof(*h->bridges), compare_bridge_bdf);
	return 0;
}

static int check_unique(struct loader *l, const struct lx_doc *list, const char *what,
			const char *key, char *const *values, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(values[i], values[j]) == 0)
				return lx_error_set(l->err, "%s:%d: field '%s[%zu].%s': '%s' is listed twice",
						    l->file, list->items[i]->line, what, i, key,
						    values[i]);
	return 0;
}

static int compare_node_path(const void *a, const void *b)
{
	return strcmp(((const struct lx_dev_node *)a)->path, ((const struct lx_dev_node *)b)->path);
}

static int compare_cap_name(const void *a, const void *b)
{
	return strcmp(((const struct lx_capability *)a)->name,
		      ((const struct lx_capability *)b)->name);
}

/* Who published the model (lxgpu publish): node, boot, scan time. */
static int load_published(struct loader *l, const struct lx_doc *d, struct lx_publication *p)
{
	struct fields f;
	if (open_fields(l, d, "published", &f) < 0 || read_str(l, &f, "node", true, &p->node) < 0 ||
	    read_int(l, &f, "boot_time", true, 0, 1LL << 40, &p->boot_time) < 0 ||
	    read_str(l, &f, "boot_id", false, &p->boot_id) < 0 ||
	    read_int(l, &f, "scanned_at", true, 0, 1LL << 40, &p->scanned_at) < 0 ||
	    close_fields(l, &f) < 0)
		return -1;
	if (!*p->node || strchr(p->node, '/') || strchr(p->node, '\n'))
		return bad_field(l, lx_doc_map_get(d, "node")->line, &f, "node",
				 "'%s' is not a node name", p->node);
	p->present = true;
	return 0;
}

/* ---- the parts agree ---- */

static const char cut_fix[] = "the file was cut short or edited: take the snapshot again "
			      "(lxgpu snapshot -o FILE) or restore the whole file";

static bool major_named(const struct lx_host *h, const char *name)
{
	for (size_t i = 0; i < h->n_majors; i++)
		if (strcmp(h->majors[i].name, name) == 0)
			return true;
	return false;
}

/* What no host can show, whatever its state: a loaded module without the
 * major it registers (in a whole table), two GPUs with one minor. A node
 * whose major the table lacks, or a GPU without its /dev/nvidiaN, is a
 * real state (a node made before a module reload, one never made: doctor's
 * LXG123, LXG122), so it is no sign of a cut. */
static int check_parts_agree(struct loader *l, const struct lx_doc *root, const struct lx_host *h)
{
	static const struct {
		const char *module, *major, *major_before; /* major_before: the name until 550.40 */
	} registers[] = {{"nvidia", "nvidia", "nvidia-frontend"}, {"nvidia_uvm", "nvidia-uvm", NULL}};
	for (size_t i = 0; h->majors_complete && i < sizeof(registers) / sizeof(registers[0]); i++)
		if (lx_strv_contains(&h->driver.modules, registers[i].module) &&
		    !major_named(h, registers[i].major) &&
		    !(registers[i].major_before && major_named(h, registers[i].major_before)))
			return lx_error_set(l->err,
					    "%s:%d: field 'majors': the module %s is loaded (driver.modules) "
					    "but the character table, whole (majors_complete), has no '%s' "
					    "major, which it registers: %s",
					    l->file, lx_doc_map_get(root, "majors")->line,
					    registers[i].module, registers[i].major, cut_fix);
	for (size_t i = 0; i < h->n_gpus; i++)
		for (size_t j = 0; j < i; j++)
			if (h->gpus[i].minor != LX_UNKNOWN && h->gpus[i].minor == h->gpus[j].minor &&
			    lx_gpu_kind(&h->gpus[i]) == LX_GPU_NVIDIA &&
			    lx_gpu_kind(&h->gpus[j]) == LX_GPU_NVIDIA) {
				const struct lx_doc *gpus = lx_doc_map_get(root, "gpus");
				return lx_error_set(l->err,
						    "%s:%d: field 'gpus[%zu].minor': %d is also gpus[%zu]'s "
						    "(the driver gives each GPU its own): %s",
						    l->file,
						    lx_doc_map_get(gpus->items[i], "minor")->line, i,
						    h->gpus[i].minor, j, cut_fix);
			}
	return 0;
}

/* Schema 3's end marker: `end: true`, written as the last field. A file cut
 * at any line lacks it (a cut inside the line leaves "end: tr", no boolean). */
static int check_end(struct loader *l, const struct lx_doc *root, struct fields *f)
{
	const struct lx_doc *end;
	if (get_field(l, f, "end", false, &end) < 0)
		return -1;
	int last_line = root->n ? root->key_lines[root->n - 1] : root->line;
	if (!end || end->kind != LX_DOC_BOOL || !end->boolean)
		return lx_error_set(l->err,
				    "%s:%d: no end marker ('end: true', the last field, written by "
				    "lxgpu snapshot for schema %d): %s",
				    l->file, end ? end->line : last_line, SNAPSHOT_SCHEMA_END, cut_fix);
	/* Not required last: a tool that re-sorts the keys (PyYAML's dump) keeps
	 * the file whole, and lxgpu writes it last, so its own files are cut
	 * only with it. */
	return 0;
}

static int load_host(struct loader *l, const struct lx_doc *root, struct lx_host *h)
{
	struct fields f;
	long long schema;
	_cleanup_free_ char *cgroup = NULL;
	if (open_fields(l, root, "", &f) < 0 ||
	    read_int(l, &f, "schema", true, 0, 1000000, &schema) < 0)
		return -1;
	if (schema < SNAPSHOT_SCHEMA_OLDEST || schema > SNAPSHOT_SCHEMA)
		return bad_field(l, lx_doc_map_get(root, "schema")->line, &f, "schema",
				 "version %lld is not supported (this lxgpu reads %d to %d)", schema,
				 SNAPSHOT_SCHEMA_OLDEST, SNAPSHOT_SCHEMA);
	if (read_str(l, &f, "hostname", false, &h->hostname) < 0 ||
	    read_str(l, &f, "kernel", false, &h->kernel) < 0 ||
	    read_str(l, &f, "cgroup", false, &cgroup) < 0 ||
	    read_str(l, &f, "lxc_version", false, &h->lxc_version) < 0 ||
	    read_str(l, &f, "pve_container_version", false, &h->pve_container_version) < 0)
		return -1;
	if (h->lxc_version && lx_host_lxc_major(h) < 0)
		return bad_field(l, lx_doc_map_get(root, "lxc_version")->line, &f, "lxc_version",
				 "'%s' is not an LXC version: write what `lxc-start --version` "
				 "prints (6.0.4), or leave the field out",
				 h->lxc_version);
	const char *pv = h->pve_container_version;
	if (pv && (!isdigit((unsigned char)pv[0]) || pv[strspn(pv, "0123456789.")]))
		return bad_field(l, lx_doc_map_get(root, "pve_container_version")->line, &f,
				 "pve_container_version",
				 "'%s' is not a pve-container version: write its upstream version "
				 "(6.1.6, from 'dpkg-query -W pve-container'), or leave the field out",
				 pv);
	if (cgroup && !lx_cgroup_layout_from_name(cgroup, &h->cgroup))
		return bad_field(l, lx_doc_map_get(root, "cgroup")->line, &f, "cgroup",
				 "'%s' is not one of v1, v2, hybrid, unknown", cgroup);

	const struct lx_doc *d;
	if (get_field(l, &f, "published", false, &d) < 0 ||
	    (d && load_published(l, d, &h->published) < 0))
		return -1;
	if (get_field(l, &f, "driver", true, &d) < 0 || load_driver(l, d, &h->driver) < 0)
		return -1;
	if (get_field(l, &f, "kernel_config", false, &d) < 0 ||
	    load_kernel_config(l, d, &h->kernel_config) < 0)
		return -1;
	if (schema == 1) {
		if (get_field(l, &f, "majors", true, &d) < 0 || load_majors_v1(l, d, h) < 0)
			return -1;
	} else {
		/* Absent means complete: that is what schema 2 stores. */
		const struct lx_doc *complete;
		if (get_field(l, &f, "majors_complete", false, &complete) < 0 ||
		    (complete && expect_kind(l, &f, "majors_complete", complete, LX_DOC_BOOL, false) < 0))
			return -1;
		h->majors_complete = complete ? complete->boolean : true;
		if (read_list(l, &f, "majors", true, &d) < 0 || load_majors_v2(l, d, h) < 0)
			return -1;
	}

	if (read_list(l, &f, "gpus", true, &d) < 0)
		return -1;
	h->gpus = lx_xcalloc(d->n, sizeof(*h->gpus));
	for (size_t i = 0; i < d->n; i++) {
		h->n_gpus++;
		if (load_gpu(l, d->items[i], i, &h->gpus[i]) < 0)
			return -1;
	}
	char **bdfs = lx_xcalloc(h->n_gpus, sizeof(char *));
	for (size_t i = 0; i < h->n_gpus; i++)
		bdfs[i] = h->gpus[i].bdf;
	int rc = check_unique(l, d, "gpus", "bdf", bdfs, h->n_gpus);
	free(bdfs);
	if (rc < 0)
		return -1;
	for (size_t i = 1; i < h->n_gpus; i++)
		if (lx_gpu_compare(&h->gpus[i - 1], &h->gpus[i]) > 0)
			return lx_error_set(l->err,
					    "%s:%d: field 'gpus[%zu].bdf': GPUs must be listed in PCI "
					    "address order, NVIDIA's first (their index is their place "
					    "in it)",
					    l->file, lx_doc_map_get(d->items[i], "bdf")->line, i);

	if (read_list(l, &f, "nodes", true, &d) < 0)
		return -1;
	h->nodes = lx_xcalloc(d->n, sizeof(*h->nodes));
	for (size_t i = 0; i < d->n; i++) {
		h->n_nodes++;
		if (load_node(l, d->items[i], i, &h->nodes[i]) < 0)
			return -1;
	}
	char **paths = lx_xcalloc(h->n_nodes, sizeof(char *));
	for (size_t i = 0; i < h->n_nodes; i++)
		paths[i] = h->nodes[i].path;
	rc = check_unique(l, d, "nodes", "path", paths, h->n_nodes);
	free(paths);
	if (rc < 0)
		return -1;
	if (h->n_nodes > 1)
		qsort(h->nodes, h->n_nodes, sizeof(*h->nodes), compare_node_path);

	if (read_list(l, &f, "capabilities", false, &d) < 0 || (d && load_caps(l, d, h) < 0))
		return -1;
	if (h->n_caps > 1)
		qsort(h->caps, h->n_caps, sizeof(*h->caps), compare_cap_name);
	/* Optional: snapshots from before it, and hosts without the file. */
	if (read_list(l, &f, "mig_minors", false, &d) < 0 ||
	    (d && load_cap_list(l, d, "mig_minors", &h->mig_minors, &h->n_mig_minors) < 0))
		return -1;
	if (h->n_mig_minors > 1)
		qsort(h->mig_minors, h->n_mig_minors, sizeof(*h->mig_minors), compare_cap_minor);
	/* Optional too: written only when the scan ran nvidia-smi. */
	if (read_list(l, &f, "mig_uuids", false, &d) < 0 || (d && load_mig_uuids(l, d, h) < 0))
		return -1;
	if (h->n_mig_uuids > 1)
		qsort(h->mig_uuids, h->n_mig_uuids, sizeof(*h->mig_uuids), lx_mig_uuid_compare);
	/* Optional: doctor's and snapshot's checks of the DRM GPUs. */
	if (get_field(l, &f, "drm_checks", false, &d) < 0 ||
	    (d && load_drm_checks(l, d, &h->drm_checks) < 0))
		return -1;
	if (read_list(l, &f, "bridges", false, &d) < 0 || load_bridges(l, d, h) < 0)
		return -1;
	/* `scan --format yaml` adds the derived warnings: accept its output as a
	 * snapshot, and recompute them instead of trusting them. */
	if (read_list(l, &f, "warnings", false, &d) < 0)
		return -1;
	if (schema >= SNAPSHOT_SCHEMA_END && check_end(l, root, &f) < 0)
		return -1;
	if (close_fields(l, &f) < 0)
		return -1;
	return check_parts_agree(l, root, h);
}

int lx_snapshot_parse(const char *name, const char *text, size_t len, struct lx_host *host,
		      struct lx_error *err)
{
	memset(host, 0, sizeof(*host));
	struct lx_doc *doc;
	if (lx_doc_from_yaml(name, text, len, &doc, err) < 0)
		return -1;
	struct loader l = {.file = name, .err = err};
	int rc = load_host(&l, doc, host);
	lx_doc_free(doc);
	if (rc < 0)
		lx_host_free(host);
	return rc;
}

/* ---- bundles ---- */

static bool is_gzip(const char *data, size_t len)
{
	return len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
}

int lx_snapshot_load_buffer(const char *name, const char *data, size_t len, struct lx_host *host,
			    struct lx_error *err)
{
	memset(host, 0, sizeof(*host));
	if (!is_gzip(data, len))
		return lx_snapshot_parse(name, data, len, host, err);
	struct lx_tar_want want = {.name = BUNDLE_HOST_ENTRY};
	if (lx_targz_read(name, data, len, &want, 1, SNAPSHOT_MAX_SIZE, err) < 0)
		return -1;
	if (!want.data)
		return lx_error_set(err, "%s: the bundle has no %s", name, BUNDLE_HOST_ENTRY);
	_cleanup_free_ char *entry = lx_xasprintf("%s:%s", name, BUNDLE_HOST_ENTRY);
	int rc = lx_snapshot_parse(entry, want.data, want.len, host, err);
	free(want.data);
	return rc;
}

int lx_snapshot_load(const char *path, struct lx_host *host, struct lx_error *err)
{
	_cleanup_free_ char *data = NULL;
	size_t len;
	memset(host, 0, sizeof(*host));
	if (lx_read_file(path, SNAPSHOT_MAX_SIZE, &data, &len, err) < 0)
		return lx_error_prefix(err, "cannot load the host snapshot");
	return lx_snapshot_load_buffer(path, data, len, host, err);
}

static const char bundle_readme[] = "lxgpu host bundle\n"
				    BUNDLE_HOST_ENTRY ": the host model (docs/schema.md)\n"
				    "evidence/: the raw files it was scanned from\n";

static int bundle_build(const char *path, const char *yaml, const struct lx_evidence *ev,
			struct lx_buf *out, struct lx_error *err)
{
	size_t n = 2 + (ev ? ev->n : 0);
	struct lx_tar_file *files = lx_xcalloc(n, sizeof(*files));
	struct lx_strv names = {0};
	files[0] = (struct lx_tar_file){BUNDLE_HOST_ENTRY, yaml, strlen(yaml), 0};
	files[1] = (struct lx_tar_file){"README", bundle_readme, strlen(bundle_readme), 0};
	size_t k = 2;
	for (size_t i = 0; ev && i < ev->n; i++) {
		const char *p = ev->files[i].path;
		while (*p == '/')
			p++;
		char *name = lx_xasprintf("evidence/%s", p);
		lx_strv_push_owned(&names, name);
		if (lx_tar_name_is_safe(name))
			files[k++] = (struct lx_tar_file){name, ev->files[i].data, ev->files[i].len, 0};
	}
	int rc = lx_targz_build(files, k, out, err);
	if (rc < 0)
		lx_error_prefix(err, "%s", path);
	lx_strv_free(&names);
	free(files);
	return rc;
}

int lx_snapshot_save(const char *path, const struct lx_host *host,
		     const struct lx_evidence *evidence, struct lx_error *err)
{
	_cleanup_free_ char *yaml = lx_snapshot_to_yaml(host);
	if (lx_str_ends_with(path, ".yaml") || lx_str_ends_with(path, ".yml"))
		return lx_write_file_atomic(path, yaml, strlen(yaml), 0644, err);
	if (!lx_str_ends_with(path, ".tar.gz") && !lx_str_ends_with(path, ".tgz"))
		return lx_error_set(err,
				    "%s: unknown snapshot type; name it FILE.yaml (the model) or "
				    "FILE.tar.gz (the model plus the raw evidence)",
				    path);
	struct lx_buf bundle = {0};
	int rc = bundle_build(path, yaml, evidence, &bundle, err);
	if (rc == 0)
		rc = lx_write_file_atomic(path, bundle.data, bundle.len, 0644, err);
	lx_buf_free(&bundle);
	return rc;
}
