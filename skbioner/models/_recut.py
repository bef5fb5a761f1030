"""A tagger that sees every sentence re-cut at hyphens and slashes by one rule."""

from __future__ import annotations

import itertools

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._validation import HasMethods, StrOptions, fit_context
from ..base import (
    DelegatingTaggerMixin,
    LabelSequences,
    SequenceTaggerMixin,
    classes_of,
    head_transform,
    split_pipeline,
)
from ..schemes import labels_to_spans, spans_to_labels
from ..text._cuts import CutTable
from ..text._recut import CONNECTORS, cut_at_boundaries, recut

__all__ = ["LearnedCutTagger", "RecutTagger"]


def _has(method):
    """``available_if`` check: the tagger's last step has ``method``."""
    def check(self):
        return hasattr(split_pipeline(getattr(self, "tagger_", self.tagger))[1], method)
    return check


class RecutTagger(SequenceTaggerMixin, BaseEstimator):
    """A tagger that sees words cut at hyphens and slashes the same way, corpus or raw text.

    The JNLPBA corpus cuts a word only where an entity boundary falls inside
    it (``Tax -induced``, ``ATF / CREB``, but ``IL-2-induced``), so a
    tagger trained on its tokens learns that a token such as ``-induced``
    follows an entity, which raw text never says: scored on the corpus's
    tokens it looks better than it tags raw text.  This wrapper re-cuts
    every sentence with :func:`skbioner.text.recut` before its tagger sees
    it: tokens linked by a hyphen or slash are joined back into words
    (``Tax-induced``) and cut again by a rule that does not know the
    entities (``cuts``).  It does so when fitting (each gold entity keeps
    the new tokens inside it), when predicting (the predicted entities are
    mapped back onto the input tokens, so on gold tokens it is scored as
    any tagger) and when tagging raw text (:func:`skbioner.tag_documents`,
    ``skbioner tag``), where the new tokens themselves are tagged
    (:meth:`split_tokens`), so an entity may end inside a word.  Its
    token-level and raw-text scores then measure the same thing.

    Parameters
    ----------
    tagger : estimator or Pipeline
        Maps sentences to IOB2 labels (e.g. a featurizer and
        :class:`OnlinePACRF`); fitted on the re-cut sentences.
    cuts : "jnlpba", CutTable or None, default=None
        How the joined words are cut.  None: at every hyphen and slash (each
        a token of its own: sub-word pieces), which changes nothing on a
        corpus whose tokens already cut there (BioNLP13CG).  ``"jnlpba"``:
        the learned table of ``BioTokenizer(cuts="jnlpba")``
        (:func:`skbioner.text.load_cut_table`), which joins what the JNLPBA
        corpus keeps whole (the bundled model; on BioNLP13CG it costs four
        points, ``docs/lab/benchmarks.md``); or a :class:`~skbioner.text.CutTable`.

    Attributes
    ----------
    tagger_ : estimator or Pipeline
        The fitted clone of ``tagger``.
    classes_ : ndarray of str
        The IOB2 labels (the tagger's ``classes_``).

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from skbioner.datasets import load_jnlpba_sample
    >>> from skbioner.features import TokenFeaturizer
    >>> from skbioner.models import OnlinePACRF, RecutTagger
    >>> train = load_jnlpba_sample("train")
    >>> model = RecutTagger(make_pipeline(TokenFeaturizer(), OnlinePACRF(random_state=0)),
    ...                     cuts="jnlpba")
    >>> model = model.fit(train.X[:200], train.y[:200])
    >>> len(model.predict([["Tax", "-induced", "IL-2", "gene"]])[0])
    4
    """

    _parameter_constraints = {
        "tagger": [HasMethods(["fit", "predict"])],
        "cuts": [StrOptions({"jnlpba"}), CutTable, None],
    }

    def __init__(self, tagger, cuts=None):
        self.tagger = tagger
        self.cuts = cuts

    @fit_context
    def fit(self, X, y):
        """Fit the tagger on the re-cut sentences, each entity on the new tokens inside it.

        Parameters
        ----------
        X : list of Sentence
            Training sentences.
        y : list of list of str
            IOB2 labels of their tokens.

        Returns
        -------
        self : RecutTagger
        """
        X, y = check_sentences(X, y, scheme="IOB2")
        sents, owners = recut(X, self.cuts)
        self.tagger_ = clone(self.tagger).fit(sents, _project(y, sents, owners))
        self.classes_ = classes_of(self.tagger_)
        return self

    def split_tokens(self, X, offsets=None):
        """The sentences as the tagger sees them (:func:`skbioner.text.recut`).

        Parameters
        ----------
        X : list of Sentence
        offsets : list of ndarray of shape (n_tokens, 2), optional
            Character offsets of the tokens (raw-text tagging).

        Returns
        -------
        sentences : list of Sentence
            The re-cut sentences.
        new_offsets : list of ndarray of shape (n_new, 2)
            Only with ``offsets``: the new tokens' character offsets.
        """
        check_is_fitted(self, "tagger_")
        if offsets is None:
            return recut(X, self.cuts)[0]
        sents, _, off = recut(X, self.cuts, offsets)
        return sents, off

    def predict(self, X):
        """IOB2 labels of the input tokens (the entities of the re-cut tokens, mapped back).

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of str
        """
        check_is_fitted(self, "tagger_")
        X = check_sentences(X)
        sents, owners = recut(X, self.cuts)
        out = []
        for sent, own, labs in zip(X, owners, self.tagger_.predict(sents), strict=True):
            if own is None:
                out.append(list(labs))
                continue
            spans = _back([(t, i, j, None) for t, i, j in labels_to_spans(labs)], own)
            out.append(spans_to_labels([s[:3] for s in spans], len(sent), "IOB2"))
        return LabelSequences(out)

    def _recut_head(self, X):
        """``(X, owners, tagger's final step, re-cut X as that step reads it)``."""
        check_is_fitted(self, "tagger_")
        X = check_sentences(X)
        sents, owners = recut(X, self.cuts)
        return X, owners, *head_transform(self.tagger_, sents)[::-1]

    @available_if(_has("predict_entities"))
    def predict_entities(self, X):
        """Entities of the input tokens, with the tagger's probabilities.

        Entities that fall in the same input token are merged (type of the
        first, the lower probability).

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of (str, int, int, float)
            Per sentence, ``(type, start, end, probability)`` in input-token
            offsets (end excluded).
        """
        X, owners, final, Xt = self._recut_head(X)
        spans = final.predict_entities(Xt)
        return [list(sp) if own is None else _back(sp, own)
                for own, sp in zip(owners, spans, strict=True)]

    @available_if(_has("predict_marginals"))
    def predict_marginals(self, X):
        """Per-token label probabilities: those of the first new token holding the token.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of ndarray of shape (n_tokens, n_classes)
            Columns in the order of ``classes_``.
        """
        X, owners, final, Xt = self._recut_head(X)
        marg = final.predict_marginals(Xt)
        return [m if own is None else m[np.searchsorted(own[:, 1], np.arange(len(s)))]
                for s, own, m in zip(X, owners, marg, strict=True)]


def _unglued(pieces, owners):
    """Per sentence of pieces, the piece indices ``k`` where two input tokens meet and stay apart.

    Tokens are glued back only at a hyphen or slash between two word characters
    (``Tax`` ``-induced``, ``anti-`` ``CD3``): never to a bracket or other
    punctuation the tokenizer split off (``)`` ``-induced``, ``--`` ``and``),
    which no corpus token holds.  Only where a connector meets a token boundary
    is anything looked at in Python.
    """
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    out = [set() for _ in pieces]
    if not lengths.sum():
        return out
    words = list(itertools.chain.from_iterable(pieces))
    sent = np.repeat(np.arange(len(pieces)), lengths)
    own = np.concatenate([o[:, 0] for o in owners])
    con = np.fromiter((w in CONNECTORS for w in words), dtype=bool, count=len(words))
    same = sent[1:] == sent[:-1]
    meet = same & (own[1:] != own[:-1]) & (con[1:] | con[:-1])  # before piece k + 1
    starts = np.r_[0, np.cumsum(lengths)]

    def inner(m):  # a connector piece between two word characters of its sentence
        return (con[m] and 0 < m < len(words) - 1 and same[m - 1] and same[m]
                and words[m - 1][-1].isalnum() and words[m + 1][0].isalnum())

    for k in (np.flatnonzero(meet) + 1).tolist():
        if not (inner(k) or inner(k - 1)):
            out[sent[k]].add(k - int(starts[sent[k]]))
    return out


def _project(y, sents, owners):
    """Labels of the new tokens: each gold entity on the new tokens wholly inside it."""
    out = []
    for labs, sent, own in zip(y, sents, owners, strict=True):
        if own is None:
            out.append(labs)
            continue
        spans = []
        for t, a, b in labels_to_spans(labs):
            i = int(np.searchsorted(own[:, 0], a, side="left"))
            j = int(np.searchsorted(own[:, 1], b - 1, side="right"))
            if i < j:
                spans.append((t, i, j))
        out.append(spans_to_labels(spans, len(sent), "IOB2"))
    return out


def _back(spans, own):
    """Spans of new tokens as spans of input tokens, overlapping ones merged."""
    out = []
    for t, i, j, p in spans:
        a, b = int(own[i, 0]), int(own[j - 1, 1]) + 1
        if out and a < out[-1][2]:
            t0, a0, b0, p0 = out[-1]
            out[-1] = (t0, a0, max(b, b0), p0 if p is None else min(p, p0))
        else:
            out.append((t, a, b, p))
    return out


class LearnedCutTagger(DelegatingTaggerMixin, BaseEstimator):
    """A tagger of the corpus's tokens whose raw-text word cuts a tagger of sub-word pieces decides.

    The JNLPBA corpus cuts a word where an entity starts or ends inside it
    (``Tax`` ``-induced``, ``ATF`` ``/`` ``CREB``) and keeps it whole
    otherwise (``IL-2-induced``), so whether raw text should be cut there
    depends on the entities.  This wrapper fits two taggers on the same
    sentences: ``tagger`` on the corpus's tokens, as they are, and
    ``cut_tagger`` on the sentences cut into pieces at every hyphen and slash
    (each gold entity on the pieces inside it, as :class:`RecutTagger` with
    ``cuts=None``).  On tokens (``predict``, ``predict_entities``,
    ``predict_marginals``) it is ``tagger`` alone: its outputs are those of
    the tagger unwrapped.  On raw text (:func:`skbioner.tag_documents`,
    ``skbioner tag``), every word holding a hyphen or slash is cut into
    pieces, ``cut_tagger`` tags them, and the word is cut only where it puts
    an entity boundary (:func:`skbioner.text.cut_at_boundaries`); ``tagger``
    then tags these tokens (:meth:`split_tokens`).  The cuts the corpus made
    by its annotations are thus decided by a model of the annotations and of
    the context (``docs/lab/benchmarks.md``, "Raw text: cuts decided by a tagger
    of pieces"), not by a table of words.

    Parameters
    ----------
    tagger : estimator or Pipeline
        Maps sentences to IOB2 labels (e.g. a featurizer and
        :class:`OnlinePACRF`); fitted on the sentences as given.
    cut_tagger : estimator, Pipeline or None, default=None
        Fitted on the sentences cut into pieces; only its labels are read
        (confidences need not be calibrated).  None: a clone of ``tagger``.

    Attributes
    ----------
    tagger_ : estimator or Pipeline
        The fitted clone of ``tagger``.
    cut_tagger_ : estimator or Pipeline
        The fitted clone of ``cut_tagger``, a tagger of pieces.
    classes_ : ndarray of str
        The IOB2 labels (the tagger's ``classes_``).

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from skbioner.datasets import load_jnlpba_sample
    >>> from skbioner.features import TokenFeaturizer
    >>> from skbioner.models import LearnedCutTagger, OnlinePACRF
    >>> train = load_jnlpba_sample("train")
    >>> model = LearnedCutTagger(make_pipeline(TokenFeaturizer(), OnlinePACRF(random_state=0)))
    >>> model = model.fit(train.X[:200], train.y[:200])
    >>> len(model.predict([["Tax", "-induced", "IL-2", "gene"]])[0])
    4
    """

    _parameter_constraints = {
        "tagger": [HasMethods(["fit", "predict"])],
        "cut_tagger": [HasMethods(["fit", "predict"]), None],
    }

    _delegate = "tagger_"  # predict, predict_entities, predict_marginals: the tagger's

    def __init__(self, tagger, cut_tagger=None):
        self.tagger = tagger
        self.cut_tagger = cut_tagger

    @fit_context
    def fit(self, X, y):
        """Fit the tagger on the sentences and the cut tagger on their pieces.

        Parameters
        ----------
        X : list of Sentence
            Training sentences.
        y : list of list of str
            IOB2 labels of their tokens.

        Returns
        -------
        self : LearnedCutTagger
        """
        X, y = check_sentences(X, y, scheme="IOB2")
        self.tagger_ = clone(self.tagger).fit(X, y)
        sents, owners = recut(X, None)
        cut = self.tagger if self.cut_tagger is None else self.cut_tagger
        self.cut_tagger_ = clone(cut).fit(sents, _project(y, sents, owners))
        self.classes_ = classes_of(self.tagger_)
        return self

    def _delegated(self, X):
        check_is_fitted(self, "tagger_")
        Xt, final = head_transform(self.tagger_, X)
        return final, Xt

    def split_tokens(self, X, offsets=None):
        """The tokens to tag in raw text: words cut where the cut tagger puts a boundary.

        Parameters
        ----------
        X : list of Sentence
            Sentences of raw text as a tokenizer cut them (however it cut their
            hyphenated words: they are joined again; two tokens are joined only
            at a hyphen or slash between word characters, ``Tax`` ``-induced``,
            never to punctuation split off, ``)`` ``-induced``).
        offsets : list of ndarray of shape (n_tokens, 2), optional
            Character offsets of the tokens; pieces glue into a word only where
            they touch in the text.  Without them, pieces linked by a hyphen or
            slash glue whatever the spaces.

        Returns
        -------
        sentences : list of Sentence
            The sentences to tag with ``tagger_``; a sentence without a hyphen
            or slash is the input object.
        new_offsets : list of ndarray of shape (n_new, 2)
            Only with ``offsets``: the new tokens' character offsets.
        """
        check_is_fitted(self, "cut_tagger_")
        X = check_sentences(X)
        pieces, owners, piece_off = ((*recut(X, None), None) if offsets is None
                                     else recut(X, None, offsets))
        todo = [k for k, own in enumerate(owners) if own is not None]  # a - or / inside
        labels = self.cut_tagger_.predict([pieces[k] for k in todo]) if todo else []
        bounds = _unglued([pieces[k] for k in todo], [owners[k] for k in todo])
        for b, labs in zip(bounds, labels, strict=True):
            b.update(p for _, i, j in labels_to_spans(labs) for p in (i, j))
        sub = cut_at_boundaries([pieces[k] for k in todo], bounds,
                                None if piece_off is None else [piece_off[k] for k in todo])
        out = list(X)
        if offsets is None:
            for n, k in enumerate(todo):
                out[k] = sub[n]
            return out
        new_off = [np.asarray(o, dtype=np.int64) for o in offsets]
        for n, k in enumerate(todo):
            out[k], new_off[k] = sub[0][n], sub[1][n]
        return out, new_off
