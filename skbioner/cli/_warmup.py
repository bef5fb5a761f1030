"""The tagging kernels compiled in a second process while a first run does its own work.

On a first run after installing, numba compiles every kernel a command uses,
one after the other in one process (numba compiles under a global lock).  The
kernels that tag raw text with confidences -- the Viterbi over dense scores,
entity segments and their probabilities, token marginals, the character
scan -- do not depend on the model, so ``skbioner demo`` and ``skbioner tag``
call :func:`start` on a first run: a child process compiles them into
numba's cache on the other core while the command reads data, loads a
model, and compiles its own kernels; the command finds them in the cache
when it gets to them (or, if the child is not done yet, compiles them as
well: the same cache entries).  Its cost is CPU time on another core, none
on the command's path; a machine with one core does not start it.  For the
demo, which trains its model, the kernels that read float64 weights too.

Only kernels with a single signature in every use are compiled here, with
the argument types the library passes them (through the public functions):
two processes that compile the same kernel with the same signature write
the same cache entry, whereas two different signatures of one kernel saved
at the same moment could overwrite each other's (numba numbers a kernel's
entries per process).  So by default nothing here touches the feature
weights, whose dtype differs between a trained model (float64) and the
shipped ones (float32).
"""

from __future__ import annotations

import os
import subprocess
import sys

__all__ = ["compile_tagging_kernels", "start"]

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_RUNNING = []  # the child, kept so that it is not reported as an abandoned process


def compile_tagging_kernels(float64_weights=False):
    """Call each tagging kernel once on a tiny input (compiling it, or loading it).

    Parameters
    ----------
    float64_weights : bool, default=False
        Also the kernels that read a freshly trained model's (float64) weights:
        for a process that never reads float32 ones (the demo).
    """
    import numpy as np

    from ..decoding import chain_marginals, segment_probabilities, viterbi_batch
    from ..decoding._marginals import SegmentTable
    from ..text._scan import scan

    labels = ["B-DNA", "I-DNA", "E-DNA", "S-DNA", "O"]
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(7, len(labels)))
    offsets = np.array([0, 4, 7])
    trans = rng.normal(size=(len(labels), len(labels)))
    start, end = rng.normal(size=len(labels)), rng.normal(size=len(labels))
    paths = viterbi_batch(scores, offsets, trans, start, end)
    table = SegmentTable(labels)
    segments = table.segments(paths, offsets)
    segment_probabilities(scores, offsets, trans, start, end, segments, table)
    chain_marginals(scores, offsets, trans, start, end)
    if float64_weights:
        import scipy.sparse as sp

        from ..decoding import viterbi_csr
        from ..decoding._marginals import emission_scores

        matrix = sp.csr_matrix(np.ones((7, 3), dtype=np.float32))
        matrix.indices = matrix.indices.astype(np.int32)
        matrix.indptr = matrix.indptr.astype(np.int32)
        coef = np.zeros((3, len(labels)))
        emission_scores(matrix, coef)
        viterbi_csr(matrix, offsets, coef, trans, start, end)
    # last: a first ``tag`` compiles it itself soon after loading its model
    scan("IL-2 (a cytokine) binds ... its receptor.\n")


def start(float64_weights=False):
    """Start the child process that compiles the tagging kernels; None if not started.

    Not started with one core, or when ``SKBIONER_NO_WARMUP`` is set.
    ``float64_weights``: see :func:`compile_tagging_kernels`.
    """
    from joblib import cpu_count  # the cores this process may use

    if cpu_count() < 2 or os.environ.get("SKBIONER_NO_WARMUP"):
        return None
    try:
        # this copy of the package, whatever the working directory holds
        code = (f"import sys; sys.path.insert(0, {_ROOT!r}); "
                "from skbioner.cli._warmup import compile_tagging_kernels as c; "
                f"c({bool(float64_weights)})")
        proc = subprocess.Popen([sys.executable, "-c", code],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except OSError:
        return None
    _RUNNING.append(proc)
    return proc

