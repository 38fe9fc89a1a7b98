# Shared TAP helpers for the shell tests: source it, call `check`, end with
# `tap_finish`.
#   check DESCRIPTION COMMAND...   runs COMMAND (often a t_* function); its
#                                  output is shown, as TAP comments, on failure
#   skip DESCRIPTION REASON        a check that cannot run here: a TAP skip
#                                  (meson and tools/run-tests count it), and
#                                  with CI=true a failure (CI skips nothing)
# tap_prefix, when set, starts every description (the real-LXC tests: the
# LXC version they ran on).
tap_n=0
tap_failed=0
tap_scratch=$(mktemp)

check() {
	desc=${tap_prefix:-}$1
	shift
	tap_n=$((tap_n + 1))
	if "$@" >"$tap_scratch" 2>&1; then
		echo "ok $tap_n - $desc"
	else
		echo "not ok $tap_n - $desc"
		sed 's/^/# /' "$tap_scratch"
		tap_failed=$((tap_failed + 1))
	fi
}

skip() {
	tap_n=$((tap_n + 1))
	if [ "${CI:-}" = true ]; then
		echo "not ok $tap_n - ${tap_prefix:-}$1"
		echo "# cannot run here, and CI=true allows no skip: $2"
		tap_failed=$((tap_failed + 1))
	else
		echo "ok $tap_n - ${tap_prefix:-}$1 # SKIP $2"
	fi
}

tap_finish() {
	rm -f "$tap_scratch"
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ] && [ "$tap_n" -gt 0 ]
	exit $?
}
