"""``HMMStateClusterer``: HMM states learned on unlabeled text as token annotations."""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from itertools import chain

import numba
import numpy as np
from joblib import effective_n_jobs
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_limits

from .._progress import log
from .._sentence import check_sentences
from .._utils import gc_paused
from .._validation import ColumnName, Integral, Interval, Real, StrOptions
from ..base import SentenceTransformerMixin
from ..features._word_shape import GREEK_LETTERS
from ._forward_backward import forward_backward, make_batches, unpack_rows, viterbi_paths
from ._word_classes import count_corpus

__all__ = ["HMMStateClusterer", "SHAPE_CLASSES", "shape_class"]

#: Observation classes of words outside the vocabulary, in column order
#: (see :func:`shape_class`).
SHAPE_CLASSES = (
    "<punct>", "<number>", "<greek>", "<digit-hyphen>", "<caps-digit>", "<digit>",
    "<hyphen>", "<allcaps>", "<single-cap>", "<initcap>", "<mixedcase>",
    "<lower-ion>", "<lower-ing>", "<lower-ed>", "<lower-ase>", "<lower-s>", "<lower>",
    "<other>",
)  # fmt: skip
_SHAPE_INDEX = {name: i for i, name in enumerate(SHAPE_CLASSES)}
_GREEK_NAMES = frozenset(GREEK_LETTERS)
_NUMBER_CHARS = frozenset("0123456789.,")
_LOWER_SUFFIXES = (("ion", "<lower-ion>"), ("ing", "<lower-ing>"), ("ed", "<lower-ed>"),
                   ("ase", "<lower-ase>"), ("s", "<lower-s>"))  # fmt: skip

# Every expected count gets this pseudo-count before normalisation (a MAP
# estimate under a nearly flat Dirichlet prior): no probability is ever
# exactly zero, so no log(0), no 0/0 for a state that lost all its mass, and
# an observation class never seen in training still has a (tiny) probability.
_PSEUDO_COUNT = 1e-6
# Shape of the Gamma draws multiplying the observation frequencies in the
# initial emission rows: small values make the states differ strongly from
# the start (on 15k sentences, 160 states, 0.2 reached a better
# log-likelihood after 20 and 30 iterations than 1.0 or uniform Dirichlet rows).
_INIT_SHAPE = 0.2
# Tokens per forward-backward batch (memory ~ 2 * _BATCH_TOKENS * n_states floats).
_BATCH_TOKENS = 1 << 16
# Working precision of the E-step recursions (counts and log-likelihoods
# are accumulated in float64 whatever this is).
_DTYPE = np.float32


_BLAS_LOCK = threading.Lock()
_BLAS_USERS = 0
_BLAS_LIMITER = None


@contextlib.contextmanager
def _one_blas_thread():
    """Limit BLAS to one thread while any caller (of any thread) is inside.

    The limit is process-wide: nested ``threadpool_limits`` contexts entered
    and left by concurrent threads would restore each other's state in the
    wrong order and leave BLAS at one thread for good, so the first caller
    in applies the limit and the last one out restores it.
    """
    global _BLAS_USERS, _BLAS_LIMITER
    with _BLAS_LOCK:
        if _BLAS_USERS == 0:
            _BLAS_LIMITER = threadpool_limits(limits=1, user_api="blas")
        _BLAS_USERS += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS_USERS -= 1
            if _BLAS_USERS == 0:
                _BLAS_LIMITER.restore_original_limits()
                _BLAS_LIMITER = None


@contextlib.contextmanager
def _workers(n_jobs, n_batches):
    """``map_groups(func, batches)``: ``func`` over ``n`` round-robin groups of the batches,
    in ``n`` threads (``n_jobs``, at most one per batch; inline for one), BLAS limited to one
    thread each."""
    n = max(1, min(effective_n_jobs(n_jobs), n_batches))
    with _one_blas_thread(), (ThreadPoolExecutor(n) if n > 1 else contextlib.nullcontext()) as pool:
        def map_groups(func, batches):
            groups = [batches[k::n] for k in range(n)]
            return list(map(func, groups) if pool is None else pool.map(func, groups))
        yield map_groups


def shape_class(word: str) -> str:
    """Observation class of a word outside the HMM vocabulary.

    The first rule that applies wins:

    ``<punct>``
        no letter or digit (``(``, ``-``, ``+/-``).
    ``<number>``
        only ASCII digits, ``.`` and ``,`` (``1997``, ``2.5``, ``1,000``).
    ``<greek>``
        a Greek letter name in lower case or capitalised (``alpha``,
        ``Kappa``; all-capitals ``PI`` is an abbreviation more often than
        not, so it is ``<allcaps>``), or one Greek character
        (``"\\u03b1"``).
    ``<digit-hyphen>``
        a digit and a hyphen (``IL-12``, ``5-bromo``).
    ``<caps-digit>``
        a digit, letters and no lower-case letter (``CD4``, ``H3K27``).
    ``<digit>``
        any other token with a digit (``p53``, ``mir21a``).
    ``<hyphen>``
        a hyphen (``NF-kappaB``, ``ice-cold``).
    ``<allcaps>``
        two or more upper-case letters, no lower-case (``DNA``, ``NF``).
    ``<single-cap>``
        exactly one upper-case letter, no lower-case (``B``, ``T``).
    ``<initcap>``
        an upper-case first character followed by lower-case only
        (``Jurkat``).
    ``<mixedcase>``
        other mixes of upper and lower case (``mRNA``, ``HeLa``).
    ``<lower-ion>``, ``<lower-ing>``, ``<lower-ed>``, ``<lower-ase>``, ``<lower-s>``
        lower-case words with these endings (checked in this order).
    ``<lower>``
        other lower-case words.
    ``<other>``
        everything else (letters without case, e.g. CJK).

    "Digit" and the cases follow Python's ``str.isdigit``, ``isupper`` and
    ``islower``; a hyphen is ``"-"``.

    Parameters
    ----------
    word : str

    Returns
    -------
    str
        One of :data:`SHAPE_CLASSES`.

    Examples
    --------
    >>> [shape_class(w) for w in ["(", "2.5", "kappa", "IL-12", "CD4", "p53"]]
    ['<punct>', '<number>', '<greek>', '<digit-hyphen>', '<caps-digit>', '<digit>']
    >>> [shape_class(w) for w in ["NF-kappaB", "DNA", "T", "Jurkat", "mRNA", "kinase"]]
    ['<hyphen>', '<allcaps>', '<single-cap>', '<initcap>', '<mixedcase>', '<lower-ase>']
    """
    if not any(ch.isalnum() for ch in word):
        return "<punct>"
    if all(ch in _NUMBER_CHARS for ch in word):  # has a digit: it is not <punct>
        return "<number>"
    if (word.lower() in _GREEK_NAMES and not word.isupper()) or (
        len(word) == 1 and ("\u0391" <= word <= "\u03a9" or "\u03b1" <= word <= "\u03c9")
    ):
        return "<greek>"
    has_lower = any(ch.islower() for ch in word)
    n_upper = sum(ch.isupper() for ch in word)
    if any(ch.isdigit() for ch in word):
        if "-" in word:
            return "<digit-hyphen>"
        if not has_lower and any(ch.isalpha() for ch in word):
            return "<caps-digit>"
        return "<digit>"
    if "-" in word:
        return "<hyphen>"
    if not has_lower:
        if n_upper >= 2:
            return "<allcaps>"
        if n_upper == 1:
            return "<single-cap>"
        return "<other>"
    if n_upper:
        if n_upper == 1 and word[0].isupper():
            return "<initcap>"
        return "<mixedcase>"
    for suffix, name in _LOWER_SUFFIXES:
        if word.endswith(suffix):
            return name
    return "<lower>"


class HMMStateClusterer(
    SentenceTransformerMixin, TransformerMixin, BaseEstimator, auto_wrap_output_keys=None
):
    """HMM states learned on unlabeled sentences, added as a token annotation.

    Kazama et al. (2002) train a fully connected first-order hidden Markov
    model on unlabeled text with Baum-Welch and use each token's most
    likely state as a feature: the states act as unsupervised word clusters
    that take the context into account.  :meth:`fit` trains the HMM on
    ``X``, or on the file ``unlabeled`` (``y`` is ignored, so the clusterer
    can sit in a :class:`~sklearn.pipeline.Pipeline` before a featurizer
    and a tagger);
    :meth:`transform` adds an annotation column (``hmm`` by default) with
    values ``"h0"`` ... ``"h{n_states - 1}"``, which the ``"kazama"``
    preset of :class:`~skbioner.features.TokenFeaturizer` reads.

    Parameters
    ----------
    n_states : int, default=160
        Number of hidden states.
    max_vocab : int or None, default=10000
        The HMM observes the ``max_vocab`` most frequent words of the
        training sentences (ties broken alphabetically) as themselves; every
        other word -- in :meth:`fit` and in :meth:`transform` -- is observed
        as its word-shape class (:func:`shape_class`, 18 classes).
        ``None``: every training word.  Words are case sensitive.
    max_iter : int, default=20
        Maximum number of Baum-Welch (EM) iterations.
    tol : float or None, default=1e-2
        Stop when an iteration improves the training log-likelihood by less
        than ``tol`` nats *per token* (the total improvement divided by the
        number of training tokens, so the criterion does not depend on the
        corpus size).  A :class:`~sklearn.exceptions.ConvergenceWarning` is
        raised when ``max_iter`` iterations end before that (160 states on
        a large corpus typically need more than 20).  ``None``: run exactly
        ``max_iter`` iterations and never warn.
    output : {"viterbi", "posterior"}, default="viterbi"
        State written by :meth:`transform`: ``"viterbi"`` gives the states
        of the single most probable state sequence of the sentence;
        ``"posterior"`` gives, for each token, the state of highest
        posterior probability ``P(state_t | sentence)`` (the argmax of
        :meth:`posteriors`; the sequence as a whole may then contain an
        improbable transition).
    annotation : str, default="hmm"
        Name of the annotation column written by :meth:`transform`.
    n_jobs : int or None, default=None
        Number of threads: batches of sentences go through forward-backward
        in parallel, and Viterbi decodes sentences in parallel.  ``None``
        means 1 unless in a :func:`joblib.parallel_config` context; ``-1``
        means all CPUs.  While the E-step runs, BLAS is limited to one
        thread per worker (process-wide, through ``threadpoolctl``): many
        small matrix products scale better across batches than inside each
        product, and do not collapse when another process competes for the
        cores.  The summation order of the expected counts depends on
        ``n_jobs``, so results with different ``n_jobs`` agree only up to
        rounding.
    random_state : int, RandomState instance or None, default=None
        Seeds the random initial parameters: start and transition rows are
        drawn from a flat Dirichlet, and each state's emission row is the
        training frequency of each observation (plus one) times a
        Gamma(0.2) draw, normalised (a frequency-weighted sparse Dirichlet
        draw: the states differ strongly from the start, which speeds up
        the first iterations).
    verbose : int, default=0
        Print the log-likelihood, the wall time and the CPU time (all
        threads) of each iteration to stderr.
    unlabeled : str, path-like or None, default=None
        A file of unlabeled sentences (one per line, tokens separated by
        spaces: :func:`~skbioner.io.read_tokenized`) that :meth:`fit` trains
        on instead of ``X``: in a pipeline fitted on labelled sentences,
        the states are learned from this text.

    Attributes
    ----------
    vocabulary_ : dict of str -> int
        Observation index of each vocabulary word.  Indices
        ``len(vocabulary_) + k`` are the shape classes ``SHAPE_CLASSES[k]``.
    observations_ : ndarray of object, shape (n_observations,)
        Name of every observation: the vocabulary words, then the shape
        classes.
    startprob_ : ndarray of shape (n_states,)
        Initial state distribution.
    transmat_ : ndarray of shape (n_states, n_states)
        ``transmat_[i, j] = P(state j | previous state i)``.
    emissionprob_ : ndarray of shape (n_states, n_observations)
        ``emissionprob_[s, o] = P(observation o | state s)``.
    history_ : list of float
        Total log-likelihood (natural log) of the training sentences
        computed by each iteration's E-step: ``history_[k]`` is the
        likelihood under the parameters after ``k`` re-estimations
        (``history_[0]``: the random initialisation).  Baum-Welch never
        decreases it (up to the rounding of the float32 recursions and the
        tiny pseudo-count, see Notes).
    n_iter_ : int
        Number of EM iterations run.
    converged_ : bool
        Whether the ``tol`` criterion stopped the training.
    n_tokens_ : int
        Number of training tokens.

    See Also
    --------
    skbioner.features.TokenFeaturizer : reads the ``hmm`` column (``"kazama"`` preset).

    Notes
    -----
    Implementation: the sentences are sorted by length and packed so that
    each forward or backward step over all sentences alive at that step is
    one BLAS matrix product; the expected transition counts are matrix
    products too and the expected emission counts a compiled scatter.  The
    recursions are scaled (each forward vector normalised to sum to one,
    Rabiner 1989), so arbitrarily long sentences never underflow, and run
    in float32; counts and log-likelihoods are accumulated in float64.  An
    iteration costs about ``3 * n_tokens * n_states**2`` multiply-adds.
    Viterbi decoding is done in log space, sentences in parallel.

    Re-estimation adds a pseudo-count of ``1e-6`` to every expected count
    (start, transition and emission) before normalising: no probability is
    ever zero, so decoding a sentence of unseen shapes never produces NaN.

    There is no end-of-sentence probability (as in ``hmmlearn``): every
    sentence is an independent sequence starting from ``startprob_``.

    Memory of the E-step: about ``2 * 65536 * n_states`` float32 values per
    thread for one batch of sentences, plus ``n_observations * n_states``
    float64 expected counts per thread; the corpus itself is held as one
    int32 id per token.  :meth:`posteriors` returns ``n_tokens * n_states``
    float64 values; ``output="posterior"`` keeps only one batch of them.

    References
    ----------
    J. Kazama, T. Makino, Y. Ohta, J. Tsujii (2002). Tuning support vector
    machines for biomedical named entity recognition. ACL Workshop on
    Natural Language Processing in the Biomedical Domain.

    L. R. Rabiner (1989). A tutorial on hidden Markov models and selected
    applications in speech recognition. Proc. IEEE 77(2).

    Examples
    --------
    >>> from skbioner.annotate import HMMStateClusterer
    >>> X = [["IL-2", "binds", "the", "receptor", "."],
    ...      ["p53", "binds", "DNA", "."]] * 20
    >>> hmm = HMMStateClusterer(n_states=3, max_vocab=5, tol=None, max_iter=5,
    ...                         random_state=0).fit(X)
    >>> hmm.transmat_.shape, hmm.emissionprob_.shape  # 5 words + 18 shape classes
    ((3, 3), (3, 23))
    >>> len(hmm.history_), bool(all(b >= a for a, b in zip(hmm.history_, hmm.history_[1:])))
    (5, True)
    >>> s = hmm.transform([["p53", "binds", "kinase", "."]])[0]
    >>> len(s.column("hmm")), s.column("hmm")[0] in {"h0", "h1", "h2"}
    (4, True)
    """

    _parameter_constraints = {
        "n_states": [Interval(Integral, 1, None, closed="left")],
        "max_vocab": [Interval(Integral, 0, None, closed="left"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left"), None],
        "output": [StrOptions({"viterbi", "posterior"})],
        "annotation": [ColumnName()],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
        "unlabeled": [str, os.PathLike, None],
    }

    def __init__(self, n_states=160, max_vocab=10000, max_iter=20, tol=1e-2, output="viterbi",
                 annotation="hmm", n_jobs=None, random_state=None, verbose=0, unlabeled=None):
        self.n_states = n_states
        self.max_vocab = max_vocab
        self.max_iter = max_iter
        self.tol = tol
        self.output = output
        self.annotation = annotation
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.unlabeled = unlabeled

    # ---------------------------------------------------------------- encoding

    def _encode(self, sentences, vocabulary=None):
        vocabulary = self.vocabulary_ if vocabulary is None else vocabulary
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        n_vocab = len(vocabulary)
        with gc_paused():  # a word outside the vocabulary is observed as its shape class
            mapping = {w: n_vocab + _SHAPE_INDEX[shape_class(w)] if (i := vocabulary.get(w))
                       is None else i for w in dict.fromkeys(chain.from_iterable(sentences))}
        ids = np.fromiter(
            map(mapping.__getitem__, chain.from_iterable(sentences)),
            dtype=np.int32,
            count=int(offsets[-1]),
        )
        return ids, offsets

    # ------------------------------------------------------------------- EM

    @staticmethod
    def _m_step(acc_start, acc_trans, acc_emit):
        start = acc_start + _PSEUDO_COUNT
        start /= start.sum()
        trans = acc_trans + _PSEUDO_COUNT
        trans /= trans.sum(axis=1, keepdims=True)
        emit = acc_emit.T + _PSEUDO_COUNT  # (S, V)
        emit /= emit.sum(axis=1, keepdims=True)
        return start, trans, emit

    def fit(self, X, y=None):
        """Train the HMM on unlabeled sentences by Baum-Welch.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings
            (ignored with ``unlabeled``).
        y : None
            Ignored (present so that the clusterer works in a pipeline
            fitted on labelled data).

        Returns
        -------
        self : HMMStateClusterer
        """
        self._validate_params()
        if self.unlabeled is not None:
            from ..io import read_tokenized

            X = read_tokenized(self.unlabeled)
        sentences = check_sentences(X)
        words = count_corpus(sentences, "none", 1)[0]  # most frequent first
        if not words:
            raise ValueError("X has no tokens: the HMM needs at least one token to fit")
        vocabulary = {w: i for i, w in enumerate(words[:self.max_vocab])}
        ids, offsets = self._encode(sentences, vocabulary)
        n_obs = len(vocabulary) + len(SHAPE_CLASSES)
        obs_counts = np.bincount(ids, minlength=n_obs).astype(np.float64)
        n_tokens = int(ids.shape[0])

        rng = check_random_state(self.random_state)
        S = self.n_states
        start = rng.dirichlet(np.ones(S))
        trans = rng.dirichlet(np.ones(S), size=S)
        emit = (obs_counts + 1.0)[None, :] * rng.gamma(_INIT_SHAPE, size=(S, n_obs))
        emit /= emit.sum(axis=1, keepdims=True)
        batches = make_batches(ids, offsets, _BATCH_TOKENS)
        history = []
        converged = False

        def e_step(group, params):
            acc = (np.zeros(S), np.zeros((S, S)), np.zeros((n_obs, S)))
            loglik = 0.0
            for batch in group:
                loglik += forward_backward(batch, *params, stats=acc, dtype=_DTYPE)[0]
            return loglik, acc

        with _workers(self.n_jobs, len(batches)) as map_groups:
            for it in range(self.max_iter):
                t0, cpu0 = time.perf_counter(), time.process_time()
                emit_t = np.ascontiguousarray(emit.T)
                params = (start, trans, emit_t)
                results = map_groups(functools.partial(e_step, params=params), batches)
                loglik = sum(r[0] for r in results)
                acc = results[0][1]
                for _, other in results[1:]:
                    for a, b in zip(acc, other):
                        a += b
                start, trans, emit = self._m_step(*acc)
                history.append(loglik)
                log(self, f"HMM iteration {it + 1}: log-likelihood {loglik:.6g} "
                          f"({loglik / n_tokens:.5f} per token), {time.perf_counter() - t0:.2f} s "
                          f"({time.process_time() - cpu0:.2f} s CPU)")
                if (
                    self.tol is not None
                    and it > 0
                    and history[-1] - history[-2] < self.tol * n_tokens
                ):
                    converged = True
                    break

        self.vocabulary_ = vocabulary
        self.observations_ = np.array([*vocabulary, *SHAPE_CLASSES], dtype=object)
        self.startprob_ = start
        self.transmat_ = trans
        self.emissionprob_ = emit
        self.history_ = history
        self.n_iter_ = len(history)
        self.converged_ = converged
        self.n_tokens_ = n_tokens
        if self.tol is not None and not converged:
            warnings.warn(
                f"HMMStateClusterer stopped after max_iter={self.max_iter} iterations without "
                f"converging (tol={self.tol} per token); increase max_iter or tol",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    # -------------------------------------------------------------- inference

    def _forward_backward_all(self, ids, offsets, output):
        """Forward-backward (float64) over all sentences, batch by batch.

        ``output``: ``"gamma"`` -> (posteriors of every token in sentence
        order, log-likelihood); ``"argmax"`` -> (argmax state of every token,
        log-likelihood), without holding all posteriors at once;
        ``"loglik"`` -> (None, log-likelihood).
        """
        emit_t = np.ascontiguousarray(self.emissionprob_.T)
        S = self.transmat_.shape[0]
        n = ids.shape[0]
        out = {"gamma": lambda: np.zeros((n, S)), "argmax": lambda: np.zeros(n, np.int32),
               "loglik": lambda: None}[output]()
        batches = make_batches(ids, offsets, _BATCH_TOKENS)

        def run(group):
            loglik = 0.0
            for batch in group:
                ll, g = forward_backward(batch, self.startprob_, self.transmat_, emit_t,
                                         want_gamma=out is not None, dtype=np.float64)
                loglik += ll
                # batches hold disjoint sentences: no write conflicts between threads
                if output == "gamma":
                    unpack_rows(batch, g, offsets, out)
                elif output == "argmax":
                    unpack_rows(batch, g.argmax(axis=1).astype(np.int32), offsets, out)
            return loglik

        with _workers(self.n_jobs, len(batches)) as map_groups:
            loglik = sum(map_groups(run, batches))
        return out, loglik

    def posteriors(self, X):
        """Posterior state probabilities of every token.

        Parameters
        ----------
        X : list of sentences

        Returns
        -------
        list of ndarray of shape (n_tokens, n_states)
            ``P(state_t = s | sentence)`` per sentence (rows sum to one),
            computed by scaled forward-backward in float64.
        """
        check_is_fitted(self, "emissionprob_")
        sentences = check_sentences(X)
        ids, offsets = self._encode(sentences)
        gamma, _ = self._forward_backward_all(ids, offsets, "gamma")
        return [gamma[offsets[i]:offsets[i + 1]] for i in range(len(sentences))]

    def score(self, X, y=None):
        """Average log-likelihood per token of ``X`` under the model.

        Parameters
        ----------
        X : list of sentences
        y : None
            Ignored.

        Returns
        -------
        float
            ``log P(X) / n_tokens`` (natural log; ``0.0`` for no tokens).
        """
        check_is_fitted(self, "emissionprob_")
        sentences = check_sentences(X)
        ids, offsets = self._encode(sentences)
        _, loglik = self._forward_backward_all(ids, offsets, "loglik")
        return loglik / max(int(ids.shape[0]), 1)

    def predict_states(self, X):
        """State index of every token (``output`` decides Viterbi or posterior).

        Parameters
        ----------
        X : list of sentences

        Returns
        -------
        list of ndarray of int32
            One array of states per sentence.
        """
        sentences, states, offsets = self._decode(X)
        return [states[offsets[i]:offsets[i + 1]] for i in range(len(sentences))]

    def _decode(self, X):
        """``(sentences, state of every token, sentence offsets)`` by ``output``."""
        check_is_fitted(self, "emissionprob_")
        self._validate_params()
        sentences = check_sentences(X)
        ids, offsets = self._encode(sentences)
        if self.output == "viterbi":
            n = min(effective_n_jobs(self.n_jobs), numba.config.NUMBA_NUM_THREADS)
            before = numba.get_num_threads()
            numba.set_num_threads(max(n, 1))
            try:
                states, _ = viterbi_paths(ids, offsets, self.startprob_, self.transmat_,
                                          self.emissionprob_.T)
            finally:
                numba.set_num_threads(before)
        else:
            states = self._forward_backward_all(ids, offsets, "argmax")[0]
        return sentences, states, offsets

    def transform(self, X):
        """Annotate every token with its HMM state.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.

        Returns
        -------
        list of Sentence
            New sentences whose column ``annotation`` holds ``"h<state>"``
            for every token; other columns are carried over (a column of
            the same name is replaced).  ``X`` is not modified.
        """
        sentences, states, offsets = self._decode(X)
        names = np.array([f"h{s}" for s in range(self.transmat_.shape[0])], dtype=object)
        values = names[states].tolist()
        ann = self.annotation
        return [
            s.with_annotations(**{ann: values[offsets[i]:offsets[i + 1]]})
            for i, s in enumerate(sentences)
        ]
