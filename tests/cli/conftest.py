"""Fixtures for the command-line tests: small trained models and their training file."""

import pytest

from skbioner.cli import main

TRAIN = "###MEDLINE:1\n\n" + "".join(
    f"The\tO\n{g}\tB-DNA\ngene\tI-DNA\nin\tO\n{c}\tB-cell_type\ncells\tI-cell_type\n.\tO\n\n"
    for g in ("IL-2", "p53", "TNF", "c-myc") for c in ("T", "B", "HeLa")
)


@pytest.fixture(scope="session")
def toy_files(tmp_path_factory):
    """``(train.iob2, model.skops)``: the toy corpus and an online-crf trained on it."""
    d = tmp_path_factory.mktemp("toy")
    train = d / "train.iob2"
    train.write_text(TRAIN)
    model = d / "model.skops"
    assert main(["train", "-q", "--train", str(train), "-o", str(model)]) == 0
    return train, model


@pytest.fixture(scope="session")
def sample_model(tmp_path_factory):
    """An online-crf trained on the bundled JNLPBA sample (as a user would), saved .skops."""
    from skbioner.datasets import load_jnlpba_sample
    from skbioner.io import save_model
    from skbioner.pipelines import make_tagger

    train = load_jnlpba_sample("train")
    path = tmp_path_factory.mktemp("sample") / "sample.skops"
    save_model(make_tagger("online-crf").fit(train.X, train.y), path)
    return path
