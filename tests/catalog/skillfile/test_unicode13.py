from __future__ import annotations

import json
import unicodedata

import pytest

from skillmem_hook.catalog.skillfile.names import SkillProblem, check_name, invisible
from skillmem_hook.catalog.skillfile.unicode13 import UNICODE_VERSION, assigned_in_unicode_13
from skillmem_hook.catalog.skills import parse_skill


def test_every_pinned_code_point_is_assigned_in_this_python_too():
    unassigned_here = [code for code in range(0x110000) if assigned_in_unicode_13(chr(code))]
    unassigned_here = [code for code in unassigned_here if unicodedata.category(chr(code)) == "Cn"]
    assert unassigned_here == []


def test_on_a_python_with_unicode_13_the_table_is_its_own():
    if unicodedata.unidata_version != UNICODE_VERSION:
        pytest.skip(f"this Python has Unicode {unicodedata.unidata_version}")
    for code in range(0x110000):
        assert assigned_in_unicode_13(chr(code)) == (unicodedata.category(chr(code)) != "Cn")


@pytest.mark.parametrize(
    ("character", "assigned"),
    [
        ("A", True),
        ("\u00e9", True),
        ("\U0001f600", True),  # 😀, Unicode 6.1
        ("\u0870", False),  # ARABIC LETTER ALEF WITH ATTACHED FATHA: a letter since Unicode 14.0
        ("\U0001fae0", False),  # 🫠, Unicode 14.0
        ("\U00013439", False),  # EGYPTIAN HIEROGLYPH INSERT AT MIDDLE: a format character since Unicode 15.0
        ("\uffff", False),
        ("\U0010ffff", False),
    ],
)
def test_spot_checks(character, assigned):
    assert assigned_in_unicode_13(character) is assigned


@pytest.mark.parametrize("character", ["\u0870", "\U0001fae0", "\U00013439", "\U0001e030"])
def test_a_name_with_a_character_newer_than_unicode_13_is_refused_alike_on_every_python(character):
    data = ("---\nname: " + json.dumps("tool" + character, ensure_ascii=False) + "\n---\n").encode()
    with pytest.raises(SkillProblem, match=rf"U\+{ord(character):04X}, which Unicode 13\.0 does not assign"):
        parse_skill(data, path="t", folder="t", root="r")
    with pytest.raises(SkillProblem, match=r"which Unicode 13\.0 does not assign"):
        check_name(character)
    assert invisible(character)  # after a marker, a near miss on every Python
