"""Feature templates as data: :class:`FeatureGroup` and the presets.

A template set is a list of :class:`FeatureGroup`.  Each group has a
``name`` (unique in the set, the handle a feature selector adds or removes),
a ``kind`` (what is computed), ``offsets`` (token positions relative to the
current token at which it is read) and kind-specific ``params``.  The kinds
and their parameters are declared in the registry (:mod:`._registry`,
built-ins in :mod:`._kinds`) and listed in :data:`KINDS`;
:func:`get_preset` returns the published template sets.  A preset is a
function returning a list of groups, listed in ``_PRESET_FUNCS``.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

__all__ = [
    "TEMPLATE_PRESETS",
    "FeatureGroup",
    "get_preset",
]


class _FrozenParams(Mapping):
    """A read-only, hashable, picklable mapping of group parameters."""

    __slots__ = ("_d",)

    def __init__(self, items=()):
        d = {}
        for k, v in dict(items).items():
            if not isinstance(k, str):
                raise TypeError(f"parameter names must be str, got {k!r}")
            d[k] = _freeze(v)
        object.__setattr__(self, "_d", d)

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __hash__(self):
        return hash(tuple(sorted(self._d.items())))

    def __eq__(self, other):
        if isinstance(other, Mapping):
            return self._d == dict(other)
        return NotImplemented

    def __setattr__(self, name, value):
        raise AttributeError("FeatureGroup parameters are read-only")

    def __repr__(self):
        return repr(self._d)

    def __reduce__(self):
        return (_FrozenParams, (self._d,))


def _freeze(value):
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(sorted(value))
    return value


@dataclass(frozen=True)
class FeatureGroup:
    """One named group of feature templates.

    Parameters
    ----------
    name : str
        Unique name of the group in its template set, e.g. ``"w-1&w0"``; it
        is what ``TokenFeaturizer(exclude=...)`` and
        :meth:`~skbioner.features.TokenFeaturizer.get_template_names` use.
    kind : str
        What the group computes, one of :data:`KINDS`: a built-in kind
        (below) or one declared with
        :func:`~skbioner.features.register_kind`.  Checked when the
        featurizer is fitted.
    offsets : tuple of int, default=(0,)
        Positions, relative to the current token, read by the group.  A
        unary kind (``word``, ``prefix``, ``orthographic``...) emits one
        feature per offset and value, named ``"<label>[<offset>]=<value>"``.
        A ``conjunction`` joins the values at all its offsets into one
        feature; ``word_cache`` ignores positions and takes ``(0,)``.
    params : mapping, default={}
        Kind-specific parameters (see :data:`KINDS`); lists are stored as
        tuples and the mapping is read-only.
    optional : bool, default=False
        For groups that read annotation columns: if ``True`` and the column
        is absent from *every* training sentence, the group is silently
        dropped at fit (presets use this for POS, chunk and HMM columns).
        A column present in some sentences but not in others is always an
        error.

    Notes
    -----
    Kinds (parameters and defaults in :data:`KINDS`; ``label`` renames the
    feature prefix):

    ``word``
        The token (``lowercase``: None follows the featurizer), ``w[k]=...``.
    ``annotation``
        Value of annotation ``column`` (``pos``, ``chunk``, ``hmm``...);
        with ``prefixes`` (a tuple of lengths), its first characters
        instead, one feature per length (``brown4[0]=0110``: the bit-string
        prefixes of a Brown cluster; a shorter value, or a marker such as
        ``<unk>``, is used whole).
    ``prefix``, ``suffix``
        Affixes of each length in ``lengths`` (words at least that long),
        ``pre3[k]=...``, ``suf3[k]=...``.
    ``substring``
        All substrings of length ``min_length``..``max_length`` (None: up to
        the word length), ``sub[k]=...``.
    ``word_class``, ``brief_word_class``, ``orthographic``, ``length``, ``formation``
        :func:`~skbioner.features.word_class`,
        :func:`~skbioner.features.brief_word_class`,
        :func:`~skbioner.features.orthographic_flags` (several per token),
        :func:`~skbioner.features.length_bucket` (``bins``),
        :func:`~skbioner.features.word_formation`.
    ``dictionary``
        Every annotation column whose name starts with ``prefix``
        (``"dict_"``), found in ``fit``: ``dict_protein[0]=B``.
    ``chunk``
        The chunk tag in ``column`` (``"chunk"``: what
        :class:`~skbioner.annotate.RuleChunker` writes), ``chunk[-1]=B-NP``.
    ``lexicon``
        The space-separated values of ``column`` (``"lex"``: what
        :class:`~skbioner.annotate.LexiconMatcher` writes), ``O`` for none:
        ``lex[-1]=gene:B``, ``lex[-1]=protein:S``.
    ``conjunction``
        One feature joining single-valued attributes ``of`` (one name, or
        one per offset: ``word``, ``word_class``, ``brief_word_class``,
        ``length``, ``formation`` or an annotation column) at ``offsets``:
        ``w[-1]&w[0]=the|cell``.
    ``word_cache``
        ``side="left"``: one of the words at ``-window..0`` is W
        (``lwc2=W``); ``"right"``: at ``1..window`` (``rwc2=W``).
    ``head_noun``
        Mined in ``fit`` (needs ``y``): ``n``-grams that end entities of a
        class at least ``min_count`` times with precision at least
        ``min_precision``; fires where such an n-gram ends:
        ``head1[0]=protein``.
    ``affix_pattern``
        Mined in ``fit`` (needs ``y``): class-indicative prefixes/suffixes,
        ``morph[0]=suf:ase`` (see ``_mining.mine_affix_patterns``).

    Examples
    --------
    >>> FeatureGroup("w-1&w0", "conjunction", offsets=(-1, 0), params={"of": "word"})
    FeatureGroup(name='w-1&w0', kind='conjunction', offsets=(-1, 0), params={'of': 'word'}, \
optional=False)
    """

    name: str
    kind: str
    offsets: tuple[int, ...] = (0,)
    params: Mapping[str, Any] = field(default_factory=dict)
    optional: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"FeatureGroup name must be a non-empty str, got {self.name!r}")
        if not isinstance(self.kind, str):
            raise TypeError(f"FeatureGroup {self.name!r}: kind must be a str, got {self.kind!r}")
        offsets = self.offsets
        if isinstance(offsets, numbers.Integral):
            offsets = (offsets,)
        try:
            offsets = tuple(offsets)
        except TypeError:
            raise TypeError(
                f"FeatureGroup {self.name!r}: offsets must be a tuple of int, got {offsets!r}"
            ) from None
        for k in offsets:
            if not isinstance(k, numbers.Integral) or isinstance(k, bool):
                raise TypeError(
                    f"FeatureGroup {self.name!r}: offsets must be int, got {k!r} in {offsets!r}"
                )
        object.__setattr__(self, "offsets", tuple(int(k) for k in offsets))
        if not isinstance(self.params, Mapping):
            raise TypeError(
                f"FeatureGroup {self.name!r}: params must be a mapping, got {self.params!r}"
            )
        object.__setattr__(self, "params", _FrozenParams(self.params))
        object.__setattr__(self, "optional", bool(self.optional))


# --------------------------------------------------------------------------
# presets


def _window(k):
    return tuple(range(-k, k + 1))


def _words(offsets):
    """The conjunction of the words at ``offsets``, named ``w-1&w0``..."""
    return FeatureGroup("&".join(f"w{o}" for o in offsets), "conjunction", offsets, {"of": "word"})


def _ngram_groups(window, orders):
    return [_words(tuple(range(start, start + n)))
            for n in orders for start in range(-window, window - n + 2)]


#: Bit-string prefix lengths of the ``brown`` column read by the presets.
BROWN_PREFIXES = (4, 6, 10, 20)


def _word_class_groups(window):
    """The word-class columns of :mod:`skbioner.annotate`, when the sentences carry them.

    ``brown`` (a Brown cluster's bit string) as prefixes of :data:`BROWN_PREFIXES`
    bits and every ``emb*`` column (k-means classes of word embeddings), at
    ``-window..window``.
    """
    win = _window(window)
    return [
        FeatureGroup("brown", "annotation", win, {"column": "brown", "prefixes": BROWN_PREFIXES},
                     optional=True),
        FeatureGroup("emb", "dictionary", win, {"prefix": "emb"}),
    ]


def _lexicon_group(window):
    """The ``lex`` column of :class:`~skbioner.annotate.LexiconMatcher` (each type's position
    in a terminology name at the token), at ``-window..window``, when the sentences carry
    it."""
    return FeatureGroup("lexicon", "lexicon", _window(window), optional=True)


def _chan(window=2, context=1, affix_lengths=(1, 2, 3, 4, 5), class_window=0,
          lexicon_window=1):
    ctx = _window(context)
    return [
        FeatureGroup("w", "word", _window(window)),
        *_ngram_groups(window, (2, 3)),
        FeatureGroup("prefix", "prefix", (0,), {"lengths": affix_lengths}),
        FeatureGroup("suffix", "suffix", (0,), {"lengths": affix_lengths}),
        FeatureGroup("word_class", "word_class", ctx),
        FeatureGroup("brief_word_class", "brief_word_class", ctx),
        FeatureGroup("orthographic", "orthographic", ctx),
        FeatureGroup("length", "length", ctx),
        FeatureGroup("dictionary", "dictionary", (0,)),
        # annotations from skbioner.annotate, when the sentences carry them
        FeatureGroup("pos", "annotation", _window(window), {"column": "pos"}, optional=True),
        FeatureGroup("hmm", "annotation", _window(window), {"column": "hmm"}, optional=True),
        *_word_class_groups(class_window),
        _lexicon_group(lexicon_window),
    ]


def _kazama(window=3, affix_lengths=(1, 2, 3), substring_max_length=None, cache_window=3,
            affix_window=None, class_window=0, lexicon_window=1):
    # the paper's best set: {hw, pre, suf, pos, hmm}[-3..3], lwc_3, rwc_3 (pc[-2, -1] are
    # supplied by the tagger); substrings did not help there and are off
    win = _window(window)
    affix = _window(window if affix_window is None else affix_window)
    substring = {"min_length": 3, "max_length": substring_max_length}
    return [
        FeatureGroup("w", "word", win),
        FeatureGroup("prefix", "prefix", affix, {"lengths": affix_lengths}),
        FeatureGroup("suffix", "suffix", affix, {"lengths": affix_lengths}),
        *([FeatureGroup("substring", "substring", (0,), substring)]
          if substring_max_length is not None else []),
        FeatureGroup("pos", "annotation", win, {"column": "pos"}, optional=True),
        FeatureGroup("hmm", "annotation", win, {"column": "hmm"}, optional=True),
        FeatureGroup("lwc", "word_cache", (0,), {"side": "left", "window": cache_window}),
        FeatureGroup("rwc", "word_cache", (0,), {"side": "right", "window": cache_window}),
        *_word_class_groups(class_window),
        _lexicon_group(lexicon_window),
    ]


def _nerbio_conjunctions(span):
    """NERBio's candidate conjunctions (Tsai et al. 2006): every pair of words in
    -span..+span (21 for span 3), each a named group for sequential forward selection."""
    return list(map(_words, combinations(range(-span, span + 1), 2)))


def _nerbio(window=2, context=1, affix_lengths=(3, 4, 5), conjunction_span=3, class_window=0,
            lexicon_window=1):
    ctx = _window(context)
    win = _window(window)
    return [
        # singletons: words, shape and compressed shape, affixes, orthography, POS
        FeatureGroup("w", "word", win),
        FeatureGroup("word_class", "word_class", ctx),
        FeatureGroup("brief_word_class", "brief_word_class", ctx),
        FeatureGroup("prefix", "prefix", (0,), {"lengths": affix_lengths}),
        FeatureGroup("suffix", "suffix", (0,), {"lengths": affix_lengths}),
        FeatureGroup("orthographic", "orthographic", ctx),
        FeatureGroup("pos", "annotation", win, {"column": "pos"}, optional=True),
        FeatureGroup("chunk", "chunk", win, optional=True),
        # candidate conjunctions (kind "conjunction"), chosen by SequentialGroupSelector
        *_nerbio_conjunctions(conjunction_span),
        FeatureGroup("pos-1&pos0", "conjunction", (-1, 0), {"of": "pos"}, optional=True),
        FeatureGroup("pos0&pos1", "conjunction", (0, 1), {"of": "pos"}, optional=True),
        FeatureGroup("w0&pos0", "conjunction", (0, 0), {"of": ("word", "pos")}, optional=True),
        FeatureGroup("dictionary", "dictionary", (0,)),
        *_word_class_groups(class_window),
        _lexicon_group(lexicon_window),
    ]


def _zhou(context=1, min_trigger_count=3, affix_min_count=10, max_affixes=100,
          trigger_fraction=0.5, lexicon_window=1):
    ctx = _window(context)
    return [
        FeatureGroup("w", "word", (0,)),
        FeatureGroup("formation", "formation", ctx, {"patterns": "zhou"}),
        FeatureGroup(
            "morph",
            "affix_pattern",
            (0,),
            {"min_count": affix_min_count, "max_affixes": max_affixes},
        ),
        FeatureGroup("pos", "annotation", ctx, {"column": "pos"}, optional=True),
        FeatureGroup("head1", "head_noun", (0,), {"n": 1, "min_count": min_trigger_count,
                                                   "top_fraction": trigger_fraction}),
        FeatureGroup("head2", "head_noun", (0,), {"n": 2, "min_count": min_trigger_count,
                                                   "top_fraction": trigger_fraction}),
        FeatureGroup("dictionary", "dictionary", (0,)),
        _lexicon_group(lexicon_window),
    ]


_PRESET_FUNCS = {"chan": _chan, "kazama": _kazama, "nerbio": _nerbio, "zhou": _zhou}

#: Names accepted by :func:`get_preset` and ``TokenFeaturizer(templates=...)``.
TEMPLATE_PRESETS = tuple(_PRESET_FUNCS)


def get_preset(name: str, **options) -> list[FeatureGroup]:
    """Return a published template set as a list of :class:`FeatureGroup`.

    Parameters
    ----------
    name : {"chan", "kazama", "nerbio", "zhou"}
        ``"chan"``
            Chan, Lam & Yu (2007) / Settles (2004): words at offsets -2..+2;
            word bigrams and trigrams inside that window; prefixes and
            suffixes of length 1-5 of the current token; word class, brief
            word class, orthographic flags and length bucket at -1..+1;
            ``dict_*`` annotation columns at 0; the ``pos`` and ``hmm``
            annotation columns (:mod:`skbioner.annotate`) at -2..+2 when
            the sentences have them, and so the word classes (below).
            Options: ``window=2``, ``context=1``,
            ``affix_lengths=(1, 2, 3, 4, 5)``, ``class_window=0``.
        ``"kazama"``
            Kazama et al. (2002), the paper's best set: words, prefixes,
            suffixes, ``pos`` and ``hmm`` columns (when present) at
            -3..+3, the left and right word caches ``lwc_3`` / ``rwc_3``
            (the preceding classes are features the
            :class:`~skbioner.models.PairwiseSVMTagger` adds itself).
            Options: ``window=3``, ``affix_lengths=(1, 2, 3)``,
            ``affix_window=None`` (the affixes' window; None: ``window``),
            ``substring_max_length=None`` (substrings of length 3..k of
            the current word; off by default, as they did not help in the
            paper), ``cache_window=3``.  Before the pairwise SVM (issue 12)
            the defaults were ``window=2, cache_window=2, affix_window=0``.
        ``"nerbio"``
            NERBio (Tsai et al. 2006).  Singletons: words at -2..+2, word
            shape (``word_class``) and compressed shape
            (``brief_word_class``) and the orthographic flags at -1..+1,
            affixes of length 3-5, ``pos``/``chunk`` columns when present.
            Candidate conjunctions (kind ``conjunction``, one named group
            each, for :class:`~skbioner.pipelines.SequentialGroupSelector`):
            the paper's candidates, every pair of words inside -3..+3 (21:
            ``w-3&w-2``, ``w-3&w-1`` ... ``w2&w3``), and ``pos-1&pos0``,
            ``pos0&pos1``, ``w0&pos0``
            when the ``pos`` column is present.  Options: ``window=2``,
            ``context=1``, ``affix_lengths=(3, 4, 5)``,
            ``conjunction_span=3``.
        ``"zhou"``
            Zhou & Su (2004): the word, the paper's word formation pattern
            (:func:`~skbioner.features.zhou_word_formation`, one per token)
            at -1..+1, affix patterns mined from the training data, ``pos``
            when present, unigram and bigram head-noun triggers mined from
            the training entities, the most frequent half per class
            (``fit`` needs ``y``), ``dict_*`` columns when present.
            Options: ``context=1``, ``min_trigger_count=3``,
            ``affix_min_count=10``, ``max_affixes=100``,
            ``trigger_fraction=0.5``.
    **options
        Preset options listed above.

    Notes
    -----
    Every preset but ``"zhou"`` reads the word classes of
    :mod:`skbioner.annotate` when the sentences carry them
    (:class:`~skbioner.annotate.WordClassAnnotator`,
    ``skbioner train --word-classes``): the ``brown`` column as bit-string
    prefixes of :data:`BROWN_PREFIXES` bits (group ``brown``) and every
    ``emb*`` column (group ``emb``), at ``-class_window..class_window``
    (0 by default: the token's own classes; wider windows were no better on
    the JNLPBA and BioNLP13CG development data, ``docs/lab/word-classes.md``).

    Returns
    -------
    list of FeatureGroup

    Examples
    --------
    >>> [g.name for g in get_preset("nerbio") if g.kind == "conjunction"][:6]
    ['w-3&w-2', 'w-3&w-1', 'w-3&w0', 'w-3&w1', 'w-3&w2', 'w-3&w3']
    """
    try:
        func = _PRESET_FUNCS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown template preset {name!r}; expected one of "
                         f"{TEMPLATE_PRESETS}") from None
    try:
        return func(**options)
    except TypeError as exc:
        raise TypeError(f"preset {name!r}: {exc}") from None
