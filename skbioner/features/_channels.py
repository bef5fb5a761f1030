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

from ._word_shape import (
    brief_word_class,
    length_bucket_labels,
    orthographic_flags,
    word_class,
    word_formation,
)

__all__ = [
    "AffixPatternChannel",
    "AnnotationChannel",
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


class Channel:
    """Base class: subclasses set ``label``, ``source``, ``single`` and ``values``."""

    single = True
    source = "word"

    @property
    def key(self):
        return (type(self).__name__, self.label, *self._key_params())

    @property
    def padded(self):
        return self.single

    def _key_params(self):
        return ()

    def values(self, types: list[str]) -> list:
        """Per-type values: ``str`` or ``None`` (single) or tuples of ``str``."""
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}{self.key[1:]}"


class WordChannel(Channel):
    def __init__(self, lowercase=False, label="w"):
        self.lowercase = lowercase
        self.label = label

    def _key_params(self):
        return (self.lowercase,)

    def values(self, types):
        return [t.lower() for t in types] if self.lowercase else list(types)


class AnnotationChannel(Channel):
    def __init__(self, column, label=None):
        self.source = column
        self.label = label or column

    def _key_params(self):
        return (self.source,)

    def values(self, types):
        return list(types)


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

    def _key_params(self):
        return (self.min_length, self.max_length)

    def values(self, types):
        lo, hi = self.min_length, self.max_length
        out = []
        for t in types:
            top = len(t) if hi is None else min(hi, len(t))
            out.append(
                tuple({t[i : i + n] for n in range(lo, top + 1) for i in range(len(t) - n + 1)})
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

    def _key_params(self):
        return (self.bins,)

    def values(self, types):
        labels = length_bucket_labels(self.bins)
        bins = self.bins
        top = bins[-1]
        table = {}
        for i in range(len(bins)):
            hi = bins[i + 1] if i + 1 < len(bins) else top + 1
            for n in range(bins[i], hi):
                table[n] = labels[i]
        return [labels[-1] if len(t) > top else table.get(len(t)) for t in types]


class FormationChannel(Channel):
    def __init__(self, label="wf"):
        self.label = label

    def values(self, types):
        return [word_formation(t) for t in types]


class AffixPatternChannel(Channel):
    """Mined prefixes/suffixes (``"pre:anti"``, ``"suf:ase"``) a word carries."""

    single = False

    def __init__(self, group, patterns, lengths, lowercase=True, label="morph"):
        self.group = group
        self.patterns = tuple(patterns)
        self.lengths = tuple(lengths)
        self.lowercase = lowercase
        self.label = label

    def _key_params(self):
        return (self.group,)

    def values(self, types):
        pats = frozenset(self.patterns)
        lengths = self.lengths
        out = []
        for t in types:
            w = t.lower() if self.lowercase else t
            found = set()
            for n in lengths:
                if len(w) > n:
                    p = "pre:" + w[:n]
                    if p in pats:
                        found.add(p)
                    s = "suf:" + w[-n:]
                    if s in pats:
                        found.add(s)
            out.append(tuple(found))
        return out
