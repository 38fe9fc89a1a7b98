#!/bin/sh
# Run a libFuzzer target for a while over a scratch corpus seeded from the
# given directories. Usage: run-fuzzer.sh FUZZER SECONDS SEED_DIR...
set -eu
fuzzer=$1 seconds=$2
shift 2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for seeds in "$@"; do
	[ -d "$seeds" ] && cp "$seeds"/* "$scratch/" 2>/dev/null || true
done
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -error_exitcode=1 \
	-print_final_stats=1 "$scratch"
