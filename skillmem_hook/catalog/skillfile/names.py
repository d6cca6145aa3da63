"""Decide which names the block may hold, and which two names are one skill.

Pure. The block is one name a line between marker lines, so a name must
not be able to break a line, pose as a header, a marker or an owner's label,
or show nothing; and the slug rule must keep distinct words of any script apart.
"""

from __future__ import annotations

import unicodedata

from skillmem_hook.catalog.skillfile.unicode13 import assigned_in_unicode_13
from skillmem_hook.errors import UsageError
from skillmem_hook.lazy_pattern import lazy_compile

# What every index marker starts with (block/ builds its markers from it): a
# name holding it could turn its line into a marker or a near miss of one.
RESERVED_PREFIX = "<<<SKILL_INDEX_"
# Characters that could break a block line or hide what it says: control
# and format characters (line breaks, bidi overrides, zero-width marks).
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
# Letters and marks that render as nothing (Unicode's default-ignorable fillers).
_FILLERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0")
_BLANK_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Mc", "Me", "Mn", "Zl", "Zp", "Zs"})
# How git starts the lines of a merge conflict: a block line starting so is no name.
CONFLICT_PREFIXES = ("<<<<<<<", "=======", ">>>>>>>", "|||||||")
_NOT_ALNUM = lazy_compile(r"[\W_]+")
_SURROGATE = lazy_compile("[\ud800-\udfff]")
_DASHES = lazy_compile("-{2,}")


class SkillProblem(ValueError):
    """A SKILL.md that cannot be used; the message is the reason."""


NOT_UTF8_PATH = "a folder name on the skill's path is not valid UTF-8"


def check_path_is_utf8(path: str) -> None:
    """Refuse a skill whose path cannot be written as UTF-8: one rule for every command, declared name or not.

    Such a path could reach no SKILLS_INDEX.md link, route hint or MCP answer
    intact, so the skill is skipped with a reason rather than half-listed.
    """
    if not is_utf8_path(path):
        raise SkillProblem(NOT_UTF8_PATH)


def is_utf8_path(path: str) -> bool:
    """True when the path's bytes (as the file system holds them) are UTF-8, whatever the locale decoded them as."""
    if path.isascii() or not _SURROGATE.search(path):
        return True
    try:  # under an ASCII locale a UTF-8 name arrives as one surrogate a byte: joined back, it is UTF-8
        path.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError:
        return False
    return True


def utf8_path(path: str, what: str) -> str:
    """``path``, to be written into a file or an encoded line (a script, a link, a root); UsageError when it cannot.

    The one rule for a path that goes out as UTF-8, roots' as every other: a name whose bytes are not UTF-8 is
    exit 2, shown with ``\\xNN`` escapes, never a half-written file or an encoding error.
    """
    if not is_utf8_path(path):
        raise UsageError(
            f"the {what} '{shown_path(path)}' is not valid UTF-8 (shown with \\x escapes)",
            "rename the folder, or pass a path that reaches it through UTF-8 names",
        )
    if path.isascii() or not _SURROGATE.search(path):
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8")


def shown_path(path: str) -> str:
    """The path as text that is always valid UTF-8: each byte that was not, as ``\\xNN``."""
    if path.isascii() or not _SURROGATE.search(path):
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def slug_of(name: str) -> str:
    """The name as compared for duplicates: NFKC, case-folded, runs of other than letters, digits, marks as '-'.

    Combining marks (Unicode Mn, Mc) stay: in Hindi, Thai or Arabic they are
    the vowels, so without them distinct words would collide.
    """
    if name.isascii():
        folded = name.casefold()
        return _NOT_ALNUM.sub("-", folded).strip("-") or folded
    folded = unicodedata.normalize("NFKC", name).casefold()
    kept = "".join(
        character if character.isalnum() or unicodedata.category(character)[0] == "M" else "-" for character in folded
    )
    return _DASHES.sub("-", kept).strip("-") or folded


def invisible(character: str) -> bool:
    """True for a character that shows nothing by itself: space, control, format, mark, filler."""
    if not assigned_in_unicode_13(character):
        return True  # whatever a newer Python calls it, an older one shows nothing: be safe alike on both
    return character.isspace() or character in _FILLERS or unicodedata.category(character) in _BLANK_CATEGORIES


def refuse_surrogates(name: str) -> None:
    """Refuse a declared name holding surrogates (escaped as JSON does), naming the fix."""
    found = _SURROGATE.search(name)
    if found is None:
        return
    pair = name[found.start() : found.start() + 2]
    if len(pair) == 2 and pair[0] <= "\udbff" < pair[1]:
        character = pair.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        raise SkillProblem(
            f"the name escapes U+{ord(character):04X} as a JSON-style surrogate pair "
            f"(\\u{ord(pair[0]):04x}\\u{ord(pair[1]):04x}); YAML reads each \\u as a whole character: "
            f"write the character itself, or \\U{ord(character):08X}"
        )
    raise SkillProblem(f"the name holds U+{ord(pair[0]):04X}, half of a UTF-16 surrogate pair")


def check_name(name: str) -> None:
    """Refuse a name that could break the block's structure or hide its text."""
    if not (name.isascii() and name.isprintable()):  # printable ASCII holds no unsafe character
        for character in name:
            if not assigned_in_unicode_13(character):  # first, so that every Python gives the same reason
                raise SkillProblem(
                    f"the name holds U+{ord(character):04X}, which Unicode 13.0 does not assign; "
                    "Pythons of other Unicode versions would read it differently"
                )
            category = unicodedata.category(character)
            if category == "Cs":  # a byte of a file name that is not UTF-8, as Python decodes it
                raise SkillProblem(NOT_UTF8_PATH)
            if category in _UNSAFE_CATEGORIES or character in _FILLERS:
                raise SkillProblem(f"the name holds the unsafe character U+{ord(character):04X}")
        if all(invisible(character) for character in name):
            raise SkillProblem("the name shows no visible character")
    if RESERVED_PREFIX in name:
        raise SkillProblem(f"the name holds {RESERVED_PREFIX!r}, the start of an index marker")
    if name.startswith("[") and name.endswith("]"):
        raise SkillProblem("the name reads as a [domain] header")
    if name.startswith(CONFLICT_PREFIXES):
        raise SkillProblem("the name reads as a line of a merge conflict")


def replace_surrogates(text: str, warnings: list[str]) -> str:
    """The text with any surrogate as U+FFFD, so that it can always be written as UTF-8; with a warning."""
    if _SURROGATE.search(text) is None:
        return text
    warnings.append("the description holds halves of UTF-16 surrogate pairs (\\ud800 to \\udfff), shown as U+FFFD")
    return _SURROGATE.sub("\ufffd", text)


def check_not_a_label(name: str) -> None:
    """Refuse a name that reads as ``@owner/name``, so one line of the block never stands for two skills."""
    if name.startswith("@") and "/" in name:
        raise SkillProblem("the name reads as an owner's label (@owner/name); only an '@' folder gives an owner")
