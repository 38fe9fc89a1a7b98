/* generate's and apply's side of the library's decisions, and the record
 * apply and rollback leave. */
#include "cli.h"
#include "lxgpu/audit.h"
#include "lxgpu/config.h"
#include "lxgpu/guard.h"
#include "lxgpu/judge.h"
#include "lxgpu/observe.h"
#include "lxgpu/reconcile.h"
#include "lxgpu/record.h"

#include <unistd.h>

struct lx_apply_given cli_apply_given(const struct cli *cli)
{
	return (struct lx_apply_given){
		.gpus = cli->given & CLI_OPT_GPUS,
		.style = cli->style_given,
		.privilege = cli->privilege_given,
		.allow_privilege_change = cli->allow_privilege_change,
		.force = cli->force,
	};
}

int cli_refused(struct lx_refusal *why)
{
	/* One line: the message, then the fix, as each has always read; the
	 * refusals of a change say that nothing was written. */
	switch (why->kind) {
	case LX_REFUSAL_INVALID_LINE:
		fprintf(stderr, "lxgpu: %s; %s (nothing was written)\n", why->message, why->fix);
		break;
	case LX_REFUSAL_LOCKED:
		fprintf(stderr, "lxgpu: %s %s; nothing was written\n", why->message, why->fix);
		break;
	case LX_REFUSAL_PRIVILEGE_FLIP:
		fprintf(stderr, "lxgpu: %s %s\n", why->message, why->fix);
		break;
	case LX_REFUSAL_NO_GPUS:
		fprintf(stderr, "lxgpu: %s: %s\n", why->message, why->fix);
		break;
	case LX_REFUSAL_LOSES_NODES:
		fprintf(stderr, "lxgpu: %s; nothing was written (%s)\n", why->message, why->fix);
		break;
	case LX_REFUSAL_NOT_LIVE:
	case LX_REFUSAL_WOULD_NOT_START:
		fprintf(stderr, "lxgpu: %s; nothing was written (%s)\n", why->message, why->fix);
		break;
	case LX_REFUSAL_INCLUDE_NOT_OURS:
		fprintf(stderr, "lxgpu: %s: %s; nothing was written\n", why->message, why->fix);
		break;
	case LX_REFUSAL_GPU_IN_VM:
		fprintf(stderr, "lxgpu: %s (%s): %s; nothing was written\n", why->message,
			lx_finding_info(why->code)->code, why->fix);
		break;
	case LX_REFUSAL_NONE:
	case LX_REFUSAL_PVE_STYLE:
	case LX_REFUSAL_LXC_IDMAP:
		fprintf(stderr, "lxgpu: %s; %s\n", why->message, why->fix);
		break;
	}
	lx_refusal_free(why);
	return LX_EXIT_ERROR;
}

int cli_store_record(const struct cli *cli, const struct lx_host *host, const char *id,
		     const char *path, bool is_pve, const char *text, size_t len, const char *style,
		     int exclusive, struct lx_error *err)
{
	struct lx_conf conf;
	lx_conf_parse(path, text, len, &conf);
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (cli->lxc_config_dir)
		aopts.lxc_config_dir = cli->lxc_config_dir;
	struct lx_record rec;
	bool has_gpus;
	int rc = lx_record_from_config(host, id, &conf, is_pve, &aopts, style, &rec, &has_gpus, err);
	lx_conf_free(&conf);
	if (rc == 0)
		rc = lx_record_replace(cli->state_dir, id, has_gpus ? &rec : NULL, exclusive, err);
	if (has_gpus)
		lx_record_free(&rec);
	if (rc < 0)
		return lx_error_prefix(err, "%s was written, but the start guard's record was not", path);
	cli_verbose(cli, "CT %s: %s %s/containers/%s.yaml", id, has_gpus ? "recorded its GPUs in" :
		    "no GPUs: removed", cli->state_dir, id);
	return 0;
}

int cli_record_gpus(const struct cli *cli, const struct lx_host *host, const char *id,
		    const char *path, bool is_pve, const char *text, size_t len, const char *style,
		    int exclusive)
{
	struct lx_error err = {0};
	if (cli_store_record(cli, host, id, path, is_pve, text, len, style, exclusive, &err) < 0)
		return cli_fail(&err);
	return 0;
}

void cli_read_vms(const struct cli *cli, const struct lx_host *host, struct lx_vm_devices *vms)
{
	_cleanup_free_ char *qemu_dir = lx_path_join(cli->pve_dir, "qemu-server");
	_cleanup_free_ char *mapping = lx_path_join(cli->pve_dir, "mapping/pci.cfg");
	/* A mapping's map line is per PVE node: the node audit names. */
	_cleanup_free_ char *node = lx_audit_local_node(cli->pve_dir, host);
	lx_vm_devices_read_mapped(qemu_dir, mapping, node, vms);
	for (size_t i = 0; i < vms->unreadable.n; i++)
		cli_warn(cli, "a VM config cannot be read, so whether that VM passes a GPU through is "
			      "not known: %s",
			 vms->unreadable.items[i]);
}

/* An unprivileged container whose idmap leaves its render gid out: a devN
 * node with that gid shows as nogroup inside (PVE maps it as it can). */
static void warn_unmapped_gid(const struct cli *cli, const struct lx_host *host, const char *id,
			      const struct lx_conf *conf, long long gid)
{
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (cli->lxc_config_dir)
		aopts.lxc_config_dir = cli->lxc_config_dir;
	struct lx_access a;
	struct lx_error err = {0};
	if (lx_access_compute(host, conf, true, &aopts, &a, &err) < 0) {
		lx_error_clear(&err);
		return;
	}
	if (lx_access_devn_id_inside(&a, 'g', gid) != gid)
		cli_warn(cli,
			 "CT %s: its idmap does not map gid %lld (render in its /etc/group): Intel "
			 "and AMD GPU nodes given that gid show as nogroup inside; map it (lxc.idmap: "
			 "g %lld <host gid> 1, and the host's /etc/subgid)",
			 id, gid, gid);
	lx_access_free(&a);
}

void cli_container_groups(const struct cli *cli, const struct lx_host *host, const char *id,
			  const struct lx_conf *conf, struct lx_plan_options *opts, char **why)
{
	*why = NULL;
	opts->render_gid = opts->video_gid = -1;
	struct lx_runtime_paths paths = {.cgroup_root = cli->cgroup_root, .proc = "/proc",
					 .lxc_path = cli->lxc_path, .lxc_config_dir = cli->lxc_config_dir,
					 .pve_dir = cli->pve_dir};
	struct lx_running run;
	lx_container_find(&paths, LX_CGROUP_UNKNOWN, id, &run);
	_cleanup_free_ char *root_why = NULL;
	int root_fd = lx_container_open_root_why(&paths, id, conf, &run, &root_why);
	lx_running_free(&run);
	if (root_fd < 0) {
		*why = root_why ? lx_xasprintf("its root cannot be read: %s", root_why)
				: lx_xstrdup("its root cannot be read");
		opts->groups_why = *why;
		return;
	}
	_cleanup_free_ char *group_why = NULL;
	_cleanup_free_ char *group = lx_rootfs_read_group(root_fd, &group_why);
	close(root_fd);
	if (group) {
		opts->render_gid = lx_group_text_gid(group, "render");
		opts->video_gid = lx_group_text_gid(group, "video");
	}
	if (opts->render_gid < 0 || opts->video_gid < 0)
		*why = group ? lx_xasprintf("its /etc/group has no '%s' group",
					    opts->render_gid < 0 ? "render" : "video")
			     : lx_xasprintf("its /etc/group cannot be read (%s)", group_why);
	opts->groups_why = *why;
	if (opts->unprivileged && opts->render_gid >= 0)
		warn_unmapped_gid(cli, host, id, conf, opts->render_gid);
}
