#!/bin/sh
# report's filters select exactly the events the kernel's text has for
# them, and buffer selection by name works.
. "$(dirname "$0")/lib.sh"

dat=$DATA/lazy612-hogs.dat
lt report -i "$dat" > "$TMPDIR/all" || fail "report"
total=$(wc -l < "$TMPDIR/all")
[ "$total" -gt 10000 ] || fail "only $total events"

# --cpu: the lines whose [cpu] column is 001.
lt report -i "$dat" --cpu 1 > "$TMPDIR/cpu1" || fail "--cpu"
n=$(grep -c '\[001\]' "$TMPDIR/all")
[ "$(wc -l < "$TMPDIR/cpu1")" = "$n" ] && [ "$n" -gt 1000 ] &&
	[ "$n" -lt "$total" ] || fail "--cpu 1 count"
[ "$(grep -vc '\[001\]' "$TMPDIR/cpu1")" = 0 ] || fail "--cpu 1 let another CPU through"

# --pid and --comm: the current task.
lt report -i "$dat" --pid 142,143 > "$TMPDIR/pids" || fail "--pid"
n=$(grep -Ec '^ +sh-14[23] ' "$TMPDIR/all")
[ "$(wc -l < "$TMPDIR/pids")" = "$n" ] && [ "$n" -gt 100 ] || fail "--pid count"
lt report -i "$dat" --comm 'lazy*' > "$TMPDIR/comm" || fail "--comm"
n=$(grep -Ec '^ +lazyload-[0-9]+ ' "$TMPDIR/all")
[ "$(wc -l < "$TMPDIR/comm")" = "$n" ] && [ "$n" -gt 100 ] || fail "--comm count"

# --from/--to: a window in the trace's own seconds, ends included.
lt report -i "$dat" --from 7.6 --to 7.7 > "$TMPDIR/win" || fail "--from/--to"
n=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; if (t >= 7.6 && t <= 7.7) c++; break } } END { print c }' "$TMPDIR/all")
[ "$(wc -l < "$TMPDIR/win")" = "$n" ] && [ "$n" -gt 100 ] || fail "window: $(wc -l < "$TMPDIR/win") vs $n"
# A time copied from the output (six decimals) stands for the whole
# microsecond it prints as: 7.613677 is the event at 7.613676650.
lt report "$dat" --from 7.613677 --to 7.613680 > "$TMPDIR/printed" || fail "printed window"
n=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; if (t >= "7.613677:" && t <= "7.613680:") c++; break } } END { print c }' "$TMPDIR/all")
[ "$(wc -l < "$TMPDIR/printed")" = "$n" ] && [ "$n" -ge 2 ] ||
	fail "printed window: $(wc -l < "$TMPDIR/printed") lines, want $n"
head -n 1 "$TMPDIR/printed" | grep -q ' 7\.613677: local_timer_entry' ||
	fail "--from 7.613677 lost its event: $(head -n 1 "$TMPDIR/printed")"
# -t: the same lines, the time in full nanoseconds (rounded, the time above).
lt report "$dat" -t > "$TMPDIR/full" || fail "-t"
grep -q ' 7\.613676650: local_timer_entry' "$TMPDIR/full" || fail "-t: no 7.613676650"
sed 's/ \([0-9]*\.[0-9]\{9\}\): / T: /' "$TMPDIR/full" > "$TMPDIR/full.masked"
sed 's/ \([0-9]*\.[0-9]\{6\}\): / T: /' "$TMPDIR/all" > "$TMPDIR/all.masked"
cmp -s "$TMPDIR/full.masked" "$TMPDIR/all.masked" || fail "-t changed more than the times"
# --comm takes globs, comma-separated, as in every command.
lt report "$dat" --comm 'lazy*,sh' > "$TMPDIR/comms" || fail "--comm globs"
n=$(grep -Ec '^ +(lazyload|sh)-[0-9]+ ' "$TMPDIR/all")
[ "$(wc -l < "$TMPDIR/comms")" = "$n" ] && [ "$n" -gt 200 ] || fail "--comm 'lazy*,sh' count"
# a bare file is the input, as trace-cmd takes it
lt report "$dat" | cmp -s - "$TMPDIR/all" || fail "report FILE differs from report -i FILE"
lt report -i "$dat" --from 7.6 --to 7.7 --cpu 0 --pid 0 > "$TMPDIR/combo" || fail "combined"
[ -s "$TMPDIR/combo" ] || fail "combined filters: nothing"
[ "$(grep -vc '<idle>-0 .*\[000\]' "$TMPDIR/combo")" = 0 ] || fail "combined filters"

# Buffers: the recording is in instance "lazy-hogs"; the top one is empty.
lt report -i "$dat" -B lazy-hogs > "$TMPDIR/buf" || fail "-B lazy-hogs"
cmp -s "$TMPDIR/buf" "$TMPDIR/all" || fail "-B lazy-hogs differs"
expect_exit 2 lt report -i "$dat" -B no-such-buffer 2> "$TMPDIR/err" > /dev/null
grep -q 'no-such-buffer' "$TMPDIR/err" || fail "no message for a missing buffer"
expect_exit 2 lt report -i "$dat" --cpu x 2> /dev/null
expect_exit 2 lt report -i "$dat" --from yesterday 2> /dev/null
