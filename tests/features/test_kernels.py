"""Building blocks: int64 hash tables, CSR assembly, hash mixing."""

import numpy as np
import pytest
import scipy.sparse as sp

from skbioner.features._assemble import assemble
from skbioner.features._hashing import hash_strings, mix, mix_gather
from skbioner.features._intmap import factorize_int64, lookup_int64


def test_factorize_int64_matches_python(rng):
    keys = rng.integers(-3, 50, size=2000).astype(np.int64)
    keys[::7] = 2**62 + rng.integers(0, 5, size=keys[::7].size)
    uniq, counts, inv = factorize_int64(keys)
    seen = {}
    for k in keys.tolist():
        if k >= 0:
            seen.setdefault(k, 0)
            seen[k] += 1
    assert uniq.tolist() == list(seen)  # first-occurrence order
    assert counts.tolist() == list(seen.values())
    valid = keys >= 0
    assert np.array_equal(uniq[inv[valid]], keys[valid])
    assert np.all(inv[~valid] == -1)
    empty = factorize_int64(np.zeros(0, dtype=np.int64))
    assert all(a.size == 0 for a in empty)


def test_lookup_int64(rng):
    table = rng.choice(10**12, size=500, replace=False).astype(np.int64)
    queries = np.concatenate([table[::-3], [-1, 10**13, 7], rng.integers(0, 10**12, 50)])
    pos = lookup_int64(table, queries)
    index = {k: i for i, k in enumerate(table.tolist())}
    assert pos.tolist() == [index.get(q, -1) if q >= 0 else -1 for q in queries.tolist()]
    assert lookup_int64(np.zeros(0, np.int64), queries).tolist() == [-1] * queries.size


def _reference(n_rows, blocks, n_features):
    rows, cols = [], []
    for b in blocks:
        if b[0] == "table":
            _, src, indptr, c = b
            for i, s in enumerate(src.tolist()):
                if s >= 0:
                    for j in range(indptr[s], indptr[s + 1]):
                        rows.append(i)
                        cols.append(int(c[j]))
        else:
            for i, c in enumerate(b[1].tolist()):
                if c >= 0:
                    rows.append(i)
                    cols.append(c)
    m = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n_rows, n_features))
    m.sum_duplicates()
    m.data[:] = 1
    return m


@pytest.mark.parametrize("n_features", [13, 2**25])
def test_assemble_dedupes_collisions(rng, n_features):
    n = 40
    table_rows = 6
    indptr = np.array([0, 2, 2, 5, 6, 8, 9], dtype=np.int64)
    cols = rng.integers(0, n_features, size=9).astype(np.int32)
    blocks = [
        ("table", rng.integers(-1, table_rows, n).astype(np.int64), indptr, cols),
        ("direct", rng.integers(-1, n_features, n).astype(np.int32)),
        ("table", rng.integers(-1, table_rows, n).astype(np.int64), indptr, cols),
    ]
    m = assemble(n, blocks, n_features, dedupe=True)
    ref = _reference(n, blocks, n_features)
    assert (m != ref).nnz == 0 and m.nnz == ref.nnz
    assert m.data.max() == 1.0
    for i in range(n):
        row = m.indices[m.indptr[i] : m.indptr[i + 1]]
        assert np.unique(row).size == row.size


def test_assemble_without_dedupe_keeps_block_order():
    indptr = np.array([0, 1, 3], dtype=np.int64)
    blocks = [
        ("table", np.array([0, 1, -1], dtype=np.int64), indptr, np.array([0, 1, 2], np.int32)),
        ("direct", np.array([5, -1, 4], dtype=np.int32)),
    ]
    m = assemble(3, blocks, 6, dtype=np.float64)
    assert m.toarray().tolist() == [[1, 0, 0, 0, 0, 1], [0, 1, 1, 0, 0, 0], [0, 0, 0, 0, 1, 0]]
    assert m.dtype == np.float64 and m.has_canonical_format
    empty = assemble(0, [("direct", np.zeros(0, np.int32))], 6)
    assert empty.shape == (0, 6) and empty.nnz == 0


def _splitmix_reference(a, b):
    mask = 2**64 - 1
    x = ((a << 32) | b) & mask
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & mask
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & mask
    x ^= x >> 31
    return ((x >> 32) ^ (x & 0xFFFFFFFF)) & 0xFFFFFFFF


def test_mix_matches_reference(rng):
    a = rng.integers(0, 2**32, 100, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, 100, dtype=np.uint64).astype(np.uint32)
    assert mix(int(a[0]), b).tolist() == [_splitmix_reference(int(a[0]), int(y)) for y in b]
    h = a.copy()
    valid = np.ones(100, dtype=bool)
    ids = rng.integers(-1, 100, 100)
    mix_gather(h, ids, b, valid)
    for i, k in enumerate(ids.tolist()):
        if k < 0:
            assert not valid[i] and h[i] == a[i]
        else:
            assert valid[i] and h[i] == _splitmix_reference(int(a[i]), int(b[k]))


def test_hash_strings():
    from sklearn.utils import murmurhash3_32

    words = ["the", "IL-2", "κB", ""]
    assert hash_strings(words).tolist() == [murmurhash3_32(w, 0, True) for w in words]
    assert hash_strings([]).dtype == np.uint32
