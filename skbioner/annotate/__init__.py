"""Token annotators: transformers that add annotation columns for the featurizer.

* :class:`POSTagger` -- in-domain part of speech (``pos``) from a bundled GENIA-trained
  tagger (:func:`load_genia_pos_model`; :func:`make_pos_pipeline` is its recipe), with
  out-of-fold (jackknife) annotations for training data.
"""

from ._pos import POSTagger, load_genia_pos_model, make_pos_pipeline

__all__ = ["POSTagger", "load_genia_pos_model", "make_pos_pipeline"]
