/* PCI facts of the host model: BARs (sysfs `resource`), the IOMMU domain
 * type, and ACS from a bridge's config space. Pure functions over what the
 * scanner read, so they can be tested on their own. */
#include "lxgpu/host.h"

#include <string.h>

#define PCI_STD_BARS 6
#define PCI_CFG_SPACE_SIZE 256
#define PCI_CFG_SPACE_EXP_SIZE 4096
#define PCI_EXT_CAP_START 0x100

int lx_parse_pci_resource(const char *text, struct lx_pci_bar **bars, size_t *n,
			  struct lx_error *err)
{
	*bars = NULL;
	*n = 0;
	_cleanup_free_ char *copy = lx_xstrdup(text);
	char *save = NULL;
	unsigned line_no = 0;
	struct lx_pci_bar *out = lx_xcalloc(PCI_STD_BARS, sizeof(*out));
	size_t count = 0;
	for (char *line = strtok_r(copy, "\n", &save); line && count < PCI_STD_BARS;
	     line = strtok_r(NULL, "\n", &save)) {
		line_no++;
		/* "0x%016llx 0x%016llx 0x%016llx" per resource (drivers/pci/pci-sysfs.c). */
		char *fields[3], *fsave = NULL;
		size_t k = 0;
		for (char *f = strtok_r(line, " \t", &fsave); f; f = strtok_r(NULL, " \t", &fsave)) {
			if (k == 3) {
				k++;
				break;
			}
			fields[k++] = f;
		}
		unsigned long long v[3];
		bool ok = k == 3;
		for (size_t i = 0; ok && i < 3; i++)
			ok = lx_str_starts_with(fields[i], "0x") &&
			     lx_parse_uint(fields[i] + 2, 16, UINT64_MAX, &v[i]);
		if (!ok) {
			free(out);
			return lx_error_set(err, "line %u: not 'START END FLAGS' in hex", line_no);
		}
		out[count] = (struct lx_pci_bar){
			.index = (unsigned)count, .start = v[0], .end = v[1], .flags = v[2]};
		count++;
	}
	*bars = out;
	*n = count;
	return 0;
}

const struct lx_pci_bar *lx_gpu_bar(const struct lx_gpu *gpu, unsigned index)
{
	for (size_t i = 0; i < gpu->n_bars; i++)
		if (gpu->bars[i].index == index)
			return &gpu->bars[i];
	return NULL;
}

bool lx_pci_bar_assigned(const struct lx_pci_bar *bar)
{
	return (bar->flags & (LX_IORESOURCE_IO | LX_IORESOURCE_MEM)) &&
	       !(bar->flags & (LX_IORESOURCE_UNSET | LX_IORESOURCE_DISABLED)) && bar->start != 0 &&
	       bar->end > bar->start;
}

uint64_t lx_pci_bar_size(const struct lx_pci_bar *bar)
{
	if (bar->end < bar->start || (bar->start == 0 && bar->end == 0))
		return 0;
	return bar->end - bar->start + 1;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

int lx_parse_pci_config_acs(const unsigned char *config, size_t len, enum lx_acs_state *state,
			    uint16_t *cap, uint16_t *ctrl, struct lx_error *err)
{
	*state = LX_ACS_UNKNOWN;
	*cap = *ctrl = 0;
	/* A non-root reader gets 64 bytes; 256 means the kernel has no access to
	 * extended config space (no ECAM): the hardware may still have ACS on. */
	if (len < PCI_CFG_SPACE_EXP_SIZE)
		return 0;
	/* Extended capability header (PCIe Base spec, 7.6.3): ID bits 15:0,
	 * version 19:16, next offset 31:20; a zero header ends an empty list. */
	unsigned pos = PCI_EXT_CAP_START;
	/* Each capability takes at least 4 bytes of the 3840 past 0x100. */
	for (unsigned steps = 0; steps < (PCI_CFG_SPACE_EXP_SIZE - PCI_EXT_CAP_START) / 4; steps++) {
		uint32_t header = le32(config + pos);
		if (header == 0 || header == 0xffffffffu) {
			*state = LX_ACS_ABSENT;
			return 0;
		}
		if ((header & 0xffff) == LX_PCI_EXT_CAP_ID_ACS) {
			if (pos + 8 > PCI_CFG_SPACE_EXP_SIZE)
				return lx_error_set(err, "ACS capability at 0x%x runs past the config space",
						    pos);
			*state = LX_ACS_PRESENT;
			*cap = le16(config + pos + 4);
			*ctrl = le16(config + pos + 6);
			return 0;
		}
		/* The kernel's walk (pci_find_next_ext_capability) ends at a next
		 * offset below 0x100, so the kernel sees no ACS past it either. */
		unsigned next = (header >> 20) & ~3u;
		if (next < PCI_EXT_CAP_START) {
			*state = LX_ACS_ABSENT;
			return 0;
		}
		pos = next;
	}
	return lx_error_set(err, "the extended capability list loops");
}

static const char *const iommu_names[] = {
	[LX_IOMMU_UNKNOWN] = "unknown",    [LX_IOMMU_NONE] = "none",
	[LX_IOMMU_IDENTITY] = "identity",  [LX_IOMMU_DMA] = "DMA",
	[LX_IOMMU_DMA_FQ] = "DMA-FQ",      [LX_IOMMU_UNMANAGED] = "unmanaged",
	[LX_IOMMU_BLOCKED] = "blocked",
};

const char *lx_iommu_type_name(enum lx_iommu_type t)
{
	return iommu_names[t];
}

bool lx_iommu_type_from_name(const char *name, enum lx_iommu_type *out)
{
	/* "unknown" is what the kernel prints for a group without a default
	 * domain; it is the model's unknown too. */
	int i = lx_name_index(iommu_names, sizeof(iommu_names) / sizeof(iommu_names[0]), name);
	if (i < 0)
		return false;
	*out = (enum lx_iommu_type)i;
	return true;
}

bool lx_iommu_type_translates(enum lx_iommu_type t)
{
	return t == LX_IOMMU_DMA || t == LX_IOMMU_DMA_FQ || t == LX_IOMMU_UNMANAGED;
}

const char *lx_acs_state_name(enum lx_acs_state s)
{
	return s == LX_ACS_PRESENT ? "present" : s == LX_ACS_ABSENT ? "absent" : "unknown";
}

const struct lx_pci_bridge *lx_host_find_bridge(const struct lx_host *host, const char *bdf)
{
	for (size_t i = 0; i < host->n_bridges; i++)
		if (strcmp(host->bridges[i].bdf, bdf) == 0)
			return &host->bridges[i];
	return NULL;
}
