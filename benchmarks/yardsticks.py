"""The outside yardsticks of benchmarks/hooks.py: openskills 1.5.0 and pre-commit's own start-up.

openskills (``dist/cli.js`` of 1.5.0) finds skills one level deep in
``.agent/skills/`` and ``.claude/skills/`` of the current folder and of the
home folder, reads each whole ``SKILL.md`` and writes a ``<skills_system>``
section into AGENTS.md. So the benchmark lays the same skills there as hard
links (a second name for the same bytes), points HOME at an empty folder,
and keeps ``.claude/`` out of git's index through ``.git/info/exclude``, so
the index the hook reads is the same with or without the yardstick.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

OPENSKILLS = "openskills@1.5.0"
SKIP_ENV = "SKILLMEM_BENCH_NO_NPM"  # set to 1 to skip the openskills column even when npm is present

# pre-commit's overhead, one yardstick (benchmarks/README.md, "pre-commit's overhead: the method"): the hook
# as a user's pre-commit installs it (language: python, built from this checkout into pre-commit's own
# environment, bytecode written by pip) beside a language: python no-op. Both then pay what pre-commit does for
# any python hook (two `python -S` runs checking its environment), so the ratio is the hook's own cost. The
# `language: system` hook (this checkout's console script) is the row 0.3.0 measured, kept for comparison.
PRE_COMMIT_CONFIG = """\
repos:
- repo: local
  hooks:
  - id: skill-verify
    name: skill index (verify, read-only), installed as pre-commit installs it
    entry: skillmem-verify-hook
    args: [--root, skills, --prompt-file, AGENTS.md]
    language: python
    additional_dependencies: [{checkout}]
    pass_filenames: false
    always_run: true
    require_serial: true
  - id: skill-verify-system
    name: skill index (verify, read-only), this checkout's script
    entry: {hook}
    args: [--root, skills, --prompt-file, AGENTS.md]
    language: system
    pass_filenames: false
    always_run: true
    require_serial: true
  - id: noop
    name: no-op python hook
    entry: python -c pass
    language: python
    pass_filenames: false
    always_run: true
"""
CHECKOUT = Path(__file__).resolve().parent.parent


def install_openskills(prefix: Path) -> tuple[str | None, str]:
    """The openskills command installed into ``prefix``, or None and why it is skipped."""
    if os.environ.get(SKIP_ENV):
        return None, f"skipped: {SKIP_ENV} is set"
    npm = shutil.which("npm")
    if npm is None:
        return None, "skipped: npm is not on PATH"
    command = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", OPENSKILLS]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    script = prefix / "node_modules" / "openskills" / "dist" / "cli.js"
    node = shutil.which("node")
    if result.returncode != 0 or not script.exists() or node is None:
        return None, "skipped: npm install failed: " + (result.stderr.strip().splitlines() or ["?"])[-1]
    return f"{node} {script}", OPENSKILLS


def lay_out_for_openskills(repo: Path, root: Path) -> None:
    """Hard-link every SKILL.md below ``root`` into ``repo/.claude/skills/<folder>/``, where openskills reads."""
    target = repo / ".claude" / "skills"
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        if "SKILL.md" in files:
            linked = target / os.path.basename(folder)
            linked.mkdir(parents=True)
            os.link(os.path.join(folder, "SKILL.md"), linked / "SKILL.md")
    with open(repo / ".git" / "info" / "exclude", "a", encoding="utf-8") as exclude:
        exclude.write("/.claude/\n")


def openskills_env(home: Path) -> dict[str, str]:
    """An environment whose home holds no skills, so openskills reads only this repository's."""
    home.mkdir(exist_ok=True)
    return {**os.environ, "HOME": str(home), "NO_COLOR": "1"}


def write_pre_commit_config(repo: Path, hook: str) -> None:
    config = PRE_COMMIT_CONFIG.format(hook=hook, checkout=CHECKOUT)
    (repo / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")


def timing_env(env: dict[str, str]) -> dict[str, str]:
    """The environment for timed runs: bytecode may be written, as on a user's machine.

    With PYTHONDONTWRITEBYTECODE set, an editable install (no bytecode of its own) compiles every module on
    every run: the hook then costs 2.5 times its instructions (547 against 217 million at 100 skills).
    """
    return {key: value for key, value in env.items() if key != "PYTHONDONTWRITEBYTECODE"}
