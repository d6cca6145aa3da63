"""Text from a repository, made safe to show: every character that acts on a terminal or a reader, escaped visibly.

A folder name or a description is the repository's content, not the
user's: an ESC sequence in it could erase a line of ``git commit``'s output
or set the window title, a BEL ring, a backspace or U+202E reorder what is
read, a line break add lines of its own. ``visible`` shows each such
character as an escape (``\\x1b``, ``\\n``, ``\\u202e``), and so each
character that shows nothing yet holds text (a zero-width space, a tag
character: ``\\u200b``, ``\\U000e0041``), which would hide from the person
what the agent reads; ``for_people``
keeps the line breaks and tabs of a report we wrote ourselves and escapes
the rest. A byte that is not UTF-8 in a file name (read with
surrogateescape) shows as that byte, ``\\xe9``.
"""

from __future__ import annotations

import os

from skillmem_hook.lazy_pattern import lazy_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

# C0 and C1 controls, DEL, the bidirectional controls that reorder what is
# read, the Unicode line and paragraph separators, lone surrogates, and the
# characters that show nothing yet carry text an agent reads: the soft hyphen,
# the zero-width space, non-joiner, joiner and word joiner, U+FEFF, and the tag
# characters (U+E0000-U+E007F, ASCII spelled invisibly).
INVISIBLE = "\xad\u200b-\u200d\u2060\ufeff\U000e0000-\U000e007f"
_OTHER_UNSAFE = f"\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff{INVISIBLE}"
_ANY_UNSAFE = lazy_compile(f"[\x00-\x0a{_OTHER_UNSAFE}]")
_UNSAFE_BUT_LAYOUT = lazy_compile(f"[\x00-\x08{_OTHER_UNSAFE}]")  # tab and line feed kept
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    character = match.group()
    if character in _NAMED:
        return _NAMED[character]
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte that was not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    if code > 0xFFFF:  # a tag character
        return f"\\U{code:08x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` on one line with every control, bidi, invisible or line-break character shown as an escape."""
    if text.isascii() and text.isprintable():  # all of ASCII's unsafe characters are its unprintable ones
        return text  # and no pattern compiled: a warm hook run shows nothing else
    return _ANY_UNSAFE.sub(_escape, _rejoined(text)) if _ANY_UNSAFE.search(text) else text


def for_people(text: str) -> str:
    """A report for a terminal: its line breaks and tabs kept, every other unsafe character escaped.

    A lone surrogate left shows as ``\\udcxx``: in a JSON error line (which
    passes through here too) that is the escape ``json.loads`` reads back.
    """
    if text.isascii() and text.replace("\t", " ").replace("\n", " ").isprintable():
        return text  # as the pattern finds, without compiling it: a warm hook run writes an empty report
    if not _UNSAFE_BUT_LAYOUT.search(text):
        return text
    return _UNSAFE_BUT_LAYOUT.sub(_escape_in_report, _rejoined(text))


def _escape_in_report(match: re.Match[str]) -> str:
    character = match.group()
    return f"\\u{ord(character):04x}" if "\ud800" <= character <= "\udfff" else _escape(match)


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
