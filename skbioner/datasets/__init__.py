"""Loaders for the bundled JNLPBA sample and for full JNLPBA files."""

from ._jnlpba import (
    JNLPBA_TYPES,
    jnlpba_overlap_ids,
    load_jnlpba,
    load_jnlpba_sample,
    train_dev_split,
)

__all__ = ["JNLPBA_TYPES", "jnlpba_overlap_ids", "load_jnlpba", "load_jnlpba_sample",
           "train_dev_split"]
