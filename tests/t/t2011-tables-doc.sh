#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# docs/json.md documents every table and column the library has, with
# its type and unit: the section is the schema's (tests/tools/tables-doc.sh);
# and no key has two types across the documented tables (the library's
# and the commands' own).
. "$(dirname "$0")/lib.sh"

sh "$TOOLS/tables-doc.sh" "$LAZYTRACE" > "$TMPDIR/want" || fail "tables-doc.sh"
sed -n '/^<!-- tables: generated/,/^<!-- end of tables -->/p' "$TOP/docs/json.md" \
	> "$TMPDIR/got"
[ -s "$TMPDIR/got" ] || fail "docs/json.md has no generated tables section"
diff -u "$TMPDIR/got" "$TMPDIR/want" ||
	fail "docs/json.md's tables differ from the library's (run tests/tools/tables-doc.sh)"
n=$(grep -c '^| `' "$TMPDIR/got")
[ "$n" -gt 150 ] || fail "only $n columns documented"
python3 "$TOP/tests/schema/tables.py" --keys > "$TMPDIR/keys" ||
	{ grep -B1 '\^' "$TMPDIR/keys"; fail "a key has two types in docs/json.md"; }
# the check itself: a column documented with another type is caught
{ cat "$TOP/docs/json.md"; printf '\n### `bogus`\n\n| `truncated` | bool |  | x |\n'; } \
	> "$TMPDIR/bad.md"
! python3 "$TOP/tests/schema/tables.py" --doc "$TMPDIR/bad.md" --keys \
	> /dev/null || fail "--keys missed a key with two types"
echo "ok: $n columns"
