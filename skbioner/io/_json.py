"""JSON from files: nesting bounded, so a crafted record is an error, never a RecursionError."""

from __future__ import annotations

import json

__all__ = ["MAX_JSON_DEPTH", "JSONDepthError", "loads"]

#: The deepest nesting of objects and arrays read from a JSON input (BioC JSON needs about 8).
MAX_JSON_DEPTH = 100


class JSONDepthError(ValueError):
    """A JSON text nested more than :data:`MAX_JSON_DEPTH` levels deep."""

    def __init__(self, max_depth=MAX_JSON_DEPTH):
        super().__init__(f"JSON nested more than {max_depth} levels deep (a crafted input?)")


def loads(text, max_depth=MAX_JSON_DEPTH):
    """:func:`json.loads`, refusing objects and arrays nested more than ``max_depth`` deep.

    Parameters
    ----------
    text : str or bytes
    max_depth : int, default=MAX_JSON_DEPTH

    Returns
    -------
    object

    Raises
    ------
    json.JSONDecodeError
        For text that is not JSON.
    JSONDepthError
        For nesting deeper than ``max_depth`` -- also when it is so deep
        that the JSON parser itself would run out of stack (RecursionError).

    Examples
    --------
    >>> loads('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads("[" * 200 + "]" * 200)
    Traceback (most recent call last):
    ...
    skbioner.io._json.JSONDepthError: JSON nested more than 100 levels deep (a crafted input?)
    """
    try:
        obj = json.loads(text)
    except RecursionError:
        raise JSONDepthError(max_depth) from None
    if isinstance(obj, dict | list):
        level, depth = [obj], 1
        while level:
            if depth > max_depth:
                raise JSONDepthError(max_depth)
            level = [child for node in level
                     for child in (node.values() if isinstance(node, dict) else node)
                     if isinstance(child, dict | list)]
            depth += 1
    return obj
