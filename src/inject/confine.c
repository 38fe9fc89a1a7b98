/* A host program run on a container's files where nothing of the host can
 * be reached: what the start hook does with the host's ldconfig.
 *
 * At lxc.hook.mount time the container's /proc is mounted in its root and
 * its PID 1 has not pivoted, so ROOT/proc/1/root is the host's "/"; a
 * program that follows the container's symlinks as host root (etc ->
 * /proc/1/root/etc) writes on the host. So the program runs in a child
 * that is given nothing but the container's tree (the anchor is
 * libnvidia-container's nvc_ldcache.c; this is at least as strict):
 *
 * - new mount, PID, IPC and UTS namespaces; every mount private;
 * - the root bound onto itself (with its submounts: the driver files the
 *   hook just mounted), pivot_root into it, the old root detached: no
 *   host path exists any more;
 * - every kernel file system below the root (proc, sysfs, devtmpfs binds
 *   of device nodes, cgroup, ...) detached, with whatever is stacked over
 *   one, until the mount table read after the pivot shows none; the whole
 *   tree nosuid, nodev, noexec;
 * - limits: CPU time, address space, file size, open files, no core; a
 *   wall-clock limit the parent enforces with SIGKILL;
 * - the capability bounding set emptied but CAP_DAC_OVERRIDE (some
 *   distributions' library dirs are 0555), no new privileges, a seccomp
 *   allowlist of the calls a static ldconfig makes (no sockets, no
 *   mount, no ptrace, no kill; x32 calls fail too, another ABI kills);
 * - stdin /dev/null, stdout onto stderr, no other fd but the program's
 *   own (close-on-exec), an empty environment.
 * A child that cannot set up any of this fails, and says why; the caller
 * fails the hook. */
#include "lxgpu/inject.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/close_range.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MOUNT_ATTR_NOEXEC
#define MOUNT_ATTR_NOEXEC 0x00000008
#endif

#if defined(__x86_64__)
#define LX_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define LX_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LX_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__riscv) && __riscv_xlen == 64
#define LX_AUDIT_ARCH AUDIT_ARCH_RISCV64
#else
#error "lxgpu's seccomp filter needs this architecture's AUDIT_ARCH"
#endif

/* The limits (libnvidia-container: 10 s CPU, 2 GiB, 64 files, 1 MiB). A
 * container's ld.so.cache is some hundred KiB; 16 MiB leaves room. */
#define CONFINED_CPU_S 10
#define CONFINED_AS (1ull << 30)
#define CONFINED_FSIZE (16ull << 20)
#define CONFINED_NOFILE 64

/* The kernel file systems that give a way out of the root or onto the
 * host's devices and settings. */
static bool is_kernel_fs(const char *type)
{
	static const char *const types[] = {
		"proc",      "sysfs",     "devtmpfs",   "devpts",   "cgroup",   "cgroup2",
		"debugfs",   "tracefs",   "securityfs", "bpf",      "configfs", "fusectl",
		"pstore",    "efivarfs",  "binfmt_misc", "hugetlbfs", "mqueue", "autofs",
		"rpc_pipefs", "nsfs",     "selinuxfs",  "fuse.lxcfs",
	};
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(type, types[i]) == 0)
			return true;
	return false;
}

/* mountinfo's octal escapes (\040 for a space) undone in place. */
static void unescape_mountinfo(char *s)
{
	char *out = s;
	for (const char *p = s; *p;) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			*out++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 4;
		} else {
			*out++ = *p++;
		}
	}
	*out = '\0';
}

/* What the child reports before it dies: written to the error pipe. */
static void __attribute__((noreturn, format(printf, 2, 3))) child_fail(int pipe_fd, const char *fmt,
								      ...)
{
	int e = errno;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(msg) - 64 && e)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, ": %s", strerror(e));
	if (n > 0)
		(void)!write(pipe_fd, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	_exit(125);
}

/* The calls a static glibc ldconfig makes, and what glibc's start-up and
 * fexecve need; every other call fails with EPERM. */
static const int allowed_calls[] = {
	SYS_read, SYS_write, SYS_writev, SYS_pread64, SYS_openat, SYS_close, SYS_fstat,
	SYS_newfstatat, SYS_statx, SYS_lseek, SYS_mmap, SYS_mprotect, SYS_munmap, SYS_mremap,
	SYS_brk, SYS_madvise, SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn,
	SYS_faccessat, SYS_getdents64, SYS_getcwd, SYS_chdir, SYS_fchdir, SYS_renameat,
	SYS_renameat2, SYS_mkdirat, SYS_unlinkat, SYS_symlinkat, SYS_readlinkat, SYS_fchmod,
	SYS_fchmodat, SYS_fsync, SYS_fdatasync, SYS_ftruncate, SYS_fcntl, SYS_getpid, SYS_gettid,
	SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_exit, SYS_exit_group, SYS_uname,
	SYS_set_tid_address, SYS_set_robust_list, SYS_prlimit64, SYS_getrandom, SYS_futex,
	SYS_clock_gettime, SYS_gettimeofday, SYS_execveat, SYS_sysinfo,
#ifdef SYS_faccessat2
	SYS_faccessat2,
#endif
#ifdef SYS_rseq
	SYS_rseq,
#endif
#ifdef SYS_arch_prctl
	SYS_arch_prctl,
#endif
#ifdef SYS_open
	SYS_open, SYS_stat, SYS_lstat, SYS_access, SYS_rename, SYS_mkdir, SYS_unlink, SYS_symlink,
	SYS_readlink, SYS_chmod, SYS_time,
#endif
};

static int install_seccomp(void)
{
	enum { N = sizeof(allowed_calls) / sizeof(allowed_calls[0]) };
	struct sock_filter prog[N + 8];
	size_t n = 0;
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, arch));
	prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LX_AUDIT_ARCH, 1, 0);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
	/* x32 calls share the numbers with a bit set: never allowed. The jump
	 * lands past the N comparisons, on the EPERM return. */
	prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, N, 0);
#endif
	for (size_t i = 0; i < N; i++)
		prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							 (unsigned)allowed_calls[i], (__u8)(N - i), 0);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog fprog = {.len = (unsigned short)n, .filter = prog};
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0);
}

/* One line of mountinfo: the mount's id, where it is, its type. */
struct mount_entry {
	unsigned long id;
	const char *point, *type;
};

/* The mount table this process sees, parsed in text (changed in place). */
static size_t parse_mountinfo(char *text, struct mount_entry **out)
{
	size_t n = 0;
	*out = NULL;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* id parent major:minor root mount-point options [optional...] - type source */
		char *fields[5] = {0}, *fsave = NULL, *f = strtok_r(line, " ", &fsave);
		for (int i = 0; f && i < 5; i++, f = strtok_r(NULL, " ", &fsave))
			fields[i] = f;
		while (f && strcmp(f, "-") != 0)
			f = strtok_r(NULL, " ", &fsave);
		char *type = f ? strtok_r(NULL, " ", &fsave) : NULL;
		unsigned long long id;
		if (!fields[4] || !type || !lx_parse_uint(fields[0], 10, ~0UL, &id))
			continue;
		unescape_mountinfo(fields[4]);
		unescape_mountinfo(type);
		*out = lx_xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = (struct mount_entry){.id = (unsigned long)id, .point = fields[4],
						   .type = type};
	}
	return n;
}

/* The id of the mount path resolves to (the topmost at a mount point);
 * where path is not there (a mount over a directory above it hides it),
 * that of its nearest ancestor that is. */
static unsigned long mount_reached(const char *path)
{
	_cleanup_free_ char *p = lx_xstrdup(path);
	for (;;) {
		struct statx stx;
		if (statx(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) == 0 &&
		    (stx.stx_mask & STATX_MNT_ID))
			return (unsigned long)stx.stx_mnt_id;
		char *slash = strrchr(p, '/');
		if (!slash || slash == p) {
			if (strcmp(p, "/") == 0)
				return 0;
			strcpy(p, "/");
		} else {
			*slash = '\0';
		}
	}
}

/* In the child, after pivot_root: detach mounts until the mount table,
 * read afresh each round (proc_self: the host's /proc/self, opened before
 * the pivot; opened after it, mountinfo shows paths from the new root),
 * has no kernel file system left, for every type is_kernel_fs names. A
 * kernel file system can be under a mount stacked on its mount point
 * (tracefs under a tmpfs) or over a directory above it: the mount its
 * path reaches is detached first, then it. A round that detached a
 * kernel file system reads the table again before covering mounts are
 * judged: one from an old table may be gone already. */
static void detach_kernel_mounts(int proc_self, int pipe_fd)
{
	for (;;) {
		_cleanup_free_ char *text = NULL;
		struct lx_error err = {0};
		if (lx_read_file_at(proc_self, "mountinfo", 64u << 20, &text, NULL, &err) < 0) {
			errno = 0;
			child_fail(pipe_fd, "cannot read the mount table: %s", err.message);
		}
		_cleanup_free_ struct mount_entry *m = NULL;
		size_t n = parse_mountinfo(text, &m);
		const struct mount_entry *covered = NULL;
		unsigned long cover_id = 0;
		size_t detached = 0;
		for (size_t i = n; i-- > 0;) { /* latest first: submounts before theirs */
			if (!is_kernel_fs(m[i].type))
				continue;
			if (strcmp(m[i].point, "/") == 0) {
				errno = 0;
				child_fail(pipe_fd, "the container's root is a %s file system",
					   m[i].type);
			}
			unsigned long reached = mount_reached(m[i].point);
			if (reached != m[i].id) {
				if (!covered)
					covered = &m[i], cover_id = reached;
				continue;
			}
			if (umount2(m[i].point, MNT_DETACH | UMOUNT_NOFOLLOW) < 0)
				child_fail(pipe_fd, "cannot detach %s (%s) in the container's root",
					   m[i].point, m[i].type);
			detached++;
		}
		if (detached > 0)
			continue;
		if (!covered)
			return; /* none left: checked against a table read just now */
		const struct mount_entry *cover = NULL;
		for (size_t i = 0; i < n && cover_id; i++)
			if (m[i].id == cover_id && strcmp(m[i].point, "/") != 0)
				cover = &m[i];
		errno = 0;
		if (!cover)
			child_fail(pipe_fd, "%s (%s) in the container's root cannot be reached to "
				   "detach it", covered->point, covered->type);
		if (umount2(cover->point, MNT_DETACH | UMOUNT_NOFOLLOW) < 0)
			child_fail(pipe_fd, "cannot detach %s (%s), which covers %s (%s) in the "
				   "container's root", cover->point, cover->type, covered->point,
				   covered->type);
	}
}

/* In the child: from the container's mount namespace (the hook's) to a
 * tree of the container's files alone. */
static void enter_root(const char *root, int pipe_fd)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		child_fail(pipe_fd, "cannot make the mounts private");
	/* The host's procfs, where this process's mount table is read once
	 * no host path is left. */
	int proc_self = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct statfs sfs;
	if (proc_self < 0 || fstatfs(proc_self, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC)
		child_fail(pipe_fd, "cannot find the host's /proc/self");
	if (mount(root, root, NULL, MS_BIND | MS_REC, NULL) < 0)
		child_fail(pipe_fd, "cannot bind %s onto itself", root);
	if (chdir(root) < 0)
		child_fail(pipe_fd, "cannot enter %s", root);
	if (syscall(SYS_pivot_root, ".", ".") < 0)
		child_fail(pipe_fd, "cannot pivot_root into %s", root);
	/* The old root is stacked on "."; detaching it leaves the container's. */
	if (umount2(".", MNT_DETACH) < 0)
		child_fail(pipe_fd, "cannot detach the host's root");
	if (chdir("/") < 0)
		child_fail(pipe_fd, "cannot enter the new root");
	detach_kernel_mounts(proc_self, pipe_fd);
	close(proc_self);
	struct mount_attr attr = {
		.attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
	};
	if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &attr, sizeof(attr)) < 0)
		child_fail(pipe_fd, "cannot make the container's root nosuid, nodev, noexec");
}

static void drop_privileges(int pipe_fd)
{
	static const struct {
		int resource;
		rlim_t limit;
	} limits[] = {
		{RLIMIT_CPU, CONFINED_CPU_S}, {RLIMIT_AS, CONFINED_AS},
		{RLIMIT_FSIZE, CONFINED_FSIZE}, {RLIMIT_NOFILE, CONFINED_NOFILE},
		{RLIMIT_CORE, 0},
	};
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		struct rlimit rl = {limits[i].limit, limits[i].limit};
		if (setrlimit(limits[i].resource, &rl) < 0)
			child_fail(pipe_fd, "cannot set a resource limit");
	}
	for (int cap = 0; cap < 64; cap++) {
		if (cap == CAP_DAC_OVERRIDE)
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
			if (errno == EINVAL)
				break; /* past the kernel's last capability */
			child_fail(pipe_fd, "cannot drop capability %d", cap);
		}
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		child_fail(pipe_fd, "cannot clear the ambient capabilities");
	/* The inheritable set survives exec: a caller's inheritable
	 * capabilities would reach the program beside the one it keeps. */
	struct __user_cap_header_struct cap_header = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct cap_data[_LINUX_CAPABILITY_U32S_3];
	if (syscall(SYS_capget, &cap_header, cap_data) < 0)
		child_fail(pipe_fd, "cannot read the capabilities");
	for (size_t i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		cap_data[i].inheritable = 0;
	if (syscall(SYS_capset, &cap_header, cap_data) < 0)
		child_fail(pipe_fd, "cannot clear the inheritable capabilities");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(pipe_fd, "cannot set no_new_privs");
	if (install_seccomp() < 0)
		child_fail(pipe_fd, "cannot install the seccomp filter");
}

static int child_status_error(int status, const char *what, const char *report,
			      struct lx_error *err)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		return lx_error_set(err, "%s was killed by signal %d%s", what, sig,
				    sig == SIGXCPU || sig == SIGKILL ? " (past its CPU or time limit)"
				    : sig == SIGXFSZ ? " (past its file size limit)"
				    : sig == SIGSYS ? " (a call the filter forbids)" : "");
	}
	if (WEXITSTATUS(status) == 125 && report[0])
		return lx_error_set(err, "%s could not be confined to the container's root: %s",
				    what, report);
	if (WEXITSTATUS(status) != 0)
		return lx_error_set(err, "%s failed (exit status %d)", what, WEXITSTATUS(status));
	return 0;
}

int lx_run_confined(const struct lx_confined *c, struct lx_error *err)
{
	_cleanup_free_ char *root = NULL;
	{
		_cleanup_free_ char *link = lx_xasprintf("/proc/self/fd/%d", c->root_fd);
		char buf[4096];
		ssize_t n = readlink(link, buf, sizeof(buf) - 1);
		if (n <= 0 || buf[0] != '/')
			return lx_error_set_errno(err, errno, "cannot name the container's root");
		buf[n] = '\0';
		root = lx_xstrdup(buf);
	}
	if (strcmp(root, "/") == 0)
		return lx_error_set(err, "the container's root is the host's /: refusing to run %s "
				    "there", c->what);
	int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int pipe_fds[2];
	if (null_fd < 0 || pipe2(pipe_fds, O_CLOEXEC) < 0) {
		int e = errno;
		if (null_fd >= 0)
			close(null_fd);
		return lx_error_set_errno(err, e, "cannot set up %s", c->what);
	}
	fflush(NULL);
	pid_t pid = (pid_t)syscall(SYS_clone, SIGCHLD | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
						      CLONE_NEWUTS,
				   NULL, NULL, NULL, NULL);
	if (pid == 0) {
		close(pipe_fds[0]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
			child_fail(pipe_fds[1], "cannot tie %s to the hook", c->what);
		if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			child_fail(pipe_fds[1], "cannot set up stdin and stdout");
		enter_root(root, pipe_fds[1]);
		/* Descriptors the caller left without close-on-exec must not reach
		 * the program: every one above stderr closes at exec (the program's
		 * own fd and the error pipe are close-on-exec already). */
		if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
			child_fail(pipe_fds[1], "cannot mark the inherited descriptors close-on-exec");
		drop_privileges(pipe_fds[1]);
		char *const envp[] = {NULL};
		syscall(SYS_execveat, c->program_fd, "", (char *const *)c->argv, envp, AT_EMPTY_PATH);
		child_fail(pipe_fds[1], "cannot run %s", c->what);
	}
	int e = errno;
	close(null_fd);
	close(pipe_fds[1]);
	if (pid < 0) {
		close(pipe_fds[0]);
		return lx_error_set_errno(err, e, "cannot start %s in new namespaces", c->what);
	}
	/* The wall clock: a FIFO as ld.so.conf blocks without using CPU. (The
	 * child needs mount_setattr, Linux 5.12, so pidfd_open, 5.3, is there.) */
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		int pe = errno;
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(pipe_fds[0]);
		return lx_error_set_errno(err, pe, "cannot watch %s (pidfd_open)", c->what);
	}
	struct pollfd p = {.fd = pidfd, .events = POLLIN};
	int r;
	while ((r = poll(&p, 1, (int)c->timeout_ms)) < 0 && errno == EINTR)
		;
	bool timed_out = r == 0;
	close(pidfd);
	if (timed_out)
		kill(pid, SIGKILL);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			close(pipe_fds[0]);
			return lx_error_set_errno(err, errno, "waiting for %s", c->what);
		}
	char report[512] = "";
	ssize_t n = read(pipe_fds[0], report, sizeof(report) - 1);
	close(pipe_fds[0]);
	if (n > 0)
		report[n] = '\0';
	if (timed_out)
		return lx_error_set(err, "%s did not finish within %u s and was killed", c->what,
				    c->timeout_ms / 1000);
	return child_status_error(status, c->what, report, err);
}
