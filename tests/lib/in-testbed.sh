# Run by umockdev-run for the live scanner's tests:
# in-testbed.sh FIXTURE PLANT LXGPU ARGS...: the fixture's proc, dev and
# sys trees copied into the testbed and its dev.attrs (tests/hosts/README.md)
# applied to the nodes there (git keeps neither modes nor owners); with a
# PLANT directory ("-" for none) the trees planted in PLANT/tree copied over
# them and the paths in PLANT/remove (one a line) removed; then lxgpu ARGS
# with the fixture's firmware and boot dir and PLANT's run dir (or the
# fixture's).
set -eu
fixture=$1 plant=$2 lxgpu=$3
shift 3
for tree in proc dev sys; do
	if [ -d "$fixture/$tree" ]; then cp -a "$fixture/$tree" "$UMOCKDEV_DIR/"; fi
done
if [ -f "$fixture/dev.attrs" ]; then
	grep -v '^#' "$fixture/dev.attrs" | while read -r mode uid gid path; do
		[ -n "$path" ] || continue
		chmod "$mode" "$UMOCKDEV_DIR$path"
		chown "$uid:$gid" "$UMOCKDEV_DIR$path"
	done
fi
run=$fixture/run
if [ "$plant" != - ]; then
	if [ -d "$plant/tree" ]; then cp -a "$plant/tree/." "$UMOCKDEV_DIR/"; fi
	if [ -f "$plant/remove" ]; then
		while read -r p; do rm -rf "${UMOCKDEV_DIR:?}/$p"; done <"$plant/remove"
	fi
	run=$plant/run
fi
# A fixture's root/ holds its driver userspace (a stand-in nvidia-smi) and
# its installed packages (var/lib/dpkg/status: the LXC and pve-container
# versions); without one, nothing of this machine's root is read for them.
if [ -d "$fixture/root" ]; then
	set -- --driver-root "$fixture/root" --subid-root "$fixture/root" "$@"
else
	set -- --subid-root "$fixture" "$@"
fi
exec "$lxgpu" --firmware-dir "$fixture/lib/firmware/nvidia" --boot-dir "$fixture/boot" --run-dir "$run" "$@"
