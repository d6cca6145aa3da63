"""Fixtures of the catalog's tests."""

from __future__ import annotations

import pytest

from ..helpers import isolate_git


@pytest.fixture
def git_identity(monkeypatch, tmp_path):
    """A git with an identity that reads no configuration of the machine's (HOME is the test's folder)."""
    isolate_git(monkeypatch, tmp_path)
