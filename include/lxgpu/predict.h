/* predict: what a container will meet later: its next start against the
 * host as it is (preflight), the first start after a reboot into the next
 * boot's kernel and modules, and a move to another cluster node. */
#ifndef LXGPU_PREDICT_H
#define LXGPU_PREDICT_H

#include "lxgpu/access.h"
#include "lxgpu/cluster.h"
#include "lxgpu/config.h"
#include "lxgpu/findings.h"
#include "lxgpu/host.h"
#include "lxgpu/judge.h"

#include <stdbool.h>

/* ---- the next boot ---- */

/* The "key=value" strings of a kernel module's .modinfo section; the file
 * may be plain or compressed (.xz, .zst, .gz; decompressed by libarchive).
 * Nothing is loaded and modinfo(8) is not run. */
int lx_modinfo_read(const char *path, struct lx_strv *fields, struct lx_error *err);
/* The same from an ELF image in memory (bounds-checked: the file is data). */
int lx_modinfo_parse_elf(const char *name, const unsigned char *data, size_t len,
			 struct lx_strv *fields, struct lx_error *err);
/* "version=..." -> "..."; NULL when absent. */
const char *lx_modinfo_get(const struct lx_strv *fields, const char *key);

struct lx_next_boot {
	char *kernel;        /* the kernel that boots next */
	char *kernel_source; /* how lxgpu knows: a pin file, GRUB, newest installed */
	char *module_path;   /* nvidia.ko for that kernel; NULL when there is none */
	char *module_version;
	enum lx_driver_flavor module_flavor;
	bool firmware_present; /* GSP firmware of module_version (open flavour needs it) */
	bool uvm_at_boot;      /* something creates /dev/nvidia-uvm before guests start */
	char *uvm_source;      /* what does */
	char *ensure_nodes_unit; /* an enabled unit that runs lxgpu ensure-nodes (which
				  * rewrites lxgpu's include files at boot); NULL: none */
	char *dkms_module;       /* the nvidia driver DKMS knows ("nvidia-current-open/550.163.01",
				  * the newest in /var/lib/dkms); NULL: none */
	bool headers_installed;  /* the kernel's headers (/lib/modules/KVER/build) are there */
};

/* Inspect the files under root ("/" on the live host): /etc/kernel pins,
 * /boot/grub, /lib/modules, /lib/firmware/nvidia, systemd units, udev
 * rules. kernel overrides the choice of kernel. */
int lx_next_boot_inspect(const char *root, const char *kernel, struct lx_next_boot *out,
			 struct lx_error *err);
void lx_next_boot_free(struct lx_next_boot *nb);
/* The fix for a next kernel without an nvidia module, as commands to run;
 * running (may be NULL): the kernel to keep booting meanwhile. */
char *lx_next_boot_module_fix(const struct lx_next_boot *nb, const char *running);
/* A systemd unit that creates the NVIDIA nodes before guests start. */
const char *lx_boot_unit_text(void);
/* Compare kernel release strings ("6.8.12-4-pve" < "6.8.12-10-pve"). */
int lx_kernel_version_compare(const char *a, const char *b);

/* ---- preflight: will the container come up with working GPUs? ---- */

enum lx_verdict {
	LX_VERDICT_OK,
	LX_VERDICT_DEGRADED,  /* starts, but e.g. CUDA will not work */
	LX_VERDICT_WILL_FAIL, /* does not start */
};
const char *lx_verdict_name(enum lx_verdict v);

struct lx_reason {
	enum lx_finding_code code; /* the finding code of its subject, as verify's */
	enum lx_verdict verdict;   /* what this reason alone means for the start */
	/* The finding's own severity, file, line and node: a reason that is
	 * one of verify's findings says what verify says of it, whatever its
	 * verdict (an LXG001 rule is a warning, and the start is ok). */
	enum lx_severity severity;
	char *file; /* NULL when none */
	int line;   /* 0 when none */
	char *node; /* NULL when none */
	char *message;
	char *fix;
};

struct lx_preflight {
	enum lx_verdict verdict; /* the worst of the reasons */
	struct lx_reason *reasons;
	size_t n;
};
void lx_preflight_free(struct lx_preflight *p);
/* Add a reason (takes message and fix); the verdict is the worst one. */
void lx_preflight_add(struct lx_preflight *p, enum lx_finding_code code, enum lx_verdict verdict,
		      char *message, char *fix);
/* Add one of verify's findings as a reason of that verdict: its severity,
 * file, line and node stay the finding's. Takes its message, fix, file and
 * node (left NULL in x). */
void lx_preflight_add_finding(struct lx_preflight *p, struct lx_finding *x,
			      enum lx_verdict verdict);
/* A reason's severity: its finding's when it is one of verify's findings
 * (above); a reason only preflight gives (lx_preflight_add): will fail an
 * error, degraded its code's severity (at least a warning), ok info. */
enum lx_severity lx_reason_severity(const struct lx_reason *r);
/* The include style's file (lxgpu/incfile.h) at the next start (nb NULL)
 * or the first start after a reboot into nb: missing or stale now, and
 * whether lxgpu ensure-nodes rewrites it at boot. nodes as for
 * lx_verify_include. Adds to out. */
void lx_preflight_include(const struct lx_host *host, const struct lx_node_plan *nodes,
			  const char *id, const struct lx_conf *conf, const char *state_dir,
			  const struct lx_next_boot *nb, struct lx_preflight *out);

/* The next start against the host as it is now. driver_versions: versions
 * of the container's driver libraries when known, else NULL. */
/* aopts: how to compute its effective access (LXC's includes); NULL: defaults. */
void lx_preflight_next_start(const struct lx_host *host, const struct lx_container_config *cc,
			     const struct lx_strv *driver_versions,
			     const struct lx_access_options *aopts, struct lx_preflight *out);
/* The first start after a host reboot into nb. */
void lx_preflight_next_boot(const struct lx_host *host, const struct lx_container_config *cc,
			    const struct lx_strv *driver_versions, const struct lx_next_boot *nb,
			    struct lx_preflight *out);


/* For each GPU container of a node (container may be NULL: the node
 * itself): LXG180 when its model is stale, LXG181 when it cannot be dated. */
void lx_node_model_findings(const struct lx_node_model *m, const char *container,
			    const char *file, long long now, struct lx_findings *out);

/* ---- migration (preflight CTID --to NODE) ---- */

/* One GPU of the container, here and on the target. */
struct lx_migration_gpu {
	char *bdf;  /* here */
	char *uuid; /* here; NULL when unknown */
	char *model;
	char *there_bdf; /* the same GPU there (PCI address, else UUID); NULL when absent */
	int there_minor; /* its /dev/nvidiaN there; LX_UNKNOWN */
};

struct lx_migration {
	struct lx_migration_gpu *gpus;
	size_t n_gpus;
	struct lx_findings findings;
};

/* Would the container (its config conf, read on this node, and its root
 * root_fd when lxgpu can see it, else -1) keep its GPUs on node `to`,
 * whose model is `there`? The config is judged against that model as verify
 * judges it (lx_verify_config: nodes, majors, devN), its userspace against
 * the driver loaded there (LXG011), and its GPUs by PCI address or UUID
 * (LXG182-LXG184), free there: not passed through to a VM (LXG013, from
 * <pve_dir>/nodes/<to>/qemu-server) and, with exclusive, not given to a
 * container there (LXG012, <pve_dir>/nodes/<to>/lxc). */
void lx_migration_check(const struct lx_host *here, const char *id, const struct lx_conf *conf,
			bool is_pve, int root_fd, const struct lx_access_options *aopts, const char *pve_dir, const char *to,
			const struct lx_node_model *there, bool exclusive, long long now,
			struct lx_migration *out);
void lx_migration_free(struct lx_migration *m);

#endif
