/* lxgpu generate: print the config lines for a container. */
#include "cli.h"
#include "build-config.h"
#include "lxgpu/config.h"
#include "lxgpu/incfile.h"
#include "lxgpu/reconcile.h"
#include "lxgpu/render.h"

#include <string.h>

/* Learn what the container's config says (generate only reads it). */
static int read_container(struct cli *cli, const struct lx_host *host, const char *id,
			  struct lx_plan_options *opts, bool *is_pve_out, char **groups_why)
{
	struct lx_error err = {0};
	_cleanup_free_ char *path = NULL;
	bool is_pve = false;
	struct lx_conf conf;
	if (lx_conf_find(cli->pve_dir, cli->lxc_path, id, &path, &is_pve, &err) < 0 ||
	    lx_conf_load(path, &conf, &err) < 0)
		return cli_fail(&err);
	struct lx_apply_given given = cli_apply_given(cli);
	struct lx_refusal why = {0};
	bool go_on = lx_plan_options_for_container(host, &conf, is_pve, &given, opts, &why);
	if (go_on)
		cli_container_groups(cli, host, id, &conf, opts, groups_why);
	lx_conf_free(&conf);
	*is_pve_out = is_pve;
	return go_on ? 0 : cli_refused(&why);
}

/* --style include: the one config line, then the include file's text. */
static int print_include(const struct cli *cli, const struct lx_host *host,
			 const struct lx_plan_options *opts, bool is_pve,
			 const struct lx_driver_libs_options *driver_libs, struct lx_error *err)
{
	/* Without --gpus generate gives every GPU, as the other styles do; the
	 * include file itself has no "all" (it is rendered from a record), so
	 * name the selection, and apply (which needs one for a container
	 * without GPUs) is told it too. */
	struct lx_plan_options sel = *opts;
	if (!sel.gpus || !*sel.gpus)
		sel.gpus = "all";
	_cleanup_free_ char *text = NULL;
	if (lx_incfile_render(host, &sel, &text, err) < 0)
		return -1;
	struct lx_buf apply = {0};
	lx_buf_printf(&apply, "lxgpu apply %s --style include --gpus ", cli->args[0]);
	lx_buf_shell_word(&apply, sel.gpus);
	_cleanup_free_ char *path = lx_incfile_path(cli->state_dir, cli->args[0]);
	_cleanup_free_ char *line = lx_incfile_config_line(path, is_pve);
	_cleanup_free_ char *hook = NULL;
	if (driver_libs->enabled) {
		/* The hook line goes into the container's config, not the file. */
		struct lx_hook_line h = {.binary = (char *)driver_libs->binary,
					 .driver_root = (char *)driver_libs->driver_root,
					 .proc_dir = (char *)driver_libs->proc_dir};
		hook = lx_hook_config_line(&h, is_pve);
	}
	if (cli->no_comments) {
		/* Only what is pasted into the config: the file is apply's to write. */
		printf("%s\n%s%s", line, hook ? hook : "", hook ? "\n" : "");
		lx_buf_free(&apply);
		return 0;
	}
	printf("# lxgpu %s generate: style include. The container's config gets this one line;\n"
	       "# its GPU rules and mounts go into %s, which\n"
	       "# '%s' writes and 'lxgpu ensure-nodes' rewrites at\n"
	       "# every boot with that boot's device numbers.\n"
	       "%s\n"
	       "# ---- %s ----\n"
	       "%s",
	       LXGPU_VERSION, path, apply.data, line, path, text);
	lx_buf_free(&apply);
	if (hook)
		printf("# ---- and in the container's config (--driver-libs) ----\n%s\n", hook);
	return 0;
}

/* On a terminal, the '#' lines wrapped at its width, each piece a '#' line
 * too; the config lines as they are (they are pasted whole). */
static char *comments_wrapped(const char *text, size_t width)
{
	struct lx_buf b = {0};
	lx_buf_puts(&b, "");
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, n);
		if (width > 2 && lx_str_starts_with(line, "# ")) {
			_cleanup_free_ char *wrapped = lx_text_wrap(line + 2, width - 2, 0);
			for (const char *q = wrapped; *q;) {
				size_t m = strcspn(q, "\n");
				lx_buf_printf(&b, "# %.*s\n", (int)m, q);
				q += m + (q[m] == '\n');
			}
		} else {
			lx_buf_printf(&b, "%s\n", line);
		}
		p += n + (p[n] == '\n');
	}
	return lx_buf_steal(&b);
}

static int run_generate(struct cli *cli)
{
	if (cli->n_args > 1)
		return cli_usage_error("generate takes at most one container id (got '%s')",
				       cli->args[1]);
	if (cli->comments && cli->no_comments)
		return cli_usage_error("--comments and --no-comments: give one");
	/* The '#' lines are for a person at a terminal: pasted or written into
	 * a config (-o, a pipe) Proxmox would keep them as the CT's Notes. */
	if (!cli->comments && cli->wrap_width == 0)
		cli->no_comments = true;
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	struct lx_plan_options opts = cli->plan;
	bool is_pve = true;
	if (opts.style == LX_STYLE_INCLUDE && cli->n_args == 0) {
		lx_host_free(&host);
		return cli_usage_error("--style include needs the container id: the include file is "
				       "per container (<state-dir>/lxc/CTID.conf)");
	}
	const char *assumed = NULL;
	if (cli->n_args == 0 && !cli->privilege_given) {
		/* No config to read it from: the default of the container's
		 * maker. pct create makes a new container unprivileged unless
		 * told (pve-container, API2/LXC.pm); plain LXC runs one
		 * privileged unless its config maps ids (lxc.idmap). */
		opts.unprivileged = opts.style != LX_STYLE_LXC;
		assumed = opts.unprivileged
				  ? "Proxmox's default for a new container; --privileged if yours is not"
				  : "LXC's without lxc.idmap; --unprivileged if yours maps ids";
	}
	_cleanup_free_ char *groups_why = NULL;
	if (cli->n_args == 1) {
		int rc = read_container(cli, &host, cli->args[0], &opts, &is_pve, &groups_why);
		if (rc != 0) {
			lx_host_free(&host);
			return rc;
		}
	}
	struct lx_error err = {0};
	struct lx_plan plan;
	if (lx_plan_build(&host, &opts, &plan, &err) < 0) {
		lx_host_free(&host);
		return cli_fail(&err);
	}
	struct lx_render_options ropts = {.templates_dir = cli->templates_dir,
					  .version = LXGPU_VERSION,
					  .no_comments = cli->no_comments,
					  .privilege_assumed = assumed};
	struct lx_driver_libs_options driver_libs;
	if (cli_driver_libs_options(cli, opts.style == LX_STYLE_CDI, &driver_libs, &err) < 0) {
		lx_plan_free(&plan);
		lx_host_free(&host);
		return cli_fail(&err);
	}
	ropts.driver_libs = &driver_libs;
	char *text = NULL;
	int rc = LX_EXIT_OK;
	if (opts.style == LX_STYLE_INCLUDE) {
		if (print_include(cli, &host, &opts, is_pve, &driver_libs, &err) < 0)
			rc = cli_fail(&err);
		else if (fflush(stdout) != 0)
			rc = LX_EXIT_ERROR;
		for (size_t i = 0; rc == 0 && i < plan.warnings.n; i++)
			cli_warn(cli, "%s", plan.warnings.items[i].message);
	} else if (lx_render_plan(&host, &plan, &ropts, &text, &err) < 0) {
		rc = cli_fail(&err);
	} else {
		_cleanup_free_ char *shown = comments_wrapped(text, cli->wrap_width);
		fputs(shown, stdout);
		for (size_t i = 0; i < plan.warnings.n; i++)
			cli_warn(cli, "%s", plan.warnings.items[i].message);
	}
	free(text);
	cli_driver_libs_options_free(&driver_libs);
	lx_plan_free(&plan);
	lx_host_free(&host);
	return rc;
}

const struct cli_command cli_cmd_generate = {
	.name = "generate",
	.summary = "print the config lines that give a container its GPUs",
	.usage =
		"Usage: lxgpu generate [CTID] [--gpus SEL] [--style devn|raw|lxc|cdi|include]\n"
		"                      [options]\n"
		"\n"
		"Print the lines that give a container the selected GPUs, from the host's current\n"
		"device nodes. With CTID, read its config (Proxmox <pve-dir>/lxc/CTID.conf, or\n"
		"plain LXC <lxc-path>/CTID/config) to learn whether it is unprivileged and which\n"
		"devN indexes other devices use. Output is deterministic: ready to paste, or for\n"
		"'lxgpu apply'.\n"
		"\n"
		"  --gpus SEL        all (default), indexes from 'lxgpu scan' (0,2), a PCI\n"
		"                    address (0000:41:00.0), GPU-<uuid>, numa:N, a MIG instance\n"
		"                    GPU:giX/ciY (0:gi1/ci0: its GPU node and its GI and CI caps\n"
		"                    nodes only)\n"
		"                    or its MIG UUID as nvidia-smi -L prints it;\n"
		"                    comma-separated; or best:N, the N closest GPUs\n"
		"                    ('lxgpu topo --gpus N')\n"
		"  --style STYLE     devn: PVE >= 8.1 devN lines (default; no major hard-coded)\n"
		"                    raw: lxc.cgroup2.devices.allow + lxc.mount.entry, PVE form\n"
		"                    lxc: the same as plain LXC 'key = value' lines\n"
		"                    cdi: a CDI spec for Docker/Podman inside the container\n"
		"                    include: one lxc.include line; the rules and mounts in\n"
		"                    <state-dir>/lxc/CTID.conf, rewritten by ensure-nodes at\n"
		"                    every boot (needs CTID; Proxmox and plain LXC)\n"
		"  --privileged      the container is privileged\n"
		"  --unprivileged    the container is unprivileged (without CTID the default,\n"
		"                    as pct create's; --style lxc: privileged, as LXC's)\n"
		"  --caps            add the MIG capability nodes of the selected GPUs (every\n"
		"                    instance: containers on one GPU are not isolated)\n"
		"  --mig-config      add mig/config's caps node (create and destroy instances)\n"
		"  --mig-monitor     add mig/monitor's caps node (see every instance)\n"
		"  --dri             add the DRM card and render nodes of the selected GPUs\n"
		"  --dev-start N     first devN index (default 0; indexes in use are skipped)\n"
		"  --mode MODE       node mode in the container (devn, cdi; default 0666)\n"
		"  --uid N, --gid N  node owner in the container (devn, cdi)\n"
		"  --cgroup v1|v2    cgroup keys to write (default: the host's; hybrid -> v1)\n"
		"  --driver-libs     also the lxc.hook.mount line that runs 'lxgpu hook' at every\n"
		"                    start (the host's driver libraries of the loaded version\n"
		"                    into the container; --driver-root/--proc-dir are passed on);\n"
		"                    cdi: the files as mounts and an ldcache hook\n"
		"  --templates DIR   use DIR/<style>.tmpl instead of the built-in templates\n"
		"  --no-comments     only the config lines: Proxmox keeps every '#' line of a CT\n"
		"                    config as the container's description (Notes); the default\n"
		"                    unless stdout is a terminal (-o FILE, a pipe)\n"
		"  --comments        the '#' lines also to a file or a pipe\n"
		"  -o FILE           write FILE atomically (an /etc/cdi spec, an include file)\n",
	.options = CLI_OPT_PLAN | CLI_OPT_GPUS | CLI_OPT_PRIVILEGE | CLI_OPT_TEMPLATES | CLI_OPT_OUTPUT |
		   CLI_OPT_NO_COMMENTS | CLI_OPT_COMMENTS,
	.run = run_generate,
};
