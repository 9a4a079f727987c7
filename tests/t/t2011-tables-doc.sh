#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# docs/json.md documents every table and column the library has, with
# its type and unit: the section is the schema's (tests/tools/tables-doc.sh).
. "$(dirname "$0")/lib.sh"

sh "$TOOLS/tables-doc.sh" "$LAZYTRACE" > "$TMPDIR/want" || fail "tables-doc.sh"
sed -n '/^<!-- tables: generated/,/^<!-- end of tables -->/p' "$TOP/docs/json.md" \
	> "$TMPDIR/got"
[ -s "$TMPDIR/got" ] || fail "docs/json.md has no generated tables section"
diff -u "$TMPDIR/got" "$TMPDIR/want" ||
	fail "docs/json.md's tables differ from the library's (run tests/tools/tables-doc.sh)"
n=$(grep -c '^| `' "$TMPDIR/got")
[ "$n" -gt 150 ] || fail "only $n columns documented"
echo "ok: $n columns"
