"""benchmarks/combination.py's internals: its member cache (keyed by what a member's options
resolve to), its members and its vote search."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1]


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


IOE2_MEMBERS = ("two-pass-ioe2", "two-pass-ioe2-word-classes", "nerbio-ioe2",
                "nerbio-ioe2-word-classes")


@pytest.mark.parametrize("name", IOE2_MEMBERS)
def test_ioe2_members_tag_with_ioe2_alone_in_every_pass(bench, name):
    # Cho et al.'s representation on the strong members: every model of the member (both
    # passes of a two-pass) reads IOE2, without the preset's BIES + IO mix
    params = bench.resolved_params(bench.member_options(name, "bionlp13cg", None))
    schemes = {k: v for k, v in params.items() if k.endswith("model__scheme")}
    assert set(schemes.values()) == {"'IOE2'"}, schemes
    assert len(schemes) == (2 if name.startswith("two-pass") else 1)
    for key in schemes:
        assert params[key.removesuffix("scheme") + "extra_schemes"] == []
    base = bench.resolved_params(bench.member_options(name.replace("-ioe2", ""), "bionlp13cg",
                                                      None))
    # the same member as its BIES namesake but for the schemes (word classes included)
    differ = {k for k in params.keys() | base.keys() if params.get(k) != base.get(k)}
    assert differ == set(schemes) | {k.removesuffix("scheme") + "extra_schemes"
                                     for k in schemes}, differ


def test_ioe2_members_get_the_jackknifed_pos_on_jnlpba(bench):
    # NERBio's features read POS: on JNLPBA the fold tagger, whatever the scheme
    options = bench.member_options("nerbio-ioe2", "jnlpba", "/data")
    assert options["pos_jackknife"] == str(Path("/data") / "genia-pos" / "train.tsv")
    assert "pos_jackknife" not in bench.member_options("two-pass-ioe2", "jnlpba", "/data")


def _toy_votes(n_members=5, n_sentences=40, seed=0):
    """Members' entities over toy sentences (each member right on its own share of them)."""
    import random
    from types import SimpleNamespace

    from skbioner.schemes import spans_to_labels

    rng = random.Random(seed)
    gold_spans = [[("A" if i % 3 else "B", 1, 3)] for i in range(n_sentences)]
    y = [spans_to_labels(s, 6, "IOB2") for s in gold_spans]
    gold = SimpleNamespace(X=[["w"] * 6 for _ in y], y=y)
    outputs = {}
    for m in range(n_members):
        entities = [[(t, s, e, rng.random()) if rng.random() < 0.4 + 0.1 * m
                     else (t, s + 1, e, rng.random()) for t, s, e in g] for g in gold_spans]
        outputs[f"m{m}"] = {"entities": entities,
                            "per_class_exact_f1": {"A": 0.5 + 0.1 * m, "B": 0.9 - 0.1 * m}}
    return gold, outputs


def test_a_beam_as_wide_as_every_subset_is_the_exhaustive_grid(bench):
    gold, outputs = _toy_votes()
    names = list(outputs)

    def key(rows):
        return sorted((tuple(r["members"]), r["voting"], r["threshold"], r["weighting"],
                       round(r["exact_f1"], 12)) for r in rows)

    every = bench.vote_grid(names, outputs, gold, None, rescore=0)
    assert len(every) == 8 * (2 ** 5 - 1 - 5)
    assert key(bench.vote_grid(names, outputs, gold, None, rescore=0, beam=10)) == key(every)


def test_a_narrow_beam_grows_the_best_subsets_and_its_seeds(bench):
    gold, outputs = _toy_votes()
    names = list(outputs)
    rows = bench.vote_grid(names, outputs, gold, None, rescore=0, beam=1,
                           seeds=[["m0", "m2", "m1"]])
    subsets = {tuple(r["members"]) for r in rows}
    pairs = [s for s in subsets if len(s) == 2]
    assert len(pairs) == 10
    best_pair = min(pairs, key=lambda s: (-max(r["exact_f1"] for r in rows
                                               if tuple(r["members"]) == s),
                                          [names.index(n) for n in s]))  # ties: the earlier
    triples = {s for s in subsets if len(s) == 3}
    grown = {tuple(sorted(best_pair + (n,), key=names.index)) for n in names
             if n not in best_pair}
    assert triples == grown | {("m0", "m1", "m2")}  # the seed, in candidate order
    assert len(subsets) < 2 ** 5 - 1 - 5
    assert all(len(r) >= 2 for r in subsets)
    with pytest.raises(ValueError, match="not candidates"):
        bench.vote_grid(names, outputs, gold, None, rescore=0, beam=1, seeds=[["m0", "zz"]])
