"""The compiled scan of BioTokenizer against its regular-expression oracle."""

import random

import pytest

from skbioner.text import BioTokenizer, CutTable
from skbioner.text._scan import scan
from skbioner.text._tokenize import (
    _CHUNK,
    _TOKEN,
    _sentence_spans,
    _sentence_spans_reference,
)
from tests.conftest import data_path

ALPHABET = ("abcXYZkappa0123456789" + "-/+*'.,;:()[]{}<>%=&\"?!" + "   \n\n\t\r"
            + "\u00e9\u03b1\u00a0\u2003\u2028\U0001d400")
WORDS = ["IL-2", "-induced", "e.g.", "et", "al.", "M.", "The", "cells.", "(", "A.", ")", "\n",
         "\n\n", "RESULTS:", "Background:", "cannot", "Hodgkin's", "x'", "...", "--",
         "MB.Moreover", "ATF/CREB", "Tax-induced", "[see comments]", ":", "4 x 10(-9) M.",
         "vs.", "p65", "c-myc", "\u00a0", "'"]


def _texts(seed, n=1500):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        out.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 60))))
        out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 25))))
    return out


def test_scan_finds_the_tokens_and_chunks_of_the_regular_expressions(seed):
    for text in _texts(seed):
        for slash in (False, True):
            tok, split, chunks, dots, newlines, codes = scan(text, slash)
            spans = [m.span() for m in _TOKEN.finditer(text)]
            assert [tuple(t) for t in tok.tolist()] == spans, text
            words = [text[s:e] for s, e in spans]
            expected = [len(w) > 1 and ("'" in w or "-" in w or (slash and "/" in w)
                                        or w[-5:] in ("annot", "ANNOT"))
                        and m.lastindex == 2
                        for w, m in zip(words, _TOKEN.finditer(text), strict=True)]
            assert split.tolist() == expected, text
            cs = [m.span() for m in _CHUNK.finditer(text)]
            assert [tuple(c) for c in chunks.tolist()] == cs
            assert dots.tolist() == ["." in text[s:e] for s, e in cs]
            assert newlines.tolist() == [text.count("\n", e, cs[i + 1][0]) if i + 1 < len(cs)
                                         else text.count("\n", e) for i, (_, e) in enumerate(cs)]
            assert codes.tolist() == [ord(c) for c in text]


@pytest.mark.parametrize("params", [{}, {"cuts": None}, {"cuts": None, "split_suffixes": False},
                                    {"split_sentences": "lines"}, {"split_sentences": False},
                                    {"cuts": CutTable({"/<|#C|#C": (3, 3)}, 1, 0.5)}])
def test_tokenizer_equals_its_reference(params, seed):
    tok = BioTokenizer(**params)
    for text in _texts(seed, 600):
        assert tok._spans(text, None) == tok._spans_reference(text), text
        assert _sentence_spans(text) == _sentence_spans_reference(text), text


def test_tokenizer_equals_its_reference_on_the_jnlpba_abstracts():
    from skbioner.tagging import iter_documents

    directory = data_path("jnlpba", "test-standoff")
    tok = BioTokenizer()
    for doc in iter_documents([directory]):
        assert tok._spans(doc.text, None) == tok._spans_reference(doc.text), doc.id
