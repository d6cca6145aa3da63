"""Time the agent integrations on a real collection: ``skillmem route`` per prompt, ``skill_search`` per MCP call.

    python3 benchmarks/agents.py [--root DIR] [--dev FILE] [--runs 15] [--json PATH]

The collection (default: the 1,912-skill Chinese one, ../shared/data/collections/skills-cn,
or SKILLS_CN_ROOT) is copied as ``skills/`` into a temporary repository (with a ``.git``
folder, so route keeps its index there). Then:

- route: whole processes of the installed ``skillmem route`` with a recorded
  UserPromptSubmit input, each measured run alternating with the bare
  interpreter (``python -c pass``): a prompt naming a skill and one naming
  none, both with the index warm, and a cold run (index deleted first);
- MCP: one ``skillmem mcp`` server, started through the SDK's stdio client,
  answers ``skill_search`` for every dev query (default: dev-cn.jsonl), in a
  burst (calls back to back: they share the disk check) and spaced (0.3 s
  apart: each call checks the disk first, as a model's calls do).

It prints medians (route) and median / p95 per call (MCP) and writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"


def timed(command: list[str], data: bytes, cwd: str) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) milliseconds of one run: CPU time is what a loaded machine blurs least."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, input=data, cwd=cwd, capture_output=True, check=True)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def recorded(prompt: str, cwd: str) -> bytes:
    document = {"session_id": "bench", "cwd": cwd, "hook_event_name": "UserPromptSubmit", "prompt": prompt}
    return json.dumps(document).encode()


def bench_route(repo: str, runs: int, skill: str) -> dict[str, dict[str, float]]:
    skillmem = shutil.which("skillmem", path=os.path.dirname(sys.executable)) or "skillmem"
    bare = [sys.executable, "-c", "pass"]
    route = [skillmem, "route"]
    hit, miss = recorded(f"please use {skill} for this", repo), recorded("fix the typo on line 3", repo)
    index = Path(repo, ".git", "skillmem-route.json")
    timed(route, hit, repo)  # warm the index and the page cache
    names = ("bare", "route, names a skill", "route, names none", "route, cold")
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for _ in range(runs):
        figures["bare"].append(timed(bare, b"", repo))
        figures["route, names a skill"].append(timed(route, hit, repo))
        figures["route, names none"].append(timed(route, miss, repo))
    for _ in range(max(3, runs // 5)):
        index.unlink()
        figures["route, cold"].append(timed(route, hit, repo))
    median = statistics.median
    return {
        name: {"wall": median(wall for wall, _ in values), "cpu": median(cpu for _, cpu in values)}
        for name, values in figures.items()
    }


def rank_alone(root: str, queries: list[str]) -> list[float]:
    """What the search itself costs per query, without MCP or the disk check: the part the ranking owns."""
    from skillmem_hook.catalog.scan import scan_roots
    from skillmem_hook.search.rank import search

    skills = scan_roots([root]).skills
    spent = []
    for query in queries:
        started = time.perf_counter()
        search(skills, query, top=10)
        spent.append((time.perf_counter() - started) * 1000)
    return spent


def bench_mcp(repo: str, queries: list[str]) -> dict[str, dict[str, float]]:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    results: dict[str, list[float]] = {"burst": [], "spaced": []}

    async def main() -> None:
        parameters = StdioServerParameters(command=sys.executable, args=["-m", "skillmem_hook", "mcp"], cwd=repo)
        async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("skill_search", {"intent": queries[0]})
            for mode in ("burst", "spaced"):
                for query in queries:
                    if mode == "spaced":
                        await anyio.sleep(0.3)
                    started = time.perf_counter()
                    await session.call_tool("skill_search", {"intent": query, "top_k": 10})
                    results[mode].append((time.perf_counter() - started) * 1000)

    anyio.run(main)
    results["ranking alone, in process"] = rank_alone(os.path.join(repo, "skills"), queries)
    return {
        mode: {"median": statistics.median(values), "p95": statistics.quantiles(values, n=20)[-1]}
        for mode, values in results.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_root = os.environ.get("SKILLS_CN_ROOT") or str(SHARED / "collections" / "skills-cn")
    parser.add_argument("--root", default=default_root)
    parser.add_argument("--dev", type=Path, default=SHARED / "search-dev" / "dev-cn.jsonl")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", type=Path, default=HERE / "results" / "latest" / "agents.json")
    options = parser.parse_args()
    queries = [json.loads(line)["query"] for line in options.dev.read_text(encoding="utf-8").splitlines() if line]
    skill = json.loads(options.dev.read_text(encoding="utf-8").splitlines()[0])["expect"][0]
    with tempfile.TemporaryDirectory() as folder:
        repo = os.path.join(folder, "repo")
        os.makedirs(repo)
        subprocess.run(["git", "init", "-q", repo], check=True)  # a git directory git takes, or nothing is kept
        shutil.copytree(options.root, os.path.join(repo, "skills"))  # a repository holds its skills
        route = bench_route(repo, options.runs, skill)
        mcp = bench_mcp(repo, queries)
    print(f"route, {options.runs} runs each, medians; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")
    print("| run | wall ms | x bare | CPU ms | x bare |\n|---|---:|---:|---:|---:|")
    bare = route["bare"]
    for name, value in route.items():
        wall, cpu = value["wall"], value["cpu"]
        print(f"| {name} | {wall:.1f} | {wall / bare['wall']:.2f} | {cpu:.1f} | {cpu / bare['cpu']:.2f} |")
    print(f"\nMCP skill_search, {len(queries)} dev queries, ms per call:")
    print("| calls | median | p95 |\n|---|---:|---:|")
    for mode, values in mcp.items():
        print(f"| {mode} | {values['median']:.1f} | {values['p95']:.1f} |")
    options.json.parent.mkdir(parents=True, exist_ok=True)
    options.json.write_text(json.dumps({"route": route, "mcp": mcp, "python": sys.version.split()[0]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
