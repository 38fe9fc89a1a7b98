/* Host models shared through pmxcfs: publish this node's, find another
 * node's and whether it is from that node's current boot
 * (include/lxgpu/cluster.h). */
#include "lxgpu/cluster.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

bool lx_cluster_node_name_valid(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		bool ldh = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (!ldh && !(c == '-' && i != 0 && i != n - 1))
			return false;
	}
	return true;
}

char *lx_cluster_local_node(struct lx_error *err)
{
	struct utsname u;
	if (uname(&u) < 0) {
		lx_error_set_errno(err, errno, "cannot read the node name (uname)");
		return NULL;
	}
	char *name = lx_xstrndup(u.nodename, strcspn(u.nodename, "."));
	if (!lx_cluster_node_name_valid(name)) {
		lx_error_set(err,
			     "the host name '%s' is not a Proxmox node name (letters, digits, '-'); "
			     "give it with --node NAME",
			     u.nodename);
		free(name);
		return NULL;
	}
	return name;
}

char *lx_cluster_model_path(const char *pve_dir, const char *node)
{
	return lx_xasprintf("%s/nodes/%s/" LX_CLUSTER_MODEL_NAME, pve_dir, node);
}

/* "btime N" of /proc/stat: the boot, in seconds since the epoch. */
static int read_btime(const char *proc_dir, long long *out, struct lx_error *err)
{
	_cleanup_free_ char *path = lx_path_join(proc_dir, "stat");
	_cleanup_free_ char *text = NULL;
	if (lx_read_file(path, 1u << 20, &text, NULL, err) < 0)
		return -1;
	for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (!lx_str_starts_with(line, "btime "))
			continue;
		_cleanup_free_ char *value = lx_xstrndup(line + 6, strcspn(line + 6, "\n"));
		if (lx_parse_int(lx_str_strip(value), 1, 1LL << 40, out))
			return 0;
		break;
	}
	return lx_error_set(err, "%s: no 'btime' line with the boot time", path);
}

int lx_publication_stamp(struct lx_host *host, const char *proc_dir, const char *node,
			 long long now, struct lx_error *err)
{
	long long btime;
	if (!lx_cluster_node_name_valid(node))
		return lx_error_set(err,
				    "'%s' is not a Proxmox node name (letters, digits, '-' inside)",
				    node);
	if (read_btime(proc_dir, &btime, err) < 0)
		return -1;
	_cleanup_free_ char *id_path = lx_path_join(proc_dir, "sys/kernel/random/boot_id");
	char *boot_id = NULL;
	struct lx_error ignore = {0};
	if (lx_read_file_optional(id_path, 4096, &boot_id, NULL, &ignore) == 0 && boot_id)
		lx_str_strip(boot_id);
	lx_error_clear(&ignore);
	free(host->published.node);
	free(host->published.boot_id);
	host->published = (struct lx_publication){
		.present = true,
		.node = lx_xstrdup(node),
		.boot_time = btime,
		.boot_id = boot_id && *boot_id ? boot_id : NULL,
		.scanned_at = now,
	};
	if (boot_id && !*boot_id)
		free(boot_id);
	return 0;
}

int lx_cluster_publish(const char *pve_dir, const struct lx_host *host, char **written,
		       struct lx_error *err)
{
	*written = NULL;
	const char *node = host->published.node;
	if (!host->published.present || !lx_cluster_node_name_valid(node))
		return lx_error_set(err, "the model is not stamped with a node name");
	_cleanup_free_ char *dir = lx_xasprintf("%s/nodes/%s", pve_dir, node);
	struct stat st;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return lx_error_set(err,
				    "%s: no such directory: node '%s' is not in the cluster file system "
				    "at %s (pmxcfs makes nodes/<node> when a node joins; check "
				    "--pve-dir and --node, and that pve-cluster runs)",
				    dir, node, pve_dir);
	_cleanup_free_ char *yaml = lx_snapshot_to_yaml(host);
	size_t len = strlen(yaml);
	if (len > LX_PMXCFS_MAX_FILE)
		return lx_error_set(err,
				    "the host model is %zu bytes; pmxcfs takes files up to %d bytes: "
				    "nothing written",
				    len, LX_PMXCFS_MAX_FILE);
	_cleanup_free_ char *path = lx_cluster_model_path(pve_dir, node);
	/* 0640: the only mode pmxcfs lets a file outside priv/ have. */
	if (lx_write_file_atomic(path, yaml, len, 0640, err) < 0)
		/* pmxcfs answers EACCES to every write while the node is not
		 * quorate (dcdb.c), even to root: say so. */
		return lx_error_prefix(err, "cannot publish (is the cluster file system read-only, "
					    "without quorum?)");
	*written = lx_xstrdup(path);
	return 0;
}

/* One "key:field:field:..." line of .rrd for this node; fields 0 (uptime)
 * and 2 (ctime) after the key. */
static bool rrd_line_boot(const char *line, size_t len, const char *node, long long *boot,
			  long long *when)
{
	_cleanup_free_ char *copy = lx_xstrndup(line, len);
	char *colon = strchr(copy, ':');
	if (!colon)
		return false;
	*colon = '\0';
	const char *key = copy, *slash = strchr(key, '/');
	if (!slash || strcmp(slash + 1, node) != 0)
		return false;
	/* pve2-node/<node> (PVE 8 and older), pve-node-<version>/<node> (PVE 9). */
	if (!(strncmp(key, "pve2-node", (size_t)(slash - key)) == 0 && slash - key == 9) &&
	    !lx_str_starts_with(key, "pve-node-"))
		return false;
	char *fields[3] = {NULL, NULL, NULL};
	char *p = colon + 1;
	for (int i = 0; i < 3; i++) {
		fields[i] = p;
		char *next = strchr(p, ':');
		if (!next && i < 2)
			return false;
		if (next) {
			*next = '\0';
			p = next + 1;
		}
	}
	/* uptime: whole seconds (PVE::ProcFSTools::read_proc_uptime); a fraction is cut. */
	char *dot = strchr(fields[0], '.');
	if (dot)
		*dot = '\0';
	long long uptime, ctime;
	if (!lx_parse_int(fields[0], 0, 1LL << 40, &uptime) ||
	    !lx_parse_int(fields[2], 1, 1LL << 40, &ctime) || uptime > ctime)
		return false;
	*boot = ctime - uptime;
	*when = ctime;
	return true;
}

bool lx_rrd_node_boot_time(const char *text, size_t len, const char *node, long long *boot_time,
			   long long *status_time)
{
	bool found = false;
	size_t i = 0;
	while (i < len) {
		size_t end = i;
		while (end < len && text[end] != '\n' && text[end] != '\0')
			end++;
		long long boot, when;
		/* The newest entry wins (pmxcfs keeps one per key; both key forms may be there). */
		if (rrd_line_boot(text + i, end - i, node, &boot, &when) &&
		    (!found || when > *status_time)) {
			*boot_time = boot;
			*status_time = when;
			found = true;
		}
		i = end + 1;
	}
	return found;
}

bool lx_cluster_node_boot_time(const char *pve_dir, const char *node, long long *boot_time,
			       long long *status_time)
{
	_cleanup_free_ char *path = lx_path_join(pve_dir, ".rrd");
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	struct lx_error err = {0};
	if (lx_read_file_optional(path, 16u << 20, &text, &len, &err) < 0 || !text) {
		lx_error_clear(&err);
		return false;
	}
	return lx_rrd_node_boot_time(text, len, node, boot_time, status_time);
}

int lx_node_model_load(const char *pve_dir, const char *hosts_dir, const char *node,
		       struct lx_node_model *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	out->node = lx_xstrdup(node);
	out->age = LX_MODEL_UNDATED;
	out->node_boot_time = LX_UNKNOWN;
	if (hosts_dir) {
		_cleanup_free_ char *yaml = lx_xasprintf("%s/%s.yaml", hosts_dir, node);
		_cleanup_free_ char *tgz = lx_xasprintf("%s/%s.tar.gz", hosts_dir, node);
		const char *file = access(yaml, F_OK) == 0 ? yaml : access(tgz, F_OK) == 0 ? tgz : NULL;
		out->from_hosts_dir = file != NULL;
		if (file)
			out->source = lx_xstrdup(file);
	}
	/* Not handed over: the model the node published. */
	_cleanup_free_ char *published = lx_cluster_model_path(pve_dir, node);
	if (!out->source && access(published, F_OK) == 0)
		out->source = lx_xstrdup(published);
	if (!out->source)
		return 0;
	if (lx_snapshot_load(out->source, &out->host, err) < 0)
		return -1;
	out->have = true;
	long long boot, when;
	if (lx_cluster_node_boot_time(pve_dir, node, &boot, &when))
		out->node_boot_time = boot;
	const struct lx_publication *p = &out->host.published;
	if (out->from_hosts_dir || !p->present || out->node_boot_time == LX_UNKNOWN)
		out->age = LX_MODEL_UNDATED;
	else if (p->boot_time + LX_BOOT_TIME_SLACK < out->node_boot_time)
		out->age = LX_MODEL_STALE;
	else
		out->age = LX_MODEL_CURRENT;
	return 0;
}

void lx_node_model_free(struct lx_node_model *m)
{
	free(m->node);
	free(m->source);
	if (m->have)
		lx_host_free(&m->host);
	memset(m, 0, sizeof(*m));
}

static void utc(struct lx_buf *b, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char text[64];
	if (gmtime_r(&tt, &tm) && strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &tm))
		lx_buf_puts(b, text);
	else
		lx_buf_printf(b, "@%lld", t);
}

static void span(struct lx_buf *b, long long s)
{
	if (s < 0)
		s = 0;
	if (s < 120)
		lx_buf_printf(b, "%lld s", s);
	else if (s < 7200)
		lx_buf_printf(b, "%lld min", s / 60);
	else if (s < 172800)
		lx_buf_printf(b, "%lld h", s / 3600);
	else
		lx_buf_printf(b, "%lld days", s / 86400);
}

char *lx_node_model_describe(const struct lx_node_model *m, long long now)
{
	struct lx_buf b = {0};
	const struct lx_publication *p = &m->host.published;
	if (!m->have) {
		lx_buf_puts(&b, "no host model");
		return lx_buf_steal(&b);
	}
	if (!p->present) {
		lx_buf_printf(&b, "%s (not stamped by lxgpu publish: its date is unknown)", m->source);
		return lx_buf_steal(&b);
	}
	lx_buf_puts(&b, "published ");
	utc(&b, p->scanned_at);
	lx_buf_puts(&b, " (");
	span(&b, now - p->scanned_at);
	lx_buf_puts(&b, " ago) from the boot of ");
	utc(&b, p->boot_time);
	if (m->node_boot_time != LX_UNKNOWN) {
		lx_buf_puts(&b, "; the cluster reports the node booted ");
		utc(&b, m->node_boot_time);
	}
	return lx_buf_steal(&b);
}
