/* The NVIDIA device nodes the driver makes, and making them.
 *
 * The rules are nvidia-modprobe's (modprobe-utils/nvidia-modprobe-utils.c):
 * /dev/nvidiactl 195:255, /dev/nvidiaN 195:N, /dev/nvidia-modeset 195:254,
 * all three with the mode, uid and gid of /proc/driver/nvidia/params
 * (DeviceFileMode etc., decimal; default 0666 root:root) unless its
 * ModifyDeviceFiles is 0; /dev/nvidia-uvm DYN:0 and -uvm-tools DYN:1 with
 * 0666 root:root; /dev/nvidia-caps/nvidia-capN with the nvidia-caps major
 * and the mode of the capability's own access file (the driver writes 256,
 * 0400, for mig/config and 292, 0444, for monitor and MIG instances).
 *
 * Nothing here opens a node: opening one initializes the GPU, and lxgpu
 * must stay safe at boot and from start hooks. lstat() tells what is there. */
#include "lxgpu/host.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define PARAMS_MAX (1u << 20)
#define GPU_MAJOR_FALLBACK 195
#define NVIDIACTL_MINOR 255
#define MODESET_MINOR 254
#define DEFAULT_MODE 0666
/* An access file without DeviceFileMode: nvidia-modprobe would use 0666;
 * a capability grants privilege, so take the driver's own default for
 * mig/config, owner-read only. Real drivers always write the line. */
#define CAP_FALLBACK_MODE 0400

struct file_params {
	unsigned mode, uid, gid;
	bool modify;
};

/* "Name: value" lines as nvidia-modprobe reads them (decimal values). */
static void parse_params(const char *text, struct file_params *p)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		_cleanup_free_ char *copy = lx_xstrndup(line, len);
		char *colon = strchr(copy, ':');
		unsigned long long v;
		if (colon) {
			*colon = '\0';
			char *value = colon + 1;
			while (*value == ' ' || *value == '\t')
				value++;
			lx_str_strip(value);
			if (lx_parse_uint(value, 10, 0xffffffffULL, &v)) {
				if (strcmp(copy, "DeviceFileMode") == 0)
					p->mode = (unsigned)v & 07777;
				else if (strcmp(copy, "DeviceFileUID") == 0)
					p->uid = (unsigned)v;
				else if (strcmp(copy, "DeviceFileGID") == 0)
					p->gid = (unsigned)v;
				else if (strcmp(copy, "ModifyDeviceFiles") == 0 ||
					 strcmp(copy, "DeviceFileModify") == 0)
					p->modify = v != 0;
			}
		}
		line = end ? end + 1 : NULL;
	}
}

/* Read the params of one proc file; a missing file keeps the defaults. */
static int read_params(const char *path, unsigned default_mode, struct file_params *p,
		       struct lx_error *err)
{
	*p = (struct file_params){.mode = default_mode, .modify = true};
	_cleanup_free_ char *text = NULL;
	if (lx_read_file_optional(path, PARAMS_MAX, &text, NULL, err) < 0)
		return -1;
	if (text)
		parse_params(text, p);
	return 0;
}

static enum lx_node_type type_of(mode_t m)
{
	return S_ISCHR(m) ? LX_NODE_CHAR : S_ISBLK(m) ? LX_NODE_BLOCK : LX_NODE_OTHER;
}

/* Add one wanted node and decide what to do from lstat() of it now. */
static int add_step(struct lx_node_plan *plan, const char *dev_dir, const char *rel,
		    unsigned maj, unsigned min, const struct file_params *p, struct lx_error *err)
{
	_cleanup_free_ char *real = lx_path_join(dev_dir, rel);
	struct stat st;
	bool have = lstat(real, &st) == 0;
	if (!have && errno != ENOENT)
		return lx_error_set_errno(err, errno, "%s: cannot stat", real);
	plan->steps = lx_xrealloc(plan->steps, (plan->n + 1) * sizeof(*plan->steps));
	struct lx_node_step *s = &plan->steps[plan->n++];
	*s = (struct lx_node_step){
		.path = lx_path_join("/dev", rel),
		.major = maj,
		.minor = min,
		.mode = p->mode,
		.uid = p->uid,
		.gid = p->gid,
		.have = have,
	};
	if (!have) {
		s->action = LX_NODE_CREATE;
		return 0;
	}
	s->have_type = type_of(st.st_mode);
	bool is_dev = s->have_type != LX_NODE_OTHER;
	s->have_major = is_dev ? major(st.st_rdev) : 0;
	s->have_minor = is_dev ? minor(st.st_rdev) : 0;
	s->have_mode = st.st_mode & 07777;
	s->have_uid = st.st_uid;
	s->have_gid = st.st_gid;
	if (s->have_type != LX_NODE_CHAR || s->have_major != maj || s->have_minor != min)
		s->action = LX_NODE_REPLACE;
	else if (s->have_mode != s->mode || s->have_uid != s->uid || s->have_gid != s->gid)
		s->action = LX_NODE_FIX;
	else
		s->action = LX_NODE_KEEP;
	return 0;
}

/* The access file of a capability: "<name>/access" for MIG instances,
 * the file "<name>" itself for mig/config, mig/monitor, fabric-imex-mgmt. */
static char *cap_access_path(const char *proc_dir, const char *name)
{
	_cleanup_free_ char *base = lx_path_join(proc_dir, "driver/nvidia/capabilities");
	_cleanup_free_ char *dir = lx_path_join(base, name);
	char *access = lx_path_join(dir, "access");
	struct stat st;
	if (stat(access, &st) == 0)
		return access;
	free(access);
	return lx_xstrdup(dir);
}

static bool has_loaded(const struct lx_host *host, const char *module)
{
	/* /proc/modules spells names with '_'; the model keeps them as read. */
	return lx_host_has_module(host, module);
}

int lx_node_plan_make(const struct lx_host *host, const char *proc_dir, const char *dev_dir,
		      struct lx_node_plan *plan, struct lx_error *err)
{
	memset(plan, 0, sizeof(*plan));
	int gpu_major = lx_host_gpu_major(host);
	if (gpu_major < 0) {
		lx_strv_push(&plan->notes, "the nvidia module is not loaded (no 'nvidia' in "
					   "/proc/devices): no NVIDIA nodes to make");
		return 0;
	}
	_cleanup_free_ char *params_path = lx_path_join(proc_dir, "driver/nvidia/params");
	struct file_params params;
	if (read_params(params_path, DEFAULT_MODE, &params, err) < 0)
		goto fail;
	if (!params.modify) {
		/* The admin told the driver to leave the nodes alone (NVreg_
		 * ModifyDeviceFiles=0); nvidia-modprobe then touches none of them. */
		lx_strv_push(&plan->notes, "ModifyDeviceFiles is 0 in /proc/driver/nvidia/params: "
					   "the nvidia-major nodes are left as they are");
	} else {
		if (add_step(plan, dev_dir, "nvidiactl", (unsigned)gpu_major, NVIDIACTL_MINOR, &params,
			     err) < 0)
			goto fail;
		for (size_t i = 0; i < host->n_gpus; i++) {
			const struct lx_gpu *g = &host->gpus[i];
			if (!g->driver || strcmp(g->driver, "nvidia") != 0)
				continue;
			if (g->minor < 0) {
				_cleanup_free_ char *note = lx_xasprintf(
					"%s: the driver lists no Device Minor: no /dev/nvidiaN made for it",
					g->bdf);
				lx_strv_push(&plan->notes, note);
				continue;
			}
			_cleanup_free_ char *rel = lx_xasprintf("nvidia%d", g->minor);
			if (add_step(plan, dev_dir, rel, (unsigned)gpu_major, (unsigned)g->minor,
				     &params, err) < 0)
				goto fail;
		}
		if (has_loaded(host, "nvidia_modeset") &&
		    add_step(plan, dev_dir, "nvidia-modeset", (unsigned)gpu_major, MODESET_MINOR,
			     &params, err) < 0)
			goto fail;
	}
	int uvm = lx_host_major_by_name(host, "nvidia-uvm");
	if (uvm < 0) {
		lx_strv_push(&plan->notes,
			     "nvidia-uvm is not loaded (not in /proc/devices): no /dev/nvidia-uvm or "
			     "/dev/nvidia-uvm-tools made, and CUDA needs them; load it with "
			     "'modprobe nvidia-uvm' or run 'lxgpu ensure-nodes --load-modules'");
	} else {
		/* nvidia-modprobe passes no params file for uvm: always 0666 root. */
		struct file_params uvm_params = {.mode = DEFAULT_MODE, .modify = true};
		if (add_step(plan, dev_dir, "nvidia-uvm", (unsigned)uvm, 0, &uvm_params, err) < 0 ||
		    add_step(plan, dev_dir, "nvidia-uvm-tools", (unsigned)uvm, 1, &uvm_params, err) < 0)
			goto fail;
	}
	int caps = lx_host_major_by_name(host, "nvidia-caps");
	if (host->n_caps > 0 && caps < 0)
		lx_strv_push(&plan->notes, "the driver lists capabilities but nvidia-caps is not in "
					   "/proc/devices: no /dev/nvidia-caps nodes made");
	for (size_t i = 0; caps >= 0 && i < host->n_caps; i++) {
		_cleanup_free_ char *access = cap_access_path(proc_dir, host->caps[i].name);
		struct file_params cp;
		if (read_params(access, CAP_FALLBACK_MODE, &cp, err) < 0)
			goto fail;
		if (!cp.modify)
			continue; /* DeviceFileModify: 0, as nvidia-modprobe: leave it */
		_cleanup_free_ char *rel = lx_xasprintf("nvidia-caps/nvidia-cap%u", host->caps[i].minor);
		if (add_step(plan, dev_dir, rel, (unsigned)caps, host->caps[i].minor, &cp, err) < 0)
			goto fail;
		if (plan->steps[plan->n - 1].action == LX_NODE_CREATE) {
			_cleanup_free_ char *dir = lx_path_join(dev_dir, "nvidia-caps");
			struct stat st;
			plan->make_caps_dir = lstat(dir, &st) < 0;
		}
	}
	return 0;
fail:
	lx_node_plan_free(plan);
	return -1;
}

int lx_node_plan_add_mig_minors(const struct lx_host *host, const char *dev_dir,
				struct lx_node_plan *plan, struct lx_error *err)
{
	int caps = lx_host_major_by_name(host, "nvidia-caps");
	if (caps < 0) {
		if (host->n_mig_minors > 0)
			lx_strv_push(&plan->notes, "nvidia-caps is not in /proc/devices: no MIG "
						   "nodes made from mig-minors");
		return 0;
	}
	if (host->n_mig_minors == 0)
		lx_strv_push(&plan->notes, "the driver gives no /proc/driver/nvidia-caps/mig-minors: "
					   "only the instances that exist now have nodes");
	for (size_t i = 0; i < host->n_mig_minors; i++) {
		const struct lx_capability *c = &host->mig_minors[i];
		bool planned = false;
		_cleanup_free_ char *path = lx_xasprintf("/dev/nvidia-caps/nvidia-cap%u", c->minor);
		for (size_t k = 0; k < plan->n && !planned; k++)
			planned = strcmp(plan->steps[k].path, path) == 0;
		if (planned)
			continue; /* an instance that exists: its access file's mode */
		/* The modes the driver gives these capabilities when it makes
		 * them: config owner-read, monitor and instances world-read. */
		struct file_params cp = {.mode = strcmp(c->name, "mig/config") == 0 ? 0400 : 0444,
					 .modify = true};
		_cleanup_free_ char *rel = lx_xasprintf("nvidia-caps/nvidia-cap%u", c->minor);
		if (add_step(plan, dev_dir, rel, (unsigned)caps, c->minor, &cp, err) < 0)
			return -1;
		if (plan->steps[plan->n - 1].action == LX_NODE_CREATE) {
			_cleanup_free_ char *dir = lx_path_join(dev_dir, "nvidia-caps");
			struct stat st;
			plan->make_caps_dir = plan->make_caps_dir || lstat(dir, &st) < 0;
		}
	}
	return 0;
}

size_t lx_node_plan_changes(const struct lx_node_plan *plan)
{
	size_t n = plan->make_caps_dir ? 1 : 0;
	for (size_t i = 0; i < plan->n; i++)
		n += plan->steps[i].action != LX_NODE_KEEP;
	return n;
}

static char type_char(enum lx_node_type t)
{
	return t == LX_NODE_CHAR ? 'c' : t == LX_NODE_BLOCK ? 'b' : '-';
}

char *lx_node_step_describe(const struct lx_node_step *s)
{
	switch (s->action) {
	case LX_NODE_CREATE:
		return lx_xasprintf("create %s c %u:%u %04o %u:%u", s->path, s->major, s->minor,
				    s->mode, s->uid, s->gid);
	case LX_NODE_REPLACE:
		return lx_xasprintf("replace %s %c %u:%u with c %u:%u %04o %u:%u", s->path,
				    type_char(s->have_type), s->have_major, s->have_minor, s->major,
				    s->minor, s->mode, s->uid, s->gid);
	case LX_NODE_FIX:
		return lx_xasprintf("fix %s mode %04o owner %u:%u to %04o %u:%u", s->path,
				    s->have_mode, s->have_uid, s->have_gid, s->mode, s->uid, s->gid);
	case LX_NODE_KEEP: break;
	}
	return lx_xasprintf("keep %s c %u:%u %04o %u:%u", s->path, s->major, s->minor, s->mode,
			    s->uid, s->gid);
}

int lx_node_plan_apply(const struct lx_node_plan *plan, const char *dev_dir, struct lx_error *err)
{
	if (plan->make_caps_dir) {
		/* nvidia-modprobe makes it 0755. */
		_cleanup_free_ char *dir = lx_path_join(dev_dir, "nvidia-caps");
		lx_interrupt_hold();
		int made = mkdir(dir, 0755), e = errno;
		if (made == 0)
			lx_interrupt_changed("made", dir);
		lx_interrupt_release();
		if (made < 0 && e != EEXIST)
			return lx_error_set_errno(err, e, "%s: cannot make the directory", dir);
		if (chmod(dir, 0755) < 0)
			return lx_error_set_errno(err, errno, "%s: cannot chmod", dir);
	}
	for (size_t i = 0; i < plan->n; i++) {
		const struct lx_node_step *s = &plan->steps[i];
		if (s->action == LX_NODE_KEEP)
			continue;
		/* The step's path is logical ("/dev/..."): strip "/dev/" to place it. */
		_cleanup_free_ char *real = lx_path_join(dev_dir, s->path + strlen("/dev/"));
		if (s->action == LX_NODE_FIX) {
			/* lstat said it is a char node with the right number: chmod
			 * and lchown change only its inode, never open it. */
			lx_interrupt_hold();
			int rc = 0;
			if (chmod(real, s->mode) < 0) {
				rc = lx_error_set_errno(err, errno, "%s: cannot chmod %04o", real, s->mode);
			} else {
				lx_interrupt_changed("changed the mode or owner of", real);
				if (lchown(real, s->uid, s->gid) < 0)
					rc = lx_error_set_errno(err, errno, "%s: cannot chown %u:%u", real,
								s->uid, s->gid);
			}
			lx_interrupt_release();
			if (rc < 0)
				return -1;
			continue;
		}
		if (lx_atomic_mknod(real, s->mode, makedev(s->major, s->minor), s->uid, s->gid, err) < 0)
			return -1;
	}
	return 0;
}

void lx_node_plan_to_model(const struct lx_node_plan *plan, struct lx_host *host)
{
	for (size_t i = 0; i < plan->n; i++) {
		const struct lx_node_step *s = &plan->steps[i];
		struct lx_dev_node *n = (struct lx_dev_node *)lx_host_find_node(host, s->path);
		if (!n) {
			host->nodes = lx_xrealloc(host->nodes, (host->n_nodes + 1) * sizeof(*host->nodes));
			n = &host->nodes[host->n_nodes++];
			memset(n, 0, sizeof(*n));
			n->path = lx_xstrdup(s->path);
		}
		n->type = LX_NODE_CHAR;
		n->major = s->major;
		n->minor = s->minor;
		n->mode = s->mode;
		n->uid = s->uid;
		n->gid = s->gid;
	}
}

void lx_node_plan_free(struct lx_node_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		free(plan->steps[i].path);
	free(plan->steps);
	lx_strv_free(&plan->notes);
	memset(plan, 0, sizeof(*plan));
}

int lx_module_load(const char *proc_dir, const char *module, struct lx_error *err)
{
	/* The kernel's own modprobe path, as nvidia-modprobe reads it; a
	 * --proc-dir can point it at a stand-in. */
	_cleanup_free_ char *conf = lx_path_join(proc_dir, "sys/kernel/modprobe");
	_cleanup_free_ char *text = NULL;
	if (lx_read_file_optional(conf, 4096, &text, NULL, err) < 0)
		return -1;
	if (text)
		lx_str_strip(text);
	const char *modprobe = text && *text ? text : "/sbin/modprobe";
	if (modprobe[0] != '/')
		return lx_error_set(err, "%s: '%s' is not an absolute path", conf, modprobe);
	/* No shell: the module name goes to modprobe as one argument. */
	pid_t pid = fork();
	if (pid < 0)
		return lx_error_set_errno(err, errno, "cannot fork to run %s", modprobe);
	if (pid == 0) {
		char *const argv[] = {(char *)"modprobe", (char *)module, NULL};
		execv(modprobe, argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return lx_error_set_errno(err, errno, "cannot wait for %s", modprobe);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return lx_error_set(err, "cannot run %s (missing or not executable)", modprobe);
	if (WIFEXITED(status))
		return lx_error_set(err, "%s %s failed (exit status %d)", modprobe, module,
				    WEXITSTATUS(status));
	return lx_error_set(err, "%s %s was killed by signal %d", modprobe, module,
			    WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* data/lxgpu-nodes.service.in as configured and installed (data/meson.build
 * embeds it): the unit printed and the unit installed are one file. */
extern const char lx_nodes_boot_unit_file[];

const char *lx_nodes_boot_unit_text(void)
{
	return lx_nodes_boot_unit_file;
}

void lx_nodes_modules_to_load(const struct lx_host *host, struct lx_strv *out)
{
	/* Only with the nvidia module itself loaded: without it there is no GPU
	 * the driver drives, and loading uvm would pull nvidia in behind the
	 * admin's back (a host that gives its GPUs to VMs). */
	if (lx_host_gpu_major(host) < 0)
		return;
	if (!lx_host_has_module(host, "nvidia_uvm"))
		lx_strv_push(out, "nvidia-uvm");
	/* "Where the host uses it": a GPU drives a display through DRM. */
	bool uses_modeset = lx_host_has_module(host, "nvidia_drm");
	for (size_t i = 0; i < host->n_gpus && !uses_modeset; i++)
		uses_modeset = host->gpus[i].driver && strcmp(host->gpus[i].driver, "nvidia") == 0 &&
			       host->gpus[i].n_drm > 0;
	if (uses_modeset && !lx_host_has_module(host, "nvidia_modeset"))
		lx_strv_push(out, "nvidia-modeset");
}
