"""Feature templates as data: :class:`FeatureGroup`, the kinds, and presets.

A template set is a list of :class:`FeatureGroup`.  Each group has a
``name`` (unique in the set, the handle a feature selector adds or removes),
a ``kind`` (what is computed), ``offsets`` (token positions relative to the
current token at which it is read) and kind-specific ``params``.  The kinds
and their parameters are listed in :data:`KINDS`; :func:`get_preset`
returns the published template sets.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "KINDS",
    "PRESETS",
    "TOKEN_ATTRIBUTES",
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
        What the group computes, one of :data:`KINDS`.  Checked when the
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
        Value of annotation ``column`` (``pos``, ``chunk``, ``hmm``...).
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
# kinds and their parameters


class _Required:
    """Marker of a parameter without default in :data:`KINDS`."""

    def __repr__(self):
        return "<required>"

    def __reduce__(self):
        return (_required, ())


def _required():
    return _REQUIRED


_REQUIRED = _Required()

#: Single-valued token attributes a ``conjunction`` can join by name;
#: any other name in ``of`` is an annotation column (``"pos"``, ``"chunk"``).
TOKEN_ATTRIBUTES = ("word", "word_class", "brief_word_class", "length", "formation")

_DEFAULT_BINS = (1, 2, 3, 4, 5, 7, 10)

#: The kinds of :class:`FeatureGroup` and their parameters with defaults
#: (``<required>``: no default; ``None`` label: derived from other parameters).
KINDS = {
    "word": {"lowercase": None, "label": "w"},
    "annotation": {"column": _REQUIRED, "label": None},
    "prefix": {"lengths": (1, 2, 3, 4, 5), "label": "pre"},
    "suffix": {"lengths": (1, 2, 3, 4, 5), "label": "suf"},
    "substring": {"min_length": 3, "max_length": None, "label": "sub"},
    "word_class": {"label": "wc"},
    "brief_word_class": {"label": "bwc"},
    "orthographic": {"label": "orth"},
    "length": {"bins": _DEFAULT_BINS, "label": "len"},
    "formation": {"label": "wf"},
    "dictionary": {"prefix": "dict_"},
    "conjunction": {"of": _REQUIRED, "lowercase": None},
    "word_cache": {"side": _REQUIRED, "window": 2, "lowercase": None, "label": None},
    "head_noun": {
        "n": 1,
        "min_count": 3,
        "min_precision": 0.2,
        "lowercase": True,
        "scheme": "IOB2",
        "label": None,
    },
    "affix_pattern": {
        "lengths": (3, 4, 5),
        "types": ("prefix", "suffix"),
        "min_count": 10,
        "min_purity": 0.7,
        "max_affixes": 100,
        "lowercase": True,
        "scheme": "IOB2",
        "label": "morph",
    },
}

#: Kinds whose features are mined from ``(X, y)`` in ``fit``.
SUPERVISED_KINDS = frozenset({"head_noun", "affix_pattern"})

_UNARY_WITH_OFFSETS = frozenset(KINDS) - {"conjunction", "word_cache"}


def _err(group, msg):
    return ValueError(f"feature group {group.name!r} (kind {group.kind!r}): {msg}")


def _check_int(group, name, value, low=1, allow_none=False):
    if value is None and allow_none:
        return None
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < low:
        raise _err(group, f"parameter {name!r} must be an int >= {low}, got {value!r}")
    return int(value)


def _check_bool(group, name, value, allow_none=False):
    if value is None and allow_none:
        return None
    if not isinstance(value, bool):
        raise _err(group, f"parameter {name!r} must be a bool, got {value!r}")
    return value


def _check_fraction(group, name, value):
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or not 0.0 < float(value) <= 1.0
    ):
        raise _err(group, f"parameter {name!r} must be a number in (0, 1], got {value!r}")
    return float(value)


def _check_str(group, name, value, allow_none=False):
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or not value:
        raise _err(group, f"parameter {name!r} must be a non-empty str, got {value!r}")
    return value


def _check_lengths(group, name, value):
    if isinstance(value, numbers.Integral):
        value = (value,)
    if not isinstance(value, tuple) or not value:
        raise _err(group, f"parameter {name!r} must be a non-empty tuple of int, got {value!r}")
    out = tuple(_check_int(group, name, v) for v in value)
    if len(set(out)) != len(out):
        raise _err(group, f"parameter {name!r} has repeated values: {value!r}")
    return out


def resolve_params(group: FeatureGroup) -> dict:
    """Validate a group and return its parameters with defaults filled in.

    Raises ``ValueError`` (naming the group) for an unknown kind, an unknown
    or missing parameter, a bad value, or offsets the kind cannot take.
    """
    if group.kind not in KINDS:
        raise _err(group, f"unknown kind; expected one of {sorted(KINDS)}")
    spec = KINDS[group.kind]
    unknown = sorted(set(group.params) - set(spec))
    if unknown:
        raise _err(group, f"unknown parameter(s) {unknown}; {group.kind!r} takes {sorted(spec)}")
    p = {}
    for key, default in spec.items():
        if key in group.params:
            p[key] = group.params[key]
        elif default is _REQUIRED:
            raise _err(group, f"missing required parameter {key!r}")
        else:
            p[key] = default
    if not group.offsets:
        raise _err(group, "offsets must not be empty")
    kind = group.kind
    if kind in _UNARY_WITH_OFFSETS and len(set(group.offsets)) != len(group.offsets):
        raise _err(group, f"repeated offsets {group.offsets!r}")

    if "label" in p:
        p["label"] = _check_str(group, "label", p["label"], allow_none=True)
    if "lowercase" in p:
        p["lowercase"] = _check_bool(
            group,
            "lowercase",
            p["lowercase"],
            allow_none=kind in ("word", "conjunction", "word_cache"),
        )
    if "scheme" in p:
        from ..schemes import check_scheme

        try:
            p["scheme"] = check_scheme(p["scheme"])
        except (ValueError, TypeError) as exc:
            raise _err(group, str(exc)) from None

    if kind == "annotation":
        p["column"] = _check_str(group, "column", p["column"])
        if p["column"] == "word":
            raise _err(group, "use kind 'word' for the tokens themselves")
        if p["label"] is None:
            p["label"] = p["column"]
    elif kind in ("prefix", "suffix"):
        p["lengths"] = _check_lengths(group, "lengths", p["lengths"])
    elif kind == "substring":
        p["min_length"] = _check_int(group, "min_length", p["min_length"])
        p["max_length"] = _check_int(group, "max_length", p["max_length"], allow_none=True)
        if p["max_length"] is not None and p["max_length"] < p["min_length"]:
            raise _err(group, "max_length must be >= min_length")
    elif kind == "length":
        bins = _check_lengths(group, "bins", p["bins"])
        if list(bins) != sorted(bins):
            raise _err(group, f"parameter 'bins' must be increasing, got {bins!r}")
        p["bins"] = bins
    elif kind == "dictionary":
        p["prefix"] = _check_str(group, "prefix", p["prefix"])
    elif kind == "conjunction":
        of = p["of"]
        if isinstance(of, str):
            of = (of,) * len(group.offsets)
        if not isinstance(of, tuple) or len(of) != len(group.offsets):
            raise _err(
                group,
                f"parameter 'of' must be a str or a tuple with one entry per offset "
                f"({len(group.offsets)}), got {p['of']!r}",
            )
        p["of"] = tuple(_check_str(group, "of", a) for a in of)
        if len(group.offsets) < 2:
            raise _err(group, "a conjunction needs at least two offsets")
        if len(set(zip(p["of"], group.offsets, strict=True))) != len(group.offsets):
            raise _err(group, "a conjunction reads the same attribute at the same offset twice")
    elif kind == "word_cache":
        if p["side"] not in ("left", "right"):
            raise _err(group, f"parameter 'side' must be 'left' or 'right', got {p['side']!r}")
        p["window"] = _check_int(group, "window", p["window"])
        if group.offsets != (0,):
            raise _err(
                group,
                f"a word cache is position independent; offsets must be (0,), "
                f"got {group.offsets!r}",
            )
        if p["label"] is None:
            p["label"] = f"{p['side'][0]}wc{p['window']}"
    elif kind == "head_noun":
        p["n"] = _check_int(group, "n", p["n"])
        p["min_count"] = _check_int(group, "min_count", p["min_count"])
        p["min_precision"] = _check_fraction(group, "min_precision", p["min_precision"])
        if p["label"] is None:
            p["label"] = f"head{p['n']}"
    elif kind == "affix_pattern":
        p["lengths"] = _check_lengths(group, "lengths", p["lengths"])
        types = p["types"]
        if isinstance(types, str):
            types = (types,)
        if not types or not set(types) <= {"prefix", "suffix"}:
            raise _err(
                group, f"parameter 'types' must name 'prefix' and/or 'suffix', got {types!r}"
            )
        p["types"] = tuple(t for t in ("prefix", "suffix") if t in types)
        p["min_count"] = _check_int(group, "min_count", p["min_count"])
        p["min_purity"] = _check_fraction(group, "min_purity", p["min_purity"])
        p["max_affixes"] = _check_int(group, "max_affixes", p["max_affixes"])
    return p


def group_columns(group: FeatureGroup, params: dict) -> tuple[str, ...]:
    """Annotation columns a group reads (``dictionary`` columns are found at fit)."""
    if group.kind == "annotation":
        return (params["column"],)
    if group.kind == "conjunction":
        return tuple(dict.fromkeys(a for a in params["of"] if a not in TOKEN_ATTRIBUTES))
    return ()


# --------------------------------------------------------------------------
# presets


def _window(k):
    return tuple(range(-k, k + 1))


def _ngram_groups(window, orders):
    groups = []
    for n in orders:
        for start in range(-window, window - n + 2):
            offs = tuple(range(start, start + n))
            name = "&".join(f"w{o}" for o in offs)
            groups.append(FeatureGroup(name, "conjunction", offs, {"of": "word"}))
    return groups


def _chan(window=2, context=1, affix_lengths=(1, 2, 3, 4, 5)):
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
    ]


def _kazama(window=2, affix_lengths=(1, 2, 3), substring_max_length=None, cache_window=2):
    win = _window(window)
    groups = [
        FeatureGroup("w", "word", win),
        FeatureGroup("prefix", "prefix", (0,), {"lengths": affix_lengths}),
        FeatureGroup("suffix", "suffix", (0,), {"lengths": affix_lengths}),
    ]
    if substring_max_length is not None:
        groups.append(
            FeatureGroup(
                "substring",
                "substring",
                (0,),
                {"min_length": 3, "max_length": substring_max_length},
            )
        )
    groups += [
        FeatureGroup("pos", "annotation", win, {"column": "pos"}, optional=True),
        FeatureGroup("hmm", "annotation", win, {"column": "hmm"}, optional=True),
        FeatureGroup("lwc", "word_cache", (0,), {"side": "left", "window": cache_window}),
        FeatureGroup("rwc", "word_cache", (0,), {"side": "right", "window": cache_window}),
    ]
    return groups


def _nerbio(window=2, context=1, affix_lengths=(3, 4, 5)):
    ctx = _window(context)
    win = _window(window)
    return [
        FeatureGroup("w", "word", win),
        FeatureGroup("word_class", "word_class", ctx),
        FeatureGroup("brief_word_class", "brief_word_class", ctx),
        FeatureGroup("prefix", "prefix", (0,), {"lengths": affix_lengths}),
        FeatureGroup("suffix", "suffix", (0,), {"lengths": affix_lengths}),
        FeatureGroup("orthographic", "orthographic", ctx),
        FeatureGroup("pos", "annotation", win, {"column": "pos"}, optional=True),
        FeatureGroup("chunk", "annotation", win, {"column": "chunk"}, optional=True),
        FeatureGroup("w-1&w0", "conjunction", (-1, 0), {"of": "word"}),
        FeatureGroup("w0&w1", "conjunction", (0, 1), {"of": "word"}),
        FeatureGroup("pos-1&pos0", "conjunction", (-1, 0), {"of": "pos"}, optional=True),
        FeatureGroup("pos0&pos1", "conjunction", (0, 1), {"of": "pos"}, optional=True),
        FeatureGroup("w0&pos0", "conjunction", (0, 0), {"of": ("word", "pos")}, optional=True),
        FeatureGroup("dictionary", "dictionary", (0,)),
    ]


def _zhou(context=1, min_trigger_count=3, affix_min_count=10, max_affixes=100):
    ctx = _window(context)
    return [
        FeatureGroup("w", "word", (0,)),
        FeatureGroup("formation", "formation", ctx),
        FeatureGroup(
            "morph",
            "affix_pattern",
            (0,),
            {"min_count": affix_min_count, "max_affixes": max_affixes},
        ),
        FeatureGroup("pos", "annotation", ctx, {"column": "pos"}, optional=True),
        FeatureGroup("head1", "head_noun", (0,), {"n": 1, "min_count": min_trigger_count}),
        FeatureGroup("head2", "head_noun", (0,), {"n": 2, "min_count": min_trigger_count}),
        FeatureGroup("dictionary", "dictionary", (0,)),
    ]


_PRESET_FUNCS = {"chan": _chan, "kazama": _kazama, "nerbio": _nerbio, "zhou": _zhou}

#: Names accepted by :func:`get_preset` and ``TokenFeaturizer(templates=...)``.
PRESETS = tuple(_PRESET_FUNCS)


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
            the sentences have them.  Options: ``window=2``,
            ``context=1``, ``affix_lengths=(1, 2, 3, 4, 5)``.
        ``"kazama"``
            Kazama et al. (2002): words, ``pos`` and ``hmm`` columns (when
            present) at -k..+k, prefixes and suffixes of the current word,
            left and right word caches.  Options: ``window=2``,
            ``affix_lengths=(1, 2, 3)``, ``substring_max_length=None``
            (substrings of length 3..k of the current word; off by
            default), ``cache_window=2``.
        ``"nerbio"``
            NERBio (Tsai et al. 2006): words at -2..+2, word shape and
            compressed shape, affixes of length 3-5, orthographic flags,
            ``pos``/``chunk`` columns when present, and the conjunctions
            ``w-1&w0``, ``w0&w1``, ``pos-1&pos0``, ``pos0&pos1``,
            ``w0&pos0``.  Options: ``window=2``, ``context=1``,
            ``affix_lengths=(3, 4, 5)``.
        ``"zhou"``
            Zhou & Su (2004): the word, word formation pattern at -1..+1,
            affix patterns mined from the training data, ``pos`` when
            present, unigram and bigram head-noun triggers mined from the
            training entities (``fit`` needs ``y``).  Options:
            ``context=1``, ``min_trigger_count=3``,
            ``affix_min_count=10``, ``max_affixes=100``.
    **options
        Preset options listed above.

    Returns
    -------
    list of FeatureGroup

    Examples
    --------
    >>> [g.name for g in get_preset("nerbio")][-6:]
    ['w-1&w0', 'w0&w1', 'pos-1&pos0', 'pos0&pos1', 'w0&pos0', 'dictionary']
    """
    try:
        func = _PRESET_FUNCS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown template preset {name!r}; expected one of {PRESETS}") from None
    try:
        return func(**options)
    except TypeError as exc:
        raise TypeError(f"preset {name!r}: {exc}") from None
