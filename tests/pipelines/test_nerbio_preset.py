"""The NERBio preset: POS, chunks, numeral normalization, the chosen conjunctions; from the CLI
too."""

from skbioner.cli import main
from skbioner.features import get_preset
from skbioner.pipelines import make_tagger
from skbioner.pipelines._presets import NERBIO_CONJUNCTIONS, NERBIO_NUMERALS
from skbioner.text import NumericNormalizer

TRAIN = "###MEDLINE:1\n\n" + "".join(
    f"The\tO\n{g}\tB-DNA\ngene\tI-DNA\nin\tO\n{c}\tB-cell_type\ncells\tI-cell_type\n.\tO\n\n"
    for g in ("IL-2", "p53", "TNF", "c-myc") for c in ("T", "B", "HeLa")
)


def test_preset_steps_and_groups():
    pipe = make_tagger("nerbio")  # POS reads the words before normalization
    assert [n for n, _ in pipe.steps] == ["pos", "chunks", "numerals", "features", "model"]
    assert isinstance(pipe[2], NumericNormalizer) and pipe[2].mode == NERBIO_NUMERALS
    names = pipe.named_steps["features"].get_template_names()
    conj = {g.name for g in get_preset("nerbio") if g.kind == "conjunction"}
    assert set(names) & conj == set(NERBIO_CONJUNCTIONS)
    assert {"w", "word_class", "brief_word_class", "prefix", "suffix", "orthographic",
            "pos", "chunk"} <= set(names)
    assert [n for n, _ in make_tagger("nerbio", pos=True).steps] == [
        "pos", "chunks", "numerals", "features", "model"]  # POS reads the words unnormalized


def test_cli_trains_nerbio_with_pos(tmp_path):
    from skbioner.io import load_model

    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    out = tmp_path / "m.skops"
    assert main(["train", "-q", "--train", str(train), "--model", "nerbio", "-o", str(out)]) == 0
    model = load_model(out)
    assert [n for n, _ in model.steps] == ["pos", "chunks", "numerals", "features", "model"]
    assert {"pos", "chunk"} <= set(model.named_steps["features"].get_template_names())
    assert "chunk[0]=B-NP" in model.named_steps["features"].get_feature_names_out()
    pred = tmp_path / "pred.iob2"
    assert main(["predict", str(out), str(train), "-o", str(pred)]) == 0
    assert pred.read_text() == TRAIN
