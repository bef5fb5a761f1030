"""RecutTagger: one entity-blind cut rule in fit, predict and raw-text tagging."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.pipeline import make_pipeline

from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.models import LearnedCutTagger, MajorityTagger, OnlinePACRF, RecutTagger
from skbioner.models._recut import _project
from skbioner.tagging import Document, tag_documents
from skbioner.text import BioTokenizer, recut


@pytest.fixture(scope="module")
def train():
    return load_jnlpba_sample("train")


@pytest.fixture(scope="module")
def fitted(train):
    pipe = make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=3, random_state=0))
    return {cuts: RecutTagger(pipe, cuts=cuts).fit(train.X[:400], train.y[:400])
            for cuts in (None, "jnlpba")}


def test_labels_are_projected_onto_the_new_tokens():
    X = [["Tax", "-induced", "IL-2", "gene"]]
    y = [["B-protein", "O", "B-protein", "O"]]
    sents, owners = recut(X, None)
    assert _project(y, sents, owners) == [
        ["B-protein", "O", "O", "B-protein", "I-protein", "I-protein", "O"]]
    # joined and not cut again (the table keeps anti-CD3 whole): the entity has no whole
    # new token inside it, and is dropped rather than stretched over "anti-"
    X, y = [["anti-", "CD3", "cells"]], [["O", "B-protein", "O"]]
    sents, owners = recut(X, "jnlpba")
    assert list(sents[0]) == ["anti-CD3", "cells"]
    assert _project(y, sents, owners) == [["O", "O"]]


@pytest.mark.parametrize("cuts", [None, "jnlpba"])
def test_prediction_does_not_depend_on_the_input_cuts(fitted, train, cuts):
    model = fitted[cuts]
    joined = [["Tax-induced", "IL-2-dependent", "NF-kappaB/Rel", "activation", "in",
               "anti-CD3", "-stimulated", "T", "cells"]]
    cut = [["Tax", "-induced", "IL-2", "-dependent", "NF-kappaB", "/", "Rel", "activation",
            "in", "anti-", "CD3", "-stimulated", "T", "cells"]]

    # the words are the same, so the tagger sees the same tokens and says the same
    inner = model.tagger_.predict(model.split_tokens(joined))
    assert inner == model.tagger_.predict(model.split_tokens(cut))
    assert len(model.predict(cut)[0]) == len(cut[0])


def test_predict_is_the_tagger_on_the_new_tokens_mapped_back(fitted, train):
    model = fitted[None]
    X = train.X[400:460]
    pred = model.predict(X)
    assert [len(p) for p in pred] == [len(s) for s in X]
    ents = model.predict_entities(X)
    from skbioner.schemes import labels_to_spans

    assert [[e[:3] for e in sent] for sent in ents] == [labels_to_spans(p) for p in pred]
    marg = model.predict_marginals(X)
    assert [m.shape for m in marg] == [(len(s), len(model.classes_)) for s in X]
    assert all(np.allclose(m.sum(axis=1), 1) for m in marg)


def test_raw_text_is_tagged_on_the_new_tokens(fitted):
    model = fitted[None]
    text = "Tax-induced IL-2 expression in anti-CD3-stimulated T cells."
    docs = [Document("d", text, "<test>")]
    a = next(iter(tag_documents(model, docs)))
    # whatever the tokenizer cuts, the tagger sees the same pieces
    b = next(iter(tag_documents(model, docs, tokenizer=BioTokenizer(cuts=None,
                                                                   split_suffixes=False))))
    assert [list(s) for s in a.sentences] == [list(s) for s in b.sentences]
    assert "Tax" in [w for s in a.sentences for w in s]
    assert [(e.start, e.end) for e in a.entities] == [(e.start, e.end) for e in b.entities]
    for e in a.entities:
        assert text[e.start:e.end] == e.text


def test_methods_follow_the_tagger(train):
    model = RecutTagger(MajorityTagger()).fit(train.X[:50], train.y[:50])
    assert not hasattr(model, "predict_entities")
    assert len(model.predict(train.X[:3])) == 3


def test_cli_train_recut_then_tag_and_info(tmp_path, capsys):
    from skbioner.cli import main
    from skbioner.io import load_model

    lines = []
    for _ in range(20):
        lines += ["Tax\tB-protein", "-induced\tO", "IL-2\tB-protein", "expression\tO", ".\tO", "",
                  "anti-CD3\tO", "stimulated\tO", "T\tB-cell_type", "cells\tI-cell_type",
                  ".\tO", ""]
    train = tmp_path / "train.iob2"
    train.write_text("\n".join(lines) + "\n")
    model = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--recut", "pieces", "--param", "max_iter=3",
                 "-q", "-o", str(model)]) == 0
    loaded = load_model(model)
    assert isinstance(loaded, RecutTagger) and loaded.cuts is None
    doc = tmp_path / "d.txt"
    doc.write_text("Tax-induced IL-2 expression.")
    capsys.readouterr()
    assert main(["tag", "--model", str(model), str(doc)]) == 0
    out = capsys.readouterr().out
    assert '"text": "Tax"' in out  # an entity ending inside the word Tax-induced
    assert main(["info", str(model)]) == 0
    assert "RecutTagger, cuts=None" in capsys.readouterr().out


def test_a_model_with_its_own_cut_table_can_be_saved(train, tmp_path):
    import pickle

    from skbioner.io import load_model, save_model
    from skbioner.text import load_cut_table

    model = RecutTagger(MajorityTagger(), cuts=load_cut_table()).fit(train.X[:50], train.y[:50])
    path = tmp_path / "m.skops"
    save_model(model, path)
    for loaded in (load_model(path), pickle.loads(pickle.dumps(model))):
        assert loaded.cuts.cuts("Tax-induced") == [3]
        assert loaded.predict(train.X[:5]) == model.predict(train.X[:5])


# -- LearnedCutTagger: raw-text cuts decided by a tagger of pieces -------------------------


class _PiecesStub(MajorityTagger):
    """A 'tagger of pieces' that tags every piece ``Tax`` (and only it) as a protein."""

    def predict(self, X):
        return [["B-protein" if w == "Tax" else "O" for w in s] for s in X]


def test_cut_at_boundaries_glues_pieces_but_at_boundaries():
    from skbioner.text import cut_at_boundaries

    pieces = [["Tax", "-", "induced", "IL", "-", "2", "-", "induced", "ATF", "/", "CREB"]]
    out = cut_at_boundaries(pieces, [{1, 8, 9, 10}])
    assert list(out[0]) == ["Tax", "-induced", "IL-2-induced", "ATF", "/", "CREB"]
    # with offsets: pieces apart in the text are never glued, offsets span the pieces
    off = [np.array([[0, 3], [4, 5], [6, 13]])]  # "Tax - induced"
    sents, new = cut_at_boundaries([["Tax", "-", "induced"]], [set()], off)
    assert list(sents[0]) == ["Tax", "-", "induced"] and new[0].tolist() == off[0].tolist()
    off = [np.array([[0, 3], [3, 4], [4, 11]])]  # "Tax-induced"
    sents, new = cut_at_boundaries([["Tax", "-", "induced"]], [set()], off)
    assert list(sents[0]) == ["Tax-induced"] and new[0].tolist() == [[0, 11]]


def test_cut_at_boundaries_cuts_a_batch_as_each_sentence_alone():
    from skbioner.text import cut_at_boundaries

    pieces = [[], ["Tax", "-", "induced"], [], ["IL", "-", "2", "-", "induced", "ATF", "/",
                                                 "CREB"], ["-"], ["a", "/", "b"]]
    bounds = [set(), {1}, set(), {3, 5}, {0, 1}, set()]
    off = [np.zeros((0, 2), dtype=np.int64), np.array([[0, 3], [3, 4], [4, 11]]),
           np.zeros((0, 2), dtype=np.int64),
           np.array([[0, 2], [2, 3], [3, 4], [4, 5], [5, 12], [13, 16], [16, 17], [17, 21]]),
           np.array([[0, 1]]), np.array([[0, 1], [2, 3], [4, 5]])]  # "a / b": apart
    batch = cut_at_boundaries(pieces, bounds, off)
    for k in range(len(pieces)):
        alone = cut_at_boundaries([pieces[k]], [bounds[k]], [off[k]])
        assert list(batch[0][k]) == list(alone[0][0])
        assert batch[1][k].tolist() == alone[1][0].tolist()
    assert [list(s) for s in batch[0]] == [[], ["Tax", "-induced"], [], ["IL-2", "-induced",
                                           "ATF/CREB"], ["-"], ["a", "/", "b"]]
    assert batch[1][3].tolist() == [[0, 4], [4, 12], [13, 21]]
    assert [list(s) for s in cut_at_boundaries([[], []], [set(), set()])] == [[], []]


def test_learned_cuts_leave_the_token_path_to_the_tagger(train):
    pipe = make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=3, random_state=0))
    model = LearnedCutTagger(pipe).fit(train.X[:300], train.y[:300])
    alone = clone(pipe).fit(train.X[:300], train.y[:300])
    X = train.X[300:340]
    assert model.predict(X) == alone.predict(X)
    assert list(model.classes_) == list(alone.classes_)
    ents, ref = model.predict_entities(X), alone[-1].predict_entities(alone[0].transform(X))
    assert [[e[:3] for e in s] for s in ents] == [[e[:3] for e in s] for s in ref]
    assert np.allclose(np.concatenate(model.predict_marginals(X)),
                       np.concatenate(alone[-1].predict_marginals(alone[0].transform(X))))
    # the tagger of pieces is the wrapper of RecutTagger(cuts=None)'s: fitted on pieces
    recut_model = RecutTagger(pipe, cuts=None).fit(train.X[:300], train.y[:300])
    pieces = recut(X, None)[0]
    assert model.cut_tagger_.predict(pieces) == recut_model.tagger_.predict(pieces)


def test_raw_text_is_cut_where_the_piece_tagger_puts_a_boundary(train):
    model = LearnedCutTagger(MajorityTagger(), cut_tagger=_PiecesStub()).fit(
        train.X[:50], train.y[:50])
    text = "Tax-induced IL-2-induced expression of ATF/CREB (Tax - induced)."
    docs = [Document("d", text, "<test>")]
    for tokenizer in (BioTokenizer(), BioTokenizer(cuts=None, split_suffixes=False)):
        res = next(iter(tag_documents(model, docs, tokenizer=tokenizer)))
        words = [w for s in res.sentences for w in s]
        assert words == ["Tax", "-induced", "IL-2-induced", "expression", "of", "ATF/CREB",
                         "(", "Tax", "-", "induced", ")", "."]
        assert all(text[a:b] == w for w, (a, b) in
                   zip(words, np.concatenate(res.offsets).tolist(), strict=True))


def test_raw_text_tokens_split_off_by_the_tokenizer_stay_apart(train):
    # a bracket the tokenizer split off is never glued to the hyphen after it: no corpus
    # token is ")-induced", and a model of the corpus's tokens does not know one
    model = LearnedCutTagger(MajorityTagger(), cut_tagger=_PiecesStub()).fit(
        train.X[:50], train.y[:50])
    text = "Interleukin (IL)-2-induced and (Tax)-induced genes; Tax-induced anti-CD3/CD28."
    for tokenizer in (BioTokenizer(), BioTokenizer(cuts=None, split_suffixes=False)):
        res = next(iter(tag_documents(model, [Document("d", text, "<test>")],
                                      tokenizer=tokenizer)))
        words = [w for s in res.sentences for w in s]
        assert words == ["Interleukin", "(", "IL", ")", "-2-induced", "and", "(", "Tax", ")",
                         "-induced", "genes", ";", "Tax", "-induced", "anti-CD3/CD28", "."]


def test_learned_cut_tagger_is_saved_and_described(train, tmp_path):
    from skbioner.io import load_model, save_model
    from skbioner.pipelines import describe_model

    pipe = make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=2, random_state=0))
    model = LearnedCutTagger(pipe).fit(train.X[:100], train.y[:100])
    path = tmp_path / "m.skops"
    save_model(model, path)
    loaded = load_model(path)
    assert loaded.predict(train.X[:20]) == model.predict(train.X[:20])
    assert loaded.split_tokens(train.X[:20]) == model.split_tokens(train.X[:20])
    assert describe_model(loaded)["raw_cuts"] == "learned"


def test_cli_train_learned_cuts_then_tag_and_info(tmp_path, capsys):
    from skbioner.cli import main
    from skbioner.io import load_model
    from skbioner.pipelines import make_tagger

    assert isinstance(make_tagger("online-crf", recut="learned"), LearnedCutTagger)
    lines = []
    for _ in range(20):
        lines += ["Tax\tB-protein", "-induced\tO", "IL-2\tB-protein", "expression\tO", ".\tO", "",
                  "IL-2-induced\tO", "genes\tO", "in\tO", "T\tB-cell_type", "cells\tI-cell_type",
                  ".\tO", ""]
    train = tmp_path / "train.iob2"
    train.write_text("\n".join(lines) + "\n")
    model = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--recut", "learned", "--param", "max_iter=3",
                 "-q", "-o", str(model)]) == 0
    loaded = load_model(model)
    assert isinstance(loaded, LearnedCutTagger)
    # the token path is the tagger's: the corpus's own cut still reads as a boundary
    assert loaded.predict([["Tax", "-induced", "IL-2", "expression", "."]]) == [
        ["B-protein", "O", "B-protein", "O", "O"]]
    doc = tmp_path / "d.txt"
    doc.write_text("Tax-induced IL-2-induced expression.")
    capsys.readouterr()
    assert main(["tag", "--model", str(model), str(doc)]) == 0
    out = capsys.readouterr().out
    assert '"text": "Tax"' in out  # cut inside the word Tax-induced, where Tax ends
    assert '"text": "IL-2"' not in out  # IL-2-induced kept whole, as the corpus keeps it
    assert main(["info", str(model)]) == 0
    assert "LearnedCutTagger" in capsys.readouterr().out
