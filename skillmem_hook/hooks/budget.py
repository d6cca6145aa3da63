"""The pre-commit hook ``skill-budget``: fail when an agent's native listing would lose a skill (``budget --check``)."""

from __future__ import annotations

import argparse
import sys

from skillmem_hook.arguments import ArgumentParser, HelpShown, add_budget_options, add_location_options
from skillmem_hook.commands.budget import describe_budget, has_losses, replay_budget
from skillmem_hook.config import load_settings
from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK
from skillmem_hook.report import run_reporting_errors
from skillmem_hook.streams import write_utf8

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def skill_budget(argv: Sequence[str] | None = None) -> int:
    """Exit 1 when a configured agent would drop, cut or not discover a skill natively (``skillmem budget --check``)."""
    return run_reporting_errors(lambda: "skill-budget", lambda: _run_budget(argv), human=True)


def _run_budget(argv: Sequence[str] | None) -> int:
    parser = ArgumentParser(prog="skill-budget", description="Replay the agents' native skill listings.")
    add_location_options(parser, prompt_files=False)
    add_budget_options(parser)
    parser.add_argument("filenames", nargs="*", help=argparse.SUPPRESS)
    try:
        options = parser.parse_args(argv)
    except HelpShown:
        return EXIT_OK
    report = replay_budget(load_settings(options.root), options, hook=True)
    if not has_losses(report):
        return EXIT_OK
    write_utf8(sys.stderr, describe_budget(report))
    return EXIT_FINDINGS
