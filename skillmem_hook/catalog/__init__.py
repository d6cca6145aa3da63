"""What skills exist: find SKILL.md files, read their frontmatter, sort them into domains."""
