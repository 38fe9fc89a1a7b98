/* lxgpu: option parsing and dispatch. */
#include "cli.h"
#include "build-config.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

static const struct cli_command *const commands[] = {
	&cli_cmd_scan,
	&cli_cmd_generate,
	&cli_cmd_apply,
	&cli_cmd_rollback,
	&cli_cmd_verify,
	&cli_cmd_audit,
	&cli_cmd_preflight,
	&cli_cmd_topo,
	&cli_cmd_snapshot,
	&cli_cmd_ensure_nodes,
	&cli_cmd_hook,
	&cli_cmd_guard,
	&cli_cmd_oci_hook,
	&cli_cmd_publish,
	&cli_cmd_doctor,
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char global_help[] =
	"Global options (before or after the command):\n"
	"  --host FILE         a snapshot (FILE.yaml or FILE.tar.gz), not the live host\n"
	"  --pve-dir DIR       Proxmox config directory (default /etc/pve)\n"
	"  --lxc-path DIR      LXC container directory (default /var/lib/lxc)\n"
	"  --lxc-config-dir DIR  LXC's config includes (default /usr/share/lxc/config)\n"
	"  --format FMT        text, json or yaml (where the command supports it;\n"
	"                      audit also prometheus, topo also svg and dot)\n"
	"  --compact           with --format json: the document on one line\n"
	"  -q, --quiet         only results and errors: no warnings or info on stderr\n"
	"  -v, --verbose       also say what was read, decided and written (stderr)\n"
	"  --no-color          no colors (also when NO_COLOR is set and not empty,\n"
	"                      or TERM=dumb)\n"
	"  --proc-dir DIR      devices, modules and driver/nvidia are read there (/proc)\n"
	"  --dev-dir DIR       where the device nodes are (default /dev)\n"
	"  --sys-dir DIR       sysfs files lxgpu reads directly: efivars (default /sys)\n"
	"  --driver-root DIR   the host's driver userspace, nvidia-smi included (default\n"
	"                      /; with --proc-dir, nvidia-smi runs only when it is given)\n"
	"  --firmware-dir DIR  where GSP firmware lives (default /lib/firmware/nvidia);\n"
	"                      the directory above it is the firmware directory\n"
	"  --boot-dir DIR      where the kernel's config-<release> is (default /boot)\n"
	"  --run-dir DIR       where daemons keep sockets (default /run)\n"
	"  --cgroup-root DIR   where containers' cgroups are (default /sys/fs/cgroup)\n"
	"  --state-dir DIR     lxgpu's records of containers' GPUs\n"
	"                      (default " LXGPU_STATE_DIR ")\n"
	"  --subid-root DIR    where etc/subuid, etc/subgid, newuidmap/newgidmap, the\n"
	"                      NVIDIA hook's script and nvidia-container-cli, and dpkg's\n"
	"                      status (the LXC and pve-container versions) are (default /\n"
	"                      on the live host; not read for a --host snapshot)\n"
	"  -h, --help          show help; `lxgpu CMD --help` for one command\n"
	"  -V, --version       show the version\n"
	"\n"
	"Exit status: 0 all good, 1 findings at error level, 2 usage or runtime error.\n";

static void print_main_help(FILE *out)
{
	fprintf(out, "Usage: lxgpu [OPTIONS] COMMAND [ARGS]\n\n"
		     "Give GPUs (NVIDIA, Intel, AMD) to LXC containers on Proxmox VE, and keep them\n"
		     "working.\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-12s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "  %-12s %s\n\n%s", "help", "show help for a command", global_help);
}

static const struct cli_command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void print_command_help(const struct cli_command *cmd)
{
	printf("%s\nGlobal options (--host, --format, -q, -v, ...) and exit status: 'lxgpu help'.\n",
	       cmd->usage);
}

/* "unknown command 'x'; did you mean 'y'?" */
static int unknown_command(const char *name)
{
	const char *names[N_COMMANDS + 1];
	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i]->name;
	names[N_COMMANDS] = "help";
	const char *near = cli_suggest(name, names, N_COMMANDS + 1);
	if (near)
		return cli_usage_error("unknown command '%s'; did you mean '%s'? (see 'lxgpu help')",
				       name, near);
	return cli_usage_error("unknown command '%s'; see 'lxgpu help'", name);
}

enum {
	OPT_HOST = 256,
	OPT_PVE_DIR,
	OPT_LXC_PATH,
	OPT_LXC_CONFIG_DIR,
	OPT_FORMAT,
	OPT_NO_COLOR,
	OPT_FIRMWARE_DIR,
	OPT_BOOT_DIR,
	OPT_RUN_DIR,
	OPT_GPUS,
	OPT_STYLE,
	OPT_PRIVILEGED,
	OPT_UNPRIVILEGED,
	OPT_CAPS,
	OPT_DRI,
	OPT_MIG_CONFIG,
	OPT_MIG_MONITOR,
	OPT_DEV_START,
	OPT_MODE,
	OPT_UID,
	OPT_GID,
	OPT_CGROUP,
	OPT_TEMPLATES,
	OPT_DRY_RUN,
	OPT_ALLOW_PRIVILEGE_CHANGE,
	OPT_FORCE,
	OPT_LOCK_TIMEOUT,
	OPT_BACKUP_DIR,
	OPT_LIST,
	OPT_LOCK_DIR,
	OPT_CLUSTER,
	OPT_HOSTS,
	OPT_EXCLUSIVE,
	OPT_LIVE,
	OPT_NEXT_BOOT,
	OPT_KERNEL,
	OPT_ROOT,
	OPT_PRINT_BOOT_UNIT,
	OPT_CGROUP_ROOT,
	OPT_PROC_DIR,
	OPT_DEV_DIR,
	OPT_LOAD_MODULES,
	OPT_ALL_MIG,
	OPT_MIG_UUIDS,
	OPT_KMSG,
	OPT_PROBE,
	OPT_PROBE_TIMEOUT,
	OPT_SYS_DIR,
	OPT_NO_COMMENTS,
	OPT_COMMENTS,
	OPT_P2P,
	OPT_CONTAINERS,
	OPT_KEEP,
	OPT_STATE_DIR,
	OPT_DRIVER_ROOT,
	OPT_OPTIONAL,
	OPT_DRIVER_LIBS,
	OPT_NODE,
	OPT_TO,
	OPT_SUBID_ROOT,
	OPT_COMPACT,
};

static const struct option long_options[] = {
	{"host", required_argument, NULL, OPT_HOST},
	{"pve-dir", required_argument, NULL, OPT_PVE_DIR},
	{"lxc-path", required_argument, NULL, OPT_LXC_PATH},
	{"lxc-config-dir", required_argument, NULL, OPT_LXC_CONFIG_DIR},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"no-color", no_argument, NULL, OPT_NO_COLOR},
	{"compact", no_argument, NULL, OPT_COMPACT},
	{"firmware-dir", required_argument, NULL, OPT_FIRMWARE_DIR},
	{"boot-dir", required_argument, NULL, OPT_BOOT_DIR},
	{"run-dir", required_argument, NULL, OPT_RUN_DIR},
	{"output", required_argument, NULL, 'o'},
	{"gpus", required_argument, NULL, OPT_GPUS},
	{"style", required_argument, NULL, OPT_STYLE},
	{"privileged", no_argument, NULL, OPT_PRIVILEGED},
	{"unprivileged", no_argument, NULL, OPT_UNPRIVILEGED},
	{"caps", no_argument, NULL, OPT_CAPS},
	{"dri", no_argument, NULL, OPT_DRI},
	{"mig-config", no_argument, NULL, OPT_MIG_CONFIG},
	{"mig-monitor", no_argument, NULL, OPT_MIG_MONITOR},
	{"dev-start", required_argument, NULL, OPT_DEV_START},
	{"mode", required_argument, NULL, OPT_MODE},
	{"uid", required_argument, NULL, OPT_UID},
	{"gid", required_argument, NULL, OPT_GID},
	{"cgroup", required_argument, NULL, OPT_CGROUP},
	{"templates", required_argument, NULL, OPT_TEMPLATES},
	{"dry-run", no_argument, NULL, OPT_DRY_RUN},
	{"allow-privilege-change", no_argument, NULL, OPT_ALLOW_PRIVILEGE_CHANGE},
	{"force", no_argument, NULL, OPT_FORCE},
	{"lock-timeout", required_argument, NULL, OPT_LOCK_TIMEOUT},
	{"backup-dir", required_argument, NULL, OPT_BACKUP_DIR},
	{"list", no_argument, NULL, OPT_LIST},
	{"lock-dir", required_argument, NULL, OPT_LOCK_DIR},
	{"cluster", no_argument, NULL, OPT_CLUSTER},
	{"hosts", required_argument, NULL, OPT_HOSTS},
	{"exclusive", no_argument, NULL, OPT_EXCLUSIVE},
	{"live", no_argument, NULL, OPT_LIVE},
	{"next-boot", no_argument, NULL, OPT_NEXT_BOOT},
	{"kernel", required_argument, NULL, OPT_KERNEL},
	{"root", required_argument, NULL, OPT_ROOT},
	{"print-boot-unit", no_argument, NULL, OPT_PRINT_BOOT_UNIT},
	{"cgroup-root", required_argument, NULL, OPT_CGROUP_ROOT},
	{"proc-dir", required_argument, NULL, OPT_PROC_DIR},
	{"dev-dir", required_argument, NULL, OPT_DEV_DIR},
	{"load-modules", no_argument, NULL, OPT_LOAD_MODULES},
	{"all-mig", no_argument, NULL, OPT_ALL_MIG},
	{"mig-uuids", no_argument, NULL, OPT_MIG_UUIDS},
	{"kmsg", required_argument, NULL, OPT_KMSG},
	{"probe", no_argument, NULL, OPT_PROBE},
	{"probe-timeout", required_argument, NULL, OPT_PROBE_TIMEOUT},
	{"sys-dir", required_argument, NULL, OPT_SYS_DIR},
	{"no-comments", no_argument, NULL, OPT_NO_COMMENTS},
	{"comments", no_argument, NULL, OPT_COMMENTS},
	{"p2p", no_argument, NULL, OPT_P2P},
	{"containers", no_argument, NULL, OPT_CONTAINERS},
	{"keep", required_argument, NULL, OPT_KEEP},
	{"state-dir", required_argument, NULL, OPT_STATE_DIR},
	{"driver-root", required_argument, NULL, OPT_DRIVER_ROOT},
	{"optional", no_argument, NULL, OPT_OPTIONAL},
	{"driver-libs", no_argument, NULL, OPT_DRIVER_LIBS},
	{"node", required_argument, NULL, OPT_NODE},
	{"to", required_argument, NULL, OPT_TO},
	{"subid-root", required_argument, NULL, OPT_SUBID_ROOT},
	{"quiet", no_argument, NULL, 'q'},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static int parse_format(struct cli *cli, const char *value)
{
	cli->picture = false; /* the last --format counts */
	if (strcmp(value, "text") == 0)
		cli->format = CLI_FORMAT_TEXT;
	else if (strcmp(value, "json") == 0)
		cli->format = CLI_FORMAT_JSON;
	else if (strcmp(value, "yaml") == 0)
		cli->format = CLI_FORMAT_YAML;
	else if (strcmp(value, "prometheus") == 0) {
		cli->prometheus = true;
		cli->given |= CLI_OPT_AUDIT;
	} else if (strcmp(value, "svg") == 0 || strcmp(value, "dot") == 0) {
		cli->picture = true;
		cli->picture_format = value[0] == 's' ? LX_PICTURE_SVG : LX_PICTURE_DOT;
		cli->given |= CLI_OPT_PICTURE;
	} else
		return cli_usage_error("unknown --format '%s'; use text, json or yaml (audit: also "
				       "prometheus; topo: also svg and dot)",
				       value);
	cli->format_given = true;
	cli->given |= CLI_OPT_FORMAT;
	return 0;
}

static const char *option_name(unsigned bit)
{
	switch (bit) {
	case CLI_OPT_FORMAT: return "--format";
	case CLI_OPT_OUTPUT: return "-o/--output";
	case CLI_OPT_PLAN: return "generate's options (--gpus, --style, ...)";
	case CLI_OPT_PRIVILEGE: return "--privileged/--unprivileged";
	case CLI_OPT_TEMPLATES: return "--templates";
	case CLI_OPT_APPLY: return "--force/--lock-timeout/--lock-dir";
	case CLI_OPT_PRIVILEGE_CHANGE: return "--allow-privilege-change";
	case CLI_OPT_BACKUP_DIR: return "--backup-dir";
	case CLI_OPT_AUDIT: return "audit's options (--cluster, --format prometheus)";
	case CLI_OPT_GPUS: return "--gpus";
	case CLI_OPT_PREFLIGHT: return "preflight's options (--next-boot, --kernel, --root)";
	case CLI_OPT_LOAD_MODULES: return "--load-modules";
	case CLI_OPT_ALL_MIG: return "--all-mig";
	case CLI_OPT_MIG_UUIDS: return "--mig-uuids";
	case CLI_OPT_DRY_RUN: return "--dry-run";
	case CLI_OPT_BOOT_UNIT: return "--print-boot-unit";
	case CLI_OPT_EXCLUSIVE: return "--exclusive";
	case CLI_OPT_LIVE: return "--live";
	case CLI_OPT_NODE: return "--node";
	case CLI_OPT_TO: return "--to";
	case CLI_OPT_HOSTS: return "--hosts";
	case CLI_OPT_KMSG: return "--kmsg";
	case CLI_OPT_PROBE: return "--probe, --probe-timeout";
	case CLI_OPT_NO_COMMENTS: return "--no-comments";
	case CLI_OPT_COMMENTS: return "--comments";
	case CLI_OPT_P2P: return "--p2p";
	case CLI_OPT_PICTURE: return "--format svg|dot and --containers";
	case CLI_OPT_HOOK: return "--optional";
	default: return "--list";
	}
}

/* nvidia-smi loads NVML, which opens the device nodes and initializes
 * every GPU it asks (seconds each without persistence mode; it hangs on a
 * GPU in a bad state): lxgpu never opens a node unless asked. The scan runs
 * it for --mig-uuids, and for a --gpus that names a MIG UUID (only NVML
 * knows them). */
static bool wants_mig_uuids(const struct cli *cli)
{
	return cli->mig_uuids || (cli->plan.gpus && strcasestr(cli->plan.gpus, "MIG-"));
}

/* Parse one of generate's options; returns -1 after printing an error. */
static int parse_plan_option(struct cli *cli, int opt, const char *arg)
{
	struct lx_plan_options *p = &cli->plan;
	unsigned long long v;
	if (opt == OPT_GPUS) {
		p->gpus = arg;
		cli->given |= CLI_OPT_GPUS;
		return 0;
	}
	cli->given |= CLI_OPT_PLAN;
	switch (opt) {
	case OPT_STYLE:
		if (!lx_style_from_name(arg, &p->style))
			return cli_usage_error("unknown --style '%s'; use devn, raw, lxc, cdi or include", arg);
		cli->style_given = true;
		return 0;
	case OPT_CAPS: p->caps = true; return 0;
	case OPT_DRI: p->dri = true; return 0;
	case OPT_MIG_CONFIG: p->mig_config = true; return 0;
	case OPT_MIG_MONITOR: p->mig_monitor = true; return 0;
	case OPT_DEV_START:
		if (!lx_parse_uint(arg, 10, 255, &v))
			return cli_usage_error("--dev-start '%s': use a number from 0 to 255", arg);
		p->dev_start = (int)v;
		return 0;
	case OPT_MODE:
		if (!lx_parse_uint(arg, 8, 0777, &v))
			return cli_usage_error("--mode '%s': use an octal mode like 0666", arg);
		p->mode = (int)v;
		return 0;
	case OPT_UID:
	case OPT_GID:
		if (!lx_parse_uint(arg, 10, 4294967294ULL, &v))
			return cli_usage_error("--%s '%s': use a number", opt == OPT_UID ? "uid" : "gid",
					       arg);
		*(opt == OPT_UID ? &p->uid : &p->gid) = (long long)v;
		return 0;
	case OPT_CGROUP:
		if (strcmp(arg, "v1") != 0 && strcmp(arg, "v2") != 0)
			return cli_usage_error("--cgroup '%s': use v1 or v2", arg);
		lx_cgroup_layout_from_name(arg, &p->cgroup);
		return 0;
	}
	return cli_usage_error("internal error: option %d", opt);
}

/* "unknown option '--x'; did you mean '--y'?" */
static int unknown_option(const char *typed)
{
	size_t n = sizeof(long_options) / sizeof(long_options[0]) - 1;
	const char *names[sizeof(long_options) / sizeof(long_options[0])];
	for (size_t i = 0; i < n; i++)
		names[i] = long_options[i].name;
	const char *word = lx_str_starts_with(typed, "--") ? typed + 2 : typed;
	_cleanup_free_ char *bare = lx_xstrndup(word, strcspn(word, "="));
	const char *near = cli_suggest(bare, names, n);
	if (near)
		return cli_usage_error("unknown option '%s'; did you mean '--%s'? (see 'lxgpu help')",
				       typed, near);
	return cli_usage_error("unknown option '%s'; see 'lxgpu help'", typed);
}

/* A directory given on the command line must exist: a typo would read as
 * "no containers" (an empty one is fine). The defaults may be absent (no
 * /etc/pve on plain LXC). */
static int check_dir(const char *option, const char *path, bool given)
{
	struct stat st;
	if (!given)
		return 0;
	if (stat(path, &st) < 0) {
		cli_usage_error("%s %s: %s", option, path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		cli_usage_error("%s %s: not a directory", option, path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* First: an interrupt from here on ends with exit 2, removes the
	 * temporary files of unfinished writes and says what was written. */
	lx_interrupt_install();
	struct cli cli = {
		.pve_dir = "/etc/pve",
		.lxc_path = "/var/lib/lxc",
		.lock_timeout_s = 10, /* what PVE itself waits */
		.probe_timeout_s = 60,
		.backup_dir = "/var/lib/lxgpu/backups",
		.keep_backups = 10, /* per container: enough to walk back a few changes */
		.lock_dir = "/run/lock/lxc",
		.cgroup_root = "/sys/fs/cgroup",
		.state_dir = LXGPU_STATE_DIR,

		.color = cli_color_wanted(STDOUT_FILENO),
	};
	lx_scan_paths_default(&cli.scan_paths);
	lx_plan_options_default(&cli.plan);
	struct lx_buf typed = {0};
	for (int i = 0; i < argc; i++)
		lx_buf_printf(&typed, "%s%s", i ? " " : "", argv[i]);
	_cleanup_free_ char *command_line = lx_buf_steal(&typed);
	cli.command_line = command_line;
	bool want_help = false, want_version = false, pve_dir_given = false, lxc_path_given = false,
	     subid_root_given = false, proc_dir_given = false;
	int c;
	opterr = 0;
	/* GNU getopt permutes: options may come before or after the command. */
	while ((c = getopt_long(argc, argv, ":o:qvhV", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_HOST: cli.host_file = optarg; break;
		case OPT_PVE_DIR: cli.pve_dir = optarg; pve_dir_given = true; break;
		case OPT_LXC_PATH: cli.lxc_path = optarg; lxc_path_given = true; break;
		case OPT_LXC_CONFIG_DIR: cli.lxc_config_dir = optarg; break;
		case OPT_FORMAT:
			if (parse_format(&cli, optarg) != 0)
				return LX_EXIT_ERROR;
			break;
		case OPT_NO_COLOR: cli.color = false, cli.no_color = true; break;
		case OPT_COMPACT:
			cli.compact = true;
			cli.given |= CLI_OPT_FORMAT; /* where --format is taken */
			break;
		case OPT_FIRMWARE_DIR: cli.scan_paths.firmware = optarg; break;
		case OPT_BOOT_DIR: cli.scan_paths.boot = optarg; break;
		case OPT_RUN_DIR: cli.scan_paths.run = optarg; break;
		case OPT_PROC_DIR: cli.scan_paths.proc = optarg; proc_dir_given = true; break;
		case OPT_DEV_DIR: cli.scan_paths.dev = optarg; break;
		case OPT_KMSG:
			cli.kmsg_file = optarg;
			cli.given |= CLI_OPT_KMSG;
			break;
		case OPT_PROBE:
			cli.probe = true;
			cli.given |= CLI_OPT_PROBE;
			break;
		case OPT_PROBE_TIMEOUT: {
			long long v;
			if (!lx_parse_int(optarg, 1, 3600, &v))
				return cli_usage_error("--probe-timeout takes seconds (1..3600), not '%s'", optarg);
			cli.probe_timeout_s = (int)v;
			cli.given |= CLI_OPT_PROBE;
			break;
		}
		case OPT_SYS_DIR: cli.scan_paths.sys = optarg; break;
		case OPT_LOAD_MODULES:
			cli.load_modules = true;
			cli.given |= CLI_OPT_LOAD_MODULES;
			break;
		case OPT_ALL_MIG:
			cli.all_mig = true;
			cli.given |= CLI_OPT_ALL_MIG;
			break;
		case OPT_MIG_UUIDS:
			cli.mig_uuids = true;
			cli.given |= CLI_OPT_MIG_UUIDS;
			break;
		case 'o':
			cli.output = optarg;
			cli.given |= CLI_OPT_OUTPUT;
			break;
		case OPT_GPUS:
		case OPT_STYLE:
		case OPT_CAPS:
		case OPT_DRI:
		case OPT_MIG_CONFIG:
		case OPT_MIG_MONITOR:
		case OPT_DEV_START:
		case OPT_MODE:
		case OPT_UID:
		case OPT_GID:
		case OPT_CGROUP:
			if (parse_plan_option(&cli, c, optarg) != 0)
				return LX_EXIT_ERROR;
			break;
		case OPT_PRIVILEGED:
		case OPT_UNPRIVILEGED:
			if (cli.privilege_given && cli.plan.unprivileged != (c == OPT_UNPRIVILEGED))
				return cli_usage_error("--privileged and --unprivileged contradict each other");
			cli.plan.unprivileged = c == OPT_UNPRIVILEGED;
			cli.privilege_given = true;
			cli.given |= CLI_OPT_PRIVILEGE;
			break;
		case OPT_TEMPLATES:
			cli.templates_dir = optarg;
			cli.given |= CLI_OPT_TEMPLATES;
			break;
		case OPT_DRY_RUN:
			cli.dry_run = true;
			cli.given |= CLI_OPT_DRY_RUN;
			break;
		case OPT_FORCE:
			cli.force = true;
			cli.given |= CLI_OPT_APPLY;
			break;
		case OPT_ALLOW_PRIVILEGE_CHANGE:
			cli.allow_privilege_change = true;
			cli.given |= CLI_OPT_PRIVILEGE_CHANGE;
			break;
		case OPT_LOCK_TIMEOUT: {
			unsigned long long v;
			if (!lx_parse_uint(optarg, 10, 3600, &v))
				return cli_usage_error("--lock-timeout '%s': use seconds (0 to 3600)", optarg);
			cli.lock_timeout_s = (int)v;
			cli.given |= CLI_OPT_APPLY;
			break;
		}
		case OPT_BACKUP_DIR:
			cli.backup_dir = optarg;
			cli.given |= CLI_OPT_BACKUP_DIR;
			break;
		case OPT_CGROUP_ROOT: cli.cgroup_root = optarg; break;
		case OPT_STATE_DIR: cli.state_dir = optarg; break;
		case OPT_SUBID_ROOT: cli.subid_root = optarg; subid_root_given = true; break;
		case OPT_DRIVER_ROOT:
			cli.driver_root = optarg;
			cli.driver_root_given = true;
			break;
		case OPT_OPTIONAL:
			cli.hook_optional = true;
			cli.given |= CLI_OPT_HOOK;
			break;
		case OPT_DRIVER_LIBS:
			cli.driver_libs = true;
			cli.given |= CLI_OPT_PLAN; /* one of generate's options, which apply takes */
			break;
		case OPT_NEXT_BOOT:
			cli.next_boot = true;
			cli.given |= CLI_OPT_PREFLIGHT;
			break;
		case OPT_KERNEL:
			cli.kernel = optarg;
			cli.given |= CLI_OPT_PREFLIGHT;
			break;
		case OPT_ROOT:
			cli.root_dir = optarg;
			cli.given |= CLI_OPT_PREFLIGHT;
			break;
		case OPT_PRINT_BOOT_UNIT:
			cli.print_boot_unit = true;
			cli.given |= CLI_OPT_BOOT_UNIT;
			break;
		case OPT_CLUSTER:
			cli.cluster = true;
			cli.given |= CLI_OPT_AUDIT;
			break;
		case OPT_HOSTS:
			cli.hosts_dir = optarg;
			cli.given |= CLI_OPT_HOSTS;
			break;
		case OPT_NODE:
			cli.node_name = optarg;
			cli.given |= CLI_OPT_NODE;
			break;
		case OPT_TO:
			cli.migrate_to = optarg;
			cli.given |= CLI_OPT_TO;
			break;
		case OPT_EXCLUSIVE:
			cli.exclusive = true;
			cli.given |= CLI_OPT_EXCLUSIVE;
			break;
		case OPT_LIVE:
			cli.live = true;
			cli.given |= CLI_OPT_LIVE;
			break;
		case OPT_LOCK_DIR:
			cli.lock_dir = optarg;
			cli.given |= CLI_OPT_APPLY;
			break;
		case OPT_NO_COMMENTS:
			cli.no_comments = true;
			cli.given |= CLI_OPT_NO_COMMENTS;
			break;
		case OPT_COMMENTS:
			cli.comments = true;
			cli.given |= CLI_OPT_COMMENTS;
			break;
		case OPT_P2P:
			cli.p2p = true;
			cli.given |= CLI_OPT_P2P;
			break;
		case OPT_CONTAINERS:
			cli.containers = true;
			cli.given |= CLI_OPT_PICTURE;
			break;
		case OPT_KEEP: {
			unsigned long long v;
			if (!lx_parse_uint(optarg, 10, 100000, &v) || v == 0)
				return cli_usage_error("--keep '%s': how many backups to keep per container "
						       "(1 or more)", optarg);
			cli.keep_backups = (int)v;
			cli.given |= CLI_OPT_BACKUP_DIR;
			break;
		}
		case OPT_LIST:
			cli.list = true;
			cli.given |= CLI_OPT_LIST;
			break;
		case 'q': cli.verbosity = -1; break;
		case 'v': cli.verbosity++; break;
		case 'h': want_help = true; break;
		case 'V': want_version = true; break;
		case ':':
			return cli_usage_error("option '%s' needs a value; see 'lxgpu help'",
					       argv[optind - 1]);
		default:
			if (optopt)
				return cli_usage_error("unknown option '-%c'; see 'lxgpu help'", optopt);
			return unknown_option(argv[optind - 1]);
		}
	}
	if (want_version) {
		printf("lxgpu %s\n", LXGPU_VERSION);
		return cli_output_end(&cli, LX_EXIT_OK);
	}
	if (optind >= argc) {
		if (want_help) {
			print_main_help(stdout);
			return cli_output_end(&cli, LX_EXIT_OK);
		}
		print_main_help(stderr);
		return LX_EXIT_ERROR;
	}
	const char *name = argv[optind];
	if (strcmp(name, "help") == 0) {
		if (optind + 1 >= argc) {
			print_main_help(stdout);
			return cli_output_end(&cli, LX_EXIT_OK);
		}
		const struct cli_command *cmd = find_command(argv[optind + 1]);
		if (!cmd)
			return unknown_command(argv[optind + 1]);
		print_command_help(cmd);
		return cli_output_end(&cli, LX_EXIT_OK);
	}
	const struct cli_command *cmd = find_command(name);
	if (!cmd)
		return unknown_command(name);
	if (want_help) {
		print_command_help(cmd);
		return cli_output_end(&cli, LX_EXIT_OK);
	}
	unsigned unsupported = cli.given & ~cmd->options;
	if (unsupported)
		return cli_usage_error("'%s' does not take %s; see 'lxgpu %s --help'", cmd->name,
				       option_name(unsupported & -unsupported), cmd->name);
	if (cli.compact && cli.format != CLI_FORMAT_JSON)
		return cli_usage_error("--compact is for --format json");
	/* The id ranges the host's shadow tools allow are this machine's: a
	 * snapshot of another host says nothing about them. */
	if (!subid_root_given)
		cli.subid_root = cli.host_file ? NULL : "/";
	/* nvidia-smi (the MIG UUIDs) answers for the live driver: not for a
	 * stand-in --proc-dir, unless --driver-root names its userspace. */
	cli.scan_paths.tools = !wants_mig_uuids(&cli) ? NULL
			       : cli.driver_root_given     ? cli.driver_root
			       : proc_dir_given            ? NULL
							   : "/";
	/* The LXC and pve-container versions dpkg has: this machine's, not a
	 * stand-in --proc-dir's, unless --subid-root names that host's root. */
	cli.scan_paths.packages = proc_dir_given && !subid_root_given ? NULL : cli.subid_root;
	if (check_dir("--pve-dir", cli.pve_dir, pve_dir_given) < 0 ||
	    check_dir("--lxc-path", cli.lxc_path, lxc_path_given) < 0 ||
	    check_dir("--subid-root", cli.subid_root, subid_root_given) < 0)
		return LX_EXIT_ERROR;
	cli.args = argv + optind + 1;
	cli.n_args = argc - optind - 1;
	int rc = cli_output_begin(&cli, cmd);
	if (rc != 0)
		return rc;
	cli.wrap_width = cli_terminal_width(STDOUT_FILENO); /* -o FILE is not a terminal */
	return cli_output_end(&cli, cmd->run(&cli));
}
