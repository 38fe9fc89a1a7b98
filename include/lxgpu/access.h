/* access: what a container gets at its next start (effective access).
 *
 * Computed from the container's config and the host model by simulating
 * what pve-container (PVE::LXC::update_lxc_config, the prestart hook) and
 * LXC (confile.c, cgroups/cgfsng.c, cgroup2_devices.c) do with the file:
 * PVE's includes and devN entries, the raw lxc.* lines in their order, the
 * device cgroup rules with LXC's semantics on the host's cgroup version,
 * bind mounts, and the id mapping. Nothing here judges a line on its own:
 * verify and apply ask this model what the container will really get. */
#ifndef LXGPU_ACCESS_H
#define LXGPU_ACCESS_H

#include "lxgpu/config.h"
#include "lxgpu/host.h"

enum lx_acc {
	LX_ACC_READ = 1u << 0,
	LX_ACC_WRITE = 1u << 1,
	LX_ACC_MKNOD = 1u << 2,
};

/* One device cgroup rule, as LXC and the kernel parse it. */
struct lx_dev_rule {
	bool allow;       /* devices.allow (else devices.deny) */
	bool all;         /* the value "a": resets the list */
	char type;        /* 'a', 'b', 'c' */
	long long major;  /* -1: '*' */
	long long minor;  /* -1: '*' */
	unsigned access;  /* enum lx_acc bits */
	char access_text[4]; /* as written ("rw"): LXC compares rules by it */
};
/* Parse a devices.allow/deny value ("c 195:* rwm", "a"): LXC's parser for
 * cgroup2 and the kernel's for v1 accept the same text. False when LXC or
 * the kernel would refuse it (the start then fails). */
bool lx_dev_rule_parse(const char *value, bool allow, struct lx_dev_rule *out);

/* A device cgroup as the container gets it at start. */
struct lx_dev_cgroup {
	enum lx_cgroup_layout version; /* LX_CGROUP_V1 (also hybrid) or LX_CGROUP_V2 */
	/* v2 (LXC's BPF program): rules newest first, as LXC lists them */
	bool v2_block_all;  /* the list type: deny what no rule allows */
	struct lx_dev_rule *rules;
	size_t n_rules;
	/* v1 (the kernel's device controller): exceptions to the default */
	bool v1_default_allow;
};
void lx_dev_cgroup_init(struct lx_dev_cgroup *cg, enum lx_cgroup_layout version);
/* Apply one rule in order, as LXC (v2) or the kernel (v1) does. */
void lx_dev_cgroup_add(struct lx_dev_cgroup *cg, const struct lx_dev_rule *rule);
/* Whether open()/mknod() of type major:minor with every bit of `access`
 * passes the device cgroup. */
bool lx_dev_cgroup_allows(const struct lx_dev_cgroup *cg, char type, unsigned major,
			  unsigned minor, unsigned access);
void lx_dev_cgroup_free(struct lx_dev_cgroup *cg);

/* Why a config line's device rule does what it does. */
enum lx_rule_fate {
	LX_RULE_APPLIED,      /* part of the device cgroup at start */
	LX_RULE_WRONG_VERSION, /* a key of the other cgroup version: LXC ignores it */
	LX_RULE_CLEARED,      /* removed by a later empty value (userns.conf) */
	LX_RULE_RESET,        /* dropped by a later "a" rule */
	LX_RULE_INVALID,      /* LXC or the kernel refuses it (v2: LXC logs an
			       * error and leaves it out; v1: the start fails) */
};

struct lx_access_rule {
	const char *file;  /* the config, or the include it came from */
	int line;          /* 1-based in that file; 0 for PVE's generated lines */
	bool from_config;  /* a line of the container's config */
	char *key;
	char *value;
	struct lx_dev_rule rule; /* valid unless INVALID */
	bool unknown_device;     /* PVE's rule for a devN lxgpu cannot stat */
	enum lx_rule_fate fate;
};

enum lx_grant_via {
	LX_VIA_BIND, /* lxc.mount.entry bind of a host node or directory */
	LX_VIA_DEVN, /* a PVE devN entry: PVE makes the node at start */
	LX_VIA_AUTODEV, /* LXC's own /dev (lxc.autodev): null, zero, tty, ... */
};

/* A device node the container can reach at its next start. */
struct lx_access_node {
	char *path;      /* inside the container: "/dev/nvidia0" */
	char *host_path; /* the host node it is (symlinks resolved) */
	enum lx_grant_via via;
	int line;        /* the config line that grants it */
	char type;       /* 'c' or 'b' */
	unsigned major;
	unsigned minor;
	bool read;       /* the device cgroup lets open() read it */
	bool write;      /* ... write it */
	bool read_write; /* ... open it O_RDWR (one rule must cover both) */
	unsigned mode;   /* permission bits inside */
	long long uid;   /* as seen inside; -1: unmapped (shows as nobody) */
	long long gid;   /* -1: unmapped (nogroup) */
};

/* A reason the container will not start. */
struct lx_start_failure {
	const char *file;
	int line;
	char *path;    /* the device or mount source, may be NULL */
	char *message; /* as PVE or LXC would say it */
};

struct lx_idmap_range {
	char kind; /* 'u' or 'g' */
	unsigned long long ns_id, host_id, count;
};

struct lx_access {
	bool unprivileged;
	enum lx_cgroup_layout keys; /* the device keys LXC honours: V1 or V2 */
	struct lx_dev_cgroup cgroup;
	struct lx_access_rule *rules; /* every device rule LXC reads, in order */
	size_t n_rules;
	struct lx_access_node *nodes; /* sorted by path inside */
	size_t n_nodes;
	struct lx_idmap_range *idmap;
	size_t n_idmap;
	struct lx_start_failure *failures;
	size_t n_failures;
	struct lx_strv unknown_sources; /* bind sources the host model cannot judge */
	struct lx_strv placeholders;    /* empty files where a skipped optional mount
					 * with create=file made its mount point */
	struct lx_strv include_files;   /* the includes read (rules point at these names) */
};

struct lx_access_options {
	const char *lxc_config_dir; /* LXC's includes: /usr/share/lxc/config */
	enum lx_cgroup_layout cgroup; /* LX_CGROUP_UNKNOWN: the host's */
	/* An include read as if it held this text (apply judges an include
	 * file it has not written yet); NULL: none. */
	const char *include_path;
	const char *include_text;
};
void lx_access_options_default(struct lx_access_options *opts);

/* Simulate the next start of the container whose config is conf (the live
 * section). is_pve: a PVE .conf (PVE's includes, devN, raw lines last);
 * else a plain LXC config read as LXC reads it. */
int lx_access_compute(const struct lx_host *host, const struct lx_conf *conf, bool is_pve,
		      const struct lx_access_options *opts, struct lx_access *out,
		      struct lx_error *err);
void lx_access_free(struct lx_access *a);

const struct lx_access_node *lx_access_find(const struct lx_access *a, const char *path);
/* Whether users of the container other than root can open the node rw. */
bool lx_access_node_usable(const struct lx_access_node *n);

const char *lx_rule_fate_name(enum lx_rule_fate f);

/* What a container has now (apply's defaults, verify's GPUs of the
 * container): the GPUs whose /dev/nvidiaN it reaches or a line names (a
 * broken setup still says which GPU it meant), and how it is set up. */
struct lx_current {
	char *gpus;          /* "0,2": host GPU indexes; NULL: none */
	struct lx_strv bdfs; /* the same GPUs' PCI addresses */
	bool dri;            /* it reaches DRM nodes */
	bool caps;           /* it reaches /dev/nvidia-caps nodes */
	bool devn;           /* NVIDIA nodes given as devN entries */
	bool raw;            /* NVIDIA nodes given as lxc.mount.entry lines */
};
void lx_access_current(const struct lx_host *host, const struct lx_conf *conf,
		       const struct lx_access *a, struct lx_current *out);
void lx_current_free(struct lx_current *c);

struct lx_doc;
/* The access as a document ("access" in verify's JSON/YAML: nodes, start
 * failures, device rules with what became of them). */
struct lx_doc *lx_access_to_doc(const struct lx_access *a);

/* The lines lxgpu owns on this host (see lx_conf_line_is_gpu): the host's
 * NVIDIA majors and its NVIDIA GPUs' DRM nodes. */
void lx_gpu_owned_from_host(const struct lx_host *host, struct lx_gpu_owned *out);

#endif
