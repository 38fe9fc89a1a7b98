/* SIGINT, SIGTERM and SIGHUP: the command ends at once, with exit status 2,
 * and leaves nothing half-made. The writers tell this module what they have
 * in flight (temporary files, child process groups) and what they changed;
 * the handler removes the first, kills the second, says the third, and
 * _exits. Every list here changes only while the signals are blocked
 * (lx_interrupt_hold), so the handler never sees one mid-change, and a
 * change made of several files (a backup with its config) is made whole
 * within one hold: a signal that came meanwhile is taken at its end. */
#include "lxgpu/util.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

static const int handled[] = {SIGINT, SIGTERM, SIGHUP};

struct change {
	const char *verb; /* static: "written", "removed", ... */
	char *path;
};

struct temp {
	char *tmp, *final; /* a temporary file and the path it stands for */
	bool removed;      /* by the handler */
};

static struct {
	pid_t pid; /* a forked child inherits the handler: it only exits */
	sigset_t saved;
	int depth;
	struct temp *temps;
	size_t n_temps;
	struct change *changes;
	size_t n_changes;
	pid_t *groups;
	size_t n_groups;
} st;

static void handled_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(handled) / sizeof(handled[0]); i++)
		sigaddset(set, handled[i]);
}

/* ---- the handler: async-signal-safe calls only ---- */

/* The strings up to NULL, to stderr, with write(2) only. */
__attribute__((sentinel)) static void say(const char *s, ...)
{
	va_list ap;
	va_start(ap, s);
	for (; s; s = va_arg(ap, const char *)) {
		size_t n = 0;
		while (s[n])
			n++;
		while (n > 0) {
			ssize_t w = write(STDERR_FILENO, s, n);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			s += w;
			n -= (size_t)w;
		}
	}
	va_end(ap);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	}
	return "a signal";
}

static void on_signal(int sig)
{
	if (getpid() != st.pid)
		_exit(LX_EXIT_ERROR);
	for (size_t i = 0; i < st.n_groups; i++)
		kill(-st.groups[i], SIGKILL);
	/* Before any message: stderr may be a pipe that blocks. */
	for (size_t i = 0; i < st.n_temps; i++)
		st.temps[i].removed = unlink(st.temps[i].tmp) == 0 || errno == ENOENT;
	say("lxgpu: interrupted by ", signal_name(sig), NULL);
	if (st.n_changes == 0 && st.n_temps == 0) {
		say(": nothing was written\n", NULL);
		_exit(LX_EXIT_ERROR);
	}
	say(" before it was done\n", NULL);
	for (size_t i = 0; i < st.n_changes; i++)
		say("lxgpu: ", st.changes[i].verb, ": ", st.changes[i].path, "\n", NULL);
	for (size_t i = 0; i < st.n_temps; i++)
		say("lxgpu: not written: ", st.temps[i].final, " (its unfinished temporary file ",
		    st.temps[i].tmp, st.temps[i].removed ? " was removed)\n" : " could not be removed)\n",
		    NULL);
	say(st.n_changes ? "lxgpu: nothing else was changed\n" : "lxgpu: nothing was written\n", NULL);
	_exit(LX_EXIT_ERROR);
}

/* ---- the writers' side ---- */

void lx_interrupt_install(void)
{
	/* A fresh record: what a parent process tracked is not this one's. */
	lx_interrupt_hold();
	for (size_t i = 0; i < st.n_temps; i++) {
		free(st.temps[i].tmp);
		free(st.temps[i].final);
	}
	for (size_t i = 0; i < st.n_changes; i++)
		free(st.changes[i].path);
	free(st.temps);
	free(st.changes);
	free(st.groups);
	st.temps = NULL, st.changes = NULL, st.groups = NULL;
	st.n_temps = st.n_changes = st.n_groups = 0;
	lx_interrupt_release();
	st.pid = getpid();
	struct sigaction sa = {.sa_handler = on_signal};
	handled_set(&sa.sa_mask); /* one handler at a time */
	for (size_t i = 0; i < sizeof(handled) / sizeof(handled[0]); i++) {
		struct sigaction old;
		/* A signal the caller ignores (nohup) stays ignored. */
		if (sigaction(handled[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(handled[i], &sa, NULL);
	}
}

void lx_interrupt_hold(void)
{
	if (st.depth++ == 0) {
		sigset_t set;
		handled_set(&set);
		sigprocmask(SIG_BLOCK, &set, &st.saved);
	}
}

void lx_interrupt_release(void)
{
	if (st.depth > 0 && --st.depth == 0)
		sigprocmask(SIG_SETMASK, &st.saved, NULL); /* a pending signal is taken here */
}

void lx_interrupt_track_temp(const char *tmp, const char *final)
{
	lx_interrupt_hold();
	st.temps = lx_xgrow(st.temps, st.n_temps, sizeof(*st.temps));
	st.temps[st.n_temps++] = (struct temp){lx_xstrdup(tmp), lx_xstrdup(final), false};
	lx_interrupt_release();
}

void lx_interrupt_untrack_temp(const char *tmp)
{
	lx_interrupt_hold();
	for (size_t i = 0; i < st.n_temps; i++)
		if (strcmp(st.temps[i].tmp, tmp) == 0) {
			free(st.temps[i].tmp);
			free(st.temps[i].final);
			st.temps[i] = st.temps[--st.n_temps];
			break;
		}
	lx_interrupt_release();
}

void lx_interrupt_changed(const char *verb, const char *path)
{
	lx_interrupt_hold();
	st.changes = lx_xgrow(st.changes, st.n_changes, sizeof(*st.changes));
	st.changes[st.n_changes++] = (struct change){verb, lx_xstrdup(path)};
	lx_interrupt_release();
}

void lx_interrupt_track_group(pid_t group)
{
	lx_interrupt_hold();
	st.groups = lx_xgrow(st.groups, st.n_groups, sizeof(*st.groups));
	st.groups[st.n_groups++] = group;
	lx_interrupt_release();
}

void lx_interrupt_untrack_group(pid_t group)
{
	lx_interrupt_hold();
	for (size_t i = 0; i < st.n_groups; i++)
		if (st.groups[i] == group) {
			st.groups[i] = st.groups[--st.n_groups];
			break;
		}
	lx_interrupt_release();
}
