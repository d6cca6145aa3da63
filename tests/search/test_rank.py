from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.confidence import fit
from skillmem_hook.search.rank import SearchIndex, rank, search
from skillmem_hook.search.tuning import Tuning

from .sample_skills import SKILLS, make


def names(hits):
    return [hit.skill.name for hit in hits]


def test_english_words_find_their_skill_in_any_inflection():
    assert names(search(SKILLS, "my postgres query is slow, which index?", top=1)) == ["postgres-tuning"]


def test_a_chinese_question_finds_an_english_skill_through_the_glossary():
    assert names(search(SKILLS, "怎么给网站做无障碍检查", top=1)) == ["wcag-audit"]
    assert names(search(SKILLS, "集群里怎么部署容器", top=1)) == ["k8s-deploy"]


def test_a_word_the_user_typed_outweighs_its_glossary_translation():
    """Of two skills that say the same in two languages, the one in the query's own language comes first."""
    skills = [make("a-cn", "部署 服务"), make("b-en", "deploy service"), make("c-other", "write unit tests")]
    english = search(skills, "deploy", top=3)
    assert names(english) == ["b-en", "a-cn"]
    assert english[0].score > english[1].score
    chinese = search(skills, "部署", top=3)
    assert names(chinese) == ["a-cn", "b-en"]
    assert chinese[0].score > chinese[1].score


def test_a_rare_word_outweighs_a_common_one():
    skills = [
        make(f"{letter}-deploy", f"deploy {thing}") for letter, thing in zip("abcd", ["apps", "sites", "jobs", "dbs"])
    ]
    skills.append(make("z-kube", "kubernetes clusters"))
    assert names(search(skills, "deploy kubernetes", top=2))[0] == "z-kube"


def test_a_word_said_twice_counts_twice_even_side_by_side():
    skills = [make("a-once", "deploy service quickly"), make("b-twice", "deploy deploy service")]
    assert names(search(skills, "deploy", top=2)) == ["b-twice", "a-once"]


def test_holding_more_of_the_query_beats_repeating_one_word_of_it():
    """Term frequency saturates: a skill that says 'deploy' five times does not outrank one that covers the query."""
    skills = [
        make("a-stuffed", "deploy deploy deploy deploy deploy services"),
        make("b-both", "deploy services on kubernetes"),
        make("c-other", "kubernetes cluster admin"),
        make("d-other", "write tests"),
        make("e-other", "review code"),
    ]
    assert names(search(skills, "deploy to kubernetes", top=2)) == ["b-both", "a-stuffed"]


def test_holding_most_of_the_query_beats_holding_only_its_rarest_word_many_times():
    """Coverage weighs the score: 'backup' said three times is one word of the four asked for."""
    others = [
        make("cache-restore", "Restore a cache"),
        make("mail", "Restore mail"),
        make("photos", "Restore photos"),
        make("sql", "Database queries"),
        make("orm", "Database models"),
        make("migrations", "Database migrations"),
        make("vm", "Snapshot a virtual machine"),
        make("disk", "Snapshot disks"),
        make("ui", "Snapshot tests"),
        make("pdf", "Read PDF files"),
        make("csv-tables", "Parse CSV files into tables"),
        make("k8s-deploy", "Deploy containers to a Kubernetes cluster"),
        make("charts", "Render charts"),
    ]
    snapshots = make(
        "db-snapshots",
        "Restore a database snapshot taken by the nightly job on the production cluster with integrity "
        "checks and a report sent to the team channel afterwards so everyone",
    )
    skills = [make("backup", "Backup backup backup"), snapshots, *others]
    assert names(search(skills, "backup restore database snapshot", top=2)) == ["db-snapshots", "backup"]


def test_a_chinese_question_finds_a_chinese_skill():
    assert names(search(SKILLS, "数据库每天自动备份", top=1)) == ["数据库备份"]


def test_body_sections_count():
    assert names(search(SKILLS, "sessions expire", top=1)) == ["jwt-auth"]
    assert search(SKILLS, "sessions expire", tuning=Tuning(sections_weight=0.0)) == []


def test_the_name_outweighs_the_description():
    skills = [make("terraform", "Manage cloud setups"), make("cloud-setup", "Write terraform for the cloud")]
    assert names(search(skills, "terraform", top=2)) == ["terraform", "cloud-setup"]


def test_equal_scores_go_in_name_order_whatever_the_input_order():
    twins = [make(name, "Render charts from CSV data") for name in ("y-chart", "z-chart", "x-chart")]
    hits = search(twins, "render charts", top=3)
    assert names(hits) == ["x-chart", "y-chart", "z-chart"]
    assert len({hit.score for hit in hits}) == 1


def test_scores_are_rounded_and_nothing_unmatched_is_returned():
    hits = search(SKILLS, "kubernetes", top=10)
    assert names(hits) == ["k8s-deploy"]
    assert hits[0].score == round(hits[0].score, 4) > 0


def test_configured_aliases_exact_and_prefix_weigh_like_the_name():
    assert search(SKILLS, "記憶 remember") == []
    aliases = {"prompt-caching": ["remember"], "k8s-*": ["舵手"]}
    assert names(search(SKILLS, "remember", aliases=aliases, top=1)) == ["prompt-caching"]
    assert names(search(SKILLS, "舵手", aliases=aliases, top=1)) == ["k8s-deploy"]


def test_metadata_aliases_are_a_comma_separated_string():
    skills = [*SKILLS, make("viking-memory", "Notes for later", metadata={"aliases": "记忆, 回忆 ,recall"})]
    assert names(search(skills, "回忆", top=1)) == ["viking-memory"]
    assert names(search(skills, "recall", top=1)) == ["viking-memory"]


def test_an_index_built_once_answers_many_queries_like_search():
    index = SearchIndex.build(SKILLS)
    for query in ("kubernetes deploy", "数据库", "token auth"):
        assert names(index.query(query, 3)) == names(search(SKILLS, query, top=3))


@given(st.permutations(SKILLS), st.sampled_from(["database slow", "部署 集群", "token login", "accessibility"]))
def test_the_ranking_does_not_depend_on_the_skills_order(order, query):
    expected = [(hit.skill.name, hit.score) for hit in search(SKILLS, query, top=6)]
    assert [(hit.skill.name, hit.score) for hit in search(order, query, top=6)] == expected


def test_unicode_form_and_full_width_letters_do_not_change_the_ranking():
    import unicodedata

    skills = [*SKILLS, make("café-menu", "Print the café menu"), make("menu-cafe", "A menu for the cafe")]
    composed = [(hit.skill.name, hit.score) for hit in search(skills, "café menu", top=3)]
    assert composed[0][0] == "café-menu"
    assert [
        (hit.skill.name, hit.score) for hit in search(skills, unicodedata.normalize("NFD", "café menu"), top=3)
    ] == (composed)
    assert names(search(SKILLS, "ＫＵＢＥＲＮＥＴＥＳ", top=1)) == ["k8s-deploy"]


def test_a_memo_gives_the_same_index_and_fills_with_each_text_once():
    memo: dict[str, list[str]] = {}
    first = SearchIndex.build(SKILLS, memo=memo)
    assert "Deploy containers to a Kubernetes cluster with rolling updates" in memo
    filled = dict(memo)
    again = SearchIndex.build(SKILLS, memo=memo)
    assert memo == filled
    for query in ("kubernetes", "数据库 备份", "token"):
        assert [(h.skill.name, h.score) for h in again.query(query)] == [
            (h.skill.name, h.score) for h in first.query(query)
        ]


def test_a_word_only_in_the_body_finds_the_skill_below_one_that_names_it():
    skills = [make("notes", "Keep notes"), make("grafana-boards", "Dashboards for metrics")]
    bodies = ["Export the notes to grafana when asked.", ""]
    assert search(skills, "grafana") == [] or names(search(skills, "grafana")) == ["grafana-boards"]
    index = SearchIndex.build(skills, bodies=bodies)
    assert names(index.query("grafana", 2)) == ["grafana-boards", "notes"]
    assert names(SearchIndex.build(skills, bodies=bodies, tuning=Tuning(body_weight=0.0)).query("grafana")) == [
        "grafana-boards"
    ]


def test_words_found_only_in_a_body_find_the_skill_but_are_no_evidence_that_it_fits():
    """A long body holds many everyday words: they rank a skill, but neither ``match`` nor the route rule reads them."""
    skills = [make("pdf-tools", "Split and merge PDF files"), make("notes", "Keep notes")]
    index = SearchIndex.build(skills, bodies=["Sort invoices and receipts into folders by month.", ""])
    query = "sort my invoices and receipts"
    (hit,) = index.query(query)
    assert hit.skill.name == "pdf-tools"
    assert index.evidence(query, hit) == 0
    assert index.reading(query, hit) == (0, 0, 3, 0)
    assert fit(index, query, [hit]) == "none"


def test_a_typed_word_outweighs_the_same_meaning_reached_only_through_the_glossary():
    # Mutant M18 of issue 23: a glossary word weighing like a typed one ties, and wins by name order.
    skills = [make("a-cn", "部署 服务"), make("b-en", "deploy service"), make("c-other", "unrelated")]
    hits = search(skills, "deploy", top=3)
    assert names(hits) == ["b-en", "a-cn"]
    assert hits[0].score > hits[1].score


def test_a_rare_query_word_outweighs_common_ones():
    # "review" and "request" are in every pull-request skill; "security" in one skill only.
    common = [make(f"pr-helper-{n}", "Review a pull request and reply to review comments") for n in range(6)]
    skills = [*common, make("security-audit", "Find security holes in code")]
    assert names(search(skills, "review my pull request for security issues", top=1)) == ["security-audit"]


def test_the_words_of_a_known_phrase_count_as_one():
    # "pull request" is one glossary phrase: two words, one thing asked for.
    skills = [make("open-changes", "Open a pull request"), make("audit", "Security audit"), make("misc", "Notes")]
    hits = search(skills, "pull request security", top=2)
    assert names(hits) == ["audit", "open-changes"]
    split = search(skills, "pull request security", top=2, tuning=Tuning(phrase_share=False))
    assert names(split) == ["open-changes", "audit"]


def test_coverage_is_the_share_of_the_query_the_skill_holds():
    skills = [make("k8s-deploy", "Deploy containers to kubernetes"), make("deployer", "Deploy things")]
    full, part = search(skills, "deploy kubernetes", top=2)
    assert (full.skill.name, full.coverage) == ("k8s-deploy", 1.0)
    assert part.skill.name == "deployer"
    assert 0 < part.coverage < 0.5  # "kubernetes" is the rarer word: it weighs more than "deploy"


def test_a_chinese_query_is_covered_through_the_glossary_words_it_brought():
    hits = search(SKILLS, "集群里部署容器", top=1)
    assert hits[0].skill.name == "k8s-deploy"
    assert hits[0].coverage > 0.5


def test_an_unknown_word_leaves_every_skill_uncovered_in_part():
    hits = search(SKILLS, "kubernetes quokka", top=1)
    assert hits[0].skill.name == "k8s-deploy"
    assert hits[0].coverage < 0.5


def test_rank_gives_labels_and_scores_for_fusion():
    index = SearchIndex.build(SKILLS)
    expected = [(hit.skill.label, hit.score) for hit in index.query("kubernetes deploy", 2)]
    assert rank(index, "kubernetes deploy", 2) == expected
