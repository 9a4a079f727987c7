#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# liblazytrace.so exports exactly the functions lazytrace.h declares, each
# under version LAZYTRACE_0.1, each with its kernel-doc in the header and
# its line in liblazytrace.3;
# no code outside libdecode/ includes the library's private headers; the
# library's layers (docs/design.md) reach only down, by #include and by
# symbol; the commands that still work below the run and its tables are
# a known list that must not grow, and the TUI and the KernelShark
# plugin are not among them; the CLI and the TUI share only
# common/ and the TUI's entry points; the samples use only the run and
# table API, linked against the .so, and print what the CLI prints.
. "$(dirname "$0")/lib.sh"

[ -n "${BUILD:-}" ] || skip "not run from make check (needs BUILD)"
so=$BUILD/liblazytrace.so.0
hdr=$TOP/libdecode/include/lazytrace.h
[ -f "$so" ] || fail "$so not built"

# What the header declares: every "lt_name(" of the preprocessed header
# (comments gone; function-pointer types read "(*lt_name)(" and do not
# match).
${CC:-cc} -E -P -D_GNU_SOURCE "$hdr" > "$TMPDIR/hdr.i" || fail "cannot preprocess $hdr"
tr '\n' ' ' < "$TMPDIR/hdr.i" | grep -oE '\blt_[a-z0-9_]+ *\(' |
	grep -oE 'lt_[a-z0-9_]+' | sort -u > "$TMPDIR/declared"
[ "$(wc -l < "$TMPDIR/declared")" -gt 30 ] || fail "few declarations found: $(cat "$TMPDIR/declared")"

# What the library exports (defined, dynamic), with their versions.
nm -D --defined-only "$so" > "$TMPDIR/nm" || fail "nm -D $so"
awk '$2 != "A" { print $3 }' "$TMPDIR/nm" > "$TMPDIR/versioned"
grep -v '@@LAZYTRACE_0\.1$' "$TMPDIR/versioned" > "$TMPDIR/unversioned" &&
	fail "exported without version LAZYTRACE_0.1: $(cat "$TMPDIR/unversioned")"
sed 's/@.*//' "$TMPDIR/versioned" | sort -u > "$TMPDIR/exported"
awk '$2 != "A" && $2 != "T" { print }' "$TMPDIR/nm" > "$TMPDIR/data"
[ -s "$TMPDIR/data" ] && fail "exports something other than functions: $(cat "$TMPDIR/data")"

missing=$(comm -23 "$TMPDIR/declared" "$TMPDIR/exported")
extra=$(comm -13 "$TMPDIR/declared" "$TMPDIR/exported")
[ -z "$missing" ] || fail "declared in lazytrace.h, not exported: $missing"
[ -z "$extra" ] || fail "exported, not declared in lazytrace.h: $extra"

# Every declared function has its kernel-doc, in the header, and is in
# the man page's synopsis.
man3=$TOP/docs/man/liblazytrace.3
while read -r f; do
	grep -q "^ \* $f - " "$hdr" || fail "$f: no kernel-doc in lazytrace.h"
	grep -q "^\.BI \".*[ *]$f(" "$man3" || fail "$f: not in liblazytrace.3's synopsis"
done < "$TMPDIR/declared"

# The private headers are the library's own: nothing outside libdecode/
# includes one by its bare name (the build gives only the library the
# private include directory). A unit test that needs an internal
# interface names it by path ("../../libdecode/print/lt-print.h") and links
# the static library, and so do the fuzzers (the analysis' harness makes
# its own events, below the run; run.sh compiles the library's sources
# into each); the CLI, the TUI and the samples never do.
for h in "$TOP"/libdecode/*.h "$TOP"/libdecode/*/*.h; do
	case $h in */include/*) continue ;; esac
	n=$(basename "$h")
	bad=$(grep -l "#include \"$n\"" "$TOP"/cli/*.[ch] "$TOP"/tui/*.[ch] \
		"$TOP"/tests/unit/*.c "$TOP"/tests/fuzz/*.[ch] \
		"$TOP"/libdecode/samples/*.c 2>/dev/null)
	[ -z "$bad" ] || fail "$n included outside libdecode/: $bad"
	bad=$(grep -l "#include .*libdecode/.*$n\"" "$TOP"/cli/*.[ch] \
		"$TOP"/tui/*.[ch] "$TOP"/libdecode/samples/*.c 2>/dev/null)
	[ -z "$bad" ] || fail "$n included by path outside the unit tests and fuzzers: $bad"
done

# The layers, bottom up (docs/design.md): data flows one way, readers ->
# decoder -> analysis -> outputs, and a layer includes and calls only
# what is below it. lt-util.h is everyone's and includes nothing of
# the library. "layer: the layers it may use".
layers="
print:
read: print
analysis: read
tracefs: read
run: read analysis tracefs
"
lib=$TOP/libdecode
dirs=$(printf '%s\n' "$layers" | sed -n 's/^\([a-z]*\):.*/\1/p' | tr '\n' ' ')
for d in $(cd "$lib" && ls -d */ | tr -d /); do
	case " include samples $dirs " in *" $d "*) ;;
	*) fail "libdecode/$d/: not a layer t0009 knows (add it to layers)" ;; esac
done
grep '#include "' "$lib/lt-util.h" && fail "lt-util.h includes the library"
for d in $dirs; do
	ok=$(printf '%s\n' "$layers" | sed -n "s/^$d: *//p")
	# #include "x.h" (its own), "../lt-util.h", "../L/x.h" for L in ok
	grep -H '#include "' "$lib/$d"/*.[ch] | grep -v '"lazytrace.h"' |
	while IFS= read -r line; do
		inc=${line#*#include \"}
		inc=${inc%%\"*}
		case $inc in
		../lt-util.h) ;;
		../*/*/*) echo "$line" ;;
		../*/*) l=${inc#../}; l=${l%%/*}
			case " $ok " in *" $l "*) ;; *) echo "$line" ;; esac ;;
		*/*) echo "$line" ;;
		*) [ -f "$lib/$d/$inc" ] || echo "$line" ;;
		esac
	done > "$TMPDIR/up"
	[ -s "$TMPDIR/up" ] && fail "$d/ includes what it may not (it may: ${ok:-nothing}): $(cat "$TMPDIR/up")"

	# By symbol too, on the built objects: what a layer's objects need
	# and another layer defines comes from one below it.
	[ -d "$BUILD/libdecode/$d" ] || fail "no $BUILD/libdecode/$d objects"
	for o in $dirs; do
		[ "$o" = "$d" ] && continue
		case " $ok " in *" $o "*) continue ;; esac
		nm --defined-only "$BUILD/libdecode/$o"/*.o |
			awk 'NF == 3 && $2 ~ /^[TDBR]$/ { print $3 }' | sort -u > "$TMPDIR/def"
		nm -u "$BUILD/libdecode/$d"/*.o | awk 'NF == 2 { print $2 }' |
			sort -u > "$TMPDIR/undef"
		up=$(comm -12 "$TMPDIR/def" "$TMPDIR/undef" | tr '\n' ' ')
		[ -z "$up" ] || fail "$d/ calls into $o/: $up"
	done
done

# The outputs use the library through lazytrace.h only: cli/, tui/,
# common/, kshark/ and the samples include nothing else of libdecode/
# (the private headers' names are checked above; this catches a path).
bad=$(grep -H '#include ".*libdecode/' "$TOP"/cli/*.[ch] "$TOP"/tui/*.[ch] \
	"$TOP"/common/*.[ch] "$TOP"/kshark/*.[ch]* "$TOP"/libdecode/samples/*.c \
	2>/dev/null | grep -v 'libdecode/include/lazytrace\.h"')
[ -z "$bad" ] || fail "libdecode/ internals included by an output: $bad"

# A command parses its options and chooses tables (issue 24): the run
# reads and analyses. These commands still drive the reader or the
# analysis themselves, through lazytrace.h; the list must not grow, and
# a command that moves to the tables leaves it. (record drives tracefs
# and flags decodes a flag byte: neither reads a trace.)
below_run="
"
for f in "$TOP"/cli/cmd-*.c; do
	n=$(basename "$f")
	if grep -qE '\blt_(reader|analysis)_[a-z_]+ *\(' "$f"; then
		printf '%s\n' "$below_run" | grep -qx "$n" ||
			fail "$n reads or analyses itself: choose a table (lt_run_table())"
	else
		printf '%s\n' "$below_run" | grep -qx "$n" &&
			fail "$n uses the run's tables only now: drop it from below_run"
	fi
done

# The TUI and the KernelShark plugin take the analysis from a run too
# (its "feed" option: the events they take are its input) and its
# tables: no analysis call or struct, no live session of their own. The
# TUI still reads the events near its cursor again with a reader.
for f in "$TOP"/tui/*.[ch] "$TOP"/kshark/*.[ch]*; do
	{ grep -nE '\blt_(analysis|live|tracefs)_[a-z_]+ *\(' "$f"
	  grep -nE 'struct lt_(analysis|analysis_opts|analysis_summary|transition|task_stats|site|latency)\b' "$f"
	} > "$TMPDIR/below"
	[ -s "$TMPDIR/below" ] &&
		fail "$(basename "$f") analyses itself: take the run's tables: $(cat "$TMPDIR/below")"
done

# The CLI and the TUI share only common/: tui/ includes nothing of cli/,
# and cli/ only the TUI's entry points (tui/tui.h).
bad=$(grep -l '#include ".*cli/' "$TOP"/tui/*.[ch] "$TOP"/common/*.[ch])
[ -z "$bad" ] || fail "cli/ headers included by $bad"
bad=$(grep '#include ".*tui/' "$TOP"/cli/*.[ch] "$TOP"/common/*.[ch] |
	grep -v 'tui/tui\.h"')
[ -z "$bad" ] || fail "tui/ internals included by the CLI: $bad"
grep -q '#include "../tui/tui.h"' "$TOP/cli/cmd-tui.c" ||
	fail "cli/cmd-tui.c does not use tui/tui.h"

# The samples use only the .so (and so only what it exports), and only
# the run and table API: no struct of the library, no reader or analysis
# call. Their tables match the CLI's, cell for cell.
for f in "$TOP"/libdecode/samples/*.c; do
	{ grep -noE 'struct lt_[a-z_]+' "$f" | grep -vE ':struct lt_(run|table)$'
	  grep -nE -- '->|\blt_(reader|analysis|event|live|tracefs)_[a-z_]+ *\(' "$f"
	} > "$TMPDIR/below"
	[ -s "$TMPDIR/below" ] &&
		fail "$(basename "$f") goes below the run and its tables: $(cat "$TMPDIR/below")"
done
sample=$BUILD/samples/lt-hogs-sample
ldd "$sample" | grep -q "liblazytrace.so.0 => $BUILD/" ||
	fail "the sample is not linked against $so"
trace=$DATA/lazy612-hogs.dat
for t in hogs tasks latency; do
	"$sample" "$trace" $t > "$TMPDIR/sample" || fail "sample $t failed"
	"$LAZYTRACE" table $t --csv "$trace" > "$TMPDIR/cli" || fail "table $t failed"
	grep -v '^#' "$TMPDIR/sample" | diff -u "$TMPDIR/cli" - ||
		fail "the sample's $t table differs from lazytrace table $t --csv"
done
"$LAZYTRACE" table summary --csv "$trace" |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		 NR == 2 { printf "# %s lazy requests, %s tick-upgrades\n",
			   $c["lazy"], $c["tick_upgrades"] }' > "$TMPDIR/cli"
grep '^#' "$TMPDIR/sample" | diff -u "$TMPDIR/cli" - ||
	fail "the sample's summary line differs"
echo "ok: $(wc -l < "$TMPDIR/exported") functions exported, as declared"
