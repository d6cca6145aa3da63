"""A cross-lingual check nobody tuned for: each English skill asked for by its Chinese twin's description, and back.

The Chinese collection is largely a translation of the English one (the same
folder names). For each English skill whose folder also holds a Chinese skill:

- zh>en: the twin's description, cut at its "触发词" (trigger words) and colon tail, with
  every ASCII word removed (product names would match word for word), first 40
  characters, asked of the English collection; expected: the English skill.
- en>zh: the English description's first 12 words, asked of the Chinese
  collection; expected: the Chinese twin.

Twins are sorted by folder and shuffled with random.Random(7); the first 250 are
the set. Nobody wrote a glossary entry from these questions; the dictionary's
weight and its two meanings a word, and the fusion weights, were chosen on it
(or on a first version of it, with another ASCII cut) and on the dev set's
tune half, so from then on it is tuning data, not a held-out set.

    python3 benchmarks/crosslingual_proxy.py    # lexical (glossary, dictionary, both) against fused

Collections: SKILLS_CN_ROOT / SKILLS_EN_ROOT, or else the archives in
../shared/data/collections are extracted to a temporary folder.
"""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

TWINS = 250
SEED = 7
CHINESE_CHARACTERS = 40
ENGLISH_WORDS = 12
DIRECTIONS = ("zh>en", "en>zh")  # query language > collection language
_TRIGGER_TAIL = re.compile(r"触发词\s*[:\uff1a]")
_ASCII_WORD = re.compile(r"[!-~]+")


def chinese_query(description: str) -> str:
    """A Chinese description as a question: before its trigger words, no ASCII word, 40 characters."""
    head = _TRIGGER_TAIL.split(description, maxsplit=1)[0]
    return " ".join(_ASCII_WORD.sub(" ", head).split())[:CHINESE_CHARACTERS]


def english_query(description: str) -> str:
    return " ".join(description.split()[:ENGLISH_WORDS])


def proxy_sets(cn_skills, en_skills):  # type: ignore[no-untyped-def]
    """direction -> [{"query", "expect"}]: the twins' questions (an empty question is left out)."""

    def folder(skill) -> str:  # type: ignore[no-untyped-def]
        return os.path.basename(skill.path.rstrip("/"))

    twins = {folder(skill): skill for skill in cn_skills}
    pairs = sorted((skill for skill in en_skills if folder(skill) in twins), key=folder)
    random.Random(SEED).shuffle(pairs)
    sets: dict[str, list[dict[str, object]]] = {direction: [] for direction in DIRECTIONS}
    for english in pairs[:TWINS]:
        chinese = twins[folder(english)]
        for direction, query, expect in (
            ("zh>en", chinese_query(chinese.description), english.name),
            ("en>zh", english_query(english.description), chinese.name),
        ):
            if query:
                sets[direction].append({"query": query, "expect": [expect]})
    return sets


def collection_of(direction: str) -> str:
    return direction.rsplit(">", 1)[1].replace("zh", "cn")


def main() -> int:
    from search_quality import collection_roots

    from skillmem_hook.catalog.scan import scan_roots
    from skillmem_hook.search.evaluate import rank_of, ranking_figures
    from skillmem_hook.search.rank import SearchIndex
    from skillmem_hook.search.semantic import Encoder, SemanticIndex, rank_with_meaning
    from skillmem_hook.search.store import read_body
    from skillmem_hook.search.tuning import Tuning

    catalogs = {key: scan_roots([root]).skills for key, root in collection_roots().items()}
    sets = proxy_sets(catalogs["cn"], catalogs["en"])
    bodies = {key: [read_body(skill) for skill in skills] for key, skills in catalogs.items()}
    encoder = Encoder()
    meanings = {key: SemanticIndex(skills, encoder) for key, skills in catalogs.items()}

    def lexical(**tuning):  # type: ignore[no-untyped-def]
        indexes = {
            key: SearchIndex.build(s, tuning=Tuning(**tuning), bodies=bodies[key]) for key, s in catalogs.items()
        }
        return lambda key, intent: indexes[key].query(intent, 10)

    indexes = {key: SearchIndex.build(skills, bodies=bodies[key]) for key, skills in catalogs.items()}
    rankers = [
        ("lexical, glossary alone", lexical(dictionary_weight=0.0)),
        ("lexical, dictionary alone", lexical(glossary_weight=0.0)),
        ("lexical, both (today's ranking)", lambda key, intent: indexes[key].query(intent, 10)),
        ("fused, x0.4 (0.3.0)", lambda key, intent: rank_with_meaning(indexes[key], meanings[key], intent, 10, 0.4)),
        ("fused, shipped weights", lambda key, intent: rank_with_meaning(indexes[key], meanings[key], intent, 10)),
    ]
    counts = ", ".join(f"{direction} {len(sets[direction])}" for direction in DIRECTIONS)
    print(f"Cross-lingual proxy ({counts} questions)\n")
    print("| ranking | " + " | ".join(f"{d} hit@1 | {d} hit@3 | {d} hit@10" for d in DIRECTIONS) + " |")
    print("|---" * (1 + 3 * len(DIRECTIONS)) + "|")
    for label, rank in rankers:
        cells = []
        for direction in DIRECTIONS:
            key = collection_of(direction)
            ranks = []
            for question in sets[direction]:
                names = list(dict.fromkeys(hit.skill.name for hit in rank(key, str(question["query"]))))
                ranks.append(rank_of(names, question["expect"]))  # type: ignore[arg-type]
            figures = ranking_figures(ranks)
            cells += [f"{figures[f'hit@{k}']:.3f}" for k in (1, 3, 10)]
        print(f"| {label} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
