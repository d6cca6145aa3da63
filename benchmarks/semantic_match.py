"""The `match` word of a fused ranking: questions (tune half and proxy) against everyday turns, per cosine floor.

    python3 benchmarks/semantic_match.py

`fit_with_meaning` says 'weak' rather than 'none' when the encoder on its own
ranks the fused best hit first at a cosine of at least NEAR_ENOUGH. This prints,
for a few floors, how many questions the words call 'none' it lifts (their
right skill in the top 3, or not) and how many everyday turns
(benchmarks/data/everyday-*.txt, each asked of both collections) it lifts;
then the words each answer gets, before (the lexical rule on fused scores) and
now. Only the tune half and the proxy are read: the held-out half is left alone.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from crosslingual_proxy import DIRECTIONS, collection_of, proxy_sets  # noqa: E402
from search_quality import collection_roots  # noqa: E402
from semantic_quality import DATA, DEV, GROUPS, halves, machine  # noqa: E402

from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.confidence import fit  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402
from skillmem_hook.search.semantic import NEAR_ENOUGH, Encoder, SemanticIndex, fit_with_meaning, rank_with_meaning  # noqa: E402
from skillmem_hook.search.store import read_body  # noqa: E402

FLOORS = (0.40, NEAR_ENOUGH, 0.50)


def questions(catalogs, dev: Path) -> list[tuple[str, str, list[str] | None, str]]:  # type: ignore[no-untyped-def]
    """(kind, text, expected names or None for an everyday turn, collection)."""
    split = halves(dev)
    asked = [(group, str(q["query"]), list(q["expect"]), key) for group, _, key in GROUPS for q in split[group, "tune"]]  # type: ignore[call-overload]
    proxy = proxy_sets(catalogs["cn"], catalogs["en"])
    asked += [(d, str(q["query"]), list(q["expect"]), collection_of(d)) for d in DIRECTIONS for q in proxy[d]]  # type: ignore[call-overload]
    for path in sorted((HERE / "data").glob("everyday-*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            asked += [("everyday", line, None, key) for key in catalogs if line.strip()]
    return asked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, default=DEV, help="the folder of dev-{cn,en,xl}.jsonl")
    options = parser.parse_args()
    catalogs = {key: scan_roots([root]).skills for key, root in collection_roots(DATA).items()}
    lexical = {key: SearchIndex.build(s, bodies=[read_body(k) for k in s]) for key, s in catalogs.items()}
    encoder = Encoder()
    meanings = {key: SemanticIndex(skills, encoder) for key, skills in catalogs.items()}
    lifted: Counter[tuple[float, str]] = Counter()
    called_none: Counter[str] = Counter()
    words: Counter[tuple[str, str, str]] = Counter()
    for _, text, expect, key in questions(catalogs, options.dev):
        index, meaning = lexical[key], meanings[key]
        hits = rank_with_meaning(index, meaning, text, 10)
        right = "everyday" if expect is None else "right" if any(h.skill.name in expect for h in hits[:3]) else "wrong"
        before, now = fit(index, text, hits), fit_with_meaning(index, meaning, text, hits)
        words[right, "before", before] += 1
        words[right, "now", now] += 1
        if hits and index.evidence(text, hits[0]) < min(2, index.typed_words(text)):  # the words say 'none'
            called_none[right] += 1
            similarity = meaning.similarities(text)
            nearest = max(range(len(similarity)), key=lambda n: (similarity[n], -n))
            for floor in FLOORS:
                lifted[floor, right] += meaning.skills[nearest] is hits[0].skill and similarity[nearest] >= floor
    print(f"Measured {machine()}; encoder `{encoder.model}`.\n")
    print("| cosine floor | questions called 'none', right in the top 3: lifted | wrong: lifted | everyday: lifted |")
    print("|---|---:|---:|---:|")
    for floor in FLOORS:
        cells = [f"{lifted[floor, r]} of {called_none[r]}" for r in ("right", "wrong", "everyday")]
        print(f"| {floor:.2f}{' (shipped)' if floor == NEAR_ENOUGH else ''} | " + " | ".join(cells) + " |")
    print("\n| answers | match | before | now |\n|---|---|---:|---:|")
    for right in ("right", "wrong", "everyday"):
        for word in ("strong", "weak", "none"):
            print(f"| {right} | {word} | {words[right, 'before', word]} | {words[right, 'now', word]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
