"""The semantic leg on long requests: each lever of round three's second pass, on every tuning set.

    python3 benchmarks/semantic_long.py                 # hit@3 per set and group, for every lever
    python3 benchmarks/semantic_long.py --body-lead     # and the same with the body's lead in each skill's vector

Chooses nothing: it prints one row per lever, replayed on the same indexes,
queries and vectors (each text is encoded once). The columns: set T
(contextual, tuning), set D's odd ids (``D1``, tuned on in this pass) and even
ids (``D2``, held back from the choice), set D by group, and the short sets
(dev, B, C) by group. Set D was held out in round three's first pass and
scored once at 038b364; it is tuning data now. Needs the ``[semantic]``
extra; collections as ``unseen_set.py`` finds them.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from request_sets import DATA, TUNING_SETS, Judge, Request, collection_roots, read_requests, request_cosines  # noqa: E402

from skillmem_hook.search.evaluate import rank_of  # noqa: E402
from skillmem_hook.search.fusion import SEMANTIC_WEIGHT, fuse_scores, semantic_weight  # noqa: E402
from skillmem_hook.search.semantic import MAX_TEXT_CHARS, POOL, SemanticIndex, skill_text  # noqa: E402
from skillmem_hook.search.store import read_body  # noqa: E402
from skillmem_hook.search.tokenize import CJK  # noqa: E402

SETS = {**TUNING_SETS, "D": [DATA / "requests-d"]}


class Prepared:
    """One request's lexical candidates and the cosines of its whole text, its ask and its sentences."""

    def __init__(self, request: Request, lexical: dict[int, float], typed: int, across: bool) -> None:
        self.request = request
        self.lexical = lexical
        self.typed = typed
        self.across = across
        self.whole: list[float] = []
        self.ask: list[float] | None = None
        self.sentences: list[list[float]] = []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--body-lead", type=int, default=0, help="characters of the body added to each vector")
    parser.add_argument("--vectors", default=None, help="a vector cache path prefix (kept between runs)")
    options = parser.parse_args()
    judge = Judge(collection_roots(), semantic=True, vectors=options.vectors)
    if options.body_lead:
        judge.meanings = {key: _with_body_lead(judge, key, options.body_lead, options.vectors) for key in judge.skills}
    requests = {name: read_requests(paths) for name, paths in SETS.items()}
    prepared = {name: [_prepare(judge, r) for r in found] for name, found in requests.items()}
    _encode_all(judge, [p for found in prepared.values() for p in found])
    print("| lever | " + " | ".join(_COLUMNS) + " |")
    print("|---|" + "---:|" * len(_COLUMNS))
    for label, lever in LEVERS.items():
        ranks = {name: [(p.request, lever(judge, p)) for p in found] for name, found in prepared.items()}
        print(f"| {label} | " + " | ".join(_cells(ranks)) + " |")
    return 0


def _with_body_lead(judge: Judge, key: str, lead: int, vectors: str | None) -> SemanticIndex:
    meaning = judge.meanings[key]
    bodies = {id(skill): read_body(skill)[:lead] for skill in judge.skills[key]}

    def text(skill):  # type: ignore[no-untyped-def]
        return f"{skill_text(skill)} {bodies[id(skill)]}"[:MAX_TEXT_CHARS]

    cache = None if vectors is None else f"{vectors}-lead{lead}-{key}.bin"
    return SemanticIndex(judge.skills[key], meaning.encoder, cache, text=text)  # type: ignore[attr-defined]


def _prepare(judge: Judge, request: Request) -> Prepared:
    index = judge.lexical[request.collection]
    meaning = judge.meanings[request.collection]
    number = {id(skill): n for n, skill in enumerate(meaning.skills)}  # type: ignore[attr-defined]
    hits = index.query(request.query, POOL)
    lexical = {number[id(hit.skill)]: hit.score for hit in hits}
    across = re.search(f"[{CJK}]", request.query) is None
    return Prepared(request, lexical, index.typed_words(request.query), across)


def _encode_all(judge: Judge, prepared: list[Prepared]) -> None:
    for p, cosines in zip(prepared, request_cosines(judge, [p.request for p in prepared])):
        p.whole = cosines.whole.tolist()
        p.ask = None if cosines.ask is None else cosines.ask.tolist()
        p.sentences = [sentence.tolist() for sentence in cosines.sentences]


def _fused(judge: Judge, p: Prepared, similarity: list[float], weight: float, *, pool: int = POOL) -> int:
    meaning = judge.meanings[p.request.collection]
    skills = meaning.skills  # type: ignore[attr-defined]
    lexical = dict(sorted(p.lexical.items(), key=lambda item: (-item[1], skills[item[0]].name))[:pool])
    nearest = sorted(range(len(similarity)), key=lambda n: (-similarity[n], n))[:pool] if pool == POOL else []
    semantic = {n: similarity[n] for n in {*lexical, *nearest}}
    fused = fuse_scores(lexical, semantic, weight)
    ranked = sorted(fused, key=lambda n: (-round(fused[n], 4), skills[n].name, skills[n].label))
    names = list(dict.fromkeys(skills[n].name for n in ranked[:10]))
    return rank_of(names, p.request.expect)


def _weight(judge: Judge, p: Prepared) -> float:
    return semantic_weight(not p.across, judge.meanings[p.request.collection].cjk_share)  # type: ignore[attr-defined]


def _lexical(judge: Judge, p: Prepared) -> int:
    skills = judge.meanings[p.request.collection].skills  # type: ignore[attr-defined]
    ranked = sorted(p.lexical, key=lambda n: (-round(p.lexical[n], 4), skills[n].name, skills[n].label))
    return rank_of(list(dict.fromkeys(skills[n].name for n in ranked[:10])), p.request.expect)


def _by_length(floor: int, *, ask: bool = False, least: float = 0.0):  # type: ignore[no-untyped-def]
    """The weight shrinks as floor / typed past ``floor`` typed words (not below ``least`` of it)."""

    def lever(judge: Judge, p: Prepared) -> int:
        scale = 1.0 if p.typed <= floor else max(least, floor / p.typed)
        return _fused(judge, p, _ask_or_whole(p) if ask else p.whole, _weight(judge, p) * scale)

    return lever


def _across_by_length(floor: int, *, ask: bool = False):  # type: ignore[no-untyped-def]
    """Only the lean across scripts shrinks, as floor / typed past ``floor`` typed words."""

    def lever(judge: Judge, p: Prepared) -> int:
        weight = _weight(judge, p)
        scale = 1.0 if p.typed <= floor else floor / p.typed
        weight = SEMANTIC_WEIGHT + (weight - SEMANTIC_WEIGHT) * scale
        return _fused(judge, p, _ask_or_whole(p) if ask else p.whole, weight)

    return lever


def _long(floor: int, text: str, weight: str):  # type: ignore[no-untyped-def]
    """Past ``floor`` typed words only: encode ``text`` (ask, mean, whole), scale ``weight`` (all, lean, none)."""

    def lever(judge: Judge, p: Prepared) -> int:
        base = _weight(judge, p)
        if p.typed <= floor:
            return _fused(judge, p, p.whole, base)
        similarity = {"ask": _ask_or_whole(p), "mean": _mixed(_ask_or_whole(p), p.whole), "whole": p.whole}[text]
        scale = floor / p.typed
        chosen = {
            "all": base * scale,
            "lean": SEMANTIC_WEIGHT + (base - SEMANTIC_WEIGHT) * scale,
            "none": base,
        }[weight]
        return _fused(judge, p, similarity, chosen)

    return lever


def _long_words(floor: int, cjk_share: float):  # type: ignore[no-untyped-def]
    """As ``_long(floor, "ask", "all")``, a CJK query's typed bigrams counting ``cjk_share`` of a word each."""

    def lever(judge: Judge, p: Prepared) -> int:
        base = _weight(judge, p)
        typed = p.typed if p.across else p.typed * cjk_share
        if typed <= floor:
            return _fused(judge, p, p.whole, base)
        return _fused(judge, p, _ask_or_whole(p), base * floor / typed)

    return lever


def _long_least(floor: int, least: float, *, only_with_ask: bool = False):  # type: ignore[no-untyped-def]
    """As ``_long(floor, "ask", "all")``, its scale at least ``least`` (or only when a sentence asks)."""

    def lever(judge: Judge, p: Prepared) -> int:
        base = _weight(judge, p)
        if p.typed <= floor or (only_with_ask and p.ask is None):
            return _fused(judge, p, p.whole, base)
        return _fused(judge, p, _ask_or_whole(p), base * max(least, floor / p.typed))

    return lever


def _ask_or_whole(p: Prepared) -> list[float]:
    return p.ask if p.ask is not None else p.whole


def _mixed(a: list[float], b: list[float]) -> list[float]:
    return [(x + y) / 2 for x, y in zip(a, b)]


def _sentence_max(p: Prepared) -> list[float]:
    return [max(column) for column in zip(*p.sentences)]


LEVERS = {
    "lexical alone": _lexical,
    "fused, shipped": lambda j, p: _fused(j, p, p.whole, _weight(j, p)),
    "weight x 8/typed past 8": _by_length(8),
    "weight x 12/typed past 12": _by_length(12),
    "weight x 16/typed past 16": _by_length(16),
    "weight x 20/typed past 20": _by_length(20),
    "weight x 12/typed past 12, at least .5": _by_length(12, least=0.5),
    "ask encoded (whole when none)": lambda j, p: _fused(j, p, _ask_or_whole(p), _weight(j, p)),
    "ask and whole averaged": lambda j, p: _fused(j, p, _mixed(_ask_or_whole(p), p.whole), _weight(j, p)),
    "sentence max": lambda j, p: _fused(j, p, _sentence_max(p), _weight(j, p)),
    "sentence max and whole averaged": lambda j, p: _fused(j, p, _mixed(_sentence_max(p), p.whole), _weight(j, p)),
    "re-rank the lexical top 10": lambda j, p: _fused(j, p, p.whole, _weight(j, p), pool=10),
    "re-rank the lexical top 20": lambda j, p: _fused(j, p, p.whole, _weight(j, p), pool=20),
    "ask encoded, weight x 12/typed past 12": _by_length(12, ask=True),
    "ask encoded, weight x 16/typed past 16": _by_length(16, ask=True),
    "ask encoded, re-rank top 10": lambda j, p: _fused(j, p, _ask_or_whole(p), _weight(j, p), pool=10),
    "base weight .4 across scripts too": lambda j, p: _fused(j, p, p.whole, 0.4),
    "past 12 typed: ask, weight all": _long(12, "ask", "all"),
    "past 12 typed: ask, weight lean": _long(12, "ask", "lean"),
    "past 12 typed: ask, weight none": _long(12, "ask", "none"),
    "past 12 typed: mean, weight all": _long(12, "mean", "all"),
    "past 12 typed: mean, weight lean": _long(12, "mean", "lean"),
    "past 12 typed: mean, weight none": _long(12, "mean", "none"),
    "past 16 typed: ask, weight all": _long(16, "ask", "all"),
    "past 16 typed: ask, weight lean": _long(16, "ask", "lean"),
    "past 16 typed: ask, weight none": _long(16, "ask", "none"),
    "past 16 typed: mean, weight all": _long(16, "mean", "all"),
    "past 16 typed: mean, weight lean": _long(16, "mean", "lean"),
    "past 16 typed: mean, weight none": _long(16, "mean", "none"),
    "past 20 typed: ask, weight all": _long(20, "ask", "all"),
    "past 20 typed: ask, weight lean": _long(20, "ask", "lean"),
    "past 20 typed: ask, weight none": _long(20, "ask", "none"),
    "past 20 typed: mean, weight all": _long(20, "mean", "all"),
    "past 20 typed: mean, weight lean": _long(20, "mean", "lean"),
    "past 20 typed: mean, weight none": _long(20, "mean", "none"),
    "past 16 words, a CJK bigram half a word: ask, weight all": _long_words(16, 0.5),
    "past 12 words, a CJK bigram half a word: ask, weight all": _long_words(12, 0.5),
    "past 16 typed, CJK queries as they were: ask, weight all": _long_words(16, 0.0),
    "past 12 typed, CJK queries as they were: ask, weight all": _long_words(12, 0.0),
    "past 16: ask, weight x max(.5, 16/typed)": _long_least(16, 0.5),
    "past 16: ask, weight x max(.33, 16/typed)": _long_least(16, 1 / 3),
    "past 16: only when some sentence asks": _long_least(16, 0.0, only_with_ask=True),
    "across-scripts lean x 8/typed past 8": _across_by_length(8),
    "across-scripts lean x 12/typed past 12": _across_by_length(12),
    "across-scripts lean x 16/typed past 16": _across_by_length(16),
    "across-scripts lean x 20/typed past 20": _across_by_length(20),
    "ask encoded, across-scripts lean x 12/typed past 12": _across_by_length(12, ask=True),
    "ask and whole averaged, across-scripts lean x 12/typed": lambda j, p: _fused(
        j,
        p,
        _mixed(_ask_or_whole(p), p.whole),
        SEMANTIC_WEIGHT + (_weight(j, p) - SEMANTIC_WEIGHT) * min(1, 12 / max(1, p.typed)),
    ),
}

_COLUMNS = (
    "T+D",
    "T",
    "D (odd)",
    "D (even)",
    "D cn/en",
    "D cn/zh",
    "D en/zh",
    "D en/en",
    "T cn/en",
    "T cn/zh",
    "T en/zh",
    "T en/en",
    "dev cn/zh",
    "dev en/en",
    "dev en/zh",
    "B",
    "C",
    "C cn/zh",
    "C en/en",
    "C en/zh",
)


def _cells(ranks: dict[str, list[tuple[Request, int]]]) -> list[str]:
    cells = []
    for column in _COLUMNS:
        name, _, part = column.partition(" ")
        found = [item for key in name.split("+") for item in ranks[key]]
        members = [rank for request, rank in found if _belongs(request, part)]
        hit1 = sum(1 for rank in members if rank == 1) / max(1, len(members))
        hit3 = sum(1 for rank in members if 0 < rank <= 3) / max(1, len(members))
        cells.append(f"{hit1:.2f} / {hit3:.2f}")
    return cells


def _belongs(request: Request, part: str) -> bool:
    if not part:
        return True
    if part.startswith("("):
        return request.number % 2 == (1 if part == "(odd)" else 0)
    return request.group == part


if __name__ == "__main__":
    sys.exit(main())
