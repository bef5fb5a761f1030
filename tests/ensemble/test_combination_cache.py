"""benchmarks/combination.py's member cache: keyed by what a member's options resolve to."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import combination
    finally:
        sys.path.pop(0)
    return combination


def test_a_changed_preset_is_a_new_cache_key(bench, monkeypatch, tmp_path):
    # the nerbio record cached under NERBio's former conjunction (w0&w1) was read back as the
    # new preset's: the member's options name the preset, not what it resolves to
    from skbioner.pipelines import _presets

    path = bench._cache_path(tmp_path, "nerbio", "bionlp13cg", None, 2)
    assert bench._cache_path(tmp_path, "nerbio", "bionlp13cg", None, 2) == path
    monkeypatch.setattr(_presets, "NERBIO_CONJUNCTIONS", ("w0&w1",))
    assert bench._cache_path(tmp_path, "nerbio", "bionlp13cg", None, 2) != path
    # a member whose preset did not change keeps its key
    monkeypatch.undo()
    online = bench._cache_path(tmp_path, "online-crf", "bionlp13cg", None, 2)
    monkeypatch.setattr(_presets, "NERBIO_CONJUNCTIONS", ("w0&w1",))
    assert bench._cache_path(tmp_path, "online-crf", "bionlp13cg", None, 2) == online


def test_resolved_params_reach_nested_members_and_are_the_same_in_another_process(bench):
    options = {"model": "online-crf", "two_pass": True, "first_pass": ["online-crf", "nerbio"]}
    params = bench.resolved_params(options)
    assert params["nerbio__features__exclude"]  # the first pass's own featurizer, deep
    assert not any("0x" in str(v) for v in params.values())
    code = (f"import sys, json; sys.path.insert(0, {str(BENCHMARKS)!r}); import combination; "
            f"print(json.dumps(combination.resolved_params({options!r}), sort_keys=True))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    import json

    assert json.loads(out) == json.loads(json.dumps(params, sort_keys=True))


def test_the_new_candidates_are_members(bench):
    assert bench.MEMBERS["nerbio-word-classes"] == {"model": "nerbio", "word_classes": "bundled"}
    assert bench.MEMBERS["two-pass-word-classes"]["two_pass"] is True
