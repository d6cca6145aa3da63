"""The semantic leg on the dev set's tune and held-out halves and the cross-lingual proxy: lexical alone against fused.

    python3 -m pip install '.[semantic]'
    python3 benchmarks/semantic_quality.py --tune     # what levers are chosen on: tune half and proxy only
    python3 benchmarks/semantic_quality.py            # both tables
    python3 benchmarks/semantic_quality.py --write    # and put them into docs/notes/search.md ("Semantic leg")

The split every engineer uses: in each dev file, queries with an odd id number
(dev-cn-001, -003, ...) are the TUNE half, even ones the HELD-OUT half. Levers
are chosen on the tune half and on the cross-lingual proxy (crosslingual_proxy.py:
each English skill asked for by its Chinese twin's description, and back); the
held-out table is the report. Misses are printed for the tune half only
(``--misses``), so no held-out miss guides tuning.

Dev files: ../shared/data/search-dev (relative to the repository root). Collections:
SKILLS_CN_ROOT / SKILLS_EN_ROOT, or else the archives in ../shared/data/collections
are extracted to a temporary folder.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# ../shared/data beside the repository (a work tree may sit a level deeper).
DATA = next((folder / "shared" / "data" for folder in REPO.parents if (folder / "shared" / "data").is_dir()), REPO)
DEV = DATA / "search-dev"
DOC = REPO / "docs" / "notes" / "search.md"
GROUPS = (("cn", "dev-cn.jsonl", "cn"), ("en", "dev-en.jsonl", "en"), ("xl", "dev-xl.jsonl", "en"))
BEGIN, END = "<!-- semantic-quality:begin -->", "<!-- semantic-quality:end -->"
sys.path.insert(0, str(REPO))

from crosslingual_proxy import DIRECTIONS, collection_of, proxy_sets  # noqa: E402
from search_quality import collection_roots  # noqa: E402 - the same extraction, beside this script

from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.evaluate import rank_of, ranking_figures  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402
from skillmem_hook.search.semantic import Encoder, SemanticIndex, rank_with_meaning, skill_text  # noqa: E402
from skillmem_hook.search.store import read_body  # noqa: E402
from skillmem_hook.search.tokenize import CJK  # noqa: E402

ND, D, NDS = "name+description", "description", "name+description+sections"
SHIPPED = "shipped"  # rank_with_meaning's own weight for each query
_CJK_CHARACTER = re.compile(f"[{CJK}]")


def across_scripts(across: float, base: float = 0.4):  # type: ignore[no-untyped-def]
    """The shipped rule with another weight for a query in no CJK script over CJK-described skills."""
    return lambda intent, index, meaning: (
        base if _CJK_CHARACTER.search(intent) else base + (across - base) * meaning.cjk_share
    )


def by_coverage(intent, index, meaning):  # type: ignore[no-untyped-def]
    """Lean on meaning as the best lexical hit holds fewer of the query's words, across scripts as shipped."""
    hits = index.query(intent, 1)
    base = 0.2 + 0.3 * (1.0 - (hits[0].coverage if hits else 0.0))
    return across_scripts(0.7, base)(intent, index, meaning)


# (label, weight: None for lexical alone, a number, SHIPPED, or a function of the query; skill text; pool).
LEVERS = [
    ("lexical alone (today's ranking)", None, ND, 50),
    ("+ semantic x0.2 (not kept)", 0.2, ND, 50),
    ("+ semantic x0.3 (not kept)", 0.3, ND, 50),
    ("+ semantic x0.4 (0.3.0's fusion)", 0.4, ND, 50),
    ("+ semantic x0.5 (not kept)", 0.5, ND, 50),
    ("+ semantic x0.6 (not kept)", 0.6, ND, 50),
    ("+ semantic x0.4, across scripts x0.7 (shipped)", SHIPPED, ND, 50),
    ("+ semantic x0.4, across scripts x0.6 (not kept)", across_scripts(0.6), ND, 50),
    ("+ semantic x0.4, across scripts x0.8 (not kept)", across_scripts(0.8), ND, 50),
    ("+ semantic x0.3, across scripts x0.7 (not kept: see docs/search.md)", across_scripts(0.7, 0.3), ND, 50),
    ("shipped, x0.2 + 0.3 (1 - lexical coverage) (not kept)", by_coverage, ND, 50),
    ("shipped, description alone in the vector (not kept)", SHIPPED, D, 50),
    ("shipped, body sections in the vector (not kept)", SHIPPED, NDS, 50),
    ("shipped, candidates 20 a leg (not kept)", SHIPPED, ND, 20),
    ("shipped, candidates 100 a leg (not kept)", SHIPPED, ND, 100),
    ("semantic alone (x1.0, not kept)", 1.0, ND, 50),
]
TEXTS = {
    ND: skill_text,
    D: lambda skill: skill.description[:2000],
    NDS: lambda skill: f"{skill_text(skill)} {skill.sections}",
}


def halves(dev: Path) -> dict[tuple[str, str], list[dict[str, object]]]:
    """(group, 'tune' or 'held-out') -> the queries of that half: odd id numbers tune, even ones held out."""
    split: dict[tuple[str, str], list[dict[str, object]]] = {}
    for group, file, _ in GROUPS:
        for line in (dev / file).read_text(encoding="utf-8").splitlines():
            if line.strip():
                query = json.loads(line)
                half = "tune" if int(str(query["id"]).rsplit("-", 1)[1]) % 2 else "held-out"
                split.setdefault((group, half), []).append(query)
    return split


def machine() -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    ).stdout
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    return (
        f"{time.strftime('%Y-%m-%d')}, commit `{commit.strip()}`, Python {platform.python_version()}, "
        f"{cpu}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )


def ranker(lexical, meanings, weight, text, pool):  # type: ignore[no-untyped-def]
    """(collection, intent) -> the top 10 names of one lever."""

    def rank(key: str, intent: str) -> list[str]:
        if weight is None:
            hits = lexical[key].query(intent, 10)
        else:
            meaning = meanings[text, key]
            chosen = weight(intent, lexical[key], meaning) if callable(weight) else weight
            hits = rank_with_meaning(
                lexical[key], meaning, intent, 10, None if chosen == SHIPPED else chosen, pool=pool
            )
        return list(dict.fromkeys(hit.skill.name for hit in hits))

    return rank


def cells(rank, questions, misses: str = "") -> list[str]:  # type: ignore[no-untyped-def]
    """hit@3 and hit@10 of one lever on a set of questions ('-' for an empty set)."""
    ranks = []
    for question in questions:
        names = rank(question["key"], str(question["query"]))
        ranks.append(rank_of(names, question["expect"]))
        if misses and not 0 < ranks[-1] <= 3:
            print(
                f"{misses} miss {question.get('id')} rank {ranks[-1]}: {question['query']} -> {names[:3]}",
                file=sys.stderr,
            )
    if not ranks:
        return ["-", "-"]
    figures = ranking_figures(ranks)
    return [f"{figures['hit@3']:.3f}", f"{figures['hit@10']:.3f}"]


def table(rows: list[list[str]], sets: list[str]) -> list[str]:
    heads = " | ".join(f"{name} {figure}" for name in sets for figure in ("hit@3", "hit@10"))
    return [f"| configuration | {heads} |", "|---" * (1 + 2 * len(sets)) + "|", *(f"| {' | '.join(r)} |" for r in rows)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="replace the tables in docs/notes/search.md")
    parser.add_argument(
        "--tune", action="store_true", help="only the tune half and the proxy: what levers are chosen on"
    )
    parser.add_argument("--misses", action="store_true", help="print the shipped lever's misses on the tune half")
    parser.add_argument("--dev", type=Path, default=DEV, help="the folder of dev-{cn,en,xl}.jsonl")
    options = parser.parse_args()
    if options.write and options.tune:
        parser.error("--write needs the held-out table: leave out --tune")
    roots = collection_roots(DATA)
    split = halves(options.dev)
    catalogs = {key: scan_roots([root]).skills for key, root in roots.items()}
    # The lexical leg as `skillmem search` and the MCP server build it: bodies included.
    bodies = {key: [read_body(skill) for skill in skills] for key, skills in catalogs.items()}
    lexical = {key: SearchIndex.build(skills, bodies=bodies[key]) for key, skills in catalogs.items()}
    encoder = Encoder()
    meanings: dict[tuple[str, str], SemanticIndex] = {}
    for text, function in TEXTS.items():
        for key, skills in catalogs.items():
            started = time.process_time()
            meanings[text, key] = meaning = SemanticIndex(skills, encoder, text=function)
            meaning.similarities = functools.lru_cache(maxsize=None)(meaning.similarities)  # type: ignore[method-assign]
            spent = time.process_time() - started
            print(f"encoded {len(skills)} {key} skills ({text}) in {spent:.1f} s CPU", file=sys.stderr)
    sets = {group: [{**q, "key": key} for q in split[group, "tune"]] for group, _, key in GROUPS}
    proxy = proxy_sets(catalogs["cn"], catalogs["en"])
    sets.update({d: [{**q, "key": collection_of(d)} for q in proxy[d]] for d in DIRECTIONS})
    held_out = {group: [{**q, "key": key} for q in split[group, "held-out"]] for group, _, key in GROUPS}
    chosen_rows, report_rows = [], []
    for label, weight, text, pool in LEVERS:
        rank = ranker(lexical, meanings, weight, text, pool)
        misses = "tune" if options.misses and "(shipped)" in label else ""
        chosen_rows.append(
            [label, *(c for name, qs in sets.items() for c in cells(rank, qs, misses * (name in held_out)))]
        )
        if not options.tune:
            report_rows.append([label, *(c for qs in held_out.values() for c in cells(rank, qs))])
    counts = " / ".join(
        f"{group} {len(split[group, 'tune'])}+{len(split[group, 'held-out'])}" for group, _, _ in GROUPS
    )
    proxy_counts = " / ".join(f"{d} {len(proxy[d])}" for d in DIRECTIONS)
    lines = [
        f"Measured {machine()}; queries tune+held-out: {counts}; proxy: {proxy_counts}; "
        f"encoder `{encoder.model}`, one thread.",
        "",
        "Chosen on: the tune half (odd ids) and the cross-lingual proxy.",
        "",
        *table(chosen_rows, [f"tune {name}" if name in held_out else f"proxy {name}" for name in sets]),
    ]
    if not options.tune:
        lines += [
            "",
            "The report: the held-out half (even ids).",
            "",
            *table(report_rows, [f"held-out {g}" for g in held_out]),
        ]
    text = "\n".join(lines)
    print(text)
    if options.write:
        doc = DOC.read_text(encoding="utf-8")
        pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
        if not pattern.search(doc):
            print(f"docs/notes/search.md has no {BEGIN} ... {END} block", file=sys.stderr)
            return 2
        DOC.write_text(pattern.sub(lambda _: f"{BEGIN}\n{text}\n{END}", doc), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
