"""Token text normalization.

:class:`NumericNormalizer` rewrites every run of digits in a token as one
representative numeral (NERBio, Tsai et al. 2006), so that ``IL-2`` and
``IL-5`` share their features; :func:`normalize_numerals` is the same
mapping for one string.
"""

from ._normalize import NumericNormalizer, normalize_numerals

__all__ = ["NumericNormalizer", "normalize_numerals"]
