#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What to share of a trace in a public bug report: export --perfetto
# --no-addresses holds no kernel address, where the plain export shows
# every frame the trace has no symbol for as its address; record
# --no-kallsyms writes no symbol table, which a plain recording has with
# the machine's real addresses.
. "$(dirname "$0")/lib.sh"

command -v python3 > /dev/null || skip "needs python3"
cd "$TMPDIR" || fail "no TMPDIR"

# 1. A real recording's stacks without its symbol table: every frame
# is then an address (tests/tools/blank-kallsyms.py keeps the offsets).
cp "$DATA/vm/lazyvm-hogs-stacks.dat" nosyms.dat
python3 "$TOOLS/blank-kallsyms.py" nosyms.dat > /dev/null || fail "cannot blank the kallsyms"
lt export --perfetto with.json -i nosyms.dat || fail "export failed"
lt export --no-addresses --perfetto without.json -i nosyms.dat || fail "export --no-addresses failed"
grep -oE '"0x[0-9a-f]{8,}"' with.json | tr -d '"' | sort -u > addrs
na=$(wc -l < addrs)
nf=$(grep -oE '"0x[0-9a-f]{8,}"' with.json | wc -l)
[ "$na" -ge 10 ] || fail "the plain export shows only $na distinct addresses"
# Not one of them, with or without 0x, nor any other kernel address.
sed 's/^0x//' addrs > bare
grep -Fq -f bare without.json && fail "--no-addresses: $(grep -oF -f bare without.json | head -n 3)"
grep -Eq '(0x)?ffff[0-9a-f]{12}' without.json && fail "--no-addresses: a kernel address left"
nu=$(grep -o '"\[unknown\]"' without.json | wc -l)
ns=$(grep -o '"site":"0x[0-9a-f]*"' with.json | wc -l)
[ "$nu" = "$((nf))" ] || fail "$nf address frames and sites, $nu [unknown] in their place"
[ "$ns" -gt 0 ] || fail "no site is an address in the plain export"
# The rest of the export is the same.
sed -E 's/"0x[0-9a-f]{8,}"/"[unknown]"/g' with.json | cmp -s - without.json ||
	fail "--no-addresses changed more than the addresses"
# With the symbols, the frames have names: --no-addresses changes nothing.
lt export --perfetto named.json -i "$DATA/vm/lazyvm-hogs-stacks.dat" || fail "export failed"
lt export --no-addresses --perfetto named2.json -i "$DATA/vm/lazyvm-hogs-stacks.dat" ||
	fail "export --no-addresses failed"
cmp -s named.json named2.json || fail "--no-addresses changed an export with symbols"
grep -q '"lazyhog_write"' named.json || fail "no lazyhog_write frame in the export with symbols"
echo "ok: export --no-addresses: $nf frames and sites ($na distinct addresses) made [unknown], nothing else changed"

# 2. This machine: record --no-kallsyms holds none of /proc/kallsyms's
# addresses of a few hot symbols; a plain recording holds them all.
[ "$(id -u)" = 0 ] || skip "not root: record --no-kallsyms is not tested"
T=/sys/kernel/tracing
[ -d $T/instances ] || mount -t tracefs nodev $T 2>/dev/null
[ -d $T/instances ] || skip "tracefs unavailable at $T: record --no-kallsyms is not tested"
awk '$3 ~ /^(schedule|_text|do_syscall_64|ksys_write|vfs_read|hrtimer_interrupt)$/ &&
     $1 !~ /^0+$/ { print $1 }' /proc/kallsyms | sort -u > hot
[ "$(wc -l < hot)" -ge 3 ] || fail "fewer than 3 hot symbols in /proc/kallsyms"
lt record -d 0.3 -o plain.dat 2> plain.err || { cat plain.err; fail "record failed"; }
lt record -d 0.3 --no-kallsyms -o stripped.dat 2> stripped.err ||
	{ cat stripped.err; fail "record --no-kallsyms failed"; }
while read -r a; do
	grep -aq "$a" plain.dat || fail "plain recording lacks $a"
	grep -aq "$a" stripped.dat && fail "record --no-kallsyms holds $a"
done < hot
lt stats -i stripped.dat > /dev/null || fail "stats of the --no-kallsyms recording"
echo "ok: record --no-kallsyms: none of $(wc -l < hot) hot symbols' addresses ($(tr '\n' ' ' < hot))"
