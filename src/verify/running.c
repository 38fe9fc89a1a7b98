/* Is a container running? Its cgroup says so without asking liblxc. */
#include "lxgpu/verify.h"
#include "lxgpu/util.h"

#include <sys/stat.h>

bool lx_container_running(const char *cgroup_root, const char *id)
{
	static const char *const prefixes[] = {
		"lxc/",         "lxc.payload.",         "lxc.payload/",
		"devices/lxc/", "devices/lxc.payload.", "unified/lxc.payload.",
	};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		_cleanup_free_ char *path = lx_xasprintf("%s/%s%s", cgroup_root, prefixes[i], id);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return true;
	}
	return false;
}
