"""Documents with character-offset entities -> tokens and IOB2 labels, for training."""

from __future__ import annotations

import re
import warnings

import numpy as np

from .._sentence import Sentence
from ..io._brat import is_discontinuous
from ..io._warnings import CorpusWarning
from ._tokenize import BioTokenizer, _check_boundaries, _force_boundaries, _tokenized

__all__ = ["tokenize_documents"]

_CHUNK = re.compile(r"\S+")
_LINE = re.compile(r"[^\n]+")
#: Examples named per kind of problem in a warning before the rest are only counted.
_MAX_NAMED = 3


class _WhitespaceTokenizer:
    """Sentences are lines, tokens runs of non-blank characters (cut at ``boundaries``).

    The inverse of writing a column file's tokens joined by spaces, one
    sentence per line (:func:`skbioner.io.corpus_to_documents`).
    """

    def tokenize_document(self, text, boundaries=None):
        bounds = _check_boundaries(boundaries)
        lines = [[m.span() for m in _CHUNK.finditer(text, *line.span())]
                 for line in _LINE.finditer(text)]
        return _tokenized(text, [((s[0][0], s[-1][1]), _force_boundaries(s, bounds))
                                 for s in lines if s])


def _check_tokenizer(tokenizer):
    if tokenizer is None:  # words cut only where an entity boundary falls, as in JNLPBA
        return BioTokenizer(split_suffixes=False, cuts=None)
    if isinstance(tokenizer, str) and tokenizer == "whitespace":
        return _WhitespaceTokenizer()
    if not hasattr(tokenizer, "tokenize_document"):
        raise TypeError("tokenizer must be None, 'whitespace' or an object with a "
                        f"tokenize_document(text, boundaries) method (BioTokenizer), got "
                        f"{tokenizer!r:.80}")
    return tokenizer


class _Problems:
    """What could not be labelled, per kind, for the warnings at the end."""

    KINDS = {
        "unaligned": "not labelled: they cover no token (blank text?)",
        "nested": "not labelled: nested inside another entity or on its span (IOB2 labels "
                  "cannot nest; the outer one, or the first, is kept)",
        "overlapping": "not labelled: overlapping another entity without lying inside it "
                       "(the first one is kept)",
        "discontinuous": "with fragments, labelled as their whole span",
    }

    def __init__(self):
        self.found = {kind: [] for kind in self.KINDS}

    def add(self, kind, doc_id, entity, text):
        self.found[kind].append((doc_id, entity.type, entity.start, entity.end,
                                 text[entity.start:entity.end]))

    def warn(self):
        for kind, items in self.found.items():
            if not items:
                continue
            docs = list(dict.fromkeys(d for d, *_ in items))
            shown = "; ".join(f"document {d!r}: {t} {s!r} at {a}:{b}"
                              for d, t, a, b, s in items[:_MAX_NAMED])
            more = f" (and {len(items) - _MAX_NAMED} more)" if len(items) > _MAX_NAMED else ""
            one = len(items) == 1
            warnings.warn(
                f"{len(items)} entit{'y' if one else 'ies'} in {len(docs)} document"
                f"{'' if len(docs) == 1 else 's'} {self.KINDS[kind]}: {shown}{more}",
                CorpusWarning, stacklevel=3)


def _kept_entities(doc, problems):
    """``(start, end, type)`` of the entities IOB2 labels can hold, whitespace trimmed."""
    text = doc.text
    spans, seen = [], set()
    for k, e in enumerate(doc.entities):
        if is_discontinuous(e, text):
            problems.add("discontinuous", doc.id, e, text)
        inner = text[e.start:e.end]
        start = e.start + len(inner) - len(inner.lstrip())
        end = start + len(inner.strip())
        if start == end:
            problems.add("unaligned", doc.id, e, text)
            continue
        if (start, end, e.type) in seen:
            continue  # the same entity twice
        seen.add((start, end, e.type))
        spans.append((start, -end, k, e))
    spans.sort(key=lambda s: s[:3])  # outer first, then in document order
    kept = []
    last_end = -1
    for start, neg_end, _, e in spans:
        end = -neg_end
        if start < last_end:
            problems.add("nested" if end <= last_end else "overlapping", doc.id, e, text)
            continue
        kept.append((start, end, e.type))
        last_end = end
    return kept


def _label_document(doc, tokenizer, problems):
    """``(sentences, labels, offsets)`` of one document."""
    kept = _kept_entities(doc, problems)
    bounds = [b for s, e, _ in kept for b in (s, e)]
    tokenized = tokenizer.tokenize_document(doc.text, bounds)
    if not tokenized:
        for s, e, t in kept:
            problems.found["unaligned"].append((doc.id, t, s, e, doc.text[s:e]))
        return [], [], []
    lengths = np.array([len(t.sentence) for t in tokenized])
    offsets = np.concatenate([t.offsets for t in tokenized]).reshape(-1, 2)
    sentence_of = np.repeat(np.arange(len(tokenized)), lengths)
    n = len(offsets)
    labels = np.full(n, "O", dtype=object)
    joined = np.zeros(len(tokenized), dtype=bool)  # sentence k continues into k + 1
    if kept:
        starts, ends = np.array([(s, e) for s, e, _ in kept]).T
        first = np.searchsorted(offsets[:, 0], starts)
        last = np.searchsorted(offsets[:, 1], ends)
        ok = (first < n) & (last < n)
        ok[ok] &= (offsets[first[ok], 0] == starts[ok]) & (offsets[last[ok], 1] == ends[ok])
        for k in np.flatnonzero(~ok):
            s, e, t = kept[k]
            problems.found["unaligned"].append((doc.id, t, int(s), int(e), doc.text[s:e]))
        for k in np.flatnonzero(ok):
            i, j, typ = first[k], last[k], kept[k][2]
            labels[i] = "B-" + typ
            labels[i + 1:j + 1] = "I-" + typ
            joined[sentence_of[i]:sentence_of[j]] = True  # an entity across a sentence break
    ends = np.cumsum(lengths)[~joined].tolist()  # of the sentences joined up
    cuts = list(zip([0, *ends[:-1]], ends, strict=True))
    words = [w for t in tokenized for w in t.sentence]
    return ([Sentence(words[a:b], doc_id=doc.id) for a, b in cuts],
            [labels[a:b].tolist() for a, b in cuts], [offsets[a:b] for a, b in cuts])


def tokenize_documents(documents, tokenizer=None, *, return_offsets=False):
    """Tokens and IOB2 labels of documents annotated with character spans.

    Each text is split into sentences and tokens, the entity offsets passed
    as ``boundaries`` so that no token straddles an entity edge (``Tax`` of
    ``Tax-induced`` becomes a token of its own when it is an entity); each
    entity then labels its tokens ``B-type``, ``I-type``...; a sentence break
    inside an entity (the sentence splitter's mistake, as the annotation
    shows) joins the two sentences.

    Parameters
    ----------
    documents : iterable of BratDocument
        E.g. from :func:`skbioner.io.read_documents`.
    tokenizer : BioTokenizer, "whitespace" or None, default=None
        None: ``BioTokenizer(split_suffixes=False)``, the JNLPBA/GENIA
        conventions with words cut only where an entity boundary falls, as
        the JNLPBA files were made (on the JNLPBA test abstracts it
        reproduces 99.98% of the tokens of ``test.iob2`` and all its
        entities: ``benchmarks/archive/formats_standoff.py``).
        ``"whitespace"``: lines are sentences and blank-separated runs
        tokens, the inverse of a column file's text as
        :func:`skbioner.io.corpus_to_documents` writes it.
    return_offsets : bool, default=False
        Also return the tokens' character offsets.

    Returns
    -------
    X : list of Sentence
        With ``doc_id`` the document id.
    y : list of list of str
        IOB2 labels.
    offsets : list of ndarray of shape (n_tokens, 2)
        Only with ``return_offsets=True``.

    Warns
    -----
    CorpusWarning
        For the entities IOB2 labels cannot hold, one warning per kind with
        the number of entities and documents and the first few named
        (document, type, text, offsets): nested ones (the outer is kept),
        overlapping ones (the first is kept), discontinuous ones (labelled
        as their whole span), and any that cover no token.  Leading and
        trailing blanks of an entity are not part of it.

    Examples
    --------
    >>> from skbioner.io import BratDocument, Entity
    >>> doc = BratDocument("d1", "Tax-induced IL-2 genes.", [
    ...     Entity("T1", "protein", 0, 3, "Tax"), Entity("T2", "DNA", 12, 22, "IL-2 genes")])
    >>> X, y = tokenize_documents([doc])
    >>> list(X[0]), y[0], X[0].doc_id
    (['Tax', '-induced', 'IL-2', 'genes', '.'], ['B-protein', 'O', 'B-DNA', 'I-DNA', 'O'], 'd1')
    """
    tokenizer = _check_tokenizer(tokenizer)
    problems = _Problems()
    X, y, offsets = [], [], []
    for doc in documents:
        sents, labels, offs = _label_document(doc, tokenizer, problems)
        X.extend(sents)
        y.extend(labels)
        offsets.extend(offs)
    problems.warn()
    return (X, y, offsets) if return_offsets else (X, y)
