"""The ``skbioner`` command line: one module per subcommand."""

from ._formats import training_data_record
from ._main import main
from ._options import train_command

__all__ = ["main", "train_command", "training_data_record"]
