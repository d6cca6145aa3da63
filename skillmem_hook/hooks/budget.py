"""The pre-commit hook ``skill-budget``: fail when an agent's native listing would lose a skill (``budget --check``)."""

from __future__ import annotations

import sys

from skillmem_hook.arguments import SUPPRESS, add_budget_options, add_location_options, read_hook_options
from skillmem_hook.commands.budget import describe_budget, has_losses, replay_budget
from skillmem_hook.config import load_settings
from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK
from skillmem_hook.report import run_reporting_errors
from skillmem_hook.streams import write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def skill_budget(argv: Sequence[str] | None = None) -> int:
    """Exit 1 when a configured agent would drop, cut or not discover a skill natively (``skillmem budget --check``)."""
    return run_reporting_errors(lambda: "skill-budget", lambda: _run_budget(argv), human=True)


def _run_budget(argv: Sequence[str] | None) -> int:
    def declare(parser: argparse.ArgumentParser) -> None:
        add_location_options(parser, prompt_files=False)
        add_budget_options(parser)
        parser.add_argument("filenames", nargs="*", help=SUPPRESS)

    description = "Replay the agents' native skill listings."
    options = read_hook_options(declare, argv, prog="skill-budget", description=description)
    if options is None:
        return EXIT_OK
    report = replay_budget(load_settings(options.root), options, hook=True)
    if not has_losses(report):
        return EXIT_OK
    write_utf8(sys.stderr, describe_budget(report))
    return EXIT_FINDINGS
