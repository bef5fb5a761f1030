"""One entry point for every corpus format: detection, JSONL, round trips, load_corpus."""

import gzip
import json
import warnings
from collections import Counter

import pytest

from skbioner.datasets import load_corpus, load_jnlpba_sample
from skbioner.io import (
    FORMATS,
    BratDocument,
    ColumnCorpus,
    CorpusFormatError,
    Entity,
    corpus_to_documents,
    detect_format,
    read_columns,
    read_documents,
    read_jsonl,
    write_brat,
    write_columns,
    write_documents,
    write_jsonl,
)
from skbioner.text import tokenize_documents
from tests.io.helpers import assert_format_error

# -- detection -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "content", "expected"), [
    ("a.iob2", "x\tO\n\n", "columns"),
    ("a.conll", "x O\n\n", "columns"),
    ("a.txt", "###MEDLINE:1\n\nx\tO\n\n", "columns"),
    ("noext", "-DOCSTART- -X- O\n\nx NN O\n", "columns"),
    ("a.txt", "\n12|t|Title\n12|a|Abstract\n", "pubtator"),
    ("a.pubtator", "anything", "pubtator"),
    ("a.data", '<?xml version="1.0"?>\n<collection>', "bioc-xml"),
    ("a.xml", "x", "bioc-xml"),
    ("a.data", '{"source": "", "documents": []}', "bioc-json"),
    ("a.data", '{\n "documents": []\n}', "bioc-json"),
    ("a.data", '{"id": "1", "text": "x"}\n{"id": "2", "text": "y"}\n', "jsonl"),
    ("a.data", '{"id": "1", "text": "' + "x" * 70_000 + '"}\n', "jsonl"),  # beyond the sniff
    ("a.data", '{"documents": [{"id": "1", "text": "' + "x" * 70_000 + '"}]}', "bioc-json"),
    ("a.jsonl", "x", "jsonl"),
    ("a.json", "x", "bioc-json"),
    ("a.iob2.gz", b"\x1f\x8b", "columns"),
])
def test_detect_format(write_file, name, content, expected):
    assert detect_format(write_file(name, content)) == expected


def test_detect_format_of_gzipped_content_and_brat(tmp_path):
    p = tmp_path / "corpus.data.gz"
    p.write_bytes(gzip.compress(b"12|t|Title\n"))
    assert detect_format(p) == "pubtator"
    write_brat(tmp_path / "brat", BratDocument("d1", "text", [Entity("T1", "x", 0, 4, "text")]))
    assert detect_format(tmp_path / "brat") == "brat"
    assert detect_format(tmp_path / "brat" / "d1.txt") == "brat"
    assert detect_format(tmp_path / "brat" / "d1.ann") == "brat"
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "a.txt").write_text("raw text")
    with pytest.raises(CorpusFormatError, match="without .ann files"):
        detect_format(tmp_path / "raw")
    with pytest.raises(FileNotFoundError):
        detect_format(tmp_path / "missing.iob2")


# -- JSONL -----------------------------------------------------------------------------

TEXT = "IL-2 gene expression in T cells."


def test_read_jsonl(write_file):
    lines = [
        {"id": "d1", "text": TEXT, "entities": [
            {"start": 0, "end": 9, "type": "DNA", "text": "IL-2 gene", "probability": 0.9},
            {"start": 24, "end": 31, "type": "cell_type"}]},
        {"id": 7, "text": "No entity."},
    ]
    path = write_file("c.jsonl", "\n".join(json.dumps(x) for x in lines) + "\n\n")
    docs = read_jsonl(path)
    assert [d.id for d in docs] == ["d1", "7"]
    assert docs[0].spans() == [("DNA", 0, 9), ("cell_type", 24, 31)]
    assert docs[1].entities == []


@pytest.mark.parametrize(("record", "match"), [
    ('{"id": "d1", "text": "abc", "entities": [{"start": 0, "end": 9, "type": "x"}]}',
     "beyond the end of the text"),
    ('{"id": "d1", "text": "abc", "entities": [{"start": 0, "end": 2, "type": "x", '
     '"text": "ax"}]}', "differs from the text"),
    ('{"id": "d1", "text": "abc", "entities": [{"start": "0", "end": 2, "type": "x"}]}',
     "integers"),
    ('{"id": "d1", "text": "abc", "entities": [{"start": 2, "end": 2, "type": "x"}]}',
     "not before end"),
    ('{"id": "d1", "text": "abc", "entities": [{"start": 0, "end": 2, "type": "a b"}]}',
     "whitespace"),
    ('{"id": "d1", "entities": []}', 'no "text"'),
    ('{"id": "a/b", "text": "abc"}', "cannot name a document"),
    ('{"text": "abc"}', 'an "id"'),
    ("[1, 2]", 'an "id"'),
    ("{not json", "not a JSON object"),
])
def test_jsonl_errors_name_file_and_line(write_file, record, match):
    path = write_file("bad.jsonl", '{"id": "ok", "text": "fine"}\n' + record + "\n")
    with pytest.raises(CorpusFormatError, match=match) as excinfo:
        read_jsonl(path)
    assert_format_error(excinfo, path, 2)


def test_jsonl_duplicate_id(write_file):
    path = write_file("dup.jsonl", '{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n')
    with pytest.raises(CorpusFormatError, match="already used on line 1") as excinfo:
        read_jsonl(path)
    assert_format_error(excinfo, path, 2)


def test_jsonl_round_trip_with_fragments(tmp_path):
    text = "IL-2 and IL-4 genes"
    doc = BratDocument("d", text, [Entity("T1", "DNA", 0, 19, text, ((0, 4), (14, 19))),
                                   Entity("T2", "DNA", 9, 19, "IL-4 genes")])
    write_jsonl(tmp_path / "o.jsonl", [doc])
    [back] = read_jsonl(tmp_path / "o.jsonl")
    assert back.text == text and back.entities[0].fragments == ((0, 4), (14, 19))
    assert back.spans() == doc.spans()


# -- columns <-> documents --------------------------------------------------------------


def test_corpus_to_documents_ids_text_and_offsets(write_file):
    path = write_file("file.iob2", "a\tB-x\n\n###MEDLINE:9\n\nIL-2\tB-DNA\ngene\tI-DNA\nis\tO\n\n"
                                   "###MEDLINE:9\n\nT\tB-cell\n\n")
    docs = corpus_to_documents(read_columns(path))
    # before any marker: the file stem; an id met again: -2 (as the JNLPBA standoff release)
    assert [d.id for d in docs] == ["file", "9", "9-2"]
    assert docs[1].text == "IL-2 gene is\n"
    assert docs[1].entities == [Entity("T1", "DNA", 0, 9, "IL-2 gene")]
    assert docs[2].spans() == [("cell", 0, 1)]


def _sample_docs():
    corpus = load_jnlpba_sample("test")
    return corpus, corpus_to_documents(corpus)


_OUTPUTS = {"columns": "c.iob2", "brat": "brat", "pubtator": "c.pubtator",
            "bioc-xml": "c.xml", "bioc-json": "c.json", "jsonl": "c.jsonl"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_on_the_bundled_sample(tmp_path, fmt):
    corpus, docs = _sample_docs()
    out = tmp_path / _OUTPUTS[fmt]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if fmt == "columns":  # a column file holds tokens: tokenized first
            X, y = tokenize_documents(docs, "whitespace")
            write_columns(out, ColumnCorpus(X=X, y=y, doc_ids=[s.doc_id for s in X], path=None))
        else:
            write_documents(out, docs, fmt)
    # PubTator cannot hold a sentence per line: the one format that warns (offsets kept)
    assert bool(caught) == (fmt == "pubtator")
    assert detect_format(out) == fmt
    back = {d.id: d for d in read_documents(out)}
    assert set(back) == {d.id for d in docs}
    for d in docs:
        assert back[d.id].spans() == d.spans()
        if fmt in ("brat", "jsonl", "columns"):
            assert back[d.id].text == d.text
        elif fmt != "pubtator":  # BioC passages hold text: the final line break is not kept
            assert back[d.id].text == d.text.rstrip("\n")
    # the tokens, labels and document ids of the column file come back exactly
    # (but for PubTator, whose one abstract line no longer marks the sentences)
    again = load_corpus(out, tokenizer="whitespace")
    by_doc = Counter(again.doc_ids)
    assert by_doc == Counter(corpus.doc_ids) or fmt == "pubtator"
    order = sorted(range(len(again.X)), key=lambda i: [d.id for d in docs].index(
        again.doc_ids[i]))
    if fmt != "pubtator":
        assert [list(again.X[i]) for i in order] == [list(s) for s in corpus.X]
        assert [again.y[i] for i in order] == corpus.y
    else:
        assert [t for i in order for t in again.X[i]] == [t for s in corpus.X for t in s]
        assert [lab for i in order for lab in again.y[i]] == [lab for y in corpus.y for lab in y]


def test_bio_tokenizer_on_joined_tokens_of_the_sample(tmp_path):
    # the default tokenizer re-tokenizes space-joined JNLPBA tokens almost exactly
    corpus, docs = _sample_docs()
    write_documents(tmp_path / "brat", docs, "brat")
    again = load_corpus(tmp_path / "brat")
    ours = Counter(t for s in again.X for t in s)
    gold = Counter(t for s in corpus.X for t in s)
    n_gold = sum(gold.values())
    assert sum((ours & gold).values()) / n_gold > 0.998
    assert sum(map(len, again.y)) == sum(ours.values())
    ents = Counter(lab[2:] for y in again.y for lab in y if lab.startswith("B-"))
    assert ents == Counter(lab[2:] for y in corpus.y for lab in y if lab.startswith("B-"))


def test_load_corpus_columns_keeps_layout_and_detects_spaces(write_file, tmp_path):
    path = write_file("c.conll", "-DOCSTART- -X- O\n\nIL-2 NN B-DNA\ngene NN I-DNA")
    corpus = load_corpus(path)
    assert corpus.y == [["B-DNA", "I-DNA"]] and corpus.doc_ids == ["doc0"]
    write_columns(tmp_path / "o.conll", corpus)
    assert (tmp_path / "o.conll").read_text() == path.read_text()


def test_documents_tokenized_and_written_as_columns_in_jnlpba_layout(tmp_path):
    doc = BratDocument("d1", "Tax-induced IL-2.", [Entity("T1", "protein", 0, 3, "Tax")])
    X, y = tokenize_documents([doc])
    write_columns(tmp_path / "o.iob2", ColumnCorpus(X=X, y=y, doc_ids=[s.doc_id for s in X],
                                                    path=None))
    assert (tmp_path / "o.iob2").read_text() == (
        "###MEDLINE:d1\n\nTax\tB-protein\n-induced\tO\nIL-2\tO\n.\tO\n\n")
    with pytest.raises(ValueError, match="a column file holds tokens"):
        write_documents(tmp_path / "o2.iob2", [doc], "columns")


def test_load_corpus_of_texts_without_tokens(write_file):
    path = write_file("e.jsonl", '{"id": "a", "text": "   "}\n')
    with pytest.raises(CorpusFormatError, match="no sentence"):
        load_corpus(path)


def test_unknown_format():
    with pytest.raises(ValueError, match="format must be"):
        read_documents("x", "conllu")
    with pytest.raises(ValueError, match="format must be"):
        write_documents("x", [], "conllu")


# -- real data ---------------------------------------------------------------------------


def test_jnlpba_standoff_reads_as_the_column_file():
    """Training from the brat release of the JNLPBA test split gives test.iob2's labels."""
    from tests.conftest import data_path

    standoff = data_path("jnlpba", "test-standoff")
    gold = read_columns(data_path("jnlpba", "test.iob2"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no entity is lost
        corpus = load_corpus(standoff)
    assert len(set(corpus.doc_ids)) == 404
    n_gold = sum(map(len, gold.X))
    n_ours = sum(map(len, corpus.X))
    assert abs(n_ours - n_gold) / n_gold < 0.001
    pairs = Counter((t, lab) for s, y in zip(gold.X, gold.y) for t, lab in zip(s, y))
    ours = Counter((t, lab) for s, y in zip(corpus.X, corpus.y) for t, lab in zip(s, y))
    assert sum((pairs & ours).values()) / n_gold > 0.999
    ents = Counter(lab for y in gold.y for lab in y if lab.startswith("B-"))
    assert Counter(lab for y in corpus.y for lab in y if lab.startswith("B-")) == ents


def test_column_corpus_repr_of_load_corpus(tmp_path):
    _, docs = _sample_docs()
    write_documents(tmp_path / "s.jsonl", docs[:3], "jsonl")
    corpus = load_corpus(tmp_path / "s.jsonl")
    assert isinstance(corpus, ColumnCorpus) and "n_documents=3" in repr(corpus)
    assert all(s.doc_id == d for s, d in zip(corpus.X, corpus.doc_ids))
