#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkseed.py SRC.dat DST.dat [PAGES]

Shrink a trace.dat (file version 6, as `trace-cmd convert --file-version 6`
writes it) into a small fuzzing seed that still reads as a real trace:
the header page/event formats as they are, only the event formats the
analysis knows, a few kallsyms lines, no printk formats, the first PAGES
(default 2) ring-buffer pages of every CPU of the buffer that holds the
events. Fuzzers mutate small inputs far better than 1 MB of kallsyms.
"""
import re
import struct
import sys

KNOWN = {
    'sched': {'sched_switch', 'sched_waking', 'sched_wakeup',
              'sched_wakeup_new', 'sched_process_exit', 'sched_process_fork',
              'sched_migrate_task'},
    'irq_vectors': {'local_timer_entry', 'local_timer_exit',
                    'reschedule_entry', 'reschedule_exit'},
    'timer': {'hrtimer_expire_entry', 'hrtimer_expire_exit'},
    'irq': {'softirq_entry', 'softirq_exit'},
    'raw_syscalls': {'sys_enter', 'sys_exit'},
}
KSYMS = re.compile(rb' (resched_curr\w*|sched_tick|\w*tick\w*|hrtimer_wakeup|'
                   rb'\w*_timer_fn|it_real_fn)$')


class Reader:
    def __init__(self, data):
        self.d, self.p, self.bo = data, 0, '<'

    def take(self, n):
        b = self.d[self.p:self.p + n]
        if len(b) != n:
            raise SystemExit('truncated input')
        self.p += n
        return b

    def u(self, fmt):
        return struct.unpack(self.bo + fmt, self.take(struct.calcsize(fmt)))[0]

    def cstr(self):
        e = self.d.index(b'\0', self.p)
        s = self.d[self.p:e]
        self.p = e + 1
        return s


def name_of(fmt):
    m = re.search(rb'^name: (\S+)', fmt, re.M)
    return m.group(1).decode() if m else ''


def flyrecord(r, ncpus):
    if r.take(10) != b'flyrecord\0':
        raise SystemExit('no flyrecord section')
    return [(r.u('Q'), r.u('Q')) for _ in range(ncpus)]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    pages = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    r = Reader(open(src, 'rb').read())
    out = bytearray()
    magic = r.take(10)
    version = r.cstr()
    if version != b'6':
        raise SystemExit('need file version 6 (trace-cmd convert --file-version 6)')
    endian = r.take(1)
    # the file's byte order for every number after this byte
    bo = r.bo = '>' if endian == b'\1' else '<'
    lsize, psize = r.take(1), r.u('I')
    out += magic + version + b'\0' + endian + lsize + struct.pack(bo + 'I', psize)
    for tag in (b'header_page\0', b'header_event\0'):
        if r.take(len(tag)) != tag:
            raise SystemExit('bad header section')
        n = r.u('Q')
        out += tag + struct.pack(bo + 'Q', n) + r.take(n)
    fmts = [r.take(r.u('Q')) for _ in range(r.u('I'))]
    fmts = [f for f in fmts if name_of(f) == 'function']
    out += struct.pack(bo + 'I', len(fmts))
    for f in fmts:
        out += struct.pack(bo + 'Q', len(f)) + f
    systems = []
    for _ in range(r.u('I')):
        sysname = r.cstr().decode()
        evs = [r.take(r.u('Q')) for _ in range(r.u('I'))]
        evs = [e for e in evs if name_of(e) in KNOWN.get(sysname, ())]
        if evs:
            systems.append((sysname, evs))
    out += struct.pack(bo + 'I', len(systems))
    for sysname, evs in systems:
        out += sysname.encode() + b'\0' + struct.pack(bo + 'I', len(evs))
        for e in evs:
            out += struct.pack(bo + 'Q', len(e)) + e
    ksyms = r.take(r.u('I'))
    ksyms = b'\n'.join([l for l in ksyms.split(b'\n') if KSYMS.search(l)][:64])
    out += struct.pack(bo + 'I', len(ksyms)) + ksyms
    r.take(r.u('I'))				# printk formats: dropped
    out += struct.pack(bo + 'I', 0)
    cmdlines = r.take(r.u('Q'))[:2048]
    cmdlines = cmdlines[:cmdlines.rfind(b'\n') + 1]
    out += struct.pack(bo + 'Q', len(cmdlines)) + cmdlines
    ncpus = r.u('I')
    out += struct.pack(bo + 'I', ncpus)
    if r.take(10) != b'options  \0':
        raise SystemExit('no options section')
    where = None
    while True:
        opt = r.u('H')
        if opt == 0:
            break
        data = r.take(r.u('I'))
        if opt == 3 and where is None:	# BUFFER: offset, name
            where = struct.unpack(bo + 'Q', data[:8])[0]
            # trace-cmd 3.1's convert writes this offset in the host's
            # byte order, not the file's
            if where >= len(r.d):
                where = struct.unpack('<Q', data[:8])[0]
    out += b'options  \0' + struct.pack(bo + 'H', 0)
    cpus = flyrecord(r, ncpus)
    if all(size == 0 for _, size in cpus) and where is not None:
        r.p = where
        cpus = flyrecord(r, ncpus)
    out += b'flyrecord\0'
    table = len(out)
    out += b'\0' * 16 * ncpus
    clock = b'[local]\0'
    out += struct.pack(bo + 'Q', len(clock)) + clock
    for cpu, (off, size) in enumerate(cpus):
        size = min(size, pages * psize)
        out += b'\0' * (-len(out) % psize)
        struct.pack_into(bo + 'QQ', out, table + 16 * cpu, len(out), size)
        out += r.d[off:off + size]
    open(dst, 'wb').write(out)


if __name__ == '__main__':
    main()
