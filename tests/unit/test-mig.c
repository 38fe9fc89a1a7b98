/* MIG instances: capability names, the driver's minor table, and the plan
 * for one instance.
 *
 * Expected values are written by hand from NVIDIA's sources, not from
 * lxgpu: the minors from nv-caps.c's tables (fabric-mgmt 0, config 1,
 * monitor 2, then per GPU 15 GIs of 9 entries: the GI's access, then its
 * CIs 0-7, so gpuG/giI is 3 + 135*G + 9*I and its ciC one more plus C);
 * the nodes of an instance from libnvidia-container (the parent GPU's
 * /dev/nvidiaN, nvidiactl, nvidia-uvm, and the GI's and the CI's caps
 * nodes: nvc_mig_device_access_caps_mount; mig/config and mig/monitor only
 * when asked: nvc_mig_config/monitor_global_caps_mount). */
#include "lxgpu/access.h"
#include "lxgpu/judge.h"
#include "lxgpu/plan.h"
#include "examples.h"
#include "tap.h"

static const char *examples;

static unsigned gi_minor(unsigned gpu, unsigned gi)
{
	return 3 + 135 * gpu + 9 * gi;
}

static unsigned ci_minor(unsigned gpu, unsigned gi, unsigned ci)
{
	return gi_minor(gpu, gi) + 1 + ci;
}

static void test_names(void)
{
	struct lx_mig_ref r = lx_mig_ref_of_name("gpu0/mig/gi1/ci0");
	ok(r.kind == LX_MIG_CI && r.gpu_minor == 0 && r.gi == 1 && r.ci == 0, "gpu0/mig/gi1/ci0");
	r = lx_mig_ref_of_name("gpu3/mig/gi14");
	ok(r.kind == LX_MIG_GI && r.gpu_minor == 3 && r.gi == 14 && r.ci == -1, "gpu3/mig/gi14");
	ok(lx_mig_ref_of_name("mig/config").kind == LX_MIG_CONFIG, "mig/config");
	ok(lx_mig_ref_of_name("mig/monitor").kind == LX_MIG_MONITOR, "mig/monitor");
	const char *bad[] = {"fabric-imex-mgmt", "gpu0/gi1", "gpu0/mig/gi01", "gpu0/mig/gi1/ci",
			     "gpu0/mig/gi1/ci0/x", "gpu/mig/gi1", "gpu0/mig/gi-1", "gpu0/mig/gi+1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(lx_mig_ref_of_name(bad[i]).kind == LX_MIG_NONE, bad[i]);
	struct lx_mig_ref back = {LX_MIG_CI, 1, 7, 0};
	char *name = lx_mig_ref_name(&back);
	ok(name && strcmp(name, "gpu1/mig/gi7/ci0") == 0, "a reference names itself back");
	free(name);
}

static void test_table(void)
{
	/* The driver's lines, in its order (nv_procfs_read_mig_minors). */
	const char *text = "config 1\nmonitor 2\ngpu0/gi0/access 3\ngpu0/gi0/ci0/access 4\n"
			   "gpu1/gi0/access 138\ngpu1/gi7/ci0/access 202\n";
	struct lx_capability *t;
	size_t n;
	struct lx_error err = {0};
	ok(lx_parse_mig_minors(text, NULL, &t, &n, &err) == 0 && n == 6, "six lines, six entries");
	ok(n == 6 && strcmp(t[0].name, "mig/config") == 0 && t[0].minor == 1 &&
		   strcmp(t[3].name, "gpu0/mig/gi0/ci0") == 0 && t[3].minor == 4 &&
		   strcmp(t[5].name, "gpu1/mig/gi7/ci0") == 0 && t[5].minor == 202,
	   "named as the capabilities are");
	for (size_t i = 0; i < n; i++)
		free(t[i].name);
	free(t);
	ok(lx_parse_mig_minors("config 1\ngpu0/gi1/access x\n", NULL, &t, &n, &err) < 0 &&
		   strstr(err.message, "line 2") && n == 0 && !t,
	   "a bad line is an error naming it");
	lx_error_clear(&err);
	ok(lx_parse_mig_minors("config 1\nfabric-imex-mgmt 4323\n", NULL, &t, &n, &err) < 0,
	   "fabric-imex-mgmt belongs to sys-minors, not mig-minors");
	lx_error_clear(&err);
}

static void test_host(void)
{
	struct lx_host h;
	load_example(examples, "pve-h100-mig", &h);
	/* Two GPUs (minors 0 and 1): config, monitor and 2 x 135 entries. */
	ok(h.n_mig_minors == 2 + 2 * 135, "mig_minors: config, monitor and the host's two GPUs");
	ok(lx_host_mig_minor_of(&h, "gpu1/mig/gi14/ci7") == (int)ci_minor(1, 14, 7),
	   "the last entry of GPU 1");
	ok(lx_host_mig_minor_of(&h, "gpu2/mig/gi0") == -1, "no GPU 2 on this host: not kept");
	struct lx_mig_ref r = lx_host_mig_of_minor(&h, ci_minor(0, 5, 3));
	ok(r.kind == LX_MIG_CI && r.gpu_minor == 0 && r.gi == 5 && r.ci == 3,
	   "a minor of an instance that does not exist still says what it is");
	ok(lx_host_gpu_mig_state(&h, 0) == LX_MIG_ON && lx_host_gpu_mig_state(&h, 1) == LX_MIG_ON,
	   "both GPUs have GPU instances: MIG mode on");
	/* Round trip through a snapshot. */
	char *yaml = lx_snapshot_to_yaml(&h);
	struct lx_host back;
	struct lx_error err = {0};
	ok(lx_snapshot_parse("round-trip", yaml, strlen(yaml), &back, &err) == 0 &&
		   back.n_mig_minors == h.n_mig_minors &&
		   lx_host_mig_minor_of(&back, "gpu0/mig/gi1") == (int)gi_minor(0, 1),
	   "the table survives save and load");
	lx_host_free(&back);
	/* A hand edit that puts a non-MIG name into the table is refused. */
	char *table = strstr(yaml, "\nmig_minors:\n");
	char *at = table ? strstr(table, "name: mig/monitor") : NULL;
	if (at)
		memcpy(at + 6, "mig/xxxxxxx", 11);
	ok(at && lx_snapshot_parse("edited", yaml, strlen(yaml), &back, &err) < 0 &&
		   strstr(err.message, "mig_minors") && strstr(err.message, "edited:"),
	   "a bad table entry names file, line and field");
	lx_error_clear(&err);
	free(yaml);
	lx_host_free(&h);
	load_example(examples, "pve-rtx-4090", &h);
	ok(h.n_mig_minors == 0 && lx_host_gpu_mig_state(&h, 0) == LX_MIG_NO_INSTANCES,
	   "a snapshot without the table still loads; no instances");
	lx_host_free(&h);
}

static bool plan_has_exactly(const struct lx_plan *p, const char *const *paths, size_t n)
{
	bool good = p->n_nodes == n;
	for (size_t i = 0; good && i < n; i++) {
		bool found = false;
		for (size_t j = 0; j < p->n_nodes; j++)
			found |= strcmp(p->nodes[j].path, paths[i]) == 0;
		good = found;
	}
	if (!good) {
		printf("#   plan:");
		for (size_t j = 0; j < p->n_nodes; j++)
			printf(" %s", p->nodes[j].path);
		printf("\n");
	}
	return good;
}

static const struct lx_plan_node *find(const struct lx_plan *p, const char *path)
{
	for (size_t i = 0; i < p->n_nodes; i++)
		if (strcmp(p->nodes[i].path, path) == 0)
			return &p->nodes[i];
	return NULL;
}

static void expect_refused(const struct lx_host *h, const char *spec, const char *needle)
{
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	o.gpus = spec;
	struct lx_plan p;
	struct lx_error err = {0};
	bool refused = lx_plan_build(h, &o, &p, &err) < 0;
	if (!ok(refused && err.message && strstr(err.message, needle), spec))
		printf("#   message: %s\n#   wanted: %s\n", err.message, needle);
	if (!refused)
		lx_plan_free(&p);
	lx_error_clear(&err);
}

static void test_plan(void)
{
	struct lx_host h;
	load_example(examples, "pve-h100-mig", &h);
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	struct lx_plan p;
	struct lx_error err = {0};

	o.gpus = "0:gi1/ci0";
	const char *want_gi1_ci0[] = {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm",
				      "/dev/nvidia-uvm-tools", "/dev/nvidia-caps/nvidia-cap12",
				      "/dev/nvidia-caps/nvidia-cap13"};
	ok(lx_plan_build(&h, &o, &p, &err) == 0 && plan_has_exactly(&p, want_gi1_ci0, 6),
	   "0:gi1/ci0: the GPU, nvidiactl, uvm, the GI's and the CI's caps nodes, nothing else");
	const struct lx_plan_node *gi = find(&p, "/dev/nvidia-caps/nvidia-cap12");
	const struct lx_plan_node *ci = find(&p, "/dev/nvidia-caps/nvidia-cap13");
	ok(gi && ci && gi->major == 508 && gi->minor == gi_minor(0, 1) &&
		   ci->minor == ci_minor(0, 1, 0) && gi->mig_gi == 1 && gi->mig_ci == -1 &&
		   ci->mig_gi == 1 && ci->mig_ci == 0 && ci->gpu == 0 && ci->dev_index >= 0,
	   "caps nodes with the nvidia-caps major and the instance's minors, as devN");
	ok(ci && ci->mode == 0444, "read-only in the container");
	ok(p.n_migs == 1 && p.n_gpus == 1 && p.gpus[0] == 0, "the parent GPU is the plan's GPU");
	lx_plan_free(&p);

	/* By PCI address, raw style, on the second GPU. */
	o.gpus = "0000:9b:00.0:gi7/ci0";
	o.style = LX_STYLE_RAW;
	const char *want_gpu1[] = {"/dev/nvidia1", "/dev/nvidiactl", "/dev/nvidia-uvm",
				   "/dev/nvidia-uvm-tools", "/dev/nvidia-caps/nvidia-cap201",
				   "/dev/nvidia-caps/nvidia-cap202"};
	ok(lx_plan_build(&h, &o, &p, &err) == 0 && plan_has_exactly(&p, want_gpu1, 6) &&
		   (find(&p, "/dev/nvidia-caps/nvidia-cap202")->grant & LX_GRANT_BIND),
	   "a PCI address selects the GPU; raw binds the nodes");
	lx_plan_free(&p);

	/* Two CIs of one GI share its GI node. */
	o.gpus = "0:gi1/ci1, 0:gi1/ci0";
	o.style = LX_STYLE_DEVN;
	const char *want_two[] = {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm",
				  "/dev/nvidia-uvm-tools", "/dev/nvidia-caps/nvidia-cap12",
				  "/dev/nvidia-caps/nvidia-cap13", "/dev/nvidia-caps/nvidia-cap14"};
	ok(lx_plan_build(&h, &o, &p, &err) == 0 && plan_has_exactly(&p, want_two, 7) &&
		   p.n_migs == 2 && p.migs[0].ci == 0 && p.migs[1].ci == 1,
	   "two CIs of gi1: one GI node, two CI nodes; instances sorted");
	lx_plan_free(&p);

	/* Config and monitor only when asked. */
	o.gpus = "1:gi9/ci0";
	o.mig_config = o.mig_monitor = true;
	ok(lx_plan_build(&h, &o, &p, &err) == 0 && find(&p, "/dev/nvidia-caps/nvidia-cap1") &&
		   find(&p, "/dev/nvidia-caps/nvidia-cap2") &&
		   find(&p, "/dev/nvidia-caps/nvidia-cap1")->gpu == -1 &&
		   find(&p, "/dev/nvidia-caps/nvidia-cap219") &&
		   find(&p, "/dev/nvidia-caps/nvidia-cap220") && p.n_nodes == 8,
	   "--mig-config and --mig-monitor add caps 1 and 2");
	lx_plan_free(&p);
	o.mig_config = o.mig_monitor = false;

	/* --caps with an instance selection stays with the instance. */
	o.gpus = "0:gi2/ci0";
	o.caps = true;
	ok(lx_plan_build(&h, &o, &p, &err) == 0 && p.n_nodes == 6 &&
		   find(&p, "/dev/nvidia-caps/nvidia-cap21") && find(&p, "/dev/nvidia-caps/nvidia-cap22"),
	   "--caps does not widen an instance selection to the GPU's other instances");
	lx_plan_free(&p);

	expect_refused(&h, "0:gi3/ci0", "has no MIG instance gi3/ci0 now");
	expect_refused(&h, "0:gi3/ci0", "its instances: gi1/ci0, gi1/ci1, gi2/ci0");
	expect_refused(&h, "0:gi1", "is not a MIG instance");
	expect_refused(&h, "0:gi1/ci", "is not a MIG instance");
	expect_refused(&h, "MIG-4b1f8a53-1f2a-5b0c-9d1e-2a3b4c5d6e7f", "nvidia-smi -L");
	expect_refused(&h, "MIG-4b1f8a53", "is not a MIG UUID");
	expect_refused(&h, "0,0:gi1/ci0", "selected whole and by its MIG instance");
	expect_refused(&h, "5:gi1/ci0", "there is no GPU 5");
	lx_host_free(&h);
}

/* nvidia-smi's two listings, in the shapes public outputs show (NVIDIA's
 * MIG user guide; telegraf#5812 and datadog-agent#33120 for -L on R535:
 * "  MIG 1g.20gb     Device  0: (UUID: MIG-...)"; -q -x per
 * nvsmi_device_v12.dtd as gpustack and node_exporter fixtures quote it:
 * <gpu id="BDF"> holding <mig_devices><mig_device><index>,
 * <gpu_instance_id>, <compute_instance_id>, and the GPU's <uuid> after
 * them). The MIG device index is not the GI ID (nvitop#8: GIs 3, 5, 6 are
 * MIG devices 0, 1, 2). GPU UUIDs are pve-h100-mig's. */
static const char smi_list[] =
	"GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f)\n"
	"  MIG 1g.10gb     Device  0: (UUID: MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a)\n"
	"  MIG 1g.10gb     Device  1: (UUID: MIG-1d6c8e6f-9b72-5031-ac1d-4e5f6071829b)\n"
	"  MIG 2g.20gb     Device  2: (UUID: MIG-2e7d9f70-ac83-5142-bd2e-5f60718293ac)\n"
	"GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-1F2E3D4C-5B6A-4798-8A9B-CDEF01234567)\n"
	"  MIG 3g.40gb     Device  0: (UUID: MIG-3f8ea081-bd94-5253-ce3f-60718293a4bd)\n"
	"  MIG 1g.10gb Device 1: (UUID: MIG-GPU-1f2e3d4c-5b6a-4798-8a9b-cdef01234567/8/0)\n"
	"  MIG 1g.10gb     Device  7: (UUID: MIG-6cb1d3b4-e0c7-5586-f162-93a4b5c6d7e0)\n"
	"GPU 2: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-4000-8000-000000000000)\n"
	"  MIG 1g.10gb     Device  0: (UUID: MIG-7dc2e4c5-f1d8-5697-0273-a4b5c6d7e8f1)\n";

static const char smi_query[] =
	"<?xml version=\"1.0\" ?>\n"
	"<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">\n"
	"<nvidia_smi_log>\n"
	"\t<driver_version>570.172.08</driver_version>\n"
	"\t<attached_gpus>3</attached_gpus>\n"
	"\t<gpu id=\"00000000:1B:00.0\">\n"
	"\t\t<product_name>NVIDIA H100 80GB HBM3</product_name>\n"
	"\t\t<mig_mode><current_mig>Enabled</current_mig><pending_mig>Enabled</pending_mig></mig_mode>\n"
	"\t\t<mig_devices>\n"
	"\t\t\t<mig_device>\n"
	"\t\t\t\t<index>0</index>\n"
	"\t\t\t\t<gpu_instance_id>1</gpu_instance_id>\n"
	"\t\t\t\t<compute_instance_id>0</compute_instance_id>\n"
	"\t\t\t\t<device_attributes><shared><multiprocessor_count>16</multiprocessor_count>"
	"</shared></device_attributes>\n"
	"\t\t\t</mig_device>\n"
	"\t\t\t<mig_device><index>1</index><gpu_instance_id>1</gpu_instance_id>"
	"<compute_instance_id>1</compute_instance_id></mig_device>\n"
	"\t\t\t<!-- a comment <index>9</index> -->\n"
	"\t\t\t<mig_device><index>2</index><gpu_instance_id>2</gpu_instance_id>"
	"<compute_instance_id>0</compute_instance_id></mig_device>\n"
	"\t\t</mig_devices>\n"
	"\t\t<processes><process_info><gpu_instance_id>1</gpu_instance_id>"
	"<compute_instance_id>0</compute_instance_id></process_info></processes>\n"
	"\t\t<uuid>GPU-9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f</uuid>\n"
	"\t\t<minor_number>0</minor_number>\n"
	"\t</gpu>\n"
	"\t<gpu id=\"00000000:9B:00.0\">\n"
	"\t\t<mig_devices>\n"
	"\t\t\t<mig_device><index>0</index><gpu_instance_id>7</gpu_instance_id>"
	"<compute_instance_id>0</compute_instance_id></mig_device>\n"
	"\t\t\t<mig_device><index>1</index><gpu_instance_id>8</gpu_instance_id>"
	"<compute_instance_id>0</compute_instance_id></mig_device>\n"
	"\t\t\t<mig_device><index>7</index><gpu_instance_id>9</gpu_instance_id>"
	"<compute_instance_id>0</compute_instance_id></mig_device>\n"
	"\t\t</mig_devices>\n"
	"\t\t<uuid>GPU-1f2e3d4c-5b6a-4798-8a9b-cdef01234567</uuid>\n"
	"\t</gpu>\n"
	"\t<gpu id=\"00000000:DB:00.0\">\n"
	"\t\t<mig_devices><mig_device><index>0</index><gpu_instance_id>3</gpu_instance_id>"
	"<compute_instance_id>0</compute_instance_id></mig_device></mig_devices>\n"
	"\t\t<uuid>GPU-00000000-0000-4000-8000-000000000000</uuid>\n"
	"\t</gpu>\n"
	"</nvidia_smi_log>\n";

static void test_nvsmi(void)
{
	struct lx_host h;
	load_example(examples, "pve-h100-mig", &h);
	struct lx_mig_uuid *m;
	size_t n;
	lx_mig_uuids_from_nvsmi(&h, smi_list, smi_query, &m, &n);
	/* Written by hand: -L's UUID at (GPU, index) with -q's GI/CI there. */
	static const struct {
		const char *uuid;
		size_t gpu;
		int gi, ci;
	} want[] = {
		{"MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a", 0, 1, 0},
		{"MIG-1d6c8e6f-9b72-5031-ac1d-4e5f6071829b", 0, 1, 1},
		{"MIG-2e7d9f70-ac83-5142-bd2e-5f60718293ac", 0, 2, 0},
		{"MIG-3f8ea081-bd94-5253-ce3f-60718293a4bd", 1, 7, 0},
		{"MIG-6cb1d3b4-e0c7-5586-f162-93a4b5c6d7e0", 1, 9, 0},
	};
	bool same = n == sizeof(want) / sizeof(want[0]);
	for (size_t i = 0; same && i < n; i++)
		same = strcmp(m[i].uuid, want[i].uuid) == 0 && m[i].gpu == want[i].gpu &&
		       m[i].gi == want[i].gi && m[i].ci == want[i].ci;
	if (!ok(same, "-L and -q -x joined by GPU UUID (any case) and MIG device index; not "
		      "recorded: the old form (it names itself), a GPU the host lacks, the "
		      "processes' instance IDs, a comment"))
		for (size_t i = 0; i < n; i++)
			printf("#   %s %zu gi%d/ci%d\n", m[i].uuid, m[i].gpu, m[i].gi, m[i].ci);
	for (size_t i = 0; i < n; i++)
		free(m[i].uuid);
	free(m);

	lx_mig_uuids_from_nvsmi(&h, smi_list, "", &m, &n);
	ok(n == 0 && !m, "without -q -x: nothing (no GI/CI to pair the UUIDs with)");
	lx_mig_uuids_from_nvsmi(&h, "garbage\n  MIG x Device y: (UUID: z)\n", smi_query, &m, &n);
	ok(n == 0, "output of another shape: nothing, no crash");
	/* Cut output: an unclosed GPU element joins nothing. */
	char cut[sizeof(smi_query)];
	memcpy(cut, smi_query, sizeof(smi_query));
	*strstr(cut, "<uuid>GPU-9e8d") = '\0';
	lx_mig_uuids_from_nvsmi(&h, smi_list, cut, &m, &n);
	ok(n == 0, "an -q -x cut before the GPU's uuid: nothing for that GPU");

	/* Lookup, both forms. */
	size_t gpu;
	int gi, ci;
	ok(lx_host_mig_by_uuid(&h, "MIG-GPU-1F2E3D4C-5B6A-4798-8A9B-CDEF01234567/8/0", &gpu, &gi,
			       &ci) == LX_MIG_FOUND &&
		   gpu == 1 && gi == 8 && ci == 0,
	   "old form: the parent by its UUID (any case), GI 8, CI 0 from the name");
	ok(lx_host_mig_by_uuid(&h, "MIG-GPU-00000000-0000-4000-8000-000000000000/1/0", &gpu, &gi,
			       &ci) == LX_MIG_UNKNOWN_GPU,
	   "old form on a GPU the host lacks");
	const char *bad[] = {"MIG-GPU-1f2e3d4c-5b6a-4798-8a9b-cdef01234567/8",
			     "MIG-GPU-1f2e3d4c-5b6a-4798-8a9b-cdef01234567/08/0",
			     "MIG-GPU-1f2e3d4c/8/0", "MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718",
			     "MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a0", "MIG-", "GPU-0c5b7d5e"};
	bool all_bad = true;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		all_bad &= lx_host_mig_by_uuid(&h, bad[i], &gpu, &gi, &ci) == LX_MIG_MALFORMED;
	ok(all_bad, "malformed UUIDs of either form");
	ok(lx_host_mig_by_uuid(&h, "mig-2E7D9F70-AC83-5142-BD2E-5F60718293AC", &gpu, &gi, &ci) ==
			   LX_MIG_FOUND &&
		   gpu == 0 && gi == 2 && ci == 0,
	   "new form from the example's recorded table, any case");
	lx_host_free(&h);
}

/* One edit of the example's mig_uuids: refused, naming file, line, field. */
static void expect_bad_uuids(const char *yaml, const char *from, const char *to,
			     const char *field, const char *needle)
{
	char *at = strstr(yaml, "\nmig_uuids:\n");
	at = at ? strstr(at, from) : NULL;
	_cleanup_free_ char *name = lx_xasprintf("an edited %s: refused (%s)", field, needle);
	if (!ok(at != NULL, name))
		return;
	struct lx_buf b = {0};
	lx_buf_append(&b, yaml, (size_t)(at - yaml));
	lx_buf_puts(&b, to);
	lx_buf_puts(&b, at + strlen(from));
	_cleanup_free_ char *edited = lx_buf_steal(&b);
	struct lx_host back;
	struct lx_error err = {0};
	bool refused = lx_snapshot_parse("edited", edited, strlen(edited), &back, &err) < 0;
	if (!ok(refused && strstr(err.message, "edited:") && strstr(err.message, field) &&
			strstr(err.message, needle),
		name))
		printf("#   %s\n", err.message ? err.message : "(loaded)");
	if (!refused)
		lx_host_free(&back);
	lx_error_clear(&err);
}

static void test_snapshot_uuids(void)
{
	struct lx_host h, back;
	struct lx_error err = {0};
	load_example(examples, "pve-h100-mig", &h);
	ok(h.n_mig_uuids == 6 && h.mig_uuids[0].gpu == 0 && h.mig_uuids[0].gi == 1 &&
		   h.mig_uuids[0].ci == 0 && h.mig_uuids[5].gpu == 1 && h.mig_uuids[5].gi == 9 &&
		   strcmp(h.mig_uuids[5].uuid, "MIG-5ba0c2a3-dfb6-5475-e051-8293a4b5c6df") == 0,
	   "the example's recorded MIG UUIDs load, sorted by GPU, GI, CI");
	char *yaml = lx_snapshot_to_yaml(&h);
	bool loaded = lx_snapshot_parse("rt", yaml, strlen(yaml), &back, &err) == 0;
	bool same = loaded && back.n_mig_uuids == h.n_mig_uuids;
	for (size_t i = 0; same && i < h.n_mig_uuids; i++)
		same = strcmp(back.mig_uuids[i].uuid, h.mig_uuids[i].uuid) == 0 &&
		       back.mig_uuids[i].gpu == h.mig_uuids[i].gpu &&
		       back.mig_uuids[i].gi == h.mig_uuids[i].gi &&
		       back.mig_uuids[i].ci == h.mig_uuids[i].ci;
	ok(same, "written and read back unchanged");
	if (loaded)
		lx_host_free(&back);
	expect_bad_uuids(yaml, "uuid: MIG-1d6c8e6f", "uuid: MIG-1d6c8e6z", "mig_uuids[1].uuid",
			 "is not a MIG UUID");
	expect_bad_uuids(yaml, "uuid: MIG-1d6c8e6f-9b72-5031-ac1d-4e5f6071829b",
			 "uuid: MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a", "mig_uuids[1].uuid",
			 "listed twice");
	expect_bad_uuids(yaml, "gpu: 1\n  gi: 7", "gpu: 2\n  gi: 7", "mig_uuids[3].gpu",
			 "not the index of an NVIDIA GPU");
	expect_bad_uuids(yaml, "gpu: 0\n  gi: 1\n  ci: 1", "gpu: 0\n  gi: 1\n  ci: 0",
			 "mig_uuids[1].gi", "listed twice");
	expect_bad_uuids(yaml, "gpu: 0\n  gi: 2\n  ci: 0", "gpu: 0\n  gi: 2\n  ci: 0\n  index: 2",
			 "mig_uuids[2].index", "unknown field");
	expect_bad_uuids(yaml, "gpu: 0\n  gi: 2\n  ci: 0", "gpu: 0\n  gi: -2\n  ci: 0",
			 "mig_uuids[2].gi", "");
	expect_bad_uuids(yaml, "- uuid: MIG-2e7d9f70-ac83-5142-bd2e-5f60718293ac\n  gpu: 0\n",
			 "- gpu: 0\n", "mig_uuids[2].uuid", "missing");
	free(yaml);
	lx_host_free(&h);
	load_example(examples, "pve-rtx-4090", &h);
	yaml = lx_snapshot_to_yaml(&h);
	ok(h.n_mig_uuids == 0 && !strstr(yaml, "mig_uuids"),
	   "a snapshot without the list loads, and is written without it");
	free(yaml);
	lx_host_free(&h);
}

/* The same nodes, in the same order, with the same numbers and modes. */
static bool plans_equal(const struct lx_plan *a, const struct lx_plan *b)
{
	if (a->n_nodes != b->n_nodes || a->n_migs != b->n_migs || a->n_gpus != b->n_gpus)
		return false;
	for (size_t i = 0; i < a->n_nodes; i++) {
		const struct lx_plan_node *x = &a->nodes[i], *y = &b->nodes[i];
		if (strcmp(x->path, y->path) != 0 || x->major != y->major || x->minor != y->minor ||
		    x->mode != y->mode || x->grant != y->grant || x->dev_index != y->dev_index ||
		    x->mig_gi != y->mig_gi || x->mig_ci != y->mig_ci)
			return false;
	}
	return true;
}

static void test_plan_by_uuid(void)
{
	struct lx_host h;
	load_example(examples, "pve-h100-mig", &h);
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	struct lx_plan by_id, by_uuid, by_old;
	struct lx_error err = {0};
	o.gpus = "0:gi1/ci0";
	bool built = lx_plan_build(&h, &o, &by_id, &err) == 0;
	o.gpus = "MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a";
	built &= lx_plan_build(&h, &o, &by_uuid, &err) == 0;
	o.gpus = "MIG-GPU-9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f/1/0";
	built &= lx_plan_build(&h, &o, &by_old, &err) == 0;
	const char *want[] = {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm",
			      "/dev/nvidia-uvm-tools", "/dev/nvidia-caps/nvidia-cap12",
			      "/dev/nvidia-caps/nvidia-cap13"};
	ok(built && plans_equal(&by_id, &by_uuid) && plans_equal(&by_id, &by_old) &&
		   plan_has_exactly(&by_uuid, want, 6),
	   "--gpus MIG-<uuid> and MIG-GPU-<uuid>/1/0 plan exactly what 0:gi1/ci0 does");
	lx_plan_free(&by_id);
	lx_plan_free(&by_uuid);
	lx_plan_free(&by_old);

	o.gpus = "MIG-3f8ea081-bd94-5253-ce3f-60718293a4bd, 1:gi9/ci0";
	o.style = LX_STYLE_RAW;
	const char *want_gpu1[] = {"/dev/nvidia1", "/dev/nvidiactl", "/dev/nvidia-uvm",
				   "/dev/nvidia-uvm-tools", "/dev/nvidia-caps/nvidia-cap201",
				   "/dev/nvidia-caps/nvidia-cap202", "/dev/nvidia-caps/nvidia-cap219",
				   "/dev/nvidia-caps/nvidia-cap220"};
	ok(lx_plan_build(&h, &o, &by_uuid, &err) == 0 && plan_has_exactly(&by_uuid, want_gpu1, 8) &&
		   by_uuid.n_migs == 2,
	   "a UUID and a GI/CI on GPU 1 together, raw style: both instances' caps");
	lx_plan_free(&by_uuid);
	o.style = LX_STYLE_DEVN;
	expect_refused(&h, "MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a,0",
		       "selected whole and by its MIG instance");
	expect_refused(&h, "MIG-GPU-9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f/3/0",
		       "has no MIG instance gi3/ci0 now");
	expect_refused(&h, "MIG-GPU-00000000-0000-4000-8000-000000000000/1/0", "no GPU has the UUID");
	lx_host_free(&h);
	load_example(examples, "pve-rtx-4090", &h);
	expect_refused(&h, "MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a", "records no MIG UUIDs");
	lx_host_free(&h);
}

/* What a config gives, read back as a selection: apply's default keeps
 * the instance (never every instance of the GPU). */
static void current_of(const struct lx_host *h, const char *text, struct lx_current *cur)
{
	struct lx_conf conf;
	lx_conf_parse("t.conf", text, strlen(text), &conf);
	struct lx_access_options opts;
	lx_access_options_default(&opts);
	opts.lxc_config_dir = "/nonexistent";
	struct lx_access a;
	struct lx_error err = {0};
	if (!ok(lx_access_compute(h, &conf, true, &opts, &a, &err) == 0, "computed"))
		printf("# %s\n", err.message);
	lx_access_current(h, &conf, &a, cur);
	lx_access_free(&a);
	lx_conf_free(&conf);
}

static void test_current(void)
{
	struct lx_host h;
	load_example(examples, "pve-h100-mig", &h);
	struct lx_current cur;
	current_of(&h,
		   "dev0: /dev/nvidia0,mode=0666\ndev1: /dev/nvidiactl,mode=0666\n"
		   "dev2: /dev/nvidia-uvm,mode=0666\ndev3: /dev/nvidia-uvm-tools,mode=0666\n"
		   "dev4: /dev/nvidia-caps/nvidia-cap12,mode=0444\n"
		   "dev5: /dev/nvidia-caps/nvidia-cap13,mode=0444\n",
		   &cur);
	ok(cur.gpus && strcmp(cur.gpus, "0:gi1/ci0") == 0 && !cur.caps && cur.migs.n == 1,
	   "devN lines of gi1/ci0 read back as 0:gi1/ci0, not as --caps");
	lx_current_free(&cur);
	current_of(&h,
		   "dev0: /dev/nvidia0\ndev1: /dev/nvidia-caps/nvidia-cap12\n"
		   "dev2: /dev/nvidia-caps/nvidia-cap13\ndev3: /dev/nvidia-caps/nvidia-cap14\n"
		   "dev4: /dev/nvidia-caps/nvidia-cap21\ndev5: /dev/nvidia-caps/nvidia-cap22\n"
		   "dev6: /dev/nvidia-caps/nvidia-cap1\n",
		   &cur);
	ok(cur.gpus && strcmp(cur.gpus, "0") == 0 && cur.caps && cur.mig_config && cur.migs.n == 3,
	   "every instance of GPU 0: the --caps shape; mig/config seen");
	lx_current_free(&cur);
	lx_host_free(&h);
}

/* The placement START of a gone GPU instance in its recreate fix, from
 * the driver's span of each ID (kmigmgrSwizzIdToSpan_GA100, spanLen 8; 4 on
 * the reduced A30): 0 [0,7]; 1 [0,3], 2 [4,7]; 3-6 the quarters from 0, 2,
 * 4, 6; 7-14 the eighths 0-7. With 4: 2 [2,3], 5 [2,2]. */
static void test_recreate(void)
{
	struct lx_host h;
	load_example(examples, "pve-h100-mig", &h);
	static const struct {
		int gi, start, start4; /* start4 -1: as start */
	} want[] = {{0, 0, -1}, {1, 0, -1}, {2, 4, 2}, {3, 0, -1}, {5, 4, 2}, {6, 6, 3},
		    {7, 0, -1}, {9, 2, -1}, {14, 7, -1}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		_cleanup_free_ char *fix = lx_mig_recreate_fix(&h, "101", 0, want[i].gi, 0);
		_cleanup_free_ char *cgi = lx_xasprintf(
			"`nvidia-smi mig -i GPU-9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f -cgi PROFILE:%d`",
			want[i].start);
		_cleanup_free_ char *a30 = lx_xasprintf("A30, the start is %d", want[i].start4);
		_cleanup_free_ char *cci = lx_xasprintf("-gi %d -cci CI-PROFILE", want[i].gi);
		bool aside = want[i].start4 < 0 ? !strstr(fix, "A30") : strstr(fix, a30) != NULL;
		_cleanup_free_ char *what = lx_xasprintf("gi%d is recreated at placement %d%s", want[i].gi,
							 want[i].start,
							 want[i].start4 < 0 ? "" : " (another on a 4-slice A30)");
		ok(lx_str_starts_with(fix, "by hand:") && strstr(fix, cgi) && strstr(fix, cci) && aside, what);
	}
	_cleanup_free_ char *fix = lx_mig_recreate_fix(&h, "101", 0, 15, 0);
	ok(strstr(fix, "-cgi PROFILE:START`") && strstr(fix, "START is the placement it had"),
	   "an ID past 14: START left to the user");
	lx_host_free(&h);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s EXAMPLES_DIR\n", argv[0]);
		return 2;
	}
	examples = argv[1];
	test_names();
	test_table();
	test_host();
	test_plan();
	test_nvsmi();
	test_plan_by_uuid();
	test_snapshot_uuids();
	test_current();
	test_recreate();
	return tap_done();
}
