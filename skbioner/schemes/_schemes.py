"""Segment representations: scheme tables, spans <-> labels, conversion.

A *scheme* says how a segmentation of a sentence into typed spans is written
as one label per token.  Nine schemes are supported:

=======  ==============================================================
IO       ``I-x`` inside an entity, ``O`` outside (lossy: adjacent
         entities of one type merge).
IOB1     ``I-x``; ``B-x`` only on the first token of an entity that
         directly follows an entity of the same type.
IOB2     ``B-x`` on the first token of every entity, ``I-x`` after it.
IOE1     ``I-x``; ``E-x`` only on the last token of an entity that is
         directly followed by an entity of the same type.
IOE2     ``E-x`` on the last token of every entity, ``I-x`` before it.
IOBES    ``S-x`` single-token entity, else ``B-x I-x ... E-x``.
BI       like IOB2, but each run of O tokens is an "O-class" segment too:
         ``B-O I-O ...`` (Cho et al. 2013).
IE       like IOE2 with O-class segments: ``I-O ... E-O``.
BIES     like IOBES with O-class segments: ``S-O`` or ``B-O I-O E-O``.
=======  ==============================================================

Spans are half-open ``(type, start, end)`` tuples, sorted by start.

Repair policy for ill-formed sequences
--------------------------------------
:func:`labels_to_spans` reads *any* label sequence (it never fails on an
ill-formed one) with one rule shared by all schemes: a token starts a new
segment when its type differs from the previous token's type, when its prefix
is ``B`` or ``S``, or when the previous token's prefix is ``E`` or ``S``.
Consecutive tokens of one type that no marker separates form one segment.
Hence ``O I-DNA`` reads as a DNA entity on the second token, and
``B-DNA I-RNA`` as two entities, DNA then RNA (the conlleval reading).
The official JNLPBA scorer reads ill-formed answers differently; see
:mod:`skbioner.metrics`.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from itertools import compress

import numpy as np

__all__ = [
    "SCHEMES",
    "LOSSLESS_SCHEMES",
    "check_scheme",
    "split_label",
    "is_valid_label",
    "scheme_labels",
    "labels_to_spans",
    "spans_to_labels",
    "convert",
    "repair",
    "projection_table",
    "segment_table",
]

#: Names of the nine segment representations.
SCHEMES = ("IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BI", "IE", "BIES")
#: The schemes that round-trip exactly: all but IO, which merges adjacent entities of one type.
LOSSLESS_SCHEMES = tuple(s for s in SCHEMES if s != "IO")

_ALIASES = {"BIO": "IOB2"}

# prefixes each scheme writes, and whether O runs are segments of class "O"
_PREFIXES = {
    "IO": ("I",),
    "IOB1": ("B", "I"),
    "IOB2": ("B", "I"),
    "IOE1": ("I", "E"),
    "IOE2": ("I", "E"),
    "IOBES": ("B", "I", "E", "S"),
    "BI": ("B", "I"),
    "IE": ("I", "E"),
    "BIES": ("B", "I", "E", "S"),
}
_O_CLASS = {"BI", "IE", "BIES"}
O_TYPE = "O"

_LABEL_RE = re.compile(r"^([BIES])-(.+)$")


def check_scheme(scheme: str) -> str:
    """Return the canonical name of ``scheme`` or raise ``ValueError``.

    Parameters
    ----------
    scheme : str
        A scheme name, case-insensitive; ``"BIO"`` is accepted for IOB2.

    Returns
    -------
    str
        The name as spelled in :data:`SCHEMES`.

    Raises
    ------
    ValueError
        If ``scheme`` is not a string or names no known scheme.
    """
    if not isinstance(scheme, str):
        raise ValueError(f"scheme must be a string, one of {SCHEMES}; got {scheme!r}")
    name = scheme.upper()
    name = _ALIASES.get(name, name)
    if name not in SCHEMES:
        raise ValueError(f"unknown scheme {scheme!r}; choose one of {', '.join(SCHEMES)}")
    return name


def split_label(label: str) -> tuple[str, str | None]:
    """Split a label into ``(prefix, type)``; ``"O"`` gives ``("O", None)``.

    A label that is neither ``O`` nor ``<B|I|E|S>-<type>`` gives
    ``(label[:1], None)``; use :func:`is_valid_label` to reject it.

    Parameters
    ----------
    label : str
        One label of any scheme.

    Returns
    -------
    prefix : str
        ``"O"``, or the prefix letter (``B``, ``I``, ``E``, ``S``).
    type : str or None
        The entity type after the dash, None for ``O`` and malformed labels.
    """
    if label == "O":
        return "O", None
    m = _LABEL_RE.match(label)
    if m is None:
        return label[:1], None
    return m.group(1), m.group(2)


def is_valid_label(label: str, scheme: str) -> bool:
    """Whether ``label`` is a label that ``scheme`` writes.

    ``O`` belongs to the schemes without O-class (IO ... IOBES); BI, IE and
    BIES write ``<prefix>-O`` instead.  An entity type named ``O`` is only
    valid in those three.

    Parameters
    ----------
    label : str
        The label to check (a non-str gives False).
    scheme : str
        A scheme name (see :data:`SCHEMES`; case-insensitive, ``"BIO"`` means IOB2).

    Returns
    -------
    bool
        True if ``label`` has one of the scheme's prefixes and a valid type
        (or is ``O`` in a scheme without O-class).
    """
    scheme = check_scheme(scheme)
    if not isinstance(label, str):
        return False
    if label == "O":
        return scheme not in _O_CLASS
    m = _LABEL_RE.match(label)
    if m is None or m.group(1) not in _PREFIXES[scheme]:
        return False
    typ = m.group(2)
    if typ == O_TYPE:
        return scheme in _O_CLASS
    return not any(c.isspace() for c in typ)


def scheme_labels(scheme: str, types: Iterable[str]) -> list[str]:
    """All labels ``scheme`` writes for entity ``types``, in a canonical order.

    ``O`` (or the O-class labels) first, then per type the scheme's prefixes
    in B, I, E, S order.

    Parameters
    ----------
    scheme : str
        A scheme name (see :data:`SCHEMES`; case-insensitive, ``"BIO"`` means IOB2).
    types : iterable of str
        Entity types (sorted and deduplicated; a type ``O`` is ignored).

    Returns
    -------
    list of str
        The labels in canonical order.
    """
    scheme = check_scheme(scheme)
    types = sorted(set(types) - {O_TYPE})
    prefixes = _PREFIXES[scheme]
    if scheme in _O_CLASS:
        out = [f"{p}-{O_TYPE}" for p in prefixes]
    else:
        out = ["O"]
    for t in types:
        out.extend(f"{p}-{t}" for p in prefixes)
    return out


# --------------------------------------------------------------------------
# spans <-> labels
# --------------------------------------------------------------------------


def _segments(labels: Sequence[str]):
    """Yield ``(type, start, end)`` for every segment, O runs as type None.

    Implements the module's repair policy.  O-class labels (``B-O``...) and
    plain ``O`` both give type None.
    """
    prev_type: object = _NOTHING
    prev_prefix = "O"
    start = 0
    cache = _READ_CACHE
    for i, label in enumerate(labels):
        try:
            prefix, typ = cache[label]
        except (KeyError, TypeError):
            prefix, typ = _read_label(label)
        if i > 0 and (typ != prev_type or prefix in ("B", "S") or prev_prefix in ("E", "S")):
            yield prev_type, start, i
            start = i
        prev_type, prev_prefix = typ, prefix
    if len(labels):
        yield prev_type, start, len(labels)


_NOTHING = object()
# label -> (prefix, type or None) as _segments reads it; labels repeat, so reading each
# once makes label sequences cheap to parse (bounded: a corpus has few labels)
_READ_CACHE: dict = {}


def _read_label(label):
    prefix, typ = split_label(label)
    if typ == O_TYPE:
        typ = None
    if prefix not in ("B", "I", "E", "S"):
        # "O" or an unknown prefix: the token is outside, by policy
        typ = None
    if isinstance(label, str) and len(_READ_CACHE) < 4096:
        _READ_CACHE[label] = (prefix, typ)
    return prefix, typ


def labels_to_spans(labels: Sequence[str], scheme: str = "IOB2") -> list[tuple[str, int, int]]:
    """Entity spans ``(type, start, end)`` (half-open) of a label sequence.

    Any sequence is read, ill-formed ones by the repair policy in the module
    docstring; O-class segments are not returned.

    Parameters
    ----------
    labels : sequence of str
        One label per token.
    scheme : str, default="IOB2"
        Scheme of ``labels``.

    Returns
    -------
    list of (str, int, int)
        The entity spans ``(type, start, end)``, sorted by start.

    Examples
    --------
    >>> labels_to_spans(["B-DNA", "I-DNA", "O", "I-RNA"], "IOB2")
    [('DNA', 0, 2), ('RNA', 3, 4)]
    >>> labels_to_spans(["B-O", "I-O", "B-protein"], "BI")
    [('protein', 2, 3)]
    """
    check_scheme(scheme)
    # _segments' policy read over the tokens that are not "O" only (found in C):
    # an "O" ends any entity and starts none, so a gap in the positions is a
    # boundary.  tests/schemes/test_schemes.py checks it against _segments.
    if not isinstance(labels, (list, tuple)):
        labels = list(labels)
    spans = []
    cache = _READ_CACHE
    seg_type, seg_start, prev, prev_prefix = None, 0, -2, "O"
    for i in compress(range(len(labels)), map("O".__ne__, labels)):
        label = labels[i]
        try:
            prefix, typ = cache[label]
        except (KeyError, TypeError):
            prefix, typ = _read_label(label)
        if i != prev + 1 or typ != seg_type or prefix in ("B", "S") or prev_prefix in ("E", "S"):
            if seg_type is not None:
                spans.append((seg_type, seg_start, prev + 1))
            seg_type, seg_start = typ, i
        prev, prev_prefix = i, prefix
    if seg_type is not None:
        spans.append((seg_type, seg_start, prev + 1))
    return spans


_VALID_TYPES: set = set()  # entity type names already checked by spans_to_labels


def spans_to_labels(spans: Iterable[tuple[str, int, int]], n_tokens: int, scheme: str) -> list[str]:
    """Write entity spans as ``n_tokens`` labels of ``scheme``.

    Parameters
    ----------
    spans : iterable of (str, int, int)
        Entity spans ``(type, start, end)``, half-open, in any order.
    n_tokens : int
        Length of the sentence.
    scheme : str
        A scheme name (see :data:`SCHEMES`; case-insensitive, ``"BIO"`` means IOB2).

    Returns
    -------
    list of str
        One label per token.

    Raises
    ------
    ValueError
        For overlapping, empty or out-of-range spans, or an invalid type.

    Examples
    --------
    >>> spans_to_labels([("DNA", 0, 2), ("DNA", 2, 3)], 4, "IOB1")
    ['I-DNA', 'I-DNA', 'B-DNA', 'O']
    >>> spans_to_labels([("DNA", 0, 2)], 4, "BIES")
    ['B-DNA', 'E-DNA', 'B-O', 'E-O']
    """
    scheme = check_scheme(scheme)
    spans = sorted(spans, key=lambda s: (s[1], s[2]))
    last_end = 0
    for t, s, e in spans:
        if not (0 <= s < e <= n_tokens):
            raise ValueError(f"span {(t, s, e)!r} is empty or outside 0..{n_tokens}")
        if s < last_end:
            raise ValueError(f"span {(t, s, e)!r} overlaps the previous span")
        if t not in _VALID_TYPES:
            if not isinstance(t, str) or not t or t == O_TYPE or any(c.isspace() for c in t):
                raise ValueError(f"invalid entity type {t!r} in span {(t, s, e)!r}")
            if len(_VALID_TYPES) < 4096:
                _VALID_TYPES.add(t)
        last_end = e
    segs = list(spans)
    if scheme in _O_CLASS:
        segs, pos = [], 0
        for t, s, e in spans:
            if s > pos:
                segs.append((O_TYPE, pos, s))
            segs.append((t, s, e))
            pos = e
        if pos < n_tokens:
            segs.append((O_TYPE, pos, n_tokens))
    labels = ["O"] * n_tokens
    if scheme == "IOB2":  # the common case, without the per-token loop below
        for t, s, e in segs:
            labels[s] = "B-" + t
            if e - s > 1:
                labels[s + 1 : e] = ["I-" + t] * (e - s - 1)
        return labels
    for k, (t, s, e) in enumerate(segs):
        body = ["I"] * (e - s)  # marked where the scheme marks: IOB1 / IOE1 only beside a twin
        if scheme in ("IOE2", "IE", "IOBES", "BIES") or (
                scheme == "IOE1" and k + 1 < len(segs) and segs[k + 1][:2] == (t, e)):
            body[-1] = "E"
        if scheme in ("IOB2", "BI", "IOBES", "BIES") or (
                scheme == "IOB1" and k > 0 and (segs[k - 1][0], segs[k - 1][2]) == (t, s)):
            body[0] = "S" if e - s == 1 and scheme in ("IOBES", "BIES") else "B"
        labels[s:e] = [f"{p}-{t}" for p in body]
    return labels


def convert(labels: Sequence[str], from_scheme: str = "IOB2", to_scheme: str = "IOB2") -> list[str]:
    """Convert one label sequence between schemes (through its spans).

    Ill-formed input is read by the repair policy, so ``convert(y, s, s)``
    repairs ``y``.  Converting to ``IO`` merges adjacent entities of the same
    type (IO cannot tell them apart); every other scheme is lossless.

    Parameters
    ----------
    labels : sequence of str
        One label per token.
    from_scheme : str, default="IOB2"
        Scheme of ``labels``.
    to_scheme : str, default="IOB2"
        Scheme of the result.

    Returns
    -------
    list of str
        The same entities written in ``to_scheme``.
    """
    from_scheme = check_scheme(from_scheme)
    return spans_to_labels(labels_to_spans(labels, from_scheme), len(labels), to_scheme)


def repair(labels: Sequence[str], scheme: str = "IOB2") -> list[str]:
    """Return the well-formed sequence the repair policy reads ``labels`` as.

    Parameters
    ----------
    labels : sequence of str
        One label per token, possibly ill-formed.
    scheme : str, default="IOB2"
        Scheme of ``labels`` and of the result.

    Returns
    -------
    list of str
        ``convert(labels, scheme, scheme)``.
    """
    return convert(labels, scheme, scheme)


# --------------------------------------------------------------------------
# projections between schemes (Cho et al. 2013)
# --------------------------------------------------------------------------

# direct, label-wise projections from a richer scheme to a simpler one:
# (prefix, is_o_class) -> new prefix, or None for plain "O"
_EDGES = {
    ("BIES", "IOBES"): {"B": "B", "I": "I", "E": "E", "S": "S", "O:*": None},
    ("BIES", "BI"): {"B": "B", "I": "I", "E": "I", "S": "B"},
    ("BIES", "IE"): {"B": "I", "I": "I", "E": "E", "S": "E"},
    ("IOBES", "IOB2"): {"B": "B", "I": "I", "E": "I", "S": "B"},
    ("IOBES", "IOE2"): {"B": "I", "I": "I", "E": "E", "S": "E"},
    ("BI", "IOB2"): {"B": "B", "I": "I", "O:*": None},
    ("IE", "IOE2"): {"I": "I", "E": "E", "O:*": None},
    ("IOB2", "IO"): {"B": "I", "I": "I"},
    ("IOE2", "IO"): {"I": "I", "E": "I"},
}


def _project_label(label: str, src: str, dst: str) -> str:
    rule = _EDGES[(src, dst)]
    if label == "O":
        return "O"
    prefix, typ = split_label(label)
    if typ == O_TYPE and "O:*" in rule:
        return "O"
    return f"{rule[prefix]}-{typ}"


def _projection_path(source: str, target: str) -> list[str]:
    if source == target:
        return [source]
    prev = {source: None}
    queue = deque([source])
    while queue:
        node = queue.popleft()
        for a, b in _EDGES:
            if a == node and b not in prev:
                prev[b] = a
                queue.append(b)
    if target not in prev:
        raise ValueError(
            f"no label-wise projection from {source} to {target}: a {target} label is not "
            f"determined by one {source} label (IOB1/IOE1 depend on neighbours; projections "
            "only go from richer to simpler schemes, BIES -> IOBES/BI/IE -> IOB2/IOE2 -> IO)"
        )
    path = [target]
    while path[-1] != source:
        path.append(prev[path[-1]])
    return path[::-1]


def projection_table(source: str, target: str, types: Iterable[str]):
    """Deterministic label-wise projection from scheme ``source`` to ``target``.

    For every label of ``source`` (over entity ``types``) the one label of
    ``target`` it stands for, such that projecting ``convert(y, "IOB2",
    source)`` label by label gives ``convert(y, "IOB2", target)`` for every
    well-formed ``y``.  The projections form the chain
    BIES -> IOBES / BI / IE -> IOB2 / IOE2 -> IO and its transitive closure.

    Parameters
    ----------
    source, target : str
        Scheme names; ``target`` must be reachable from ``source`` on that chain.
    types : iterable of str
        Entity types.

    Returns
    -------
    source_labels : list of str
        ``scheme_labels(source, types)``.
    target_labels : list of str
        ``scheme_labels(target, types)``.
    index : ndarray of shape (len(source_labels),), dtype intp
        ``target_labels[index[i]]`` is the projection of ``source_labels[i]``.
    """
    source, target = check_scheme(source), check_scheme(target)
    types = sorted(set(types))
    path = _projection_path(source, target)
    src_labels = scheme_labels(source, types)
    dst_labels = scheme_labels(target, types)
    where = {lab: i for i, lab in enumerate(dst_labels)}
    index = np.empty(len(src_labels), dtype=np.intp)
    for i, lab in enumerate(src_labels):
        for a, b in zip(path[:-1], path[1:], strict=True):
            lab = _project_label(lab, a, b)
        index[i] = where[lab]
    return src_labels, dst_labels, index


# --------------------------------------------------------------------------
# well-formedness as a transition mask (for constrained decoding)
# --------------------------------------------------------------------------


def segment_table(labels: Sequence[str]):
    """Entity type and segment boundaries of every label and label pair.

    The repair policy of :func:`labels_to_spans` decides segment boundaries
    from adjacent labels only, so two tables describe it completely; the
    decoders use them to compute the probability of an entity span under a
    chain's distribution (see :func:`skbioner.decoding.span_probabilities`).

    Parameters
    ----------
    labels : sequence of str
        The label set (any scheme).

    Returns
    -------
    types : list of str or None
        Entity type of each label (None: outside, O-class labels included).
    boundary : ndarray of bool, shape (n_labels, n_labels)
        ``boundary[a, b]``: a segment ends after label ``a`` and a new one
        starts at label ``b`` when ``b`` follows ``a``.

    Examples
    --------
    >>> types, b = segment_table(["O", "B-DNA", "I-DNA"])
    >>> types, bool(b[1, 2]), bool(b[2, 1]), bool(b[2, 2])
    ([None, 'DNA', 'DNA'], False, True, False)
    """
    labels = list(labels)
    types = [t for t, _, _ in (next(_segments([lab])) for lab in labels)]
    n = len(labels)
    boundary = np.ones((n, n), dtype=bool)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            boundary[i, j] = len(list(_segments([a, b]))) == 2
    return types, boundary
