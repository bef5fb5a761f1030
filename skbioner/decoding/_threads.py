"""Sentences decoded in parallel: a serial compiled kernel per block, one thread per block.

The decoding kernels work sentence by sentence, each sentence on its own.
They are compiled as plain serial loops over a range of sentences
(``kernel(lo, hi, *args)``, ``nogil=True``) and run here on contiguous
blocks of sentences with about as many tokens each, a few blocks per thread
taken in turn by the threads (the kernels release the GIL; a thread that a
busy core slows takes fewer blocks).  numba's ``parallel=True`` would do
the same with ``prange``, but its compilation takes three times as long
(several seconds per kernel on a first run after installing) for no gain:
the results do not depend on the blocks, since every sentence is computed
alone.

The number of threads is numba's (``NUMBA_NUM_THREADS``, or what
``numba.set_num_threads`` set, as the tagger's worker processes do).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = ["BLOCKS_PER_THREAD", "MIN_BLOCK_TOKENS", "n_threads", "run_blocks",
           "sentence_blocks"]

#: Fewer tokens than this per block are not worth a thread.
MIN_BLOCK_TOKENS = 2000


def n_threads():
    """numba's thread count, without starting its thread pool when nothing has yet."""
    import numba
    from numba.np.ufunc import parallel

    if getattr(parallel, "_is_initialized", True):  # set_num_threads may have been called
        return numba.get_num_threads()
    return numba.config.NUMBA_NUM_THREADS


def sentence_blocks(offsets, n_blocks, min_tokens=2000):
    """At most ``n_blocks`` contiguous ``(lo, hi)`` sentence ranges of about equal tokens.

    Parameters
    ----------
    offsets : ndarray of int, shape (n_sentences + 1,)
        Sentence ``i`` occupies token rows ``offsets[i]:offsets[i + 1]``.
    n_blocks : int
        The most blocks to make.
    min_tokens : int, default=2000
        Blocks are made only as long as each gets about this many tokens.

    Returns
    -------
    list of (int, int)
        Covering ``0 .. n_sentences`` in order, none empty (one ``(0, 0)``
        block when there are no sentences).
    """
    n_sent = int(offsets.shape[0]) - 1
    total = int(offsets[-1])
    k = max(1, min(int(n_blocks), n_sent, total // max(int(min_tokens), 1)))
    if k == 1:
        return [(0, n_sent)]
    targets = total * np.arange(1, k) / k
    cuts = np.searchsorted(offsets, targets, side="left")
    bounds = sorted({0, n_sent, *(int(c) for c in cuts if 0 < c < n_sent)})
    return list(zip(bounds[:-1], bounds[1:]))


#: Blocks per thread: threads that finish early take the blocks left (a busy core
#: delays one block, not half of the work).
BLOCKS_PER_THREAD = 4


def run_blocks(kernel, offsets, *args):
    """``kernel(lo, hi, *args)`` over :func:`sentence_blocks` of ``offsets``, in threads.

    ``BLOCKS_PER_THREAD`` blocks per thread, taken in turn by the calling thread and
    ``n_threads() - 1`` others; an exception in any block is raised here after every
    block has finished.
    """
    threads = n_threads()
    blocks = sentence_blocks(offsets, threads * BLOCKS_PER_THREAD, MIN_BLOCK_TOKENS)
    if threads == 1 or len(blocks) == 1:
        for lo, hi in blocks:
            kernel(lo, hi, *args)
        return
    queue = iter(blocks)
    lock = threading.Lock()

    def work():
        while True:
            with lock:
                block = next(queue, None)
            if block is None:
                return
            kernel(*block, *args)

    with ThreadPoolExecutor(max_workers=min(threads, len(blocks)) - 1,
                            thread_name_prefix="skbioner-decode") as pool:
        futures = [pool.submit(work) for _ in range(min(threads, len(blocks)) - 1)]
        try:
            work()
        finally:
            for f in futures:
                f.result()
