#!/bin/sh
# Compare `lxgpu generate` outputs with their pinned copies (stdout and
# stderr) for every case in tests/golden/cases. Usage:
#   run-golden.sh LXGPU EXAMPLES_DIR GOLDEN_DIR [--update]   (TAP output)
# --update rewrites the pinned files; review the diff before committing.
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) golden=$(cd "$3" && pwd) update=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
while read -r name host args; do
	case "$name" in '' | '#'*) continue ;; esac
	n=$((n + 1))
	# shellcheck disable=SC2086
	# the pinned outputs have generate's '#' lines, which a pipe gets on request
	"$lxgpu" --host "$examples/$host.yaml" $args --comments >"$work/out" 2>"$work/err"
	echo "exit $?" >>"$work/err"
	cat "$work/out" >"$work/all"
	printf '%s\n' '--- stderr' >>"$work/all"
	cat "$work/err" >>"$work/all"
	want="$golden/generate/$name.txt"
	if [ "$update" = --update ]; then
		mkdir -p "$golden/generate"
		cp "$work/all" "$want"
		echo "ok $n - $name (updated)"
	elif [ -f "$want" ] && diff -u "$want" "$work/all" >"$work/diff"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name: lxgpu --host $host.yaml $args"
		[ -f "$want" ] && sed 's/^/# /' "$work/diff" || echo "# no pinned output $want"
		failed=$((failed + 1))
	fi
done <"$golden/cases"
echo "1..$n"
[ "$failed" -eq 0 ]
