"""HMMSVMTagger: the decomposition, the Platt fit, quality on the bundled sample."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.pipeline import make_pipeline

from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_f1_score
from skbioner.models import HMMSVMTagger
from skbioner.models._hmm_svm import platt_fit
from skbioner.schemes import is_valid_label
from tests.models.toy import toy_sentences


def test_platt_fit_matches_a_direct_minimisation(rng):
    f = rng.normal(size=400)
    target = rng.random(400) < 1 / (1 + np.exp(-2.0 * f + 0.5))
    n_pos, n_neg = target.sum(), (~target).sum()
    t = np.where(target, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))

    def loss(ab):  # the textbook formula, slow and naive
        p = 1 / (1 + np.exp(ab[0] * f + ab[1]))
        return -np.sum(t * np.log(p) + (1 - t) * np.log(1 - p))

    ref = minimize(loss, [0.0, 0.0], method="Nelder-Mead",
                   options={"xatol": 1e-8, "fatol": 1e-10, "maxiter": 5000}).x
    ab = platt_fit(f, target)
    assert np.allclose(ab, ref, atol=1e-3)
    assert ab[0] < 0  # larger decision values, more positive


def test_learns_the_toy_corpus_and_scores_are_the_decomposition():
    X, y = toy_sentences(n=40, with_singletons=True)
    feat = TokenFeaturizer().fit(X, y)
    F = feat.transform(X)
    est = HMMSVMTagger(C=1.0, cv=2, random_state=0).fit(F, y)
    assert est.predict(F[:40]) == y[:40]  # the one singleton sentence may be missed
    assert list(est.classes_) == ["O", "B-DNA", "I-DNA", "B-cell_type", "I-cell_type",
                                  "B-protein", "I-protein"]
    problem = est._chain_scores(F)
    lexical = est.lexical_log_proba(F)
    assert np.allclose(problem.scores, lexical - est.log_prior_)
    assert np.allclose(np.exp(lexical).sum(axis=1), 1.0)  # normalize=True
    # the tag model is a distribution: each row of P(b | a) with P(end | a) sums to one
    rows = np.exp(est.log_transition_).sum(axis=1) + np.exp(est.log_end_)
    assert np.allclose(rows, 1.0)
    assert np.isclose(np.exp(est.log_start_).sum(), 1.0)
    marg = est.predict_marginals(F)
    assert np.allclose(marg[0].sum(axis=1), 1.0)
    ents = est.predict_entities(F[:1])
    assert [e[:3] for e in ents[0]] == [("DNA", 1, 3), ("cell_type", 4, 6)]


@pytest.mark.parametrize("scheme", ["IOB2", "BIES", "IOE2"])
def test_internal_schemes_give_well_formed_iob2(scheme):
    X, y = toy_sentences(n=30, with_singletons=True)
    F = TokenFeaturizer().fit_transform(X, y)
    pred = HMMSVMTagger(scheme=scheme, cv=2, random_state=0).fit(F, y).predict(F)
    assert all(is_valid_label(lab, "IOB2") for labels in pred for lab in labels)


def test_prior_and_transition_weights_change_the_chain_not_the_svms():
    X, y = toy_sentences(n=30)
    F = TokenFeaturizer().fit_transform(X, y)
    a = HMMSVMTagger(cv=2, random_state=0).fit(F, y)
    b = HMMSVMTagger(cv=2, random_state=0, prior_weight=0.0, transition_weight=0.5).fit(F, y)
    assert np.allclose(a.coef_, b.coef_)
    pa, pb = a._chain_scores(F), b._chain_scores(F)
    assert np.allclose(pb.scores, a.lexical_log_proba(F))
    assert np.allclose(pb.trans[pb.trans > -1e6], 0.5 * pa.trans[pa.trans > -1e6])


@pytest.mark.slow
def test_quality_on_the_bundled_sample():
    """Exact F1 on the sample's test part (measured 60.9 with chan features; pin 58)."""
    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    model = make_pipeline(TokenFeaturizer(templates="chan", min_count=3),
                          HMMSVMTagger(random_state=0))
    model.fit(train.X, train.y)
    assert 100 * entity_f1_score(test.y, model.predict(test.X)) >= 58.0
