"""Sequence taggers: one linear-chain core, and the models built on it."""

from ._baseline import MajorityTagger
from ._cascaded import CascadedNER
from ._crfsuite import CRFsuiteTagger
from ._hmm_svm import HMMSVMTagger
from ._online_crf import OnlinePACRF
from ._pairwise_svm import PairwiseSVMTagger
from ._recut import LearnedCutTagger, RecutTagger

__all__ = [
    "CRFsuiteTagger",
    "CascadedNER",
    "HMMSVMTagger",
    "LearnedCutTagger",
    "MajorityTagger",
    "OnlinePACRF",
    "PairwiseSVMTagger",
    "RecutTagger",
]
