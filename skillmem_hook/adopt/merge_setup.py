"""Whether this clone sends a prompt file through skillmem's merge driver, and the git config line that sets it up.

git config is not committed, so a teammate's clone merges the block as
text, and it conflicts; the hooks rebuild it, and this says how to have the
next merge rebuild it by itself. Asked only when a block held a conflict.
"""

from __future__ import annotations

import shlex
import sys

from skillmem_hook.adopt.attributes import DRIVER, attribute_line, driver_command
from skillmem_hook.catalog.discovery.git import run_git
from skillmem_hook.visible import visible


def driver_setup_lines(path: str) -> list[str]:
    """The report's lines on setting up the merge driver for ``path``; none when this clone has it."""
    code, out = run_git(["config", "--get", f"merge.{DRIVER}.driver"], literal=False)
    if code == 0 and out.strip():
        return []
    # The interpreter running this hook imports skillmem; once it cannot, the driver falls back to git's text merge.
    command = f"git config merge.{DRIVER}.driver {shlex.quote(driver_command(sys.executable))}"
    lines = ["  so that the next merge rebuilds the block itself, set up the merge driver once in this clone:"]
    lines.append(f"    {visible(command)}")
    if not _routed(path):
        lines.append(f"    and send the file through it: add the line {attribute_line(path)!r} to .gitattributes")
    return lines


def _routed(path: str) -> bool:
    """True when .gitattributes gives ``path`` the ``merge=skillmem`` attribute."""
    code, out = run_git(["check-attr", "-z", "merge", "--", path])
    fields = out.split(b"\0")
    return code == 0 and len(fields) >= 3 and fields[2] == DRIVER.encode()
