"""Every command, console script and hook id agrees across the CLI, setup.cfg and .pre-commit-hooks.yaml."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml

import skillmem_hook

from .helpers import console_scripts

REPO = Path(__file__).resolve().parent.parent
HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())


def test_the_start_up_handler_knows_every_console_script():
    # Ctrl-C while a program loads prints its JSON line only for the programs it knows (tests/test_init.py).
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
