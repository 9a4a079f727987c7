#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Mistakes are errors, empty results are notes, in every command:
#  - a usage mistake: exit 2, stderr is one line naming it and then
#    "try 'lazytrace CMD --help'", stdout empty;
#  - a valid request that selects nothing: exit 1, one "lazytrace CMD: note:"
#    line on stderr;
#  - zero bytes of input: exit 2, the same message from a file, /dev/null
#    and stdin.
. "$(dirname "$0")/lib.sh"

dat=$DATA/lazy612-hogs.dat

# usage CMD ARGS... -- PATTERN: a usage error whose first line matches.
usage() {
	cmd=$1
	args=""
	lt "$@" > "$TMPDIR/out" 2> "$TMPDIR/err" < /dev/null
	st=$?
	[ $st = 2 ] || fail "'$*' exited $st, want 2"
	[ ! -s "$TMPDIR/out" ] || fail "'$*' wrote to stdout"
	[ "$(wc -l < "$TMPDIR/err")" = 2 ] || fail "'$*': not two lines: $(cat "$TMPDIR/err")"
	[ "$(sed -n 2p "$TMPDIR/err")" = "try 'lazytrace $cmd --help'" ] ||
		fail "'$*': second line: $(cat "$TMPDIR/err")"
}
# first PATTERN: the first line of the last error matches.
first() {
	head -n 1 "$TMPDIR/err" | grep -q -- "$1" ||
		fail "want '$1', got: $(head -n 1 "$TMPDIR/err")"
}

usage report -i "$dat" --from 9 --to 8;	first 'report: --from is after --to'
usage timeline -i "$dat" --from 9s --to 8s;	first 'timeline: --from is after --to'
usage report -i "$dat" --cpu 7;		first "\-\-cpu: no CPU 7 in .*lazy612-hogs.dat (CPUs 0-1)"
usage timeline -i "$dat" --cpu 0,2;		first "\-\-cpu: no CPU 2 in .*(CPUs 0-1)"
nproc=$(getconf _NPROCESSORS_CONF)
usage record --cpu $nproc -o "$TMPDIR/x.dat";	first "\-\-cpu: no CPU $nproc on this machine"
usage live --cpu $nproc;			first "\-\-cpu: no CPU $nproc on this machine"
[ ! -e "$TMPDIR/x.dat" ] || fail "record wrote a file after a usage error"
# Options that contradict or repeat each other (before any tracing).
usage record --functions --no-functions -o "$TMPDIR/x.dat";	first "record: --functions and --no-functions: choose one"
usage record -o "$TMPDIR/x.dat" -o "$TMPDIR/y.dat";	first "record: -o given twice"
usage record -d 1 -d 2 -o "$TMPDIR/x.dat";		first "record: -d given twice"
usage record --buffer-size 64 --buffer-size 128;	first "record: --buffer-size given twice"
usage export --perfetto "$TMPDIR/a.json" --perfetto "$TMPDIR/b.json" "$dat";	first "export: --perfetto given twice"
[ ! -e "$TMPDIR/x.dat" ] && [ ! -e "$TMPDIR/a.json" ] && [ ! -e "$TMPDIR/b.json" ] ||
	fail "a file was written after a usage error"
# flags --abi auto, as completion offers it: every ABI, as without --abi.
[ "$(lt flags 0x26 --abi auto)" = "$(lt flags 0x26)" ] || fail "flags --abi auto differs from flags"
usage flags 0x26 --abi auto --abi mainline;	first "flags: --abi given twice"
for cmd in stats hogs timeline; do
	usage $cmd -i "$dat" --json --csv;	first '\-\-json.* \-\-csv'
	usage $cmd -i "$dat" -i "$dat";		first '\-i given twice'
	usage $cmd -i "$dat" --abi mainline --abi legacy; first '\-\-abi given twice'
	usage $cmd --no-such-option;		first 'unrecognized option'
done
usage compare --json --csv "$dat" "$dat";	first '\-\-json.* \-\-csv'
usage report -i "$dat" -B a -B b;		first '\-B given twice'
usage export -i "$dat" -i "$dat" --perfetto -;	first '\-i given twice'
usage flags 1 2;				first "flags: one VALUE at a time.*'2' is extra"
usage flags;					first 'flags: missing VALUE'
usage flags 3 --abi legacy --abi mainline;	first '\-\-abi given twice'
usage live --abi legacy --abi mainline;	first '\-\-abi given twice'
usage stats -i "$dat" extra;			first "two inputs: -i .* and 'extra'"
usage stats "$dat" "$dat";			first "unexpected argument"
usage timeline -i "$dat" --pid 1 --pid 2;	first '\-\-pid given twice'
usage stats -i "$dat" --json --ndjson;		first '\-\-json, \-\-csv and \-\-ndjson'
# A single-value option given twice, or one that does nothing without
# another, in the commands with options of their own.
usage report -i "$dat" --cpu 0 --cpu 1;	first 'report: \-\-cpu given twice'
usage report "$dat" --from 7.6 --from 7.7;	first 'report: \-\-from given twice'
usage report "$dat" --comm sh --comm 'lazy*';	first 'report: \-\-comm given twice'
usage report "$dat" --color=never --color=always; first 'report: \-\-color given twice'
usage report "$dat" -t -l;			first 'report: \-t is for the default format'
usage report "$dat" --pid x;			first "report: bad \-\-pid list 'x'"
usage timeline "$dat" --kind lazy --kind eager;	first 'timeline: \-\-kind given twice'
usage table transitions "$dat" --kind lazy --kind served; first 'table: \-\-kind given twice'
usage preempts "$dat" --folded --folded=off_cpu; first 'preempts: \-\-folded given twice'
usage hogs "$dat" --folded --folded=pending;	first 'hogs: \-\-folded given twice'
usage hogs "$dat" --sites 3;			first 'hogs: \-\-sites is for \-\-stacks'
usage hogs "$dat" --stacks --json --sites 3;	first 'hogs: \-\-sites is for \-\-stacks'
usage hogs "$dat" --stacks --sites 3 --sites 4;	first 'hogs: \-\-sites given twice'
usage compare "$dat" "$dat" --ndjson;		first 'compare: \-\-ndjson: compare writes one document'
usage live -d 1 -d 2;				first 'live: \-d given twice'
usage live --stop-above 1ms --stop-above 2ms;	first 'live: \-\-stop-above given twice'
usage live --stop-kind any;			first 'live: \-\-stop-kind is for \-\-stop-above'
usage record --stop-above 0;			first "record: bad latency '0'"
usage hist -d 1 -d 2;				first 'hist: \-d given twice'
usage hist --entries 3 --entries 4;		first 'hist: \-\-entries given twice'
usage flags 3 --preempt-count 1 --preempt-count 2; first 'flags: \-\-preempt-count given twice'
# one message for a bad ABI, the library's, in every command
for cmd in "flags 3" live report stats "tui -i $dat" "export --perfetto - -i $dat"; do
	usage $cmd --abi x;	first "bad \-\-abi 'x' .auto, legacy"
done
usage report "$dat" "$dat";			first "unexpected argument"
usage report -i "$dat" "$dat";			first "two inputs: -i .* and '.*lazy612-hogs.dat'"
# every command that reads a file takes it bare, as -i FILE
lt report "$dat" --cpu 1 --from 7.6 --to 7.7 > "$TMPDIR/bare.txt" || fail "report FILE"
lt report -i "$dat" --cpu 1 --from 7.6 --to 7.7 | cmp -s - "$TMPDIR/bare.txt" ||
	fail "report FILE differs from report -i FILE"
lt export --perfetto - "$dat" > "$TMPDIR/bare-p.json" || fail "export --perfetto - FILE"
lt export --perfetto - -i "$dat" | cmp -s - "$TMPDIR/bare-p.json" ||
	fail "export --perfetto - FILE differs from -i FILE"
printf 'hello\n' > "$TMPDIR/prose0.txt"
lt tui "$TMPDIR/prose0.txt" < /dev/null > /dev/null 2> "$TMPDIR/err"
[ $? = 2 ] && grep -q 'prose0.txt: line 1 (offset 0): not a trace' "$TMPDIR/err" ||
	fail "tui FILE is not read as the input: $(cat "$TMPDIR/err")"
# a bare file is the input, as trace-cmd takes it
lt stats "$dat" --json > "$TMPDIR/bare.json" || fail "stats FILE"
lt stats -i "$dat" --json | cmp -s - "$TMPDIR/bare.json" || fail "stats FILE differs from stats -i FILE"
usage report --bogus;				first 'unrecognized option'

# compare takes A and B, never -i: its help does not offer -i either.
usage compare -i "$dat" "$dat" "$dat";	first 'compare: name the two traces as A and B, without -i'
lt compare --help > "$TMPDIR/help" || fail "compare --help"
grep -q -- '-i,\|--input' "$TMPDIR/help" && fail "compare --help lists -i"
grep -q -- '--abi' "$TMPDIR/help" || fail "compare --help lost the shared options"
for cmd in stats hogs timeline export; do
	lt $cmd --help | grep -q -- '-i, --input' || fail "$cmd --help lacks -i"
done

# No command, or a wrong one: one line and the way to the list.
lt > /dev/null 2> "$TMPDIR/err"; [ $? = 2 ] || fail "no command: not exit 2"
[ "$(wc -l < "$TMPDIR/err")" = 2 ] || fail "no command: $(cat "$TMPDIR/err")"
lt nosuch > /dev/null 2> "$TMPDIR/err"; [ $? = 2 ] || fail "nosuch: not exit 2"
[ "$(cat "$TMPDIR/err")" = "lazytrace: 'nosuch' is not a lazytrace command
try 'lazytrace --help'" ] || fail "nosuch: $(cat "$TMPDIR/err")"

# export names the reason it cannot write.
lt export -i "$dat" --perfetto "$TMPDIR/no/such/dir.json" 2> "$TMPDIR/err"
[ $? = 2 ] || fail "export to a missing directory: not exit 2"
grep -q "cannot write '$TMPDIR/no/such/dir.json': No such file or directory" "$TMPDIR/err" ||
	fail "export: $(cat "$TMPDIR/err")"

# nothing CMD ARGS... : exit 1 and one note line.
nothing() {
	lt "$@" > "$TMPDIR/out" 2> "$TMPDIR/err" < /dev/null
	st=$?
	[ $st = 1 ] || fail "'$*' exited $st, want 1: $(cat "$TMPDIR/err")"
	[ "$(wc -l < "$TMPDIR/err")" = 1 ] && grep -q '^lazytrace [a-z]*: note: ' "$TMPDIR/err" ||
		fail "'$*': not one note: $(cat "$TMPDIR/err")"
}
nothing report -i "$dat" --comm nosuch;	first 'no event matches the filters'
nothing report -i "$dat" --from 1000;		first 'no event matches the filters'
[ ! -s "$TMPDIR/out" ] || fail "report printed events past the end"
nothing report -i "$dat" --pid 99999
nothing timeline -i "$dat" --from 1000;	first 'no transition matches the filters'
nothing timeline -i "$dat" --pid 99999 --json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["transitions"] == []' \
	"$TMPDIR/out" || fail "timeline --json with nothing selected is not an empty list"
nothing hogs -i "$DATA/host618-hogs.dat";	first 'no hogs'
nothing hogs -i "$DATA/host618-hogs.dat" --json; first 'no hogs'
# A kernel text trace with its header and no event: a trace, empty.
k=$(kernel_text lazy612-hogs.txt.xz)
grep '^#' "$k" > "$TMPDIR/header-only.txt"
[ -s "$TMPDIR/header-only.txt" ] || fail "no header in $k"
for cmd in report stats hogs timeline; do
	nothing $cmd -i "$TMPDIR/header-only.txt"; first 'header-only.txt: no events'
done
nothing export -i "$TMPDIR/header-only.txt" --perfetto "$TMPDIR/e.json"
nothing compare "$TMPDIR/header-only.txt" "$dat"; first 'header-only.txt: no events'

# Zero bytes: a file, /dev/null and a pipe are the same mistake.
: > "$TMPDIR/empty"
for cmd in report stats hogs timeline tui; do
	for src in "$TMPDIR/empty" /dev/null -; do
		[ $cmd = tui ] && [ $src = - ] && continue	# tui refuses '-'
		lt $cmd -i $src < /dev/null > /dev/null 2> "$TMPDIR/err"
		st=$?
		[ $st = 2 ] || fail "$cmd -i $src (empty): exit $st"
		name=$src
		[ $src = - ] && name='<stdin>'
		[ "$(cat "$TMPDIR/err")" = "lazytrace $cmd: $name: empty input, not a trace" ] ||
			fail "$cmd -i $src: $(cat "$TMPDIR/err")"
	done
done
# tui reads the input before it wants a terminal (and before it takes
# the screen): a file that is not a trace fails like everywhere else.
printf 'hello\n' > "$TMPDIR/prose.txt"
lt tui -i "$TMPDIR/prose.txt" < /dev/null > /dev/null 2> "$TMPDIR/err"
[ $? = 2 ] || fail "tui on prose: not exit 2"
grep -q 'prose.txt: line 1 (offset 0): not a trace' "$TMPDIR/err" ||
	fail "tui on prose: $(cat "$TMPDIR/err")"
# Standard input is <stdin> in headers, results and messages, as in the
# errors above: never '-'.
for cmd in stats hogs; do
	lt $cmd -i - < "$k" > "$TMPDIR/out" 2> "$TMPDIR/err" ||
		fail "$cmd -i - on text: exit $?"
	case "$(head -n 1 "$TMPDIR/out")" in
	"<stdin>: "*) ;;
	*) fail "$cmd -i -: header $(head -n 1 "$TMPDIR/out")" ;;
	esac
done
lt table meta --csv -i - < "$k" > "$TMPDIR/out" || fail "table meta -i -"
[ "$(sed -n 2p "$TMPDIR/out" | cut -d, -f1)" = "<stdin>" ] ||
	fail "table meta -i -: file $(sed -n 2p "$TMPDIR/out" | cut -d, -f1)"
lt compare - "$dat" < "$k" > "$TMPDIR/out" || fail "compare - DAT"
[ "$(head -n 1 "$TMPDIR/out")" = "A: <stdin> (ABI mainline)" ] ||
	fail "compare -: $(head -n 1 "$TMPDIR/out")"
lt stats -i - --cpu 7 < "$k" > /dev/null 2> "$TMPDIR/err"
[ $? = 2 ] || fail "stats -i - --cpu 7: not exit 2"
first '^lazytrace stats: --cpu: no CPU 7 in <stdin> (CPUs 0-1)$'
lt report -i - --pid 99999 < "$k" > /dev/null 2> "$TMPDIR/err"
[ $? = 1 ] || fail "report -i - --pid 99999: not exit 1"
first '^lazytrace report: note: <stdin>: no event matches the filters'
lt timeline -i - < "$TMPDIR/header-only.txt" > /dev/null 2> "$TMPDIR/err"
[ $? = 1 ] || fail "timeline -i - on a header: not exit 1"
first '^lazytrace timeline: note: <stdin>: no events$'
echo "mistakes refused, empty results noted"
