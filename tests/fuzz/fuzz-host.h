/* The host the apply and backup fuzz targets judge against (one file each
 * includes it, so a static function is one copy per target). */
#ifndef LXGPU_FUZZ_HOST_H
#define LXGPU_FUZZ_HOST_H

#include "lxgpu/host.h"

#include <string.h>

/* One GPU (minor 0), its nodes, uvm at 511, a complete major table. */
static void make_host(struct lx_host *h)
{
	static char bdf[] = "0000:01:00.0", nv[] = "nvidia", drv[] = "nvidia";
	static struct lx_gpu gpu;
	gpu = (struct lx_gpu){.bdf = bdf, .vendor_id = 0x10de, .device_id = 0x2684,
			      .class_code = 0x030000, .minor = 0, .driver = drv,
			      .numa_node = -1, .iommu_group = -1};
	static char p0[] = "/dev/nvidia0", pc[] = "/dev/nvidiactl", pu[] = "/dev/nvidia-uvm",
		    pt[] = "/dev/nvidia-uvm-tools";
	static struct lx_dev_node nodes[4];
	nodes[0] = (struct lx_dev_node){p0, LX_NODE_CHAR, 195, 0, 0666, 0, 0};
	nodes[1] = (struct lx_dev_node){pu, LX_NODE_CHAR, 511, 0, 0666, 0, 0};
	nodes[2] = (struct lx_dev_node){pt, LX_NODE_CHAR, 511, 1, 0666, 0, 0};
	nodes[3] = (struct lx_dev_node){pc, LX_NODE_CHAR, 195, 255, 0666, 0, 0};
	static char mem[] = "mem", usb[] = "ttyUSB", hid[] = "hidraw", uvm[] = "nvidia-uvm",
		    drm[] = "drm";
	static struct lx_major majors[6];
	majors[0] = (struct lx_major){mem, 1};
	majors[1] = (struct lx_major){usb, 188};
	majors[2] = (struct lx_major){nv, 195};
	majors[3] = (struct lx_major){drm, 226};
	majors[4] = (struct lx_major){hid, 242};
	majors[5] = (struct lx_major){uvm, 511};
	memset(h, 0, sizeof(*h));
	h->cgroup = LX_CGROUP_V2;
	h->gpus = &gpu, h->n_gpus = 1;
	h->nodes = nodes, h->n_nodes = 4;
	h->majors = majors, h->n_majors = 6;
	h->majors_complete = true;
}

#endif
