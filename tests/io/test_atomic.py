"""Atomic writes: several files together, signals held back between their renames (issue 11)."""

import os
import signal

import pytest

import skbioner.io._atomic as atomic
from skbioner.io._atomic import atomic_open, atomic_write_files, signals_deferred


@pytest.fixture
def sigint_raises():
    """SIGINT raises KeyboardInterrupt during the test, as in an interactive run, even when
    the test process inherited it ignored (started in the background: nohup, ``cmd &``)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_signals_are_delivered_after_the_block(sigint_raises):
    events = []
    with pytest.raises(KeyboardInterrupt):
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            events.append("still running")
    assert events == ["still running"]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_ctrl_c_between_two_renames_leaves_both_files(tmp_path, monkeypatch, sigint_raises):
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


# -- issue 22, item 2: outputs never replace special files ----------------------------------


def test_a_character_device_is_written_in_place_never_replaced():
    import stat

    before = os.stat("/dev/null")
    atomic.atomic_write_bytes("/dev/null", b"discarded")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_is_written_in_place_and_its_reader_gets_everything(tmp_path):
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    with atomic_open(fifo, "w") as f:
        f.write("line 1\nline 2\n")
    reader.join(30)
    assert got == [b"line 1\nline 2\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe"]


def test_a_symlink_stays_a_link_and_its_file_is_replaced(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    atomic.atomic_write_utf8(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new" and os.listdir(tmp_path / "real") == ["out.txt"]
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "real" / "new.txt")
    atomic.atomic_write_utf8(dangling, "created where the link points")
    assert dangling.is_symlink() and (tmp_path / "real" / "new.txt").read_text().startswith("c")


def test_dash_is_standard_output(capsysbinary):
    atomic.atomic_write_bytes("-", b"to stdout\n")
    with atomic_open("-", "w") as f:
        f.write("text too\n")
    assert capsysbinary.readouterr().out == b"to stdout\ntext too\n"


def test_directories_and_other_kinds_are_refused_before_writing(tmp_path):
    with pytest.raises(IsADirectoryError):
        atomic.atomic_write_bytes(tmp_path, b"x")
    if os.path.exists("/dev/loop0"):  # a block device
        with pytest.raises(ValueError, match="a block device"):
            atomic.output_target("/dev/loop0")
    with pytest.raises(ValueError, match=r"not a regular file \(a character device\)"):
        atomic.output_target("/dev/null", streams=False)
    assert os.listdir(tmp_path) == []


def test_several_files_are_all_checked_before_any_is_written(tmp_path):
    # item 10: a directory where the .ann should go left the .txt renamed into place
    (tmp_path / "d.ann").mkdir()
    with pytest.raises(IsADirectoryError):
        atomic_write_files({tmp_path / "d.txt": b"text", tmp_path / "d.ann": b"T1\tx 0 4\ttext\n"})
    assert sorted(os.listdir(tmp_path)) == ["d.ann"]


def test_check_writable_finds_what_the_write_would_meet(tmp_path):
    atomic.check_writable(tmp_path / "new.txt")
    assert os.listdir(tmp_path) == []  # the probe is removed
    with pytest.raises(FileNotFoundError) as excinfo:
        atomic.check_writable(tmp_path / "missing" / "m.skops")
    assert excinfo.value.filename == str(tmp_path / "missing" / "m.skops")
    (tmp_path / "file").write_text("")
    with pytest.raises(NotADirectoryError):  # a path through a file (read-only alike)
        atomic.check_writable(tmp_path / "file" / "m.skops")
    atomic.check_writable("-")
    atomic.check_writable("/dev/null")
