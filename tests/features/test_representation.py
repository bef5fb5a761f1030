"""SentenceFeatures: indexing, pickling, sklearn model-selection compatibility."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import KFold, train_test_split
from sklearn.utils import _safe_indexing

from skbioner.features import SentenceFeatures


def make(rng, lengths=(3, 0, 1, 4, 2), n_features=7):
    n = sum(lengths)
    dense = (rng.random((n, n_features)) < 0.4).astype(np.float32)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    return SentenceFeatures(sp.csr_matrix(dense), offsets), dense, offsets


def rows_of(dense, offsets, idx):
    return np.vstack([dense[offsets[i] : offsets[i + 1]] for i in idx] or [dense[:0]])


def check(sub, dense, offsets, idx):
    assert isinstance(sub, SentenceFeatures)
    assert isinstance(sub.matrix, sp.csr_matrix)
    assert len(sub) == len(idx)
    assert sub.lengths.tolist() == [offsets[i + 1] - offsets[i] for i in idx]
    assert sub.offsets[0] == 0 and sub.offsets.dtype == np.int64
    np.testing.assert_array_equal(sub.matrix.toarray(), rows_of(dense, offsets, idx))


def test_basic_properties(rng):
    f, dense, offsets = make(rng)
    assert len(f) == f.n_sentences == 5
    assert f.n_tokens == 10 and f.n_features == 7 and f.shape == (5,)
    assert f.lengths.tolist() == [3, 0, 1, 4, 2]
    np.testing.assert_array_equal(f.sentence(3).toarray(), dense[4:8])
    np.testing.assert_array_equal(f.sentence(-1).toarray(), dense[8:10])
    assert "n_sentences=5" in repr(f)


@pytest.mark.parametrize(
    "key, idx",
    [
        (0, [0]), (3, [3]), (-1, [4]), (np.int64(2), [2]),
        (slice(1, 4), [1, 2, 3]), (slice(None), [0, 1, 2, 3, 4]), (slice(3, 1), []),
        (slice(None, None, -1), [4, 3, 2, 1, 0]), (slice(0, 5, 2), [0, 2, 4]),
        ([4, 0, 0, 2], [4, 0, 0, 2]), (np.array([1, 3]), [1, 3]), ([-1, -5], [4, 0]),
        (np.array([True, False, True, False, True]), [0, 2, 4]), ([], []),
        (np.array([], dtype=np.int64), []),
    ],
)  # fmt: skip
def test_indexing(rng, key, idx):
    f, dense, offsets = make(rng)
    check(f[key], dense, offsets, idx)


def test_block_of_sentences_shares_the_arrays(rng):
    # a contiguous block (the held-out split of calibration, a batch) is a view: no copy
    # of the matrix at the training peak; an index array still copies
    f, dense, offsets = make(rng)
    block = f[1:4]
    check(block, dense, offsets, [1, 2, 3])
    assert np.shares_memory(block.matrix.data, f.matrix.data)
    assert np.shares_memory(block.matrix.indices, f.matrix.indices)
    assert not np.shares_memory(f[[1, 2, 3]].matrix.data, f.matrix.data)


def test_indexing_errors(rng):
    f, _, _ = make(rng)
    for bad in (5, -6, [0, 5], np.array([True, False])):
        with pytest.raises(IndexError):
            f[bad]
    with pytest.raises(IndexError):
        f[1.5]
    with pytest.raises(IndexError):
        f[0, 1]
    with pytest.raises(IndexError):
        f.sentence(9)


def test_iteration_and_concatenate(rng):
    f, dense, offsets = make(rng)
    parts = list(f)
    assert [len(p) for p in parts] == [1] * 5
    again = SentenceFeatures.concatenate(parts)
    assert (again.matrix != f.matrix).nnz == 0
    np.testing.assert_array_equal(again.offsets, f.offsets)
    with pytest.raises(ValueError):
        SentenceFeatures.concatenate([])
    other = SentenceFeatures(sp.csr_matrix((2, 3)), [0, 2])
    with pytest.raises(ValueError, match="widths"):
        SentenceFeatures.concatenate([f, other])


def test_pickle(rng):
    f, dense, offsets = make(rng)
    g = pickle.loads(pickle.dumps(f))
    check(g, dense, offsets, range(5))
    np.testing.assert_array_equal(g.offsets, f.offsets)


def test_validation():
    m = sp.csr_matrix((4, 2))
    with pytest.raises(TypeError):
        SentenceFeatures(np.zeros((4, 2)), [0, 4])
    for bad in ([1, 4], [0, 3], [0, 3, 2, 4], [], [[0, 4]], [0.0, 4.0]):
        with pytest.raises(ValueError):
            SentenceFeatures(m, bad)
    f = SentenceFeatures(sp.coo_matrix(np.eye(2)), [0, 2])
    assert isinstance(f.matrix, sp.csr_matrix)
    empty = SentenceFeatures(sp.csr_matrix((0, 3)), [0])
    assert len(empty) == 0 and empty[[]].n_tokens == 0


def test_sklearn_model_selection_splits_sentences(rng):
    f, dense, offsets = make(rng)
    y = [["O"] * n for n in f.lengths]
    check(_safe_indexing(f, [3, 1]), dense, offsets, [3, 1])
    check(_safe_indexing(f, np.array([True, False, False, True, True])), dense, offsets,
          [0, 3, 4])  # fmt: skip
    for train, _ in KFold(n_splits=2).split(f, y):
        check(_safe_indexing(f, train), dense, offsets, train)
    a, b, ya, yb = train_test_split(f, y, test_size=2, random_state=0)
    assert isinstance(a, SentenceFeatures) and len(a) == 3 and len(b) == 2
    assert [len(s) for s in ya] == a.lengths.tolist()


def test_doc_ids_and_token_columns_travel_with_the_sentences():
    from skbioner import Sentence
    from skbioner.features import TokenFeaturizer

    X = [Sentence(["IL-2", "gene"], doc_id="a", pos=["NN", "NN"]),
         Sentence(["binds"], doc_id="a", pos=["VBZ"]),
         Sentence(["T", "cells", "."], doc_id="b", pos=["NN", "NNS", "."])]
    F = TokenFeaturizer().fit_transform(X)
    assert F.doc_ids.tolist() == ["a", "a", "b"]
    assert F.columns["pos"].tolist() == ["NN", "NN", "VBZ", "NN", "NNS", "."]
    sub = F[[2, 0]]
    assert sub.doc_ids.tolist() == ["b", "a"] and sub.columns["pos"].tolist() == \
        ["NN", "NNS", ".", "NN", "NN"]
    assert F[1:].columns["pos"].tolist() == ["VBZ", "NN", "NNS", "."]
    both = SentenceFeatures.concatenate([F[:1], F[2:]])
    assert both.doc_ids.tolist() == ["a", "b"] and len(both.columns["pos"]) == 5
    back = pickle.loads(pickle.dumps(F))
    assert back.doc_ids.tolist() == F.doc_ids.tolist() and "pos" in back.columns
    assert F.with_matrix(F.matrix.tocsc()).columns["pos"].tolist() == F.columns["pos"].tolist()
    plain = TokenFeaturizer().fit_transform([["a", "b"]])
    assert plain.doc_ids is None and plain.columns == {}
    with pytest.raises(ValueError, match="one value per token"):
        SentenceFeatures(F.matrix, F.offsets, columns={"pos": ["NN"]})


# -- document ids ----------------------------------------------------------------------

DOCS = np.array(["d1", "d1", None, "d2", "d3"], dtype=object)


@pytest.mark.parametrize(
    "key, idx",
    [(0, [0]), (-2, [3]), (slice(1, 4), [1, 2, 3]), (slice(None, None, -2), [4, 2, 0]),
     ([4, 0, 0], [4, 0, 0]), (np.array([False, True, True, False, True]), [1, 2, 4]), ([], [])],
)  # fmt: skip
def test_doc_ids_follow_indexing(rng, key, idx):
    f, dense, offsets = make(rng)
    f = SentenceFeatures(f.matrix, f.offsets, doc_ids=list(DOCS))
    sub = f[key]
    check(sub, dense, offsets, idx)
    assert sub.doc_ids.dtype == object and sub.doc_ids.tolist() == DOCS[idx].tolist()
    assert _safe_indexing(f, idx).doc_ids.tolist() == DOCS[idx].tolist()


def test_doc_ids_concatenate_pickle_and_default(rng):
    f, dense, offsets = make(rng)
    assert f.doc_ids is None and f[1:3].doc_ids is None
    g = SentenceFeatures(f.matrix, f.offsets, DOCS)
    again = SentenceFeatures.concatenate(list(g))
    assert again.doc_ids.tolist() == DOCS.tolist()
    assert SentenceFeatures.concatenate([f[:2], f[2:]]).doc_ids is None
    mixed = SentenceFeatures.concatenate([f[:2], g[2:]])
    assert mixed.doc_ids.tolist() == [None, None, None, "d2", "d3"]
    assert pickle.loads(pickle.dumps(g)).doc_ids.tolist() == DOCS.tolist()
    assert pickle.loads(pickle.dumps(f)).doc_ids is None
    # a pickle made before doc_ids existed loads with None
    old = SentenceFeatures.__new__(SentenceFeatures)
    old.__setstate__({"matrix": f.matrix, "offsets": f.offsets})
    assert old.doc_ids is None and len(old) == 5


def test_doc_ids_validation(rng):
    f, _, _ = make(rng)
    with pytest.raises(ValueError, match="4 entries for 5 sentences"):
        SentenceFeatures(f.matrix, f.offsets, ["a"] * 4)
    with pytest.raises(TypeError, match="str or None"):
        SentenceFeatures(f.matrix, f.offsets, ["a", "b", 3, "c", "d"])
    with pytest.raises(TypeError, match="one id per sentence"):
        SentenceFeatures(f.matrix, f.offsets, "abcde")
