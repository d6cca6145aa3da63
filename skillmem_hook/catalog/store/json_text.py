"""JSON text read by the scanner the ``json`` package itself runs, without loading that package.

``json`` loads ``re`` (and enum, functools, collections beneath it) for
the whitespace it skips, which cost a warm hook run at 100 skills about a
fifth of its instructions beyond the interpreter's; a warm run only reads
the snapshot's records, which skillmem wrote itself. ``loads`` gives what
``json.loads`` gives for any text, or raises ValueError where it does
(tests/catalog/store/test_json_text.py holds the two equal), through the
same C scanner, ``_json.make_scanner``; where that is missing, it is
``json.loads``. Writing still goes through ``json``: only a cold run writes.
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
