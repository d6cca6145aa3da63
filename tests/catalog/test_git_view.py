"""Git's view of the skills, with the real git: what the index tracks, read from blobs, through the cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skillmem_hook.block.render import render_block
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery import checkout as checkout_module
from skillmem_hook.catalog.discovery import git_blobs as blobs_module
from skillmem_hook.catalog.discovery.git import tracked_entries
from skillmem_hook.catalog.discovery.tracked import SUBMODULE, tracked_skill_files
from skillmem_hook.catalog.listing import OUTSIDE_REPOSITORY
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.store.records import read_records, write_records_quietly
from skillmem_hook.errors import UsageError

from ..helpers import run_cli, skill_md, write_skill
from .git_repo import git, repository

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.usefixtures("git_identity"),
]


def names(catalog):
    return sorted(skill.name for skill in catalog.skills)


TRACKED = CatalogOptions(tracked=True)
FILES = CatalogOptions(tracked=False)


def test_an_untracked_skill_is_on_disk_but_not_in_what_the_commit_holds():
    repository()
    write_skill(Path("skills"), "wip-skill", skill_md("wip-skill"))
    assert names(scan_roots(["skills"], TRACKED)) == ["alpha", "beta"]
    assert names(scan_roots(["skills"], FILES)) == ["alpha", "beta", "wip-skill"]


def test_git_rm_cached_removes_a_skill_from_git_view_though_it_stays_on_disk():
    repository()
    git("rm", "-r", "-q", "--cached", "skills/alpha")
    assert names(scan_roots(["skills"], TRACKED)) == ["beta"]
    assert Path("skills/alpha/SKILL.md").exists()


def test_git_view_reads_the_staged_bytes_not_the_working_tree():
    repository()
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Staged words"))
    git("add", "skills/alpha/SKILL.md")
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha-renamed", "Unstaged words"))
    skill = {s.name: s for s in scan_roots(["skills"], TRACKED).skills}["alpha"]
    assert skill.description == "Staged words"


def test_a_skill_added_and_staged_in_one_step_is_seen():
    repository()
    write_skill(Path("skills"), "gamma", skill_md("gamma"))
    git("add", "skills/gamma")
    assert names(scan_roots(["skills"], TRACKED)) == ["alpha", "beta", "gamma"]


def test_on_a_clean_checkout_both_views_agree_links_included(tmp_path):
    repository()
    root = Path("skills")
    write_skill(root, ".hidden/secret", skill_md("secret"))
    write_skill(root, "nested/deep", skill_md("deep"))
    (root / "link-to-nested").symlink_to("nested")
    (root / "link-to-hidden").symlink_to(".hidden")
    (root / "dangling").symlink_to("nowhere")
    (root / "outside").symlink_to(tmp_path)
    (root / "file-link").mkdir()
    (root / "file-link" / "SKILL.md").symlink_to("../alpha/SKILL.md")
    (root / "alpha" / "notes.md").write_bytes(skill_md("from-notes"))
    (root / "other-name").mkdir()
    (root / "other-name" / "SKILL.md").symlink_to("../alpha/notes.md")
    git("add", "-A")
    tracked, files = scan_roots(["skills"], TRACKED), scan_roots(["skills"], FILES)
    assert [(s.path, s.name) for s in tracked.skills] == [(s.path, s.name) for s in files.skills]
    assert tracked.skipped == files.skipped
    assert {item["path"] for item in tracked.skipped} == {"dangling", "link-to-nested", "outside"}
    assert {"link-to-hidden/secret", "other-name"} <= {s.path for s in tracked.skills}
    assert render_block(tracked.skills) == render_block(files.skills)


def test_a_submodule_holding_skills_is_skipped_with_a_reason(tmp_path):
    upstream = repository(tmp_path / "upstream")
    repository()
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(upstream), "skills/vendored")
    catalog = scan_roots(["skills"], TRACKED)
    assert names(catalog) == ["alpha", "beta"]
    assert {"root": "skills", "path": "vendored", "reason": SUBMODULE} in catalog.skipped


def test_autocrlf_gives_the_same_block_as_the_file_system():
    git("init", "-q")
    git("config", "core.autocrlf", "true")
    write_skill(Path("skills"), "crlf", b"---\r\nname: crlf\r\ndescription: Test with CRLF\r\n---\r\n")
    git("add", "-A")
    git("commit", "-q", "-m", "crlf")
    tracked, files = scan_roots(["skills"], TRACKED), scan_roots(["skills"], FILES)
    assert render_block(tracked.skills) == render_block(files.skills)
    assert tracked.skills[0].description == "Test with CRLF"


def test_a_sparse_checkout_still_indexes_the_skills_left_off_the_disk():
    repository()
    git("sparse-checkout", "set", "--no-cone", "/skills/alpha/")
    assert not Path("skills/beta").exists()
    assert names(scan_roots(["skills"], TRACKED)) == ["alpha", "beta"]


def test_a_linked_worktree_has_its_own_view_and_cache(tmp_path):
    repository()
    git("worktree", "add", "-q", str(tmp_path / "other"))
    write_skill(tmp_path / "other" / "skills", "only-there", skill_md("only-there"))
    git("add", "-A", cwd=tmp_path / "other")
    os.chdir(tmp_path / "other")
    assert names(scan_roots(["skills"], TRACKED)) == ["alpha", "beta", "only-there"]
    cache = git("rev-parse", "--git-path", "skillmem/cache.json").strip()
    assert Path(cache).is_file()
    assert "worktrees" in cache


def test_an_unresolved_merge_conflict_skips_that_skill_with_a_reason():
    repository()
    git("checkout", "-q", "-b", "other")
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Theirs"))
    git("commit", "-q", "-am", "theirs")
    git("checkout", "-q", "-")
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Ours"))
    git("commit", "-q", "-am", "ours")
    subprocess.run(["git", "merge", "-q", "other"], capture_output=True)
    catalog = scan_roots(["skills"], TRACKED)
    assert names(catalog) == ["beta"]
    assert catalog.skipped[0]["path"] == "alpha"
    assert "merge conflict" in catalog.skipped[0]["reason"]


def test_tracked_outside_a_work_tree_is_a_usage_error():
    write_skill(Path("skills"), "a", skill_md("a"))
    with pytest.raises(UsageError, match="not inside a git work tree"):
        scan_roots(["skills"], TRACKED)
    assert names(scan_roots(["skills"], CatalogOptions(tracked=None))) == ["a"]


def test_a_root_outside_the_repository_is_read_from_disk_with_a_warning(tmp_path):
    outside = tmp_path / "outside"
    write_skill(outside, "far", skill_md("far"))
    Path("repo").mkdir()
    os.chdir("repo")
    repository()
    catalog = scan_roots(["skills", str(outside)], TRACKED)
    assert names(catalog) == ["alpha", "beta", "far"]
    assert catalog.notices == [{"root": str(outside), "notice": OUTSIDE_REPOSITORY}]


def test_the_cli_takes_git_view_with_tracked_and_verify_agrees_with_the_hook(capsys):
    repository()
    write_skill(Path("skills"), "wip", skill_md("wip"))
    Path("AGENTS.md").write_text("# Agents\n")
    assert run_cli(capsys, "inject", "--tracked", "--root", "skills", "--prompt-file", "AGENTS.md").code == 0
    assert b"wip" not in Path("AGENTS.md").read_bytes()
    assert (
        run_cli(capsys, "verify", "--strict", "--tracked", "--root", "skills", "--prompt-file", "AGENTS.md").code == 0
    )
    assert run_cli(capsys, "verify", "--strict", "--root", "skills", "--prompt-file", "AGENTS.md").code == 3
    Path(".skillmem.yaml").write_text("tracked: true\n")
    assert run_cli(capsys, "verify", "--strict", "--root", "skills", "--prompt-file", "AGENTS.md").code == 0


def test_git_missing_is_one_line_and_exit_2(capsys, monkeypatch):
    repository()
    monkeypatch.setenv("PATH", "/nonexistent")
    run = run_cli(capsys, "index", "--tracked", "--root", "skills")
    assert run.code == 2
    assert run.error["error"] == "git is not on PATH"


# The cache


def blob_reads(monkeypatch):
    """Count the blobs read per run, from git or from their work-tree copy, still reading them for real."""
    calls: list[int] = []
    real_blobs, real_checkout = blobs_module.read_blobs, checkout_module.read_checked_out

    def counting_blobs(oids, limit):
        calls[-1] += len(oids)
        return real_blobs(oids, limit)

    def counting_checkout(base, wanted):
        calls.append(0)
        for found in real_checkout(base, wanted):
            calls[-1] += 1
            yield found

    monkeypatch.setattr(blobs_module, "read_blobs", counting_blobs)
    monkeypatch.setattr(checkout_module, "read_checked_out", counting_checkout)
    return calls


def test_a_warm_cache_reads_no_blob_and_a_changed_skill_reads_one(monkeypatch):
    repository()
    calls = blob_reads(monkeypatch)
    first = render_block(scan_roots(["skills"], TRACKED).skills)
    assert calls == [2]
    assert render_block(scan_roots(["skills"], TRACKED).skills) == first
    assert calls == [2]
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Changed"))
    git("add", "-A")
    assert {s.name: s.description for s in scan_roots(["skills"], TRACKED).skills}["alpha"] == "Changed"
    assert calls == [2, 1]


def cache_file() -> Path:
    return Path(git("rev-parse", "--git-path", "skillmem/cache.json").strip())


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"{not json",
        b'{"format": "skillmem-cache-0", "entries": {}}',
        b"[1, 2, 3]",
        b"\xff\xfe\x00garbage",
        "lying entries",
        "truncated",
        "a letter changed",
    ],
)
def test_a_damaged_cache_is_rebuilt_never_an_error_never_a_wrong_block(damage, monkeypatch):
    repository()
    expected = render_block(scan_roots(["skills"], TRACKED).skills)
    described = {s.name: s.description for s in scan_roots(["skills"], TRACKED).skills}
    path = cache_file()
    data = path.read_bytes()
    if damage == "lying entries":  # checksum intact, sealed here: each entry's own check refuses it
        header, entries = cache_content()
        write_records_quietly(str(path), header, [key.encode() + b'\t["impostor",5,[],{}]' for key in entries])
    else:
        if damage == "truncated":
            data = data[: len(data) // 2]
        elif damage == "a letter changed":  # still valid JSON: only the checksum tells
            at = data.index(b"Parse CSV")
            data = data[:at] + b"Q" + data[at + 1 :]
        else:
            data = damage
        path.write_bytes(data)
    path.with_name("catalog.json").unlink()  # the cache, not the catalog snapshot, serves the next run
    catalog = scan_roots(["skills"], TRACKED)
    assert render_block(catalog.skills) == expected
    assert {s.name: s.description for s in catalog.skills} == described
    assert cache_content()[0]["format"] == "skillmem-cache-2"


def cache_content() -> tuple[dict[str, object], dict[str, object]]:
    """The cache file's header, and its entries by key."""
    if not cache_file().exists():
        return {}, {}
    header = json.loads(cache_file().read_bytes().partition(b"\n")[0])
    records = [record.partition(b"\t") for record in read_records(str(cache_file()), header, 1 << 30)]
    return header, {key.decode(): json.loads(raw) for key, _, raw in records}


def test_an_unwritable_cache_is_ignored():
    repository()
    cache_file().parent.write_text("a file where the cache's folder should be")  # fails even for root
    assert names(scan_roots(["skills"], TRACKED)) == ["alpha", "beta"]
    assert names(scan_roots(["skills"], TRACKED)) == ["alpha", "beta"]


def test_no_cache_writes_no_cache_file(capsys):
    repository()
    assert run_cli(capsys, "index", "--tracked", "--no-cache", "--root", "skills").code == 0
    assert not cache_file().exists()
    Path(".skillmem.yaml").write_text("cache: false\n")
    assert run_cli(capsys, "index", "--tracked", "--root", "skills").code == 0
    assert not cache_file().exists()


def test_concurrent_runs_never_corrupt_the_cache():
    repository()
    for number in range(40):
        write_skill(Path("skills"), f"many-{number}", skill_md(f"many-{number}", "x" * number))
    git("add", "-A")
    command = [sys.executable, "-m", "skillmem_hook", "prompt", "--tracked", "--root", "skills"]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE) for _ in range(8)]
    outputs = {process.communicate()[0] for process in processes}
    assert len(outputs) == 1
    assert len(cache_content()[1]) == 42
    assert not [path for path in cache_file().parent.iterdir() if path.suffix == ".tmp"]


def test_the_file_system_cache_sees_an_edit_in_the_same_second_that_keeps_the_size():
    repository()
    path = Path("skills/alpha/SKILL.md")
    stamp = time.time() - 1  # a second ago: as recent as a coarse clock (1 s, FAT's 2 s) can tell apart
    for word in ("first", "other", "third"):
        path.write_bytes(skill_md("alpha", word))  # same size, same mtime each time
        os.utime(path, (stamp, stamp))
        assert {s.name: s.description for s in scan_roots(["skills"], FILES).skills}["alpha"] == word
    # On a file system whose clock ticks coarsely the change time could match too: so a file written
    # this recently is never kept, and the next run reads it again.
    entries = cache_content()[1]
    assert not [key for key in entries if "alpha" in key]


def test_the_file_system_cache_serves_old_unchanged_files(monkeypatch):
    repository()
    old = time.time() - 3600
    for path in Path("skills").rglob("SKILL.md"):
        os.utime(path, (old, old))
    time.sleep(0.01)
    scan_roots(["skills"], FILES)  # ctime is recent, so nothing is kept yet
    from skillmem_hook.catalog.store import cache as cache_module

    monkeypatch.setattr(cache_module, "RACY_SECONDS", 0)
    scan_roots(["skills"], FILES)
    from skillmem_hook.catalog import reading as reading_module

    def fail(*_):
        raise AssertionError("read a file the cache holds")

    with monkeypatch.context() as patched:
        patched.setattr(reading_module, "read_skill_head", fail)
        assert names(scan_roots(["skills"], FILES)) == ["alpha", "beta"]
    time.sleep(0.02)
    path = Path("skills/alpha/SKILL.md")
    path.write_bytes(path.read_bytes().replace(b"Parse CSV files", b"Parse TSV files"))
    os.utime(path, (old, old))  # same size, same mtime: only the change time tells
    assert {s.name: s.description for s in scan_roots(["skills"], FILES).skills}["alpha"] == "Parse TSV files"


def test_the_hooks_view_is_git_inside_a_work_tree():
    repository()
    write_skill(Path("skills"), "wip-skill", skill_md("wip-skill"))
    catalog = scan_roots(["skills"], CatalogOptions(tracked=None))
    assert names(catalog) == ["alpha", "beta"]
    assert catalog.work_tree is not None


def test_the_hook_warns_about_a_root_outside_the_repository(tmp_path, capsys):
    from skillmem_hook.hooks.index import skill_index

    outside = tmp_path / "outside"
    write_skill(outside, "far", skill_md("far"))
    Path("repo").mkdir()
    os.chdir("repo")
    repository()
    Path("AGENTS.md").write_text("# A\n")
    assert skill_index(["--root", "skills", "--root", str(outside), "--prompt-file", "AGENTS.md"]) == 3
    err = capsys.readouterr().err
    assert f"skills root {outside}: {OUTSIDE_REPOSITORY}" in err
    assert b"far" in Path("AGENTS.md").read_bytes()


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_cache_that_is_a_fifo_or_an_endless_device_is_ignored_at_once(kind):
    repository()
    path = cache_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    command = [sys.executable, "-m", "skillmem_hook", "prompt", "--tracked", "--root", "skills"]
    result = subprocess.run(command, capture_output=True, timeout=30)
    assert result.returncode == 0
    assert b"alpha" in result.stdout


def test_a_root_git_tracks_nothing_below_is_said_not_silently_empty(capsys):
    from skillmem_hook.hooks.index import skill_index

    repository()
    Path(".gitignore").write_text(".claude/\n")
    write_skill(Path(".claude/skills"), "hello", skill_md("hello"))
    Path("AGENTS.md").write_text("# A\n")
    assert skill_index(["--root", ".claude/skills", "--prompt-file", "AGENTS.md"]) == 3
    err = capsys.readouterr().err
    assert "skills root .claude/skills: git ignores it, so git tracks no SKILL.md below it" in err


def test_the_hooks_name_the_skill_files_they_leave_out(capsys):
    from skillmem_hook.hooks.index import skill_index

    repository()
    write_skill(Path("skills"), "latin", b"---\nname: caf\xe9\n---\n")
    git("add", "-A")
    Path("AGENTS.md").write_text("# A\n")
    skill_index(["--root", "skills", "--prompt-file", "AGENTS.md"])
    err = capsys.readouterr().err
    assert "1 SKILL.md file left out of the block" in err
    assert "  skills/latin: the frontmatter is not valid UTF-8" in err


def test_a_cached_skill_keeps_its_sections_for_search():
    repository()
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Parse CSV", "\n## When to use\n\nFor tables.\n"))
    git("add", "-A")
    fresh = {s.name: s.sections for s in scan_roots(["skills"], TRACKED).skills}
    assert "tables" in fresh["alpha"]
    cache_file().with_name("catalog.json").unlink()  # so the cache, not the catalog snapshot, serves the next run
    assert {s.name: s.sections for s in scan_roots(["skills"], TRACKED).skills} == fresh


_PARTS = st.sampled_from(["a", "b", "pack", ".drafts", ".h", "x.y"])


@settings(max_examples=40)  # each example is a real repository: git init, add, two scans
@example(folders=[["pdf"], ["pack", ".drafts", "x"]], links=[])  # survivor 07: a hidden folder below the top
@example(folders=[["a"], [".drafts"]], links=[("l1", 1), ("l2", 1)])  # two links to one hidden folder
@example(folders=[[".drafts"], [".drafts", ".drafts"]], links=[("l1", 0)])  # a hidden folder below a linked one
@example(folders=[[".drafts"], [".drafts", "a"]], links=[("l1", 0), ("l2", 1)])  # a link into one listed already
@example(folders=[[".drafts"], [".drafts", "a"]], links=[("l1", 1), ("l2", 0)])  # a link around one listed already
@example(folders=[[".drafts"], ["a"], [".drafts", ".drafts"]], links=[("l1", 0), ("l2", 2)])  # into one it hid
@given(
    folders=st.lists(st.lists(_PARTS, min_size=1, max_size=4), min_size=1, max_size=8),
    links=st.lists(st.tuples(st.sampled_from(["l1", "l2"]), st.integers(0, 7)), max_size=2),
)
def test_on_a_clean_checkout_both_views_agree_whatever_folders_hide_and_links_lead(folders, links):
    """Survivor 07 of mutants-4: git's view listed skills/pack/.drafts/x, which the walk skips. A differential test:
    any tree of skills, hidden folders at any depth and links at the root, committed whole, gives the same catalog
    in both views (the hooks take git's, the CLI the disk's)."""
    start = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            git("init", "-q")
            for parts in folders:
                write_skill(Path("skills"), "/".join(parts), skill_md("-".join(parts).replace(".", "") or "dot"))
            for name, target in links:
                if not os.path.lexists(f"skills/{name}"):
                    os.symlink("/".join(folders[target % len(folders)]), f"skills/{name}")
            git("add", "-A")
            tracked, files = scan_roots(["skills"], TRACKED), scan_roots(["skills"], FILES)
            assert [(s.path, s.name) for s in tracked.skills] == [(s.path, s.name) for s in files.skills]
            assert tracked.skipped == files.skipped
            pairs = [[(dropped.path, kept.path) for dropped, kept in view.duplicates] for view in (tracked, files)]
            assert pairs[0] == pairs[1]  # a folder listed twice through links would be two skills of a name
        finally:
            os.chdir(start)


class _CountedPath(str):
    """A path that counts the prefix tests made on it: the work git's view does per index entry."""

    tests = 0

    def startswith(self, *args):
        _CountedPath.tests += 1
        return super().startswith(*args)


def test_many_links_into_hidden_folders_cost_git_view_a_few_tests_per_entry_not_one_per_link_and_entry():
    """A hostile tester's finding: 10,000 committed links skills/lN -> .h/N made the hook take a minute on every
    commit, warm cache included: each link scanned every index entry, and each entry it listed every folder followed.
    Counted, not timed: with 60 links and 122 entries the scans made 9,272 prefix tests; sorted slices, 182."""
    repository()
    for n in range(60):
        write_skill(Path("skills"), f".h/{n}", skill_md(f"s{n}"))
        os.symlink(f".h/{n}", f"skills/l{n}")
    git("add", "-A")
    entries = tracked_entries(["skills"])
    for entry in entries:
        entry.path = _CountedPath(entry.path)
    _CountedPath.tests = 0
    found, skipped = tracked_skill_files("skills", entries)
    assert sorted(tracked.relative for tracked in found) == sorted(["alpha", "beta", *(f"l{n}" for n in range(60))])
    assert skipped == []
    assert _CountedPath.tests <= 2 * len(entries), _CountedPath.tests


def test_the_hooks_keep_no_sections_and_search_after_them_reads_the_body_again(capsys):
    """The hooks skip search's sections (the block has no use for them); search after a hook still gets them all."""
    from skillmem_hook.hooks.index import skill_index

    repository()
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Parse CSV", "\n## When to use\n\nFor tables.\n"))
    git("add", "-A")
    fresh = {s.name: s.sections for s in scan_roots(["skills"], CatalogOptions(tracked=True, cache=False)).skills}
    Path("AGENTS.md").write_text("# A\n")
    skill_index(["--root", "skills", "--prompt-file", "AGENTS.md"])
    records = list(read_records(str(cache_file()), json.loads(cache_file().read_bytes().partition(b"\n")[0]), 1 << 30))
    assert [json.loads(record.partition(b"\t")[2])[6] for record in records] == [None, None]
    assert {s.name: s.sections for s in scan_roots(["skills"], TRACKED).skills} == fresh
    assert "tables" in fresh["alpha"]
