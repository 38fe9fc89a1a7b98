/* Snapshots: round trips of every example host, and every kind of bad input. */
#include "lxgpu/host.h"
#include "lxgpu/report.h"
#include "tap.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/lxgpu-snap-XXXXXX";

static char *read_all(const char *path)
{
	char *data = NULL;
	struct lx_error err = {0};
	if (lx_read_file(path, 1 << 24, &data, NULL, &err) < 0) {
		printf("# %s\n", err.message);
		lx_error_clear(&err);
	}
	return data;
}

static void test_round_trip(const char *path)
{
	struct lx_host h1, h2;
	struct lx_error err = {0};
	_cleanup_free_ char *original = read_all(path);
	if (!ok(lx_snapshot_load(path, &h1, &err) == 0, path)) {
		printf("# %s\n", err.message);
		lx_error_clear(&err);
		return;
	}
	_cleanup_free_ char *yaml1 = lx_snapshot_to_yaml(&h1);
	str_eq(yaml1, original, "example is in canonical form (load, save: same bytes)");
	_cleanup_free_ char *out = lx_path_join(tmpdir, "rt.yaml");
	ok(lx_snapshot_save(out, &h1, NULL, &err) == 0, "save");
	ok(lx_snapshot_load(out, &h2, &err) == 0, "load the saved copy");
	_cleanup_free_ char *yaml2 = lx_snapshot_to_yaml(&h2);
	str_eq(yaml2, yaml1, "save, load, save is byte-identical");
	lx_host_free(&h2);

	/* The bundle carries the same model. */
	struct lx_evidence ev = {0};
	lx_evidence_add(&ev, "/proc/devices", "Character devices:\n", 19);
	_cleanup_free_ char *bundle = lx_path_join(tmpdir, "rt.tar.gz");
	ok(lx_snapshot_save(bundle, &h1, &ev, &err) == 0, "save a bundle");
	ok(lx_snapshot_load(bundle, &h2, &err) == 0, "load the bundle");
	_cleanup_free_ char *yaml3 = lx_snapshot_to_yaml(&h2);
	str_eq(yaml3, yaml1, "bundle round trip");
	lx_host_free(&h2);
	lx_evidence_free(&ev);
	lx_host_free(&h1);
	lx_error_clear(&err);
}

static void expect_error(const char *name, const char *text, const char *needle)
{
	struct lx_host h;
	struct lx_error err = {0};
	int rc = lx_snapshot_parse(name, text, strlen(text), &h, &err);
	ok(rc < 0, name);
	if (!ok(err.message && strstr(err.message, needle), "message names file, line and field"))
		printf("#   message: %s\n#   wanted:  %s\n", err.message ? err.message : "(none)",
		       needle);
	if (rc == 0)
		lx_host_free(&h);
	lx_error_clear(&err);
}

/* Replace the first occurrence of `from` in `text` with `to`. */
static char *edit(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at)
		return lx_xstrdup(text);
	return lx_xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void test_bad_snapshots(const char *good_path)
{
	_cleanup_free_ char *good = read_all(good_path);
	struct {
		const char *name, *from, *to, *needle;
	} cases[] = {
		{"wrong-type.yaml", "  minor: 0\n", "  minor: zero\n",
		 "wrong-type.yaml:29: field 'gpus[0].minor': must be an integer or null, not a string"},
		{"unknown-field.yaml", "  numa_node: 0\n", "  numa_node: 0\n  colour: green\n",
		 "unknown-field.yaml:32: field 'gpus[0].colour': unknown field"},
		{"bad-bdf.yaml", "bdf: \"0000:18:00.0\"", "bdf: \"18-00\"",
		 "bad-bdf.yaml:22: field 'gpus[0].bdf': '18-00' is not a PCI address"},
		{"bad-major.yaml", "- major: 511\n  name: nvidia-uvm\n",
		 "- major: 5110\n  name: nvidia-uvm\n",
		 "bad-major.yaml:635: field 'majors[46].major': 5110 is out of range (0..4095)"},
		{"major-name.yaml", "- major: 511\n  name: nvidia-uvm\n", "- major: 511\n  name: \"\"\n",
		 "major-name.yaml:636: field 'majors[46].name': must be a name"},
		{"major-field.yaml", "- major: 511\n", "- major: 511\n  minor: 0\n",
		 "major-field.yaml:636: field 'majors[46].minor': unknown field"},
		{"majors-map.yaml", "majors:\n- major: 1\n", "majors:\n  mem: 1\nx:\n- major: 1\n",
		 "field 'majors': must be a list"},
		{"complete.yaml", "majors_complete: true\n", "majors_complete: yes please\n",
		 "field 'majors_complete': must be a boolean"},
		{"bad-mode.yaml", "mode: \"0666\"", "mode: \"rw-rw-rw-\"",
		 "field 'nodes[0].mode': 'rw-rw-rw-' is not an octal mode"},
		{"bad-path.yaml", "path: /dev/nvidia-uvm\n", "path: /etc/shadow\n",
		 "field 'nodes[0].path': '/etc/shadow' is not a path under /dev/"},
		{"schema.yaml", "schema: 3\n", "schema: 4\n",
		 "schema.yaml:2: field 'schema': version 4 is not supported (this lxgpu reads 1 to 3)"},
		{"schema-1-complete.yaml", "schema: 3\n", "schema: 1\n",
		 "field 'majors': must be a mapping of name: number"},
		{"no-gpus.yaml", "gpus:\n", "gpuz:\n", "field 'gpus': missing"},
		{"dup.yaml", "bdf: \"0000:39:00.0\"", "bdf: \"0000:18:00.0\"",
		 "field 'gpus[1].bdf': '0000:18:00.0' is listed twice"},
		{"index.yaml", "- index: 1\n  bdf:", "- index: 5\n  bdf:", "field 'gpus[1].index': is 5"},
		{"order.yaml", "bdf: \"0000:39:00.0\"", "bdf: \"0000:01:00.0\"",
		 "order.yaml:65: field 'gpus[1].bdf': GPUs must be listed in PCI address order"},
		{"cgroup.yaml", "cgroup: v2\n", "cgroup: v3\n", "'v3' is not one of v1, v2"},
		{"lxc.yaml", "cgroup: v2\n", "cgroup: v2\nlxc_version: lxc-7\n",
		 "lxc.yaml:6: field 'lxc_version': 'lxc-7' is not an LXC version"},
		{"pve-container.yaml", "cgroup: v2\n", "cgroup: v2\npve_container_version: 6.1.6-1\n",
		 "pve-container.yaml:6: field 'pve_container_version': '6.1.6-1' is not a pve-container "
		 "version"},
		{"flavor.yaml", "flavor: open\n", "flavor: closed\n", "'closed' is not one of open"},
		{"list.yaml", "gpus:\n", "gpus: 7\nx:\n", "field 'gpus': must be a list"},
		{"iommu-type.yaml", "  iommu_type: identity\n", "  iommu_type: passthrough\n",
		 "iommu-type.yaml:33: field 'gpus[0].iommu_type': 'passthrough' is not one of none, "
		 "identity, DMA, DMA-FQ"},
		{"iommu-none.yaml", "  iommu_type: identity\n", "  iommu_type: none\n",
		 "field 'gpus[0].iommu_type': 'none' does not fit iommu_group"},
		{"bar-hex.yaml", "    start: \"0x0000000090000000\"", "    start: \"90000000\"",
		 "field 'gpus[0].bars[0].start': '90000000' is not a hex number"},
		{"bar-index.yaml", "  - index: 2\n", "  - index: 7\n",
		 "field 'gpus[0].bars[2].index': 7 is out of range (0..5)"},
		{"bar-twice.yaml", "  - index: 2\n", "  - index: 1\n",
		 "field 'gpus[0].bars[2].index': BAR 1 is listed twice"},
		{"bars-type.yaml", "  bars:\n  - index: 0\n", "  bars: 3\n  x:\n  - index: 0\n",
		 "field 'gpus[0].bars': must be a list or null"},
		{"acs-state.yaml", "  acs: absent\n", "  acs: maybe\n",
		 "field 'bridges[1].acs': 'maybe' is not one of present, absent"},
		{"acs-regs.yaml", "  acs: present\n  acs_capability: \"0x001f\"\n",
		 "  acs: absent\n  acs_capability: \"0x001f\"\n", "only for acs: present"},
		{"acs-missing.yaml", "  acs_capability: \"0x001f\"\n  acs_control: \"0x001d\"\n",
		 "  acs_capability: \"0x001f\"\n  acs_control: null\n",
		 "present needs acs_capability and acs_control"},
		{"acs-hex.yaml", "  acs_control: \"0x001d\"\n", "  acs_control: \"0x1001d\"\n",
		 "field 'bridges[0].acs_control': '0x1001d' is not a hex number"},
		{"bridge-twice.yaml", "- bdf: \"0000:16:00.0\"\n  acs:", "- bdf: \"0000:15:01.0\"\n  acs:",
		 "field 'bridges[1].bdf': '0000:15:01.0' is listed twice"},
		/* issue 28 item 11: the end marker, and parts that no host shows together */
		{"no-end.yaml", "end: true\n", "", "no-end.yaml:542: no end marker ('end: true'"},
		{"end-false.yaml", "end: true\n", "end: false\n", "end-false.yaml:637: no end marker"},
		{"uvm-major-gone.yaml", "- major: 511\n  name: nvidia-uvm\n", "",
		 "uvm-major-gone.yaml:543: field 'majors': the module nvidia_uvm is loaded (driver.modules) "
		 "but the character table, whole (majors_complete), has no 'nvidia-uvm' major"},
		{"nvidia-major-gone.yaml", "- major: 195\n  name: nvidia\n", "- major: 195\n  name: nv\n",
		 "has no 'nvidia' major"},
		{"minor-twice.yaml", "  minor: 1\n", "  minor: 0\n",
		 "minor-twice.yaml:72: field 'gpus[1].minor': 0 is also gpus[0]'s"},
		{"bridge-off-path.yaml", "- bdf: \"0000:15:01.0\"\n  acs:", "- bdf: \"0000:14:01.0\"\n  acs:",
		 "field 'bridges[0].bdf': '0000:14:01.0' is on no GPU's pcie_path"},
	};
	/* The host's LXC, when known, right after cgroup: kept as written. */
	_cleanup_free_ char *lxc7 = edit(good, "cgroup: v2\n", "cgroup: v2\nlxc_version: \"7.0.0\"\n");
	struct lx_host h;
	struct lx_error err = {0};
	if (ok(lx_snapshot_parse("lxc7.yaml", lxc7, strlen(lxc7), &h, &err) == 0, "lxc_version 7.0.0 loads")) {
		ok(lx_host_lxc_major(&h) == 7, "its major is 7");
		_cleanup_free_ char *yaml = lx_snapshot_to_yaml(&h);
		str_eq(yaml, lxc7, "lxc_version is saved where it was read");
		lx_host_free(&h);
	}
	lx_error_clear(&err);
	/* pve-container 6.0.4 (debian/changelog: "implement device hotplug")
	 * adds a new devN to a running container; 6.0.3 does not. */
	const char *const pve[][2] = {{"6.0.3", "0"}, {"6.0.4", "1"}, {"6.1.6", "1"}, {"6.0.10", "1"}};
	for (size_t i = 0; i < 4; i++) {
		_cleanup_free_ char *to = lx_xasprintf("cgroup: v2\npve_container_version: \"%s\"\n", pve[i][0]);
		_cleanup_free_ char *text = edit(good, "cgroup: v2\n", to);
		if (!ok(lx_snapshot_parse("pve.yaml", text, strlen(text), &h, &err) == 0,
			"pve_container_version loads"))
			break;
		ok(lx_host_pve_hotplugs_devn(&h) == (pve[i][1][0] == '1'), "devN hotplug by version");
		_cleanup_free_ char *yaml = lx_snapshot_to_yaml(&h);
		str_eq(yaml, text, "pve_container_version is saved where it was read");
		lx_host_free(&h);
	}
	lx_error_clear(&err);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		_cleanup_free_ char *text = edit(good, cases[i].from, cases[i].to);
		ok(strcmp(text, good) != 0, "the edit applies");
		expect_error(cases[i].name, text, cases[i].needle);
	}
	/* Truncated in the middle of the GPU list. */
	_cleanup_free_ char *truncated = lx_xstrndup(good, (size_t)(strstr(good, "nodes:") - good) / 2);
	expect_error("truncated.yaml", truncated, "truncated.yaml:");
	expect_error("scalar.yaml", "just a string\n", "must be a mapping");
	expect_error("empty.yaml", "", "empty file");
}

static char *write_archive(const char *name, const char *entry, const char *data, int type)
{
	char *path = lx_path_join(tmpdir, name);
	struct archive *a = archive_write_new();
	archive_write_add_filter_gzip(a);
	archive_write_set_format_pax_restricted(a);
	archive_write_open_filename(a, path);
	struct archive_entry *e = archive_entry_new();
	archive_entry_set_pathname(e, entry);
	archive_entry_set_filetype(e, (unsigned)type);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, type == AE_IFREG ? (la_int64_t)strlen(data) : 0);
	if (type == AE_IFLNK)
		archive_entry_set_symlink(e, data);
	archive_write_header(a, e);
	if (type == AE_IFREG)
		archive_write_data(a, data, strlen(data));
	archive_entry_free(e);
	archive_write_close(a);
	archive_write_free(a);
	return path;
}

static void expect_load_error(const char *path, const char *needle, const char *what)
{
	struct lx_host h;
	struct lx_error err = {0};
	int rc = lx_snapshot_load(path, &h, &err);
	ok(rc < 0, what);
	if (!ok(err.message && strstr(err.message, needle), "message says why"))
		printf("#   message: %s\n#   wanted:  %s\n", err.message ? err.message : "(none)",
		       needle);
	if (rc == 0)
		lx_host_free(&h);
	lx_error_clear(&err);
}

static void test_bad_bundles(const char *good_path)
{
	_cleanup_free_ char *good = read_all(good_path);
	_cleanup_free_ char *dotdot = write_archive("dotdot.tar.gz", "../host.yaml", good, AE_IFREG);
	expect_load_error(dotdot, "unsafe path", "bundle with a ../ entry");
	_cleanup_free_ char *abs = write_archive("abs.tar.gz", "/etc/host.yaml", good, AE_IFREG);
	expect_load_error(abs, "unsafe path", "bundle with an absolute entry");
	_cleanup_free_ char *link = write_archive("link.tar.gz", "host.yaml", "/etc/passwd", AE_IFLNK);
	expect_load_error(link, "not a regular file", "bundle with a symlink");
	_cleanup_free_ char *none = write_archive("none.tar.gz", "other.txt", "x", AE_IFREG);
	expect_load_error(none, "has no host.yaml", "bundle without host.yaml");
	_cleanup_free_ char *bad = write_archive("bad.tar.gz", "host.yaml", "gpus: [\n", AE_IFREG);
	expect_load_error(bad, "bad.tar.gz:host.yaml:", "bundle with broken YAML names the entry");

	_cleanup_free_ char *corrupt = lx_path_join(tmpdir, "corrupt.tar.gz");
	struct lx_error err = {0};
	lx_write_file_atomic(corrupt, "\x1f\x8b\x08\x00garbage", 12, 0644, &err);
	expect_load_error(corrupt, "corrupt.tar.gz", "corrupt gzip");
	_cleanup_free_ char *missing = lx_path_join(tmpdir, "missing.yaml");
	expect_load_error(missing, "missing.yaml", "missing file");
	struct lx_host h = {0};
	ok(lx_snapshot_save(missing, &h, NULL, &err) == 0, "an empty model saves");
	_cleanup_free_ char *unknown = lx_path_join(tmpdir, "snap.json");
	ok(lx_snapshot_save(unknown, &h, NULL, &err) < 0 && strstr(err.message, "FILE.tar.gz"),
	   "unknown snapshot extension is refused");
	lx_error_clear(&err);
}

/* A schema 1 snapshot (nvidia* and drm majors only) still loads; its table
 * is marked incomplete, and stays so when saved as schema 2. */
static void test_schema_1(const char *path)
{
	struct lx_host h, again;
	struct lx_error err = {0};
	if (!ok(lx_snapshot_load(path, &h, &err) == 0, "a schema 1 snapshot loads")) {
		printf("# %s\n", err.message);
		lx_error_clear(&err);
		return;
	}
	ok(!h.majors_complete, "its majors are not the whole table");
	int_eq((long long)h.n_majors, 6, "the six majors it lists");
	int_eq(lx_host_major_by_name(&h, "nvidia-uvm"), 511, "uvm major");
	int_eq(lx_host_gpu_major(&h), 195, "GPU major");
	str_eq(lx_host_major_name(&h, 195), "nvidia", "first name for 195");
	str_eq(lx_host_major_name(&h, 242), NULL, "242: not listed (unknown, not free)");
	int_eq((long long)h.n_gpus, 8, "its GPUs");
	/* Older snapshots have no PCI facts: unknown, never guessed. */
	int_eq((long long)h.n_bridges, 24, "every bridge on a GPU's path is listed");
	ok(h.bridges[0].acs == LX_ACS_UNKNOWN, "ACS of a bridge: unknown");
	ok(!h.gpus[0].bars_known && h.gpus[0].n_bars == 0, "BARs: unknown");
	ok(h.gpus[0].iommu_group == 40 && h.gpus[0].iommu_type == LX_IOMMU_UNKNOWN,
	   "a group's domain type: unknown");
	_cleanup_free_ char *yaml = lx_snapshot_to_yaml(&h);
	ok(strstr(yaml, "\nschema: 3\n") && strstr(yaml, "\nmajors_complete: false\n") &&
		   lx_str_ends_with(yaml, "\nend: true\n"),
	   "saved as schema 3, marked incomplete, the end marker last");
	ok(lx_snapshot_parse("resaved.yaml", yaml, strlen(yaml), &again, &err) == 0,
	   "the resaved copy loads");
	ok(!again.majors_complete && again.n_majors == 6, "and is still incomplete");
	lx_host_free(&again);
	lx_host_free(&h);

	struct lx_host live;
	const char *minimal = "schema: 2\ndriver: {}\ngpus: []\nnodes: []\n"
			      "majors:\n- major: 242\n  name: hidraw\n";
	ok(lx_snapshot_parse("minimal.yaml", minimal, strlen(minimal), &live, &err) == 0,
	   "schema 2 without majors_complete loads");
	ok(live.majors_complete, "and its table counts as complete");
	str_eq(lx_host_major_name(&live, 242), "hidraw", "242 is hidraw there");
	lx_host_free(&live);
	const char *no_group = "schema: 2\ndriver: {}\nnodes: []\nmajors: []\n"
			       "gpus:\n- bdf: \"0000:01:00.0\"\n  iommu_group: null\n";
	ok(lx_snapshot_parse("no-group.yaml", no_group, strlen(no_group), &live, &err) == 0 &&
		   live.gpus[0].iommu_type == LX_IOMMU_NONE,
	   "a GPU without an IOMMU group and no iommu_type: no IOMMU");
	lx_host_free(&live);
	/* Before drivers 550.40 the GPU major's name was nvidia-frontend. */
	const char *frontend = "schema: 2\ndriver: {modules: [nvidia]}\ngpus: []\nnodes: []\n"
			       "majors:\n- major: 195\n  name: nvidia-frontend\n";
	ok(lx_snapshot_parse("frontend.yaml", frontend, strlen(frontend), &live, &err) == 0,
	   "nvidia loaded, its major named nvidia-frontend: loads");
	lx_host_free(&live);
	lx_error_clear(&err);
}

/* A snapshot cut short at any line boundary (a full disk, a copy stopped
 * half-way) is refused, naming the file: its end marker is the last line.
 * Every cut of every example, in-process (thousands of cuts). */
static void test_every_cut(const char *path)
{
	_cleanup_free_ char *data = read_all(path);
	if (!ok(data != NULL, "the example reads"))
		return;
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t cuts = 0, refused = 0;
	_cleanup_free_ char *first_bad = NULL;
	for (const char *nl = strchr(data, '\n'); nl && nl[1]; nl = strchr(nl + 1, '\n')) {
		cuts++;
		struct lx_host h;
		struct lx_error err = {0};
		size_t len = (size_t)(nl + 1 - data);
		int rc = lx_snapshot_parse(name, data, len, &h, &err);
		if (rc < 0 && err.message && lx_str_starts_with(err.message, name) &&
		    err.message[strlen(name)] == ':')
			refused++;
		else if (!first_bad)
			first_bad = lx_xasprintf("%zu lines: %s", cuts, err.message ? err.message : "loaded");
		if (rc == 0)
			lx_host_free(&h);
		lx_error_clear(&err);
	}
	_cleanup_free_ char *what =
		lx_xasprintf("%s: each of its %zu cuts at a line boundary refused, naming the file", name, cuts);
	if (!ok(cuts > 10 && refused == cuts, what))
		printf("#   %zu refused; first not: %s\n", refused, first_bad ? first_bad : "-");
}

static void cleanup_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			char *p = lx_path_join(tmpdir, de->d_name);
			unlink(p);
			free(p);
		}
	if (d)
		closedir(d);
	rmdir(tmpdir);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: test-snapshot EXAMPLES_DIR SCHEMA_1_SNAPSHOT\n");
		return 2;
	}
	if (!mkdtemp(tmpdir))
		return 2;
	DIR *d = opendir(argv[1]);
	struct dirent *de;
	struct lx_strv files = {0};
	while (d && (de = readdir(d)))
		if (lx_str_ends_with(de->d_name, ".yaml"))
			lx_strv_push_owned(&files, lx_path_join(argv[1], de->d_name));
	if (d)
		closedir(d);
	lx_strv_sort(&files);
	ok(files.n >= 5, "example hosts found");
	for (size_t i = 0; i < files.n; i++)
		test_round_trip(files.items[i]);
	for (size_t i = 0; i < files.n; i++)
		test_every_cut(files.items[i]);
	_cleanup_free_ char *eight = lx_path_join(argv[1], "pve-8x-rtx-pro-6000.yaml");
	test_bad_snapshots(eight);
	test_bad_bundles(eight);
	test_schema_1(argv[2]);
	lx_strv_free(&files);
	cleanup_tmpdir();
	return tap_done();
}
