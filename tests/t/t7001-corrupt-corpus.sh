#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Corrupt-input corpus: a real trace.dat cut at every 4 KiB, and a fixed,
# seeded set of bit flips (in the compressed v7 file as recorded and in its
# uncompressed v6 conversion, biased towards headers and event pages); and
# kernel text traces with cut lines, binary garbage and very long lines.
# Each goes through report, stats and hogs with a time limit: no crash, no
# hang; exit 0, 1 (nothing found, with a note) or 2, and on 2 one line on
# stderr naming the file and where (offset, or line and offset).
#
# T7_STEP=N keeps every Nth case only (by default every 8th under make
# asan and every 50th under make valgrind, where one run takes seconds);
# T7_SEED changes the flips (default: fixed).
. "$(dirname "$0")/lib.sh"

SRC=$DATA/lazy612-hogs.dat
SEED=${T7_SEED:-7001}
LIMIT=${T7_TIMEOUT:-30}
if [ -n "${LAZYTRACE_WRAP:-}" ]; then
	STEP=${T7_STEP:-50}
	LIMIT=$((LIMIT * 10))
else
	case $LAZYTRACE in
	*/build-asan/*) STEP=${T7_STEP:-8} LIMIT=$((LIMIT * 3)) ;;	# ~5x slower
	*) STEP=${T7_STEP:-1} ;;
	esac
fi
command -v python3 > /dev/null || skip "needs python3"
W=$TMPDIR/work
mkdir -p "$W"

trace-cmd convert -i "$SRC" --file-version 6 -o "$W/v6.dat" > /dev/null 2>&1 ||
	fail "trace-cmd convert"
cp "$SRC" "$W/v7.dat"
k=$(kernel_text lazy612-hogs.txt.xz)
kl=$(kernel_text lazy612-hogs.lat.txt.xz)

# The cases, one per line: "cut FILE BYTES", "flip FILE OFFSET BIT",
# "text FILE". Text cases are built here; flips and cuts by each worker.
python3 - "$W" "$SEED" "$k" "$kl" > "$W/cases" <<'EOF'
import os, random, sys
w, seed, text, lat = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = random.Random(seed)
v7, v6 = w + '/v7.dat', w + '/v6.dat'
for n in range(4096, os.path.getsize(v7), 4096):
    print('cut', v7, n)
for n in (1, 10, 11, 16, 100, 4095, 4097):
    print('cut', v7, n)
size6 = os.path.getsize(v6)
for f, size, count in ((v7, os.path.getsize(v7), 100), (v6, size6, 150)):
    for i in range(count):
        r = rng.random()
        if r < 0.4:		# headers and event formats
            pos = rng.randrange(min(size, 131072))
        elif r < 0.8:		# the last pages: event data (and options)
            pos = size - 1 - rng.randrange(min(size, 262144))
        else:
            pos = rng.randrange(size)
        print('flip', f, pos, rng.randrange(8))

def write(name, data):
    path = '%s/%s' % (w, name)
    open(path, 'wb').write(data)
    print('text', path)

for src, tag in ((text, 'txt'), (lat, 'lat')):
    lines = open(src, 'rb').read().split(b'\n')
    body = [i for i, l in enumerate(lines) if l and not l.startswith(b'#')]
    for j in range(12):		# the whole file cut mid-line
        i = rng.choice(body)
        write('%s-cut%d' % (tag, j),
              b'\n'.join(lines[:i] + [lines[i][:rng.randrange(len(lines[i]))]]))
    for j in range(12):		# one line in the middle cut short
        i = rng.choice(body)
        l = lines[:]
        l[i] = l[i][:rng.randrange(len(l[i]))]
        write('%s-short%d' % (tag, j), b'\n'.join(l))
    for j in range(8):		# binary garbage inside a line, between lines
        i = rng.choice(body)
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        l = lines[:]
        if j % 2:
            l.insert(i, junk)
        else:
            c = rng.randrange(len(l[i]))
            l[i] = l[i][:c] + junk + l[i][c:]
        write('%s-junk%d' % (tag, j), b'\n'.join(l))
    head = b'\n'.join(lines[:40]) + b'\n'
    for n in (65534, 65535, 65536, 65537, 1 << 20):	# very long lines
        write('%s-long%d' % (tag, n), head + b'x' * n + b'\n' + head)
    l = lines[:]
    i = rng.choice(body)
    l[i] = l[i] + b' ' + b'A' * 100000	# a valid line, a huge payload
    write('%s-longpayload' % tag, b'\n'.join(l))
    comm = lines[:]
    i = rng.choice(body)
    comm[i] = b'c' * 5000 + comm[i].lstrip()	# a huge comm
    write('%s-longcomm' % tag, b'\n'.join(comm))
write('garbage', bytes(rng.randrange(256) for _ in range(100000)))
write('garbage-text', bytes(rng.choice(b'abc []:.-0123456789\n')
                            for _ in range(100000)))
write('nul-lines', b'\0\n' * 1000)
write('only-header', b''.join(l + b'\n' for l in lines[:12]))
EOF
[ -s "$W/cases" ] || fail "no cases"
awk -v s="$STEP" '(NR - 1) % s == 0' "$W/cases" > "$W/run"

# One case: build its file, run the three commands, print a line per
# violation (none when all is well).
cat > "$W/one.sh" <<'EOF'
kind=$1 src=$2
f=$W/case.$$
case $kind in
cut)	head -c "$3" "$src" > "$f" ;;
flip)	cp "$src" "$f"
	b=$(od -An -tu1 -j "$3" -N1 "$src" | tr -d ' ')
	printf "\\$(printf %03o $((b ^ (1 << $4))))" |
		dd of="$f" bs=1 seek="$3" conv=notrunc 2> /dev/null ;;
text)	f=$src ;;
esac
for cmd in report stats hogs; do
	timeout -k 5 "$LIMIT" ${LAZYTRACE_WRAP:-} "$LAZYTRACE" $cmd -i "$f" \
		> /dev/null 2> "$f.err"
	rc=$?
	what="$cmd $*"
	case $rc in
	0) ;;
	1)	# nothing found (no event, no hog): one note
		grep -q '^lazytrace [a-z]*: note: ' "$f.err" ||
			echo "$what: exit 1 without a note: $(head -c 300 "$f.err")" ;;
	2)	[ "$(wc -l < "$f.err")" = 1 ] ||
			echo "$what: not one line: $(head -c 300 "$f.err")"
		grep -qF "$f" "$f.err" ||
			echo "$what: does not name the file: $(cat "$f.err")"
		grep -qE 'offset [0-9]' "$f.err" ||
			echo "$what: does not say where: $(cat "$f.err")"
		sed "s|$f|FILE|; s/[0-9][0-9]*/N/g" "$f.err" >> "$W/messages.$$" ;;
	124|137) echo "$what: hangs (over $LIMIT s)" ;;
	*) echo "$what: exit $rc: $(head -c 300 "$f.err")" ;;
	esac
done
[ "$kind" = text ] || rm -f "$f"
rm -f "$f.err"
EOF

start=$(date +%s)
export W LIMIT
xargs -P 2 -L 1 sh "$W/one.sh" < "$W/run" > "$W/violations" 2>&1
end=$(date +%s)
echo "$(wc -l < "$W/run") cases x 3 commands in $((end - start)) s"
echo "error messages seen:"
cat "$W"/messages.* 2> /dev/null | sort | uniq -c | sort -rn | head -20
if [ -s "$W/violations" ]; then
	echo "violations: $(wc -l < "$W/violations")"
	head -n 40 "$W/violations"
	fail "corrupt inputs mishandled"
fi
echo "corrupt corpus handled"
