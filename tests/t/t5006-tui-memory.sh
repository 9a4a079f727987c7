#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The viewer keeps a summary, not the events: its peak RSS on a kernel
# text trace 10 times as long (bench/mk-long-text.py: the same tasks,
# the events repeated with shifted timestamps) stays within 10 % of the
# original's, and the longer trace's first screen shows while it is still
# being read, with its progress.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

[ -z "${LAZYTRACE_WRAP:-}" ] || skip "RSS is not meaningful under $LAZYTRACE_WRAP"
! ldd "$LAZYTRACE" 2> /dev/null | grep -q libasan ||
	skip "RSS is not meaningful under AddressSanitizer"

x1=$(kernel_text lazy612-msg-full.txt.xz)
python3 "$TOP/bench/mk-long-text.py" 10 < "$x1" > "$TMPDIR/x10.txt" ||
	fail "mk-long-text.py"

# peak FILE: the viewer's VmHWM in kB once its summary is complete.
# Notes in $TMPDIR/early whether a screen came before the end of reading.
peak() {
	rm -f "$TMPDIR/early"
	tui_start -i "$1"
	i=0
	while [ $i -lt $POLLS ]; do
		s=$(screen)
		echo "$s" | grep -q '^Hogs: ' && break
		echo "$s" | grep -Eq '^ lazytrace tui .* reading [0-9]+%' &&
			echo "$s" | grep -Eq '^cpu0 +>?[-.lef!]' &&
			echo "$s" | grep -Eq '^ *[0-9]+%  [0-9]+ events' &&
			touch "$TMPDIR/early"
		sleep 0.05
		i=$((i + 1))
	done
	wait_for '^Hogs: '
	pane=$(tm list-panes -t $SESSION -F '#{pane_pid}')
	vpid=$(pgrep -P "$pane" | head -1)
	awk '$1 == "VmHWM:" { print $2 }' /proc/"$vpid"/status > "$TMPDIR/hwm"
	keys q
	wait_exit 0 >&2
	tui_stop
	cat "$TMPDIR/hwm"
}

small=$(peak "$x1")
large=$(peak "$TMPDIR/x10.txt")
[ -f "$TMPDIR/early" ] ||
	fail "no timeline and progress before the 10x trace was read"
echo "peak RSS: 1x $small KB, 10x $large KB"
[ -n "$small" ] && [ -n "$large" ] || fail "no RSS read"
[ $((large * 10)) -le $((small * 11)) ] ||
	fail "peak RSS grew from $small KB to $large KB on a 10x longer trace"
exit 0
