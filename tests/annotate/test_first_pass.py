"""First-pass columns (two passes: a one-member StackedTagger) and
PostProcessedTagger.predict_entities."""

import json

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.pipeline import Pipeline

from skbioner import Sentence
from skbioner.annotate import first_pass_columns
from skbioner.datasets import load_jnlpba_sample
from skbioner.ensemble import StackedTagger
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_f1_score
from skbioner.models import MajorityTagger, OnlinePACRF
from skbioner.pipelines import add_knowledge, make_tagger
from skbioner.postprocess import (
    STEP_CONFIDENCE,
    AbbreviationResolver,
    PostProcessedTagger,
    apply_steps,
)
from skbioner.schemes import labels_to_spans


def _doc():
    X = [Sentence("the T cell factor ( TCF ) binds".split(), doc_id="a"),
         Sentence("TCF and the IL-2 gene".split(), doc_id="a"),
         Sentence("IL-2 binds the IL-2 gene".split(), doc_id="b")]
    y = [["O", "B-protein", "I-protein", "I-protein", "O", "O", "O", "O"],
         ["O", "O", "O", "B-DNA", "I-DNA"],
         ["B-protein", "O", "O", "B-DNA", "I-DNA"]]
    return X, y


def _columns(X, y, Xc, steps=(), **options):
    """``Xc`` with the columns of a memorising first pass fitted on ``X``."""
    labels = MajorityTagger().fit(X, y).predict(Xc)
    cols = first_pass_columns(Xc, labels, None, steps, **options)
    return [s.with_annotations(**c) for s, c in zip(Xc, cols)]


def test_columns_of_a_document():
    X, y = _doc()
    a, b, c = _columns(X, y, X, doc_dictionary=True)
    # no probabilities: no confidence column
    assert set(a.annotations) == {"fp_label", "fp_memory", "fp_docdict", "fp_abbr"}
    # the memorising tagger tags "T cell factor" as a protein, not TCF (never seen tagged)
    assert a.column("fp_label")[1:4] == ("B-protein", "I-protein", "I-protein")
    assert a.column("fp_abbr") == ("-", "L-protein", "L-protein", "L-protein", "-",
                                   "S-protein", "-", "-")
    # the short form's later occurrence in the same document is remembered
    assert b.column("fp_abbr")[0] == "S-protein"
    assert c.column("fp_abbr") == ("-",) * 5  # another document
    # memory: the class of the word's other occurrences in the document; "-" if none
    assert a.column("fp_memory")[0] == "O" and a.column("fp_memory")[1] == "-"
    assert c.column("fp_memory")[0] == c.column("fp_label")[3][2:]  # IL-2's other occurrence
    # the document's entities as a dictionary, matched longest first, in every sentence
    assert a.column("fp_docdict")[1:4] == ("B-protein", "I-protein", "I-protein")
    first, second = _columns(X, y, [Sentence("T cell factor".split(), doc_id="z"),
                                    Sentence("the t cell factor was".split(), doc_id="z")],
                             doc_dictionary=True)
    assert second.column("fp_label")[1] == "O"  # the memorising tagger: case matters
    assert second.column("fp_docdict") == ("O", "B-protein", "I-protein", "I-protein", "O")
    (alone,) = _columns(X, y, [Sentence("the t cell factor was".split(), doc_id="y")],
                        doc_dictionary=True)
    assert alone.column("fp_docdict")[1] == "O"  # another document: no "t cell factor"


def test_step_columns_hold_the_changes_the_steps_propose():
    X, y = _doc()
    a, b, _ = _columns(X, y, X, [("abbreviations", AbbreviationResolver().fit(X, y))],
                       memory=False, abbreviations=False)
    assert set(a.annotations) == {"fp_label", "fp_abbreviations"}
    assert a.column("fp_abbreviations")[5] == "B-protein"  # TCF gets its long form's class
    assert a.column("fp_abbreviations")[:5] == ("-",) * 5  # the long form was right already


def test_confidence_bins():
    X, y = _doc()
    first = make_tagger("online-crf", model_params={"max_iter": 2, "calibrate": False})
    labels = first.fit(X, y).predict(X)
    where = {c: k for k, c in enumerate(first[-1].classes_)}
    probs = [m[np.arange(len(lab)), [where[t] for t in lab]]
             for lab, m in zip(labels, first.predict_marginals(X))]
    for cols, lab in zip(first_pass_columns(X, labels, probs, confidence_bins=(1.0, 0.0)),
                         labels):  # every probability is >= 0: bin 1 (or bin 0 when exactly 1)
        assert all(v.split("/")[0] == t and v.split("/")[1] in "01"
                   for v, t in zip(cols["fp_conf"], lab))
    with pytest.raises(ValueError, match="decreasing"):
        StackedTagger([("first", first)], confidence_bins=(0.5, 0.9)).fit(X, y)


def test_two_pass_learns_from_the_first_pass():
    """The second pass beats a featureless tagger that only reads the first pass: the
    columns carry the first pass's knowledge (and the stack predicts end to end)."""
    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    X, y = train.X[:600], train.y[:600]
    first = make_tagger("online-crf", model_params={"max_iter": 3})
    second = Pipeline([("features", TokenFeaturizer(templates=[])),  # first-pass columns only
                       ("model", OnlinePACRF(max_iter=3, random_state=0))])
    two = StackedTagger([("first", first)], final_estimator=second, cv=3).fit(X, y)
    one = first.fit(X, y)
    f_one = entity_f1_score(test.y, one.predict(test.X))
    f_two = entity_f1_score(test.y, two.predict(test.X))
    assert f_two > 0.8 * f_one  # the columns alone nearly reproduce the first pass


def test_make_tagger_two_pass_builds_a_one_member_stack():
    stack = make_tagger("online-crf", model_params={"max_iter": 2}, two_pass=True,
                        first_pass=make_tagger("online-crf", model_params={"max_iter": 4}))
    assert isinstance(stack, StackedTagger) and stack.cv == 5
    [(name, first)] = stack.estimators
    assert name == "first_pass" and first[-1].max_iter == 4
    assert stack.final_estimator[-1].max_iter == 2
    default_first = make_tagger("online-crf", model_params={"max_iter": 2}, two_pass=True)
    assert default_first.estimators[0][1][-1].max_iter == 2
    with pytest.raises(ValueError, match="first_pass is the first pass of two_pass"):
        make_tagger("online-crf", first_pass="cascaded")


def test_post_processed_entities_keep_the_taggers_probabilities():
    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    base = make_tagger("online-crf", model_params={"max_iter": 3})
    pp = add_knowledge(base, abbreviations=True, alias=True).fit(train.X[:400], train.y[:400])
    ents = pp.predict_entities(test.X[:300])
    pred = pp.predict(test.X[:300])
    assert [[e[:3] for e in s] for s in ents] == [list(labels_to_spans(p)) for p in pred]
    tagger = pp.tagger_[:-1].transform(test.X[:300])
    raw = pp.tagger_[-1].predict_entities(tagger)
    n_kept = n_made = 0
    for found, mine in zip(raw, ents):
        kept = {e[:3]: e[3] for e in found}
        for t, a, b, p in mine:
            if (t, a, b) in kept:
                assert p == kept[(t, a, b)]
                n_kept += 1
            else:
                assert p == STEP_CONFIDENCE
                n_made += 1
    assert n_kept > 100 and n_made > 0  # the steps changed something here


def test_predict_entities_only_when_the_tagger_has_it():
    pp = PostProcessedTagger(MajorityTagger(), [("abbr", AbbreviationResolver())])
    assert not hasattr(pp, "predict_entities")
    assert hasattr(add_knowledge(make_tagger("online-crf"), alias=True), "predict_entities")


def test_tagging_gives_confidences_of_a_post_processed_model():
    """What ``skbioner tag`` writes: a number, not null, for every entity."""
    from skbioner.tagging import Document as RawDocument
    from skbioner.tagging import tag_documents

    train = load_jnlpba_sample("train")
    pp = add_knowledge(make_tagger("online-crf", model_params={"max_iter": 2}),
                       abbreviations=True).fit(train.X[:200], train.y[:200])
    text = "The interleukin 2 receptor (IL-2R) binds IL-2R in human T cells."
    (doc,) = tag_documents(pp, [RawDocument("d", text, "test")])
    assert doc.entities
    confidences = [e.confidence for e in doc.entities]
    assert all(isinstance(c, float) and 0 <= c <= 1 for c in confidences)
    assert json.loads(json.dumps(confidences)) == confidences


# -- AbbreviationResolver(strip_parentheses=True) ----------------------------------------


class _ParenShy(BaseEstimator):
    """Tags "T cell factor" as a protein, except right before a parenthesis."""

    def fit(self, X, y):
        self.fitted_ = True
        return self

    def predict(self, X):
        out = []
        for s in X:
            lab = ["O"] * len(s)
            for k in range(len(s) - 2):
                if tuple(s[k:k + 3]) == ("T", "cell", "factor") and s[k + 3:k + 4] != ("(",):
                    lab[k:k + 3] = ["B-protein", "I-protein", "I-protein"]
            out.append(lab)
        return out


def test_strip_parentheses_tags_the_sentence_without_the_short_form():
    X = [Sentence("the T cell factor ( TCF ) binds DNA".split(), doc_id="a"),
         Sentence("TCF binds".split(), doc_id="a")]
    y = [["O"] * 9, ["O"] * 2]
    plain = PostProcessedTagger(_ParenShy(), [("abbr", AbbreviationResolver())]).fit(X, y)
    assert plain.predict(X) == y  # the tagger misses the long form: nothing to resolve
    strip = PostProcessedTagger(
        _ParenShy(), [("abbr", AbbreviationResolver(strip_parentheses=True))]).fit(X, y)
    out = strip.predict(X)
    assert out[0] == ["O", "B-protein", "I-protein", "I-protein", "O", "B-protein", "O", "O",
                      "O"]
    assert out[1] == ["B-protein", "O"]  # remembered for the rest of the document
    # as a plain step (no tagger to ask) it works as without the option
    step = AbbreviationResolver(strip_parentheses=True).fit(X, y)
    assert apply_steps([step], X, y) == y


def test_two_pass_hmm_svm_uses_the_second_pass_weights():
    pipe = make_tagger("hmm-svm", two_pass=True).final_estimator
    assert (pipe[-1].prior_weight, pipe[-1].transition_weight) == (0.4, 0.5)
    first = make_tagger("hmm-svm", two_pass=True).estimators[0][1][-1]
    assert (first.prior_weight, first.transition_weight) == (0.6, 1.0)  # the one-pass preset
    given = make_tagger("hmm-svm", two_pass=True,
                        model_params={"prior_weight": 1.0}).final_estimator
    assert (given[-1].prior_weight, given[-1].transition_weight) == (1.0, 0.5)
