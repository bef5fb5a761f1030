"""The one Viterbi: against brute force, and its three score sources against each other."""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from skbioner.decoding import (
    NEG,
    sequence_score,
    viterbi,
    viterbi_batch,
    viterbi_csr,
    viterbi_ids,
)
from skbioner.decoding._viterbi import LabelPairs


def brute_force(scores, trans, start, end):
    n, L = scores.shape
    best, arg = -np.inf, None
    for path in itertools.product(range(L), repeat=n):
        s = sequence_score(scores, np.array(path), trans, start, end)
        if s > best:
            best, arg = s, path
    return np.array(arg), best


def test_viterbi_equals_brute_force(rng):
    for _ in range(300):
        n, L = int(rng.integers(1, 6)), int(rng.integers(1, 5))
        scores = rng.normal(size=(n, L))
        trans, start, end = rng.normal(size=(L, L)), rng.normal(size=L), rng.normal(size=L)
        # forbid some transitions, never all of them
        trans[rng.random((L, L)) < 0.2] = -np.inf
        trans[:, 0] = np.where(np.isinf(trans[:, 0]), 0.0, trans[:, 0])
        path, score = viterbi(scores, trans, start, end)
        bpath, bscore = brute_force(scores, trans, start, end)
        assert score == pytest.approx(bscore)
        assert sequence_score(scores, path, trans, start, end) == pytest.approx(bscore)


def test_viterbi_is_pure(rng):
    scores = rng.normal(size=(4, 3))
    trans, start, end = rng.normal(size=(3, 3)), rng.normal(size=3), rng.normal(size=3)
    copies = [a.copy() for a in (scores, trans, start, end)]
    viterbi(scores, trans, start, end)
    for a, b in zip(copies, (scores, trans, start, end)):
        assert np.array_equal(a, b)


def test_per_token_pair_scores_equal_brute_force(rng):
    # label-pair features: the transition into token t gets pair[t]; brute force adds it
    for _ in range(200):
        n, L = int(rng.integers(1, 6)), int(rng.integers(1, 5))
        scores, pair = rng.normal(size=(n, L)), rng.normal(size=(n, L, L))
        trans, start, end = rng.normal(size=(L, L)), rng.normal(size=L), rng.normal(size=L)
        trans[rng.random((L, L)) < 0.2] = -np.inf
        trans[:, 0] = np.where(np.isinf(trans[:, 0]), 0.0, trans[:, 0])

        def total(path, chain=(scores, trans, start, end), pair=pair):
            path = np.asarray(path)
            return sequence_score(chain[0], path, *chain[1:]) + sum(
                pair[t, path[t - 1], path[t]] for t in range(1, len(path)))

        path, score = viterbi(scores, trans, start, end, pair)
        best = max(total(p) for p in itertools.product(range(L), repeat=n))
        assert score == pytest.approx(best) and total(path) == pytest.approx(best)


def test_fused_label_pairs_equal_dense_pair_scores(rng):
    offsets = np.array([0, 3, 3, 4, 10])
    X = sp.random(10, 8, density=0.4, format="csr", random_state=2, dtype=np.float32)
    coef, L = rng.normal(size=(8, 4)), 4
    trans, start, end = rng.normal(size=(L, L)), rng.normal(size=L), rng.normal(size=L)
    rows = np.array([0, -1, 1, 2, -1, 3, -1, 4])
    index = np.where(rng.random((L, L)) < 0.7, 0, -1)
    index[index == 0] = np.arange((index == 0).sum())
    pc = rng.normal(size=(5, index.max() + 1))
    got = viterbi_csr(X, offsets, coef, trans, start, end, LabelPairs(rows, index, pc))
    per_pair = (X[:, rows >= 0] @ pc)[:, np.where(index >= 0, index, 0)] * (index >= 0)
    for a, b in zip(offsets[:-1], offsets[1:]):
        want, _ = viterbi((X @ coef)[a:b], trans, start, end, per_pair[a:b])
        assert np.array_equal(got[a:b], want)
    assert not np.array_equal(got, viterbi_csr(X, offsets, coef, trans, start, end))


def test_batch_equals_single(rng):
    lengths = [3, 1, 0, 5]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    scores = rng.normal(size=(offsets[-1], 4))
    trans, start, end = rng.normal(size=(4, 4)), rng.normal(size=4), rng.normal(size=4)
    batch = viterbi_batch(scores, offsets, trans, start, end)
    for a, b in zip(offsets[:-1], offsets[1:]):
        if b > a:
            assert np.array_equal(batch[a:b], viterbi(scores[a:b], trans, start, end)[0])


def test_shape_errors():
    with pytest.raises(ValueError, match="chain shapes"):
        viterbi(np.zeros((2, 3)), np.zeros((2, 2)), np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="offsets"):
        viterbi_batch(np.zeros((2, 3)), [0, 1], np.zeros((3, 3)), np.zeros(3), np.zeros(3))


def test_fused_csr_decoding_equals_dense(rng):
    lengths = [3, 0, 1, 6, 2]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    X = sp.random(offsets[-1], 20, density=0.3, format="csr", random_state=0, dtype=np.float32)
    coef = rng.normal(size=(20, 5))
    trans, start, end = rng.normal(size=(5, 5)), rng.normal(size=5), rng.normal(size=5)
    dense = viterbi_batch(X @ coef, offsets, trans, start, end)
    assert np.array_equal(viterbi_csr(X, offsets, coef, trans, start, end), dense)


def test_unsorted_csr_indices_decode_the_same(rng):
    lengths = [4, 2, 5]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    X = sp.random(offsets[-1], 30, density=0.3, format="csr", random_state=1, dtype=np.float32)
    coef = rng.normal(size=(30, 4))
    trans, start, end = rng.normal(size=(4, 4)), rng.normal(size=4), rng.normal(size=4)
    shuffled = X.copy()
    for r in range(shuffled.shape[0]):
        a, b = shuffled.indptr[r], shuffled.indptr[r + 1]
        perm = rng.permutation(b - a)
        shuffled.indices[a:b] = shuffled.indices[a:b][perm]
        shuffled.data[a:b] = shuffled.data[a:b][perm]
    shuffled.has_sorted_indices = False
    assert np.array_equal(viterbi_csr(shuffled, offsets, coef, trans, start, end),
                          viterbi_csr(X, offsets, coef, trans, start, end))
    with pytest.raises(TypeError, match="CSR"):
        viterbi_csr(X.tocsc(), offsets, coef, trans, start, end)


def test_id_lookup_equals_dense_rows(rng):
    table = rng.normal(size=(7, 4))
    ids = rng.integers(0, 7, size=12)
    offsets = np.array([0, 5, 5, 12])
    trans, start, end = rng.normal(size=(4, 4)), rng.normal(size=4), rng.normal(size=4)
    paths, best = viterbi_ids(ids, offsets, table, trans, start, end)
    dense, dbest = viterbi_batch(table[ids], offsets, trans, start, end, return_scores=True)
    assert np.array_equal(paths, dense) and np.allclose(best, dbest)
    with pytest.raises(ValueError, match="ids must index"):
        viterbi_ids(np.array([7]), [0, 1], table, trans, start, end)


def test_forbidden_values_are_clipped_and_nan_refused():
    scores = np.array([[0.0, -np.inf], [-np.inf, 0.0]])
    trans = np.array([[0.0, -np.inf], [-np.inf, 0.0]])
    path, score = viterbi(scores, trans, np.zeros(2), np.zeros(2))
    # every path crosses a forbidden value: the decoder still answers, with a NEG-sized score
    assert score <= NEG / 2 and len(path) == 2
    with pytest.raises(ValueError, match="NaN"):
        viterbi(np.array([[np.nan, 0.0]]), np.zeros((2, 2)), np.zeros(2), np.zeros(2))
