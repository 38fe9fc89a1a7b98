# Sourced at the top of a script that runs in a private mount namespace
# (unshare -m): replaces /dev there with a tmpfs holding only the basics LXC
# needs (bind mounts of the host's null, zero, tty, ... and pts, shm,
# mqueue), so the test can mknod GPU nodes without touching the host's /dev.
private_dev() {
	mkdir -p /run/lxgpu-realdev
	mount --rbind /dev /run/lxgpu-realdev
	mount -t tmpfs -o mode=755 lxgpu-dev /dev
	for node in null zero full random urandom tty ptmx console kmsg; do
		[ -e "/run/lxgpu-realdev/$node" ] || continue
		touch "/dev/$node"
		mount --bind "/run/lxgpu-realdev/$node" "/dev/$node"
	done
	for dir in pts shm mqueue; do
		mkdir -p "/dev/$dir"
		[ -d "/run/lxgpu-realdev/$dir" ] && mount --rbind "/run/lxgpu-realdev/$dir" "/dev/$dir"
	done
	umount -l /run/lxgpu-realdev
}
