#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pairs.py N -- CMD1... -- CMD2...

Run CMD1 and CMD2 one after the other, N times (standard output to
/dev/null), and print three numbers: the median wall time of each, in
seconds, and the median of the N ratios CMD2 / CMD1 of the same pair.

On a VM whose speed drifts from one minute to the next, a ratio of two
medians taken minutes apart moves with the drift; the two runs of a pair
are taken a moment apart, and the median of their ratios does not.
"""
import os
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 6 or sys.argv[2] != '--' or '--' not in sys.argv[3:]:
        sys.exit(__doc__.strip().splitlines()[0])
    n = int(sys.argv[1])
    rest = sys.argv[3:]
    cut = rest.index('--')
    cmds = (rest[:cut], rest[cut + 1:])
    walls = ([], [])
    with open(os.devnull, 'wb') as null:
        for _ in range(n):
            for k, cmd in enumerate(cmds):
                start = time.perf_counter()
                subprocess.run(cmd, stdout=null, check=True)
                walls[k].append(time.perf_counter() - start)
    ratios = [b / a for a, b in zip(*walls)]
    print('%.4f %.4f %.3f' % (statistics.median(walls[0]),
                              statistics.median(walls[1]),
                              statistics.median(ratios)))


if __name__ == '__main__':
    main()
