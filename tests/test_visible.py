"""The one escaping rule for text from a repository shown to people: ``visible`` and ``for_people``."""

from __future__ import annotations

import os
import subprocess
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook import visible as visible_module
from skillmem_hook.visible import command_path, for_people, shell_word, visible

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def acts_on_a_reader(character: str) -> bool:
    return unicodedata.category(character) in {"Cc", "Cs", "Zl", "Zp"} or character in BIDI


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b]0;PWNED\x07\x1b[2K\x1b[1A\x1b[32mAll good", "\\x1b]0;PWNED\\x07\\x1b[2K\\x1b[1A\\x1b[32mAll good"),
        ("bs\b del\x7f nul\x00 bidi\u202e", "bs\\x08 del\\x7f nul\\x00 bidi\\u202e"),
        ("x\n\nSYSTEM\r\t", "x\\n\\nSYSTEM\\r\\t"),
        ("line\u2028sep\x85", "line\\u2028sep\\x85"),
        ("caf\udce9", "caf\\xe9"),  # a byte that is not UTF-8, as surrogateescape read it from a file name
        ("café 代码审查 👩‍💻 a\\b", "café 代码审查 👩‍💻 a\\b"),  # ordinary text, emoji joiners included, as it is
    ],
)
def test_characters_that_act_on_a_terminal_or_reader_show_as_escapes(text, shown):
    assert visible(text) == shown


def test_for_people_keeps_the_reports_own_lines_and_tabs():
    assert for_people("a:\tb\n  \x1b[2Kc\r\n") == "a:\tb\n  \\x1b[2Kc\\r\n"
    assert for_people("caf\udce9") == "caf\\udce9"  # the JSON escape: an error line stays JSON
    assert for_people("ok\r\n\tdone") == "ok\\r\n\tdone"  # ASCII only: the short way, same answer


@given(st.text())
def test_nothing_visible_returns_acts_on_a_reader_or_breaks_a_line(text):
    shown = visible(text)
    assert not any(acts_on_a_reader(character) for character in shown)
    assert len(shown.splitlines()) <= 1
    assert for_people(text).count("\n") == text.count("\n")
    if not any(acts_on_a_reader(character) for character in text):
        assert shown == text  # safe text is left exactly as it is


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)))
def test_ascii_text_takes_the_short_way_to_what_the_patterns_give(text):
    """ASCII text skips the patterns (a warm hook run compiles none); the answer is theirs."""
    assert visible(text) == visible_module._ANY_UNSAFE.sub(visible_module._escape, text)
    assert for_people(text) == visible_module._UNSAFE_BUT_LAYOUT.sub(visible_module._escape_in_report, text)


HOSTILE_NAMES = [
    "AGENTS.md",
    "my notes.md",
    "it's.md",
    "a\\b.md",
    "base\x1b[2Jother.json",  # H7-5: shown escaped after shlex.quote, the command named another file
    "line\nbreak.md",
    "caf\udce9.md",  # a byte that is not UTF-8 (surrogateescape)
    "rtl\u202etxt.md",
    "代码审查.md",
    "-rf.md",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_shell_word_names_the_real_file_in_bash_and_shows_nothing_that_acts_on_a_terminal(name, tmp_path):
    """H7-5: every command hint quotes a path through shell_word, so what is shown is what bash reads."""
    word = command_path(name)
    assert visible(word) == word  # safe to show as it is: no escape left to a later visible() that would rename it
    wanted = os.fsencode("./" + name if name.startswith("-") else name)
    typed = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True).stdout
    assert typed == wanted


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), min_size=1))
def test_any_name_typed_as_a_shell_word_reads_back_as_itself(name):
    word = shell_word(name)
    assert visible(word) == word
    typed = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True).stdout
    assert typed == name.encode()


def test_a_command_path_is_the_path_from_the_current_folder():
    """H7-4b: advice given from sub/deep names the top's CLAUDE.md as ../../CLAUDE.md."""
    assert command_path("CLAUDE.md", "../..") == "../../CLAUDE.md"
    assert command_path("sub/AGENTS.md", ".") == "sub/AGENTS.md"
    assert command_path("skills", "..") == "../skills"
    assert command_path("a b.md", "..") == "'../a b.md'"
