"""Text from a repository, made safe to show: every character that acts on a terminal or a reader, escaped visibly.

A folder name or a description is the repository's content, not the
user's: an ESC sequence in it could erase a line of ``git commit``'s output
or set the window title, a BEL ring, a backspace or U+202E reorder what is
read, a line break add lines of its own. ``visible`` shows each such
character as an escape (``\\x1b``, ``\\n``, ``\\u202e``), and so each
character that shows nothing yet holds text (a zero-width space, a tag
character: ``\\u200b``, ``\\U000e0041``), which would hide from the person
what the agent reads (Unicode's default-ignorable characters, ``INVISIBLE``;
a variation selector that picks an emoji's or an ideograph's glyph stays
itself), and each private-use character (``\\ue000``: a glyph only an icon
font gives, or a byte hidden as U+E000 + ASCII); ``for_people``
keeps the line breaks and tabs of a report we wrote ourselves and escapes
the rest. A byte that is not UTF-8 in a file name (read with
surrogateescape) shows as that byte, ``\\xe9``.
"""

from __future__ import annotations

import os
import unicodedata

from skillmem_hook.lazy_pattern import lazy_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

# Unicode's Default_Ignorable_Code_Point: what a renderer that does not know a character shows as nothing
# (DerivedCoreProperties.txt, https://www.unicode.org/Public/15.1.0/ucd/DerivedCoreProperties.txt, the Unicode of
# Python 3.13; the same ranges since 14.0, and 13.0's but U+180F, unassigned there). It holds the soft hyphen,
# the zero-width space, joiners and word joiner, the bidi marks and controls, the invisible operators, U+FEFF,
# the Hangul fillers, the variation selectors (U+180B-U+180F, U+FE00-U+FE0F, U+E0100-U+E01EF: one a byte, a
# sentence hides after a single letter), and the tag characters with the unassigned rest of plane 14's block.
# tests/test_visible.py checks it against the property as Python's unicodedata knows it.
DEFAULT_IGNORABLE = (
    "\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164"
    "\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
# With the format characters the property leaves out for a renderer that knows them to draw, which a terminal
# does not: the interlinear annotation marks (U+FFF9-U+FFFB) and the Egyptian hieroglyph format controls. So every
# format character (Cf) is in, but the six prepended concatenation marks (U+0600 ...), which have a glyph.
INVISIBLE = f"{DEFAULT_IGNORABLE}\ufff9-\ufffb\U00013430-\U0001343f"
# The private-use characters (the BMP's area, planes 15 and 16 but their two noncharacters each): no meaning
# Unicode gives, a glyph only in a font that defines one (an icon font's), else a box or nothing; an agent may read
# U+E000 + ASCII as ASCII (SK123 flags them in a description). Shown escaped to people; JSON keeps them (streams.py).
PRIVATE_USE = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
# C0 and C1 controls, DEL, the Unicode line and paragraph separators, lone surrogates, and the above.
_OTHER_UNSAFE = f"\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff{INVISIBLE}{PRIVATE_USE}"
_ANY_UNSAFE = lazy_compile(f"[\x00-\x0a{_OTHER_UNSAFE}]")
_UNSAFE_BUT_LAYOUT = lazy_compile(f"[\x00-\x08{_OTHER_UNSAFE}]")  # tab and line feed kept
_ONE_INVISIBLE = lazy_compile(f"[{INVISIBLE}]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def is_selector(character: str) -> bool:
    """A variation selector: Mongolian's free ones, U+FE00-U+FE0F, or the supplement's U+E0100-U+E01EF."""
    code = ord(character)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or (0x180B <= code <= 0x180F and code != 0x180E)


# The emoji that take a presentation selector but are not symbols (So, Sk) by category: emoji-variation-sequences.txt's
# bases less the keycaps' and the symbols (``‼ ⁉ ↔ ◻ ◼ ◽ ◾ ⤴ ⤵ 〰 〽`` and U+2139, information source).
_EMOJI_NOT_SYMBOLS = frozenset("\u203c\u2049\u2139\u2194\u25fb\u25fc\u25fd\u25fe\u2934\u2935\u3030\u303d")
_PRESENTATION = "\ufe0e\ufe0f"  # text (VS15) and emoji (VS16) presentation
_KEYCAP = "\u20e3"
# Selectors real text almost never holds (U+FE00-U+FE0D: mathematical and Myanmar variants; U+E0100-U+E01EF:
# ideographic variants, a name's glyph): a description may hold this many, each after a character that may take it.
RARE_SELECTORS_KEPT = 2
_ANY_SELECTOR = lazy_compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def picks_a_glyph(text: str, place: int) -> bool:
    """The variation selector at ``place`` is writing, not hiding (``glyph_selectors``): one place asked."""
    return place in glyph_selectors(text)


def glyph_selectors(text: str) -> frozenset[int]:
    """Where ``text`` holds a variation selector that picks a glyph: writing, not a hidden byte.

    U+FE0F or U+FE0E after a symbol that takes an emoji or a text
    presentation (``❤️``, ``⚠️``, ``‼️``; category So or Sk, or the few
    emoji of other categories) or in a keycap (``1️⃣``), if that symbol takes
    the same form everywhere in ``text``: ``📄︎`` beside ``📄️`` or ``📄``
    is a bit hidden a symbol. U+FE00-U+FE0D after a printable non-ASCII
    character, U+E0100-U+E01EF after a CJK ideograph, if ``text`` holds at
    most ``RARE_SELECTORS_KEPT`` of the two together and no selector that
    hides; a Mongolian free selector after a Mongolian letter. A selector after another (a run: a
    byte each), after a letter (``é︆``), ASCII, a space or another invisible
    character, or first in the text, hides something.
    """
    if text.isascii() or not _ANY_SELECTOR.search(text):
        return frozenset()
    selectors = [match.start() for match in _ANY_SELECTOR.finditer(text)]
    rare = [place for place in selectors if _rare(text[place])]
    common = {place for place in selectors if not _rare(text[place]) and _common_picks_a_glyph(text, place)}
    if len(rare) > RARE_SELECTORS_KEPT or len(common) + len(rare) < len(selectors):
        return frozenset(common)  # a text hiding bytes in some selectors, or many rare ones: every rare one shows
    return frozenset(common.union(place for place in rare if _alone_after_a_base(text, place)))


def _common_picks_a_glyph(text: str, place: int) -> bool:
    return _alone_after_a_base(text, place) and (text[place] not in _PRESENTATION or _one_form(text, place))


def _rare(selector: str) -> bool:
    return "\ufe00" <= selector <= "\ufe0d" or selector >= "\U000e0100"


def _alone_after_a_base(text: str, place: int) -> bool:
    """The selector at ``place`` stands alone after a character that may take it."""
    if place == 0:
        return False
    after = text[place + 1 : place + 2]
    if after and is_selector(after):
        return False
    base, code = text[place - 1], ord(text[place])
    if code >= 0xE0100:
        return _ideograph(ord(base))
    if code < 0xFE00:
        return "\u1820" <= base <= "\u18aa"
    if base.isascii():
        return base in "0123456789#*" and after == _KEYCAP
    if code >= 0xFE0E:
        return base in _EMOJI_NOT_SYMBOLS or unicodedata.category(base) in ("So", "Sk")
    return base.isprintable() and not _ONE_INVISIBLE.match(base)


def _one_form(text: str, place: int) -> bool:
    """The symbol before the presentation selector at ``place`` takes this selector wherever ``text`` holds it."""
    base, selector = text[place - 1], text[place]
    other = _PRESENTATION.replace(selector, "")
    if base.isascii():  # a keycap: the digit alone is plain text, the keycap with another form or none is not
        return base + other + _KEYCAP not in text and base + _KEYCAP not in text
    start = text.find(base)
    while start != -1:
        if text[start + 1 : start + 2] != selector:
            return False
        start = text.find(base, start + 1)
    return True


def _ideograph(code: int) -> bool:
    """CJK Unified and Compatibility Ideographs, every extension block (planes 2 and 3 are all ideographs)."""
    return (
        0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x3FFFF
    )


def _escape(match: re.Match[str], glyphs: frozenset[int] = frozenset()) -> str:
    character = match.group()
    if character in _NAMED:
        return _NAMED[character]
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte that was not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    if match.start() in glyphs:  # ❤️ stays itself
        return character
    if code > 0xFFFF:  # a tag character, a variation selector, a format control, a private-use character
        return f"\\U{code:08x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` on one line with every control, bidi, invisible or line-break character shown as an escape."""
    if text.isascii() and text.isprintable():  # all of ASCII's unsafe characters are its unprintable ones
        return text  # and no pattern compiled: a warm hook run shows nothing else
    if not _ANY_UNSAFE.search(text):
        return text
    text = _rejoined(text)
    glyphs = glyph_selectors(text)
    return _ANY_UNSAFE.sub(lambda match: _escape(match, glyphs), text) if glyphs else _ANY_UNSAFE.sub(_escape, text)


def for_people(text: str) -> str:
    """A report for a terminal: its line breaks and tabs kept, every other unsafe character escaped.

    A lone surrogate left shows as ``\\udcxx``: in a JSON error line (which
    passes through here too) that is the escape ``json.loads`` reads back.
    """
    if text.isascii() and text.replace("\t", " ").replace("\n", " ").isprintable():
        return text  # as the pattern finds, without compiling it: a warm hook run writes an empty report
    if not _UNSAFE_BUT_LAYOUT.search(text):
        return text
    text = _rejoined(text)
    glyphs = glyph_selectors(text)
    if not glyphs:
        return _UNSAFE_BUT_LAYOUT.sub(_escape_in_report, text)
    return _UNSAFE_BUT_LAYOUT.sub(lambda match: _escape_in_report(match, glyphs), text)


def _escape_in_report(match: re.Match[str], glyphs: frozenset[int] = frozenset()) -> str:
    character = match.group()
    return f"\\u{ord(character):04x}" if "\ud800" <= character <= "\udfff" else _escape(match, glyphs)


def _rejoined(text: str) -> str:
    """Under an ASCII locale a UTF-8 file name arrives as one surrogate a byte: join them back into characters."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate surrogateescape never makes (\ud800): escaped as it is
        return text


# The characters a shell takes as they are in a word: a path of only these is shown unquoted, unless it starts with
# "=" (zsh's = expansion: `touch =bash` is /usr/bin/bash there).
_PLAIN_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./_-")


def shell_word(text: str) -> str:
    """``text`` as one shell word that names it exactly: the quoting of every command hint that holds a path.

    Plain when it needs none; in single quotes when it holds nothing a
    terminal acts on; else single-quoted parts joined to bash's, zsh's and
    ksh's ``$'...'`` around only the characters a terminal acts on, each as
    the ``\\xHH`` escapes of its bytes (``'a'$'\\x01''b'``): safe to show, it
    names the real file (``visible`` after ``shlex.quote`` named another).
    A ``$'...'`` holds nothing but ``\\xHH``, never a quote or a backslash, so a
    POSIX sh (dash), which reads ``$'`` as a ``$`` and a single quote, reads a
    wrong name at worst, never a command.
    """
    if text and text[0] != "=" and all(character in _PLAIN_WORD for character in text):
        return text
    if visible(text) == text:
        return _single_quoted(text)
    return "".join(_single_quoted(run) if safe else _dollar_quoted(run) for safe, run in _runs(_rejoined(text)))


def _single_quoted(text: str) -> str:
    """In single quotes, a ``'`` as ``\\'`` between them: read alike by every POSIX shell."""
    return "\\'".join(f"'{part}'" if part else "" for part in text.split("'")) or "''"


def _runs(text: str) -> list[tuple[bool, str]]:
    """``text`` cut where it passes between characters a terminal acts on and the rest: (safe, the run)."""
    from itertools import groupby  # noqa: PLC0415 - only a name holding a character a terminal acts on is cut

    return [(safe, "".join(run)) for safe, run in groupby(text, key=lambda character: visible(character) == character)]


def _dollar_quoted(run: str) -> str:
    """Characters a terminal acts on in bash's ``$'...'``, each as the ``\\xHH`` escapes of its bytes, nothing else."""
    return "$'" + "".join(_byte_escapes(character) for character in run) + "'"


def _byte_escapes(character: str) -> str:
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte that was not UTF-8, typed as that byte
        return f"\\x{code - 0xDC00:02x}"
    return "".join(f"\\x{byte:02x}" for byte in character.encode("utf-8", "surrogatepass"))


def _from_here(path: str, base: str) -> str:
    joined = path if base in ("", ".") else os.path.normpath(os.path.join(base, path))  # as given, from here
    return "./" + joined if joined.startswith("-") else joined


def command_path(path: str, base: str = ".") -> str:
    """``path``, relative to ``base``, as a shell word naming it from the current folder (``base``: the way there).

    Every path in a command we suggest reads from where the command is typed:
    ``touch ../../CLAUDE.md`` from ``sub/deep``, not ``touch CLAUDE.md``,
    which would make a file there. A name that starts with ``-`` gets ``./``,
    so that no command takes it for an option.
    """
    return shell_word(_from_here(path, base))


# What makes git read a pathspec as a pattern (a glob, an escape) or as magic (a leading ":").
_PATHSPEC_MAGIC = frozenset("*?[\\")


def git_add_path(path: str, base: str = ".") -> str:
    """``command_path``'s word for ``git add``, which takes a pathspec: one git would read as a pattern is literal.

    A skill folder named ``*`` in ``git add '*'`` adds every untracked file (a
    ``.env.local`` too); ``':(literal)*'`` adds that folder only. A plain path stays plain.
    """
    joined = _from_here(path, base)
    if joined.startswith(":") or not _PATHSPEC_MAGIC.isdisjoint(joined):
        return shell_word(":(literal)" + joined)
    return shell_word(joined)
