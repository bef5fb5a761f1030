"""Atomic file output: write a temporary file beside the target, then rename it."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat

__all__ = ["atomic_open", "atomic_write_bytes"]


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
    directory, base = os.path.split(os.path.abspath(path))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = os.path.join(directory, f".{base}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue
        except OSError as exc:  # name the file asked for, not the temporary one
            raise type(exc)(exc.errno, exc.strerror, path) from None
        break
    else:  # pragma: no cover - 100 collisions of 48 random bits
        raise FileExistsError(f"could not create a temporary file in {directory}")
    try:
        if mode == "w":
            f = os.fdopen(fd, "w", encoding=encoding or "utf-8", newline=newline)
        else:
            f = os.fdopen(fd, "wb")
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_open`)."""
    with atomic_open(path, "wb") as f:
        f.write(data)
