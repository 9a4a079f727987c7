# SPDX-License-Identifier: GPL-2.0
# Helpers for the shell tests. Each test is a plain sh script run by
# tests/run.sh with LAZYTRACE, DATA and TMPDIR set; it exits 0 (pass),
# 1 (fail) or 77 (skip, reason on the last line).

set -u
: "${LAZYTRACE:?}" "${DATA:?}" "${TMPDIR:=/tmp}"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TOOLS=$TOP/tests/tools
# tests' Python finds tests/tools/ltjson.py (import ltjson)
PYTHONPATH=$TOOLS${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH

lt() {
	${LAZYTRACE_WRAP:-} "$LAZYTRACE" "$@"
}

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "$*"
	exit 77
}

# expect_exit CODE CMD...: run CMD, check its exit code.
expect_exit() {
	want=$1
	shift
	"$@"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, want $want"
}

# Decompress a bundled kernel text trace into $TMPDIR, print its path.
kernel_text() {
	out=$TMPDIR/$(basename "$1" .xz)
	[ -f "$out" ] || xz -dc "$DATA/$1" > "$out" || fail "cannot decompress $1"
	echo "$out"
}

RECORDINGS="lazy612-hogs host618-hogs lazy612-msg-lazy lazy612-msg-full"

# Skip unless this test can record: root, and tracefs (mounted if need be)
# at $T.
need_tracefs() {
	T=/sys/kernel/tracing
	[ "$(id -u)" = 0 ] || skip "not root: recording and live tracing need root"
	[ -d $T/instances ] || mount -t tracefs nodev $T 2>/dev/null
	[ -d $T/instances ] || skip "tracefs unavailable at $T (mount -t tracefs nodev $T failed)"
}

# python_module: skip without python3-cffi; else LAZYTRACE_LIB is this
# build's library (build-asan's under make asan), with the sanitizers'
# runtimes preloaded when it was built with them (then returns 0), and
# nothing is written into the tree.
python_module() {
	PY=${PYTHON:-/usr/bin/python3}
	[ -x "$PY" ] || skip "no $PY (apt-get install python3)"
	"$PY" -c 'import cffi' 2> /dev/null ||
		skip "no python3-cffi for $PY (make deps, or apt-get install python3-cffi)"
	lib=${BUILD:-$TOP/build}/liblazytrace.so.0
	[ -f "$lib" ] || fail "$lib not built"
	export LAZYTRACE_LIB=$lib PYTHONDONTWRITEBYTECODE=1
	ldd "$lib" | grep -q libasan || return 1
	pre=
	for r in libasan.so libubsan.so; do
		ldd "$lib" | grep -q "${r%.so}" &&
			pre="$pre $(${CC:-cc} -print-file-name=$r)"
	done
	# the interpreter's own allocations are not ours to judge
	export LD_PRELOAD="${pre# }" ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
}

# cpu_loops: a CPU-bound loop on every CPU (eager requests that wait for
# the tick), their pids in $loops, killed when the test exits.
cpu_loops() {
	loops=""
	for c in $(seq 1 "$(getconf _NPROCESSORS_ONLN)"); do
		sh -c 'while :; do :; done' &
		loops="$loops $!"
	done
	trap 'kill $loops 2> /dev/null' EXIT
}

# wait_instance PID: wait until the lazytrace run PID has made its tracefs
# instance (5 s at most; then kill it and fail).
wait_instance() {
	i=0
	while [ ! -d $T/instances/lazytrace-$1 ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || { kill -9 "$1"; fail "record did not start"; }
		sleep 0.05
	done
}
