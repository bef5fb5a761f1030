"""``TunedTagger`` / :func:`tune`: settings chosen on the user's own data.

Every default of the suite was chosen on the JNLPBA development split; a new
corpus may want others.  The tuner holds out part of the training documents
(whole documents when the sentences carry ids, else the last block of
sentences), searches a small documented space of pipelines with successive
halving (scikit-learn's ``HalvingGridSearchCV``: every candidate trains on a
small share of the data, the best third goes on with three times more, until
the last round trains on all of the tuning part), refits the winner on all
the data and keeps the table of what it tried.
"""

from __future__ import annotations

import os
import time

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted

from .._progress import log
from .._sentence import check_sentences
from .._validation import Integral, Interval, Real, fit_context
from ..base import SequenceTaggerMixin
from ..metrics import entity_f1_scorer
from ..models._base import check_targets, holdout_split

__all__ = ["TunedTagger", "tune", "search_space"]

MODELS = ("online-crf", "cascaded")


def search_space(models=MODELS, pos=True, word_classes=True, pos_corpus=None):
    """The pipelines the tuner tries, as a ``HalvingGridSearchCV`` grid.

    Online CRF: scheme (BIES + IO folded, IOBES, IOB2) and epochs (10, 20);
    cascade: the classifier's C (0.003, 0.01); for both the feature cutoff
    (1, 2, 3), with ``pos`` the bundled POS column (off, on) and with
    ``word_classes`` the word classes shipped with the package (off, on;
    :class:`~skbioner.annotate.WordClassAnnotator`): 96 candidates.  The
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

    Returns
    -------
    base : sklearn.pipeline.Pipeline
        The pipeline whose steps the grid sets (``pos``, ``word_classes``,
        ``features``, ``model``).
    grid : list of dict
    default : dict
        The grid point of the preset (``make_pipeline``): the online CRF's, or
        the cascade's when the online CRF is not searched.
    """
    from sklearn.pipeline import Pipeline

    from ..annotate import POSTagger, WordClassAnnotator
    from ..features import TokenFeaturizer
    from ..models import CascadedNER, OnlinePACRF

    unknown = sorted(set(models) - set(MODELS))
    if unknown or not models:
        raise ValueError(f"models must be a non-empty subset of {MODELS}, got {list(models)}")
    base = Pipeline([("pos", "passthrough"), ("word_classes", "passthrough"),
                     ("features", TokenFeaturizer(min_count=3)), ("model", OnlinePACRF())])
    tagger = POSTagger() if pos_corpus is None else POSTagger(jackknife=5, corpus=pos_corpus)
    common = {"features__min_count": [1, 2, 3],
              "pos": ["passthrough", tagger] if pos else ["passthrough"],
              "word_classes": (["passthrough", WordClassAnnotator()] if word_classes
                               else ["passthrough"])}
    grid = []
    if "online-crf" in models:
        chains = [OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, random_state=0),
                  OnlinePACRF(scheme="IOBES", C=0.1, random_state=0),
                  OnlinePACRF(scheme="IOB2", C=0.1, random_state=0)]
        grid.append({"model": chains, "model__max_iter": [10, 20], **common})
        default = {"model": chains[0], "model__max_iter": 10, "features__min_count": 3,
                   "pos": "passthrough", "word_classes": "passthrough"}
    if "cascaded" in models:
        cascade = CascadedNER(
            segmenter=OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10),
            classifier=OnlinePACRF(C=0.003, max_iter=5), random_state=0)
        grid.append({"model": [cascade], "model__classifier__C": [0.003, 0.01], **common})
        if "online-crf" not in models:
            default = {"model": cascade, "model__classifier__C": 0.003,
                       "features__min_count": 3, "pos": "passthrough",
                       "word_classes": "passthrough"}
    return base, grid, default


class TunedTagger(SequenceTaggerMixin, BaseEstimator):
    """A tagger whose pipeline is chosen on held-out training documents.

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
    holdout : float, default=0.2
        Share of the training documents held out to score the candidates
        (the last ones; the last sentences without document ids).
    factor : int, default=3
        Successive halving: the share of candidates kept, and the growth of
        the training data, at each round.
    n_jobs : int, default=2
        Candidates trained in parallel.
    alpha : float, default=0.1
        The search's winner replaces the preset only if it beats it on the
        held-out documents with a paired-bootstrap p-value below this.
    random_state : int, default=0
        Seeds the subsamples of the halving rounds.
    verbose : int, default=0
        Progress on stderr: one line per round, the winner and the times.

    Attributes
    ----------
    best_params_ : dict
        The chosen settings (``HalvingGridSearchCV`` names).
    best_score_ : float
        Their exact entity F1 on the held-out documents.
    decision_ : dict
        The search's winner, its held-out F1 and the preset's, the paired
        bootstrap p-value and which was chosen; ``pos_searched`` (and, when
        the POS column was left out, ``pos_left_out``: why).
    best_estimator_ : sklearn.pipeline.Pipeline
        The winner refitted on all the training data (an online CRF with
        calibrated confidences).
    results_ : list of dict
        What was tried: per candidate and round, the settings, the number
        of training sentences and the held-out F1, best first.
    classes_ : ndarray of str
    seconds_ : dict
        ``search`` and ``refit`` wall seconds.
    """

    _parameter_constraints = {
        "models": [tuple, list],
        "pos": ["boolean"],
        "pos_corpus": [str, os.PathLike, None],
        "word_classes": ["boolean"],
        "holdout": [Interval(Real, 0, 1, closed="neither")],
        "factor": [Interval(Integral, 2, None, closed="left")],
        "alpha": [Interval(Real, 0, 1, closed="both")],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, models=MODELS, pos=True, word_classes=True, pos_corpus=None,
                 holdout=0.2, factor=3, alpha=0.1, n_jobs=2, random_state=0, verbose=0):
        self.models = models
        self.pos = pos
        self.word_classes = word_classes
        self.pos_corpus = pos_corpus
        self.holdout = holdout
        self.factor = factor
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
    def fit(self, X, y):
        """Search on held-out training documents, then refit the winner on all of ``X``.

        Parameters
        ----------
        X : list of Sentence
            Training sentences (document ids in ``doc_id`` when known).
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : TunedTagger
        """
        from sklearn.experimental import enable_halving_search_cv  # noqa: F401
        from sklearn.model_selection import HalvingGridSearchCV

        X, y = check_sentences(X, y)
        y = check_targets(y, np.fromiter(map(len, X), dtype=np.int64, count=len(X)))
        train, held = holdout_split(X, self.holdout)
        if len(X) < 100 or held.size < 20:
            raise ValueError(f"too few sentences to tune on ({len(X)} sentences, {held.size} "
                             f"held out; at least 100 and 20 needed): fit a preset instead")
        pos, why = self._pos_searched([X[i] for i in held])
        base, grid, default = search_space(tuple(self.models), pos, self.word_classes,
                                           self.pos_corpus)
        n_candidates = sum(int(np.prod([len(v) for v in g.values()])) for g in grid)
        log(self, f"{n_candidates} candidate pipelines; {train.size} sentences to train on, "
                  f"{held.size} held out ({'documents' if _has_docs(X) else 'last sentences'})")
        # the first rounds train on a ninth of the data (smaller samples rank noise), and
        # eliminate aggressively there until the last round can train on all of it
        search = HalvingGridSearchCV(
            base, grid, factor=self.factor, resource="n_samples",
            min_resources=max(20, len(X) // 9), aggressive_elimination=True,
            cv=[(train, held)], scoring=entity_f1_scorer, refit=False, n_jobs=self.n_jobs,
            random_state=self.random_state, error_score="raise")
        t0 = time.perf_counter()
        search.fit(X, y)
        self.results_ = _results(search.cv_results_)
        for it in sorted({r["round"] for r in self.results_}):
            rows = [r for r in self.results_ if r["round"] == it]
            log(self, f"round {it + 1}: {len(rows)} candidates on {rows[0]['n_sentences']} "
                      f"sentences, best held-out F1 {max(r['f1'] for r in rows):.4f}")
        self.decision_ = self._decide(base, search.best_params_, default, X, y, train, held)
        self.decision_["pos_searched"] = pos
        if why:
            self.decision_["pos_left_out"] = why
        search_seconds = time.perf_counter() - t0
        self.best_params_ = self.decision_.pop("params")
        self.best_score_ = self.decision_["chosen_f1"]
        best = clone(base).set_params(**self.best_params_)
        model = best.named_steps["model"]
        if "calibrate" in model.get_params(deep=False):
            model.set_params(calibrate=True)
        log(self, f"chosen: {describe(self.best_params_)}; refitting on all {len(X)} sentences")
        t0 = time.perf_counter()
        self.best_estimator_ = best.fit(X, y)
        self.seconds_ = {"search": search_seconds, "refit": time.perf_counter() - t0}
        self.classes_ = np.asarray(best.named_steps["model"].classes_, dtype=object)
        log(self, f"searched in {search_seconds:.0f} s, refitted in {self.seconds_['refit']:.0f} s")
        return self

    def _decide(self, base, winner, default, X, y, train, held):
        """The search's winner if it beats the preset significantly on the held-out part.

        Both are trained on the tuning part and compared on the held-out
        sentences with a paired bootstrap (over documents when known): a
        winner ahead by noise alone would make the user's model no better,
        and sometimes worse, than the preset.
        """
        from ..metrics import entity_f1_score, paired_bootstrap

        Xtr, ytr = [X[i] for i in train], [y[i] for i in train]
        Xho, yho = [X[i] for i in held], [y[i] for i in held]
        same = describe(winner) == describe(default)
        preds = {}
        for name, params in (("default", default), ("winner", winner)):
            if name == "winner" and same:
                preds["winner"] = preds["default"]
                continue
            preds[name] = clone(base).set_params(**params).fit(Xtr, ytr).predict(Xho)
        f_default = entity_f1_score(yho, preds["default"])
        f_winner = entity_f1_score(yho, preds["winner"])
        p = 1.0
        if not same:
            groups = [X[i].doc_id for i in held] if _has_docs(X) else None
            p = float(paired_bootstrap(yho, preds["winner"], preds["default"], groups=groups,
                                       n_resamples=2000, random_state=0).p_value)
        keep = not same and f_winner > f_default and p < self.alpha
        log(self, f"search winner {describe(winner)}: held-out F1 {f_winner:.4f} against the "
                  f"preset's {f_default:.4f} (paired bootstrap p = {p:.3f}); "
                  f"{'taken' if keep else 'the preset is kept'}")
        return {"params": dict(winner if keep else default), "winner": describe(winner),
                "winner_f1": f_winner, "default_f1": f_default, "p_value": p,
                "chosen": "winner" if keep else "default",
                "chosen_f1": f_winner if keep else f_default}

    def predict(self, X):
        """IOB2 labels of ``X`` from the refitted winner.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of str
        """
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)


def tune(X, y, **params):
    """Choose a pipeline on held-out training documents and refit it on all of them.

    ``tune(X, y, **params)`` is ``TunedTagger(**params).fit(X, y)``.

    Parameters
    ----------
    X : list of Sentence
    y : list of list of str
    **params
        :class:`TunedTagger` parameters.

    Returns
    -------
    TunedTagger
        Fitted: ``best_estimator_`` is the chosen pipeline, ``results_`` the table.
    """
    return TunedTagger(**params).fit(X, y)


def _has_docs(X):
    return any(getattr(s, "doc_id", None) is not None for s in X)


def describe(params):
    """A short readable form of a candidate's settings."""
    model = params.get("model")
    name = type(model).__name__
    if hasattr(model, "scheme") and name == "OnlinePACRF":
        extra = "+".join(model.extra_schemes)
        name = f"OnlinePACRF({model.scheme}{'+' + extra if extra else ''})"
    parts = [name]
    for key, value in sorted(params.items()):
        if key == "model":
            continue
        if key in ("pos", "word_classes"):
            value = "off" if value == "passthrough" else "on"
        parts.append(f"{key.split('__')[-1]}={value}")
    return " ".join(parts)


def _results(cv):
    rows = []
    for i, params in enumerate(cv["params"]):
        rows.append({"round": int(cv["iter"][i]), "n_sentences": int(cv["n_resources"][i]),
                     "settings": describe(params), "f1": float(cv["mean_test_score"][i]),
                     "fit_seconds": float(cv["mean_fit_time"][i])})
    rows.sort(key=lambda r: (-r["round"], -r["f1"]))
    return rows
