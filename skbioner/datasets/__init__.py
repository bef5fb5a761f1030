"""Corpora as training data: any labelled corpus file (:func:`load_corpus`), the bundled
JNLPBA sample and the full JNLPBA files, the development split by abstracts.

:func:`dev_split` / :func:`annotate_split` add annotation columns to a
training part and an evaluation part the way a pipeline would, refusing an
annotator that would tag an evaluation sentence with a model trained on it.
:func:`jnlpba_overlap_ids` finds the test abstracts that are also training
abstracts (10 of the 404 JNLPBA test abstracts) and :func:`drop_documents`
writes a column file without them, for the official scorer; :func:`drop_copies` drops
the unlabeled sentences that copy training sentences.
"""

from ._corpus import load_corpus
from ._jnlpba import (
    JNLPBA_TYPES,
    jnlpba_overlap_ids,
    load_jnlpba,
    load_jnlpba_sample,
    train_dev_split,
)
from ._overlap import drop_copies, drop_documents
from ._split import DevSplit, annotate_split, dev_split

__all__ = ["DevSplit", "JNLPBA_TYPES", "annotate_split", "dev_split", "drop_copies",
           "drop_documents",
           "jnlpba_overlap_ids", "load_corpus", "load_jnlpba", "load_jnlpba_sample",
           "train_dev_split"]
