/* verify/devprog.c: the device-program interpreter.
 *
 * Programs are assembled here in the shapes LXC 5 (cgroups/cgroup2_devices.c)
 * and systemd (src/core/bpf-devices.c) generate, written from what those
 * generators emit for a rule list, not taken from lxgpu. The expected
 * verdicts come from the rule semantics the program encodes, stated at each
 * case:
 * - LXC: rules are checked in list order (newest first); a rule matches a
 *   request when its type (unless 'a'), major and minor (unless '*') are
 *   equal and the access asked is a subset of the rule's; the first match
 *   returns its allow bit; no match returns the list type (allowlist: 0,
 *   denylist: 1).
 * - systemd: each DeviceAllow= entry is a rule of the same match; a match
 *   returns 1, no match 0 (closed/strict with a list); strict without a list
 *   returns 0 for everything.
 * - Several programs: each runs, and the request passes only when all
 *   return 1 (the kernel ANDs the effective array). */
#include "lxgpu/access.h"
#include "lxgpu/devprog.h"
#include "tap.h"

#include <stdint.h>

#define INSN(c, d, s, o, i) ((struct bpf_insn){.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)})
#define LDXW(d, s, o) INSN(BPF_LDX | BPF_W | BPF_MEM, d, s, o, 0)
#define LDXH(d, s, o) INSN(BPF_LDX | BPF_H | BPF_MEM, d, s, o, 0)
#define LDXB(d, s, o) INSN(BPF_LDX | BPF_B | BPF_MEM, d, s, o, 0)
#define ALU32_IMM(op, d, i) INSN(BPF_ALU | (op) | BPF_K, d, 0, 0, i)
#define ALU64_IMM(op, d, i) INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU64_REG(op, d, s) INSN(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i) ALU64_IMM(BPF_MOV, d, i)
#define MOV32_REG(d, s) INSN(BPF_ALU | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_REG(d, s) ALU64_REG(BPF_MOV, d, s)
#define JMP_IMM(op, d, i, o) INSN(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define JMP_REG(op, d, s, o) INSN(BPF_JMP | (op) | BPF_X, d, s, o, 0)
#define JMP32_IMM(op, d, i, o) INSN(BPF_JMP32 | (op) | BPF_K, d, 0, o, i)
#define JA(o) INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

struct prog {
	struct bpf_insn insns[LX_DEVPROG_MAX_INSNS + 8];
	size_t n;
};

static void emit(struct prog *p, struct bpf_insn in)
{
	if (p->n < sizeof(p->insns) / sizeof(p->insns[0]))
		p->insns[p->n++] = in;
}

static uint32_t acc_mask(const char *acc)
{
	uint32_t m = 0;
	for (; *acc; acc++)
		m |= *acc == 'r' ? BPF_DEVCG_ACC_READ : *acc == 'w' ? BPF_DEVCG_ACC_WRITE
								  : BPF_DEVCG_ACC_MKNOD;
	return m;
}

static const uint32_t all_acc = BPF_DEVCG_ACC_READ | BPF_DEVCG_ACC_WRITE | BPF_DEVCG_ACC_MKNOD;

/* LXC's prologue: r2 device type, r3 access, r4 major, r5 minor. */
static void lxc_init(struct prog *p)
{
	p->n = 0;
	emit(p, LDXW(2, 1, 0));
	emit(p, ALU32_IMM(BPF_AND, 2, 0xffff));
	emit(p, LDXW(3, 1, 0));
	emit(p, ALU32_IMM(BPF_RSH, 3, 16));
	emit(p, LDXW(4, 1, 4));
	emit(p, LDXW(5, 1, 8));
}

/* One LXC rule: each check that fails jumps over the rest of the rule to
 * the next one; the rule ends in "r0 = allow; exit". major/minor -1: '*'. */
static void lxc_rule(struct prog *p, char type, int major, int minor, const char *acc, bool allow)
{
	uint32_t mask = acc_mask(acc);
	int checks = (mask != all_acc) + (type != 'a') + (major >= 0) + (minor >= 0);
	int skip = checks + 1; /* from the first check: the remaining checks + mov */
	if (mask != all_acc) {
		emit(p, MOV32_REG(1, 3));
		emit(p, ALU32_IMM(BPF_AND, 1, (int)mask));
		emit(p, JMP_REG(BPF_JNE, 1, 3, skip--));
	}
	if (type != 'a')
		emit(p, JMP_IMM(BPF_JNE, 2, type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR,
				skip--));
	if (major >= 0)
		emit(p, JMP_IMM(BPF_JNE, 4, major, skip--));
	if (minor >= 0)
		emit(p, JMP_IMM(BPF_JNE, 5, minor, skip--));
	emit(p, MOV64_IMM(0, allow));
	emit(p, EXIT());
}

static void lxc_finish(struct prog *p, bool default_allow)
{
	emit(p, MOV64_IMM(0, default_allow));
	emit(p, EXIT());
}

/* systemd: the same prologue; each entry jumps to PASS on a match. The
 * jumps to PASS are fixed up at the end, as systemd does. */
#define SD_PASS 4096
static void sd_entry(struct prog *p, char type, int major, int minor, const char *acc)
{
	uint32_t mask = acc_mask(acc);
	int checks = 1 + (major >= 0) + (minor >= 0); /* type, major, minor */
	if (mask != all_acc) { /* rwm: systemd leaves out the access check */
		emit(p, MOV32_REG(1, 3));
		emit(p, ALU32_IMM(BPF_AND, 1, (int)mask));
		emit(p, JMP_REG(BPF_JNE, 1, 3, checks + 1));
	}
	int skip = checks;
	emit(p, JMP_IMM(BPF_JNE, 2, type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR, skip--));
	if (major >= 0)
		emit(p, JMP_IMM(BPF_JNE, 4, major, skip--));
	if (minor >= 0)
		emit(p, JMP_IMM(BPF_JNE, 5, minor, skip--));
	emit(p, JA(SD_PASS));
}

static void sd_finish(struct prog *p)
{
	emit(p, MOV64_IMM(0, 0)); /* DENY */
	emit(p, JA(1));
	size_t pass = p->n;
	for (size_t i = 0; i < p->n; i++)
		if (p->insns[i].code == (BPF_JMP | BPF_JA) && p->insns[i].off == SD_PASS)
			p->insns[i].off = (short)(pass - i - 1);
	emit(p, MOV64_IMM(0, 1)); /* ALLOW */
	emit(p, EXIT());
}

/* "allowed" / "denied" / "refused: reason" for one request. */
static const char *verdict(const struct prog *p, char type, unsigned major, unsigned minor,
			   unsigned access)
{
	static char buf[512];
	struct bpf_cgroup_dev_ctx req = lx_devprog_request(type, major, minor, access);
	struct lx_error err = {0};
	bool allow = false;
	if (lx_devprog_run(p->insns, p->n, &req, &allow, &err)) {
		snprintf(buf, sizeof(buf), "refused: %s", err.message);
		lx_error_clear(&err);
		return buf;
	}
	return allow ? "allowed" : "denied";
}

#define R LX_ACC_READ
#define W LX_ACC_WRITE
#define M LX_ACC_MKNOD

static void expect(const struct prog *p, const char *label, char type, unsigned major,
		   unsigned minor, unsigned access, const char *want)
{
	char what[160];
	snprintf(what, sizeof(what), "%s: %c %u:%u %s%s%s", label, type, major, minor,
		 access & R ? "r" : "", access & W ? "w" : "", access & M ? "m" : "");
	str_eq(verdict(p, type, major, minor, access), want, what);
}

/* The same rules through lxgpu's model of LXC's list (access/devcgroup.c):
 * not an oracle, but the two must agree on every request. */
static void agree_with_model(const struct prog *p, const char *label, const char *const *rules,
			     size_t n_rules)
{
	struct lx_dev_cgroup cg;
	lx_dev_cgroup_init(&cg, LX_CGROUP_V2);
	for (size_t i = 0; i < n_rules; i++) {
		struct lx_dev_rule r;
		bool allow = rules[i][0] == '+';
		if (lx_dev_rule_parse(rules[i] + 1, allow, &r))
			lx_dev_cgroup_add(&cg, &r);
	}
	static const unsigned majors[] = {1, 8, 136, 195, 511, 10};
	static const unsigned minors[] = {0, 1, 3, 5, 200, 255};
	size_t disagree = 0;
	for (int t = 0; t < 2; t++)
		for (size_t a = 0; a < 6; a++)
			for (size_t b = 0; b < 6; b++)
				for (unsigned acc = 1; acc < 8; acc++) {
					char type = t ? 'b' : 'c';
					bool model = lx_dev_cgroup_allows(&cg, type, majors[a], minors[b], acc);
					const char *got = verdict(p, type, majors[a], minors[b], acc);
					if (strcmp(got, model ? "allowed" : "denied") != 0) {
						if (disagree++ < 3)
							printf("# %c %u:%u acc %u: program %s, model %s\n", type,
							       majors[a], minors[b], acc, got,
							       model ? "allowed" : "denied");
					}
				}
	char what[160];
	snprintf(what, sizeof(what), "%s: the program and lxgpu's rule model agree", label);
	int_eq((long long)disagree, 0, what);
	lx_dev_cgroup_free(&cg);
}

/* common.conf-like: deny a, then allow rules; LXC lists them newest first. */
static void test_lxc_allowlist(struct prog *p)
{
	/* config order: deny a; allow c 1:3 rwm; allow c 195:* rwm; allow c 511:0 r;
	 * allow b 8:* m; allow a 10:200 rw */
	lxc_init(p);
	lxc_rule(p, 'a', 10, 200, "rw", true);
	lxc_rule(p, 'b', 8, -1, "m", true);
	lxc_rule(p, 'c', 511, 0, "r", true);
	lxc_rule(p, 'c', 195, -1, "rwm", true);
	lxc_rule(p, 'c', 1, 3, "rwm", true);
	lxc_finish(p, false);
	const char *L = "LXC allowlist";
	struct lx_error err = {0};
	ok(lx_devprog_validate(p->insns, p->n, &err) == 0, "LXC allowlist program validates");
	lx_error_clear(&err);
	expect(p, L, 'c', 1, 3, R, "allowed");
	expect(p, L, 'c', 1, 3, R | W, "allowed");
	expect(p, L, 'c', 1, 3, M, "allowed");
	expect(p, L, 'c', 1, 5, R, "denied");          /* no rule: the list type */
	expect(p, L, 'c', 195, 0, R | W, "allowed");   /* wildcard minor */
	expect(p, L, 'c', 195, 255, M, "allowed");
	expect(p, L, 'b', 195, 0, R, "denied");        /* type differs */
	expect(p, L, 'c', 511, 0, R, "allowed");
	expect(p, L, 'c', 511, 0, W, "denied");        /* w not in "r" */
	expect(p, L, 'c', 511, 0, R | W, "denied");    /* rw not a subset of r */
	expect(p, L, 'c', 511, 1, R, "denied");
	expect(p, L, 'b', 8, 0, M, "allowed");
	expect(p, L, 'b', 8, 0, R, "denied");
	expect(p, L, 'c', 8, 0, M, "denied");
	expect(p, L, 'c', 10, 200, R | W, "allowed");  /* type 'a': char and block */
	expect(p, L, 'b', 10, 200, W, "allowed");
	expect(p, L, 'b', 10, 200, M, "denied");
	static const char *const rules[] = {"-a", "+c 1:3 rwm", "+c 195:* rwm", "+c 511:0 r",
					    "+b 8:* m", "+a 10:200 rw"};
	agree_with_model(p, L, rules, 6);
}

/* allow a, then deny rules: the program holds only the deny rules. */
static void test_lxc_denylist(struct prog *p)
{
	/* config order: allow a; deny c 195:1 w; deny c 511:* rwm; deny b *:* m */
	lxc_init(p);
	lxc_rule(p, 'b', -1, -1, "m", false);
	lxc_rule(p, 'c', 511, -1, "rwm", false);
	lxc_rule(p, 'c', 195, 1, "w", false);
	lxc_finish(p, true);
	const char *L = "LXC denylist";
	expect(p, L, 'c', 195, 1, W, "denied");
	expect(p, L, 'c', 195, 1, R, "allowed");
	/* rw is not a subset of "w": the deny rule does not match an O_RDWR open */
	expect(p, L, 'c', 195, 1, R | W, "allowed");
	expect(p, L, 'c', 195, 0, W, "allowed");
	expect(p, L, 'c', 511, 7, R, "denied");
	expect(p, L, 'c', 511, 7, R | W, "denied");
	expect(p, L, 'b', 511, 7, R, "allowed");
	expect(p, L, 'b', 8, 1, M, "denied");           /* wildcard major and minor */
	expect(p, L, 'b', 8, 1, R | W, "allowed");
	expect(p, L, 'c', 8, 1, M, "allowed");
	static const char *const rules[] = {"+a", "-c 195:1 w", "-c 511:* rwm", "-b *:* m"};
	agree_with_model(p, L, rules, 4);
}

/* No rule after deny a: LXC's program is the prologue and "return 0". */
static void test_lxc_deny_all(struct prog *p)
{
	lxc_init(p);
	lxc_finish(p, false);
	expect(p, "LXC deny a", 'c', 1, 3, R, "denied");
	expect(p, "LXC deny a", 'b', 8, 0, M, "denied");
}

/* systemd DevicePolicy=closed with DeviceAllow= entries. */
static void test_systemd(struct prog *p)
{
	/* DeviceAllow=/dev/null rw, char-pts rw (136), block-* m, /dev/zero rwm */
	lxc_init(p); /* the same prologue */
	sd_entry(p, 'c', 1, 3, "rw");
	sd_entry(p, 'c', 136, -1, "rw");
	sd_entry(p, 'b', -1, -1, "m");
	size_t before = p->n;
	sd_entry(p, 'c', 1, 5, "rwm");
	int_eq((long long)(p->n - before), 4, "systemd rwm entry: no access check");
	sd_finish(p);
	const char *L = "systemd closed";
	expect(p, L, 'c', 1, 3, R, "allowed");
	expect(p, L, 'c', 1, 3, R | W, "allowed");
	expect(p, L, 'c', 1, 3, M, "denied");
	expect(p, L, 'c', 136, 7, R | W, "allowed");
	expect(p, L, 'b', 136, 7, R, "denied");
	expect(p, L, 'b', 8, 1, M, "allowed");
	expect(p, L, 'b', 8, 1, R, "denied");
	expect(p, L, 'c', 1, 5, R | W | M, "allowed");
	expect(p, L, 'c', 1, 7, R, "denied");

	/* DevicePolicy=strict without entries: "r0 = 0; exit" and nothing else */
	p->n = 0;
	emit(p, MOV64_IMM(0, 0));
	emit(p, EXIT());
	expect(p, "systemd strict, no entries", 'c', 1, 3, R, "denied");
}

/* A program no generator writes, in instructions device programs may use:
 * allow reads (not writes, not mknod) of char devices with majors 200..210,
 * and any access to block device 8:16. Narrow load of the access bits,
 * JMP32, jset, signed compare, a 64-bit immediate, r1 copied to r6. */
static void test_other_shape(struct prog *p)
{
	/* DENY is instruction 19, ALLOW 21 */
	p->n = 0;
	emit(p, MOV64_REG(6, 1));                              /* 0 */
	emit(p, LDXH(7, 6, 2));                                /* 1: access bits (upper half) */
	emit(p, LDXB(8, 6, 0));                                /* 2: type (low byte) */
	emit(p, LDXW(4, 6, 4));                                /* 3 */
	emit(p, LDXW(5, 6, 8));                                /* 4 */
	emit(p, JMP32_IMM(BPF_JNE, 8, BPF_DEVCG_DEV_BLOCK, 3)); /* 5: -> 9 */
	emit(p, JMP_IMM(BPF_JNE, 4, 8, 12));                   /* 6: -> DENY */
	emit(p, JMP_IMM(BPF_JNE, 5, 16, 11));                  /* 7: -> DENY */
	emit(p, JA(12));                                       /* 8: -> ALLOW */
	emit(p, JMP_IMM(BPF_JNE, 8, BPF_DEVCG_DEV_CHAR, 9));   /* 9: -> DENY */
	emit(p, JMP_IMM(BPF_JSET, 7, BPF_DEVCG_ACC_WRITE | BPF_DEVCG_ACC_MKNOD, 8)); /* 10 */
	emit(p, INSN(BPF_LD | BPF_IMM | BPF_DW, 9, 0, 0, 200)); /* 11, 12 */
	emit(p, INSN(0, 0, 0, 0, 0));
	emit(p, JMP_REG(BPF_JLT, 4, 9, 5));                    /* 13: -> DENY */
	emit(p, ALU64_IMM(BPF_SUB, 4, 210));                   /* 14 */
	emit(p, JMP_IMM(BPF_JSGT, 4, 0, 3));                   /* 15: -> DENY */
	emit(p, ALU64_IMM(BPF_LSH, 4, 1));                     /* 16: stays <= 0 */
	emit(p, JMP_IMM(BPF_JSLE, 4, 0, 3));                   /* 17: -> ALLOW */
	emit(p, JA(0));                                        /* 18 */
	emit(p, MOV64_IMM(0, 0));                              /* 19: DENY */
	emit(p, EXIT());
	emit(p, MOV64_IMM(0, 1));                              /* 21: ALLOW */
	emit(p, EXIT());
	const char *L = "other shape";
	struct lx_error err = {0};
	if (!ok(lx_devprog_validate(p->insns, p->n, &err) == 0, "other shape validates"))
		printf("# %s\n", err.message);
	lx_error_clear(&err);
	expect(p, L, 'c', 200, 0, R, "allowed");
	expect(p, L, 'c', 205, 9, R, "allowed");
	expect(p, L, 'c', 210, 9, R, "allowed");
	expect(p, L, 'c', 211, 0, R, "denied");
	expect(p, L, 'c', 199, 0, R, "denied");
	expect(p, L, 'c', 205, 0, R | W, "denied");
	expect(p, L, 'c', 205, 0, M, "denied");
	expect(p, L, 'b', 8, 16, R | W | M, "allowed");
	expect(p, L, 'b', 8, 17, R, "denied");
	expect(p, L, 'b', 205, 0, R, "denied");
}

/* Several programs on one path: each must allow. */
static void test_chain(void)
{
	static struct prog a, b, bad;
	/* a (the container's, LXC allowlist): allow c 195:* rwm, allow c 1:3 rwm */
	lxc_init(&a);
	lxc_rule(&a, 'c', 1, 3, "rwm", true);
	lxc_rule(&a, 'c', 195, -1, "rwm", true);
	lxc_finish(&a, false);
	/* b (an ancestor's, LXC denylist): deny c 195:1 rwm */
	lxc_init(&b);
	lxc_rule(&b, 'c', 195, 1, "rwm", false);
	lxc_finish(&b, true);
	/* bad: calls a helper, cannot be evaluated */
	bad.n = 0;
	emit(&bad, INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_uid_gid));
	emit(&bad, EXIT());

	struct lx_devprog progs[3] = {
		{.id = 11, .cgroup = (char *)"/lxc/100", .insns = a.insns, .n_insns = a.n},
		{.id = 12, .cgroup = (char *)"/lxc", .insns = b.insns, .n_insns = b.n},
		{.id = 13, .cgroup = (char *)"/", .insns = bad.insns, .n_insns = bad.n},
	};
	struct lx_devprog_chain c = {.cgroup = (char *)"/lxc/100", .progs = progs, .n_progs = 2};
	struct lx_devprog_node n;
	lx_devprog_judge_node(&c, "/dev/nvidia0", 'c', 195, 0, &n);
	ok(n.read == LX_DEVPROG_ALLOW && n.write == LX_DEVPROG_ALLOW &&
	   n.read_write == LX_DEVPROG_ALLOW && !n.reason, "chain: c 195:0 allowed by both");
	lx_devprog_node_free(&n);
	lx_devprog_judge_node(&c, "/dev/nvidia1", 'c', 195, 1, &n);
	ok(n.read == LX_DEVPROG_DENY && n.read_write == LX_DEVPROG_DENY && n.denied_by == 12,
	   "chain: c 195:1 denied by the ancestor's program");
	lx_devprog_node_free(&n);
	lx_devprog_judge_node(&c, "/dev/zero", 'c', 1, 5, &n);
	ok(n.read == LX_DEVPROG_DENY && n.denied_by == 11, "chain: c 1:5 denied by the container's");
	lx_devprog_node_free(&n);

	c.n_progs = 3; /* with the unreadable one */
	lx_devprog_judge_node(&c, "/dev/nvidia0", 'c', 195, 0, &n);
	ok(n.read == LX_DEVPROG_UNKNOWN && n.reason &&
	   lx_str_starts_with(n.reason, "could not check: device program 13"),
	   "chain: an unevaluable program makes an allow unknown, never a pass");
	if (n.reason)
		printf("# %s\n", n.reason);
	lx_devprog_node_free(&n);
	lx_devprog_judge_node(&c, "/dev/nvidia1", 'c', 195, 1, &n);
	ok(n.read == LX_DEVPROG_DENY && !n.reason,
	   "chain: a deny stands whatever the unevaluable program says");
	lx_devprog_node_free(&n);

	c.n_progs = 0;
	lx_devprog_judge_node(&c, "/dev/sda", 'b', 8, 0, &n);
	ok(n.read == LX_DEVPROG_ALLOW && n.read_write == LX_DEVPROG_ALLOW,
	   "chain: no program, every device allowed");
	lx_devprog_node_free(&n);
}

static void refused(const struct prog *p, const char *what, const char *reason_part)
{
	struct lx_error err = {0};
	bool allow = true;
	struct bpf_cgroup_dev_ctx req = lx_devprog_request('c', 1, 3, R);
	int rc = lx_devprog_run(p->insns, p->n, &req, &allow, &err);
	char label[200];
	snprintf(label, sizeof(label), "refused: %s", what);
	if (!ok(rc == -1 && err.message && strstr(err.message, reason_part), label))
		printf("#   rc %d, message: %s\n", rc, err.message ? err.message : "(none)");
	lx_error_clear(&err);
}

static void test_malformed(struct prog *p)
{
	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	emit(p, JA(5));
	emit(p, EXIT());
	refused(p, "jump past the end", "past the end");

	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	emit(p, JA(-2));
	refused(p, "backward jump (in unreached code too)", "backwards");

	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	emit(p, JA(-1));
	emit(p, EXIT());
	refused(p, "jump to itself", "backwards");

	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	emit(p, INSN(BPF_ALU64 | 0xe0 | BPF_K, 0, 0, 0, 0));
	emit(p, EXIT());
	refused(p, "unknown ALU opcode", "not supported");

	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	emit(p, INSN(0xff, 0, 0, 0, 0));
	emit(p, EXIT());
	refused(p, "opcode 0xff", "not supported");

	p->n = 0;
	emit(p, JMP_IMM(BPF_JEQ, 2, 0, 1));
	emit(p, MOV64_IMM(0, 1));
	emit(p, MOV64_IMM(0, 0));
	emit(p, EXIT());
	refused(p, "read of r2 before it is written", "r2, which is not written");

	p->n = 0;
	emit(p, LDXW(2, 1, 12));
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "context read at offset 12", "context offset 12");

	p->n = 0;
	emit(p, LDXH(2, 1, 4));
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "narrow read of major", "context offset 4");

	p->n = 0;
	emit(p, LDXW(2, 1, 2));
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "unaligned context read", "context offset 2");

	p->n = 0;
	emit(p, INSN(BPF_LDX | BPF_DW | BPF_MEM, 2, 1, 0, 0));
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "8-byte context read", "8 bytes");

	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	refused(p, "no exit", "no exit");

	p->n = 0;
	emit(p, LDXW(3, 1, 0));
	emit(p, JMP_IMM(BPF_JEQ, 3, 0, 1));
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "r0 unset on one path to exit", "r0, which is not written on every path");

	p->n = 0;
	emit(p, MOV32_REG(1, 0)); /* r1 = r0, r0 unwritten */
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "mov from an unwritten register", "r0, which is not written");

	p->n = 0;
	emit(p, LDXW(3, 1, 0));
	emit(p, MOV32_REG(1, 3)); /* as LXC does: r1 is then a number */
	emit(p, LDXW(4, 1, 4));
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "context read through r1 after r1 was overwritten", "not the context");

	p->n = 0;
	emit(p, ALU64_IMM(BPF_ADD, 1, 4));
	emit(p, LDXW(4, 1, 0));
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "arithmetic on the context pointer", "the context pointer");

	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	emit(p, INSN(BPF_STX | BPF_W | BPF_MEM, 10, 0, -4, 0));
	emit(p, EXIT());
	refused(p, "a store to the stack", "stores");

	p->n = 0;
	emit(p, INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_uid_gid));
	emit(p, EXIT());
	refused(p, "a helper call", "helper");

	p->n = 0;
	emit(p, MOV64_IMM(0, 2));
	emit(p, EXIT());
	refused(p, "a return value of 2", "returns 2");

	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	emit(p, JA(1));
	emit(p, INSN(BPF_LD | BPF_IMM | BPF_DW, 2, 0, 0, 1));
	emit(p, INSN(0, 0, 0, 0, 0));
	emit(p, EXIT());
	refused(p, "a jump into a 64-bit load", "into a 64-bit load");

	p->n = 0;
	emit(p, MOV64_IMM(0, 1));
	emit(p, ALU64_IMM(BPF_LSH, 0, 64));
	emit(p, EXIT());
	refused(p, "a shift by 64", "shifts by 64");

	p->n = 0;
	for (size_t i = 0; i < LX_DEVPROG_MAX_INSNS; i++)
		emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	refused(p, "more than 4096 instructions", "more than 4096");

	p->n = 0;
	refused(p, "an empty program", "empty");

	/* At the limit: 4095 movs and an exit run. */
	p->n = 0;
	for (size_t i = 0; i + 1 < LX_DEVPROG_MAX_INSNS; i++)
		emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT());
	expect(p, "4096 instructions", 'c', 1, 3, R, "allowed");
}

static void test_request(void)
{
	struct bpf_cgroup_dev_ctx r = lx_devprog_request('c', 195, 7, LX_ACC_READ | LX_ACC_WRITE);
	int_eq(r.access_type, ((BPF_DEVCG_ACC_READ | BPF_DEVCG_ACC_WRITE) << 16) | BPF_DEVCG_DEV_CHAR,
	       "request: (access << 16) | type");
	int_eq(r.major, 195, "request: major");
	int_eq(r.minor, 7, "request: minor");
	r = lx_devprog_request('b', 8, 0, LX_ACC_MKNOD);
	int_eq(r.access_type, (BPF_DEVCG_ACC_MKNOD << 16) | BPF_DEVCG_DEV_BLOCK, "request: block mknod");
}

int main(void)
{
	static struct prog p;
	test_request();
	test_lxc_allowlist(&p);
	test_lxc_denylist(&p);
	test_lxc_deny_all(&p);
	test_systemd(&p);
	test_other_shape(&p);
	test_chain();
	test_malformed(&p);
	return tap_done();
}
