#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Files that hold kernel addresses are the invoking user's alone: the
# trace.dat of record, the intervals of live --save and the Perfetto
# export are 0600 whatever the umask, owned by the sudo user under sudo,
# and a link planted where they go is replaced, never followed.
# --world-readable (and export --no-addresses) follow the umask.
. "$(dirname "$0")/lib.sh"

need_tracefs
cd "$TMPDIR" || fail "no TMPDIR"

mode() { stat -c %a "$1"; }
owner() { stat -c %u:%g "$1"; }

umask 022
lt record -d 0.3 -o r.dat 2> r.err || { cat r.err; fail "record failed"; }
[ "$(mode r.dat)" = 600 ] || fail "record under umask 022: mode $(mode r.dat)"
[ "$(owner r.dat)" = 0:0 ] || fail "record: owner $(owner r.dat)"
ls -A | grep -q '^r\.dat\.' && fail "record left a temporary file: $(ls -A)"

lt record -d 0.3 --world-readable -o w.dat 2> w.err || { cat w.err; fail "record --world-readable failed"; }
[ "$(mode w.dat)" = 644 ] || fail "--world-readable under umask 022: mode $(mode w.dat)"
(umask 027 && ${LAZYTRACE_WRAP:-} "$LAZYTRACE" record -d 0.3 --world-readable -o w2.dat 2> w2.err) ||
	{ cat w2.err; fail "record --world-readable (umask 027) failed"; }
[ "$(mode w2.dat)" = 640 ] || fail "--world-readable under umask 027: mode $(mode w2.dat)"

# Under sudo: the invoking user's file (65534:65534 is nobody:nogroup).
SUDO_UID=65534 SUDO_GID=65534 lt record -d 0.3 -o s.dat 2> s.err ||
	{ cat s.err; fail "record under SUDO_UID failed"; }
[ "$(owner s.dat)" = 65534:65534 ] || fail "SUDO_UID/SUDO_GID: owner $(owner s.dat)"
[ "$(mode s.dat)" = 600 ] || fail "SUDO_UID: mode $(mode s.dat)"

# Links at the output and at the old fixed temporary name: never followed.
echo precious > victim
ln -s victim l.dat
ln -s victim l.dat.tmp
lt record -d 0.3 -o l.dat 2> l.err || { cat l.err; fail "record over a link failed"; }
[ "$(cat victim)" = precious ] || fail "record wrote through a link"
[ -L l.dat ] && fail "l.dat is still a link"
[ -f l.dat ] && [ "$(mode l.dat)" = 600 ] || fail "l.dat: not a 0600 file"
lt stats -i l.dat > /dev/null || fail "l.dat does not read"
echo "ok: record: 0600 under umask 022, --world-readable 644/640, SUDO_UID owner, links replaced"

# live --save: every interval and the kallsyms written once beside them
# 0600, the sudo user's, links replaced.
mkdir saved
ln -s ../victim saved/interval-1.dat
echo precious > victim2
ln -s ../victim2 saved/kallsyms
SUDO_UID=65534 SUDO_GID=65534 lt live -d 1.5 --interval 500 --json --save saved \
	> live.json 2> live.err || { cat live.err; fail "live --save failed"; }
[ "$(cat victim)" = precious ] && [ "$(cat victim2)" = precious ] ||
	fail "live --save wrote through a link"
[ -f saved/kallsyms ] || fail "live --save wrote no saved/kallsyms"
n=0
for f in saved/*; do
	case $f in saved/interval-[0-9]*.dat|saved/kallsyms) ;; *) fail "live --save left $f" ;; esac
	[ -L "$f" ] && fail "$f is still a link"
	[ "$(mode "$f")" = 600 ] || fail "$f: mode $(mode "$f")"
	[ "$(owner "$f")" = 65534:65534 ] || fail "$f: owner $(owner "$f")"
	n=$((n + 1))
done
[ $n -ge 3 ] || fail "only $((n - 1)) intervals saved"
lt stats -i saved/interval-1.dat > /dev/null || fail "interval-1.dat does not read"
mkdir saved2
lt live -d 0.6 --interval 300 --json --save saved2 --world-readable > /dev/null 2> l2.err ||
	{ cat l2.err; fail "live --save --world-readable failed"; }
for f in saved2/*; do
	[ "$(mode "$f")" = 644 ] || fail "--world-readable: $f mode $(mode "$f")"
done
echo "ok: live --save: $n intervals 0600 owned by SUDO_UID, --world-readable 644, links replaced"

# export: private by default, shareable with --no-addresses.
lt export --perfetto e.json -i r.dat || fail "export failed"
[ "$(mode e.json)" = 600 ] || fail "export: mode $(mode e.json)"
lt export --perfetto e2.json --no-addresses -i r.dat || fail "export --no-addresses failed"
[ "$(mode e2.json)" = 644 ] || fail "export --no-addresses under umask 022: mode $(mode e2.json)"
echo "ok: export 0600, --no-addresses 644"
