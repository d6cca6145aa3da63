"""A baseline: the findings a collection had when it adopted lint, so only new ones fail.

A finding is known by its path, code and message (not its line, which moves
with every edit above it), as many times as the baseline lists it. Writing
the baseline records today's findings only, so a fixed finding leaves it.
The file is the repository's content: read size-capped, as a regular file,
and checked; a damaged one is an error that names it, never a traceback.
"""

from __future__ import annotations

import json
import os
from collections import Counter

from skillmem_hook.errors import FileAccessError, UsageError
from skillmem_hook.files import NotARegularFile, read_regular_file
from skillmem_hook.lint.paths import MISSING, OUTSIDE, resolve_inside
from skillmem_hook.visible import command_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence, Set

    from skillmem_hook.lint.rules import Finding

MAX_BASELINE_BYTES = 64 * 1024 * 1024
Key = tuple[str, str, str]
# (here, base): the folder the findings' paths are relative to, and the folder the entries' paths are (the
# configuration's, where the hook reads them); both absolute, so no answer depends on the process's current folder.
Folders = tuple[str, str]


def render_baseline(findings: Sequence[Finding], folders: Folders | None = None) -> bytes:
    """The baseline file's bytes: one entry per finding, sorted, so a rewrite of the same findings is no change.

    ``folders``: the findings' paths are read from its ``here`` and written relative to its ``base``; None: the
    entries' paths are the findings' as they are.
    """
    return render_entries(Counter(_key(finding, folders) for finding in findings))


def render_entries(known: Counter[Key]) -> bytes:
    """The baseline file's bytes for its entries (path, code, message), each as many times as counted."""
    entries = sorted(known.elements())
    rows = [{"path": path, "code": code, "message": message} for path, code, message in entries]
    text = json.dumps({"tool": "skillmem lint", "version": 1, "findings": rows}, ensure_ascii=False, indent=1)
    return (text + "\n").encode("utf-8")


def read_baseline(path: str, boundary: str) -> Counter[Key]:
    """How many times the baseline at ``path`` lists each (path, code, message); read only inside ``boundary``."""
    return read_baseline_file(path, boundary)[2]


def read_baseline_file(path: str, boundary: str) -> tuple[str, bytes, Counter[Key]]:
    """``read_baseline``, with where the file really is (its links followed, inside ``boundary``) and its bytes."""
    real = resolve_inside(boundary, os.path.abspath(path))
    if real == OUTSIDE:
        raise UsageError(f"the lint baseline {path!r} leads out of the repository", "keep the baseline in it")
    hint = rewrite_hint(path)
    try:
        data = read_regular_file(real, MAX_BASELINE_BYTES)
    except FileNotFoundError:
        raise missing_baseline(path) from None
    except NotARegularFile as error:
        raise FileAccessError(f"the lint baseline {path!r} is not a regular file ({error.kind})", hint) from None
    except OSError as error:
        raise FileAccessError(f"cannot read the lint baseline {path!r}: {error.strerror}", hint) from None
    try:
        return real, data, _entries(data)
    except RecursionError:  # a committed file of 100,000 '[' must not read as a bug in skillmem
        raise UsageError(f"the lint baseline {path!r} is damaged (nested too deeply)", hint) from None
    except (ValueError, KeyError, TypeError) as error:
        raise UsageError(f"the lint baseline {path!r} is damaged ({type(error).__name__})", hint) from None


def rewrite_hint(path: str) -> str:
    """The hint of a baseline that cannot be read: the command that writes it again, naming it from here."""
    return f"write it again: skillmem lint --write-baseline {command_path(path)}"


def missing_baseline(path: str) -> UsageError:
    """The error of a configured baseline that is not there; when git ignores it, the rule, since a clone never has
    it and writing it again here mends this checkout only (every fresh clone's skill-lint stopped on it).
    """
    from skillmem_hook.catalog.discovery.git import ignore_rules  # noqa: PLC0415 - only a missing baseline asks git

    try:
        rule = next(iter(ignore_rules([path]).values()), None)
    except UsageError:  # no git: nothing ignores it
        rule = None
    if rule is None:
        return UsageError(f"the lint baseline {path!r} does not exist", rewrite_hint(path))
    return UsageError(
        f"the lint baseline {path!r} does not exist: git ignores it ({rule}), so no clone has it",
        f"un-ignore it (remove or negate that line; git check-ignore -v {command_path(path)} names it), write it"
        f" (skillmem lint --write-baseline {command_path(path)}) and commit it, or keep it out of lint: baseline:",
    )


def parse_baseline(data: bytes) -> Counter[Key] | None:
    """The entries of a baseline's bytes; None for bytes that are not one (what ``--write-baseline`` replaces)."""
    try:
        return _entries(data)
    except (RecursionError, ValueError, KeyError, TypeError):
        return None


def _entries(data: bytes) -> Counter[Key]:
    """How many times a baseline's bytes list each (path, code, message); raises what ``json`` and a bad row raise."""
    rows = json.loads(data.decode("utf-8"))["findings"]
    return Counter((str(row["path"]), str(row["code"]), str(row["message"])) for row in rows)


def split_known(
    findings: Sequence[Finding], known: Counter[Key], folders: Folders | None = None
) -> tuple[list[Finding], int]:
    """(the findings the baseline does not list, how many it does); ``folders`` as ``render_baseline``'s."""
    left = Counter(known)
    new: list[Finding] = []
    for finding in findings:
        key = _key(finding, folders)
        if left[key] > 0:
            left[key] -= 1
        else:
            new.append(finding)
    return new, len(findings) - len(new)


def known_with_another_message(
    new: Sequence[Finding], every: Sequence[Finding], known: Counter[Key], folders: Folders | None = None
) -> list[tuple[Finding, str]]:
    """Each new finding the baseline knows at its path and code with another message (a number in it changed).

    ``new``: what ``split_known`` left of ``every`` (all the run found); ``known``: the whole baseline. Paired with
    the message the baseline holds, so a person sees what changed (SK122's 1736 characters now 1783); each entry
    the run left unmatched pairs once, in the messages' order. ``folders`` as ``render_baseline``'s.
    """
    unmatched = known - Counter(_key(finding, folders) for finding in every)
    spare: dict[tuple[str, str], list[str]] = {}
    for path, code, message in sorted(unmatched.elements()):
        spare.setdefault((path, code), []).append(message)
    left = {place: iter(messages) for place, messages in spare.items()}  # each taken once, first to last
    paired = []
    for finding in new:
        was = next(left.get(_key(finding, folders)[:2], iter(())), None)
        if was is not None:
            paired.append((finding, was))
    return paired


def without_paths(known: Counter[Key], gone: Set[str]) -> Counter[Key]:
    """The baseline's entries less every one of a path in ``gone``: what the hook keeps after a commit deletes them."""
    return Counter({key: count for key, count in known.items() if key[0] not in gone})


def missing_paths(known: Counter[Key], boundary: str) -> list[str]:
    """The paths the baseline lists that name no file (renamed or removed since): their findings match nothing.

    Read as the baseline's paths are, relative to ``boundary`` (the folder of .skillmem.yaml, where the hook runs),
    whatever the current folder; each resolved by ``resolve_inside``, so a link on the way that leaves the
    boundary is never followed (what lies outside is not told by what is said gone). The folders the paths
    share are statted once for all of them.
    """
    gone = []
    walked: list[str] = []
    for path in sorted({path for path, _, _ in known if path and not os.path.isabs(path)}):
        if resolve_inside(boundary, os.path.join(boundary, path), walked) == MISSING:
            gone.append(path)
    return gone


def _key(finding: Finding, folders: Folders | None = None) -> Key:
    return (_from_base(finding.path, folders).replace("\\", "/"), finding.code, finding.message)


def _from_base(path: str, folders: Folders | None) -> str:
    """``path`` (relative to ``here``, or absolute) as read from ``base``; unchanged for no folders."""
    if folders is None:
        return path
    here, base = folders
    try:
        return os.path.relpath(os.path.join(here, path), base)
    except ValueError:  # on Windows, another drive: no path from base leads there
        return path
