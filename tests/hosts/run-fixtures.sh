#!/bin/sh
# Scan every host fixture under umockdev and compare the model with its
# expected snapshot; also take a bundle snapshot there and read it back.
# Usage: run-fixtures.sh LXGPU HOSTS_DIR EXAMPLES_DIR   (TAP output)
#
# A fixture is a directory HOSTS_DIR/<name>/ (format: tests/hosts/README.md);
# its expected model is EXAMPLES_DIR/<name>.yaml, or <name>/expected.yaml.
set -u
lxgpu=$1 hosts=$(cd "$2" && pwd) examples=$(cd "$3" && pwd)

if ! command -v umockdev-run >/dev/null 2>&1; then
	echo "# umockdev-run not found: install the Debian package 'umockdev'"
	if [ "${CI:-}" = true ]; then
		echo "Bail out! umockdev is required in CI"
		exit 1
	fi
	echo "1..0 # SKIP umockdev-run not installed"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0"

# Runs inside umockdev-run: fill the testbed from the fixture, then run lxgpu.
in_testbed_sh=$(cd "$(dirname "$0")/../lib" && pwd)/in-testbed.sh

# A fix (a string) as tokens: iommu=pt, pci=disable_acs_redir=..., firmware
# ("the firmware", not the --firmware-dir a printed lxgpu command carries),
# root, nvidia-smi (ask the driver: topo -p2p); "-" for none.
fix_tokens='[(capture("(?<t>pci=disable_acs_redir=[^ ]+)") | .t), (select(test("iommu=pt")) | "iommu=pt"),
	(select(test("the firmware")) | "firmware"), (select(test("as root")) | "root"),
	(select(test("nvidia-smi topo -p2p")) | "nvidia-smi")]'
tokens_or_dash='if length == 0 then "-" else join(",") end'
# One line per pair: A B LINK IOMMU_A IOMMU_B ACS_REDIRECT VERDICT FIXES.
p2p_row='.pairs[] | [(.gpus[0] | tostring), (.gpus[1] | tostring), .link,
	(.iommu[0] // "null"), (.iommu[1] // "null"), (.acs_redirect | tostring), .verdict,
	([.fixes[] | '"$fix_tokens"'[]] | '"$tokens_or_dash"')] | join(" ")'
# One line per peer-to-peer finding of doctor: CODE SEVERITY FIXES.
p2p_finding='.findings[] | select(.code | test("^LXG16")) | [.code, .severity,
	(.fix | '"$fix_tokens"' | '"$tokens_or_dash"')] | join(" ")'

n=0 failed=0
report() { # ok|not-ok description
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

for fixture in "$hosts"/*/; do
	fixture=${fixture%/}
	name=$(basename "$fixture")
	[ -f "$fixture/devices.umockdev" ] || continue
	expected="$examples/$name.yaml"
	[ -f "$expected" ] || expected="$fixture/expected.yaml"
	if [ ! -f "$expected" ]; then
		report not-ok "$name: no expected snapshot ($examples/$name.yaml)"
		continue
	fi
	# umockdev serves a /proc file the testbed lacks from the real /proc: on a
	# machine with the NVIDIA driver, a fixture of a driverless host would
	# see the real driver: a TAP skip (tools/run-tests counts it), a
	# failure with CI=true (CI's machine has no NVIDIA driver).
	if [ -e /proc/driver/nvidia/version ] && [ ! -e "$fixture/proc/driver/nvidia/version" ]; then
		why="this machine's real /proc/driver/nvidia leaks into the fixture"
		if [ "${CI:-}" = true ]; then
			report not-ok "$name: the scanner gives the expected model"
			echo "# cannot run here, and CI=true allows no skip: $why"
		else
			n=$((n + 1))
			echo "ok $n - $name # SKIP $why"
		fi
		continue
	fi
	in_testbed() { umockdev-run -d "$fixture/devices.umockdev" -- sh "$in_testbed_sh" "$fixture" - "$lxgpu" "$@"; }

	"$lxgpu" --host "$expected" scan --format yaml >"$work/expected.yaml" 2>"$work/err"
	# (--mig-uuids: a fixture with a stand-in nvidia-smi records the MIG UUIDs)
	if in_testbed scan --mig-uuids --format yaml >"$work/scanned.yaml" 2>>"$work/err" &&
		diff -u "$work/expected.yaml" "$work/scanned.yaml" >"$work/diff"; then
		report ok "$name: the scanner gives the expected model"
	else
		sed 's/^/# /' "$work/err" "$work/diff"
		report not-ok "$name: the scanner gives the expected model"
	fi

	# (--kmsg: a clean boot's log, not this machine's /dev/kmsg, whose
	# firmware failures the snapshot of a live host records)
	rm -f "$work/bundle.tar.gz"
	if in_testbed snapshot --mig-uuids --kmsg "$hosts/../doctor/kmsg/clean-intel-amd.log" -q \
		-o "$work/bundle.tar.gz" 2>"$work/err" &&
		tar -tzf "$work/bundle.tar.gz" | grep -qx 'evidence/proc/devices' &&
		tar -tzf "$work/bundle.tar.gz" | grep -qx 'evidence/dev-listing.txt' &&
		"$lxgpu" --host "$work/bundle.tar.gz" scan --format yaml >"$work/from-bundle.yaml" &&
		cmp -s "$work/expected.yaml" "$work/from-bundle.yaml"; then
		report ok "$name: a bundle snapshot holds the evidence and the same model"
	else
		sed 's/^/# /' "$work/err"
		report not-ok "$name: a bundle snapshot holds the evidence and the same model"
	fi

	# A fixture with a stand-in nvidia-smi (root/, tests/hosts/README.md):
	# generate on the live scan resolves a MIG UUID (nvidia-smi is run for
	# a --gpus that names one) to what its GPU:giX/ciY gives.
	if [ -f "$fixture/mig-uuid.expected" ]; then
		read -r uuid ids <"$fixture/mig-uuid.expected"
		# Without --mig-uuids no command runs nvidia-smi (NVML opens the
		# nodes and initializes the GPUs): the model has no MIG UUIDs.
		if in_testbed scan --format yaml >"$work/plain.yaml" 2>"$work/err" &&
			grep -q "^gpus:" "$work/plain.yaml" && ! grep -q "^mig_uuids:" "$work/plain.yaml" &&
			grep -q "^mig_uuids:" "$work/scanned.yaml"; then
			report ok "$name: scan without --mig-uuids records no MIG UUID (nvidia-smi not run)"
		else
			sed 's/^/# /' "$work/err"
			report not-ok "$name: scan without --mig-uuids records no MIG UUID (nvidia-smi not run)"
		fi
		if in_testbed generate --no-comments --gpus "$uuid" >"$work/by-uuid" 2>"$work/err" &&
			in_testbed generate --no-comments --gpus "$ids" >"$work/by-ids" 2>>"$work/err" &&
			[ -s "$work/by-ids" ] && cmp -s "$work/by-uuid" "$work/by-ids"; then
			report ok "$name: generate --gpus $uuid on the live scan gives what $ids gives"
		else
			sed 's/^/# /' "$work/err" "$work/by-uuid"
			report not-ok "$name: generate --gpus $uuid on the live scan gives what $ids gives"
		fi
	fi

	# Peer-to-peer verdicts written by hand from the PCIe and kernel rules
	# (<name>/p2p.expected, format in tests/hosts/README.md), against
	# `topo --p2p --format json` on the live scan of the fixture.
	if [ -f "$fixture/p2p.expected" ]; then
		if in_testbed topo --p2p --format json >"$work/p2p.json" 2>"$work/err" &&
			jq -e 'all(.pairs[]; has("gpus") and has("link") and has("iommu") and
				has("acs_redirect") and has("verdict"))' "$work/p2p.json" >/dev/null &&
			jq -r "$p2p_row" "$work/p2p.json" >"$work/p2p.got" &&
			grep -v '^#' "$fixture/p2p.expected" | diff -u - "$work/p2p.got" >"$work/diff"; then
			report ok "$name: topo --p2p gives the expected verdict per pair"
		else
			sed 's/^/# /' "$work/err" "$work/diff"
			report not-ok "$name: topo --p2p gives the expected verdict per pair"
		fi
	fi
	# doctor's peer-to-peer findings (LXG160-LXG169) on the same live scan:
	# <name>/p2p-doctor.expected, one line per finding: CODE SEVERITY FIXES.
	if [ -f "$fixture/p2p-doctor.expected" ]; then
		if in_testbed doctor --kmsg "$hosts/../doctor/kmsg/clean-public.log" --format json \
			>"$work/doctor.json" 2>"$work/err"
			[ $? -le 1 ] && jq -r "$p2p_finding" "$work/doctor.json" >"$work/doctor.got" &&
			grep -v '^#' "$fixture/p2p-doctor.expected" | diff -u - "$work/doctor.got" >"$work/diff"; then
			report ok "$name: doctor's peer-to-peer findings"
		else
			sed 's/^/# /' "$work/err" "$work/diff"
			report not-ok "$name: doctor's peer-to-peer findings"
		fi
	fi
done

# The LXC and pve-container versions come from dpkg's status of the host's
# root (--subid-root): a Proxmox VE 9.1 node's stanzas (lxc-pve 6.0.5-3
# replacing Debian's lxc, whose config files stay; pve-container 6.1.6).
fixture="$hosts/pve-rtx-4090"
mkdir -p "$work/pve9/var/lib/dpkg"
printf '%s\n' 'Package: lxc' 'Status: deinstall ok config-files' 'Version: 1:5.0.2-1+deb12u4' '' \
	'Package: lxc-pve' 'Status: install ok installed' 'Version: 6.0.5-3' 'Provides: liblxc1, lxc' '' \
	'Package: pve-container' 'Status: install ok installed' 'Version: 6.1.6' \
	>"$work/pve9/var/lib/dpkg/status"
if umockdev-run -d "$fixture/devices.umockdev" -- sh "$in_testbed_sh" "$fixture" - "$lxgpu" \
	--subid-root "$work/pve9" scan --format json >"$work/pve9.json" 2>"$work/err" &&
	[ "$(jq -r '[.lxc_version, .pve_container_version] | join(" ")' "$work/pve9.json")" = "6.0.5 6.1.6" ]; then
	report ok "pve-rtx-4090 with a PVE 9 root: lxc_version 6.0.5, pve_container_version 6.1.6"
else
	sed 's/^/# /' "$work/err"
	jq -c '{lxc_version, pve_container_version}' "$work/pve9.json" 2>&1 | sed 's/^/# /'
	report not-ok "pve-rtx-4090 with a PVE 9 root: lxc_version 6.0.5, pve_container_version 6.1.6"
fi
echo "1..$n"
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
