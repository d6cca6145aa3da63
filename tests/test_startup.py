"""The package's first lines: Ctrl-C while the modules load exits 130, never with a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from .helpers import console_scripts

# Runs as the console script does (argv[0] is the program's name), and sends
# itself a real SIGINT when argparse starts to load: after the package's
# first line, in the middle of the imports.
PROBE = textwrap.dedent(
    """
    import os, signal, sys

    interrupted_module = sys.argv[1]

    class InterruptOnImport:
        def find_spec(self, name, path=None, target=None):
            if name == interrupted_module:
                os.kill(os.getpid(), signal.SIGINT)
            return None

    sys.meta_path.insert(0, InterruptOnImport())
    sys.argv[:3] = [sys.argv[2]]
    from skillmem_hook.cli import main
    sys.exit(main())
    """
)


@pytest.mark.parametrize(
    ("program", "tool"), [("skillmem", "skillmem"), ("skillmem-index-hook", "skillmem-index-hook"), ("-m", "skillmem")]
)
@pytest.mark.parametrize("module", ["argparse", "skillmem_hook.config"])
def test_ctrl_c_while_modules_load_exits_130_with_the_json_line(tmp_path, program, tool, module):
    result = subprocess.run(
        [sys.executable, "-c", PROBE, module, program, "prompt", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 130
    assert "Traceback" not in result.stderr
    error = json.loads(result.stderr)
    # Before the command runs, the start-up handler answers; once it runs (argparse loads lazily,
    # inside it), run_reporting_errors does: the same contract either way.
    assert error["tool"] in (tool, "skillmem prompt")
    assert error["error"] == "interrupted"
    assert error["hint"].startswith("run the command again; no file was")


def test_importing_the_package_changes_no_signal_handler():
    code = "import signal, skillmem_hook; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert result.stdout == "True\n"


def test_the_start_up_handler_is_back_once_the_command_is_done(tmp_path):
    code = textwrap.dedent(
        f"""
        import signal, sys
        sys.argv[0] = "skillmem"
        import skillmem_hook
        from skillmem_hook.cli import main
        during = []
        import skillmem_hook.commands.prompt as command
        real = command.scan_roots
        command.scan_roots = lambda *args: during.append(signal.getsignal(signal.SIGINT)) or real(*args)
        main(["prompt", "--root", {str(tmp_path)!r}])
        after = signal.getsignal(signal.SIGINT)
        print(during == [signal.default_int_handler], after is skillmem_hook._exit_interrupted)
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert result.stdout.splitlines()[-1] == "True True", result.stderr


# As a console script runs: its module imported, then its function called. The SIGINT comes while the module
# loads the error mapper, before any command or hook could catch it: only the start-up handler can answer.
SCRIPT_PROBE = textwrap.dedent(
    """
    import importlib, os, signal, sys

    class InterruptOnImport:
        def find_spec(self, name, path=None, target=None):
            if name == "skillmem_hook.report":
                os.kill(os.getpid(), signal.SIGINT)
            return None

    entry = sys.argv[1]
    sys.argv[:2] = [sys.argv[2]]
    sys.meta_path.insert(0, InterruptOnImport())
    module, function = entry.split(":")
    sys.exit(getattr(importlib.import_module(module), function)())
    """
)


@pytest.mark.parametrize(("program", "entry"), console_scripts().items())
def test_ctrl_c_while_any_console_script_loads_exits_130_with_its_own_json_line(program, entry):
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT_PROBE, entry, program], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 130, result.stderr
    assert json.loads(result.stderr) == {
        "tool": program,
        "error": "interrupted",
        "hint": "run the command again; no file was changed",
    }
