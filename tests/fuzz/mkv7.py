#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkv7.py SRC.dat DST.dat zlib|zstd|none

Write a version-6 trace.dat (a mkseed.py seed) as version 7 with its
sections and CPU data compressed by zlib (or zstd, through the zstd
command, or not at all), laid out as trace-cmd.dat.v7(5) describes:
sections for the headers, formats, kallsyms, printk formats and command
lines, two options sections, a flyrecord section with one chunk per CPU.
Debian 12's trace-cmd writes zstd only; this gives the fuzzer zlib seeds.
Only the top buffer is written (instances are dropped): for files that
trace-cmd reads as its own, tests/tools/v7-recompress.py.
"""
import struct
import subprocess
import sys
import zlib


def squeeze(algo, data):
    if algo == 'zlib':
        return zlib.compress(data, 9)
    return subprocess.run(['zstd', '-q', '-c', '-19'], input=data,
                          stdout=subprocess.PIPE, check=True).stdout


def main():
    src, dst, algo = sys.argv[1], sys.argv[2], sys.argv[3]
    d = open(src, 'rb').read()
    if d[10:12] != b'6\0':
        raise SystemExit('need a version 6 file')
    p = 12
    endian, lsize = d[p], d[p + 1]
    bo = '>' if endian == 1 else '<'	# the file's byte order
    psize, = struct.unpack_from(bo + 'I', d, p + 2)
    p += 6
    start = p
    for tag in (b'header_page\0', b'header_event\0'):
        p += len(tag)
        p += 8 + struct.unpack_from(bo + 'Q', d, p)[0]
    parts = {16: d[start:p]}
    q = p
    p += 4
    for _ in range(struct.unpack_from(bo + 'I', d, q)[0]):
        p += 8 + struct.unpack_from(bo + 'Q', d, p)[0]
    parts[17] = d[q:p]
    q = p
    p += 4
    for _ in range(struct.unpack_from(bo + 'I', d, q)[0]):
        p = d.index(b'\0', p) + 1
        n, = struct.unpack_from(bo + 'I', d, p)
        p += 4
        for _ in range(n):
            p += 8 + struct.unpack_from(bo + 'Q', d, p)[0]
    parts[18] = d[q:p]
    for sid, width in ((19, 'I'), (20, 'I'), (21, 'Q')):
        q = p
        p += struct.calcsize(width) + struct.unpack_from(bo + width, d, p)[0]
        parts[sid] = d[q:p]
    ncpus, = struct.unpack_from(bo + 'I', d, p)
    fly = d.index(b'flyrecord\0', p) + 10
    cpus = [struct.unpack_from(bo + 'QQ', d, fly + 16 * i) for i in range(ncpus)]

    flag = 0 if algo == 'none' else 1
    ver = {'zlib': b'1.2.13', 'zstd': b'1.5.4', 'none': b''}[algo]
    out = bytearray(d[:10] + b'7\0' + bytes([endian, lsize]) +
                    struct.pack(bo + 'I', psize))
    out += algo.encode() + b'\0' + ver + b'\0'
    opt_at = len(out)
    out += b'\0' * 8

    def section(sid, body, compress=True):
        at = len(out)
        if flag and compress:
            c = squeeze(algo, body)
            body = struct.pack(bo + 'II', len(c), len(body)) + c
        out.extend(struct.pack(bo + 'HHIQ', sid, flag if compress else 0, 0,
                               len(body)) + body)
        return at

    offsets = {sid: section(sid, body) for sid, body in parts.items()}
    # The flyrecord section: page-aligned CPU data, one chunk per CPU.
    fly_at = len(out)
    out += struct.pack(bo + 'HHIQ', 3, flag, 0, 0)
    table = []
    for cpu, (off, size) in enumerate(cpus):
        out += b'\0' * (-len(out) % psize)
        data = d[off:off + size]
        at = len(out)
        if flag and size:
            c = squeeze(algo, data)
            out += struct.pack(bo + 'I', 1) + struct.pack(bo + 'II', len(c), size) + c
            size = len(out) - at - 4
        else:
            out += data
        table.append((cpu, at, size))
    struct.pack_into(bo + 'Q', out, fly_at + 8, len(out) - fly_at - 16)

    def options(opts, nxt):
        body = b''.join(struct.pack(bo + 'HI', i, len(v)) + v for i, v in opts)
        return section(0, body + struct.pack(bo + 'HIQ', 0, 8, nxt), False)

    buf = struct.pack(bo + 'Q', fly_at) + b'\0local\0' + \
        struct.pack(bo + 'II', psize, ncpus) + \
        b''.join(struct.pack(bo + 'IQQ', *t) for t in table)
    # Options sections follow each other: the first's DONE points on.
    first = options([(sid, struct.pack(bo + 'Q', at)) for sid, at in
                     offsets.items()] + [(8, struct.pack(bo + 'I', ncpus))], 0)
    done = len(out) - 8
    struct.pack_into(bo + 'Q', out, done, options([(3, buf)], 0))
    struct.pack_into(bo + 'Q', out, opt_at, first)
    open(dst, 'wb').write(out)


if __name__ == '__main__':
    main()
