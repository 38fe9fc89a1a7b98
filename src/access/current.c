/* What a container has now: the GPUs it reaches or names, its style, its
 * DRM and caps access. apply's defaults and verify's "GPUs of the
 * container" are this one answer. */
#include "lxgpu/access.h"

#include <string.h>

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
		out->caps |= lx_str_starts_with(a->nodes[i].host_path, "/dev/nvidia-caps/");
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
	struct lx_buf b = {0};
	for (size_t i = 0; i < host->n_gpus; i++)
		if (has[i]) {
			lx_buf_printf(&b, "%s%zu", b.len ? "," : "", i);
			lx_strv_push(&out->bdfs, host->gpus[i].bdf);
		}
	out->gpus = b.len ? lx_buf_steal(&b) : NULL;
	lx_buf_free(&b);
	free(has);
}

void lx_current_free(struct lx_current *c)
{
	free(c->gpus);
	lx_strv_free(&c->bdfs);
	memset(c, 0, sizeof(*c));
}
