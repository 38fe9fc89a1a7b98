/* Verify one container: config, running state, rootfs. */
#include "lxgpu/judge.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a stopped Proxmox container's root, where its storage keeps it ----
 *
 * While a PVE container is stopped, /var/lib/lxc/<vmid>/rootfs is an empty
 * mount point: its root is in the storage its config's "rootfs:" volume
 * names. The mapping is pve-storage's (PVE::Storage::Plugin and its
 * plugins): a volume ID is "STOREID:VOLNAME"; storage.cfg sections are
 * "TYPE: STOREID" headers (type lowercased) followed by indented
 * "KEY VALUE" lines up to an empty line, comment lines skipped; a later
 * section of the same id replaces an earlier one, a repeated key is
 * refused (the first stays). "local" is always a dir storage at
 * /var/lib/vz (Plugin::parse_config forces it). File storages (dir, nfs,
 * cifs, cephfs, btrfs) keep a container volume at
 * PATH/<content-dirs images or "images">/<vmid>/<name>, a directory when
 * its name ends in ".subvol"; zfspool keeps subvol-* and basevol-*
 * datasets at <mountpoint, default /POOL>/<name>. Anything else (raw
 * images, zvols, lvm, lvmthin, rbd, iscsi, unknown types) cannot be read
 * without mounting it. The storage's directory is host config and opened
 * as the host has it; everything below it with RESOLVE_IN_ROOT. */

struct pve_storage {
	char *type;
	char *path;         /* dir & co */
	char *pool;         /* zfspool */
	char *mountpoint;   /* zfspool */
	char *content_dirs; /* "images=sub/dir,..." */
};

static void pve_storage_free(struct pve_storage *st)
{
	free(st->type);
	free(st->path);
	free(st->pool);
	free(st->mountpoint);
	free(st->content_dirs);
	memset(st, 0, sizeof(*st));
}

/* storeid's section of storage.cfg (text), as PVE::SectionConfig reads it;
 * false when it has none. */
static bool storage_section(const char *text, const char *storeid, struct pve_storage *out)
{
	bool found = false, in_section = false, ours = false;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		_cleanup_free_ char *line = lx_xstrndup(p, len);
		p += len + (p[len] == '\n');
		if (line[strspn(line, " \t\r\f\v")] == '#')
			continue; /* a comment line: skipped, it does not end the section */
		if (!in_section) {
			/* "^(\S+):\s*(\S+)\s*$" */
			size_t tlen = strcspn(line, " \t\r\f\v");
			if (tlen < 2 || line[tlen - 1] != ':')
				continue;
			const char *id = line + tlen + strspn(line + tlen, " \t\r\f\v");
			size_t ilen = strcspn(id, " \t\r\f\v");
			if (ilen == 0 || id[ilen + strspn(id + ilen, " \t\r\f\v")] != '\0')
				continue;
			in_section = true;
			ours = ilen == strlen(storeid) && strncmp(id, storeid, ilen) == 0;
			if (ours) {
				pve_storage_free(out); /* a later section of the same id wins */
				out->type = lx_xstrndup(line, tlen - 1);
				for (char *c = out->type; *c; c++)
					*c = (char)tolower((unsigned char)*c);
				found = true;
			}
			continue;
		}
		if (!*line) {
			in_section = false; /* an empty line ends the section */
			continue;
		}
		/* "^\s+(\S+)(\s+(.*\S))?\s*$" */
		size_t indent = strspn(line, " \t\r\f\v");
		if (!ours || indent == 0 || !line[indent])
			continue;
		const char *key = line + indent;
		size_t klen = strcspn(key, " \t\r\f\v");
		const char *value = key + klen + strspn(key + klen, " \t\r\f\v");
		size_t vlen = strlen(value);
		while (vlen && strchr(" \t\r\f\v", value[vlen - 1]))
			vlen--;
		char **slot = klen == 4 && strncmp(key, "path", 4) == 0		? &out->path
			      : klen == 4 && strncmp(key, "pool", 4) == 0	? &out->pool
			      : klen == 10 && strncmp(key, "mountpoint", 10) == 0 ? &out->mountpoint
			      : klen == 12 && strncmp(key, "content-dirs", 12) == 0 ? &out->content_dirs
										: NULL;
		/* A path that is not absolute does not parse ("does not look like a
		 * valid absolute path"): PVE drops the value. */
		if ((slot == &out->path || slot == &out->mountpoint) && value[0] != '/')
			slot = NULL;
		if (slot && !*slot && vlen)
			*slot = lx_xstrndup(value, vlen); /* a repeated key: PVE keeps the first */
	}
	return found;
}

/* The images directory below a file storage's path (content-dirs may
 * move it: "images=DIR"). */
static char *images_subdir(const struct pve_storage *st)
{
	for (const char *p = st->content_dirs; p && *p;) {
		size_t len = strcspn(p, ",; \t");
		if (len > 7 && strncmp(p, "images=", 7) == 0)
			return lx_xstrndup(p + 7, len - 7);
		p += len;
		p += strspn(p, ",; \t");
	}
	return lx_xstrdup("images");
}

/* One path component that names nothing else: not empty, ".", ".." or with "/". */
static bool plain_component(const char *s, size_t n)
{
	return n > 0 && !(n == 1 && s[0] == '.') && !(n == 2 && s[0] == '.' && s[1] == '.') &&
	       !memchr(s, '/', n);
}

/* The volume of a "rootfs:" value ("[volume=]STOREID:VOLNAME[,size=8G...]"). */
static char *rootfs_volume(const char *value)
{
	for (const char *p = value; *p;) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		if (!eq)
			return lx_xstrndup(p, len);
		if ((size_t)(eq - p) == 6 && strncmp(p, "volume", 6) == 0)
			return lx_xstrndup(eq + 1, len - (size_t)(eq - p) - 1);
		p += len + (p[len] == ',');
	}
	return NULL;
}

/* Is dir (an fd) a mount point: the root of a mount (pct mount made it)? */
static bool is_mount_root(int dir_fd)
{
	struct statx stx;
	if (statx(dir_fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx) < 0)
		return false;
	if (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
		return stx.stx_attributes & STATX_ATTR_MOUNT_ROOT;
	struct stat here, up;
	return fstat(dir_fd, &here) == 0 && fstatat(dir_fd, "..", &up, 0) == 0 &&
	       here.st_dev != up.st_dev;
}

static int cannot_inspect(char **why, const char *id, char *what)
{
	if (why)
		*why = lx_xasprintf("could not inspect the root of stopped container %s: %s; run "
				    "`pct mount %s` (then `pct unmount %s`) to let lxgpu read it",
				    id, what, id, id);
	free(what);
	return -1;
}

void lx_storage_cfg_free(struct lx_storage_cfg *c)
{
	free(c->path);
	free(c->text);
	free(c->error);
	memset(c, 0, sizeof(*c));
}

/* c holds path's storage.cfg (read now unless it already does). */
static void storage_cfg_read(struct lx_storage_cfg *c, const char *path)
{
	if (c->path && strcmp(c->path, path) == 0)
		return;
	lx_storage_cfg_free(c);
	c->path = lx_xstrdup(path);
	struct lx_error err = {0};
	if (lx_read_file_optional(path, 1 << 20, &c->text, NULL, &err) < 0) {
		c->error = lx_xstrdup(err.message);
		lx_error_clear(&err);
	}
}

/* The root of stopped PVE container id whose config says rootfs: value. */
static int pve_storage_root(const struct lx_runtime_paths *paths, const char *id,
			    const char *value, char **why)
{
	_cleanup_free_ char *volume = rootfs_volume(value);
	if (!volume || !*volume)
		return cannot_inspect(why, id, lx_xasprintf("its rootfs line '%s' names no volume", value));
	if (volume[0] == '/') {
		/* A host path (PVE classifies /dev/... as a device, else a bind). */
		if (lx_str_starts_with(volume, "/dev/"))
			return cannot_inspect(why, id, lx_xasprintf("its root is the block device %s",
								    volume));
		int fd = open(volume, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return cannot_inspect(why, id, lx_xasprintf("%s: %s", volume, strerror(errno)));
		return fd;
	}
	/* PVE::Storage::Plugin::parse_volume_id */
	const char *colon = strchr(volume, ':');
	size_t idlen = colon ? (size_t)(colon - volume) : 0;
	bool id_ok = idlen >= 2 && isalpha((unsigned char)volume[0]) &&
		     isalnum((unsigned char)volume[idlen - 1]) && colon[1];
	for (size_t i = 0; id_ok && i < idlen; i++)
		id_ok = isalnum((unsigned char)volume[i]) || strchr("-_.", volume[i]);
	if (!id_ok)
		return cannot_inspect(why, id, lx_xasprintf("'%s' is not a volume ID", volume));
	_cleanup_free_ char *storeid = lx_xstrndup(volume, idlen);
	const char *volname = colon + 1;

	_cleanup_free_ char *cfg_path =
		lx_path_join(paths->pve_dir ? paths->pve_dir : "/etc/pve", "storage.cfg");
	/* read once for the walk, or for this container alone */
	__attribute__((cleanup(lx_storage_cfg_free))) struct lx_storage_cfg own = {0};
	struct lx_storage_cfg *sc = paths->storage_cfg ? paths->storage_cfg : &own;
	storage_cfg_read(sc, cfg_path);
	if (sc->error)
		return cannot_inspect(why, id, lx_xstrdup(sc->error));
	const char *cfg = sc->text;
	if (!cfg && strcmp(storeid, "local") != 0) {
		/* No storage.cfg: not a Proxmox node's config directory (a copy
		 * read elsewhere, a test's). Only a mounted root can be read. */
		_cleanup_free_ char *mnt = lx_xasprintf("%s/%s/rootfs", paths->lxc_path, id);
		int fd = open(mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 && !is_mount_root(fd)) {
			close(fd);
			fd = -1;
		}
		return fd;
	}
	struct pve_storage st = {0};
	bool found = storage_section(cfg ? cfg : "", storeid, &st);
	if (strcmp(storeid, "local") == 0 &&
	    (!found || strcmp(st.type, "dir") != 0 || (st.path && strcmp(st.path, "/var/lib/vz") != 0))) {
		pve_storage_free(&st);
		st.type = lx_xstrdup("dir"); /* PVE's own "local", whatever the file says */
		found = true;
	}
	if (found && strcmp(storeid, "local") == 0 && !st.path)
		st.path = lx_xstrdup("/var/lib/vz");
	if (!found) {
		pve_storage_free(&st);
		return cannot_inspect(why, id, lx_xasprintf("%s has no storage '%s'", cfg_path, storeid));
	}

	_cleanup_free_ char *base = NULL, *below = NULL, *kind = NULL;
	const char *slash = strrchr(volname, '/');
	const char *name = slash ? slash + 1 : volname;
	if (strcmp(st.type, "zfspool") == 0) {
		/* ZFSPoolPlugin::parse_volname: "[BASE/]NAME"; path(): subvol-* and
		 * basevol-* at the mount point, the rest are zvols. */
		size_t nlen = strlen(name);
		bool subvol = lx_str_starts_with(name, "subvol-") || lx_str_starts_with(name, "basevol-");
		if (st.mountpoint || st.pool)
			base = st.mountpoint ? lx_xstrdup(st.mountpoint) : lx_xasprintf("/%s", st.pool);
		if (!base)
			kind = lx_xasprintf("storage '%s' has no pool in %s", storeid, cfg_path);
		else if (subvol && plain_component(name, nlen))
			below = lx_xstrdup(name);
		else
			kind = lx_xasprintf("its volume %s is a ZFS volume (zvol)", volume);
	} else if (strcmp(st.type, "dir") == 0 || strcmp(st.type, "nfs") == 0 ||
		   strcmp(st.type, "cifs") == 0 || strcmp(st.type, "cephfs") == 0 ||
		   strcmp(st.type, "btrfs") == 0) {
		/* Plugin::parse_volname: "VMID/NAME" or "BASEVMID/BASE/VMID/NAME";
		 * filesystem_path(): PATH/images/VMID/NAME. */
		const char *vmid_end = slash;
		const char *vmid = volname;
		if (slash) {
			const char *prev = slash;
			while (prev > volname && prev[-1] != '/')
				prev--;
			vmid = prev;
		}
		size_t vlen = vmid_end ? (size_t)(vmid_end - vmid) : 0;
		bool vmid_ok = vlen > 0 && strspn(vmid, "0123456789") >= vlen;
		if (!vmid_ok || !plain_component(name, strlen(name)))
			kind = lx_xasprintf("'%s' is not a volume name of a %s storage", volname, st.type);
		else if (!lx_str_ends_with(name, ".subvol"))
			kind = lx_xasprintf("its volume %s is a disk image", volume);
		else if (!st.path)
			kind = lx_xasprintf("storage '%s' has no path in %s", storeid, cfg_path);
		else {
			base = lx_xstrdup(st.path);
			_cleanup_free_ char *sub = images_subdir(&st);
			below = lx_xasprintf("%s/%.*s/%s", sub, (int)vlen, vmid, name);
		}
	} else {
		kind = lx_xasprintf("its volume %s is on a storage of type %s", volume, st.type);
	}
	pve_storage_free(&st);
	if (!below) {
		/* Mounted by hand (pct mount): the mount point has it. */
		_cleanup_free_ char *mnt = lx_xasprintf("%s/%s/rootfs", paths->lxc_path, id);
		int fd = open(mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 && is_mount_root(fd))
			return fd; /* kind: freed on return */
		if (fd >= 0)
			close(fd);
		char *what = kind ? kind : lx_xstrdup("its storage is not known");
		kind = NULL; /* cannot_inspect takes it */
		return cannot_inspect(why, id, what);
	}
	int base_fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (base_fd < 0)
		return cannot_inspect(why, id, lx_xasprintf("%s/%s: %s (%s)", base, below,
							    strerror(errno), base));
	int fd = lx_open_in_root(base_fd, below, O_PATH | O_DIRECTORY);
	int e = errno;
	close(base_fd);
	if (fd < 0)
		return cannot_inspect(why, id, lx_xasprintf("%s/%s: %s", base, below, strerror(e)));
	return fd;
}

int lx_container_open_root_why(const struct lx_runtime_paths *paths, const char *id,
			       const struct lx_conf *conf, const struct lx_running *run, char **why)
{
	if (why)
		*why = NULL;
	if (run && run->state == LX_RUN_RUNNING)
		return fcntl(run->root_fd, F_DUPFD_CLOEXEC, 0);
	if (run && run->state == LX_RUN_UNINSPECTABLE)
		return -1; /* its rootfs on disk may not be what it runs */
	_cleanup_free_ char *path = NULL;
	for (size_t i = 0; i < conf->n && conf->lines[i].section == -1; i++) {
		const struct lx_conf_line *l = &conf->lines[i];
		if (l->kind == LX_CONF_LXC_KEY && strcmp(l->key, "lxc.rootfs.path") == 0) {
			const char *v = lx_str_starts_with(l->value, "dir:") ? l->value + 4 : l->value;
			if (v[0] == '/') {
				free(path);
				path = lx_xstrdup(v);
			}
		}
	}
	/* A Proxmox container: its storage (a raw lxc.rootfs.path still wins,
	 * as it comes after PVE's own line in the config LXC reads). */
	const char *rootfs = lx_conf_get(conf, "rootfs");
	if (!path && rootfs)
		return pve_storage_root(paths, id, rootfs, why);
	if (!path)
		path = lx_xasprintf("%s/%s/rootfs", paths->lxc_path, id);
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int lx_container_open_root(const struct lx_runtime_paths *paths, const char *id,
			   const struct lx_conf *conf, const struct lx_running *run)
{
	return lx_container_open_root_why(paths, id, conf, run, NULL);
}

int lx_verify_container(const struct lx_host *host, const char *id, const char *path, bool is_pve,
			const struct lx_runtime_paths *paths, struct lx_findings *out,
			struct lx_container_report *report, struct lx_error *err)
{
	memset(report, 0, sizeof(*report));
	struct lx_conf conf;
	if (lx_conf_load(path, &conf, err) < 0)
		return -1;
	int rc = lx_verify_container_conf(host, id, &conf, is_pve, paths, out, report, err);
	lx_conf_free(&conf);
	return rc;
}

int lx_verify_container_conf(const struct lx_host *host, const char *id,
			     const struct lx_conf *conf, bool is_pve,
			     const struct lx_runtime_paths *paths, struct lx_findings *out,
			     struct lx_container_report *report, struct lx_error *err)
{
	memset(report, 0, sizeof(*report));
	const char *hostname = lx_conf_hostname(conf);
	report->hostname = hostname ? lx_xstrdup(hostname) : NULL;
	struct lx_access_options aopts;
	lx_access_options_default(&aopts);
	if (paths->lxc_config_dir)
		aopts.lxc_config_dir = paths->lxc_config_dir;
	aopts.subid_root = paths->subid_root;
	aopts.tools_root = paths->subid_root; /* the live host's root, as for its id tools */
	aopts.shared = paths->lxc_files;
	if (lx_access_compute(host, conf, is_pve, &aopts, &report->access, err) < 0) {
		free(report->hostname); /* a failed verify leaves no report to free */
		report->hostname = NULL;
		return -1;
	}
	struct lx_container_config cc;
	lx_container_config_read(host, id, conf, is_pve, &cc);
	lx_container_gpus(host, &cc, &report->access, &report->gpus);
	lx_verify_config_gpus(host, &cc, &report->access, &report->gpus, out);
	struct lx_running run;
	lx_container_find(paths, host->cgroup, id, &run);
	if (run.state == LX_RUN_RUNNING) {
		size_t before = out->n;
		lx_verify_running(host, &cc, &report->access, paths, &run, &report->devices, out);
		lx_verify_hook(host, &cc, run.root_fd, out);
		lx_verify_drm_groups(host, &cc, &report->access, run.root_fd, out);
		/* Its init gone meanwhile: what was read may be of nothing (or of
		 * a dying container), so it is neither a finding nor a pass. */
		if (!lx_running_recheck(&run)) {
			lx_findings_truncate(out, before);
			lx_running_devices_free(&report->devices);
		}
	} else if (run.state == LX_RUN_STOPPED) {
		_cleanup_free_ char *why = NULL;
		int root_fd = lx_container_open_root_why(paths, id, conf, &run, &why);
		lx_verify_hook(host, &cc, root_fd, out);
		if (root_fd >= 0) {
			lx_verify_rootfs(host, &cc, root_fd, out);
			lx_verify_drm_groups(host, &cc, &report->access, root_fd, out);
			close(root_fd);
		} else if (why && lx_rootfs_matters(host, &cc)) {
			/* Its driver libraries are unknown: never a pass. */
			lx_findings_add(out, LXG027_ROOT_UNCHECKED, cc.id, NULL, 0, NULL, lx_xstrdup(why),
					lx_xasprintf("mount its root, check it, unmount it: `pct mount %s`, "
						     "then `lxgpu verify %s`, then `pct unmount %s`; or give it "
						     "the host's driver files at every start: `lxgpu apply %s "
						     "--driver-libs`",
						     id, id, id, id));
		}
	} else {
		lx_verify_hook(host, &cc, -1, out);
	}
	report->state = run.state;
	report->running = run.state == LX_RUN_RUNNING;
	report->state_why = run.why;
	report->found_by = run.source;
	run.why = NULL;
	lx_running_free(&run);
	struct lx_mig_given *given;
	size_t n_given;
	lx_config_mig_given(host, &cc, &given, &n_given);
	for (size_t i = 0; i < n_given; i++) {
		int g = lx_host_gpu_by_minor(host, given[i].gpu_minor);
		if (given[i].gi_node && given[i].ci_node && g >= 0)
			lx_strv_push_owned(&report->migs,
					   lx_xasprintf("%s:gi%d/ci%d", host->gpus[g].bdf, given[i].gi,
							given[i].ci));
	}
	free(given);
	/* The GPU nodes it gets at its next start, however given: devN, binds
	 * (of a node, of /dev/dri whole, from an included file), NVIDIA's hook;
	 * or its GPU lines, where they give less (a node the host lacks). */
	struct lx_strv gpu_nodes = {0};
	lx_access_gpu_nodes(&cc.owned, &report->access, &gpu_nodes);
	report->n_nodes = gpu_nodes.n > cc.n_grants ? gpu_nodes.n : cc.n_grants;
	lx_strv_free(&gpu_nodes);
	lx_container_config_free(&cc);
	return 0;
}

void lx_container_report_free(struct lx_container_report *report)
{
	lx_strv_free(&report->gpus);
	lx_strv_free(&report->migs);
	lx_access_free(&report->access);
	lx_running_devices_free(&report->devices);
	free(report->state_why);
	free(report->hostname);
	memset(report, 0, sizeof(*report));
}
