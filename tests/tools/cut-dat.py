#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cut-dat.py V6 OUT REF CUT | empty-clock V6 OUT

Cut a version-6 trace.dat: OUT holds its first CUT bytes, as a full disk
or an upload limit leaves it; REF is the whole file with its CPU table
saying what OUT still holds whole (each CPU's data up to its last page
that ends before CUT, none past it), which trace-cmd reads as it is.
Prints the offset where the kept data ends (the first CPU whose data is
cut: its last whole page's end).

empty-clock: OUT is V6 with its TRACECLOCK option made empty, as
trace-cmd 2.9 writes it: the option's bytes become an option of an id no
reader knows, so that every other offset stays right.
"""
import struct
import sys


def cpu_table(d):
    """The top buffer's "flyrecord\\0" CPU table: (offset, [(off, size)])."""
    t = d.rindex(b'flyrecord\0') + 10
    p = d.rindex(b'options  \0', 0, t) if b'options  \0' in d[:t] else None
    # the CPU count precedes "options  " (or "flyrecord" without options)
    q = p if p is not None else t - 10
    ncpu, = struct.unpack_from('<I', d, q - 4)
    return t, [struct.unpack_from('<QQ', d, t + 16 * i) for i in range(ncpu)]


def options(d):
    """(id, offset of the header, size) of each v6 option."""
    p = d.index(b'options  \0') + 10
    out = []
    while True:
        oid, = struct.unpack_from('<H', d, p)
        if oid == 0:
            return out
        size, = struct.unpack_from('<I', d, p + 2)
        out.append((oid, p, size))
        p += 6 + size


def main():
    if sys.argv[1] == 'empty-clock':
        d = bytearray(open(sys.argv[2], 'rb').read())
        for oid, p, size in options(d):
            if oid == 4 and size >= 6:
                struct.pack_into('<HI', d, p, 4, 0)
                struct.pack_into('<HI', d, p + 6, 0x7ffe, size - 6)
                open(sys.argv[3], 'wb').write(d)
                return
        raise SystemExit('no TRACECLOCK option')
    src, out, ref, cut = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    d = bytearray(open(src, 'rb').read())
    page, = struct.unpack_from('<I', d, d.index(b'\0', 10) + 1 + 2)
    open(out, 'wb').write(d[:cut])
    t, cpus = cpu_table(d)
    end = 0
    for i, (off, size) in enumerate(cpus):
        if size and off + size > cut:
            whole = max(0, (cut - off) // page * page) if off < cut else 0
            struct.pack_into('<Q', d, t + 16 * i + 8, whole)
            if not end:
                end = off + whole
    open(ref, 'wb').write(d)
    print(end)


if __name__ == '__main__':
    main()
