"""Lines of the reports written for a person (``--text``, the hooks): lists of names, at most a screenful each."""

from __future__ import annotations

from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

# About a screenful per list: a first run on 1,899 skills must not print one 38 KB line.
MAX_NAMES = 20
_WIDTH = 100


def name_list(title: str, names: Sequence[str]) -> list[str]:
    """``  title (count): a, b, c`` wrapped to the terminal, cut after MAX_NAMES names."""
    if not names:
        return []
    shown = names[:MAX_NAMES]
    words = [f"{visible(name)}," for name in shown[:-1]] + [visible(shown[-1])]
    lines: list[str] = []
    line = f"  {title} ({len(names):,}):"
    for word in words:
        if len(line) + 1 + len(word) > _WIDTH and line.strip():
            lines.append(line)
            line = "   "
        line += " " + word
    lines.append(line)
    if len(names) > MAX_NAMES:
        lines.append(f"    ... and {len(names) - MAX_NAMES:,} more")
    return lines


def counted(number: int, noun: str, plural: str = "") -> str:
    """``1 skill``, ``2 skills``, ``1,899 skills``: a count and its noun agreeing in number (``plural`` when not +s)."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"


def listed_files(data: dict[str, object], key: str = "files") -> list[dict[str, object]]:
    """The per-file entries of a command's result (``files``, ``prompt_files``)."""
    files = data.get(key)
    return [item for item in files if isinstance(item, dict)] if isinstance(files, list) else []


def names_of(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def note_lines(data: dict[str, object]) -> list[str]:
    """A result's ``notes``, one line each, escaped (visible)."""
    # A note may quote a repository's text (a prompt file's name, a pattern of .skillmem.yaml): shown, not acted on.
    return [f"note: {visible(note)}" for note in names_of(data.get("notes"))]
