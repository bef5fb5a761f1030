"""BioTokenizer: JNLPBA/GENIA tokenization and sentence splitting with offsets."""

import pickle
import random
import time
from collections import Counter

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import (
    check_get_params_invariance,
    check_no_attributes_set_in_init,
    check_parameters_default_constructible,
    check_set_params,
)

from skbioner import Sentence
from skbioner.text import (
    BioTokenizer,
    CutTable,
    TokenizedSentence,
    align_tokens,
    load_cut_table,
    split_sentences,
    tokenize,
    tokenize_text,
)
from tests.conftest import data_path


def toks(text, **kw):
    return [text[s:e] for s, e in tokenize(text, **kw)]


def sents(text):
    return [text[s:e] for s, e in split_sentences(text)]


# -- token rules (one case per rule of the issue) ----------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # hyphens and slashes stay inside words
        (
            "NF-kappa B and IL-2/IL-4 bind TCR/CD3",
            ["NF-kappa", "B", "and", "IL-2/IL-4", "bind", "TCR/CD3"],
        ),
        ("anti-CD3 mAb-treated cells", ["anti-CD3", "mAb-treated", "cells"]),
        # brackets, commas, semicolons, colons, quotes, % split off
        (
            "(IL-2), [3H]TdR; ratio 5:1",
            ["(", "IL-2", ")", ",", "[", "3H", "]", "TdR", ";", "ratio", "5", ":", "1"],
        ),
        ('the "Footprint" assay', ["the", '"', "Footprint", '"', "assay"]),
        ("50% of {x}", ["50", "%", "of", "{", "x", "}"]),
        ("p<0.05 & n=3 > 2", ["p", "<", "0.05", "&", "n", "=", "3", ">", "2"]),
        ("Why? Yes!", ["Why", "?", "Yes", "!"]),
        # plus, asterisk, apostrophe inside a word stay
        (
            "CD4+ Ca2+ +/- DRB1*0401 5'-flanking",
            ["CD4+", "Ca2+", "+/-", "DRB1*0401", "5'-flanking"],
        ),
        # e.g., i.e., et al., vs. keep their period
        (
            "as e.g. IL-2, i.e. a cytokine (Smith et al. 1990) vs. IL-4 in",
            [
                "as",
                "e.g.",
                "IL-2",
                ",",
                "i.e.",
                "a",
                "cytokine",
                "(",
                "Smith",
                "et",
                "al.",
                "1990",
                ")",
                "vs.",
                "IL-4",
                "in",
            ],
        ),
        # initials and species abbreviations keep their period
        (
            "from M. tuberculosis (Li, B. L., 1999)",
            ["from", "M.", "tuberculosis", "(", "Li", ",", "B.", "L.", ",", "1999", ")"],
        ),
        # decimal numbers whole
        ("2.5-fold and 0.05 and 1.2.3", ["2.5-fold", "and", "0.05", "and", "1.2.3"]),
        # sentence-final period split, also before closing brackets and quotes
        ("It binds DNA.", ["It", "binds", "DNA", "."]),
        ("(It binds DNA.)", ["(", "It", "binds", "DNA", ".", ")"]),
        ("It binds DNA...", ["It", "binds", "DNA", "..."]),
        # PTB: contractions, cannot, closing single quote, double hyphen
        ("Hodgkin's cells cannot don't", ["Hodgkin", "'s", "cells", "can", "not", "do", "n't"]),
        ("5'-CAGCTG-3' and patients' cells", ["5'-CAGCTG-3", "'", "and", "patients", "'", "cells"]),
        ("the 'Th1 polarity' of", ["the", "'Th1", "polarity", "'", "of"]),
        ("a--b and c -- d", ["a", "--", "b", "and", "c", "--", "d"]),
        # a final period is split before the word's own rules apply
        ("in Hodgkin's.", ["in", "Hodgkin", "'s", "."]),
    ],
)
def test_token_rules(text, expected):
    assert toks(text) == expected


def test_only_the_final_period_is_split():
    # PTB: the tokenizer assumes one sentence; inner periods stay in their word
    assert toks("cells. more cells.", split_sentences=False) == ["cells.", "more", "cells", "."]
    text = "It binds DNA. It acts."
    assert toks(text) == ["It", "binds", "DNA", ".", "It", "acts", "."]


@pytest.mark.parametrize("cuts", ["jnlpba", None])
def test_entity_suffixes(cuts):
    # the learned table (default) and the hand-written rule (cuts=None) agree here
    text = "IL-2-induced TNF-alpha-dependent Tax-mediated cells"
    assert toks(text, cuts=cuts) == ["IL-2", "-induced", "TNF-alpha", "-dependent", "Tax",
                                     "-mediated", "cells"]  # fmt: skip
    # lower-case or chemical-looking names, other suffixes: whole
    text = "dose-dependent LPS-induced cell-mediated IL-2-specific"
    assert toks(text, cuts=cuts) == text.split()
    assert toks("IL-2-induced.", cuts=cuts) == ["IL-2", "-induced", "."]
    text = "IL-2-induced Tax-mediated ATF/CREB"
    assert toks(text, split_suffixes=False, cuts=None) == text.split()


def test_learned_cuts():
    table = load_cut_table()
    # what the JNLPBA training data cuts: a hyphen before a participle after a name
    # the corpus annotates, not inside names or after common words
    text = "Tax-induced NF-kappaB-dependent serum-free T-cell IL-2/IL-4 dose-dependent"
    assert toks(text) == ["Tax", "-induced", "NF-kappaB", "-dependent", "serum-free",
                          "T-cell", "IL-2/IL-4", "dose-dependent"]  # fmt: skip
    assert table.cuts("Tax-induced") == [3]
    assert table.cuts("dose-dependent") == []
    # a word that no key of the table describes is not cut; long words never
    assert CutTable({}, 1, 0.5).cuts("Tax-induced") == []
    assert table.cuts("Tax-induced" * 20) == []
    # a table of one's own: cut every slash
    mine = CutTable({"/<|#C|#C": (9, 10), ">/|#C|#C": (9, 10)}, 5, 0.5)
    assert toks("ATF/CREB", cuts=mine) == ["ATF", "/", "CREB"]
    with pytest.raises(ValueError, match="cuts"):
        BioTokenizer(cuts="genia").tokenize_text(text)


@pytest.mark.slow
def test_cut_table_script_reproduces_the_shipped_table(tmp_path):
    import gzip
    import runpy
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "make_jnlpba_cuts.py"
    out = tmp_path / "cuts.json.gz"
    jnlpba_dir = data_path("jnlpba", "train.iob2").parent
    argv = sys.argv
    sys.argv = [str(script), "--data", str(jnlpba_dir), "--out", str(out)]
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = argv
    shipped = Path(__file__).resolve().parents[2] / "skbioner" / "text" / "data"
    with gzip.open(out) as a, gzip.open(shipped / "jnlpba_cuts.json.gz") as b:
        assert a.read() == b.read()


def test_forced_boundaries():
    text = "ATF/CREB binds monocytes"
    assert toks(text, boundaries=[3, 4, 24]) == ["ATF", "/", "CREB", "binds", "monocytes"]
    assert toks(text, boundaries=np.array([23])) == ["ATF/CREB", "binds", "monocyte", "s"]
    assert toks(text, boundaries=[]) == toks(text)
    with pytest.raises(TypeError, match="boundaries"):
        tokenize(text, boundaries=["x"])


# -- sentence rules ---------------------------------------------------------------------


def test_sentence_splitting():
    assert sents("It binds DNA. The cells die. Why? Because!") == [
        "It binds DNA.", "The cells die.", "Why?", "Because!"]  # fmt: skip
    # not after abbreviations, initials, inside brackets or before a lower-case word
    text = (
        "Cells (e.g. T cells) and et al. Results vs. Controls in E. coli (Blood. 2001;98:8) "
        "and J. Biol. Chem. 274 are used."
    )
    assert sents(text) == [text]
    # a lower-case name with a digit or capital may start a sentence
    assert sents("It was high. p65 bound. cAMP rose.") == ["It was high.", "p65 bound.",
                                                           "cAMP rose."]  # fmt: skip
    assert sents("Cells were lysed. c-myc rose.") == ["Cells were lysed.", "c-myc rose."]
    # a single capital after a lower-case word is a name, not an initial
    assert sents("binds NF-kappa B. The cells") == ["binds NF-kappa B.", "The cells"]
    assert sents("at 4 x 10(-9) M. The cells") == ["at 4 x 10(-9) M.", "The cells"]
    # a closing bracket or quote after the period stays in the sentence
    assert sents('It binds (see above.) The "end." Next') == [
        "It binds (see above.)", 'The "end."', "Next"]  # fmt: skip


def test_line_breaks_and_headings():
    text = "A title.\nOBJECTIVE:\nTo test.\nRESULTS: It works.\n\nLast line"
    # a heading on its own line is a sentence; an inline one starts the sentence (GENIA)
    assert sents(text) == ["A title.", "OBJECTIVE:", "To test.", "RESULTS: It works.",
                           "Last line"]
    # a single line break inside a paragraph (a wrapped line) does not end a sentence ...
    text = "IL-2 was induced by\nTax in T cells et al.\nshowed it. MATERIALS AND METHODS:\nWe"
    assert sents(text) == ["IL-2 was induced by\nTax in T cells et al.\nshowed it.",
                           "MATERIALS AND METHODS:", "We"]
    text = "Background:\nIL-2 binds.\nResults and Conclusions:\nIt works."
    assert sents(text) == ["Background:", "IL-2 binds.", "Results and Conclusions:",
                           "It works."]
    # ... a blank line, a line that ends a sentence, or a heading line after it do
    assert sents("A title without period\n\nAbstract") == ["A title without period",
                                                            "Abstract"]
    assert sents("A title. [see comments]\nAbstract") == ["A title. [see comments]",
                                                          "Abstract"]
    assert sents("cells\nRESULTS:\nWe") == ["cells", "RESULTS:", "We"]
    # the corpus's tokenized form keeps a heading with its sentence (GENIA)
    assert sents("A title .\nOBJECTIVE :\nTo test .") == ["A title .", "OBJECTIVE :\nTo test ."]
    # a colon that ends a long line is no heading
    text = "The results of the three assays are as follows:\nthe cells died."
    assert sents(text) == [text]


def test_glued_sentences():
    assert sents("by MB.Moreover, the cells died.(ABSTRACT TRUNCATED AT 250 WORDS)") == [
        "by MB.", "Moreover, the cells died.", "(ABSTRACT TRUNCATED AT 250 WORDS)"]  # fmt: skip
    # not inside initials or acronyms
    assert sents("S.Henderson saw protein.DNA complexes") == [
        "S.Henderson saw protein.DNA complexes"]  # fmt: skip


def test_split_sentences_modes():
    text = "One. Two\n\n three. Four."
    assert [list(s) for s in tokenize_text(text)[0]] == [["One", "."], ["Two"],
                                                         ["three", "."], ["Four", "."]]  # fmt: skip
    lines, off = tokenize_text(text, split_sentences="lines")
    assert [list(s) for s in lines] == [["One.", "Two"], ["three.", "Four", "."]]
    assert [text[a:b] for a, b in off[1]] == ["three.", "Four", "."]
    whole, _ = tokenize_text(text, split_sentences=False)
    assert [list(s) for s in whole] == [["One.", "Two", "three.", "Four", "."]]
    with pytest.raises(ValueError, match="split_sentences"):
        tokenize_text(text, split_sentences="yes")
    with pytest.raises(ValueError, match="split_suffixes"):
        BioTokenizer(split_suffixes="no").tokenize_document(text)


# -- API --------------------------------------------------------------------------------


def test_tokenize_text_and_document():
    text = "  Egr3 binds FasL.\tIL-2 (1 mM) was added.\n"
    sentences, offsets = tokenize_text(text)
    assert all(type(s) is Sentence for s in sentences)
    assert [list(s) for s in sentences] == [
        ["Egr3", "binds", "FasL", "."],
        ["IL-2", "(", "1", "mM", ")", "was", "added", "."],
    ]
    for s, off in zip(sentences, offsets):
        assert off.dtype == np.int64 and off.shape == (len(s), 2)
        assert [text[a:b] for a, b in off] == list(s)
    doc = BioTokenizer().tokenize_document(text)
    assert all(isinstance(d, TokenizedSentence) for d in doc)
    assert [text[a:b] for a, b in (d.span for d in doc)] == [
        "Egr3 binds FasL.",
        "IL-2 (1 mM) was added.",
    ]
    assert [d.sentence for d in doc] == sentences
    assert BioTokenizer().token_spans(text) == tokenize(text)
    assert BioTokenizer().sentence_spans(text) == split_sentences(text)


@pytest.mark.parametrize("text", ["", " ", "\n\n\t  \r\n", "\u00a0\u2003"])
def test_empty_and_blank_text(text):
    assert tokenize(text) == []
    assert split_sentences(text) == []
    assert tokenize_text(text) == ([], [])
    for mode in (True, False, "lines"):
        assert BioTokenizer(split_sentences=mode).tokenize_document(text) == []


@pytest.mark.parametrize("bad", [None, b"IL-2 binds.", ["IL-2"], 3])
def test_non_str_input_raises_type_error(bad):
    for func in (
        tokenize,
        split_sentences,
        tokenize_text,
        BioTokenizer().tokenize_document,
        BioTokenizer().token_spans,
        BioTokenizer().sentence_spans,
    ):
        with pytest.raises(TypeError, match="text must be a str"):
            func(bad)
    with pytest.raises(TypeError, match="text must be a str"):
        align_tokens(bad, ["IL-2"])


@pytest.mark.parametrize(
    "check",
    [
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_get_params_invariance,
        check_set_params,
    ],
    ids=lambda c: c.__name__,
)
def test_sklearn_params(check):
    check("BioTokenizer", BioTokenizer())


def test_params_clone_pickle():
    tok = BioTokenizer(split_sentences="lines", split_suffixes=False)
    assert clone(tok).get_params() == {"split_sentences": "lines", "split_suffixes": False,
                                       "cuts": "jnlpba"}
    assert "split_suffixes=False" in repr(tok)
    text = "IL-2-induced cells.\nNext one."
    again = pickle.loads(pickle.dumps(tok))
    assert again.tokenize_text(text)[0] == tok.tokenize_text(text)[0]


def test_align_tokens():
    text = 'The "holes" in 0. 67 cells.\nNext'
    gold = ["The", "``", "holes", "''", "in", "0.67", "cells", "IL-2", "Next"]
    spans = align_tokens(text, gold)
    assert spans[:3] == [(0, 3), (4, 5), (5, 10)]
    assert text[spans[5][0] : spans[5][1]] == "0. 67"
    assert spans[7] is None  # not in the text: the search goes on
    assert text[spans[8][0] : spans[8][1]] == "Next"  # the period was skipped
    assert align_tokens(text, ["cells"], start=20) == [(21, 26)]
    with pytest.raises(TypeError, match="non-empty str"):
        align_tokens(text, ["The", ""])


# -- properties over random text --------------------------------------------------------

ALPHABET = "abcXYZkappa0123456789" + "-/+*'.,;:()[]{}<>%=&\"?!" + "   \n\t" + "\u00e9\u03b1\u00a0"


@pytest.mark.parametrize("suffixes", [True, False])
def test_offsets_partition_the_text(seed, suffixes):
    rng = random.Random(seed)
    words = ["IL-2", "e.g.", "et", "al.", "NF-kappa", "B.", "The", "cells.", "p65", "(", ")",
             "2.5", "Hodgkin's", "5'", "\"x\"", "cannot", "IL-2-induced", "S.D.", "\n", "M.",
             "RESULTS:", "by MB.Moreover", "..."]  # fmt: skip
    for _ in range(300):
        if rng.random() < 0.5:
            text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 120)))
        else:
            text = " ".join(rng.choice(words) for _ in range(rng.randrange(0, 40)))
        tok = BioTokenizer(split_suffixes=suffixes)
        doc = tok.tokenize_document(text)
        flat = [tuple(o) for d in doc for o in d.offsets.tolist()]
        # every token is text[s:e], non-empty, without whitespace, in text order
        for (s, e), w in zip(flat, (w for d in doc for w in d.sentence)):
            assert 0 <= s < e <= len(text) and text[s:e] == w
            assert not any(ch.isspace() for ch in w)
        assert all(a[1] <= b[0] for a, b in zip(flat, flat[1:]))
        # the tokens cover every non-space character exactly once
        assert "".join(text[s:e] for s, e in flat) == "".join(text.split())
        # sentences are ordered, disjoint and hold their tokens
        spans = [d.span for d in doc]
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
        for d in doc:
            assert len(d.sentence) > 0
            assert d.span[0] == d.offsets[0, 0] and d.span[1] == d.offsets[-1, 1]
        assert flat == tok.token_spans(text)


# -- speed: linear time -----------------------------------------------------------------


def _timed(func, text):
    t0 = time.perf_counter()
    func(text)
    return time.perf_counter() - t0


def test_one_megabyte_line_without_spaces(seed):
    rng = random.Random(seed)
    # gene names, numbers and in-word punctuation: long words, few tokens
    text = "".join(rng.choice("abcXYZ0123456789-/+.'") for _ in range(1_000_000))
    assert len(text) == 1_000_000
    # growth, not a wall-clock budget (a loaded machine must not decide): a tenth of the
    # line against the whole, best of three each; linear ~10x, quadratic ~100x
    for line in (text, "IL-2/CD4+" * 111_112, "x" * 1_000_000):
        t_small = min(_timed(tokenize_text, line[:100_000]) for _ in range(3))
        t_big = min(_timed(tokenize_text, line) for _ in range(3))
        assert t_big < 30 * t_small + 0.25, (line[:20], t_small, t_big)


@pytest.mark.parametrize(
    "unit", ["(a),", "a.", "ab.Cd ", "e.g. ", "..", "--", "'", "x' ", "A. ", "a (b. c "]
)
def test_time_is_linear(unit):
    # pathological inputs (a candidate boundary or a token every few characters)
    small = unit * (20_000 // len(unit))
    big = unit * (200_000 // len(unit))
    # best of three each, so that a busy machine does not decide; linear: ~10x,
    # quadratic ~100x (and seconds, not a tenth of one, at 200,000 characters)
    t_small = min(_timed(tokenize_text, small) for _ in range(3))
    t_big = min(_timed(tokenize_text, big) for _ in range(3))
    assert t_big < 30 * t_small + 0.25, (t_small, t_big)


# -- real data --------------------------------------------------------------------------


def test_jnlpba_test_abstracts():
    from skbioner.io import read_brat, read_jnlpba

    corpus = read_jnlpba(data_path("jnlpba", "test.iob2"))
    standoff = data_path("jnlpba", "test-standoff")
    seen = Counter()
    n_gold = n_match = n_match_ent = 0
    tok = BioTokenizer()
    exact = BioTokenizer(split_suffixes=False)
    for doc_id, idx in corpus.documents()[:40]:
        seen[doc_id] += 1
        name = doc_id if seen[doc_id] == 1 else f"{doc_id}-{seen[doc_id]}"
        doc = read_brat(standoff / f"{name}.txt")
        gold_tokens = [t for i in idx for t in corpus.X[i]]
        gold = align_tokens(doc.text, gold_tokens)
        assert sum(g is None for g in gold) <= 2
        gold = {g for g in gold if g is not None}
        n_gold += len(gold_tokens)
        n_match += len(gold & set(tok.token_spans(doc.text)))
        bounds = [o for e in doc.entities for o in (e.start, e.end)]
        n_match_ent += len(gold & set(exact.token_spans(doc.text, bounds)))
    assert n_gold > 8000
    # from the raw text alone (the corpus also cut words at entity boundaries,
    # which split_suffixes only guesses: 99.45% on all 404 abstracts) ...
    assert n_match / n_gold >= 0.99
    # ... and told the entity boundaries, as the corpus was made
    assert n_match_ent / n_gold >= 0.998
