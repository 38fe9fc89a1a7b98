#!/bin/sh
# without-lxc-info.sh COMMAND...: COMMAND where no lxc-info can be run: in a
# private mount namespace each place lxgpu looks for it is covered by
# /dev/null (not executable), so lxgpu finds a container by its cgroup.
exec unshare --mount --propagation private sh -c '
for f in /usr/bin/lxc-info /usr/sbin/lxc-info /bin/lxc-info /sbin/lxc-info; do
	[ -e "$f" ] && { mount --bind /dev/null "$f" || exit 125; }
done
exec "$@"' sh "$@"
