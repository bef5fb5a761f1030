"""Small helpers shared across subpackages."""

from __future__ import annotations

import contextlib
import gc

__all__ = ["gc_paused", "pack_strings", "portable_mapping", "restore_mapping",
           "unpack_strings"]


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building many small objects.

    Reading a corpus or featurizing it allocates about one small object per
    token or word type, none of it cyclic garbage; with hundreds of thousands
    of tracked objects alive, the collector's full scans would otherwise cost
    about as much as the work itself.  The previous state is restored.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# --------------------------------------------------------------------------
# portable state: what the safe model format (skops, skbioner.io.save_model)
# can store.  It keeps JSON-like containers with string/int keys and numeric
# numpy arrays; dicts keyed by tuples and object arrays of strings (stored one
# node per string, slowly) are turned into those by the two helpers below,
# called from the __getstate__/__setstate__ of the classes that hold them.
# --------------------------------------------------------------------------

_PACKED = "skbioner-packed-v1"


def portable_mapping(mapping):
    """A dict with any keys as a list of ``(key, value)`` pairs, string arrays packed.

    The inverse is :func:`restore_mapping`; pickles of either form load.
    """
    return [(key, pack_strings(value)) for key, value in mapping.items()]


def restore_mapping(state):
    """The dict of :func:`portable_mapping` (a dict given as is is returned as is)."""
    if isinstance(state, dict):
        return state
    return {_tuple_key(key): unpack_strings(value) for key, value in state}


def _tuple_key(key):
    # tuples may come back as lists from some formats; keys must be hashable
    return tuple(_tuple_key(k) for k in key) if isinstance(key, list | tuple) else key


def pack_strings(value):
    """A 1-d object array of str as ``(marker, joined text, int64 lengths)``; else unchanged."""
    import numpy as np

    if not (isinstance(value, np.ndarray) and value.dtype == object and value.ndim == 1):
        return value
    items = value.tolist()
    if not all(type(s) is str for s in items):
        return value
    lengths = np.fromiter(map(len, items), dtype=np.int64, count=len(items))
    return (_PACKED, "".join(items), lengths)


def unpack_strings(value):
    """The object array of :func:`pack_strings` (anything else is returned as is)."""
    import numpy as np

    if not (isinstance(value, tuple) and len(value) == 3 and value[0] == _PACKED):
        return value
    _, joined, lengths = value
    ends = np.cumsum(lengths).tolist()
    out = np.empty(len(ends), dtype=object)
    out[:] = [joined[a:b] for a, b in zip([0, *ends[:-1]], ends)]
    return out


def signal_cause(exc):
    """The ``KeyboardInterrupt`` or ``SystemExit`` behind a ``SystemError``, else None.

    A signal handler's exception raised while a compiled (numba) call runs comes
    back as a ``SystemError`` caused by it, wrapped once more by every enclosing
    compiled call; the chain is followed through those ``SystemError`` only.

    Parameters
    ----------
    exc : BaseException

    Returns
    -------
    KeyboardInterrupt or SystemExit or None
    """
    seen = set()
    while isinstance(exc, SystemError) and id(exc) not in seen:
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            return exc
    return None
