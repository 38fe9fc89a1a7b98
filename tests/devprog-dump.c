/* A test tool for the real-kernel check of the device-program reader and
 * interpreter (tests/integration/devprog-kernel.sh).
 *
 *   devprog-dump eval (--pid PID | --cgroup CGROUP) NODE...
 *       read the device programs the kernel runs for a process's cgroup (or
 *       a cgroup path under /sys/fs/cgroup) and print, per NODE
 *       ("PATH:TYPE:MAJOR:MINOR"), "PATH MODE VERDICT" for MODE r, w, rw
 *       and m with VERDICT allowed, eperm or unknown; "# ..." lines name the
 *       programs. Exit 2 with "could not check: ..." when they cannot be read.
 *   devprog-dump attach CGROUP_DIR PROGRAM
 *       load one of the programs below through bpf(BPF_PROG_LOAD) (so the
 *       kernel's verifier judges it) and attach it with BPF_F_ALLOW_MULTI;
 *       the attachment outlives this process. */
#include "lxgpu/access.h"
#include "lxgpu/devprog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define INSN(c, d, s, o, i) ((struct bpf_insn){.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)})

/* "range": allow char devices with majors 200..210 for reading only (no
 * write, no mknod), and block device 8:16 for any access; deny the rest.
 * Written in instructions no generator uses together: a copy of r1, narrow
 * context loads, JMP32, jset, a 64-bit immediate, signed compares. */
static const struct bpf_insn prog_range[] = {
	INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0),
	INSN(BPF_LDX | BPF_H | BPF_MEM, 7, 6, 2, 0),   /* access bits */
	INSN(BPF_LDX | BPF_B | BPF_MEM, 8, 6, 0, 0),   /* type */
	INSN(BPF_LDX | BPF_W | BPF_MEM, 4, 6, 4, 0),
	INSN(BPF_LDX | BPF_W | BPF_MEM, 5, 6, 8, 0),
	INSN(BPF_JMP32 | BPF_JNE | BPF_K, 8, 0, 3, BPF_DEVCG_DEV_BLOCK), /* -> 9 */
	INSN(BPF_JMP | BPF_JNE | BPF_K, 4, 0, 12, 8),  /* -> deny */
	INSN(BPF_JMP | BPF_JNE | BPF_K, 5, 0, 11, 16), /* -> deny */
	INSN(BPF_JMP | BPF_JA, 0, 0, 12, 0),           /* -> allow */
	INSN(BPF_JMP | BPF_JNE | BPF_K, 8, 0, 9, BPF_DEVCG_DEV_CHAR),
	INSN(BPF_JMP | BPF_JSET | BPF_K, 7, 0, 8, BPF_DEVCG_ACC_WRITE | BPF_DEVCG_ACC_MKNOD),
	INSN(BPF_LD | BPF_IMM | BPF_DW, 9, 0, 0, 200),
	INSN(0, 0, 0, 0, 0),
	INSN(BPF_JMP | BPF_JLT | BPF_X, 4, 9, 5, 0),   /* -> deny */
	INSN(BPF_ALU64 | BPF_SUB | BPF_K, 4, 0, 0, 210),
	INSN(BPF_JMP | BPF_JSGT | BPF_K, 4, 0, 3, 0),  /* -> deny */
	INSN(BPF_ALU64 | BPF_LSH | BPF_K, 4, 0, 0, 1),
	INSN(BPF_JMP | BPF_JSLE | BPF_K, 4, 0, 3, 0),  /* -> allow */
	INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0),
	INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0), /* 19: deny */
	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 1), /* 21: allow */
	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
};

/* "minor3": deny every device with minor 3, allow the rest (ALU32 only). */
static const struct bpf_insn prog_minor3[] = {
	INSN(BPF_LDX | BPF_W | BPF_MEM, 2, 1, 8, 0),
	INSN(BPF_ALU | BPF_MOV | BPF_K, 0, 0, 0, 1),
	INSN(BPF_JMP32 | BPF_JNE | BPF_K, 2, 0, 1, 3),
	INSN(BPF_ALU | BPF_MOV | BPF_K, 0, 0, 0, 0),
	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
};

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int attach(const char *dir, const char *name)
{
	const struct bpf_insn *insns;
	size_t n;
	if (strcmp(name, "range") == 0) {
		insns = prog_range;
		n = sizeof(prog_range) / sizeof(prog_range[0]);
	} else if (strcmp(name, "minor3") == 0) {
		insns = prog_minor3;
		n = sizeof(prog_minor3) / sizeof(prog_minor3[0]);
	} else {
		fprintf(stderr, "unknown program %s\n", name);
		return 2;
	}
	static char log[1 << 16];
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = (uint32_t)n;
	a.license = (uint64_t)(uintptr_t)"GPL";
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	int prog = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (prog < 0) {
		fprintf(stderr, "BPF_PROG_LOAD %s: %s\n%s\n", name, strerror(errno), log);
		return 1;
	}
	int cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg < 0) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cg;
	a.attach_bpf_fd = (uint32_t)prog;
	a.attach_type = BPF_CGROUP_DEVICE;
	a.attach_flags = BPF_F_ALLOW_MULTI;
	if (sys_bpf(BPF_PROG_ATTACH, &a) < 0) {
		fprintf(stderr, "BPF_PROG_ATTACH %s to %s: %s\n", name, dir, strerror(errno));
		return 1;
	}
	close(cg);
	close(prog);
	return 0;
}

static const char *word(enum lx_devprog_verdict v)
{
	return v == LX_DEVPROG_ALLOW ? "allowed" : v == LX_DEVPROG_DENY ? "eperm" : "unknown";
}

static int eval(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	struct lx_error err = {0};
	char *cgroup = NULL;
	if (strcmp(argv[2], "--pid") == 0) {
		if (lx_devprog_cgroup_of_pid("/proc", atol(argv[3]), &cgroup, &err)) {
			printf("could not check: %s\n", err.message);
			return 2;
		}
	} else {
		cgroup = lx_xstrdup(argv[3]);
	}
	struct lx_devprog_chain chain;
	if (lx_devprog_chain_read("/sys/fs/cgroup", cgroup, &chain, &err)) {
		printf("%s\n", err.message);
		lx_error_clear(&err);
		free(cgroup);
		return 2;
	}
	printf("# cgroup %s: %zu programs\n", chain.cgroup, chain.n_progs);
	for (size_t i = 0; i < chain.n_progs; i++)
		printf("# program %u tag %s on %s: %zu instructions\n", chain.progs[i].id,
		       chain.progs[i].tag, chain.progs[i].cgroup ? chain.progs[i].cgroup : "?",
		       chain.progs[i].n_insns);
	for (int i = 4; i < argc; i++) {
		char *spec = lx_xstrdup(argv[i]);
		char *parts[4] = {0};
		char *save = NULL;
		size_t k = 0;
		for (char *t = strtok_r(spec, ":", &save); t && k < 4; t = strtok_r(NULL, ":", &save))
			parts[k++] = t;
		if (k != 4) {
			fprintf(stderr, "bad node %s\n", argv[i]);
			free(spec);
			continue;
		}
		struct lx_devprog_node n;
		unsigned major = (unsigned)strtoul(parts[2], NULL, 10);
		unsigned minor = (unsigned)strtoul(parts[3], NULL, 10);
		lx_devprog_judge_node(&chain, parts[0], parts[1][0], major, minor, &n);
		printf("%s r %s\n%s w %s\n%s rw %s\n", n.path, word(n.read), n.path, word(n.write),
		       n.path, word(n.read_write));
		struct bpf_cgroup_dev_ctx req = lx_devprog_request(parts[1][0], major, minor,
								   LX_ACC_MKNOD);
		uint32_t by = 0;
		enum lx_devprog_verdict m = lx_devprog_chain_eval(&chain, &req, &by, &err);
		printf("%s m %s\n", n.path, word(m));
		if (n.reason)
			printf("# %s: %s\n", n.path, n.reason);
		lx_error_clear(&err);
		lx_devprog_node_free(&n);
		free(spec);
	}
	lx_devprog_chain_free(&chain);
	free(cgroup);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "eval") == 0)
		return eval(argc, argv);
	if (argc == 4 && strcmp(argv[1], "attach") == 0)
		return attach(argv[2], argv[3]);
	fprintf(stderr, "usage: devprog-dump eval (--pid PID | --cgroup CGROUP) NODE...\n"
			"       devprog-dump attach CGROUP_DIR range|minor3\n");
	return 2;
}
