"""Fixtures for the io tests.

The real-data helper ``data_path`` lives in ``tests/conftest.py``.  Test
directories without ``__init__.py`` all import their conftest as the module
``conftest``, so ``from conftest import data_path`` could pick up another
directory's conftest; the fixture below takes the helper from the registered
root conftest plugin instead.
"""

from pathlib import Path

import pytest

_ROOT_CONFTEST = (Path(__file__).resolve().parents[1] / "conftest.py").resolve()


@pytest.fixture(scope="session")
def data_path(pytestconfig):
    """``data_path(*parts)``: a file under the shared data dir, or skip the test."""
    for plugin in pytestconfig.pluginmanager.get_plugins():
        file = getattr(plugin, "__file__", None)
        if file and Path(file).resolve() == _ROOT_CONFTEST and hasattr(plugin, "data_path"):
            return plugin.data_path
    raise RuntimeError(f"tests/conftest.py with data_path() not loaded: {_ROOT_CONFTEST}")


@pytest.fixture
def write_file(tmp_path):
    """``write_file(name, content)``: write str (UTF-8, no newline translation)
    or bytes to ``tmp_path / name`` and return the path."""

    def write(name: str, content) -> Path:
        path = tmp_path / name
        data = content.encode("utf-8") if isinstance(content, str) else content
        path.write_bytes(data)
        return path

    return write
