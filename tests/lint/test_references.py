"""Which paths a SKILL.md body points at: links, code spans and code blocks, and what is left alone."""

from __future__ import annotations

import pytest

from skillmem_hook.lint.references import check_references, find_references


def paths(body, folders=()):
    return [reference.path for reference in find_references(body, 1, folders)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("See [guide](references/guide.md) and ![logo](assets/logo.png).", ["references/guide.md", "assets/logo.png"]),
        ("[api]: docs/api.md", ["docs/api.md"]),
        ("Read [this](notes%20one.md#part) first.", ["notes one.md"]),
        ("Run `scripts/extract.py` on it.", ["scripts/extract.py"]),
        ("Run `./scripts/extract.py`.", ["./scripts/extract.py"]),
        (
            "```bash\npython scripts/extract.py --in x\ncat references/api.md\n```",
            ["scripts/extract.py", "references/api.md"],
        ),
        ("~~~\nbash templates/new.sh\n~~~", ["templates/new.sh"]),
        ("```\ntools/run.py\n```", ["tools/run.py"]),  # with folders=("tools",), below
    ],
)
def test_what_counts_as_a_file_of_the_skill(body, expected):
    assert paths(body, folders=("tools",)) == expected


@pytest.mark.parametrize(
    "body",
    [
        "See [site](https://example.com/x.md), [mail](mailto:a@b.c) and [top](#usage).",
        "An absolute [file](/etc/hosts) and a home one [x](~/notes.md).",
        "A template [x]({baseDir}/scripts/a.py) or [y]($DIR/a.py).",
        "Edit `src/app.py` in your project.",  # not a folder a skill holds
        "```\nsrc/components/App.tsx\n```",
        "```bash\n./scripts/smoke-test.sh\n```",  # run in the user's folder, as runbooks show
        "```\n~/.claude/skills/x/scripts/a.py\n```",
        "Mention scripts/extract.py in prose only.",
        "`scripts/` is the folder; `run scripts/x.py now` is a sentence in code.",
        "```\nscripts/\nmyscripts/a.py\n```",
        "1. [Step 1]: [Description]",
        "`[x](scripts/a.py)` shows link syntax",
        "- **Examples**: `references/finance.md` for schemas, `references/mnda.md` for an NDA",
        "Bundle helpers, e.g. `scripts/rotate_pdf.py`.",
        "可以放入辅助脚本，例如 `scripts/rotate.py`。",
    ],
)
def test_what_is_left_alone(body):
    assert paths(body) == []


def test_a_fence_closes_only_with_its_own_character_and_length():
    body = "````md\n```\nnot closed yet\n```\n`scripts/in_block.py`\n````\nRun `scripts/after.py`.\n"
    assert paths(body) == ["scripts/in_block.py", "scripts/after.py"]


def test_an_unclosed_fence_runs_to_the_end():
    assert paths("```\npython scripts/a.py\n") == ["scripts/a.py"]


def test_positions_are_the_line_and_column_of_the_path():
    body = "intro\nRun `scripts/a.py`.\n\n```\n  python references/b.md\n```\n[x](c.md)\n"
    found = [(ref.path, ref.at.line, ref.at.col) for ref in find_references(body, 10, ())]
    assert sorted(found) == [("c.md", 16, 5), ("references/b.md", 14, 10), ("scripts/a.py", 11, 6)]


def test_missing_files_and_links_that_leave_the_folder_are_findings():
    body = "[a](../other/SKILL.md) [b](here.md) `scripts/gone.py` [c](sub/../here.md)"
    problems = check_references(find_references(body, 1, ()), lambda path: path == "here.md")
    assert sorted((code, message.split("'")[1]) for code, _, message in problems) == [
        ("SK201", "scripts/gone.py"),
        ("SK202", "../other/SKILL.md"),
    ]


@pytest.mark.parametrize(
    "body",
    [
        "All of [the notes](docs/*.md) at once.",  # a glob is not one file
        "```\ncp my.scripts/a.py .\n```",  # another folder whose name ends in a conventional one
    ],
)
def test_globs_and_lookalike_folders_are_left_alone(body):
    assert paths(body) == []


def test_a_link_to_the_parent_folder_itself_leaves_the_skill():
    problems = check_references(find_references("Up: [parent](..) and [here](.)", 1, ()), lambda path: False)
    assert [(code, message.split("'")[1]) for code, _, message in problems] == [("SK202", "..")]


def test_a_missing_file_named_twice_on_a_line_is_one_finding_and_on_two_lines_two():
    body = "Run `scripts/gone.py`, then [again](scripts/gone.py).\nLater: `scripts/gone.py`.\n"
    problems = check_references(find_references(body, 1, ()), lambda path: False)
    assert [(code, at.line) for code, at, _ in problems] == [("SK201", 1), ("SK201", 2)]


def test_an_example_earlier_in_the_line_does_not_hide_the_pointer_after_it():
    body = "当路径包含 `iteration` 时（例如操作为 `iterate`），先读取 `references/iteration-path.md`。"
    assert paths(body) == ["references/iteration-path.md"]
    assert paths("| 变体（例如 metric） | `references/metric-monitor.md` |") == ["references/metric-monitor.md"]
