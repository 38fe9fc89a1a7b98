/* Running a host tool and reading what it prints: no shell, a fixed
 * environment (LC_ALL=C: the tools' output is parsed), stdin and stderr on
 * /dev/null, killed when it takes too long or prints too much. */
#include "lxgpu/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long ms_since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* Run binary; what it writes to out_fd (1 or 2; the other goes to
 * /dev/null) is kept, at most max_out bytes. Its exit status, or -1 when it
 * could not run, was killed (timeout, too much output) or died of a signal. */
static int run_tool(const char *binary, char *const argv[], int out_fd, size_t max_out,
		    int timeout_ms, struct lx_buf *out)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (posix_spawnattr_init(&attr) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	char *envp[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};
	pid_t child;
	int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (rc == 0)
		rc = posix_spawn_file_actions_adddup2(&fa, pipefd[1], out_fd);
	if (rc == 0)
		rc = posix_spawn_file_actions_addopen(&fa, 3 - out_fd, "/dev/null", O_WRONLY, 0);
	/* Its own process group, so that the timeout kills whatever it started
	 * too, not only the tool. */
	/* Out of the terminal's reach too: an interrupt of lxgpu kills the
	 * group (lx_interrupt_track_group), tracked from its spawn on, and the
	 * tool starts with no signal blocked. */
	sigset_t none;
	sigemptyset(&none);
	if (rc == 0)
		rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	if (rc == 0)
		rc = posix_spawnattr_setpgroup(&attr, 0);
	if (rc == 0)
		rc = posix_spawnattr_setsigmask(&attr, &none);
	lx_interrupt_hold();
	if (rc == 0)
		rc = posix_spawn(&child, binary, &fa, &attr, argv, envp);
	if (rc == 0)
		lx_interrupt_track_group(child);
	lx_interrupt_release();
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		return -1;
	}
	bool killed = false;
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		long waited_ms = ms_since(&start);
		struct pollfd pfd = {.fd = pipefd[0], .events = POLLIN};
		int n = waited_ms < timeout_ms ? poll(&pfd, 1, (int)(timeout_ms - waited_ms)) : 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* A tool that does not answer: do not wait on it. */
			kill(-child, SIGKILL);
			killed = true;
			break;
		}
		char chunk[4096];
		ssize_t got = read(pipefd[0], chunk, sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (out->len + (size_t)got > max_out) {
			kill(-child, SIGKILL);
			killed = true;
			break;
		}
		lx_buf_append(out, chunk, (size_t)got);
	}
	close(pipefd[0]);
	/* The deadline holds after EOF too: a tool that closed its stdout and
	 * goes on running is killed when the time is up. */
	int status = 0;
	for (;;) {
		pid_t r = waitpid(child, &status, killed ? 0 : WNOHANG);
		if (r == child)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			status = -1;
			break;
		}
		if (ms_since(&start) >= timeout_ms) {
			kill(-child, SIGKILL);
			killed = true;
		} else {
			struct timespec nap = {0, 10 * 1000 * 1000};
			nanosleep(&nap, NULL);
		}
	}
	lx_interrupt_untrack_group(child); /* reaped: its id may be reused */
	return killed || status < 0 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status);
}

char *lx_run_capture(const char *binary, char *const argv[], size_t max_out, int timeout_ms)
{
	struct lx_buf out = {0};
	if (run_tool(binary, argv, 1, max_out, timeout_ms, &out) != 0) {
		lx_buf_free(&out);
		return NULL;
	}
	return lx_buf_steal(&out);
}

int lx_run_errors(const char *binary, char *const argv[], size_t max_err, int timeout_ms,
		  char **errors)
{
	struct lx_buf err = {0};
	int status = run_tool(binary, argv, 2, max_err, timeout_ms, &err);
	*errors = lx_buf_steal(&err);
	if (!*errors)
		*errors = lx_xstrdup("");
	return status;
}

char *lx_find_in_path(const char *path_list, const char *name)
{
	const char *p = path_list && *path_list ? path_list : "/usr/sbin:/usr/bin:/sbin:/bin";
	while (*p) {
		size_t len = strcspn(p, ":");
		/* An empty entry or a relative one is the working directory: never that. */
		if (len && p[0] == '/') {
			char *candidate = lx_xasprintf("%.*s/%s", (int)len, p, name);
			struct stat st;
			if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode) && access(candidate, X_OK) == 0)
				return candidate;
			free(candidate);
		}
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}
