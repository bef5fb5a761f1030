"""Token features for sequence models: templates, featurizer, representation.

:class:`TokenFeaturizer` turns a list of sentences into one
:class:`SentenceFeatures` (a CSR token x feature matrix plus sentence
offsets) that every model of skbioner reads.  Templates are data:
:class:`FeatureGroup` lists, with the published sets available through
:func:`get_preset`.  The shape functions are public so that hand-written
per-token featurizers produce the same values.  New kinds of feature
groups are declared with :func:`register_kind` (values computed by a
:class:`Channel`).
"""

from ._channels import Channel
from ._featurizer import TokenFeaturizer
from ._kinds import TOKEN_ATTRIBUTES
from ._registry import KINDS, BuildContext, register_kind
from ._representation import SentenceFeatures
from ._templates import TEMPLATE_PRESETS, FeatureGroup, get_preset
from ._word_shape import (
    GREEK_LETTERS,
    ORTHOGRAPHIC_FLAGS,
    WORD_FORMATION_PATTERNS,
    ZHOU_FORMATION_PATTERNS,
    brief_word_class,
    has_greek_letter,
    is_roman_numeral,
    length_bucket,
    length_bucket_labels,
    orthographic_flags,
    word_class,
    word_formation,
    zhou_word_formation,
)

__all__ = [
    "GREEK_LETTERS",
    "KINDS",
    "ORTHOGRAPHIC_FLAGS",
    "TEMPLATE_PRESETS",
    "TOKEN_ATTRIBUTES",
    "WORD_FORMATION_PATTERNS",
    "ZHOU_FORMATION_PATTERNS",
    "BuildContext",
    "Channel",
    "FeatureGroup",
    "SentenceFeatures",
    "TokenFeaturizer",
    "brief_word_class",
    "get_preset",
    "has_greek_letter",
    "is_roman_numeral",
    "length_bucket",
    "length_bucket_labels",
    "orthographic_flags",
    "register_kind",
    "word_class",
    "word_formation",
    "zhou_word_formation",
]
