"""JNLPBA/GENIA-style tokenization and sentence splitting with character offsets.

The JNLPBA/GENIA tokenization is the Penn Treebank one (the PTB
``tokenizer.sed``) applied to one sentence at a time: punctuation that cannot
be part of a word is split off, only the period that ends a sentence is
split off (``e.g.``, ``et al.``, ``2.5``, ``M. tuberculosis`` keep theirs),
and hyphens, slashes and plus signs stay inside words.  The JNLPBA corpus
additionally cuts words at the boundaries of its entity annotations
(``IL-2-induced`` -> ``IL-2`` ``-induced``), which a tokenizer of raw text
can only approximate (``split_suffixes``) or be told (``boundaries``).

Every rule below states the evidence it rests on: token counts of the JNLPBA
training split (``train.iob2``, 492,806 tokens, rebuilt from the standoff
release with the entity boundaries) and of the GENIA part-of-speech corpus
training split (GENIA 3.02p, 386,630 tokens, the original GENIA
tokenization and sentences).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator

from .._sentence import Sentence
from .._validation import StrOptions
from ._cuts import CutTable, load_cut_table
from ._scan import ALWAYS_SPLIT, scan

__all__ = [
    "BioTokenizer",
    "TokenizedSentence",
    "align_tokens",
    "split_sentences",
    "tokenize",
    "tokenize_text",
]

# --------------------------------------------------------------------------
# token rules
# --------------------------------------------------------------------------

# How often a character is a token of its own / at the start / inside / at the
# end of a longer token, in the JNLPBA training tokens:
#
# Always a token of its own (never part of a longer training token):
#   , 18079/0/0/0   ; 589/0/0/0   : 773/0/0/0   % 388/0/0/0   = 166/0/0/0
#   ( 7150/0/0/0    ) 7198/0/0/0  [ 245/0/0/0   ] 247/0/0/0   < 123/0/0/0
#   > 86/0/0/0      & 13/0/0/0    ? 18/0/0/0    " (written `` and '') 62/0/0/0
# plus the rest of the PTB set, @ # $ { } ! (absent from the corpus).  The PTB
# script does not split "=", GENIA does.
#
# Kept inside words: hyphen (27,844 inside), slash (2,570 inside), plus
# (132 inside, 542 at the end: CD4+, Ca2+), asterisk (41 inside: DRB1*0401),
# apostrophe (149 inside: 5'-flanking) and period (1,314 inside: 2.5, i.e.).
_ALWAYS = re.escape(ALWAYS_SPLIT)

# A token is an ellipsis, a double hyphen (PTB), one always-split character
# (group 1) or a word (group 2): a run of other non-space characters without
# "--" or "...".  Nothing follows the repetition, so it never backtracks.
_TOKEN = re.compile(
    rf"""
      (\.\.\. | -- | [{_ALWAYS}])
    | ((?: [^\s{_ALWAYS}.\-]+ | -(?!-) | \.(?!\.\.) )+)
    """,
    re.VERBOSE,
)

# PTB contractions split off the end of a word: Hodgkin's -> Hodgkin 's,
# don't -> do n't, cannot -> can not (GENIA POS training tokens: 's 40 times as
# a token, n't 1, "can" "not" where the text has "cannot").
_CONTRACTION = re.compile(r"(?:'[sSmMdD]|'ll|'re|'ve|'LL|'RE|'VE|n't|N'T)\Z")
_CANNOT = re.compile(r"[Cc]annot\Z|CANNOT\Z")

# A closing single quote is split off a word (PTB): 5'-CAGCTG-3' -> ... 3 ',
# patients' -> patients '.  An opening one stays ('Th1, 'lower).

# JNLPBA cuts words at entity boundaries, so "IL-2-induced" is "IL-2"
# "-induced" when IL-2 is annotated.  Without the annotations, the shape of the
# word before the hyphen is the best guess.  JNLPBA training counts of
# <name> "-<suffix>" split / kept whole, by the shape of <name>:
#
#                 digit      Greek end   other capital  lower case
#   mediated      110/22     12/1        133/77         24/94
#   induced       110/56     33/18       79/202         31/223
#   dependent     59/44      5/2         80/104         25/239
#   independent   15/8       2/0         20/11          9/16
#   driven        8/1        1/1         9/10           7/12
#   triggered     4/1        0/0         0/2            1/1
#
# These suffixes are split where splitting is the majority: after a name
# with a digit or ending in a Greek letter (IL-2-induced, TNF-alpha-induced),
# and "-mediated" also after any name with a capital (Tax-mediated).  Other
# suffixes (-specific 24/168, -binding 24/433, -like 13/108 after a name with
# a capital or digit) stay whole.
_SUFFIX = re.compile(
    r"(?<=[A-Za-z0-9+])-(mediated|induced|dependent|independent|driven|triggered)\Z"
)
_GREEK_END = re.compile(r"(?:alpha|beta|gamma|delta|epsilon|kappa|zeta|theta|lambda|sigma)\Z")
_DIGIT = re.compile(r"[0-9]")
_CAPITAL = re.compile(r"[A-Z]")

# Characters that may follow a sentence-final period and stay outside it
# (PTB: ``([^.])([.])([\])}>"']*)$``).
_CLOSERS = frozenset(")]}>\"'")

_WS = re.compile(r"\s+")
_CHUNK = re.compile(r"\S+")


def _sentence_tokens(text, start, end, out, suffixes):
    """Append the token spans of the sentence ``text[start:end]`` to ``out``."""
    first = len(out)
    append = out.append
    for m in _TOKEN.finditer(text, start, end):
        s, e = m.span()
        if m.lastindex == 2 and e - s > 1:
            word = text[s:e]
            if ("'" in word or "-" in word or word[-5:] in ("annot", "ANNOT")
                    or ("/" in word and isinstance(suffixes, CutTable))):
                _split_word(text, s, e, out, suffixes)
                continue
        append((s, e))
    _split_final_period(text, out, first, suffixes)


def _scanned_tokens(text, sentences, tok, split, cutter):
    """``[(sentence, token spans)]`` from the compiled scan of the whole text.

    The scan's tokens are those of ``_TOKEN`` over the whole text; a sentence takes
    the ones inside it, the flagged words are split by :func:`_split_word`, and its
    final period by :func:`_split_final_period`.  A token that crosses a sentence
    boundary (a sentence glued to the next: ``by MB.Moreover``) sends that sentence
    down the regular-expression path.
    """
    if not sentences:
        return []
    bounds = np.asarray(sentences, dtype=np.int64)
    starts = tok[:, 0]
    lo = np.searchsorted(starts, bounds[:, 0], "left").tolist()
    hi = np.searchsorted(starts, bounds[:, 1], "left").tolist()
    ends = tok[:, 1]
    spans_all = list(zip(starts.tolist(), ends.tolist()))  # tuples: few objects for the GC
    flagged = np.flatnonzero(split).tolist()
    out = []
    for (s, e), i0, i1 in zip(sentences, lo, hi, strict=True):
        if (i1 > i0 and ends[i1 - 1] > e) or (i0 > 0 and ends[i0 - 1] > s):
            spans: list = []
            _sentence_tokens(text, s, e, spans, cutter)
            out.append(((s, e), spans))
            continue
        spans, prev = [], i0
        for k in flagged[bisect_left(flagged, i0):bisect_left(flagged, i1)]:
            spans += spans_all[prev:k]
            _split_word(text, spans_all[k][0], spans_all[k][1], spans, cutter)
            prev = k + 1
        spans += spans_all[prev:i1]
        _split_final_period(text, spans, 0, cutter)
        out.append(((s, e), spans))
    return out


def _split_word(text, s, e, out, suffixes):
    """Append one word's spans: closing quote, contractions, entity suffixes."""
    tail = None
    if text[e - 1] == "'" and text[e - 2] != "'":
        tail = (e - 1, e)
        e -= 1
    word = text[s:e]
    cuts = ()
    if _CANNOT.match(word):
        cuts = (3,)
    else:
        m = _CONTRACTION.search(word) if "'" in word else None
        if m is not None and m.start() > 0:
            cuts = (m.start(),)
        elif suffixes is True and "-" in word:
            m = _SUFFIX.search(word)
            if m is not None and _split_suffix(word[: m.start()], m.group(1)):
                cuts = (m.start(),)
    if not cuts and isinstance(suffixes, CutTable) and ("-" in word or "/" in word):
        cuts = suffixes.cuts(word)
    prev = s
    for c in cuts:
        out.append((prev, s + c))
        prev = s + c
    out.append((prev, e))
    if tail is not None:
        out.append(tail)


def _split_suffix(name, suffix):
    if _DIGIT.search(name) is not None or _GREEK_END.search(name) is not None:
        return True
    return suffix == "mediated" and _CAPITAL.search(name) is not None


def _split_final_period(text, out, first, suffixes):
    """Split the sentence-final period off its word (PTB: final periods only).

    The word left is then split like any other word (``Hodgkin's.`` ->
    ``Hodgkin`` ``'s`` ``.``).
    """
    i = len(out) - 1
    while i >= first and out[i][1] - out[i][0] == 1 and text[out[i][0]] in _CLOSERS:
        i -= 1
    if i < first:
        return
    s, e = out[i]
    # the closers must follow the period directly: "word.)" not "word. )"
    if i < len(out) - 1 and out[i + 1][0] != e:
        return
    if e - s >= 2 and text[e - 1] == "." and text[e - 2] != ".":
        word: list[tuple[int, int]] = []
        if e - s >= 3:
            _split_word(text, s, e - 1, word, suffixes)
        else:
            word.append((s, e - 1))
        out[i : i + 1] = [*word, (e - 1, e)]


def _force_boundaries(spans, bounds):
    """Cut every span at the offsets of ``bounds`` (sorted) strictly inside it."""
    if not bounds:
        return spans
    out = []
    for s, e in spans:
        k = bisect_right(bounds, s)
        while k < len(bounds) and bounds[k] < e:
            out.append((s, bounds[k]))
            s = bounds[k]
            k += 1
        out.append((s, e))
    return out


def _check_boundaries(boundaries):
    if boundaries is None:
        return []
    try:
        bounds = sorted({int(b) for b in boundaries})
    except (TypeError, ValueError):
        raise TypeError(
            f"boundaries must be an iterable of int offsets, got {boundaries!r:.80}"
        ) from None
    return bounds


# --------------------------------------------------------------------------
# sentence rules
# --------------------------------------------------------------------------

# A sentence ends at a line break (title, abstract), except after a heading
# "RESULTS:" (GENIA keeps "RESULTS :" in the sentence that follows), and at
# ".", "?" or "!" (perhaps followed by closing brackets or quotes) before a
# space and a word that can start a sentence, except after an abbreviation.
#
# Abbreviations after which a period does not end a sentence: Latin and
# English ones, and ISO 4 journal-title words of references
# ("J. Biol. Chem. 274", "Environ. Mol. Mutagen. 37").
_ABBREVIATIONS = frozenset(
    """
    e.g i.e et al vs cf ca approx Fig Figs fig figs Ref Refs ref refs No no Nos
    Dr Drs Prof Mr Mrs Ms St resp Eq Eqs eq eqn Vol vol pp Suppl viz etc Jr
    Inc Ltd Co Corp Acad Am Ann Arch Biochem Biol Biophys Br Cell Chem Clin
    Commun Environ Eur Exp Immunol Int Lett Med Microbiol Mol Mutagen Natl Nucl
    Pathol Pharmacol Physiol Proc Res Sci Virol
    """.split()
)

_SENTENCE_END = re.compile(r"[.?!][)\]}\"']*\Z")
_INITIALS = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]?\Z")
_LEAD = "([{<\"'`"
# What follows a final period in GENIA POS training sentences: the next
# sentence starts with a capital 12,960 times, a digit 56 times, a lower-case
# name with a digit or capital (p65, c-Jun, sIg-induced) 51 times and a plain
# lower-case word 8 times.  Inside a sentence a word ending in a period is
# followed by a plain lower-case word 80 times (E. coli, i.e. the, ca. two)
# and by such a name 12 times, all after an abbreviation or an initial.
# So a plain lower-case word continues the sentence, a name may start one.
_GENE_LIKE = re.compile(r"[a-z]\S*[A-Z0-9]|[a-z]{1,2}-[A-Za-z]")  # p65, mRNA, c-myc, v-src
# A single capital and a period before a capitalised word: initials
# ("M. tuberculosis", "S. Karger", "J. Biol") unless the word before is in
# lower case or a power of ten ("NF-kappa B. The", "4 x 10(-9) M. The"; GENIA
# sentences end in "NF-kappa B ." 64 times, "cyclosporin A ." 10 times ...).
_POWER_OF_TEN = re.compile(r"10\([-+]?[0-9]+\)\Z")
# A sentence boundary without a space, inside one chunk: "by MB.Moreover",
# "therapy.(ABSTRACT TRUNCATED AT 400 WORDS)": at least two letters before the
# period (not initials such as "S.Henderson") and a capitalised word after it
# (not an acronym: "protein.DNA complexes", "SWI.SNF").
_GLUED = re.compile(r"(?<=[A-Za-z]{2}\.)(?=\(?[A-Z][a-z]{2,}|\([A-Z]{3,})")


def _abbreviation(core):
    """Whether a word before a period is an abbreviation, an initial or initials."""
    return core in _ABBREVIATIONS or len(core) == 1 or _INITIALS.match(core) is not None


def _is_boundary(text, prev, nxt, before):
    """Whether a sentence ends after chunk ``prev`` (followed by chunk ``nxt``).

    ``before`` is the chunk before ``prev`` (or None).
    """
    word = text[prev[0] : prev[1]]
    m = _SENTENCE_END.search(word)
    if m is None:
        return False
    following = text[nxt[0] : nxt[1]].lstrip(_LEAD)
    if not following:
        return True
    if following[0].islower() and _GENE_LIKE.match(following) is None:
        return False  # "E. coli", "et al. showed", "[see comments]"
    if word[m.start()] != ".":
        return True  # "?" or "!"
    core = word[: m.start()].lstrip(_LEAD)  # the word before the period
    if not core:
        return True
    if core in _ABBREVIATIONS:
        return False
    if not (following[0].isupper() or following[0].isdigit()):
        # a lower-case name or a symbol: "T. parva-infected", "S.D. +/-"
        return not (len(core) == 1 and core.isupper() or _INITIALS.match(core))
    if len(core) == 1 and core.isupper():
        if before is None:
            return False
        bword = text[before[0] : before[1]]
        m2 = _SENTENCE_END.search(bword)
        if m2 is not None and not _abbreviation(bword[: m2.start()].lstrip(_LEAD)):
            return True  # a sentence of its own: "Glucocorticoids and lymphocytes. I."
        return (bword[-1].islower() and bword != "and") or _POWER_OF_TEN.search(bword) is not None
    return _INITIALS.match(core) is None  # "S.D.", "B.M." are initials


def _chunks(text):
    """Whitespace-separated chunks, cut where a sentence ends without a space."""
    out = []
    find = text.find
    for m in _CHUNK.finditer(text):
        s, e = m.span()
        if find(".", s, e) >= 0:
            for g in _GLUED.finditer(text, s, e):
                out.append((s, g.start()))
                s = g.start()
        out.append((s, e))
    return out


# the last character of a chunk that may end a sentence
_END_CHARS = frozenset(".?!)]}\"'")
_END_LUT = np.zeros(128, dtype=bool)  # code point -> in _END_CHARS (all ASCII)
_END_LUT[[ord(c) for c in _END_CHARS]] = True
# At most this many words, the first capitalised, ending in a colon, after a sentence end
# or at the start of a line, make a heading ("OBJECTIVE:", "MATERIALS AND METHODS:",
# "Background:"); a line break after it ends a sentence.
_HEADING_WORDS = 4
_AFTER_SENTENCE_END = re.compile(r"[.?!][)\]}\"']*\s")


def _heading(line):
    """Whether a line (stripped) ends in a heading: a few words ending in a colon.

    The colon must touch the word: ``OBJECTIVE :`` is the corpus's tokenized form
    (tokens joined by spaces, e.g. a column file converted to brat), where the heading
    belongs to the sentence that follows, as in GENIA.
    """
    if not line.endswith(":") or len(line) < 2 or line[-2].isspace():
        return False
    tail = _AFTER_SENTENCE_END.split(line)[-1].strip()
    return tail[:1].isupper() and len(tail.split()) <= _HEADING_WORDS


def _line_break_ends_sentence(text, chunks, i, newlines):
    """Whether a sentence ends at the line break(s) between chunks ``i`` and ``i + 1``.

    A blank line, a heading line before or after, or the end of a sentence by the
    rules of :func:`_is_boundary` (or a closing bracket or quote before a capital:
    ``[see comments]`` after a title) end it; a single line break inside a paragraph
    (a wrapped line) does not.
    """
    if newlines >= 2:
        return True
    pe, ns = chunks[i][1], chunks[i + 1][0]
    if _heading(text[text.rfind("\n", 0, pe) + 1 : pe].strip()):
        return True
    le = text.find("\n", ns)
    line = text[ns : le if le >= 0 else len(text)].strip()
    if _heading(line) and _AFTER_SENTENCE_END.search(line) is None:
        return True  # the next line is a heading of its own
    last = text[pe - 1]
    if last not in _END_CHARS:
        return False
    if _is_boundary(text, chunks[i], chunks[i + 1], chunks[i - 1] if i else None):
        return True
    return last not in ".?!" and (text[ns].isupper() or text[ns].isdigit())


def _sentence_spans_of(text, chunks, newlines, candidates):
    """Sentence spans from the chunks, looking only at the ``candidates`` chunk gaps.

    ``newlines[i]``: line feeds between chunk ``i`` and ``i + 1``.  A gap that is
    not a candidate (no line feed, no end character before it, not glued) never
    ends a sentence, so the fast path passes only the candidates and the
    reference (:func:`_sentence_spans_reference`) every gap: same result.
    """
    if not chunks:
        return []
    count = text.count
    spans = []
    start = counted = chunks[0][0]
    depth = 0  # brackets opened and not closed in the sentence so far
    for i in candidates:
        pe = chunks[i][1]
        ns = chunks[i + 1][0]
        if pe == ns:
            boundary = True  # cut by _GLUED
        elif newlines[i]:
            boundary = _line_break_ends_sentence(text, chunks, i, newlines[i])
        elif text[pe - 1] not in _END_CHARS:
            continue
        else:
            depth += (
                count("(", counted, pe) + count("[", counted, pe)
                - count(")", counted, pe) - count("]", counted, pe)
            )  # fmt: skip
            depth = max(depth, 0)
            counted = pe
            if depth and not text[ns].isupper():
                # inside brackets: "(Blood. 2001;98:823-829)", "(LFA. 3)"; a
                # capital still starts a sentence (brackets are left unclosed)
                boundary = False
            else:
                boundary = _is_boundary(
                    text, chunks[i], chunks[i + 1], chunks[i - 1] if i else None
                )
        if boundary:
            spans.append((start, pe))
            start = counted = ns
            depth = 0
    spans.append((start, chunks[-1][1]))
    return spans


def _sentence_spans_reference(text):
    """Sentence spans by regular expressions over every chunk gap (the tests' oracle)."""
    chunks = _chunks(text)
    newlines = [text.count("\n", chunks[i][1], chunks[i + 1][0])
                for i in range(len(chunks) - 1)]
    return _sentence_spans_of(text, chunks, newlines, range(len(chunks) - 1))


def _sentence_spans_scanned(text, chunks, dots, newlines, codes):
    """Sentence spans from the compiled scan (:func:`skbioner.text._scan.scan`)."""
    if not len(chunks):
        return []
    cuts = [g.start() for k in np.flatnonzero(dots).tolist()
            for g in _GLUED.finditer(text, *chunks[k].tolist())]
    if cuts:  # rare: "by MB.Moreover"; a cut is strictly inside its chunk, so the sorted
        # starts and ends pair up; a piece that ends at a cut has no line break after it
        ends = np.sort(np.concatenate([chunks[:, 1], cuts]))
        nls = np.zeros(ends.size, dtype=np.int64)
        nls[np.searchsorted(ends, chunks[:, 1])] = newlines
        chunks = np.stack([np.sort(np.concatenate([chunks[:, 0], cuts])), ends], axis=1)
        newlines = nls
    pe, ns = chunks[:-1, 1], chunks[1:, 0]
    last = codes[pe - 1]
    cand = (newlines[:-1] > 0) | (pe == ns) | (_END_LUT[np.minimum(last, 127)] & (last < 128))
    chunk_list = list(zip(chunks[:, 0].tolist(), chunks[:, 1].tolist()))  # tuples: cheap
    return _sentence_spans_of(text, chunk_list, newlines.tolist(), np.flatnonzero(cand).tolist())


def _sentence_spans(text):
    """Sentence spans of ``text`` (start of its first chunk, end of its last)."""
    _, _, chunks, dots, newlines, codes = scan(text)
    return _sentence_spans_scanned(text, chunks, dots, newlines, codes)


def _sentences(text, mode, rules):
    """Sentence spans in ``mode``: by ``rules(text)`` (True), the whole text, or lines."""
    if mode is True:
        return rules(text)
    pos, spans = 0, []
    for line in [text] if mode is False else text.splitlines(keepends=True):
        m = _CHUNK.search(line)
        if m is not None:
            spans.append((pos + m.start(), pos + len(line.rstrip())))
        pos += len(line)
    return spans


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------


def _check_text(text):
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}: {text!r:.80}")
    return text


# validated parameter values of BioTokenizer -> (sentence mode, word cutter)
_CHECKED: dict = {}


class TokenizedSentence(NamedTuple):
    """One sentence of a tokenized text.

    Parameters
    ----------
    sentence : Sentence
        The tokens, exactly as they occur in the text.
    offsets : ndarray of shape (n_tokens, 2)
        ``(start, end)`` character offsets of the tokens (int64), so that
        ``text[start:end]`` is the token.
    span : tuple of (int, int)
        Character offsets of the whole sentence.
    """

    sentence: Sentence
    offsets: np.ndarray
    span: tuple[int, int]


def _tokenized(text, sentences):
    """``TokenizedSentence`` objects of ``[(sentence span, token spans)]``."""
    # one array for the document, each sentence a slice of it (copied so that no
    # sentence's offsets keep the others alive)
    every = np.array([t for _, spans in sentences for t in spans], dtype=np.int64).reshape(-1, 2)
    out, a = [], 0
    for span, spans in sentences:
        words = Sentence([text[x:y] for x, y in spans])
        out.append(TokenizedSentence(words, every[a:a + len(spans)].copy(), span))
        a += len(spans)
    return out


class BioTokenizer(BaseEstimator):
    """Sentence splitter and tokenizer for biomedical abstracts, with offsets.

    Reproduces the JNLPBA/GENIA tokenization (Penn Treebank rules applied to
    each sentence; 99.4% of the JNLPBA test tokens from the raw abstracts,
    see Notes):

    * hyphens, slashes, plus signs, apostrophes and internal periods stay in
      their word: ``IL-2/IL-4``, ``CD4+``, ``5'-flanking``, ``2.5``,
      ``e.g.``, ``et al.``, ``M. tuberculosis``, ``S.D.``;
    * brackets, commas, semicolons, colons, double quotes, ``%``, ``=``,
      ``<``, ``>``, ``&``, ``?`` and ``!`` are tokens of their own;
    * the period that ends a sentence is split off, as are a closing single
      quote and the contractions ``'s`` and ``n't``;
    * words are cut where the JNLPBA corpus cuts them at entity boundaries,
      as learned from its training data (``cuts="jnlpba"``: ``Tax-induced``
      -> ``Tax`` ``-induced``, ``NF-kappaB-dependent`` -> ``NF-kappaB``
      ``-dependent``; ``dose-dependent``, ``T-cell`` stay whole);
    * sentences end at ``.``, ``?``, ``!`` before a word that can start a
      sentence, except after abbreviations (``e.g.``, ``et al.``, ``vs.``,
      journal abbreviations), initials and inside brackets; at a blank line;
      at a line break after such an end, after a closing bracket before a
      capital (``[see comments]``) and around a heading line
      (``OBJECTIVE:``).  A single line break inside a paragraph (a wrapped
      line) does not end a sentence, nor does an inline heading
      (``RESULTS: We found``, which GENIA keeps in its sentence).

    Tokens are never rewritten: every token is ``text[start:end]``.

    Parameters
    ----------
    split_sentences : bool or "lines", default=True
        ``True``: rule-based sentence splitting.  ``"lines"``: every
        non-blank line is one sentence.  ``False``: the whole text is one
        sentence.  Only the period at the end of a sentence is split off.
    split_suffixes : bool, default=True
        Split ``-mediated``, ``-induced``, ``-dependent``, ``-independent``,
        ``-driven`` and ``-triggered`` off a preceding gene-like name
        (``IL-2-induced`` -> ``IL-2`` ``-induced``; ``dose-dependent`` stays
        whole), as the JNLPBA corpus does where the name is an entity.
        ``False`` keeps every hyphenated word whole, as in the GENIA POS
        corpus.  Used only with ``cuts=None``.
    cuts : "jnlpba", CutTable or None, default="jnlpba"
        ``"jnlpba"``: cut words at hyphens and slashes where the JNLPBA
        training data cuts them (the corpus cuts words at entity boundaries;
        a table learned from its tokens by ``scripts/make_jnlpba_cuts.py``,
        shipped with the package, see :class:`CutTable`), instead of the
        ``split_suffixes`` rule.  A :class:`CutTable`: a table of one's own.
        None: only ``split_suffixes``.

    See Also
    --------
    tokenize_text : ``(sentences, offsets)`` of a text in one call.
    tokenize, split_sentences : token and sentence spans.
    align_tokens : locate the tokens of an already tokenized text.

    Notes
    -----
    On the 404 JNLPBA test abstracts (``benchmarks/archive/tokenize_jnlpba.py``) the
    tokenizer reproduces 99.45% of the gold tokens exactly and 99.86% of
    the sentence boundaries.  Most of the remaining differences are words
    the corpus cut at entity boundaries (``ATF/CREB`` -> ``ATF / CREB``,
    ``Tax-induced`` -> ``Tax -induced``, ``monocytes`` -> ``monocyte s``);
    pass the entity offsets as ``boundaries`` to reproduce those.

    The characters are scanned once by a compiled kernel; the rules are
    regular expressions applied only where the scan found a candidate (a
    word with a hyphen, an apostrophe or a slash, a chunk ending in a
    period, a line break): the time is linear in the length of the text.

    On the development abstracts (the last 10% of the training data, their
    text rebuilt from the tokens; ``benchmarks/archive/cuts_dev.py``) a model trained
    on the rest scores 78.66 F1 from the gold tokens; from the text, 75.96
    with words kept whole, 76.54 with ``split_suffixes`` and 76.62 with the
    learned cuts.  The rest of the gap is the corpus's: its tokens were cut
    where its entities are, which no tokenizer can know from the text.

    Examples
    --------
    >>> tok = BioTokenizer()
    >>> doc = tok.tokenize_document("NF-kappa B binds DNA (e.g. IL-2). It acts.")
    >>> [list(s.sentence) for s in doc]
    [['NF-kappa', 'B', 'binds', 'DNA', '(', 'e.g.', 'IL-2', ')', '.'], ['It', 'acts', '.']]
    >>> doc[1].offsets.tolist()
    [[34, 36], [37, 41], [41, 42]]
    >>> sentences, offsets = tok.tokenize_text("IL-2-induced p50. Done.")
    >>> [list(s) for s in sentences], offsets[0].tolist()
    ([['IL-2', '-induced', 'p50', '.'], ['Done', '.']], [[0, 4], [4, 12], [13, 16], [16, 17]])
    """

    _parameter_constraints = {
        "split_sentences": ["boolean", StrOptions({"lines"})],
        "split_suffixes": ["boolean"],
        "cuts": [StrOptions({"jnlpba"}), CutTable, None],
    }

    def __init__(self, split_sentences=True, split_suffixes=True, cuts="jnlpba"):
        self.split_sentences = split_sentences
        self.split_suffixes = split_suffixes
        self.cuts = cuts

    def _check_params(self):
        # a stateless estimator: validated where it is used (once per parameter values:
        # tagging calls this for every document)
        params = tuple((type(v), v) for v in (self.split_sentences, self.split_suffixes,
                                              self.cuts))
        try:
            return _CHECKED[params]
        except (KeyError, TypeError):  # TypeError: an unhashable (invalid) value
            pass
        self._validate_params()
        mode = self.split_sentences
        cutter = (bool(self.split_suffixes) if self.cuts is None
                  else self.cuts if isinstance(self.cuts, CutTable) else load_cut_table(self.cuts))
        _CHECKED[params] = out = (mode if mode == "lines" else bool(mode), cutter)
        return out

    def sentence_spans(self, text: str) -> list[tuple[int, int]]:
        """Character offsets of the sentences of ``text``.

        Parameters
        ----------
        text : str
            Raw text.

        Returns
        -------
        list of (int, int)
            ``(start, end)`` of each sentence, without surrounding whitespace.
        """
        text = _check_text(text)
        return _sentences(text, self._check_params()[0], _sentence_spans)

    def _spans(self, text, boundaries):
        """``[(sentence_span, token_spans)]``."""
        text = _check_text(text)
        mode, cutter = self._check_params()
        bounds = _check_boundaries(boundaries)
        tok, split, chunks, dots, newlines, codes = scan(text, isinstance(cutter, CutTable))
        sentences = _sentences(text, mode, lambda t: _sentence_spans_scanned(
            t, chunks, dots, newlines, codes))
        return [(se, _force_boundaries(spans, bounds))
                for se, spans in _scanned_tokens(text, sentences, tok, split, cutter)]

    def _spans_reference(self, text, boundaries=None):
        """:meth:`_spans` by regular expressions, sentence by sentence (the tests' oracle)."""
        mode, cutter = self._check_params()
        bounds = _check_boundaries(boundaries)
        out = []
        for s, e in _sentences(text, mode, _sentence_spans_reference):
            spans: list[tuple[int, int]] = []
            _sentence_tokens(text, s, e, spans, cutter)
            out.append(((s, e), _force_boundaries(spans, bounds)))
        return out

    def token_spans(self, text: str, boundaries=None) -> list[tuple[int, int]]:
        """Character offsets of all tokens of ``text``.

        Parameters
        ----------
        text : str
            Raw text.
        boundaries : iterable of int, optional
            Offsets where a token must start or end (e.g. the starts and ends
            of annotated entities); a token that spans one is cut there.

        Returns
        -------
        list of (int, int)
            ``(start, end)`` of every token, in text order.
        """
        return [(t[0], t[1]) for _, spans in self._spans(text, boundaries) for t in spans]

    def tokenize_document(self, text: str, boundaries=None) -> list[TokenizedSentence]:
        """Split ``text`` into sentences and tokens.

        Parameters
        ----------
        text : str
            Raw text, e.g. a title and an abstract.
        boundaries : iterable of int, optional
            Offsets where a token must start or end; see :meth:`token_spans`.

        Returns
        -------
        list of TokenizedSentence
            One per sentence; empty for empty or blank text.
        """
        return _tokenized(text, self._spans(text, boundaries))

    def tokenize_text(self, text: str, boundaries=None) -> tuple[list[Sentence], list[np.ndarray]]:
        """Tokenize ``text`` into ``(sentences, offsets)``; see :func:`tokenize_text`.

        Parameters
        ----------
        text : str
            Raw text.
        boundaries : iterable of int, optional
            Offsets where a token must start or end (e.g. entity offsets).

        Returns
        -------
        sentences : list of Sentence
            The tokens of each sentence, exactly as they occur in ``text``.
        offsets : list of ndarray of shape (n_tokens, 2)
            Parallel to ``sentences``: the ``(start, end)`` character offsets
            of each token (int64).
        """
        doc = self.tokenize_document(text, boundaries)
        return [d.sentence for d in doc], [d.offsets for d in doc]


def tokenize(
    text: str, *, split_sentences=True, split_suffixes: bool = True, boundaries=None,
    cuts="jnlpba",
) -> list[tuple[int, int]]:
    """Tokenize raw text the way the JNLPBA/GENIA corpus is tokenized.

    The text is split into sentences first (see :func:`split_sentences`), so
    that only sentence-final periods are split off.  See
    :class:`BioTokenizer` for the rules.

    Parameters
    ----------
    text : str
        Raw text.
    split_sentences : bool or "lines", default=True
        How sentences are found; see :class:`BioTokenizer`.
    split_suffixes : bool, default=True
        Split ``-induced``, ``-mediated``... off a preceding gene-like name;
        see :class:`BioTokenizer`.
    boundaries : iterable of int, optional
        Offsets where a token must start or end (e.g. entity offsets).
    cuts : "jnlpba", CutTable or None, default="jnlpba"
        Words cut where the JNLPBA corpus would; see :class:`BioTokenizer`.

    Returns
    -------
    list of (int, int)
        ``(start, end)`` character offsets of every token: ``text[start:end]``
        is the token.

    Raises
    ------
    TypeError
        If ``text`` is not a str.

    Examples
    --------
    >>> text = "IL-2/IL-4 (e.g. 2.5%) in CD4+ cells et al. reported."
    >>> [text[s:e] for s, e in tokenize(text)]
    ['IL-2/IL-4', '(', 'e.g.', '2.5', '%', ')', 'in', 'CD4+', 'cells', 'et', 'al.', 'reported', '.']
    >>> text = 'the "Footprint" of Hodgkin\\'s cells'
    >>> [text[s:e] for s, e in tokenize(text)]
    ['the', '"', 'Footprint', '"', 'of', 'Hodgkin', "'s", 'cells']
    """
    tok = BioTokenizer(split_sentences=split_sentences, split_suffixes=split_suffixes,
                       cuts=cuts)
    return tok.token_spans(text, boundaries)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Split raw text into sentences.

    Parameters
    ----------
    text : str
        Raw text, e.g. a title and an abstract.

    Returns
    -------
    list of (int, int)
        ``(start, end)`` character offsets of each sentence, without
        surrounding whitespace.  Empty for empty or blank text.

    Raises
    ------
    TypeError
        If ``text`` is not a str.

    Examples
    --------
    >>> text = "Binding to E. coli (Smith et al. 1990) was weak. It rose 2.5-fold."
    >>> [text[s:e] for s, e in split_sentences(text)]
    ['Binding to E. coli (Smith et al. 1990) was weak.', 'It rose 2.5-fold.']
    """
    return _sentence_spans(_check_text(text))


def tokenize_text(
    text: str, *, split_sentences=True, split_suffixes: bool = True, boundaries=None,
    cuts="jnlpba",
) -> tuple[list[Sentence], list[np.ndarray]]:
    """Turn raw text into sentences of tokens and their character offsets.

    Parameters
    ----------
    text : str
        Raw text.
    split_sentences : bool or "lines", default=True
        See :class:`BioTokenizer`.
    split_suffixes : bool, default=True
        See :class:`BioTokenizer`.
    boundaries : iterable of int, optional
        Offsets where a token must start or end (e.g. entity offsets).
    cuts : "jnlpba", CutTable or None, default="jnlpba"
        Words cut where the JNLPBA corpus would; see :class:`BioTokenizer`.

    Returns
    -------
    sentences : list of Sentence
        The tokens of each sentence, exactly as they occur in ``text``.
    offsets : list of ndarray of shape (n_tokens, 2)
        Parallel to ``sentences``: the ``(start, end)`` character offsets of
        each token (int64), so that ``text[start:end]`` is the token.

    Raises
    ------
    TypeError
        If ``text`` is not a str.

    Examples
    --------
    >>> text = "Egr3 binds FasL. IL-2 (1 mM) was added."
    >>> sentences, offsets = tokenize_text(text)
    >>> [list(s) for s in sentences]
    [['Egr3', 'binds', 'FasL', '.'], ['IL-2', '(', '1', 'mM', ')', 'was', 'added', '.']]
    >>> offsets[0].tolist()
    [[0, 4], [5, 10], [11, 15], [15, 16]]
    """
    tok = BioTokenizer(split_sentences=split_sentences, split_suffixes=split_suffixes,
                       cuts=cuts)
    return tok.tokenize_text(text, boundaries)


# --------------------------------------------------------------------------
# alignment of given tokens to raw text
# --------------------------------------------------------------------------

# PTB writes a double quote as `` (opening) or '' (closing).
_QUOTES = {"``": '"', "''": '"'}


def _match_at(text, token, p, n):
    """End of ``token`` matched at ``text[p:]``, or -1.

    An exact match, a PTB quote on ``"``, or the token's characters with
    whitespace between them in the text ("0.67" on "0. 67").
    """
    if text.startswith(token, p):
        return p + len(token)
    alt = _QUOTES.get(token)
    if alt is not None and text.startswith(alt, p):
        return p + len(alt)
    q = p
    for ch in token:
        while q > p and q < n and text[q].isspace():
            q += 1
        if q >= n or text[q] != ch:
            return -1
        q += 1
    return q


def align_tokens(text: str, tokens, *, start: int = 0, max_skip: int = 3):
    """Locate the tokens of an already tokenized text in its raw text.

    The tokens are searched left to right, skipping whitespace.  This gives
    character offsets to a tokenized corpus whose raw text is available
    (the JNLPBA test abstracts).

    Parameters
    ----------
    text : str
        The raw text.
    tokens : iterable of str
        The tokens, in text order.
    start : int, default=0
        Where in ``text`` the search starts.
    max_skip : int, default=3
        How many non-space characters of ``text`` that belong to no token may
        be passed over before a token (e.g. a title-final period the corpus
        dropped).

    Returns
    -------
    list of (int, int) or None
        One entry per token: its ``(start, end)`` offsets, or ``None`` when it
        was not found (the search goes on from the end of the previous
        token).  A PTB quote (`````` or ``''``) is found on a ``"`` of the
        text, and a token may be found across whitespace of the text
        ("0.67" on "0. 67"): compare ``text[s:e]`` with the token where it
        matters.

    Raises
    ------
    TypeError
        If ``text`` is not a str or a token is not a non-empty str.

    Examples
    --------
    >>> align_tokens('a "b" c.', ["a", "``", "b", "''", "c"])
    [(0, 1), (2, 3), (3, 4), (4, 5), (6, 7)]
    >>> align_tokens("IL-2 binds", ["IL-2", "IL-4", "binds"])
    [(0, 4), None, (5, 10)]
    """
    text = _check_text(text)
    n = len(text)
    pos = start
    out: list[tuple[int, int] | None] = []
    for token in tokens:
        if not isinstance(token, str) or not token:
            raise TypeError(f"every token must be a non-empty str, got {token!r:.80}")
        found = None
        p = pos
        skipped = 0
        while p < n:
            m = _WS.match(text, p)
            if m is not None:
                p = m.end()
                continue
            end = _match_at(text, token, p, n)
            if end >= 0:
                found = (p, end)
                break
            skipped += 1
            if skipped > max_skip:
                break
            p += 1
        out.append(found)
        if found is not None:
            pos = found[1]
    return out
