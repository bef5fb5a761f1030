"""skbioner: scikit-learn compatible biomedical named entity recognition."""

from . import _numba_cache  # noqa: F401  (first: a writable numba cache before any kernel)
from ._sentence import Sentence, as_sentence, check_sentences

#: The version of the package.
__version__ = "0.1.0.dev0"

__all__ = ["Sentence", "as_sentence", "check_sentences", "__version__"]
