/* The effective access as a document, for verify's JSON and YAML. */
#include "lxgpu/access.h"
#include "lxgpu/report.h"

static struct lx_doc *owner(long long id)
{
	return id < 0 ? lx_doc_new_str("nobody") : lx_doc_new_int(id);
}

static struct lx_doc *node_doc(const struct lx_access_node *n)
{
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "path", lx_doc_new_str(n->path));
	lx_doc_map_set(d, "host_path", lx_doc_new_str(n->host_path));
	static const char *const via[] = {[LX_VIA_BIND] = "bind", [LX_VIA_DEVN] = "devn",
					  [LX_VIA_AUTODEV] = "autodev", [LX_VIA_NVHOOK] = "nvidia-hook"};
	lx_doc_map_set(d, "via", lx_doc_new_str(via[n->via]));
	lx_doc_map_set(d, "line", lx_doc_new_int(n->line));
	_cleanup_free_ char *dev = lx_xasprintf("%c %u:%u", n->type, n->major, n->minor);
	lx_doc_map_set(d, "device", lx_doc_new_str(dev));
	lx_doc_map_set(d, "read", lx_doc_new_bool(n->read));
	lx_doc_map_set(d, "write", lx_doc_new_bool(n->write));
	lx_doc_map_set(d, "read_write", lx_doc_new_bool(n->read_write));
	_cleanup_free_ char *mode = lx_xasprintf("%04o", n->mode);
	lx_doc_map_set(d, "mode", lx_doc_new_str(mode));
	lx_doc_map_set(d, "uid", owner(n->uid));
	lx_doc_map_set(d, "gid", owner(n->gid));
	return d;
}

/* NVIDIA's hook: what it gives at the next start (docs/nvidia-hook.md). */
static struct lx_doc *nvhook_doc(const struct lx_nvhook *h)
{
	static const char *const caps[] = {"compute", "compat32", "display",
					   "graphics", "utility", "video"};
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "line", lx_doc_new_int(h->line));
	lx_doc_map_set(d, "key", lx_doc_new_str(h->key));
	lx_doc_map_set(d, "script", lx_doc_new_str(h->script));
	lx_doc_map_set(d, "runs", lx_doc_new_bool(h->runs));
	lx_doc_map_set(d, "visible_devices",
		       h->visible ? lx_doc_new_str(h->visible) : lx_doc_new_null());
	struct lx_strv names = {0};
	for (unsigned i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (h->caps & (1u << i))
			lx_strv_push(&names, caps[i]);
	lx_doc_map_set(d, "capabilities", lx_doc_new_str_list(&names));
	lx_strv_free(&names);
	lx_doc_map_set(d, "gpus", lx_doc_new_str_list(&h->gpus));
	lx_doc_map_set(d, "mig", lx_doc_new_bool(h->mig));
	lx_doc_map_set(d, "files", lx_doc_new_str_list(&h->files));
	return d;
}

struct lx_doc *lx_access_to_doc(const struct lx_access *a)
{
	struct lx_doc *doc = lx_doc_new_map();
	lx_doc_map_set(doc, "unprivileged", lx_doc_new_bool(a->unprivileged));
	lx_doc_map_set(doc, "device_keys", lx_doc_new_str(a->keys == LX_CGROUP_V2 ? "v2" : "v1"));
	lx_doc_map_set(doc, "starts", lx_doc_new_bool(a->n_failures == 0));
	struct lx_doc *failures = lx_doc_new_list();
	for (size_t i = 0; i < a->n_failures; i++) {
		struct lx_doc *f = lx_doc_new_map();
		lx_doc_map_set(f, "file", lx_doc_new_str(a->failures[i].file));
		lx_doc_map_set(f, "line", lx_doc_new_int(a->failures[i].line));
		lx_doc_map_set(f, "message", lx_doc_new_str(a->failures[i].message));
		lx_doc_list_push(failures, f);
	}
	lx_doc_map_set(doc, "start_failures", failures);
	struct lx_doc *nodes = lx_doc_new_list();
	for (size_t i = 0; i < a->n_nodes; i++)
		lx_doc_list_push(nodes, node_doc(&a->nodes[i]));
	lx_doc_map_set(doc, "nodes", nodes);
	struct lx_doc *rules = lx_doc_new_list();
	for (size_t i = 0; i < a->n_rules; i++) {
		const struct lx_access_rule *r = &a->rules[i];
		if (!r->from_config)
			continue; /* the includes' rules are LXC's, not the user's */
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "line", lx_doc_new_int(r->line));
		lx_doc_map_set(d, "key", lx_doc_new_str(r->key));
		lx_doc_map_set(d, "value", lx_doc_new_str(r->value));
		lx_doc_map_set(d, "fate", lx_doc_new_str(lx_rule_fate_name(r->fate)));
		lx_doc_list_push(rules, d);
	}
	lx_doc_map_set(doc, "rules", rules);
	lx_doc_map_set(doc, "unknown_sources", lx_doc_new_str_list(&a->unknown_sources));
	lx_doc_map_set(doc, "placeholders", lx_doc_new_str_list(&a->placeholders));
	if (a->nvhook.present)
		lx_doc_map_set(doc, "nvidia_hook", nvhook_doc(&a->nvhook));
	return doc;
}
