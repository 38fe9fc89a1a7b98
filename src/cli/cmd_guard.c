/* lxgpu guard CTID PHASE: the Proxmox hookscript's checks (docs/guard.md).
 *
 * pve-container runs the hookscript as `SCRIPT VMID PHASE`; a non-zero exit
 * at pre-start aborts the start (PVE::GuestHelpers::exec_hookscript with
 * stop_on_error), at other phases it is only a warning in the task log. */
#include "cli.h"
#include "lxgpu/guard.h"
#include "lxgpu/report.h"

#include <string.h>
#include <syslog.h>
#include <unistd.h>

static const char *const phases[] = {"pre-start", "post-start", "pre-stop", "post-stop"};

static const char *journal_socket(const struct cli *cli, char **owned)
{
	*owned = lx_path_join(cli->scan_paths.dev, "log");
	return *owned;
}

static int syslog_level(enum lx_severity severity)
{
	return severity == LX_SEVERITY_ERROR ? LOG_ERR : severity == LX_SEVERITY_WARNING ? LOG_WARNING : LOG_INFO;
}

/* Each finding to the journal, and one line when there is none. */
static void log_findings(const struct cli *cli, const char *id, const char *phase,
			 const struct lx_findings *f, const char *none)
{
	_cleanup_free_ char *sock_owned = NULL;
	const char *sock = journal_socket(cli, &sock_owned);
	struct lx_error err = {0};
	int rc = 0;
	for (size_t i = 0; i < f->n && rc == 0; i++) {
		const struct lx_finding *x = &f->items[i];
		_cleanup_free_ char *msg =
			lx_xasprintf("CT %s %s: %s %s: %s%s%s", id, phase,
				     lx_finding_info(x->code)->code, lx_severity_name(x->severity),
				     x->message, x->fix ? "; fix: " : "", x->fix ? x->fix : "");
		rc = lx_journal_send(sock, syslog_level(x->severity), "lxgpu-guard", msg, &err);
	}
	if (rc == 0 && f->n == 0 && none) {
		_cleanup_free_ char *msg = lx_xasprintf("CT %s %s: %s", id, phase, none);
		rc = lx_journal_send(sock, LOG_INFO, "lxgpu-guard", msg, &err);
	}
	if (rc < 0)
		cli_warn(cli, "%s", err.message);
	lx_error_clear(&err);
}

/* On stderr (what pct start shows), wrapped when it is a terminal. */
static void say(const char *text)
{
	_cleanup_free_ char *wrapped = lx_text_wrap(text, cli_terminal_width(STDERR_FILENO), 2);
	fputs(wrapped, stderr);
}

/* On stderr, the fixes with this run's --host, --pve-dir, ... (the journal
 * and the document get them so too: they come after); coloured as every
 * command's findings when stderr is a terminal (never in the task log). */
static void print_findings(const struct cli *cli, struct lx_findings *f)
{
	cli_fixes_with_context(cli, f);
	if (!f->n || cli->format != CLI_FORMAT_TEXT)
		return;
	bool color = !cli->no_color && cli_color_wanted(STDERR_FILENO);
	_cleanup_free_ char *text =
		lx_report_findings_text(f, color, cli_terminal_width(STDERR_FILENO));
	fputs(text, stderr);
}

/* What one run of the guard decided, for --format json|yaml
 * (docs/schema/guard.json). */
struct outcome {
	const char *id, *phase;
	bool checked;          /* the record compared, or the running container verified */
	bool refused;          /* pre-start: the start is refused (exit 1) */
	const char *detail;    /* why nothing was checked; NULL */
	const char *state;     /* post-start: the container's state as verify names it; NULL */
	const char *apply_command; /* pre-start refusal: the command with this run's options; NULL */
	struct lx_findings *f; /* fixes already with this run's options */
};

/* The document on stdout, when --format asks for one (the text goes to
 * stderr, the task log). */
static void print_outcome(const struct cli *cli, const struct outcome *o)
{
	if (cli->format == CLI_FORMAT_TEXT)
		return;
	struct lx_findings none = {0};
	struct lx_doc *doc = lx_doc_new_map();
	lx_doc_map_set(doc, "container", lx_doc_new_str(o->id));
	lx_doc_map_set(doc, "phase", lx_doc_new_str(o->phase));
	lx_doc_map_set(doc, "checked", lx_doc_new_bool(o->checked));
	lx_doc_map_set(doc, "refused", lx_doc_new_bool(o->refused));
	lx_doc_map_set(doc, "detail", lx_doc_new_str(o->detail));
	lx_doc_map_set(doc, "state", lx_doc_new_str(o->state));
	lx_doc_map_set(doc, "findings", lx_report_findings_doc(o->f ? o->f : &none));
	lx_doc_map_set(doc, "apply_command", lx_doc_new_str(o->apply_command));
	cli_print_doc(cli, doc, 1); /* docs/schema/guard.json */
}

/* pre-start must not block on what it could not read: say so, exit 0.
 * There is nothing to run for it then (the message names what could not
 * be read): no fix. */
static int cannot_check(const struct cli *cli, const char *id, const char *phase,
			struct lx_error *err)
{
	bool pre = strcmp(phase, "pre-start") == 0;
	struct lx_findings f = {0};
	const char *message = err->message ? err->message : "unknown error";
	lx_findings_add(&f, LXG035_GUARD_UNCHECKED, id, NULL, 0, NULL,
			pre ? lx_xasprintf("%s; nothing blocks the start for this", message)
			    : lx_xstrdup(message),
			pre ? NULL : lx_xasprintf("as root: `lxgpu verify %s`", id));
	if (cli->format == CLI_FORMAT_TEXT)
		fprintf(stderr, "lxgpu guard: CT %s %s: could not check:\n", id, phase);
	print_findings(cli, &f);
	print_outcome(cli, &(struct outcome){.id = id, .phase = phase, .f = &f});
	log_findings(cli, id, phase, &f, NULL);
	lx_findings_free(&f);
	lx_error_clear(err);
	/* an unchecked pre-start lets the start go on (exit 0) */
	return lx_judged_exit_status(false, !pre);
}

static int run_pre_start(const struct cli *cli, const char *id, const struct lx_host *host,
			 const struct lx_conf *conf, bool is_pve)
{
	struct lx_runtime_paths rt = {cli->cgroup_root, cli->scan_paths.proc, cli->lxc_path,
				      cli->lxc_config_dir, cli->pve_dir, cli->subid_root, NULL, NULL, NULL};
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (cli->lxc_config_dir)
		aopts.lxc_config_dir = cli->lxc_config_dir;
	struct lx_guard_paths paths = {.pve_dir = cli->pve_dir, .run_dir = cli->scan_paths.run,
				       .proc_dir = cli->scan_paths.proc,
				       .state_dir = cli->state_dir, .runtime = &rt, .access = &aopts};
	struct lx_findings f = {0};
	struct lx_guard_report rep;
	lx_guard_pre_start(host, id, conf, is_pve, &paths, &f, &rep);
	bool refuse = lx_findings_have_errors(&f);
	bool text = cli->format == CLI_FORMAT_TEXT;
	if (refuse && text) {
		_cleanup_free_ char *head = lx_xasprintf("lxgpu guard: CT %s must not start: a GPU "
							 "lxgpu recorded for it changed or is in use "
							 "elsewhere.\n",
							 id);
		say(head);
	}
	print_findings(cli, &f);
	_cleanup_free_ char *apply = refuse && rep.apply_command
					     ? cli_command_with_context(cli, rep.apply_command)
					     : NULL;
	if (apply && text) {
		_cleanup_free_ char *after = lx_xasprintf("After fixing what is named above, the "
							  "command that gives CT %s its recorded GPUs "
							  "as they are now is:\n",
							  id);
		say(after);
		fprintf(stderr, "  %s\n", apply); /* whole, to be copied */
	}
	if (!rep.checked && rep.why)
		cli_verbose(cli, "CT %s: %s", id, rep.why);
	print_outcome(cli, &(struct outcome){.id = id, .phase = "pre-start", .checked = rep.checked,
					     .refused = refuse, .detail = rep.checked ? NULL : rep.why,
					     .apply_command = apply, .f = &f});
	log_findings(cli, id, "pre-start", &f,
		     rep.checked ? "its recorded GPUs are as they were: the start goes on" : NULL);
	lx_findings_free(&f);
	lx_guard_report_free(&rep);
	/* what it could not check (LXG035) is a warning: never a refusal */
	return lx_judged_exit_status(refuse, false);
}

static int run_post_start(const struct cli *cli, const char *id, const struct lx_host *host,
			  const char *path, bool is_pve)
{
	struct lx_runtime_paths rt = {cli->cgroup_root, cli->scan_paths.proc, cli->lxc_path,
				      cli->lxc_config_dir, cli->pve_dir, cli->subid_root, NULL, NULL, NULL};
	struct lx_findings f = {0};
	struct lx_container_report rep;
	struct lx_error err = {0};
	if (lx_guard_post_start(host, id, path, is_pve, &rt, &f, &rep, &err) < 0) {
		lx_findings_free(&f);
		return cannot_check(cli, id, "post-start", &err);
	}
	/* verify's rule; one it could not inspect is LXG035, which says why */
	bool uninspectable = rep.state == LX_RUN_UNINSPECTABLE;
	int rc = lx_judged_exit_status(lx_findings_have_errors(&f), uninspectable);
	if (rep.state == LX_RUN_STOPPED)
		cli_note(cli, "CT %s is not running (any more): only its config was checked", id);
	if (f.n && cli->format == CLI_FORMAT_TEXT)
		fprintf(stderr, "lxgpu guard: CT %s post-start:\n", id);
	print_findings(cli, &f);
	print_outcome(cli, &(struct outcome){.id = id, .phase = "post-start",
					     .checked = !uninspectable,
					     .detail = uninspectable ? rep.state_why : NULL,
					     .state = lx_run_state_name(rep.state), .f = &f});
	log_findings(cli, id, "post-start", &f,
		     rep.gpus.n ? "verify found nothing wrong with its GPUs" : NULL);
	lx_findings_free(&f);
	lx_container_report_free(&rep);
	return rc;
}

static int run_guard(struct cli *cli)
{
	if (cli->n_args != 2)
		return cli_usage_error("guard needs a container id and a phase, as Proxmox calls a "
				       "hookscript: lxgpu guard CTID pre-start|post-start|pre-stop|"
				       "post-stop");
	const char *id = cli->args[0], *phase = cli->args[1];
	if (lx_name_index(phases, sizeof(phases) / sizeof(phases[0]), phase) < 0)
		return cli_usage_error("guard: unknown phase '%s'; Proxmox's are pre-start, "
				       "post-start, pre-stop and post-stop",
				       phase);
	if (!lx_record_id_is_valid(id))
		return cli_usage_error("guard: '%s' is not a container id", id);
	bool pre = strcmp(phase, "pre-start") == 0;
	if (!pre && strcmp(phase, "post-start") != 0) {
		cli_verbose(cli, "CT %s %s: nothing to check", id, phase);
		print_outcome(cli, &(struct outcome){.id = id, .phase = phase,
						     .detail = "nothing to check at this phase"});
		return LX_EXIT_OK;
	}
	struct lx_error err = {0};
	_cleanup_free_ char *path = NULL;
	bool is_pve;
	if (lx_conf_find(cli->pve_dir, cli->lxc_path, id, &path, &is_pve, &err) < 0)
		return cannot_check(cli, id, phase, &err);
	struct lx_host host;
	int rc = cli->host_file ? lx_snapshot_load(cli->host_file, &host, &err)
				: lx_host_scan(&cli->scan_paths, &host, NULL, &err);
	if (rc < 0)
		return cannot_check(cli, id, phase, &err);
	/* Read without Proxmox's lock: the start holds it while the hookscript runs. */
	struct lx_conf conf;
	if (lx_conf_load(path, &conf, &err) < 0) {
		lx_host_free(&host);
		return cannot_check(cli, id, phase, &err);
	}
	if (pre)
		rc = run_pre_start(cli, id, &host, &conf, is_pve);
	else if (lx_guard_has_gpu_lines(&host, &conf, cli->state_dir))
		rc = run_post_start(cli, id, &host, path, is_pve);
	else {
		_cleanup_free_ char *why = lx_xasprintf("%s has no GPU lines: nothing to check", path);
		cli_verbose(cli, "CT %s post-start: %s", id, why);
		print_outcome(cli, &(struct outcome){.id = id, .phase = phase, .detail = why});
	}
	lx_conf_free(&conf);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_guard = {
	.name = "guard",
	.summary = "Proxmox hookscript: refuse a start whose recorded GPUs changed",
	.usage =
		"Usage: lxgpu guard CTID PHASE [--format text|json|yaml]\n"
		"\n"
		"What the hookscript data/lxgpu-guard-hookscript runs (pct set CTID --hookscript\n"
		"local:snippets/lxgpu-guard-hookscript; see docs/guard.md).\n"
		"\n"
		"pre-start: compare the GPUs lxgpu apply recorded for the container (by PCI\n"
		"address, UUID as a cross-check; <state-dir>/containers/CTID.yaml) with the host\n"
		"now, and refuse the start when one is another /dev/nvidiaN than the config gives\n"
		"(LXG030), gone or bound to vfio-pci (LXG031), held by a running VM (LXG032), in\n"
		"another running container while exclusive use is recorded (LXG033), or another\n"
		"card (LXG034). The message says what changed and the command that fixes it. A\n"
		"container without GPU lines or without a record is never blocked; what the\n"
		"guard cannot read is a warning (LXG035), and the start goes on.\n"
		"post-start: verify the running container; findings go to stderr and the\n"
		"journal (the syslog socket <dev-dir>/log).\n"
		"pre-stop, post-stop: nothing to check.\n"
		"--format json|yaml prints what it decided on stdout (docs/schema/guard.json)\n"
		"instead of the text on stderr; the journal gets the findings either way.\n"
		"\n"
		"Exit status: pre-start 0 the start may go on, 1 refused; post-start 0 clean,\n"
		"1 findings at error level, 2 could not inspect; 2 for a usage error.\n",
	.options = CLI_OPT_FORMAT,
	.run = run_guard,
};
