"""The .gitattributes lines that send the prompt files through the merge driver."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.adopt.attributes import add_attributes, attribute_line


def test_a_line_per_prompt_file_anchored_at_the_top():
    assert add_attributes(b"", ["AGENTS.md", "docs/CLAUDE.md"]) == (
        b"/AGENTS.md merge=skillmem\n/docs/CLAUDE.md merge=skillmem\n"
    )


def test_existing_lines_are_kept_and_not_repeated():
    existing = b"*.png binary\r\n/AGENTS.md merge=skillmem\r\n"
    assert add_attributes(existing, ["AGENTS.md"]) == existing
    assert add_attributes(b"*.png binary", ["CLAUDE.md"]) == b"*.png binary\n/CLAUDE.md merge=skillmem\n"
    assert add_attributes(existing, ["CLAUDE.md"]) == existing + b"/CLAUDE.md merge=skillmem\r\n"


def test_a_path_with_a_space_is_quoted():
    assert attribute_line("my docs/AGENTS.md") == '"/my docs/AGENTS.md" merge=skillmem'
    assert attribute_line("./AGENTS.md") == "/AGENTS.md merge=skillmem"


def check_attr(top: Path, paths: list[str]) -> dict[str, str]:
    """git's own reading of the merge attribute for each path (NUL-separated, so any name passes)."""
    data = "".join(f"{path}\0" for path in paths).encode("utf-8", "surrogateescape")
    out = subprocess.run(
        ["git", "-C", str(top), "check-attr", "-z", "--stdin", "merge"], input=data, capture_output=True, check=True
    ).stdout.split(b"\0")
    return {out[i].decode("utf-8", "surrogateescape"): out[i + 2].decode() for i in range(0, len(out) - 2, 3)}


OTHERS = ["README.md", "some/file.c", "AGENTS.md", "x.md", "a", "b.md", "docs/CLAUDE.md", "*", "x"]


@pytest.mark.parametrize(
    "name",
    [
        "x.md\n* merge=skillmem",  # hostile-4's H4-12: a line break made a second line matching every file
        "*.md",
        "[ab].md",
        "?.md",
        "a\\b.md",
        'q"x .md',
        "tab\there.md",
        "cr\r.md",
        "bell\x07.md",
        "sp ace/AGENTS.md",
        "ünï cödé.md",
        "line\u2028sep.md",
        "**/x",
    ],
)
def test_a_line_matches_its_own_file_and_no_other(tmp_path, name):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    line = attribute_line(name)
    assert "\n" not in line and "\r" not in line
    (tmp_path / ".gitattributes").write_bytes(add_attributes(b"", [name]))
    seen = check_attr(tmp_path, [name, *OTHERS])
    assert seen[name] == "skillmem"
    assert all(seen[other] == "unspecified" for other in OTHERS if other != name), seen


@settings(max_examples=60)
@given(
    st.lists(
        st.text(st.characters(blacklist_characters="\0/", blacklist_categories=("Cs",)), min_size=1, max_size=12),
        min_size=1,
        max_size=3,
    ).filter(lambda parts: all(part not in (".", "..") for part in parts))
)
def test_any_name_gets_a_line_matching_only_itself(parts):
    name = "/".join(parts)
    top = Path(tempfile.mkdtemp(prefix="attributes-"))
    try:
        subprocess.run(["git", "init", "-q", str(top)], check=True)
        data = add_attributes(b"", [name])
        (top / ".gitattributes").write_bytes(data)
        assert data.count(b"\n") == 1
        assert add_attributes(data, [name]) == data  # a second run adds nothing
        seen = check_attr(top, [name, *OTHERS])
        assert seen[name] == "skillmem"
        assert all(seen[other] == "unspecified" for other in OTHERS if other != name), (name, seen)
    finally:
        shutil.rmtree(top)
