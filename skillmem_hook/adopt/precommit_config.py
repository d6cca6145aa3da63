"""Add skillmem's hooks to a ``.pre-commit-config.yaml``, or re-pin them, keeping every other byte. Pure.

The entry is spliced in as text (never a YAML dump, which would drop the
comments), at the end of the ``repos:`` list and in its indentation, then
checked by parsing the result: when the file has a shape the splice cannot
follow (a flow list, anchors), the caller is told to add the entry by hand.
Re-pinning replaces the values of the entry's ``repo:`` and ``rev:`` where
they stand, checked the same way.
"""

from __future__ import annotations

import json
import re

from skillmem_hook.adopt.precommit_yaml import HOOK_IDS, ConfigShape
from skillmem_hook.errors import UsageError

__all__ = ["HOOK_IDS", "add_hooks", "has_skillmem_hooks", "hook_entry", "repin"]

_REPOS = re.compile(rb"^repos:[ \t]*(#[^\r\n]*)?\r?$", re.MULTILINE)
# 'repos: []', pre-commit's empty list: the entry replaces the '[]', so the file keeps one 'repos:' key.
_EMPTY_REPOS = re.compile(rb"^repos:([ \t]*)\[[ \t]*\]([ \t]*(#[^\r\n]*)?)\r?$", re.MULTILINE)
LINT_MANUAL_COMMENT = "# drop this line to lint every commit's SKILL.md files"


def hook_entry(repo: str, rev: str, indent: int = 2, *, lint_on_commit: bool = False) -> list[str]:
    """The lines of the ``repos:`` item: skill-verify waits at the manual stage, and skill-lint unless told."""
    pad = " " * indent
    lines = [
        f"{pad}- repo: {_quoted(repo)}",
        f"{pad}  rev: {_quoted(rev)}",
        f"{pad}  hooks:",
        f"{pad}    - id: skill-index",
        f"{pad}    - id: skill-verify   # CI, read-only: pre-commit run skill-verify --all-files --hook-stage manual",
        f"{pad}      stages: [manual]",
    ]
    if lint_on_commit:
        return [
            *lines,
            f"{pad}    - id: skill-lint     # the skills each commit touches (known findings: lint: baseline:)",
        ]
    return [
        *lines,
        f"{pad}    - id: skill-lint     # once 'pre-commit run skill-lint --all-files --hook-stage manual' is clean,",
        f"{pad}      stages: [manual]   {LINT_MANUAL_COMMENT}",
    ]


def _quoted(value: str) -> str:
    plain = re.fullmatch(r"[A-Za-z0-9_./:@+~-]+", value) and value[0] not in "@~"
    return value if plain else json.dumps(value, ensure_ascii=False)


def has_skillmem_hooks(data: bytes) -> bool:
    """True when the config already names one of skillmem's hooks (each node looked at once, aliases or not)."""
    return bool(ConfigShape(data).skillmem_entries())


def add_hooks(data: bytes, repo: str, rev: str, *, lint_on_commit: bool = False) -> bytes:
    """The config with skillmem's repository entry added; ``data`` empty for a new file."""
    entry = hook_entry(repo, rev, lint_on_commit=lint_on_commit)
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    if not data.strip():
        text = "\n".join(["repos:", *entry, ""])
        return data + text.encode("utf-8").replace(b"\n", newline)
    head = data if data.endswith((b"\n", b"\r")) else data + newline
    empty = _EMPTY_REPOS.search(head)
    found = _REPOS.search(head)
    if empty is not None:
        at = head.index(b"[", empty.start())
        lines = newline.join(line.encode("utf-8") for line in entry)
        updated = head[:at].rstrip(b" \t") + empty.group(2) + newline + lines + head[empty.end() :]
    elif found is None:
        updated = head + newline.join(line.encode("utf-8") for line in ["repos:", *entry]) + newline
    else:
        updated = _insert_in_list(head, found.end(), entry, newline)
    _check(data, updated, entry)
    return updated


def _insert_in_list(data: bytes, start: int, entry: list[str], newline: bytes) -> bytes:
    """Insert the entry after the last line of the ``repos:`` list that starts at ``start``."""
    lines = data[start:].splitlines(keepends=True)[1:]
    indent = None
    offset = start + len(data[start:].splitlines(keepends=True)[0])
    insert_at = offset
    for line in lines:
        content = line.strip()
        if content and not content.startswith(b"#"):
            if not line[:1].isspace() and not line.startswith(b"-"):
                break  # the next top-level key
            if indent is None:
                indent = len(line) - len(line.lstrip(b" "))
            insert_at = offset + len(line)
        offset += len(line)
    shift = " " * (indent or 0)
    text = newline.join((shift + line[2:]).encode("utf-8") for line in entry) + newline
    return data[:insert_at] + text + data[insert_at:]


def _check(before: bytes, after: bytes, entry: list[str]) -> None:
    """The splice added exactly the entry, and changed nothing else the YAML says, nor repeated a key."""
    old_shape = ConfigShape(before)
    old, new = old_shape.value, ConfigShape(after)
    # Comparing aliased nodes walks every expansion (a billion laughs never ends): refuse aliases first.
    old_repos = (old.get("repos") or []) if isinstance(old, dict) and not old_shape.aliased else None
    if (
        isinstance(old, dict)
        and isinstance(old_repos, list)
        and isinstance(new.value, dict)
        and new.keys == old_shape.keys + ([] if "repos" in old_shape.keys else ["repos"])
        and {key: value for key, value in new.value.items() if key != "repos"}
        == {key: value for key, value in old.items() if key != "repos"}
        and new.value.get("repos") == [*old_repos, _entry_value(entry)]
    ):
        return
    raise UsageError(
        ".pre-commit-config.yaml has a shape skillmem init cannot extend without risk to its text",
        "add this item under 'repos:' by hand, then run skillmem init again:\n" + "\n".join(entry),
    )


def _entry_value(entry: list[str]) -> object:
    value = ConfigShape("\n".join(["repos:", *entry]).encode()).value
    return value["repos"][0]  # type: ignore[index]


def repin(data: bytes, repo: str, rev: str) -> bytes:
    """The config with the ``repo:`` and ``rev:`` values of skillmem's entry replaced where they stand."""
    hint = f"set 'repo: {_quoted(repo)}' and 'rev: {_quoted(rev)}' in skillmem's entry by hand"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(".pre-commit-config.yaml is not UTF-8 text", hint) from None
    bom = "\ufeff" if text.startswith("\ufeff") else ""  # libyaml's marks would not count it
    text = text[len(bom) :]
    shape = ConfigShape(text)  # read from the text, so the marks count its characters
    entries = shape.skillmem_entries()
    if shape.aliased or len(entries) != 1:
        raise UsageError(".pre-commit-config.yaml names skillmem's hooks in a shape init cannot re-pin", hint)
    values = {key.value: value for key, value in entries[0].value}
    pins = (("repo", repo), ("rev", rev))
    if not _is_remote(values.get("repo")) or "rev" not in values:
        raise UsageError("skillmem's hooks in .pre-commit-config.yaml come from no repository and rev", hint)
    if any(getattr(values[key], "style", None) in ("|", ">") or _is_empty(values[key]) for key, _ in pins):
        # A block scalar's span ends at the next key's line, and an empty value has none: no value to replace.
        raise UsageError(".pre-commit-config.yaml gives skillmem's repo or rev in a form init cannot re-pin", hint)
    spans = sorted(((values[key].start_mark.index, values[key].end_mark.index), new) for key, new in pins)
    for (start, end), new in reversed(spans):  # the later span first, so the earlier one's offsets stay true
        text = text[:start] + _quoted(new) + text[end:]
    _check_repinned(shape, ConfigShape(text), repo, rev, hint)
    return (bom + text).encode("utf-8")


def _is_empty(node: object) -> bool:
    start, end = getattr(node, "start_mark", None), getattr(node, "end_mark", None)
    return start is not None and end is not None and start.index == end.index


def _is_remote(node: object) -> bool:
    value = getattr(node, "value", None)
    return isinstance(value, str) and value not in ("local", "meta")


def _check_repinned(old: ConfigShape, new: ConfigShape, repo: str, rev: str, hint: str) -> None:
    """Only the entry's repo and rev changed, to the values asked for."""
    expected = old.value
    if isinstance(expected, dict) and isinstance(expected.get("repos"), list):
        items = [dict(item) if _is_skillmem(item) else item for item in expected["repos"]]
        for item in items:
            if _is_skillmem(item):
                item.update(repo=repo, rev=rev)
        expected = {**expected, "repos": items}
    if new.value != expected or new.keys != old.keys:
        raise UsageError(".pre-commit-config.yaml has a shape init cannot re-pin without risk to its text", hint)


def _is_skillmem(item: object) -> bool:
    hooks = item.get("hooks") if isinstance(item, dict) else None
    return isinstance(hooks, list) and any(isinstance(hook, dict) and hook.get("id") in HOOK_IDS for hook in hooks)
