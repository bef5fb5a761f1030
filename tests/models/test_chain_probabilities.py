"""Marginals, entity confidences and temperature of the chain models."""

import itertools

import numpy as np
import pytest

from skbioner.decoding import sequence_score
from skbioner.features import TokenFeaturizer
from skbioner.models import CascadedNER, OnlinePACRF
from skbioner.schemes import convert, labels_to_spans
from tests.models.toy import toy_sentences


@pytest.fixture(scope="module")
def data():
    X, y = toy_sentences(n=30, with_singletons=True)
    F = TokenFeaturizer().fit_transform(X)
    return X, y, F


@pytest.mark.parametrize("scheme", ["IOB2", "BIES", "IOE2", "IO"])
def test_iob2_marginals_equal_enumeration_of_internal_paths(data, scheme):
    X, y, F = data
    m = OnlinePACRF(scheme=scheme, max_iter=1, C=0.05, random_state=0).fit(F, y)
    sub = F[len(y) - 1:]  # "p53 IL-2 bind ." : 4 tokens
    problem = m._chain_scores(sub)
    scores = problem.dense()
    labels = m.label_space_.labels
    L, n = len(labels), scores.shape[0]
    brute = np.zeros((n, len(m.classes_)))
    col = {c: k for k, c in enumerate(m.classes_)}
    paths = list(itertools.product(range(L), repeat=n))
    logp = np.array([sequence_score(scores, np.array(p), problem.trans, problem.start,
                                    problem.end) for p in paths])
    p = np.exp(logp - logp.max())
    p /= p.sum()
    for path, q in zip(paths, p):
        iob2 = convert([labels[i] for i in path], scheme, "IOB2")
        for i, lab in enumerate(iob2):
            brute[i, col[lab]] += q
    got = m.predict_marginals(sub)[0]
    np.testing.assert_allclose(got, brute, atol=1e-9)


def test_marginals_and_entities_agree_with_predict(data):
    X, y, F = data
    m = OnlinePACRF(scheme="BIES", extra_schemes=("IO",), max_iter=5, random_state=0).fit(F, y)
    marg = m.predict_marginals(F)
    assert [mm.shape for mm in marg] == [(len(s), len(m.classes_)) for s in X]
    np.testing.assert_allclose(np.concatenate(marg).sum(axis=1), 1.0)
    pred = m.predict(F)
    ents = m.predict_entities(F)
    assert [[(t, s, e) for t, s, e, _ in sent] for sent in ents] == \
        [labels_to_spans(lab) for lab in pred]
    probs = np.array([p for sent in ents for *_, p in sent])
    assert np.all((probs > 0) & (probs <= 1))
    # an entity's probability is at most the marginal of its first token being its start
    col = {c: k for k, c in enumerate(m.classes_)}
    for sent, mm in zip(ents, marg):
        for t, s, _, p in sent:
            assert p <= mm[s, col["B-" + t]] + 1e-9


def test_temperature_fits_held_out_data_and_keeps_paths(data):
    X, y, F = data
    m = OnlinePACRF(max_iter=2, C=0.01, random_state=0).fit(F[:20], y[:20])
    pred = m.predict(F[20:30])
    before = m.predict_marginals(F[20:30])
    m.fit_temperature(F[20:30], y[20:30])
    assert m.temperature_ != 1.0 and m.predict(F[20:30]) == pred

    def nll(marg):  # token-level NLL of the gold labels, as a sanity check of the direction
        col = {c: k for k, c in enumerate(m.classes_)}
        return -sum(np.log(mm[np.arange(len(lab)), [col[v] for v in lab]]).sum()
                    for mm, lab in zip(marg, y[20:30]))

    assert nll(m.predict_marginals(F[20:30])) < nll(before)


def test_plain_label_chain_has_marginals_not_entities():
    X = [["The", "cells", "grow", "."], ["The", "gene", "binds", "."]] * 5
    y = [["DT", "NNS", "VBP", "."], ["DT", "NN", "VBZ", "."]] * 5
    F = TokenFeaturizer().fit_transform(X)
    m = OnlinePACRF(scheme=None, random_state=0).fit(F, y)
    marg = m.predict_marginals(F)
    assert [m.classes_[k] for k in marg[0].argmax(axis=1)] == y[0]
    with pytest.raises(ValueError, match="needs a segment scheme"):
        m.predict_entities(F)


def test_cascade_entities_match_its_predictions(data):
    X, y, F = data
    c = CascadedNER(n_folds=2, random_state=0).fit(F, y)
    assert c.classifier_.temperature_ > 0
    ents = c.predict_entities(F)
    assert [[(t, s, e) for t, s, e, _ in sent] for sent in ents] == \
        [labels_to_spans(lab) for lab in c.predict(F)]
    assert all(0 < p <= 1 for sent in ents for *_, p in sent)
    assert list(c.classes_) == ["O", "B-DNA", "I-DNA", "B-cell_type", "I-cell_type",
                                "B-protein", "I-protein"]
