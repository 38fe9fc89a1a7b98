#!/bin/sh
# Scan a host fixture under umockdev and compare the model with the expected
# snapshot. Usage: run-fixture.sh LXGPU FIXTURE_DIR EXPECTED_SNAPSHOT
#
# The fixture format (tests/hosts/README.md): devices.umockdev for /sys, and
# proc/, dev/ trees copied into the umockdev testbed, dev.attrs for node
# modes and owners, lib/firmware/nvidia/ and run/ for the rest.
set -eu
lxgpu=$1 fixture=$(cd "$2" && pwd) expected=$3

if ! command -v umockdev-run >/dev/null 2>&1; then
	echo "umockdev-run not found: install the Debian package 'umockdev'"
	[ "${CI:-}" = true ] && exit 1
	exit 77
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Runs inside umockdev-run: fill the testbed, then scan.
cat >"$out/scan.sh" <<'INNER'
set -eu
fixture=$1 lxgpu=$2
for tree in proc dev; do
	[ -d "$fixture/$tree" ] && cp -a "$fixture/$tree" "$UMOCKDEV_DIR/"
done
if [ -f "$fixture/dev.attrs" ]; then
	grep -v '^#' "$fixture/dev.attrs" | while read -r mode uid gid path; do
		[ -n "$path" ] || continue
		chmod "$mode" "$UMOCKDEV_DIR$path"
		chown "$uid:$gid" "$UMOCKDEV_DIR$path"
	done
fi
exec "$lxgpu" --firmware-dir "$fixture/lib/firmware/nvidia" --run-dir "$fixture/run" \
	scan --format yaml
INNER

ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0" \
	umockdev-run -d "$fixture/devices.umockdev" -- sh "$out/scan.sh" "$fixture" "$lxgpu" \
	>"$out/scanned.yaml"
"$lxgpu" --host "$expected" scan --format yaml >"$out/expected.yaml"

if diff -u "$out/expected.yaml" "$out/scanned.yaml"; then
	echo "ok 1 - $(basename "$fixture") scans to $(basename "$expected")"
	echo "1..1"
else
	echo "not ok 1 - $(basename "$fixture") scans to $(basename "$expected") (diff above)"
	echo "1..1"
	exit 1
fi
