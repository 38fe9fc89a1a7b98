/* devprog: the cgroup v2 device programs the kernel runs for a cgroup, read
 * back from the kernel and evaluated.
 *
 * On cgroup v2 the device rules are BPF_PROG_TYPE_CGROUP_DEVICE programs
 * (LXC, systemd, runc, crun each write their own). Whoever wrote them, the
 * answer to "may a process in this cgroup open c 195:0 for writing" is what
 * the programs return for that request, so lxgpu runs the instructions the
 * kernel holds (the translated form, BPF_OBJ_GET_INFO_BY_FD) in a small
 * interpreter instead of recognising one generator's output.
 *
 * Kernel semantics relied on (kernel/bpf/cgroup.c, include/uapi/linux/bpf.h):
 * - A cgroup's effective array is its own programs, then its parent's, up to
 *   the root; an ancestor's programs are in it only when the ancestor
 *   attached with BPF_F_ALLOW_MULTI or nothing nearer was attached
 *   (compute_effective_progs: an ALLOW_OVERRIDE or plain program yields to a
 *   descendant's). BPF_PROG_QUERY with BPF_F_QUERY_EFFECTIVE returns exactly
 *   that array, so it is what is evaluated; the plain query per cgroup only
 *   says where each program is attached. LXC and systemd attach with
 *   BPF_F_ALLOW_MULTI.
 * - Every program of the array runs; one that returns 0 makes the access
 *   fail with EPERM (bpf_prog_run_array_cg): the verdicts are ANDed. No
 *   program at all: every device is allowed (the v2 device controller is
 *   these programs only).
 * - The verifier limits a device program's return value to 0 or 1, reads of
 *   the context to struct bpf_cgroup_dev_ctx (4-byte words, narrower reads
 *   of access_type only) and, for the privileged loaders device programs
 *   need, removes dead code. Anything else here is refused, never guessed.
 * - open() of a device node asks once with every bit of the open mode
 *   (O_RDWR: BPF_DEVCG_ACC_READ | BPF_DEVCG_ACC_WRITE in one request); mknod
 *   asks BPF_DEVCG_ACC_MKNOD. */
#ifndef LXGPU_DEVPROG_H
#define LXGPU_DEVPROG_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lxgpu/util.h"

/* Longer programs are refused: LXC's program is 6 + at most 8 per rule. */
#define LX_DEVPROG_MAX_INSNS 4096
/* Instructions executed per run; jumps only go forward, so a valid program
 * never gets near it. */
#define LX_DEVPROG_MAX_STEPS 65536

/* A request as the kernel gives it to the program. type: 'c' or 'b';
 * access: enum lx_acc bits (lxgpu/access.h: LX_ACC_READ, LX_ACC_WRITE,
 * LX_ACC_MKNOD), turned into the kernel's BPF_DEVCG_ACC_* bits. */
struct bpf_cgroup_dev_ctx lx_devprog_request(char type, unsigned major, unsigned minor,
					     unsigned access);

/* Check a program before it is ever run: known instructions only, context
 * reads inside struct bpf_cgroup_dev_ctx, no register read on any path
 * before it is written, jumps forward and inside the program, every path
 * ending in exit, at most LX_DEVPROG_MAX_INSNS. -1 with the reason. */
int lx_devprog_validate(const struct bpf_insn *insns, size_t n, struct lx_error *err);

/* Run a program for one request: 0 with *allow set, or -1 with the reason
 * it cannot be evaluated (validation failed, a helper call, a return value
 * other than 0 or 1). */
int lx_devprog_run(const struct bpf_insn *insns, size_t n, const struct bpf_cgroup_dev_ctx *req,
		   bool *allow, struct lx_error *err);

/* One program as the kernel holds it. */
struct lx_devprog {
	uint32_t id;
	char tag[17];          /* the kernel's program tag, hex */
	char *cgroup;          /* where it is attached ("/lxc/100"), NULL: not found */
	struct bpf_insn *insns; /* the translated instructions */
	size_t n_insns;
};
void lx_devprog_free(struct lx_devprog *p);

/* The ids of the device programs on a cgroup v2 directory (an fd opened
 * O_RDONLY|O_DIRECTORY): attached to it, or (effective) every program the
 * kernel runs for its processes, in the kernel's order. *attach_flags: the
 * cgroup's BPF_F_ALLOW_* flags (plain query only; may be NULL). */
int lx_devprog_query(int cgroup_fd, bool effective, uint32_t **ids, size_t *n,
		     uint32_t *attach_flags, struct lx_error *err);
/* Read one program by id: its translated instructions. Needs CAP_SYS_ADMIN;
 * an error when the kernel hides the instructions, the id went away or the
 * program is not a device program. */
int lx_devprog_read(uint32_t id, struct lx_devprog *out, struct lx_error *err);

/* The device programs that apply to one cgroup. */
struct lx_devprog_chain {
	char *cgroup;              /* relative to the cgroup2 mount: "/lxc/100/ns" */
	struct lx_devprog *progs;  /* the effective array, in the kernel's order */
	size_t n_progs;
};
/* Read them for cgroup (relative to the cgroup2 mount at cgroup_root, as in
 * /proc/PID/cgroup's "0::" line): the effective array, each program labelled
 * with the cgroup from there up to the root that it is attached to. On
 * error the message starts "could not check: ". */
int lx_devprog_chain_read(const char *cgroup_root, const char *cgroup,
			  struct lx_devprog_chain *out, struct lx_error *err);
void lx_devprog_chain_free(struct lx_devprog_chain *c);

enum lx_devprog_verdict {
	LX_DEVPROG_DENY,
	LX_DEVPROG_ALLOW,
	LX_DEVPROG_UNKNOWN, /* a program could not be evaluated, none denies */
};
const char *lx_devprog_verdict_name(enum lx_devprog_verdict v);

/* One request against every program of the chain (ANDed). *denied_by: the
 * first program that denies (0: none); err: why UNKNOWN. */
enum lx_devprog_verdict lx_devprog_chain_eval(const struct lx_devprog_chain *c,
					      const struct bpf_cgroup_dev_ctx *req,
					      uint32_t *denied_by, struct lx_error *err);

/* What a node inside gets from the running device cgroup. */
struct lx_devprog_node {
	char *path; /* inside the container, as given */
	enum lx_devprog_verdict read, write, read_write;
	uint32_t denied_by; /* the first program that denies one of them */
	char *reason;       /* "could not check: ..." when one is UNKNOWN */
};
void lx_devprog_judge_node(const struct lx_devprog_chain *c, const char *path, char type,
			   unsigned major, unsigned minor, struct lx_devprog_node *out);
void lx_devprog_node_free(struct lx_devprog_node *n);

/* The cgroup v2 path of a process ("0::" of /proc/PID/cgroup), e.g.
 * "/lxc/100/ns/init.scope". proc: "/proc" (tests give another root). */
int lx_devprog_cgroup_of_pid(const char *proc, long pid, char **out, struct lx_error *err);

#endif
