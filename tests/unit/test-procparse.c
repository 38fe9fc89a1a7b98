/* Parsers of /proc files: every format variant the scanner meets. */
#include "lxgpu/host.h"
#include "tap.h"

static void test_version_lines(void)
{
	static const struct {
		const char *text;
		const char *version;
		enum lx_driver_flavor flavor;
	} cases[] = {
		{"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  590.48.01  Release Build  "
		 "(dvs-builder@U22-I3-AF03-09-1)  Mon Dec  1 08:52:25 UTC 2025\nGCC version:  gcc "
		 "version 12.2.0 (Debian 12.2.0-14)\n",
		 "590.48.01", LX_FLAVOR_OPEN},
		{"NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.127.05  Tue Oct  8 03:33:13 UTC "
		 "2024\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n",
		 "550.127.05", LX_FLAVOR_PROPRIETARY},
		{"NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  570.86.15  Release Build  "
		 "(dvs-builder@U16-I3-B03-4-1)  Thu Jan 30 22:09:43 UTC 2025\n",
		 "570.86.15", LX_FLAVOR_OPEN},
		/* Legacy branches: two-part versions. */
		{"NVRM version: NVIDIA UNIX x86_64 Kernel Module  390.157  Wed Oct 12 09:19:07 UTC 2022\n",
		 "390.157", LX_FLAVOR_PROPRIETARY},
		{"NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.256.02  Thu May  2 14:37:44 UTC 2024",
		 "470.256.02", LX_FLAVOR_PROPRIETARY},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *version = NULL;
		enum lx_driver_flavor flavor;
		struct lx_error err = {0};
		ok(lx_parse_nvidia_version(cases[i].text, &version, &flavor, &err) == 0,
		   "version line parses");
		str_eq(version, cases[i].version, "version");
		int_eq(flavor, cases[i].flavor, "flavour");
		free(version);
		lx_error_clear(&err);
	}
	static const char *const bad[] = {"", "garbage\n", "NVRM version: NVIDIA UNIX Kernel Module\n",
					  "NVRM version: something else 1.2\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *version = NULL;
		enum lx_driver_flavor flavor;
		struct lx_error err = {0};
		ok(lx_parse_nvidia_version(bad[i], &version, &flavor, &err) < 0 && err.message &&
			   !version,
		   "bad version line is an error");
		lx_error_clear(&err);
	}
}

static void test_information(void)
{
	const char *with_minor = "Model: \t\t NVIDIA RTX PRO 6000 Blackwell Server Edition\n"
				 "IRQ:   \t\t 510\n"
				 "GPU UUID: \t GPU-5e3a0d2c-8f1b-4c77-9d4e-1a2b3c4d5e6f\n"
				 "Video BIOS: \t 98.02.2e.00.05\n"
				 "Bus Type: \t PCIe\n"
				 "DMA Size: \t 52 bits\n"
				 "DMA Mask: \t 0xfffffffffffff\n"
				 "Bus Location: \t 0000:18:00.0\n"
				 "Device Minor: \t 3\n"
				 "GPU Excluded:\t No\n";
	struct lx_gpu_information info;
	struct lx_error err = {0};
	ok(lx_parse_gpu_information(with_minor, &info, &err) == 0, "information parses");
	str_eq(info.model, "NVIDIA RTX PRO 6000 Blackwell Server Edition", "model");
	str_eq(info.uuid, "GPU-5e3a0d2c-8f1b-4c77-9d4e-1a2b3c4d5e6f", "uuid");
	str_eq(info.vbios, "98.02.2e.00.05", "vbios");
	str_eq(info.bus_location, "0000:18:00.0", "bus location");
	int_eq(info.minor, 3, "device minor");
	lx_gpu_information_free(&info);

	const char *without_minor = "Model: \t\t Tesla K80\nIRQ:   \t\t 40\n"
				    "GPU UUID: \t GPU-\?\?\?\?\?\?\?\?-\?\?\?\?-\?\?\?\?-\?\?\?\?-\?\?\?\?\?\?\?\?\?\?\?\?\n"
				    "Video BIOS: \t \?\?.\?\?.\?\?.\?\?.\?\?\nBus Type: \t PCIe\n"
				    "Bus Location: \t 0000:05:00.0\n";
	ok(lx_parse_gpu_information(without_minor, &info, &err) == 0, "information without minor");
	int_eq(info.minor, LX_UNKNOWN, "absent Device Minor is unknown");
	str_eq(info.uuid, NULL, "unknown UUID (question marks) is absent");
	str_eq(info.vbios, NULL, "unknown VBIOS is absent");
	lx_gpu_information_free(&info);

	ok(lx_parse_gpu_information("Device Minor: abc\n", &info, &err) < 0, "bad minor is an error");
	lx_error_clear(&err);
	ok(lx_parse_gpu_information("nothing here\n", &info, &err) < 0, "no fields is an error");
	lx_error_clear(&err);
}

static void test_proc_devices(void)
{
	/* Shape of a real table (NVIDIA/gdrcopy#115: 4 and 5 with several
	 * names, one name on several numbers), block majors that reuse numbers. */
	const char *current = "Character devices:\n  1 mem\n  4 /dev/vc/0\n  4 tty\n  4 ttyS\n"
			      "  5 /dev/tty\n  5 /dev/console\n  5 /dev/ptmx\n 10 misc\n"
			      "195 nvidia\n195 nvidiactl\n226 drm\n230 infiniband_cm\n"
			      "231 infiniband_mad\n231 infiniband_verbs\n231 infiniband_cm\n"
			      "242 hidraw\n508 nvidia-caps-imex-channels\n509 nvidia-caps\n"
			      "511 nvidia-uvm\n\nBlock devices:\n  8 sd\n230 zvol\n259 blkext\n"
			      "511 nvidia-fake-block\n";
	struct lx_major *m;
	size_t n;
	struct lx_error err = {0};
	ok(lx_parse_proc_devices(current, &m, &n, &err) == 0, "/proc/devices parses");
	int_eq((long long)n, 19, "every character entry is kept");
	struct lx_host h = {.majors = m, .n_majors = n};
	str_eq(m[1].name, "/dev/vc/0", "file order, names with slashes");
	int_eq(m[12].number, 231, "file order within one number");
	str_eq(m[13].name, "infiniband_verbs", "a second name for 231");
	int_eq(lx_host_gpu_major(&h), 195, "GPU major from 'nvidia'");
	int_eq(lx_host_major_by_name(&h, "nvidia-uvm"), 511, "uvm major");
	int_eq(lx_host_major_by_name(&h, "nvidia-caps"), 509, "caps major");
	int_eq(lx_host_major_by_name(&h, "drm"), 226, "drm major");
	int_eq(lx_host_major_by_name(&h, "nvidiactl"), 195, "nvidiactl shares 195");
	int_eq(lx_host_major_by_name(&h, "infiniband_cm"), 230, "a name on two numbers: the first");
	int_eq(lx_host_major_by_name(&h, "hidraw"), 242, "non-NVIDIA majors are kept");
	str_eq(lx_host_major_name(&h, 242), "hidraw", "242 is hidraw, not a stale uvm major");
	str_eq(lx_host_major_name(&h, 195), "nvidia", "the first name for 195");
	str_eq(lx_host_major_name(&h, 5), "/dev/tty", "the first name for 5");
	str_eq(lx_host_major_name(&h, 243), NULL, "a number nobody holds");
	str_eq(lx_host_major_name(&h, 259), NULL, "block majors are not character majors");
	int_eq(lx_host_major_by_name(&h, "nvidia-fake-block"), LX_UNKNOWN,
	       "block majors are ignored");
	int_eq(lx_host_major_by_name(&h, "zvol"), LX_UNKNOWN, "zvol is a block major");
	lx_host_free(&h);

	const char *old = "Character devices:\n195 nvidia-frontend\n226 drm\n"
			  "243 nvidia-uvm\nBlock devices:\n";
	ok(lx_parse_proc_devices(old, &m, &n, &err) == 0, "old /proc/devices parses");
	struct lx_host h2 = {.majors = m, .n_majors = n};
	int_eq(lx_host_gpu_major(&h2), 195, "GPU major from 'nvidia-frontend'");
	int_eq(lx_host_major_by_name(&h2, "nvidia-uvm"), 243, "old uvm major");
	str_eq(lx_host_major_name(&h2, 195), "nvidia-frontend", "name of 195 before 550.40");
	lx_host_free(&h2);

	ok(lx_parse_proc_devices("Character devices:\nabc mem\n99999 big\n12\n  7 vcs\n", &m, &n,
				 &err) == 0,
	   "lines that are no entry are skipped");
	int_eq((long long)n, 1, "only the entry is kept");
	struct lx_host h3 = {.majors = m, .n_majors = n};
	lx_host_free(&h3);

	ok(lx_parse_proc_devices("Block devices:\n8 sd\n", &m, &n, &err) < 0,
	   "no character section is an error");
	lx_error_clear(&err);
}

static void test_proc_modules(void)
{
	const char *text = "nvidia_uvm 1912832 4 - Live 0x0000000000000000 (POE)\n"
			   "nvidia_drm 126976 0 - Live 0x0000000000000000 (POE)\n"
			   "drm_kms_helper 229376 1 nvidia_drm, Live 0x0000000000000000\n"
			   "nvidia_modeset 1720320 1 nvidia_drm, Live 0x0000000000000000 (POE)\n"
			   "nvidia 11563008 20 nvidia_uvm,nvidia_modeset, Live 0x0 (POE)\n"
			   "vfio_pci 16384 0 - Live 0x0000000000000000\n"
			   "nvidia";
	struct lx_strv mods = {0};
	lx_parse_proc_modules(text, &mods);
	int_eq((long long)mods.n, 4, "four nvidia modules (a truncated last line is no module)");
	ok(lx_strv_contains(&mods, "nvidia"), "nvidia");
	ok(lx_strv_contains(&mods, "nvidia_uvm"), "nvidia_uvm");
	ok(lx_strv_contains(&mods, "nvidia_modeset"), "nvidia_modeset");
	ok(lx_strv_contains(&mods, "nvidia_drm"), "nvidia_drm");
	ok(!lx_strv_contains(&mods, "vfio_pci"), "others are not listed");
	lx_strv_free(&mods);
}

/* The lines below are as the kernel prints /proc/self/mountinfo. Sources:
 * pve8: a Debian 12 / PVE 8 host as systemd 252 mounts it (options as in
 *   the findmnt output posted in ivpn/desktop-app#437, less seclabel);
 * v2_net_cls: the mounts posted in canonical/lxd#10441 (cgroup2 on
 *   /sys/fs/cgroup, then cpuacct, devices, freezer, net_cls, ... v1
 *   hierarchies below it, a VPN client's doing; mullvad/mullvadvpn-app#3651);
 * pve7_hybrid: this project's dev machines (FACTS.md section 7), and a
 *   PVE 7 host booted with systemd.unified_cgroup_hierarchy=0;
 * v1_legacy: netdata/netdata#563 (CentOS 7.2, no unified mount);
 * stacked: two mounts on /sys/fs/cgroup as posted in siderolabs/talos#4110. */
static const char pve8[] =
	"22 28 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"23 28 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
	"24 28 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=65829196k,nr_inodes=16457299,mode=755,inode64\n"
	"28 1 0:25 / / rw,relatime shared:1 - zfs rpool/ROOT/pve-1 rw,xattr,noacl\n"
	"26 22 0:6 / /sys/kernel/security rw,nosuid,nodev,noexec,relatime shared:8 - securityfs securityfs rw\n"
	"30 22 0:27 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
	"31 22 0:28 / /sys/fs/pstore rw,nosuid,nodev,noexec,relatime shared:10 - pstore pstore rw\n"
	"34 22 0:31 / /sys/fs/bpf rw,nosuid,nodev,noexec,relatime shared:11 - bpf bpf rw,mode=700\n";

static const char v2_net_cls[] =
	"22 29 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw\n"
	"1320 30 0:72 / /sys/fs/cgroup/cpuacct rw,relatime shared:702 - cgroup cgroup rw,cpuacct\n"
	"1335 30 0:73 / /sys/fs/cgroup/devices rw,relatime shared:709 - cgroup cgroup rw,devices\n"
	"1350 30 0:74 / /sys/fs/cgroup/freezer rw,relatime shared:716 - cgroup cgroup rw,freezer\n"
	"1365 30 0:75 / /sys/fs/cgroup/net_cls rw,relatime shared:723 - cgroup cgroup rw,net_cls\n"
	"1380 30 0:76 / /sys/fs/cgroup/perf_event rw,relatime shared:730 - cgroup cgroup rw,perf_event\n"
	"1395 30 0:77 / /sys/fs/cgroup/net_prio rw,relatime shared:737 - cgroup cgroup rw,net_prio\n";

static const char pve7_hybrid[] =
	"22 27 0:20 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"26 22 0:24 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,size=4096k,nr_inodes=1024,mode=755,inode64\n"
	"27 26 0:25 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate\n"
	"28 26 0:26 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,xattr,name=systemd\n"
	"32 26 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,cpu,cpuacct\n"
	"33 26 0:31 / /sys/fs/cgroup/devices rw,nosuid,nodev,noexec,relatime shared:16 - cgroup cgroup rw,devices\n"
	"34 26 0:32 / /sys/fs/cgroup/net_cls,net_prio rw,nosuid,nodev,noexec,relatime shared:17 - cgroup cgroup rw,net_cls,net_prio\n"
	"35 26 0:33 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:18 - cgroup cgroup rw,memory\n";

/* The dev machine's own, without propagation fields (no optional fields). */
static const char hybrid_no_optional[] =
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"36 31 0:33 / /sys/fs/cgroup/devices rw,relatime - cgroup cgroup rw,devices\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static const char v1_legacy[] =
	"18 60 0:17 / /sys rw,nosuid,nodev,noexec,relatime shared:6 - sysfs sysfs rw\n"
	"25 18 0:20 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:8 - tmpfs tmpfs ro,mode=755\n"
	"26 25 0:21 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:9 - cgroup cgroup rw,xattr,release_agent=/usr/lib/systemd/systemd-cgroups-agent,name=systemd\n"
	"28 25 0:23 / /sys/fs/cgroup/net_cls rw,nosuid,nodev,noexec,relatime shared:10 - cgroup cgroup rw,net_cls\n"
	"29 25 0:24 / /sys/fs/cgroup/blkio rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,blkio\n"
	"33 25 0:28 / /sys/fs/cgroup/devices rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,devices\n";

static void test_cgroup_layout(void)
{
	int_eq(lx_parse_cgroup_layout(pve8), LX_CGROUP_V2, "PVE 8: cgroup2 on /sys/fs/cgroup");
	int_eq(lx_parse_cgroup_layout(v2_net_cls), LX_CGROUP_V2,
	       "cgroup2 with v1 hierarchies (net_cls, devices) below it is still v2");
	int_eq(lx_parse_cgroup_layout(pve7_hybrid), LX_CGROUP_HYBRID,
	       "tmpfs, v1 controllers and cgroup2 at unified: hybrid");
	int_eq(lx_parse_cgroup_layout(hybrid_no_optional), LX_CGROUP_HYBRID,
	       "lines without optional fields");
	int_eq(lx_parse_cgroup_layout(v1_legacy), LX_CGROUP_V1, "tmpfs without unified: v1");
	int_eq(lx_parse_cgroup_layout(""), LX_CGROUP_UNKNOWN, "empty mountinfo");
	int_eq(lx_parse_cgroup_layout("22 1 0:21 / /sys rw - sysfs sysfs rw\n"
				      "40 22 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"),
	       LX_CGROUP_UNKNOWN, "nothing at /sys/fs/cgroup itself");
	int_eq(lx_parse_cgroup_layout("30 22 0:27 / /sys/fs/cgroup rw - cgroup cgroup rw,devices\n"),
	       LX_CGROUP_V1, "a v1 hierarchy right at /sys/fs/cgroup");
	int_eq(lx_parse_cgroup_layout("30 22 0:27 / /sys/fs/cgroup/ rw - cgroup2 cgroup2 rw\n"
				      "31 22 0:27 / /sys/fs/cgroupx rw - cgroup2 cgroup2 rw\n"
				      "garbage\n32 22 0:27 /sys/fs/cgroup\n"),
	       LX_CGROUP_UNKNOWN, "only the exact mount point counts; broken lines are skipped");

	/* Stacked: the last mount listed on a place is the one on top. */
	const char *stacked_v2 =
		"27 175 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup rw,nsdelegate\n"
		"175 21 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw,nsdelegate\n";
	int_eq(lx_parse_cgroup_layout(stacked_v2), LX_CGROUP_V2, "cgroup2 over cgroup2 (Talos)");
	/* There the mount on top (27, parent 175) is listed first: the one
	 * nothing sits on wins, not the last line. */
	int_eq(lx_parse_cgroup_layout(
		       "27 175 0:24 / /sys/fs/cgroup rw,relatime shared:9 - cgroup2 cgroup rw\n"
		       "175 21 0:23 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"),
	       LX_CGROUP_V2, "a mount listed before the one it sits on");
	/* A tmpfs mounted over PVE 8's cgroup2 (what a tool that sets up v1
	 * controllers itself does): the v1 view is what LXC then sees. */
	_cleanup_free_ char *tmpfs_over_v2 = lx_xasprintf(
		"%s90 30 0:80 / /sys/fs/cgroup rw,relatime shared:50 - tmpfs tmpfs rw,mode=755\n"
		"91 90 0:81 / /sys/fs/cgroup/net_cls rw,relatime shared:51 - cgroup cgroup rw,net_cls\n",
		pve8);
	int_eq(lx_parse_cgroup_layout(tmpfs_over_v2), LX_CGROUP_V1, "tmpfs over cgroup2: v1");
	/* The hybrid host's unified mount sits on the tmpfs that is now covered. */
	_cleanup_free_ char *v2_over_hybrid =
		lx_xasprintf("%s90 26 0:80 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n",
			     pve7_hybrid);
	int_eq(lx_parse_cgroup_layout(v2_over_hybrid), LX_CGROUP_V2, "cgroup2 over a hybrid tmpfs");
	_cleanup_free_ char *tmpfs_over_hybrid =
		lx_xasprintf("%s90 26 0:80 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw\n",
			     pve7_hybrid);
	int_eq(lx_parse_cgroup_layout(tmpfs_over_hybrid), LX_CGROUP_V1,
	       "a new tmpfs hides the old unified mount");
	_cleanup_free_ char *unified_again = lx_xasprintf(
		"%s91 90 0:81 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
		tmpfs_over_hybrid);
	int_eq(lx_parse_cgroup_layout(unified_again), LX_CGROUP_HYBRID,
	       "... and a unified mount on the new tmpfs is seen");
	_cleanup_free_ char *unified_stacked = lx_xasprintf(
		"%s92 27 0:82 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
		pve7_hybrid);
	int_eq(lx_parse_cgroup_layout(unified_stacked), LX_CGROUP_HYBRID,
	       "cgroup2 stacked on the unified mount");
	_cleanup_free_ char *unified_covered = lx_xasprintf(
		"%s92 27 0:82 / /sys/fs/cgroup/unified rw,relatime - tmpfs tmpfs rw\n", pve7_hybrid);
	int_eq(lx_parse_cgroup_layout(unified_covered), LX_CGROUP_V1,
	       "a tmpfs over the unified mount: no cgroup2 to see");
}

static void test_capability(void)
{
	unsigned minor = 0;
	struct lx_error err = {0};
	ok(lx_parse_capability_minor("DeviceFileMinor: 13\nDeviceFileMode: 292\n"
				     "DeviceFileModify: 1\n",
				     &minor, &err) == 0,
	   "access file parses");
	int_eq(minor, 13, "DeviceFileMinor");
	ok(lx_parse_capability_minor("DeviceFileMode: 292\n", &minor, &err) < 0,
	   "missing minor is an error");
	lx_error_clear(&err);
}

/* ADDRESS is accepted (WHAT) and normalized to WANT (HOW). */
static void expect_normalized(const char *address, const char *want, const char *what,
			      const char *how)
{
	char *out = NULL;
	ok(lx_pci_address_normalize(address, &out), what);
	str_eq(out, want, how);
	free(out);
}

static void test_pci_address(void)
{
	char *out = NULL;
	expect_normalized("00000000:41:00.0", "0000:41:00.0", "8-digit domain", "normalized to 4 digits");
	expect_normalized("0000:C1:00.0", "0000:c1:00.0", "uppercase", "lowercased");
	expect_normalized("10000:01:00.0", "10000:01:00.0", "VMD domain", "wide domain kept");
	expect_normalized("41:00.0", "0000:41:00.0", "no domain", "domain 0 added");
	ok(!lx_pci_address_normalize("0000:41:00", &out), "no function");
	ok(!lx_pci_address_normalize("0000:41:20.0", &out), "device > 0x1f");
	ok(!lx_pci_address_normalize("0000:41:00.8", &out), "function > 7");
	ok(!lx_pci_address_normalize("card1", &out), "not an address");
	ok(!lx_pci_address_normalize("000000000:41:00.0", &out), "9-digit domain");
}

int main(void)
{
	test_version_lines();
	test_information();
	test_proc_devices();
	test_proc_modules();
	test_cgroup_layout();
	test_capability();
	test_pci_address();
	return tap_done();
}
