"""The shipped defaults on request sets and everyday turns: search hit@k and MRR, with and without meaning, and route.

    python3 benchmarks/unseen_set.py                                  # set C
    python3 benchmarks/unseen_set.py --tuning --semantic              # every tuning set and turn file of round three
    python3 benchmarks/unseen_set.py --set path/to/setD --turns path/to/setE/everyday.jsonl --semantic

A set is a folder (every ``dev-*.jsonl`` below it, at any depth) or a file of
JSON lines ``{"id", "collection", "query", "expect"}`` with an optional
``lang`` (``en`` / ``zh`` / ``mixed``, any word: it names the group; read from
the query's script when absent), ids like ``d1-001``. Turns are a JSON-lines
file of ``{"id", "lang", "turn"}`` (a turn may hold line breaks, escaped in
its JSON; an object spread over several lines and a BOM are read too), a text
file of one turn a line, or a folder of such files; each turn is asked of
every collection, and the route hook must stay silent on all of them.

For every file and every (collection, request language) group, and all
together: hit@1/3/10 and MRR of the lexical ranking (and of the fused one
with ``--semantic``), then the route hook's fires, right fires, precision and
first-named-right (a skill the prompt names by its name, else the score
rule: ``Judge.routed``, the hook's own code). For the turns: how many fired,
per file and language. ``--misses`` lists each wrong fire and each turn that
fired; ``--json FILE`` writes every figure.

This script chooses nothing: it runs the defaults and prints tables. Which
sets were tuned on is in each set's README (``request_sets.TUNING_SETS``
names those of round three). Collections: SKILLS_CN_ROOT / SKILLS_EN_ROOT,
or else the archives in ../shared/data/collections are extracted to a
temporary folder; ``--collection KEY=ROOT`` adds another (a set's
``collection`` names it: set W's requests are asked of ``w``, skills
gathered from public repositories the tool was never tuned on).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from request_sets import (  # noqa: E402
    TUNING_SETS,
    TUNING_TURNS,
    Judge,
    Request,
    Turn,
    collection_roots,
    read_requests,
    read_turns,
)
from semantic_quality import machine  # noqa: E402

from skillmem_hook.search.confidence import SCORE_RULE  # noqa: E402
from skillmem_hook.search.evaluate import rank_of, ranking_figures  # noqa: E402

SET_C = HERE / "data" / "requests-c"


def main() -> int:
    options = _parser().parse_args()
    sets = _sets(options)
    turns = read_turns(_turn_files(options))
    judge = Judge({**collection_roots(), **dict(options.collection)}, semantic=options.semantic)
    figures: dict[str, object] = {"machine": machine(), "rule": SCORE_RULE.describe(), "sets": {}}
    print(f"{machine()}; route rule in force: {SCORE_RULE.describe()}, most {SCORE_RULE.most}")
    for label, requests in sets.items():
        figures["sets"][label] = score_set(judge, label, requests, semantic=options.semantic, misses=options.misses)  # type: ignore[index]
    if turns:
        figures["turns"] = score_turns(judge, turns, misses=options.misses)
    if options.json:
        options.json.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, action="append", default=[], help="a folder of dev-*.jsonl, or one file")
    parser.add_argument("--turns", type=Path, action="append", default=[], help="everyday turns: a file or a folder")
    parser.add_argument(
        "--collection",
        type=_collection,
        action="append",
        default=[],
        metavar="KEY=ROOT",
        help="another collection's root, asked of the requests whose collection is KEY (and of every turn)",
    )
    parser.add_argument("--tuning", action="store_true", help="every tuning set and turn file of round three")
    parser.add_argument("--semantic", action="store_true", help="also the fused ranking (needs [semantic])")
    parser.add_argument("--misses", action="store_true", help="list each wrong route fire and each turn that fired")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument(
        "--half", choices=("odd", "even"), help="only the requests of odd (or even) ids: a choosing, a held-back half"
    )
    return parser


def _collection(text: str) -> tuple[str, str]:
    key, sep, root = text.partition("=")
    if not sep or not key or not Path(root).is_dir():
        raise argparse.ArgumentTypeError(f"want KEY=ROOT with ROOT a folder, got {text!r}")
    return key, root


def _sets(options: argparse.Namespace) -> dict[str, list[Request]]:
    chosen = {str(path): [path] for path in options.set}
    if options.tuning:
        chosen.update({f"set {name}": paths for name, paths in TUNING_SETS.items()})
    if not chosen and not options.turns:
        chosen = {"set C": [SET_C]}
    halves = {"odd": 1, "even": 0}
    return {
        label + (f" ({options.half} ids)" if options.half else ""): [
            request
            for request in read_requests(paths)
            if not options.half or request.number % 2 == halves[options.half]
        ]
        for label, paths in chosen.items()
    }


def _turn_files(options: argparse.Namespace) -> list[Path]:
    files = list(TUNING_TURNS) if options.tuning else []
    for path in options.turns:
        files += sorted(p for p in path.rglob("*") if p.suffix in (".jsonl", ".txt")) if path.is_dir() else [path]
    return files


def score_set(judge: Judge, label: str, requests: list[Request], *, semantic: bool, misses: bool) -> dict[str, object]:
    """Print and return the search and route figures of one set, per file, per group and all together."""
    parts = _parts(requests)
    print(f"\n## {label}: {len(requests)} requests\n")
    rankings = ["lexical", "fused"] if semantic else ["lexical"]
    ranks = {
        ranking: {
            r.id + r.source: rank_of(judge.ranked(r.collection, r.query, semantic=ranking == "fused"), r.expect)
            for r in requests
        }
        for ranking in rankings
    }
    search: dict[str, dict[str, dict[str, float]]] = {}
    print("| part | requests | " + " | ".join(f"{ranking} {m}" for ranking in rankings for m in _MEASURES) + " |")
    print("|---|---:|" + "---:|" * (len(_MEASURES) * len(rankings)))
    for part, members in parts.items():
        cells = []
        for ranking in rankings:
            figures = ranking_figures([ranks[ranking][r.id + r.source] for r in members])
            search.setdefault(part, {})[ranking] = figures
            cells += [f"{figures[m]:.3f}" for m in _MEASURES]
        print(f"| {part} | {len(members)} | " + " | ".join(cells) + " |")
    route = _score_route(judge, parts, misses=misses)
    return {"search": search, "route": route}


_MEASURES = ("hit@1", "hit@3", "hit@10", "mrr")


def _rank(judge: Judge, request: Request, ranking: str) -> int:
    return rank_of(judge.ranked(request.collection, request.query, semantic=ranking == "fused"), request.expect)


def _parts(requests: list[Request]) -> dict[str, list[Request]]:
    """Each file, each (collection, language) group, and all, in that order."""
    parts: dict[str, list[Request]] = {}
    for request in requests:
        parts.setdefault(request.source, []).append(request)
    for request in sorted(requests, key=lambda r: r.group):
        parts.setdefault(request.group, []).append(request)
    parts["all"] = requests
    return parts


def _score_route(judge: Judge, parts: dict[str, list[Request]], *, misses: bool) -> dict[str, dict[str, object]]:
    print("\n| part | requests | fires | right | precision | first named right | named by name |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    outcomes = {id(r): (r, *judge.routed(r.collection, r.query)) for r in parts["all"]}
    figures: dict[str, dict[str, object]] = {}
    for part, members in parts.items():
        routed = [outcomes[id(r)] for r in members]
        fired = [(r, way, names) for r, way, names in routed if names]
        right = sum(any(name in r.expect for name in names) for r, _, names in fired)
        first = sum(names[0] in r.expect for r, _, names in fired)
        by_name = sum(way == "named" for _, way, _ in fired)
        precision = right / len(fired) if fired else None
        figures[part] = {
            "requests": len(members),
            "fires": len(fired),
            "fire_rate": round(len(fired) / max(1, len(members)), 3),
            "right": right,
            "precision": None if precision is None else round(precision, 3),
            "first_right": first,
            "named_by_name": by_name,
        }
        shown = "-" if precision is None else f"{precision:.2f}"
        share = len(fired) / max(1, len(members))
        print(f"| {part} | {len(members)} | {len(fired)} ({share:.2f}) | {right} | {shown} | {first} | {by_name} |")
    if misses:
        for r, way, names in outcomes.values():
            if names and not any(name in r.expect for name in names):
                print(f"- wrong fire {r.id} ({way}): {', '.join(names)} for {r.query[:100]!r}; expected {r.expect}")
    return figures


def score_turns(judge: Judge, turns: list[Turn], *, misses: bool) -> dict[str, dict[str, int]]:
    """Print and return how many turns fired a hint on any collection, per file and language."""
    print("\n## everyday turns (each asked of every collection; none may fire)\n")
    print("| part | turns | fired | fires (turn x collection) |\n|---|---:|---:|---:|")
    fired: dict[int, list[str]] = {}
    for turn in turns:
        for key in judge.skills:
            way, names = judge.routed(key, turn.text)
            if names:
                fired.setdefault(id(turn), []).append(f"{key}: {', '.join(names)} ({way})")
    parts: dict[str, list[Turn]] = {}
    for turn in turns:
        parts.setdefault(turn.source, []).append(turn)
    for turn in sorted(turns, key=lambda t: t.lang):
        parts.setdefault(f"lang {turn.lang}", []).append(turn)
    parts["all"] = turns
    figures = {}
    for part, members in parts.items():
        count = sum(id(t) in fired for t in members)
        pairs = sum(len(fired.get(id(t), [])) for t in members)
        figures[part] = {"turns": len(members), "fired": count, "fires": pairs}
        print(f"| {part} | {len(members)} | {count} | {pairs} |")
    if misses:
        for turn in turns:
            if id(turn) in fired:
                print(f"- turn {turn.id} fired: {'; '.join(fired[id(turn)])} for {turn.text[:100]!r}")
    return figures


if __name__ == "__main__":
    sys.exit(main())
