#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the libtraceevent series (patches/libtraceevent/1.8.4/) against
# upstream libtraceevent 1.8.4, as `make -C patches libtraceevent-check`:
#
#  1. gets libtraceevent_1.8.4.orig.tar.xz (the upstream release tarball,
#     identical to tag libtraceevent-1.8.4) from Debian's source index
#     through tools/apt-newer.sh and checks its SHA256 against the index;
#  2. unpacks it twice, applies the series to one copy with `git am`;
#  3. builds both (make) and runs libtraceevent's own unit tests (utest/,
#     CUnit) on the patched one;
#  4. runs this machine's `trace-cmd report -l` on every recording under
#     tests/data/ (*.dat, any depth) with the system's libtraceevent, the
#     unpatched 1.8.4 and the patched 1.8.4 (LD_LIBRARY_PATH), and compares
#     each event's flag field with the kernel's own text (NAME.lat.txt.xz)
#     with tests/tools/compare-report.py --trace-cmd.
#
# Passes when the unit tests pass and the patched library prints the
# kernel's flag field on 100 % of the events of every recording.
# Environment: BUILD (scratch, default patches/build), DATA (default
# tests/data), LTE_JOBS (make -j, default 2).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ver=1.8.4
debver=1:1.8.4-2
orig=libtraceevent_$ver.orig.tar.xz
work=${BUILD:-$here/../build}/libtraceevent
data=${DATA:-$top/tests/data}
jobs=${LTE_JOBS:-2}
compare=$top/tests/tools/compare-report.py
apt_newer=$top/tools/apt-newer.sh
git_id="-c user.name=libtraceevent-check -c user.email=check@localhost"
start=$(date +%s)

log() { echo "[libtraceevent] $*"; }
fail() { echo "libtraceevent-check: $*" >&2; exit 1; }

# Build dependencies: the CUnit headers for utest/, and trace-cmd to run.
missing=
for p in build-essential git xz-utils libcunit1-dev trace-cmd; do
	dpkg -s "$p" > /dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || fail "missing packages:$missing (apt-get install them as root)"
	log "installing$missing"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing > /dev/null
fi

# 1. The upstream tarball, from Debian's registry only. Only the orig
# tarball is used: the series is against upstream, not Debian's packaging.
mkdir -p "$work"
cd "$work"
want=$("$apt_newer" apt-get --print-uris source "libtraceevent=$debver" 2> apt.err |
	awk -v f="$orig" '$2 == f { sub("^SHA256:", "", $4); print $4 }')
[ -n "$want" ] || { cat apt.err >&2; fail "libtraceevent $debver is not in Debian's source index"; }
have() { [ -f "$orig" ] && [ "$(sha256sum < "$orig" | cut -d' ' -f1)" = "$want" ]; }
if ! have; then
	rm -f "$orig"
	# apt-get fails if the .dsc or the Debian tarball cannot be had, but
	# keeps what it got; the hash decides.
	"$apt_newer" apt-get source --download-only "libtraceevent=$debver" \
		> apt.log 2>&1 || true
	have || { cat apt.log >&2; fail "no $orig with SHA256 $want from Debian's registry"; }
fi
log "$orig: SHA256 $want, as in Debian's source index for $debver"

# 2. Pristine and patched trees.
rm -rf pristine patched
mkdir pristine
tar -C pristine --strip-components=1 -xf "$orig"
cp -a pristine patched
patches=$(ls "$here/$ver"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-')
[ -n "$patches" ] || fail "no patches in $here/$ver"
(
	cd patched
	git init -q
	git add -A
	git $git_id commit -q -m "libtraceevent $ver ($orig)"
	# shellcheck disable=SC2086
	git $git_id am -q $patches
) || fail "the series does not apply with git am to $orig"
log "applied $(echo "$patches" | wc -l) patches with git am"

# 3. Build both, unit tests on the patched one.
for t in pristine patched; do
	make -C "$t" -j"$jobs" > "$t.build.log" 2>&1 ||
		{ tail -20 "$t.build.log" >&2; fail "$t build failed ($work/$t.build.log)"; }
done
make -C patched test > patched.utest-build.log 2>&1 ||
	{ tail -20 patched.utest-build.log >&2; fail "utest build failed"; }
if patched/utest/trace-utest > utest.log 2>&1; then
	utest=pass
else
	utest=FAIL
fi
summary=$(grep -E '^ +(tests|asserts) ' utest.log | tr -s ' ' | sed 's/^ //' | paste -sd ';' -)
log "utest: $utest ($summary)"
[ "$utest" = pass ] || { grep -B2 -A2 -i 'fail' utest.log >&2; fail "utest failed ($work/utest.log)"; }

# The patched library must be the one trace-cmd loads.
tc=$(command -v trace-cmd)
LD_LIBRARY_PATH=$work/patched/lib ldd "$tc" | grep -q "$work/patched/lib/libtraceevent.so.1" ||
	fail "trace-cmd does not load $work/patched/lib/libtraceevent.so.1 with LD_LIBRARY_PATH"
sysver=$(dpkg-query -W -f '${Version}' libtraceevent1 2> /dev/null || echo '?')

# 4. Every recording, three libraries.
pct() { sed -n 's/.*(\([0-9.]*%\))$/\1/p' | tail -n 1; }
run() {		# run LIBDIR DAT OUT: trace-cmd report -l with that library
	if [ -n "$1" ]; then
		LD_LIBRARY_PATH=$1 TRACEEVENT_PLUGIN_DIR=$1/../plugins \
			trace-cmd report -l "$2" > "$3" 2> /dev/null
	else
		trace-cmd report -l "$2" > "$3" 2> /dev/null
	fi
}
recs=$(find "$data" -name '*.dat' | sort)
[ -n "$recs" ] || fail "no recordings (*.dat) under $data"
bad=0
n=0
printf '%-36s %8s %12s %12s %12s\n' recording events "system $sysver" "$ver" "$ver+series"
for dat in $recs; do
	name=${dat#"$data"/}
	name=${name%.dat}
	lat=${dat%.dat}.lat.txt.xz
	n=$((n + 1))
	if [ ! -f "$lat" ]; then
		echo "$name: no kernel text ${lat#"$top"/} to compare with" >&2
		bad=$((bad + 1))
		continue
	fi
	xz -dc "$lat" > kernel.txt
	run "" "$dat" system.txt
	run "$work/pristine/lib" "$dat" pristine.txt
	run "$work/patched/lib" "$dat" patched.txt
	python3 "$compare" --trace-cmd kernel.txt system.txt > system.cmp || true
	python3 "$compare" --trace-cmd kernel.txt pristine.txt > pristine.cmp || true
	if python3 "$compare" --trace-cmd kernel.txt patched.txt > patched.cmp; then
		ok=1
	else
		ok=0
		bad=$((bad + 1))
	fi
	events=$(sed -n 's/^kernel.txt: \([0-9]*\) events.*/\1/p' patched.cmp)
	printf '%-36s %8s %12s %12s %12s\n' "$name" "${events:-?}" \
		"$(pct < system.cmp)" "$(pct < pristine.cmp)" "$(pct < patched.cmp)"
	[ "$ok" = 1 ] || sed "s|^kernel.txt|$name|" patched.cmp >&2
done
rm -f kernel.txt system.txt pristine.txt patched.txt
secs=$(($(date +%s) - start))
if [ "$bad" = 0 ]; then
	log "PASS: $n recordings, the kernel's flag field on 100% of events; utest $summary; ${secs} s"
else
	fail "FAIL: $bad of $n recordings below 100% with the patched library (${secs} s)"
fi
