"""Time the installed ``skillmem`` on realistic skill trees, against two yardsticks.

    python3 benchmarks/bench.py [--sizes 100,1000,10000,100000] [--runs 5] [--json PATH]

For each size it builds a skill tree in a temporary folder (names and
descriptions from the shared corpus when it is beside this checkout, made up
alike otherwise; nested groupings; a few CRLF and BOM files; bodies of a few
KB), then times whole processes, alternating each measured command with:

- the bare interpreter: ``python -c pass``;
- the I/O floor: a minimal script that walks the same tree and reads the
  frontmatter bytes of every SKILL.md, and does nothing else.

It prints a table of medians with the ratios to both yardsticks and the peak
memory (max RSS) of each command, and writes the same figures as JSON.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The shared corpus beside the checkout (or beside a folder of work trees); made-up skills when it is missing.
CORPUS = next(
    (folder / "shared" / "data" / "skills-corpus-en.jsonl" for folder in HERE.parents if (folder / "shared").is_dir()),
    HERE.parent.parent / "shared" / "data" / "skills-corpus-en.jsonl",
)
WORDS = ("parse deploy test review write data agent prompt cloud api secure render table docs plan").split()  # noqa: SIM905

FLOOR_SCRIPT = r"""
import os, sys
def read_frontmatter(path):
    with open(path, "rb") as f:
        data = f.read(4096)
        while b"\n---" not in data[3:]:
            more = f.read(4096)
            if not more:
                break
            data += more
    return data
for folder, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = [d for d in dirs if not d.startswith(".")]
    if "SKILL.md" in files:
        read_frontmatter(os.path.join(folder, "SKILL.md"))
"""


def corpus() -> list[tuple[str, str]]:
    if CORPUS.exists():
        rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
        return [(row["name"], row["description"] or "") for row in rows]
    rng = random.Random(7)
    return [("-".join(rng.sample(WORDS, 2)), " ".join(rng.choices(WORDS, k=20))) for _ in range(500)]


def build_tree(root: Path, size: int) -> None:
    rng = random.Random(size)
    samples = corpus()
    body = "\n".join(" ".join(rng.choices(WORDS, k=12)) for _ in range(40))  # about 3 KB
    for number in range(size):
        name, description = samples[number % len(samples)]
        name = f"{name}-{number}"
        folder = root / f"group-{number % 40}" / f"sub-{number % 7}" / f"skill-{number}"
        folder.mkdir(parents=True, exist_ok=True)
        text = f"---\nname: {json.dumps(name)}\ndescription: {json.dumps(description)}\n---\n\n# {name}\n\n{body}\n"
        data = text.encode("utf-8")
        if number % 50 == 1:
            data = data.replace(b"\n", b"\r\n")
        if number % 70 == 2:
            data = b"\xef\xbb\xbf" + data
        (folder / "SKILL.md").write_bytes(data)


def run_once(command: list[str]) -> tuple[float, float]:
    """Wall time in seconds and peak RSS in MB of one whole process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 3):
        raise SystemExit(f"{command} failed with exit code {process.returncode}")
    return elapsed, usage.ru_maxrss / 1024


def measure(size: int, runs: int, skillmem: str, folder: Path) -> list[dict[str, object]]:
    root = folder / "skills"
    build_tree(root, size)
    prompt = folder / "AGENTS.md"
    original = b"# Agents\n\nHand-written instructions.\n"
    prompt.write_bytes(original)
    common = ["--root", str(root)]
    with_prompt = [*common, "--prompt-file", str(prompt)]
    commands = {
        "index": [skillmem, "index", *common],
        "prompt": [skillmem, "prompt", *common],
        "inject (changed)": [skillmem, "inject", *with_prompt],
        "inject (unchanged)": [skillmem, "inject", *with_prompt],
        "verify": [skillmem, "verify", *with_prompt],
    }
    python = interpreter_of(skillmem)
    yardsticks = {"bare": [python, "-c", "pass"], "floor": [python, "-c", FLOOR_SCRIPT, str(root)]}
    subprocess.run(commands["inject (unchanged)"], capture_output=True, check=True)  # warm the page cache
    times: dict[str, list[float]] = {name: [] for name in [*yardsticks, *commands]}
    peaks: dict[str, float] = dict.fromkeys(times, 0.0)
    for _ in range(runs):
        for name, _command in commands.items():
            if name == "inject (changed)":
                prompt.write_bytes(original)
            elif name in ("inject (unchanged)", "verify"):
                subprocess.run(commands["inject (unchanged)"], capture_output=True, check=True)
            for measured in ("bare", "floor", name):  # alternate, so drift in machine load hits all alike
                elapsed, peak = run_once(yardsticks.get(measured) or commands[measured])
                times[measured].append(elapsed)
                peaks[measured] = max(peaks[measured], peak)
    bare, floor = statistics.median(times["bare"]), statistics.median(times["floor"])
    rows = []
    for name in [*yardsticks, *commands]:
        median = statistics.median(times[name])
        rows.append(
            {
                "skills": size,
                "command": name,
                "median_ms": round(median * 1000, 1),
                "x_bare": round(median / bare, 2),
                "x_floor": round(median / floor, 2),
                "peak_mb": round(peaks[name], 1),
            }
        )
    return rows


def interpreter_of(script: str) -> str:
    """The Python a console script runs on, so the yardsticks start the same interpreter."""
    with open(script, "rb") as file:
        first = file.readline().decode("utf-8", "replace").strip()
    return first[2:].strip() if first.startswith("#!") and "python" in first else sys.executable


def print_table(rows: list[dict[str, object]]) -> None:
    print(f"{'skills':>7}  {'command':<19} {'median ms':>10} {'x bare':>7} {'x floor':>8} {'peak MB':>8}")
    for row in rows:
        print(
            f"{row['skills']:>7}  {row['command']:<19} {row['median_ms']:>10} {row['x_bare']:>7} "
            f"{row['x_floor']:>8} {row['peak_mb']:>8}"
        )


def run_facts() -> dict[str, object]:
    """What a figure depends on: the day, the commit measured, the interpreter and the machine."""
    return {
        "date": datetime.date.today().isoformat(),
        "commit": commit(),
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
    }


def commit() -> str:
    command = ["git", "rev-parse", "--short", "HEAD"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=HERE, check=False)
    return result.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000,100000", help="comma-separated tree sizes")
    parser.add_argument("--runs", type=int, default=5, help="runs per command (3 at most for 100,000 skills)")
    parser.add_argument(
        "--json", default=str(HERE / "results" / "latest" / "bench.json"), help="where to write the figures"
    )
    parser.add_argument("--skillmem", default=shutil.which("skillmem") or str(Path(sys.executable).parent / "skillmem"))
    options = parser.parse_args(argv)
    if not Path(options.skillmem).exists():
        parser.error("the skillmem command is not installed; run: python3 -m pip install .")
    rows: list[dict[str, object]] = []
    for size in [int(size) for size in options.sizes.split(",")]:
        with tempfile.TemporaryDirectory() as folder:
            rows += measure(
                size, min(options.runs, 3) if size >= 100_000 else options.runs, options.skillmem, Path(folder)
            )
    print_table(rows)
    result = {**run_facts(), "rows": rows}
    Path(options.json).parent.mkdir(parents=True, exist_ok=True)
    Path(options.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwritten: {options.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
