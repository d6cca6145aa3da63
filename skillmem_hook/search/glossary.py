"""A Chinese-English glossary of software work, for query expansion across languages."""

from __future__ import annotations


def expand(intent: str) -> list[str]:
    return []
