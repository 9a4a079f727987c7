#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mk-big-dat.py SRC.dat DST.dat SIZE_MB SPAN_NS [FROM_NS TO_NS]

A trace.dat of about SIZE_MB megabytes made of SRC.dat's ring-buffer pages
repeated: copy k of every CPU's pages has its page timestamps moved by
k * SPAN_NS, so the events follow each other in time on every CPU and the
same tasks run on for as long as the file lasts. Everything before the
pages (formats, kallsyms, cmdlines, options) is SRC's, byte for byte. For
bench-scale.sh: memory that grows with the events, not with the tasks,
shows on this file as it would on a long recording.

SRC must be file version 6 (trace-cmd convert --file-version 6 makes one
of a version 7 file), its events in one buffer: the top one, or one
instance with the top one empty. SPAN_NS must be
at least the time from SRC's first event to its last (lazytrace table
meta: last_ns - first_ns), and its clock count in nanoseconds ("local",
"global", "mono"...).

With FROM_NS and TO_NS, only the pages that begin in that window are
repeated, and SPAN_NS is ignored: a window in which no task is born or
dies makes a file whose tasks stay the same however long it is.
"""
import os
import struct
import sys

# the version-6 reader of tests/fuzz/mkseed.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'tests', 'fuzz'))
from mkseed import Reader  # noqa: E402


def skip_headers(r):
    """Moves past everything up to the flyrecord table; returns the CPU
    count and the page size."""
    r.take(10)
    if r.cstr() != b'6':
        raise SystemExit('mk-big-dat: %s: need file version 6' % sys.argv[1])
    r.bo = '>' if r.take(1) == b'\1' else '<'
    r.take(1)
    psize = r.u('I')
    for tag in (b'header_page\0', b'header_event\0'):
        if r.take(len(tag)) != tag:
            raise SystemExit('mk-big-dat: bad header section')
        r.take(r.u('Q'))
    for _ in range(r.u('I')):
        r.take(r.u('Q'))
    for _ in range(r.u('I')):
        r.cstr()
        for _ in range(r.u('I')):
            r.take(r.u('Q'))
    r.take(r.u('I'))		# kallsyms
    r.take(r.u('I'))		# printk formats
    r.take(r.u('Q'))		# cmdlines
    ncpus = r.u('I')
    if r.take(10) != b'options  \0':
        raise SystemExit('mk-big-dat: no options section')
    buffers = []
    while True:
        opt = r.u('H')
        if opt == 0:
            break
        data = r.take(r.u('I'))
        if opt == 3:	# BUFFER: where an instance's flyrecord is
            buffers.append(struct.unpack(r.bo + 'Q', data[:8])[0])
    return ncpus, psize, buffers


def flyrecord(r, ncpus):
    if r.take(10) != b'flyrecord\0':
        raise SystemExit('mk-big-dat: no flyrecord section at %d' % (r.p - 10))
    return [(r.u('Q'), r.u('Q')) for _ in range(ncpus)]


def cut(d, bo, psize, cpus, window):
    """Each CPU's pages that begin in the window, and the span that puts
    a copy after every event of the one before: a page's events come
    before the next page's timestamp."""
    lo, hi = window
    out, end = [], hi
    for off, size in cpus:
        bases = [struct.unpack_from(bo + 'Q', d, off + p)[0]
                 for p in range(0, size - 7, psize)]
        sel = [i for i, ts in enumerate(bases) if lo <= ts < hi]
        if not sel:
            out.append((off, 0))
            continue
        nxt = sel[-1] + 1
        end = max(end, bases[nxt] if nxt < len(bases) and bases[nxt] else hi + 10**9)
        out.append((off + sel[0] * psize, len(sel) * psize))
    return out, end - lo


def main():
    if len(sys.argv) not in (5, 7):
        raise SystemExit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    size_mb, span = int(sys.argv[3]), int(sys.argv[4])
    window = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) == 7 else None
    r = Reader(open(src, 'rb').read())
    ncpus, psize, buffers = skip_headers(r)
    bo = r.bo
    cpus = flyrecord(r, ncpus)
    if all(size == 0 for _, size in cpus) and len(buffers) == 1:
        # an instance's recording: the top buffer (and its options) as
        # they are, the instance's pages repeated, at the same offset
        r.p = buffers[0]
        cpus = flyrecord(r, ncpus)
    elif buffers:
        raise SystemExit('mk-big-dat: %s: events in more than one buffer' % src)
    head = r.d[:r.p - 16 * ncpus]
    clock = r.take(r.u('Q'))
    if window:
        cpus, span = cut(r.d, bo, psize, cpus, window)
    per_copy = sum(-(-size // psize) * psize for _, size in cpus)
    copies = max(1, size_mb * 1024 * 1024 // per_copy)
    with open(dst, 'wb') as out:
        out.write(head)
        table = out.tell()
        out.write(b'\0' * 16 * ncpus)
        out.write(struct.pack(bo + 'Q', len(clock)) + clock)
        where = []
        for off, size in cpus:
            pad = -out.tell() % psize
            out.write(b'\0' * pad)
            start = out.tell()
            pages = bytearray(r.d[off:off + size])
            stamps = [struct.unpack_from(bo + 'Q', pages, p)[0]
                      for p in range(0, size - 7, psize)]
            for k in range(copies):
                shift = k * span
                for i, ts in enumerate(stamps):
                    if ts:
                        struct.pack_into(bo + 'Q', pages, i * psize, ts + shift)
                out.write(pages)
            where.append((start, out.tell() - start))
        out.seek(table)
        for start, size in where:
            out.write(struct.pack(bo + 'QQ', start, size))
    print('mk-big-dat: %s: %d copies of %s, %d CPUs' % (dst, copies, src, ncpus))


if __name__ == '__main__':
    main()
