/* The DRM GPUs' firmware and amdkfd (src/host/firmware.c, src/doctor/
 * firmware.c). The answers are written by hand from the kernel's sources:
 * each message as the driver's format string prints it (or a real line of
 * tests/doctor/kmsg), the firmware loader's directories and suffix order
 * (drivers/base/firmware_loader/main.c fw_path[], _request_firmware()),
 * amdkfd's node properties (kfd_topology.c node_show: "%s %u" lines;
 * location_id = pci_dev_id(): bus << 8 | devfn). */
#include "lxgpu/doctor.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_file(const char *dir, const char *rel, const char *text)
{
	_cleanup_free_ char *path = lx_path_join(dir, rel);
	_cleanup_free_ char *parent = lx_xstrdup(path);
	for (char *p = parent + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(parent, 0755);
			*p = '/';
		}
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static void test_names(void)
{
	static const struct {
		const char *name;
		bool valid;
	} cases[] = {
		{"amdgpu/psp_13_0_0_toc.bin", true},
		{"i915/tgl_guc_70.bin", true},
		{"amdgpu/../../etc/shadow", false},
		{"../amdgpu/x.bin", false},
		{"/etc/shadow", false},
		{"amdgpu//x.bin", false},
		{"amdgpu/./x.bin", false},
		{"amdgpu/x.bin/", false},
		{"amdgpu/x bin", false},
		{"amdgpu/x\\bin", false},
		{"", false},
		{"..", false},
		{"a..b/c", true},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		_cleanup_free_ char *what = lx_xasprintf("firmware name '%s': %s", cases[i].name,
							 cases[i].valid ? "looked up" : "refused");
		ok(lx_firmware_name_valid(cases[i].name) == cases[i].valid, what);
	}
	_cleanup_free_ char *long_name = calloc(1, 300);
	memset(long_name, 'a', 256);
	ok(!lx_firmware_name_valid(long_name), "a name of 256 bytes: refused (the loader's names are shorter)");
}

/* Each message form as its source prints it: driver, GPU, file, error. */
static void test_requests(void)
{
	static const char *const log =
		/* firmware_loader/main.c: "Direct firmware load for %s failed with error %d" */
		"[    3.576634] amdgpu 0000:04:00.0: Direct firmware load for amdgpu/psp_13_0_8_toc.bin failed with error -2\n"
		/* intel_uc_fw.c (6.2+): gt_probe_error(gt, "%s firmware %s: fetch failed %pe\n") with the
		 * GT prefix, CONFIG_SYMBOLIC_ERRNAME */
		"[    3.701224] i915 0000:00:02.0: [drm] *ERROR* GT0: GuC firmware i915/tgl_guc_70.bin: fetch failed -ENOENT\n"
		/* older: drm_notice(.., "%s firmware %s: fetch failed with error %d\n") */
		"[    3.701229] i915 0000:00:02.0: [drm] HuC firmware i915/tgl_huc.bin: fetch failed with error -2\n"
		/* another error than ENOENT: kept, with its number (-ENOEXEC: -8) */
		"[    3.70123] xe 0000:03:00.0: [drm] GuC firmware xe/lnl_guc_70.bin: fetch failed -ENOEXEC\n"
		/* xe_uc_fw.c: "... fetch failed with error %pe" (public-heldout/xe-bmg-guc-missing.log) */
		"kernel: xe 0000:0c:00.0: [drm] Tile0: GT0: GuC firmware xe/bmg_guc_70.bin: fetch failed with error -ENOENT\n"
		/* -EAGAIN (public-heldout-2/i2-glk-guc-eagain.log): its number */
		"[  346.859829] i915 0000:00:02.0: [drm] *ERROR* GT0: GuC firmware i915/glk_guc_70.1.1.bin: fetch failed -EAGAIN\n"
		/* Debian's loader patch: "firmware: failed to load %s (%d)" (i915-dmc-missing.log) */
		"[    3.691893] i915 0000:00:02.0: firmware: failed to load i915/adlp_dmc.bin (-2)\n"
		/* intel_dmc.c: "Failed to load DMC firmware %s (%pe). Disabling runtime power management." */
		"[    3.7] i915 0000:00:02.0: [drm] *ERROR* Failed to load DMC firmware i915/mtl_dmc.bin (-ENOENT). Disabling runtime power management.\n"
		/* older: "Failed to load DMC firmware %s. Disabling runtime power management." */
		"[    3.8] i915 0000:00:02.0: [drm] Failed to load DMC firmware i915/kbl_dmc_ver1_04.bin. Disabling runtime power management.\n"
		/* amdgpu's IP blocks: "gfx11: Failed to load firmware \"%s\"" */
		"[    3.9] amdgpu 0000:03:00.0: amdgpu: gfx11: Failed to load firmware \"amdgpu/gc_11_0_0_imu.bin\"\n"
		/* the same file again (another GPU): one request */
		"[    4.0] amdgpu 0000:05:00.0: Direct firmware load for amdgpu/psp_13_0_8_toc.bin failed with error -2\n"
		/* not ours: nvidia's GSP (its own rows), an optional amdgpu file, names that climb */
		"[    4.1] nvidia 0000:41:00.0: Direct firmware load for nvidia/570.86.15/gsp_ga10x.bin failed with error -2\n"
		"[    4.2] amdgpu 0000:03:00.0: [drm] Optional firmware \"amdgpu/gc_11_0_0_rlc_1.bin\" was not found\n"
		"[    4.3] amdgpu 0000:03:00.0: Direct firmware load for amdgpu/../../etc/shadow failed with error -2\n"
		"[    4.4] amdgpu 0000:03:00.0: Direct firmware load for /etc/shadow failed with error -2\n";
	static const struct {
		const char *name, *driver, *gpu;
		int error;
	} want[] = {
		{"amdgpu/psp_13_0_8_toc.bin", "amdgpu", "0000:04:00.0", -2},
		{"i915/tgl_guc_70.bin", "i915", "0000:00:02.0", -2},
		{"i915/tgl_huc.bin", "i915", "0000:00:02.0", -2},
		{"xe/lnl_guc_70.bin", "xe", "0000:03:00.0", -8},
		{"xe/bmg_guc_70.bin", "xe", "0000:0c:00.0", -2},
		{"i915/glk_guc_70.1.1.bin", "i915", "0000:00:02.0", -11},
		{"i915/adlp_dmc.bin", "i915", "0000:00:02.0", -2},
		{"i915/mtl_dmc.bin", "i915", "0000:00:02.0", -2},
		{"i915/kbl_dmc_ver1_04.bin", "i915", "0000:00:02.0", 0},
		{"amdgpu/gc_11_0_0_imu.bin", "amdgpu", "0000:03:00.0", 0},
	};
	struct lx_kmsg k = {0};
	lx_kmsg_parse_text("test", log, strlen(log), &k);
	struct lx_fw_request *r;
	size_t n;
	lx_kmsg_firmware_requests(&k, &r, &n);
	int_eq((long long)n, (long long)(sizeof(want) / sizeof(want[0])),
	       "every DRM driver's failed firmware once, not nvidia's, not the optional one, not '..'");
	for (size_t i = 0; i < n && i < sizeof(want) / sizeof(want[0]); i++) {
		_cleanup_free_ char *what = lx_xasprintf("request %zu: %s", i, want[i].name);
		ok(strcmp(r[i].name, want[i].name) == 0 && strcmp(r[i].driver, want[i].driver) == 0 &&
			   r[i].gpu && strcmp(r[i].gpu, want[i].gpu) == 0 && r[i].error == want[i].error,
		   what);
		if (strcmp(r[i].name, want[i].name) != 0)
			printf("#   got %s %s %s %d\n", r[i].name, r[i].driver, r[i].gpu ? r[i].gpu : "-",
			       r[i].error);
	}
	lx_fw_requests_free(r, n);
	lx_kmsg_free(&k);
}

static struct lx_gpu amd_gpu(const char *bdf, const char *driver)
{
	struct lx_gpu g = {.bdf = lx_xstrdup(bdf), .vendor_id = LX_AMD_VENDOR_ID, .device_id = 0x744c,
			   .class_code = 0x030000, .minor = LX_UNKNOWN, .numa_node = LX_UNKNOWN,
			   .iommu_group = LX_UNKNOWN, .driver = lx_xstrdup(driver)};
	return g;
}

static const struct lx_fw_request *request(const struct lx_host *h, const char *name)
{
	for (size_t i = 0; i < h->drm_checks.n_requests; i++)
		if (strcmp(h->drm_checks.requests[i].name, name) == 0)
			return &h->drm_checks.requests[i];
	return NULL;
}

/* The loader's search on a tree of the test's own: fw_path[] order, the
 * name before .zst before .xz, a compressed form only with its config. */
static void test_lookup(void)
{
	char root[] = "/tmp/test-firmware-XXXXXX";
	if (!mkdtemp(root))
		abort();
	_cleanup_free_ char *fwdir = lx_path_join(root, "lib/firmware");
	_cleanup_free_ char *nvidia = lx_path_join(fwdir, "nvidia");
	_cleanup_free_ char *sys = lx_path_join(root, "sys");
	_cleanup_free_ char *boot = lx_path_join(root, "boot");
	_cleanup_free_ char *proc = lx_path_join(root, "proc");
	_cleanup_free_ char *custom = lx_path_join(root, "custom");
	write_file(fwdir, "amdgpu/in_root.bin", "x");
	write_file(fwdir, "updates/6.17.2-1-pve/amdgpu/both.bin", "x");
	write_file(fwdir, "amdgpu/both.bin", "x");
	write_file(fwdir, "6.17.2-1-pve/amdgpu/in_release.bin", "x");
	write_file(fwdir, "amdgpu/zst_only.bin.zst", "x");
	write_file(fwdir, "amdgpu/xz_only.bin.xz", "x");
	write_file(fwdir, "amdgpu/zst_and_xz.bin.xz", "x");
	write_file(fwdir, "updates/amdgpu/zst_and_xz.bin.zst", "x");
	write_file(fwdir, "amdgpu/a_dir.bin/x", "x"); /* a directory is no file */
	write_file(custom, "amdgpu/custom.bin", "x");
	_cleanup_free_ char *custom_nl = lx_xasprintf("%s\n", custom);
	write_file(sys, "module/firmware_class/parameters/path", custom_nl);
	/* amdkfd: the CPU's node, a GPU node for 0000:03:00.0 (location_id
	 * 768) and one for 0001:05:1f.7 (domain 1, 5 << 8 | 0x1f << 3 | 7) */
	write_file(sys, "class/kfd/kfd/topology/nodes/0/properties",
		   "cpu_cores_count 16\nsimd_count 0\nlocation_id 0\ndomain 0\n");
	write_file(sys, "class/kfd/kfd/topology/nodes/1/properties",
		   "cpu_cores_count 0\nsimd_count 192\nlocation_id 768\ndomain 0\n");
	write_file(sys, "class/kfd/kfd/topology/nodes/2/properties",
		   "cpu_cores_count 0\nsimd_count 64\nlocation_id 1535\ndomain 1\n");
	mkdir(proc, 0755);
	struct lx_scan_paths paths;
	lx_scan_paths_default(&paths);
	paths.firmware = nvidia;
	paths.sys = sys;
	paths.boot = boot;
	paths.proc = proc;

	struct lx_host h = {.kernel = lx_xstrdup("6.17.2-1-pve")};
	h.gpus = lx_xcalloc(4, sizeof(*h.gpus));
	h.gpus[h.n_gpus++] = amd_gpu("0000:03:00.0", "amdgpu");
	h.gpus[h.n_gpus++] = amd_gpu("0000:04:00.0", "amdgpu");
	h.gpus[h.n_gpus++] = amd_gpu("0001:05:1f.7", "amdgpu");
	h.gpus[h.n_gpus++] = amd_gpu("0000:00:02.0", "i915");
	static const char *const names[] = {"amdgpu/in_root.bin", "amdgpu/both.bin",
					    "amdgpu/in_release.bin", "amdgpu/zst_only.bin",
					    "amdgpu/xz_only.bin", "amdgpu/zst_and_xz.bin",
					    "amdgpu/a_dir.bin", "amdgpu/custom.bin",
					    "amdgpu/missing.bin", "amdgpu/../../etc/passwd"};
	struct lx_fw_request q[10] = {0};
	for (size_t i = 0; i < 10; i++)
		q[i] = (struct lx_fw_request){.name = (char *)names[i], .driver = (char *)"amdgpu",
					      .gpu = (char *)"0000:03:00.0", .error = -2};

	/* no kernel config: compressed forms taken as readable */
	lx_host_drm_check(&paths, &h, q, 10);
	const struct lx_fw_request *r;
	ok(h.drm_checks.checked && h.drm_checks.n_requests == 9, "nine requests kept, the one with '..' not");
	_cleanup_free_ char *e1 = lx_path_join(fwdir, "amdgpu/in_root.bin");
	ok((r = request(&h, "amdgpu/in_root.bin")) && r->found && strcmp(r->found, e1) == 0,
	   "a file in /lib/firmware: found there");
	_cleanup_free_ char *e2 = lx_path_join(fwdir, "updates/6.17.2-1-pve/amdgpu/both.bin");
	ok((r = request(&h, "amdgpu/both.bin")) && r->found && strcmp(r->found, e2) == 0,
	   "in updates/<release> and in /lib/firmware: updates/<release> first");
	_cleanup_free_ char *e3 = lx_path_join(fwdir, "6.17.2-1-pve/amdgpu/in_release.bin");
	ok((r = request(&h, "amdgpu/in_release.bin")) && r->found && strcmp(r->found, e3) == 0,
	   "in /lib/firmware/<release>: found");
	_cleanup_free_ char *e4 = lx_path_join(fwdir, "updates/amdgpu/zst_and_xz.bin.zst");
	ok((r = request(&h, "amdgpu/zst_and_xz.bin")) && r->found && strcmp(r->found, e4) == 0,
	   ".xz in /lib/firmware, .zst in updates: .zst (every directory) before .xz");
	ok((r = request(&h, "amdgpu/a_dir.bin")) && !r->found, "a directory of the name: not found");
	_cleanup_free_ char *e5 = lx_path_join(custom, "amdgpu/custom.bin");
	ok((r = request(&h, "amdgpu/custom.bin")) && r->found && strcmp(r->found, e5) == 0,
	   "firmware_class.path (its newline dropped): searched first");
	ok((r = request(&h, "amdgpu/missing.bin")) && !r->found && !r->unreadable, "missing: nowhere");
	ok(h.drm_checks.missing_dirs.n == 1 && strcmp(h.drm_checks.missing_dirs.items[0], "i915") == 0,
	   "amdgpu/ present, i915/ missing for the GPU on i915");
	ok(h.drm_checks.kfd_topology && h.drm_checks.kfd_missing.n == 1 &&
		   strcmp(h.drm_checks.kfd_missing.items[0], "0000:04:00.0") == 0,
	   "kfd's nodes: 768 is 0000:03:00.0, domain 1 location 1535 is 0001:05:1f.7; 0000:04:00.0 has none");

	/* the kernel without the compressed loaders */
	write_file(boot, "config-6.17.2-1-pve",
		   "CONFIG_FW_LOADER=y\n# CONFIG_FW_LOADER_COMPRESS_ZSTD is not set\n"
		   "CONFIG_FW_LOADER_COMPRESS_XZ=y\n");
	lx_host_drm_check(&paths, &h, q, 10);
	_cleanup_free_ char *zst = lx_path_join(fwdir, "amdgpu/zst_only.bin.zst");
	ok((r = request(&h, "amdgpu/zst_only.bin")) && !r->found && r->unreadable &&
		   strcmp(r->unreadable, zst) == 0,
	   "only .zst, CONFIG_FW_LOADER_COMPRESS_ZSTD not set: missing, the .zst unreadable");
	ok((r = request(&h, "amdgpu/xz_only.bin")) && r->found && lx_str_ends_with(r->found, ".xz"),
	   "only .xz, CONFIG_FW_LOADER_COMPRESS_XZ=y: found");
	ok((r = request(&h, "amdgpu/zst_and_xz.bin")) && r->found && lx_str_ends_with(r->found, ".xz"),
	   ".zst unreadable, .xz readable: the .xz");
	/* 5.3 to 5.18: CONFIG_FW_LOADER_COMPRESS alone was xz */
	write_file(boot, "config-6.17.2-1-pve", "CONFIG_FW_LOADER=y\nCONFIG_FW_LOADER_COMPRESS=y\n");
	lx_host_drm_check(&paths, &h, q, 10);
	ok((r = request(&h, "amdgpu/xz_only.bin")) && r->found, "CONFIG_FW_LOADER_COMPRESS=y (5.3-5.18): .xz read");
	ok((r = request(&h, "amdgpu/zst_only.bin")) && !r->found, "... and no .zst");

	/* doctor's findings: a missing file for a GPU on amdgpu is a warning,
	 * for one amdgpu does not drive now (its init failed) an error */
	struct lx_findings out = {0};
	lx_doctor_drm(&h, NULL, &out);
	size_t missing = 0, added = 0, dirs = 0, kfd = 0;
	for (size_t i = 0; i < out.n; i++) {
		missing += out.items[i].code == LXG170_GPU_FIRMWARE_STILL_MISSING;
		added += out.items[i].code == LXG171_GPU_FIRMWARE_ADDED_LATER;
		dirs += out.items[i].code == LXG172_GPU_FIRMWARE_DIR_MISSING;
		kfd += out.items[i].code == LXG173_KFD_NO_NODE;
	}
	/* missing: zst_only, a_dir, missing; found: in_root, both, in_release,
	 * xz_only, zst_and_xz, custom */
	ok(missing == 3 && added == 6 && dirs == 1 && kfd == 1, "3 LXG170, 6 LXG171, 1 LXG172, 1 LXG173");
	lx_findings_free(&out);
	/* the log's line for a file the live check judged is said once, by
	 * LXG170/LXG171; a file the check did not judge keeps its LXG140 */
	static const char log[] =
		"[    4.101] amdgpu 0000:03:00.0: Direct firmware load for amdgpu/missing.bin failed with error -2\n"
		"[    4.102] amdgpu 0000:03:00.0: Direct firmware load for amdgpu/in_root.bin failed with error -2\n"
		"[    4.103] amdgpu 0000:03:00.0: Direct firmware load for amdgpu/not_asked.bin failed with error -2\n";
	struct lx_kmsg k;
	lx_kmsg_parse_text("test", log, sizeof(log) - 1, &k);
	struct lx_doctor_input in = {.host = &h, .kmsg = &k};
	struct lx_error err = {0};
	ok(lx_doctor_host(&in, &out, &err) == 0, "doctor on the host and its log");
	size_t logged = 0, live_missing = 0, live_added = 0;
	bool unjudged = false;
	for (size_t i = 0; i < out.n; i++) {
		const char *msg = out.items[i].message;
		if (out.items[i].code == LXG140_GPU_FIRMWARE_MISSING) {
			logged++;
			unjudged = strstr(msg, "amdgpu/not_asked.bin") != NULL;
		}
		live_missing += out.items[i].code == LXG170_GPU_FIRMWARE_STILL_MISSING &&
				strstr(msg, "amdgpu/missing.bin") != NULL;
		live_added += out.items[i].code == LXG171_GPU_FIRMWARE_ADDED_LATER &&
			      strstr(msg, "amdgpu/in_root.bin") != NULL;
	}
	ok(logged == 1 && unjudged, "LXG140 only for the file the live check did not judge");
	ok(live_missing == 1 && live_added == 1, "the judged files: LXG170 and LXG171, once each");
	lx_findings_free(&out);
	lx_kmsg_free(&k);
	free(h.gpus[0].driver);
	h.gpus[0].driver = NULL; /* amdgpu let go of 0000:03:00.0 */
	lx_doctor_drm(&h, NULL, &out);
	size_t errors = 0, warnings = 0;
	for (size_t i = 0; i < out.n; i++)
		if (out.items[i].code == LXG170_GPU_FIRMWARE_STILL_MISSING) {
			errors += out.items[i].severity == LX_SEVERITY_ERROR;
			warnings += out.items[i].severity != LX_SEVERITY_ERROR;
		}
	ok(errors == 3 && warnings == 0, "the GPU is not on amdgpu now: each LXG170 is an error");
	lx_findings_free(&out);
	lx_drm_checks_free(&h.drm_checks);
	lx_doctor_drm(&h, NULL, &out);
	ok(out.n == 0, "checks that did not run (a scan alone, an older snapshot): nothing");
	lx_findings_free(&out);
	lx_host_free(&h);
	_cleanup_free_ char *rm = lx_xasprintf("rm -rf '%s'", root);
	if (system(rm) != 0)
		abort();
}

int main(void)
{
	test_names();
	test_requests();
	test_lookup();
	return tap_done();
}
