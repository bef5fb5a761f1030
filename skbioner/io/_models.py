"""Model files: a safe format that loads without running code, and joblib on request.

:func:`save_model` writes a fitted model (any skbioner estimator or pipeline)
in the skops persistence format (``.skops``): a zip archive of numpy arrays
and a JSON description of the objects.  :func:`load_model` reads it back
without executing anything from the file: before a single object is built,
every type the file names is checked, and the file is refused unless all of
them are trusted:

* skops's own defaults (Python containers and scalars, numpy arrays and
  dtypes, scikit-learn estimators);
* every class (and function) defined in the ``skbioner`` package, checked
  on the object itself: it must be defined in the ``skbioner`` module the
  file names;
* a short explicit list of the other types skbioner models hold
  (:data:`TRUSTED_TYPES`).

A joblib (pickle) file is different: unpickling calls whatever the file
says, so a crafted file runs any code it contains the moment it is loaded.
:func:`load_model` refuses pickles unless ``allow_pickle=True`` (command
line: ``--allow-pickle``); use it only for files from a source you trust.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import io
import json
import os
import zipfile
from pathlib import Path

from ._atomic import atomic_write_bytes
from ._columns import check_input_kind

__all__ = ["ModelFileError", "save_model", "load_model", "model_metadata", "TRUSTED_TYPES",
           "PICKLE_SUFFIXES"]

#: The member of a ``.skops`` archive that holds what :func:`save_model` was told about the
#: model (and the versions it was saved with); skops ignores it.
METADATA_MEMBER = "skbioner-metadata.json"

#: File name endings :func:`save_model` writes as a joblib pickle (every other name: skops).
PICKLE_SUFFIXES = (".joblib", ".pkl", ".pickle")

#: Types outside skbioner that skbioner models hold and skops does not trust by default.
#: (skbioner's own classes need no entry: they are trusted by their module.)
TRUSTED_TYPES = (
    "numpy.dtype",  # dtypes stored as attributes (TokenFeaturizer(dtype=...))
    "scipy.sparse._csr.csr_matrix",  # sparsified coefficients (the bundled POS tagger)
    "scipy.sparse._csr.csr_array",
)

_ZIP_MAGIC = b"PK\x03\x04"
# how joblib files start: a pickle (protocol 2+), or joblib's compressors
_PICKLE_MAGICS = (
    (b"\x80", "a pickle"),
    (b"\x78", "a zlib-compressed joblib pickle"),
    (b"\x1f\x8b", "a gzip-compressed joblib pickle"),
    (b"\xfd7zXZ\x00", "an xz-compressed joblib pickle"),
    (b"BZh", "a bz2-compressed joblib pickle"),
    (b"\x5d\x00\x00", "an lzma-compressed joblib pickle"),
    (b"\x04\x22\x4d\x18", "an lz4-compressed joblib pickle"),
)


class ModelFileError(ValueError):
    """A model file that cannot or must not be loaded; the message names the file."""


def save_model(model, path, *, trusted=(), metadata=None):
    """Save a fitted model, atomically, in the safe format (or as a pickle on request).

    Parameters
    ----------
    model : estimator
        A fitted skbioner model or pipeline (e.g. what ``skbioner train``
        fits).
    path : str or path-like
        Destination.  A name ending in ``.joblib``, ``.pkl`` or ``.pickle``
        is written with :func:`joblib.dump` -- a pickle, which runs code when
        loaded; any other name (``model.skops`` is customary) in the skops
        format, which :func:`load_model` reads without running code.  The
        file is replaced only once complete: a failed or interrupted save
        leaves an existing file as it was.
    trusted : iterable of str, default=()
        Further types (``"module.Class"``) the model may hold, such as the
        class of a feature kind of your own (see
        :func:`skbioner.features.register_kind`); pass the same to
        :func:`load_model`.
    metadata : dict, optional
        What to record about the model (its training data, settings...): a
        JSON-serialisable dict stored in the ``.skops`` file beside the
        model, with the versions of Python, skbioner, scikit-learn, numpy,
        scipy and skops it was saved with (:func:`model_metadata` reads it
        back; ``skbioner info`` shows it).  Not stored in a pickle.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ValueError
        If the model holds objects the safe format cannot store, or types
        :func:`load_model` would not trust (the message names them; a
        ``.joblib`` path still works).
    OSError
        If the file cannot be written.

    Examples
    --------
    >>> import tempfile, os
    >>> from skbioner.models import MajorityTagger
    >>> model = MajorityTagger().fit([["IL-2", "gene"]], [["B-DNA", "I-DNA"]])
    >>> path = save_model(model, os.path.join(tempfile.mkdtemp(), "m.skops"))
    >>> load_model(path).predict([["IL-2", "gene"]])
    [['B-DNA', 'I-DNA']]
    """
    path = Path(os.fspath(path))
    if path.name.lower().endswith(PICKLE_SUFFIXES):
        import joblib

        buffer = io.BytesIO()
        joblib.dump(model, buffer)
        atomic_write_bytes(path, buffer.getvalue())
        return path
    import skops.io as sio

    try:
        data = sio.dumps(model, compression=zipfile.ZIP_DEFLATED)
    except Exception as exc:  # skops: UnsupportedTypeException, TypeError for dict keys, ...
        raise ValueError(
            f"{type(model).__name__} cannot be stored in the safe model format ({exc}); "
            f"save it to a .joblib path instead (a pickle: it runs code when loaded)"
        ) from None
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        loaders = _loaders_by_type(json.loads(archive.read("schema.json")))
    refused = _refused_types(sio.get_untrusted_types(data=data), loaders, trusted)
    if refused:
        raise ValueError(
            f"{type(model).__name__} holds types that load_model would not trust: "
            f"{', '.join(refused)}; if you trust them, pass trusted=[...] to save_model and "
            "load_model, or save to a .joblib path (a pickle: it runs code when loaded)"
        )
    atomic_write_bytes(path, _with_metadata(data, metadata))
    return path


def _versions():
    import platform

    from .._version import __version__

    out = {"python": platform.python_version(), "skbioner": __version__}
    for name, module in (("scikit-learn", "sklearn"), ("numpy", "numpy"), ("scipy", "scipy"),
                         ("skops", "skops")):
        try:
            out[name] = importlib.import_module(module).__version__
        except Exception:  # pragma: no cover - a broken install: record what is known
            pass
    return out


def _with_metadata(data, metadata):
    """The skops archive ``data`` with a JSON metadata member added."""
    import datetime

    if metadata is not None and not isinstance(metadata, dict):
        raise TypeError(f"metadata must be a dict, got {type(metadata).__name__}")
    record = {"saved": datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds"), "versions": _versions(), **dict(metadata or {})}
    try:
        text = json.dumps(record, ensure_ascii=False, indent=1, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"metadata must be JSON-serialisable: {exc}") from None
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(METADATA_MEMBER, text)
    return buffer.getvalue()


def model_metadata(path):
    """What a ``.skops`` model file records about its model, without loading the model.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    dict
        ``"saved"`` (UTC time), ``"versions"`` (Python, skbioner,
        scikit-learn, numpy, scipy, skops at save time) and whatever was
        passed as ``metadata`` to :func:`save_model` (``skbioner train``
        records its training data, model, settings and time).  Empty for a
        pickle or a file saved without it.

    Raises
    ------
    ModelFileError
        If the file is not a model file (or its metadata is corrupt).
    """
    path_str = os.fsdecode(os.fspath(path))
    data = _read_model_bytes(path, path_str)
    if not data.startswith(_ZIP_MAGIC):
        if any(data.startswith(magic) for magic, _ in _PICKLE_MAGICS):
            return {}
        raise ModelFileError(
            f"{path_str}: not a model file (neither the .skops format nor a joblib pickle)")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if METADATA_MEMBER not in archive.namelist():
                return {}
            record = json.loads(archive.read(METADATA_MEMBER).decode("utf-8"))
    except Exception as exc:
        raise ModelFileError(f"{path_str}: cannot read the model's metadata "
                             f"({_describe(exc)})") from None
    if not isinstance(record, dict):
        raise ModelFileError(f"{path_str}: the model's metadata is not a JSON object")
    return record


def load_model(path, *, allow_pickle=False, trusted=()):
    """Load a model saved by :func:`save_model` (or ``skbioner train``), safely.

    Parameters
    ----------
    path : str or path-like
        A ``.skops`` file, or -- with ``allow_pickle=True`` -- a joblib
        pickle.  The format is recognised from the file's content, not its
        name.
    allow_pickle : bool, default=False
        Also load joblib/pickle files.  Loading a pickle runs any code it
        contains: allow it only for files from a source you trust.
    trusted : iterable of str, default=()
        Further types (``"module.Class"``) to trust in a ``.skops`` file
        besides skbioner's own classes and :data:`TRUSTED_TYPES`: the
        classes of your own feature kinds, for instance.

    Returns
    -------
    object
        The model.

    Raises
    ------
    ModelFileError
        A one-line message naming the file: a pickle without
        ``allow_pickle=True``; a file holding untrusted types (they are
        named; nothing was loaded or run); an empty, truncated, corrupt or
        foreign file.
    OSError
        If the file cannot be read (missing, a directory, no permission).
    """
    path_str = os.fsdecode(os.fspath(path))
    data = _read_model_bytes(path, path_str)
    if data.startswith(_ZIP_MAGIC):
        return _load_skops(data, path_str, trusted)
    kind = next((what for magic, what in _PICKLE_MAGICS if data.startswith(magic)), None)
    if kind is None:
        raise ModelFileError(
            f"{path_str}: not a model file (neither the .skops format nor a joblib pickle)"
        )
    if not allow_pickle:
        raise ModelFileError(
            f"{path_str}: refused: this is {kind} (joblib), and loading it would run any code "
            "it contains; if you trust its source, load it with allow_pickle=True "
            "(command line: --allow-pickle), or save it again in the safe .skops format"
        )
    import joblib

    try:
        return joblib.load(io.BytesIO(data))
    except Exception as exc:
        raise ModelFileError(
            f"{path_str}: cannot load the pickle ({_describe(exc)})"
        ) from None


def _read_model_bytes(path, path_str):
    check_input_kind(path, path_str)  # a directory or a device (/dev/zero) is no model
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except MemoryError:
        raise ModelFileError(f"{path_str}: too large to read into memory") from None
    if not data:
        raise ModelFileError(f"{path_str}: the model file is empty")
    return data


def _load_skops(data, path_str, trusted=()):
    import skops.io as sio

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            archive.testzip()
            loaders = _loaders_by_type(json.loads(archive.read("schema.json")))
        untrusted = sio.get_untrusted_types(data=data)
    except Exception as exc:
        raise ModelFileError(
            f"{path_str}: not a valid .skops model file (corrupt, truncated or foreign: "
            f"{_describe(exc)})"
        ) from None
    refused = _refused_types(untrusted, loaders, trusted)
    if refused:
        raise ModelFileError(
            f"{path_str}: refused: the file holds types that are not trusted "
            f"({', '.join(refused)}); nothing was loaded"
        )
    try:
        return sio.loads(data, trusted=list(untrusted))
    except Exception as exc:
        raise ModelFileError(
            f"{path_str}: cannot load the model ({_describe(exc)})"
        ) from None


def _loaders_by_type(schema):
    """``{"module.name": {loader, ...}}`` for every object node of a skops schema."""
    out = {}
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("__loader__"), str):
                name = f"{node.get('__module__')}.{node.get('__class__')}"
                out.setdefault(name, set()).add(node["__loader__"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return out


def _refused_types(names, loaders=None, trusted=()):
    """The type names (of a skops file) that are neither skbioner's nor listed, sorted.

    ``loaders`` (see :func:`_loaders_by_type`) tells how each name is used: a
    skbioner *function* is trusted only as a stored reference
    (``FunctionNode``), never as something skops would call to build an
    object -- that would run it with arguments chosen by the file.
    """
    loaders = {} if loaders is None else loaders
    if isinstance(trusted, str):
        trusted = [trusted]
    allowed = {*TRUSTED_TYPES, *trusted}
    return sorted(n for n in names if n not in allowed
                  and not _is_skbioner_type(n, loaders.get(n, {"FunctionNode"})))


def _is_skbioner_type(name, loaders=frozenset({"FunctionNode"})):
    """Whether ``name`` is a class (or function) defined in the skbioner module it names.

    Importing a skbioner module runs only skbioner's own code (modules whose
    name has a dunder part, such as ``skbioner.__main__``, are excluded); the
    attribute must be defined in that module (``__module__``), so the names
    of things a skbioner module merely imports (``os``, ``subprocess.run``, a
    scikit-learn class) are not trusted through it.  A function is trusted
    only when every node naming it is a stored reference (``loaders`` is
    ``{"FunctionNode"}``).
    """
    module, _, attr = name.rpartition(".")
    if not (module == "skbioner" or module.startswith("skbioner.")) or not attr:
        return False
    if any(part.startswith("__") or not part.isidentifier() for part in module.split(".")):
        return False
    try:
        if importlib.util.find_spec(module) is None:
            return False
        obj = getattr(importlib.import_module(module), attr, None)
    except Exception:
        return False
    if getattr(obj, "__module__", None) != module or getattr(obj, "__name__", None) != attr:
        return False
    return isinstance(obj, type) or (inspect.isfunction(obj) and set(loaders) == {"FunctionNode"})


def _describe(exc):
    """``"Type: message"`` on one line, at most about 200 characters."""
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
