#!/bin/sh
# A short soak in CI: bench/soak.sh with a few seeded events (each a host
# reboot with real LXC). Every lxgpu start must work or be refused with a
# reason; the hand recipe on the same events is the control that shows the
# checks can fail: seed 2 gives every kind of event (mawk), and the recipe must break somewhere.
# Usage: soak-short.sh LXGPU SOAK_SCRIPT   (TAP)
set -u
lxgpu=$1 soak=$2
. "$(dirname "$0")/../lib/tap.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$soak" --lxgpu "$lxgpu" --events 8 --seed 2 >"$out" 2>&1
rc=$?
if grep -q '^1\.\.0 # SKIP' "$out"; then
	cat "$out"
	exit 0
fi
last=$(tail -n 1 "$out")
t_lxgpu() {
	[ "$rc" -eq 0 ] && echo "$last" | grep -q '^soak: 8 events, lxgpu [0-9]*/16 starts working' &&
		lx=$(echo "$last" | sed 's/.*lxgpu \([0-9]*\)\/16 starts working (\([0-9]*\) refused.*/\1 \2/') &&
		[ $((${lx% *} + ${lx#* })) -eq 16 ] || { sed 's/^/# /' "$out"; return 1; }
}
check "every lxgpu start works or is refused with a reason" t_lxgpu
t_control() {
	h=$(echo "$last" | sed -n 's/.*hand recipe \([0-9]*\)\/16 starts working$/\1/p')
	[ -n "$h" ] && [ "$h" -lt 16 ] || { echo "# hand recipe: '$h' of 16 (expected some broken)"; return 1; }
}
check "the hand recipe breaks on the same events (the checks can fail)" t_control
tap_finish
