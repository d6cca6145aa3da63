"""Re-check ROUTE_SCORE_THRESHOLD: how often a search-score route hint would be right, per threshold.

    python3 benchmarks/route_threshold.py [--dev ../shared/data/search-dev] [--precision 0.9]

For every dev query (../shared/data/search-dev, each a user's words asking for
one skill) it ranks the query's collection with the search the route hook uses
and records the best hit's score and whether it is an expected skill. It also
ranks a few everyday prompts that ask for no skill (NEUTRAL below). A hint
fires when the best score reaches the threshold; a good threshold fires
rarely on neutral prompts and, when it fires on a dev query, names the right
skill. For each candidate threshold it prints the fires, their precision,
and the neutral prompts that fire, then the least threshold whose precision
reaches --precision with no neutral fire, beside the constant now in force.

Collections: SKILLS_CN_ROOT / SKILLS_EN_ROOT, else ../shared/data/collections/skills-{cn,en}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

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


def best_hits(skills: list, queries: list[str]) -> list[tuple[float, str]]:
    from skillmem_hook.search.rank import search

    results = []
    for query in queries:
        hits = search(skills, query, top=1)
        results.append((hits[0].score, hits[0].skill.name) if hits else (0.0, ""))
    return results


def measure(dev: Path) -> tuple[list[tuple[float, bool]], list[tuple[float, str]]]:
    """(score, right) per dev query, and (score, prompt) per neutral prompt over each collection."""
    from skillmem_hook.catalog.scan import scan_roots

    catalogs: dict[str, list] = {}
    judged: list[tuple[float, bool]] = []
    neutral: list[tuple[float, str]] = []
    for name in FILES:
        rows = [json.loads(line) for line in (dev / name).read_text(encoding="utf-8").splitlines() if line]
        for collection in sorted({row["collection"] for row in rows}):
            if collection not in catalogs:
                catalogs[collection] = scan_roots([collection_root(collection)]).skills
                scores = best_hits(catalogs[collection], list(NEUTRAL))
                neutral += [(score, prompt) for (score, _), prompt in zip(scores, NEUTRAL)]
            chosen = [row for row in rows if row["collection"] == collection]
            for row, (score, found) in zip(chosen, best_hits(catalogs[collection], [row["query"] for row in chosen])):
                judged.append((score, found in row["expect"]))
    return judged, neutral


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, default=SHARED / "search-dev")
    parser.add_argument("--precision", type=float, default=0.9)
    options = parser.parse_args()
    from skillmem_hook.agents.route import ROUTE_SCORE_THRESHOLD

    if not (options.dev / FILES[0]).is_file():
        print(f"no dev queries in {options.dev}; pass --dev", file=sys.stderr)
        return 2
    judged, neutral = measure(options.dev)
    right = sum(right for _, right in judged)
    print(f"{len(judged)} dev queries, top-1 right for {right}; {len(neutral)} neutral runs")
    print("| threshold | fires | right | precision | neutral fires |")
    print("|---:|---:|---:|---:|---:|")
    chosen = None
    for threshold in sorted({score for score, _ in judged + neutral if score > 0}):
        fired = [right for score, right in judged if score >= threshold]
        noise = sum(score >= threshold for score, _ in neutral)
        precision = sum(fired) / len(fired) if fired else 0.0
        print(f"| {threshold:g} | {len(fired)} | {sum(fired)} | {precision:.2f} | {noise} |")
        if chosen is None and fired and precision >= options.precision and noise == 0:
            chosen = threshold
    print(f"\nleast threshold with precision >= {options.precision} and no neutral fire: {chosen}")
    print(f"ROUTE_SCORE_THRESHOLD in force: {ROUTE_SCORE_THRESHOLD:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
