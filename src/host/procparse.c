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

static bool is_interesting_major(const char *name)
{
	return lx_str_starts_with(name, "nvidia") || strcmp(name, "drm") == 0;
}

static bool major_list_contains(const struct lx_major *majors, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(majors[i].name, name) == 0)
			return true;
	return false;
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
		if (!lx_parse_uint(line, 10, 4095, &number))
			continue;
		if (!is_interesting_major(name) || major_list_contains(*majors, *n, name))
			continue;
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

enum lx_cgroup_layout lx_parse_cgroup_layout(const char *mountinfo)
{
	/* mountinfo: "id parent maj:min root mountpoint opts [optional...] - fstype src superopts" */
	bool v1 = false, v2 = false;
	const char *p = mountinfo;
	while (*p) {
		size_t line_len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, line_len);
		const char *sep = strstr(line, " - ");
		if (sep) {
			const char *fstype = sep + 3;
			size_t n = strcspn(fstype, " ");
			if (n == 7 && strncmp(fstype, "cgroup2", 7) == 0)
				v2 = true;
			else if (n == 6 && strncmp(fstype, "cgroup", 6) == 0)
				v1 = true;
		}
		p += line_len;
		if (*p == '\n')
			p++;
	}
	if (v1 && v2)
		return LX_CGROUP_HYBRID;
	if (v2)
		return LX_CGROUP_V2;
	if (v1)
		return LX_CGROUP_V1;
	return LX_CGROUP_UNKNOWN;
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
