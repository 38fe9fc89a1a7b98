/* Parsers of the /proc files the scanner reads: pure functions over text. */
#include "lxgpu/host.h"

#include <ctype.h>
#include <string.h>

/* A driver version: digits and dots, at least one dot ("590.48.01", "390.157"). */
static bool looks_like_version(const char *tok, size_t n)
{
	size_t dots = 0;
	if (n == 0 || !isdigit((unsigned char)tok[0]) || !isdigit((unsigned char)tok[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (tok[i] == '.')
			dots++;
		else if (!isdigit((unsigned char)tok[i]))
			return false;
	}
	return dots >= 1;
}

int lx_parse_nvidia_version(const char *text, char **version, enum lx_driver_flavor *flavor,
			    struct lx_error *err)
{
	*version = NULL;
	*flavor = LX_FLAVOR_UNKNOWN;
	size_t line_len = strcspn(text, "\n");
	_cleanup_free_ char *line = lx_xstrndup(text, line_len);
	if (!lx_str_starts_with(line, "NVRM version:"))
		return lx_error_set(err, "first line does not start with 'NVRM version:'");
	/* The version is the first token after "Kernel Module" (and after the
	 * "for <arch>" the open module adds) that looks like one. */
	const char *module = strstr(line, "Kernel Module");
	if (!module)
		return lx_error_set(err, "no 'Kernel Module' in the version line");
	*flavor = strstr(line, "Open Kernel Module") ? LX_FLAVOR_OPEN : LX_FLAVOR_PROPRIETARY;
	const char *p = module + strlen("Kernel Module");
	while (*p) {
		while (*p && isspace((unsigned char)*p))
			p++;
		size_t n = strcspn(p, " \t");
		if (looks_like_version(p, n)) {
			*version = lx_xstrndup(p, n);
			return 0;
		}
		p += n;
	}
	*flavor = LX_FLAVOR_UNKNOWN;
	return lx_error_set(err, "no driver version in the version line");
}

/* "Key:   value" -> value, stripped; NULL if the line has another key. */
static const char *field_value(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0 || line[n] != ':')
		return NULL;
	const char *v = line + n + 1;
	while (*v && isspace((unsigned char)*v))
		v++;
	return v;
}

static char *optional_value(const char *v)
{
	/* The driver prints "N/A", "??.??.??.??.??" or "GPU-????????-????-..."
	 * when it does not know. */
	const char *rest = lx_str_starts_with(v, "GPU-") ? v + 4 : v;
	if (!*v || strcmp(v, "N/A") == 0 || strspn(rest, "?.-") == strlen(rest))
		return NULL;
	return lx_xstrdup(v);
}

int lx_parse_gpu_information(const char *text, struct lx_gpu_information *info,
			     struct lx_error *err)
{
	memset(info, 0, sizeof(*info));
	info->minor = LX_UNKNOWN;
	_cleanup_free_ char *copy = lx_xstrdup(text);
	char *save = NULL;
	bool any = false;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lx_str_strip(line);
		const char *v;
		if ((v = field_value(line, "Model"))) {
			free(info->model);
			info->model = optional_value(v);
		} else if ((v = field_value(line, "GPU UUID"))) {
			free(info->uuid);
			info->uuid = optional_value(v);
		} else if ((v = field_value(line, "Video BIOS"))) {
			free(info->vbios);
			info->vbios = optional_value(v);
		} else if ((v = field_value(line, "Bus Location"))) {
			free(info->bus_location);
			info->bus_location = optional_value(v);
		} else if ((v = field_value(line, "Device Minor"))) {
			unsigned long long m;
			if (!lx_parse_uint(v, 10, 255, &m)) {
				lx_gpu_information_free(info);
				return lx_error_set(err, "bad 'Device Minor' value '%s'", v);
			}
			info->minor = (int)m;
		} else {
			continue;
		}
		any = true;
	}
	if (!any)
		return lx_error_set(err, "no known field (Model, GPU UUID, Device Minor, ...)");
	return 0;
}

void lx_gpu_information_free(struct lx_gpu_information *info)
{
	free(info->model);
	free(info->uuid);
	free(info->vbios);
	free(info->bus_location);
	memset(info, 0, sizeof(*info));
	info->minor = LX_UNKNOWN;
}

int lx_parse_proc_devices(const char *text, struct lx_major **majors, size_t *n,
			  struct lx_error *err)
{
	*majors = NULL;
	*n = 0;
	_cleanup_free_ char *copy = lx_xstrdup(text);
	char *save = NULL;
	bool in_char = false, seen_char = false;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lx_str_strip(line);
		if (strcmp(line, "Character devices:") == 0) {
			in_char = seen_char = true;
			continue;
		}
		if (strcmp(line, "Block devices:") == 0) {
			in_char = false;
			continue;
		}
		if (!in_char || !*line)
			continue;
		char *name = line + strcspn(line, " \t");
		if (!*name)
			continue;
		*name++ = '\0';
		while (isspace((unsigned char)*name))
			name++;
		unsigned long long number;
		if (!*name || !lx_parse_uint(line, 10, 4095, &number))
			continue;
		/* Every entry, in file order: one number can carry several names
		 * (195 nvidia, 195 nvidiactl) and one name several numbers. A rule
		 * for a major is judged by who holds it now, so nothing is dropped. */
		*majors = lx_xrealloc(*majors, (*n + 1) * sizeof(**majors));
		(*majors)[*n].name = lx_xstrdup(name);
		(*majors)[*n].number = (unsigned)number;
		(*n)++;
	}
	if (!seen_char)
		return lx_error_set(err, "no 'Character devices:' section");
	return 0;
}

void lx_parse_proc_modules(const char *text, struct lx_strv *modules)
{
	const char *p = text;
	while (*p) {
		size_t line_len = strcspn(p, "\n");
		size_t name_len = strcspn(p, " \t\n");
		if (name_len > line_len)
			name_len = line_len;
		_cleanup_free_ char *name = lx_xstrndup(p, name_len);
		if ((lx_str_starts_with(name, "nvidia") || strcmp(name, "nouveau") == 0) &&
		    !lx_strv_contains(modules, name))
			lx_strv_push(modules, name);
		p += line_len;
		if (*p == '\n')
			p++;
	}
}

/* A mount at /sys/fs/cgroup or /sys/fs/cgroup/unified, from one mountinfo line:
 * "id parent maj:min root mountpoint opts [optional...] - fstype source superopts". */
struct cgroup_mount {
	unsigned long long id, parent;
	bool unified; /* at /sys/fs/cgroup/unified, else at /sys/fs/cgroup */
	bool cgroup2;
};

static bool parse_cgroup_mount(char *line, struct cgroup_mount *m)
{
	char *save = NULL;
	char *fields[5];
	for (size_t i = 0; i < 5; i++)
		if (!(fields[i] = strtok_r(i ? NULL : line, " ", &save)))
			return false;
	if (strcmp(fields[4], "/sys/fs/cgroup") == 0)
		m->unified = false;
	else if (strcmp(fields[4], "/sys/fs/cgroup/unified") == 0)
		m->unified = true;
	else
		return false;
	if (!lx_parse_uint(fields[0], 10, UINT64_MAX, &m->id) ||
	    !lx_parse_uint(fields[1], 10, UINT64_MAX, &m->parent))
		return false;
	/* The optional fields end at a lone "-"; the file system type follows. */
	char *tok;
	while ((tok = strtok_r(NULL, " ", &save)) && strcmp(tok, "-") != 0)
		;
	const char *fstype = tok ? strtok_r(NULL, " ", &save) : NULL;
	if (!fstype)
		return false;
	m->cgroup2 = strcmp(fstype, "cgroup2") == 0;
	return true;
}

/* Is another mount stacked on mounts[i], at the same place? */
static bool is_covered(const struct cgroup_mount *mounts, size_t n, size_t i)
{
	for (size_t j = 0; j < n; j++)
		if (j != i && mounts[j].parent == mounts[i].id && mounts[j].unified == mounts[i].unified)
			return true;
	return false;
}

/* Does mounts[i] (at /sys/fs/cgroup/unified) sit on the visible
 * /sys/fs/cgroup, directly or through other mounts at its own place? */
static bool sits_on(const struct cgroup_mount *mounts, size_t n, size_t i,
		    unsigned long long top_id)
{
	for (size_t hops = 0; hops <= n; hops++) {
		if (mounts[i].parent == top_id)
			return true;
		size_t below = n;
		for (size_t k = 0; k < n; k++)
			if (mounts[k].id == mounts[i].parent && mounts[k].unified)
				below = k;
		if (below == n)
			return false;
		i = below;
	}
	return false;
}

enum lx_cgroup_layout lx_parse_cgroup_layout(const char *mountinfo)
{
	/* As pve-common's PVE::CGroup::cgroup_mode decides: by the file system
	 * type at /sys/fs/cgroup alone. cgroup2 there is v2 even with v1
	 * hierarchies (net_cls from a VPN client, nspawn) mounted below it, and
	 * LXC then ignores lxc.cgroup.* keys. tmpfs (or anything else) is v1;
	 * we call it hybrid when a cgroup2 is visible at /sys/fs/cgroup/unified
	 * (the devices controller is still v1 there). */
	struct cgroup_mount *mounts = NULL;
	size_t n = 0;
	const char *p = mountinfo;
	while (*p) {
		size_t line_len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, line_len);
		struct cgroup_mount m;
		if (parse_cgroup_mount(line, &m)) {
			mounts = lx_xrealloc(mounts, (n + 1) * sizeof(*mounts));
			mounts[n++] = m;
		}
		p += line_len;
		if (*p == '\n')
			p++;
	}
	/* Mounts stacked on one place: the visible one, the one statfs() and
	 * LXC see, is the one nothing else sits on; normally the last listed,
	 * but the kernel's list can name a mount before the one below it. */
	size_t top = n, unified = n;
	for (size_t i = 0; i < n; i++)
		if (!mounts[i].unified && !is_covered(mounts, n, i))
			top = i;
	for (size_t i = 0; top < n && i < n; i++)
		if (mounts[i].unified && !is_covered(mounts, n, i) &&
		    sits_on(mounts, n, i, mounts[top].id))
			unified = i;
	enum lx_cgroup_layout layout = LX_CGROUP_UNKNOWN;
	if (top < n && mounts[top].cgroup2)
		layout = LX_CGROUP_V2;
	else if (top < n)
		layout = unified < n && mounts[unified].cgroup2 ? LX_CGROUP_HYBRID : LX_CGROUP_V1;
	free(mounts);
	return layout;
}

int lx_parse_capability_minor(const char *text, unsigned *minor, struct lx_error *err)
{
	_cleanup_free_ char *copy = lx_xstrdup(text);
	char *save = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lx_str_strip(line);
		const char *v = field_value(line, "DeviceFileMinor");
		if (!v)
			continue;
		unsigned long long m;
		if (!lx_parse_uint(v, 10, 1048575, &m))
			return lx_error_set(err, "bad DeviceFileMinor '%s'", v);
		*minor = (unsigned)m;
		return 0;
	}
	return lx_error_set(err, "no DeviceFileMinor line");
}
