"""Re-check ROUTE_SCORE_THRESHOLD: how often a search-score route hint would be right, per threshold.

    python3 benchmarks/route_threshold.py [--dev ../shared/data/search-dev] [--precision 0.9]

For every dev query (../shared/data/search-dev, each a user's words asking for
one skill) it ranks the query's collection with the search the route hook uses
(or, with --reference-bm25, the dev set's plain BM25, to see a BM25 score
scale) and records the best hit's score, its ratio to the second best's, and
whether it is an expected skill. It also ranks everyday prompts that ask for
no skill (NEUTRAL below). A hint fires when the rule's value reaches the cut;
a good cut fires on no neutral prompt and, when it fires on a dev query,
names the right skill. For each rule (score; best / second) it prints the
fires, their precision and the neutral prompts that fire per candidate cut,
then the least cut whose precision reaches --precision with no neutral fire,
beside the constant now in force.

Collections: SKILLS_CN_ROOT / SKILLS_EN_ROOT, else ../shared/data/collections/skills-{cn,en}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"
FILES = ("dev-cn.jsonl", "dev-en.jsonl", "dev-xl.jsonl")
# Prompts of an ordinary coding session that name no skill: a hint here is noise.
NEUTRAL = (
    "thanks, that works",
    "fix the typo on line 3",
    "why does this test fail?",
    "rename the variable to something clearer",
    "can you explain what this function does",
    "continue",
    "make the error message friendlier and add a test for it",
    "please review the changes in this file and tell me what you think about the code",
    "谢谢, 可以了",
    "继续",
    "这个函数是做什么的",
    "帮我把这段代码写得更清楚一点",
    "为什么这个测试会失败",
    "把变量名改得更好懂",
)


def collection_root(collection: str) -> str:
    return os.environ.get(f"SKILLS_{collection.upper()}_ROOT") or str(SHARED / "collections" / f"skills-{collection}")


Ranked = list[tuple[str, float]]


def skillmem_ranker(root: str) -> Callable[[str], Ranked]:
    """The search the route hook uses (skillmem_hook.search.rank), over the collection's catalog."""
    from skillmem_hook.catalog.scan import scan_roots
    from skillmem_hook.search.rank import search

    skills = scan_roots([root]).skills
    return lambda query: [(hit.skill.name, hit.score) for hit in search(skills, query, top=2)]


def reference_ranker(dev: Path) -> Callable[[str], Callable[[str], Ranked]]:
    """The dev set's plain BM25 (bm25_dev.py), for a view of scores on a BM25 scale."""
    sys.path.insert(0, str(dev))
    import bm25_dev

    return lambda root: bm25_dev.Index.of_root(root).search


class Outcome:
    """The best hit's score, its ratio to the second best's, and whether it is right (None: no skill asked)."""

    def __init__(self, ranked: Ranked, expected: list[str] | None) -> None:
        self.score = ranked[0][1] if ranked else 0.0
        second = ranked[1][1] if len(ranked) > 1 else 0.0
        self.margin = self.score / second if second > 0 else (float("inf") if self.score > 0 else 0.0)
        self.right = None if expected is None else bool(ranked) and ranked[0][0] in expected


def measure(dev: Path, ranker: Callable[[str], Callable[[str], Ranked]]) -> list[Outcome]:
    """One outcome per dev query, and one per neutral prompt over each collection (right is None)."""
    outcomes: list[Outcome] = []
    rankers: dict[str, Callable[[str], Ranked]] = {}
    for name in FILES:
        rows = [json.loads(line) for line in (dev / name).read_text(encoding="utf-8").splitlines() if line]
        for row in rows:
            collection = row["collection"]
            if collection not in rankers:
                rankers[collection] = ranker(collection_root(collection))
                outcomes += [Outcome(rankers[collection](prompt), None) for prompt in NEUTRAL]
            outcomes.append(Outcome(rankers[collection](row["query"]), row["expect"]))
    return outcomes


def print_rule(outcomes: list[Outcome], what: str, value: Callable[[Outcome], float], bar: float) -> float | None:
    """A table of fires, precision and neutral fires per candidate cut; returns the least cut that clears the bar."""
    judged = [outcome for outcome in outcomes if outcome.right is not None]
    candidates = sorted({value(outcome) for outcome in judged if 0 < value(outcome) < float("inf")})
    step = max(1, len(candidates) // 12)  # about a dozen rows, whatever the score scale
    print(f"\n| {what} >= | fires | right | precision | neutral fires |\n|---:|---:|---:|---:|---:|")
    chosen = None
    for cut in candidates:
        fired = [bool(outcome.right) for outcome in judged if value(outcome) >= cut]
        noise = sum(value(outcome) >= cut for outcome in outcomes if outcome.right is None)
        precision = sum(fired) / len(fired) if fired else 0.0
        if chosen is None and precision >= bar and noise == 0:
            chosen = cut
        if candidates.index(cut) % step == 0 or cut == chosen:
            print(f"| {cut:.3g} | {len(fired)} | {sum(fired)} | {precision:.2f} | {noise} |")
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, default=SHARED / "search-dev")
    parser.add_argument("--precision", type=float, default=0.9)
    parser.add_argument("--reference-bm25", action="store_true", help="rank with the dev set's bm25_dev.py instead")
    options = parser.parse_args()
    from skillmem_hook.agents.route import ROUTE_SCORE_THRESHOLD

    if not (options.dev / FILES[0]).is_file():
        print(f"no dev queries in {options.dev}; pass --dev", file=sys.stderr)
        return 2
    ranker = reference_ranker(options.dev) if options.reference_bm25 else skillmem_ranker
    outcomes = measure(options.dev, ranker)
    judged = [outcome for outcome in outcomes if outcome.right is not None]
    right = sum(bool(outcome.right) for outcome in judged)
    print(f"{len(judged)} dev queries, top-1 right for {right}; {len(NEUTRAL)} neutral prompts over each collection")
    by_score = print_rule(outcomes, "score", lambda outcome: outcome.score, options.precision)
    by_margin = print_rule(outcomes, "best / second", lambda outcome: outcome.margin, options.precision)
    print(
        f"\nleast cut with precision >= {options.precision} and no neutral fire: score {by_score}, margin {by_margin}"
    )
    print(f"ROUTE_SCORE_THRESHOLD in force: {ROUTE_SCORE_THRESHOLD:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
