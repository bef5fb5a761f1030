"""``RuleChunker``: noun, verb and prepositional phrases read off the part of speech."""

from __future__ import annotations

from itertools import chain

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from .._sentence import Sentence, check_sentences
from .._validation import ColumnName, fit_context
from ..base import SentenceTransformerMixin
from ..features._corpus import factorize

__all__ = ["RuleChunker"]

# word categories of the Penn tags; any other tag (CC, punctuation, RP, WRB...) is outside
_O, _N, _J, _D, _P, _V, _G, _R, _T, _I = range(10)
_CATEGORY = {
    **dict.fromkeys(("NN", "NNS", "NNP", "NNPS", "CD", "FW", "SYM", "PRP", "EX", "WP"), _N),
    **dict.fromkeys(("JJ", "JJR", "JJS"), _J),
    **dict.fromkeys(("DT", "PDT", "PRP$", "WDT", "WP$"), _D),
    "POS": _P, **dict.fromkeys(("MD", "VB", "VBD", "VBP", "VBZ"), _V),
    **dict.fromkeys(("VBN", "VBG"), _G), **dict.fromkeys(("RB", "RBR", "RBS"), _R),
    "TO": _T, "IN": _I,
}
#: The tags written, indexed by 2 * chunk type (O, NP, VP, PP) + starts-a-chunk.
CHUNK_TAGS = ("O", "O", "I-NP", "B-NP", "I-VP", "B-VP", "I-PP", "B-PP")


def _chunk_codes(categories, starts):
    """Indices into :data:`CHUNK_TAGS` of tokens of word ``categories`` (sentences
    concatenated; ``starts``: True at each sentence's first token)."""
    c = np.asarray(categories, dtype=np.int64)
    n = c.size
    ends = np.zeros(n, dtype=bool)
    ends[:-1] = starts[1:]
    ends[-1:] = True
    prev, nxt = np.roll(c, 1), np.roll(c, -1)
    prev[starts], nxt[ends] = -1, -1
    # a participle before a noun or adjective and after no verb modifies a noun:
    # "activated T cells", but "were activated", "cells activated by"
    c = np.where((c == _G) & np.isin(nxt, (_N, _J)) & ~np.isin(prev, (_V, _G, _R, _T)), _J, c)
    verbal = np.isin(c, (_V, _G))
    to_verb = (c == _T) & np.isin(nxt, (_V, _G))
    adverb_in = (c == _R) & np.isin(prev, (_V, _G)) & np.isin(nxt, (_V, _G))  # "was not found"
    # noun phrases: runs of determiners, adjectives, nouns and possessives; a determiner
    # after a noun or a word after a possessive begins a new one; a run without a noun or
    # determiner ("is important") is no noun phrase
    nominal = np.isin(c, (_N, _J, _D, _P))
    prev_nominal = np.roll(nominal, 1)
    prev_nominal[starts] = False
    np_start = nominal & (~prev_nominal | ((c == _D) & np.isin(prev, (_N, _J, _P)))
                          | (prev == _P))
    run = np.cumsum(np_start) - 1
    headed = np.bincount(run[nominal], weights=np.isin(c, (_N, _D))[nominal],
                         minlength=int(run[-1]) + 1 if n else 0) > 0
    kind = np.zeros(n, dtype=np.int64)
    kind[nominal] = np.where(headed[run[nominal]], 1, 0)
    kind[verbal | to_verb | adverb_in] = 2
    kind[(c == _I) | ((c == _T) & ~to_verb)] = 3
    prev_kind = np.roll(kind, 1)
    prev_kind[starts] = -1
    begin = (kind != prev_kind) | ((kind == 1) & np_start) | (kind == 3)
    return 2 * kind + (begin & (kind > 0))


class RuleChunker(SentenceTransformerMixin, TransformerMixin, BaseEstimator):
    """Add noun, verb and prepositional phrase chunks (IOB2) read off the part of speech.

    A rule-based approximation of a CoNLL-2000 style chunker (NERBio,
    Tsai et al. 2006, reads a trained chunker's tags; no chunk-annotated
    biomedical corpus is at hand): over the Penn tags of the ``pos``
    column (:class:`POSTagger`), a noun phrase is a run of determiners,
    adjectives, nouns, numbers and pronouns holding a noun, number, pronoun
    or determiner (a determiner after a noun, or a word after a possessive,
    starts a new one; a participle before a noun and after no verb is a
    modifier: ``activated T cells``); a verb phrase is a run of verbs with
    a ``to`` before them and adverbs between them (``was not detected``);
    ``IN`` and any other ``to`` make a one-word prepositional phrase.  The
    other CoNLL chunks (ADJP, ADVP, SBAR...) are ``O``.  Vectorised over all
    tokens of a call.  Nothing is learned: ``fit`` only validates.

    Parameters
    ----------
    pos_column : str, default="pos"
        The part-of-speech annotation read; every sentence must have it.
    column : str, default="chunk"
        Name of the added annotation (the ``chunk`` feature kind reads it).

    Attributes
    ----------
    annotation_names_ : tuple of str
        ``(column,)``.

    Examples
    --------
    >>> from skbioner import Sentence
    >>> from skbioner.annotate import RuleChunker
    >>> s = Sentence(["The", "activated", "T", "cells", "were", "not", "found", "in", "blood"],
    ...              pos=["DT", "VBN", "NN", "NNS", "VBD", "RB", "VBN", "IN", "NN"])
    >>> RuleChunker().fit_transform([s])[0].column("chunk")
    ('B-NP', 'I-NP', 'I-NP', 'I-NP', 'B-VP', 'I-VP', 'I-VP', 'B-PP', 'B-NP')
    """

    _parameter_constraints = {"pos_column": [ColumnName()], "column": [ColumnName()]}

    def __init__(self, pos_column="pos", column="chunk"):
        self.pos_column = pos_column
        self.column = column

    @fit_context
    def fit(self, X=None, y=None):
        """Nothing to learn.

        Parameters
        ----------
        X, y : ignored

        Returns
        -------
        self : RuleChunker
        """
        self.annotation_names_ = (self.column,)
        return self

    def transform(self, X):
        """Add the chunk column to every sentence.

        Parameters
        ----------
        X : list of Sentence
            Each with the ``pos_column`` annotation.

        Returns
        -------
        list of Sentence
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "annotation_names_")
        sentences = check_sentences(X, require_annotations=(self.pos_column,))
        tags, ids = factorize(list(chain.from_iterable(s.column(self.pos_column)
                                                       for s in sentences)))
        table = np.array([_CATEGORY.get(t.split("|")[0], _O) for t in tags], dtype=np.int64)
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        starts = np.zeros(int(bounds[-1]), dtype=bool)
        starts[bounds[:-1][lengths > 0]] = True
        values = np.asarray(CHUNK_TAGS, dtype=object)[_chunk_codes(table[ids], starts)].tolist()
        b = bounds.tolist()
        return [Sentence._checked(s, {**s._cols, self.column: tuple(values[b[i]:b[i + 1]])},
                                  s.doc_id) for i, s in enumerate(sentences)]
