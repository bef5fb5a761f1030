"""Document-grouped folds and hold-outs: the one rule every held-out computation uses.

A document's sentences stay together; a sentence without a document id is a
document of its own (with a single document, the sentences are the units).
:func:`document_folds` / :func:`document_splits` cut contiguous blocks of
documents, :func:`holdout_split` holds out the last ones.
"""

from ._split import document_folds, document_keys, document_splits, holdout_split

__all__ = ["document_folds", "document_keys", "document_splits", "holdout_split"]
