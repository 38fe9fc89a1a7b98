#!/bin/sh
# copy-tree.sh SRC DEST: the source tree SRC copied into DEST (made when
# missing): the files git knows (tracked, and untracked ones not ignored),
# else, where SRC is no git checkout (a copy made by this script, a release
# tarball), the tree without build directories. Links are copied as links
# (the host fixtures' /dev/.node links point nowhere here).
set -eu
src=$1 dest=$2
mkdir -p "$dest"
if command -v git >/dev/null && git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" ls-files -co --exclude-standard -z |
		(cd "$src" && xargs -0 sh -c 'for f; do { [ -e "$f" ] || [ -L "$f" ]; } && printf "%s\n" "$f"; done' _) |
		tar -C "$src" -cf - -T - | tar -C "$dest" -xf -
else
	tar -C "$src" --exclude='./build*' --exclude='./obj-*' -cf - . | tar -C "$dest" -xf -
fi
