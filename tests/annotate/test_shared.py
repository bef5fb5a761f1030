"""Annotation columns shared by equivalent annotators (the members of a combination)."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp

from skbioner import Sentence
from skbioner._shared import equivalent, shared_annotations, shared_columns
from skbioner.annotate import POSTagger, WordClassAnnotator
from skbioner.datasets import load_jnlpba_sample
from skbioner.ensemble import VotingTagger
from skbioner.ensemble._outputs import members_outputs, tagger_outputs
from skbioner.io import write_word_classes
from skbioner.pipelines import make_tagger

X = [Sentence(["IL-2", "gene", "expression", "in", "T", "cells"], doc_id="d1"),
     Sentence(["NF-kappa", "B", "binds", "DNA", "."], doc_id="d1", pos=["NN"] * 5)]


def _counting(monkeypatch, cls, name):
    calls = []
    orig = getattr(cls, name)

    def counted(self, *args, **kwargs):
        calls.append(self)
        return orig(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, counted)
    return calls


def _table(tmp_path, name, cls):
    path = tmp_path / name
    write_word_classes(path, [(["il-0", "gene", "cells"], {"c": [cls, "b", "c"]})])
    return path


def test_equivalent_annotators_annotate_once_and_as_alone(monkeypatch, tmp_path):
    path = _table(tmp_path, "a.tsv", "a")
    a = WordClassAnnotator(path).fit()
    b = pickle.loads(pickle.dumps(WordClassAnnotator(path).fit()))  # another object, loaded
    alone = [a.transform(X), b.transform(X)]
    calls = _counting(monkeypatch, WordClassAnnotator, "_columns_of")
    with shared_annotations():
        shared = [a.transform(X), b.transform(X), a.transform(X)]
    assert len(calls) == 1
    for out in shared:
        assert out == alone[0] == alone[1]  # words and every column
        assert [s.doc_id for s in out] == ["d1", "d1"]
    assert shared[0][1].column("pos") == ("NN",) * 5  # other columns travel along
    calls.clear()
    a.transform(X), a.transform(X)
    assert len(calls) == 2  # outside the block nothing is kept


def test_different_annotators_or_words_are_not_shared(monkeypatch, tmp_path):
    a = WordClassAnnotator(_table(tmp_path, "a.tsv", "a")).fit()
    other = WordClassAnnotator(_table(tmp_path, "b.tsv", "x")).fit()  # one class differs
    alone = other.transform(X)
    calls = _counting(monkeypatch, WordClassAnnotator, "_columns_of")
    with shared_annotations():
        first = a.transform(X)
        assert other.transform(X) == alone != first
        moved = [Sentence(X[0], doc_id="d2"), X[1]]  # another document: another key
        a.transform(moved)
        a.transform(X[:1])
    assert len(calls) == 4


def test_equivalent_compares_values_exactly():
    a = WordClassAnnotator("bundled").fit()
    assert equivalent(a, pickle.loads(pickle.dumps(a)))
    assert not equivalent(a, WordClassAnnotator("bundled", columns=("brown",)).fit())
    assert not equivalent(a, POSTagger())
    p, q = POSTagger(), POSTagger()
    p.coef_, q.coef_ = np.array([0.0, 1.0]), np.array([-0.0, 1.0])
    assert not equivalent(p, q)  # bit for bit: -0.0 is not 0.0
    q.coef_ = np.array([0.0, 1.0])
    assert equivalent(p, q)
    p.m_, q.m_ = sp.csr_matrix(np.eye(3)), sp.csr_matrix(np.eye(3))
    assert equivalent(p, q)
    q.m_ = sp.csr_matrix(2 * np.eye(3))
    assert not equivalent(p, q)
    q.m_ = p.m_
    p.f_, q.f_ = (lambda x: x), (lambda x: x)  # functions: only themselves
    assert not equivalent(p, q)
    q.f_ = p.f_
    p.d_, q.d_ = {("w", "a"): 1, ("w", "b"): 2}, {("w", "a"): 1, ("w", "b"): 2}
    assert equivalent(p, q)
    q.d_ = {("w", "a"): 1, ("w", "b"): 2.0}  # an int is not a float
    assert not equivalent(p, q)


def test_pos_taggers_tag_once():
    a, b = POSTagger().fit(X), POSTagger().fit(X)
    alone = a.transform(X)
    with shared_annotations():
        first = a.transform(X)
        tags = shared_columns(b, X, lambda X: pytest.fail("b computed its tags again"))
        second = b.transform(X)
    assert first == second == alone
    assert [tuple(t) for t in tags] == [s.column("pos") for s in alone]


def test_vote_members_share_word_classes_and_tag_as_alone(monkeypatch):
    train = load_jnlpba_sample("train")
    params = {"max_iter": 2}
    vote = VotingTagger([
        ("a", make_tagger("online-crf", word_classes="bundled", model_params=params)),
        ("b", make_tagger("online-crf", word_classes="bundled", scheme="IOE2",
                          model_params=params)),
    ], voting="soft", threshold=0.3).fit(train.X[:200], train.y[:200])
    test = train.X[200:260]
    alone = [tagger_outputs(est, test) for est in vote.estimators_]
    calls = _counting(monkeypatch, WordClassAnnotator, "_columns_of")
    shared = members_outputs(vote.estimators_, test)
    assert len(calls) == 1
    for x, y in zip(alone, shared, strict=True):
        assert x.labels == y.labels and x.entities == y.entities
        assert all(np.array_equal(m, n) for m, n in zip(x.marginals, y.marginals, strict=True))
    assert len(vote.predict_entities(test)) == len(test)


def test_document_abbreviations_found_once_per_block(monkeypatch):
    from skbioner.postprocess import _abbreviations as ab

    calls = []
    orig = ab.find_abbreviations
    monkeypatch.setattr(ab, "find_abbreviations",
                        lambda *a, **k: calls.append(1) or orig(*a, **k))
    docs = [(("the", f"interleukin{i}", "receptor", "(", f"IL{i}R", ")"),) for i in range(40)]
    ab._document_abbreviations.cache_clear()
    with shared_annotations():
        first = [ab._document_abbreviations(d, True) for d in docs]
        again = [ab._document_abbreviations(d, True) for d in docs]  # 40 > 16: out of the LRU
    assert len(calls) == 40 and first == again
    assert first == [tuple(orig(d, cross_sentence=True)) for d in docs]
    ab._document_abbreviations.cache_clear()
    for d in docs:
        ab._document_abbreviations(d, True)
    assert len(calls) == 80  # nothing outlives the block


def test_an_annotator_refitted_in_place_is_not_shared_with_its_former_twin(tmp_path):
    # Equivalence is decided once per annotator object; refitting that object with
    # another table must make it a different computation, in every later block.
    path_a, path_b = _table(tmp_path, "a.tsv", "a"), _table(tmp_path, "b.tsv", "x")
    a = WordClassAnnotator(path_a).fit()
    twin = WordClassAnnotator(path_a).fit()
    with shared_annotations():
        assert a.transform(X) == twin.transform(X)
    a.set_params(classes=path_b).fit()
    alone = [a.transform(X), twin.transform(X)]
    assert alone[0] != alone[1]
    with shared_annotations():
        assert twin.transform(X) == alone[1]
        assert a.transform(X) == alone[0]
