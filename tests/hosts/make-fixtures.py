#!/usr/bin/env python3
"""Write the umockdev host fixtures (tests/hosts/<name>/) and the expected
host models (examples/hosts/<name>.yaml) from one description per host.

The fixture is what the live scanner reads (sysfs through umockdev, /proc
and /dev files in the testbed); the expected model is written here, from
the description, independently of the scanner. The scanner test checks that
scanning the fixture gives that model.

Usage: tests/hosts/make-fixtures.py BUILD/lxgpu   (canonicalizes the YAML)
See tests/hosts/README.md for the fixture format.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PCIEPORT = "pcieport"


def bridge(bdf, vendor, device, driver=PCIEPORT, acs=None):
    """acs: None (no config attribute), "nonroot" (the 64 bytes a non-root
    reader gets), "absent" (extended space without ACS) or (cap, ctrl)."""
    return dict(bdf=bdf, vendor=vendor, device=device, cls=0x060400, driver=driver, acs=acs)


# The sysfs `resource` flags of a BAR (include/linux/ioport.h IORESOURCE_*
# plus the BAR's low bits, as real GPUs show them): 32-bit memory,
# 64-bit prefetchable memory, I/O ports.
MEM32 = 0x40200
MEM64_PREF = 0x14220c
IO = 0x40101


def bars_at(base, bar0, bar1, bar3, io=None):
    """A GPU's BARs 0..5 as (start, end, flags): BAR0 32-bit registers at
    `base`, BAR1 (framebuffer) and BAR3 64-bit prefetchable at the given
    64-bit addresses; BAR2/BAR4 are the upper halves (zeros); bar1 None is
    a BAR1 the firmware did not assign (a line of zeros)."""
    def region(start, size, flags):
        return (start, start + size - 1, flags)
    zero = (0, 0, 0)
    b1 = region(bar1[0], bar1[1], MEM64_PREF) if bar1 else zero
    return [region(base, bar0, MEM32), b1, zero, region(bar3[0], bar3[1], MEM64_PREF), zero,
            region(io, 0x80, IO) if io else zero]


M, G = 1 << 20, 1 << 30


def gpu(bdf, device, cls, model, uuid, minor, numa, iommu, path, driver="nvidia",
        vbios="98.02.52.00.02", drm=(), proc_name=None, audio=True, reports_minor=True,
        bars=None, iommu_type=None, vendor=0x10de):
    """iommu_type: this GPU's group type when it differs from the host's
    (the type is per group: `echo identity > .../type` changes one).
    vendor: not NVIDIA's (Intel 0x8086, AMD 0x1002): model is then udev's
    hwdb name (ID_MODEL_FROM_DATABASE), the driver i915/xe/amdgpu."""
    return dict(bdf=bdf, device=device, cls=cls, model=model, uuid=uuid, minor=minor,
                numa=numa, iommu=iommu, path=path, driver=driver, vbios=vbios, drm=list(drm),
                proc_name=proc_name or bdf, audio=audio, reports_minor=reports_minor, bars=bars,
                iommu_type=iommu_type, vendor=vendor)


def node(path, major, minor, mode=0o666, uid=0, gid=0):
    return dict(path=path, major=major, minor=minor, mode=mode, uid=uid, gid=gid)


# ACS as `lspci -vvv` of real ports shows it (ACSCap / ACSCtl): root ports
# SV TB RR CR UF, switch downstream ports all seven bits; with an IOMMU
# driver loaded Linux sets SV RR CR UF (drivers/pci/pci.c pci_std_enable_acs).
ACS_RP_CAP, ACS_SW_CAP, ACS_LINUX_CTRL = 0x1f, 0x7f, 0x1d


def switch_path(root_bus, numa, acs=False):
    """Root port, switch upstream and downstream ports above one GPU. acs:
    each bridge's config space with ACS as Linux leaves it with an IOMMU
    (the upstream port has no ACS capability), else no config attribute."""
    rp = "0000:%02x:01.0" % root_bus
    up = "0000:%02x:00.0" % (root_bus + 1)
    down = "0000:%02x:00.0" % (root_bus + 2)
    return [bridge(rp, 0x8086, 0x352a, acs=(ACS_RP_CAP, ACS_LINUX_CTRL) if acs else None),
            bridge(up, 0x1000, 0xc030, acs="absent" if acs else None),
            bridge(down, 0x1000, 0xc030, acs=(ACS_SW_CAP, ACS_LINUX_CTRL) if acs else None)]


ASPEED = dict(bdf="0000:03:00.0", vendor=0x1a03, device=0x2000, cls=0x030000, driver="ast",
              path=[bridge("0000:00:1c.0", 0x8086, 0xa190)])

# As the kernel prints them (sources in tests/unit/test-procparse.c).
MOUNTINFO = {
    "v2": "22 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
          "26 22 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n",
    # A VPN client's net_cls v1 hierarchy below cgroup2 (mullvad/mullvadvpn-app#3651):
    # still v2 for PVE and LXC.
    "v2-net_cls": "22 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
                  "26 22 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
                  "1365 26 0:75 / /sys/fs/cgroup/net_cls rw,relatime shared:723 - cgroup cgroup rw,net_cls\n",
    "hybrid": "22 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
              "26 22 0:24 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n"
              "27 26 0:25 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw\n"
              "30 26 0:28 / /sys/fs/cgroup/devices rw,nosuid,nodev,noexec,relatime shared:13 - cgroup cgroup rw,devices\n",
    "v1": "22 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
          "26 22 0:24 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n"
          "30 26 0:28 / /sys/fs/cgroup/devices rw,nosuid,nodev,noexec,relatime shared:13 - cgroup cgroup rw,devices\n",
}

VERSION_LINES = {
    "open": "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {v}  Release Build  "
            "(dvs-builder@U22-I3-AF03-09-1)  Mon Dec  1 08:52:25 UTC 2025\n"
            "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14+deb12u1) \n",
    "proprietary": "NVRM version: NVIDIA UNIX x86_64 Kernel Module  {v}  Tue Oct  8 03:33:13 UTC 2024\n"
                   "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14+deb12u1) \n",
}

MODULE_LINES = {
    "nvidia_uvm": "nvidia_uvm 1912832 4 - Live 0x0000000000000000 (POE)",
    "nvidia_drm": "nvidia_drm 126976 3 - Live 0x0000000000000000 (POE)",
    "nvidia_modeset": "nvidia_modeset 1720320 5 nvidia_drm, Live 0x0000000000000000 (POE)",
    "nvidia": "nvidia 11563008 80 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)",
}

# DRM GPU drivers (sizes as in /proc/modules of Debian's 6.8 kernels; the
# scanner keeps nvidia* and nouveau only).
EXTRA_MODULE_LINES = {
    "i915": "i915 4194304 12 - Live 0x0000000000000000",
    "amdgpu": "amdgpu 17592320 28 - Live 0x0000000000000000",
}


# The driver's capability minors as kernel-open/nvidia/nv-caps.c (515 and
# later) hands them out: nv_cap_tables_init() numbers the entries of its
# tables in order from 0 (_nv_cap_table_init's "minor++"): nvlink's
# fabric-mgmt, mig's config and monitor, then g_nv_cap_mig_gpu_table (32
# GPUs; per GPU 15 GIs, each its access then its 8 CIs' accesses:
# NV_CAP_MIG_GI_ENTRIES), then the sys table's fabric-imex-mgmt.
# mig-minors lists the mig and gpu tables (as "gpu%d/%s" without "mig/"),
# sys-minors the last. tests/cli/test-mig.sh checks a few of these against
# numbers written by hand.
MIG_TABLE_GPUS = 32


def nv_cap_tables():
    """[(table, name)] in nv-caps.c's order; the index is the minor."""
    entries = [("nvlink", "fabric-mgmt"), ("mig", "config"), ("mig", "monitor")]
    for g in range(MIG_TABLE_GPUS):
        for gi in range(15):
            entries.append(("gpu", "gpu%d/gi%d/access" % (g, gi)))
            entries += [("gpu", "gpu%d/gi%d/ci%d/access" % (g, gi, ci)) for ci in range(8)]
    entries.append(("sys", "fabric-imex-mgmt"))
    return entries


NV_CAP_MINORS = {name: minor for minor, (_, name) in enumerate(nv_cap_tables())}


def mig_minor(gpu, gi, ci=None):
    if ci is None:
        return NV_CAP_MINORS["gpu%d/gi%d/access" % (gpu, gi)]
    return NV_CAP_MINORS["gpu%d/gi%d/ci%d/access" % (gpu, gi, ci)]


def mig_minors_entries():
    return [(name, minor) for minor, (table, name) in enumerate(nv_cap_tables())
            if table in ("mig", "gpu")]


def mig_minors_text():
    return "".join("%s %d\n" % e for e in mig_minors_entries())


def mig_model_name(table_name):
    """'gpu0/gi1/ci0/access' -> 'gpu0/mig/gi1/ci0'; 'config' -> 'mig/config'."""
    if "/" not in table_name:
        return "mig/" + table_name
    parts = table_name.split("/")[:-1]
    return "/".join([parts[0], "mig"] + parts[1:])


# DeviceFileMode the driver writes into an access file (os.c: mig/config
# and fabric-imex-mgmt OS_RUSR, monitor and every GI/CI access OS_RUGO).
def cap_mode(name):
    return 0o400 if name in ("mig/config", "fabric-imex-mgmt") else 0o444


def rtx_pro_6000_host():
    roots = [0x15, 0x36, 0x57, 0x78, 0x96, 0xb7, 0xd8, 0xe9]
    gpus = []
    for i, rb in enumerate(roots):
        numa = 0 if i < 4 else 1
        gpus.append(gpu("0000:%02x:00.0" % (rb + 3), 0x2bb5, 0x030200,
                        "NVIDIA RTX PRO 6000 Blackwell Server Edition",
                        "GPU-7c1e%04x-3b2a-4f0e-9d61-%012x" % (i * 0x1111, 0x5a0000 + i),
                        i, numa, 40 + i * 3, switch_path(rb, numa, acs=True), vbios="98.02.4a.00.04",
                        bars=bars_at(0x90000000 + i * 0x4000000, 64 * M,
                                     (0x20000000000 + i * 0x2000000000, 128 * G),
                                     (0x30000000000 + i * 0x2000000, 32 * M))))
    nodes = [node("/dev/nvidia%d" % i, 195, i) for i in range(8)]
    nodes += [node("/dev/nvidiactl", 195, 255), node("/dev/nvidia-uvm", 511, 0),
              node("/dev/nvidia-uvm-tools", 511, 1)]
    return dict(name="pve-8x-rtx-pro-6000", hostname="pve-gpu01", kernel="6.8.12-15-pve",
                cgroup="v2", version="590.48.01", flavor="open", iommu_type="identity",
                modules=["nvidia_uvm", "nvidia"], firmware=["590.48.01"], persistenced=True,
                majors=[(195, "nvidia"), (195, "nvidiactl"), (226, "drm"), (508, "nvidia-caps-imex-channels"),
                        (509, "nvidia-caps"), (511, "nvidia-uvm")],
                gpus=gpus, others=[ASPEED], nodes=nodes, other_dev=[node("/dev/dri/card0", 226, 0, 0o660, 0, 44)],
                caps=[])


def rtx_4090_host():
    rp = [bridge("0000:00:01.1", 0x1022, 0x14ab)]
    g = gpu("0000:01:00.0", 0x2684, 0x030000, "NVIDIA GeForce RTX 4090",
            "GPU-2f6a1c3e-8b4d-4e5f-a6b7-c8d9e0f1a2b3", 0, None, 14, rp,
            vbios="95.02.18.80.87",
            bars=bars_at(0xf5000000, 16 * M, (0xf800000000, 32 * G), (0xfc00000000, 32 * M),
                         io=0xf000),
            drm=[("card1", 1, 0o660, 44, True), ("renderD128", 128, 0o666, 104, True)])
    nodes = [node("/dev/nvidia0", 195, 0), node("/dev/nvidiactl", 195, 255),
             node("/dev/nvidia-modeset", 195, 254), node("/dev/nvidia-uvm", 505, 0),
             node("/dev/nvidia-uvm-tools", 505, 1),
             node("/dev/dri/card1", 226, 1, 0o660, 0, 44),
             node("/dev/dri/renderD128", 226, 128, 0o666, 0, 104)]
    return dict(name="pve-rtx-4090", hostname="pve-ws", kernel="6.8.12-4-pve", cgroup="v2",
                iommu_type="DMA-FQ",
                mountinfo="v2-net_cls",
                version="550.127.05", flavor="proprietary",
                modules=["nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia"],
                firmware=["550.127.05"], persistenced=False,
                majors=[(195, "nvidia"), (195, "nvidiactl"), (226, "drm"), (505, "nvidia-uvm")],
                gpus=[g], others=[], nodes=nodes,
                other_dev=[node("/dev/dri/card0", 226, 0, 0o660, 0, 44)],
                simpledrm=True, caps=[])


# Proxmox VE 9 (Debian 13 "trixie"): kernels 6.17 and 7.0, NVIDIA's open
# module (Blackwell needs it; 590 is open-only), the render group made by
# systemd-sysusers with a dynamic gid (992/993, not PVE 8's 104), lxc-pve
# and pve-container from dpkg's status (var/lib/dpkg/status in the fixture).
# Sources, one a value:
# - 6.17.13-2-pve on PVE 9.1 / Debian 13: NVIDIA/open-gpu-kernel-modules#1143
#   (its DKMS make.log paths /usr/src/linux-headers-6.17.13-2-pve);
# - 7.0.2-6-pve on PVE 9.2: anomixer/proxmox-vgpu-installer#19 (title "Kernel
#   Linux 7.0.2-6-pve"; #27: PVE 9 moves users to 6.17, then 7.0);
# - render 993 on a PVE 9 host, `ls -l /dev/dri`: card1 root video 0660,
#   renderD128 root render 0660 (r-pufky.github.io/docs/os/pve/gpu, "getent
#   group render > render:x:993:root # PVE GID: 993"); 992 is the gid the
#   same page shows in a Debian 13 container and issue 29 reports on PVE 9
#   hosts too (sysusers takes the highest free id below 1000);
# - lxc-pve 6.0.5, pve-container 6.1.6 (PVE 9.1) and 6.1.10 (PVE 9.2,
#   proxmox/pve-container's debian/changelog "bump version to 6.1.10",
#   May 2026);
# - 580.105.08 (the 580 branch PVE 9.1 users build with DKMS) and 590.48.01
#   open; gcc 14.2.0 is Debian 13's (the module's GCC line).
# The UUIDs, VBIOS versions, BAR addresses and IOMMU groups are made up.
def pve9_host(name, hostname, kernel, version, pve_container, render_gid, gpu_args, bars):
    """One GPU (gpu_args: bdf, device, model, uuid, IOMMU group, its root
    port, VBIOS) with its DRM nodes (card1 video 0660, renderD128 render 0660
    with render_gid), simpledrm's card0, nvidia-uvm's dynamic major."""
    bdf, device, model, uuid, iommu, root_port, vbios = gpu_args
    g = gpu(bdf, device, 0x030000, model, uuid, 0, None, iommu, [root_port], vbios=vbios,
            bars=bars, drm=[("card1", 1, 0o660, 44, True), ("renderD128", 128, 0o660, render_gid, True)])
    nodes = [node("/dev/nvidia0", 195, 0), node("/dev/nvidiactl", 195, 255),
             node("/dev/nvidia-modeset", 195, 254), node("/dev/nvidia-uvm", 510, 0),
             node("/dev/nvidia-uvm-tools", 510, 1),
             node("/dev/dri/card1", 226, 1, 0o660, 0, 44),
             node("/dev/dri/renderD128", 226, 128, 0o660, 0, render_gid)]
    return dict(name=name, hostname=hostname, kernel=kernel, cgroup="v2", iommu_type="DMA-FQ",
                version=version, flavor="open", gcc="14.2.0-19",
                modules=["nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia"],
                firmware=[version], persistenced=False,
                majors=[(195, "nvidia"), (195, "nvidiactl"), (226, "drm"),
                        (508, "nvidia-caps-imex-channels"), (509, "nvidia-caps"), (510, "nvidia-uvm")],
                gpus=[g], others=[], nodes=nodes,
                other_dev=[node("/dev/dri/card0", 226, 0, 0o660, 0, 44)],
                simpledrm=True, caps=[], lxc_version="6.0.5-3", pve_container_version=pve_container)


def pve9_rtx_5090_host():
    return pve9_host("pve9-rtx-5090", "pve9-ws", "6.17.13-2-pve", "580.105.08", "6.1.6", 993,
                     ("0000:01:00.0", 0x2b85, "NVIDIA GeForce RTX 5090",
                      "GPU-9d3e7a51-0c2b-4f6e-8a17-5b4c3d2e1f09", 16,
                      bridge("0000:00:01.1", 0x1022, 0x14ab), "98.02.2e.00.c1"),
                     bars_at(0xf4000000, 64 * M, (0xf000000000, 32 * G), (0xf800000000, 32 * M),
                             io=0xf000))


def pve9_kernel7_rtx_3090_host():
    h = pve9_host("pve9-kernel7-rtx-3090", "pve9-k7", "7.0.2-6-pve", "590.48.01", "6.1.10", 992,
                  ("0000:2b:00.0", 0x2204, "NVIDIA GeForce RTX 3090",
                   "GPU-4b8f2c6d-71a3-4e09-b5d2-8c1f0a6e3d47", 24,
                   bridge("0000:00:03.1", 0x1022, 0x1483), "94.02.42.00.a9"),
                  bars_at(0xfb000000, 16 * M, (0x7800000000, 32 * G), (0x7c00000000, 32 * M),
                          io=0xe000))
    h["persistenced"] = True
    return h


def uvm_not_loaded_host():
    rp = [bridge("0000:c0:01.1", 0x1022, 0x1483)]
    # Driver 535 names the GPU major nvidia-frontend and prints an 8-digit
    # domain in /proc/driver/nvidia/gpus on this host.
    g = gpu("0000:c1:00.0", 0x26b9, 0x030200, "NVIDIA L40S",
            "GPU-a3b1c2d4-e5f6-4789-8abc-def012345678", 0, 0, 32, rp,
            vbios="95.02.66.00.02", proc_name="00000000:c1:00.0",
            bars=bars_at(0xb3000000, 16 * M, (0x28000000000, 64 * G), (0x29000000000, 32 * M)))
    nodes = [node("/dev/nvidia0", 195, 0), node("/dev/nvidiactl", 195, 255)]
    return dict(name="pve-uvm-not-loaded", hostname="pve-l40s", kernel="6.5.13-6-pve",
                cgroup="v2", version="535.216.01", flavor="proprietary", modules=["nvidia"],
                firmware=["535.216.01"], persistenced=False,
                majors=[(195, "nvidia-frontend"), (226, "drm")],
                gpus=[g], others=[ASPEED], nodes=nodes, other_dev=[], caps=[])


def vfio_split_host():
    a = gpu("0000:41:00.0", 0x24b0, 0x030000, "NVIDIA RTX A4000",
            "GPU-0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6", 0, 0, 27,
            [bridge("0000:40:01.1", 0x1022, 0x1483)], vbios="94.04.3d.00.c4",
            bars=bars_at(0xd4000000, 16 * M, (0x38000000000, 256 * M), (0x38010000000, 32 * M),
                         io=0x7000))
    b = gpu("0000:81:00.0", 0x24b0, 0x030000, None, None, None, 1, 51,
            [bridge("0000:80:01.1", 0x1022, 0x1483)], driver="vfio-pci", vbios=None,
            bars=bars_at(0xe4000000, 16 * M, (0x48000000000, 256 * M), (0x48010000000, 32 * M),
                         io=0xb000))
    nodes = [node("/dev/nvidia0", 195, 0), node("/dev/nvidiactl", 195, 255),
             node("/dev/nvidia-uvm", 510, 0), node("/dev/nvidia-uvm-tools", 510, 1)]
    return dict(name="pve-vfio-split", hostname="pve-mixed", kernel="6.2.16-20-pve",
                iommu_type="DMA",
                cgroup="hybrid", version="570.172.08", flavor="open",
                modules=["nvidia_uvm", "nvidia"], firmware=["570.172.08"], persistenced=False,
                majors=[(195, "nvidia"), (195, "nvidiactl"), (226, "drm"), (510, "nvidia-uvm")],
                gpus=[a, b], others=[], nodes=nodes, other_dev=[], caps=[])


def h100_mig_host():
    gpus = [
        gpu("0000:1b:00.0", 0x2330, 0x030200, "NVIDIA H100 80GB HBM3",
            "GPU-9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f", 0, 0, 36, switch_path(0x18, 0),
            vbios="96.00.99.00.01",
            bars=bars_at(0x9c000000, 16 * M, (0x22000000000, 128 * G), (0x22800000000, 32 * M))),
        gpu("0000:9b:00.0", 0x2330, 0x030200, "NVIDIA H100 80GB HBM3",
            "GPU-1f2e3d4c-5b6a-4798-8a9b-cdef01234567", 1, 1, 112, switch_path(0x98, 1),
            vbios="96.00.99.00.01",
            bars=bars_at(0xce000000, 16 * M, (0x62000000000, 128 * G), (0x62800000000, 32 * M))),
    ]
    # A layout as nvidia-smi makes it on H100 80GB: GPU 0 split in two
    # 3g.40gb GPU instances (GI IDs 1 and 2), the first with two 1c.3g.40gb
    # compute instances (CI 0, 1), the second with one 3g CI; GPU 1 with
    # three 1g.10gb GPU instances (GI IDs 7, 8, 9; 1g instances get IDs 7-14
    # on a 7-slice GPU), each with its CI 0.
    layout = [(0, 1, [0, 1]), (0, 2, [0]), (1, 7, [0]), (1, 8, [0]), (1, 9, [0])]
    caps = [("mig/config", 1), ("mig/monitor", 2)]
    for g, gi, cis in layout:
        caps.append(("gpu%d/mig/gi%d" % (g, gi), mig_minor(g, gi)))
        caps += [("gpu%d/mig/gi%d/ci%d" % (g, gi, ci), mig_minor(g, gi, ci)) for ci in cis]
    nodes = [node("/dev/nvidia0", 195, 0), node("/dev/nvidia1", 195, 1),
             node("/dev/nvidiactl", 195, 255), node("/dev/nvidia-uvm", 511, 0),
             node("/dev/nvidia-uvm-tools", 511, 1),
             node("/dev/nvidia-caps-imex-channels/channel0", 507, 0)]
    nodes += [node("/dev/nvidia-caps/nvidia-cap%d" % m, 508, m, cap_mode(n)) for n, m in caps]
    # Made-up MIG UUIDs (NVML's form since R470), one per CI, by MIG device
    # index under each GPU as nvidia-smi numbers them.
    mig_uuids = [
        (0, 0, 1, 0, "1c.3g.40gb", "MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a"),
        (0, 1, 1, 1, "1c.3g.40gb", "MIG-1d6c8e6f-9b72-5031-ac1d-4e5f6071829b"),
        (0, 2, 2, 0, "3g.40gb", "MIG-2e7d9f70-ac83-5142-bd2e-5f60718293ac"),
        (1, 0, 7, 0, "1g.10gb", "MIG-3f8ea081-bd94-5253-ce3f-60718293a4bd"),
        (1, 1, 8, 0, "1g.10gb", "MIG-4a9fb192-cea5-5364-df40-718293a4b5ce"),
        (1, 2, 9, 0, "1g.10gb", "MIG-5ba0c2a3-dfb6-5475-e051-8293a4b5c6df"),
    ]
    return dict(name="pve-h100-mig", hostname="pve-h100", kernel="6.8.12-15-pve",
                iommu_type="identity", mig_uuids=mig_uuids,
                cgroup="v2", version="570.172.08", flavor="open",
                modules=["nvidia_uvm", "nvidia"], firmware=["570.172.08"], persistenced=True,
                majors=[(195, "nvidia"), (195, "nvidiactl"), (226, "drm"), (507, "nvidia-caps-imex-channels"),
                        (508, "nvidia-caps"), (511, "nvidia-uvm")],
                gpus=gpus, others=[ASPEED], nodes=nodes, other_dev=[], caps=caps,
                mig_minors=True)


def legacy_no_minor_host():
    """A driver that omits "Device Minor" (canonical/lxd#3950): two K80 GPUs."""
    rp = [bridge("0000:00:02.0", 0x8086, 0x6f04), bridge("0000:02:00.0", 0x10b5, 0x8747),
          bridge("0000:03:08.0", 0x10b5, 0x8747)]
    rp2 = rp[:2] + [bridge("0000:03:10.0", 0x10b5, 0x8747)]
    gpus = [gpu("0000:04:00.0", 0x102d, 0x030200, "Tesla K80",
                "GPU-51a2b3c4-d5e6-47f8-9a0b-1c2d3e4f5a6b", 0, 0, 30, rp,
                vbios="80.21.1f.00.01", reports_minor=False, audio=False),
            gpu("0000:05:00.0", 0x102d, 0x030200, "Tesla K80",
                "GPU-62b3c4d5-e6f7-4809-ab1c-2d3e4f5a6b7c", 1, 0, 31, rp2,
                vbios="80.21.1f.00.02", reports_minor=False, audio=False)]
    nodes = [node("/dev/nvidia0", 195, 0), node("/dev/nvidia1", 195, 1),
             node("/dev/nvidiactl", 195, 255), node("/dev/nvidia-uvm", 236, 0),
             node("/dev/nvidia-uvm-tools", 236, 1)]
    return dict(name="legacy-no-device-minor", hostname="pve-k80", kernel="5.15.158-2-pve",
                cgroup="v1", version="470.256.02", flavor="proprietary",
                modules=["nvidia_uvm", "nvidia"], firmware=[], persistenced=False,
                majors=[(195, "nvidia-frontend"), (226, "drm"), (236, "nvidia-uvm")],
                gpus=gpus, others=[ASPEED], nodes=nodes, other_dev=[], caps=[], example=False)


def no_gpu_host():
    """A server without any NVIDIA GPU: only the BMC's VGA."""
    return dict(name="no-nvidia-gpu", hostname="pve-plain", kernel="6.8.12-15-pve",
                cgroup="v2", version=None, flavor="unknown", modules=[], firmware=[],
                persistenced=False, majors=[(226, "drm")], gpus=[], others=[ASPEED], nodes=[],
                other_dev=[node("/dev/dri/card0", 226, 0, 0o660, 0, 44)], caps=[],
                example=False)


# ---- Intel and AMD GPUs (DRM nodes; AMD's /dev/kfd) ----
# Layouts from public listings (tests/hosts/README.md cites them): an iGPU at
# 0000:00:02.0 with card0 and renderD128 and their by-path links
# (canonical/lxd#4591: `tree /dev/dri`, /sys/devices/pci0000:00/0000:00:02.0/drm);
# card0 root:video 0660 and renderD128 root:render 0660, video 44 and render
# 104 on Proxmox (jellyfin/jellyfin.org#982, tteck/Proxmox#2523); /dev/kfd
# root:render 0660 with a dynamic major (511 in ROCm/legacy-rocm-build#5379,
# 237 in truenas/apps#2948): the next free one after the builtins here.

def intel_igpu_host():
    g = gpu("0000:00:02.0", 0x4680, 0x030000, "Alder Lake-S GT1 [UHD Graphics 770]", None, None,
            None, None, [], driver="i915", vbios=None, audio=False, vendor=0x8086,
            drm=[("card0", 0, 0o660, 44, True), ("renderD128", 128, 0o660, 104, True)])
    nodes = [node("/dev/dri/card0", 226, 0, 0o660, 0, 44),
             node("/dev/dri/renderD128", 226, 128, 0o660, 0, 104)]
    return dict(name="pve-intel-igpu", hostname="pve-nuc", kernel="6.8.12-15-pve", cgroup="v2",
                version=None, flavor="unknown", modules=[], extra_modules=["i915"], firmware=[],
                persistenced=False, majors=[(226, "drm")], gpus=[g], others=[], nodes=nodes,
                other_dev=[], caps=[])


def amd_rocm_host():
    # A Radeon RX 7900 XTX behind its own switch (upstream and downstream
    # port 1002:1478/1479), simpledrm's card0 from boot, and the CPU's
    # iGPU left out by the firmware.
    sw = [bridge("0000:00:01.1", 0x1022, 0x14ab), bridge("0000:01:00.0", 0x1002, 0x1478),
          bridge("0000:02:00.0", 0x1002, 0x1479)]
    g = gpu("0000:03:00.0", 0x744c, 0x030000,
            "Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]", None, None, None, 15, sw,
            driver="amdgpu", vbios=None, vendor=0x1002,
            drm=[("card1", 1, 0o660, 44, True), ("renderD128", 128, 0o660, 104, True)])
    nodes = [node("/dev/dri/card1", 226, 1, 0o660, 0, 44),
             node("/dev/dri/renderD128", 226, 128, 0o660, 0, 104),
             node("/dev/kfd", 511, 0, 0o660, 0, 104)]
    return dict(name="pve-amd-rocm", hostname="pve-ai", kernel="6.8.12-15-pve", cgroup="v2",
                iommu_type="DMA-FQ", version=None, flavor="unknown", modules=[],
                extra_modules=["amdgpu"], firmware=[], persistenced=False,
                majors=[(226, "drm"), (511, "kfd")], gpus=[g], others=[], nodes=nodes,
                other_dev=[node("/dev/dri/card0", 226, 0, 0o660, 0, 44)], simpledrm=True,
                caps=[])


# ---- peer-to-peer hosts (tests/hosts/run-p2p.sh; verdicts in <name>/p2p.expected) ----

def p2p_gpu(i, bdf, numa, iommu, path, bars=True, driver="nvidia", iommu_type=None):
    """An L40S; BAR1 None: the firmware did not assign it (a line of zeros)."""
    return gpu(bdf, 0x26b9, 0x030200, "NVIDIA L40S" if driver == "nvidia" else None,
               "GPU-5e1a%04x-0b1c-4d2e-8f30-%012x" % (i, 0x40500 + i), i, numa, iommu, path,
               driver=driver, vbios="95.02.66.00.02" if driver == "nvidia" else None,
               audio=False, iommu_type=iommu_type,
               bars=bars_at(0xa0000000 + i * 0x1000000, 16 * M,
                            (0x40000000000 + i * 0x1000000000, 64 * G) if bars else None,
                            (0x50000000000 + i * 0x2000000, 32 * M)))


def p2p_nodes(n):
    nodes = [node("/dev/nvidia%d" % i, 195, i) for i in range(n)]
    return nodes + [node("/dev/nvidiactl", 195, 255), node("/dev/nvidia-uvm", 511, 0),
                    node("/dev/nvidia-uvm-tools", 511, 1)]


def p2p_host(name, hostname, gpus, n_nodes, iommu_type):
    return dict(name=name, hostname=hostname, kernel="6.8.12-15-pve", cgroup="v2",
                version="570.172.08", flavor="open", iommu_type=iommu_type,
                modules=["nvidia_uvm", "nvidia"], firmware=["570.172.08"], persistenced=True,
                majors=[(195, "nvidia"), (195, "nvidiactl"), (226, "drm"), (511, "nvidia-uvm")],
                gpus=gpus, others=[], nodes=p2p_nodes(n_nodes), other_dev=[], caps=[],
                example=False)


AMD_RP, BRCM_SW = (0x1022, 0x14ab), (0x1000, 0xc030)


def p2p_switch_acs_host():
    """iommu=pt (groups identity). Two switches on two root ports of one
    host bridge: the first's downstream ports keep Linux's ACS (SV RR CR
    UF), the second's were cleared (pci=disable_acs_redir leaves SV UF on
    one, the other all off). A fifth GPU on its own root port has no BAR1
    (the firmware could not place it) and no driver."""
    rp1 = bridge("0000:40:01.1", *AMD_RP, acs=(ACS_RP_CAP, ACS_LINUX_CTRL))
    rp2 = bridge("0000:40:03.1", *AMD_RP, acs=(ACS_RP_CAP, ACS_LINUX_CTRL))
    rp3 = bridge("0000:40:05.1", *AMD_RP, acs=(ACS_RP_CAP, ACS_LINUX_CTRL))
    up1 = bridge("0000:41:00.0", *BRCM_SW, acs="absent")
    up2 = bridge("0000:45:00.0", *BRCM_SW, acs="absent")
    gpus = [
        p2p_gpu(0, "0000:43:00.0", 0, 20, [rp1, up1, bridge("0000:42:00.0", *BRCM_SW, acs=(ACS_SW_CAP, 0x1d))]),
        p2p_gpu(1, "0000:44:00.0", 0, 21, [rp1, up1, bridge("0000:42:01.0", *BRCM_SW, acs=(ACS_SW_CAP, 0x1d))]),
        p2p_gpu(2, "0000:47:00.0", 0, 22, [rp2, up2, bridge("0000:46:00.0", *BRCM_SW, acs=(ACS_SW_CAP, 0x00))]),
        p2p_gpu(3, "0000:48:00.0", 0, 23, [rp2, up2, bridge("0000:46:01.0", *BRCM_SW, acs=(ACS_SW_CAP, 0x11))]),
        p2p_gpu(4, "0000:49:00.0", 0, 24, [rp3], bars=False, driver=None),
    ]
    return p2p_host("p2p-switch-acs", "pve-p2p-a", gpus, 4, "identity")


def p2p_nonroot_host():
    """Scanned as a non-root user: every bridge's config reads 64 bytes.
    GPUs 0 and 1 share a switch, GPU 2 is on the other socket; GPU 2's
    group is DMA (translated), the others identity."""
    rp0 = bridge("0000:00:01.0", 0x8086, 0x352a, acs="nonroot")
    up = bridge("0000:01:00.0", *BRCM_SW, acs="nonroot")
    gpus = [
        p2p_gpu(0, "0000:03:00.0", 0, 30, [rp0, up, bridge("0000:02:00.0", *BRCM_SW, acs="nonroot")]),
        p2p_gpu(1, "0000:04:00.0", 0, 31, [rp0, up, bridge("0000:02:01.0", *BRCM_SW, acs="nonroot")]),
        p2p_gpu(2, "0000:81:00.0", 1, 60, [bridge("0000:80:01.0", 0x8086, 0x352a, acs="nonroot")],
                iommu_type="DMA"),
    ]
    return p2p_host("p2p-nonroot-dma", "pve-p2p-b", gpus, 3, "identity")


def p2p_no_iommu_host():
    """The IOMMU off (no groups): Linux never touches ACS, so what the
    firmware set stays. One switch's port has Request Redirect alone
    (0x0004), its sibling nothing; a second switch has no ACS capability."""
    rp1 = bridge("0000:00:03.0", 0x8086, 0x2f08, acs="absent")
    rp2 = bridge("0000:00:05.0", 0x8086, 0x2f0a, acs="absent")
    up1 = bridge("0000:05:00.0", 0x10b5, 0x8747, acs="absent")
    up2 = bridge("0000:09:00.0", 0x10b5, 0x8747, acs="absent")
    gpus = [
        p2p_gpu(0, "0000:07:00.0", 0, None, [rp1, up1, bridge("0000:06:00.0", 0x10b5, 0x8747, acs=(0x5f, 0x04))]),
        p2p_gpu(1, "0000:08:00.0", 0, None, [rp1, up1, bridge("0000:06:04.0", 0x10b5, 0x8747, acs=(0x5f, 0x00))]),
        p2p_gpu(2, "0000:0b:00.0", 0, None, [rp2, up2, bridge("0000:0a:00.0", 0x10b5, 0x8747, acs="absent")]),
        p2p_gpu(3, "0000:0c:00.0", 0, None, [rp2, up2, bridge("0000:0a:01.0", 0x10b5, 0x8747, acs="absent")]),
    ]
    return p2p_host("p2p-no-iommu", "pve-p2p-c", gpus, 4, None)


# ---- writers ----

def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)


def sys_path(dev):
    """/devices/pci0000:XX/<bridges...>/<bdf>"""
    parts = [b["bdf"] for b in dev["path"]] + [dev["bdf"]]
    return "/devices/pci%s/%s" % (parts[0][:7], "/".join(parts))


def resource_text(bars):
    """sysfs `resource` of an endpoint (drivers/pci/pci-sysfs.c resource_show):
    one "0x%016llx 0x%016llx 0x%016llx" line per resource: BARs 0..5, the
    ROM, the six SR-IOV BARs."""
    lines = list(bars) + [(0, 0, 0)] * 7
    return "".join("0x%016x 0x%016x 0x%016x\n" % r for r in lines)


def config_space(dev):
    """A bridge's config space as sysfs `config` gives it: 64 bytes to a
    non-root reader, else 4096 with the extended capability list at 0x100
    (PCIe Base spec 7.6.3: ID 15:0, version 19:16, next 31:20): AER
    (0x0001) at 0x100, then ACS (0x000d: capability register +4, control
    +6) at 0x148, or Secondary PCIe (0x0019) there when it has no ACS."""
    acs = dev["acs"]
    cfg = bytearray(4096)
    cfg[0:4] = bytes([dev["vendor"] & 0xff, dev["vendor"] >> 8, dev["device"] & 0xff,
                      dev["device"] >> 8])
    cfg[0x0a:0x0c] = bytes([0x04, 0x06])  # class 0x0604: PCI-to-PCI bridge
    cfg[0x0e] = 0x01                      # header type 1
    if acs == "nonroot":
        return bytes(cfg[:64])

    def ext_cap(pos, cap_id, version, next_pos):
        cfg[pos:pos + 4] = (cap_id | version << 16 | next_pos << 20).to_bytes(4, "little")
    ext_cap(0x100, 0x0001, 2, 0x148)
    if acs == "absent":
        ext_cap(0x148, 0x0019, 1, 0)
    else:
        cap, ctrl = acs
        ext_cap(0x148, 0x000d, 1, 0)
        cfg[0x14c:0x14e] = cap.to_bytes(2, "little")
        cfg[0x14e:0x150] = ctrl.to_bytes(2, "little")
    return bytes(cfg)


def pci_record(dev, numa, iommu):
    depth = sys_path(dev).count("/")
    up = "/".join([".."] * depth)
    lines = ["P: " + sys_path(dev),
             "E: PCI_CLASS=%X" % dev["cls"],
             "E: PCI_ID=%04X:%04X" % (dev["vendor"], dev["device"]),
             "E: PCI_SLOT_NAME=" + dev["bdf"],
             "E: SUBSYSTEM=pci",
             "A: class=0x%06x" % dev["cls"],
             "A: vendor=0x%04x" % dev["vendor"],
             "A: device=0x%04x" % dev["device"],
             "A: numa_node=%d" % (-1 if numa is None else numa)]
    if dev.get("vendor", 0x10de) != 0x10de and dev.get("model") and dev["cls"] >> 16 == 3:
        lines.insert(1, "E: ID_MODEL_FROM_DATABASE=" + dev["model"])
    if dev.get("driver"):
        lines.insert(1, "E: DRIVER=" + dev["driver"])
        lines.append("L: driver=%s/bus/pci/drivers/%s" % (up, dev["driver"]))
    if iommu is not None:
        lines.append("L: iommu_group=%s/kernel/iommu_groups/%d" % (up, iommu))
    if dev.get("bars"):
        lines.append("A: resource=" + resource_text(dev["bars"]).replace("\n", "\\n"))
    if dev.get("acs"):
        lines.append("H: config=" + config_space(dev).hex())
    return "\n".join(lines) + "\n\n"


def drm_record(parent_syspath, name, minor, devtype="drm_minor"):
    lines = ["P: %s/drm/%s" % (parent_syspath, name), "E: SUBSYSTEM=drm",
             "E: DEVTYPE=" + devtype]
    if devtype == "drm_minor":
        lines += ["E: DEVNAME=/dev/dri/" + name, "E: MAJOR=226", "E: MINOR=%d" % minor,
                  "A: dev=226:%d" % minor]
    return "\n".join(lines) + "\n\n"


def umockdev_text(h):
    out = []
    seen = set()
    for dev in h["others"] + h["gpus"]:
        for i, b in enumerate(dev["path"]):
            if b["bdf"] in seen:
                continue
            seen.add(b["bdf"])
            out.append(pci_record(dict(b, path=dev["path"][:i]), None, None))
    for dev in h["others"]:
        out.append(pci_record(dev, None, 3))
        out.append(drm_record(sys_path(dev), "card0", 0))
    for g in h["gpus"]:
        gd = dict(g)
        out.append(pci_record(gd, g["numa"], g["iommu"]))
        if g["audio"]:
            audio = dict(gd, bdf=g["bdf"][:-1] + "1", cls=0x040300, device=0x22ba,
                         driver="snd_hda_intel", bars=None)
            out.append(pci_record(audio, g["numa"], g["iommu"]))
        for name, minor, _, _, _ in g["drm"]:
            out.append(drm_record(sys_path(gd), name, minor))
            if name.startswith("card"):
                for conn in ("DP-1", "HDMI-A-1"):
                    out.append(drm_record(sys_path(gd), "%s-%s" % (name, conn), 0,
                                          "drm_connector"))
    if h.get("simpledrm"):
        out.append("P: /devices/platform/simple-framebuffer.0\nE: SUBSYSTEM=platform\n\n")
        out.append(drm_record("/devices/platform/simple-framebuffer.0", "card0", 0))
    return "".join(out)


def information_text(g):
    lines = ["Model: \t\t %s" % g["model"], "IRQ:   \t\t %d" % (200 + g["minor"]),
             "GPU UUID: \t %s" % g["uuid"], "Video BIOS: \t %s" % g["vbios"],
             "Bus Type: \t PCIe", "DMA Size: \t 52 bits", "DMA Mask: \t 0xfffffffffffff",
             "Bus Location: \t %s" % g["bdf"]]
    if g["reports_minor"]:
        lines += ["Device Minor: \t %d" % g["minor"], "GPU Excluded:\t No"]
    return "\n".join(lines) + "\n"


# The "Character devices:" of a Proxmox VE host without its NVIDIA entries
# (each host adds its own). Static part: as posted from a GPU node in
# NVIDIA/gdrcopy#115 (1 mem ... 203 cpu/cpuid), less what a 6.x kernel no
# longer has (162 raw) and that site's own modules (Intel SEP/VTune: ss,
# kdump, trace, sep4_*, socperf2_0, pax). Dynamic part: a 6.x kernel hands
# out 254 downward to 234 in load order, then 511 downward (fs/char_dev.c);
# the builtins come first as on this project's dev machine (254 ndctl,
# 253 dimmctl, 252 dax, 251 pps, 250 ptp, 249 watchdog, 248 bsg), then
# modules. Same-number entries are in minor order, as the kernel lists them.
CHAR_STATIC = [(1, "mem"), (4, "/dev/vc/0"), (4, "tty"), (4, "ttyS"), (5, "/dev/tty"),
               (5, "/dev/console"), (5, "/dev/ptmx"), (7, "vcs"), (10, "misc"), (13, "input"),
               (21, "sg"), (29, "fb"), (89, "i2c"), (128, "ptm"), (136, "pts"), (180, "usb"),
               (188, "ttyUSB"), (189, "usb_device"), (202, "cpu/msr"), (203, "cpu/cpuid")]
CHAR_DYNAMIC = [(254, "ndctl"), (253, "dimmctl"), (252, "dax"), (251, "pps"), (250, "ptp"),
                (249, "watchdog"), (248, "bsg"), (247, "dma_heap"), (246, "rtc"), (245, "tpm"),
                (244, "ipmidev"), (243, "mei"), (242, "hidraw"), (241, "cec"), (240, "aux"),
                (239, "nvme-generic"), (238, "nvme"), (237, "vfio"), (236, "macvtap"),
                (235, "gpiochip"), (234, "uio")]


def char_majors(h):
    """The host's whole table, /proc/devices order (by number, then as listed)."""
    taken = {m for m, _ in h["majors"]}
    # Dynamic majors go in load order: once one is taken by an NVIDIA module
    # (the legacy host's nvidia-uvm at 236), the later modules never loaded.
    dynamic = []
    for m, name in CHAR_DYNAMIC:
        if m in taken:
            break
        dynamic.append((m, name))
    return sorted(CHAR_STATIC + dynamic + list(h["majors"]), key=lambda e: e[0])


def proc_devices_text(h):
    lines = ["Character devices:"] + ["%3d %s" % m for m in char_majors(h)]
    # Block majors share numbers with character ones (230 zvol on ZFS hosts):
    # the scanner must not take them.
    lines += ["", "Block devices:", "  7 loop", "  8 sd", "  9 md", " 11 sr", " 65 sd",
              " 66 sd", "230 zvol", "253 device-mapper", "254 mdp", "259 blkext"]
    return "\n".join(lines) + "\n"


def modules_text(h):
    lines = ["kvm_amd 200704 0 - Live 0x0000000000000000",
             "vfio_pci 16384 0 - Live 0x0000000000000000"]
    lines += [MODULE_LINES[m] for m in h["modules"]]
    lines += [EXTRA_MODULE_LINES[m] for m in h.get("extra_modules", [])]
    return "\n".join(lines) + "\n"


HAND_WRITTEN = ("p2p.expected", "p2p-doctor.expected", "mig-uuid.expected")


def write_fixture(h):
    d = os.path.join(ROOT, "tests", "hosts", h["name"])
    # Hand-written expectations are no output of this generator: kept.
    kept = {}
    for f in HAND_WRITTEN:
        if os.path.exists(os.path.join(d, f)):
            with open(os.path.join(d, f)) as fh:
                kept[f] = fh.read()
    shutil.rmtree(d, ignore_errors=True)
    for f, text in kept.items():
        write(os.path.join(d, f), text)
    write(os.path.join(d, "devices.umockdev"), umockdev_text(h))
    proc = os.path.join(d, "proc")
    write(os.path.join(proc, "sys/kernel/hostname"), h["hostname"] + "\n")
    write(os.path.join(proc, "sys/kernel/osrelease"), h["kernel"] + "\n")
    write(os.path.join(proc, "self/mountinfo"), MOUNTINFO[h.get("mountinfo", h["cgroup"])])
    write(os.path.join(proc, "devices"), proc_devices_text(h))
    write(os.path.join(proc, "modules"), modules_text(h))
    if h["version"]:
        text = VERSION_LINES[h["flavor"]].format(v=h["version"])
        if h.get("gcc"):
            text = text.replace("12.2.0 (Debian 12.2.0-14+deb12u1)",
                                "%s (Debian %s)" % (h["gcc"].split("-")[0], h["gcc"]))
        write(os.path.join(proc, "driver/nvidia/version"), text)
        write(os.path.join(proc, "driver/nvidia/params"), "ResmanDebugLevel: 4294967295\n")
    for g in h["gpus"]:
        if g["driver"] == "nvidia":
            write(os.path.join(proc, "driver/nvidia/gpus", g["proc_name"], "information"),
                  information_text(g))
    for name, minor in h["caps"]:
        f = name if name.startswith("mig/") else name + "/access"
        write(os.path.join(proc, "driver/nvidia/capabilities", f),
              "DeviceFileMinor: %d\nDeviceFileMode: %d\nDeviceFileModify: 1\n"
              % (minor, cap_mode(name)))
    # Proxmox VE 9's packages as dpkg's status lists them (read through
    # --subid-root, tests/lib/in-testbed.sh): lxc-pve replaces Debian's lxc.
    if h.get("lxc_version"):
        write(os.path.join(d, "var/lib/dpkg/status"),
              "Package: lxc-pve\nStatus: install ok installed\nVersion: %s\n"
              "Provides: liblxc1, lxc\n\nPackage: pve-container\nStatus: install ok installed\n"
              "Version: %s\n" % (h["lxc_version"], h["pve_container_version"]))
    # The running kernel's config (passed as --boot-dir): Proxmox's kernels
    # (Ubuntu's config) build HMM_MIRROR and DEVICE_PRIVATE, which amdgpu's
    # SVM needs too; only the lines the scan reads.
    write(os.path.join(d, "boot", "config-" + h["kernel"]), kernel_config_text(h))
    if uvm_disable_hmm(h) is not None:
        write(os.path.join(d, "sys/module/nvidia_uvm/parameters/uvm_disable_hmm"),
              "Y\n" if uvm_disable_hmm(h) else "N\n")
    if h.get("mig_uuids"):
        # Run through --driver-root (tests/lib/in-testbed.sh).
        write(os.path.join(d, "root/usr/bin/nvidia-smi"), nvidia_smi_script(h), 0o755)
    if h.get("mig_minors"):
        write(os.path.join(proc, "driver/nvidia-caps/mig-minors"), mig_minors_text())
        write(os.path.join(proc, "driver/nvidia-caps/sys-minors"),
              "fabric-imex-mgmt %d\n" % NV_CAP_MINORS["fabric-imex-mgmt"])

    attrs = []
    for n in h["nodes"] + h["other_dev"]:
        rel = n["path"][len("/dev/"):]
        write(os.path.join(d, "dev", rel), "")
        link = os.path.join(d, "dev", ".node", rel.replace("/", "_"))
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink("%d:%d" % (n["major"], n["minor"]), link)
        attrs.append("%04o %d %d %s" % (n["mode"], n["uid"], n["gid"], n["path"]))
    for g in h["gpus"]:
        for name, _, _, _, by_path in g["drm"]:
            if by_path:
                kind = "render" if name.startswith("render") else "card"
                link = os.path.join(d, "dev/dri/by-path", "pci-%s-%s" % (g["bdf"], kind))
                os.makedirs(os.path.dirname(link), exist_ok=True)
                os.symlink("../" + name, link)
    write(os.path.join(d, "dev.attrs"),
          "# mode uid gid path: applied to the testbed's /dev files\n" + "\n".join(attrs) + "\n")
    for v in h["firmware"]:
        for chip in ("ga10x", "tu10x"):
            write(os.path.join(d, "lib/firmware/nvidia", v, "gsp_%s.bin" % chip), "fake\n")
    if h["persistenced"]:
        write(os.path.join(d, "run/nvidia-persistenced/socket"), "")
    # The DRM drivers' firmware directories, each with a file of its GPU
    # (linux-firmware's names), and amdkfd's topology: the CPU's node 0,
    # then a GPU node per amdgpu GPU with its domain and location_id
    # (pci_dev_id: bus << 8 | devfn), as kfd_topology.c node_show prints
    # them ("%s %u" lines): what doctor's live checks read (src/host/firmware.c).
    drm_fw = {"amdgpu": "amdgpu/gc_11_0_0_pfp.bin", "i915": "i915/adls_dmc_ver2_01.bin"}
    for g in h["gpus"]:
        if g["driver"] in drm_fw:
            write(os.path.join(d, "lib/firmware", drm_fw[g["driver"]]), "fake\n")
    amd = [g for g in h["gpus"] if g["driver"] == "amdgpu"]
    if amd:
        nodes = os.path.join(d, "sys/class/kfd/kfd/topology/nodes")
        write(os.path.join(nodes, "0/properties"),
              "cpu_cores_count 16\nsimd_count 0\nmem_banks_count 1\nvendor_id 0\ndevice_id 0\n"
              "location_id 0\ndomain 0\ndrm_render_minor 0\n")
        for i, g in enumerate(amd, 1):
            dom, bus, rest = g["bdf"].split(":")
            slot, fn = rest.split(".")
            loc = int(bus, 16) << 8 | int(slot, 16) << 3 | int(fn)
            render = [m for name, m, _, _, _ in g["drm"] if name.startswith("render")]
            write(os.path.join(nodes, "%d/properties" % i),
                  "cpu_cores_count 0\nsimd_count 192\nmem_banks_count 1\nvendor_id %d\n"
                  "device_id %d\nlocation_id %d\ndomain %d\ndrm_render_minor %d\n"
                  % (g["vendor"], g["device"], loc, int(dom, 16), render[0] if render else 0))
    # /sys/kernel/iommu_groups/N/type (outside /sys/devices: the testbed gets
    # it from the fixture's sys/); the kernel prints the type and a newline.
    for g in h["gpus"] + h["others"]:
        t = g.get("iommu_type") or h.get("iommu_type")
        if t and (g.get("iommu") is not None or g in h["others"]):
            group = g["iommu"] if g in h["gpus"] else 3
            write(os.path.join(d, "sys/kernel/iommu_groups/%d/type" % group), t + "\n")


def kernel_config_text(h):
    if h.get("kernel_hmm", True):
        return "CONFIG_ZONE_DEVICE=y\nCONFIG_HMM_MIRROR=y\nCONFIG_DEVICE_PRIVATE=y\n"
    return "CONFIG_ZONE_DEVICE=y\n# CONFIG_HMM_MIRROR is not set\n# CONFIG_DEVICE_PRIVATE is not set\n"


def uvm_disable_hmm(h):
    """nvidia_uvm's parameter as sysfs has it: None when nvidia_uvm is not
    loaded. These hosts are working ones: with the open module their admin
    has turned HMM off (options nvidia_uvm uvm_disable_hmm=1, the fix of
    cuInit error 3, LXG132); the proprietary module keeps the default N."""
    if "nvidia_uvm" not in h["modules"]:
        return None
    return h.get("uvm_disable_hmm", h["flavor"] == "open")


def nvidia_smi_script(h):
    """A stand-in nvidia-smi answering -L and -q -x as the real one prints them
    (NVIDIA's MIG user guide and public outputs: telegraf#5812 for -L on
    R535, nvsmi_device_v12.dtd XML as gpustack's fixture quotes it; only the
    elements the scan reads, in the real order: mig_devices before uuid)."""
    listing, xml = [], ['<?xml version="1.0" ?>',
                        '<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">',
                        "<nvidia_smi_log>", "\t<driver_version>%s</driver_version>" % h["version"],
                        "\t<attached_gpus>%d</attached_gpus>" % len(h["gpus"])]
    for i, g in enumerate(h["gpus"]):
        listing.append("GPU %d: %s (UUID: %s)" % (i, g["model"], g["uuid"]))
        mine = [m for m in h["mig_uuids"] if m[0] == i]
        xml += ['\t<gpu id="0000%s">' % g["bdf"].upper(), "\t\t<product_name>%s</product_name>" % g["model"],
                "\t\t<mig_mode>", "\t\t\t<current_mig>Enabled</current_mig>",
                "\t\t\t<pending_mig>Enabled</pending_mig>", "\t\t</mig_mode>", "\t\t<mig_devices>"]
        for _, index, gi, ci, profile, uuid in mine:
            listing.append("  MIG %-12s Device %2d: (UUID: %s)" % (profile, index, uuid))
            xml += ["\t\t\t<mig_device>", "\t\t\t\t<index>%d</index>" % index,
                    "\t\t\t\t<gpu_instance_id>%d</gpu_instance_id>" % gi,
                    "\t\t\t\t<compute_instance_id>%d</compute_instance_id>" % ci,
                    "\t\t\t</mig_device>"]
        xml += ["\t\t</mig_devices>", "\t\t<uuid>%s</uuid>" % g["uuid"],
                "\t\t<minor_number>%d</minor_number>" % g["minor"], "\t</gpu>"]
    xml.append("</nvidia_smi_log>")
    return ("#!/bin/sh\n# A stand-in nvidia-smi (tests/hosts/make-fixtures.py)\n"
            "case \"$*\" in\n-L) cat <<'EOF'\n%s\nEOF\n;;\n-q\\ -x) cat <<'EOF'\n%s\nEOF\n;;\n"
            "*) exit 6 ;;\nesac\n" % ("\n".join(listing), "\n".join(xml)))


def expected_model(h):
    gpus = []
    for i, g in enumerate(h["gpus"]):
        on_nvidia = g["driver"] == "nvidia"
        gpus.append({
            "index": i, "bdf": g["bdf"], "vendor_id": "0x%04x" % g["vendor"],
            "device_id": "0x%04x" % g["device"], "class": "0x%06x" % g["cls"],
            "model": g["model"] if on_nvidia or g["vendor"] != 0x10de else None,
            "uuid": g["uuid"] if on_nvidia else None,
            "vbios": g["vbios"] if on_nvidia else None,
            "minor": g["minor"] if on_nvidia and g["reports_minor"] else None,
            "driver": g["driver"], "numa_node": g["numa"], "iommu_group": g["iommu"],
            "iommu_type": "none" if g["iommu"] is None else (g["iommu_type"] or h.get("iommu_type")),
            "pcie_path": [b["bdf"] for b in g["path"]],
            "bars": None if g["bars"] is None else [
                {"index": i, "start": "0x%016x" % b[0], "end": "0x%016x" % b[1],
                 "flags": "0x%016x" % b[2]} for i, b in enumerate(g["bars"])],
            "drm": [{"name": n, "by_path": ("pci-%s-%s" % (g["bdf"], "render" if n.startswith("render") else "card")) if bp else None}
                    for n, _, _, _, bp in sorted(g["drm"])],
        })
    model = {
        "schema": 2, "hostname": h["hostname"], "kernel": h["kernel"], "cgroup": h["cgroup"],
        "lxc_version": h["lxc_version"].split("-")[0] if h.get("lxc_version") else None,
        "pve_container_version": h.get("pve_container_version"),
        "driver": {"version": h["version"], "flavor": h["flavor"], "modules": h["modules"],
                   "firmware": h["firmware"], "persistenced": h["persistenced"],
                   "uvm_disable_hmm": uvm_disable_hmm(h)},
        "kernel_config": {"source": "/boot/config-" + h["kernel"],
                          "hmm_mirror": h.get("kernel_hmm", True),
                          "device_private": h.get("kernel_hmm", True)},
        "majors_complete": True,
        "majors": [{"major": m, "name": n} for m, n in char_majors(h)],
        "gpus": gpus,
        "nodes": [dict(n, type="char", mode="%04o" % n["mode"])
                  for n in sorted(h["nodes"], key=lambda n: n["path"])],
        "capabilities": [{"name": n, "minor": m} for n, m in sorted(h["caps"])],
        "bridges": [bridge_model(b) for b in sorted(
            {b["bdf"]: b for g in h["gpus"] for b in g["path"]}.values(),
            key=lambda b: b["bdf"])],
    }
    if h.get("mig_minors"):
        # The scan keeps config, monitor and the host's GPUs (by minor).
        minors = {g["minor"] for g in h["gpus"]}
        model["mig_minors"] = [
            {"name": mig_model_name(n), "minor": m} for n, m in mig_minors_entries()
            if "/" not in n or int(n.split("/")[0][3:]) in minors]
    if h.get("mig_uuids"):
        model["mig_uuids"] = [{"uuid": u, "gpu": g, "gi": gi, "ci": ci}
                              for g, _, gi, ci, _, u in sorted(h["mig_uuids"], key=lambda m: m[:4])]
    return model


def bridge_model(b):
    acs = b["acs"]
    if acs is None or acs == "nonroot":
        return {"bdf": b["bdf"], "acs": None, "acs_capability": None, "acs_control": None}
    if acs == "absent":
        return {"bdf": b["bdf"], "acs": "absent", "acs_capability": None, "acs_control": None}
    return {"bdf": b["bdf"], "acs": "present", "acs_capability": "0x%04x" % acs[0],
            "acs_control": "0x%04x" % acs[1]}


def main():
    lxgpu = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "lxgpu")
    for h in (rtx_pro_6000_host(), rtx_4090_host(), uvm_not_loaded_host(), vfio_split_host(),
              h100_mig_host(), legacy_no_minor_host(), no_gpu_host(), p2p_switch_acs_host(),
              p2p_nonroot_host(), p2p_no_iommu_host(), intel_igpu_host(), amd_rocm_host(),
              pve9_rtx_5090_host(), pve9_kernel7_rtx_3090_host()):
        write_fixture(h)
        # JSON is YAML: lxgpu loads it (validating it) and writes the canonical YAML.
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            json.dump(expected_model(h), f, indent=1)
        # Example hosts are worth showing users; the rest are test-only.
        if h.get("example", True):
            out = os.path.join(ROOT, "examples", "hosts", h["name"] + ".yaml")
        else:
            out = os.path.join(ROOT, "tests", "hosts", h["name"], "expected.yaml")
        subprocess.run([lxgpu, "--host", f.name, "snapshot", "-q", "-o", out], check=True)
        os.unlink(f.name)
        print("wrote", h["name"])


if __name__ == "__main__":
    main()
