"""The bundled JNLPBA model, used as a first-time user would: skbioner.load_model()."""

import hashlib
import zipfile

import pytest

import skbioner
from skbioner.datasets import JNLPBA_TYPES, load_jnlpba, load_jnlpba_sample
from skbioner.io import model_metadata
from skbioner.metrics import entity_f1_score
from skbioner.tagging import BUNDLED_MODEL
from tests.conftest import data_path

#: The bundled model's exact F1 on the bundled test sample (51 abstracts).  The file is
#: fixed, so only floating-point summation order can move it (see tests/models/test_quality.py
#: for the tolerance); the sample-trained online-crf pin there is 65.66.
SAMPLE_TEST_F1 = 71.87
#: On the full official test set (docs/lab/first-hour-measurements.md, benchmarks/bundled_model.py).
TEST_F1 = 71.89


@pytest.fixture(scope="module")
def model():
    return skbioner.load_model()


def test_load_model_returns_the_bundled_jnlpba_tagger(model):
    from skbioner.models import LearnedCutTagger

    # the online-crf pipeline; raw-text words cut by its tagger of sub-word pieces
    assert isinstance(model, LearnedCutTagger)
    assert [name for name, _ in model.tagger_.steps] == ["features", "model"]
    assert [name for name, _ in model.cut_tagger_.steps] == ["features", "model"]
    assert sorted({c[2:] for c in model.classes_ if c != "O"}) == sorted(JNLPBA_TYPES)
    test = load_jnlpba_sample("test")
    assert 100 * entity_f1_score(test.y, model.predict(test.X)) == pytest.approx(
        SAMPLE_TEST_F1, abs=0.15)
    # loading densifies the weights stored sparse: tagging runs at full speed
    assert not hasattr(model.tagger_[-1].coef_, "tocsr")
    assert not hasattr(model.cut_tagger_[-1].coef_, "tocsr")


def test_raw_text_words_are_cut_where_the_model_finds_an_entity_boundary(model):
    from skbioner.text import BioTokenizer

    text = "CD3/CD28-induced IL-2 production in Jurkat T cells."
    # the tokenizer's cut table keeps the word whole; the tagger of pieces ends an entity
    # inside it, as the corpus cut such words (the corpus's tokens: CD3/CD28 -induced)
    assert list(BioTokenizer().tokenize_text(text)[0][0])[0] == "CD3/CD28-induced"
    ents = [(e.type, e.start, e.end) for e in skbioner.tag_text(text, model)]
    assert ("protein", 0, 8) in ents


def test_the_file_is_small_safe_and_says_what_it_was_trained_on():
    assert BUNDLED_MODEL.stat().st_size <= 10_000_000
    assert zipfile.is_zipfile(BUNDLED_MODEL)  # the .skops format, loaded without running code
    meta = model_metadata(BUNDLED_MODEL)
    data = meta["training_data"]
    # the full JNLPBA 2004 training set, not the sample
    assert (data["documents"], data["sentences"], data["tokens"]) == (2000, 18696, 492806)
    assert meta["preset"] == "online-crf" and "GENIA" in meta["licence"]
    for name in ("LICENSE-GENIA", "README.md"):
        assert (BUNDLED_MODEL.parent / name).is_file()
    assert "CC BY 3.0" in (BUNDLED_MODEL.parent / "README.md").read_text()


@pytest.mark.parametrize("name", sorted(skbioner.tagging.BUNDLED_MODELS))
def test_info_of_every_bundled_model_shows_its_training_data(name, capsys):
    """Each training file: its name, digest and counts (a corpus without document ids says
    so); BC5CDR's record of two files (train + devel) showed as ``training data: None``."""
    import re

    from skbioner.cli import main
    from skbioner.cli._formats import count_documents
    from skbioner.io import read_columns

    assert main(["info", name]) == 0
    out = capsys.readouterr().out
    shown = re.findall(r"^training data: (\S+) \(sha256 [0-9a-f]{16}\.\.\.\)\n"
                       r"  (no document ids|[\d,]+ documents?), ([\d,]+) sentences", out, re.M)
    assert shown, out
    for file, documents, sentences in shown:
        assert int(sentences.replace(",", "")) > 1000
        path = data_path(*file.split("/")[-2:]) if "/" in file else None
        if path is not None:  # the count the record says is the file's
            corpus = read_columns(path)
            n = count_documents(corpus.doc_ids)
            assert documents == ("no document ids" if n == 0 else f"{n:,} documents")


def test_same_model_from_a_path_and_by_default(model, tmp_path):
    copy = tmp_path / "copy.skops"
    copy.write_bytes(BUNDLED_MODEL.read_bytes())
    sent = [["Activation", "of", "NF-kappa", "B", "in", "human", "T", "cells"]]
    assert skbioner.load_model(copy).predict(sent) == model.predict(sent)
    with pytest.raises(FileNotFoundError):
        skbioner.load_model(tmp_path / "missing.skops")


def test_trained_on_the_shared_training_file():
    train = data_path("jnlpba", "train.iob2")
    digest = hashlib.sha256(train.read_bytes()).hexdigest()
    assert model_metadata(BUNDLED_MODEL)["training_data"]["sha256"] == digest


@pytest.mark.slow
def test_official_test_set_f1_as_documented(model):
    test = load_jnlpba(data_path("jnlpba"), "test")
    assert 100 * entity_f1_score(test.y, model.predict(test.X)) == pytest.approx(TEST_F1,
                                                                                 abs=0.02)


def test_user_guide_describes_the_bundled_model_as_its_readme_does():
    # issue 27: the user guide described a reverted bundled model (70.28 / 70.05, 7.4 MB)
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "skbioner/tagging/data/README.md").read_text()
    gold = re.search(r"exact F1 (\d+\.\d\d) on the gold tokens", readme).group(1)
    raw = re.search(r"(\d+\.\d\d) on the raw\s+abstracts", readme).group(1)
    size = f"{BUNDLED_MODEL.stat().st_size / 1e6:.2f} MB"
    assert float(gold) == TEST_F1 and f"; {size}." in readme
    guide = (root / "docs/user-guide.md").read_text()
    section = guide.split("## Tag text right away: the bundled model", 1)[1].split("\n## ")[0]
    intro = section.split("Nothing to train")[0]
    assert f"{gold} exact F1" in intro and f"{raw} from its raw abstracts" in intro
    assert size in intro and "`online-crf`" in intro
