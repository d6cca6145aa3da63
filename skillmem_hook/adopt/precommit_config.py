"""Add skillmem's hooks to a ``.pre-commit-config.yaml``, keeping every byte and comment already there. Pure.

The entry is spliced in as text (never a YAML dump, which would drop the
comments), at the end of the ``repos:`` list and in its indentation, then
checked by parsing the result: when the file has a shape the splice cannot
follow (a flow list, anchors), the caller is told to add the entry by hand.
"""

from __future__ import annotations

import json
import re

import yaml

from skillmem_hook.errors import UsageError

HOOK_IDS = ("skill-index", "skill-verify", "skill-lint")
_REPOS = re.compile(rb"^repos:[ \t]*(#[^\r\n]*)?\r?$", re.MULTILINE)


def hook_entry(repo: str, rev: str, indent: int = 2) -> list[str]:
    """The lines of the ``repos:`` item; skill-verify and skill-lint wait at the manual stage."""
    pad = " " * indent
    return [
        f"{pad}- repo: {_quoted(repo)}",
        f"{pad}  rev: {_quoted(rev)}",
        f"{pad}  hooks:",
        f"{pad}    - id: skill-index",
        f"{pad}    - id: skill-verify   # CI, read-only: pre-commit run skill-verify --all-files --hook-stage manual",
        f"{pad}      stages: [manual]",
        f"{pad}    - id: skill-lint     # once 'pre-commit run skill-lint --all-files --hook-stage manual' is clean,",
        f"{pad}      stages: [manual]   # drop this line to lint every commit's SKILL.md files",
    ]


def _quoted(value: str) -> str:
    plain = re.fullmatch(r"[A-Za-z0-9_./:@+~-]+", value) and value[0] not in "@~"
    return value if plain else json.dumps(value, ensure_ascii=False)


def has_skillmem_hooks(data: bytes) -> bool:
    """True when the config already names one of skillmem's hooks."""
    content = _load(data)
    repos = content.get("repos") if isinstance(content, dict) else None
    return any(
        isinstance(hook, dict) and hook.get("id") in HOOK_IDS
        for repo in (repos if isinstance(repos, list) else [])
        if isinstance(repo, dict) and isinstance(repo.get("hooks"), list)
        for hook in repo["hooks"]
    )


def add_hooks(data: bytes, repo: str, rev: str) -> bytes:
    """The config with skillmem's repository entry added; ``data`` empty for a new file."""
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    if not data.strip():
        text = "\n".join(["repos:", *hook_entry(repo, rev), ""])
        return data + text.encode("utf-8").replace(b"\n", newline)
    head = data if data.endswith((b"\n", b"\r")) else data + newline
    found = _REPOS.search(head)
    if found is None:
        lines = ["repos:", *hook_entry(repo, rev)]
        updated = head + newline.join(line.encode("utf-8") for line in lines) + newline
    else:
        updated = _insert_in_list(head, found.end(), repo, rev, newline)
    _check(data, updated, repo, rev)
    return updated


def _insert_in_list(data: bytes, start: int, repo: str, rev: str, newline: bytes) -> bytes:
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
    entry = newline.join(line.encode("utf-8") for line in hook_entry(repo, rev, indent or 0)) + newline
    return data[:insert_at] + entry + data[insert_at:]


def _check(before: bytes, after: bytes, repo: str, rev: str) -> None:
    """The splice added exactly the entry, and changed nothing else the YAML says."""
    old, new = _load(before), _load(after)
    # Comparing aliased nodes walks every expansion (a billion laughs never ends): refuse aliases first.
    aliased = _has_aliases(before)
    old_repos = (old.get("repos") or []) if isinstance(old, dict) and not aliased else None
    if (
        isinstance(old, dict)
        and isinstance(old_repos, list)
        and isinstance(new, dict)
        and {key: value for key, value in new.items() if key != "repos"}
        == {key: value for key, value in old.items() if key != "repos"}
        and new.get("repos") == [*old_repos, _entry_value(repo, rev)]
    ):
        return
    raise UsageError(
        ".pre-commit-config.yaml has a shape skillmem init cannot extend without risk to its text",
        "add this item under 'repos:' by hand, then run skillmem init again:\n" + "\n".join(hook_entry(repo, rev)),
    )


def _has_aliases(data: bytes) -> bool:
    return any(isinstance(event, yaml.AliasEvent) for event in yaml.parse(data, Loader=yaml.SafeLoader))


def _entry_value(repo: str, rev: str) -> dict[str, object]:
    return _load("\n".join(["repos:", *hook_entry(repo, rev)]).encode())["repos"][0]  # type: ignore[index,no-any-return]


def _load(data: bytes) -> object:
    try:
        return yaml.safe_load(data) or {}
    except yaml.YAMLError as error:
        problem = " ".join(str(error).split())
        raise UsageError(
            f".pre-commit-config.yaml is not valid YAML: {problem}", "fix it, then run skillmem init again"
        ) from None
