"""Re-cut tokens at hyphens and slashes by a rule that does not know the entities.

The JNLPBA corpus cuts a word where an entity ends inside it (``Tax -induced``,
``ATF / CREB``) and keeps it whole otherwise (``IL-2``), so a tagger trained on
its tokens learns that a token starting with ``-induced`` follows an entity: a
clue that raw text does not give.  :func:`recut` joins the tokens linked by a
hyphen or slash back into words (``Tax`` ``-induced`` -> ``Tax-induced``) and
cuts every such word again by one rule, the same for the corpus's tokens and for
raw text: at every hyphen and slash (sub-word pieces), or where a learned
:class:`~skbioner.text.CutTable` says the corpus usually cuts.  Used by
:class:`skbioner.models.RecutTagger`.
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from .._sentence import Sentence
from ._cuts import CONNECTORS, load_cut_table

__all__ = ["cut_at_boundaries", "hyphen_cut_share", "recut"]

#: Joins the tokens of a batch before one ``re.split``; a batch holding it falls
#: back to cutting token by token.
_SEP = "\x1f"  # a unit separator (numpy drops trailing NULs in comparisons)
_SPLIT = re.compile(f"({_SEP}|[{re.escape(CONNECTORS)}])")
_SPLIT_ONE = re.compile(f"([{re.escape(CONNECTORS)}])")


#: the share of hyphens above which a corpus counts as cut at every hyphen (JNLPBA's
#: training tokens: 0.004; BioNLP13CG's and BC5CDR's: 1.0)
EVERY_HYPHEN = 0.9
_INNER_HYPHEN = re.compile(r"\w-\w")


def hyphen_cut_share(X):
    """How a corpus cuts hyphenated words: the share of its hyphens that are tokens alone.

    A corpus cut at every hyphen (BioNLP13CG, BC5CDR: 1.0) should have raw text
    cut the same way (:class:`~skbioner.models.RecutTagger` with ``cuts=None``);
    one that keeps hyphenated words whole (JNLPBA: 0.004) should not.
    ``skbioner train`` decides by it when no ``--recut`` is given.

    Parameters
    ----------
    X : list of Sentence or list of list of str
        Tokenised sentences.

    Returns
    -------
    share : float
        Hyphen tokens over hyphen tokens plus tokens with a hyphen between two
        word characters; ``nan`` when the corpus has neither.
    """
    alone = inner = 0
    for sentence in X:
        for token in getattr(sentence, "tokens", sentence):
            if token == "-":
                alone += 1
            elif "-" in token and _INNER_HYPHEN.search(token):
                inner += 1
    return alone / (alone + inner) if alone + inner else float("nan")


def recut(X, cuts=None, offsets=None):
    """Join the tokens linked by hyphens or slashes into words; cut them again by ``cuts``.

    Every token is first cut into pieces before and after each hyphen and
    slash (``IL-2`` -> ``IL`` ``-`` ``2``).  A run of pieces joined by a
    hyphen or slash piece is a compound word (``Tax`` ``-`` ``induced``,
    whatever spaces the text had); with ``cuts=None`` its pieces are the new
    tokens, with a :class:`~skbioner.text.CutTable` the compound is cut
    only where the table says (``Tax-induced`` -> ``Tax`` ``-induced`` if the
    corpus usually cuts there).  The result depends on the words only, never
    on where the input was cut.

    Parameters
    ----------
    X : list of Sentence or list of list of str
        Tokenised sentences (non-empty tokens).
    cuts : None, "jnlpba" or CutTable, default=None
        None: every piece is a token; ``"jnlpba"``: the table of
        ``BioTokenizer(cuts="jnlpba")`` (:func:`~skbioner.text.load_cut_table`).
    offsets : list of ndarray of shape (n_tokens, 2), optional
        Character offsets of the tokens of each sentence (as
        :meth:`BioTokenizer.tokenize_text` gives them); the new tokens'
        offsets are then returned too (from the start of their first piece
        to the end of their last).

    Returns
    -------
    sentences : list of Sentence
        The re-cut sentences, one per sentence of ``X``; a sentence that
        comes out unchanged is the input object.  Annotation columns and the
        document id follow (a new token takes the annotations of the input
        token of its first piece).
    owners : list of ndarray of shape (n_new, 2) or None
        For each sentence, the first and the last input token each new token
        comes from (both non-decreasing); None for an unchanged sentence.
    new_offsets : list of ndarray of shape (n_new, 2)
        Only with ``offsets``.

    Examples
    --------
    >>> sents, owners = recut([["Tax", "-induced", "IL-2"]])
    >>> list(sents[0]), owners[0].tolist()
    (['Tax', '-', 'induced', 'IL', '-', '2'], [[0, 0], [1, 1], [1, 1], [2, 2], [2, 2], [2, 2]])
    """
    if isinstance(cuts, str):
        cuts = load_cut_table(cuts)
    X = list(X)
    lengths = np.fromiter((len(s) for s in X), dtype=np.int64, count=len(X))
    words = list(itertools.chain.from_iterable(X))
    joined = _SEP.join(words)
    # the separators are those joining the words, unless a word holds one itself
    pieces, owner, start, size, is_con = (_pieces(joined)
                                          if joined.count(_SEP) == max(len(words) - 1, 0)
                                          else _pieces_each(words))
    n = len(pieces)
    # where each sentence's pieces end, and the last piece of each sentence
    sent_end = np.searchsorted(owner, np.cumsum(lengths), side="left")
    is_last = np.zeros(n, dtype=bool)
    is_last[sent_end[sent_end > 0] - 1] = True
    keep = np.ones(max(n - 1, 0), dtype=bool)  # a token boundary after piece i
    if cuts is not None and n > 1:
        keep = _table_boundaries(pieces, is_con, is_last, cuts)
    first = np.flatnonzero(np.r_[True, keep | is_last[:-1]] if n else np.zeros(0, dtype=bool))
    last = (np.r_[first[1:], n] - 1)[:first.size]  # first and last piece of each new token
    text = pieces if cuts is None else _glue(pieces, first, last)
    own = np.stack([owner[first], owner[last]], axis=1)
    base = np.r_[0, np.cumsum(lengths)]
    tok_end = np.searchsorted(first, sent_end, side="left")  # new tokens per sentence
    tok_start = np.r_[0, tok_end[:-1]]
    # a sentence is unchanged when it has as many new tokens as tokens, each within one
    # token (owners never decrease and every token has a piece: each is then a token)
    within = np.r_[0, np.cumsum(own[:, 0] == own[:, 1])]
    n_whole = within[tok_end] - within[tok_start]
    unchanged = (n_whole == lengths) & (tok_end - tok_start == lengths)
    if offsets is not None:
        flat_off = _flat_offsets(offsets)
        begin = flat_off[owner[first], 0] + start[first]
        end = flat_off[owner[last], 0] + start[last] + size[last]
        new_flat = np.stack([begin, end], axis=1)
    out, owners, new_off = [], [], []
    for k, sent in enumerate(X):
        lo, hi = int(tok_start[k]), int(tok_end[k])
        if unchanged[k]:
            out.append(sent if isinstance(sent, Sentence) else Sentence(sent))
            owners.append(None)
            if offsets is not None:
                new_off.append(np.asarray(offsets[k], dtype=np.int64))
        else:
            o = own[lo:hi] - base[k]
            out.append(_sentence(sent, text[lo:hi], o[:, 0]))
            owners.append(o)
            if offsets is not None:
                new_off.append(new_flat[lo:hi])
    return (out, owners, new_off) if offsets is not None else (out, owners)


def _pieces(joined):
    """Pieces, the index of their token and their start inside it, by one ``re.split``."""
    parts = _SPLIT.split(joined)
    arr = np.array(parts, dtype=object)
    size = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    is_sep = arr == _SEP
    pos = np.cumsum(size) - size  # start of each part in ``joined``
    token = np.cumsum(is_sep) - is_sep  # the token each part belongs to
    keep = (size > 0) & ~is_sep
    token_start = np.r_[0, pos[is_sep] + 1]
    owner = token[keep]
    is_con = np.zeros(len(parts), dtype=bool)
    is_con[1::2] = True  # the captured delimiters: a separator or a connector
    is_con &= ~is_sep
    return (arr[keep].tolist(), owner.astype(np.int64), pos[keep] - token_start[owner],
            size[keep], is_con[keep])


def _pieces_each(words):
    """The same as :func:`_pieces`, token by token (the reference, and the fallback)."""
    pieces, owner, start = [], [], []
    for i, w in enumerate(words):
        at = 0
        for part in _SPLIT_ONE.split(w):
            if part:
                pieces.append(part)
                owner.append(i)
                start.append(at)
            at += len(part)
    size = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    is_con = np.fromiter((p in CONNECTORS for p in pieces), dtype=bool, count=len(pieces))
    return (pieces, np.asarray(owner, dtype=np.int64), np.asarray(start, dtype=np.int64), size,
            is_con)


def _table_boundaries(pieces, is_con, is_last, table):
    """Whether a token boundary follows each piece (but the last): the table's cuts.

    Pieces joined by a connector piece form a compound; inside a compound the
    boundaries are the table's cut points of the compound's text, outside
    every piece boundary stays.
    """
    n = len(pieces)
    link = (is_con[:-1] | is_con[1:]) & ~is_last[:-1]
    keep = ~link
    starts = np.flatnonzero(np.r_[True, keep])
    ends = np.r_[starts[1:], n]
    multi = ends - starts > 1
    for a, b in zip(starts[multi].tolist(), ends[multi].tolist()):
        for k in _compound_cuts(tuple(pieces[a:b]), table):  # boundary after piece a + k
            keep[a + k] = True
    return keep


def _compound_cuts(parts, table):
    """Indices k (a boundary after piece k) where ``table`` cuts the compound ``parts``."""
    cut = table.cuts("".join(parts))  # cached by the table
    if not cut:
        return ()
    ends = itertools.accumulate(len(p) for p in parts[:-1])
    return tuple(k for k, e in enumerate(ends) if e in cut)


def _glue(pieces, first, last):
    """The text of each new token, pieces ``first[k]..last[k]`` (Python joins only those
    of several pieces)."""
    text = [pieces[i] for i in first.tolist()]
    for k in np.flatnonzero(last > first).tolist():
        text[k] = "".join(pieces[first[k]:last[k] + 1])
    return text


def _flat_offsets(offsets):
    """The offsets of all sentences in one ``(n_tokens, 2)`` int64 array."""
    return np.concatenate([np.zeros((0, 2), dtype=np.int64),
                           *(np.asarray(o, dtype=np.int64).reshape(-1, 2) for o in offsets)])


def _sentence(sent, words, first_owner):
    if isinstance(sent, Sentence):
        idx = first_owner.tolist()
        cols = {name: [col[i] for i in idx] for name, col in sent.annotations.items()}
        return Sentence(words, doc_id=sent.doc_id, **cols)
    return Sentence(words)


def cut_at_boundaries(pieces, boundaries, offsets=None):
    """Glue sub-word pieces back into words, cut only where an entity boundary falls.

    ``pieces`` are sentences cut at every hyphen and slash (``recut(X, None)``:
    ``Tax`` ``-`` ``induced``).  Pieces linked by a hyphen or slash piece (and,
    with ``offsets``, touching in the text) are glued back into one token unless
    ``boundaries`` has a boundary between them, which a tagger of pieces puts where
    an entity starts or ends inside a word: ``Tax|-induced`` -> ``Tax``
    ``-induced`` (the corpus's way), ``IL-2-induced`` -> ``IL-2-induced``.  Used
    by :class:`skbioner.models.LearnedCutTagger` on raw text.

    Parameters
    ----------
    pieces : list of Sentence
        Sentences of pieces (annotation columns and document id follow).
    boundaries : list of set of int
        Per sentence, the piece indices ``k`` with a boundary before piece ``k``.
    offsets : list of ndarray of shape (n_pieces, 2), optional
        The pieces' character offsets; glued tokens then span from their first
        piece's start to their last piece's end, and pieces apart in the text
        (``Tax - induced``) are never glued.

    Returns
    -------
    sentences : list of Sentence
    new_offsets : list of ndarray of shape (n_tokens, 2)
        Only with ``offsets``.

    Examples
    --------
    >>> sents = cut_at_boundaries([["Tax", "-", "induced", "IL", "-", "2"]], [{1}])
    >>> list(sents[0])
    ['Tax', '-induced', 'IL-2']
    """
    pieces = list(pieces)
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    base = np.r_[0, np.cumsum(lengths)]  # each sentence's first piece in the batch
    n = int(base[-1])
    words = list(itertools.chain.from_iterable(pieces))
    con = np.fromiter((w in CONNECTORS for w in words), dtype=bool, count=n)
    cut = ~(con[:-1] | con[1:])  # a token boundary after piece i of the batch
    ends = base[1:-1]
    cut[ends[(ends > 0) & (ends < n)] - 1] = True  # sentence ends (not the batch's)
    if offsets is not None and n:
        flat_off = _flat_offsets(offsets)
        cut |= flat_off[:-1, 1] != flat_off[1:, 0]  # pieces apart in the text
    bound = [int(base[k]) + b - 1 for k, bs in enumerate(boundaries) for b in bs
             if 0 < b < lengths[k]]
    cut[bound] = True
    first = np.flatnonzero(np.r_[True, cut]) if n else np.zeros(0, dtype=np.int64)
    last = np.r_[first[1:], n] - 1
    text = _glue(words, first, last)
    tok = np.searchsorted(first, base)  # each sentence's first token
    out, new_off = [], []
    for k, sent in enumerate(pieces):
        lo, hi = int(tok[k]), int(tok[k + 1])
        if hi - lo == lengths[k]:  # nothing glued
            out.append(sent if isinstance(sent, Sentence) else Sentence(sent))
            if offsets is not None:
                new_off.append(np.asarray(offsets[k], dtype=np.int64))
            continue
        out.append(_sentence(sent, text[lo:hi], first[lo:hi] - base[k]))
        if offsets is not None:
            new_off.append(np.stack([flat_off[first[lo:hi], 0], flat_off[last[lo:hi], 1]],
                                    axis=1))
    return (out, new_off) if offsets is not None else out
