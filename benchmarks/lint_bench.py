"""Time ``skillmem lint`` beside ``skillmem verify`` and the reference validator ``skills-ref``, in one run.

    python3 benchmarks/lint_bench.py [--sizes 1000,10000] [--runs 3] [--cli-sample 30] [--archive TGZ] [--json PATH]

For each size it builds a skill tree in a temporary folder from the real
SKILL.md files of ``../shared/data/collections/skills-en.tar.gz`` when that
archive is beside this checkout (bodies with code blocks, links and tables,
as lint meets them; each copy renamed to be unique), or from bench.py's
made-up skills otherwise. Then it times whole processes:

- ``skillmem verify --strict`` on a current prompt file (with its cache, warm,
  and with ``--no-cache``), and ``skillmem lint`` (JSON form), alternating,
  ``--runs`` times each, medians reported. verify's cache lives in the git
  directory of the folder the benchmark runs from; outside a work tree
  there is none, and the two verify rows agree;
- skills-ref's Python API (``skills_ref.validator.validate`` on every skill
  folder in one process: the fastest skills-ref can go), once;
- ``agentskills validate``, skills-ref's command, which takes one skill per
  call: ``--cli-sample`` calls timed and scaled to the tree's size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ARCHIVE = HERE.parent.parent / "shared" / "data" / "collections" / "skills-en.tar.gz"
SKILLS_REF_API = r"""
import pathlib, sys
from skills_ref.validator import validate
for path in sorted(pathlib.Path(sys.argv[1]).rglob("SKILL.md")):
    try:
        validate(path.parent)
    except Exception:  # a Latin-1 file raises; count it as checked
        pass
"""


def real_skills(path: Path = ARCHIVE) -> list[bytes]:
    if not path.exists():
        return []
    with tarfile.open(path) as archive:
        members = [member for member in archive.getmembers() if member.name.endswith("/SKILL.md")]
        return [archive.extractfile(member).read() for member in sorted(members, key=lambda m: m.name)]  # type: ignore[union-attr]


def build_tree(root: Path, size: int, samples: list[bytes]) -> str:
    if not samples:
        sys.path.insert(0, str(HERE))
        from bench import build_tree as build_made_up_tree

        build_made_up_tree(root, size)
        return "made-up skills (bench.py)"
    for number in range(size):
        data = samples[number % len(samples)]
        folder = root / f"group-{number % 40}" / f"skill-{number}"
        folder.mkdir(parents=True)
        # A unique name equal to the folder's, so the tree is not 1,000 duplicates of 559 skills.
        lines = data.split(b"\n")
        lines = [f"name: skill-{number}".encode() if line.startswith(b"name:") else line for line in lines]
        (folder / "SKILL.md").write_bytes(b"\n".join(lines))
    return f"real SKILL.md files of skills-en ({len(samples)}), renamed"


def timed(command: list[str]) -> tuple[float, float]:
    """Wall seconds, and CPU seconds (user + system) of the child: the steadier figure on a busy machine."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def measure(
    size: int, runs: int, cli_sample: int, tools: dict[str, str], folder: Path, *, archive: Path = ARCHIVE
) -> list[dict[str, object]]:
    root = folder / "skills"
    source = build_tree(root, size, real_skills(archive))
    prompt = folder / "AGENTS.md"
    prompt.write_bytes(b"# Agents\n")
    skillmem, python = tools["skillmem"], tools["python"]
    timed([skillmem, "inject", "--root", str(root), "--prompt-file", str(prompt)])
    commands = {
        "verify": [skillmem, "verify", "--strict", "--root", str(root), "--prompt-file", str(prompt)],
        # Without its cache verify reads every SKILL.md, as lint must (lint keeps no cache of its own).
        "verify --no-cache": [
            skillmem,
            "verify",
            "--strict",
            "--no-cache",
            "--root",
            str(root),
            "--prompt-file",
            str(prompt),
        ],
        "lint": [skillmem, "lint", "--root", str(root)],
    }
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    timed(commands["lint"])  # warm the page cache
    for _ in range(runs):
        for name, command in commands.items():  # alternate, so drift in machine load hits both alike
            times[name].append(timed(command))
    medians = {name: _medians(values) for name, values in times.items()}
    medians["skills-ref API (one process)"] = timed([python, "-c", SKILLS_REF_API, str(root)])
    folders = sorted(path.parent for path in root.rglob("SKILL.md"))[:cli_sample]
    if tools.get("agentskills") and folders:
        sample = [timed([tools["agentskills"], "validate", str(path)]) for path in folders]
        scale = size / len(folders)
        medians["agentskills validate (scaled)"] = (
            sum(wall for wall, _ in sample) * scale,
            sum(cpu for _, cpu in sample) * scale,
        )
    verify_cpu, lint_cpu = medians["verify"][1], medians["lint"][1]
    return [
        {
            "skills": size,
            "command": name,
            "wall_s": round(wall, 3),
            "cpu_s": round(cpu, 3),
            "cpu_x_verify": round(cpu / verify_cpu, 2),
            "cpu_x_lint": round(cpu / lint_cpu, 1),
            "tree": source,
        }
        for name, (wall, cpu) in medians.items()
    ]


def _medians(values: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(wall for wall, _ in values), statistics.median(cpu for _, cpu in values)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cli-sample", type=int, default=30, help="agentskills validate calls to time and scale")
    parser.add_argument("--json", default=str(HERE / "results" / "latest" / "lint_bench.json"))
    parser.add_argument("--archive", default=str(ARCHIVE), help="skills-en.tar.gz (default: ../shared/data/...)")
    options = parser.parse_args(argv)
    bin_folder = Path(sys.executable).parent
    skillmem = shutil.which("skillmem") or str(bin_folder / "skillmem")
    if not Path(skillmem).exists():
        parser.error("the skillmem command is not installed; run: python3 -m pip install .")
    agentskills = shutil.which("agentskills") or str(bin_folder / "agentskills")
    tools = {"skillmem": skillmem, "python": sys.executable}
    if Path(agentskills).exists():
        tools["agentskills"] = agentskills
    rows: list[dict[str, object]] = []
    for size in [int(size) for size in options.sizes.split(",")]:
        with tempfile.TemporaryDirectory() as folder:
            rows += measure(size, options.runs, options.cli_sample, tools, Path(folder), archive=Path(options.archive))
    print(f"{'skills':>7}  {'command':<32} {'wall s':>8} {'CPU s':>8} {'CPU x verify':>13} {'CPU x lint':>11}")
    for row in rows:
        cells = (row["wall_s"], row["cpu_s"], row["cpu_x_verify"], row["cpu_x_lint"])
        print(f"{row['skills']:>7}  {row['command']:<32} {cells[0]:>8} {cells[1]:>8} {cells[2]:>13} {cells[3]:>11}")
    sys.path.insert(0, str(HERE))
    from bench import run_facts

    result = {**run_facts(), "rows": rows}
    Path(options.json).parent.mkdir(parents=True, exist_ok=True)
    Path(options.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwritten: {options.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
