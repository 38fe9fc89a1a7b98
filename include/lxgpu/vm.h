/* vm: Proxmox VMs that hold PCI devices (qemu-server's hostpciN entries),
 * and whether a VM runs on this node now. One reading for audit and the
 * start guard. */
#ifndef LXGPU_VM_H
#define LXGPU_VM_H

#include "lxgpu/findings.h"
#include "lxgpu/util.h"

#include <stdbool.h>

struct lx_vm_device {
	char *pci;  /* "0000:41:00.0", or "0000:41:00" for every function of the device */
	char *vmid; /* "100" */
	char *file; /* the VM's config */
	int line;
	char *key;  /* "hostpci0" */
};

struct lx_vm_devices {
	struct lx_vm_device *items;
	size_t n;
	/* Configs that could not be read ("path: why"), so a caller can say it
	 * did not check them rather than report them free. */
	struct lx_strv unreadable;
};

/* Every hostpciN device of the live section of <qemu_dir>/<vmid>.conf.
 * Values as qemu-server reads them: "[host=]ID[;ID...][,opt=...]" where ID
 * is "[dddd:]bb:dd[.f]" (no function: all of them). Cluster mappings
 * ("mapping=NAME") name no address here and are skipped (but see
 * lx_vm_devices_read_mapped). A missing directory gives none. */
void lx_vm_devices_read(const char *qemu_dir, struct lx_vm_devices *out);
/* The same, also resolving "mapping=NAME" through the cluster's PCI
 * mappings (mapping_file: <pve-dir>/mapping/pci.cfg; a missing file is
 * none) to the path of its map line for node (this node's name; a domain
 * after the first '.' is ignored, as Proxmox's nodename is short). */
void lx_vm_devices_read_mapped(const char *qemu_dir, const char *mapping_file, const char *node,
			       struct lx_vm_devices *out);
void lx_vm_devices_free(struct lx_vm_devices *v);
/* Whether an entry names this PCI function ("0000:41:00.0"). */
bool lx_vm_device_matches(const struct lx_vm_device *d, const char *bdf);
/* LXG013 for each GPU of container id (bdfs: its PCI addresses) that a
 * VM's hostpciN also passes through: whichever guest starts second fails
 * or takes the GPU from the other. The one check audit, verify and apply
 * report it by. */
void lx_vm_gpu_findings(const struct lx_vm_devices *vms, const char *id,
			const struct lx_strv *bdfs, struct lx_findings *out);

enum lx_vm_state {
	LX_VM_STOPPED,
	LX_VM_RUNNING,
	LX_VM_UNKNOWN, /* why says what could not be read */
};

/* Does VM vmid run on this node? As qemu-server decides it
 * (PVE::QemuServer::Helpers::vm_running_locally): <run_dir>/qemu-server/
 * <vmid>.pid holds a pid whose process (<proc_dir>/<pid>/cmdline) was
 * started with "-pidfile" naming that same file; a stale pid file (no such
 * process, or a reused pid) is a stopped VM. *why (may be NULL) is set for
 * LX_VM_UNKNOWN. */
enum lx_vm_state lx_vm_state(const char *run_dir, const char *proc_dir, const char *vmid,
			     char **why);

#endif
