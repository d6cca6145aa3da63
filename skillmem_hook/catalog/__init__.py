"""What skills exist, in four jobs and an assembly.

- ``skillfile/``: reading one SKILL.md (frontmatter, names, title, search sections).
- ``discovery/``: finding the SKILL.md files, on disk or in git's index.
- ``store/``: remembering what was read (content cache, catalog snapshot), the stamps that
  tell whether the disk changed since, and where every kept file lives.
- ``placement/``: placing each skill in a domain.
- ``skills``, ``catalog`` and ``scan`` here assemble them: a ``Skill`` per file, a ``Catalog`` of
  them, and ``scan_roots``, the one call the rest of the package makes; ``listing`` (each root's
  files, in git's view or the file system's) and ``reading`` (what each declares, through the
  cache) are its two steps.
"""

SKILL_FILE = "SKILL.md"  # the file that makes a folder a skill: the name every wing looks for
