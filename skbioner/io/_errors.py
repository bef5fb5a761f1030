"""The error raised for a malformed corpus file."""

from __future__ import annotations

import os

__all__ = ["CorpusFormatError"]


class CorpusFormatError(ValueError):
    """A corpus file is malformed; the message names the file and the line.

    Every problem the readers of :mod:`skbioner.io` find in their input is
    reported with this exception, at the first problem found: no line is
    skipped silently.  It derives from :class:`ValueError`, so code catching
    ``ValueError`` catches it too.

    Parameters
    ----------
    path : str or path-like
        The file (or directory) in which the problem was found.
    line : int or None
        The 1-based line number of the problem, or None when the problem is
        not tied to one line (an empty file, a missing companion file).
    message : str
        What is wrong, and where possible what was expected.

    Attributes
    ----------
    path : str
        The file, as a string.
    line : int or None
        The 1-based line number, or None.
    message : str
        The message without the ``path:line:`` prefix.

    Examples
    --------
    >>> err = CorpusFormatError("train.iob2", 12, "expected 2 columns, found 3")
    >>> str(err)
    'train.iob2:12: expected 2 columns, found 3'
    >>> str(CorpusFormatError("empty.iob2", None, "the file is empty"))
    'empty.iob2: the file is empty'
    """

    def __init__(self, path, line: int | None, message: str):
        self.path = os.fspath(path) if not isinstance(path, str) else path
        self.line = None if line is None else int(line)
        self.message = str(message)
        if self.line is None:
            text = f"{self.path}: {self.message}"
        else:
            text = f"{self.path}:{self.line}: {self.message}"
        super().__init__(text)

    def __reduce__(self):
        # The default exception pickling calls cls(*self.args), which does not
        # match this constructor; rebuild from the three parts instead.
        return (type(self), (self.path, self.line, self.message))
