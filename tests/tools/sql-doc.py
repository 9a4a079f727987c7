#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sql-doc.py DB [DOC]

The tables section of docs/sql.md, from the table "columns" of a
database `lazytrace export --sqlite` made: the schema is written once,
by the library, and the doc is made from it.

With DOC (docs/sql.md), rewrite its section between the markers
<!-- schema:begin --> and <!-- schema:end --> instead of printing it.
t8100 checks that the section names every table and column the
database has, with its SQL type, and no other."""
import sqlite3
import sys

BEGIN, END = "<!-- schema:begin -->", "<!-- schema:end -->"


def section(db):
    out = []
    tables = []
    for (t,) in db.execute("SELECT table_name FROM columns "
                           "GROUP BY table_name ORDER BY min(rowid)"):
        tables.append(t)
    for t in tables:
        out += [f"### {t}", "",
                "| column | SQL | type | unit | meaning |",
                "|---|---|---|---|---|"]
        for name, sql, typ, unit, doc in db.execute(
                "SELECT name, sql_type, type, unit, doc FROM columns "
                "WHERE table_name = ? ORDER BY rowid", (t,)):
            doc = doc.replace("|", "\\|")
            out.append(f"| `{name}` | {sql} | {typ} | {unit} | {doc} |")
        out.append("")
    return "\n".join(out)


def main():
    db = sqlite3.connect(sys.argv[1])
    text = section(db)
    if len(sys.argv) < 3:
        print(text)
        return
    doc = open(sys.argv[2]).read()
    a, b = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    open(sys.argv[2], "w").write(doc[:a] + "\n\n" + text + "\n" + doc[b:])


if __name__ == "__main__":
    main()
