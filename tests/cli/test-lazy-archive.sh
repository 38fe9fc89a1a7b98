#!/bin/sh
# Libraries are loaded only where they are used (issue 13 item 7):
# libarchive when an archive is read or written, libudev for a live scan,
# libyaml to write YAML or to read YAML outside the subset lxgpu writes.
# lxgpu links none of them; generate and verify on a YAML host map none (the
# dynamic loader's own LD_DEBUG=files log says which libraries a run loads);
# each is loaded, and works, where it is needed.
# Usage: test-lazy-archive.sh LXGPU EXAMPLES_DIR
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
eight="$examples/pve-8x-rtx-pro-6000.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

# loaded ARGS...: the libraries ld.so loads for one run of lxgpu, one a line.
loaded() {
	LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld" "$lxgpu" "$@" >"$work/out" 2>"$work/err"
	status=$?
	sed -n 's/^ *[0-9]*:[[:space:]]*file=\([^ ]*\) .*/\1/p' "$work"/ld.* | sort -u
	rm -f "$work"/ld.*
	return $status
}

t_not_linked() {
	ldd "$lxgpu" >"$work/ldd" || return 1
	cat "$work/ldd"
	grep -q 'libc.so' "$work/ldd" || { echo "ldd lists no libc: not the lxgpu binary?"; return 1; }
	! grep -Eq 'libarchive|libxml2|liblzma|libzstd|libbz2|liblz4|libnettle|libudev|libyaml' "$work/ldd"
}

t_generate_maps_none() {
	loaded --host "$eight" generate >"$work/libs" || { cat "$work/err"; return 1; }
	cat "$work/libs"
	grep -q '^libc.so' "$work/libs" || { echo "LD_DEBUG listed no libc: log not read"; return 1; }
	! grep -Eq 'libarchive|libudev|libyaml' "$work/libs"
}

t_yaml_where_needed() {
	# YAML output, and a host model in flow style (not lxgpu's subset): libyaml.
	loaded --host "$eight" --format yaml scan >"$work/libs" || { cat "$work/err"; return 1; }
	grep -q '^libyaml-0.so.2$' "$work/libs" || { echo "YAML written without libyaml?"; return 1; }
	cp "$work/out" "$work/scan.yaml"
	python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); open(sys.argv[2], "w").write(yaml.safe_dump(d, default_flow_style=True))' \
		"$eight" "$work/flow.yaml" || return 1
	loaded --host "$work/flow.yaml" --format yaml scan >"$work/libs" || { cat "$work/err"; return 1; }
	grep -q '^libyaml-0.so.2$' "$work/libs" || { echo "flow YAML read without libyaml?"; return 1; }
	cmp "$work/scan.yaml" "$work/out"
}

t_live_scan_loads_udev() {
	# This machine's own scan (with or without an NVIDIA GPU, exit 0 or 1).
	loaded scan >"$work/libs"
	status=$?
	[ "$status" -le 1 ] || { echo "scan exit $status"; cat "$work/err"; return 1; }
	cat "$work/libs"
	grep -q '^libudev.so.1$' "$work/libs" || return 1
	# libarchive only to decompress the kernel's /proc/config.gz, where the
	# distribution's /boot/config-<release> is missing (the HMM check's input)
	if [ ! -r "/boot/config-$(uname -r)" ] && [ -r /proc/config.gz ]; then
		grep -q '^libarchive.so.13$' "$work/libs"
	else
		! grep -q libarchive "$work/libs"
	fi
}

t_verify_maps_none() {
	mkdir -p "$work/pve/lxc" "$work/none"
	printf 'arch: amd64\nhostname: ct\nunprivileged: 1\n' >"$work/pve/lxc/101.conf"
	loaded --host "$eight" --pve-dir "$work/pve" --lxc-path "$work/none" verify 101 >"$work/libs"
	status=$?
	[ "$status" -le 1 ] || { echo "verify exit $status"; cat "$work/err"; return 1; }
	cat "$work/libs"
	grep -q '^libc.so' "$work/libs" && ! grep -Eq 'libarchive|libudev|libyaml' "$work/libs"
}

t_bundle_reads() {
	"$lxgpu" --host "$eight" snapshot -o "$work/b.tar.gz" || return 1
	# A gzip'd tar, as tar(1) sees it, holding the model.
	tar -tzf "$work/b.tar.gz" >"$work/list" || return 1
	grep -Eq '^(\./)?host\.yaml$' "$work/list" || { cat "$work/list"; return 1; }
	loaded --host "$work/b.tar.gz" scan --format json >"$work/libs" || { cat "$work/err"; return 1; }
	grep -q '^libarchive.so.13$' "$work/libs" || { echo "bundle read without libarchive?"; cat "$work/libs"; return 1; }
	cp "$work/out" "$work/from-bundle.json"
	"$lxgpu" --host "$eight" scan --format json >"$work/from-yaml.json" || return 1
	json_ok "$work/from-yaml.json" && cmp "$work/from-yaml.json" "$work/from-bundle.json"
}

check "ldd: lxgpu is not linked to libarchive, its compression libraries, libudev or libyaml" t_not_linked
check "generate on a YAML host loads none of libarchive, libudev, libyaml" t_generate_maps_none
check "verify on a YAML host loads none of libarchive, libudev, libyaml" t_verify_maps_none
check "YAML output and a flow-style host model load libyaml, and read the same" t_yaml_where_needed
check "a live scan loads libudev (libarchive only for /proc/config.gz)" t_live_scan_loads_udev
check "a bundle is a tar.gz that reads back (libarchive loaded for it)" t_bundle_reads
tap_finish
