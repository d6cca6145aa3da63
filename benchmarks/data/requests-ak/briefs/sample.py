"""Sample skills from a collection root for isolated request writers: name, description, body opening.

    python3 sample.py ROOT SEED N OUT_PREFIX

Writes OUT_PREFIX-en.md and OUT_PREFIX-zh.md, N skills each, drawn without overlap (set AK: seed 20261207, N 35).
"""

import os
import random
import sys

import yaml


def skills_under(root: str) -> list[tuple[str, str, str]]:
    """Each SKILL.md's name, description and the first 900 characters of its body, in path order."""
    files = sorted(os.path.join(folder, "SKILL.md") for folder, _, names in os.walk(root) if "SKILL.md" in names)
    found = []
    for file in files:
        with open(file, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        if not text.startswith("---"):
            continue
        _, frontmatter, body = text.split("---", 2)
        try:
            meta = yaml.safe_load(frontmatter)
        except yaml.YAMLError:
            continue
        if isinstance(meta, dict) and meta.get("name") and meta.get("description"):
            found.append((str(meta["name"]), str(meta["description"]), body.strip()[:900]))
    return found


def main() -> None:
    root, seed, count, prefix = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    skills = skills_under(root)
    picked = random.Random(seed).sample(skills, 2 * count)
    for language, part in (("en", picked[:count]), ("zh", picked[count:])):
        with open(f"{prefix}-{language}.md", "w", encoding="utf-8") as out:
            for name, description, body in part:
                out.write(f"=== SKILL: {name} ===\n\n**description:** {description}\n\n")
                out.write(f"**body opening:**\n\n{body}\n\n=== END OF SKILL {name} ===\n\n")
    print(len(skills), "skills;", count, "each")


if __name__ == "__main__":
    main()
