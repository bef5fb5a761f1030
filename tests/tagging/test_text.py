"""One-line tagging from Python: skbioner.tag_text on strings and streams of strings."""

import itertools

import numpy as np
import pytest

import skbioner
from skbioner.datasets import load_jnlpba_sample
from skbioner.models import MajorityTagger
from skbioner.tagging import TaggedEntity, gives_confidences
from skbioner.text import BioTokenizer

TEXT = ("Activation of NF-kappa B by interleukin-2 requires the IL-2 receptor beta chain "
        "in human T lymphocytes.")


def test_one_string_gives_entities_with_offsets_text_and_confidence():
    ents = skbioner.tag_text(TEXT)
    assert [(e.type, e.text) for e in ents] == [
        ("protein", "NF-kappa B"), ("protein", "interleukin-2"),
        ("protein", "IL-2 receptor beta chain"), ("cell_type", "human T lymphocytes")]
    assert all(isinstance(e, TaggedEntity) and TEXT[e.start:e.end] == e.text for e in ents)
    assert all(0.5 < e.confidence <= 1.0 for e in ents)
    assert [e.id for e in ents] == ["T1", "T2", "T3", "T4"]


def test_confidences_are_the_models_entity_probabilities():
    model = skbioner.load_model()
    # the bundled model cuts the raw text's words itself, then its tagger tags them
    sents, _ = model.split_tokens(*BioTokenizer().tokenize_text(TEXT))
    tagger = model.tagger_
    expected = [p for sent in tagger[-1].predict_entities(tagger[:-1].transform(sents))
                for *_, p in sent]
    got = [e.confidence for e in skbioner.tag_text(TEXT, model)]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert [e.confidence for e in skbioner.tag_text(TEXT, confidence=False)] == [None] * 4


def test_a_stream_is_tagged_lazily_in_order():
    consumed = []

    def texts():
        for i in itertools.count():
            consumed.append(i)
            yield TEXT if i % 2 == 0 else "No entity here."

    results = skbioner.tag_text(texts(), batch_size=3)
    first = [next(results) for _ in range(4)]
    assert [len(r) for r in first] == [4, 0, 4, 0]
    assert len(consumed) <= 6  # two batches read, not the endless stream
    many = list(skbioner.tag_text([TEXT, "", "   ", TEXT]))
    assert [len(r) for r in many] == [4, 0, 0, 4] and many[0] == many[3]


def test_min_confidence_keeps_the_likelier_entities():
    all_ = skbioner.tag_text(TEXT)
    threshold = sorted(e.confidence for e in all_)[1]
    kept = skbioner.tag_text(TEXT, min_confidence=threshold)
    assert [e.text for e in kept] == [e.text for e in all_ if e.confidence >= threshold]
    assert len(kept) == len(all_) - 1
    with pytest.raises(ValueError, match="min_confidence must be a probability"):
        skbioner.tag_text(TEXT, min_confidence=1.5)


def test_a_model_without_confidences_says_so():
    train = load_jnlpba_sample("train")
    majority = MajorityTagger().fit(train.X, train.y)
    assert not gives_confidences(majority) and gives_confidences(skbioner.load_model())
    ents = skbioner.tag_text(TEXT, majority)
    assert ents and all(e.confidence is None for e in ents)
    with pytest.raises(ValueError, match="MajorityTagger does not give"):
        skbioner.tag_text(TEXT, majority, min_confidence=0.5)


def test_bad_items_are_named():
    with pytest.raises(TypeError, match="text 1 is a int"):
        list(skbioner.tag_text(["IL-2", 3]))
    with pytest.raises(TypeError, match="string or an iterable"):
        skbioner.tag_text(42)
    with pytest.raises(ValueError, match="text 0: a 2,000-character token"):
        skbioner.tag_text("x" * 2000)


def test_a_cascade_gives_confidences_too():
    from skbioner.pipelines import make_tagger
    from tests.models.toy import toy_sentences

    X, y = toy_sentences(40)
    cascade = make_tagger("cascaded", model_params={"n_folds": 2, "n_jobs": 1},
                            feature_params={"min_count": 1}).fit(X, y)
    text = "The IL-2 gene in T cells ."
    ents = skbioner.tag_text(text, cascade)
    assert [(e.type, e.text) for e in ents] == [("DNA", "IL-2 gene"), ("cell_type", "T cells")]
    assert all(0 < e.confidence <= 1 for e in ents)
    sents, _ = BioTokenizer().tokenize_text(text)
    assert [(t, s, e) for t, s, e, _ in cascade[-1].predict_entities(
        cascade[:-1].transform(sents))[0]] == [("DNA", 1, 3), ("cell_type", 4, 6)]
