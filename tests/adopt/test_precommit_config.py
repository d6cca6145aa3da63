"""init's edit of .pre-commit-config.yaml: the entry added, every byte already there kept."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.adopt.precommit_config import add_hooks, has_skillmem_hooks
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
        b"repos: []\n",  # a flow list: refused with the snippet, see below
    ],
)
def test_other_shapes_are_extended_or_refused_with_the_entry_to_add(existing):
    try:
        data = add_hooks(existing, REPO, REV)
    except UsageError as error:
        assert existing == b"repos: []\n"
        assert "- id: skill-index" in error.hint
        return
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
