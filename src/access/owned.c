/* What lxgpu owns in container configs on this host. */
#include "lxgpu/access.h"

#include <string.h>

/* What lxgpu owns on this host: NVIDIA majors, the NVIDIA GPUs' DRM nodes. */
void lx_gpu_owned_from_host(const struct lx_host *host, struct lx_gpu_owned *out)
{
	memset(out, 0, sizeof(*out));
	out->majors = lx_xcalloc(host->n_majors, sizeof(*out->majors));
	for (size_t i = 0; i < host->n_majors; i++)
		if (lx_str_starts_with(host->majors[i].name, "nvidia"))
			out->majors[out->n_majors++] = host->majors[i].number;
	int drm = lx_host_major_by_name(host, "drm");
	out->drm_major = drm == LX_UNKNOWN ? 226 : (unsigned)drm;
	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		for (size_t d = 0; d < g->n_drm; d++) {
			_cleanup_free_ char *path = lx_xasprintf("/dev/dri/%s", g->drm[d].name);
			const struct lx_dev_node *node = lx_host_find_node(host, path);
			lx_strv_push(&out->drm_paths, path);
			if (g->drm[d].by_path)
				lx_strv_push_owned(&out->drm_paths,
						   lx_xasprintf("/dev/dri/by-path/%s", g->drm[d].by_path));
			if (node) {
				out->drm_minors = lx_xrealloc(out->drm_minors, (out->n_drm_minors + 1) *
										sizeof(*out->drm_minors));
				out->drm_minors[out->n_drm_minors++] = node->minor;
			}
		}
	}
}

