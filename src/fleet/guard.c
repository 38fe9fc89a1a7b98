/* The start guard's checks (include/lxgpu/guard.h, docs/guard.md).
 *
 * A refusal needs a change seen on this host: a recorded GPU that the
 * config no longer reaches because the driver numbered it differently, one
 * not bound to nvidia (vfio-pci) or gone, one a running VM or (exclusive
 * use) a running container holds, another card in its slot. Whatever the
 * guard cannot read is said (LXG035), and the start goes on. */
#include "lxgpu/audit.h"
#include "lxgpu/guard.h"
#include "lxgpu/observe.h"
#include "lxgpu/incfile.h"
#include "lxgpu/vm.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void lx_guard_report_free(struct lx_guard_report *r)
{
	free(r->why);
	free(r->apply_command);
	memset(r, 0, sizeof(*r));
}

struct guard {
	const struct lx_host *host;
	const char *id;
	bool is_pve;
	const struct lx_guard_paths *paths;
	const struct lx_record *rec;
	struct lx_findings *out;
	const char *fix; /* the apply command, then "pct start ID" (in backticks) */
};

static bool on_nvidia(const struct lx_gpu *g)
{
	return g->driver && strcmp(g->driver, "nvidia") == 0;
}

/* The GPU's DRM node names, "card1 renderD128", for messages. */
static char *drm_names(const struct lx_gpu *g)
{
	struct lx_buf b = {0};
	for (size_t d = 0; d < g->n_drm; d++)
		lx_buf_printf(&b, "%s/dev/dri/%s", d ? " and " : "", g->drm[d].name);
	return b.len ? lx_buf_steal(&b) : lx_xstrdup("no DRM node");
}

static void unchecked(struct guard *k, char *message)
{
	lx_findings_add(k->out, LXG035_GUARD_UNCHECKED, k->id, NULL, 0, NULL, message,
			lx_xasprintf("nothing blocks the start for this; once it runs, as root on "
				     "the host: `lxgpu verify %s`",
				     k->id));
}

static void refuse(struct guard *k, enum lx_finding_code code, const char *node, char *message,
		   const char *fix)
{
	lx_findings_add(k->out, code, k->id, NULL, 0, node, message,
			lx_xstrdup(fix ? fix : k->fix));
}

static char *start_command(const struct guard *k)
{
	return k->is_pve ? lx_xasprintf("`pct start %s`", k->id)
			 : lx_xasprintf("`lxc-start -n %s`", k->id);
}

/* The other container's own way to stop: Proxmox's when it has a config
 * there, else LXC's. */
static char *stop_command(const struct guard *k, const char *other)
{
	_cleanup_free_ char *conf = lx_xasprintf("%s/lxc/%s.conf", k->paths->pve_dir, other);
	struct stat st;
	return stat(conf, &st) == 0 ? lx_xasprintf("`pct shutdown %s`", other)
				    : lx_xasprintf("`lxc-stop -n %s`", other);
}

/* "lxgpu apply ID --gpus A,B [--exclusive]": the recorded GPUs where they
 * are now, so the config names each by the node it has today. A GPU that
 * is gone is left out (apply refuses an address with no GPU); NULL when
 * every recorded GPU is gone. */
static char *apply_command(const struct lx_host *host, const char *id, const struct lx_record *rec,
			   const struct lx_strv *migs)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < rec->n_gpus; i++) {
		const struct lx_gpu *g = lx_record_gpu_now(host, &rec->gpus[i]);
		if (!g)
			continue;
		/* A GPU given by MIG instances stays given by them: its bare
		 * address would give the whole GPU. */
		_cleanup_free_ char *prefix = lx_xasprintf("%s:gi", g->bdf);
		bool by_instance = false;
		for (size_t m = 0; m < migs->n; m++)
			if (lx_str_starts_with(migs->items[m], prefix)) {
				lx_buf_printf(&b, "%s%s", b.len ? "," : "", migs->items[m]);
				by_instance = true;
			}
		if (!by_instance)
			lx_buf_printf(&b, "%s%s", b.len ? "," : "", g->bdf);
	}
	if (!b.len)
		return NULL;
	_cleanup_free_ char *gpus = lx_buf_steal(&b);
	return lx_xasprintf("lxgpu apply %s --gpus %s%s", id, gpus,
			    rec->exclusive ? " --exclusive" : "");
}

/* ---- the GPU itself ---- */

static char *node_of(int minor)
{
	return minor >= 0 ? lx_xasprintf("/dev/nvidia%d", minor) : lx_xstrdup("/dev/nvidia?");
}

/* The config's GPUs that are not recorded: what it gives instead. */
static char *instead(const struct guard *k, const struct lx_current *cur)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < cur->bdfs.n; i++) {
		bool recorded = false;
		for (size_t r = 0; r < k->rec->n_gpus && !recorded; r++) {
			const struct lx_gpu *g = lx_record_gpu_now(k->host, &k->rec->gpus[r]);
			recorded = g && strcmp(g->bdf, cur->bdfs.items[i]) == 0;
		}
		if (recorded)
			continue;
		const struct lx_gpu *o = lx_host_find_gpu_by_bdf(k->host, cur->bdfs.items[i]);
		_cleanup_free_ char *node = node_of(o ? o->minor : -1);
		lx_buf_printf(&b, "%s%s, which is now %s%s%s%s", b.len ? "; " : "", node,
			      cur->bdfs.items[i], o && o->uuid ? " (" : "", o && o->uuid ? o->uuid : "",
			      o && o->uuid ? ")" : "");
	}
	return b.len ? lx_buf_steal(&b) : NULL;
}

/* An Intel or AMD GPU: its card/render nodes renumber when a card is
 * added or removed; the config's renderD* then names another GPU, or none. */
static void check_drm_nodes(struct guard *k, const struct lx_gpu *g, const struct lx_current *cur)
{
	if (lx_strv_contains(&cur->bdfs, g->bdf))
		return;
	_cleanup_free_ char *now = drm_names(g);
	struct lx_buf b = {0};
	for (size_t i = 0; i < cur->bdfs.n; i++)
		lx_buf_printf(&b, "%s%s", i ? ", " : "", cur->bdfs.items[i]);
	_cleanup_free_ char *node = g->n_drm ? lx_xasprintf("/dev/dri/%s", g->drm[0].name) : NULL;
	refuse(k, LXG030_GUARD_RENUMBERED, node,
	       lx_xasprintf("GPU %s (%s) is %s now, and the config gives none of them: its DRM nodes "
			    "were renumbered (a card added or removed)%s%s",
			    g->bdf, g->driver, now, b.len ? "; the config's nodes are GPU " : "",
			    b.len ? b.data : ""),
	       NULL);
	lx_buf_free(&b);
}

static void check_number(struct guard *k, const struct lx_record_gpu *rg, const struct lx_gpu *g,
			 const struct lx_current *cur)
{
	if (lx_gpu_kind(g) == LX_GPU_DRM) {
		check_drm_nodes(k, g, cur);
		return;
	}
	if (g->minor < 0) {
		unchecked(k, lx_xasprintf("GPU %s: the driver does not say which /dev/nvidiaN it is "
					  "(no Device Minor), so the guard cannot tell whether the "
					  "config still gives it",
					  g->bdf));
		return;
	}
	if (lx_strv_contains(&cur->bdfs, g->bdf))
		return;
	_cleanup_free_ char *now = node_of(g->minor);
	_cleanup_free_ char *other = instead(k, cur);
	_cleanup_free_ char *gives =
		other ? lx_xasprintf("; the config gives %s", other)
		      : lx_xstrdup("; the config gives no node of it");
	if (rg->minor >= 0 && rg->minor != g->minor) {
		refuse(k, LXG030_GUARD_RENUMBERED, now,
		       lx_xasprintf("GPU %s was /dev/nvidia%d when lxgpu recorded it (%s) and is %s "
				    "now: the driver numbered the GPUs differently%s",
				    g->bdf, rg->minor, k->rec->recorded_at ? k->rec->recorded_at : "",
				    now, gives),
		       NULL);
		return;
	}
	/* Same number, not given: the config was edited, the host did not
	 * change. That is the user's choice: said, not refused. */
	_cleanup_free_ char *fix = lx_xasprintf("record what the container should have: %s",
						k->fix);
	char *cut = strstr(fix, ", then ");
	if (cut)
		*cut = '\0'; /* no start to redo */
	lx_findings_add(k->out, LXG030_GUARD_RENUMBERED, k->id, NULL, 0, now,
			lx_xasprintf("GPU %s is %s as when lxgpu recorded it, but the config does not "
				     "give it now%s (edited since?); the start goes on",
				     g->bdf, now, gives),
			lx_xstrdup(fix));
	lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
}

static char *other_gpus(const struct lx_host *host, const struct lx_gpu *g);

/* "lxgpu apply ID --gpus B, then pct start ID" with the host's other
 * nvidia GPUs; NULL when it has none. */
static char *another_gpu(const struct guard *k, const struct lx_gpu *g)
{
	_cleanup_free_ char *others = other_gpus(k->host, g);
	_cleanup_free_ char *start = start_command(k);
	return others ? lx_xasprintf("`lxgpu apply %s --gpus %s`, then %s", k->id, others, start)
		      : NULL;
}

/* VMs whose hostpciN names the GPU and that run now. True when one does. */
static bool check_vms(struct guard *k, const struct lx_gpu *g, const struct lx_vm_devices *vms)
{
	bool held = false;
	for (size_t i = 0; i < vms->n; i++) {
		const struct lx_vm_device *d = &vms->items[i];
		if (!lx_vm_device_matches(d, g->bdf))
			continue;
		char *why = NULL;
		enum lx_vm_state s = lx_vm_state(k->paths->run_dir, k->paths->proc_dir, d->vmid, &why);
		if (s == LX_VM_UNKNOWN) {
			unchecked(k, lx_xasprintf("GPU %s is passed through to VM %s (%s:%d %s), and "
						  "whether it runs could not be read: %s",
						  g->bdf, d->vmid, d->file, d->line, d->key, why));
		} else if (s == LX_VM_RUNNING) {
			/* Stopping the VM leaves the GPU on vfio-pci (PVE binds it at
			 * the VM's start, not back at its stop): a manual step. The
			 * command that works at once comes first. */
			_cleanup_free_ char *other = another_gpu(k, g);
			_cleanup_free_ char *another =
				other ? lx_xasprintf("give the container another GPU: %s; or ", other)
				      : lx_xstrdup("");
			_cleanup_free_ char *fix =
				lx_xasprintf("%sby hand: stop the VM, give the GPU back to nvidia if "
					     "it stays on vfio-pci: `qm shutdown %s`, then %s",
					     another, d->vmid, k->fix);
			refuse(k, LXG032_GUARD_IN_RUNNING_VM, NULL,
			       lx_xasprintf("GPU %s is held by VM %s, which is running (%s:%d: %s)",
					    g->bdf, d->vmid, d->file, d->line, d->key),
			       fix);
			held = true;
		}
		free(why);
	}
	return held;
}

/* The nvidia-bound GPUs of the host other than g, for a fix. */
static char *other_gpus(const struct lx_host *host, const struct lx_gpu *g)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < host->n_gpus; i++)
		if (&host->gpus[i] != g && on_nvidia(&host->gpus[i]))
			lx_buf_printf(&b, "%s%s", b.len ? "," : "", host->gpus[i].bdf);
	return b.len ? lx_buf_steal(&b) : NULL;
}

static void check_driver(struct guard *k, const struct lx_gpu *g)
{
	/* Giving it back to nvidia is a manual step (modprobe.d, initramfs,
	 * reboot): the command that works at once comes first. */
	_cleanup_free_ char *other = another_gpu(k, g);
	_cleanup_free_ char *another =
		other ? lx_xasprintf("give the container another GPU: %s; or ", other)
		      : lx_xstrdup("");
	bool vfio = g->driver && strcmp(g->driver, "vfio-pci") == 0;
	_cleanup_free_ char *fix =
		vfio ? lx_xasprintf("%sby hand: give it back to nvidia (remove its id from vfio-pci's "
				    "ids= in /etc/modprobe.d, update-initramfs -u, reboot), then %s",
				    another, k->fix)
		     : lx_xasprintf("%sby hand: bind it to nvidia again (check 'dmesg' for NVRM): "
				    "`modprobe nvidia`, then %s",
				    another, k->fix);
	refuse(k, LXG031_GUARD_GPU_UNAVAILABLE, NULL,
	       g->driver ? lx_xasprintf("GPU %s is bound to %s now, not to nvidia%s", g->bdf,
					g->driver, vfio ? " (it is set aside for a VM)" : "")
			 : lx_xasprintf("GPU %s is bound to no driver now, not to nvidia", g->bdf),
	       fix);
}

/* ---- other containers (exclusive use) ---- */

struct holder {
	char *id;
	bool exclusive; /* its record says exclusive */
};

static void add_holder(struct holder **hs, size_t *n, const char *id, bool exclusive)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*hs)[i].id, id) == 0) {
			(*hs)[i].exclusive |= exclusive;
			return;
		}
	*hs = lx_xrealloc(*hs, (*n + 1) * sizeof(**hs));
	(*hs)[(*n)++] = (struct holder){lx_xstrdup(id), exclusive};
}

/* Other containers that have g: by their record, or (Proxmox) by what
 * their config reaches now. */
static void find_holders(struct guard *k, const struct lx_gpu *g, struct holder **hs, size_t *n)
{
	struct lx_strv ids = {0};
	struct lx_error err = {0};
	if (lx_record_list(k->paths->state_dir, &ids, &err) < 0) {
		unchecked(k, lx_xasprintf("the other containers' records: %s", err.message));
		lx_error_clear(&err);
	}
	for (size_t i = 0; i < ids.n; i++) {
		if (strcmp(ids.items[i], k->id) == 0)
			continue;
		struct lx_record other;
		bool found;
		if (lx_record_load(k->paths->state_dir, ids.items[i], &other, &found, &err) < 0) {
			unchecked(k, lx_xstrdup(err.message));
			lx_error_clear(&err);
			continue;
		}
		for (size_t r = 0; found && r < other.n_gpus; r++) {
			const struct lx_gpu *og = lx_record_gpu_now(k->host, &other.gpus[r]);
			if (og == g)
				add_holder(hs, n, other.id, other.exclusive);
		}
		lx_record_free(&other);
	}
	lx_strv_free(&ids);

	/* LXC's shared config files read once for all the other containers,
	 * not once each (a host with hundreds of containers starts each one
	 * through this guard). */
	struct lx_access_options aopts;
	if (k->paths->access)
		aopts = *k->paths->access;
	else
		lx_access_options_default(&aopts);
	struct lx_lxc_files lxc_files = {0};
	aopts.shared = &lxc_files;
	_cleanup_free_ char *dir = lx_path_join(k->paths->pve_dir, "lxc");
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!lx_str_ends_with(de->d_name, ".conf") || de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *other = lx_xstrndup(de->d_name, strlen(de->d_name) - 5);
		if (strcmp(other, k->id) == 0)
			continue;
		_cleanup_free_ char *path = lx_path_join(dir, de->d_name);
		struct lx_conf conf;
		struct lx_access a;
		if (lx_conf_load(path, &conf, &err) < 0) {
			unchecked(k, lx_xstrdup(err.message));
			lx_error_clear(&err);
			continue;
		}
		if (lx_access_compute(k->host, &conf, true, &aopts, &a, &err) == 0) {
			struct lx_current cur;
			lx_access_current(k->host, &conf, &a, &cur);
			if (lx_strv_contains(&cur.bdfs, g->bdf))
				add_holder(hs, n, other, false);
			lx_current_free(&cur);
			lx_access_free(&a);
		} else {
			unchecked(k, lx_xstrdup(err.message));
			lx_error_clear(&err);
		}
		lx_conf_free(&conf);
	}
	if (d)
		closedir(d);
	lx_lxc_files_free(&lxc_files);
}

static void check_containers(struct guard *k, const struct lx_gpu *g)
{
	struct holder *hs = NULL;
	size_t n = 0;
	find_holders(k, g, &hs, &n);
	for (size_t i = 0; i < n; i++) {
		/* Shared use is fine unless one of the two asked for it alone. */
		if (!k->rec->exclusive && !hs[i].exclusive)
			continue;
		struct lx_running run;
		lx_container_find(k->paths->runtime, k->host->cgroup, hs[i].id, &run);
		if (run.state == LX_RUN_UNINSPECTABLE) {
			unchecked(k, lx_xasprintf("container %s also has GPU %s, and whether it runs "
						  "could not be seen: %s",
						  hs[i].id, g->bdf, run.why ? run.why : "unknown"));
		} else if (run.state == LX_RUN_RUNNING) {
			_cleanup_free_ char *stop = stop_command(k, hs[i].id);
			_cleanup_free_ char *other = another_gpu(k, g);
			_cleanup_free_ char *fix =
				lx_xasprintf("stop it first: %s, then %s%s%s", stop, k->fix,
					     other ? "; or give this one another GPU: " : "",
					     other ? other : "");
			refuse(k, LXG033_GUARD_IN_RUNNING_CT, NULL,
			       lx_xasprintf("GPU %s is in use by container %s, which is running, and "
					    "%s recorded exclusive use of it",
					    g->bdf, hs[i].id,
					    k->rec->exclusive ? "this container" : "that container"),
			       fix);
		}
		lx_running_free(&run);
	}
	for (size_t i = 0; i < n; i++)
		free(hs[i].id);
	free(hs);
}

/* ---- pre-start ---- */

static void check_gpu(struct guard *k, const struct lx_record_gpu *rg, const struct lx_current *cur,
		      const struct lx_vm_devices *vms)
{
	const struct lx_gpu *at = lx_host_find_gpu_by_bdf(k->host, rg->pci);
	const struct lx_gpu *g = lx_record_gpu_now(k->host, rg);
	if (!g) {
		/* One command: the recorded GPUs still here (k->fix leaves the
		 * gone ones out), else other GPUs of this host. */
		_cleanup_free_ char *others = other_gpus(k->host, NULL);
		_cleanup_free_ char *start = start_command(k);
		_cleanup_free_ char *fix =
			k->fix ? lx_xasprintf("give the container the recorded GPUs still "
					      "here, without it: %s",
					      k->fix)
			: others ? lx_xasprintf("give the container another GPU: `lxgpu apply %s "
						"--gpus %s`, then %s",
						k->id, others, start)
				 : lx_xasprintf("by hand: put the GPU back, or remove the "
						"container's GPU lines, then %s; rollback "
						"restores the config apply replaced: `lxgpu "
						"rollback %s BACKUP`",
						start, k->id);
		refuse(k, LXG031_GUARD_GPU_UNAVAILABLE, NULL,
		       lx_xasprintf("GPU %s%s%s%s is no longer on this host", rg->pci,
				    rg->uuid ? " (" : "", rg->uuid ? rg->uuid : "",
				    rg->uuid ? ")" : ""),
		       fix);
		return;
	}
	if (g != at) {
		/* The card itself (its UUID) is at another address: when the
		 * config gives its node, the container gets the card it was
		 * given, so a renumbered bus (a BIOS update, a card added in
		 * another slot) is said, not refused. apply keeps the config's
		 * GPUs and records them anew. */
		bool given = lx_strv_contains(&cur->bdfs, g->bdf);
		_cleanup_free_ char *record = lx_xasprintf("record its new address: `lxgpu apply %s`",
							   k->id);
		_cleanup_free_ char *what =
			at && at->uuid ? lx_xasprintf("the GPU at %s is another card now: %s, where "
						      "lxgpu recorded %s, which is now at %s",
						      rg->pci, at->uuid, rg->uuid, g->bdf)
				       : lx_xasprintf("GPU %s, recorded at %s, is at %s now (moved to "
						      "another slot, or the PCI bus was numbered "
						      "differently)",
						      rg->uuid, rg->pci, g->bdf);
		refuse(k, LXG034_GUARD_OTHER_CARD, NULL,
		       lx_xasprintf("%s%s", what, given ? "; the config gives it, so the start goes on" : ""),
		       given ? record : NULL);
		if (given)
			lx_findings_last_severity(k->out, LX_SEVERITY_WARNING);
	} else if (rg->uuid && g->uuid && strcasecmp(rg->uuid, g->uuid) != 0) {
		refuse(k, LXG034_GUARD_OTHER_CARD, NULL,
		       lx_xasprintf("the GPU at %s is another card now: %s, where lxgpu recorded %s",
				    g->bdf, g->uuid, rg->uuid),
		       NULL);
	}
	if (check_vms(k, g, vms))
		return;
	if (!lx_gpu_usable(g)) {
		check_driver(k, g);
		return;
	}
	check_number(k, rg, g, cur);
	check_containers(k, g);
}

/* A MIG instance the config gives that does not exist now: after a reboot
 * without the layout recreated, CUDA in the container would find no
 * device. The config's caps minors say which instance it was (the
 * driver's table of minors). */
static void check_mig(struct guard *k, const struct lx_conf *conf)
{
	struct lx_container_config cc;
	lx_container_config_read(k->host, k->id, conf, k->is_pve, &cc);
	struct lx_mig_given *given;
	size_t n;
	lx_config_mig_given(k->host, &cc, &given, &n);
	for (size_t i = 0; i < n; i++) {
		const struct lx_mig_given *g = &given[i];
		if (!g->gi_node || !g->ci_node ||
		    lx_mig_instance_exists(k->host, g->gpu_minor, g->gi, g->ci))
			continue;
		int index = lx_host_gpu_by_minor(k->host, g->gpu_minor);
		_cleanup_free_ char *fix =
			lx_mig_recreate_fix(k->host, k->id, g->gpu_minor, g->gi, g->ci);
		_cleanup_free_ char *start = start_command(k);
		lx_findings_add(k->out, LXG052_GUARD_MIG_GONE, k->id, conf->path, g->line, NULL,
				lx_xasprintf("MIG instance gi%d/ci%d of %s%s%s, which the config "
					     "gives, does not exist now (no /proc/driver/nvidia/"
					     "capabilities/gpu%d/mig/gi%d/ci%d/access): MIG instances "
					     "are gone after a reboot until they are created again",
					     g->gi, g->ci, index >= 0 ? "GPU " : "/dev/nvidia",
					     index >= 0 ? k->host->gpus[index].bdf : "",
					     index >= 0 ? "" : "?", g->gpu_minor, g->gi, g->ci),
				lx_xasprintf("%s, then %s", fix, start));
	}
	free(given);
	lx_container_config_free(&cc);
}

bool lx_guard_has_gpu_lines(const struct lx_host *host, const struct lx_conf *conf,
			    const char *state_dir)
{
	/* The include style's one line names lxgpu's file of GPU lines. */
	if (lx_incfile_find_line(conf, state_dir))
		return true;
	struct lx_gpu_owned owned;
	lx_gpu_owned_from_host(host, &owned);
	bool gpu_lines = lx_gpu_owned_any(&owned, conf);
	lx_gpu_owned_free(&owned);
	return gpu_lines;
}

void lx_guard_pre_start(const struct lx_host *host, const char *id, const struct lx_conf *conf,
			bool is_pve, const struct lx_guard_paths *paths, struct lx_findings *out,
			struct lx_guard_report *report)
{
	memset(report, 0, sizeof(*report));
	if (!lx_guard_has_gpu_lines(host, conf, paths->state_dir)) {
		report->why = lx_xasprintf("%s has no GPU lines: nothing to check", conf->path);
		return;
	}
	struct lx_record rec;
	bool found;
	struct lx_error err = {0};
	if (lx_record_load(paths->state_dir, id, &rec, &found, &err) < 0) {
		lx_findings_add(out, LXG035_GUARD_UNCHECKED, id, NULL, 0, NULL,
				lx_xasprintf("the GPU record cannot be read: %s", err.message),
				lx_xasprintf("record the container's GPUs again: `lxgpu apply %s`", id));
		lx_error_clear(&err);
		report->why = lx_xstrdup("the record cannot be read");
		return;
	}
	if (!found) {
		report->why = lx_xasprintf("no GPU record of %s (lxgpu apply %s makes one): nothing "
					   "to check",
					   id, id);
		return;
	}
	struct lx_access access;
	if (lx_access_compute(host, conf, is_pve, paths->access, &access, &err) < 0) {
		lx_findings_add(out, LXG035_GUARD_UNCHECKED, id, conf->path, 0, NULL,
				lx_xasprintf("what the config gives cannot be worked out: %s",
					     err.message),
				lx_xasprintf("`lxgpu verify %s`", id));
		lx_error_clear(&err);
		lx_record_free(&rec);
		report->why = lx_xstrdup("the config could not be evaluated");
		return;
	}
	struct lx_current cur;
	lx_access_current(host, conf, &access, &cur);
	_cleanup_free_ char *qemu_dir = lx_path_join(paths->pve_dir, "qemu-server");
	struct lx_vm_devices vms;
	_cleanup_free_ char *mapping = lx_path_join(paths->pve_dir, "mapping/pci.cfg");
	/* A mapping's map line is per PVE node: the node audit names, not the
	 * host name (a snapshot's, or one PVE shortens). */
	_cleanup_free_ char *node = lx_audit_local_node(paths->pve_dir, host);
	lx_vm_devices_read_mapped(qemu_dir, mapping, node, &vms);
	for (size_t i = 0; i < vms.unreadable.n; i++)
		lx_findings_add(out, LXG035_GUARD_UNCHECKED, id, NULL, 0, NULL,
				lx_xasprintf("a VM config cannot be read, so whether that VM holds a "
					     "recorded GPU is not known: %s; nothing blocks the start "
					     "for this",
					     vms.unreadable.items[i]),
				NULL);

	report->checked = true;
	struct lx_strv migs = {0};
	{
		struct lx_container_config cc;
		lx_container_config_read(host, id, conf, is_pve, &cc);
		struct lx_mig_given *given;
		size_t n_given;
		lx_config_mig_given(host, &cc, &given, &n_given);
		for (size_t i = 0; i < n_given; i++) {
			int g = lx_host_gpu_by_minor(host, given[i].gpu_minor);
			if (g >= 0 && given[i].gi_node && given[i].ci_node)
				lx_strv_push_owned(&migs, lx_xasprintf("%s:gi%d/ci%d", host->gpus[g].bdf,
								       given[i].gi, given[i].ci));
		}
		free(given);
		lx_container_config_free(&cc);
	}
	report->apply_command = apply_command(host, id, &rec, &migs);
	lx_strv_free(&migs);
	_cleanup_free_ char *start = NULL;
	struct guard k = {.host = host, .id = id, .is_pve = is_pve, .paths = paths, .rec = &rec,
			  .out = out};
	start = start_command(&k);
	_cleanup_free_ char *fix =
		report->apply_command ? lx_xasprintf("`%s`, then %s", report->apply_command, start)
				      : NULL;
	k.fix = fix;
	for (size_t i = 0; i < rec.n_gpus; i++)
		check_gpu(&k, &rec.gpus[i], &cur, &vms);
	check_mig(&k, conf);
	lx_vm_devices_free(&vms);
	lx_current_free(&cur);
	lx_access_free(&access);
	lx_record_free(&rec);
}

int lx_guard_post_start(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			const struct lx_runtime_paths *runtime, struct lx_findings *out,
			struct lx_container_report *report, struct lx_error *err)
{
	if (lx_verify_container(host, id, path, is_pve, runtime, out, report, err) < 0)
		return -1;
	if (report->state == LX_RUN_UNINSPECTABLE)
		lx_findings_add(out, LXG035_GUARD_UNCHECKED, id, NULL, 0, NULL,
				lx_xasprintf("the running container could not be inspected: %s",
					     report->state_why ? report->state_why : "unknown"),
				lx_xasprintf("as root: `lxgpu verify %s`", id));
	return 0;
}

/* ---- the record from a config (rollback) ---- */

int lx_record_from_config(const struct lx_host *host, const char *id, const struct lx_conf *conf,
			  bool is_pve, const struct lx_access_options *aopts, const char *style,
			  struct lx_record *out, bool *has_gpus, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	*has_gpus = false;
	struct lx_access access;
	if (lx_access_compute(host, conf, is_pve, aopts, &access, err) < 0)
		return -1;
	struct lx_current cur;
	lx_access_current(host, conf, &access, &cur);
	lx_access_free(&access);
	if (cur.bdfs.n) {
		*has_gpus = true;
		out->id = lx_xstrdup(id);
		out->config_path = lx_xstrdup(conf->path);
		out->style = lx_xstrdup(style ? style
					      : lx_style_name(cur.devn ? LX_STYLE_DEVN
							      : is_pve ? LX_STYLE_RAW
								       : LX_STYLE_LXC));
		out->unprivileged = lx_conf_unprivileged(conf, is_pve);
		out->dri = cur.dri;
		out->caps = cur.caps;
		out->gpus = lx_xcalloc(cur.bdfs.n, sizeof(*out->gpus));
		for (size_t i = 0; i < cur.bdfs.n; i++) {
			const struct lx_gpu *g = lx_host_find_gpu_by_bdf(host, cur.bdfs.items[i]);
			out->gpus[out->n_gpus++] = (struct lx_record_gpu){
				.pci = lx_xstrdup(cur.bdfs.items[i]),
				.uuid = g && g->uuid ? lx_xstrdup(g->uuid) : NULL,
				.minor = g ? g->minor : LX_UNKNOWN,
			};
		}
		out->recorded_at = lx_record_time_now();
	}
	lx_current_free(&cur);
	return 0;
}
