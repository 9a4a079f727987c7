#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tables.py LIST DOC...: check version-3 documents (JSON, or NDJSON rows
with --ndjson TABLE) against the schema `lazytrace table --list --json`
wrote to LIST: every key is a table, every row has exactly that table's
columns, each value of its column's type (or null)."""
import json
import sys

KIND = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "uint": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "timestamp": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "duration": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "double": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
}


def check_row(schema, table, row, where):
    cols = schema[table]
    names = [c["name"] for c in cols]
    if list(row) != names:
        raise ValueError(f"{where}: keys {list(row)} are not the columns of {table}: {names}")
    for c in cols:
        v = row[c["name"]]
        if v is not None and not KIND[c["type"]](v):
            raise ValueError(f"{where}: {c['name']}={v!r} is not a {c['type']}")


def main():
    schema = json.load(open(sys.argv[1]))
    assert schema["version"] == 3
    schema = schema["tables"]
    args = sys.argv[2:]
    if args[0] == "--ndjson":
        table = args[1]
        n = 0
        for n, line in enumerate(open(args[2]), 1):
            check_row(schema, table, json.loads(line), f"{args[2]}:{n}")
        return
    for path in args:
        doc = json.load(open(path))
        if doc.pop("version") != 3:
            raise ValueError(f"{path}: not version 3")
        if not doc:
            raise ValueError(f"{path}: no table")
        for table, rows in doc.items():
            if table not in schema:
                raise ValueError(f"{path}: no table {table!r}")
            if isinstance(rows, dict):
                rows = [rows]
            for i, row in enumerate(rows):
                check_row(schema, table, row, f"{path}: {table}[{i}]")


try:
    main()
except (ValueError, KeyError, AssertionError) as e:
    print("invalid:", e)
    sys.exit(1)
print("valid")
