#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make fuzz FUZZ_SECONDS=N`: build the libFuzzer harnesses with clang
# (ASan + UBSan), make seed corpora from the recordings in tests/data, and
# run each harness for N seconds. Crash inputs land in build/fuzz/crashes/;
# keep each one in tests/fuzz/regress/ (t7002 replays them in make check).
#
#   sh tests/fuzz/run.sh SECONDS [HARNESS...]     (default: all)

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
harnesses=${*:-"text dat analysis"}
B=$top/build/fuzz
CLANG=${CLANG:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
command -v "$CLANG" >/dev/null ||
	{ echo "fuzz: needs clang (apt-get install clang)"; exit 2; }
CFLAGS="-O1 -g -std=gnu11 -D_GNU_SOURCE -I$top/libdecode/include \
	$(pkg-config --cflags libtracecmd libtraceevent libtracefs)"
LIBS="$(pkg-config --libs libtracecmd libtraceevent libtracefs) -lzstd -lz -llzma -lm -lpthread"

mkdir -p "$B/obj"
objs=
for c in "$top"/libdecode/*/*.c; do
	case $c in */samples/*) continue ;; esac
	o=$B/obj/$(basename "$c" .c).o
	if [ ! -f "$o" ] || [ "$c" -nt "$o" ] ||
	   [ -n "$(find "$top/libdecode" -name '*.h' -newer "$o")" ]; then
		# the private headers are for the library's own objects,
		# each included by its path (no -I for them)
		$CLANG $CFLAGS $SAN -fsanitize=fuzzer-no-link \
			-c -o "$o" "$c"
	fi
	objs="$objs $o"
done
for h in $harnesses; do
	$CLANG $CFLAGS $SAN -fsanitize=fuzzer -o "$B/fuzz-$h" \
		"$top/tests/fuzz/fuzz-$h.c" $objs $LIBS
done

# Seeds: the start (header and first lines) and a stretch of the middle of
# each kernel text; a few pages of each trace.dat, shrunk to the formats
# the analysis knows; the kept regression inputs.
seeds=$B/seeds
if [ ! -d "$seeds" ]; then
	mkdir -p "$seeds/text" "$seeds/dat" "$seeds/analysis"
	for x in "$top"/tests/data/*.txt.xz; do
		n=$(basename "$x" .txt.xz)
		xz -dc "$x" | head -n 60 > "$seeds/text/$n-head"
		xz -dc "$x" | sed -n '3000,3040p' > "$seeds/text/$n-mid"
	done
	# and a 5.10 i686 and armhf and a big-endian s390x file: other
	# long sizes, byte orders and format generations
	for d in "$top"/tests/data/*.dat "$top"/tests/data/old/*-allevents-*.dat \
		 "$top"/tests/data/stock/stock72-allevents-s390x.dat; do
		n=$(basename "$d" .dat)
		trace-cmd convert -i "$d" --file-version 6 -o "$B/v6.dat" \
			>/dev/null 2>&1
		python3 "$top/tests/fuzz/mkseed.py" "$B/v6.dat" "$seeds/dat/$n-1" 1
		python3 "$top/tests/fuzz/mkseed.py" "$B/v6.dat" "$seeds/dat/$n-3" 3
		# The same as version 7: sections and data compressed (zstd
		# by trace-cmd, zlib by mkv7.py: Debian's trace-cmd has no
		# zlib) or not.
		for c in zstd none; do
			trace-cmd convert -i "$seeds/dat/$n-1" --file-version 7 \
				--compression $c -o "$seeds/dat/$n-1-v7$c" \
				>/dev/null 2>&1
		done
		python3 "$top/tests/fuzz/mkv7.py" "$seeds/dat/$n-1" \
			"$seeds/dat/$n-1-v7zlib" zlib
	done
	rm -f "$B/v6.dat"
	head -c 4096 /dev/urandom > "$seeds/analysis/random"
fi

status=0
for h in $harnesses; do
	corpus=$B/corpus/$h
	crashes=$B/crashes/$h
	mkdir -p "$corpus" "$crashes"
	regress=$top/tests/fuzz/regress/$h
	echo "fuzz-$h: $secs s"
	# what this run finds; older inputs stay until someone keeps them
	touch "$B/started-$h"
	dict=$top/tests/fuzz/$h.dict
	# An allocation over 2 GiB is a finding: a claimed size trusted. A
	# small quarantine keeps the RSS small. FUZZ_FORK=N: N child
	# processes that libFuzzer restarts, for runs of an hour: Debian's
	# libtracecmd 3.1.6 leaves some CPU data pages of a closed file
	# mapped (about one per four inputs), and one process reaches
	# vm.max_map_count (65530) in a few minutes.
	ASAN_OPTIONS=allocator_may_return_null=1:quarantine_size_mb=16 \
	LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0 \
	"$B/fuzz-$h" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 \
		${FUZZ_FORK:+-fork=$FUZZ_FORK} \
		$( [ -f "$dict" ] && echo "-dict=$dict" ) \
		-malloc_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$corpus" "$seeds/$h" \
		$( [ -d "$regress" ] && echo "$regress" ) \
		> "$B/fuzz-$h.log" 2>&1 || status=1
	grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+.*DONE' \
		"$B/fuzz-$h.log" | tail -3
	found=$(find "$crashes" -type f -newer "$B/started-$h" | wc -l)
	if [ "$found" -gt 0 ]; then
		echo "fuzz-$h: FOUND $found input(s) in $crashes (log: $B/fuzz-$h.log)"
		status=1
	fi
done
exit $status
