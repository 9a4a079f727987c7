#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel's lazy capability in JSON: meta.lazy_capability (and its
# reason) of a record, and live --json's interval, say what record's own
# line said before recording (active, built in, absent, unknown); where
# this kernel's config is readable and lacks CONFIG_PREEMPT_LAZY, both
# say absent for that reason. Traces without a setup line's lazy= take
# it from their events: a 6.12 lazy trace is active, the 6.18 host's
# without lazy requests unknown.
. "$(dirname "$0")/lib.sh"

cap() {	# FILE: meta's lazy_capability and reason, one line
	lt table meta -i "$1" --json | python3 -c '
import json, sys
m = json.load(sys.stdin)["meta"]
print(m["lazy_capability"] + "|" + m["lazy_capability_reason"])'
}
[ "$(cap "$DATA/lazy612-hogs.dat")" = "active|lazy requests in the trace" ] ||
	fail "lazy612-hogs: $(cap "$DATA/lazy612-hogs.dat")"
c=$(cap "$DATA/host618-hogs.dat")
[ "${c%%|*}" = unknown ] || fail "host618-hogs: $c"

need_tracefs
cd "$TMPDIR" || fail "no TMPDIR"
lt record -o r.dat -d 1 > rec.log 2>&1 || fail "record: $(cat rec.log)"
line=$(grep 'lazy preemption: ' rec.log) || fail "record said nothing: $(cat rec.log)"
case $line in
*"lazy preemption: active"*) want=active ;;
*"lazy preemption: built in"*) want=built_in ;;
*"lazy preemption: absent"*) want=absent ;;
*"lazy preemption: unknown"*) want=unknown ;;
*) fail "unknown line: $line" ;;
esac
c=$(cap r.dat)
[ "${c%%|*}" = "$want" ] || fail "meta says $c, record said: $line"
lt live --json -d 1 2> /dev/null > live.json || fail "live --json"
python3 - live.json "$want" <<'PY' || fail "live --json's capability"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
assert docs
for d in docs:
    assert d["interval"]["lazy_capability"] == sys.argv[2], d["interval"]
PY
if zcat /proc/config.gz 2>/dev/null | grep -q '^# CONFIG_PREEMPT_LAZY is not set'; then
	[ "$c" = "absent|CONFIG_PREEMPT_LAZY is not set" ] ||
		fail "this kernel's config lacks PREEMPT_LAZY; meta says $c"
fi
echo "ok: $c"
