"""Model selection on the training data: which feature groups a model should read.

:class:`SequentialGroupSelector` runs NERBio's sequential forward selection
(Tsai et al. 2006) over a featurizer's named feature groups, featurizing
once and scoring each candidate on held-out documents (or grouped folds).
"""

from ._sequential import SequentialGroupSelector

__all__ = ["SequentialGroupSelector"]
