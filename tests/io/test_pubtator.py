"""PubTator reading and writing."""

import warnings

import pytest

from skbioner.io import (
    BratDocument,
    CorpusFormatError,
    CorpusWarning,
    Entity,
    read_pubtator,
    write_pubtator,
)
from tests.io.helpers import assert_format_error

PUBTATOR = (
    "101|t|IL-2 gene expression\n"
    "101|a|NF-kappa B binds the IL-2 promoter in T cells.\n"
    "101\t0\t9\tIL-2 gene\tDNA\tD001\n"
    "101\t21\t31\tNF-kappa B\tprotein\n"             # five fields: no concept id
    "101\t59\t66\tT cells\tcell_type\t-\textra\n"     # seven fields
    "101\tCID\tD001\tD002\n"                          # a relation: not kept
    "\n"
    "102|t|Only a title with p53\n"
    "102\t18\t21\tp53\tprotein\t7157\n"
)


def test_read_pubtator(write_file):
    docs = read_pubtator(write_file("c.pubtator", PUBTATOR))
    assert [d.id for d in docs] == ["101", "102"]
    text = "IL-2 gene expression\nNF-kappa B binds the IL-2 promoter in T cells."
    assert docs[0].text == text
    assert docs[0].entities == [
        Entity("T1", "DNA", 0, 9, "IL-2 gene"),
        Entity("T2", "protein", 21, 31, "NF-kappa B"),
        Entity("T3", "cell_type", 59, 66, "T cells"),
    ]
    assert docs[1].text == "Only a title with p53"
    assert docs[1].spans() == [("protein", 18, 21)]


def test_title_line_starts_a_document_without_empty_line_and_crlf(write_file):
    content = PUBTATOR.replace("\n\n", "\n").replace("\n", "\r\n")
    docs = read_pubtator(write_file("c.txt", content))
    assert [d.id for d in docs] == ["101", "102"]
    assert "\r" not in docs[0].text


@pytest.mark.parametrize(("content", "line", "match"), [
    ("1|t|abc\n1\t0\t2\tab\tx\n2\t0\t1\ta\tx\n", 3, "inside document '1'"),
    ("1\t0\t2\tab\tx\n", 1, "title line"),
    ("1|t|abc\n1\t0\t2\tax\tx\n", 2, "differs from the text at 0:2, 'ab'"),
    ("1|t|abc\n1\t2\t2\tc\tx\n", 2, "not before end"),
    ("1|t|abc\n1\t1\t9\tbc\tx\n", 2, "beyond the end of the text"),
    ("1|t|abc\n1\t0\t2\tab\tcell type\n", 2, "whitespace"),
    ("1|t|abc\n1\tbroken\n", 2, "malformed line"),
    ("1|t|abc\n2|a|def\n", 2, "without its title line"),
    ("1|t|abc\n1|a|def\n1|a|ghi\n", 3, "second abstract"),
    ("1|t|abc\n\n1|t|def\n", 3, "already used on line 1"),
    ("1|t|a\x00c\n", 1, "control character"),
])
def test_errors_name_file_and_line(write_file, content, line, match):
    path = write_file("bad.pubtator", content)
    with pytest.raises(CorpusFormatError, match=match) as excinfo:
        read_pubtator(path)
    assert_format_error(excinfo, path, line)


def test_empty_file(write_file):
    path = write_file("e.pubtator", "\n\n")
    with pytest.raises(CorpusFormatError, match="no PubTator document") as excinfo:
        read_pubtator(path)
    assert_format_error(excinfo, path, None)


def test_write_read_round_trip(write_file, tmp_path):
    docs = read_pubtator(write_file("c.pubtator", PUBTATOR))
    out = tmp_path / "out.pubtator"
    write_pubtator(out, docs)
    lines = out.read_text().splitlines()
    # six fields per entity line, no trailing tab (the bioc writer adds one)
    assert "101\t21\t31\tNF-kappa B\tprotein\t-" in lines
    assert all(not line.endswith("\t") for line in lines)
    back = read_pubtator(out)
    assert [(d.id, d.text, d.spans()) for d in back] == [(d.id, d.text, d.spans()) for d in docs]


def test_write_flattens_further_line_breaks_with_a_warning(tmp_path):
    text = "Title\nFirst sentence.\nSecond\tsentence.\n"
    doc = BratDocument("7", text, [Entity("T1", "x", 22, 37, text[22:37]),
                                   Entity("T2", "x", 0, 11, text[0:11])])
    out = tmp_path / "o.pubtator"
    with pytest.warns(CorpusWarning, match="written as spaces .*'7'"):
        write_pubtator(out, [doc])
    [back] = read_pubtator(out)
    assert back.text == "Title\nFirst sentence. Second sentence. "
    assert back.spans() == sorted(doc.spans())  # offsets unchanged
    assert back.entities[0].text == "Title First"


def test_write_discontinuous_entity_as_its_whole_span(tmp_path):
    text = "IL-2 and IL-4 genes"
    doc = BratDocument("8", text, [Entity("T1", "DNA", 0, 19, text, ((0, 4), (14, 19)))])
    out = tmp_path / "o.pubtator"
    with pytest.warns(CorpusWarning, match="discontinuous"):
        write_pubtator(out, [doc])
    assert read_pubtator(out)[0].spans() == [("DNA", 0, 19)]


def test_write_refuses_ids_pubtator_cannot_hold(tmp_path):
    for bad in ("a|b", "a b", ""):
        with pytest.raises(ValueError, match="PubTator id"):
            write_pubtator(tmp_path / "o.pubtator", [BratDocument(bad, "x")])
    assert not (tmp_path / "o.pubtator").exists()


def test_no_warning_for_title_and_abstract(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_pubtator(tmp_path / "o.pubtator", [BratDocument("1", "T\nA b c.")])


@pytest.mark.parametrize("start, end", [("9 ", "12"), ("2O", "12"), ("-1", "12"),
                                        ("\u0663", "12"), ("0", "9 "), ("0", "x9")])
def test_malformed_offsets_are_errors_never_relations(write_file, start, end):
    # issue 22, item 4: such lines were taken for relations and dropped ("1 entities" for 3)
    text = ("1|t|IL-2 gene expression\n1|a|in T cells.\n"
            f"1\t{start}\t{end}\tIL-2 gene\tDNA\t-\n1\t26\t33\tT cells\tcell_type\t-\n")
    path = write_file("bad.pubtator", text)
    with pytest.raises(CorpusFormatError, match="offset .* is not a non-negative integer") as e:
        read_pubtator(path)
    assert_format_error(e, path, 3)


def test_an_entity_line_without_a_type_is_an_error(write_file):
    path = write_file("short.pubtator", "1|t|IL-2 gene\n1\t0\t4\tIL-2\n")
    with pytest.raises(CorpusFormatError, match="malformed entity line") as e:
        read_pubtator(path)
    assert_format_error(e, path, 2)


def test_relation_lines_of_five_fields_are_still_relations(write_file):
    # BioRED's relations carry a fifth field (novelty): a word, not an offset
    path = write_file("rel.pubtator", "1|t|IL-2 gene\n1\t0\t4\tIL-2\tprotein\t-\n"
                                      "1\tAssociation\tD1\tD2\tNovel\n")
    [doc] = read_pubtator(path)
    assert doc.spans() == [("protein", 0, 4)]
