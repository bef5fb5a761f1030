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
    # the JNLPBA development split's examples (tests/postprocess/data, *_dev.tsv)
    assert pairs("NF-kappa B ( nuclear factor kappa B ) binds DNA") == [
        ("NF-kappa B", "nuclear factor kappa B", "short-long")]
    assert pairs("STAT3 ( signal transducer and activator of transcription 3 ) is a latent "
                 "transcription factor") == [
        ("STAT3", "signal transducer and activator of transcription 3", "short-long")]
    assert pairs("a C/EBP ( CCAAT/enhancer-binding protein ) consensus binding site") == [
        ("C/EBP", "CCAAT/enhancer-binding protein", "short-long")]
    assert pairs("As2O3 induced PML ( promyelocytic leukemia ) protein degradation") == [
        ("PML", "promyelocytic leukemia", "short-long")]


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
    # a parenthesis the sentence splitter cut off
    assert pairs("the lysosomal enzyme acid sphingomyelinase ( ASM ; E.C .") == [
        ("ASM", "acid sphingomyelinase", "long-short")]


def test_nested_parentheses():
    # the inner parenthesis is not part of the outer short form
    found = pairs("the soluble interleukin-2 receptor ( sIL-2R ( p55 ) ) was high")
    assert found == [("sIL-2R", "soluble interleukin-2 receptor", "long-short")]
    # ... unless it follows the first token
    assert pairs("the PPAR activators 15-deoxy-Delta ( 12 , 14 ) -prostaglandin J ( 2 ) "
                 "( 15d-PGJ ( 2 ) ) , Wyeth 14643")[-1] == \
        ("15d-PGJ ( 2 )", "15-deoxy-Delta ( 12 , 14 ) -prostaglandin J ( 2 )", "long-short")
    assert pairs("encoded by the Enhancer of split [ E ( spl ) ] genes") == [
        ("E ( spl )", "Enhancer of split", "long-short")]
    # a long form does not reach over an unclosed parenthesis
    assert pairs("cells ( treated with tumor necrosis factor ( TNF ) ) died") == [
        ("TNF", "tumor necrosis factor", "long-short")]
    # balanced parentheses inside a long form are kept, and counted as words no more
    assert pairs("cleavage of poly ( ADP-ribose ) polymerase ( PARP ) was seen") == [
        ("PARP", "poly ( ADP-ribose ) polymerase", "long-short")]
    assert pairs("decreasing the activity of the Jun NH ( 2 ) -terminal kinase ( JNK ) .") == [
        ("JNK", "Jun NH ( 2 ) -terminal kinase", "long-short")]
    # a long form holds whole groups: not "LT-beta ) receptor"
    assert pairs("the lymphotoxin-beta ( LT-beta ) receptor ( LT-betaR ) , also")[-1] == \
        ("LT-betaR", "lymphotoxin-beta ( LT-beta ) receptor", "long-short")


def test_first_letter_on_a_word_initial_and_unspelled_numbers():
    assert pairs("stimulated by 12-O-tetradecanoylphorbol-13-acetate ( TPA ) .") == [
        ("TPA", "12-O-tetradecanoylphorbol-13-acetate", "long-short")]
    # most initials, less the words without one: not "immune complexes or heat-..."
    assert pairs("by gp120 immune complexes or heat-inactivated HIV-1 ( iHIV-1 ) is") == [
        ("iHIV-1", "heat-inactivated HIV-1", "long-short")]
    assert pairs("inhibitor staurosporine ( Stauro ) ,")[0][1] == "staurosporine"
    assert pairs("expression of vascular cell adhesion molecule ( VCAM-1 ) resulting") == [
        ("VCAM-1", "vascular cell adhesion molecule", "long-short")]
    assert pairs("activate heat shock transcription factor ( HSF1 ) from") == [
        ("HSF1", "heat shock transcription factor", "long-short")]
    # leading symbols and what precedes a slash the short form does not start at
    assert pairs("mediated by Fas /Fas ligand ( FasL ) interaction") == [
        ("FasL", "Fas ligand", "long-short")]
    assert pairs("at the purine-box/antigen receptor response element ( ARRE ) site") == [
        ("ARRE", "antigen receptor response element", "long-short")]


def test_lower_case_and_greek_short_forms():
    assert pairs("cyclin-dependent kinase ( cdk ) 4") == [
        ("cdk", "cyclin-dependent kinase", "long-short")]
    assert pairs("the human IL-4R alpha ( hIL-4R alpha ) is critical") == [
        ("hIL-4R alpha", "human IL-4R alpha", "long-short")]


def test_long_and_short_form_in_one_parenthesis():
    assert pairs("a pro-inflammatory stimulus ( lipopolysaccharide , LPS ) .") == [
        ("LPS", "lipopolysaccharide", "long-short")]


def test_short_forms_have_at_most_twelve_characters():
    # letters that spell a long form, but too many to be an abbreviation
    assert pairs("signal transducer and activator of transcription factor three "
                 "( STATFACTORTHREE ) binds") == []
    assert pairs("the chloramphenicol acetyl transferase reporter gene construct "
                 "( CATREPORTERGENE ) was") == []
    assert pairs("the tumor necrosis factor receptor associated factor six ( TNFRAF6 ) binds") \
        == [("TNFRAF6", "tumor necrosis factor receptor associated factor six", "long-short")]


def test_not_abbreviations():
    assert pairs("cells grew ( > 100 cells ) in masses") == []
    assert pairs("as shown before ( see below ) here") == []
    assert pairs("multi-protein complexes ( RFX , X2BP and NF-Y ) .") == []
    # a long form holds no list, no measure, and is not a variant of the short form
    assert pairs("controls immune surveillance ; and ( ii ) TNF-alpha controls") == []
    assert pairs("consisting of Mr = 90 000 ( NF90 ) and Mr = 45 000 ( NF45 ) subunits") == []
    assert pairs("the osteoclastogenic cytokine TNF-alpha ( TNF ) .") == []


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
    d = doc(["human aortic endothelial cells ( HAEC ) grew"],
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


def test_a_predicted_left_modifier_stays_in_the_grown_long_form():
    # a development-split case (abstract 99249588): the long form of PBMCs starts at
    # "peripheral", the gold entity at "resting"; the tagger found "resting peripheral"
    step = AbbreviationResolver().fit([], [])
    d = doc(["resting peripheral blood mononuclear cells ( PBMCs ) were"],
            ["B-cell_type I-cell_type O O O O O O O"])
    assert step.correct(d)[0] == ("B-cell_type I-cell_type I-cell_type I-cell_type "
                                  "I-cell_type O B-cell_type O O").split()


def test_detection_on_hand_annotated_jnlpba_development_pairs():
    """Precision and recall on the 401 pairs annotated in the 200 development abstracts."""
    data = data_path("jnlpba")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        import abbreviations as bench
    finally:
        sys.path.pop(0)
    gold = bench.read_gold(bench.DEV_GOLD)
    assert sum(map(len, gold.values())) >= 150
    docs = bench.dev_documents(data)
    result, _ = bench.score(gold, bench.detect_dev(docs))
    assert result["precision"] >= 0.95
    assert result["recall"] >= 0.93
    # without the cross-sentence context: no better
    plain, _ = bench.score(gold, bench.detect_dev(docs, cross_sentence=False))
    assert plain["recall"] <= result["recall"]
    # the test pairs are there to be scored once, not tuned on
    assert sum(map(len, bench.read_gold().values())) == 105


@pytest.mark.parametrize("short,words,ok", [
    ("TCF", "T cell factor", True), ("IL2", "interleukin 2", True),
    ("Qp", "BamHI-Q promoter", True), ("XYZ", "T cell factor", False)])
def test_alias_score(short, words, ok):
    assert (alias_score(short, words.split()) is not None) == ok
