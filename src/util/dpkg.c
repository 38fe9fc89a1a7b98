/* What dpkg says is installed (var/lib/dpkg/status under a root): the
 * versions of the packages that decide how a start behaves (lxc or
 * lxc-pve, pve-container) and of NVIDIA's (Fabric Manager), read as a file
 * without running dpkg, as a scan reads everything else. */
#include "lxgpu/util.h"

#include <stdlib.h>
#include <string.h>

/* dpkg's own status file is a few MB on a Proxmox node. */
#define DPKG_STATUS_MAX (256u << 20)

/* One stanza's "Field: value" (at a line start), as a new string; NULL
 * when the stanza has no such field. */
static char *field(const char *stanza, size_t len, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = stanza; p < stanza + len;) {
		const char *eol = memchr(p, '\n', (size_t)(stanza + len - p));
		size_t line = eol ? (size_t)(eol - p) : (size_t)(stanza + len - p);
		if (line > n + 1 && strncmp(p, name, n) == 0 && p[n] == ':') {
			const char *v = p + n + 1;
			while (v < p + line && (*v == ' ' || *v == '\t'))
				v++;
			return lx_xstrndup(v, (size_t)(p + line - v));
		}
		p += line + 1;
	}
	return NULL;
}

int lx_dpkg_installed(const char *root, bool (*want)(const char *package, void *ctx), void *ctx,
		      struct lx_dpkg_package **out, size_t *n_out, struct lx_error *err)
{
	*out = NULL;
	*n_out = 0;
	_cleanup_free_ char *path = lx_path_join(root, "var/lib/dpkg/status");
	char *text = NULL;
	size_t len = 0;
	if (lx_read_file_optional(path, DPKG_STATUS_MAX, &text, &len, err) < 0)
		return -1;
	/* Stanzas are separated by blank lines. */
	for (const char *p = text; p && p < text + len;) {
		const char *end = strstr(p, "\n\n");
		size_t slen = end ? (size_t)(end - p) + 1 : (size_t)(text + len - p);
		_cleanup_free_ char *package = field(p, slen, "Package");
		if (package && want(package, ctx)) {
			_cleanup_free_ char *status = field(p, slen, "Status");
			char *version = field(p, slen, "Version");
			/* "install ok installed"; "deinstall ok config-files" is gone */
			size_t sl = status ? strlen(status) : 0;
			if (version && sl >= 10 && strcmp(status + sl - 10, " installed") == 0) {
				*out = lx_xrealloc(*out, (*n_out + 1) * sizeof(**out));
				(*out)[(*n_out)++] = (struct lx_dpkg_package){lx_xstrdup(package), version};
			} else {
				free(version);
			}
		}
		p += slen;
		while (p < text + len && *p == '\n')
			p++;
	}
	free(text);
	return 0;
}

void lx_dpkg_packages_free(struct lx_dpkg_package *packages, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(packages[i].name);
		free(packages[i].version);
	}
	free(packages);
}

char *lx_dpkg_upstream(const char *version)
{
	const char *colon = strchr(version, ':');
	const char *v = colon ? colon + 1 : version;
	const char *dash = strrchr(v, '-');
	return lx_xstrndup(v, dash ? (size_t)(dash - v) : strlen(v));
}

int lx_version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		char *ea, *eb;
		unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
		if (x != y)
			return x < y ? -1 : 1;
		/* a missing part counts as 0: "6.0" == "6.0.0" */
		a = *ea == '.' ? ea + 1 : ea;
		b = *eb == '.' ? eb + 1 : eb;
		if ((*a && (*a < '0' || *a > '9')) || (*b && (*b < '0' || *b > '9')))
			return strcmp(a, b) < 0 ? -1 : strcmp(a, b) > 0;
	}
	return 0;
}
