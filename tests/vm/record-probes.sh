#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record-probes.sh OUTDIR - remake tests/data/stock/stock72-probes-x86
# (NAME.txt.xz, NAME.lat.txt.xz, NAME.dat) as its README.md describes: one
# boot of Debian's 7.2 amd64 running stock-guest.sh's probes step. The
# uprobes sit on lazyload's main: its offset in the file is computed here
# (a static binary: the symbol's address less its LOAD segment's address,
# plus that segment's file offset) and handed to the guest in OUTDIR.
# Environment: BUILD, VMSTOCK_CACHE, KVER as for record-stock.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
dest=${1:?usage: record-probes.sh OUTDIR}
vm=$BUILD/vm-stock-probes
name=stock72-probes-x86

amd64=$("$here/fetch.sh" amd64) ||
	{ echo "record-probes: FAILED to download Debian's packages" >&2; exit 1; }
mkdir -p "$BUILD" "$dest"
gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$top/patches/vm/lazyload.c" || exit 1
"$here/mkinitramfs.sh" amd64 "$amd64" "$BUILD/stock-amd64.cpio.gz" "$top/lazytrace" "$BUILD/lazyload" || exit 1
rm -rf "$vm"
mkdir -p "$vm"
off=$(python3 - "$BUILD/lazyload" "$(nm "$BUILD/lazyload" | awk '$3 == "main" { print $1 }')" <<'EOPY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
a = int(sys.argv[2], 16)
phoff, = struct.unpack_from('<Q', d, 0x20)
phentsize, phnum = struct.unpack_from('<HH', d, 0x36)
for i in range(phnum):
    t, _, off, vaddr, _, filesz = struct.unpack_from('<IIQQQQ', d, phoff + i * phentsize)
    if t == 1 and vaddr <= a < vaddr + filesz:
        print(hex(a - vaddr + off))
EOPY
)
[ -n "$off" ] || { echo "record-probes: no offset for lazyload's main" >&2; exit 1; }
echo "$off" > "$vm/uprobe-main"
"$here/boot.sh" amd64 "$amd64" "$BUILD/stock-amd64.cpio.gz" "$vm" lazy \
	"probes:$name" || exit 1
xz -9 -c "$vm/$name.txt" > "$dest/$name.txt.xz"
xz -9 -c "$vm/$name.lat.txt" > "$dest/$name.lat.txt.xz"
cp "$vm/$name.dat" "$dest/"
echo "$name: $(grep -m1 entries-in-buffer "$vm/$name.txt")"
grep -E 'probe|===' "$vm/console.log"
