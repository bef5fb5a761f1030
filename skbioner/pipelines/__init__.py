"""Ready pipelines: the suite's tuned presets by name, and tuning on the user's own data."""

from ._presets import PRESETS, make_annotators, make_pipeline
from ._tune import TunedTagger, search_space, tune

__all__ = ["PRESETS", "TunedTagger", "make_annotators", "make_pipeline", "search_space", "tune"]
