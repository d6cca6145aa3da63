"""json_text.loads, the snapshot's and the cache's reader: what json.loads gives, or a ValueError where it raises."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.catalog.store import json_text
from skillmem_hook.catalog.store.json_text import loads

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
# Texts near JSON: its own characters, whitespace of both kinds, and what a damaged file holds.
NEAR_JSON = st.text(alphabet=st.sampled_from(list('[]{}",:0123456789.-+eEtrufalsn \t\n\r\x0b\\u\x00é')), max_size=30)


def json_result(text: str | bytes) -> object:
    try:
        return ("value", json.loads(text))
    except ValueError:
        return ("error",)


def our_result(text: str | bytes) -> object:
    try:
        return ("value", loads(text))
    except ValueError:
        return ("error",)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.sampled_from(["", " ", "\n", " \t\r\n"]), st.booleans())
def test_a_written_value_reads_back_as_json_loads_reads_it(value, space, compact):
    separators = (",", ":") if compact else None
    text = space + json.dumps(value, separators=separators) + space
    assert our_result(text) == json_result(text)
    assert our_result(text.encode("ascii")) == json_result(text.encode("ascii"))


@settings(max_examples=500, deadline=None)
@given(NEAR_JSON)
def test_any_text_gives_json_loads_value_or_a_value_error_where_it_raises(text):
    assert our_result(text) == json_result(text)


@pytest.mark.parametrize(
    "text", ["", " ", "[1,", "[1] [2]", "[1]x", "\ufeff[1]", "[1,]", "{'a': 1}", "[\x00]", '"\x01"', "[1]\x0b"]
)
def test_what_json_loads_refuses_is_a_value_error(text):
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        loads(text)


def test_constants_read_as_json_loads_reads_them():
    value = loads("[NaN, Infinity, -Infinity]")
    assert math.isnan(value[0]) and value[1:] == [math.inf, -math.inf]


def test_bytes_that_are_not_ascii_are_damage_not_text():
    with pytest.raises(ValueError):
        loads('["caf\xc3\xa9"]'.encode("latin-1"))


def test_without_cpythons_scanner_it_is_json_loads(monkeypatch):
    monkeypatch.setattr(json_text, "_SCAN", None)
    assert loads(' {"a": [1, 2.5, null]} ') == {"a": [1, 2.5, None]}
    with pytest.raises(ValueError):
        loads("[1,")


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES | st.floats(), st.booleans())
def test_dumps_writes_what_json_dumps_writes(value, compact):
    """The cache's and the snapshot's writer: json.dumps's text, its default or its compact separators."""
    expected = json.dumps(value, separators=(",", ":")) if compact else json.dumps(value)
    assert json_text.dumps(value, compact=compact) == expected


def test_a_value_json_dumps_refuses_is_refused_alike_and_the_next_one_written_whole():
    looped: list[object] = []
    looped.append(looped)
    for refused, error in ((looped, ValueError), ({"set": {1}}, TypeError)):
        with pytest.raises(error):
            json.dumps(refused)
        for compact in (False, True):
            with pytest.raises(error):
                json_text.dumps(refused, compact=compact)
            assert json_text.dumps([looped[:0], {"a": [1]}], compact=compact) == json.dumps(
                [[], {"a": [1]}], separators=(",", ":") if compact else None
            )
