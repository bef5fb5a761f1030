"""Where numba caches skbioner's compiled kernels: a writable place, or nowhere.

The kernels are compiled with ``@njit(cache=True)``.  numba caches them in
the package's ``__pycache__`` directories or, failing that, in the user's
cache directory (``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``); when
neither can be written (a read-only install run by a user whose home is not
writable), decorating the first kernel raises and the package cannot even be
imported.  This module runs before numba is imported (it is the first import
of ``skbioner/__init__.py``): in that case it points ``NUMBA_CACHE_DIR`` at
a private directory under the temporary directory -- one per user, reused by
every run, so kernels compile once -- or, if none can be created, turns
numba's caching off; either way with a one-line note on stderr.  Child
processes (joblib workers) inherit the setting silently.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import stat
import sys
import tempfile

__all__ = ["configure_numba_cache", "tolerate_cache_write_errors"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _writable_dir(path) -> bool:
    """Whether the directory ``path`` exists and is writable, or could be created."""
    probe = os.path.abspath(path)
    while not os.path.lexists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            return False
        probe = parent
    return os.path.isdir(probe) and os.access(probe, os.W_OK | os.X_OK)


def _package_cache_dirs(package_dir):
    """The ``__pycache__`` directories numba's in-tree cache would write to."""
    out = []
    for dirpath, dirnames, filenames in os.walk(package_dir):
        dirnames[:] = [d for d in dirnames if d != "__pycache__" and not d.startswith(".")]
        if any(f.endswith(".py") for f in filenames):
            out.append(os.path.join(dirpath, "__pycache__"))
    return out


def _user_cache_dir(environ):
    """numba's user-wide cache directory (as ``numba.misc.appdirs`` computes it)."""
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Caches"), "numba")
    if os.name == "nt":
        base = environ.get("LOCALAPPDATA") or os.path.expanduser("~")
        return os.path.join(base, "numba", "numba", "Cache")
    return os.path.join(environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "numba")


def _ours(path, uid) -> bool:
    """Whether ``path`` is a real directory of this user that nobody else can write into.

    A directory of ours that others may write into is made private first
    (``0o700``): numba's cache files are pickles, which must come from us.
    """
    try:
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid:
            return False
        if st.st_mode & 0o022:
            os.chmod(path, 0o700)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def _private_temp_dir():
    """``(path, kept)``: a directory only this user can write, under the temporary directory.

    The same ``skbioner-numba-cache-<uid>`` directory every run (so compiled
    kernels are reused, not rebuilt: ~15 s), made if missing; should it be
    unusable (another user's, a link), a fresh directory removed when the
    process exits (``kept`` False).  ``(None, False)`` if none can be made.
    """
    uid = os.getuid() if hasattr(os, "getuid") else None
    try:
        base = tempfile.gettempdir()
    except OSError:  # no usable temporary directory at all
        return None, False
    if uid is not None:
        path = os.path.join(base, f"skbioner-numba-cache-{uid}")
        with contextlib.suppress(FileExistsError, OSError):
            os.mkdir(path, 0o700)
        if _ours(path, uid):
            return path, True
    try:
        path = tempfile.mkdtemp(prefix="skbioner-numba-cache-")
    except OSError:
        return None, False
    atexit.register(shutil.rmtree, path, ignore_errors=True)  # no litter
    return path, False


def configure_numba_cache(environ=None, package_dir=_PACKAGE_DIR, stderr=None):
    """Make sure numba has a writable cache location; return what was done.

    Parameters
    ----------
    environ : mapping, default=os.environ
        The environment to read and update (``NUMBA_CACHE_DIR``).
    package_dir : str
        The directory of the package whose kernels are cached.
    stderr : file, default=sys.stderr
        Where the one-line note goes.

    Returns
    -------
    str
        ``"ok"`` (nothing to do), ``"tempdir"`` (``NUMBA_CACHE_DIR`` now
        points to a private temporary directory) or ``"disabled"``.
    """
    environ = os.environ if environ is None else environ
    stderr = sys.stderr if stderr is None else stderr
    given = environ.get("NUMBA_CACHE_DIR")
    if given:
        if _writable_dir(given):
            return "ok"
        reason = f"NUMBA_CACHE_DIR={given} is not writable"
    else:
        if all(_writable_dir(d) for d in _package_cache_dirs(package_dir)):
            return "ok"
        user_dir = _user_cache_dir(environ)
        if _writable_dir(user_dir):
            return "ok"
        reason = f"neither {package_dir} nor {user_dir} is writable"
    path, kept = _private_temp_dir()
    if path is not None:
        environ["NUMBA_CACHE_DIR"] = path
        if "numba" in sys.modules:  # numba read its configuration already
            sys.modules["numba"].config.CACHE_DIR = path
        how = "instead" if kept else ("for this run (removed at exit: kernels compile on every "
                                      "run)")
        print(f"skbioner: note: numba cannot cache compiled code ({reason}); caching in "
              f"{path} {how}", file=stderr)
        return "tempdir"
    from numba.core.dispatcher import Dispatcher

    Dispatcher.enable_caching = lambda self: None  # no writable place at all: compile each run
    print(f"skbioner: note: numba cannot cache compiled code ({reason}, nor a temporary "
          "directory); caching is off, kernels compile on every run", file=stderr)
    return "disabled"


def tolerate_cache_write_errors(stderr=None):
    """A kernel whose cache file cannot be written (a full disk, ``ulimit -f``) still runs.

    numba raises the write's ``OSError`` (``[Errno 27] File too large``, no
    file named) from the call that compiled; the command line calls this
    first, so that the work goes on, with one note naming the cache directory
    (numba writes through a temporary file: nothing half-written is left).
    """
    from numba.core import caching

    save = caching.Cache.save_overload
    if getattr(save, "tolerant", False):
        return

    def save_overload(self, sig, data):
        try:
            save(self, sig, data)
        except OSError as exc:
            if not save_overload.noted:
                save_overload.noted = True
                print(f"skbioner: note: numba cannot write its cache in {self._cache_path} "
                      f"({exc.strerror or exc}): compiled code is not kept for the next run",
                      file=stderr or sys.stderr)

    save_overload.tolerant, save_overload.noted = True, False
    caching.Cache.save_overload = save_overload


configure_numba_cache()
