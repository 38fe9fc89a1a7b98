/* lxgpu hook: LXC's mount hook that gives the container the host's driver
 * userspace of the loaded module's version at every start. */
#include "cli.h"

#include <syslog.h>
#include "build-config.h"
#include "lxgpu/inject.h"

#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

/* LXC calls the hook as `VALUE NAME SECTION TYPE` (lxc.hook.version 0, the
 * default) or with LXC_HOOK_TYPE/LXC_HOOK_SECTION set and no arguments
 * (version 1); either way the type must be "mount". */
static int check_called_as_mount_hook(const struct cli *cli)
{
	const char *version = getenv("LXC_HOOK_VERSION");
	const char *type = NULL;
	if (version && strcmp(version, "1") == 0) {
		if (cli->n_args > 0)
			return cli_usage_error("hook: lxc.hook.version 1 passes no arguments (got '%s')",
					       cli->args[0]);
		type = getenv("LXC_HOOK_TYPE");
	} else if (cli->n_args == 3) {
		type = cli->args[2];
	} else if (cli->n_args != 0) {
		return cli_usage_error("hook: LXC passes NAME SECTION TYPE; got %d arguments",
				       cli->n_args);
	}
	if (type && strcmp(type, "mount") != 0)
		return cli_usage_error("hook: lxgpu hook is a mount hook (lxc.hook.mount), not "
				       "lxc.hook.%s: the container's root is only ready then", type);
	return 0;
}

/* What the hook noticed on the way (the last start's list it could not
 * read, say), whether it went on or not. */
static void print_notes(const struct cli *cli, const struct lx_inject_result *r)
{
	for (size_t i = 0; i < r->notes.n; i++)
		cli_note(cli, "%s", r->notes.items[i]);
}

static int run_hook(struct cli *cli)
{
	if (check_called_as_mount_hook(cli) != 0)
		return LX_EXIT_ERROR;
	const char *rootfs = getenv("LXC_ROOTFS_MOUNT");
	if (!rootfs || !*rootfs)
		return cli_usage_error("hook: LXC_ROOTFS_MOUNT is not set; lxgpu hook is run by LXC "
				       "as lxc.hook.mount (see lxgpu generate --driver-libs)");
	const char *name = getenv("LXC_NAME");
	struct lx_inject_options o = {
		.rootfs = rootfs,
		.proc_dir = cli->scan_paths.proc,
		.driver_root = cli->driver_root,
	};
	struct lx_inject_result r;
	struct lx_error err = {0};
	int rc = lx_inject_driver(&o, &r, &err);
	print_notes(cli, &r);
	if (rc < 0 && r.no_driver && cli->hook_optional) {
		cli_warn(cli, "container %s starts without the host's driver userspace (hook --optional): %s",
			 name ? name : "?", err.message);
		lx_error_clear(&err);
		lx_inject_result_free(&r);
		return LX_EXIT_OK;
	}
	if (rc < 0) {
		lx_error_prefix(&err, "hook for container %s", name ? name : "?");
		lx_inject_result_free(&r);
		/* LXC logs a hook's output at DEBUG only: Proxmox shows just "Script
		 * exited with status 2", so the reason goes to the journal too. */
		_cleanup_free_ char *sock = lx_path_join(cli->scan_paths.dev, "log");
		_cleanup_free_ char *msg = lx_xasprintf("%s; the start is refused", err.message);
		struct lx_error jerr = {0};
		if (lx_journal_send(sock, LOG_ERR, "lxgpu-hook", msg, &jerr) < 0)
			lx_error_clear(&jerr);
		cli_fail(&err);
		fprintf(stderr, "lxgpu: the start is refused; `lxgpu hook --optional` in the "
				"lxc.hook.mount line lets it go on without the driver\n");
		return LX_EXIT_ERROR;
	}
	/* stdout and stderr go to LXC's log, at DEBUG (lxc-start -l DEBUG). */
	printf("lxgpu hook: driver %s into %s (%zu files, libraries in %s)\n", r.version, rootfs,
	       r.mounted.n, r.lib_dir);
	if (cli->verbosity > 0) {
		for (size_t i = 0; i < r.mounted.n; i++)
			printf("  mount %s\n", r.mounted.items[i]);
		for (size_t i = 0; i < r.links.n; i++)
			printf("  link %s\n", r.links.items[i]);
	}
	lx_inject_result_free(&r);
	return fflush(stdout) == 0 ? LX_EXIT_OK : LX_EXIT_ERROR;
}

const struct cli_command cli_cmd_hook = {
	.name = "hook",
	.summary = "LXC mount hook: the host's driver userspace into the container",
	.usage = "Usage: lxc.hook.mount = /usr/bin/lxgpu [--driver-root DIR] [--proc-dir DIR]\n"
		 "                        hook [--optional]\n"
		 "\n"
		 "Run by LXC at every start (lxgpu generate/apply --driver-libs writes the line).\n"
		 "Reads the loaded module's version from PROC/driver/nvidia/version, finds the\n"
		 "host's driver libraries and tools of exactly that version under the driver\n"
		 "root (its ld.so.cache, else the standard library dirs), and mounts them\n"
		 "read-only into the container's root (LXC_ROOTFS_MOUNT) over its own copy:\n"
		 "libraries in the dir of its libc.so.6, tools in /usr/bin, each soname\n"
		 "(libcuda.so.1) reaching the host's file. Then rebuilds the container's\n"
		 "/etc/ld.so.cache with the host's static ldconfig confined to the root (new\n"
		 "namespaces, no /proc or /sys, limits, seccomp; docs/driver-libs.md). The\n"
		 "container's own copy is shadowed, not changed; what the hook had to make\n"
		 "is taken back at the next start. Every target is resolved inside the\n"
		 "container's root; nothing is mounted through a link out of it.\n"
		 "\n"
		 "  --optional   when the module is not loaded or the host has no userspace of\n"
		 "               its version, warn and let the start go on (default: refuse it)\n",
	.options = CLI_OPT_HOOK,
	.run = run_hook,
};

/* The binary the hook line runs: the installed lxgpu when there is one,
 * else this very binary (a build tree's, say), so the line works here;
 * *installed says which. */
static char *hook_binary(bool *installed)
{
	_cleanup_free_ char *path = lx_path_join(LXGPU_BINDIR, "lxgpu");
	char self[4096];
	*installed = access(path, X_OK) == 0;
	ssize_t n = *installed ? -1 : readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return lx_xstrdup(path);
	self[n] = '\0';
	return lx_xstrdup(self);
}

int cli_driver_libs_options(const struct cli *cli, bool with_files, struct lx_driver_libs_options *o,
			    struct lx_error *err)
{
	*o = (struct lx_driver_libs_options){0};
	if (!cli->driver_libs)
		return 0;
	o->enabled = true;
	bool installed;
	o->binary = hook_binary(&installed);
	/* A build tree moves or goes: LXC then fails every start (LXG045). */
	if (!installed)
		cli_warn(cli, "the hook line runs %s: no lxgpu is installed at %s/lxgpu; install "
			 "lxgpu (the .deb, or meson install) and run this again, or the "
			 "container stops starting once this binary is moved or removed",
			 o->binary, LXGPU_BINDIR);
	o->driver_root = cli->driver_root_given ? cli->driver_root : NULL;
	o->proc_dir = strcmp(cli->scan_paths.proc, "/proc") != 0 ? cli->scan_paths.proc : NULL;
	/* The nested container's root is not known here: the architecture's
	 * multiarch dir, which the spec's createContainer hook puts first in
	 * its loader cache. */
	o->lib_dir = lx_container_lib_dir(-1);
	if (with_files &&
	    lx_driver_libs_files(cli->scan_paths.proc, cli->driver_root, o->lib_dir, o, err) < 0) {
		cli_driver_libs_options_free(o);
		return -1;
	}
	return 0;
}

void cli_driver_libs_options_free(struct lx_driver_libs_options *o)
{
	lx_driver_libs_files_free(o);
	free((char *)o->binary);
	*o = (struct lx_driver_libs_options){0};
}

/* lxgpu oci-hook update-ldcache DIR...: the createContainer hook of the CDI
 * spec generate --style cdi --driver-libs writes, run by a runtime nested
 * in the container (podman, docker with CDI) with the OCI state on stdin. */
static int run_oci_hook(struct cli *cli)
{
	if (cli->n_args < 2 || strcmp(cli->args[0], "update-ldcache") != 0)
		return cli_usage_error("oci-hook: use 'oci-hook update-ldcache DIR...' (as the CDI "
				       "spec of 'lxgpu generate --style cdi --driver-libs' does)");
	struct lx_buf in = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0 && in.len < (1u << 20))
		lx_buf_append(&in, chunk, n);
	struct lx_error err = {0};
	_cleanup_free_ char *rootfs = NULL;
	int rc = ferror(stdin) ? lx_error_set(&err, "cannot read the OCI state on stdin")
			       : lx_oci_rootfs(in.data ? in.data : "", in.len, &rootfs, &err);
	lx_buf_free(&in);
	const char **dirs = lx_xcalloc((size_t)cli->n_args, sizeof(*dirs));
	for (int i = 1; i < cli->n_args; i++)
		dirs[i - 1] = cli->args[i];
	if (rc == 0)
		rc = lx_ldcache_update(rootfs, dirs, &err);
	free(dirs);
	return rc < 0 ? cli_fail(&err) : LX_EXIT_OK;
}

const struct cli_command cli_cmd_oci_hook = {
	.name = "oci-hook",
	.summary = "CDI createContainer hook: the nested container's loader cache",
	.usage = "Usage: lxgpu oci-hook update-ldcache DIR...\n"
		 "\n"
		 "Run by a container runtime inside the LXC container (Podman, Docker with CDI)\n"
		 "as the createContainer hook of the spec 'lxgpu generate --style cdi\n"
		 "--driver-libs' writes, with the OCI state on stdin: rebuilds the nested\n"
		 "container's /etc/ld.so.cache with this system's static ldconfig confined to\n"
		 "its root (bundle/config.json root.path), DIR first, soname links made.\n"
		 "lxgpu must be installed where the spec's hook path says, inside the LXC\n"
		 "container.\n",
	.options = 0,
	.run = run_oci_hook,
};
