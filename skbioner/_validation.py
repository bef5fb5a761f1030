"""Declared parameter constraints: scikit-learn's machinery, made strict about bools.

Estimators declare ``_parameter_constraints`` and decorate ``fit`` with
:func:`fit_context` (sklearn's ``_fit_context``), which validates every
parameter before any work.  sklearn's ``Interval(numbers.Real, ...)`` takes
``True`` for ``1``; a parameter that means a number here refuses bools
(``C=True`` is a mistake, ``C=np.float32(0.1)`` is not), so the intervals
of this module are the ones to use.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils._param_validation import HasMethods, Options, StrOptions
from sklearn.utils._param_validation import Interval as _SkInterval

__all__ = ["ColumnName", "FloatDType", "HasMethods", "Integral", "Interval", "Options", "Real",
           "StrOptions", "fit_context"]


class Interval(_SkInterval):
    """sklearn's ``Interval``, refusing ``bool`` (and ``numpy.bool_``) values."""

    def is_satisfied_by(self, val):
        if isinstance(val, bool | np.bool_):
            return False
        return super().is_satisfied_by(val)


class ColumnName(Options):
    """A token annotation column name: a non-empty str other than ``"word"``.

    (An ``Options`` subclass only because sklearn's validator accepts its own
    constraint classes; it is satisfied by any such name, not by a list.)
    """

    def __init__(self):
        super().__init__(str, set())

    def is_satisfied_by(self, val):
        return isinstance(val, str) and bool(val) and val != "word"

    def __str__(self):
        return "a non-empty annotation column name other than 'word'"


class FloatDType(Options):
    """A floating-point dtype among ``types`` (a type, a ``np.dtype`` or its name).

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


def fit_context(method):
    """Validate the declared parameters before ``method`` runs (sklearn's ``_fit_context``).

    Nested estimators (a segmenter inside a cascade) are validated by their
    own ``fit``.
    """
    return _fit_context(prefer_skip_nested_validation=False)(method)
