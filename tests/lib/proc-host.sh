# Sourced by the tests of the include style on a made-up live host.
# proc_host DIR UVM MINOR_A [MINOR_B]: DIR/proc laid out as the NVIDIA
# driver does (devices with 195 nvidia and UVM nvidia-uvm, modules,
# driver/nvidia/version and gpus/<pci>/information) for GPU A at
# 0000:41:00.0 and GPU B at 0000:42:00.0 (left out when MINOR_B is empty:
# the card is gone); DIR/dev, DIR/pve/lxc and DIR/lxc made.
proc_host() {
	ph=$1
	rm -rf "$ph/proc"
	mkdir -p "$ph/proc/driver/nvidia/gpus/0000:41:00.0" "$ph/proc/sys/kernel" "$ph/dev" "$ph/pve/lxc" "$ph/lxc"
	printf 'Character devices:\n  1 mem\n  4 tty\n195 nvidia\n195 nvidiactl\n226 drm\n242 hidraw\n508 nvidia-caps\n%s nvidia-uvm\n\nBlock devices:\n  8 sd\n' \
		"$2" >"$ph/proc/devices"
	printf 'nvidia_uvm 1912832 0 - Live 0x0 (POE)\nnvidia 11563008 1 nvidia_uvm, Live 0x0 (POE)\n' >"$ph/proc/modules"
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  590.48.01  Release Build  (x)\n' \
		>"$ph/proc/driver/nvidia/version"
	printf 'Model: \t\t NVIDIA H100\nGPU UUID: \t GPU-aaaaaaaa-0000-0000-0000-000000000041\nDevice Minor: \t %s\nBus Location: \t 0000:41:00.0\n' \
		"$3" >"$ph/proc/driver/nvidia/gpus/0000:41:00.0/information"
	if [ -n "${4:-}" ]; then
		mkdir -p "$ph/proc/driver/nvidia/gpus/0000:42:00.0"
		printf 'Model: \t\t NVIDIA H100\nGPU UUID: \t GPU-bbbbbbbb-0000-0000-0000-000000000042\nDevice Minor: \t %s\nBus Location: \t 0000:42:00.0\n' \
			"$4" >"$ph/proc/driver/nvidia/gpus/0000:42:00.0/information"
	fi
}
