"""Training progress on stderr: the models' ``verbose`` levels in one place.

``verbose=1`` shows a tqdm bar per loop (epochs, iterations, folds);
``verbose>=2`` prints one line per step instead (what a log file wants);
:func:`log` prints an estimator's phase lines (``[Name] ...``) at any level.
"""

from __future__ import annotations

import sys

__all__ = ["log", "progress_bar"]


def progress_bar(total, desc, verbose, unit="it"):
    """A tqdm bar on stderr when ``verbose == 1``, else a disabled one (it shows nothing).

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
    tqdm.tqdm
        Use as a context manager; ``update()`` after each step,
        ``set_postfix_str(...)`` for the step's figures.
    """
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=True,
                dynamic_ncols=True, disable=int(verbose) != 1)


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
