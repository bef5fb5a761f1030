"""Training progress on stderr: the models' ``verbose`` levels in one place.

``verbose=1`` shows a tqdm bar per loop (epochs, iterations, folds);
``verbose>=2`` prints one line per step instead (what a log file wants);
:func:`log` prints an estimator's phase lines (``[Name] ...``) at any level.
"""

from __future__ import annotations

import sys

__all__ = ["log", "progress_bar"]


class _Silent:
    """What :func:`progress_bar` returns when no bar is wanted: the same methods, no output."""

    def update(self, n=1):
        pass

    def set_postfix_str(self, s="", refresh=True):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def progress_bar(total, desc, verbose, unit="it"):
    """A tqdm bar on stderr when ``verbose == 1``, else an object that shows nothing.

    Parameters
    ----------
    total : int
        Steps of the loop.
    desc : str
        What the loop does (``"OnlinePACRF epochs"``).
    verbose : int
        The estimator's ``verbose``.
    unit : str, default="it"

    Returns
    -------
    tqdm.tqdm or object
        Use as a context manager; ``update()`` after each step,
        ``set_postfix_str(...)`` for the step's figures.
    """
    if int(verbose) != 1:
        return _Silent()
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=True,
                dynamic_ncols=True)


def log(estimator, message, name=None):
    """``[Name] message`` on stderr when ``estimator.verbose`` is on.

    Parameters
    ----------
    estimator : object
        Its ``verbose`` attribute decides; its class names the line.
    message : str
    name : str, optional
        Instead of the class name.
    """
    if getattr(estimator, "verbose", 0):
        print(f"[{name or type(estimator).__name__}] {message}", file=sys.stderr, flush=True)
