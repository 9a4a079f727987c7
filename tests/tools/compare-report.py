#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `lazytrace report` output with the kernel's own text output.

usage: compare-report.py [--latency] [--min PCT] [--table FILE]
                         KERNEL_TEXT LAZYTRACE_OUTPUT
       compare-report.py --trace-cmd KERNEL_LAT_TEXT TRACE_CMD_OUTPUT

Checks that the flag field (five characters; four before 5.13, which had
no migrate-disable column) is identical on every event and
that whole lines are identical on at least PCT % of events (default 99),
after two normalisations that no reader of a trace.dat can avoid:
  - pointers the kernel prints with %p are hashed with a per-boot secret
    (on 64-bit: 00000000 and the 32-bit hash, 16 digits); lazytrace prints
    the raw value as the kernel does with no_hash_pointers, so a 16-digit
    kernel value starting with 8 zeros matches any 16-digit value;
    A pointer whose raw value the trace cannot give (computed from a
    kernel variable: vmemmap_base, arm64's memstart_addr) lazytrace
    prints as the kernel's own placeholder, (____ptrval____), or
    (ptrval) on a 32-bit kernel; it matches a hashed kernel value only;
  - latency-format times are relative to the buffer's reset time, which a
    trace.dat does not record; lazytrace uses the first event.
Prints a summary line, up to 5 differing pairs and, per event type that
differs, the lines differing, the total and one example (to stdout, and to
FILE with --table); exits 1 on failure.

With --trace-cmd the second file is `trace-cmd report -l` output (any
libtraceevent): only the flag field is compared, since trace-cmd formats
times and event fields its own way, on events matched one to one (same
pid and CPU, in order). The summary gives the share of events whose flag
field is the kernel's; it exits 1 unless that is 100%.
"""
import re
import sys

HASHED = re.compile(r'(hrtimer|timer|ptr|skbaddr|page)=(?:[0-9a-f]{8,16}\b|\(____ptrval____\)|\(ptrval\))')
WITHHELD = '(____ptrval____)'
HEX16 = re.compile(r'\b([0-9a-f]{16})\b')
DEFAULT = re.compile(r'^(.*?-\d+) +(\(.{5,7}\) )?\[(\d{3})\] (\S{4,5}) +(\d+\.\d+): (.*)$')
LATENCY = re.compile(r'^(.{8}-\d+) +(\d+)(\S{4,5}) +(\d+)us(.): (.*)$')
# trace-cmd report -l: "[instance: ]comm-pid CPUflags seconds: event: ..."
TRACE_CMD = re.compile(r'^(?:\S+: )?.*?-(\d+) +(\d+)(\S+) +\d+\.\d+: ')
# the event's name as its info starts: "name: ", syscalls' "sys_x(" and
# "sys_x -> ", the function tracer's "func <-parent"
NAME = re.compile(r'^([^\s:(]+)(: |\(| -> | <-)?')


def events(path):
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('#') or not line.strip():
                continue
            yield line


def key(line, latency):
    m = (LATENCY if latency else DEFAULT).match(line)
    if not m:
        return None, None, ''
    flags = m.group(3) if latency else m.group(4)
    info = m.group(6)
    if latency:
        norm = '%s %s%s T%s: %s' % (m.group(1), m.group(2), flags,
                                    m.group(5), info)
    else:
        norm = line
    return flags, HASHED.sub(r'\1=PTR', norm), info


def same_but_hashed(kn, on):
    """Equal once each hashed kernel pointer is matched with a raw one."""
    # a withheld pointer stands for any hashed value (8 zeros first)
    kp, op = HEX16.split(kn), HEX16.split(on.replace(WITHHELD, 'f' * 16))
    if len(kp) != len(op):
        return False
    for i, (a, b) in enumerate(zip(kp, op)):
        if a != b and not (i % 2 and a.startswith('00000000')):
            return False
    return True


def event_type(info):
    m = NAME.match(info)
    if not m or not m.group(1):
        return '?'
    name, sep = m.group(1), m.group(2)
    if sep == '(':
        return 'syscalls:enter'
    if sep == ' -> ':
        return 'syscalls:exit'
    if sep == ' <-' or sep is None:
        return 'function'
    return name


def trace_cmd_events(path):
    for line in events(path):
        if line.startswith('cpus='):
            continue
        yield line


def compare_trace_cmd(kernel_text, trace_cmd_text):
    # Only an event's first line has a flag field: a kernel stack's
    # " => frame" lines and text an event prints after a newline (a
    # syscall's user buffer) are continuation lines on both sides.
    kall = list(events(kernel_text))
    oall = list(trace_cmd_events(trace_cmd_text))
    kern = [l for l in kall if LATENCY.match(l)]
    ours = [l for l in oall if TRACE_CMD.match(l)]
    if len(kall) != len(kern) or len(oall) != len(ours):
        print('%s: continuation lines set aside: kernel %d, trace-cmd %d'
              % (kernel_text, len(kall) - len(kern), len(oall) - len(ours)))
    if len(kern) != len(ours):
        print('%s: event count differs: kernel %d, trace-cmd %d'
              % (kernel_text, len(kern), len(ours)))
        return 1
    same = shown = 0
    for k, o in zip(kern, ours):
        km, om = LATENCY.match(k), TRACE_CMD.match(o)
        if km and om and km.group(3) == om.group(3) and \
                km.group(1).rsplit('-', 1)[1] == om.group(1) and \
                int(km.group(2)) == int(om.group(2)):
            same += 1
        elif shown < 5:
            print('kernel:    ' + k)
            print('trace-cmd: ' + o)
            shown += 1
    n = len(kern)
    pct = 100.0 * same / n if n else 0
    print('%s: %d events, flag field as the kernel prints it on %d (%.3f%%)'
          % (kernel_text, n, same, pct))
    return 0 if n and same == n else 1


def main():
    args = sys.argv[1:]
    if args and args[0] == '--trace-cmd':
        return compare_trace_cmd(args[1], args[2])
    latency = False
    minimum = 99.0
    table = None
    while args and args[0].startswith('--'):
        opt = args.pop(0)
        if opt == '--latency':
            latency = True
        elif opt == '--min':
            minimum = float(args.pop(0))
        elif opt == '--table':
            table = args.pop(0)
        else:
            print('compare-report.py: unknown option ' + opt)
            return 2
    kern, ours = list(events(args[0])), list(events(args[1]))
    if len(kern) != len(ours):
        print('event count differs: kernel %d, lazytrace %d'
              % (len(kern), len(ours)))
        return 1
    flag_bad = line_bad = 0
    shown = 0
    per_type = {}
    for k, o in zip(kern, ours):
        kf, kn, kinfo = key(k, latency)
        of, on, _ = key(o, latency)
        # a line with no flag field (a hex dump's continuation, say) only
        # has to be the same line
        if (kf != of or kf is None) and k != o:
            flag_bad += 1
        t = per_type.setdefault(event_type(kinfo), [0, 0, None])
        t[1] += 1
        if kn != on and not (kn and on and same_but_hashed(kn, on)):
            line_bad += 1
            t[0] += 1
            if t[2] is None:
                t[2] = (k, o)
            if shown < 5:
                print('kernel:    ' + k)
                print('lazytrace: ' + o)
                shown += 1
    n = len(kern)
    same = 100.0 * (n - line_bad) / n if n else 0
    summary = ('%s: %d events of %d types, flag fields differ on %d, '
               'lines identical %.3f%% (%d differ)'
               % (args[0], n, len(per_type), flag_bad, same, line_bad))
    rows = sorted(((v[0], v[1], t, v[2]) for t, v in per_type.items()
                   if v[0]), key=lambda r: (-r[0], r[2]))
    out = [summary]
    if rows:
        out.append('  %-36s %8s %8s  example (kernel / lazytrace)'
                   % ('event type', 'differ', 'total'))
    for bad, total, t, (k, o) in rows:
        out.append('  %-36s %8d %8d  %s' % (t, bad, total,
                                            key(k, latency)[2][:100]))
        out.append('  %-36s %8s %8s  %s' % ('', '', '',
                                            key(o, latency)[2][:100]))
    print('\n'.join(out))
    if table:
        with open(table, 'a') as f:
            f.write('%s%s\n' % ('latency ' if latency else 'default ',
                                '\n'.join(out)))
    return 0 if n and flag_bad == 0 and same >= minimum else 1


if __name__ == '__main__':
    sys.exit(main())
