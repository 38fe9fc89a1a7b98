#!/bin/bash
# SIGINT, SIGTERM and SIGHUP at random moments during apply, rollback,
# ensure-nodes and publish (scratch --pve-dir, --state-dir, --backup-dir,
# --dev-dir, bundled example hosts), hundreds of times per signal. The
# oracles are outside lxgpu: the file system (every entry before and after,
# with its type, mode, owner, device number and bytes) and strace's log of
# each run (where the signal landed among the syscalls). Every run must leave
#   - no temporary file (".lxgpu-tmp-" anywhere),
#   - each file byte-identical to its state before or to the complete new
#     one; for apply and rollback (one transaction: backup, include file,
#     config, record) all of them before or all after: no backup of an
#     edit that did not happen, no config without its backup,
#   - exit 2 with "interrupted by SIGX" and what was written (nothing,
#     when the files are as before), or 0 with the complete new state when
#     the signal came after the end; a death by the signal itself only when
#     strace shows it came before lxgpu installed its handlers.
# strace sends the signal in three runs of four, on entering a random one
# of lxgpu's calls of openat, write, fchmod, fsync, rename, unlink or
# mknodat, so that signals land inside the writes; kill sends it in the
# fourth, within lxgpu's first 2 ms.
# Then: what a SIGKILL leaves (temporary files) is removed by the next run
# of each command once a minute old.
# Usage: test-interrupt.sh LXGPU EXAMPLES_DIR [RUNS_PER_SIGNAL]   (TAP output)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) per_signal=${3:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
host_big="$examples/pve-8x-rtx-pro-6000.yaml"
host_other="$examples/pve-rtx-4090.yaml"
RANDOM=$$

if ! command -v strace >/dev/null; then
	skip "interrupts land inside writes (strace as the oracle)" "strace is not installed"
	tap_finish
fi
if [ "$(id -u)" -ne 0 ]; then
	skip "interrupts land inside writes" "ensure-nodes makes device nodes: needs root"
	tap_finish
fi

# LeakSanitizer cannot work under ptrace (an ASan build of lxgpu would end
# with its "fatal error"); the unit tests and the other CLI tests look for leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

s="$work/scene" # what each run changes; its state is the oracle's input
mkdir -p "$work/locks" "$work/none"
: >"$work/locks/pve-config-100.lock"

# The common options: everything lxgpu writes goes under $s.
opts=(--pve-dir "$s/pve" --lock-dir "$work/locks" --backup-dir "$s/bk" --state-dir "$s/st")

# A made-up host for ensure-nodes (as tests/cli/test-ensure-nodes.sh): one
# GPU (minor 3), nvidia-uvm at 511, MIG caps; its /dev under $s/dev.
make_proc() {
	p="$work/proc"
	mkdir -p "$p/driver/nvidia/gpus/0000:41:00.0" "$p/driver/nvidia/capabilities/mig" \
		"$p/driver/nvidia/capabilities/gpu0/mig/gi1" "$p/sys/kernel"
	printf 'Character devices:\n  1 mem\n195 nvidia-frontend\n195 nvidia\n195 nvidiactl\n226 drm\n508 nvidia-caps\n511 nvidia-uvm\n\nBlock devices:\n  8 sd\n' >"$p/devices"
	printf 'nvidia_uvm 1912832 0 - Live 0x0000000000000000 (POE)\nnvidia 11563008 1 nvidia_uvm, Live 0x0000000000000000 (POE)\n' >"$p/modules"
	printf 'Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 200\nGPU UUID: \t GPU-11111111-2222-3333-4444-555555555555\nDevice Minor: \t 3\nBus Location: \t 0000:41:00.0\n' \
		>"$p/driver/nvidia/gpus/0000:41:00.0/information"
	printf 'DeviceFileMinor: 1\nDeviceFileMode: 256\nDeviceFileModify: 1\n' >"$p/driver/nvidia/capabilities/mig/config"
	printf 'DeviceFileMinor: 2\nDeviceFileMode: 292\nDeviceFileModify: 1\n' >"$p/driver/nvidia/capabilities/mig/monitor"
	printf 'DeviceFileMinor: 12\nDeviceFileMode: 292\nDeviceFileModify: 1\n' >"$p/driver/nvidia/capabilities/gpu0/mig/gi1/access"
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  590.48.01  Release Build  (dvs-builder@U22-I3-AF03-09-1)\n' \
		>"$p/driver/nvidia/version"
}

# The argument list of each command.
cmd_args() {
	case $1 in
	apply) args=(--host "$host_big" "${opts[@]}" apply 100 --gpus 0,1 --style include) ;;
	rollback) args=(--host "$host_big" "${opts[@]}" rollback 100) ;;
	ensure-nodes) args=(--proc-dir "$work/proc" --dev-dir "$s/dev" --firmware-dir "$work/none"
		--run-dir "$work/none" --state-dir "$s/st" ensure-nodes) ;;
	publish) args=(--host "$host_big" --pve-dir "$s/pve" publish --node n1) ;;
	esac
}

# Every entry under $s, one line each, sorted: path|type|mode|owner|device|size|bytes.
# A backup's name and bytes carry the time (its name stands as BACKUP; it
# was written whole if gzip -t passes, checked apart); so do the record's
# recorded_at and the model's scanned_at lines (left out).
signature() {
	find "$s" -mindepth 1 -print0 | xargs -0r stat -c '%F|%a|%u:%g|%t:%T|%s|%n' |
		awk -F'|' -v root="$s/" '
		{
			path = substr($6, length(root) + 1)
			size = $5
			bytes = ""
			if ($1 == "directory") size = ""
			if ($1 ~ /regular/ && path ~ /^bk\/[0-9]+-[0-9T]+\.[0-9]+Z\.tar\.gz$/) {
				path = "bk/BACKUP"; size = ""
			} else if ($1 ~ /regular/) {
				while ((getline line < $6) > 0)
					if (line !~ /^(recorded_at|  scanned_at):/) bytes = bytes line "\\n"
				close($6)
			}
			print path "|" $1 "|" $2 "|" $3 "|" $4 "|" size "|" bytes
		}' | LC_ALL=C sort
}

# The scene each command starts from.
scene_apply() {
	rm -rf "$s" && mkdir -p "$s/pve/lxc" "$s/pve/nodes/n1"
	# A config of some size (snapshots), so that writing it takes a moment.
	{
		printf 'arch: amd64\nhostname: big\nmemory: 4096\n'
		printf 'lxc.cgroup2.devices.allow: c 195:* rwm\n'
		for i in $(seq 0 199); do
			printf '\n[snap%d]\narch: amd64\nhostname: big\nmemory: 4096\nsnaptime: %d\n' "$i" $((1700000000 + i))
		done
	} >"$s/pve/lxc/100.conf"
}

t_setup() {
	make_proc
	for c in apply rollback ensure-nodes publish; do
		case $c in
		apply) scene_apply ;;
		rollback) scene_apply && cmd_args apply && "$lxgpu" "${args[@]}" >/dev/null || return 1 ;;
		ensure-nodes)
			rm -rf "$s" && mkdir -p "$s/dev/nvidia-caps"
			# A stale nvidia-uvm (509, not 511) and a nvidiactl of the wrong mode.
			mknod "$s/dev/nvidia-uvm" c 509 0 && mknod -m 0600 "$s/dev/nvidiactl" c 195 255 || return 1
			# A container applied with --style include (its record, as
			# tests/cli/test-include.sh writes it): its include file is made.
			mkdir -p "$s/st/containers" &&
				printf 'schema: 1\nid: "101"\nconfig_path: /nonexistent/101.conf\nstyle: include\nunprivileged: false\ndri: false\ncaps: false\nexclusive: false\nrecorded_at: "2026-12-01T00:00:00Z"\ngpus:\n- pci: "0000:41:00.0"\n  uuid: GPU-11111111-2222-3333-4444-555555555555\n  minor: 3\n' \
					>"$s/st/containers/101.yaml" || return 1 ;;
		publish)
			rm -rf "$s" && mkdir -p "$s/pve/nodes/n1" &&
				"$lxgpu" --host "$host_other" --pve-dir "$s/pve" publish --node n1 2>/dev/null || return 1 ;;
		esac
		rm -rf "$work/before-$c" && cp -a "$s" "$work/before-$c" || return 1
		signature >"$work/sig-before-$c"
		cmd_args "$c"
		"$lxgpu" "${args[@]}" >"$work/out" 2>"$work/err" || { cat "$work/out" "$work/err"; return 1; }
		signature >"$work/sig-after-$c"
		if cmp -s "$work/sig-before-$c" "$work/sig-after-$c"; then
			echo "$c changes nothing: no test"
			return 1
		fi
	done
}
check "each command changes its scene (the new state, uninterrupted)" t_setup

# The syscalls where a signal may come (strace's inject=...:signal=).
points=(openat write fchmod fsync rename unlink mknodat)
# Start COMMAND in the scene under strace (its log: $work/log), with
# strace's further options; sets spid (strace) and pid (lxgpu: strace's
# child, found once it has exec'd lxgpu; strace forks a short-lived probe
# first).
launch() { # COMMAND STRACE_OPTION...
	rm -rf "$s" && cp -a "$work/before-$1" "$s"
	cmd_args "$1"
	shift
	# A background job of a script starts with SIGINT ignored (and lxgpu,
	# as nohup wants, leaves an ignored signal ignored): env resets it.
	local trace
	trace=$(IFS=,; echo "${points[*]},rt_sigaction")
	env --default-signal=INT,TERM,HUP strace -qq -o "$work/log" -e trace="$trace" "$@" \
		"$lxgpu" "${args[@]}" >/dev/null 2>"$work/err" &
	spid=$! pid=""
	local kids kid arg0
	while [ -z "$pid" ] && kill -0 "$spid" 2>/dev/null; do
		kids=() arg0=""
		read -r -a kids 2>/dev/null <"/proc/$spid/task/$spid/children"
		for kid in "${kids[@]}"; do
			read -r -d "" arg0 2>/dev/null <"/proc/$kid/cmdline"
			[ "$arg0" = "$lxgpu" ] && pid=$kid
		done
	done
}

declare -A calls share
# How often each command makes each of those syscalls when it runs whole.
t_counts() {
	for c in apply rollback ensure-nodes publish; do
		launch "$c"
		wait "$spid" || { cat "$work/err"; return 1; }
		local line=$c: p n
		for p in "${points[@]}"; do
			n=$(grep -c "^$p(" "$work/log")
			calls[$c.$p]=$n
			line="$line $p $n"
		done
		echo "$line"
		[ "${calls[$c.rename]}" -gt 0 ] || { echo "$c: no rename in the log"; return 1; }
	done
}
check "each command runs under strace" t_counts
sed "s/^/# syscalls, /" "$tap_scratch"
[ "$tap_failed" -eq 0 ] || tap_finish # no scenes or counts: nothing to run

# One run: the scene reset, the command started under strace, the signal
# sent, the outcome judged. Three runs in four, strace sends it on
# entering a random one of the syscalls above (a random one of the kinds
# it makes, then a random one of those calls: inside the writes, or
# before, or after them); one in four, kill sends it from outside within
# lxgpu's first 2 ms (0: at once). Counts go to the cnt_* variables; a
# failure's story to $work/why.
one_run() { # COMMAND SIGNAL ROUND
	local c=$1 sig=$2 round=$3 at=""
	if [ $((round % 4)) -eq 0 ]; then
		launch "$c"
		local us=$(((RANDOM * 32768 + RANDOM) % 2000))
		at="kill after ${us}us"
		if [ "$us" -gt 0 ]; then
			printf -v delay '0.%06d' "$us"
			sleep "$delay"
		fi
		[ -n "$pid" ] && kill -s "$sig" "$pid" 2>/dev/null
	else
		local made=() p
		for p in "${points[@]}"; do
			[ "${calls[$c.$p]}" -gt 0 ] && made+=("$p")
		done
		p=${made[RANDOM % ${#made[@]}]}
		local nth=$((1 + RANDOM % ${calls[$c.$p]}))
		at="at $p call $nth"
		launch "$c" -e inject="$p:signal=$sig:when=$nth"
	fi
	wait "$spid"
	local rc=$?
	# Where the signal landed, from strace's log: before the handlers were
	# installed, before the first temporary file, or after it (and with
	# how many temporary files in flight: made, not yet renamed or removed).
	local where
	where=$(awk -v sig="$sig" '
		/^rt_sigaction\(SIG[A-Z]+, \{sa_handler=0x/ { if (index($0, "(" sig ",")) handled = 1 }
		/lxgpu-tmp-/ && (/O_CREAT/ || /^mknodat/) && / = [0-9]+/ {
			started = 1; n = split($0, q, "\""); flight[q[2]] = 1
		}
		/^(rename|unlink)\(/ && / = 0/ { n = split($0, q, "\""); delete flight[q[2]] }
		$0 ~ "^--- " sig " " {
			k = 0; for (f in flight) k++
			print (handled ? "handled" : "unhandled"), (started ? "started" : "fresh"), k
			found = 1; exit
		}
		END { if (!found) print "none none 0" }' "$work/log")
	set -- $where
	local handled=$1 started=$2 in_flight=$3
	local now
	now=$(signature)
	local state=mixed
	if [ "$now" = "$(cat "$work/sig-before-$c")" ]; then
		state=before
	elif [ "$now" = "$(cat "$work/sig-after-$c")" ]; then
		state=after
	fi
	local fail=""
	if printf '%s\n' "$now" | grep -q 'lxgpu-tmp-'; then
		fail="a temporary file was left"
	elif [ $state = mixed ]; then
		case $c in
		apply | rollback | publish) fail="the files are neither all as before nor all new" ;;
		ensure-nodes)
			# Each node is made on its own: each entry as before or new.
			printf '%s\n' "$now" | LC_ALL=C sort | LC_ALL=C comm -23 - \
				<(LC_ALL=C sort -u "$work/sig-before-$c" "$work/sig-after-$c") >"$work/odd"
			[ -s "$work/odd" ] && fail="entries neither as before nor new: $(cat "$work/odd")" ;;
		esac
	fi
	if [ -z "$fail" ] && ls "$s/bk"/*.tar.gz >/dev/null 2>&1 && ! gzip -t "$s/bk"/*.tar.gz 2>/dev/null; then
		fail="a backup is not a whole gzip file"
	fi
	if [ -z "$fail" ]; then
		case $rc in
		2)
			if ! grep -q "^lxgpu: interrupted by $sig" "$work/err"; then
				fail="exit 2 without 'interrupted by $sig'"
			elif [ $state = before ] && ! grep -q 'nothing was written$' "$work/err"; then
				fail="nothing changed, but the message does not say 'nothing was written'"
			elif [ $state != before ] && ! grep -q '^lxgpu: \(written\|made\|changed\|removed\)' "$work/err"; then
				fail="files changed, but the message names none"
			elif [ "$started" = started ]; then
				cnt_mid=$((cnt_mid + 1))
				[ "$in_flight" -gt 0 ] && cnt_flight=$((cnt_flight + 1))
			else
				cnt_early=$((cnt_early + 1))
			fi
			[ $state = before ] && cnt_nothing=$((cnt_nothing + 1))
			;;
		0)
			if [ $state != after ]; then
				fail="exit 0, but the new state is not complete"
			elif grep -q interrupted "$work/err"; then
				fail="exit 0 with an interrupt message"
			else
				cnt_done=$((cnt_done + 1))
			fi
			;;
		*)
			if [ "$rc" -gt 128 ] && [ "$handled" != handled ] && [ $state = before ]; then
				cnt_unhandled=$((cnt_unhandled + 1))
			else
				fail="exit $rc (signal landed: $where)"
			fi
			;;
		esac
	fi
	if [ -n "$fail" ]; then
		{
			echo "$c, $sig, round $round, $at: $fail"
			echo "strace: $where; exit $rc; stderr:"
			cat "$work/err"
			echo "files now vs. before:"
			diff <(cat "$work/sig-before-$c") <(printf '%s\n' "$now") | cut -c1-200 | head -20
		} >"$work/why"
		return 1
	fi
	return 0
}

# How the runs of one signal are shared: the commands with more to write
# get more of them.
share=([apply]=$((per_signal / 3)) [rollback]=$((per_signal * 4 / 15)) [ensure-nodes]=$((per_signal / 5)))
share[publish]=$((per_signal - share[apply] - share[rollback] - share[ensure-nodes]))

for sig in SIGINT SIGTERM SIGHUP; do
	for c in apply rollback ensure-nodes publish; do
		cnt_unhandled=0 cnt_early=0 cnt_mid=0 cnt_flight=0 cnt_done=0 cnt_nothing=0
		t_runs() {
			local r=0
			while [ $r -lt "${share[$c]}" ]; do
				one_run "$c" "$sig" $r || { cat "$work/why"; return 1; }
				r=$((r + 1))
			done
			# The runs must have reached the writes, or they test nothing.
			[ $cnt_mid -gt 0 ] || { echo "no run was interrupted after its first temporary file"; return 1; }
		}
		check "$c, $sig at random moments (${share[$c]} runs): no leftover, no partial file, no orphan backup, exit 2 with what was written" t_runs
		echo "# $c $sig: ${share[$c]} runs: $cnt_mid interrupted mid-write ($cnt_flight with a temporary file in flight), $cnt_early interrupted before writing, $cnt_nothing left everything as before, $cnt_done done before the signal, $cnt_unhandled before lxgpu's handlers"
		echo "$sig $c ${share[$c]} $cnt_mid $cnt_flight $cnt_early $cnt_done $cnt_unhandled" >>"$work/totals"
	done
done
awk '{ runs[$1] += $3; mid[$1] += $4; fl[$1] += $5 }
	END { for (g in runs) printf "# %s: %d interrupted runs, %d of them mid-write (%d with a temporary file in flight)\n", g, runs[g], mid[g], fl[g] }' \
	"$work/totals" 2>/dev/null | sort

# SIGKILL: no handler runs, so temporary files stay; each command's next
# run removes those of the files it writes once they are a minute old.
kill_mid_write() { # COMMAND: kill -9 while its first rename is held up by strace
	rm -rf "$s" && cp -a "$work/before-$1" "$s"
	cmd_args "$1"
	setsid strace -qq -o /dev/null -e trace=rename,mknodat -e inject=rename:delay_enter=400000 \
		"$lxgpu" "${args[@]}" >/dev/null 2>&1 &
	local pid=$! n=0
	# Until a temporary file is there (the rename waits 0.4 s), 5 s at most.
	while [ -z "$(find "$s" -name '*.lxgpu-tmp-*' -print -quit)" ] && [ $n -lt 500 ]; do
		sleep 0.01
		n=$((n + 1))
	done
	kill -KILL -- "-$pid"
	wait "$pid" 2>/dev/null
}
t_sweep() {
	for c in apply rollback ensure-nodes publish; do
		kill_mid_write "$c"
		local left
		left=$(find "$s" -name '*.lxgpu-tmp-*')
		[ -n "$left" ] || { echo "$c: SIGKILL left no temporary file to sweep"; return 1; }
		# A minute old: no live writer has one that old.
		find "$s" -name '*.lxgpu-tmp-*' -exec touch -h -d '2 minutes ago' {} +
		cmd_args "$c"
		"$lxgpu" "${args[@]}" >"$work/out" 2>"$work/err"
		local rc=$?
		[ $rc -eq 0 ] || { echo "$c after SIGKILL: exit $rc"; cat "$work/err"; return 1; }
		local still
		still=$(find "$s" -name '*.lxgpu-tmp-*')
		[ -z "$still" ] || { echo "$c left by SIGKILL: $left; still there after the next run: $still"; return 1; }
		echo "$c: swept $left"
	done
}
check "temporary files a SIGKILL left are removed by each command's next run" t_sweep
tap_finish
