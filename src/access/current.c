/* What a container has now: the GPUs it reaches or names, its style, its
 * DRM and caps access. apply's defaults and verify's "GPUs of the
 * container" are this one answer. */
#include "lxgpu/access.h"

#include <string.h>

static bool reaches_minor(const struct lx_access *a, int caps_major, int minor)
{
	for (size_t i = 0; minor >= 0 && i < a->n_nodes; i++)
		if (a->nodes[i].type == 'c' && (int)a->nodes[i].major == caps_major &&
		    (int)a->nodes[i].minor == minor &&
		    lx_str_starts_with(a->nodes[i].host_path, "/dev/nvidia-caps/"))
			return true;
	return false;
}

/* Every present caps node of the GPU with this minor is reached: the shape
 * --caps gives, not a choice of instances. */
static bool reaches_all_caps_of(const struct lx_host *host, const struct lx_access *a,
				int caps_major, int gpu_minor)
{
	for (size_t i = 0; i < host->n_caps; i++) {
		struct lx_mig_ref r = lx_mig_ref_of_name(host->caps[i].name);
		if (r.gpu_minor == gpu_minor && !reaches_minor(a, caps_major, (int)host->caps[i].minor))
			return false;
	}
	return true;
}

/* The caps nodes reached, as MIG capabilities: instances (GI and CI node
 * both) per GPU into tokens[gpu], config/monitor flags, the rest as caps. */
static void current_mig(const struct lx_host *host, const struct lx_access *a,
			const bool *has, struct lx_strv *tokens, struct lx_current *out)
{
	int caps_major = lx_host_major_by_name(host, "nvidia-caps");
	bool *explained = lx_xcalloc(a->n_nodes + 1, sizeof(bool));
	for (size_t i = 0; i < a->n_nodes; i++) {
		const struct lx_access_node *n = &a->nodes[i];
		if (!lx_str_starts_with(n->host_path, "/dev/nvidia-caps/") || n->type != 'c' ||
		    (int)n->major != caps_major)
			continue;
		struct lx_mig_ref r = lx_host_mig_of_minor(host, n->minor);
		out->mig_config |= r.kind == LX_MIG_CONFIG;
		out->mig_monitor |= r.kind == LX_MIG_MONITOR;
		explained[i] = r.kind == LX_MIG_CONFIG || r.kind == LX_MIG_MONITOR;
		int g = lx_host_gpu_by_minor(host, r.gpu_minor);
		if (r.kind != LX_MIG_CI || g < 0 || !has[g])
			continue;
		struct lx_mig_ref gi = {LX_MIG_GI, r.gpu_minor, r.gi, -1};
		_cleanup_free_ char *gi_name = lx_mig_ref_name(&gi);
		int gi_minor = lx_host_mig_minor_of(host, gi_name);
		if (!reaches_minor(a, caps_major, gi_minor))
			continue; /* a CI without its GI: CUDA cannot use it; judged elsewhere */
		_cleanup_free_ char *token = lx_xasprintf("%d:gi%d/ci%d", g, r.gi, r.ci);
		if (!lx_strv_contains(&out->migs, token))
			lx_strv_push(&out->migs, token);
		if (!reaches_all_caps_of(host, a, caps_major, r.gpu_minor)) {
			if (!lx_strv_contains(&tokens[g], token))
				lx_strv_push(&tokens[g], token);
			explained[i] = true;
			for (size_t k = 0; k < a->n_nodes; k++)
				if (a->nodes[k].type == 'c' && (int)a->nodes[k].major == caps_major &&
				    (int)a->nodes[k].minor == gi_minor)
					explained[k] = true;
		}
	}
	for (size_t i = 0; i < a->n_nodes; i++)
		out->caps |= lx_str_starts_with(a->nodes[i].host_path, "/dev/nvidia-caps/") &&
			     !explained[i];
	free(explained);
}

void lx_access_current(const struct lx_host *host, const struct lx_conf *conf,
		       const struct lx_access *a, struct lx_current *out)
{
	memset(out, 0, sizeof(*out));
	bool *has = lx_xcalloc(host->n_gpus + 1, sizeof(bool));
	for (size_t i = 0; i < a->n_nodes; i++) {
		int g = lx_host_gpu_of_node(host, a->nodes[i].host_path);
		if (g >= 0)
			has[g] = true;
		out->dri |= lx_str_starts_with(a->nodes[i].host_path, "/dev/dri/") && a->nodes[i].via != LX_VIA_AUTODEV;
	}
	/* Lines naming a GPU node count too: a stale or broken setup still says
	 * which GPU it meant. */
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		_cleanup_free_ char *path = NULL;
		if (l->kind == LX_CONF_PVE_KEY && lx_conf_devn_index(l->key) >= 0)
			path = lx_conf_devn_path(l->value);
		else if (l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.mount.entry") == 0)
			path = lx_xstrndup(l->value, strcspn(l->value, " \t"));
		/* A bind of a staged copy (/lxc/102010/devices/nvidia0) names the
		 * GPU by its target. */
		_cleanup_free_ char *target = NULL;
		if (path && l->kind == LX_CONF_LXC_KEY && !lx_str_starts_with(path, "/dev/")) {
			const char *t = l->value + strlen(path);
			t += strspn(t, " \t");
			target = lx_xasprintf("/%s", t[0] == '/' ? t + 1 : t);
			target[strcspn(target, " \t")] = '\0';
		}
		const char *named = target ? target : path;
		int g = named ? lx_host_gpu_of_node(host, named) : -1;
		if (g >= 0)
			has[g] = true;
		if (named && l->kind == LX_CONF_PVE_KEY && lx_str_starts_with(named, "/dev/nvidia"))
			out->devn = true;
		if (named && l->kind == LX_CONF_LXC_KEY && lx_str_starts_with(named, "/dev/nvidia"))
			out->raw = true;
	}
	struct lx_strv *tokens = lx_xcalloc(host->n_gpus + 1, sizeof(*tokens));
	current_mig(host, a, has, tokens, out);
	struct lx_buf b = {0};
	for (size_t i = 0; i < host->n_gpus; i++)
		if (has[i]) {
			if (tokens[i].n)
				for (size_t t = 0; t < tokens[i].n; t++)
					lx_buf_printf(&b, "%s%s", b.len ? "," : "", tokens[i].items[t]);
			else
				lx_buf_printf(&b, "%s%zu", b.len ? "," : "", i);
			lx_strv_push(&out->bdfs, host->gpus[i].bdf);
		}
	for (size_t i = 0; i < host->n_gpus; i++)
		lx_strv_free(&tokens[i]);
	free(tokens);
	out->gpus = b.len ? lx_buf_steal(&b) : NULL;
	lx_buf_free(&b);
	free(has);
}

void lx_current_free(struct lx_current *c)
{
	free(c->gpus);
	lx_strv_free(&c->bdfs);
	lx_strv_free(&c->migs);
	memset(c, 0, sizeof(*c));
}

void lx_access_gpu_nodes(const struct lx_gpu_owned *owned, const struct lx_access *a,
			 struct lx_strv *host_paths)
{
	for (size_t i = 0; i < a->n_nodes; i++) {
		const struct lx_access_node *n = &a->nodes[i];
		if (n->via != LX_VIA_AUTODEV && lx_gpu_owned_path(owned, n->host_path) &&
		    !lx_strv_contains(host_paths, n->host_path))
			lx_strv_push(host_paths, n->host_path);
	}
}
