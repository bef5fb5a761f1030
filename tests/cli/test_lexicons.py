"""skbioner train --lexicons, and what skbioner info says of a model that reads them."""

from skbioner.cli import main
from skbioner.io import load_model, model_metadata
from tests.cli.conftest import TRAIN


def test_train_reads_the_bundled_lexicons_and_info_shows_them(tmp_path, capsys):
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    path = tmp_path / "m.skops"
    assert main(["train", "-q", "--train", str(train), "--lexicons", "--lexicon-types",
                 "gene,cell_line", "-o", str(path)]) == 0
    model = load_model(path)
    assert [n for n, _ in model.steps] == ["lexicons", "features", "model"]
    assert model.named_steps["lexicons"].types_ == ("gene", "cell_line")
    assert {g.name for g in model.named_steps["features"].groups_} >= {"lexicon"}
    assert model_metadata(path)["options"]["lexicon_types"] == "gene,cell_line"
    capsys.readouterr()
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "lexicons: bundled (sha256 " in out and "gene " in out and "cell_line " in out
    assert main(["train", "-q", "--train", str(train), "--lexicon-types", "gene",
                 "-o", str(tmp_path / "n.skops")]) == 1
    assert "--lexicon-types need --lexicons" in capsys.readouterr().err
