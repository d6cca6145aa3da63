"""Search quality on the dev set, lever by lever, on its tuning and held-out halves: hit@1/3/10 per group.

Runs the ranker in process (one index per collection and lever, bodies included,
no subprocess per query). In each dev file, odd ids are the tuning half, even
ids the held-out half: levers were chosen on the first; the second says what
they are worth on questions nobody tuned for.

    python3 benchmarks/search_quality.py                # the lever tables
    python3 benchmarks/search_quality.py --calibration  # also confidence and match on each half
    python3 benchmarks/search_quality.py --misses       # also the final tuning-half misses, with the top 3

Dev files: ../shared/data/search-dev (relative to the repository root). Collections:
SKILLS_CN_ROOT / SKILLS_EN_ROOT, or else the archives in ../shared/data/collections
are extracted to a temporary folder. SKILLMEM_SHARED_DATA names another shared/data folder.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SKILLMEM_SHARED_DATA") or REPO.parent / "shared" / "data")
DEV = DATA / "search-dev"
GROUPS = (("cn", "dev-cn.jsonl", "cn"), ("en", "dev-en.jsonl", "en"), ("xl", "dev-xl.jsonl", "en"))
sys.path.insert(0, str(REPO))

from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.confidence import confidence, match  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402
from skillmem_hook.search.store import read_body  # noqa: E402
from skillmem_hook.search.tuning import Tuning  # noqa: E402

# 0.2.0's ranking: BM25F over name, description and sections, stop words, stemming, the glossary at 0.3.
RELEASED = Tuning(body_weight=0.0, coverage_power=0.0, phrase_share=False, dictionary_weight=0.0)
# Each kept lever is added on top of the ones before it; a lever not kept is measured on top
# of the levers before it, then left out.
LEVERS: list[tuple[str, dict[str, object], bool]] = [
    ("glossary off (not kept; the glossary is frozen)", {"glossary_weight": 0.0}, False),
    ("rare words: idf^1.5 (not kept)", {"rarity": 1.5}, False),
    ("rare words: idf^2 (not kept)", {"rarity": 2.0}, False),
    ("body field x0.2 (not kept)", {"body_weight": 0.2}, False),
    ("body field x0.1", {"body_weight": 0.1}, True),
    ("a known phrase's words share one weight", {"phrase_share": True}, True),
    ("score x coverage (not kept)", {"coverage_power": 1.0}, False),
    ("score x coverage^2 (not kept)", {"coverage_power": 2.0}, False),
    ("score x coverage^0.5", {"coverage_power": 0.5}, True),
    ("a general Chinese-English dictionary x0.3 (not kept)", {"dictionary_weight": 0.3}, False),
    ("a general Chinese-English dictionary x0.15", {"dictionary_weight": 0.15}, True),
]
HALVES = ("tune", "held-out")


def collection_roots(data: Path = DATA) -> dict[str, str]:
    """Each collection's root: SKILLS_CN_ROOT / SKILLS_EN_ROOT, or its archive under ``data``, extracted."""
    roots = {"cn": os.environ.get("SKILLS_CN_ROOT", ""), "en": os.environ.get("SKILLS_EN_ROOT", "")}
    for key, root in roots.items():
        if not root:
            target = Path(tempfile.mkdtemp(prefix="skills-"))
            with tarfile.open(data / "collections" / f"skills-{key}.tar.gz") as archive:
                archive.extractall(target, filter="data")
            roots[key] = str(target / f"skills-{key}")
    return roots


def load_queries() -> dict[tuple[str, str], list[dict[str, object]]]:
    """(half, group) -> queries: odd ids are the tuning half, even ids the held-out half."""
    halves: dict[tuple[str, str], list[dict[str, object]]] = {}
    for group, file, _ in GROUPS:
        for line in (DEV / file).read_text(encoding="utf-8").splitlines():
            if line.strip():
                query = json.loads(line)
                half = HALVES[0] if int(str(query["id"]).rsplit("-", 1)[1]) % 2 else HALVES[1]
                halves.setdefault((half, group), []).append(query)
    return halves


def score(ranked: list[list[str]], queries: list[dict[str, object]]) -> tuple[float, float, float, float]:
    ranks = []
    for names, query in zip(ranked, queries):
        expect = set(query["expect"])  # type: ignore[call-overload]
        ranks.append(next((i + 1 for i, name in enumerate(names) if name in expect), 0))
    n = len(ranks)
    hit = [sum(1 for r in ranks if 0 < r <= k) / n for k in (1, 3, 10)]
    return hit[0], hit[1], hit[2], sum(1 / r for r in ranks if 0 < r <= 10) / n


def reference_ranker(roots: dict[str, str]):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bm25_dev", DEV / "bm25_dev.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    indexes = {key: module.Index.of_root(root) for key, root in roots.items()}
    return lambda key, query: [name for name, _ in indexes[key].search(query, 10)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print the final configuration's tuning misses at 3")
    parser.add_argument("--calibration", action="store_true", help="print confidence and match on each half")
    options = parser.parse_args()
    roots = collection_roots()
    queries = load_queries()
    catalogs = {key: scan_roots([root]).skills for key, root in roots.items()}
    bodies = {key: [read_body(skill) for skill in skills] for key, skills in catalogs.items()}
    rows = [("reference BM25 (bm25_dev.py)", reference_ranker(roots))]
    tuning = RELEASED
    configurations = [("0.2.0's ranking", RELEASED)]
    for label, change, kept in LEVERS:
        changed = tuning.replace(**change)  # type: ignore[arg-type]
        configurations.append((f"+ {label}", changed))
        tuning = changed if kept else tuning
    assert tuning == Tuning(), "the kept levers should add up to the ranker's defaults"
    configurations.append(("= final (the defaults)", tuning))
    finals: dict[str, SearchIndex] = {}
    for label, config in configurations:
        indexes = {key: SearchIndex.build(found, tuning=config, bodies=bodies[key]) for key, found in catalogs.items()}
        finals = indexes
        rows.append((label, lambda key, query, idx=indexes: [hit.skill.name for hit in idx[key].query(query, 10)]))
    for half in HALVES:
        heads = " | ".join(f"{g} hit@1 | {g} hit@3 | {g} hit@10" for g, _, _ in GROUPS)
        print(f"\n{half} half\n\n| configuration | {heads} |")
        print("|---" * (1 + 3 * len(GROUPS)) + "|")
        for label, rank in rows:
            cells = []
            for group, _, key in GROUPS:
                batch = queries[(half, group)]
                cells.extend(f"{value:.2f}" for value in score([rank(key, str(q["query"])) for q in batch], batch)[:3])
            print(f"| {label} | " + " | ".join(cells) + " |")
    if options.calibration:
        print_calibration(finals, queries)
    if options.misses:
        for group, _, key in GROUPS:
            for query in queries[(HALVES[0], group)]:
                top = rows[-1][1](key, str(query["query"]))
                if not set(query["expect"]) & set(top[:3]):  # type: ignore[call-overload]
                    print(f"{query['id']}: {query['query']}\n   expect {query['expect']}\n   got {top[:3]}")
    return 0


def print_calibration(indexes: dict[str, SearchIndex], queries: dict[tuple[str, str], list[dict[str, object]]]) -> None:
    """Per half: mean confidence against the share right, by band; per match word, how often the top 3 is right."""
    bands = ((0.0, 0.1), (0.1, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.01))
    for half in HALVES:
        judged: list[tuple[float, bool]] = []
        words: dict[str, list[bool]] = {}
        for group, _, key in GROUPS:
            for query in queries[(half, group)]:
                intent, index = str(query["query"]), indexes[key]
                hits = index.query(intent, 5)
                expect = set(query["expect"])  # type: ignore[call-overload]
                judged += [(confidence(hit, hits[0]), hit.skill.name in expect) for hit in hits]
                evidence = index.evidence(intent, hits[0]) if hits else 0
                fit = match(hits, evidence, index.typed_words(intent))
                words.setdefault(fit, []).append(any(hit.skill.name in expect for hit in hits[:3]))
        print(f"\n{half} half: confidence of the top 5 hits\n\n| band | hits | mean confidence | share right |")
        print("|---|---:|---:|---:|")
        for low, high in bands:
            chosen = [(value, right) for value, right in judged if low <= value < high]
            if chosen:
                mean = sum(value for value, _ in chosen) / len(chosen)
                share = sum(right for _, right in chosen) / len(chosen)
                print(f"| {low:.1f}-{min(high, 1):.1f} | {len(chosen)} | {mean:.2f} | {share:.2f} |")
        print(f"\n{half} half: match\n\n| match | queries | right skill in the top 3 |\n|---|---:|---:|")
        for fit, rights in sorted(words.items()):
            print(f"| {fit} | {len(rights)} | {sum(rights)} |")


if __name__ == "__main__":
    raise SystemExit(main())
