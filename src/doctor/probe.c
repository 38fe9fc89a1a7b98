/* doctor --probe: ask CUDA itself. A child process loads libcuda.so.1 as a
 * CUDA program does (dlopen of the soname: the loader's search, so
 * LD_LIBRARY_PATH and ld.so.cache decide which one), calls cuInit(0) and
 * cuDeviceGetCount, and writes what they returned to a pipe. The child
 * initializes the GPUs (seconds each without persistence mode) and may
 * hang in the driver: it gets a deadline and is killed at it. Only here
 * does lxgpu open GPU nodes, and only when the user asks. */
#include "lxgpu/doctor.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROBE_REPLY_MAX 4096

/* cuda.h's CUresult names of the codes doctor reads, for a libcuda that
 * has no cuGetErrorName (before CUDA 6.0) or does not answer it. */
static const struct {
	int code;
	const char *name;
} cuda_names[] = {
	{0, "CUDA_SUCCESS"},
	{1, "CUDA_ERROR_INVALID_VALUE"},
	{2, "CUDA_ERROR_OUT_OF_MEMORY"},
	{3, "CUDA_ERROR_NOT_INITIALIZED"},
	{4, "CUDA_ERROR_DEINITIALIZED"},
	{34, "CUDA_ERROR_STUB_LIBRARY"},
	{35, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
	{46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
	{100, "CUDA_ERROR_NO_DEVICE"},
	{101, "CUDA_ERROR_INVALID_DEVICE"},
	{304, "CUDA_ERROR_OPERATING_SYSTEM"},
	{800, "CUDA_ERROR_NOT_PERMITTED"},
	{801, "CUDA_ERROR_NOT_SUPPORTED"},
	{802, "CUDA_ERROR_SYSTEM_NOT_READY"},
	{803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
	{804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
	{999, "CUDA_ERROR_UNKNOWN"},
};

const char *lx_cuda_error_name(int code)
{
	for (size_t i = 0; i < sizeof(cuda_names) / sizeof(cuda_names[0]); i++)
		if (cuda_names[i].code == code)
			return cuda_names[i].name;
	return NULL;
}

typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_name_fn)(int, const char **);

struct probe_args {
	const char *soname;
	bool in_container;
};

/* The loader reads LD_LIBRARY_PATH once, when lxgpu starts: inside a
 * container its environment's is searched here, first, as its loader
 * would (then the loader's own search: the container's ld.so.cache, read
 * at each dlopen, and its default directories). */
static void *open_library(const struct probe_args *a)
{
	const char *dirs = a->in_container ? getenv("LD_LIBRARY_PATH") : NULL;
	_cleanup_free_ char *copy = dirs ? lx_xstrdup(dirs) : NULL;
	char *save = NULL;
	for (char *d = copy ? strtok_r(copy, ":;", &save) : NULL; d; d = strtok_r(NULL, ":;", &save)) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s", d, a->soname);
		void *h = access(path, F_OK) == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
		if (h)
			return h;
	}
	return dlopen(a->soname, RTLD_NOW | RTLD_LOCAL);
}

/* The child: one line "loaded PATH", then "init CODE NAME" and, when it
 * succeeded, "count N"; or "dlopen ERROR". */
static void probe_child(int fd, void *ctx)
{
	const struct probe_args *args = ctx;
	const char *soname = args->soname;
	FILE *out = fdopen(fd, "w");
	if (!out)
		_exit(1);
	void *h = open_library(args);
	if (!h) {
		const char *e = dlerror();
		fprintf(out, "dlopen %s\n", e ? e : "failed");
		fclose(out);
		_exit(0);
	}
	struct link_map *map = NULL;
	if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
		fprintf(out, "loaded %s\n", map->l_name);
	cu_init_fn init = (cu_init_fn)dlsym(h, "cuInit");
	cu_count_fn count = (cu_count_fn)dlsym(h, "cuDeviceGetCount");
	cu_name_fn name = (cu_name_fn)dlsym(h, "cuGetErrorName");
	if (!init) {
		fprintf(out, "dlopen %s has no cuInit\n", soname);
		fclose(out);
		_exit(0);
	}
	fflush(out);
	int rc = init(0);
	const char *text = NULL;
	if (!name || name(rc, &text) != 0 || !text)
		text = lx_cuda_error_name(rc);
	fprintf(out, "init %d %s\n", rc, text ? text : "?");
	int n = -1;
	if (rc == 0 && count && count(&n) == 0)
		fprintf(out, "count %d\n", n);
	fclose(out);
	_exit(0);
}

static long long ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What the child wrote into the result. */
static void parse_reply(char *text, struct lx_cuda_probe *out)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (lx_str_starts_with(line, "loaded ")) {
			free(out->library);
			out->library = lx_xstrdup(line + strlen("loaded "));
		} else if (lx_str_starts_with(line, "dlopen ")) {
			free(out->load_error);
			out->load_error = lx_xstrdup(line + strlen("dlopen "));
		} else if (lx_str_starts_with(line, "init ")) {
			char *end;
			long v = strtol(line + 5, &end, 10);
			out->answered = end != line + 5;
			out->init = (int)v;
			free(out->init_name);
			out->init_name = lx_xstrdup(*end == ' ' ? end + 1 : "?");
		} else if (lx_str_starts_with(line, "enter ")) {
			free(out->enter_error);
			out->enter_error = lx_xstrdup(line + strlen("enter "));
		} else if (lx_str_starts_with(line, "count ")) {
			out->devices = atoi(line + strlen("count "));
		}
	}
}

int lx_cuda_probe_run(const char *soname, const struct lx_probe_target *target, int timeout_ms,
		      struct lx_cuda_probe *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	out->devices = -1;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return lx_error_set_errno(err, errno, "doctor --probe: pipe");
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return lx_error_set_errno(err, e, "doctor --probe: fork");
	}
	if (pid == 0) {
		close(fds[0]);
		struct probe_args args = {soname, target != NULL};
		if (target)
			lx_probe_enter_and_run(target, fds[1], probe_child, &args);
		probe_child(fds[1], &args);
	}
	close(fds[1]);
	struct lx_buf reply = {0};
	long long deadline = ms_now() + timeout_ms;
	bool eof = false;
	while (!eof && reply.len < PROBE_REPLY_MAX) {
		long long left = deadline - ms_now();
		if (left <= 0)
			break;
		struct pollfd p = {.fd = fds[0], .events = POLLIN};
		int r = poll(&p, 1, (int)(left > 1000000 ? 1000000 : left));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		char chunk[512];
		ssize_t n = read(fds[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			eof = true;
		else
			lx_buf_append(&reply, chunk, (size_t)n);
	}
	close(fds[0]);
	int status = 0;
	if (!eof) {
		kill(pid, SIGKILL);
		out->timed_out = true;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!out->timed_out && WIFSIGNALED(status))
		out->crashed_signal = WTERMSIG(status);
	lx_buf_puts(&reply, "");
	parse_reply(reply.data, out);
	lx_buf_free(&reply);
	return 0;
}

int lx_cuda_probe_container(const struct lx_runtime_paths *paths, const struct lx_host *host,
			    const char *id, int timeout_ms, struct lx_cuda_probe *out,
			    struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	out->devices = -1;
	struct lx_running run;
	lx_container_find(paths, host->cgroup, id, &run);
	if (run.state != LX_RUN_RUNNING) {
		out->unprobed = true;
		lx_running_free(&run);
		return 0;
	}
	struct lx_probe_target t;
	struct lx_error why = {0};
	int rc = 0;
	if (lx_probe_target_of(paths, &run, &t, &why) < 0) {
		out->enter_error = lx_xstrdup(why.message);
		lx_error_clear(&why);
	} else {
		rc = lx_cuda_probe_run("libcuda.so.1", &t, timeout_ms, out, err);
		lx_probe_target_free(&t);
	}
	lx_running_free(&run);
	return rc;
}

void lx_cuda_probe_free(struct lx_cuda_probe *p)
{
	free(p->enter_error);
	free(p->library);
	free(p->load_error);
	free(p->init_name);
	memset(p, 0, sizeof(*p));
}

/* GPUs bound to nvidia, and whether none has a MIG GPU instance: then a
 * GPU in MIG mode (which the model cannot see: NVML alone says it) has no
 * MIG device, and a GPU in MIG mode runs CUDA only on its MIG devices
 * (NVIDIA's MIG user guide): it is no CUDA device at all. */
static size_t bound_gpus_without_instances(const struct lx_host *host)
{
	size_t n = 0;
	for (size_t i = 0; i < host->n_gpus; i++) {
		const struct lx_gpu *g = &host->gpus[i];
		if (lx_host_gpu_mig_state(host, i) == LX_MIG_ON)
			return 0;
		n += lx_gpu_kind(g) == LX_GPU_NVIDIA && g->driver && strcmp(g->driver, "nvidia") == 0;
	}
	return n;
}

#define MIG_CHECK_FIX                                                                              \
	"by hand: `nvidia-smi --query-gpu=index,pci.bus_id,mig.mode.current --format=csv`; for a GPU " \
	"whose MIG mode is Enabled, create its instances (nvidia-smi mig -cgi PROFILES -C) or turn "    \
	"MIG off (nvidia-smi -i N -mig 0, with its processes stopped)"

/* The MIG hint when CUDA sees fewer devices than the GPUs bound to nvidia
 * (NULL when that does not hold). */
static char *mig_hint(const struct lx_host *host, int devices)
{
	size_t bound = bound_gpus_without_instances(host);
	if (!host->driver.version || !bound || devices < 0 || (size_t)devices >= bound)
		return NULL;
	return lx_xasprintf("CUDA sees %d device%s, %zu GPU%s %s bound to nvidia and none has a MIG GPU "
			    "instance: a GPU in MIG mode without a GPU instance is no CUDA device while "
			    "nvidia-smi lists it (the host's files do not show MIG mode: check it)",
			    devices, devices == 1 ? "" : "s", bound, bound == 1 ? "" : "s",
			    bound == 1 ? "is" : "are");
}

/* The causes doctor knows for a cuInit code, checked against the host
 * model (NULL when none holds): written from cuda.h's descriptions of the
 * codes and the causes doctor checks without the probe. */
static char *probe_cause(const struct lx_host *host, const struct lx_cuda_probe *p)
{
	bool uvm = lx_host_has_module(host, "nvidia_uvm");
	bool uvm_node = lx_host_find_node(host, "/dev/nvidia-uvm") != NULL;
	switch (p->init) {
	case 3:
	case 999:
		if (p->init == 3 && lx_doctor_uvm_hmm_on(host))
			return lx_xstrdup("nvidia_uvm's HMM support is on (LXG132): the known cause of "
					  "this code while nvidia-smi works");
		if (!uvm)
			return lx_xasprintf("cuInit %d and nvidia_uvm is not loaded (LXG020): CUDA "
					    "cannot initialize without it", p->init);
		if (!uvm_node)
			return lx_xasprintf("cuInit %d and /dev/nvidia-uvm is missing (LXG122)", p->init);
		return NULL;
	case 100:
		return host->driver.version ? NULL
					    : lx_xstrdup("no device: the nvidia module is not loaded (LXG120)");
	case 802:
		return lx_xstrdup("the system is not ready: on NVSwitch/NVLink systems Fabric Manager "
				  "has not set up the fabric (LXG117, LXG119)");
	case 35:
	case 803:
		return host->driver.version
			       ? lx_xasprintf("this libcuda and the loaded module %s are of different "
					      "versions (the library's file name says its own)",
					      host->driver.version)
			       : NULL;
	default:
		return NULL;
	}
}

/* The container's own finding (verify's, already in out) that explains
 * the code: its libraries of another version for 35/803, a node the GPUs
 * need missing or denied for the others. NULL when none. */
static char *container_cause(const char *id, const struct lx_cuda_probe *p,
			     const struct lx_findings *out)
{
	static const enum lx_finding_code node_codes[] = {
		LXG002_MISSING_NODE,      LXG008_PLANNED_NODE_MISSING, LXG009_DEVN_NODE_MISSING,
		LXG014_NO_CGROUP_RULE,    LXG016_NODE_MISSING_INSIDE,  LXG018_CGROUP_DENIES,
		LXG022_CGROUP_DENIES_NEEDED, LXG010_UNUSABLE_MODE,
	};
	bool version = p->init == 35 || p->init == 803;
	for (size_t i = 0; i < out->n; i++) {
		const struct lx_finding *f = &out->items[i];
		if (!f->container || strcmp(f->container, id) != 0 || f->severity == LX_SEVERITY_INFO)
			continue;
		bool node = false;
		for (size_t k = 0; k < sizeof(node_codes) / sizeof(node_codes[0]); k++)
			node |= f->code == node_codes[k];
		if (version ? f->code == LXG011_DRIVER_MISMATCH : node)
			return lx_xasprintf("%s (%s)", f->message, lx_finding_info(f->code)->code);
	}
	return NULL;
}

/* LXG133 on the host (id NULL) or in container id. */
static void probe_finding(const struct lx_host *host, const char *id, const struct lx_cuda_probe *p,
			  int timeout_ms, struct lx_findings *out)
{
	const char *lib = p->library ? p->library : "libcuda.so.1";
	const char *where = id ? "in the container" : "on the host";
	char *message, *fix = NULL, *evidence;
	enum lx_severity severity = LX_SEVERITY_ERROR;
	if (p->unprobed) {
		severity = LX_SEVERITY_INFO;
		message = lx_xstrdup("the container is not running: --probe asks CUDA inside a running "
				     "container only");
		evidence = lx_xasprintf("container %s: stopped", id);
	} else if (p->enter_error) {
		severity = LX_SEVERITY_WARNING;
		message = lx_xasprintf("the probe could not become a process of the container (%s): "
				       "nothing of it was run",
				       p->enter_error);
		fix = lx_xstrdup("by hand: run a CUDA program in the container (pct exec or lxc-attach)");
		evidence = lx_xasprintf("entering the container: %s", p->enter_error);
	} else if (p->load_error) {
		message = lx_xasprintf("libcuda.so.1 could not be loaded %s (%s): no CUDA program starts",
				       where, p->load_error);
		fix = id ? lx_xasprintf("give it the host's driver files (`lxgpu apply %s --driver-libs`), "
					"or install the userspace driver of the loaded module%s%s in it",
					id, host->driver.version ? " " : "",
					host->driver.version ? host->driver.version : "")
			 : lx_xasprintf("by hand: install the driver's userspace of the loaded module%s%s "
					"(libcuda.so.1 in the loader's path)",
					host->driver.version ? " " : "",
					host->driver.version ? host->driver.version : "");
		evidence = lx_xasprintf("dlopen(\"libcuda.so.1\")%s: %s", id ? " in the container" : "",
					p->load_error);
	} else if (p->timed_out || !p->answered) {
		message = p->timed_out
			? lx_xasprintf("cuInit(0) did not return within %d s %s (%s): the driver hangs "
				       "initializing a GPU",
				       timeout_ms / 1000, where, lib)
			: lx_xasprintf("the probe of %s %s ended without an answer%s%s", lib, where,
				       p->crashed_signal ? ": killed by signal " : "",
				       p->crashed_signal ? strsignal(p->crashed_signal) : "");
		fix = lx_xstrdup("by hand: read the kernel log of the moment (dmesg), and "
				 "nvidia-smi -q for the GPUs' state");
		evidence = lx_xasprintf("%s: cuInit(0) %s", lib,
					p->timed_out ? "still running at the deadline" : "no result");
	} else if (p->init == 0) {
		/* on the host every GPU bound to nvidia should be a device */
		_cleanup_free_ char *mig = id ? NULL : mig_hint(host, p->devices);
		severity = mig ? LX_SEVERITY_WARNING : LX_SEVERITY_INFO;
		message = lx_xasprintf("cuInit(0) succeeded %s: %d device%s (%s)%s%s", where, p->devices,
				       p->devices == 1 ? "" : "s", lib, mig ? "; " : "", mig ? mig : "");
		fix = mig ? lx_xstrdup(MIG_CHECK_FIX) : NULL;
		evidence = lx_xasprintf("%s: cuInit(0) = 0 (CUDA_SUCCESS); cuDeviceGetCount = %d", lib,
					p->devices);
	} else {
		_cleanup_free_ char *known = id ? container_cause(id, p, out) : NULL;
		if (!known)
			known = probe_cause(host, p);
		/* no device, nothing else explains it: MIG mode is the one
		 * cause left that the files cannot show */
		_cleanup_free_ char *mig = !known && p->init == 100 ? mig_hint(host, 0) : NULL;
		const char *cause = known ? known : mig;
		message = lx_xasprintf("cuInit(0) failed %s with %d (%s)%s%s", where, p->init,
				       p->init_name,
				       cause ? ": " : id ? "; doctor finds no cause of it in the host's "
							   "facts or the container's"
							 : "; doctor finds no cause of it in the host's facts",
				       cause ? cause : "");
		fix = mig     ? lx_xstrdup(MIG_CHECK_FIX)
		      : cause ? lx_xstrdup("by hand: the fix of the finding named") :
			      lx_xstrdup("by hand: run the failing program with CUDA_LOG_FILE=stderr "
					 "(CUDA 12.9 and later) and read the kernel log of the moment");
		evidence = lx_xasprintf("%s%s: cuInit(0) = %d (%s)", lib, id ? " (in the container)" : "",
					p->init, p->init_name);
	}
	lx_findings_add(out, LXG133_CUDA_PROBE, id, NULL, 0, NULL, message, fix);
	lx_findings_last_severity(out, severity);
	lx_findings_last_evidence(out, evidence);
}

void lx_doctor_probe(const struct lx_host *host, const struct lx_cuda_probe *p, int timeout_ms,
		     struct lx_findings *out)
{
	probe_finding(host, NULL, p, timeout_ms, out);
}

void lx_doctor_probe_container(const struct lx_host *host, const char *id,
			       const struct lx_cuda_probe *p, int timeout_ms, struct lx_findings *out)
{
	probe_finding(host, id, p, timeout_ms, out);
}
