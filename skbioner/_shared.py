"""Work done once for the members of a combination that all need it (one batch at a time).

The members of a vote or a stack tag the same sentences one after the other,
and several of them may run the same annotator: NERBio with and without word
classes both POS-tag, a two-pass CRF with word classes looks the classes up
for its first pass and again for its second, and so does the NERBio member
with word classes.  Inside :func:`shared_annotations` an annotator whose
columns depend on the words alone gets them from :func:`shared_columns`:
computed by the first annotator, reused by every *equivalent* one (same class,
equal fitted state and parameters, :func:`equivalent`) given the same words.
:func:`shared_result` does the same for a pure function of hashable inputs (a
document's abbreviation pairs, which each member's first pass reads).  Outside
the block both just compute: nothing is kept, and nothing outlives the block.
"""

from __future__ import annotations

import contextvars
import threading
import weakref
from contextlib import contextmanager
from itertools import chain, count
from pathlib import PurePath

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator

__all__ = ["equivalent", "shared_annotations", "shared_columns", "shared_result"]

_MEMO = contextvars.ContextVar("skbioner_shared_annotations", default=None)


@contextmanager
def shared_annotations():
    """Within the block, equivalent annotators compute their columns once per sentence list.

    Nested blocks share the outermost one's memory, which is dropped when it
    ends (one batch of sentences: the columns are not kept beyond it).
    """
    if _MEMO.get() is not None:
        yield
        return
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def shared_columns(annotator, sentences, compute):
    """``compute(sentences)``, or what an equivalent annotator computed on the same words.

    Parameters
    ----------
    annotator : estimator
        A fitted annotator whose output depends only on the words and the
        document ids of ``sentences`` (not on their other columns).
    sentences : list of Sentence
    compute : callable
        ``compute(sentences)`` gives the annotator's values (not modified
        by the caller afterwards: it is handed to every equivalent annotator).

    Returns
    -------
    object
        What ``compute`` returns.
    """
    memo = _MEMO.get()
    if memo is None:
        return compute(sentences)
    key = (_class_token(annotator),
           tuple([(tuple(s), getattr(s, "doc_id", None)) for s in sentences]))
    try:
        return memo[key]
    except KeyError:
        pass
    out = memo[key] = compute(sentences)
    return out


def shared_result(key, compute):
    """``compute()``, or its value computed earlier inside the same block for ``key``.

    For pure functions of hashable inputs that several members of a
    combination call on the same sentences (a document's abbreviation pairs):
    ``key`` holds the function's name and every input.

    Parameters
    ----------
    key : tuple
        Hashable: a name and the inputs of ``compute``.
    compute : callable
        Called without arguments; its value is not modified by the callers.

    Returns
    -------
    object
    """
    memo = _MEMO.get()
    if memo is None:
        return compute()
    key = ("result", *key)
    try:
        return memo[key]
    except KeyError:
        pass
    out = memo[key] = compute()
    return out


# Each annotator seen inside a block gets a token, equal for equivalent annotators: it
# is compared once (per process) with one annotator of each token given so far.
_TOKENS = weakref.WeakKeyDictionary()
_REPRESENTATIVES = []  # (weak reference to an annotator, its token)
_NEW_TOKEN = count(1)
_LOCK = threading.Lock()


def _class_token(annotator):
    # The token stands for the annotator's state when it was given: refitting the
    # object in place (new fitted attributes) asks for a token again.  The values
    # are held, so their ids cannot be reused by other objects meanwhile.
    state = tuple(vars(annotator).values())
    with _LOCK:
        held = _TOKENS.get(annotator)
        if held is not None and len(held[1]) == len(state) and \
                all(x is y for x, y in zip(held[1], state)):
            return held[0]
        _REPRESENTATIVES[:] = [(ref, tok) for ref, tok in _REPRESENTATIVES
                               if ref() is not None and ref() is not annotator]
        token = next((tok for ref, tok in _REPRESENTATIVES if equivalent(ref(), annotator)),
                     None)
        if token is None:
            token = next(_NEW_TOKEN)
            _REPRESENTATIVES.append((weakref.ref(annotator), token))
        _TOKENS[annotator] = (token, state)
        return token


def equivalent(a, b):
    """Whether two estimators are the same computation: same class, equal state.

    The state (``__getstate__``: parameters and fitted attributes) is compared
    value by value, arrays and sparse matrices by their values, dtypes and
    shapes; a value it cannot compare counts as different.

    Parameters
    ----------
    a, b : estimator

    Returns
    -------
    bool
    """
    return a is b or (type(a) is type(b) and _same(_state(a), _state(b)))


def _state(obj):
    get = getattr(obj, "__getstate__", None)
    state = get() if get is not None else obj.__dict__
    return state if isinstance(state, dict) else {"state": state}


def _same(x, y):
    """Whether two state values are equal, exactly (a false "different" is only a lost reuse)."""
    if x is y:
        return True
    if type(x) is not type(y):
        return False
    if isinstance(x, np.ndarray):
        if x.dtype != y.dtype or x.shape != y.shape:
            return False
        if x.dtype == object:
            return _same(x.ravel().tolist(), y.ravel().tolist())
        return x.tobytes() == y.tobytes()  # bit for bit (-0.0 is not 0.0, a NaN is itself)
    if sp.issparse(x):
        return x.format == y.format and x.shape == y.shape and \
            all(_same(getattr(x, a), getattr(y, a))
                for a in ("data", "indices", "indptr", "row", "col", "offsets")
                if hasattr(x, a))
    if isinstance(x, float):
        return repr(x) == repr(y)
    if isinstance(x, np.generic):
        return x.tobytes() == y.tobytes()
    if isinstance(x, str | bytes | int | bool | type(None) | type | np.dtype | PurePath):
        return x == y
    if isinstance(x, dict):
        return _same(list(x), list(y)) and _same(list(x.values()), list(y.values()))
    if isinstance(x, list | tuple):
        return _same_items(x, y)
    if isinstance(x, BaseEstimator) or type(x).__module__.split(".")[0] == "skbioner":
        return _same(_state(x), _state(y))
    return False  # anything else (a function, a foreign object): only itself


#: values whose ``==`` is exact between two values of the same one of these types
_EXACT = frozenset((str, bytes, int, bool, type(None)))


def _same_items(x, y):
    """``_same`` of two lists or tuples, item by item (in C loops for a vocabulary)."""
    if len(x) != len(y):
        return False
    types = list(map(type, x))
    if types != list(map(type, y)):
        return False
    kinds = set(types)
    if kinds <= _EXACT:
        return x == y
    if kinds == {tuple}:  # tuple keys of a vocabulary: their items, flattened
        return list(map(len, x)) == list(map(len, y)) and \
            _same_items(list(chain.from_iterable(x)), list(chain.from_iterable(y)))
    return all(map(_same, x, y))
