"""Numeral normalization of tokens (NERBio, Tsai et al. 2006)."""

from __future__ import annotations

import functools
import re
from itertools import chain

from sklearn.base import BaseEstimator, TransformerMixin

from .._sentence import Sentence, check_sentences
from .._utils import gc_paused
from .._validation import ColumnName, StrOptions
from ..base import SentenceTransformerMixin

__all__ = ["NumericNormalizer", "normalize_numerals"]

# ASCII digits only: ``\d`` in a str pattern would also match Arabic-Indic,
# Devanagari, full-width ... digits.  Biomedical text writes numbers in ASCII;
# a token with other digits is left as it is.
_DIGITS = re.compile(r"[0-9]+")
_DIGIT = re.compile(r"[0-9]")
_PATTERNS = {"run": _DIGITS, "digit": _DIGIT}


def _check_digit(digit) -> str:
    if not isinstance(digit, str) or not digit:
        raise ValueError(f"digit must be a non-empty str, got {digit!r}")
    return digit


def normalize_numerals(word: str, digit: str = "1", mode: str = "run") -> str:
    """Replace every maximal run of ASCII digits (or every digit) in ``word`` by ``digit``.

    Parameters
    ----------
    word : str
        One token.
    digit : str, default="1"
        The representative numeral.
    mode : {"run", "digit"}, default="run"
        ``"run"``: each maximal run of digits becomes one ``digit``
        (``IL-12 -> IL-1``); ``"digit"``: each digit does (``IL-12 -> IL-11``).

    Returns
    -------
    str

    Examples
    --------
    >>> [normalize_numerals(w) for w in ["IL2", "IL-3", "p53", "1997", "2.5", "kappa"]]
    ['IL1', 'IL-1', 'p1', '1', '1.1', 'kappa']
    >>> normalize_numerals("IL-12", digit="0")
    'IL-0'
    >>> normalize_numerals("IL-12", mode="digit"), normalize_numerals("1997", mode="digit")
    ('IL-11', '1111')
    """
    digit = _check_digit(digit)
    if mode not in _PATTERNS:
        raise ValueError(f"mode must be 'run' or 'digit', got {mode!r}")
    return _normalizer(digit, mode)(word)


def _normalizer(digit: str, mode: str = "run"):
    """A one-string normalizer for ``digit`` (the regex replacement compiled once)."""
    return functools.partial(_PATTERNS[mode].sub, digit.replace("\\", "\\\\"))


class NumericNormalizer(
    SentenceTransformerMixin, TransformerMixin, BaseEstimator, auto_wrap_output_keys=None
):
    """Replace every run of digits in a token by one representative numeral.

    NERBio's numeral normalization (Tsai et al. 2006): ``IL2 -> IL1``,
    ``IL-3 -> IL-1``, ``IL5 -> IL1``, ``p53 -> p1``, ``1997 -> 1``,
    ``2.5 -> 1.1``.  Tokens that differ only in their numbers share their
    word features, which generalises over gene and protein family members.

    The transformer is stateless: ``fit`` only validates the parameters
    (like :class:`~sklearn.preprocessing.FunctionTransformer`).

    Parameters
    ----------
    digit : str, default="1"
        The representative numeral that replaces each maximal run of ASCII
        digits ``[0-9]`` (each digit with ``mode="digit"``).
    mode : {"run", "digit"}, default="run"
        ``"run"``: a run of digits becomes one numeral (``IL-12 -> IL-1``,
        ``1997 -> 1``); ``"digit"``: every digit is replaced and the length
        kept (``IL-12 -> IL-11``, ``1997 -> 1111``).  NERBio tried both.
    annotation : str or None, default=None
        Where the normalized form goes.  ``None``: the output sentences'
        *words* are the normalized tokens and the original tokens are kept
        in an annotation column ``orig``.  A name (e.g. ``"norm"``): the
        words stay as they are and the normalized tokens are added as an
        annotation column of that name.

    See Also
    --------
    normalize_numerals : the same mapping for one string.

    Notes
    -----
    Only ASCII digits ``0-9`` are normalized; other Unicode decimal digits
    (``"\\u0663"``, full-width ``"\\uff13"``...) are left unchanged.

    :meth:`transform` returns new :class:`~skbioner.Sentence` objects and
    never modifies its input; the input's annotation columns are carried
    over.  With ``annotation=None`` an ``orig`` column already present in
    the input (e.g. from an earlier normalizer) is kept, as it already
    holds the tokens before any normalization; otherwise ``orig`` is set to
    the input words.  With ``annotation="name"`` a column of that name is
    replaced.

    Each distinct word is normalized once and the result is mapped onto
    the tokens, so equal tokens always get equal outputs.

    Examples
    --------
    >>> from skbioner.text import NumericNormalizer
    >>> X = [["IL-2", "and", "IL5", "bind", "p53"]]
    >>> Xt = NumericNormalizer().fit_transform(X)
    >>> list(Xt[0]), Xt[0].column("orig")
    (['IL-1', 'and', 'IL1', 'bind', 'p1'], ('IL-2', 'and', 'IL5', 'bind', 'p53'))
    >>> s = NumericNormalizer(annotation="norm").fit_transform(X)[0]
    >>> list(s), s.column("norm")
    (['IL-2', 'and', 'IL5', 'bind', 'p53'], ('IL-1', 'and', 'IL1', 'bind', 'p1'))
    """

    _parameter_constraints = {
        "digit": [str],
        "mode": [StrOptions({"run", "digit"})],
        "annotation": [ColumnName(), None],
    }

    def __init__(self, digit="1", mode="run", annotation=None):
        self.digit = digit
        self.mode = mode
        self.annotation = annotation

    _requires_fit = False

    def _check_params(self):
        self._validate_params()  # stateless: transform validates as fit does
        return _check_digit(self.digit), self.mode, self.annotation

    def fit(self, X, y=None):
        """Validate the parameters and ``X`` (the transformer learns nothing).

        Parameters
        ----------
        X : list of sentences
            Validated only.
        y : None
            Ignored.

        Returns
        -------
        self : NumericNormalizer
        """
        self._check_params()
        check_sentences(X)
        return self

    def transform(self, X):
        """Normalize the numerals of every token.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.

        Returns
        -------
        list of Sentence
            New sentences, one per input sentence.  With ``annotation=None``
            their words are the normalized tokens and the column ``orig``
            holds the original tokens; otherwise their words are unchanged
            and the column ``annotation`` holds the normalized tokens.
        """
        digit, mode, ann = self._check_params()
        sentences = check_sentences(X)
        norm = _normalizer(digit, mode)  # called once per distinct word
        get = {w: norm(w) for w in dict.fromkeys(chain.from_iterable(sentences))}.__getitem__
        out = []
        with gc_paused():  # a new sentence per sentence, none of them cyclic garbage
            for s in sentences:
                normed = tuple(map(get, s))
                if ann is not None:
                    out.append(s.with_annotations(**{ann: normed}))
                else:
                    cols = s.annotations
                    cols.setdefault("orig", tuple(s))
                    # the columns were checked when ``s`` was made, and ``normed`` has its length
                    out.append(Sentence._checked(normed, cols, s.doc_id))
        return out
