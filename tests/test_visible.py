"""The one escaping rule for text from a repository shown to people: ``visible`` and ``for_people``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook import visible as visible_module
from skillmem_hook.visible import (
    command_path,
    for_people,
    git_add_path,
    is_selector,
    picks_a_glyph,
    shell_word,
    visible,
)

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
HIDDEN = "\xad\u200b\u200c\u200d\u2060\ufeff"  # and the tag characters, U+E0000-U+E007F

# Default_Ignorable_Code_Point as DerivedCoreProperties.txt's header defines it, from PropList.txt's
# Other_Default_Ignorable_Code_Point (its assigned characters: the unassigned ones Python cannot name) and what
# unicodedata knows: + Cf + Variation_Selector - White_Space - FFF9..FFFB - 13430..13440 - Prepended_Concatenation_Mark.
OTHER_DEFAULT_IGNORABLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0}
PREPENDED_CONCATENATION_MARK = {*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD}
ANNOTATION_AND_HIEROGLYPH_FORMAT = {*range(0xFFF9, 0xFFFC), *range(0x13430, 0x13441)}


def default_ignorable(code: int) -> bool:
    """The property, derived from what Python's unicodedata knows of an assigned character."""
    character = chr(code)
    category = unicodedata.category(character)
    selector = "VARIATION SELECTOR" in unicodedata.name(character, "")
    if code in OTHER_DEFAULT_IGNORABLE or category == "Cf" or selector:
        white = character.isspace()  # Python's whitespace holds no Cf, nor a selector: the property's White_Space
        return not white and code not in ANNOTATION_AND_HIEROGLYPH_FORMAT | PREPENDED_CONCATENATION_MARK
    return False


def invisible(character: str) -> bool:
    """What visible() escapes besides the controls: Unicode's default-ignorable characters and every other format
    character but the prepended concatenation marks, which have a glyph (U+0600, ARABIC NUMBER SIGN)."""
    return bool(re.fullmatch(f"[{visible_module.INVISIBLE}]", character))


def acts_on_a_reader(character: str) -> bool:
    return (
        unicodedata.category(character) in {"Cc", "Cs", "Zl", "Zp"}
        or character in BIDI
        or character in HIDDEN
        or unicodedata.category(character) == "Co"  # private use
        or 0xE0000 <= ord(character) <= 0xE007F
        or invisible(character)
    )


def test_the_default_ignorable_table_is_the_property_for_every_character_python_knows():
    """fixh14: the range table (DerivedCoreProperties.txt) against the property derived from unicodedata."""
    table = re.compile(f"[{visible_module.DEFAULT_IGNORABLE}]")
    wrong = [
        f"U+{code:04X}"
        for code in range(0x110000)
        if unicodedata.category(chr(code)) != "Cn" and bool(table.match(chr(code))) != default_ignorable(code)
    ]
    assert wrong == []
    assert table.match("\U000e0fff") and table.match("\u2065") and not table.match("\U000e1000")  # unassigned
    beyond = [
        f"U+{code:04X}"
        for code in range(0x110000)
        if unicodedata.category(chr(code)) != "Cn"
        and invisible(chr(code)) != (default_ignorable(code) or unicodedata.category(chr(code)) == "Cf")
        and code not in PREPENDED_CONCATENATION_MARK
    ]
    assert beyond == []
    assert not any(invisible(chr(code)) for code in PREPENDED_CONCATENATION_MARK)


@pytest.mark.skipif(shutil.which("perl") is None, reason="no perl to ask Unicode::UCD")
def test_the_default_ignorable_table_is_perls_property_where_perl_knows_it():
    """A second reading of the property: perl's Unicode::UCD (14.0 or later: the same ranges as 15.1)."""
    script = 'use Unicode::UCD qw(prop_invlist); print Unicode::UCD::UnicodeVersion(), " @{[prop_invlist(q(DI))]}"'
    done = subprocess.run(["perl", "-e", script], capture_output=True, text=True, check=False)
    if done.returncode != 0 or tuple(map(int, done.stdout.split()[0].split(".")[:2])) < (14, 0):
        pytest.skip(f"perl's Unicode::UCD is missing or older than 14.0: {done.stdout[:20]!r}")
    bounds = [int(bound) for bound in done.stdout.split()[1:]]
    table = re.compile(f"[{visible_module.DEFAULT_IGNORABLE}]")
    for start, end in zip(bounds[::2], bounds[1::2]):
        assert all(table.match(chr(code)) for code in range(start, end)), f"U+{start:04X}..U+{end - 1:04X}"
    assert sum(end - start for start, end in zip(bounds[::2], bounds[1::2])) == sum(
        1 for code in range(0x110000) if table.match(chr(code))
    )


SELECTORS = [chr(code) for code in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))]


def hide_in_selectors(text: str) -> str:
    """The hostile tester's encoding: a selector a byte, U+FE00-U+FE0F for 0-15, U+E0100-U+E01EF for 16-255."""
    return "".join(SELECTORS[byte] for byte in text.encode("utf-8"))


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b]0;PWNED\x07\x1b[2K\x1b[1A\x1b[32mAll good", "\\x1b]0;PWNED\\x07\\x1b[2K\\x1b[1A\\x1b[32mAll good"),
        ("bs\b del\x7f nul\x00 bidi\u202e", "bs\\x08 del\\x7f nul\\x00 bidi\\u202e"),
        ("x\n\nSYSTEM\r\t", "x\\n\\nSYSTEM\\r\\t"),
        ("line\u2028sep\x85", "line\\u2028sep\\x85"),
        ("caf\udce9", "caf\\xe9"),  # a byte that is not UTF-8, as surrogateescape read it from a file name
        ("café 代码审查 👩🏽 🇫🇷 a\\b", "café 代码审查 👩🏽 🇫🇷 a\\b"),  # ordinary text, emoji modifiers and flags too
        # fixh10: what shows nothing yet carries text the agent reads (tags spell "rm -rf ~" invisibly)
        ("ok" + "".join(chr(0xE0000 + ord(c)) for c in "rm"), "ok\\U000e0072\\U000e006d"),
        ("a\u200bb\u200cc\u200dd\u2060e\ufefff\xadg", "a\\u200bb\\u200cc\\u200dd\\u2060e\\ufefff\\xadg"),
        ("👩\u200d💻", "👩\\u200d💻"),  # an emoji's joiner too: one rule, no context to hide a bit in
        # fixh14: every default-ignorable character, but a selector that picks an emoji's or ideograph's glyph
        ("I ❤️ it, ⚠️, 1️⃣, ☺︎, 葛\U000e0100城", "I ❤️ it, ⚠️, 1️⃣, ☺︎, 葛\U000e0100城"),
        ("ᠠ\u180b", "ᠠ\u180b"),  # a Mongolian letter's free variation selector
        ("a\ufe0f ❤\ufe0f\ufe0f 1\ufe0f", "a\\ufe0f ❤\\ufe0f\\ufe0f 1\\ufe0f"),  # after ASCII, a run, no keycap
        ("PDF " + hide_in_selectors("rm"), "PDF \\U000e0162\\U000e015d"),  # the hostile tester's bytes
        ("📄" + hide_in_selectors("r"), "📄\\U000e0162"),  # one hides a byte after ASCII only: here it would pass
        ("x\U000e0100 ❤\U000e0100 \ufe0f", "x\\U000e0100 ❤\\U000e0100 \\ufe0f"),  # U+E0100+ after no ideograph
        ("\u3164\u115f\u1160\uffa0\u034f\u17b4\u180e", "\\u3164\\u115f\\u1160\\uffa0\\u034f\\u17b4\\u180e"),
        ("\u2061\u2064\u206a\u206f\ufff9\ufffb", "\\u2061\\u2064\\u206a\\u206f\\ufff9\\ufffb"),
        ("\U0001bca0\U0001d173\U000e0080\U000e0fff", "\\U0001bca0\\U0001d173\\U000e0080\\U000e0fff"),
        ("\u0600١٢", "\u0600١٢"),  # the Arabic number sign: a format character with a glyph of its own
        # fixh18: the private-use characters, at each area's edges (an icon font's glyph, or U+E000 + ASCII)
        ("ok \ue072\ue06d \uf8ff", "ok \\ue072\\ue06d \\uf8ff"),
        ("\U000f0000\U000ffffd\U00100000\U0010fffd", "\\U000f0000\\U000ffffd\\U00100000\\U0010fffd"),
        ("\ud7ff\uf900\U000effff\U000ffffe", "\ud7ff\uf900\U000effff\U000ffffe"),  # just outside the areas
    ],
)
def test_characters_that_act_on_a_terminal_or_reader_show_as_escapes(text, shown):
    assert visible(text) == shown


def test_for_people_keeps_the_reports_own_lines_and_tabs():
    assert for_people("a:\tb\n  \x1b[2Kc\r\n") == "a:\tb\n  \\x1b[2Kc\\r\n"
    assert for_people("caf\udce9") == "caf\\udce9"  # the JSON escape: an error line stays JSON
    assert for_people("ok\r\n\tdone") == "ok\\r\n\tdone"  # ASCII only: the short way, same answer
    assert for_people("icon \ue001\n\tU+100000 \U00100000") == "icon \\ue001\n\tU+100000 \\U00100000"


def raw(text: str) -> list[str]:
    """What acts on a reader in ``text``, but a variation selector that picks the glyph of the character before it."""
    return [c for place, c in enumerate(text) if acts_on_a_reader(c) and not picks_a_glyph(text, place)]


@given(st.text())
def test_nothing_visible_returns_acts_on_a_reader_or_breaks_a_line(text):
    shown = visible(text)
    assert raw(shown) == []
    assert all(is_selector(c) and picks_a_glyph(shown, place) for place, c in enumerate(shown) if acts_on_a_reader(c))
    assert len(shown.splitlines()) <= 1
    assert for_people(text).count("\n") == text.count("\n")
    if not raw(text):
        assert shown == text  # safe text is left exactly as it is


_BASES = st.sampled_from(["a", "1", " ", "❤", "📄", "葛", "城", "\u200b", ""])


@given(_BASES, st.binary(min_size=2, max_size=60), st.sampled_from(["", " tail", "\u20e3"]))
def test_bytes_hidden_in_a_run_of_selectors_show_whatever_they_follow(base, data, after):
    """fixh14: two selectors or more in a row pick no glyph, after any character: every one of them shows."""
    hidden = "".join(SELECTORS[byte] for byte in data)
    shown = visible(base + hidden + after)
    assert not any(is_selector(c) for c in shown)
    assert shown.count("\\u") + shown.count("\\U") >= len(data)
    assert for_people(base + hidden + after) == shown


@given(
    st.sampled_from(["❤", "⚠", "☺", "✈", "📄", "©", "ℹ", "‼", "↔", "〰", "\U0001f3fb"]),
    st.sampled_from(["\ufe0e", "\ufe0f"]),
)
def test_a_presentation_selector_after_a_symbol_is_writing_and_stays_itself(base, selector):
    assert (
        visible(f"see {base}{selector} now, {base}{selector} again")
        == f"see {base}{selector} now, {base}{selector} again"
    )


@given(st.sampled_from(["葛", "城", "ア", "é", "ü", "я", "α", "١"]), st.sampled_from(["\ufe0e", "\ufe0f"]))
def test_a_presentation_selector_after_a_letter_or_digit_is_escaped(base, selector):
    """fixh17: U+FE0F after any printable non-ASCII character passed, a hidden bit or byte per letter; a letter takes
    no emoji presentation."""
    assert visible(f"see {base}{selector} now") == f"see {base}\\u{ord(selector):04x} now"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("📄\ufe0e📄\ufe0f", "📄\\ufe0e📄\\ufe0f"),  # hostile10: a bit a symbol, text or emoji presentation
        ("⚠ then ⚠\ufe0f", "⚠ then ⚠\\ufe0f"),  # with the selector and without: a bit too
        ("⚠\ufe0f then ⚠\ufe0f, ❤\ufe0e", "⚠\ufe0f then ⚠\ufe0f, ❤\ufe0e"),  # one form a symbol
        ("1\ufe0f\u20e3 then 1\u20e3", "1\\ufe0f\u20e3 then 1\u20e3"),  # a keycap with and without
        ("1\ufe0f\u20e3 of 1 or 2", "1\ufe0f\u20e3 of 1 or 2"),  # the digit alone is plain text
        ("把\ufe00表\U000e0110格\ufe0f", "把\\ufe00表\\U000e0110格\\ufe0f"),  # two rare beside one hiding: all three
    ],
)
def test_a_symbol_taking_two_forms_in_one_text_hides_a_bit_and_shows_each(text, shown):
    assert visible(text) == shown


@pytest.mark.parametrize("count", [1, 2, 3])
def test_at_most_two_rare_selectors_pick_a_glyph_in_one_text(count):
    """fixh17: U+FE00-U+FE0D and U+E0100-U+E01EF, none in either collection: two kept, a third shows all three."""
    assert visible_module.RARE_SELECTORS_KEPT == 2
    text = " ".join(["葛\U000e0100", "≤\ufe00", "葛\U000e0101"][:count])
    shown = visible(text)
    assert shown == text if count <= 2 else shown == "葛\\U000e0100 ≤\\ufe00 葛\\U000e0101"


@given(st.binary(min_size=3, max_size=60), st.sampled_from(["把表格从文档里提取出来然后合并多个文件", "葛城"]))
def test_a_byte_hidden_after_each_ideograph_shows_every_selector(data, words):
    """hostile10: one ideographic selector after each ideograph passed, 53 bytes in a Chinese description."""
    ideographs = (words * len(data))[: len(data)]
    hidden = "".join(base + SELECTORS[byte] for base, byte in zip(ideographs, data))
    shown = visible(hidden)
    assert not any(is_selector(c) for c in shown)
    assert shown.count("\\U000e01") + shown.count("\\ufe0") == len(data)


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


# dash is the POSIX sh that reads none of bash's $'...': a pasted hint must run nothing in it either.
DASH = shutil.which("dash")
needs_dash = pytest.mark.skipif(DASH is None, reason="dash is not installed")


def typed(shell: str, word: str) -> tuple[list[bytes], list[str]]:
    """The arguments ``shell`` reads from ``word`` pasted into a command, and the files that made in an empty
    folder (a command the word ran: every hostile piece below touches PWNED)."""
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run([shell, "-c", f"printf '%s\\0' {word}"], cwd=folder, capture_output=True)
        return run.stdout.split(b"\0")[:-1], sorted(os.listdir(folder))


# Pieces a hostile folder name is made of: quotes, backslashes, the $' of bash, substitutions, controls.
HOSTILE_PIECES = [
    b"'", b"\\", b'"', b"\\'", b"$'", b"$(touch PWNED)", b"`touch PWNED`", b"; touch PWNED;", b"\x01", b"\x1b[2J",
    b"\n", b"\xe9", b"=", b"~", b"*", b"\xe2\x80\xae", b"&& touch PWNED",
]  # fmt: skip
# A word, as shell_word writes one: plain; or single-quoted parts, \\' and $'...' holding only \\xHH escapes.
PLAIN = re.compile(r"[\w@%+=:,./-]+", re.ASCII)
QUOTED = re.compile(r"(?:'[^']*'|\\'|\$'(?:\\x[0-9a-f]{2})+')+")
ANY_NAME = (
    st.lists(st.one_of(st.binary(min_size=1, max_size=4), st.sampled_from(HOSTILE_PIECES)), min_size=1, max_size=8)
    .map(b"".join)
    .filter(lambda name: b"\0" not in name)
)


@needs_dash
@pytest.mark.parametrize("name", ["\x01'$(touch PWNED)'", "a'b", "\x1b'; touch PWNED; echo '"])
def test_a_name_with_a_quote_and_a_control_runs_nothing_in_dash(name):
    """H8-1: a ' was written as \\' inside $'...'; dash ends the quote there, so pasting
    `git add $'\\x01\\'$(touch PWNED)\\''` ran touch. The $'...' now holds only the control's \\xHH."""
    word = shell_word(name)
    assert QUOTED.fullmatch(word)
    assert typed("bash", word) == ([name.encode()], [])
    assert typed(DASH, word)[1] == []  # no file made: no command ran
    assert len(typed(DASH, word)[0]) == 1  # one word, at worst a wrong name


@needs_dash
@settings(max_examples=60, deadline=None)
@given(ANY_NAME)
def test_any_bytes_typed_as_a_shell_word_are_that_name_in_bash_and_run_nothing_in_dash(raw):
    name = raw.decode("utf-8", "surrogateescape")  # as a file name is read
    word = shell_word(name)
    assert visible(word) == word
    assert QUOTED.fullmatch(word) or PLAIN.fullmatch(word)
    assert typed("bash", word) == ([raw], [])
    words, made = typed(DASH, word)
    assert made == [] and len(words) == 1
    if visible(name) == name:
        assert words == [raw]  # nothing a terminal acts on: single quotes, which every shell reads alike


def test_a_leading_equals_sign_is_quoted_for_zsh():
    """H8-3: `touch =bash` is /usr/bin/bash in zsh (its = expansion); only a leading = is expanded."""
    assert shell_word("=bash") == "'=bash'"
    assert shell_word("a=b") == "a=b"
    assert shell_word("~x") == "'~x'"
    assert typed("bash", shell_word("=bash")) == ([b"=bash"], [])


def git(*args: str, cwd: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("shell", ["bash", pytest.param(DASH, marks=needs_dash)])
@pytest.mark.parametrize("here", [".", "sub"])
@pytest.mark.parametrize("name", ["*", "s?", "[s]", ":s", "s\\x"])
def test_git_add_in_a_hint_adds_the_folder_it_names_and_no_other(tmp_path, shell, here, name):
    """H8-2: `git add '*'` for a skill folder named * added every untracked file, a .env.local too; `s?` adds s1,
    `[s]` and `:s` add s, `s\\x` adds sx."""
    git("init", "-q", cwd=str(tmp_path))
    for folder in (name, "s1", "s", "sx", "sub"):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "SKILL.md").write_text("x")
    (tmp_path / ".env.local").write_text("SECRET=1")
    word = git_add_path(name, os.path.relpath(tmp_path, tmp_path / here))
    subprocess.run([shell, "-c", f"git add {word}"], cwd=tmp_path / here, check=True)
    assert git("diff", "--cached", "--name-only", "-z", cwd=str(tmp_path)).split("\0")[:-1] == [f"{name}/SKILL.md"]


def test_a_plain_path_stays_plain_for_git_add():
    assert git_add_path("skills/pdf/SKILL.md") == "skills/pdf/SKILL.md"
    assert git_add_path("CLAUDE.md", "..") == "../CLAUDE.md"
    assert git_add_path("my skills") == "'my skills'"
    assert git_add_path("*") == "':(literal)*'"


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("a\x01b", "'a'$'\\x01''b'"),  # only the control in $'...', joined to single-quoted parts
        ("it's\x1b", "'it'\\''s'$'\\x1b'"),
        ("\x01'", "$'\\x01'\\'"),  # a quote outside $'...', never \' inside it
        ("a\\\x07", "'a\\'$'\\x07'"),  # a backslash in single quotes, never \\ inside $'...'
        ("caf\udce9.md", "'caf'$'\\xe9''.md'"),
    ],
)
def test_the_dollar_quote_holds_only_the_bytes_a_terminal_acts_on(name, word):
    assert shell_word(name) == word


def test_every_git_add_in_a_hint_names_a_literal_pathspec():
    """H8-2: one helper for every `git add` a hint suggests (init's next, the hooks' report, git's view, lint's
    finding, the prompt file left out, the setup hint): a path git would read as a pattern is given literal."""
    package = os.path.dirname(visible_module.__file__)
    found = []
    for folder, _, files in os.walk(package):
        for file in files:
            with open(os.path.join(folder, file), encoding="utf-8") as source:
                found += re.findall(r"git add \{([^}]*)\}", source.read()) if file.endswith(".py") else []
    assert len(found) >= 5
    found.remove("words")  # init's next, joined before: tests/commands/test_init_hostile.py runs it
    # git_add_path first, then shown escaped (visible) where the name is a repository's (the baseline prune's)
    assert all(re.match(r"(' '\.join\(|visible\()?git_add_path\(", call) for call in found), found
