"""Cold ``skillmem search`` and warm ``skillmem route`` at 2,000 skills, beside the bare interpreter start.

    python3 benchmarks/search_cold.py [--runs 10] [--collection mixed|cn|en] [--baseline REV]

A temporary repository holds ``skills/``: by default (``mixed``) the 1,912-file
Chinese collection (1,899 skills) plus 101 of the English one: the 25 whose
names no Chinese skill has, then copies under new names, 2,000 skills in all;
``cn`` or ``en`` lays out one collection alone
(SKILLS_CN_ROOT / SKILLS_EN_ROOT, else ../shared/data/collections/skills-{cn,en}).
Every measured run is a whole new process, alternating with ``python -c pass``
(the yardstick, measured in the same loop):

- search, stored index: ``skillmem search`` with the index in .git/ current
  (the common case: a process start, a load, a lookup);
- search, index rebuilt: the index deleted before each run (the first search
  after a change of every skill, or of the configuration: scan, read the
  bodies, build, store);
- search, one skill edited: one SKILL.md's body edited before each run (the
  first search after an edit: the stored index patched for that skill);
- route, names no skill: a request that names no skill, with both indexes warm,
  so the score rule runs (the hook's path on most prompts);
- with ``--baseline REV``: search, index rebuilt, one skill edited and the
  route by the code of commit REV (extracted with ``git archive``, run as
  ``python -m skillmem_hook``), in a copy of the repository with its own
  stored indexes, and this checkout's route run the same way, measured in
  the same loop.

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
from collections.abc import Callable
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("SKILLMEM_SHARED_DATA") or HERE.parent.parent / "shared" / "data")
Env = Optional[dict[str, str]]  # a child's environment; None: this one's
EXTRA_ENGLISH = 101  # 1,899 + 101 = 2,000
QUERY = ["数据库", "慢查询", "怎么", "优化", "索引"]
PROMPT = "我们的 PostgreSQL 数据库查询越来越慢, 想找出慢查询并优化索引"


def collection(name: str) -> Path:
    return Path(os.environ.get(f"SKILLS_{name.upper()}_ROOT") or SHARED / "collections" / f"skills-{name}")


def lay_out(repo: Path, which: str) -> None:
    """One collection, or the Chinese one and enough English skills to make 2,000, under repo/skills."""
    skills = repo / "skills"
    shutil.copytree(collection("en" if which == "en" else "cn"), skills / which)
    if which == "mixed":
        add_english(skills)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)  # a git directory git takes, or nothing is kept
    (repo / ".skillmem.yaml").write_text("roots: [skills]\n", encoding="utf-8")
    backdate(repo, 60)  # older than the racy window, so the stored index is kept


def add_english(skills: Path) -> None:
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


def backdate(top: Path, seconds: float) -> None:
    past = time.time() - seconds
    for folder, _, names in os.walk(top):
        for name in [".", *names]:
            os.utime(os.path.join(folder, name), (past, past))


def edit_one(repo: Path) -> None:
    """Append a line to one SKILL.md's body, stamped out of the racy window, so the refreshed index is stored."""
    path = min((repo / "skills").rglob("SKILL.md"))
    with path.open("a", encoding="utf-8") as file:
        file.write(f"\nEdited {time.time_ns()}: 编辑过的技能\n")
    past = time.time() - 30
    os.utime(path, (past, past))


def skills_in(repo: Path, command: list[str], env: Env = None) -> int:
    """Build and store the index once; the number of skills."""
    out = subprocess.run([*command, "search", "--top", "1", "x"], cwd=repo, env=env, capture_output=True, check=True)
    assert json.loads(out.stdout)["count"] >= 0
    count = subprocess.run([*command, "stats"], cwd=repo, env=env, capture_output=True, check=True).stdout
    return int(json.loads(count).get("skills", 0))


def skillmem_command(*arguments: str) -> list[str]:
    """``skillmem`` of this interpreter's environment, with ``arguments``."""
    return [shutil.which("skillmem", path=os.path.dirname(sys.executable)) or "skillmem", *arguments]


def hook_input(repo: Path) -> bytes:
    """What Claude Code sends the route hook for PROMPT typed in ``repo``."""
    return json.dumps({"prompt": PROMPT, "cwd": str(repo), "hook_event_name": "UserPromptSubmit"}).encode()


def extract(revision: str, folder: Path) -> dict[str, str]:
    """The package as commit ``revision`` had it, in ``folder``; the environment that runs it."""
    git = ["git", "archive", revision, "skillmem_hook"]
    archive = subprocess.run(git, cwd=HERE.parent, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return {**os.environ, "PYTHONPATH": str(folder)}


def warm_route(repo: Path, env: dict[str, str]) -> None:
    """Store the search and route indexes of the code ``env`` runs in ``repo`` (a kept index is sealed to the code
    that wrote it): a search stores the one, a route run the other."""
    command = [sys.executable, "-m", "skillmem_hook"]
    subprocess.run([*command, "search", *QUERY], cwd=repo, env=env, capture_output=True, check=True)
    subprocess.run([*command, "route"], input=hook_input(repo), cwd=repo, env=env, capture_output=True, check=True)


def after_edit(repo: Path, command: list[str], env: Env = None, warm: bytes = b"") -> tuple[float, float]:
    """Edit one skill and time ``command``; with ``warm``, then a route run unmeasured, so its index is current."""
    edit_one(repo)
    figure = timed(command, repo, env=env)
    if warm:
        subprocess.run(skillmem_command("route"), input=warm, cwd=repo, capture_output=True, check=True)
    return figure


def rebuilt(repo: Path, command: list[str], env: Env = None) -> tuple[float, float]:
    """Delete the stored index and time ``command``."""
    (repo / ".git" / "skillmem-search.json").unlink()
    return timed(command, repo, env=env)


def timed(command: list[str], cwd: Path, data: bytes = b"", env: Env = None) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, input=data, cwd=cwd, env=env, capture_output=True, check=True)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


Case = Callable[[], tuple[float, float]]


def cases(repo: Path, baseline: tuple[str, Path, dict[str, str]] | None) -> dict[str, Case]:
    routed = hook_input(repo)
    subprocess.run(skillmem_command("route"), input=routed, cwd=repo, capture_output=True, check=True)
    found: dict[str, Case] = {
        "python -c pass": lambda: timed([sys.executable, "-c", "pass"], repo),
        "search, stored index": lambda: timed(skillmem_command("search", *QUERY), repo),
        "search, index rebuilt": lambda: rebuilt(repo, skillmem_command("search", *QUERY)),
        "search, one skill edited": lambda: after_edit(repo, skillmem_command("search", *QUERY), warm=routed),
        "route, names no skill": lambda: timed(skillmem_command("route"), repo, routed),
    }
    if baseline is not None:
        revision, old, env = baseline
        command = [sys.executable, "-m", "skillmem_hook", "search", *QUERY]
        found[f"search, index rebuilt ({revision})"] = lambda: rebuilt(old, command, env)
        found[f"search, one skill edited ({revision})"] = lambda: after_edit(old, command, env=env)
        routed_old = old.with_name("baseline-route")  # its own copy: the search cases above edit and rebuild `old`
        route = [sys.executable, "-m", "skillmem_hook", "route"]
        found[f"route, names no skill ({revision})"] = lambda: timed(route, routed_old, hook_input(routed_old), env)
        # This checkout's route run as the baseline's is (`python -m`, the package on PYTHONPATH, in a copy whose
        # indexes it stored), not through the console script in `repo`: on this machine the way of starting and a
        # copied tree each move the route by more than a change of the code does.
        routed_here, here = old.with_name("here-route"), {**os.environ, "PYTHONPATH": str(HERE.parent)}
        found["route, names no skill (python -m)"] = lambda: timed(route, routed_here, hook_input(routed_here), here)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--collection", choices=("mixed", "cn", "en"), default="mixed")
    parser.add_argument("--baseline", help="a commit whose code is timed beside this one")
    options = parser.parse_args()
    # Every command's bytecode is kept, as an installed hook's is: with PYTHONDONTWRITEBYTECODE set (a sandbox may set
    # it) a baseline extracted with `git archive`, or a module edited since its last compile, is compiled on every
    # run, and the figure measures the compiler (80 ms of CPU a route on the shared machine).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder, "repo")
        lay_out(repo, options.collection)
        skills = skills_in(repo, skillmem_command())
        baseline = None
        if options.baseline:
            old = Path(folder, "baseline")
            shutil.copytree(repo, old, symlinks=True)
            (old / ".git" / "skillmem-search.json").unlink()
            env = extract(options.baseline, Path(folder))
            skills_in(old, [sys.executable, "-m", "skillmem_hook"], env)
            for name, runs_it in (
                ("baseline-route", env),
                ("here-route", {**os.environ, "PYTHONPATH": str(HERE.parent)}),
            ):
                shutil.copytree(old, Path(folder, name), symlinks=True)
                warm_route(Path(folder, name), runs_it)
            baseline = (options.baseline, old, env)
        figures = measure(cases(repo, baseline), options.runs)
        size = (repo / ".git" / "skillmem-search.json").stat().st_size
    print(f"{skills} skills ({options.collection}); stored index {size / 1e6:.1f} MB; {options.runs} runs each\n")
    report(figures)
    return 0


def measure(found: dict[str, Case], runs: int) -> dict[str, list[tuple[float, float]]]:
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in found}
    for _ in range(runs):
        for name, run in found.items():
            figures[name].append(run())
            if name != "python -c pass":
                figures["python -c pass"].append(found["python -c pass"]())
    return figures


def x_bare_table(figures: dict[str, list[tuple[float, float]]]) -> str:
    """Each run's median wall and CPU ms, and each as a multiple of ``python -c pass``'s (a row of ``figures``)."""
    bare_wall = statistics.median(wall for wall, _ in figures["python -c pass"])
    bare_cpu = statistics.median(cpu for _, cpu in figures["python -c pass"])
    lines = ["| run | wall ms | x bare | CPU ms | x bare |", "|---|---:|---:|---:|---:|"]
    for name, runs in figures.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        lines.append(f"| {name} | {wall:.0f} | {wall / bare_wall:.1f} | {cpu:.0f} | {cpu / bare_cpu:.1f} |")
    return "\n".join(lines)


def report(figures: dict[str, list[tuple[float, float]]]) -> None:
    print(x_bare_table(figures))
    git = ["git", "rev-parse", "--short", "HEAD"]
    commit = subprocess.run(git, cwd=HERE, capture_output=True, text=True, check=False)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit.stdout.strip()}, "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, load {load:.1f}"
    )


if __name__ == "__main__":
    sys.exit(main())
