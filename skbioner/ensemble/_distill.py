"""``DistilledTagger``: a slow teacher's labels on unlabeled text teach one fast student."""

from __future__ import annotations

import time

from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._progress import log
from .._sentence import check_sentences
from .._validation import HasMethods, Integral, Interval, Real, fit_context
from ..base import DelegatingTaggerMixin, classes_of
from ..datasets import drop_copies
from ..schemes import spans_to_labels
from ._outputs import tagger_outputs

__all__ = ["DistilledTagger"]

#: A file of unlabeled text is read up to this many times ``max_tokens`` tokens.
READ_FACTOR = 10


class DistilledTagger(DelegatingTaggerMixin, BaseEstimator):
    """One fast student trained on gold and on a slow teacher's labels (distillation).

    :meth:`fit` trains the ``teacher`` (a vote of several taggers, say) on the
    labelled sentences, has it tag the unlabeled sentences ``X_unlabeled``, and trains the
    ``student`` on the labelled sentences plus the teacher-labelled ones.
    Only the student is kept: tagging costs one model's time and the model
    file holds one model (knowledge distillation, or self-training with the
    ensemble as teacher).

    Parameters
    ----------
    teacher : estimator
        Any tagger of the suite (``make_tagger("vote", ...)``...); cloned and
        fitted in :meth:`fit`, then dropped.
    student : estimator
        The tagger kept; cloned and fitted in :meth:`fit`.
    max_tokens : int or None, default=500_000
        Teacher-labelled tokens the student learns from (the first sentences
        of the shuffled unlabeled text holding that many); None: all.  A
        file is read up to :data:`READ_FACTOR` times as many tokens (the
        shuffle draws from them), a line of more than 10,000 tokens refused.
    min_confidence : float, default=0.0
        A teacher-labelled sentence is used only if the teacher's confidence
        in each of its entities is at least this.
    min_entities : int, default=0
        A teacher-labelled sentence is used only if the teacher found at
        least this many entities in it (unlabeled text from outside the
        corpus's domain is mostly sentences without any).  On the JNLPBA
        development split ``min_confidence=0.5, min_entities=1`` with 500k
        tokens was the best of eleven settings, by 0.2 F1 over the student on
        gold alone, within the student's seed noise (``docs/lab/benchmarks.md``,
        "Distilling the vote into one student"); the defaults filter nothing.
    random_state : int or None, default=0
        Seed of the shuffle of the unlabeled sentences.
    verbose : int, default=0
        A line on stderr per stage.

    Attributes
    ----------
    student_ : estimator
        The fitted student: the prediction state.
    classes_ : ndarray of str
        The student's labels.
    n_pseudo_sentences_, n_pseudo_tokens_ : int
        Teacher-labelled sentences and tokens the student was trained on.
    removed_ : dict of str to int
        Unlabeled sentences dropped as copies (:func:`skbioner.datasets.drop_copies`).
    fit_seconds_ : dict of str to float
        Seconds of the ``teacher`` fit, the ``labelling`` and the ``student`` fit.
    """

    _delegate = "student_"
    _parameter_constraints = {
        "teacher": [HasMethods(["fit", "predict"])],
        "student": [HasMethods(["fit", "predict"])],
        "max_tokens": [Interval(Integral, 1, None, closed="left"), None],
        "min_confidence": [Interval(Real, 0, 1, closed="both")],
        "min_entities": [Interval(Integral, 0, None, closed="left")],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, teacher, student, *, max_tokens=500_000, min_confidence=0.0,
                 min_entities=0, random_state=0, verbose=0):
        self.teacher = teacher
        self.student = student
        self.max_tokens = max_tokens
        self.min_confidence = min_confidence
        self.min_entities = min_entities
        self.random_state = random_state
        self.verbose = verbose

    def _unlabeled_sentences(self, X_unlabeled):
        from ..io import read_tokenized

        if X_unlabeled is None:
            raise ValueError("DistilledTagger.fit needs X_unlabeled: the sentences (or a file "
                             "of them) the teacher labels for the student")
        if isinstance(X_unlabeled, list | tuple):
            return check_sentences(list(X_unlabeled))
        return read_tokenized(X_unlabeled, max_tokens=self.max_tokens and
                              READ_FACTOR * self.max_tokens)

    @fit_context
    def fit(self, X, y, X_unlabeled=None):
        """Train the teacher, label the unlabeled sentences, train the student on both.

        Parameters
        ----------
        X : list of Sentence
        y : list of list of str
            IOB2 labels.
        X_unlabeled : list of Sentence, str or path
            Unlabeled sentences, or a file of one sentence per line, tokens
            separated by whitespace (:func:`skbioner.io.read_tokenized`;
            ``.gz`` too).  Sentences that copy a training sentence are
            dropped (:func:`skbioner.datasets.drop_copies`).  Required.

        Returns
        -------
        self : DistilledTagger
        """
        X, y = check_sentences(X, y, scheme="IOB2")
        pool, self.removed_ = drop_copies(self._unlabeled_sentences(X_unlabeled), X)
        rng = check_random_state(self.random_state)
        pool = [pool[i] for i in rng.permutation(len(pool))]
        seconds = {}
        t0 = time.perf_counter()
        teacher = clone(self.teacher).fit(X, y)
        seconds["teacher"] = time.perf_counter() - t0
        log(self, f"teacher fitted in {seconds['teacher']:.1f} s")
        t0 = time.perf_counter()
        Xp, yp = self._pseudo_labelled(teacher, pool)
        del teacher
        seconds["labelling"] = time.perf_counter() - t0
        self.n_pseudo_sentences_, self.n_pseudo_tokens_ = len(Xp), sum(map(len, Xp))
        log(self, f"{self.n_pseudo_tokens_:,} tokens labelled by the teacher in "
                  f"{seconds['labelling']:.1f} s ({sum(self.removed_.values()):,} unlabeled "
                  "sentences dropped as copies of training sentences)")
        t0 = time.perf_counter()
        self.student_ = clone(self.student).fit(list(X) + Xp, list(y) + yp)
        seconds["student"] = time.perf_counter() - t0
        log(self, f"student fitted in {seconds['student']:.1f} s")
        self.fit_seconds_ = seconds
        self.classes_ = classes_of(self.student_)
        return self

    def _pseudo_labelled(self, teacher, pool, batch=2000):
        """The teacher's labels on the first pool sentences that pass the filters."""
        Xp, yp, total = [], [], 0
        limit = float("inf") if self.max_tokens is None else self.max_tokens
        for start in range(0, len(pool), batch):
            chunk = pool[start:start + batch]
            for s, ents in zip(chunk, tagger_outputs(teacher, chunk, marginals=False).entities,
                               strict=True):
                if total >= limit:
                    return Xp, yp
                if len(ents) < self.min_entities or any(e[3] < self.min_confidence
                                                         for e in ents):
                    continue
                Xp.append(s)
                yp.append(spans_to_labels([e[:3] for e in ents], len(s), "IOB2"))
                total += len(s)
        return Xp, yp

    @property
    def tagger_(self):
        """The fitted student: what the suite finds inside wrappers (``base.unwrap``).

        ``skbioner info`` and the raw-text tagger then describe and run the student.
        """
        check_is_fitted(self, "student_")
        return self.student_

    def predict_entities(self, X):
        """The student's entities with their confidences.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of (str, int, int, float)
        """
        check_is_fitted(self, "student_")
        return tagger_outputs(self.student_, check_sentences(X), marginals=False).entities
