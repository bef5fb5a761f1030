"""``SequentialGroupSelector``: sequential forward selection of feature groups (NERBio).

Tsai et al. (2006) chose their word conjunctions with a wrapper: start from
the best single group (or from a fixed base), add at each step the candidate
group that most improves the development F1, and stop when it stops rising.
The sentences are featurized once, with every group; each candidate model
trains on the columns of its groups, cut out of that one matrix by
:meth:`~skbioner.features.TokenFeaturizer.select_groups`.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.pipeline import Pipeline
from sklearn.utils.parallel import Parallel, delayed

from .._progress import log
from .._sentence import check_sentences
from .._validation import HasMethods, Integral, Interval, Real, fit_context
from ..base import DelegatingTaggerMixin, split_pipeline
from ..model_selection import document_keys, document_splits, holdout_split

__all__ = ["SequentialGroupSelector"]


def _split_featurizer(featurizer):
    """``(annotator steps, TokenFeaturizer)`` of a featurizer or a Pipeline ending in one."""
    from ..features import TokenFeaturizer

    head, last = split_pipeline(featurizer)
    annotators = [] if head is None else list(head.steps)
    if not isinstance(last, TokenFeaturizer):
        raise TypeError("featurizer must be a TokenFeaturizer or a Pipeline ending in one, got "
                        f"{type(last).__name__}")
    if last.n_features is not None:
        raise ValueError("feature-group selection needs vocabulary mode: "
                         "TokenFeaturizer(n_features=None)")
    return annotators, last


def _evaluate(estimator, Xtr, ytr, Xev, yev, scoring):
    """Fit one candidate model and score it on the held-out part."""
    from ..metrics import entity_f1_score

    est = estimator.fit(Xtr, ytr)
    if scoring is None:
        return float(entity_f1_score(yev, est.predict(Xev)))
    return float(scoring(est, Xev, yev))


class SequentialGroupSelector(DelegatingTaggerMixin, BaseEstimator):
    """Sequential forward selection over a featurizer's named feature groups.

    Starting from ``base_groups`` (or, without them, from the best single
    candidate), each step tries every remaining candidate group added to
    the groups chosen so far, keeps the one with the best held-out score,
    and stops when the best addition improves the score by no more than
    ``tol`` (NERBio's wrapper selection of word conjunctions, Tsai et al.
    2006).  The sentences are featurized once with every group; a
    candidate's model trains on the columns of its groups
    (:meth:`~skbioner.features.TokenFeaturizer.select_groups`).  The chosen
    groups are then refitted on all the data.

    Parameters
    ----------
    estimator : estimator, default=None
        Any sequence model of the suite reading featurizer output
        (:class:`~skbioner.models.OnlinePACRF`,
        :class:`~skbioner.models.CRFsuiteTagger`, ...); cloned for every
        candidate.  None: ``OnlinePACRF(random_state=0)``.
    featurizer : TokenFeaturizer or Pipeline, default=None
        The featurizer with every group (base and candidates), in
        vocabulary mode; a ``Pipeline`` of annotators (POS tagger, numeric
        normalizer...) ending in a ``TokenFeaturizer`` is accepted.  None:
        ``TokenFeaturizer(templates="nerbio")``.
    candidate_groups : sequence of str, default=None
        Names of the groups to choose among.  None: every group of the
        fitted featurizer that is not in ``base_groups``.  Names of
        optional groups dropped by the featurizer (their annotation column
        is absent) are ignored.
    base_groups : sequence of str, default=()
        Groups always kept (e.g. NERBio's singleton features).
    dev_fraction : float, default=0.1
        Without ``cv``: the share of the training documents held out to
        score the candidates (the last ones, whole abstracts; the last
        sentences when no sentence has a document id).  The featurizer is
        fitted on the rest.
    cv : int, cross-validation generator or iterable, default=None
        Score by cross-validation instead: an int ``k`` is ``k`` contiguous
        blocks of documents (:func:`~skbioner.model_selection.document_folds`;
        each sentence without id a document of its own); a splitter gets
        ``split(X, y, groups=doc_ids)``; an iterable gives ``(train, test)``
        index arrays.  The featurizer is then fitted once on all of ``X``
        (its vocabulary sees every fold's words).
    scoring : callable, default=None
        ``scoring(estimator, Xt, y) -> float``; None: the official exact
        entity F1 (JNLPBA counting).
    max_groups : int, default=None
        Stop after adding this many candidates.
    tol : float, default=0.0
        Minimum improvement of the score to add a group.
    refit : bool, default=True
        Refit a pipeline (annotators, featurizer with the chosen groups,
        model) on all of ``X``; without it only the selection is made and
        the selector cannot predict.
    n_jobs : int, default=None
        Candidates fitted in parallel (joblib).
    verbose : int, default=0
        One line per step on stderr.

    Attributes
    ----------
    selected_groups_ : list of str
        The base groups followed by the chosen candidates, in the order they
        were added.
    trace_ : list of dict
        One entry per step: ``step`` (0: the base alone, when there is one),
        ``scores`` (score of every candidate tried at that step, by name),
        ``best`` (the best candidate, None at step 0), ``score`` (its score),
        ``added`` (whether it was kept) and ``seconds``.
    best_score_ : float
        The held-out score of :attr:`selected_groups_`.
    candidate_groups_ : list of str
        The candidates actually tried.
    best_estimator_ : sklearn.pipeline.Pipeline
        Annotators, the featurizer restricted to :attr:`selected_groups_`
        and the model, refitted on all of ``X`` (``refit=True``).
    classes_ : ndarray of str
        The refitted model's IOB2 labels (``refit=True``).
    seconds_ : dict
        ``featurize``, ``select`` and ``refit`` wall seconds.

    Examples
    --------
    >>> from skbioner.datasets import load_jnlpba_sample
    >>> from skbioner.features import TokenFeaturizer
    >>> from skbioner.pipelines import SequentialGroupSelector
    >>> from skbioner.models import OnlinePACRF
    >>> train = load_jnlpba_sample("train")
    >>> sel = SequentialGroupSelector(
    ...     OnlinePACRF(max_iter=3, random_state=0), TokenFeaturizer(templates="nerbio"),
    ...     candidate_groups=["w-1&w0", "w0&w1"], base_groups=["w", "suffix"], max_groups=1)
    >>> sel = sel.fit(train.X[:300], train.y[:300])
    >>> sel.selected_groups_[:2], len(sel.trace_)
    (['w', 'suffix'], 2)
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "featurizer": [HasMethods(["fit_transform", "transform"]), None],
        "candidate_groups": [list, tuple, None],
        "base_groups": [list, tuple],
        "dev_fraction": [Interval(Real, 0, 1, closed="neither")],
        "cv": ["cv_object", None],
        "scoring": [callable, None],
        "max_groups": [Interval(Integral, 1, None, closed="left"), None],
        "tol": [Interval(Real, None, None, closed="neither")],
        "refit": ["boolean"],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    }

    def __init__(self, estimator=None, featurizer=None, *, candidate_groups=None, base_groups=(),
                 dev_fraction=0.1, cv=None, scoring=None, max_groups=None, tol=0.0, refit=True,
                 n_jobs=None, verbose=0):
        self.estimator = estimator
        self.featurizer = featurizer
        self.candidate_groups = candidate_groups
        self.base_groups = base_groups
        self.dev_fraction = dev_fraction
        self.cv = cv
        self.scoring = scoring
        self.max_groups = max_groups
        self.tol = tol
        self.refit = refit
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _parts(self):
        from ..features import TokenFeaturizer
        from ..models import OnlinePACRF

        est = OnlinePACRF(random_state=0) if self.estimator is None else self.estimator
        feat = TokenFeaturizer(templates="nerbio") if self.featurizer is None else self.featurizer
        annotators, tf = _split_featurizer(feat)
        return est, [(n, clone(s)) for n, s in annotators], clone(tf)

    def _splits(self, X, y):
        """``(train, test)`` index pairs, and whether it is the one holdout split."""
        from sklearn.model_selection import check_cv

        if self.cv is None:
            train, held = holdout_split(X, self.dev_fraction)
            if not train.size or not held.size:
                raise ValueError(f"dev_fraction={self.dev_fraction} leaves an empty train or "
                                 f"development part ({len(X)} sentences)")
            return [(train, held)], True
        if isinstance(self.cv, Integral):
            return document_splits(X, self.cv), False
        groups = np.asarray([str(g) for g in document_keys(X)], dtype=object)
        return [(np.asarray(a), np.asarray(b))
                for a, b in check_cv(self.cv).split(X, y, groups)], False

    @fit_context
    def fit(self, X, y):
        """Select the groups on held-out documents, then refit on all of ``X``.

        Parameters
        ----------
        X : list of Sentence
            Training sentences (document ids in ``doc_id`` when known).
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : SequentialGroupSelector
        """
        X, y = check_sentences(X, y, scheme="IOB2")
        est, annotators, tf = self._parts()
        splits, holdout = self._splits(X, y)
        t0 = time.perf_counter()
        prep = Pipeline([*annotators, ("features", tf)])
        if holdout:  # fitted on the training part only; every sentence featurized once
            train, held = splits[0]
            Xt_tr = prep.fit_transform([X[i] for i in train], [y[i] for i in train])
            Xt_ev = prep.transform([X[i] for i in held])
            folds = [(Xt_tr, [y[i] for i in train], Xt_ev, [y[i] for i in held])]
        else:
            Xt = prep.fit_transform(X, y)
            folds = [(Xt[a], [y[i] for i in a], Xt[b], [y[i] for i in b]) for a, b in splits]
        featurize_s = time.perf_counter() - t0
        names = [g.name for g in tf.groups_]
        base = self._check_names(self.base_groups, names, tf, "base_groups")
        given = names if self.candidate_groups is None else self._check_names(
            self.candidate_groups, names, tf, "candidate_groups")
        cands = [n for n in given if n not in base]
        if not cands:
            raise ValueError("no candidate group to select (all groups are base groups)")
        self.candidate_groups_ = list(cands)
        log(self, f"{len(X)} sentences featurized in {featurize_s:.1f} s "
                  f"({'holdout' if holdout else f'{len(folds)} folds'}); base {base}, "
                  f"{len(cands)} candidates")

        parallel = Parallel(n_jobs=self.n_jobs)

        def mean_scores(group_sets):
            """Each set of groups' score, the mean over the folds (all fits in one pool)."""
            out = parallel(delayed(_evaluate)(clone(est), tf.select_groups(Xa, groups), ya,
                                              tf.select_groups(Xb, groups), yb, self.scoring)
                           for groups in group_sets for Xa, ya, Xb, yb in folds)
            k = len(folds)
            return [float(np.mean(out[i:i + k])) for i in range(0, len(out), k)]

        t0 = time.perf_counter()
        selected, trace, current = list(base), [], -np.inf
        if base:
            t1 = time.perf_counter()
            current = mean_scores([base])[0]
            trace.append({"step": 0, "scores": {}, "best": None, "score": current,
                          "added": False, "seconds": time.perf_counter() - t1})
            log(self, f"step 0: base alone {current:.4f}")
        remaining = list(cands)
        while remaining and (self.max_groups is None
                             or len(selected) - len(base) < self.max_groups):
            t1 = time.perf_counter()
            scores = dict(zip(remaining, mean_scores([selected + [c] for c in remaining]),
                              strict=True))
            best = max(remaining, key=lambda c: scores[c])  # ties: the first listed
            added = not selected or scores[best] - current > self.tol
            trace.append({"step": len(trace) + (0 if base else 1), "scores": scores,
                          "best": best, "score": scores[best], "added": bool(added),
                          "seconds": time.perf_counter() - t1})
            log(self, f"step {trace[-1]['step']}: best {best} {scores[best]:.4f} "
                      f"({'added' if added else 'stop'}; before {current:.4f})")
            if not added:
                break
            selected.append(best)
            remaining.remove(best)
            current = scores[best]
        select_s = time.perf_counter() - t0
        self.trace_ = trace
        self.selected_groups_ = selected
        self.best_score_ = float(current)
        self.seconds_ = {"featurize": featurize_s, "select": select_s, "refit": 0.0}
        if self.refit:
            t0 = time.perf_counter()
            excluded = [tf.exclude] if isinstance(tf.exclude, str) else list(tf.exclude)
            final_tf = clone(tf).set_params(exclude=tuple(dict.fromkeys(
                [*excluded, *(n for n in names if n not in selected)])))
            pipe = Pipeline([*[(n, clone(s)) for n, s in annotators], ("features", final_tf),
                             ("model", clone(est))])
            self.best_estimator_ = pipe.fit(X, y)
            self.classes_ = np.asarray(pipe[-1].classes_, dtype=object)
            self.seconds_["refit"] = time.perf_counter() - t0
            log(self, f"refitted {selected} in {self.seconds_['refit']:.1f} s")
        return self

    @staticmethod
    def _check_names(given, names, tf, what):
        """``given`` in order, checked against the fitted groups (dropped ones left out)."""
        if isinstance(given, str):
            given = (given,)
        templates = {g.name for g in tf._template_list()}
        out = []
        for n in given:
            if n in names:
                if n not in out:
                    out.append(n)
            elif n not in templates:
                raise ValueError(f"{what} names unknown feature group {n!r}; groups: {names}")
            # else: a template the featurizer dropped (optional column absent, no dict_ column)
        return out
