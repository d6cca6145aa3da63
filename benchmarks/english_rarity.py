"""An English word's rarity from English at large (search/english.py): each variant's hit@3 on every tuning set.

    python3 benchmarks/english_rarity.py                 # lexical and fused, odd and even ids, each variant
    python3 benchmarks/english_rarity.py --lexical       # without the semantic leg

Each variant is a ``Tuning`` (``english_length``: the words of the English
texts a word's general frequency is spread over; 0 is off, the baseline, and 200 the default since set L) put
on the indexes the ``Judge`` of ``request_sets.py`` builds once; the rankings
are those ``unseen_set.py --tuning --semantic`` scores. Prints hit@3 per
(set, group, half, ranking) for the baseline, then for each variant the cells
that differ from it, marked UP or DOWN. A query's vector is encoded once for
every variant (the variants change no text the encoder reads).
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from request_sets import TUNING_SETS, Judge, collection_roots, read_requests  # noqa: E402

from skillmem_hook.search.evaluate import rank_of  # noqa: E402
from skillmem_hook.search.tuning import Tuning  # noqa: E402

VARIANTS: dict[str, dict[str, float | bool]] = {
    f"English texts of {length} words": {"english_length": float(length)} for length in (100, 150, 200, 250, 300)
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexical", action="store_true", help="without the semantic leg")
    parser.add_argument("--only", action="append", default=[], help="only these variants (by name)")
    parser.add_argument("--vectors", default=None, help="a prefix for the judge's vector caches")
    options = parser.parse_args()
    semantic = not options.lexical
    judge = Judge(collection_roots(), semantic=semantic, vectors=options.vectors)
    if semantic:
        for meaning in judge.meanings.values():
            encode = meaning.encoder.encode  # type: ignore[attr-defined]
            memo = functools.lru_cache(maxsize=None)(lambda texts, encode=encode: encode(list(texts)))
            meaning.encoder.encode = lambda texts, memo=memo: memo(tuple(texts))  # type: ignore[attr-defined]
    requests = [(name, r) for name, paths in TUNING_SETS.items() for r in read_requests(paths)]
    rankings = ["lexical", "fused"] if semantic else ["lexical"]
    chosen = {name: knobs for name, knobs in VARIANTS.items() if not options.only or name in options.only}
    variants = {"base": {"english_length": 0.0}, **chosen}
    table: dict[str, dict[tuple[str, str, str, str], list[int]]] = {}
    for label, knobs in variants.items():
        tuning = Tuning(**knobs)
        for index in judge.lexical.values():
            index.tuning = tuning
        cells: dict[tuple[str, str, str, str], list[int]] = {}
        for name, request in requests:
            half = "odd" if request.number % 2 else "even"
            for ranking in rankings:
                ranked = judge.ranked(request.collection, request.query, semantic=ranking == "fused")
                rank = rank_of(ranked, request.expect)
                hit = 1 if 0 < rank <= 3 else 0
                for key in ((name, request.group, half, ranking), ("all", request.group, half, ranking)):
                    cells.setdefault(key, []).append(hit)
        table[label] = cells
        _report(label, table["base"], cells)
    return 0


def _report(label: str, base: dict[tuple[str, str, str, str], list[int]], cells: dict) -> None:  # type: ignore[type-arg]
    print(f"\n## {label}", flush=True)
    for key in sorted(cells):
        before, after = sum(base[key]) / len(base[key]), sum(cells[key]) / len(cells[key])
        if label == "base" or round(before, 3) != round(after, 3):
            mark = "" if label == "base" else ("  UP" if after > before else "  DOWN")
            print(f"{' '.join(key)} n={len(cells[key])}: {before:.3f} -> {after:.3f}{mark}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
