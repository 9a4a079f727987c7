#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record keeps its per-CPU spool files in $TMPDIR, never next to the
# output: an open unlinked file on a 9p share hung a guest. While the
# trace runs, the output's directory stays empty and the spool files
# open in the recorder are (deleted) files of $TMPDIR.
. "$(dirname "$0")/lib.sh"

need_tracefs
cd "$TMPDIR" || fail "no TMPDIR"
mkdir out spool || fail "mkdir"
TMPDIR=$TMPDIR/spool ${LAZYTRACE_WRAP:-} "$LAZYTRACE" record -d 3 \
	-o out/rec.dat 2> rec.err &
rec=$!
sleep 1.5
ls -A out > during.txt
ls -l /proc/$rec/fd > fds.txt 2>/dev/null
wait $rec || { cat rec.err; fail "record exited $?"; }
[ -s during.txt ] && fail "files next to the output while recording: $(cat during.txt)"
grep -q "$TMPDIR/spool/lazytrace-cpu0\..* (deleted)" fds.txt ||
	{ cat fds.txt; fail "no spool file of \$TMPDIR open in the recorder"; }
[ -z "$(ls -A spool)" ] || fail "spool files left in \$TMPDIR: $(ls -A spool)"
[ "$(ls -A out)" = rec.dat ] || fail "output directory holds: $(ls -A out)"
lt stats -i out/rec.dat --json > st.json || fail "stats of the recording"
exit 0
