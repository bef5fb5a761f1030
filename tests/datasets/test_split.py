"""Development splits refuse or jackknife an annotator fitted on development sentences."""


import pytest
from sklearn.frozen import FrozenEstimator

from skbioner import Sentence
from skbioner.annotate import POSTagger
from skbioner.datasets import annotate_split, dev_split, load_jnlpba_sample
from skbioner.models import MajorityTagger
from tests.conftest import data_path


def _corpus(n_docs=10):
    """Sentences of their own words (a memorising tagger knows them only if it saw them)."""
    X = [Sentence([f"w{d}a{j}", f"w{d}b{j}", f"w{d}c{j}"], doc_id=f"d{d}")
         for d in range(n_docs) for j in range(2)]
    tags = [["NN", "NN", "VB"] for _ in X]
    y = [["B-protein", "O", "O"] for _ in X]
    return X, tags, y


def test_dev_split_refuses_a_tagger_trained_on_dev_sentences():
    X, tags, y = _corpus()
    memorising = FrozenEstimator(MajorityTagger(scheme=None).fit(X, tags))  # unseen: NN
    # told its training corpus, the tagger knows it saw the development sentences
    with pytest.raises(ValueError, match=r"POSTagger would tag 2 of the 2 evaluation sentences "
                                         r"\(1 documents\) with a model trained on them"):
        dev_split(X, y, annotators=[POSTagger(model=memorising, corpus=(X, tags))])


def test_dev_split_jackknifes_the_tagger_on_both_parts():
    X, tags, y = _corpus()
    memorising = FrozenEstimator(MajorityTagger(scheme=None).fit(X, tags))
    split = dev_split(X, y, annotators=[POSTagger(model=memorising, jackknife=5,
                                                  corpus=(X, tags))])
    assert [s.doc_id for s in split.X_dev] == ["d9", "d9"]
    # neither the training nor the development sentences are tagged by a model that saw
    # them: the memorised "VB" never appears
    for s in split.X_train + split.X_dev:
        assert s.column("pos") == ("NN", "NN", "NN")
    assert split.y_dev == y[-2:]
    # the same annotator, in sample, would have given the memorised tags
    inside = POSTagger(model=memorising).fit_transform(X[-2:])
    assert inside[0].column("pos") == ("NN", "NN", "VB")


def test_bundled_tagger_on_jnlpba_dev_is_refused_and_the_jackknife_accepted():
    # the bundled GENIA tagger was trained on most JNLPBA training abstracts (its shipped
    # fingerprints say which): a development split must not read its in-sample tags
    sample = load_jnlpba_sample("train")
    with pytest.raises(ValueError, match="POSTagger would tag 203 of the 257 evaluation"):
        dev_split(sample.X, sample.y, annotators=[POSTagger()])
    # new text: nothing to refuse
    Xtr, Xev = annotate_split([POSTagger()], sample.X[:5], [["p53", "binds", "DNA", "."]])
    assert Xev[0].column("pos")[1] == "VBZ"


def test_dev_split_needs_document_ids():
    with pytest.raises(ValueError, match="needs the document id of every sentence"):
        dev_split([["a", "b"]] * 20, [["O", "O"]] * 20)


def test_jnlpba_dev_split_with_the_jackknifed_bundled_tagger():
    """On the real corpus: dev POS from fold taggers is as good as on new text, not 99.7%."""
    from skbioner.datasets import load_jnlpba, train_dev_split
    from skbioner.io import read_columns
    from skbioner.metrics import token_accuracy_score

    pos_train = data_path("genia-pos", "train.tsv")
    train = load_jnlpba(data_path("jnlpba"), "train")
    genia = read_columns(pos_train, scheme=None)
    _, dev = train_dev_split(train.doc_ids)
    dev_docs = {train.doc_ids[i] for i in dev}
    # the GENIA POS sentences (with their gold tags) of the JNLPBA development abstracts
    keep = [i for i, d in enumerate(genia.doc_ids) if d in dev_docs]
    assert len({genia.doc_ids[i] for i in keep}) == 178
    Xg, yg = [genia.X[i] for i in keep], [genia.y[i] for i in keep]
    jk = POSTagger(jackknife=2, corpus=pos_train, n_jobs=2).fit(Xg)
    full = POSTagger().fit(Xg)
    honest = token_accuracy_score(yg, [s.column("pos") for s in jk.transform(Xg)])
    in_sample = token_accuracy_score(yg, [s.column("pos") for s in full.transform(Xg)])
    assert full.in_sample(Xg).all() and not jk.in_sample(Xg).any()
    assert in_sample > 0.995 > honest > 0.97
