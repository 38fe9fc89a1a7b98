/* The command line: options shared by every subcommand, and the table of
 * subcommands. Each subcommand lives in its own cmd_*.c: parse, call, print. */
#ifndef LXGPU_CLI_H
#define LXGPU_CLI_H

#include "lxgpu/host.h"
#include "lxgpu/plan.h"

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
};

struct cli {
	const char *host_file; /* --host: a snapshot instead of the live host */
	const char *pve_dir;
	const char *lxc_path;
	enum cli_format format;
	bool format_given;
	const char *output; /* -o */
	int verbosity;      /* -1 quiet, 0 normal, 1+ verbose */
	bool color;
	struct lx_scan_paths scan_paths;
	struct lx_plan_options plan; /* generate's options */
	bool privilege_given;        /* --privileged or --unprivileged was given */
	bool style_given;
	const char *templates_dir;
	unsigned given; /* cli_option_bit of the command options on the command line */
	char **args;    /* positional arguments after the command name */
	int n_args;
};

struct cli_command {
	const char *name;
	const char *summary;
	const char *usage; /* the full `lxgpu CMD --help` text */
	unsigned options;  /* cli_option_bit mask of the options it takes */
	int (*run)(struct cli *cli);
};

extern const struct cli_command cli_cmd_scan;
extern const struct cli_command cli_cmd_snapshot;
extern const struct cli_command cli_cmd_generate;

/* Load the host model: the --host snapshot, or a live scan. Prints the
 * error and returns -1 on failure. evidence may be NULL. */
int cli_load_host(const struct cli *cli, struct lx_host *host, struct lx_evidence *evidence);
/* Print an error as "lxgpu: message" and return LX_EXIT_ERROR. */
int cli_fail(struct lx_error *err);
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
