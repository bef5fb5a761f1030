"""Fault injection: `skbioner tag` interrupted at random points loses nothing (issue 11, item 4).

A few hundred documents (the JNLPBA test abstracts when present, else text
made from the bundled sample) are tagged into a brat directory; the run is
stopped with SIGINT or SIGTERM once a random number of files exists, for
several seeds (SKBIONER_SEED shifts them).  Afterwards the directory must
hold only complete ``.txt`` + ``.ann`` pairs -- no temporary file, no
``.txt`` without its ``.ann`` -- that read back with ``read_brat_dir``, each
identical to what an uninterrupted run writes; the exit status is 130 or 143
and stderr holds no traceback or warning.  A parallel run (--n-jobs 2) is
stopped like Ctrl-C in a terminal: SIGINT to the whole process group.
"""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from skbioner.io import read_brat_dir
from skbioner.tagging import iter_documents, open_writer, tag_documents
from tests.conftest import DATA_DIR

pytestmark = [pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals"),
              pytest.mark.slow]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A directory of a few hundred plain-text documents."""
    standoff = DATA_DIR / "jnlpba" / "test-standoff"
    if standoff.is_dir() and any(standoff.glob("*.txt")):
        return standoff
    from skbioner.datasets import load_jnlpba_sample

    out = tmp_path_factory.mktemp("generated")
    rng = np.random.default_rng(0)
    for part in ("train", "test"):
        c = load_jnlpba_sample(part)
        for doc_id, idx in c.documents():
            sentences = [" ".join(c.X[i]) for i in idx]
            breaks = rng.random(len(sentences)) < 0.3  # some sentences on lines of their own
            text = "".join(s + ("\n" if b else " ") for s, b in zip(sentences, breaks))
            (out / f"{part}-{doc_id}.txt").write_text(text.strip() + "\n")
    return out


@pytest.fixture(scope="module")
def reference(sample_model, corpus, tmp_path_factory):
    """What an uninterrupted run writes: ``{file name: bytes}``."""
    out = tmp_path_factory.mktemp("reference")
    with open_writer("brat", out) as writer:
        for res in tag_documents(sample_model, iter_documents(corpus)):
            writer.write(res)
    return {p.name: p.read_bytes() for p in out.iterdir()}


def _interrupt(model, corpus, out, rng, sig, n_files, extra=(), group=False):
    """Start `skbioner tag`, send ``sig`` once a random number of files exists."""
    cmd = [sys.executable, "-m", "skbioner", "tag", str(model), str(corpus), "-o", str(out),
           "--output-format", "brat", "--progress", "never", "--batch-size", "8", *extra]
    target = int(rng.integers(0, n_files * 0.8))
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=group)
    deadline = time.monotonic() + 120
    while p.poll() is None and time.monotonic() < deadline:
        if out.is_dir() and len(os.listdir(out)) >= target:
            break
        time.sleep(0.005)
    time.sleep(rng.uniform(0, 0.05))
    if p.poll() is None:
        if group:
            os.killpg(p.pid, sig)
        else:
            p.send_signal(sig)
    _, err = p.communicate(timeout=120)
    return p.returncode, err


def _check_directory(out, corpus, reference):
    names = sorted(os.listdir(out)) if out.exists() else []
    assert all(n.endswith((".txt", ".ann")) and not n.startswith(".") for n in names), names
    stems = {n[:-4] for n in names}
    assert names == sorted(f"{s}{ext}" for s in stems for ext in (".ann", ".txt")), names
    if stems:
        docs = read_brat_dir(out)
        assert {d.id for d in docs} == stems
    for name in names:  # whole, and as an uninterrupted run writes them
        assert (out / name).read_bytes() == reference[name], name
        if name.endswith(".txt"):
            assert (out / name).read_bytes() == (corpus / name).read_bytes()
    return len(stems)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_interrupted_tag_runs_leave_only_complete_pairs(sample_model, corpus, reference,
                                                        tmp_path, seed):
    rng = np.random.default_rng(seed + int(os.environ.get("SKBIONER_SEED", "0")))
    n_files = len(reference)
    stopped = 0
    for k, sig in enumerate((signal.SIGINT, signal.SIGTERM)):
        out = tmp_path / f"out{k}"
        status, err = _interrupt(sample_model, corpus, out, rng, sig, n_files)
        n_done = _check_directory(out, corpus, reference)
        assert "Traceback" not in err and "Warning" not in err, err
        if status == 0:  # it finished first: everything is there
            assert n_done * 2 == n_files
            continue
        stopped += 1
        assert status == (130 if sig == signal.SIGINT else 143), err
        if sig == signal.SIGINT:
            assert err.splitlines()[-1] == "skbioner: interrupted"
    assert stopped, "no run was interrupted"


def test_ctrl_c_stops_a_parallel_run_cleanly(sample_model, corpus, reference, tmp_path):
    # item 14: joblib/loky printed warnings and worker tracebacks after Ctrl-C with --n-jobs
    rng = np.random.default_rng(int(os.environ.get("SKBIONER_SEED", "0")))
    out = tmp_path / "out"
    status, err = _interrupt(sample_model, corpus, out, rng, signal.SIGINT, len(reference),
                             extra=("--n-jobs", "2", "--parallel-from", "0"), group=True)
    _check_directory(out, corpus, reference)
    assert status in (0, 130)
    assert "Traceback" not in err and "Warning" not in err and "LokyProcess" not in err, err
