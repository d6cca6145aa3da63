"""The files whose change can change a catalog: the ``.skillmem.yaml`` files config's search looks at, and more."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillmem_hook.config import find_config
from skillmem_hook.decisive import decisive_files

from .helpers import make_git_dir


@pytest.mark.parametrize("dot_git", ["fifo", "other text", "folder", "git directory", "gitdir: elsewhere"])
def test_the_configs_stamped_are_those_config_looks_at_past_a_git_that_is_none(dot_git):
    """fixh13: decisive_files stopped at anything named .git (a FIFO), where config's search goes on above it
    (fixh10's one rule): a .skillmem.yaml written above then changed the catalog and no stamp saw it."""
    make_git_dir(Path("repo/.git"))
    Path("repo/team").mkdir()
    dot = Path("repo/team/.git")
    if dot_git == "fifo":
        os.mkfifo(dot)
    elif dot_git == "folder":
        dot.mkdir()  # fixh19: no git directory (mkdir .git), so git, and config's search, go on above it
    elif dot_git == "git directory":
        make_git_dir(dot)
    else:
        dot.write_text(dot_git + "\n")
    Path("repo/.skillmem.yaml").write_text("roots: [skills]\n")
    above = os.path.abspath("repo/.skillmem.yaml")
    stops_at_team = dot_git in {"git directory", "gitdir: elsewhere"}
    assert (above in decisive_files("repo/team", tracked=False)) is not stops_at_team
    assert (find_config(os.path.abspath("repo/team"))[0] is not None) is not stops_at_team  # the same folders
