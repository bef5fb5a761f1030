"""Parameter constraints for ``_parameter_constraints`` beyond scikit-learn's own.

Estimators declare their parameters the scikit-learn way (a class-level
``_parameter_constraints`` dict of :mod:`sklearn.utils._param_validation`
constraints, validated by ``@_fit_context``).  scikit-learn's
``Interval(Integral, ...)`` and ``Interval(Real, ...)`` accept ``True`` and
``False`` (``bool`` is an ``int``); the intervals here refuse them, so that
``min_count=True`` is an error while ``np.int64(3)`` and ``np.float32(0.1)``
are accepted like their Python counterparts.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, Options

__all__ = ["FloatDType", "Int", "RealNumber"]


class _NotBoolInterval(Interval):
    def is_satisfied_by(self, val):
        return not isinstance(val, bool | np.bool_) and super().is_satisfied_by(val)


def Int(left, right, closed="left"):  # noqa: N802 - reads like a constraint class
    """An interval of integers (Python or numpy) that refuses ``bool``.

    Parameters
    ----------
    left, right : int or None
        Bounds (None: unbounded).
    closed : {"left", "right", "both", "neither"}, default="left"

    Returns
    -------
    constraint : Interval
    """
    return _NotBoolInterval(Integral, left, right, closed=closed)


def RealNumber(left, right, closed="both"):  # noqa: N802
    """An interval of real numbers (ints and floats, Python or numpy) that refuses ``bool``.

    Parameters
    ----------
    left, right : float or None
        Bounds (None: unbounded).
    closed : {"left", "right", "both", "neither"}, default="both"

    Returns
    -------
    constraint : Interval
    """
    return _NotBoolInterval(Real, left, right, closed=closed)


class FloatDType(Options):
    """A floating-point dtype among ``types`` (a type, a ``np.dtype`` or its name).

    (An ``Options`` subclass: scikit-learn's validation takes only its own
    constraint classes.)

    Parameters
    ----------
    types : tuple of numpy scalar types, default=(np.float32, np.float64)
    """

    def __init__(self, types=(np.float32, np.float64)):
        super().__init__(type, set(types))
        self.types = tuple(types)

    def is_satisfied_by(self, val):
        if val is None or isinstance(val, bool):
            return False
        try:
            return np.dtype(val).type in self.types
        except TypeError:
            return False

    def __str__(self):
        names = " or ".join(f"np.{t.__name__}" for t in self.types)
        return f"a dtype: {names}"
