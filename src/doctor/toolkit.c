/* NVIDIA's container toolkit inside a container (Docker or Podman with the
 * nvidia runtime in an LXC container): in an unprivileged container its
 * nvidia-container-cli must not set up device cgroups, which the container
 * may not, so /etc/nvidia-container-runtime/config.toml needs
 * "no-cgroups = true" under [nvidia-container-cli] (its default is false;
 * NVIDIA's shipped file has the line commented out). The container is
 * untrusted: every path is opened inside its root. docs/nvidia-hook.md. */
#include "lxgpu/doctor.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOOLKIT_CONFIG "etc/nvidia-container-runtime/config.toml"
#define TOOLKIT_CONFIG_MAX (1u << 20)

/* A TOML string or bare key at *p ("no-cgroups", "\"no-cgroups\"",
 * 'no-cgroups'), unquoted (basic strings' escapes are not needed for the
 * names looked for here); *p moves past it. NULL when there is none. */
static char *toml_key_part(const char **p)
{
	const char *s = *p + strspn(*p, " \t");
	const char *end;
	char *out;
	if (*s == '"' || *s == '\'') {
		end = strchr(s + 1, *s);
		if (!end)
			return NULL;
		out = lx_xstrndup(s + 1, (size_t)(end - s - 1));
		end++;
	} else {
		end = s + strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
		if (end == s)
			return NULL;
		out = lx_xstrndup(s, (size_t)(end - s));
	}
	*p = end + strspn(end, " \t");
	return out;
}

/* A dotted key ("a.b", "a . \"b\"") joined with '.'; NULL when malformed. */
static char *toml_key(const char **p)
{
	struct lx_buf b = {0};
	for (;;) {
		_cleanup_free_ char *part = toml_key_part(p);
		if (!part) {
			lx_buf_free(&b);
			return NULL;
		}
		lx_buf_printf(&b, "%s%s", b.len ? "." : "", part);
		if (**p != '.')
			break;
		(*p)++;
	}
	return lx_buf_steal(&b);
}

/* The value of a line: up to a '#' outside quotes, blanks trimmed. */
static char *toml_value(const char *p)
{
	p += strspn(p, " \t");
	const char *end = p;
	char quote = 0;
	for (; *end; end++) {
		if (quote && *end == quote)
			quote = 0;
		else if (!quote && (*end == '"' || *end == '\''))
			quote = *end;
		else if (!quote && *end == '#')
			break;
	}
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	return lx_xstrndup(p, (size_t)(end - p));
}

enum lx_toolkit_setting lx_toolkit_no_cgroups(const char *text, int *line, char **value)
{
	enum lx_toolkit_setting found = LX_TOOLKIT_UNSET;
	_cleanup_free_ char *table = lx_xstrdup("");
	*line = 0;
	*value = NULL;
	int lineno = 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		_cleanup_free_ char *l = lx_xstrndup(p, len);
		p += len + (p[len] == '\n');
		lineno++;
		const char *s = l + strspn(l, " \t");
		if (!*s || *s == '#' || *s == '\r')
			continue;
		if (*s == '[') {
			/* [table] or [[array of tables]]: the keys below are its. */
			bool array = s[1] == '[';
			const char *k = s + 1 + array;
			char *name = toml_key(&k);
			bool ours = name && !array && *k == ']';
			free(table);
			/* An array of tables or a malformed header: no key below counts. */
			table = ours ? name : lx_xstrdup("\x01");
			if (!ours)
				free(name);
			continue;
		}
		const char *k = s;
		_cleanup_free_ char *key = toml_key(&k);
		if (!key || *k != '=')
			continue;
		_cleanup_free_ char *full =
			*table ? lx_xasprintf("%s.%s", table, key) : lx_xstrdup(key);
		if (strcmp(full, "nvidia-container-cli.no-cgroups") != 0)
			continue;
		free(*value);
		*value = toml_value(k + 1);
		*line = lineno;
		found = strcmp(*value, "true") == 0    ? LX_TOOLKIT_TRUE
			: strcmp(*value, "false") == 0 ? LX_TOOLKIT_FALSE
						       : LX_TOOLKIT_INVALID;
	}
	return found;
}


/* The toolkit's programs, where its packages put them. */
static const char *toolkit_program(int root_fd)
{
	static const char *const programs[] = {
		"usr/bin/nvidia-container-toolkit", "usr/bin/nvidia-container-runtime-hook",
		"usr/bin/nvidia-container-runtime", "usr/bin/nvidia-ctk",
		"usr/bin/nvidia-container-cli",     "usr/local/bin/nvidia-ctk",
	};
	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++)
		if (lx_root_has_regular_file(root_fd, programs[i]))
			return programs[i];
	return NULL;
}

/* The config's text; 0 with *text NULL when there is none; -1 with *why
 * when something is there that cannot be read as a config. */
static int read_config(int root_fd, char **text, char **why)
{
	*text = NULL;
	*why = NULL;
	/* O_PATH first: a FIFO or a device node planted there is never opened. */
	int pfd = lx_open_in_root(root_fd, TOOLKIT_CONFIG, O_PATH);
	if (pfd < 0) {
		if (errno == ENOENT)
			return 0;
		*why = lx_xasprintf("it cannot be opened inside the container's root: %s",
				    errno == EXDEV ? "a link that leaves the root" : strerror(errno));
		return -1;
	}
	if (lx_read_regular(pfd, TOOLKIT_CONFIG_MAX, text, NULL) < 0) {
		*why = lx_xstrdup(errno == EFBIG    ? "it is larger than 1 MiB"
				  : errno == EINVAL ? "it is not a regular file"
						    : strerror(errno));
		return -1;
	}
	return 0;
}

void lx_doctor_toolkit(int root_fd, const char *id, bool is_pve, bool unprivileged,
		       struct lx_findings *out)
{
	_cleanup_free_ char *text = NULL, *why = NULL;
	int rc = read_config(root_fd, &text, &why);
	const char *program = toolkit_program(root_fd);
	if (rc == 0 && !text && !program)
		return; /* no toolkit inside */
	const char *file = "/" TOOLKIT_CONFIG;
	if (rc < 0) {
		lx_findings_add(out, LXG131_TOOLKIT_UNREAD, id, NULL, 0, NULL,
				lx_xasprintf("NVIDIA's container toolkit config %s in the container "
					     "could not be read: %s; whether no-cgroups is set is unknown",
					     file, why),
				lx_xasprintf("by hand: look at %s in the container", file));
		return;
	}
	if (!unprivileged)
		return; /* a privileged container may set up device cgroups */
	int line = 0;
	_cleanup_free_ char *value = NULL;
	enum lx_toolkit_setting s =
		text ? lx_toolkit_no_cgroups(text, &line, &value) : LX_TOOLKIT_UNSET;
	if (s == LX_TOOLKIT_TRUE)
		return;
	_cleanup_free_ char *state =
		!text ? lx_xasprintf("there is no %s (the toolkit's %s is installed), so no-cgroups "
				     "is false",
				     file, program)
		: s == LX_TOOLKIT_UNSET ? lx_xasprintf("%s does not set no-cgroups under "
						       "[nvidia-container-cli] (missing or commented "
						       "out), so it is false",
						       file)
		: s == LX_TOOLKIT_FALSE ? lx_xasprintf("%s line %d sets no-cgroups = false", file, line)
					: lx_xasprintf("%s line %d sets no-cgroups = %s, which is not the "
						       "TOML boolean true",
						       file, line, value);
	const char *exec = is_pve ? "pct exec" : "lxc-attach -n";
	lx_findings_add(out, LXG130_TOOLKIT_CGROUPS, id, NULL, 0, NULL,
			lx_xasprintf("the container is unprivileged and has NVIDIA's container toolkit "
				     "inside, but %s: nvidia-container-cli then sets up the device "
				     "cgroup of each GPU container it starts, which an unprivileged "
				     "container may not, and 'docker run --gpus' fails (\"mount error: "
				     "failed to add device rules\" / \"bpf_prog_query(BPF_CGROUP_DEVICE) "
				     "failed: operation not permitted\")",
				     state),
			lx_xasprintf("`%s %s -- nvidia-ctk config --set nvidia-container-cli.no-cgroups=true "
				     "--in-place`, then `%s %s -- systemctl restart docker`; or set "
				     "'no-cgroups = true' under [nvidia-container-cli] in %s",
				     exec, id, exec, id, file));
}
