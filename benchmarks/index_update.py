"""The stored search index and the route index after one skill is added, edited or removed, beside a full build.

    python3 benchmarks/index_update.py [--runs 5] [--collection cn|en]

A temporary git-less repository (``.git/`` a plain folder, as ``search_cold.py``
lays it out) holds one collection under ``skills/`` (SKILLS_CN_ROOT /
SKILLS_EN_ROOT, else ../shared/data/collections/skills-{cn,en}). Each round
runs, in turn and each paired with ``python -c pass`` (the yardstick, timed
in the same loop so load drifts hit both alike):

- in process, CPU: ``search/store.load_or_build_at`` with no stored index (a
  full build: scan, read every body, tokenise, store) and after one skill was
  added, edited or removed (the stored index patched); the route index built
  (``agents/route_index.build_route_index``, which is always built whole);
- whole processes: ``skillmem search`` with the stored index deleted, and
  after one add / edit / remove; ``skillmem route`` after a change (its index
  rebuilt);
- MCP: ``skillmem mcp`` from its start to the answer of its first
  ``skill_search`` (raw JSON-RPC lines on its stdin), with the stored index
  current, and after one skill was added (the index patched before the
  answer). With no stored index at all the first call builds it whole
  (``search, index rebuilt`` below); on a busy machine that passes the
  server's 8 s budget for a call, so it is not a case here.

The added skill is a copy of the middle skill (by path) under a new name,
beside it (in the scan's order, about 950 skills come after it; since format
2 of the stored index none of them changes its number in the postings); the
removal takes it away again, so every round starts from the same tree. Each changed path is dated
30 s back, out of the racy window, so the refreshed index is stored.
Medians of wall-clock and CPU (user + system) ms, and the date, the commit,
the machine and the load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from search_cold import QUERY, collection, hook_input, skillmem_command, timed, x_bare_table  # noqa: E402

SEARCH_INDEX = Path(".git", "skillmem-search.json")


def lay_out(repo: Path, which: str) -> Path:
    """The collection under repo/skills, dated a minute back; the SKILL.md of the middle skill by path."""
    shutil.copytree(collection(which), repo / "skills")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)  # a git directory git takes, or nothing is kept
    (repo / ".skillmem.yaml").write_text("roots: [skills]\n", encoding="utf-8")
    past = time.time() - 60
    for folder, _, names in os.walk(repo):
        for name in [".", *names]:
            os.utime(os.path.join(folder, name), (past, past))
    files = sorted((repo / "skills").rglob("SKILL.md"))
    return files[len(files) // 2]


class Changes:
    """One add, edit or remove at a time, beside the middle skill; each path stamped out of the racy window."""

    def __init__(self, middle: Path) -> None:
        self.middle = middle
        self.added = middle.parent.parent / (middle.parent.name + "-added")
        self.ticks = 0

    def add(self) -> None:
        shutil.copytree(self.middle.parent, self.added)
        text = (self.added / "SKILL.md").read_text(encoding="utf-8")
        renamed = text.replace("\nname: ", "\nname: added-", 1)
        (self.added / "SKILL.md").write_text(renamed + "\n新加的技能 added skill\n", encoding="utf-8")
        self.settle(self.added / "SKILL.md", self.added, self.added.parent)

    def edit(self) -> None:
        with self.middle.open("a", encoding="utf-8") as file:
            file.write(f"\nEdited {time.time_ns()}: 编辑过的技能\n")
        self.settle(self.middle)

    def remove(self) -> None:
        shutil.rmtree(self.added)
        self.settle(self.added.parent)

    def settle(self, *paths: Path) -> None:
        self.ticks += 1
        past = time.time() - 30 - self.ticks  # a stamp of its own each time
        for path in paths:
            os.utime(path, (past, past))


def in_process_cpu(repo: Path, action: object) -> float:
    """CPU ms of bringing the stored search index up to date in this process, after ``action``."""
    from skillmem_hook.config import load_settings, require_roots
    from skillmem_hook.decisive import decisive_files
    from skillmem_hook.search.store import load_or_build_at

    if callable(action):
        action()
    settings = load_settings(None)
    roots = require_roots(settings)
    watched = decisive_files(os.getcwd(), tracked=False)
    started = time.process_time()
    load_or_build_at(roots, settings.catalog_options(), settings.aliases, str(SEARCH_INDEX), watched)
    return (time.process_time() - started) * 1000


def route_index_cpu() -> float:
    from skillmem_hook.agents.route_index import build_route_index

    started = time.process_time()
    build_route_index(None)
    return (time.process_time() - started) * 1000


_LAST_CHILDREN = [0.0]


def _children_cpu() -> float:
    """CPU ms of the children reaped since the last call."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = (usage.ru_utime + usage.ru_stime) * 1000
    spent, _LAST_CHILDREN[0] = total - _LAST_CHILDREN[0], total
    return spent


def mcp_first_answer() -> tuple[float, float]:
    """Wall and CPU ms from starting ``skillmem mcp`` to the answer of its first skill_search."""
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "skill_search", "arguments": {"intent": " ".join(QUERY)}},
        },
    ]
    _children_cpu()
    started = time.perf_counter()
    process = subprocess.Popen(
        skillmem_command("mcp"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(json.dumps(message).encode() + b"\n" for message in messages))
    process.stdin.flush()
    for line in process.stdout:
        answer = json.loads(line)
        if answer.get("id") == 2:
            if answer.get("result", {}).get("isError", True):
                raise SystemExit(f"skill_search failed: {line!r}")
            break
    else:
        raise SystemExit("skillmem mcp gave no answer to skill_search")
    wall = (time.perf_counter() - started) * 1000
    process.stdin.close()
    process.wait()
    return wall, _children_cpu()


def measure(repo: Path, middle: Path, runs: int) -> tuple[dict[str, list[float]], dict[str, list[tuple[float, float]]]]:
    changes = Changes(middle)
    cpu: dict[str, list[float]] = {}
    processes: dict[str, list[tuple[float, float]]] = {}
    bare = [sys.executable, "-c", "pass"]

    def run(label: str, figure: tuple[float, float]) -> None:
        processes.setdefault(label, []).append(figure)
        processes.setdefault("python -c pass", []).append(timed(bare, repo))

    search = skillmem_command("search", *QUERY)
    in_process_cpu(repo, None)  # stored and current
    for _ in range(runs):
        SEARCH_INDEX.unlink()
        cpu.setdefault("search index, full build", []).append(in_process_cpu(repo, None))
        for name in ("add", "edit", "remove"):
            cpu.setdefault(f"search index, one skill {name}ed".replace("ee", "e"), []).append(
                in_process_cpu(repo, getattr(changes, name))
            )
        cpu.setdefault("route index, built (after any change)", []).append(route_index_cpu())
        SEARCH_INDEX.unlink()
        run("search, index rebuilt", timed(search, repo))
        for name in ("add", "edit", "remove"):
            getattr(changes, name)()
            run(f"search, one skill {name}ed".replace("ee", "e"), timed(search, repo))
        changes.edit()
        run("route, its index rebuilt after an edit", timed(skillmem_command("route"), repo, hook_input(repo)))
        run("mcp: start to first skill_search, indexes current", mcp_first_answer())
        changes.add()
        run("mcp: start to first skill_search, one skill added since", mcp_first_answer())
        changes.remove()
        timed(search, repo)  # stored again for the next round
    return cpu, processes


def report(cpu: dict[str, list[float]], processes: dict[str, list[tuple[float, float]]], runs: int) -> None:
    full = statistics.median(cpu["search index, full build"])
    print(f"In process, CPU ms (median of {runs}):\n\n| step | CPU ms | share of a full build |\n|---|---:|---:|")
    for label, values in cpu.items():
        print(f"| {label} | {statistics.median(values):.0f} | {statistics.median(values) / full:.1%} |")
    print(f"\nWhole processes:\n\n{x_bare_table(processes)}")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True, check=False
    )
    print(
        f"\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit.stdout.strip()}, "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load {os.getloadavg()[0]:.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--collection", choices=("cn", "en"), default="cn")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder, "repo")
        middle = lay_out(repo, options.collection)
        os.chdir(repo)
        cpu, processes = measure(repo, middle, options.runs)
        os.chdir(HERE)
    report(cpu, processes, options.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
