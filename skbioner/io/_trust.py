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

from ._json import JSONDepthError
from ._json import loads as loads_bounded

__all__ = ["TRUSTED_TYPES", "SkopsFileError", "SkopsRefusal", "audit_schema", "check_members",
           "check_sizes", "nodes", "read_schema", "type_names"]

_OBJECT = ("ObjectNode",)
_SCALAR_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64")

# The suite's classes a fitted model is made of.  Each is built by ObjectNode: an instance
# made without calling __init__, then its saved attributes set (or its __setstate__ called).
_SKBIONER_CLASSES = (
    "annotate._brown.BrownClusterer",
    "annotate._chunk.RuleChunker",
    "annotate._embeddings.EmbeddingClusterer",
    "annotate._hmm.HMMStateClusterer",
    "annotate._lexicon.LexiconMatcher",
    "annotate._pos.POSTagger",
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
#: A count, size or offset in a model file (a whole number of its fitted state, a sparse
#: matrix's width) may be at most MAX_SIZE_RATIO times the file's size or the bytes its
#: members inflate to, whichever is less, or MIN_SIZE_LIMIT if more (or equal one of its
#: estimator's parameters, validated once built): a model's sizes are bounded by what it
#: carries, so no size read from it costs much more memory than its content.
MIN_SIZE_LIMIT = 2**22
MAX_SIZE_RATIO = 16
_ZIP_MAGIC = b"PK\x03\x04"


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
        schema = loads_bounded(archive.read("schema.json"), MAX_SCHEMA_DEPTH)
    except KeyError:
        raise SkopsFileError("no schema.json member (not a .skops file)") from None
    except JSONDepthError:
        raise SkopsRefusal(f"schema.json is nested more than {MAX_SCHEMA_DEPTH} levels deep "
                           "(crafted?)") from None
    except ValueError as exc:  # JSON or UTF-8
        raise SkopsFileError(f"schema.json is not JSON ({exc})") from None
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
    return fh.tell() + int(np.prod(shape, dtype=object)) * dtype.itemsize, shape, dtype


def _check_archive(archive, what, budget, shapes, scalars=None):
    """Check one zip archive's members; return the bytes they inflate to.

    A member is checked by what it is, not by its name: an array (``.npy``
    magic) against its header, a zip archive (a sparse matrix's ``.npz``)
    member by member inside, its declared ``shape`` added to ``shapes``; the
    value of an integer scalar (a 0-d array) goes to ``scalars`` by name.
    """
    total = 0
    for info in archive.infolist():
        name = f"{what}{info.filename}"
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise SkopsRefusal(f"member {name} uses compression method {info.compress_type} "
                                 "(only stored and deflated members are read)")
        total += info.file_size
        if total > budget:
            raise _TooLarge(total)
        with archive.open(info) as fh:
            magic = fh.read(6)
        if magic == b"\x93NUMPY":
            with archive.open(info) as fh:
                expected, shape, dtype = _npy_size(fh, name)
                if shape == () and dtype.kind in "iu" and scalars is not None:
                    scalars[info.filename] = int.from_bytes(
                        fh.read(dtype.itemsize), "big" if dtype.byteorder == ">" else "little",
                        signed=dtype.kind == "i")
            if expected != info.file_size:
                raise SkopsRefusal(
                    f"member {name}: its header declares an array of {expected:,} bytes, the "
                    f"archive {info.file_size:,} bytes (corrupt or crafted)")
        elif magic.startswith(_ZIP_MAGIC):
            with zipfile.ZipFile(io.BytesIO(archive.read(info))) as inner:
                total += _check_archive(inner, f"{name}/", budget - total, shapes)
                if "shape.npy" in inner.namelist():
                    shapes.append((name, _small_array(inner, "shape.npy", name)))
            if total > budget:
                raise _TooLarge(total)
    return total


def _small_array(archive, member, name):
    """The values of a small array member (a sparse matrix's shape)."""
    import numpy as np

    try:
        with archive.open(member) as fh:
            return [int(v) for v in np.load(fh, allow_pickle=False).ravel()[:8]]
    except (ValueError, TypeError, OverflowError, EOFError) as exc:
        raise SkopsFileError(f"member {name}/{member}: not an array of integers ({exc})") \
            from None


class _TooLarge(Exception):
    def __init__(self, total):
        self.total = total


def check_members(archive, file_size):
    """Refuse an archive whose members could inflate beyond their declared sizes or the budget.

    Every member is stored or deflated (Python's zip reader stops a member
    at its declared size), every array member's declared size is what its
    header's shape and dtype make, the zip members (sparse matrices) are
    checked the same way inside, and all of them together inflate to at
    most ``max(MIN_INFLATE_BUDGET, MAX_INFLATE_RATIO * file_size)`` bytes.
    Only the headers of arrays are inflated to check.

    Returns
    -------
    limit : int
        The size limit of the file's counts and offsets (:func:`check_sizes`).
    scalars : dict
        The integer scalars stored as arrays, by member name (idem).

    Raises
    ------
    SkopsFileError
    """
    budget = max(MIN_INFLATE_BUDGET, MAX_INFLATE_RATIO * file_size)
    shapes, scalars = [], {}
    try:
        total = _check_archive(archive, "", budget, shapes, scalars)
    except _TooLarge as big:
        raise SkopsRefusal(
            f"its members would inflate to more than {big.total:,} bytes from a "
            f"{file_size:,}-byte file (at most {budget:,}: {MAX_INFLATE_RATIO} times the "
            "file's size; a zip bomb?)") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError) as exc:
        raise SkopsFileError(f"a member cannot be read ({type(exc).__name__}: {exc})") from None
    limit = max(MIN_SIZE_LIMIT, min(total, MAX_SIZE_RATIO * file_size))
    for name, shape in shapes:  # made dense (densify): 4 x the bound (the shipped models: 1.5)
        if len(shape) != 2 or min(shape) < 0 or shape[1] > limit or \
                shape[0] * shape[1] > 4 * limit:
            raise SkopsRefusal(f"member {name}: a sparse matrix of shape {tuple(shape)} from "
                               f"{total:,} bytes of arrays (corrupt or crafted)")
    return limit, scalars


def _int_of(node, scalars):
    """The integer a JsonNode (or a numpy integer scalar's member) holds, or None."""
    if node.get("__loader__") == "NdArrayNode":
        return scalars.get(node.get("file"))
    try:
        value = json.loads(node.get("content", "null"))
    except (TypeError, ValueError, RecursionError):
        return None
    return value if type(value) is int else None


def check_sizes(schema, limit, scalars):
    """Refuse a whole number of a model's fitted state beyond ``limit``, before anything is built.

    Every integer the file stores outside an estimator's parameters (those
    are validated as a constructor's are, once built: see
    :func:`skbioner.io.load_model`) -- a count, a shape, an offset, however
    nested -- must be at most ``limit`` (:func:`check_members`) in
    magnitude, or equal one of its estimator's parameters (``n_hash_`` is
    ``n_hash``), so no size read from a model file sizes an allocation
    beyond what the file carries.  Raises :class:`SkopsRefusal` naming the
    attribute.
    """
    import importlib

    from sklearn.base import BaseEstimator

    stack = [(schema, "", ())]  # node, where it is, its estimator's parameter values
    while stack:
        node, where, own = stack.pop()
        if isinstance(node, list):
            stack.extend((v, where, own) for v in node)
            continue
        if not isinstance(node, dict):
            continue
        loader = node.get("__loader__")
        if loader in ("JsonNode", "NdArrayNode"):
            value = _int_of(node, scalars)
            if value is not None and abs(value) > limit and value not in own:
                raise SkopsRefusal(f"{where or 'a number'} is {value:,}, beyond any size "
                                   f"the file carries (at most {limit:,}; corrupt or crafted)")
            continue
        attrs = node.get("content")
        attrs = attrs.get("content") if isinstance(attrs, dict) else None
        if loader == "ObjectNode" and isinstance(attrs, dict):  # audited: the type is trusted
            cls = getattr(importlib.import_module(node["__module__"]), node["__class__"], None)
            names = cls._get_param_names() if isinstance(cls, type) and issubclass(
                cls, BaseEstimator) else ()
            params = {k: v for k, v in attrs.items() if k in names and isinstance(v, dict)
                      and v.get("__loader__") in ("JsonNode", "NdArrayNode")}
            own = tuple(_int_of(v, scalars) for v in params.values())  # n_hash_ is n_hash
            stack.extend((v, f"{node['__class__']}.{k}", own) for k, v in attrs.items()
                         if k not in params)
        else:
            stack.extend((v, where, own) for v in node.values())
