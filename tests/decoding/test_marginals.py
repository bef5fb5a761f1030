"""Forward-backward marginals and span probabilities against brute-force enumeration."""

import itertools

import numpy as np
import pytest

from skbioner.decoding import (
    SegmentTable,
    chain_marginals,
    emission_scores,
    sequence_score,
    span_probabilities,
)
from skbioner.schemes import SCHEMES, labels_to_spans, scheme_labels, transition_mask


def enumerate_paths(scores, trans, start, end):
    """All label paths with their probabilities (forbidden ones get 0)."""
    n, L = scores.shape
    paths = list(itertools.product(range(L), repeat=n))
    logp = np.array([sequence_score(scores, np.array(p), trans, start, end) for p in paths])
    logp = np.where(np.isfinite(logp), logp, -np.inf)
    p = np.exp(logp - logp.max())
    return paths, p / p.sum(), np.log(np.exp(logp - logp.max()).sum()) + logp.max()


def masked_chain(rng, scheme, types, n):
    labels = scheme_labels(scheme, types)
    L = len(labels)
    ms, mt, me = (np.where(m, 0.0, -np.inf) for m in transition_mask(scheme, labels))
    scores = rng.normal(size=(n, L)) * 1.5
    return labels, scores, rng.normal(size=(L, L)) + mt, rng.normal(size=L) + ms, \
        rng.normal(size=L) + me


@pytest.mark.parametrize("scheme", SCHEMES)
def test_marginals_and_log_z_equal_enumeration(rng, scheme):
    for n in (1, 2, 4):
        labels, scores, trans, start, end = masked_chain(rng, scheme, ["A", "B"], n)
        paths, p, log_z = enumerate_paths(scores, trans, start, end)
        brute = np.zeros(scores.shape)
        for path, q in zip(paths, p):
            brute[np.arange(n), list(path)] += q
        marg, lz = chain_marginals(scores, [0, n], trans, start, end)
        assert lz[0] == pytest.approx(log_z, rel=1e-10)
        np.testing.assert_allclose(marg, brute, atol=1e-10)
        np.testing.assert_allclose(marg.sum(axis=1), 1.0, atol=1e-12)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("masked", [True, False], ids=["constrained", "unconstrained"])
def test_span_probabilities_equal_enumeration(rng, scheme, masked):
    n = 4
    labels, scores, trans, start, end = masked_chain(rng, scheme, ["A", "B"], n)
    if not masked:  # ill-formed paths too: spans read by the repair policy
        trans, start, end = (np.where(np.isinf(x), rng.normal(size=x.shape), x)
                             for x in (trans, start, end))
    paths, p, _ = enumerate_paths(scores, trans, start, end)
    brute = {}
    for path, q in zip(paths, p):
        for span in labels_to_spans([labels[i] for i in path], scheme):
            brute[span] = brute.get(span, 0.0) + q
    spans = [(0, t, s, e) for t in ("A", "B") for s in range(n) for e in range(s + 1, n + 1)]
    got = span_probabilities(scores, [0, n], trans, start, end, spans, SegmentTable(labels))
    want = [brute.get((t, s, e), 0.0) for _, t, s, e in spans]
    np.testing.assert_allclose(got, want, atol=1e-10)


def test_several_sentences_and_csr_scores(rng):
    import scipy.sparse as sp

    labels = scheme_labels("BIES", ["A"])
    ms, mt, me = (np.where(m, 0.0, -np.inf) for m in transition_mask("BIES", labels))
    offsets = np.array([0, 3, 3, 7])
    X = sp.random(7, 10, density=0.4, format="csr", random_state=0, dtype=np.float32)
    coef = rng.normal(size=(10, len(labels)))
    trans = rng.normal(size=(len(labels),) * 2) + mt
    marg, lz = chain_marginals(emission_scores(X, coef), offsets, trans, ms, me)
    dense = np.asarray(X @ coef, dtype=np.float64)
    for a, b, z in zip(offsets[:-1], offsets[1:], lz):
        if b > a:
            m1, z1 = chain_marginals(dense[a:b], [0, b - a], trans, ms, me)
            np.testing.assert_allclose(marg[a:b], m1, atol=1e-12)
            assert z == pytest.approx(z1[0])
    assert lz[1] == 0.0


def test_long_sentence_does_not_underflow(rng):
    labels = scheme_labels("IOB2", ["A", "B"])
    ms, mt, me = (np.where(m, 0.0, -np.inf) for m in transition_mask("IOB2", labels))
    scores = rng.normal(size=(3000, len(labels))) * 20
    marg, lz = chain_marginals(scores, [0, 3000], mt, ms, me)
    assert np.all(np.isfinite(marg)) and np.isfinite(lz[0])
    np.testing.assert_allclose(marg.sum(axis=1), 1.0, atol=1e-9)


@pytest.mark.parametrize("scale, trans_scale", [(30.0, 30.0), (100.0, 100.0)])
def test_extreme_scores_equal_enumeration(rng, scale, trans_scale):
    """Scores and transitions hundreds of nats apart (a sharp model, a low temperature):
    the scaled recursions neither underflow nor divide by a vanished scale factor.
    (Paths more than ~700 nats below the best at some token count as impossible, as
    they did in the log-space recursion before: both fail alike from about 300.)"""
    labels, scores, trans, start, end = masked_chain(rng, "BIES", ["A"], 4)
    scores, trans = scores * scale, trans * trans_scale
    paths, p, log_z = enumerate_paths(scores, trans, start, end)
    brute = np.zeros(scores.shape)
    spans = {}
    for path, q in zip(paths, p):
        brute[np.arange(4), list(path)] += q
        for span in labels_to_spans([labels[i] for i in path], "BIES"):
            spans[span] = spans.get(span, 0.0) + q
    marg, lz = chain_marginals(scores, [0, 4], trans, start, end)
    assert np.all(np.isfinite(marg)) and lz[0] == pytest.approx(log_z, rel=1e-9)
    np.testing.assert_allclose(marg, brute, atol=1e-9)
    want = sorted(spans)
    got = span_probabilities(scores, [0, 4], trans, start, end, [(0, *w) for w in want],
                             SegmentTable(labels))
    np.testing.assert_allclose(got, [spans[w] for w in want], atol=1e-9)


def test_span_input_errors():
    table = SegmentTable(scheme_labels("IOB2", ["A"]))
    z = np.zeros((2, 3))
    with pytest.raises(ValueError, match="not a type"):
        span_probabilities(z, [0, 2], np.zeros((3, 3)), np.zeros(3), np.zeros(3),
                           [(0, "X", 0, 1)], table)
    with pytest.raises(ValueError, match="offsets"):
        span_probabilities(z, [0, 2], np.zeros((3, 3)), np.zeros(3), np.zeros(3),
                           [(0, "A", 1, 3)], table)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_opening_marginals_equal_enumeration(rng, scheme):
    from skbioner.decoding import opening_marginals

    n = 4
    labels, scores, trans, start, end = masked_chain(rng, scheme, ["A", "B"], n)
    trans = np.where(np.isinf(trans), rng.normal(size=trans.shape), trans)  # ill-formed too
    table = SegmentTable(labels)
    paths, p, _ = enumerate_paths(scores, trans, start, end)
    brute = np.zeros(scores.shape)
    for path, q in zip(paths, p):
        for i, lab in enumerate(path):
            if i == 0 or table.boundary[path[i - 1], lab]:
                brute[i, lab] += q
    got = opening_marginals(scores, [0, n], trans, start, end, table)
    np.testing.assert_allclose(got, brute, atol=1e-10)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_segments_of_codes_equal_labels_to_spans(rng, scheme):
    """The compiled reading of coded paths is labels_to_spans's repair policy, ill-formed
    sequences included, sentence by sentence."""
    labels = scheme_labels(scheme, ["A", "B"])
    table = SegmentTable(labels)
    lengths = rng.integers(0, 9, size=60)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    codes = rng.integers(0, len(labels), size=offsets[-1])
    got = table.segments(codes, offsets)
    want = [(i, table.types.index(t), s, e)
            for i, (a, b) in enumerate(zip(offsets[:-1], offsets[1:]))
            for t, s, e in labels_to_spans([labels[c] for c in codes[a:b]], scheme)]
    assert [tuple(r) for r in got.tolist()] == want
    assert len(want) > 30
    with pytest.raises(ValueError, match="index"):
        table.segments(np.array([len(labels)]), [0, 1])
