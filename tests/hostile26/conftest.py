"""Helpers for the hostile26 tests: real `skillmem route` processes on real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ROUTE = [sys.executable, "-m", "skillmem_hook", "route"]


def route_input(prompt, cwd):
    return json.dumps({"prompt": prompt, "cwd": str(cwd), "hook_event_name": "UserPromptSubmit"}).encode()


def run_route(prompt, cwd, env, *flags, timeout=120):
    """One real hook process; the hook must always exit 0."""
    result = subprocess.run(
        [*ROUTE, *flags], input=route_input(prompt, cwd), capture_output=True, env=env, timeout=timeout
    )
    assert result.returncode == 0, result.stderr
    return result


def hint_of(result):
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"] if result.stdout else ""


def fresh_settings(cwd):
    """What load_settings gives in ``cwd`` (in a child, so this process's cwd and modules stay as they are)."""
    code = (
        "import json, os, sys; os.chdir(sys.argv[1]); from skillmem_hook.config import load_settings;"
        "s = load_settings(); print(json.dumps({'config': s.config_path, 'roots': s.roots, 'exclude': s.exclude}))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(cwd)], capture_output=True, check=True).stdout
    return json.loads(out)


@pytest.fixture
def env(tmp_path):
    return {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg-cache")}
