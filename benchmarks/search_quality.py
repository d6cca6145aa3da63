"""Search quality on the dev set, lever by lever: hit@1/3/10 and MRR@10 per language group.

Runs the ranker in process (one index per collection and lever, no subprocess per query).

    python3 benchmarks/search_quality.py            # the ablation table
    python3 benchmarks/search_quality.py --misses   # also each final miss, with the top 3

Dev files: ../shared/data/search-dev (relative to the repository root). Collections:
SKILLS_CN_ROOT / SKILLS_EN_ROOT, or else the archives in ../shared/data/collections
are extracted to a temporary folder.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
DEV = DATA / "search-dev"
GROUPS = (("cn", "dev-cn.jsonl", "cn"), ("en", "dev-en.jsonl", "en"), ("xl", "dev-xl.jsonl", "en"))
sys.path.insert(0, str(REPO))

from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402
from skillmem_hook.search.tuning import Tuning  # noqa: E402

PLAIN = Tuning(
    name_weight=1.0,
    name_b=0.75,
    sections_weight=0.0,
    stop_words=False,
    stemming=False,
    unigram_weight=0.0,
    glossary_weight=0.0,
)
# Each kept lever is added on top of the ones before it; a lever not kept is measured on top
# of the levers before it, then left out.
LEVERS: list[tuple[str, dict[str, object], bool]] = [
    ("BM25F fields: name x3 (b 0.3)", {"name_weight": 3.0, "name_b": 0.3}, True),
    ("stop words and phrases", {"stop_words": True}, True),
    ("English stemming", {"stemming": True}, True),
    ("body sections x0.4", {"sections_weight": 0.4}, True),
    ("CJK unigrams x0.1 (not kept)", {"unigram_weight": 0.1}, False),
    ("glossary expansion x1.0 (not kept)", {"glossary_weight": 1.0}, False),
    ("glossary expansion x0.3", {"glossary_weight": 0.3}, True),
    ("pseudo-relevance feedback, 10 words of the top 3 x0.2 (not kept)", {"feedback_weight": 0.2}, False),
]


def collection_roots() -> dict[str, str]:
    roots = {"cn": os.environ.get("SKILLS_CN_ROOT", ""), "en": os.environ.get("SKILLS_EN_ROOT", "")}
    for key, root in roots.items():
        if not root:
            target = Path(tempfile.mkdtemp(prefix="skills-"))
            with tarfile.open(DATA / "collections" / f"skills-{key}.tar.gz") as archive:
                archive.extractall(target, filter="data")
            roots[key] = str(target / f"skills-{key}")
    return roots


def load_queries() -> dict[str, list[dict[str, object]]]:
    return {
        group: [json.loads(line) for line in (DEV / file).read_text(encoding="utf-8").splitlines() if line.strip()]
        for group, file, _ in GROUPS
    }


def score(ranked: list[list[str]], queries: list[dict[str, object]]) -> tuple[float, float, float, float]:
    ranks = []
    for names, query in zip(ranked, queries):
        expect = set(query["expect"])  # type: ignore[call-overload]
        ranks.append(next((i + 1 for i, name in enumerate(names) if name in expect), 0))
    n = len(ranks)
    hit = [sum(1 for r in ranks if 0 < r <= k) / n for k in (1, 3, 10)]
    mrr = sum(1 / r for r in ranks if 0 < r <= 10) / n
    return hit[0], hit[1], hit[2], mrr


def reference_ranker(roots: dict[str, str]):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bm25_dev", DEV / "bm25_dev.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    indexes = {key: module.Index.of_root(root) for key, root in roots.items()}
    return lambda key, query: [name for name, _ in indexes[key].search(query, 10)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print the final configuration's misses at 3")
    options = parser.parse_args()
    roots = collection_roots()
    queries = load_queries()
    catalogs = {key: scan_roots([root]).skills for key, root in roots.items()}
    rows = [("reference BM25 (bm25_dev.py)", reference_ranker(roots))]
    tuning = PLAIN
    configurations = [("plain BM25 in skillmem (name + description)", PLAIN)]
    for label, change, kept in LEVERS:
        changed = tuning.replace(**change)  # type: ignore[arg-type]
        configurations.append((f"+ {label}", changed))
        tuning = changed if kept else tuning
    assert tuning == Tuning(), "the kept levers should add up to the ranker's defaults"
    configurations.append(("= final (the defaults)", tuning))
    for label, config in configurations:
        indexes = {key: SearchIndex.build(skills, tuning=config) for key, skills in catalogs.items()}
        rows.append((label, lambda key, query, idx=indexes: [hit.skill.name for hit in idx[key].query(query, 10)]))
    heads = " | ".join(f"{g} hit@1 | {g} hit@3 | {g} hit@10 | {g} MRR" for g, _, _ in GROUPS)
    print(f"| configuration | {heads} |")
    print("|---" * (1 + 4 * len(GROUPS)) + "|")
    for label, rank in rows:
        started = time.perf_counter()
        cells = []
        for group, _, key in GROUPS:
            ranked = [rank(key, str(query["query"])) for query in queries[group]]
            cells.extend(f"{value:.3f}" for value in score(ranked, queries[group]))
        print(f"| {label} | " + " | ".join(cells) + f" |  <!-- {time.perf_counter() - started:.2f} s -->")
    if options.misses:
        final = rows[-1][1]
        for group, _, key in GROUPS:
            for query in queries[group]:
                top = final(key, str(query["query"]))
                if not set(query["expect"]) & set(top[:3]):  # type: ignore[call-overload]
                    rank = next((i + 1 for i, n in enumerate(top) if n in query["expect"]), 0)  # type: ignore[operator]
                    print(f"{query['id']} rank {rank}: {query['query']}\n   expect {query['expect']}\n   got {top[:3]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
