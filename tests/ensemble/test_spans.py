"""Entity-level votes (vote_spans, member_weights) against a brute-force oracle."""

import itertools

import numpy as np
import pytest

from skbioner.ensemble import member_weights, vote_spans


def _w(n, types=("DNA", "protein")):
    return member_weights(None, n, types)


def test_a_majority_keeps_an_entity_and_a_minority_does_not():
    a = [("protein", 0, 2, 1.0)]
    b = [("protein", 0, 2, 1.0)]
    c = [("DNA", 0, 1, 1.0)]
    assert vote_spans([a, b, c], _w(3), soft=False) == [("protein", 0, 2, 2 / 3)]
    # two of four is not above one half: nothing is kept
    assert vote_spans([a, b, c, c], _w(4), soft=False) == []
    assert vote_spans([a, b, c, c], _w(4), threshold=0.4, soft=False) == [
        ("protein", 0, 2, 0.5)]  # ties: the longer span first


def test_the_exact_span_and_type_must_agree():
    a = [("protein", 0, 2, 1.0)]
    b = [("protein", 0, 3, 1.0)]
    c = [("DNA", 0, 2, 1.0)]
    assert vote_spans([a, b, c], _w(3), soft=False) == []


def test_soft_votes_weigh_confidences():
    a = [("protein", 0, 1, 0.9)]
    b = [("protein", 0, 1, 0.3)]
    c = []
    # hard: 2 of 3; soft: (0.9 + 0.3) / 3 = 0.4
    assert vote_spans([a, b, c], _w(3), soft=False)[0][3] == pytest.approx(2 / 3)
    assert vote_spans([a, b, c], _w(3), soft=True) == []
    assert vote_spans([a, b, c], _w(3), threshold=0.35)[0][3] == pytest.approx(0.4)


def test_weights_per_class():
    a = [("protein", 0, 1, 1.0), ("DNA", 3, 5, 1.0)]
    b = []
    w = member_weights([{"protein": 3.0, "DNA": 0.5}, 1.0], 2, ["DNA", "protein"])
    assert w == [{"DNA": 0.5, "protein": 3.0}, {"DNA": 1.0, "protein": 1.0}]
    # protein: 3 / 4 > 0.5; DNA: 0.5 / 1.5 is not
    assert vote_spans([a, b], w, soft=False) == [("protein", 0, 1, 0.75)]


def test_overlapping_candidates_resolve_to_the_better_supported():
    a = [("protein", 0, 2, 1.0)]
    b = [("protein", 0, 2, 1.0)]
    c = [("DNA", 1, 3, 1.0)]
    w = member_weights([1.0, 1.0, {"DNA": 10.0}], 3, ["DNA", "protein"])
    # DNA: 10 / 12 > protein: 2 / 3, and they overlap: DNA only
    out = vote_spans([a, b, c], w, soft=False)
    assert out == [("DNA", 1, 3, pytest.approx(10 / 12))]


def test_member_weights_checks():
    with pytest.raises(ValueError, match="3 items for 2"):
        member_weights([1, 2, 3], 2, ["DNA"])
    with pytest.raises(ValueError, match="types the members do not tag"):
        member_weights([{"RNA": 1.0}], 1, ["DNA"])
    with pytest.raises(ValueError, match="negative"):
        member_weights([-1.0], 1, ["DNA"])
    with pytest.raises(TypeError, match="number or a dict"):
        member_weights(["x"], 1, ["DNA"])
    with pytest.raises(TypeError, match="number or a dict"):
        member_weights([True], 1, ["DNA"])


def _oracle(spans, weights, threshold, soft):
    """Slow and plain: every candidate's support, then kept best first without overlaps."""
    cands = sorted({(t, s, e) for member in spans for t, s, e, _ in member})
    scored = []
    for t, s, e in cands:
        total = sum(w[t] for w in weights)
        got = sum(w[t] * (p if soft else 1.0) for member, w in zip(spans, weights)
                  for tt, ss, ee, p in member if (tt, ss, ee) == (t, s, e))
        support = got / total if total else 0.0
        if support > threshold:
            scored.append((support, t, s, e))
    scored.sort(key=lambda x: (-x[0], -(x[3] - x[2]), x[2], x[1]))
    kept = []
    for support, t, s, e in scored:
        if all(e <= ks or ke <= s for _, ks, ke, _ in kept):
            kept.append((t, s, e, min(support, 1.0)))
    return sorted(kept, key=lambda x: x[1])


def _random_member(rng, n_tokens, types):
    out, k = [], 0
    while k < n_tokens:
        if rng.random() < 0.4:
            e = min(n_tokens, k + 1 + int(rng.integers(0, 3)))
            out.append((str(rng.choice(types)), k, e, float(rng.random())))
            k = e
        k += int(rng.integers(0, 2))
    return out


def test_against_the_oracle_on_random_members(rng):
    types = ["DNA", "protein", "RNA"]
    for _ in range(300):
        n_members = int(rng.integers(1, 5))
        spans = [_random_member(rng, 8, types) for _ in range(n_members)]
        raw = [{t: float(rng.choice([0.5, 1.0, 2.0])) for t in types} for _ in spans]
        w = member_weights(raw, n_members, types)
        for threshold, soft in itertools.product([0.0, 0.3, 0.5], [False, True]):
            got = vote_spans(spans, w, threshold, soft)
            want = _oracle(spans, w, threshold, soft)
            assert [g[:3] for g in got] == [x[:3] for x in want]
            np.testing.assert_allclose([g[3] for g in got], [x[3] for x in want])
            # well formed: sorted, non-overlapping
            assert all(a[2] <= b[1] for a, b in zip(got, got[1:]))
