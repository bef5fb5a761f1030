"""Abbreviation detection (the known failures of Schwartz-Hearst detectors) and resolution."""

import sys
from pathlib import Path

import pytest

from skbioner import Sentence
from skbioner.postprocess import (
    AbbreviationResolver,
    LabelledDocument,
    alias_score,
    find_abbreviations,
)
from tests.conftest import data_path


def pairs(*sentences, **options):
    return [(a.short_text, a.long_text, a.order)
            for a in find_abbreviations([s.split() for s in sentences], **options)]


def doc(sentences, labels, doc_id="d"):
    sents = tuple(Sentence(s.split(), doc_id=doc_id) for s in sentences)
    return LabelledDocument(doc_id, sents, tuple(lab.split() for lab in labels))


def test_repeated_letters_take_the_word_initials():
    # right-to-left first matches give "memoization" (both M's inside it)
    assert pairs("We call it Mindful memoization ( MM ) here .") == [
        ("MM", "Mindful memoization", "long-short")]
    assert alias_score("MM", ["memoization"]) == (1, 1)
    assert alias_score("MM", ["Mindful", "memoization"]) == (2, 2)
    assert pairs("the T cell receptor ( TCR ) complex") == [
        ("TCR", "T cell receptor", "long-short")]


def test_short_form_before_the_long_form():
    assert pairs("NF-kappa B ( nuclear factor kappa B ) binds DNA") == [
        ("NF-kappa B", "nuclear factor kappa B", "short-long")]
    # nested parentheses inside the long form stay in it
    assert pairs("expression of RANKL ( receptor activator of nuclear factor ( NF ) "
                 "-kappaB ligand ) by T cells") == [
        ("RANKL", "receptor activator of nuclear factor ( NF ) -kappaB ligand", "short-long"),
        ("NF", "nuclear factor", "long-short")]


def test_long_form_starting_in_the_previous_sentence():
    found = find_abbreviations([["Expression", "of", "nuclear", "factor", "of", "activated"],
                                ["T", "cells", "(", "NFAT", ")", "is", "high", "."]])
    assert len(found) == 1
    ab = found[0]
    assert ab.long_text == "nuclear factor of activated T cells"
    assert ab.long == ((0, 2, 6), (1, 0, 2))
    assert ab.short == (1, 3, 4)
    # not across a finished sentence
    assert pairs("It binds nuclear factor .", "Of activated T cells ( NFAT ) .") == []
    assert pairs("Expression of nuclear factor of activated",
                 "T cells ( NFAT ) is high .", cross_sentence=False) == []


def test_nested_parentheses():
    # the inner parenthesis is not part of the outer short form
    found = pairs("the soluble interleukin-2 receptor ( sIL-2R ( p55 ) ) was high")
    assert found == [("sIL-2R", "soluble interleukin-2 receptor", "long-short")]
    # a long form does not reach over an unclosed parenthesis
    assert pairs("cells ( treated with tumor necrosis factor ( TNF ) ) died") == [
        ("TNF", "tumor necrosis factor", "long-short")]
    # balanced parentheses inside a long form are kept
    assert pairs("cleavage of poly ( ADP-ribose ) polymerase ( PARP ) was seen") == [
        ("PARP", "poly ( ADP-ribose ) polymerase", "long-short")]


def test_not_abbreviations():
    assert pairs("cells grew ( > 100 cells ) in masses") == []
    assert pairs("as shown before ( see below ) here") == []
    assert pairs("in two lines ( OCI-AML-1 , OCI-AML-11 ) only") == []
    assert pairs("oligoarthritis , and osteoarthritis ( OA )") == [
        ("OA", "osteoarthritis", "long-short")]  # a long form holds no list


def test_resolver_gives_the_short_form_the_long_form_class_and_remembers_it():
    step = AbbreviationResolver(remember=True).fit([], [])
    d = doc(["the interleukin-2 receptor ( IL-2R ) binds", "IL-2R is high ; IL-2R"],
            ["O B-protein I-protein O B-DNA O O", "O O O O B-DNA"])
    out = step.correct(d)
    assert out[0] == "O B-protein I-protein O B-protein O O".split()
    assert out[1] == "B-protein O O O B-DNA".split()  # a tagged occurrence keeps its class
    out = AbbreviationResolver().fit([], []).correct(d)  # remember="relabel"
    assert out[1] == "B-protein O O O B-protein".split()
    out = AbbreviationResolver(remember=False).fit([], []).correct(d)
    assert out[1] == "O O O O B-DNA".split()


def test_resolver_adjusts_long_form_boundaries_and_leaves_whole_names_alone():
    step = AbbreviationResolver().fit([], [])
    d = doc(["human bone marrow cells ( BMC ) grew"],
            ["B-cell_type I-cell_type O O O O O O"])
    assert step.correct(d)[0] == \
        "B-cell_type I-cell_type I-cell_type I-cell_type O B-cell_type O O".split()
    # JNLPBA tags "natural killer ( NK ) cells" as one entity: not split
    d = doc(["natural killer ( NK ) cells lyse"],
            ["B-cell_type I-cell_type I-cell_type I-cell_type I-cell_type I-cell_type O"])
    assert step.correct(d) == [list(d.labels[0])]
    # an untagged long form: the short form keeps its prediction, or loses it
    d = doc(["the foo bar ( FB ) here"], ["O O O O B-protein O O"])
    out = AbbreviationResolver(unresolved="keep").fit([], []).correct(d)
    assert out[0] == "O O O O B-protein O O".split()
    out = AbbreviationResolver(unresolved="clear").fit([], []).correct(d)
    assert out[0] == ["O"] * 7
    out = AbbreviationResolver(long_from_short=True).fit([], []).correct(d)
    assert out[0] == "O B-protein I-protein O B-protein O O".split()


def test_detection_on_hand_annotated_jnlpba_pairs():
    """Precision and recall on 105 pairs annotated in 48 JNLPBA test abstracts."""
    standoff = data_path("jnlpba", "test-standoff")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        import abbreviations as bench
    finally:
        sys.path.pop(0)
    gold = bench.read_gold()
    assert sum(map(len, gold.values())) >= 100
    result, _ = bench.score(gold, bench.detect(standoff))
    assert result["precision"] >= 0.9
    assert result["recall"] >= 0.9
    # the plain variant without a cross-sentence context loses nothing here
    plain, _ = bench.score(gold, bench.detect(standoff, cross_sentence=False))
    assert plain["recall"] <= result["recall"]


@pytest.mark.parametrize("short,words,ok", [
    ("TCF", "T cell factor", True), ("IL2", "interleukin 2", True),
    ("JNK", "c-Jun N-terminal kinase", True), ("XYZ", "T cell factor", False)])
def test_alias_score(short, words, ok):
    assert (alias_score(short, words.split()) is not None) == ok
