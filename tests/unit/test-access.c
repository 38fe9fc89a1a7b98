/* Unit tests of the effective-access model: device rules with LXC's (v2) and
 * the kernel's (v1) semantics, and a few whole configs. The expected values
 * are those semantics as LXC's cgroup2_devices.c and the kernel's
 * device_cgroup.c define them, each one also seen with real LXC in
 * tests/integration/lxc-access.sh (the case named in the comment). */
#include "examples.h"
#include "lxgpu/access.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { R = LX_ACC_READ, W = LX_ACC_WRITE, RW = LX_ACC_READ | LX_ACC_WRITE };

static void add(struct lx_dev_cgroup *cg, bool allow, const char *value)
{
	struct lx_dev_rule r;
	if (!ok(lx_dev_rule_parse(value, allow, &r), value))
		return;
	lx_dev_cgroup_add(cg, &r);
}

static void test_parse(void)
{
	struct lx_dev_rule r;
	ok(lx_dev_rule_parse("a", true, &r) && r.all, "'a' is the whole-list rule");
	ok(lx_dev_rule_parse("c 195:* rwm", true, &r) && r.type == 'c' && r.major == 195 &&
		   r.minor == -1 && r.access == (R | W | LX_ACC_MKNOD),
	   "c 195:* rwm");
	ok(lx_dev_rule_parse("b *:* m", true, &r) && r.major == -1 && r.access == LX_ACC_MKNOD,
	   "b *:* m");
	ok(!lx_dev_rule_parse("c 195:0", true, &r), "no access field: refused (case 21, 26)");
	ok(!lx_dev_rule_parse("c  195:0 rw", true, &r), "two blanks: refused (one is stepped over)");
	ok(!lx_dev_rule_parse("x 1:3 rw", true, &r), "unknown type");
	ok(!lx_dev_rule_parse("c 1:3 rx", true, &r), "unknown access letter");
	ok(!lx_dev_rule_parse("c 1-3 rw", true, &r), "no colon");
	ok(lx_dev_rule_parse("c 1:3 rwmx", true, &r) && r.access == (R | W | LX_ACC_MKNOD),
	   "only three access letters are read");
}

static void test_v2(void)
{
	struct lx_dev_cgroup cg;
	lx_dev_cgroup_init(&cg, LX_CGROUP_V2);
	ok(lx_dev_cgroup_allows(&cg, 'c', 1, 3, RW), "no rules: no program, all allowed");
	add(&cg, true, "c 195:* rwm");
	ok(lx_dev_cgroup_allows(&cg, 'c', 195, 0, RW), "the rule's device");
	ok(!lx_dev_cgroup_allows(&cg, 'c', 1, 3, RW),
	   "a rule left alone makes a block-all program: /dev/null denied (case 07)");
	lx_dev_cgroup_free(&cg);

	lx_dev_cgroup_init(&cg, LX_CGROUP_V2);
	add(&cg, false, "a");
	add(&cg, true, "c 195:* rwm");
	add(&cg, false, "c 195:0 rwm");
	ok(lx_dev_cgroup_allows(&cg, 'c', 195, 0, RW),
	   "block-all: a deny that is not the same rule is left out (case 11)");
	add(&cg, true, "c 195:255 rwm");
	add(&cg, false, "c 195:255 rwm");
	ok(lx_dev_cgroup_allows(&cg, 'c', 195, 255, R),
	   "the same rule flipped to deny is left out; c 195:* still covers the node");
	lx_dev_cgroup_free(&cg);

	lx_dev_cgroup_init(&cg, LX_CGROUP_V2);
	add(&cg, false, "a");
	add(&cg, true, "c 195:0 rwm");
	add(&cg, false, "c 195:0 rwm");
	ok(!lx_dev_cgroup_allows(&cg, 'c', 195, 0, R), "allow then deny of the very rule (case 12)");
	lx_dev_cgroup_free(&cg);

	lx_dev_cgroup_init(&cg, LX_CGROUP_V2);
	add(&cg, false, "a");
	add(&cg, true, "c 195:0 r");
	add(&cg, true, "c 195:0 w");
	ok(lx_dev_cgroup_allows(&cg, 'c', 195, 0, R) && lx_dev_cgroup_allows(&cg, 'c', 195, 0, W),
	   "r and w each allowed");
	ok(!lx_dev_cgroup_allows(&cg, 'c', 195, 0, RW),
	   "O_RDWR needs one rule covering both (case 14)");
	ok(!lx_dev_cgroup_allows(&cg, 'b', 195, 0, R), "a char rule does not allow a block device");
	lx_dev_cgroup_free(&cg);

	lx_dev_cgroup_init(&cg, LX_CGROUP_V2);
	add(&cg, true, "a");
	add(&cg, false, "c 505:* rwm");
	ok(!lx_dev_cgroup_allows(&cg, 'c', 505, 0, R) && lx_dev_cgroup_allows(&cg, 'c', 1, 3, RW),
	   "allow-all: the deny rule alone bites (case 28)");
	lx_dev_cgroup_free(&cg);
}

static void test_v1(void)
{
	struct lx_dev_cgroup cg;
	lx_dev_cgroup_init(&cg, LX_CGROUP_V1);
	ok(lx_dev_cgroup_allows(&cg, 'c', 195, 0, RW), "v1: a new cgroup allows all");
	add(&cg, false, "c 505:* rwm");
	ok(!lx_dev_cgroup_allows(&cg, 'c', 505, 0, R) && lx_dev_cgroup_allows(&cg, 'c', 1, 3, RW),
	   "v1 allow-all: a deny is an exception (case 08)");
	add(&cg, false, "a");
	add(&cg, true, "c 195:0 r");
	add(&cg, true, "c 195:0 w");
	ok(lx_dev_cgroup_allows(&cg, 'c', 195, 0, RW), "v1 merges r and w into one exception (case 14)");
	add(&cg, false, "c 195:0 w");
	ok(lx_dev_cgroup_allows(&cg, 'c', 195, 0, R) && !lx_dev_cgroup_allows(&cg, 'c', 195, 0, W),
	   "v1: a deny takes its bits off the same exception");
	add(&cg, true, "c 195:* rwm");
	add(&cg, false, "c 195:1 rwm");
	ok(lx_dev_cgroup_allows(&cg, 'c', 195, 1, RW),
	   "v1: a deny of another (narrower) rule changes nothing (case 11)");
	lx_dev_cgroup_free(&cg);
}

static struct lx_access compute(const struct lx_host *h, const char *text, bool is_pve)
{
	struct lx_conf conf;
	lx_conf_parse("t.conf", text, strlen(text), &conf);
	struct lx_access_options opts;
	lx_access_options_default(&opts);
	opts.lxc_config_dir = "/nonexistent"; /* the built-in device lines of LXC's includes */
	struct lx_access a;
	struct lx_error err = {0};
	if (!ok(lx_access_compute(h, &conf, is_pve, &opts, &a, &err) == 0, "computed"))
		printf("# %s\n", err.message);
	lx_conf_free(&conf);
	return a;
}

static void test_configs(const char *examples)
{
	struct lx_host h;
	load_example(examples, "pve-rtx-4090", &h); /* cgroup v2, uvm 505 */
	struct lx_access a = compute(&h,
				     "unprivileged: 1\n"
				     "dev0: gid=44,/dev/nvidia0\n"
				     "dev1: mode=0666,path=/dev/nvidiactl\n"
				     "lxc.cgroup2.devices.allow: c 509:* rwm\n"
				     "lxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm none bind,optional,create=file\n",
				     true);
	const struct lx_access_node *n = lx_access_find(&a, "/dev/nvidia0");
	ok(n && n->via == LX_VIA_DEVN && n->mode == 0660 && n->gid == 44 && n->uid == 0,
	   "devN: PVE's 0660, the gid given, uid 0 inside");
	n = lx_access_find(&a, "/dev/nvidiactl");
	ok(n && n->mode == 0666, "devN with path= after mode=");
	n = lx_access_find(&a, "/dev/nvidia-uvm");
	ok(n && n->read_write && n->uid == -1,
	   "unprivileged PVE CT: pve-container's deny-list lets the stale rule change nothing; "
	   "the bound node's root:root shows as nobody");
	ok(a.n_failures == 0, "it starts");
	lx_access_free(&a);

	a = compute(&h,
		    "dev0: /dev/nvidia0\n"
		    "dev1: /dev/nvidia-uvm\n"
		    "lxc.mount.entry: /dev/nvidia-caps dev/nvidia-caps none bind,optional,create=dir\n"
		    "lxc.mount.entry: /dev/dri/by-path/pci-0000:01:00.0-card dev/dri/card1 none bind,create=file\n",
		    true);
	ok(a.n_failures == 0, "privileged devN and a by-path bind: it starts");
	n = lx_access_find(&a, "/dev/dri/card1");
	ok(n && strcmp(n->host_path, "/dev/dri/card1") == 0 && !n->read_write,
	   "the by-path link resolved on the host; common.conf's deny-all denies it");
	n = lx_access_find(&a, "/dev/nvidia-uvm");
	ok(n && n->read_write, "devN's own rule allows it");
	lx_access_free(&a);

	a = compute(&h, "lxc.cgroup.devices.allow = c 195:* rwm\n"
			"lxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,create=file\n"
			"lxc.mount.entry = /dev/nvidia9 dev/nvidia9 none bind,create=file\n",
		    false);
	ok(a.n_failures == 1 && a.failures[0].line == 3, "plain LXC: a non-optional bind of a missing node fails the start (case 18)");
	ok(a.n_rules == 1 && a.rules[0].fate == LX_RULE_WRONG_VERSION, "a v1 key on a v2 host is ignored");
	lx_access_free(&a);

	/* LXC 7.0.0 (Debian sid, tests/integration/lxc-access.sh in its root):
	 * "Unsupported config key", "Failed to parse config file", no start. */
	h.lxc_version = strdup("7.0.0");
	const char *v1 = "lxc.cgroup2.devices.allow = c 195:* rwm\n"
			 "lxc.cgroup.dir.container = lxc/100\n"
			 "lxc.cgroup.relative = 0\n"
			 "lxc.cgroup.devices.allow = c 195:* rwm\n";
	a = compute(&h, v1, false);
	ok(a.n_failures == 1 && a.failures[0].line == 4 &&
		   strstr(a.failures[0].message, "Unsupported config key \"lxc.cgroup.devices.allow\"") &&
		   strstr(a.failures[0].message, "lxc.cgroup2.devices.allow"),
	   "LXC 7: a v1 device key fails the start, that line named; lxc.cgroup.dir and "
	   ".relative still load (built-in common.conf: no v1 line counted)");
	lx_access_free(&a);
	a = compute(&h, "lxc.cgroup = \nlxc.cgroup.memory.limit_in_bytes = 1G\n", false);
	ok(a.n_failures == 2 && a.failures[0].line == 1 && a.failures[1].line == 2,
	   "LXC 7: the bare lxc.cgroup and any other v1 controller key as well");
	lx_access_free(&a);
	free(h.lxc_version);
	h.lxc_version = strdup("6.0.4");
	a = compute(&h, v1, false);
	ok(a.n_failures == 0, "LXC 6.0.4 (Debian 13): the same config starts, the v1 key ignored");
	lx_access_free(&a);
	lx_host_free(&h);
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char *path = lx_path_join(dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		printf("Bail out! cannot write %s\n", path);
	free(path);
}

/* What a node gives in one container of a run: "rw", "r-", "--" (reached,
 * not opened), "none" (not reached), or the error. */
static const char *node_in(const struct lx_host *h, const char *text,
			   struct lx_access_options *opts, const char *path, char *out, size_t len)
{
	struct lx_conf conf;
	lx_conf_parse("t.conf", text, strlen(text), &conf);
	struct lx_access a;
	struct lx_error err = {0};
	if (lx_access_compute(h, &conf, true, opts, &a, &err) == 0) {
		const struct lx_access_node *n = lx_access_find(&a, path);
		snprintf(out, len, "%s", !n ? "none" : n->read_write ? "rw" : n->read ? "r-" : "--");
		lx_access_free(&a);
	} else {
		snprintf(out, len, "%s", err.message);
		lx_error_clear(&err);
	}
	lx_conf_free(&conf);
	return out;
}

static bool rw_of(const struct lx_host *h, const char *text, struct lx_access_options *opts,
		  const char *path)
{
	char got[256];
	if (strcmp(node_in(h, text, opts, path, got, sizeof(got)), "rw") == 0)
		return true;
	printf("# %s: %s\n", path, got);
	return false;
}

/* LXC's shared files kept for a run over many containers (audit): the same
 * answers as reading them each time, each file read once (a change after
 * the first read is not seen: the run's own view), every include level
 * (debian.common.conf including common.conf, its .d directory) kept. */
static void test_shared_files(const char *examples)
{
	struct lx_host h;
	load_example(examples, "pve-8x-rtx-pro-6000", &h); /* cgroup v2, 8 GPUs */
	char tmpl[] = "/tmp/lxgpu-test-access-XXXXXX";
	char *dir = mkdtemp(tmpl);
	if (!ok(dir != NULL, "scratch LXC config dir"))
		return;
	_cleanup_free_ char *common = lx_path_join(dir, "common.conf");
	_cleanup_free_ char *d = lx_path_join(dir, "common.conf.d");
	_cleanup_free_ char *debian = lx_xasprintf("lxc.include = %s\n", common);
	write_text(dir, "debian.common.conf", debian);
	_cleanup_free_ char *common_text =
		lx_xasprintf("lxc.cgroup2.devices.deny = a\nlxc.cgroup2.devices.allow = c 195:0 rw\n"
			     "lxc.include = %s/\n",
			     d);
	write_text(dir, "common.conf", common_text);
	mkdir(d, 0755);
	write_text(d, "10-gpu1.conf", "lxc.cgroup2.devices.allow = c 195:1 rw\n");
	const char *conf = "arch: amd64\nostype: debian\n"
			   "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n"
			   "lxc.mount.entry: /dev/nvidia1 dev/nvidia1 none bind,optional,create=file\n";
	struct lx_access_options each, shared;
	lx_access_options_default(&each);
	each.lxc_config_dir = dir;
	struct lx_lxc_files files = {0};
	shared = each;
	shared.shared = &files;
	ok(rw_of(&h, conf, &each, "/dev/nvidia0") && rw_of(&h, conf, &each, "/dev/nvidia1"),
	   "read each time: common.conf's and its .d directory's rules");
	ok(rw_of(&h, conf, &shared, "/dev/nvidia0") && rw_of(&h, conf, &shared, "/dev/nvidia1"),
	   "kept for the run: the same answers");
	if (!ok(files.n == 4, "four paths kept: debian.common.conf, common.conf, its .d, the file in it"))
		printf("# %zu kept\n", files.n);
	write_text(d, "10-gpu1.conf", "lxc.cgroup2.devices.deny = c 195:1 rw\n");
	ok(!rw_of(&h, conf, &each, "/dev/nvidia1"), "read each time: the change is seen");
	ok(rw_of(&h, conf, &shared, "/dev/nvidia1"), "kept for the run: read once, not again");
	lx_lxc_files_free(&files);
	ok(!rw_of(&h, conf, &shared, "/dev/nvidia1"), "a new run reads them again");
	lx_lxc_files_free(&files);
	_cleanup_free_ char *f1 = lx_path_join(d, "10-gpu1.conf");
	_cleanup_free_ char *f2 = lx_path_join(dir, "debian.common.conf");
	unlink(f1);
	rmdir(d);
	unlink(common);
	unlink(f2);
	rmdir(dir);
	lx_host_free(&h);
}

/* LXC's shared files simulated once per ostype and privilege for a run:
 * each container of the run gets what its own pair gives, in whatever
 * order they come, its own lines after them, and the names of the files
 * the rules came from as its own. Expected by LXC's reading: <ostype>.
 * common.conf when it exists, else common.conf; an unprivileged container
 * also userns.conf and then PVE's userns part (not in this directory:
 * pve-container's own, which allows every device on cgroup v2). */
static void test_shared_prefix(const char *examples)
{
	struct lx_host h;
	load_example(examples, "pve-8x-rtx-pro-6000", &h); /* cgroup v2, 8 GPUs */
	char tmpl[] = "/tmp/lxgpu-test-access-XXXXXX";
	char *dir = mkdtemp(tmpl);
	if (!ok(dir != NULL, "scratch LXC config dir"))
		return;
	write_text(dir, "common.conf",
		   "lxc.cgroup2.devices.deny = a\nlxc.cgroup2.devices.allow = c 195:0 rw\n"
		   "lxc.mount.entry = /dev/nvidia2 dev/nvidia2 none bind,optional,create=file\n");
	write_text(dir, "alpine.common.conf",
		   "lxc.cgroup2.devices.deny = a\nlxc.cgroup2.devices.allow = c 195:1 rw\n");
	write_text(dir, "userns.conf", "lxc.cgroup2.devices.deny =\n");
	_cleanup_free_ char *deep_path = lx_path_join(dir, "deep.common.conf");
	_cleanup_free_ char *deep = lx_xasprintf("lxc.include = %s\n", deep_path);
	write_text(dir, "deep.common.conf", deep);
	const char *gpus = "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n"
			   "lxc.mount.entry: /dev/nvidia1 dev/nvidia1 none bind,optional,create=file\n";
	_cleanup_free_ char *debian = lx_xasprintf("ostype: debian\n%s", gpus);
	_cleanup_free_ char *alpine = lx_xasprintf("ostype: alpine\n%s", gpus);
	_cleanup_free_ char *unpriv = lx_xasprintf("ostype: debian\nunprivileged: 1\n%s", gpus);
	_cleanup_free_ char *own = lx_xasprintf("ostype: debian\n%slxc.cgroup2.devices.allow: c 195:2 rw\n",
						gpus);
	_cleanup_free_ char *nested = lx_xasprintf("ostype: deep\n%s", gpus);
	struct lx_access_options opts;
	lx_access_options_default(&opts);
	opts.lxc_config_dir = dir;
	struct lx_lxc_files files = {0};
	opts.shared = &files;
	char b[4][256];
	for (int round = 0; round < 2; round++) {
		/* (the second round: from the run's copies) */
		bool good = !strcmp(node_in(&h, debian, &opts, "/dev/nvidia0", b[0], 256), "rw") &&
			    !strcmp(node_in(&h, debian, &opts, "/dev/nvidia1", b[1], 256), "--") &&
			    !strcmp(node_in(&h, debian, &opts, "/dev/nvidia2", b[2], 256), "--");
		if (!ok(good, "debian (common.conf): 195:0 only, common.conf's mount of nvidia2"))
			printf("# round %d: %s %s %s\n", round, b[0], b[1], b[2]);
		good = !strcmp(node_in(&h, alpine, &opts, "/dev/nvidia0", b[0], 256), "--") &&
		       !strcmp(node_in(&h, alpine, &opts, "/dev/nvidia1", b[1], 256), "rw") &&
		       !strcmp(node_in(&h, alpine, &opts, "/dev/nvidia2", b[2], 256), "none");
		if (!ok(good, "alpine (alpine.common.conf): 195:1 only, no mount"))
			printf("# round %d: %s %s %s\n", round, b[0], b[1], b[2]);
		good = !strcmp(node_in(&h, unpriv, &opts, "/dev/nvidia0", b[0], 256), "rw") &&
		       !strcmp(node_in(&h, unpriv, &opts, "/dev/nvidia1", b[1], 256), "rw");
		if (!ok(good, "unprivileged debian: PVE's userns part allows both"))
			printf("# round %d: %s %s\n", round, b[0], b[1]);
		good = !strcmp(node_in(&h, own, &opts, "/dev/nvidia2", b[0], 256), "rw") &&
		       !strcmp(node_in(&h, own, &opts, "/dev/nvidia0", b[1], 256), "rw");
		if (!ok(good, "the config's own rule after the shared ones"))
			printf("# round %d: %s %s\n", round, b[0], b[1]);
		node_in(&h, nested, &opts, "/dev/nvidia0", b[3], 256);
		if (!ok(strstr(b[3], "nests deeper") != NULL, "an include loop fails the container"))
			printf("# round %d: %s\n", round, b[3]);
	}
	if (!ok(files.n_prefixes == 4, "four kept: debian and alpine privileged, debian unprivileged, "
				       "the loop"))
		printf("# %zu kept\n", files.n_prefixes);
	/* The rules name the file they came from, as the container's own copy. */
	struct lx_conf conf;
	lx_conf_parse("t.conf", debian, strlen(debian), &conf);
	struct lx_access a;
	struct lx_error err = {0};
	_cleanup_free_ char *common = lx_path_join(dir, "common.conf");
	bool named = false;
	if (lx_access_compute(&h, &conf, true, &opts, &a, &err) == 0) {
		for (size_t i = 0; i < a.n_rules; i++)
			if (!strcmp(a.rules[i].value, "c 195:0 rw"))
				for (size_t k = 0; k < a.include_files.n; k++)
					named |= a.rules[i].file == a.include_files.items[k] &&
						 !strcmp(a.rules[i].file, common);
		lx_access_free(&a);
	}
	lx_error_clear(&err);
	lx_conf_free(&conf);
	ok(named, "a shared rule's file: common.conf, the container's own name of it");
	lx_lxc_files_free(&files);
	const char *names[] = {"common.conf", "alpine.common.conf", "userns.conf", "deep.common.conf"};
	for (size_t i = 0; i < 4; i++) {
		_cleanup_free_ char *p = lx_path_join(dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
	lx_host_free(&h);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		printf("Bail out! usage: test-access EXAMPLES_DIR\n");
		return 1;
	}
	test_parse();
	test_v2();
	test_v1();
	test_configs(argv[1]);
	test_shared_files(argv[1]);
	test_shared_prefix(argv[1]);
	return tap_done();
}
