"""Model files: a safe format that loads without running code, and joblib on request.

:func:`save_model` writes a fitted model (any skbioner estimator or pipeline)
in the skops persistence format (``.skops``): a zip archive of numpy arrays
and a JSON description of the objects.  :func:`load_model` reads it back
without executing anything from the file.  Before a single object is built:

* every member of the archive is checked against its declared size, and
  every array's declared size against the shape and dtype its header
  declares; together they may inflate to at most 50 times the file's size
  (or 256 MiB), so a zip bomb is refused without being inflated;
* every node of the file's description is checked against an explicit
  allowlist, :data:`TRUSTED_TYPES`: the suite's own estimators and the
  classes of their fitted state, scikit-learn's ``Pipeline`` and
  ``FrozenEstimator``, and the Python, numpy and scipy types that state
  holds -- each only in the way skops builds it for the suite's models.
  No function, method or constructor named by the file is ever called:
  function references (a scikit-learn ``FunctionTransformer``'s function,
  any function of skbioner's own) are refused whatever they name;
* every whole number of the models' fitted state (a count, an offset, a
  sparse matrix's shape) is bounded by what the file carries
  (:func:`~skbioner.io._trust.check_sizes`), so no size read from a file
  sizes an allocation.

Once built, every restored object is validated as a constructed one would
be (parameters against their constraints, counts against the arrays they
count): one walk over the model, which covers a new estimator by itself.

Anything else is refused with a one-line :class:`ModelFileError` naming the
file and the types; nothing was built or run.

A joblib (pickle) file is different: unpickling calls whatever the file
says, so a crafted file runs any code it contains the moment it is loaded.
:func:`load_model` refuses pickles unless ``allow_pickle=True`` (command
line: ``--allow-pickle``); use it only for files from a source you trust.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import zipfile
from pathlib import Path

from ._atomic import atomic_write_bytes
from ._decode import check_input_kind
from ._trust import (
    _ZIP_MAGIC,
    TRUSTED_TYPES,
    SkopsRefusal,
    audit_schema,
    check_members,
    check_sizes,
    read_schema,
    type_names,
)

__all__ = ["ModelFileError", "save_model", "load_model", "model_metadata", "TRUSTED_TYPES",
           "PICKLE_SUFFIXES"]

#: The member of a ``.skops`` archive that holds what :func:`save_model` was told about the
#: model (and the versions it was saved with); skops ignores it.
METADATA_MEMBER = "skbioner-metadata.json"

#: File name endings :func:`save_model` writes as a joblib pickle (every other name: skops).
PICKLE_SUFFIXES = (".joblib", ".pkl", ".pickle")


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
        refused = audit_schema(read_schema(archive), trusted)
    if refused:
        raise ValueError(
            f"{type(model).__name__} holds types that load_model would not trust: "
            f"{', '.join(refused)}; if you trust them, pass trusted=[...] to save_model and "
            "load_model, or save to a .joblib path (a pickle: it runs code when loaded)"
        )
    atomic_write_bytes(path, _with_metadata(data, metadata))
    return path


def _with_metadata(data, metadata):
    """The skops archive ``data`` with a JSON metadata member added."""
    import datetime
    import platform

    from .._version import __version__

    if metadata is not None and not isinstance(metadata, dict):
        raise TypeError(f"metadata must be a dict, got {type(metadata).__name__}")
    versions = {"python": platform.python_version(), "skbioner": __version__}
    for name, module in (("scikit-learn", "sklearn"), ("numpy", "numpy"), ("scipy", "scipy"),
                         ("skops", "skops")):
        try:
            versions[name] = importlib.import_module(module).__version__
        except Exception:  # pragma: no cover - a broken install: record what is known
            pass
    record = {"saved": datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds"), "versions": versions, **dict(metadata or {})}
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
        If the file is not a model file (or its metadata is corrupt, or not
        a JSON object).
    """
    path_str = os.fsdecode(os.fspath(path))
    return metadata_of_bytes(_read_model_bytes(path, path_str), path_str)


def metadata_of_bytes(data, path_str):
    """:func:`model_metadata` of a file's content already read (``path_str`` for messages)."""
    if _format_of(data, path_str) != "skops":
        return {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            check_members(archive, len(data))
            if METADATA_MEMBER not in archive.namelist():
                return {}
            record = json.loads(archive.read(METADATA_MEMBER).decode("utf-8"))
    except Exception as exc:  # a corrupt archive or member, JSON nested too deep, ...
        raise ModelFileError(f"{path_str}: cannot read the model's metadata "
                             f"({_describe(exc)})") from None
    if not isinstance(record, dict):
        raise ModelFileError(f"{path_str}: the model's metadata is not a JSON object")
    return record


def load_model(path, *, allow_pickle=False, trusted=()):
    """Load a model saved by :func:`save_model` (or ``skbioner train``), safely.

    This is the one function that reads model files: the command line,
    :func:`skbioner.load_model` (which adds the bundled model) and the
    tagging functions all call it.

    Parameters
    ----------
    path : str or path-like
        A ``.skops`` file, or -- with ``allow_pickle=True`` -- a joblib
        pickle.  The format is recognised from the file's content, not its
        name.  A pipe (``/dev/stdin``, ``<(...)``) is read once.
    allow_pickle : bool, default=False
        Also load joblib/pickle files.  Loading a pickle runs any code it
        contains: allow it only for files from a source you trust.
    trusted : iterable of str, default=()
        Further classes (``"module.Class"``) whose instances a ``.skops``
        file may hold besides :data:`TRUSTED_TYPES`: the classes of your
        own feature kinds, for instance.  Functions are never trusted.

    Returns
    -------
    object
        The model.

    Raises
    ------
    ModelFileError
        A one-line message naming the file: a pickle without
        ``allow_pickle=True``; a file naming types (or function references)
        that are not trusted (they are named; nothing was built or run);
        members that would inflate beyond their declared sizes or 50 times
        the file's size; a count or offset beyond what the file carries; a
        parameter its estimator would refuse; an empty, truncated, corrupt or
        foreign file.
    OSError
        If the file cannot be read (missing, a directory, no permission).
    """
    path_str = os.fsdecode(os.fspath(path))
    return load_model_bytes(_read_model_bytes(path, path_str), path_str,
                            allow_pickle=allow_pickle, trusted=trusted)


def load_model_bytes(data, name, *, allow_pickle=False, trusted=()):
    """:func:`load_model` of a file's content already read (``name`` is for messages)."""
    kind = _format_of(data, name)
    if kind == "skops":
        return _load_skops(data, name, trusted)
    if not allow_pickle:
        raise ModelFileError(
            f"{name}: refused: this is {kind} (joblib), and loading it would run any code "
            "it contains; if you trust its source, load it with allow_pickle=True "
            "(command line: --allow-pickle), or save it again in the safe .skops format"
        )
    import joblib

    try:
        return joblib.load(io.BytesIO(data))
    except Exception as exc:
        raise ModelFileError(
            f"{name}: cannot load the pickle ({_describe(exc)})"
        ) from None


def _format_of(data, name):
    """``"skops"``, or what kind of joblib pickle ``data`` is; a ModelFileError otherwise."""
    if not data:
        raise ModelFileError(f"{name}: the model file is empty")
    kind = "skops" if data.startswith(_ZIP_MAGIC) else _pickle_kind(data)
    if kind is None:
        raise ModelFileError(
            f"{name}: not a model file (neither the .skops format nor a joblib pickle)")
    return kind


def _pickle_kind(data):
    """What kind of joblib file ``data`` is (``"a pickle"``, ...), or None.

    Compressed files are recognised by their magic bytes *and* by the first
    byte they decompress to being a pickle's, so a text file that happens to
    start like a zlib stream (``x...``) is not taken for a model.
    """
    import bz2
    import lzma
    import zlib

    if data[:1] == b"\x80":
        return "a pickle" if data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05") else None
    kinds = (
        (b"\x78", "a zlib-compressed joblib pickle", lambda: zlib.decompressobj()),
        (b"\x1f\x8b\x08", "a gzip-compressed joblib pickle",
         lambda: zlib.decompressobj(16 + zlib.MAX_WBITS)),
        (b"\xfd7zXZ\x00", "an xz-compressed joblib pickle", lambda: lzma.LZMADecompressor()),
        (b"BZh", "a bz2-compressed joblib pickle", lambda: bz2.BZ2Decompressor()),
        (b"\x5d\x00\x00", "an lzma-compressed joblib pickle",
         lambda: lzma.LZMADecompressor(lzma.FORMAT_ALONE)),
    )
    for magic, kind, make in kinds:
        if data.startswith(magic):
            try:
                head = make().decompress(data[:4096], 2)
            except Exception:  # not a stream of this kind
                return None
            return kind if head[:1] == b"\x80" else None
    if data.startswith(b"\x04\x22\x4d\x18"):  # lz4 (needs the lz4 package to look inside)
        return "an lz4-compressed joblib pickle"
    return None


def _read_model_bytes(path, path_str):
    check_input_kind(path, path_str)  # a directory or a device (/dev/zero) is no model
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except MemoryError:
        raise ModelFileError(f"{path_str}: too large to read into memory") from None
    return data


def _load_skops(data, path_str, trusted=()):
    import skops.io as sio

    def corrupt(exc):
        return ModelFileError(f"{path_str}: not a valid .skops model file (corrupt, truncated "
                              f"or foreign: {_describe(exc)})")

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            limit, scalars = check_members(archive, len(data))
            schema = read_schema(archive)
        refused = audit_schema(schema, trusted)
        if not refused:
            check_sizes(schema, limit, scalars)
    except SkopsRefusal as exc:
        raise ModelFileError(f"{path_str}: refused: {exc}; nothing was loaded") from None
    except Exception as exc:
        raise corrupt(exc) from None
    if refused:
        raise ModelFileError(
            f"{path_str}: refused: the file holds types that are not trusted "
            f"({', '.join(refused)}); nothing was loaded"
        )
    try:
        # skops checks the types again, against what our audit accepted
        model = sio.loads(data, trusted=type_names(schema))
        _check_restored(model, limit)
        return model
    except (zipfile.BadZipFile, EOFError) as exc:
        raise corrupt(exc) from None
    except Exception as exc:
        raise ModelFileError(
            f"{path_str}: cannot load the model ({_describe(exc)})"
        ) from None


def _check_restored(model, limit):
    """Validate every object restored from a file as its constructor would have.

    skops builds objects without calling ``__init__``: here every estimator's
    parameters are checked against its declared constraints, every dataclass
    runs its ``__post_init__`` checks, every count ``n_X_`` must be the length
    of the ``X_`` stored beside it, and every whole number of their state (a
    numpy scalar, a number a ``__setstate__`` derived) is within ``limit``, as
    :func:`~skbioner.io._trust.check_sizes` checks the file's -- one walk over
    the model, so a new estimator is covered without a check of its own.
    """
    import dataclasses
    import numbers

    from sklearn.base import BaseEstimator

    seen, stack = set(), [(model, "the model", ())]
    while stack:
        obj, where, own = stack.pop()
        if isinstance(obj, numbers.Integral) and not isinstance(obj, bool):
            if abs(int(obj)) > limit and obj not in own:
                raise ValueError(f"{where} is {int(obj):,}, beyond any size the file carries "
                                 f"(at most {limit:,})")
            continue
        if isinstance(obj, str | float | bytes) or obj is None or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, dict):
            stack.extend((v, where, own) for v in obj.values())
        elif isinstance(obj, list | tuple):
            stack.extend((v, where, own) for v in obj)
        elif type(obj).__module__.split(".")[0] in ("skbioner", "sklearn"):
            params = {}
            if isinstance(obj, BaseEstimator):
                obj._validate_params()
                params = obj.get_params(deep=False)
            elif dataclasses.is_dataclass(obj) and hasattr(obj, "__post_init__"):
                obj.__post_init__()
            state = getattr(obj, "__dict__", {})
            for name, value in state.items():
                stored = state.get(name[2:]) if name.startswith("n_") else None
                if name.endswith("_") and hasattr(stored, "__len__") and isinstance(
                        value, numbers.Integral) and value != len(stored):
                    raise ValueError(f"{type(obj).__name__}.{name} is {value:,} but "
                                     f"{name[2:]} holds {len(stored):,}")
            own = tuple(v for v in params.values() if isinstance(v, numbers.Integral))
            stack.extend((v, f"{type(obj).__name__}.{k}", own) for k, v in state.items()
                         if k not in params or isinstance(v, BaseEstimator | list))


def _describe(exc):
    """``"Type: message"`` on one line, at most about 200 characters."""
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
