"""The version of the package (one place; ``skbioner.__version__`` re-exports it)."""

__version__ = "0.1.0.dev0"
