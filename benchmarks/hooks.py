"""Time the verify hook in a real git repository, its cache warm and cold, against four yardsticks.

    python3 benchmarks/hooks.py [--sizes 100,1000,10000,100000] [--runs 5] [--json PATH]

For each size it builds bench.py's skill tree in a temporary git repository,
writes a current AGENTS.md, commits everything, then times whole processes
run from the repository's top, one of each per round, so drift in the
machine's load hits all alike:

- bare: ``python -c pass``; floor: bench.py's I/O floor (walk the tree, read
  the frontmatter bytes of every SKILL.md);
- openskills: ``openskills sync -y`` (npm ``openskills@1.5.0``, installed
  into a temporary prefix; skipped when npm is missing), see yardsticks.py;
- hook warm / hook cold: the ``skillmem-verify-hook`` console script with
  ``--root skills --prompt-file AGENTS.md``, as pre-commit runs it; cold
  deletes the cache file (``git rev-parse --git-path skillmem/cache.json``)
  first;
- verify --tracked warm / cold: ``skillmem verify --tracked``, git's view
  through the CLI, to compare with the hook's.

Up to 1,000 skills it also times ``pre-commit run skill-verify`` (the hook
installed as pre-commit installs it, ``language: python``) against
``pre-commit run noop`` (a ``repo: local``, ``language: python`` hook running
``python -c pass``), alternating after a warm-up run of each, and reports the
median of the paired ratios (the method: benchmarks/README.md).
Medians throughout; ratios to the floor and to openskills are of medians.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import FLOOR_SCRIPT, build_tree, interpreter_of, run_facts
from yardsticks import (
    install_openskills,
    lay_out_for_openskills,
    openskills_env,
    timing_env,
    write_pre_commit_config,
)

HERE = Path(__file__).resolve().parent
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}
PRE_COMMIT_MAX = 1000  # pre-commit is measured up to this size
GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None  # for peak memory only
RACY_WAIT = 4.0  # the cache keeps no file changed within 3 s of a run (cache.RACY_SECONDS)


class Bench:
    """One size's repository and the commands timed in it."""

    def __init__(self, folder: Path, size: int, scripts: dict[str, str], openskills: str | None) -> None:
        self.repo = folder / "repo"
        self.size = size
        self.env = timing_env({**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(folder / "pre-commit-home")})
        self.openskills_env = openskills_env(folder / "home")
        python = interpreter_of(scripts["hook"])
        hook = [scripts["hook"], "--root", "skills", "--prompt-file", "AGENTS.md"]
        tracked = [scripts["skillmem"], "verify", "--tracked", "--root", "skills", "--prompt-file", "AGENTS.md"]
        # In this order each round: a cold run leaves the cache holding its own view's entries for the warm one.
        self.commands: dict[str, list[str]] = {"bare": [python, "-c", "pass"]}
        self.commands["floor"] = [python, "-c", FLOOR_SCRIPT, "skills"]
        if openskills:
            self.commands["openskills sync -y"] = [*openskills.split(" "), "sync", "-y"]
        self.commands.update({"hook cold": hook, "hook warm": hook})
        self.commands.update({"verify --tracked cold": tracked, "verify --tracked warm": tracked})
        self.scripts = scripts

    def git(self, *arguments: str) -> str:
        return self.run(["git", *arguments]).stdout.decode().strip()

    def run(self, command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(command, cwd=self.repo, env=env or self.env, capture_output=True, check=True)

    def set_up(self) -> None:
        """The tree, a current AGENTS.md (both tools' sections), all committed; pre-commit's hooks installed."""
        build_tree(self.repo / "skills", self.size)
        built = time.monotonic()
        self.git("init", "-q")
        self.git("config", "gc.auto", "0")  # no repack left running in the background while timing
        (self.repo / "AGENTS.md").write_bytes(b"# Agents\n\nHand-written instructions.\n")
        self.run([self.scripts["skillmem"], "inject", "--root", "skills", "--prompt-file", "AGENTS.md"])
        if "openskills sync -y" in self.commands:
            lay_out_for_openskills(self.repo, self.repo / "skills")
            self.run(self.commands["openskills sync -y"], self.openskills_env)
        if self.size <= PRE_COMMIT_MAX:
            write_pre_commit_config(self.repo, self.scripts["hook"])
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "skills")
        self.agents = digest(self.repo / "AGENTS.md")
        self.cache = self.repo / self.git("rev-parse", "--git-path", "skillmem/cache.json")
        if self.size <= PRE_COMMIT_MAX:
            self.run([self.scripts["pre-commit"], "install-hooks"])
        time.sleep(max(0.0, RACY_WAIT - (time.monotonic() - built)))
        for name in ("hook warm", "verify --tracked warm"):  # fill the cache, warm the page cache
            self.run(self.commands[name])

    def timed(self, name: str, prefix: tuple[str, ...] = ()) -> float:
        """Wall seconds of one run of the named command."""
        if name.endswith("cold"):
            self.cache.unlink(missing_ok=True)
        env = self.openskills_env if name.startswith("openskills") else self.env
        start = time.perf_counter()
        code = subprocess.call([*prefix, *self.commands[name]], cwd=self.repo, env=env, stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        if code != 0:
            raise SystemExit(f"{name} failed at {self.size} skills (exit {code})")
        if name.startswith("openskills") and digest(self.repo / "AGENTS.md") != self.agents:
            raise SystemExit("openskills sync changed AGENTS.md, so the repository is no longer the committed one")
        return elapsed

    def peak_mb(self, name: str) -> float | None:
        """Max RSS of one more run, as GNU time reports it: a child of this (large) process would inherit its peak."""
        if GNU_TIME is None:
            return None
        with tempfile.NamedTemporaryFile("r") as report:
            self.timed(name, (GNU_TIME, "-f", "%M", "-o", report.name))
            return round(int(report.read().split()[-1]) / 1024, 1)

    def measure(self, runs: int) -> list[dict[str, object]]:
        times: dict[str, list[float]] = {name: [] for name in self.commands}
        for _ in range(runs):
            for name in self.commands:
                times[name].append(self.timed(name))
        peaks = {name: self.peak_mb(name) for name in self.commands}
        medians = {name: statistics.median(values) for name, values in times.items()}
        floor, openskills = medians["floor"], medians.get("openskills sync -y")
        return [
            {
                "skills": self.size,
                "command": name,
                "median_ms": round(median * 1000, 1),
                "x_floor": round(median / floor, 2),
                "x_openskills": round(median / openskills, 2) if openskills else None,
                "peak_mb": peaks[name],
            }
            for name, median in medians.items()
        ]

    def pre_commit_ratio(self, runs: int) -> dict[str, object]:
        """Median of paired ratios ``pre-commit run skill-verify`` / ``pre-commit run noop``, order alternating."""
        pairs: list[tuple[float, float]] = []
        for hook_id in ("noop", "skill-verify"):  # warm-up: the first run of each pays for what it keeps
            self.run([self.scripts["pre-commit"], "run", hook_id])
        for round_number in range(runs):
            order = ("noop", "skill-verify") if round_number % 2 == 0 else ("skill-verify", "noop")
            seconds = {}
            for hook_id in order:
                start = time.perf_counter()
                self.run([self.scripts["pre-commit"], "run", hook_id])
                seconds[hook_id] = time.perf_counter() - start
            pairs.append((seconds["skill-verify"], seconds["noop"]))
        return {
            "skills": self.size,
            "hook_ms": round(statistics.median(hook for hook, _ in pairs) * 1000, 1),
            "noop_ms": round(statistics.median(noop for _, noop in pairs) * 1000, 1),
            "ratio": round(statistics.median(hook / noop for hook, noop in pairs), 3),
        }

    def cache_facts(self) -> dict[str, object]:
        """The size of the cache file the hook writes, and its view: ``b:`` keys are blob ids, ``f:`` stat keys."""
        self.cache.unlink(missing_ok=True)
        self.run(self.commands["hook warm"])
        entries = [line.partition(b"\t")[0] for line in self.cache.read_bytes().split(b"\n")[1:-2]]  # records.py
        return {
            "skills": self.size,
            "cache_bytes": self.cache.stat().st_size,
            "snapshot_bytes": _size_or_none(self.cache.with_name("catalog.json")),
            "blob_keys": sum(key.startswith(b"b:") for key in entries),
            "stat_keys": sum(key.startswith(b"f:") for key in entries),
        }


def _size_or_none(path: Path) -> int | None:
    return path.stat().st_size if path.exists() else None


def digest(path: Path) -> str:
    """A checksum read in chunks, so this process stays small (its children would inherit its peak memory)."""
    checksum = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            checksum.update(chunk)
    return checksum.hexdigest()


def script(name: str) -> str:
    """A console script beside this interpreter (the venv the package is installed in), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} is not installed; run: python3 -m pip install '.[test]'")
    return found


def print_tables(result: dict[str, list[dict[str, object]]]) -> None:
    print(f"{'skills':>7}  {'command':<22} {'median ms':>10} {'x floor':>8} {'x openskills':>13} {'peak MB':>8}")
    for row in result["rows"]:
        ratio = "-" if row["x_openskills"] is None else row["x_openskills"]
        print(
            f"{row['skills']:>7}  {row['command']:<22} {row['median_ms']:>10} {row['x_floor']:>8} "
            f"{ratio:>13} {row['peak_mb']:>8}"
        )
    for row in result["pre_commit"]:
        print(
            f"\npre-commit, {row['skills']} skills: skill-verify {row['hook_ms']} ms, noop {row['noop_ms']} ms, "
            f"median paired ratio {row['ratio']}",
            end="",
        )
    print()
    for row in result["cache"]:
        print(
            f"cache, {row['skills']} skills: {row['cache_bytes']} bytes, "
            f"{row['blob_keys']} blob keys, {row['stat_keys']} stat keys, "
            f"catalog snapshot {row.get('snapshot_bytes')} bytes"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000,100000", help="comma-separated tree sizes")
    parser.add_argument("--runs", type=int, default=5, help="rounds per size (3 at most for 100,000 skills)")
    parser.add_argument(
        "--json", default=str(HERE / "results" / "latest" / "hooks.json"), help="where to write the figures"
    )
    options = parser.parse_args(argv)
    scripts = {name: script(name) for name in ("skillmem", "skillmem-verify-hook", "pre-commit")}
    scripts["hook"] = scripts.pop("skillmem-verify-hook")
    result: dict[str, list[dict[str, object]]] = {"rows": [], "pre_commit": [], "cache": []}
    facts = run_facts()
    with tempfile.TemporaryDirectory() as npm_prefix:
        openskills, note = install_openskills(Path(npm_prefix))
        print(f"openskills: {note}", file=sys.stderr)
        facts["openskills"] = note
        for size in [int(size) for size in options.sizes.split(",")]:
            runs = min(options.runs, 3) if size >= 100_000 else options.runs
            with tempfile.TemporaryDirectory() as folder:
                bench = Bench(Path(folder), size, scripts, openskills)
                bench.set_up()
                result["rows"] += bench.measure(runs)
                if size <= PRE_COMMIT_MAX:
                    result["pre_commit"].append(bench.pre_commit_ratio(runs))
                result["cache"].append(bench.cache_facts())
                # written after each size, before a large tree's slow clean-up
                Path(options.json).parent.mkdir(parents=True, exist_ok=True)
                Path(options.json).write_text(json.dumps({**facts, **result}, indent=2) + "\n")
    print_tables(result)
    print(f"\nwritten: {options.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
