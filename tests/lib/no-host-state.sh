#!/bin/sh
# Run a command (a test, or `meson test ...`) where the machine's
# /var/lib/lxgpu does not exist and cannot be made: in a private mount
# namespace, /var/lib is a read-only tmpfs holding every other entry of the
# real /var/lib (bind-mounted, so they work as before) but not lxgpu. A
# test that writes lxgpu's state or backups anywhere but its own scratch
# --state-dir / --backup-dir then fails (EROFS) instead of overwriting a
# real container's record. Needs root and unshare(1). Usage:
#   tests/lib/no-host-state.sh COMMAND [ARGS...]
set -eu
[ "$#" -ge 1 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
	echo "$0: needs root and unshare" >&2
	exit 77
fi
# shellcheck disable=SC2016
exec unshare -m --propagation private sh -eu -c '
real=$(mktemp -d /tmp/lxgpu-real-var-lib.XXXXXX)
mount --rbind /var/lib "$real"
mount -t tmpfs -o mode=0755 lxgpu-no-state /var/lib
for e in "$real"/* "$real"/.[!.]*; do
	[ -e "$e" ] || [ -L "$e" ] || continue
	n=${e##*/}
	[ "$n" = lxgpu ] && continue
	if [ -L "$e" ]; then
		cp -P "$e" "/var/lib/$n"
		continue
	elif [ -d "$e" ]; then
		mkdir "/var/lib/$n"
	else
		: >"/var/lib/$n"
	fi
	mount --rbind "$e" "/var/lib/$n"
done
mount -o remount,ro /var/lib
set +e
"$@"
rc=$?
if [ -e /var/lib/lxgpu ]; then
	echo "no-host-state: /var/lib/lxgpu was made" >&2
	exit 1
fi
exit $rc
' no-host-state "$@"
