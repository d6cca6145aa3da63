from __future__ import annotations

import json

import pytest

from skillmem_hook.catalog.skillfile.names import (
    RESERVED_PREFIX,
    SkillProblem,
    check_name,
    invisible,
    slug_of,
    utf8_path,
)
from skillmem_hook.catalog.skills import deduplicate, parse_skill
from skillmem_hook.errors import UsageError


def parse(data: bytes, path: str = "group/folder-name"):
    return parse_skill(data, path=path, folder=path.rsplit("/", 1)[-1], root="skills")


def named(name: str, path: str = "group/folder-name"):
    return parse(("---\nname: " + json.dumps(name, ensure_ascii=False) + "\n---\n").encode(), path)


# Distinct words whose letters differ only in combining marks (Unicode Mn, Mc): vowels in these scripts.
@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("किताब", "कुतुब"),  # Hindi: book / Qutub
        ("कमल", "कोमल"),  # Hindi: lotus / soft
        ("กิน", "กัน"),  # Thai: eat / each other
        ("كَتَبَ", "كُتُبٌ"),  # Arabic with harakat
        ("বাংলা", "বংলা"),  # Bengali
        ("தமிழ்", "தமிழ"),  # Tamil: virama
        ("שָׁלוֹם", "שְׁלֹם"),  # Hebrew niqqud
        ("မြန်မာ", "မန်မာ"),  # Myanmar medial (Mc)
    ],
)
def test_names_that_differ_in_combining_marks_are_distinct_skills(one, other):
    assert slug_of(one) != slug_of(other)
    kept, dropped = deduplicate([named(one, "a/x"), named(other, "b/y")])
    assert (len(kept), dropped) == (2, [])


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("किताब-टूल", "किताब टूल"),
        ("Ελληνικά Εργαλεία", "ελληνικά-εργαλεία"),
        ("Кириллица_Тест", "кириллица-тест"),
        ("か\u3099", "が"),  # NFKC composes the voiced mark
        ("ＰＤＦ ツール", "pdf ツール"),
        ("漢字 工具", "漢字-工具"),
        ("한국어 도구", "한국어-도구"),
    ],
)
def test_spelling_variants_in_any_script_are_one_skill(one, other):
    assert slug_of(one) == slug_of(other)


@pytest.mark.parametrize("name", ["\u3164", "\u034f", "a\u3164", "pdf\u034f", "\u115f\u1160", "\u2800", " \u0301 "])
def test_invisible_names_and_fillers_are_refused(name):
    with pytest.raises(SkillProblem):
        named(name)


@pytest.mark.parametrize(
    "name", [RESERVED_PREFIX, "x<<<SKILL_INDEX_", "a <<<SKILL_INDEX_BEGIN >>>", "<<<SKILL_INDEX_begin>>>"]
)
def test_any_name_holding_the_reserved_prefix_is_refused(name):
    with pytest.raises(SkillProblem, match="the start of an index marker"):
        check_name(name)


def test_a_declared_name_cannot_impersonate_an_owner_label():
    owned = named("zeta", "@acme/zeta")
    assert owned.label == "@acme/zeta"
    with pytest.raises(SkillProblem, match="reads as an owner's label"):
        named("@acme/zeta", "plain/zeta")
    with pytest.raises(SkillProblem, match="reads as an owner's label"):
        named("@acme/zeta", "@acme/zeta2")
    assert named("@handle", "plain/handle").label == "@handle"


@pytest.mark.parametrize(
    ("escaped", "reason"),
    [
        (r'"\ud83d\ude00"', r"escapes U+1F600 as a JSON-style surrogate pair (\ud83d\ude00)"),
        (r'"\ud83d\ude00"', r"or \U0001F600"),
        (r'"a\ud800"', "U+D800, half of a UTF-16 surrogate pair"),
        (r'"\udc00x"', "U+DC00, half of a UTF-16 surrogate pair"),
    ],
)
def test_a_surrogate_escape_in_a_name_gets_a_reason_that_names_the_fix(escaped, reason):
    with pytest.raises(SkillProblem) as raised:
        parse(b"---\nname: " + escaped.encode() + b"\n---\n")
    assert reason in str(raised.value)
    assert "folder name" not in str(raised.value)


def test_a_surrogate_escape_in_a_description_becomes_a_replacement_character_with_a_warning():
    skill = parse(b'---\nname: ok\ndescription: "x \\ud800 y"\n---\n')
    assert skill.description == "x \ufffd y"
    skill.description.encode("utf-8")  # writable everywhere: index, stats, the hook
    assert any("surrogate" in warning for warning in skill.warnings)


def test_a_folder_name_that_is_not_utf8_keeps_its_own_reason():
    with pytest.raises(SkillProblem, match="a folder name on the skill's path is not valid UTF-8"):
        parse(b"---\ndescription: d\n---\n", "group/caf\udce9")


@pytest.mark.parametrize("character", [" ", "\t", "\u00a0", "\u200b", "\ufeff", "\u3164", "\u0301", "\udce9"])
def test_invisible_characters(character):
    assert invisible(character)


@pytest.mark.parametrize("character", ["a", "名", "-", "\u0915", "\ufffd"])
def test_visible_characters(character):
    assert not invisible(character)


def test_a_path_written_out_must_be_utf8_and_is_named_with_escapes_when_not():
    """Round three's rule for roots, for every path that goes into a file or an encoded line (one helper)."""
    assert utf8_path("skills/café", "skills root") == "skills/café"
    ascii_locale = "skills/caf\udcc3\udca9"  # UTF-8 bytes read under an ASCII locale: one surrogate a byte
    assert utf8_path(ascii_locale, "skills root") == "skills/café"
    with pytest.raises(UsageError) as refused:
        utf8_path("skills/caf\udce9", "prompt file")
    assert refused.value.message == "the prompt file 'skills/caf\\xe9' is not valid UTF-8 (shown with \\x escapes)"
