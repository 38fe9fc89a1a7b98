/* Unit tests of src/fleet/audit.c: the walk over a made-up pmxcfs tree.
 * Expected values come from Proxmox's layout and the documented status
 * rules (docs/schema.md): /etc/pve/lxc links to nodes/<this node>/lxc;
 * pve-container generates /var/lib/lxc/<vmid>/config from <vmid>.conf (one
 * container, not two); qemu-server's hostpciN hands the PCI function to a
 * VM; each container is counted once, under exactly one status, and one on
 * a node lxgpu has no host model of is "unknown" (its GPUs unknown), or
 * "no_gpus" without GPU lines. */
#include "lxgpu/audit.h"
#include "examples.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SEEN 16

struct seen {
	size_t n;
	char *id[MAX_SEEN];
	char *node[MAX_SEEN];
	enum lx_audit_status status[MAX_SEEN];
	bool gpus_known[MAX_SEEN];
	struct lx_strv codes[MAX_SEEN];
	size_t by_status[LX_AUDIT_N_STATUS];
};

static void record(void *ctx, const struct lx_audit_container *c)
{
	struct seen *s = ctx;
	s->by_status[c->status]++;
	if (s->n == MAX_SEEN)
		return;
	s->id[s->n] = lx_xstrdup(c->id);
	s->node[s->n] = lx_xstrdup(c->node);
	s->status[s->n] = c->status;
	s->gpus_known[s->n] = c->gpus_known;
	for (size_t i = 0; i < c->findings->n; i++)
		lx_strv_push(&s->codes[s->n], lx_finding_info(c->findings->items[i].code)->code);
	s->n++;
}

/* The entry of container id on node, or -1; fails unless there is one. */
static int entry(const struct seen *s, const char *node, const char *id)
{
	int found = -1, count = 0;
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->id[i], id) == 0 && strcmp(s->node[i], node) == 0) {
			found = (int)i;
			count++;
		}
	_cleanup_free_ char *what = lx_xasprintf("%s/%s is handed over once", node, id);
	int_eq(count, 1, what);
	return found;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

static void make_dir(const char *path)
{
	_cleanup_free_ char *cmd = lx_xasprintf("mkdir -p '%s'", path);
	if (system(cmd) != 0) {
		printf("Bail out! cannot make %s\n", path);
		exit(1);
	}
}

/* A PVE container with the GPU lines of /dev/nvidia0. */
static const char gpu_ct[] = "arch: amd64\nhostname: ct\nostype: debian\nunprivileged: 1\n"
			     "dev0: /dev/nvidia0,mode=0666\ndev1: /dev/nvidiactl,mode=0666\n"
			     "dev2: /dev/nvidia-uvm,mode=0666\ndev3: /dev/nvidia-uvm-tools,mode=0666\n";
static const char plain_ct[] = "arch: amd64\nhostname: ct\nostype: debian\nunprivileged: 1\n";

static void test_walk(const char *examples)
{
	char dir[] = "/tmp/lxgpu-test-audit-XXXXXX";
	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp");
		return;
	}
	_cleanup_free_ char *pve = lx_path_join(dir, "pve");
	_cleanup_free_ char *lxc = lx_path_join(dir, "lxc");
	_cleanup_free_ char *cgroup = lx_path_join(dir, "cgroup");
	_cleanup_free_ char *state = lx_path_join(dir, "state");
	const char *dirs[] = {"pve/nodes/pve1/lxc", "pve/nodes/pve1/qemu-server", "pve/nodes/pve2/lxc",
			      "pve/nodes/pve2/qemu-server", "lxc/100", "lxc/web", "cgroup", "state"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		_cleanup_free_ char *p = lx_path_join(dir, dirs[i]);
		make_dir(p);
	}
	_cleanup_free_ char *link_lxc = lx_path_join(pve, "lxc");
	_cleanup_free_ char *link_qemu = lx_path_join(pve, "qemu-server");
	if (symlink("nodes/pve1/lxc", link_lxc) < 0 || symlink("nodes/pve1/qemu-server", link_qemu) < 0) {
		ok(false, "symlink");
		return;
	}
	struct {
		const char *path, *text;
	} files[] = {
		/* this node: 100 shares its GPU with VM 200; 101 has none; 102
		 * has 100's GPU too; a file PVE would not take for a container */
		{"pve/nodes/pve1/lxc/100.conf", gpu_ct},
		{"pve/nodes/pve1/lxc/101.conf", plain_ct},
		{"pve/nodes/pve1/lxc/102.conf", gpu_ct},
		{"pve/nodes/pve1/lxc/notes.conf", gpu_ct},
		{"pve/nodes/pve1/qemu-server/200.conf", "memory: 4096\nhostpci0: 0000:01:00.0,pcie=1\n"},
		/* pve-container's generated config of 100, and a plain LXC container */
		{"lxc/100/config", "lxc.uts.name = ct\n"},
		{"lxc/web/config", "lxc.uts.name = web\n"},
		/* another node, which published no model */
		{"pve/nodes/pve2/lxc/300.conf", gpu_ct},
		{"pve/nodes/pve2/lxc/301.conf", plain_ct},
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		_cleanup_free_ char *p = lx_path_join(dir, files[i].path);
		write_text(p, files[i].text);
	}

	struct lx_host host;
	load_example(examples, "pve-rtx-4090", &host); /* /dev/nvidia0 is 0000:01:00.0 */
	_cleanup_free_ char *node = lx_audit_local_node(pve, &host);
	str_eq(node, "pve1", "this node is the one <pve-dir>/lxc links to");

	struct lx_runtime_paths rt = {cgroup, "/proc", lxc, NULL, pve, NULL, NULL, NULL, NULL};
	struct seen s = {0};
	struct lx_audit_options o = {.pve_dir = pve, .lxc_path = lxc, .runtime = &rt,
				     .state_dir = state, .exclusive = true, .cluster = true,
				     .now = 1764590000, .container = record, .ctx = &s};
	struct lx_audit_totals t;
	lx_audit_run(&host, node, &o, &t);

	int_eq(t.containers, 6, "100, 101, 102, web here; 300, 301 on pve2 (not notes, not lxc/100)");
	int_eq(s.n, t.containers, "every container counted is handed over");
	size_t sum = 0;
	for (int i = 0; i < LX_AUDIT_N_STATUS; i++) {
		sum += t.by_status[i];
		_cleanup_free_ char *what = lx_xasprintf("the %s count is the containers handed over so",
							 lx_audit_status_name(i));
		int_eq(t.by_status[i], s.by_status[i], what);
	}
	int_eq(sum, t.containers, "the counts by status add up to the containers");

	int e100 = entry(&s, "pve1", "100"), e101 = entry(&s, "pve1", "101");
	int e102 = entry(&s, "pve1", "102"), eweb = entry(&s, "pve1", "web");
	int e300 = entry(&s, "pve2", "300"), e301 = entry(&s, "pve2", "301");
	if (e100 < 0 || e101 < 0 || e102 < 0 || eweb < 0 || e300 < 0 || e301 < 0)
		return;
	ok(lx_strv_contains(&s.codes[e100], "LXG013"), "100's GPU is also VM 200's: LXG013");
	int_eq(s.status[e100], LX_AUDIT_ERROR, "so 100 is an error");
	ok(!lx_strv_contains(&s.codes[e100], "LXG012"), "100 had its GPU first: no LXG012");
	ok(lx_strv_contains(&s.codes[e102], "LXG012"), "102 has 100's GPU too (exclusive): LXG012");
	int_eq(s.status[e101], LX_AUDIT_NO_GPUS, "101 has no GPU lines: no_gpus");
	int_eq(s.status[e300], LX_AUDIT_UNKNOWN, "a GPU container on a node without a model: unknown");
	ok(!s.gpus_known[e300], "its GPUs are unknown");
	int_eq(s.status[e301], LX_AUDIT_NO_GPUS, "one without GPU lines there: no_gpus");
	ok(s.gpus_known[e100], "this node's containers' GPUs are known");

	for (size_t i = 0; i < s.n; i++) {
		free(s.id[i]);
		free(s.node[i]);
		lx_strv_free(&s.codes[i]);
	}
	lx_host_free(&host);
	_cleanup_free_ char *rm = lx_xasprintf("rm -rf '%s'", dir);
	if (system(rm) != 0)
		printf("# could not remove %s\n", dir);
}

/* The one listing of containers (audit's and preflight's). Which files of
 * <pve-dir>/lxc are containers, and their order, are Proxmox's:
 * pve-container parses only "<vmid>.conf" (src/PVE/LXC/Config.pm:1147,
 * m|/lxc/(\d+).conf$|), pmxcfs lists a guest only for digits not starting
 * with 0 then ".conf" (pve-cluster src/pmxcfs/memdb.c:188,
 * name_is_vm_config), and pct list sorts by vmid as numbers
 * (src/PVE/CLI/pct.pm:1067). A plain LXC container is a directory with a
 * config file (lxc's list_defined_containers). */
static void test_container_ids(void)
{
	char dir[] = "/tmp/lxgpu-test-ids-XXXXXX";
	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp");
		return;
	}
	const char *files[] = {"pve/100.conf", "pve/99.conf",      "pve/notes.conf",
			       "pve/0100.conf", "pve/101.conf.tmp", "pve/1000.conf",
			       "lxc/web/config"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		_cleanup_free_ char *p = lx_path_join(dir, files[i]);
		_cleanup_free_ char *parent = lx_xstrndup(p, (size_t)(strrchr(p, '/') - p));
		make_dir(parent);
		write_text(p, plain_ct);
	}
	_cleanup_free_ char *empty = lx_path_join(dir, "lxc/no-config");
	make_dir(empty);

	_cleanup_free_ char *pve = lx_path_join(dir, "pve");
	struct lx_strv ids = {0};
	lx_container_ids(pve, true, &ids);
	_cleanup_free_ char *got = lx_strv_join(&ids, " ");
	str_eq(got, "99 100 1000", "PVE: <vmid>.conf files by vmid; not notes, 0100, 101.conf.tmp");
	lx_strv_free(&ids);

	_cleanup_free_ char *lxc = lx_path_join(dir, "lxc");
	lx_container_ids(lxc, false, &ids);
	_cleanup_free_ char *names = lx_strv_join(&ids, " ");
	str_eq(names, "web", "LXC: a directory with a config file");
	lx_strv_free(&ids);

	_cleanup_free_ char *rm = lx_xasprintf("rm -rf '%s'", dir);
	if (system(rm) != 0)
		printf("# could not remove %s\n", dir);
}

static void test_status_names(void)
{
	/* docs/schema/audit.json's enum, in the summary's order */
	const char *want[] = {"error", "warning", "unknown", "ok", "no_gpus"};
	for (int i = 0; i < LX_AUDIT_N_STATUS; i++)
		str_eq(lx_audit_status_name(i), want[i], "status name");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		printf("Bail out! usage: test-audit EXAMPLES_DIR\n");
		return 1;
	}
	test_status_names();
	test_container_ids();
	test_walk(argv[1]);
	return tap_done();
}
