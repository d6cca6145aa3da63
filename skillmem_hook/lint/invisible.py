"""SK123: a description holding characters that show nothing, yet carry text the agent reads.

Pure: the description in, problems out. Every character Unicode calls
default-ignorable (``visible.INVISIBLE``: tag characters spelling ASCII
invisibly, variation selectors, one a byte, zero-width characters, U+FEFF, the
soft hyphen, the Hangul fillers, the invisible operators) and the bidi
controls hide from the person who reviews a skill what the agent reads (an
instruction, a reordered word), and so do private-use characters, which mean
nothing but what a font or a reader makes of them. Writing passes: a joiner between two
characters that join (an emoji sequence, an Indic or Arabic word), and a
variation selector standing alone after a character that may take one (``❤️``
with one form throughout, a keycap, one or two ideographic variation sequences;
``visible.glyph_selectors``).
"""

from __future__ import annotations

import unicodedata

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.visible import INVISIBLE, PRIVATE_USE, glyph_selectors, is_selector, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.lint.rules import Position, Problem

# What shows nothing (visible.INVISIBLE, the bidi controls among it), and the private-use characters: no meaning
# Unicode gives, a glyph only in a font that defines one (an agent may read U+E000 + ASCII as ASCII).
_HIDING = lazy_compile(f"[{INVISIBLE}{PRIVATE_USE}]")
_JOINERS = "\u200c\u200d"
_TAGS = range(0xE0000, 0xE0080)
_AROUND = 12  # characters of context either side in the message


def check_invisible(description: str, at: Position) -> list[Problem]:
    """One SK123 finding for a description holding hiding characters, naming the first and where it is."""
    glyphs = glyph_selectors(description)
    places = [
        match.start()
        for match in _HIDING.finditer(description)
        if match.start() not in glyphs and not _joins(description, match.start())
    ]
    if not places:
        return []
    first = places[0]
    code = ord(description[first])
    more = f" and {len(places) - 1} more" if len(places) > 1 else ""
    context = visible(description[max(0, first - _AROUND) : first + _AROUND + 1])
    message = f"description holds U+{code:04X} ({_name(code)}) at character {first + 1}{more}: '{context}'"
    spelt = "".join(chr(ord(character) - 0xE0000) for character in description if ord(character) in _TAGS)
    if spelt:
        message += f"; its tag characters spell '{visible(spelt)}'"
    private = "".join(chr(ord(character) - 0xE000) for character in description if 0xE000 <= ord(character) < 0xE080)
    if len(private) > 1:
        message += f"; its private-use characters less U+E000 spell '{visible(private)}'"
    selected = _selected_bytes([description[place] for place in places if is_selector(description[place])])
    if selected:
        message += f"; its variation selectors, a byte each, spell '{visible(selected)}'"
    them = "them" if more else "it"
    return [("SK123", at, f"{message}; remove {them}: the agent reads what a person reviewing the skill cannot see")]


def _joins(text: str, place: int) -> bool:
    """A zero-width (non-)joiner between two characters that are neither ASCII nor spaces: an emoji's or a word's."""
    if text[place] not in _JOINERS or place == 0 or place + 1 == len(text):
        return False
    return all(not character.isascii() and not character.isspace() for character in (text[place - 1], text[place + 1]))


def _selected_bytes(selectors: list[str]) -> str:
    """What two or more selectors hide read as bytes, U+FE00-U+FE0F as 0-15 and U+E0100-U+E01EF as 16-255."""
    if len(selectors) < 2:
        return ""
    codes = [ord(selector) for selector in selectors]
    data = bytes(code - 0xFE00 if code <= 0xFE0F else code - 0xE0100 + 16 for code in codes if code >= 0xFE00)
    return data.decode("utf-8", "replace")


def _name(code: int) -> str:
    if unicodedata.category(chr(code)) == "Co":
        return "a private-use character"
    fallback = "an unassigned tag character" if code in _TAGS else "an unassigned default-ignorable code point"
    return unicodedata.name(chr(code), fallback).lower()  # U+E0000, U+E0002-U+E001F, U+2065: no name
