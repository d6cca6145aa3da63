"""JSON text read by the scanner the ``json`` package itself runs, without loading that package.

``json`` loads ``re`` (and enum, functools, collections beneath it) for
the whitespace it skips, which cost a warm hook run at 100 skills about a
fifth of its instructions beyond the interpreter's; a warm run only reads
the snapshot's records, which skillmem wrote itself. ``loads`` gives what
``json.loads`` gives for any text, or raises ValueError where it does
(tests/catalog/store/test_json_text.py holds the two equal), through the
same C scanner, ``_json.make_scanner``; where that is missing, it is
``json.loads``. ``dumps`` writes what ``json.dumps`` writes (the same
test file holds them equal) through its C encoder, ``_json.make_encoder``,
made once: ``json.dumps`` makes one per call, some 2 us of each of the
20,000 records a cold run at 10,000 skills writes (the cache's and the
snapshot's).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_WHITESPACE = " \t\n\r"  # JSON's four, which json.loads skips around the value
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


class _Context:
    """What the C scanner reads of its context: json.JSONDecoder's defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


def _make_scan() -> Callable[[str, int], tuple[object, int]] | None:
    try:
        from _json import make_scanner  # noqa: PLC0415 - CPython's own; a Python without it has json.loads
    except ImportError:
        return None
    return make_scanner(_Context())  # type: ignore[arg-type]  # the stub wants a scanner; it reads these fields


_SCAN = _make_scan()


def loads(data: bytes | str) -> object:
    """The value of one JSON text (bytes are ASCII here: skillmem writes its files so); ValueError as json.loads."""
    text = data.decode("ascii") if isinstance(data, bytes) else data
    if _SCAN is None:
        import json  # noqa: PLC0415 - only where CPython's scanner is missing

        return json.loads(text)
    stripped = text.strip(_WHITESPACE)
    try:
        value, end = _SCAN(stripped, 0)
    except StopIteration as stop:
        raise ValueError(f"expecting a value at {stop.value}") from None
    if end != len(stripped):
        raise ValueError(f"extra data at {end}")
    return value


def _not_serialisable(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _make_encoder(item_separator: str, key_separator: str) -> Callable[[object], str]:
    """What ``json.dumps(value, separators=(item_separator, key_separator))`` gives, by one encoder kept."""
    try:
        from _json import encode_basestring_ascii, make_encoder  # noqa: PLC0415 - CPython's own, as json uses them
    except ImportError:  # a Python without them: json's own
        import json  # noqa: PLC0415 - only there

        return lambda value: json.dumps(value, separators=(item_separator, key_separator))
    # json.dumps's defaults: circular references checked, ASCII only, keys in order, NaN allowed, no indent.
    encode = make_encoder(
        {}, _not_serialisable, encode_basestring_ascii, None, key_separator, item_separator, False, False, True
    )
    return lambda value: "".join(encode(value, 0))


_ENCODERS: dict[bool, Callable[[object], str]] = {}


def dumps(value: object, *, compact: bool = False) -> str:
    """``json.dumps(value)``, or with ``separators=(",", ":")`` when ``compact``: the same text, byte for byte."""
    encoder = _ENCODERS.get(compact)
    if encoder is None:
        encoder = _ENCODERS[compact] = _make_encoder(",", ":") if compact else _make_encoder(", ", ": ")
    try:
        return encoder(value)
    except BaseException:
        del _ENCODERS[compact]  # its circular-reference marks may be left mid-value: a new encoder next time
        raise
