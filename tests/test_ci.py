"""CI's script: the suite on the oldest and the newest Python the package claims, a missing one said, and the
project's own pre-commit hooks at the versions the dev extra pins, and the layers contract naming every module."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
SCRIPT = (REPO / ".ci" / "run").read_text()


def claimed_versions() -> list[str]:
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg")
    oldest = setup["options"]["python_requires"].replace(">=", "").strip()
    classifiers = re.findall(r"Python :: (3\.\d+)", setup["metadata"]["classifiers"])
    return [oldest, max(classifiers, key=lambda version: int(version.split(".")[1]))]


def test_ci_runs_the_oldest_and_the_newest_python_the_package_claims():
    oldest, newest = claimed_versions()
    assert f"OLDEST={oldest}\n" in SCRIPT
    assert f"NEWEST={newest}\n" in SCRIPT
    assert min(re.findall(r"Python :: (3\.\d+)", (REPO / "setup.cfg").read_text()), key=lambda v: int(v[2:])) == oldest


def find_python(version: str, path: str, pyenv_root: Path) -> subprocess.CompletedProcess[str]:
    function = re.search(r"^find_python\(\) \{.*?^\}", SCRIPT, re.S | re.M).group(0)
    return subprocess.run(
        [shutil.which("bash"), "-c", f'{function}\nfind_python "$1"', "find_python", version],
        env={"PATH": path, "PYENV_ROOT": str(pyenv_root), "HOME": str(pyenv_root)},
        capture_output=True,
        text=True,
    )


def test_an_interpreter_is_found_under_pyenv_and_a_missing_one_is_not_invented(tmp_path):
    python = tmp_path / "versions" / "3.9.18" / "bin" / "python3"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    shims = tmp_path / "shims"  # pyenv's shim for a version not selected: on PATH, and fails
    shims.mkdir()
    (shims / "python3.9").write_text("#!/bin/sh\necho 'pyenv: python3.9: command not found' >&2\nexit 127\n")
    (shims / "python3.9").chmod(0o755)
    found = find_python("3.9", str(shims), tmp_path)
    assert (found.returncode, found.stdout.strip()) == (0, str(python))
    assert find_python("3.13", str(shims), tmp_path).returncode == 1
    assert 'the oldest supported Python was NOT tested"' in SCRIPT


def dev_pins() -> dict[str, str]:
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg")
    lines = [line.strip() for line in setup["options.extras_require"]["dev"].splitlines() if line.strip()]
    requirements = [line.split(";", 1)[0].strip() for line in lines if not line.startswith("#")]
    return dict(requirement.split("==", 1) for requirement in requirements)


def local_hooks() -> list[dict]:
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    assert [repo["repo"] for repo in config["repos"]] == ["local"], "CI reaches PyPI, not github.com"
    return config["repos"][0]["hooks"]


def test_ci_runs_the_projects_own_pre_commit_hooks_on_every_file():
    assert "\npre-commit run --all-files" in SCRIPT
    ids = {hook["id"] for hook in local_hooks()}
    assert {
        "ruff-check",
        "ruff-format",
        "mypy",
        "mypy-newest",
        "import-linter",
        "skill-index",
        "skill-verify",
        "skill-lint",
    } <= ids


def test_the_dev_extra_pins_exactly_the_tools_the_hooks_install():
    pins = dev_pins()
    assert set(pins) == {"import-linter", "mypy", "ruff", "types-PyYAML"}
    installed: dict[str, set[str]] = {}
    for hook in local_hooks():
        for dependency in hook.get("additional_dependencies", []):
            name, _, version = dependency.partition("==")
            assert version, f"{hook['id']}: {dependency} is not pinned to one version"
            installed.setdefault(name, set()).add(version)
    assert {name: installed[name] for name in pins} == {name: {version} for name, version in pins.items()}


def test_mypy_checks_at_the_oldest_python_and_again_at_the_newest():
    oldest, newest = claimed_versions()
    pyproject = (REPO / "pyproject.toml").read_text()
    assert re.findall(r'^python_version = "(.*)"$', pyproject, re.M) == [oldest]
    newest_config = configparser.ConfigParser()
    newest_config.read(REPO / ".ci" / "mypy-newest.ini")
    assert newest_config["mypy"]["python_version"] == newest


def test_every_top_level_module_has_a_layer():
    # The layers contract leaves a module it does not name unchecked: a new one must be placed.
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (layers,) = [contract["layers"] for contract in contracts if contract["type"] == "layers"]
    named = {name.strip().removeprefix("skillmem_hook.") for layer in layers for name in layer.split("|")}
    package = REPO / "skillmem_hook"
    modules = {path.stem for path in package.glob("*.py") if path.name != "__init__.py"}
    modules |= {path.parent.name for path in package.glob("*/__init__.py")}
    assert named == modules
