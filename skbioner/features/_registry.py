"""The registry of feature kinds: every kind is declared once, here or by a user.

A *kind* is what a :class:`~skbioner.features.FeatureGroup` computes.  Its
declaration (:func:`register_kind`) holds everything the featurizer needs to
know about it: its parameters with defaults and checks, the annotation
columns it reads, whether it is mined from labelled data, and how it builds
its feature blocks from the resolved parameters.  :func:`resolve_params`,
:func:`group_columns`, :func:`build_blocks` and :data:`KINDS` read the
registry; nothing else in the package lists the kinds.

The built-in kinds are declared in :mod:`._kinds`.
"""

from __future__ import annotations

import enum
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ._channels import Channel
from ._corpus import memo
from ._engine import BLOCK_TYPES, UnaryBlock
from ._mining import entity_spans

__all__ = [
    "KINDS",
    "BuildContext",
    "FeatureKind",
    "build_blocks",
    "get_kind",
    "group_columns",
    "register_kind",
    "resolve_params",
]


class _Required(enum.Enum):
    """Marker of a parameter without default in :data:`KINDS` (a singleton, pickled too)."""

    REQUIRED = 0

    def __repr__(self):
        return "<required>"


_REQUIRED = _Required.REQUIRED


@dataclass(frozen=True)
class FeatureKind:
    """The declaration of one feature kind (see :func:`register_kind`)."""

    name: str
    build: Callable
    defaults: tuple  # (parameter, default or _REQUIRED) pairs, required ones first
    checks: tuple  # (parameter, check) pairs
    validate: Callable | None = None
    columns: Callable | None = None
    discover_columns: Callable | None = None
    supervised: bool = False
    distinct_offsets: bool = True


_REGISTRY: dict[str, FeatureKind] = {}


def register_kind(
    name,
    build,
    *,
    params=None,
    required=(),
    checks=None,
    validate=None,
    columns=None,
    discover_columns=None,
    supervised=False,
    distinct_offsets=True,
    replace=False,
):
    """Declare a new kind of :class:`~skbioner.features.FeatureGroup`.

    After registration, ``FeatureGroup(name, kind, offsets, params)``
    groups of this kind can be used in any template list of
    :class:`~skbioner.features.TokenFeaturizer` (vocabulary and hashing
    mode alike) and the kind appears in :data:`~skbioner.features.KINDS`.

    Parameters
    ----------
    name : str
        The kind's name (``FeatureGroup.kind``).
    build : callable
        ``build(group, params, context) -> list``, called in ``fit`` with
        the group, its resolved parameters (defaults filled in, checks
        applied; a ``lowercase`` parameter that is ``None`` is replaced by
        the featurizer's ``lowercase``) and a :class:`BuildContext`.  It
        returns the group's :class:`~skbioner.features.Channel` objects;
        each is read at every offset of the group and gives the features
        ``"<label>[<offset>]=<value>"``.  (The built-in kinds may also
        return the engine's block objects.)
    params : mapping of str -> object, optional
        The optional parameters and their defaults.  By convention a
        ``label`` parameter sets the feature-name prefix.
    required : tuple of str, default=()
        Parameters without default.
    checks : mapping of str -> callable, optional
        Per-parameter checks ``check(value) -> value``: return the value to
        use (normalized) or raise ``ValueError``/``TypeError`` with a
        message that reads after the parameter name, e.g. ``"must be a
        non-empty tuple of str, got 3"``.
    validate : callable, optional
        ``validate(group, params) -> None``: checks across parameters or
        offsets, run after ``checks``; may fill derived values into
        ``params``.  Raise ``ValueError`` with a message.
    columns : callable, optional
        ``columns(params) -> tuple of str``: the annotation columns the
        group reads (checked in every sentence at ``fit`` and
        ``transform``; an ``optional`` group is dropped when none of the
        training sentences has them).
    discover_columns : callable, optional
        ``discover_columns(params, names) -> tuple of str``: for kinds that
        read columns found in the training data (like ``dictionary``),
        given the set of annotation names present in the training
        sentences.  A group that finds none is dropped; the columns are
        recorded in ``TokenFeaturizer.dictionary_columns_`` and given to
        ``build`` as ``context.columns``.
    supervised : bool, default=False
        The group is mined from labelled data: ``fit`` refuses to run
        without ``y``; ``build`` reads ``context.y`` or
        ``context.spans(scheme)`` and stores what it mined with
        ``context.record_mined(data)`` (``TokenFeaturizer.mined_``).
    distinct_offsets : bool, default=True
        Refuse groups whose offsets repeat (one feature per offset).
    replace : bool, default=False
        Replace an existing kind of the same name instead of raising.

    Returns
    -------
    None

    Notes
    -----
    Registration is global to the process.  A fitted featurizer holds its
    built channels, not the registry: it loads and transforms without the
    kind being registered again (the channel's class must be importable).

    Examples
    --------
    A kind telling whether the token is in a given set of words:

    >>> from skbioner.features import Channel, FeatureGroup, TokenFeaturizer, register_kind
    >>> class InSet(Channel):
    ...     def __init__(self, words, label):
    ...         self.words = frozenset(words)
    ...         self.label = label
    ...     def values(self, types):
    ...         return ["yes" if t in self.words else None for t in types]
    >>> register_kind(
    ...     "in_set_example",
    ...     lambda group, params, context: [InSet(params["words"], params["label"])],
    ...     params={"label": "inset"},
    ...     required=("words",),
    ... )
    >>> groups = [FeatureGroup("greek", "in_set_example", (0, 1),
    ...                        {"words": ["alpha", "beta"]})]
    >>> f = TokenFeaturizer(templates=groups).fit([["IL-2", "alpha", "chain"]])
    >>> f.get_feature_names_out().tolist()  # single-valued: padded outside the sentence
    ['inset[0]=yes', 'inset[1]=yes', 'inset[1]=<EOS>']
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"a kind's name must be a non-empty str, got {name!r}")
    if name in _REGISTRY and not replace:
        raise ValueError(f"feature kind {name!r} is already registered (pass replace=True)")
    defaults, checks = _declared(name, build, params, required, checks,
                                 (validate, columns, discover_columns))
    _REGISTRY[name] = FeatureKind(name, build, defaults, checks, validate, columns,
                                  discover_columns, bool(supervised), bool(distinct_offsets))


def _declared(name, build, params, required, checks, functions):
    """A kind's declaration checked: ``(defaults, checks)`` in parameter order."""
    if not callable(build):
        raise TypeError(f"kind {name!r}: build must be callable, got {build!r}")
    params = dict(params or {})
    required = (required,) if isinstance(required, str) else tuple(required)
    for p in (*required, *params):
        if not isinstance(p, str) or not p:
            raise TypeError(f"kind {name!r}: parameter names must be non-empty str, got {p!r}")
    both = sorted(set(required) & set(params))
    if both or len(set(required)) != len(required):
        raise ValueError(f"kind {name!r}: parameters both required and with default: {both}")
    checks = dict(checks or {})
    unknown = sorted(set(checks) - set(required) - set(params))
    if unknown:
        raise ValueError(f"kind {name!r}: checks for undeclared parameters {unknown}")
    for func in (*checks.values(), *functions):
        if func is not None and not callable(func):
            raise TypeError(f"kind {name!r}: expected a callable, got {func!r}")
    defaults = tuple((p, _REQUIRED) for p in required) + tuple(params.items())
    order = [p for p, _ in defaults]
    return defaults, tuple(sorted(checks.items(), key=lambda kv: order.index(kv[0])))


def get_kind(name: str) -> FeatureKind:
    """The declaration of a registered kind (``KeyError`` if unknown)."""
    return _REGISTRY[name]


class _KindsView(Mapping):
    """Read-only view of the registry: kind -> {parameter: default}."""

    def __getitem__(self, name):
        return dict(_REGISTRY[name].defaults)

    def __iter__(self):
        return iter(_REGISTRY)

    def __len__(self):
        return len(_REGISTRY)

    def __repr__(self):
        return repr(dict(self))


#: The kinds of :class:`FeatureGroup` and their parameters with defaults
#: (``<required>``: no default; ``None`` label: derived from other
#: parameters): a read-only mapping that follows :func:`register_kind`.
KINDS = _KindsView()


# --------------------------------------------------------------------------
# resolving a group's parameters


def _err(group, msg):
    return ValueError(f"feature group {group.name!r} (kind {group.kind!r}): {msg}")


def resolve_params(group) -> dict:
    """Validate a group and return its parameters with defaults filled in.

    Raises ``ValueError`` (naming the group) for an unknown kind, an unknown
    or missing parameter, a bad value, or offsets the kind cannot take.
    """
    kind = _REGISTRY.get(group.kind)
    if kind is None:
        raise _err(group, f"unknown kind; expected one of {sorted(_REGISTRY)}")
    spec = dict(kind.defaults)
    unknown = sorted(set(group.params) - set(spec))
    if unknown:
        raise _err(group, f"unknown parameter(s) {unknown}; {group.kind!r} takes {sorted(spec)}")
    missing = [key for key, default in spec.items()
               if default is _REQUIRED and key not in group.params]
    if missing:
        raise _err(group, f"missing required parameter {missing[0]!r}")
    p = {**spec, **group.params}  # in the kind's parameter order
    if not group.offsets:
        raise _err(group, "offsets must not be empty")
    if kind.distinct_offsets and len(set(group.offsets)) != len(group.offsets):
        raise _err(group, f"repeated offsets {group.offsets!r}")
    for key, check in kind.checks:
        try:
            p[key] = check(p[key])
        except (ValueError, TypeError) as exc:
            raise _err(group, f"parameter {key!r} {exc}") from None
    if kind.validate is not None:
        try:
            kind.validate(group, p)
        except (ValueError, TypeError) as exc:
            raise _err(group, str(exc)) from None
    return p


def group_columns(group, params: dict) -> tuple[str, ...]:
    """Annotation columns a group reads (columns discovered at fit excluded)."""
    kind = _REGISTRY[group.kind]
    if kind.columns is None:
        return ()
    return tuple(kind.columns(params))


# --------------------------------------------------------------------------
# building a group's blocks


class BuildContext:
    """What a kind's ``build`` receives besides the group and its parameters.

    Made by the featurizer in ``fit``, one per group.

    Parameters
    ----------
    corpus : Corpus
        The flattened training sentences.
    y : list of list of str or None
        The training labels.
    columns : tuple of str, default=()
        The annotation columns the group reads.
    lowercase : bool, default=False
        The featurizer's ``lowercase``.
    spans_cache : dict, optional
        Entity spans per scheme, shared by the groups of one fit.

    Attributes
    ----------
    columns : tuple of str
        The annotation columns the group reads (declared, or discovered in
        the training data).
    lowercase : bool
        The featurizer's ``lowercase``.
    sentences : list
        The training sentences.
    y : list of list of str or None
        The training labels (never None for a supervised kind).
    corpus : Corpus
        The flattened training sentences (internal).
    """

    def __init__(self, corpus, y, columns=(), lowercase=False, spans_cache=None):
        self.corpus = corpus
        self.y = y
        self.columns = tuple(columns)
        self.lowercase = bool(lowercase)
        self.mined = None
        self._spans = {} if spans_cache is None else spans_cache

    @property
    def sentences(self):
        """The training sentences (list of Sentence or of token lists)."""
        return self.corpus.sentences

    @memo("_spans")
    def spans(self, scheme):
        """Entity spans of ``y``, computed once per scheme and featurizer fit.

        Parameters
        ----------
        scheme : str
            Segment representation of ``y`` (e.g. ``"IOB2"``).

        Returns
        -------
        classes : list of str
            Sorted entity types.
        starts, ends, cls : ndarray of int64
            Half-open spans ``[starts[j], ends[j])`` in flat token positions
            (over all sentences, in order), of class ``classes[cls[j]]``.
        """
        return entity_spans(self.y, self.corpus.offsets, scheme)

    def record_mined(self, data):
        """Store what the group mined, shown as ``TokenFeaturizer.mined_[group.name]``.

        Parameters
        ----------
        data : object
            E.g. the list of mined triggers or patterns.

        Returns
        -------
        None
        """
        self.mined = data


def build_blocks(group, params, context) -> list:
    """The feature blocks of one group: its kind's ``build``, channels expanded over offsets."""
    kind = _REGISTRY[group.kind]
    if kind.supervised and context.y is None:
        raise ValueError(
            f"feature group {group.name!r} (kind {group.kind!r}) is mined from labelled "
            "data: fit needs y"
        )
    if "lowercase" in params and params["lowercase"] is None:
        params = {**params, "lowercase": context.lowercase}
    blocks = []
    for item in kind.build(group, params, context):
        if isinstance(item, Channel):
            blocks.extend(UnaryBlock(group.name, item, k) for k in group.offsets)
        elif isinstance(item, BLOCK_TYPES):
            blocks.append(item)
        else:
            raise TypeError(
                f"feature group {group.name!r}: build of kind {group.kind!r} returned "
                f"{item!r:.80}, expected Channel objects"
            )
    return blocks


# --------------------------------------------------------------------------
# parameter checks shared by the built-in kinds


def _check(ok, what, convert=None):
    """A check: ``value`` (converted by ``convert``) if ``ok(value)``, else "must be ``what``"."""

    def check(value):
        if not ok(value):
            raise ValueError(f"must be {what}, got {value!r}")
        return value if convert is None else convert(value)

    return check


def optional(check):
    """A check that also accepts None."""
    return lambda value: None if value is None else check(value)


def _real(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_int(low=1):
    """A check: an int >= ``low`` (not a bool)."""
    return _check(lambda v: isinstance(v, numbers.Integral) and _real(v) and v >= low,
                  f"an int >= {low}", int)


#: A check: a bool.
check_bool = _check(lambda v: isinstance(v, bool), "a bool")
#: A check: a non-empty str.
check_str = _check(lambda v: isinstance(v, str) and v != "", "a non-empty str")
#: A check: a number in (0, 1].
check_fraction = _check(lambda v: _real(v) and 0.0 < float(v) <= 1.0, "a number in (0, 1]", float)


def check_choice(*choices):
    """A check: one of ``choices`` (str)."""
    return _check(lambda v: isinstance(v, str) and v in choices,
                  " or ".join(map(repr, choices)))


def check_lengths(value):
    """A check: a non-empty tuple of distinct ints >= 1 (one int is one length)."""
    if isinstance(value, numbers.Integral):
        value = (value,)
    if not isinstance(value, tuple) or not value:
        raise ValueError(f"must be a non-empty tuple of int, got {value!r}")
    out = tuple(map(check_int(), value))
    if len(set(out)) != len(out):
        raise ValueError(f"has repeated values: {value!r}")
    return out


def check_scheme(value):
    """A check: a segment-representation scheme name (canonicalised)."""
    from ..schemes import check_scheme as canonical

    try:
        return canonical(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"is not a scheme: {exc}") from None
