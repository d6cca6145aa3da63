"""Time the marker scan on hostile prompt files: is it linear in the file's size?

    python3 benchmarks/markers.py [--lines 10000,80000,320000] [--runs 3]

For each line count and line ending (LF, CRLF, CR-only) it builds a file of
that many BEGIN marker lines (the worst case: every line is a marker) and a
file of ordinary text with one block, and prints the median time of
``find_markers`` on each, with the time per line. Linear means the last
column stays flat as the line count grows.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skillmem_hook.block.markers import BEGIN_MARKER, END_MARKER, find_markers
from skillmem_hook.errors import MarkerError

ENDINGS = {"LF": b"\n", "CRLF": b"\r\n", "CR": b"\r"}


def hostile(lines: int, newline: bytes) -> bytes:
    return (BEGIN_MARKER.encode() + newline) * lines


def ordinary(lines: int, newline: bytes) -> bytes:
    text = (b"Some prose about the project, <<<SKILL_INDEX_ mentioned inline." + newline) * lines
    return text + newline.join([BEGIN_MARKER.encode(), b"[general]", b"alpha", END_MARKER.encode()]) + newline


def median_seconds(data: bytes, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        with contextlib.suppress(MarkerError):
            find_markers(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", default="10000,80000,320000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'file':<9} {'ending':<6} {'lines':>9} {'MB':>7} {'median ms':>10} {'us/line':>8}")
    for kind, build in (("hostile", hostile), ("ordinary", ordinary)):
        for ending, newline in ENDINGS.items():
            for lines in (int(value) for value in args.lines.split(",")):
                data = build(lines, newline)
                seconds = median_seconds(data, args.runs)
                print(
                    f"{kind:<9} {ending:<6} {lines:>9,} {len(data) / 1e6:>7.1f} {seconds * 1e3:>10.1f}"
                    f" {seconds * 1e6 / lines:>8.2f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
