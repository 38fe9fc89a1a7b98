/* PCI facts: sysfs `resource` lines, BAR assignment, ACS from config space.
 * The config spaces are built by the PCIe Base spec's layout (extended
 * capability header at 0x100: ID 15:0, version 19:16, next 31:20; the ACS
 * capability register at +4, control at +6), not from lxgpu's output. */
#include "lxgpu/host.h"
#include "lxgpu/observe.h"
#include "tap.h"

#include <string.h>

/* As a GPU's `resource` reads on a real host (drivers/pci/pci-sysfs.c:
 * "0x%016llx 0x%016llx 0x%016llx" per resource; 13 lines for an endpoint:
 * BARs 0..5, ROM, SR-IOV BARs). BAR1 here was not assigned by the firmware. */
static const char resource_unassigned[] =
	"0x00000000fb000000 0x00000000fbffffff 0x0000000000040200\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x000000f000000000 0x000000f001ffffff 0x000000000014220c\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x000000000000e000 0x000000000000e07f 0x0000000000040101\n"
	"0x00000000fc000000 0x00000000fc07ffff 0x000000000004e200\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";

static void test_resource(void)
{
	struct lx_pci_bar *bars;
	size_t n;
	struct lx_error err = {0};
	if (!ok(lx_parse_pci_resource(resource_unassigned, &bars, &n, &err) == 0, "resource parses"))
		return;
	int_eq((long long)n, 6, "the six standard BARs (not the ROM, not SR-IOV)");
	struct lx_gpu g = {.bars = bars, .n_bars = n, .bars_known = true};
	const struct lx_pci_bar *b0 = lx_gpu_bar(&g, 0), *b1 = lx_gpu_bar(&g, 1),
				*b3 = lx_gpu_bar(&g, 3), *b5 = lx_gpu_bar(&g, 5);
	ok(b0 && lx_pci_bar_assigned(b0) && lx_pci_bar_size(b0) == 16u << 20, "BAR0: 16 MiB, assigned");
	ok(b1 && !lx_pci_bar_assigned(b1) && lx_pci_bar_size(b1) == 0, "BAR1: a line of zeros, unassigned");
	ok(b3 && lx_pci_bar_assigned(b3) && lx_pci_bar_size(b3) == 32u << 20 &&
		   (b3->flags & LX_IORESOURCE_PREFETCH) && (b3->flags & LX_IORESOURCE_MEM_64),
	   "BAR3: 32 MiB 64-bit prefetchable");
	ok(b5 && lx_pci_bar_assigned(b5) && (b5->flags & LX_IORESOURCE_IO) && lx_pci_bar_size(b5) == 128,
	   "BAR5: 128 I/O ports");
	ok(!lx_gpu_bar(&g, 6), "no BAR 6");
	/* A resource the kernel sized but could not place (IORESOURCE_UNSET,
	 * start 0, end size-1): not assigned. */
	struct lx_pci_bar unset = {.index = 1, .start = 0, .end = (32ULL << 30) - 1,
				   .flags = 0x14220c | LX_IORESOURCE_UNSET};
	ok(!lx_pci_bar_assigned(&unset), "IORESOURCE_UNSET: not assigned");
	free(bars);

	const char *bad[] = {"0x0 0x0\n", "0xfb000000 0xfbffffff 0x40200 0x0\n", "fb000000 0 0\n",
			     "0x0 0x0 0xzz\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ok(lx_parse_pci_resource(bad[i], &bars, &n, &err) < 0 && strstr(err.message, "line 1"),
		   "a line that is not START END FLAGS is an error naming the line");
		lx_error_clear(&err);
	}
	ok(lx_parse_pci_resource("", &bars, &n, &err) == 0 && n == 0, "an empty file: no BARs");
	free(bars);
}

static void ext_cap(unsigned char *cfg, unsigned pos, unsigned id, unsigned version, unsigned next)
{
	uint32_t h = id | version << 16 | next << 20;
	for (int i = 0; i < 4; i++)
		cfg[pos + i] = (unsigned char)(h >> (8 * i));
}

static void acs_regs(unsigned char *cfg, unsigned pos, uint16_t cap, uint16_t ctrl)
{
	cfg[pos + 4] = cap & 0xff;
	cfg[pos + 5] = cap >> 8;
	cfg[pos + 6] = ctrl & 0xff;
	cfg[pos + 7] = ctrl >> 8;
}

static void test_acs(void)
{
	unsigned char cfg[4096];
	enum lx_acs_state st;
	uint16_t cap, ctrl;
	struct lx_error err = {0};

	memset(cfg, 0, sizeof(cfg));
	ext_cap(cfg, 0x100, 0x0001, 2, 0x148); /* AER */
	ext_cap(cfg, 0x148, LX_PCI_EXT_CAP_ID_ACS, 1, 0x158);
	acs_regs(cfg, 0x148, 0x007f, LX_ACS_SV | LX_ACS_RR | LX_ACS_CR | LX_ACS_UF);
	ext_cap(cfg, 0x158, 0x0019, 1, 0);
	ok(lx_parse_pci_config_acs(cfg, 4096, &st, &cap, &ctrl, &err) == 0 && st == LX_ACS_PRESENT &&
		   cap == 0x007f && ctrl == 0x001d,
	   "ACS after AER: capability 0x7f, control SV RR CR UF (0x1d)");
	ok(lx_parse_pci_config_acs(cfg, 64, &st, &cap, &ctrl, &err) == 0 && st == LX_ACS_UNKNOWN,
	   "64 bytes (a non-root reader's view): unknown");
	ok(lx_parse_pci_config_acs(cfg, 256, &st, &cap, &ctrl, &err) == 0 && st == LX_ACS_UNKNOWN,
	   "256 bytes (no extended space visible): unknown");

	memset(cfg, 0, sizeof(cfg));
	ok(lx_parse_pci_config_acs(cfg, 4096, &st, &cap, &ctrl, &err) == 0 && st == LX_ACS_ABSENT,
	   "an all-zero header at 0x100: no extended capabilities, ACS absent");
	ext_cap(cfg, 0x100, 0x0001, 2, 0x148);
	ext_cap(cfg, 0x148, 0x0019, 1, 0);
	ok(lx_parse_pci_config_acs(cfg, 4096, &st, &cap, &ctrl, &err) == 0 && st == LX_ACS_ABSENT,
	   "AER and Secondary PCIe only: absent");
	ext_cap(cfg, 0x148, 0x0019, 1, 0x0c0); /* next below 0x100 ends the list, as in the kernel */
	ext_cap(cfg, 0x0c0, LX_PCI_EXT_CAP_ID_ACS, 1, 0);
	ok(lx_parse_pci_config_acs(cfg, 4096, &st, &cap, &ctrl, &err) == 0 && st == LX_ACS_ABSENT,
	   "a next offset below 0x100 ends the list");
	ext_cap(cfg, 0x148, 0x0019, 1, 0x100); /* back to the first */
	ok(lx_parse_pci_config_acs(cfg, 4096, &st, &cap, &ctrl, &err) < 0 && st == LX_ACS_UNKNOWN &&
		   strstr(err.message, "loops"),
	   "a list that loops: an error, state unknown");
	lx_error_clear(&err);
	memset(cfg, 0xff, sizeof(cfg)); /* a function that does not answer */
	ok(lx_parse_pci_config_acs(cfg, 4096, &st, &cap, &ctrl, &err) == 0 && st == LX_ACS_ABSENT,
	   "all ones at 0x100: absent");
	memset(cfg, 0, sizeof(cfg));
	ext_cap(cfg, 0x100, 0x0001, 2, 0xffc);
	ext_cap(cfg, 0xffc, LX_PCI_EXT_CAP_ID_ACS, 1, 0);
	ok(lx_parse_pci_config_acs(cfg, 4096, &st, &cap, &ctrl, &err) < 0, "ACS registers past 4096: an error");
	lx_error_clear(&err);
}

static void test_names(void)
{
	enum lx_iommu_type t;
	ok(lx_iommu_type_from_name("DMA-FQ", &t) && t == LX_IOMMU_DMA_FQ, "DMA-FQ");
	ok(lx_iommu_type_from_name("identity", &t) && t == LX_IOMMU_IDENTITY, "identity");
	ok(!lx_iommu_type_from_name("dma", &t), "the kernel's spelling only");
	ok(lx_iommu_type_translates(LX_IOMMU_DMA) && lx_iommu_type_translates(LX_IOMMU_DMA_FQ) &&
		   !lx_iommu_type_translates(LX_IOMMU_IDENTITY) && !lx_iommu_type_translates(LX_IOMMU_NONE),
	   "DMA and DMA-FQ translate; identity and none do not");
}

/* Which PCI functions are GPUs of the model: class 0x03xxxx is a display
 * controller (PCI Code and ID Assignment spec), 0x0403 an HD audio function. */
static void test_gpu_kinds(void)
{
	ok(lx_pci_is_gpu(0x10de, 0x030200, "vfio-pci", false), "NVIDIA 3D controller on vfio-pci");
	ok(lx_pci_is_gpu(0x10de, 0x030000, NULL, false), "NVIDIA VGA without a driver");
	ok(!lx_pci_is_gpu(0x10de, 0x040300, "snd_hda_intel", false), "not NVIDIA's HDA function");
	ok(lx_pci_is_gpu(0x8086, 0x030000, "i915", true), "Intel iGPU on i915 with DRM minors");
	ok(lx_pci_is_gpu(0x8086, 0x038000, "xe", true), "Intel on xe (display class 'other')");
	ok(lx_pci_is_gpu(0x1002, 0x030000, "amdgpu", true), "AMD on amdgpu");
	ok(!lx_pci_is_gpu(0x1002, 0x030000, "amdgpu", false), "amdgpu without DRM minors (init failed)");
	ok(!lx_pci_is_gpu(0x1a03, 0x030000, "ast", true), "not a BMC's VGA (ast)");
	ok(!lx_pci_is_gpu(0x1002, 0x030000, "vfio-pci", true), "not an AMD card given to a VM");
	ok(!lx_pci_is_gpu(0x1002, 0x040300, "snd_hda_intel", true), "not AMD's HDA function");

	struct lx_drm_node intel_drm[] = {{"card0", "pci-0000:00:02.0-card"},
					  {"renderD128", NULL}};
	struct lx_gpu gpus[] = {
		{.bdf = "0000:01:00.0", .vendor_id = 0x10de, .driver = "nvidia", .minor = 0},
		{.bdf = "0000:00:02.0", .vendor_id = 0x8086, .driver = "i915", .minor = LX_UNKNOWN,
		 .drm = intel_drm, .n_drm = 2},
	};
	ok(lx_gpu_compare(&gpus[0], &gpus[1]) < 0, "NVIDIA's GPU sorts before an iGPU at a lower address");
	int_eq(lx_gpu_kind(&gpus[1]), LX_GPU_DRM, "i915 is a DRM GPU");
	ok(!lx_gpu_needs_kfd(&gpus[1]), "an Intel GPU has no kfd");
	struct lx_dev_node nodes[] = {{.path = "/dev/dri/card0"}, {.path = "/dev/dri/renderD128"}};
	struct lx_host h = {.gpus = gpus, .n_gpus = 2, .nodes = nodes, .n_nodes = 2};
	int_eq(lx_host_gpu_of_node(&h, "/dev/nvidia0"), 0, "/dev/nvidia0 is GPU 0");
	int_eq(lx_host_gpu_of_node(&h, "/dev/dri/renderD128"), 1, "renderD128 is the iGPU's node");
	int_eq(lx_host_gpu_of_drm_path(&h, "/dev/dri/by-path/pci-0000:00:02.0-render"), 1,
	       "a by-path name is its GPU's by address, also without the link");
	int_eq(lx_host_gpu_of_drm_path(&h, "/dev/dri/by-path/pci-0000:07:00.0-card"), -1,
	       "a by-path name of an address no GPU has");
	char *t = lx_host_by_path_target(&h, "/dev/dri/by-path/pci-0000:00:02.0-render");
	str_eq(t, "/dev/dri/renderD128", "the render link should name renderD128");
	free(t);
}

/* /etc/group lines as group(5) gives them: name:password:GID:members. */
static void test_group_text(void)
{
	const char *jammy = "root:x:0:\nvideo:x:44:\nssl-cert:x:104:\nrender:x:109:jellyfin\n"
			    "renderx:x:5:\nbad:x:notanumber:\n";
	int_eq(lx_group_text_gid(jammy, "render"), 109, "render of Ubuntu 22.04");
	int_eq(lx_group_text_gid(jammy, "video"), 44, "video");
	int_eq(lx_group_text_gid(jammy, "rend"), -1, "a prefix is no group");
	int_eq(lx_group_text_gid(jammy, "bad"), -1, "a gid that is no number");
	int_eq(lx_group_text_gid("render:x:993:", "render"), 993, "without a newline at the end");
	int_eq(lx_group_text_gid("", "render"), -1, "an empty file");
}

int main(void)
{
	test_gpu_kinds();
	test_group_text();
	test_resource();
	test_acs();
	test_names();
	return tap_done();
}
