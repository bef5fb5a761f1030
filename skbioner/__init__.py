"""skbioner: scikit-learn compatible biomedical named entity recognition.

``skbioner.tag_text("...")`` tags raw text with the bundled JNLPBA model (or any model
given), ``skbioner.load_model()`` returns that model (or loads a model file), and
``skbioner.make_tagger(name, ...)`` builds any of the suite's taggers (what ``skbioner
train`` builds); the subpackages hold the
rest (``skbioner.io``, ``skbioner.features``, ``skbioner.models``, ``skbioner.tagging``...).
"""

from . import _numba_cache  # noqa: F401  (first: a writable numba cache before any kernel)
from ._sentence import Sentence, as_sentence, check_sentences
from ._version import __version__

__all__ = ["Sentence", "as_sentence", "check_sentences", "load_model", "make_tagger",
           "tag_text", "__version__"]

# Public names from heavier subpackages, imported on first use so that ``import skbioner``
# (and ``skbioner --help``) stays light.
_LAZY = {"make_tagger": "skbioner.pipelines", "load_model": "skbioner.tagging._bundled",
         "tag_text": "skbioner.tagging"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'skbioner' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
