"""Span mode, scorers inside model selection, and the paired bootstrap."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, GroupKFold, cross_validate

from skbioner.metrics import (
    entity_f1_score,
    entity_f1_scorer,
    entity_report,
    make_entity_scorer,
    paired_bootstrap,
    sentence_counts,
    sequence_accuracy_score,
    sequence_accuracy_scorer,
    token_accuracy_score,
    token_accuracy_scorer,
)
from skbioner.models import MajorityTagger
from skbioner.schemes import convert, labels_to_spans


def test_span_mode_counts():
    gold = [["B-DNA", "I-DNA", "O", "B-RNA", "I-RNA"]]
    pred = [["B-DNA", "I-DNA", "O", "O", "B-RNA"]]
    o = entity_report(gold, pred, mode="spans").overall
    assert (o.n_gold, o.n_pred, o.exact.tp, o.left.tp, o.right.tp) == (2, 2, 1, 1, 2)


def test_span_mode_reads_ill_formed_by_repair_policy():
    # "O I-DNA" is an entity in span mode (the official scorer does not count it)
    gold = [["B-RNA", "O", "B-DNA"]]
    pred = [["B-RNA", "O", "I-DNA"]]
    assert entity_f1_score(gold, pred, mode="spans") == 1.0
    assert entity_report(gold, pred).overall.n_pred == 1


def test_span_mode_under_other_schemes(rng):
    labels = ["O", "B-DNA", "I-DNA", "B-RNA", "I-RNA"]
    for _ in range(200):
        g = [list(rng.choice(labels, size=6)) for _ in range(3)]
        p = [list(rng.choice(labels, size=6)) for _ in range(3)]
        base = entity_report(g, p, mode="spans").to_dict()
        for scheme in ("IOBES", "BIES", "IOE1"):
            gs = [convert(s, "IOB2", scheme) for s in g]
            ps = [convert(s, "IOB2", scheme) for s in p]
            assert entity_report(gs, ps, mode="spans", scheme=scheme).to_dict() == base


def test_span_mode_rejects_labels_of_another_scheme():
    with pytest.raises(ValueError, match=r"y_pred\[0\]: label 'E-DNA'"):
        entity_report([["B-DNA"]], [["E-DNA"]], mode="spans")


def test_span_mode_equals_official_on_well_formed_output(rng):
    # on well-formed IOB2 output after the first gold entity, the two modes agree
    labels = ["O", "B-DNA", "I-DNA", "B-RNA", "I-RNA"]
    for _ in range(200):
        g = [["B-DNA"]] + [list(rng.choice(labels, size=7)) for _ in range(3)]
        p = [["B-DNA"]] + [list(rng.choice(labels, size=7)) for _ in range(3)]
        g = [convert(s, "IOB2", "IOB2") for s in g]
        p = [convert(s, "IOB2", "IOB2") for s in p]
        a = entity_report(g, p, mode="official").overall
        b = entity_report(g, p, mode="spans").overall
        assert (a.n_gold, a.n_pred, a.exact.tp, a.left.tp, a.right.tp) == (
            b.n_gold, b.n_pred, b.exact.tp, b.left.tp, b.right.tp)


def test_macro_average():
    gold = [["B-DNA", "O", "B-RNA"]]
    pred = [["B-DNA", "O", "O"]]
    assert entity_f1_score(gold, pred, average="macro") == pytest.approx(0.5)
    assert entity_f1_score(gold, pred) == pytest.approx(2 / 3)


def test_token_and_sequence_accuracy():
    gold = [["O", "B-DNA"], ["O"]]
    pred = [["O", "O"], ["O"]]
    assert token_accuracy_score(gold, pred) == pytest.approx(2 / 3)
    assert sequence_accuracy_score(gold, pred) == pytest.approx(1 / 2)
    with pytest.raises(ValueError,
                       match=r"y_pred\[0\] has 1 labels but sentence 0 has 2 labels in y_true"):
        token_accuracy_score(gold, [["O"], ["O"]])


def test_sentence_counts_sum_to_report(rng):
    labels = ["O", "B-DNA", "I-DNA", "B-RNA", "I-RNA"]
    g = [list(rng.choice(labels, size=5)) for _ in range(20)]
    p = [list(rng.choice(labels, size=5)) for _ in range(20)]
    counts, classes, _ = sentence_counts(g, p)
    rep = entity_report(g, p)
    tot = counts.sum(axis=0)
    assert tot[-1, 0] == rep.overall.n_gold and tot[-1, 2] == rep.overall.exact.tp


# --- model selection -------------------------------------------------------------


def toy_corpus(n=60, seed=0):
    rng = np.random.default_rng(seed)
    genes = ["IL-2", "NF-kappaB", "p53", "TNF", "GATA-1"]
    cells = ["T", "B", "monocytes"]
    X, y, groups = [], [], []
    for i in range(n):
        g, c = rng.choice(genes), rng.choice(cells)
        X.append(["The", g, "gene", "in", c, "cells", "."])
        y.append(["O", "B-DNA", "I-DNA", "O", "B-cell_type", "I-cell_type", "O"])
        groups.append(i // 3)
    return X, y, np.array(groups)


@pytest.mark.parametrize(
    "scorer", [entity_f1_scorer, token_accuracy_scorer, sequence_accuracy_scorer,
               make_entity_scorer(match="left", mode="spans")]
)
def test_scorers_in_grid_search_n_jobs_2(scorer):
    X, y, _ = toy_corpus()
    gs = GridSearchCV(MajorityTagger(), {"min_count": [1, 1000]}, scoring=scorer, cv=3, n_jobs=2)
    gs.fit(X, y)
    assert gs.best_params_ == {"min_count": 1}
    assert gs.best_score_ == pytest.approx(1.0)
    assert gs.cv_results_["mean_test_score"][1] < 1.0


def test_cross_validate_with_groups_and_several_scorers():
    X, y, groups = toy_corpus()
    res = cross_validate(
        MajorityTagger(), X, y, groups=groups, cv=GroupKFold(n_splits=3),
        scoring={"f1": entity_f1_scorer, "acc": token_accuracy_scorer}, n_jobs=2,
    )
    assert np.allclose(res["test_f1"], 1.0) and np.allclose(res["test_acc"], 1.0)


# --- bootstrap -------------------------------------------------------------------


def _systems(rng, n=300):
    labels = ["O", "B-DNA", "I-DNA"]
    gold = [["B-DNA", "I-DNA", "O"] + list(rng.choice(labels, size=3)) for _ in range(n)]
    gold = [convert(s, "IOB2", "IOB2") for s in gold]
    good = [list(s) for s in gold]
    bad = []
    for s in gold:
        s = list(s)
        if rng.random() < 0.5:
            s = ["O"] * len(s)
        bad.append(s)
    return gold, good, bad


def test_bootstrap_detects_a_clear_difference(rng):
    gold, good, bad = _systems(rng)
    res = paired_bootstrap(gold, good, bad, n_resamples=2000, random_state=0)
    assert res.f1_a == 1.0 and res.f1_b < 0.8
    assert res.p_value < 0.01
    assert res.ci[0] > 0


def test_bootstrap_identical_systems_p_is_one(rng):
    gold, good, _ = _systems(rng)
    res = paired_bootstrap(gold, good, good, n_resamples=200, random_state=0)
    assert res.delta == 0 and res.p_value == 1.0


def test_bootstrap_is_reproducible_and_accepts_groups(rng):
    gold, good, bad = _systems(rng)
    groups = np.arange(len(gold)) // 10
    a = paired_bootstrap(gold, good, bad, groups=groups, n_resamples=300, random_state=3)
    b = paired_bootstrap(gold, good, bad, groups=groups, n_resamples=300, random_state=3)
    assert a == b
    with pytest.raises(ValueError, match="groups has 3 entries"):
        paired_bootstrap(gold, good, bad, groups=[1, 2, 3])


def test_spans_helper_consistency():
    assert labels_to_spans(["B-DNA"]) == [("DNA", 0, 1)]


def test_evaluate_files_reads_gzip(tmp_path):
    import gzip

    from skbioner.metrics import ScoringInputError, evaluate_files

    text = "###MEDLINE:1\n\nIL-2\tB-protein\ngene\tO\n\n"
    plain = tmp_path / "g.iob2"
    plain.write_text(text)
    gz = tmp_path / "g.iob2.gz"
    gz.write_bytes(gzip.compress(text.encode()))
    assert evaluate_files(gz, plain).overall.exact.f1 == 1.0
    bad = tmp_path / "bad.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(ScoringInputError, match="not a valid gzip file"):
        evaluate_files(bad, plain)
