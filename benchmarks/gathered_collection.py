"""Build set W's collection: skills gathered from public repositories, each pinned to a commit.

    python3 benchmarks/gathered_collection.py OUT     # then: unseen_set.py --collection w=OUT/skills ...

The two shared collections are what every earlier set was written for, and
the defaults were tuned on them. Set W asks of skills nobody here tuned on:
the folders named in ``data/requests-w/collection.tsv`` (name, repository,
commit, folder in the repository), fetched with ``git`` from GitHub at those
commits and copied to ``OUT/skills/<name>``. Needs network access and git;
nothing of the tool itself fetches anything. The skills keep their own
repositories' licences (``OUT/SOURCES.tsv`` says where each came from).
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

LIST = Path(__file__).resolve().parent / "data" / "requests-w" / "collection.tsv"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        return 2
    out = Path(argv[0])
    (out / "skills").mkdir(parents=True, exist_ok=False)
    by_source: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    with LIST.open(encoding="utf-8", newline="") as rows:
        for name, repository, commit, folder in csv.reader(rows, delimiter="\t"):
            by_source[repository, commit].append((name, folder))
    for (repository, commit), skills in sorted(by_source.items()):
        with tempfile.TemporaryDirectory() as scratch:
            _checkout(repository, commit, Path(scratch))
            for name, folder in skills:
                shutil.copytree(Path(scratch) / folder, out / "skills" / name, symlinks=True)
    shutil.copy(LIST, out / "SOURCES.tsv")
    print(f"{sum(map(len, by_source.values()))} skills from {len(by_source)} repositories in {out / 'skills'}")
    return 0


def _checkout(repository: str, commit: str, into: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(into), *args], check=True, stdout=subprocess.DEVNULL)

    git("init", "-q")
    git("fetch", "-q", "--depth", "1", f"https://github.com/{repository}.git", commit)
    git("checkout", "-q", "FETCH_HEAD")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
