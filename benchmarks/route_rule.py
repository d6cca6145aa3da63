"""Re-check the route hook's score rule: how often it fires on requests, how often rightly, never on everyday turns.

    python3 benchmarks/route_rule.py [--dev ../shared/data/search-dev] [--precision 0.9]

For every dev query (../shared/data/search-dev: a user's words asking for one
skill) it ranks the query's collection with the stored index the hook loads
(name, description, sections and body), and applies the rule in force
(skillmem_hook.agents.route.SCORE_RULE). It does the same for the everyday
prompts in benchmarks/data/everyday-{en,zh}.txt (turns of a coding session
that ask for no skill) over every collection. Figures are given per half of
the dev set: odd ids are the tuning half, even ids the held-out half.

Then a grid of candidate rules (score, words held, margin) with their fires
and precision on each half, keeping only rules that fire on no everyday
prompt; the rule in force was chosen as the one with the most fires on the
tuning half at a precision of at least --precision (1.0 by default: with 50
queries one wrong hint moves precision by 6 points, so the 9-in-10 bar is
kept with room).

Collections: SKILLS_CN_ROOT / SKILLS_EN_ROOT, else ../shared/data/collections/skills-{cn,en}.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
SHARED = HERE.parent.parent / "shared" / "data"
FILES = ("dev-cn.jsonl", "dev-en.jsonl", "dev-xl.jsonl")
EVERYDAY = [HERE / "data" / "everyday-en.txt", HERE / "data" / "everyday-zh.txt"]
GRID = ([4, 6, 8, 10, 12, 16], [2, 3, 4, 5, 6], [1.0, 1.1, 1.2, 1.5])

from skillmem_hook.agents.route import MAX_SCORED_CHARS, SCORE_RULE, ScoreRule  # noqa: E402


def collection_root(collection: str) -> str:
    return os.environ.get(f"SKILLS_{collection.upper()}_ROOT") or str(SHARED / "collections" / f"skills-{collection}")


class Outcome:
    """What the rule sees of one prompt (its best two hits, the words the best holds) and whether the best is right."""

    def __init__(self, index, prompt: str, expected: list[str] | None, half: str) -> None:  # type: ignore[no-untyped-def]
        text = prompt[:MAX_SCORED_CHARS]
        self.hits = index.query(text, 2)
        self.evidence = index.evidence(text, self.hits[0]) if self.hits else 0
        self.right = None if expected is None else bool(self.hits) and self.hits[0].skill.name in expected
        self.half = half

    def fires(self, rule: ScoreRule) -> bool:
        return rule.passes(self.hits, self.evidence)


def measure(dev: Path) -> list[Outcome]:
    from skillmem_hook.agents.search_store import read_body
    from skillmem_hook.catalog.scan import scan_roots
    from skillmem_hook.search.rank import SearchIndex

    everyday = [line for path in EVERYDAY for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    indexes = {}
    outcomes: list[Outcome] = []
    for name in FILES:
        for line in (dev / name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            collection = row["collection"]
            if collection not in indexes:
                skills = scan_roots([collection_root(collection)]).skills
                indexes[collection] = SearchIndex.build(skills, bodies=[read_body(skill) for skill in skills])
                outcomes += [Outcome(indexes[collection], prompt, None, "everyday") for prompt in everyday]
            number = int(str(row.get("id", "x-1")).rsplit("-", 1)[-1] or 1)
            half = "tune" if number % 2 else "held-out"
            outcomes.append(Outcome(indexes[collection], row["query"], row["expect"], half))
    return outcomes


def figures(outcomes: list[Outcome], rule: ScoreRule, half: str) -> tuple[int, int, int]:
    judged = [outcome for outcome in outcomes if outcome.half == half]
    fired = [bool(outcome.right) for outcome in judged if outcome.fires(rule)]
    return len(judged), len(fired), sum(fired)


def row(label: str, outcomes: list[Outcome], rule: ScoreRule) -> str:
    cells = []
    for half in ("tune", "held-out"):
        count, fired, right = figures(outcomes, rule, half)
        precision = f"{right / fired:.2f}" if fired else "-"
        cells += [f"{fired}/{count} ({fired / max(1, count):.2f})", f"{right}", precision]
    noise = sum(outcome.fires(rule) for outcome in outcomes if outcome.half == "everyday")
    return f"| {label} | " + " | ".join(cells) + f" | {noise} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, default=SHARED / "search-dev")
    parser.add_argument("--precision", type=float, default=1.0)
    options = parser.parse_args()
    if not (options.dev / FILES[0]).is_file():
        print(f"no dev queries in {options.dev}; pass --dev", file=sys.stderr)
        return 2
    outcomes = measure(options.dev)
    everyday = sum(outcome.half == "everyday" for outcome in outcomes)
    print(f"{len(outcomes) - everyday} dev queries; {everyday} everyday prompts (both files, over each collection)")
    head = "| rule | tune fires | tune right | tune precision | held-out fires | held-out right | held-out precision"
    print(f"\n{head} | everyday fires |\n|---|---:|---:|---:|---:|---:|---:|---:|")
    in_force = f"score >= {SCORE_RULE.score:g}, words >= {SCORE_RULE.words}, margin >= {SCORE_RULE.margin:g}"
    print(row(f"in force: {in_force}", outcomes, SCORE_RULE))
    print(row("score alone >= in-force score", outcomes, ScoreRule(SCORE_RULE.score, 0, 0.0)))
    candidates = []
    for score, words, margin in itertools.product(*GRID):
        rule = ScoreRule(score, words, margin)
        if any(outcome.fires(rule) for outcome in outcomes if outcome.half == "everyday"):
            continue
        _, fired, right = figures(outcomes, rule, "tune")
        if fired and right >= options.precision * fired:
            candidates.append((-fired, -right, score, words, margin, rule))
    print(f"\nCandidates with no everyday fire and tune precision >= {options.precision}, most tune fires first:\n")
    print(f"{head} | everyday fires |\n|---|---:|---:|---:|---:|---:|---:|---:|")
    for *_, score, words, margin, rule in sorted(candidates, key=lambda item: item[:5])[:8]:
        print(row(f"score >= {score:g}, words >= {words}, margin >= {margin:g}", outcomes, rule))
    return 0


if __name__ == "__main__":
    sys.exit(main())
