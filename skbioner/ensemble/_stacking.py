"""``StackedTagger``: a second pass that reads several members' out-of-fold outputs."""

from __future__ import annotations

import time

from sklearn.base import clone
from sklearn.utils.validation import check_is_fitted

from .._progress import log
from .._sentence import check_sentences
from .._validation import HasMethods, Integral, Interval, StrOptions, fit_context
from ..base import DelegatingTaggerMixin, classes_of
from ..model_selection import document_splits
from ._columns import stacking_columns, stacking_groups
from ._members import MembersComposition, join_head, split_head, strip_head
from ._outputs import cross_val_outputs, members_outputs

__all__ = ["StackedTagger"]


def _default_steps():
    from ..postprocess import AbbreviationResolver, CascadedEntityRules, NameAlias

    return [("cascade", CascadedEntityRules()), ("abbreviations", AbbreviationResolver()),
            ("alias", NameAlias())]

def with_feature_groups(tagger, groups):
    """A copy of a pipeline whose ``features`` step also reads ``groups``.

    Parameters
    ----------
    tagger : Pipeline
        A pipeline with a step named ``features`` (a
        :class:`~skbioner.features.TokenFeaturizer`).
    groups : list of FeatureGroup

    Returns
    -------
    Pipeline
        A clone of ``tagger`` (same class) with the groups appended to its
        featurizer's templates.
    """
    names = [n for n, _ in getattr(tagger, "steps", ())]
    if "features" not in names:
        raise ValueError("the second pass must be a pipeline with a 'features' step (a "
                         f"TokenFeaturizer) to read the members' outputs; got "
                         f"{type(tagger).__name__}")
    tagger = clone(tagger)
    featurizer = tagger.named_steps["features"]  # its templates: a preset's groups, or its own
    featurizer.set_params(templates=[*featurizer._template_list(), *groups])
    return tagger


class StackedTagger(DelegatingTaggerMixin, MembersComposition):
    """A second-pass tagger that learns from several member taggers' outputs.

    scikit-learn's :class:`~sklearn.ensemble.StackingClassifier` for
    sequences; with one member, the two-pass system (``make_tagger(...,
    two_pass=True)``: Zhou & Su's knowledge modules as features of a second
    pass over a first pass's output).  Each member is fitted on all the training data and, out of
    fold, tags the training sentences (``cv`` blocks of whole documents,
    each tagged by clones fitted on the other blocks), so that the second
    pass learns from outputs as noisy as the ones it reads at prediction.
    The members' outputs become token columns (:func:`stacking_columns`):

    * the members' combined output -- the entities a majority of them
      propose -- with the mean probability of its label (``fp_label``,
      ``fp_conf``), the class the word gets elsewhere in the document
      (``fp_memory``), abbreviation pairs with their long form's class
      (``fp_abbr``) and the labels the ``document_steps`` propose
      (``fp_<step>``): :func:`~skbioner.annotate.first_pass_columns`;
    * with several members, each member's label and confidence bin
      (``fp_m_<name>``, ``fp_m_<name>_conf``) and, with ``member_memory``, the
      class its labels give the word elsewhere in the document.

    The second pass's featurizer reads them at ``-1..1`` (the combined label
    at ``-2..2`` and its bigram; :func:`stacking_groups`) besides its own
    features.

    Parameters
    ----------
    estimators : list of (str, estimator)
        The members (any taggers of the suite taking sentences); cloned.
        Their parameters are reachable as ``<name>__<param>``.
    final_estimator : Pipeline or None, default=None
        The second pass: a pipeline with a ``features`` step (its templates
        get :func:`stacking_groups`) and a tagger.  None: a clone of the
        first member (as the two-pass system's default), which must then be
        such a pipeline.
    cv : int, default=5
        Blocks of documents of the out-of-fold outputs.
    document_steps : list of (str, PostprocessStep) or None, default=None
        Document-level steps whose proposals on the combined labels become
        columns; None: cascade rules, abbreviations and alias; ``[]``: none.
        Fitted on each block's training part for its out-of-fold columns.
    combine : {"vote", "first"}, default="vote"
        The combined output whose columns the second pass reads like a
        first pass's: the entities a majority of the members propose, or
        the first member's output (the others then add their own columns).
    members : bool, default=True
        Each member's own columns besides the combined ones.
    member_memory : bool, default=False
        Each member's document memory column.
    document_memory : bool, default=True
        The combined labels' document memory (``fp_memory``).
    abbreviations : bool, default=True
        The abbreviation column (``fp_abbr``).
    doc_dictionary : bool, default=False
        The combined output's entities as a dictionary of the document
        (``fp_docdict``; on the JNLPBA development split it lowered the
        two-pass OnlinePACRF from 80.07 to 79.57, ``benchmarks/archive/two_pass.py``).
    confidence_bins : tuple of float, default=(0.9, 0.6)
        Lower edges of the confidence bins, decreasing.
    n_jobs : int or None, default=None
        Fits run in parallel (all members' fits in one joblib pool of
        processes, each holding its training data and model).
    verbose : int, default=0
        A line on stderr per fit and per stage.

    Attributes
    ----------
    estimators_ : list of estimator
        The members fitted on all the training data.
    named_estimators_ : Bunch
        The same, by name.
    final_estimator_ : Pipeline
        The second pass, fitted on the out-of-fold columns.
    document_steps_ : list of (str, PostprocessStep)
        The document-level steps fitted on all the training data.
    classes_ : ndarray of str
        The second pass's labels.
    fit_seconds_ : dict of str to float
        Seconds of fitting summed over every fit of each member, and of the
        second pass (``"final"``).

    See Also
    --------
    VotingTagger : the members' entities put to a weighted vote.

    Examples
    --------
    >>> from skbioner.datasets import load_jnlpba_sample
    >>> from skbioner.ensemble import StackedTagger
    >>> from skbioner.pipelines import make_tagger
    >>> train = load_jnlpba_sample("train")
    >>> stack = StackedTagger(
    ...     [("crf", make_tagger("online-crf", model_params={"max_iter": 3})),
    ...      ("cascade", make_tagger("cascaded", model_params={"n_folds": 2}))],
    ...     final_estimator=make_tagger("online-crf", model_params={"max_iter": 3}), cv=2)
    >>> stack = stack.fit(train.X[:300], train.y[:300])
    >>> len(stack.predict(train.X[:3]))
    3
    """

    _delegate = "final_estimator_"
    _parameter_constraints = {
        "estimators": [list, tuple],
        "final_estimator": [HasMethods(["fit", "predict"]), None],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "document_steps": [list, tuple, None],
        "combine": [StrOptions({"vote", "first"})],
        "members": ["boolean"],
        "member_memory": ["boolean"],
        "document_memory": ["boolean"],
        "abbreviations": ["boolean"],
        "doc_dictionary": ["boolean"],
        "confidence_bins": [tuple, list],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    }

    def __init__(self, estimators, final_estimator=None, *, cv=5, document_steps=None,
                 combine="vote", members=True, member_memory=False, document_memory=True,
                 abbreviations=True, doc_dictionary=False, confidence_bins=(0.9, 0.6),
                 n_jobs=None, verbose=0):
        self.estimators = estimators
        self.final_estimator = final_estimator
        self.cv = cv
        self.document_steps = document_steps
        self.combine = combine
        self.members = members
        self.member_memory = member_memory
        self.document_memory = document_memory
        self.abbreviations = abbreviations
        self.doc_dictionary = doc_dictionary
        self.confidence_bins = confidence_bins
        self.n_jobs = n_jobs
        self.verbose = verbose

    # -- fitting -------------------------------------------------------------

    def _check(self):
        estimators = self._members()
        steps = self._checked_named(_default_steps() if self.document_steps is None
                                    else self.document_steps, "document_step", ("correct",),
                                    validate=False)
        clash = sorted(n for n in self._names if n.endswith(("_conf", "_memory")))
        if clash:
            raise ValueError(f"estimator names {clash} would name the same column as another "
                             "member's confidence or memory column: rename them")
        bins = tuple(self.confidence_bins)
        if any(not 0 <= float(b) <= 1 for b in bins) or list(bins) != sorted(bins, reverse=True):
            raise ValueError(f"confidence_bins must be decreasing probabilities, got {bins}")
        return estimators, steps

    def _columns(self, X, outputs, steps):
        return stacking_columns(X, outputs, self._names, steps, combine=self.combine,
                                members=self.members,
                                confidence_bins=tuple(self.confidence_bins),
                                memory=self.document_memory,
                                member_memory=self.member_memory,
                                abbreviations=self.abbreviations,
                                doc_dictionary=self.doc_dictionary)

    def fit(self, X, y):
        """Fit the members, their out-of-fold outputs' columns, and the second pass.

        Parameters
        ----------
        X : list of Sentence
            Training sentences (document ids in ``doc_id``).
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : StackedTagger
        """
        self.fit_transform(X, y)
        return self

    @fit_context
    def fit_transform(self, X, y):
        """Fit as :meth:`fit`; return ``X`` with the columns the second pass learned from.

        Parameters
        ----------
        X : list of Sentence
        y : list of list of str

        Returns
        -------
        list of Sentence
            ``X`` with the ``fp_*`` columns of the members' out-of-fold outputs.
        """
        estimators, steps = self._check()
        final = with_feature_groups(estimators[0][1] if self.final_estimator is None
                                    else self.final_estimator, stacking_groups())
        X, y = check_sentences(X, y, scheme="IOB2")
        # the members and the second pass annotate with one head, fitted and run once
        self.head_, rests = split_head([e for _, e in estimators] + [final])
        X = X if self.head_ is None else self.head_.fit_transform(X, y)
        fitted, oof, seconds = cross_val_outputs(list(zip(self._names, rests[:-1])), X, y,
                                                 self.cv, n_jobs=self.n_jobs,
                                                 verbose=self.verbose, owner=self)
        t0 = time.perf_counter()
        annotated = self._annotate_out_of_fold(X, y, oof, steps)
        log(self, f"out-of-fold columns in {time.perf_counter() - t0:.1f} s")
        t0 = time.perf_counter()
        second = rests[-1].fit(annotated, y)
        self.fit_seconds_ = {**dict(zip(self._names, seconds, strict=True)),
                             "final": time.perf_counter() - t0}
        log(self, f"second pass fitted in {self.fit_seconds_['final']:.1f} s")
        self.classes_ = classes_of(second)
        self.final_estimator_ = join_head(self.head_, second)
        self.estimators_ = [join_head(self.head_, f) for f in fitted]
        return annotated

    def _annotate_out_of_fold(self, X, y, oof, steps):
        """``X`` with the columns of ``oof``, each block's ``steps`` fitted without it.

        Sets ``document_steps_`` (the steps fitted on all of ``X``).
        """
        annotated = [None] * len(X)
        for rest, inside in document_splits(X, self.cv):
            Xr, yr = [X[i] for i in rest], [y[i] for i in rest]
            fold_steps = [(name, clone(step).fit(Xr, yr)) for name, step in steps]
            Xk = [X[i] for i in inside]
            cols = self._columns(Xk, [o.take(inside) for o in oof], fold_steps)
            for i, s, c in zip(inside, Xk, cols, strict=True):
                annotated[i] = s.with_annotations(**c)
        self.document_steps_ = [(name, clone(step).fit(X, y)) for name, step in steps]
        return annotated

    # -- predicting ----------------------------------------------------------

    def transform(self, X):
        """The sentences with the members' columns, as the second pass reads them.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of Sentence
            New sentences with the ``fp_*`` columns.
        """
        check_is_fitted(self, "final_estimator_")
        head = getattr(self, "head_", None)
        X = check_sentences(X)
        X = X if head is None else head.transform(X)
        outputs = members_outputs([strip_head(head, e) for e in self.estimators_], X)
        cols = self._columns(X, outputs, self.document_steps_)
        return [s.with_annotations(**c) for s, c in zip(X, cols, strict=True)]

    def _delegated(self, X):
        """The second pass without the annotation head, and ``X`` with the members' columns
        (:meth:`transform`, which runs the head)."""
        Xt = self.transform(X)
        return strip_head(getattr(self, "head_", None), self.final_estimator_), Xt
