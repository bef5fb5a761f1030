"""JNLPBA 2004 (GENIA 3.02 derived) loaders."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import numpy as np

from ..io import read_jnlpba

__all__ = ["JNLPBA_TYPES", "jnlpba_overlap_ids", "load_jnlpba", "load_jnlpba_sample",
           "train_dev_split"]

#: The five entity types of the JNLPBA 2004 shared task.
JNLPBA_TYPES = ("DNA", "RNA", "cell_line", "cell_type", "protein")

_SUBSETS = ("train", "test")


def _check_subset(subset):
    if subset not in _SUBSETS:
        raise ValueError(f"subset must be one of {_SUBSETS}, got {subset!r}")


def load_jnlpba_sample(subset="train"):
    """Load the JNLPBA sample bundled with the package.

    Every 8th abstract of the JNLPBA 2004 training split (250 abstracts,
    about 62,000 tokens) or of its official test split (51 abstracts, about
    12,700 tokens), byte for byte.  Corpus annotations (c) GENIA Project,
    CC BY 3.0; see ``skbioner/datasets/data/README.md``.

    Parameters
    ----------
    subset : {"train", "test"}, default="train"

    Returns
    -------
    ColumnCorpus
        ``X`` (sentences), ``y`` (IOB2 labels), ``doc_ids`` (MEDLINE id per
        sentence, usable as ``groups`` for ``GroupKFold``).
    """
    _check_subset(subset)
    ref = resources.files("skbioner.datasets") / "data" / f"jnlpba-{subset}-sample.iob2.gz"
    with resources.as_file(ref) as path:
        return read_jnlpba(path)


def load_jnlpba(path, subset="train"):
    """Load a full JNLPBA split from a file or from the directory holding it.

    Parameters
    ----------
    path : str or path-like
        Either the IOB2 file itself (``train.iob2``, ``Genia4EReval2.iob2``,
        ...) or a directory containing ``<subset>.iob2``.
    subset : {"train", "test"}, default="train"
        Used only when ``path`` is a directory.

    Returns
    -------
    ColumnCorpus
    """
    p = Path(os.fspath(path))
    if p.is_dir():
        _check_subset(subset)
        p = p / f"{subset}.iob2"
    if not p.exists():
        raise FileNotFoundError(2, "No such file or directory", str(p))
    return read_jnlpba(p)


def train_dev_split(doc_ids, dev_fraction=0.1):
    """Sentence indices of a train / development split by whole documents.

    The last ``dev_fraction`` of the documents (in corpus order) form the
    development set, so no abstract is split and tuning never looks at the
    test set.

    Parameters
    ----------
    doc_ids : sequence of str
        Document id of every sentence (``ColumnCorpus.doc_ids``).
    dev_fraction : float, default=0.1

    Returns
    -------
    train_idx, dev_idx : ndarray of int
    """
    if not 0 < dev_fraction < 1:
        raise ValueError(f"dev_fraction must be in (0, 1), got {dev_fraction!r}")
    order = list(dict.fromkeys(doc_ids))  # documents in first-appearance order
    n_dev = max(1, int(round(dev_fraction * len(order))))
    dev_docs = set(order[len(order) - n_dev:])
    is_dev = np.fromiter((d in dev_docs for d in doc_ids), dtype=bool, count=len(doc_ids))
    return np.flatnonzero(~is_dev), np.flatnonzero(is_dev)


def _medline_ids(path):
    """The ``###MEDLINE:<id>`` document ids of a column file, in file order."""
    from ..io import read_columns

    return list(dict.fromkeys(read_columns(path, scheme=None).doc_ids))  # any label column


def jnlpba_overlap_ids(train, test):
    """Document ids of the test file that are also in the training file.

    Ten of the 404 JNLPBA 2004 test abstracts are GENIA 3.02 abstracts, hence
    also in the training data (and in the GENIA POS corpus): about 100 test
    sentences a model may have seen verbatim.  The overlap is in the original
    shared-task data, so published systems share it; report the F1 on the
    other abstracts beside the official figure.

    Parameters
    ----------
    train, test : str or path-like
        Column files with ``###MEDLINE:<id>`` document lines (``train`` may be
        any corpus: the GENIA POS training file gives the same 10 ids).

    Returns
    -------
    list of str
        The shared ids, in the test file's order.
    """
    seen = set(_medline_ids(train))
    return [d for d in _medline_ids(test) if d in seen]
