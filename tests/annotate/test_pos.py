"""POSTagger: the bundled GENIA model, jackknifed training annotations, estimator hygiene."""

import joblib
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline

from skbioner import Sentence
from skbioner.annotate import POSTagger, load_genia_pos_model
from skbioner.features import TokenFeaturizer
from skbioner.models import MajorityTagger, OnlinePACRF
from tests.conftest import data_path
from tests.models.toy import toy_sentences

SENT = ["IL-2", "gene", "expression", "requires", "NF-kappa", "B", "."]


def test_bundled_model_tags_and_keeps_input():
    X = [list(SENT), Sentence(["p53", "binds", "DNA"], chunk=["B-NP", "B-VP", "B-NP"])]
    before = [list(s) for s in X]
    out = POSTagger().fit_transform(X)
    assert [list(s) for s in X] == before and not X[1].has("pos")
    assert out[0].column("pos") == ("NN", "NN", "NN", "VBZ", "NN", "NN", ".")
    assert out[1].column("chunk") == ("B-NP", "B-VP", "B-NP")  # other columns travel along
    assert len(out[1].column("pos")) == 3


def test_unfitted_persistence_and_column(tmp_path):
    with pytest.raises(NotFittedError):
        POSTagger().transform([SENT])
    t = POSTagger(column="tag").fit([SENT])
    joblib.dump(t, tmp_path / "t.joblib")
    t2 = joblib.load(tmp_path / "t.joblib")
    assert t2.transform([SENT])[0].column("tag") == t.transform([SENT])[0].column("tag")
    assert clone(t).get_params() == t.get_params()


def test_bad_parameters_are_named(tmp_path):
    with pytest.raises(ValueError, match="jackknife needs the tagger's training corpus"):
        POSTagger(jackknife=3).fit([SENT])
    with pytest.raises(ValueError, match=r"'jackknife' parameter of POSTagger must be an int"):
        POSTagger(jackknife=1, corpus=([SENT], [["NN"] * 7])).fit([SENT])
    with pytest.raises(FileNotFoundError, match="POS model file not found"):
        POSTagger(model=tmp_path / "missing.joblib").fit([SENT])
    with pytest.raises(TypeError, match="'model' parameter of POSTagger must be"):
        POSTagger(model=3).fit([SENT])
    with pytest.raises(ValueError, match="'column' parameter of POSTagger"):
        POSTagger(column="word").fit([SENT])


def _memorising_corpus():
    # every sentence has words of its own: a memorising tagger knows them only if it saw them
    X = [[f"w{i}a", f"w{i}b", f"w{i}c"] for i in range(12)]
    tags = [["NN", "NN", "VB"] for _ in X]
    return X, tags


def test_jackknife_tags_training_sentences_out_of_fold():
    CX, Ctags = _memorising_corpus()
    model = MajorityTagger(scheme=None).fit(CX, Ctags)  # unknown words: NN, the commonest
    unseen = [["new", "words"]]
    jk = POSTagger(model=model, jackknife=3, corpus=(CX, Ctags))
    out = jk.fit_transform(CX[:6] + unseen)
    # in-fold, the memorised "VB" is unknown: fold models (trained without the sentence) say NN
    assert all(s.column("pos") == ("NN", "NN", "NN") for s in out[:6])
    assert jk.jackknife_coverage_ == pytest.approx(6 / 7)
    # development and test data (transform) too: never the full model, which has seen them
    assert all(s.column("pos") == ("NN", "NN", "NN") for s in jk.transform(CX[6:]))
    assert out[6].column("pos") == ("NN", "NN")  # not in the corpus: full model
    assert not jk.in_sample(CX).any()
    # without the jackknife, the full model tags them in sample, and says so
    plain = POSTagger(model=model, corpus=(CX, Ctags)).fit(CX)
    assert all(s.column("pos") == ("NN", "NN", "VB") for s in plain.transform(CX[6:]))
    assert plain.in_sample(CX + unseen).tolist() == [True] * len(CX) + [False]
    assert not POSTagger(model=model).fit(CX).in_sample(CX).any()  # unknown: taken as unseen


def test_jackknifed_tagger_in_a_pipeline_tags_held_out_sentences_out_of_fold():
    # the development sentences of a pipeline fitted on the other sentences: out of fold
    CX, Ctags = _memorising_corpus()
    model = MajorityTagger(scheme=None).fit(CX, Ctags)
    pipe = make_pipeline(POSTagger(model=model, jackknife=4, corpus=(CX, Ctags)),
                         "passthrough")
    pipe.fit(CX[:8])
    dev = pipe.transform(CX[8:])
    assert [s.column("pos") for s in dev] == [("NN", "NN", "NN")] * 4
    # clones refit the same folds
    assert clone(pipe).fit(CX[:8]).transform(CX[8:]) == dev


def test_bundled_tagger_knows_its_training_sentences():
    from skbioner.datasets import load_jnlpba_sample

    sample = load_jnlpba_sample("train")  # JNLPBA training abstracts: mostly GENIA POS train
    seen = POSTagger().fit([SENT]).in_sample(sample.X)
    assert 0.7 < seen.mean() < 1.0
    assert not POSTagger().fit([SENT]).in_sample([SENT, ["p53", "binds", "DNA"]]).any()


def test_in_pipeline_before_featurizer_and_tagger():
    X, y = toy_sentences(20)
    pipe = make_pipeline(POSTagger(), TokenFeaturizer("kazama"), OnlinePACRF(max_iter=3,
                                                                           random_state=0))
    pipe.fit(X, y)
    assert any(name.startswith("pos") for name in pipe[1].get_feature_names_out()[:100000])
    assert pipe.score(X, y) == 1.0


def test_bundled_model_accuracy_on_genia_test_split():
    from skbioner.io import read_columns
    from skbioner.metrics import token_accuracy_score

    test = read_columns(data_path("genia-pos", "test.tsv"), scheme=None)
    acc = token_accuracy_score(test.y, load_genia_pos_model().predict(test.X))
    assert acc >= 0.980


def test_jackknife_matches_retokenised_and_resplit_sentences():
    from skbioner.annotate._pos import _documents_of, _index_corpus

    CX = [["IL-2-induced", "p50", "binds", "DNA", "."], ["It", "binds", "it", "."],
          ["Then", "it", "acts", "fast", "."], ["Other", "doc", "here", "."], ["1", "."]]
    keys, docs, _ = _index_corpus(CX, ["d1", "d1", "d1", "d2", "d2"])
    X = [["IL-2", "-induced", "p50", "binds", "DNA", "."],  # other tokenisation
         ["It", "binds", "it", ".", "Then"],                 # other split: between d1 ones
         ["it", "acts", "fast", "."], ["Then", "it", "acts", "fast", "."],
         ["Other", "doc", "here", "."], ["Unseen", "words", "."]]
    assert _documents_of(X, keys, docs).tolist() == [0, 0, 0, 0, 1, -1]
    # a sentence of fewer than three words matches no document on its own ("1 ."), and
    # a long run of unmatched sentences is not swept into the document around it
    X = [["1", "."], ["Other", "doc", "here", "."]] + [["new", "text", "here", "."]] * 7 + \
        [["Other", "doc", "here", "."]]
    assert _documents_of(X, keys, docs).tolist() == [-1, 1] + [-1] * 7 + [1]


def test_fitted_tagger_pickles_compact(tmp_path):
    t = POSTagger().fit([SENT])
    joblib.dump(t, tmp_path / "t.joblib")
    assert (tmp_path / "t.joblib").stat().st_size < 10_000_000  # not the 70 MB dense weights
    t2 = joblib.load(tmp_path / "t.joblib")
    assert t2.transform([SENT]) == t.transform([SENT])
    assert isinstance(t2.model_[-1].coef_, np.ndarray)  # dense again for fast tagging


def test_jackknife_needs_documents(tmp_path):
    corpus = tmp_path / "pos.tsv"
    corpus.write_text("IL-2\tNN\n\nbinds\tVBZ\n\n")
    with pytest.raises(ValueError, match="need as many documents in the POS corpus"):
        POSTagger(jackknife=2, corpus=corpus).fit_transform([SENT])


def test_model_path_loads_the_safe_format_and_refuses_pickles(tmp_path):
    from skbioner.io import ModelFileError, save_model

    X, tags = _memorising_corpus()
    tagger = MajorityTagger(scheme=None).fit(X, tags)
    path = save_model(tagger, tmp_path / "pos.skops")
    assert POSTagger(model=path).fit_transform(X[:1])[0].column("pos") == ("NN", "NN", "VB")
    joblib.dump(tagger, tmp_path / "pos.joblib")
    with pytest.raises(ModelFileError, match="refused: this is a pickle"):
        POSTagger(model=tmp_path / "pos.joblib").fit(X)


def test_bundled_model_is_in_the_safe_format():
    import zipfile
    from importlib.resources import files

    from skbioner.annotate._pos import GENIA_POS_MODEL

    data = files("skbioner.annotate").joinpath("data")
    assert GENIA_POS_MODEL.endswith(".skops")
    assert zipfile.is_zipfile(files("skbioner.annotate").joinpath(GENIA_POS_MODEL))
    assert not [p.name for p in data.iterdir() if p.name.endswith((".joblib", ".pkl"))]


def test_bundled_model_clones_for_the_jackknife():
    # the jackknife clones the bundled pipeline; a featurizer saved before a parameter
    # existed must still report every parameter (rare_types: 0, how it was fitted)
    from sklearn.base import clone

    model = load_genia_pos_model()
    featurizer = clone(model)[0]
    assert featurizer.get_params()["rare_types"] == 0
    assert model.get_params(deep=True)  # every step reports all of its parameters
