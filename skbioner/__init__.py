"""skbioner: scikit-learn compatible biomedical named entity recognition."""

from . import _numba_cache  # noqa: F401  (first: a writable numba cache before any kernel)
from ._sentence import Sentence, as_sentence, check_sentences

#: The version of the package.
__version__ = "0.1.0.dev0"

__all__ = ["Sentence", "as_sentence", "check_sentences", "make_pipeline", "__version__"]

# Public names from heavier subpackages, imported on first use so that ``import skbioner``
# (and ``skbioner --help``) stays light.
_LAZY = {"make_pipeline": "skbioner.pipelines"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'skbioner' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
