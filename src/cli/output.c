/* Where a command's output goes, and that all of it got there: every
 * command's standard output is flushed and closed here, and -o FILE is a
 * temporary file renamed over FILE only when everything was written. Also
 * the one place that decides what -q and -v print on stderr, and colour. */
#include "cli.h"
#include "build-config.h"
#include "lxgpu/findings.h"
#include "lxgpu/report.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static struct lx_atomic_file output = {.fd = -1};
static char *output_name; /* the -o FILE as given, for messages */

char *cli_command_words(const struct cli *cli, const char *verb)
{
	static const struct {
		const char *option, *fallback;
		size_t offset;
		bool change; /* apply and rollback's only */
	} paths[] = {
		{"--host", "", offsetof(struct cli, host_file), false},
		{"--pve-dir", "/etc/pve", offsetof(struct cli, pve_dir), false},
		{"--lxc-path", "/var/lib/lxc", offsetof(struct cli, lxc_path), false},
		{"--lxc-config-dir", "", offsetof(struct cli, lxc_config_dir), false},
		{"--state-dir", LXGPU_STATE_DIR, offsetof(struct cli, state_dir), false},
		{"--cgroup-root", "/sys/fs/cgroup", offsetof(struct cli, cgroup_root), false},
		{"--proc-dir", "/proc", offsetof(struct cli, scan_paths.proc), false},
		{"--dev-dir", "/dev", offsetof(struct cli, scan_paths.dev), false},
		{"--sys-dir", "/sys", offsetof(struct cli, scan_paths.sys), false},
		{"--firmware-dir", "/lib/firmware/nvidia", offsetof(struct cli, scan_paths.firmware), false},
		{"--run-dir", "/run", offsetof(struct cli, scan_paths.run), false},
		{"--boot-dir", "/boot", offsetof(struct cli, scan_paths.boot), false},
		{"--backup-dir", "/var/lib/lxgpu/backups", offsetof(struct cli, backup_dir), true},
		{"--lock-dir", "/run/lock/lxc", offsetof(struct cli, lock_dir), true},
	};
	bool change = strcmp(verb, "apply") == 0 || strcmp(verb, "rollback") == 0;
	/* ensure-nodes acts on the live host and refuses --host: with a
	 * snapshot, it is to be run on the host the snapshot is of */
	bool live_only = strcmp(verb, "ensure-nodes") == 0;
	struct lx_buf b = {0};
	lx_buf_puts(&b, "lxgpu");
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const char *value = *(const char *const *)((const char *)cli + paths[i].offset);
		if (live_only && paths[i].offset == offsetof(struct cli, host_file))
			continue;
		if (value && strcmp(value, paths[i].fallback) != 0 && (change || !paths[i].change)) {
			lx_buf_puts(&b, " ");
			lx_buf_puts(&b, paths[i].option);
			lx_buf_puts(&b, " ");
			lx_buf_shell_word(&b, value);
		}
	}
	return lx_buf_steal(&b);
}

/* "lxc-stop -n ID" -> "lxc-stop -P PATH -n ID" when this run's --lxc-path
 * is not LXC's default: a plain LXC container lives there, and LXC's tools
 * look in the default path unless told. */
static bool with_lxc_path(const struct cli *cli, struct lx_buf *b, const char *command)
{
	static const char *const tools[] = {"lxc-stop", "lxc-start", "lxc-attach", "lxc-info"};
	if (!cli->lxc_path || strcmp(cli->lxc_path, "/var/lib/lxc") == 0)
		return false;
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		size_t n = strlen(tools[i]);
		if (strncmp(command, tools[i], n) == 0 && strncmp(command + n, " -n ", 4) == 0) {
			lx_buf_printf(b, "%s -P ", tools[i]);
			lx_buf_shell_word(b, cli->lxc_path);
			lx_buf_puts(b, command + n);
			return true;
		}
	}
	return false;
}

/* One command: `lxgpu VERB ...` with this run's words, an LXC tool with its
 * -P; any other as it is. */
static void command_with_context(const struct cli *cli, struct lx_buf *b, const char *command)
{
	if (strncmp(command, "lxgpu ", 6) == 0) {
		const char *verb = command + 6;
		size_t n = strspn(verb, "abcdefghijklmnopqrstuvwxyz-");
		if (n && verb[0] != '-' && (!verb[n] || verb[n] == ' ')) {
			_cleanup_free_ char *name = lx_xstrndup(verb, n);
			_cleanup_free_ char *words = cli_command_words(cli, name);
			lx_buf_printf(b, "%s %s", words, verb);
			return;
		}
	}
	if (!with_lxc_path(cli, b, command))
		lx_buf_puts(b, command);
}

char *cli_with_context(const struct cli *cli, const char *text)
{
	/* only the commands, in backticks (lxgpu/findings.h): prose that names
	 * lxgpu ("apply keeps the lines") gets no options */
	struct lx_buf b = {0};
	lx_buf_puts(&b, "");
	for (const char *p = text;;) {
		const char *open = strchr(p, '`');
		if (!open) {
			lx_buf_puts(&b, p);
			break;
		}
		size_t n = strcspn(open + 1, "`");
		lx_buf_append(&b, p, (size_t)(open + 1 - p));
		_cleanup_free_ char *command = lx_xstrndup(open + 1, n);
		command_with_context(cli, &b, command);
		if (!open[1 + n])
			break;
		lx_buf_puts(&b, "`");
		p = open + 2 + n;
	}
	return lx_buf_steal(&b);
}

char *cli_command_with_context(const struct cli *cli, const char *command)
{
	struct lx_buf b = {0};
	lx_buf_puts(&b, "");
	command_with_context(cli, &b, command);
	return lx_buf_steal(&b);
}

/* Fixes to run on another node of the cluster ("run 'lxgpu publish' on
 * NODE", "after the move, ... on NODE"): this run's --host and paths are
 * not that node's. */
static bool fix_runs_elsewhere(enum lx_finding_code code)
{
	switch (code) {
	case LXG021_NO_HOST_MODEL:
	case LXG180_MODEL_STALE:
	case LXG181_MODEL_UNDATED:
	case LXG182_MIGRATE_GPU_ABSENT:
	case LXG183_MIGRATE_GPU_NOT_NVIDIA:
	case LXG184_MIGRATE_OTHER_GPU: return true;
	default: return false;
	}
}

void cli_fixes_with_context(const struct cli *cli, struct lx_findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		if (!f->items[i].fix || fix_runs_elsewhere(f->items[i].code))
			continue;
		char *with = cli_with_context(cli, f->items[i].fix);
		free(f->items[i].fix);
		f->items[i].fix = with;
	}
}

bool cli_color_wanted(int fd)
{
	/* no-color.org: only a non-empty NO_COLOR turns colour off; a dumb
	 * terminal gets none either. */
	const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
	if (no_color && *no_color)
		return false;
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(fd) == 1;
}

size_t cli_terminal_width(int fd)
{
	if (isatty(fd) != 1)
		return 0;
	struct winsize ws;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

void cli_print_wrapped(const struct cli *cli, const char *text, size_t indent)
{
	if (!cli->wrap_width) {
		fputs(text, stdout);
		return;
	}
	_cleanup_free_ char *wrapped = lx_text_wrap(text, cli->wrap_width, indent);
	fputs(wrapped, stdout);
}

void cli_printf_wrapped(const struct cli *cli, size_t indent, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *text = lx_xvasprintf(fmt, ap);
	va_end(ap);
	cli_print_wrapped(cli, text, indent);
}

int cli_output_begin(struct cli *cli, const struct cli_command *cmd)
{
	if (!(cmd->options & CLI_OPT_OUTPUT) || cmd->own_output || !cli->output ||
	    strcmp(cli->output, "-") == 0)
		return 0;
	struct lx_error err = {0};
	const char *path = cli->output;
	char resolved[PATH_MAX];
	struct stat st;
	mode_t mode = 0644;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* Replace what the link points at, not the link. */
		if (!realpath(path, resolved))
			return cli_fail(&(struct lx_error){lx_xasprintf("%s: %s", path, strerror(errno))});
		path = resolved;
	}
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			/* A device or FIFO (/dev/null, a pipe) is written in place. */
			int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
			if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
				return cli_fail(&(struct lx_error){lx_xasprintf("%s: cannot open: %s", path,
										strerror(errno))});
			close(fd);
			output_name = lx_xstrdup(cli->output);
			cli->color = false;
			return 0;
		}
		mode = st.st_mode & 07777;
	}
	if (lx_atomic_open(path, mode, &output, &err) < 0)
		return cli_fail(&err);
	if (dup2(output.fd, STDOUT_FILENO) < 0) {
		lx_atomic_abort(&output);
		return cli_fail(&(struct lx_error){lx_xasprintf("%s: %s", path, strerror(errno))});
	}
	close(output.fd);
	output.fd = STDOUT_FILENO; /* commit fsyncs and closes it */
	output_name = lx_xstrdup(cli->output);
	cli->color = false;
	return 0;
}

int cli_output_end(const struct cli *cli, int rc)
{
	int e = 0;
	if (fflush(stdout) != 0)
		e = errno ? errno : EIO;
	else if (ferror(stdout))
		e = EIO; /* an earlier flush failed; its errno is gone */
	if (output.tmp) {
		_cleanup_free_ char *name = output_name;
		output_name = NULL;
		if (e || rc == LX_EXIT_ERROR) {
			lx_atomic_abort(&output);
			if (e)
				fprintf(stderr, "lxgpu: %s: cannot write it: %s; the file is unchanged\n",
					name, strerror(e));
			else
				fprintf(stderr, "lxgpu: %s: not written (the command failed)\n", name);
			return LX_EXIT_ERROR;
		}
		struct lx_error err = {0};
		if (lx_atomic_commit(&output, &err) < 0) {
			cli_fail(&err);
			return LX_EXIT_ERROR;
		}
		cli_verbose(cli, "wrote %s", name);
		return rc;
	}
	/* A close can report what the writes did not (NFS, a full pipe
	 * buffer at exit); stdout closed by the caller (>&-) with nothing to
	 * write is fine. */
	if (!e && fclose(stdout) != 0 && errno != EBADF)
		e = errno;
	_cleanup_free_ char *name = output_name;
	output_name = NULL;
	if (e) {
		fprintf(stderr, "lxgpu: cannot write the output (%s): %s\n",
			name ? name : "standard output", e == EIO ? "a write failed" : strerror(e));
		return LX_EXIT_ERROR;
	}
	return rc;
}

/* The one form of an error message: "lxgpu: ..." on stderr, exit status 2. */
/* "lxgpu: TEXT" on stderr; on a terminal, as wide as it is. */
static void say_line(const char *text)
{
	_cleanup_free_ char *line = lx_xasprintf("lxgpu: %s\n", text);
	_cleanup_free_ char *wrapped = lx_text_wrap(line, cli_terminal_width(STDERR_FILENO), 4);
	fputs(wrapped, stderr);
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *text = lx_xvasprintf(fmt, ap);
	va_end(ap);
	say_line(text);
	return LX_EXIT_ERROR;
}

int cli_fail(struct lx_error *err)
{
	/* Messages quote config and snapshot bytes: escaped for the terminal. */
	const char *message = err->message ? err->message : "unknown error";
	_cleanup_free_ char *text = lx_text_escape_lines(message, strlen(message));
	say_line(text);
	lx_error_clear(err);
	return LX_EXIT_ERROR;
}

static void say(const char *kind, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void say(const char *kind, const char *fmt, va_list ap)
{
	_cleanup_free_ char *raw = lx_xvasprintf(fmt, ap);
	/* Messages quote config bytes: escaped for the terminal. */
	_cleanup_free_ char *text = lx_text_escape_lines(raw, strlen(raw));
	_cleanup_free_ char *line = lx_xasprintf("%s%s", kind, text);
	say_line(line);
}

/* The one rule of -q and -v: a message of level `least` shows when the
 * verbosity (-1 with -q, 0, 1 with -v) is at least that. */
#define SAY_AT(least, kind)                   \
	do {                                  \
		if (cli->verbosity < (least)) \
			return;               \
		va_list ap;                   \
		va_start(ap, fmt);            \
		say(kind, fmt, ap);           \
		va_end(ap);                   \
	} while (0)

void cli_warn(const struct cli *cli, const char *fmt, ...)
{
	SAY_AT(0, "warning: ");
}

void cli_note(const struct cli *cli, const char *fmt, ...)
{
	SAY_AT(0, "info: "); /* the severity word of findings */
}

void cli_verbose(const struct cli *cli, const char *fmt, ...)
{
	SAY_AT(1, "");
}

int cli_print_doc(const struct cli *cli, struct lx_doc *doc, int schema)
{
	/* "schema" first, then the command's fields (scan's host model has its own). */
	struct lx_doc *top = doc;
	if (!lx_doc_map_get(doc, "schema")) {
		top = lx_doc_new_map();
		lx_doc_map_set(top, "schema", lx_doc_new_int(schema));
		for (size_t i = 0; i < doc->n; i++) {
			lx_doc_map_set(top, doc->keys[i], doc->items[i]);
			free(doc->keys[i]);
		}
		free(doc->keys);
		free(doc->items);
		free(doc->key_lines);
		free(doc);
	}
	char *text = cli->format == CLI_FORMAT_YAML ? lx_doc_to_yaml(top)
						     : lx_doc_to_json_layout(top, cli->compact);
	fputs(text, stdout);
	free(text);
	lx_doc_free(top);
	return LX_EXIT_OK;
}
