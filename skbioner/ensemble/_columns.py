"""Members' outputs as token columns that a second-pass featurizer reads."""

from __future__ import annotations

import numpy as np

from ..annotate import first_pass_columns, first_pass_groups
from ._outputs import _labels
from ._spans import vote_spans

__all__ = ["combined_outputs", "stacking_columns", "stacking_groups"]


def combined_outputs(outputs):
    """The members' majority labels and each token's mean probability of them.

    Parameters
    ----------
    outputs : list of TaggerOutputs
        Each member's outputs on the same sentences.

    Returns
    -------
    labels : list of tuple of str
        IOB2 labels of the entities more than half of the members propose
        exactly (hard votes, equal weights; one member: its own labels).
    probabilities : list of ndarray of shape (n_tokens,)
        Per token, the members' mean probability of the combined label (a
        member without marginals counts 1 where its label is the combined
        one, 0 elsewhere).
    """
    if len(outputs) == 1:  # no probabilities from a tagger without marginals
        one = outputs[0]
        return one.labels, None if one.marginals is None else one.label_probabilities()
    types = {t for o in outputs for sent in o.entities for t, *_ in sent}
    weights = [dict.fromkeys(types, 1.0) for _ in outputs]
    labels = [_labels(vote_spans([o.entities[i] for o in outputs], weights, 0.5, soft=False),
                      len(lab)) for i, lab in enumerate(outputs[0].labels)]
    probabilities = [np.zeros(len(lab)) for lab in labels]
    for o in outputs:
        for i, p in enumerate(o.label_probabilities(labels)):
            probabilities[i] += p
    return labels, [p / len(outputs) for p in probabilities]


def stacking_columns(X, outputs, names, steps=(), *, combine="vote", members=True,
                     confidence_bins=(0.9, 0.6), memory=True, member_memory=False,
                     abbreviations=True, doc_dictionary=False):
    """Token columns of the members' outputs, for a second pass.

    The members' combined output (:func:`combined_outputs`, or the first
    member's output with ``combine="first"``) is the first pass: its columns
    (``fp_label``, ``fp_conf``, ``fp_memory``, ``fp_abbr`` and one per step;
    :func:`~skbioner.annotate.first_pass_columns`) are made from it; one
    member is the two-pass system.  With
    several members, each member ``name`` adds ``fp_m_<name>`` (its label)
    and ``fp_m_<name>_conf`` (its label and confidence bin), and with
    ``member_memory`` ``fp_m_<name>_memory`` (the class its labels give the
    word elsewhere in the document).

    Parameters
    ----------
    X : list of Sentence
    outputs : list of TaggerOutputs
        Each member's outputs on ``X``.
    names : list of str
        The members' names.
    steps : list of (str, PostprocessStep), default=()
        Fitted document-level steps whose proposals on the combined labels
        become columns.
    combine : {"vote", "first"}, default="vote"
        The combined output: the members' majority
        (:func:`combined_outputs`), or the first member's own output.
    members : bool, default=True
        Add each member's own columns (when there are several).
    confidence_bins : tuple of float, default=(0.9, 0.6)
    memory : bool, default=True
        ``fp_memory`` of the combined labels.
    member_memory : bool, default=False
        ``fp_<name>_memory`` of each member's labels.
    abbreviations : bool, default=True
        ``fp_abbr`` of the combined labels.
    doc_dictionary : bool, default=False
        ``fp_docdict`` of the combined labels.

    Returns
    -------
    list of dict of str to tuple of str
        Per sentence, its new columns.
    """
    if combine == "vote":
        labels, probabilities = combined_outputs(outputs)
    elif combine == "first":
        labels, probabilities = combined_outputs(outputs[:1])
    else:
        raise ValueError(f"combine must be 'vote' or 'first', got {combine!r}")
    cols = first_pass_columns(X, labels, probabilities, steps, confidence_bins=confidence_bins,
                              memory=memory, abbreviations=abbreviations,
                              doc_dictionary=doc_dictionary)
    if members and len(outputs) > 1:
        for name, out in zip(names, outputs, strict=True):
            own = first_pass_columns(X, out.labels, out.label_probabilities()
                                     if out.marginals is not None else None,
                                     confidence_bins=confidence_bins, memory=member_memory,
                                     abbreviations=False)
            m = f"fp_m_{name}"
            rename = {"fp_label": m, "fp_conf": m + "_conf", "fp_memory": m + "_memory"}
            for c, o in zip(cols, own, strict=True):
                for k, v in o.items():
                    c[rename[k]] = v
    return cols


def stacking_groups(window=1, label_window=2):
    """The feature groups reading :func:`stacking_columns` (every ``fp_*`` column).

    Parameters
    ----------
    window : int, default=1
        Every ``fp_*`` column at offsets ``-window..window``.
    label_window : int, default=2
        The combined label at ``-label_window..label_window`` and its bigram.

    Returns
    -------
    list of FeatureGroup
    """
    return first_pass_groups(window=window, label_window=label_window)
