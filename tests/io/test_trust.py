"""Issue 22, item 1: what a .skops file may hold -- an explicit allowlist, no function ever.

Each gadget of the issue (and each way skops can be told to call something)
is built as a crafted file here, loaded, and must be refused with one line
naming the type, nothing run and nothing written.  The allowlist itself is
re-derived from the suite's pipelines, so a new class in a preset fails here
(add it to ``skbioner/io/_trust.py``) instead of failing for users.
"""

import importlib
import inspect
import io
import json
import pkgutil
import sys
import zipfile

import numpy as np
import pytest
import scipy.sparse as sp
import skops.io as sio
from sklearn.base import BaseEstimator
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer

import skbioner
from skbioner.io import TRUSTED_TYPES, ModelFileError, _trust, load_model, save_model
from skbioner.models import MajorityTagger
from skbioner.pipelines import PRESETS, make_tagger
from tests.conftest import hostile_inputs
from tests.models.toy import toy_sentences


def _schema_names(data):
    """``{(type name, loader)}`` of a .skops file's nodes."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        schema = json.loads(z.read("schema.json"))
    return {(f"{n['__module__']}.{n['__class__']}", n["__loader__"]) for n in _trust.nodes(schema)}


FAST = {"online-crf": {"max_iter": 2}, "cascaded": {"n_folds": 2}, "nerbio": {"max_iter": 2}}


def _models(unlabeled):
    X, y = toy_sentences(30, with_singletons=True)
    for name in PRESETS:
        yield name, make_tagger(name, model_params=FAST.get(name)).fit(X, y)
    crf = FAST["online-crf"]
    yield "knowledge", make_tagger(model_params=crf, abbreviations=True, alias=True,
                                   cascade_rules=True, closed_dictionary=True).fit(X, y)
    yield "two-pass", make_tagger("hmm-svm", two_pass=True).fit(X, y)
    yield "recut", make_tagger(model_params=crf, recut="jnlpba").fit(X, y)
    members = [{"model": "online-crf", "model_params": crf},
               {"model": "online-crf", "scheme": "IOE2", "model_params": crf, "name": "ioe2"}]
    yield "vote", make_tagger("vote", members=members).fit(X, y)
    yield "stack", make_tagger("stack", members=members, model_params=crf,
                               combination_params={"cv": 2}).fit(X, y)
    yield "word classes", make_tagger(model_params=crf, word_classes="bundled").fit(X, y)
    yield "pos+hmm", make_tagger(model_params=crf, pos=True, hmm_states=unlabeled, hmm_params={
        "n_states": 3, "max_iter": 2, "tol": None}).fit(X, y)


@pytest.mark.slow  # every preset fitted and saved (~2 min)
def test_the_allowlist_covers_every_preset_and_option(tmp_path):
    unlabeled = tmp_path / "u.txt"
    unlabeled.write_text("The IL-2 gene is expressed in T cells .\nNF-kappa B binds DNA .\n" * 5)
    X, _ = toy_sentences(30)
    seen = set()
    for name, model in _models(unlabeled):
        pairs = _schema_names(sio.dumps(model))
        missing = sorted(f"{t} ({loader})" for t, loader in pairs
                         if loader not in TRUSTED_TYPES.get(t, ()))
        assert not missing, f"{name}: add to skbioner/io/_trust.py: {missing}"
        seen |= pairs
        path = save_model(model, tmp_path / f"{name}.skops")
        assert load_model(path).predict(X[:3]) == model.predict(X[:3]), name
    # every function of the presets' files would have shown up: there is none
    assert not any(loader == "FunctionNode" for _, loader in seen)


def test_every_listed_type_is_a_class_of_the_module_it_names():
    for name, loaders in TRUSTED_TYPES.items():
        module, _, attr = name.rpartition(".")
        obj = getattr(importlib.import_module(module), attr)
        assert isinstance(obj, type), name
        assert obj.__module__ == module or module in ("builtins", "numpy"), name
        assert loaders and not set(loaders) & set(_trust._CALLING_LOADERS), name


# public estimators a model file does not hold (searches, selectors, mixins), or that the
# safe format cannot store (tuple-keyed state): they need trusted= or a .joblib path
NOT_IN_MODEL_FILES = {
    "skbioner.pipelines._tune.TunedTagger",
    "skbioner.pipelines._sequential.SequentialGroupSelector",
    "skbioner.postprocess._base.PostprocessStep",
    "skbioner.postprocess._patterns.PatternPostProcessor",
}


def test_every_public_estimator_is_listed_or_known():
    public = set()
    for info in pkgutil.walk_packages(skbioner.__path__, "skbioner."):
        if "__main__" in info.name:
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator) \
                    and obj.__module__.startswith("skbioner."):
                public.add(f"{obj.__module__}.{obj.__qualname__}")
    unknown = sorted(public - set(TRUSTED_TYPES) - NOT_IN_MODEL_FILES)
    assert not unknown, f"list them in skbioner/io/_trust.py (or NOT_IN_MODEL_FILES): {unknown}"


# -- the gadgets --------------------------------------------------------------------------


def _with_schema(node, members=()):
    return hostile_inputs().skops_file(node, members)


def _js(value):
    return {"__class__": "str", "__module__": "builtins", "__loader__": "JsonNode",
            "content": json.dumps(value), "is_json": True}


def _tuple(*items):
    return {"__class__": "tuple", "__module__": "builtins", "__loader__": "TupleNode",
            "content": list(items)}


def _node(module, cls, loader, **rest):
    return {"__class__": cls, "__module__": module, "__loader__": loader, **rest}


def _gadget_pipeline(func, kw_args):
    pipe = Pipeline([("gadget", FunctionTransformer(func, kw_args=kw_args)),
                     ("model", MajorityTagger().fit([["IL-2"]], [["B-DNA"]]))])
    return sio.dumps(pipe)


def _gadgets(marker):
    """``(what, file content, name the refusal must give)``: every way to make skops call."""
    from skbioner.cli._main import main
    from skbioner.io._atomic import atomic_write_utf8

    cmd = f"touch {marker}"
    return [
        ("FunctionTransformer writing a .pth",
         _gadget_pipeline(atomic_write_utf8, {"text": "import os\n"}),
         "skbioner.io._atomic.atomic_write_utf8 (a function reference)"),
        ("FunctionTransformer running the command line",
         _gadget_pipeline(main, {"argv": ["info"]}), "skbioner.cli._main.main"),
        ("FunctionTransformer saving over a file", _gadget_pipeline(save_model, {}),
         "skbioner.io._models.save_model"),
        ("a function reference", _with_schema(_node("os", "system", "FunctionNode")),
         "os.system (a function reference)"),
        ("a method reference", _with_schema(_node(
            "skbioner.models._baseline", "MajorityTagger", "MethodNode",
            content={"func": "fit", "obj": _node("skbioner.models._baseline", "MajorityTagger",
                                                 "ObjectNode")})),
         "MajorityTagger.fit (a method reference)"),
        ("a partial function", _with_schema(_node(
            "functools", "partial", "PartialNode",
            content={"func": _node("os", "system", "FunctionNode"), "args": _tuple(_js(cmd)),
                     "kwds": _node("builtins", "dict", "DictNode", content={},
                                   key_types=_node("builtins", "list", "ListNode", content=[])),
                     "namespace": _js(None)})), "functools.partial (a partial function)"),
        ("an operator.methodcaller", _with_schema(_node(
            "operator", "methodcaller", "OperatorFuncNode", attrs=_tuple(_js("system")))),
         "operator.methodcaller"),
        ("os.system as a dict key type", _with_schema(_node(
            "builtins", "dict", "DictNode", content={cmd: _js(1)},
            key_types=_node("builtins", "list", "ListNode",
                            content=[_node("os", "system", "TypeNode")]))), "os.system"),
        ("subprocess.call as a list type", _with_schema(_node(
            "subprocess", "call", "ListNode", content=[_js("touch"), _js(str(marker))])),
         "subprocess.call"),
        ("os.system as a dict type", _with_schema(_node(
            "os", "system", "DictNode", content={},
            key_types=_node("builtins", "list", "ListNode", content=[]))), "os.system"),
        ("os.system called on an array", _with_schema(
            _node("os", "system", "NdArrayNode", type="numpy", file="a.npy"),
            [("a.npy", _npy(np.zeros(3)))]), "os.system"),
        ("a random state built by calling os.getcwd", _with_schema(_node(
            "os", "getcwd", "RandomStateNode", content=_js({}))), "os.getcwd"),
        ("a reduce call", _with_schema(_node(
            "os", "system", "ReduceNode", __reduce__={"constructor": "x", "args": _tuple()},
            content=_js(None))), "os.system (an object built by calling"),
        ("a listed class built by calling it", _with_schema(_node(
            "skbioner.models._baseline", "MajorityTagger", "ConstructorFromReduceNode",
            content=_tuple(_js(cmd)))),
         "skbioner.models._baseline.MajorityTagger (built by ConstructorFromReduceNode)"),
        ("a skbioner class whose constructor makes directories", _with_schema(_node(
            "skbioner.tagging._writers", "_BratWriter", "ConstructorFromReduceNode",
            content=_tuple(_js(str(marker))))), "skbioner.tagging._writers._BratWriter"),
        ("a scikit-learn estimator not in the suite's pipelines", _with_schema(_node(
            "sklearn.preprocessing._function_transformer", "FunctionTransformer", "ObjectNode",
            content=_node("builtins", "dict", "DictNode", content={},
                          key_types=_node("builtins", "list", "ListNode", content=[])))),
         "FunctionTransformer"),
    ]


def _npy(array):
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


@pytest.mark.parametrize("index", range(16))
def test_each_gadget_is_refused_and_runs_nothing(tmp_path, index):
    marker = tmp_path / "marker"
    what, data, name = _gadgets(marker)[index]
    path = tmp_path / "gadget.skops"
    path.write_bytes(data)
    before = sorted(p.name for p in tmp_path.iterdir())
    modules = set(sys.modules)
    with pytest.raises(ModelFileError) as excinfo:
        load_model(path)
    message = str(excinfo.value)
    assert message.startswith(f"{path}: refused: ") and "\n" not in message, what
    assert name in message and "nothing was loaded" in message, (what, message)
    assert not marker.exists() and sorted(p.name for p in tmp_path.iterdir()) == before
    assert not {"subprocess", "skbioner.tagging._writers"} & (set(sys.modules) - modules)


def test_the_function_transformer_gadget_is_live_under_plain_skops(tmp_path):
    # what the allowlist closes: skops's defaults trust FunctionTransformer, and a
    # function named by the file is called with the file's arguments
    from skbioner.io._atomic import atomic_write_utf8

    target = tmp_path / "evil.pth"
    data = _gadget_pipeline(atomic_write_utf8, {"text": "import os\n"})
    loaded = sio.loads(data, trusted=sio.get_untrusted_types(data=data))
    loaded[0].transform(str(target))
    assert target.read_text() == "import os\n"
    target.unlink()
    with pytest.raises(ModelFileError, match="FunctionTransformer"):
        load_model(_write(tmp_path / "g.skops", data))
    assert not target.exists()


def _write(path, data):
    path.write_bytes(data)
    return path


def test_functions_are_refused_even_when_named_in_trusted(tmp_path):
    path = _write(tmp_path / "f.skops", _with_schema(_node("os", "system", "FunctionNode")))
    with pytest.raises(ModelFileError, match=r"os\.system \(a function reference\)"):
        load_model(path, trusted=["os.system"])


def test_save_refuses_a_function_transformer(tmp_path):
    pipe = Pipeline([("f", FunctionTransformer(np.log1p)),
                     ("m", MajorityTagger().fit([["a"]], [["O"]]))])
    with pytest.raises(ValueError, match=r"would not trust: .*FunctionTransformer"):
        save_model(pipe, tmp_path / "f.skops")
    assert not (tmp_path / "f.skops").exists()


# -- sizes: members against their declared sizes and shapes -------------------------------


def _array_file(n_bytes, shape=None, compression=zipfile.ZIP_DEFLATED):
    """A .skops file of one float64 array of zeros (``shape`` in its header)."""
    from numpy.lib import format as npy

    n = n_bytes // 8
    header = io.BytesIO()
    npy.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                        "shape": shape or (n,)})
    node = _node("numpy", "ndarray", "NdArrayNode", type="numpy", file="a.npy")
    data = _with_schema(node)
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(buffer, "w", compression) as z:
        z.writestr("schema.json", src.read("schema.json"))
        z.writestr("a.npy", header.getvalue() + bytes(n * 8))
    return buffer.getvalue()


def test_a_zip_bomb_is_refused_before_it_inflates(tmp_path, monkeypatch):
    monkeypatch.setattr(_trust, "MIN_INFLATE_BUDGET", 1 << 20)
    data = _array_file(8 << 20)  # 8 MB of zeros: an 8 KB file
    path = _write(tmp_path / "bomb.skops", data)
    inflated = []
    real = zipfile.ZipExtFile.read

    def counting(self, n=-1):
        out = real(self, n)
        inflated.append(len(out))
        return out

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting)
    with pytest.raises(ModelFileError, match=r"refused: its members would inflate to more than "
                                             r"[\d,]+ bytes from a [\d,]+-byte file"):
        load_model(path)
    assert sum(inflated) < 1 << 16  # at most the array's header was inflated
    monkeypatch.setattr(_trust, "MIN_INFLATE_BUDGET", 256 << 20)
    assert load_model(path).shape == (1 << 20,)  # within the budget it loads


def test_an_array_bigger_than_its_header_says_is_refused(tmp_path):
    path = _write(tmp_path / "m.skops", _array_file(1 << 16, shape=(10,)))
    with pytest.raises(ModelFileError, match=r"member a\.npy: its header declares an array of "
                                             r"208 bytes, the archive 65,664 bytes"):
        load_model(path)


def test_sparse_matrix_members_are_checked_inside(tmp_path, monkeypatch):
    matrix = sp.csr_matrix(np.eye(3))
    data = sio.dumps(matrix)
    assert load_model(_write(tmp_path / "ok.skops", data)).toarray().tolist() == np.eye(3).tolist()
    monkeypatch.setattr(_trust, "MIN_INFLATE_BUDGET", 0)
    monkeypatch.setattr(_trust, "MAX_INFLATE_RATIO", 1)  # the .npz's arrays count too
    with pytest.raises(ModelFileError, match=r"members would inflate.*zip bomb"):
        load_model(_write(tmp_path / "big.skops", data))


def test_only_stored_and_deflated_members_are_read(tmp_path):
    path = _write(tmp_path / "bz.skops", _array_file(64, compression=zipfile.ZIP_BZIP2))
    with pytest.raises(ModelFileError, match="compression method 12"):
        load_model(path)


def test_a_deep_schema_is_refused(tmp_path):
    deep = _js(0)
    for _ in range(300):
        deep = _tuple(deep)
    with pytest.raises(ModelFileError, match="nested more than 200 levels"):
        load_model(_write(tmp_path / "deep.skops", _with_schema(deep)))
    buffer = io.BytesIO()  # so deep that json itself would raise RecursionError
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("schema.json", '{"content": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ModelFileError, match="nested more than"):
        load_model(_write(tmp_path / "deeper.skops", buffer.getvalue()))


def test_nothing_is_trusted_by_its_module_alone():
    assert not any(name.startswith(("operator.", "functools.", "os.", "subprocess.",
                                    "builtins.eval", "sklearn.preprocessing"))
                   for name in TRUSTED_TYPES)
