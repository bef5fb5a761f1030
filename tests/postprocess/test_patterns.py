"""PatternPostProcessor: Smith-Waterman patterns "head <class> tail" (NERBio)."""

import numpy as np
import pytest

from skbioner import Sentence
from skbioner.datasets import load_jnlpba_sample
from skbioner.metrics import entity_f1_score
from skbioner.postprocess import (
    LabelledDocument,
    PatternPostProcessor,
    PostProcessedTagger,
    apply_steps,
)
from skbioner.postprocess._patterns import GAP, MATCH, MAX_PER_PAIR, MISMATCH, align_pairs


def sw_oracle(a, b, n_classes):
    """Plain Smith-Waterman with the kernel's tie-breaking, then the pattern triples."""
    n, m = len(a), len(b)
    H = [[0] * (m + 1) for _ in range(n + 1)]
    best, bi, bj = 0, 0, 0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = MATCH if a[i - 1] == b[j - 1] else MISMATCH
            h = max(0, H[i - 1][j - 1] + s, H[i - 1][j] + GAP, H[i][j - 1] + GAP)
            H[i][j] = h
            if h > best:
                best, bi, bj = h, i, j
    cols = []
    i, j = bi, bj
    while i > 0 and j > 0 and H[i][j] > 0:
        s = MATCH if a[i - 1] == b[j - 1] else MISMATCH
        if H[i][j] == H[i - 1][j - 1] + s:
            if a[i - 1] == b[j - 1]:
                cols.append(i - 1)
            i, j = i - 1, j - 1
        elif H[i][j] == H[i - 1][j] + GAP:
            i -= 1
        else:
            j -= 1
    cols.reverse()
    out = []
    for r in range(1, len(cols) - 1):
        h, c, t = a[cols[r - 1]], a[cols[r]], a[cols[r + 1]]
        if c < n_classes <= h and t >= n_classes:
            out.append((h, c, t))
    return out[:MAX_PER_PAIR]


def test_kernel_matches_oracle(rng):
    n_classes = 3
    seqs = [rng.integers(0, 9, int(rng.integers(1, 25))).astype(np.int32) for _ in range(60)]
    offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
    np.cumsum([s.size for s in seqs], out=offsets[1:])
    pairs = np.array([(i, j) for i in range(len(seqs)) for j in range(i + 1, len(seqs))][:800])
    triples, counts = align_pairs(np.concatenate(seqs), offsets, pairs, n_classes)
    n_found = 0
    for p, (i, j) in enumerate(pairs):
        want = sw_oracle(seqs[i].tolist(), seqs[j].tolist(), n_classes)
        got = [tuple(t) for t in triples[p, :counts[p]].tolist()]
        assert got == want, (i, j)
        n_found += len(want)
    assert n_found > 50  # the random sequences do give patterns
    # a gap inside the alignment: "of <c> ." found in "of <c> and <c> ." vs "of <c> ."
    a = np.array([10, 0, 11, 0, 12], dtype=np.int32)  # of <c> and <c> .
    b = np.array([10, 0, 12], dtype=np.int32)  # of <c> .
    tr, cn = align_pairs(np.concatenate([a, b]), np.array([0, 5, 8]), np.array([[0, 1]]), 2)
    assert [tuple(t) for t in tr[0, :cn[0]].tolist()] == sw_oracle(a.tolist(), b.tolist(), 2)
    assert (10, 0, 12) in [tuple(t) for t in tr[0, :cn[0]].tolist()]


def _coordination_corpus():
    """Cell types after "of", before "."; the held-out documents show coordinations joined."""
    X, y = [], []
    names = ["T cells", "B cells", "monocytes", "mature T cells", "NK cells", "macrophages"]
    for k in range(60):
        ent = names[k % len(names)].split()
        words = ["expression", "of", *ent, "."]
        labels = ["O", "O", "B-cell_type"] + ["I-cell_type"] * (len(ent) - 1) + ["O"]
        X.append(Sentence(words, doc_id=f"d{k}"))
        y.append(labels)
    for k in range(8):  # held out (last documents): "of CD4 and CD8 T cells ." is one entity
        ent = ["CD4", "and", f"CD{k + 5}", "T", "cells"]
        X.append(Sentence(["activation", "of", *ent, "."], doc_id=f"h{k}"))
        y.append(["O", "O", "B-cell_type"] + ["I-cell_type"] * 4 + ["O"])
    return X, y


def _doc(words, labels):
    return LabelledDocument("x", (Sentence(words),), (labels,))


def test_joins_coordinated_mentions():
    X, y = _coordination_corpus()
    step = PatternPostProcessor(dev_fraction=8 / 68, tau=0.2, zeta=0.4).fit(X, y)
    assert "of <cell_type> ." in [str(p) for p in step.patterns_]
    p = next(p for p in step.patterns_ if str(p) == "of <cell_type> .")
    assert p.support >= 1 and p.dev_count == 8 and p.error_ratio == 0.0
    words = ["analysis", "of", "CD4", "and", "CD8", "mature", "T", "cells", "."]
    pred = ["O", "O", "O", "O", "B-cell_type", "I-cell_type", "I-cell_type", "I-cell_type", "O"]
    joined = step.correct(_doc(words, pred))[0]
    assert joined == ["O", "O", "B-cell_type"] + ["I-cell_type"] * 5 + ["O"]
    # the gap ratio (2 untagged of 6 tokens = 0.33) must be below zeta
    assert step.set_params(zeta=0.3).correct(_doc(words, pred))[0] == pred
    step.set_params(zeta=0.4)
    # no pattern around it, another class inside, or a gap too long: unchanged
    other = ["analysis", "in", "CD4", "and", "CD8", "mature", "T", "cells", "."]
    assert step.correct(_doc(other, pred))[0] == pred
    mixed = ["O", "O", "B-protein", "O"] + pred[4:]
    assert step.correct(_doc(words, mixed))[0] == mixed
    # two predicted entities are joined only with join_entities=True
    two = ["O", "O", "B-cell_type", "O"] + pred[4:]
    assert step.correct(_doc(words, two))[0] == two
    assert step.set_params(join_entities=True).correct(_doc(words, two))[0] == joined
    step.set_params(join_entities=False)
    # a segment never begins with an untagged lower-case word ("of the CD8 T cells .")
    the = ["analysis", "of", "the", "CD8", "mature", "T", "cells", "."]
    pthe = ["O", "O", "O", "B-cell_type", "I-cell_type", "I-cell_type", "I-cell_type", "O"]
    assert step.correct(_doc(the, pthe))[0] == pthe
    # nor ends with punctuation ("of CD8 T cells , ." keeps its comma outside)
    comma = ["analysis", "of", "CD8", "T", "cells", ",", "."]
    pcomma = ["O", "O", "B-cell_type", "I-cell_type", "I-cell_type", "O", "O"]
    assert step.correct(_doc(comma, pcomma))[0] == pcomma
    # tau is read at prediction: a stricter tau than the pattern's ratio drops it
    X2, y2 = _coordination_corpus()
    y2[-1] = ["O", "O", "B-cell_type", "O", "B-cell_type", "I-cell_type", "I-cell_type", "O"]
    s2 = PatternPostProcessor(dev_fraction=8 / 68, tau=0.0).fit(X2, y2)
    p2 = next(p for p in s2.get_patterns(1.0) if str(p) == "of <cell_type> .")
    assert p2.error_ratio == pytest.approx(1 / 8)
    assert s2.correct(_doc(words, pred))[0] == pred  # 1/8 > tau = 0
    assert s2.set_params(tau=0.2).correct(_doc(words, pred))[0] == joined


def test_on_the_sample_with_a_tagger():
    from sklearn.pipeline import make_pipeline

    from skbioner.features import TokenFeaturizer
    from skbioner.models import OnlinePACRF

    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    step = PatternPostProcessor(tau=0.3).fit(train.X, train.y)
    assert step.n_pairs_ > 1000 and step.n_induced_ > 100
    assert 0 < len(step.patterns_) < step.n_induced_
    assert all(p.error_ratio <= 0.3 and p.dev_count > 0 for p in step.patterns_)
    assert len(step.get_patterns(1.0)) >= len(step.patterns_) >= len(step.get_patterns(0.0))
    pp = PostProcessedTagger(make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=3,
                                                                          random_state=0)),
                             steps=[("patterns", PatternPostProcessor(tau=0.3))])
    pp.fit(train.X, train.y)
    pred = pp.predict(test.X)
    plain = pp.tagger_.predict(test.X)
    # a correction step on a reasonable tagger: few sentences change, F1 kept
    changed = sum(a != b for a, b in zip(pred, plain))
    assert changed < 0.05 * len(test.X)
    assert entity_f1_score(test.y, pred) > entity_f1_score(test.y, plain) - 0.005
    assert apply_steps([pp.steps_[0][1]], test.X, plain) == pred
    joining = pp.steps_[0][1].set_params(join_entities=True, zeta=0.5)
    assert sum(a != b for a, b in zip(apply_steps([joining], test.X, plain), plain)) > changed
