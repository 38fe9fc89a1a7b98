#!/bin/sh
# Extract the Proxmox VE Perl modules pve-parse and pve-lxc-config load, at HEAD, from bare git
# mirrors of proxmox/pve-common, pve-guest-common and pve-container laid out as
# MIRROR/proxmox+NAME/repo, into DEST (default /tmp/pve-perl).
# Nothing from these repos belongs in git.
# usage: get-lib.sh MIRROR [DEST]
set -eu
[ $# -ge 1 ] || { echo "usage: $0 MIRROR [DEST]" >&2; exit 2; }
MIRROR=$1
DEST=${2:-/tmp/pve-perl}
mkdir -p "$DEST"
: > "$DEST/VERSIONS"

x() {
    gd="$MIRROR/proxmox+$1/repo"; shift
    git --git-dir="$gd" archive HEAD "$@" | tar -x -C "$DEST" --strip-components=1
    echo "proxmox/$(basename "$(dirname "$gd")" | sed 's/^proxmox+//') $(git --git-dir="$gd" log -1 --format='%H %cs')" >> "$DEST/VERSIONS"
}

x pve-common       src/PVE                                  # JSONSchema, Tools, INotify, ...
x pve-guest-common src/PVE/AbstractConfig.pm src/PVE/GuestHelpers.pm
# Config.pm and Tools.pm for pve-parse; the rest for pve-lxc-config (LXC.pm's
# update_lxc_config, the prestart hook, the lxc.include drop-ins pve-container installs;
# the autodev hook for lxc-access, which runs it in real LXC)
x pve-container    src/PVE/LXC/Config.pm src/PVE/LXC/Tools.pm \
                   src/PVE/LXC.pm src/PVE/LXC/CGroup.pm src/PVE/LXC/Command.pm \
                   src/PVE/LXC/Monitor.pm src/PVE/LXC/Namespaces.pm \
                   src/lxc-pve-prestart-hook src/lxc-pve-autodev-hook \
                   src/lxc-pve.conf src/lxc-pve-userns.conf
cat "$DEST/VERSIONS"
