"""The optional extras, ``[semantic]`` and ``[mcp]``: the error when one is missing, with the pip command that fits.

How skillmem was installed decides that command: pip records where a
package came from in its ``direct_url.json`` (PEP 610). A checkout, an
editable one or a wheel on disk gets its own path back with the extra; a
git URL its URL; only a package from an index gets ``skillmem-hook[extra]``.
"""

from __future__ import annotations

import json
import shlex
import sys
from importlib.metadata import PackageNotFoundError, distribution
from urllib.parse import unquote, urlsplit

from skillmem_hook.errors import UsageError

DISTRIBUTION = "skillmem-hook"


def missing_extra(extra: str, needed_by: str, error: ImportError, *, instead: str = "") -> UsageError:
    """The usage error of ``needed_by`` without ``extra``: which module is missing, and how to install the extra.

    Re-raises ``error`` when the module missing is one of skillmem's own: that is a bug, not a missing extra.
    """
    name = error.name or ""
    if name == "skillmem_hook" or name.startswith("skillmem_hook."):
        raise error
    hint = f"install the [{extra}] extra: {install_command(extra)}"
    if extra == "mcp" and sys.version_info < (3, 10):
        hint = f"the [mcp] extra needs Python 3.10 or newer; there, {hint}"
    return UsageError(
        f"{needed_by} needs the [{extra}] extra ({name.split('.')[0] or 'a module of it'} is not installed)",
        f"{hint}{f', or {instead}' if instead else ''}",
    )


def install_command(extra: str) -> str:
    """``pip install`` for skillmem with ``extra``, from where this copy was installed (its ``direct_url.json``)."""
    requirement = _requirement(extra, _direct_url())
    return f"{shlex.quote(sys.executable)} -m pip install {requirement}"


def _direct_url() -> dict[str, object]:
    try:
        text = distribution(DISTRIBUTION).read_text("direct_url.json")
    except PackageNotFoundError:  # run from a source tree, never installed
        return {}
    try:
        found = json.loads(text or "{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _requirement(extra: str, direct: dict[str, object]) -> str:
    """The requirement to pass pip, quoted for a shell."""
    url = direct.get("url")
    if not isinstance(url, str):
        return shlex.quote(f"{DISTRIBUTION}[{extra}]")
    parts = urlsplit(url)
    vcs = direct.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
        commit = vcs.get("commit_id")
        at = f"@{commit}" if isinstance(commit, str) else ""
        return shlex.quote(f"{DISTRIBUTION}[{extra}] @ {vcs['vcs']}+{url}{at}")
    if parts.scheme != "file":
        return shlex.quote(f"{DISTRIBUTION}[{extra}] @ {url}")
    dir_info = direct.get("dir_info")
    editable = isinstance(dir_info, dict) and dir_info.get("editable") is True
    return ("-e " if editable else "") + shlex.quote(f"{unquote(parts.path)}[{extra}]")
