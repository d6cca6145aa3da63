"""Adopting skillmem in a repository: what ``skillmem init`` finds, and the files it edits.

Pure where it can be (``layout``, ``precommit_config``, ``attributes`` take
paths and bytes and return values); ``repository`` is the edge to git and
pre-commit.
"""
