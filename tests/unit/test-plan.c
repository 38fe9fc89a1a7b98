/* The device plan and GPU selection, over the example hosts. */
#include "lxgpu/plan.h"
#include "examples.h"
#include "tap.h"

static const char *examples;

static void load(const char *name, struct lx_host *h)
{
	load_example(examples, name, h);
}

static const struct lx_plan_node *find(const struct lx_plan *p, const char *path)
{
	for (size_t i = 0; i < p->n_nodes; i++)
		if (strcmp(p->nodes[i].path, path) == 0)
			return &p->nodes[i];
	return NULL;
}

static bool build(const struct lx_host *h, struct lx_plan_options *o, struct lx_plan *p,
		  struct lx_error *err)
{
	return lx_plan_build(h, o, p, err) == 0;
}

static void expect_select_error(const struct lx_host *h, const char *spec, const char *needle)
{
	size_t *sel = NULL, n = 0;
	struct lx_error err = {0};
	ok(lx_select_gpus(h, spec, &sel, &n, &err) < 0 && sel == NULL, spec);
	if (!ok(err.message && strstr(err.message, needle), "the error names the GPU"))
		printf("#   message: %s\n#   wanted:  %s\n", err.message, needle);
	if (!ok(err.message && strstr(err.message, "GPUs on this host: 0 ("), "and lists the GPUs"))
		printf("#   message: %s\n", err.message);
	lx_error_clear(&err);
}

static void test_selection(void)
{
	struct lx_host h;
	load("pve-8x-rtx-pro-6000", &h);
	size_t *sel, n;
	struct lx_error err = {0};
	ok(lx_select_gpus(&h, NULL, &sel, &n, &err) == 0 && n == 8, "default: all 8");
	free(sel);
	ok(lx_select_gpus(&h, "2, 0,2", &sel, &n, &err) == 0 && n == 2 && sel[0] == 0 && sel[1] == 2,
	   "indexes: sorted, deduplicated");
	free(sel);
	ok(lx_select_gpus(&h, "0000:99:00.0", &sel, &n, &err) == 0 && n == 1 && sel[0] == 4, "bdf");
	free(sel);
	ok(lx_select_gpus(&h, "00000000:99:00.0", &sel, &n, &err) == 0 && n == 1 && sel[0] == 4,
	   "bdf with an 8-digit domain");
	free(sel);
	ok(lx_select_gpus(&h, "gpu-7c1e3333-3b2a-4f0e-9d61-0000005a0003", &sel, &n, &err) == 0 &&
		   n == 1 && sel[0] == 3,
	   "UUID, any case");
	free(sel);
	ok(lx_select_gpus(&h, "numa:1", &sel, &n, &err) == 0 && n == 4 && sel[0] == 4 && sel[3] == 7,
	   "numa:1 is the second socket");
	free(sel);
	expect_select_error(&h, "8", "there is no GPU 8");
	expect_select_error(&h, "0000:01:00.0", "no GPU at PCI address 0000:01:00.0");
	expect_select_error(&h, "GPU-nope", "no GPU has UUID GPU-nope");
	expect_select_error(&h, "numa:3", "no GPU bound to nvidia on NUMA node 3");
	expect_select_error(&h, "first", "'first' is not a GPU");
	expect_select_error(&h, "0,all", "'all' cannot be combined");
	lx_host_free(&h);

	load("pve-vfio-split", &h);
	expect_select_error(&h, "1", "GPU 1 (0000:81:00.0) is bound to vfio-pci, not nvidia");
	ok(lx_select_gpus(&h, "all", &sel, &n, &err) == 0 && n == 1 && sel[0] == 0,
	   "all skips the vfio-bound GPU");
	free(sel);
	lx_host_free(&h);
}

static void test_raw_two_gpus(void)
{
	struct lx_host h;
	load("pve-8x-rtx-pro-6000", &h);
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	o.gpus = "0,1";
	o.style = LX_STYLE_RAW;
	struct lx_plan p;
	struct lx_error err = {0};
	ok(build(&h, &o, &p, &err), "plan builds");
	int_eq((long long)p.n_nodes, 5, "five nodes");
	static const char *const want[] = {"/dev/nvidia0", "/dev/nvidia1", "/dev/nvidiactl",
					   "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"};
	for (size_t i = 0; i < 5 && i < p.n_nodes; i++)
		str_eq(p.nodes[i].path, want[i], "node in order");
	const struct lx_plan_node *uvm = find(&p, "/dev/nvidia-uvm");
	ok(uvm && uvm->major == 511 && uvm->minor == 0 && uvm->dynamic_major, "uvm: 511:0, dynamic");
	const struct lx_plan_node *gpu1 = find(&p, "/dev/nvidia1");
	ok(gpu1 && gpu1->major == 195 && gpu1->minor == 1 && !gpu1->dynamic_major && gpu1->gpu == 1,
	   "nvidia1: 195:1 of GPU 1");
	ok(uvm && uvm->grant == (LX_GRANT_CGROUP | LX_GRANT_BIND), "privileged raw: rule + mount");
	str_eq(lx_plan_cgroup_key(&p), "lxc.cgroup2.devices.allow", "cgroup v2 host: v2 keys");
	int_eq((long long)p.warnings.n, 0, "no warnings");
	lx_plan_free(&p);

	o.unprivileged = true;
	ok(build(&h, &o, &p, &err) && p.nodes[0].grant == LX_GRANT_BIND,
	   "unprivileged raw: bind mounts only");
	lx_plan_free(&p);
	o.unprivileged = false;
	o.cgroup = LX_CGROUP_V1;
	ok(build(&h, &o, &p, &err), "--cgroup v1");
	str_eq(lx_plan_cgroup_key(&p), "lxc.cgroup.devices.allow", "v1 keys");
	lx_plan_free(&p);
	o.mode = 0600;
	ok(!build(&h, &o, &p, &err) && strstr(err.message, "apply to the devn and cdi styles"),
	   "--mode with bind mounts is refused");
	lx_error_clear(&err);
	lx_host_free(&h);
}

static void test_devn(void)
{
	struct lx_host h;
	load("pve-8x-rtx-pro-6000", &h);
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	struct lx_plan p;
	struct lx_error err = {0};
	ok(build(&h, &o, &p, &err), "devn, all GPUs");
	int_eq((long long)p.n_nodes, 11, "8 GPUs + ctl + uvm + uvm-tools");
	bool numbered = true;
	for (size_t i = 0; i < p.n_nodes; i++)
		numbered &= p.nodes[i].dev_index == (int)i && p.nodes[i].grant == LX_GRANT_DEVN &&
			    p.nodes[i].mode == 0666 && !p.nodes[i].uid_set;
	ok(numbered, "dev0..dev10, mode 0666");
	lx_plan_free(&p);

	o.gpus = "3";
	o.dev_start = 2;
	o.dev_taken[3] = o.dev_taken[5] = true;
	o.gid = 44;
	o.mode = 0660;
	ok(build(&h, &o, &p, &err), "devn with taken indexes");
	int_eq(p.nodes[0].dev_index, 2, "starts at --dev-start");
	int_eq(p.nodes[1].dev_index, 4, "skips dev3");
	int_eq(p.nodes[2].dev_index, 6, "skips dev5");
	ok(p.nodes[0].gid_set && p.nodes[0].gid == 44 && !p.nodes[0].uid_set &&
		   p.nodes[0].mode == 0660,
	   "--gid and --mode");
	lx_plan_free(&p);

	o.dev_start = 254;
	ok(!build(&h, &o, &p, &err) && strstr(err.message, "no free devN index"),
	   "too few indexes left");
	lx_error_clear(&err);
	lx_host_free(&h);
}

static void test_missing_uvm(void)
{
	struct lx_host h;
	load("pve-uvm-not-loaded", &h);
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	struct lx_plan p;
	struct lx_error err = {0};
	ok(build(&h, &o, &p, &err), "devn without uvm");
	const struct lx_plan_node *uvm = find(&p, "/dev/nvidia-uvm");
	ok(uvm && !uvm->present && !uvm->major_known, "devn keeps the missing uvm node");
	int_eq((long long)p.warnings.n, 1, "one warning");
	ok(p.warnings.n && strstr(p.warnings.items[0].message, "nvidia-uvm is not loaded") &&
		   strstr(p.warnings.items[0].fix, "nvidia-modprobe -u -c 0"),
	   "it says why and how to fix it");
	lx_plan_free(&p);
	o.style = LX_STYLE_RAW;
	ok(build(&h, &o, &p, &err) && !find(&p, "/dev/nvidia-uvm") && p.n_nodes == 2,
	   "raw leaves it out (no major to write)");
	ok(p.warnings.n == 1 && strstr(p.warnings.items[0].message, "left out"), "and says so");
	lx_plan_free(&p);
	lx_host_free(&h);
}

static void test_extras(void)
{
	struct lx_host h;
	load("pve-h100-mig", &h);
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	o.caps = true;
	struct lx_plan p;
	struct lx_error err = {0};
	ok(build(&h, &o, &p, &err), "--caps");
	const struct lx_plan_node *cap = find(&p, "/dev/nvidia-caps/nvidia-cap13");
	ok(cap && cap->role == LX_ROLE_CAP && cap->gpu == 0 && cap->major == 508 && cap->mode == 0444,
	   "GPU 0's ci0 capability, read-only");
	ok(!find(&p, "/dev/nvidia-caps/nvidia-cap1"), "mig/config is not given");
	ok(p.warnings.n == 0, "both GPUs have MIG instances: no warning");
	lx_plan_free(&p);
	/* A GPU without instances: drop GPU 1's from the model. */
	size_t kept = 0;
	for (size_t i = 0; i < h.n_caps; i++) {
		if (lx_str_starts_with(h.caps[i].name, "gpu1/"))
			free(h.caps[i].name);
		else
			h.caps[kept++] = h.caps[i];
	}
	h.n_caps = kept;
	ok(build(&h, &o, &p, &err), "--caps, GPU 1 without instances");
	ok(p.warnings.n == 1 && strstr(p.warnings.items[0].message, "GPU 1"),
	   "GPU 1 has no MIG instances: a warning");
	lx_plan_free(&p);
	lx_host_free(&h);

	load("pve-rtx-4090", &h);
	lx_plan_options_default(&o);
	o.dri = true;
	o.style = LX_STYLE_LXC;
	o.unprivileged = true;
	ok(build(&h, &o, &p, &err), "--dri");
	const struct lx_plan_node *render = find(&p, "/dev/dri/renderD128");
	ok(render && render->major == 226 && render->minor == 128 && render->role == LX_ROLE_DRI_RENDER,
	   "render node");
	ok(find(&p, "/dev/nvidia-modeset") != NULL, "nvidia-modeset when present");
	ok(p.warnings.n == 1 && strstr(p.warnings.items[0].message, "/dev/dri/card1 is 0660 0:44"),
	   "unprivileged: the 0660 card node is a warning, the 0666 render node is not");
	lx_plan_free(&p);
	lx_host_free(&h);
}

static void test_unknown_minor(void)
{
	struct lx_host h;
	load("pve-8x-rtx-pro-6000", &h);
	h.gpus[0].minor = h.gpus[1].minor = LX_UNKNOWN;
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	struct lx_plan p;
	struct lx_error err = {0};
	ok(build(&h, &o, &p, &err) && find(&p, "/dev/nvidia0") && find(&p, "/dev/nvidia7") &&
		   p.n_nodes == 11,
	   "unknown minors, all GPUs: every /dev/nvidiaN");
	lx_plan_free(&p);
	o.gpus = "0";
	ok(!build(&h, &o, &p, &err) && strstr(err.message, "use --gpus all"),
	   "unknown minor, one GPU: refused");
	lx_error_clear(&err);
	lx_host_free(&h);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	examples = argv[1];
	test_selection();
	test_raw_two_gpus();
	test_devn();
	test_missing_uvm();
	test_extras();
	test_unknown_minor();
	return tap_done();
}
