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

#: internal names this package used to export: still importable, with a warning
_MOVED = {"ChainScores": "._base", "ChainTaggerMixin": "._base", "check_features": "._base",
          "check_targets": "._base", "ChainWeights": "._linear_chain",
          "LabelSpace": "._linear_chain", "SegmentFeaturizer": "._cascaded"}


def __getattr__(name):
    if name in _MOVED:
        import importlib
        import warnings

        warnings.warn(f"skbioner.models.{name} is internal and will no longer be exported in "
                      f"0.3 (import it from skbioner.models{_MOVED[name]})", FutureWarning,
                      stacklevel=2)
        return getattr(importlib.import_module(_MOVED[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
