"""The featurization engine: value tables, feature blocks, vocabulary, hashing.

Vocabulary of terms used here:

*channel*
    A per-type value function (:mod:`._channels`), e.g. "3-letter suffix".
*table*
    A channel evaluated on the distinct values of its source column in one
    call: a CSR matrix from rows (types, plus a BOS and an EOS padding row)
    to integer *value ids*.
*block*
    One template instance that produces features: a channel at one offset
    (``suf3[0]``), a conjunction (``w[-1]&w[0]``), a word cache (``lwc2``)
    or a token-level trigger channel at one offset (``head2[0]``).  In
    vocabulary mode each block owns a contiguous range of columns; its
    *keys* (value ids, or mixed-radix combinations of value ids) are
    counted at token level in ``fit`` and those seen ``min_count`` times
    are kept.  In hashing mode keys are replaced by 32-bit hashes.

*block vocabulary*
    What ``fit`` learns for one block (:class:`BlockVocabulary`): the kept
    keys, the block's first column and, for conjunctions, the key
    compression tables.  Blocks are built once and never changed by
    ``fit``; the featurizer holds one vocabulary record beside each block.

A block's ``keys`` (vocabulary mode) or ``hashes`` (hashing mode) come as
``("table", src, indptr, values[, n_keys])`` (token ``i`` takes the values
of table row ``src[i]``), ``("direct", values[, valid])`` (one value per
token) or, for conjunctions, ``("pattern", uniq, ids)`` (token ``i`` has
key ``uniq[ids[i]]``).  :func:`block_features` turns them into column ids
in the two forms :func:`._assemble.assemble` reads: ``("table", src,
indptr, cols)`` and ``("direct", cols)`` (negative: no feature).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, repeat

import numpy as np

from .._utils import portable_mapping, restore_mapping
from ._channels import BOS, EOS
from ._corpus import memo
from ._hashing import hash_strings, mix, mix_gather
from ._intmap import KEY_LIMIT, IntIndex, combine_keys, factorize_int64
from ._mining import lower_ids, ngram_ids, row_ids

__all__ = [
    "BLOCK_TYPES",
    "BlockVocabulary",
    "CacheBlock",
    "Call",
    "ConjunctionBlock",
    "HeadNgramChannel",
    "TokenBlock",
    "UnaryBlock",
    "block_features",
]

_PAD_HASHES = hash_strings(["\x02" + BOS, "\x03" + EOS])


#: Marker of a cached channel whose value id of a training type is its row.
IDENTITY = "identity"

#: Multi-valued channels with more values per training type than this are not cached.
_MULTI_CACHE_FACTOR = 4


def _narrow(a):
    """``a`` (int64, >= -1) in the smallest signed integer dtype that holds it."""
    top = max(int(a.max()), 0) if a.size else 0
    return a.astype(np.min_scalar_type(-top - 1))  # the smallest signed type holding -1..top


def _single_table(single, V):
    """Table of a single-valued channel from its per-type ids (last 2 slots: pads)."""
    single[-2] = V
    single[-1] = V + 1
    present = single >= 0
    indptr = np.zeros(single.size + 1, dtype=np.int64)
    np.cumsum(present, out=indptr[1:])
    return Table(single, indptr, single[present], V + 2, V)


def _ids(index, values):
    """The id of each of ``values`` in the dict ``index`` (-1: absent), int64."""
    return np.fromiter(map(index.get, values, repeat(-1)), dtype=np.int64, count=len(values))


def _pairs(index, vals, rows):
    """``(row, value id)`` of every value of a multi-valued channel's ``vals`` (one per row)."""
    lens = np.fromiter(map(len, vals), dtype=np.int64, count=len(vals))
    return np.repeat(rows, lens), _ids(index, list(chain.from_iterable(vals)))


def _multi_table(rows, ids, n_types, V):
    """Table of a multi-valued channel from (row, value id) pairs (-1 ids dropped)."""
    known = ids >= 0
    if not known.all():
        rows, ids = rows[known], ids[known]
    order = np.lexsort((ids, rows))
    ids = ids[order]
    indptr = np.zeros(n_types + 3, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n_types + 2), out=indptr[1:])
    return Table(None, indptr, ids, V, V)


class TypeCache:
    """Fitted per-type value ids of the training types (vocabulary mode).

    ``sources`` maps a source column to its training types (object array,
    row order); ``channels`` maps a channel key to the value id of each
    training type (``IDENTITY``: the row itself; -1: no value) or, for a
    multi-valued channel, a CSR ``(indptr, ids)``.  ``transform`` gathers
    the values of seen types from it and computes only the unseen ones.
    """

    def __init__(self):
        self.sources = {}
        self.channels = {}
        self._index = {}
        self.value_indexes = {}  # channel key -> dict value -> id (filled by transform)

    @memo("_index")
    def index(self, source):
        """Dict training type -> row (built once; not pickled, nor ``value_indexes``)."""
        types = self.sources[source]
        return dict(zip(types.tolist(), range(len(types)), strict=True))

    def __getstate__(self):
        # tuple keys and string arrays in a form the safe model format stores
        return {"sources": portable_mapping(self.sources),
                "channels": portable_mapping(self.channels)}

    def __setstate__(self, state):
        self.sources = restore_mapping(state["sources"])
        self.channels = restore_mapping(state["channels"])
        self._index = {}
        self.value_indexes = {}


@dataclass(slots=True)
class Table:
    """Value ids of one channel for the rows of one call (see module docstring)."""

    single: np.ndarray | None  # int64 (n_rows,) value id or -1, or None (multi-valued)
    indptr: np.ndarray  # int64 (n_rows + 1,)
    ids: np.ndarray  # int64, sorted within each row
    n_values: int  # key space: real values (+ 2 pads if single)
    n_real: int  # number of real (non-padding) values
    hashes: np.ndarray | None = None  # uint32 (n_values,) in hashing mode


class Call:
    """State of one ``fit``/``transform`` call: corpus, tables, vocabularies.

    Parameters
    ----------
    corpus : Corpus
    vocab : dict
        Channel key -> ndarray of value strings.  Filled in ``"fit"`` mode,
        read in ``"transform"`` mode, unused in ``"hash"`` mode.
    mode : {"fit", "transform", "hash"}
    margin : int, default=0
        Largest ``|offset|`` of the conjunction blocks: the padding of the
        extended positions on which conjunction patterns are computed.
    type_cache : TypeCache, optional
        ``"transform"`` mode: the fitted per-type value ids (see
        :meth:`type_cache_out`); tables then gather the values of the types
        seen in ``fit`` and compute only the unseen types.
    """

    def __init__(self, corpus, vocab, mode, margin=0, type_cache=None):
        self.corpus = corpus
        self.vocab = vocab
        self.mode = mode
        self.margin = margin
        self.type_cache = type_cache if mode == "transform" else None
        self._tables = {}
        # transform: the value indexes of the fitted vocabulary, kept across calls
        self._index = {} if self.type_cache is None else self.type_cache.value_indexes
        self._patterns = {}
        self._fit_rows = {}  # fit: channel key -> (source, per-type value ids)
        self._known = {}  # transform: source -> (train row of each type, unseen types)

    def _value_index(self, key, values):
        if self.mode == "transform":
            return self._fitted_index(key)
        vocab = list(values)  # first-occurrence order: deterministic, no sort needed
        if self.mode == "fit":
            self.vocab[key] = np.asarray(vocab, dtype=object)
        return dict(zip(vocab, range(len(vocab)), strict=True))

    @memo("_index")
    def _fitted_index(self, key):
        """Transform: dict value -> id of the fitted vocabulary of channel ``key``."""
        vocab = self.vocab[key]
        return dict(zip(vocab.tolist(), range(len(vocab)), strict=True))

    @memo("_tables", key=lambda channel: channel.key)
    def table(self, channel) -> Table:
        """The table of a per-type channel (cached by channel key)."""
        key = channel.key
        types, _ = self.corpus.column(channel.source)
        n_types = len(types)
        cached = None
        if self.type_cache is not None:
            cached = self.type_cache.channels.get(key)
        if cached is not None:
            table = self._cached_table(channel, cached, types)
        elif channel.single:
            vals = channel.values(types)
            distinct = None
            if self.mode != "transform":
                distinct = dict.fromkeys(vals)
                distinct.pop(None, None)
            index = self._value_index(key, distinct)
            single = np.empty(n_types + 2, dtype=np.int64)
            single[:n_types] = _ids(index, vals)
            table = _single_table(single, len(index))
            if self.mode == "fit":
                self._fit_rows[key] = (channel.source, single[:n_types])
        else:
            vals = channel.values(types)
            index = self._value_index(
                key, None if self.mode == "transform" else dict.fromkeys(chain.from_iterable(vals))
            )
            rows, ids = _pairs(index, vals, np.arange(n_types, dtype=np.int64))
            table = _multi_table(rows, ids, n_types, len(index))
            if self.mode == "fit":
                self._fit_rows[key] = (channel.source, (table.indptr[: n_types + 1], table.ids))
        if self.mode == "hash":
            table.hashes = hash_strings(sorted(index, key=index.__getitem__))
            if channel.single:
                table.hashes = np.concatenate([table.hashes, _PAD_HASHES])
        return table

    @memo("_known")
    def _known_rows(self, source):
        """Train row of each type of ``source`` in this call (-1: unseen), and the unseen."""
        types, _ = self.corpus.column(source)
        index = self.type_cache.index(source)
        rows = _ids(index, types)
        unseen = np.flatnonzero(rows < 0)
        return rows, unseen, [types[i] for i in unseen.tolist()]

    def _cached_table(self, channel, cached, types):
        """Transform: gather the fitted value ids of seen types, compute the unseen ones."""
        n_types = len(types)
        rows, unseen, new_types = self._known_rows(channel.source)
        vals = channel.values(new_types) if new_types else []
        index = self._value_index(channel.key, None) if vals else {}
        V = self.vocab[channel.key].size
        if channel.single:
            single = np.empty(n_types + 2, dtype=np.int64)
            if isinstance(cached, str):  # IDENTITY: value id == train row
                single[:n_types] = rows
            else:
                single[:n_types] = cached[rows]  # rows of unseen types overwritten below
            single[unseen] = _ids(index, vals)
            return _single_table(single, V)
        c_indptr, c_ids = cached
        seen = np.flatnonzero(rows >= 0)
        starts = c_indptr[rows[seen]].astype(np.int64)
        counts = c_indptr[rows[seen] + 1].astype(np.int64) - starts
        total = int(counts.sum())
        offsets = np.repeat(starts - (np.cumsum(counts) - counts), counts)
        ids_seen = c_ids[offsets + np.arange(total, dtype=np.int64)].astype(np.int64)
        rows_new, ids_new = _pairs(index, vals, unseen)
        return _multi_table(np.concatenate([np.repeat(seen, counts), rows_new]),
                            np.concatenate([ids_seen, ids_new]), n_types, V)

    def type_cache_out(self) -> TypeCache:
        """Fit: the per-type value ids of the training types, for ``transform``."""
        cache = TypeCache()
        for key, (source, data) in self._fit_rows.items():
            types = self.corpus.column(source)[0]
            if isinstance(data, tuple):
                indptr, ids = data
                if ids.size > _MULTI_CACHE_FACTOR * max(len(types), 1):
                    continue  # e.g. substrings: too big to keep
                cache.channels[key] = (_narrow(indptr), _narrow(ids))
                continue
            if np.array_equal(data, np.arange(data.size)):
                cache.channels[key] = IDENTITY
                vocab = self.vocab[key]
                if source not in cache.sources and vocab.tolist() == types:
                    cache.sources[source] = vocab  # the same strings: share them
            else:
                cache.channels[key] = _narrow(data)
        for key, (source, _) in self._fit_rows.items():
            if key in cache.channels and source not in cache.sources:
                cache.sources[source] = np.asarray(self.corpus.column(source)[0], dtype=object)
        return cache

    @memo("_tables", key=lambda channel: channel.key)
    def token_table(self, channel) -> Table:
        """The per-token table of a token-level channel (cached)."""
        indptr, ids = channel.token_values(self.corpus)
        n = len(channel.classes)
        table = Table(None, indptr, ids, n, n)
        if self.mode == "hash":
            table.hashes = hash_strings(channel.classes)
        return table

    def pattern(self, block, stages=()):
        """Factorized conjunction keys shared by the blocks of one pattern.

        Blocks whose parts read the same channels at the same *relative*
        offsets (``w[-1]&w[0]`` and ``w[0]&w[1]``) have key sequences that
        are shifts of one another.  The keys are computed once, on the
        extended (padded) positions, and factorized once; each block then
        gathers its token ids at ``token_pos + min(offsets)``.

        Parameters
        ----------
        block : ConjunctionBlock
        stages : tuple of ndarray, default=()
            ``"transform"`` mode: the compression tables fitted for the
            pattern (:attr:`BlockVocabulary.stages`); ignored in ``fit``.

        Returns
        -------
        uniq : ndarray of int64
            Distinct keys of the pattern in this call.
        ids : ndarray of int64, shape (n_tokens,)
            Index into ``uniq`` of each token's key for ``block`` (-1: none).
        stages : tuple of ndarray
            The compression tables (built from the data in ``fit``).
        radices : tuple of int
            The parts' radices.
        """
        margin = self.margin
        if max(abs(k) for _, k in block.parts) > margin:
            raise ValueError(f"offsets of {block.label!r} exceed the margin {margin}")
        fit = self.mode == "fit"
        cached = self._patterns.get(block.pattern_key)
        if cached is None:
            total, token_pos, _ = self.corpus.ext_layout(margin)
            parts, radices = [], []
            for ch, k in block.parts:
                table = self.table(ch)
                values = table.single[self.corpus.ext_types(ch.source, margin)]
                r = k - block.base_offset
                if r:
                    # garbage past each sentence's padding is never gathered
                    values = np.concatenate(
                        [values[r:], np.full(min(r, total), -1, dtype=np.int64)]
                    )
                parts.append(values)
                radices.append(table.n_values)
            stages = [] if fit else list(stages)
            keys = combine_keys(parts, radices, stages, fit)
            uniq, _, inverse = factorize_int64(keys)
            cached = [uniq, inverse, tuple(stages), tuple(radices), token_pos, None]
            self._patterns[block.pattern_key] = cached
        uniq, inverse, stages, radices, token_pos, _ = cached
        return uniq, inverse[token_pos + block.base_offset], stages, radices

    def pattern_index(self, block) -> IntIndex:
        """Hash index of the pattern's distinct keys in this call (cached)."""
        cached = self._patterns[block.pattern_key]
        if cached[5] is None:
            cached[5] = IntIndex(cached[0])
        return cached[5]

    def single_ids(self, channel, k) -> np.ndarray:
        """Value id of token ``i + k`` of a single-valued channel (pads included)."""
        table = self.table(channel)
        return table.single[self.corpus.shifted_types(channel.source, k)]


def _value_name(vocab, k):
    n = len(vocab)
    if k < n:
        return str(vocab[k])
    return BOS if k == n else EOS


@dataclass(frozen=True)
class BlockVocabulary:
    """The fitted vocabulary of one block (immutable; arrays read-only).

    Parameters
    ----------
    kept : ndarray of int64
        The block's keys kept in ``fit`` (seen on at least ``min_count``
        tokens), in column order: key ``kept[j]`` is column ``base + j``.
    base : int
        The block's first column.
    stages : tuple of ndarray, default=()
        Conjunctions: the key compression tables (see :func:`combine_keys`).
    radices : tuple of int or None, default=None
        Conjunctions: the radix of each part.
    """

    kept: np.ndarray
    base: int
    stages: tuple = ()
    radices: tuple | None = None

    def __post_init__(self):
        object.__setattr__(self, "kept", _frozen(self.kept))
        object.__setattr__(self, "base", int(self.base))
        object.__setattr__(self, "stages", tuple(_frozen(t) for t in self.stages))
        if self.radices is not None:
            object.__setattr__(self, "radices", tuple(int(r) for r in self.radices))

    def __setstate__(self, state):
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.__post_init__()  # unpickled arrays come back writeable

    @property
    def size(self) -> int:
        """Number of columns of the block."""
        return int(self.kept.size)


def _frozen(a):
    a = np.asarray(a, dtype=np.int64)
    if a.flags.writeable:
        a = a.view()
        a.flags.writeable = False
    return a


class _TableBlock:
    """A channel's values read through a CSR table of value ids.

    Subclasses give the table (:meth:`_rows`): the row each token reads,
    the rows' value ids, the size of the key space and the value hashes;
    keys and hashes are built from it the same way.
    """

    def __init__(self, group, channel, offset):
        self.group = group
        self.channel = channel
        self.offset = offset
        self.label = f"{channel.label}[{offset}]"

    def keys(self, call, fitted=None):
        src, indptr, ids, n_keys, _ = self._rows(call)
        return ("table", src, indptr, ids, n_keys)

    def hashes(self, call):
        src, indptr, ids, _, value_hashes = self._rows(call)
        return ("table", src, indptr, mix(hash_strings([self.label])[0], value_hashes[ids]))

    def names(self, vocab, fitted):
        values = vocab[self.channel.key]
        return [f"{self.label}={_value_name(values, k)}" for k in fitted.kept.tolist()]


class UnaryBlock(_TableBlock):
    """A per-type channel read at one offset: ``"<label>[<offset>]=<value>"``."""

    def _rows(self, call):
        t = call.table(self.channel)
        src = call.corpus.shifted_types(self.channel.source, self.offset)
        return src, t.indptr, t.ids, t.n_values, t.hashes


class TokenBlock(_TableBlock):
    """A token-level channel (head-noun n-gram triggers) read at one offset."""

    def _rows(self, call):
        t = call.token_table(self.channel)
        return call.corpus.shift_index(self.offset), t.indptr, t.ids, t.n_values, t.hashes

    def names(self, vocab, fitted):
        classes = self.channel.classes
        return [f"{self.label}={classes[k]}" for k in fitted.kept.tolist()]


class ConjunctionBlock:
    """Values of single-valued channels at several offsets joined into one feature.

    Keys are mixed-radix numbers over the parts' value ids (radix = the
    part's number of values incl. padding).  If the next digit would
    overflow 62 bits, the partial keys seen in ``fit`` are compressed to
    their rank (the sorted tables are kept in the block's
    :attr:`BlockVocabulary.stages` for ``transform``).
    """

    def __init__(self, group, parts):
        self.group = group
        self.parts = tuple(parts)  # (channel, offset) pairs
        self.label = "&".join(f"{ch.label}[{k}]" for ch, k in self.parts)
        self.base_offset = min(k for _, k in self.parts)
        self.pattern_key = tuple((ch.key, k - self.base_offset) for ch, k in self.parts)

    def keys(self, call, fitted=None):
        uniq, ids, stages, radices = call.pattern(self, () if fitted is None else fitted.stages)
        return ("pattern", uniq, ids, stages, radices)

    def hashes(self, call):
        h = np.full(call.corpus.n_tokens, hash_strings([self.label])[0], dtype=np.uint32)
        valid = np.ones(call.corpus.n_tokens, dtype=bool)
        for ch, k in self.parts:
            mix_gather(h, call.single_ids(ch, k), call.table(ch).hashes, valid)
        return ("direct", h, valid)

    def decode(self, keys, fitted):
        """Value ids of each part for an array of keys: list of int64 arrays."""
        keys = np.asarray(keys, dtype=np.int64)
        radices = fitted.radices
        stages = fitted.stages
        # replay the compression decisions of keys()
        boundaries = []
        span = radices[0]
        for j, r in enumerate(radices[1:], start=1):
            if span * r >= KEY_LIMIT:
                table = stages[len(boundaries)]
                boundaries.append(j)
                span = max(len(table), 1)
            span *= r
        out = [None] * len(radices)
        stage = len(boundaries)
        for j in range(len(radices) - 1, 0, -1):
            keys, out[j] = np.divmod(keys, radices[j])
            if boundaries and boundaries[stage - 1] == j:
                stage -= 1
                keys = stages[stage][keys]
        out[0] = keys
        return out

    def names(self, vocab, fitted):
        parts = self.decode(fitted.kept, fitted)
        columns = []
        for (ch, _), ids in zip(self.parts, parts, strict=True):
            values = vocab[ch.key]
            columns.append([_value_name(values, k) for k in ids.tolist()])
        return [f"{self.label}={'|'.join(vals)}" for vals in zip(*columns, strict=True)]


class CacheBlock(_TableBlock):
    """Word cache: "one of the words at offsets ``window`` is W", deduplicated."""

    def __init__(self, group, channel, side, window, label):
        self.group = group
        self.channel = channel
        self.side = side
        self.window = window
        self.label = label

    def _offsets(self):
        if self.side == "left":
            return range(-self.window, 1)
        return range(1, self.window + 1)

    def _rows(self, call):
        table = call.table(self.channel)
        V = table.n_real
        n = call.corpus.n_tokens
        cols = []
        for k in self._offsets():
            ids = call.single_ids(self.channel, k)
            cols.append(np.where(ids < V, ids, -1))
        win = np.sort(np.stack(cols, axis=1), axis=1)
        keep = win >= 0
        keep[:, 1:] &= win[:, 1:] != win[:, :-1]
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(keep.sum(axis=1), out=indptr[1:])
        return np.arange(n, dtype=np.int64), indptr, win[keep], V, table.hashes



class HeadNgramChannel:
    """Token-level channel: classes of the head-noun n-gram ending at a token.

    Parameters
    ----------
    group : str
    n : int
    triggers : sequence of (tuple of str, str)
        Mined ``(words, class)`` pairs.
    lowercase : bool
    label : str
    """

    def __init__(self, group, n, triggers, lowercase, label):
        self.group = group
        self.n = n
        self.triggers = tuple((tuple(w), c) for w, c in triggers)
        self.lowercase = lowercase
        self.label = label
        self.classes = tuple(sorted({c for _, c in self.triggers}))

    @property
    def key(self):
        return ("HeadNgramChannel", self.group)

    def token_values(self, corpus):
        """Per-token CSR ``(indptr, class ids)`` of the triggers ending there."""
        words, tok = lower_ids(corpus, self.lowercase)
        n_tok = corpus.n_tokens
        index = {w: i for i, w in enumerate(words)}
        cls_index = {c: i for i, c in enumerate(self.classes)}
        trig_rows, trig_cls = [], []
        for ws, c in self.triggers:
            row = [index.get(w, -1) for w in ws]
            if min(row) >= 0:
                trig_rows.append(row)
                trig_cls.append(cls_index[c])
        indptr = np.zeros(n_tok + 1, dtype=np.int64)
        if not trig_rows or n_tok == 0:
            return indptr, np.zeros(0, dtype=np.int64)
        mat, valid = ngram_ids(corpus, tok, self.n)
        both = np.concatenate([mat, np.asarray(trig_rows, dtype=np.int64)])
        keys = row_ids(both, len(words))
        tok_keys, trig_keys = keys[:n_tok], keys[n_tok:]
        trig_cls = np.asarray(trig_cls, dtype=np.int64)
        order = np.lexsort((trig_cls, trig_keys))
        trig_keys, trig_cls = trig_keys[order], trig_cls[order]
        left = np.searchsorted(trig_keys, tok_keys, side="left")
        right = np.searchsorted(trig_keys, tok_keys, side="right")
        counts = np.where(valid, right - left, 0)
        np.cumsum(counts, out=indptr[1:])
        total = int(indptr[-1])
        pos = np.repeat(left - indptr[:-1], counts) + np.arange(total, dtype=np.int64)
        return indptr, trig_cls[pos]


def _compress_table(indptr, cols):
    """Drop negative entries of a CSR table."""
    keep = cols >= 0
    if keep.all():
        return indptr, cols
    kept_before = np.r_[0, np.cumsum(keep)]  # kept entries before each entry
    return kept_before[indptr], cols[keep]


def _counts(index, token_weight, n):
    """How many tokens (or their ``token_weight``) have each value ``0..n-1`` of ``index``."""
    ok = index >= 0
    return np.bincount(index[ok], None if token_weight is None else token_weight[ok],
                       minlength=n)


def block_features(block, call, *, vocabulary=None, min_count=1, base=0, n_features=None,
                   token_weight=None):
    """Compute one block's features for the assembler.

    In ``"fit"`` mode the block's vocabulary is selected (the keys seen on
    at least ``min_count`` tokens: sorted for table blocks, in order of
    first occurrence for conjunction patterns), its first column set to
    ``base``, and returned as a new :class:`BlockVocabulary`; the block is
    not changed.  In ``"transform"`` mode the fitted ``vocabulary`` is read;
    in ``"hash"`` mode columns are ``hash % n_features``.  ``token_weight``
    (float array, one per token) weights each token's occurrences in the
    ``min_count`` cutoff (default: 1 each).

    Returns
    -------
    part : tuple
        ``("table", src, indptr, cols)`` or ``("direct", cols)`` with int32
        columns.
    vocabulary : BlockVocabulary or None
        The fitted vocabulary (``"fit"``), ``vocabulary`` (``"transform"``)
        or None (``"hash"``).
    """
    if call.mode == "hash":
        out = block.hashes(call)
        if out[0] == "table":
            _, src, indptr, h = out
            return ("table", src, indptr, (h % np.uint32(n_features)).astype(np.int32)), None
        _, h, valid = out
        cols = (h % np.uint32(n_features)).astype(np.int32)
        cols[~valid] = -1
        return ("direct", cols), None

    fit = call.mode == "fit"
    if not fit and vocabulary is None:
        raise ValueError(f"block {block.label!r}: transform needs the fitted vocabulary")
    out = block.keys(call, vocabulary)
    if out[0] == "table":
        _, src, indptr, keys, n_keys = out
        if fit:
            row_counts = _counts(src, token_weight, indptr.size - 1)
            weights = np.repeat(row_counts, np.diff(indptr)).astype(np.float64)
            counts = np.bincount(keys, weights=weights, minlength=n_keys)
            vocabulary = BlockVocabulary(np.flatnonzero(counts >= min_count), base)
        kept = vocabulary.kept
        lut = np.full(n_keys, -1, dtype=np.int32)
        lut[kept] = vocabulary.base + np.arange(kept.size, dtype=np.int32)
        indptr, cols = _compress_table(indptr, lut[keys])
        return ("table", src, indptr, cols), vocabulary

    if out[0] == "pattern":
        _, uniq, ids, stages, radices = out  # token i has key uniq[ids[i]]
        col_of = np.full(uniq.size + 1, -1, dtype=np.int32)  # last slot: no key
        if fit:
            # columns in order of first occurrence (no sort needed: one column
            # per token and block, so rows stay sorted)
            counts = _counts(ids, token_weight, uniq.size)
            selected = np.flatnonzero(counts >= min_count)
            vocabulary = BlockVocabulary(uniq[selected], base, stages, radices)
            col_of[selected] = base + np.arange(selected.size, dtype=np.int32)
        else:
            # where each fitted key of the block occurs among this call's keys
            pos = call.pattern_index(block).get(vocabulary.kept)
            hit = np.flatnonzero(pos >= 0)
            col_of[pos[hit]] = vocabulary.base + hit.astype(np.int32)
        return ("direct", col_of[ids]), vocabulary

    raise ValueError(f"unknown key form {out[0]!r} from block {block.label!r}")


#: The block classes a kind's ``build`` may return besides channels.
BLOCK_TYPES = (UnaryBlock, TokenBlock, ConjunctionBlock, CacheBlock)
