"""The formats of the field on the command line, used as a user would."""

import json

import pytest

from skbioner.cli import main
from skbioner.datasets import load_jnlpba_sample
from skbioner.io import load_model, read_columns, read_documents, write_columns
from tests.cli.conftest import TRAIN

# ###MEDLINE line, a title, an abstract: what converting TRAIN to each format gives back
_OUT = {"brat": "brat", "pubtator": "c.pubtator", "bioc-xml": "c.xml", "bioc-json": "c.json",
        "jsonl": "c.jsonl"}


@pytest.fixture(scope="module")
def sample_files(tmp_path_factory):
    """The bundled sample's test part as a column file and as brat (gold for raw text)."""
    d = tmp_path_factory.mktemp("sample-files")
    write_columns(d / "test.iob2", load_jnlpba_sample("test"))
    assert main(["convert", str(d / "test.iob2"), str(d / "test-brat")]) == 0
    return d


@pytest.mark.parametrize("fmt", list(_OUT))
def test_train_from_every_format_learns_what_the_column_file_teaches(toy_files, tmp_path, fmt,
                                                                     capsys):
    train, column_model = toy_files
    out = tmp_path / _OUT[fmt]
    assert main(["convert", str(train), str(out)]) == 0
    assert f"from columns to {fmt}" in capsys.readouterr().err
    model = tmp_path / "m.skops"
    assert main(["train", "--train", str(out), "-o", str(model)]) == 0
    err = capsys.readouterr().err
    assert f"read {fmt} corpus" in err and "12 sentences, 84 tokens" in err
    # the same sentences and labels, so the same model: the same predictions
    test = load_jnlpba_sample("test")
    assert load_model(model).predict(test.X) == load_model(column_model).predict(test.X)


def test_train_from_brat_close_to_the_column_file(sample_model, tmp_path, capsys):
    """The sample as brat (texts re-tokenized) trains a model as good as the column file's."""
    train = tmp_path / "train.iob2"
    write_columns(train, load_jnlpba_sample("train"))
    assert main(["convert", str(train), str(tmp_path / "brat")]) == 0
    model = tmp_path / "brat.skops"
    assert main(["train", "--train", str(tmp_path / "brat"), "-o", str(model)]) == 0
    test = load_jnlpba_sample("test")
    gold, pred = tmp_path / "gold.iob2", tmp_path / "pred.iob2"
    write_columns(gold, test)
    scores = []
    for m in (model, sample_model):
        write_columns(pred, test, y=load_model(m).predict(test.X))
        capsys.readouterr()
        assert main(["evaluate", str(gold), str(pred), "--json"]) == 0
        scores.append(json.loads(capsys.readouterr().out)["overall"]["exact"]["f1"])
    assert scores[1] > 0.6
    assert abs(scores[0] - scores[1]) < 0.01, scores


def test_space_separated_conll_without_final_blank_line(tmp_path, capsys):
    conll = TRAIN.replace("\t", " ").replace("###MEDLINE:1", "-DOCSTART- -X- O").rstrip("\n")
    train = tmp_path / "train.conll"
    train.write_text(conll)
    model = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "-o", str(model)]) == 0
    pred = tmp_path / "pred.conll"
    assert main(["predict", str(model), str(train), "-o", str(pred)]) == 0
    assert pred.read_text() == conll  # space-separated, no final line break, as read
    capsys.readouterr()
    assert main(["evaluate", str(train), str(pred), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["overall"]["n_gold"] == 24 and out["overall"]["exact"]["f1"] == 1.0


@pytest.mark.parametrize("output_format", ["jsonl", "brat"])
def test_evaluate_tag_output_on_character_offsets(sample_model, sample_files, tmp_path,
                                                  output_format, capsys):
    gold = sample_files / "test-brat"
    out = tmp_path / ("pred.jsonl" if output_format == "jsonl" else "pred")
    assert main(["tag", str(sample_model), str(gold), "-o", str(out), "--output-format",
                 output_format, "--progress", "never"]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(gold), str(out), "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # same documents, same texts: nothing to warn about
    report = json.loads(captured.out)
    o = report["overall"]
    assert o["n_gold"] == 1151 and 0.5 < o["exact"]["f1"] <= min(o["left"]["f1"],
                                                                   o["right"]["f1"])
    assert set(report["per_class"]) == {"DNA", "RNA", "cell_line", "cell_type", "protein"}
    # the same gold as PubTator or BioC scores the same
    for name in ("gold.pubtator", "gold.xml", "gold.json"):
        assert main(["convert", str(gold), str(tmp_path / name)]) == 0
        capsys.readouterr()
        assert main(["evaluate", str(tmp_path / name), str(out), "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == report
    # and the official layout is printed without --json
    assert main(["evaluate", str(gold), str(out)]) == 0
    assert "FULLY CORRECT answer with class info" in capsys.readouterr().out


def test_evaluate_warns_about_missing_documents(sample_files, tmp_path, capsys):
    gold = sample_files / "test-brat"
    docs = read_documents(gold)
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": docs[0].id, "entities": [
        {"start": e.start, "end": e.end, "type": e.type} for e in docs[0].entities]}) + "\n")
    assert main(["evaluate", str(gold), str(pred), "--json"]) == 0
    captured = capsys.readouterr()
    assert "skbioner evaluate: warning:" in captured.err and "no output for 50 GOLD" in \
        captured.err
    assert json.loads(captured.out)["overall"]["exact"]["precision"] == 1.0
    assert main(["evaluate", str(gold), str(pred), "--mode", "spans"]) == 1
    assert "--mode applies to column files" in capsys.readouterr().err


def test_convert_round_trips_and_refuses_outputs_over_inputs(toy_files, tmp_path, capsys):
    train, _ = toy_files
    chain = [tmp_path / "a", tmp_path / "b.xml", tmp_path / "c.pubtator", tmp_path / "d.json",
             tmp_path / "e.jsonl", tmp_path / "back.iob2"]
    src = train
    for dst in chain:
        assert main(["convert", str(src), str(dst), "--tokenizer", "whitespace"]) == 0, dst
        src = dst
    # the tokens and labels survive every format (sentences are lines of the text, which
    # PubTator flattens: its one abstract line holds them all, so compare the token stream)
    a, b = read_columns(train), read_columns(chain[-1])
    assert [t for s in a.X for t in s] == [t for s in b.X for t in s]
    assert [lab for y in a.y for lab in y] == [lab for y in b.y for lab in y]
    assert "written as spaces" in capsys.readouterr().err  # PubTator's flattening is reported
    # an output that is an input is refused before anything is written
    assert main(["convert", str(chain[1]), str(chain[1])]) == 1
    assert "is also an input" in capsys.readouterr().err
    assert main(["convert", str(chain[0]), str(chain[0])]) == 1
    assert "directory is also an input" in capsys.readouterr().err
    assert main(["convert", str(chain[1]), str(tmp_path / "x.txt")]) == 1
    assert "pass --to" in capsys.readouterr().err
    assert main(["convert", str(chain[1]), str(tmp_path / "y"), "--to", "brat",
                 "--to-scheme", "IOBES"]) == 1
    assert "--to-scheme applies to a column OUT" in capsys.readouterr().err
    # a scheme on the way out of a text format
    assert main(["convert", str(chain[1]), str(tmp_path / "z.iob2"), "--to-scheme",
                 "IOBES"]) == 0
    assert "E-cell_type" in (tmp_path / "z.iob2").read_text()


def test_bad_input_is_one_line_naming_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.pubtator"
    bad.write_text("1|t|IL-2 gene\n1\t0\t4\tIL-3\tprotein\t-\n")
    for argv in (["train", "--train", str(bad), "-o", str(tmp_path / "m.skops")],
                 ["convert", str(bad), str(tmp_path / "o.xml")],
                 ["evaluate", str(bad), str(bad)]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{bad}:2:" in err and "IL-3" in err, err
    assert not (tmp_path / "m.skops").exists() and not (tmp_path / "o.xml").exists()


def test_train_reports_entities_labels_cannot_hold(tmp_path, capsys):
    jsonl = tmp_path / "nested.jsonl"
    text = "The IL-2 gene binds NF-kappa B in T cells ."
    jsonl.write_text(json.dumps({"id": "d1", "text": text, "entities": [
        {"start": 4, "end": 13, "type": "DNA"}, {"start": 4, "end": 8, "type": "protein"},
        {"start": 20, "end": 30, "type": "protein"}, {"start": 34, "end": 41,
                                                      "type": "cell_type"}]}) + "\n")
    assert main(["train", "--train", str(jsonl), "-o", str(tmp_path / "m.skops"),
                 "--param", "max_iter=2"]) == 0
    err = capsys.readouterr().err
    assert "skbioner train: warning: 1 entity in 1 document not labelled: nested" in err
    assert "document 'd1': protein 'IL-2' at 4:8" in err


def test_train_reads_a_column_file_from_a_pipe(tmp_path):
    # a pipe can be read once: it is taken for a column file without looking into it
    import os
    import threading

    fifo = tmp_path / "train-pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(TRAIN))
    writer.start()
    assert main(["train", "--train", str(fifo), "-o", str(tmp_path / "m.skops")]) == 0
    writer.join(timeout=30)
    assert (tmp_path / "m.skops").is_file()
