"""How often the domain table agrees with people who sorted real skills by hand.

    python3 benchmarks/categorization.py [CN_SKILLS_ROOT] [--en EN_SKILLS_ROOT] [--show N]

The Chinese collection keeps each skill in a category folder chosen by its
maintainers (``skills/<类别>/...``). Folders that correspond to domains are
mapped to the domains they allow (FOLDER_DOMAINS); a skill agrees when its
domain is one of those. The other folders (meta skills, productivity, SaaS,
page generators) are left out of the agreement but counted in the share of
``general``.

The root is the collection's ``skills`` folder, given as an argument or in
the environment variable SKILLS_CN_ROOT; without either, the archive in
``../shared/data/collections/`` is extracted to a temporary folder. The
English collection (no category folders) is measured for its share of
``general`` and its spread over the domains.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # measure this checkout, not an installed copy

from skillmem_hook.catalog.discovery.head_read import read_skill_head  # noqa: E402
from skillmem_hook.catalog.placement.domains import GENERAL, place  # noqa: E402
from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.catalog.skillfile.declared import read_skill_text  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.catalog.skills import Skill

COLLECTIONS = HERE.parent.parent / "shared" / "data" / "collections"

# The issue's mapping of the maintainers' folders to the domains they allow.
FOLDER_DOMAINS: dict[str, tuple[str, ...]] = {
    "后端开发": ("backend", "engineering"),
    "安全与测试": ("security", "testing"),
    "前端UI": ("frontend",),
    "DevOps基础设施": ("devops",),
    "AI智能体": ("ai-agents",),
    "增长与营销": ("business",),
    "数据与机器学习": ("data-parsing", "ai-agents"),
    "数据库": ("backend", "data-parsing"),
    "内容写作": ("docs-writing",),
    "产品与UX": ("frontend", "business"),
    "API集成": ("backend", "engineering"),
}


def extracted_root(archive: str, inner: str, workdir: str) -> str:
    with tarfile.open(COLLECTIONS / archive) as tar:
        tar.extractall(workdir)  # our own archive, read-only data
    matches = sorted(Path(workdir).glob(inner))
    if not matches:
        sys.exit(f"no {inner} inside {archive}")
    return str(matches[0])


def folder_of(skill: Skill) -> str:
    return skill.path.split("/", 1)[0]


def agreement_table(skills: list[Skill]) -> tuple[list[tuple[str, int, int]], int, int]:
    per_folder: dict[str, list[int]] = {}
    for skill in skills:
        allowed = FOLDER_DOMAINS.get(folder_of(skill))
        if allowed is not None:
            tally = per_folder.setdefault(folder_of(skill), [0, 0])
            tally[0] += skill.domain in allowed
            tally[1] += 1
    rows = [(folder, agreed, total) for folder, (agreed, total) in sorted(per_folder.items())]
    return rows, sum(row[1] for row in rows), sum(row[2] for row in rows)


def print_agreement(skills: list[Skill], show: int) -> None:
    rows, agreed, total = agreement_table(skills)
    print("| folder | allows | agreed | skills | % |")
    print("|---|---|---:|---:|---:|")
    for folder, folder_agreed, folder_total in rows:
        allows = ", ".join(FOLDER_DOMAINS[folder])
        print(f"| {folder} | {allows} | {folder_agreed} | {folder_total} | {100 * folder_agreed / folder_total:.1f} |")
    print(f"| **overall** | | **{agreed}** | **{total}** | **{100 * agreed / total:.1f}** |")
    if show:
        print(f"\nDisagreements (first {show} per folder): name, domain, placed by")
        for folder, _, _ in rows:
            wrong = [s for s in skills if folder_of(s) == folder and s.domain not in FOLDER_DOMAINS[folder]]
            for skill in sorted(wrong, key=lambda skill: skill.label)[:show]:
                print(f"  {folder}: {skill.label} -> {skill.domain} ({reason_of(skill)})")


def reason_of(skill: Skill) -> str:
    return f"{skill.placement.keyword} in the {skill.placement.field}"


def print_spread(label: str, skills: list[Skill]) -> None:
    counts = collections.Counter(skill.domain for skill in skills)
    general = counts[GENERAL]
    spread = ", ".join(f"{domain} {count}" for domain, count in counts.most_common())
    print(f"{label}: {len(skills)} skills, general {general} ({100 * general / len(skills):.1f}%); {spread}")


def time_placing(skills: list[tuple[str, str, str]]) -> float:
    """CPU microseconds per skill to place every (name, description, title) ten times over."""
    start = time.process_time()
    for _ in range(10):
        for name, description, title in skills:
            place(name, description, title)
    return (time.process_time() - start) / (10 * len(skills)) * 1e6


def fields_of(root: str, skills: list[Skill]) -> list[tuple[str, str, str]]:
    """Each skill's name, description and body title (read again: the skill keeps only its placement)."""
    titles = [read_skill_text(read_skill_head(os.path.join(root, skill.path, "SKILL.md"))).title for skill in skills]
    return [(skill.name, skill.description, title) for skill, title in zip(skills, titles)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=os.environ.get("SKILLS_CN_ROOT"), help="the cn skills folder")
    parser.add_argument("--en", default=os.environ.get("SKILLS_EN_ROOT"), help="the en skills folder")
    parser.add_argument("--show", type=int, default=0, help="list this many disagreements per folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        cn_root = args.root or extracted_root("skills-cn.tar.gz", "skills-cn/*/skills", workdir)
        en_root = args.en or extracted_root("skills-en.tar.gz", "skills-en/skills", workdir)
        cn_skills = scan_roots([cn_root]).skills
        en_skills = scan_roots([en_root]).skills
        fields = fields_of(cn_root, cn_skills) + fields_of(en_root, en_skills)
    print_agreement(cn_skills, args.show)
    print()
    print_spread("cn", cn_skills)
    print_spread("en", en_skills)
    print(f"\nplacing a skill: {time_placing(fields):.1f} µs (in process, both collections)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
