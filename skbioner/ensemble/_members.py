"""Members of a combination: their parameters and checks, and the annotation head they share
(they are fitted by :func:`~skbioner.ensemble.cross_val_outputs`)."""

from __future__ import annotations

from sklearn.base import clone
from sklearn.utils import Bunch
from sklearn.utils.validation import check_is_fitted

from ..base import NamedComposition

__all__ = ["join_head", "split_head", "strip_head"]


def _shareable(step):
    """Whether one fitted copy of ``step`` serves every member and fold: an annotator whose
    fit reads no training sentence (a POS tagger, word classes, lexicons, HMM states of a
    file)."""
    from ..annotate import HMMStateClusterer, LexiconMatcher, POSTagger, WordClassAnnotator

    if isinstance(step, HMMStateClusterer):  # fitted on its own file, not the sentences
        return step.unlabeled is not None
    if isinstance(step, LexiconMatcher):  # the training names are the training sentences'
        return str(step.lexicons) != "training"
    return isinstance(step, POSTagger | WordClassAnnotator)


def split_head(taggers):
    """The annotation head ``taggers`` share, and each one without it.

    The head is the longest run of leading pipeline steps that every tagger
    has, under the same names, of the same class and parameters (``n_jobs``
    and ``verbose`` aside), and that are :func:`_shareable`: fitted once and
    run once per batch of sentences for all of them (a vote of NERBio
    members POS-tags once; a two-pass tagger looks its word classes up once
    for both passes).

    Parameters
    ----------
    taggers : list of estimator

    Returns
    -------
    head : Pipeline or None
        A clone of the shared steps (None: nothing shared).
    rests : list of estimator
        Each tagger without the head (itself when there is no head).
    """
    from joblib import hash as digest
    from sklearn.pipeline import Pipeline

    def key(item):  # threads and progress lines change no column
        params = {k: v for k, v in item[1].get_params().items()
                  if k not in ("n_jobs", "verbose")}
        return item[0], type(item[1]), digest(params)

    steps = [getattr(t, "steps", None) for t in taggers]
    n = 0
    while all(s is not None and len(s) > n + 1 for s in steps):
        if not _shareable(steps[0][n][1]) or any(key(m[n]) != key(steps[0][n])
                                                 for m in steps[1:]):
            break
        n += 1
    if n == 0:
        return None, list(taggers)
    head = Pipeline([(name, clone(step)) for name, step in steps[0][:n]])
    return head, [type(t)(t.steps[n:], verbose=t.verbose) for t in taggers]


def strip_head(head, tagger):
    """A fitted tagger without the ``head``'s steps (``tagger`` itself without a head)."""
    if head is None:
        return tagger
    return type(tagger)(tagger.steps[len(head.steps):], verbose=tagger.verbose)


def join_head(head, rest):
    """A fitted tagger: the fitted ``head``'s steps (the same objects) then ``rest``'s."""
    if head is None:
        return rest
    return type(rest)([*head.steps, *rest.steps], verbose=rest.verbose)


class MembersComposition(NamedComposition):
    """A combination's parameters: its own, and each member's as ``<name>__<param>``."""

    def _members(self):
        """``estimators`` checked: ``(name, tagger)`` pairs, valid names (kept in ``_names``)."""
        items = self._checked_named(self.estimators, "estimator", ("fit", "predict"))
        if not items:
            raise ValueError(f"{type(self).__name__} needs at least one estimator")
        self._names = [n for n, _ in items]
        return items

    @property
    def named_estimators_(self):
        """The fitted members by name (a :class:`~sklearn.utils.Bunch`)."""
        check_is_fitted(self, "estimators_")
        return Bunch(**dict(zip(self._names, self.estimators_, strict=True)))
