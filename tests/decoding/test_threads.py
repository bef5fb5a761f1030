import numpy as np
import pytest

from skbioner.decoding import viterbi_batch
from skbioner.decoding._threads import run_blocks, sentence_blocks


@pytest.mark.parametrize("lengths,n_blocks,min_tokens", [
    ([], 4, 1), ([5], 4, 1), ([3, 0, 4, 9, 1, 0, 2], 3, 1), ([1] * 100, 2, 10),
    ([50, 1, 1, 1], 2, 1), ([10] * 7, 8, 1), ([10] * 7, 2, 100),
])
def test_sentence_blocks_cover_every_sentence_once_in_order(lengths, n_blocks, min_tokens):
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    blocks = sentence_blocks(offsets, n_blocks, min_tokens)
    assert blocks[0][0] == 0 and blocks[-1][1] == len(lengths)
    assert all(a[1] == b[0] for a, b in zip(blocks, blocks[1:]))
    assert all(lo < hi for lo, hi in blocks) or blocks == [(0, 0)]
    assert len(blocks) <= max(n_blocks, 1)
    if sum(lengths) // min_tokens < 2:
        assert len(blocks) == 1


def test_sentence_blocks_balance_tokens():
    offsets = np.concatenate([[0], np.cumsum([10] * 100)]).astype(np.int64)
    assert sentence_blocks(offsets, 2, 1) == [(0, 50), (50, 100)]


@pytest.mark.parametrize("per_thread", [1, 4])
def test_run_blocks_gives_the_same_result_in_one_block_or_many(monkeypatch, per_thread):
    import skbioner.decoding._threads as threads

    rng = np.random.default_rng(0)
    lengths = rng.integers(0, 30, 400)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    scores = rng.normal(size=(offsets[-1], 5))
    trans, start, end = rng.normal(size=(5, 5)), rng.normal(size=5), rng.normal(size=5)
    monkeypatch.setattr(threads, "MIN_BLOCK_TOKENS", 1)
    monkeypatch.setattr(threads, "BLOCKS_PER_THREAD", per_thread)
    monkeypatch.setattr(threads, "n_threads", lambda: 1)
    one = viterbi_batch(scores, offsets, trans, start, end, return_scores=True)
    monkeypatch.setattr(threads, "n_threads", lambda: 7)
    assert len(sentence_blocks(offsets, 7, 1)) == 7
    many = viterbi_batch(scores, offsets, trans, start, end, return_scores=True)
    np.testing.assert_array_equal(one[0], many[0])
    np.testing.assert_array_equal(one[1], many[1])


def test_run_blocks_raises_a_block_error(monkeypatch):
    import skbioner.decoding._threads as threads

    def kernel(lo, hi, out):
        if lo > 0:
            raise ValueError("block failed")
        out[lo:hi] = 1

    monkeypatch.setattr(threads, "n_threads", lambda: 2)
    offsets = np.arange(0, 10001, 1000, dtype=np.int64)
    out = np.zeros(10)
    with pytest.raises(ValueError, match="block failed"):
        run_blocks(kernel, offsets, out)
    assert out[0] == 1  # the first block ran
