"""The character scan of :class:`~skbioner.text.BioTokenizer`, compiled.

One pass over the code points of a whole text finds its whitespace-separated
chunks and the tokens of the ``_TOKEN`` regular expression of ``_tokenize.py``
(an ellipsis, ``--``, an always-split character, or a word), with the flags the
Python rules need: which words may be split further (an apostrophe, hyphen or
slash inside, or ending in ``annot``), which chunks hold a period, how many line
breaks follow each chunk.  ``tests/text/test_scan.py`` checks it against the
regular expressions on random text.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["ALWAYS_SPLIT", "scan"]

#: The characters that are always a token of their own (see ``_tokenize.py``).
ALWAYS_SPLIT = ',;:@#$%&=()[]{}<>?!"'
_ALWAYS = np.zeros(128, dtype=np.bool_)
_ALWAYS[[ord(c) for c in ALWAYS_SPLIT]] = True


@njit(cache=True, nogil=True)
def _is_space(c):
    # str.isspace() (and the \s of re for str patterns)
    if c <= 32:
        return c == 32 or 9 <= c <= 13 or 28 <= c <= 31
    if c < 133:
        return False
    return (c == 133 or c == 160 or c == 5760 or 8192 <= c <= 8202 or c == 8232
            or c == 8233 or c == 8239 or c == 8287 or c == 12288)


@njit(cache=True, nogil=True)
def _scan_kernel(codes, always, slash):
    n = codes.shape[0]
    tok = np.empty((n, 2), dtype=np.int64)
    flag = np.zeros(n, dtype=np.bool_)
    chunk = np.empty((n, 2), dtype=np.int64)
    dot = np.zeros(n, dtype=np.bool_)
    nl = np.zeros(n, dtype=np.int64)
    nt = 0
    nc = 0
    i = 0
    while i < n:
        c = codes[i]
        if _is_space(c):
            if c == 10 and nc > 0:
                nl[nc - 1] += 1
            i += 1
            continue
        # a chunk starts here: tokens until the next space
        chunk[nc, 0] = i
        while i < n and not _is_space(codes[i]):
            c = codes[i]
            s = i
            if c == 46 and i + 2 < n and codes[i + 1] == 46 and codes[i + 2] == 46:
                i += 3
            elif c == 45 and i + 1 < n and codes[i + 1] == 45:
                i += 2
            elif c < 128 and always[c]:
                i += 1
            else:
                split = False
                while i < n:
                    c = codes[i]
                    if _is_space(c) or (c < 128 and always[c]):
                        break
                    if c == 45:
                        if i + 1 < n and codes[i + 1] == 45:
                            break
                        split = True
                    elif c == 46:
                        if i + 2 < n and codes[i + 1] == 46 and codes[i + 2] == 46:
                            break
                        dot[nc] = True
                    elif c == 39 or (c == 47 and slash):
                        split = True
                    i += 1
                if i - s > 1 and not split and i - s >= 5:
                    a, b, d, e, f = (codes[i - 5], codes[i - 4], codes[i - 3], codes[i - 2],
                                     codes[i - 1])
                    if ((a == 97 and b == 110 and d == 110 and e == 111 and f == 116)
                            or (a == 65 and b == 78 and d == 78 and e == 79 and f == 84)):
                        split = True  # "annot" / "ANNOT": cannot
                flag[nt] = split and i - s > 1
            if codes[s] == 46:  # an ellipsis, or a word that starts with a period
                dot[nc] = True
            tok[nt, 0] = s
            tok[nt, 1] = i
            nt += 1
        chunk[nc, 1] = i
        nc += 1
    return tok[:nt], flag[:nt], chunk[:nc], dot[:nc], nl[:nc]


def scan(text, slash=False):
    """Tokens and chunks of ``text`` in one compiled pass.

    Parameters
    ----------
    text : str
    slash : bool, default=False
        Whether a slash inside a word marks it for further splitting (learned cuts).

    Returns
    -------
    tokens : ndarray of shape (n_tokens, 2)
        ``(start, end)`` of the tokens of the ``_TOKEN`` regular expression.
    split : ndarray of bool, shape (n_tokens,)
        Words of more than one character that hold ``'`` or ``-`` (or ``/``
        with ``slash``) or end in ``annot``/``ANNOT``.
    chunks : ndarray of shape (n_chunks, 2)
        ``(start, end)`` of the runs of non-space characters.
    dots : ndarray of bool, shape (n_chunks,)
        Chunks that hold a period.
    newlines : ndarray of int, shape (n_chunks,)
        Line feeds in the whitespace after each chunk.
    codes : ndarray of uint32, shape (len(text),)
        The code points of ``text``.
    """
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    return (*_scan_kernel(codes, _ALWAYS, bool(slash)), codes)
