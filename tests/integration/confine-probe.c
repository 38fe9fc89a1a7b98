/* What a program run by lx_run_confined can do, asked from inside (a static
 * binary: the confinement has no loader for it). Exit 0 when the answer is
 * the one named by the mode, 1 otherwise (the test says which it wants):
 *   read PATH     PATH can be opened for reading
 *   write PATH    PATH can be created for writing
 *   socket        socket() fails with EPERM (seccomp)
 *   x32           an x32 call fails with EPERM (seccomp: not the x86-64 ABI)
 *   mount         mount() fails with EPERM
 *   noproc        /proc is no procfs (absent, or the root's own directory)
 *   env           the environment is empty
 *   rootfs PATH   PATH is on the root's own file system (nothing mounted there)
 *   chmod PATH    chmod of PATH fails with EPERM (a file of another owner)
 *   wait          writes one byte on stdout (it runs: exec is done), then spins
 *   spin          never ends (a busy loop: sleeping is not a call it may make) */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "read") == 0 && argc > 2)
		return open(argv[2], O_RDONLY) >= 0 ? 0 : 1;
	if (strcmp(mode, "write") == 0 && argc > 2)
		return open(argv[2], O_WRONLY | O_CREAT, 0644) >= 0 ? 0 : 1;
	if (strcmp(mode, "socket") == 0)
		return socket(AF_UNIX, SOCK_STREAM, 0) < 0 && errno == EPERM ? 0 : 1;
#if defined(__x86_64__)
	if (strcmp(mode, "x32") == 0)
		return syscall(0x40000000 | SYS_getpid) < 0 && errno == EPERM ? 0 : 1;
#endif
	if (strcmp(mode, "mount") == 0)
		return mount("none", "/", "tmpfs", 0, NULL) < 0 && errno == EPERM ? 0 : 1;
	if (strcmp(mode, "noproc") == 0) {
		struct statfs s;
		return statfs("/proc", &s) < 0 || s.f_type != PROC_SUPER_MAGIC ? 0 : 1;
	}
	/* An fd the caller left open without close-on-exec: closed here
	 * (EBADF, not EPERM from the filter). */
	if (strcmp(mode, "fd") == 0 && argc > 2)
		return fcntl(atoi(argv[2]), F_GETFD) < 0 && errno == EBADF ? 0 : 1;
	if (strcmp(mode, "rootfs") == 0 && argc > 2) {
		struct stat root, at;
		return stat("/", &root) == 0 && stat(argv[2], &at) == 0 && at.st_dev == root.st_dev
			       ? 0
			       : 1;
	}
	if (strcmp(mode, "chmod") == 0 && argc > 2)
		return chmod(argv[2], 0777) < 0 && errno == EPERM ? 0 : 1;
	if (strcmp(mode, "env") == 0)
		return environ == NULL || environ[0] == NULL ? 0 : 1;
	if (strcmp(mode, "wait") == 0 && write(1, "!", 1) != 1)
		return 1;
	if (strcmp(mode, "spin") == 0 || strcmp(mode, "wait") == 0)
		for (volatile unsigned long i = 0;; i++)
			;
	return 1;
}
