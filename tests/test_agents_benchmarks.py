"""The agent benchmarks keep running (their figures are judged by people, never by a test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples" / "skills"


def dev_folder(tmp_path):
    folder = tmp_path / "dev"
    folder.mkdir()
    queries = [("parse a csv file into a table", ["csv-to-table"]), ("deploy my containers", ["docker-deploy"])]
    for name in ("dev-cn.jsonl", "dev-en.jsonl", "dev-xl.jsonl"):
        lines = [json.dumps({"collection": "en", "query": query, "expect": expect}) for query, expect in queries]
        (folder / name).write_text("\n".join(lines) + "\n")
    return folder


def test_route_rule_prints_the_rule_in_force_and_its_candidates(tmp_path):
    result = subprocess.run(
        [
            *(sys.executable, str(REPO / "benchmarks" / "route_rule.py")),
            *("--dev", str(dev_folder(tmp_path)), "--without-set-b"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SKILLS_EN_ROOT": str(EXAMPLES)},
    )
    assert result.returncode == 0, result.stderr
    # ids default to 1, an odd number: all six requests are tuning ones
    assert "6 tuning requests and 0 held-out ones" in result.stdout
    assert "| in force: score >= " in result.stdout and "| everyday fires |" in result.stdout


def test_the_agents_benchmark_times_route_and_mcp(tmp_path):
    pytest.importorskip("mcp", reason="the MCP Python SDK is not installed (the [mcp] extra)")
    if not (Path(sys.executable).parent / "skillmem").exists():
        pytest.skip("the skillmem console script is not installed beside this interpreter")
    out = tmp_path / "agents.json"
    command = [sys.executable, str(REPO / "benchmarks" / "agents.py"), "--root", str(EXAMPLES), "--runs", "1"]
    result = subprocess.run(
        [*command, "--dev", str(dev_folder(tmp_path) / "dev-en.jsonl"), "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(out.read_text())
    assert set(figures["route"]) == {"bare", "route, names a skill", "route, names none", "route, cold"}
    assert set(figures["mcp"]) == {"burst", "spaced", "ranking alone, in process"}
    assert all(value["cpu"] > 0 for value in figures["route"].values())


def test_the_unseen_set_benchmark_scores_the_defaults_on_a_set_and_turns_it_is_given(tmp_path):
    turns = tmp_path / "everyday.jsonl"
    rows = [
        {"id": "e-001", "lang": "en", "turn": "fix the typo on line 3"},
        {"id": "e-002", "lang": "zh", "turn": "继续"},
    ]
    turns.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "figures.json"
    result = subprocess.run(
        [
            *(sys.executable, str(REPO / "benchmarks" / "unseen_set.py")),
            *("--set", str(dev_folder(tmp_path)), "--turns", str(turns), "--json", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SKILLS_EN_ROOT": str(EXAMPLES), "SKILLS_CN_ROOT": str(EXAMPLES)},
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(out.read_text())
    (scored,) = figures["sets"].values()
    # Three files of two requests each, all asked of the en collection in English: one group.
    assert set(scored["search"]) == {"dev/dev-cn.jsonl", "dev/dev-en.jsonl", "dev/dev-xl.jsonl", "en/en", "all"}
    # Both example requests name their skill's own words: first place everywhere.
    assert scored["search"]["all"]["lexical"] == {"hit@1": 1.0, "hit@3": 1.0, "hit@10": 1.0, "mrr": 1.0}
    # Neither short request types the 8 words the route rule asks for: no fire, so no precision.
    assert scored["route"]["all"] == {
        **dict.fromkeys(("fires", "right", "first_right", "named_by_name", "fire_rate"), 0),
        "requests": 6,
        "precision": None,
    }
    assert figures["turns"]["all"] == {"turns": 2, "fired": 0, "fires": 0}
    assert figures["turns"]["lang zh"]["turns"] == 1
    assert "| en/en | 2 |" not in result.stdout and "| en/en | 6 | 1.000 | 1.000 | 1.000 | 1.000 |" in result.stdout


def test_the_unseen_set_benchmark_reads_multi_line_turns_a_mixed_language_and_a_bom(tmp_path):
    turns = tmp_path / "everyday-f.jsonl"
    one_a_line = json.dumps(
        {"id": "f-001", "lang": "mixed", "turn": "这个 test 为什么 fail\nTraceback (most recent call last):"}
    )
    spread = json.dumps({"id": "f-002", "lang": "en", "turn": "ok\ncontinue"}, indent=2)  # a writer's pretty print
    turns.write_text("\ufeff" + one_a_line + "\n" + spread + "\n", encoding="utf-8")
    out = tmp_path / "figures.json"
    result = subprocess.run(
        [*(sys.executable, str(REPO / "benchmarks" / "unseen_set.py")), "--turns", str(turns), "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SKILLS_EN_ROOT": str(EXAMPLES), "SKILLS_CN_ROOT": str(EXAMPLES)},
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(out.read_text())["turns"]
    assert figures["all"]["turns"] == 2
    assert figures["lang mixed"] == {"turns": 1, "fired": 0, "fires": 0}
