"""Every lint rule, with a skill that breaks it and one that does not, on real files."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.lint.check import lint_skill_file
from skillmem_hook.lint.files import lint_paths
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.rules import QUALITY, RULES

GOOD_DESCRIPTION = "Parse files. Use when the user asks 测试."


def skill(name: str | None = "{folder}", description: str | None = GOOD_DESCRIPTION, extra: str = "", body=""):
    lines = ["---"]
    if name is not None:
        lines.append(f"name: {name}")
    if description is not None:
        lines.append(f"description: {description}")
    lines += [extra, "---"] if extra else ["---"]
    return "\n".join(lines) + "\n" + body


LONG_NAME = "a" * 65
# code: (folder, SKILL.md text, other files) that breaks the rule, then one that keeps it.
CASES = {
    "SK101": (("a", "# A skill\n", {}), ("a", skill(), {})),
    "SK102": (("a", "---\nname: a\ndescription: d\n", {}), ("a", skill(), {})),
    "SK103": (("a", skill(description="Parse: files"), {}), ("a", skill(description="'Parse: files'"), {})),
    "SK104": (("a", "---\n- name\n- description\n---\n", {}), ("a", skill(), {})),
    "SK105": (("a", skill(extra="version: 1"), {}), ("a", skill(extra="metadata:\n  version: '1'"), {})),
    "SK106": (("a", skill(extra="name: a"), {}), ("a", skill(), {})),
    "SK107": (("a", skill(extra="user-invokable: true"), {}), ("a", skill(extra="user-invocable: true"), {})),
    "SK110": (("a", skill(name=None), {}), ("a", skill(), {})),
    "SK111": (("a", skill(name="''"), {}), ("a", skill(), {})),
    "SK112": ((LONG_NAME, skill(), {}), ("a" * 64, skill(), {})),
    "SK113": (("Abc", skill(), {}), ("abc", skill(), {})),
    "SK114": (("a_b", skill(), {}), ("a-b", skill(), {})),
    "SK115": (("a--b", skill(), {}), ("a-b", skill(), {})),
    "SK116": (("a", skill(name="b"), {}), ("b", skill(name="b"), {})),
    "SK120": (("a", skill(description=None), {}), ("a", skill(), {})),
    "SK121": (("a", skill(description='""'), {}), ("a", skill(), {})),
    "SK122": (("a", skill(description="x" * 1025), {}), ("a", skill(description="x" * 1024), {})),
    "SK123": (("a", skill(description="Parse\u200bfiles"), {}), ("a", skill(description="Parse files"), {})),
    "SK130": (("a", skill(extra="compatibility: " + "x" * 501), {}), ("a", skill(extra="compatibility: x"), {})),
    "SK131": (("a", skill(extra="allowed-tools: {Read: yes}"), {}), ("a", skill(extra="allowed-tools: [Read]"), {})),
    "SK132": (("a", skill(extra="metadata:\n  tags: [a, b]"), {}), ("a", skill(extra="metadata:\n  tags: a b"), {})),
    "SK133": (("a", skill(extra="context: forked"), {}), ("a", skill(extra="context: fork"), {})),
    "SK134": (("a", skill(extra="disable-model-invocation: yes"), {}), ("a", skill(extra="background: yes"), {})),
    "SK201": (
        ("a", skill(body="Run `scripts/x.py`.\n"), {}),
        ("a", skill(body="Run `scripts/x.py`.\n"), {"scripts/x.py"}),
    ),
    "SK202": (("a", skill(body="See [it](../b/x.md).\n"), {}), ("a", skill(body="See [it](x.md).\n"), {"x.md"})),
    "SK302": (("a", skill().encode() + "café\n".encode("latin-1"), {}), ("a", skill() + "café\n", {})),
    "SK401": (("a", skill(description="Parses files 测试"), {}), ("a", skill(), {})),
    "SK402": (("a", skill(body="line\n" * 501), {}), ("a", skill(body="line\n" * 500), {})),
    "SK403": (("a", skill(description="Use when parsing"), {}), ("a", skill(), {})),
}


def write_case(root, folder, text, files):
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True)
    data = text.encode() if isinstance(text, str) else text
    path.write_bytes(data.replace(b"{folder}", folder.encode()))
    for name in files:
        (root / folder / name).parent.mkdir(parents=True, exist_ok=True)
        (root / folder / name).write_text("x\n")
    return path


def spec_findings(data, folder="a", exists=lambda _: True):
    """The findings of the rules on by default (not quality)."""
    result = lint_skill_file(data, path="p", folder=folder, subfolders=[], exists=exists)
    return [finding for finding in result.findings if RULES[finding.code].group != QUALITY]


def codes_of(root):
    run = lint_paths([], [str(root)], lint_options({"quality": True}))
    return {finding.code for finding in run.findings}


def test_every_rule_has_a_case():
    # SK203 and SK204 need a 1 MiB body and a link out of the repository: tests/lint/test_reading.py.
    assert set(CASES) | {"SK203", "SK204", "SK301", "SK501"} == set(RULES)  # SK501: tests/lint/test_ranking.py


@pytest.mark.parametrize("code", sorted(CASES))
def test_the_rule_flags_the_breaking_skill_and_passes_the_other(tmp_path, code):
    (bad_folder, bad_text, bad_files), (good_folder, good_text, good_files) = CASES[code]
    write_case(tmp_path / "bad", bad_folder, bad_text, bad_files)
    write_case(tmp_path / "good", good_folder, good_text, good_files)
    assert code in codes_of(tmp_path / "bad")
    assert code not in codes_of(tmp_path / "good")


@pytest.mark.parametrize("description", ['""', "'   '", '"\\t \\n"', ">-\n  \n", "|\n   \n"])
def test_a_description_of_only_blanks_is_empty(description):
    # Search and the agents get nothing from it, so it is as empty as "" (mutants-4's spare 32).
    [finding] = spec_findings(skill(name="a", description=description).encode())
    assert (finding.code, finding.line, finding.col) == ("SK121", 3, 14)


def test_duplicates_are_flagged_with_both_paths(tmp_path):
    write_case(tmp_path, "one/pdf", skill(name="pdf"), {})
    write_case(tmp_path, "two/pdf", skill(name="PDF"), {})
    run = lint_paths([], [str(tmp_path)], lint_options(None))
    [duplicate] = [finding for finding in run.findings if finding.code == "SK301"]
    assert duplicate.path.endswith("two/pdf/SKILL.md")
    assert "one/pdf/SKILL.md" in duplicate.message
    assert (duplicate.line, duplicate.col) == (2, 7)
    write_case(tmp_path, "three/other", skill(name="other"), {})
    assert "SK301" not in codes_of(tmp_path / "three")


@pytest.mark.parametrize("named", ["one/pdf", "two/pdf"])
def test_a_duplicate_is_flagged_on_whichever_of_the_two_files_is_named(tmp_path, named):
    """pre-commit names only the staged SKILL.md: the one the index keeps, or the one it drops."""
    write_case(tmp_path, "one/pdf", skill(name="pdf"), {})
    write_case(tmp_path, "two/pdf", skill(name="PDF"), {})
    run = lint_paths([str(tmp_path / named / "SKILL.md")], [str(tmp_path)], lint_options(None))
    [duplicate] = [finding for finding in run.findings if finding.code == "SK301"]
    assert duplicate.path.endswith(f"{named}/SKILL.md")
    other = "two/pdf" if named == "one/pdf" else "one/pdf"
    assert f"{other}/SKILL.md" in duplicate.message


def test_a_clean_skill_has_no_finding_at_all(tmp_path):
    write_case(tmp_path, "clean", skill(body="See [the guide](references/guide.md).\n"), {"references/guide.md"})
    assert codes_of(tmp_path) == set()


def test_a_name_matches_its_folder_as_nfkc_reads_both():
    """A folder typed in full-width letters names the same skill, as skills-ref reads it."""
    data = skill(name="pdf-tools").encode()
    assert [finding.code for finding in spec_findings(data, folder="\uff50\uff44\uff46-tools")] == []
    assert [finding.code for finding in spec_findings(data, folder="pdf-tool")] == ["SK116"]


@pytest.mark.parametrize(
    ("extra", "codes"),
    [
        ("compatibility: " + "x" * 500, []),
        ("compatibility: " + "x" * 501, ["SK130"]),
    ],
)
def test_each_length_limit_allows_exactly_its_limit(extra, codes):
    assert [finding.code for finding in spec_findings(skill(name="a", extra=extra).encode())] == codes


def test_a_name_is_read_without_the_spaces_around_it():
    assert [finding.code for finding in spec_findings(skill(name="'a  '").encode())] == []


def test_findings_point_at_the_key_or_link(tmp_path):
    text = "---\r\nname: Bad_Name\r\ndescription: d\r\nextra: 1\r\n---\r\n\r\nSee ![img](assets/x.png).\r\n"
    findings = spec_findings(text.encode(), folder="Bad_Name", exists=lambda _: False)
    places = {(finding.code, finding.line, finding.col) for finding in findings}
    assert places == {("SK114", 2, 7), ("SK105", 4, 1), ("SK201", 7, 12)}  # one finding per cause


def test_the_invalid_yaml_finding_points_where_the_parser_stopped():
    text = b"---\nname: a\ndescription: Parse: files\n---\n"
    [finding] = spec_findings(text)
    assert (finding.code, finding.line) == ("SK103", 3)
    assert "quote" in finding.message


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf---\nname: a\ndescription: d\n---\n",  # a BOM is fine: skills-ref is wrong to refuse it
        b"---\r\nname: a\r\ndescription: d\r\n---\r\n",
    ],
)
def test_a_bom_or_crlf_is_no_finding(data):
    assert spec_findings(data) == []


@pytest.mark.parametrize(
    ("data", "place"),
    [
        (b"---\nname: caf\xe9\n---\n", (2, 10)),
        (b"\xff\xfe-\x00-\x00", (1, 1)),
        (b"---\nname: a\x00\n---\n", (2, 8)),
    ],
)
def test_a_file_that_is_not_utf8_is_one_finding_at_the_first_bad_byte(data, place):
    [finding] = spec_findings(data)
    assert finding.code == "SK302"
    assert (finding.line, finding.col) == place


@given(st.binary(max_size=400) | st.text(max_size=400).map(str.encode))
def test_no_bytes_make_lint_raise(data):
    for prefix in (b"", b"---\n", b"---\nname: a\n"):
        lint_skill_file(
            prefix + data + b"\n---\n" + data, path="p", folder="a", subfolders=["s"], exists=lambda _: False
        )


def test_a_huge_file_is_read_up_to_the_cap_and_linted(tmp_path):
    huge = skill().replace("{folder}", "huge") + "Run `scripts/x.py`.\n" + "text line\n" * 700_000
    write_case(tmp_path, "huge", huge, {})
    run = lint_paths([], [str(tmp_path)], lint_options(None))
    # The body's first MiB is searched for paths, and SK203 says the rest is not.
    assert [finding.code for finding in run.findings] == ["SK203", "SK201"]


@pytest.mark.parametrize(
    ("folder", "name", "expected"),
    [
        (
            "api-fuzzing-bug-bounty",
            "API Fuzzing for Bug Bounty",
            [
                "SK114 name 'API Fuzzing for Bug Bounty' holds characters other than letters, digits and '-'"
                " and has capitals; use 'api-fuzzing-bug-bounty' (the folder's name)"
            ],
        ),
        ("pdf", "PDF", ["SK113 name 'PDF' has capitals; use 'pdf' (the folder's name)"]),
        (
            "docx",
            "docx-tools",
            [
                "SK116 name 'docx-tools' differs from its folder 'docx';"
                " write 'name: docx' or rename the folder to 'docx-tools'"
            ],
        ),
        (
            "foo_bar",
            "Foo Bar",
            [
                "SK114 name 'Foo Bar' holds characters other than letters, digits and '-'"
                " and has capitals; use 'foo-bar'",
                "SK116 name 'Foo Bar' differs from its folder 'foo_bar'; rename the folder to 'foo-bar' too",
            ],
        ),
    ],
)
def test_one_finding_per_cause_and_the_fix_it_names_ends_it(folder, name, expected):
    data = f"---\nname: {name}\ndescription: d\n---\n".encode()
    assert [f"{f.code} {f.message}" for f in spec_findings(data, folder=folder)] == expected


@pytest.mark.parametrize(
    ("frontmatter", "place", "hint"),
    [
        ('description: "He said "hi" ok"', (3, 24), 'holds a " of its own; escape it'),
        ("description: 'it's'", (3, 18), "holds a ' of its own; write it twice"),
        ("description: Parse: files", (3, 19), "a value holding ': ' must be quoted: wrap the whole value in"),
        ("description: `x`", (3, 14), "must be quoted"),
        ("\tdescription: x", (3, 1), "indent with spaces"),
    ],
)
def test_the_invalid_yaml_hint_fits_its_cause(frontmatter, place, hint):
    [finding] = spec_findings(f"---\nname: a\n{frontmatter}\n---\n".encode())
    assert (finding.code, (finding.line, finding.col)) == ("SK103", place)
    assert hint in finding.message


def test_nested_metadata_points_at_the_nested_key_and_names_it():
    data = b"---\nname: a\ndescription: d\nmetadata:\n  author: me\n  tags: [a, b]\n---\n"
    [finding] = spec_findings(data)
    assert (finding.code, finding.line, finding.col) == ("SK132", 6, 3)
    assert "metadata 'tags' holds a list" in finding.message


@pytest.mark.parametrize(
    ("body", "left"),
    [
        ("<!-- skill-lint: disable=SK201 -->\nRun `scripts/a.py`.\nRun `scripts/b.py`.\n", ["scripts/b.py"]),
        ("Run `scripts/a.py`. <!-- skill-lint: disable=SK2 -->\nRun `scripts/b.py`.\n", []),
        ("Run `scripts/a.py`.\n\n<!-- skill-lint: disable-file=SK201 -->\nRun `scripts/b.py`.\n", []),
        ("<!-- skill-lint: disable=SK105 -->\nRun `scripts/a.py`.\n", ["scripts/a.py"]),  # another rule
        ("<!-- skill-lint: disable -->\nRun `scripts/a.py`.\n", []),
    ],
)
def test_an_inline_comment_silences_the_rules_it_names_on_its_line_and_the_next(body, left):
    data = f"---\nname: a\ndescription: d\n---\n{body}".encode()
    findings = spec_findings(data, exists=lambda _: False)
    assert [finding.message.split("'")[1] for finding in findings] == left


def test_a_silenced_mention_of_a_missing_file_leaves_the_others_one_finding():
    body = "<!-- skill-lint: disable=SK201 -->\nRun `scripts/a.py`.\n\nRun `scripts/a.py`.\nAnd `scripts/a.py`.\n"
    data = f"---\nname: a\ndescription: d\n---\n{body}".encode()
    [finding] = spec_findings(data, exists=lambda _: False)
    assert (finding.line, finding.also) == (8, ((9, 6),))  # line 6 is silenced


def test_a_frontmatter_comment_silences_a_frontmatter_finding():
    data = b"---\nname: a\ndescription: d\n# skill-lint: disable=SK105\nversion: 1\nrisk: low\n---\n"
    assert [(finding.code, finding.line) for finding in spec_findings(data)] == [("SK105", 6)]


NAME_VALUES = st.sampled_from(
    ["a", "'quoted'", '"dq"', "123", "true", "", "~", "[a, b]", "{a: b}", "Title Case", "x: y", "a # c"]
)


@given(NAME_VALUES, st.sampled_from(["", "tags: [a, b]\n", "desc: >\n  folded\n", "bad: 'x\n"]))
def test_the_name_lint_reads_is_the_one_the_catalog_reads_whenever_lint_offers_it(value, extra):
    from skillmem_hook.catalog.skillfile.declared import read_skill_text
    from skillmem_hook.catalog.skills import SkillProblem

    data = f"---\nname: {value}\ndescription: d\n{extra}---\nBody\n".encode()
    declared = lint_skill_file(data, path="p", folder="a", subfolders=[], exists=lambda _: True).declared
    try:
        catalog_name = read_skill_text(data).name
    except SkillProblem:
        return
    if declared is not None:  # None: lint leaves the name to the catalog's reader
        assert declared == (catalog_name,)
