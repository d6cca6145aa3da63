"""Which paths a SKILL.md body points at: links, code spans and code blocks, and what is left alone."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.lint import references
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


def test_a_missing_file_is_one_finding_at_its_first_mention_that_lists_the_others():
    # newuser-3's p7: assets/prometheus.yml.template reported once per mention
    body = "Run `scripts/gone.py`, then [again](./scripts/gone.py).\nLater: `scripts/gone.py`.\n"
    body += "[up](../x.md) [up](../x.md)"
    problems = check_references(find_references(body, 1, ()), lambda path: False)
    assert [(code, (at.line, at.col), at.also, message) for code, at, message in problems] == [
        (
            "SK201",
            (1, 6),
            ((1, 37), (2, 9)),
            "'scripts/gone.py' is not in the skill's folder; add the file or fix the path",
        ),
        ("SK202", (3, 6), ((3, 20),), "'../x.md' leaves the skill's folder; copy the file into it"),
    ]


def test_each_path_is_asked_about_once():
    asked = []
    body = "`scripts/a.py` `scripts/a.py` [x](scripts/a.py) `scripts/b.py`"
    check_references(find_references(body, 1, ()), lambda path: asked.append(path) or path == "scripts/b.py")
    assert asked == ["scripts/a.py", "scripts/b.py"]


def test_a_mention_on_a_silenced_line_is_not_counted():
    body = "`scripts/gone.py`\n`scripts/gone.py`\n`scripts/gone.py`\n"
    problems = check_references(find_references(body, 1, ()), lambda _: False, lambda code, line: line == 1)
    assert [(at.line, at.also) for _, at, _ in problems] == [(2, ((3, 2),))]


def test_an_example_earlier_in_the_line_does_not_hide_the_pointer_after_it():
    body = "当路径包含 `iteration` 时（例如操作为 `iterate`），先读取 `references/iteration-path.md`。"
    assert paths(body) == ["references/iteration-path.md"]
    assert paths("| 变体（例如 metric） | `references/metric-monitor.md` |") == ["references/metric-monitor.md"]


@pytest.mark.parametrize(
    "body",
    [
        "[a](%2Fetc%2Fpasswd)",  # decoded, an absolute path: not one of the skill's
        "[a](%2e%2e%2F..%2Fetc%2Fpasswd)",
        "[a](C%3A%5Cwindows%5Cx.md)",
        "[a](~%2F.ssh%2Fid_rsa)",
        "[a](x%00.md)",
    ],
)
def test_a_link_is_judged_after_it_is_decoded(body):
    assert [ref.path for ref in find_references(body, 1, ()) if not ref.path.startswith("..")] == []


def test_a_code_span_with_arguments_points_at_its_first_word():
    assert paths("Run `scripts/clean.py input.csv` then `python scripts/x.py`.") == ["scripts/clean.py"]


OLD_CODE_SPAN = re.compile(r"`(`*)([^`\n]+)`\1(?!`)")


@given(st.text(alphabet="`x \n", max_size=40))
def test_the_code_span_scanner_finds_what_the_regular_expression_found(body):
    expected = [(found.start(), found.end(), found.start(2)) for found in OLD_CODE_SPAN.finditer(body)]
    assert references.code_spans(body) == expected


class CountingPattern:
    """A compiled pattern that counts the searches made with it."""

    def __init__(self, pattern):
        self.pattern = pattern
        self.calls = 0

    def search(self, *args):
        self.calls += 1
        return self.pattern.search(*args)

    def finditer(self, *args):
        self.calls += 1
        return self.pattern.finditer(*args)


@pytest.mark.parametrize(
    ("body", "count"),
    [
        ("`scripts/a.py` " * 5000, 1),  # one finding a line: the same path is reported once
        ("| `scripts/a.py` " * 5000, 1),
        ("e.g. " + "`scripts/a.py` " * 5000, 0),  # all illustrations
        ("`" * 40000 + "x", 0),
    ],
)
def test_a_hostile_body_is_searched_once_not_once_per_code_span(monkeypatch, body, count):
    counting = CountingPattern(references._EXAMPLE_WORDS)
    monkeypatch.setattr(references, "_EXAMPLE_WORDS", counting)
    found = find_references(body, 1, ())
    assert counting.calls <= 1
    assert len({(ref.path, ref.at.line) for ref in found}) == count


@pytest.mark.parametrize(
    "body",
    [
        # A workflow the skill tells the user to add to their own repository: its paths are the user's.
        "```yaml\nname: AI Review\non: [pull_request]\njobs:\n  review:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - run: python scripts/ai_review.py\n```",
        "```yml\nreview:\n  script:\n    - python scripts/ai_review.py\n```",
        # A template's placeholder line: the link shows the shape of a file, not one of the skill's.
        "- [c4-code-file-1.md](./c4-code-file-1.md) - [Description]",
        "| [Component Name](components/component-name.md) | [Purpose] |",
    ],
)
def test_what_is_the_users_or_a_templates_is_left_alone(body):
    assert paths(body) == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("```yaml\nconfig: scripts/settings.yaml\n```", ["scripts/settings.yaml"]),  # YAML, but no workflow
        ("```sh\n# jobs: none\npython scripts/run.py\n```", ["scripts/run.py"]),  # a workflow key, but not YAML
        ("- [x] read [the guide](references/guide.md)", ["references/guide.md"]),  # a checkbox is no placeholder
        ("See [API][api] and [the guide](references/guide.md).", ["references/guide.md"]),
    ],
)
def test_what_still_points_at_the_skills_files(body, expected):
    assert paths(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        # After a cd, the commands run in the clone: scripts/init.py is the cloned project's.
        "```bash\ngit clone https://example.com/polis.git\ncd polis\npython3 scripts/init.py\n```",
        "```sh\nmkdir app && cd app && python scripts/setup.py\n```",
        # A code span as a link's text: the link's target (a URL here) is what it points at.
        "| [`references/rerun.md`](https://github.com/o/r/blob/main/references/rerun.md) | reruns |",
    ],
)
def test_paths_that_live_elsewhere_are_left_alone(body):
    assert paths(body) == []


def test_a_link_with_a_code_span_text_is_checked_by_its_target():
    found = find_references("- [`references/jobs.md`](references/jobs.md) - jobs\n", 1, ())
    assert [(ref.path, ref.at.col, ref.from_link) for ref in found] == [("references/jobs.md", 26, True)]
