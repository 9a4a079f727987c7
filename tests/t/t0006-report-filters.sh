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
