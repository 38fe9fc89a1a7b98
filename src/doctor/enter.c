/* doctor --probe CTID: a forked child of lxgpu made into a process of the
 * running container, as lxc-attach makes one, so that the container's own
 * libcuda.so.1 is loaded and run there: no binary of lxgpu's goes into
 * the container.
 *
 * Why this is safe: the container is a stranger and its libcuda is its
 * code. That code runs only after the child
 * - has stdin, stdout and stderr on /dev/null and no other fd than the
 *   reply pipe (no terminal to push keys into with TIOCSTI, nothing of
 *   the host open),
 * - is in the container's cgroup (its device rules decide which GPU nodes
 *   open, its limits apply) and in all of its init's namespaces (user,
 *   mount, pid, ipc, uts, net, cgroup): it sees the container's files
 *   only, and its grandchild, which loads the library, is a process of
 *   the container's pid namespace,
 * - is the container's root: setgroups() to none, setresgid/setresuid 0
 *   inside its user namespace (an unprivileged container's root is host
 *   uid 100000 or so, never host root), with the init's capability sets
 *   (bounding, permitted, effective, inheritable; ambient cleared),
 * - has the init's AppArmor label where it has one other than
 *   unconfined, no new privileges, and LXC's default seccomp denials
 *   (kexec_load, kexec_file_load, open_by_handle_at, init_module,
 *   finit_module, delete_module: what a privileged container's root could
 *   escape with); the container's own filter cannot be read back, so a
 *   stricter one is not copied,
 * - gets the container's init's environment, not the user's.
 * What cannot be set up is not skipped: the child says why and nothing of
 * the container runs. Its memory is a copy of doctor's (the host facts
 * read so far, nothing secret), which the container's root may read as it
 * may any of its processes'. */
#include "lxgpu/doctor.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ENTER_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ENTER_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ENTER_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__riscv) && __riscv_xlen == 64
#define ENTER_AUDIT_ARCH AUDIT_ARCH_RISCV64
#else
#error "doctor --probe CTID needs this architecture's AUDIT_ARCH"
#endif

/* cgroup v1 has some 14 hierarchies */
#define PROBE_CGROUPS_MAX 32

/* the init's environment and status are a few KiB */
#define INIT_FILE_MAX (256u << 10)

/* A /proc/<pid> file of the init, through its pinned directory. */
static char *read_init_file(int proc_fd, const char *name, size_t *len)
{
	int fd = openat(proc_fd, name, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	char *text = NULL;
	if (fd < 0 || lx_read_regular(fd, INIT_FILE_MAX, &text, len) < 0)
		text = NULL;
	if (fd >= 0)
		close(fd);
	return text;
}

/* "CapBnd:\t000001ffffffffff" of /proc/<pid>/status */
static bool status_caps(const char *status, const char *key, unsigned long long *out)
{
	const char *at = status ? strstr(status, key) : NULL;
	if (!at)
		return false;
	char *end;
	errno = 0;
	*out = strtoull(at + strlen(key), &end, 16);
	return errno == 0 && end != at + strlen(key);
}

void lx_probe_target_free(struct lx_probe_target *t)
{
	lx_strv_free(&t->cgroup_procs);
	free(t->environ);
	free(t->apparmor);
	memset(t, 0, sizeof(*t));
	t->pidfd = -1;
}

/* The cgroup.procs of every hierarchy the init is in (/proc/<pid>/cgroup,
 * written by the kernel, paths from lxgpu's cgroup namespace), where the
 * host mounts them: v2 at the root, v1 by controller (name=systemd as
 * systemd, cpu,cpuacct as that), a hybrid's v2 at unified. The device
 * hierarchy's (init_cgroup) first: it must be joined. */
static void init_cgroups(const struct lx_runtime_paths *paths, const struct lx_running *run,
			 struct lx_strv *out)
{
	lx_strv_push_owned(out, lx_xasprintf("%s/cgroup.procs", run->init_cgroup));
	if (run->layout == LX_CGROUP_V2)
		return;
	_cleanup_free_ char *text = read_init_file(run->proc_fd, "cgroup", NULL);
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2 || c2[1] != '/' || strstr(c2, "/.."))
			continue;
		*c2 = '\0';
		const char *ctrl = c1 + 1;
		if (lx_str_starts_with(ctrl, "name="))
			ctrl += strlen("name=");
		_cleanup_free_ char *dir = lx_xasprintf("%s/%s%s", paths->cgroup_root,
							*ctrl ? ctrl : "unified", c2 + 1);
		char *procs = lx_xasprintf("%s/cgroup.procs", dir);
		if (access(procs, F_OK) == 0 && !lx_strv_contains(out, procs))
			lx_strv_push_owned(out, procs);
		else
			free(procs);
	}
}

int lx_probe_target_of(const struct lx_runtime_paths *paths, const struct lx_running *run,
		       struct lx_probe_target *t, struct lx_error *err)
{
	memset(t, 0, sizeof(*t));
	t->pidfd = -1;
	if (run->state != LX_RUN_RUNNING || run->pidfd < 0 || run->proc_fd < 0 || !run->init_cgroup)
		return lx_error_set(err,
				    "the container's init could not be pinned (pidfd_open needs Linux 5.3, "
				    "setns on a pidfd 5.8)");
	t->pidfd = run->pidfd;
	init_cgroups(paths, run, &t->cgroup_procs);
	_cleanup_free_ char *status = read_init_file(run->proc_fd, "status", NULL);
	if (!status_caps(status, "CapBnd:", &t->cap_bnd) || !status_caps(status, "CapPrm:", &t->cap_prm) ||
	    !status_caps(status, "CapEff:", &t->cap_eff) || !status_caps(status, "CapInh:", &t->cap_inh)) {
		lx_probe_target_free(t);
		return lx_error_set(err, "the container's init's capabilities could not be read");
	}
	t->environ = read_init_file(run->proc_fd, "environ", &t->environ_len);
	/* AppArmor's label of the init: "lxc-container-default-cgns (enforce)"
	 * (attr/apparmor/ is there from Linux 5.8, as setns on a pidfd is; the
	 * shared attr/current could be another LSM's) */
	_cleanup_free_ char *label = read_init_file(run->proc_fd, "attr/apparmor/current", NULL);
	if (label) {
		label[strcspn(label, "\n")] = '\0';
		char *mode = strstr(label, " (");
		if (mode)
			*mode = '\0';
		if (*label && strcmp(label, "unconfined") != 0)
			t->apparmor = lx_xstrdup(label);
	}
	struct stat mine, theirs;
	t->own_userns = fstatat(run->proc_fd, "ns/user", &theirs, 0) == 0 &&
			stat("/proc/self/ns/user", &mine) == 0 &&
			(mine.st_ino != theirs.st_ino || mine.st_dev != theirs.st_dev);
	return 0;
}

/* LXC's default seccomp policy (config/common.seccomp): these calls fail
 * with EPERM; another ABI is killed. */
static int deny_escapes(void)
{
	static const int denied[] = {
		SYS_kexec_load, SYS_open_by_handle_at, SYS_init_module, SYS_finit_module, SYS_delete_module,
#ifdef SYS_kexec_file_load
		SYS_kexec_file_load,
#endif
	};
	enum { N = sizeof(denied) / sizeof(denied[0]) };
	struct sock_filter prog[N + 7];
	size_t n = 0;
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ENTER_AUDIT_ARCH, 1, 0);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
	/* x32 calls (the same numbers with a bit set): all fail */
	prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, (__u8)(N + 1), 0);
#endif
	for (size_t i = 0; i < N; i++)
		prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)denied[i],
							 (__u8)(N - i), 0);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	struct sock_fprog fprog = {.len = (unsigned short)n, .filter = prog};
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0);
}

/* The init's capability sets as ours. */
static int take_caps(const struct lx_probe_target *t)
{
	for (int cap = 0; cap <= 63; cap++)
		if (!(t->cap_bnd & (1ull << cap)) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 &&
		    errno != EINVAL)
			return -1;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return -1;
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct d[2] = {
		{(__u32)t->cap_eff, (__u32)t->cap_prm, (__u32)t->cap_inh},
		{(__u32)(t->cap_eff >> 32), (__u32)(t->cap_prm >> 32), (__u32)(t->cap_inh >> 32)},
	};
	return (int)syscall(SYS_capset, &h, d);
}

static int write_all(int fd, const char *text)
{
	size_t len = strlen(text);
	return write(fd, text, len) == (ssize_t)len ? 0 : -1;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Close every fd from 3 on but the n in keep (-1 entries ignored). */
static int close_all_but(int *keep, size_t n)
{
	qsort(keep, n, sizeof(*keep), cmp_int);
	unsigned lo = 3;
	for (size_t i = 0; i <= n; i++) {
		unsigned hi = i < n ? (unsigned)keep[i] : ~0u;
		if (i < n && (keep[i] < 3 || (unsigned)keep[i] < lo))
			continue;
		if (hi > lo && syscall(SYS_close_range, lo, hi - 1, 0) < 0)
			return -1;
		if (i < n)
			lo = hi + 1;
	}
	return 0;
}

/* In the forked child: become the container's process (see the top).
 * NULL when done, else what failed. */
static const char *enter(const struct lx_probe_target *t, int reply_fd)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
		return "stdio onto /dev/null";
	/* the fds it needs, then none else */
	int keep[3 + PROBE_CGROUPS_MAX] = {reply_fd, t->pidfd, -1};
	size_t n_keep = 3;
	for (size_t i = 0; i < t->cgroup_procs.n && n_keep < sizeof(keep) / sizeof(keep[0]); i++)
		if ((keep[n_keep++] = open(t->cgroup_procs.items[i], O_WRONLY | O_CLOEXEC)) < 0)
			return "open the init's cgroup.procs";
	int attr = -1;
	if (t->apparmor && (attr = open("/proc/self/attr/apparmor/current", O_WRONLY | O_CLOEXEC)) < 0)
		return "open /proc/self/attr/apparmor/current for the init's AppArmor label";
	keep[2] = attr;
	if (close_all_but(keep, n_keep) < 0)
		return "close every other fd";
	/* the cgroup.procs fds are 3.. in keep, sorted: write each */
	for (size_t i = 0; i < n_keep; i++) {
		if (keep[i] == reply_fd || keep[i] == t->pidfd || keep[i] == attr || keep[i] < 0)
			continue;
		if (write_all(keep[i], "0") < 0)
			return "join the init's cgroups";
		close(keep[i]);
	}
	int flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET |
		    CLONE_NEWCGROUP | (t->own_userns ? CLONE_NEWUSER : 0);
	if (setns(t->pidfd, flags) < 0)
		return "setns into the init's namespaces (Linux 5.8 or later)";
	close(t->pidfd);
	if (setgroups(0, NULL) < 0)
		return "setgroups: drop every supplementary group";
	if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
		return "become the container's root (setresgid, setresuid 0)";
	if (take_caps(t) < 0)
		return "take the init's capability sets";
	/* the label before no_new_privs (which limits AppArmor's transitions) */
	if (attr >= 0) {
		_cleanup_free_ char *cmd = lx_xasprintf("changeprofile %s", t->apparmor);
		if (write_all(attr, cmd) < 0)
			return "take the init's AppArmor label";
		close(attr);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || deny_escapes() < 0)
		return "no new privileges and the seccomp denials";
	return NULL;
}

/* The container init's environment as ours: "K=V\0K=V\0". */
static void take_environ(const struct lx_probe_target *t)
{
	clearenv();
	for (size_t i = 0; t->environ && i < t->environ_len;) {
		const char *kv = t->environ + i;
		size_t len = strnlen(kv, t->environ_len - i);
		const char *eq = memchr(kv, '=', len);
		if (eq && eq != kv) {
			_cleanup_free_ char *key = lx_xstrndup(kv, (size_t)(eq - kv));
			_cleanup_free_ char *value = lx_xstrndup(eq + 1, len - (size_t)(eq - kv) - 1);
			setenv(key, value, 1);
		}
		i += len + 1;
	}
}

void lx_probe_enter_and_run(const struct lx_probe_target *t, int reply_fd,
			    void (*run)(int reply_fd, void *ctx), void *ctx)
{
	/* the reply pipe above stdio, which becomes /dev/null */
	if (reply_fd < 3)
		reply_fd = fcntl(reply_fd, F_DUPFD_CLOEXEC, 3);
	const char *failed = reply_fd < 0 ? "move the reply pipe" : enter(t, reply_fd);
	if (failed) {
		char line[256];
		snprintf(line, sizeof(line), "enter %s: %s\n", failed, strerror(errno));
		write_all(reply_fd, line);
		_exit(0);
	}
	/* setns(CLONE_NEWPID) places children only: the library runs in a
	 * grandchild, a process of the container's pid namespace, killed
	 * with this child (the deadline kills this one) */
	int alive[2];
	if (pipe2(alive, O_CLOEXEC) < 0) {
		write_all(reply_fd, "enter pipe failed\n");
		_exit(0);
	}
	pid_t pid = fork();
	if (pid < 0) {
		write_all(reply_fd, "enter fork into the container's pid namespace failed\n");
		_exit(0);
	}
	if (pid == 0) {
		/* its parent is outside its pid namespace (getppid() is 0):
		 * whether it still lives, its end of the pipe says */
		close(alive[1]);
		struct pollfd gone = {.fd = alive[0], .events = POLLIN};
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || poll(&gone, 1, 0) != 0)
			_exit(1);
		close(alive[0]);
		take_environ(t);
		run(reply_fd, ctx);
		_exit(0);
	}
	close(reply_fd);
	close(alive[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}
