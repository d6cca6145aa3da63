"""A missing extra is a usage error (exit 2) naming the pip command that fits how skillmem was installed.

Run for real in a fresh virtual environment holding skillmem and PyYAML
only, installed by pip from a copy of this checkout (as a tester installs
it), so that what pip records (PEP 610's ``direct_url.json``) is what the
hint is read from.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv

import pytest

from skillmem_hook.extras import _requirement

from .helpers import REPO, seed_tree

# What pip needs to build the package: the rest of the checkout (tests, docs) is not part of it.
BUILT_FROM = ("pyproject.toml", "setup.cfg", "README.md", "LICENSE", "skillmem_hook")


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """A venv with skillmem installed from a checkout with --no-deps, and PyYAML: no extra. Its python and checkout."""
    folder = tmp_path_factory.mktemp("plain")
    checkout = folder / "skillmem-hook"
    checkout.mkdir()
    for name in BUILT_FROM:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, checkout / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, checkout / name)
    venv.EnvBuilder(with_pip=True).create(folder / "venv")
    python = folder / "venv" / "bin" / "python"
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", str(checkout), "PyYAML"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if install.returncode != 0:
        pytest.skip(f"pip could not install into a fresh venv (no package index?): {install.stderr[-300:]}")
    seed_tree(folder / "work" / "skills")
    return python, checkout, folder / "work"


def run_plain(plain, *args):
    python, _, work = plain
    script = python.parent / "skillmem"
    return subprocess.run([script, *args], cwd=work, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("command", [["search", "--semantic", "csv"], ["eval", "--semantic", "questions.jsonl"]])
def test_semantic_without_the_extra_is_exit_2_with_the_checkout_s_install_command(plain, command):
    python, checkout, work = plain
    (work / "questions.jsonl").write_text('{"query": "parse csv", "expect": ["alpha-tool"]}\n')
    result = run_plain(plain, command[0], "--root", "skills", *command[1:])
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    error = json.loads(result.stderr)
    assert error["tool"] == f"skillmem {command[0]}"
    assert error["error"] == "the semantic leg needs the [semantic] extra (numpy is not installed)"
    assert error["hint"] == (
        f"install the [semantic] extra: {python} -m pip install '{checkout}[semantic]', or run without --semantic"
    )


def test_mcp_without_the_extra_is_exit_2_with_the_checkout_s_install_command(plain):
    python, checkout, _ = plain
    result = run_plain(plain, "mcp", "--root", "skills")
    assert result.returncode == 2, result.stderr
    error = json.loads(result.stderr)
    assert "this is a bug" not in error["hint"]
    assert error["error"].startswith("the MCP server needs the [mcp] extra (")
    expected = f"install the [mcp] extra: {python} -m pip install '{checkout}[mcp]'"
    if sys.version_info < (3, 10):
        expected = f"the [mcp] extra needs Python 3.10 or newer; there, {expected}"
    assert error["hint"] == expected


def test_the_hint_on_a_terminal_is_a_person_s_line(plain):
    result = run_plain(plain, "search", "--text", "--semantic", "--root", "skills", "csv")
    assert result.returncode == 2
    assert result.stderr.startswith("skillmem search: the semantic leg needs the [semantic] extra (numpy")
    assert "unexpected error" not in result.stderr


# PEP 610's examples of direct_url.json, and the requirement each install gets back.
@pytest.mark.parametrize(
    ("direct", "requirement"),
    [
        ({}, "'skillmem-hook[semantic]'"),
        ({"url": "file:///home/me/skillmem-hook", "dir_info": {}}, "'/home/me/skillmem-hook[semantic]'"),
        (
            {"url": "file:///home/me/skill%20mem", "dir_info": {"editable": True}},
            "-e '/home/me/skill mem[semantic]'",
        ),
        (
            {"url": "file:///tmp/skillmem_hook-0.5.0-py3-none-any.whl", "archive_info": {}},
            "'/tmp/skillmem_hook-0.5.0-py3-none-any.whl[semantic]'",
        ),
        (
            {"url": "https://github.com/skillmem/skillmem-hook", "vcs_info": {"vcs": "git", "commit_id": "abc123"}},
            "'skillmem-hook[semantic] @ git+https://github.com/skillmem/skillmem-hook@abc123'",
        ),
        (
            {"url": "https://example.org/skillmem_hook-0.5.0.tar.gz", "archive_info": {}},
            "'skillmem-hook[semantic] @ https://example.org/skillmem_hook-0.5.0.tar.gz'",
        ),
    ],
)
def test_the_requirement_follows_how_pip_installed_skillmem(direct, requirement):
    assert _requirement("semantic", direct) == requirement
