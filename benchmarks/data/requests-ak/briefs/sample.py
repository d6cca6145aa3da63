"""Sample skills from a collection root for isolated request writers: name, description, body opening."""
import os, random, sys, yaml
root, seed, n, out_prefix = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
files = []
for d, _, fs in os.walk(root):
    if "SKILL.md" in fs:
        files.append(os.path.join(d, "SKILL.md"))
files.sort()
skills = []
for f in files:
    text = open(f, encoding="utf-8", errors="replace").read()
    if not text.startswith("---"):
        continue
    _, fm, body = text.split("---", 2)
    try:
        meta = yaml.safe_load(fm)
    except Exception:
        continue
    if not isinstance(meta, dict) or not meta.get("name") or not meta.get("description"):
        continue
    skills.append((str(meta["name"]), str(meta["description"]), body.strip()[:900]))
rng = random.Random(seed)
picked = rng.sample(skills, 2 * n)
for k, part in (("en", picked[:n]), ("zh", picked[n:])):
    with open(f"{out_prefix}-{k}.md", "w", encoding="utf-8") as out:
        for name, desc, body in part:
            out.write(f"=== SKILL: {name} ===\n\n**description:** {desc}\n\n**body opening:**\n\n{body}\n\n=== END OF SKILL {name} ===\n\n")
print(len(skills), "skills;", n, "each")
