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
from ._consistency import LabelConsistency
from ._patterns import Pattern, PatternPostProcessor

__all__ = [
    "STEP_CONFIDENCE",
    "Abbreviation",
    "AbbreviationResolver",
    "CascadedEntityRules",
    "LabelledDocument",
    "LabelConsistency",
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


def __getattr__(name):
    if name in ("FirstPassAnnotator", "first_pass_groups"):  # annotators: in skbioner.annotate
        import warnings

        from .. import annotate

        warnings.warn(f"skbioner.postprocess.{name} is now skbioner.annotate.{name}; the old "
                      "place goes in 0.3", FutureWarning, stacklevel=2)
        return getattr(annotate, name)
    if name == "Document":  # renamed: skbioner.tagging.Document is a raw-text document
        import warnings

        warnings.warn("skbioner.postprocess.Document is now LabelledDocument (Document is "
                      "skbioner.tagging's raw-text document); the old name goes in 0.3",
                      FutureWarning, stacklevel=2)
        return LabelledDocument
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
