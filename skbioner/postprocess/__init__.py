"""Post-processing: document-level steps that correct a tagger's predictions.

:class:`PostProcessedTagger` wraps any tagger of the suite and a list of
steps; each step sees one document at a time (:class:`LabelledDocument`: the
sentences of an abstract with their annotation columns, the labels
predicted so far and, when available, the token marginals) and returns
corrected labels.
"""

from ._abbreviations import Abbreviation, AbbreviationResolver, alias_score, find_abbreviations
from ._alias import NameAlias
from ._base import (
    STEP_CONFIDENCE,
    LabelledDocument,
    PostProcessedTagger,
    PostprocessStep,
    apply_steps,
    group_documents,
)
from ._cascade import CascadedEntityRules
from ._patterns import Pattern, PatternPostProcessor

__all__ = [
    "STEP_CONFIDENCE",
    "Abbreviation",
    "AbbreviationResolver",
    "CascadedEntityRules",
    "LabelledDocument",
    "NameAlias",
    "Pattern",
    "PatternPostProcessor",
    "PostProcessedTagger",
    "PostprocessStep",
    "alias_score",
    "apply_steps",
    "find_abbreviations",
    "group_documents",
]
