# Sourced by the start guard's tests.
# guard_host FILE CGROUP MINOR_A MINOR_B DRIVER_B: their made-up host: two
# GPUs, A at 0000:01:00.0 and B at 0000:02:00.0, on the CGROUP layout; a
# minor of "null" means the driver has no node for it.
guard_host() {
	{
		cat <<EOF
schema: 2
hostname: pve-test
kernel: "6.8.12-4-pve"
cgroup: $2
driver:
  version: "550.127.05"
  flavor: proprietary
  modules: [nvidia_uvm, nvidia]
gpus:
- bdf: "0000:01:00.0"
  uuid: GPU-aaaaaaaa-0000-4000-8000-00000000000a
  minor: $3
  driver: nvidia
- bdf: "0000:02:00.0"
  uuid: GPU-bbbbbbbb-0000-4000-8000-00000000000b
  minor: $4
  driver: $5
nodes:
- {path: /dev/nvidia-uvm, type: char, major: 511, minor: 0, mode: "0666", uid: 0, gid: 0}
- {path: /dev/nvidia-uvm-tools, type: char, major: 511, minor: 1, mode: "0666", uid: 0, gid: 0}
- {path: /dev/nvidiactl, type: char, major: 195, minor: 255, mode: "0666", uid: 0, gid: 0}
EOF
		for m in $3 $4; do
			[ "$m" = null ] || echo "- {path: /dev/nvidia$m, type: char, major: 195, minor: $m, mode: \"0666\", uid: 0, gid: 0}"
		done
		cat <<EOF
majors:
- {major: 195, name: nvidia}
- {major: 195, name: nvidiactl}
- {major: 511, name: nvidia-uvm}
EOF
	} >"$1"
}
