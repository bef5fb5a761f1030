"""RuleChunker: NP/VP/PP chunks from the POS column, and the ``chunk`` feature kind."""

from __future__ import annotations

import pytest

from skbioner import Sentence
from skbioner.annotate import RuleChunker
from skbioner.features import FeatureGroup, TokenFeaturizer


def _chunks(words_tags):
    words, tags = zip(*(wt.rsplit("/", 1) for wt in words_tags.split()), strict=True)
    return RuleChunker().fit_transform([Sentence(words, pos=tags)])[0].column("chunk")


@pytest.mark.parametrize("text, expected", [
    # a determiner after a noun starts a new NP; a word after a possessive too
    ("cells/NNS the/DT receptor/NN 's/POS ligand/NN", "B-NP B-NP I-NP I-NP B-NP"),
    # an adjective run without a noun is no NP; "to" before a verb joins the VP
    ("is/VBZ important/JJ to/TO bind/VB it/PRP", "B-VP O B-VP I-VP B-NP"),
    # "to" without a verb is a preposition; a participle after a noun is a verb
    ("cells/NNS stimulated/VBN to/TO confluence/NN", "B-NP B-VP B-PP B-NP"),
    # an adverb between verbs stays in the VP, one before a noun does not
    ("has/VBZ recently/RB been/VBN shown/VBN ,/, only/RB IL-2/NN", "B-VP I-VP I-VP I-VP O O B-NP"),
    # two prepositions are two PPs; a participle before a noun after a preposition modifies it
    ("out/IN of/IN activated/VBN T/NN cells/NNS and/CC B/NN", "B-PP B-PP B-NP I-NP I-NP O B-NP"),
])
def test_rules(text, expected):
    assert _chunks(text) == tuple(expected.split())


def test_sentences_are_chunked_apart_in_one_call():
    # vectorised over all tokens: a chunk never runs across a sentence boundary
    s1 = Sentence(["IL-2", "binds"], pos=["NN", "VBZ"])
    s2 = Sentence(["activates", "cells"], pos=["VBZ", "NNS"])
    s3 = Sentence(["NF-kappa", "B"], pos=["NN", "NN"])
    s4 = Sentence(["activated", "cells"], pos=["VBN", "NNS"])  # no verb before it: a modifier
    out = RuleChunker().fit_transform([s1, s4, Sentence([], pos=[]), s2, s3])
    assert [o.column("chunk") for o in out] == [
        ("B-NP", "B-VP"), ("B-NP", "I-NP"), (), ("B-VP", "B-NP"), ("B-NP", "I-NP")]
    assert [RuleChunker().fit_transform([s])[0].column("chunk") for s in (s1, s4, s2, s3)] == [
        out[i].column("chunk") for i in (0, 1, 3, 4)]
    assert out[0].column("pos") == ("NN", "VBZ")  # other columns travel along


def test_needs_the_pos_column():
    with pytest.raises(ValueError, match="X\\[0\\] has no 'pos' annotation"):
        RuleChunker().fit_transform([["IL-2", "binds"]])
    out = RuleChunker(pos_column="tag", column="np").fit_transform(
        [Sentence(["the", "gene"], tag=["DT", "NN"])])
    assert out[0].column("np") == ("B-NP", "I-NP")


def test_chunk_kind_reads_the_column():
    X = RuleChunker().fit_transform([Sentence(["the", "gene", "binds"], pos=["DT", "NN", "VBZ"])])
    f = TokenFeaturizer(templates=[FeatureGroup("c", "chunk", (-1, 0))]).fit(X)
    assert set(f.get_feature_names_out()) == {
        "chunk[-1]=<BOS>", "chunk[-1]=B-NP", "chunk[-1]=I-NP",
        "chunk[0]=B-NP", "chunk[0]=I-NP", "chunk[0]=B-VP"}
    nerbio = TokenFeaturizer(templates="nerbio").fit(X)
    assert "chunk[2]=B-VP" in set(nerbio.get_feature_names_out())  # the preset reads it
