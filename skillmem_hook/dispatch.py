"""From parsed options to a subcommand's call: what each command takes from the settings.

One small function a command, and one table: ``cli`` parses, this calls, ``commands/`` works.
Each command module is imported only when its command runs (start-up time).
"""

from __future__ import annotations

from skillmem_hook.config import Settings, load_settings, require_prompt_files, require_roots

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable


def dispatch(options: argparse.Namespace) -> int:
    """Run the subcommand ``options.command`` names, with the settings it needs."""
    if options.command in SETUP_RUNNERS:
        return SETUP_RUNNERS[options.command](options)
    settings = load_settings(
        options.root,
        getattr(options, "prompt_file", None),
        strict=getattr(options, "strict", None),
        write=getattr(options, "write", None),
        tracked=getattr(options, "tracked", None),
        cache=getattr(options, "cache", None),
    )
    return RUNNERS[options.command](options, settings)


def _max_tokens(options: argparse.Namespace, settings: Settings) -> int | None:
    value: int | None = getattr(options, "max_block_tokens", None) or settings.max_block_tokens
    return value


def _checked_targets(settings: Settings, *, prompt_files: bool) -> None:
    """Refuse, before any write, a file the repository names outside the work tree or in git's folder."""
    from skillmem_hook.block.targets import check_repository_targets  # noqa: PLC0415

    if prompt_files:
        require_prompt_files(settings)
    check_repository_targets(
        settings.repository_targets(prompt_files=prompt_files, write=not prompt_files), settings.base
    )


def _lint(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.lint import lint  # noqa: PLC0415

    output = "text" if options.text else options.format
    return lint(options.files, settings, output=output, write_baseline=options.write_baseline, fix=options.fix)


def _mcp(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.mcp import mcp  # noqa: PLC0415

    require_roots(settings)
    return mcp(options.root)


def _index(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.index import index  # noqa: PLC0415

    roots = require_roots(settings)
    _checked_targets(settings, prompt_files=False)
    return index(
        roots,
        settings.write,
        settings.prompt_files,
        force=options.force,
        options=settings.catalog_options(),
        text=options.text,
    )


def _prompt(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.prompt import prompt  # noqa: PLC0415

    roots = require_roots(settings)
    return prompt(
        roots, settings.catalog_options(), raw=options.raw, max_tokens=_max_tokens(options, settings), text=options.text
    )


def _stats(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.stats import stats  # noqa: PLC0415

    return stats(require_roots(settings), options.measured_files or [], settings.catalog_options(), text=options.text)


def _search(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.search import search  # noqa: PLC0415

    return search(
        require_roots(settings),
        options.intent,
        top=options.top,
        aliases=settings.aliases,
        text=options.text,
        options=settings.catalog_options(),
        domain=options.domain,
        semantic=options.semantic,
        flagged=bool(options.root),
    )


def _eval(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.eval import evaluate  # noqa: PLC0415

    return evaluate(
        options.file,
        require_roots(settings),
        aliases=settings.aliases,
        options=settings.catalog_options(),
        semantic=options.semantic,
        text=options.text,
        min_hit3=options.min_hit3,
        flagged=bool(options.root),
    )


def _budget(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.budget.rules import BudgetSettings  # noqa: PLC0415
    from skillmem_hook.commands.budget import budget  # noqa: PLC0415

    chosen = BudgetSettings.from_section(settings.budget).with_flags(
        agent=options.agent, context_window=options.context_window
    )
    return budget(
        require_roots(settings), chosen, check=options.check, text=options.text, options=settings.catalog_options()
    )


def _read(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.read import read  # noqa: PLC0415

    return read(require_roots(settings), options.name, path=options.path, options=settings.catalog_options())


def _inject(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.inject import inject  # noqa: PLC0415

    roots = require_roots(settings)
    _checked_targets(settings, prompt_files=True)
    return inject(
        roots,
        require_prompt_files(settings),
        settings.catalog_options(),
        settings.preamble_line,
        _max_tokens(options, settings),
        text=options.text,
    )


def _verify(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.verify import verify  # noqa: PLC0415

    roots = require_roots(settings)
    _checked_targets(settings, prompt_files=True)
    return verify(
        roots,
        require_prompt_files(settings),
        strict=settings.strict,
        options=settings.catalog_options(),
        preamble=settings.preamble_line,
        max_tokens=_max_tokens(options, settings),
        diff=options.diff,
        text=options.text,
    )


def _hook(options: argparse.Namespace, settings: Settings) -> int:
    from skillmem_hook.commands.hook import hook  # noqa: PLC0415

    roots = require_roots(settings)
    return hook(roots, require_prompt_files(settings), options.out, force=options.force, text=options.text)


def _init(options: argparse.Namespace) -> int:
    from skillmem_hook.commands.init import init  # noqa: PLC0415

    return init(
        repo=options.repo,
        rev=options.rev,
        dry_run=options.dry_run,
        force=options.force,
        install=options.install,
        text=options.text,
    )


def _merge_driver(options: argparse.Namespace) -> int:
    from skillmem_hook.commands.merge_driver import merge_driver  # noqa: PLC0415

    return merge_driver(options.base, options.ours, options.theirs, options.path)


RUNNERS: dict[str, Callable[[argparse.Namespace, Settings], int]] = {
    "index": _index,
    "prompt": _prompt,
    "inject": _inject,
    "verify": _verify,
    "stats": _stats,
    "hook": _hook,
    "lint": _lint,
    "search": _search,
    "eval": _eval,
    "mcp": _mcp,
    "read": _read,
    "budget": _budget,
}
# Commands that find no skills root or prompt file through the configuration.
SETUP_RUNNERS: dict[str, Callable[[argparse.Namespace], int]] = {"init": _init, "merge-driver": _merge_driver}
