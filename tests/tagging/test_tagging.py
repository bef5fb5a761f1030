"""Batch tagging of raw text: documents in, entities with character offsets out."""

import dataclasses
import json

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

from skbioner.cli import main
from skbioner.features import TokenFeaturizer
from skbioner.io import (
    load_model,
    read_brat_dir,
    read_jnlpba,
    read_pubtator,
    save_model,
    write_bioc,
)
from skbioner.io._brat import BratDocument
from skbioner.metrics import character_span_scores
from skbioner.models import OnlinePACRF
from skbioner.tagging import (
    Document,
    DocumentError,
    TaggedDocument,
    entities_from_labels,
    iter_documents,
    open_writer,
    tag_documents,
)
from tests.models.toy import toy_sentences

TEXT = "The IL-2 gene in T cells . The p53 gene in HeLa cells ."


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    X, y = toy_sentences(40)
    model = make_pipeline(TokenFeaturizer("chan"), OnlinePACRF(max_iter=5, random_state=0))
    model.fit(X, y)
    path = tmp_path_factory.mktemp("model") / "m.skops"
    save_model(model, path)
    return path


def _docs(tmp_path):
    (tmp_path / "a.txt").write_text(TEXT)
    (tmp_path / "b.jsonl").write_text(
        json.dumps({"id": "j1", "text": "The TNF gene in B cells ."}) + "\n\n"
        + "not json\n" + json.dumps({"id": "j2", "text": ""}) + "\n"
        + json.dumps({"id": "a", "text": "duplicate id"}) + "\n")
    return tmp_path


def test_iter_documents_reports_bad_records_and_keeps_order(tmp_path):
    docs = list(iter_documents([_docs(tmp_path)]))
    assert [type(d).__name__ for d in docs] == ["Document", "Document", "DocumentError",
                                                "DocumentError", "DocumentError"]
    assert docs[0].id == "a" and docs[1].id == "j1"
    assert "b.jsonl:3" in str(docs[2]) and "not a JSON object" in str(docs[2])
    assert "empty document" in str(docs[3]) and "duplicate document id" in str(docs[4])
    with pytest.raises(FileNotFoundError, match="no such file"):
        list(iter_documents([tmp_path / "missing.txt"]))


def test_entities_map_back_to_exact_text(model_path, tmp_path):
    (tmp_path / "a.txt").write_text(TEXT)
    [res] = list(tag_documents(model_path, iter_documents(tmp_path)))
    assert isinstance(res, TaggedDocument)
    spans = [(e.type, e.text) for e in res.entities]
    assert spans == [("DNA", "IL-2 gene"), ("cell_type", "T cells"), ("DNA", "p53 gene"),
                     ("cell_type", "HeLa cells")]
    assert all(TEXT[e.start:e.end] == e.text for e in res.entities)


def test_parallel_equals_serial_and_bad_documents_do_not_stop(model_path, tmp_path):
    for i in range(7):
        (tmp_path / f"d{i}.txt").write_text(TEXT.replace("IL-2", f"IL-{i}"))
    (tmp_path / "long.txt").write_text("x" * 2_000_000)
    (tmp_path / "bad.txt").write_bytes(b"The \xff gene")
    serial = list(tag_documents(load_model(model_path), iter_documents(tmp_path),
                                batch_size=3))
    parallel = list(tag_documents(model_path, iter_documents(tmp_path), batch_size=3,
                                  n_jobs=2, parallel_from=0))
    assert [getattr(r, "entities", str(r)) for r in serial] == \
        [getattr(r, "entities", str(r)) for r in parallel]
    errors = [str(r) for r in serial if isinstance(r, DocumentError)]
    assert len(errors) == 2
    assert any("2,000,000-character token" in e for e in errors)
    assert any("cannot decode" in e and "bad.txt:1" in e for e in errors)
    with pytest.raises(TypeError, match="path of its file"):
        list(tag_documents(load_model(model_path), iter([]), n_jobs=2))


def test_entities_from_labels_uses_offsets():
    import numpy as np

    text = "IL-2 gene binds"
    off = [np.array([[0, 4], [5, 9], [10, 15]])]
    [e] = entities_from_labels(text, off, [["B-DNA", "I-DNA", "O"]])
    assert (e.id, e.type, e.start, e.end, e.text) == ("T1", "DNA", 0, 9, "IL-2 gene")


@pytest.mark.parametrize("fmt", ["brat", "jsonl", "iob2"])
def test_cli_tag_formats(model_path, tmp_path, fmt, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text(TEXT)
    out = tmp_path / ("outdir" if fmt == "brat" else f"out.{fmt}")
    assert main(["tag", str(model_path), str(src), "-o", str(out), "--output-format", fmt,
                 "--progress", "never"]) == 0
    assert "tagged 1 document: 14 tokens, 4 entities" in capsys.readouterr().err
    if fmt == "brat":
        [doc] = read_brat_dir(out)
        assert doc.text == TEXT and len(doc.entities) == 4
    elif fmt == "jsonl":
        rec = json.loads(out.read_text())
        assert rec["id"] == "a" and all(TEXT[e["start"]:e["end"]] == e["text"]
                                        for e in rec["entities"])
    else:
        corpus = read_jnlpba(out)
        assert corpus.doc_ids == ["a", "a"] and corpus.y[0][1:3] == ["B-DNA", "I-DNA"]


def test_cli_tag_bad_document_exit_status_and_strict(model_path, tmp_path, capsys):
    (tmp_path / "in").mkdir()
    src = _docs(tmp_path / "in")
    out = tmp_path / "out.jsonl"
    assert main(["tag", str(model_path), str(src), "-o", str(out), "--progress", "never"]) == 1
    err = capsys.readouterr().err
    assert err.count("skipped") == 3 and "tagged 2 documents, 3 failed" in err
    assert len(out.read_text().splitlines()) == 2
    out2 = tmp_path / "strict.jsonl"
    assert main(["tag", str(model_path), str(src), "-o", str(out2), "--strict"]) == 1
    assert "--strict: stopping" in capsys.readouterr().err
    assert not out2.exists()  # atomic: nothing half-written
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_writer_interrupted_leaves_previous_output(tmp_path):
    out = tmp_path / "o.jsonl"
    out.write_text("previous\n")
    doc = TaggedDocument("x", "t", "s", [], [], [], [])
    with pytest.raises(KeyboardInterrupt), open_writer("jsonl", out) as w:
        w.write(doc)
        raise KeyboardInterrupt
    assert out.read_text() == "previous\n"


def test_span_scores_count_type_and_offsets():
    gold = {"d": [("protein", 0, 4), ("DNA", 5, 9)], "e": [("RNA", 0, 3)]}
    pred = {"d": [("protein", 0, 4), ("protein", 5, 9)], "f": [("RNA", 0, 3)]}
    s = character_span_scores(gold, pred)
    assert s["overall"]["tp"] == 1 and s["overall"]["n_pred"] == 3
    assert s["overall"]["n_gold"] == 3 and s["per_class"]["DNA"]["recall"] == 0.0
    assert Document("a", "b", "c").id == "a"


def test_ids_bom_and_failed_documents(tmp_path):
    (tmp_path / "bom.txt").write_bytes("\ufeffThe IL-2 gene .".encode())
    (tmp_path / "j.jsonl").write_text(
        "\ufeff" + json.dumps({"id": "e1", "text": "  "}) + "\n"
        + json.dumps({"id": "e1", "text": "The p53 gene ."}) + "\n"
        + json.dumps({"id": "../evil", "text": "x"}) + "\n"
        + json.dumps({"id": "a\nb", "text": "x"}) + "\n", encoding="utf-8")
    docs = list(iter_documents(tmp_path))
    assert docs[0].text == "The IL-2 gene ."  # the BOM is not text
    assert "empty document" in str(docs[1])   # the JSONL BOM did not break the first record
    assert isinstance(docs[2], Document) and docs[2].id == "e1"  # the failed e1 used up nothing
    assert all("cannot name output files" in str(d) for d in docs[3:])
    assert "j.jsonl:3" in str(docs[3])


def test_model_paths_are_loaded_safely(model_path, tmp_path):
    import joblib

    from skbioner.io import ModelFileError

    (tmp_path / "a.txt").write_text(TEXT)
    pickled = tmp_path / "m.joblib"
    joblib.dump(load_model(model_path), pickled)
    with pytest.raises(ModelFileError, match="refused: this is a pickle"):
        list(tag_documents(pickled, iter_documents(tmp_path / "a.txt")))
    [res] = tag_documents(pickled, iter_documents(tmp_path / "a.txt"), allow_pickle=True)
    assert len(res.entities) == 4


def test_iter_documents_checks_inputs_when_called(tmp_path):
    # errors come before any document is read, not at the first next()
    with pytest.raises(ValueError, match="/dev/zero: not a text file.*character device"):
        iter_documents(["/dev/zero"])
    with pytest.raises(ValueError, match="unknown encoding"):
        iter_documents([tmp_path], encoding="bogus-enc")
    with pytest.raises(FileNotFoundError):
        iter_documents([tmp_path / "missing.txt"])


PUBTATOR = ("9321233|t|The IL-2 gene in T cells\n9321233|a|The p53 gene in HeLa cells .\n"
            "9321233\t4\t13\tIL-2 gene\tDNA\t-\n\n"
            "9321234|t|The TNF gene\n9321234|a|The c-myc gene in B cells .\n")


@pytest.mark.parametrize("name", ["abstracts.pubtator", "abstracts.txt", "abstracts"])
def test_pubtator_files_give_their_pmids_and_pubtator_offsets(model_path, tmp_path, name,
                                                              capsys):
    """By name or by content, a PubTator file is its documents (PMID, title + abstract), the
    offsets PubTator's: an entity's text is the title-and-abstract text at its offsets."""
    (tmp_path / name).write_text(PUBTATOR)
    out = tmp_path / "out.jsonl"
    assert main(["tag", "-m", str(model_path), str(tmp_path / name), "-o", str(out),
                 "--progress", "never"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in records] == ["9321233", "9321234"]
    texts = {d.id: d.text for d in read_pubtator(tmp_path / name)}
    assert texts["9321233"] == "The IL-2 gene in T cells\nThe p53 gene in HeLa cells ."
    for r in records:
        assert r["entities"]
        assert all(texts[r["id"]][e["start"]:e["end"]] == e["text"] for e in r["entities"])
    assert {"IL-2", "IL-2 gene"} & {e["text"] for e in records[0]["entities"]}


@pytest.mark.parametrize("fmt", ["bioc-xml", "bioc-json"])
def test_bioc_collections_are_tagged_by_document(model_path, tmp_path, fmt):
    docs = [BratDocument("d1", "The IL-2 gene in T cells .", []),
            BratDocument("d2", "The p53 gene in HeLa cells .", [])]
    named, unnamed = tmp_path / f"c.{fmt[5:]}", tmp_path / "collection"
    write_bioc(named, docs, format=fmt[5:])
    unnamed.write_bytes(named.read_bytes())
    for path in (named, unnamed):  # by its name, then by its content
        got = list(iter_documents(path))
        assert [(d.id, d.text) for d in got] == [(d.id, d.text) for d in docs]


def test_text_that_looks_like_markup_stays_text(tmp_path):
    (tmp_path / "a.txt").write_text("<i>IL-2</i> binds")
    (tmp_path / "b.txt").write_text("[Title] the passages of IL-2 and \"documents\"")
    assert [d.text[:3] for d in iter_documents(tmp_path)] == ["<i>", "[Ti"]


def test_a_bad_pubtator_file_is_one_error_naming_its_line(tmp_path):
    (tmp_path / "a.pubtator").write_text("1|t|IL-2\n1\t0\t9\tIL-2 gene\tDNA\n")
    (tmp_path / "b.txt").write_text(TEXT)
    bad, good = iter_documents(tmp_path)
    assert isinstance(bad, DocumentError) and "a.pubtator:2" in str(bad)
    assert good.id == "b"


def test_cli_tag_names_the_skipped_entries_of_a_directory(model_path, tmp_path, capsys):
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text(TEXT)
    (src / "a.ann").write_text("T1\tDNA 4 13\tIL-2 gene\n")
    (src / "notes.pdf").write_bytes(b"%PDF")
    (src / "abstracts.pubtator").write_text(PUBTATOR)
    out = tmp_path / "out.jsonl"
    assert main(["tag", "-m", str(model_path), str(src), "-o", str(out),
                 "--progress", "never"]) == 0
    err = capsys.readouterr().err
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == [
        "a", "9321233", "9321234"]
    notes = [line for line in err.splitlines() if "skipped" in line]
    assert len(notes) == 3
    assert any("(a.ann)" in n and "brat annotations" in n for n in notes)
    assert any("(notes.pdf)" in n and ".pubtator" in n for n in notes)
    assert any("(sub/)" in n and "not read recursively" in n for n in notes)


def test_merged_models_keep_the_most_confident_of_overlapping_entities():
    from skbioner.tagging import TaggedEntity, merge_tagged

    text = "Cisplatin-induced IL-2 loss"
    offs = [np.array([[0, 17], [18, 22], [23, 27]])]
    one = TaggedDocument("d", text, "d.txt", [["Cisplatin-induced", "IL-2", "loss"]], offs,
                         [["O", "B-protein", "O"]],
                         [TaggedEntity("T1", "protein", 18, 22, "IL-2", confidence=0.6),
                          TaggedEntity("T2", "protein", 23, 27, "loss", confidence=None)])
    two = TaggedDocument("d", text, "d.txt", [["Cisplatin", "-", "induced", "IL-2", "loss"]],
                         [np.array([[0, 9], [9, 10], [10, 17], [18, 22], [23, 27]])],
                         [["B-Chemical", "O", "O", "B-Chemical", "O"]],
                         [TaggedEntity("T1", "Chemical", 0, 9, "Cisplatin", confidence=0.99),
                          TaggedEntity("T2", "Chemical", 18, 27, "IL-2 loss", confidence=0.7),
                          TaggedEntity("T3", "Disease", 23, 27, "loss", confidence=0.4)])
    merged = merge_tagged([one, two], ("genes", "chemicals"))
    got = [(e.id, e.type, e.start, e.end, e.confidence, e.model) for e in merged.entities]
    # 0.99 kept; 0.7 overlaps nothing kept yet: kept; IL-2 (0.6) and both "loss" overlap it
    assert got == [("T1", "Chemical", 0, 9, 0.99, "chemicals"),
                   ("T2", "Chemical", 18, 27, 0.7, "chemicals")]
    # the first model's tokens; Cisplatin ends inside one of them: in the entities only
    assert merged.sentences == one.sentences
    assert merged.labels == [["O", "B-Chemical", "I-Chemical"]]
    swapped = merge_tagged([two, one], ("chemicals", "genes"))
    assert [e.text for e in swapped.entities] == [e.text for e in merged.entities]
    # without confidences, a tie: the model listed first wins
    tie = merge_tagged([one, dataclasses.replace(one, entities=[
        dataclasses.replace(e, type="DNA") for e in one.entities])], ("a", "b"))
    assert [(e.type, e.model) for e in tie.entities] == [("protein", "a"), ("protein", "a")]


def test_cli_tag_with_two_bundled_models_names_each_entitys_model(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("Cisplatin-induced nephrotoxicity was reduced by IL-2 in "
                                    "T cells.")
    out = tmp_path / "out.jsonl"
    assert main(["tag", "-m", "jnlpba,bc5cdr", str(tmp_path / "a.txt"), "-o", str(out),
                 "--progress", "never"]) == 0
    [rec] = [json.loads(line) for line in out.read_text().splitlines()]
    got = {(e["text"], e["type"], e["model"]) for e in rec["entities"]}
    assert {("Cisplatin", "Chemical", "bc5cdr"), ("IL-2", "protein", "jnlpba")} <= got
    spans = sorted((e["start"], e["end"]) for e in rec["entities"])
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # no overlap left
    brat = tmp_path / "brat"
    assert main(["tag", "-m", "jnlpba,bc5cdr", str(tmp_path / "a.txt"), "-o", str(brat),
                 "--output-format", "brat", "--progress", "never"]) == 0
    assert "model=bc5cdr" in (brat / "a.ann").read_text()
    assert main(["tag", "-m", "bc5cdr,bc5cdr", str(tmp_path / "a.txt")]) == 1
    assert "two models have the same name" in capsys.readouterr().err
