"""Remembering what was read: the content cache keyed by blob id or stat, and the snapshot of a
whole catalog keyed by git's listing. Both live in the git directory and are rebuilt when damaged.
Beside them, the stamps (``stamps``): the stats of the skill folders, which tell a kept index
whether the disk still holds what it was built from; and where every kept file lives (``locations``)."""
