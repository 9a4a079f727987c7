#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The libFuzzer harnesses (tests/fuzz/: text reader, trace.dat reader with
# compressed v7 seeds, analysis), each run in process for a few seconds
# from the seed corpora made from the recordings: no crash, leak, hang or
# failed check. make fuzz runs them longer. Needs clang (make fuzz-deps).
. "$(dirname "$0")/lib.sh"

CLANG=${CLANG:-clang}
command -v "$CLANG" > /dev/null || skip "needs clang: make fuzz-deps"
# The harnesses are ASan/UBSan builds themselves: once, in make check.
case $LAZYTRACE in */build-asan/*) skip "runs in make check, not make asan" ;; esac
SECS=${T7005_SECONDS:-12}
sh "$TOP/tests/fuzz/run.sh" "$SECS" text dat analysis > "$TMPDIR/fuzz.log" 2>&1
rc=$?
cat "$TMPDIR/fuzz.log"
[ $rc = 0 ] || fail "a harness found something (see build/fuzz/crashes/)"
# Each harness must really have run: its executions are in the stats.
n=$(grep -c '^stat::number_of_executed_units: [1-9]' "$TMPDIR/fuzz.log")
[ "$n" = 3 ] || fail "$n of 3 harnesses ran"
echo "fuzz harnesses ran clean"
