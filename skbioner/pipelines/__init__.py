"""Ready pipelines: the suite's tuned presets by name, tuning on the user's own data, and
what a fitted pipeline is (:func:`describe_model`) and weighs (:func:`top_features`)."""

from ._inspect import describe_model, top_features
from ._presets import (
    PRESETS,
    add_first_pass,
    add_knowledge,
    make_annotators,
    make_pipeline,
    make_two_pass,
)
from ._tune import TunedTagger, search_space, tune

__all__ = ["PRESETS", "TunedTagger", "add_first_pass", "add_knowledge", "describe_model",
           "make_annotators", "make_pipeline", "make_two_pass", "search_space", "top_features",
           "tune"]
