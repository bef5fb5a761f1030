"""What a ``.skops`` model file may hold: an explicit allowlist, checked before anything is built.

A ``.skops`` file is a zip archive: ``schema.json`` describes every object as
a *node* -- a type (``"module.Class"``) and the way skops builds it (its
*loader*: ``ObjectNode`` makes an instance and sets its attributes,
``NdArrayNode`` reads an array, ``FunctionNode`` imports a function...) --
and the arrays are ``.npy`` members.  Before a single object is built,
:func:`audit_schema` walks every node of the schema and accepts it only if
its type is listed in :data:`TRUSTED_TYPES` **with that loader**; and
:func:`check_members` checks that the archive's members cannot inflate
beyond what their declared sizes (and the arrays' declared shapes) say, nor
beyond a budget proportional to the file's size.

The allowlist holds the suite's own estimators and the classes their fitted
state is made of, the two scikit-learn estimators the suite's pipelines are
built from (``Pipeline``, ``FrozenEstimator``), and the Python, numpy and
scipy types that state holds; it was derived by saving every preset pipeline
(with every annotator, knowledge module, two passes and re-cutting) and
listing the nodes of the files (``tests/io/test_trust.py`` re-derives it).
No function, method or type may be *called* from a file: ``FunctionNode``,
``MethodNode``, ``PartialNode``, ``OperatorFuncNode`` and the ``reduce``
loaders are refused whatever they name -- so a scikit-learn
``FunctionTransformer`` (a stored function called on the data) never loads,
nor a reference to a function of skbioner's own (``save_model``, the
command line's ``main``...).  The only type references accepted are the few
builtin and numpy scalar types skops stores as dictionary key types and
dtypes (calling them converts a value).
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from types import MappingProxyType

__all__ = ["TRUSTED_TYPES", "SkopsFileError", "SkopsRefusal", "audit_schema", "check_members",
           "nodes", "read_schema", "type_names"]

_OBJECT = ("ObjectNode",)
_SCALAR_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64")

# The suite's classes a fitted model is made of.  Each is built by ObjectNode: an instance
# made without calling __init__, then its saved attributes set (or its __setstate__ called).
_SKBIONER_CLASSES = (
    "annotate._dictionary.DictionaryMatcher",
    "annotate._first_pass.FirstPassAnnotator",
    "annotate._hmm.HMMStateClusterer",
    "annotate._lexicon.LexiconMatcher",
    "annotate._pos.POSTagger",
    "annotate._word_classes.BrownClusterer",
    "annotate._word_classes.EmbeddingClusterer",
    "annotate._word_classes.WordClassAnnotator",
    "ensemble._distill.DistilledTagger",
    "ensemble._stacking.StackedTagger",
    "ensemble._voting.VotingTagger",
    "features._channels.AffixPatternChannel",
    "features._channels.AnnotationChannel",
    "features._channels.AnnotationPrefixChannel",
    "features._channels.BriefWordClassChannel",
    "features._channels.FormationChannel",
    "features._channels.LengthChannel",
    "features._channels.OrthographicChannel",
    "features._channels.PrefixChannel",
    "features._channels.SplitAnnotationChannel",
    "features._channels.SubstringChannel",
    "features._channels.SuffixChannel",
    "features._channels.WordChannel",
    "features._channels.WordClassChannel",
    "features._engine.BlockVocabulary",
    "features._engine.CacheBlock",
    "features._engine.ConjunctionBlock",
    "features._engine.HeadNgramChannel",
    "features._engine.TokenBlock",
    "features._engine.TypeCache",
    "features._engine.UnaryBlock",
    "features._featurizer.TokenFeaturizer",
    "features._templates.FeatureGroup",
    "models._baseline.MajorityTagger",
    "models._cascaded.CascadedNER",
    "models._cascaded.SegmentFeaturizer",
    "models._crfsuite.CRFsuiteTagger",
    "models._hmm_svm.HMMSVMTagger",
    "models._linear_chain.LabelSpace",
    "models._online_crf.OnlinePACRF",
    "models._pairwise_svm.PairwiseSVMTagger",
    "models._recut.LearnedCutTagger",
    "models._recut.RecutTagger",
    "postprocess._abbreviations.AbbreviationResolver",
    "postprocess._alias.NameAlias",
    "postprocess._base.PostProcessedTagger",
    "postprocess._cascade.CascadedEntityRules",
    "pipelines._pipeline.TaggerPipeline",
    "schemes._encoder.SegmentEncoder",
    "text._cuts.CutTable",
    "text._normalize.NumericNormalizer",
    "text._tokenize.BioTokenizer",
)

#: Every type a ``.skops`` model file may name, with the skops loaders it may be built by.
#: Anything else -- another type, or a listed type built another way -- is refused before
#: anything is built (``trusted=`` of :func:`skbioner.io.load_model` adds classes of your own).
TRUSTED_TYPES = MappingProxyType({
    # Python values: containers, JSON scalars, bytes; str and int also as dict key types
    "builtins.dict": ("DictNode",),
    "builtins.list": ("ListNode",),
    "builtins.tuple": ("TupleNode",),
    "builtins.str": ("JsonNode", "TypeNode"),
    "builtins.int": ("JsonNode", "TypeNode"),
    "builtins.float": ("JsonNode", "TypeNode"),
    "builtins.bool": ("JsonNode", "TypeNode"),
    "builtins.bytes": ("BytesNode",),  # the CRFsuite model
    # numpy: arrays (read with allow_pickle=False), dtypes, scalars, scalar types as dtypes
    "numpy.ndarray": ("NdArrayNode",),
    "numpy.dtype": ("DTypeNode",),
    **{f"numpy.{name}": ("NdArrayNode", "TypeNode") for name in _SCALAR_NAMES},
    # scipy: compressed sparse rows (sparsified weights, read from .npz without pickle)
    "scipy.sparse._csr.csr_matrix": ("SparseMatrixNode",),
    "scipy.sparse._csr.csr_array": ("SparseMatrixNode",),
    # scikit-learn: what the suite's pipelines are built from
    "sklearn.pipeline.Pipeline": _OBJECT,
    "sklearn.frozen._frozen.FrozenEstimator": _OBJECT,
    # the suite's own
    **{f"skbioner.{name}": _OBJECT for name in _SKBIONER_CLASSES},
    "skbioner.features._templates._FrozenParams": ("ConstructorFromReduceNode",),
})

#: Loaders that would call something the file names: refused for every type.
_CALLING_LOADERS = {
    "FunctionNode": "a function reference",
    "MethodNode": "a method reference",
    "PartialNode": "a partial function",
    "OperatorFuncNode": "an operator function",
    "ReduceNode": "an object built by calling a stored constructor",
    "TreeNode": "an object built by calling a stored constructor",
    "LossNode": "an object built by calling a stored constructor",
}
#: Loaders the classes named in ``trusted=`` may be built by (instances of your own classes).
_USER_LOADERS = ("ObjectNode", "ConstructorFromReduceNode")
#: A loader that refers back to a node built earlier in the file (allowed for listed types).
_CACHED = "CachedNode"

#: Deepest nesting of ``schema.json`` accepted (the suite's models: about 30 levels).
MAX_SCHEMA_DEPTH = 200
#: The members of a file may inflate to at most this many times the file's size, or to
#: :data:`MIN_INFLATE_BUDGET` bytes, whichever is more (the suite's models: at most 5 times).
MAX_INFLATE_RATIO = 50
MIN_INFLATE_BUDGET = 256 * 2**20
#: Bytes of a ``.npy`` header read to learn an array's shape.
_MAX_NPY_HEADER = 1 << 16


class SkopsFileError(ValueError):
    """What is wrong with a ``.skops`` file, without the file name (the loader adds it)."""


class SkopsRefusal(SkopsFileError):
    """A ``.skops`` file the loader refuses to build anything from (crafted, or a zip bomb)."""


def _node_name(node):
    module, name = node.get("__module__"), node.get("__class__")
    if not isinstance(module, str) or not isinstance(name, str):
        raise SkopsRefusal("a node of schema.json has no type name (corrupt or crafted)")
    if node.get("__loader__") == "MethodNode":
        content = node.get("content")
        func = content.get("func") if isinstance(content, dict) else None
        return f"{module}.{name}.{func}"
    return f"{module}.{name}"


def audit_schema(schema, trusted=()):
    """The refusals of a ``.skops`` schema, ``["name (why)", ...]`` sorted; empty: all trusted.

    Parameters
    ----------
    schema : dict
        The parsed ``schema.json``.
    trusted : iterable of str, default=()
        Further class names (``"module.Class"``) accepted as instances
        (``ObjectNode`` or ``ConstructorFromReduceNode``).

    Returns
    -------
    list of str
    """
    if isinstance(trusted, str):
        trusted = [trusted]
    user = set(trusted)
    refused = set()
    for node in nodes(schema):
        loader = node["__loader__"]
        if not isinstance(loader, str):
            raise SkopsRefusal("a node of schema.json has no loader name (corrupt or crafted)")
        name = _node_name(node)
        if loader in _CALLING_LOADERS:
            refused.add(f"{name} ({_CALLING_LOADERS[loader]})")
        elif loader == _CACHED:
            if name not in TRUSTED_TYPES and name not in user:
                refused.add(name)
        elif loader in TRUSTED_TYPES.get(name, ()):
            continue
        elif name in user and loader in _USER_LOADERS:
            continue
        elif name in TRUSTED_TYPES or name in user:
            refused.add(f"{name} (built by {loader})")
        else:
            refused.add(name)
    return sorted(refused)


def nodes(schema):
    """Every node of a skops schema: each dict with a ``"__loader__"``, however nested."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
            if "__loader__" in node:
                yield node


def type_names(schema):
    """Every ``"module.Class"`` a schema names (for skops's own check, once ours passed)."""
    return sorted({_node_name(node) for node in nodes(schema)})


def read_schema(archive):
    """The parsed ``schema.json`` of an open archive, its nesting bounded."""
    try:
        schema = json.loads(archive.read("schema.json"))
    except KeyError:
        raise SkopsFileError("no schema.json member (not a .skops file)") from None
    except RecursionError:
        raise SkopsRefusal(f"schema.json is nested more than {MAX_SCHEMA_DEPTH} levels deep "
                             "(crafted?)") from None
    except ValueError as exc:  # JSON or UTF-8
        raise SkopsFileError(f"schema.json is not JSON ({exc})") from None
    stack = [(schema, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_SCHEMA_DEPTH:
            raise SkopsRefusal(f"schema.json is nested more than {MAX_SCHEMA_DEPTH} levels "
                                 "deep (crafted?)")
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    if not isinstance(schema, dict):
        raise SkopsFileError("schema.json is not a JSON object")
    return schema


def _npy_size(fh, name):
    """The byte size a ``.npy`` stream must have, from its header (shape and dtype)."""
    import numpy as np
    from numpy.lib import format as npy

    try:
        version = npy.read_magic(fh)
        if version == (1, 0):
            shape, _, dtype = npy.read_array_header_1_0(fh, max_header_size=_MAX_NPY_HEADER)
        else:
            shape, _, dtype = npy.read_array_header_2_0(fh, max_header_size=_MAX_NPY_HEADER)
    except (ValueError, TypeError, SyntaxError, OverflowError, EOFError) as exc:
        raise SkopsFileError(f"member {name}: not a numpy array ({exc})") from None
    if dtype.hasobject:
        raise SkopsRefusal(f"member {name}: an array of Python objects (needs pickle)")
    return fh.tell() + int(np.prod(shape, dtype=object)) * dtype.itemsize


def _check_archive(archive, what, budget):
    """Check one zip archive's members; return the bytes they inflate to."""
    total = 0
    for info in archive.infolist():
        name = f"{what}{info.filename}"
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise SkopsRefusal(f"member {name} uses compression method {info.compress_type} "
                                 "(only stored and deflated members are read)")
        total += info.file_size
        if total > budget:
            raise _TooLarge(total)
        if info.filename.endswith(".npy"):
            with archive.open(info) as fh:
                expected = _npy_size(fh, name)
            if expected != info.file_size:
                raise SkopsRefusal(
                    f"member {name}: its header declares an array of {expected:,} bytes, the "
                    f"archive {info.file_size:,} bytes (corrupt or crafted)")
        elif info.filename.endswith(".npz"):
            with zipfile.ZipFile(io.BytesIO(archive.read(info))) as inner:
                total += _check_archive(inner, f"{name}/", budget - total)
            if total > budget:
                raise _TooLarge(total)
    return total


class _TooLarge(Exception):
    def __init__(self, total):
        self.total = total


def check_members(archive, file_size):
    """Refuse an archive whose members could inflate beyond their declared sizes or the budget.

    Every member is stored or deflated (Python's zip reader stops a member
    at its declared size), every ``.npy`` member's declared size is what
    its header's shape and dtype make, the ``.npz`` members (sparse
    matrices) are checked the same way inside, and all of them together
    inflate to at most ``max(MIN_INFLATE_BUDGET, MAX_INFLATE_RATIO *
    file_size)`` bytes.  Only the headers of arrays are inflated to check.

    Raises
    ------
    SkopsFileError
    """
    budget = max(MIN_INFLATE_BUDGET, MAX_INFLATE_RATIO * file_size)
    try:
        return _check_archive(archive, "", budget)
    except _TooLarge as big:
        raise SkopsRefusal(
            f"its members would inflate to more than {big.total:,} bytes from a "
            f"{file_size:,}-byte file (at most {budget:,}: {MAX_INFLATE_RATIO} times the "
            "file's size; a zip bomb?)") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError) as exc:
        raise SkopsFileError(f"a member cannot be read ({type(exc).__name__}: {exc})") from None
