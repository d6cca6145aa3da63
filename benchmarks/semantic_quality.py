"""The semantic leg on the dev set's tune and held-out halves: lexical alone against lexical + semantic.

    python3 -m pip install '.[semantic]'
    python3 benchmarks/semantic_quality.py            # print the table
    python3 benchmarks/semantic_quality.py --write    # and put it into docs/search.md ("Semantic leg")

The split every engineer uses: in each dev file, queries with an odd id number
(dev-cn-001, -003, ...) are the TUNE half, even ones the HELD-OUT half. Levers
were chosen on the tune half; the held-out columns are the report. Misses are
printed for the tune half only (``--misses``), so no held-out miss guides tuning.

Dev files: ../shared/data/search-dev (relative to the repository root). Collections:
SKILLS_CN_ROOT / SKILLS_EN_ROOT, or else the archives in ../shared/data/collections
are extracted to a temporary folder.
"""

from __future__ import annotations

import argparse
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
DOC = REPO / "docs" / "search.md"
GROUPS = (("cn", "dev-cn.jsonl", "cn"), ("en", "dev-en.jsonl", "en"), ("xl", "dev-xl.jsonl", "en"))
BEGIN, END = "<!-- semantic-quality:begin -->", "<!-- semantic-quality:end -->"
sys.path.insert(0, str(REPO))

from search_quality import collection_roots  # noqa: E402 - the same extraction, beside this script

from skillmem_hook.agents.search_store import read_body  # noqa: E402
from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.evaluate import rank_of, ranking_figures  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402
from skillmem_hook.search.semantic import Encoder, SemanticIndex, rank_with_meaning, skill_text  # noqa: E402

# (label, fusion weight or None for lexical alone, skill text, pool); the shipped one is marked.
LEVERS = [
    ("lexical alone (today's ranking)", None, "name+description", 50),
    ("+ semantic x0.3", 0.3, "name+description", 50),
    ("+ semantic x0.4 (shipped)", 0.4, "name+description", 50),
    ("+ semantic x0.5", 0.5, "name+description", 50),
    ("+ semantic x0.6", 0.6, "name+description", 50),
    ("+ semantic x0.4, candidates 20 a leg (not kept)", 0.4, "name+description", 20),
    ("+ semantic x0.4, candidates 100 a leg (not kept)", 0.4, "name+description", 100),
    ("+ semantic x0.4, body sections in the vector (not kept)", 0.4, "name+description+sections", 50),
    ("semantic alone (x1.0, not kept)", 1.0, "name+description", 50),
]


def with_sections(skill):  # type: ignore[no-untyped-def]
    return f"{skill_text(skill)} {skill.sections}"


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="replace the table in docs/search.md")
    parser.add_argument("--misses", action="store_true", help="print the shipped lever's misses on the tune half")
    parser.add_argument("--dev", type=Path, default=DEV, help="the folder of dev-{cn,en,xl}.jsonl")
    options = parser.parse_args()
    roots = collection_roots(DATA)
    split = halves(options.dev)
    catalogs = {key: scan_roots([root]).skills for key, root in roots.items()}
    # The lexical leg as `skillmem search` and the MCP server build it: bodies included.
    bodies = {key: [read_body(skill) for skill in skills] for key, skills in catalogs.items()}
    lexical = {key: SearchIndex.build(skills, bodies=bodies[key]) for key, skills in catalogs.items()}
    encoder = Encoder()
    meanings: dict[tuple[str, str], SemanticIndex] = {}
    for text, function in (("name+description", skill_text), ("name+description+sections", with_sections)):
        for key, skills in catalogs.items():
            started = time.process_time()
            meanings[text, key] = SemanticIndex(skills, encoder, text=function)
            spent = time.process_time() - started
            print(f"encoded {len(skills)} {key} skills ({text}) in {spent:.1f} s CPU", file=sys.stderr)
    rows = []
    for label, weight, text, pool in LEVERS:
        cells = []
        for half in ("tune", "held-out"):
            for group, _, key in GROUPS:
                ranks = []
                for query in split[group, half]:
                    intent = str(query["query"])
                    if weight is None:
                        hits = lexical[key].query(intent, 10)
                    else:
                        hits = rank_with_meaning(lexical[key], meanings[text, key], intent, 10, weight, pool=pool)
                    names = list(dict.fromkeys(hit.skill.name for hit in hits))
                    ranks.append(rank_of(names, query["expect"]))  # type: ignore[arg-type]
                    if options.misses and half == "tune" and "shipped" in label and not 0 < ranks[-1] <= 3:
                        print(f"tune miss {query['id']} rank {ranks[-1]}: {intent} -> {names[:3]}", file=sys.stderr)
                figures = ranking_figures(ranks)
                cells += [f"{figures['hit@3']:.3f}", f"{figures['hit@10']:.3f}"]
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    counts = " / ".join(
        f"{group} {len(split[group, 'tune'])}+{len(split[group, 'held-out'])}" for group, _, _ in GROUPS
    )
    heads = " | ".join(
        f"{half} {group} {figure}"
        for half in ("tune", "held-out")
        for group, _, _ in GROUPS
        for figure in ("hit@3", "hit@10")
    )
    table = "\n".join(
        [
            f"Measured {machine()}; queries tune+held-out: {counts}; encoder `{encoder.model}`, one thread.",
            "",
            f"| configuration | {heads} |",
            "|---" * (1 + 2 * 2 * len(GROUPS)) + "|",
            *rows,
        ]
    )
    print(table)
    if options.write:
        doc = DOC.read_text(encoding="utf-8")
        pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
        if not pattern.search(doc):
            print(f"docs/search.md has no {BEGIN} ... {END} block", file=sys.stderr)
            return 2
        DOC.write_text(pattern.sub(lambda _: f"{BEGIN}\n{table}\n{END}", doc), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
