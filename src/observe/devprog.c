/* Device programs: validate, run, and read back from the kernel.
 *
 * The program is data from the kernel (written by whoever set up the
 * cgroup), so nothing in it is trusted: every instruction is checked before
 * any runs, every index is bounds-checked, and what the interpreter does not
 * know is refused with a reason rather than guessed. */
#include "lxgpu/devprog.h"

#include "lxgpu/access.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define N_REGS 11
#define CTX_SIZE ((int)sizeof(struct bpf_cgroup_dev_ctx))

struct bpf_cgroup_dev_ctx lx_devprog_request(char type, unsigned major, unsigned minor,
					     unsigned access)
{
	uint32_t acc = 0;
	if (access & LX_ACC_READ)
		acc |= BPF_DEVCG_ACC_READ;
	if (access & LX_ACC_WRITE)
		acc |= BPF_DEVCG_ACC_WRITE;
	if (access & LX_ACC_MKNOD)
		acc |= BPF_DEVCG_ACC_MKNOD;
	uint32_t t = type == 'b' ? BPF_DEVCG_DEV_BLOCK : type == 'c' ? BPF_DEVCG_DEV_CHAR : 0;
	return (struct bpf_cgroup_dev_ctx){.access_type = (acc << 16) | t, .major = major,
					   .minor = minor};
}

/* ---- validation: one pass in order, as every jump goes forward ----
 *
 * Each register has a kind on entry to each instruction: the join over
 * every path that reaches it. A register read must be of one known kind on
 * every path; MIXED (a scalar on one path, unwritten on another) is as
 * unusable as UNINIT. */
enum reg_kind { K_NONE, K_UNINIT, K_CTX, K_FP, K_SCALAR, K_MIXED };

struct reg_state {
	bool reached;
	unsigned char kind[N_REGS];
};

static const char *kind_name(unsigned char k)
{
	switch (k) {
	case K_UNINIT: return "not written";
	case K_CTX: return "the context pointer";
	case K_FP: return "the stack pointer";
	case K_SCALAR: return "a number";
	default: return "not written on every path";
	}
}

static void join_into(struct reg_state *to, const unsigned char kind[N_REGS])
{
	if (!to->reached) {
		to->reached = true;
		memcpy(to->kind, kind, N_REGS);
		return;
	}
	for (int r = 0; r < N_REGS; r++)
		if (to->kind[r] != kind[r])
			to->kind[r] = K_MIXED;
}

static bool is_ld_imm64(const struct bpf_insn *in)
{
	return in->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static int need_scalar(const unsigned char kind[N_REGS], int reg, size_t pc, struct lx_error *err)
{
	if (kind[reg] == K_SCALAR)
		return 0;
	return lx_error_set(err, "instruction %zu reads r%d, which is %s", pc, reg,
			    kind_name(kind[reg]));
}

/* A jump target: forward, inside, not the second half of a 64-bit load. */
static int check_target(const struct bpf_insn *insns, size_t n, size_t pc, long long off,
			size_t *target, struct lx_error *err)
{
	if (off < 0)
		return lx_error_set(err, "instruction %zu jumps backwards (%lld): a loop", pc, off);
	unsigned long long t = (unsigned long long)pc + 1 + (unsigned long long)off;
	if (t >= n)
		return lx_error_set(err, "instruction %zu jumps to %llu, past the end (%zu)", pc, t,
				    n);
	if (t > 0 && is_ld_imm64(&insns[t - 1]) && t - 1 >= pc + 1)
		return lx_error_set(err, "instruction %zu jumps into a 64-bit load at %llu", pc,
				    t - 1);
	*target = (size_t)t;
	return 0;
}

/* The kinds after one ALU instruction, or -1. */
static int check_alu(const struct bpf_insn *in, size_t pc, unsigned char kind[N_REGS],
		     struct lx_error *err)
{
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64;
	unsigned op = BPF_OP(in->code);
	bool x = BPF_SRC(in->code) == BPF_X;
	int dst = in->dst_reg, src = in->src_reg;
	if (dst >= N_REGS || src >= N_REGS)
		return lx_error_set(err, "instruction %zu names a register past r10", pc);
	if (dst == BPF_REG_10)
		return lx_error_set(err, "instruction %zu writes r10 (the stack pointer)", pc);
	if (in->off != 0)
		/* movsx, sdiv/smod (cpu v4): no device program generator emits them */
		return lx_error_set(err, "instruction %zu (0x%02x) has an offset the interpreter "
				    "does not support", pc, in->code);
	if (!x && src != 0)
		return lx_error_set(err, "instruction %zu: immediate form with a source register", pc);
	if (x && in->imm != 0 && !(op == BPF_MOV && !is64 && in->imm == 1 && src == dst))
		/* imm 1 on mov32 rX, rX is the verifier's zero-extension marker */
		return lx_error_set(err, "instruction %zu: register form with an immediate", pc);
	switch (op) {
	case BPF_MOV:
		if (!x) {
			kind[dst] = K_SCALAR;
			return 0;
		}
		if (kind[src] == K_CTX && is64) {
			kind[dst] = K_CTX;
			return 0;
		}
		if (need_scalar(kind, src, pc, err))
			return -1;
		kind[dst] = K_SCALAR;
		return 0;
	case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_OR: case BPF_AND: case BPF_XOR:
	case BPF_LSH: case BPF_RSH: case BPF_ARSH: case BPF_DIV: case BPF_MOD:
		if (need_scalar(kind, dst, pc, err) || (x && need_scalar(kind, src, pc, err)))
			return -1;
		if (!x && (op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) &&
		    (in->imm < 0 || in->imm >= (is64 ? 64 : 32)))
			return lx_error_set(err, "instruction %zu shifts by %d", pc, in->imm);
		if (!x && (op == BPF_DIV || op == BPF_MOD) && in->imm == 0)
			return lx_error_set(err, "instruction %zu divides by zero", pc);
		return 0;
	case BPF_NEG:
		if (x || in->imm != 0)
			return lx_error_set(err, "instruction %zu: malformed neg", pc);
		return need_scalar(kind, dst, pc, err);
	default:
		return lx_error_set(err, "instruction %zu: ALU operation 0x%02x is not supported", pc,
				    in->code);
	}
}

static int check_ldx(const struct bpf_insn *in, size_t pc, unsigned char kind[N_REGS],
		     struct lx_error *err)
{
	int dst = in->dst_reg, src = in->src_reg;
	if (BPF_MODE(in->code) != BPF_MEM)
		return lx_error_set(err, "instruction %zu: load mode 0x%02x is not supported", pc,
				    in->code);
	if (dst >= N_REGS || src >= N_REGS)
		return lx_error_set(err, "instruction %zu names a register past r10", pc);
	if (dst == BPF_REG_10)
		return lx_error_set(err, "instruction %zu writes r10 (the stack pointer)", pc);
	if (kind[src] != K_CTX)
		return lx_error_set(err, "instruction %zu loads through r%d, which is %s, not the "
				    "context", pc, src, kind_name(kind[src]));
	int size = BPF_SIZE(in->code) == BPF_W ? 4 : BPF_SIZE(in->code) == BPF_H ? 2
		   : BPF_SIZE(in->code) == BPF_B ? 1 : 8;
	int off = in->off;
	/* The kernel's rule (cgroup_dev_is_valid_access): aligned, inside the
	 * context, whole words except for access_type. */
	if (off < 0 || off + size > CTX_SIZE || off % size != 0 ||
	    (size != 4 && (size == 8 || off >= 4)))
		return lx_error_set(err, "instruction %zu reads %d bytes at context offset %d, "
				    "outside access_type, major and minor", pc, size, off);
	kind[dst] = K_SCALAR;
	return 0;
}

int lx_devprog_validate(const struct bpf_insn *insns, size_t n, struct lx_error *err)
{
	if (n == 0)
		return lx_error_set(err, "the program is empty");
	if (n > LX_DEVPROG_MAX_INSNS)
		return lx_error_set(err, "the program has %zu instructions, more than %d", n,
				    LX_DEVPROG_MAX_INSNS);
	_cleanup_free_ struct reg_state *st = lx_xcalloc(n, sizeof(*st));
	st[0].reached = true;
	for (int r = 0; r < N_REGS; r++)
		st[0].kind[r] = K_UNINIT;
	st[0].kind[BPF_REG_1] = K_CTX;
	st[0].kind[BPF_REG_10] = K_FP;

	for (size_t pc = 0; pc < n; pc++) {
		const struct bpf_insn *in = &insns[pc];
		unsigned char kind[N_REGS];
		/* Unreached code (none after the kernel's dead-code pass) is
		 * still decoded: an unknown opcode anywhere is refused. */
		bool reached = st[pc].reached;
		if (reached)
			memcpy(kind, st[pc].kind, N_REGS);
		else
			for (int r = 0; r < N_REGS; r++)
				kind[r] = K_SCALAR;
		bool falls_through = true;
		size_t target = 0;
		bool jumps = false;
		int rc = 0;
		switch (BPF_CLASS(in->code)) {
		case BPF_ALU:
		case BPF_ALU64:
			rc = check_alu(in, pc, kind, err);
			break;
		case BPF_LDX:
			rc = reached ? check_ldx(in, pc, kind, err) : 0;
			if (!reached && BPF_MODE(in->code) != BPF_MEM)
				rc = lx_error_set(err, "instruction %zu: load mode 0x%02x is not "
						  "supported", pc, in->code);
			break;
		case BPF_LD:
			if (!is_ld_imm64(in) || in->src_reg != 0)
				/* map and BTF pseudo loads, legacy packet loads */
				rc = lx_error_set(err, "instruction %zu: load 0x%02x (src %d) is not "
						  "supported", pc, in->code, in->src_reg);
			else if (in->dst_reg >= BPF_REG_10)
				rc = lx_error_set(err, "instruction %zu writes r%d", pc, in->dst_reg);
			else if (pc + 1 >= n)
				rc = lx_error_set(err, "instruction %zu: a 64-bit load without its "
						  "second half", pc);
			else if (insns[pc + 1].code || insns[pc + 1].dst_reg ||
				 insns[pc + 1].src_reg || insns[pc + 1].off)
				rc = lx_error_set(err, "instruction %zu: malformed second half of a "
						  "64-bit load", pc + 1);
			else {
				kind[in->dst_reg] = K_SCALAR;
				/* The second half is not an instruction: skip it. */
				if (pc + 2 < n) {
					if (reached)
						join_into(&st[pc + 2], kind);
				} else
					rc = lx_error_set(err, "instruction %zu falls through past the "
							  "end: no exit", pc);
				if (rc == 0) {
					pc++;
					continue;
				}
			}
			break;
		case BPF_JMP:
		case BPF_JMP32: {
			bool is32 = BPF_CLASS(in->code) == BPF_JMP32;
			unsigned op = BPF_OP(in->code);
			bool x = BPF_SRC(in->code) == BPF_X;
			if (in->dst_reg >= N_REGS || in->src_reg >= N_REGS) {
				rc = lx_error_set(err, "instruction %zu names a register past r10", pc);
				break;
			}
			if (op == BPF_EXIT) {
				if (is32 || x || in->dst_reg || in->src_reg || in->off || in->imm)
					rc = lx_error_set(err, "instruction %zu: malformed exit", pc);
				else if (reached)
					rc = need_scalar(kind, BPF_REG_0, pc, err);
				falls_through = false;
				break;
			}
			if (op == BPF_CALL) {
				rc = lx_error_set(err, "instruction %zu calls helper %d: the verdict "
						  "could depend on more than the request", pc, in->imm);
				break;
			}
			if (op == BPF_JA) {
				if (x || in->dst_reg || in->src_reg) {
					rc = lx_error_set(err, "instruction %zu: malformed jump", pc);
					break;
				}
				/* gotol (JMP32 ja) takes its offset from imm */
				rc = check_target(insns, n, pc, is32 ? in->imm : in->off, &target, err);
				jumps = true;
				falls_through = false;
				break;
			}
			switch (op) {
			case BPF_JEQ: case BPF_JNE: case BPF_JGT: case BPF_JGE: case BPF_JLT:
			case BPF_JLE: case BPF_JSET: case BPF_JSGT: case BPF_JSGE: case BPF_JSLT:
			case BPF_JSLE:
				break;
			default:
				rc = lx_error_set(err, "instruction %zu: jump 0x%02x is not supported",
						  pc, in->code);
			}
			if (rc)
				break;
			if (!x && in->src_reg) {
				rc = lx_error_set(err, "instruction %zu: immediate form with a source "
						  "register", pc);
				break;
			}
			if (reached && (need_scalar(kind, in->dst_reg, pc, err) ||
					(x && need_scalar(kind, in->src_reg, pc, err)))) {
				rc = -1;
				break;
			}
			rc = check_target(insns, n, pc, in->off, &target, err);
			jumps = true;
			break;
		}
		default: /* BPF_ST, BPF_STX: a device program has nothing to store */
			rc = lx_error_set(err, "instruction %zu (0x%02x): stores are not supported", pc,
					  in->code);
		}
		if (rc)
			return -1;
		if (jumps && reached)
			join_into(&st[target], kind);
		if (falls_through) {
			if (pc + 1 >= n)
				return lx_error_set(err, "instruction %zu falls through past the end: "
						    "no exit", pc);
			if (reached)
				join_into(&st[pc + 1], kind);
		}
	}
	return 0;
}

/* ---- running ---- */

static bool jump_taken(unsigned op, bool is32, uint64_t a, uint64_t b)
{
	if (is32) {
		uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
		int32_t sa = (int32_t)ua, sb = (int32_t)ub;
		switch (op) {
		case BPF_JEQ: return ua == ub;
		case BPF_JNE: return ua != ub;
		case BPF_JGT: return ua > ub;
		case BPF_JGE: return ua >= ub;
		case BPF_JLT: return ua < ub;
		case BPF_JLE: return ua <= ub;
		case BPF_JSET: return (ua & ub) != 0;
		case BPF_JSGT: return sa > sb;
		case BPF_JSGE: return sa >= sb;
		case BPF_JSLT: return sa < sb;
		case BPF_JSLE: return sa <= sb;
		}
		return false;
	}
	int64_t sa = (int64_t)a, sb = (int64_t)b;
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return (a & b) != 0;
	case BPF_JSGT: return sa > sb;
	case BPF_JSGE: return sa >= sb;
	case BPF_JSLT: return sa < sb;
	case BPF_JSLE: return sa <= sb;
	}
	return false;
}

/* The kernel's arithmetic: 64-bit two's complement, a 32-bit result
 * zero-extended, division by zero gives 0 and modulo by zero keeps dst. */
static uint64_t alu(unsigned op, bool is64, uint64_t d, uint64_t s)
{
	if (!is64) {
		uint32_t a = (uint32_t)d, b = (uint32_t)s, r;
		switch (op) {
		case BPF_ADD: r = a + b; break;
		case BPF_SUB: r = a - b; break;
		case BPF_MUL: r = a * b; break;
		case BPF_DIV: r = b ? a / b : 0; break;
		case BPF_MOD: r = b ? a % b : a; break;
		case BPF_OR: r = a | b; break;
		case BPF_AND: r = a & b; break;
		case BPF_XOR: r = a ^ b; break;
		case BPF_LSH: r = a << (b & 31); break;
		case BPF_RSH: r = a >> (b & 31); break;
		case BPF_ARSH: r = (uint32_t)((int32_t)a >> (b & 31)); break;
		case BPF_NEG: r = (uint32_t)(0u - a); break;
		case BPF_MOV: r = b; break;
		default: r = 0;
		}
		return r;
	}
	switch (op) {
	case BPF_ADD: return d + s;
	case BPF_SUB: return d - s;
	case BPF_MUL: return d * s;
	case BPF_DIV: return s ? d / s : 0;
	case BPF_MOD: return s ? d % s : d;
	case BPF_OR: return d | s;
	case BPF_AND: return d & s;
	case BPF_XOR: return d ^ s;
	case BPF_LSH: return d << (s & 63);
	case BPF_RSH: return d >> (s & 63);
	case BPF_ARSH: return (uint64_t)((int64_t)d >> (s & 63));
	case BPF_NEG: return 0 - d;
	case BPF_MOV: return s;
	}
	return 0;
}

int lx_devprog_run(const struct bpf_insn *insns, size_t n, const struct bpf_cgroup_dev_ctx *req,
		   bool *allow, struct lx_error *err)
{
	if (lx_devprog_validate(insns, n, err))
		return -1;
	unsigned char ctx[sizeof(struct bpf_cgroup_dev_ctx)];
	memcpy(ctx, req, sizeof(ctx));
	/* Validation proved which registers hold what; only values are tracked. */
	uint64_t reg[N_REGS] = {0};
	size_t pc = 0;
	for (unsigned steps = 0; steps < LX_DEVPROG_MAX_STEPS; steps++) {
		if (pc >= n)
			return lx_error_set(err, "ran past the end at %zu", pc);
		const struct bpf_insn *in = &insns[pc];
		switch (BPF_CLASS(in->code)) {
		case BPF_ALU:
		case BPF_ALU64: {
			bool is64 = BPF_CLASS(in->code) == BPF_ALU64;
			uint64_t s = BPF_SRC(in->code) == BPF_X ? reg[in->src_reg]
								  : (uint64_t)(int64_t)in->imm;
			reg[in->dst_reg] = alu(BPF_OP(in->code), is64, reg[in->dst_reg], s);
			pc++;
			break;
		}
		case BPF_LDX: {
			/* Validated: the source is the context, the bytes inside it. */
			int size = BPF_SIZE(in->code) == BPF_W ? 4 : BPF_SIZE(in->code) == BPF_H ? 2 : 1;
			if (in->off < 0 || in->off + size > CTX_SIZE)
				return lx_error_set(err, "context read out of bounds at %zu", pc);
			uint32_t w = 0;
			if (size == 4)
				memcpy(&w, ctx + in->off, 4);
			else if (size == 2) {
				uint16_t h;
				memcpy(&h, ctx + in->off, 2);
				w = h;
			} else
				w = ctx[in->off];
			reg[in->dst_reg] = w;
			pc++;
			break;
		}
		case BPF_LD:
			reg[in->dst_reg] = (uint64_t)(uint32_t)in->imm |
					   ((uint64_t)(uint32_t)insns[pc + 1].imm << 32);
			pc += 2;
			break;
		case BPF_JMP:
		case BPF_JMP32: {
			unsigned op = BPF_OP(in->code);
			bool is32 = BPF_CLASS(in->code) == BPF_JMP32;
			if (op == BPF_EXIT) {
				if (reg[0] > 1)
					return lx_error_set(err, "the program returns %" PRIu64 ", which "
							    "the verifier does not allow", reg[0]);
				*allow = reg[0] == 1;
				return 0;
			}
			if (op == BPF_JA) {
				pc += 1 + (size_t)(is32 ? in->imm : in->off);
				break;
			}
			uint64_t b = BPF_SRC(in->code) == BPF_X ? reg[in->src_reg]
								: (uint64_t)(int64_t)in->imm;
			pc += 1 + (jump_taken(op, is32, reg[in->dst_reg], b) ? (size_t)in->off : 0);
			break;
		}
		default:
			return lx_error_set(err, "instruction %zu cannot run", pc);
		}
	}
	return lx_error_set(err, "more than %d steps", LX_DEVPROG_MAX_STEPS);
}

/* ---- reading programs back from the kernel ---- */

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* Why a bpf() call failed, in words a user can act on. */
static int bpf_error(struct lx_error *err, int e, const char *what)
{
	const char *hint = "";
	switch (e) {
	case EPERM:
	case EACCES:
		hint = " (reading device programs needs CAP_SYS_ADMIN, as root on the host)";
		break;
	case ENOSYS:
		hint = " (the kernel has no bpf() system call)";
		break;
	case EINVAL:
		hint = " (the kernel does not support this query)";
		break;
	case EBADF:
		hint = " (not a cgroup v2 directory)";
		break;
	}
	return lx_error_set(err, "%s: %s%s", what, strerror(e), hint);
}

int lx_devprog_query(int cgroup_fd, bool effective, uint32_t **ids, size_t *n,
		     uint32_t *attach_flags, struct lx_error *err)
{
	*ids = NULL;
	*n = 0;
	uint32_t cap = 0;
	_cleanup_free_ uint32_t *buf = NULL;
	/* The count can grow between calls (ENOSPC): ask again with room. */
	for (int tries = 0; tries < 8; tries++) {
		union bpf_attr a;
		memset(&a, 0, sizeof(a));
		a.query.target_fd = (uint32_t)cgroup_fd;
		a.query.attach_type = BPF_CGROUP_DEVICE;
		a.query.query_flags = effective ? BPF_F_QUERY_EFFECTIVE : 0;
		a.query.prog_cnt = cap;
		a.query.prog_ids = (uint64_t)(uintptr_t)buf;
		if (sys_bpf(BPF_PROG_QUERY, &a) < 0) {
			if (errno == ENOSPC && a.query.prog_cnt > cap) {
				cap = a.query.prog_cnt + 4;
				free(buf);
				buf = lx_xcalloc(cap, sizeof(*buf));
				continue;
			}
			return bpf_error(err, errno, "BPF_PROG_QUERY");
		}
		if (a.query.prog_cnt > cap) {
			/* First call (no buffer): now we know how many. */
			cap = a.query.prog_cnt + 4;
			free(buf);
			buf = lx_xcalloc(cap, sizeof(*buf));
			continue;
		}
		if (attach_flags)
			*attach_flags = a.query.attach_flags;
		*n = a.query.prog_cnt;
		*ids = buf;
		buf = NULL;
		return 0;
	}
	return lx_error_set(err, "BPF_PROG_QUERY: the list of programs keeps changing");
}

static void hex_tag(const unsigned char tag[BPF_TAG_SIZE], char out[17])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < BPF_TAG_SIZE && i < 8; i++) {
		out[2 * i] = digits[tag[i] >> 4];
		out[2 * i + 1] = digits[tag[i] & 15];
	}
	out[16] = 0;
}

static int prog_info(int fd, struct bpf_prog_info *info, struct lx_error *err)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(*info);
	a.info.info = (uint64_t)(uintptr_t)info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0)
		return bpf_error(err, errno, "BPF_OBJ_GET_INFO_BY_FD");
	return 0;
}

int lx_devprog_read(uint32_t id, struct lx_devprog *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_id = id;
	int fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
	if (fd < 0) {
		if (errno == ENOENT)
			return lx_error_set(err, "program %" PRIu32 " went away while it was read", id);
		bpf_error(err, errno, "BPF_PROG_GET_FD_BY_ID");
		return lx_error_prefix(err, "program %" PRIu32, id);
	}
	struct bpf_prog_info info;
	memset(&info, 0, sizeof(info));
	int rc = -1;
	if (prog_info(fd, &info, err))
		goto out;
	if (info.type != BPF_PROG_TYPE_CGROUP_DEVICE) {
		lx_error_set(err, "program %" PRIu32 " is of type %" PRIu32 ", not a device program",
			     id, info.type);
		goto out;
	}
	uint32_t len = info.xlated_prog_len;
	if (len == 0) {
		lx_error_set(err, "program %" PRIu32 ": the kernel hides its instructions (needs "
			     "CAP_SYS_ADMIN or CAP_BPF)", id);
		goto out;
	}
	if (len % sizeof(struct bpf_insn) || len / sizeof(struct bpf_insn) > LX_DEVPROG_MAX_INSNS) {
		lx_error_set(err, "program %" PRIu32 " has %" PRIu32 " bytes of instructions (at "
			     "most %d instructions are read)", id, len, LX_DEVPROG_MAX_INSNS);
		goto out;
	}
	struct bpf_insn *insns = lx_xcalloc(len / sizeof(struct bpf_insn), sizeof(*insns));
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = len;
	info.xlated_prog_insns = (uint64_t)(uintptr_t)insns;
	if (prog_info(fd, &info, err)) {
		free(insns);
		goto out;
	}
	if (info.xlated_prog_insns == 0) {
		/* bpf_dump_raw_ok() said no: kernel.kptr_restrict and friends */
		lx_error_set(err, "program %" PRIu32 ": the kernel hides its translated "
			     "instructions (kernel.kptr_restrict)", id);
		free(insns);
		goto out;
	}
	if (info.xlated_prog_len != len) {
		lx_error_set(err, "program %" PRIu32 " changed while it was read", id);
		free(insns);
		goto out;
	}
	out->id = id;
	hex_tag(info.tag, out->tag);
	out->insns = insns;
	out->n_insns = len / sizeof(struct bpf_insn);
	rc = 0;
out:
	close(fd);
	return rc;
}

void lx_devprog_free(struct lx_devprog *p)
{
	free(p->cgroup);
	free(p->insns);
	memset(p, 0, sizeof(*p));
}

void lx_devprog_chain_free(struct lx_devprog_chain *c)
{
	for (size_t i = 0; i < c->n_progs; i++)
		lx_devprog_free(&c->progs[i]);
	free(c->progs);
	free(c->cgroup);
	memset(c, 0, sizeof(*c));
}

static bool id_in(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static int chain_read(const char *cgroup_root, const char *cgroup, struct lx_devprog_chain *out,
		      struct lx_error *err)
{
	/* Every cgroup from the root down to cgroup: "/", "/lxc", "/lxc/100", ... */
	struct lx_strv levels = {0};
	lx_strv_push(&levels, "/");
	_cleanup_free_ char *rel = lx_xstrdup(cgroup);
	for (char *p = rel; *p; p++) {
		if (*p != '/' || p == rel)
			continue;
		lx_strv_push_owned(&levels, lx_xstrndup(rel, (size_t)(p - rel)));
	}
	if (strcmp(rel, "/") != 0) {
		size_t len = strlen(rel);
		while (len > 1 && rel[len - 1] == '/')
			len--;
		lx_strv_push_owned(&levels, lx_xstrndup(rel, len));
	}
	int rc = -1;
	uint32_t **attached = lx_xcalloc(levels.n, sizeof(*attached));
	size_t *n_attached = lx_xcalloc(levels.n, sizeof(*n_attached));
	uint32_t *eff = NULL;
	size_t n_eff = 0;
	for (size_t i = 0; i < levels.n; i++) {
		_cleanup_free_ char *dir = lx_xasprintf("%s%s", cgroup_root, levels.items[i]);
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			lx_error_set_errno(err, errno, "%s", dir);
			goto out;
		}
		int q = lx_devprog_query(fd, false, &attached[i], &n_attached[i], NULL, err);
		/* The leaf's effective array is what the kernel runs. */
		if (q == 0 && i + 1 == levels.n)
			q = lx_devprog_query(fd, true, &eff, &n_eff, NULL, err);
		close(fd);
		if (q) {
			lx_error_prefix(err, "%s", dir);
			goto out;
		}
	}
	out->progs = lx_xcalloc(n_eff ? n_eff : 1, sizeof(*out->progs));
	for (size_t i = 0; i < n_eff; i++) {
		if (lx_devprog_read(eff[i], &out->progs[i], err))
			goto out;
		out->n_progs++;
		/* The nearest cgroup that has it attached. */
		for (size_t l = levels.n; l-- > 0;)
			if (id_in(attached[l], n_attached[l], eff[i])) {
				out->progs[i].cgroup = lx_xstrdup(levels.items[l]);
				break;
			}
	}
	rc = 0;
out:
	for (size_t i = 0; i < levels.n; i++)
		free(attached[i]);
	free(attached);
	free(n_attached);
	free(eff);
	lx_strv_free(&levels);
	return rc;
}

int lx_devprog_chain_read(const char *cgroup_root, const char *cgroup,
			  struct lx_devprog_chain *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	if (cgroup[0] != '/' || strstr(cgroup, "/../") || lx_str_ends_with(cgroup, "/..") ||
	    strstr(cgroup, "//"))
		return lx_error_set(err, "could not check: %s is not a cgroup path", cgroup);
	out->cgroup = lx_xstrdup(cgroup);
	if (chain_read(cgroup_root, cgroup, out, err)) {
		lx_devprog_chain_free(out);
		return lx_error_prefix(err, "could not check: the device programs of %s", cgroup);
	}
	return 0;
}

enum lx_devprog_verdict lx_devprog_chain_eval(const struct lx_devprog_chain *c,
					      const struct bpf_cgroup_dev_ctx *req,
					      uint32_t *denied_by, struct lx_error *err)
{
	*denied_by = 0;
	bool unknown = false;
	for (size_t i = 0; i < c->n_progs; i++) {
		const struct lx_devprog *p = &c->progs[i];
		bool allow = false;
		struct lx_error e = {0};
		if (lx_devprog_run(p->insns, p->n_insns, req, &allow, &e)) {
			/* A later program that denies still decides: keep going. */
			if (!unknown)
				lx_error_set(err, "could not check: device program %" PRIu32
					     " (on %s): %s", p->id, p->cgroup ? p->cgroup : "?",
					     e.message);
			lx_error_clear(&e);
			unknown = true;
			continue;
		}
		if (!allow) {
			*denied_by = p->id;
			if (unknown)
				lx_error_clear(err);
			return LX_DEVPROG_DENY;
		}
	}
	return unknown ? LX_DEVPROG_UNKNOWN : LX_DEVPROG_ALLOW;
}

const char *lx_devprog_verdict_name(enum lx_devprog_verdict v)
{
	switch (v) {
	case LX_DEVPROG_DENY: return "denied";
	case LX_DEVPROG_ALLOW: return "allowed";
	default: return "unknown";
	}
}

void lx_devprog_judge_node(const struct lx_devprog_chain *c, const char *path, char type,
			   unsigned major, unsigned minor, struct lx_devprog_node *out)
{
	memset(out, 0, sizeof(*out));
	out->path = lx_xstrdup(path ? path : "");
	static const unsigned modes[] = {LX_ACC_READ, LX_ACC_WRITE, LX_ACC_READ | LX_ACC_WRITE};
	enum lx_devprog_verdict *slots[] = {&out->read, &out->write, &out->read_write};
	for (size_t i = 0; i < 3; i++) {
		struct bpf_cgroup_dev_ctx req = lx_devprog_request(type, major, minor, modes[i]);
		struct lx_error e = {0};
		uint32_t by = 0;
		*slots[i] = lx_devprog_chain_eval(c, &req, &by, &e);
		if (by && !out->denied_by)
			out->denied_by = by;
		if (e.message && !out->reason) {
			out->reason = e.message;
			e.message = NULL;
		}
		lx_error_clear(&e);
	}
}

void lx_devprog_node_free(struct lx_devprog_node *n)
{
	free(n->path);
	free(n->reason);
	memset(n, 0, sizeof(*n));
}

int lx_devprog_cgroup_of_pid(const char *proc, long pid, char **out, struct lx_error *err)
{
	*out = NULL;
	_cleanup_free_ char *path = lx_xasprintf("%s/%ld/cgroup", proc, pid);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	if (lx_read_file(path, 1 << 20, &text, &len, err))
		return -1;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (lx_str_starts_with(line, "0::/")) {
			*out = lx_xstrdup(line + 3);
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return lx_error_set(err, "%s: no cgroup v2 line (0::)", path);
}
