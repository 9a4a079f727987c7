#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Packaging: every subcommand answers --help (exit 0, its usage line) and is
# in the man page and the bash completion; after make install into a
# DESTDIR, man -l renders each installed page without warnings and the
# installed completion completes subcommands and options in bash.
. "$(dirname "$0")/lib.sh"

cmds=$(lt --help | awk '/^commands:/ { on = 1; next } on && /^   [a-z]/ { print $1 }')
[ -n "$cmds" ] || fail "lazytrace --help lists no commands"
lt --version | grep -q '^lazytrace [0-9]' || fail "--version"
for c in $cmds; do
	lt $c --help > "$TMPDIR/help" 2>&1 || fail "$c --help exits $?"
	grep -q "usage: lazytrace $c" "$TMPDIR/help" || fail "$c --help: no usage line"
	grep -q "^\.SS \"lazytrace $c" "$TOP/docs/man/lazytrace.1" ||
		fail "$c is not in docs/man/lazytrace.1"
done

[ -n "${BUILD:-}" ] || skip "install part runs from make check only"
case "$LAZYTRACE" in */build-asan/*) skip "install part runs in the plain build only" ;; esac
command -v man > /dev/null || skip "no man (apt-get install man-db)"
dest=$TMPDIR/destdir
make -s -C "$TOP" install DESTDIR="$dest" PREFIX=/usr > "$TMPDIR/install.log" 2>&1 ||
	fail "make install: $(tail -5 "$TMPDIR/install.log")"
n=0
for page in "$dest"/usr/share/man/man1/*.1 "$dest"/usr/share/man/man3/*.3; do
	[ -f "$page" ] || continue
	MANWIDTH=80 man --warnings -l "$page" > "$TMPDIR/page" 2> "$TMPDIR/warn" ||
		fail "man -l $page"
	[ -s "$TMPDIR/warn" ] && fail "$page: $(head -3 "$TMPDIR/warn")"
	grep -q NAME "$TMPDIR/page" || fail "$page renders no NAME section"
	n=$((n + 1))
done
[ -f "$dest/usr/share/man/man1/lazytrace.1" ] || fail "lazytrace.1 not installed"
[ -f "$dest/usr/share/man/man3/liblazytrace.3" ] || fail "liblazytrace.3 not installed"
grep -q 'lt_reader_open' "$dest/usr/share/man/man3/liblazytrace.3" || fail "liblazytrace.3"

comp=$dest/usr/share/bash-completion/completions/lazytrace
[ -f "$comp" ] || fail "completion not installed"
complete_words() {	# WORDS...: what bash offers for the last one
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
		_lazytrace; echo "${COMPREPLY[*]}"' sh "$comp" "$@"
}
[ "$(complete_words lazytrace re)" = "report record" ] ||
	fail "lazytrace re<TAB>: $(complete_words lazytrace re)"
for c in $cmds; do
	complete_words lazytrace "" | tr ' ' '\n' | grep -qx "$c" ||
		fail "completion lacks $c"
done
complete_words lazytrace report --co | grep -q -- --color || fail "report --co<TAB>"
complete_words lazytrace stats --abi rt | grep -qx rt-lazy || fail "--abi rt<TAB>"
complete_words lazytrace hogs --hog- | grep -q -- --hog-episodes || fail "hogs --hog-<TAB>"
echo "$n man pages render; completion completes $(echo $cmds | wc -w) commands"
