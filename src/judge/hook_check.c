/* Findings about the driver userspace hook (lxgpu hook as lxc.hook.mount,
 * written by apply --driver-libs): a line LXC cannot run, a hook with
 * nothing to give, a container that keeps its own copy of the driver. */
#include "lxgpu/inject.h"
#include "lxgpu/userspace.h"
#include "lxgpu/judge.h"

#include <string.h>
#include <unistd.h>

static const struct lx_conf_line *line_at(const struct lx_container_config *cc, long i)
{
	return i >= 0 ? &cc->conf->lines[i] : NULL;
}

void lx_verify_hook(const struct lx_host *host, const struct lx_container_config *cc, int root_fd,
		    struct lx_findings *out)
{
	struct lx_hook_line h;
	long at = lx_conf_find_hook(cc->conf, &h);
	const struct lx_conf_line *l = line_at(cc, at);
	if (l) {
		/* LXC runs it through sh -c "exec ..." before the container's root
		 * is pivoted to, so a host path: one that is not there is exit 127
		 * and the start fails. */
		if (h.binary[0] != '/' || access(h.binary, X_OK) != 0)
			lx_findings_add(out, LXG045_HOOK_BINARY_MISSING, cc->id, cc->conf->path,
					l->lineno, NULL,
					lx_xasprintf("the lxc.hook.mount line runs %s, which %s: LXC runs it "
						     "at every start and the start fails",
						     h.binary, h.binary[0] != '/' ? "is not an absolute path"
									  : "is not an executable file"),
					lx_xasprintf("by hand: remove line %d (apply keeps a hook line it "
						     "did not write as it is), then `lxgpu apply %s "
						     "--driver-libs`; or correct its path to the installed "
						     "lxgpu",
						     l->lineno, cc->id));
		struct lx_error err = {0};
		struct lx_driver_files files = {0};
		int rc = host->driver.version
				 ? lx_driver_files_find(h.driver_root, host->driver.version, &files, &err)
				 : lx_error_set(&err, "the nvidia kernel module is not loaded");
		if (rc < 0) {
			lx_findings_add(out, LXG046_HOOK_NO_USERSPACE, cc->id, cc->conf->path, l->lineno,
					NULL,
					lx_xasprintf("lxgpu hook has nothing to give the container: %s; %s",
						     err.message,
						     h.optional ? "with --optional the container starts "
								  "without the host's driver userspace"
								: "the hook refuses the start"),
					lx_xasprintf("install the userspace driver of %s on the host (the "
						     "version the loaded module has)",
						     host->driver.version ? host->driver.version
									  : "the loaded module"));
			if (h.optional)
				lx_findings_last_severity(out, LX_SEVERITY_WARNING);
		}
		lx_error_clear(&err);
		lx_driver_files_free(&files);
		lx_hook_line_free(&h);
		return;
	}
	/* No hook: a copy of the driver in the root works only until the
	 * host's driver changes (another version is LXG011). */
	if (root_fd < 0 || !host->driver.version || cc->n_grants == 0)
		return;
	struct lx_strv versions = {0}, files = {0};
	lx_rootfs_driver_versions(root_fd, &versions, &files);
	if (lx_strv_contains(&versions, host->driver.version))
		lx_findings_add(out, LXG047_OWN_DRIVER_COPY, cc->id, NULL, 0, NULL,
				lx_xasprintf("the container has its own copy of the driver userspace "
					     "(%s, the loaded module's version): the next host driver "
					     "update makes it a mismatch (\"NVML: Driver/library version "
					     "mismatch\") until it is reinstalled in the container",
					     host->driver.version),
				lx_xasprintf("give it the host's driver files of the loaded version at "
					     "every start: `lxgpu apply %s --driver-libs`", cc->id));
	lx_strv_free(&versions);
	lx_strv_free(&files);
}
