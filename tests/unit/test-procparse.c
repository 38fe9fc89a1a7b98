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
	const char *current = "Character devices:\n  1 mem\n  4 /dev/vc/0\n195 nvidia\n"
			      "195 nvidiactl\n226 drm\n508 nvidia-caps-imex-channels\n"
			      "509 nvidia-caps\n511 nvidia-uvm\n\nBlock devices:\n  8 sd\n"
			      "259 blkext\n511 nvidia-fake-block\n";
	struct lx_major *m;
	size_t n;
	struct lx_error err = {0};
	ok(lx_parse_proc_devices(current, &m, &n, &err) == 0, "/proc/devices parses");
	int_eq((long long)n, 6, "six interesting character majors");
	struct lx_host h = {.majors = m, .n_majors = n};
	int_eq(lx_host_gpu_major(&h), 195, "GPU major from 'nvidia'");
	int_eq(lx_host_major_by_name(&h, "nvidia-uvm"), 511, "uvm major");
	int_eq(lx_host_major_by_name(&h, "nvidia-caps"), 509, "caps major");
	int_eq(lx_host_major_by_name(&h, "drm"), 226, "drm major");
	int_eq(lx_host_major_by_name(&h, "nvidia-fake-block"), LX_UNKNOWN,
	       "block majors are ignored");
	lx_host_free(&h);

	const char *old = "Character devices:\n195 nvidia-frontend\n226 drm\n"
			  "243 nvidia-uvm\nBlock devices:\n";
	ok(lx_parse_proc_devices(old, &m, &n, &err) == 0, "old /proc/devices parses");
	struct lx_host h2 = {.majors = m, .n_majors = n};
	int_eq(lx_host_gpu_major(&h2), 195, "GPU major from 'nvidia-frontend'");
	int_eq(lx_host_major_by_name(&h2, "nvidia-uvm"), 243, "old uvm major");
	lx_host_free(&h2);

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

static void test_cgroup_layout(void)
{
	const char *v2 = "25 30 0:22 / /sys rw,nosuid - sysfs sysfs rw\n"
			 "30 1 0:27 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw\n";
	const char *v1 = "30 1 0:27 / /sys/fs/cgroup ro - tmpfs tmpfs ro\n"
			 "31 30 0:28 / /sys/fs/cgroup/devices rw shared:10 - cgroup cgroup rw,devices\n";
	const char *hybrid = "30 1 0:27 / /sys/fs/cgroup ro - tmpfs tmpfs ro\n"
			     "31 30 0:28 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
			     "32 30 0:29 / /sys/fs/cgroup/devices rw - cgroup cgroup rw,devices\n";
	int_eq(lx_parse_cgroup_layout(v2), LX_CGROUP_V2, "unified");
	int_eq(lx_parse_cgroup_layout(v1), LX_CGROUP_V1, "legacy");
	int_eq(lx_parse_cgroup_layout(hybrid), LX_CGROUP_HYBRID, "hybrid");
	int_eq(lx_parse_cgroup_layout(""), LX_CGROUP_UNKNOWN, "none");
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

static void test_pci_address(void)
{
	char *out = NULL;
	ok(lx_pci_address_normalize("00000000:41:00.0", &out), "8-digit domain");
	str_eq(out, "0000:41:00.0", "normalized to 4 digits");
	free(out);
	ok(lx_pci_address_normalize("0000:C1:00.0", &out), "uppercase");
	str_eq(out, "0000:c1:00.0", "lowercased");
	free(out);
	ok(lx_pci_address_normalize("10000:01:00.0", &out), "VMD domain");
	str_eq(out, "10000:01:00.0", "wide domain kept");
	free(out);
	ok(lx_pci_address_normalize("41:00.0", &out), "no domain");
	str_eq(out, "0000:41:00.0", "domain 0 added");
	free(out);
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
