"""``--text``: each command's result as lines for a person, from the same data its JSON line carries."""

from __future__ import annotations

from skillmem_hook.text_lines import name_list
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def renderer(command: str) -> Callable[[dict[str, object]], str]:
    return _RENDERERS.get(command, _generic)


def _files(data: dict[str, object]) -> list[dict[str, object]]:
    files = data.get("files")
    return [item for item in files if isinstance(item, dict)] if isinstance(files, list) else []


def _names(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def _inject(data: dict[str, object]) -> str:
    lines = []
    for item in _files(data):
        state = "the skill index was updated" if item["changed"] else "current"
        lines.append(f"{visible(str(item['prompt_file']))}: {state}")
        lines += name_list("added", _names(item.get("missing")))
        lines += name_list("removed", _names(item.get("stale")))
    lines.append(f"{data['skills']:,} skills listed")
    return "\n".join(lines + _notes(data)) + "\n"


def _verify(data: dict[str, object]) -> str:
    lines = []
    for item in _files(data):
        state = "out of date" if item["drift"] else "current"
        lines.append(f"{visible(str(item['prompt_file']))}: {state}")
        lines += name_list("missing from the block", _names(item.get("missing")))
        lines += name_list("stale, not a skill on disk", _names(item.get("stale")))
        lines += name_list("moved to another domain", _names(item.get("moved")))
        if item.get("conflict"):
            lines.append("  the block holds a merge conflict: 'skillmem inject' rebuilds it")
        if item.get("diff"):
            lines.append(str(item["diff"]).rstrip("\n"))
    lines.append("every block is current" if data["ok"] else "run 'skillmem inject' to update the blocks")
    return "\n".join(lines + _notes(data)) + "\n"


def _index(data: dict[str, object]) -> str:
    lines = [f"{data['count']:,} skills"]
    for skill in data.get("skills") or []:  # type: ignore[attr-defined]
        # The path holds folder names from the repository: escaped, so none acts on the terminal or adds a line.
        lines.append(f"  [{skill['domain']}] {skill['name']}  ({visible(skill['root'] + '/' + skill['path'])})")
    for key in ("duplicates", "skipped", "excluded", "warnings"):
        count = len(data.get(key) or [])  # type: ignore[arg-type]
        if count:
            lines.append(f"{count:,} {key} (see the JSON output for each)")
    if "written" in data:
        lines.append(f"the index file was {'written' if data['written'] else 'current already'}")
    return "\n".join(lines + _notes(data)) + "\n"


def _prompt(data: dict[str, object]) -> str:
    return f"{data['block']}\n"


def _stats(data: dict[str, object]) -> str:
    lines = [
        f"{data['skills']:,} skills; the block is {data['block_bytes']:,} bytes, about {data['est_tokens']:,} tokens"
    ]
    lines += [f"  [{domain}] {count:,}" for domain, count in (data.get("domains") or {}).items()]  # type: ignore[attr-defined]
    for item in _files({"files": data.get("prompt_files")}):
        size = f"a block of {item['block_bytes']:,} bytes, about {item['est_tokens']:,} tokens"
        lines.append(f"{visible(str(item['prompt_file']))}: {size}")
    return "\n".join(lines + _notes(data)) + "\n"


def _init(data: dict[str, object]) -> str:
    # Roots and paths are folder names from the repository: escaped, so none can act on the terminal or add a line.
    would = data.get("dry_run")
    verbs = {"created": "would create", "updated": "would update"} if would else {}
    roots, prompt_files = (", ".join(map(visible, _names(data[key]))) for key in ("roots", "prompt_files"))
    lines = [f"skills roots: {roots}; prompt files: {prompt_files}"]
    for item in _files(data):
        action = str(item["action"])
        lines.append(f"  {verbs.get(action, action)} {visible(str(item['path']))}: {visible(str(item['why']))}")
    lines += [f"  kept {visible(path)} (--force rewrites it)" for path in _names(data.get("kept"))]
    lines += [f"  {'would set' if would else 'set'} git config {key}" for key in _names(data.get("git_config"))]
    lines.append(f"  hooks: {data['hooks_installed']}")
    lines += _notes(data)
    lines.append(("then: " if would else "next: ") + visible(str(data["next"])))  # last: the one command left
    return "\n".join(lines) + "\n"


def _notes(data: dict[str, object]) -> list[str]:
    return [f"note: {note}" for note in _names(data.get("notes"))]


def _generic(data: dict[str, object]) -> str:
    return "".join(f"{key}: {value}\n" for key, value in data.items())


_RENDERERS: dict[str, Callable[[dict[str, object]], str]] = {
    "inject": _inject,
    "verify": _verify,
    "index": _index,
    "prompt": _prompt,
    "stats": _stats,
    "init": _init,
}
