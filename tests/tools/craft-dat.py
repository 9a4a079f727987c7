#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""craft-dat.py V6 V7 OUTDIR

Write trace.dat files that claim more than they hold, each derived from a
real recording by overwriting a few bytes in place (so that every other
offset stays right): V6 is a version-6 file (trace-cmd convert
--file-version 6), V7 the zstd-compressed version-7 recording. Prints one
line per case: "FILE<TAB>REGEX<TAB>EXIT", the message lazytrace must give
(^$: none) and its exit status.
"""
import os
import struct
import sys


class V6:
    """Where things are in a version-6 file."""

    def __init__(self, data):
        self.d = data
        p = data.index(b'\0', 10) + 1 + 6
        for tag in (b'header_page\0', b'header_event\0'):
            p += len(tag)
            n, = struct.unpack_from('<Q', data, p)
            p += 8 + n
        self.ftrace_count = p
        n, = struct.unpack_from('<I', data, p)
        p += 4
        for _ in range(n):
            size, = struct.unpack_from('<Q', data, p)
            p += 8 + size
        self.systems = p
        n, = struct.unpack_from('<I', data, p)
        p += 4
        self.formats = []	# (offset of the size word, size)
        for _ in range(n):
            p = data.index(b'\0', p) + 1
            c, = struct.unpack_from('<I', data, p)
            p += 4
            for _ in range(c):
                size, = struct.unpack_from('<Q', data, p)
                self.formats.append((p, size))
                p += 8 + size
        self.kallsyms = p
        p += 4 + struct.unpack_from('<I', data, p)[0]
        p += 4 + struct.unpack_from('<I', data, p)[0]
        self.cmdlines = p
        p += 8 + struct.unpack_from('<Q', data, p)[0]
        self.cpus = p
        self.ncpus, = struct.unpack_from('<I', data, p)
        # The CPU tables: every "flyrecord\0" (top buffer, instances).
        self.tables = []
        q = p
        while True:
            q = data.find(b'flyrecord\0', q)
            if q < 0:
                break
            self.tables.append(q + 10)
            q += 10
        # The buffer with data: its first CPU's first page.
        for t in self.tables:
            off, size = struct.unpack_from('<QQ', data, t)
            if size:
                self.table, self.page = t, off
                break

    def event(self, name):
        for p, size in self.formats:
            if b'\nname: ' + name + b'\n' in b'\n' + self.d[p + 8:p + 8 + 64]:
                return p + 8, size
        raise SystemExit('no format %s' % name)


class V7:
    """Where things are in a version-7 file (options not compressed)."""

    def __init__(self, data):
        self.d = data
        p = data.index(b'\0', 10) + 1 + 6
        p = data.index(b'\0', p) + 1
        p = data.index(b'\0', p) + 1
        self.first_options, = struct.unpack_from('<Q', data, p)
        self.options = []	# (section offset, [(id, offset of data, size)])
        off = self.first_options
        while off:
            sid, flags, _, size = struct.unpack_from('<HHIQ', data, off)
            assert sid == 0 and not flags & 1, 'options must be plain'
            q, end, opts, nxt = off + 16, off + 16 + size, [], 0
            while q < end:
                oid, osz = struct.unpack_from('<HI', data, q)
                opts.append((oid, q + 6, osz))
                if oid == 0:
                    nxt, = struct.unpack_from('<Q', data, q + 6)
                    self.done = q + 6
                    break
                q += 6 + osz
            self.options.append((off, opts))
            off = nxt

    def option(self, oid, want_cpus=False):
        for _, opts in self.options:
            for i, p, size in opts:
                if i == oid and (not want_cpus or self.buffer_cpus(p)[1]):
                    return p, size
        raise SystemExit('no option %d' % oid)

    def buffer_cpus(self, p):
        """A BUFFER option's CPU count: (its offset, value)."""
        q = self.d.index(b'\0', p + 8) + 1
        q = self.d.index(b'\0', q) + 1 + 4
        return q, struct.unpack_from('<I', self.d, q)[0]


def put(data, off, fmt, value):
    out = bytearray(data)
    struct.pack_into('<' + fmt, out, off, value)
    return out


def main():
    v6, v7, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    d6, d7 = open(v6, 'rb').read(), open(v7, 'rb').read()
    a, b = V6(d6), V7(d7)
    cases = []

    def case(name, data, regex, rc=2):
        path = os.path.join(outdir, name + '.dat')
        open(path, 'wb').write(data)
        cases.append((path, regex, rc))

    # Claimed counts and sizes (version 6).
    case('v6-cpus-4g', put(d6, a.cpus, 'I', 0xffffffff), r'4294967295 CPUs')
    case('v6-cpus-1m', put(d6, a.cpus, 'I', 1000000), r'1000000 CPUs')
    case('v6-systems-4g', put(d6, a.systems, 'I', 0xffffffff),
         r'event systems do not fit')
    case('v6-ftrace-4g', put(d6, a.ftrace_count, 'I', 0xffffffff),
         r'4294967295 formats \(an ftrace event\) do not fit')
    case('v6-format-huge', put(d6, a.formats[0][0], 'Q', 1 << 62),
         r'an event format .* runs past the end of the file')
    case('v6-kallsyms-4g', put(d6, a.kallsyms, 'I', 0xfffffff0),
         r'kallsyms .* runs past the end of the file')
    case('v6-cmdlines-huge', put(d6, a.cmdlines, 'Q', 1 << 63),
         r'saved command lines .* runs past the end of the file')
    # The last CPU's data past the end of the file is a file cut short:
    # read up to its last whole page, exit 3. The first CPU's would run
    # into the next one's pages: no cut does that.
    last = a.table + 16 * (a.ncpus - 1)
    case('v6-cpu-data-huge', put(d6, last + 8, 'Q', 1 << 40),
         r'truncated trace.dat: .* cut short at offset %d' % len(d6), 3)
    case('v6-cpu0-data-huge', put(d6, a.table + 8, 'Q', 1 << 40),
         r'CPU data .* runs past the end of the file')
    # Deep recursion: sched_switch's print format, same length, nested.
    p, size = a.event(b'sched_switch')
    fmt = d6.index(b'print fmt: ', p) + len(b'print fmt: ')
    n = (p + size - fmt - 1) // 2
    # Only its own event suffers: the file reads, exit 0.
    case('v6-print-fmt-deep', d6[:fmt] + b'(' * n + b')' * n +
         d6[fmt + 2 * n:], r'^$', 0)
    # A page past the first blocks, which the reader checks only when it
    # reads it: the same error, from lt_reader_next().
    late = a.page + 32 * 4096
    case('v6-late-page-commit', put(d6, late + 8, 'Q', 0x7ffffff),
         r'page commits 134217727 bytes, .* at offset %d ' % late)
    # A string left open: libtraceevent would read on to the next quote.
    last = d6.index(b', REC->next_prio\n', fmt)
    case('v6-print-fmt-open-string', d6[:last + 1] + b'"' + d6[last + 2:],
         r'^$', 0)
    # Endless pages: a padding event that points back to itself, which
    # kbuffer would walk forever; a commit larger than any page.
    hdr = a.page + 16
    pad = put(d6, hdr, 'I', 29 | 1 << 5)
    case('v6-page-loop', put(pad, hdr + 4, 'I', 0xfffffffc),
         r'padding of length -4 goes backwards')
    case('v6-page-commit', put(d6, a.page + 8, 'Q', 0x7ffffff),
         r'page commits 134217727 bytes')

    # Version 7: compressed sections, option chains, buffers.
    p, _ = b.option(16)
    sec, = struct.unpack_from('<Q', d7, p)
    case('v7-section-4g', put(d7, sec + 16 + 4, 'I', 0xffffffff),
         r'claim 4294967295 uncompressed')
    case('v7-options-loop', put(d7, b.done, 'Q', b.first_options),
         r'options section does not move forward')
    p, _ = b.option(8)
    case('v7-cpucount-1m', put(d7, p, 'I', 1000000), r'1000000 CPUs')
    p, _ = b.option(3, want_cpus=True)
    q, ncpu = b.buffer_cpus(p)
    case('v7-buffer-cpus', put(d7, q, 'I', 0x7fffffff),
         r'claims 2147483647 CPUs')
    cpu_off, = struct.unpack_from('<Q', d7, q + 4 + 4)
    case('v7-chunks-4g', put(d7, cpu_off, 'I', 0xffffffff),
         r'4294967295 chunks do not fit')
    case('v7-chunk-huge', put(d7, cpu_off + 4 + 4, 'I', 0xfffff000),
         r'claim 4294963200 uncompressed')
    for path, regex, rc in cases:
        print('%s\t%s\t%d' % (path, regex, rc))


if __name__ == '__main__':
    main()
