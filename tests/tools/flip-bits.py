#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""flip-bits.py SRC DST SEED N: copy SRC to DST with N random bits flipped."""
import random
import sys

src, dst, seed, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = bytearray(open(src, 'rb').read())
rng = random.Random(seed)
for _ in range(n):
    i = rng.randrange(len(data))
    data[i] ^= 1 << rng.randrange(8)
open(dst, 'wb').write(data)
