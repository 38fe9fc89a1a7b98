/* Render a device plan: build the template context, pick the template. */
#include "lxgpu/render.h"
#include "lxgpu/template.h"

#include <ctype.h>
#include <string.h>

#define TEMPLATE_MAX_SIZE (1u << 20)

static struct lx_doc *node_doc(const struct lx_plan_node *n)
{
	struct lx_doc *d = lx_doc_new_map();
	_cleanup_free_ char *mode = lx_xasprintf("%04o", n->mode);
	_cleanup_free_ char *rule = lx_xasprintf("c %u:%u rw", n->major, n->minor);
	lx_doc_map_set(d, "path", lx_doc_new_str(n->path));
	lx_doc_map_set(d, "rel", lx_doc_new_str(n->path + 1)); /* "dev/nvidia0" for mount entries */
	lx_doc_map_set(d, "role", lx_doc_new_str(lx_node_role_name(n->role)));
	lx_doc_map_set(d, "gpu", n->gpu < 0 ? lx_doc_new_null() : lx_doc_new_int(n->gpu));
	lx_doc_map_set(d, "present", lx_doc_new_bool(n->present));
	lx_doc_map_set(d, "major", lx_doc_new_int(n->major));
	lx_doc_map_set(d, "minor", lx_doc_new_int(n->minor));
	lx_doc_map_set(d, "major_name", lx_doc_new_str(n->major_name));
	lx_doc_map_set(d, "dynamic_major", lx_doc_new_bool(n->dynamic_major));
	lx_doc_map_set(d, "rule", lx_doc_new_str(rule));
	lx_doc_map_set(d, "mode", lx_doc_new_str(mode));
	lx_doc_map_set(d, "file_mode", lx_doc_new_int(n->mode));
	lx_doc_map_set(d, "uid", lx_doc_new_int(n->uid));
	lx_doc_map_set(d, "gid", lx_doc_new_int(n->gid));
	lx_doc_map_set(d, "uid_set", lx_doc_new_bool(n->uid_set));
	lx_doc_map_set(d, "gid_set", lx_doc_new_bool(n->gid_set));
	lx_doc_map_set(d, "dev_index", lx_doc_new_int(n->dev_index));
	lx_doc_map_set(d, "cgroup", lx_doc_new_bool(n->grant & LX_GRANT_CGROUP));
	lx_doc_map_set(d, "bind", lx_doc_new_bool(n->grant & LX_GRANT_BIND));
	return d;
}

#define NODES_SHARED (-1)     /* the nodes every GPU shares (plan node gpu -1) */
#define NODES_ALL (-2)        /* every node */
#define NODES_OF_ANY_GPU (-3) /* every node that belongs to one GPU */

/* The nodes of one GPU (gpu >= 0), or one of the sets above. */
static struct lx_doc *nodes_of(const struct lx_plan *plan, int gpu)
{
	struct lx_doc *list = lx_doc_new_list();
	for (size_t i = 0; i < plan->n_nodes; i++) {
		int owner = plan->nodes[i].gpu;
		if (gpu == NODES_ALL || owner == gpu || (gpu == NODES_OF_ANY_GPU && owner >= 0))
			lx_doc_list_push(list, node_doc(&plan->nodes[i]));
	}
	return list;
}

/* The nodes of one MIG instance: its GPU's node, the GI's and the CI's
 * caps nodes. */
static struct lx_doc *mig_nodes_of(const struct lx_plan *plan, const struct lx_mig_sel *m)
{
	struct lx_doc *list = lx_doc_new_list();
	for (size_t i = 0; i < plan->n_nodes; i++) {
		const struct lx_plan_node *n = &plan->nodes[i];
		if (n->gpu != (int)m->gpu)
			continue;
		if (n->role == LX_ROLE_CAP &&
		    (n->mig_gi != m->gi || (n->mig_ci >= 0 && n->mig_ci != m->ci)))
			continue;
		lx_doc_list_push(list, node_doc(n));
	}
	return list;
}

static char *gpu_list_text(const struct lx_host *host, const struct lx_plan *plan)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < plan->n_gpus; i++) {
		lx_buf_printf(&b, "%s%zu (%s", i ? ", " : "", plan->gpus[i],
			      host->gpus[plan->gpus[i]].bdf);
		const char *sep = ": MIG ";
		for (size_t m = 0; m < plan->n_migs; m++)
			if (plan->migs[m].gpu == plan->gpus[i]) {
				lx_buf_printf(&b, "%sgi%d/ci%d", sep, plan->migs[m].gi, plan->migs[m].ci);
				sep = ", ";
			}
		lx_buf_puts(&b, ")");
	}
	return lx_buf_steal(&b);
}

/* The dynamic majors the plan's rules hard-code, once each. */
static struct lx_doc *dynamic_majors(const struct lx_plan *plan)
{
	struct lx_doc *list = lx_doc_new_list();
	for (size_t i = 0; i < plan->n_nodes; i++) {
		const struct lx_plan_node *n = &plan->nodes[i];
		if (!n->dynamic_major || !(n->grant & LX_GRANT_CGROUP))
			continue;
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen |= plan->nodes[j].dynamic_major && plan->nodes[j].major == n->major;
		if (seen)
			continue;
		struct lx_doc *m = lx_doc_new_map();
		lx_doc_map_set(m, "name", lx_doc_new_str(n->major_name));
		lx_doc_map_set(m, "major", lx_doc_new_int(n->major));
		lx_doc_list_push(list, m);
	}
	return list;
}

static bool starts_with_letter(const char *s)
{
	return isalpha((unsigned char)s[0]);
}

/* CDI device names: the scan index, the GPU's UUID, and "all". */
static struct lx_strv cdi_names(const struct lx_host *host, size_t index)
{
	struct lx_strv names = {0};
	lx_strv_push_owned(&names, lx_xasprintf("%zu", index));
	if (host->gpus[index].uuid)
		lx_strv_push(&names, host->gpus[index].uuid);
	return names;
}

const char *lx_render_cdi_version(const struct lx_host *host, const struct lx_plan *plan)
{
	/* cncf-tags/container-device-interface specs-go/version.go: device
	 * names that do not start with a letter need 0.5.0; mounts with a type
	 * need 0.4.0 (lxgpu writes none); 0.3.0 is the oldest supported. */
	for (size_t i = 0; i < plan->n_gpus; i++) {
		struct lx_strv names = cdi_names(host, plan->gpus[i]);
		bool digit_name = false;
		for (size_t j = 0; j < names.n; j++)
			digit_name |= !starts_with_letter(names.items[j]);
		lx_strv_free(&names);
		if (digit_name)
			return "0.5.0";
	}
	return "0.3.0";
}

static struct lx_doc *cdi_doc(const struct lx_host *host, const struct lx_plan *plan)
{
	struct lx_doc *cdi = lx_doc_new_map();
	lx_doc_map_set(cdi, "version", lx_doc_new_str(lx_render_cdi_version(host, plan)));
	lx_doc_map_set(cdi, "kind", lx_doc_new_str(LX_CDI_KIND));
	struct lx_doc *devices = lx_doc_new_list();
	for (size_t i = 0; i < plan->n_gpus; i++) {
		if (lx_plan_gpu_is_mig_only(plan, plan->gpus[i])) {
			/* One device per instance, never the whole GPU. CDI names
			 * allow no '/': "0:gi1:ci0". */
			for (size_t m = 0; m < plan->n_migs; m++) {
				if (plan->migs[m].gpu != plan->gpus[i])
					continue;
				struct lx_doc *d = lx_doc_new_map();
				_cleanup_free_ char *name = lx_xasprintf(
					"%zu:gi%d:ci%d", plan->migs[m].gpu, plan->migs[m].gi,
					plan->migs[m].ci);
				lx_doc_map_set(d, "name", lx_doc_new_str(name));
				lx_doc_map_set(d, "nodes", mig_nodes_of(plan, &plan->migs[m]));
				lx_doc_list_push(devices, d);
			}
			continue;
		}
		struct lx_strv names = cdi_names(host, plan->gpus[i]);
		for (size_t j = 0; j < names.n; j++) {
			struct lx_doc *d = lx_doc_new_map();
			lx_doc_map_set(d, "name", lx_doc_new_str(names.items[j]));
			lx_doc_map_set(d, "nodes", nodes_of(plan, (int)plan->gpus[i]));
			lx_doc_list_push(devices, d);
		}
		lx_strv_free(&names);
	}
	struct lx_doc *all = lx_doc_new_map();
	lx_doc_map_set(all, "name", lx_doc_new_str("all"));
	lx_doc_map_set(all, "nodes", nodes_of(plan, NODES_OF_ANY_GPU));
	lx_doc_list_push(devices, all);
	lx_doc_map_set(cdi, "devices", devices);
	return cdi;
}

/* --driver-libs: the hook line, and the files the hook puts into the
 * container (where a runtime nested in it finds them: the CDI mounts). */
static struct lx_doc *driver_libs_doc(const struct lx_driver_libs_options *o)
{
	if (!o || !o->enabled)
		return lx_doc_new_bool(false);
	struct lx_doc *d = lx_doc_new_map();
	struct lx_hook_line h = {
		.binary = (char *)o->binary,
		.driver_root = (char *)o->driver_root,
		.proc_dir = (char *)o->proc_dir,
	};
	_cleanup_free_ char *value = lx_hook_line_value(&h);
	lx_doc_map_set(d, "hook", lx_doc_new_str(value));
	lx_doc_map_set(d, "binary", lx_doc_new_str(o->binary));
	lx_doc_map_set(d, "lib_dir", lx_doc_new_str(o->lib_dir ? o->lib_dir : ""));
	struct lx_doc *files = lx_doc_new_list();
	for (size_t i = 0; i < o->n_files; i++) {
		struct lx_doc *f = lx_doc_new_map();
		lx_doc_map_set(f, "host_path", lx_doc_new_str(o->files[i].host_path));
		lx_doc_map_set(f, "path", lx_doc_new_str(o->files[i].path));
		lx_doc_list_push(files, f);
	}
	lx_doc_map_set(d, "files", files);
	return d;
}

/* Does the template read this part of the context? NULL: it may read all. */
static bool wanted(const struct lx_template *tmpl, const char *name)
{
	return !tmpl || lx_template_uses(tmpl, name);
}

struct lx_doc *lx_render_context(const struct lx_host *host, const struct lx_plan *plan,
				 const struct lx_render_options *opts,
				 const struct lx_template *tmpl)
{
	struct lx_doc *c = lx_doc_new_map();
	lx_doc_map_set(c, "lxgpu_version", lx_doc_new_str(opts->version));

	struct lx_doc *h = lx_doc_new_map();
	lx_doc_map_set(h, "hostname", lx_doc_new_str(host->hostname ? host->hostname : "-"));
	lx_doc_map_set(h, "kernel", lx_doc_new_str(host->kernel ? host->kernel : "-"));
	lx_doc_map_set(h, "cgroup", lx_doc_new_str(lx_cgroup_layout_name(host->cgroup)));
	lx_doc_map_set(h, "driver_version",
		       lx_doc_new_str(host->driver.version ? host->driver.version : "-"));
	lx_doc_map_set(h, "driver_flavor", lx_doc_new_str(lx_driver_flavor_name(host->driver.flavor)));
	lx_doc_map_set(c, "host", h);

	_cleanup_free_ char *gpu_list = gpu_list_text(host, plan);
	lx_doc_map_set(c, "gpu_list", lx_doc_new_str(gpu_list));
	lx_doc_map_set(c, "style", lx_doc_new_str(lx_style_name(plan->style)));
	lx_doc_map_set(c, "unprivileged", lx_doc_new_bool(plan->unprivileged));
	lx_doc_map_set(c, "privilege_assumed",
		       lx_doc_new_str(opts->privilege_assumed ? opts->privilege_assumed : ""));
	lx_doc_map_set(c, "cgroup_keys", lx_doc_new_str(lx_cgroup_layout_name(plan->cgroup_keys)));
	lx_doc_map_set(c, "cgroup_key", lx_doc_new_str(lx_plan_cgroup_key(plan)));
	/* The lists below are most of the context, and each template reads a
	 * few of them: only those are built. */
	if (wanted(tmpl, "nodes"))
		lx_doc_map_set(c, "nodes", nodes_of(plan, NODES_ALL));
	if (wanted(tmpl, "gpus")) {
		struct lx_doc *gpus = lx_doc_new_list();
		for (size_t i = 0; i < plan->n_gpus; i++) {
			const struct lx_gpu *g = &host->gpus[plan->gpus[i]];
			struct lx_doc *d = lx_doc_new_map();
			lx_doc_map_set(d, "index", lx_doc_new_int((long long)plan->gpus[i]));
			lx_doc_map_set(d, "bdf", lx_doc_new_str(g->bdf));
			lx_doc_map_set(d, "uuid", lx_doc_new_str(g->uuid));
			lx_doc_map_set(d, "model", lx_doc_new_str(g->model));
			lx_doc_map_set(d, "nodes", nodes_of(plan, (int)plan->gpus[i]));
			lx_doc_list_push(gpus, d);
		}
		lx_doc_map_set(c, "gpus", gpus);
	}
	if (wanted(tmpl, "shared_nodes"))
		lx_doc_map_set(c, "shared_nodes", nodes_of(plan, NODES_SHARED));
	if (wanted(tmpl, "dynamic_majors"))
		lx_doc_map_set(c, "dynamic_majors", dynamic_majors(plan));
	if (wanted(tmpl, "warnings"))
		lx_doc_map_set(c, "warnings", lx_host_warnings_doc(&plan->warnings));
	if (wanted(tmpl, "cdi"))
		lx_doc_map_set(c, "cdi", cdi_doc(host, plan));
	if (wanted(tmpl, "driver_libs"))
		lx_doc_map_set(c, "driver_libs", driver_libs_doc(opts->driver_libs));
	return c;
}

static int load_template(const struct lx_render_options *opts, const char *name, char **text,
			 char **source, struct lx_error *err)
{
	if (opts->templates_dir) {
		*source = lx_path_join(opts->templates_dir, name);
		if (lx_read_file(*source, TEMPLATE_MAX_SIZE, text, NULL, err) < 0)
			return lx_error_prefix(err, "--templates");
		return 0;
	}
	for (const struct lx_builtin_template *t = lx_builtin_templates; t->name; t++)
		if (strcmp(t->name, name) == 0) {
			*text = lx_xstrdup(t->text);
			*source = lx_xasprintf("(built in) %s", name);
			return 0;
		}
	return lx_error_set(err, "no built-in template %s", name);
}

/* Proxmox's parse_pct_config appends every line starting with '#', in any
 * section and anywhere in it, to the container's description: without
 * them the output pastes into a CT config as keys only. Blank lines left
 * between the comments go too. In place. */
static void drop_comments(char *text)
{
	char *w = text;
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		size_t end = line[len] ? len + 1 : len;
		const char *p = line + strspn(line, " \t");
		if (*p != '#' && *p != '\n' && *p != '\0') {
			memmove(w, line, end);
			w += end;
		}
		line += end;
	}
	*w = '\0';
}

int lx_render_plan(const struct lx_host *host, const struct lx_plan *plan,
		   const struct lx_render_options *opts, char **out, struct lx_error *err)
{
	*out = NULL;
	_cleanup_free_ char *name = lx_xasprintf("%s.tmpl", lx_style_name(plan->style));
	_cleanup_free_ char *text = NULL, *source = NULL;
	if (load_template(opts, name, &text, &source, err) < 0)
		return -1;
	struct lx_template *tmpl;
	if (lx_template_parse(source, text, &tmpl, err) < 0)
		return -1;
	struct lx_doc *ctx = lx_render_context(host, plan, opts, tmpl);
	int rc = lx_template_render(tmpl, ctx, out, err);
	lx_doc_free(ctx);
	lx_template_free(tmpl);
	if (rc == 0 && opts->no_comments)
		drop_comments(*out);
	return rc;
}
