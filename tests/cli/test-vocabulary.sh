#!/bin/sh
# One vocabulary (issue 32 item 3): a finding is the same finding in every
# command that reports it. Each verify case (tests/verify/cases, on its
# example host) goes through verify, preflight, audit, doctor CTID and
# guard CTID post-start; every
# finding those print in JSON must be one of verify's with the same code,
# severity, container, file, line, device_path, fix and commands: the
# severity belongs to the finding (preflight's verdict for the container
# is separate: an LXG001 rule is a warning, and the start is ok; but an
# "ok" verdict never comes with an error reason, nor "will fail" without
# one: the verdict and the exit status agree). Also
# scan's host warnings carry `commands` as findings do, and every count in
# the text says "1 GPU", never "1 GPUs".
# Usage: test-vocabulary.sh LXGPU EXAMPLES CASES   (TAP)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) cases=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/../lib/tap.sh"
. "$here/../lib/lxjson.sh"
mkdir "$work/none"
lxc_config="$work/lxc-config"
cp -R "$here/../verify/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +

# The findings of a JSON document as one line each, the fields that make a
# finding: what every command must say alike.
FIELDS='{code, severity, container, file, line, device_path, message, fix, commands}'

# verify CASE, then the same config through preflight, audit, doctor and
# the guard's post-start.
t_case() {
	conf=$1
	host=$(sed -n 's/^#host: *//p' "$conf")
	sed -n 's/^#host-sed: *//p' "$conf" >"$work/host.sed"
	sed -f "$work/host.sed" "$examples/${host:-pve-8x-rtx-pro-6000}.yaml" >"$work/host.yaml"
	rm -rf "$work/pve" && mkdir -p "$work/pve/lxc"
	cp "$conf" "$work/pve/lxc/700.conf"
	# (a scratch state dir and no journal socket, for the guard; every
	# command gets them, so that each fix names the same options)
	set -- "$lxgpu" --host "$work/host.yaml" --pve-dir "$work/pve" --lxc-path "$work/none" \
		--lxc-config-dir "$lxc_config" --state-dir "$work/state" --dev-dir "$work/none"
	lx_json sev "$work/verify.json" "$@" verify 700 --format json || return 1
	# preflight's exit status is verify's rule over its reasons
	lx_json sev "$work/preflight.json" "$@" preflight 700 --format json || return 1
	# and its verdict agrees with it: "ok" never with an error reason (exit
	# 1), "will fail" never without one (exit 0)
	jq_ok "$work/preflight.json" '.next_start | all(
		(.verdict != "ok" or all(.reasons[]; .severity != "error")) and
		(.verdict != "will fail" or any(.reasons[]; .severity == "error")))' || return 1
	lx_json sev "$work/audit.json" "$@" audit --format json || return 1
	lx_json "0|1" "$work/doctor.json" "$@" doctor 700 --format json || return 1
	# the guard's post-start is verify's checks: the same findings, and
	# none when there are no GPU lines to check
	lx_json sev "$work/guard.json" "$@" guard 700 post-start --format json || return 1
	jq -c ".findings[] | $FIELDS" "$work/verify.json" | sort >"$work/verify.f" || return 1
	# the case's own codes (its #expect: line) are there to compare
	for code in $(sed -n 's/^#expect: *//p' "$conf"); do
		grep -q "\"code\":\"$code\"" "$work/verify.f" || { echo "verify gave no $code"; return 1; }
	done
	bad=0
	for cmd in preflight audit doctor; do
		case $cmd in
		preflight) filter='.next_start[].reasons[]' ;;
		audit) filter='.containers[].findings[]' ;;
		doctor) filter='(.findings // [])[] | select(.container == "700")' ;;
		esac
		jq -c "$filter | $FIELDS" "$work/$cmd.json" | sort -u >"$work/$cmd.f" || return 1
		# each of its findings of this container, as verify says it
		# (preflight and doctor say only some of verify's findings)
		comm -23 "$work/$cmd.f" "$work/verify.f" >"$work/$cmd.extra"
		# preflight's own reasons (LXG040.., the driver libraries) are
		# none of verify's codes: only codes verify also gave are compared
		while IFS= read -r f; do
			code=$(printf '%s' "$f" | jq -r .code)
			grep -q "\"code\":\"$code\"" "$work/verify.f" || continue
			echo "$cmd says $code otherwise than verify:"
			echo "  $cmd:   $f"
			grep "\"code\":\"$code\"" "$work/verify.f" | head -2 | sed 's/^/  verify: /'
			bad=1
		done <"$work/$cmd.extra"
	done
	# audit says every finding verify says, no more and no fewer; so does
	# the guard when the container has GPU lines
	jq -c ".containers[].findings[] | $FIELDS" "$work/audit.json" | sort >"$work/audit.all"
	cmp -s "$work/audit.all" "$work/verify.f" || { echo "audit's findings are not verify's"; bad=1; }
	jq -c ".findings[] | $FIELDS" "$work/guard.json" | sort >"$work/guard.all"
	if [ "$(jq -r .checked "$work/guard.json")" = true ]; then
		cmp -s "$work/guard.all" "$work/verify.f" || { echo "guard post-start's findings are not verify's"; diff "$work/guard.all" "$work/verify.f"; bad=1; }
	else
		# (GPU lines only in a snapshot section: LXG005 is verify's alone)
		[ ! -s "$work/guard.all" ] ||
			{ echo "guard checked nothing ($(jq -r .detail "$work/guard.json")), yet has findings"; bad=1; }
	fi
	return $bad
}
for conf in "$cases"/*.conf; do
	check "verify, preflight, audit, doctor, guard: one finding each: $(basename "$conf" .conf)" t_case "$conf"
done

# The two the issue named: a stale major (LXG001) is a warning in preflight
# as in verify (docs/findings.md: LXG001 warning), and the start is ok.
t_stale_major() {
	rm -rf "$work/pve" && mkdir -p "$work/pve/lxc"
	cp "$cases/stale-uvm-major.conf" "$work/pve/lxc/700.conf"
	lx_json "0|1" "$work/p.json" "$lxgpu" --host "$examples/pve-8x-rtx-pro-6000.yaml" \
		--pve-dir "$work/pve" --lxc-path "$work/none" preflight 700 --format json || return 1
	jq_ok "$work/p.json" '.next_start[0].verdict == "ok" and
		([.next_start[0].reasons[] | select(.code == "LXG001") | .severity] | length > 0 and all(. == "warning")) and
		([.next_start[0].reasons[] | select(.code == "LXG001") | .file] | all(endswith("/700.conf"))) and
		([.next_start[0].reasons[] | select(.code == "LXG001") | .line] | sort == [9, 10])'
}
check "preflight: LXG001 is a warning at its file and line, the verdict ok" t_stale_major

# scan's warnings: commands as a finding's, the backticked parts of the fix.
t_scan_commands() {
	lx_json 0 "$work/scan.json" "$lxgpu" --host "$examples/pve-uvm-not-loaded.yaml" scan --format json ||
		return 1
	jq_ok "$work/scan.json" '(.warnings | length) > 0 and all(.warnings[]; has("commands")) and
		any(.warnings[]; .commands == ["nvidia-modprobe -u -c 0", "lxgpu preflight --print-boot-unit"])'
}
check "scan: a host warning lists its fix's commands" t_scan_commands

# Plurals: no "1 GPUs", "1 containers", "1 findings" in any text.
t_plurals() {
	rm -rf "$work/pve" && mkdir -p "$work/pve/lxc"
	cp "$cases/stale-uvm-major.conf" "$work/pve/lxc/700.conf"
	for h in "$examples"/*.yaml; do
		for c in scan topo audit preflight doctor "verify 700" "topo --gpus 1"; do
			# shellcheck disable=SC2086
			"$lxgpu" --no-color --host "$h" --pve-dir "$work/pve" --lxc-path "$work/none" $c \
				>"$work/t" 2>&1
			if grep -Eiw '(^|[^0-9.,])1 (gpus|containers|findings|warnings|errors|nodes|pairs)' "$work/t"; then
				echo "($c on $(basename "$h"))"
				return 1
			fi
		done
	done
}
check "text: a count of one is singular" t_plurals

tap_finish
