"""A unified diff of a prompt file as it is and as inject would write it, like ``cog --diff``. Pure."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.block.drift import Drift


def block_diff(path: str, drift: Drift) -> str:
    """``--- a/path`` / ``+++ b/path`` hunks; empty when the block is current. Bytes not UTF-8 show as U+FFFD."""
    import difflib  # noqa: PLC0415 - verify without --diff, and the hooks, draw no diff

    before = drift.original.decode("utf-8", "replace").splitlines(keepends=True)
    after = drift.updated.decode("utf-8", "replace").splitlines(keepends=True)
    lines = difflib.unified_diff(before, after, f"a/{path}", f"b/{path}")
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
