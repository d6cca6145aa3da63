"""SK123: a description holding characters that show nothing, yet carry text the agent reads.

Pure: the description in, problems out. Tag characters (U+E0000-U+E007F,
ASCII spelled invisibly), zero-width characters, U+FEFF, the soft hyphen and
the bidi controls hide from the person who reviews a skill what the agent
reads (an instruction, a reordered word). A joiner between two characters
that join (an emoji sequence, an Indic or Arabic word) is writing, not hiding,
and passes.
"""

from __future__ import annotations

import unicodedata

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.visible import INVISIBLE, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.lint.rules import Position, Problem

# What shows nothing (visible.INVISIBLE) and the bidi controls, which reorder what is read.
_HIDING = lazy_compile(f"[{INVISIBLE}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_JOINERS = "\u200c\u200d"
_TAGS = range(0xE0000, 0xE0080)
_AROUND = 12  # characters of context either side in the message


def check_invisible(description: str, at: Position) -> list[Problem]:
    """One SK123 finding for a description holding hiding characters, naming the first and where it is."""
    places = [match.start() for match in _HIDING.finditer(description) if not _joins(description, match.start())]
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
    them = "them" if more else "it"
    return [("SK123", at, f"{message}; remove {them}: the agent reads what a person reviewing the skill cannot see")]


def _joins(text: str, place: int) -> bool:
    """A zero-width (non-)joiner between two characters that are neither ASCII nor spaces: an emoji's or a word's."""
    if text[place] not in _JOINERS or place == 0 or place + 1 == len(text):
        return False
    return all(not character.isascii() and not character.isspace() for character in (text[place - 1], text[place + 1]))


def _name(code: int) -> str:
    return unicodedata.name(chr(code), "an unassigned tag character").lower()  # U+E0000, U+E0002-U+E001F: no name
