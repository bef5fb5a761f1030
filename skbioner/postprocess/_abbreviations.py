"""Abbreviations: Schwartz–Hearst detection over tokens, and a resolving step.

:func:`find_abbreviations` finds ``long form (SF)`` and ``SF (long form)``
pairs in a document's token sentences (Schwartz & Hearst 2003), with the
repairs of its known failures.  Every repair was developed on, and is
justified by, pairs of the JNLPBA development split (the last 10% of the
training abstracts; ``tests/postprocess/data/abbreviations_jnlpba_dev.tsv``,
``benchmarks/abbreviations.py``), whose examples the comments quote:

* a long form with repeated letters: every candidate start word is aligned
  with the short form by dynamic programming, and the alignment with the most
  short-form characters on word initials wins, less the words that give it
  none (``heat-inactivated HIV-1`` for ``iHIV-1``, not ``immune complexes or
  heat-inactivated HIV-1``);
* the first character on any word initial of the first word
  (``12-O-tetradecanoylphorbol-13-acetate`` for ``TPA``), and a trailing
  number the long form does not spell (``VCAM-1``, ``HSF1``);
* ``SF (long form)`` order: a parenthesis holding more than one token is
  taken as the long form of the token(s) before it (``C/EBP ( CCAAT/enhancer-binding
  protein )``); both in one parenthesis: ``( lipopolysaccharide , LPS )``;
* a long form that starts in the previous sentence (a sentence splitter
  that broke inside it): the previous sentence's tokens extend the context;
  a parenthesis the splitter cut off runs to the sentence's end;
* nested parentheses: the content of a parenthesis stops at a nested one,
  unless the nested group follows its first token (``15d-PGJ ( 2 )``,
  ``E ( spl )``); a long form never crosses an open parenthesis, holds whole
  groups only, and no list;
* lower-case short forms of up to four letters (``cdk``, ``wt``) and Greek
  letters' names in short forms (``hIL-4R alpha``).

:class:`AbbreviationResolver` (Zhou & Su 2004) gives each short form the
class of its long form, adjusts the long form's boundaries and remembers
the pair for the rest of the document.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .._sentence import Sentence
from .._validation import StrOptions
from ..schemes import labels_to_spans, repair
from ._base import LabelledDocument, PostprocessStep

__all__ = ["Abbreviation", "AbbreviationResolver", "alias_score", "find_abbreviations"]

_OPEN, _CLOSE = "([", ")]"
#: the tokens ``w in _OPEN`` or ``w in _CLOSE`` holds for (substrings: "" too)
_BRACKET_TOKENS = frozenset(["", "(", "[", "([", ")", "]", ")]"])
_CUT = {";", ","}
_UPPER_OR_DIGIT = re.compile(r"[A-Z0-9]")
#: Greek letters' names, words of short forms (``hIL-4R alpha``)
_GREEK = frozenset("alpha beta gamma delta epsilon zeta theta iota kappa lambda sigma omega"
                   .split())
_LETTER = re.compile(r"[A-Za-z]")


class Abbreviation(NamedTuple):
    """A short form and its long form, as token spans of a document's sentences.

    Parameters
    ----------
    short : (int, int, int)
        ``(sentence, start, end)`` of the short form (half-open token span).
    long : tuple of (int, int, int)
        The long form's pieces, one per sentence it covers (two when it
        starts in the previous sentence), in order.
    short_text, long_text : str
        The tokens of each, joined by spaces.
    order : {"long-short", "short-long"}
        ``long form (SF)`` or ``SF (long form)``.
    """

    short: tuple
    long: tuple
    short_text: str
    long_text: str
    order: str


def _lf_chars(words):
    """Characters (lower-cased) of ``words`` with their word-initial flag (0/1) and word index.

    Plain lists: :func:`alias_score` reads them element by element, which numpy
    scalars would make several times slower.
    """
    chars, initial, word = [], [], []
    for w, token in enumerate(words):
        token_chars, token_initial = _token_chars(token)
        chars += token_chars
        initial += token_initial
        word += [w] * len(token_chars)
    return chars, initial, word


@lru_cache(maxsize=1 << 15)
def _token_chars(token):
    """One token's alphanumeric characters (lower-cased) and their word-initial flags."""
    chars, initial = [], []
    prev_alnum = False
    for c in token:
        alnum = c.isalnum()
        if alnum:
            chars.append(c.lower())
            initial.append(0 if prev_alnum else 1)
        prev_alnum = alnum
    return tuple(chars), tuple(initial)


def alias_score(short, words):
    """How well ``short`` abbreviates the token sequence ``words`` (anchored at its start).

    The short form's alphanumeric characters are aligned, in order and
    case-insensitively, with characters of ``words``; the first must be a
    word initial of the first word (the first alphanumeric character of a
    token, or one after a hyphen or other symbol: ``i`` of
    ``heat-inactivated HIV-1`` for ``iHIV-1``, ``t`` of
    ``12-O-tetradecanoylphorbol-13-acetate`` for ``TPA``).  Among all
    alignments, the one with the most characters on word initials is taken.

    Parameters
    ----------
    short : str
        The short form.
    words : sequence of str
        Candidate long form tokens.

    Returns
    -------
    (int, int) or None
        ``(initials, covered)``: short-form characters on word initials and
        number of words holding at least one aligned character; None when
        no alignment exists.
    """
    return _align([c.lower() for c in short if c.isalnum()], *_lf_chars(words))


def _align(sf, chars, initial, word):
    """:func:`alias_score` of the short form's characters ``sf`` against :func:`_lf_chars`."""
    if not sf or not chars or len(chars) < len(sf) or not set(sf).issubset(chars):
        return None
    # dynamic programming over the positions holding each short-form character;
    # a state is (initials, covered words) of the best alignment ending there.
    # The first character is a word initial of the first word.
    states = [(j, (1, 1)) for j in range(len(chars))
              if word[j] == 0 and initial[j] and chars[j] == sf[0]]
    if not states:
        return None
    positions = {}
    for k in range(1, len(chars)):
        positions.setdefault(chars[k], []).append(k)
    # (tests/postprocess/postprocess_oracle.py holds the plain version; same results)
    for c in sf[1:]:
        new = []
        for j in positions.get(c, ()):
            if j <= states[0][0]:
                continue
            wj, best = word[j], None
            for jp, (ini, cov) in states:
                if jp >= j:
                    break
                key = (ini, cov + (wj != word[jp]))
                if best is None or key > best:
                    best = key
            new.append((j, (best[0] + initial[j], best[1])))
        if not new:
            return None
        states = new  # in increasing position order, as the loop above needs
    return max(v for _, v in states)


def _is_short_form(tokens):
    """Whether a parenthesis' content (or the tokens before it) can be a short form.

    At most two words besides the parentheses of a nested group
    (``15d-PGJ ( 2 )``), 2 to 12 characters, starting with a letter or
    digit; no lower-case word longer than four letters other than a Greek
    letter's name (``hIL-4R alpha``); at least one capital or digit, except
    for a single lower-case word of up to four letters (``cdk``, ``wt``).
    """
    words = [t for t in tokens if t not in _OPEN and t not in _CLOSE]
    text = "".join(tokens)
    if not 1 <= len(words) <= 2 or not 2 <= len(text) <= 12:
        return False
    if not text[0].isalnum() or not _LETTER.search(text):
        return False
    if any(len(t) > 4 and t.isalpha() and t.islower() and t not in _GREEK for t in words):
        return False  # a word, not an abbreviation
    if _UPPER_OR_DIGIT.search(text) is None:
        return len(words) == 1 and len(text) <= 4 and text.isalpha()  # "cdk", "wt"
    return True


def _alignments(short):
    """The short form, then without a trailing number that the long form may not spell
    (``VCAM-1`` for ``vascular cell adhesion molecule``, ``IE-1`` for
    ``immediate-early protein``, ``HSF1`` for ``heat shock transcription factor``:
    then every character must be a word initial)."""
    yield short, False
    bare = re.sub(r"-?[0-9]+$", "", short)
    if bare != short and sum(c.isalpha() for c in bare) >= 2:
        yield bare, True


def _balanced(words):
    """Whether every parenthesis closed in ``words`` is opened there too."""
    depth = 0
    for w in words:
        if w in _OPEN:
            depth += 1
        elif w in _CLOSE:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _best_long_form(short, words, lo, hi, max_words):
    """Best start ``s`` (lo <= s < hi) of a long form ``words[s:hi]``, or None.

    Schwartz & Hearst's length limit ``min(|SF| + 5, 2 |SF|)`` counts words:
    tokens without a letter or digit (parentheses, hyphens) are not counted
    (``Jun NH ( 2 ) -terminal kinase`` for ``JNK``).  A long form holds
    whole parenthesised groups only (``lymphotoxin-beta ( LT-beta )
    receptor`` for ``LT-betaR``, not ``LT-beta ) receptor``), and no ``,``
    or ``;`` outside brackets (a list), nor ``=``.  Among the candidates,
    the alignment with the most short-form characters on word initials wins,
    less the words that give it none.
    """
    if hi > lo and words[hi - 1].lower().startswith("".join(short.split()).lower() + "-"):
        return None  # "TNF-alpha ( TNF )": a variant of the name, not its long form
    n_sf = sum(c.isalnum() for c in short)
    limit = min(n_sf + 5, 2 * n_sf, max_words)
    for form, strict in _alignments(short):
        n_chars = sum(c.isalnum() for c in form)
        best, best_key = None, None
        first = next(c.lower() for c in form if c.isalnum())
        n_words = depth = 0
        for s in range(hi - 1, lo - 1, -1):
            token = words[s]
            n_words += any(c.isalnum() for c in token)
            if n_words > limit:
                break
            depth += (token in _CLOSE) - (token in _OPEN)
            if (depth == 0 and token in _CUT) or token == "=":
                break  # lists ("surveillance ; and ( ii )"), measures ("Mr = 90 000 ( NF90 )")
            # the first character must begin the token or follow a symbol in it
            if first not in {c for c, i in zip(*_token_chars(token)) if i} \
                    or token in _OPEN or token in _CLOSE:
                continue
            cand = words[s:hi]
            if not _balanced(cand):
                continue
            if "".join(cand).lower() == "".join(short.split()).lower():
                continue  # the short form repeated, not a long form
            score = alias_score(form, cand)
            if score is None:
                continue
            initials, covered = score
            if strict and initials < n_chars:
                continue
            # most initials, less the words no character comes from ("immune complexes or
            # heat-inactivated HIV-1" for iHIV-1); then the fewest such words; then short
            key = (initials - (hi - s - covered), covered - (hi - s), -(hi - s))
            if best_key is None or key > best_key:
                best, best_key = s, key
        if best is not None:
            return best
    return None


def _long_text(tokens, short):
    """The long form's text: leading symbols of its first token dropped (``/Fas ligand``
    for ``FasL``), and what precedes a ``/`` when the short form does not start there
    (``purine-box/antigen receptor response element`` for ``ARRE``)."""
    first = tokens[0]
    head = next(c.lower() for c in short if c.isalnum())
    if "/" in first and next((c.lower() for c in first if c.isalnum()), "") != head:
        first = first.rsplit("/", 1)[1] or first
    k = next((i for i, c in enumerate(first) if c.isalnum()), 0)
    return " ".join([first[k:], *tokens[1:]])


def _parentheses(words):
    """``(open, close)`` token positions of matched parentheses, outer ones included."""
    if _BRACKET_TOKENS.isdisjoint(words):
        return []
    stack, pairs = [], []
    for i, w in enumerate(words):
        if w in _OPEN:
            stack.append(i)
        elif w in _CLOSE and stack:
            pairs.append((stack.pop(), i))
    # a parenthesis the sentence splitter cut off: to the sentence's end ("( ASM ; E.C .")
    pairs += [(i, len(words)) for i in stack]
    return sorted(pairs)


def _content_end(words, a, b):
    """End of the content of the parenthesis ``(a, b)``: at a nested one, ``;`` or ``,``."""
    for k in range(a + 1, b):
        if words[k] in _OPEN or words[k] in _CUT:
            return k
    return b


def _context_start(words, k):
    """First token a long form ending before ``k`` may use: after any unclosed parenthesis."""
    depth = 0
    for i in range(k - 1, -1, -1):
        if words[i] in _CLOSE:
            depth += 1
        elif words[i] in _OPEN:
            if depth == 0:
                return i + 1
            depth -= 1
    return 0


def find_abbreviations(sentences, max_words=12, cross_sentence=True):
    """Short forms and their long forms in one document.

    Parameters
    ----------
    sentences : sequence of sequence of str
        The document's sentences (tokens), in order.
    max_words : int, default=12
        Longest long form, in words (Schwartz & Hearst's
        ``min(|SF| + 5, 2 |SF|)`` applies too).
    cross_sentence : bool, default=True
        Let a long form start in the previous sentence when the parenthesis
        opens among the first tokens of a sentence.

    Returns
    -------
    list of Abbreviation
        In document order.
    """
    out = []
    sentences = [list(s) for s in sentences]
    for si, words in enumerate(sentences):
        for a, b in _parentheses(words):
            end = _content_end(words, a, b)
            inner = words[a + 1:end]
            if not inner:
                continue
            lo = _context_start(words, a)
            whole = words[a + 1:b]
            if end < b and words[end] in _OPEN and _is_short_form(whole) \
                    and _best_long_form(" ".join(whole), words[lo:a], 0, a - lo,
                                        max_words) is not None:
                # a nested group right after the first token belongs to the short form:
                # "15d-PGJ ( 2 )", "E ( spl )"
                inner, end = whole, b
            if not _is_short_form(inner):
                # long and short form in one parenthesis: "( lipopolysaccharide , LPS )"
                k = max((k for k in range(a + 1, b) if words[k] == ","), default=None)
                tail = words[k + 1:b] if k is not None else []
                if tail and _is_short_form(tail) and k > a + 1:
                    short = " ".join(tail)
                    s = _best_long_form(short, words, a + 1, k, max_words)
                    if s is not None:
                        out.append(Abbreviation((si, k + 1, b), ((si, s, k),), short,
                                                _long_text(words[s:k], short), "long-short"))
                        continue
            if _is_short_form(inner):
                short = " ".join(inner)
                ctx, shift, prev = words[lo:a], lo, None
                if cross_sentence and lo == 0 and si > 0 and a < max_words:
                    prev = sentences[si - 1]
                    tail = prev[_context_start(prev, len(prev)):]
                    if tail and tail[-1] in (".", "!", "?"):
                        tail = []  # a finished sentence is not part of the long form
                    ctx = tail + ctx
                    shift = -len(tail)
                s = _best_long_form(short, ctx, 0, len(ctx), max_words)
                if s is None:
                    continue
                start = s + shift
                if start < 0:
                    pieces = ((si - 1, len(prev) + start, len(prev)), (si, 0, a))
                    if a == 0:
                        pieces = pieces[:1]
                else:
                    pieces = ((si, start, a),)
                out.append(Abbreviation((si, a + 1, end), pieces, short,
                                        _long_text(ctx[s:], short), "long-short"))
            elif len(inner) > 1 and a > 0:  # "PML ( promyelocytic leukemia ) protein"
                for n in (2, 1):  # the short form: the one or two tokens before
                    cand = words[max(a - n, _context_start(words, a)):a]
                    if len(cand) != n or not _is_short_form(cand):
                        continue
                    short = " ".join(cand)
                    # the long form fills the parenthesis
                    if _best_long_form(short, inner, 0, len(inner), max_words) == 0:
                        out.append(Abbreviation((si, a - n, a), ((si, a + 1, end),), short,
                                                " ".join(inner), "short-long"))
                        break
    return out


@lru_cache(maxsize=16)
def _document_abbreviations(sentences, cross_sentence=True):
    """:func:`find_abbreviations` of one document, memoized for the steps that share it.

    ``sentences`` is a tuple of token tuples (hashable).  The first-pass columns and
    :class:`AbbreviationResolver` both read a document's pairs, one right after the
    other: the detection runs once.  Returns a tuple of
    :class:`Abbreviation` (immutable), the pairs in document order.
    """
    return tuple(find_abbreviations(sentences, cross_sentence=cross_sentence))


def set_span(labels, start, end, typ):
    """Tag ``labels[start:end]`` as one entity of ``typ`` (None: outside), in place.

    Entities overlapping the span are removed whole first.

    Parameters
    ----------
    labels : list of str
        IOB2 labels of one sentence.
    start, end : int
        Half-open token span.
    typ : str or None

    Returns
    -------
    list of str
        ``labels``.
    """
    for _, a, b in _overlapping(labels, start, end):
        labels[a:b] = ["O"] * (b - a)
    if typ is not None:
        labels[start:end] = ["B-" + typ] + ["I-" + typ] * (end - start - 1)
    return labels


def _overlapping(labels, start, end):
    return [(t, a, b) for t, a, b in labels_to_spans(labels) if a < end and b > start]


class AbbreviationResolver(PostprocessStep):
    """Give each abbreviation the class of its long form (Zhou & Su 2004).

    In every document, :func:`find_abbreviations` pairs short forms with
    long forms.  For each pair, in document order:

    * the class of the long form is the type of the predicted entity
      holding its last token (otherwise of any entity overlapping it);
    * with ``adjust_long_form``, the entities overlapping the long form are
      replaced by one entity spanning the long form (and the predicted
      words left of it, if an entity started there);
    * the short form is tagged with that class;
    * when the long form has no entity: the short form keeps its own
      prediction, which with ``long_from_short`` is given to the long form
      too, and with ``unresolved="clear"`` is removed;
    * with ``remember``, later occurrences of the short form in the document
      that are untagged (with ``remember="relabel"``: or tagged as one
      entity of another class) get the class.

    A pair inside one predicted entity (``natural killer (NK) cells``,
    ``nuclear factor (NF)-kappaB``: JNLPBA annotates such names whole) is
    left alone.

    Usable after any tagger of the suite
    (:class:`~skbioner.postprocess.PostProcessedTagger`).

    Parameters
    ----------
    adjust_long_form : bool, default=True
        Make the long form exactly one entity.
    long_from_short : bool, default=False
        Tag an untagged long form with its short form's class.
    unresolved : {"keep", "clear"}, default="clear"
        What happens to a tagged short form whose long form is untagged
        (after ``long_from_short``).
    remember : bool or "relabel", default="relabel"
        Propagate the pair's class to the short form's later untagged
        occurrences ("relabel": also to those tagged with another class).

    The defaults were chosen on the JNLPBA development split, after
    ``OnlinePACRF`` and ``HMMSVMTagger`` (``remember="relabel"`` +0.15 to
    0.28 F1 over ``True``; ``benchmarks/hmm_svm.py``).
    cross_sentence : bool, default=True
        Let a long form start in the previous sentence.
    strip_parentheses : bool, default=False
        Zhou & Su's order: a sentence with ``long form (SF)`` pairs is first
        tagged again without its parenthesised short forms (the tagger's
        ``predict`` on the shortened sentence, through
        :attr:`LabelledDocument.retag`; the parentheses' tokens are then outside),
        and the pairs are resolved on those labels.  Needs a
        :class:`~skbioner.postprocess.PostProcessedTagger` (without a
        tagger, the step works as with False).

    Attributes
    ----------
    fitted_ : bool
    """

    _parameter_constraints = {
        "adjust_long_form": ["boolean"],
        "long_from_short": ["boolean"],
        "unresolved": [StrOptions({"keep", "clear"})],
        "remember": ["boolean", StrOptions({"relabel"})],
        "cross_sentence": ["boolean"],
        "strip_parentheses": ["boolean"],
    }

    def __init__(self, adjust_long_form=True, long_from_short=False, unresolved="clear",
                 remember="relabel", cross_sentence=True, strip_parentheses=False):
        self.adjust_long_form = adjust_long_form
        self.long_from_short = long_from_short
        self.unresolved = unresolved
        self.remember = remember
        self.cross_sentence = cross_sentence
        self.strip_parentheses = strip_parentheses

    @property
    def uses_tagger(self):
        """Whether :meth:`correct` tags sentences again (``strip_parentheses``)."""
        return bool(self.strip_parentheses)

    def _retagged(self, doc, words, labels, pairs):
        """``labels`` with the sentences holding ``(SF)`` tagged again without them."""
        cut = {}
        for ab in pairs:
            si, sa, sb = ab.short
            if ab.order != "long-short" or _overlapping(labels[si], sa - 1, sa):
                continue
            close = next((k for k in range(sb, len(words[si])) if words[si][k] in _CLOSE), None)
            if close is not None:
                cut.setdefault(si, set()).update(range(sa - 1, close + 1))
        if not cut:
            return labels
        order = sorted(cut)
        keep = {si: [k for k in range(len(words[si])) if k not in cut[si]] for si in order}
        short = []
        for si in order:
            s = doc.sentences[si]
            cols = getattr(s, "annotations", {})
            short.append(Sentence([s[k] for k in keep[si]], doc_id=doc.doc_id,
                                  **{c: [v[k] for k in keep[si]] for c, v in cols.items()}))
        labels = [list(lab) for lab in labels]
        for si, new in zip(order, doc.retag(short)):
            lab = ["O"] * len(words[si])
            for k, t in zip(keep[si], new):
                lab[k] = t
            labels[si] = repair(lab, "IOB2")
        return labels

    def correct(self, doc: LabelledDocument):
        """Resolve the document's abbreviations.

        Parameters
        ----------
        doc : LabelledDocument

        Returns
        -------
        list of list of str
        """
        labels = [list(lab) for lab in doc.labels]
        words = [list(s) for s in doc.sentences]
        memory = {}
        defined = set()
        pairs = _document_abbreviations(tuple(map(tuple, words)), self.cross_sentence)
        if self.strip_parentheses and doc.retag is not None and pairs:
            labels = self._retagged(doc, words, labels, pairs)
        for ab in pairs:
            si, sa, sb = ab.short
            defined.add(ab.short)
            paren = sa - 1 if ab.order == "long-short" else sb
            if _overlapping(labels[si], paren, paren + 1):
                continue  # one entity across the parenthesis: "natural killer (NK) cells"
            typ = self._long_form_type(labels, ab.long)
            if typ is None:
                short_typ = next((t for t, a, b in labels_to_spans(labels[si])
                                  if (a, b) == (sa, sb)), None)
                if short_typ is not None and self.long_from_short and len(ab.long) == 1:
                    li, la, lb = ab.long[0]
                    if not _overlapping(labels[li], la, lb):
                        set_span(labels[li], la, lb, short_typ)
                        typ = short_typ
                if typ is None:
                    if short_typ is not None and self.unresolved == "clear":
                        set_span(labels[si], sa, sb, None)
                    continue
            elif self.adjust_long_form and len(ab.long) == 1:
                li, la, lb = ab.long[0]
                # grow to the whole long form; a predicted left modifier stays
                # ("resting peripheral blood mononuclear cells (PBMCs)", a development
                # abstract: the long form starts at "peripheral", the entity at "resting")
                first = min([la] + [a for _, a, _ in _overlapping(labels[li], la, lb)])
                set_span(labels[li], first, lb, typ)
            set_span(labels[si], sa, sb, typ)
            memory[tuple(words[si][sa:sb])] = (typ, (si, sa))
        if self.remember and memory:
            self._propagate(words, labels, memory, defined, self.remember == "relabel")
        return labels

    @staticmethod
    def _long_form_type(labels, pieces):
        li, la, lb = pieces[-1]
        found = _overlapping(labels[li], la, lb)
        for t, a, b in found:
            if a <= lb - 1 < b:
                return t
        for li, la, lb in pieces:
            found = _overlapping(labels[li], la, lb)
            if found:
                return found[-1][0]
        return None

    @staticmethod
    def _propagate(words, labels, memory, defined, relabel):
        by_first = {}
        for key, value in memory.items():
            by_first.setdefault(key[0], []).append((key, value))
        for si, sent in enumerate(words):
            for k, w in enumerate(sent):
                for key, (typ, where) in by_first.get(w, ()):
                    end = k + len(key)
                    if tuple(sent[k:end]) != key or (si, k) <= where \
                            or (si, k, end) in defined:
                        continue
                    found = _overlapping(labels[si], k, end)
                    if not found or (relabel and len(found) == 1
                                     and found[0][1:] == (k, end)):
                        set_span(labels[si], k, end, typ)
