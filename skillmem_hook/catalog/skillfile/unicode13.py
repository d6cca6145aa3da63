"""Which code points Unicode 13.0 assigns: the tables of Python 3.9, the oldest Python supported.

Names are checked against this pinned set, not the running interpreter's
tables, so that a character assigned later (a letter in Unicode 14, a format
character in Unicode 15) is refused by every Python alike instead of being
kept by one and skipped by another. Assignment never changes once made, so
every code point here is assigned on any newer Python too (a test checks).

Generated on Python 3.9 (unicodedata 13.0.0): the assigned ranges, each as
base-36 "gap.length", the gap counted from the end of the range before.
"""

from __future__ import annotations

import bisect

UNICODE_VERSION = "13.0.0"
_RANGES = (
    "0.on 2.5 4.6 1.0 1.j 1.b0 1.11 2.1d 2.2 1.1i 8.q 4.5 b.s 1.6n 1.1n 2.2s e.1m 2.1c 2.e 1.r 2.0 1.a 1h.k 1.h "
    "b.4w 1.7 2.1 2.l 1.6 1.0 3.3 2.8 2.1 2.3 8.0 4.1 1.4 2.o 2.2 1.5 4.1 2.l 1.6 1.1 1.1 1.1 2.0 1.4 4.1 2.2 3.0 "
    "7.3 1.0 7.g a.2 1.8 1.2 1.l 1.6 1.1 1.4 2.9 1.2 1.2 2.0 f.3 2.b 7.6 1.2 1.7 2.1 2.l 1.6 1.1 1.4 2.8 2.1 2.2 "
    "7.2 4.1 1.4 2.h a.1 1.5 3.2 1.3 3.1 1.0 1.1 3.1 3.2 3.b 4.4 3.2 1.3 2.0 6.0 e.k 5.c 1.2 1.m 1.f 3.7 1.2 1.3 "
    "7.1 1.2 5.3 2.9 7.l 1.2 1.m 1.9 1.4 2.8 1.2 1.3 7.1 7.0 1.3 2.9 1.1 d.c 1.2 1.1e 1.2 1.5 4.f 2.p 1.2 1.h 3.n "
    "1.8 1.0 2.6 3.0 4.5 1.0 1.7 6.9 2.2 c.1l 4.s 11.1 1.0 1.4 1.n 1.0 1.m 2.4 1.0 1.5 2.9 2.3 w.1z 1.z 4.12 1.z "
    "1.e 1.c 11.5h 1.0 5.0 2.ag 1.3 2.6 1.0 1.3 2.14 1.3 2.w 1.3 2.6 1.0 1.3 2.e 1.1k 1.3 2.1u 2.v 3.p 6.2d 2.5 "
    "2.ik 3.2g 7.c 1.6 b.m 9.j c.c 1.2 1.1 c.2l 2.9 6.9 6.e 1.9 6.2g 7.16 5.1x a.u 1.b 4.b 4.0 3.15 2.4 b.17 4.p "
    "6.a 3.1p 2.1s 1.s 2.a 6.9 6.d 2.g 1r.23 4.18 3.37 8.1n 3.e 3.1n 7.16 2.a 8.16 5.6x 1.7u 2.5 2.11 2.5 2.7 1.0 "
    "1.0 1.0 1.u 2.1g 1.e 1.d 2.5 1.i 2.2 1.8 1.2s 1.b 2.q 1.c 3.v g.w f.3v 4.ie p.a l.1eb 2.v 1.47 1.1a 1.43 "
    "5.18 1.0 5.0 2.1j 7.1 e.n 9.6 1.6 1.6 1.6 1.6 1.6 1.6 1.6 1.36 19.p 1.2g c.5x q.b 4.1r 1.2d 2.2u 5.16 1.2l "
    "1.2b c.1a 1.lp8 3.wc 3.1i 9.9n k.53 8.5b 2.8 16.1j 3.9 6.1j 8.1x 8.b 6.37 b.t 3.25 1.a 4.w 1.1i 9.d 2.9 2.2u "
    "o.r a.5 2.5 2.5 9.6 1.6 1.1n 4.3h 2.9 6.8mb c.m 4.1c 4.6st 2.2x 12.6 c.4 5.p 1.4 1.0 1.1 1.1 1.3f h.a4 g.1r "
    "2.1h 14.d 2.p 6.1e 1.i 1.3 4.4 1.3q 2.0 1.59 3.5 2.5 2.5 2.2 3.6 1.6 a.4 2.b 1.p 1.i 1.1 1.e 2.d y.3e 5.2 "
    "4.18 3.2f 1.c 3.0 1b.19 3m.s 3.1c f.r 4.z 9.t 5.16 5.t 1.10 4.d 16.4d 2.9 6.z 4.z 4.13 8.1f b.0 40.8m 9.l "
    "a.7 48.5 2.0 1.17 1.1 3.0 2.m 1.1z 8.8 1c.i 1.1 5.w 3.q 5.0 1s.1j 4.j 2.1d 1.1 5.7 1.2 1.s 2.2 4.9 7.8 7.1r "
    "w.12 4.b 9.1h 3.s 2.q 5.p 7.3 c.6 28.20 1j.1e d.1e 7.19 8.9 86.u 1.15 1.2 2.1 26.13 8.15 2e.r k.m 9.25 4.t "
    "f.1u b.0 2.o 7.9 6.1g 1.h 8.12 9.2n 1.j b.h 1.17 1t.6 1.0 1.3 1.e 1.a 6.1m 5.9 6.3 1.7 2.1 2.l 1.6 1.1 1.4 "
    "1.9 2.1 2.2 2.0 6.0 5.6 2.6 3.4 3v.2j 1.4 u.1z 8.9 4m.1h 2.11 y.1w b.9 6.c j.1k 7.9 1i.q 2.e 4.f 5c.1n 2s.2a "
    "c.7 2.0 2.7 1.1 1.t 1.1 2.b 9.9 1y.7 2.19 2.a r.1z 8.2a t.1k 7b.8 1.18 1.d a.s 3.v 2.l 1.d 21.6 1.1 1.17 3.0 "
    "1.1 1.8 8.9 6.5 1.1 1.10 1.1 1.5 7.9 8m.o 53.0 f.1d d.pm 2u.32 1.4 b.5f 24c.tq 1.8 347.g6 6nt.fs 7.u 1.9 4.1 "
    "2o.t 2.5 a.1x a.9 1.6 1.k 5.i j4.2i 2t.22 4.1k 7.g 1s.4 b.1 e.4qf 8.yd 16.8 6wn.7y 1d.2 h.3 8.az 1s4.2y 5.c "
    "3.8 7.9 2.7 3to.6t a.12 2.5b n.1x 4a.j c.2e 9.o 3r.2c 1.1y 1.1 2.0 2.1 2.3 1.b 1.0 1.6 1.1s 1.3 2.7 1.6 1.r "
    "1.3 1.4 1.0 3.6 1.9f 2.83 2.jh f.4 1.e 11s.6 1.g 2.6 1.1 1.4 5x.18 3.d 2.9 4.1 a8.1l 5.0 zk.5g 2.f 15.23 4.9 "
    "4.1 lt.1v 24.1o 5e.3 1.q 1.1 1.0 2.0 1.9 1.3 1.0 1.0 6.0 4.0 1.0 1.0 1.2 1.1 1.0 2.0 1.0 1.0 1.0 1.0 1.1 1.0 "
    "2.3 1.6 1.3 1.3 1.0 1.9 1.g 5.2 1.4 1.g 1g.1 7i.17 4.2r c.e 2.e 1.e 1.10 a.4t 1k.s d.17 4.8 7.1 e.5 4a.rb "
    "8.c 3.c 3.37 c.2g 7.b k.b 4.1j 8.9 6.13 8.t 2.1 26.3c 1.29 1.3q c.d 2.4 3.2 5.6 9.o 7.6 9.2 d.6 15.42 1.1i "
    "11.9 sm.wyl y.378 b.65 2.4g1 e.5rk 2e7.f1 15u.3t6 fcfq.0 u.2n 3k.6n 1e6o.1ekd 2.1ekd "
)


_TABLE: list[tuple[list[int], list[int]]] = []  # built on first use; functools' cache would load functools


def _table() -> tuple[list[int], list[int]]:
    if _TABLE:
        return _TABLE[0]
    starts: list[int] = []
    ends: list[int] = []
    end = -1
    for item in _RANGES.split():
        gap, length = item.split(".")
        start = end + 1 + int(gap, 36)
        end = start + int(length, 36)
        starts.append(start)
        ends.append(end)
    _TABLE.append((starts, ends))
    return starts, ends


def assigned_in_unicode_13(character: str) -> bool:
    """True when Unicode 13.0 assigns the character (so its properties do not depend on the Python)."""
    starts, ends = _table()
    index = bisect.bisect_right(starts, ord(character)) - 1
    return index >= 0 and ord(character) <= ends[index]
