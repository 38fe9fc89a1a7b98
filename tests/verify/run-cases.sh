#!/bin/sh
# verify over configs with planted problems (and clean ones): each case
# names the codes it must give, no more, no fewer ("#expect:" line; "#host:"
# picks the example host, default the 8-GPU one; "#errors: N" how many of
# them are errors). Then audit over all of
# them, with a VM and --exclusive. "#host-sed: EXPR" lines edit that host's
# model for the case (sed expressions, in order): a public config judged on
# the poster's hardware (its bus address, a gid, a dynamic major). The configs are judged with LXC's
# includes as a Proxmox VE host has them (lxc-config/, with pve-container's
# userns.conf.d/01-pve.conf), whatever this machine has installed.
# Usage: run-cases.sh LXGPU EXAMPLES CASES
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) cases=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/none" # an empty --lxc-path: no plain LXC containers
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
lxc_config="$work/lxc-config"
cp -R "$(dirname "$0")/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +

# The host model of a case: MODEL with the case's #host-sed: edits.
host_model() { # CASE MODEL
	sed -n 's/^#host-sed: *//p' "$1" >"$work/host.sed"
	sed -f "$work/host.sed" "$2"
}

t_case() {
	conf=$1
	host=$(sed -n 's/^#host: *//p' "$conf")
	want=$(sed -n 's/^#expect: *//p' "$conf" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
	rm -rf "$work/pve" && mkdir -p "$work/pve/lxc" && cp "$conf" "$work/pve/lxc/700.conf"
	host_model "$conf" "$examples/${host:-pve-8x-rtx-pro-6000}.yaml" >"$work/host.yaml"
	# exit status: 1 with an error finding, else 0 (lx_json sev)
	lx_json sev "$work/out" "$lxgpu" --host "$work/host.yaml" --pve-dir "$work/pve" \
		--lxc-path "$work/none" --lxc-config-dir "$lxc_config" verify 700 --format json || return 1
	got=$(jq -r '[.findings[].code] | unique | .[]' "$work/out" | tr '\n' ' ')
	[ "$got" = "$want" ] || { echo "codes: got '$got', want '$want'"; jq -r '.findings[] | "\(.code) \(.message)"' "$work/out"; cat "$work/out.err"; return 1; }
	errors=$(jq '[.findings[] | select(.severity == "error")] | length' "$work/out")
	# "#errors: N": how many of them are errors (a working public config: 0)
	want_errors=$(sed -n 's/^#errors: *//p' "$conf")
	[ -z "$want_errors" ] || [ "$errors" -eq "$want_errors" ] ||
		{ echo "errors: got $errors, want $want_errors"; jq -r '.findings[] | "\(.code) \(.severity) \(.message)"' "$work/out"; return 1; }
	jq -e '.findings | all(.code and .severity and .message and .fix and (.container == "700"))' "$work/out" >/dev/null ||
		{ echo "incomplete finding"; return 1; }
	# a case on its own host model: audit of it alone gives the same codes
	grep -q '^#host-sed:' "$conf" || return 0
	lx_json sev "$work/audit-one.json" "$lxgpu" --host "$work/host.yaml" --pve-dir "$work/pve" --lxc-path "$work/none" \
		--lxc-config-dir "$lxc_config" audit --format json || return 1
	got=$(jq -r '[.containers[] | select(.container == "700") | .findings[].code] | unique | .[]' "$work/audit-one.json" | tr '\n' ' ')
	jq -e '[.containers[] | select(.container == "700")] | length == 1' "$work/audit-one.json" >/dev/null &&
		[ "$got" = "$want" ] || { echo "audit codes: got '$got', want '$want'"; return 1; }
}
for conf in "$cases"/*.conf; do
	check "verify $(basename "$conf" .conf)" t_case "$conf"
done

# audit: every case of the 8-GPU host at once, a VM with GPU 0, --exclusive.
rm -rf "$work/pve" && mkdir -p "$work/pve/lxc" "$work/pve/qemu-server"
id=800
for conf in "$cases"/*.conf; do
	grep -q '^#host:' "$conf" && continue
	id=$((id + 1))
	cp "$conf" "$work/pve/lxc/$id.conf"
	case "$(basename "$conf")" in clean-*) echo "$id" >>"$work/clean-ids" ;; esac
done
printf 'memory: 8192\nhostpci0: 0000:39:00,pcie=1\n' >"$work/pve/qemu-server/900.conf"
cp "$cases/clean-devn.conf" "$work/pve/lxc/899.conf"
sed 's|/dev/nvidia0|/dev/nvidia1|' "$cases/clean-devn.conf" >"$work/pve/lxc/898.conf"
au() { "$lxgpu" --host "$examples/pve-8x-rtx-pro-6000.yaml" --pve-dir "$work/pve" --lxc-path "$work/none" --lxc-config-dir "$lxc_config" audit "$@"; }
t_audit_json() {
	lx_json 1 "$work/audit.json" au --format json --exclusive || return 1
	jq -e '.summary.containers == ([.containers[]] | length)' "$work/audit.json" >/dev/null &&
		jq -e '.summary | .containers == .ok + .warning + .error + .unknown + .no_gpus' "$work/audit.json" >/dev/null &&
		jq -e '. as $d | ["ok","warning","error","unknown","no_gpus"] | all(. as $s | $d.summary[$s] == ([$d.containers[] | select(.status == $s)] | length))' "$work/audit.json" >/dev/null &&
		jq -e '[.containers[] | select(.container == "898") | .findings[].code] | index("LXG013")' "$work/audit.json" >/dev/null &&
		jq -e '[.containers[] | select(.container == "899") | .findings[].code] | index("LXG012")' "$work/audit.json" >/dev/null ||
		{ jq -c '.containers[] | [.container, .status, [.findings[].code]]' "$work/audit.json"; return 1; }
	# Without --exclusive, the clean configs raise nothing.
	lx_json sev "$work/audit2.json" au --format json || return 1
	for clean in $(cat "$work/clean-ids"); do
		jq -e --arg id "$clean" '[.containers[] | select(.container == $id) | .findings | length] == [0]' \
			"$work/audit2.json" >/dev/null || { echo "clean container $clean has findings"; return 1; }
	done
}
t_audit_text() {
	au >"$work/audit.txt"
	grep -q '^CONTAINER  *NAME  *NODE  *STATE  *GPUS  *STATUS  *FINDINGS' "$work/audit.txt" &&
		grep -q '^898 .* error .*LXG013' "$work/audit.txt" && grep -Eq '^[0-9]+ containers?: [0-9]+ ok, [0-9]+ with warnings, [0-9]+ with errors, [0-9]+ unknown .*, [0-9]+ without GPUs$' "$work/audit.txt" &&
		! grep -q 'LXG012' "$work/audit.txt"
}
t_audit_prometheus() {
	au --format prometheus >"$work/metrics"
	# The text exposition format: HELP and TYPE lines, then samples of one family together.
	awk '
		/^# HELP / { if (seen[$3]++) bad = "family " $3 " twice"; fam = $3; next }
		/^# TYPE / { if ($3 != fam || ($4 != "gauge" && $4 != "counter")) bad = "TYPE " $3; next }
		/^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9]+$/ {
			name = $1; sub(/\{.*/, "", name); if (name != fam) bad = "sample " name " outside its family"; next }
		{ bad = "bad line: " $0 }
		END { if (bad) { print bad; exit 1 } }' "$work/metrics" || return 1
	grep -q '^lxgpu_container_findings{node="[^"]*",container="898",code="LXG013",severity="error"} 1$' "$work/metrics" &&
		grep -q '^lxgpu_driver_info{version="590.48.01",flavor="open"} 1$' "$work/metrics" &&
		grep -q '^lxgpu_host_gpus 8$' "$work/metrics"
}
# audit of the cases of each other example host together (the public Intel
# and AMD configs among them): every container's codes are its #expect.
t_audit_host() {
	h=$1
	d=$work/pve-$h
	mkdir -p "$d/lxc"
	id=600
	for conf in "$cases"/*.conf; do
		[ "$(sed -n 's/^#host: *//p' "$conf")" = "$h" ] || continue
		grep -q '^#host-sed:' "$conf" && continue # its own host model: audited alone (t_case)
		id=$((id + 1))
		cp "$conf" "$d/lxc/$id.conf"
		echo "$id $conf" >>"$d/ids"
	done
	lx_json sev "$work/audit-$h.json" "$lxgpu" --host "$examples/$h.yaml" --pve-dir "$d" --lxc-path "$work/none" \
		--lxc-config-dir "$lxc_config" audit --format json || return 1
	rc=0
	while read -r id conf; do
		want=$(sed -n 's/^#expect: *//p' "$conf" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
		jq -e --arg id "$id" '[.containers[] | select(.container == $id)] | length == 1' "$work/audit-$h.json" \
			>/dev/null || { echo "# audit has no container $id ($(basename "$conf"))"; rc=1; continue; }
		got=$(jq -r --arg id "$id" '[.containers[] | select(.container == $id) | .findings[].code] | unique | .[]' \
			"$work/audit-$h.json" | tr '\n' ' ')
		[ "$got" = "$want" ] && continue
		echo "# audit, $(basename "$conf"): got '$got', want '$want'"
		rc=1
	done <"$d/ids"
	return $rc
}
for h in pve-intel-igpu pve-amd-rocm; do
	check "audit of the $h cases: each container's codes are verify's expected ones" t_audit_host "$h"
done
check "audit --format json: summary, VM conflict, --exclusive, clean containers ok" t_audit_json
check "audit: the summary table" t_audit_text
check "audit --format prometheus: valid exposition format, findings, driver info" t_audit_prometheus
tap_finish
