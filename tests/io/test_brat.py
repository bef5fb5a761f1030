"""Tests for brat standoff reading and writing."""

import os
from collections import Counter

import numpy as np
import pytest

from skbioner.io import (
    BratDocument,
    CorpusFormatError,
    Entity,
    entities_from_spans,
    read_brat,
    read_brat_dir,
    write_brat,
)
from tests.io.helpers import assert_format_error

TEXT = "IL-2 gene expression requires NF-kappa B.\nT cells respond."
ANN = (
    "T1\tDNA 0 9\tIL-2 gene\n"
    "T2\tprotein 30 40\tNF-kappa B\n"
    "R1\tRegulates Arg1:T2 Arg2:T1\n"
    "#1\tAnnotatorNotes T1\tcheck this\n"
    "T3\tcell_type 42 49\tT cells\n"
    "A1\tNegated T3\n"
)


@pytest.fixture
def doc_files(write_file):
    txt = write_file("doc1.txt", TEXT)
    ann = write_file("doc1.ann", ANN)
    return txt, ann




# --------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------


def test_read_brat(doc_files):
    txt, _ = doc_files
    doc = read_brat(txt)
    assert doc.id == "doc1"
    assert doc.text == TEXT
    assert doc.entities == [
        Entity("T1", "DNA", 0, 9, "IL-2 gene"),
        Entity("T2", "protein", 30, 40, "NF-kappa B"),
        Entity("T3", "cell_type", 42, 49, "T cells"),
    ]
    assert doc.other_lines == [
        "R1\tRegulates Arg1:T2 Arg2:T1",
        "#1\tAnnotatorNotes T1\tcheck this",
        "A1\tNegated T3",
    ]
    assert doc.spans() == [("DNA", 0, 9), ("cell_type", 42, 49), ("protein", 30, 40)]


def test_read_brat_explicit_ann_path(write_file):
    txt = write_file("a.txt", TEXT)
    ann = write_file("elsewhere.ann", "T1\tDNA 0 4\tIL-2\n")
    doc = read_brat(txt, ann)
    assert doc.id == "a"
    assert doc.entities == [Entity("T1", "DNA", 0, 4, "IL-2")]


def test_entities_are_frozen():
    e = Entity("T1", "DNA", 0, 4, "IL-2")
    with pytest.raises(AttributeError):
        e.start = 1


def test_crlf_text_offsets_are_not_translated(write_file, tmp_path):
    text = "IL-2 gene\r\nT cells\r\n"
    txt = write_file("crlf.txt", text)
    write_file("crlf.ann", "T1\tcell_type 11 18\tT cells\r\n")
    doc = read_brat(txt)
    assert doc.text == text
    assert doc.entities == [Entity("T1", "cell_type", 11, 18, "T cells")]
    out_txt, _ = write_brat(tmp_path / "out", doc)
    assert out_txt.read_bytes() == text.encode()


def test_non_ascii_offsets_are_characters(write_file):
    text = "α-helix of β-catenin"
    txt = write_file("u.txt", text)
    write_file("u.ann", "T1\tprotein 11 20\tβ-catenin\n")
    assert read_brat(txt).entities[0].text == "β-catenin"


def test_empty_ann_and_blank_lines_kept(write_file):
    txt = write_file("e.txt", TEXT)
    write_file("e.ann", "")
    assert read_brat(txt).entities == []
    write_file("e.ann", "T1\tDNA 0 4\tIL-2\n\n#1\tnote\n")
    doc = read_brat(txt)
    assert doc.other_lines == ["", "#1\tnote"]


def test_entity_text_with_tab(write_file):
    txt = write_file("t.txt", "a\tb c")
    write_file("t.ann", "T1\tx 0 3\ta\tb\n")
    assert read_brat(txt).entities[0].text == "a\tb"


def test_missing_default_ann_is_error(write_file):
    txt = write_file("lonely.txt", TEXT)
    with pytest.raises(CorpusFormatError, match="lonely.ann") as excinfo:
        read_brat(txt)
    assert_format_error(excinfo, txt, None)


def test_missing_txt_or_explicit_ann(write_file, tmp_path):
    with pytest.raises(FileNotFoundError):
        read_brat(tmp_path / "nothing.txt")
    txt = write_file("a.txt", TEXT)
    with pytest.raises(FileNotFoundError):
        read_brat(txt, tmp_path / "missing.ann")


@pytest.mark.parametrize(
    "line, match",
    [
        ("T1 DNA 0 4 IL-2", "malformed entity line"),
        ("T1\tDNA 0 4", "malformed entity line"),
        ("T\tDNA 0 4\tIL-2", "malformed entity line"),
        ("T1\tDNA 0\tIL-2", "malformed entity line"),
        ("T1\tDNA  0 4\tIL-2", "malformed entity line"),
        ("T1\t 0 4\tIL-2", "malformed entity line"),
        ("T1\tDNA 0 4 5\tIL-2", "malformed entity line"),
        ("T1\tDNA a 4\tIL-2", "'a' of T1 is not a non-negative integer"),
        ("T1\tDNA 0 4.0\tIL-2", "'4.0' of T1 is not a non-negative integer"),
        ("T1\tDNA -1 4\tIL-2", "'-1' of T1 is not a non-negative integer"),
        ("T1\tDNA +0 4\tIL-2", "not a non-negative integer"),
        ("T1\tDNA 4 4\t", "start 4 is not before end 4"),
        ("T1\tDNA 5 4\tx", "start 5 is not before end 4"),
        ("T1\tDNA 50 99\tx", "end 99 is beyond the end of the text"),
        ("T1\tDNA 0 5;4 9\tIL-2  gene", "fragment 4 9 overlaps or precedes"),
        ("T1\tDNA 5 9;0 4\tgene IL-2", "fragment 0 4 overlaps or precedes"),
        ("T1\tDNA 0 4;5 9\tIL-2gene", "differs from the text at 0:4;5:9, 'IL-2 gene'"),
        ("T1\tDNA 0 4;\tIL-2", "malformed entity line"),
        ("T1\tDNA 0 4\tIL-3", "text field 'IL-3' differs from the text at 0:4, 'IL-2'"),
        ("T1\tDNA 0 4\tIL-2 ", "differs"),
    ],
)
def test_bad_entity_lines(write_file, line, match):
    txt = write_file("bad.txt", TEXT)
    ann = write_file("bad.ann", f"T5\tDNA 5 9\tgene\n#1\tnote\n{line}\n")
    with pytest.raises(CorpusFormatError, match=match) as excinfo:
        read_brat(txt)
    assert_format_error(excinfo, ann, 3)
    assert "bad.ann:3:" in str(excinfo.value)


def test_duplicate_entity_id(write_file):
    txt = write_file("dup.txt", TEXT)
    ann = write_file("dup.ann", "T1\tDNA 0 4\tIL-2\nT1\tDNA 5 9\tgene\n")
    with pytest.raises(CorpusFormatError, match="'T1' already used on line 1") as excinfo:
        read_brat(txt)
    assert_format_error(excinfo, ann, 2)


def test_undecodable_txt_and_ann(write_file):
    txt = write_file("bin.txt", b"IL-2\ngene \xff\n")
    write_file("bin.ann", "")
    with pytest.raises(CorpusFormatError, match="byte offset 10") as excinfo:
        read_brat(txt)
    assert_format_error(excinfo, txt, 2)
    txt2 = write_file("bin2.txt", TEXT)
    ann2 = write_file("bin2.ann", b"T1\tDNA 0 4\tIL-2\n#1\t\xc3\n")
    with pytest.raises(CorpusFormatError, match="utf-8") as excinfo:
        read_brat(txt2)
    assert_format_error(excinfo, ann2, 2)


def test_read_brat_dir_sorted_and_ignores_other_files(tmp_path):
    d = tmp_path / "corpus"
    d.mkdir()
    for stem in ["b", "a", "c10", "c2"]:
        (d / f"{stem}.txt").write_text(f"text {stem}")
        (d / f"{stem}.ann").write_text("T1\tx 0 4\ttext\n")
    (d / "annotation.conf").write_text("[entities]\nx\n")
    (d / "sub").mkdir()
    docs = read_brat_dir(d)
    assert [doc.id for doc in docs] == ["a", "b", "c10", "c2"]
    assert all(doc.entities == [Entity("T1", "x", 0, 4, "text")] for doc in docs)


def test_read_brat_dir_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_brat_dir(tmp_path / "absent")
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(NotADirectoryError):
        read_brat_dir(f)
    d = tmp_path / "d"
    d.mkdir()
    with pytest.raises(CorpusFormatError, match="no brat documents") as excinfo:
        read_brat_dir(d)
    assert_format_error(excinfo, d, None)
    (d / "x.txt").write_text("abc")
    with pytest.raises(CorpusFormatError, match="x.ann") as excinfo:
        read_brat_dir(d)
    assert_format_error(excinfo, d / "x.txt", None)
    (d / "x.ann").write_text("")
    (d / "y.ann").write_text("")
    with pytest.raises(CorpusFormatError, match="y.txt") as excinfo:
        read_brat_dir(d)
    assert_format_error(excinfo, d / "y.ann", None)


def test_read_brat_dir_reports_bad_line(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.txt").write_text("abcdef")
    (d / "a.ann").write_text("T1\tx 0 3\tabc\nT2\tx 3 9\tdef\n")
    with pytest.raises(CorpusFormatError, match="beyond") as excinfo:
        read_brat_dir(d)
    assert_format_error(excinfo, d / "a.ann", 2)


# --------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------


def test_write_read_roundtrip(doc_files, tmp_path):
    txt, ann = doc_files
    doc = read_brat(txt)
    out_txt, out_ann = write_brat(tmp_path / "out", doc)
    assert (out_txt, out_ann) == (tmp_path / "out" / "doc1.txt", tmp_path / "out" / "doc1.ann")
    back = read_brat(out_txt)
    assert back == doc
    # entity lines first, then the other lines in their order
    assert out_ann.read_text().splitlines() == [
        "T1\tDNA 0 9\tIL-2 gene",
        "T2\tprotein 30 40\tNF-kappa B",
        "T3\tcell_type 42 49\tT cells",
        "R1\tRegulates Arg1:T2 Arg2:T1",
        "#1\tAnnotatorNotes T1\tcheck this",
        "A1\tNegated T3",
    ]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["doc1.ann", "doc1.txt"]


def test_write_without_text(tmp_path):
    doc = BratDocument("d", "abc def", entities_from_spans("abc def", [("x", 4, 7)]))
    txt_path, ann_path = write_brat(tmp_path, doc, write_text=False)
    assert not txt_path.exists()
    assert ann_path.read_text() == "T1\tx 4 7\tdef\n"


def test_write_numbers_entities_without_ids_in_start_order(tmp_path):
    text = "abc def ghi"
    doc = BratDocument(
        "d",
        text,
        [Entity("", "y", 8, 11, "ghi"), Entity("", "x", 0, 3, "abc"), Entity("", "x", 4, 7, "def")],
    )
    _, ann = write_brat(tmp_path, doc)
    assert ann.read_text() == "T1\tx 0 3\tabc\nT2\tx 4 7\tdef\nT3\ty 8 11\tghi\n"
    assert doc.entities[0].id == ""  # input untouched


def test_write_keeps_given_ids_and_order(tmp_path):
    text = "abc def"
    doc = BratDocument("d", text, [Entity("T7", "x", 4, 7, "def"), Entity("T3", "x", 0, 3, "abc")])
    _, ann = write_brat(tmp_path, doc)
    assert ann.read_text() == "T7\tx 4 7\tdef\nT3\tx 0 3\tabc\n"


def test_write_mixed_ids_get_fresh_numbers(tmp_path):
    text = "abc def ghi"
    doc = BratDocument(
        "d",
        text,
        [
            Entity("T4", "x", 8, 11, "ghi"),
            Entity("", "x", 0, 3, "abc"),
            Entity("", "x", 4, 7, "def"),
        ],
        ["R1\tRel Arg1:T4 Arg2:T4"],
    )
    _, ann = write_brat(tmp_path, doc)
    assert ann.read_text() == (
        "T5\tx 0 3\tabc\nT6\tx 4 7\tdef\nT4\tx 8 11\tghi\nR1\tRel Arg1:T4 Arg2:T4\n"
    )


@pytest.mark.parametrize(
    "doc, match",
    [
        (BratDocument("d", "abc", [Entity("T1", "x", 0, 3, "abd")]), "differs"),
        (BratDocument("d", "abc", [Entity("T1", "x", 0, 4, "abc")]), "not a span"),
        (BratDocument("d", "abc", [Entity("T1", "x", 2, 2, "")]), "not a span"),
        (BratDocument("d", "abc", [Entity("T1", "x y", 0, 3, "abc")]), "whitespace"),
        (BratDocument("d", "abc", [Entity("T1", "", 0, 3, "abc")]), "empty"),
        (BratDocument("d", "abc", [Entity("T1", "x", 0, 3, "abc", ((0, 2), (1, 3)))]),
         "not ordered, disjoint"),
        (BratDocument("d", "abc", [Entity("T1", "x", 0, 3, "abc", ((0, 1), (2, 4)))]),
         "not ordered, disjoint"),
        (BratDocument("d", "a\nb", [Entity("T1", "x", 0, 3, "a\nb", ((0, 3),))]),
         "crosses a line break"),
        (BratDocument("d", "abc", [Entity("R1", "x", 0, 3, "abc")]), "'T' followed"),
        (
            BratDocument("d", "abc", [Entity("T1", "x", 0, 1, "a"), Entity("T1", "x", 1, 2, "b")]),
            "used twice",
        ),
        (BratDocument("d", "abc", [], ["R1\tx\ny"]), "single line"),
        (BratDocument("", "abc"), "file name"),
        (BratDocument("..", "abc"), "file name"),
        (BratDocument("a/b", "abc"), "file name"),
        (BratDocument("a\x00b", "abc"), r"holds the character '\\x00'"),
        (BratDocument("x" * 300, "abc"), "longer than 250 bytes"),
        (BratDocument("d", "IL\ud800-2"), "not valid Unicode"),
    ],
)
def test_write_validation(tmp_path, doc, match):
    with pytest.raises(ValueError, match=match):
        write_brat(tmp_path / "out", doc)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_write_requires_brat_document(tmp_path):
    with pytest.raises(TypeError, match="BratDocument"):
        write_brat(tmp_path, {"id": "x"})
    with pytest.raises(TypeError, match="not Entity"):
        write_brat(tmp_path, BratDocument("d", "abc", [("x", 0, 1)]))


def test_write_replaces_existing_files_atomically(tmp_path):
    doc = BratDocument("d", "abc", entities_from_spans("abc", [("x", 0, 3)]))
    (tmp_path / "d.ann").write_text("old")
    write_brat(tmp_path, doc)
    assert (tmp_path / "d.ann").read_text() == "T1\tx 0 3\tabc\n"
    assert sorted(os.listdir(tmp_path)) == ["d.ann", "d.txt"]


# --------------------------------------------------------------------------
# entities_from_spans
# --------------------------------------------------------------------------


def test_entities_from_spans_sorted_and_numbered():
    text = "IL-2 gene expression"
    ents = entities_from_spans(text, [("DNA", 0, 9), ("protein", 0, 4), ("x", 10, 20)])
    assert ents == [
        Entity("T1", "protein", 0, 4, "IL-2"),
        Entity("T2", "DNA", 0, 9, "IL-2 gene"),
        Entity("T3", "x", 10, 20, "expression"),
    ]
    assert entities_from_spans(text, []) == []


def test_entities_from_spans_accepts_numpy_integers():
    ents = entities_from_spans("abc", [("x", np.int64(0), np.int32(2))])
    assert ents == [Entity("T1", "x", 0, 2, "ab")]
    assert type(ents[0].start) is int


@pytest.mark.parametrize(
    "span, exc, match",
    [
        (("x", 0, 10), ValueError, "outside the text"),
        (("x", 2, 2), ValueError, "empty"),
        (("x", -1, 2), ValueError, "outside"),
        (("x", 0.0, 2), TypeError, "integers"),
        (("x", True, 2), TypeError, "integers"),
        (("x y", 0, 2), ValueError, "whitespace"),
        ((3, 0, 2), TypeError, "str"),
        (("x", 0), ValueError, "triple"),
    ],
)
def test_entities_from_spans_errors(span, exc, match):
    with pytest.raises(exc, match=match):
        entities_from_spans("abcdef", [span])


# --------------------------------------------------------------------------
# real data
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_real_standoff_read_all(data_path):
    directory = data_path("jnlpba", "test-standoff")
    docs = read_brat_dir(directory)
    assert len(docs) == 404
    ids = [d.id for d in docs]
    assert ids == sorted(ids) and len(set(ids)) == 404
    for doc in docs:
        for e in doc.entities:
            assert doc.text[e.start : e.end] == e.text
    counts = Counter(e.type for d in docs for e in d.entities)
    # the same test abstracts as test.iob2, whose official entity counts these are
    assert counts == {"protein": 5067, "DNA": 1056, "RNA": 118, "cell_line": 500, "cell_type": 1921}


@pytest.mark.slow
def test_real_standoff_write_read_roundtrip(data_path, tmp_path):
    directory = data_path("jnlpba", "test-standoff")
    docs = read_brat_dir(directory)
    out = tmp_path / "standoff"
    for doc in docs:
        txt, ann = write_brat(out, doc)
        # the published files are in exactly the written form
        assert txt.read_bytes() == (directory / f"{doc.id}.txt").read_bytes()
        assert ann.read_bytes() == (directory / f"{doc.id}.ann").read_bytes()
    back = read_brat_dir(out)
    assert back == docs


@pytest.mark.slow
def test_real_standoff_renumbered_from_spans(data_path, tmp_path):
    directory = data_path("jnlpba", "test-standoff")
    doc = read_brat_dir(directory)[0]
    rebuilt = BratDocument(doc.id, doc.text, entities_from_spans(doc.text, doc.spans()))
    write_brat(tmp_path, rebuilt, write_text=True)
    back = read_brat(tmp_path / f"{doc.id}.txt")
    assert back.spans() == doc.spans()
    assert [e.id for e in back.entities] == [f"T{i}" for i in range(1, len(doc.entities) + 1)]


def test_entity_across_line_breaks_is_written_as_fragments(tmp_path):
    # issue 11, item 1: an entity crossing a line break used to stop the batch
    text = "OBJECTIVE:\nIL-2\r\n  receptor alpha\nbinds."
    start, end = text.index("IL-2"), text.index(" alpha") + len(" alpha")
    doc = BratDocument("d", text, [Entity("", "protein", start, end, text[start:end]),
                                   Entity("", "x", 0, 9, "OBJECTIVE")])
    _, ann = write_brat(tmp_path, doc)
    a = text.index("receptor")
    assert ann.read_text().splitlines()[1] == (
        f"T2\tprotein {start} {start + 4};{a} {end}\tIL-2 receptor alpha")
    [objective, protein] = read_brat(tmp_path / "d.txt").entities
    assert (protein.start, protein.end, protein.text) == (start, end, text[start:end])
    assert protein.fragments == ((start, start + 4), (a, end)) and objective.fragments is None
    # written back as read
    write_brat(tmp_path / "again", read_brat(tmp_path / "d.txt"))
    assert (tmp_path / "again" / "d.ann").read_bytes() == ann.read_bytes()


def test_write_brat_numbers_entities_and_keeps_their_fragments(tmp_path):
    # an entity without an id keeps its discontinuous fragments when it is numbered
    text = "IL-2 and IL-4 genes"
    doc = BratDocument("d", text, [
        Entity("", "DNA", 0, 19, text, fragments=((0, 4), (14, 19))),
        Entity("T7", "DNA", 9, 19, "IL-4 genes"),
    ])
    write_brat(tmp_path, doc)
    back = read_brat(tmp_path / "d.txt")
    assert [(e.id, e.fragments) for e in back.entities] == [("T8", ((0, 4), (14, 19))),
                                                            ("T7", None)]
