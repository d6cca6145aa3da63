"""The semantic leg on contextual requests (0.5.0, round three's sixth pass): where fusion loses, and each lever.

    python3 benchmarks/semantic_context.py --vectors PREFIX        # every lever, every tuning set; vectors kept
    python3 benchmarks/semantic_context.py --losses                   # where the fused ranking loses the right skill
    python3 benchmarks/semantic_context.py --only "kept" --detail     # the requests the kept rule moves, by id

Chooses nothing. Every request of every tuning set (``request_sets.TUNING_SETS``)
is prepared once: the lexical leg's pool, the cosines of the whole request,
of its asking sentences (``search/asks.py``) and of each sentence. Each lever
is then replayed on them, and printed as hit@1 / hit@3 / hit@10 of the
contextual sets (T, D, F, G, H) and of the short ones (dev, B, C) on the odd
ids and on the even ids, with the worst hit@3 change of any (set, group)
against the rule before this pass, on each half. ``--json FILE`` writes every
cell. The last row runs the shipped code itself, to check the replay.
Needs the ``[semantic]`` extra; collections as ``unseen_set.py`` finds them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from request_sets import TUNING_SETS, Judge, Request, collection_roots, read_requests, request_cosines  # noqa: E402

from skillmem_hook.search.evaluate import rank_of  # noqa: E402
from skillmem_hook.search.fusion import LONG_TYPED, fuse_scores, length_weight, semantic_weight  # noqa: E402
from skillmem_hook.search.semantic import POOL, rank_with_meaning  # noqa: E402
from skillmem_hook.search.tokenize import CJK  # noqa: E402

CONTEXTUAL = ("T", "D", "F", "G", "H")
SHORT = ("dev", "B", "C")


class Prepared:
    """One request's lexical pool and the cosines of its whole text, its ask and each of its sentences."""

    def __init__(self, name: str, request: Request, lexical: dict[int, float], typed: int, across: bool) -> None:
        self.set = name
        self.request = request
        self.lexical = lexical
        self.typed = typed
        self.across = across
        self.whole = np.zeros(0)
        self.ask: np.ndarray | None = None
        self.sentences = np.zeros((0, 0))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", default=None, help="a vector cache path prefix (kept between runs)")
    parser.add_argument("--losses", action="store_true", help="where the fused ranking before this pass loses")
    parser.add_argument("--only", default=None, help="levers whose label holds this text")
    parser.add_argument("--detail", action="store_true", help="with --only: each (set, group) that moves, by id")
    parser.add_argument("--table", action="store_true", help="every set and group by half: before and kept")
    parser.add_argument("--json", type=Path, default=None)
    options = parser.parse_args()
    judge = Judge(collection_roots(), semantic=True, vectors=options.vectors)
    prepared = [_prepare(judge, name, r) for name, paths in TUNING_SETS.items() for r in read_requests(paths)]
    _encode_all(judge, prepared)
    if options.losses:
        _print_losses(judge, prepared)
        return 0
    before = {id(p): _rank(judge, p, before_rule(judge, p)) for p in prepared}
    if options.table:
        kept = {id(p): _rank(judge, p, _shipped(judge, p)) for p in prepared}
        lexical = {id(p): _lexical_rank(judge, p) for p in prepared}
        _print_table(prepared, lexical, before, kept)
        return 0
    figures = {}
    print("| lever | ctx odd | ctx even | short odd | short even | worst group odd | worst group even |")
    print("|---|---|---|---|---|---|---|")
    for label, lever in LEVERS.items():
        if options.only and options.only not in label:
            continue
        ranks = {id(p): _rank(judge, p, lever(judge, p)) for p in prepared}
        row = _row(prepared, ranks, before)
        figures[label] = row
        print(f"| {label} | " + " | ".join(row["cells"]) + " |", flush=True)
        if options.detail:
            _print_moves(prepared, ranks, before)
    if options.json:
        options.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


def _prepare(judge: Judge, name: str, request: Request) -> Prepared:
    index = judge.lexical[request.collection]
    meaning = judge.meanings[request.collection]
    number = {id(skill): n for n, skill in enumerate(meaning.skills)}  # type: ignore[attr-defined]
    hits = index.query(request.query, POOL)
    lexical = {number[id(hit.skill)]: hit.score for hit in hits}
    across = re.search(f"[{CJK}]", request.query) is None
    return Prepared(name, request, lexical, index.typed_words(request.query), across)


def _encode_all(judge: Judge, prepared: list[Prepared]) -> None:
    for p, cosines in zip(prepared, request_cosines(judge, [p.request for p in prepared])):
        p.whole, p.ask, p.sentences = cosines.whole, cosines.ask, np.stack(cosines.sentences)


# A lever answers (similarity over every skill, weight, candidates or None for the pool of 50 each).
Answer = tuple[np.ndarray, float, "set[int] | None"]


def _base(judge: Judge, p: Prepared) -> float:
    return semantic_weight(not p.across, judge.meanings[p.request.collection].cjk_share)  # type: ignore[attr-defined]


def _long(p: Prepared) -> bool:
    return p.typed > LONG_TYPED


def _encoded(p: Prepared) -> np.ndarray:
    """What the rule before this pass gives the encoder: a long request's ask (or the whole), a short one whole."""
    return p.ask if _long(p) and p.ask is not None else p.whole


def before_rule(judge: Judge, p: Prepared) -> Answer:
    """The rule before this pass (0.5.0's second to fourth): a long request's ask, its weight x 16/typed."""
    return _encoded(p), length_weight(_base(judge, p), p.typed), None


def _rank(judge: Judge, p: Prepared, answer: Answer | dict[int, float]) -> int:
    skills = judge.meanings[p.request.collection].skills  # type: ignore[attr-defined]
    if isinstance(answer, dict):  # a lever's own scores of its own candidates
        ranked = sorted(answer, key=lambda n: (-round(answer[n], 6), skills[n].name, skills[n].label))
        return rank_of(list(dict.fromkeys(skills[n].name for n in ranked))[:10], p.request.expect)
    similarity, weight, candidates = answer
    if candidates is None:
        nearest = np.argsort(-similarity, kind="stable")[:POOL].tolist()
        candidates = {*p.lexical, *nearest}
    lexical = {n: s for n, s in p.lexical.items() if n in candidates}
    semantic = {n: float(similarity[n]) for n in candidates}
    fused = fuse_scores(lexical, semantic, weight)
    ranked = sorted(fused, key=lambda n: (-round(fused[n], 4), skills[n].name, skills[n].label))
    names = list(dict.fromkeys(skills[n].name for n in ranked[:12]))
    return rank_of(names[:10], p.request.expect)


def _lexical_rank(judge: Judge, p: Prepared) -> int:
    skills = judge.meanings[p.request.collection].skills  # type: ignore[attr-defined]
    ranked = sorted(p.lexical, key=lambda n: (-round(p.lexical[n], 4), skills[n].name, skills[n].label))
    return rank_of(list(dict.fromkeys(skills[n].name for n in ranked))[:10], p.request.expect)


def _semantic_rank(judge: Judge, p: Prepared, similarity: np.ndarray) -> int:
    skills = judge.meanings[p.request.collection].skills  # type: ignore[attr-defined]
    nearest = np.argsort(-similarity, kind="stable")[:20].tolist()
    return rank_of(list(dict.fromkeys(skills[n].name for n in nearest))[:10], p.request.expect)


def _hits(ranks: list[int]) -> tuple[float, float, float]:
    count = max(1, len(ranks))
    return tuple(sum(1 for r in ranks if 0 < r <= k) / count for k in (1, 3, 10))  # type: ignore[return-value]


def _row(prepared: list[Prepared], ranks: dict[int, int], baseline: dict[int, int]) -> dict[str, object]:
    cells, groups = [], {}
    for sets in (CONTEXTUAL, SHORT):
        for half in (1, 0):
            chosen = [ranks[id(p)] for p in prepared if p.set in sets and p.request.number % 2 == half]
            cells.append(" / ".join(f"{v:.3f}" for v in _hits(chosen)))
    for half in (1, 0):
        worst = (1.0, "")
        keys = {(p.set, p.request.group) for p in prepared}
        for name, group in sorted(keys):
            members = [p for p in prepared if (p.set, p.request.group, p.request.number % 2) == (name, group, half)]
            if not members:
                continue
            delta = _hits([ranks[id(p)] for p in members])[1] - _hits([baseline[id(p)] for p in members])[1]
            groups[f"{name} {group} {'odd' if half else 'even'}"] = _hits([ranks[id(p)] for p in members])
            if delta < worst[0]:
                worst = (delta, f"{name} {group}")
        cells.append(f"{worst[0]:+.3f} {worst[1]}")
    return {"cells": cells, "groups": groups}


def _print_moves(prepared: list[Prepared], ranks: dict[int, int], baseline: dict[int, int]) -> None:
    """Each (set, group) whose hit@3 moves from the rule before this pass, and the requests in or out of the top 3."""
    for key in sorted({(p.set, p.request.group) for p in prepared}):
        members = [p for p in prepared if (p.set, p.request.group) == key]
        had = sum(1 for p in members if 0 < baseline[id(p)] <= 3)
        after = sum(1 for p in members if 0 < ranks[id(p)] <= 3)
        moved = [
            f"{p.request.id} {baseline[id(p)]}->{ranks[id(p)]}"
            for p in members
            if (0 < baseline[id(p)] <= 3) != (0 < ranks[id(p)] <= 3)
        ]
        if moved:
            print(f"    {key[0]} {key[1]}: {had} -> {after} of {len(members)} ({', '.join(moved)})")


def _print_table(prepared: list[Prepared], *columns: dict[int, int]) -> None:
    """hit@1 / hit@3 / hit@10 of each column (lexical, before, kept) by set, group and half."""
    print("| set | group | half | requests | lexical | fused before | fused kept |")
    print("|---|---|---|---:|---|---|---|")
    for name in TUNING_SETS:
        mine = [p for p in prepared if p.set == name]
        for group in [*sorted({p.request.group for p in mine}), "all"]:
            for half, label in ((1, "odd"), (0, "even")):
                members = [p for p in mine if group in ("all", p.request.group) and p.request.number % 2 == half]
                cells = [" / ".join(f"{v:.2f}" for v in _hits([c[id(p)] for p in members])) for c in columns]
                print(f"| {name} | {group} | {label} | {len(members)} | " + " | ".join(cells) + " |")


def _print_losses(judge: Judge, prepared: list[Prepared]) -> None:
    """Each request the fused ranking misses at 3: found by the encoder (its top 10), by the words, by neither."""
    print("| set group | length | requests | fused hit@3 | lost: encoder top 10 | lost: words top 10 | neither |")
    print("|---|---|---:|---:|---:|---:|---:|")
    rows: dict[tuple[str, str], list[int]] = {}
    for p in prepared:
        length = "short (<= 16 typed)" if not _long(p) else ("17-40 typed" if p.typed <= 40 else "over 40 typed")
        fused = _rank(judge, p, before_rule(judge, p))
        lexical = _lexical_rank(judge, p)
        encoder = _semantic_rank(judge, p, _encoded(p))
        encoder_whole = _semantic_rank(judge, p, p.whole)
        sentence_max = _semantic_rank(judge, p, p.sentences.max(axis=0))
        kind = "ctx" if p.set in CONTEXTUAL else "short"
        for key in ((f"{kind} {p.request.group}", length), (f"{kind} {p.request.group}", "all"), (kind, "all")):
            row = rows.setdefault(key, [0] * 9)
            row[0] += 1
            row[1] += 0 < fused <= 3
            missed = not 0 < fused <= 3
            row[2] += missed and 0 < encoder <= 10
            row[3] += missed and 0 < lexical <= 10
            row[4] += missed and not 0 < encoder <= 10 and not 0 < lexical <= 10
            row[5] += 0 < encoder <= 3
            row[6] += 0 < encoder_whole <= 3
            row[7] += 0 < sentence_max <= 3
            row[8] += 0 < lexical <= 3
    for (group, length), row in sorted(rows.items()):
        print(f"| {group} | {length} | {row[0]} | {row[1]} | {row[2]} | {row[3]} | {row[4]} |")
    print(
        "\n| set group | length | requests | words hit@3 | encoder (ask of a long one) hit@3 | whole | sentence max |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for (group, length), row in sorted(rows.items()):
        print(f"| {group} | {length} | {row[0]} | {row[8]} | {row[5]} | {row[6]} | {row[7]} |")


# ---- levers --------------------------------------------------------------------------------------------------


def _zscores(matrix: np.ndarray) -> np.ndarray:
    """Each row's cosines as standard scores over the collection: a sentence near everything says little."""
    mean = matrix.mean(axis=-1, keepdims=True)
    spread = matrix.std(axis=-1, keepdims=True)
    return (matrix - mean) / np.where(spread > 0, spread, 1.0)


def _sentence_max(p: Prepared) -> np.ndarray:
    return p.sentences.max(axis=0)


def _sentence_max_z(p: Prepared) -> np.ndarray:
    return _zscores(p.sentences).max(axis=0)


def _top_sentences_mean(p: Prepared, count: int) -> np.ndarray:
    ordered = np.sort(p.sentences, axis=0)[::-1]
    return ordered[:count].mean(axis=0)


def _lever_text(text, *, long_only: bool = True, weight: str = "shipped"):  # type: ignore[no-untyped-def]
    """Encode ``text(p)`` (long requests only, or every one), with the weight before this pass or the base one."""

    def lever(judge: Judge, p: Prepared) -> Answer:
        similarity = text(p) if (_long(p) or not long_only) else p.whole
        base = _base(judge, p)
        chosen = length_weight(base, p.typed) if weight == "shipped" else base
        return similarity, chosen, None

    return lever


def _mix(a, b, share: float):  # type: ignore[no-untyped-def]
    """The share ``share`` of ``a``'s standard scores and the rest of ``b``'s."""
    return lambda p: share * _zscores(a(p)) + (1 - share) * _zscores(b(p))


def _union(size: int, *, weight: float | None = None, text=_encoded):  # type: ignore[no-untyped-def]
    """Re-rank only the union of each leg's top ``size``, both spread over that union."""

    def lever(judge: Judge, p: Prepared) -> Answer:
        similarity = text(p)
        skills = judge.meanings[p.request.collection].skills  # type: ignore[attr-defined]
        words = sorted(p.lexical, key=lambda n: (-p.lexical[n], skills[n].name))[:size]
        nearest = np.argsort(-similarity, kind="stable")[:size].tolist()
        chosen = length_weight(_base(judge, p), p.typed) if weight is None else weight
        return similarity, chosen, {*words, *nearest}

    return lever


def _agreement(up: float, down: float, *, top: int = 10):  # type: ignore[no-untyped-def]
    """The weight before this pass times ``up`` when the encoder's best is in the words' top 3, ``down`` when the legs'
    top ``top`` share no skill."""

    def lever(judge: Judge, p: Prepared) -> Answer:
        similarity, weight, _ = before_rule(judge, p)
        skills = judge.meanings[p.request.collection].skills  # type: ignore[attr-defined]
        words = sorted(p.lexical, key=lambda n: (-p.lexical[n], skills[n].name))
        nearest = np.argsort(-similarity, kind="stable")[:top].tolist()
        if nearest and nearest[0] in words[:3]:
            weight = min(1.0, weight * up)
        elif not set(words[:top]) & set(nearest):
            weight = weight * down
        return similarity, weight, None

    return lever


def _length_floor(least: float):  # type: ignore[no-untyped-def]
    def lever(judge: Judge, p: Prepared) -> Answer:
        base = _base(judge, p)
        return _encoded(p), max(least * base, length_weight(base, p.typed)), None

    return lever


def _words_top(judge: Judge, p: Prepared, size: int) -> list[int]:
    skills = judge.meanings[p.request.collection].skills  # type: ignore[attr-defined]
    return sorted(p.lexical, key=lambda n: (-p.lexical[n], skills[n].name))[:size]


def _standard_rerank(
    scale: float,
    *,
    text=lambda p: p.whole,
    size: int = 10,
    per_length: bool = True,
    across: float = 1.0,
    words_only: bool = False,
):  # type: ignore[no-untyped-def]
    """A long request: the union of each leg's top ``size`` (the words' alone with ``words_only``), each scored
    by its lexical score over the best one plus ``scale`` (times 16/typed with ``per_length``; times ``across``
    for an English request over a Chinese-described collection) times the standard score of its cosine over
    the collection. A short request: the rule before this pass."""

    def lever(judge: Judge, p: Prepared) -> Answer | dict[int, float]:
        if not _long(p):
            return before_rule(judge, p)
        similarity = _zscores(text(p))
        candidates = set(_words_top(judge, p, size))
        if not words_only:
            candidates |= set(np.argsort(-similarity, kind="stable")[:size].tolist())
        best = max(p.lexical.values(), default=0.0) or 1.0
        share = scale * (LONG_TYPED / p.typed if per_length else 1.0)
        if p.across and judge.meanings[p.request.collection].cjk_share > 0.5:  # type: ignore[attr-defined]
            share *= across
        return {n: p.lexical.get(n, 0.0) / best + share * float(similarity[n]) for n in candidates}

    return lever


def _nearest_lifted(scale: float, keep: int, *, above: bool = False, size: int = 10):  # type: ignore[no-untyped-def]
    """A long request: the words' top ``size`` and the encoder's ``keep`` nearest (whole request), each scored by
    its lexical score over the best one, plus, for the encoder's ``keep`` nearest only, ``scale`` times the
    standard score of its cosine (with ``above``: the standard score above the next one's after them).
    A short request: the shipped rule."""

    def lever(judge: Judge, p: Prepared) -> Answer | dict[int, float]:
        if not _long(p):
            return before_rule(judge, p)
        similarity = _zscores(p.whole)
        ordered = np.argsort(-similarity, kind="stable")[: keep + 1].tolist()
        floor = float(similarity[ordered[keep]]) if above else 0.0
        lifted = {n: scale * (float(similarity[n]) - floor) for n in ordered[:keep]}
        best = max(p.lexical.values(), default=0.0) or 1.0
        candidates = {*_words_top(judge, p, size), *lifted}
        return {n: p.lexical.get(n, 0.0) / best + lifted.get(n, 0.0) for n in candidates}

    return lever


def _standing_out(
    scale: float,
    floor: float,
    *,
    text=lambda p: _zscores(p.whole),
    size: int = 10,
    damped: bool = False,
    outside: int = 0,
    only: str = "",
):  # type: ignore[no-untyped-def]
    """A long request: the union of each leg's top ``size``, each scored by its lexical score over the best one
    plus ``scale`` times how far the standard score of its cosine stands above ``floor`` (0 below it): only the
    skills the encoder singles out move. A short request: the shipped rule."""

    def lever(judge: Judge, p: Prepared) -> Answer | dict[int, float]:
        share = judge.meanings[p.request.collection].cjk_share  # type: ignore[attr-defined]
        if not _long(p) or (only == "across" and not (p.across and share > 0.5)) or (only == "cjk" and share <= 0.5):
            return before_rule(judge, p)
        similarity = text(p)
        candidates = {*_words_top(judge, p, size), *np.argsort(-similarity, kind="stable")[:size].tolist()}
        best = max(p.lexical.values(), default=0.0) or 1.0
        protected = set(_words_top(judge, p, outside))
        scores = {}
        for n in candidates:
            words = p.lexical.get(n, 0.0) / best
            lift = 0.0 if n in protected else scale * max(0.0, float(similarity[n]) - floor)
            scores[n] = words + lift * ((1.0 - words) if damped else 1.0)
        return scores

    return lever


def _shipped(judge: Judge, p: Prepared) -> dict[int, float]:
    """The shipped ranking's own order (``semantic.rank_with_meaning``), as scores of its top 10."""
    meaning = judge.meanings[p.request.collection]
    hits = rank_with_meaning(judge.lexical[p.request.collection], meaning, p.request.query, 10)  # type: ignore[arg-type]
    return {hit.number: float(len(hits) - place) for place, hit in enumerate(hits)}


def _whole_and_ask(p: Prepared) -> np.ndarray:
    return (_zscores(p.whole) + _zscores(_encoded(p))) / 2


def _whole_shipped_weight(judge: Judge, p: Prepared) -> Answer:
    return p.whole, length_weight(_base(judge, p), p.typed), None


def _shipped_z(judge: Judge, p: Prepared) -> Answer:
    """The shipped text and weight, the cosines as standard scores before fusion's min-max."""
    similarity, weight, _ = before_rule(judge, p)
    return (_zscores(similarity) if _long(p) else similarity), weight, None


LEVERS = {
    "lexical alone": lambda j, p: (p.whole, 0.0, None),
    "before (past 16 typed: ask, weight x 16/typed)": before_rule,
    "no length rule (whole, base weight)": lambda j, p: (p.whole, _base(j, p), None),
    "long: sentence max": _lever_text(_sentence_max),
    "long: sentence max, base weight": _lever_text(_sentence_max, weight="base"),
    "long: sentence max (standard scores)": _lever_text(_sentence_max_z),
    "long: sentence max (standard scores), base weight": _lever_text(_sentence_max_z, weight="base"),
    "long: best two sentences' mean": _lever_text(lambda p: _top_sentences_mean(p, 2)),
    "long: ask and sentence max (z), half each": _lever_text(_mix(_encoded, _sentence_max_z, 0.5)),
    "long: whole and sentence max (z), half each": _lever_text(_mix(lambda p: p.whole, _sentence_max_z, 0.5)),
    "long: ask and whole (z), half each": _lever_text(_mix(_encoded, lambda p: p.whole, 0.5)),
    "long: ask, whole, sentence max (z), a third each": _lever_text(
        lambda p: (_zscores(_encoded(p)) + _zscores(p.whole) + _sentence_max_z(p)) / 3
    ),
    "long: first sentence and ask (z)": _lever_text(_mix(_encoded, lambda p: p.sentences[0], 0.5)),
    "every request: sentence max (z) and whole (z)": _lever_text(
        _mix(lambda p: p.whole, _sentence_max_z, 0.5), long_only=False
    ),
    "every request: sentence max (z) and shipped text (z)": _lever_text(
        _mix(_encoded, _sentence_max_z, 0.5), long_only=False
    ),
    "union of top 10s, shipped weight": _union(10),
    "union of top 10s, base weight": lambda j, p: (_union(10)(j, p)[0], _base(j, p), _union(10)(j, p)[2]),
    "union of top 20s, shipped weight": _union(20),
    "union of top 5s, shipped weight": _union(5),
    "union of top 10s, weight .4": _union(10, weight=0.4),
    "union of top 10s, sentence max (z) long": _union(10, text=lambda p: _sentence_max_z(p) if _long(p) else p.whole),
    "agreement: x1.5 when the encoder's best is in the words' top 3": _agreement(1.5, 1.0),
    "agreement: x2 when the encoder's best is in the words' top 3": _agreement(2.0, 1.0),
    "agreement: x.5 when the top 10s share nothing": _agreement(1.0, 0.5),
    "agreement: x1.5 / x.5": _agreement(1.5, 0.5),
    "length: weight at least half the base": _length_floor(0.5),
    "length: weight at least .75 the base": _length_floor(0.75),
    "long: whole, shipped weight": _whole_shipped_weight,
    "long: union of top 10s, whole, shipped weight": _union(10, text=lambda p: p.whole),
    "long: union of top 10s, ask, shipped weight": _union(10),
    **{
        f"long: union of top {size}s, {name}, words / best + {scale}{' x 16/typed' if per else ''}"
        f"{f' (x{across} across scripts)' if across != 1.0 else ''} x standard score": _standard_rerank(
            scale, text=text, size=size, per_length=per, across=across
        )
        for name, text in (("whole", lambda p: p.whole), ("whole and ask", _whole_and_ask))
        for size in (10, 20)
        for per, scales in ((False, (0.05, 0.1, 0.15, 0.2)), (True, (0.1, 0.2, 0.3, 0.4)))
        for scale in scales
        for across in (1.0, 1.5)
    },
    **{
        f"long: the words' top 10 only, whole, words / best + {scale} x 16/typed x standard score": _standard_rerank(
            scale, words_only=True
        )
        for scale in (0.1, 0.2, 0.3)
    },
    **{
        f"long: the encoder's nearest {keep} lifted by {scale} x their standard score"
        f"{' above the next' if above else ''}": _nearest_lifted(scale, keep, above=above)
        for above, scales in ((False, (0.05, 0.1, 0.15, 0.2)), (True, (0.1, 0.2, 0.3, 0.5)))
        for keep in (1, 2, 3, 5)
        for scale in scales
    },
    **{
        f"long: union of top 10s, words / best + {scale} x ({name} standard score - {floor})"
        " where above": _standing_out(scale, floor, text=text)
        for name, text in (
            ("whole", lambda p: _zscores(p.whole)),
            ("the higher of whole and ask", lambda p: np.maximum(_zscores(p.whole), _zscores(_encoded(p)))),
        )
        for floor in (1.5, 2.0, 2.5, 3.0)
        for scale in (0.1, 0.15, 0.2, 0.3, 0.4)
    },
    **{
        f"long: union of top 10s, words / best + {scale} x (whole standard score - {floor}) where above"
        f"{', times 1 - words / best' if damped else ''}"
        f"{f', none to the words top {outside}' if outside else ''}": _standing_out(
            scale, floor, damped=damped, outside=outside
        )
        for damped, outside in ((True, 0), (False, 3), (False, 5), (False, 10), (True, 3))
        for floor in (1.5, 2.0, 2.5)
        for scale in ((0.15, 0.2, 0.3, 0.4, 0.6) if damped else (0.1, 0.15, 0.2, 0.3))
    },
    **{
        f"{where}: union of top 10s, words / best + {scale} x (whole standard score - {floor})"
        " where above": _standing_out(scale, floor, only=only)
        for where, only in (
            ("long, English over a Chinese-described collection", "across"),
            ("long, over a Chinese-described collection", "cjk"),
        )
        for floor in (1.5, 2.0, 2.5)
        for scale in (0.1, 0.15, 0.2, 0.3)
    },
    **{
        f"long, over a Chinese-described collection: union of top {size}s, words / best"
        " + 0.15 x (whole standard score - 2.0) where above": _standing_out(0.15, 2.0, only="cjk", size=size)
        for size in (20, 50)
    },
    "kept (0.5.0's sixth pass): the shipped code, rank_with_meaning": _shipped,
}


if __name__ == "__main__":
    sys.exit(main())
