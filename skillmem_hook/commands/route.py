"""``skillmem route``: the Claude Code UserPromptSubmit hook, at the edge: stdin, cwd, timeout, stdout.

It must never block or break the user's prompt: whatever goes wrong (bad
input, no skills, a slow disk), it exits 0 with nothing on stdout and one
line on stderr, and the prompt goes on without a hint. The command line is
read by hand, since argparse would cost every prompt its import.
"""

from __future__ import annotations

import gc
import os
import signal
import sys

from skillmem_hook.agents.background import current_or_built, refresh_search_index
from skillmem_hook.agents.route import RouteInputError, Target, best_scored, hook_output, parse_hook_input, route_line
from skillmem_hook.agents.route_index import build_route_index
from skillmem_hook.catalog.store.locations import (
    own_git_dir_answers_kept_for_the_run,
    route_index_location,
    search_index_location,
)
from skillmem_hook.catalog.store.trust import keep_quiet
from skillmem_hook.config import load_settings
from skillmem_hook.search.names import Spellings, build_name_table, named_skills
from skillmem_hook.streams import on_terminal
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from types import FrameType

    from skillmem_hook.agents.route_index import RouteIndex
    from skillmem_hook.config_file import SearchSettings

MAX_INPUT_BYTES = 8 * 1024 * 1024
TIMEOUT_SECONDS = 5


class RouteTimeout(Exception):
    """The hook ran longer than TIMEOUT_SECONDS."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """For ``--help`` and ``--explain``: a prompt's run reads its ``--root`` pairs by hand (``flag_roots``)."""
    from skillmem_hook.arguments import add_location_options, add_text_option  # noqa: PLC0415 - not on a prompt's path

    add_location_options(parser, prompt_files=False)
    parser.add_argument(
        "--explain",
        metavar="PROMPT",
        help="say which skills the hook would name for PROMPT here, with the candidates' scores and the rule's gates",
    )
    add_text_option(parser)


def run(options: argparse.Namespace) -> int:
    """``--explain``; a prompt never comes this way (``cli.main`` calls ``route`` before any parser)."""
    roots = [word for root in options.root or () for word in ("--root", root)]
    if options.explain is None:
        return route(roots)
    from skillmem_hook.agents.route_explain import as_json, as_text, explain  # noqa: PLC0415 - not on a prompt's path
    from skillmem_hook.report import emit  # noqa: PLC0415 - not on a prompt's path
    from skillmem_hook.streams import write_text  # noqa: PLC0415 - not on a prompt's path

    answer = explain(options.explain, options.root or [])
    if options.text:
        write_text(sys.stdout, as_text(answer))
    else:
        emit(as_json(answer))
    return 0


def route(arguments: Sequence[str]) -> int:
    """Print the hint for the prompt on stdin, or nothing; always exit 0."""
    keep_quiet()  # a cache folder that is not the user's alone only costs a rebuild, said nowhere
    # A prompt's run keeps what it reads (the two indexes) until it exits: the cyclic collector walked
    # them again and again as they were parsed, a twentieth of a warm prompt's instructions, and freed nothing.
    collecting = gc.isenabled()
    gc.disable()
    disarm = _arm_timeout()
    try:
        if on_terminal(sys.stdin):  # a person ran it: Claude Code sends its JSON through a pipe, never a terminal
            raise RouteInputError("stdin is a terminal, not the hook's JSON input")
        # The route index's home and the search index's: one reading of .git.
        with own_git_dir_answers_kept_for_the_run():
            output = route_hook_input(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1), flag_roots(arguments))
        sys.stdout.buffer.write(output)
        sys.stdout.flush()
    except BaseException as error:  # noqa: BLE001 - any failure must leave the prompt alone
        sys.stderr.write(f"skillmem route: no hint ({visible(_reason(error))}); the prompt goes on unchanged\n")
        if isinstance(error, RouteInputError) and (on_terminal(sys.stdin) or on_terminal(sys.stderr)):
            sys.stderr.write(f"  {EXPLAIN_POINTER}\n")
    finally:
        disarm()
        if collecting:  # a caller in the same process (a test) collects again
            gc.enable()
    return 0


EXPLAIN_POINTER = "to see what the hook would say of a prompt, and why: skillmem route --explain 'PROMPT' --text"


def route_hook_input(data: bytes, roots: Sequence[str]) -> bytes:
    """The hook's stdout for one input: the hint's JSON, or nothing."""
    if len(data) > MAX_INPUT_BYTES:
        raise RouteInputError(f"the hook input is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB")
    hook = parse_hook_input(data)
    if hook.cwd is not None:
        os.chdir(hook.cwd)  # the prompt's project: where its .skillmem.yaml and skills are
    if not hook.prompt.strip():
        return b""
    location = route_index_location(os.getcwd(), roots)
    index = build_route_index(roots) if location is None else current_or_built(location, roots)
    for root, notice in index.notices:  # the agent may be pointed at such a root's skills: said on every prompt
        sys.stderr.write(f"skillmem route: skills root {visible(root)} {notice}\n")
    targets = build_name_table(index.targets())
    named = named_skills(hook.prompt, targets)
    if named:
        return hook_output(route_line(named))
    scored = _best_scored(hook.prompt, index, Spellings(targets), flagged=bool(roots))
    return hook_output(route_line(scored, named=False)) if scored else b""


def _best_scored(prompt: str, route_index: RouteIndex, spellings: Spellings, *, flagged: bool) -> list[Target]:
    """The search's best hits, from the stored search index (``skillmem search``'s), when the score rule names them.

    A missing or stale index is rebuilt by a process of its own. Meanwhile a stale one that a few skills
    changed is patched in memory for this prompt (``search_store.patched_for_prompt``); else no score hint.
    """
    from skillmem_hook.catalog.catalog import CatalogOptions  # noqa: PLC0415 - a named skill needs no search
    from skillmem_hook.search import store as search_store  # noqa: PLC0415 - a named skill needs no search
    from skillmem_hook.search.fields import StoredIndexError  # noqa: PLC0415 - a named skill needs no search

    roots = route_index.roots
    # The configuration as the route index read it, which its snapshot and stamp say is unchanged since;
    # read again only when it was too large to keep.
    kept = route_index.search or _search_settings_now(roots)
    if kept.tracked:
        return []  # the stored index is the disk's view; git's would mean a scan on every prompt
    options = CatalogOptions(
        tracked=False, cache=kept.cache, exclude=kept.exclude, domains=kept.domains, user_roots=flagged
    )
    location = search_index_location(os.getcwd(), roots, flagged=flagged)
    if location is None:  # nowhere to keep a search index: never built inside a prompt
        return []
    stored = search_store.load_stale(roots, options, kept.aliases, location, route_index.snapshot_text)
    index, before = stored if stored is not None else (None, None)
    if index is not None and before is None:
        try:
            return best_scored(prompt, index, spellings=spellings)
        except StoredIndexError:  # a forged row or postings line among the hits: a bad index, as if absent
            index = None  # the build started below reads every row, so it replaces this index
    refresh_search_index(roots, location)  # first: the prompt's alarm may end the patch, never the build
    if index is None or before is None:
        return []
    # Stale by a few skills: patched in memory for this prompt, as a build would make it; never stored here.
    patched = search_store.patched_for_prompt(roots, options, kept.aliases, (index, before), route_index.snapshot_text)
    return [] if patched is None else best_scored(prompt, patched, spellings=spellings)


def _search_settings_now(roots: Sequence[str]) -> SearchSettings:
    return load_settings(list(roots) or None).search


def flag_roots(arguments: Sequence[str]) -> list[str]:
    """The roots given as ``--root DIR`` pairs, the only option route takes."""
    if len(arguments) % 2 or any(flag != "--root" for flag in arguments[::2]):
        raise RouteInputError("route takes only --root DIR options")
    return list(arguments[1::2])


def _reason(error: BaseException) -> str:
    message = getattr(error, "message", None) or str(error)
    if isinstance(error, (RouteInputError, RouteTimeout)) or hasattr(error, "hint"):
        return message
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _arm_timeout() -> Callable[[], None]:
    """Raise RouteTimeout after TIMEOUT_SECONDS (where the system has SIGALRM); returns the disarming call."""
    if not hasattr(signal, "SIGALRM"):
        return lambda: None

    def expire(_number: int, _frame: FrameType | None) -> None:
        raise RouteTimeout(f"took longer than {TIMEOUT_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(TIMEOUT_SECONDS)

    def disarm() -> None:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)

    return disarm
