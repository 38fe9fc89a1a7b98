/* What lxgpu owns in container configs on this host: the one rule
 * (include/lxgpu/access.h says it) that apply, rollback, the guard and
 * verify all judge lines by. */
#include "lxgpu/access.h"

#include <string.h>

/* nvidia, nvidiactl and nvidia-modeset register this major statically:
 * it is NVIDIA's on every host, loaded or not. */
#define NVIDIA_FIXED_MAJOR 195u

static bool contains(const unsigned *list, size_t n, unsigned v)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == v)
			return true;
	return false;
}

void lx_gpu_owned_from_host(const struct lx_host *host, struct lx_gpu_owned *out)
{
	memset(out, 0, sizeof(*out));
	out->majors = lx_xcalloc(host->n_majors + 1, sizeof(*out->majors));
	out->majors[out->n_majors++] = NVIDIA_FIXED_MAJOR;
	/* Every name NVIDIA's modules register starts so: nvidia, nvidia-uvm,
	 * nvidia-caps, nvidia-caps-imex-channels, nvidia-nvswitch,
	 * nvidia-nvlink, nvidia-frontend, nvidia-modeset. A dynamic one is
	 * known only while its module is loaded. */
	for (size_t i = 0; i < host->n_majors; i++)
		if (lx_str_starts_with(host->majors[i].name, "nvidia") &&
		    !contains(out->majors, out->n_majors, host->majors[i].number))
			out->majors[out->n_majors++] = host->majors[i].number;
	/* AMD's /dev/kfd goes with its GPUs: its rules and lines are lxgpu's too. */
	bool kfd = false;
	for (size_t i = 0; i < host->n_gpus; i++)
		kfd |= lx_gpu_needs_kfd(&host->gpus[i]);
	int kfd_major = lx_host_kfd_major(host);
	if (kfd && kfd_major != LX_UNKNOWN && !contains(out->majors, out->n_majors, (unsigned)kfd_major))
		out->majors[out->n_majors++] = (unsigned)kfd_major;
	if (kfd)
		lx_strv_push(&out->drm_paths, "/dev/kfd");
	int drm = lx_host_major_by_name(host, "drm");
	out->drm_major = drm == LX_UNKNOWN ? 226 : (unsigned)drm;
	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		/* /dev/dri bound whole (the common Intel/AMD recipe) gives these
		 * GPUs' nodes: its line is a GPU line like a bind of one node. */
		if (g->n_drm && !lx_strv_contains(&out->drm_paths, "/dev/dri"))
			lx_strv_push(&out->drm_paths, "/dev/dri");
		for (size_t d = 0; d < g->n_drm; d++) {
			_cleanup_free_ char *path = lx_xasprintf("/dev/dri/%s", g->drm[d].name);
			const struct lx_dev_node *node = lx_host_find_node(host, path);
			lx_strv_push(&out->drm_paths, path);
			/* udev's by-path link of the node, by the GPU's address (also
			 * when the link is not there now) */
			bool render = lx_str_starts_with(g->drm[d].name, "renderD");
			lx_strv_push_owned(&out->drm_paths,
					   lx_xasprintf("/dev/dri/by-path/pci-%s-%s", g->bdf,
							render ? "render" : "card"));
			_cleanup_free_ char *link =
				g->drm[d].by_path ? lx_xasprintf("/dev/dri/by-path/%s", g->drm[d].by_path)
						  : NULL;
			if (link && !lx_strv_contains(&out->drm_paths, link))
				lx_strv_push(&out->drm_paths, link);
			if (node) {
				out->drm_minors = lx_xrealloc(out->drm_minors, (out->n_drm_minors + 1) *
										sizeof(*out->drm_minors));
				out->drm_minors[out->n_drm_minors++] = node->minor;
			}
		}
	}
}

void lx_gpu_owned_free(struct lx_gpu_owned *owned)
{
	free(owned->majors);
	free(owned->drm_minors);
	lx_strv_free(&owned->drm_paths);
	free(owned->include_dir);
	memset(owned, 0, sizeof(*owned));
}

bool lx_gpu_owned_path(const struct lx_gpu_owned *owned, const char *path)
{
	if (lx_str_starts_with(path, "/dev/nvidia"))
		return true;
	/* "/dev/dri/" as a mount source is "/dev/dri" */
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	for (size_t i = 0; i < owned->drm_paths.n; i++)
		if (strlen(owned->drm_paths.items[i]) == n &&
		    strncmp(owned->drm_paths.items[i], path, n) == 0)
			return true;
	return false;
}

static bool is_allow_key(const char *key)
{
	return strcmp(key, "lxc.cgroup.devices.allow") == 0 ||
	       strcmp(key, "lxc.cgroup2.devices.allow") == 0;
}

/* A character-device allow rule of one major ("c 195:* rwm"), parsed as LXC
 * parses it. False for "a", "c *:* rwm", block devices, deny rules and
 * anything LXC would refuse. */
static bool char_rule(const struct lx_conf_line *l, struct lx_dev_rule *r)
{
	return l->kind == LX_CONF_LXC_KEY && is_allow_key(l->key) &&
	       lx_dev_rule_parse(l->value, true, r) && !r->all && r->type == 'c' && r->major >= 0;
}

bool lx_gpu_owned_line(const struct lx_gpu_owned *owned, const struct lx_conf_line *l)
{
	if (l->section != -1)
		return false;
	if (l->kind == LX_CONF_PVE_KEY && lx_conf_devn_index(l->key) >= 0) {
		_cleanup_free_ char *path = lx_conf_devn_path(l->value);
		return path && lx_gpu_owned_path(owned, path);
	}
	if (l->kind != LX_CONF_LXC_KEY)
		return false;
	if (strcmp(l->key, "lxc.include") == 0)
		return owned->include_dir && lx_str_starts_with(l->value, owned->include_dir) &&
		       !strchr(l->value + strlen(owned->include_dir), '/');
	if (strcmp(l->key, "lxc.mount.entry") == 0) {
		_cleanup_free_ char *source = lx_xstrndup(l->value, strcspn(l->value, " \t"));
		return lx_gpu_owned_path(owned, source);
	}
	struct lx_dev_rule r;
	if (!char_rule(l, &r) || r.major > 0xfffff)
		return false;
	unsigned major = (unsigned)r.major;
	if (contains(owned->majors, owned->n_majors, major))
		return true;
	return owned->drm_major && major == owned->drm_major && r.minor >= 0 &&
	       r.minor <= 0xfffff && contains(owned->drm_minors, owned->n_drm_minors, (unsigned)r.minor);
}

bool lx_gpu_owned_any(const struct lx_gpu_owned *owned, const struct lx_conf *conf)
{
	for (size_t i = 0; i < conf->n; i++)
		if (lx_gpu_owned_line(owned, &conf->lines[i]))
			return true;
	return false;
}

bool lx_gpu_unknown_major_rule(const struct lx_host *host, const struct lx_conf_line *l,
			       unsigned *major)
{
	struct lx_dev_rule r;
	if (l->section != -1 || !char_rule(l, &r) || r.major > 0xfffff)
		return false;
	*major = (unsigned)r.major;
	return *major != NVIDIA_FIXED_MAJOR && lx_host_major_is_stale(host, *major);
}

char *lx_conf_rewrite(const struct lx_conf *conf, const struct lx_gpu_owned *owned,
		      const struct lx_conf_rewrite *rw, size_t *len, size_t *removed)
{
	/* The new lxc.* lines go where the first owned lxc.* line was, else
	 * after the live section's last non-blank line (lx_conf_edit's -1);
	 * devN keys where Proxmox's writer puts them. Not where an owned devN
	 * was: that would put lxc.* lines above the keys, and a second apply
	 * would move them again. */
	bool *drop = lx_xcalloc(conf->n + 1, sizeof(*drop));
	long insert_at = -1;
	for (size_t i = 0; i < conf->n; i++) {
		drop[i] = lx_gpu_owned_line(owned, &conf->lines[i]);
		if (drop[i] && insert_at < 0 && conf->lines[i].kind != LX_CONF_PVE_KEY)
			insert_at = (long)i;
	}
	char *text = lx_conf_edit(conf, drop, NULL, insert_at, rw->gpu_lines, rw->unprivileged, len,
				  removed);
	free(drop);
	return text;
}
