"""The shipped defaults on a request set that nobody tuned on: search hit@k, with and without meaning, and route.

    python3 benchmarks/unseen_set.py                 # set C: lexical ranking and the route rule
    python3 benchmarks/unseen_set.py --semantic      # and the fused ranking ([semantic] installed)
    python3 benchmarks/unseen_set.py --set benchmarks/data/requests-b

The dev set's halves (../shared/data/search-dev) were read through every round
of tuning: even the held-out half was looked at once a round. The sets under
benchmarks/data/requests-* were not, when they were written: 100 requests each
of the same kind (40 cn, 40 en, 20 xl), for 100 other skills drawn by the dev
set's own sampler with another seed, written by the dev set's rules (its
README, checked by its check_dev.py) by writers who saw no dev query, no
ranking of this tool and none of its code. Set B was scored once with 0.4.0
and then became tuning data for 0.4.1's route rule; set C (the default here)
was scored once with 0.4.1 and nothing has been chosen on it. The READMEs
beside them say how each was made. This script chooses nothing: it runs the
defaults and prints the table.

Collections: SKILLS_CN_ROOT / SKILLS_EN_ROOT, or else the archives in
../shared/data/collections are extracted to a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from route_rule import Outcome  # noqa: E402
from search_quality import collection_roots  # noqa: E402
from semantic_quality import DATA, GROUPS, machine  # noqa: E402

from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.confidence import SCORE_RULE  # noqa: E402
from skillmem_hook.search.evaluate import rank_of, ranking_figures  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402
from skillmem_hook.search.store import read_body  # noqa: E402

SET = HERE / "data" / "requests-c"


def requests(folder: Path) -> dict[str, list[dict[str, object]]]:
    """group -> its requests, in file order."""
    found: dict[str, list[dict[str, object]]] = {}
    for group, file, _ in GROUPS:
        lines = (folder / file).read_text(encoding="utf-8").splitlines()
        found[group] = [json.loads(line) for line in lines if line.strip()]
    return found


def search_row(label: str, ranks: dict[str, list[int]]) -> str:
    cells = []
    for group, _, _ in GROUPS:
        figures = ranking_figures(ranks[group])
        cells += [f"{figures[f'hit@{k}']:.3f}" for k in (1, 3, 10)]
    return f"| {label} | " + " | ".join(cells) + " |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=SET, help="a folder of dev-{cn,en,xl}.jsonl")
    parser.add_argument("--semantic", action="store_true", help="also the fused ranking (needs [semantic])")
    options = parser.parse_args()
    asked = requests(options.set)
    roots = collection_roots(DATA)
    catalogs = {key: scan_roots([root]).skills for key, root in roots.items()}
    lexical = {key: SearchIndex.build(s, bodies=[read_body(k) for k in s]) for key, s in catalogs.items()}
    rankers = {"lexical (the defaults)": lambda key, intent: [h.skill.name for h in lexical[key].query(intent, 10)]}
    if options.semantic:
        from skillmem_hook.search.semantic import Encoder, SemanticIndex, rank_with_meaning

        encoder = Encoder()
        meanings = {key: SemanticIndex(skills, encoder) for key, skills in catalogs.items()}
        rankers["with [semantic] (the defaults)"] = lambda key, intent: [
            h.skill.name for h in rank_with_meaning(lexical[key], meanings[key], intent, 10)
        ]
    print(f"{machine()}; set {options.set.name}: " + ", ".join(f"{g} {len(q)}" for g, q in asked.items()))
    heads = " | ".join(f"{g} hit@{k}" for g, _, _ in GROUPS for k in (1, 3, 10))
    print(f"\n| ranking | {heads} |\n|---|" + "---:|" * 9)
    for label, rank in rankers.items():
        ranks = {
            group: [rank_of(rank(key, str(q["query"])), list(q["expect"])) for q in asked[group]]  # type: ignore[call-overload]
            for group, _, key in GROUPS
        }
        print(search_row(label, ranks))
    print(f"\nroute rule in force ({SCORE_RULE.describe()}, most {SCORE_RULE.most})\n")
    print("| group | requests | fires | right | precision | first named right |\n|---|---:|---:|---:|---:|---:|")
    totals = [0, 0, 0, 0]
    for group, _, key in GROUPS:
        outcomes = [Outcome(lexical[key], str(q["query"]), list(q["expect"]), group) for q in asked[group]]  # type: ignore[call-overload]
        judged = [outcome.judged(SCORE_RULE) for outcome in outcomes]
        counts = [len(judged), sum(f for f, _, _ in judged), sum(r for _, r, _ in judged), sum(x for _, _, x in judged)]
        totals = [a + b for a, b in zip(totals, counts)]
        print(route_row(group, counts))
    print(route_row("all", totals))
    return 0


def route_row(label: str, counts: list[int]) -> str:
    asked, fires, right, first = counts
    precision = f"{right / fires:.2f}" if fires else "-"
    return f"| {label} | {asked} | {fires} ({fires / max(1, asked):.2f}) | {right} | {precision} | {first} |"


if __name__ == "__main__":
    sys.exit(main())
