"""Every command, console script and hook id agrees across the CLI, setup.cfg and .pre-commit-hooks.yaml."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest
import yaml

import skillmem_hook
from skillmem_hook.cli import COMMANDS, command_module

from .helpers import console_scripts

REPO = Path(__file__).resolve().parent.parent
HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())


def test_the_start_up_handler_knows_every_console_script():
    # Ctrl-C while a program loads prints its JSON line only for the programs it knows (tests/test_startup.py).
    assert tuple(console_scripts()) == skillmem_hook._PROGRAMS


def test_every_console_script_is_the_cli_or_one_hook_s_entry():
    assert console_scripts()["skillmem"] == "skillmem_hook.cli:main"
    assert sorted(hook["entry"] for hook in HOOKS) == sorted(set(console_scripts()) - {"skillmem"})


@pytest.mark.parametrize("hook", HOOKS, ids=[hook["id"] for hook in HOOKS])
def test_each_hook_id_runs_its_function_in_hooks_and_calls_itself_by_that_id(hook, capsys):
    module, function = console_scripts()[hook["entry"]].split(":")
    assert module.rsplit(".", 1)[0] == "skillmem_hook.hooks"
    assert function == hook["id"].replace("-", "_")
    assert getattr(importlib.import_module(module), function)(["--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: {hook['id']} ")


def test_every_command_is_a_module_of_commands_that_adds_its_options_and_runs_them():
    folder = REPO / "skillmem_hook" / "commands"
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__"}
    for name in COMMANDS:
        module = command_module(name)
        assert module.__name__ == f"skillmem_hook.commands.{name.replace('-', '_')}"
        assert list(inspect.signature(module.add_arguments).parameters) == ["parser"]
        assert list(inspect.signature(module.run).parameters) == ["options"]
    # The others are parts of a command (domain_listing: search --domain), never run by the CLI.
    for part in modules - {name.replace("-", "_") for name in COMMANDS}:
        assert not hasattr(importlib.import_module(f"skillmem_hook.commands.{part}"), "run"), part
