"""Sequence taggers sharing one linear-chain core."""

from ._baseline import MajorityTagger
from ._cascaded import CascadedNER, SegmentFeaturizer
from ._crfsuite import CRFsuiteTagger
from ._linear_chain import ChainWeights, LabelSpace
from ._online_crf import OnlinePACRF
from ._viterbi import viterbi, viterbi_batch

__all__ = [
    "CRFsuiteTagger",
    "CascadedNER",
    "ChainWeights",
    "LabelSpace",
    "MajorityTagger",
    "OnlinePACRF",
    "SegmentFeaturizer",
    "viterbi",
    "viterbi_batch",
]
