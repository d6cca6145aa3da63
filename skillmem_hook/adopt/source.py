"""Where ``skillmem init`` pins the hooks: the checkout or the release skillmem itself was installed from.

pip records where a package came from (PEP 610: ``direct_url.json`` in its
dist-info). Installed from a folder that is a git checkout (``pip install
PATH``, editable or not), the hooks are pinned to that checkout's HEAD
commit: at its remote when the commit is on one of the remote's branches,
so a clone elsewhere can fetch it, else at the checkout's own path, which
only this machine can fetch. Installed from a git URL, at the commit pip
recorded. Installed from a release (a registry, a wheel or an sdist), at
the release's tag, ``v`` and the version.
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import unquote, urlsplit, urlunsplit
from urllib.request import url2pathname

from skillmem_hook.catalog.discovery.git import run_git
from skillmem_hook.extras import DISTRIBUTION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

# The package's own repository: a release's tag is fetched from there.
SOURCE_URL = "https://github.com/skillmem/skillmem-hook"
_SCP_LIKE = re.compile(r"^[^/:@]+@[^/:]+:")  # git@github.com:owner/name.git


class HookSource:
    """The ``repo:`` and ``rev:`` to pin, and what a person should know about them."""

    __slots__ = ("notes", "repo", "rev")

    def __init__(self, repo: str, rev: str, notes: Sequence[str] = ()) -> None:
        self.repo = repo
        self.rev = rev
        self.notes = list(notes)


def installed_source(version: str, path: Sequence[str] | None = None) -> HookSource:
    """The source of the running skillmem, from its dist-info (found on ``path``, default ``sys.path``)."""
    return source_from_direct_url(_direct_url(version, path), version)


def _direct_url(version: str, path: Sequence[str] | None) -> dict[str, object] | None:
    """The direct_url.json of this version's distribution; None when pip recorded none (a registry install).

    The first of this version that holds one: a stale ``*.egg-info`` in the
    current folder (a checkout's own) records nothing and must not hide it.
    """
    from importlib.metadata import distributions  # noqa: PLC0415 - only init asks where skillmem came from

    found = distributions(name=DISTRIBUTION) if path is None else distributions(name=DISTRIBUTION, path=list(path))
    texts = (dist.read_text("direct_url.json") for dist in found if dist.version == version)
    text = next((text for text in texts if text), None)
    try:
        value = json.loads(text) if text else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def source_from_direct_url(direct_url: dict[str, object] | None, version: str) -> HookSource:
    """The source a ``direct_url.json`` (None: a registry install, or none recorded) leads to."""
    release = HookSource(SOURCE_URL, f"v{version}")
    url = direct_url.get("url") if direct_url else None
    if not isinstance(url, str) or direct_url is None:
        return release
    vcs = direct_url.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and isinstance(vcs.get("commit_id"), str):
        return HookSource(_local_path(url) or _without_credentials(url), str(vcs["commit_id"]))
    folder = _local_path(url)
    if isinstance(direct_url.get("dir_info"), dict) and folder is not None:
        return checkout_source(folder, version)
    release.notes.append(f"skillmem was installed from {url}, not from a git checkout: {_pinned_to_tag(release)}")
    return release


def checkout_source(folder: str, version: str) -> HookSource:
    """The checkout's HEAD: at its remote when one of the remote's branches holds it, else at its path."""
    head = _git_line(folder, "rev-parse", "--verify", "HEAD^{commit}")
    if head is None:
        release = HookSource(SOURCE_URL, f"v{version}")
        release.notes.append(
            f"skillmem was installed from {folder}, which is not a git checkout: {_pinned_to_tag(release)}"
        )
        return release
    top = _git_line(folder, "rev-parse", "--show-toplevel") or folder
    remote, branch = _remote_holding(top, head)
    short = head[:12]
    if remote is not None:
        # A remote that is a folder (a clone of a clone, file://) is fetched by this machine alone.
        reach = "a clone elsewhere fetches it there"
        if os.path.isabs(remote):
            reach = f"only this machine can fetch it there ({_repin(head)})"
        source = HookSource(
            remote,
            head,
            [
                f"the hooks are pinned to {remote} at {short}, the commit skillmem was"
                f" installed from ({top}): {branch} holds it, so {reach}"
            ],
        )
    else:
        source = HookSource(
            top,
            head,
            [
                f"the hooks are pinned to the checkout {top} at {short}, the commit skillmem"
                f" was installed from: no remote branch holds it, so only this machine can fetch it ({_repin(head)})"
            ],
        )
    if _git_line(top, "status", "--porcelain", "--ignore-submodules=all") not in (None, ""):  # no submodule's filter
        source.notes.append(
            f"{top} has uncommitted changes: the hooks run its commit {short}, not the files"
            " installed (commit them, then: skillmem init --force)"
        )
    return source


def _repin(head: str) -> str:
    """How a team's clones fetch the hooks: this commit at a URL they reach. With --repo alone, init pins the tag."""
    return f"for a team, push it where they fetch, then: skillmem init --force --repo URL --rev {head}"


def _remote_holding(top: str, head: str) -> tuple[str | None, str]:
    """(the fetchable URL of a remote whose branch holds ``head``, that branch), or (None, '')."""
    code, out = run_git(
        ["-C", top, "for-each-ref", "--contains", head, "--format=%(refname:lstrip=2)", "refs/remotes/"]
    )
    branches = (
        [line for line in os.fsdecode(out).splitlines() if line and not line.endswith("/HEAD")] if code == 0 else []
    )
    for branch in branches:
        url = _git_line(top, "remote", "get-url", branch.split("/", 1)[0])
        fetchable = _fetchable(top, url) if url else None
        if fetchable is not None:
            return fetchable, branch
    return None, ""


def _fetchable(top: str, url: str) -> str | None:
    """The URL as a clone elsewhere would fetch it: a relative path made absolute, credentials dropped."""
    if "://" in url or _SCP_LIKE.match(url):
        local = _local_path(url)
        if local is not None:
            return local if os.path.isdir(local) else None
        return _without_credentials(url)
    folder = os.path.normpath(os.path.join(top, url))
    return folder if os.path.isdir(folder) else None


def _local_path(url: str) -> str | None:
    """The folder a ``file://`` URL names; None for any other URL."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    return os.path.normpath(url2pathname(unquote(parts.path)))


def _without_credentials(url: str) -> str:
    """An http(s) URL without its user and password: the config is committed, a token must not be."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def _pinned_to_tag(source: HookSource) -> str:
    return f"the hooks are pinned to the tag {source.rev} of {source.repo}"


def _git_line(folder: str, *args: str) -> str | None:
    code, out = run_git(["-C", folder, *args])
    return os.fsdecode(out).strip() if code == 0 else None
