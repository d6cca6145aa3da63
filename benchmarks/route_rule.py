"""Re-check the route hook's score rule: how often it fires on requests, how often rightly, never on everyday turns.

    python3 benchmarks/route_rule.py [--dev ../shared/data/search-dev] [--precision 0.9]

For every dev query (../shared/data/search-dev: a user's words asking for one
skill) and every request of set B (benchmarks/data/requests-b, the same kind)
it ranks the query's collection with the stored index the hook loads (name,
description, sections and body), and applies the rule in force
(skillmem_hook.search.confidence.SCORE_RULE). It does the same for the
everyday prompts in benchmarks/data/everyday-*.txt (turns of a coding session
that ask for no skill) over every collection. Figures are given for the
tuning requests (the dev set's odd ids and set B) and the held-out half (the
dev set's even ids). A fire is right when a skill it names is one the query
expects; "first right" counts the fires whose first-named skill is.

Then two grids of candidate rules with their fires and precision, keeping
only rules that fire on no everyday prompt: the held-words way alone, then the
best of those with each clear-lead way added. The rule in force was chosen as
the one with the most right tuning fires at a precision of at least
--precision there (then the fewest names per fire).

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
EVERYDAY = sorted((HERE / "data").glob("everyday-*.txt"))
SET_B = HERE / "data" / "requests-b"
# The held-words way: score, words held, words typed, near, most named.
GRID = ([2, 4, 6, 8], [2, 3, 4, 5], [0, 6, 8, 10, 12], [0.5, 0.6, 0.7, 0.8], [1, 2, 3])
# The clear-lead way: times the second, score, words held, words typed.
LEAD_GRID = ([2, 2.5, 3, 4], [4, 6, 8], [0, 1, 2, 3], [0, 3, 5])

from skillmem_hook.agents.route import MAX_SCORED_CHARS  # noqa: E402
from skillmem_hook.search.at_hand import at_hand  # noqa: E402
from skillmem_hook.search.at_hand.shown import names_code  # noqa: E402
from skillmem_hook.search.confidence import SCORE_RULE, ScoreRule  # noqa: E402


def collection_root(collection: str) -> str:
    return os.environ.get(f"SKILLS_{collection.upper()}_ROOT") or str(SHARED / "collections" / f"skills-{collection}")


class Outcome:
    """What the rule sees of one prompt (its best hits, the words the best holds, the words typed) and what is right."""

    def __init__(self, index, prompt: str, expected: list[str] | None, half: str) -> None:  # type: ignore[no-untyped-def]
        text = prompt[:MAX_SCORED_CHARS]
        self.code = names_code(text) or at_hand(text)  # the hook leaves a prompt about the code at hand alone
        self.hits = index.query(text, max(GRID[4]))
        # The rule's own reading of the best hit, the CJK count with it (review3's 3: without it the rule measured
        # here was not the hook's).
        reading = index.reading(text, self.hits[0]) if self.hits else (0, 0, index.typed_words(text), 0)
        self.evidence, _, self.typed, self.cjk = reading
        self.expected = expected
        self.half = half

    def named(self, rule: ScoreRule) -> list[str]:
        if self.code:
            return []
        return [hit.skill.name for hit in rule.chosen(self.hits, self.evidence, self.typed, self.cjk)]

    def judged(self, rule: ScoreRule) -> tuple[bool, bool, bool]:
        """Whether the rule fires; whether a named skill is expected; whether the first named one is."""
        named = self.named(rule)
        expected = self.expected or []
        return bool(named), any(name in expected for name in named), bool(named) and named[0] in expected


def measure(dev: Path, *, set_b: bool = True) -> list[Outcome]:
    from skillmem_hook.catalog.scan import scan_roots
    from skillmem_hook.search.rank import SearchIndex
    from skillmem_hook.search.store import read_body

    everyday = [
        (line, "longer" if "long" in path.name else "everyday")
        for path in EVERYDAY
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    indexes = {}
    outcomes: list[Outcome] = []
    for folder, name in [(dev, name) for name in FILES] + [(SET_B, name) for name in FILES if set_b]:
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            collection = row["collection"]
            if collection not in indexes:
                skills = scan_roots([collection_root(collection)]).skills
                indexes[collection] = SearchIndex.build(skills, bodies=[read_body(skill) for skill in skills])
                outcomes += [Outcome(indexes[collection], prompt, None, kind) for prompt, kind in everyday]
            number = int(str(row.get("id", "x-1")).rsplit("-", 1)[-1] or 1)
            half = "tune" if folder == SET_B or number % 2 else "held-out"
            outcomes.append(Outcome(indexes[collection], row["query"], row["expect"], half))
    return outcomes


def figures(outcomes: list[Outcome], rule: ScoreRule, half: str) -> tuple[int, int, int, int, float]:
    """Queries, fires, right fires, fires right at the first name, mean names per fire."""
    judged = [outcome.judged(rule) for outcome in outcomes if outcome.half == half]
    fired = [(right, first) for fires, right, first in judged if fires]
    names = [len(outcome.named(rule)) for outcome in outcomes if outcome.half == half]
    mean = sum(names) / max(1, len(fired))
    return len(judged), len(fired), sum(r for r, _ in fired), sum(f for _, f in fired), mean


def everyday_fires(outcomes: list[Outcome], rule: ScoreRule, kind: str = "everyday") -> int:
    return sum(bool(outcome.named(rule)) for outcome in outcomes if outcome.half == kind)


def row(label: str, outcomes: list[Outcome], rule: ScoreRule) -> str:
    cells = []
    for half in ("tune", "held-out"):
        count, fired, right, first, mean = figures(outcomes, rule, half)
        precision = f"{right / fired:.2f}" if fired else "-"
        cells += [f"{fired}/{count} ({fired / max(1, count):.2f})", f"{right}", precision, f"{first}", f"{mean:.1f}"]
    noise = f"{everyday_fires(outcomes, rule)} | {everyday_fires(outcomes, rule, 'longer')}"
    return f"| {label} | " + " | ".join(cells) + f" | {noise} |"


HEAD = (
    "| rule | tune fires | tune right | tune precision | tune first right | tune names per fire"
    " | held-out fires | held-out right | held-out precision | held-out first right | held-out names per fire"
    " | everyday fires | longer-turn fires |\n|---|" + "---:|" * 12
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, default=SHARED / "search-dev")
    parser.add_argument("--precision", type=float, default=0.9)
    parser.add_argument("--longer", type=float, default=1.0, help="the share of longer turns a candidate may fire on")
    parser.add_argument("--without-set-b", action="store_true", help="tune on the dev set's odd ids alone")
    options = parser.parse_args()
    if not (options.dev / FILES[0]).is_file():
        print(f"no dev queries in {options.dev}; pass --dev", file=sys.stderr)
        return 2
    outcomes = measure(options.dev, set_b=not options.without_set_b)
    everyday = sum(outcome.half == "everyday" for outcome in outcomes)
    longer = sum(outcome.half == "longer" for outcome in outcomes)
    tune = sum(outcome.half == "tune" for outcome in outcomes)
    files = ", ".join(path.name for path in EVERYDAY)
    print(
        f"{tune} tuning requests and {len(outcomes) - everyday - longer - tune} held-out ones;"
        f" {everyday} everyday prompts and {longer} longer turns ({files}, over each collection)"
    )
    print(f"\n{HEAD}")
    print(row(f"in force: {SCORE_RULE.describe()}, most {SCORE_RULE.most}", outcomes, SCORE_RULE))
    print(row("the best hit, whenever there is one", outcomes, ScoreRule(0, 0, 0, 1.0, 1, lead=0)))

    def quiet(rule: ScoreRule) -> bool:
        noisy = everyday_fires(outcomes, rule, "longer") > options.longer * longer
        return not noisy and not everyday_fires(outcomes, rule)

    def best_first(rules: list[ScoreRule]) -> list[ScoreRule]:
        """Rules at the precision asked on the tuning requests: most right fires, then most fires, fewest names."""
        ranked = []
        for number, rule in enumerate(rules):
            _, fired, right, _, names = figures(outcomes, rule, "tune")
            if fired and right >= options.precision * fired:
                ranked.append((-right, -fired, names, number, rule))
        return [rule for *_, rule in sorted(ranked, key=lambda item: item[:4])]

    held = best_first([rule for values in itertools.product(*GRID) if quiet(rule := ScoreRule(*values, lead=0))])
    print(
        f"\nThe held-words way alone: no everyday fire, longer-turn fires <= {options.longer:.0%},"
        f" tuning precision >= {options.precision}, most right tuning fires first:\n\n{HEAD}"
    )
    for rule in held[:12]:
        print(row(f"{rule.describe()}, most {rule.most}", outcomes, rule))
    if not held:
        return 0
    first = held[0]
    base = (first.score, first.words, first.typed, first.near, first.most)
    leads = [
        ScoreRule(*base, lead=lead, lead_score=score, lead_words=words, lead_typed=typed)
        for lead, score, words, typed in itertools.product(*LEAD_GRID)
    ]
    print(f"\nThe first of those with a clear-lead way added, the same order:\n\n{HEAD}")
    for rule in best_first([rule for rule in leads if quiet(rule)])[:12]:
        print(row(f"{rule.describe()}, most {rule.most}", outcomes, rule))
    return 0


if __name__ == "__main__":
    sys.exit(main())
