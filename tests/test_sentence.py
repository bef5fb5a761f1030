"""``Sentence``: words, annotation columns and the document id they travel with."""

import pickle

import pytest

from skbioner import Sentence
from skbioner.annotate import POSTagger
from skbioner.datasets import load_jnlpba_sample
from skbioner.io import read_columns
from skbioner.text import NumericNormalizer


def test_doc_id_is_kept_by_every_derived_sentence():
    s = Sentence(["IL-2", "gene"], doc_id="9001", pos=["NN", "NN"])
    assert s.doc_id == "9001"
    assert s.with_annotations(hmm=["1", "2"]).doc_id == "9001"
    assert s.with_doc_id("7").doc_id == "7" and s.with_doc_id("7").column("pos") == ("NN", "NN")
    back = pickle.loads(pickle.dumps(s))
    assert back.doc_id == "9001" and back.column("pos") == ("NN", "NN")
    assert "doc_id='9001'" in repr(s)


def test_doc_id_is_provenance_not_content():
    assert Sentence(["a"], doc_id="1") == Sentence(["a"], doc_id="2") == Sentence(["a"])
    assert Sentence(["a"]).doc_id is None
    with pytest.raises(TypeError, match="doc_id must be a str"):
        Sentence(["a"], doc_id=3)


def test_readers_and_annotators_carry_the_document(tmp_path):
    path = tmp_path / "c.iob2"
    path.write_text("###MEDLINE:11\n\nIL-2\tB-protein\n.\tO\n\n###MEDLINE:12\n\nA\tO\n\n")
    corpus = read_columns(path)
    assert [s.doc_id for s in corpus.X] == corpus.doc_ids == ["11", "12"]
    plain = tmp_path / "p.tsv"
    plain.write_text("A\tO\n\nB\tO\n\n")
    assert [s.doc_id for s in read_columns(plain).X] == [None, None]
    sample = load_jnlpba_sample("test")
    assert [s.doc_id for s in sample.X] == sample.doc_ids
    tagged = POSTagger().fit(sample.X[:3]).transform(sample.X[:3])
    assert [s.doc_id for s in tagged] == sample.doc_ids[:3]
    normed = NumericNormalizer().fit_transform(sample.X[:3])
    assert [s.doc_id for s in normed] == sample.doc_ids[:3]


def test_with_doc_id_keeps_words_and_columns_and_checks_the_id():
    from skbioner import Sentence

    s = Sentence(["IL-2", "gene"], doc_id="a", pos=["NN", "NN"])
    t = s.with_doc_id("b")
    assert (t.doc_id, s.doc_id) == ("b", "a")
    assert list(t) == ["IL-2", "gene"] and t.column("pos") == ("NN", "NN") and t == s
    assert isinstance(t, Sentence) and t.annotations is not s.annotations
    with pytest.raises(TypeError, match="doc_id"):
        s.with_doc_id(3)


def test_check_sentences_checks_the_labels_scheme_in_its_pass():
    from skbioner._sentence import check_sentences

    X, y = [["IL-2", "gene"], ["p53"]], [["B-DNA", "I-DNA"], ["E-protein"]]
    assert check_sentences(X, y)[1] == y  # any non-empty labels by default
    with pytest.raises(ValueError, match=r"y\[1\]: label 'E-protein' at token 0 is not a valid"):
        check_sentences(X, y, scheme="IOB2")
