"""Keep an agent prompt file's list of skills true to the skills on disk."""

__version__ = "0.1.0"
