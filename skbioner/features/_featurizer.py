"""``TokenFeaturizer``: template-driven sparse token features for sequence models."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._utils import gc_paused, portable_mapping, restore_mapping
from .._validation import FloatDType, Integral, Interval, fit_context
from ..base import SentenceTransformerMixin
from . import _kinds  # noqa: F401 - declares the built-in kinds
from ._assemble import assemble
from ._corpus import Corpus
from ._engine import Call, ConjunctionBlock, block_features
from ._mining import entity_spans
from ._registry import BuildContext, build_blocks, get_kind, group_columns, resolve_params
from ._representation import SentenceFeatures
from ._templates import FeatureGroup, get_preset

__all__ = ["TokenFeaturizer"]

_MAX_FEATURES = int(np.iinfo(np.int32).max)


def _features(matrix, corpus):
    """``SentenceFeatures`` of ``matrix`` with the sentences' doc ids and token columns."""
    names = sorted(n for n in corpus.annotation_names() if corpus.has_column(n).all())
    columns = {}
    for name in names:
        types, ids = corpus.column(name)
        columns[name] = np.asarray(types, dtype=object)[ids]
    return SentenceFeatures(matrix, corpus.offsets, _doc_ids(corpus.sentences), columns)


def _rare_type_weight(corpus, y, rare_types, min_count):
    """Per-token weights of the cutoff: ``min_count`` inside entities of a rare type, else 1.

    A type with fewer than ``rare_types`` training mentions keeps every feature
    its tokens show, so the cutoff cannot delete the only evidence it has.
    """
    classes, starts, ends, cls = entity_spans(y, corpus.offsets, "IOB2")
    rare = np.bincount(cls, minlength=len(classes))[cls] < rare_types
    weight = np.ones(corpus.n_tokens)
    for a, b in zip(starts[rare].tolist(), ends[rare].tolist(), strict=True):
        weight[a:b] = min_count
    return weight


def _margin(blocks):
    """Largest |offset| of the conjunction blocks (padding of pattern positions)."""
    return max(
        (abs(k) for b in blocks if isinstance(b, ConjunctionBlock) for _, k in b.parts), default=0
    )


def _group_names(names, known, what):
    """``names`` (one str or an iterable of str) as a set, checked against ``known``."""
    if isinstance(names, str):
        names = (names,)
    try:
        out = set(names)
    except TypeError:
        raise TypeError(f"{what}: expected group names, got {names!r:.80}") from None
    unknown = sorted(map(str, out - set(known)))
    if unknown:
        raise ValueError(f"{what} names unknown feature group(s) {unknown}; groups: {known}")
    return out


def _doc_ids(sentences):
    """``doc_id`` of each sentence, or None if none has one."""
    ids = [getattr(s, "doc_id", None) for s in sentences]
    return None if all(d is None for d in ids) else ids


class TokenFeaturizer(
    SentenceTransformerMixin, TransformerMixin, BaseEstimator, auto_wrap_output_keys=None
):
    """Template-driven sparse token features: one CSR matrix for all sentences.

    Features are computed once per distinct word type (and per distinct
    annotation value) and then placed on the tokens by array lookups and
    offset shifts; n-grams and conjunctions combine integer ids
    arithmetically.  No Python code runs per token.

    Parameters
    ----------
    templates : str or list of FeatureGroup, default="chan"
        A preset name (``"chan"``, ``"kazama"``, ``"nerbio"``, ``"zhou"``;
        see :func:`~skbioner.features.get_preset`) or a list of
        :class:`~skbioner.features.FeatureGroup`.
    exclude : tuple of str, default=()
        Names of groups of ``templates`` to leave out (see
        :meth:`get_template_names`).
    min_count : int, default=1
        Vocabulary mode: keep a feature only if it fires on at least this
        many training tokens (Settles used 5, Kazama et al. 20).
    rare_types : int, default=20
        With labels given to ``fit`` (as in a pipeline), the tokens of the
        entity types with fewer training mentions than this count
        ``min_count`` times each, so every feature they show is kept: the
        cutoff cannot delete the only evidence a rare type has.  0 turns
        this off.
    n_features : int or None, default=None
        ``None``: vocabulary mode (features are learned in ``fit`` and
        named by :meth:`get_feature_names_out`; features unseen in ``fit``
        are dropped).  An int: hashing mode with that many columns (e.g.
        ``2**20``); ``fit`` learns no vocabulary.  Each feature's column is
        a stable 32-bit hash of its template and value(s) modulo
        ``n_features``; colliding features share a column (value 1).
    lowercase : bool, default=False
        Read words lower-cased in ``word`` groups, word conjunctions and
        word caches (a group's ``lowercase`` parameter overrides it).
    dtype : {np.float32, np.float64}, default=np.float32
        Dtype of the matrix values (binary indicators).

    Attributes
    ----------
    groups_ : tuple of FeatureGroup
        The groups in use after ``exclude``, with optional groups whose
        annotation column is absent from the training data and
        ``dictionary`` groups without ``dict_*`` columns dropped.
    dictionary_columns_ : dict of str -> tuple of str
        For each ``dictionary`` group, the annotation columns it reads.
    mined_ : dict of str -> list
        Mined data of supervised groups: head-noun triggers as
        ``(words, class)`` pairs, affix patterns as ``"pre:..."``/``"suf:..."``.
    n_features_out_ : int
        Number of output columns.
    feature_ranges_ : dict of str -> (int, int) or None
        Vocabulary mode: the column range ``[start, stop)`` of each group
        in :attr:`groups_`; ``None`` in hashing mode.  :meth:`select_groups`
        keeps some groups' columns of an already-featurized matrix.

    See Also
    --------
    SentenceFeatures : the output of :meth:`transform`.
    FeatureGroup : one template group.

    Notes
    -----
    Outside its sentence a single-valued feature (word, shape, length...)
    reads the padding value ``<BOS>`` (before the first token) or
    ``<EOS>`` (after the last): ``"w[-1]=<BOS>"``.  Multi-valued features
    (orthographic flags, affix patterns, triggers) give nothing there.  (A
    token literally spelled ``<BOS>`` gets its own column, but prints the
    same name.)

    :meth:`transform` copies each sentence's ``doc_id`` (when any sentence
    has one) into :attr:`SentenceFeatures.doc_ids`.

    Vocabulary mode lays the columns out group by group (see
    :attr:`feature_ranges_`), within a group template by template (channel,
    then offset), and within a template in order of first occurrence in
    the training data.  Rows are canonical CSR (sorted, no duplicates).  In
    hashing mode colliding features are merged into one binary entry and,
    for ``n_features <= 2**24``, a row's indices are not sorted.

    ``fit`` and ``transform`` pause Python's cyclic garbage collector while
    they run (they allocate no cyclic garbage; with a large corpus in
    memory the collector's scans would cost as much as the featurization).

    Examples
    --------
    >>> from skbioner.features import TokenFeaturizer
    >>> X = [["IL-2", "gene", "expression"], ["NF-kappaB", "binds"]]
    >>> f = TokenFeaturizer(templates="chan").fit(X)
    >>> Xt = f.transform(X)
    >>> Xt.matrix.shape[0], len(Xt), Xt.lengths.tolist()
    (5, 2, [3, 2])
    >>> names = f.get_feature_names_out()
    >>> sorted(n for n in names[Xt.matrix[1].indices] if n.startswith("w[") and "&" not in n)
    ['w[-1]=IL-2', 'w[-2]=<BOS>', 'w[0]=gene', 'w[1]=expression', 'w[2]=<EOS>']
    >>> [n for n in names[Xt.matrix[1].indices] if n.startswith("w[-1]&w[0]=")]
    ['w[-1]&w[0]=IL-2|gene']
    >>> h = TokenFeaturizer(n_features=2**20).fit(X)  # hashing: stateless fit
    >>> h.transform(X).matrix.shape
    (5, 1048576)
    """

    _parameter_constraints = {
        # preset names, group lists and exclude names are checked against the
        # presets and the groups in fit (with messages naming what is unknown)
        "templates": [str, "array-like"],
        "exclude": [str, "array-like"],
        "min_count": [Interval(Integral, 1, None, closed="left")],
        "rare_types": [Interval(Integral, 0, None, closed="left")],
        "n_features": [Interval(Integral, 1, _MAX_FEATURES, closed="both"), None],
        "lowercase": ["boolean"],
        "dtype": [FloatDType()],
    }

    def __init__(
        self,
        templates="chan",
        exclude=(),
        min_count=1,
        rare_types=20,
        n_features=None,
        lowercase=False,
        dtype=np.float32,
    ):
        self.templates = templates
        self.exclude = exclude
        self.min_count = min_count
        self.rare_types = rare_types
        self.n_features = n_features
        self.lowercase = lowercase
        self.dtype = dtype

    # -- templates -----------------------------------------------------------

    def _template_list(self):
        t = self.templates
        if isinstance(t, str):
            return get_preset(t)  # raises ValueError naming the presets
        try:
            groups = list(t)
        except TypeError:
            raise TypeError(
                f"templates must be a preset name or a list of FeatureGroup, got {type(t).__name__}"
            ) from None
        for g in groups:
            if not isinstance(g, FeatureGroup):
                raise TypeError(f"templates must contain FeatureGroup objects, got {g!r:.80}")
        return groups

    def _resolved_groups(self):
        groups = self._template_list()
        names = [g.name for g in groups]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"feature group names must be unique; repeated: {dup}")
        exclude = _group_names(self.exclude, names, "exclude")
        return [g for g in groups if g.name not in exclude]

    def get_template_names(self):
        """Names of the feature groups in use (``templates`` minus ``exclude``).

        Before ``fit`` this is the configured set; after ``fit`` it is the
        names of :attr:`groups_` (optional groups absent from the data
        dropped).

        Returns
        -------
        list of str
        """
        if hasattr(self, "groups_"):
            return [g.name for g in self.groups_]
        return [g.name for g in self._resolved_groups()]

    # -- fit -----------------------------------------------------------------

    def _active_groups(self, corpus, groups):
        """Resolve the groups; drop optional groups without data; find discovered columns."""
        active, found = [], {}
        annotation_names = None
        for g in groups:
            params = resolve_params(g)
            kind = get_kind(g.kind)
            if kind.discover_columns is not None:
                if annotation_names is None:
                    annotation_names = frozenset(corpus.annotation_names())
                cols = tuple(kind.discover_columns(params, annotation_names))
                if not cols:
                    continue
                for c in cols:
                    corpus.column(c, group=g.name)  # every sentence must have it
                found[g.name] = cols
            else:
                skip = False
                for c in group_columns(g, params):
                    present = corpus.has_column(c)
                    if g.optional and not present.any():
                        skip = True
                        break
                    if not present.all():
                        corpus.column(c, g.name, g.kind)  # raises: names the sentence
                if skip:
                    continue
            active.append((g, params))
        return active, found

    def _build_blocks(self, active, found, corpus, y):
        """Every active group's blocks (from its kind's declaration) and mined data."""
        blocks, mined = [], {}
        spans = {}  # entity spans per scheme, shared by the supervised groups
        for g, p in active:
            columns = found.get(g.name) or group_columns(g, p)
            context = BuildContext(corpus, y, columns, bool(self.lowercase), spans)
            blocks.extend(build_blocks(g, p, context))
            if get_kind(g.kind).supervised:
                mined[g.name] = context.mined

        seen = {}
        for b in blocks:
            if b.label in seen and seen[b.label] != b.group:
                raise ValueError(
                    f"feature groups {seen[b.label]!r} and {b.group!r} both produce features "
                    f"named {b.label + '=...'!r}; drop one or give it another 'label'"
                )
            seen[b.label] = b.group
        return blocks, mined

    @staticmethod
    def _check_y(corpus, y):
        from ..schemes import check_label_sequences

        return check_label_sequences(y, corpus.lengths, scheme=False)

    def _fit(self, X, y, transform):
        dtype = np.dtype(self.dtype)
        groups = self._resolved_groups()
        corpus = Corpus(X)
        if corpus.n_tokens == 0:
            raise ValueError("cannot fit a TokenFeaturizer on X without tokens")
        active, found = self._active_groups(corpus, groups)
        weight = None
        if y is not None and self.n_features is None and self.min_count > 1 and self.rare_types:
            weight = _rare_type_weight(corpus, self._check_y(corpus, y), self.rare_types,
                                       self.min_count)
        if y is not None and any(get_kind(g.kind).supervised for g, _ in active):
            y = self._check_y(corpus, y)
        else:
            y = None
        blocks, mined = self._build_blocks(active, found, corpus, y)

        hashing = self.n_features is not None
        vocab = {}
        parts = []
        vocabularies = ranges = type_cache = None
        if hashing:
            n_out = int(self.n_features)
        else:
            call = Call(corpus, vocab, "fit", margin=_margin(blocks))
            base = 0
            ranges = {}
            vocabularies = []
            for b in blocks:
                part, fitted = block_features(b, call, min_count=self.min_count, base=base,
                                              token_weight=weight)
                vocabularies.append(fitted)
                start = ranges.get(b.group, (base, base))[0]
                base += fitted.size
                ranges[b.group] = (start, base)
                if base > _MAX_FEATURES:
                    raise ValueError(
                        f"more than 2**31 - 1 features; raise min_count or use n_features "
                        f"(hashing) instead (at group {b.group!r})"
                    )
                if transform:
                    parts.append(part)
            n_out = base
            ranges = {g.name: ranges.get(g.name, (base, base)) for g, _ in active}
            type_cache = call.type_cache_out()
            vocabularies = tuple(vocabularies)

        self.groups_ = tuple(g for g, _ in active)
        self.dictionary_columns_ = found
        self.mined_ = mined
        self.n_features_out_ = n_out
        self.feature_ranges_ = ranges
        self._blocks = tuple(blocks)
        self._vocabularies = vocabularies
        self._vocab = vocab
        self._type_cache = type_cache
        self._hashing = hashing
        self._dtype = dtype
        self._columns = [
            (g.name, c) for g, p in active for c in (found.get(g.name, ()) or group_columns(g, p))
        ]
        if transform and hashing:
            return self._featurize(corpus)
        if transform:
            return _features(assemble(corpus.n_tokens, parts, n_out, dtype), corpus)
        return self

    @fit_context
    def fit(self, X, y=None):
        """Learn the feature vocabulary (and mine supervised templates).

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.
        y : list of list of str, optional
            Label sequences; needed only by supervised groups
            (``head_noun``, ``affix_pattern``, e.g. the ``"zhou"`` preset).

        Returns
        -------
        self : TokenFeaturizer
        """
        with gc_paused():
            self._fit(X, y, transform=False)
        return self

    @fit_context
    def fit_transform(self, X, y=None):
        """Fit and return the features of ``X``, featurizing it once.

        Parameters
        ----------
        X : list of sentences
        y : list of list of str, optional

        Returns
        -------
        SentenceFeatures
        """
        with gc_paused():
            return self._fit(X, y, transform=True)

    def transform(self, X):
        """Featurize sentences.

        Parameters
        ----------
        X : list of sentences
            With the annotation columns the fitted groups read.

        Returns
        -------
        SentenceFeatures
            ``matrix`` of shape ``(n_tokens, n_features_out_)``, binary.
        """
        check_is_fitted(self, "groups_")
        with gc_paused():
            return self._transform(X)

    def _transform(self, X):
        corpus = Corpus(X)
        for group, column in self._columns:
            corpus.column(column, group=group)
        hashing = self._hashing
        if hashing != (self.n_features is not None) or (
            hashing and self.n_features != self.n_features_out_
        ):
            raise ValueError(
                f"n_features was changed to {self.n_features!r} after fit; refit the featurizer"
            )
        return self._featurize(corpus)

    def _featurize(self, corpus):
        """The features of a checked corpus, by the fitted blocks."""
        hashing = self._hashing
        call = Call(
            corpus,
            self._vocab,
            "hash" if hashing else "transform",
            margin=_margin(self._blocks),
            type_cache=getattr(self, "_type_cache", None),  # absent in older pickles
        )
        if hashing:
            parts = [
                block_features(b, call, n_features=self.n_features_out_)[0] for b in self._blocks
            ]
        else:
            parts = [
                block_features(b, call, vocabulary=v)[0]
                for b, v in zip(self._blocks, self._fitted_vocabularies(), strict=True)
            ]
        matrix = assemble(corpus.n_tokens, parts, self.n_features_out_, self._dtype, hashing)
        return _features(matrix, corpus)

    def _fitted_vocabularies(self):
        vocabularies = getattr(self, "_vocabularies", None)
        if vocabularies is None:
            raise ValueError(
                "this TokenFeaturizer was fitted and saved by an older version of skbioner "
                "(before per-block vocabularies); fit it again"
            )
        return vocabularies

    def __getstate__(self):
        state = super().__getstate__()
        if isinstance(state.get("_vocab"), dict):  # tuple keys: stored as pairs (safe format)
            state = {**state, "_vocab": portable_mapping(state["_vocab"])}
        return state

    def __setstate__(self, state):
        if "_vocab" in state:
            state = {**state, "_vocab": restore_mapping(state["_vocab"])}
        # a featurizer saved before ``rare_types`` existed was fitted without it (0): say so,
        # or get_params / clone (the POS jackknife clones the bundled model) fail on it
        state = {"rare_types": 0, **state}
        super().__setstate__(state)

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns (vocabulary mode only).

        Names look like ``"w[-1]=the"``, ``"suf3[0]=ase"``,
        ``"w[-1]&w[0]=the|cell"``, ``"orth[0]=InitCap"``, ``"lwc2=cell"``.

        Parameters
        ----------
        input_features : None
            Ignored; present for API compatibility.

        Returns
        -------
        ndarray of str objects, shape ``(n_features_out_,)``
        """
        check_is_fitted(self, "groups_")
        if self.feature_ranges_ is None:
            raise ValueError(
                "feature names are not available in hashing mode (n_features is set); "
                "use n_features=None for a named vocabulary"
            )
        names = []
        for b, fitted in zip(self._blocks, self._fitted_vocabularies(), strict=True):
            names.extend(b.names(self._vocab, fitted))
        return np.asarray(names, dtype=object)

    # -- group selection -----------------------------------------------------

    def select_groups(self, Xt, names, *, return_ranges=False):
        """Keep only some feature groups' columns of already-featurized sentences.

        The result is, up to the order of the columns within each group,
        the matrix that a featurizer fitted on the same data with only
        these groups (and the same ``min_count``) would give; no sentence
        is featurized again (a feature selector, e.g. NERBio's sequential
        forward selection, featurizes once and selects per candidate).
        Vocabulary mode only.

        Parameters
        ----------
        Xt : SentenceFeatures
            Output of this fitted featurizer (:meth:`transform` or
            :meth:`fit_transform`).
        names : str or iterable of str
            Names of groups of :attr:`groups_` to keep (in any order;
            repeats ignored).  The kept groups' columns are laid out in the
            order of :attr:`groups_`.
        return_ranges : bool, default=False
            Also return the column range of each kept group in the result.

        Returns
        -------
        features : SentenceFeatures
            The same sentences (offsets, ``doc_ids``) with only the columns
            of ``names``, renumbered from 0: shape ``(n_tokens,
            n_selected)``.  Rows keep their order (canonical CSR in, canonical
            CSR out).
        ranges : dict of str -> (int, int)
            Only with ``return_ranges=True``: the range ``[start, stop)`` of
            each kept group's columns in ``features``, in the order of
            :attr:`groups_`.

        Examples
        --------
        >>> X = [["IL-2", "gene", "expression"], ["NF-kappaB", "binds"]]
        >>> f = TokenFeaturizer(templates="nerbio")
        >>> Xt = f.fit_transform(X)
        >>> sub, ranges = f.select_groups(Xt, ["w", "suffix"], return_ranges=True)
        >>> sub.n_features == sum(b - a for a, b in ranges.values())
        True
        >>> ranges["w"] == (0, f.feature_ranges_["w"][1] - f.feature_ranges_["w"][0])
        True
        """
        check_is_fitted(self, "groups_")
        if self.feature_ranges_ is None:
            raise ValueError(
                "select_groups needs vocabulary mode: in hashing mode (n_features is set) "
                "the groups share columns; fit with n_features=None"
            )
        if not isinstance(Xt, SentenceFeatures):
            raise TypeError(
                f"Xt must be the SentenceFeatures returned by transform, got {type(Xt).__name__}"
            )
        if Xt.n_features != self.n_features_out_:
            raise ValueError(
                f"Xt has {Xt.n_features} features, this featurizer gives {self.n_features_out_}: "
                "pass the output of this featurizer's transform"
            )
        wanted = _group_names(names, list(self.feature_ranges_), "select_groups")
        kept, ranges, width = [], {}, 0
        for name, (start, stop) in self.feature_ranges_.items():
            if name in wanted:
                kept.append(np.arange(start, stop))
                ranges[name] = (width, width + stop - start)
                width += stop - start
        # the kept columns keep their relative order: canonical rows stay canonical
        matrix = Xt.matrix[:, np.concatenate([np.zeros(0, dtype=np.int64), *kept])]
        out = Xt.with_matrix(matrix)
        return (out, ranges) if return_ranges else out
