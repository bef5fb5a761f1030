"""Members' outputs: outputs of a fitted tagger, out-of-fold outputs."""

import numpy as np
import pytest

from skbioner import Sentence
from skbioner.ensemble import TaggerOutputs, cross_val_outputs, tagger_outputs
from skbioner.ensemble._outputs import _join
from skbioner.models import MajorityTagger
from skbioner.pipelines import make_tagger
from skbioner.schemes import labels_to_spans
from tests.models.toy import toy_sentences


def _docs():
    X = [Sentence("the T cell factor binds".split(), doc_id="a"),
         Sentence("TCF and the IL-2 gene".split(), doc_id="b"),
         Sentence("IL-2 binds the IL-2 gene".split(), doc_id="a"),
         Sentence("p53 binds".split(), doc_id="c")]
    y = [["O", "B-protein", "I-protein", "I-protein", "O"],
         ["B-protein", "O", "O", "B-DNA", "I-DNA"],
         ["B-protein", "O", "O", "B-DNA", "I-DNA"],
         ["B-protein", "O"]]
    return X, y


def test_tagger_outputs_of_a_chain_model():
    X, y = toy_sentences(n=30)
    model = make_tagger("online-crf", model_params={"max_iter": 3}).fit(X, y)
    out = tagger_outputs(model, X)
    assert [list(lab) for lab in out.labels] == model.predict(X)
    assert out.entities == [[(t, s, e, pytest.approx(p)) for t, s, e, p in sent]
                            for sent in model.predict_entities(X)]
    assert out.classes == tuple(model.classes_)
    for m in out.marginals:
        np.testing.assert_allclose(m.sum(axis=1), 1.0, rtol=1e-5)
    p = out.label_probabilities()
    assert all(0 <= q <= 1 for sent in p for q in sent)
    assert tagger_outputs(model, X, marginals=False).marginals is None


def test_tagger_outputs_of_a_tagger_without_probabilities():
    X, y = _docs()
    out = tagger_outputs(MajorityTagger().fit(X, y), X)
    assert out.marginals is None
    assert out.entities[3] == [("protein", 0, 1, 1.0)]
    assert [list(lab) for lab in out.labels] == MajorityTagger().fit(X, y).predict(X)
    assert out.label_probabilities()[0].tolist() == [1.0] * 5


def test_out_of_fold_outputs_never_see_their_own_block():
    X, y = _docs()
    fitted, oof, seconds = cross_val_outputs([("m", MajorityTagger())], X, y, cv=3)
    assert len(fitted) == len(oof) == len(seconds) == 1
    # "T cell factor" is only in document a: out of fold (a's block held out) it is unknown
    assert oof[0].labels[0][1:4] == ("O", "O", "O")
    assert fitted[0].predict(X[:1])[0][1:4] == ["B-protein", "I-protein", "I-protein"]
    # TCF is tagged in b only; "IL-2 gene" is DNA in b and in a: a's block learns it from b
    assert oof[0].labels[2][3:] == ("B-DNA", "I-DNA")
    assert [e[:3] for e in oof[0].entities[2]] == [
        (t, s, e) for t, s, e in labels_to_spans(oof[0].labels[2])]
    _, none, _ = cross_val_outputs([("m", MajorityTagger())], X, y, cv=None)
    assert none is None


def test_out_of_fold_outputs_in_parallel_are_the_same():
    X, y = toy_sentences(n=24)
    X = [Sentence(s, doc_id=f"d{i // 3}") for i, s in enumerate(X)]
    members = [("a", make_tagger("online-crf", model_params={"max_iter": 2})),
               ("b", MajorityTagger())]
    one = cross_val_outputs(members, X, y, cv=3, n_jobs=1)
    two = cross_val_outputs(members, X, y, cv=3, n_jobs=2)
    for a, b in zip(one[1], two[1]):
        assert a.labels == b.labels and a.entities == b.entities
    assert one[0][0].predict(X) == two[0][0].predict(X)


def test_joined_folds_align_the_classes_of_a_fold_that_missed_a_type():
    a = TaggerOutputs([("O",)], [[]], [np.array([[0.9, 0.1, 0.0]])], ("O", "B-DNA", "I-DNA"))
    b = TaggerOutputs([("O",)], [[]], [np.array([[0.5, 0.2, 0.1, 0.1, 0.1]])],
                      ("O", "B-DNA", "I-DNA", "B-RNA", "I-RNA"))
    joined = _join([([0], a), ([1], b)], 2)
    assert joined.classes == ("O", "B-DNA", "I-DNA", "B-RNA", "I-RNA")
    np.testing.assert_allclose(joined.marginals[0], [[0.9, 0.1, 0.0, 0.0, 0.0]])
    np.testing.assert_allclose(joined.marginals[1], b.marginals[0])
    assert _join([([1], b), ([0], a)], 2).classes == joined.classes
    # one part without marginals: none
    c = TaggerOutputs([("O",)], [[]])
    assert _join([([0], a), ([1], c)], 2).marginals is None
