"""YAML anchors: a .skillmem.yaml of at most 64 KiB whose configuration, spelled out, is hundreds of MB.

load_settings shares one string among every alias of an anchor; JSON would spell each one out. The route index
(format 7) keeps the configuration only up to 64 KiB of text (found by the hostile tester of 0.4.1: a 24 KB file
made a 20 MB index, a 64 KiB one a 355 MB index that no prompt could load).
"""

from __future__ import annotations

from ..helpers import skill_md, write_skill
from .conftest import hint_of, run_route


def anchored_config(length, count):
    # One exclude pattern of `length` characters, then `count` aliases of it: about length + 3 * count bytes.
    return "roots: [skills]\nexclude: [&s " + "x" * length + "*" + ",*s" * count + "]\n"


def repository(tmp_path, config):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write_skill(repo / "skills", "csv-to-table", skill_md("csv-to-table", "Parse CSV files into tables"))
    (repo / ".skillmem.yaml").write_text(config)
    return repo


def test_a_config_that_yaml_anchors_spell_out_large_is_not_kept(tmp_path, env):
    config = anchored_config(20_000, 1_000)
    assert len(config) < 25_000
    repo = repository(tmp_path, config)
    assert "csv-to-table" in hint_of(run_route("please run csv-to-table on data.csv", repo, env))
    size = (repo / ".git" / "skillmem-route.json").stat().st_size
    assert size < 100 * len(config), f"a {len(config)} byte config kept as a {size} byte route index"


def test_a_64_kib_anchored_config_still_routes_from_a_small_index(tmp_path, env):
    # Spelled out, this exclude list is 355 MB: kept, it passed the route index's read cap, so every prompt
    # rebuilt the index, ran out of its 5 s and wrote 355 MB into .git again. Not kept, it is read by each prompt.
    config = anchored_config(32_600, 10_900)
    assert len(config.encode()) < 64 * 1024
    repo = repository(tmp_path, config)
    for _ in range(2):  # cold, then warm
        assert "csv-to-table" in hint_of(run_route("please run csv-to-table on data.csv", repo, env))
    index = repo / ".git" / "skillmem-route.json"
    assert index.stat().st_size < 10 * len(config)
    assert b'"search":null' in index.read_bytes()
