"""Tests for column files: JNLPBA / GENIA IOB2 and CoNLL style."""

import io
import os
import pickle
import stat
from collections import Counter

import numpy as np
import pytest
from sklearn.model_selection import GroupKFold

from skbioner import Sentence
from skbioner.io import (
    ColumnCorpus,
    CorpusFormatError,
    read_columns,
    read_conll,
    read_jnlpba,
    read_tokenized,
    write_columns,
)
from tests.io.helpers import assert_format_error

JNLPBA_SMALL = (
    "###MEDLINE:111\n"
    "\n"
    "IL-2\tB-DNA\n"
    "gene\tI-DNA\n"
    "expression\tO\n"
    "\n"
    "NF-kappa\tB-protein\n"
    "B\tI-protein\n"
    "\n"
    "###MEDLINE:222\n"
    "\n"
    "T\tB-cell_type\n"
    "cells\tI-cell_type\n"
    ".\tO\n"
    "\n"
)

CONLL_SMALL = (
    "-DOCSTART- -X- -X- O\n"
    "\n"
    "EU NNP B-NP B-ORG\n"
    "rejects VBZ B-VP O\n"
    "\n"
    "Peter NNP B-NP B-PER\n"
    "\n"
    "-DOCSTART- -X- -X- O\n"
    "\n"
    "BRUSSELS NNP B-NP B-LOC\n"
    "\n"
)


def roundtrip_bytes(corpus, tmp_path, name="out.txt", **kwargs):
    out = tmp_path / name
    write_columns(out, corpus, **kwargs)
    return out.read_bytes()




# --------------------------------------------------------------------------
# CorpusFormatError
# --------------------------------------------------------------------------


def test_error_message_and_attributes():
    err = CorpusFormatError("a/b.iob2", 7, "bad thing")
    assert isinstance(err, ValueError)
    assert str(err) == "a/b.iob2:7: bad thing"
    assert (err.path, err.line, err.message) == ("a/b.iob2", 7, "bad thing")
    assert str(CorpusFormatError("x.iob2", None, "empty")) == "x.iob2: empty"


def test_error_pickles():
    err = CorpusFormatError("f.iob2", 3, "oops")
    back = pickle.loads(pickle.dumps(err))
    assert (back.path, back.line, back.message, str(back)) == (
        err.path,
        err.line,
        err.message,
        str(err),
    )


def test_error_accepts_path_objects(tmp_path):
    err = CorpusFormatError(tmp_path / "f.iob2", 1, "m")
    assert err.path == str(tmp_path / "f.iob2")


# --------------------------------------------------------------------------
# reading: small files
# --------------------------------------------------------------------------


def test_read_jnlpba_small(write_file):
    path = write_file("small.iob2", JNLPBA_SMALL)
    corpus = read_jnlpba(path)
    assert isinstance(corpus, ColumnCorpus)
    assert len(corpus) == 3
    assert [list(s) for s in corpus.X] == [
        ["IL-2", "gene", "expression"],
        ["NF-kappa", "B"],
        ["T", "cells", "."],
    ]
    assert all(isinstance(s, Sentence) and s.annotations == {} for s in corpus.X)
    assert corpus.y == [
        ["B-DNA", "I-DNA", "O"],
        ["B-protein", "I-protein"],
        ["B-cell_type", "I-cell_type", "O"],
    ]
    assert corpus.doc_ids == ["111", "111", "222"]
    assert corpus.documents() == [("111", [0, 1]), ("222", [2])]
    assert corpus.path == str(path)
    assert "n_sentences=3" in repr(corpus) and "n_tokens=8" in repr(corpus)


def test_read_columns_accepts_str_path_and_roundtrips(write_file, tmp_path):
    path = write_file("small.iob2", JNLPBA_SMALL)
    corpus = read_columns(str(path))
    assert roundtrip_bytes(corpus, tmp_path) == path.read_bytes()


def test_no_document_markers_gives_empty_ids(write_file, tmp_path):
    path = write_file("plain.iob2", "a\tO\nb\tB-x\n\nc\tO\n\n")
    corpus = read_columns(path)
    assert corpus.doc_ids == ["", ""]
    assert corpus.documents() == [("", [0, 1])]
    assert roundtrip_bytes(corpus, tmp_path) == path.read_bytes()


def test_ill_formed_sequences_are_not_errors(write_file):
    path = write_file("ill.iob2", "a\tO\nb\tI-DNA\nc\tI-RNA\n\n")
    corpus = read_columns(path)
    assert corpus.y == [["O", "I-DNA", "I-RNA"]]


def test_scheme_alias_and_other_schemes(write_file):
    path = write_file("iobes.txt", "a\tS-x\nb\tB-y\nc\tE-y\n\n")
    assert read_columns(path, scheme="IOBES").y == [["S-x", "B-y", "E-y"]]
    path2 = write_file("bio.txt", "a\tB-x\nb\tO\n\n")
    assert read_columns(path2, scheme="BIO").y == [["B-x", "O"]]
    with pytest.raises(ValueError, match="unknown scheme"):
        read_columns(path2, scheme="XYZ")


def test_scheme_none_reads_raw_last_column(write_file):
    path = write_file("pos.tsv", "###MEDLINE:1\n\nIL-2\tNN\nis\tVBZ\n\n")
    corpus = read_columns(path, label_col=-1, scheme=None)
    assert corpus.y == [["NN", "VBZ"]]
    corpus = read_columns(path, keep={"pos": 1}, label_col=None)
    assert corpus.y is None
    assert corpus.X[0].column("pos") == ("NN", "VBZ")


def test_label_col_none_scheme_ignored(write_file):
    path = write_file("tokens.txt", "a\nb\n\nc\n\n")
    corpus = read_columns(path, label_col=None)
    assert corpus.y is None
    assert [list(s) for s in corpus.X] == [["a", "b"], ["c"]]


def test_token_col_and_negative_indices(write_file):
    path = write_file("rev.txt", "B-x\tNN\tIL-2\nO\tVBZ\tis\n\n")
    corpus = read_columns(path, token_col=-1, label_col=0, keep={"pos": -2})
    assert list(corpus.X[0]) == ["IL-2", "is"]
    assert corpus.X[0].column("pos") == ("NN", "VBZ")
    assert corpus.y == [["B-x", "O"]]


def test_numpy_integer_indices_accepted(write_file):
    path = write_file("np.txt", "a\tNN\tO\n\n")
    corpus = read_columns(path, token_col=np.int64(0), keep={"pos": np.int32(1)})
    assert corpus.X[0].column("pos") == ("NN",)


def test_keep_is_not_modified(write_file):
    path = write_file("k.txt", "a\tNN\tO\n\n")
    keep = {"pos": -2}
    read_columns(path, keep=keep)
    assert keep == {"pos": -2}


def test_extra_blank_lines_and_marker_followed_by_tokens_roundtrip(write_file, tmp_path):
    content = "\n\n###MEDLINE:9\na\tO\n\n\n\nb\tB-x\n\n###MEDLINE:10\n\n\nc\tO\n\n\n"
    path = write_file("odd.iob2", content)
    corpus = read_columns(path)
    assert corpus.doc_ids == ["9", "9", "10"]
    assert roundtrip_bytes(corpus, tmp_path) == content.encode()


def test_trailing_marker_without_final_newline_roundtrips(write_file, tmp_path):
    content = "a\tO\n\n-DOCSTART-"
    path = write_file("tail.iob2", content)
    corpus = read_columns(path)
    assert corpus.doc_ids == [""]
    assert roundtrip_bytes(corpus, tmp_path) == content.encode()


def test_documents_split_at_markers_even_with_same_id(write_file):
    content = (
        "###MEDLINE:1\n\na\tO\n\n###MEDLINE:1\n\nb\tO\n\n"
        "###MEDLINE:2\n\nc\tO\n\n###MEDLINE:1\n\nd\tO\n\n"
    )
    corpus = read_columns(write_file("dup.iob2", content))
    assert corpus.doc_ids == ["1", "1", "2", "1"]
    assert corpus.documents() == [("1", [0]), ("1", [1]), ("2", [2]), ("1", [3])]


def test_empty_documents_are_not_listed(write_file):
    content = "###MEDLINE:1\n\n###MEDLINE:2\n\na\tO\n\n"
    corpus = read_columns(write_file("emptydoc.iob2", content))
    assert corpus.doc_ids == ["2"]
    assert corpus.documents() == [("2", [0])]


def test_utf8_tokens(write_file, tmp_path):
    content = "α-helix\tB-protein\nβ\tI-protein\n\n"
    path = write_file("greek.iob2", content)
    corpus = read_columns(path)
    assert list(corpus.X[0]) == ["α-helix", "β"]
    assert roundtrip_bytes(corpus, tmp_path) == content.encode()


def test_other_encoding(write_file, tmp_path):
    content = "caf\xe9\tO\n\n".encode("latin-1")
    path = write_file("latin.iob2", content)
    corpus = read_columns(path, encoding="latin-1")
    assert list(corpus.X[0]) == ["caf\xe9"]
    assert roundtrip_bytes(corpus, tmp_path) == content


# --------------------------------------------------------------------------
# CRLF
# --------------------------------------------------------------------------


def test_crlf_roundtrip(write_file, tmp_path):
    content = JNLPBA_SMALL.replace("\n", "\r\n")
    path = write_file("crlf.iob2", content)
    corpus = read_jnlpba(path)
    assert corpus.y[0] == ["B-DNA", "I-DNA", "O"]  # no stray \r in labels
    assert list(corpus.X[0]) == ["IL-2", "gene", "expression"]
    assert corpus.doc_ids == ["111", "111", "222"]
    data = roundtrip_bytes(corpus, tmp_path)
    assert data == content.encode()
    relabelled = roundtrip_bytes(
        corpus, tmp_path, "relabel.txt", y=[["O"] * len(s) for s in corpus.X]
    )
    assert b"\r\n" in relabelled and relabelled.count(b"\n") == relabelled.count(b"\r\n")


def test_crlf_file_with_bare_lf_is_error(write_file):
    path = write_file("mixed.iob2", "a\tO\r\nb\tO\n\r\n")
    with pytest.raises(CorpusFormatError, match="mixed line endings") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 2)


def test_lf_file_with_cr_is_error(write_file):
    path = write_file("mixed2.iob2", "a\tO\n\nb\tO\r\n\n")
    with pytest.raises(CorpusFormatError, match="carriage return") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 3)


def test_old_mac_line_endings_are_error(write_file):
    path = write_file("mac.iob2", "a\tO\r\rb\tO\r\r")
    with pytest.raises(CorpusFormatError) as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 1)


# --------------------------------------------------------------------------
# CoNLL
# --------------------------------------------------------------------------


def test_read_conll_docstart_and_keep(write_file, tmp_path):
    path = write_file("eng.conll", CONLL_SMALL)
    corpus = read_conll(path, keep={"pos": 1, "chunk": 2})
    assert [list(s) for s in corpus.X] == [["EU", "rejects"], ["Peter"], ["BRUSSELS"]]
    assert corpus.X[0].column("pos") == ("NNP", "VBZ")
    assert corpus.X[0].column("chunk") == ("B-NP", "B-VP")
    assert corpus.y == [["B-ORG", "O"], ["B-PER"], ["B-LOC"]]
    assert corpus.doc_ids == ["doc0", "doc0", "doc1"]
    assert corpus.documents() == [("doc0", [0, 1]), ("doc1", [2])]
    assert roundtrip_bytes(corpus, tmp_path) == path.read_bytes()


def test_read_conll_without_keep_roundtrips_hidden_columns(write_file, tmp_path):
    path = write_file("eng.conll", CONLL_SMALL)
    corpus = read_conll(path)
    assert corpus.X[0].annotations == {}
    assert roundtrip_bytes(corpus, tmp_path) == path.read_bytes()
    new_y = [["O"] * len(s) for s in corpus.X]
    text = roundtrip_bytes(corpus, tmp_path, "o.conll", y=new_y).decode()
    assert "EU NNP B-NP O\n" in text
    assert text.count("-DOCSTART- -X- -X- O\n") == 2


def test_conll_tab_separated_docstart(write_file, tmp_path):
    content = "-DOCSTART-\tO\n\nEU\tB-ORG\n\n"
    path = write_file("tab.conll", content)
    corpus = read_conll(path, sep="\t")
    assert corpus.doc_ids == ["doc0"]
    assert roundtrip_bytes(corpus, tmp_path) == content.encode()


def test_conll_sentences_before_first_docstart(write_file):
    content = "a O\n\n-DOCSTART- O\n\nb O\n\n"
    corpus = read_conll(write_file("pre.conll", content))
    assert corpus.doc_ids == ["", "doc0"]


def test_conll_double_space_is_column_error(write_file):
    path = write_file("sp.conll", "EU NNP B-ORG\nrejects  VBZ O\n\n")
    with pytest.raises(CorpusFormatError, match="expected 3 column") as excinfo:
        read_conll(path)
    assert_format_error(excinfo, path, 2)


# --------------------------------------------------------------------------
# reading: errors
# --------------------------------------------------------------------------


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        read_columns("/nonexistent/dir/file.iob2")


def test_empty_file(write_file):
    path = write_file("empty.iob2", "")
    with pytest.raises(CorpusFormatError, match="empty") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, None)


@pytest.mark.parametrize("content", ["\n", "\n\n\n", "###MEDLINE:1\n\n", "-DOCSTART- O\n\n"])
def test_file_without_sentences(write_file, content):
    path = write_file("nosent.iob2", content)
    with pytest.raises(CorpusFormatError, match="no sentence") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, None)


def test_wrong_column_count(write_file):
    path = write_file("cols.iob2", "###MEDLINE:1\n\na\tO\n\nb\tNN\tO\n\n")
    with pytest.raises(CorpusFormatError) as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 5)
    assert "expected 2 column" in str(excinfo.value)
    assert "found 3" in str(excinfo.value)


def test_too_few_columns(write_file):
    path = write_file("cols.iob2", "a\tO\nb\n\n")
    with pytest.raises(CorpusFormatError, match="expected 2 .* found 1") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 2)


@pytest.mark.parametrize("bad_line", ["\tO", " \tO", "\t\tO"])
def test_empty_token(write_file, bad_line):
    ncols = bad_line.count("\t") + 1
    good = "\t".join(["a"] * (ncols - 1) + ["O"])
    path = write_file("tok.iob2", f"{good}\n\n{good}\n{bad_line}\n\n")
    with pytest.raises(CorpusFormatError, match="empty token") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 4)


def test_whitespace_only_line(write_file):
    path = write_file("ws.iob2", "a\tO\n \n")
    with pytest.raises(CorpusFormatError, match="only whitespace") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 2)


def test_invalid_label(write_file):
    path = write_file("lab.iob2", "###MEDLINE:1\n\na\tO\nb\tB_DNA\n\n")
    with pytest.raises(CorpusFormatError) as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 4)
    msg = str(excinfo.value)
    assert "'B_DNA'" in msg and "IOB2" in msg and "O, B-x, I-x" in msg


def test_invalid_label_for_declared_scheme(write_file):
    path = write_file("lab.iob2", "a\tB-x\nb\tE-x\n\n")
    with pytest.raises(CorpusFormatError) as excinfo:
        read_columns(path, scheme="IOB2")
    assert_format_error(excinfo, path, 2)
    assert "'E-x'" in str(excinfo.value)
    with pytest.raises(CorpusFormatError, match="B-O, I-O, B-x, I-x") as excinfo:
        read_columns(path, scheme="BI")
    assert_format_error(excinfo, path, 2)
    assert read_columns(path, scheme="IOBES").y == [["B-x", "E-x"]]


def test_plain_o_invalid_in_o_class_scheme(write_file):
    path = write_file("bi.txt", "a\tB-O\nb\tO\n\n")
    with pytest.raises(CorpusFormatError, match="'O' is not a valid BI label") as excinfo:
        read_columns(path, scheme="BI")
    assert_format_error(excinfo, path, 2)


def test_label_with_trailing_space_is_invalid(write_file):
    path = write_file("sp.iob2", "a\tO \n\n")
    with pytest.raises(CorpusFormatError, match="'O '") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 1)


def test_empty_label_even_without_scheme(write_file):
    path = write_file("el.txt", "a\tNN\nb\t\n\n")
    with pytest.raises(CorpusFormatError, match="empty label") as excinfo:
        read_columns(path, scheme=None)
    assert_format_error(excinfo, path, 2)


def test_undecodable_bytes(write_file):
    data = b"a\tO\n\nb\xff\tO\n\n"
    path = write_file("bad.iob2", data)
    with pytest.raises(CorpusFormatError) as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 3)
    assert "byte offset 6" in str(excinfo.value)
    assert "\\xff" in str(excinfo.value)


def test_undecodable_bytes_on_first_line(write_file):
    path = write_file("bad.iob2", b"\xc3(\tO\n\n")
    with pytest.raises(CorpusFormatError, match="byte offset 0") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 1)


@pytest.mark.parametrize("ending", ["\n", "", "\r\n"])
def test_last_sentence_ended_by_the_end_of_the_file(write_file, ending):
    # no empty line after the last sentence (many CoNLL files), with or without a final
    # line break: the end of the file ends the sentence, and the file is written back as is
    newline = "\r\n" if ending == "\r\n" else "\n"
    content = newline.join(["a\tB-DNA", "", "b\tO", "c\tB-DNA"]) + ending
    path = write_file("end.iob2", content)
    corpus = read_columns(path)
    assert [list(s) for s in corpus.X] == [["a"], ["b", "c"]]
    assert corpus.y == [["B-DNA"], ["O", "B-DNA"]]
    assert corpus.line_of(1, 1) == 4
    out = io.BytesIO()
    write_columns(out, corpus, y=[["O"], ["O", "O"]])
    assert out.getvalue().decode() == content.replace("B-DNA", "O")
    out = io.BytesIO()
    write_columns(out, corpus)
    assert out.getvalue().decode() == content


def test_last_line_cut_in_a_field_is_an_error(write_file):
    # without a final line break, a last line with fewer fields than the others ...
    path = write_file("cut.iob2", "a\tNN\tB-DNA\n\nb\tNN\tO\nc\tNN")
    with pytest.raises(CorpusFormatError, match="truncated") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 4)


def test_last_label_cut_short_is_an_error(write_file):
    # ... or whose label's type occurs nowhere else: 'B-DN' in a file of DNA labels
    path = write_file("cut.iob2", "a\tB-DNA\n\nb\tO\nc\tB-DN")
    with pytest.raises(CorpusFormatError, match="truncated") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 4)
    assert "'DN'" in str(excinfo.value)
    # with its line break the same file is complete: a type of its own is then believed
    assert read_columns(write_file("ok.iob2", "a\tB-DNA\n\nb\tO\nc\tB-DN\n")).y[1] == [
        "O", "B-DN"]
    # and a type seen before is no sign of a cut
    assert read_columns(write_file("ok2.iob2", "a\tB-DNA\n\nb\tO\nc\tI-DNA")).y[1] == [
        "O", "I-DNA"]


@pytest.mark.parametrize(("content", "sep"), [
    ("a\tB-DNA\n\nb c\tO\n\n", "\t"),            # tab-separated, a token with a space
    ("###MEDLINE:1\n\na NN B-DNA\n\n", " "),       # CoNLL: space-separated
    ("-DOCSTART- -X- O\n\na B-DNA\nb O\n\n", " "),
    ("a\n\nb\n\n", "\t"),                           # one column
])
def test_auto_separator(write_file, content, sep):
    path = write_file("auto.txt", content)
    corpus = read_columns(path, sep="auto", label_col="auto")
    assert corpus._layout.sep == sep
    assert corpus.X == read_columns(path, sep=sep, label_col="auto").X
    out = io.BytesIO()
    write_columns(out, corpus)
    assert out.getvalue().decode() == content


@pytest.mark.parametrize("marker", ["###MEDLINE:2", "-DOCSTART- -X- O", "-DOCSTART-"])
def test_marker_inside_sentence(write_file, marker):
    path = write_file("marker.iob2", f"###MEDLINE:1\n\na\tO\n{marker}\n\nb\tO\n\n")
    with pytest.raises(CorpusFormatError, match="inside a sentence") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 4)


def test_marker_without_id(write_file):
    path = write_file("noid.iob2", "###MEDLINE:\n\na\tO\n\n")
    with pytest.raises(CorpusFormatError, match="no document id") as excinfo:
        read_columns(path)
    assert_format_error(excinfo, path, 1)


def test_docstart_prefix_token_is_a_token(write_file):
    path = write_file("tok.txt", "-DOCSTART-ish O\n\n")
    corpus = read_conll(path)
    assert list(corpus.X[0]) == ["-DOCSTART-ish"]


@pytest.mark.parametrize(
    "kwargs, what",
    [
        ({"label_col": 2}, "label_col=2"),
        ({"label_col": -3}, "label_col=-3"),
        ({"token_col": 5}, "token_col=5"),
        ({"keep": {"pos": 2}}, "keep['pos']=2"),
        ({"keep": {"pos": -3}}, "keep['pos']=-3"),
    ],
)
def test_column_index_out_of_range(write_file, kwargs, what):
    path = write_file("idx.iob2", "###MEDLINE:1\n\na\tO\n\n")
    with pytest.raises(CorpusFormatError) as excinfo:
        read_columns(path, **kwargs)
    assert_format_error(excinfo, path, 3)
    assert what in str(excinfo.value) and "2 column" in str(excinfo.value)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"token_col": 1}, "both select column 1"),
        ({"keep": {"pos": 0}}, "both select column 0"),
        ({"keep": {"pos": 1}}, "both select column 1"),
        ({"keep": {"a": 0, "b": 0}, "token_col": 1, "label_col": None}, "both select"),
    ],
)
def test_overlapping_columns(write_file, kwargs, match):
    path = write_file("ov.iob2", "a\tO\n\n")
    with pytest.raises(CorpusFormatError, match=match) as excinfo:
        read_columns(path, **kwargs)
    assert_format_error(excinfo, path, 1)


def test_single_column_file_needs_label_col_none(write_file):
    path = write_file("one.txt", "a\n\n")
    with pytest.raises(CorpusFormatError, match="label_col=None"):
        read_columns(path)


@pytest.mark.parametrize(
    "kwargs, exc",
    [
        ({"keep": ["pos"]}, TypeError),
        ({"keep": {"word": 1}}, ValueError),
        ({"keep": {"": 1}}, ValueError),
        ({"keep": {"pos": "1"}}, TypeError),
        ({"token_col": True}, TypeError),
        ({"label_col": 1.0}, TypeError),
        ({"sep": ""}, ValueError),
        ({"sep": "\n"}, ValueError),
    ],
)
def test_invalid_arguments(write_file, kwargs, exc):
    path = write_file("args.iob2", "a\tO\n\n")
    with pytest.raises(exc):
        read_columns(path, **kwargs)


# --------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------


def test_write_with_new_labels(write_file, tmp_path):
    path = write_file("small.iob2", JNLPBA_SMALL)
    corpus = read_jnlpba(path)
    y = [["O"] * len(s) for s in corpus.X]
    y[0][0] = "B-RNA"
    y_copy = [list(labels) for labels in y]
    y_before = [list(labels) for labels in corpus.y]
    out = tmp_path / "pred.iob2"
    write_columns(out, corpus, y=y)
    assert y == y_copy and corpus.y == y_before  # inputs untouched
    back = read_jnlpba(out)
    assert back.y == y
    assert back.X == corpus.X and back.doc_ids == corpus.doc_ids
    expected = [line.split("\t")[0] if "\t" in line else line for line in JNLPBA_SMALL.splitlines()]
    got = [line.split("\t")[0] if "\t" in line else line for line in out.read_text().splitlines()]
    assert got == expected


def test_write_y_wrong_sentence_count(write_file, tmp_path):
    corpus = read_jnlpba(write_file("small.iob2", JNLPBA_SMALL))
    with pytest.raises(ValueError, match="2 label sequences but there are 3 sentences"):
        write_columns(tmp_path / "o.iob2", corpus, y=[["O"] * 3, ["O"] * 2])
    assert not (tmp_path / "o.iob2").exists()


def test_write_y_wrong_token_count_names_sentence(write_file, tmp_path):
    corpus = read_jnlpba(write_file("small.iob2", JNLPBA_SMALL))
    y = [["O"] * 3, ["O"] * 3, ["O"] * 3]
    with pytest.raises(ValueError, match=r"y\[1\] has 3 labels but sentence 1 has 2 tokens"):
        write_columns(tmp_path / "o.iob2", corpus, y=y)


@pytest.mark.parametrize("bad", ["B-x\ty", "O\n", "", "  "])
def test_write_rejects_unwritable_labels(write_file, tmp_path, bad):
    corpus = read_jnlpba(write_file("small.iob2", JNLPBA_SMALL))
    y = [["O"] * len(s) for s in corpus.X]
    y[2][1] = bad
    with pytest.raises(ValueError, match="sentence 2, token 1"):
        write_columns(tmp_path / "o.iob2", corpus, y=y)


def test_write_rejects_non_str_labels(write_file, tmp_path):
    corpus = read_jnlpba(write_file("small.iob2", JNLPBA_SMALL))
    y = [["O"] * len(s) for s in corpus.X]
    y[0][0] = 3
    with pytest.raises(TypeError, match="sentence 0, token 0"):
        write_columns(tmp_path / "o.iob2", corpus, y=y)


def test_write_rejects_changed_tokenisation(write_file, tmp_path):
    corpus = read_jnlpba(write_file("small.iob2", JNLPBA_SMALL))
    corpus.X = list(corpus.X)
    corpus.X[1] = Sentence(["NF-kappa", "B", "extra"])
    corpus.y = None
    with pytest.raises(ValueError, match="sentence 1 has 3 tokens but had 2"):
        write_columns(tmp_path / "o.iob2", corpus)
    corpus.X = corpus.X[:2]
    with pytest.raises(ValueError, match="2 sentences"):
        write_columns(tmp_path / "o.iob2", corpus)


def test_write_changed_words_and_annotations(write_file, tmp_path):
    corpus = read_conll(write_file("eng.conll", CONLL_SMALL), keep={"pos": 1})
    corpus.X = [
        s.with_annotations(pos=["XX"] * len(s)) if i == 0 else Sentence([w.lower() for w in s])
        for i, s in enumerate(corpus.X)
    ]
    text = roundtrip_bytes(corpus, tmp_path).decode()
    assert "EU XX B-NP B-ORG\n" in text
    assert "peter NNP B-NP B-PER\n" in text  # missing annotation: value from the file


def test_write_rejects_word_with_separator(write_file, tmp_path):
    corpus = read_conll(write_file("eng.conll", CONLL_SMALL))
    corpus.X = [Sentence(["E U", "rejects"])] + corpus.X[1:]
    with pytest.raises(ValueError, match="separator"):
        write_columns(tmp_path / "o.conll", corpus)


def test_write_rejects_word_that_reads_as_marker(write_file, tmp_path):
    corpus = read_conll(write_file("eng.conll", CONLL_SMALL))
    corpus.X = [Sentence(["-DOCSTART-", "rejects"])] + corpus.X[1:]
    with pytest.raises(ValueError, match="document marker"):
        write_columns(tmp_path / "o.conll", corpus)


def test_write_appends_labels_to_unlabelled_file(write_file, tmp_path):
    path = write_file("pos.tsv", "###MEDLINE:1\n\nIL-2\tNN\nis\tVBZ\n\n")
    corpus = read_columns(path, keep={"pos": 1}, label_col=None)
    out = tmp_path / "pred.tsv"
    write_columns(out, corpus, y=[["B-protein", "O"]])
    assert out.read_text() == "###MEDLINE:1\n\nIL-2\tNN\tB-protein\nis\tVBZ\tO\n\n"
    # without y the unlabelled file is reproduced
    write_columns(out, corpus)
    assert out.read_bytes() == path.read_bytes()


def test_write_to_text_and_binary_file_objects(write_file):
    content = JNLPBA_SMALL.replace("\n", "\r\n")
    corpus = read_jnlpba(write_file("crlf.iob2", content))
    text = io.StringIO(newline="")
    write_columns(text, corpus)
    assert text.getvalue() == content
    binary = io.BytesIO()
    write_columns(binary, corpus)
    assert binary.getvalue() == content.encode()


def test_write_to_file_opened_by_caller(write_file, tmp_path):
    corpus = read_jnlpba(write_file("small.iob2", JNLPBA_SMALL))
    out = tmp_path / "opened.iob2"
    with open(out, "w", encoding="utf-8", newline="") as f:
        write_columns(f, corpus)
    assert out.read_text() == JNLPBA_SMALL
    with open(out, "wb") as f:
        write_columns(f, corpus)
    assert out.read_text() == JNLPBA_SMALL


def test_write_is_atomic_and_leaves_no_temp_files(write_file, tmp_path):
    path = write_file("small.iob2", JNLPBA_SMALL)
    corpus = read_jnlpba(path)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "o.iob2"
    out.write_text("old content")
    bad_y = [["O"] * len(s) for s in corpus.X]
    bad_y[2][0] = "B-x\ty"
    with pytest.raises(ValueError):
        write_columns(out, corpus, y=bad_y)
    assert out.read_text() == "old content"
    write_columns(out, corpus)
    assert out.read_bytes() == path.read_bytes()
    assert sorted(p.name for p in out_dir.iterdir()) == ["o.iob2"]


def test_write_over_input_file(write_file):
    path = write_file("small.iob2", JNLPBA_SMALL)
    corpus = read_jnlpba(path)
    write_columns(path, corpus, y=[["O"] * len(s) for s in corpus.X])
    assert set(Counter(label for s in read_jnlpba(path).y for label in s)) == {"O"}


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_write_keeps_mode_of_replaced_file(write_file, tmp_path):
    corpus = read_jnlpba(write_file("small.iob2", JNLPBA_SMALL))
    out = tmp_path / "o.iob2"
    out.write_text("x")
    out.chmod(0o640)
    write_columns(out, corpus)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.iob2"
    write_columns(fresh, corpus)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


def test_write_requires_column_corpus(tmp_path):
    with pytest.raises(TypeError, match="ColumnCorpus"):
        write_columns(tmp_path / "o.iob2", [["a"]])


def test_write_corpus_without_layout(tmp_path):
    corpus = ColumnCorpus(
        X=[Sentence(["IL-2", "gene"], pos=["NN", "NN"]), Sentence(["x"], pos=["SYM"])],
        y=[["B-DNA", "I-DNA"], ["O"]],
        doc_ids=["7", "8"],
        path="",
    )
    out = tmp_path / "plain.iob2"
    write_columns(out, corpus)
    assert out.read_text() == (
        "###MEDLINE:7\n\nIL-2\tNN\tB-DNA\ngene\tNN\tI-DNA\n\n###MEDLINE:8\n\nx\tSYM\tO\n\n"
    )
    back = read_columns(out, keep={"pos": 1})
    assert back.X == corpus.X and back.y == corpus.y and back.doc_ids == corpus.doc_ids


def test_write_corpus_without_layout_errors(tmp_path):
    corpus = ColumnCorpus(X=[["a"], ["b"]], y=None, doc_ids=[""], path="")
    with pytest.raises(ValueError, match="doc_ids"):
        write_columns(tmp_path / "o", corpus)
    corpus = ColumnCorpus(
        X=[Sentence(["a"], pos=["X"]), Sentence(["b"])], y=None, doc_ids=["", ""], path=""
    )
    with pytest.raises(ValueError, match="sentence 1 has no 'pos'"):
        write_columns(tmp_path / "o", corpus)
    corpus = ColumnCorpus(X=[["a"], ["b"]], y=None, doc_ids=["", ""], path="")
    write_columns(tmp_path / "o", corpus)
    assert (tmp_path / "o").read_text() == "a\n\nb\n\n"


def test_groupkfold_with_doc_ids(write_file):
    content = "".join(
        f"###MEDLINE:{d}\n\n" + "".join(f"w{d}{k}\tO\n\n" for k in range(3)) for d in range(6)
    )
    corpus = read_jnlpba(write_file("docs.iob2", content))
    assert len(corpus.doc_ids) == len(corpus.X) == 18
    groups = np.asarray(corpus.doc_ids)
    for train, test in GroupKFold(n_splits=3).split(corpus.X, corpus.y, groups=corpus.doc_ids):
        assert not set(groups[train]) & set(groups[test])


# --------------------------------------------------------------------------
# real data
# --------------------------------------------------------------------------

REAL_FILES = [
    (("jnlpba", "train.iob2"), {}),
    (("jnlpba", "test.iob2"), {}),
    (("genia-pos", "train.tsv"), {"keep": {"pos": 1}, "label_col": None}),
    (("genia-pos", "devel.tsv"), {"keep": {"pos": 1}, "label_col": None}),
    (("genia-pos", "test.tsv"), {"label_col": -1, "scheme": None}),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "parts, kwargs", REAL_FILES, ids=["/".join(p) + str(sorted(k)) for p, k in REAL_FILES]
)
def test_real_file_roundtrip_byte_for_byte(data_path, tmp_path, parts, kwargs):
    path = data_path(*parts)
    corpus = read_columns(path, **kwargs)
    original = path.read_bytes()
    assert roundtrip_bytes(corpus, tmp_path) == original
    if corpus.y is not None:
        # replacing the labels by themselves changes nothing either
        assert roundtrip_bytes(corpus, tmp_path, "same.txt", y=corpus.y) == original
    assert len(corpus.doc_ids) == len(corpus.X)
    assert all(corpus.doc_ids)


@pytest.mark.slow
def test_real_jnlpba_train_counts(data_path):
    corpus = read_jnlpba(data_path("jnlpba", "train.iob2"))
    assert len(corpus.X) == 18_696
    assert sum(len(s) for s in corpus.X) == 492_806
    assert len(corpus.documents()) == 2000
    assert len(set(corpus.doc_ids)) == 2000
    # the official figures count B- labels (train.iob2 has one sentence opening with
    # I-protein, which labels_to_spans reads as an extra entity)
    counts = Counter(lab[2:] for labels in corpus.y for lab in labels if lab.startswith("B-"))
    assert counts == {
        "protein": 30_269,
        "DNA": 9_533,
        "RNA": 951,
        "cell_line": 3_830,
        "cell_type": 6_718,
    }


@pytest.mark.slow
def test_real_jnlpba_test_counts_and_groups(data_path):
    corpus = read_jnlpba(data_path("jnlpba", "test.iob2"))
    assert len(corpus.X) == 3_856
    assert sum(len(s) for s in corpus.X) == 101_039
    assert len(corpus.documents()) == 404
    # the official figures count B- labels (train.iob2 has one sentence opening with
    # I-protein, which labels_to_spans reads as an extra entity)
    counts = Counter(lab[2:] for labels in corpus.y for lab in labels if lab.startswith("B-"))
    assert counts == {
        "protein": 5_067,
        "DNA": 1_056,
        "RNA": 118,
        "cell_line": 500,
        "cell_type": 1_921,
    }
    groups = np.asarray(corpus.doc_ids)
    for train, test in GroupKFold(n_splits=5).split(corpus.X, corpus.y, groups=corpus.doc_ids):
        assert not set(groups[train]) & set(groups[test])


@pytest.mark.slow
def test_real_jnlpba_predictions_written_in_place_of_labels(data_path, tmp_path):
    path = data_path("jnlpba", "test.iob2")
    corpus = read_jnlpba(path)
    y = [["O"] * len(s) for s in corpus.X]
    out = tmp_path / "pred.iob2"
    write_columns(out, corpus, y=y)
    original = path.read_text(encoding="utf-8").split("\n")
    written = out.read_text(encoding="utf-8").split("\n")
    assert len(original) == len(written)
    for a, b in zip(original, written, strict=True):
        if "\t" in a:
            assert b == a.split("\t")[0] + "\tO"
        else:
            assert a == b


@pytest.mark.slow
def test_real_genia_pos_annotations(data_path):
    corpus = read_columns(data_path("genia-pos", "devel.tsv"), keep={"pos": 1}, label_col=None)
    assert corpus.y is None
    assert sum(len(s) for s in corpus.X) == 51_227
    assert len(corpus.documents()) == 210
    tags = Counter(t for s in corpus.X for t in s.column("pos"))
    assert tags["NN"] > 1000


def test_read_tokenized(tmp_path):
    import gzip

    from skbioner.io import read_tokenized

    p = tmp_path / "u.txt"
    p.write_text("IL-2 gene  expression\n\n  NF-kappa B\tbinds .\r\n", encoding="utf-8")
    assert [list(s) for s in read_tokenized(p)] == [["IL-2", "gene", "expression"],
                                                    ["NF-kappa", "B", "binds", "."]]
    assert len(read_tokenized(p, max_sentences=1)) == 1
    with pytest.raises(ValueError, match="max_sentences must be None or a positive int"):
        read_tokenized(p, max_sentences=0)
    gz = tmp_path / "u.txt.gz"
    gz.write_bytes(gzip.compress(p.read_bytes()))
    assert read_tokenized(gz) == read_tokenized(p)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine line\nbad \xff byte\n")
    with pytest.raises(CorpusFormatError, match="cannot decode") as exc:
        read_tokenized(bad)
    assert_format_error(exc, bad, 2)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n \n")
    with pytest.raises(CorpusFormatError, match="no sentence") as exc:
        read_tokenized(empty)
    assert_format_error(exc, empty, None)


# --------------------------------------------------------------------------
# hostile files (issue 11)
# --------------------------------------------------------------------------


def test_byte_order_mark_is_not_text_and_is_written_back(write_file, tmp_path):
    # item 10: it was glued to the first token, or hid the ###MEDLINE line
    bom = b"\xef\xbb\xbf"
    p = write_file("bom.iob2", bom + b"###MEDLINE:7\n\nNumber\tO\nof\tO\n\n")
    corpus = read_jnlpba(p)
    assert corpus.doc_ids == ["7"] and corpus.X[0][0] == "Number"
    out = tmp_path / "out.iob2"
    write_columns(out, corpus)
    assert out.read_bytes() == p.read_bytes()
    q = write_file("bom2.iob2", bom + b"Number\tO\n\n")
    assert read_columns(q).X[0][0] == "Number"
    # utf-8-sig asked for a file without a BOM does not add one
    plain = write_file("plain.iob2", b"a\tO\n\n")
    write_columns(out, read_columns(plain, encoding="utf-8-sig"))
    assert out.read_bytes() == plain.read_bytes()


@pytest.mark.parametrize("content, line", [
    (b"IL-2\tB-prot\x00ein\n\n", 1),
    (b"a\tO\n\nIL\x00-2\tB-DNA\n\n", 3),
    (b"a\tO\nb\x07\tO\n\n", 2),
])
def test_control_characters_are_refused_with_the_line(write_file, content, line):
    # item 13: "B-prot\x00ein" became a class
    p = write_file("nul.iob2", content)
    with pytest.raises(CorpusFormatError, match="control character") as excinfo:
        read_columns(p, scheme=None)
    assert_format_error(excinfo, p, line)
    with pytest.raises(CorpusFormatError, match="control character"):
        read_tokenized(p)


def test_label_col_auto(write_file):
    two = read_columns(write_file("two.iob2", "a\tO\nb\tB-DNA\n\n"), label_col="auto",
                       scheme=None)
    assert two.y == [["O", "B-DNA"]]
    one = read_columns(write_file("one.txt", "a\nb\n\n"), label_col="auto", scheme=None)
    assert one.y is None and one.X[0] == Sentence(["a", "b"])


def test_line_of_tokens(write_file):
    corpus = read_jnlpba(write_file("l.iob2", "###MEDLINE:1\n\na\tO\nb\tO\n\n\nc\tO\n\n"))
    assert [corpus.line_of(0, 0), corpus.line_of(0, 1), corpus.line_of(1)] == [3, 4, 7]


def test_devices_unknown_encodings_and_fake_gzip(write_file, tmp_path):
    # items 9 and 14: MemoryError / LookupError tracebacks, gzip errors without the file
    with pytest.raises(CorpusFormatError, match="not a regular file or pipe") as excinfo:
        read_columns("/dev/zero")
    assert_format_error(excinfo, "/dev/zero", None)
    with pytest.raises(IsADirectoryError):
        read_columns(tmp_path)
    p = write_file("a.iob2", "a\tO\n\n")
    with pytest.raises(ValueError, match="unknown encoding 'bogus-enc'"):
        read_columns(p, encoding="bogus-enc")
    fake = write_file("fake.iob2.gz", "a\tO\n\n")
    with pytest.raises(CorpusFormatError, match="not a valid gzip file") as excinfo:
        read_columns(fake)
    assert_format_error(excinfo, fake, None)


def test_reads_a_pipe_once(tmp_path):
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text("a\tO\nb\tB-DNA\n\n"))
    writer.start()
    corpus = read_columns(fifo, label_col="auto", scheme=None)
    writer.join(timeout=30)
    assert corpus.y == [["O", "B-DNA"]]
