"""Assertions shared by the io tests."""

from skbioner.io import CorpusFormatError


def assert_format_error(excinfo, path, line):
    """The error names the file and the 1-based line (or no line)."""
    err = excinfo.value
    assert isinstance(err, CorpusFormatError)
    assert err.path == str(path)
    assert err.line == line
    prefix = f"{path}:{line}: " if line is not None else f"{path}: "
    assert str(err).startswith(prefix), str(err)
