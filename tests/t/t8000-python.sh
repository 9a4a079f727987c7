#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Python module (python/): its pytest suite with Debian's python3
# against this build's liblazytrace (counts and percentiles against the
# CLI's JSON on every recording, every table's cells, str(ev), corrupt
# inputs, the examples), and the module as make install puts it, imported
# from outside the tree. T8000_PYTEST: more pytest arguments ("-k tick").
. "$(dirname "$0")/lib.sh"

python_module && {
	# ten minutes for every recording there: the plain build reads all
	export LT_PY_QUICK=1
	echo "sanitized library: the per-recording tests on a few recordings"
}
"$PY" -c 'import pytest' 2> /dev/null ||
	skip "no python3-pytest for $PY (make deps, or apt-get install python3-pytest)"
for m in numpy pandas matplotlib; do
	"$PY" -c "import $m" 2> /dev/null ||
		echo "note: no python3-$m: its tests and examples skip"
done

# Nothing written into the tree: no pytest cache either.
cd "$TOP/python" || fail "no python/"
PYTHONPATH=$TOP/python "$PY" -m pytest -q -rxs -p no:cacheprovider ${T8000_PYTEST:-} \
	--basetemp="$TMPDIR/pytest" tests || fail "pytest"

# Installed: into a DESTDIR, imported from elsewhere, finding the
# library through the path make install wrote.
[ -n "${BUILD:-}" ] || { echo "install part runs from make check only"; exit 0; }
case "$lib" in */build-asan/*) echo "install part: plain build only"; exit 0 ;; esac
dest=$TMPDIR/destdir
make -s -C "$TOP" install DESTDIR="$dest" PREFIX=/usr > "$TMPDIR/install.log" 2>&1 ||
	fail "make install: $(tail -5 "$TMPDIR/install.log")"
pkg=$dest/usr/lib/python3/dist-packages
[ -f "$pkg/lazytrace/__init__.py" ] || fail "lazytrace not in $pkg"
cd "$TMPDIR" || fail "cd"
so=$dest/usr/lib/liblazytrace.so.0
out=$(LAZYTRACE_LIB=$so PYTHONPATH="$pkg" "$PY" -c '
import lazytrace, lazytrace._config as c
print(lazytrace.__file__, c.LIBDIR, lazytrace._lib.path)') ||
	fail "import of the installed module"
[ "$out" = "$pkg/lazytrace/__init__.py /usr/lib $so" ] || fail "installed: $out"
# without LAZYTRACE_LIB it looks where make install put the library
# (/usr/lib here: loaded if this machine has one there, else named)
got=$(env -u LAZYTRACE_LIB PYTHONPATH="$pkg" "$PY" -c '
import lazytrace; print(lazytrace._lib.path)' 2> "$TMPDIR/err")
[ "$got" = /usr/lib/liblazytrace.so.0 ] ||
	grep -q "tried: /usr/lib/liblazytrace.so.0" "$TMPDIR/err" ||
	fail "installed module does not look in LIBDIR: $got $(tail -1 "$TMPDIR/err")"
n=$(LAZYTRACE_LIB=$so PYTHONPATH="$pkg" "$PY" -c '
import sys, lazytrace
print(len(lazytrace.open(sys.argv[1]).requests()))' "$DATA/lazy612-hogs.dat") ||
	fail "the installed module reads no trace"
want=$(lt table requests "$DATA/lazy612-hogs.dat" --csv | tail -n +2 | wc -l)
[ "$n" = "$want" ] || fail "installed module: $n requests, the CLI $want"
echo "python module: tests pass, installs, imports from $pkg"
