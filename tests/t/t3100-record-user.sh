#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record -u USER runs the traced command as USER, with its groups and
# the environment runuser gives it (HOME, USER, LOGNAME, SHELL from the
# passwd entry, PATH kept), and still traces it: the command's pid is
# in the trace. Under sudo (SUDO_UID/SUDO_GID) the command runs as the
# invoking user by default, with a note; -u root keeps root.
. "$(dirname "$0")/lib.sh"

need_tracefs
command -v useradd > /dev/null && command -v groupadd > /dev/null ||
	skip "needs useradd and groupadd (passwd package) to make a test user"
cd "$TMPDIR" || fail "no TMPDIR"

# A user of our own, with a supplementary group, removed at the end.
U=lt3100u G=lt3100g
userdel "$U" 2>/dev/null
groupdel "$G" 2>/dev/null
groupadd "$G" || fail "groupadd $G"
useradd -M -N -g nogroup -G "$G" -d /nonexistent-lt3100 -s /bin/sh "$U" ||
	{ groupdel "$G"; fail "useradd $U"; }
trap 'userdel "$U" 2>/dev/null; groupdel "$G" 2>/dev/null' EXIT
uid=$(id -u "$U") gid=$(id -g "$U") sgid=$(getent group "$G" | cut -d: -f3)

# The command reports who it is, then runs a while so that it shows up
# in the trace under its own pid.
cat > who.sh <<'SH'
echo "pid=$$ uid=$(id -u) gid=$(id -g) groups=$(id -G) euid=$(id -u)"
echo "leaked: $(ls -l /proc/$$/fd/ | grep -c -e /tracing/ -e lazytrace- -e '\.dat')"
echo "HOME=$HOME USER=$USER LOGNAME=$LOGNAME SHELL=$SHELL PATH=$PATH"
i=0
while [ $i -lt 30000 ]; do i=$((i + 1)); done
SH
chmod 755 "$TMPDIR" who.sh

PATH=/usr/bin:/bin:/usr/sbin:/sbin:/lt3100-kept lt record -u "$U" -o u.dat \
	-- sh "$TMPDIR/who.sh" > u.out 2> u.err || { cat u.err; fail "record -u $U failed"; }
cat u.out
grep -q "uid=$uid gid=$gid " u.out || fail "-u $U: not uid $uid gid $gid: $(cat u.out)"
grep -Eq "groups=.*\\b$sgid\\b" u.out || fail "-u $U: supplementary group $G ($sgid) missing"
grep -q "groups=.*\\b0\\b" u.out && fail "-u $U: still in root's group 0"
grep -q "HOME=/nonexistent-lt3100 USER=$U LOGNAME=$U SHELL=/bin/sh PATH=/usr/bin:/bin:/usr/sbin:/sbin:/lt3100-kept\$" u.out ||
	fail "-u $U: environment $(tail -n 1 u.out)"
grep -q "^leaked: 0$" u.out || fail "the command holds lazytrace's files: $(ls -l /proc/self/fd)"
grep -q "running the command as" u.err && fail "-u given, yet the sudo note: $(cat u.err)"
# Traced although it runs as another user: its pid switches in the trace.
pid=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' u.out)
lt report -i u.dat --pid "$pid" > pid.txt || fail "report --pid $pid found nothing"
grep -q "sched_switch: prev_comm=sh prev_pid=$pid " pid.txt ||
	fail "no sched_switch of the command (pid $pid) in the trace"
echo "ok: -u $U: uid $uid, groups, environment; pid $pid traced ($(wc -l < pid.txt) events)"

# -u takes a uid too; nobody has no groups of ours.
lt record -u 65534 -o n.dat -- sh -c 'id -u; id -G' > n.out 2> n.err ||
	{ cat n.err; fail "record -u 65534 failed"; }
[ "$(head -n 1 n.out)" = 65534 ] || fail "-u 65534 ran as $(head -n 1 n.out)"

# Under sudo: the invoking user by default, said in one line.
SUDO_UID=$uid SUDO_GID=$sgid lt record -o s.dat -- sh -c 'id -u; id -g' \
	> s.out 2> s.err || { cat s.err; fail "record under SUDO_UID failed"; }
[ "$(sed -n 1p s.out)" = "$uid" ] || fail "SUDO_UID=$uid: command ran as $(sed -n 1p s.out)"
[ "$(sed -n 2p s.out)" = "$sgid" ] || fail "SUDO_GID=$sgid: command's gid $(sed -n 2p s.out)"
[ "$(grep -c "running the command as $U (uid $uid, gid $sgid from SUDO_UID/SUDO_GID)" s.err)" = 1 ] ||
	fail "no one-line note of the sudo user: $(cat s.err)"
SUDO_UID=$uid SUDO_GID=$gid lt record -u root -o r.dat -- id -u > r.out 2> r.err ||
	{ cat r.err; fail "record -u root failed"; }
[ "$(cat r.out)" = 0 ] || fail "-u root under sudo ran as $(cat r.out)"

# Bad users: one line, exit 2, nothing recorded.
lt record -u lt3100-no-such-user -o x.dat -- true > x.out 2> x.err
st=$?
[ $st = 2 ] || fail "unknown user: exit $st"
grep -q "no such user 'lt3100-no-such-user'" x.err || fail "unknown user: $(cat x.err)"
[ -e x.dat ] && fail "unknown user: a trace was written"
lt record -u "$U" -o y.dat > y.out 2> y.err
[ $? = 2 ] || fail "-u without a command accepted"
echo "ok: -u UID, the sudo user by default, -u root, bad users"
