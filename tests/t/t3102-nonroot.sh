#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record and live as users other than root: refused with the file and the
# access it needs where tracefs does not let them in; where it lets a
# group make instances but not write their files (gid=), refused at the
# first file, with the half-made instance removed; where it is theirs
# (mount option uid=), they record and trace live, without what only
# root may have (the probe; symbols where /proc/kallsyms hides them).
#
# tracefs has one superblock: its uid= and gid= are changed for the
# test (remount) and put back, with the modes of its top directory and
# of instances/. Tests that run as root meanwhile are not affected.
. "$(dirname "$0")/lib.sh"

need_tracefs
command -v setpriv > /dev/null || skip "needs setpriv (util-linux) to run as another user"
command -v useradd > /dev/null || skip "needs useradd (passwd) to make a test user"
cd "$TMPDIR" || fail "no TMPDIR"
chmod 711 "$TMPDIR"

opts=$(awk -v m=$T '$2 == m { print $4 }' /proc/mounts)
ouid=$(echo "$opts" | sed -n 's/.*uid=\([0-9]*\).*/\1/p')
ogid=$(echo "$opts" | sed -n 's/.*gid=\([0-9]*\).*/\1/p')
tmode=$(stat -c %a $T) imode=$(stat -c %a $T/instances)
U=lt3102u G=lt3102g
userdel "$U" 2>/dev/null
groupdel "$G" 2>/dev/null
groupadd "$G" && useradd -M -N -g "$G" -s /bin/sh "$U" || fail "cannot make user $U"
uid=$(id -u $U) gid=$(id -g $U)
restore() {
	mount -o remount,uid=${ouid:-0},gid=${ogid:-0} $T
	chmod "$tmode" $T
	chmod "$imode" $T/instances
	userdel "$U" 2>/dev/null
	groupdel "$G" 2>/dev/null
}
trap restore EXIT
mkdir u && chown "$U:$G" u

# as_user UID GID NAME ARGS...: run lazytrace as UID:GID in the
# background (its pid names its instance), status in $st.
as_user() {
	u=$1 g=$2 name=$3
	shift 3
	TMPDIR=$TMPDIR/u setpriv --reuid="$u" --regid="$g" --clear-groups \
		"$LAZYTRACE" "$@" > "u/$name.out" 2> "u/$name.err" &
	pid=$!
	wait $pid
	st=$?
	[ -d $T/instances/lazytrace-$pid ] && fail "$name: instance lazytrace-$pid left behind"
	return 0
}

# 1. No access at all (tracefs as mounted by default: root's, 0700).
for cmd in record live; do
	if [ $cmd = record ]; then
		as_user 65534 65534 no-record record -d 0.3 -o "$TMPDIR/u/no.dat"
	else
		as_user 65534 65534 no-live live -d 0.3
	fi
	[ $st = 2 ] || fail "$cmd as nobody: exit $st, want 2"
	grep -qx "lazytrace $cmd: $T: Permission denied (needs search access: mount tracefs with uid=USER (its files are writable by their owner only) or run as root)" \
		"u/no-$cmd.err" || fail "$cmd as nobody: $(cat u/no-$cmd.err)"
done
echo "ok: nobody: $(cat u/no-record.err)"

# 2. A group that may make instances (gid=, instances/ group-writable)
# but not write their files, which tracefs makes 0640.
mount -o remount,gid="$gid" $T || fail "remount gid=$gid"
chmod 0750 $T && chmod 0770 $T/instances || fail "chmod of tracefs"
as_user "$uid" "$gid" grp record -d 0.3 -o "$TMPDIR/u/grp.dat"
[ $st = 2 ] || fail "group only: exit $st, want 2: $(cat u/grp.err)"
grep -Eq "^lazytrace record: $T/instances/lazytrace-$pid/events/sched/sched_switch/enable: Permission denied \\(needs write access: mount tracefs with uid=USER" \
	u/grp.err || fail "group only: $(cat u/grp.err)"
[ -e u/grp.dat ] && fail "group only: a trace was written"
echo "ok: group only: $(tail -n 1 u/grp.err), instance removed"
chmod "$tmode" $T && chmod "$imode" $T/instances
mount -o remount,gid=${ogid:-0} $T || fail "remount gid back"

# 3. tracefs given to the user (uid=): record and live work.
mount -o remount,uid="$uid" $T || fail "remount uid=$uid"
as_user "$uid" "$gid" rec record -d 1 -o "$TMPDIR/u/rec.dat"
[ $st = 0 ] || { cat u/rec.err; fail "record as the owner of tracefs: exit $st"; }
grep -q "no sched_set_need_resched probe: adding a probe to dynamic_events needs root" u/rec.err ||
	fail "the probe was not refused as root's: $(cat u/rec.err)"
[ "$(stat -c '%u:%g %a' u/rec.dat)" = "$uid:$gid 600" ] ||
	fail "rec.dat: $(stat -c '%u:%g %a' u/rec.dat)"
as_user "$uid" "$gid" live live -d 1.2 --interval 500 --json
[ $st = 0 ] || { cat u/live.err; fail "live as the owner of tracefs: exit $st"; }
mount -o remount,uid=${ouid:-0} $T || fail "remount uid back"
lt stats --json -i u/rec.dat > rec.json || fail "stats of the user's recording"
ev=$(sed -n 's/.*"events":\([0-9]*\).*/\1/p' rec.json | head -n 1)
sw=$(lt report -i u/rec.dat | grep -c 'sched_switch:')
[ "${ev:-0}" -gt 0 ] && [ "$sw" -gt 0 ] || fail "the user's recording: $ev events, $sw switches"
n=$(grep -c '^{"version":3,"interval":{"interval":' u/live.out)
[ "$n" -ge 2 ] || fail "live as the user: $n intervals"
# Symbols: where /proc/kallsyms shows the user zeros, none in the file.
addr=$(awk '$3 == "schedule" { print $1; exit }' /proc/kallsyms)
if [ "$(setpriv --reuid="$uid" --regid="$gid" --clear-groups awk '$3 == "schedule" { print $1; exit }' /proc/kallsyms)" = 0000000000000000 ]; then
	grep -q "/proc/kallsyms shows this user no addresses" u/rec.err || fail "no note of hidden symbols"
	grep -aq "$addr" u/rec.dat && fail "the user's recording holds kallsyms"
	grep -aq "^0000000000000000 [tT] schedule" u/rec.dat && fail "the user's recording holds a table of zeros"
	echo "ok: kallsyms hidden from the user, none in the trace"
fi
echo "ok: owner of tracefs: record ($ev events, $sw switches), live ($n intervals)"
