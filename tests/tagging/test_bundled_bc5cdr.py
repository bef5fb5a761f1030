"""The bundled chemical and disease model, by name: skbioner.load_model("bc5cdr")."""

import zipfile

import pytest

import skbioner
from skbioner.io import model_metadata, read_columns
from skbioner.metrics import entity_f1_score
from skbioner.tagging import BUNDLED_MODEL, BUNDLED_MODELS, bundled_model_path, tag_text
from tests.conftest import data_path

PATH = BUNDLED_MODELS["bc5cdr"]


@pytest.fixture(scope="module")
def model():
    return skbioner.load_model("bc5cdr")


def test_names_resolve_to_the_bundled_files(tmp_path, monkeypatch):
    assert bundled_model_path(None) == BUNDLED_MODEL == bundled_model_path("jnlpba")
    assert bundled_model_path("bc5cdr") == PATH
    assert bundled_model_path(PATH) == PATH and bundled_model_path(tmp_path / "x") is None
    # a file of that name in the working directory is loaded as a file, not the name
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bc5cdr").write_text("not a model")
    assert bundled_model_path("bc5cdr") is None
    with pytest.raises(ValueError, match="bc5cdr"):
        skbioner.load_model("bc5cdr")


def test_tags_chemicals_and_diseases(model):
    assert sorted({c[2:] for c in model.classes_ if c != "O"}) == ["Chemical", "Disease"]
    ents = tag_text("Cisplatin-induced nephrotoxicity was reduced by magnesium in patients "
                    "with lung cancer.", model=PATH)
    found = {(e.type, e.text) for e in ents}
    assert ("Chemical", "Cisplatin") in found and ("Disease", "nephrotoxicity") in found
    assert all(0 <= e.confidence <= 1 for e in ents)


CORPUS_MODELS = {"bc5cdr": ("BioCreative V", "BC5CDR"),
                 "bionlp13cg": ("BioNLP 2013 Cancer Genetics", "BioNLP13CG")}


@pytest.mark.parametrize("name", sorted(CORPUS_MODELS))
def test_the_file_is_small_safe_and_documented(name):
    path = BUNDLED_MODELS[name]
    assert path.stat().st_size <= 10_000_000
    assert zipfile.is_zipfile(path)
    meta = model_metadata(path)
    assert meta["training_data"]["train"]["file"] == f"{name}/train.tsv"
    assert meta["training_data"]["devel"]["file"] == f"{name}/devel.tsv"
    readme = (path.parent / "README.md").read_text()
    assert f"{name}.skops" in readme and CORPUS_MODELS[name][0] in readme


@pytest.mark.parametrize("name", sorted(CORPUS_MODELS))
def test_test_f1_as_documented(name):
    import re

    model = skbioner.load_model(name)
    test = read_columns(data_path(name, "test.tsv"))
    readme = (BUNDLED_MODELS[name].parent / "README.md").read_text()
    label = CORPUS_MODELS[name][1]
    documented = float(re.search(rf"{label} test file: exact F1 \*\*([\d.]+)\*\*",
                                 readme).group(1))
    f1 = 100 * entity_f1_score(test.y, model.predict(test.X))
    assert f1 == pytest.approx(documented, abs=0.05)


@pytest.mark.parametrize("name", sorted(CORPUS_MODELS))
def test_both_passes_stored_sparse_and_loaded_dense(name):
    import numpy as np
    import scipy.sparse as sp

    from skbioner.io import load_model

    def chains(model):
        stack = model.tagger_
        return [p[-1].coef_ for p in (*stack.estimators_, stack.final_estimator_)]

    assert all(sp.issparse(c) for c in chains(load_model(BUNDLED_MODELS[name])))
    assert all(isinstance(c, np.ndarray) for c in chains(skbioner.load_model(name)))
