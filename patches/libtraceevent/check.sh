#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the libtraceevent series (patches/libtraceevent/1.8.4/) against
# upstream libtraceevent 1.8.4, as `make -C patches libtraceevent-check`:
#
#  1. gets libtraceevent_1.8.4.orig.tar.xz (the upstream release tarball,
#     identical to tag libtraceevent-1.8.4) from Debian's source index
#     through tools/apt-newer.sh, its SHA256 checked against the index;
#  2. unpacks it twice and applies the series to one copy with `git am`;
#     the same series is applied to the machine's own libtraceevent
#     release (1.7.1 on Debian 12, which trace-cmd 3.1.6 links) when the
#     registry has that tarball, and said loudly when it does not;
#  3. builds them (make) and runs libtraceevent's own unit tests (utest/,
#     CUnit) on the patched trees;
#  4. runs this machine's `trace-cmd report -l` on every recording under
#     tests/data/ (*.dat, any depth) with the system's libtraceevent, the
#     unpatched 1.8.4 and the patched builds (LD_LIBRARY_PATH), and compares
#     each event's flag field with the kernel's own text (NAME.lat.txt.xz)
#     with tests/tools/compare-report.py --trace-cmd.
#
# Passes when the unit tests pass and every patched build prints the
# kernel's flag field on 100 % of the events of every recording.
# Environment: BUILD (scratch, default patches/build), DATA (default
# tests/data), LTE_JOBS (make -j, default 2).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ver=1.8.4
debver=1:1.8.4-2
work=${BUILD:-$here/../build}/libtraceevent
data=${DATA:-$top/tests/data}
# One job: upstream's Makefile builds the shared and the static library
# in two sub-makes that both compile trace-seq.o; with -j2 the .so was
# once linked while the other rewrote it and came out without trace_seq_*
# (trace-cmd: "undefined symbol: trace_seq_init", exit 127).
jobs=${LTE_JOBS:-1}
compare=$top/tests/tools/compare-report.py
apt_newer=$top/tools/apt-newer.sh
start=$(date +%s)

log() { echo "[libtraceevent] $*"; }
# git with an identity of its own, for the commits git am makes
g() { git -c user.name=libtraceevent-check -c user.email=check@localhost "$@"; }
fail() { echo "libtraceevent-check: $*" >&2; exit 1; }

# Build dependencies: the CUnit headers for utest/, and trace-cmd to run.
missing=
for p in build-essential git xz-utils libcunit1-dev trace-cmd; do
	dpkg -s "$p" > /dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || fail "missing packages:$missing (apt-get install them as root)"
	log "installing$missing"
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing > /dev/null
fi

# 1. Upstream tarballs, from Debian's registry only. Only the orig tarball
# is used: the series is against upstream, not Debian's packaging.
# get_orig VERSION DEBIAN-VERSION SUITES: prints the tarball's path, or
# fails if the registry does not have it with the hash of its index.
get_orig() {
	o=libtraceevent_$1.orig.tar.xz
	# --print-uris leaves out files already in the current directory
	mkdir -p uris
	w=$(cd uris && "$apt_newer" --suites "$3" --source-only apt-get --print-uris source \
		"libtraceevent=$2" 2> "../apt-$1.err" |
		awk -v f="$o" '$2 == f { sub("^SHA256:", "", $4); print $4 }')
	[ -n "$w" ] || { echo "libtraceevent $2 is not in the $3 source index" > "apt-$1.err"; return 1; }
	if [ ! -f "$o" ] || [ "$(sha256sum < "$o" | cut -d' ' -f1)" != "$w" ]; then
		rm -f "$o"
		# apt-get fails if the .dsc or the Debian tarball cannot be
		# had, but keeps what it got; the hash decides.
		"$apt_newer" --suites "$3" --source-only apt-get source --download-only \
			"libtraceevent=$2" > "apt-$1.err" 2>&1 || true
		[ -f "$o" ] && [ "$(sha256sum < "$o" | cut -d' ' -f1)" = "$w" ] ||
			return 1
	fi
	echo "$work/$o"
}

# prepare NAME TARBALL [series]: unpacks into $work/NAME, a git tree, and
# applies the series with git am if asked; then builds the library.
prepare() {
	rm -rf "$1"
	mkdir "$1"
	tar -C "$1" --strip-components=1 -xf "$2"
	if [ "${3:-}" = series ]; then
		(
			cd "$1"
			git init -q
			git add -A
			g commit -q -m "$(basename "$2")"
			# shellcheck disable=SC2086 # file names without blanks
			g am -q $patches
		) || fail "the series does not apply with git am to $(basename "$2")"
		log "$1: applied $npatches patches with git am"
	fi
	make -C "$1" -j"$jobs" > "$1.build.log" 2>&1 ||
		{ tail -20 "$1.build.log" >&2; fail "$1: build failed ($work/$1.build.log)"; }
}

# utest NAME: libtraceevent's own unit tests (CUnit) in $work/NAME.
utest() {
	make -C "$1" test > "$1.utest-build.log" 2>&1 ||
		{ tail -20 "$1.utest-build.log" >&2; fail "$1: utest build failed"; }
	r=pass
	"$1"/utest/trace-utest > "$1.utest.log" 2>&1 || r=FAIL
	sum=$(grep -E '^ +(tests|asserts) ' "$1.utest.log" | tr -s ' ' |
		awk '{ printf "%s%s %s/%s passed", (NR > 1 ? ", " : ""), $1, $4, $2 }')
	log "$1: utest $r ($sum)"
	[ "$r" = pass ] || { grep -B2 -A2 -i 'fail' "$1.utest.log" >&2; fail "$1: utest failed ($work/$1.utest.log)"; }
	utests="$utests $1: $sum;"
}

mkdir -p "$work"
cd "$work"
patches=
npatches=0
for p in "$here/$ver"/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in
	*/0000-*) ;;	# the cover letter
	*) [ -f "$p" ] && patches="$patches $p" && npatches=$((npatches + 1)) ;;
	esac
done
[ -n "$patches" ] || fail "no patches in $here/$ver"
utests=

# 2, 3. Upstream 1.8.4 as released and with the series (required), and
# this machine's 1.7.1 (what trace-cmd here links) with the same series
# when the registry has its tarball.
orig=$(get_orig "$ver" "$debver" "sid trixie") ||
	{ cat "apt-$ver.err" >&2; fail "no libtraceevent_$ver.orig.tar.xz from Debian's registry"; }
log "$(basename "$orig"): SHA256 as in Debian's source index for $debver"
prepare pristine "$orig"
prepare patched "$orig" series
utest patched
sysver=$(dpkg-query -W -f '${Version}' libtraceevent1 2> /dev/null || echo '?')
old=${sysver#*:}
old=${old%-*}
suite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
if old_orig=$(get_orig "$old" "$sysver" "$suite"); then
	log "$(basename "$old_orig"): SHA256 as in Debian's source index for $sysver"
	prepare patched-old "$old_orig" series
	utest patched-old
else
	old_orig=
	log "NOT TESTED: the series on $old, Debian's registry does not give libtraceevent_$old.orig.tar.xz:"
	grep -E '^(E|Err):' "apt-$old.err" | head -2 | sed 's|//[^/]*/|//…/|' || true
fi

# The patched library must be the one trace-cmd loads.
tc=$(command -v trace-cmd)
LD_LIBRARY_PATH=$work/patched/lib ldd "$tc" | grep -q "$work/patched/lib/libtraceevent.so.1" ||
	fail "trace-cmd does not load $work/patched/lib/libtraceevent.so.1 with LD_LIBRARY_PATH"

# 4. Every recording, three libraries.
pct() { sed -n -e 's/.*(\([0-9.]*%\))$/\1/p' -e 's/^n\/a$/n\/a/p' | tail -n 1; }
run() {		# run LIBDIR DAT OUT: trace-cmd report -l with that library
	if [ -n "$1" ]; then
		LD_LIBRARY_PATH=$1 TRACEEVENT_PLUGIN_DIR=$1/../plugins \
			trace-cmd report -l "$2" > "$3" 2> /dev/null
	else
		env -u LD_LIBRARY_PATH trace-cmd report -l "$2" > "$3" 2> /dev/null
	fi
}
recs=$(find "$data" -name '*.dat' | sort)
[ -n "$recs" ] || fail "no recordings (*.dat) under $data"
bad=0
n=0
untexted=""
fourcol=""
printf '%-28s %7s %13s %12s %12s %12s\n' recording events "system $old" "$ver" "$ver+series" "$old+series"
for dat in $recs; do
	name=${dat#"$data"/}
	name=${name%.dat}
	lat=${dat%.dat}.lat.txt.xz
	# Recordings made for other checks (call-site stacks) carry no
	# kernel text; they are named in the result, not compared.
	if [ ! -f "$lat" ]; then
		untexted="$untexted $name"
		continue
	fi
	# Kernels before 5.13 (tests/data/old) print four flag columns, no
	# migrate-disable count; libtraceevent always prints five, which the
	# series does not change. Named, not compared.
	case $name in
	old/*)	fourcol="$fourcol $name"; continue ;;
	esac
	n=$((n + 1))
	xz -dc "$lat" > kernel.txt
	run "" "$dat" system.txt
	run "$work/pristine/lib" "$dat" pristine.txt
	run "$work/patched/lib" "$dat" patched.txt
	python3 "$compare" --trace-cmd kernel.txt system.txt > system.cmp || true
	python3 "$compare" --trace-cmd kernel.txt pristine.txt > pristine.cmp || true
	ok=1
	python3 "$compare" --trace-cmd kernel.txt patched.txt > patched.cmp || ok=0
	echo n/a > patched-old.cmp
	if [ -n "$old_orig" ]; then
		run "$work/patched-old/lib" "$dat" patched-old.txt
		python3 "$compare" --trace-cmd kernel.txt patched-old.txt \
			> patched-old.cmp || ok=0
	fi
	events=$(sed -n 's/^kernel.txt: \([0-9]*\) events.*/\1/p' patched.cmp)
	printf '%-28s %7s %13s %12s %12s %12s\n' "$name" "${events:-?}" \
		"$(pct < system.cmp)" "$(pct < pristine.cmp)" \
		"$(pct < patched.cmp)" "$(pct < patched-old.cmp || true)"
	if [ "$ok" = 0 ]; then
		bad=$((bad + 1))
		sed "s|^kernel.txt|$name|" patched.cmp >&2
		[ -z "$old_orig" ] || sed "s|^kernel.txt|$name|" patched-old.cmp >&2
	fi
done
rm -f kernel.txt system.txt pristine.txt patched.txt patched-old.txt
secs=$(($(date +%s) - start))
[ "$n" -gt 0 ] || fail "no recording under $data has its kernel text (*.lat.txt.xz)"
[ -z "$untexted" ] || log "not compared (no kernel text):$untexted"
[ -z "$fourcol" ] || log "not compared (four flag columns, a kernel before 5.13):$fourcol"
if [ "$bad" = 0 ]; then
	log "PASS: $n recordings, the kernel's flag field on 100% of events with the series;$utests ${secs} s"
else
	fail "FAIL: $bad of $n recordings below 100% with the patched library (${secs} s)"
fi
