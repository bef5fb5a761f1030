"""The ``skbioner`` command line: one module per subcommand."""

from ._main import main
from ._options import train_command

__all__ = ["main", "train_command"]
