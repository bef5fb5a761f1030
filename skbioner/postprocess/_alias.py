"""Name aliases: a short name that abbreviates an entity found earlier in the document.

Zhou & Su (2004): the entities recognised earlier in an abstract form a
list; a later candidate that is an alias of one of them (``TCF`` after
``T cell factor``, ``IL2`` after ``interleukin 2``) takes its class.
"""

from __future__ import annotations

import re
from itertools import compress

from .._validation import Integral, Interval
from ..schemes import labels_to_spans
from ._abbreviations import _align, _lf_chars, set_span
from ._base import LabelledDocument, PostprocessStep

__all__ = ["NameAlias"]

_CANDIDATE = re.compile(r"^(?=.*[A-Z])[A-Za-z0-9][A-Za-z0-9\-/.]*$")
_STOP = frozenset("of the and in for to a an with by on at from or as".split())


class NameAlias(PostprocessStep):
    """Tag aliases of the entities recognised earlier in the document.

    A candidate is a token (not inside a predicted entity, unless
    ``relabel``) of ``min_chars`` to ``max_chars`` characters with a capital
    letter.  It is an alias of an earlier entity of at least two tokens
    when :func:`~skbioner.postprocess.alias_score` aligns it with the
    entity's tokens with at least ``min_initials`` characters on word
    initials and every word of the entity (stop words aside) holding an
    aligned character; it is then tagged with the entity's class (the
    latest such entity wins).

    Parameters
    ----------
    min_chars : int, default=2
    max_chars : int, default=10
    min_initials : int, default=3
    relabel : bool, default=True
        Also change the class of a candidate predicted as an entity of
        another class (exactly that token).

    The defaults were chosen on the JNLPBA development split (2 initials
    lost 0.1-0.4 F1 against 3 there).

    Attributes
    ----------
    fitted_ : bool
    """

    _parameter_constraints = {
        "min_chars": [Interval(Integral, 1, None, closed="left")],
        "max_chars": [Interval(Integral, 1, None, closed="left")],
        "min_initials": [Interval(Integral, 1, None, closed="left")],
        "relabel": ["boolean"],
    }

    def __init__(self, min_chars=2, max_chars=10, min_initials=3, relabel=True):
        self.min_chars = min_chars
        self.max_chars = max_chars
        self.min_initials = min_initials
        self.relabel = relabel

    def _is_alias(self, token, words, characters):
        """Whether ``token`` is an alias of the entity tokens ``words`` (same first letter)."""
        content = sum(w.lower() not in _STOP for w in words)
        if sum(c.isalnum() for c in token) < content:
            return False
        chars = characters.get(words)
        if chars is None:
            chars = characters[words] = _lf_chars(words)
        score = _align([c.lower() for c in token if c.isalnum()], *chars)
        if score is None:
            return False
        initials, covered = score
        return initials >= self.min_initials and covered >= content

    def _alias_of(self, token, entities, verdicts, characters):
        """Class of the latest entity of ``entities`` that ``token`` is an alias of, or None.

        ``verdicts`` memoizes :meth:`_is_alias` (a document repeats its tokens and
        entities), ``characters`` the entities' characters as ``alias_score`` reads them.
        """
        first = token[0].lower()
        for words, typ, head in reversed(entities):
            if head != first:
                continue
            key = (token, words)
            ok = verdicts.get(key)
            if ok is None:
                ok = verdicts[key] = self._is_alias(token, words, characters)
            if ok:
                return typ
        return None

    def correct(self, doc: LabelledDocument):
        """Tag the document's aliases.

        Parameters
        ----------
        doc : LabelledDocument

        Returns
        -------
        list of list of str
        """
        labels = [list(lab) for lab in doc.labels]
        # (tokens, class, first letter) of the earlier sentences' entities of 2+ tokens
        entities = []
        verdicts = {}
        characters = {}
        for si, sent in enumerate(doc.sentences):
            lab = labels[si]
            # the sentence's entities as first predicted are the "earlier" ones
            # (a token tagged here does not make a new one); ``current`` follows the labels
            current = labels_to_spans(lab)
            inner = [(tuple(sent[a:b]), t, sent[a][:1].lower(), b) for t, a, b in current
                     if b - a >= 2]
            for k in compress(range(len(sent)), map(_CANDIDATE.match, sent)):
                w = sent[k]
                if not self.min_chars <= len(w) <= self.max_chars:
                    continue
                # entities before this token (earlier sentences and this one)
                before = entities + [e[:3] for e in inner if e[3] <= k] if inner else entities
                if not before:
                    continue
                found = [span for span in current if span[1] <= k < span[2]]
                if found and not (self.relabel and found[0][1:] == (k, k + 1)):
                    continue
                typ = self._alias_of(w, before, verdicts, characters)
                if typ is not None and (not found or found[0][0] != typ):
                    set_span(lab, k, k + 1, typ)
                    current = labels_to_spans(lab)
            entities += [(tuple(sent[a:b]), t, sent[a][:1].lower()) for t, a, b in current
                         if b - a >= 2]
        return labels
