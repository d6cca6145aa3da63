"""The figures of docs/budget.md and docs/agents.md: each shared collection as each agent would list it, and the block.

    python3 benchmarks/budget_collections.py ARCHIVE [ARCHIVE ...]

Each archive (``skills-en.tar.gz``, ``skills-cn.tar.gz`` of the shared data)
is extracted to a temporary folder. Its folder of skills is then put where
a user would put it, each time in a fresh git repository: left where the
archive lays it out (``skills/``), and copied into each agent's own folder
(``.claude/skills``, ``.agents/skills``, ``.github/skills``,
``.gemini/skills``, ``.opencode/skills``). In each repository it runs
``skillmem budget --agent all`` as a user would (200k and 1M windows) and
prints one table row per agent whose own folder that is; then the block's
estimated tokens in full and under ``max_block_tokens: 2000``; then whether
``skillmem read`` serves every name the block shows (a name two SKILL.md
files share needs --path).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from skillmem_hook.block.render import estimate_tokens, read_block, render_block
from skillmem_hook.catalog.discovery.safe_read import read_skill_file
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.commands.read import pick_skill
from skillmem_hook.errors import UsageError

WINDOWS = (200_000, 1_000_000)
# Where a user puts the skills for each agent: the agent's own folder (the first it reads).
PLACES = {
    "skills": ("claude-code", "codex", "copilot-cli", "vscode", "gemini-cli", "opencode"),  # as the archive has it
    ".claude/skills": ("claude-code",),
    ".agents/skills": ("codex",),
    ".github/skills": ("copilot-cli", "vscode"),
    ".gemini/skills": ("gemini-cli",),
    ".opencode/skills": ("opencode",),
}


def skills_folder(extracted: Path) -> Path:
    """The shallowest folder named ``skills`` below the extracted archive."""
    found = sorted(extracted.rglob("skills"), key=lambda path: len(path.parts))
    return found[0]


def lay_out(source: Path, repo: Path, place: str) -> None:
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    shutil.copytree(source, repo / place)


def budget(repo: Path, place: str, window: int) -> dict[str, dict[str, object]]:
    command = [sys.executable, "-m", "skillmem_hook", "budget", "--root", place, "--agent", "all"]
    command += ["--context-window", str(window)]
    done = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=True)
    return {agent["agent"]: agent for agent in json.loads(done.stdout)["agents"]}


def row(name: str, place: str, window: int, result: dict[str, object]) -> str:
    budget_or_share = (
        f"{result['budget_chars']:,}"
        if result["budget_chars"] is not None
        else f"none ({float(str(result['window_share'])):.1%} of the window)"
    )
    keys = ("descriptions_dropped", "skills_omitted", "not_discovered")
    counts = [len(result.get(key) or []) for key in keys]  # type: ignore[arg-type]
    return (
        f"| {name} | {place} | {window // 1000}k | {result['agent']} | {result['listed']:,} | {counts[0]:,} "
        f"| {counts[1]:,} | {counts[2]:,} | {result['listing_chars']:,} | {budget_or_share} |"
    )


def report(archive: str) -> None:
    name = Path(archive).name.split(".")[0]
    with tempfile.TemporaryDirectory() as folder:
        extracted = Path(folder) / "extracted"
        with tarfile.open(archive) as tar:
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # no link or path out of the folder
            tar.extractall(extracted, **safe)  # type: ignore[arg-type]
        source = skills_folder(extracted)
        for number, (place, agents) in enumerate(PLACES.items()):
            repo = Path(folder) / f"repo{number}"
            lay_out(source, repo, place)
            for window in WINDOWS:
                results = budget(repo, place, window)
                for agent in agents:
                    print(row(name, place, window, results[agent]))
        block_figures(Path(folder) / "repo0", "skills")


def block_figures(repo: Path, root: str) -> None:
    os.chdir(repo)
    catalog = scan_roots([root])
    full = estimate_tokens(len(render_block(catalog.skills)))
    capped = estimate_tokens(len(render_block(catalog.skills, max_tokens=2000)))
    print(f"block: {len(catalog.skills):,} skills, {full:,} tokens in full, {capped:,} under max_block_tokens 2000")
    served = shared = 0
    for label in read_block(render_block(catalog.skills))[0]:
        try:
            skill = pick_skill(catalog, label)
        except UsageError:
            shared += 1  # two SKILL.md files of the name: served with --path
            continue
        read_skill_file(skill.root, skill.path)
        served += 1
    print(f"skillmem read: {served:,} names served as shown, {shared} shared by two files (--path picks one)")
    os.chdir("/")


def main() -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False)
    machine = f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs"
    print(f"{datetime.date.today()}, commit {commit.stdout.strip()}, {machine}")
    head = ("collection", "placed in", "window", "agent", "listed", "names only", "left out", "not listed", "listing")
    print(f"| {' | '.join(head)} | budget (chars) |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---|")
    for archive in [os.path.abspath(path) for path in sys.argv[1:]]:  # before any os.chdir
        report(archive)


if __name__ == "__main__":
    main()
