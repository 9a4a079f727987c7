#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""v7-recompress.py IN.dat OUT.dat zlib|zstd

Rewrite a version-7 trace.dat that trace-cmd wrote (compressed or not)
with its sections and CPU data compressed by another algorithm, keeping
trace-cmd's layout: the same sections in the same order, CPU data page
aligned in chunks of the same uncompressed sizes, every offset in the
options moved to where its section or data now lies. trace-cmd writes
zlib as well as zstd (its compress-zlib.c), but Debian's build has zstd
only; this makes the zlib files such a trace-cmd writes. `zstd` (through
the zstd command) checks this script against trace-cmd's own output.
"""
import struct
import subprocess
import sys
import zlib

OPT_DONE, OPT_BUFFER, OPT_BUFFER_TEXT = 0, 3, 22
SECTION_OFFSETS = range(16, 22)    # HEADER_INFO .. CMDLINES: a u64 offset


def run(cmd, data):
    return subprocess.run(cmd, input=data, stdout=subprocess.PIPE,
                          check=True).stdout


class Codec:
    def __init__(self, name):
        self.name = name

    def pack(self, data):
        if self.name == 'zlib':
            return zlib.compress(data, 9)
        if self.name == 'zstd':
            return run(['zstd', '-q', '-c', '-19'], data)
        raise SystemExit('unknown algorithm ' + self.name)

    def unpack(self, data, size):
        if self.name == 'zlib':
            out = zlib.decompress(data)
        elif self.name == 'zstd':
            out = run(['zstd', '-q', '-d', '-c'], data)
        else:
            raise SystemExit('unknown algorithm ' + self.name)
        if len(out) != size:
            raise SystemExit('a block does not decompress to its size')
        return out


def main():
    src, dst, algo = sys.argv[1:4]
    d = open(src, 'rb').read()
    if d[10:12] != b'7\0':
        raise SystemExit('need a version 7 file')
    e = '<' if d[12] == 0 else '>'
    psize, = struct.unpack_from(e + 'I', d, 14)
    p = 18
    n = d.index(b'\0', p)
    old_name = d[p:n].decode()
    p = d.index(b'\0', n + 1) + 1
    old = Codec(old_name) if old_name != 'none' else None
    new = Codec(algo)
    ver = zlib.ZLIB_VERSION if algo == 'zlib' else '1.5.4'
    first_opts, = struct.unpack_from(e + 'Q', d, p)
    p += 8

    # Every section, in file order: (offset, id, flags, string id, body)
    sections = []
    while p < len(d):
        sid, flags, sname, size = struct.unpack_from(e + 'HHIQ', d, p)
        sections.append((p, sid, flags, sname, d[p + 16:p + 16 + size]))
        p += 16 + size

    def body_of(flags, body):
        if not flags & 1:
            return body
        csize, usize = struct.unpack_from(e + 'II', body, 0)
        return old.unpack(body[8:8 + csize], usize)

    def block(data):
        c = new.pack(data)
        return struct.pack(e + 'II', len(c), len(data)) + c

    # The CPU data of each flyrecord section, from the BUFFER options.
    cpus = {}               # old flyrecord section offset -> [(off, size)]
    for at, sid, flags, _, body in sections:
        if sid != 0:
            continue
        o = body_of(flags, body)
        q = 0
        while q < len(o):
            oid, osz = struct.unpack_from(e + 'HI', o, q)
            v = o[q + 6:q + 6 + osz]
            if oid == OPT_BUFFER:
                fly, = struct.unpack_from(e + 'Q', v, 0)
                r = v.index(b'\0', 8) + 1
                r = v.index(b'\0', r) + 1
                _, ncpu = struct.unpack_from(e + 'II', v, r)
                r += 8
                cpus[fly] = [struct.unpack_from(e + 'IQQ', v, r + 20 * i)
                             for i in range(ncpu)]
            q += 6 + osz

    out = bytearray(d[:18] + algo.encode() + b'\0' + ver.encode() + b'\0')
    opt_at = len(out)
    out += b'\0' * 8
    moved = {}              # old offset (section or CPU data) -> new
    sizes = {}              # old CPU data offset -> new size
    later = []              # options sections: written once offsets are known
    for at, sid, flags, sname, body in sections:
        moved[at] = len(out)
        if sid == 0:
            later.append((len(out), flags, sname, body_of(flags, body)))
            out += b'\0' * (16 + len(body))     # placeholder
            continue
        if sid == 3:
            # The flyrecord: what precedes the first CPU's data, then
            # each CPU's data page aligned, in chunks as they were.
            start = len(out)
            out += struct.pack(e + 'HHIQ', sid, 1, sname, 0)
            data_at = sorted(c for c in cpus.get(at, []) if c[2])
            head = body[:data_at[0][1] - at - 16] if data_at else body
            # padding up to the first CPU's page, which moves
            if head.count(0) != len(head):
                out += head
            for _, off, size in data_at:
                out += b'\0' * (-len(out) % psize)
                moved[off] = len(out)
                if flags & 1:
                    nchunk, = struct.unpack_from(e + 'I', d, off)
                    r = off + 4
                    chunks = []
                    for _ in range(nchunk):
                        cs, us = struct.unpack_from(e + 'II', d, r)
                        chunks.append(old.unpack(d[r + 8:r + 8 + cs], us))
                        r += 8 + cs
                else:
                    raw = d[off:off + size]
                    step = 10 * psize
                    chunks = [raw[i:i + step]
                              for i in range(0, len(raw), step)]
                here = len(out)
                out += struct.pack(e + 'I', len(chunks))
                for c in chunks:
                    out += block(c)
                sizes[off] = len(out) - here
            struct.pack_into(e + 'Q', out, start + 8, len(out) - start - 16)
            continue
        data = block(body_of(flags, body)) if flags & 1 or sid != 0 \
            else body
        out += struct.pack(e + 'HHIQ', sid, 1, sname, len(data)) + data

    def moved_to(off):
        return moved[off] if off else 0

    # Options sections rewritten in place: the same options, offsets
    # moved. Left uncompressed as trace-cmd leaves them; their size does
    # not change, so the placeholder fits.
    for new_at, flags, sname, o in later:
        r = bytearray(o)
        q = 0
        while q < len(r):
            oid, osz = struct.unpack_from(e + 'HI', r, q)
            v = q + 6
            if oid in SECTION_OFFSETS or oid == OPT_DONE or \
               oid == OPT_BUFFER_TEXT:
                off, = struct.unpack_from(e + 'Q', r, v)
                struct.pack_into(e + 'Q', r, v, moved_to(off))
            elif oid == OPT_BUFFER:
                fly, = struct.unpack_from(e + 'Q', r, v)
                struct.pack_into(e + 'Q', r, v, moved[fly])
                s = r.index(b'\0', v + 8) + 1
                s = r.index(b'\0', s) + 1
                _, ncpu = struct.unpack_from(e + 'II', r, s)
                s += 8
                for i in range(ncpu):
                    cid, off, size = struct.unpack_from(e + 'IQQ', r,
                                                        s + 20 * i)
                    if size:
                        struct.pack_into(e + 'IQQ', r, s + 20 * i, cid,
                                         moved[off], sizes[off])
            q += 6 + osz
        if flags & 1:
            raise SystemExit('compressed options sections: not written')
        struct.pack_into(e + 'HHIQ', out, new_at, 0, 0, sname, len(r))
        out[new_at + 16:new_at + 16 + len(r)] = r
    struct.pack_into(e + 'Q', out, opt_at, moved_to(first_opts))
    open(dst, 'wb').write(out)


if __name__ == '__main__':
    main()
