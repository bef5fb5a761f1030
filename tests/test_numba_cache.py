"""Issue 11, item 15: an unwritable package directory and HOME must not stop the import."""

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import skbioner
from skbioner._numba_cache import configure_numba_cache

PACKAGE = Path(skbioner.__file__).parent


def _read_only_copy(tmp_path):
    """A copy of the package where no ``__pycache__`` can be made (a file is in the way).

    A file named ``__pycache__`` blocks the directory for root too, so this works
    whoever runs the tests (chmod would not stop root).
    """
    root = tmp_path / "site"
    shutil.copytree(PACKAGE, root / "skbioner",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for d in [root / "skbioner", *(p for p in (root / "skbioner").rglob("*") if p.is_dir())]:
        (d / "__pycache__").write_text("")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".cache").write_text("")  # no ~/.cache/numba either
    return root, home


def _env(root, home, tmp):
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH")}
    env.update(HOME=str(home), PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1",
               TMPDIR=str(tmp))
    return env


@pytest.mark.slow
def test_unwritable_package_and_home_fall_back_to_a_temp_cache(tmp_path):
    root, home, tmp = *_read_only_copy(tmp_path), tmp_path / "tmp"
    tmp.mkdir()
    code = ("import skbioner.features, skbioner.models, skbioner.text, skbioner.annotate\n"
            "from skbioner.features._assemble import _count_table\n"
            "import skbioner, os; print(skbioner.__file__); print(os.environ['NUMBA_CACHE_DIR'])")
    r = subprocess.run([sys.executable, "-c", code], env=_env(root, home, tmp),
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0].startswith(str(root))  # the read-only copy was imported
    assert Path(out[1]).parent == tmp  # a private directory under the temporary directory
    [note] = r.stderr.splitlines()
    assert note.startswith("skbioner: note: numba cannot cache compiled code") and out[1] in note
    # the CLI works there too, and its child processes inherit the setting silently
    r = subprocess.run([sys.executable, "-m", "skbioner", "--version"],
                       env=_env(root, home, tmp), capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("skbioner ")
    assert r.stderr.count("\n") == 1
    env = _env(root, home, tmp)
    env["NUMBA_CACHE_DIR"] = out[1]
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""


def test_configure_reports_what_it_did(tmp_path):
    err = io.StringIO()
    assert configure_numba_cache({"NUMBA_CACHE_DIR": str(tmp_path)}, stderr=err) == "ok"
    blocked = tmp_path / "file"
    blocked.write_text("")
    environ = {"NUMBA_CACHE_DIR": str(blocked / "cache")}
    assert configure_numba_cache(environ, stderr=err) == "tempdir"
    assert environ["NUMBA_CACHE_DIR"] != str(blocked / "cache")
    assert os.path.isdir(environ["NUMBA_CACHE_DIR"])
    assert err.getvalue().count("\n") == 1 and "is not writable" in err.getvalue()


@pytest.mark.slow
def test_one_cache_directory_per_user_reused_and_no_litter(tmp_path):
    # issue 22, item 8: every run made a new skbioner-numba-cache-XXXX, never removed
    root, home, tmp = *_read_only_copy(tmp_path), tmp_path / "tmp"
    tmp.mkdir()
    code = "import skbioner, os; print(os.environ['NUMBA_CACHE_DIR'])"
    dirs = [subprocess.run([sys.executable, "-c", code], env=_env(root, home, tmp),
                           capture_output=True, text=True, cwd=tmp_path).stdout.strip()
            for _ in range(2)]
    assert dirs[0] == dirs[1] and os.listdir(tmp) == [Path(dirs[0]).name]
    if hasattr(os, "getuid"):
        os.chmod(dirs[0], 0o777)  # ours but open to others: made private again, and reused
        again = subprocess.run([sys.executable, "-c", code], env=_env(root, home, tmp),
                               capture_output=True, text=True, cwd=tmp_path).stdout.strip()
        assert again == dirs[0] and os.stat(dirs[0]).st_mode & 0o777 == 0o700
    if hasattr(os, "getuid") and os.getuid() == 0:
        os.chown(dirs[0], 65534, -1)  # another user's: a fresh directory, removed at exit
        r = subprocess.run([sys.executable, "-c", code], env=_env(root, home, tmp),
                           capture_output=True, text=True, cwd=tmp_path)
        assert r.stdout.strip() != dirs[0] and "removed at exit" in r.stderr
        assert os.listdir(tmp) == [Path(dirs[0]).name]


@pytest.mark.slow  # compiles the decoding kernels from nothing
def test_first_run_is_told_and_a_compiled_cache_is_not(tmp_path):
    # a fresh cache directory is what a fresh install has: nothing compiled yet
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    code = ("import numpy as np, scipy.sparse as sp; "
            "from skbioner.cli._main import kernels_compiled; print(kernels_compiled()); "
            "from skbioner.decoding import viterbi_csr; z = np.zeros(2); "
            "viterbi_csr(sp.csr_matrix(np.ones((3, 4))), np.array([0, 3]), np.zeros((4, 2)), "
            "np.zeros((2, 2)), z, z); print(kernels_compiled())")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.stdout.split() == ["False", "True"], out.stderr
    import numpy as np
    import scipy.sparse as sp

    from skbioner.cli._main import _COMPILING, _first_run
    from skbioner.decoding import viterbi_csr

    assert {"train", "tag", "demo"} <= _COMPILING
    z = np.zeros(2)  # this process's cache: compiled (or loaded) here, whatever ran before
    viterbi_csr(sp.csr_matrix(np.ones((3, 4))), np.array([0, 3]), np.zeros((4, 2)),
                np.zeros((2, 2)), z, z)
    assert _first_run() is False
