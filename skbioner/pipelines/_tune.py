"""``TunedTagger`` / :func:`tune`: settings chosen on the user's own data.

Every default of the suite was chosen on the JNLPBA development split; a new
corpus may want others.  The tuner holds out part of the training documents
(whole documents when the sentences carry ids, else the last block of
sentences; at least ``min_held_out`` sentences), searches a small documented
space of pipelines by successive halving (:func:`halving_schedule`: every
candidate trains on a small share of the rest, the best go on with more, the
last round trains on all of it; each round on strictly more sentences than
the one before, every round scored on the whole held-out part), refits the
winner on all the data and keeps the table of what it tried.
"""

from __future__ import annotations

import os
import time

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import ParameterGrid
from sklearn.pipeline import Pipeline

from .._progress import log
from .._sentence import check_sentences
from .._validation import Integral, Interval, Real, fit_context
from ..base import DelegatingTaggerMixin
from ..metrics import entity_f1_score
from ..model_selection import document_keys, holdout_split

__all__ = ["TunedTagger", "tune", "search_space", "halving_schedule", "tagger_options"]

MODELS = ("online-crf", "cascaded")


def search_space(models=MODELS, pos=True, word_classes=True, pos_corpus=None, lexicons=True):
    """The pipelines the tuner tries, as a parameter grid (``ParameterGrid``, ``GridSearchCV``).

    Online CRF: scheme (BIES + IO folded, IOBES, IOB2) and epochs (10, 20);
    cascade: the classifier's C (0.003, 0.01); for both the feature cutoff
    (1, 2, 3), with ``pos`` the bundled POS column (off, on) and with
    ``word_classes`` the word classes shipped with the package (off, on;
    :class:`~skbioner.annotate.WordClassAnnotator`) and with ``lexicons`` the
    lexicons shipped with the package (off, every type;
    :class:`~skbioner.annotate.LexiconMatcher`): 192 candidates.  The
    ranges bracket the JNLPBA defaults; the online CRF's C is left at 0.1
    (PA-I's cap rarely binds: C from 0.1 to 0.3 gave identical models on the
    BioNLP13CG development file).

    Parameters
    ----------
    models : sequence of {"online-crf", "cascaded"}
    pos : bool, default=True
        Search the POS column too.
    word_classes : bool, default=True
        Search the shipped word classes too.
    pos_corpus : path, optional
        The POS tagger's training corpus (``genia-pos/train.tsv``): the
        searched POS step is then ``POSTagger(jackknife=5, corpus=pos_corpus)``,
        which tags the sentences of that corpus out of fold, held-out ones
        included.
    lexicons : bool, default=True
        Search the shipped lexicons too (every type on, or none).

    Returns
    -------
    base : sklearn.pipeline.Pipeline
        The pipeline whose steps the grid sets (``pos``, ``word_classes``,
        ``lexicons``, ``features``, ``model``).
    grid : list of dict
    default : dict
        The grid point of the preset (``make_tagger``): the online CRF's, or
        the cascade's when the online CRF is not searched.
    """
    from ..annotate import LexiconMatcher, POSTagger, WordClassAnnotator
    from ..features import TokenFeaturizer
    from ..models import CascadedNER, OnlinePACRF

    unknown = sorted(set(models) - set(MODELS))
    if unknown or not models:
        raise ValueError(f"models must be a non-empty subset of {MODELS}, got {list(models)}")
    base = Pipeline([("pos", "passthrough"), ("word_classes", "passthrough"),
                     ("lexicons", "passthrough"), ("features", TokenFeaturizer(min_count=3)),
                     ("model", OnlinePACRF())])
    tagger = POSTagger() if pos_corpus is None else POSTagger(jackknife=5, corpus=pos_corpus)
    common = {"features__min_count": [1, 2, 3],
              "pos": ["passthrough", tagger] if pos else ["passthrough"],
              "word_classes": (["passthrough", WordClassAnnotator()] if word_classes
                               else ["passthrough"]),
              "lexicons": ["passthrough", LexiconMatcher()] if lexicons else ["passthrough"]}
    grid, off = [], {"features__min_count": 3, **dict.fromkeys(_ANNOTATORS, "passthrough")}
    if "online-crf" in models:
        chains = [OnlinePACRF(scheme=scheme, extra_schemes=extra, C=0.1, random_state=0)
                  for scheme, extra in [("BIES", ("IO",)), ("IOBES", ()), ("IOB2", ())]]
        grid.append({"model": chains, "model__max_iter": [10, 20], **common})
        default = {"model": chains[0], "model__max_iter": 10, **off}
    if "cascaded" in models:
        cascade = CascadedNER(
            segmenter=OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10),
            classifier=OnlinePACRF(C=0.003, max_iter=5), random_state=0)
        grid.append({"model": [cascade], "model__classifier__C": [0.003, 0.01], **common})
        if "online-crf" not in models:
            default = {"model": cascade, "model__classifier__C": 0.003, **off}
    return base, grid, default


def halving_schedule(n_candidates, n_train, factor=3, min_resources=250, max_rounds=None):
    """The rounds of the tuner's successive halving: candidates and training sentences.

    Each round trains its candidates on a share of the tuning part and scores
    them on the whole held-out part; the best go on to the next round, which
    trains on ``factor`` times more sentences; the last round trains on all
    ``n_train``.  There are as many rounds as the data allow with the first
    one on at least ``min_resources`` sentences, and no more than it takes to
    bring the candidates down to ``factor`` or fewer.  When the data allow
    fewer rounds than that, each round keeps a smaller share (the ratio
    ``(n_candidates / factor) ** (1 / (rounds - 1))``) so that the last,
    dearest round still holds about ``factor`` candidates.  A corpus too
    small for two rounds gets one: every candidate on all ``n_train``
    sentences (a plain grid).  No round repeats the previous one's data:
    the sizes grow strictly (scikit-learn's ``aggressive_elimination``
    instead reruns rounds on the same subsample, which retrains the same
    candidates on the same sentences and gives the same scores).

    Parameters
    ----------
    n_candidates : int
    n_train : int
        Sentences of the tuning part (the data minus the held-out part).
    factor : int, default=3
    min_resources : int, default=250
        The fewest training sentences of a round.
    max_rounds : int, optional

    Returns
    -------
    list of (int, int)
        ``(candidates, training sentences)`` per round.
    """
    if n_candidates < 1 or n_train < 1 or factor < 2:
        raise ValueError(f"halving needs candidates, sentences and factor >= 2, got "
                         f"{n_candidates}, {n_train}, {factor}")
    needed = 1
    while n_candidates / factor ** (needed - 1) > factor:
        needed += 1
    if max_rounds is not None:
        needed = max(1, min(needed, max_rounds))
    rounds = 1
    while rounds < needed and n_train / factor ** rounds >= min_resources:
        rounds += 1
    sizes = [int(np.ceil(n_train / factor ** (rounds - 1 - i))) for i in range(rounds)]
    ratio = factor if rounds == 1 else max(factor, (n_candidates / factor) ** (1 / (rounds - 1)))
    counts = [max(1, int(np.ceil(n_candidates / ratio ** i - 1e-9))) for i in range(rounds)]
    return list(zip(counts, sizes))


class TunedTagger(DelegatingTaggerMixin, BaseEstimator):
    """A tagger whose pipeline is chosen on held-out training documents.

    The held-out part is the last ``holdout`` share of the training
    documents, and at least ``min_held_out`` sentences of them (never more
    than half the data).  Every candidate of every round is scored on all of
    it: the decision it serves -- is a candidate better than the preset by
    more than chance? -- is a paired bootstrap over those sentences (over
    documents when known), whose resolution grows with their number.  On 607
    held-out BioNLP13CG sentences (2,297 entities) the paired 95%
    interval of the F1 difference between the search's winner and the preset
    was 2.6 points wide (-0.19 to +2.45); on 67 sentences (what
    scikit-learn's ``HalvingGridSearchCV``, which subsamples the held-out part
    with the training part, scored the first rounds on) it would be about
    three times wider, wider than most differences between candidates.  The
    floor of 500 sentences (about 1,900 BioNLP13CG entities) keeps the
    interval near that width on a corpus whose 20% would be fewer.  A
    single held-out part rather than a grouped cross-validation: k folds would
    cost k times the training, which on a small corpus is the whole budget.

    The search is :func:`halving_schedule`: rounds on strictly growing
    subsamples of whole training documents (seeded), the preset scored
    beside the candidates in every round.  Candidates that share their
    annotations and feature cutoff share one featurization per round, online
    CRFs that differ only in their epochs share one training run (the
    10-epoch candidate's held-out predictions are those of the 20-epoch run's
    averaged weights after epoch 10, which are the weights of a 10-epoch fit),
    and the annotations (the POS column, word classes: context-free lookups
    and a pre-trained tagger) are computed once for all sentences.

    Parameters
    ----------
    models : tuple of {"online-crf", "cascaded"}, default=("online-crf", "cascaded")
        Model families searched (see :func:`search_space`).
    pos : bool, default=True
        Whether the bundled POS column is one of the searched settings.  It
        is left out of the search when the bundled tagger was trained on
        held-out sentences (JNLPBA's: GENIA POS abstracts are JNLPBA training
        abstracts) and ``pos_corpus`` is not given: its in-sample tags would
        make the POS column look better there than on new text.
    word_classes : bool, default=True
        Whether the word classes shipped with the package are one of the
        searched settings.
    pos_corpus : str or path, default=None
        The bundled tagger's training corpus (``genia-pos/train.tsv``): the
        POS column is then searched with the sentences of that corpus tagged
        out of fold (:class:`~skbioner.annotate.POSTagger` ``jackknife=5``),
        in training, held-out and refitted data alike.
    lexicons : bool, default=True
        Whether the lexicons shipped with the package (every type, or none;
        :class:`~skbioner.annotate.LexiconMatcher`) are one of the searched
        settings.
    holdout : float, default=0.2
        Share of the training documents held out to score the candidates
        (the last ones; the last sentences without document ids).
    min_held_out : int, default=500
        Hold out at least this many sentences (whole documents), up to half
        of the data.
    factor : int, default=3
        Successive halving: the growth of the training data from one round
        to the next, and the share of candidates kept (see
        :func:`halving_schedule`).
    min_resources : int, default=250
        Training sentences of the first round (fewer rounds when the data
        are too small for that).
    n_jobs : int, default=2
        Candidates trained in parallel (and, in the refit, the online CRF's
        calibration model beside the final one).
    alpha : float, default=0.1
        The search's winner replaces the preset only if it beats it on the
        held-out documents with a paired-bootstrap p-value below this.
    random_state : int, default=0
        Seeds the subsamples of the halving rounds.
    verbose : int, default=0
        Progress on stderr: the split, the schedule, one line per round, the
        decision and the times.

    Attributes
    ----------
    best_params_ : dict
        The chosen settings (:func:`search_space` grid names).
    best_score_ : float
        Their exact entity F1 on the held-out documents.
    decision_ : dict
        The search's winner, its held-out F1 and the preset's, the paired
        bootstrap p-value and its 95% interval, which was chosen, the
        held-out sentences and documents, the schedule; ``pos_searched``
        (and, when the POS column was left out, ``pos_left_out``: why).
    best_estimator_ : sklearn.pipeline.Pipeline
        The winner refitted on all the training data (an online CRF with
        calibrated confidences).
    results_ : list of dict
        What was tried: per candidate and round, the settings, the training
        sentences and documents, the held-out F1, the seconds (its fit and
        prediction and its share of the featurization; for candidates read
        from a shared run, the seconds from the run's start to their
        predictions: what their own fit would take) and whether it is the
        preset; best first.
    classes_ : ndarray of str
    seconds_ : dict
        ``annotate``, ``search`` (annotation included) and ``refit`` wall seconds.
    """

    _parameter_constraints = {
        "models": [tuple, list],
        "pos": ["boolean"],
        "pos_corpus": [str, os.PathLike, None],
        "word_classes": ["boolean"],
        "lexicons": ["boolean"],
        "holdout": [Interval(Real, 0, 1, closed="neither")],
        "min_held_out": [Interval(Integral, 1, None, closed="left")],
        "factor": [Interval(Integral, 2, None, closed="left")],
        "min_resources": [Interval(Integral, 1, None, closed="left")],
        "alpha": [Interval(Real, 0, 1, closed="both")],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, models=MODELS, pos=True, word_classes=True, pos_corpus=None,
                 lexicons=True, holdout=0.2, min_held_out=500, factor=3, min_resources=250,
                 alpha=0.1, n_jobs=2, random_state=0, verbose=0):
        self.models = models
        self.pos = pos
        self.word_classes = word_classes
        self.pos_corpus = pos_corpus
        self.lexicons = lexicons
        self.holdout = holdout
        self.min_held_out = min_held_out
        self.factor = factor
        self.min_resources = min_resources
        self.alpha = alpha
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _pos_searched(self, held):
        """Whether the POS column is searched, and why not when it is not."""
        if not self.pos or self.pos_corpus is not None:
            return bool(self.pos), None
        from ..annotate import POSTagger

        seen = POSTagger().fit(held).in_sample(held)
        if not seen.any():
            return True, None
        why = (f"the bundled POS tagger was trained on {int(seen.sum())} of the {len(held)} "
               "held-out sentences (GENIA POS abstracts): pass pos_corpus= (its training "
               "corpus, genia-pos/train.tsv) to search the POS column with them tagged out of "
               "fold")
        log(self, f"POS column left out of the search: {why}")
        return False, why

    @fit_context
    def fit(self, X, y, X_dev=None, y_dev=None):
        """Search on held-out training documents, then refit the winner on all of ``X``.

        Parameters
        ----------
        X : list of Sentence
            Training sentences (document ids in ``doc_id`` when known).
        y : list of list of str
            IOB2 labels.
        X_dev, y_dev : list of Sentence and list of list of str, optional
            The user's own development data: the candidates are scored on
            it instead of on the last documents of ``X`` (``holdout`` and
            ``min_held_out`` then do not apply), and trained on all of ``X``
            in the last round; the winner is refitted on ``X`` alone.

        Returns
        -------
        self : TunedTagger
        """
        X, y = check_sentences(X, y, scheme="IOB2")
        n_train = len(X)
        if (X_dev is None) != (y_dev is None):
            raise ValueError("X_dev and y_dev go together: give both or neither")
        if X_dev is not None:
            X_dev, y_dev = check_sentences(X_dev, y_dev, scheme="IOB2")
            X, y = [*X, *X_dev], [*y, *y_dev]  # searched together, refitted on X alone
        keys = document_keys(X)
        if X_dev is None:
            train, held = holdout_split(X, self.holdout, self.min_held_out)
        else:
            train, held = np.arange(n_train), np.arange(n_train, len(X))
        if n_train < 100 or held.size < 20:
            raise ValueError(f"too few sentences to tune on ({n_train} sentences, {held.size} "
                             f"held out; at least 100 and 20 needed): fit a preset instead")
        t_start = time.perf_counter()
        pos, why = self._pos_searched([X[i] for i in held])
        base, grid, default = search_space(tuple(self.models), pos, self.word_classes,
                                           self.pos_corpus, self.lexicons)
        candidates = list(ParameterGrid(grid))
        preset = next(i for i, c in enumerate(candidates) if describe(c) == describe(default))
        rounds = self._rounds(len(candidates), train, keys)
        docs = _has_docs(X)
        log(self, f"{len(candidates)} candidate pipelines; {_count(train, keys, docs)} to "
                  f"train on, {_count(held, keys, docs)} held out " + (
                      "(the development data)" if X_dev is not None else
                      f"(the last {self.holdout:.0%} of the "
                      f"{'documents' if docs else 'sentences'}, at least "
                      f"{self.min_held_out} sentences)"))
        log(self, f"schedule: {len(rounds)} round{'s' if len(rounds) > 1 else ''}: " +
                  ", ".join(f"{n} candidates on {idx.size} sentences" for n, idx in rounds)
                  + "; the preset is scored beside them in every round; every round is scored "
                  "on all the held-out sentences")
        t0 = time.perf_counter()
        annotated = _annotations(base, candidates, X)
        annotate_seconds = time.perf_counter() - t0
        if len(annotated) > 1:
            log(self, f"{len(X)} sentences annotated once for the {len(annotated) - 1} "
                      f"searched annotation settings ({annotate_seconds:.0f} s)")
        Xho = {k: [v[i] for i in held] for k, v in annotated.items()}
        yho = [y[i] for i in held]
        alive, rows, preds = list(range(len(candidates))), [], {}
        for it, (n_keep, sub) in enumerate(rounds):
            alive = alive[:n_keep]
            t0 = time.perf_counter()
            jobs = alive + ([preset] if preset not in alive else [])
            preds = self._round(base, [(i, candidates[i]) for i in jobs], annotated, sub,
                                [y[i] for i in sub], Xho)
            f1 = {i: entity_f1_score(yho, preds[i][0]) for i in jobs}
            for i in jobs:
                rows.append({"round": it, "n_sentences": int(sub.size),
                             "n_documents": _n_units(sub, keys) if docs else None,
                             "settings": describe(candidates[i]), "f1": float(f1[i]),
                             "fit_seconds": float(preds[i][1]), "preset": i == preset,
                             "candidate": i in alive})
            alive = sorted(alive, key=lambda i: (-f1[i], i))
            log(self, f"round {it + 1}: {len(alive)} candidates trained on "
                      f"{_count(sub, keys, docs)}, scored on the {held.size} held-out "
                      f"sentences: best held-out F1 {f1[alive[0]]:.4f} "
                      f"({describe(candidates[alive[0]])}), the preset's {f1[preset]:.4f} "
                      f"({time.perf_counter() - t0:.0f} s)")
        self.results_ = sorted(rows, key=lambda r: (-r["round"], -r["f1"]))
        winner_params = candidates[alive[0]]
        self.decision_ = self._decide(candidates[alive[0]], default, preds[alive[0]][0],
                                      preds[preset][0], yho, [X[i] for i in held])
        self.decision_.update(
            pos_searched=pos, n_held_out_sentences=int(held.size),
            n_held_out_documents=_n_units(held, keys) if docs else None,
            schedule=[{"candidates": n, "n_sentences": int(idx.size),
                       "n_documents": _n_units(idx, keys) if docs else None}
                      for n, idx in rounds])
        if why:
            self.decision_["pos_left_out"] = why
        search_seconds = time.perf_counter() - t_start
        self.best_params_ = self.decision_.pop("params")
        self.best_score_ = self.decision_["chosen_f1"]
        best = _pipeline(base, self.best_params_)
        model = best.named_steps["model"]
        if "calibrate" in model.get_params(deep=False):
            model.set_params(calibrate=True)
        if "n_jobs" in model.get_params(deep=False):
            model.set_params(n_jobs=self.n_jobs)  # as the presets: calibration model beside
        self.decision_["winner_options"] = tagger_options(winner_params, self.pos_corpus)
        X, y = X[:n_train], y[:n_train]
        log(self, f"chosen: {describe(self.best_params_)}; refitting on all {len(X)} "
                  "training sentences")
        t0 = time.perf_counter()
        self.best_estimator_ = best.fit(X, y)
        self.seconds_ = {"annotate": annotate_seconds, "search": search_seconds,
                         "refit": time.perf_counter() - t0}
        self.classes_ = np.asarray(best.named_steps["model"].classes_, dtype=object)
        log(self, f"searched in {search_seconds:.0f} s (annotations {annotate_seconds:.0f} s), "
                  f"refitted in {self.seconds_['refit']:.0f} s")
        return self

    def _rounds(self, n_candidates, train, keys):
        """The schedule as (candidates, training indices): nested whole-document subsamples.

        Documents are drawn in a seeded random order; a round takes the first
        ones up to its share.  A round whose documents would not outnumber the
        previous round's in sentences (a few long documents) is dropped.
        """
        units = list(dict.fromkeys(keys[i] for i in train))
        order = np.random.RandomState(self.random_state).permutation(len(units))
        rank = {units[j]: r for r, j in enumerate(order)}
        ranked = train[np.argsort([rank[keys[i]] for i in train], kind="stable")]
        unit_rank = np.array([rank[keys[i]] for i in ranked])
        max_rounds = None
        while True:
            schedule = halving_schedule(n_candidates, train.size, self.factor,
                                        self.min_resources, max_rounds)
            subsets = []
            for n, size in schedule:  # whole documents up to the size
                last = unit_rank[min(size, ranked.size) - 1]
                subsets.append((n, np.sort(ranked[unit_rank <= last])))
            sizes = [idx.size for _, idx in subsets]
            if all(a < b for a, b in zip(sizes, sizes[1:])):
                return subsets
            max_rounds = len(schedule) - 1

    def _round(self, base, candidates, annotated, sub, ysub, Xho):
        """Held-out predictions and seconds of each candidate trained on ``sub``.

        Candidates with the same annotations and featurizer settings share one
        featurization (a task of their own, run ``n_jobs`` at a time).
        """
        from joblib import Parallel, delayed

        groups = {}
        for i, params in candidates:
            pipe = _pipeline(base, params)
            front = (_annotation_key(params), repr(pipe.named_steps["features"]))
            groups.setdefault(front, []).append((i, pipe))
        tasks = sorted(groups.items(), key=lambda kv: -len(kv[1]))
        out = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_front)(members[0][1].named_steps["features"],
                                [p.named_steps["model"] for _, p in members],
                                [annotated[front[0]][i] for i in sub], ysub, Xho[front[0]])
            for front, members in tasks)
        return {i: r for (_, members), res in zip(tasks, out) for (i, _), r in zip(members, res)}

    def _decide(self, winner, default, pred_winner, pred_default, yho, Xho):
        """The search's winner if it beats the preset significantly on the held-out part.

        Both were trained on the whole tuning part in the last round and are
        compared on the held-out sentences with a paired bootstrap (over
        documents when known): a winner ahead by noise alone would make the
        user's model no better, and sometimes worse, than the preset.
        """
        from ..metrics import paired_bootstrap

        f_default = entity_f1_score(yho, pred_default)
        f_winner = entity_f1_score(yho, pred_winner)
        same = describe(winner) == describe(default)
        p, ci = 1.0, (0.0, 0.0)
        if not same:
            groups = [s.doc_id for s in Xho] if _has_docs(Xho) else None
            res = paired_bootstrap(yho, pred_winner, pred_default, groups=groups,
                                   n_resamples=2000, random_state=0)
            p, ci = float(res.p_value), tuple(float(c) for c in res.ci)
        keep = not same and f_winner > f_default and p < self.alpha
        if same:
            verdict = "the preset itself"
        else:
            verdict = ("taken" if keep else "the preset is kept: the difference is within "
                       f"noise (95% interval {100 * ci[0]:+.2f} to {100 * ci[1]:+.2f} points)"
                       if f_winner > f_default else "the preset is kept")
        log(self, f"search winner {describe(winner)}: held-out F1 {f_winner:.4f} against the "
                  f"preset's {f_default:.4f} (paired bootstrap p = {p:.3f}); {verdict}")
        return {"params": dict(winner if keep else default), "winner": describe(winner),
                "winner_f1": f_winner, "default_f1": f_default, "p_value": p,
                "delta_ci": list(ci), "chosen": "winner" if keep else "default",
                "chosen_f1": f_winner if keep else f_default}


def _fit_front(features, models, Xtr, ytr, Xho):
    """Featurize once, then fit each model and predict the held-out sentences.

    Online CRFs that differ only in ``max_iter`` share one training run (the
    largest; the smaller epoch counts are read from its snapshots, the
    predictions of separate fits: ``OnlinePACRF._fit_predict_epochs``).  Each
    model's seconds are its share of the featurization plus those of its fit
    and prediction; for a model read from a shared run, the seconds from the
    run's start to its snapshot (what its own fit would have taken).
    """
    t0 = time.perf_counter()
    Ftr = features.fit_transform(Xtr, ytr)
    Fho = features.transform(Xho)
    share = (time.perf_counter() - t0) / len(models)
    out = [None] * len(models)
    for members in _shared_runs(models):
        if len(members) == 1:
            model = models[members[0]]
            t0 = time.perf_counter()
            pred = model.fit(Ftr, ytr).predict(Fho)
            out[members[0]] = (pred, time.perf_counter() - t0 + share)
            continue
        epochs = {i: models[i].max_iter for i in members}
        longest = models[max(members, key=epochs.get)]
        snaps = longest._fit_predict_epochs(Ftr, ytr, Fho, sorted(set(epochs.values())))
        for i in members:
            pred, seconds = snaps[epochs[i]]
            out[i] = (pred, seconds + share)
    return out


def _shared_runs(models):
    """Indices of ``models`` grouped by one training run: online CRFs equal but for ``max_iter``.

    Only models whose shorter fits are snapshots of the longer one's run
    (no early stopping, no warm start, a fixed ``random_state``: the same
    shuffles) are grouped; every other model is a group of its own.
    """
    from ..models import OnlinePACRF

    groups = {}
    for i, model in enumerate(models):
        params = model.get_params(deep=False)
        if (type(model) is OnlinePACRF and not params["early_stopping"]
                and not params["warm_start"] and isinstance(params["random_state"], Integral)):
            key = repr({k: v for k, v in sorted(params.items()) if k != "max_iter"})
        else:
            key = i
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def _pipeline(base, params):
    """A new pipeline of the grid point ``params``.

    The parameters are cloned (as ``GridSearchCV`` does): the grid's estimator
    objects are shared by many grid points, and ``set_params`` on a nested name
    (``model__max_iter``) would otherwise change the shared object, so that
    every candidate built from it trains with the last value set.
    """
    return clone(base).set_params(**clone(params, safe=False))


_ANNOTATORS = ("pos", "word_classes", "lexicons")


def _annotation_key(params):
    return tuple("off" if params[k] == "passthrough" else "on" for k in _ANNOTATORS)


def _annotations(base, candidates, X):
    """Every sentence annotated once per searched (POS, word classes, lexicons) setting.

    The annotators do not learn from the training sentences (a pre-trained
    POS tagger, jackknifed over its own corpus; a shipped word-class table; the shipped
    lexicons),
    so annotating all of ``X`` once gives each candidate what its pipeline's
    own annotation steps would.
    """
    out = {}
    for params in candidates:
        key = _annotation_key(params)
        if key in out:
            continue
        steps = [(k, clone(params[k]) if params[k] != "passthrough" else "passthrough")
                 for k in _ANNOTATORS]
        out[key] = list(Pipeline(steps).fit_transform(X)) if any(
            s != "passthrough" for _, s in steps) else list(X)
    return out


def _n_units(idx, keys):
    return len({keys[i] for i in idx})


def _count(idx, keys, docs):
    if not docs:
        return f"{idx.size} sentences (no document ids)"
    return f"{idx.size} sentences ({_n_units(idx, keys)} documents)"

def tune(X, y, X_dev=None, y_dev=None, **params):
    """Choose a pipeline on held-out training documents and refit it on all of them.

    ``tune(X, y, **params)`` is ``TunedTagger(**params).fit(X, y)``.

    Parameters
    ----------
    X : list of Sentence
    y : list of list of str
    X_dev, y_dev : optional
        The user's development data, to score the candidates on instead of
        the last training documents (:meth:`TunedTagger.fit`).
    **params
        :class:`TunedTagger` parameters.

    Returns
    -------
    TunedTagger
        Fitted: ``best_estimator_`` is the chosen pipeline, ``results_`` the table.
    """
    return TunedTagger(**params).fit(X, y, X_dev, y_dev)


def tagger_options(params, pos_corpus=None):
    """The ``make_tagger`` preset and options that build a candidate of :func:`search_space`.

    Parameters
    ----------
    params : dict
        A grid point (a candidate's settings).
    pos_corpus : path, optional
        As in :func:`search_space`.

    Returns
    -------
    dict or None
        ``{"model": preset, **options}``: what differs from the preset, as
        :func:`~skbioner.pipelines.make_tagger`'s keyword arguments (the
        command line: ``skbioner.cli.train_command(**options)``); None for a
        grid point of another space (no ``model``).
    """
    model, options, model_params = params.get("model"), {}, {}
    if model is None:
        return None
    if type(model).__name__ == "CascadedNER":
        options["model"] = "cascaded"
        if params.get("model__classifier__C", 0.003) != 0.003:
            model_params["classifier__C"] = params["model__classifier__C"]
    else:
        options["model"] = "online-crf"
        if (model.scheme, tuple(model.extra_schemes)) != ("BIES", ("IO",)):
            options["scheme"] = model.scheme
        if params.get("model__max_iter", 10) != 10:
            model_params["max_iter"] = params["model__max_iter"]
    if model_params:
        options["model_params"] = model_params
    if params.get("features__min_count", 3) != 3:
        options["feature_params"] = {"min_count": params["features__min_count"]}
    if params.get("pos", "passthrough") != "passthrough":
        options.update({"pos_jackknife": os.fspath(pos_corpus)} if pos_corpus else {"pos": True})
    for name in ("word_classes", "lexicons"):  # the files shipped with the package
        if params.get(name, "passthrough") != "passthrough":
            options[name] = "bundled"
    return options


def _has_docs(X):
    return any(getattr(s, "doc_id", None) is not None for s in X)


def describe(params):
    """A short readable form of a candidate's settings."""
    model = params.get("model")
    name = type(model).__name__
    if hasattr(model, "scheme") and name == "OnlinePACRF":
        name = f"OnlinePACRF({'+'.join([model.scheme, *model.extra_schemes])})"
    parts = [name]
    for key, value in sorted(params.items()):
        if key == "model":
            continue
        if key in _ANNOTATORS:
            value = "off" if value == "passthrough" else "on"
        parts.append(f"{key.split('__')[-1]}={value}")
    return " ".join(parts)
