#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every function liblazytrace.so exports has a user outside the library:
# the CLI, the TUI, the KernelShark plugin, the samples, the unit tests or
# the fuzzers call it. An export nothing calls is an interface kept for no
# one that cannot change without breaking liblazytrace.so.0: make it
# internal (lt-internal.h) or remove it. The few kept for a consumer that
# is coming are listed below, each with its reason.
. "$(dirname "$0")/lib.sh"

[ -n "${BUILD:-}" ] || skip "not run from make check (needs BUILD)"
so=$BUILD/liblazytrace.so.0
[ -f "$so" ] || fail "$so not built"

# name: why it stays exported without a caller yet
keep="
"

nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
	sort -u > "$TMPDIR/exported"
[ "$(wc -l < "$TMPDIR/exported")" -gt 30 ] || fail "few exports: $(cat "$TMPDIR/exported")"

# Callers: the sources outside libdecode/, but its samples.
find "$TOP/cli" "$TOP/tui" "$TOP/common" "$TOP/kshark" "$TOP/tests/unit" \
	"$TOP/tests/fuzz" "$TOP/libdecode/samples" \
	"$TOP/python/lazytrace" \
	-name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.py' 2>/dev/null |
	xargs cat > "$TMPDIR/callers"

unused=
while read -r f; do
	printf '%s\n' "$keep" | grep -q "^$f:" && continue
	# a call, or the function passed as a pointer
	grep -qE "(^|[^a-zA-Z0-9_])$f *[(,;)]" "$TMPDIR/callers" ||
		unused="$unused $f"
done < "$TMPDIR/exported"
[ -z "$unused" ] || fail "exported, called by nothing outside the library:$unused"

# The keep list holds only exports that still have no caller.
for f in $(printf '%s\n' "$keep" | sed -n 's/^\(lt_[a-z0-9_]*\):.*/\1/p'); do
	grep -qx "$f" "$TMPDIR/exported" || fail "kept but not exported: $f"
	if grep -qE "(^|[^a-zA-Z0-9_])$f *[(,;)]" "$TMPDIR/callers"; then
		fail "$f has a caller now: drop it from the keep list"
	fi
done
echo "ok: $(wc -l < "$TMPDIR/exported") exports, each with a caller or a reason"
