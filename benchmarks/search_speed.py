"""Search speed: what body sections cost the scan, and how build and query grow with the skill count.

    SKILLS_CN_ROOT=... python3 benchmarks/search_speed.py

CPU seconds (time.process_time, best of 3) so that a busy machine skews less; peak RSS
from a fresh process per size. The large sizes repeat the collection's skills under
new names, so every size has the same text per skill.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from skillmem_hook.catalog import skills as skills_module  # noqa: E402
from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.catalog.skills import Skill  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402

QUERIES = ("数据库太慢怎么优化", "怎么给网站做无障碍检查", "deploy containers to kubernetes", "发票 报销 流程自动化")
SIZES = (2_000, 10_000, 50_000, 100_000)


def best_of(action, runs: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        started = time.process_time()
        action()
        times.append(time.process_time() - started)
    return min(times)


def scan_cost(root: str) -> None:
    with_sections = best_of(lambda: scan_roots([root]))
    original = skills_module.extract_sections
    skills_module.extract_sections = lambda body, cap=0: ""  # type: ignore[assignment]
    try:
        without = best_of(lambda: scan_roots([root]))
    finally:
        skills_module.extract_sections = original
    print("| scan | CPU s |")
    print("|---|---|")
    print(f"| without body sections | {without:.3f} |")
    print(f"| with body sections | {with_sections:.3f} |")


def grown(skills: list[Skill], size: int) -> list[Skill]:
    out = []
    for number in range(size):
        skill = skills[number % len(skills)]
        out.append(
            Skill(
                name=f"{skill.name}-{number}",
                description=skill.description,
                path=f"{skill.path}-{number}",
                root=skill.root,
                warnings=[],
                sections=skill.sections,
            )
        )
    return out


def one_size(root: str, size: int) -> None:
    skills = grown(scan_roots([root]).skills, size)
    build = best_of(lambda: SearchIndex.build(skills), runs=1)
    index = SearchIndex.build(skills)
    query = statistics.median(best_of(lambda q=q: index.query(q, 10), runs=1) for q in QUERIES)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"| {size:,} | {build:.2f} | {query * 1000:.0f} | {peak:.0f} |")


def main() -> int:
    root = os.environ.get("SKILLS_CN_ROOT", "")
    if not root:
        print("set SKILLS_CN_ROOT to the extracted skills-cn folder", file=sys.stderr)
        return 2
    if len(sys.argv) > 1:
        one_size(root, int(sys.argv[1]))
        return 0
    scan_cost(root)
    print("\n| skills | build CPU s | median query CPU ms | peak RSS MB (whole process) |")
    print("|---|---|---|---|")
    for size in SIZES:
        subprocess.run([sys.executable, __file__, str(size)], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
