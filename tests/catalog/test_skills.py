from __future__ import annotations

import json
import re

import pytest

from skillmem_hook.catalog.skillfile.declared import HEADING_WINDOW
from skillmem_hook.catalog.skills import SkillProblem, deduplicate, owner_of, parse_skill, slug_of


def parse(data: bytes, path: str = "group/folder-name"):
    return parse_skill(data, path=path, folder=path.rsplit("/", 1)[-1], root="skills")


@pytest.mark.parametrize(
    ("data", "name", "description"),
    [
        (b"---\nname: alpha\ndescription: Does a\n---\n", "alpha", "Does a"),
        (b"---\r\nname: crlf\r\ndescription: CRLF file\r\n---\r\n", "crlf", "CRLF file"),
        (b"\xef\xbb\xbf---\nname: bom\n---\n# Heading\n", "bom", "Heading"),
        (b"# Beta heading\n\ntext\n", "folder-name", "Beta heading"),
        (b"", "folder-name", ""),
        (b"---\n---\n", "folder-name", ""),
        (b"---\nname: yes\ndescription: 1.10\n---\n", "yes", "1.10"),
        (b"---\nname: ''\n---\n", "folder-name", ""),
        (b"---\nname: '  padded  '\n---\n", "padded", ""),
        (b"---\ndescription: >\n  folded\n  words\n---\n", "folder-name", "folded words"),
        ("---\nname: Cafe\u0301\n---\n".encode(), "Caf\u00e9", ""),
        (b'---\nname: Use: colons, "quotes"\n---\n', 'Use: colons, "quotes"', ""),
    ],
)
def test_parse_skill_reads_name_and_description(data, name, description):
    skill = parse(data)
    assert (skill.name, skill.description) == (name, description)


@pytest.mark.parametrize(
    ("data", "warning"),
    [
        (b"---\nname: [a, b]\n---\n", "name is a list, not text; the default is used"),
        (b"---\nname: {x: 1}\n---\n", "name is a dict, not text; the default is used"),
        (b"---\n- a\n- b\n---\n", "the frontmatter is not a mapping of keys to values; defaults are used"),
        (b"---\njust text\n---\n", "the frontmatter is not a mapping of keys to values; defaults are used"),
    ],
)
def test_non_string_values_fall_back_to_defaults_with_a_warning(data, warning):
    skill = parse(data)
    assert skill.name == "folder-name"
    assert skill.warnings == [warning]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\xff\xfe-\x00-\x00-\x00", "UTF-16 or UTF-32"),
        (b"---\nname: caf\xe9\n---\n", "not valid UTF-8 (byte 0xe9"),
        (b"# Caf\xe9\n", "not valid UTF-8"),
        (b"\x00\x01\x02binary", "NUL byte"),
        (b"---\nname: truncated\ndescr", "never closed"),
        (b"---\nname: a\xc3", "never closed"),
    ],
)
def test_unusable_files_are_skipped_with_a_reason(data, reason):
    with pytest.raises(SkillProblem, match=re.escape(reason)):
        parse(data)


@pytest.mark.parametrize(
    "line",
    [
        b"disable-model-invocation: true",  # the fast reader's plain scalar
        b"disable-model-invocation: True  # only by hand",  # PyYAML, for the comment
        b"disable-model-invocation: TRUE",
    ],
)
def test_a_skill_only_the_user_invokes_is_no_skill_offered_to_an_agent(line):
    """Claude Code's disable-model-invocation: the model never sees it, so neither block nor search names it."""
    with pytest.raises(SkillProblem, match="only the user invokes it"):
        parse(b"---\nname: deploy-prod\ndescription: Deploy to production\n" + line + b"\n---\n")


@pytest.mark.parametrize("value", [b"false", b"yes", b"'false'", b"[true]"])
def test_any_other_value_of_disable_model_invocation_keeps_the_skill(value):
    """Not a boolean true (lint's SK134 names ``yes``): the model is offered the skill, so the block lists it."""
    skill = parse(b"---\nname: deploy-prod\ndescription: d\ndisable-model-invocation: " + value + b"\n---\n")
    assert skill.name == "deploy-prod"


@pytest.mark.parametrize(
    "name",
    [
        "two\nlines",
        "tab\there",
        "bell\x07",
        "rtl\u202eoverride",
        "zero\u200bwidth",
        "line\u2028separator",
        "[general]",
        "[anything at all]",
        "<<<SKILL_INDEX_END>>>",
        "x <<<SKILL_INDEX_BEGIN>>> y",
    ],
)
def test_names_that_could_break_the_block_are_refused(name):
    data = ("---\nname: " + json.dumps(name, ensure_ascii=False) + "\n---\n").encode()
    with pytest.raises(SkillProblem):
        parse(data)


@pytest.mark.parametrize(
    "name", ["a, b", 'say "hi"', "key: value", "[left only", "right only]", "עברית", "名前", "🦀 crab"]
)
def test_names_with_punctuation_or_other_scripts_are_kept_as_declared(name):
    data = ("---\nname: " + json.dumps(name, ensure_ascii=False) + "\n---\n").encode()
    assert parse(data).name == name


def test_heading_is_read_only_within_the_window():
    body = b"x\n" * (HEADING_WINDOW // 2) + b"# Too far\n"
    assert parse(b"---\nname: a\n---\n" + body).description == ""


def test_long_name_and_description_are_kept_whole():
    name, description = "n" * 100_000, "d " * 50_000
    skill = parse(f"---\nname: {name}\ndescription: {description}\n---\n".encode())
    assert skill.name == name
    assert skill.description == description.strip()


@pytest.mark.parametrize(
    ("path", "owner"),
    [("pdf", ""), ("@acme/pdf", "@acme"), ("vendor/@acme/tools/pdf", "@acme"), ("@a/@b/x", "@a"), ("mail@x/y", "")],
)
def test_owner_is_the_first_segment_starting_with_at(path, owner):
    assert owner_of(path) == owner


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Active Directory Attacks", "active-directory-attacks"),
        ("PDF_Tools", "pdf-tools"),
        ("ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
        ("Straße", "STRASSE"),
    ],
)
def test_slug_treats_spelling_variants_as_one_skill(one, other):
    assert slug_of(one) == slug_of(other)


def test_slug_keeps_distinct_names_apart():
    assert slug_of("pdf") != slug_of("pdf2")
    assert slug_of("!!!") == "!!!"


def test_deduplicate_keeps_the_first_and_reports_the_rest():
    first = parse(b"---\nname: PDF Tools\n---\n", "a/pdf")
    second = parse(b"---\nname: pdf-tools\n---\n", "b/pdf")
    owned = parse(b"---\nname: pdf-tools\n---\n", "@acme/pdf")
    kept, dropped = deduplicate([first, second, owned])
    assert kept == [first, owned]
    assert dropped == [(second, first)]
    assert owned.label == "@acme/pdf-tools"


def test_an_owner_folder_that_could_break_the_block_is_refused():
    with pytest.raises(SkillProblem, match=r"unsafe character U\+000A"):
        parse(b"---\nname: fine\n---\n", "@evil\nowner/fine")


def test_read_skill_text_keeps_the_text_values_of_the_metadata_map_and_nothing_of_the_path():
    from skillmem_hook.catalog.skillfile.declared import read_skill_text
    from skillmem_hook.catalog.skills import make_skill

    data = b"---\nname: x\nmetadata:\n  domain: engineering\n  aliases: a, b\n  count: [1, 2]\n---\n"
    text = read_skill_text(data)
    assert (text.name, text.metadata) == ("x", {"domain": "engineering", "aliases": "a, b"})
    nameless = read_skill_text(b"---\ndescription: d\n---\n")
    assert nameless.name is None
    assert make_skill(nameless, path="g/folder", folder="folder", root="r").name == "folder"
    assert make_skill(nameless, path="g/other", folder="other", root="r").name == "other"


@pytest.mark.parametrize("body", [b"Caf\xe9 au lait\n", b"\x89PNG\r\n\x1a\n\x00\x00"])
def test_a_latin1_or_binary_body_counts_only_when_the_default_description_needs_it(body):
    kept = parse(b"---\nname: a\ndescription: text\n---\n" + body)
    assert (kept.name, kept.description) == ("a", "text")
    with pytest.raises(SkillProblem, match=r"the body is not valid UTF-8|binary file: the body holds a NUL byte"):
        parse(b"---\nname: a\n---\n" + body)


@pytest.mark.parametrize(
    ("data", "title"),
    [
        (b"---\nname: x\ndescription: d\n---\n\n# PDF Tools ##\n\ntext\n", "PDF Tools"),
        (b"---\r\nname: x\r\n---\r\n# \xe8\xa7\xa3\xe6\x9e\x90\r\n", "\u89e3\u6790"),
        (b"# First line title\nbody\n", "First line title"),
        (b"---\nname: x\n---\n## Not a title\n#NoSpace\n", ""),
        (b"---\nname: x\n---\n" + b"x" * 5000 + b"\n# Too far down\n", ""),
        (b"---\nname: x\ndescription: d\n---\n# Bad \xff byte\n", "Bad \ufffd byte"),  # lenient: only categorises
    ],
)
def test_the_body_title_is_the_first_heading_near_the_top(data, title):
    from skillmem_hook.catalog.skillfile.declared import read_skill_text

    assert read_skill_text(data).title == title


def test_the_body_title_helps_place_the_skill():
    skill = parse(b"---\nname: helper\ndescription: Does things.\n---\n# SQL migrations\n")
    assert (skill.domain, skill.as_json()["placed_by"]) == ("backend", {"field": "title", "keyword": "sql"})
