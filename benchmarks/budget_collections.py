"""The figures of docs/budget.md: each shared collection as Claude Code and Codex would list it, and the block.

    python3 benchmarks/budget_collections.py ARCHIVE [ARCHIVE ...]

Each archive (``skills-en.tar.gz``, ``skills-cn.tar.gz`` of the shared data)
is extracted to a temporary folder; the folder holding its SKILL.md folders
is copied to ``.claude/skills`` and ``.agents/skills`` of a fresh git
repository, where each agent looks. For 200k and 1M windows it prints what
``skillmem budget`` finds; then the block's estimated tokens in full and
under ``max_block_tokens: 2000``; then whether ``skillmem read`` serves
every name the block shows (a name two SKILL.md files share needs --path).
"""

from __future__ import annotations

import datetime
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from skillmem_hook.block.render import estimate_tokens, read_block, render_block
from skillmem_hook.budget.native import native_entries
from skillmem_hook.budget.replay import claude_code, codex
from skillmem_hook.budget.rules import DEFAULTS
from skillmem_hook.catalog.discovery.safe_read import read_skill_file
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.commands.read import pick_skill
from skillmem_hook.errors import UsageError

WINDOWS = (200_000, 1_000_000)


def skills_folder(extracted: Path) -> Path:
    """The shallowest folder named ``skills`` below the extracted archive."""
    found = sorted(extracted.rglob("skills"), key=lambda path: len(path.parts))
    return found[0]


def lay_out(archive: str, work: Path) -> Path:
    extracted = work / "extracted"
    with tarfile.open(archive) as tar:
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # no link or path out of the folder
        tar.extractall(extracted, **safe)  # type: ignore[arg-type]
    repo = work / "repo"
    for place in (".claude", ".agents"):
        shutil.copytree(skills_folder(extracted), repo / place / "skills")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def report(archive: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repo = lay_out(archive, Path(folder))
        os.chdir(repo)
        for agent, root, rule in (("claude-code", ".claude/skills", claude_code), ("codex", ".agents/skills", codex)):
            skills = scan_roots([root]).skills
            entries = native_entries(skills, str(repo), DEFAULTS)
            for window in WINDOWS:
                result = rule(entries, window, DEFAULTS[agent])
                print(
                    f"| {Path(archive).name} | {window:,} | {agent} | {result['budget_chars']:,} "
                    f"| {result['listing_chars']:,} | {len(result['descriptions_dropped'])} "
                    f"| {len(result['descriptions_cut'])} | {len(result.get('skills_omitted', []))} "
                    f"| {len(result['not_discovered'])} |"
                )
        catalog = scan_roots([".claude/skills"])
        full = estimate_tokens(len(render_block(catalog.skills)))
        capped = estimate_tokens(len(render_block(catalog.skills, max_tokens=2000)))
        print(f"block: {len(catalog.skills)} skills, {full:,} tokens in full, {capped:,} under max_block_tokens 2000")
        served = shared = 0
        for label in read_block(render_block(catalog.skills))[0]:
            try:
                skill = pick_skill(catalog, label)
            except UsageError:
                shared += 1  # two SKILL.md files of the name: served with --path
                continue
            read_skill_file(skill.root, skill.path)
            served += 1
        print(f"skillmem read: {served} names served as shown, {shared} shared by two files (--path picks one)")
        os.chdir("/")


def main() -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False)
    machine = f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs"
    print(f"{datetime.date.today()}, commit {commit.stdout.strip()}, {machine}")
    print("| archive | window | agent | budget | listing | dropped | cut | left out | not discovered |")
    print("|---|---|---|---|---|---|---|---|---|")
    for archive in sys.argv[1:]:
        report(os.path.abspath(archive))


if __name__ == "__main__":
    main()
