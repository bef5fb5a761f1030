"""Sequence taggers."""

from ._baseline import MajorityTagger

__all__ = ["MajorityTagger"]
