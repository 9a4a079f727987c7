#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""back-in-time.py IN OUT

Send one CPU's times back inside a page of a little-endian version-6
trace.dat (trace-cmd convert --file-version 6): the last time-extend
record of the file (8 bytes, a delta) becomes an absolute time stamp of
the same size, set just after the file's first page time. The records
after it on that page then lie far before those around them, across
every cut in time that a reader with threads makes, while each page
still starts after the one before it (the check at open holds). Exits 1
when the file has no time extend.
"""
import struct
import sys

PADDING, TIME_EXTEND, TIME_STAMP = 29, 30, 31


def cpu_data(b):
    """(offset, size) of each CPU's pages, and the page size."""
    p = b.index(b"\0", 10) + 1		# past "\x17\x08Dtracing6\0"
    assert b[p] == 0, "big-endian file"
    page, = struct.unpack_from("<I", b, p + 2)
    at = b.rindex(b"flyrecord\0") + 10
    cpus = []
    while at + 16 <= len(b):
        off, size = struct.unpack_from("<QQ", b, at)
        if not off or off + size > len(b) or size % page:
            break
        cpus.append((off, size))
        at += 16
    return cpus, page


def extends(b, off, size, page):
    """Offsets of the time-extend records in the pages at off."""
    for pg in range(off, off + size, page):
        commit, = struct.unpack_from("<Q", b, pg + 8)
        q, end = pg + 16, pg + 16 + (commit & 0xfffff)
        while q < end:
            w, = struct.unpack_from("<I", b, q)
            kind = w & 31
            if kind == PADDING:
                break
            if kind == TIME_EXTEND:
                yield q
            if kind in (TIME_EXTEND, TIME_STAMP):
                q += 8
            elif kind == 0:
                n, = struct.unpack_from("<I", b, q + 4)
                q += 8 + ((n - 4 + 3) & ~3)
            else:
                q += 4 + kind * 4


def main():
    b = bytearray(open(sys.argv[1], "rb").read())
    cpus, page = cpu_data(b)
    found = [q for off, size in cpus for q in extends(b, off, size, page)]
    if not found:
        sys.exit(1)
    first = min(struct.unpack_from("<Q", b, off)[0] for off, _ in cpus if _)
    t = first + 1
    struct.pack_into("<II", b, found[-1], TIME_STAMP | (t & (2**27 - 1)) << 5,
                     t >> 27)
    open(sys.argv[2], "wb").write(b)


main()
