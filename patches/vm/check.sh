#!/bin/bash
# check.sh DIR [LAZYTRACE]
# Checks the recordings that guest.sh left in DIR (NAME.txt, NAME.lat.txt,
# NAME.dat for NAME in hogs, hogs-eager, msg-lazy, msg-eager) with plain
# text tools,
# and against `lazytrace` when that binary is there.
set -u
dir=$1
lt=${2:-}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok:   $*"; }

# One line per event of the kernel's default text output:
# cpu timestamp flags pid event rest...
events() {
	awk '
	/^#/ { next }
	match($0, /\[[0-9]+\] [^ ][^ ][^ ][^ ][^ ] +[0-9]+\.[0-9]+: /) {
		head = substr($0, 1, RSTART - 1)
		f = substr($0, RSTART, RLENGTH)
		rest = substr($0, RSTART + RLENGTH)
		n = split(f, a, /[][ :]+/)
		sub(/ +$/, "", head)
		pid = head; sub(/.*-/, "", pid)
		split(rest, r, ":")
		print a[2], a[4], a[3], pid, r[1], substr(rest, length(r[1]) + 3)
	}' "$1"
}

for name in hogs hogs-eager msg-lazy msg-eager; do
	t=$dir/$name.txt
	[ -s "$t" ] || { bad "$name: no $t"; continue; }
	events "$t" > "$dir/$name.events"
	n=$(wc -l < "$dir/$name.events")
	hdr=$(grep -m1 'entries-in-buffer/entries-written' "$t" | sed 's/.*written: //; s/ .*//')
	if [ "${hdr%/*}" = "${hdr#*/}" ] && [ "${hdr%/*}" = "$n" ]; then
		ok "$name: $n events, none lost or unparsed (entries-in-buffer/written $hdr)"
	else
		bad "$name: parsed $n events, header says $hdr"
	fi
	lat=$(grep -vc '^#' "$dir/$name.lat.txt")
	[ "$lat" = "$n" ] && ok "$name: latency-format text has the same $lat events" ||
		bad "$name: latency-format text has $lat events, default has $n"
	[ -s "$dir/$name.dat" ] && ok "$name: $name.dat $(du -h "$dir/$name.dat" | cut -f1)" || bad "$name: no trace.dat"
	# need-resched letters
	awk '{ c[substr($3, 2, 1)]++ } END {
		printf "      need-resched letters:"
		split("B N L b n p l .", k, " ")
		for (i = 1; i <= 8; i++) printf " %s=%d", k[i], c[k[i]]
		printf "\n" }' "$dir/$name.events"
	# switches, idle excluded: preempted (R+), yielded (R), blocked (other)
	awk '$5 == "sched_switch" {
		if (match($0, /prev_pid=[0-9]+/)) pp = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /prev_state=[^ ]+/); s = substr($0, RSTART + 11, RLENGTH - 11)
		if (pp == 0) { idle++; next }
		if (s == "R+") p++; else if (s == "R") y++; else b++
	} END { printf "%d %d %d %d\n", p, y, b, idle }' "$dir/$name.events" > "$dir/$name.switches"
done

letter() { awk -v l="$2" 'substr($3, 2, 1) == l { n++ } END { print n + 0 }' "$dir/$1.events"; }
if [ -s "$dir/hogs.events" ]; then
	l=$(letter hogs l); b=$(letter hogs b); B=$(letter hogs B)
	[ "$l" -gt 0 ] && ok "hogs: lazy letter l seen $l times" || bad "hogs: no 'l'"
	[ $((b + B)) -gt 0 ] && ok "hogs: upgraded lazy requests (b/B) seen $((b + B)) times" || bad "hogs: no 'b'/'B'"
fi
if [ -s "$dir/msg-lazy.events" ]; then
	l=$(letter msg-lazy l)
	[ "$l" -gt 0 ] && ok "msg-lazy: lazy letter l seen $l times" || bad "msg-lazy: no 'l'"
	le=$(awk 'index("lLbB", substr($3, 2, 1)) { n++ } END { print n + 0 }' "$dir/msg-eager.events")
	[ "$le" -eq 0 ] && ok "msg-eager: no lazy letters" || bad "msg-eager: $le events with a lazy letter"
fi
if [ -s "$dir/hogs-eager.events" ]; then
	le=$(awk 'index("lLbB", substr($3, 2, 1)) { n++ } END { print n + 0 }' "$dir/hogs-eager.events")
	[ "$le" -eq 0 ] && ok "hogs-eager: no lazy letters" || bad "hogs-eager: $le events with a lazy letter"
fi

echo
echo "sched_switch, idle excluded (kernel text; prev_state R+ / R / sleeping):"
if [ -s "$dir/msg-lazy.switches" ] && [ -s "$dir/msg-eager.switches" ]; then
	read -r pl yl bl _ < "$dir/msg-lazy.switches"
	read -r pe ye be _ < "$dir/msg-eager.switches"
	printf "  messaging    %10s %10s\n" lazy eager
	printf "  preempted    %10d %10d\n" "$pl" "$pe"
	printf "  yielded      %10d %10d\n" "$yl" "$ye"
	printf "  blocked      %10d %10d\n" "$bl" "$be"
	printf "  total        %10d %10d\n" $((pl + yl + bl)) $((pe + ye + be))
fi
[ -s "$dir/hogs.switches" ] && read -r p y b _ < "$dir/hogs.switches" &&
	echo "  hogs (lazy): preempted $p, yielded $y, blocked $b"
[ -s "$dir/hogs-eager.switches" ] && read -r p y b _ < "$dir/hogs-eager.switches" &&
	echo "  hogs (eager): preempted $p, yielded $y, blocked $b"
if [ -s "$dir/msg-lazy.switches" ] && [ -s "$dir/msg-eager.switches" ]; then
	read -r pl yl bl _ < "$dir/msg-lazy.switches"
	read -r pe ye be _ < "$dir/msg-eager.switches"
	if [ "$pe" -ge $((10 * pl)) ] && [ "$pe" -gt 0 ]; then
		ok "eager has >= 10x the preempted switches of lazy ($pe vs $pl)"
	else
		bad "eager/lazy preempted switches $pe vs $pl: not 10x"
	fi
fi

# Hog CPU shares on CPU 1, over the window in which all three hogs lived.
hogpids=$(sed -n 's/^hog pid //p' "$dir/guest.log" | tr '\n' ' ')
echo
echo "hog pids: $hogpids"
if [ -n "$hogpids" ] && [ -s "$dir/hogs.events" ]; then
	awk -v hogs="$hogpids" '
	BEGIN { n = split(hogs, h, " "); for (i = 1; i <= n; i++) ishog[h[i]] = 1 }
	$1 == 1 && $5 == "sched_switch" {
		t = $2
		match($0, /prev_pid=[0-9]+/); pp = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /next_pid=[0-9]+/); np = substr($0, RSTART + 9, RLENGTH - 9)
		ts[++k] = t; prev[k] = pp; next_[k] = np
		if (ishog[np] && !(np in first)) first[np] = t
		if (ishog[pp]) last[pp] = t
	}
	END {
		start = 0; end = 1e18
		for (i = 1; i <= n; i++) {
			if (!(h[i] in first)) { print "FAIL: hog " h[i] " never ran on CPU 1"; exit }
			if (first[h[i]] > start) start = first[h[i]]
			if (last[h[i]] < end) end = last[h[i]]
		}
		cur = -1; since = start
		for (j = 1; j <= k; j++) {
			if (ts[j] <= start) { cur = next_[j]; continue }
			if (ts[j] > end) { run[cur] += end - since; break }
			run[prev[j]] += ts[j] - since; since = ts[j]; cur = next_[j]
		}
		win = end - start; tot = 0
		for (i = 1; i <= n; i++) tot += run[h[i]]
		printf "window with all hogs on CPU 1: %.3f s; hogs used %.1f%% of it\n", win, 100 * tot / win
		for (i = 1; i <= n; i++) {
			s = 100 * run[h[i]] / tot
			printf "%s: hog %s: %.1f%% of the hogs'"'"' CPU time (%.1f%% of CPU 1)\n",
				(s >= 25 && s <= 41) ? "ok  " : "FAIL", h[i], s, 100 * run[h[i]] / win
		}
		for (p in run) if (!ishog[p] && p != 0 && run[p] / win > 0.05)
			printf "      other pid %s: %.1f%% of CPU 1\n", p, 100 * run[p] / win
	}' "$dir/hogs.events" | tee "$dir/hogs.shares"
	grep -q FAIL "$dir/hogs.shares" && fail=1
fi

# Request -> preemption of each hog (kernel text): from the first event on
# the hog's CPU, in its context, that shows a need-resched request (none
# pending before it) to the hog's sched_switch out with prev_state R+,
# for the requests whose first letter is one of LETTERS: l L (lazy) in the
# lazy hogs run, n N (eager) in hogs-eager. Lazy requests wait for the
# tick (HZ=250: 4 ms) to upgrade them; eager ones are served on the next
# return from interrupt. Prints "pid count median_us" per hog.
req_to_switch() { # events-file "hogpids" LETTERS
	awk -v hogs="$2" -v letters="$3" '
	BEGIN { n = split(hogs, h, " "); for (i = 1; i <= n; i++) ishog[h[i]] = 1 }
	{
		c = $1
		if ($5 == "sched_switch") {
			match($0, /prev_pid=[0-9]+/); pp = substr($0, RSTART + 9, RLENGTH - 9)
			match($0, /prev_state=[^ ]+/); s = substr($0, RSTART + 11, RLENGTH - 11)
			if ((c in since) && who[c] == pp && s == "R+" && index(letters, kind[c]))
				d[pp, ++cnt[pp]] = $2 - since[c]
			delete since[c]; delete who[c]; delete kind[c]
			next
		}
		l = substr($3, 2, 1)
		if (ishog[$4] && index("lLbBnN", l) && !(c in since)) { since[c] = $2; who[c] = $4; kind[c] = l }
	}
	END {
		for (i = 1; i <= n; i++) {
			p = h[i]; m = cnt[p] + 0
			for (j = 1; j <= m; j++) a[j] = d[p, j]
			for (j = 2; j <= m; j++) { v = a[j]; k = j - 1; while (k >= 1 && a[k] > v) { a[k + 1] = a[k]; k-- } a[k + 1] = v }
			med = m ? (m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2) : 0
			printf "%s %d %.0f\n", p, m, med * 1e6
		}
	}' "$1"
}
eagerpids=$(sed -n 's/^eager hog pid //p' "$dir/guest.log" | tr '\n' ' ')
echo
echo "hogs-eager pids: $eagerpids"
echo "request first seen -> preempted (R+) switch, median per hog (HZ=250, tick 4000 us):"
if [ -n "$hogpids" ] && [ -s "$dir/hogs.events" ]; then
	req_to_switch "$dir/hogs.events" "$hogpids" lL > "$dir/hogs.req"
	while read -r p m med; do
		echo "      hogs (lazy):  hog $p: $m lazy requests -> R+, median ${med} us"
		[ "$m" -ge 10 ] && [ "$med" -ge 2000 ] && ok "hogs (lazy): hog $p waits for the tick (median $med us >= 2000)" ||
			bad "hogs (lazy): hog $p: $m preempted requests, median $med us (want >= 10 and >= 2000 us)"
	done < "$dir/hogs.req"
fi
if [ -n "$eagerpids" ] && [ -s "$dir/hogs-eager.events" ]; then
	req_to_switch "$dir/hogs-eager.events" "$eagerpids" nN > "$dir/hogs-eager.req"
	while read -r p m med; do
		echo "      hogs-eager:   hog $p: $m eager requests -> R+, median ${med} us"
		[ "$m" -ge 10 ] && [ "$med" -le 1000 ] && ok "hogs-eager: hog $p preempted without waiting for the tick (median $med us <= 1000)" ||
			bad "hogs-eager: hog $p: $m preempted requests, median $med us (want >= 10 and <= 1000 us)"
	done < "$dir/hogs-eager.req"
else
	bad "hogs-eager: no recording or no eager hog pids in guest.log"
fi

# lazytrace: the same flags as the kernel, on every event
echo
if [ -z "$lt" ] || ! [ -x "$lt" ]; then
	echo "SKIP: lazytrace binary not found (${lt:-none given}); build it with the top-level make to compare"
elif ! "$lt" report -i "$dir/hogs.dat" > /dev/null 2>&1; then
	echo "SKIP: '$lt report' does not work yet; comparison with the kernel text skipped"
else
	for name in hogs hogs-eager msg-lazy msg-eager; do
		"$lt" report -i "$dir/$name.dat" > "$dir/$name.lt.txt" 2> "$dir/$name.lt.err"
		events "$dir/$name.lt.txt" > "$dir/$name.lt.events"
		a=$(cut -d' ' -f1-3 "$dir/$name.events" | sort | md5sum)
		b=$(cut -d' ' -f1-3 "$dir/$name.lt.events" | sort | md5sum)
		if [ "$a" = "$b" ]; then
			ok "$name: lazytrace report agrees with the kernel text on all $(wc -l < "$dir/$name.events") events (cpu, time, flags)"
		else
			bad "$name: lazytrace report differs from the kernel text:"
			diff <(cut -d' ' -f1-3 "$dir/$name.events" | sort) <(cut -d' ' -f1-3 "$dir/$name.lt.events" | sort) | head -5
		fi
		"$lt" report -l -i "$dir/$name.dat" 2>/dev/null | grep -v '^#' | awk '{ print $2 }' | sort | uniq -c > "$dir/$name.lt.lat"
		grep -v '^#' "$dir/$name.lat.txt" | awk '{ print $2 }' | sort | uniq -c > "$dir/$name.k.lat"
		cmp -s "$dir/$name.lt.lat" "$dir/$name.k.lat" && ok "$name: lazytrace report -l: same cpu+flags columns as the kernel" ||
			bad "$name: lazytrace report -l cpu+flags columns differ from the kernel's"
		if "$lt" stats -i "$dir/$name.dat" --json > "$dir/$name.stats.json" 2>/dev/null; then
			echo "      lazytrace stats switches: $(tr -d '\n ' < "$dir/$name.stats.json" | grep -o '"switches":{[^}]*}' | head -1)"
			read -r p y b i < "$dir/$name.switches"
			echo "      kernel text: preempted/yielded/blocked $p/$y/$b, idle excluded ($i switches from idle)"
		fi
	done
	if "$lt" hogs -i "$dir/hogs.dat" --json > "$dir/hogs.hogs.json" 2>/dev/null; then
		for p in $hogpids; do
			grep -q "\"pid\": *$p\b" "$dir/hogs.hogs.json" && ok "lazytrace hogs names pid $p" || bad "lazytrace hogs misses hog pid $p"
		done
	else
		echo "SKIP: lazytrace hogs failed"
	fi
	"$lt" hogs -i "$dir/hogs-eager.dat" > "$dir/hogs-eager.hogs.txt" 2>&1
	rc=$?
	[ $rc = 1 ] && ok "lazytrace hogs finds no hog in eager mode (exit 1)" ||
		bad "lazytrace hogs -i hogs-eager.dat: exit $rc, want 1 (no hog)"
	if "$lt" stats --json -i "$dir/hogs-eager.dat" > "$dir/hogs-eager.stats.json" 2>/dev/null; then
		python3 - "$dir/hogs-eager.stats.json" $eagerpids <<'PY' && ok "lazytrace stats: eager hogs' eager_latency_ns p50 < 1 ms" ||
import json, sys
tasks = json.load(open(sys.argv[1]))["tasks"]
bad = 0
for p in map(int, sys.argv[2:]):
    t = [x for x in tasks if x["pid"] == p]
    e = t[0]["eager_latency_ns"] if t else {"count": 0, "p50": 0}
    print("      lazytrace stats: eager hog %d: eager requests %d, p50 %d ns, lazy %d" %
          (p, e["count"], e["p50"], t[0]["lazy"] if t else -1))
    if not t or e["count"] < 10 or e["p50"] >= 1000000 or t[0]["lazy"] != 0:
        bad = 1
sys.exit(bad)
PY
			bad "lazytrace stats: eager hogs' eager latency not well below a tick"
	fi
fi
echo
[ $fail = 0 ] && echo "vm-test checks: PASS" || echo "vm-test checks: FAIL"
exit $fail
