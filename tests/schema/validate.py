#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""validate.py SCHEMA [DOC]: check a JSON document (stdin if no DOC)
against one of the schemas here. Uses the jsonschema module when it is
installed, else the small subset of JSON Schema these schemas use."""
import json
import sys


def check(s, v, path):
    if "const" in s and v != s["const"]:
        raise ValueError(f"{path}: {v!r} is not {s['const']!r}")
    if "enum" in s and v not in s["enum"]:
        raise ValueError(f"{path}: {v!r} not in {s['enum']}")
    t = s.get("type")
    if t is not None:
        types = t if isinstance(t, list) else [t]
        ok = {
            "object": lambda x: isinstance(x, dict),
            "array": lambda x: isinstance(x, list),
            "string": lambda x: isinstance(x, str),
            "boolean": lambda x: isinstance(x, bool),
            "null": lambda x: x is None,
            "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
            "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
        }
        if not any(ok[k](v) for k in types):
            raise ValueError(f"{path}: {v!r} is not {t}")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in s and v < s["minimum"]:
            raise ValueError(f"{path}: {v} < {s['minimum']}")
        if "maximum" in s and v > s["maximum"]:
            raise ValueError(f"{path}: {v} > {s['maximum']}")
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                raise ValueError(f"{path}: missing {k!r}")
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                check(props[k], x, f"{path}.{k}")
            elif s.get("additionalProperties", True) is False:
                raise ValueError(f"{path}: unexpected {k!r}")
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            check(s["items"], x, f"{path}[{i}]")


def main():
    schema = json.load(open(sys.argv[1]))
    doc = json.load(open(sys.argv[2]) if len(sys.argv) > 2 else sys.stdin)
    try:
        import jsonschema
        jsonschema.validate(doc, schema)
    except ImportError:
        pass
    except Exception as e:  # jsonschema.ValidationError
        print(f"invalid: {str(e).splitlines()[0]}")
        sys.exit(1)
    try:
        check(schema, doc, "$")
    except ValueError as e:
        print(f"invalid: {e}")
        sys.exit(1)
    print("valid")


main()
