"""Fixtures for the io tests."""

from pathlib import Path

import pytest

from tests.conftest import data_path as _data_path


@pytest.fixture(scope="session")
def data_path():
    """``data_path(*parts)``: a file under the shared data dir, or skip the test."""
    return _data_path


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
