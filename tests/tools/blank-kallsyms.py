#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Blank the kallsyms section of a version 6 trace.dat, in place.

The section keeps its length (filled with newlines), so every file
offset after it stays right: the result reads like a recording made
without the kernel's symbols (record --no-kallsyms, or a user that
/proc/kallsyms shows zeros). Prints the number of bytes blanked.
"""
import struct
import sys


def main(path):
    with open(path, "r+b") as f:
        d = bytearray(f.read())
        if d[:10] != b"\x17\x08\x44tracing" or d[10:12] != b"6\0":
            sys.exit("%s: not a version 6 trace.dat" % path)
        end = "<" if d[12] == 0 else ">"
        pos = 12 + 1 + 1 + 4

        def u32():
            nonlocal pos
            v = struct.unpack_from(end + "I", d, pos)[0]
            pos += 4
            return v

        def u64():
            nonlocal pos
            v = struct.unpack_from(end + "Q", d, pos)[0]
            pos += 8
            return v

        def cstr():
            nonlocal pos
            e = d.index(b"\0", pos)
            s = bytes(d[pos:e])
            pos = e + 1
            return s

        for name in (b"header_page", b"header_event"):
            if cstr() != name:
                sys.exit("%s: no %s section" % (path, name.decode()))
            n = u64()
            pos += n
        for _ in range(u32()):          # ftrace formats
            n = u64()
            pos += n
        for _ in range(u32()):          # event systems
            cstr()
            for _ in range(u32()):
                n = u64()
                pos += n
        size = u32()
        if pos + size > len(d):
            sys.exit("%s: kallsyms section past the end" % path)
        d[pos:pos + size] = b"\n" * size
        f.seek(0)
        f.write(d)
    print(size)


if __name__ == "__main__":
    main(sys.argv[1])
