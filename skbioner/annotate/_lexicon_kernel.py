"""Compiled longest-match look-up of lexicon names over token sequences.

A name matches a run of tokens when the run's normalized tokens, joined
without separators, equal the name's normalized form (so ``NF-kappa B``,
``NF-kappaB`` and ``NF-κB`` are one name, and ``IL-2`` matches ``IL 2``).
Two rules keep common words out: a run neither starts nor ends on a
lower-case English stop word (``is a`` is not the gene ISA, ``vitamin A`` is
a chemical), and a name written without lower-case letters (a symbol:
``CELL``, ``MICE``) needs a capital letter somewhere in the run, so the word
``cells`` is not the gene ``CELL``.

Strings are compared by a 64-bit polynomial hash, which composes over
concatenation: ``H(a + b) = H(a) * P**len(b) + H(b)`` (mod 2**64), so a run's
hash grows token by token from per-type hashes computed once.  Every prefix
of every name is also entered in a bit set, so the scan from a token stops
as soon as no name can continue it.  ``tests/annotate/lexicon_oracle.py``
is the slow pure-Python oracle the tests compare :func:`match_tokens` with.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..features._hashing import splitmix64

__all__ = ["build_table", "hash_strings", "match_tokens", "name_key"]

#: the base of the polynomial hash (an odd 64-bit constant)
P = np.uint64(0x100000001B3)
#: the longest normalized name entered (characters), and the most tokens a match spans
MAX_CHARS = 128
MAX_TOKENS = 12
#: position codes of a match, per type column
CODES = ("O", "B", "I", "E", "S")


def name_key(normalized: str) -> str:
    """The form a normalized name is entered and looked up in: a final ``s`` dropped
    (plurals) when more than 3 characters remain before it."""
    return normalized[:-1] if len(normalized) > 3 and normalized.endswith("s") else normalized


def _codes(strings):
    """Code points of ``strings`` concatenated, and their offsets."""
    lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
    offsets = np.zeros(len(strings) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    text = "".join(strings)
    if text.isascii():  # the same code points in a quarter of the memory
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8), offsets
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32), offsets


@njit(cache=True, nogil=True)
def _hash_segments(codes, offsets, out):
    for i in range(offsets.shape[0] - 1):
        h = np.uint64(0)
        for k in range(offsets[i], offsets[i + 1]):
            h = h * P + np.uint64(codes[k])
        out[i] = h


def hash_strings(strings) -> np.ndarray:
    """The polynomial hashes of ``strings`` (uint64)."""
    codes, offsets = _codes(strings)
    out = np.empty(len(strings), dtype=np.uint64)
    _hash_segments(codes, offsets, out)
    return out


@njit(cache=True, nogil=True, inline="always")
def _stored(h):
    # mixed, so that the lowest bit (set: 0 marks an empty slot) and the slot bits depend
    # on the whole string, not on its last characters as the polynomial's low bits do
    return splitmix64(h) | np.uint64(1)


@njit(cache=True, nogil=True)
def _fill_table(hashes, masks, keys, values, prefix_codes, prefix_offsets, bits):
    tmask = np.uint64(keys.shape[0] - 1)
    for i in range(hashes.shape[0]):
        h = _stored(hashes[i])
        s = h & tmask
        while keys[s] != 0 and keys[s] != h:
            s = (s + np.uint64(1)) & tmask
        keys[s] = h
        values[s] |= masks[i]
    bmask = np.uint64(bits.shape[0] * 64 - 1)
    for i in range(prefix_offsets.shape[0] - 1):
        h = np.uint64(0)
        for k in range(prefix_offsets[i], prefix_offsets[i + 1]):
            h = h * P + np.uint64(prefix_codes[k])
            b = splitmix64(h ^ np.uint64(0x9E3779B97F4A7C15)) & bmask
            bits[b >> np.uint64(6)] |= np.uint64(1) << (b & np.uint64(63))


def build_table(keys, masks):
    """The hash table and prefix bit set of names.

    Parameters
    ----------
    keys : list of str
        Names in :func:`name_key` form (normalized), at most :data:`MAX_CHARS` long.
    masks : ndarray of uint64
        The types of each name, one bit per type (a name given twice gets both): the low 32
        bits the types whose name matches in any case, the high 32 bits those whose name
        (a symbol without lower-case letters) needs a capital letter in the run.

    Returns
    -------
    table_keys : ndarray of uint64
        Open-addressing slots (0: empty) of the names' mixed hashes (lowest bit set).
    table_values : ndarray of uint64
        The type bits of each slot.
    prefix_bits : ndarray of uint64
        A bit set of the hashes of every prefix of every name.
    """
    codes, offsets = _codes(keys)  # once: the names' hashes and their prefixes' read them
    hashes = np.empty(len(keys), dtype=np.uint64)
    _hash_segments(codes, offsets, hashes)
    size = 1 << max(4, int(2 * max(len(keys), 1) - 1).bit_length())
    table_keys = np.zeros(size, dtype=np.uint64)
    table_values = np.zeros(size, dtype=np.uint64)
    n_bits = 1 << max(12, int(8 * max(codes.size, 1) - 1).bit_length())
    bits = np.zeros(n_bits // 64, dtype=np.uint64)
    _fill_table(hashes, np.asarray(masks, dtype=np.uint64), table_keys, table_values, codes,
                offsets, bits)
    return table_keys, table_values, bits


@njit(cache=True, nogil=True, inline="always")
def _lookup(h, keys, values):
    h = _stored(h)
    tmask = np.uint64(keys.shape[0] - 1)
    s = h & tmask
    while keys[s] != 0:
        if keys[s] == h:
            return values[s]
        s = (s + np.uint64(1)) & tmask
    return np.uint64(0)


@njit(cache=True, nogil=True, inline="always")
def _is_prefix(h, bits):
    b = splitmix64(h ^ np.uint64(0x9E3779B97F4A7C15)) & np.uint64(bits.shape[0] * 64 - 1)
    return (bits[b >> np.uint64(6)] >> (b & np.uint64(63))) & np.uint64(1)


@njit(cache=True, nogil=True)
def _powers(n):
    out = np.ones(n, dtype=np.uint64)
    for k in range(1, n):
        out[k] = out[k - 1] * P
    return out


@njit(cache=True, nogil=True)
def _match(ids, full_hash, full_len, key_hash, key_len, flags, offsets, keys, values, bits,
           powers, n_types, out):
    low = np.uint64(0xFFFFFFFF)
    for s in range(offsets.shape[0] - 1):
        a, b = offsets[s], offsets[s + 1]
        ends = np.full((b - a, n_types), -1, dtype=np.int64)
        for i in range(a, b):
            if full_len[ids[i]] == 0 or flags[ids[i]] & 2:  # empty, or a stop word
                continue
            acc = np.uint64(0)
            n = 0
            upper = 0
            for j in range(i, min(b, i + MAX_TOKENS)):
                t = ids[j]
                ln = full_len[t]
                if ln == 0:
                    continue
                if n + ln > MAX_CHARS:
                    break
                upper |= flags[t] & 1
                if not flags[t] & 2:  # a run does not end on a stop word either
                    # the run i..j as a name: the last token in its key form (plural s dropped)
                    if n + ln > 3:
                        h = acc * powers[key_len[t]] + key_hash[t]
                    else:
                        h = acc * powers[ln] + full_hash[t]
                    v = _lookup(h, keys, values)
                    found = v & low
                    if upper:
                        found |= v >> np.uint64(32)
                    if found:
                        for k in range(n_types):
                            if (found >> np.uint64(k)) & np.uint64(1):
                                ends[i - a, k] = j
                acc = acc * powers[ln] + full_hash[t]
                n += ln
                if not _is_prefix(acc, bits):
                    break
        # leftmost-longest, per type
        for k in range(n_types):
            i = a
            while i < b:
                e = ends[i - a, k]
                if e < 0:
                    i += 1
                    continue
                if e == i:
                    out[i, k] = 4
                else:
                    out[i, k] = 1
                    for m in range(i + 1, e):
                        out[m, k] = 2
                    out[e, k] = 3
                i = e + 1


def match_tokens(ids, type_keys, flags, offsets, table, n_types):
    """Position codes (0=O, 1=B, 2=I, 3=E, 4=S) of every token, per type.

    Parameters
    ----------
    ids : ndarray of int64
        The word type of each token, all sentences concatenated.
    type_keys : list of str
        The normalized form of each word type (:func:`normalize_name`).
    flags : ndarray of uint8
        Per word type: bit 0, it has a capital letter; bit 1, it is a lower-case stop word.
    offsets : ndarray of int64
        Sentence boundaries in ``ids`` (``n_sentences + 1``).
    table : tuple
        What :func:`build_table` returns.
    n_types : int

    Returns
    -------
    ndarray of uint8, shape (n_tokens, n_types)
    """
    # a run longer than 3 characters is looked up without its final s (name_key): the
    # last token's form without it (the empty string for a token "s")
    keys = [k[:-1] if k.endswith("s") else k for k in type_keys]
    full_hash = hash_strings(type_keys)
    key_hash = hash_strings(keys)
    full_len = np.fromiter(map(len, type_keys), dtype=np.int64, count=len(type_keys))
    key_len = np.fromiter(map(len, keys), dtype=np.int64, count=len(keys))
    powers = _powers(MAX_CHARS + 1)
    full_len = np.minimum(full_len, MAX_CHARS + 1)  # longer tokens never fit in a name
    key_len = np.minimum(key_len, MAX_CHARS)
    out = np.zeros((len(ids), n_types), dtype=np.uint8)
    _match(np.asarray(ids, dtype=np.int64), full_hash, full_len, key_hash, key_len,
           np.asarray(flags, dtype=np.uint8), np.asarray(offsets, dtype=np.int64), *table,
           powers, n_types, out)
    return out
