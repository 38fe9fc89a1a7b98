#!/bin/sh
# bench/audit.sh measures only runs that worked: with a small cluster it
# prints its ratios for the real lxgpu; with an lxgpu that fails (exit 2),
# answers for fewer containers than it was given, or prints no JSON, it
# prints that run's messages, exits 1 and never prints a ratio.
# Usage: audit-bench.sh LXGPU BENCH_SCRIPT   (TAP)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") bench=$2
. "$(dirname "$0")/../lib/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LXGPU_BENCH_SIZES="12 40"
# fake NAME BODY: a build dir whose lxgpu is the shell BODY.
fake() {
	mkdir -p "$work/$1"
	printf '#!/bin/sh\n%s\n' "$2" >"$work/$1/lxgpu"
	chmod +x "$work/$1/lxgpu"
}
mkdir -p "$work/real" && ln -s "$lxgpu" "$work/real/lxgpu"

t_real() {
	"$bench" "$work/real" 1 >"$work/out" 2>"$work/err" || { cat "$work/out" "$work/err"; return 1; }
	for k in audit preflight; do
		for n in 12 40; do
			grep -Eq "^$k +$n configs: .* ratio +[0-9]+\.[0-9]+, peak RSS +[0-9]+ KiB" "$work/out" ||
				{ echo "# no $k $n line"; sed 's/^/# /' "$work/out"; return 1; }
		done
		grep -Eq "^$k +growth 12 -> 40: time x[0-9.]+ .*peak memory x[0-9.]+" "$work/out" ||
			{ echo "# no $k growth line"; return 1; }
	done
}
check "the real lxgpu on 12 and 40 configs: ratio, peak RSS and growth lines for audit and preflight" t_real

# failing NAME WORDS: the benchmark exits 1, says WORDS, prints no ratio.
failing() {
	rc=0
	"$bench" "$work/$1" 1 >"$work/out" 2>"$work/err" || rc=$?
	[ "$rc" -eq 1 ] || { echo "# exit $rc"; cat "$work/out" "$work/err" | sed 's/^/# /'; return 1; }
	! grep -qi ratio "$work/out" "$work/err" || { echo "# a ratio was printed"; sed 's/^/# /' "$work/out"; return 1; }
	grep -q "$2" "$work/err" || { echo "# no '$2' in:"; sed 's/^/# /' "$work/err"; return 1; }
}
fake exits2 'echo "lxgpu: --lxc-path /x: No such file or directory" >&2; exit 2'
check "an lxgpu that exits 2: its message, exit 1, no ratio" failing exits2 "No such file or directory"
fake short 'case "$*" in *audit*) echo "{\"summary\": {\"containers\": 3}}" ;; *) echo "{\"next_start\": []}" ;; esac; exit 1'
check "an lxgpu that answers for 3 of 12 containers: exit 1, no ratio" failing short "answered for 3 containers of 12"
fake nojson 'echo "not json"; exit 0'
check "an lxgpu whose output is not JSON: exit 1, no ratio" failing nojson "is not JSON"
# Fails only under GNU time (the last, measured-for-memory run).
fake undertime 'case "$(ps -o comm= -p $PPID)" in time) exit 3 ;; esac; exec "'"$lxgpu"'" "$@"'
check "an lxgpu that fails only in the run under GNU time: exit 1, no ratio" failing undertime "under GNU time"
tap_finish
