"""The built-in feature kinds, each declared once with :func:`register_kind`.

A declaration gives the kind's parameters (defaults and checks), the
annotation columns it reads, whether it is mined from labelled data, and
its ``build`` function (resolved parameters -> channels or blocks).  To add
a kind, add one declaration here (and a line to the ``FeatureGroup``
docstring and the oracle of ``tests/features``).
"""

from __future__ import annotations

from . import _channels as ch
from ._engine import CacheBlock, ConjunctionBlock, HeadNgramChannel, TokenBlock
from ._mining import mine_affix_patterns, mine_head_nouns
from ._registry import (
    _REQUIRED,  # a parameter without default
    check_bool,
    check_choice,
    check_fraction,
    check_int,
    check_lengths,
    check_scheme,
    check_str,
    optional,
    register_kind,
)

__all__ = ["TOKEN_ATTRIBUTES"]

_DEFAULT_BINS = (1, 2, 3, 4, 5, 7, 10)

#: The single-valued channel of each token attribute a ``conjunction`` can join by name
#: (any other name in ``of`` is an annotation column: ``"pos"``, ``"chunk"``).
_ATTRIBUTES = {
    "word": ch.WordChannel,  # called with the lowercase parameter
    "word_class": ch.WordClassChannel,
    "brief_word_class": ch.BriefWordClassChannel,
    "length": lambda: ch.LengthChannel(_DEFAULT_BINS),
    "formation": ch.FormationChannel,
}
#: Single-valued token attributes a ``conjunction`` can join by name.
TOKEN_ATTRIBUTES = tuple(_ATTRIBUTES)

_LABEL = optional(check_str)
_LOWERCASE_OR_NONE = optional(check_bool)


def _kind(name, build, params, **declaration):
    """:func:`register_kind` with each parameter given as ``name: (default, check)``.

    ``_REQUIRED`` as the default: the parameter has none; None as the check: none.
    """
    register_kind(
        name,
        build,
        params={k: d for k, (d, _) in params.items() if d is not _REQUIRED},
        required=tuple(k for k, (d, _) in params.items() if d is _REQUIRED),
        checks={k: c for k, (_, c) in params.items() if c is not None},
        **declaration,
    )


# -- the word and annotation columns ---------------------------------------------


_kind(
    "word",
    lambda group, p, context: [ch.WordChannel(lowercase=p["lowercase"], label=p["label"])],
    {"lowercase": (None, _LOWERCASE_OR_NONE), "label": ("w", _LABEL)},
)


def _validate_annotation(group, p):
    if p["column"] == "word":
        raise ValueError("use kind 'word' for the tokens themselves")


def _build_annotation(group, p, context):
    if p["prefixes"] is None:
        return [ch.AnnotationChannel(p["column"], p["label"])]
    return [ch.AnnotationPrefixChannel(p["column"], n, p["label"]) for n in p["prefixes"]]


_kind(
    "annotation",
    _build_annotation,
    {"column": (_REQUIRED, check_str), "label": (None, _LABEL),
     "prefixes": (None, optional(check_lengths))},
    validate=_validate_annotation,
    columns=lambda p: (p["column"],),
)


# -- affixes and substrings ------------------------------------------------------


for _name, _channel, _label in (("prefix", ch.PrefixChannel, "pre"),
                                ("suffix", ch.SuffixChannel, "suf")):
    _kind(
        _name,
        lambda group, p, context, channel=_channel: [channel(n, p["label"]) for n in p["lengths"]],
        {"lengths": ((1, 2, 3, 4, 5), check_lengths), "label": (_label, _LABEL)},
    )


def _validate_substring(group, p):
    if p["max_length"] is not None and p["max_length"] < p["min_length"]:
        raise ValueError("max_length must be >= min_length")


_kind(
    "substring",
    lambda group, p, context: [ch.SubstringChannel(p["min_length"], p["max_length"], p["label"])],
    {"min_length": (3, check_int()), "max_length": (None, optional(check_int())),
     "label": ("sub", _LABEL)},
    validate=_validate_substring,
)


# -- word shape ------------------------------------------------------------------


# unary kinds computing one per-type shape function, with only a label
for _name, _channel, _label in (("word_class", ch.WordClassChannel, "wc"),
                                ("brief_word_class", ch.BriefWordClassChannel, "bwc"),
                                ("orthographic", ch.OrthographicChannel, "orth")):
    _kind(_name, lambda group, p, context, c=_channel: [c(p["label"])], {"label": (_label, _LABEL)})


def _check_bins(value):
    bins = check_lengths(value)
    if list(bins) != sorted(bins):
        raise ValueError(f"must be increasing, got {bins!r}")
    return bins


_kind(
    "length",
    lambda group, p, context: [ch.LengthChannel(p["bins"], p["label"])],
    {"bins": (_DEFAULT_BINS, _check_bins), "label": ("len", _LABEL)},
)

_kind(
    "formation",
    lambda group, p, context: [ch.FormationChannel(p["label"], p["patterns"])],
    {"label": ("wf", _LABEL), "patterns": ("suite", check_choice("suite", "zhou"))},
)


# -- dictionary annotations ------------------------------------------------------


_kind(
    "dictionary",
    lambda group, p, context: [ch.AnnotationChannel(c) for c in context.columns],
    {"prefix": ("dict_", check_str)},
    discover_columns=lambda p, names: tuple(sorted(c for c in names if c.startswith(p["prefix"]))),
)

# chunk: a chunker's IOB tags (skbioner.annotate.RuleChunker), read as written;
# lexicon: the matches of skbioner.annotate.LexiconMatcher, one feature each
for _name, _channel, _column in (("chunk", ch.AnnotationChannel, "chunk"),
                                 ("lexicon", ch.SplitAnnotationChannel, "lex")):
    _kind(
        _name,
        lambda group, p, context, channel=_channel: [channel(p["column"], p["label"])],
        {"column": (_column, check_str), "label": (None, _LABEL)},
        columns=lambda p: (p["column"],),
    )


# -- conjunctions and word caches ------------------------------------------------


def _attribute_channel(name, lowercase):
    """The single-valued channel of a conjunction part (see :data:`TOKEN_ATTRIBUTES`)."""
    if name == "word":
        return ch.WordChannel(lowercase=lowercase)
    return _ATTRIBUTES[name]() if name in _ATTRIBUTES else ch.AnnotationChannel(name)


def _validate_conjunction(group, p):
    of = p["of"]
    if isinstance(of, str):
        of = (of,) * len(group.offsets)
    if not isinstance(of, tuple) or len(of) != len(group.offsets):
        raise ValueError(
            f"parameter 'of' must be a str or a tuple with one entry per offset "
            f"({len(group.offsets)}), got {p['of']!r}"
        )
    for a in of:
        try:
            check_str(a)
        except ValueError as exc:
            raise ValueError(f"parameter 'of' {exc}") from None
    p["of"] = of
    if len(group.offsets) < 2:
        raise ValueError("a conjunction needs at least two offsets")
    if len(set(zip(p["of"], group.offsets, strict=True))) != len(group.offsets):
        raise ValueError("a conjunction reads the same attribute at the same offset twice")


def _build_conjunction(group, p, context):
    parts = [
        (_attribute_channel(a, p["lowercase"]), k)
        for a, k in zip(p["of"], group.offsets, strict=True)
    ]
    return [ConjunctionBlock(group.name, parts)]


_kind(
    "conjunction",
    _build_conjunction,
    {"of": (_REQUIRED, None), "lowercase": (None, _LOWERCASE_OR_NONE)},
    validate=_validate_conjunction,
    columns=lambda p: tuple(dict.fromkeys(a for a in p["of"] if a not in TOKEN_ATTRIBUTES)),
    distinct_offsets=False,
)


def _validate_word_cache(group, p):
    if group.offsets != (0,):
        raise ValueError(
            f"a word cache is position independent; offsets must be (0,), got {group.offsets!r}"
        )


def _build_word_cache(group, p, context):
    label = f"{p['side'][0]}wc{p['window']}" if p["label"] is None else p["label"]
    channel = ch.WordChannel(lowercase=p["lowercase"])
    return [CacheBlock(group.name, channel, p["side"], p["window"], label)]


_kind(
    "word_cache",
    _build_word_cache,
    {"side": (_REQUIRED, check_choice("left", "right")), "window": (2, check_int()),
     "lowercase": (None, _LOWERCASE_OR_NONE), "label": (None, _LABEL)},
    validate=_validate_word_cache,
    distinct_offsets=False,
)


# -- mined from labelled data ----------------------------------------------------


def _build_head_noun(group, p, context):
    triggers = mine_head_nouns(
        context.corpus,
        context.spans(p["scheme"]),
        p["n"],
        p["min_count"],
        p["min_precision"],
        p["lowercase"],
        p["top_fraction"],
    )
    context.record_mined(triggers)
    label = f"head{p['n']}" if p["label"] is None else p["label"]
    channel = HeadNgramChannel(group.name, p["n"], triggers, p["lowercase"], label)
    return [TokenBlock(group.name, channel, k) for k in group.offsets]


_kind(
    "head_noun",
    _build_head_noun,
    {
        "n": (1, check_int()),
        "min_count": (3, check_int()),
        "min_precision": (0.2, check_fraction),
        "lowercase": (True, check_bool),
        "scheme": ("IOB2", check_scheme),
        "label": (None, _LABEL),
        "top_fraction": (None, optional(check_fraction)),
    },
    supervised=True,
)


def _check_affix_types(value):
    types = (value,) if isinstance(value, str) else value
    if not types or not set(types) <= {"prefix", "suffix"}:
        raise ValueError(f"must name 'prefix' and/or 'suffix', got {types!r}")
    return tuple(t for t in ("prefix", "suffix") if t in types)


def _build_affix_pattern(group, p, context):
    patterns = mine_affix_patterns(
        context.corpus,
        context.spans(p["scheme"]),
        p["lengths"],
        p["types"],
        p["min_count"],
        p["min_purity"],
        p["max_affixes"],
        p["lowercase"],
    )
    context.record_mined(patterns)
    return [ch.AffixPatternChannel(group.name, patterns, p["lengths"], p["lowercase"], p["label"])]


_kind(
    "affix_pattern",
    _build_affix_pattern,
    {
        "lengths": ((3, 4, 5), check_lengths),
        "types": (("prefix", "suffix"), _check_affix_types),
        "min_count": (10, check_int()),
        "min_purity": (0.7, check_fraction),
        "max_affixes": (100, check_int()),
        "lowercase": (True, check_bool),
        "scheme": ("IOB2", check_scheme),
        "label": ("morph", _LABEL),
    },
    supervised=True,
)
