"""Issue 11, "nothing lost, nothing trusted blindly": each reproduced failure as a test.

Every test gives the command the hostile file or option, and checks the
one-line error or warning, the exit status, and that nothing was lost:
inputs and earlier outputs unchanged, the other documents written.
(Item 15, an unwritable numba cache, is tests/test_numba_cache.py; the
interruption tests of item 4 are tests/cli/test_fault_injection.py.)
"""

import gzip
import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import joblib
import pytest

from skbioner.cli import main
from skbioner.io import read_brat_dir, read_columns, read_jnlpba
from tests.cli.conftest import TRAIN
from tests.conftest import data_path


def run(capsys, *args):
    """``(status, stdout, stderr)`` of the command line, run in-process."""
    capsys.readouterr()
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(err, command, *needles):
    """stderr is a single ``skbioner COMMAND: error: ...`` line holding every needle."""
    assert err.count("\n") == 1 and err.startswith(f"skbioner {command}: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert str(needle) in err, (needle, err)


def digest(*paths):
    return {str(p): hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in paths}


def tree(directory):
    return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir())}


TEXT = "The IL-2 gene in T cells .\nThe p53 gene in HeLa cells ."


# -- item 1: an entity across a line break; one document never stops a batch ----------------


def test_item1_entity_across_a_line_break_is_written_as_fragments(tmp_path, capsys):
    # a single line break inside a paragraph does not end the sentence, so an entity can
    # span it (a heading on its own line ends its sentence, issue 15: "OBJECTIVE:\nT
    # lymphocytes" stopped the batch before, when the heading stayed in the sentence)
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN + "the\tO\nNF-kappaB\tB-DNA\ngene\tI-DNA\n\n")
    model = tmp_path / "majority.skops"
    assert run(capsys, "train", "--train", train, "--model", "majority", "-o", model)[0] == 0
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("RESULTS:\nthe NF-kappaB\ngene in T cells .")
    (src / "b.txt").write_text(TEXT)
    status, _, err = run(capsys, "tag", model, src, "-o", tmp_path / "out",
                         "--output-format", "brat", "--progress", "never")
    assert status == 0 and "tagged 2 documents: " in err
    a, b = read_brat_dir(tmp_path / "out")
    dna = a.entities[0]
    assert (dna.type, dna.text, dna.fragments) == ("DNA", "NF-kappaB\ngene",
                                                   ((13, 22), (23, 27)))
    assert (tmp_path / "out" / "a.ann").read_text().startswith(
        "T1\tDNA 13 22;23 27\tNF-kappaB gene\n")
    assert len(b.entities) == 4


def test_item1_a_document_that_cannot_be_written_does_not_stop_the_batch(
        toy_files, tmp_path, capsys, monkeypatch):
    _, model = toy_files
    src = tmp_path / "in"
    src.mkdir()
    for name in ("a", "b", "c"):
        (src / f"{name}.txt").write_text(TEXT)
    import skbioner.tagging._writers as writers

    real = writers.write_brat

    def failing(directory, doc, **kw):
        if doc.id == "b":
            raise ValueError(f"document {doc.id!r}: cannot be written (injected)")
        return real(directory, doc, **kw)

    monkeypatch.setattr(writers, "write_brat", failing)
    status, _, err = run(capsys, "tag", model, src, "-o", tmp_path / "out",
                         "--output-format", "brat", "--progress", "never")
    assert status == 1
    assert "skipped document 'b'" in err and "tagged 2 documents, 1 failed" in err
    assert sorted(tree(tmp_path / "out")) == ["a.ann", "a.txt", "c.ann", "c.txt"]


def test_item1_jnlpba_test_abstracts_all_written(sample_model, tmp_path, capsys):
    src = data_path("jnlpba", "test-standoff")
    status, _, err = run(capsys, "tag", sample_model, src, "-o", tmp_path / "out",
                         "--output-format", "brat", "--progress", "never")
    n = len(list(src.glob("*.txt")))
    assert status == 0 and f"tagged {n} documents: " in err  # 52 of 404 before the fix
    docs = read_brat_dir(tmp_path / "out")
    assert len(docs) == n
    assert all(d.text == (src / f"{d.id}.txt").read_text() for d in docs)
    assert all(d.text[e.start:e.end] == e.text for d in docs for e in d.entities)


# -- items 2, 3: lone surrogates, ids with NUL or too long -----------------------------------


def _hostile_jsonl(path):
    lines = [
        json.dumps({"id": "ok1", "text": TEXT}),
        '{"id": "surrogate", "text": "IL\\ud800-2 binds ."}',  # an escaped lone surrogate
        json.dumps({"id": "nul\u0000id", "text": TEXT}),
        json.dumps({"id": "x" * 300, "text": TEXT}),
        json.dumps({"id": "ok2", "text": TEXT}),
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("fmt", ["brat", "jsonl", "iob2"])
def test_items2_3_bad_records_are_reported_and_the_rest_written(toy_files, tmp_path, capsys,
                                                                fmt):
    _, model = toy_files
    src = _hostile_jsonl(tmp_path / "docs.jsonl")
    out = tmp_path / ("out" if fmt == "brat" else f"out.{fmt}")
    status, _, err = run(capsys, "tag", model, src, "-o", out, "--output-format", fmt,
                         "--progress", "never")
    assert status == 1 and "tagged 2 documents, 3 failed" in err
    lines = err.splitlines()
    assert len(lines) == 4 and "Traceback" not in err
    assert f"document 'surrogate' ({src}:2): the text holds a lone surrogate '\\ud800'" in lines[0]
    assert f"{src}:3: \"id\" 'nul\\x00id' cannot name output files" in lines[1]
    assert f"{src}:4: \"id\" 'xxxx" in lines[2] and "longer than 250 bytes" in lines[2]
    assert max(map(len, lines)) < 300  # a 300-character id is not printed whole
    if fmt == "brat":
        assert sorted(tree(out)) == ["ok1.ann", "ok1.txt", "ok2.ann", "ok2.txt"]
    elif fmt == "jsonl":
        assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["ok1", "ok2"]
    else:
        assert sorted(set(read_jnlpba(out).doc_ids)) == ["ok1", "ok2"]


# -- item 5: train -o EXISTING is atomic ---------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs resource limits (POSIX)")
def test_item5_failed_save_keeps_the_existing_model(toy_files, tmp_path):
    import resource

    train, model = toy_files
    existing = tmp_path / "model.skops"
    existing.write_bytes(model.read_bytes())
    before = digest(existing)
    limit = 20_000  # bytes: far less than a model

    def limit_file_size():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    r = subprocess.run([sys.executable, "-m", "skbioner", "train", "--train", str(train),
                        "-o", str(existing)], capture_output=True, text=True,
                       preexec_fn=limit_file_size)
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == f"skbioner train: error: {existing}: File too large"
    assert digest(existing) == before and os.listdir(tmp_path) == ["model.skops"]


# -- item 6: loading a model never runs pickle ---------------------------------------------


class _Touch:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (Path(self.marker),))


def test_item6_crafted_joblib_is_refused_by_predict_and_tag(toy_files, tmp_path, capsys):
    train, _ = toy_files
    marker = tmp_path / "marker"
    evil = tmp_path / "model.joblib"
    joblib.dump(_Touch(marker), evil)
    (tmp_path / "d.txt").write_text(TEXT)
    for args in (["predict", evil, train, "-o", tmp_path / "p.iob2"],
                 ["tag", evil, tmp_path / "d.txt", "-o", tmp_path / "o.jsonl"]):
        status, _, err = run(capsys, *args)
        assert status == 1
        one_line_error(err, args[0], f"{evil}: refused: this is a pickle", "would run any code",
                       "--allow-pickle")
        assert not marker.exists()
    assert not (tmp_path / "p.iob2").exists() and not (tmp_path / "o.jsonl").exists()


def test_item6_train_writes_the_safe_format_and_joblib_on_request(toy_files, tmp_path, capsys):
    import zipfile

    train, model = toy_files
    assert zipfile.is_zipfile(model)  # `train -o x.skops`
    pkl = tmp_path / "m.joblib"
    assert run(capsys, "train", "--train", train, "--model", "majority", "-o", pkl)[0] == 0
    assert not zipfile.is_zipfile(pkl) and joblib.load(pkl).predict([["IL-2"]])
    status, _, err = run(capsys, "predict", pkl, train, "-o", tmp_path / "p")
    one_line_error(err, "predict", "--allow-pickle")
    assert run(capsys, "predict", "--allow-pickle", pkl, train, "-o", tmp_path / "p")[0] == 0
    (tmp_path / "d.txt").write_text(TEXT)
    assert run(capsys, "tag", "--allow-pickle", pkl, tmp_path / "d.txt", "-o",
               tmp_path / "o.jsonl", "--n-jobs", "2", "--parallel-from", "0")[0] == 0


# -- item 7: an output that is also an input is refused -------------------------------------


def test_item7_output_equal_to_an_input_is_refused(toy_files, tmp_path, capsys):
    _, model = toy_files
    data = tmp_path / "in.iob2"
    data.write_text(TRAIN)
    m = tmp_path / "m.skops"
    m.write_bytes(model.read_bytes())
    os.link(data, tmp_path / "hardlink.iob2")
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "1.txt").write_text(TEXT)
    (gold / "1.ann").write_text("T1\tDNA 4 13\tIL-2 gene\n")
    before = digest(data, m, gold / "1.txt", gold / "1.ann")
    cases = [
        ("predict", m, data, "-o", data),
        ("predict", m, data, "-o", m),
        ("predict", m, data, "-o", tmp_path / ".." / tmp_path.name / "in.iob2"),
        ("predict", m, data, "-o", tmp_path / "hardlink.iob2"),
        ("train", "--train", data, "-o", data),
        ("convert", data, data, "--to-scheme", "IOBES"),
        ("tag", m, gold, "-o", gold, "--output-format", "brat"),
        ("tag", m, gold / "1.txt", "-o", gold, "--output-format", "brat"),
        ("tag", m, gold / "1.txt", "-o", gold / "1.txt", "--output-format", "jsonl"),
        ("tag", m, gold, "-o", gold / "more.jsonl"),
    ]
    for args in cases:
        status, _, err = run(capsys, *args)
        assert status == 1, args
        one_line_error(err, args[0], "nothing was written", "the output")
    assert digest(data, m, gold / "1.txt", gold / "1.ann") == before
    assert sorted(p.name for p in gold.iterdir()) == ["1.ann", "1.txt"]


# -- item 8: predict reads its input once (pipes work) ---------------------------------------


def test_item8_predict_reads_a_pipe(toy_files, tmp_path, capsys):
    _, model = toy_files
    (tmp_path / "in.iob2").write_text(TRAIN)
    assert run(capsys, "predict", model, tmp_path / "in.iob2", "-o", tmp_path / "ref")[0] == 0
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(TRAIN))
    writer.start()
    status, _, err = run(capsys, "predict", model, fifo, "-o", tmp_path / "out")
    writer.join(timeout=30)
    assert status == 0, err
    assert (tmp_path / "out").read_bytes() == (tmp_path / "ref").read_bytes()


# -- item 9: corrupt or foreign model files, bad encodings, /dev/zero -------------------------


@pytest.mark.parametrize("content, needle", [
    (b"", "the model file is empty"),
    (b"\x80\x04\x95garbage", "this is a pickle"),
    (b"PK\x03\x04\x14\x00truncated", "not a valid .skops model file"),
    (b"\x00\x01\x02\x03" * 100, "not a model file"),
])
def test_item9_corrupt_models_get_one_line_errors(toy_files, tmp_path, capsys, content, needle):
    train, _ = toy_files
    bad = tmp_path / "bad.skops"
    bad.write_bytes(content)
    for args in (["predict", bad, train, "-o", tmp_path / "p"],
                 ["predict", "--allow-pickle", bad, train, "-o", tmp_path / "p"],
                 ["tag", bad, train, "-o", tmp_path / "o.jsonl"]):
        status, _, err = run(capsys, *args)
        assert status == 1
        one_line_error(err, args[0], bad)
    one_line_error(err, "tag", needle)
    assert not (tmp_path / "p").exists() and not (tmp_path / "o.jsonl").exists()


def test_item9_bad_encoding_and_dev_zero(toy_files, tmp_path, capsys):
    train, model = toy_files
    (tmp_path / "d.txt").write_text(TEXT)
    status, _, err = run(capsys, "tag", model, tmp_path / "d.txt", "-o", tmp_path / "o.jsonl",
                         "--encoding", "bogus-enc")
    assert status == 1
    one_line_error(err, "tag", "unknown encoding 'bogus-enc'")
    for args in (["predict", model, "/dev/zero", "-o", tmp_path / "p"],
                 ["convert", "/dev/zero", tmp_path / "p", "--to-scheme", "IOBES"],
                 ["evaluate", train, "/dev/zero"],
                 ["predict", "/dev/zero", train, "-o", tmp_path / "p"]):
        status, _, err = run(capsys, *args)
        assert status == 1
        one_line_error(err, args[0], "/dev/zero: not a regular file or pipe (a character device)")


# -- items 10, 11, 13: BOM, space-separated files, NUL bytes ---------------------------------


def test_item10_byte_order_mark_is_not_glued_to_the_first_token(toy_files, tmp_path, capsys):
    _, model = toy_files
    src = tmp_path / "bom.iob2"
    src.write_bytes(b"\xef\xbb\xbf" + TRAIN.encode())  # a ###MEDLINE line comes first
    out = tmp_path / "out.iob2"
    assert run(capsys, "predict", model, src, "-o", out)[0] == 0
    assert out.read_bytes() == src.read_bytes()  # BOM kept, labels as in the gold
    corpus = read_jnlpba(src)
    assert corpus.doc_ids[0] == "1" and corpus.X[0][0] == "The"
    assert run(capsys, "convert", src, tmp_path / "c", "--to-scheme", "IOB2")[0] == 0
    assert (tmp_path / "c").read_bytes() == src.read_bytes()


def test_item11_space_separated_file_is_not_read_as_tokens(toy_files, tmp_path, capsys):
    _, model = toy_files
    src = tmp_path / "spaces.iob2"
    src.write_text("###MEDLINE:1\n\nThe O\nIL-2 B-DNA\n\n")
    # the separator is detected: a space-separated file is read as columns, written back so
    assert run(capsys, "predict", model, src, "-o", tmp_path / "out")[0] == 0
    assert read_columns(tmp_path / "out", sep=" ").y == [["O", "B-DNA"]]
    # told it is tab-separated, its tokens would hold spaces: refused with the way out
    status, _, err = run(capsys, "predict", model, src, "-o", tmp_path / "out2", "--sep", "tab")
    assert status == 1
    one_line_error(err, "predict", f"{src}:3: token 'The O' contains a space", "--sep ' '")
    assert not (tmp_path / "out2").exists()


@pytest.mark.parametrize("where", ["label", "token"])
def test_item13_nul_bytes_in_labels_and_tokens_are_refused(toy_files, tmp_path, capsys, where):
    _, model = toy_files
    bad = tmp_path / "nul.iob2"
    line = "IL-2\tB-prot\x00ein" if where == "label" else "IL\x00-2\tB-protein"
    bad.write_text(f"###MEDLINE:1\n\nThe\tO\n{line}\n\n")
    for args in (["train", "--train", bad, "-o", tmp_path / "m.skops"],
                 ["predict", model, bad, "-o", tmp_path / "p"],
                 ["convert", bad, tmp_path / "c", "--to-scheme", "IOBES"]):
        status, _, err = run(capsys, *args)
        assert status == 1
        one_line_error(err, args[0], f"{bad}:4: control character '\\x00'")
    assert not any(p.name in ("m.skops", "p", "c") for p in tmp_path.iterdir())


# -- item 12: evaluate warns about what the official counts overlook ----------------------------


GOLD = "###MEDLINE:1\n\nIL-2\tB-protein\ngene\tO\n\nT\tB-cell_type\ncells\tI-cell_type\n\n"


@pytest.mark.parametrize("pred, n_warnings, needles", [
    ("###MEDLINE:1\n\nXX\tB-protein\ngene\tO\n\nT\tB-cell_type\nYY\tI-cell_type\n\n", 1,
     ["pred.iob2:3, 7: 2 token(s) differ from GOLD's, e.g. 'XX' where", "gold.iob2:3 has 'IL-2'"]),
    ("###MEDLINE:1\n\nIL-2\tB-protein\ngene\n\nT\tB-cell_type\ncells\tI-cell_type\n\n", 1,
     ["pred.iob2:4: no label column"]),
    ("###MEDLINE:1\n\nIL-2\tB-protein\ngene\tO\r\n\nT\tB-cell_type\ncells\tI-cell_type\n\n", 1,
     ["pred.iob2:4: line ends in a carriage return"]),
    ("###MEDLINE:1\n\nIL-2\tS-protein\ngene\tO\n\nT\tB-cell_type\ncells\tE-cell_type\n\n", 2,
     ["pred.iob2:3, 7: label 'S-protein' is not an IOB2 label", "looks like IOBES or BIES"]),
    ("###MEDLINE:1\n\nIL-2\tI-protein\ngene\tO\n\nT\tI-cell_type\ncells\tI-cell_type\n\n", 1,
     ["looks like IOB1"]),
])
def test_item12_evaluate_warns_but_keeps_the_official_counts(tmp_path, capsys, pred, n_warnings,
                                                             needles):
    from skbioner.metrics import read_label_blocks
    from tests.metrics.official_reference import reference_counts

    g, p = tmp_path / "gold.iob2", tmp_path / "pred.iob2"
    g.write_text(GOLD)
    p.write_text(pred)
    status, out, err = run(capsys, "evaluate", g, p, "--json")
    assert status == 0
    lines = [line for line in err.splitlines() if "no counted entity" not in line]
    assert len(lines) == n_warnings and "Traceback" not in err
    assert all(line.startswith("skbioner evaluate: warning: ") for line in lines)
    for needle in needles:
        assert needle in err
    # the counts are still exactly the official script's
    gold, _ = read_label_blocks(g)
    answer, _ = read_label_blocks(p)
    ref, _ = reference_counts(gold, answer)
    overall = json.loads(out)["overall"]
    assert (overall["n_pred"], overall["exact"]["tp"], overall["left"]["tp"]) == (
        ref.get("ans", 0), ref.get("exact", 0), ref.get("left", 0))


def test_item12_spans_mode_errors_name_file_and_line(tmp_path, capsys):
    g, p = tmp_path / "gold.iob2", tmp_path / "pred.iob2"
    g.write_text(GOLD)
    p.write_text(GOLD.replace("I-cell_type", "X-bad"))
    status, _, err = run(capsys, "evaluate", g, p, "--mode", "spans")
    assert status == 1
    one_line_error(err, "evaluate", f"{p}:7: label 'X-bad' is not a valid IOB2 label")


# -- item 14: pipes and devices for tag, non-gzip .gz, Ctrl-C with --n-jobs --------------------


def test_item14_tag_reads_a_pipe_and_names_devices(toy_files, tmp_path, capsys):
    _, model = toy_files
    fifo = tmp_path / "docs.jsonl"
    os.mkfifo(fifo)
    record = json.dumps({"id": "d1", "text": TEXT}) + "\n"
    writer = threading.Thread(target=lambda: fifo.write_text(record))
    writer.start()
    status, _, err = run(capsys, "tag", model, fifo, "-o", tmp_path / "o.jsonl",
                         "--progress", "never")
    writer.join(timeout=30)
    assert status == 0 and "tagged 1 document:" in err
    assert json.loads((tmp_path / "o.jsonl").read_text())["id"] == "d1"
    status, _, err = run(capsys, "tag", model, "/dev/zero", "-o", tmp_path / "z.jsonl")
    assert status == 1
    one_line_error(err, "tag", "/dev/zero: not a text file, JSONL file or directory "
                               "(a character device)")


def test_item14_predict_names_a_gz_file_that_is_not_gzip(toy_files, tmp_path, capsys):
    _, model = toy_files
    fake = tmp_path / "in.iob2.gz"
    fake.write_text(TRAIN)
    status, _, err = run(capsys, "predict", model, fake, "-o", tmp_path / "p")
    assert status == 1
    one_line_error(err, "predict", f"{fake}: not a valid gzip file")
    cut = tmp_path / "cut.iob2.gz"
    cut.write_bytes(gzip.compress(TRAIN.encode())[:60])
    status, _, err = run(capsys, "predict", model, cut, "-o", tmp_path / "p")
    one_line_error(err, "predict", f"{cut}: not a valid gzip file")
