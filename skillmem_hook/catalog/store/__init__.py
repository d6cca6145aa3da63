"""Remembering what was read: the content cache keyed by blob id or stat, and the snapshot of a
whole catalog keyed by git's listing. Both live in the git directory and are rebuilt when damaged."""
