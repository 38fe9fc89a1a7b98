/* verify: what a container really has, compared with what it should have. */
#ifndef LXGPU_VERIFY_H
#define LXGPU_VERIFY_H

#include <stdbool.h>

/* Whether LXC runs the container now: its cgroup exists under cgroup_root
 * (/sys/fs/cgroup): lxc/<id> (PVE), lxc.payload.<id> (LXC >= 4), on the
 * unified hierarchy or the v1 devices one. */
bool lx_container_running(const char *cgroup_root, const char *id);

#endif
