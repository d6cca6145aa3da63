"""Write skillmem_hook/search/data/en-freq.txt, how common each English search word is in English at large.

    pip download symspellpy==6.10.1 --no-deps -d symspell && unzip -q symspell/*.whl -d symspell
    python3 tools/english_frequency.py symspell/symspellpy/frequency_dictionary_en_82_765.txt

The source is SymSpell's English frequency dictionary (82,765 words with their
counts in the Google Books Ngram data, kept where SCOWL lists the word; shipped
in symspellpy, MIT; the counts are Google's, CC BY 3.0). Each word is made a
search word as a query's is (stop words dropped, stemmed: ``tokenize.tokens``),
the counts of words with one stem are summed, and the ``KEPT`` most frequent
stems are written with their Zipf value (log10 of their count per billion
of the dictionary's words, one decimal), one ``\\nstem\\tzipf`` line each, sorted by code point so
that a lookup is a binary search over the file's bytes (search/english.py).
The same input gives the same bytes. Needed here only, never at run time.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skillmem_hook.search.tokenize import tokens

OUT = Path(__file__).resolve().parent.parent / "skillmem_hook" / "search" / "data" / "en-freq.txt"
KEPT = 30000


def stem_counts(lines: list[str]) -> tuple[dict[str, int], int]:
    """Each search word's summed count, and the count of every word read (stop words too)."""
    counts: dict[str, int] = {}
    total = 0
    for line in lines:
        fields = line.split()
        if len(fields) != 2 or not fields[1].isdigit():
            continue
        count = int(fields[1])
        total += count
        words = tokens(fields[0])
        if len(words) == 1 and words[0].isascii() and words[0].isalpha():
            counts[words[0]] = counts.get(words[0], 0) + count
    return counts, total


def table(counts: dict[str, int], total: int, kept: int = KEPT) -> bytes:
    """The ``kept`` most frequent stems with their Zipf values, as sorted lines."""
    common = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:kept]
    rows = sorted((stem, math.log10(count / total * 1e9)) for stem, count in common)
    return ("\n" + "".join(f"{stem}\t{zipf:.1f}\n" for stem, zipf in rows)).encode("ascii")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    counts, total = stem_counts(Path(sys.argv[1]).read_text(encoding="utf-8").splitlines())
    OUT.write_bytes(table(counts, total))
    print(f"{OUT.name}: {min(KEPT, len(counts))} stems of {len(counts)}, {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
