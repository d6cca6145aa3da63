"""What the semantic leg costs at 2,000 skills: the cold vector build, and a warm query, beside yardsticks.

    python3 -m pip install '.[semantic]'
    SKILLS_CN_ROOT=... SKILLS_EN_ROOT=... python3 benchmarks/semantic_speed.py [--runs 5] [--write] [--warm]
    ... python3 benchmarks/semantic_speed.py --warm --query "We're on RDS with two read replicas. ... Where do I start?"

2,000 real skills: the Chinese collection's 1,899 distinct names and the first
English ones (by path) to make up the rest, copied into a temporary tree.
Whole processes of the installed ``skillmem`` (wall ms, median of --runs,
interleaved so load drifts hit every row alike), in a folder outside git with
its own user cache folder, beside two yardsticks measured in the same run:
``python -c pass`` and the lexical ``skillmem search``. The cold build is the
first ``--semantic`` run with an empty vector cache (every skill encoded);
the warm query is a later run (vectors read from the cache). In process:
loading the encoder, encoding the 2,000 skills, and a query once both are
loaded (what the MCP server pays a call), in CPU time.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402

SIZE = 2_000
QUERIES = ("数据库太慢怎么优化", "deploy containers to kubernetes", "my loaf came out flat", "发票报销流程自动化")


def build_tree(target: Path) -> Path:
    """SIZE skills: every distinct CN skill, the EN ones not among them, then EN ones again under new names."""
    root = target / "skills"
    chosen: dict[str, bytes] = {}  # by slug: the catalog keeps one skill a slug
    skills = [skill for key in ("SKILLS_CN_ROOT", "SKILLS_EN_ROOT") for skill in scan_roots([os.environ[key]]).skills]
    for skill in skills:
        chosen.setdefault(skill.slug, (Path(skill.root) / skill.path / "SKILL.md").read_bytes())
    for number, skill in enumerate(skills[::-1]):  # the EN ones first: plain names, easy to rename
        if len(chosen) >= SIZE:
            break
        data = (Path(skill.root) / skill.path / "SKILL.md").read_bytes()
        chosen[f"copy-{number}"] = data.replace(b"\nname: ", f"\nname: copy-{number}-".encode(), 1)
    for number, data in enumerate(list(chosen.values())[:SIZE]):
        destination = root / f"s{number:04d}" / "SKILL.md"
        destination.parent.mkdir(parents=True)
        destination.write_bytes(data)
    return root


def run_ms(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of one whole process: CPU skews less on a busy machine."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{command} exited {process.returncode}")
    return (time.perf_counter() - started) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def in_process(root: Path) -> list[tuple[str, float]]:
    from skillmem_hook.search.semantic import Encoder, SemanticIndex, rank_with_meaning

    skills = scan_roots([str(root)]).skills
    started = time.process_time()
    encoder = Encoder()
    encoder.encode(["warm up"])
    loaded = time.process_time() - started
    started = time.process_time()
    meaning = SemanticIndex(skills, encoder)  # no cache path: every skill encoded
    encoded = time.process_time() - started
    index = SearchIndex.build(skills)
    lexical, fused = [], []
    for query in QUERIES * 3:
        started = time.process_time()
        index.query(query, 10)
        lexical.append(time.process_time() - started)
        started = time.process_time()
        rank_with_meaning(index, meaning, query, 10)
        fused.append(time.process_time() - started)
    return [
        ("load the encoder (weights into memory), CPU s", loaded),
        (f"encode {len(skills):,} skills, CPU s", encoded),
        ("lexical query, median CPU ms", statistics.median(lexical) * 1000),
        ("lexical + semantic query, median CPU ms", statistics.median(fused) * 1000),
    ]


def write_into_doc(table: str) -> None:
    doc = REPO / "docs" / "notes" / "search.md"
    begin, end = "<!-- semantic-speed:begin -->", "<!-- semantic-speed:end -->"
    text = doc.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.DOTALL)
    doc.write_text(pattern.sub(lambda _: f"{begin}\n{table}\n{end}", text), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="also put the tables into docs/notes/search.md")
    parser.add_argument("--warm", action="store_true", help="vectors built once, then warm runs only (a busy machine)")
    parser.add_argument("--query", default=QUERIES[0], help="the question the processes ask (a long request, say)")
    options = parser.parse_args()
    if not (os.environ.get("SKILLS_CN_ROOT") and os.environ.get("SKILLS_EN_ROOT")):
        print("set SKILLS_CN_ROOT and SKILLS_EN_ROOT to the extracted collections", file=sys.stderr)
        return 2
    skillmem = shutil.which("skillmem")
    if skillmem is None:
        print("install skillmem-hook first: python3 -m pip install '.[semantic]'", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="semantic-speed-"))
    root = build_tree(work)
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache")}
    vectors = work / "cache" / "skillmem" / "vectors.bin"
    search = [skillmem, "search", "--root", str(root), "--top", "10"]
    rows: dict[str, list[tuple[float, float]]] = {}
    query = options.query
    if options.warm:
        run_ms([*search, "--semantic", query], work, env)  # the vectors, built once
    for _ in range(options.runs):
        rows.setdefault("bare: python -c pass", []).append(run_ms([sys.executable, "-c", "pass"], work, env))
        rows.setdefault("skillmem search (lexical)", []).append(run_ms([*search, query], work, env))
        if not options.warm:
            vectors.unlink(missing_ok=True)
            cold = run_ms([*search, "--semantic", query], work, env)
            rows.setdefault("skillmem search --semantic, cold vectors", []).append(cold)
        warm = run_ms([*search, "--semantic", query], work, env)
        rows.setdefault("skillmem search --semantic, warm vectors", []).append(warm)
        if options.warm:  # paired: a bare start right after each warm run
            rows["bare: python -c pass"].append(run_ms([sys.executable, "-c", "pass"], work, env))
    bare_wall = statistics.median(wall for wall, _ in rows["bare: python -c pass"])
    bare_cpu = statistics.median(cpu for _, cpu in rows["bare: python -c pass"])
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    )
    lines = []
    lines.append(
        f"{time.strftime('%Y-%m-%d')}, commit `{commit.stdout.strip()}`, Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; {SIZE:,} skills; "
        f"vector file {vectors.stat().st_size / 1e6:.1f} MB"
    )
    lines += ["", "| process | median wall ms | x bare | median CPU ms | x bare |", "|---|---:|---:|---:|---:|"]
    for label, times in rows.items():
        wall = statistics.median(wall for wall, _ in times)
        cpu = statistics.median(cpu for _, cpu in times)
        lines.append(f"| {label} | {wall:.0f} | {wall / bare_wall:.1f} | {cpu:.0f} | {cpu / bare_cpu:.1f} |")
    if not options.warm:
        lines += ["", "| in process | figure |", "|---|---:|"]
        lines += [f"| {label} | {value:.2f} |" for label, value in in_process(root)]
    print("\n".join(lines))
    if options.write:
        write_into_doc("\n".join(lines))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
