"""Corpora as training data: any labelled corpus file (:func:`load_corpus`), the bundled
JNLPBA sample and the full JNLPBA files, the development split by abstracts."""

from ._corpus import load_corpus
from ._jnlpba import (
    JNLPBA_TYPES,
    jnlpba_overlap_ids,
    load_jnlpba,
    load_jnlpba_sample,
    train_dev_split,
)

__all__ = ["JNLPBA_TYPES", "jnlpba_overlap_ids", "load_corpus", "load_jnlpba",
           "load_jnlpba_sample", "train_dev_split"]
