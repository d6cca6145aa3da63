"""Rank skills for a user's words: a catalog in, ranked skills out; no I/O."""
