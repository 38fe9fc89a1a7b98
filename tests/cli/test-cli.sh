#!/bin/sh
# The command line: help, version, exit codes, errors on bad input, and the
# JSON of `scan`. Usage: test-cli.sh LXGPU EXAMPLES_DIR   (TAP output)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
eight="$examples/pve-8x-rtx-pro-6000.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

# run EXPECTED_STATUS ARGS...: run lxgpu, keep stdout/stderr, check the status.
run() {
	want=$1
	shift
	"$lxgpu" "$@" >"$work/out" 2>"$work/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "exit status $got, wanted $want: lxgpu $*"
		cat "$work/out" "$work/err"
		return 1
	fi
}
err_has() { grep -qF -- "$1" "$work/err" || { echo "stderr lacks: $1"; cat "$work/err"; return 1; }; }
out_has() { grep -qF -- "$1" "$work/out" || { echo "stdout lacks: $1"; cat "$work/out"; return 1; }; }
jq_true() { jq_ok "$work/out" "$1"; }

t_version() { run 0 --version && grep -q '^lxgpu [0-9]' "$work/out"; }
t_help() { run 0 help && out_has "snapshot" && out_has "Exit status"; }
t_cmd_help() { run 0 scan --help && out_has "Usage: lxgpu scan"; }
t_help_cmd() { run 0 help snapshot && out_has "Usage: lxgpu snapshot"; }
t_no_command() { run 2 && err_has "Usage: lxgpu"; }
t_unknown_flag() { run 2 scan --frobnicate && err_has "unknown option '--frobnicate'"; }
t_unknown_short() { run 2 scan -Z && err_has "unknown option '-Z'"; }
t_unknown_command() { run 2 frobnicate && err_has "unknown command 'frobnicate'"; }
t_bad_format() { run 2 --host "$eight" scan --format xml && err_has "unknown --format 'xml'"; }
t_foreign_option() { run 2 --host "$eight" scan -o x.yaml && err_has "does not take -o/--output"; }
t_missing_value() { run 2 scan --host && err_has "needs a value"; }
t_stray_argument() { run 2 --host "$eight" scan extra && err_has "takes no arguments"; }
check "--version" t_version
check "help lists the commands" t_help
check "CMD --help" t_cmd_help
check "help CMD" t_help_cmd
check "no command: usage, exit 2" t_no_command
check "unknown long flag: exit 2" t_unknown_flag
check "unknown short flag: exit 2" t_unknown_short
check "unknown command: exit 2" t_unknown_command
check "bad --format value: exit 2" t_bad_format
check "another command's option: exit 2" t_foreign_option
check "option without its value: exit 2" t_missing_value
check "stray argument: exit 2" t_stray_argument

# The live scan's LXC (from dpkg's status) is the one the host runs: what
# its lxc-start prints.
t_live_lxc() {
	lxc_want=$(lxc-start --version) && run 0 scan --format json &&
		jq_ok "$work/out" '.lxc_version == $v' --arg v "$lxc_want" ||
		{ echo "lxc-start --version: $lxc_want; scan: $(jq -c .lxc_version "$work/out")"; return 1; }
}
if command -v lxc-start >/dev/null 2>&1; then
	check "live scan: lxc_version is what lxc-start --version prints" t_live_lxc
else
	skip "live scan: lxc_version is what lxc-start --version prints" "no lxc-start (Debian package lxc)"
fi

t_json_eight() {
	run 0 --host "$eight" scan --format json &&
		jq_true '.gpus | length == 8' &&
		jq_true '[.gpus[] | .bdf] == ["0000:18:00.0","0000:39:00.0","0000:5a:00.0","0000:7b:00.0","0000:99:00.0","0000:ba:00.0","0000:db:00.0","0000:ec:00.0"]' &&
		jq_true '[.gpus[] | .minor] == [0,1,2,3,4,5,6,7]' &&
		jq_true '[.gpus[] | .numa_node] == [0,0,0,0,1,1,1,1]' &&
		jq_true '[.majors[] | select(.name == "nvidia-uvm" or .name == "nvidia") | .major] == [195, 511]' &&
		jq_true '.majors_complete and ([.majors[] | select(.major == 242) | .name] == ["hidraw"])' &&
		jq_true '.driver.version == "590.48.01" and .driver.flavor == "open"' &&
		jq_true '[.nodes[] | select(.path == "/dev/nvidia-uvm") | .major] == [511]' &&
		jq_true '.gpus[0] | has("vendor_id") and has("device_id") and has("model") and has("uuid") and has("driver") and has("iommu_group") and has("drm")' &&
		jq_true '.cgroup == "v2" and .kernel == "6.8.12-15-pve"' &&
		jq_true '.warnings == []'
}
t_text_eight() {
	run 0 --host "$eight" scan && out_has "GPUs (8)" &&
		out_has "0000:ec:00.0  NVIDIA RTX PRO 6000 Blackwell Server Edition  7      nvidia  1" &&
		out_has "nvidia-uvm=511" && out_has "590.48.01 (open kernel module)"
}
t_uvm_warning() { run 0 --host "$examples/pve-uvm-not-loaded.yaml" scan && out_has "nvidia-uvm is not loaded"; }
t_vfio() {
	run 0 --host "$examples/pve-vfio-split.yaml" scan --format json &&
		jq_true '.gpus[1].driver == "vfio-pci" and .gpus[1].minor == null' &&
		jq_true '.warnings | map(.message) | any(test("vfio-pci"))'
}
t_drm() {
	run 0 --host "$examples/pve-rtx-4090.yaml" scan --format json &&
		jq_true '[.gpus[0].drm[] | .by_path] == ["pci-0000:01:00.0-card", "pci-0000:01:00.0-render"]'
}
t_mig() {
	run 0 --host "$examples/pve-h100-mig.yaml" scan --format json &&
		jq_true '[.capabilities[] | select(.name == "gpu0/mig/gi1/ci0") | .minor] == [13]' &&
		jq_true '[.nodes[] | select(.path | startswith("/dev/nvidia-caps/"))] | length == 13'
}
check "scan --format json of the 8-GPU host" t_json_eight
check "scan text of the 8-GPU host" t_text_eight
check "uvm not loaded is a warning" t_uvm_warning
check "vfio-bound GPU: no minor, a warning" t_vfio
check "DRM nodes with by-path names" t_drm
check "MIG capabilities and caps nodes" t_mig

# Bad snapshots: exit 2, the message names the file (and line and field).
head -c 700 "$eight" >"$work/truncated.yaml"
sed 's/^  numa_node: 0$/  numa_node: "zero"/' "$eight" >"$work/type.yaml"
sed 's/^  persistenced: true$/  persistenced: true\n  daemon: 1/' "$eight" >"$work/unknown.yaml"
mkdir -p "$work/evil"
cp "$eight" "$work/evil/host.yaml"
tar -C "$work/evil" -czf "$work/evil.tar.gz" --transform 's,^host.yaml$,../host.yaml,' host.yaml
t_missing() { run 2 --host "$work/missing.yaml" scan && err_has "$work/missing.yaml"; }
t_truncated() { run 2 --host "$work/truncated.yaml" scan && err_has "truncated.yaml:"; }
t_type() { run 2 --host "$work/type.yaml" scan && err_has "type.yaml:31: field 'gpus[0].numa_node': must be an integer"; }
t_unknown_field() { run 2 --host "$work/unknown.yaml" scan && err_has "unknown.yaml:15: field 'driver.daemon': unknown field"; }
t_evil_bundle() { run 2 --host "$work/evil.tar.gz" scan && err_has "unsafe path"; }
check "missing snapshot: exit 2, names the file" t_missing
check "truncated snapshot: exit 2, names the file and line" t_truncated
check "wrong type: names the line and field" t_type
check "unknown field: names the line and field" t_unknown_field
check "bundle with a ../ entry: refused" t_evil_bundle

# snapshot: atomic, byte-identical, nothing written on failure.
t_copy() { run 0 --host "$eight" snapshot -o "$work/copy.yaml" && cmp "$eight" "$work/copy.yaml"; }
t_scan_yaml_loads() {
	run 0 --host "$eight" scan --format yaml && cp "$work/out" "$work/scan.yaml" &&
		run 0 --host "$work/scan.yaml" snapshot -o "$work/from-scan.yaml" &&
		cmp "$eight" "$work/from-scan.yaml"
}
t_bad_type() { run 2 --host "$eight" snapshot -o "$work/x.json" && err_has "FILE.tar.gz" && [ ! -e "$work/x.json" ]; }
t_no_output() { run 2 --host "$eight" snapshot && err_has "needs -o"; }
t_nothing_written() { run 2 --host "$work/truncated.yaml" snapshot -o "$work/never.yaml" && [ ! -e "$work/never.yaml" ]; }
t_bundle() {
	run 0 --host "$eight" snapshot -o "$work/b.tar.gz" && tar -tzf "$work/b.tar.gz" | grep -qx host.yaml &&
		run 0 --host "$work/b.tar.gz" snapshot -o "$work/b.yaml" && cmp "$eight" "$work/b.yaml"
}
t_stdout() { run 0 --host "$eight" snapshot -o - && cmp "$eight" "$work/out"; }
t_unwritable() { run 2 --host "$eight" snapshot -o "$work/no/such/dir/x.yaml" && err_has "$work/no/such/dir/x.yaml"; }
t_no_temp_left() { ! ls -a "$work" | grep -q 'lxgpu-tmp'; }
check "snapshot -o FILE.yaml: byte-identical copy" t_copy
check "scan --format yaml output is a loadable snapshot" t_scan_yaml_loads
check "unknown snapshot type: exit 2, nothing written" t_bad_type
check "snapshot without -o: exit 2" t_no_output
check "bad input: nothing written" t_nothing_written
check "bundle snapshot round trip" t_bundle
check "snapshot -o - writes the YAML to stdout" t_stdout
check "unwritable output: exit 2, names the path" t_unwritable
check "no temporary files left behind" t_no_temp_left

# generate: errors, and what it reads from a container's config.
mkdir -p "$work/pve/lxc" "$work/lxcpath/web"
cat >"$work/pve/lxc/101.conf" <<'CONF'
#GPU box
arch: amd64
dev0: /dev/ttyUSB0,mode=0660
dev1: /dev/nvidia0
hostname: gpu
unprivileged: 1

[before-upgrade]
unprivileged: 0
CONF
printf 'lxc.idmap = u 0 100000 65536\nlxc.idmap = g 0 100000 65536\n' >"$work/lxcpath/web/config"
t_gen_no_ct() { run 2 --host "$eight" --pve-dir "$work/pve" --lxc-path "$work/lxcpath" generate 999 && err_has "container 999 does not exist"; }
t_gen_bad_gpu() { run 2 --host "$eight" generate --gpus 9 && err_has "there is no GPU 9" && err_has "GPUs on this host: 0 (0000:18:00.0"; }
t_gen_vfio() { run 2 --host "$examples/pve-vfio-split.yaml" generate --gpus 0000:81:00.0 && err_has "bound to vfio-pci"; }
t_gen_bad_style() { run 2 --host "$eight" generate --style docker && err_has "unknown --style 'docker'"; }
t_gen_bad_mode() { run 2 --host "$eight" generate --mode 999 && err_has "--mode '999'"; }
t_gen_both_priv() { run 2 --host "$eight" generate --privileged --unprivileged && err_has "contradict"; }
t_gen_scan_opt() { run 2 --host "$eight" scan --gpus 0 && err_has "'scan' does not take"; }
t_gen_reads_pve() {
	run 0 --host "$eight" --pve-dir "$work/pve" generate 101 --gpus 0 --comments &&
		out_has "style devn, unprivileged" && out_has "dev1: /dev/nvidia0,mode=0666" &&
		out_has "dev2: /dev/nvidiactl,mode=0666" && ! grep -q '^dev0:' "$work/out"
}
t_gen_reads_lxc() {
	run 0 --host "$eight" --pve-dir "$work/pve" --lxc-path "$work/lxcpath" generate web --gpus 0 --comments &&
		out_has "style lxc, unprivileged" && out_has "lxc.mount.entry = /dev/nvidia0 dev/nvidia0"
}
t_gen_lxc_devn() { run 2 --host "$eight" --pve-dir "$work/pve" --lxc-path "$work/lxcpath" generate web --style devn && err_has "plain LXC config"; }
t_gen_deterministic() {
	"$lxgpu" --host "$eight" generate --style cdi >"$work/a" && "$lxgpu" --host "$eight" generate --style cdi >"$work/b" && cmp "$work/a" "$work/b"
}
check "generate: a container that does not exist: exit 2" t_gen_no_ct
check "generate: a GPU that does not exist: exit 2, lists the GPUs" t_gen_bad_gpu
check "generate: a vfio-bound GPU: exit 2" t_gen_vfio
check "generate: unknown style: exit 2" t_gen_bad_style
check "generate: bad --mode: exit 2" t_gen_bad_mode
check "generate: --privileged with --unprivileged: exit 2" t_gen_both_priv
check "scan refuses generate's options" t_gen_scan_opt
check "generate CTID: unprivileged and free devN indexes from the PVE config" t_gen_reads_pve
check "generate NAME: a plain LXC container gets lxc lines" t_gen_reads_lxc
check "generate NAME --style devn on plain LXC: exit 2" t_gen_lxc_devn
check "generate is deterministic" t_gen_deterministic

# Untrusted bytes: a config with invalid UTF-8 and terminal escapes gives
# valid output in every format (util.h: invalid bytes as \xNN, control
# characters escaped), never a crash; a snapshot nested 10000 deep is an
# error with file:line.
printf 'arch: amd64\nhostname: bad\377\376name\ndev0: /dev/nvidia9\351\nlxc.mount.entry: /dev/nvidia0\033]0;pwn\007 dev/nvidia0 none bind,optional,create=file\nlxc.cgroup2.devices.allow: c 509:* rwm\303\n#desc \033[2J\233x\n' >"$work/pve/lxc/102.conf"
strict_utf8() { python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8", "strict")' <"$work/out" || { echo "not valid UTF-8"; return 1; }; }
verify_any() { # FORMAT: exit 0 or 1, never a signal
	"$lxgpu" --host "$eight" --pve-dir "$work/pve" verify 102 --format "$1" >"$work/out" 2>"$work/err"
	got=$?
	[ "$got" -le 1 ] || { echo "exit status $got"; cat "$work/err"; return 1; }
}
t_bytes_text() {
	verify_any text && strict_utf8 && out_has '/dev/nvidia9\xe9' &&
		! LC_ALL=C grep -q '[[:cntrl:]]' "$work/out" || { cat -v "$work/out"; return 1; }
}
t_bytes_json() { verify_any json && strict_utf8 && json_ok "$work/out" && jq_true '[.. | strings | select(contains("/dev/nvidia9\\xe9"))] | length > 0'; }
t_bytes_yaml() {
	verify_any yaml && strict_utf8 || return 1
	if python3 -c 'import yaml' 2>/dev/null; then
		python3 -c 'import sys, yaml; d = yaml.safe_load(sys.stdin); sys.exit(0 if any(f["device_path"] == "/dev/nvidia9\\xe9" for f in d["findings"]) else 1)' <"$work/out" ||
			{ cat -v "$work/out"; return 1; }
	elif [ "${CI:-}" = true ]; then
		echo "python3-yaml is missing"; return 1
	else
		echo "# python3-yaml missing: YAML not parsed back" >&2
	fi
}
{ printf 'schema: 1\nhostname: '; head -c 10000 /dev/zero | tr '\0' '['; echo; } >"$work/deep.yaml"
t_deep_scan() { run 2 --host "$work/deep.yaml" scan && err_has "deep.yaml:2: nested deeper than 64 levels"; }
t_deep_verify() { run 2 --host "$work/deep.yaml" --pve-dir "$work/pve" verify 101 && err_has "deep.yaml:2: nested deeper than 64 levels"; }
check "verify --format text of a config with invalid bytes: escaped, no control characters" t_bytes_text
check "verify --format json of a config with invalid bytes: valid JSON and UTF-8" t_bytes_json
check "verify --format yaml of a config with invalid bytes: valid YAML and UTF-8" t_bytes_yaml
check "a snapshot nested 10000 deep: scan exits 2 with file:line" t_deep_scan
check "a snapshot nested 10000 deep: verify exits 2 with file:line" t_deep_verify

tap_finish
