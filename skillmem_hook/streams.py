"""Text to the terminal as UTF-8 bytes, whatever the locale; streams that are closed or full.

stdout and stderr are written as UTF-8 (non-ASCII kept as is), so a Chinese
path reads the same under ``LC_ALL=C``. stderr is for people, and a closed or
full one loses the message, never the exit code.
"""

from __future__ import annotations

import os

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.visible import INVISIBLE, for_people

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import TextIO


# JSON leaves these raw with ensure_ascii=False, yet Python's splitlines() and
# older JavaScript read U+0085, U+2028 and U+2029 as line breaks, a terminal
# acts on DEL and the C1 controls: escaped as \\uXXXX, the very escape a JSON reader turns back into the
# character; so is every character that shows nothing (``visible.INVISIBLE``: Unicode's default-ignorable ones,
# the bidi controls among them), a variation selector even in ``❤️`` (the escape loses nothing), and a
# supplementary one as its surrogate pair (JSON's only way).
_RAW_IN_JSON = lazy_compile(f"[\x7f-\x9f\u2028\u2029{INVISIBLE}]")


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _escaped(text: str) -> str:
    """``text`` with each character of ``_RAW_IN_JSON`` as its ``\\uXXXX`` escape's text."""
    return _RAW_IN_JSON.sub(_json_escape, text) if _RAW_IN_JSON.search(text) else text


def to_json(value: object) -> str:
    """JSON text with non-ASCII kept as UTF-8, and no character a reader splits lines at or a terminal acts on."""
    import json  # noqa: PLC0415 - loads re: a hook run that prints no JSON line does without both

    return _escaped(json.dumps(value, ensure_ascii=False))


def escaped_strings(value: object) -> object:
    """``value`` with each string (a key too) holding its characters ``to_json`` escapes as that escape's text
    (``\\u200b``): for a JSON encoder that is not ours (the MCP SDK's ``structuredContent``), which would send
    them raw. A reader then sees ``\\u200b`` where a hidden character was, as in the CLI's JSON."""
    if isinstance(value, str):
        return _escaped(value)
    if isinstance(value, dict):
        return {escaped_strings(key): escaped_strings(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [escaped_strings(item) for item in value]
    return value


def write_text(stream: TextIO, text: str) -> None:
    """Write a report for people (``--text``, a hook's report): what a skill's text holds is shown, not acted on."""
    write_utf8(stream, for_people(text))


def write_utf8(stream: TextIO, text: str) -> None:
    """Write ``text`` to a text stream as UTF-8 bytes, whatever the stream's (locale's) encoding."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = _encode_surrogates(text)
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a stream without bytes underneath (a test's StringIO)
        stream.write(data.decode("utf-8"))
        return
    stream.flush()  # what was written as text goes first
    buffer.write(data)
    buffer.flush()


def _encode_surrogates(text: str) -> bytes:
    """Valid UTF-8 for text holding lone surrogates: file names decoded with surrogateescape.

    Under an ASCII locale a UTF-8 name arrives as one surrogate a byte: those
    bytes are joined back into their characters. A byte that is not UTF-8
    stays a surrogate and becomes the escape ``\\udcxx``: inside a JSON string
    (the only place a JSON line can hold one) the very escape ``json.loads``
    reads back as that surrogate.
    """
    # A surrogate surrogateescape never makes (\\ud800) is left for backslashreplace.
    try:  # noqa: SIM105 - contextlib is not loaded on a warm run
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        pass
    text = _RAW_IN_JSON.sub(_json_escape, text)
    return text.encode("utf-8", "backslashreplace")


def silence(stream: TextIO) -> None:
    """Send what is left in ``stream``, and its flush at exit, to /dev/null."""
    try:  # noqa: SIM105 - contextlib is not loaded on a warm run
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    except (OSError, ValueError):
        pass


class Forgiving:
    """stderr for people: a closed or full stream loses the message, never the exit code."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    buffer = None  # so write_utf8 comes through write(), where failures are caught

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                write_text(self._stream, text)
            except (OSError, ValueError):
                silence(self._stream)
        return len(text)

    def flush(self) -> None:
        self.write("")

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def fill_closed_standard_streams() -> None:
    """Open /dev/null on a closed descriptor 0, 1 or 2.

    Otherwise the next file opened (a prompt file's temporary copy) would get
    that number, and anything written to "stdout" would land in it.
    """
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            opened = os.open(os.devnull, os.O_RDWR)
            if opened != descriptor:  # a lower one was closed too and took it; the loop fills this one next
                os.dup2(opened, descriptor)
                os.close(opened)


def on_terminal(stream: object) -> bool:
    """Whether ``stream`` is a terminal, where a person reads: False for a pipe, a file, a closed stream or none."""
    isatty = getattr(stream, "isatty", None)
    try:
        return isatty is not None and bool(isatty())
    except (OSError, ValueError):  # a closed stream
        return False
