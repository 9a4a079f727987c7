#!/bin/sh
# make install with DESTDIR and PREFIX; a program built with pkg-config
# against the installed library decodes a flag byte.
. "$(dirname "$0")/lib.sh"

[ -n "${BUILD:-}" ] || skip "not run from make check"
case "$LAZYTRACE" in */build-asan/*) skip "install test runs in the plain build only" ;; esac
dest=$TMPDIR/destdir
make -s -C "$TOP" install DESTDIR="$dest" PREFIX=/usr > "$TMPDIR/install.log" 2>&1 ||
	fail "make install: $(tail -5 "$TMPDIR/install.log")"
for f in usr/bin/lazytrace usr/include/lazytrace.h usr/lib/liblazytrace.a \
	 usr/lib/liblazytrace.so.0 usr/lib/pkgconfig/lazytrace.pc; do
	[ -e "$dest/$f" ] || fail "$f not installed"
done
cat > "$TMPDIR/prog.c" <<'PROG'
#include <stdio.h>
#include <lazytrace.h>
int main(void)
{
	char lat[6];

	lt_flags_latency(LT_ABI_MAINLINE, 0x27, 0x02, lat);
	printf("%s %c\n", lat, lt_flags_resched_letter(LT_ABI_POC2023, 0x02));
	return 0;
}
PROG
export PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$dest"
cc -o "$TMPDIR/prog" "$TMPDIR/prog.c" $(pkg-config --cflags lazytrace) \
	$(pkg-config --libs --static lazytrace) > "$TMPDIR/cc.log" 2>&1 ||
	fail "compile: $(cat "$TMPDIR/cc.log")"
out=$(LD_LIBRARY_PATH="$dest/usr/lib" "$TMPDIR/prog") || fail "run"
[ "$out" = "dB.2. n" ] || fail "decoded '$out'"
