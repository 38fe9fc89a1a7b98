/* The command line: options shared by every subcommand, and the table of
 * subcommands. Each subcommand lives in its own cmd_*.c: parse, call, print. */
#ifndef LXGPU_CLI_H
#define LXGPU_CLI_H

#include "lxgpu/host.h"
#include "lxgpu/plan.h"
#include "lxgpu/topodraw.h"

enum cli_format {
	CLI_FORMAT_TEXT,
	CLI_FORMAT_JSON,
	CLI_FORMAT_YAML,
};

/* Options a command may accept, as bits of cli_command.options. */
enum cli_option_bit {
	CLI_OPT_FORMAT = 1u << 0,
	CLI_OPT_OUTPUT = 1u << 1,
	CLI_OPT_PLAN = 1u << 2,      /* --gpus --style --caps --dri --dev-start --mode --uid --gid --cgroup */
	CLI_OPT_PRIVILEGE = 1u << 3, /* --privileged / --unprivileged */
	CLI_OPT_TEMPLATES = 1u << 4,
	CLI_OPT_APPLY = 1u << 5,      /* --force --allow-privilege-change --lock-timeout --lock-dir */
	CLI_OPT_BACKUP_DIR = 1u << 6, /* --backup-dir --keep */
	CLI_OPT_LIST = 1u << 7,       /* --list */
	CLI_OPT_AUDIT = 1u << 8,      /* --cluster --exclusive --format prometheus */
	CLI_OPT_GPUS = 1u << 9,       /* --gpus */
	CLI_OPT_PREFLIGHT = 1u << 10, /* --next-boot --kernel --root */
	CLI_OPT_LOAD_MODULES = 1u << 11, /* --load-modules (ensure-nodes) */
	CLI_OPT_DRY_RUN = 1u << 12,      /* --dry-run */
	CLI_OPT_BOOT_UNIT = 1u << 13,    /* --print-boot-unit */
	CLI_OPT_PRIVILEGE_CHANGE = 1u << 14, /* --allow-privilege-change (apply) */
	CLI_OPT_ALL_MIG = 1u << 15,      /* --all-mig (ensure-nodes) */
	CLI_OPT_MIG_UUIDS = 1u << 16,    /* --mig-uuids (scan, snapshot, publish) */
	CLI_OPT_PROBE = 1u << 18,        /* --probe, --probe-timeout S (doctor) */
	CLI_OPT_NO_COMMENTS = 1u << 28,  /* --no-comments (generate) */
	CLI_OPT_COMMENTS = 1u << 19,     /* --comments (generate) */
	CLI_OPT_PICTURE = 1u << 17,      /* --format svg|dot, --containers (topo) */
	CLI_OPT_HOOK = 1u << 20,         /* --optional (hook) */
	CLI_OPT_LIVE = 1u << 21,         /* --live (apply) */
	CLI_OPT_EXCLUSIVE = 1u << 24,    /* --exclusive (audit, apply) */
	CLI_OPT_KMSG = 1u << 26,         /* --kmsg FILE (doctor) */
	CLI_OPT_P2P = 1u << 27,          /* --p2p (topo) */
	CLI_OPT_NODE = 1u << 29,         /* --node NAME (publish) */
	CLI_OPT_TO = 1u << 30,           /* --to NODE (preflight) */
	CLI_OPT_HOSTS = 1u << 31,        /* --hosts DIR (audit, preflight --to) */
};

struct cli {
	const char *host_file; /* --host: a snapshot instead of the live host */
	const char *pve_dir;
	const char *lxc_path;
	const char *lxc_config_dir; /* --lxc-config-dir: LXC's includes (common.conf, userns.conf) */
	enum cli_format format;
	bool format_given;
	bool compact; /* --compact: JSON on one line */
	size_t wrap_width; /* stdout is a terminal this wide (0: not a terminal, never wrap) */
	const char *output; /* -o */
	int verbosity;      /* -1 quiet, 0 normal, 1+ verbose */
	bool color;    /* colour on stdout */
	bool no_color; /* --no-color: none on stderr either (the guard's text) */
	struct lx_scan_paths scan_paths;
	struct lx_plan_options plan; /* generate's options */
	bool privilege_given;        /* --privileged or --unprivileged was given */
	bool style_given;
	const char *templates_dir;
	bool dry_run;
	bool live; /* apply --live: new devN entries through `pct set` */
	bool allow_privilege_change;
	bool force; /* --force: do what a safety check refused (rollback: edited GPU lines) */
	int lock_timeout_s;
	const char *backup_dir;
	int keep_backups; /* --keep: backups kept per container (apply, rollback) */
	bool no_comments; /* generate --no-comments */
	bool comments;    /* generate --comments */
	bool p2p;         /* topo --p2p */
	const char *lock_dir;
	const char *state_dir; /* --state-dir: the GPU records of containers */
	/* --subid-root: where etc/subuid, etc/subgid and newuidmap/newgidmap are
	 * (lx_access_options.subid_root); "/" on the live host, NULL for a
	 * snapshot unless given */
	const char *subid_root;
	const char *cgroup_root;
	bool list;
	bool prometheus; /* --format prometheus (audit) */
	bool picture;    /* --format svg or dot (topo): picture_format says which */
	enum lx_picture_format picture_format;
	bool containers; /* topo --containers: which container holds which GPU */
	bool cluster;
	bool exclusive;
	const char *hosts_dir;
	const char *node_name;  /* publish --node: this node's name in the cluster */
	const char *migrate_to; /* preflight --to NODE */
	bool next_boot;
	const char *kernel;
	const char *root_dir; /* preflight --root (NULL: /, the live host's only) */
	bool print_boot_unit;
	bool load_modules; /* ensure-nodes --load-modules */
	bool all_mig;      /* ensure-nodes --all-mig */
	bool mig_uuids;    /* scan/snapshot/publish --mig-uuids: run nvidia-smi */
	const char *kmsg_file; /* doctor --kmsg: a saved kernel log */
	bool probe;            /* doctor --probe: load libcuda and call cuInit */
	int probe_timeout_s;   /* doctor --probe-timeout (default 60) */
	const char *driver_root; /* --driver-root: where the host's driver userspace is (NULL: /) */
	bool driver_root_given;
	bool hook_optional; /* hook --optional */
	bool driver_libs;   /* generate/apply --driver-libs: the lxc.hook.mount line */
	const char *command_line; /* as typed (before getopt reorders argv), for backups */
	unsigned given; /* cli_option_bit of the command options on the command line */
	char **args;    /* positional arguments after the command name */
	int n_args;
};

struct cli_command {
	const char *name;
	const char *summary;
	const char *usage; /* the full `lxgpu CMD --help` text */
	unsigned options;  /* cli_option_bit mask of the options it takes */
	bool own_output;   /* writes -o FILE itself (else main sends stdout there, atomically) */
	int (*run)(struct cli *cli);
};

extern const struct cli_command cli_cmd_scan;
extern const struct cli_command cli_cmd_snapshot;
extern const struct cli_command cli_cmd_generate;
extern const struct cli_command cli_cmd_apply;
extern const struct cli_command cli_cmd_rollback;
extern const struct cli_command cli_cmd_verify;
extern const struct cli_command cli_cmd_audit;
extern const struct cli_command cli_cmd_topo;
extern const struct cli_command cli_cmd_preflight;
extern const struct cli_command cli_cmd_ensure_nodes;
extern const struct cli_command cli_cmd_hook;
extern const struct cli_command cli_cmd_oci_hook;
extern const struct cli_command cli_cmd_guard;
extern const struct cli_command cli_cmd_publish;

struct lx_driver_libs_options;
/* --driver-libs: the hook line's binary and options from the command line
 * (o->enabled false without --driver-libs); with_files also lists the
 * host's driver files of the loaded version (the CDI spec mounts them). */
int cli_driver_libs_options(const struct cli *cli, bool with_files,
			    struct lx_driver_libs_options *o, struct lx_error *err);
void cli_driver_libs_options_free(struct lx_driver_libs_options *o);
extern const struct cli_command cli_cmd_doctor;

/* preflight CTID --to NODE (migrate.c). */
int cli_preflight_migration(struct cli *cli);

struct lx_conf;
struct lx_refusal;
struct lx_apply_given;
/* What the command line said, for the library's decisions (lxgpu/reconcile.h). */
struct lx_apply_given cli_apply_given(const struct cli *cli);
/* Print why apply or generate does not go on (one line: the message, then
 * the fix), free it, and return LX_EXIT_ERROR. */
int cli_refused(struct lx_refusal *why);
/* The container's own render and video gids (its /etc/group, read inside
 * its root) into opts; *why (owned by the caller, also opts->groups_why)
 * says why one is unknown; a warning when an unprivileged container's idmap
 * leaves the render gid out. */
void cli_container_groups(const struct cli *cli, const struct lx_host *host, const char *id,
			  const struct lx_conf *conf, struct lx_plan_options *opts, char **why);
/* This node's VMs' passed-through PCI devices (<pve-dir>/qemu-server, its
 * cluster mappings resolved for this node, as audit reads them), for
 * apply's and verify's LXG013; a VM config that cannot be read is a
 * warning. */
struct lx_vm_devices;
void cli_read_vms(const struct cli *cli, const struct lx_host *host, struct lx_vm_devices *vms);

/* After apply or rollback wrote a config (text): record the GPUs it gives
 * for the start guard, or remove the record when it gives none. style:
 * apply's (NULL: as the lines show); exclusive: 1/0, or -1 to keep the
 * record's. Returns 0, or -1 with err ("PATH was written, but the start
 * guard's record was not: ..."). */
int cli_store_record(const struct cli *cli, const struct lx_host *host, const char *id,
		     const char *path, bool is_pve, const char *text, size_t len, const char *style,
		     int exclusive, struct lx_error *err);
/* The same, returning 0 or the exit status after the message. */
int cli_record_gpus(const struct cli *cli, const struct lx_host *host, const char *id,
		    const char *path, bool is_pve, const char *text, size_t len, const char *style,
		    int exclusive);

struct lx_node_plan;
/* What ensure-nodes would do to the host's nodes, to judge lxgpu's include
 * files by; false for a snapshot (no /dev to plan against: its nodes as
 * recorded) or when it cannot be planned. */
bool cli_plan_nodes(const struct cli *cli, const struct lx_host *host, struct lx_node_plan *plan);

struct lx_findings;
/* verify's findings about the container's lxgpu include file; on the live
 * host judged against the nodes as ensure-nodes makes them. */
int cli_verify_include(const struct cli *cli, const struct lx_host *host, const char *id,
		       const char *config_path, struct lx_findings *out, struct lx_error *err);

/* Load the host model: the --host snapshot, or a live scan. Prints the
 * error and returns -1 on failure. evidence may be NULL. */
int cli_load_host(const struct cli *cli, struct lx_host *host, struct lx_evidence *evidence);
struct lx_kmsg;
/* On the live host: the DRM GPUs' firmware files the kernel log (may be
 * NULL) asked for, their vendor directories and amdkfd's nodes, looked up
 * now into host->drm_checks (doctor judges them; snapshot records them). */
void cli_drm_check(const struct cli *cli, struct lx_host *host, const struct lx_kmsg *log);
/* Print an error as "lxgpu: message" and return LX_EXIT_ERROR. */
int cli_fail(struct lx_error *err);
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Output (output.c). -q: only results and errors, no warnings or notes on
 * stderr; -v: also what lxgpu read, decided and wrote. Messages are
 * "lxgpu: warning: ...", escaped for the terminal. */
void cli_warn(const struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_note(const struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_verbose(const struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Long lines of text for a terminal: wrapped at cli->wrap_width with
 * continuation lines indented by indent (the column of a finding's "fix:"),
 * or printed as they are when stdout is not a terminal. */
void cli_print_wrapped(const struct cli *cli, const char *text, size_t indent);
/* The same, formatted. */
void cli_printf_wrapped(const struct cli *cli, size_t indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The width to wrap at: the terminal's (TIOCGWINSZ), else 80; 0 when
 * stdout is not a terminal. */
size_t cli_terminal_width(int fd);
/* "lxgpu" and this run's options that say where things are (--host,
 * --pve-dir, --lxc-path, --state-dir, ... when not the defaults), so that
 * a printed `lxgpu VERB ...` works as pasted; apply and rollback also get
 * --backup-dir and --lock-dir. */
char *cli_command_words(const struct cli *cli, const char *verb);
/* COMMAND (`lxgpu VERB ...`, `lxc-stop -n ID`, ...) with
 * cli_command_words for "lxgpu VERB", and for lxc-stop, lxc-start,
 * lxc-attach and lxc-info this run's --lxc-path as -P when not LXC's
 * default; any other command as it is. */
char *cli_command_with_context(const struct cli *cli, const char *command);
/* TEXT (a fix: prose with its commands in backticks, lxgpu/findings.h) with
 * each command given its context so; the prose as it is. */
char *cli_with_context(const struct cli *cli, const char *text);
/* The same, in place, for every fix of F that runs on this node. */
void cli_fixes_with_context(const struct cli *cli, struct lx_findings *f);
/* Colour by default on fd: a terminal, NO_COLOR unset or empty, TERM not dumb. */
bool cli_color_wanted(int fd);
/* Before the command runs: -o FILE becomes its stdout, through a temporary
 * file next to FILE. Returns 0, or the exit status after the message. */
int cli_output_begin(struct cli *cli, const struct cli_command *cmd);
/* After: flush and close stdout; a failed write is exit 2 with a message;
 * -o FILE is renamed into place unless the command failed (exit 2). */
int cli_output_end(const struct cli *cli, int rc);
/* The known name closest to typed (a typo, or a prefix of just one), or NULL. */
const char *cli_suggest(const char *typed, const char *const *names, size_t n);
struct lx_doc;
/* Print a command's document as JSON or YAML with "schema": N first (the
 * version of docs/schema/<command>.json); frees doc. */
int cli_print_doc(const struct cli *cli, struct lx_doc *doc, int schema);

struct lx_conf_txn;
/* Lock (unless read_only) and read a container's config; refuse one that
 * does not parse, or (unless read_only) one PVE has locked. Returns 0, or
 * the exit status after printing the error. */
int cli_begin_change(const struct cli *cli, const char *id, bool read_only,
		     struct lx_conf_txn *txn, struct lx_conf *conf);
/* What a change writes besides the config, in the same transaction. */
struct cli_change {
	const char *action; /* "apply" or "rollback": recorded in the backup */
	const char *undoes; /* rollback: the backup whose change it undoes */
	/* lxgpu's include file (NULL: not touched): its text now (NULL: none)
	 * and the text it gets (NULL: removed). Backed up with the config. */
	const char *include_path;
	const char *include_old;
	const char *include_text;
	/* The config before the change when it is not the text read under this
	 * lock (apply --live: before pct set changed it); NULL: that text. */
	const char *before;
	size_t before_len;
	/* The start guard's record: cli_store_record's style and exclusive. */
	const char *style;
	int exclusive;
};
/* Store a backup of the config as read (with text, for rollback, and the
 * include file's old and new text), write the include file, then replace
 * the config with text: the include file is written only once the backup
 * is, and put back (the backup removed) when the config cannot be
 * replaced; a removal waits until the config no longer names the file
 * (LXC refuses a start whose lxc.include names a missing file); then the
 * start guard's record. One transaction: SIGINT, SIGTERM and SIGHUP wait
 * for its end (lx_interrupt_hold), so an interrupt leaves all of it or
 * none. Returns -1 with err when nothing was written, 0 when all was, 1
 * with err when the config was written but the record not. */
int cli_write_with_backup(const struct cli *cli, struct lx_conf_txn *txn,
			  const struct lx_host *host, const char *text, size_t len,
			  const struct cli_change *change, char **backup_name, struct lx_error *err);

#endif
