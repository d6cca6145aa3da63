"""The mutation check: does the suite fail when code users rely on breaks?

    python3 tests/mutants.py                 # every mutant in tests/mutants.yaml
    python3 tests/mutants.py G01 S03         # only these
    python3 tests/mutants.py --check         # only check that every mutant still applies (no tests run)

Each mutant is a hand-made change (a ``find`` text and its ``replace``) to one
module, with the test files that guard that module. The checkout (tracked and
untracked files, what git ignores left out) is copied to a temporary folder
once; each mutant is applied there, its test files are run with pytest, and the
module is put back. A mutant is *killed* when a test fails, *survives* when all
pass. The working tree is never changed, so an interrupted run leaves nothing
to undo. The copy is imported through PYTHONPATH, which wins over the editable
install, so subprocesses the tests start see the mutant too.

Tests marked ``precommit`` are left out (each run would build a pre-commit
environment): a mutant must be killed by a faster test. The chosen mutants'
test files are first run once on the unchanged code: a test that fails anyway
would read as killing every mutant it guards (exit 2). ``CI=1`` keeps
hypothesis derandomised, so a result is reproducible. Exit 0 when no mutant
survives that is not listed in ``accepted`` of the YAML file (each with why in
tests/README.md), 1 otherwise, 2 when a mutant no longer applies.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
MUTANTS = Path(__file__).resolve().parent / "mutants.yaml"
# -n0: one process, as -x means (stop at the first kill), with no workers to start for a few test files.
PYTEST = [sys.executable, "-m", "pytest", "-q", "-x", "-n0", "-p", "no:cacheprovider", "-m", "not precommit"]
TIMEOUT_SECONDS = 900  # a hang counts as a kill: CI would fail on it too


class Mutant:
    def __init__(self, entry: dict, groups: dict[str, list[str]]) -> None:
        self.id: str = entry["id"]
        self.file: str = entry["file"]
        self.what: str = entry["what"]
        self.find: str = entry["find"]
        self.replace: str = entry["replace"]
        self.tests = [path for name in entry["tests"] for path in groups.get(name, [name])]

    def mutated(self, source: str) -> str | None:
        """The module's text with the change made, or None when ``find`` is not there exactly once."""
        if source.count(self.find) != 1:
            return None
        return source.replace(self.find, self.replace)


def load(path: Path = MUTANTS) -> tuple[list[Mutant], set[str]]:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    groups = document["groups"]
    mutants = [Mutant(entry, groups) for entry in document["mutants"]]
    ids = [mutant.id for mutant in mutants]
    duplicated = sorted({name for name in ids if ids.count(name) > 1})
    if duplicated:
        raise SystemExit(f"mutants.yaml: ids used twice: {', '.join(duplicated)}")
    return mutants, set(document.get("accepted") or [])


def copy_checkout(target: Path) -> None:
    """The files of the checkout as git sees them (tracked, and untracked but not ignored)."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    for name in listing.decode("utf-8", "surrogateescape").split("\0"):
        source = REPO / name
        if name and source.is_file():  # a file deleted but not yet staged is still listed
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name, follow_symlinks=False)


def run_tests(copy: Path, tests: list[str]) -> tuple[str, str, float]:
    """('killed' | 'survived' | 'error', the failing test or why, seconds) for the test files, run in the copy."""
    env = {**os.environ, "CI": "1", "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.monotonic()
    try:
        result = subprocess.run([*PYTEST, *tests], cwd=copy, env=env, capture_output=True, timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return "killed", f"a hang (over {TIMEOUT_SECONDS} s)", time.monotonic() - started
    seconds = time.monotonic() - started
    lines = result.stdout.decode(errors="replace").strip().splitlines()
    if result.returncode == 0:
        return "survived", "", seconds
    if result.returncode == 1:
        failed = [line.split(" ", 1)[1].split(" - ", 1)[0] for line in lines if line.startswith("FAILED ")]
        return "killed", (failed or ["?"])[0], seconds
    # 2-5: interrupted, internal error, usage, no tests: the mutant breaks the import, or the list is wrong
    return "error", f"pytest exit {result.returncode}: {' '.join(lines[-1:])}", seconds


def check_applies(mutants: list[Mutant], root: Path) -> list[str]:
    """The mutants whose ``find`` text is not in their module exactly once, or whose test files are missing."""
    stale = []
    for mutant in mutants:
        path = root / mutant.file
        if not path.is_file() or mutant.mutated(path.read_text(encoding="utf-8")) is None:
            stale.append(f"{mutant.id}: its find text is not in {mutant.file} exactly once")
        stale += [f"{mutant.id}: no test file {test}" for test in mutant.tests if not (root / test).exists()]
    return stale


def baseline(copy: Path, mutants: list[Mutant]) -> str:
    """'' when the chosen mutants' test files all pass on the unchanged code, else the first failure.

    A test that fails anyway (a merge that left a test of a removed knob) would kill every mutant of its group.
    """
    tests = list(dict.fromkeys(test for mutant in mutants for test in mutant.tests))
    outcome, detail, _ = run_tests(copy, tests)
    return "" if outcome == "survived" else detail or outcome


def run_all(mutants: list[Mutant], accepted: set[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="skillmem-mutants-") as folder:
        copy = Path(folder)
        copy_checkout(copy)
        broken = baseline(copy, mutants)
        if broken:
            print(f"the suite fails with no mutant applied ({broken}): fix it first, or every mutant reads as killed")
            return 2
        survivors = []
        print("| id | file | change | result | by | seconds |\n|---|---|---|---|---|---:|", flush=True)
        for mutant in mutants:
            path = copy / mutant.file
            original = path.read_bytes()
            path.write_text(mutant.mutated(original.decode("utf-8")) or "", encoding="utf-8")
            try:
                outcome, detail, seconds = run_tests(copy, mutant.tests)
            finally:
                path.write_bytes(original)
            if outcome != "killed":
                survivors.append(mutant.id)
            row = [mutant.id, mutant.file, mutant.what, outcome, detail, f"{seconds:.0f}"]
            print("| " + " | ".join(row) + " |", flush=True)
    killed = len(mutants) - len(survivors)
    print(f"\nkilled {killed} of {len(mutants)} ({100 * killed / max(1, len(mutants)):.0f} %)")
    unexpected = [name for name in survivors if name not in accepted]
    if survivors:
        print("survived: " + ", ".join(survivors) + (" (all accepted in mutants.yaml)" if not unexpected else ""))
    return 1 if unexpected else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("ids", nargs="*", help="mutant ids to run (default: all)")
    parser.add_argument("--check", action="store_true", help="only check that every mutant still applies")
    options = parser.parse_args(argv)
    mutants, accepted = load()
    unknown = set(options.ids) - {mutant.id for mutant in mutants}
    if unknown:
        print(f"no such mutant: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    chosen = [mutant for mutant in mutants if not options.ids or mutant.id in options.ids]
    stale = check_applies(chosen, REPO)
    if stale:
        print("\n".join(stale) + "\nrefresh tests/mutants.yaml to the code as it is now", file=sys.stderr)
        return 2
    if options.check:
        print(f"{len(chosen)} mutants apply")
        return 0
    return run_all(chosen, accepted)


if __name__ == "__main__":
    sys.exit(main())
