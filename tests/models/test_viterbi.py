import itertools

import numpy as np
import pytest

from skbioner.models import viterbi, viterbi_batch
from skbioner.models._viterbi import sequence_score


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
    import scipy.sparse as sp

    from skbioner.models._viterbi import viterbi_csr

    lengths = [3, 0, 1, 6, 2]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    X = sp.random(offsets[-1], 20, density=0.3, format="csr", random_state=0, dtype=np.float32)
    coef = rng.normal(size=(20, 5))
    trans, start, end = rng.normal(size=(5, 5)), rng.normal(size=5), rng.normal(size=5)
    dense = viterbi_batch(X @ coef, offsets, trans, start, end)
    assert np.array_equal(viterbi_csr(X, offsets, coef, trans, start, end), dense)
