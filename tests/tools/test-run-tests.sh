#!/bin/sh
# tools/run-tests on a tiny meson project of three tests (one passes, one
# fails, one skips: exit 77) instead of lxgpu's 30-minute suite: it says
# each step as it starts, names the failed tests from meson's test log,
# builds a build directory set up by hand without werror with werror, and
# ends with the counts alone on the last line.
# Usage: test-run-tests.sh RUN_TESTS   (TAP)
set -u
run_tests=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/../lib/tap.sh"

for tool in meson ninja cc clang valgrind python3; do
	command -v "$tool" >/dev/null 2>&1 && continue
	if [ "${CI:-}" = true ]; then
		echo "Bail out! $tool is needed (tools/install-deps test)"
		exit 1
	fi
	echo "1..0 # SKIP $tool missing"
	exit 0
done

p="$work/fake"
mkdir -p "$p/tools"
cp "$run_tests" "$p/tools/run-tests"
cat >"$p/meson.build" <<'M'
project('fake', 'c')
t = executable('t', 't.c')
test('passes', t, suite : 'unit')
test('fails', find_program('false'), suite : 'unit')
test('skips', find_program('sh'), args : ['-c', 'exit 77'], suite : 'unit')
if get_option('fuzz')
  test('fuzz-passes', t, suite : 'fuzz')
endif
M
echo "option('fuzz', type : 'boolean', value : false)" >"$p/meson_options.txt"
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$p/t.c"
# build/ as a developer sets it up by hand: without werror.
(cd "$p" && meson setup build >/dev/null 2>&1) || { echo "Bail out! meson setup of the fake project failed"; exit 1; }
(cd "$p" && env -u CI sh tools/run-tests) >"$work/out" 2>"$work/err"
echo $? >"$work/rc"

t_last_line() {
	# tests, ASan, valgrind: 1 pass, 1 fail, 1 skip each; fuzzers: 1 pass
	[ "$(tail -n 1 "$work/out")" = "4 passed, 3 failed, 3 skipped" ] && [ "$(cat "$work/rc")" = 1 ] ||
		{ tail -n 5 "$work/out"; cat "$work/err" "$work/rc"; return 1; }
}
check "the counts alone on the last line; exit 1 with failures" t_last_line
t_failed_names() {
	sed -n '/^run-tests: failed:$/,$p' "$work/out" | sed '$d' >"$work/names"
	cat >"$work/want" <<'W'
run-tests: failed:
  tests: fails (fail)
  tests under ASan+UBSan: fails (fail)
  unit tests under valgrind: fails (fail)
W
	diff -u "$work/want" "$work/names"
}
check "the failed tests by name, per suite, before the counts" t_failed_names
t_steps() {
	for s in "tests: meson configure build -Dwerror=true" "tests: meson compile -C build" "tests: meson test -C build" \
		"tests under ASan+UBSan: meson setup build-asan -Dwerror=true" "unit tests under valgrind: meson test -C build --suite unit" \
		"fuzzers: meson setup build-fuzz -Dwerror=true -Dfuzz=true"; do
		grep -q "^run-tests: $s" "$work/out" || { echo "no step line: run-tests: $s"; cat "$work/out"; return 1; }
	done
	# each step line comes before its step's output
	[ "$(grep -n '^run-tests: tests: meson test' "$work/out" | cut -d: -f1)" -lt \
		"$(grep -n 'passes *OK' "$work/out" | head -n 1 | cut -d: -f1)" ]
}
check "one line per step, as it starts" t_steps
t_werror() {
	meson introspect "$p/build" --buildoptions |
		python3 -c 'import json, sys; sys.exit(0 if [o["value"] for o in json.load(sys.stdin) if o["name"] == "werror"] == [True] else 1)'
}
check "a build directory set up without werror is built with werror" t_werror
tap_finish
