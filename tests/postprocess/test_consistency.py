"""LabelConsistency: what it propagates, and what it must leave alone."""

import numpy as np

from skbioner import Sentence
from skbioner.postprocess import LabelConsistency, LabelledDocument


def doc(sentences, labels, marginals=None, classes=None, doc_id="d"):
    sents = tuple(Sentence(s.split(), doc_id=doc_id) for s in sentences)
    return LabelledDocument(doc_id, sents, tuple(lab.split() for lab in labels), marginals, classes)


TRAIN_X = [Sentence("NF-kappa B binds the gene".split()), Sentence("the gene is on".split())]
TRAIN_Y = [["B-protein", "I-protein", "O", "O", "O"], ["O", "B-DNA", "O", "O"]]


def test_missed_occurrence_is_tagged_with_the_majority_type():
    step = LabelConsistency().fit(TRAIN_X, TRAIN_Y)
    d = doc(["NF-kappa B activates IL-2", "then NF-kappa B binds", "IL-2 and NF-kappa B"],
            ["B-protein I-protein O B-protein", "O O O O", "O O B-DNA I-DNA"])
    out = step.correct(d)
    assert out[1] == ["O", "B-protein", "I-protein", "O"]
    assert out[2] == ["B-protein", "O", "B-DNA", "I-DNA"]  # tagged occurrence kept as is
    assert out[0] == d.labels[0]


def test_ambiguous_training_strings_are_not_propagated():
    # "gene" is an entity in 1 of its 2 training occurrences: ratio 0.5
    d = doc(["the gene here", "a gene there"], ["O B-DNA O", "O O O"])
    assert LabelConsistency(min_ratio=0.6).fit(TRAIN_X, TRAIN_Y).correct(d)[1] == "O O O".split()
    assert LabelConsistency(min_ratio=0.5).fit(TRAIN_X, TRAIN_Y).correct(d)[1] == \
        "O B-DNA O".split()


def test_short_strings_overlaps_and_case():
    step = LabelConsistency(min_chars=3).fit(TRAIN_X, TRAIN_Y)
    d = doc(["B7 and T cells", "B7 binds T cells"], ["B-protein O O O", "O O O O"])
    assert step.correct(d)[1] == ["O"] * 4  # "B7" is too short
    d = doc(["IL-2 gene", "IL-2 gene"], ["B-protein O", "B-DNA I-DNA"])
    assert LabelConsistency().fit(TRAIN_X, TRAIN_Y).correct(d)[1] == ["B-DNA", "I-DNA"]
    d = doc(["Stat5 works", "STAT5 works"], ["B-protein O", "O O"])
    assert LabelConsistency().fit(TRAIN_X, TRAIN_Y).correct(d)[1] == ["O", "O"]
    assert LabelConsistency(lowercase=True).fit(TRAIN_X, TRAIN_Y).correct(d)[1] == \
        ["B-protein", "O"]


def test_confident_outside_tokens_are_left_alone():
    classes = ("O", "B-protein", "I-protein")
    sure_o = np.array([[0.999, 0.001, 0.0], [0.99, 0.01, 0.0]])
    unsure = np.array([[0.6, 0.4, 0.0], [0.99, 0.01, 0.0]])
    first = np.array([[0.1, 0.9, 0.0], [0.99, 0.01, 0.0]])
    step = LabelConsistency(max_outside_prob=0.9).fit(TRAIN_X, TRAIN_Y)
    for marg, want in ((sure_o, ["O", "O"]), (unsure, ["B-protein", "O"])):
        d = doc(["Stat5 works", "Stat5 works"], ["B-protein O", "O O"], (first, marg), classes)
        assert step.correct(d)[1] == want
    assert step.uses_marginals and not LabelConsistency().uses_marginals
