"""``SegmentEncoder``: a LabelEncoder-shaped transformer between schemes."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import StrOptions
from ._check import check_label_sequences
from ._schemes import SCHEMES, check_scheme, convert, labels_to_spans, scheme_labels

__all__ = ["SegmentEncoder"]


class SegmentEncoder(TransformerMixin, BaseEstimator):
    """Re-encode label sequences from one segment representation to another.

    Shaped like :class:`sklearn.preprocessing.LabelEncoder`: it works on
    ``y`` (a list of label lists), not on ``X``.

    Parameters
    ----------
    scheme : str, default="IOBES"
        Target scheme (one of :data:`~skbioner.schemes.SCHEMES`).
    from_scheme : str, default="IOB2"
        Scheme of the sequences passed to :meth:`fit` and :meth:`transform`,
        and produced by :meth:`inverse_transform`.
    validate : bool, default=True
        Reject labels that ``from_scheme`` does not write (``ValueError``
        naming the sentence and token).  Ill-formed but valid-label sequences
        (``O I-DNA``) are read by the repair policy of
        :func:`~skbioner.schemes.labels_to_spans`.

    Attributes
    ----------
    types_ : ndarray of str
        Entity types seen in :meth:`fit`.
    classes_ : ndarray of str
        The labels of ``scheme`` for ``types_`` (canonical order).

    Examples
    --------
    >>> enc = SegmentEncoder(scheme="IOBES").fit([["B-DNA", "I-DNA", "O"]])
    >>> enc.transform([["B-DNA", "I-DNA", "O"]])
    [['B-DNA', 'E-DNA', 'O']]
    >>> enc.inverse_transform([['B-DNA', 'E-DNA', 'O']])
    [['B-DNA', 'I-DNA', 'O']]
    """

    _parameter_constraints = {
        "scheme": [StrOptions(set(SCHEMES) | {"BIO"})],
        "from_scheme": [StrOptions(set(SCHEMES) | {"BIO"})],
        "validate": ["boolean"],
    }

    def __init__(self, scheme="IOBES", from_scheme="IOB2", validate=True):
        self.scheme = scheme
        self.from_scheme = from_scheme
        self.validate = validate

    def _check(self, y, scheme):
        return check_label_sequences(y, scheme=scheme if self.validate else False)

    def fit(self, y):
        """Learn the entity types of ``y`` (in ``from_scheme``).

        Parameters
        ----------
        y : list of list of str
            Label sequences in ``from_scheme``.

        Returns
        -------
        self : SegmentEncoder
        """
        self._validate_params()
        self.scheme_ = check_scheme(self.scheme)
        self.from_scheme_ = check_scheme(self.from_scheme)
        y = self._check(y, self.from_scheme_)
        types = {t for labels in y for t, _, _ in labels_to_spans(labels, self.from_scheme_)}
        self.types_ = np.array(sorted(types), dtype=object)
        self.classes_ = np.array(scheme_labels(self.scheme_, types), dtype=object)
        return self

    def transform(self, y):
        """Convert ``y`` from ``from_scheme`` to ``scheme`` (new lists).

        Parameters
        ----------
        y : list of list of str
            Label sequences in ``from_scheme``.

        Returns
        -------
        list of list of str
            The same entities written in ``scheme``.
        """
        check_is_fitted(self, "classes_")
        y = self._check(y, self.from_scheme_)
        return [convert(labels, self.from_scheme_, self.scheme_) for labels in y]

    def inverse_transform(self, y):
        """Convert ``y`` from ``scheme`` back to ``from_scheme``.

        Parameters
        ----------
        y : list of list of str
            Label sequences in ``scheme``.

        Returns
        -------
        list of list of str
            The same entities written in ``from_scheme``.
        """
        check_is_fitted(self, "classes_")
        y = self._check(y, self.scheme_)
        return [convert(labels, self.scheme_, self.from_scheme_) for labels in y]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.two_d_array = False
        return tags
