"""Build a gathered collection: skills from public repositories, each pinned to a commit.

    python3 benchmarks/gathered_collection.py [--list TSV] [--mirrors DIR] OUT

The two shared collections are what every earlier set was written for, and
the defaults were tuned on them. Sets W and Y ask of skills nobody here
tuned on, gathered from public repositories; collections aa, ad, ag and aj are a
fourth, a fifth, a sixth and a seventh, in other domains. A list (``data/requests-w/collection.tsv``,
set W's, by default; ``data/requests-aa/collection.tsv`` for collection aa,
``data/requests-ad/collection.tsv`` for collection ad, ``data/requests-ag/collection.tsv``
for collection ag, ``data/requests-aj/collection.tsv`` for collection aj)
names each skill's folder: name, repository, commit, folder in the
repository. Each folder is taken at its commit and copied to
``OUT/skills/<name>``; ``OUT/MANIFEST.tsv`` is the list, saying where each
came from. Then: ``unseen_set.py --collection w=OUT/skills ...``.

Without ``--mirrors`` each repository is fetched with ``git`` from GitHub
(network needed). With it, from local git directories instead,
``DIR/<owner>+<name>/repo``, which must hold the pinned commits (``git
archive``; no network). Nothing of the tool itself fetches anything. The
skills keep their own repositories' licences, so they are not shipped.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import defaultdict
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
LIST = DATA / "requests-w" / "collection.tsv"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, metavar="OUT", help="a new folder: OUT/skills/<name>, OUT/MANIFEST.tsv")
    parser.add_argument("--list", type=Path, default=LIST, metavar="TSV", help="name, repository, commit, folder (W's)")
    parser.add_argument("--mirrors", type=Path, metavar="DIR", help="read DIR/<owner>+<name>/repo instead of fetching")
    options = parser.parse_args(argv)
    try:
        by_source = _read_list(options.list)
        (options.out / "skills").mkdir(parents=True, exist_ok=False)
        for (repository, commit), skills in sorted(by_source.items()):
            with tempfile.TemporaryDirectory() as scratch:
                folders = sorted({folder for _, folder in skills})
                if options.mirrors:
                    _archive(options.mirrors / repository.replace("/", "+") / "repo", commit, folders, Path(scratch))
                else:
                    _checkout(repository, commit, Path(scratch))
                for name, folder in skills:
                    shutil.copytree(Path(scratch) / folder, options.out / "skills" / name, symlinks=True)
    except (OSError, ValueError, subprocess.CalledProcessError, tarfile.TarError) as error:
        print(f"gathered_collection.py: {error}", file=sys.stderr)
        return 2
    shutil.copy(options.list, options.out / "MANIFEST.tsv")
    print(f"{sum(map(len, by_source.values()))} skills from {len(by_source)} repositories in {options.out / 'skills'}")
    return 0


def _read_list(path: Path) -> dict[tuple[str, str], list[tuple[str, str]]]:
    by_source: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    names: set[str] = set()
    with path.open(encoding="utf-8", newline="") as rows:
        for number, row in enumerate(csv.reader(rows, delimiter="\t"), 1):
            if len(row) != 4 or "/" in row[0] or row[0] in names:
                raise ValueError(f"{path}:{number}: not a new name, repository, commit and folder")
            name, repository, commit, folder = row
            names.add(name)
            by_source[repository, commit].append((name, folder))
    return by_source


def _checkout(repository: str, commit: str, into: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(into), *args], check=True, stdout=subprocess.DEVNULL)

    git("init", "-q")
    git("fetch", "-q", "--depth", "1", f"https://github.com/{repository}.git", commit)
    git("checkout", "-q", "FETCH_HEAD")


def _archive(git_dir: Path, commit: str, folders: list[str], into: Path) -> None:
    archive = into / "archive.tar"
    with archive.open("wb") as tar:
        command = ["git", "--git-dir", str(git_dir), "archive", "--format=tar", commit, "--", *folders]
        subprocess.run(command, check=True, stdout=tar)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="tar")
    archive.unlink()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
