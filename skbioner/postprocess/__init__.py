"""Post-processing: document-level steps that correct a tagger's predictions.

:class:`PostProcessedTagger` wraps any tagger of the suite and a list of
steps; each step sees one document at a time (:class:`Document`: the
sentences of an abstract with their annotation columns, the labels
predicted so far and, when available, the token marginals) and returns
corrected labels.
"""

from ._base import (
    Document,
    PostProcessedTagger,
    PostprocessStep,
    apply_steps,
    group_documents,
)
from ._consistency import LabelConsistency
from ._patterns import Pattern, PatternPostProcessor

__all__ = [
    "Document",
    "LabelConsistency",
    "Pattern",
    "PatternPostProcessor",
    "PostProcessedTagger",
    "PostprocessStep",
    "apply_steps",
    "group_documents",
]
