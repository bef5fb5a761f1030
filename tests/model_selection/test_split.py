"""The one rule for held-out work: whole documents, a sentence without id a document of its own."""

import numpy as np
import pytest
import scipy.sparse as sp

from skbioner import Sentence
from skbioner.features import SentenceFeatures
from skbioner.model_selection import document_folds, document_splits, holdout_split


def _sents(doc_ids):
    return [Sentence(["w"], doc_id=d) for d in doc_ids]


def test_folds_keep_documents_whole_and_blocks_contiguous():
    X = _sents(["a", "b", "a", "c"])
    assert document_folds(X, 3).tolist() == [0, 1, 0, 2]  # a, b, c in order of appearance
    assert document_folds(X, 2).tolist() == [0, 0, 0, 1]
    # fewer documents than folds: one fold per document, never a document cut
    assert document_folds(X, 4).tolist() == [0, 1, 0, 2]
    # no ids: every sentence a document of its own (contiguous blocks of sentences)
    assert document_folds(_sents([None] * 5), 2).tolist() == [0, 0, 0, 1, 1]
    assert document_folds(_sents(["a", None, None, "a"]), 3).tolist() == [0, 1, 2, 0]
    # a single document (a file with one -DOCSTART-): its sentences are cut
    assert document_folds(_sents(["a"] * 3), 2).tolist() == [0, 0, 1]
    with pytest.raises(ValueError, match="at least 2 sentences"):
        document_folds(_sents(["a"]), 2)
    feats = SentenceFeatures(sp.csr_matrix((4, 1)), np.arange(5), doc_ids=["a", "b", "a", "c"])
    assert document_folds(feats, 3).tolist() == [0, 1, 0, 2]
    splits = document_splits(X, 2)
    assert [(a.tolist(), b.tolist()) for a, b in splits] == [([3], [0, 1, 2]), ([0, 1, 2], [3])]


def test_holdout_is_the_last_documents_raised_to_a_minimum():
    X = _sents(["1", "1", "2", "2", "3"])
    train, held = holdout_split(X, 0.34)
    assert train.tolist() == [0, 1, 2, 3] and held.tolist() == [4]
    # no ids: the last sentences
    train, held = holdout_split(_sents([None] * 10), 0.2)
    assert held.tolist() == [8, 9]
    # what the tuner holds out on a corpus of BioNLP13CG's size (no document ids)
    train, held = holdout_split(_sents([None] * 3033), 0.2, 500)
    assert held.size == 607 and train.size == 2426 and held.min() == 2426
    assert holdout_split(_sents([None] * 1500), 0.2, 500)[1].size == 500
    assert holdout_split(_sents([None] * 600), 0.2, 500)[1].size == 300  # never over half
    # 10 documents of 60 sentences: 20% -> 2, raised to 5 (300 sentences, half)
    docs = [f"d{i // 60}" for i in range(600)]
    train, held = holdout_split(_sents(docs), 0.2, 500)
    assert held.size == 300 and {docs[i] for i in held} == {f"d{i}" for i in range(5, 10)}
    train, held = holdout_split(_sents(docs), 0.2, 100)
    assert held.size == 120 and train.size == 480
