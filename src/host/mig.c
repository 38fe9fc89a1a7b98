/* MIG capabilities: names, the driver's table of every minor, MIG state.
 *
 * The names and numbers are the driver's (kernel-open/nvidia/nv-caps.c):
 * mig-minors lists "config N", "monitor N", then for each of 32 GPUs
 * "gpu%d/gi%d/access N" and "gpu%d/gi%d/ci%d/access N" (15 GIs, 8 CIs
 * each); the access files live under /proc/driver/nvidia/capabilities as
 * mig/config, mig/monitor, gpu%d/mig/gi%d/access, gpu%d/mig/gi%d/ci%d/access.
 * lxgpu names both the way the scanner names capabilities: "mig/config",
 * "gpu0/mig/gi1", "gpu0/mig/gi1/ci0". */
#include "lxgpu/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIG_ID_MAX 1000
#define CAPS_MINOR_MAX 1048575

/* "<prefix><number>" at *p, advancing past it. */
static bool take_id(const char **p, const char *prefix, int *out)
{
	size_t n = strlen(prefix);
	if (strncmp(*p, prefix, n) != 0)
		return false;
	const char *s = *p + n;
	if (*s < '0' || *s > '9' || (*s == '0' && s[1] >= '0' && s[1] <= '9'))
		return false;
	long v = 0;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v > MIG_ID_MAX)
			return false;
		s++;
	}
	*out = (int)v;
	*p = s;
	return true;
}

struct lx_mig_ref lx_mig_ref_of_name(const char *name)
{
	struct lx_mig_ref r = {.kind = LX_MIG_NONE, .gpu_minor = -1, .gi = -1, .ci = -1};
	if (!name)
		return r;
	if (strcmp(name, "mig/config") == 0)
		return (struct lx_mig_ref){LX_MIG_CONFIG, -1, -1, -1};
	if (strcmp(name, "mig/monitor") == 0)
		return (struct lx_mig_ref){LX_MIG_MONITOR, -1, -1, -1};
	const char *p = name;
	int gpu, gi, ci;
	if (!take_id(&p, "gpu", &gpu) || strncmp(p, "/mig/", 5) != 0)
		return r;
	p += 5;
	if (!take_id(&p, "gi", &gi))
		return r;
	if (!*p)
		return (struct lx_mig_ref){LX_MIG_GI, gpu, gi, -1};
	if (*p++ != '/' || !take_id(&p, "ci", &ci) || *p)
		return r;
	return (struct lx_mig_ref){LX_MIG_CI, gpu, gi, ci};
}

char *lx_mig_ref_name(const struct lx_mig_ref *ref)
{
	switch (ref->kind) {
	case LX_MIG_CONFIG: return lx_xstrdup("mig/config");
	case LX_MIG_MONITOR: return lx_xstrdup("mig/monitor");
	case LX_MIG_GI: return lx_xasprintf("gpu%d/mig/gi%d", ref->gpu_minor, ref->gi);
	case LX_MIG_CI:
		return lx_xasprintf("gpu%d/mig/gi%d/ci%d", ref->gpu_minor, ref->gi, ref->ci);
	case LX_MIG_NONE: break;
	}
	return NULL;
}

/* One mig-minors name as the driver prints it -> lxgpu's capability name. */
static char *name_from_table(const char *word)
{
	if (strcmp(word, "config") == 0 || strcmp(word, "monitor") == 0)
		return lx_xasprintf("mig/%s", word);
	const char *p = word;
	int gpu, gi, ci = -1;
	if (!take_id(&p, "gpu", &gpu) || *p++ != '/' || !take_id(&p, "gi", &gi) || *p++ != '/')
		return NULL;
	if (take_id(&p, "ci", &ci) && *p++ != '/')
		return NULL;
	if (strcmp(p, "access") != 0)
		return NULL;
	struct lx_mig_ref r = {ci < 0 ? LX_MIG_GI : LX_MIG_CI, gpu, gi, ci};
	return lx_mig_ref_name(&r);
}

static bool host_has_gpu_minor(const struct lx_host *host, int minor)
{
	for (size_t i = 0; i < host->n_gpus; i++)
		if (host->gpus[i].minor == minor || host->gpus[i].minor == LX_UNKNOWN)
			return true;
	return false;
}

static int compare_minor(const void *a, const void *b)
{
	unsigned x = ((const struct lx_capability *)a)->minor;
	unsigned y = ((const struct lx_capability *)b)->minor;
	return x < y ? -1 : x > y;
}

int lx_parse_mig_minors(const char *text, const struct lx_host *keep_gpus,
			struct lx_capability **out, size_t *n, struct lx_error *err)
{
	*out = NULL;
	*n = 0;
	_cleanup_free_ char *copy = lx_xstrdup(text);
	size_t line_no = 0;
	int rc = 0;
	for (char *line = copy, *next; rc == 0 && line && *line; line = next) {
		line_no++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lx_str_strip(line);
		if (!*line)
			continue;
		char *space = strrchr(line, ' ');
		unsigned long long minor;
		_cleanup_free_ char *name = NULL;
		if (space) {
			*space = '\0';
			lx_str_strip(line);
			name = name_from_table(line);
		}
		if (!space || !name || !lx_parse_uint(space + 1, 10, CAPS_MINOR_MAX, &minor)) {
			rc = lx_error_set(err, "line %zu: '%s' is not 'NAME MINOR' as the driver writes "
					  "it (\"config 1\", \"gpu0/gi1/ci0/access 13\")",
					  line_no, line);
			break;
		}
		struct lx_mig_ref r = lx_mig_ref_of_name(name);
		if (keep_gpus && r.gpu_minor >= 0 && !host_has_gpu_minor(keep_gpus, r.gpu_minor))
			continue;
		*out = lx_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[*n] = (struct lx_capability){.name = name, .minor = (unsigned)minor};
		name = NULL;
		(*n)++;
	}
	if (rc < 0) {
		for (size_t i = 0; i < *n; i++)
			free((*out)[i].name);
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), compare_minor);
	return 0;
}

const struct lx_capability *lx_host_find_cap(const struct lx_host *host, const char *name)
{
	for (size_t i = 0; i < host->n_caps; i++)
		if (strcmp(host->caps[i].name, name) == 0)
			return &host->caps[i];
	return NULL;
}

const struct lx_capability *lx_host_cap_by_minor(const struct lx_host *host, unsigned minor)
{
	for (size_t i = 0; i < host->n_caps; i++)
		if (host->caps[i].minor == minor)
			return &host->caps[i];
	return NULL;
}

struct lx_mig_ref lx_host_mig_of_minor(const struct lx_host *host, unsigned minor)
{
	const struct lx_capability *c = lx_host_cap_by_minor(host, minor);
	if (c)
		return lx_mig_ref_of_name(c->name);
	for (size_t i = 0; i < host->n_mig_minors; i++)
		if (host->mig_minors[i].minor == minor)
			return lx_mig_ref_of_name(host->mig_minors[i].name);
	return lx_mig_ref_of_name(NULL);
}

int lx_host_mig_minor_of(const struct lx_host *host, const char *name)
{
	const struct lx_capability *c = lx_host_find_cap(host, name);
	if (c)
		return (int)c->minor;
	for (size_t i = 0; i < host->n_mig_minors; i++)
		if (strcmp(host->mig_minors[i].name, name) == 0)
			return (int)host->mig_minors[i].minor;
	return -1;
}

int lx_host_gpu_by_minor(const struct lx_host *host, int minor)
{
	for (size_t i = 0; minor >= 0 && i < host->n_gpus; i++)
		if (host->gpus[i].minor == minor)
			return (int)i;
	return -1;
}

enum lx_mig_state lx_host_gpu_mig_state(const struct lx_host *host, size_t gpu_index)
{
	int minor = gpu_index < host->n_gpus ? host->gpus[gpu_index].minor : LX_UNKNOWN;
	for (size_t i = 0; minor != LX_UNKNOWN && i < host->n_caps; i++) {
		struct lx_mig_ref r = lx_mig_ref_of_name(host->caps[i].name);
		if (r.kind == LX_MIG_GI && r.gpu_minor == minor)
			return LX_MIG_ON;
	}
	return LX_MIG_NO_INSTANCES;
}
