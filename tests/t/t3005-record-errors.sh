#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record and live fail cleanly, with exit 2 and a message, where nothing can
# be recorded: not root, an unwritable output, a CPU the machine lacks, a
# command that cannot run. No instance is left behind by any of them.
. "$(dirname "$0")/lib.sh"

need_tracefs

cd "$TMPDIR" || fail "no TMPDIR"

# expect_fail NAME PATTERN ARGS...: exit 2, PATTERN in the message, no
# instance of that run left.
expect_fail() {
	name=$1 pat=$2
	shift 2
	${LAZYTRACE_WRAP:-} "$LAZYTRACE" "$@" > "$name.out" 2> "$name.err" &
	pid=$!
	wait $pid
	st=$?
	[ $st = 2 ] || { cat "$name.err"; fail "$name: exited $st, want 2"; }
	grep -q "$pat" "$name.err" || { cat "$name.err"; fail "$name: no '$pat' in the message"; }
	[ -d $T/instances/lazytrace-$pid ] && fail "$name: instance lazytrace-$pid left"
	return 0
}

expect_fail outdir "cannot write next to" record -d 0.2 -o "$TMPDIR/no/such/dir/x.dat"
expect_fail cpu "no CPU 4096 on this machine" record -d 0.2 --cpu 4096 -o cpu.dat
[ -e cpu.dat ] && fail "cpu: an output was written"
expect_fail exec "cannot run" record -d 2 -o exec.dat -- ./no-such-command
[ -e exec.dat ] && fail "exec: an output was written"
expect_fail livecpu "no CPU 4096" live -d 0.2 --cpu 4096
expect_fail usage "bad duration" record -d nonsense

# Not root: setpriv (util-linux) drops to nobody, if nobody can run us.
if command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups "$LAZYTRACE" --version >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LAZYTRACE" record -d 0.2 \
		-o /dev/null > nr.out 2> nr.err
	st=$?
	[ $st = 2 ] || fail "not root: exited $st, want 2"
	grep -q "Permission denied (needs search access: .* or run as root)" nr.err || fail "not root: $(cat nr.err)"
else
	echo "note: cannot run lazytrace as nobody here; not-root case not tested"
fi
echo ok
