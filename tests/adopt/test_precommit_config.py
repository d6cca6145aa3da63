"""init's edit of .pre-commit-config.yaml: the entry added, every byte already there kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.adopt.precommit_config import add_hooks, has_skillmem_hooks, repin
from skillmem_hook.errors import UsageError

REPO, REV = "https://example.com/skillmem-hook", "v9.9.9"

EXISTING = b"""# Our hooks. Keep this comment!
default_language_version:
  python: python3   # pinned
repos:
  # formatting first
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.6.0
    hooks:
      - id: trailing-whitespace
      # - id: end-of-file-fixer   (disabled)
  - repo: local
    hooks:
      - id: echo
        name: echo
        entry: echo
        language: system

ci:
  autofix_prs: false  # trailing comment
"""


def ids(data: bytes) -> list[str]:
    return [hook["id"] for repo in yaml.safe_load(data)["repos"] for hook in repo["hooks"]]


def test_a_new_file_holds_the_three_hooks():
    data = add_hooks(b"", REPO, REV)
    assert ids(data) == ["skill-index", "skill-verify", "skill-lint"]
    entry = yaml.safe_load(data)["repos"][0]
    assert (entry["repo"], entry["rev"]) == (REPO, REV)
    assert entry["hooks"][1]["stages"] == ["manual"]


def test_an_existing_file_keeps_every_byte_and_comment():
    data = add_hooks(EXISTING, REPO, REV)
    # Inserted after the list's last item, before the blank line and the next key: nothing else moves.
    at = EXISTING.index(b"        language: system\n") + len(b"        language: system\n")
    added = data[at : at + len(data) - len(EXISTING)]
    assert data == EXISTING[:at] + added + EXISTING[at:]
    assert added.startswith(b"  - repo: https://example.com/skillmem-hook\n")
    assert ids(data) == ["trailing-whitespace", "echo", "skill-index", "skill-verify", "skill-lint"]
    assert yaml.safe_load(data)["ci"] == {"autofix_prs": False}


@pytest.mark.parametrize(
    "existing",
    [
        b"repos:\n- repo: local\n  hooks:\n  - id: x\n    name: x\n    entry: x\n    language: system\n",
        b"repos:\r\n  - repo: local\r\n    hooks:\r\n      - id: x\r\n        name: x\r\n        entry: x\r\n"
        b"        language: system\r\n",
        b"fail_fast: true\n",
    ],
)
def test_other_shapes_are_extended_with_the_entry(existing):
    data = add_hooks(existing, REPO, REV)
    assert data.startswith(existing)
    assert ids(data)[-3:] == ["skill-index", "skill-verify", "skill-lint"]
    if b"\r\n" in existing:
        assert b"\n" not in data.replace(b"\r\n", b"")


def test_a_config_that_names_a_hook_of_ours_is_recognised():
    assert has_skillmem_hooks(add_hooks(b"", REPO, REV))
    assert not has_skillmem_hooks(EXISTING)
    assert not has_skillmem_hooks(b"")


def test_invalid_yaml_is_a_usage_error():
    with pytest.raises(UsageError, match="not valid YAML"):
        add_hooks(b"repos:\n  - [unclosed\n", REPO, REV)


comment = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=20).map(lambda text: f"# {text}")


@given(st.lists(comment, max_size=3), st.lists(comment, max_size=3), st.sampled_from(["", "  "]))
def test_comments_anywhere_survive_and_the_yaml_gains_exactly_the_entry(before, inside, indent):
    lines = [*before, "repos:", f"{indent}- repo: local", f"{indent}  hooks:", *inside, f"{indent}  - id: x"]
    lines += [f"{indent}    name: x", f"{indent}    entry: x", f"{indent}    language: system"]
    existing = ("\n".join(lines) + "\n").encode("utf-8")
    data = add_hooks(existing, REPO, REV)
    assert data.startswith(existing)
    assert yaml.safe_load(data)["repos"][:1] == yaml.safe_load(existing)["repos"]


def test_aliases_are_refused_before_a_comparison_that_would_expand_them():
    # A billion-laughs config is compared node by node after the splice: 9**10 nodes never finish, so a
    # hostile repository's config would hang init. Aliases are a shape the splice does not follow.
    lines = ['a0: &a0 ["lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 3)}]" for i in range(1, 4)]
    data = ("\n".join(lines) + "\nrepos:\n  - repo: local\n    hooks: []\n").encode()
    with pytest.raises(UsageError, match="cannot extend"):
        add_hooks(data, "https://example.com/r", "v1")


@pytest.mark.parametrize(
    ("existing", "kept"),
    [
        (b"repos: []\n", b"repos:\n"),
        (b"# mine\nrepos:   [ ]   # none yet\r\nci: {autofix_prs: false}\r\n", b"# mine\nrepos:   # none yet\r\n"),
    ],
)
def test_an_empty_flow_list_gets_the_entry_and_no_second_repos_key(existing, kept):
    # hostile-4's H4-12: 'repos: []' got a second top-level 'repos:' (PyYAML keeps the last, ruamel refuses both).
    data = add_hooks(existing, REPO, REV)
    assert data.startswith(kept)
    assert data.count(b"repos:") == 1
    assert ids(data) == ["skill-index", "skill-verify", "skill-lint"]
    assert yaml.safe_load(data).get("ci", {}) == yaml.safe_load(existing).get("ci", {})


def test_a_flow_list_with_items_is_refused_with_the_entry_to_add():
    with pytest.raises(UsageError, match="cannot extend") as error:
        add_hooks(b"repos: [{repo: local, hooks: []}]\n", REPO, REV)
    assert "- id: skill-index" in error.value.hint


def test_a_repeated_repos_key_is_refused():
    # Appending 'repos:' after a key PyYAML reads once is a second key: the check counts keys as written.
    with pytest.raises(UsageError, match="cannot extend"):
        add_hooks(b'"repos": []\n', REPO, REV)


def test_lint_on_every_commit_has_no_manual_stage():
    entry = yaml.safe_load(add_hooks(b"", REPO, REV, lint_on_commit=True))["repos"][0]
    assert entry["hooks"][2] == {"id": "skill-lint"}
    assert entry["hooks"][1]["stages"] == ["manual"]  # skill-verify is CI's, either way


AMPLIFIED = """\
d: &D {{id: {hook}}}
h: &H [{hooks}]
r: &R {{repo: local, hooks: *H}}
repos: [{repos}]
"""


def amplified(count: int, hook: str = "other") -> bytes:
    """hostile-4's H4-1: ``count`` aliases of a repo whose hooks are ``count`` aliases: count squared visits."""
    aliases = ",".join(["*D"] * count)
    return AMPLIFIED.format(hook=hook, hooks=aliases, repos=aliases.replace("D", "R")).encode()


@pytest.mark.parametrize("hook", ["other", "skill-index"])
def test_an_alias_amplified_config_is_read_once_per_node(hook):
    # 200,000 x 200,000 = 4e10 expanded hook visits: a walk over the expansion never returns, so a
    # subprocess bounds the wait; a node-graph walk answers at once.
    code = (
        "import sys; from tests.adopt.test_precommit_config import amplified;"
        "from skillmem_hook.adopt.precommit_config import has_skillmem_hooks;"
        f"print(has_skillmem_hooks(amplified(200_000, {hook!r})))"
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert result.stdout == f"{hook == 'skill-index'}\n", result.stderr


def test_an_alias_amplified_config_is_refused_not_extended():
    with pytest.raises(UsageError, match="cannot extend"):
        add_hooks(amplified(1000), REPO, REV)


@pytest.mark.parametrize("depth", [200, 5000])
def test_nesting_past_any_config_is_refused_before_pyyaml_recurses(depth):
    # PyYAML builds nested values recursively (a RecursionError at 5,000); newer ones refuse 1,000 levels themselves.
    deep = b"repos: " + b"[" * depth + b"]" * depth + b"\n"
    with pytest.raises(UsageError, match="nest"):
        has_skillmem_hooks(deep)
    with pytest.raises(UsageError, match="nest"):
        add_hooks(deep, REPO, REV)


PINNED = add_hooks(EXISTING, REPO, REV)


@pytest.mark.parametrize("new", [("https://example.com/fork.git", "0123abc"), ("/home/me/my hooks", "v1.0")])
def test_repin_changes_the_entrys_repo_and_rev_and_no_other_byte(new):
    repo, rev = new
    data = repin(PINNED, repo, rev)
    entry = yaml.safe_load(data)["repos"][-1]
    assert (entry["repo"], entry["rev"]) == (repo, rev)
    old_lines, new_lines = PINNED.splitlines(), data.splitlines()
    changed = [number for number, (old, line) in enumerate(zip(old_lines, new_lines)) if old != line]
    assert len(old_lines) == len(new_lines) and len(changed) == 2
    assert [new_lines[number].split(b":", 1)[0].strip() for number in changed] == [b"- repo", b"rev"]


def test_repin_keeps_a_flow_entry_and_crlf_and_a_bom():
    existing = b"\xef\xbb\xbfrepos:\r\n- {repo: \"https://a/b\", rev: 'v1', hooks: [{id: skill-index}]}  # ours\r\n"
    data = repin(existing, "https://c/d", "v2")
    assert data == existing.replace(b'"https://a/b"', b"https://c/d").replace(b"'v1'", b"v2")


@pytest.mark.parametrize(
    "existing",
    [
        b"repos:\n- repo: local\n  hooks:\n  - {id: skill-index, name: x, entry: x, language: system}\n",
        b"repos:\n- repo: https://a/b\n  hooks:\n  - id: skill-index\n",  # no rev
        b"r: &R https://a/b\nrepos:\n- repo: *R\n  rev: v1\n  hooks:\n  - id: skill-index\n",  # an alias
        b"repos:\n- {repo: https://a/b, rev: v1, hooks: [{id: skill-index}]}\n"
        b"- {repo: https://c/d, rev: v1, hooks: [{id: skill-lint}]}\n",  # two entries: which one?
        b"repos:\n- repo: https://a/b\n  rev: |\n    v1\n  hooks:\n  - id: skill-index\n",  # hostile5: a block scalar
        b"repos:\n- repo: https://a/b\n  rev:\n  hooks:\n  - id: skill-index\n",  # an empty rev
    ],
)
def test_repin_refuses_what_it_cannot_rewrite_safely_and_says_what_to_set(existing):
    with pytest.raises(UsageError) as error:
        repin(existing, "https://c/d", "v2")
    assert "'rev: v2'" in error.value.hint
    assert "not valid YAML" not in error.value.message  # the person's file is valid: the shape is what init refuses
