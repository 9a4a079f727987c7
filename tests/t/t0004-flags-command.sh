#!/bin/sh
# `lazytrace flags` explains a byte under each ABI.
. "$(dirname "$0")/lib.sh"

out=$(lt flags 0x2a --abi mainline) || fail "flags"
echo "$out" | grep -q 'mainline  \.Lh\.\.' || fail "0x2a mainline: $out"
echo "$out" | grep -q 'request: lazy' || fail "0x2a is a lazy request: $out"
out=$(lt flags 0x06 --abi poc2023) || fail "flags"
echo "$out" | grep -q 'poc2023   \.b\.\.\.' || fail "0x06 poc2023: $out"
[ "$(lt flags 0x02 | grep -c 'request:')" = 4 ] || fail "not all four ABIs"
lt flags 0x02 | grep -q '^legacy    X' || fail "legacy 0x02 is X"
lt flags 0x81 --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["version"]==3 and d["flags"][0]["flags"]=="D...."' ||
	fail "json"
expect_exit 2 lt flags 0x100 2>/dev/null
expect_exit 2 lt flags zz 2>/dev/null
expect_exit 2 lt flags 1 --abi bogus 2>/dev/null
