"""Word-internal cuts learned from a tokenized corpus (``BioTokenizer(cuts="jnlpba")``).

The JNLPBA corpus cuts words where an entity starts or ends inside them:
``Tax-induced`` -> ``Tax`` ``-induced``, ``ATF/CREB`` -> ``ATF`` ``/`` ``CREB``,
``anti-CD3/`` ``PMA-stimulated``.  Raw text does not say where the entities are,
but the corpus says how often each kind of word is cut at each hyphen or slash.
A *cut point* is a position next to a hyphen or slash inside a word: before it
(``Tax|-induced``, kind ``"-<"`` / ``"/<"``) or after it (``anti-|CD3``, kind
``">-"`` / ``">/"``).  Each is described by the part of the word on its left
(``L``: from the word start, or the last slash before it, to the connector) and
the segment on its right (``R``: after the connector, up to the next hyphen or
slash), and looked up at decreasing levels of detail::

    (kind, L, R)  (kind, E(L) shape(L), R)  (kind, E(L), R)  (kind, L, shape(R))
    (kind, E(L) shape(L), shape(R))  (kind, shape(L), shape(R))

(lower-cased words; shapes below; ``E(L)`` says whether the corpus annotates ``L`` as
an entity of its own, :func:`entity_class`).  The first level seen at least
``min_count`` times in the corpus decides: cut when the corpus cut there in at
least ``threshold`` of the cases.  ``scripts/make_jnlpba_cuts.py`` counts the
cuts of ``train.iob2`` (the glued token pairs ``Tax`` ``-induced``, ``JAK``
``/STAT``, ``ATF`` ``/`` ``CREB``... against the whole words ``IL-2-induced``
...), chooses ``min_count`` and ``threshold`` on the development abstracts,
and writes the table shipped as ``skbioner/text/data/jnlpba_cuts.json.gz``.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from pathlib import Path

__all__ = ["CutTable", "cut_keys", "load_cut_table"]

_DATA = Path(__file__).resolve().parent / "data"
CONNECTORS = "-/"
#: Longer words are never cut (no name is this long; keeps garbage input linear).
MAX_WORD = 100
_GREEK_END = re.compile(
    r"(?:alpha|beta|gamma|delta|epsilon|kappa|zeta|theta|lambda|sigma|omega)\Z", re.IGNORECASE)


def _shape_left(s):
    """The class of a left part: D (has a digit), G (ends in a Greek letter name),
    C (has a capital), l (lower case letters), o (other)."""
    if any(c.isdigit() for c in s):
        return "D"
    if _GREEK_END.search(s) is not None:
        return "G"
    if any(c.isupper() for c in s):
        return "C"
    return "l" if s.isalpha() else "o"


def _shape_right(s):
    """The class of a right segment: l (a lower-case word), g (a Greek letter name),
    D (starts with a digit), C (starts with a capital), m (mixed lower case), o."""
    if s.isalpha() and s.islower():
        return "g" if _GREEK_END.fullmatch(s) is not None else "l"
    c = s[0]
    if c.isdigit():
        return "D"
    if c.isupper():
        return "C"
    return "m" if c.isalpha() else "o"


def entity_class(left, entities):
    """How often ``left`` is an entity of its own in the corpus.

    Parameters
    ----------
    left : str
    entities : dict of str to (int, int)
        Lower-cased token -> (times a one-token entity, times a token).

    Returns
    -------
    str
        ``"e"``: an entity in at least half of its occurrences, ``"p"``: sometimes,
        ``"n"``: never, ``"u"``: not a token of the corpus.
    """
    c = entities.get(left.lower())
    if c is None:
        return "u"
    if c[0] * 2 >= c[1]:
        return "e"
    return "p" if c[0] else "n"


def cut_keys(kind, left, right, entities=None):
    """The lookup keys of a cut point, most specific first.

    Parameters
    ----------
    kind : str
        ``"-<"``, ``"/<"`` (cut before the connector) or ``">-"``, ``">/"`` (after it).
    left : str
        The word part on the left of the connector (from the word start or the last
        slash before it).
    right : str
        The segment on the right of the connector (to the next hyphen or slash).
    entities : dict of str to (int, int), optional
        Lower-cased token -> (times a one-token entity, times a token); see
        :func:`entity_class`.  None: every word unknown.

    Returns
    -------
    tuple of str
        Six keys, ``kind|L|R`` down to ``kind|shape(L)|shape(R)``.
    """
    lo, ro = left.lower(), right.lower()
    sl, sr = "#" + _shape_left(left), "#" + _shape_right(right)
    ec = "$" + entity_class(left, entities or {})
    return (f"{kind}|{lo}|{ro}", f"{kind}|{ec}{sl}|{ro}", f"{kind}|{ec}|{ro}",
            f"{kind}|{lo}|{sr}", f"{kind}|{ec}{sl}|{sr}", f"{kind}|{sl}|{sr}")


def cut_points(word):
    """The cut points of a word: ``(offset, kind, left, right)``.

    Parameters
    ----------
    word : str

    Returns
    -------
    list of (int, str, str, str)
        For every hyphen or slash with a character on each side: the cut before it
        (``offset`` is the connector's) and after it (``offset`` one more).
    """
    out = []
    n = len(word)
    seg = 0  # where the left part starts: after the last slash
    for p in range(1, n - 1):
        c = word[p]
        if c not in CONNECTORS:
            continue
        q = p + 1
        while q < n and word[q] not in CONNECTORS:
            q += 1
        left, right = word[seg:p], word[p + 1:q]
        if left and right and word[p - 1] not in CONNECTORS:
            out.append((p, c + "<", left, right))
            out.append((p + 1, ">" + c, left, right))
        if c == "/":
            seg = p + 1
    return out


class CutTable:
    """Cut decisions of a learned table: which cut points of a word to cut.

    Parameters
    ----------
    counts : dict of str to (int, int)
        ``key -> (times cut, times seen)`` for the keys of :func:`cut_keys`
        seen at least ``min_count`` times.
    min_count : int
        The fewest observations a key needs to decide.
    threshold : float
        Cut when the corpus cut in at least this fraction of the observations.
    entities : dict of str to (int, int), optional
        Lower-cased token -> (times a one-token entity, times a token) in the corpus
        (see :func:`entity_class`).
    """

    def __init__(self, counts, min_count, threshold, entities=None):
        self.counts = counts
        self.entities = entities or {}
        self.min_count = min_count
        self.threshold = threshold
        self._caches()

    def _caches(self):
        self._decide = functools.lru_cache(maxsize=1 << 16)(self._decide_uncached)
        self._cuts = functools.lru_cache(maxsize=1 << 16)(self._cuts_uncached)

    def __getstate__(self):
        # the caches are rebuilt on loading (a model holding a table can be saved)
        return {k: v for k, v in self.__dict__.items() if k not in ("_decide", "_cuts")}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._caches()

    def _decide_uncached(self, kind, left, right):
        for key in cut_keys(kind, left, right, self.entities):
            c = self.counts.get(key)
            if c is not None and c[1] >= self.min_count:
                return c[0] >= self.threshold * c[1]
        return False

    def cuts(self, word):
        """Offsets inside ``word`` where it is cut.

        Parameters
        ----------
        word : str

        Returns
        -------
        list of int
            Sorted, each strictly inside the word; none for a word longer than
            ``MAX_WORD`` (100) characters.
        """
        return list(self._cuts(word))

    def _cuts_uncached(self, word):
        if len(word) > MAX_WORD:
            return ()
        return tuple(sorted({p for p, kind, left, right in cut_points(word)
                             if self._decide(kind, left, right)}))

    def to_json(self):
        """The table as a JSON-compatible dict.

        Returns
        -------
        dict
        """
        return {"min_count": self.min_count, "threshold": self.threshold,
                "counts": {k: list(v) for k, v in sorted(self.counts.items())},
                "entities": {k: list(v) for k, v in sorted(self.entities.items())}}


@functools.lru_cache(maxsize=4)
def load_cut_table(name="jnlpba"):
    """The cut table shipped with the package.

    Parameters
    ----------
    name : str, default="jnlpba"
        ``skbioner/text/data/<name>_cuts.json.gz``.

    Returns
    -------
    CutTable
    """
    with gzip.open(_DATA / f"{name}_cuts.json.gz", "rt", encoding="utf-8") as f:
        d = json.load(f)
    return CutTable({k: tuple(v) for k, v in d["counts"].items()}, d["min_count"],
                    d["threshold"], {k: tuple(v) for k, v in d["entities"].items()})
