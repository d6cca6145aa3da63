"""Issue 17 item 14: a file or link that disappears at any step of the scan is absent, never a crash.

A concurrent ``git checkout`` can remove a link between any two system calls
of the walk; each call that touches the link is made, in turn, the one after
which it is gone.
"""

from __future__ import annotations

import os

import pytest

from skillmem_hook.catalog.discovery import walk as walk_module
from skillmem_hook.catalog.discovery.walk import find_skill_files
from skillmem_hook.catalog.scan import scan_roots

from ...helpers import skill_md, write_skill

_CALLS = ("stat", "lstat", "scandir", "readlink")


def _vanish_at(monkeypatch, name: bytes, step: int) -> list[int]:
    """Remove the entry ``name`` just before the ``step``-th call that touches it; the count of calls made."""
    calls = [0]

    def wrap(function):
        def wrapped(path, *args, **kwargs):
            if isinstance(path, (str, bytes)) and os.fsencode(path).endswith(name):
                calls[0] += 1
                if calls[0] == step and os.path.lexists(path):
                    os.unlink(path)
            return function(path, *args, **kwargs)

        return wrapped

    for call in _CALLS:
        monkeypatch.setattr(walk_module.os, call, wrap(getattr(os, call)))
    return calls


@pytest.mark.parametrize("step", range(1, 9))
@pytest.mark.parametrize("kind", ["folder link", "skill link"])
def test_a_link_removed_before_any_step_of_the_walk_is_absent(tmp_path, monkeypatch, step, kind):
    write_skill(tmp_path, "kept", skill_md("kept"))
    if kind == "folder link":
        (tmp_path / "gone").symlink_to(tmp_path / "kept")
        name = b"/gone"
    else:
        (tmp_path / "linked").mkdir()
        (tmp_path / "linked" / "SKILL.md").symlink_to(tmp_path / "kept" / "SKILL.md")
        name = b"/linked/SKILL.md"
    _vanish_at(monkeypatch, name, step)
    found, skipped = find_skill_files(str(tmp_path))
    assert "kept" in [item.relative for item in found]
    assert not [reason for _, reason in skipped if "regular file" in reason or "cannot" in reason]
    monkeypatch.undo()
    os.chdir(tmp_path)
    assert "kept" in [skill.name for skill in scan_roots(["."]).skills]
