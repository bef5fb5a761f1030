"""The post-processing hot paths against their slow oracles (postprocess_oracle.py).

The fast versions read spans once per sentence, memoize alias verdicts, walk the cascade
rules as a trie, skip bracket-free sentences and share one abbreviation detection per
document; they must give exactly what the plain versions give.  The JNLPBA training data
(gold labels, and the same labels with entities dropped and retyped so that the steps
change things) is the input; the tests skip without it.
"""

import random

import numpy as np
import pytest

from skbioner import Sentence
from skbioner.annotate._first_pass import _confidence, _confidence_bin
from skbioner.postprocess import (
    CascadedEntityRules,
    LabelledDocument,
    NameAlias,
    alias_score,
    find_abbreviations,
    group_documents,
)
from skbioner.postprocess._abbreviations import _document_abbreviations
from tests.conftest import data_path
from tests.postprocess import postprocess_oracle as oracle


@pytest.fixture(scope="module")
def jnlpba():
    from skbioner.io import read_jnlpba

    corpus = read_jnlpba(data_path("jnlpba", "train.iob2"))
    return list(corpus.X[:6000]), [list(lab) for lab in corpus.y[:6000]]


def _noisy(labels, rng):
    """Labels with some entities dropped, retyped or cut short (as a first pass errs)."""
    out = list(labels)
    for i, t in enumerate(out):
        if t.startswith("B-") and rng.random() < 0.3:
            kind = rng.random()
            j = i + 1
            while j < len(out) and out[j].startswith("I-"):
                j += 1
            if kind < 0.4:
                out[i:j] = ["O"] * (j - i)
            elif kind < 0.8:
                typ = rng.choice(["protein", "DNA", "cell_type"])
                out[i:j] = ["B-" + typ] + ["I-" + typ] * (j - i - 1)
            elif j - i > 1:
                out[j - 1] = "O"
    return out


def _documents(X, y):
    for doc_id, index in group_documents(X):
        yield LabelledDocument(doc_id, tuple(X[i] for i in index),
                               tuple(list(y[i]) for i in index))


def test_alias_score_equals_the_oracle_on_small_cases():
    cases = [("MM", ["memoization"]), ("MM", ["Mindful", "memoization"]),
             ("iHIV-1", ["heat-inactivated", "HIV-1"]),
             ("TPA", ["12-O-tetradecanoylphorbol-13-acetate"]),
             ("IL2", ["interleukin", "2"]), ("TCF", ["T", "cell", "factor"]), ("ab", ["ba"]),
             ("", ["x"]), ("x", []), ("aaa", ["a", "a", "a", "aa"]), ("AB", ["a-b", "b"])]
    for short, words in cases:
        assert alias_score(short, words) == oracle.alias_score(short, words), (short, words)


def test_alias_score_equals_the_oracle_on_jnlpba(jnlpba):
    X, _ = jnlpba
    rng = random.Random(0)
    tokens = [w for s in X[:2000] for w in s]
    for _ in range(20000):
        s = X[rng.randrange(len(X))]
        a = rng.randrange(len(s))
        words = list(s[a:a + rng.randrange(1, 8)])
        short = rng.choice(tokens) if rng.random() < 0.5 else \
            "".join(w[:1] for w in words).upper()
        assert alias_score(short, words) == oracle.alias_score(short, words), (short, words)


@pytest.mark.parametrize("params", [{}, {"min_initials": 2}, {"relabel": False}])
def test_name_alias_equals_the_oracle_on_jnlpba(jnlpba, params):
    X, y = jnlpba
    rng = random.Random(1)
    step = NameAlias(**params).fit([], [])
    changed = 0
    for labels in (y, [_noisy(lab, rng) for lab in y]):
        for doc in _documents(X, labels):
            got = step.correct(doc)
            assert got == oracle.alias_correct(step, doc), doc.doc_id
            changed += got != [list(lab) for lab in doc.labels]
    assert changed > 50  # the step did change documents: the comparison covered set_span


@pytest.mark.parametrize("params", [{}, {"join_adjacent": True, "min_count": 3}])
def test_cascade_matches_equal_the_oracle_on_jnlpba(jnlpba, params):
    X, y = jnlpba
    step = CascadedEntityRules(**params).fit(X[:4000], y[:4000])
    rng = random.Random(2)
    found = 0
    for labels in (y, [_noisy(lab, rng) for lab in y]):
        for s, lab in zip(X, labels):
            got = step._matches(list(s), list(lab))
            assert got == oracle.cascade_matches(step, list(s), list(lab)), (s, lab)
            found += len(got)
    assert found > 100


def test_shared_abbreviations_equal_a_fresh_detection(jnlpba):
    X, _ = jnlpba
    for _, index in list(group_documents(X))[:300]:
        sents = [list(X[i]) for i in index]
        for cross in (True, False):
            shared = _document_abbreviations(tuple(map(tuple, sents)), cross)
            assert list(shared) == find_abbreviations(sents, cross_sentence=cross)


def test_confidence_column_fast_path_equals_token_by_token():
    rng = np.random.default_rng(0)
    labels = [["O", "B-DNA", "I-DNA"], [], ["B-protein"] * 5]
    probs = [rng.random(len(lab)) for lab in labels]
    probs[0][0], probs[2][:3] = 0.9, [0.6, np.nan, 1.0]
    bins = (0.9, 0.6)
    slow = [tuple(f"{t}/{_confidence_bin(q, bins)}" for t, q in zip(lab, p))
            for lab, p in zip(labels, probs)]
    assert _confidence(labels, probs, bins) == slow
    # other inputs (lists, float32) go token by token
    assert _confidence(labels, [list(p) for p in probs], bins) == slow
    p32 = [p.astype(np.float32) for p in probs]
    assert _confidence(labels, p32, bins) == [
        tuple(f"{t}/{_confidence_bin(q, bins)}" for t, q in zip(lab, p))
        for lab, p in zip(labels, p32)]


def test_alias_step_does_not_keep_per_document_state():
    step = NameAlias(min_initials=2).fit([], [])
    doc = LabelledDocument("d", (Sentence("T cell factor binds TCF".split()),),
                           (["B-protein", "I-protein", "I-protein", "O", "O"],))
    before = dict(step.__dict__)
    assert step.correct(doc)[0][-1] == "B-protein"
    assert step.__dict__ == before
