"""Model files: the safe format round-trips every model, hostile files run nothing (issue 11)."""

import io
import json
import sys
import zipfile

import joblib
import numpy as np
import pytest
import skops.io as sio
from sklearn.pipeline import make_pipeline

from skbioner.features import Channel
from skbioner.io import ModelFileError, load_model, save_model
from skbioner.io._models import TRUSTED_TYPES
from skbioner.pipelines import make_tagger
from tests.models.toy import toy_sentences


def _fitted(name, **options):
    X, y = toy_sentences(30, with_singletons=True)
    params = {"n_folds": 2} if name == "cascaded" else {}
    return make_tagger(name, model_params=params, **options).fit(X, y), X


@pytest.mark.parametrize("name", ["online-crf", "cascaded", "crfsuite", "majority"])
def test_every_cli_model_round_trips_in_the_safe_format(tmp_path, name):
    model, X = _fitted(name)
    path = save_model(model, tmp_path / "m.skops")
    assert zipfile.is_zipfile(path)
    loaded = load_model(path)
    assert type(loaded) is type(model) and loaded.predict(X) == model.predict(X)
    assert loaded.get_params(deep=False).keys() == model.get_params(deep=False).keys()


def test_pipeline_with_pos_and_hmm_round_trips(tmp_path):
    unlabeled = tmp_path / "u.txt"
    unlabeled.write_text("The IL-2 gene is expressed in T cells .\nNF-kappa B binds DNA .\n" * 5)
    model, X = _fitted("online-crf", pos=True, hmm_states=unlabeled,
                       hmm_params={"n_states": 3, "max_iter": 2, "tol": None})
    loaded = load_model(save_model(model, tmp_path / "m.skops"))
    assert [n for n, _ in loaded.steps] == ["pos", "hmm", "features", "model"]
    assert loaded.predict(X) == model.predict(X)
    sentence = loaded[:-2].transform(X[:1])[0]  # the annotations are the same after loading
    assert sentence.column("pos") == model[:-2].transform(X[:1])[0].column("pos")


def test_joblib_path_writes_a_pickle_that_needs_the_opt_in(tmp_path):
    model, X = _fitted("majority")
    path = save_model(model, tmp_path / "m.joblib")
    assert joblib.load(path).predict(X) == model.predict(X)  # a real joblib file
    with pytest.raises(ModelFileError, match=r"m\.joblib: refused: this is a pickle.*would run "
                                             r"any code.*allow_pickle=True.*--allow-pickle"):
        load_model(path)
    assert load_model(path, allow_pickle=True).predict(X) == model.predict(X)


class _Touch:
    """Unpickling this calls ``Path.touch(marker)``: a stand-in for any code."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        from pathlib import Path

        return (Path.touch, (Path(self.marker),))


@pytest.mark.parametrize("compress", [0, 3])
def test_crafted_joblib_is_refused_without_running_its_payload(tmp_path, compress):
    marker = tmp_path / "marker"
    evil = tmp_path / "evil.joblib"
    joblib.dump(_Touch(marker), evil, compress=compress)
    with pytest.raises(ModelFileError, match="refused: this is .*pickle"):
        load_model(evil)
    assert not marker.exists()
    disguised = evil.rename(tmp_path / "evil.skops")  # the content decides, not the name
    with pytest.raises(ModelFileError, match="refused: this is .*pickle"):
        load_model(disguised)
    assert not marker.exists()
    load_model(tmp_path / "evil.skops", allow_pickle=True)  # the payload is live: it runs
    assert marker.exists()


def _skops_with(node):
    """A .skops archive whose whole object is ``node`` (a hand-written schema)."""
    with zipfile.ZipFile(io.BytesIO(sio.dumps(0))) as z:  # this skops's protocol
        base = json.loads(z.read("schema.json"))
    schema = dict(node, protocol=base["protocol"], _skops_version=base["_skops_version"])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("schema.json", json.dumps(schema))
    return buffer.getvalue()


def _call(module, name, *args):
    """A skops node that, when built, calls ``module.name(*args)``."""
    content = {"__class__": "tuple", "__module__": "builtins", "__loader__": "TupleNode",
               "content": [{"__class__": "str", "__module__": "builtins",
                            "__loader__": "JsonNode", "content": json.dumps(a), "is_json": True}
                           for a in args]}
    return {"__class__": name, "__module__": module, "__loader__": "ConstructorFromReduceNode",
            "content": content}


def test_crafted_skops_is_refused_without_running_its_payload(tmp_path):
    marker = tmp_path / "marker"
    data = _skops_with(_call("os", "system", f"touch {marker}"))
    path = tmp_path / "evil.skops"
    path.write_bytes(data)
    with pytest.raises(ModelFileError, match=r"evil\.skops: refused: .*not trusted \(os\.system\)"
                                             r"; nothing was loaded"):
        load_model(path)
    assert not marker.exists()
    sio.loads(data, trusted=["os.system"])  # the payload is live once trusted
    assert marker.exists()


@pytest.mark.parametrize("module, name", [
    ("skbioner.annotate._pos", "Parallel"),  # a class skbioner imports, not its own
    ("skbioner.io._atomic", "os"),  # a module a skbioner module imports
    ("skbioner.__main__", "main"),  # importing it would run the command line
    ("skbioner.io._atomic", "atomic_write_bytes"),  # skbioner's, but a function to call
    ("skbioner.tagging._writers", "_BratWriter"),  # skbioner's class: its __init__ mkdirs
    ("skbioner.nosuchmodule", "X"),
])
def test_names_inside_skbioner_are_trusted_only_when_listed(tmp_path, module, name):
    target = tmp_path / "written-by-the-file"
    path = tmp_path / "m.skops"
    path.write_bytes(_skops_with(_call(module, name, str(target), "x")))
    with pytest.raises(ModelFileError, match=f"not trusted \\({module}\\.{name}\\)"):
        load_model(path)
    assert not target.exists() and "skbioner.__main__" not in sys.modules


def test_the_allowlist_is_explicit(tmp_path):
    # the suite's own estimators load because they are listed, not because of their module
    from skbioner.text import BioTokenizer

    tok = BioTokenizer()
    loaded = load_model(save_model(tok, tmp_path / "t.skops"))
    assert type(loaded) is BioTokenizer and loaded.get_params() == tok.get_params()
    assert TRUSTED_TYPES["skbioner.text._tokenize.BioTokenizer"] == ("ObjectNode",)
    assert not any(loader == "FunctionNode" for loaders in TRUSTED_TYPES.values()
                   for loader in loaders)


def test_save_refuses_what_load_would_not_trust(tmp_path):
    from collections import Counter

    with pytest.raises(ValueError, match=r"collections\.Counter.*trusted=.*\.joblib path"):
        save_model(Counter(a=1), tmp_path / "c.skops")
    assert not (tmp_path / "c.skops").exists()


@pytest.mark.parametrize("content, match", [
    (b"", "the model file is empty"),
    (b"hello\n", r"not a model file \(neither the \.skops format nor a joblib pickle\)"),
    (b"PK\x03\x04garbage", r"not a valid \.skops model file .*corrupt, truncated or foreign"),
    ("foreign", r"not a valid \.skops model file .*schema\.json"),
    ("truncated", r"not a valid \.skops model file"),
    ("truncated-pickle", r"cannot load the pickle \(EOFError\)"),
])
def test_corrupt_and_foreign_files_get_one_line_errors(tmp_path, content, match):
    # issue 11, item 9: EOFError, UnpicklingError, "error: 190" tracebacks before
    path = tmp_path / "bad.skops"
    if content == "foreign":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("a.txt", "not a model")
    elif content == "truncated":
        model, _ = _fitted("majority")
        data = save_model(model, tmp_path / "good.skops").read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif content == "truncated-pickle":
        joblib.dump({"x": np.arange(1000)}, tmp_path / "p.joblib")
        path.write_bytes((tmp_path / "p.joblib").read_bytes()[:100])
    else:
        path.write_bytes(content)
    with pytest.raises(ModelFileError, match=match) as excinfo:
        load_model(path, allow_pickle=True)
    assert str(excinfo.value).startswith(str(path)) and "\n" not in str(excinfo.value)


def test_devices_and_directories_are_not_models(tmp_path):
    with pytest.raises(IsADirectoryError):
        load_model(tmp_path)
    with pytest.raises(ValueError, match="/dev/zero: not a regular file or pipe"):
        load_model("/dev/zero")


def test_save_is_atomic(tmp_path, monkeypatch):
    # issue 11, item 5: a failed save leaves the previous model whole
    model, X = _fitted("majority")
    path = save_model(model, tmp_path / "m.skops")
    before = path.read_bytes()

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("skbioner.io._atomic.os.fsync", fail)
    with pytest.raises(OSError, match="No space left") as excinfo:
        save_model(_fitted("online-crf")[0], path)
    assert excinfo.value.filename == str(path)
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["m.skops"]


class Greek(Channel):
    """A feature kind of the user's own: not skbioner's, so trusted only when asked."""

    def __init__(self, label):
        self.label = label

    def values(self, types):
        return ["yes" if t in ("alpha", "beta") else None for t in types]


def test_types_of_your_own_are_trusted_only_when_named(tmp_path):
    from skbioner.features import FeatureGroup, TokenFeaturizer, _registry, register_kind
    from skbioner.models import OnlinePACRF

    register_kind("greek_test", lambda group, params, context: [Greek(params["label"])],
                  params={"label": "greek"})
    try:
        X, y = toy_sentences(20)
        groups = [FeatureGroup("w", "word", (0,)), FeatureGroup("g", "greek_test", (0,))]
        model = make_pipeline(TokenFeaturizer(templates=groups),
                              OnlinePACRF(max_iter=2, random_state=0)).fit(X, y)
        name = f"{Greek.__module__}.Greek"
        with pytest.raises(ValueError, match=f"would not trust: .*{name}.*trusted="):
            save_model(model, tmp_path / "m.skops")
        path = save_model(model, tmp_path / "m.skops", trusted=[name])
        with pytest.raises(ModelFileError, match=f"not trusted \\({name}\\)"):
            load_model(path)
        assert load_model(path, trusted=[name]).predict(X) == model.predict(X)
    finally:
        _registry._REGISTRY.pop("greek_test", None)


# -- metadata: what a file says about its model (issue 15, `skbioner info`) -----------------


def test_metadata_travels_in_the_file_and_reads_without_loading(tmp_path, monkeypatch):
    from skbioner import __version__
    from skbioner.io import model_metadata

    model, X = _fitted("online-crf")
    path = save_model(model, tmp_path / "m.skops",
                      metadata={"training_data": {"file": "train.iob2", "sentences": 30}})
    meta = model_metadata(path)
    assert meta["training_data"] == {"file": "train.iob2", "sentences": 30}
    assert meta["versions"]["skbioner"] == __version__ and "scikit-learn" in meta["versions"]
    assert load_model(path).predict(X) == model.predict(X)  # skops ignores the member
    # reading the metadata builds no object: it works even where loading would refuse
    monkeypatch.setattr("skbioner.io._models._load_skops", lambda *a: pytest.fail("loaded"))
    assert model_metadata(path) == meta
    plain = save_model(model, tmp_path / "p.skops")
    assert set(model_metadata(plain)) == {"saved", "versions"}
    pkl = save_model(model, tmp_path / "m.joblib", metadata={"ignored": True})
    assert model_metadata(pkl) == {}
    with pytest.raises(ValueError, match="JSON-serialisable"):
        save_model(model, tmp_path / "bad.skops", metadata={"x": object()})
    with pytest.raises(TypeError, match="metadata must be a dict"):
        save_model(model, tmp_path / "bad.skops", metadata=["x"])
    assert not (tmp_path / "bad.skops").exists()
    (tmp_path / "text.skops").write_text("not a model")
    with pytest.raises(ModelFileError, match="not a model file"):
        model_metadata(tmp_path / "text.skops")


@pytest.mark.parametrize("content", [b"x^ a text file", b"xylophone\n", b"BZh9 text",
                                     b"\x80 not a pickle", b"\x1f\x8b\x08garbage"])
def test_a_few_matching_bytes_do_not_make_a_pickle(tmp_path, content):
    # issue 22, item 7: "x..." was "a zlib-compressed joblib pickle" (use --allow-pickle)
    path = tmp_path / "notes.skops"
    path.write_bytes(content)
    with pytest.raises(ModelFileError, match=r"not a model file \(neither") as excinfo:
        load_model(path)
    assert "allow" not in str(excinfo.value)


@pytest.mark.parametrize("compress", [("zlib", 3), ("gzip", 3), ("bz2", 3), ("xz", 3),
                                      ("lzma", 3)])
def test_every_joblib_compression_is_still_recognised(tmp_path, compress):
    path = tmp_path / "m.joblib"
    joblib.dump({"x": 1}, path, compress=compress)
    with pytest.raises(ModelFileError, match="refused: this is an? .*pickle"):
        load_model(path)
    assert load_model(path, allow_pickle=True) == {"x": 1}


def test_a_model_read_from_a_pipe_loads_from_its_bytes(tmp_path):
    import os
    import threading

    from skbioner.io._models import load_model_bytes

    model, X = _fitted("majority")
    data = save_model(model, tmp_path / "m.skops").read_bytes()
    assert load_model_bytes(data, "<bytes>").predict(X) == model.predict(X)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(data))
    writer.start()
    assert load_model(fifo).predict(X) == model.predict(X)
    writer.join(30)
