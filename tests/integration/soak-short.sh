#!/bin/sh
# A short soak in CI: bench/soak.sh over one event of each kind that has a
# known outcome (each a host reboot with real LXC, every baseline set up
# correct before it). Every lxgpu start must work or be refused with a
# reason. The two baselines without lxgpu are the control that shows the
# checks can fail, and their verdicts are known in advance, per container
# (privileged with GPU a and its MIG caps, unprivileged with GPU b), from
# what the host does and what each recipe gives (FACTS sections 2, 4, 10):
#   uvm-major                nvidia-uvm under a new major: the hand recipe's
#                            rule for the old one denies the privileged
#                            container (EPERM); Proxmox's unprivileged
#                            containers allow every device (01-pve.conf), so
#                            the binds are enough there; devN stats the node
#                            at the start: both work.
#   uvm-late                 no uvm nodes at boot: the hand recipe's optional
#                            binds are skipped (no CUDA, silently); devN's
#                            start fails "Device /dev/nvidia-uvm does not
#                            exist" (refused with a reason).
#   driver-update/both       module and userspace 550 -> 551+: both copies
#                            inside stay at the old version.
#   kernel-update/majors-moved  the uvm and caps majors move: as uvm-major.
#   gpu-change/added-first   a GPU before both: every /dev/nvidiaN shifts
#                            up; the recipes' /dev/nvidia0 and /dev/nvidia1
#                            still exist (other cards), so they start with
#                            the wrong GPU, except devN's privileged one:
#                            its MIG caps nodes are numbered after the GPU's
#                            minor (nv-caps.c) and the old ones are gone, so
#                            its start is refused.
#   kernel-update/dkms-failed  no nvidia module this boot: optional binds
#                            skip every node; devN refuses (no /dev/nvidia0).
#   renumber/keep-order      new PCI bus numbers, the GPUs in the same order:
#                            no node number changes, both recipes work,
#                            and lxgpu's guard sees the same cards (UUIDs).
# Usage: soak-short.sh LXGPU SOAK_SCRIPT   (TAP)
set -u
lxgpu=$1 soak=$2
. "$(dirname "$0")/../lib/tap.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
seq="uvm-major uvm-late driver-update/both kernel-update/majors-moved gpu-change/added-first kernel-update/dkms-failed renumber/keep-order"
"$soak" --lxgpu "$lxgpu" --sequence "$seq" --seed 2 >"$out" 2>&1
rc=$?
if grep -q '^1\.\.0 # SKIP' "$out"; then
	cat "$out"
	exit 0
fi
last=$(tail -n 1 "$out")
t_lxgpu() {
	[ "$rc" -eq 0 ] && echo "$last" | grep -q '^soak: 7 events, lxgpu [0-9]*/14 starts working' &&
		lx=$(echo "$last" | sed 's/.*lxgpu \([0-9]*\)\/14 starts working (\([0-9]*\) refused.*/\1 \2/') &&
		[ $((${lx% *} + ${lx#* })) -eq 14 ] || { sed 's/^/# /' "$out"; return 1; }
}
check "every lxgpu start works or is refused with a reason" t_lxgpu
# verdicts EVENT_NO LABEL BASELINE WANT: the event's line gives BASELINE WANT.
verdicts() {
	got=$(sed -n "s/^event $1 \([^:]*\):.* $3=\([WRB,]*\).*/\1 \2/p" "$out")
	[ "$got" = "$2 $4" ] || { echo "# event $1 $2 $3: got '$got', want '$2 $4'"; grep -A9 "^event $1 " "$out" | sed 's/^/# /'; return 1; }
}
t_hand() {
	verdicts 1 uvm-major hand B,W && verdicts 2 uvm-late hand B,B && verdicts 3 driver-update/both hand B,B &&
		verdicts 4 kernel-update/majors-moved hand B,W && verdicts 5 gpu-change/added-first hand B,B &&
		verdicts 6 kernel-update/dkms-failed hand B,B && verdicts 7 renumber/keep-order hand W,W
}
check "the hand recipe: broken where its numbers, binds or copy go stale, working where nothing it names moved" t_hand
t_pve() {
	verdicts 1 uvm-major pve W,W && verdicts 2 uvm-late pve R,R && verdicts 3 driver-update/both pve B,B &&
		verdicts 4 kernel-update/majors-moved pve W,W && verdicts 5 gpu-change/added-first pve R,B &&
		verdicts 6 kernel-update/dkms-failed pve R,R && verdicts 7 renumber/keep-order pve W,W
}
check "Proxmox's devN: follows majors, refuses a missing node, broken by a driver update and shifted GPUs" t_pve
# The bus numbered anew with the GPUs' order kept: the cards the containers
# were given are where their nodes are, so the guard lets both start.
t_lxgpu_renumber() { verdicts 7 renumber/keep-order lxgpu W,W; }
check "lxgpu: a renumbering that keeps the GPUs' order starts both containers" t_lxgpu_renumber
t_lines() {
	for b in hand pve lxgpu; do
		l=$(grep "^baseline $b: " "$out") || { echo "# no line for baseline $b"; return 1; }
		n=$(echo "$l" | sed -n 's/^baseline [a-z]*: \([0-9]*\)\/14 starts working, \([0-9]*\) refused with a reason, \([0-9]*\) silently broken$/\1 \2 \3/p')
		[ -n "$n" ] || { echo "# $l"; return 1; }
		set -- $n
		[ $(($1 + $2 + $3)) -eq 14 ] || { echo "# $l: not 14 starts"; return 1; }
	done
	grep -q "^baseline hand: 4/14 starts working, 0 refused with a reason, 10 silently broken$" "$out" &&
		grep -q "^baseline pve: 6/14 starts working, 5 refused with a reason, 3 silently broken$" "$out" ||
		{ grep '^baseline' "$out" | sed 's/^/# /'; return 1; }
}
check "one line per baseline, each counting all 14 starts (hand 4/0/10, pve 6/5/3)" t_lines
tap_finish
