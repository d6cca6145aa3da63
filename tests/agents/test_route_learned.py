"""The learned veto (0.5.0, forty-fifth pass): where the score rule would hint, a logistic regression trained on the
tuning everyday turns and requests silences a turn about the session's own work (a deferral, a hold, a stop for the
day) and leaves a request for a specialist's new work hinted.

The examples are forms written for these tests, in no tuning set (docs/notes/route.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.route import best_scored, rule_targets
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.search.at_hand import learned
from skillmem_hook.search.at_hand.learned import MAGIC, MODEL_FILE, Model, about_its_work, bucket, features
from skillmem_hook.search.store import build_from

from ..helpers import REPO, skill_md, write_skill

USE = ". Use it when the user asks for this kind of work, with examples, checklists and the steps to follow."
SKILLS = [
    ("pypi-release", "Publish a Python package to PyPI"),
    ("k8s-helm", "Package Kubernetes apps as Helm charts"),
    ("security-audit", "Audit a web app for OWASP vulnerabilities"),
    ("pypi-fabu", "把 Python 包打包发布到 PyPI，配置自动发版流程"),
    ("helm-bushu", "用 Helm chart 把服务部署到 Kubernetes 集群"),
    ("weekly-report", "把本周工作整理成周报发给老板"),
]


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("skills")
    for name, description in SKILLS:
        write_skill(root, name, skill_md(name, description + USE))
    return build_from(scan_roots([str(root)]).skills, {})


def labels(targets):
    return [target.label for target in targets]


@pytest.mark.parametrize(
    "prompt",
    [
        "Keep the PyPI release for tomorrow, the Python package is fine as it is.",
        "Leave the PyPI release until Monday, the Python package can wait.",
        "PyPI 发布先放一放，Python 包明天再打",
        "Python 包发布到 PyPI 的事明天再说",
        "Helm chart 部署到 Kubernetes 集群等周五再上",
        "今天先到这，PyPI 发布流程明天接着弄",
    ],
)
def test_a_turn_about_the_sessions_work_the_rule_would_hint_is_vetoed(index, prompt):
    assert rule_targets(prompt, index)  # the rule alone names a skill
    assert best_scored(prompt, index) == []


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("Publish our Python package to PyPI with a release workflow on every tag", "pypi-release"),
        ("Package our three Kubernetes services as Helm charts with ingress and autoscaling", "k8s-helm"),
        ("Audit our Django app for OWASP top 10 vulnerabilities before the pentest", "security-audit"),
        ("把 Python 包发布到 PyPI，配好自动发版流程", "pypi-fabu"),
        ("用 Helm chart 把我们的三个服务部署到 Kubernetes 集群", "helm-bushu"),
        ("帮我把本周工作整理成周报发给老板", "weekly-report"),
    ],
)
def test_a_request_for_new_work_keeps_its_hint(index, prompt, expected):
    assert not about_its_work(prompt)
    assert expected in labels(best_scored(prompt, index))
    assert labels(best_scored(prompt, index)) == labels(rule_targets(prompt, index))


def test_explain_says_the_learned_reading_silenced_the_hint(index):
    from skillmem_hook.agents.route_explain import _scored
    from skillmem_hook.search.names import Spellings

    vetoed = _scored("Leave the PyPI release until Monday, the Python package can wait.", index, Spellings({}))
    assert vetoed["hint"] == [] and "learned reading" in str(vetoed["reason"])
    assert {"way": "learned", "condition": LEARNED_GATE, "holds": False} in vetoed["rule"]  # type: ignore[operator]
    hinted = _scored("Publish our Python package to PyPI with a release workflow on every tag", index, Spellings({}))
    assert hinted["hint"][0] == "pypi-release"
    assert {"way": "learned", "condition": LEARNED_GATE, "holds": True} in hinted["rule"]  # type: ignore[operator]


LEARNED_GATE = "the learned reading does not take it for a turn about the session's work"


def test_the_shipped_model_is_small_and_holds_a_threshold():
    data = Path(MODEL_FILE).read_bytes()
    assert len(data) < 200_000
    model = Model(data)
    assert model.buckets == len(model.weights) and 0 < model.threshold < 5


@pytest.mark.parametrize(
    "data",
    [b"", b"not a model\n", MAGIC + b'{"buckets": 4, "scale": 1, "bias": 0, "threshold": 0}\n\x01\x02'],
)
def test_a_file_that_is_no_model_is_refused(data):
    with pytest.raises(ValueError):
        Model(data)


def test_the_score_reads_each_weight_as_a_signed_byte():
    header = b'{"bias": 0.5, "buckets": 4, "scale": 0.5, "threshold": 0}\n'
    text = "hi"
    at = {bucket(feature, 4) for feature in features(text)}
    weights = bytes(0xFF if index in at else 0 for index in range(4))  # -1 in each bucket the text touches
    model = Model(MAGIC + header + weights)
    touched = sum(-1 for feature in features(text))
    assert model.score(text) == pytest.approx(0.5 + touched * 0.5 / len(features(text)) ** 0.5)


@given(st.text(max_size=300))
def test_features_are_sorted_distinct_and_hold_the_bias(text):
    found = features(text)
    assert found == sorted(set(found)) and "bias" in found
    assert isinstance(learned.model().score(text), float)


SHARED = Path(os.environ.get("SKILLMEM_SHARED_DATA") or REPO.parent / "shared" / "data")


@pytest.mark.skipif(not (SHARED / "search-dev").is_dir(), reason="the dev set (shared data) is not here")
def test_the_shipped_model_is_what_the_script_builds():
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "at_hand_model.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO), "SKILLMEM_SHARED_DATA": str(SHARED)},
    )
    assert result.returncode == 0, result.stdout + result.stderr
