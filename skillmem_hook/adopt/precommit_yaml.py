"""Reading a ``.pre-commit-config.yaml`` as init must: safely, whatever a repository put in it. Pure.

The file is the repository's content. PyYAML builds nested values
recursively and an alias stands for a whole node, so every read first walks
the parser's events once: a value nested past ``MAX_DEPTH`` is refused
(5,000 nested lists would end in a RecursionError), and whether the file
holds an alias is noted, since comparing expanded values walks every
expansion (hostile-4's H4-1: 72 KB of aliases took minutes). Questions
about the file's shape are answered on the composed node graph, where an
alias is the node it names: each node is visited once.
"""

from __future__ import annotations

import yaml

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

HOOK_IDS = ("skill-index", "skill-verify", "skill-lint")
MAX_DEPTH = 64  # a pre-commit config nests five levels deep (repos, item, hooks, hook, args)


class ConfigShape:
    """What init needs of the file: its value, whether it holds an alias, its top-level keys, its node graph."""

    __slots__ = ("aliased", "keys", "root", "value")

    def __init__(self, data: bytes | str) -> None:
        # libyaml when PyYAML has it: a 1 MiB file of aliases is then read in a second, not in twenty.
        loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            self.aliased = _check_events(yaml.parse(data, Loader=loader_class))
            loader = loader_class(data)
            try:  # one composition, built into values from the same nodes
                self.root: yaml.Node | None = loader.get_single_node()
                self.value: object = (loader.construct_document(self.root) if self.root else None) or {}
            finally:
                loader.dispose()
        except yaml.YAMLError as error:
            problem = " ".join(str(error).split())
            raise UsageError(
                f".pre-commit-config.yaml is not valid YAML: {problem}", "fix it, then run skillmem init again"
            ) from None
        mapping = self.root if isinstance(self.root, yaml.MappingNode) else None
        # Every key as written, a repeated one each time (PyYAML keeps the last silently; ruamel refuses it).
        self.keys = [key.value for key, _ in mapping.value] if mapping else []

    def skillmem_entries(self) -> list[yaml.MappingNode]:
        """The ``repos:`` items that name one of skillmem's hooks, each node once however often aliased."""
        repos = _child(self.root, "repos")
        found: list[yaml.MappingNode] = []
        seen: set[int] = set()
        ours: dict[int, bool] = {}  # per hook node: an alias list of 12,000 of one hook costs one look
        for item in repos.value if isinstance(repos, yaml.SequenceNode) else []:
            if id(item) in seen or not isinstance(item, yaml.MappingNode):
                continue
            seen.add(id(item))
            hooks = _child(item, "hooks")
            if isinstance(hooks, yaml.SequenceNode) and any(_is_ours(hook, ours) for hook in hooks.value):
                found.append(item)
        return found


def _is_ours(hook: yaml.Node, ours: dict[int, bool]) -> bool:
    if id(hook) not in ours:
        hook_id = _child(hook, "id")
        ours[id(hook)] = isinstance(hook_id, yaml.ScalarNode) and hook_id.value in HOOK_IDS
    return ours[id(hook)]


def _child(node: object, key: str) -> yaml.Node | None:
    """The value node under ``key`` in a mapping node (the last, as PyYAML's value holds), or None."""
    if not isinstance(node, yaml.MappingNode):
        return None
    found = None
    for key_node, value in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            found = value
    return found


def _check_events(events: Iterator[yaml.Event]) -> bool:
    """Refuse a value nested past MAX_DEPTH; True when the file holds an alias."""
    depth, aliased = 0, False
    for event in events:
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise UsageError(
                    f".pre-commit-config.yaml nests values more than {MAX_DEPTH} levels deep",
                    "a pre-commit config nests five levels; fix the file, then run skillmem init again",
                )
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        aliased = aliased or isinstance(event, yaml.AliasEvent)
    return aliased
