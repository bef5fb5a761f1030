"""BioC XML and JSON reading and writing (through the bioc package)."""

import json
import re

import bioc
import bioc.biocjson
import pytest

from skbioner.io import BratDocument, CorpusFormatError, Entity, read_bioc, write_bioc
from tests.io.helpers import assert_format_error

TITLE = "IL-2 gene expression"
ABSTRACT = "NF-kappa B binds the IL-2 promoter in T cells."

# PubTator Central's layout: a title passage, an abstract passage one character after it
XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE collection SYSTEM "BioC.dtd">
<collection><source>PubTator</source><date>2024</date><key>BioC.key</key>
<document><id>101</id>
<passage><infon key="type">title</infon><offset>0</offset><text>{TITLE}</text>
<annotation id="1"><infon key="type">DNA</infon><infon key="identifier">3558</infon>
<location offset="0" length="9"/><text>IL-2 gene</text></annotation>
</passage>
<passage><infon key="type">abstract</infon><offset>21</offset><text>{ABSTRACT}</text>
<annotation id="2"><infon key="type">protein</infon>
<location offset="21" length="10"/><text>NF-kappa B</text></annotation>
<annotation id="3"><infon key="type">DNA</infon>
<location offset="42" length="4"/><location offset="47" length="8"/>
<text>IL-2 promoter</text></annotation>
</passage>
<annotation id="4"><infon key="type">cell_type</infon>
<location offset="59" length="7"/><text>T cells</text></annotation>
</document>
<document><id>102</id>
<passage><offset>0</offset>
<sentence><offset>0</offset><text>p53 binds.</text>
<annotation id="1"><infon key="type">protein</infon><location offset="0" length="3"/>
<text>p53</text></annotation></sentence>
<sentence><offset>11</offset><text>Done.</text></sentence>
</passage>
</document>
</collection>
"""


def _json_collection():
    return {"source": "x", "date": "", "key": "", "infons": {}, "documents": [
        {"id": "101", "infons": {}, "relations": [], "passages": [
            {"offset": 0, "infons": {}, "text": TITLE, "sentences": [], "relations": [],
             "annotations": [{"id": "1", "infons": {"type": "DNA"}, "text": "IL-2 gene",
                              "locations": [{"offset": 0, "length": 9}]}]},
            {"offset": 21, "infons": {}, "text": ABSTRACT, "sentences": [], "relations": [],
             "annotations": []}]}]}


def test_read_xml(write_file):
    docs = read_bioc(write_file("c.xml", XML))
    assert [d.id for d in docs] == ["101", "102"]
    assert docs[0].text == f"{TITLE}\n{ABSTRACT}"
    assert docs[0].spans() == [("DNA", 0, 9), ("DNA", 42, 55), ("cell_type", 59, 66),
                               ("protein", 21, 31)]
    assert [e.id for e in docs[0].entities] == ["T1", "T2", "T3", "T4"]  # brat ids, in order
    promoter = next(e for e in docs[0].entities if e.start == 42)
    # two locations with a space between: kept as fragments, labelled as one span later
    assert promoter.fragments == ((42, 46), (47, 55))
    assert docs[1].text == "p53 binds. Done."  # sentences at their offsets, blanks between
    assert docs[1].spans() == [("protein", 0, 3)]


def test_discontinuous_locations_are_fragments(write_file):
    xml = XML.replace('<location offset="47" length="8"/>', '<location offset="50" length="5"/>'
                      ).replace("<text>IL-2 promoter</text>", "<text>IL-2 moter</text>")
    docs = read_bioc(write_file("c.xml", xml))
    promoter = next(e for e in docs[0].entities if e.start == 42)
    assert promoter.fragments == ((42, 46), (50, 55))
    assert (promoter.start, promoter.end) == (42, 55)


@pytest.mark.parametrize("shape", ["collection", "list", "document", "minimal"])
def test_read_json_shapes(write_file, shape):
    coll = _json_collection()
    doc = coll["documents"][0]
    if shape == "minimal":  # only what a document needs: optional fields may be absent
        doc = {"id": "101", "passages": [
            {"offset": 0, "text": TITLE, "annotations": [
                {"id": "1", "infons": {"type": "DNA"}, "text": "IL-2 gene",
                 "locations": [{"offset": 0, "length": 9}]}]},
            {"offset": 21, "text": ABSTRACT}]}
    obj = {"collection": coll, "list": [doc], "document": doc, "minimal": doc}[shape]
    [read] = read_bioc(write_file("c.json", json.dumps(obj)))
    assert read.id == "101" and read.text == f"{TITLE}\n{ABSTRACT}"
    assert read.spans() == [("DNA", 0, 9)]


def test_xml_syntax_error_names_the_line(write_file):
    path = write_file("bad.xml", XML.replace("</passage>\n<passage>", "</pasage>\n<passage>", 1))
    with pytest.raises(CorpusFormatError, match="not BioC XML") as excinfo:
        read_bioc(path)
    assert excinfo.value.line == 8 and str(excinfo.value).startswith(f"{path}:8: ")


def test_xml_without_offset_names_the_line(write_file):
    path = write_file("bad.xml", XML.replace("<offset>21</offset>", ""))
    with pytest.raises(CorpusFormatError, match="without an integer <offset>") as excinfo:
        read_bioc(path)
    assert_format_error(excinfo, path, 9)


@pytest.mark.parametrize(("change", "match"), [
    (('<infon key="type">protein</infon>', ""), r"document '101', annotation '2': no 'type'"),
    (("<text>NF-kappa B</text>", "<text>NF-kappa C</text>"), "differs from the document text"),
    (('<location offset="59" length="7"/>', '<location offset="59" length="70"/>'),
     "outside the text"),
    (("<offset>21</offset>", "<offset>5</offset>"), "overlap"),
    (("<id>102</id>", "<id>101</id>"), "'101' is used by documents 1 and 2"),
    (('<infon key="type">cell_type</infon>', '<infon key="type">cell type</infon>'),
     "whitespace"),
])
def test_xml_content_errors_name_the_document_and_line(write_file, change, match):
    path = write_file("bad.xml", XML.replace(*change))
    with pytest.raises(CorpusFormatError, match=match) as excinfo:
        read_bioc(path)
    assert re.match(rf"{re.escape(str(path))}:\d+: ", str(excinfo.value))


def test_json_errors(write_file):
    path = write_file("bad.json", '{"documents": [{"id": "1", "passages": [{"text": "a"}]}]}')
    with pytest.raises(CorpusFormatError, match=r"document 1 \('1'\).*no 'offset' field"):
        read_bioc(path)
    path = write_file("bad2.json", '{"documents": [\n{"id": 1,}]}')
    with pytest.raises(CorpusFormatError, match="not JSON") as excinfo:
        read_bioc(path)
    assert excinfo.value.line == 2
    with pytest.raises(CorpusFormatError, match="no document"):
        read_bioc(write_file("empty.json", '{"documents": []}'))


def test_external_entities_are_refused_and_never_read(write_file, tmp_path, monkeypatch):
    # issue 22, item 3: lxml < 5 resolved them by default (Debian 12's lxml 4.9)
    from lxml import etree

    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    xml = XML.replace('<!DOCTYPE collection SYSTEM "BioC.dtd">',
                      f'<!DOCTYPE collection [<!ENTITY x SYSTEM "file://{secret}">]>'
                      ).replace("<offset>0</offset><text>IL-2", "<offset>0</offset><text>&x;IL-2")
    path = write_file("xxe.xml", xml)
    made = []
    real = etree.XMLParser

    def recording(**options):
        made.append(options)
        return real(**options)

    monkeypatch.setattr(etree, "XMLParser", recording)
    with pytest.raises(CorpusFormatError, match=r"declares entities \(x\)") as excinfo:
        read_bioc(path)
    assert "TOP-SECRET" not in str(excinfo.value)
    # whatever lxml's defaults: entities, DTDs and the network off
    assert made and all(o["resolve_entities"] is False and o["no_network"] is True
                        and o["load_dtd"] is False for o in made)
    bomb = XML.replace('<!DOCTYPE collection SYSTEM "BioC.dtd">',
                       '<!DOCTYPE collection [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>')
    with pytest.raises(CorpusFormatError, match="declares entities"):
        read_bioc(write_file("laughs.xml", bomb))


def test_offsets_far_beyond_the_text_are_refused_without_padding(write_file):
    # issue 22, items 6-7: offset 3e8 padded 1.6 GB of line breaks, 1e20 an OverflowError
    for offset, match in ((300_000_000, "filler characters"), (10**20, "integer <offset>"),
                          ("12.5", "integer <offset>")):
        path = write_file("far.xml", XML.replace("<offset>21</offset>",
                                                 f"<offset>{offset}</offset>"))
        with pytest.raises(CorpusFormatError, match=match) as excinfo:
            read_bioc(path)
        assert excinfo.value.line == 9
    # a gap the file's size can account for is read (filled with line breaks)
    [doc, _] = read_bioc(write_file("gap.xml", XML.replace("<offset>21</offset>",
                                                           "<offset>2000</offset>").replace(
        '<location offset="21" length="10"/>', '<location offset="2000" length="10"/>').replace(
        '<location offset="42" length="4"/><location offset="47" length="8"/>',
        '<location offset="2021" length="4"/><location offset="2026" length="8"/>').replace(
        '<location offset="59" length="7"/>', '<location offset="2038" length="7"/>')))
    assert doc.text.startswith(TITLE + "\n" * (2000 - len(TITLE)))


@pytest.mark.parametrize(("change", "match"), [
    ({"infons": ["type", "DNA"]}, r"document 1 \('d1'\).*annotation 1: 'infons' must be an "
                                  r"object, got \['type', 'DNA'\]"),
    ({"locations": [{"offset": "0", "length": 4}]}, r"location 1: 'offset' must be int, got '0'"),
    ({"locations": [{"offset": 1.5, "length": 4}]}, r"'offset' must be int, got 1\.5"),
    ({"locations": [{"offset": 10**20, "length": 4}]}, r"at most 15 digits"),
    ({"locations": [{"offset": True, "length": 4}]}, r"'offset' must be int, got True"),
])
def test_json_fields_of_the_wrong_type_name_document_and_field(write_file, change, match):
    ann = {"id": "a", "infons": {"type": "DNA"}, "text": "IL-2",
           "locations": [{"offset": 0, "length": 4}], **change}
    doc = {"id": "d1", "passages": [{"offset": 0, "text": "IL-2 gene", "annotations": [ann]}]}
    path = write_file("bad.json", json.dumps({"documents": [doc]}))
    with pytest.raises(CorpusFormatError, match=match) as excinfo:
        read_bioc(path)
    assert str(excinfo.value).startswith(f"{path}: ")


def test_json_integer_ids_are_read_as_strings(write_file):
    path = write_file("ids.json", json.dumps([{"id": 5, "passages": [{"offset": 0,
                                                                      "text": "IL-2"}]}]))
    assert [d.id for d in read_bioc(path)] == ["5"]
    with pytest.raises(CorpusFormatError, match=r"'id' must be a string or an integer, got 5\.0"):
        read_bioc(write_file("f.json", json.dumps([{"id": 5.0, "passages": []}])))


def test_deep_json_and_control_characters_are_errors(write_file):
    with pytest.raises(CorpusFormatError, match="nested more than 100 levels"):
        read_bioc(write_file("deep.json", '{"documents": ' + "[" * 50_000 + "]" * 50_000 + "}"))
    with pytest.raises(CorpusFormatError, match=r"control character"):
        read_bioc(write_file("nul.json", json.dumps([{"id": "1", "passages": [
            {"offset": 0, "text": "IL-2\x00 gene"}]}])))


TEXT = 'IL-2 gene\r\nbinds <NF&kB> "β"\n\n   \nlast line\n'


def _doc():
    return BratDocument("d1", TEXT, [
        Entity("T1", "DNA", 0, 9, "IL-2 gene"),
        Entity("T2", "protein", 18, 23, TEXT[18:23]),
        Entity("", "x", 5, 17, TEXT[5:17]),                      # across a line break
        Entity("", "y", 0, 9, TEXT[0:9], ((0, 4), (5, 9))),     # discontinuous
    ])


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_write_read_round_trip(tmp_path, fmt):
    out = tmp_path / f"c.{fmt}"
    write_bioc(out, [_doc(), BratDocument("d2", "No entity.")], format=fmt)
    docs = read_bioc(out)
    assert [d.id for d in docs] == ["d1", "d2"]
    assert docs[0].text == TEXT.rstrip("\n")  # BioC passages hold text: not the final break
    assert docs[0].spans() == sorted(_doc().spans())
    y = next(e for e in docs[0].entities if e.type == "y")
    assert y.fragments == ((0, 4), (5, 9))
    assert [e.id for e in docs[0].entities] == ["T1", "T2", "T3", "T4"]
    # the bioc package reads the file too, and its own validator finds nothing wrong
    if fmt == "xml":
        collection = bioc.biocxml.loads(out.read_text(encoding="utf-8"))
    else:
        collection = bioc.biocjson.loads(out.read_text(encoding="utf-8"))
    problems = []
    bioc.validate(collection, onerror=lambda msg, traceback: problems.append(msg))
    assert problems == []
    # deterministic: the same documents give the same bytes (no date)
    again = tmp_path / f"again.{fmt}"
    write_bioc(again, [_doc(), BratDocument("d2", "No entity.")], format=fmt)
    assert again.read_bytes() == out.read_bytes()


def test_write_refuses_text_xml_cannot_hold(tmp_path):
    out = tmp_path / "c.xml"
    with pytest.raises(ValueError, match="cannot be written as BioC XML"):
        write_bioc(out, [BratDocument("d", "a\x01b")])
    assert not out.exists()


def test_bioc_annotation_ids_need_not_be_brat_ids(write_file, tmp_path):
    # PubTator Central numbers annotations per passage: ids "1" twice, and not "T<n>"
    from skbioner.io import read_brat_dir, write_documents

    xml = XML.replace('<annotation id="2">', '<annotation id="1">')
    docs = read_bioc(write_file("c.xml", xml))
    write_documents(tmp_path / "brat", docs, "brat")
    assert [d.spans() for d in read_brat_dir(tmp_path / "brat")] == [d.spans() for d in docs]
