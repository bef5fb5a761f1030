"""Character-offset entities -> tokens and IOB2 labels (tokenize_documents)."""

import warnings

import numpy as np
import pytest

from skbioner.io import BratDocument, CorpusWarning, Entity
from skbioner.text import BioTokenizer, tokenize_documents


def _doc(text, *spans, doc_id="d1"):
    ents = []
    for k, span in enumerate(spans, 1):
        typ, a, b = span[:3]
        frags = span[3] if len(span) > 3 else None
        ents.append(Entity(f"T{k}", typ, a, b, text[a:b], frags))
    return BratDocument(doc_id, text, ents)


def _quiet(docs, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return tokenize_documents(docs, **kw)


def test_entity_offsets_are_token_boundaries():
    # the corpus cuts words at entity edges: ATF/CREB -> ATF / CREB, monocytes -> monocyte s
    text = "ATF/CREB binds monocytes."
    X, y = _quiet([_doc(text, ("protein", 0, 3), ("protein", 4, 8), ("cell_type", 15, 23))])
    assert list(X[0]) == ["ATF", "/", "CREB", "binds", "monocyte", "s", "."]
    assert y[0] == ["B-protein", "O", "B-protein", "O", "B-cell_type", "O", "O"]
    assert X[0].doc_id == "d1"


def test_offsets_are_returned_and_cover_the_tokens():
    text = "IL-2 gene expression.\nNF-kappa B binds it."
    X, y, offsets = _quiet([_doc(text, ("DNA", 0, 9), ("protein", 22, 32))],
                           return_offsets=True)
    assert [list(s) for s in X] == [["IL-2", "gene", "expression", "."],
                                    ["NF-kappa", "B", "binds", "it", "."]]
    for s, off in zip(X, offsets):
        assert [text[a:b] for a, b in off] == list(s)
    assert y == [["B-DNA", "I-DNA", "O", "O"], ["B-protein", "I-protein", "O", "O", "O"]]


def test_entity_across_a_sentence_break_joins_the_sentences():
    # "... cells. The ..." would be two sentences; an entity across the break joins them
    text = "They bind T cells. The end. Next one."
    X, y = _quiet([_doc(text, ("cell_type", 10, 22))])
    assert [list(s) for s in X] == [["They", "bind", "T", "cells", ".", "The", "end", "."],
                                    ["Next", "one", "."]]
    assert y[0][2:6] == ["B-cell_type", "I-cell_type", "I-cell_type", "I-cell_type"]


def test_blank_edges_are_trimmed():
    text = "a IL-2 b"
    X, y = _quiet([_doc(text, ("protein", 1, 7))])
    assert y == [["O", "B-protein", "O"]]


def test_nested_overlapping_discontinuous_and_blank_entities_are_reported():
    text = "IL-2 and IL-4 genes bind NF-kappa B here"
    doc = _doc(text,
               ("DNA", 0, 19),                      # kept (outer)
               ("protein", 0, 4),                   # nested in it
               ("protein", 14, 26),                 # overlaps it
               ("x", 25, 35, ((25, 33), (34, 35))),  # fragments with only a blank between
               ("y", 20, 40, ((20, 24), (36, 40))),  # discontinuous: its whole span holds x
               ("z", 19, 20))                       # a blank only
    other = _doc("p53 is p53", ("protein", 0, 3), ("protein", 0, 3), ("DNA", 0, 3),
                 doc_id="d2")
    with pytest.warns(CorpusWarning) as record:
        X, y = tokenize_documents([doc, other])
    messages = [str(w.message) for w in record]
    assert len(messages) == 4
    nested = next(m for m in messages if "nested" in m)
    assert nested.startswith("3 entities in 2 documents not labelled: nested")
    # inside the outer DNA entity; inside y's whole span; on the span of the first p53
    for named in ("document 'd1': protein 'IL-2' at 0:4", "document 'd1': x 'NF-kappa B' at "
                  "25:35", "document 'd2': DNA 'p53' at 0:3"):
        assert named in nested
    assert "protein 'p53'" not in nested  # the same entity twice is no problem
    assert any(m.startswith("1 entity in 1 document not labelled: overlapping") and
               "protein 'genes bind N' at 14:26" in m for m in messages)
    assert any(m.startswith("1 entity in 1 document with fragments") and "y " in m
               for m in messages)
    assert any(m.startswith("1 entity in 1 document not labelled: they cover no token") for m in
               messages)
    assert y[0] == ["B-DNA", "I-DNA", "I-DNA", "I-DNA", "B-y", "I-y", "I-y", "I-y"]
    assert y[1] == ["B-protein", "O", "O"]


def test_whitespace_tokenizer():
    text = "IL-2 gene ( p50 ) .\nsecond line\n\n"
    X, y = _quiet([_doc(text, ("DNA", 0, 9), ("protein", 12, 14))], tokenizer="whitespace")
    assert [list(s) for s in X] == [["IL-2", "gene", "(", "p5", "0", ")", "."],
                                    ["second", "line"]]
    assert y[0][:4] == ["B-DNA", "I-DNA", "O", "B-protein"]


def test_default_tokenizer_keeps_suffixes_that_are_no_entity_edge():
    text = "IL-2-induced and Tax-induced."
    X, y = _quiet([_doc(text, ("protein", 17, 20))])
    assert list(X[0]) == ["IL-2-induced", "and", "Tax", "-induced", "."]
    X, _ = _quiet([_doc(text, ("protein", 17, 20))], tokenizer=BioTokenizer())
    assert list(X[0])[:2] == ["IL-2", "-induced"]


def test_documents_without_text_and_bad_tokenizer():
    X, y = _quiet([BratDocument("e", "  \n ")])
    assert X == [] and y == []
    with pytest.raises(TypeError, match="tokenizer"):
        tokenize_documents([], tokenizer="spaces")


def test_many_entities_label_fast_enough_and_match_a_slow_oracle():
    # oracle: label every token from the entities one by one
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(400)]
    text = " ".join(words)
    starts = np.cumsum([0] + [len(w) + 1 for w in words[:-1]])
    spans, i = [], 0
    while i < len(words) - 3:
        n = int(rng.integers(1, 4))
        if rng.random() < 0.5:
            spans.append(("t", int(starts[i]), int(starts[i + n - 1] + len(words[i + n - 1]))))
        i += n + int(rng.integers(0, 2))
    _, y = _quiet([_doc(text, *spans)], tokenizer="whitespace")
    expected = ["O"] * len(words)
    for _, a, b in spans:
        k = [j for j in range(len(words)) if a <= starts[j] < b]
        expected[k[0]] = "B-t"
        for j in k[1:]:
            expected[j] = "I-t"
    assert y == [expected]
