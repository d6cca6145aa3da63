"""Start-up: Ctrl-C while the modules load exits 130, never with a traceback; and the paths with a start-up
budget load only the modules they need."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time

import pytest

from skillmem_hook.catalog.store.cache import RACY_SECONDS

from .e2e.repos import GIT_IDENTITY
from .helpers import REPO, backdate, console_scripts, seed_tree

# Runs as the console script does (argv[0] is the program's name), and sends
# itself a real SIGINT when the option reader starts to load: after the package's
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
@pytest.mark.parametrize("module", ["skillmem_hook.quick_options", "skillmem_hook.config"])
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
    # Before the command runs, the start-up handler answers; once it runs (the option reader loads lazily,
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


# The paths with a start-up budget (CONTRIBUTING.md, "Start-up"), each run as its program runs it, warm: in a
# repository whose block is current and committed, after a first run built what the path keeps. Each may load
# the modules of the package listed here and no others (a new one fails here until the list says why), and
# none of the heavy standard modules it has no need of. Measured beyond what the interpreter loads on its own
# (an editable install's finder loads re, enum and pathlib before any of this).
PROBE_MODULES = textwrap.dedent(
    """
    import sys

    out, program, entry, *argv = sys.argv[1:]
    before = set(sys.modules)
    sys.argv[0] = program
    module, function = entry.split(":")
    try:
        getattr(__import__(module, fromlist=[function]), function)(argv)
    finally:
        with open(out, "w") as file:
            file.write("\\n".join(sorted(set(sys.modules) - before)))
    """
)

ARGS = ["--root", "skills", "--prompt-file", "AGENTS.md"]
# What a scan loads, and what every run of the CLI or a hook loads around it.
FACE = "errors report streams visible lazy_pattern config config_file files"
SCAN = (
    "catalog catalog.catalog catalog.discovery catalog.discovery.git catalog.discovery.head_read catalog.dot_git"
    " catalog.discovery.links catalog.discovery.walk catalog.listing catalog.placement catalog.placement.domain_table"
    " catalog.placement.domains catalog.placement.selection catalog.reading catalog.scan catalog.skillfile"
    " catalog.skillfile.declared catalog.skillfile.frontmatter catalog.skillfile.head catalog.skillfile.lenient_yaml"
    " catalog.skillfile.text"  # what a SKILL.md declares, as the snapshot and the cache rebuild it
    " catalog.skillfile.names catalog.skillfile.sections catalog.skillfile.unicode13 catalog.skills catalog.store"
    " catalog.store.cache catalog.store.json_text catalog.store.locations catalog.store.records catalog.store.seal"
    " catalog.store.trust"
    " block block.imports"
    " catalog.discovery.confinement"  # the read rule (a link lands inside, on a tracked file) and kept-file trust
    " catalog.discovery.git_wait"  # the watch on every git: one waiting on a FIFO is ended (CONTRIBUTING.md)
)
GIT_VIEW = "catalog.discovery.tracked catalog.store.snapshot"
# The look at the files git opens for its ignore rules, before a run asks git what it ignores (``check-ignore``:
# the layouts found without a configuration, the files the agents read): CONTRIBUTING.md, "Start-up".
EXCLUDES = "catalog.discovery.excludes"
COMPARE = (
    "block.diff block.drift block.markers block.prompt_file block.render block.sync block.targets git_views text_lines"
)
SEARCH = (
    "search search.aliases search.asks search.confidence search.dictionary search.fields search.glossary search.query"
    " search.rank"
    " search.sorted_lines search.store search.stored search.tokenize search.tuning catalog.store.stamps decisive"
)
ROUTE = (
    "cli commands commands.route agents agents.background agents.config_stamp agents.route agents.route_index"
    " catalog catalog.dot_git catalog.store catalog.store.locations catalog.store.stamps catalog.store.trust"
    " catalog.store.seal"  # the seal a kept index is checked against
    " search search.at_hand search.at_hand.aloud search.at_hand.carried_on search.at_hand.changed"
    " search.at_hand.clauses search.at_hand.divided search.at_hand.how_to_work"
    " search.at_hand.its_work search.at_hand.means search.at_hand.progress search.at_hand.questioned"
    " search.at_hand.reacted search.at_hand.relayed search.at_hand.shaped search.at_hand.shown"
    " search.at_hand.switched"
    " search.confidence search.names"  # trust: a kept index is read only when this user's alone
)
LINT = (
    "lint lint.agent_fields lint.changes lint.check lint.fields lint.invisible"
    " lint.files lint.markdown lint.options lint.output lint.paths lint.quality"
    " lint.reading lint.references lint.repository lint.rules lint.spec lint.suppress"
)
WRITES = "tempfile"  # a run that finds everything current writes nothing
# A warm skill-index or skill-verify run reads the snapshot and compares bytes: no pattern, no JSON written, no
# hashlib, so none of these (re and enum only under a regular install: the editable finder loads them first).
WARM_HOOK_SPARES = "re enum json hashlib contextlib collections functools shlex types"
# Nor, when every block is current and nothing is written, the package's modules that only write, explain a drift,
# write the index file, list or place skills (the snapshot holds the catalog) or apply ``quiet:``.
WARM_HOOK_SPARES_OWN = " ".join(
    f"skillmem_hook.{name}"
    for name in [
        "atomic",
        "block.diff",
        "block.index_file",
        "commands",
        "commands.index",
        "git_views",
        "catalog.discovery.links",
        "catalog.placement.selection",
    ]
)
# Each path: its program, entry, arguments, prompt (for route), the package's modules it may load (beyond the
# package itself), and the standard modules it must not load.
HOT_PATHS = {
    "--version": (
        "skillmem",
        "skillmem_hook.cli:main",
        ["--version"],
        None,
        "cli arguments argument_parser quick_options errors report streams visible lazy_pattern",
        "yaml subprocess threading zlib importlib locale",  # locale: argparse's words are not passed to gettext
    ),
    "route, a prompt naming its skill": (
        "skillmem",
        "skillmem_hook.cli:main",
        ["route"],
        "use alpha-tool on data.csv",
        f"{ROUTE} {FACE}",
        "argparse yaml subprocess threading hashlib importlib tempfile",
    ),
    "route, a prompt the search score answers": (
        "skillmem",
        "skillmem_hook.cli:main",
        ["route"],
        "parse my csv and json files into tables",
        f"{ROUTE} {FACE} {SEARCH} catalog.catalog catalog.placement catalog.placement.domain_table"
        " catalog.placement.domains catalog.skillfile catalog.skillfile.declared catalog.skillfile.frontmatter"
        " catalog.skillfile.lenient_yaml catalog.skillfile.names catalog.skillfile.sections catalog.skillfile.unicode13"
        " catalog.skills",
        "argparse yaml subprocess threading hashlib importlib tempfile",
    ),
    "skill-index": (
        "skillmem-index-hook",
        "skillmem_hook.hooks.index:skill_index",
        ARGS,
        None,
        f"arguments quick_options {FACE} {SCAN} {GIT_VIEW} {COMPARE} signals block.tracking"
        " hooks hooks.index hooks.report",
        f"argparse yaml importlib urllib.parse difflib {WARM_HOOK_SPARES} {WARM_HOOK_SPARES_OWN} {WRITES}",
    ),
    "skill-verify": (
        "skillmem-verify-hook",
        "skillmem_hook.hooks.index:skill_verify",
        ARGS,
        None,
        f"arguments quick_options {FACE} {SCAN} {GIT_VIEW} {COMPARE} block.tracking hooks hooks.index hooks.report",
        f"argparse yaml importlib urllib.parse difflib {WARM_HOOK_SPARES} {WARM_HOOK_SPARES_OWN} {WRITES}",
    ),
    "skill-lint": (
        "skillmem-lint-hook",
        "skillmem_hook.hooks.lint:skill_lint",
        ["--root", "skills", "skills/alpha-tool/SKILL.md"],
        None,
        f"arguments quick_options {FACE} {SCAN} {EXCLUDES} {GIT_VIEW} {LINT} commands commands.lint hooks hooks.lint"
        " text_lines",  # its counts agree with their nouns as every report's do (0.1 ms)
        f"argparse yaml importlib {WRITES}",
    ),
    "skill-budget": (
        "skillmem-budget-hook",
        "skillmem_hook.hooks.budget:skill_budget",
        ["--root", "skills"],
        None,
        f"arguments quick_options {FACE} {SCAN} {EXCLUDES} {GIT_VIEW} budget budget.advice budget.choice"
        " budget.discovery budget.fields budget.folders budget.listings budget.loading budget.native budget.replay"
        " budget.rules"
        " block.markers block.render"  # the block's size beside the agents' listings
        " catalog.discovery.safe_read commands commands.budget hooks hooks.budget"
        " text_lines",  # its counts agree with their nouns as every report's do (0.1 ms)
        f"argparse importlib {WRITES}",
    ),
    "skillmem verify": (
        "skillmem",
        "skillmem_hook.cli:main",
        ["verify", *ARGS],
        None,
        f"cli arguments quick_options {FACE} {SCAN} {COMPARE} commands commands.verify renames",
        f"argparse gettext yaml hashlib difflib {WRITES}",
    ),
    "skillmem inject": (
        "skillmem",
        "skillmem_hook.cli:main",
        ["inject", *ARGS],
        None,
        f"cli arguments quick_options {FACE} {SCAN} {COMPARE} atomic signals commands commands.inject renames",
        f"argparse gettext yaml hashlib difflib {WRITES}",
    ),
    "skillmem search": (
        "skillmem",
        "skillmem_hook.cli:main",
        ["search", "--root", "skills", "parse", "csv"],
        None,
        f"cli arguments quick_options {FACE} {SCAN} {EXCLUDES} {SEARCH} commands commands.search",
        f"argparse yaml {WRITES}",
    ),
    "skillmem read": (
        "skillmem",
        "skillmem_hook.cli:main",
        ["read", "--root", "skills", "alpha-tool"],
        None,
        f"cli arguments quick_options {FACE} {SCAN} {EXCLUDES} catalog.discovery.safe_read search search.lookup"
        " search.names commands commands.read",
        f"argparse yaml hashlib {WRITES}",
    ),
}


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A repository for the hooks and the CLI (arguments, no .skillmem.yaml) and one for route (with one), each
    run once on every path, so what each keeps is stored; and the environment of their runs."""
    folder = tmp_path_factory.mktemp("warm")
    env = {**os.environ, **GIT_IDENTITY, "XDG_CACHE_HOME": str(folder / "cache")}
    repo, configured = folder / "repo", folder / "configured"
    for path in (repo, configured):
        path.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=path, check=True)
        seed_tree(path / "skills")
        # With a frontmatter: the seed's heading-only skill has a warning, and a hook that prints one
        # loads what its report needs; these paths are the run of a collection with none.
        (path / "skills/beta-heading/SKILL.md").write_text("---\nname: beta-heading\ndescription: Beta\n---\n")
    (repo / "AGENTS.md").write_text("# Agents\n")
    subprocess.run([sys.executable, "-m", "skillmem_hook", "inject", *ARGS], cwd=repo, env=env, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "skills"], cwd=repo, env=env, check=True)
    (configured / ".skillmem.yaml").write_text("roots: [skills]\n")
    backdate(repo, configured)  # a settled disk: an index of files changed within 3 s is not kept
    # utime cannot set a file's ctime: wait out the racy window, so the disk view's cache keeps its entries during
    # the warm-up, not during a probed run (whose new cache would leave the hooks' kept catalog stale, so that a
    # probed skill-index rebuilt it and wrote JSON: a failure by the clock, seen on a loaded machine). Twice: the
    # first pass's CLI runs change the cache after the hooks kept their catalog, the second finds all settled.
    time.sleep(RACY_SECONDS)
    for _ in range(2):
        for name in HOT_PATHS:
            loaded_on(name, repo, configured, env, folder)
    marker = configured / ".git" / "skillmem-search.json.building"
    deadline = time.monotonic() + 60
    while marker.exists() or not (configured / ".git" / "skillmem-search.json").exists():
        assert time.monotonic() < deadline, "route's background build never stored the search index"
        time.sleep(0.1)
    return repo, configured, env, folder


def loaded_on(name, repo, configured, env, folder):
    """The modules a run of the path loads beyond those the interpreter had loaded before it."""
    program, entry, argv, prompt, _, _ = HOT_PATHS[name]
    cwd = configured if prompt else repo
    data = json.dumps({"prompt": prompt, "cwd": str(cwd), "hook_event_name": "UserPromptSubmit"}) if prompt else ""
    out = folder / "modules.txt"
    command = [sys.executable, "-c", PROBE_MODULES, str(out), program, entry, *argv]
    result = subprocess.run(command, cwd=cwd, env=env, input=data, capture_output=True, text=True, timeout=60)
    assert result.returncode in (0, 1), result.stderr  # 1: skill-budget's findings on the seed skills
    return set(out.read_text().split())


@pytest.mark.parametrize("name", HOT_PATHS)
def test_a_path_with_a_start_up_budget_loads_only_the_modules_it_needs(warm, name):
    *_, allowed, forbidden = HOT_PATHS[name]
    loaded = loaded_on(name, *warm)
    package = {module.removeprefix("skillmem_hook.") for module in loaded if module.startswith("skillmem_hook.")}
    assert sorted(package - set(allowed.split())) == [], "new on this path: say why in CONTRIBUTING.md, then list it"
    assert sorted(loaded & set(forbidden.split())) == []


@pytest.mark.parametrize("name", ["skill-index", "skill-verify"])
def test_a_warm_hook_run_as_a_regular_install_runs_it_loads_none_of_the_standard_modules_it_spares(warm, name):
    """Without site (so without the editable install's finder, which loads re, enum and types first), the
    package found on PYTHONPATH as a regular install's site-packages has it: the spared modules are seen."""
    repo, _, env, folder = warm
    program, entry, argv, *_ = HOT_PATHS[name]
    out = folder / "modules-without-site.txt"
    command = [sys.executable, "-S", "-c", PROBE_MODULES, str(out), program, entry, *argv]
    run_env = {**env, "PYTHONPATH": str(REPO)}
    result = subprocess.run(command, cwd=repo, env=run_env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    loaded = set(out.read_text().split())
    assert "skillmem_hook.hooks.index" in loaded
    assert sorted(loaded & set(WARM_HOOK_SPARES.split())) == []


def test_every_import_inside_a_function_says_which_path_it_spares_or_which_extra_it_needs():
    unexplained = [
        f"{path.relative_to(REPO)}:{number}"
        for path in sorted((REPO / "skillmem_hook").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "noqa: PLC0415" in line and not re.search(r"noqa: PLC0415 - \w", line)
    ]
    assert unexplained == []
