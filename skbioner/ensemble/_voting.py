"""``VotingTagger``: members' entities put to a weighted vote (VotingClassifier for sequences)."""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._validation import Integral, Interval, Real, StrOptions, fit_context
from ..base import LabelSequences, SequenceTaggerMixin
from ..schemes import labels_to_spans, scheme_labels, spans_to_labels
from ._members import MembersComposition, join_head, split_head
from ._outputs import cross_val_outputs, members_outputs
from ._spans import member_weights, vote_spans

__all__ = ["VotingTagger"]


class VotingTagger(SequenceTaggerMixin, MembersComposition):
    """Entities a weighted majority of member taggers agrees on.

    scikit-learn's :class:`~sklearn.ensemble.VotingClassifier` for
    sequences, voting on *entities* (spans) rather than token labels: each
    member tags the sentence; every distinct ``(type, start, end)`` a member
    proposes is a candidate, which gathers the weight of each member
    proposing it -- the member's weight for the entity's type, times its
    confidence in the entity with ``voting="soft"``.  A candidate's
    *support* is that sum over the members' total weight for its type; the
    candidates supported above ``threshold`` are kept, best supported first,
    each dropped if it overlaps one kept before (the output is always
    well-formed and non-overlapping), and the support is the confidence
    :meth:`predict_entities` gives.  With three equally weighted members and
    hard votes, an entity is kept when two of them propose exactly it.

    Parameters
    ----------
    estimators : list of (str, estimator)
        The member taggers (any of the suite's, taking sentences: a
        ``make_tagger`` pipeline, a wrapper...).  Cloned and fitted in
        :meth:`fit`; their parameters are reachable as
        ``<name>__<param>``.
    weights : list of (float or dict) or None, default=None
        Per member, its weight, or a dict of entity type to weight (weights
        per class, Ekbal & Saha 2012; types it does not name weigh 1).
        None: every member weighs 1.
    voting : {"hard", "soft"}, default="hard"
        ``"hard"``: a vote is the member's weight; ``"soft"``: the weight
        times the member's confidence in the entity (its probability; 1 for
        a member without ``predict_entities``).  Soft votes above a
        threshold of 0.3 were about 0.1 F1 better than a hard majority on the
        JNLPBA and BioNLP13CG development splits (``docs/lab/benchmarks.md``,
        "Combining the systems"); the default needs no threshold tuned.
    threshold : float, default=0.5
        A candidate is kept when its support is strictly above it (0.5: a
        weighted majority).
    n_jobs : int or None, default=None
        Members fitted in parallel (joblib processes: each holds its own
        training data and model in memory).
    verbose : int, default=0
        A line on stderr as each member is fitted.

    Attributes
    ----------
    estimators_ : list of estimator
        The fitted members, in the order of ``estimators``.
    named_estimators_ : Bunch
        The fitted members by name.
    classes_ : ndarray of str
        The IOB2 labels of the entity types seen in training.
    weights_ : list of dict of str to float
        Each member's weight for each type.
    fit_seconds_ : list of float
        Seconds each member took to fit.

    See Also
    --------
    StackedTagger : a second-pass tagger that learns from the members' outputs.

    Examples
    --------
    >>> from skbioner.datasets import load_jnlpba_sample
    >>> from skbioner.ensemble import VotingTagger
    >>> from skbioner.pipelines import make_tagger
    >>> train = load_jnlpba_sample("train")
    >>> vote = VotingTagger([
    ...     ("bies", make_tagger("online-crf", model_params={"max_iter": 3})),
    ...     ("ioe2", make_tagger("online-crf", scheme="IOE2", model_params={"max_iter": 3})),
    ...     ("iob2", make_tagger("online-crf", scheme="IOB2", model_params={"max_iter": 3})),
    ... ])
    >>> vote = vote.fit(train.X[:300], train.y[:300])
    >>> [e[:3] for e in vote.predict_entities([["IL-2", "gene", "expression"]])[0]]
    [('protein', 0, 1)]
    """

    _parameter_constraints = {
        "estimators": [list, tuple],
        "weights": [list, tuple, None],
        "voting": [StrOptions({"soft", "hard"})],
        "threshold": [Interval(Real, 0, 1, closed="left")],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    }

    def __init__(self, estimators, *, weights=None, voting="hard", threshold=0.5, n_jobs=None,
                 verbose=0):
        self.estimators = estimators
        self.weights = weights
        self.voting = voting
        self.threshold = threshold
        self.n_jobs = n_jobs
        self.verbose = verbose

    @fit_context
    def fit(self, X, y):
        """Fit every member on the training sentences.

        Parameters
        ----------
        X : list of Sentence
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : VotingTagger
        """
        estimators = self._members()
        X, y = check_sentences(X, y, scheme="IOB2")
        types = sorted({t for labels in y for t, _, _ in labels_to_spans(labels)})
        self.weights_ = member_weights(self.weights, len(estimators), types)
        self.head_, rests = split_head([e for _, e in estimators])
        Xa = X if self.head_ is None else self.head_.fit_transform(X, y)  # annotated once
        fitted, _, self.fit_seconds_ = cross_val_outputs(
            list(zip(self._names, rests, strict=True)), Xa, y, cv=None, n_jobs=self.n_jobs,
            owner=self)
        self.estimators_ = [join_head(self.head_, f) for f in fitted]
        self.classes_ = np.array(scheme_labels("IOB2", types), dtype=object)
        return self

    def member_entities(self, X):
        """Each member's entities with their confidences.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of list of (str, int, int, float)
            ``out[member][sentence]``.
        """
        check_is_fitted(self, "estimators_")
        X = check_sentences(X)
        return [out.entities for out in members_outputs(self.estimators_, X, marginals=False,
                                                        head=getattr(self, "head_", None))]

    def predict_entities(self, X):
        """The entities the members vote for, with their support.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of (str, int, int, float)
            Per sentence, ``(type, start, end, support)`` of every entity
            kept (non-overlapping, sorted by start; half-open offsets).
        """
        members = self.member_entities(X)
        soft = self.voting == "soft"
        return [vote_spans([m[i] for m in members], self.weights_, self.threshold, soft)
                for i in range(len(members[0]))]

    def predict(self, X):
        """IOB2 labels of the voted entities.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of str
        """
        X = check_sentences(X)
        return LabelSequences(
            spans_to_labels([sp[:3] for sp in spans], len(x), "IOB2")
            for spans, x in zip(self.predict_entities(X), X, strict=True))
