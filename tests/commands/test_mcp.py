"""``skillmem mcp`` at the edge: without the SDK installed it says how to get it, as one JSON error line."""

from __future__ import annotations

import json
import subprocess
import sys

WITHOUT_SDK = "import sys; sys.modules['mcp'] = None; from skillmem_hook.cli import main; sys.exit(main(sys.argv[1:]))"


def test_without_the_mcp_extra_the_command_names_the_install_line(tmp_path):
    (tmp_path / "skills").mkdir()
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_SDK, "mcp", "--root", "skills"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (2, "")
    error = json.loads(result.stderr)
    assert error["tool"] == "skillmem mcp"
    # The first of the extra's modules found missing is named: the SDK here, anyio first where neither is installed.
    assert error["error"] in (
        f"the MCP server needs the [mcp] extra ({name} is not installed)" for name in ("mcp", "anyio")
    )
    assert "install the [mcp] extra: " in error["hint"]  # after "needs Python 3.10 or newer" on 3.9
    assert error["hint"].endswith("[mcp]'")


def test_the_hooks_and_the_other_commands_never_load_the_sdk(tmp_path):
    hooks = "skillmem_hook.hooks.index, skillmem_hook.hooks.lint, skillmem_hook.hooks.budget"
    probe = f"import sys, skillmem_hook.cli, {hooks}; print('mcp' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False"
