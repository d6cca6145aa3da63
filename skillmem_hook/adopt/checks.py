"""What ``skillmem init`` refuses before it writes a byte: a repository's content is untrusted.

A root outside the repository (the block would list this machine's skills),
a prompt file git ignores (the block would never be committed), a prompt
file that is, or leads to, one of the files init writes itself, and two
changes that land on one file: each is exit 2, all decided before the first
write, so a refusal leaves the repository as it was.
"""

from __future__ import annotations

import os

from skillmem_hook.catalog.discovery.git import ignore_rules as git_ignore_rules
from skillmem_hook.config_file import CONFIG_FILE
from skillmem_hook.errors import FileAccessError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def is_inside(top: str, path: str) -> bool:
    """True when ``path`` (relative to ``top``, or absolute) resolves inside ``top``, links followed."""
    real_top = os.path.realpath(top)
    real = os.path.realpath(os.path.join(top, path))
    return os.path.commonpath([real_top, real]) == real_top


def check_roots_inside(top: str, roots: Sequence[str]) -> None:
    """A root outside the repository would put this machine's skills in a committed block: refused."""
    outside = [root for root in roots if not is_inside(top, root)]
    if outside:
        named = ", ".join(repr(root) for root in outside)
        raise UsageError(
            f"the skills root {named} in {CONFIG_FILE} lies outside the repository: the block init writes would list"
            " this machine's skills, which a clone does not have",
            f"name folders inside the repository under roots: in {CONFIG_FILE} (or drop the roots: key to let"
            " init find them), then run skillmem init again",
        )


def ignore_rules(top: str, paths: Sequence[str]) -> dict[str, str]:
    """For each path git ignores (and does not track), the rule: ``.gitignore:15:AGENTS.md``."""
    return git_ignore_rules(paths, top)


def check_not_ignored(top: str, prompt_files: Sequence[str]) -> None:
    """A prompt file git ignores would never reach a commit, and the hooks would check nothing: refused."""
    rules = ignore_rules(top, prompt_files)
    if rules:
        raise ignored_prompt_files_error(rules)


def ignored_prompt_files_error(rules: dict[str, str], *, configured: bool = False) -> UsageError:
    """Exit 2 before any write, naming each ignore rule and the two ways on (``configured``: every prompt file
    .skillmem.yaml names is ignored, so the way on is that file's key, which init never rewrites)."""
    named = " and ".join(f"{path} ({rule})" for path, rule in rules.items())
    other = (
        f"or name one git commits under prompt_files: in {CONFIG_FILE}"
        if configured
        else "or choose one git commits: skillmem init --prompt-file FILE"
    )
    return UsageError(
        f"git ignores {named}, so a block init wrote there would never be committed",
        "un-ignore the prompt file (remove or negate that line of the ignore file; git check-ignore -v FILE names it),"
        f" {other}",
    )


def check_not_own_file(top: str, prompt_file: str, own_files: Sequence[str]) -> None:
    """A prompt file that is, or leads to, a file init writes itself: two changes to one file cannot both land."""
    real = os.path.realpath(os.path.join(top, prompt_file))
    for own in own_files:
        if real != os.path.realpath(os.path.join(top, own)):
            continue
        if os.path.normpath(prompt_file) == own:
            raise UsageError(
                f"{prompt_file} cannot also be a prompt file: skillmem init writes it itself",
                f"name AGENTS.md or CLAUDE.md under prompt_files in {CONFIG_FILE}, then run skillmem init again",
            )
        raise UsageError(
            f"the prompt file {prompt_file} leads to {own}, which skillmem init writes itself",
            f"make {prompt_file} a file of its own, or choose another prompt file: skillmem init --prompt-file FILE",
        )


def check_prompt_file_inside(top: str, path: str) -> None:
    """A prompt file (or the link it is) must lead to a file inside the work tree."""
    if not is_inside(top, path):
        raise FileAccessError(
            f"the prompt file {path!r} leads outside the repository",
            f"skillmem init writes only inside the repository: make {path} a file of its own, or name another one",
        )


def check_distinct_targets(top: str, paths: Sequence[str]) -> None:
    """Two of init's changes landing on one file (through a link) could not both be written: refused first."""
    seen: dict[str, str] = {}
    for path in paths:
        real = os.path.realpath(os.path.join(top, path))
        if real in seen:
            raise UsageError(
                f"{path} and {seen[real]} are one file: skillmem init would change it twice",
                "keep one of them in prompt_files (a link to the other is read through it), then run init again",
            )
        seen[real] = path
