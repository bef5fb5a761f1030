"""Atomic writes: several files together, signals held back between their renames (issue 11)."""

import os
import signal

import pytest

import skbioner.io._atomic as atomic
from skbioner.io._atomic import atomic_open, atomic_write_files, signals_deferred


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_signals_are_delivered_after_the_block():
    events = []
    with pytest.raises(KeyboardInterrupt):
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            events.append("still running")
    assert events == ["still running"]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_ctrl_c_between_two_renames_leaves_both_files(tmp_path, monkeypatch):
    # item 4: an interrupted brat run left <id>.txt without <id>.ann
    real = atomic._commit
    calls = []

    def commit_then_interrupt(tmp, path):
        real(tmp, path)
        calls.append(path)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # lands between the two renames

    monkeypatch.setattr(atomic, "_commit", commit_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_files({tmp_path / "d.txt": b"text", tmp_path / "d.ann": b"T1\tx 0 4\ttext\n"})
    assert sorted(os.listdir(tmp_path)) == ["d.ann", "d.txt"]


def test_a_failed_write_touches_no_target(tmp_path, monkeypatch):
    (tmp_path / "d.txt").write_bytes(b"old text")

    def fail(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", fail)
    with pytest.raises(OSError, match="No space left") as excinfo:
        atomic_write_files({tmp_path / "d.txt": b"new", tmp_path / "d.ann": b""})
    assert excinfo.value.filename == str(tmp_path / "d.txt")
    assert os.listdir(tmp_path) == ["d.txt"] and (tmp_path / "d.txt").read_bytes() == b"old text"


def test_long_names_get_a_legal_temporary_name(tmp_path):
    name = "x" * 250 + ".ann"  # 254 bytes: the temporary ".<name>.<hex>.tmp" would not fit
    with atomic_open(tmp_path / name, "wb") as f:
        f.write(b"ok")
    assert (tmp_path / name).read_bytes() == b"ok" and os.listdir(tmp_path) == [name]
