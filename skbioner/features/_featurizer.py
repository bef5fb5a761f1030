"""``TokenFeaturizer``: template-driven sparse token features for sequence models."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._sentence import _preview
from .._utils import gc_paused, portable_mapping, restore_mapping
from ..base import SentenceTransformerMixin
from . import _channels as ch
from ._assemble import assemble
from ._corpus import Corpus
from ._engine import (
    CacheBlock,
    Call,
    ConjunctionBlock,
    HeadNgramChannel,
    TokenBlock,
    UnaryBlock,
    block_features,
)
from ._mining import entity_spans, mine_affix_patterns, mine_head_nouns
from ._representation import SentenceFeatures
from ._templates import (
    KINDS,
    PRESETS,
    SUPERVISED_KINDS,
    FeatureGroup,
    get_preset,
    group_columns,
    resolve_params,
)

__all__ = ["TokenFeaturizer"]

_MAX_FEATURES = int(np.iinfo(np.int32).max)




def _margin(blocks):
    """Largest |offset| of the conjunction blocks (padding of pattern positions)."""
    return max(
        (abs(k) for b in blocks if isinstance(b, ConjunctionBlock) for _, k in b.parts), default=0
    )


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
        in :attr:`groups_`; ``None`` in hashing mode.

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

    def __init__(
        self,
        templates="chan",
        exclude=(),
        min_count=1,
        n_features=None,
        lowercase=False,
        dtype=np.float32,
    ):
        self.templates = templates
        self.exclude = exclude
        self.min_count = min_count
        self.n_features = n_features
        self.lowercase = lowercase
        self.dtype = dtype


    # -- templates -----------------------------------------------------------

    def _template_list(self):
        t = self.templates
        if isinstance(t, str):
            if t not in PRESETS:
                raise ValueError(f"unknown template preset {t!r}; expected one of {PRESETS}")
            return get_preset(t)
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
        exclude = self.exclude
        if isinstance(exclude, str):
            exclude = (exclude,)
        try:
            exclude = set(exclude)
        except TypeError:
            raise TypeError(f"exclude must be a tuple of group names, got {exclude!r}") from None
        unknown = sorted(exclude - set(names))
        if unknown:
            raise ValueError(f"exclude names unknown feature group(s) {unknown}; groups: {names}")
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

    # -- parameter validation ------------------------------------------------

    def _check_params(self):
        mc = self.min_count
        if not isinstance(mc, numbers.Integral) or isinstance(mc, bool) or mc < 1:
            raise ValueError(f"min_count must be an int >= 1, got {mc!r}")
        nf = self.n_features
        if nf is not None and (
            not isinstance(nf, numbers.Integral)
            or isinstance(nf, bool)
            or not 1 <= nf <= _MAX_FEATURES
        ):
            raise ValueError(f"n_features must be None or an int in [1, 2**31 - 1], got {nf!r}")
        if not isinstance(self.lowercase, bool | np.bool_):
            raise ValueError(f"lowercase must be a bool, got {self.lowercase!r}")
        try:
            dtype = None if self.dtype is None else np.dtype(self.dtype)
        except TypeError:
            dtype = None
        if dtype is None or dtype.type not in (np.float32, np.float64):
            raise ValueError(f"dtype must be np.float32 or np.float64, got {self.dtype!r}")
        return dtype

    # -- fit -----------------------------------------------------------------

    def _select_groups(self, corpus, groups):
        """Drop optional groups without data; find dictionary columns."""
        active, dict_columns = [], {}
        annotation_names = None
        n = len(corpus.sentences)
        for g in groups:
            params = resolve_params(g)
            if g.kind == "dictionary":
                if annotation_names is None:
                    annotation_names = corpus.annotation_names()
                cols = tuple(sorted(c for c in annotation_names if c.startswith(params["prefix"])))
                if not cols:
                    continue
                for c in cols:
                    corpus.column(c, group=g.name)  # every sentence must have it
                dict_columns[g.name] = cols
            else:
                skip = False
                for c in group_columns(g, params):
                    present = corpus.has_column(c)
                    if g.optional and not present.any():
                        skip = True
                        break
                    if not present.all():
                        i = int(np.flatnonzero(~present)[0]) if n else 0
                        s = corpus.sentences[i]
                        have = sorted(getattr(s, "_cols", {}))
                        raise ValueError(
                            f"feature group {g.name!r} (kind {g.kind!r}) needs annotation "
                            f"column {c!r}, which X[{i}] does not have (its annotations: "
                            f"{have or 'none'}): {_preview(s)}"
                        )
                if skip:
                    continue
            active.append((g, params))
        return active, dict_columns

    def _attribute_channel(self, name, lowercase):
        if name == "word":
            return ch.WordChannel(lowercase=lowercase)
        if name == "word_class":
            return ch.WordClassChannel()
        if name == "brief_word_class":
            return ch.BriefWordClassChannel()
        if name == "length":
            return ch.LengthChannel(KINDS["length"]["bins"])
        if name == "formation":
            return ch.FormationChannel()
        return ch.AnnotationChannel(name)

    def _build_blocks(self, active, dict_columns, corpus, y):
        blocks, mined = [], {}
        spans = None
        for g, p in active:
            offs = g.offsets
            lower = p.get("lowercase")
            if lower is None:
                lower = bool(self.lowercase)
            kind = g.kind
            channels = []
            if kind == "word":
                channels = [ch.WordChannel(lowercase=lower, label=p["label"])]
            elif kind == "annotation":
                channels = [ch.AnnotationChannel(p["column"], p["label"])]
            elif kind == "prefix":
                channels = [ch.PrefixChannel(n, p["label"]) for n in p["lengths"]]
            elif kind == "suffix":
                channels = [ch.SuffixChannel(n, p["label"]) for n in p["lengths"]]
            elif kind == "substring":
                channels = [ch.SubstringChannel(p["min_length"], p["max_length"], p["label"])]
            elif kind == "word_class":
                channels = [ch.WordClassChannel(p["label"])]
            elif kind == "brief_word_class":
                channels = [ch.BriefWordClassChannel(p["label"])]
            elif kind == "orthographic":
                channels = [ch.OrthographicChannel(p["label"])]
            elif kind == "length":
                channels = [ch.LengthChannel(p["bins"], p["label"])]
            elif kind == "formation":
                channels = [ch.FormationChannel(p["label"])]
            elif kind == "dictionary":
                channels = [ch.AnnotationChannel(c) for c in dict_columns[g.name]]
            elif kind == "conjunction":
                parts = [
                    (self._attribute_channel(a, lower), k)
                    for a, k in zip(p["of"], offs, strict=True)
                ]
                blocks.append(ConjunctionBlock(g.name, parts))
                continue
            elif kind == "word_cache":
                blocks.append(
                    CacheBlock(
                        g.name, ch.WordChannel(lowercase=lower), p["side"], p["window"], p["label"]
                    )
                )
                continue
            elif kind in SUPERVISED_KINDS:
                if y is None:
                    raise ValueError(
                        f"feature group {g.name!r} (kind {kind!r}) is mined from labelled "
                        "data: fit needs y"
                    )
                if spans is None:
                    spans = entity_spans(y, corpus.offsets, p["scheme"])
                    spans_scheme = p["scheme"]
                elif spans_scheme != p["scheme"]:
                    spans = entity_spans(y, corpus.offsets, p["scheme"])
                    spans_scheme = p["scheme"]
                if kind == "head_noun":
                    triggers = mine_head_nouns(
                        corpus, spans, p["n"], p["min_count"], p["min_precision"], p["lowercase"]
                    )
                    mined[g.name] = triggers
                    token_channel = HeadNgramChannel(
                        g.name, p["n"], triggers, p["lowercase"], p["label"]
                    )
                    blocks.extend(TokenBlock(g.name, token_channel, k) for k in offs)
                    continue
                patterns = mine_affix_patterns(
                    corpus,
                    spans,
                    p["lengths"],
                    p["types"],
                    p["min_count"],
                    p["min_purity"],
                    p["max_affixes"],
                    p["lowercase"],
                )
                mined[g.name] = patterns
                channels = [
                    ch.AffixPatternChannel(
                        g.name, patterns, p["lengths"], p["lowercase"], p["label"]
                    )
                ]
            else:  # pragma: no cover - resolve_params rejects unknown kinds
                raise ValueError(f"unknown kind {kind!r}")
            for channel in channels:
                blocks.extend(UnaryBlock(g.name, channel, k) for k in offs)

        seen = {}
        for b in blocks:
            if b.label in seen and seen[b.label] != b.group:
                raise ValueError(
                    f"feature groups {seen[b.label]!r} and {b.group!r} both produce features "
                    f"named {b.label + '=...'!r}; drop one or give it another 'label'"
                )
            seen[b.label] = b.group
        return blocks, mined

    def _check_y(self, corpus, y):
        if isinstance(y, str | bytes):
            raise TypeError("y must be a list of label sequences")
        y = [list(labels) for labels in y]
        if len(y) != len(corpus.sentences):
            raise ValueError(
                f"X has {len(corpus.sentences)} sentences but y has {len(y)} label sequences"
            )
        bad = np.flatnonzero(
            corpus.lengths != np.fromiter(map(len, y), dtype=np.int64, count=len(y))
        )
        if bad.size:
            i = int(bad[0])
            raise ValueError(
                f"sentence {i} has {corpus.lengths[i]} tokens but {len(y[i])} labels: "
                f"{_preview(corpus.sentences[i])}"
            )
        return y

    def _fit(self, X, y, transform):
        dtype = self._check_params()
        groups = self._resolved_groups()
        corpus = Corpus(X)
        if corpus.n_tokens == 0:
            raise ValueError("cannot fit a TokenFeaturizer on X without tokens")
        active, dict_columns = self._select_groups(corpus, groups)
        if y is not None and any(g.kind in SUPERVISED_KINDS for g, _ in active):
            y = self._check_y(corpus, y)
        blocks, mined = self._build_blocks(active, dict_columns, corpus, y)

        hashing = self.n_features is not None
        vocab = {}
        parts = []
        if hashing:
            n_out = int(self.n_features)
            if transform:
                call = Call(corpus, vocab, "hash")
                parts = [block_features(b, call, n_features=n_out) for b in blocks]
            ranges = None
            type_cache = None
        else:
            call = Call(corpus, vocab, "fit", margin=_margin(blocks))
            base = 0
            ranges = {}
            for b in blocks:
                part = block_features(b, call, min_count=self.min_count, base=base)
                start = ranges.get(b.group, (base, base))[0]
                base += b.kept.size
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

        self.groups_ = tuple(g for g, _ in active)
        self.dictionary_columns_ = dict_columns
        self.mined_ = mined
        self.n_features_out_ = n_out
        self.feature_ranges_ = ranges
        self._blocks = blocks
        self._vocab = vocab
        self._type_cache = type_cache
        self._hashing = hashing
        self._dtype = dtype
        self._columns = [
            (g.name, c)
            for g, p in active
            for c in (dict_columns.get(g.name, ()) or group_columns(g, p))
        ]
        if transform:
            matrix = assemble(corpus.n_tokens, parts, n_out, dtype, dedupe=hashing)
            return SentenceFeatures(matrix, corpus.offsets)
        return self

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
        call = Call(
            corpus,
            self._vocab,
            "hash" if hashing else "transform",
            margin=_margin(self._blocks),
            type_cache=getattr(self, "_type_cache", None),  # absent in older pickles
        )
        parts = [block_features(b, call, n_features=self.n_features_out_) for b in self._blocks]
        matrix = assemble(corpus.n_tokens, parts, self.n_features_out_, self._dtype, hashing)
        return SentenceFeatures(matrix, corpus.offsets)

    def __getstate__(self):
        state = super().__getstate__()
        if isinstance(state.get("_vocab"), dict):  # tuple keys: stored as pairs (safe format)
            state = {**state, "_vocab": portable_mapping(state["_vocab"])}
        return state

    def __setstate__(self, state):
        if "_vocab" in state:
            state = {**state, "_vocab": restore_mapping(state["_vocab"])}
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
        for b in self._blocks:
            names.extend(b.names(self._vocab, b.kept))
        return np.asarray(names, dtype=object)
