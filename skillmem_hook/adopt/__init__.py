"""Adopting skillmem in a repository: what ``skillmem init`` finds, and the files it edits.

Pure where it can be (``precommit_config`` and ``attributes`` take bytes
and return values); ``repository`` is the edge to git and pre-commit. Where
skills are kept (``catalog/discovery/layout``) and the hint of a first setup
without init (``setup_hint``) are below config, which both serve.
"""
