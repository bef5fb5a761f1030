"""Atomic file output: write a temporary file beside the target, then rename it.

Only a regular file (or a new path) is replaced by renaming.  A symbolic
link is followed: the file it points to is replaced, the link stays.  A FIFO
or a character device (``/dev/null``, a terminal, ``/dev/stdout``) is
written in place, never renamed over; any other kind of path (a directory, a
block device, a socket) is refused before anything is written.  ``"-"`` is
standard output.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import stat
import sys
import threading

from ._decode import file_kind

__all__ = ["STDOUT", "atomic_open", "atomic_write_bytes", "atomic_write_files",
           "atomic_write_utf8", "check_writable", "output_target", "same_path", "signals_deferred",
           "utf8"]

#: The output name that means standard output.
STDOUT = "-"

# room for the dot, a random part and ".tmp" in a file name of at most 255 bytes
_MAX_TMP_BASE = 200


def _create_temp(path, name=None):
    """``(fd, tmp)``: a new ``.<name>.<hex>.tmp`` file beside ``path``, opened for writing.

    The name part is shortened when needed, so a long target name still gets
    a legal temporary name.  Errors name ``name`` (default ``path``), not
    the temporary file.
    """
    name = path if name is None else name
    directory, base = os.path.split(os.path.abspath(path))
    encoded = base.encode("utf-8", "surrogateescape")
    if len(encoded) > _MAX_TMP_BASE:
        base = encoded[:_MAX_TMP_BASE].decode("utf-8", "ignore")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = os.path.join(directory, f".{base}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as exc:  # name the file asked for, not the temporary one
            raise type(exc)(exc.errno, exc.strerror, name) from None
    raise FileExistsError(f"could not create a temporary file in {directory}")  # pragma: no cover


def output_target(path, streams=True):
    """``(how, where)``: how an output path is written, checked before anything is.

    ``how`` is ``"stdout"`` for ``"-"``; ``"replace"`` for a new path or a
    regular file (``where`` is the path with symbolic links resolved: the
    temporary file goes beside it and is renamed onto it, the link stays);
    ``"in place"`` for a FIFO or a character device (written without
    renaming; ``streams=False`` refuses them).

    Raises
    ------
    IsADirectoryError
        For a directory.
    ValueError
        For a block device, a socket (or, with ``streams=False``, a FIFO or
        character device): the message names the path; nothing was written.
    """
    path = os.fspath(path)
    if path == STDOUT:
        return "stdout", path
    try:
        mode = os.stat(path).st_mode  # follows symbolic links
    except FileNotFoundError:
        if path.endswith(("/", os.sep)):  # `-o newdir/`: a directory meant, not a file
            raise IsADirectoryError(errno.ENOENT, "No such directory (the name ends in '/': "
                                    "give a file name)", path) from None
        return "replace", os.path.realpath(path)  # a new file (where a dangling link points)
    except OSError:
        return "replace", path  # not a directory, no permission...: the write will say
    if stat.S_ISREG(mode):
        real = os.path.realpath(path)
        if real.startswith("/proc/"):  # /dev/stdout redirected to a file: the shell's file
            return ("in place", path) if streams else ("replace", path)
        return "replace", real
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
    if streams and (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        return "in place", path
    raise ValueError(f"{path}: not a regular file ({file_kind(mode)}); nothing was written "
                     "there: choose another output path")


def check_writable(path) -> None:
    """Raise the OSError (naming ``path``) that writing ``path`` would meet, before the work.

    A missing directory, a read-only file system, no permission: found by
    creating (and removing) the temporary file the write would use; also
    the refusals of :func:`output_target`.  Standard output and streams are
    not probed.
    """
    how, where = output_target(path)
    if how != "replace":
        return
    fd, tmp = _create_temp(where, name=os.fspath(path))
    os.close(fd)
    os.unlink(tmp)


def same_path(a, b) -> bool:
    """Whether ``a`` and ``b`` name the same file or directory.

    Both existing: :func:`os.path.samefile` (hard links, symbolic links,
    ``..`` and bind mounts are seen through); otherwise the resolved paths
    are compared.
    """
    try:
        return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def _raise_naming(exc, path):
    """Re-raise an OSError without a file name (a failed write: disk full, file too
    large) as one naming ``path``; return for anything else."""
    if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
        raise type(exc)(exc.errno, exc.strerror, path) from None


def _commit(tmp, path):
    """Give ``tmp`` the permissions of the file it replaces, and rename it to ``path``."""
    with contextlib.suppress(FileNotFoundError):
        os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
    os.replace(tmp, path)


@contextlib.contextmanager
def signals_deferred():
    """Hold SIGINT and SIGTERM back for the block; they take effect after it.

    Used around steps that must happen together, such as renaming a brat
    document's ``.txt`` and ``.ann`` into place: Ctrl-C cannot fall between
    them.  While the block runs, the two signals are only recorded (Python
    runs signal handlers in the main thread whichever thread the signal
    reached); afterwards the previous handlers are restored and called for
    what arrived, so ``KeyboardInterrupt`` or a SIGTERM handler's exit
    happens then.  Outside the main thread, where handlers cannot be
    changed, the block runs as is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending = []
    previous = {}
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, lambda n, _: pending.append(n))
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(pending):
            handler = previous[signum]
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)


@contextlib.contextmanager
def atomic_open(path, mode="wb", encoding=None, newline=None):
    """Open a temporary file that replaces ``path`` when the block ends normally.

    The temporary file is created in the destination directory (so the
    final :func:`os.replace` is atomic) with the usual permissions
    (``0o666`` minus the umask, or those of the file being replaced).  If
    the block raises (an error, ``KeyboardInterrupt``, ``SystemExit``), it
    is removed and ``path`` is left as it was: a reader never sees a
    half-written file.  (A process killed outright can leave the temporary
    ``.<name>.<hex>.tmp`` file behind, never a partial ``path``.)

    ``path`` is checked first (:func:`output_target`): a regular file or a
    new path is replaced as above (through a symbolic link: the file it
    points to); a FIFO or character device is written in place, without
    renaming; ``"-"`` writes to standard output; anything else is refused
    before anything is written.

    Parameters
    ----------
    path : str or path-like
    mode : {"wb", "w"}, default="wb"
    encoding, newline : str, optional
        For text mode.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_open(p, "w", encoding="utf-8") as fh:
    ...     _ = fh.write("done\\n")
    >>> p.read_text()
    'done\\n'
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode must be 'wb' or 'w', got {mode!r}")
    path = os.fspath(path)
    how, where = output_target(path)
    if how != "replace":
        with _stream(how, path, mode, encoding, newline) as f:
            yield f
        return
    tmp = None
    try:
        with signals_deferred():  # an interruption cannot fall between creating and knowing it
            fd, tmp = _create_temp(where, name=path)
        if mode == "w":
            f = os.fdopen(fd, "w", encoding=encoding or "utf-8", newline=newline)
        else:
            f = os.fdopen(fd, "wb")
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        _commit(tmp, where)
    except BaseException as exc:
        if tmp is not None:
            with signals_deferred(), contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        _raise_naming(exc, path)
        raise


@contextlib.contextmanager
def _stream(how, path, mode, encoding, newline):
    """Standard output, or a FIFO / character device opened in place (not atomic)."""
    import io

    if how == "stdout":
        sys.stdout.flush()
        buffer = sys.stdout.buffer
        if mode == "wb":
            yield buffer
            buffer.flush()
            return
        f = io.TextIOWrapper(buffer, encoding=encoding or "utf-8", newline=newline)
        try:
            yield f
            f.flush()
        finally:
            f.detach()  # standard output stays open
        return
    try:
        with open(path, mode, encoding=None if mode == "wb" else encoding or "utf-8",
                  newline=None if mode == "wb" else newline) as f:
            yield f
    except OSError as exc:
        _raise_naming(exc, path)
        raise


def atomic_write_bytes(path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_open`)."""
    with atomic_open(path, "wb") as f:
        f.write(data)


def atomic_write_utf8(path, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8, atomically (see :func:`utf8`)."""
    atomic_write_bytes(path, utf8(text))


def utf8(text: str, what: str = "the text") -> bytes:
    """``text`` in UTF-8; a ValueError naming ``what`` for text that is not valid Unicode (a
    lone surrogate from a JSON escape), before anything is written."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} holds {text[exc.start:exc.end]!r} at character {exc.start}, "
                         "which is not valid Unicode and cannot be written as UTF-8") from None


def atomic_write_files(contents) -> None:
    """Write several files so that a reader sees all of them new, or none.

    Each file is first written in full to a temporary file beside it, then
    all are renamed into place; SIGINT and SIGTERM are held back meanwhile
    (see :func:`signals_deferred`: meant for small files, such as a brat
    document's), so an interruption never leaves one of them new and another
    missing -- a ``.txt`` without its ``.ann`` -- nor a temporary file.  On
    an error every temporary file is removed and no target is touched.
    (Only a process killed outright can leave a mixture.)

    Parameters
    ----------
    contents : dict of path -> bytes
        The files to write, renamed in this order.  Each must be a new path
        or a regular file (:func:`output_target`): a directory, FIFO or
        device among them raises before any file is written.
    """
    # every target checked before anything is written: a directory where the .ann should
    # go must not leave the .txt renamed into place
    targets = [(os.fspath(p), output_target(p, streams=False)[1], data)
               for p, data in contents.items()]
    staged = []  # (tmp, path) not renamed yet
    with signals_deferred():
        try:
            for path, where, data in targets:
                fd, tmp = _create_temp(where, name=path)
                staged.append((tmp, where))
                try:
                    with os.fdopen(fd, "wb") as f:
                        f.write(data)
                        f.flush()
                        os.fsync(f.fileno())
                except OSError as exc:
                    _raise_naming(exc, path)
                    raise
            while staged:
                _commit(*staged[0])
                staged.pop(0)
        finally:
            for tmp, _ in staged:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
