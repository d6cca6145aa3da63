"""Placing skills in domains: the fixed domain table, the weighted rule that reads it, and the
repository's overrides and exclusions."""
