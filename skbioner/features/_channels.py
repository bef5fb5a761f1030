"""Channels: per-type value functions that feature blocks read.

A *channel* maps each distinct value of one source column (the word, or an
annotation column) to its feature value(s): the lower-cased word, the
3-letter suffix, the orthographic flags...  It is evaluated once per
distinct value per call.  Single-valued channels give one value (or
``None``) per type and are padded with ``<BOS>``/``<EOS>`` outside the
sentence; multi-valued channels give a tuple of distinct values and nothing
outside the sentence.

Channels are plain picklable objects.  ``key`` identifies a channel: two
groups using the same channel share its value table.
"""

from __future__ import annotations

from bisect import bisect_right

from ._word_shape import (
    brief_word_class,
    length_bucket_labels,
    orthographic_flags,
    word_class,
    word_formation,
    zhou_word_formation,
)

__all__ = [
    "AffixPatternChannel",
    "AnnotationChannel",
    "AnnotationPrefixChannel",
    "BriefWordClassChannel",
    "Channel",
    "FormationChannel",
    "LengthChannel",
    "OrthographicChannel",
    "PrefixChannel",
    "SubstringChannel",
    "SuffixChannel",
    "WordChannel",
    "WordClassChannel",
]

#: Names of the padding values in feature names.
BOS = "<BOS>"
EOS = "<EOS>"


def affixes(word, lengths, types=("prefix", "suffix")):
    """``"pre:<prefix>"``, ``"suf:<suffix>"`` of ``word`` for each length shorter than it."""
    for n in lengths:
        if len(word) > n:
            if "prefix" in types:
                yield "pre:" + word[:n]
            if "suffix" in types:
                yield "suf:" + word[-n:]


class Channel:
    """A per-type value function: what a feature kind computes for each word type.

    A channel maps every distinct value of its ``source`` column (the
    words, or an annotation column) to its feature value(s).  The
    featurizer evaluates it once per distinct value per ``fit`` or
    ``transform`` call, then places the values on the tokens at every
    offset of the group (``"<label>[<offset>]=<value>"``).  Subclass it to
    build a new kind (see :func:`~skbioner.features.register_kind`).

    Subclasses set ``label`` (the feature-name prefix) in ``__init__`` and
    implement :meth:`values`; they may set the class attributes ``source``
    and ``single``.  A channel must be picklable (a fitted featurizer
    keeps it) and hold only hashable attributes: together with its class
    they form its :attr:`key`, and channels with equal keys share one value
    table in a call.

    Attributes
    ----------
    label : str
        Prefix of the feature names.
    source : str, default="word"
        The column the values are computed from (``"word"`` or an
        annotation column name).
    single : bool, default=True
        ``True``: one value (a str) or ``None`` per type; outside the
        sentence the channel reads ``<BOS>``/``<EOS>``.  ``False``: a tuple
        of distinct str per type (possibly empty); nothing outside the
        sentence.

    Examples
    --------
    >>> class Vowels(Channel):
    ...     def __init__(self, label="vow"):
    ...         self.label = label
    ...     def values(self, types):
    ...         return [str(sum(c in "aeiou" for c in t)) for t in types]
    >>> Vowels().values(["gene", "IL-2"])
    ['2', '0']
    """

    single = True
    source = "word"

    @property
    def key(self):
        """Identity of the channel's values: its class and attributes."""
        cls = type(self)
        try:
            items = tuple(sorted(vars(self).items()))
            hash(items)
        except TypeError:
            raise TypeError(
                f"{cls.__name__}: channel attributes must be hashable (tuples, frozensets), "
                f"got {vars(self)!r:.120}"
            ) from None
        return (f"{cls.__module__}.{cls.__qualname__}", *items)

    def values(self, types: list[str]) -> list:
        """Per-type values.

        Parameters
        ----------
        types : list of str
            Distinct values of the ``source`` column.

        Returns
        -------
        list
            One entry per type: a ``str`` or ``None`` (``single``), or a
            tuple of distinct ``str``.
        """
        raise NotImplementedError

    def __repr__(self):
        args = ", ".join(f"{k}={v!r:.40}" for k, v in vars(self).items())
        return f"{type(self).__name__}({args})"


class WordChannel(Channel):
    def __init__(self, lowercase=False, label="w"):
        self.lowercase = lowercase
        self.label = label

    def values(self, types):
        return [t.lower() for t in types] if self.lowercase else list(types)


class AnnotationChannel(Channel):
    def __init__(self, column, label=None):
        self.source = column
        self.label = label or column

    def values(self, types):
        return list(types)


class SplitAnnotationChannel(Channel):
    """The space-separated values of an annotation column, ``O`` meaning none.

    The ``lex`` column of :class:`~skbioner.annotate.LexiconMatcher` holds every lexicon
    type's position at a token in one value (``"gene:B protein:S"``): one feature each.
    """

    single = False

    def __init__(self, column, label=None):
        self.source = column
        self.label = label or column

    def values(self, types):
        return [[] if t == "O" else t.split(" ") for t in types]


class AnnotationPrefixChannel(Channel):
    """The first ``n`` characters of an annotation value (a Brown cluster's bit string).

    A value shorter than ``n`` is used whole (a cluster high in the tree),
    and so is a marker value starting with ``<`` (``<unk>``: a word without
    a class).
    """

    def __init__(self, column, n, label=None):
        self.source = column
        self.n = n
        self.label = f"{label or column}{n}"

    def values(self, types):
        n = self.n
        return [t if t.startswith("<") else t[:n] for t in types]


class PrefixChannel(Channel):
    def __init__(self, n, label="pre"):
        self.n = n
        self.label = f"{label}{n}"

    def values(self, types):
        n = self.n
        return [t[:n] if len(t) >= n else None for t in types]


class SuffixChannel(Channel):
    def __init__(self, n, label="suf"):
        self.n = n
        self.label = f"{label}{n}"

    def values(self, types):
        n = self.n
        return [t[-n:] if len(t) >= n else None for t in types]


class SubstringChannel(Channel):
    single = False

    def __init__(self, min_length=3, max_length=None, label="sub"):
        self.min_length = min_length
        self.max_length = max_length
        self.label = label

    def values(self, types):
        lo, hi = self.min_length, self.max_length
        out = []
        for t in types:
            top = len(t) if hi is None else min(hi, len(t))
            # distinct, in a fixed order (a set's order would depend on the hash seed,
            # and with it the columns of the vocabulary)
            out.append(
                tuple(
                    dict.fromkeys(
                        t[i : i + n] for n in range(lo, top + 1) for i in range(len(t) - n + 1)
                    )
                )
            )
        return out


class WordClassChannel(Channel):
    def __init__(self, label="wc"):
        self.label = label

    def values(self, types):
        return [word_class(t) for t in types]


class BriefWordClassChannel(Channel):
    def __init__(self, label="bwc"):
        self.label = label

    def values(self, types):
        return [brief_word_class(t) for t in types]


class OrthographicChannel(Channel):
    single = False

    def __init__(self, label="orth"):
        self.label = label

    def values(self, types):
        return [orthographic_flags(t) for t in types]


class LengthChannel(Channel):
    def __init__(self, bins, label="len"):
        self.bins = tuple(bins)
        self.label = label

    def values(self, types):
        labels = (*length_bucket_labels(self.bins), None)  # index -1: shorter than bins[0]
        return [labels[bisect_right(self.bins, len(t)) - 1] for t in types]


class FormationChannel(Channel):
    def __init__(self, label="wf", patterns="suite"):
        self.label = label
        self.patterns = patterns

    def values(self, types):
        func = zhou_word_formation if self.patterns == "zhou" else word_formation
        return [func(t) for t in types]


class AffixPatternChannel(Channel):
    """Mined prefixes/suffixes (``"pre:anti"``, ``"suf:ase"``) a word carries."""

    single = False

    def __init__(self, group, patterns, lengths, lowercase=True, label="morph"):
        self.group = group
        self.patterns = tuple(patterns)
        self.lengths = tuple(lengths)
        self.lowercase = lowercase
        self.label = label

    def values(self, types):
        pats = frozenset(self.patterns)
        # distinct, in a fixed order (not a set's: see SubstringChannel)
        return [tuple(dict.fromkeys(a for a in affixes(t.lower() if self.lowercase else t,
                                                       self.lengths) if a in pats))
                for t in types]
