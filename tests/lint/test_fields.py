"""Frontmatter fields with the line and column of each key: the fast path agrees with PyYAML's composer."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from skillmem_hook.lint import fields as fields_module
from skillmem_hook.lint.fields import YamlProblem, read_located_fields

KEYS = st.sampled_from(["name", "description", "license", "compatibility", "x-y", "a_b"])
VALUES = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_characters="#:'\"\\"), max_size=20
)


def places(fields):
    return {
        key: (field.key.line, field.key.col, field.value_at.line, field.value_at.col, field.value)
        for key, field in fields.entries.items()
    }


@given(st.dictionaries(KEYS, VALUES.map(str.strip).filter(bool), max_size=5), st.integers(1, 50))
def test_the_fast_path_places_keys_and_values_as_the_composer_does(entries, first_line):
    text = "".join(f"{key}:  {value}\n" for key, value in entries.items())
    try:
        composed = fields_module._compose(text, first_line)
    except YamlProblem:
        assume(False)  # values such as '-' are not valid YAML; the fast path never takes them
    fast = read_located_fields(text, first_line)
    assert places(fast) == places(composed)


def test_nested_values_keep_their_kind_and_positions():
    text = "name: a\nmetadata:\n  tags: [x, y]\n  owner: me\nallowed-tools:\n  - Read\n  - Bash\n"
    result = read_located_fields(text, 2)
    assert result.entries["metadata"].value == {"tags": ["x", "y"], "owner": "me"}
    assert result.entries["allowed-tools"].value == ["Read", "Bash"]
    assert (result.entries["allowed-tools"].key.line, result.entries["allowed-tools"].value_at.line) == (6, 7)


def test_a_repeated_key_is_reported_where_it_repeats():
    result = read_located_fields("name: a\ndescription: 'd'\nname: b\n", 2)
    assert [(key, at.line, at.col) for key, at in result.repeated] == [("name", 4, 1)]
    assert result.entries["name"].value == "b"


@pytest.mark.parametrize("text", ["- a\n- b\n", "just text\n"])
def test_a_frontmatter_that_is_no_mapping_says_so(text):
    assert read_located_fields(text, 2).is_mapping is False


@pytest.mark.parametrize(
    ("text", "line"),
    [("name: a\ndescription: x: y\n", 3), ("name: [a\n", 3), ("a: &x [*x]\nb: " + "[" * 5000 + "\n", 2)],
)
def test_invalid_yaml_is_a_problem_with_a_position_never_an_exception(text, line):
    with pytest.raises(YamlProblem) as problem:
        read_located_fields(text, 2)
    assert problem.value.at.line >= line - 1
