"""Token annotators: transformers that add annotation columns for the featurizer.

* :class:`POSTagger` -- in-domain part of speech (``pos``) from a bundled GENIA-trained
  tagger (:func:`load_genia_pos_model`; :func:`make_pos_pipeline` is its recipe), with
  out-of-fold (jackknife) annotations for training data.
* :class:`RuleChunker` -- noun, verb and prepositional phrase chunks (``chunk``) read off the
  ``pos`` column by rules (an approximation of a trained chunker; NERBio's features read it).
* :class:`HMMStateClusterer` trains a hidden Markov model on unlabeled sentences (Kazama et
  al. 2002) and adds each token's HMM state as the ``hmm`` column, which the ``"kazama"``
  feature preset reads; :func:`shape_class` is the word-shape class it observes for words
  outside its vocabulary.
* :class:`LexiconMatcher` -- names of real terminologies (genes, chemicals, diseases,
  species, cells...; the lexicons shipped with the package or a file of your own) as
  each type's position in the ``lex`` column; or the training names (a closed dictionary,
  out of fold) in a ``dict_*`` column.
* :func:`first_pass_columns` -- a first pass's labels and Zhou & Su's knowledge modules as
  ``fp_*`` columns of a second pass (:func:`first_pass_groups` are the templates that read
  them; :class:`~skbioner.ensemble.StackedTagger` trains the two passes).
* Word classes from unlabeled text: :class:`BrownClusterer` (Brown clusters, the ``brown``
  bit-string column), :class:`EmbeddingClusterer` (k-means classes of PPMI-SVD word
  embeddings, ``emb64``...), and :class:`WordClassAnnotator`, which adds the classes shipped
  with the package (or a table written by :func:`skbioner.io.write_word_classes`).
"""

from ._brown import BrownClusterer
from ._chunk import RuleChunker
from ._embeddings import EmbeddingClusterer
from ._first_pass import first_pass_columns, first_pass_groups
from ._hmm import SHAPE_CLASSES, HMMStateClusterer, shape_class
from ._lexicon import (
    BUNDLED_LEXICONS,
    LEX_COLUMN,
    LexiconMatcher,
    normalize_name,
    read_lexicon,
)
from ._pos import POSTagger, load_genia_pos_model, make_pos_pipeline
from ._word_classes import (
    BUNDLED_CLASSES,
    NORMALIZATIONS,
    UNKNOWN,
    WordClassAnnotator,
    normalize_word,
)

__all__ = ["BUNDLED_CLASSES", "BUNDLED_LEXICONS", "BrownClusterer",
           "EmbeddingClusterer", "HMMStateClusterer", "LEX_COLUMN",
           "LexiconMatcher",
           "NORMALIZATIONS", "POSTagger", "RuleChunker",
           "SHAPE_CLASSES", "UNKNOWN", "WordClassAnnotator", "first_pass_columns",
           "first_pass_groups",
           "load_genia_pos_model", "make_pos_pipeline", "normalize_name", "normalize_word",
           "read_lexicon", "shape_class"]
