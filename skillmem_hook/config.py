"""Where the skills and the prompt files are: flags, then .skillmem.yaml, then common layouts.

``.skillmem.yaml`` is looked for in the current folder, then in each folder
above it up to the repository's root (the folder holding ``.git``); paths in
it are relative to its own folder. A flag replaces that key of the file.
The common layouts are looked for in the file's folder (or the repository's
root, or the current folder), and skip what git ignores: a personal
``.claude/skills`` never enters a committed block unless configured.
"""

from __future__ import annotations

import os
import stat

from skillmem_hook.catalog.dot_git import holds_repository
from skillmem_hook.catalog.store.locations import find_git_dir, owned_work_tree_top
from skillmem_hook.catalog.store.trust import owned_work_tree, say_once, untrusted_read
from skillmem_hook.config_file import CONFIG_FILE, ConfigFile, SearchSettings, read_config_file
from skillmem_hook.errors import UsageError
from skillmem_hook.visible import command_path, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.catalog.catalog import CatalogOptions

PROMPT = "the prompt file"
DEFAULT_ROOTS = (".claude/skills", ".agents/skills", ".codex/skills", "skills")
DEFAULT_PROMPT_FILES = ("AGENTS.md", "CLAUDE.md")


class Settings:
    """The configuration in force for one run. Paths are relative to the current folder (or absolute)."""

    def __init__(self, file: ConfigFile, *, config_path: str | None) -> None:
        self.config_path = config_path
        self.roots: list[str] = []
        self.prompt_files: list[str] = []
        self.strict = file.strict
        self.write = file.write
        self.tracked = file.tracked
        self.cache = file.cache
        self.exclude = list(file.exclude)
        self.quiet = list(file.quiet)
        self.domains = dict(file.domains)
        self.preamble = file.preamble
        self.lint = file.lint
        self.aliases = dict(file.aliases)
        self.max_block_tokens = file.max_block_tokens
        self.budget = file.budget
        self.skipped_prompt_files: list[dict[str, str]] = []  # auto-detected files left out, with why
        self.base = os.getcwd()  # the folder the configuration's paths are relative to
        self.typed: set[str] = set()  # the keys the user gave on the command line: their own paths
        self.refused: tuple[str, str] | None = None  # a .skillmem.yaml found and not used, and why

    def repository_targets(
        self, *, hook: bool = False, prompt_files: bool = True, write: bool = True
    ) -> list[tuple[str, str]]:
        """The files to write that the repository names, as (path, what): checked before any write.

        A hook's arguments come from the repository's .pre-commit-config.yaml, so none of them is the user's own.
        """
        typed = "prompt_files" in self.typed and not hook
        targets = [(path, PROMPT) for path in self.prompt_files] if prompt_files and not typed else []
        if write and self.write and (hook or "write" not in self.typed):
            targets.append((self.write, "the 'write:' file"))
        return targets

    @property
    def preamble_line(self) -> str | None:
        """The line written above a first-injected block: the configured one, the default, or None for none."""
        from skillmem_hook.block.markers import DEFAULT_PREAMBLE  # noqa: PLC0415 - route and search render no block

        if self.preamble is True:
            return DEFAULT_PREAMBLE
        return self.preamble or None

    @property
    def search(self) -> SearchSettings:
        """What search needs of these settings: the route index keeps it for a warm prompt."""
        return SearchSettings(
            tracked=self.tracked, cache=self.cache, exclude=self.exclude, domains=self.domains, aliases=self.aliases
        )

    def catalog_options(self, *, hook: bool = False) -> CatalogOptions:
        """How to build the catalog. The hooks take git's view whenever they run inside a work tree.

        The hooks render the block only, so they skip the body's sections (search's field): 7 us a skill of a cold run.
        """
        from skillmem_hook.catalog.catalog import CatalogOptions  # noqa: PLC0415 - a named skill needs no catalog

        return CatalogOptions(
            tracked=None if hook else self.tracked,
            cache=self.cache,
            exclude=self.exclude,
            domains=self.domains,
            sections=not hook,
            user_roots="roots" in self.typed and not hook,
            boundary=self.base,
        )


def load_settings(
    roots: Sequence[str] | None = None,
    prompt_files: Sequence[str] | None = None,
    *,
    strict: bool | None = None,
    write: str | None = None,
    tracked: bool | None = None,
    cache: bool | None = None,
) -> Settings:
    """Merge the flags with the configuration file and the layouts found."""
    config_path, base, refused = _look_up_config(os.getcwd())
    file = read_config_file(config_path) if config_path else ConfigFile()
    settings = Settings(file, config_path=config_path)
    settings.base = base
    settings.refused = refused
    settings.typed = {"prompt_files"} if prompt_files else set()
    settings.typed |= {"write"} if write is not None else set()
    settings.typed |= {"roots"} if roots else set()
    settings.strict = bool(strict) or settings.strict
    if write is not None:
        settings.write = write
    elif settings.write:
        settings.write = _rebased(base, settings.write)
    if tracked is not None:
        settings.tracked = tracked
    if cache is not None:
        settings.cache = cache
    settings.roots = _chosen(roots, file.roots, base)
    settings.prompt_files = _chosen(prompt_files, file.prompt_files, base)
    if not (settings.roots and settings.prompt_files):
        _detect_layouts(settings, base)
    return settings


def find_config(start: str) -> tuple[str | None, str]:
    """(the configuration file, the folder that paths are relative to), looking upward to the repository's root.

    Outside a repository the search may reach a shared folder (``/tmp``), where
    another user can leave a ``.skillmem.yaml``; so there a file is used only
    when it is this user's alone (``config_problem``), as git refuses a
    repository another user owns (``safe.directory``).
    """
    return _look_up_config(start)[:2]


def _look_up_config(start: str) -> tuple[str | None, str, tuple[str, str] | None]:
    """``find_config``'s answer, and the file it found and did not use, with why (the setup hint says so)."""
    folder = start
    while True:
        candidate = os.path.join(folder, CONFIG_FILE)
        if os.path.lexists(candidate):
            problem = config_problem(candidate, folder)
            if problem is None:
                return os.path.relpath(candidate), folder, None
            say_once(candidate, f"skillmem: {visible(candidate)} is not used: {problem}\n")
            return None, start, (candidate, problem)
        if holds_repository(folder):
            if folder != start and not owned_work_tree(folder):
                # A .git another user left in a shared folder above (/tmp/.git) would make that folder the base,
                # and its .claude/skills the roots: git calls such a work tree dubious, and so does skillmem.
                say_once(folder, f"skillmem: {visible(folder)} is not taken as the repository: {_NOT_OWNED}\n")
                return None, start, None
            return None, folder, None
        parent = os.path.dirname(folder)
        if parent == folder:
            return None, start, None
        folder = parent


_NOT_OWNED = (
    "another user owns it, so a .git there may be theirs (git calls it dubious ownership); paths are read from"
    " the current folder instead"
)


def config_problem(path: str, folder: str) -> str | None:
    """Why the ``.skillmem.yaml`` at ``path`` (in ``folder``) may not configure this user's run; or None.

    Inside a repository this user owns (git's own rule), the file is the
    repository's content, trusted or not as a whole, whoever owns the file.
    Outside one, the file and its folder must be this user's and writable by
    no one else (``trust.py``'s rule for kept files).
    """
    file_problem, file_read = untrusted_read(path, folder=False)
    folder_problem, folder_read = (None, None) if file_problem else untrusted_read(folder, folder=True)
    problem = file_problem or folder_problem
    if problem is None or _in_own_repository(folder):
        return None
    where = "the file" if file_problem else f"its folder {visible(folder)}"
    if file_problem:  # its folder not read yet
        folder_read = untrusted_read(folder, folder=True)[1]
    loose = _loose_modes({path: file_read, folder: folder_read})
    if loose:  # this user's own file (a umask of 002): the mode is the fix, not a copy that gets the same mode
        return (
            f"{where}: {problem}, and it is not inside a git repository you own, so another user may have changed"
            f" it; once you have read it, let no one else write to it: chmod go-w {' '.join(loose)}"
        )
    return (
        f"{where}: {problem}, and it is not inside a git repository you own, so another user may have put it there; "
        "to use it, copy it into a folder only you may write (or into your repository) and run skillmem there"
    )


def _loose_modes(read: Mapping[str, tuple[os.stat_result, os.stat_result] | None]) -> list[str]:
    """The file and folder (the keys, each with its lstat and stat as read) to ``chmod go-w`` (as typed from here)
    when this user owns both and only a mode lets others write; none when another user owns either, either could
    not be read, or the folder is a shared one (sticky, as /tmp)."""
    if not hasattr(os, "geteuid"):
        return []
    loose = []
    for name, stats in read.items():
        if stats is None:
            return []
        entry, status = stats
        if entry.st_uid != os.geteuid() or status.st_uid != os.geteuid() or status.st_mode & stat.S_ISVTX:
            return []
        if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            loose.append(command_path(os.path.relpath(name)))
    return loose


def _in_own_repository(folder: str) -> bool:
    """Whether ``folder`` is inside a git work tree whose top folder this user owns (git's safe.directory rule)."""
    return owned_work_tree_top(folder) is not None


def _chosen(flag: Sequence[str] | None, configured: Sequence[str], base: str) -> list[str]:
    return list(flag) if flag else [_rebased(base, path) for path in configured]


def _rebased(base: str, path: str) -> str:
    """A path of the configuration file, as seen from the current folder."""
    if os.path.isabs(path) or base == os.getcwd():
        return path
    return os.path.relpath(os.path.join(base, path))


def _detect_layouts(settings: Settings, base: str) -> None:
    """Fill in whichever of roots and prompt files is not given, from the common layouts."""
    roots = [] if settings.roots else [path for path in _layouts(base, DEFAULT_ROOTS) if os.path.isdir(path)]
    files = (
        [] if settings.prompt_files else [path for path in _layouts(base, DEFAULT_PROMPT_FILES) if os.path.isfile(path)]
    )
    ignored = _ignored_by_git([*roots, *files])
    settings.skipped_prompt_files += [
        {"prompt_file": path, "reason": "git ignores it"} for path in files if path in ignored
    ]
    settings.roots = settings.roots or [path for path in roots if path not in ignored]
    settings.prompt_files = settings.prompt_files or _drop_importers(
        [path for path in files if path not in ignored], settings
    )


def _layouts(base: str, candidates: Sequence[str]) -> list[str]:
    return [_rebased(base, path) for path in candidates]


def _ignored_by_git(paths: list[str]) -> set[str]:
    """Those of the paths git ignores; none when there is no git or no repository."""
    if not paths:
        return set()
    from skillmem_hook.catalog.discovery.git import ignored_paths  # noqa: PLC0415 - route never loads git

    if find_git_dir(os.getcwd()) is None:
        return set()
    try:
        return ignored_paths(paths)
    except UsageError:  # git is not installed: nothing can be ignored by it
        return set()


def _drop_importers(files: list[str], settings: Settings) -> list[str]:
    """Leave out a prompt file that imports another (``@AGENTS.md`` in CLAUDE.md): no agent reads the block twice.

    When every file imports another (each names the other), none is left out:
    the block must land somewhere.
    """
    from skillmem_hook.block.imports import imported_files  # noqa: PLC0415 - a warm route prompt reads none

    importers = {
        path: next((other for other in files if other != path and other in imported_files(path)), None)
        for path in files
    }
    if all(importers.values()):
        return files
    for path, imported in importers.items():
        if imported is not None:
            settings.skipped_prompt_files.append(
                {"prompt_file": path, "reason": f"it imports {imported} (@{os.path.basename(imported)})"}
            )
    return [path for path in files if importers[path] is None]


def require_roots(settings: Settings) -> list[str]:
    return _required(settings, settings.roots, "skills root", "--root DIR", DEFAULT_ROOTS)


def require_prompt_files(settings: Settings) -> list[str]:
    return _required(settings, settings.prompt_files, "prompt file", "--prompt-file FILE", DEFAULT_PROMPT_FILES)


def check_targets(settings: Settings, *, prompt_files: bool) -> None:
    """Refuse, before any write, a file the repository names outside the work tree or in git's folder.

    ``prompt_files``: the prompt files (inject, verify); otherwise the ``write:`` file (index).
    """
    from skillmem_hook.block.targets import check_repository_targets  # noqa: PLC0415 - only the commands that write

    if prompt_files:
        require_prompt_files(settings)
    check_repository_targets(
        settings.repository_targets(prompt_files=prompt_files, write=not prompt_files), settings.base
    )


def leave_out_absent(settings: Settings) -> dict[str, str]:
    """Drop the prompt files absent here that a run here must not ask for, and say why: inject's and verify's reading.

    The hooks' reading (``block/tracking.absent_and_ignored``). One a sparse checkout keeps out of the work tree
    is in the commit as it was, so it is not checked here; and never to be created, since git then drops its
    skip-worktree bit and a ``git commit -a`` would commit the empty file over the committed one. One git
    ignores is a personal file a fresh clone lacks (``AGENTS.md`` in .gitignore and in prompt_files): its note
    says to ``touch`` it once. That one is kept, for the missing file's exit 2, when it would leave no prompt
    file to write or compare: a run that did nothing must not read as done. Only a prompt file absent asks git,
    and a path in the git directory is refused before any ignore rule is read, as the hooks refuse it.
    """
    missing = [path for path in settings.prompt_files if not os.path.lexists(path)]
    if not missing:
        return {}
    from skillmem_hook.block.targets import check_outside_git_directory  # noqa: PLC0415 - only a file absent
    from skillmem_hook.block.tracking import SPARSE, absent_and_ignored, absent_ignored_here  # noqa: PLC0415 - idem

    check_outside_git_directory(settings.repository_targets(write=False), settings.base)
    found = absent_and_ignored(missing)
    if all(path in found for path in settings.prompt_files):  # none would be left: only the sparse ones go
        found = {path: reason for path, reason in found.items() if reason == SPARSE}
    left_out = {path: reason if reason == SPARSE else absent_ignored_here(path) for path, reason in found.items()}
    settings.prompt_files = [path for path in settings.prompt_files if path not in left_out]
    return left_out


def _required(settings: Settings, values: list[str], what: str, flag: str, looked_for: Sequence[str]) -> list[str]:
    if not values:
        from skillmem_hook.setup_hint import first_setup_hint  # noqa: PLC0415 - only the error pays for it

        raise UsageError(
            f"no {what} given, configured or found (looked for {', '.join(looked_for)})",
            f"pass {flag}, " + first_setup_hint(settings.roots, settings.prompt_files, refused=settings.refused),
        )
    return values
