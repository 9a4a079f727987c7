#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tui takes the filters of every command that reads a trace, with their
# meaning: --cpu, --from and --to cut the trace (its first and last event
# are those `lazytrace table events` gives with the same options), --pid
# and --comm show only those tasks (the hogs `lazytrace hogs` keeps, the
# counts `lazytrace stats` gives them). --live refuses them. Nothing here
# is a number written down: each is what the other commands say.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

f=$DATA/lazy612-hogs.dat

# The first and last event's times of `table events ARGS`, as printed.
ev_first() {
	lt table events "$@" "$f" | awk 'NR == 2 { print $1; exit }'
}
ev_last() {
	lt table events "$@" "$f" | awk 'END { print $1 }'
}

# The hog pids of `hogs ARGS --csv`, in its order.
hog_pids() {
	lt hogs "$@" --csv "$f" | awk -F, 'NR > 1 { printf "%s ", $2 }'
}

# "lazy eager tick-upgrades folds" of pid $1 in `stats ARGS --csv`.
stats_counts() {
	p=$1
	shift
	lt stats "$@" --csv "$f" | awk -F, -v p="$p" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["pid"] == p { print $c["lazy"], $c["eager"],
				 $c["tick_upgrades"], $c["folds"] }'
}

# The same four of the task panel.
panel_counts() {
	screen | sed -n 's/.*lazy \([0-9]*\) eager \([0-9]*\) tick-upg \([0-9]*\) fold \([0-9]*\).*/\1 \2 \3 \4/p' |
		head -1
}

# The hog list's pids on the screen, in its order.
screen_hogs() {
	screen | sed -n 's/^[ >] *[0-9]\{1,2\} \{1,\}\([0-9]\{1,\}\) [^ ].*/\1/p' |
		tr '\n' ' '
}

# PageUp from the whole trace stops at its first event, PageDown at its
# last: the cursor's time, each.
first_last() {
	old=$(header)
	keys PPage
	wait_change "$old" '^ lazytrace tui '
	a=$(cursor_ts)
	old=$(header)
	keys NPage
	wait_change "$old" '^ lazytrace tui '
	echo "$a $(cursor_ts)"
}

# --live takes no filter: one line, exit 2, before tracefs is touched.
for o in "--cpu 0" "--pid 1" "--comm sh" "--from 1" "--to 2"; do
	out=$(lt tui --live $o 2>&1)
	[ $? = 2 ] || fail "tui --live $o: exit status, want 2"
	echo "$out" | head -1 | grep -q '^lazytrace tui: --live: ' ||
		fail "tui --live $o: $out"
done
# The filters' own mistakes are the library's, said as by stats.
for o in "--cpu 99" "--from 2 --to 1" "--pid x"; do
	want=$(lt stats $o "$f" 2>&1 | head -1 | sed 's/^lazytrace stats: //')
	got=$(lt tui $o "$f" </dev/null 2>&1 | head -1)
	[ "$got" = "lazytrace tui: $want" ] ||
		fail "tui $o says '$got', stats '$want'"
done

all=$(hog_pids)
set -- $all
[ $# -ge 2 ] || fail "hogs finds '$all'"
pid=$2
other=$1

# --pid: only that task's hog row, its counts, and no other to find.
tui_start --pid "$pid" "$f"
wait_for '^Hogs: '
want=$(hog_pids --pid "$pid")
[ "$want" = "$pid " ] || fail "hogs --pid $pid says '$want'"
screen | grep -q "^Hogs: 1 " || fail "--pid $pid: not one hog"
[ "$(screen_hogs)" = "$want" ] || fail "--pid $pid: hogs '$(screen_hogs)', want '$want'"
keys Tab
wait_for "^.*Task $pid "
want=$(stats_counts "$pid" --pid "$pid")
[ -n "$want" ] && [ "$(panel_counts)" = "$want" ] ||
	fail "--pid $pid: task panel '$(panel_counts)', stats '$want'"
# The events panel: the task's events only (the cursor CPU may have none).
screen | grep -E '\[[0-9]{3}\] ' | grep -v -- "-$pid " &&
	fail "--pid $pid: another task's event"
keys / "$other" Enter
wait_for "no task matches '$other'"
keys q
wait_exit 0

# --from, --to: the trace's first and last events are the window's.
set -- $(ev_first) $(ev_last)
a=$1 b=$2
from=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a + (b - a) / 4 }')
to=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a + 3 * (b - a) / 4 }')
want="$(ev_first --from "$from" --to "$to") $(ev_last --from "$from" --to "$to")"
[ "$want" != "$a $b" ] || fail "the window $from-$to cuts nothing"
tui_start --from "$from" --to "$to" "$f"
wait_for '^Hogs: '
got=$(first_last)
[ "$got" = "$want" ] || fail "--from $from --to $to: first, last '$got', want '$want'"
# the hogs and the first one's counts are the window's
want=$(hog_pids --from "$from" --to "$to")
[ "$(screen_hogs)" = "$want" ] ||
	fail "--from --to: hogs '$(screen_hogs)', want '$want'"
keys Tab
h=${want%% *}
wait_for "^.*Task $h "
want=$(stats_counts "$h" --from "$from" --to "$to")
[ -n "$want" ] && [ "$(panel_counts)" = "$want" ] ||
	fail "--from --to: task $h '$(panel_counts)', stats '$want'"
[ "$want" != "$(stats_counts "$h")" ] || fail "the window changes no count"
keys q
wait_exit 0

# --cpu 1: CPU 1's first and last events; CPU 0's row is empty.
want="$(ev_first --cpu 1) $(ev_last --cpu 1)"
[ "$want" != "$(ev_first --cpu 0) $(ev_last --cpu 0)" ] ||
	fail "CPUs 0 and 1 start and end alike"
tui_start --cpu 1 "$f"
wait_for '^Hogs: '
screen | grep -Eq '^cpu0 +>? *$' || fail "--cpu 1: cpu0 is not empty"
screen | grep -E '^cpu1 ' | grep -q '[-l]' || fail "--cpu 1: cpu1 is empty"
got=$(first_last)
[ "$got" = "$want" ] || fail "--cpu 1: first, last '$got', want '$want'"
keys q
wait_exit 0

# --comm: the glob selects by name, as in stats.
tui_start --comm 'trace-cmd' "$f"
wait_for '^Hogs: '
screen | grep -q '^Hogs: 0 ' || fail "--comm trace-cmd: a hog shown"
screen | grep -q 'no hogs among the tasks --pid or --comm select' ||
	fail "--comm trace-cmd: no note on the hidden hogs"
keys q
wait_exit 0
echo ok
