"""Whole taggers: the one system builder (:func:`make_tagger`, what ``skbioner train``
builds), the suite's tuned presets, tuning on the user's own data, and what a fitted
tagger is (:func:`describe_model`) and weighs (:func:`top_features`);
:class:`SequentialGroupSelector` chooses a featurizer's groups (NERBio)."""

from ._build import (
    COMBINATIONS,
    add_knowledge,
    make_members,
    make_tagger,
    parse_members,
    parse_params,
)
from ._inspect import describe_model, top_features
from ._pipeline import TaggerPipeline
from ._presets import PRESETS, TWO_PASS_PARAMS, make_annotators
from ._sequential import SequentialGroupSelector
from ._tune import TunedTagger, search_space, tune

__all__ = ["COMBINATIONS", "PRESETS", "SequentialGroupSelector", "TWO_PASS_PARAMS",
           "TaggerPipeline", "TunedTagger",
           "add_knowledge", "describe_model", "make_members", "make_annotators",
           "make_tagger", "parse_members", "parse_params",
           "search_space", "top_features", "tune"]
