"""Greedy left-to-right decoding against a per-token Python oracle."""

import numpy as np
import pytest

from skbioner.decoding import greedy_decode
from skbioner.schemes import scheme_labels, transition_mask


def oracle(base, H1, H2, offsets, start, trans, end):
    """The obvious per-token loop: score = base + H1[pc-1] + H2[pc-2] + mask."""
    out = []
    for a, b in zip(offsets[:-1], offsets[1:]):
        path = []
        for i in range(a, b):
            t = i - a
            p1 = path[-1] if t >= 1 else -1
            p2 = path[-2] if t >= 2 else -1
            s = base[i] + H1[p1 + 1] + H2[p2 + 1]
            s = s + (start if t == 0 else trans[p1])
            if i == b - 1:
                s = s + end
            path.append(int(np.argmax(s)))
        out.extend(path)
    return np.array(out, dtype=np.int32)


def test_greedy_equals_per_token_loop(rng):
    labels = scheme_labels("BIES", ["A", "B"])
    L = len(labels)
    start, trans, end = (np.where(m, 0.0, -np.inf) for m in transition_mask("BIES", labels))
    lengths = rng.integers(0, 9, size=40)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    base = rng.normal(size=(offsets[-1], L))
    H1, H2 = rng.normal(size=(L + 1, L)) * 2, rng.normal(size=(L + 1, L))
    calls = []

    def step(rows, prev):
        calls.append(rows.size)
        return base[rows] + H1[prev[:, 0] + 1] + H2[prev[:, 1] + 1]

    got = greedy_decode(step, offsets, L, start=start, trans=trans, end=end)
    assert np.array_equal(got, oracle(base, H1, H2, offsets, start, trans, end))
    # one call per position, every running sentence in it: no per-token calls
    assert len(calls) == lengths.max() and sum(calls) == offsets[-1]


def test_history_really_feeds_back():
    # label 1 is only attractive right after label 1: a chain reaction from token 0
    base = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
    H1 = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 5.0]])  # rows: BOS, after 0, after 1

    def step(rows, prev):
        return base[rows] + H1[prev[:, 0] + 1]

    assert greedy_decode(step, [0, 3], 2, history=1).tolist() == [1, 1, 1]
    base[0] = [1.0, 0.0]
    assert greedy_decode(step, [0, 3], 2, history=1).tolist() == [0, 0, 0]


def test_step_shape_is_checked():
    with pytest.raises(ValueError, match="expected"):
        greedy_decode(lambda rows, prev: np.zeros((rows.size, 3)), [0, 2], 2)
