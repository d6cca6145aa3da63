"""Differential test against the reference validator ``skills-ref``, through the API ``agentskills validate`` runs.

On a tree with every kind of spec error, each skill skills-ref rejects is
flagged by lint with the matching rule. Where skills-ref is wrong, the
test pins what it does, so the table of those cases in docs/lint.md stays true.
"""

from __future__ import annotations

import pytest

from skillmem_hook.lint.files import lint_paths
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.rules import RULES, SPEC

validator = pytest.importorskip(
    "skills_ref.validator", reason="skills-ref, the reference validator, needs Python 3.11 or newer"
)

OK = "description: Parse files"
# folder: SKILL.md bytes. Every kind of spec error skills-ref reports, and clean skills beside them.
TREE: dict[str, bytes] = {
    "clean": b"---\nname: clean\ndescription: Parse files\nlicense: MIT\ncompatibility: python3\n---\nBody\n",
    "clean-metadata": b"---\nname: clean-metadata\n" + OK.encode() + b"\nmetadata:\n  author: me\n---\n",
    "no-frontmatter": b"# Just a heading\n",
    "unclosed": b"---\nname: unclosed\n" + OK.encode() + b"\n",
    "invalid-yaml": b"---\nname: invalid-yaml\ndescription: Parse: files\n---\n",
    "duplicate-key": b"---\nname: duplicate-key\nname: duplicate-key\n" + OK.encode() + b"\n---\n",
    "not-mapping": b"---\n- name\n- description\n---\n",
    "unknown-field": b"---\nname: unknown-field\n" + OK.encode() + b"\nversion: 1.0\n---\n",
    "no-name": b"---\n" + OK.encode() + b"\n---\n",
    "empty-name": b"---\nname: ''\n" + OK.encode() + b"\n---\n",
    "a" * 65: b"---\nname: " + b"a" * 65 + b"\n" + OK.encode() + b"\n---\n",
    "Upper-Case": b"---\nname: Upper-Case\n" + OK.encode() + b"\n---\n",
    "under_score": b"---\nname: under_score\n" + OK.encode() + b"\n---\n",
    "-leading": b"---\nname: -leading\n" + OK.encode() + b"\n---\n",
    "trailing-": b"---\nname: trailing-\n" + OK.encode() + b"\n---\n",
    "double--hyphen": b"---\nname: double--hyphen\n" + OK.encode() + b"\n---\n",
    "folder-differs": b"---\nname: other-name\n" + OK.encode() + b"\n---\n",
    "no-description": b"---\nname: no-description\n---\n",
    "empty-description": b"---\nname: empty-description\ndescription: ''\n---\n",
    "long-description": b"---\nname: long-description\ndescription: " + b"x" * 1025 + b"\n---\n",
    "long-compatibility": b"---\nname: long-compatibility\n"
    + OK.encode()
    + b"\ncompatibility: "
    + b"x" * 501
    + b"\n---\n",
    "名字": "---\nname: 名字\ndescription: 解析文件\n---\n".encode(),
    "full-width": "---\nname: ｆｕｌｌ-width\ndescription: NFKC makes it full-width\n---\n".encode(),
}
# Where skills-ref is wrong, and what lint says instead (None: no finding).
SKILLS_REF_WRONG: dict[str, tuple[bytes, str | None]] = {
    "bom": (b"\xef\xbb\xbf---\nname: bom\n" + OK.encode() + b"\n---\n", None),
    "latin-1": (b"---\nname: latin-1\ndescription: caf\xe9\n---\n", "SK302"),
    "flow-list": (b"---\nname: flow-list\n" + OK.encode() + b"\nallowed-tools: [Read, Bash]\n---\n", None),
    "dashes-in-value": (b"---\nname: dashes-in-value\nlicense: see --- below\n" + OK.encode() + b"\n---\n", None),
}
# Where lint follows the agents rather than the spec: fields Claude Code, GitHub Copilot and VS Code read.
AGENTS_BEYOND_SPEC = {
    "claude-code": b"---\nname: claude-code\n"
    + OK.encode()
    + b"\ndisable-model-invocation: true\nargument-hint: '[env]'\ncontext: fork\n---\n",
}
# skills-ref's message -> the rule that flags the same problem.
MATCHING_RULE = {
    "must start with YAML frontmatter": "SK101",
    "not properly closed": "SK102",
    "Duplicate key": "SK106",
    "Invalid YAML": "SK103",
    "must be a YAML mapping": "SK104",
    "Unexpected fields": "SK105",
    "Missing required field in frontmatter: name": "SK110",
    "Field 'name' must be a non-empty string": "SK111",
    "exceeds 64 character limit": "SK112",
    "must be lowercase": "SK113",
    "invalid characters": "SK114",
    "hyphen": "SK115",
    "must match skill name": "SK116",
    "Missing required field in frontmatter: description": "SK120",
    "Field 'description' must be a non-empty string": "SK121",
    "Description exceeds": "SK122",
    "Compatibility exceeds": "SK130",
}


def matching_rule(message: str) -> str:
    return next(code for phrase, code in MATCHING_RULE.items() if phrase in message)


@pytest.fixture(scope="module")
def linted(tmp_path_factory):
    root = tmp_path_factory.mktemp("spec-tree")
    wrong = {name: data for name, (data, _) in SKILLS_REF_WRONG.items()}
    for folder, data in {**TREE, **wrong, **AGENTS_BEYOND_SPEC}.items():
        (root / folder).mkdir()
        (root / folder / "SKILL.md").write_bytes(data)
    findings: dict[str, set[str]] = {}
    for finding in lint_paths([], [str(root)], lint_options(None)).findings:
        findings.setdefault(finding.path.split("/")[-2], set()).add(finding.code)
    return root, findings


@pytest.mark.parametrize("folder", sorted(TREE))
def test_each_skill_skills_ref_rejects_is_flagged_with_the_matching_rule(linted, folder):
    root, findings = linted
    messages = validator.validate(root / folder)
    expected = {matching_rule(message) for message in messages}
    flagged = findings.get(folder, set())
    assert expected <= flagged, messages
    # and nothing more of the spec's rules: skills-ref accepts what lint accepts
    assert {code for code in flagged if RULES[code].group == SPEC} <= expected | {"SK106"}


def test_the_tree_covers_every_spec_rule_skills_ref_knows(linted):
    _, findings = linted
    covered = set().union(*findings.values())
    assert set(MATCHING_RULE.values()) <= covered


def test_where_skills_ref_is_wrong_lint_says_the_right_thing(linted):
    root, findings = linted
    assert validator.validate(root / "bom") == ["SKILL.md must start with YAML frontmatter (---)"]
    with pytest.raises(UnicodeDecodeError):
        validator.validate(root / "latin-1")  # `agentskills validate` prints this traceback
    assert any("Invalid YAML" in message for message in validator.validate(root / "flow-list"))
    # it splits the file on every '---', so a value holding one cuts the frontmatter short
    assert validator.validate(root / "dashes-in-value") == ["Missing required field in frontmatter: description"]
    for folder, (_, code) in SKILLS_REF_WRONG.items():
        assert findings.get(folder, set()) == ({code} if code else set()), folder


def test_fields_the_agents_read_are_unexpected_to_skills_ref_and_fine_to_lint(linted):
    root, findings = linted
    for folder in AGENTS_BEYOND_SPEC:
        [message] = validator.validate(root / folder)
        assert message.startswith("Unexpected fields in frontmatter: "), message
        assert findings.get(folder, set()) == set()
