"""Time lint on hostile SKILL.md bodies beside ordinary bodies of the same size, in one run.

    python3 benchmarks/lint_hostile.py [--runs 3] [--archive TGZ] [--json PATH]

Issue 17 item 15: bodies built to make a scan quadratic (thousands of code
spans on one line, long runs of backticks, thousands of links) must cost
what their size costs. The yardstick, measured in the same run: an ordinary
body of the same size, made of the real SKILL.md bodies of
``../shared/data/collections/skills-en.tar.gz`` one after another (or of
one made-up skill when the archive is absent). A ratio near 1 means the
hostile shape costs no more than ordinary text; the scan cap (lint searches
a body's first MiB) bounds the largest.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from lint_bench import ARCHIVE, real_skills  # noqa: E402

from skillmem_hook.lint.check import lint_skill_file  # noqa: E402

FRONTMATTER = "---\nname: s\ndescription: Hostile body. Use when measuring.\n---\n"
HOSTILE = {
    "`scripts/a.py` x 5,000 on one line": "`scripts/a.py` " * 5_000 + "\n",
    "`scripts/a.py` x 10,000 on one line": "`scripts/a.py` " * 10_000 + "\n",
    "e.g. + `scripts/a.py` x 10,000 on one line": "e.g. " + "`scripts/a.py` " * 10_000 + "\n",
    "backticks x 40,000 then x": "`" * 40_000 + "x\n",
    "backticks x 200,000 then x": "`" * 200_000 + "x\n",
    "[a](scripts/x.py) x 150,000 on one line": "[a](scripts/x.py) " * 150_000 + "\n",
    "`scripts/a.py` on 200,000 lines": "`scripts/a.py`\n" * 200_000,
    "``` x 20,000 on one line": "```" * 20_000 + "\n",
    "[a]: x.md x 20,000 on one line": "[a]: x.md " * 20_000 + "\n",
}


def ordinary_body(size: int, samples: list[bytes]) -> str:
    texts = [data.decode("utf-8", "replace").split("\n---\n", 1)[-1] for data in samples] or [
        "# Tool\n\nRun `scripts/run.py` and read [the guide](references/guide.md).\n\n```sh\npython scripts/x.py\n```\n"
    ]
    parts, total, number = [], 0, 0
    while total < size:
        text = texts[number % len(texts)]
        parts.append(text)
        total += len(text)
        number += 1
    return "".join(parts)[:size]


def lint_seconds(body: str, runs: int) -> float:
    data = (FRONTMATTER + body).encode("utf-8")
    times = []
    for _ in range(runs):
        start = time.process_time()
        lint_skill_file(data, path="s/SKILL.md", folder="s", subfolders=[], exists=lambda _: False)
        times.append(time.process_time() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--archive", default=str(ARCHIVE))
    parser.add_argument("--json", default=str(HERE / "results" / "latest" / "lint_hostile.json"))
    options = parser.parse_args(argv)
    samples = real_skills(Path(options.archive))
    rows = []
    for name, body in HOSTILE.items():
        hostile = lint_seconds(body, options.runs)
        ordinary = lint_seconds(ordinary_body(len(body), samples), options.runs)
        rows.append(
            {
                "body": name,
                "chars": len(body),
                "hostile_cpu_s": round(hostile, 4),
                "ordinary_cpu_s": round(ordinary, 4),
                "ratio": round(hostile / ordinary, 2) if ordinary else None,
            }
        )
    print(f"{'body':<46} {'chars':>10} {'hostile CPU s':>14} {'ordinary CPU s':>15} {'ratio':>6}")
    for row in rows:
        cells = (row["chars"], row["hostile_cpu_s"], row["ordinary_cpu_s"], row["ratio"])
        print(f"{row['body']:<46} {cells[0]:>10,} {cells[1]:>14} {cells[2]:>15} {cells[3]:>6}")
    from bench import run_facts

    result = {**run_facts(), "yardstick": "ordinary bodies of the same size", "rows": rows}
    Path(options.json).parent.mkdir(parents=True, exist_ok=True)
    Path(options.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwritten: {options.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
