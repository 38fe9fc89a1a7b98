/* MIG instances in a container's config (include/lxgpu/judge.h).
 *
 * A config names MIG instances by their caps nodes
 * (/dev/nvidia-caps/nvidia-capN, as devN entries or binds). The driver's
 * table of every minor (mig-minors) says which capability each N is, also
 * after the instance is gone, so a config made before a reboot still says
 * which instance it meant. */
#include "lxgpu/judge.h"

#include <stdio.h>
#include <string.h>

#define CAPS_PREFIX "/dev/nvidia-caps/nvidia-cap"
#define LIST_MAX 4

/* N of "/dev/nvidia-caps/nvidia-capN"; -1 for any other path. */
static int caps_minor_of_path(const char *path)
{
	if (!lx_str_starts_with(path, CAPS_PREFIX))
		return -1;
	unsigned long long v;
	return lx_parse_uint(path + strlen(CAPS_PREFIX), 10, 1048575, &v) ? (int)v : -1;
}

static void add_given(struct lx_mig_given **out, size_t *n, struct lx_mig_ref r, int line,
		      bool is_ci)
{
	for (size_t i = 0; i < *n; i++) {
		struct lx_mig_given *g = &(*out)[i];
		if (g->gpu_minor == r.gpu_minor && g->gi == r.gi && (g->ci == r.ci || !is_ci || g->ci < 0)) {
			if (is_ci && g->ci < 0)
				g->ci = r.ci;
			g->ci_node |= is_ci;
			g->gi_node |= !is_ci;
			if (!g->line)
				g->line = line;
			return;
		}
	}
	*out = lx_xrealloc(*out, (*n + 1) * sizeof(**out));
	(*out)[(*n)++] = (struct lx_mig_given){.gpu_minor = r.gpu_minor, .gi = r.gi,
					       .ci = is_ci ? r.ci : -1, .line = line,
					       .gi_node = !is_ci, .ci_node = is_ci};
}

void lx_config_mig_given(const struct lx_host *host, const struct lx_container_config *cc,
			 struct lx_mig_given **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	/* CIs first, so a GI node joins its CI's entry. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < cc->n_grants; i++) {
			int minor = caps_minor_of_path(cc->grants[i].path);
			if (minor < 0)
				continue;
			struct lx_mig_ref r = lx_host_mig_of_minor(host, (unsigned)minor);
			if ((pass == 0 && r.kind == LX_MIG_CI) || (pass == 1 && r.kind == LX_MIG_GI))
				add_given(out, n, r, cc->grants[i].line, r.kind == LX_MIG_CI);
		}
}

/* The placement a GPU instance ID stands for: the driver numbers a GPU
 * instance by the slices it spans (kmigmgrSwizzIdToSpan_GA100: ID 0 the
 * whole GPU, 1-2 the halves, 3-6 the quarters, 7-14 the eighths), and
 * nvidia-smi's -cgi PROFILE:START takes the first slice. The slice count
 * is the GPU's (8 on A100 and later, 4 on the reduced A30): the aside
 * names the other when the two differ. */
static char *placement_words(int gi, char **start)
{
	if (gi < 0 || gi > 14) {
		*start = lx_xstrdup("START");
		return lx_xstrdup("START is the placement it had: the driver numbers a GPU instance "
				  "by the slices it spans");
	}
	int level = gi == 0 ? 0 : gi <= 2 ? 1 : gi <= 6 ? 2 : 3; /* 1, 2, 4, 8 parts */
	int parts = 1 << level, nth = gi - (parts - 1);
	int start8 = nth * 8 / parts, start4 = nth * 4 / parts;
	*start = lx_xasprintf("%d", start8);
	if (level == 3 || start8 == start4)
		return lx_xasprintf("the driver numbers a GPU instance by the slices it spans: "
				    "gi%d spans %d of 8 from slice %d",
				    gi, 8 / parts, start8);
	return lx_xasprintf("the driver numbers a GPU instance by the slices it spans: gi%d "
			    "spans %d of 8 from slice %d; on a GPU of 4 slices, an A30, the start is %d",
			    gi, 8 / parts, start8, start4);
}

char *lx_mig_recreate_fix(const struct lx_host *host, const char *id, int gpu_minor, int gi,
			  int ci)
{
	int index = lx_host_gpu_by_minor(host, gpu_minor);
	const struct lx_gpu *g = index >= 0 ? &host->gpus[index] : NULL;
	/* nvidia-smi -i takes an index, a UUID or a PCI bus id; the UUID
	 * cannot name another GPU. */
	_cleanup_free_ char *which = g && g->uuid ? lx_xstrdup(g->uuid)
				     : g	      ? lx_xstrdup(g->bdf)
							      : lx_xasprintf("GPU-OF-nvidia%d", gpu_minor);
	_cleanup_free_ char *start = NULL;
	_cleanup_free_ char *placement = placement_words(gi, &start);
	return lx_xasprintf(
		"by hand: recreate the instance (MIG instances do not survive a reboot; MIG mode "
		"does; the profiles are not known without NVML: nvidia-smi mig -lgip, -lgipp and "
		"-lcip list them and their placements; %s): if MIG mode is off, `nvidia-smi -i %s "
		"-mig 1`, then `nvidia-smi mig -i %s -cgi PROFILE:%s`, then `nvidia-smi mig -i %s -gi "
		"%d -cci CI-PROFILE` until it is gi%d/ci%d; or give the container an instance that "
		"exists (scan lists them): `lxgpu apply %s --gpus INDEX:giX/ciY`",
		placement, which, which, start, which, gi, gi, ci, id);
}

static char *instance_name(const struct lx_host *host, int gpu_minor, int gi, int ci)
{
	int index = lx_host_gpu_by_minor(host, gpu_minor);
	return index >= 0 ? lx_xasprintf("GPU %d (%s) gi%d/ci%d", index, host->gpus[index].bdf, gi, ci)
			  : lx_xasprintf("/dev/nvidia%d's gi%d/ci%d", gpu_minor, gi, ci);
}

bool lx_mig_instance_exists(const struct lx_host *host, int gpu_minor, int gi, int ci)
{
	struct lx_mig_ref r = {LX_MIG_GI, gpu_minor, gi, -1};
	_cleanup_free_ char *gi_name = lx_mig_ref_name(&r);
	r.kind = LX_MIG_CI;
	r.ci = ci;
	_cleanup_free_ char *ci_name = lx_mig_ref_name(&r);
	return lx_host_find_cap(host, gi_name) && lx_host_find_cap(host, ci_name);
}

/* Is this minor one of the instances the config gives (its GI or CI node)? */
static bool minor_is_given(const struct lx_host *host, const struct lx_mig_given *given, size_t n,
			   unsigned minor)
{
	struct lx_mig_ref r = lx_host_mig_of_minor(host, minor);
	for (size_t i = 0; i < n; i++) {
		if (r.gpu_minor != given[i].gpu_minor || r.gi != given[i].gi)
			continue;
		if (r.kind == LX_MIG_GI || (r.kind == LX_MIG_CI && r.ci == given[i].ci))
			return true;
	}
	return false;
}

/* Other instances' caps nodes the container can open: bound into it, or
 * (privileged: root can mknod) allowed by its device cgroup. */
static void check_isolation(const struct lx_host *host, const struct lx_container_config *cc,
			    const struct lx_access *a, const struct lx_mig_given *given, size_t n,
			    struct lx_findings *out)
{
	int caps_major = lx_host_major_by_name(host, "nvidia-caps");
	if (caps_major < 0)
		return;
	struct lx_buf names = {0};
	size_t count = 0;
	const struct lx_capability *tables[2] = {host->caps, host->mig_minors};
	size_t sizes[2] = {host->n_caps, host->n_mig_minors};
	unsigned *seen = NULL;
	size_t n_seen = 0;
	for (int t = 0; t < 2; t++)
		for (size_t i = 0; i < sizes[t]; i++) {
			const struct lx_capability *c = &tables[t][i];
			struct lx_mig_ref r = lx_mig_ref_of_name(c->name);
			if (r.kind != LX_MIG_GI && r.kind != LX_MIG_CI && r.kind != LX_MIG_CONFIG)
				continue;
			bool dup = false;
			for (size_t k = 0; k < n_seen && !dup; k++)
				dup = seen[k] == c->minor;
			if (dup || minor_is_given(host, given, n, c->minor))
				continue;
			seen = lx_xrealloc(seen, (n_seen + 1) * sizeof(*seen));
			seen[n_seen++] = c->minor;
			_cleanup_free_ char *path = lx_xasprintf(CAPS_PREFIX "%u", c->minor);
			bool bound = false;
			for (size_t k = 0; k < cc->n_grants && !bound; k++)
				bound = strcmp(cc->grants[k].path, path) == 0;
			/* mig/config given on purpose (--mig-config) is not a leak. */
			if (r.kind == LX_MIG_CONFIG && bound)
				continue;
			bool can = bound || (!a->unprivileged &&
					     lx_dev_cgroup_allows(&a->cgroup, 'c', (unsigned)caps_major,
								  c->minor, LX_ACC_READ));
			if (!can)
				continue;
			/* Present capabilities are named; the rest are counted. */
			if (t == 0 && count < LIST_MAX)
				lx_buf_printf(&names, "%s%s (nvidia-cap%u)", names.len ? ", " : "",
					      c->name, c->minor);
			count++;
		}
	free(seen);
	if (!count) {
		lx_buf_free(&names);
		return;
	}
	_cleanup_free_ char *mine = NULL;
	struct lx_buf b = {0};
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *one = instance_name(host, given[i].gpu_minor, given[i].gi, given[i].ci);
		lx_buf_printf(&b, "%s%s", b.len ? ", " : "", one);
	}
	mine = lx_buf_steal(&b);
	_cleanup_free_ char *listed = lx_buf_steal(&names);
	int index = lx_host_gpu_by_minor(host, given[0].gpu_minor);
	/* A rule for every device ("a", "c *:*") is not one lxgpu replaces:
	 * it allows a major no driver has (the largest, 4095). */
	bool every_device = !a->unprivileged && lx_dev_cgroup_allows(&a->cgroup, 'c', 4095, 0, LX_ACC_READ);
	lx_findings_add(out, LXG050_MIG_NOT_ISOLATED, cc->id, cc->conf->path, given[0].line, NULL,
			lx_xasprintf("the config gives MIG instance%s %s, but the container can also "
				     "open %zu other MIG caps node%s of nvidia-caps (major %d)%s%s: it "
				     "is not isolated from the other instances' containers",
				     n > 1 ? "s" : "", mine, count, count > 1 ? "s" : "", caps_major,
				     *listed ? ", among them " : "", listed),
			every_device
				? lx_xasprintf("by hand: remove the rule that allows every character "
					       "device (a, or c *:*; apply keeps it, it is not lxgpu's), "
					       "then `lxgpu apply %s --gpus %d:gi%d/ci%d`",
					       cc->id, index, given[0].gi, given[0].ci)
				: lx_xasprintf("give it its instances alone (apply replaces the rule "
					       "for the whole nvidia-caps major, c %d:*): `lxgpu apply %s "
					       "--gpus %d:gi%d/ci%d`",
					       caps_major, cc->id, index, given[0].gi, given[0].ci));
}

void lx_verify_mig(const struct lx_host *host, const struct lx_container_config *cc,
		   const struct lx_access *access, struct lx_findings *out)
{
	struct lx_mig_given *given;
	size_t n;
	lx_config_mig_given(host, cc, &given, &n);
	size_t complete = 0;
	for (size_t i = 0; i < n; i++) {
		const struct lx_mig_given *g = &given[i];
		if (!g->gi_node || !g->ci_node) {
			struct lx_mig_ref r = {g->ci_node ? LX_MIG_CI : LX_MIG_GI, g->gpu_minor, g->gi, g->ci};
			_cleanup_free_ char *name = lx_mig_ref_name(&r);
			int index = lx_host_gpu_by_minor(host, g->gpu_minor);
			lx_findings_add(out, LXG053_MIG_INCOMPLETE, cc->id, cc->conf->path, g->line, NULL,
					lx_xasprintf("the config gives the caps node of %s but not %s: "
						     "CUDA needs both the GPU instance's and the compute "
						     "instance's access to use a MIG instance",
						     name,
						     g->ci_node ? "its GPU instance's" : "a compute instance's"),
					g->ci_node && index >= 0
						? lx_xasprintf("`lxgpu apply %s --gpus %d:gi%d/ci%d`", cc->id,
							       index, g->gi, g->ci)
						: lx_xasprintf("by hand: add a compute instance's caps node "
							       "of gi%d, or give the container one: `lxgpu "
							       "apply %s --gpus INDEX:gi%d/ciY`",
							       g->gi, cc->id, g->gi));
			continue;
		}
		complete++;
		if (!lx_mig_instance_exists(host, g->gpu_minor, g->gi, g->ci)) {
			_cleanup_free_ char *what = instance_name(host, g->gpu_minor, g->gi, g->ci);
			struct lx_mig_ref r = {LX_MIG_CI, g->gpu_minor, g->gi, g->ci};
			_cleanup_free_ char *name = lx_mig_ref_name(&r);
			lx_findings_add(out, LXG054_MIG_GONE, cc->id, cc->conf->path, g->line, NULL,
					lx_xasprintf("the config gives MIG instance %s, which does not "
						     "exist now (no /proc/driver/nvidia/capabilities/%s/"
						     "access): CUDA in the container finds no device",
						     what, name),
					lx_mig_recreate_fix(host, cc->id, g->gpu_minor, g->gi, g->ci));
		}
	}
	if (complete)
		check_isolation(host, cc, access, given, n, out);
	free(given);
}
