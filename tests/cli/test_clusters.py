"""skbioner clusters, and training with the classes it writes (--word-classes)."""

import pytest

from skbioner.cli import main
from skbioner.io import load_model, model_metadata, read_word_classes
from tests.cli.conftest import TRAIN


@pytest.fixture(scope="module")
def text(tmp_path_factory):
    d = tmp_path_factory.mktemp("unlabeled")
    path = d / "text.txt"
    lines = [f"the {g} gene is expressed in {c} cells ." for g in ("IL-2", "p53", "TNF", "c-myc")
             for c in ("T", "B", "HeLa", "Jurkat")]
    path.write_text("\n".join(lines * 3) + "\n")
    return path


def test_clusters_writes_a_table_that_train_reads(text, tmp_path, capsys):
    out = tmp_path / "classes.tsv.gz"
    assert main(["clusters", str(text), "-o", str(out), "--brown", "6", "--embedding", "2,4",
                 "--dimensions", "3", "--min-count", "2", "--note", "toy text"]) == 0
    err = capsys.readouterr().err
    assert "wrote" in err and "brown, emb2, emb4" in err
    words, cols, normalize, notes = read_word_classes(out)
    assert normalize == "lower-digits" and "toy text" in notes
    assert "il-0" in words and set(cols) == {"brown", "emb2", "emb4"}
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    model_path = tmp_path / "m.skops"
    assert main(["train", "-q", "--train", str(train), "--word-classes", str(out),
                 "-o", str(model_path)]) == 0
    model = load_model(model_path)
    assert [n for n, _ in model.steps] == ["word_classes", "features", "model"]
    used = {g.name for g in model.named_steps["features"].groups_}
    assert {"brown", "emb"} <= used
    assert model_metadata(model_path)["options"]["word_classes"] == str(out)
    assert model.predict([["The", "IL-2", "gene"]])[0][1] == "B-DNA"


def test_clusters_refuses_nothing_to_fit_and_output_over_input(text, tmp_path, capsys):
    assert main(["clusters", str(text), "-o", str(tmp_path / "c.tsv"), "--brown", "0",
                 "--embedding", ""]) == 1
    assert "nothing to fit" in capsys.readouterr().err
    assert main(["clusters", str(text), "-o", str(text)]) == 1
    assert "output" in capsys.readouterr().err


def test_train_refuses_a_file_that_is_no_class_table(text, tmp_path, capsys):
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    assert main(["train", "-q", "--train", str(train), "--word-classes", str(text),
                 "-o", str(tmp_path / "m.skops")]) == 1
    assert "not a word class table" in capsys.readouterr().err
