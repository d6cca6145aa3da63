"""Reading one SKILL.md: its frontmatter (strict YAML, then a lenient reader), the declared name
and description, the name rules, the body's title and search sections. Bytes in, values out; no
file system beyond the one file's head."""
