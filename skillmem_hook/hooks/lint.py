"""The pre-commit hook ``skill-lint``: its options; its work is ``commands.lint.lint_hook_run``, beside lint's."""

from __future__ import annotations

from skillmem_hook.arguments import add_location_options, read_hook_options
from skillmem_hook.commands.lint import lint_hook_run
from skillmem_hook.config import load_settings
from skillmem_hook.errors import EXIT_OK
from skillmem_hook.report import run_reporting_errors

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def skill_lint(argv: Sequence[str] | None = None) -> int:
    """Lint the SKILL.md files pre-commit passes (every skill with none); exit 1 on any error finding."""
    return run_reporting_errors(lambda: "skill-lint", lambda: _run_lint(argv), human=True)


def _run_lint(argv: Sequence[str] | None) -> int:
    def declare(parser: argparse.ArgumentParser) -> None:
        add_location_options(parser, prompt_files=False)
        parser.add_argument("--all", action="store_true", help="lint every skill of the roots, whatever changed")
        parser.add_argument("--fix", action="store_true", help="make the mechanical fixes (see 'skillmem lint --fix')")
        parser.add_argument("filenames", nargs="*", help="SKILL.md files (pre-commit passes the staged ones)")

    description = "Check skills against the Agent Skills spec."
    options = read_hook_options(declare, argv, prog="skill-lint", description=description)
    if options is None:
        return EXIT_OK
    return lint_hook_run(options.filenames, load_settings(options.root), everything=options.all, fix=options.fix)
