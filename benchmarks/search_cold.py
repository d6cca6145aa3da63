"""Cold ``skillmem search`` and warm ``skillmem route`` at 2,000 skills, beside the bare interpreter start.

    python3 benchmarks/search_cold.py [--runs 10]

A temporary repository holds ``skills/``: the 1,912-file Chinese collection
(1,899 skills) plus 101 of the English one: the 25 whose names no Chinese skill
has, then copies under new names, 2,000 skills in all
(SKILLS_CN_ROOT / SKILLS_EN_ROOT, else ../shared/data/collections/skills-{cn,en}).
Every measured run is a whole new process, alternating with ``python -c pass``
(the yardstick, measured in the same loop):

- search, stored index: ``skillmem search`` with the index in .git/ current
  (the common case: a process start, a load, a lookup);
- search, index rebuilt: the index deleted before each run (the first search
  after a change: scan, read the bodies, build, store);
- route, names no skill: a request that names no skill, with both indexes warm,
  so the score rule runs (the hook's path on most prompts).

Medians of wall-clock and CPU (user + system) milliseconds, and each as a
multiple of the yardstick's median; then the date, the commit and the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("SKILLMEM_SHARED_DATA") or HERE.parent.parent / "shared" / "data")
EXTRA_ENGLISH = 101  # 1,899 + 101 = 2,000
QUERY = ["数据库", "慢查询", "怎么", "优化", "索引"]
PROMPT = "我们的 PostgreSQL 数据库查询越来越慢, 想找出慢查询并优化索引"


def collection(name: str) -> Path:
    return Path(os.environ.get(f"SKILLS_{name.upper()}_ROOT") or SHARED / "collections" / f"skills-{name}")


def lay_out(repo: Path) -> int:
    """The Chinese collection and enough English skills to make 2,000, under repo/skills."""
    skills = repo / "skills"
    shutil.copytree(collection("cn"), skills / "cn")
    sys.path.insert(0, str(HERE.parent))
    from skillmem_hook.catalog.scan import scan_roots

    chinese = {skill.slug for skill in scan_roots([str(collection("cn"))]).skills}
    english = sorted(scan_roots([str(collection("en"))]).skills, key=lambda skill: skill.path)
    # The Chinese collection translates most of the English one: its own skills first, then renamed copies.
    for skill in [skill for skill in english if skill.slug not in chinese][:EXTRA_ENGLISH]:
        shutil.copytree(Path(skill.root, skill.path), skills / "en" / Path(skill.path).name)
    for skill in english[: EXTRA_ENGLISH - len(list((skills / "en").iterdir()))]:
        target = skills / "en-copies" / Path(skill.path).name
        shutil.copytree(Path(skill.root, skill.path), target)
        text = (target / "SKILL.md").read_text(encoding="utf-8")
        renamed = re.sub(r"(?m)^name:.*$", f"name: {skill.slug}-copy", text, count=1)
        (target / "SKILL.md").write_text(renamed, encoding="utf-8")
    (repo / ".git").mkdir()
    (repo / ".skillmem.yaml").write_text("roots: [skills]\n", encoding="utf-8")
    past = time.time() - 60  # older than the racy window, so the stored index is kept
    for folder, _, names in os.walk(repo):
        for name in [".", *names]:
            os.utime(os.path.join(folder, name), (past, past))
    out = subprocess.run(_skillmem("search", "--top", "1", "x"), cwd=repo, capture_output=True, check=True)
    assert json.loads(out.stdout)["count"] >= 0
    count = subprocess.run(_skillmem("stats"), cwd=repo, capture_output=True, check=True).stdout
    return int(json.loads(count).get("skills", 0))


def _skillmem(*arguments: str) -> list[str]:
    return [shutil.which("skillmem", path=os.path.dirname(sys.executable)) or "skillmem", *arguments]


def timed(command: list[str], cwd: Path, data: bytes = b"") -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, input=data, cwd=cwd, capture_output=True, check=True)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder)
        skills = lay_out(repo)
        index = repo / ".git" / "skillmem-search.json"
        hook_input = json.dumps({"prompt": PROMPT, "cwd": str(repo), "hook_event_name": "UserPromptSubmit"}).encode()
        subprocess.run(_skillmem("route"), input=hook_input, cwd=repo, capture_output=True, check=True)
        cases = {
            "python -c pass": lambda: timed([sys.executable, "-c", "pass"], repo),
            "search, stored index": lambda: timed(_skillmem("search", *QUERY), repo),
            "search, index rebuilt": lambda: (index.unlink(), timed(_skillmem("search", *QUERY), repo))[1],
            "route, names no skill": lambda: timed(_skillmem("route"), repo, hook_input),
        }
        figures: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(options.runs):
            for name, run in cases.items():
                figures[name].append(run())
                if name != "python -c pass":
                    figures["python -c pass"].append(cases["python -c pass"]())
        size = index.stat().st_size
    bare_wall = statistics.median(wall for wall, _ in figures["python -c pass"])
    bare_cpu = statistics.median(cpu for _, cpu in figures["python -c pass"])
    print(f"{skills} skills; stored index {size / 1e6:.1f} MB; {options.runs} runs each, interleaved\n")
    print("| run | wall ms | x bare | CPU ms | x bare |\n|---|---:|---:|---:|---:|")
    for name, runs in figures.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"| {name} | {wall:.0f} | {wall / bare_wall:.1f} | {cpu:.0f} | {cpu / bare_cpu:.1f} |")
    git = ["git", "rev-parse", "--short", "HEAD"]
    commit = subprocess.run(git, cwd=HERE, capture_output=True, text=True, check=False)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit.stdout.strip()}, "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, load {load:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
