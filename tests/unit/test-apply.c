/* Unit tests of apply's privilege and style decisions (src/access/apply.c).
 *
 * The expected values are Proxmox's and LXC's rules, not lxgpu's:
 * - pve-container keeps 'unprivileged' read-only (PVE::LXC::Config's
 *   update_pct_config dies "unable to modify read-only option" for a set
 *   and for a delete): the rootfs ownership goes with it, and only a
 *   restore with the other mode (pct restore --unprivileged 0|1) shifts it.
 *   Its schema default is 0; a value is read as parse_pct_config reads it
 *   and tested for Perl truth. Each corpus file's value below is what
 *   Proxmox's parser made of it, recorded in tests/pve/oracle/NAME.json.
 * - pve-guest-common's PVE::AbstractConfig::check_lock refuses a change
 *   while the config has 'lock:' (a backup, migration or snapshot runs);
 *   Proxmox's parser cannot parse the line "tags:" (its warning "unable to
 *   parse config: tags:" in tests/pve/oracle/45-tags-empty.json).
 * - Plain LXC has no 'unprivileged' key: a container runs in a user
 *   namespace when its config maps ids (lxc.idmap), and its config takes
 *   "key = value" lines only (lxc.container.conf(5)); devN entries and the
 *   "key: value" form are pve-container's.
 * - qemu-server gives a VM the PCI device its hostpciN names; a container
 *   given the same GPU competes with it (FACTS section 5, item 11).
 * Usage: test-apply PVE_CONFIGS_DIR LXC_CONFIGS_DIR EXAMPLES_DIR */
#include "examples.h"
#include "lxgpu/reconcile.h"
#include "tap.h"

#include <string.h>

static const char *pve_dir, *lxc_dir;

static void load(const char *dir, const char *name, struct lx_conf *conf)
{
	_cleanup_free_ char *path = lx_path_join(dir, name);
	struct lx_error err = {0};
	if (lx_conf_load(path, conf, &err) < 0) {
		printf("Bail out! %s\n", err.message);
		exit(1);
	}
}

/* The decision for one request: its kind, and *set as lx_apply_privilege leaves it. */
static enum lx_refusal_kind privilege(const struct lx_conf *conf, bool is_pve, bool given,
				      bool allow, bool unprivileged, int *set, char **fix)
{
	struct lx_apply_given g = {.privilege = given, .allow_privilege_change = allow};
	struct lx_refusal why = {0};
	bool go_on = lx_apply_privilege(conf, is_pve, &g, unprivileged, set, &why);
	enum lx_refusal_kind kind = why.kind;
	ok(go_on == (kind == LX_REFUSAL_NONE), "go on exactly when there is no refusal");
	if (fix)
		*fix = why.fix ? lx_xstrdup(why.fix) : NULL;
	lx_refusal_free(&why);
	return kind;
}

/* A Proxmox config whose parsed 'unprivileged' is now (oracle). */
static void test_pve(const char *name, bool now)
{
	struct lx_conf conf;
	load(pve_dir, name, &conf);
	int set = 99;
	char what[160];
	_cleanup_free_ char *fix = NULL;

	snprintf(what, sizeof(what), "%s: asked as it is (%d): nothing to write", name, now);
	ok(privilege(&conf, true, true, false, now, &set, NULL) == LX_REFUSAL_NONE && set == -1, what);
	snprintf(what, sizeof(what), "%s: nothing asked: the key stays as it is", name);
	ok(privilege(&conf, true, false, false, !now, &set, NULL) == LX_REFUSAL_NONE && set == -1,
	   what);
	snprintf(what, sizeof(what), "%s: a flip to %d without --allow-privilege-change: refused",
		 name, !now);
	ok(privilege(&conf, true, true, false, !now, &set, &fix) == LX_REFUSAL_PRIVILEGE_FLIP &&
		   set == -1,
	   what);
	/* The fix is Proxmox's way: a restore with the other mode. */
	char restore[64];
	snprintf(restore, sizeof(restore), "pct restore --unprivileged %d", !now);
	snprintf(what, sizeof(what), "%s: the fix names '%s'", name, restore);
	ok(fix && strstr(fix, restore), what);
	snprintf(what, sizeof(what), "%s: a flip with --allow-privilege-change writes %d", name, !now);
	ok(privilege(&conf, true, true, true, !now, &set, NULL) == LX_REFUSAL_NONE && set == !now,
	   what);
	lx_conf_free(&conf);
}

/* A plain LXC config: privileged unless it maps ids; never flipped. */
static void test_lxc(const char *name, bool idmap)
{
	struct lx_conf conf;
	load(lxc_dir, name, &conf);
	int set = 99;
	char what[160];
	snprintf(what, sizeof(what), "%s: asked as it is (%s): nothing to write", name,
		 idmap ? "unprivileged" : "privileged");
	ok(privilege(&conf, false, true, false, idmap, &set, NULL) == LX_REFUSAL_NONE && set == -1,
	   what);
	snprintf(what, sizeof(what), "%s: the other mode is refused, even with "
		 "--allow-privilege-change (its id mapping is not a key)", name);
	ok(privilege(&conf, false, true, true, !idmap, &set, NULL) == LX_REFUSAL_LXC_IDMAP &&
		   set == -1,
	   what);
	lx_conf_free(&conf);
}

static void test_inline_pve(void)
{
	/* No 'unprivileged' key: the schema's default, 0. */
	const char *text = "arch: amd64\nhostname: plain\nostype: debian\n";
	struct lx_conf conf;
	lx_conf_parse("/etc/pve/lxc/100.conf", text, strlen(text), &conf);
	int set = 99;
	ok(privilege(&conf, true, true, false, false, &set, NULL) == LX_REFUSAL_NONE && set == -1,
	   "no 'unprivileged' key is privileged (default 0): --privileged changes nothing");
	ok(privilege(&conf, true, true, false, true, &set, NULL) == LX_REFUSAL_PRIVILEGE_FLIP,
	   "no 'unprivileged' key: --unprivileged is a flip");
	lx_conf_free(&conf);
	/* A snapshot's value is not the container's (parse_pct_config: per section). */
	text = "arch: amd64\nunprivileged: 1\n\n[before]\nunprivileged: 0\n";
	lx_conf_parse("/etc/pve/lxc/101.conf", text, strlen(text), &conf);
	ok(privilege(&conf, true, true, false, true, &set, NULL) == LX_REFUSAL_NONE && set == -1,
	   "a snapshot's 'unprivileged: 0' does not count");
	lx_conf_free(&conf);
}

static void test_may_change(void)
{
	struct lx_conf_txn txn = {.id = "100", .path = "/etc/pve/lxc/100.conf", .is_pve = true};
	const char *text = "arch: amd64\nhostname: busy\nlock: backup\n";
	struct lx_conf conf;
	lx_conf_parse(txn.path, text, strlen(text), &conf);
	struct lx_refusal why = {0};
	const char *lock = NULL;
	ok(!lx_apply_may_change(&txn, &conf, false, &lock, &why) && why.kind == LX_REFUSAL_LOCKED,
	   "'lock: backup': a change is refused");
	lx_refusal_free(&why);
	ok(lx_apply_may_change(&txn, &conf, true, &lock, &why) && lock && strcmp(lock, "backup") == 0,
	   "'lock: backup': a dry run reads it, and says the lock");
	lx_conf_free(&conf);
	load(pve_dir, "45-tags-empty.conf", &conf);
	for (int read_only = 0; read_only < 2; read_only++) {
		bool go_on = lx_apply_may_change(&txn, &conf, read_only, &lock, &why);
		ok(!go_on && why.kind == LX_REFUSAL_INVALID_LINE && strstr(why.message, ":11: ") &&
			   !lock,
		   read_only ? "a line Proxmox cannot parse ('tags:', line 11): a dry run too is refused"
			     : "a line Proxmox cannot parse ('tags:', line 11): refused, named");
		lx_refusal_free(&why);
	}
	lx_conf_free(&conf);
}

/* apply --live's split, by pve-container's rule (proxmox/pve-container
 * 94f5585, PVE::LXC::Config::vmconfig_hotplug_pending): a pending devN is
 * hotplugged only while the live config has no such key; `pct set` puts
 * every value in [pve:pending] first, so an index already pending there
 * would be replaced, not added. Nothing but devN is hotplugged. */
static void test_live_split(void)
{
	const char *now = "arch: amd64\ndev0: /dev/nvidia0\ndev1: /dev/nvidiactl\n"
			  "lxc.cgroup2.devices.allow: c 195:* rwm\nunprivileged: 1\n\n"
			  "[pve:pending]\ndev3: /dev/ttyUSB0\n\n[snap]\ndev4: /dev/nvidia4\n";
	const char *next = "arch: amd64\ndev0: /dev/nvidia0,mode=0666\ndev2: /dev/nvidia-uvm\n"
			   "dev3: /dev/nvidia-uvm-tools\ndev4: /dev/nvidia-modeset\n"
			   "lxc.mount.entry: /dev/nvidia-caps dev/nvidia-caps none bind,optional,create=dir\n"
			   "unprivileged: 1\n\n"
			   "[pve:pending]\ndev3: /dev/ttyUSB0\n\n[snap]\ndev4: /dev/nvidia4\n";
	struct lx_conf conf;
	lx_conf_parse("/etc/pve/lxc/100.conf", now, strlen(now), &conf);
	struct lx_live_split split;
	lx_live_split(&conf, next, strlen(next), &split);
	_cleanup_free_ char *keys = lx_strv_join(&split.keys, " ");
	_cleanup_free_ char *values = lx_strv_join(&split.values, " ");
	_cleanup_free_ char *restart = lx_strv_join(&split.restart, "; ");
	/* dev4 is only a snapshot's: free in the live config and in pending */
	str_eq(keys, "dev2 dev4", "new devN keys free in the config and in [pve:pending] go live");
	str_eq(values, "/dev/nvidia-uvm /dev/nvidia-modeset", "each with its value as written");
	str_eq(restart,
	       "dev0 changed; dev3 added (its index has a pending change); dev1 removed; "
	       "lxc.mount.entry: /dev/nvidia-caps dev/nvidia-caps none bind,optional,create=dir "
	       "added; lxc.cgroup2.devices.allow: c 195:* rwm removed",
	       "a changed, a pending-index and a removed devN and raw lines wait for a restart");
	const char *rest = "arch: amd64\ndev0: /dev/nvidia0,mode=0666\ndev3: /dev/nvidia-uvm-tools\n"
			   "lxc.mount.entry: /dev/nvidia-caps dev/nvidia-caps none bind,optional,create=dir\n"
			   "unprivileged: 1\n\n"
			   "[pve:pending]\ndev3: /dev/ttyUSB0\n\n[snap]\ndev4: /dev/nvidia4\n";
	str_eq(split.text, rest, "apply writes the rest: the new config without the live entries");
	/* PVE's write_config writes the keys sorted (perl sort): dev2 after
	 * dev1, dev4 after it (no key sorts after dev4 but unprivileged) */
	const char *after_pct = "arch: amd64\ndev0: /dev/nvidia0\ndev1: /dev/nvidiactl\n"
				"dev2: /dev/nvidia-uvm\ndev4: /dev/nvidia-modeset\n"
				"lxc.cgroup2.devices.allow: c 195:* rwm\nunprivileged: 1\n\n"
				"[pve:pending]\ndev3: /dev/ttyUSB0\n\n[snap]\ndev4: /dev/nvidia4\n";
	str_eq(split.after_pct, after_pct,
	       "the config once pct added them: each new key where PVE's sorted keys put it");
	lx_live_split_free(&split);
	lx_conf_free(&conf);
}

static void test_plain_lxc_style(const struct lx_host *host)
{
	struct lx_conf conf;
	load(lxc_dir, "03-unprivileged-idmap.config", &conf);
	struct lx_plan_options opts;
	struct lx_refusal why = {0};
	struct lx_apply_given given = {0};
	lx_plan_options_default(&opts);
	opts.unprivileged = false;
	ok(lx_plan_options_for_container(host, &conf, false, &given, &opts, &why) &&
		   opts.style == LX_STYLE_LXC && opts.unprivileged,
	   "plain LXC, no --style: 'key = value' lines; lxc.idmap makes it unprivileged");
	for (int i = 0; i < 2; i++) {
		enum lx_style pve_only = i == 0 ? LX_STYLE_DEVN : LX_STYLE_RAW;
		lx_plan_options_default(&opts);
		opts.style = pve_only;
		given.style = true;
		bool go_on = lx_plan_options_for_container(host, &conf, false, &given, &opts, &why);
		char what[96];
		snprintf(what, sizeof(what), "plain LXC, --style %s: refused (pve-container's lines)",
			 lx_style_name(pve_only));
		ok(!go_on && why.kind == LX_REFUSAL_PVE_STYLE, what);
		lx_refusal_free(&why);
	}
	lx_conf_free(&conf);
}

/* A GPU a VM passes through (qemu-server's hostpci0 naming its PCI
 * address; the 8-GPU example host's GPU 7 is 0000:ec:00.0): apply's
 * decision refuses it with audit's finding (LXG013) unless forced. */
static enum lx_refusal_kind apply_gpus(const struct lx_host *host, const char *gpus, bool force,
				       bool *changes, char **message)
{
	static const char text[] = "arch: amd64\nhostname: vmgpu\nostype: debian\n";
	struct lx_conf_txn txn = {.id = (char *)"103", .path = (char *)"/x/lxc/103.conf",
				  .is_pve = true, .lock_fd = -1, .text = (char *)text,
				  .len = strlen(text)};
	struct lx_conf conf;
	lx_conf_parse(txn.path, text, txn.len, &conf);
	struct lx_plan_options opts;
	lx_plan_options_default(&opts);
	opts.gpus = gpus;
	struct lx_render_options ropts = {.version = "test"};
	struct lx_vm_device dev = {.pci = (char *)"0000:ec:00.0", .vmid = (char *)"200",
				   .file = (char *)"/x/qemu-server/200.conf", .line = 2,
				   .key = (char *)"hostpci0"};
	struct lx_vm_devices vms = {.items = &dev, .n = 1};
	struct lx_apply_input in = {.host = host, .txn = &txn, .conf = &conf,
				    .state_dir = "/nonexistent", .plan_opts = &opts,
				    .render_opts = &ropts, .given = {.gpus = true, .force = force},
				    .vms = &vms};
	struct lx_apply_result out;
	struct lx_refusal why;
	struct lx_error err = {0};
	int rc = lx_apply_prepare(&in, &out, &why, &err);
	if (rc < 0)
		printf("# %s\n", err.message);
	enum lx_refusal_kind kind = rc < 0 ? (enum lx_refusal_kind)-1 : why.kind;
	*changes = out.config_changes;
	*message = why.message ? lx_xstrdup(why.message) : NULL;
	if (kind == LX_REFUSAL_GPU_IN_VM)
		ok(why.code == LXG013_GPU_IN_VM && why.fix && strstr(why.fix, "--force"),
		   "the refusal is LXG013, and says --force");
	lx_refusal_free(&why);
	lx_apply_result_free(&out);
	lx_conf_free(&conf);
	return kind;
}

static void test_gpu_in_vm(const struct lx_host *host)
{
	bool changes;
	char *message;
	int_eq(apply_gpus(host, "7", false, &changes, &message), LX_REFUSAL_GPU_IN_VM,
	       "GPU 7, which VM 200 passes through: refused");
	ok(message && strstr(message, "0000:ec:00.0") && strstr(message, "VM 200"),
	   "the message names the GPU and the VM");
	free(message);
	int_eq(apply_gpus(host, "7", true, &changes, &message), LX_REFUSAL_NONE, "--force: goes on");
	ok(changes, "and changes the config");
	free(message);
	int_eq(apply_gpus(host, "6", false, &changes, &message), LX_REFUSAL_NONE,
	       "GPU 6, no VM's: goes on");
	free(message);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		printf("Bail out! usage: test-apply PVE_CONFIGS LXC_CONFIGS EXAMPLES\n");
		return 1;
	}
	pve_dir = argv[1];
	lxc_dir = argv[2];
	/* Proxmox's parser's values (tests/pve/oracle/NAME.json, "main"). */
	test_pve("01-plain-debian.conf", true);          /* unprivileged: 1 */
	test_pve("28-unprivileged-0.conf", false);       /* 0 */
	test_pve("42-unprivileged-yes.conf", true);      /* "yes": 1 */
	test_pve("43-unprivileged-off.conf", false);     /* "off": 0 */
	test_pve("55-unprivileged-not-boolean.conf", true); /* "maybe": kept, Perl-true */
	test_pve("57-unprivileged-case.conf", true);     /* "TRUE": 1 (the snapshot's "No": 0) */
	test_pve("20-idmap-interleaved.conf", true);     /* 1, with lxc.idmap */
	test_inline_pve();
	test_may_change();
	test_live_split();
	test_lxc("01-plain.config", false);
	test_lxc("03-unprivileged-idmap.config", true);
	struct lx_host host;
	load_example(argv[3], "pve-8x-rtx-pro-6000", &host);
	test_plain_lxc_style(&host);
	test_gpu_in_vm(&host);
	lx_host_free(&host);
	return tap_done();
}
