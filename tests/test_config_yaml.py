"""The pass over .skillmem.yaml's YAML events (config_yaml), called as config_file calls it: bytes in, a value out.

The refusals themselves are tested through read_config_file (test_config_file.py, test_config.py); these hold the
module's own contract: what passes is PyYAML's value, each read starts from a fresh state, and PyYAML's own errors
are a UsageError naming the file.
"""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.config_yaml import MAX_DEPTH, load_config_yaml
from skillmem_hook.errors import UsageError

EXAMPLE = "roots: [an-example]"
_LEAVES = st.one_of(st.integers(-(10**17), 10**17), st.booleans(), st.none(), st.text(max_size=12))
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=3),
    max_leaves=12,
)


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(item) for item in value), default=0)
    return 0


@given(st.dictionaries(st.text(min_size=1, max_size=8), _VALUES, max_size=4))
def test_what_passes_is_the_value_pyyaml_builds(value):
    if _depth(value) > MAX_DEPTH:
        return
    text = yaml.safe_dump(value, allow_unicode=True).encode()
    assert load_config_yaml("c.yaml", text, EXAMPLE) == yaml.safe_load(text)


def test_each_read_starts_afresh():
    """An anchor, a key or a count of one file is not the next file's."""
    load_config_yaml("a.yaml", b"roots: &r [a]\nwrite: X.md\n", EXAMPLE)
    assert load_config_yaml("b.yaml", b"roots: [b]\nwrite: Y.md\n", EXAMPLE) == {"roots": ["b"], "write": "Y.md"}
    with pytest.raises(UsageError, match=r"b\.yaml is not valid YAML"):
        load_config_yaml("b.yaml", b"roots: *r\n", EXAMPLE)


def test_a_refusal_names_the_file_and_shows_the_example_given():
    with pytest.raises(UsageError) as raised:
        load_config_yaml("mine.yaml", b"lint: [[[[[x]]]]]\n", EXAMPLE)
    assert raised.value.message == "mine.yaml: 'lint' is nested too deeply"
    assert EXAMPLE in str(raised.value.hint)
    with pytest.raises(UsageError) as raised:
        load_config_yaml("mine.yaml", b"roots: [a\n", EXAMPLE)
    assert raised.value.message.startswith("mine.yaml is not valid YAML: ")
    assert EXAMPLE in str(raised.value.hint)
