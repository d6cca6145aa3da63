"""Keep an agent prompt file's list of skills true to the skills on disk."""

# First, before any import: Ctrl-C while the modules load (20 to 40 ms) exits
# 130 with the JSON error line instead of a traceback. Only when run as the
# program (console scripts, python -m), so importing the package changes no
# handler; report.run_reporting_errors lets Ctrl-C raise while a command runs.
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal
else:
    import _signal  # the C module, loaded already: no start-up cost

# The console scripts of setup.cfg, named here since reading the installed metadata would cost more than
# the start-up it guards (tests/test_entry_points.py holds the two lists equal).
_PROGRAMS = ("skillmem", "skillmem-index-hook", "skillmem-verify-hook", "skillmem-lint-hook", "skillmem-budget-hook")


def _exit_interrupted(number: int, frame: object) -> None:
    # Under -m, runpy may have set argv[0] to the path of __main__.py by now.
    program = os.path.basename(sys.argv[0])
    tool = program if program in _PROGRAMS else "skillmem"
    line = f'{{"tool": "{tool}", "error": "interrupted", "hint": "run the command again; no file was changed"}}\n'
    try:
        os.write(2, line.encode())
    finally:
        os._exit(130)


if (sys.argv[:1] == ["-m"] or os.path.basename(sys.argv[0] if sys.argv else "") in _PROGRAMS) and (
    _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
):
    _signal.signal(_signal.SIGINT, _exit_interrupted)

__version__ = "0.5.0"
