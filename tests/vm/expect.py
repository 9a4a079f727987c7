# SPDX-License-Identifier: GPL-2.0
"""The host-side VM checks' one way to say a result: expect() prints a
PASS or FAIL line and keeps the failures; finish() says how it went and
exits 1 when any expectation was not met."""
import sys

failed = []


def expect(tag, what, ok, found):
	line = "%s %-14s %-44s %s" % ("PASS" if ok else "FAIL", tag, what, found)
	print(line)
	if not ok:
		failed.append(line)


def finish(name):
	if failed:
		print("%s: %d expectation(s) not met:" % (name, len(failed)))
		for line in failed:
			print("  " + line)
		sys.exit(1)
	print("%s: all expectations met" % name)
