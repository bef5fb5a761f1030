"""Sequence taggers: one linear-chain core, and the models built on it."""

from ._base import ChainScores, ChainTaggerMixin, check_features, check_targets
from ._baseline import MajorityTagger
from ._cascaded import CascadedNER, SegmentFeaturizer
from ._crfsuite import CRFsuiteTagger
from ._hmm_svm import HMMSVMTagger
from ._linear_chain import ChainWeights, LabelSpace
from ._online_crf import OnlinePACRF
from ._pairwise_svm import PairwiseSVMTagger
from ._recut import RecutTagger

__all__ = [
    "CRFsuiteTagger",
    "CascadedNER",
    "ChainScores",
    "ChainTaggerMixin",
    "ChainWeights",
    "HMMSVMTagger",
    "LabelSpace",
    "MajorityTagger",
    "OnlinePACRF",
    "PairwiseSVMTagger",
    "RecutTagger",
    "SegmentFeaturizer",
    "check_features",
    "check_targets",
]
