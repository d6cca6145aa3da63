"""``skillmem read NAME``: the SKILL.md an agent loads, by the name the block shows."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.catalog.skillfile.declared import USER_ONLY
from skillmem_hook.errors import UsageError

from ..helpers import run_cli, skill_md, write_skill


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "skills"
    write_skill(root, "spaced", skill_md("Review Pull Request", "Review a pull request", body="# Steps\r\nbyte \xe9\n"))
    write_skill(root, "@acme/pdf", skill_md("pdf", "Read PDF files"))
    write_skill(root, "csv", skill_md("csv-to-table", "Parse CSV files"))
    return root


@pytest.mark.parametrize(
    ("name", "folder"), [("Review Pull Request", "spaced"), ("@acme/pdf", "@acme/pdf"), ("csv-to-table", "csv")]
)
def test_read_prints_the_file_byte_for_byte(tree, capsysbinary, name, folder):
    from skillmem_hook.cli import main

    capsysbinary.readouterr()
    assert main(["read", "--root", str(tree), name]) == 0
    assert capsysbinary.readouterr().out == (tree / folder / "SKILL.md").read_bytes()


def test_a_byte_that_is_not_utf8_goes_out_unchanged(tree, capsysbinary):
    from skillmem_hook.cli import main

    data = skill_md("latin", "A skill") + b"caf\xe9\n"
    write_skill(tree, "latin", data)
    capsysbinary.readouterr()
    assert main(["read", "--root", str(tree), "latin"]) == 0
    assert capsysbinary.readouterr().out == data


def test_a_name_with_none_near_it_names_commands_that_list_the_skills(tree, capsys):
    # adopt4: `read crewai` of a deleted skill said "list the skills with 'skillmem search' or 'skillmem index'",
    # and a bare `skillmem search` exits 2 ("no intent to search for"). Each command the hint names must run.
    (tree.parent / ".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    run = run_cli(capsys, "read", "crewai")
    assert (run.code, run.error["hint"]) == (2, "list the skills: skillmem index --text (or skillmem search WORDS)")
    listing = run_cli(capsys, "index", "--text")
    assert listing.code == 0
    assert "csv-to-table" in listing.out
    assert run_cli(capsys, "search", "parse", "csv").code == 0


def test_an_unknown_name_exits_2_with_the_nearest_names(tree, capsys):
    run = run_cli(capsys, "read", "--root", tree, "csv-to-tabel")
    assert run.code == 2
    assert run.out == ""
    assert "csv-to-table" in run.error["hint"]


def test_a_skill_left_out_of_the_index_is_named_with_why_not_as_unknown(tree, capsys):
    # A newcomer's `read last30days` said "no skill named": the skill is there, left out as only the user invokes it.
    write_skill(tree, "last30days", b"---\nname: last30days\ndescription: d\ndisable-model-invocation: true\n---\n")
    run = run_cli(capsys, "read", "--root", tree, "last30days")
    assert run.code == 2
    assert run.out == ""
    assert run.error["error"] == (
        f"no skill named 'last30days': {tree}/last30days/SKILL.md is left out of the index ({USER_ONLY})"
    )
    assert run_cli(capsys, "read", "--root", tree, "last30").error["error"] == "no skill named 'last30'"


def test_a_skill_the_configuration_excludes_is_named_with_why(tree, capsys):
    (tree.parent / ".skillmem.yaml").write_text("roots: [skills]\nexclude: [csv-to-table]\n")
    run = run_cli(capsys, "read", "csv-to-table")
    assert run.code == 2
    assert run.error["error"] == (
        "no skill named 'csv-to-table': skills/csv/SKILL.md is excluded by the configuration"
        " (exclude: in .skillmem.yaml)"
    )


@pytest.mark.parametrize("path", ["team-a/deploy", "skills/team-a/deploy/SKILL.md"])
def test_a_skill_the_configuration_excludes_is_named_with_why_by_its_folder_s_path_too(two_deploys, capsys, path):
    """review4: by its name an excluded skill got "excluded, and why"; by its folder's path, "no skill named"."""
    (two_deploys.parent / ".skillmem.yaml").write_text("roots: [skills]\nexclude: [ship-a]\n")
    run = run_cli(capsys, "read", path)
    assert (run.code, run.out) == (2, "")
    assert run.error["error"] == (
        f"no skill named '{path}': skills/team-a/deploy/SKILL.md is excluded by the configuration"
        " (exclude: in .skillmem.yaml)"
    )
    assert run_cli(capsys, "read", "team-b/deploy").code == 0  # the other folder of that name is read


@pytest.mark.parametrize("folder", ["csv", "CSV", " csv "])
def test_a_skill_the_configuration_excludes_is_named_with_why_by_its_folder_s_name_too(tree, capsys, folder):
    """tidy12: `read csv` of the excluded csv-to-table said "no skill named 'csv'", by its name and path it said why."""
    (tree.parent / ".skillmem.yaml").write_text("roots: [skills]\nexclude: [csv-to-table]\n")
    run = run_cli(capsys, "read", folder)
    assert (run.code, run.out) == (2, "")
    assert run.error == {
        "tool": "skillmem read",
        "error": f"no skill named {folder.strip()!r}: skills/csv/SKILL.md is excluded by the configuration"
        " (exclude: in .skillmem.yaml)",
        "hint": "an excluded skill is offered to no agent; read the file itself",
    }


def test_the_real_cli_names_an_excluded_skill_by_its_folder_s_name_with_why(tree):
    """The same through the program a person runs: one JSON line on stderr, nothing on stdout, exit 2."""
    (tree.parent / ".skillmem.yaml").write_text("roots: [skills]\nexclude: [csv-to-table]\n")
    result = subprocess.run(
        [sys.executable, "-m", "skillmem_hook", "read", "csv"], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert json.loads(result.stderr)["error"] == (
        "no skill named 'csv': skills/csv/SKILL.md is excluded by the configuration (exclude: in .skillmem.yaml)"
    )


def test_a_skill_in_a_folder_of_that_name_is_read_before_an_excluded_one(two_deploys, capsysbinary):
    """The bare folder's name of an excluded skill answers only when no skill the block lists is in such a folder."""
    from skillmem_hook.cli import main

    (two_deploys.parent / ".skillmem.yaml").write_text("roots: [skills]\nexclude: [ship-a]\n")
    capsysbinary.readouterr()
    assert main(["read", "deploy"]) == 0
    assert capsysbinary.readouterr().out == (two_deploys / "team-b" / "deploy" / "SKILL.md").read_bytes()


def test_a_duplicate_left_out_is_read_by_its_folder_s_name_as_by_its_path(tmp_path, capsys, monkeypatch):
    """tidy12: `read two` of the duplicate the block leaves out said "no skill named 'two'"; `read skills/two`
    read it. Its folder's name reads it, with the note a folder's name gets; the one the block lists is read first."""
    monkeypatch.chdir(tmp_path)
    write_skill(tmp_path / "skills", "one", skill_md("dup", "The first of two"))
    write_skill(tmp_path / "skills", "two", skill_md("dup", "The second of two"))
    for folder in ("two", "Two"):
        run = run_cli(capsys, "read", "--root", "skills", folder)
        assert (run.code, run.out) == (0, skill_md("dup", "The second of two").decode())
        assert (
            run.err == f"skillmem read: no skill is named '{folder}': read 'dup' by its folder (skills/two/SKILL.md)\n"
        )
    assert run_cli(capsys, "read", "--root", "skills", "dup").out == skill_md("dup", "The first of two").decode()
    assert run_cli(capsys, "read", "--root", "skills", "one").out == skill_md("dup", "The first of two").decode()


def test_a_skill_the_block_lists_is_read_by_its_folder_s_name_before_a_duplicate_left_out(
    tmp_path, capsys, monkeypatch
):
    """Two folders named ``tool`` hold two skills named ``dup``: the folder's name reads the one the block lists, as
    the name does; the other is read by its folder's path."""
    monkeypatch.chdir(tmp_path)
    write_skill(tmp_path / "skills", "a/tool", skill_md("dup", "The first of two"))
    write_skill(tmp_path / "skills", "b/tool", skill_md("dup", "The second of two"))
    assert run_cli(capsys, "read", "--root", "skills", "tool").out == skill_md("dup", "The first of two").decode()
    assert run_cli(capsys, "read", "--root", "skills", "b/tool").out == skill_md("dup", "The second of two").decode()


@pytest.mark.parametrize("path", ["team/last30days", "skills/team/last30days/", "skills/team/last30days/SKILL.md"])
def test_a_skill_left_out_of_the_index_is_named_with_why_by_its_folder_s_path_too(tree, capsys, path):
    """review4: `read team/last30days` of a skill only its user invokes answered "no skill named", with guesses."""
    write_skill(
        tree, "team/last30days", b"---\nname: last30days\ndescription: d\ndisable-model-invocation: true\n---\n"
    )
    run = run_cli(capsys, "read", "--root", "skills", path)
    assert (run.code, run.out) == (2, "")
    assert run.error["error"] == (
        f"no skill named '{path}': skills/team/last30days/SKILL.md is left out of the index ({USER_ONLY})"
    )
    assert run_cli(capsys, "read", "--root", "skills", "other/last30days").error["error"] == (
        "no skill named 'other/last30days'"
    )


# The variants MCP's skill_read accepts (issue 28 §9): case, width and separators aside, by the same function.
@pytest.mark.parametrize(
    ("name", "folder"),
    [("review-pull-request", "spaced"), ("REVIEW_pull request", "spaced"), ("CSV to table", "csv")],
)
def test_read_takes_the_name_in_any_case_and_with_any_separators_as_mcp_does(tree, capsysbinary, name, folder):
    from skillmem_hook.agents.library import SkillLibrary
    from skillmem_hook.cli import main

    capsysbinary.readouterr()
    assert main(["read", "--root", str(tree), name]) == 0
    assert capsysbinary.readouterr().out == (tree / folder / "SKILL.md").read_bytes()
    assert SkillLibrary([str(tree)]).read_skill(name)["path"] == str(tree / folder / "SKILL.md")


def test_a_variant_two_duplicates_fit_reads_the_one_the_block_lists_as_mcp_does(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_skill(tmp_path / "skills", "a", skill_md("web-scraper", "Scrape pages"))
    write_skill(tmp_path / "skills", "b", skill_md("web_scraper", "Scrape pages too"))
    run = run_cli(capsys, "read", "--root", "skills", "Web Scraper")
    assert (run.code, "Scrape pages too" in run.out) == (0, False)
    served = SkillLibrary(["skills"]).read_skill("Web Scraper")
    assert served["path"] == os.path.join("skills", "a", "SKILL.md")


def test_two_skills_of_one_name_read_the_kept_one_unless_path_picks_the_other(tmp_path, capsys, monkeypatch):
    """new user 4: the block lists 'pdf' once, MCP served it, and `skillmem read pdf` was exit 2."""
    monkeypatch.chdir(tmp_path)
    write_skill(tmp_path / "one", "pdf", skill_md("pdf", "First"))
    write_skill(tmp_path / "two", "pdf", skill_md("pdf", "Second"))
    roots = ["--root", "one", "--root", "two"]
    run = run_cli(capsys, "read", *roots, "pdf")
    assert (run.code, "First" in run.out) == (0, True)
    picked = run_cli(capsys, "read", *roots, "pdf", "--path", os.path.join("two", "pdf"))
    assert (picked.code, "Second" in picked.out) == (0, True)
    wrong = run_cli(capsys, "read", *roots, "pdf", "--path", "three/pdf")
    assert wrong.code == 2


def test_a_file_swapped_for_a_link_out_of_the_root_exits_2(tree, capsys, tmp_path):
    (tmp_path / "secret").write_text("root:x:0:0\n")
    linked = tree / "csv" / "SKILL.md"
    linked.unlink()
    os.symlink(tmp_path / "secret", linked)
    run = run_cli(capsys, "read", "--root", tree, "csv-to-table")
    assert run.code == 2
    assert "root:x" not in run.out + run.err


def test_in_gits_view_a_tracked_file_swapped_for_a_link_in_the_work_tree_is_refused(tree, capsys, tmp_path):
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q"], check=True)
    subprocess.run(["git", "add", "-A"], check=True)
    (tmp_path / "secret").write_text("root:x:0:0\n")
    linked = tree / "csv" / "SKILL.md"
    linked.unlink()
    os.symlink(tmp_path / "secret", linked)  # git's index still lists the regular file
    run = run_cli(capsys, "read", "--tracked", "--root", tree, "csv-to-table")
    assert run.code == 2
    assert "leads out of the skills root" in run.error["error"]
    assert "root:x" not in run.out


def test_a_relative_path_picks_a_skill_of_an_absolute_root(tree, capsysbinary):
    """Found beside hostile-4: read NAME --root /abs/skills --path skills/b/pdf said "no skill named 'pdf' at ..."."""
    from skillmem_hook.cli import main

    write_skill(tree, "b/pdf", skill_md("pdf", "Another pdf"))
    for path in ("skills/b/pdf", "skills/b/pdf/SKILL.md", "./skills/../skills/b/pdf"):
        capsysbinary.readouterr()
        assert main(["read", "--root", str(tree), "pdf", "--path", path]) == 0
        assert capsysbinary.readouterr().out == skill_md("pdf", "Another pdf")
    assert main(["read", "--root", "skills", "pdf", "--path", str(tree / "b" / "pdf")]) == 0


@pytest.fixture
def titled(tmp_path, monkeypatch):
    """newcomer-ad 10: skills whose name is a title, in folders named as a user types them."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "skills"
    write_skill(root, "cloudflare-r2", skill_md("Cloudflare R2 Object Storage", "Store files in Cloudflare R2"))
    write_skill(root, "cloudflare-kv", skill_md("Cloudflare Workers KV", "Keep keys and values at the edge"))
    write_skill(root, "cloudflare-nextjs", skill_md("cloudflare-nextjs", "Deploy Next.js to Cloudflare"))
    write_skill(root, "tailwind-v4-shadcn", skill_md("Tailwind v4 + shadcn/ui Stack", "Style an app"))
    return root


@pytest.mark.parametrize("name", ["cloudflare-r2", "CLOUDFLARE_R2", " cloudflare r2 ", "Ｃｌｏｕｄｆｌａｒｅ-R2"])
def test_a_name_no_skill_has_reads_the_one_skill_in_a_folder_of_that_name_and_says_so(titled, capsysbinary, name):
    from skillmem_hook.cli import main

    capsysbinary.readouterr()
    assert main(["read", "--root", str(titled), name]) == 0
    captured = capsysbinary.readouterr()
    assert captured.out == (titled / "cloudflare-r2" / "SKILL.md").read_bytes()
    assert captured.err.decode() == (
        f"skillmem read: no skill is named '{name.strip()}': read 'Cloudflare R2 Object Storage' by its folder"
        f" ({titled}/cloudflare-r2/SKILL.md)\n"
    )
    found = SkillLibrary([str(titled)]).read_skill(name)  # MCP's skill_read: the same skill, the same words
    assert (found["name"], found["note"]) == ("Cloudflare R2 Object Storage", captured.err.decode()[15:-1])


def test_a_name_a_skill_has_wins_over_another_skills_folder_of_that_name(titled, capsysbinary):
    from skillmem_hook.cli import main

    write_skill(titled, "other/cloudflare-nextjs", skill_md("Next on Workers", "Another skill in a folder so named"))
    capsysbinary.readouterr()
    assert main(["read", "--root", str(titled), "cloudflare-nextjs"]) == 0
    captured = capsysbinary.readouterr()
    assert captured.out == (titled / "cloudflare-nextjs" / "SKILL.md").read_bytes() and captured.err == b""
    assert "note" not in SkillLibrary([str(titled)]).read_skill("cloudflare-nextjs")


def test_two_skills_in_folders_of_that_name_are_no_read_but_the_first_suggestions(titled, capsys):
    write_skill(titled, "vendor/cloudflare-r2", skill_md("R2 Uploads", "Upload files to R2"))
    run = run_cli(capsys, "read", "--root", titled, "cloudflare-r2")
    assert (run.code, run.out) == (2, "")
    assert run.error["error"] == "no skill named 'cloudflare-r2'"
    assert run.error["hint"].startswith("did you mean 'Cloudflare R2 Object Storage', 'R2 Uploads'")
    assert main_read_path(capsys, titled, "cloudflare-r2", titled / "vendor" / "cloudflare-r2") == 0  # --path picks
    with pytest.raises(UsageError, match="no skill named 'cloudflare-r2'") as caught:
        SkillLibrary([str(titled)]).read("cloudflare-r2")
    assert caught.value.hint.startswith("did you mean 'Cloudflare R2 Object Storage', 'R2 Uploads'")


def main_read_path(capsys, root, name, path):
    return run_cli(capsys, "read", "--root", root, name, "--path", path).code


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("cloudflare-r3", "Cloudflare R2 Object Storage"),  # spelled like a folder's name: its skill's name
        ("Tailwind v4", "Tailwind v4 + shadcn/ui Stack"),  # newcomer-ad 10: nothing was suggested
        ("cloudflare-kw", "Cloudflare Workers KV"),
    ],
)
def test_did_you_mean_names_the_skill_whose_folder_is_spelled_like_the_name(titled, capsys, name, first):
    run = run_cli(capsys, "read", "--root", titled, name)
    assert run.code == 2 and run.error["hint"].startswith(f"did you mean '{first}'")
    with pytest.raises(UsageError) as caught:
        SkillLibrary([str(titled)]).read(name)
    assert caught.value.hint.startswith(f"did you mean '{first}'")


def test_an_excluded_skill_s_name_is_not_read_by_another_skill_s_folder(titled, capsys):
    write_skill(titled, "elsewhere", skill_md("cloudflare-r2", "An excluded skill of that name"))
    (titled.parent / ".skillmem.yaml").write_text("roots: [skills]\nexclude: [cloudflare-r2]\n")
    run = run_cli(capsys, "read", "cloudflare-r2")
    assert run.code == 2 and "is excluded by the configuration" in run.error["error"]


@pytest.fixture
def two_deploys(tmp_path, monkeypatch):
    """tidy9: two skills in folders of one name, team-a/deploy and team-b/deploy, named otherwise."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "skills"
    write_skill(root, "team-a/deploy", skill_md("ship-a", "Deploy team A's services to production"))
    write_skill(root, "team-b/deploy", skill_md("ship-b", "Deploy team B's services to staging"))
    return root


def test_two_skills_in_folders_of_one_name_are_suggested_by_their_folder_s_path(two_deploys, capsys):
    run = run_cli(capsys, "read", "--root", "skills", "deploy")
    assert (run.code, run.out) == (2, "")
    said = "did you mean 'ship-a', 'ship-b'? or name one by its folder's path: 'team-a/deploy', 'team-b/deploy'"
    assert run.error["hint"] == said
    with pytest.raises(UsageError) as caught:
        SkillLibrary(["skills"]).read("deploy")  # MCP's skill_read: the same words
    assert caught.value.hint.startswith(said)


@pytest.mark.parametrize(
    "path", ["team-a/deploy", "skills/team-a/deploy", "skills/team-a/deploy/SKILL.md", "./skills/team-a/deploy/"]
)
def test_a_folder_s_path_reads_that_skill_in_the_cli_and_in_mcp(two_deploys, capsysbinary, path):
    from skillmem_hook.cli import main

    capsysbinary.readouterr()
    assert main(["read", "--root", "skills", path]) == 0
    captured = capsysbinary.readouterr()
    assert (captured.out, captured.err) == ((two_deploys / "team-a" / "deploy" / "SKILL.md").read_bytes(), b"")
    found = SkillLibrary(["skills"]).read_skill(path)
    assert (found["name"], "note" in found) == ("ship-a", False)


def test_a_folder_s_path_reads_a_duplicate_left_out(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for team in ("team-a", "team-b"):  # no name: both are "deploy", and the block lists one
        write_skill(tmp_path / "skills", f"{team}/deploy", skill_md(None, f"Deploy {team}'s services"))
    run = run_cli(capsys, "read", "--root", "skills", "team-b/deploy")
    assert (run.code, run.out) == (0, skill_md(None, "Deploy team-b's services").decode())


def test_a_path_two_roots_hold_suggests_each_as_the_index_lists_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for root in ("skills", "more"):
        write_skill(tmp_path / root, "team/deploy", skill_md(f"deploy-{root}", f"Deploy from {root}"))
    run = run_cli(capsys, "read", "--root", "skills", "--root", "more", "team/deploy")
    assert run.code == 2
    assert run.error["hint"].endswith("or name one by its folder's path: 'more/team/deploy', 'skills/team/deploy'")
    run = run_cli(capsys, "read", "--root", "skills", "--root", "more", "more/team/deploy")
    assert (run.code, run.out) == (0, skill_md("deploy-more", "Deploy from more").decode())


def test_a_folder_s_path_reads_nothing_a_link_takes_out_of_the_root(two_deploys, tmp_path, capsys):
    outside = tmp_path / "outside" / "deploy"
    write_skill(outside.parent, "deploy", skill_md("secret", "Outside the root"))
    (two_deploys / "team-c").mkdir()
    (two_deploys / "team-c" / "deploy").symlink_to(outside)
    for path in ("team-c/deploy", "skills/team-c/deploy", str(outside), "../outside/deploy"):
        run = run_cli(capsys, "read", "--root", "skills", path)
        assert (run.code, run.out) == (2, "")
        with pytest.raises(UsageError):
            SkillLibrary(["skills"]).read(path)


def git(*args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com"}
    env.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True, env=env).stdout


@pytest.fixture
def renamed_repo(tmp_path, monkeypatch):
    """newcomer en3: algolia-search moved to search-algolia (its name: too), beside an exa-search spelled near it."""
    monkeypatch.chdir(tmp_path)
    git("init", "-q")
    write_skill(tmp_path / "skills", "algolia-search", skill_md("algolia-search", "Index records with Algolia"))
    write_skill(tmp_path / "skills", "exa-search", skill_md("exa-search", "Search the web with Exa"))
    git("add", "-A")
    git("commit", "-qm", "skills")
    git("mv", "skills/algolia-search", "skills/search-algolia")
    (tmp_path / "skills/search-algolia/SKILL.md").write_bytes(skill_md("search-algolia", "Index records with Algolia"))
    return tmp_path


def test_a_name_renamed_since_the_last_commit_is_told_its_new_name(renamed_repo, capsys):
    run = run_cli(capsys, "read", "--root", "skills", "algolia-search")
    assert run.code == 2
    assert run.error["hint"] == (
        "it was renamed 'search-algolia' since the last commit, its folder algolia-search -> search-algolia:"
        " skillmem read search-algolia"
    )


def test_a_name_renamed_in_a_commit_is_told_its_new_name_and_the_commit(renamed_repo, capsys):
    git("add", "-A")
    git("commit", "-qm", "rename")
    commit = git("rev-parse", "HEAD").strip()[:12]
    run = run_cli(capsys, "read", "--root", "skills", "ALGOLIA_search")  # compared as names are
    assert run.error["hint"].startswith(f"it was renamed 'search-algolia' in commit {commit}, its folder")
    # then renamed again, in place (only its name: edited) and committed: the chain ends at the name it has now
    (renamed_repo / "skills/search-algolia/SKILL.md").write_bytes(skill_md("algolia", "Index records with Algolia"))
    git("commit", "-qam", "shorter")
    hint = run_cli(capsys, "read", "--root", "skills", "algolia-search").error["hint"]
    assert hint.startswith(f"it was renamed 'algolia' in commit {commit}") and hint.endswith("skillmem read algolia")
    assert run_cli(capsys, "read", "--root", "skills", "search-algolia").code == 0  # its folder's name reads it


def test_a_name_git_knows_nothing_of_is_still_told_the_names_spelled_like_it(renamed_repo, capsys):
    assert run_cli(capsys, "read", "--root", "skills", "exa-serch").error["hint"] == "did you mean 'exa-search'?"
    git("add", "-A")
    git("commit", "-qm", "rename")
    outside = renamed_repo / "elsewhere"  # no git here: no rename told, and no error of git's
    write_skill(outside / "skills", "exa-search", skill_md("exa-search", "Search the web with Exa"))
    run = run_cli(capsys, "read", "--root", str(outside / "skills"), "algolia-search")
    assert run.error["hint"] == "did you mean 'exa-search'?"
