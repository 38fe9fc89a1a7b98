/* doctor's kernel log: every catalogue row matches its real line (tests/
 * doctor/kmsg/<id>.log, sources in the README there), no row matches a
 * clean boot, the documentation lists every row, and the log formats and
 * boot boundaries are read as dmesg and journalctl write them. */
#include "lxgpu/doctor.h"
#include "tap.h"

#include <string.h>

static const char *kmsg_dir;

static void parse(const char *text, struct lx_kmsg *k)
{
	lx_kmsg_parse_text("test", text, strlen(text), k);
}

static size_t count_matches(const struct lx_kmsg *k, const struct lx_host *host,
			    struct lx_kmsg_matches *m)
{
	struct lx_error err = {0};
	if (lx_kmsg_match_all(k, host, m, &err) < 0) {
		printf("# %s\n", err.message);
		lx_error_clear(&err);
		return (size_t)-1;
	}
	return m->n;
}

static void test_rows_match_real_lines(void)
{
	size_t n;
	const struct lx_kmsg_entry *rows = lx_kmsg_catalogue(&n);
	for (size_t r = 0; r < n; r++) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s.log", kmsg_dir, rows[r].id);
		struct lx_kmsg k;
		struct lx_error err = {0};
		if (!ok(lx_kmsg_read_file(path, &k, &err) == 0, path)) {
			printf("# %s\n", err.message);
			lx_error_clear(&err);
			continue;
		}
		struct lx_kmsg_matches m;
		bool found = false;
		if (count_matches(&k, NULL, &m) != (size_t)-1)
			for (size_t i = 0; i < m.n; i++)
				found |= m.items[i].entry == &rows[r];
		_cleanup_free_ char *what = lx_xasprintf("row %s matches its real line", rows[r].id);
		ok(found, what);
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
}

static void test_clean_logs(void)
{
	static const char *const clean[] = {"clean-public.log", "clean-this-machine.log"};
	for (size_t c = 0; c < 2; c++) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s", kmsg_dir, clean[c]);
		struct lx_kmsg k;
		struct lx_error err = {0};
		if (!ok(lx_kmsg_read_file(path, &k, &err) == 0, path)) {
			lx_error_clear(&err);
			continue;
		}
		ok(k.n > 10, "the clean log has lines");
		struct lx_kmsg_matches m;
		size_t got = count_matches(&k, NULL, &m);
		_cleanup_free_ char *what = lx_xasprintf("no row matches %s", clean[c]);
		if (!int_eq((long long)got, 0, what))
			for (size_t i = 0; i < m.n; i++)
				printf("#   %s: %s\n", m.items[i].entry->id, k.lines[m.items[i].first].raw);
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	}
	/* This machine's ring buffer, read as doctor reads it (root only
	 * where dmesg_restrict is set). */
	struct lx_kmsg k;
	struct lx_error err = {0};
	if (lx_kmsg_read_device("/dev/kmsg", &k, &err) == 0) {
		ok(k.n > 0, "/dev/kmsg has records");
		ok(k.n > 0 && k.lines[0].raw[0] == '[' && strstr(k.lines[0].raw, "] ") &&
			   strcmp(strstr(k.lines[0].raw, "] ") + 2, k.lines[0].text) == 0,
		   "a record's evidence is its text after its time, as dmesg prints it");
		struct lx_kmsg_matches m;
		int_eq((long long)count_matches(&k, NULL, &m), 0, "no row matches this machine's /dev/kmsg");
		lx_kmsg_matches_free(&m);
		lx_kmsg_free(&k);
	} else {
		printf("# /dev/kmsg not readable here: %s\n", err.message);
		lx_error_clear(&err);
	}
}

/* A table cell: '|' escaped as Markdown needs it. */
static char *md_cell(const char *s)
{
	struct lx_buf b = {0};
	for (; *s; s++)
		lx_buf_puts(&b, *s == '|' ? "\\|" : (char[]){*s, 0});
	return lx_buf_steal(&b);
}

static void test_doc_lists_rows(const char *doc_path)
{
	char *doc = NULL;
	struct lx_error err = {0};
	if (!ok(lx_read_file(doc_path, 1 << 20, &doc, NULL, &err) == 0, doc_path)) {
		lx_error_clear(&err);
		return;
	}
	size_t n;
	const struct lx_kmsg_entry *rows = lx_kmsg_catalogue(&n);
	for (size_t r = 0; r < n; r++) {
		_cleanup_free_ char *pattern = md_cell(rows[r].pattern);
		_cleanup_free_ char *cause = md_cell(rows[r].cause);
		_cleanup_free_ char *fix = md_cell(rows[r].fix);
		unsigned fl = rows[r].flags;
		const char *flags = fl == LX_KMSG_GPU_ONLY         ? "gpu"
				    : fl == LX_KMSG_NVIDIA_MISSING ? "no-nvidia"
				    : fl == LX_KMSG_WITH_PREVIOUS  ? "previous"
								   : "";
		/* the whole row: id, code, severity, pattern, cause, fix, flags */
		_cleanup_free_ char *row = lx_xasprintf(
			"| `%s` | %s | %s | `%s` | %s | %s | %s |", rows[r].id,
			lx_finding_info(rows[r].code)->code, lx_severity_name(rows[r].severity), pattern,
			cause, fix, flags);
		_cleanup_free_ char *what = lx_xasprintf("docs/kmsg-catalogue.md lists %s", rows[r].id);
		if (!ok(strstr(doc, row) != NULL, what))
			printf("#   lacks the row '%s'\n", row);
	}
	size_t doc_rows = 0;
	for (const char *p = doc; (p = strstr(p, "\n| `")); p++)
		doc_rows++;
	int_eq((long long)doc_rows, (long long)n, "the document has no rows the table lacks");
	free(doc);
}

/* journalctl -k without -b: "-- Boot <id> --" separates boots; only the
 * last counts (journalctl(1): the separator starts each boot's entries). */
static void test_journal_boots(void)
{
	struct lx_kmsg k;
	parse("-- Logs begin at Mon 2025-06-02 10:00:00 UTC, end at Tue 2025-06-03 10:00:00 UTC. --\n"
	      "Jun 02 10:00:01 pve kernel: Linux version 6.8.12-4-pve\n"
	      "Jun 02 10:00:05 pve kernel: NVRM: API mismatch: the client has the version 550.54, but\n"
	      "                                NVRM: this kernel module has the version 550.40.\n"
	      "-- Boot 9f0c2d1e3b4a4c5d8e7f6a5b4c3d2e1f --\n"
	      "Jun 03 09:00:01 pve kernel: Linux version 6.8.12-4-pve\n"
	      "Jun 03 09:00:02 pve kernel: nvidia-nvlink: Nvlink Core is being initialized, major device number 240\n",
	      &k);
	int_eq(k.boots, 2, "two boots seen");
	int_eq((long long)k.n, 2, "only the last boot's lines kept");
	str_eq(k.n ? k.lines[0].text : NULL, "Linux version 6.8.12-4-pve", "journal prefix removed");
	struct lx_kmsg_matches m;
	int_eq((long long)count_matches(&k, NULL, &m), 0, "the earlier boot's mismatch does not count");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* dmesg of a saved file that holds two boots (a concatenated log): the
 * kernel prints "Linux version" first at every boot. */
static void test_dmesg_boots(void)
{
	struct lx_kmsg k;
	parse("[    0.000000] Linux version 6.5.13-1-pve\n"
	      "[    5.100000] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n"
	      "[    0.000000] Linux version 6.8.12-4-pve\n"
	      "[    5.200000] NVRM: GPU 0000:01:00.0 is already bound to nouveau.\n",
	      &k);
	int_eq(k.boots, 2, "dmesg: two boots");
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, NULL, &m);
	int_eq((long long)got, 1, "dmesg: one message of the current boot");
	if (got == 1) {
		str_eq(m.items[0].entry->id, "bound-elsewhere", "the current boot's message");
		str_eq(m.items[0].pci, "0000:01:00.0", "its GPU");
	}
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* One finding per cause and GPU; RmInitAdapter quotes the line before. */
static void test_grouping(void)
{
	struct lx_kmsg k;
	parse("May 18 19:02:39 host kernel: NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.\n"
	      "May 18 19:02:39 host kernel: NVRM: GPU 0000:2b:00.0: GPU has fallen off the bus.\n"
	      "May 18 19:02:40 host kernel: NVRM: Xid (PCI:0000:2b:00): 13, Graphics Exception\n"
	      "May 18 19:02:41 host kernel: NVRM: Xid (PCI:0000:2b:00): 31, Ch 00000013\n"
	      "May 18 19:02:42 host kernel: nvidia 0000:07:00.0: Direct firmware load for nvidia/570.144/gsp_ga10x.bin failed with error -2\n"
	      "May 18 19:02:42 host kernel: NVRM: RmFetchGspRmImages: No firmware image found\n"
	      "May 18 19:02:42 host kernel: NVRM: GPU 0000:07:00.0: RmInitAdapter failed! (0x61:0x56:1770)\n",
	      &k);
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, NULL, &m);
	int_eq((long long)got, 5, "fallen off (2 lines), Xid 13, Xid 31, firmware (2 lines), RmInitAdapter");
	if (got == 5) {
		int_eq(m.items[0].entry->code, LXG109_FALLEN_OFF_BUS, "Xid 79 and the text: one cause");
		int_eq((long long)m.items[0].count, 2, "counted twice");
		str_eq(m.items[0].pci, "0000:2b:00.0", "Xid's short address completed");
		ok(m.items[1].entry != m.items[2].entry, "Xid 13 and 31 stay apart");
		int_eq(m.items[3].entry->code, LXG107_GSP_FIRMWARE_MISSING, "firmware");
		int_eq((long long)m.items[3].count, 2, "both firmware lines one finding");
		str_eq(m.items[4].entry->id, "rm-init-adapter-failed", "RmInitAdapter");
		_cleanup_free_ char *ev = lx_kmsg_match_evidence(&k, &m.items[4]);
		ok(strstr(ev, "RmFetchGspRmImages") && strstr(ev, "RmInitAdapter failed"),
		   "RmInitAdapter's evidence has the message before it");
	}
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* RmInitAdapter after a message of several lines: all of it is quoted. */
static void test_previous_record(void)
{
	struct lx_kmsg k;
	parse("[    5.559842] NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2c58)\n"
	      "               NVRM: installed in this system requires use of the NVIDIA open kernel modules.\n"
	      "[    5.559858] NVRM: GPU 0000:02:00.0: RmInitAdapter failed! (0x22:0x56:884)\n",
	      &k);
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, NULL, &m);
	int_eq((long long)got, 2, "the open-module message and RmInitAdapter");
	if (got == 2) {
		int_eq((long long)m.items[1].first, 0, "RmInitAdapter's evidence starts at the record before");
		_cleanup_free_ char *ev = lx_kmsg_match_evidence(&k, &m.items[1]);
		ok(strstr(ev, "(PCI ID: 10de:2c58)") && strstr(ev, "requires use"), "both of its lines");
	}
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* IOMMU faults count only for the host's GPUs. */
static void test_gpu_only(void)
{
	struct lx_host host = {0};
	struct lx_gpu gpus[2] = {{.bdf = (char *)"0000:41:00.0", .driver = (char *)"nvidia"},
				 {.bdf = (char *)"0000:81:00.0", .driver = (char *)"vfio-pci"}};
	host.gpus = gpus;
	host.n_gpus = 2;
	struct lx_kmsg k;
	parse("[ 10.1] DMAR: [DMA Read NO_PASID] Request device [0x00:0x02.0] fault addr 0x7c346000 [fault reason 0x06] PTE Read access is not set\n"
	      "[ 10.2] DMAR: [DMA Write] Request device [41:00.0] PASID ffffffff fault addr 9c000000 [fault reason 05] PTE Write access is not set\n"
	      "[ 10.3] vfio-pci 0000:81:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0003 address=0x80000040 flags=0x0020]\n",
	      &k);
	struct lx_kmsg_matches m;
	size_t got = count_matches(&k, &host, &m);
	int_eq((long long)got, 1, "the iGPU's fault and the VM's GPU's are not the nvidia GPU's");
	if (got == 1)
		str_eq(m.items[0].pci, "0000:41:00.0", "the GPU's fault, address completed");
	lx_kmsg_matches_free(&m);
	lx_kmsg_free(&k);
}

/* /dev/kmsg-style continuation and syslog's #012 join the message. */
static void test_formats(void)
{
	struct lx_kmsg k;
	parse("Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version 535.54.03, but#012NVRM: this kernel module has the version 530.30.02.\n"
	      "<4>[   12.3] NVRM: GPU 0000:01:00.0 is already bound to nouveau.\n"
	      "kern  :warn  : [   12.4] NVRM: GPU 0000:02:00.0 is already bound to nouveau.\n",
	      &k);
	int_eq((long long)k.n, 4, "syslog #012 splits the record");
	ok(k.n == 4 && k.lines[1].continuation, "its second part is a continuation");
	str_eq(k.n == 4 ? k.lines[2].text : NULL, "NVRM: GPU 0000:01:00.0 is already bound to nouveau.",
	       "dmesg -r level removed");
	str_eq(k.n == 4 ? k.lines[3].text : NULL, "NVRM: GPU 0000:02:00.0 is already bound to nouveau.",
	       "dmesg -x facility and level removed");
	lx_kmsg_free(&k);
}

static void test_cmdline_and_params(void)
{
	const char *cmd = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 iommu=on quiet iommu=pt "
			  "modprobe.blacklist=nouveau,nvidia_drm pci=realloc,noaer flag -- iommu=off";
	_cleanup_free_ char *iommu = lx_cmdline_get(cmd, "iommu");
	str_eq(iommu, "pt", "the last iommu= before -- wins");
	_cleanup_free_ char *flag = lx_cmdline_get(cmd, "flag");
	str_eq(flag, "", "a bare flag");
	_cleanup_free_ char *none = lx_cmdline_get(cmd, "nomodeset");
	ok(none == NULL, "absent");
	_cleanup_free_ char *pci = lx_cmdline_get(cmd, "pci");
	str_eq(pci, "realloc,noaer", "pci=");
	const char *params = "ResmanDebugLevel: 4294967295\nEnableResizableBar: 0\nModifyDeviceFiles: 1\n";
	_cleanup_free_ char *rebar = lx_nvidia_param_get(params, "EnableResizableBar");
	str_eq(rebar, "0", "a module parameter");
	_cleanup_free_ char *no = lx_nvidia_param_get(params, "EnableGpuFirmware");
	ok(no == NULL, "an absent parameter");
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	kmsg_dir = argv[1];
	test_rows_match_real_lines();
	test_clean_logs();
	test_doc_lists_rows(argv[2]);
	test_journal_boots();
	test_dmesg_boots();
	test_grouping();
	test_previous_record();
	test_gpu_only();
	test_formats();
	test_cmdline_and_params();
	return tap_done();
}
