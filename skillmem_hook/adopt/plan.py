"""What ``skillmem init`` would write: each file's bytes now and after, decided before anything is written."""

from __future__ import annotations

import json
import os

from skillmem_hook.adopt.attributes import add_attributes
from skillmem_hook.adopt.precommit_config import add_hooks, has_skillmem_hooks
from skillmem_hook.adopt.repository import listed_files
from skillmem_hook.block.imports import imported_files
from skillmem_hook.catalog.discovery.layout import hidden, skill_roots
from skillmem_hook.config import DEFAULT_PROMPT_FILES, Settings
from skillmem_hook.config_file import CONFIG_FILE, ConfigFile, read_config_file
from skillmem_hook.errors import FileAccessError, UsageError
from skillmem_hook.files import NotARegularFile, read_regular_file

PRECOMMIT_CONFIG = ".pre-commit-config.yaml"
ATTRIBUTES = ".gitattributes"


class FileChange:
    """One file init writes: its path relative to the top, the bytes it holds (None: absent) and will hold."""

    __slots__ = ("after", "before", "path", "why")

    def __init__(self, path: str, before: bytes | None, after: bytes, why: str) -> None:
        self.path = path
        self.before = before
        self.after = after
        self.why = why

    @property
    def action(self) -> str:
        return "unchanged" if self.before == self.after else "created" if self.before is None else "updated"


def read_own_file(top: str, path: str) -> bytes | None:
    """A file init may rewrite: its bytes, None when absent; a link or a non-regular file is refused."""
    full = os.path.join(top, path)
    if os.path.islink(full):
        raise FileAccessError(
            f"{path} is a symbolic link", f"skillmem init writes only regular files: edit {path} by hand"
        )
    try:
        return read_regular_file(full, 1024 * 1024)
    except FileNotFoundError:
        return None
    except (NotARegularFile, OSError) as error:
        raise FileAccessError(f"cannot read {path}: {error.strerror}", f"make {path} a regular text file") from None


def configuration(top: str, *, force: bool) -> tuple[Settings, FileChange | None]:
    """The settings init works with, and the .skillmem.yaml to write (None: an existing one is kept)."""
    before = read_own_file(top, CONFIG_FILE)
    if before is not None and not force:
        file = read_config_file(os.path.join(top, CONFIG_FILE))
        settings = Settings(file, config_path=CONFIG_FILE)
        settings.roots = list(file.roots) or find_roots(top)
        settings.prompt_files = list(file.prompt_files) or find_prompt_files(top)
        return settings, None
    roots, prompt_files = find_roots(top), find_prompt_files(top)
    text = (
        "# Where skillmem finds the skills and the prompt files that list them (written by 'skillmem init').\n"
        f"roots: {json.dumps(roots, ensure_ascii=False)}\n"
        f"prompt_files: {json.dumps(prompt_files, ensure_ascii=False)}\n"
    )
    settings = Settings(ConfigFile(), config_path=CONFIG_FILE)
    settings.roots, settings.prompt_files = roots, prompt_files
    return settings, FileChange(CONFIG_FILE, before, text.encode("utf-8"), "where the skills and prompt files are")


def find_roots(top: str) -> list[str]:
    """The roots holding every SKILL.md git tracks or would add; none is a usage error naming what to do."""
    files = [path for path in listed_files(top, [":(glob)**/SKILL.md"]) if not hidden(path)]
    roots = skill_roots(files)
    if not roots:
        raise UsageError(
            "no SKILL.md found in this repository (outside what git ignores)",
            "add your skills as <folder>/<skill-name>/SKILL.md (for example skills/pdf/SKILL.md), then run init again",
        )
    return roots


def find_prompt_files(top: str) -> list[str]:
    """AGENTS.md and CLAUDE.md where they exist and git does not ignore them, less a file importing another.

    None found: AGENTS.md, which init creates.
    """
    present = listed_files(top, list(DEFAULT_PROMPT_FILES))
    kept = [path for path in DEFAULT_PROMPT_FILES if path in present]
    importers = {
        path
        for path in kept
        if any(other in imported_files(os.path.join(top, path)) for other in _absolute(top, kept, path))
    }
    chosen = [path for path in kept if path not in importers] or kept
    return chosen or [DEFAULT_PROMPT_FILES[0]]


def _absolute(top: str, paths: list[str], but: str) -> list[str]:
    return [os.path.normpath(os.path.join(top, path)) for path in paths if path != but]


def precommit_change(top: str, repo: str, rev: str) -> FileChange:
    before = read_own_file(top, PRECOMMIT_CONFIG)
    if before is not None and has_skillmem_hooks(before):
        return FileChange(PRECOMMIT_CONFIG, before, before, "skillmem's hooks are there already")
    after = add_hooks(before or b"", repo, rev)
    return FileChange(PRECOMMIT_CONFIG, before, after, f"skill-index, skill-verify and skill-lint from {repo} at {rev}")


def attributes_change(top: str, prompt_files: list[str]) -> FileChange:
    before = read_own_file(top, ATTRIBUTES)
    after = add_attributes(before or b"", prompt_files)
    return FileChange(ATTRIBUTES, before, after, "prompt files merge through 'skillmem merge-driver'")
