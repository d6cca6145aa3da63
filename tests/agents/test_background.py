"""The route hook's background builds: one marker rule for both, a marker that counts for BUILD_SECONDS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from skillmem_hook.agents import background
from skillmem_hook.agents.background import BUILD_SECONDS, claim, current_or_built, kept_fresh, release
from skillmem_hook.agents.route import RouteInputError
from skillmem_hook.search import store

from ..helpers import make_git_dir, skill_md, write_skill


def aged(path, seconds):
    """Give ``path`` itself (a link, not its target) a modification time ``seconds`` ago (negative: ahead)."""
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def test_one_claim_makes_the_marker_and_a_second_is_refused_while_it_counts(tmp_path):
    marker = str(tmp_path / "cache" / "index.json.building")
    assert claim(marker) is True  # the folder is made as the index's would be
    assert claim(marker) is False
    aged(marker, BUILD_SECONDS - 10)
    assert claim(marker) is False


def test_of_two_prompts_at_once_only_the_one_whose_marker_lands_first_builds(tmp_path, monkeypatch):
    marker = tmp_path / "index.json.building"

    def checked_just_before_another_prompt_made_it(path):
        marker.write_bytes(b"")  # the other prompt's marker lands between this one's look and its own
        raise FileNotFoundError(path)

    with monkeypatch.context() as patched:
        patched.setattr(os, "lstat", checked_just_before_another_prompt_made_it)
        assert claim(str(marker)) is False


def test_a_marker_older_than_build_seconds_is_taken_for_a_dead_build_and_made_anew(tmp_path):
    marker = tmp_path / "index.json.building"
    marker.write_bytes(b"")
    aged(marker, BUILD_SECONDS + 10)
    assert claim(str(marker)) is True
    assert abs(time.time() - marker.stat().st_mtime) < BUILD_SECONDS / 2
    assert claim(str(marker)) is False


def test_a_marker_from_the_future_does_not_hold_builds_back_for_ever(tmp_path):
    # A copy that kept its times (tar, rsync -t) or a clock set back: 'younger than 120 s' would hold for a year.
    marker = tmp_path / "index.json.building"
    marker.write_bytes(b"")
    aged(marker, -365 * 24 * 3600)
    assert claim(str(marker)) is True


def test_a_link_in_the_markers_place_is_replaced_never_followed(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep")
    marker = tmp_path / "index.json.building"
    marker.symlink_to(target)
    aged(marker, BUILD_SECONDS + 10)
    assert claim(str(marker)) is True
    assert not marker.is_symlink() and marker.read_bytes() == b""
    assert target.read_bytes() == b"keep"


def test_a_folder_that_cannot_hold_a_marker_is_not_taken_for_a_build_under_way(tmp_path):
    (tmp_path / "file").write_bytes(b"")
    assert claim(str(tmp_path / "file" / "index.json.building")) is None


def test_release_removes_the_marker_and_none_is_no_marker(tmp_path):
    marker = str(tmp_path / "index.json.building")
    claim(marker)
    release(marker)
    assert not os.path.lexists(marker)
    release(None)
    release(marker)  # already gone: nothing to say


def route(repo, prompt):
    data = json.dumps({"prompt": prompt, "cwd": str(repo), "hook_event_name": "UserPromptSubmit"}).encode()
    command = [sys.executable, "-m", "skillmem_hook", "route"]
    result = subprocess.run(command, input=data, capture_output=True, timeout=60, check=True)
    return result.stdout, result.stderr


def test_the_route_index_follows_the_same_rule_whatever_process_made_the_marker(tmp_path):
    # Before issue 30 the route's marker held its builder's pid, and a pid that no longer ran meant "build again"
    # at once; a pid can be reused (after a reboot) or be another host's. Now a marker counts by its age alone.
    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    write_skill(repo / "skills", "csv-to-table", skill_md("csv-to-table", "Parse CSV files into tables"))
    marker = repo / ".git" / "skillmem-route.json.building"
    marker.write_bytes(b"999999999")  # what 0.4.1's builder wrote: a pid, here one no process has
    stdout, stderr = route(repo, "use the csv-to-table skill")
    assert stdout == b"" and b"still being built" in stderr
    aged(marker, BUILD_SECONDS + 10)
    stdout, stderr = route(repo, "use the csv-to-table skill")
    assert b"csv-to-table" in stdout and stderr == b""
    assert not marker.exists()  # the build that made it removed it


@pytest.fixture
def short_window(monkeypatch):
    """A window of one second and a touch every fifth of one: a build of seconds outlives the window."""
    monkeypatch.setattr(background, "BUILD_SECONDS", 1.0)
    monkeypatch.setattr(background, "HEARTBEAT_SECONDS", 0.2)


def slowed(function, seconds):
    """``function``, started ``seconds`` late: a build as long as a large collection's, of a small one."""

    def late(*arguments, **keywords):
        time.sleep(seconds)
        return function(*arguments, **keywords)

    return late


def test_a_running_build_keeps_its_marker_counting_however_long_it_takes(tmp_path, short_window):
    marker = str(tmp_path / "index.json.building")
    assert claim(marker) is True
    with kept_fresh(marker):
        for _ in range(5):  # 2.5 s: past the window twice over
            time.sleep(0.5)
            assert claim(marker) is False
    release(marker)
    assert claim(marker) is True


def test_a_build_that_died_stops_counting_a_window_after_its_last_touch(tmp_path, short_window):
    marker = str(tmp_path / "index.json.building")
    assert claim(marker) is True
    with kept_fresh(marker):
        time.sleep(0.5)
    time.sleep(1.5)  # no touch since: the build is taken for dead
    assert claim(marker) is True


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded")  # the test's own thread waits for the fork
def test_a_route_build_that_outlives_the_window_is_not_started_twice(tmp_path, monkeypatch, short_window):
    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    write_skill(repo / "skills", "csv-to-table", skill_md("csv-to-table", "Parse CSV files into tables"))
    monkeypatch.chdir(repo)
    location = str(repo / ".git" / "skillmem-route.json")
    # The forked builder inherits the slowed build and the short window.
    monkeypatch.setattr(background, "build_route_index", slowed(background.build_route_index, 3.0))
    built = []
    first = threading.Thread(target=lambda: built.append(current_or_built(location, None)))
    first.start()
    time.sleep(2.0)  # the first build's marker is now older than the window, but touched since
    with pytest.raises(RouteInputError, match="still being built"):
        current_or_built(location, None)  # a second prompt: no second build beside the first
    first.join(30)
    assert [row[0] for row in built[0].rows] == ["csv-to-table"]
    assert not os.path.exists(location + ".building")


def test_the_search_index_build_keeps_its_marker_counting_too(tmp_path, monkeypatch, short_window):
    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    write_skill(repo / "skills", "csv-to-table", skill_md("csv-to-table", "Parse CSV files into tables"))
    monkeypatch.chdir(repo)
    for path in [repo / "skills", *(repo / "skills").rglob("*")]:  # a settled disk: a racy index is not kept
        os.utime(path, (1_000_000_000, 1_000_000_000))
    location = str(repo / ".git" / "skillmem-search.json")
    assert claim(location + ".building") is True  # as refresh_search_index claims it for the process it starts
    monkeypatch.setattr(store, "load_or_build_at", slowed(store.load_or_build_at, 2.5))
    build = threading.Thread(target=background._build_and_store, args=([location, "skills"],))
    build.start()
    time.sleep(2.0)
    assert claim(location + ".building") is False
    build.join(30)
    assert os.path.isfile(location)
    assert not os.path.exists(location + ".building")
