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

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* ---- MIG UUIDs ---- */

static bool hex_run(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* 8-4-4-4-12 hex digits, and nothing after. */
static bool canonical_uuid(const char *s)
{
	static const size_t groups[] = {8, 4, 4, 4, 12};
	for (size_t g = 0; g < 5; g++) {
		if (!hex_run(s, groups[g]))
			return false;
		s += groups[g];
		if (g < 4 && *s++ != '-')
			return false;
	}
	return *s == '\0';
}

bool lx_mig_uuid_is_canonical(const char *s)
{
	return s && strncasecmp(s, "MIG-", 4) == 0 && canonical_uuid(s + 4);
}

static int find_gpu_by_uuid(const struct lx_host *host, const char *uuid, size_t len)
{
	for (size_t i = 0; i < host->n_gpus; i++) {
		const char *u = host->gpus[i].uuid;
		if (u && strlen(u) == len && strncasecmp(u, uuid, len) == 0)
			return (int)i;
	}
	return -1;
}

/* A decimal ID (no sign, no leading zero) at *p, advancing past it. */
static bool take_number(const char **p, int *out)
{
	const char *s = *p;
	return take_id(&s, "", out) ? (*p = s, true) : false;
}

enum lx_mig_lookup lx_host_mig_by_uuid(const struct lx_host *host, const char *uuid, size_t *gpu,
				       int *gi, int *ci)
{
	if (!uuid || strncasecmp(uuid, "MIG-", 4) != 0)
		return LX_MIG_MALFORMED;
	const char *rest = uuid + 4;
	if (strncasecmp(rest, "GPU-", 4) == 0) {
		/* The R450/R460 form names the instance itself. */
		const char *slash = strchr(rest, '/');
		if (!slash)
			return LX_MIG_MALFORMED;
		_cleanup_free_ char *parent = lx_xstrndup(rest, (size_t)(slash - rest));
		const char *p = slash + 1;
		int g, c;
		if (!canonical_uuid(parent + 4) || !take_number(&p, &g) || *p++ != '/' ||
		    !take_number(&p, &c) || *p)
			return LX_MIG_MALFORMED;
		int index = find_gpu_by_uuid(host, parent, strlen(parent));
		if (index < 0)
			return LX_MIG_UNKNOWN_GPU;
		*gpu = (size_t)index;
		*gi = g;
		*ci = c;
		return LX_MIG_FOUND;
	}
	if (!canonical_uuid(rest))
		return LX_MIG_MALFORMED;
	for (size_t i = 0; i < host->n_mig_uuids; i++)
		if (strcasecmp(host->mig_uuids[i].uuid, uuid) == 0) {
			*gpu = host->mig_uuids[i].gpu;
			*gi = host->mig_uuids[i].gi;
			*ci = host->mig_uuids[i].ci;
			return LX_MIG_FOUND;
		}
	return LX_MIG_UNKNOWN_UUID;
}

/* One MIG device as one of the two outputs names it. */
struct smi_mig {
	char *gpu_uuid;
	int index;
	char *mig_uuid; /* from -L */
	int gi, ci;     /* from -q -x */
};

static void smi_push(struct smi_mig **v, size_t *n, struct smi_mig m)
{
	*v = lx_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = m;
}

static void smi_free(struct smi_mig *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].gpu_uuid);
		free(v[i].mig_uuid);
	}
	free(v);
}

/* "(UUID: X)" in line: X, NULL when absent. */
static char *paren_uuid(const char *line)
{
	const char *at = strstr(line, "(UUID: ");
	if (!at)
		return NULL;
	at += strlen("(UUID: ");
	const char *end = strchr(at, ')');
	return end && end > at ? lx_xstrndup(at, (size_t)(end - at)) : NULL;
}

/* nvidia-smi -L: "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)", then under
 * it "  MIG 1g.10gb     Device  0: (UUID: MIG-...)" for each MIG device
 * (nvidia-smi's MIG device index: the NVML index -q prints too). */
static void parse_list(const char *text, struct smi_mig **v, size_t *n)
{
	_cleanup_free_ char *copy = lx_xstrdup(text);
	_cleanup_free_ char *gpu = NULL;
	for (char *line = copy, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, "GPU ", 4) == 0) {
			free(gpu);
			gpu = paren_uuid(line);
			continue;
		}
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!gpu || p == line || strncmp(p, "MIG ", 4) != 0)
			continue;
		const char *dev = strstr(p, " Device ");
		if (!dev)
			continue;
		p = dev + strlen(" Device ");
		while (*p == ' ')
			p++;
		int index;
		char *uuid;
		if (!take_number(&p, &index) || *p != ':' || !(uuid = paren_uuid(p)))
			continue;
		smi_push(v, n, (struct smi_mig){lx_xstrdup(gpu), index, uuid, -1, -1});
	}
}

/* nvidia-smi -q -x (nvsmi_device_v*.dtd): per <gpu>, its <uuid> and
 * <mig_devices><mig_device> with <index>, <gpu_instance_id> and
 * <compute_instance_id>. A small walk over the tags: only leaf elements at
 * those places are read; the order of a GPU's children does not matter. */
#define XML_DEPTH 32
static void parse_query(const char *xml, struct smi_mig **v, size_t *n)
{
	char stack[XML_DEPTH][32];
	int depth = 0;
	const char *text = NULL; /* after the open tag of the element now innermost */
	size_t first = *n;       /* this GPU's entries start here */
	char *gpu_uuid = NULL;
	struct smi_mig cur = {.index = -1, .gi = -1, .ci = -1};
	for (const char *p = xml; (p = strchr(p, '<'));) {
		const char *end = strchr(p, '>');
		if (!end)
			break;
		if (p[1] == '?' || p[1] == '!') {
			/* Declaration, DOCTYPE, comment: a comment's end is "-->". */
			if (strncmp(p, "<!--", 4) == 0 && !(end = strstr(p + 4, "-->")))
				break;
			p = end + 1;
			continue;
		}
		bool closing = p[1] == '/';
		const char *name = p + (closing ? 2 : 1);
		size_t len = strcspn(name, " \t\r\n/>");
		bool empty = end[-1] == '/';
		char tag[32];
		snprintf(tag, sizeof(tag), "%.*s", (int)(len < 31 ? len : 31), name);
		if (!closing) {
			if (depth < XML_DEPTH)
				snprintf(stack[depth], sizeof(stack[depth]), "%s", tag);
			depth++;
			text = empty ? NULL : end + 1;
			if (empty)
				depth--;
			if (depth == 2 && !empty && strcmp(tag, "gpu") == 0) {
				first = *n;
				free(gpu_uuid);
				gpu_uuid = NULL;
			}
			if (depth == 4 && strcmp(tag, "mig_device") == 0)
				cur = (struct smi_mig){.index = -1, .gi = -1, .ci = -1};
			p = end + 1;
			continue;
		}
		if (depth <= 0)
			break;
		bool in_gpu = depth >= 2 && depth <= XML_DEPTH && strcmp(stack[1], "gpu") == 0;
		if (text && in_gpu) {
			_cleanup_free_ char *value = lx_xstrndup(text, (size_t)(p - text));
			lx_str_strip(value);
			const char *q = value;
			int num = -1;
			bool numeric = take_number(&q, &num) && !*q;
			if (depth == 3 && strcmp(tag, "uuid") == 0) {
				free(gpu_uuid);
				gpu_uuid = lx_xstrdup(value);
			} else if (depth == 5 && strcmp(stack[2], "mig_devices") == 0 &&
				   strcmp(stack[3], "mig_device") == 0 && numeric) {
				if (strcmp(tag, "index") == 0)
					cur.index = num;
				else if (strcmp(tag, "gpu_instance_id") == 0)
					cur.gi = num;
				else if (strcmp(tag, "compute_instance_id") == 0)
					cur.ci = num;
			}
		}
		if (in_gpu && depth == 4 && strcmp(tag, "mig_device") == 0 && cur.index >= 0 &&
		    cur.gi >= 0 && cur.ci >= 0)
			smi_push(v, n, cur);
		if (in_gpu && depth == 2 && strcmp(tag, "gpu") == 0) {
			for (size_t i = first; i < *n; i++)
				(*v)[i].gpu_uuid = gpu_uuid ? lx_xstrdup(gpu_uuid) : NULL;
			first = *n;
		}
		text = NULL;
		depth--;
		p = end + 1;
	}
	/* A GPU element left open (cut output): its devices keep no parent
	 * and join nothing. */
	free(gpu_uuid);
}

int lx_mig_uuid_compare(const void *a, const void *b)
{
	const struct lx_mig_uuid *x = a, *y = b;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	if (x->gi != y->gi)
		return x->gi < y->gi ? -1 : 1;
	return (x->ci > y->ci) - (x->ci < y->ci);
}

void lx_mig_uuids_from_nvsmi(const struct lx_host *host, const char *list_text,
			     const char *query_xml, struct lx_mig_uuid **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	struct smi_mig *listed = NULL, *queried = NULL;
	size_t n_listed = 0, n_queried = 0;
	parse_list(list_text ? list_text : "", &listed, &n_listed);
	parse_query(query_xml ? query_xml : "", &queried, &n_queried);
	for (size_t i = 0; i < n_listed; i++) {
		const struct smi_mig *l = &listed[i];
		if (!lx_mig_uuid_is_canonical(l->mig_uuid))
			continue;
		int gpu = find_gpu_by_uuid(host, l->gpu_uuid, strlen(l->gpu_uuid));
		const struct smi_mig *q = NULL;
		for (size_t k = 0; k < n_queried && !q; k++)
			if (queried[k].gpu_uuid && queried[k].index == l->index &&
			    strcasecmp(queried[k].gpu_uuid, l->gpu_uuid) == 0)
				q = &queried[k];
		bool seen = false;
		for (size_t k = 0; k < *n && !seen; k++)
			seen = strcasecmp((*out)[k].uuid, l->mig_uuid) == 0 ||
			       (q && gpu >= 0 && (*out)[k].gpu == (size_t)gpu &&
				(*out)[k].gi == q->gi && (*out)[k].ci == q->ci);
		if (gpu < 0 || !q || seen)
			continue;
		*out = lx_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = (struct lx_mig_uuid){lx_xstrdup(l->mig_uuid), (size_t)gpu, q->gi, q->ci};
	}
	smi_free(listed, n_listed);
	smi_free(queried, n_queried);
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), lx_mig_uuid_compare);
}
