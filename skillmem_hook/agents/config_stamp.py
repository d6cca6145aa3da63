"""Which ``.skillmem.yaml`` applies to a folder, and a checksum of its bytes: what a kept configuration holds for.

The route index keeps what the score rule's search needs of the configuration,
so that a warm prompt need not parse YAML. Its snapshot stamps files by mtime
and size, which a copy that keeps the time (``cp -p``, ``rsync -t``) or an
edit within one tick can leave as they were; and a ``git init`` between the
folder and a configuration above it ends the search for the configuration
there, which no stamp shows. Either would leave the kept configuration in
force after it changed. The file is at most 64 KiB, so reading it again costs
a few microseconds and no YAML.
"""

from __future__ import annotations

import zlib

from skillmem_hook.config import find_config
from skillmem_hook.config_file import CONFIG_LIMIT
from skillmem_hook.files import read_regular_file

Stamp = list[object]  # [the configuration's path as find_config gives it, or None; CRC-32 of its bytes, or None]


def config_stamp(folder: str) -> Stamp:
    """The configuration that applies in ``folder`` and the checksum of its bytes ([None, None] for none).

    A file that cannot be read as a configuration stamps as ``-1``: it is equal
    to no stamp of a readable one, and loading the settings then says why.
    """
    path, _ = find_config(folder)
    if path is None:
        return [None, None]
    try:
        return [path, zlib.crc32(read_regular_file(path, CONFIG_LIMIT + 1))]
    except OSError:
        return [path, -1]
