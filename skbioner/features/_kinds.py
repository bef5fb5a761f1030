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
    check_bool,
    check_fraction,
    check_int,
    check_lengths,
    check_scheme,
    check_str,
    register_kind,
)

__all__ = ["TOKEN_ATTRIBUTES"]

#: Single-valued token attributes a ``conjunction`` can join by name;
#: any other name in ``of`` is an annotation column (``"pos"``, ``"chunk"``).
TOKEN_ATTRIBUTES = ("word", "word_class", "brief_word_class", "length", "formation")

_DEFAULT_BINS = (1, 2, 3, 4, 5, 7, 10)

_LABEL = check_str(allow_none=True)
_LOWERCASE_OR_NONE = check_bool(allow_none=True)


def _register_shape(kind, channel_class, label):
    """A unary kind computing one per-type shape function, with only a ``label``."""
    register_kind(
        kind,
        lambda group, p, context: [channel_class(p["label"])],
        params={"label": label},
        checks={"label": _LABEL},
    )


# -- the word and annotation columns ---------------------------------------------


register_kind(
    "word",
    lambda group, p, context: [ch.WordChannel(lowercase=p["lowercase"], label=p["label"])],
    params={"lowercase": None, "label": "w"},
    checks={"lowercase": _LOWERCASE_OR_NONE, "label": _LABEL},
)


def _validate_annotation(group, p):
    if p["column"] == "word":
        raise ValueError("use kind 'word' for the tokens themselves")
    if p["label"] is None:
        p["label"] = p["column"]


def _build_annotation(group, p, context):
    if p["prefixes"] is None:
        return [ch.AnnotationChannel(p["column"], p["label"])]
    return [ch.AnnotationPrefixChannel(p["column"], n, p["label"]) for n in p["prefixes"]]


def _check_prefixes(value):
    return None if value is None else check_lengths(value)


register_kind(
    "annotation",
    _build_annotation,
    required=("column",),
    params={"label": None, "prefixes": None},
    checks={"column": check_str(), "label": _LABEL, "prefixes": _check_prefixes},
    validate=_validate_annotation,
    columns=lambda p: (p["column"],),
)


# -- affixes and substrings ------------------------------------------------------


register_kind(
    "prefix",
    lambda group, p, context: [ch.PrefixChannel(n, p["label"]) for n in p["lengths"]],
    params={"lengths": (1, 2, 3, 4, 5), "label": "pre"},
    checks={"lengths": check_lengths, "label": _LABEL},
)

register_kind(
    "suffix",
    lambda group, p, context: [ch.SuffixChannel(n, p["label"]) for n in p["lengths"]],
    params={"lengths": (1, 2, 3, 4, 5), "label": "suf"},
    checks={"lengths": check_lengths, "label": _LABEL},
)


def _validate_substring(group, p):
    if p["max_length"] is not None and p["max_length"] < p["min_length"]:
        raise ValueError("max_length must be >= min_length")


register_kind(
    "substring",
    lambda group, p, context: [ch.SubstringChannel(p["min_length"], p["max_length"], p["label"])],
    params={"min_length": 3, "max_length": None, "label": "sub"},
    checks={
        "min_length": check_int(),
        "max_length": check_int(allow_none=True),
        "label": _LABEL,
    },
    validate=_validate_substring,
)


# -- word shape ------------------------------------------------------------------


_register_shape("word_class", ch.WordClassChannel, "wc")
_register_shape("brief_word_class", ch.BriefWordClassChannel, "bwc")
_register_shape("orthographic", ch.OrthographicChannel, "orth")


def _check_bins(value):
    bins = check_lengths(value)
    if list(bins) != sorted(bins):
        raise ValueError(f"must be increasing, got {bins!r}")
    return bins


register_kind(
    "length",
    lambda group, p, context: [ch.LengthChannel(p["bins"], p["label"])],
    params={"bins": _DEFAULT_BINS, "label": "len"},
    checks={"bins": _check_bins, "label": _LABEL},
)

def _check_formation_patterns(value):
    if value not in ("suite", "zhou"):
        raise ValueError(f"must be 'suite' or 'zhou', got {value!r}")
    return value


register_kind(
    "formation",
    lambda group, p, context: [ch.FormationChannel(p["label"], p["patterns"])],
    params={"label": "wf", "patterns": "suite"},
    checks={"label": _LABEL, "patterns": _check_formation_patterns},
)


# -- dictionary annotations ------------------------------------------------------


register_kind(
    "dictionary",
    lambda group, p, context: [ch.AnnotationChannel(c) for c in context.columns],
    params={"prefix": "dict_"},
    checks={"prefix": check_str()},
    discover_columns=lambda p, names: tuple(sorted(c for c in names if c.startswith(p["prefix"]))),
)


register_kind(  # a chunker's IOB tags (skbioner.annotate.RuleChunker), read as written
    "chunk",
    lambda group, p, context: [ch.AnnotationChannel(p["column"], p["label"])],
    params={"column": "chunk", "label": None},
    checks={"column": check_str(), "label": _LABEL},
    columns=lambda p: (p["column"],),
)

register_kind(
    "lexicon",
    lambda group, p, context: [ch.SplitAnnotationChannel(p["column"], p["label"])],
    params={"column": "lex", "label": None},
    checks={"column": check_str(), "label": _LABEL},
    columns=lambda p: (p["column"],),
)


# -- conjunctions and word caches ------------------------------------------------


def _attribute_channel(name, lowercase):
    """The single-valued channel of a conjunction part (see :data:`TOKEN_ATTRIBUTES`)."""
    if name == "word":
        return ch.WordChannel(lowercase=lowercase)
    if name == "word_class":
        return ch.WordClassChannel()
    if name == "brief_word_class":
        return ch.BriefWordClassChannel()
    if name == "length":
        return ch.LengthChannel(_DEFAULT_BINS)
    if name == "formation":
        return ch.FormationChannel()
    return ch.AnnotationChannel(name)


def _validate_conjunction(group, p):
    of = p["of"]
    if isinstance(of, str):
        of = (of,) * len(group.offsets)
    if not isinstance(of, tuple) or len(of) != len(group.offsets):
        raise ValueError(
            f"parameter 'of' must be a str or a tuple with one entry per offset "
            f"({len(group.offsets)}), got {p['of']!r}"
        )
    check = check_str()
    for a in of:
        try:
            check(a)
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


register_kind(
    "conjunction",
    _build_conjunction,
    required=("of",),
    params={"lowercase": None},
    checks={"lowercase": _LOWERCASE_OR_NONE},
    validate=_validate_conjunction,
    columns=lambda p: tuple(dict.fromkeys(a for a in p["of"] if a not in TOKEN_ATTRIBUTES)),
    distinct_offsets=False,
)


def _check_side(value):
    if value not in ("left", "right"):
        raise ValueError(f"must be 'left' or 'right', got {value!r}")
    return value


def _validate_word_cache(group, p):
    if group.offsets != (0,):
        raise ValueError(
            f"a word cache is position independent; offsets must be (0,), got {group.offsets!r}"
        )
    if p["label"] is None:
        p["label"] = f"{p['side'][0]}wc{p['window']}"


register_kind(
    "word_cache",
    lambda group, p, context: [
        CacheBlock(
            group.name,
            ch.WordChannel(lowercase=p["lowercase"]),
            p["side"],
            p["window"],
            p["label"],
        )
    ],
    required=("side",),
    params={"window": 2, "lowercase": None, "label": None},
    checks={
        "side": _check_side,
        "window": check_int(),
        "lowercase": _LOWERCASE_OR_NONE,
        "label": _LABEL,
    },
    validate=_validate_word_cache,
    distinct_offsets=False,
)


# -- mined from labelled data ----------------------------------------------------


def _check_top_fraction(value):
    if value is None:
        return None
    return check_fraction(value)


def _validate_head_noun(group, p):
    if p["label"] is None:
        p["label"] = f"head{p['n']}"


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
    channel = HeadNgramChannel(group.name, p["n"], triggers, p["lowercase"], p["label"])
    return [TokenBlock(group.name, channel, k) for k in group.offsets]


register_kind(
    "head_noun",
    _build_head_noun,
    params={
        "n": 1,
        "min_count": 3,
        "min_precision": 0.2,
        "lowercase": True,
        "scheme": "IOB2",
        "label": None,
        "top_fraction": None,
    },
    checks={
        "n": check_int(),
        "min_count": check_int(),
        "min_precision": check_fraction,
        "lowercase": check_bool(),
        "scheme": check_scheme,
        "label": _LABEL,
        "top_fraction": _check_top_fraction,
    },
    validate=_validate_head_noun,
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


register_kind(
    "affix_pattern",
    _build_affix_pattern,
    params={
        "lengths": (3, 4, 5),
        "types": ("prefix", "suffix"),
        "min_count": 10,
        "min_purity": 0.7,
        "max_affixes": 100,
        "lowercase": True,
        "scheme": "IOB2",
        "label": "morph",
    },
    checks={
        "lengths": check_lengths,
        "types": _check_affix_types,
        "min_count": check_int(),
        "min_purity": check_fraction,
        "max_affixes": check_int(),
        "lowercase": check_bool(),
        "scheme": check_scheme,
        "label": _LABEL,
    },
    supervised=True,
)
