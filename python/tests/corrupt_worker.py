# SPDX-License-Identifier: GPL-2.0
"""Read each input given through every table; one line per input:
"ok", "input OFFSET|- MESSAGE" or "other TYPE MESSAGE". Run in a child
process by test_errors.py, so that a crash is seen as one."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import lazytrace  # noqa: E402

for path in sys.argv[1:]:
    try:
        t = lazytrace.open(path)
        t.meta
        for name in lazytrace.TABLES:
            for row in t.table(name):
                pass
            if name == "events":
                pass
        print("ok", flush=True)
    except lazytrace.InputError as e:
        assert e.path == path, (e.path, path)
        print("input", "-" if e.offset is None else e.offset, e, flush=True)
    except Exception as e:		# anything else is a bug of ours
        print("other", type(e).__name__, e, flush=True)
