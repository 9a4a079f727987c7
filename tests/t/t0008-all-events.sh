#!/bin/sh
# Every event of every kind, as the kernel printed it: all-events
# recordings (tests/data/allevents, tests/data/stock, and our patched
# 6.12 kernel's from make -C patches vm-test in tests/data/vm; how each
# was made in the READMEs there) through `report`, default and latency format,
# against the kernel's own text of the same buffer. Each recording must
# reach its floor of identical lines (hashed %p values set aside); what
# still differs is tabled per event type in make check's output.
. "$(dirname "$0")/lib.sh"

# name, floor in %: the issue's goal is 99.9 everywhere. What still
# differs: writeback_single_inode's age (jiffies, not in the trace) on
# host618, 6 lines; the head of an eprobe, "(sched.sched_waking)", on
# stock72-probes-x86, 179 lines: the kernel prints the event the probe
# is attached to from its own definition, and the file holds it nowhere
# (see t0121); t0121 checks everything else there. old/bullseye510-allevents-i686 (Debian
# bullseye's 5.10, i686, trace.dat v6 of trace-cmd 2.9.1 with an empty
# TRACECLOCK option) is identical, with the syscall arguments in bare hex
# as kernels before 6.18 print them (sys_dup2(oldfd: b)) and a 32-bit
# long's %ld negative (sys_exit: NR 114 = -10). old/bullseye510-allevents-armhf
# (the same kernel for 32-bit ARM, armmp, one CPU) is identical too.
set -- allevents/host618-allevents 99.99 \
	vm/lazy612vm-allevents 99.99 \
	stock/stock72-allevents-x86 99.99 \
	stock/stock72-allevents-arm64 99.99 \
	stock/stock72-probes-x86 76.5 \
	stock/stock72-allevents-s390x 99.99 \
	old/bullseye510-allevents-i686 99.99 \
	old/bullseye510-allevents-armhf 99.99
tables=${LT_TABLES:-$TMPDIR}
while [ $# -ge 2 ]; do
	n=$1 floor=$2
	shift 2
	b=$(basename "$n")
	xz -dc "$DATA/$n.txt.xz" > "$TMPDIR/$b.txt" || fail "xz $n"
	xz -dc "$DATA/$n.lat.txt.xz" > "$TMPDIR/$b.lat.txt" || fail "xz $n.lat"
	lt report -i "$DATA/$n.dat" > "$TMPDIR/$b.out" || fail "report $n"
	lt report -l -i "$DATA/$n.dat" > "$TMPDIR/$b.lat.out" || fail "report -l $n"
	python3 "$TOOLS/compare-report.py" --min "$floor" \
		--table "$tables/t0008-$b.table" \
		"$TMPDIR/$b.txt" "$TMPDIR/$b.out" ||
		fail "$n: default format below $floor %"
	python3 "$TOOLS/compare-report.py" --latency --min "$floor" \
		--table "$tables/t0008-$b.table" \
		"$TMPDIR/$b.lat.txt" "$TMPDIR/$b.lat.out" ||
		fail "$n: latency format below $floor %"
	# The text reader gives the kernel's lines back unchanged, 5.10's
	# too: four flag columns as its events show them, and the blank line
	# a format ending in \n leaves (vm_unmapped_area).
	lt report -i "$TMPDIR/$b.txt" > "$TMPDIR/$b.rt" || fail "report on text $n"
	grep -v '^#' "$TMPDIR/$b.txt" | cmp - "$TMPDIR/$b.rt" ||
		fail "$n: text round trip differs"
done
# Not vacuous: the constructs this is about are in the kernel's text.
k=$TMPDIR/host618-allevents.txt
grep -q 'call_site=[a-z_.0-9]*+0x[0-9a-f]*/0x[0-9a-f]* ' "$k" || fail "no %pS"
grep -q ': sys_[a-z0-9_]*(.*: ' "$k" || fail "no syscall entry"
grep -q ': sys_[a-z0-9_]* -> 0x' "$k" || fail "no syscall exit"
grep -q 'ipi_raise: target_mask=00000000,00000002' \
	"$TMPDIR/stock72-allevents-arm64.txt" || fail "no arm64 bitmask"
# big-endian (s390x): kernel strings by address (the printk table) and
# bitmasks of 64-bit longs, both in the file's byte order
k=$TMPDIR/stock72-allevents-s390x
grep -q 'rcu_utilization: Start scheduler-tick$' "$k.out" || fail "s390x: no kernel string"
grep -q 'ma_read: mtree_load	Node' "$k.out" || fail "s390x: maple tree fn not a string"
grep -q 'ipi_send_cpumask: cpumask=00000000,0000000[0-9a-f] ' "$k.txt" ||
	fail "s390x: no bitmask in the kernel's text"
grep -o 'ipi_send_cpumask: cpumask=[0-9a-f,]*' "$k.txt" > "$k.masks"
grep -o 'ipi_send_cpumask: cpumask=[0-9a-f,]*' "$k.out" | cmp - "$k.masks" ||
	fail "s390x: bitmasks differ"
# arm64's pfn_to_page() (sizeof, memstart_addr) and x86's vmemmap_base:
# evaluated, the page pointer withheld as the kernel's placeholder
grep -q 'mm_page_alloc: page=(____ptrval____) pfn=0x[0-9a-f]* order=[0-9]* migratetype=[0-9]* gfp_flags=GFP_' \
	"$TMPDIR/stock72-allevents-arm64.out" || fail "arm64 mm_page_alloc not evaluated"
grep -q 'mm_page_free: page=(____ptrval____) pfn=' \
	"$TMPDIR/stock72-allevents-x86.out" || fail "x86 mm_page_free page not withheld"
! grep -l 'FAILED TO PARSE' "$TMPDIR"/*.out || fail "an event left unparsed"
