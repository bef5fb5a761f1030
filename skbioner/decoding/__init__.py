"""Decoding: from per-token label scores to label sequences, marginals and confidences.

Every sequence model of the suite produces per-token label scores (sparse
features times chain weights, calibrated SVM outputs, HMM emissions) plus
transition scores and a scheme's transition mask; this subpackage turns them
into paths (one compiled Viterbi, or greedy left-to-right decoding with the
predicted labels as features), token marginals (forward-backward) and
entity-span probabilities.
"""

from ._greedy import greedy_decode
from ._marginals import (
    SegmentTable,
    chain_marginals,
    emission_scores,
    opening_marginals,
    segment_probabilities,
    span_probabilities,
)
from ._viterbi import NEG, sequence_score, viterbi, viterbi_batch, viterbi_csr, viterbi_ids

__all__ = [
    "NEG",
    "SegmentTable",
    "chain_marginals",
    "emission_scores",
    "greedy_decode",
    "opening_marginals",
    "segment_probabilities",
    "sequence_score",
    "span_probabilities",
    "viterbi",
    "viterbi_batch",
    "viterbi_csr",
    "viterbi_ids",
]
