/* Findings: stable codes, severities, and the list commands print. */
#include "lxgpu/verify.h"

#include <string.h>

static const struct lx_finding_info infos[LX_FINDING_CODES_END] = {
	[LXG001_STALE_MAJOR] = {"LXG001", LX_SEVERITY_WARNING, "cgroup rule for a stale major"},
	[LXG002_MISSING_NODE] = {"LXG002", LX_SEVERITY_ERROR, "bind mount of a node the host lacks"},
	[LXG003_NO_SUCH_GPU] = {"LXG003", LX_SEVERITY_ERROR, "node of a GPU that does not exist"},
	[LXG004_GPU_ON_VFIO] = {"LXG004", LX_SEVERITY_ERROR, "node of a GPU not bound to nvidia"},
	[LXG005_LINES_IN_SECTION] = {"LXG005", LX_SEVERITY_WARNING,
				     "GPU lines in a snapshot or pending section"},
	[LXG006_WRONG_CGROUP_KEYS] = {"LXG006", LX_SEVERITY_ERROR,
				      "cgroup keys of the other cgroup version"},
	[LXG007_OVER_BROAD_RULE] = {"LXG007", LX_SEVERITY_WARNING, "over-broad device rule"},
	[LXG008_PLANNED_NODE_MISSING] = {"LXG008", LX_SEVERITY_ERROR,
					 "a node the GPUs need is not configured"},
	[LXG009_DEVN_NODE_MISSING] = {"LXG009", LX_SEVERITY_ERROR,
				      "devN for a node that does not exist"},
	[LXG010_UNUSABLE_MODE] = {"LXG010", LX_SEVERITY_WARNING,
				  "container users cannot open a node"},
	[LXG011_DRIVER_MISMATCH] = {"LXG011", LX_SEVERITY_ERROR,
				    "userspace driver of another version than the host's module"},
	[LXG012_GPU_SHARED] = {"LXG012", LX_SEVERITY_ERROR, "a GPU in more than one container"},
	[LXG013_GPU_IN_VM] = {"LXG013", LX_SEVERITY_ERROR, "a GPU in a container and in a VM"},
	[LXG014_NO_CGROUP_RULE] = {"LXG014", LX_SEVERITY_ERROR,
				   "a bind-mounted node no cgroup rule allows"},
	[LXG015_STALE_NODE_INSIDE] = {"LXG015", LX_SEVERITY_ERROR,
				      "a node inside the container with a stale major:minor"},
	[LXG016_NODE_MISSING_INSIDE] = {"LXG016", LX_SEVERITY_ERROR,
					"a configured node is missing inside the container"},
	[LXG017_MOUNT_MISSING_INSIDE] = {"LXG017", LX_SEVERITY_ERROR,
					 "a configured bind mount is missing inside the container"},
	[LXG018_CGROUP_DENIES] = {"LXG018", LX_SEVERITY_ERROR,
				  "the container's device cgroup denies a node"},
	[LXG019_RESTART_PENDING] = {"LXG019", LX_SEVERITY_INFO,
				    "the config changed since the container started"},
	[LXG020_UVM_NOT_LOADED] = {"LXG020", LX_SEVERITY_WARNING, "nvidia-uvm is not loaded"},
	[LXG021_NO_HOST_MODEL] = {"LXG021", LX_SEVERITY_INFO,
				  "a GPU container on a node lxgpu has no model of"},
	[LXG022_CGROUP_DENIES_NEEDED] = {"LXG022", LX_SEVERITY_ERROR,
					 "the device cgroup denies a node the GPUs need"},
	[LXG023_WILL_NOT_START] = {"LXG023", LX_SEVERITY_ERROR, "the container will not start"},
	[LXG024_INVALID_RULE] = {"LXG024", LX_SEVERITY_WARNING, "LXC refuses this device rule"},
	[LXG025_BASIC_DEVICES_BLOCKED] = {"LXG025", LX_SEVERITY_ERROR,
					  "the device cgroup blocks the container's basic devices"},
	[LXG026_RUNNING_UNCHECKED] = {"LXG026", LX_SEVERITY_WARNING,
				      "the running device cgroup could not be checked"},
};

const struct lx_finding_info *lx_finding_info(enum lx_finding_code code)
{
	return code > 0 && code < LX_FINDING_CODES_END ? &infos[code] : NULL;
}

const char *lx_severity_name(enum lx_severity s)
{
	return s == LX_SEVERITY_ERROR ? "error" : s == LX_SEVERITY_WARNING ? "warning" : "info";
}

static char *dup_or_null(const char *s)
{
	return s ? lx_xstrdup(s) : NULL;
}

void lx_findings_add(struct lx_findings *f, enum lx_finding_code code, const char *container,
		     const char *file, int line, const char *node, char *message, char *fix)
{
	f->items = lx_xrealloc(f->items, (f->n + 1) * sizeof(*f->items));
	struct lx_finding *x = &f->items[f->n++];
	x->code = code;
	x->severity = infos[code].severity;
	x->container = dup_or_null(container);
	x->file = dup_or_null(file);
	x->line = line;
	x->node = dup_or_null(node);
	x->message = message;
	x->fix = fix;
}

void lx_findings_last_severity(struct lx_findings *f, enum lx_severity severity)
{
	if (f->n)
		f->items[f->n - 1].severity = severity;
}

void lx_findings_truncate(struct lx_findings *f, size_t n)
{
	for (size_t i = n; i < f->n; i++) {
		free(f->items[i].container);
		free(f->items[i].file);
		free(f->items[i].node);
		free(f->items[i].message);
		free(f->items[i].fix);
	}
	if (n < f->n)
		f->n = n;
}

void lx_findings_free(struct lx_findings *f)
{
	lx_findings_truncate(f, 0);
	free(f->items);
	memset(f, 0, sizeof(*f));
}

bool lx_findings_have_errors(const struct lx_findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->items[i].severity == LX_SEVERITY_ERROR)
			return true;
	return false;
}
