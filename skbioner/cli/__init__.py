"""The ``skbioner`` command line: one module per subcommand."""

from ._main import main

__all__ = ["main"]
