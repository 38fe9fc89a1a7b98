# Sourced by the tests that run lxgpu's live scanner under umockdev: without
# umockdev-run the test is a TAP skip (a failure with CI=true, where it is
# required), and on a machine with the NVIDIA driver loaded its real
# /proc/driver/nvidia would leak into the testbed (a skip). Then ASAN_OPTIONS
# for an ASan build under umockdev's LD_PRELOAD.
if ! command -v umockdev-run >/dev/null 2>&1; then
	echo "# umockdev-run not found: install the Debian package 'umockdev'"
	if [ "${CI:-}" = true ]; then echo "Bail out! umockdev is required in CI"; exit 1; fi
	echo "1..0 # SKIP umockdev-run not installed"
	exit 0
fi
if [ -e /proc/driver/nvidia/version ]; then
	echo "1..0 # SKIP this machine's real /proc/driver/nvidia would leak into the testbed"
	exit 0
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0"
