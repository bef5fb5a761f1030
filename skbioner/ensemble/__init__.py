"""Combinations of taggers: members' entities put to a vote, or read by a second pass.

:class:`VotingTagger` keeps the entities a weighted majority of member taggers
proposes (scikit-learn's ``VotingClassifier`` for sequences);
:class:`StackedTagger` trains a second-pass tagger on the members' out-of-fold
outputs (``StackingClassifier`` for sequences; the two-pass system generalised
to several first passes).  :class:`DistilledTagger` trains one fast
student on gold and on a slow teacher's labels of unlabeled text (distillation).
:func:`cross_val_outputs` and :func:`tagger_outputs`
give the members' outputs they read.
"""

from ._columns import combined_outputs, stacking_columns, stacking_groups
from ._distill import DistilledTagger
from ._outputs import TaggerOutputs, cross_val_outputs, tagger_outputs
from ._spans import member_weights, vote_spans
from ._stacking import StackedTagger, with_feature_groups
from ._voting import VotingTagger

__all__ = ["DistilledTagger", "StackedTagger", "TaggerOutputs", "VotingTagger",
           "combined_outputs", "cross_val_outputs",
           "member_weights", "stacking_columns", "stacking_groups", "tagger_outputs",
           "vote_spans", "with_feature_groups"]
