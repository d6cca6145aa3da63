"""The cold 10,000-skill git view with one part of its work changed or left out: what each structural try could give.

    python3 benchmarks/cold_tries.py [--size 10000] [--rounds 11] [--tries plain,thread,...]

Builds bench.py's tree in a git repository (committed, the block current),
then runs bench.py's I/O floor and one cold verify hook per try (its kept
files removed first), each as a whole process, the order rotating each
round; prints the medians of wall and CPU time (user + system of the
process, every thread included) and of the per-round ratios to the floor.
The tries (the 0.5.0 sixth pass, issue 33 item 1 to 3):

- ``plain``: the hook as it is;
- ``thread``: the work-tree files read and their blob ids hashed in a worker
  thread (batches of 64 handed over a queue) while the main thread parses;
  ``thread-fast`` the same with the interpreter's switch interval at 0.1 ms
  (5 ms by default), so the worker waits less for the lock after each
  system call;
- ``nocache`` / ``nowrite``: the content cache not written / neither kept
  file written: the most that writing less, or one file for both, could give;
- ``noplace``: every skill placed by one constant, not the domain table: the
  most deferring placement could give (the block needs each domain, so it
  cannot be deferred; this bounds it);
- ``fork`` (the seventh pass, issue 33 item 1): the listed files not in the
  cache split in two by count (``SKILLMEM_TRY_SHARE`` to the child, 0.5 by
  default, in the listing's sorted order); a forked child reads, hashes and
  parses the first part while the hook does the rest, and sends its entries
  back through a pipe as plain tuples (``marshal``: our own child's data);
  ``fork-place`` the same with the child also placing its skills by the
  domain table (content only, as the cache keeps it). With
  ``SKILLMEM_TRY_REPORT=1`` each prints what came back (bytes) and how long
  the hook waited for it and decoded it. No fallback, no guard: a ceiling.

Only ``plain`` is a correct run; the others measure a ceiling.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import FLOOR_SCRIPT, build_tree

PROMPT = "AGENTS.md"
TRIES = ("plain", "thread", "thread-fast", "nocache", "nowrite", "noplace", "fork", "fork-place")
HOOK = r"""
import os, queue, sys, threading
try_name = sys.argv[1]
sys.argv = ["skillmem-verify-hook", "--root", "skills", "--prompt-file", "AGENTS.md"]
if try_name.startswith("thread"):
    import skillmem_hook.catalog.discovery.checkout as checkout
    original, end = checkout.read_checked_out, object()
    def threaded(base, wanted):
        handed = queue.SimpleQueue()
        def work():
            batch = []
            try:
                for item in original(base, list(wanted)):
                    batch.append(item)
                    if len(batch) == 64:
                        handed.put(batch)
                        batch = []
            finally:
                handed.put(batch)
                handed.put(end)
        threading.Thread(target=work, daemon=True).start()
        while (got := handed.get()) is not end:
            yield from got
    checkout.read_checked_out = threaded
    if try_name == "thread-fast":
        sys.setswitchinterval(0.0001)
if try_name in ("nocache", "nowrite"):
    from skillmem_hook.catalog.store.cache import ContentCache
    ContentCache.save = lambda self: None
if try_name == "nowrite":
    from skillmem_hook.catalog.store.snapshot import Snapshot
    Snapshot.save = lambda self, catalog: None
if try_name == "noplace":
    import skillmem_hook.catalog.skills as skills
    from skillmem_hook.catalog.placement.domains import Placement
    constant = Placement("general", "", "")
    skills.place = lambda *fields: constant
if try_name.startswith("fork"):
    import marshal, time
    import skillmem_hook.catalog.reading as reading
    from skillmem_hook.catalog.discovery.checkout import read_checked_out
    from skillmem_hook.catalog.discovery.tracked import pathspec_of
    from skillmem_hook.catalog.skillfile.text import SkillText
    from skillmem_hook.catalog.placement.domains import Placement, place
    from skillmem_hook.catalog.skills import _nfc
    share = float(os.environ.get("SKILLMEM_TRY_SHARE", "0.5"))
    def plain_of(entry):
        if type(entry) is str:
            return entry
        placement = entry.placement
        if try_name == "fork-place" and entry.name:
            placement = place(_nfc(entry.name), _nfc(entry.description), _nfc(entry.title))
        return (entry.name, entry.description, entry.warnings, entry.metadata, entry.title,
                None if placement is None else tuple(placement))
    def entry_of(plain):
        if type(plain) is str:
            return plain
        name, description, warnings, metadata, title, placement = plain
        return SkillText(name, description, warnings, metadata, title=title, sections=None,
                         placement=None if placement is None else Placement(*placement))
    def read_part(jobs, sections):
        for base, wanted in jobs:
            for oid, data in read_checked_out(base, wanted):
                yield oid, reading._declared_blob(data, sections=sections)
    def forked(blobs, sections):
        by_root = {}
        for oid, items in blobs.items():
            by_root.setdefault(items[0].root, []).append((items[0].relative, oid))
        jobs = [(pathspec_of(root), sorted(wanted)) for root, wanted in by_root.items()]
        cut = int(len(blobs) * share)  # the first ``cut`` files to the child, the rest to this process
        theirs, mine = [], []
        for base, wanted in jobs:
            if cut > 0:
                theirs.append((base, wanted[:cut]))
            if cut < len(wanted):
                mine.append((base, wanted[max(cut, 0):]))
            cut -= len(wanted)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read_fd)
                payload = marshal.dumps([(oid, plain_of(entry)) for oid, entry in read_part(theirs, sections)])
                view = memoryview(payload)
                while view:
                    view = view[os.write(write_fd, view):]
            finally:
                os._exit(0)
        os.close(write_fd)
        got = dict(read_part(mine, sections))
        started = time.perf_counter()
        chunks = []
        while chunk := os.read(read_fd, 1 << 20):
            chunks.append(chunk)
        os.close(read_fd)
        os.waitpid(pid, 0)
        payload = b"".join(chunks)
        got.update((oid, entry_of(plain)) for oid, plain in marshal.loads(payload))
        if os.environ.get("SKILLMEM_TRY_REPORT"):
            print(f"transfer {len(payload)} bytes, waited+decoded {1000 * (time.perf_counter() - started):.1f} ms",
                  file=sys.stderr)
        return got
    def read_entries(pending, cache, *, sections=True):
        blobs = {}
        for item in pending:
            if item.oid:
                item.entry = cache.get(item.key, sections=sections)
                if item.entry is None:
                    blobs.setdefault(item.oid, []).append(item)
            else:
                reading._read_from_disk(item, cache, sections=sections)
        if not blobs:
            return
        got = forked(blobs, sections)
        for oid, entry in got.items():
            reading._fill_from_blob(blobs.pop(oid), cache, oid, entry)
        if blobs:
            from skillmem_hook.catalog.discovery.git_blobs import read_blobs
            for oid, data in read_blobs(list(blobs), reading.MAX_READ):
                reading._fill_from_blob(blobs[oid], cache, oid, reading._declared_blob(data, sections=sections))
    reading.read_entries = read_entries
from skillmem_hook.hooks.index import skill_verify
sys.exit(skill_verify())
"""


def run_child(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process; a try that places every skill by a constant drifts (exit 3)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) not in ((0, 3) if command[-1] == "noplace" else (0,)):
        raise SystemExit(f"{command[-1]} failed")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def set_up(repo: Path, size: int, env: dict[str, str]) -> None:
    build_tree(repo / "skills", size)
    (repo / "AGENTS.md").write_bytes(b"# Agents\n")
    for command in (
        ["git", "init", "-q"],
        ["git", "add", "-A"],
        ["git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "skills"],
        [sys.executable, "-m", "skillmem_hook", "inject", "--tracked", "--root", "skills", "--prompt-file", PROMPT],
        ["git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qam", "block"],
    ):
        subprocess.run(command, cwd=repo, env=env, check=True, capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--tries", default=",".join(TRIES))
    options = parser.parse_args(argv)
    tries = options.tries.split(",")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder)
        set_up(repo, options.size, env)
        kept = repo / ".git" / "skillmem"
        names = ["floor", *tries]
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
        load = os.getloadavg()[0]
        for number in range(options.rounds + 1):  # the first round warms the page cache and writes bytecode
            shift = number % len(names)
            for name in names[shift:] + names[:shift]:
                if name == "floor":
                    command = [sys.executable, "-c", FLOOR_SCRIPT, "skills"]
                else:
                    shutil.rmtree(kept, ignore_errors=True)
                    command = [sys.executable, "-c", HOOK, name]
                measured = run_child(command, repo, env)
                if number:
                    times[name].append(measured)
    floor = times["floor"]
    print(f"{options.rounds} rounds, {options.size:,} skills, load {load:.1f} -> {os.getloadavg()[0]:.1f}")
    for name in names:
        rows = times[name]
        wall = statistics.median(row[0] for row in rows) * 1000
        cpu = statistics.median(row[1] for row in rows) * 1000
        by_wall = statistics.median(row[0] / base[0] for row, base in zip(rows, floor))
        by_cpu = statistics.median(row[1] / base[1] for row, base in zip(rows, floor))
        print(f"{name:12} {wall:7.0f} ms wall {cpu:7.0f} ms CPU   x floor {by_wall:.3f} / {by_cpu:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
