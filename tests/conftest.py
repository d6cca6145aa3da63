from __future__ import annotations

import os

import pytest
from hypothesis import settings

# Enough examples to mean something within CI's time (SKILLMEM_HYPOTHESIS_EXAMPLES
# raises it). In CI the examples are derandomised, so a red run is reproducible
# and never a roll of the dice; local runs keep exploring new examples.
settings.register_profile(
    "default",
    max_examples=int(os.environ.get("SKILLMEM_HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _in_tmp_cwd(tmp_path, monkeypatch):
    """Run each test from an empty folder, so no .skillmem.yaml or layout leaks in."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)


@pytest.fixture(autouse=True)
def _private_user_cache(tmp_path, monkeypatch):
    """The user's cache folder (search and route indexes) is the test's own, never the machine's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
