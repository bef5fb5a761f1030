"""Gaps a user met in their second hour with the command line (issue 27, item 6)."""

import os
import subprocess
import sys

import pytest

from skbioner.cli import main


def test_closed_stdout_pipe_exits_quietly(tmp_path):
    # `skbioner info --json | head -1`: the reader is gone before the output is written;
    # no traceback and no error line, the status a SIGPIPE death reports
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = subprocess.run([sys.executable, "-m", "skbioner", "info", "--json"],
                           stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write_end)
    assert r.stderr == ""
    assert r.returncode == 141


def test_convert_from_scheme_alone_writes_iob2(tmp_path):
    # --to-scheme's help gives IOB2 as its default: --from-scheme alone converts to it
    src, dst = tmp_path / "in.bies", tmp_path / "out.iob2"
    src.write_text("###MEDLINE:1\n\nIL-2\tB-protein\ngene\tE-protein\nin\tS-O\n"
                   "T\tS-cell_type\n\n")
    assert main(["convert", str(src), str(dst), "--from-scheme", "BIES"]) == 0
    assert dst.read_text() == ("###MEDLINE:1\n\nIL-2\tB-protein\ngene\tI-protein\nin\tO\n"
                               "T\tB-cell_type\n\n")


def test_corpus_without_ids_is_not_one_document(tmp_path, capsys):
    # a column file without ###MEDLINE lines has no document ids: not "1 documents"
    train, model = tmp_path / "noid.iob2", tmp_path / "noid.skops"
    train.write_text("IL-2\tB-protein\ngene\tO\n\np53\tB-protein\n.\tO\n\n")
    assert main(["train", "--train", str(train), "-o", str(model)]) == 0
    err = capsys.readouterr().err
    assert f"read {train}: no document ids, 2 sentences, 4 tokens, 2 entities" in err
    assert main(["info", str(model)]) == 0
    assert "  no document ids, 2 sentences, 4 tokens; entities: protein 2" in \
        capsys.readouterr().out
    one = tmp_path / "one.txt"
    one.write_text("IL-2 activates NF-kappaB .\n")
    assert main(["tag", str(one), "-o", str(tmp_path / "out.jsonl"), "--model", str(model)]) == 0
    assert "tagged 1 document: " in capsys.readouterr().err


def _estimators(obj, seen=None):
    """Every estimator in ``obj``: its parameters' and its fitted attributes' (``tagger_``)."""
    from sklearn.base import BaseEstimator

    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, BaseEstimator):
        yield obj
        children = [*obj.get_params(deep=False).values(), *vars(obj).values()]
    elif isinstance(obj, list | tuple | dict):
        children = obj.values() if isinstance(obj, dict) else obj
    else:
        return
    for child in children:
        yield from _estimators(child, seen)


@pytest.mark.parametrize("options", [["--abbreviations"], ["--model", "cascaded"]])
def test_saved_model_records_no_verbose_setting(toy_files, tmp_path, options):
    # progress shown while training (the default verbose=1) is not a setting of the
    # model: not in its parameters, nor in those of the fitted models it holds
    from skbioner.io import load_model

    path = tmp_path / "model.skops"
    assert main(["train", "--train", str(toy_files[0]), "-o", str(path), *options]) == 0
    estimators = list(_estimators(load_model(path)))
    assert len(estimators) >= 3
    loud = [(type(e).__name__, k, v) for e in estimators
            for k, v in e.get_params(deep=True).items() if k.split("__")[-1] == "verbose" and v]
    assert loud == []


def test_predict_uses_a_bundled_model_by_name(tmp_path, capsys):
    # as `skbioner tag` does: no model is the bundled JNLPBA model; a name picks one
    from skbioner import load_model
    from skbioner.io import read_columns

    src = tmp_path / "in.txt"
    src.write_text("IL-2\ngene\nexpression\nin\nT\ncells\n\naspirin\ninduced\nasthma\n\n")
    outs = {}
    for name, args in {"default": [], "flag": ["--model", "jnlpba"], "older": ["jnlpba"],
                       "bc5cdr": ["-m", "bc5cdr"]}.items():
        outs[name] = tmp_path / f"{name}.iob2"
        assert main(["predict", *args, str(src), "-o", str(outs[name])]) == 0
    X = read_columns(src, label_col=None).X
    expected = load_model().predict(X)
    for name in ("default", "flag", "older"):
        assert read_columns(outs[name], scheme=None).y == expected
    assert read_columns(outs["bc5cdr"], scheme=None).y == load_model("bc5cdr").predict(X)
    assert any(lab != "O" for y in expected for lab in y)
    assert main(["predict", "jnlpba", str(src), "-m", "bc5cdr", "-o", "-"]) == 1
    assert "the model is given twice" in capsys.readouterr().err


def test_tag_reads_standard_input(tmp_path, monkeypatch, capsys):
    import io
    import json

    text = "IL-2 gene expression in T cells .\n"
    (tmp_path / "doc.txt").write_text(text)
    assert main(["tag", str(tmp_path / "doc.txt")]) == 0
    from_file = json.loads(capsys.readouterr().out)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["tag", "-"]) == 0  # output - too: standard input is not the output
    from_stdin = json.loads(capsys.readouterr().out)
    assert from_stdin == {**from_file, "id": "stdin"} and from_file["entities"]
    lines = '{"id": "a", "text": "IL-2 gene"}\n{"id": "b", "text": "T cells"}\n'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    assert main(["tag", "-", "--input-format", "jsonl"]) == 0
    assert [json.loads(x)["id"] for x in capsys.readouterr().out.splitlines()] == ["a", "b"]
    assert main(["tag", "-", "-"]) == 1
    assert "standard input (-) is given twice" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["bioc-xml", "bioc-json"])
def test_tag_writes_bioc_with_confidences(tmp_path, capsys, fmt):
    import json

    import bioc
    import bioc.biocjson

    from skbioner.io import read_bioc

    (tmp_path / "d1.txt").write_text("IL-2 gene expression in T cells .\nNF-kappaB binds DNA .")
    (tmp_path / "d2.txt").write_text("The p53 protein in HeLa cells .")
    assert main(["tag", str(tmp_path / "d1.txt"), str(tmp_path / "d2.txt")]) == 0
    jsonl = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    out = tmp_path / "out.bioc"
    assert main(["tag", str(tmp_path / "d1.txt"), str(tmp_path / "d2.txt"), "-o", str(out),
                 "--output-format", fmt]) == 0
    docs = read_bioc(out)
    assert [d.id for d in docs] == ["d1", "d2"]
    for doc, record in zip(docs, jsonl, strict=True):
        assert [(e.type, e.start, e.end) for e in doc.entities] == [
            (e["type"], e["start"], e["end"]) for e in record["entities"]]
    with open(out) as fh:
        collection = bioc.biocxml.load(fh) if fmt == "bioc-xml" else bioc.biocjson.load(fh)
    confidences = {(d.id, a.total_span.offset): float(a.infons["confidence"])
                   for d in collection.documents for p in d.passages for a in p.annotations}
    assert confidences == {(r["id"], e["start"]): e["confidence"]
                           for r in jsonl for e in r["entities"]}
    assert len(confidences) >= 3


def test_evaluate_only_the_documents_in_pred(tmp_path, capsys):
    import json

    gold, pred = tmp_path / "gold", tmp_path / "pred.jsonl"
    gold.mkdir()
    for doc_id, text, ann in (("a", "IL-2 gene", "T1\tprotein 0 4\tIL-2\n"),
                              ("b", "T cells", "T1\tcell_type 0 7\tT cells\n"),
                              ("c", "p53 binds", "T1\tprotein 0 3\tp53\n")):
        (gold / f"{doc_id}.txt").write_text(text)
        (gold / f"{doc_id}.ann").write_text(ann)
    pred.write_text('{"id": "a", "entities": [{"start": 0, "end": 4, "type": "protein", '
                    '"text": "IL-2"}]}\n')
    assert main(["evaluate", str(gold), str(pred), "--json"]) == 0
    every = json.loads(capsys.readouterr().out)
    assert every["overall"]["exact"]["recall"] == 1 / 3 and "documents" not in every
    assert main(["evaluate", str(gold), str(pred), "--json", "--only-predicted-documents"]) == 0
    only = json.loads(capsys.readouterr().out)
    assert only["overall"]["exact"]["f1"] == 1.0 and only["overall"]["n_gold"] == 1
    assert only["documents"] == {"gold": 3, "scored": 1, "left_out": 2}
    assert main(["evaluate", str(gold), str(pred), "--only-predicted-documents"]) == 0
    out, err = capsys.readouterr()
    assert ("Only the documents in the predictions were scored: 1 of the 3 gold documents "
            "(2 left out).") in out.splitlines()
    assert "lacks" not in err and "missing" not in err
