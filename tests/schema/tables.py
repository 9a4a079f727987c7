#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tables.py [--doc JSON.MD] MODE: check version-3 documents against the
tables docs/json.md documents (each `### `NAME`` section's column table).

  tables.py DOC...              JSON documents: {"version": 3, TABLE: rows}
  tables.py --lines FILE...     one document per line (live --json)
  tables.py --ndjson TABLE FILE one row of TABLE per line
  tables.py --keys [DOC...]     every key and its types, from docs/json.md
                                and from the documents' values; fails when
                                a key has two

Every key of a document is a documented table; every row has exactly its
table's columns, in order, each value of its column's type or null.
Python 3 standard library only."""
import json
import os
import re
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

HEAD = re.compile(r"^### `([a-z_0-9]+)`")
ROW = re.compile(r"^\| `([a-z_0-9]+)` \| ([a-z]+) \|")


def load_doc(path):
    """{table: [(column, type), ...]} from docs/json.md."""
    tables, cur = {}, None
    for n, line in enumerate(open(path), 1):
        m = HEAD.match(line)
        if m:
            cur = m.group(1)
            if cur in tables:
                raise ValueError(f"{path}:{n}: table {cur} documented twice")
            tables[cur] = []
            continue
        m = ROW.match(line)
        if m and cur:
            if m.group(2) not in KIND:
                raise ValueError(f"{path}:{n}: unknown type {m.group(2)}")
            tables[cur].append((m.group(1), m.group(2)))
        elif line.startswith("#"):
            cur = None
    return {k: v for k, v in tables.items() if v}


def check_row(schema, table, row, where):
    cols = schema[table]
    names = [c for c, _ in cols]
    if not isinstance(row, dict) or list(row) != names:
        keys = list(row) if isinstance(row, dict) else row
        extra = [k for k in keys if k not in names]
        raise ValueError(f"{where}: keys {keys} are not the columns of "
                         f"{table} (not documented: {extra}): {names}")
    for c, ty in cols:
        v = row[c]
        if v is not None and not KIND[ty](v):
            raise ValueError(f"{where}: {c}={v!r} is not a {ty}")


def check_doc(schema, doc, where):
    if not isinstance(doc, dict) or doc.pop("version", None) != 3:
        raise ValueError(f"{where}: not version 3")
    if not doc:
        raise ValueError(f"{where}: no table")
    for table, rows in doc.items():
        if table in ("a", "b") and isinstance(rows, dict):
            check_doc(schema, dict(rows, version=3), f"{where}: {table}")
            continue
        if table not in schema:
            raise ValueError(f"{where}: {table!r} is no documented table")
        if isinstance(rows, dict):
            rows = [rows]
        if not isinstance(rows, list):
            raise ValueError(f"{where}: {table} is neither rows nor a row")
        for i, row in enumerate(rows):
            check_row(schema, table, row, f"{where}: {table}[{i}]")


def json_type(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    return "rows" if isinstance(v, (list, dict)) else type(v).__name__


def walk_keys(doc, seen, top=True):
    """Each key of a document: a table (top level) or a column."""
    for k, v in doc.items():
        if k == "version" and top:
            continue
        if top and k in ("a", "b") and isinstance(v, dict):
            walk_keys(v, seen)
            continue
        if top:
            seen.setdefault("table " + k, set()).add("rows")
            for row in v if isinstance(v, list) else [v]:
                walk_keys(row, seen, False)
            continue
        t = json_type(v)
        if t:
            seen.setdefault(k, set()).add(t)


def keys(schema, docs):
    bad = 0
    types = {}
    for table, cols in schema.items():
        for c, ty in cols:
            types.setdefault(c, {}).setdefault(ty, []).append(table)
    for c in sorted(types):
        line = "; ".join(f"{ty} ({', '.join(ts)})"
                         for ty, ts in sorted(types[c].items()))
        print(f"{c}: {line}")
        if len(types[c]) > 1:
            print(f"  ^ {c} has {len(types[c])} types")
            bad += 1
    seen = {}
    for path in docs:
        text = open(path).read()
        for line in text.splitlines() if path.endswith(".nd") else [text]:
            if not line.strip():
                continue
            doc = json.loads(line)
            if not isinstance(doc, dict) or doc.get("version") != 3:
                raise ValueError(f"{path}: not a version-3 document")
            walk_keys(doc, seen)
    for k in sorted(seen):
        print(f"output {k}: {', '.join(sorted(seen[k]))}")
        if len(seen[k]) > 1:
            print(f"  ^ {k} has {len(seen[k])} types in the output")
            bad += 1
        if not k.startswith("table ") and k not in types:
            print(f"  ^ {k} is not documented")
            bad += 1
    if bad:
        raise ValueError(f"{bad} keys with more than one type or none")


def main():
    args = sys.argv[1:]
    md = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "docs", "json.md")
    if args[:1] == ["--doc"]:
        md, args = args[1], args[2:]
    schema = load_doc(md)
    if not schema:
        raise ValueError(f"{md}: no table documented")
    if args[:1] == ["--keys"]:
        keys(schema, args[1:])
        return
    if args[:1] == ["--ndjson"]:
        table = args[1]
        if table not in schema:
            raise ValueError(f"no table {table!r}")
        for n, line in enumerate(open(args[2]), 1):
            check_row(schema, table, json.loads(line), f"{args[2]}:{n}")
        return
    if args[:1] == ["--lines"]:
        for path in args[1:]:
            n = 0
            for n, line in enumerate(open(path), 1):
                check_doc(schema, json.loads(line), f"{path}:{n}")
            if not n:
                raise ValueError(f"{path}: no document")
        return
    if not args:
        raise ValueError("no document")
    for path in args:
        check_doc(schema, json.load(open(path)), path)


try:
    main()
except (ValueError, KeyError, IndexError) as e:
    print("invalid:", e)
    sys.exit(1)
print("valid")
