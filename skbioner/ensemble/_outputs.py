"""What a member tagger says about sentences, in and out of fold.

A combination reads each member's *outputs*: its IOB2 labels, its entities
with their confidences and, when it has them, its per-token label
marginals.  :func:`tagger_outputs` gathers them from a fitted tagger,
featurizing once; :func:`cross_val_outputs` fits every member on all the
training data and, for stacking, gathers each member's outputs on the
training sentences *out of fold* (blocks of whole documents,
:func:`~skbioner.model_selection.document_folds`), all the fits of all the
members in one pool of workers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from sklearn.base import clone
from sklearn.utils.parallel import Parallel, delayed

from .._progress import log
from ..base import head_transform
from ..model_selection import document_splits
from ..schemes import labels_to_spans, scheme_labels, spans_to_labels
from ._members import strip_head

__all__ = ["TaggerOutputs", "cross_val_outputs", "members_outputs",
           "tagger_outputs"]


@dataclass(frozen=True)
class TaggerOutputs:
    """One member's outputs on a list of sentences.

    Parameters
    ----------
    labels : list of tuple of str
        IOB2 labels of every sentence.
    entities : list of list of (str, int, int, float)
        Per sentence, ``(type, start, end, confidence)`` of every entity of
        ``labels`` (half-open token offsets); the confidence is the tagger's
        probability of the entity, or 1.0 for a tagger that gives none.
    marginals : list of ndarray of shape (n_tokens, n_classes) or None, default=None
        Per-token label probabilities, columns in the order of ``classes``;
        None for a tagger without ``predict_marginals``.
    classes : tuple of str or None, default=None
        Column labels of ``marginals``.
    """

    labels: list
    entities: list
    marginals: list | None = None
    classes: tuple | None = None

    def __len__(self):
        return len(self.labels)

    def take(self, index):
        """The outputs of the sentences at ``index``.

        Parameters
        ----------
        index : sequence of int

        Returns
        -------
        TaggerOutputs
        """
        return TaggerOutputs([self.labels[i] for i in index], [self.entities[i] for i in index],
                             None if self.marginals is None
                             else [self.marginals[i] for i in index], self.classes)

    def label_probabilities(self, labels=None):
        """Per sentence, the probability of each token's label: its own, or another's.

        Parameters
        ----------
        labels : list of sequence of str, optional
            Other labels of the same sentences (a combined output's); default:
            the tagger's own.  A label it has no column for gets 0.

        Returns
        -------
        list of ndarray of shape (n_tokens,)
            Without marginals: 1.0 where ``labels`` are the tagger's own, 0.0 elsewhere.
        """
        labels = self.labels if labels is None else labels
        if self.marginals is None:
            return [np.fromiter((a == b for a, b in zip(own, lab)), dtype=float, count=len(lab))
                    for own, lab in zip(self.labels, labels, strict=True)]
        where = {c: k for k, c in enumerate(self.classes)}
        out = []
        for lab, m in zip(labels, self.marginals, strict=True):
            cols = np.fromiter((where.get(t, -1) for t in lab), dtype=np.intp, count=len(lab))
            out.append(np.where(cols >= 0, m[np.arange(len(lab)), cols], 0.0) if len(lab)
                       else np.zeros(0))
        return out


def _join(parts, n):
    """``TaggerOutputs`` of ``n`` sentences from ``(index, outputs)`` parts covering them.

    Marginals of parts whose taggers saw different entity types are aligned
    on the IOB2 labels of all the types (zeros for a type a part never saw).
    """
    labels, entities = [None] * n, [None] * n
    with_marginals = all(p.marginals is not None for _, p in parts)
    marginals = [None] * n if with_marginals else None
    classes = None
    if with_marginals:
        known = {c for _, p in parts for c in p.classes}
        if len({tuple(p.classes) for _, p in parts}) == 1:
            classes = tuple(parts[0][1].classes)
        else:
            types = {c[2:] for c in known if c != "O"}
            classes = tuple(scheme_labels("IOB2", types))
            if set(classes) != known:
                raise ValueError(f"the folds' taggers have classes {sorted(known)} that are "
                                 "not the IOB2 labels of their types")
    for index, part in parts:
        if with_marginals:  # the columns of ``classes``, zeros for a class the part lacks
            where = {c: k for k, c in enumerate(part.classes)}
            cols = np.array([where.get(c, -1) for c in classes], dtype=np.intp)
        for k, i in enumerate(index):
            labels[i], entities[i] = part.labels[k], part.entities[k]
            if with_marginals:
                m = part.marginals[k]
                marginals[i] = m if tuple(part.classes) == classes else np.where(
                    cols >= 0, m[:, cols], np.zeros((), dtype=m.dtype))
    return TaggerOutputs(labels, entities, marginals, classes)


def tagger_outputs(tagger, X, marginals=True):
    """A fitted tagger's labels, entities and (optionally) marginals, featurizing once.

    Parameters
    ----------
    tagger : fitted estimator or Pipeline
        Any tagger of the suite.  A pipeline's steps before the last one
        transform ``X`` once; its last step gives the outputs.
    X : list of Sentence
    marginals : bool, default=True
        Also ask for ``predict_marginals`` (when the tagger has it).

    Returns
    -------
    TaggerOutputs
    """
    Xt, final = head_transform(tagger, X)
    if hasattr(final, "predict_entities"):
        entities = [[(str(t), int(s), int(e), float(p)) for t, s, e, p in sent]
                    for sent in final.predict_entities(Xt)]
        labels = [_labels(sent, len(x)) for sent, x in zip(entities, X, strict=True)]
    else:
        labels = [tuple(lab) for lab in final.predict(Xt)]
        entities = [[(t, s, e, 1.0) for t, s, e in labels_to_spans(lab)] for lab in labels]
    marg = classes = None
    if marginals and hasattr(final, "predict_marginals"):
        marg = list(final.predict_marginals(Xt))
        classes = tuple(str(c) for c in final.classes_)
    return TaggerOutputs(labels, entities, marg, classes)


def members_outputs(members, X, marginals=True, head=None):
    """:func:`tagger_outputs` of every fitted member, on the same sentences.

    Parameters
    ----------
    members : list of fitted estimator
    X : list of Sentence
    marginals : bool, default=True
    head : fitted Pipeline, optional
        The annotation head the members share (the first steps of each,
        :func:`~skbioner.ensemble._members.split_head`): ``X`` goes through
        it once, then through each member's other steps.

    Returns
    -------
    list of TaggerOutputs
    """
    Xa = X if head is None else head.transform(X)
    return [tagger_outputs(strip_head(head, est), Xa, marginals) for est in members]


def _labels(entities, n):
    """IOB2 labels (a tuple) of non-overlapping ``(type, start, end, p)`` entities."""
    return tuple(spans_to_labels([e[:3] for e in entities], n, "IOB2"))


def _fit_job(tagger, X, y, held_out, marginals):
    """Fit a clone of ``tagger``; its outputs on ``held_out`` (or the fitted tagger)."""
    t0 = time.perf_counter()
    fitted = clone(tagger).fit(X, y)
    seconds = time.perf_counter() - t0
    if held_out is None:
        return fitted, seconds
    return tagger_outputs(fitted, held_out, marginals), seconds


def cross_val_outputs(estimators, X, y, cv=5, *, marginals=True, n_jobs=None, verbose=0,
                      owner=None):
    """Fit every member on ``X`` and gather its out-of-fold outputs on ``X``.

    For each member, ``cv`` clones are fitted on all blocks of documents
    but one (:func:`~skbioner.model_selection.document_folds`) and tag the
    block left out; one more clone is fitted on everything.  All
    ``len(estimators) * (cv + 1)`` fits run in one :class:`joblib.Parallel`
    pool, the fits on all the data first.

    Parameters
    ----------
    estimators : list of (str, estimator)
        The members (cloned).
    X : list of Sentence
        Training sentences (document ids in ``doc_id``).
    y : list of list of str
        IOB2 labels.
    cv : int or None, default=5
        Blocks of the out-of-fold outputs; None: no out-of-fold outputs, only
        the members fitted on all of ``X``.
    marginals : bool, default=True
        Gather the members' marginals too.
    n_jobs : int or None, default=None
        Fits run in parallel (joblib; None: one at a time).
    verbose : int, default=0
        A line per finished fit on stderr.
    owner : object, optional
        The estimator whose name the progress lines carry.

    Returns
    -------
    fitted : list of estimator
        Each member fitted on all of ``X``.
    outputs : list of TaggerOutputs or None
        Each member's out-of-fold outputs on ``X`` (None when ``cv`` is None).
    seconds : list of float
        Each member's fitting seconds summed over its fits (the CPU it costs
        whatever the parallelism).
    """
    names = [name for name, _ in estimators]
    splits = document_splits(X, cv) if cv is not None else []
    n_blocks = len(splits)
    # (member, block or None): the fits on all the data first (the largest)
    jobs = [(m, None) for m in range(len(estimators))]
    jobs += [(m, k) for m in range(len(estimators)) for k in range(n_blocks)]
    tasks = []
    for m, k in jobs:
        tagger = estimators[m][1]
        if k is None:
            tasks.append(delayed(_fit_job)(tagger, X, y, None, marginals))
            continue
        train, test = splits[k]
        tasks.append(delayed(_fit_job)(tagger, [X[i] for i in train], [y[i] for i in train],
                                       [X[i] for i in test], marginals))
    who = owner if owner is not None else SimpleNamespace(verbose=verbose)
    t0 = time.perf_counter()
    results = []
    for (m, k), res in zip(jobs, Parallel(n_jobs=n_jobs, return_as="generator")(tasks),
                           strict=True):
        results.append(res)
        what = "all the data" if k is None else f"block {k + 1}/{n_blocks} held out"
        log(who, f"{names[m]}: fitted on {what} in {res[1]:.1f} s "
                 f"({len(results)}/{len(jobs)} fits, {time.perf_counter() - t0:.0f} s)",
            None if owner is not None else "cross_val_outputs")
    fitted, outputs, seconds = [], [], []
    for m in range(len(estimators)):
        mine = [(k, res) for (mm, k), res in zip(jobs, results, strict=True) if mm == m]
        fitted.append(next(res[0] for k, res in mine if k is None))
        seconds.append(sum(res[1] for _, res in mine))
        if cv is not None:
            outputs.append(_join([(splits[k][1], res[0]) for k, res in mine if k is not None],
                                 len(X)))
    return fitted, (outputs if cv is not None else None), seconds

