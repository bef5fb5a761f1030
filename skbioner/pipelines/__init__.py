"""Ready pipelines: the suite's tuned presets by name."""

from ._presets import PRESETS, make_annotators, make_pipeline

__all__ = ["PRESETS", "make_annotators", "make_pipeline"]
