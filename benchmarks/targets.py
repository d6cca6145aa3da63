"""Every target of issue 22 in one run: paired runs against a yardstick, medians of the ratios, wall and CPU time.

    python3 benchmarks/targets.py [--pairs 7] [--large 100000] [--json PATH]

On a shared machine a lone median drifts with the load. So each measured
command runs right beside its yardstick, order alternating, for at least
seven pairs, and the figure is the median of the per-pair ratios, in wall
time and in CPU time (user + system of the child and its children, from
``os.wait4``), which the load blurs less. The load average is recorded at
each row's start. Rows (commands as hooks.py and bench.py run them):

- cold git view, 10,000 skills: the verify hook with its cache deleted,
  against bench.py's I/O floor (walk the tree, read every frontmatter);
- 100,000 skills, warm and cold: the hook's peak memory (GNU time), and its
  time over the same run's 10,000-skill time, wall and CPU (medians of 3 runs each);
- ``pre-commit run skill-verify`` (installed as pre-commit installs it,
  ``language: python``) against ``pre-commit run noop`` (``language:
  python``) at 100 and 1,000 skills, after a warm-up run of each; beside it
  the ``language: system`` hook of this checkout, as 0.3.0 measured it;
- ``skillmem verify`` at 100 skills, file-system view (a tree outside any
  git repository, as bench.py lays it out), against ``python -c pass``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import FLOOR_SCRIPT, build_tree, interpreter_of, run_facts
from hooks import GNU_TIME, Bench, script
from yardsticks import timing_env

HERE = Path(__file__).resolve().parent


def run_child(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the child's own children included) of one whole process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{command} failed in {cwd}")
    return wall, usage.ru_utime + usage.ru_stime


def paired(measured: list[str], yardstick: list[str], cwd: Path, pairs: int, **options: object) -> dict[str, object]:
    """Medians of ``pairs`` paired runs, order alternating; ``before`` runs ahead of each measured run."""
    before = options.get("before")
    env = options.get("env")
    load = os.getloadavg()[0]
    rows: list[tuple[float, float, float, float]] = []
    for number in range(pairs):
        result = {}
        for name in ("yardstick", "measured") if number % 2 == 0 else ("measured", "yardstick"):
            if name == "measured" and callable(before):
                before()
            result[name] = run_child(measured if name == "measured" else yardstick, cwd, env)  # type: ignore[arg-type]
        rows.append((*result["measured"], *result["yardstick"]))
    return {
        "measured_ms": round(statistics.median(row[0] for row in rows) * 1000, 1),
        "yardstick_ms": round(statistics.median(row[2] for row in rows) * 1000, 1),
        "ratio_wall": round(statistics.median(row[0] / row[2] for row in rows), 3),
        "measured_cpu_ms": round(statistics.median(row[1] for row in rows) * 1000, 1),
        "yardstick_cpu_ms": round(statistics.median(row[3] for row in rows) * 1000, 1),
        "ratio_cpu": round(statistics.median(row[1] / row[3] for row in rows), 3),
        "pairs": pairs,
        "load": round(load, 2),
    }


def peak_mb(command: list[str], cwd: Path, before: object = None) -> float | None:
    """The child's maximum resident set, as GNU time reports it (this process's own peak would leak into wait4's)."""
    if GNU_TIME is None:
        return None
    if callable(before):
        before()
    with tempfile.NamedTemporaryFile("r") as report:
        subprocess.run([GNU_TIME, "-f", "%M", "-o", report.name, *command], cwd=cwd, capture_output=True, check=True)
        return round(int(report.read().split()[-1]) / 1024, 1)


def git_rows(scripts: dict[str, str], pairs: int, small: list[int], sizes: tuple[int, int]) -> list[dict[str, object]]:
    medium, large = sizes
    rows: list[dict[str, object]] = []
    timed: dict[tuple[int, str], list[tuple[float, float]]] = {}
    for size in (*small, medium, large):
        with tempfile.TemporaryDirectory() as folder:
            bench = Bench(Path(folder), size, scripts, None)
            bench.set_up()
            hook, floor = bench.commands["hook warm"], bench.commands["floor"]
            drop = bench.cache.parent  # the cache and the catalog snapshot: a cold run has neither

            def cold(drop: Path = drop) -> None:
                for path in drop.glob("*.json"):
                    path.unlink()

            if size == medium:
                rows.append({"target": f"cold git view, {medium:,} skills, x floor (<= 1.5)", "size": size})
                rows[-1].update(paired(hook, floor, bench.repo, pairs, before=cold, env=bench.env))
            if size in (medium, large):
                for state, before in (("warm", None), ("cold", cold)):
                    times = []
                    for _ in range(3):
                        if callable(before):
                            before()
                        times.append(run_child(hook, bench.repo, bench.env))
                    timed[(size, state)] = times
                    if size == large:
                        rows.append({"target": f"{large:,} skills, {state}: peak MB (< 200)", "size": size})
                        rows[-1]["peak_mb"] = peak_mb(hook, bench.repo, before)
                        rows.append({"target": f"{large:,} skills, {state}: time x {medium:,} (<= 11)", "size": size})
                        rows[-1].update(_size_ratio(times, timed[(medium, state)]))
            if size in small:
                rows += pre_commit_rows(scripts["pre-commit"], bench, pairs)
            if size == small[0]:
                rows += cli_rows(scripts, pairs, size)
    return rows


def _size_ratio(large: list[tuple[float, float]], medium: list[tuple[float, float]]) -> dict[str, object]:
    """Medians of the two sizes' runs, wall and CPU: a run of seconds on a shared machine is preempted for
    seconds (and, after a pause, reads its files from disk again), which the wall ratio alone would blame on
    the code."""
    wall = [statistics.median(run[0] for run in runs) for runs in (large, medium)]
    cpu = [statistics.median(run[1] for run in runs) for runs in (large, medium)]
    return {
        "measured_ms": round(wall[0] * 1000, 1),
        "yardstick_ms": round(wall[1] * 1000, 1),
        "ratio_wall": round(wall[0] / wall[1], 3),
        "measured_cpu_ms": round(cpu[0] * 1000, 1),
        "yardstick_cpu_ms": round(cpu[1] * 1000, 1),
        "ratio_cpu": round(cpu[0] / cpu[1], 3),
        "load": round(os.getloadavg()[0], 2),
    }


def pre_commit_rows(pre_commit: str, bench: Bench, pairs: int) -> list[dict[str, object]]:
    """``pre-commit run`` of the verify hook against the no-op hook, after a warm-up run of each (the method:
    benchmarks/README.md): the hook as pre-commit installs it, the target's row, and this checkout's script."""
    rows: list[dict[str, object]] = []
    for hook_id in ("noop", "skill-verify", "skill-verify-system"):
        subprocess.run([pre_commit, "run", hook_id], cwd=bench.repo, env=bench.env, capture_output=True, check=True)
    for hook_id, what in (("skill-verify", "x noop (<= 1.10)"), ("skill-verify-system", "system hook, x noop")):
        rows.append({"target": f"pre-commit {hook_id}, {bench.size:,} skills, {what}", "size": bench.size})
        measured, yardstick = [pre_commit, "run", hook_id], [pre_commit, "run", "noop"]
        rows[-1].update(paired(measured, yardstick, bench.repo, pairs, env=bench.env))
    return rows


def cli_rows(scripts: dict[str, str], pairs: int, size: int) -> list[dict[str, object]]:
    """``skillmem verify`` on the file system (no git around it) against the bare interpreter."""
    with tempfile.TemporaryDirectory() as folder:
        build_tree(Path(folder) / "skills", size)
        prompt = Path(folder) / "AGENTS.md"
        prompt.write_bytes(b"# Agents\n")
        verify = [scripts["skillmem"], "verify", "--root", "skills", "--prompt-file", "AGENTS.md"]
        env = timing_env(dict(os.environ))  # the inject run writes the bytecode an editable install lacks
        inject = [scripts["skillmem"], "inject", *verify[2:]]
        subprocess.run(inject, cwd=folder, env=env, capture_output=True, check=True)
        python = interpreter_of(scripts["skillmem"])
        row: dict[str, object] = {"target": f"skillmem verify, {size:,} skills, file system, x bare (<= 3)"}
        row.update(paired(verify, [python, "-c", "pass"], Path(folder), pairs, env=env))
        floor: dict[str, object] = {"target": f"(beside it: the I/O floor, {size:,} skills, x bare)"}
        bare = [python, "-c", "pass"]
        floor.update(paired([python, "-c", FLOOR_SCRIPT, "skills"], bare, Path(folder), pairs, env=env))
        return [row, floor]


def print_rows(rows: list[dict[str, object]]) -> None:
    print(f"{'target':<58} {'ms':>9} {'yard ms':>9} {'x wall':>7} {'x CPU':>7} {'peak MB':>8} {'load':>5}")
    for row in rows:
        cells = [row.get(key, "") for key in ("measured_ms", "yardstick_ms", "ratio_wall", "ratio_cpu", "peak_mb")]
        print(
            f"{row['target']:<58} "
            + " ".join(f"{cell!s:>{w}}" for cell, w in zip(cells, (9, 9, 7, 7, 8)))
            + f" {row.get('load', '')!s:>5}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=7, help="paired runs per row (7 at least for a figure)")
    parser.add_argument("--small", default="100,1000", help="sizes for pre-commit (the first also for the CLI)")
    parser.add_argument("--medium", type=int, default=10_000, help="the cold-view tree's size")
    parser.add_argument("--large", type=int, default=100_000, help="the large tree's size")
    parser.add_argument(
        "--json", default=str(HERE / "results" / "latest" / "targets.json"), help="where to write the figures"
    )
    options = parser.parse_args(argv)
    scripts = {name: script(name) for name in ("skillmem", "skillmem-verify-hook", "pre-commit")}
    scripts["hook"] = scripts.pop("skillmem-verify-hook")
    facts = {**run_facts(), "load_at_start": list(os.getloadavg()), "pairs": options.pairs}
    small = [int(size) for size in options.small.split(",")]
    rows = git_rows(scripts, options.pairs, small, (options.medium, options.large))
    facts["load_at_end"] = list(os.getloadavg())
    print_rows(rows)
    Path(options.json).parent.mkdir(parents=True, exist_ok=True)
    Path(options.json).write_text(json.dumps({**facts, "rows": rows}, indent=2) + "\n")
    print(f"\n{facts}\nwritten: {options.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
