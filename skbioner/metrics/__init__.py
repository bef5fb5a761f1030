"""Entity-level evaluation: the official JNLPBA scorer, span F1, scorers, significance."""

from ._bootstrap import BootstrapResult, paired_bootstrap
from ._entity import (
    entity_f1_score,
    entity_f1_scorer,
    entity_report,
    make_entity_scorer,
    sentence_counts,
    sequence_accuracy_score,
    sequence_accuracy_scorer,
    token_accuracy_score,
    token_accuracy_scorer,
)
from ._files import ScoringInputError, evaluate_files, evaluate_span_files, read_label_blocks
from ._official import OfficialTallies, official_token_tallies
from ._report import ClassScore, EntityReport, MatchScore
from ._spans import character_span_report, character_span_scores

__all__ = [
    "character_span_report",
    "character_span_scores",
    "BootstrapResult",
    "ClassScore",
    "EntityReport",
    "MatchScore",
    "OfficialTallies",
    "ScoringInputError",
    "entity_f1_score",
    "entity_f1_scorer",
    "entity_report",
    "evaluate_files",
    "evaluate_span_files",
    "make_entity_scorer",
    "official_token_tallies",
    "paired_bootstrap",
    "read_label_blocks",
    "sentence_counts",
    "sequence_accuracy_score",
    "sequence_accuracy_scorer",
    "token_accuracy_score",
    "token_accuracy_scorer",
]
