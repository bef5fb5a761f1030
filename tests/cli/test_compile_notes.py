"""First runs: a line per kernel that compiles, and the tagging kernels compiled beside."""

import io
import os
import subprocess
import sys
import types

import pytest

from skbioner.cli._main import _WARMING, CompileNotes


def _dispatcher(module, name):
    def f():
        pass

    f.__module__, f.__name__ = module, name
    return types.SimpleNamespace(py_func=f)


def test_notes_name_skbioner_kernels_and_space_out_nested_ones():
    out = io.StringIO()
    notes = CompileNotes(out, interval=3600)
    notes.start(_dispatcher("skbioner.models._passive_aggressive", "pa_epoch"))
    notes.start(_dispatcher("skbioner.models._passive_aggressive", "_decode"))  # nested, soon
    notes.end()
    notes.start(_dispatcher("numba.np.arrayobj", "impl"))  # numba's own: never
    notes.end()
    notes.end()
    notes.start(_dispatcher("skbioner.decoding._viterbi", "csr_scores"))  # top level again
    notes.end()
    assert out.getvalue().splitlines() == [
        "skbioner: compiling pa_epoch (models) ...",
        "skbioner: compiling csr_scores (decoding) ...",
    ]
    assert notes.count == 3


def test_notes_hear_numbas_compile_event():
    from numba import njit

    ns = {"__name__": "skbioner.fake_module_for_a_test"}
    exec("def kernel_for_a_test(x):\n    return x + 1\n", ns)
    out = io.StringIO()
    with CompileNotes(out) as notes:
        assert njit(ns["kernel_for_a_test"])(1) == 2
    assert out.getvalue() == "skbioner: compiling kernel_for_a_test (fake_module_for_a_test) ...\n"
    assert notes.count == 1
    njit(ns["kernel_for_a_test"])(2)  # outside the block: nothing more
    assert out.getvalue().count("\n") == 1


WARMED = {"_viterbi_dense_kernel", "_viterbi_rows", "_max_plus", "_segments_kernel",
          "_spans_kernel", "_span_prob", "_scaled_forward_backward", "_scan_kernel"}


@pytest.mark.slow  # compiles the tagging kernels from nothing, twice
def test_warmed_kernels_are_the_ones_tagging_loads(tmp_path):
    # the child's kernels must have the signatures the tagger calls them with: after it,
    # tagging raw text with the bundled model compiles none of them again
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    assert {"demo", "tag"} <= _WARMING
    subprocess.run([sys.executable, "-c", "from skbioner.cli._warmup import "
                    "compile_tagging_kernels as c; c()"], env=env, check=True, timeout=600)
    code = ("import io, skbioner\n"
            "from skbioner.cli._main import CompileNotes\n"
            "model = skbioner.load_model()\n"
            "out = io.StringIO()\n"
            "with CompileNotes(out, interval=0):\n"
            "    ents = skbioner.tag_text('IL-2 activates NF-kappa B in human T cells.', model)\n"
            "assert ents and all(e.confidence is not None for e in ents)\n"
            "print(' '.join(line.split()[2] for line in out.getvalue().splitlines()))\n")
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr
    compiled = set(res.stdout.split())
    assert compiled, "nothing compiled: the notes heard no compile event"
    assert not compiled & WARMED, compiled & WARMED
